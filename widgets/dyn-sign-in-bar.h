/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DYN_TYPE_SIGN_IN_BAR (dyn_sign_in_bar_get_type ())
G_DECLARE_FINAL_TYPE (DynSignInBar, dyn_sign_in_bar, DYN, SIGN_IN_BAR, GtkWidget)

/* The non-modal "Sign in again" prompt at the top of the window's content:
 * "Your session for “CONNECTION” expired. Requests wait until you sign in
 * again." with Sign In Again and Cancel (the actions sign-in-bar.sign-in
 * and sign-in-bar.cancel, which emit "sign-in" and "cancel"). */
DynSignInBar *dyn_sign_in_bar_new          (void);
/* Slides the bar in for @connection_name, not busy, without a problem. */
void          dyn_sign_in_bar_reveal       (DynSignInBar *self,
                                            const char   *connection_name);
void          dyn_sign_in_bar_dismiss      (DynSignInBar *self);
gboolean      dyn_sign_in_bar_get_revealed (DynSignInBar *self);
/* While signing in: a spinner, Sign In Again insensitive (Cancel still works). */
void          dyn_sign_in_bar_set_busy     (DynSignInBar *self,
                                            gboolean      busy);
gboolean      dyn_sign_in_bar_get_busy     (DynSignInBar *self);
/* A second line: why the last try did not sign in, or %NULL. */
void          dyn_sign_in_bar_set_problem  (DynSignInBar *self,
                                            const char   *problem);
const char   *dyn_sign_in_bar_get_text     (DynSignInBar *self);
const char   *dyn_sign_in_bar_get_problem  (DynSignInBar *self);

G_END_DECLS
