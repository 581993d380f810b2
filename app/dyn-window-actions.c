/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's actions of reading, tables, connections and views, and their
 * keys. */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-connection-editor.h"
#include "dyn-item-editor.h"
#include "dyn-settings.h"
#include "dyn-table.h"
#include "dyn-table-state.h"
#include "dyn-value-format.h"
#include "dyn-window-private.h"

/* Actions. */

static void
open_table_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  dyn_window_open_table (DYN_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
open_connection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->connections)); i++)
    {
      g_autoptr(DynConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (dyn_connection_get_id (connection), id) == 0)
        {
          dyn_window_open_connection (self, connection);
          return;
        }
    }
}

static void
scan_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  _dyn_window_start_read (self, _dyn_window_new_scan (self));
}

/* F5: the current read again from its start, with a small first page; a
 * staged change keeps its mark and its value in the new rows. */
static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  /* The same read request again: a new pager starts at its beginning. */
  if (self->read == NULL)
    _dyn_window_start_read (self, _dyn_window_new_scan (self));
  else
    _dyn_window_start_read (self, g_object_ref (self->read));
}

static void
query_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!_dyn_window_run_builder (self, &error))
    _dyn_window_show_error (self, _("The query"), error);
}

static void
load_more_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _dyn_window_load_next (DYN_WINDOW (widget));
}

static void
load_all_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  self->load_all = TRUE;
  _dyn_window_load_next (self);
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  self->load_all = FALSE;
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

/* win.follow-index (ss): an attribute and, as DynamoDB JSON, its value or
 * the whole item (a map; a key's value never is one), which a
 * multi-attribute key takes its other values from. Reads what the item
 * shares by that key (dyn_table_keys_follow). */
static void
follow_index_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *name = NULL, *json = NULL;
  g_autoptr(DynValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprNode) condition = NULL;
  g_autofree char *text = NULL;
  g_autofree char *index = NULL;

  g_variant_get (parameter, "(&s&s)", &name, &json);
  {
    g_autoptr(JsonNode) node = json_from_string (json, &error);

    if (node != NULL)
      value = dyn_value_from_ddb_json (node, &error);
  }
  if (value == NULL)
    {
      _dyn_window_show_error (self, _("Following the key"), error);
      return;
    }
  condition = dyn_table_keys_follow (self->keys, name, value, &index, &error);
  if (condition == NULL)
    {
      _dyn_window_show_error (self, _("Following the key"), error);
      return;
    }
  text = dyn_expr_node_to_string (condition);
  _dyn_window_select_index (self, index);
  dyn_expression_builder_set_text (self->builder, text);
  gtk_revealer_set_reveal_child (self->builder_revealer, TRUE);
  /* Back returns from the link (dyn-window-history.c). */
  self->next_origin = DYN_READ_ORIGIN_FOLLOW;
  g_free (self->next_via);
  self->next_via = g_strdup (name);
  gtk_widget_activate_action (widget, "win.query", NULL);
  self->next_origin = DYN_READ_ORIGIN_BUILDER;
  g_clear_pointer (&self->next_via, g_free);
}

void
_dyn_window_follow_key_cb (DynItemGrid *grid,
                           const char  *name,
                           DynValue    *value,
                           DynWindow   *self)
{
  g_autofree char *json = dyn_value_to_ddb_json_string (value);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.follow-index", "(ss)", name, json);
}

gboolean
_dyn_window_follow_item_cb (DynItemGrid *grid,
                            const char  *name,
                            DynValue    *item,
                            DynWindow   *self)
{
  g_autofree char *json = dyn_value_to_ddb_json_string (item);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.follow-index", "(ss)", name, json);
  return TRUE;
}

void
_dyn_window_near_end_cb (DynItemGrid *grid,
                         DynWindow   *self)
{
  _dyn_window_load_next (self);
}

static void
toggle_grouping_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  gboolean grouped = !dyn_item_grid_get_grouped (self->grid);

  dyn_item_grid_set_grouped (self->grid, grouped);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "group-by-collection", grouped);
  if (self->pager != NULL)
    _dyn_window_update_status (self);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
toggle_builder_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->builder_revealer, !gtk_revealer_get_reveal_child (self->builder_revealer));
}

static void
toggle_detail_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  _dyn_window_show_side_page (self, "detail", TRUE);
}

static void
focus_filter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  dyn_connection_sidebar_focus_filter (self->sidebar);
}

static void
dismiss_error_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _dyn_window_clear_error (DYN_WINDOW (widget));
}

static void
refresh_tables_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->client != NULL)
    _dyn_window_list_tables (self);
}

static void
editor_saved_cb (DynConnectionEditor *editor,
                 DynConnection       *connection,
                 DynWindow           *self)
{
  g_autofree char *text = g_strdup_printf (_("Connection “%s” saved"), dyn_connection_get_name (connection));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
  dyn_window_open_connection (self, connection);
}

static void
new_connection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynConnectionEditor *editor = dyn_connection_editor_new (GTK_WINDOW (self), self->store, NULL);

  g_signal_connect_object (editor, "saved", G_CALLBACK (editor_saved_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
edit_connection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynConnectionEditor *editor;

  if (self->connection == NULL)
    return;
  editor = dyn_connection_editor_new (GTK_WINDOW (self), self->store, self->connection);
  g_signal_connect_object (editor, "saved", G_CALLBACK (editor_saved_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

void
_dyn_window_removed_cb (GObject      *source,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_connection_store_remove_finish (DYN_CONNECTION_STORE (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _dyn_window_show_error (self, _("Deleting the connection"), error);
      return;
    }
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Connection deleted")));
}

static void
delete_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  DynConnection *connection = g_object_get_data (G_OBJECT (dialog), "dyn-connection");

  if (g_strcmp0 (response, "delete") != 0 || connection == NULL)
    return;
  if (connection == self->connection)
    _dyn_window_when_staged_handled (self, AFTER_DELETE_CONNECTION, connection, NULL, NULL);
  else
    dyn_connection_store_remove_async (self->store, connection, self->cancellable, _dyn_window_removed_cb, g_object_ref (self));
}

static void
delete_connection_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  GtkWidget *dialog;

  if (self->connection == NULL)
    return;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Delete Connection?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("“%s” and its secret key in the keyring will be deleted."),
                                  dyn_connection_get_name (self->connection));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "delete", _("_Delete"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  g_object_set_data_full (G_OBJECT (dialog), "dyn-connection", g_object_ref (self->connection), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  gtk_stack_set_visible_child_name (DYN_WINDOW (widget)->view_stack, g_variant_get_string (parameter, NULL));
}

/* The side pane: the item's details or the staged changes. With @toggle,
 * showing the page already shown hides the pane. */
void
_dyn_window_show_side_page (DynWindow  *self,
                            const char *name,
                            gboolean    toggle)
{
  GtkWidget *pane = GTK_WIDGET (self->side_stack);
  gboolean shown = gtk_widget_get_visible (pane) &&
                   g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), name) == 0;

  if (toggle && shown)
    {
      gtk_widget_set_visible (pane, FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->side_stack, name);
  gtk_widget_set_visible (pane, TRUE);
  /* The staged list needs more room than the detail. */
  if (g_strcmp0 (name, "changes") == 0)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self->paned));

      if (width > 0 && gtk_paned_get_position (self->paned) > width - 460)
        gtk_paned_set_position (self->paned, MAX (width - 460, 320));
    }
}

/* The actions of reading, tables, connections and views, with their keys. */
void
_dyn_window_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-table", "s", open_table_action);
  gtk_widget_class_install_action (widget_class, "win.open-connection", "s", open_connection_action);
  gtk_widget_class_install_action (widget_class, "win.scan", NULL, scan_action);
  gtk_widget_class_install_action (widget_class, "win.refresh", NULL, refresh_action);
  gtk_widget_class_install_action (widget_class, "win.query", NULL, query_action);
  gtk_widget_class_install_action (widget_class, "win.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "win.load-all", NULL, load_all_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.follow-index", "(ss)", follow_index_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-grouping", NULL, toggle_grouping_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-builder", NULL, toggle_builder_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-detail", NULL, toggle_detail_action);
  gtk_widget_class_install_action (widget_class, "win.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-error", NULL, dismiss_error_action);
  gtk_widget_class_install_action (widget_class, "win.refresh-tables", NULL, refresh_tables_action);
  gtk_widget_class_install_action (widget_class, "win.new-connection", NULL, new_connection_action);
  gtk_widget_class_install_action (widget_class, "win.edit-connection", NULL, edit_connection_action);
  gtk_widget_class_install_action (widget_class, "win.delete-connection", NULL, delete_connection_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.focus-filter", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.refresh-tables", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.load-more", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.load-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-load", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.toggle-grouping", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.toggle-builder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.query", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "win.toggle-detail", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-connection", NULL);
}
