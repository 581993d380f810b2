/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connect"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-config.h"
#include "dyn-error.h"
#include "dyn-connect.h"
#include "dyn-http.h"
#include "dyn-signin.h"

static DynConnectNoticeFunc notice_func;
static gpointer             notice_data;

void
dyn_connect_set_notice_func (DynConnectNoticeFunc func,
                             gpointer             user_data)
{
  notice_func = func;
  notice_data = user_data;
}

static gboolean
is_loopback_endpoint (const char *endpoint)
{
  return endpoint != NULL &&
         g_str_has_prefix (endpoint, "http://") &&
         dyn_http_check_endpoint (endpoint, FALSE, NULL);
}

static gboolean
env_set (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && *value != '\0';
}

/* No profile is in play at all: none named (--profile, AWS_PROFILE), no
 * [default] section in either file, no keys in the environment. */
static gboolean
no_profile_in_play (DynSharedConfig *shared,
                    const char      *profile)
{
  return (profile == NULL || *profile == '\0') &&
         !env_set ("AWS_PROFILE") &&
         !env_set ("AWS_ACCESS_KEY_ID") && !env_set ("AWS_SECRET_ACCESS_KEY") &&
         !dyn_shared_config_has_profile (shared, "default");
}

DynClient *
dyn_connect (const char  *profile,
             const char  *region,
             const char  *endpoint,
             gboolean     insecure,
             GError     **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynProfile) resolved = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *effective = NULL;

  options.profile = profile;
  options.region = region;
  options.endpoint_url = endpoint;

  if ((shared = dyn_shared_config_load (error)) == NULL)
    return NULL;

  resolved = dyn_sign_in_resolve (shared, &options, NULL, &local_error);
  if (resolved == NULL &&
      g_error_matches (local_error, DYN_ERROR, DYN_ERROR_CREDENTIALS) &&
      no_profile_in_play (shared, profile))
    {
      g_autofree char *location_region = NULL;
      g_autofree char *location_endpoint = NULL;

      /* DynamoDB Local does not check keys: placeholders do, where nobody
       * configured any. Never for a profile: its missing credentials are an error. */
      if (dyn_connect_resolve_location (profile, region, endpoint, &location_region,
                                        &location_endpoint, NULL) &&
          is_loopback_endpoint (location_endpoint))
        {
          g_debug ("no credentials configured; using placeholder keys for %s", location_endpoint);
          g_clear_error (&local_error);
          options.access_key_id = "dynoscope";
          options.secret_access_key = "local";
          resolved = dyn_sign_in_resolve (shared, &options, NULL, &local_error);
          if (resolved != NULL && notice_func != NULL)
            {
              g_autofree char *notice =
                /* Translators: %s is an endpoint URL such as http://localhost:8000 */
                g_strdup_printf (_("No profile or credentials are configured: using placeholder keys "
                                   "for the local endpoint %s"), location_endpoint);
              notice_func (notice, notice_data);
            }
        }
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
