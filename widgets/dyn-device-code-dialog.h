/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-signin.h"

G_BEGIN_DECLS

#define DYN_TYPE_DEVICE_CODE_DIALOG (dyn_device_code_dialog_get_type ())
G_DECLARE_FINAL_TYPE (DynDeviceCodeDialog, dyn_device_code_dialog, DYN, DEVICE_CODE_DIALOG, AdwWindow)

/* Shows the code of an IAM Identity Center device flow while it polls: the
 * portal, the verification URL as a link, the user code (selectable, with a
 * Copy button) and that it waits for the approval. Cancel (or closing the
 * dialog) cancels @flow. Unless DYN_NO_BROWSER is set (the tests) the
 * browser opens the verification URL. */
DynDeviceCodeDialog *dyn_device_code_dialog_new       (GtkWindow           *parent,
                                                       const DynDeviceCode *code,
                                                       GCancellable        *flow);
/* Shows @code over @parent and keeps the dialog in *@slot, a weak pointer
 * (NULL once it closes); a dialog an earlier flow left there (with its error)
 * is closed first: one flow at a time. */
void                 dyn_device_code_dialog_show_in   (DynDeviceCodeDialog **slot,
                                                       GtkWindow            *parent,
                                                       const DynDeviceCode  *code,
                                                       GCancellable         *flow);
/* The flow ended: success or cancellation closes the dialog; another error
 * stays shown until the user closes it. */
void                 dyn_device_code_dialog_finish    (DynDeviceCodeDialog *self,
                                                       const GError        *error);
const char          *dyn_device_code_dialog_get_user_code (DynDeviceCodeDialog *self);
/* The address the browser is (or, under DYN_NO_BROWSER, would be) sent to. */
const char          *dyn_device_code_dialog_get_uri   (DynDeviceCodeDialog *self);
/* The error shown after a failed flow, or %NULL. */
const char          *dyn_device_code_dialog_get_error (DynDeviceCodeDialog *self);

G_END_DECLS
