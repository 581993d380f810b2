/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* GetCallerIdentity: filled in by the cli part of issue 15. */

void
dyn_sign_in_whoami_async (DynCredentialsProvider  *provider,
                          const char              *region,
                          const char              *sts_endpoint,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, dyn_sign_in_whoami_async);
  g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_FAILED, "not there yet");
  g_object_unref (task);
}

DynCallerIdentity *
dyn_sign_in_whoami_finish (GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
