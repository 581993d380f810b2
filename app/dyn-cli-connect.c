/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <string.h>

#include "dyn-cli-connect.h"
#include "dyn-config.h"
#include "dyn-http.h"
#include "dyn-json.h"

static gboolean
is_loopback_endpoint (const char *endpoint)
{
  return endpoint != NULL &&
         g_str_has_prefix (endpoint, "http://") &&
         dyn_http_check_endpoint (endpoint, FALSE, NULL, NULL);
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
dyn_cli_set_expressions (DynRequest  *request,
                         const char  *key_condition,
                         const char  *filter,
                         const char  *condition,
                         const char  *update,
                         const char  *projection,
                         const char  *names_json,
                         const char  *values_json,
                         GError     **error)
{
  if (!parse_maps (request, names_json, values_json, error))
    return FALSE;

  request->key_condition = g_strdup (key_condition);
  request->filter = g_strdup (filter);
  request->condition = g_strdup (condition);
  request->update = g_strdup (update);
  request->projection = g_strdup (projection);
  return TRUE;
}

DynPager *
dyn_cli_new_pager (DynClient         *client,
                   const DynRequest  *request,
                   GError           **error)
{
  return dyn_pager_new (client, request);
}

gboolean
dyn_cli_run_offline (const char  *command,
                     GPtrArray   *args,
                     gboolean    *ok,
                     GError     **error)
{
  return FALSE;
}
