/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-query-popover"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-query-popover.h"
#include "dyn-table-state.h"

struct _DynQueryPopover
{
  GtkPopover  parent_instance;

  GtkLabel   *message_label;
  GtkListBox *saved_list;
  GtkLabel   *recent_title;
  GtkListBox *recent_list;
};

G_DEFINE_FINAL_TYPE (DynQueryPopover, dyn_query_popover, GTK_TYPE_POPOVER)

static GtkWidget *
placeholder (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
clear (GtkListBox *list)
{
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (list, 0)) != NULL)
    gtk_list_box_remove (list, GTK_WIDGET (row));
}

static GtkWidget *
new_row (const char *title,
         const char *subtitle,
         const char *tooltip)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  gtk_widget_set_tooltip_text (row, tooltip);
  return row;
}

static GtkWidget *
suffix_button (const char *icon,
               const char *tooltip,
               const char *action,
               const char *id)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", id);
  return button;
}

static void
row_activated_cb (GtkListBox      *list,
                  GtkListBoxRow   *row,
                  DynQueryPopover *self)
{
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
button_clicked_cb (GtkButton       *button,
                   DynQueryPopover *self)
{
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
dyn_query_popover_class_init (DynQueryPopoverClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-query-popover.ui");
  gtk_widget_class_bind_template_child (widget_class, DynQueryPopover, message_label);
  gtk_widget_class_bind_template_child (widget_class, DynQueryPopover, saved_list);
  gtk_widget_class_bind_template_child (widget_class, DynQueryPopover, recent_title);
  gtk_widget_class_bind_template_child (widget_class, DynQueryPopover, recent_list);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
}

static void
dyn_query_popover_init (DynQueryPopover *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_list_box_set_placeholder (self->saved_list,
                                placeholder (_("No saved queries for this connection yet. Run a query, then save it "
                                               "with a name.")));
  gtk_list_box_set_placeholder (self->recent_list, placeholder (_("Nothing read from this table yet.")));
  g_signal_connect (self->saved_list, "row-activated", G_CALLBACK (row_activated_cb), self);
  g_signal_connect (self->recent_list, "row-activated", G_CALLBACK (row_activated_cb), self);
  dyn_query_popover_set_recent (self, NULL, NULL);
}

GtkWidget *
dyn_query_popover_new (void)
{
  return g_object_new (DYN_TYPE_QUERY_POPOVER, NULL);
}

void
dyn_query_popover_set_saved (DynQueryPopover *self,
                             GPtrArray       *entries)
{
  g_return_if_fail (DYN_IS_QUERY_POPOVER (self));

  clear (self->saved_list);
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      DynReadEntry *entry = entries->pdata[i];
      const char *id = dyn_read_entry_get_id (entry);
      g_autofree char *what = dyn_read_entry_dup_title (entry);
      g_autofree char *where = dyn_read_entry_dup_subtitle (entry);
      g_autofree char *subtitle = g_strdup_printf ("%s · %s", where, what);
      GtkWidget *row = new_row (dyn_read_entry_get_name (entry), subtitle, dyn_read_entry_get_text (entry));
      GtkWidget *button;

      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.run-saved");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "s", id);
      button = suffix_button ("document-edit-symbolic", _("Rename"), "win.rename-saved", id);
      g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      button = suffix_button ("user-trash-symbolic", _("Delete"), "win.delete-saved", id);
      g_signal_connect (button, "clicked", G_CALLBACK (button_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
      gtk_list_box_append (self->saved_list, row);
    }
}

void
dyn_query_popover_set_recent (DynQueryPopover *self,
                              const char      *table,
                              GPtrArray       *entries)
{
  gint64 now = g_get_real_time ();

  g_return_if_fail (DYN_IS_QUERY_POPOVER (self));

  clear (self->recent_list);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_title), table != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), table != NULL);
  if (table != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Recent in %s"), table);

      gtk_label_set_label (self->recent_title, title);
    }
  for (guint i = 0; table != NULL && entries != NULL && i < entries->len; i++)
    {
      DynReadEntry *entry = entries->pdata[i];
      g_autofree char *title = dyn_read_entry_dup_title (entry);
      g_autofree char *where = dyn_read_entry_dup_subtitle (entry);
      g_autofree char *age = NULL;
      g_autofree char *subtitle = NULL;
      GtkWidget *row;

      if (dyn_read_entry_get_time (entry) > 0)
        {
          age = dyn_describe_read_age (dyn_read_entry_get_time (entry), now);
          subtitle = g_strdup_printf ("%s · %s", where, age);
        }
      row = new_row (title, subtitle ? subtitle : where, dyn_read_entry_get_text (entry));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.run-recent");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (row), "u", i);
      gtk_list_box_append (self->recent_list, row);
    }
}

void
dyn_query_popover_set_message (DynQueryPopover *self,
                               const char      *message)
{
  g_return_if_fail (DYN_IS_QUERY_POPOVER (self));

  gtk_label_set_label (self->message_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

GtkListBox *
dyn_query_popover_get_saved_list (DynQueryPopover *self)
{
  g_return_val_if_fail (DYN_IS_QUERY_POPOVER (self), NULL);
  return self->saved_list;
}

GtkListBox *
dyn_query_popover_get_recent_list (DynQueryPopover *self)
{
  g_return_val_if_fail (DYN_IS_QUERY_POPOVER (self), NULL);
  return self->recent_list;
}
