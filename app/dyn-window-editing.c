/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's editing: the open table's edit session, the item editor, commits
 * and undo, and the question before staged work would be lost (closing,
 * quitting, another connection). */

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

/* The sessions with staged changes, each table's (the one open and the
 * ones kept), and their tables. A table that was deleted can take no
 * commit: its changes are not counted. */
guint
_dyn_window_collect_staged (DynWindow  *self,
                            GPtrArray  *sessions,
                            GPtrArray  *tables)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  if (self->session != NULL && !self->gone && dyn_edit_session_get_n_changes (self->session) > 0)
    {
      n += dyn_edit_session_get_n_changes (self->session);
      if (sessions != NULL)
        g_ptr_array_add (sessions, g_object_ref (self->session));
      if (tables != NULL)
        g_ptr_array_add (tables, g_strdup (self->table));
    }
  g_hash_table_iter_init (&iter, self->states);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      DynTableState *state = value;
      DynEditSession *session = state->session ? DYN_EDIT_SESSION (state->session) : NULL;

      if (session == NULL || state->gone || dyn_edit_session_get_n_changes (session) == 0)
        continue;
      n += dyn_edit_session_get_n_changes (session);
      if (sessions != NULL)
        g_ptr_array_add (sessions, g_object_ref (session));
      if (tables != NULL)
        g_ptr_array_add (tables, g_strdup (state->table));
    }
  return n;
}

void
_dyn_window_clear_after (DynWindow *self)
{
  self->after = AFTER_NOTHING;
  g_clear_object (&self->after_connection);
  g_clear_object (&self->after_client);
  g_clear_pointer (&self->after_table, g_free);
}

/* Does what waited for the staged changes. */
static void
run_after (DynWindow *self)
{
  AfterStaged after = self->after;
  g_autoptr(DynConnection) connection = g_steal_pointer (&self->after_connection);
  g_autoptr(DynClient) client = g_steal_pointer (&self->after_client);
  g_autofree char *table = g_steal_pointer (&self->after_table);

  _dyn_window_clear_after (self);
  switch (after)
    {
    case AFTER_CLOSE:
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    case AFTER_OPEN_CONNECTION:
      _dyn_window_open_connection_now (self, connection);
      if (table != NULL)
        {
          g_free (self->pending_table);
          self->pending_table = g_steal_pointer (&table);
        }
      break;
    case AFTER_ADD_CONNECTION:
      if (client == NULL)
        _dyn_window_open_connection_now (self, connection);
      else
        {
          _dyn_window_reset_connection (self, connection);
          _dyn_window_set_client (self, client);
        }
      break;
    case AFTER_DELETE_CONNECTION:
      if (connection == self->connection)
        _dyn_window_reset_connection (self, NULL);
      dyn_connection_store_remove_async (self->store, connection, self->cancellable, _dyn_window_removed_cb, g_object_ref (self));
      break;
    case AFTER_NOTHING:
    default:
      break;
    }
}

static void
discard_all_staged (DynWindow *self)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);

  _dyn_window_collect_staged (self, sessions, NULL);
  for (guint i = 0; i < sessions->len; i++)
    dyn_edit_session_discard_all (sessions->pdata[i]);
}

typedef struct {
  DynWindow *self;
  GPtrArray *sessions;
  GPtrArray *tables;
  guint      next;
  guint      not_committed;
  char      *first_problem;   /* the table of the first change left */
} CommitAll;

static void
commit_all_free (CommitAll *data)
{
  g_object_unref (data->self);
  g_ptr_array_unref (data->sessions);
  g_ptr_array_unref (data->tables);
  g_free (data->first_problem);
  g_free (data);
}

static void commit_next (CommitAll *data);

static void
commit_all_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  CommitAll *data = user_data;
  DynEditSession *session = DYN_EDIT_SESSION (source);
  g_autoptr(DynCommitResult) commit = NULL;
  g_autoptr(GError) error = NULL;

  commit = dyn_edit_session_commit_finish (session, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      commit_all_free (data);
      return;
    }
  if (dyn_edit_session_get_n_changes (session) > 0)
    {
      data->not_committed += dyn_edit_session_get_n_changes (session);
      if (data->first_problem == NULL)
        data->first_problem = g_strdup (data->tables->pdata[data->next]);
    }
  data->next++;
  commit_next (data);
}

/* Commits the tables one after the other; then does what waited, unless
 * something is left (a conflict, a failure): then the first table with a
 * change left opens with its staged changes, and nothing else happens. */
static void
commit_next (CommitAll *data)
{
  DynWindow *self = data->self;
  g_autofree char *text = NULL;

  if (data->next < data->sessions->len)
    {
      dyn_edit_session_commit_async (data->sessions->pdata[data->next], self->cancellable, commit_all_cb, data);
      return;
    }
  self->committing_all = FALSE;
  _dyn_window_set_busy (self, FALSE);
  if (data->not_committed == 0)
    {
      commit_all_free (data);
      run_after (self);
      return;
    }
  _dyn_window_clear_after (self);
  if (g_strcmp0 (data->first_problem, self->table) != 0)
    _dyn_window_open_table_now (self, data->first_problem);
  _dyn_window_show_side_page (self, "changes", FALSE);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u change was not committed (a conflict or a failure), so nothing else was done",
                                       "%u changes were not committed (conflicts or failures), so nothing else was done",
                                       data->not_committed),
                          data->not_committed);
  _dyn_window_show_message (self, text);
  commit_all_free (data);
}

static void
commit_all_staged (DynWindow *self)
{
  CommitAll *data = g_new0 (CommitAll, 1);

  data->self = g_object_ref (self);
  data->sessions = g_ptr_array_new_with_free_func (g_object_unref);
  data->tables = g_ptr_array_new_with_free_func (g_free);
  _dyn_window_collect_staged (self, data->sessions, data->tables);
  self->committing_all = TRUE;
  _dyn_window_set_busy (self, TRUE);
  _dyn_window_set_status (self, _("Committing…"));
  commit_next (data);
}

static void
staged_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  if (g_strcmp0 (response, "commit") == 0)
    commit_all_staged (self);
  else if (g_strcmp0 (response, "discard") == 0)
    {
      discard_all_staged (self);
      run_after (self);
    }
  else
    _dyn_window_clear_after (self);
}

/* Does @after at once when nothing is staged; otherwise asks first, naming
 * how many changes in which tables, and does it once they are committed or
 * discarded (not when the user cancels). */
void
_dyn_window_when_staged_handled (DynWindow     *self,
                                 AfterStaged    after,
                                 DynConnection *connection,
                                 DynClient     *client,
                                 const char    *table)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint *counts = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  guint n;

  /* One question at a time. */
  if (self->staged_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->staged_dialog));
      return;
    }
  if (self->committing_all)
    return;
  _dyn_window_clear_after (self);
  self->after = after;
  g_set_object (&self->after_connection, connection);
  g_set_object (&self->after_client, client);
  self->after_table = g_strdup (table);

  n = _dyn_window_collect_staged (self, sessions, tables);
  if (n == 0)
    {
      run_after (self);
      return;
    }
  counts = g_new0 (guint, sessions->len);
  for (guint i = 0; i < sessions->len; i++)
    counts[i] = dyn_edit_session_get_n_changes (sessions->pdata[i]);
  g_ptr_array_add (tables, NULL);
  summary = dyn_describe_staged_tables ((const char * const *) tables->pdata, counts, sessions->len);
  switch (after)
    {
    case AFTER_CLOSE:
      heading = g_strdup (_("Commit Changes Before Closing?"));
      break;
    case AFTER_DELETE_CONNECTION:
      heading = g_strdup_printf (_("Commit Changes Before Deleting “%s”?"), dyn_connection_get_name (connection));
      break;
    case AFTER_OPEN_CONNECTION:
    case AFTER_ADD_CONNECTION:
    case AFTER_NOTHING:
    default:
      heading = g_strdup_printf (_("Commit Changes Before Opening “%s”?"), dyn_connection_get_name (connection));
      break;
    }
  /* Translators: %s is a list such as "3 changes in Movies and 1 change in Shows". */
  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s is staged but not written to DynamoDB. Discarded changes are lost.",
                                       "%s are staged but not written to DynamoDB. Discarded changes are lost.", n),
                          summary);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "discard", _("_Discard"), "commit", _("C_ommit"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "commit", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "commit");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (staged_response_cb), self, 0);
  self->staged_dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->staged_dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Editing. */

static void
update_changes_button (DynWindow *self)
{
  guint n = self->session ? dyn_edit_session_get_n_changes (self->session) : 0;
  guint conflicts = self->session ? dyn_edit_session_get_n_conflicts (self->session) : 0;
  g_autofree char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->changes_button), n > 0);
  if (n == 0)
    return;
  if (conflicts > 0)
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Change · %u in Conflict", "%u Changes · %u in Conflict", n),
                             n, conflicts);
  else
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Change", "%u Changes", n), n);
  gtk_button_set_label (self->changes_button, label);
  if (conflicts > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->changes_button), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->changes_button), "error");
}

static void
session_changed_cb (DynEditSession *session,
                    DynWindow      *self)
{
  update_changes_button (self);
  _dyn_window_update_edit_actions (self);
}

static void
session_notify_cb (DynEditSession *session,
                   GParamSpec     *pspec,
                   DynWindow      *self)
{
  gboolean busy = dyn_edit_session_get_busy (session);

  /* A commit counts as work in progress, like a read. */
  if (busy != self->session_busy)
    {
      self->session_busy = busy;
      _dyn_window_set_busy (self, busy);
    }
  update_changes_button (self);
  _dyn_window_update_edit_actions (self);
}

/* "Committed 3 changes in 1 transaction · 1 conflict". */
static char *
describe_commit (DynEditSession  *session,
                 DynCommitResult *result)
{
  guint applied = dyn_commit_result_get_n_applied (result);
  guint conflicts = dyn_commit_result_get_n_conflicts (result);
  guint failed = dyn_commit_result_get_n_failed (result);
  guint requests = dyn_commit_result_get_n_requests (result);
  guint transactions = 0;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < requests; i++)
    if (g_strcmp0 (dyn_commit_result_get_request_operation (result, i), "TransactWriteItems") == 0)
      transactions++;
  /* An undo leaves nothing to undo. */
  if (applied > 0 && !dyn_edit_session_get_can_undo (session))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Undid the last commit: %u change reverted",
                                            "Undid the last commit: %u changes reverted", applied), applied);
  else if (applied == 0)
    g_string_append (s, _("Nothing committed"));
  else if (transactions == requests)
    {
      g_autofree char *changes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Committed %u change",
                                                               "Committed %u changes", applied), applied);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s in %u transaction", "%s in %u transactions",
                                              requests), changes, requests);
    }
  else
    {
      g_autofree char *changes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Committed %u change",
                                                               "Committed %u changes", applied), applied);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s in %u request", "%s in %u requests",
                                              requests), changes, requests);
    }
  if (conflicts > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u conflict", "%u conflicts", conflicts), conflicts);
    }
  if (failed > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u failed", "%u failed", failed), failed);
    }
  return g_string_free (s, FALSE);
}

void
_dyn_window_staged_committed_cb (DynStagedChanges *staged,
                                 DynCommitResult  *result,
                                 DynWindow        *self)
{
  g_autofree char *text = NULL;

  if (result == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                                     dyn_staged_changes_get_status_text (staged));

      _dyn_window_show_error (self, _("The commit"), error);
      return;
    }
  text = describe_commit (self->session, result);
  _dyn_window_clear_error (self);
  _dyn_window_set_status (self, text);
  if (dyn_commit_result_get_n_conflicts (result) + dyn_commit_result_get_n_failed (result) > 0)
    _dyn_window_show_side_page (self, "changes", FALSE);
  /* A change that failed (not a conflict: those show beside the change) says why, e.g. that
   * the sign-in it waited for was cancelled. */
  for (guint i = 0; dyn_commit_result_get_n_failed (result) > 0 && i < dyn_commit_result_get_n_changes (result); i++)
    {
      const GError *error = dyn_commit_result_get_error (result, i);

      if (error != NULL && !g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED) &&
          !g_error_matches (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED))
        {
          _dyn_window_show_error (self, _("The commit"), error);
          break;
        }
    }
}

/* Takes the open table's session out of the window (transfer full). */
DynEditSession *
_dyn_window_detach_session (DynWindow *self)
{
  DynEditSession *session = g_steal_pointer (&self->session);

  if (self->item_editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->item_editor));
  dyn_staged_changes_set_session (self->staged, NULL);
  dyn_item_grid_set_edit_session (self->grid, NULL);
  dyn_item_detail_set_edit_session (self->detail, NULL);
  if (session != NULL)
    {
      g_signal_handlers_disconnect_by_data (session, self);
      if (self->session_busy)
        {
          self->session_busy = FALSE;
          _dyn_window_set_busy (self, FALSE);
        }
    }
  if (gtk_widget_get_visible (GTK_WIDGET (self->side_stack)) &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "changes") == 0)
    gtk_widget_set_visible (GTK_WIDGET (self->side_stack), FALSE);
  update_changes_button (self);
  return session;
}

void
_dyn_window_clear_session (DynWindow *self)
{
  g_autoptr(DynEditSession) session = _dyn_window_detach_session (self);
}

/* Makes @session the open table's (takes it). */
void
_dyn_window_attach_session (DynWindow      *self,
                            DynEditSession *session)
{
  _dyn_window_clear_session (self);
  self->session = session;
  g_signal_connect (self->session, "changed", G_CALLBACK (session_changed_cb), self);
  g_signal_connect (self->session, "notify::busy", G_CALLBACK (session_notify_cb), self);
  g_signal_connect (self->session, "notify::can-undo", G_CALLBACK (session_notify_cb), self);
  g_signal_connect (self->session, "notify::n-conflicts", G_CALLBACK (session_notify_cb), self);
  if (dyn_edit_session_get_busy (session))
    {
      self->session_busy = TRUE;
      _dyn_window_set_busy (self, TRUE);
    }
  dyn_staged_changes_set_session (self->staged, self->session);
  /* The detail tree orders by its keys and edits values in place. */
  dyn_item_detail_set_edit_session (self->detail, self->session);
  update_changes_button (self);
  _dyn_window_update_edit_actions (self);
}

/* One session per table: its key schema, read-only from the connection, no
 * version attribute. It stays with the table while others are open. */
void
_dyn_window_create_session (DynWindow *self)
{
  DynEditSession *session;

  _dyn_window_clear_session (self);
  if (self->keys == NULL || self->client == NULL)
    return;
  session = dyn_edit_session_new (self->client, self->table, &self->keys->table.keys);
  dyn_edit_session_set_index_keys (session, self->keys);
  dyn_edit_session_set_read_only (session, self->connection != NULL && dyn_connection_get_read_only (self->connection));
  _dyn_window_guardrails_attach_session (self, session);
  _dyn_window_attach_session (self, session);
}

/* Rows are edited where the table itself is read: an index's rows may hold
 * only some attributes. */
void
_dyn_window_set_session_model (DynWindow *self)
{
  gboolean table = self->request != NULL && self->request->index == NULL;

  if (self->session == NULL)
    return;
  dyn_edit_session_set_model (self->session, table ? self->model : NULL);
  dyn_item_grid_set_edit_session (self->grid, table ? self->session : NULL);
}

/* Whether edits can be staged now; otherwise says why in the error bar. */
static gboolean
check_editable (DynWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->session == NULL)
    return FALSE;
  if (dyn_edit_session_get_read_only (self->session))
    {
      _dyn_window_refuse_read_only (self);
      return FALSE;
    }
  if (dyn_item_grid_get_edit_session (self->grid) == NULL)
    error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                 _("Items read from an index are not edited here: choose “Table” to edit them"));
  if (error != NULL)
    {
      _dyn_window_show_error (self, _("Editing"), error);
      return FALSE;
    }
  return TRUE;
}

static void
item_editor_staged_cb (DynItemEditor *editor,
                       DynItemObject *row,
                       DynWindow     *self)
{
  _dyn_window_clear_error (self);
  if (row != NULL)
    dyn_item_grid_select_item (self->grid, row, TRUE);
}

static void
present_item_editor (DynWindow *self,
                     GtkWidget *editor)
{
  if (self->item_editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->item_editor));
  self->item_editor = editor;
  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &self->item_editor);
  g_signal_connect_object (editor, "staged", G_CALLBACK (item_editor_staged_cb), self, 0);
  gtk_window_set_transient_for (GTK_WINDOW (editor), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (editor), TRUE);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
edit_row (DynWindow     *self,
          DynItemObject *row)
{
  if (row == NULL || !check_editable (self))
    return;
  if (dyn_item_object_get_state (row) == DYN_ITEM_STATE_DELETED)
    {
      g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                                     _("The item is staged for deletion: drop that change first"));
      _dyn_window_show_error (self, _("Editing"), error);
      return;
    }
  present_item_editor (self, dyn_item_editor_new (self->session, row));
}

static void
edit_item_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  edit_row (self, dyn_item_grid_get_selected_item (self->grid));
}

static void
new_item_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (check_editable (self))
    present_item_editor (self, dyn_item_editor_new_for_create (self->session, NULL));
}

static void
duplicate_item_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynItemObject *row = dyn_item_grid_get_selected_item (self->grid);
  g_autoptr(DynValue) copy = NULL;

  if (row == NULL || !check_editable (self))
    return;
  copy = dyn_edit_session_dup_for_duplicate (self->session, row);
  present_item_editor (self, dyn_item_editor_new_for_create (self->session, copy));
}

static void
delete_item_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  if (!check_editable (self))
    return;
  rows = dyn_item_grid_dup_selected_items (self->grid);
  for (guint i = 0; i < rows->len && error == NULL; i++)
    if (dyn_item_object_get_state (rows->pdata[i]) != DYN_ITEM_STATE_DELETED)
      dyn_edit_session_stage_delete (self->session, rows->pdata[i], &error);
  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_READ_ONLY))
    _dyn_window_refuse_read_only (self);
  else if (error != NULL)
    _dyn_window_show_error (self, _("Deleting"), error);
  else
    _dyn_window_clear_error (self);
}

static void
commit_changes_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->session == NULL || dyn_edit_session_get_n_changes (self->session) == 0)
    return;
  if (dyn_edit_session_get_read_only (self->session))
    {
      _dyn_window_refuse_read_only (self);
      return;
    }
  _dyn_window_show_side_page (self, "changes", FALSE);
  _dyn_window_set_status (self, _("Committing…"));
  gtk_widget_activate_action (GTK_WIDGET (self->staged), "staged.commit", NULL);
}

static void
undo_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  DynWindow        *self)
{
  DynEditSession *session = g_object_get_data (G_OBJECT (dialog), "dyn-session");

  /* Only the commit asked about, while its table is open. */
  if (g_strcmp0 (response, "undo") != 0 || session != self->session ||
      !dyn_edit_session_get_can_undo (session) || dyn_edit_session_get_busy (session))
    return;
  _dyn_window_set_status (self, _("Undoing the last commit…"));
  gtk_widget_activate_action (GTK_WIDGET (self->staged), "staged.undo", NULL);
}

/* Undo writes: it names the commit and its table and asks first. */
static void
undo_commit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autofree char *heading = NULL;
  GtkWidget *dialog;
  guint n;

  if (self->session == NULL || !dyn_edit_session_get_can_undo (self->session))
    return;
  if (dyn_edit_session_get_read_only (self->session))
    {
      _dyn_window_refuse_read_only (self);
      return;
    }
  n = dyn_edit_session_get_n_undo (self->session);
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Undo Commit of %u Change to %s?",
                                          "Undo Commit of %u Changes to %s?", n),
                             n, dyn_edit_session_get_table (self->session));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, NULL);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("The items are written back as they were before that commit. "
                                 "An item someone else changed since then is not overwritten."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "undo", _("_Undo Commit"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "undo", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "dyn-session", g_object_ref (self->session), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (undo_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Ctrl+Z: a text field with the focus keeps its own undo. */
static gboolean
undo_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  return gtk_widget_activate_action (widget, "win.undo-commit", NULL);
}

static void
toggle_changes_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  _dyn_window_show_side_page (DYN_WINDOW (widget), "changes", TRUE);
}

void
_dyn_window_grid_edit_failed_cb (DynItemGrid  *grid,
                                 const GError *error,
                                 DynWindow    *self)
{
  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_READ_ONLY))
    _dyn_window_refuse_read_only (self);
  else
    _dyn_window_show_error (self, _("Editing the cell"), error);
}

void
_dyn_window_grid_edit_item_cb (DynItemGrid   *grid,
                               DynItemObject *row,
                               DynWindow     *self)
{
  edit_row (self, row);
}

/* Enter or a double-click on a row (not on a cell being edited): the JSON
 * editor. */
void
_dyn_window_grid_activate_cb (GtkColumnView *view,
                              guint          position,
                              DynWindow     *self)
{
  if (dyn_item_grid_get_cell_editor (self->grid) != NULL || self->session == NULL)
    return;
  if (dyn_item_grid_get_selected_item (self->grid) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.edit-item", NULL);
}

/* The actions of editing, committing and undoing, with their keys. */
void
_dyn_window_class_editing_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.edit-item", NULL, edit_item_action);
  gtk_widget_class_install_action (widget_class, "win.new-item", NULL, new_item_action);
  gtk_widget_class_install_action (widget_class, "win.duplicate-item", NULL, duplicate_item_action);
  gtk_widget_class_install_action (widget_class, "win.delete-item", NULL, delete_item_action);
  gtk_widget_class_install_action (widget_class, "win.commit-changes", NULL, commit_changes_action);
  gtk_widget_class_install_action (widget_class, "win.undo-commit", NULL, undo_commit_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-changes", NULL, toggle_changes_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.edit-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.new-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, 0, "win.new-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "win.duplicate-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "win.delete-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.commit-changes", NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, undo_shortcut_cb, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.toggle-changes", NULL);
}
