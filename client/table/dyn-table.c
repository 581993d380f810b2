/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-table"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-table.h"
#include "dyn-json.h"

static gboolean
attribute_type (JsonObject    *table,
                const char    *name,
                DynValueType  *type,
                GError       **error)
{
  JsonArray *defs = dyn_json_object_get_array (table, "AttributeDefinitions");

  for (guint i = 0; defs != NULL && i < json_array_get_length (defs); i++)
    {
      JsonObject *def = json_array_get_object_element (defs, i);
      const char *t;

      if (def == NULL ||
          g_strcmp0 (json_object_get_string_member_with_default (def, "AttributeName", NULL), name) != 0)
        continue;
      t = json_object_get_string_member_with_default (def, "AttributeType", "");
      if (dyn_value_type_from_string (t, type) &&
          (*type == DYN_VALUE_S || *type == DYN_VALUE_N || *type == DYN_VALUE_B))
        return TRUE;
      break;
    }
  g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
               /* Translators: DescribeTable is an operation; keep it. %s is an attribute */
               _("DescribeTable: no S, N or B definition for the key attribute “%s”"), name);
  return FALSE;
}

/* Reads a KeySchema array, in its order: a global secondary index may have
 * up to four HASH and four RANGE attributes. */
static gboolean
read_key_schema (JsonObject    *table,
                 JsonArray     *schema,
                 DynKeySchema  *keys,
                 GError       **error)
{
  memset (keys, 0, sizeof *keys);

  for (guint i = 0; schema != NULL && i < json_array_get_length (schema); i++)
    {
      JsonObject *k = json_array_get_object_element (schema, i);
      const char *name = k ? json_object_get_string_member_with_default (k, "AttributeName", NULL) : NULL;
      const char *kind = k ? json_object_get_string_member_with_default (k, "KeyType", NULL) : NULL;
      DynValueType type;
      gboolean sort;

      if (name == NULL || kind == NULL)
        continue;
      if (strcmp (kind, "HASH") == 0)
        sort = FALSE;
      else if (strcmp (kind, "RANGE") == 0)
        sort = TRUE;
      else
        continue;
      if (!attribute_type (table, name, &type, error))
        {
          dyn_key_schema_clear (keys);
          return FALSE;
        }
      if (!dyn_key_schema_has_attribute (keys, name) && !dyn_key_schema_append (keys, sort, name, type))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: DescribeTable is an operation, HASH and RANGE key types; keep them.
                        * %d is DynamoDB's limit (4) */
                       _("DescribeTable: a key schema has more than %d HASH or RANGE attributes"),
                       DYN_KEY_MAX_ATTRIBUTES);
          dyn_key_schema_clear (keys);
          return FALSE;
        }
    }
  if (keys->partition_key == NULL)
    {
      dyn_key_schema_clear (keys);
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                           /* Translators: DescribeTable is an operation, HASH a key type; keep them */
                           _("DescribeTable: a key schema has no HASH key"));
      return FALSE;
    }
  return TRUE;
}

static void
add_indexes (DynTableKeys *keys,
             JsonObject   *table,
             const char   *member,
             DynIndexKind  kind,
             GError      **error)
{
  JsonArray *indexes = dyn_json_object_get_array (table, member);

  for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);
      DynKeySchema schema;
      JsonObject *projection;
      const char *ptype, *name;
      DynProjectionType proj = DYN_PROJECTION_ALL;
      DynIndexInfo *info;

      if (index == NULL ||
          !read_key_schema (table, dyn_json_object_get_array (index, "KeySchema"), &schema, error))
        return;
      projection = dyn_json_object_get_object (index, "Projection");
      ptype = projection ? json_object_get_string_member_with_default (projection, "ProjectionType", "ALL") : "ALL";
      if (strcmp (ptype, "KEYS_ONLY") == 0)
        proj = DYN_PROJECTION_KEYS_ONLY;
      else if (strcmp (ptype, "INCLUDE") == 0)
        proj = DYN_PROJECTION_INCLUDE;

      name = json_object_get_string_member_with_default (index, "IndexName", "?");
      info = dyn_table_keys_add_index_with_schema (keys, name, kind, &schema, proj);
      dyn_key_schema_clear (&schema);
      if (proj == DYN_PROJECTION_INCLUDE && projection != NULL)
        {
          JsonArray *attrs = dyn_json_object_get_array (projection, "NonKeyAttributes");
          g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

          for (guint j = 0; attrs != NULL && j < json_array_get_length (attrs); j++)
            g_strv_builder_add (b, json_array_get_string_element (attrs, j));
          g_strfreev (info->non_key_attributes);
          info->non_key_attributes = g_strv_builder_end (b);
        }
    }
}

DynTableKeys *
dyn_table_keys_from_description (JsonObject  *table,
                                 GError     **error)
{
  g_autoptr(DynTableKeys) keys = NULL;
  DynKeySchema schema;
  GError *local_error = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  if (!read_key_schema (table, dyn_json_object_get_array (table, "KeySchema"), &schema, error))
    return NULL;
  /* DynamoDB allows multi-attribute keys on global secondary indexes only. */
  if (dyn_key_schema_is_multi_attribute (&schema))
    {
      dyn_key_schema_clear (&schema);
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                           /* Translators: DescribeTable is an operation, HASH and RANGE key types; keep them */
                           _("DescribeTable: a table's key has one HASH and at most one RANGE attribute"));
      return NULL;
    }
  keys = dyn_table_keys_new (json_object_get_string_member_with_default (table, "TableName", NULL),
                             schema.partition_key, schema.partition_type, schema.sort_key, schema.sort_type);
  dyn_key_schema_clear (&schema);
  add_indexes (keys, table, "GlobalSecondaryIndexes", DYN_INDEX_GLOBAL, &local_error);
  if (local_error == NULL)
    add_indexes (keys, table, "LocalSecondaryIndexes", DYN_INDEX_LOCAL, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }
  return g_steal_pointer (&keys);
}

static void
describe_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;
  JsonObject *table;

  response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  table = dyn_json_object_get_object (json_node_get_object (response->root), "Table");
  if (table == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL, "%s",
                               /* Translators: DescribeTable is an operation, Table a member of its response; keep them */
                               _("DescribeTable: the response has no Table object"));
      return;
    }
  g_task_return_pointer (task, json_object_ref (table), (GDestroyNotify) json_object_unref);
}

void
dyn_client_describe_table_async (DynClient           *self,
                                 const char          *table,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(JsonNode) params = json_node_new (JSON_NODE_OBJECT);
  GTask *task;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail (table != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_describe_table_async);
  json_object_set_string_member (obj, "TableName", table);
  json_node_set_object (params, obj);
  dyn_client_call_async (self, "DescribeTable", params, cancellable, describe_cb, task);
}

JsonObject *
dyn_client_describe_table_finish (DynClient     *self,
                                  GAsyncResult  *result,
                                  DynTableKeys **keys,
                                  GError       **error)
{
  g_autoptr(JsonObject) table = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_describe_table_async, NULL);

  table = g_task_propagate_pointer (G_TASK (result), error);
  if (table == NULL)
    return NULL;
  if (keys != NULL && (*keys = dyn_table_keys_from_description (table, error)) == NULL)
    return NULL;
  return g_steal_pointer (&table);
}
