/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* GetCallerIdentity with the credentials of a provider: who they belong to,
 * and when they expire (from the credentials, not from STS, which does not say). */

typedef struct
{
  DynCredentialsProvider *provider;
  DynCredentials         *credentials;
  char                   *region;
  char                   *endpoint;
  gboolean                refreshed;
} Whoami;

static void
whoami_free (Whoami *w)
{
  g_clear_object (&w->provider);
  g_clear_pointer (&w->credentials, dyn_credentials_unref);
  g_free (w->region);
  g_free (w->endpoint);
  g_free (w);
}

static void credentials_cb (GObject *object, GAsyncResult *result, gpointer user_data);

static void
identity_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;     /* owned */
  Whoami *w = g_task_get_task_data (task);
  g_autoptr(GHashTable) fields = NULL;
  GError *error = NULL;
  DynCallerIdentity *identity;

  fields = _dyn_sts_call_finish (result, &error);
  if (fields == NULL)
    {
      /* Credentials that expired under us (a role's): fetch them once more. */
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS) && !w->refreshed &&
          !g_task_return_error_if_cancelled (task))
        {
          w->refreshed = TRUE;
          g_clear_error (&error);
          dyn_credentials_provider_invalidate (w->provider);
          dyn_credentials_provider_get_async (w->provider, g_task_get_cancellable (task),
                                              credentials_cb, task);
          return;
        }
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  identity = g_new0 (DynCallerIdentity, 1);
  identity->account = g_strdup (g_hash_table_lookup (fields, "Account"));
  identity->arn = g_strdup (g_hash_table_lookup (fields, "Arn"));
  identity->user_id = g_strdup (g_hash_table_lookup (fields, "UserId"));
  if (w->credentials->expiration != NULL)
    identity->expiration = g_date_time_ref (w->credentials->expiration);
  g_task_return_pointer (task, identity, (GDestroyNotify) dyn_caller_identity_free);
  g_object_unref (task);
}

static void
credentials_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;     /* owned */
  Whoami *w = g_task_get_task_data (task);
  GError *error = NULL;

  g_clear_pointer (&w->credentials, dyn_credentials_unref);
  w->credentials = dyn_credentials_provider_get_finish (DYN_CREDENTIALS_PROVIDER (object), result, &error);
  if (w->credentials == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  _dyn_sts_call_async (w->endpoint, w->region, w->credentials, "GetCallerIdentity", NULL,
                       g_task_get_cancellable (task), identity_cb, task);
}

void
dyn_sign_in_whoami_async (DynCredentialsProvider  *provider,
                          const char              *region,
                          const char              *sts_endpoint,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  GTask *task;
  Whoami *w;

  g_return_if_fail (DYN_IS_CREDENTIALS_PROVIDER (provider));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_sign_in_whoami_async);

  w = g_new0 (Whoami, 1);
  w->provider = g_object_ref (provider);
  w->region = g_strdup (region);
  if (sts_endpoint != NULL && *sts_endpoint != '\0')
    w->endpoint = g_strdup (sts_endpoint);
  else
    w->endpoint = dyn_sign_in_sts_endpoint (NULL, NULL, region, NULL);
  g_task_set_task_data (task, w, (GDestroyNotify) whoami_free);

  dyn_credentials_provider_get_async (provider, cancellable, credentials_cb, task);
}

DynCallerIdentity *
dyn_sign_in_whoami_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sign_in_whoami_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
