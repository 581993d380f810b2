/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-mfa-dialog"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-mfa-dialog.h"

/* The codes of virtual and hardware MFA devices (TOTP) have six digits. */
#define CODE_LENGTH 6

struct _DynMfaDialog
{
  AdwWindow  parent_instance;

  char      *profile;
  char      *serial;
  gboolean   responded;

  GtkLabel  *intro_label;
  GtkLabel  *profile_label;
  GtkLabel  *serial_label;
  GtkEntry  *code_entry;
};

enum {
  RESPONSE,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynMfaDialog, dyn_mfa_dialog, ADW_TYPE_WINDOW)

static guint signals[N_SIGNALS];

static gboolean
code_is_complete (const char *code)
{
  if (strlen (code) != CODE_LENGTH)
    return FALSE;
  for (const char *p = code; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

static void
update_actions (DynMfaDialog *self)
{
  const char *code = gtk_editable_get_text (GTK_EDITABLE (self->code_entry));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "mfa.submit", code_is_complete (code));
}

/* Emits "response" once, then closes. */
static void
respond (DynMfaDialog *self,
         const char   *code)
{
  if (self->responded)
    return;
  self->responded = TRUE;
  g_object_ref (self);
  g_signal_emit (self, signals[RESPONSE], 0, code);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static void
submit_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynMfaDialog *self = DYN_MFA_DIALOG (widget);
  g_autofree char *code = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->code_entry)));

  if (!code_is_complete (code))
    return;
  respond (self, code);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  respond (DYN_MFA_DIALOG (widget), NULL);
}

static void
code_changed_cb (GtkEditable  *editable,
                 DynMfaDialog *self)
{
  update_actions (self);
}

/* Enter in the entry submits a complete code. */
static void
code_activate_cb (GtkEntry     *entry,
                  DynMfaDialog *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "mfa.submit", NULL);
}

/* Closing the window is Cancel. */
static gboolean
dyn_mfa_dialog_close_request (GtkWindow *window)
{
  DynMfaDialog *self = DYN_MFA_DIALOG (window);

  if (!self->responded)
    {
      self->responded = TRUE;
      g_signal_emit (self, signals[RESPONSE], 0, NULL);
    }
  return GTK_WINDOW_CLASS (dyn_mfa_dialog_parent_class)->close_request (window);
}

static void
dyn_mfa_dialog_dispose (GObject *object)
{
  DynMfaDialog *self = DYN_MFA_DIALOG (object);

  /* Destroyed with its parent: no code. */
  if (!self->responded)
    {
      self->responded = TRUE;
      g_signal_emit (self, signals[RESPONSE], 0, NULL);
    }
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_MFA_DIALOG);

  G_OBJECT_CLASS (dyn_mfa_dialog_parent_class)->dispose (object);
}

static void
dyn_mfa_dialog_finalize (GObject *object)
{
  DynMfaDialog *self = DYN_MFA_DIALOG (object);

  g_free (self->profile);
  g_free (self->serial);

  G_OBJECT_CLASS (dyn_mfa_dialog_parent_class)->finalize (object);
}

static void
dyn_mfa_dialog_class_init (DynMfaDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dyn_mfa_dialog_dispose;
  object_class->finalize = dyn_mfa_dialog_finalize;
  window_class->close_request = dyn_mfa_dialog_close_request;

  /**
   * DynMfaDialog::response:
   * @code: (nullable): the code, %NULL when the user cancelled
   */
  signals[RESPONSE] =
    g_signal_new ("response", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-mfa-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynMfaDialog, intro_label);
  gtk_widget_class_bind_template_child (widget_class, DynMfaDialog, profile_label);
  gtk_widget_class_bind_template_child (widget_class, DynMfaDialog, serial_label);
  gtk_widget_class_bind_template_child (widget_class, DynMfaDialog, code_entry);

  gtk_widget_class_install_action (widget_class, "mfa.submit", NULL, submit_action);
  gtk_widget_class_install_action (widget_class, "mfa.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "mfa.cancel", NULL);
}

static void
dyn_mfa_dialog_init (DynMfaDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->code_entry, "changed", G_CALLBACK (code_changed_cb), self);
  g_signal_connect (self->code_entry, "activate", G_CALLBACK (code_activate_cb), self);
  update_actions (self);
}

DynMfaDialog *
dyn_mfa_dialog_new (GtkWindow  *parent,
                    const char *profile,
                    const char *mfa_serial)
{
  DynMfaDialog *self;
  g_autofree char *intro = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (mfa_serial != NULL, NULL);

  self = g_object_new (DYN_TYPE_MFA_DIALOG, "transient-for", parent, "destroy-with-parent", TRUE, NULL);
  self->profile = g_strdup (profile);
  self->serial = g_strdup (mfa_serial);
  if (profile != NULL)
    /* Translators: %s is an AWS profile */
    intro = g_strdup_printf (_("Signing in with the profile “%s” needs a code of your MFA device."), profile);
  else
    intro = g_strdup (_("Signing in needs a code of your MFA device."));
  gtk_label_set_label (self->intro_label, intro);
  gtk_label_set_label (self->profile_label, profile != NULL ? profile : "—");
  gtk_label_set_label (self->serial_label, mfa_serial);
  gtk_widget_grab_focus (GTK_WIDGET (self->code_entry));
  return self;
}

const char *
dyn_mfa_dialog_get_profile (DynMfaDialog *self)
{
  g_return_val_if_fail (DYN_IS_MFA_DIALOG (self), NULL);

  return self->profile;
}

const char *
dyn_mfa_dialog_get_serial (DynMfaDialog *self)
{
  g_return_val_if_fail (DYN_IS_MFA_DIALOG (self), NULL);

  return self->serial;
}

GtkEditable *
dyn_mfa_dialog_get_entry (DynMfaDialog *self)
{
  g_return_val_if_fail (DYN_IS_MFA_DIALOG (self), NULL);

  return GTK_EDITABLE (self->code_entry);
}
