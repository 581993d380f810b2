/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-credentials.h"

G_BEGIN_DECLS

/**
 * DynSharedConfig:
 *
 * The AWS shared config file (AWS_CONFIG_FILE, default ~/.aws/config) and
 * shared credentials file (AWS_SHARED_CREDENTIALS_FILE, default
 * ~/.aws/credentials), parsed as the AWS CLI and SDKs read them: `[default]`
 * and `[profile NAME]` sections in the config file, `[NAME]` in the
 * credentials file, `[services NAME]` sections with indented sub-sections
 * (`dynamodb =` followed by indented `endpoint_url = …`), `#` and `;` comments
 * (whole lines, or after whitespace). A file that does not exist is read as
 * empty. Keys are case-insensitive. Reference counted and immutable.
 */
typedef struct _DynSharedConfig DynSharedConfig;

/**
 * DynProfileInfo:
 * @name: the profile name
 * @region: (nullable): its region setting
 * @endpoint_url: (nullable): its DynamoDB endpoint (services section, then endpoint_url),
 *   %NULL when none is set or ignore_configured_endpoint_urls is true
 * @in_config_file: the config file has a section for it
 * @in_credentials_file: the credentials file has a section for it
 * @has_static_keys: aws_access_key_id is set in either file
 * @has_credential_process: credential_process is set
 *
 * One entry of dyn_shared_config_list_profiles(): what the files say about a
 * profile, without looking at the environment. Never holds a secret.
 */
typedef struct {
  char     *name;
  char     *region;
  char     *endpoint_url;
  gboolean  in_config_file;
  gboolean  in_credentials_file;
  gboolean  has_static_keys;
  gboolean  has_credential_process;
} DynProfileInfo;

#define DYN_TYPE_SHARED_CONFIG (dyn_shared_config_get_type ())

GType            dyn_shared_config_get_type             (void) G_GNUC_CONST;
/* Reads the files named by the environment, or the defaults under $HOME. */
DynSharedConfig *dyn_shared_config_load                 (GError          **error) G_GNUC_WARN_UNUSED_RESULT;
/* Reads the given files; a %NULL path means "no such file". */
DynSharedConfig *dyn_shared_config_load_from_files      (const char       *config_path,
                                                         const char       *credentials_path,
                                                         GError          **error) G_GNUC_WARN_UNUSED_RESULT;
DynSharedConfig *dyn_shared_config_ref                  (DynSharedConfig  *self);
void             dyn_shared_config_unref                (DynSharedConfig  *self);

/* The paths as read, or %NULL. */
const char      *dyn_shared_config_get_config_path      (DynSharedConfig  *self);
const char      *dyn_shared_config_get_credentials_path (DynSharedConfig  *self);
gboolean         dyn_shared_config_has_profile          (DynSharedConfig  *self,
                                                         const char       *profile);
/* A setting of @profile; the credentials file wins over the config file, as in the AWS CLI.
 * Returns %NULL when unset; sub-section values (`key =` + indented lines) are not returned. */
const char      *dyn_shared_config_get_value            (DynSharedConfig  *self,
                                                         const char       *profile,
                                                         const char       *key);
/* Every profile of both files, "default" first, then in file order (config file first).
 * Returns: (transfer full) (element-type DynProfileInfo) */
GPtrArray       *dyn_shared_config_list_profiles        (DynSharedConfig  *self) G_GNUC_WARN_UNUSED_RESULT;

/* A setting of the config file's `[sso-session NAME]` section, or %NULL. */
const char      *dyn_shared_config_get_sso_session_value (DynSharedConfig *self,
                                                         const char       *session,
                                                         const char       *key);
gboolean         dyn_shared_config_has_sso_session      (DynSharedConfig  *self,
                                                         const char       *session);
/* The names of the config file's `[sso-session NAME]` sections, sorted. */
GStrv            dyn_shared_config_list_sso_sessions    (DynSharedConfig  *self) G_GNUC_WARN_UNUSED_RESULT;
/**
 * dyn_shared_config_dup_service_endpoint:
 * @service: the services-section key: "dynamodb", "sts", "sso", "sso_oidc"
 * @source: (out) (optional): where it came from, for messages
 *
 * The endpoint the SDKs would use for @service with @profile:
 * AWS_ENDPOINT_URL_<SERVICE> (upper case), AWS_ENDPOINT_URL, the profile's
 * services section, the profile's endpoint_url; none of them when
 * AWS_IGNORE_CONFIGURED_ENDPOINT_URLS / ignore_configured_endpoint_urls is
 * true. %NULL for the service's AWS endpoint.
 */
char            *dyn_shared_config_dup_service_endpoint (DynSharedConfig  *self,
                                                         const char       *profile,
                                                         const char       *service,
                                                         char            **source) G_GNUC_WARN_UNUSED_RESULT;

void             dyn_profile_info_free                  (DynProfileInfo   *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSharedConfig, dyn_shared_config_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynProfileInfo, dyn_profile_info_free)

/**
 * DynResolveOptions:
 * @profile: the profile the user chose (--profile, a saved connection), or %NULL
 *   for AWS_PROFILE, else "default". An explicit profile makes
 *   AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY be ignored, as in the AWS SDKs;
 *   with AWS_PROFILE they still win.
 * @region: a region that overrides every other source (--region), or %NULL
 * @endpoint_url: an endpoint that overrides every other source (--endpoint-url), or %NULL
 * @access_key_id: static keys that override every other source, or %NULL
 * @secret_access_key: the secret key that goes with @access_key_id
 * @session_token: an optional session token for @access_key_id
 * @provider: a provider that overrides everything (keys from the keyring), or %NULL
 *
 * What the caller knows before resolving a profile. All fields may be %NULL.
 */
typedef enum {
  DYN_PROFILE_CREDENTIALS_BEFORE_KEYS,  /* after the environment's keys, before the profile's own keys */
  DYN_PROFILE_CREDENTIALS_LAST,         /* after every source of the profile found nothing */
} DynProfileCredentialsPhase;

/**
 * DynProfileCredentialsFunc:
 * @shared: the shared files
 * @profile: the profile being resolved
 * @explicit_profile: whether the profile was chosen explicitly
 * @phase: where in the chain the hook is asked
 * @handled: (out): set to %TRUE when the hook decides the credentials
 *   (returning a provider, or %NULL with @error set)
 * @user_data: #DynResolveOptions.profile_credentials_data
 *
 * How client/signin/ plugs the providers the files describe but client/aws/
 * cannot build (assume role, web identity, IAM Identity Center, the container
 * and instance providers) into dyn_profile_resolve(), in the SDKs' order.
 */
typedef DynCredentialsProvider *(*DynProfileCredentialsFunc) (DynSharedConfig             *shared,
                                                              const char                  *profile,
                                                              gboolean                     explicit_profile,
                                                              DynProfileCredentialsPhase   phase,
                                                              gboolean                    *handled,
                                                              gpointer                     user_data,
                                                              GError                     **error);

typedef struct {
  const char             *profile;
  const char             *region;
  const char             *endpoint_url;
  const char             *access_key_id;
  const char             *secret_access_key;
  const char             *session_token;
  DynCredentialsProvider *provider;
  /* The sign-in hook (see DynProfileCredentialsFunc); %NULL reports such profiles as unsupported. */
  DynProfileCredentialsFunc profile_credentials;
  gpointer                  profile_credentials_data;
} DynResolveOptions;

/**
 * DynProfile:
 *
 * A resolved configuration: profile name, region, endpoint and the credentials
 * provider, worked out like the AWS SDKs do.
 *
 * Region: @options->region, AWS_REGION, AWS_DEFAULT_REGION, the profile's
 * `region`. Without any but with an endpoint (DynamoDB Local and friends),
 * "us-east-1".
 *
 * Endpoint: @options->endpoint_url, AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL,
 * the profile's `services` section (`dynamodb = / endpoint_url =`), the
 * profile's `endpoint_url`; all but the first are skipped when
 * AWS_IGNORE_CONFIGURED_ENDPOINT_URLS (or the profile's
 * ignore_configured_endpoint_urls) is true.
 *
 * Credentials: @options->provider, the static keys of @options, the
 * environment (unless @options->profile is set), the profile's keys in the
 * credentials file, then in the config file, then its credential_process.
 * Profiles that assume a role or use SSO go to @options->profile_credentials
 * (client/signin/ sets it); without it they are reported as unsupported.
 */
typedef struct _DynProfile DynProfile;

#define DYN_TYPE_PROFILE (dyn_profile_get_type ())

GType                   dyn_profile_get_type                 (void) G_GNUC_CONST;
/* @shared may be %NULL to load the files named by the environment.
 * Errors: %DYN_ERROR_CONFIG (bad file, unknown profile, no region),
 * %DYN_ERROR_CREDENTIALS (no or incomplete credentials). */
DynProfile             *dyn_profile_resolve                  (DynSharedConfig          *shared,
                                                              const DynResolveOptions  *options,
                                                              GError                  **error) G_GNUC_WARN_UNUSED_RESULT;
DynProfile             *dyn_profile_ref                      (DynProfile               *self);
void                    dyn_profile_unref                    (DynProfile               *self);

const char             *dyn_profile_get_name                 (DynProfile               *self);
const char             *dyn_profile_get_region               (DynProfile               *self);
/* Where the region came from: "AWS_REGION", "profile 'dev' in ~/.aws/config", … */
const char             *dyn_profile_get_region_source        (DynProfile               *self);
/* The configured endpoint, or %NULL for the AWS endpoint of the region. */
const char             *dyn_profile_get_endpoint_url         (DynProfile               *self);
const char             *dyn_profile_get_endpoint_source      (DynProfile               *self);
/* The configured endpoint, else https://dynamodb.REGION.amazonaws.com (.com.cn in China). */
char                   *dyn_profile_dup_effective_endpoint_url (DynProfile             *self) G_GNUC_WARN_UNUSED_RESULT;
DynCredentialsProvider *dyn_profile_get_credentials_provider (DynProfile               *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynProfile, dyn_profile_unref)

G_END_DECLS
