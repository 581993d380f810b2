/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <libsecret/secret.h>

#include "dyn-credentials.h"

G_BEGIN_DECLS

/**
 * DYN_KEYRING_SCHEMA_NAME:
 *
 * The libsecret schema of connection secrets. Its attributes are
 * "connection-id" (a #DynConnection id) and "access-key-id". The secret is a
 * small JSON object {"secret": "…", "token": "…"} ("token" only with a
 * session token). Nothing else about a connection goes into the keyring.
 */
#define DYN_KEYRING_SCHEMA_NAME "io.github.dynoscope.Dynoscope.Connection"

/* How long an operation may take before it fails (a prompt nobody answers,
 * a hung service), unless dyn_keyring_set_timeout() says otherwise. */
#define DYN_KEYRING_DEFAULT_TIMEOUT_MS 10000

const SecretSchema *dyn_keyring_get_schema   (void) G_GNUC_CONST;

/* Sets the timeout of later operations, in milliseconds; 0 restores the default. */
void                dyn_keyring_set_timeout  (guint timeout_ms);
guint               dyn_keyring_get_timeout  (void);

/**
 * dyn_keyring_store_async:
 * @connection_id: the connection the secret belongs to
 * @access_key_id: the access key id the secret goes with
 * @label: (nullable): what keyring managers show, e.g. the connection's name
 * @secret_access_key: the secret key; never logged
 * @session_token: (nullable): a session token; never logged
 *
 * Stores the secret of a connection in the default collection (the login
 * keyring), replacing any earlier secret of @connection_id, whatever its
 * access key id. Nothing blocks.
 *
 * Errors are %DYN_ERROR_CREDENTIALS with a message that says what is wrong
 * ("The system keyring is locked", "No keyring service is running …"), or
 * %G_IO_ERROR_CANCELLED when @cancellable was cancelled. An operation that
 * does not finish within the timeout fails too.
 */
void                dyn_keyring_store_async  (const char          *connection_id,
                                              const char          *access_key_id,
                                              const char          *label,
                                              const char          *secret_access_key,
                                              const char          *session_token,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean            dyn_keyring_store_finish (GAsyncResult        *result,
                                              GError             **error);

/**
 * dyn_keyring_lookup_async:
 * @connection_id: the connection
 * @access_key_id: the access key id the secret must go with
 *
 * Looks the secret of a connection up. The result is a #DynCredentials of
 * @access_key_id with the stored secret key and session token; when none is
 * stored the error is %DYN_ERROR_CREDENTIALS.
 */
void                dyn_keyring_lookup_async (const char          *connection_id,
                                              const char          *access_key_id,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
DynCredentials     *dyn_keyring_lookup_finish (GAsyncResult       *result,
                                               GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* Removes every secret of @connection_id. Succeeds when there was none. */
void                dyn_keyring_clear_async  (const char          *connection_id,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
gboolean            dyn_keyring_clear_finish (GAsyncResult        *result,
                                              GError             **error);

/**
 * dyn_keyring_provider_new:
 *
 * A credentials provider (%DYN_CREDENTIALS_SOURCE_CUSTOM) that looks the
 * secret of @connection_id up in the keyring when first asked, then caches it.
 */
DynCredentialsProvider *dyn_keyring_provider_new (const char *connection_id,
                                                  const char *access_key_id,
                                                  const char *description) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
