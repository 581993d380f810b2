/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "dyn-write-confirm-dialog.h"

/* The rows shown at most; the rest are counted in a last row. */
#define MAX_ROWS 200

static GtkWidget *
entry_row (DynWriteSummary *summary,
           guint            index)
{
  const DynWriteEntry *entry = dyn_write_summary_get_entry (summary, index);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *units = dyn_format_write_units (entry->write_units);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *suffix;

  title = entry->key != NULL ? g_strdup_printf ("%s · %s", entry->table, entry->key) : g_strdup (entry->table);
  if (entry->guard != NULL)
    subtitle = g_strdup_printf ("%s — %s", entry->action, entry->guard);
  else
    subtitle = g_strdup (entry->action);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
  suffix = gtk_label_new (units);
  gtk_widget_add_css_class (suffix, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
  return row;
}

GtkWidget *
dyn_write_confirm_dialog_new (GtkWindow       *parent,
                              DynWriteSummary *summary)
{
  g_autofree char *headline = NULL;
  g_autofree char *total = NULL;
  g_autofree char *total_text = NULL;
  GtkWidget *dialog, *box, *list, *scrolled, *label;
  guint n, shown;

  g_return_val_if_fail (summary != NULL, NULL);

  headline = dyn_write_summary_dup_headline (summary);
  dialog = adw_message_dialog_new (parent, dyn_write_summary_get_title (summary), NULL);
  /* Translators: %s is "3 writes · ~6 WCU in all" */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("%s. This is a production connection: check every write before it is sent."),
                                  headline);
  gtk_widget_add_css_class (dialog, "dyn-write-confirm");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  n = dyn_write_summary_get_n_entries (summary);
  shown = MIN (n, MAX_ROWS);
  for (guint i = 0; i < shown; i++)
    gtk_list_box_append (GTK_LIST_BOX (list), entry_row (summary, i));
  if (n > shown)
    {
      GtkWidget *more = adw_action_row_new ();
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more write",
                                                            "and %u more writes", n - shown), n - shown);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (more), text);
      gtk_list_box_append (GTK_LIST_BOX (list), more);
    }
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_box_append (GTK_BOX (box), scrolled);

  total = dyn_format_write_units (dyn_write_summary_get_write_units (summary));
  /* Translators: %s is an estimate such as "~6 WCU" */
  total_text = g_strdup_printf (_("Total: %s"), total);
  label = gtk_label_new (total_text);
  gtk_widget_set_halign (label, GTK_ALIGN_END);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "write", _("_Write to Production"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "write", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_set_default_size (GTK_WINDOW (dialog), 560, -1);

  g_object_set_data_full (G_OBJECT (dialog), "dyn-write-summary", dyn_write_summary_ref (summary),
                          (GDestroyNotify) dyn_write_summary_unref);
  g_object_set_data (G_OBJECT (dialog), "dyn-write-rows", GUINT_TO_POINTER (shown));
  return dialog;
}

DynWriteSummary *
dyn_write_confirm_dialog_get_summary (GtkWidget *dialog)
{
  return g_object_get_data (G_OBJECT (dialog), "dyn-write-summary");
}

guint
dyn_write_confirm_dialog_get_n_rows (GtkWidget *dialog)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "dyn-write-rows"));
}
