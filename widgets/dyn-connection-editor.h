/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-connection.h"

G_BEGIN_DECLS

#define DYN_TYPE_CONNECTION_EDITOR (dyn_connection_editor_get_type ())
G_DECLARE_FINAL_TYPE (DynConnectionEditor, dyn_connection_editor, DYN, CONNECTION_EDITOR, AdwWindow)

/* Edits @connection of @store, or a new connection when it is NULL. Saving
 * stores secrets in the keyring (through the store) and emits "saved" with
 * the connection; errors (a locked keyring) are shown in the window. */
DynConnectionEditor *dyn_connection_editor_new            (GtkWindow           *parent,
                                                           DynConnectionStore  *store,
                                                           DynConnection       *connection);
DynConnection       *dyn_connection_editor_get_connection (DynConnectionEditor *self);
/* Fills the form (for scripting and tests); NULL leaves a field as it is. */
void                 dyn_connection_editor_fill           (DynConnectionEditor *self,
                                                           const char          *name,
                                                           const char          *region,
                                                           const char          *endpoint_url,
                                                           const char          *access_key_id,
                                                           const char          *secret_access_key,
                                                           const char          *session_token,
                                                           gboolean             read_only);
/* IAM Identity Center (for scripting and tests): chooses it, with @session
 * (an [sso-session] of ~/.aws/config) or @start_url and @sso_region; NULL
 * leaves a field as it is. The action editor.sso-sign-in lists the accounts
 * (signing in first when no sign-in is cached). */
void                 dyn_connection_editor_fill_sso       (DynConnectionEditor *self,
                                                           const char          *session,
                                                           const char          *start_url,
                                                           const char          *sso_region);
/* Picks a listed account (its roles are then listed, and @role_name chosen
 * when they come) or a listed role; FALSE when it is not listed. */
gboolean             dyn_connection_editor_choose_sso     (DynConnectionEditor *self,
                                                           const char          *account_id,
                                                           const char          *role_name);
gboolean             dyn_connection_editor_get_sso_busy   (DynConnectionEditor *self);
/* What the sign-in row says ("Signed in: pick the account and role", an error). */
const char          *dyn_connection_editor_get_sso_status (DynConnectionEditor *self);
/* The accounts and the roles listed, as shown (GtkStringObject). */
GListModel          *dyn_connection_editor_get_sso_accounts (DynConnectionEditor *self);
GListModel          *dyn_connection_editor_get_sso_roles  (DynConnectionEditor *self);
/* The message shown after a failed save, or NULL. */
const char          *dyn_connection_editor_get_error      (DynConnectionEditor *self);

G_END_DECLS
