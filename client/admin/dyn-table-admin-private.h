/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-table-admin.h"

G_BEGIN_DECLS

/* The CreateTable request of @self WITHOUT the rules checked: what
 * dyn_table_spec_to_create_json() sends once dyn_table_spec_validate()
 * passed. The tests send it as it is, to see that DynamoDB refuses what the
 * rules refuse. */
JsonNode *_dyn_table_spec_build_json (const DynTableSpec *self) G_GNUC_WARN_UNUSED_RESULT;

/* A projection text (ALL, KEYS_ONLY, INCLUDE=a,b) parsed; @what names the
 * index in the error. */
gboolean  _dyn_table_parse_projection (const char         *text,
                                       const char         *what,
                                       DynProjectionType  *projection,
                                       GStrv              *non_key_attributes,
                                       GError            **error);

/* The GSI of @text checked and added to @keys (used by
 * dyn_table_add_gsi_params() on the table's keys). */
DynIndexInfo *_dyn_table_keys_add_gsi_text (DynTableKeys  *keys,
                                            const char    *text,
                                            GError       **error);

/* The "Projection" object of an index. */
JsonObject *_dyn_table_projection_json (const DynIndexInfo *index) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
