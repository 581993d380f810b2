/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DYN_TYPE_MFA_DIALOG (dyn_mfa_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynMfaDialog, dyn_mfa_dialog, DYN, MFA_DIALOG, AdwWindow)

/* Asks for the current code of the MFA device @mfa_serial (assuming a role of
 * @profile). Sign In (or Enter) takes a code of six digits; it emits
 * "response" with the code, Cancel or closing the dialog emits it with %NULL.
 * It is emitted once; the dialog then closes. */
DynMfaDialog *dyn_mfa_dialog_new        (GtkWindow    *parent,
                                         const char   *profile,
                                         const char   *mfa_serial);
const char   *dyn_mfa_dialog_get_profile (DynMfaDialog *self);
const char   *dyn_mfa_dialog_get_serial  (DynMfaDialog *self);
/* The code entry (for scripting and tests). */
GtkEditable  *dyn_mfa_dialog_get_entry   (DynMfaDialog *self);

G_END_DECLS
