/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-client.h"
#include "dyn-config.h"

G_BEGIN_DECLS

/**
 * DynConnectionKind:
 * @DYN_CONNECTION_KIND_PROFILE: a profile of the AWS shared config files;
 *   Dynoscope never writes those files
 * @DYN_CONNECTION_KIND_USER: a connection the user added in Dynoscope; its
 *   secret key lives in the system keyring
 */
typedef enum {
  DYN_CONNECTION_KIND_PROFILE,
  DYN_CONNECTION_KIND_USER,
} DynConnectionKind;

#define DYN_TYPE_CONNECTION_KIND (dyn_connection_kind_get_type ())
GType dyn_connection_kind_get_type (void) G_GNUC_CONST;

/**
 * DynProductionMode:
 * @DYN_PRODUCTION_MODE_AUTO: production when the profile name, the connection
 *   name or the account matches one of the user's patterns
 * @DYN_PRODUCTION_MODE_ON: always production
 * @DYN_PRODUCTION_MODE_OFF: never production
 *
 * Whether a connection is treated as production (read-only by default, every
 * write confirmed; see #DynGuardrail).
 */
typedef enum {
  DYN_PRODUCTION_MODE_AUTO,
  DYN_PRODUCTION_MODE_ON,
  DYN_PRODUCTION_MODE_OFF,
} DynProductionMode;

#define DYN_TYPE_PRODUCTION_MODE (dyn_production_mode_get_type ())
GType dyn_production_mode_get_type (void) G_GNUC_CONST;

#define DYN_TYPE_CONNECTION (dyn_connection_get_type ())

/**
 * DynConnection:
 *
 * Where Dynoscope connects to: an id (stable: "profile:NAME" for profiles, a
 * UUID for user-added connections), a name, a region, an optional endpoint
 * (DynamoDB Local, Alternator, LocalStack), the access key id of user-added
 * static keys, a read-only flag and the table last opened. Every property
 * notifies on change. A connection never holds a secret.
 */
G_DECLARE_FINAL_TYPE (DynConnection, dyn_connection, DYN, CONNECTION, GObject)

/* A user-added connection with a new UUID. */
DynConnection     *dyn_connection_new                (const char          *name) G_GNUC_WARN_UNUSED_RESULT;
/* The connection of an AWS profile, id "profile:NAME". */
DynConnection     *dyn_connection_new_for_profile    (const char          *profile_name) G_GNUC_WARN_UNUSED_RESULT;

const char        *dyn_connection_get_id             (DynConnection *self);
DynConnectionKind  dyn_connection_get_kind           (DynConnection *self);
const char        *dyn_connection_get_name           (DynConnection *self);
void               dyn_connection_set_name           (DynConnection *self,
                                                      const char    *name);
/* The AWS profile (profile connections; optional for user-added ones, whose
 * credentials then come from that profile unless an access key id is set). */
const char        *dyn_connection_get_profile_name   (DynConnection *self);
void               dyn_connection_set_profile_name   (DynConnection *self,
                                                      const char    *profile_name);
const char        *dyn_connection_get_region         (DynConnection *self);
void               dyn_connection_set_region         (DynConnection *self,
                                                      const char    *region);
const char        *dyn_connection_get_endpoint_url   (DynConnection *self);
void               dyn_connection_set_endpoint_url   (DynConnection *self,
                                                      const char    *endpoint_url);
const char        *dyn_connection_get_access_key_id  (DynConnection *self);
void               dyn_connection_set_access_key_id  (DynConnection *self,
                                                      const char    *access_key_id);
gboolean           dyn_connection_get_read_only      (DynConnection *self);
void               dyn_connection_set_read_only      (DynConnection *self,
                                                      gboolean       read_only);
const char        *dyn_connection_get_last_table     (DynConnection *self);
void               dyn_connection_set_last_table     (DynConnection *self,
                                                      const char    *last_table);

/* IAM Identity Center (user-added connections): with a start URL set, the
 * credentials are the role credentials of sso-account-id / sso-role-name
 * (dyn_sso_provider_new()), signed in at sso-start-url in sso-region; the
 * token cache is named after sso-session when set (an `[sso-session]`-style
 * login), else after the start URL (legacy). None of these is a secret. */
const char        *dyn_connection_get_sso_start_url  (DynConnection *self);
void               dyn_connection_set_sso_start_url  (DynConnection *self,
                                                      const char    *sso_start_url);
const char        *dyn_connection_get_sso_region     (DynConnection *self);
void               dyn_connection_set_sso_region     (DynConnection *self,
                                                      const char    *sso_region);
/* (nullable) */
const char        *dyn_connection_get_sso_session    (DynConnection *self);
void               dyn_connection_set_sso_session    (DynConnection *self,
                                                      const char    *sso_session);
const char        *dyn_connection_get_sso_account_id (DynConnection *self);
void               dyn_connection_set_sso_account_id (DynConnection *self,
                                                      const char    *sso_account_id);
const char        *dyn_connection_get_sso_role_name  (DynConnection *self);
void               dyn_connection_set_sso_role_name  (DynConnection *self,
                                                      const char    *sso_role_name);

/* The production setting ("production-mode"; default automatic). */
DynProductionMode  dyn_connection_get_production_mode (DynConnection     *self);
void               dyn_connection_set_production_mode (DynConnection     *self,
                                                       DynProductionMode  mode);
/**
 * dyn_connection_is_production:
 * @patterns: (nullable) (array zero-terminated=1): glob patterns ("*prod*"),
 *   the `production-patterns` setting
 * @account_id: (nullable): the account the credentials belong to, when known
 *   (GetCallerIdentity); the sso-account-id counts too
 *
 * Whether the connection is production: always or never as its mode says; in
 * automatic mode when its profile name, its name or the account matches one
 * of @patterns (#GPatternSpec, case-insensitive).
 */
gboolean           dyn_connection_is_production       (DynConnection      *self,
                                                       const char *const  *patterns,
                                                       const char         *account_id);

/**
 * dyn_connection_create_client_async:
 * @shared: (nullable): the shared config files, %NULL to read them now
 *
 * Builds a #DynClient for the connection. Profile connections resolve through
 * dyn_sign_in_resolve() like the AWS CLI with --profile (roles, MFA, IAM
 * Identity Center; the default prompter asks); user-added ones use their
 * region and endpoint, with an access key id take the secret from the keyring
 * (dyn_keyring_provider_new()), with an sso-start-url the role credentials of
 * IAM Identity Center (dyn_sso_provider_new(); AWS_ENDPOINT_URL_SSO /
 * _SSO_OIDC and the profile's services section redirect it). The credentials are fetched once
 * before the client is returned, so a locked keyring or a missing profile
 * fails here. A read-only connection gives a read-only client.
 */
void               dyn_connection_create_client_async  (DynConnection       *self,
                                                        DynSharedConfig     *shared,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
DynClient         *dyn_connection_create_client_finish (DynConnection  *self,
                                                        GAsyncResult   *result,
                                                        GError        **error) G_GNUC_WARN_UNUSED_RESULT;

#define DYN_TYPE_CONNECTION_STORE (dyn_connection_store_get_type ())

/**
 * DynConnectionStore:
 *
 * A #GListModel of #DynConnection: the profiles of the AWS shared config
 * files first (in file order), then the user-added connections. User-added
 * connections are saved to a key file (default
 * `$XDG_CONFIG_HOME/dynoscope/connections.ini`) without any secret; their
 * secrets go to the keyring. For profile connections only Dynoscope's own
 * settings (read-only, production mode, last table) are saved there; ~/.aws is never written.
 */
G_DECLARE_FINAL_TYPE (DynConnectionStore, dyn_connection_store, DYN, CONNECTION_STORE, GObject)

/* @path: (nullable): the key file, %NULL for the default. */
DynConnectionStore *dyn_connection_store_new            (const char          *path) G_GNUC_WARN_UNUSED_RESULT;
const char         *dyn_connection_store_get_path       (DynConnectionStore  *self);
/* The shared config read by the last load, or %NULL. */
DynSharedConfig    *dyn_connection_store_get_shared_config (DynConnectionStore *self);

/* (Re)reads the AWS shared config files (as named by the environment) and the
 * key file. A missing key file is no error. */
gboolean            dyn_connection_store_load           (DynConnectionStore  *self,
                                                         GError             **error);
/* Like dyn_connection_store_load(), with given shared config files. */
gboolean            dyn_connection_store_load_with_config (DynConnectionStore *self,
                                                         DynSharedConfig     *shared,
                                                         GError             **error);
/* Writes the key file (mode 0600; its folder 0700). */
gboolean            dyn_connection_store_save           (DynConnectionStore  *self,
                                                         GError             **error);

/* (transfer none) or %NULL */
DynConnection      *dyn_connection_store_lookup         (DynConnectionStore  *self,
                                                         const char          *id);
DynConnection      *dyn_connection_store_lookup_by_name (DynConnectionStore  *self,
                                                         const char          *name);

/**
 * dyn_connection_store_add_async:
 * @connection: a user-added connection not yet in a store
 * @secret_access_key: (nullable): its secret key (requires an access key id)
 * @session_token: (nullable): a session token for it
 *
 * Stores the secret in the keyring, then adds @connection and saves the key
 * file. When the keyring fails nothing is added. Names must be unique.
 */
void                dyn_connection_store_add_async      (DynConnectionStore  *self,
                                                         DynConnection       *connection,
                                                         const char          *secret_access_key,
                                                         const char          *session_token,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean            dyn_connection_store_add_finish     (DynConnectionStore  *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
/**
 * dyn_connection_store_update_async:
 * @connection: a connection of the store, its properties already edited
 * @secret_access_key: (nullable): a new secret key, %NULL to keep the stored one
 * @session_token: (nullable): the session token going with a new secret key
 *
 * Stores a new secret in the keyring when one is given, then saves.
 */
void                dyn_connection_store_update_async   (DynConnectionStore  *self,
                                                         DynConnection       *connection,
                                                         const char          *secret_access_key,
                                                         const char          *session_token,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean            dyn_connection_store_update_finish  (DynConnectionStore  *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);
/* Removes a user-added connection, saves, and clears its keyring entry.
 * Profile connections cannot be removed (%DYN_ERROR_INVALID_ARGUMENT). */
void                dyn_connection_store_remove_async   (DynConnectionStore  *self,
                                                         DynConnection       *connection,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
gboolean            dyn_connection_store_remove_finish  (DynConnectionStore  *self,
                                                         GAsyncResult        *result,
                                                         GError             **error);

G_END_DECLS
