/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the model's files share inside client/design: the JSON readers that
 * name the path of what is wrong, and the importers and exporters of the
 * other formats. Not part of the contract (dyn-design.h). */

#include "dyn-design.h"

G_BEGIN_DECLS

/* "entities[2]" + "name" → "entities[2].name"; "" + "name" → "name". */
char       *_dyn_design_path_member (const char *path, const char *member) G_GNUC_WARN_UNUSED_RESULT;
char       *_dyn_design_path_index  (const char *path, guint index) G_GNUC_WARN_UNUSED_RESULT;
void        _dyn_design_path_error  (GError **error, const char *path, const char *member,
                                     const char *format, ...) G_GNUC_PRINTF (4, 5);

/* Member readers: absent (or JSON null) leaves *out as it is and succeeds
 * unless @required; a member of the wrong type fails naming path.member. */
gboolean    _dyn_design_read_string (JsonObject *obj, const char *path, const char *member,
                                     gboolean required, char **out, GError **error);
gboolean    _dyn_design_read_strv   (JsonObject *obj, const char *path, const char *member,
                                     gboolean required, GStrv *out, GError **error);
gboolean    _dyn_design_read_bool   (JsonObject *obj, const char *path, const char *member,
                                     gboolean *out, GError **error);
gboolean    _dyn_design_read_uint64 (JsonObject *obj, const char *path, const char *member,
                                     guint64 *out, GError **error);
gboolean    _dyn_design_read_double (JsonObject *obj, const char *path, const char *member,
                                     double *out, GError **error);
/* Borrowed; *out NULL when absent (and not @required). */
gboolean    _dyn_design_read_object (JsonObject *obj, const char *path, const char *member,
                                     gboolean required, JsonObject **out, GError **error);
gboolean    _dyn_design_read_array  (JsonObject *obj, const char *path, const char *member,
                                     gboolean required, JsonArray **out, GError **error);
/* An array element that must be an object. */
JsonObject *_dyn_design_array_object (JsonArray *array, guint i, const char *path, GError **error);

gboolean    _dyn_design_key_type_valid (const char *type);   /* "S" "N" "B" */
DynDesignIndex *_dyn_design_index_new  (const char *name);
DynDesignIndex *_dyn_design_index_copy (const DynDesignIndex *index);
DynDesignEntity *_dyn_design_entity_copy (const DynDesignEntity *entity);
/* An index by name in @table, or NULL. */
DynDesignIndex *_dyn_design_table_find_index (const DynDesignTable *table, const char *name);

/* Key attribute types of @table: name → "S"/"N"/"B" for the table's and
 * every index's key attributes (the AttributeDefinitions). */
JsonNode   *_dyn_design_attribute_definitions (const DynDesignTable *table);

/* NoSQL Workbench (dyn-design-workbench.c). */
DynDesignModel *_dyn_design_workbench_load   (JsonObject *root, const char *table, GError **error);
/* @items: the TableData to write (the model's own, or a plan's examples). */
JsonNode       *_dyn_design_workbench_export (const DynDesignModel *model, const DynDesignTable *table,
                                              GPtrArray *placements, GPtrArray *items, GError **error);

/* CloudFormation and the create-table input (dyn-design-cloudformation.c).
 * @root: a template (Resources), a bare AWS::DynamoDB::Table resource, or
 * the create-table input (TableName + KeySchema). */
DynDesignModel *_dyn_design_cloudformation_load (JsonObject *root, const char *table, GError **error);
DynDesignTable *_dyn_design_table_from_create_input (JsonObject *obj, const char *path, GError **error);
JsonNode       *_dyn_design_cloudformation_export (const DynDesignModel *model, const DynDesignTable *table,
                                                   GError **error);
JsonNode       *_dyn_design_create_table_export   (const DynDesignTable *table, GError **error);

/* JSON shared by the plan and the check report (dyn-design-draft.c):
 * a string member or null, and an array of decisions (findings). */
void            _dyn_design_add_string_or_null (JsonBuilder *b, const char *name, const char *value);
void            _dyn_design_add_decisions      (JsonBuilder *b, const char *name, GPtrArray *decisions);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignIndex, dyn_design_index_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignAttribute, dyn_design_attribute_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDesignRelationship, dyn_design_relationship_free)

G_END_DECLS
