/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * DynCredentials:
 * @access_key_id: the access key id ("AKIA…", "ASIA…")
 * @secret_access_key: the secret key; never log it
 * @session_token: the session token of temporary credentials, or %NULL; never log it
 * @expiration: when the credentials expire (UTC), or %NULL if they do not
 *
 * An immutable, reference-counted set of AWS credentials. The fields are
 * read-only; the secret and the token are wiped from memory when the last
 * reference goes.
 */
typedef struct _DynCredentials DynCredentials;

struct _DynCredentials {
  char      *access_key_id;
  char      *secret_access_key;
  char      *session_token;
  GDateTime *expiration;
};

/* Credentials with less than this left before expiration are refreshed. */
#define DYN_CREDENTIALS_REFRESH_MARGIN (5 * G_TIME_SPAN_MINUTE)

#define DYN_TYPE_CREDENTIALS (dyn_credentials_get_type ())

GType           dyn_credentials_get_type      (void) G_GNUC_CONST;
DynCredentials *dyn_credentials_new           (const char           *access_key_id,
                                               const char           *secret_access_key,
                                               const char           *session_token,
                                               GDateTime            *expiration) G_GNUC_WARN_UNUSED_RESULT;
DynCredentials *dyn_credentials_ref           (DynCredentials       *self);
void            dyn_credentials_unref         (DynCredentials       *self);
/* TRUE when @self expires within @margin of @now (a NULL @now means the current time). */
gboolean        dyn_credentials_expires_within (const DynCredentials *self,
                                                GDateTime            *now,
                                                GTimeSpan             margin);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynCredentials, dyn_credentials_unref)

/**
 * DynCredentialsSource:
 *
 * Where a #DynCredentialsProvider takes its credentials from.
 */
typedef enum {
  DYN_CREDENTIALS_SOURCE_STATIC,            /* keys given by the caller (command line, keyring) */
  DYN_CREDENTIALS_SOURCE_ENVIRONMENT,       /* AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN */
  DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE,  /* aws_access_key_id in ~/.aws/credentials */
  DYN_CREDENTIALS_SOURCE_CONFIG_FILE,       /* aws_access_key_id in ~/.aws/config */
  DYN_CREDENTIALS_SOURCE_PROCESS,           /* credential_process */
  DYN_CREDENTIALS_SOURCE_CUSTOM,            /* a fetch function, e.g. a keyring lookup */
} DynCredentialsSource;

/**
 * DynCredentialsFetchFunc:
 * @cancellable: (nullable): a #GCancellable
 * @callback: call this when done; its result goes to the matching #DynCredentialsFetchFinishFunc
 * @callback_data: data for @callback
 * @user_data: the data given to dyn_credentials_provider_new_custom()
 *
 * Starts fetching credentials from somewhere else (the keyring, for example).
 */
typedef void            (*DynCredentialsFetchFunc)       (GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             callback_data,
                                                          gpointer             user_data);
/* Returns the credentials (a new reference) or %NULL with @error set. */
typedef DynCredentials *(*DynCredentialsFetchFinishFunc) (GAsyncResult        *result,
                                                          GError             **error,
                                                          gpointer             user_data);

#define DYN_TYPE_CREDENTIALS_PROVIDER (dyn_credentials_provider_get_type ())

/**
 * DynCredentialsProvider:
 *
 * Hands out credentials from one source, caching them and refreshing them
 * shortly (%DYN_CREDENTIALS_REFRESH_MARGIN) before they expire. Concurrent
 * requests share one fetch. Errors are %DYN_ERROR_CREDENTIALS and never
 * contain a secret key or session token.
 */
G_DECLARE_FINAL_TYPE (DynCredentialsProvider, dyn_credentials_provider, DYN, CREDENTIALS_PROVIDER, GObject)

DynCredentialsProvider *dyn_credentials_provider_new_static      (const char                    *access_key_id,
                                                                  const char                    *secret_access_key,
                                                                  const char                    *session_token) G_GNUC_WARN_UNUSED_RESULT;
/* Fixed credentials with a source and a description ("~/.aws/credentials [dev]") for the UI. */
DynCredentialsProvider *dyn_credentials_provider_new_for_credentials (DynCredentials            *credentials,
                                                                  DynCredentialsSource           source,
                                                                  const char                    *description) G_GNUC_WARN_UNUSED_RESULT;
/* @command_line is split like a shell would (no shell runs it); @profile_name only names it in messages. */
DynCredentialsProvider *dyn_credentials_provider_new_process     (const char                    *command_line,
                                                                  const char                    *profile_name,
                                                                  GError                       **error) G_GNUC_WARN_UNUSED_RESULT;
/* The hook for the keyring: credentials come from @fetch/@finish and are cached like any others. */
DynCredentialsProvider *dyn_credentials_provider_new_custom      (DynCredentialsFetchFunc        fetch,
                                                                  DynCredentialsFetchFinishFunc  finish,
                                                                  gpointer                       user_data,
                                                                  GDestroyNotify                 destroy,
                                                                  const char                    *description) G_GNUC_WARN_UNUSED_RESULT;

DynCredentialsSource    dyn_credentials_provider_get_source      (DynCredentialsProvider        *self);
/* A human-readable origin, e.g. "environment variables" or "credential_process of profile 'dev'". */
const char             *dyn_credentials_provider_get_description (DynCredentialsProvider        *self);

void                    dyn_credentials_provider_get_async       (DynCredentialsProvider        *self,
                                                                  GCancellable                  *cancellable,
                                                                  GAsyncReadyCallback            callback,
                                                                  gpointer                       user_data);
DynCredentials         *dyn_credentials_provider_get_finish      (DynCredentialsProvider        *self,
                                                                  GAsyncResult                  *result,
                                                                  GError                       **error) G_GNUC_WARN_UNUSED_RESULT;
/* Blocking variant for dynoscope-cli; do not call it on the GUI's main thread. */
DynCredentials         *dyn_credentials_provider_get             (DynCredentialsProvider        *self,
                                                                  GCancellable                  *cancellable,
                                                                  GError                       **error) G_GNUC_WARN_UNUSED_RESULT;
/* Drops cached credentials so the next get fetches again (e.g. after ExpiredTokenException).
 * Does nothing for static providers. */
void                    dyn_credentials_provider_invalidate      (DynCredentialsProvider        *self);

G_END_DECLS
