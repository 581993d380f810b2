/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-signin.h"
#include "dyn-sign-in-bar.h"
#include "dyn-window.h"

G_BEGIN_DECLS

#define DYN_TYPE_WINDOW_PROMPTER (dyn_window_prompter_get_type ())
G_DECLARE_FINAL_TYPE (DynWindowPrompter, dyn_window_prompter, DYN, WINDOW_PROMPTER, GObject)

/* The prompter of @app's windows (the application installs it as the
 * default one): it can interact only while one of the windows connects or
 * its user answers the "Sign in again" bar; then it asks for MFA codes and
 * shows the device flow in dialogs over that window. */
DynWindowPrompter *dyn_window_prompter_new        (GtkApplication *app) G_GNUC_WARN_UNUSED_RESULT;

/* For scripting and tests: the window's "Sign in again" bar; the MFA or
 * device-code dialog open over it (or %NULL); who the connection signs in as,
 * "123456789012 · assumed-role/Admin/alice · expires 14:05", or %NULL. */
DynSignInBar      *dyn_window_get_sign_in_bar     (DynWindow      *self);
GtkWindow         *dyn_window_get_sign_in_dialog  (DynWindow      *self);
const char        *dyn_window_get_identity_text   (DynWindow      *self);

G_END_DECLS
