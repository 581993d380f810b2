/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-http.h"
#include "dyn-signin-private.h"

G_DEFINE_INTERFACE (DynSignInPrompter, dyn_sign_in_prompter, G_TYPE_OBJECT)

static void
dyn_sign_in_prompter_default_init (DynSignInPrompterInterface *iface)
{
}

gboolean
dyn_sign_in_prompter_can_interact (DynSignInPrompter *self)
{
  DynSignInPrompterInterface *iface;

  g_return_val_if_fail (DYN_IS_SIGN_IN_PROMPTER (self), FALSE);

  iface = DYN_SIGN_IN_PROMPTER_GET_IFACE (self);
  return iface->can_interact != NULL && iface->can_interact (self);
}

void
dyn_sign_in_prompter_ask_mfa_code (DynSignInPrompter   *self,
                                   const char          *profile,
                                   const char          *mfa_serial,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (DYN_IS_SIGN_IN_PROMPTER (self));
  g_return_if_fail (DYN_SIGN_IN_PROMPTER_GET_IFACE (self)->ask_mfa_code != NULL);

  DYN_SIGN_IN_PROMPTER_GET_IFACE (self)->ask_mfa_code (self, profile, mfa_serial, cancellable, callback, user_data);
}

char *
dyn_sign_in_prompter_ask_mfa_code_finish (DynSignInPrompter  *self,
                                          GAsyncResult       *result,
                                          GError            **error)
{
  g_return_val_if_fail (DYN_IS_SIGN_IN_PROMPTER (self), NULL);

  return DYN_SIGN_IN_PROMPTER_GET_IFACE (self)->ask_mfa_code_finish (self, result, error);
}

gboolean
dyn_sign_in_prompter_show_device_code (DynSignInPrompter    *self,
                                       const DynDeviceCode  *code,
                                       GCancellable         *flow,
                                       GError              **error)
{
  DynSignInPrompterInterface *iface;

  g_return_val_if_fail (DYN_IS_SIGN_IN_PROMPTER (self), FALSE);
  g_return_val_if_fail (code != NULL, FALSE);

  iface = DYN_SIGN_IN_PROMPTER_GET_IFACE (self);
  if (iface->show_device_code == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                           _("Signing in to IAM Identity Center needs a browser, and nobody can be asked here"));
      return FALSE;
    }
  return iface->show_device_code (self, code, flow, error);
}

void
dyn_sign_in_prompter_hide_device_code (DynSignInPrompter *self,
                                       const GError      *error)
{
  DynSignInPrompterInterface *iface;

  g_return_if_fail (DYN_IS_SIGN_IN_PROMPTER (self));

  iface = DYN_SIGN_IN_PROMPTER_GET_IFACE (self);
  if (iface->hide_device_code != NULL)
    iface->hide_device_code (self, error);
}

static DynSignInPrompter *default_prompter;

void
dyn_sign_in_set_default_prompter (DynSignInPrompter *prompter)
{
  g_return_if_fail (prompter == NULL || DYN_IS_SIGN_IN_PROMPTER (prompter));

  g_set_object (&default_prompter, prompter);
}

DynSignInPrompter *
dyn_sign_in_get_default_prompter (void)
{
  return default_prompter;
}

void
dyn_device_code_free (DynDeviceCode *code)
{
  if (code == NULL)
    return;
  g_free (code->verification_uri);
  g_free (code->verification_uri_complete);
  g_free (code->user_code);
  g_free (code->start_url);
  g_free (code->session_name);
  g_clear_pointer (&code->expires, g_date_time_unref);
  g_free (code);
}

void
dyn_caller_identity_free (DynCallerIdentity *identity)
{
  if (identity == NULL)
    return;
  g_free (identity->account);
  g_free (identity->arn);
  g_free (identity->user_id);
  g_clear_pointer (&identity->expiration, g_date_time_unref);
  g_free (identity);
}

gboolean
_dyn_sign_in_check_endpoint (const char  *url,
                             const char  *what,
                             GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (dyn_http_check_endpoint (url, FALSE, &local_error))
    return TRUE;

  g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
               /* Translators: the first %s is what it is (“the STS endpoint”), the second the
                * reason the URL is refused */
               _("Cannot use %s: %s"), what, local_error->message);
  return FALSE;
}

typedef struct {
  GSource *timeout;
  GSource *cancel_source;
} Sleep;

static void
sleep_free (Sleep *sleep)
{
  if (sleep->timeout != NULL)
    {
      g_source_destroy (sleep->timeout);
      g_source_unref (sleep->timeout);
    }
  if (sleep->cancel_source != NULL)
    {
      g_source_destroy (sleep->cancel_source);
      g_source_unref (sleep->cancel_source);
    }
  g_free (sleep);
}

static gboolean
sleep_done_cb (gpointer user_data)
{
  GTask *task = user_data;

  g_task_return_boolean (task, TRUE);
  g_object_unref (task);   /* frees the Sleep, whose sources then never fire again */
  return G_SOURCE_REMOVE;
}

static gboolean
sleep_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;

  g_task_return_error_if_cancelled (task);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

void
_dyn_sign_in_sleep_async (guint                ms,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Sleep *sleep = g_new0 (Sleep, 1);

  g_task_set_source_tag (task, _dyn_sign_in_sleep_async);
  g_task_set_task_data (task, sleep, (GDestroyNotify) sleep_free);
  sleep->timeout = g_timeout_source_new (ms);
  g_source_set_callback (sleep->timeout, sleep_done_cb, task, NULL);
  g_source_attach (sleep->timeout, g_task_get_context (task));
  if (cancellable != NULL)
    {
      sleep->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (sleep->cancel_source, (GSourceFunc) (void (*) (void)) sleep_cancelled_cb, task, NULL);
      g_source_attach (sleep->cancel_source, g_task_get_context (task));
    }
}

gboolean
_dyn_sign_in_sleep_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _dyn_sign_in_sleep_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The hook dyn_profile_resolve() calls, in botocore's order: role_arn and web identity,
 * then IAM Identity Center, before the profile's keys; the container provider last. */
static DynCredentialsProvider *
profile_credentials (DynSharedConfig             *shared,
                     const char                  *profile,
                     gboolean                     explicit_profile,
                     DynProfileCredentialsPhase   phase,
                     gboolean                    *handled,
                     gpointer                     user_data,
                     GError                     **error)
{
  DynSignInResolve *resolve = user_data;
  DynCredentialsProvider *provider;

  *handled = FALSE;
  if (phase == DYN_PROFILE_CREDENTIALS_LAST)
    return _dyn_sign_in_container_from_env (handled, error);

  provider = _dyn_sign_in_role_from_profile (resolve, shared, profile, explicit_profile, handled, error);
  if (*handled)
    return provider;

  return _dyn_sign_in_sso_from_profile (resolve, shared, profile, handled, error);
}

static char *
chain_text (GPtrArray  *chain,
            const char *last)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < chain->len; i++)
    {
      g_string_append (text, g_ptr_array_index (chain, i));
      g_string_append (text, " → ");
    }
  g_string_append (text, last);
  return g_string_free (text, FALSE);
}

DynCredentialsProvider *
_dyn_sign_in_resolve_source_profile (DynSignInResolve  *resolve,
                                     DynSharedConfig   *shared,
                                     const char        *profile,
                                     GError           **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) resolved = NULL;
  DynCredentialsProvider *provider = NULL;

  for (guint i = 0; i < resolve->chain->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (resolve->chain, i), profile))
        {
          g_autofree char *text = chain_text (resolve->chain, profile);

          g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                       /* Translators: %s is a chain of AWS profiles, “a → b → a” */
                       _("The profiles' source_profile settings go round in a circle: %s"), text);
          return NULL;
        }
    }

  if (!dyn_shared_config_has_profile (shared, profile))
    {
      g_autofree char *text = chain_text (resolve->chain, profile);

      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: the first %s is an AWS profile, the second a chain of profiles “a → b” */
                   _("The source profile '%s' does not exist (%s)"), profile, text);
      return NULL;
    }

  options.profile = profile;
  /* Only the source's credentials count (the STS client is the head profile's): a source profile
   * without a region of its own must not fail for want of one. */
  options.region = "us-east-1";
  options.profile_credentials = profile_credentials;
  options.profile_credentials_data = resolve;
  g_ptr_array_add (resolve->chain, g_strdup (profile));
  resolved = dyn_profile_resolve (shared, &options, error);
  g_ptr_array_remove_index (resolve->chain, resolve->chain->len - 1);

  if (resolved != NULL)
    provider = g_object_ref (dyn_profile_get_credentials_provider (resolved));
  return provider;
}

DynProfile *
dyn_sign_in_resolve (DynSharedConfig          *shared,
                     const DynResolveOptions  *options,
                     DynSignInPrompter        *prompter,
                     GError                  **error)
{
  DynResolveOptions copy = { 0 };
  DynSignInResolve resolve = { 0 };
  g_autoptr(DynSharedConfig) loaded = NULL;
  g_autoptr(GPtrArray) chain = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (shared == NULL)
    {
      if ((loaded = dyn_shared_config_load (error)) == NULL)
        return NULL;
      shared = loaded;
    }

  if (options != NULL)
    copy = *options;
  resolve.prompter = prompter != NULL ? prompter : dyn_sign_in_get_default_prompter ();
  resolve.chain = chain;
  resolve.region = copy.region;
  copy.profile_credentials = profile_credentials;
  copy.profile_credentials_data = &resolve;

  /* The profile being resolved heads the chain (the same choice dyn_profile_resolve() makes). */
  if (copy.profile != NULL && *copy.profile != '\0')
    name = copy.profile;
  else if ((name = g_getenv ("AWS_PROFILE")) == NULL || *name == '\0')
    name = "default";
  g_ptr_array_add (chain, g_strdup (name));

  return dyn_profile_resolve (shared, &copy, error);
}
