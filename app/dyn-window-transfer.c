/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's Export and Import (widgets/dyn-transfer-export-dialog,
 * dyn-transfer-import-dialog): win.export (Ctrl+Shift+E) exports the open
 * table, one of its indexes or the result shown; win.import (Ctrl+Shift+O)
 * imports a file or an S3 export folder into the open table or a new one.
 * The dialogs run the jobs; the window shows a toast with the count and the
 * cost when one is done, and reads the table again after an import into the
 * table open (the table list after one into a new table). */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-transfer-export-dialog.h"
#include "dyn-transfer-import-dialog.h"
#include "dyn-window-private.h"

void
_dyn_window_transfer_update_actions (DynWindow *self)
{
  gboolean have_table = self->keys != NULL && self->client != NULL && !self->gone;
  gboolean read_only = _dyn_window_is_read_only (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", have_table);
  /* A new table can be made without one open; a read-only connection writes nothing. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.import", self->client != NULL && !read_only);
}

static guint64
item_count (DynWindow *self)
{
  JsonObject *table = self->description;

  if (table != NULL && json_object_has_member (table, "Table"))
    table = json_object_get_object_member (table, "Table");
  if (table == NULL || !json_object_has_member (table, "ItemCount"))
    return 0;
  return (guint64) MAX (json_object_get_int_member (table, "ItemCount"), 0);
}

static void
set_dialog (DynWindow *self,
            GtkWidget *dialog)
{
  if (self->transfer_dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->transfer_dialog), (gpointer *) &self->transfer_dialog);
  self->transfer_dialog = dialog;
  if (dialog != NULL)
    g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->transfer_dialog);
}

static void
export_finished_cb (DynTransferExportDialog *dialog,
                    const char              *text,
                    DynWindow               *self)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynTransferExportDialog *dialog;
  g_autofree char *label = NULL;

  if (self->keys == NULL || self->client == NULL)
    return;
  if (self->transfer_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->transfer_dialog));
      return;
    }
  if (self->request != NULL)
    label = dyn_export_describe_request (self->request);
  dialog = dyn_transfer_export_dialog_new (GTK_WINDOW (self), self->client, self->keys, self->request, label,
                                           item_count (self));
  /* The result shown is what Export offers first when it is a read of its own. */
  if (self->request != NULL && self->request->op == DYN_OP_QUERY)
    dyn_transfer_export_dialog_set_source (dialog, DYN_EXPORT_SOURCE_RESULT, NULL);
  else if (self->request != NULL && self->request->index != NULL)
    dyn_transfer_export_dialog_set_source (dialog, DYN_EXPORT_SOURCE_INDEX, self->request->index);
  g_signal_connect_object (dialog, "finished", G_CALLBACK (export_finished_cb), self, 0);
  set_dialog (self, GTK_WIDGET (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
import_finished_cb (DynTransferImportDialog *dialog,
                    const char              *text,
                    const char              *table,
                    DynWindow               *self)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
  if (self->client == NULL)
    return;
  if (g_strcmp0 (table, self->table) == 0)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.refresh", NULL);
  else if (self->tables == NULL || !g_strv_contains ((const char * const *) self->tables, table))
    _dyn_window_list_tables (self);
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynTransferImportDialog *dialog;

  if (self->client == NULL)
    return;
  if (_dyn_window_is_read_only (self))
    {
      _dyn_window_refuse_read_only (self);
      return;
    }
  if (self->transfer_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->transfer_dialog));
      return;
    }
  dialog = dyn_transfer_import_dialog_new (GTK_WINDOW (self), self->client, self->gone ? NULL : self->keys);
  dyn_transfer_import_dialog_set_guardrail (dialog, _dyn_window_get_guardrail (self));
  g_signal_connect_object (dialog, "finished", G_CALLBACK (import_finished_cb), self, 0);
  set_dialog (self, GTK_WIDGET (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
}

GtkWindow *
dyn_window_get_transfer_dialog (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->transfer_dialog ? GTK_WINDOW (self->transfer_dialog) : NULL;
}

void
_dyn_window_transfer_dispose (DynWindow *self)
{
  if (self->transfer_dialog != NULL)
    {
      GtkWidget *dialog = self->transfer_dialog;

      set_dialog (self, NULL);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

void
_dyn_window_class_transfer_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.import", NULL, import_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.import", NULL);
}
