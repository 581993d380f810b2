/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-config.h"
#include "dyn-credentials.h"

G_BEGIN_DECLS

/*
 * client/signin/: signing in as the AWS CLI v2 and the SDKs do — IAM Identity
 * Center (the OIDC device flow, the token cache shared with `aws sso login`,
 * the portal's role credentials), STS AssumeRole (source_profile,
 * credential_source, MFA, chains), AssumeRoleWithWebIdentity, the container
 * and instance metadata providers, and who the credentials belong to
 * (GetCallerIdentity). Every provider made here is a #DynCredentialsProvider
 * that caches and refreshes before expiry (DYN_CREDENTIALS_REFRESH_MARGIN).
 * Errors are %DYN_ERROR_CREDENTIALS (cannot resolve: names the profile and
 * what is missing) or %DYN_ERROR_EXPIRED_CREDENTIALS (the user must sign in
 * again); no message ever holds a secret, a session token or an SSO token.
 */

/* ------------------------------------------------------------------------ */
/* The user, when a sign-in needs one                                         */

/**
 * DynDeviceCode:
 * @verification_uri: where the user goes ("https://device.sso.us-east-1.amazonaws.com/")
 * @verification_uri_complete: (nullable): the same with the code filled in; open this one
 * @user_code: the code the user checks or types ("ABCD-EFGH")
 * @start_url: the portal being signed in to
 * @session_name: (nullable): the sso-session, %NULL for a legacy profile
 * @expires: when the code stops working
 *
 * What StartDeviceAuthorization returned, for a prompter to show.
 */
typedef struct {
  char      *verification_uri;
  char      *verification_uri_complete;
  char      *user_code;
  char      *start_url;
  char      *session_name;
  GDateTime *expires;
} DynDeviceCode;

void dyn_device_code_free (DynDeviceCode *code);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynDeviceCode, dyn_device_code_free)

#define DYN_TYPE_SIGN_IN_PROMPTER (dyn_sign_in_prompter_get_type ())
G_DECLARE_INTERFACE (DynSignInPrompter, dyn_sign_in_prompter, DYN, SIGN_IN_PROMPTER, GObject)

/**
 * DynSignInPrompterInterface:
 * @can_interact: whether the user may be asked right now. The window says
 *   %TRUE only while it connects or while the user answers its "Sign in
 *   again" prompt, so a request never pops up a dialog on its own; the
 *   command line says %TRUE. When %FALSE, a provider that needs the user fails
 *   with %DYN_ERROR_EXPIRED_CREDENTIALS instead.
 * @ask_mfa_code: ask for the current code of @mfa_serial (a dialog, the
 *   terminal, or --mfa-code); finish returns the code, or %NULL with
 *   %G_IO_ERROR_CANCELLED when the user cancelled
 * @show_device_code: show @code (and open the browser where there is one)
 *   while the provider polls for the token; cancelling @flow (the dialog's
 *   Cancel button) stops the flow. Returning %FALSE with @error set refuses
 *   the flow (the command line outside `login`).
 * @hide_device_code: the flow ended: @error is %NULL on success
 */
struct _DynSignInPrompterInterface {
  GTypeInterface g_iface;

  gboolean (*can_interact)        (DynSignInPrompter    *self);
  void     (*ask_mfa_code)        (DynSignInPrompter    *self,
                                   const char           *profile,
                                   const char           *mfa_serial,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
  char    *(*ask_mfa_code_finish) (DynSignInPrompter    *self,
                                   GAsyncResult         *result,
                                   GError              **error);
  gboolean (*show_device_code)    (DynSignInPrompter    *self,
                                   const DynDeviceCode  *code,
                                   GCancellable         *flow,
                                   GError              **error);
  void     (*hide_device_code)    (DynSignInPrompter    *self,
                                   const GError         *error);
};

gboolean dyn_sign_in_prompter_can_interact        (DynSignInPrompter    *self);
void     dyn_sign_in_prompter_ask_mfa_code        (DynSignInPrompter    *self,
                                                   const char           *profile,
                                                   const char           *mfa_serial,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
char    *dyn_sign_in_prompter_ask_mfa_code_finish (DynSignInPrompter    *self,
                                                   GAsyncResult         *result,
                                                   GError              **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean dyn_sign_in_prompter_show_device_code    (DynSignInPrompter    *self,
                                                   const DynDeviceCode  *code,
                                                   GCancellable         *flow,
                                                   GError              **error);
void     dyn_sign_in_prompter_hide_device_code    (DynSignInPrompter    *self,
                                                   const GError         *error);

/* The prompter providers use when none is given: the window's, or the command line's.
 * %NULL (the default) means nobody can be asked. */
void               dyn_sign_in_set_default_prompter (DynSignInPrompter *prompter);
DynSignInPrompter *dyn_sign_in_get_default_prompter (void);

/* ------------------------------------------------------------------------ */
/* Resolving a profile                                                        */

/**
 * dyn_sign_in_resolve:
 * @shared: (nullable): the shared files, %NULL to load them
 * @options: (nullable): as for dyn_profile_resolve(); its profile_credentials
 *   fields are ignored
 * @prompter: (nullable): who to ask, %NULL for the default prompter
 *
 * dyn_profile_resolve() with every kind of profile the AWS CLI v2 knows, in
 * botocore's order: the environment's keys, role_arn (source_profile or
 * credential_source; chains; a cycle is refused with the chain named),
 * web_identity_token_file (or AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE),
 * sso_session / sso_start_url, the profile's keys, credential_process, then
 * the container provider (AWS_CONTAINER_CREDENTIALS_*). Nothing is fetched
 * yet.
 */
DynProfile *dyn_sign_in_resolve (DynSharedConfig          *shared,
                                 const DynResolveOptions  *options,
                                 DynSignInPrompter        *prompter,
                                 GError                  **error) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* STS and its endpoint                                                       */

/**
 * dyn_sign_in_sts_endpoint:
 * @profile: (nullable): the profile whose settings count
 * @region: (nullable): the region the STS client uses
 * @source: (out) (optional): where the endpoint came from
 *
 * The STS endpoint the SDKs would use: AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL,
 * the profile's services section `sts`, its endpoint_url; otherwise the
 * regional endpoint https://sts.REGION.amazonaws.com (.com.cn in China), or
 * the global https://sts.amazonaws.com when there is no region or
 * sts_regional_endpoints (AWS_STS_REGIONAL_ENDPOINTS) is "legacy" and the
 * region is one of the legacy global ones.
 */
char *dyn_sign_in_sts_endpoint (DynSharedConfig *shared,
                                const char      *profile,
                                const char      *region,
                                char           **source) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynCallerIdentity:
 * @account: the 12-digit account
 * @arn: the user or assumed-role ARN
 * @user_id: the unique id
 * @expiration: (nullable): when the credentials that asked expire
 */
typedef struct {
  char      *account;
  char      *arn;
  char      *user_id;
  GDateTime *expiration;
} DynCallerIdentity;

void dyn_caller_identity_free (DynCallerIdentity *identity);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynCallerIdentity, dyn_caller_identity_free)

/* GetCallerIdentity with the credentials of @provider, signed for @region, sent to
 * @sts_endpoint (%NULL: dyn_sign_in_sts_endpoint (NULL, NULL, region, NULL)). */
void               dyn_sign_in_whoami_async  (DynCredentialsProvider  *provider,
                                              const char              *region,
                                              const char              *sts_endpoint,
                                              GCancellable            *cancellable,
                                              GAsyncReadyCallback      callback,
                                              gpointer                 user_data);
DynCallerIdentity *dyn_sign_in_whoami_finish (GAsyncResult            *result,
                                              GError                 **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynAssumeRoleConfig:
 * @profile: (nullable): the profile it came from, for messages
 * @role_arn: the role
 * @role_session_name: (nullable): the session name; %NULL for botocore's
 *   "botocore-session-<unix time>" style default ("dynoscope-session-<unix time>")
 * @external_id: (nullable): ExternalId
 * @mfa_serial: (nullable): SerialNumber; the code comes from the prompter
 * @duration_seconds: DurationSeconds, 0 to leave it out (the role's default, 1 hour)
 * @region: the signing region of the STS client
 * @sts_endpoint: the STS endpoint (see dyn_sign_in_sts_endpoint())
 */
typedef struct {
  const char *profile;
  const char *role_arn;
  const char *role_session_name;
  const char *external_id;
  const char *mfa_serial;
  guint       duration_seconds;
  const char *region;
  const char *sts_endpoint;
} DynAssumeRoleConfig;

/* Credentials of @config's role, assumed with those of @source; refreshed before they expire
 * (asking the prompter again for an MFA code when @config has a serial). */
DynCredentialsProvider *dyn_assume_role_provider_new   (const DynAssumeRoleConfig *config,
                                                        DynCredentialsProvider    *source,
                                                        DynSignInPrompter         *prompter) G_GNUC_WARN_UNUSED_RESULT;
/* AssumeRoleWithWebIdentity (unsigned) with the token read from @token_file on every refresh.
 * @config's mfa_serial and external_id are ignored. */
DynCredentialsProvider *dyn_web_identity_provider_new  (const DynAssumeRoleConfig *config,
                                                        const char                *token_file) G_GNUC_WARN_UNUSED_RESULT;
/* The container provider (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI / _FULL_URI,
 * AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE]); %NULL with an error when the
 * environment names none or a full URI that is neither loopback nor the ECS/EKS hosts. */
DynCredentialsProvider *dyn_container_provider_new     (GError                   **error) G_GNUC_WARN_UNUSED_RESULT;
/* IMDSv2 (a PUT for the token, then the role's credentials); AWS_EC2_METADATA_SERVICE_ENDPOINT
 * redirects it. */
DynCredentialsProvider *dyn_instance_metadata_provider_new (void) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* IAM Identity Center                                                         */

/**
 * DynSsoConfig:
 * @profile: (nullable): the profile, for messages
 * @session_name: (nullable): the [sso-session NAME]; %NULL for a legacy profile
 * @start_url: sso_start_url
 * @sso_region: sso_region (the OIDC and portal region)
 * @registration_scopes: (nullable): sso_registration_scopes, comma-separated
 * @account_id: (nullable): sso_account_id (needed for credentials, not for login)
 * @role_name: (nullable): sso_role_name (likewise)
 * @oidc_endpoint: (nullable): override of https://oidc.REGION.amazonaws.com
 * @portal_endpoint: (nullable): override of https://portal.sso.REGION.amazonaws.com
 */
typedef struct {
  char *profile;
  char *session_name;
  char *start_url;
  char *sso_region;
  char *registration_scopes;
  char *account_id;
  char *role_name;
  char *oidc_endpoint;
  char *portal_endpoint;
} DynSsoConfig;

void          dyn_sso_config_free         (DynSsoConfig    *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSsoConfig, dyn_sso_config_free)
/* What @profile says (sso_session → its section, or the legacy keys), endpoints included
 * (AWS_ENDPOINT_URL_SSO / _SSO_OIDC, services `sso` / `sso_oidc`). %NULL without error when
 * the profile is no SSO profile; an error naming the profile and the missing setting when it
 * is one but incomplete (or the two spellings disagree, as botocore refuses). */
DynSsoConfig *dyn_sso_config_from_profile (DynSharedConfig *shared,
                                           const char      *profile,
                                           GError         **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynSsoToken:
 *
 * One file of ~/.aws/sso/cache as the AWS CLI v2 reads and writes it: the
 * name is the SHA-1 (hex) of the session name, or of the start URL for a
 * legacy profile; fields startUrl, region, accessToken, expiresAt (UTC,
 * "2026-12-02T10:00:00Z"), clientId, clientSecret, registrationExpiresAt,
 * refreshToken. Written atomically with mode 0600 in a 0700 folder. Never
 * printed.
 */
typedef struct {
  char      *start_url;
  char      *region;
  char      *access_token;
  GDateTime *expires_at;
  char      *client_id;
  char      *client_secret;
  GDateTime *registration_expires_at;
  char      *refresh_token;
} DynSsoToken;

void         dyn_sso_token_free       (DynSsoToken  *token);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSsoToken, dyn_sso_token_free)
/* ~/.aws/sso/cache/<sha1>.json for the session name, or for the start URL when @session_name is %NULL. */
char        *dyn_sso_token_cache_path (const char   *session_name,
                                       const char   *start_url) G_GNUC_WARN_UNUSED_RESULT;
/* %NULL with G_IO_ERROR_NOT_FOUND when there is no such file, %DYN_ERROR_CONFIG when it is not a token. */
DynSsoToken *dyn_sso_token_load       (const char   *path,
                                       GError      **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean     dyn_sso_token_save       (const DynSsoToken *token,
                                       const char   *path,
                                       GError      **error);

/* The device flow (RegisterClient unless a registration is cached and valid,
 * StartDeviceAuthorization, CreateToken polling with authorization_pending and
 * slow_down as the CLI does), shown by @prompter (%NULL: the default one),
 * then the token cache is written. */
void          dyn_sso_login_async         (const DynSsoConfig  *config,
                                           DynSignInPrompter   *prompter,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
gboolean      dyn_sso_login_finish        (GAsyncResult        *result,
                                           GError             **error);

/* Role credentials of @config's account and role (GetRoleCredentials with the cached token,
 * refreshed with the refresh token before it expires; the device flow through @prompter when
 * no valid token is left and the prompter can interact). */
DynCredentialsProvider *dyn_sso_provider_new (const DynSsoConfig *config,
                                              DynSignInPrompter  *prompter) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynSsoAccount:
 * @account_id: the account
 * @account_name: its name
 * @email_address: (nullable): its e-mail address
 */
typedef struct {
  char *account_id;
  char *account_name;
  char *email_address;
} DynSsoAccount;

void dyn_sso_account_free (DynSsoAccount *account);

/* ListAccounts (every page) with @config's cached token; %DYN_ERROR_EXPIRED_CREDENTIALS when
 * there is none (log in first). Returns: (element-type DynSsoAccount). */
void       dyn_sso_list_accounts_async       (const DynSsoConfig  *config,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GPtrArray *dyn_sso_list_accounts_finish      (GAsyncResult        *result,
                                              GError             **error) G_GNUC_WARN_UNUSED_RESULT;
/* ListAccountRoles of @account_id, every page; the role names. */
void       dyn_sso_list_account_roles_async  (const DynSsoConfig  *config,
                                              const char          *account_id,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
GStrv      dyn_sso_list_account_roles_finish (GAsyncResult        *result,
                                              GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
