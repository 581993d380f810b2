/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-device-code-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-device-code-dialog.h"

struct _DynDeviceCodeDialog
{
  AdwWindow     parent_instance;

  GCancellable *flow;
  char         *user_code;
  char         *uri;
  char         *error;
  gboolean      browser_opened;
  gboolean      ended;

  GtkButton    *cancel_button;
  GtkLabel     *portal_label;
  GtkLinkButton *link_button;
  GtkLabel     *code_label;
  GtkLabel     *expires_label;
  GtkStack     *state_stack;
  GtkSpinner   *spinner;
  GtkLabel     *error_label;
};

G_DEFINE_FINAL_TYPE (DynDeviceCodeDialog, dyn_device_code_dialog, ADW_TYPE_WINDOW)

/* The user gave up: the flow stops (once). */
static void
cancel_flow (DynDeviceCodeDialog *self)
{
  if (self->ended)
    return;
  self->ended = TRUE;
  g_cancellable_cancel (self->flow);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynDeviceCodeDialog *self = DYN_DEVICE_CODE_DIALOG (widget);

  cancel_flow (self);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynDeviceCodeDialog *self = DYN_DEVICE_CODE_DIALOG (widget);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->user_code);
}

/* The browser opens with the dialog, except under the tests. */
static void
dialog_map_cb (GtkWidget           *widget,
               DynDeviceCodeDialog *self)
{
  if (self->browser_opened)
    return;
  self->browser_opened = TRUE;
  if (g_getenv ("DYN_NO_BROWSER") != NULL)
    {
      g_debug ("DYN_NO_BROWSER is set: not opening %s", self->uri);
      return;
    }
  gtk_show_uri (GTK_WINDOW (self), self->uri, GDK_CURRENT_TIME);
}

static gboolean
dyn_device_code_dialog_close_request (GtkWindow *window)
{
  cancel_flow (DYN_DEVICE_CODE_DIALOG (window));
  return GTK_WINDOW_CLASS (dyn_device_code_dialog_parent_class)->close_request (window);
}

static void
dyn_device_code_dialog_dispose (GObject *object)
{
  /* Destroyed with its parent: the flow stops. */
  cancel_flow (DYN_DEVICE_CODE_DIALOG (object));
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_DEVICE_CODE_DIALOG);

  G_OBJECT_CLASS (dyn_device_code_dialog_parent_class)->dispose (object);
}

static void
dyn_device_code_dialog_finalize (GObject *object)
{
  DynDeviceCodeDialog *self = DYN_DEVICE_CODE_DIALOG (object);

  g_clear_object (&self->flow);
  g_free (self->user_code);
  g_free (self->uri);
  g_free (self->error);

  G_OBJECT_CLASS (dyn_device_code_dialog_parent_class)->finalize (object);
}

static void
dyn_device_code_dialog_class_init (DynDeviceCodeDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dyn_device_code_dialog_dispose;
  object_class->finalize = dyn_device_code_dialog_finalize;
  window_class->close_request = dyn_device_code_dialog_close_request;

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-device-code-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, portal_label);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, link_button);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, code_label);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, expires_label);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, state_stack);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynDeviceCodeDialog, error_label);

  gtk_widget_class_install_action (widget_class, "device-code.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "device-code.copy", NULL, copy_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "device-code.cancel", NULL);
}

static void
dyn_device_code_dialog_init (DynDeviceCodeDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self, "map", G_CALLBACK (dialog_map_cb), self);
}

DynDeviceCodeDialog *
dyn_device_code_dialog_new (GtkWindow           *parent,
                            const DynDeviceCode *code,
                            GCancellable        *flow)
{
  DynDeviceCodeDialog *self;
  g_autofree char *portal = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (code != NULL && code->user_code != NULL && code->verification_uri != NULL, NULL);
  g_return_val_if_fail (G_IS_CANCELLABLE (flow), NULL);

  self = g_object_new (DYN_TYPE_DEVICE_CODE_DIALOG, "transient-for", parent, "destroy-with-parent", TRUE, NULL);
  self->flow = g_object_ref (flow);
  self->user_code = g_strdup (code->user_code);
  self->uri = g_strdup (code->verification_uri_complete != NULL ? code->verification_uri_complete
                                                                 : code->verification_uri);
  if (code->session_name != NULL)
    /* Translators: the first %s is an IAM Identity Center start URL, the second the sso-session's name */
    portal = g_strdup_printf (_("Portal %s (session “%s”)"), code->start_url ? code->start_url : "", code->session_name);
  else
    /* Translators: %s is an IAM Identity Center start URL */
    portal = g_strdup_printf (_("Portal %s"), code->start_url ? code->start_url : "");
  gtk_label_set_label (self->portal_label, portal);
  gtk_link_button_set_uri (self->link_button, self->uri);
  gtk_button_set_label (GTK_BUTTON (self->link_button), code->verification_uri);
  gtk_label_set_label (self->code_label, code->user_code);
  if (code->expires != NULL)
    {
      g_autoptr(GDateTime) local = g_date_time_to_local (code->expires);
      g_autofree char *time = g_date_time_format (local, "%H:%M");
      /* Translators: %s is a time of day, “14:05” */
      g_autofree char *text = g_strdup_printf (_("The code works until %s."), time);

      gtk_label_set_label (self->expires_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->expires_label), code->expires != NULL);
  return self;
}

void
dyn_device_code_dialog_show_in (DynDeviceCodeDialog **slot,
                                GtkWindow            *parent,
                                const DynDeviceCode  *code,
                                GCancellable         *flow)
{
  g_return_if_fail (slot != NULL);

  if (*slot != NULL)
    gtk_window_destroy (GTK_WINDOW (*slot));
  g_set_weak_pointer (slot, dyn_device_code_dialog_new (parent, code, flow));
  gtk_window_present (GTK_WINDOW (*slot));
}

void
dyn_device_code_dialog_finish (DynDeviceCodeDialog *self,
                               const GError        *error)
{
  g_autofree char *text = NULL;

  g_return_if_fail (DYN_IS_DEVICE_CODE_DIALOG (self));

  self->ended = TRUE;
  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  /* Translators: %s says why signing in failed */
  text = g_strdup_printf (_("Signing in failed: %s"), error->message);
  g_free (self->error);
  self->error = g_strdup (text);
  gtk_label_set_label (self->error_label, text);
  gtk_spinner_set_spinning (self->spinner, FALSE);
  gtk_stack_set_visible_child_name (self->state_stack, "error");
  gtk_button_set_label (self->cancel_button, _("_Close"));
}

const char *
dyn_device_code_dialog_get_user_code (DynDeviceCodeDialog *self)
{
  g_return_val_if_fail (DYN_IS_DEVICE_CODE_DIALOG (self), NULL);

  return self->user_code;
}

const char *
dyn_device_code_dialog_get_uri (DynDeviceCodeDialog *self)
{
  g_return_val_if_fail (DYN_IS_DEVICE_CODE_DIALOG (self), NULL);

  return self->uri;
}

const char *
dyn_device_code_dialog_get_error (DynDeviceCodeDialog *self)
{
  g_return_val_if_fail (DYN_IS_DEVICE_CODE_DIALOG (self), NULL);

  return self->error;
}
