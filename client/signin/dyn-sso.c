/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* OIDC, the portal, login and the SSO provider: filled in by the sso part of issue 15. */

DynCredentialsProvider *
_dyn_sign_in_sso_from_profile (DynSignInResolve  *resolve,
                               DynSharedConfig   *shared,
                               const char        *profile,
                               gboolean          *handled,
                               GError           **error)
{
  *handled = FALSE;
  return NULL;
}

JsonNode *
_dyn_sso_parse_response (const char  *operation,
                         guint        status,
                         const char  *body,
                         gsize        length,
                         GError     **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, "not there yet");
  return NULL;
}

void
dyn_sso_login_async (const DynSsoConfig  *config,
                     DynSignInPrompter   *prompter,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, dyn_sso_login_async);
  g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_FAILED, "not there yet");
  g_object_unref (task);
}

gboolean
dyn_sso_login_finish (GAsyncResult  *result,
                      GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

DynCredentialsProvider *
dyn_sso_provider_new (const DynSsoConfig *config,
                      DynSignInPrompter  *prompter)
{
  g_return_val_if_reached (NULL);
}

void
dyn_sso_account_free (DynSsoAccount *account)
{
  if (account == NULL)
    return;
  g_free (account->account_id);
  g_free (account->account_name);
  g_free (account->email_address);
  g_free (account);
}

void
dyn_sso_list_accounts_async (const DynSsoConfig  *config,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_FAILED, "not there yet");
  g_object_unref (task);
}

GPtrArray *
dyn_sso_list_accounts_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyn_sso_list_account_roles_async (const DynSsoConfig  *config,
                                  const char          *account_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_FAILED, "not there yet");
  g_object_unref (task);
}

GStrv
dyn_sso_list_account_roles_finish (GAsyncResult  *result,
                                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
