/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connect"

#include "config.h"

#include <string.h>

#include "dyn-config.h"
#include "dyn-connect.h"
#include "dyn-http.h"
#include "dyn-signin.h"

static gboolean
is_loopback_endpoint (const char *endpoint)
{
  return endpoint != NULL &&
         g_str_has_prefix (endpoint, "http://") &&
         dyn_http_check_endpoint (endpoint, FALSE, NULL);
}

DynClient *
dyn_connect (const char  *profile,
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

  resolved = dyn_sign_in_resolve (NULL, &options, NULL, &local_error);
  if (resolved == NULL &&
      g_error_matches (local_error, DYN_ERROR, DYN_ERROR_CREDENTIALS) &&
      is_loopback_endpoint (endpoint))
    {
      g_debug ("no credentials configured; using placeholder keys for %s", endpoint);
      g_clear_error (&local_error);
      options.access_key_id = "dynoscope";
      options.secret_access_key = "local";
      resolved = dyn_sign_in_resolve (NULL, &options, NULL, &local_error);
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

gboolean
dyn_connect_resolve_location (const char  *profile,
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
