/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expression-json"

/* Expressions as users type them outside the window (the command line,
 * scripts): the text plus ExpressionAttributeNames/Values as JSON. */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-expression-json.h"
#include "dyn-json.h"
#include "dyn-read-request.h"

static gboolean
parse_maps (DynRequest  *request,
            const char  *names_json,
            const char  *values_json,
            GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (names_json != NULL)
    {
      g_autoptr(JsonNode) node = dyn_json_parse (names_json, -1, &local_error);
      JsonObject *obj;
      g_autoptr(GList) members = NULL;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: ExpressionAttributeNames is DynamoDB's name for the map */
                       _("ExpressionAttributeNames must be a JSON object of \"#n\": \"name\"%s%s"),
                       local_error ? ": " : "", local_error ? local_error->message : "");
          return FALSE;
        }
      obj = json_node_get_object (node);
      members = json_object_get_members (obj);
      for (GList *l = members; l; l = l->next)
        {
          JsonNode *v = json_object_get_member (obj, l->data);
          if (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_STRING)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is a placeholder such as #n */
                           _("ExpressionAttributeNames: %s must map to a string"), (char *) l->data);
              return FALSE;
            }
          dyn_request_add_name (request, l->data, json_node_get_string (v));
        }
    }

  if (values_json != NULL)
    {
      g_autoptr(DynValue) values = dyn_item_from_ddb_json_string (values_json, -1, &local_error);

      if (values == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: ExpressionAttributeValues is DynamoDB's name for the map */
                       _("ExpressionAttributeValues must be a JSON object of \":v\": DynamoDB JSON value: %s"),
                       local_error->message);
          return FALSE;
        }
      for (guint i = 0; i < dyn_value_get_length (values); i++)
        dyn_request_add_value (request, dyn_value_map_get_name (values, i),
                               dyn_value_map_get_value (values, i));
    }
  return TRUE;
}

gboolean
dyn_expression_maps_from_json (const char   *names_json,
                               const char   *values_json,
                               GHashTable  **names,
                               GHashTable  **values,
                               GError      **error)
{
  g_autoptr(DynRequest) maps = dyn_request_new (DYN_OP_SCAN, "-");

  *names = NULL;
  *values = NULL;
  if (!parse_maps (maps, names_json, values_json, error))
    return FALSE;
  if (names_json != NULL)
    *names = g_hash_table_ref (maps->names);
  if (values_json != NULL)
    *values = g_hash_table_ref (maps->values);
  return TRUE;
}

gboolean
dyn_request_set_expressions_json (DynRequest          *request,
                                  const DynTableKeys  *table,
                                  const char          *key_condition,
                                  const char          *filter,
                                  const char          *condition,
                                  const char          *update,
                                  const char          *projection,
                                  const char          *names_json,
                                  const char          *values_json,
                                  GError             **error)
{
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;

  /* The user's maps are only for parsing: the compiler names placeholders anew. */
  if (!dyn_expression_maps_from_json (names_json, values_json, &names, &values, error))
    return FALSE;
  return dyn_request_compile_expressions (request, table, key_condition, filter, condition, update,
                                          projection, names, values, error);
}

