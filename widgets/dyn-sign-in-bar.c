/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-sign-in-bar"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-sign-in-bar.h"

struct _DynSignInBar
{
  GtkWidget    parent_instance;

  char        *text;
  char        *problem;
  gboolean     busy;

  GtkRevealer *revealer;
  GtkLabel    *message_label;
  GtkLabel    *problem_label;
  GtkSpinner  *spinner;
};

enum {
  SIGN_IN,
  CANCEL,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynSignInBar, dyn_sign_in_bar, GTK_TYPE_WIDGET)

static guint signals[N_SIGNALS];

static void
update_actions (DynSignInBar *self)
{
  gboolean revealed = gtk_revealer_get_reveal_child (self->revealer);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sign-in-bar.sign-in", revealed && !self->busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sign-in-bar.cancel", revealed);
}

static void
sign_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  g_signal_emit (widget, signals[SIGN_IN], 0);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  g_signal_emit (widget, signals[CANCEL], 0);
}

/* Hidden once slid out, so that it takes no room. */
static void
child_revealed_cb (GtkRevealer  *revealer,
                   GParamSpec   *pspec,
                   DynSignInBar *self)
{
  if (!gtk_revealer_get_child_revealed (revealer) && !gtk_revealer_get_reveal_child (revealer))
    gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
dyn_sign_in_bar_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_SIGN_IN_BAR);

  G_OBJECT_CLASS (dyn_sign_in_bar_parent_class)->dispose (object);
}

static void
dyn_sign_in_bar_finalize (GObject *object)
{
  DynSignInBar *self = DYN_SIGN_IN_BAR (object);

  g_free (self->text);
  g_free (self->problem);

  G_OBJECT_CLASS (dyn_sign_in_bar_parent_class)->finalize (object);
}

static void
dyn_sign_in_bar_class_init (DynSignInBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_sign_in_bar_dispose;
  object_class->finalize = dyn_sign_in_bar_finalize;

  /**
   * DynSignInBar::sign-in:
   *
   * The user asked to sign in again.
   */
  signals[SIGN_IN] =
    g_signal_new ("sign-in", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * DynSignInBar::cancel:
   *
   * The user gave up: the waiting requests are to fail.
   */
  signals[CANCEL] =
    g_signal_new ("cancel", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-sign-in-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, DynSignInBar, revealer);
  gtk_widget_class_bind_template_child (widget_class, DynSignInBar, message_label);
  gtk_widget_class_bind_template_child (widget_class, DynSignInBar, problem_label);
  gtk_widget_class_bind_template_child (widget_class, DynSignInBar, spinner);

  gtk_widget_class_install_action (widget_class, "sign-in-bar.sign-in", NULL, sign_in_action);
  gtk_widget_class_install_action (widget_class, "sign-in-bar.cancel", NULL, cancel_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
dyn_sign_in_bar_init (DynSignInBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->revealer, "notify::child-revealed", G_CALLBACK (child_revealed_cb), self);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  update_actions (self);
}

DynSignInBar *
dyn_sign_in_bar_new (void)
{
  return g_object_new (DYN_TYPE_SIGN_IN_BAR, NULL);
}

void
dyn_sign_in_bar_reveal (DynSignInBar *self,
                        const char   *connection_name)
{
  g_return_if_fail (DYN_IS_SIGN_IN_BAR (self));

  g_free (self->text);
  /* Translators: %s is the name of a connection */
  self->text = g_strdup_printf (_("Your session for “%s” expired. Requests wait until you sign in again."),
                                connection_name != NULL ? connection_name : "");
  gtk_label_set_label (self->message_label, self->text);
  dyn_sign_in_bar_set_problem (self, NULL);
  dyn_sign_in_bar_set_busy (self, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gtk_revealer_set_reveal_child (self->revealer, TRUE);
  update_actions (self);
}

void
dyn_sign_in_bar_dismiss (DynSignInBar *self)
{
  g_return_if_fail (DYN_IS_SIGN_IN_BAR (self));

  dyn_sign_in_bar_set_busy (self, FALSE);
  gtk_revealer_set_reveal_child (self->revealer, FALSE);
  update_actions (self);
}

gboolean
dyn_sign_in_bar_get_revealed (DynSignInBar *self)
{
  g_return_val_if_fail (DYN_IS_SIGN_IN_BAR (self), FALSE);

  return gtk_revealer_get_reveal_child (self->revealer);
}

void
dyn_sign_in_bar_set_busy (DynSignInBar *self,
                          gboolean      busy)
{
  g_return_if_fail (DYN_IS_SIGN_IN_BAR (self));

  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  update_actions (self);
}

gboolean
dyn_sign_in_bar_get_busy (DynSignInBar *self)
{
  g_return_val_if_fail (DYN_IS_SIGN_IN_BAR (self), FALSE);

  return self->busy;
}

void
dyn_sign_in_bar_set_problem (DynSignInBar *self,
                             const char   *problem)
{
  g_return_if_fail (DYN_IS_SIGN_IN_BAR (self));

  g_free (self->problem);
  self->problem = g_strdup (problem);
  gtk_label_set_label (self->problem_label, problem != NULL ? problem : "");
  gtk_widget_set_visible (GTK_WIDGET (self->problem_label), problem != NULL);
}

const char *
dyn_sign_in_bar_get_text (DynSignInBar *self)
{
  g_return_val_if_fail (DYN_IS_SIGN_IN_BAR (self), NULL);

  return self->text;
}

const char *
dyn_sign_in_bar_get_problem (DynSignInBar *self)
{
  g_return_val_if_fail (DYN_IS_SIGN_IN_BAR (self), NULL);

  return self->problem;
}
