/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <string.h>

#include "dyn-cli-connect.h"
#include "dyn-config.h"
#include "dyn-http.h"
#include "dyn-json.h"
#include "dyn-read-request.h"
#include "dyn-table.h"

static gboolean
is_loopback_endpoint (const char *endpoint)
{
  return endpoint != NULL &&
         g_str_has_prefix (endpoint, "http://") &&
         dyn_http_check_endpoint (endpoint, FALSE, NULL);
}

DynClient *
dyn_cli_connect (const char  *profile,
                 const char  *region,
                 const char  *endpoint,
                 gboolean     insecure,
                 GError     **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) resolved = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *effective = NULL;

  options.profile = profile;
  options.region = region;
  options.endpoint_url = endpoint;

  resolved = dyn_profile_resolve (NULL, &options, &local_error);
  if (resolved == NULL &&
      g_error_matches (local_error, DYN_ERROR, DYN_ERROR_CREDENTIALS) &&
      is_loopback_endpoint (endpoint))
    {
      g_debug ("no credentials configured; using placeholder keys for %s", endpoint);
      g_clear_error (&local_error);
      options.access_key_id = "dynoscope";
      options.secret_access_key = "local";
      resolved = dyn_profile_resolve (NULL, &options, &local_error);
    }
  if (resolved == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  effective = dyn_profile_dup_effective_endpoint_url (resolved);
  if (insecure)
    return dyn_client_new_insecure (effective, dyn_profile_get_region (resolved),
                                    dyn_profile_get_credentials_provider (resolved), error);
  return dyn_client_new (effective, dyn_profile_get_region (resolved),
                         dyn_profile_get_credentials_provider (resolved), error);
}

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
                       "--names must be a JSON object of \"#n\": \"name\"%s%s",
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
                           "--names: %s must map to a string", (char *) l->data);
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
                       "--values must be a JSON object of \":v\": DynamoDB JSON value: %s",
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
dyn_cli_parse_maps (const char   *names_json,
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
dyn_cli_set_expressions (DynRequest          *request,
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
  if (!dyn_cli_parse_maps (names_json, values_json, &names, &values, error))
    return FALSE;
  return dyn_request_compile_expressions (request, table, key_condition, filter, condition, update,
                                          projection, names, values, error);
}

gboolean
dyn_cli_resolve_location (const char  *profile,
                          const char  *region,
                          const char  *endpoint,
                          char       **region_out,
                          char       **endpoint_out,
                          GError     **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) resolved = NULL;

  options.profile = profile;
  options.region = region;
  options.endpoint_url = endpoint;
  /* Placeholder keys: only the location is wanted, and a snippet never carries keys. */
  options.access_key_id = "snippet";
  options.secret_access_key = "snippet";
  resolved = dyn_profile_resolve (NULL, &options, error);
  if (resolved == NULL)
    return FALSE;
  *region_out = g_strdup (dyn_profile_get_region (resolved));
  *endpoint_out = g_strdup (dyn_profile_get_endpoint_url (resolved));
  return TRUE;
}
