/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

/* The progress of an export or import: a bar (items of the expected items,
 * else bytes of the file's bytes, else a pulse) and the job's sentence. */

#include "config.h"

#include "dyn-transfer-progress-bar.h"

struct _DynTransferProgressBar
{
  GtkWidget       parent_instance;

  GtkProgressBar *bar;
  GtkLabel       *label;
};

G_DEFINE_FINAL_TYPE (DynTransferProgressBar, dyn_transfer_progress_bar, GTK_TYPE_WIDGET)

static void
dyn_transfer_progress_bar_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (dyn_transfer_progress_bar_parent_class)->dispose (object);
}

static void
dyn_transfer_progress_bar_class_init (DynTransferProgressBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_transfer_progress_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "dyn-transfer-progress");
}

static void
dyn_transfer_progress_bar_init (DynTransferProgressBar *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
  self->bar = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_parent (GTK_WIDGET (self->bar), GTK_WIDGET (self));
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->label, 0);
  gtk_label_set_wrap (self->label, TRUE);
  gtk_label_set_selectable (self->label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->label), "numeric");
  gtk_widget_set_parent (GTK_WIDGET (self->label), GTK_WIDGET (self));
}

GtkWidget *
dyn_transfer_progress_bar_new (void)
{
  return g_object_new (DYN_TYPE_TRANSFER_PROGRESS_BAR, NULL);
}

void
dyn_transfer_progress_bar_update (DynTransferProgressBar    *self,
                                  const DynTransferProgress *progress)
{
  g_autofree char *text = NULL;

  g_return_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self));
  g_return_if_fail (progress != NULL);

  /* A job that stopped midway is finished too: its bar stays where it stopped. */
  if (progress->items_total > 0)
    gtk_progress_bar_set_fraction (self->bar, MIN (1.0, (double) progress->items / progress->items_total));
  else if (progress->bytes_total > 0)
    gtk_progress_bar_set_fraction (self->bar, MIN (1.0, (double) progress->bytes / progress->bytes_total));
  else if (progress->finished)
    gtk_progress_bar_set_fraction (self->bar, 1.0);
  else
    gtk_progress_bar_pulse (self->bar);
  text = dyn_transfer_progress_describe (progress);
  gtk_label_set_label (self->label, text);
}

void
dyn_transfer_progress_bar_set_fraction (DynTransferProgressBar *self,
                                        double                  fraction)
{
  g_return_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self));
  gtk_progress_bar_set_fraction (self->bar, CLAMP (fraction, 0, 1));
}

void
dyn_transfer_progress_bar_set_text (DynTransferProgressBar *self,
                                    const char             *text)
{
  g_return_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self));
  gtk_label_set_label (self->label, text ? text : "");
}

const char *
dyn_transfer_progress_bar_get_text (DynTransferProgressBar *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self), NULL);
  return gtk_label_get_label (self->label);
}

double
dyn_transfer_progress_bar_get_fraction (DynTransferProgressBar *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self), 0);
  return gtk_progress_bar_get_fraction (self->bar);
}

void
dyn_transfer_progress_bar_reset (DynTransferProgressBar *self)
{
  g_return_if_fail (DYN_IS_TRANSFER_PROGRESS_BAR (self));
  gtk_progress_bar_set_fraction (self->bar, 0);
  gtk_label_set_label (self->label, "");
}
