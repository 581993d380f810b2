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
/* The message shown after a failed save, or NULL. */
const char          *dyn_connection_editor_get_error      (DynConnectionEditor *self);

G_END_DECLS
