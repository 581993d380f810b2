/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"

/* Role, web identity, container and instance providers: filled in by the sts part of issue 15. */

DynCredentialsProvider *
_dyn_sign_in_role_from_profile (DynSignInResolve  *resolve,
                                DynSharedConfig   *shared,
                                const char        *profile,
                                gboolean           explicit_profile,
                                gboolean          *handled,
                                GError           **error)
{
  *handled = FALSE;
  return NULL;
}

DynCredentialsProvider *
_dyn_sign_in_container_from_env (gboolean  *handled,
                                 GError   **error)
{
  *handled = FALSE;
  return NULL;
}

DynCredentialsProvider *
dyn_assume_role_provider_new (const DynAssumeRoleConfig *config,
                              DynCredentialsProvider    *source,
                              DynSignInPrompter         *prompter)
{
  g_return_val_if_reached (NULL);
}

DynCredentialsProvider *
dyn_web_identity_provider_new (const DynAssumeRoleConfig *config,
                               const char                *token_file)
{
  g_return_val_if_reached (NULL);
}

DynCredentialsProvider *
dyn_container_provider_new (GError **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS, "not there yet");
  return NULL;
}

DynCredentialsProvider *
dyn_instance_metadata_provider_new (void)
{
  g_return_val_if_reached (NULL);
}
