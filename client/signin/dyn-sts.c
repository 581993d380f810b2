/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* STS: filled in by the sts part of issue 15. */

char *
dyn_sign_in_sts_endpoint (DynSharedConfig *shared,
                          const char      *profile,
                          const char      *region,
                          char           **source)
{
  if (source != NULL)
    *source = NULL;
  return g_strdup ("https://sts.amazonaws.com");
}

void
_dyn_sts_call_async (const char          *endpoint,
                     const char          *region,
                     DynCredentials      *credentials,
                     const char          *action,
                     const char * const  *params,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, _dyn_sts_call_async);
  g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_FAILED, "STS is not there yet");
  g_object_unref (task);
}

GHashTable *
_dyn_sts_call_finish (GAsyncResult  *result,
                      GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

GHashTable *
_dyn_sts_parse_response (const char  *action,
                         guint        status,
                         const char  *body,
                         gsize        length,
                         GError     **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, "not there yet");
  return NULL;
}
