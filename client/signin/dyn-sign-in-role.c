/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-sts-private.h"

/*
 * role_arn, source_profile, credential_source and web identity profiles as
 * botocore 1.29 (credentials.py: AssumeRoleProvider,
 * AssumeRoleWithWebIdentityProvider, CanonicalNameCredentialSourcer) reads
 * them, and the providers they make:
 *
 * - The profile being resolved (the head of the chain) with role_arn and no
 *   web_identity_token_file assumes the role, whatever else it has.
 * - A source profile assumes its role only when it has no static keys: with
 *   keys, the keys are the credentials (botocore's profile providers).
 * - A profile may name itself as source_profile when it has static keys: the
 *   role is assumed with those keys. Any other circle is refused (the chain,
 *   by _dyn_sign_in_resolve_source_profile()).
 * - Web identity: AWS_WEB_IDENTITY_TOKEN_FILE, AWS_ROLE_ARN and
 *   AWS_ROLE_SESSION_NAME (unless the profile was chosen explicitly, or is a
 *   source profile), each over the profile's web_identity_token_file,
 *   role_arn and role_session_name.
 * - The STS client of every step of a chain is the one of the profile being
 *   resolved: its region (AWS_REGION, AWS_DEFAULT_REGION, region), its
 *   sts_regional_endpoints and its STS endpoint settings.
 * - The default role session name is "dynoscope-session-<unix time>" (botocore:
 *   "botocore-session-<unix time>"), made once per provider.
 * - Where botocore silently drops a duration_seconds that is not a number, we
 *   refuse it with the profile named.
 */

#define SESSION_NAME_PREFIX "dynoscope-session-"

static const char *
nonempty (const char *value)
{
  return (value != NULL && *value != '\0') ? value : NULL;
}

static const char *
env (const char *name)
{
  return nonempty (g_getenv (name));
}

static const char *
setting (DynSharedConfig *shared,
         const char      *profile,
         const char      *key)
{
  return nonempty (dyn_shared_config_get_value (shared, profile, key));
}

static char *
default_session_name (void)
{
  return g_strdup_printf (SESSION_NAME_PREFIX "%" G_GINT64_FORMAT, g_get_real_time () / G_USEC_PER_SEC);
}

/* ------------------------------------------------------------------------ */
/* The providers                                                              */

typedef struct {
  char                   *profile;
  char                   *role_arn;
  char                   *session_name;
  char                   *external_id;
  char                   *mfa_serial;
  guint                   duration_seconds;
  char                   *region;
  char                   *endpoint;
  char                   *token_file;      /* web identity */
  DynCredentialsProvider *source;          /* assume role */
  DynSignInPrompter      *prompter;        /* (nullable) */
} Role;

static void
role_free (gpointer data)
{
  Role *role = data;

  g_free (role->profile);
  g_free (role->role_arn);
  g_free (role->session_name);
  g_free (role->external_id);
  g_free (role->mfa_serial);
  g_free (role->region);
  g_free (role->endpoint);
  g_free (role->token_file);
  g_clear_object (&role->source);
  g_clear_object (&role->prompter);
  g_free (role);
}

static Role *
role_new (const DynAssumeRoleConfig *config)
{
  Role *role = g_new0 (Role, 1);

  role->profile = g_strdup (config->profile);
  role->role_arn = g_strdup (config->role_arn);
  role->session_name = nonempty (config->role_session_name) != NULL ? g_strdup (config->role_session_name)
                                                                     : default_session_name ();
  role->external_id = g_strdup (nonempty (config->external_id));
  role->mfa_serial = g_strdup (nonempty (config->mfa_serial));
  role->duration_seconds = config->duration_seconds;
  role->region = g_strdup (nonempty (config->region) != NULL ? config->region : "us-east-1");
  role->endpoint = nonempty (config->sts_endpoint) != NULL
                   ? g_strdup (config->sts_endpoint)
                   : dyn_sign_in_sts_endpoint (NULL, NULL, role->region, NULL);
  return role;
}

typedef struct {
  Role           *role;         /* owned by the provider, which lives while it fetches */
  DynCredentials *source_creds;
  char           *token;        /* web identity token */
  char           *code;         /* MFA code */
  gboolean        source_refreshed;
} RoleFetch;

static void
wipe (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

static void
role_fetch_free (RoleFetch *fetch)
{
  g_clear_pointer (&fetch->source_creds, dyn_credentials_unref);
  wipe (fetch->token);
  wipe (fetch->code);
  g_free (fetch);
}

/* "Role ARN of profile 'x': " before what went wrong. */
static void
prefix_role_error (GError **error,
                   Role    *role)
{
  if (g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (role->profile != NULL)
    /* Translators: the first %s is a role ARN, the second an AWS profile; what went wrong follows */
    g_prefix_error (error, _("Role %s of profile '%s': "), role->role_arn, role->profile);
  else
    /* Translators: %s is a role ARN; what went wrong follows */
    g_prefix_error (error, _("Role %s: "), role->role_arn);
}

static void source_cb (GObject *object, GAsyncResult *result, gpointer user_data);

static void
sts_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RoleFetch *fetch = g_task_get_task_data (task);
  g_autoptr(GHashTable) table = NULL;
  GError *error = NULL;

  table = _dyn_sts_call_finish (result, &error);
  if (table == NULL)
    {
      /* The source's credentials may have been revoked before they expire: fetch them once more. */
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS) && fetch->role->source != NULL &&
          !fetch->source_refreshed &&
          dyn_credentials_provider_get_source (fetch->role->source) != DYN_CREDENTIALS_SOURCE_STATIC &&
          dyn_credentials_provider_get_source (fetch->role->source) != DYN_CREDENTIALS_SOURCE_ENVIRONMENT &&
          dyn_credentials_provider_get_source (fetch->role->source) != DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE &&
          dyn_credentials_provider_get_source (fetch->role->source) != DYN_CREDENTIALS_SOURCE_CONFIG_FILE)
        {
          g_debug ("The source credentials of role %s have expired; fetching them again", fetch->role->role_arn);
          g_clear_error (&error);
          fetch->source_refreshed = TRUE;
          g_clear_pointer (&fetch->source_creds, dyn_credentials_unref);
          wipe (g_steal_pointer (&fetch->code));
          dyn_credentials_provider_invalidate (fetch->role->source);
          dyn_credentials_provider_get_async (fetch->role->source, g_task_get_cancellable (task), source_cb,
                                              g_object_ref (task));
          return;
        }
      prefix_role_error (&error, fetch->role);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, _dyn_sts_result_credentials (table), (GDestroyNotify) dyn_credentials_unref);
}

static void
call_sts (GTask *task)
{
  RoleFetch *fetch = g_task_get_task_data (task);
  Role *role = fetch->role;
  g_autoptr(GPtrArray) params = g_ptr_array_new ();
  g_autofree char *duration = NULL;
  const char *action;

  g_ptr_array_add (params, (gpointer) "RoleArn");
  g_ptr_array_add (params, role->role_arn);
  g_ptr_array_add (params, (gpointer) "RoleSessionName");
  g_ptr_array_add (params, role->session_name);
  if (role->duration_seconds > 0)
    {
      duration = g_strdup_printf ("%u", role->duration_seconds);
      g_ptr_array_add (params, (gpointer) "DurationSeconds");
      g_ptr_array_add (params, duration);
    }
  if (role->token_file != NULL)
    {
      action = "AssumeRoleWithWebIdentity";
      g_ptr_array_add (params, (gpointer) "WebIdentityToken");
      g_ptr_array_add (params, fetch->token);
    }
  else
    {
      action = "AssumeRole";
      if (role->external_id != NULL)
        {
          g_ptr_array_add (params, (gpointer) "ExternalId");
          g_ptr_array_add (params, role->external_id);
        }
      if (role->mfa_serial != NULL)
        {
          g_ptr_array_add (params, (gpointer) "SerialNumber");
          g_ptr_array_add (params, role->mfa_serial);
          g_ptr_array_add (params, (gpointer) "TokenCode");
          g_ptr_array_add (params, fetch->code);
        }
    }
  g_ptr_array_add (params, NULL);

  g_debug ("STS %s for %s at %s (region %s)", action, role->role_arn, role->endpoint, role->region);
  _dyn_sts_call_async (role->endpoint, role->region, fetch->source_creds, action,
                       (const char * const *) params->pdata, g_task_get_cancellable (task), sts_cb, task);
}

static void
mfa_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GTask *task = user_data;
  RoleFetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;

  fetch->code = dyn_sign_in_prompter_ask_mfa_code_finish (DYN_SIGN_IN_PROMPTER (object), result, &error);
  if (fetch->code == NULL && error == NULL)
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The MFA code was not given"));
  if (error == NULL && *g_strstrip (fetch->code) == '\0')
    error = g_error_new (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                         /* Translators: %s is an MFA device (arn:aws:iam::…:mfa/alice) */
                         _("No MFA code was given for %s"), fetch->role->mfa_serial);
  if (error != NULL)
    {
      prefix_role_error (&error, fetch->role);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  call_sts (task);
}

static void
ask_mfa (GTask *task)
{
  RoleFetch *fetch = g_task_get_task_data (task);
  Role *role = fetch->role;
  DynSignInPrompter *prompter = role->prompter != NULL ? role->prompter : dyn_sign_in_get_default_prompter ();

  if (prompter == NULL || !dyn_sign_in_prompter_can_interact (prompter))
    {
      if (role->profile != NULL)
        g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                                 /* Translators: the first %s is an AWS profile, the second an MFA device
                                  * (arn:aws:iam::…:mfa/alice) */
                                 _("Profile '%s' needs an MFA code of %s to assume its role, and nobody can be "
                                   "asked for one here"),
                                 role->profile, role->mfa_serial);
      else
        g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                                 /* Translators: the first %s is a role ARN, the second an MFA device */
                                 _("Role %s needs an MFA code of %s, and nobody can be asked for one here"),
                                 role->role_arn, role->mfa_serial);
      g_object_unref (task);
      return;
    }

  /* Asked after the source credentials are there: the code is only good for a few seconds. */
  dyn_sign_in_prompter_ask_mfa_code (prompter, role->profile, role->mfa_serial, g_task_get_cancellable (task),
                                     mfa_cb, task);
}

static void
source_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  RoleFetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;

  fetch->source_creds = dyn_credentials_provider_get_finish (DYN_CREDENTIALS_PROVIDER (object), result, &error);
  if (fetch->source_creds == NULL)
    {
      prefix_role_error (&error, fetch->role);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  if (fetch->role->mfa_serial != NULL)
    ask_mfa (task);
  else
    call_sts (task);
}

static void
role_fetch (GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             callback_data,
            gpointer             user_data)
{
  Role *role = user_data;
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);
  RoleFetch *fetch = g_new0 (RoleFetch, 1);

  g_task_set_source_tag (task, role_fetch);
  fetch->role = role;
  g_task_set_task_data (task, fetch, (GDestroyNotify) role_fetch_free);

  if (role->token_file != NULL)
    {
      g_autoptr(GError) local_error = NULL;
      gsize length;

      /* Read on every refresh: Kubernetes and friends rotate the file. As botocore does, the text
       * goes as it is. */
      if (!g_file_get_contents (role->token_file, &fetch->token, &length, &local_error))
        {
          GError *error = g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                       /* Translators: the first %s is a file, the second why it cannot be read */
                                       _("The web identity token file %s cannot be read: %s"),
                                       role->token_file, local_error->message);

          prefix_role_error (&error, role);
          g_task_return_error (task, error);
          g_object_unref (task);
          return;
        }
      if (length == 0 || strlen (fetch->token) != length)
        {
          GError *error = g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                       /* Translators: %s is a file */
                                       _("The web identity token file %s holds no token"), role->token_file);

          prefix_role_error (&error, role);
          g_task_return_error (task, error);
          g_object_unref (task);
          return;
        }
      call_sts (task);
      return;
    }

  dyn_credentials_provider_get_async (role->source, cancellable, source_cb, task);
}

static DynCredentials *
role_fetch_finish (GAsyncResult  *result,
                   GError       **error,
                   gpointer       user_data)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == role_fetch, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static DynCredentialsProvider *
assume_role_provider_new (const DynAssumeRoleConfig *config,
                          DynCredentialsProvider    *source,
                          DynSignInPrompter         *prompter,
                          const char                *via)
{
  Role *role = role_new (config);
  g_autofree char *description = NULL;

  role->source = g_object_ref (source);
  role->prompter = prompter != NULL ? g_object_ref (prompter) : NULL;
  if (role->profile != NULL)
    /* Translators: where credentials come from. The first %s is a role ARN, the second an AWS
     * profile, the third where the credentials to assume it come from (“profile 'base'”) */
    description = g_strdup_printf (_("role %s of profile '%s' via %s"), role->role_arn, role->profile, via);
  else
    /* Translators: where credentials come from. The first %s is a role ARN, the second where the
     * credentials to assume it come from */
    description = g_strdup_printf (_("role %s via %s"), role->role_arn, via);

  return dyn_credentials_provider_new_custom (role_fetch, role_fetch_finish, role, role_free, description);
}

DynCredentialsProvider *
dyn_assume_role_provider_new (const DynAssumeRoleConfig *config,
                              DynCredentialsProvider    *source,
                              DynSignInPrompter         *prompter)
{
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (config->role_arn != NULL, NULL);
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (source), NULL);
  g_return_val_if_fail (prompter == NULL || DYN_IS_SIGN_IN_PROMPTER (prompter), NULL);

  return assume_role_provider_new (config, source, prompter, dyn_credentials_provider_get_description (source));
}

DynCredentialsProvider *
dyn_web_identity_provider_new (const DynAssumeRoleConfig *config,
                               const char                *token_file)
{
  Role *role;
  g_autofree char *description = NULL;

  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (config->role_arn != NULL, NULL);
  g_return_val_if_fail (token_file != NULL, NULL);

  role = role_new (config);
  role->token_file = g_strdup (token_file);
  g_clear_pointer (&role->external_id, g_free);
  g_clear_pointer (&role->mfa_serial, g_free);
  if (role->profile != NULL)
    /* Translators: where credentials come from. The first %s is a role ARN, the second an AWS
     * profile, the third a file */
    description = g_strdup_printf (_("role %s of profile '%s' with the web identity token in %s"),
                                   role->role_arn, role->profile, token_file);
  else
    /* Translators: where credentials come from. The first %s is a role ARN, the second a file */
    description = g_strdup_printf (_("role %s with the web identity token in %s"), role->role_arn, token_file);

  return dyn_credentials_provider_new_custom (role_fetch, role_fetch_finish, role, role_free, description);
}

/* ------------------------------------------------------------------------ */
/* The profiles                                                               */

/* The STS client every step of a chain uses: the one of the profile being resolved. */
typedef struct {
  char *region;     /* signing region */
  char *endpoint;
} StsClient;

static void
sts_client_clear (StsClient *client)
{
  g_clear_pointer (&client->region, g_free);
  g_clear_pointer (&client->endpoint, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (StsClient, sts_client_clear)

static gboolean
sts_client_init (StsClient        *client,
                 DynSharedConfig  *shared,
                 const char       *profile,
                 GError          **error)
{
  g_autofree char *source = NULL;
  g_autofree char *what = NULL;
  const char *region;
  const char *mode;
  const char *where = NULL;

  if ((region = env ("AWS_REGION")) == NULL && (region = env ("AWS_DEFAULT_REGION")) == NULL)
    region = setting (shared, profile, "region");

  mode = _dyn_sts_regional_endpoints_setting (shared, profile, &where);
  if (mode != NULL && !g_str_equal (mode, "legacy") && !g_str_equal (mode, "regional"))
    {
      if (g_str_equal (where, "sts_regional_endpoints"))
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: sts_regional_endpoints, legacy and regional are names; keep them.
                      * The first %s is an AWS profile, the second the value it has */
                     _("sts_regional_endpoints of profile '%s' is '%s'; it must be legacy or regional"),
                     profile, mode);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: AWS_STS_REGIONAL_ENDPOINTS, legacy and regional are names; keep them.
                      * %s is the value it has */
                     _("AWS_STS_REGIONAL_ENDPOINTS is '%s'; it must be legacy or regional"), mode);
      return FALSE;
    }

  client->endpoint = dyn_sign_in_sts_endpoint (shared, profile, region, &source);
  if (source != NULL)
    /* Translators: what a URL is, for “Cannot use %s: …”; %s says where it was set */
    what = g_strdup_printf (_("the STS endpoint of %s"), source);
  else
    what = g_strdup (_("the STS endpoint"));
  if (!_dyn_sign_in_check_endpoint (client->endpoint, what, error))
    return FALSE;

  /* The global endpoint is signed for us-east-1; a configured one for the client's region. */
  if (source == NULL && _dyn_sts_uses_global_endpoint (shared, profile, region))
    client->region = g_strdup ("us-east-1");
  else
    client->region = g_strdup (region != NULL ? region : "us-east-1");
  return TRUE;
}

static gboolean
has_static_keys (DynSharedConfig *shared,
                 const char      *profile)
{
  return dyn_shared_config_get_value (shared, profile, "aws_access_key_id") != NULL ||
         dyn_shared_config_get_value (shared, profile, "aws_secret_access_key") != NULL;
}

/* The profile's own keys, for a profile that is its own source_profile or a source profile with
 * keys and a role (botocore's profile providers take the keys then). */
static DynCredentialsProvider *
profile_keys (DynSharedConfig  *shared,
              const char       *profile,
              GError          **error)
{
  const char *access_key_id = setting (shared, profile, "aws_access_key_id");
  const char *secret = setting (shared, profile, "aws_secret_access_key");
  const char *token = setting (shared, profile, "aws_session_token");
  g_autoptr(DynCredentials) creds = NULL;
  g_autofree char *description = NULL;

  if (access_key_id == NULL || secret == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: the first %s is an AWS profile, the others are aws_access_key_id and
                    * aws_secret_access_key (one of each) */
                   _("Profile '%s' has %s but no %s"), profile,
                   access_key_id != NULL ? "aws_access_key_id" : "aws_secret_access_key",
                   access_key_id != NULL ? "aws_secret_access_key" : "aws_access_key_id");
      return NULL;
    }
  if (token == NULL)
    token = setting (shared, profile, "aws_security_token");

  creds = dyn_credentials_new (access_key_id, secret, token, NULL);
  /* Translators: where credentials come from; %s is an AWS profile */
  description = g_strdup_printf (_("the keys of profile '%s'"), profile);
  return dyn_credentials_provider_new_for_credentials (creds, DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE, description);
}

/* credential_source = Environment: the environment's keys, now. */
static DynCredentialsProvider *
environment_keys (const char  *profile,
                  GError     **error)
{
  const char *access_key_id = env ("AWS_ACCESS_KEY_ID");
  const char *secret = env ("AWS_SECRET_ACCESS_KEY");
  const char *token = env ("AWS_SESSION_TOKEN");
  g_autoptr(DynCredentials) creds = NULL;

  if (access_key_id == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_source, Environment and AWS_ACCESS_KEY_ID are names; keep them.
                    * %s is an AWS profile */
                   _("Profile '%s' takes the credentials for its role from the environment (credential_source = "
                     "Environment), but AWS_ACCESS_KEY_ID is not set"),
                   profile);
      return NULL;
    }
  if (secret == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                           /* Translators: the names of two environment variables; keep them */
                           _("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
      return NULL;
    }
  if (token == NULL)
    token = env ("AWS_SECURITY_TOKEN");

  creds = dyn_credentials_new (access_key_id, secret, token, NULL);
  return dyn_credentials_provider_new_for_credentials (creds, DYN_CREDENTIALS_SOURCE_ENVIRONMENT,
                                                       /* Translators: where the credentials came from */
                                                       _("environment variables"));
}

static DynCredentialsProvider *
credential_source (const char  *profile,
                   const char  *name,
                   GError     **error)
{
  DynCredentialsProvider *provider;

  /* botocore compares the names as they are written. */
  if (g_str_equal (name, "Environment"))
    return environment_keys (profile, error);
  if (g_str_equal (name, "Ec2InstanceMetadata"))
    return dyn_instance_metadata_provider_new ();
  if (g_str_equal (name, "EcsContainer"))
    {
      if ((provider = dyn_container_provider_new (error)) == NULL)
        /* Translators: credential_source and EcsContainer are names; keep them. %s is an AWS profile;
         * what is wrong follows */
        g_prefix_error (error, _("Profile '%s' takes the credentials for its role from the container "
                                 "(credential_source = EcsContainer): "),
                        profile);
      return provider;
    }

  g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
               /* Translators: credential_source, Environment, EcsContainer and Ec2InstanceMetadata are
                * names; keep them. The first %s is an AWS profile, the second the value it has */
               _("credential_source of profile '%s' is '%s'; it must be Environment, EcsContainer or "
                 "Ec2InstanceMetadata"),
               profile, name);
  return NULL;
}

static gboolean
parse_duration (DynSharedConfig  *shared,
                const char       *profile,
                guint            *seconds,
                GError          **error)
{
  const char *text = setting (shared, profile, "duration_seconds");
  g_autofree char *copy = NULL;
  guint64 value;

  *seconds = 0;
  if (text == NULL)
    return TRUE;

  copy = g_strstrip (g_strdup (text));
  if (!g_ascii_string_to_unsigned (copy, 10, 1, G_MAXUINT32, &value, NULL))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: duration_seconds is a setting; keep it. The first %s is an AWS profile,
                    * the second the value it has */
                   _("duration_seconds of profile '%s' is '%s', not a number of seconds"), profile, text);
      return FALSE;
    }
  *seconds = (guint) value;
  return TRUE;
}

static DynCredentialsProvider *
assume_role_from_profile (DynSignInResolve  *resolve,
                          DynSharedConfig   *shared,
                          const char        *profile,
                          const char        *session_profile,
                          GError           **error)
{
  const char *role_arn = setting (shared, profile, "role_arn");
  const char *source_profile = setting (shared, profile, "source_profile");
  const char *source_name = setting (shared, profile, "credential_source");
  g_autoptr(DynCredentialsProvider) source = NULL;
  g_auto(StsClient) client = { NULL, NULL };
  g_autofree char *via = NULL;
  DynAssumeRoleConfig config = { 0 };

  if (source_profile != NULL && source_name != NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: source_profile and credential_source are settings; keep them. %s is an
                    * AWS profile */
                   _("Profile '%s' has both source_profile and credential_source; it may have only one of them"),
                   profile);
      return NULL;
    }
  if (source_profile == NULL && source_name == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: role_arn, source_profile and credential_source are settings; keep them.
                    * %s is an AWS profile */
                   _("Profile '%s' has role_arn but neither source_profile nor credential_source, so nothing "
                     "says which credentials assume the role"),
                   profile);
      return NULL;
    }

  if (!parse_duration (shared, profile, &config.duration_seconds, error))
    return NULL;
  if (!sts_client_init (&client, shared, session_profile, error))
    return NULL;

  if (source_name != NULL)
    {
      if ((source = credential_source (profile, source_name, error)) == NULL)
        return NULL;
      /* Translators: where the credentials to assume a role come from; credential_source is a
       * setting. %s is its value (Environment, EcsContainer, Ec2InstanceMetadata) */
      via = g_strdup_printf (_("credential_source %s"), source_name);
    }
  else if (g_str_equal (source_profile, profile) && has_static_keys (shared, profile))
    {
      /* A profile may be its own source when it has keys. */
      if ((source = profile_keys (shared, profile, error)) == NULL)
        return NULL;
      /* Translators: where the credentials to assume a role come from; %s is an AWS profile */
      via = g_strdup_printf (_("the keys of profile '%s'"), profile);
    }
  else
    {
      if ((source = _dyn_sign_in_resolve_source_profile (resolve, shared, source_profile, error)) == NULL)
        return NULL;
      /* Translators: where the credentials to assume a role come from; %s is an AWS profile */
      via = g_strdup_printf (_("profile '%s'"), source_profile);
    }

  config.profile = profile;
  config.role_arn = role_arn;
  config.role_session_name = setting (shared, profile, "role_session_name");
  config.external_id = setting (shared, profile, "external_id");
  config.mfa_serial = setting (shared, profile, "mfa_serial");
  config.region = client.region;
  config.sts_endpoint = client.endpoint;

  return assume_role_provider_new (&config, source, resolve->prompter, via);
}

/* AWS_* (unless @use_env is FALSE), else the profile's setting. */
static const char *
env_or_setting (gboolean         use_env,
                const char      *env_name,
                DynSharedConfig *shared,
                const char      *profile,
                const char      *key)
{
  const char *value;

  if (use_env && (value = env (env_name)) != NULL)
    return value;
  return setting (shared, profile, key);
}

static DynCredentialsProvider *
web_identity_from_profile (DynSharedConfig  *shared,
                           const char       *profile,
                           const char       *session_profile,
                           gboolean          use_env,
                           gboolean         *handled,
                           GError          **error)
{
  const char *token_file = env_or_setting (use_env, "AWS_WEB_IDENTITY_TOKEN_FILE", shared, profile,
                                           "web_identity_token_file");
  const char *role_arn;
  g_auto(StsClient) client = { NULL, NULL };
  DynAssumeRoleConfig config = { 0 };

  if (token_file == NULL)
    return NULL;

  *handled = TRUE;
  role_arn = env_or_setting (use_env, "AWS_ROLE_ARN", shared, profile, "role_arn");
  if (role_arn == NULL)
    {
      if (use_env)
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: the names are settings and environment variables; keep them. %s is an
                      * AWS profile */
                     _("A web identity token file is set (web_identity_token_file or AWS_WEB_IDENTITY_TOKEN_FILE) "
                       "but no role to assume with it: neither AWS_ROLE_ARN nor the role_arn of profile '%s'"),
                     profile);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                     /* Translators: web_identity_token_file and role_arn are settings; keep them. %s is an
                      * AWS profile */
                     _("Profile '%s' has web_identity_token_file but no role_arn"), profile);
      return NULL;
    }

  if (!sts_client_init (&client, shared, session_profile, error))
    return NULL;

  config.profile = profile;
  config.role_arn = role_arn;
  config.role_session_name = env_or_setting (use_env, "AWS_ROLE_SESSION_NAME", shared, profile,
                                             "role_session_name");
  config.region = client.region;
  config.sts_endpoint = client.endpoint;
  /* botocore sends no DurationSeconds for web identity. */
  return dyn_web_identity_provider_new (&config, token_file);
}

DynCredentialsProvider *
_dyn_sign_in_role_from_profile (DynSignInResolve  *resolve,
                                DynSharedConfig   *shared,
                                const char        *profile,
                                gboolean           explicit_profile,
                                gboolean          *handled,
                                GError           **error)
{
  const char *session_profile = resolve->chain->len > 0 ? g_ptr_array_index (resolve->chain, 0) : profile;
  gboolean is_source = resolve->chain->len > 1;
  gboolean web_identity = setting (shared, profile, "web_identity_token_file") != NULL;
  DynCredentialsProvider *provider;

  *handled = FALSE;

  if (setting (shared, profile, "role_arn") != NULL && !web_identity)
    {
      *handled = TRUE;
      if (!is_source || !has_static_keys (shared, profile))
        return assume_role_from_profile (resolve, shared, profile, session_profile, error);

      /* A source profile with keys gives its keys (IAM Identity Center first, as botocore's profile
       * providers do). */
      provider = _dyn_sign_in_sso_from_profile (resolve, shared, profile, handled, error);
      if (*handled)
        return provider;
      *handled = TRUE;
      return profile_keys (shared, profile, error);
    }

  /* The environment's web identity counts for the profile being resolved, unless it was chosen
   * explicitly; never for a source profile. */
  return web_identity_from_profile (shared, profile, session_profile, !explicit_profile && !is_source,
                                    handled, error);
}

DynCredentialsProvider *
_dyn_sign_in_container_from_env (gboolean  *handled,
                                 GError   **error)
{
  *handled = FALSE;
  if (env ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") == NULL && env ("AWS_CONTAINER_CREDENTIALS_FULL_URI") == NULL)
    return NULL;

  *handled = TRUE;
  return dyn_container_provider_new (error);
}
