/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-signin.h"

G_BEGIN_DECLS

/*
 * Between the files of client/signin/ only.
 *
 * dyn-signin.c      the prompter interface, the default prompter, dyn_sign_in_resolve() and the
 *                   hook it gives dyn_profile_resolve(): it calls the builders below in botocore's
 *                   order and keeps the chain of profiles being resolved (cycles, messages).
 * dyn-sts.c         the STS Query API (AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity):
 *                   form-encoded POST, SigV4 for service "sts", XML answers and errors; the STS endpoint.
 * dyn-sign-in-role.c  role_arn / source_profile / credential_source / web identity profiles and
 *                   their providers; container and instance metadata providers.
 * dyn-sso.c         OIDC (RegisterClient, StartDeviceAuthorization, CreateToken) and the portal
 *                   (GetRoleCredentials, ListAccounts, ListAccountRoles); login; the SSO provider.
 * dyn-sso-cache.c   the token cache files and DynSsoConfig from a profile.
 * dyn-connect.c     dyn_connect() for the window and the command line.
 * dyn-whoami.c      GetCallerIdentity for the CLI and the window.
 */

/* The state of one dyn_sign_in_resolve(): who to ask and which profiles are being resolved
 * (innermost last), so that a chain of source_profile settings that comes back to one of
 * its profiles is refused with the chain named. */
typedef struct {
  DynSignInPrompter *prompter;   /* (nullable) */
  GPtrArray         *chain;      /* (element-type utf8) profile names */
  const char        *region;     /* (nullable) the given region: the STS client's first choice */
} DynSignInResolve;

/* The credentials provider of @profile as the role of another profile sees it (source_profile):
 * dyn_profile_resolve() of @profile, explicit, with the same hook, @profile pushed on the
 * chain. A cycle is an error naming the whole chain ("a → b → a"). (dyn-signin.c) */
DynCredentialsProvider *_dyn_sign_in_resolve_source_profile (DynSignInResolve  *resolve,
                                                            DynSharedConfig   *shared,
                                                            const char        *profile,
                                                            GError           **error) G_GNUC_WARN_UNUSED_RESULT;

/* role_arn (with source_profile or credential_source) or web_identity_token_file of @profile,
 * and the environment's AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE. *@handled stays FALSE when
 * the profile has none of these. (dyn-sign-in-role.c) */
DynCredentialsProvider *_dyn_sign_in_role_from_profile (DynSignInResolve  *resolve,
                                                       DynSharedConfig   *shared,
                                                       const char        *profile,
                                                       gboolean           explicit_profile,
                                                       gboolean          *handled,
                                                       GError           **error) G_GNUC_WARN_UNUSED_RESULT;
/* The container provider when AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or _FULL_URI is set
 * (the end of the default chain). (dyn-sign-in-role.c) */
DynCredentialsProvider *_dyn_sign_in_container_from_env (gboolean  *handled,
                                                        GError   **error) G_GNUC_WARN_UNUSED_RESULT;
/* sso_session / sso_start_url of @profile. (dyn-sso.c) */
DynCredentialsProvider *_dyn_sign_in_sso_from_profile  (DynSignInResolve  *resolve,
                                                       DynSharedConfig   *shared,
                                                       const char        *profile,
                                                       gboolean          *handled,
                                                       GError           **error) G_GNUC_WARN_UNUSED_RESULT;

/* Whether plain http may go to @url (loopback only, as for DynamoDB); an error naming @what
 * ("the STS endpoint") otherwise. (dyn-signin.c) */
gboolean _dyn_sign_in_check_endpoint (const char  *url,
                                      const char  *what,
                                      GError     **error);

/* Waits @ms milliseconds on the thread-default main context (between the attempts of STS, the
 * container and instance metadata endpoints); cancelling @cancellable ends the wait at once
 * with %G_IO_ERROR_CANCELLED. (dyn-signin.c) */
void     _dyn_sign_in_sleep_async  (guint                ms,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
gboolean _dyn_sign_in_sleep_finish (GAsyncResult        *result,
                                    GError             **error);

/* STS (dyn-sts.c). @params are name/value pairs, NULL-terminated, besides Action and Version.
 * @credentials NULL sends the request unsigned (AssumeRoleWithWebIdentity). The result is the
 * <…Result> element's children as a flat table of element name → text, with the
 * <Credentials> members as "AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration";
 * an STS <Error> becomes a DYN_ERROR (Code and Message, never a secret). */
void        _dyn_sts_call_async  (const char          *endpoint,
                                  const char          *region,
                                  DynCredentials      *credentials,
                                  const char          *action,
                                  const char * const  *params,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data);
GHashTable *_dyn_sts_call_finish (GAsyncResult        *result,
                                  GError             **error) G_GNUC_WARN_UNUSED_RESULT;
/* The XML answer of an STS action, as above (for tests and fuzz-sign-in). */
GHashTable *_dyn_sts_parse_response (const char  *action,
                                     guint        status,
                                     const char  *body,
                                     gsize        length,
                                     GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* IAM Identity Center JSON answers (dyn-sso.c; for tests and fuzz-sign-in). */
JsonNode   *_dyn_sso_parse_response (const char  *operation,
                                     guint        status,
                                     const char  *body,
                                     gsize        length,
                                     GError     **error) G_GNUC_WARN_UNUSED_RESULT;
/* A token file's text (dyn-sso-cache.c; for fuzz-sign-in). */
DynSsoToken *_dyn_sso_token_parse   (const char  *text,
                                     gsize        length,
                                     const char  *display,
                                     GError     **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
