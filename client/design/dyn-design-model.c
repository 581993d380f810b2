/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model's structures, the Dynoscope model file (client/design/MODEL.md),
 * validation, format detection and export dispatch. */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-design-private.h"
#include "dyn-error.h"
#include "dyn-json.h"

#define FORMAT_TAG "dynoscope-design"
#define FORMAT_VERSION 1

/* Paths and readers ------------------------------------------------------- */

char *
_dyn_design_path_member (const char *path,
                         const char *member)
{
  if (path == NULL || *path == '\0')
    return g_strdup (member);
  return g_strconcat (path, ".", member, NULL);
}

char *
_dyn_design_path_index (const char *path,
                        guint       index)
{
  return g_strdup_printf ("%s[%u]", path != NULL ? path : "", index);
}

void
_dyn_design_path_error (GError    **error,
                        const char *path,
                        const char *member,
                        const char *format,
                        ...)
{
  g_autofree char *where = member != NULL ? _dyn_design_path_member (path, member) : g_strdup (path);
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  if (where == NULL || *where == '\0')
    g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, what);
  else
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s: %s", where, what);
}

static JsonNode *
get_member (JsonObject *obj,
            const char *member)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, member) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_NULL (node))
    return NULL;
  return node;
}

static gboolean
missing (gboolean    required,
         const char *path,
         const char *member,
         GError    **error)
{
  if (required)
    _dyn_design_path_error (error, path, member, "%s", _("missing"));
  return !required;
}

gboolean
_dyn_design_read_string (JsonObject *obj,
                         const char *path,
                         const char *member,
                         gboolean    required,
                         char      **out,
                         GError    **error)
{
  JsonNode *node = get_member (obj, member);

  if (node == NULL)
    return missing (required, path, member, error);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      _dyn_design_path_error (error, path, member, "%s", _("must be a string"));
      return FALSE;
    }
  if (required && *json_node_get_string (node) == '\0')
    {
      _dyn_design_path_error (error, path, member, "%s", _("cannot be empty"));
      return FALSE;
    }
  g_free (*out);
  *out = g_strdup (json_node_get_string (node));
  return TRUE;
}

gboolean
_dyn_design_read_strv (JsonObject *obj,
                       const char *path,
                       const char *member,
                       gboolean    required,
                       GStrv      *out,
                       GError    **error)
{
  JsonNode *node = get_member (obj, member);
  g_autoptr(GStrvBuilder) b = NULL;
  JsonArray *array;

  if (node == NULL)
    return missing (required, path, member, error);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _dyn_design_path_error (error, path, member, "%s", _("must be an array of strings"));
      return FALSE;
    }
  array = json_node_get_array (node);
  b = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *e = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (e))
        goto bad;
      if (json_node_get_value_type (e) == G_TYPE_STRING)
        g_strv_builder_add (b, json_node_get_string (e));
      else if (json_node_get_value_type (e) == G_TYPE_INT64)
        {
          g_autofree char *s = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (e));
          g_strv_builder_add (b, s);
        }
      else
        {
        bad:
          {
            g_autofree char *where = _dyn_design_path_member (path, member);
            g_autofree char *at = _dyn_design_path_index (where, i);

            _dyn_design_path_error (error, at, NULL, "%s", _("must be a string"));
          }
          return FALSE;
        }
    }
  g_strfreev (*out);
  *out = g_strv_builder_end (b);
  return TRUE;
}

gboolean
_dyn_design_read_bool (JsonObject *obj,
                       const char *path,
                       const char *member,
                       gboolean   *out,
                       GError    **error)
{
  JsonNode *node = get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      _dyn_design_path_error (error, path, member, "%s", _("must be true or false"));
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

gboolean
_dyn_design_read_uint64 (JsonObject *obj,
                         const char *path,
                         const char *member,
                         guint64    *out,
                         GError    **error)
{
  JsonNode *node = get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64 &&
      json_node_get_int (node) >= 0)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }
  _dyn_design_path_error (error, path, member, "%s", _("must be a whole number, 0 or more"));
  return FALSE;
}

gboolean
_dyn_design_read_double (JsonObject *obj,
                         const char *path,
                         const char *member,
                         double     *out,
                         GError    **error)
{
  JsonNode *node = get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_INT64 || json_node_get_value_type (node) == G_TYPE_DOUBLE))
    {
      double d = json_node_get_value_type (node) == G_TYPE_INT64
                 ? (double) json_node_get_int (node) : json_node_get_double (node);

      if (isfinite (d) && d >= 0)
        {
          *out = d;
          return TRUE;
        }
    }
  _dyn_design_path_error (error, path, member, "%s", _("must be a number, 0 or more"));
  return FALSE;
}

gboolean
_dyn_design_read_object (JsonObject  *obj,
                         const char  *path,
                         const char  *member,
                         gboolean     required,
                         JsonObject **out,
                         GError     **error)
{
  JsonNode *node = get_member (obj, member);

  *out = NULL;
  if (node == NULL)
    return missing (required, path, member, error);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _dyn_design_path_error (error, path, member, "%s", _("must be an object"));
      return FALSE;
    }
  *out = json_node_get_object (node);
  return TRUE;
}

gboolean
_dyn_design_read_array (JsonObject  *obj,
                        const char  *path,
                        const char  *member,
                        gboolean     required,
                        JsonArray  **out,
                        GError     **error)
{
  JsonNode *node = get_member (obj, member);

  *out = NULL;
  if (node == NULL)
    return missing (required, path, member, error);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      _dyn_design_path_error (error, path, member, "%s", _("must be an array"));
      return FALSE;
    }
  *out = json_node_get_array (node);
  return TRUE;
}

JsonObject *
_dyn_design_array_object (JsonArray  *array,
                          guint       i,
                          const char *path,
                          GError    **error)
{
  JsonNode *node = json_array_get_element (array, i);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *at = _dyn_design_path_index (path, i);

      _dyn_design_path_error (error, at, NULL, "%s", _("must be an object"));
      return NULL;
    }
  return json_node_get_object (node);
}

/* Members a Dynoscope object may have; anything else is a typo worth naming. */
static gboolean
check_members (JsonObject         *obj,
               const char         *path,
               const char * const *allowed,
               GError            **error)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        _dyn_design_path_error (error, path, l->data, "%s", _("unknown member"));
        return FALSE;
      }
  return TRUE;
}

gboolean
_dyn_design_key_type_valid (const char *type)
{
  return type != NULL && (strcmp (type, "S") == 0 || strcmp (type, "N") == 0 || strcmp (type, "B") == 0);
}

static gboolean
attribute_type_valid (const char *type)
{
  DynValueType t;

  return type != NULL && dyn_value_type_from_string (type, &t);
}

/* Structures -------------------------------------------------------------- */

DynDesignModel *
dyn_design_model_new (const char *name)
{
  DynDesignModel *self = g_new0 (DynDesignModel, 1);

  self->name = g_strdup (name);
  self->entities = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_entity_free);
  self->relationships = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_relationship_free);
  self->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_pattern_free);
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  self->examples_per_parent = 3;
  self->source_format = DYN_DESIGN_FORMAT_DYNOSCOPE;
  return self;
}

void
dyn_design_model_free (DynDesignModel *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->description);
  dyn_design_table_free (self->table);
  g_clear_pointer (&self->entities, g_ptr_array_unref);
  g_clear_pointer (&self->relationships, g_ptr_array_unref);
  g_clear_pointer (&self->patterns, g_ptr_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->extra, json_node_unref);
  g_free (self);
}

static DynDesignAttribute *
attribute_copy (const DynDesignAttribute *a)
{
  DynDesignAttribute *c = dyn_design_attribute_new (a->name, a->type);

  c->examples = g_strdupv (a->examples);
  c->values = g_strdupv (a->values);
  c->required = a->required;
  return c;
}

DynDesignEntity *
_dyn_design_entity_copy (const DynDesignEntity *e)
{
  DynDesignEntity *c = dyn_design_entity_new (e->name);

  c->description = g_strdup (e->description);
  for (guint i = 0; i < e->attributes->len; i++)
    g_ptr_array_add (c->attributes, attribute_copy (e->attributes->pdata[i]));
  g_strfreev (c->id);
  c->id = g_strdupv (e->id);
  c->sort_by = g_strdup (e->sort_by);
  for (guint i = 0; i < e->keys->len; i++)
    {
      const DynDesignKey *k = e->keys->pdata[i];
      dyn_design_entity_set_key (c, k->attribute, k->template);
    }
  c->discriminator = g_strdup (e->discriminator);
  c->count = e->count;
  c->item_size = e->item_size;
  c->reads_per_second = e->reads_per_second;
  c->writes_per_second = e->writes_per_second;
  c->extra = e->extra != NULL ? json_node_copy (e->extra) : NULL;
  return c;
}

static DynDesignRelationship *
relationship_copy (const DynDesignRelationship *r)
{
  DynDesignRelationship *c = g_new0 (DynDesignRelationship, 1);

  c->kind = r->kind;
  c->parent = g_strdup (r->parent);
  c->child = g_strdup (r->child);
  c->edge = g_strdup (r->edge);
  c->items_per_parent = r->items_per_parent;
  return c;
}

static DynDesignPattern *
pattern_copy (const DynDesignPattern *p)
{
  DynDesignPattern *c = dyn_design_pattern_new (p->name, p->entity, p->operation);

  g_strfreev (c->parameters);
  c->parameters = g_strdupv (p->parameters);
  c->range_attribute = g_strdup (p->range_attribute);
  c->range_op = g_strdup (p->range_op);
  c->across_parents = p->across_parents;
  c->reads_per_second = p->reads_per_second;
  return c;
}

DynDesignModel *
dyn_design_model_copy (const DynDesignModel *self)
{
  DynDesignModel *c;

  g_return_val_if_fail (self != NULL, NULL);

  c = dyn_design_model_new (self->name);
  c->description = g_strdup (self->description);
  c->table = self->table != NULL ? dyn_design_table_copy (self->table) : NULL;
  for (guint i = 0; i < self->entities->len; i++)
    g_ptr_array_add (c->entities, _dyn_design_entity_copy (self->entities->pdata[i]));
  for (guint i = 0; i < self->relationships->len; i++)
    g_ptr_array_add (c->relationships, relationship_copy (self->relationships->pdata[i]));
  for (guint i = 0; i < self->patterns->len; i++)
    g_ptr_array_add (c->patterns, pattern_copy (self->patterns->pdata[i]));
  for (guint i = 0; i < self->items->len; i++)
    g_ptr_array_add (c->items, dyn_value_ref (self->items->pdata[i]));
  c->examples_per_parent = self->examples_per_parent;
  c->source_format = self->source_format;
  c->extra = self->extra != NULL ? json_node_copy (self->extra) : NULL;
  return c;
}

DynDesignEntity *
dyn_design_model_find_entity (const DynDesignModel *self,
                              const char           *name)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (name == NULL)
    return NULL;
  for (guint i = 0; i < self->entities->len; i++)
    {
      DynDesignEntity *e = self->entities->pdata[i];

      if (g_strcmp0 (e->name, name) == 0)
        return e;
    }
  return NULL;
}

DynDesignEntity *
dyn_design_entity_new (const char *name)
{
  DynDesignEntity *self = g_new0 (DynDesignEntity, 1);

  self->name = g_strdup (name);
  self->attributes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_attribute_free);
  self->id = g_new0 (char *, 1);
  self->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_key_free);
  return self;
}

void
dyn_design_entity_free (DynDesignEntity *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->description);
  g_clear_pointer (&self->attributes, g_ptr_array_unref);
  g_strfreev (self->id);
  g_free (self->sort_by);
  g_clear_pointer (&self->keys, g_ptr_array_unref);
  g_free (self->discriminator);
  g_clear_pointer (&self->extra, json_node_unref);
  g_free (self);
}

DynDesignAttribute *
dyn_design_attribute_new (const char *name,
                          const char *type)
{
  DynDesignAttribute *self = g_new0 (DynDesignAttribute, 1);

  self->name = g_strdup (name);
  self->type = g_strdup (type != NULL ? type : "S");
  return self;
}

void
dyn_design_attribute_free (DynDesignAttribute *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->type);
  g_strfreev (self->examples);
  g_strfreev (self->values);
  g_free (self);
}

DynDesignAttribute *
dyn_design_entity_find_attribute (const DynDesignEntity *self,
                                  const char            *name)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (name == NULL)
    return NULL;
  for (guint i = 0; i < self->attributes->len; i++)
    {
      DynDesignAttribute *a = self->attributes->pdata[i];

      if (g_strcmp0 (a->name, name) == 0)
        return a;
    }
  return NULL;
}

const char *
dyn_design_entity_get_key (const DynDesignEntity *self,
                           const char            *attribute)
{
  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; attribute != NULL && i < self->keys->len; i++)
    {
      const DynDesignKey *k = self->keys->pdata[i];

      if (g_strcmp0 (k->attribute, attribute) == 0)
        return k->template;
    }
  return NULL;
}

/* Sets (or with @template NULL removes) the entity's template for @attribute;
 * a new key goes after the others. */
void
dyn_design_entity_set_key (DynDesignEntity *self,
                           const char      *attribute,
                           const char      *template)
{
  g_return_if_fail (self != NULL && attribute != NULL);

  for (guint i = 0; i < self->keys->len; i++)
    {
      DynDesignKey *k = self->keys->pdata[i];

      if (g_strcmp0 (k->attribute, attribute) == 0)
        {
          if (template == NULL)
            g_ptr_array_remove_index (self->keys, i);
          else
            {
              g_free (k->template);
              k->template = g_strdup (template);
            }
          return;
        }
    }
  if (template != NULL)
    {
      DynDesignKey *k = g_new0 (DynDesignKey, 1);

      k->attribute = g_strdup (attribute);
      k->template = g_strdup (template);
      g_ptr_array_add (self->keys, k);
    }
}

void
dyn_design_key_free (DynDesignKey *self)
{
  if (self == NULL)
    return;
  g_free (self->attribute);
  g_free (self->template);
  g_free (self);
}

void
dyn_design_relationship_free (DynDesignRelationship *self)
{
  if (self == NULL)
    return;
  g_free (self->parent);
  g_free (self->child);
  g_free (self->edge);
  g_free (self);
}

DynDesignPattern *
dyn_design_pattern_new (const char        *name,
                        const char        *entity,
                        DynDesignOperation operation)
{
  DynDesignPattern *self = g_new0 (DynDesignPattern, 1);

  self->name = g_strdup (name);
  self->entity = g_strdup (entity);
  self->operation = operation;
  self->parameters = g_new0 (char *, 1);
  return self;
}

void
dyn_design_pattern_free (DynDesignPattern *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->entity);
  g_strfreev (self->parameters);
  g_free (self->range_attribute);
  g_free (self->range_op);
  g_free (self);
}

DynDesignTable *
dyn_design_table_new (const char *name)
{
  DynDesignTable *self = g_new0 (DynDesignTable, 1);

  self->name = g_strdup (name);
  self->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_design_index_free);
  self->billing_mode = g_strdup ("PAY_PER_REQUEST");
  return self;
}

DynDesignIndex *
_dyn_design_index_new (const char *name)
{
  DynDesignIndex *self = g_new0 (DynDesignIndex, 1);

  self->name = g_strdup (name);
  self->projection = g_strdup ("ALL");
  return self;
}

DynDesignIndex *
_dyn_design_index_copy (const DynDesignIndex *index)
{
  DynDesignIndex *c = _dyn_design_index_new (index->name);

  c->local = index->local;
  c->partition_key = g_strdup (index->partition_key);
  c->partition_type = g_strdup (index->partition_type);
  c->sort_key = g_strdup (index->sort_key);
  c->sort_type = g_strdup (index->sort_type);
  g_free (c->projection);
  c->projection = g_strdup (index->projection);
  c->non_key_attributes = g_strdupv (index->non_key_attributes);
  return c;
}

DynDesignTable *
dyn_design_table_copy (const DynDesignTable *self)
{
  DynDesignTable *c;

  g_return_val_if_fail (self != NULL, NULL);

  c = dyn_design_table_new (self->name);
  c->partition_key = g_strdup (self->partition_key);
  c->partition_type = g_strdup (self->partition_type);
  c->sort_key = g_strdup (self->sort_key);
  c->sort_type = g_strdup (self->sort_type);
  for (guint i = 0; i < self->indexes->len; i++)
    g_ptr_array_add (c->indexes, _dyn_design_index_copy (self->indexes->pdata[i]));
  g_free (c->billing_mode);
  c->billing_mode = g_strdup (self->billing_mode);
  c->read_capacity = self->read_capacity;
  c->write_capacity = self->write_capacity;
  c->ttl_attribute = g_strdup (self->ttl_attribute);
  c->fixed = self->fixed;
  return c;
}

void
dyn_design_table_free (DynDesignTable *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->partition_key);
  g_free (self->partition_type);
  g_free (self->sort_key);
  g_free (self->sort_type);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_free (self->billing_mode);
  g_free (self->ttl_attribute);
  g_free (self);
}

void
dyn_design_index_free (DynDesignIndex *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->partition_key);
  g_free (self->partition_type);
  g_free (self->sort_key);
  g_free (self->sort_type);
  g_free (self->projection);
  g_strfreev (self->non_key_attributes);
  g_free (self);
}

DynDesignIndex *
_dyn_design_table_find_index (const DynDesignTable *table,
                              const char           *name)
{
  for (guint i = 0; table != NULL && name != NULL && i < table->indexes->len; i++)
    {
      DynDesignIndex *index = table->indexes->pdata[i];

      if (g_strcmp0 (index->name, name) == 0)
        return index;
    }
  return NULL;
}

static DynValueType
key_type (const char *type)
{
  DynValueType t = DYN_VALUE_S;

  if (_dyn_design_key_type_valid (type))
    dyn_value_type_from_string (type, &t);
  return t;
}

DynTableKeys *
dyn_design_table_to_keys (const DynDesignTable *self)
{
  DynTableKeys *keys;

  g_return_val_if_fail (self != NULL, NULL);

  keys = dyn_table_keys_new (self->name, self->partition_key, key_type (self->partition_type),
                             self->sort_key, key_type (self->sort_type));
  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynDesignIndex *index = self->indexes->pdata[i];
      DynProjectionType projection = DYN_PROJECTION_ALL;
      DynIndexInfo *info;

      if (g_strcmp0 (index->projection, "KEYS_ONLY") == 0)
        projection = DYN_PROJECTION_KEYS_ONLY;
      else if (g_strcmp0 (index->projection, "INCLUDE") == 0)
        projection = DYN_PROJECTION_INCLUDE;
      info = dyn_table_keys_add_index (keys, index->name,
                                       index->local ? DYN_INDEX_LOCAL : DYN_INDEX_GLOBAL,
                                       index->partition_key, key_type (index->partition_type),
                                       index->sort_key, key_type (index->sort_type),
                                       projection);
      if (projection == DYN_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
        info->non_key_attributes = g_strdupv (index->non_key_attributes);
    }
  return keys;
}

JsonNode *
_dyn_design_attribute_definitions (const DynDesignTable *table)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

#define ADD_DEF(name_, type_) \
  G_STMT_START { \
    if ((name_) != NULL && g_hash_table_add (seen, (gpointer) (name_))) \
      { \
        json_builder_begin_object (b); \
        json_builder_set_member_name (b, "AttributeName"); \
        json_builder_add_string_value (b, (name_)); \
        json_builder_set_member_name (b, "AttributeType"); \
        json_builder_add_string_value (b, (type_) != NULL ? (type_) : "S"); \
        json_builder_end_object (b); \
      } \
  } G_STMT_END

  json_builder_begin_array (b);
  ADD_DEF (table->partition_key, table->partition_type);
  ADD_DEF (table->sort_key, table->sort_type);
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];

      ADD_DEF (index->partition_key, index->partition_type);
      ADD_DEF (index->sort_key, index->sort_type);
    }
  json_builder_end_array (b);
#undef ADD_DEF
  return json_builder_get_root (b);
}

/* Enumerations ------------------------------------------------------------ */

static const char * const operation_names[] = {
  [DYN_DESIGN_GET] = "get",
  [DYN_DESIGN_LIST] = "list",
  [DYN_DESIGN_LIST_NEWEST_FIRST] = "list-newest-first",
  [DYN_DESIGN_COUNT] = "count",
};

const char *
dyn_design_operation_to_string (DynDesignOperation op)
{
  if ((guint) op < G_N_ELEMENTS (operation_names))
    return operation_names[op];
  return "get";
}

gboolean
dyn_design_operation_from_string (const char         *text,
                                  DynDesignOperation *op)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (operation_names); i++)
    if (strcmp (text, operation_names[i]) == 0)
      {
        if (op != NULL)
          *op = i;
        return TRUE;
      }
  return FALSE;
}

static const char * const format_names[] = {
  [DYN_DESIGN_FORMAT_DYNOSCOPE] = "dynoscope",
  [DYN_DESIGN_FORMAT_WORKBENCH] = "workbench",
  [DYN_DESIGN_FORMAT_CLOUDFORMATION] = "cloudformation",
  [DYN_DESIGN_FORMAT_CREATE_TABLE] = "create-table",
};

gboolean
dyn_design_format_from_string (const char      *text,
                               DynDesignFormat *format)
{
  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (format_names); i++)
    if (g_ascii_strcasecmp (text, format_names[i]) == 0)
      {
        if (format != NULL)
          *format = i;
        return TRUE;
      }
  return FALSE;
}

static const char *
format_to_string (DynDesignFormat format)
{
  if ((guint) format < G_N_ELEMENTS (format_names))
    return format_names[format];
  return format_names[0];
}

/* Reading the Dynoscope file ---------------------------------------------- */

static gboolean
read_key_def (JsonObject *obj,
              const char *path,
              const char *member,
              gboolean    required,
              char      **name,
              char      **type,
              GError    **error)
{
  static const char * const allowed[] = { "name", "type", NULL };
  g_autofree char *where = _dyn_design_path_member (path, member);
  JsonObject *def;

  if (!_dyn_design_read_object (obj, path, member, required, &def, error))
    return FALSE;
  if (def == NULL)
    return TRUE;
  if (!check_members (def, where, allowed, error) ||
      !_dyn_design_read_string (def, where, "name", TRUE, name, error))
    return FALSE;
  g_free (*type);
  *type = g_strdup ("S");
  if (!_dyn_design_read_string (def, where, "type", FALSE, type, error))
    return FALSE;
  if (!_dyn_design_key_type_valid (*type))
    {
      _dyn_design_path_error (error, where, "type", _("“%s” is not a key type (S, N or B)"), *type);
      return FALSE;
    }
  return TRUE;
}

static DynDesignTable *
read_table (JsonObject *obj,
            const char *path,
            GError    **error)
{
  static const char * const allowed[] = {
    "name", "partitionKey", "sortKey", "indexes", "billingMode", "readCapacity",
    "writeCapacity", "ttlAttribute", "fixed", NULL
  };
  static const char * const index_allowed[] = {
    "name", "local", "partitionKey", "sortKey", "projection", "nonKeyAttributes", NULL
  };
  g_autoptr(DynDesignTable) table = dyn_design_table_new (NULL);
  JsonArray *indexes;
  g_autofree char *ipath = _dyn_design_path_member (path, "indexes");

  if (!check_members (obj, path, allowed, error) ||
      !_dyn_design_read_string (obj, path, "name", FALSE, &table->name, error) ||
      !read_key_def (obj, path, "partitionKey", TRUE, &table->partition_key, &table->partition_type, error) ||
      !read_key_def (obj, path, "sortKey", FALSE, &table->sort_key, &table->sort_type, error) ||
      !_dyn_design_read_string (obj, path, "billingMode", FALSE, &table->billing_mode, error) ||
      !_dyn_design_read_uint64 (obj, path, "readCapacity", &table->read_capacity, error) ||
      !_dyn_design_read_uint64 (obj, path, "writeCapacity", &table->write_capacity, error) ||
      !_dyn_design_read_string (obj, path, "ttlAttribute", FALSE, &table->ttl_attribute, error) ||
      !_dyn_design_read_bool (obj, path, "fixed", &table->fixed, error) ||
      !_dyn_design_read_array (obj, path, "indexes", FALSE, &indexes, error))
    return NULL;

  for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
    {
      g_autofree char *at = _dyn_design_path_index (ipath, i);
      JsonObject *io = _dyn_design_array_object (indexes, i, ipath, error);
      g_autoptr(DynDesignIndex) index = NULL;

      if (io == NULL)
        return NULL;
      index = _dyn_design_index_new (NULL);
      if (!check_members (io, at, index_allowed, error) ||
          !_dyn_design_read_string (io, at, "name", TRUE, &index->name, error) ||
          !_dyn_design_read_bool (io, at, "local", &index->local, error) ||
          !read_key_def (io, at, "partitionKey", TRUE, &index->partition_key, &index->partition_type, error) ||
          !read_key_def (io, at, "sortKey", FALSE, &index->sort_key, &index->sort_type, error) ||
          !_dyn_design_read_string (io, at, "projection", FALSE, &index->projection, error) ||
          !_dyn_design_read_strv (io, at, "nonKeyAttributes", FALSE, &index->non_key_attributes, error))
        return NULL;
      g_ptr_array_add (table->indexes, g_steal_pointer (&index));
    }
  return g_steal_pointer (&table);
}

static DynDesignEntity *
read_entity (JsonObject *obj,
             const char *path,
             GError    **error)
{
  static const char * const allowed[] = {
    "name", "description", "attributes", "id", "sortBy", "keys", "discriminator", "count",
    "itemSize", "readsPerSecond", "writesPerSecond", "extra", NULL
  };
  static const char * const attribute_allowed[] = {
    "name", "type", "examples", "values", "required", NULL
  };
  g_autoptr(DynDesignEntity) entity = dyn_design_entity_new (NULL);
  g_autofree char *apath = _dyn_design_path_member (path, "attributes");
  g_autofree char *kpath = _dyn_design_path_member (path, "keys");
  JsonArray *attributes;
  JsonObject *keys;
  guint64 item_size = 0;

  if (!check_members (obj, path, allowed, error) ||
      !_dyn_design_read_string (obj, path, "name", TRUE, &entity->name, error) ||
      !_dyn_design_read_string (obj, path, "description", FALSE, &entity->description, error) ||
      !_dyn_design_read_strv (obj, path, "id", FALSE, &entity->id, error) ||
      !_dyn_design_read_string (obj, path, "sortBy", FALSE, &entity->sort_by, error) ||
      !_dyn_design_read_string (obj, path, "discriminator", FALSE, &entity->discriminator, error) ||
      !_dyn_design_read_uint64 (obj, path, "count", &entity->count, error) ||
      !_dyn_design_read_uint64 (obj, path, "itemSize", &item_size, error) ||
      !_dyn_design_read_double (obj, path, "readsPerSecond", &entity->reads_per_second, error) ||
      !_dyn_design_read_double (obj, path, "writesPerSecond", &entity->writes_per_second, error) ||
      !_dyn_design_read_array (obj, path, "attributes", FALSE, &attributes, error) ||
      !_dyn_design_read_object (obj, path, "keys", FALSE, &keys, error))
    return NULL;
  if (item_size > G_MAXUINT)
    {
      _dyn_design_path_error (error, path, "itemSize", "%s", _("too large"));
      return NULL;
    }
  entity->item_size = item_size;

  for (guint i = 0; attributes != NULL && i < json_array_get_length (attributes); i++)
    {
      g_autofree char *at = _dyn_design_path_index (apath, i);
      JsonObject *ao = _dyn_design_array_object (attributes, i, apath, error);
      g_autoptr(DynDesignAttribute) a = NULL;

      if (ao == NULL)
        return NULL;
      a = dyn_design_attribute_new (NULL, "S");
      if (!check_members (ao, at, attribute_allowed, error) ||
          !_dyn_design_read_string (ao, at, "name", TRUE, &a->name, error) ||
          !_dyn_design_read_string (ao, at, "type", FALSE, &a->type, error) ||
          !_dyn_design_read_strv (ao, at, "examples", FALSE, &a->examples, error) ||
          !_dyn_design_read_strv (ao, at, "values", FALSE, &a->values, error) ||
          !_dyn_design_read_bool (ao, at, "required", &a->required, error))
        return NULL;
      g_ptr_array_add (entity->attributes, g_steal_pointer (&a));
    }

  if (keys != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (keys);

      for (GList *l = members; l != NULL; l = l->next)
        {
          g_autofree char *template = NULL;

          if (!_dyn_design_read_string (keys, kpath, l->data, TRUE, &template, error))
            return NULL;
          dyn_design_entity_set_key (entity, l->data, template);
        }
    }

  {
    JsonNode *extra = get_member (obj, "extra");

    if (extra != NULL)
      entity->extra = json_node_copy (extra);
  }
  return g_steal_pointer (&entity);
}

static DynDesignRelationship *
read_relationship (JsonObject *obj,
                   const char *path,
                   GError    **error)
{
  static const char * const allowed[] = {
    "type", "parent", "child", "edge", "itemsPerParent", NULL
  };
  g_autoptr(DynDesignRelationship) r = g_new0 (DynDesignRelationship, 1);
  g_autofree char *type = NULL;

  if (!check_members (obj, path, allowed, error) ||
      !_dyn_design_read_string (obj, path, "type", TRUE, &type, error) ||
      !_dyn_design_read_string (obj, path, "parent", TRUE, &r->parent, error) ||
      !_dyn_design_read_string (obj, path, "child", TRUE, &r->child, error) ||
      !_dyn_design_read_string (obj, path, "edge", FALSE, &r->edge, error) ||
      !_dyn_design_read_uint64 (obj, path, "itemsPerParent", &r->items_per_parent, error))
    return NULL;
  if (strcmp (type, "one-to-many") == 0)
    r->kind = DYN_DESIGN_ONE_TO_MANY;
  else if (strcmp (type, "many-to-many") == 0)
    r->kind = DYN_DESIGN_MANY_TO_MANY;
  else
    {
      _dyn_design_path_error (error, path, "type", _("“%s” is not a relationship (one-to-many or many-to-many)"), type);
      return NULL;
    }
  if (r->edge != NULL && r->kind != DYN_DESIGN_MANY_TO_MANY)
    {
      _dyn_design_path_error (error, path, "edge", "%s", _("only a many-to-many relationship has edge items"));
      return NULL;
    }
  return g_steal_pointer (&r);
}

static DynDesignPattern *
read_pattern (JsonObject *obj,
              const char *path,
              GError    **error)
{
  static const char * const allowed[] = {
    "name", "entity", "operation", "parameters", "rangeAttribute", "rangeOp",
    "acrossParents", "readsPerSecond", NULL
  };
  g_autoptr(DynDesignPattern) p = dyn_design_pattern_new (NULL, NULL, DYN_DESIGN_GET);
  g_autofree char *operation = NULL;

  if (!check_members (obj, path, allowed, error) ||
      !_dyn_design_read_string (obj, path, "name", TRUE, &p->name, error) ||
      !_dyn_design_read_string (obj, path, "entity", TRUE, &p->entity, error) ||
      !_dyn_design_read_string (obj, path, "operation", TRUE, &operation, error) ||
      !_dyn_design_read_strv (obj, path, "parameters", FALSE, &p->parameters, error) ||
      !_dyn_design_read_string (obj, path, "rangeAttribute", FALSE, &p->range_attribute, error) ||
      !_dyn_design_read_string (obj, path, "rangeOp", FALSE, &p->range_op, error) ||
      !_dyn_design_read_bool (obj, path, "acrossParents", &p->across_parents, error) ||
      !_dyn_design_read_double (obj, path, "readsPerSecond", &p->reads_per_second, error))
    return NULL;
  if (!dyn_design_operation_from_string (operation, &p->operation))
    {
      _dyn_design_path_error (error, path, "operation",
                              _("“%s” is not an operation (get, list, list-newest-first or count)"), operation);
      return NULL;
    }
  return g_steal_pointer (&p);
}

/* Reads an array of DynamoDB JSON items into @items. */
static gboolean
read_items (JsonArray  *array,
            const char *path,
            GPtrArray  *items,
            GError    **error)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      DynValue *item = dyn_item_from_ddb_json (json_array_get_element (array, i), &local);

      if (item == NULL)
        {
          g_autofree char *at = _dyn_design_path_index (path, i);

          _dyn_design_path_error (error, at, NULL, "%s", local->message);
          return FALSE;
        }
      g_ptr_array_add (items, item);
    }
  return TRUE;
}

static DynDesignModel *
load_dynoscope (JsonObject *root,
                GError    **error)
{
  static const char * const allowed[] = {
    "format", "version", "name", "description", "table", "entities", "relationships",
    "accessPatterns", "items", "examplesPerParent", "sourceFormat", "extra", NULL
  };
  g_autoptr(DynDesignModel) model = dyn_design_model_new (NULL);
  guint64 version = FORMAT_VERSION;
  guint64 per_parent = 3;
  g_autofree char *source = NULL;
  JsonObject *table;
  JsonArray *entities, *relationships, *patterns, *items;

  if (!check_members (root, "", allowed, error) ||
      !_dyn_design_read_uint64 (root, "", "version", &version, error))
    return NULL;
  if (version != FORMAT_VERSION)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, version);

      _dyn_design_path_error (error, "", "version",
                              _("version %s of the model file is not known here (this Dynoscope reads version %d)"),
                              text, FORMAT_VERSION);
      return NULL;
    }
  if (!_dyn_design_read_string (root, "", "name", TRUE, &model->name, error) ||
      !_dyn_design_read_string (root, "", "description", FALSE, &model->description, error) ||
      !_dyn_design_read_uint64 (root, "", "examplesPerParent", &per_parent, error) ||
      !_dyn_design_read_string (root, "", "sourceFormat", FALSE, &source, error) ||
      !_dyn_design_read_object (root, "", "table", FALSE, &table, error) ||
      !_dyn_design_read_array (root, "", "entities", FALSE, &entities, error) ||
      !_dyn_design_read_array (root, "", "relationships", FALSE, &relationships, error) ||
      !_dyn_design_read_array (root, "", "accessPatterns", FALSE, &patterns, error) ||
      !_dyn_design_read_array (root, "", "items", FALSE, &items, error))
    return NULL;
  if (per_parent > 1000)
    {
      _dyn_design_path_error (error, "", "examplesPerParent", "%s", _("at most 1000"));
      return NULL;
    }
  model->examples_per_parent = per_parent;
  if (source != NULL && !dyn_design_format_from_string (source, &model->source_format))
    {
      _dyn_design_path_error (error, "", "sourceFormat", _("“%s” is not a format"), source);
      return NULL;
    }

  if (table != NULL && (model->table = read_table (table, "table", error)) == NULL)
    return NULL;

#define READ_ARRAY(array_, member_, reader_, target_) \
  for (guint i = 0; (array_) != NULL && i < json_array_get_length (array_); i++) \
    { \
      g_autofree char *at = _dyn_design_path_index (member_, i); \
      JsonObject *o = _dyn_design_array_object ((array_), i, member_, error); \
      gpointer e; \
      if (o == NULL || (e = reader_ (o, at, error)) == NULL) \
        return NULL; \
      g_ptr_array_add ((target_), e); \
    }

  READ_ARRAY (entities, "entities", read_entity, model->entities);
  READ_ARRAY (relationships, "relationships", read_relationship, model->relationships);
  READ_ARRAY (patterns, "accessPatterns", read_pattern, model->patterns);
#undef READ_ARRAY

  if (!read_items (items, "items", model->items, error))
    return NULL;
  {
    JsonNode *extra = get_member (root, "extra");

    if (extra != NULL)
      model->extra = json_node_copy (extra);
  }
  return g_steal_pointer (&model);
}

DynDesignModel *
dyn_design_model_load (JsonNode    *root,
                       const char  *table,
                       GError     **error)
{
  JsonObject *obj;
  JsonNode *format;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("A model file is a JSON object (a Dynoscope model, a NoSQL Workbench model, a CloudFormation template or a create-table input)"));
      return NULL;
    }
  obj = json_node_get_object (root);
  format = get_member (obj, "format");
  if (format != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (format) || json_node_get_value_type (format) != G_TYPE_STRING ||
          strcmp (json_node_get_string (format), FORMAT_TAG) != 0)
        {
          _dyn_design_path_error (error, "", "format", _("not “%s”: not a Dynoscope model"), FORMAT_TAG);
          return NULL;
        }
      return load_dynoscope (obj, error);
    }
  if (json_object_has_member (obj, "ModelName") || json_object_has_member (obj, "DataModel"))
    return _dyn_design_workbench_load (obj, table, error);
  if (json_object_has_member (obj, "Resources") || json_object_has_member (obj, "AWSTemplateFormatVersion") ||
      (json_object_has_member (obj, "Type") && json_object_has_member (obj, "Properties")) ||
      json_object_has_member (obj, "KeySchema") || json_object_has_member (obj, "Table"))
    return _dyn_design_cloudformation_load (obj, table, error);

  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
               _("Not a model: a Dynoscope model has \"format\": \"%s\", a NoSQL Workbench model ModelName and DataModel, a CloudFormation template Resources, a create-table input TableName and KeySchema"),
               FORMAT_TAG);
  return NULL;
}

DynDesignModel *
dyn_design_model_load_file (const char  *path,
                            const char  *table,
                            GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) local = NULL;
  gsize len;
  DynDesignModel *model;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  root = dyn_json_parse (contents, len, &local);
  if (root == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_set_error (error, local->domain, local->code, "%s: %s", name, local->message);
      return NULL;
    }
  model = dyn_design_model_load (root, table, &local);
  if (model == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);

      g_set_error (error, local->domain, local->code, "%s: %s", name, local->message);
      return NULL;
    }
  return model;
}

/* Validation -------------------------------------------------------------- */

static void
collect_ancestors (const DynDesignModel *model,
                   const char           *entity,
                   GPtrArray            *out,
                   guint                 depth)
{
  if (depth > model->entities->len)
    return;
  for (guint i = 0; i < model->relationships->len; i++)
    {
      const DynDesignRelationship *r = model->relationships->pdata[i];
      const DynDesignEntity *other = NULL;

      if (r->kind == DYN_DESIGN_ONE_TO_MANY && g_strcmp0 (r->child, entity) == 0)
        other = dyn_design_model_find_entity (model, r->parent);
      if (other != NULL && !g_ptr_array_find (out, other, NULL))
        {
          g_ptr_array_add (out, (gpointer) other);
          collect_ancestors (model, other->name, out, depth + 1);
        }
      if (r->kind == DYN_DESIGN_MANY_TO_MANY)
        {
          /* An edge (named, or the default "<Parent><Child>") sees both sides. */
          g_autofree char *edge = r->edge != NULL ? g_strdup (r->edge) : g_strconcat (r->parent, r->child, NULL);

          if (g_strcmp0 (edge, entity) == 0)
            {
              const char *sides[] = { r->parent, r->child };

              for (guint s = 0; s < 2; s++)
                {
                  const DynDesignEntity *side = dyn_design_model_find_entity (model, sides[s]);

                  if (side != NULL && !g_ptr_array_find (out, side, NULL))
                    {
                      g_ptr_array_add (out, (gpointer) side);
                      collect_ancestors (model, side->name, out, depth + 1);
                    }
                }
            }
        }
    }
}

/* Whether @name is an attribute the entity's keys and patterns may use: its
 * own, or one of its ancestors' (a child's key holds its parent's id; an
 * edge's both sides'). */
static gboolean
attribute_in_scope (const DynDesignModel  *model,
                    const DynDesignEntity *entity,
                    const char            *name)
{
  g_autoptr(GPtrArray) scope = g_ptr_array_new ();

  if (dyn_design_entity_find_attribute (entity, name) != NULL)
    return TRUE;
  collect_ancestors (model, entity->name, scope, 0);
  for (guint i = 0; i < scope->len; i++)
    if (dyn_design_entity_find_attribute (scope->pdata[i], name) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
validate_key_def (const char *path,
                  const char *name,
                  const char *type,
                  gboolean    required,
                  GError    **error)
{
  if (name == NULL || *name == '\0')
    {
      if (!required)
        return TRUE;
      _dyn_design_path_error (error, path, "name", "%s", _("missing"));
      return FALSE;
    }
  if (!_dyn_design_key_type_valid (type))
    {
      _dyn_design_path_error (error, path, "type", _("“%s” is not a key type (S, N or B)"), type != NULL ? type : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
table_has_key_attribute (const DynDesignTable *table,
                         const char           *name)
{
  if (g_strcmp0 (table->partition_key, name) == 0 || g_strcmp0 (table->sort_key, name) == 0)
    return TRUE;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];

      if (g_strcmp0 (index->partition_key, name) == 0 || g_strcmp0 (index->sort_key, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static gboolean
validate_table (const DynDesignTable *table,
                GError              **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  if (!validate_key_def ("table.partitionKey", table->partition_key, table->partition_type, TRUE, error) ||
      !validate_key_def ("table.sortKey", table->sort_key, table->sort_type, FALSE, error))
    return FALSE;
  if (g_strcmp0 (table->partition_key, table->sort_key) == 0)
    {
      _dyn_design_path_error (error, "table", "sortKey", "%s", _("the sort key cannot be the partition key"));
      return FALSE;
    }
  if (table->billing_mode != NULL && strcmp (table->billing_mode, "PAY_PER_REQUEST") != 0 &&
      strcmp (table->billing_mode, "PROVISIONED") != 0)
    {
      _dyn_design_path_error (error, "table", "billingMode",
                              _("“%s” is not a billing mode (PAY_PER_REQUEST or PROVISIONED)"), table->billing_mode);
      return FALSE;
    }
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];
      g_autofree char *at = _dyn_design_path_index ("table.indexes", i);
      g_autofree char *pk = _dyn_design_path_member (at, "partitionKey");
      g_autofree char *sk = _dyn_design_path_member (at, "sortKey");

      if (index->name == NULL || *index->name == '\0')
        {
          _dyn_design_path_error (error, at, "name", "%s", _("missing"));
          return FALSE;
        }
      if (!g_hash_table_add (names, index->name))
        {
          _dyn_design_path_error (error, at, "name", _("a second index named “%s”"), index->name);
          return FALSE;
        }
      if (!validate_key_def (pk, index->partition_key, index->partition_type, TRUE, error) ||
          !validate_key_def (sk, index->sort_key, index->sort_type, FALSE, error))
        return FALSE;
      if (index->local && (g_strcmp0 (index->partition_key, table->partition_key) != 0 || index->sort_key == NULL))
        {
          _dyn_design_path_error (error, at, "partitionKey", "%s",
                                  _("a local index has the table's partition key and a sort key of its own"));
          return FALSE;
        }
      if (index->local && table->sort_key == NULL)
        {
          _dyn_design_path_error (error, at, "local", "%s", _("a table without a sort key has no local indexes"));
          return FALSE;
        }
      if (index->projection == NULL ||
          (strcmp (index->projection, "ALL") != 0 && strcmp (index->projection, "KEYS_ONLY") != 0 &&
           strcmp (index->projection, "INCLUDE") != 0))
        {
          _dyn_design_path_error (error, at, "projection",
                                  _("“%s” is not a projection (ALL, KEYS_ONLY or INCLUDE)"),
                                  index->projection != NULL ? index->projection : "");
          return FALSE;
        }
      if (strcmp (index->projection, "INCLUDE") == 0 &&
          (index->non_key_attributes == NULL || index->non_key_attributes[0] == NULL))
        {
          _dyn_design_path_error (error, at, "nonKeyAttributes", "%s", _("an INCLUDE projection names its attributes"));
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
validate_entity (const DynDesignModel  *model,
                 const DynDesignEntity *entity,
                 const char            *path,
                 GError               **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < entity->attributes->len; i++)
    {
      const DynDesignAttribute *a = entity->attributes->pdata[i];
      g_autofree char *ap = _dyn_design_path_member (path, "attributes");
      g_autofree char *at = _dyn_design_path_index (ap, i);

      if (a->name == NULL || *a->name == '\0')
        {
          _dyn_design_path_error (error, at, "name", "%s", _("missing"));
          return FALSE;
        }
      if (!g_hash_table_add (names, a->name))
        {
          _dyn_design_path_error (error, at, "name", _("a second attribute named “%s”"), a->name);
          return FALSE;
        }
      if (!attribute_type_valid (a->type))
        {
          _dyn_design_path_error (error, at, "type",
                                  _("“%s” is not a DynamoDB type (S, N, B, BOOL, NULL, M, L, SS, NS, BS)"),
                                  a->type != NULL ? a->type : "");
          return FALSE;
        }
    }
  for (guint i = 0; entity->id != NULL && entity->id[i] != NULL; i++)
    if (!attribute_in_scope (model, entity, entity->id[i]))
      {
        g_autofree char *ip = _dyn_design_path_member (path, "id");
        g_autofree char *at = _dyn_design_path_index (ip, i);

        _dyn_design_path_error (error, at, NULL, _("no attribute “%s” in entity “%s”"), entity->id[i], entity->name);
        return FALSE;
      }
  if (entity->sort_by != NULL && !attribute_in_scope (model, entity, entity->sort_by))
    {
      _dyn_design_path_error (error, path, "sortBy", _("no attribute “%s” in entity “%s”"), entity->sort_by, entity->name);
      return FALSE;
    }
  if (entity->discriminator != NULL)
    {
      const char *eq = strchr (entity->discriminator, '=');

      if (eq == NULL || eq == entity->discriminator || eq[1] == '\0')
        {
          _dyn_design_path_error (error, path, "discriminator", _("“%s” is not attribute=value (“_type=Project”)"),
                                  entity->discriminator);
          return FALSE;
        }
    }
  for (guint i = 0; i < entity->keys->len; i++)
    {
      const DynDesignKey *k = entity->keys->pdata[i];
      g_autofree char *kp = _dyn_design_path_member (path, "keys");
      g_autoptr(GError) local = NULL;
      g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (k->template, &local);
      g_auto(GStrv) fields = NULL;

      if (t == NULL)
        {
          _dyn_design_path_error (error, kp, k->attribute, "%s", local->message);
          return FALSE;
        }
      fields = dyn_design_template_get_fields (t);
      for (guint f = 0; fields[f] != NULL; f++)
        if (!attribute_in_scope (model, entity, fields[f]))
          {
            _dyn_design_path_error (error, kp, k->attribute, _("no attribute “%s” in entity “%s” or its parents"),
                                    fields[f], entity->name);
            return FALSE;
          }
      if (model->table != NULL && model->table->fixed && !table_has_key_attribute (model->table, k->attribute))
        {
          _dyn_design_path_error (error, kp, k->attribute, _("“%s” is no key attribute of table “%s” or its indexes"),
                                  k->attribute, model->table->name != NULL ? model->table->name : "");
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
validate_pattern (const DynDesignModel   *model,
                  const DynDesignPattern *p,
                  const char             *path,
                  GError                **error)
{
  static const char * const range_ops[] = { "=", "<", "<=", ">", ">=", "between", "begins_with", NULL };
  const DynDesignEntity *entity;

  if (p->name == NULL || *p->name == '\0')
    {
      _dyn_design_path_error (error, path, "name", "%s", _("missing"));
      return FALSE;
    }
  entity = dyn_design_model_find_entity (model, p->entity);
  if (entity == NULL)
    {
      _dyn_design_path_error (error, path, "entity", _("no entity “%s”"), p->entity != NULL ? p->entity : "");
      return FALSE;
    }
  if ((guint) p->operation > DYN_DESIGN_COUNT)
    {
      _dyn_design_path_error (error, path, "operation", "%s", _("not an operation"));
      return FALSE;
    }
  for (guint i = 0; p->parameters != NULL && p->parameters[i] != NULL; i++)
    if (!attribute_in_scope (model, entity, p->parameters[i]))
      {
        g_autofree char *pp = _dyn_design_path_member (path, "parameters");
        g_autofree char *at = _dyn_design_path_index (pp, i);

        _dyn_design_path_error (error, at, NULL, _("no attribute “%s” in entity “%s” or its parents"),
                                p->parameters[i], entity->name);
        return FALSE;
      }
  if (p->range_op != NULL && p->range_attribute == NULL)
    {
      _dyn_design_path_error (error, path, "rangeOp", "%s", _("a range condition needs its rangeAttribute"));
      return FALSE;
    }
  if (p->range_attribute != NULL)
    {
      if (!attribute_in_scope (model, entity, p->range_attribute))
        {
          _dyn_design_path_error (error, path, "rangeAttribute", _("no attribute “%s” in entity “%s” or its parents"),
                                  p->range_attribute, entity->name);
          return FALSE;
        }
      if (p->range_op != NULL && !g_strv_contains (range_ops, p->range_op))
        {
          _dyn_design_path_error (error, path, "rangeOp",
                                  _("“%s” is not a range condition (=, <, <=, >, >=, between, begins_with)"), p->range_op);
          return FALSE;
        }
      if (p->operation == DYN_DESIGN_GET)
        {
          _dyn_design_path_error (error, path, "rangeAttribute", "%s", _("a get reads one item: it has no range condition"));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
dyn_design_model_validate (const DynDesignModel *self,
                           GError              **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->name == NULL || *self->name == '\0')
    {
      _dyn_design_path_error (error, "", "name", "%s", _("missing"));
      return FALSE;
    }
  if (self->table != NULL && !validate_table (self->table, error))
    return FALSE;

  for (guint i = 0; i < self->entities->len; i++)
    {
      const DynDesignEntity *e = self->entities->pdata[i];
      g_autofree char *at = _dyn_design_path_index ("entities", i);

      if (e->name == NULL || *e->name == '\0')
        {
          _dyn_design_path_error (error, at, "name", "%s", _("missing"));
          return FALSE;
        }
      if (!g_hash_table_add (names, e->name))
        {
          _dyn_design_path_error (error, at, "name", _("a second entity named “%s”"), e->name);
          return FALSE;
        }
    }
  for (guint i = 0; i < self->relationships->len; i++)
    {
      const DynDesignRelationship *r = self->relationships->pdata[i];
      g_autofree char *at = _dyn_design_path_index ("relationships", i);

      if (dyn_design_model_find_entity (self, r->parent) == NULL)
        {
          _dyn_design_path_error (error, at, "parent", _("no entity “%s”"), r->parent != NULL ? r->parent : "");
          return FALSE;
        }
      if (dyn_design_model_find_entity (self, r->child) == NULL)
        {
          _dyn_design_path_error (error, at, "child", _("no entity “%s”"), r->child != NULL ? r->child : "");
          return FALSE;
        }
      if (r->edge != NULL && dyn_design_model_find_entity (self, r->edge) == NULL)
        {
          _dyn_design_path_error (error, at, "edge", _("no entity “%s”"), r->edge);
          return FALSE;
        }
      if (r->edge != NULL && r->kind != DYN_DESIGN_MANY_TO_MANY)
        {
          _dyn_design_path_error (error, at, "edge", "%s", _("only a many-to-many relationship has edge items"));
          return FALSE;
        }
    }
  for (guint i = 0; i < self->entities->len; i++)
    {
      g_autofree char *at = _dyn_design_path_index ("entities", i);

      if (!validate_entity (self, self->entities->pdata[i], at, error))
        return FALSE;
    }
  g_hash_table_remove_all (names);
  for (guint i = 0; i < self->patterns->len; i++)
    {
      const DynDesignPattern *p = self->patterns->pdata[i];
      g_autofree char *at = _dyn_design_path_index ("accessPatterns", i);

      if (!validate_pattern (self, p, at, error))
        return FALSE;
      if (!g_hash_table_add (names, p->name))
        {
          _dyn_design_path_error (error, at, "name", _("a second access pattern named “%s”"), p->name);
          return FALSE;
        }
    }
  for (guint i = 0; i < self->items->len; i++)
    if (dyn_value_get_value_type (self->items->pdata[i]) != DYN_VALUE_M)
      {
        g_autofree char *at = _dyn_design_path_index ("items", i);

        _dyn_design_path_error (error, at, NULL, "%s", _("an item is a map"));
        return FALSE;
      }
  return TRUE;
}

/* Writing the Dynoscope file ---------------------------------------------- */

static void
add_string (JsonBuilder *b,
            const char  *member,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (b, member);
  json_builder_add_string_value (b, value);
}

static void
add_strv (JsonBuilder        *b,
          const char         *member,
          const char * const *values,
          gboolean            even_empty)
{
  if (values == NULL || (values[0] == NULL && !even_empty))
    return;
  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint i = 0; values[i] != NULL; i++)
    json_builder_add_string_value (b, values[i]);
  json_builder_end_array (b);
}

static void
add_number (JsonBuilder *b,
            const char  *member,
            double       value)
{
  if (value == 0)
    return;
  json_builder_set_member_name (b, member);
  if (value == floor (value) && fabs (value) < 9e15)
    json_builder_add_int_value (b, (gint64) value);
  else
    json_builder_add_double_value (b, value);
}

static void
add_uint (JsonBuilder *b,
          const char  *member,
          guint64      value)
{
  if (value == 0)
    return;
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, (gint64) MIN (value, (guint64) G_MAXINT64));
}

static void
add_key_def (JsonBuilder *b,
             const char  *member,
             const char  *name,
             const char  *type)
{
  if (name == NULL)
    return;
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  add_string (b, "name", name);
  add_string (b, "type", type != NULL ? type : "S");
  json_builder_end_object (b);
}

static void
write_table (JsonBuilder          *b,
             const DynDesignTable *table)
{
  json_builder_begin_object (b);
  add_string (b, "name", table->name);
  add_key_def (b, "partitionKey", table->partition_key, table->partition_type);
  add_key_def (b, "sortKey", table->sort_key, table->sort_type);
  if (table->indexes->len > 0)
    {
      json_builder_set_member_name (b, "indexes");
      json_builder_begin_array (b);
      for (guint i = 0; i < table->indexes->len; i++)
        {
          const DynDesignIndex *index = table->indexes->pdata[i];

          json_builder_begin_object (b);
          add_string (b, "name", index->name);
          if (index->local)
            {
              json_builder_set_member_name (b, "local");
              json_builder_add_boolean_value (b, TRUE);
            }
          add_key_def (b, "partitionKey", index->partition_key, index->partition_type);
          add_key_def (b, "sortKey", index->sort_key, index->sort_type);
          add_string (b, "projection", index->projection);
          add_strv (b, "nonKeyAttributes", (const char * const *) index->non_key_attributes, FALSE);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }
  if (table->billing_mode != NULL && strcmp (table->billing_mode, "PAY_PER_REQUEST") != 0)
    add_string (b, "billingMode", table->billing_mode);
  add_uint (b, "readCapacity", table->read_capacity);
  add_uint (b, "writeCapacity", table->write_capacity);
  add_string (b, "ttlAttribute", table->ttl_attribute);
  json_builder_set_member_name (b, "fixed");
  json_builder_add_boolean_value (b, table->fixed);
  json_builder_end_object (b);
}

static void
write_entity (JsonBuilder           *b,
              const DynDesignEntity *e)
{
  json_builder_begin_object (b);
  add_string (b, "name", e->name);
  add_string (b, "description", e->description);
  add_strv (b, "id", (const char * const *) e->id, FALSE);
  add_string (b, "sortBy", e->sort_by);
  json_builder_set_member_name (b, "attributes");
  json_builder_begin_array (b);
  for (guint i = 0; i < e->attributes->len; i++)
    {
      const DynDesignAttribute *a = e->attributes->pdata[i];

      json_builder_begin_object (b);
      add_string (b, "name", a->name);
      add_string (b, "type", a->type);
      add_strv (b, "examples", (const char * const *) a->examples, FALSE);
      add_strv (b, "values", (const char * const *) a->values, FALSE);
      if (a->required)
        {
          json_builder_set_member_name (b, "required");
          json_builder_add_boolean_value (b, TRUE);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  if (e->keys->len > 0)
    {
      json_builder_set_member_name (b, "keys");
      json_builder_begin_object (b);
      for (guint i = 0; i < e->keys->len; i++)
        {
          const DynDesignKey *k = e->keys->pdata[i];
          add_string (b, k->attribute, k->template);
        }
      json_builder_end_object (b);
    }
  add_string (b, "discriminator", e->discriminator);
  add_uint (b, "count", e->count);
  add_uint (b, "itemSize", e->item_size);
  add_number (b, "readsPerSecond", e->reads_per_second);
  add_number (b, "writesPerSecond", e->writes_per_second);
  if (e->extra != NULL)
    {
      json_builder_set_member_name (b, "extra");
      json_builder_add_value (b, json_node_copy (e->extra));
    }
  json_builder_end_object (b);
}

JsonNode *
dyn_design_model_to_json (const DynDesignModel *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (b);
  add_string (b, "format", FORMAT_TAG);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, FORMAT_VERSION);
  add_string (b, "name", self->name != NULL ? self->name : "");
  add_string (b, "description", self->description);
  if (self->source_format != DYN_DESIGN_FORMAT_DYNOSCOPE)
    add_string (b, "sourceFormat", format_to_string (self->source_format));
  if (self->table != NULL)
    {
      json_builder_set_member_name (b, "table");
      write_table (b, self->table);
    }

  json_builder_set_member_name (b, "entities");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->entities->len; i++)
    write_entity (b, self->entities->pdata[i]);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "relationships");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->relationships->len; i++)
    {
      const DynDesignRelationship *r = self->relationships->pdata[i];

      json_builder_begin_object (b);
      add_string (b, "type", r->kind == DYN_DESIGN_MANY_TO_MANY ? "many-to-many" : "one-to-many");
      add_string (b, "parent", r->parent);
      add_string (b, "child", r->child);
      add_string (b, "edge", r->edge);
      add_uint (b, "itemsPerParent", r->items_per_parent);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "accessPatterns");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->patterns->len; i++)
    {
      const DynDesignPattern *p = self->patterns->pdata[i];

      json_builder_begin_object (b);
      add_string (b, "name", p->name);
      add_string (b, "entity", p->entity);
      add_string (b, "operation", dyn_design_operation_to_string (p->operation));
      add_strv (b, "parameters", (const char * const *) p->parameters, TRUE);
      add_string (b, "rangeAttribute", p->range_attribute);
      add_string (b, "rangeOp", p->range_op);
      if (p->across_parents)
        {
          json_builder_set_member_name (b, "acrossParents");
          json_builder_add_boolean_value (b, TRUE);
        }
      add_number (b, "readsPerSecond", p->reads_per_second);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  if (self->items->len > 0)
    {
      json_builder_set_member_name (b, "items");
      json_builder_begin_array (b);
      for (guint i = 0; i < self->items->len; i++)
        json_builder_add_value (b, dyn_item_to_ddb_json (self->items->pdata[i]));
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "examplesPerParent");
  json_builder_add_int_value (b, self->examples_per_parent);
  if (self->extra != NULL)
    {
      json_builder_set_member_name (b, "extra");
      json_builder_add_value (b, json_node_copy (self->extra));
    }
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
dyn_design_model_save_file (const DynDesignModel *self,
                            const char           *path,
                            GError              **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *with_newline = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);

  root = dyn_design_model_to_json (self);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 2);
  text = json_generator_to_data (gen, NULL);
  with_newline = g_strconcat (text, "\n", NULL);
  return g_file_set_contents (path, with_newline, -1, error);
}
/* Export ------------------------------------------------------------------ */

JsonNode *
dyn_design_export (const DynDesignModel *model,
                   const DynDesignPlan  *plan,
                   DynDesignFormat       format,
                   GError              **error)
{
  const DynDesignTable *table;
  GPtrArray *placements = NULL;

  g_return_val_if_fail (model != NULL, NULL);

  if (plan != NULL)
    {
      table = dyn_design_plan_get_table (plan);
      placements = dyn_design_plan_get_placements (plan);
    }
  else
    table = model->table;

  if (table == NULL || table->partition_key == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Model “%s” has no table yet: draft it first (its keys come from the plan)"),
                   model->name != NULL ? model->name : "");
      return NULL;
    }

  switch (format)
    {
    case DYN_DESIGN_FORMAT_WORKBENCH:
      {
        /* TableData: the model's own items, or the plan's examples. */
        g_autoptr(GPtrArray) items = NULL;

        if (plan != NULL && model->items->len == 0)
          items = dyn_design_examples (model, plan, model->examples_per_parent, 1);
        else
          items = g_ptr_array_ref (model->items);
        return _dyn_design_workbench_export (model, table, placements, items, error);
      }
    case DYN_DESIGN_FORMAT_CLOUDFORMATION:
      return _dyn_design_cloudformation_export (model, table, error);
    case DYN_DESIGN_FORMAT_CREATE_TABLE:
      return _dyn_design_create_table_export (table, error);
    case DYN_DESIGN_FORMAT_DYNOSCOPE:
    default:
      {
        g_autoptr(DynDesignModel) copy = dyn_design_model_copy (model);

        if (plan != NULL)
          {
            /* The plan's table and keys written into the model, fixed. */
            dyn_design_table_free (copy->table);
            copy->table = dyn_design_table_copy (table);
            for (guint i = 0; placements != NULL && i < placements->len; i++)
              {
                const DynDesignPlacement *pl = placements->pdata[i];
                DynDesignEntity *e = dyn_design_model_find_entity (copy, pl->entity);

                for (guint k = 0; e != NULL && k < pl->keys->len; k++)
                  {
                    const DynDesignKey *key = pl->keys->pdata[k];
                    dyn_design_entity_set_key (e, key->attribute, key->template);
                  }
              }
          }
        return dyn_design_model_to_json (copy);
      }
    }
}
