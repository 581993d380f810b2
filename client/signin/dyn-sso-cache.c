/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* The token cache and DynSsoConfig: filled in by the sso part of issue 15. */

void
dyn_sso_config_free (DynSsoConfig *config)
{
  if (config == NULL)
    return;
  g_free (config->profile);
  g_free (config->session_name);
  g_free (config->start_url);
  g_free (config->sso_region);
  g_free (config->registration_scopes);
  g_free (config->account_id);
  g_free (config->role_name);
  g_free (config->oidc_endpoint);
  g_free (config->portal_endpoint);
  g_free (config);
}

DynSsoConfig *
dyn_sso_config_from_profile (DynSharedConfig *shared,
                             const char      *profile,
                             GError         **error)
{
  return NULL;
}

void
dyn_sso_token_free (DynSsoToken *token)
{
  if (token == NULL)
    return;
  g_free (token->start_url);
  g_free (token->region);
  if (token->access_token != NULL)
    memset (token->access_token, 0, strlen (token->access_token));
  g_free (token->access_token);
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  g_free (token->client_id);
  if (token->client_secret != NULL)
    memset (token->client_secret, 0, strlen (token->client_secret));
  g_free (token->client_secret);
  g_clear_pointer (&token->registration_expires_at, g_date_time_unref);
  if (token->refresh_token != NULL)
    memset (token->refresh_token, 0, strlen (token->refresh_token));
  g_free (token->refresh_token);
  g_free (token);
}

char *
dyn_sso_token_cache_path (const char *session_name,
                          const char *start_url)
{
  return NULL;
}

DynSsoToken *
dyn_sso_token_load (const char  *path,
                    GError     **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "not there yet");
  return NULL;
}

gboolean
dyn_sso_token_save (const DynSsoToken  *token,
                    const char         *path,
                    GError            **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "not there yet");
  return FALSE;
}

DynSsoToken *
_dyn_sso_token_parse (const char  *text,
                      gsize        length,
                      const char  *display,
                      GError     **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG, "not there yet");
  return NULL;
}
