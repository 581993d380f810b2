/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's way back to what it read: Back and Forward through its
 * reads and followed key links, the recent reads of each table and the
 * saved queries of the connection (the popover beside Back and Forward);
 * and rows copied as JSON lines.
 *
 * Going back or forward restores the builder's text and index and reads
 * again: that costs what the read costs (the status line says how much).
 * Only when the entry's table is open elsewhere in the window with that
 * very read kept (switching tables keeps it) are its rows shown as kept,
 * without a request. Staged edits are never touched: the table's edit
 * session stays, and another table is opened the way the sidebar opens
 * it, which keeps the staged work of the table left. */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-item-copy.h"
#include "dyn-window-private.h"

/* Entries Back can reach. */
#define HISTORY_MAX 100

/* Problems with the saved-query file: said once in the error bar and
 * always in the popover. */
static void
show_queries_problem (DynWindow    *self,
                      const GError *error)
{
  if (error == NULL || g_strcmp0 (self->queries_message, error->message) == 0)
    return;
  g_free (self->queries_message);
  self->queries_message = g_strdup (error->message);
  _dyn_window_show_message (self, error->message);
}

static void
refresh_popover (DynWindow *self)
{
  const GError *error = dyn_saved_queries_get_error (self->queries);
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GPtrArray) recent = NULL;

  if (self->query_popover == NULL || self->queries == NULL)
    return;
  if (self->connection != NULL)
    saved = dyn_saved_queries_dup_saved (self->queries, self->connection);
  if (self->connection != NULL && self->table != NULL)
    recent = dyn_saved_queries_dup_recent (self->queries, self->connection, self->table);
  dyn_query_popover_set_saved (self->query_popover, saved);
  dyn_query_popover_set_recent (self->query_popover, self->connection ? self->table : NULL, recent);
  dyn_query_popover_set_message (self->query_popover, error ? error->message : NULL);
}

/* A hidden popover fills itself when shown. */
static void
queries_changed_cb (DynSavedQueries *queries,
                    DynWindow       *self)
{
  if (self->query_popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->query_popover)))
    refresh_popover (self);
}

static void
popover_show_cb (GtkWidget *popover,
                 DynWindow *self)
{
  refresh_popover (self);
}

void
_dyn_window_history_update_actions (DynWindow *self)
{
  gboolean connected = self->connection != NULL && self->client != NULL;

  if (self->history == NULL)
    return;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.go-back",
                                 connected && dyn_history_can_go_back (self->history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.go-forward",
                                 connected && dyn_history_can_go_forward (self->history));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-query",
                                 connected && dyn_history_get_current (self->history) != NULL);
}

static void
history_notify_cb (DynHistory *history,
                   GParamSpec *pspec,
                   DynWindow  *self)
{
  _dyn_window_history_update_actions (self);
}

/* Recording. */

static gboolean
same_request (DynReadRequest *a,
              DynReadRequest *b)
{
  const DynRequest *ra = dyn_read_request_get_request (a);
  const DynRequest *rb = dyn_read_request_get_request (b);
  g_autoptr(JsonNode) ja = NULL;
  g_autoptr(JsonNode) jb = NULL;

  if (ra == NULL || rb == NULL || ra->op != rb->op)
    return FALSE;
  ja = dyn_request_to_json (ra);
  jb = dyn_request_to_json (rb);
  return json_node_equal (ja, jb);
}

/* The entry for @read: as it was recorded when it first ran (a table
 * switched back to, a read stopped and read again), else what the builder
 * says now, or a Scan of everything when the builder did not make it. */
static DynReadEntry *
entry_for_read (DynWindow      *self,
                DynReadRequest *read)
{
  DynReadRequest *builder_read;
  g_autofree char *text = NULL;
  DynReadOrigin origin;

  if (dyn_read_request_get_request (read) == NULL)
    return NULL;
  for (guint i = dyn_history_get_length (self->history); i-- > 0;)
    {
      DynReadEntry *known = dyn_history_get_entry (self->history, i);

      if (dyn_read_entry_get_read (known) == read)
        {
          DynReadEntry *copy = dyn_read_entry_copy_as (known, NULL, NULL);

          dyn_read_entry_set_read (copy, read);
          return copy;
        }
    }
  text = dyn_expression_builder_dup_text (self->builder);
  builder_read = dyn_expression_builder_get_read_request (self->builder);
  if (builder_read != NULL && (builder_read == read || same_request (builder_read, read)))
    origin = self->next_origin;
  else
    origin = DYN_READ_ORIGIN_SCAN;
  return dyn_read_entry_new_for_read (read, text, origin, origin == DYN_READ_ORIGIN_FOLLOW ? self->next_via : NULL);
}

static void
add_recent (DynWindow    *self,
            DynReadEntry *entry)
{
  g_autoptr(GError) error = NULL;

  if (self->connection == NULL)
    return;
  if (!dyn_saved_queries_add_recent (self->queries, self->connection, entry, &error))
    show_queries_problem (self, error);
}

/* A read starts (_dyn_window_start_read()): a new entry, unless it is the
 * current one again (F5) or Back/Forward is running the current one. */
void
_dyn_window_history_record_read (DynWindow      *self,
                                 DynReadRequest *read)
{
  DynReadEntry *current;
  g_autoptr(DynReadEntry) entry = NULL;

  if (self->history == NULL)
    return;
  current = dyn_history_get_current (self->history);
  if (current != NULL && dyn_read_entry_get_read (current) == read)
    return;
  entry = entry_for_read (self, read);
  if (entry == NULL)
    return;
  if (self->history_moving)
    {
      if (current != NULL && dyn_read_entry_equal (current, entry))
        dyn_read_entry_set_read (current, read);
      return;
    }
  dyn_read_entry_set_time (entry, g_get_real_time ());
  if (!dyn_history_push (self->history, entry))
    dyn_read_entry_set_read (current, read);
  add_recent (self, entry);
  _dyn_window_history_update_actions (self);
}

/* A table shown again as it was kept: its read becomes the current entry
 * (not a new recent read: nothing was read). */
void
_dyn_window_history_record_shown (DynWindow *self)
{
  DynReadEntry *current;
  g_autoptr(DynReadEntry) entry = NULL;

  if (self->history == NULL || self->history_moving || self->read == NULL)
    return;
  current = dyn_history_get_current (self->history);
  if (current != NULL && dyn_read_entry_get_read (current) == self->read)
    return;
  entry = entry_for_read (self, self->read);
  if (entry != NULL && !dyn_history_push (self->history, entry))
    dyn_read_entry_set_read (current, self->read);
  _dyn_window_history_update_actions (self);
}

void
_dyn_window_history_reset (DynWindow *self)
{
  if (self->history == NULL)
    return;
  dyn_history_clear (self->history);
  g_clear_pointer (&self->history_pending, dyn_read_entry_unref);
  refresh_popover (self);
}

/* Running an entry. */

/* Shows @entry on the open table: the builder's text and index as they
 * were, then the read (or, going back or forward to the very read kept
 * with the table, its rows as they are). */
/* The builder's read options as the entry's request had them: the
 * operation (GetItem by key), consistent read, order, count only and a
 * projection written without placeholders. */
static void
restore_options (DynWindow    *self,
                 DynReadEntry *entry)
{
  const DynRequest *request = dyn_read_entry_get_request (entry);
  gboolean by_key;

  if (request == NULL || dyn_read_entry_get_origin (entry) == DYN_READ_ORIGIN_SCAN)
    return;
  by_key = request->op == DYN_OP_GET_ITEM;
  dyn_expression_builder_set_by_key (self->builder, by_key);
  if (by_key)
    dyn_expression_builder_set_key (self->builder, request->key);
  dyn_expression_builder_set_consistent_read (self->builder, request->consistent_read);
  dyn_expression_builder_set_descending (self->builder, request->op == DYN_OP_QUERY && !request->scan_forward);
  dyn_expression_builder_set_count_only (self->builder, g_strcmp0 (request->select, "COUNT") == 0);
  if (request->projection == NULL)
    dyn_expression_builder_set_projection (self->builder, NULL);
  else
    {
      /* As sent it names attributes through placeholders: the builder shows
       * the names themselves. */
      g_autoptr(DynExprNode) node = dyn_expr_parse (request->projection, DYN_EXPR_ROLE_PROJECTION,
                                                    request->names, NULL, NULL, NULL);
      g_autofree char *text = node ? dyn_expr_node_to_string (node) : NULL;

      if (text != NULL)
        dyn_expression_builder_set_projection (self->builder, text);
    }
}

static void
run_entry_now (DynWindow    *self,
               DynReadEntry *entry,
               gboolean      moving)
{
  DynReadOrigin origin = dyn_read_entry_get_origin (entry);
  const char *text = dyn_read_entry_get_text (entry);
  gboolean kept;
  g_autoptr(GError) error = NULL;

  kept = moving && self->read != NULL && self->pager != NULL && dyn_read_entry_get_read (entry) == self->read;
  self->history_moving = moving;
  _dyn_window_select_index (self, dyn_read_entry_get_index (entry));
  restore_options (self, entry);
  dyn_expression_builder_set_text (self->builder, text);
  if (*text != '\0')
    gtk_revealer_set_reveal_child (self->builder_revealer, TRUE);
  if (kept)
    _dyn_window_update_status (self);
  else if (origin == DYN_READ_ORIGIN_SCAN)
    _dyn_window_start_read (self, _dyn_window_new_scan (self));
  else
    {
      self->next_origin = origin;
      g_free (self->next_via);
      self->next_via = g_strdup (dyn_read_entry_get_via (entry));
      if (!_dyn_window_run_builder (self, &error))
        _dyn_window_show_error (self, _("The query"), error);
      self->next_origin = DYN_READ_ORIGIN_BUILDER;
      g_clear_pointer (&self->next_via, g_free);
    }
  self->history_moving = FALSE;
  _dyn_window_history_update_actions (self);
}

gboolean
_dyn_window_history_run_pending (DynWindow *self)
{
  g_autoptr(DynReadEntry) entry = g_steal_pointer (&self->history_pending);

  if (entry == NULL || g_strcmp0 (dyn_read_entry_get_table (entry), self->table) != 0)
    return FALSE;
  run_entry_now (self, entry, self->pending_moving);
  return TRUE;
}

/* Whether @entry can be shown now; otherwise says why. Another table is
 * opened as the sidebar opens it, which waits for a commit under way. */
static gboolean
can_show (DynWindow    *self,
          DynReadEntry *entry)
{
  if (self->connection == NULL || self->client == NULL)
    return FALSE;
  if (g_strcmp0 (self->table, dyn_read_entry_get_table (entry)) != 0 && self->session != NULL &&
      dyn_edit_session_get_busy (self->session))
    {
      _dyn_window_show_message (self, _("Wait until the commit has finished"));
      return FALSE;
    }
  return TRUE;
}

/* @moving: Back or Forward (the history has moved to @entry already). */
static void
show_entry (DynWindow    *self,
            DynReadEntry *entry,
            gboolean      moving)
{
  const char *table = dyn_read_entry_get_table (entry);

  if (g_strcmp0 (self->table, table) != 0 || self->keys == NULL || self->gone)
    {
      g_clear_pointer (&self->history_pending, dyn_read_entry_unref);
      self->history_pending = dyn_read_entry_ref (entry);
      self->pending_moving = moving;
      self->history_moving = moving;
      _dyn_window_open_table_now (self, table);
      self->history_moving = FALSE;
      /* Not described yet: it runs when the description arrives. */
      if (self->keys == NULL || g_strcmp0 (self->table, table) != 0)
        return;
      g_clear_pointer (&self->history_pending, dyn_read_entry_unref);
    }
  run_entry_now (self, entry, moving);
}

static void
navigate (DynWindow *self,
          gboolean   forward)
{
  DynReadEntry *target = forward ? dyn_history_peek_forward (self->history) : dyn_history_peek_back (self->history);

  g_debug ("history: %s from %u of %u", forward ? "forward" : "back", dyn_history_get_position (self->history),
           dyn_history_get_length (self->history));
  if (target == NULL || !can_show (self, target))
    return;
  if (forward)
    dyn_history_go_forward (self->history);
  else
    dyn_history_go_back (self->history);
  show_entry (self, target, TRUE);
}

static void
go_back_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  navigate (DYN_WINDOW (widget), FALSE);
}

static void
go_forward_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  navigate (DYN_WINDOW (widget), TRUE);
}

/* The mouse's back and forward buttons. */
static void
mouse_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  DynWindow       *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button != 8 && button != 9)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  navigate (self, button == 9);
}

static void
run_recent_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(GPtrArray) recent = NULL;
  guint position = g_variant_get_uint32 (parameter);

  gtk_popover_popdown (GTK_POPOVER (self->query_popover));
  if (self->connection == NULL || self->table == NULL)
    return;
  recent = dyn_saved_queries_dup_recent (self->queries, self->connection, self->table);
  if (position >= recent->len || !can_show (self, recent->pdata[position]))
    return;
  show_entry (self, recent->pdata[position], FALSE);
}

static void
run_saved_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynReadEntry *entry;

  gtk_popover_popdown (GTK_POPOVER (self->query_popover));
  if (self->connection == NULL)
    return;
  entry = dyn_saved_queries_lookup (self->queries, self->connection, g_variant_get_string (parameter, NULL));
  if (entry == NULL)
    {
      _dyn_window_show_message (self, _("The saved query no longer exists"));
      return;
    }
  if (!can_show (self, entry))
    return;
  {
    g_autoptr(DynReadEntry) held = dyn_read_entry_ref (entry);

    show_entry (self, held, FALSE);
  }
}

/* Naming: the question with a name entry, for saving and renaming. */

static void
name_changed_cb (GtkEditable      *entry,
                 AdwMessageDialog *dialog)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "save", *name != '\0');
}

static GtkWidget *
name_dialog (DynWindow    *self,
             const char   *heading,
             const char   *save_label,
             DynReadEntry *entry,
             const char   *name)
{
  g_autofree char *what = dyn_read_entry_dup_title (entry);
  g_autofree char *where = dyn_read_entry_dup_subtitle (entry);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, NULL);
  GtkWidget *text = gtk_entry_new ();

  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog), "%s\n%s", where, what);
  gtk_entry_set_placeholder_text (GTK_ENTRY (text), _("Name"));
  gtk_entry_set_activates_default (GTK_ENTRY (text), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (text), name ? name : "");
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), text);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "save", save_label, NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (text, "changed", G_CALLBACK (name_changed_cb), dialog);
  name_changed_cb (GTK_EDITABLE (text), ADW_MESSAGE_DIALOG (dialog));
  g_object_set_data (G_OBJECT (dialog), "dyn-name-entry", text);
  g_object_set_data_full (G_OBJECT (dialog), "dyn-entry", dyn_read_entry_ref (entry),
                          (GDestroyNotify) dyn_read_entry_unref);
  g_set_weak_pointer (&self->query_dialog, dialog);
  gtk_widget_grab_focus (text);
  return dialog;
}

static const char *
dialog_name (AdwMessageDialog *dialog)
{
  return gtk_editable_get_text (GTK_EDITABLE (g_object_get_data (G_OBJECT (dialog), "dyn-name-entry")));
}

static void
save_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  DynWindow        *self)
{
  DynReadEntry *entry = g_object_get_data (G_OBJECT (dialog), "dyn-entry");
  g_autoptr(GError) error = NULL;
  DynReadEntry *saved;

  if (g_strcmp0 (response, "save") != 0 || self->connection == NULL)
    return;
  saved = dyn_saved_queries_save (self->queries, self->connection, entry, dialog_name (dialog), &error);
  if (saved == NULL)
    {
      _dyn_window_show_error (self, _("Saving the query"), error);
      return;
    }
  {
    g_autofree char *text = g_strdup_printf (_("Saved “%s”"), dyn_read_entry_get_name (saved));

    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
  }
}

/* Saves the read shown (the current entry), as it was run. */
static void
save_query_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynReadEntry *current = dyn_history_get_current (self->history);
  g_autofree char *suggestion = NULL;
  GtkWidget *dialog;

  if (current == NULL || self->connection == NULL)
    return;
  suggestion = dyn_read_entry_dup_title (current);
  dialog = name_dialog (self, _("Save Query"), _("_Save"), current, suggestion);
  g_signal_connect_object (dialog, "response", G_CALLBACK (save_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
rename_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  DynReadEntry *entry = g_object_get_data (G_OBJECT (dialog), "dyn-entry");
  g_autoptr(GError) error = NULL;

  if (g_strcmp0 (response, "save") != 0 || self->connection == NULL)
    return;
  if (!dyn_saved_queries_rename (self->queries, self->connection, dyn_read_entry_get_id (entry),
                                 dialog_name (dialog), &error))
    _dyn_window_show_error (self, _("Renaming the query"), error);
}

static void
rename_saved_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynReadEntry *entry;
  GtkWidget *dialog;

  if (self->connection == NULL)
    return;
  entry = dyn_saved_queries_lookup (self->queries, self->connection, g_variant_get_string (parameter, NULL));
  if (entry == NULL)
    return;
  dialog = name_dialog (self, _("Rename Saved Query"), _("_Rename"), entry, dyn_read_entry_get_name (entry));
  g_signal_connect_object (dialog, "response", G_CALLBACK (rename_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
delete_saved_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynReadEntry) entry = NULL;
  g_autofree char *text = NULL;
  AdwToast *toast;

  if (self->connection == NULL || dyn_saved_queries_lookup (self->queries, self->connection, id) == NULL)
    return;
  entry = dyn_read_entry_ref (dyn_saved_queries_lookup (self->queries, self->connection, id));
  if (!dyn_saved_queries_remove (self->queries, self->connection, id, &error))
    {
      _dyn_window_show_error (self, _("Deleting the query"), error);
      return;
    }
  g_clear_pointer (&self->deleted_query, dyn_read_entry_unref);
  self->deleted_query = g_steal_pointer (&entry);
  text = g_strdup_printf (_("Deleted “%s”"), dyn_read_entry_get_name (self->deleted_query));
  toast = adw_toast_new (text);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "win.undo-delete-saved");
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
undo_delete_saved_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(DynReadEntry) entry = g_steal_pointer (&self->deleted_query);
  g_autoptr(GError) error = NULL;

  if (entry == NULL || self->connection == NULL)
    return;
  if (dyn_saved_queries_save (self->queries, self->connection, entry, dyn_read_entry_get_name (entry), &error) == NULL)
    _dyn_window_show_error (self, _("Saving the query"), error);
}

/* Copying rows. */

static void
copy_rows (DynWindow     *self,
           DynCopyFormat  format,
           gboolean       key_only)
{
  g_autoptr(GPtrArray) rows = dyn_item_grid_dup_selected_items (self->grid);
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  guint n = rows->len;

  if (n == 0)
    {
      _dyn_window_show_message (self, _("Select the rows to copy first"));
      return;
    }
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_item_object_get_item (rows->pdata[i]));
  text = dyn_items_to_json_lines ((DynValue * const *) items->pdata, n, format,
                                  key_only && self->keys ? &self->keys->table.keys : NULL);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  if (key_only)
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Copied %u key", "Copied %u keys", n), n);
  else if (format == DYN_COPY_FORMAT_DDB)
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Copied %u item as DynamoDB JSON",
                                            "Copied %u items as DynamoDB JSON lines", n), n);
  else
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Copied %u item as JSON",
                                            "Copied %u items as JSON lines", n), n);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

static DynCopyFormat
chosen_format (DynWindow *self)
{
  DynCopyFormat format = DYN_COPY_FORMAT_PLAIN;

  dyn_copy_format_from_string (self->copy_format, &format);
  return format;
}

/* Ctrl+C: in the format the "copy-format" setting says. */
static void
copy_rows_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  copy_rows (self, chosen_format (self), FALSE);
}

static void
copy_rows_json_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  copy_rows (DYN_WINDOW (widget), DYN_COPY_FORMAT_PLAIN, FALSE);
}

static void
copy_rows_ddb_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  copy_rows (DYN_WINDOW (widget), DYN_COPY_FORMAT_DDB, FALSE);
}

static void
copy_key_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  copy_rows (self, chosen_format (self), TRUE);
}

void
_dyn_window_history_init (DynWindow *self)
{
  g_autoptr(GError) error = NULL;
  GtkEventController *keys;
  GtkGesture *mouse;

  self->history = dyn_history_new (HISTORY_MAX);
  g_signal_connect (self->history, "notify", G_CALLBACK (history_notify_cb), self);
  self->queries = dyn_saved_queries_new (NULL);
  if (!dyn_saved_queries_load (self->queries, &error))
    show_queries_problem (self, error);
  g_signal_connect (self->queries, "changed", G_CALLBACK (queries_changed_cb), self);
  g_signal_connect (self->query_popover, "show", G_CALLBACK (popover_show_cb), self);

  /* Ctrl+C on the rows (an entry in a cell keeps its own). */
  keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_c, GDK_CONTROL_MASK),
                                                          gtk_named_action_new ("win.copy-rows")));
  gtk_widget_add_controller (GTK_WIDGET (self->grid), keys);
  dyn_item_grid_set_row_menu (self->grid, self->row_menu);

  mouse = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (mouse), 0);
  g_signal_connect (mouse, "pressed", G_CALLBACK (mouse_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (mouse));
  refresh_popover (self);
}

void
_dyn_window_history_dispose (DynWindow *self)
{
  if (self->query_dialog != NULL)
    {
      GtkWidget *dialog = self->query_dialog;

      g_clear_weak_pointer (&self->query_dialog);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  if (self->history != NULL)
    g_signal_handlers_disconnect_by_data (self->history, self);
  if (self->queries != NULL)
    g_signal_handlers_disconnect_by_data (self->queries, self);
  g_clear_object (&self->history);
  g_clear_object (&self->queries);
  g_clear_pointer (&self->history_pending, dyn_read_entry_unref);
  g_clear_pointer (&self->deleted_query, dyn_read_entry_unref);
  g_clear_pointer (&self->next_via, g_free);
  g_clear_pointer (&self->queries_message, g_free);
}

void
_dyn_window_class_history_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.go-back", NULL, go_back_action);
  gtk_widget_class_install_action (widget_class, "win.go-forward", NULL, go_forward_action);
  gtk_widget_class_install_action (widget_class, "win.run-recent", "u", run_recent_action);
  gtk_widget_class_install_action (widget_class, "win.run-saved", "s", run_saved_action);
  gtk_widget_class_install_action (widget_class, "win.save-query", NULL, save_query_action);
  gtk_widget_class_install_action (widget_class, "win.rename-saved", "s", rename_saved_action);
  gtk_widget_class_install_action (widget_class, "win.delete-saved", "s", delete_saved_action);
  gtk_widget_class_install_action (widget_class, "win.undo-delete-saved", NULL, undo_delete_saved_action);
  gtk_widget_class_install_action (widget_class, "win.copy-rows", NULL, copy_rows_action);
  gtk_widget_class_install_action (widget_class, "win.copy-rows-json", NULL, copy_rows_json_action);
  gtk_widget_class_install_action (widget_class, "win.copy-rows-ddb", NULL, copy_rows_ddb_action);
  gtk_widget_class_install_action (widget_class, "win.copy-key", NULL, copy_key_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.go-back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "win.go-forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Back, 0, "win.go-back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Forward, 0, "win.go-forward", NULL);
}
