/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-editing"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* Editing in the main window under Xvfb against DynamoDB Local, driven
 * through the window's actions: a cell edited in place, an item in the JSON
 * editor, a create, deletes of two selected rows; the staged pane with its
 * diffs and guards; a commit that a second client sees; a second client's
 * change between staging and commit, merged per attribute in the conflict
 * window; undo; a read-only connection that refuses. */

static DynApplication *app;
static char *tmp_dir;

static const char *seed[] = {
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"},\"Name\":{\"S\":\"Acme Corp\"},"
  "\"Plan\":{\"S\":\"free\"},\"Owner\":{\"S\":\"owner@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0001\"},\"Name\":{\"S\":\"Website relaunch\"},"
  "\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"75606.97\"},\"Tags\":{\"SS\":[\"data\",\"web\"]}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0002\"},\"Name\":{\"S\":\"Data lake\"},"
  "\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"65937.97\"},\"Tags\":{\"SS\":[\"infra\",\"ops\"]}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0003\"},\"Name\":{\"S\":\"Mobile app\"},"
  "\"Status\":{\"S\":\"draft\"},\"Budget\":{\"N\":\"12000.50\"}}",
};

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynClient          *other;     /* the second user */
  char               *table;
} Fixture;

/* A few frames, so that rows are bound to widgets. */
static void
settle (void)
{
  for (guint i = 0; i < 10; i++)
    {
      dyn_test_iterate ();
      g_usleep (5000);
    }
  dyn_test_iterate ();
}

static void
activate (DynWindow  *window,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

static void
open_table (Fixture  *fixture,
            gboolean  read_only)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynConnection) connection = dyn_connection_new (read_only ? "Local (read-only)" : "Local");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
  dyn_connection_set_read_only (connection, read_only);
  dyn_connection_store_add_async (fixture->store, connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);

  dyn_window_open_connection (fixture->window, connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", fixture->table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==,
                    G_N_ELEMENTS (seed));
  g_assert_nonnull (dyn_window_get_edit_session (fixture->window));
  settle ();
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("WinEdit");
  g_assert_true (dyn_test_create_table (fixture->other, fixture->table, "EntityRef:S", "Detail:S", NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (seed[i]);

      g_assert_true (dyn_test_put_item (fixture->other, fixture->table, item, &error));
      g_assert_no_error (error);
    }

  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  /* Ungrouped rows: every row is an item. */
  dyn_item_grid_set_grouped (dyn_window_get_grid (fixture->window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window == NULL)
    return;
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_assert_finalize_object (fixture->store);
  dyn_test_delete_table (fixture->other, fixture->table, NULL);
  g_clear_object (&fixture->other);
  g_free (fixture->table);
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *detail)
{
  g_autofree char *json = g_strdup_printf ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}", detail);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynItemObject *
select_row (Fixture    *fixture,
            const char *detail,
            gboolean    only)
{
  DynItemObject *row = row_for (fixture, detail);

  g_assert_nonnull (row);
  dyn_item_grid_select_item (dyn_window_get_grid (fixture->window), row, only);
  dyn_test_iterate ();
  return row;
}

/* Edits a cell in place: the grid's action on the selected row, the text,
 * Enter. */
static void
edit_cell (Fixture    *fixture,
           const char *detail,
           const char *attribute,
           const char *text)
{
  DynItemGrid *grid = dyn_window_get_grid (fixture->window);
  GtkEditable *entry;

  select_row (fixture, detail, TRUE);
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", attribute));
  entry = dyn_item_grid_get_cell_editor (grid);
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (entry)));
  gtk_editable_set_text (entry, text);
  /* What Enter in the entry does. */
  g_signal_emit_by_name (entry, "activate");
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  settle ();
}

static DynValue *
server_item (Fixture    *fixture,
             const char *detail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (fixture->other, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"ConsistentRead\":true,"
                             "\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}}",
                             fixture->table, detail);
  g_assert_no_error (error);
  return response->item ? dyn_value_ref (response->item) : NULL;
}

static char *
replace (const char *text,
         const char *from,
         const char *to)
{
  g_auto(GStrv) parts = NULL;

  g_assert_nonnull (strstr (text, from));
  parts = g_strsplit (text, from, 2);
  return g_strjoinv (to, parts);
}

static DynItemEditor *
wait_editor_closed (Fixture *fixture)
{
  for (guint i = 0; i < 100 && dyn_window_get_item_editor (fixture->window) != NULL; i++)
    {
      dyn_test_iterate ();
      g_usleep (1000);
    }
  return dyn_window_get_item_editor (fixture->window);
}

/* The message dialog the window shows now (transient for it), or NULL. */
static AdwMessageDialog *
find_dialog (DynWindow *window)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data) &&
        gtk_window_get_transient_for (l->data) == GTK_WINDOW (window))
      return l->data;
  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Clicks the dialog's button for @response, as the user would: the dialog
 * closes and answers. */
static void
click_response (AdwMessageDialog *dialog,
                const char       *label)
{
  GtkWidget *button = find_button (GTK_WIDGET (dialog), label);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dyn_test_iterate ();
}

/* ------------------------------------------------------------------------ */

static void
test_edit_commit_undo (Fixture       *fixture,
                       gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  DynStagedChanges *staged;
  DynItemEditor *editor;
  DynItemObject *row;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  g_autoptr(DynValue) stored = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, FALSE);
  grid = dyn_window_get_grid (window);
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);
  g_assert_false (dyn_edit_session_get_read_only (session));
  g_assert_true (dyn_edit_session_get_model (session) == dyn_window_get_model (window));

  /* A cell in place: the row is marked, the cell highlighted. */
  edit_cell (fixture, "PROJ#2026-0001", "Status", "paused");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Status"), ==, "paused");
  g_assert_true (dyn_item_grid_get_cell_changed (grid, row, "Status"));
  /* The row's object was replaced: the selection and the detail follow. */
  g_assert_true (dyn_item_grid_get_selected_item (grid) == row);
  g_assert_true (dyn_item_detail_get_item (dyn_window_get_detail (window)) == dyn_item_object_get_item (row));
  g_assert_false (dyn_item_grid_get_cell_changed (grid, row, "Name"));
  g_assert_null (dyn_window_get_error_text (window));

  /* Text that is no number, in a number cell: refused with a message. */
  edit_cell (fixture, "PROJ#2026-0001", "Budget", "lots");
  g_assert_nonnull (dyn_window_get_error_text (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "Editing the cell"));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  activate (window, "win.dismiss-error");

  /* A whole item in the JSON editor, with the guard it will use. */
  select_row (fixture, "PROJ#2026-0002", TRUE);
  activate (window, "win.edit-item");
  editor = dyn_window_get_item_editor (window);
  g_assert_nonnull (editor);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (editor)) == GTK_WINDOW (window));
  text = dyn_item_editor_dup_text (editor);
  edited = replace (text, "\"Name\": \"Data lake\"", "\"Name\": \"Data lake v2\"");
  dyn_item_editor_set_text (editor, edited);
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_cmpstr (dyn_item_editor_get_guard_text (editor), ==, "Guarded by the values it changes: Name is still \"Data lake\"");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  g_assert_null (wait_editor_closed (fixture));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 2);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0002")), ==, DYN_ITEM_STATE_CHANGED);

  /* A new item. */
  activate (window, "win.new-item");
  editor = dyn_window_get_item_editor (window);
  g_assert_nonnull (editor);
  dyn_item_editor_set_text (editor, "{\"EntityRef\": \"WS#acme\", \"Detail\": \"PROJ#2026-0099\",\n"
                                    " \"Name\": \"Search\", \"Budget\": 20000}");
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_nonnull (strstr (dyn_item_editor_get_guard_text (editor), "no item with this key"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  g_assert_null (wait_editor_closed (fixture));
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0099")), ==, DYN_ITEM_STATE_ADDED);

  /* Two selected rows deleted at once. */
  select_row (fixture, "META", TRUE);
  select_row (fixture, "PROJ#2026-0003", FALSE);
  {
    g_autoptr(GPtrArray) selected = dyn_item_grid_dup_selected_items (grid);

    g_assert_cmpuint (selected->len, ==, 2);
  }
  activate (window, "win.delete-item");
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "META")), ==, DYN_ITEM_STATE_DELETED);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0003")), ==, DYN_ITEM_STATE_DELETED);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 5);

  /* The staged pane: each change with its diff and guard. */
  activate (window, "win.toggle-changes");
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "changes");
  settle ();
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, i), >, 0);
      g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (staged, i), "Guarded"));
    }
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, 0), ==, 1);   /* Status */
  g_assert_cmpstr (dyn_staged_changes_get_guard_text (staged, 0), ==, "Guarded by the values it changes: Status is still \"active\"");
  g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (staged, 2), "no item with this key"));

  /* Commit: one transaction; the second client sees every change. */
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 5 changes in 1 transaction");
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0001")), ==, DYN_ITEM_STATE_UNCHANGED);
  g_assert_null (row_for (fixture, "META"));
  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0002");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Name"), ==, "Data lake v2");
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0099");
  g_assert_nonnull (stored);
  g_clear_pointer (&stored, dyn_value_unref);
  g_assert_null (server_item (fixture, "META"));
  g_assert_null (server_item (fixture, "PROJ#2026-0003"));

  /* Undo: asked first, naming the commit and its table; then the inverse
   * writes, guarded by what the commit left. */
  activate (window, "win.undo-commit");
  {
    AdwMessageDialog *dialog = find_dialog (window);
    g_autofree char *heading = g_strdup_printf ("Undo Commit of 5 Changes to %s?", fixture->table);

    g_assert_nonnull (dialog);
    g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
    click_response (dialog, "_Undo Commit");
  }
  dyn_test_wait_idle (window);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Undid the last commit: 5 changes"));
  g_assert_false (dyn_edit_session_get_can_undo (session));
  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "active");
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "META");
  g_assert_nonnull (stored);
  g_clear_pointer (&stored, dyn_value_unref);
  g_assert_null (server_item (fixture, "PROJ#2026-0099"));
  g_assert_nonnull (row_for (fixture, "META"));
  g_assert_null (row_for (fixture, "PROJ#2026-0099"));
}

static void
test_conflict (Fixture       *fixture,
               gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynStagedChanges *staged;
  DynConflictView *view;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) stored = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, FALSE);
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);

  edit_cell (fixture, "PROJ#2026-0002", "Status", "paused");
  edit_cell (fixture, "PROJ#2026-0002", "Budget", "80000");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpstr (dyn_test_item_get_number (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0002")), "Budget"),
                   ==, "80000");

  /* Someone else changes the item between staging and commit. */
  response = dyn_test_callf (fixture->other, "UpdateItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                             "\"Detail\":{\"S\":\"PROJ#2026-0002\"}},"
                             "\"UpdateExpression\":\"SET #n = :n, Budget = :b\","
                             "\"ExpressionAttributeNames\":{\"#n\":\"Name\"},"
                             "\"ExpressionAttributeValues\":{\":n\":{\"S\":\"Data lake (Bob)\"},\":b\":{\"N\":\"70000\"}}}",
                             fixture->table);
  g_assert_no_error (error);

  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 1);
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "1 conflict"));
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "changes");
  view = dyn_staged_changes_get_conflict_view (staged);
  g_assert_nonnull (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (view)))));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view)))) ==
                 GTK_WINDOW (window));

  /* Three columns. */
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_BASE), "65937.97"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_SERVER), "70000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_MINE), "80000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Name", DYN_CONFLICT_COLUMN_SERVER), "(Bob)"));

  /* Per attribute: the server's budget, my status; their name stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "Budget", "server"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.commit", NULL));
  dyn_test_wait_idle (window);
  g_assert_null (dyn_staged_changes_get_conflict_view (staged));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 1 change in 1 transaction");

  stored = server_item (fixture, "PROJ#2026-0002");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
  g_assert_cmpstr (dyn_test_item_get_number (stored, "Budget"), ==, "70000");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Name"), ==, "Data lake (Bob)");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0002")), "Name"),
                   ==, "Data lake (Bob)");
}

/* Item 16: the JSON editor's plain view writes sets with their type, as the
 * detail pane does, so that a set can be told from a list; both round-trip
 * through the DynamoDB JSON view and the commit. */
static void
test_editor_sets (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemEditor *editor;
  DynValue *item;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *ddb = NULL;
  g_autoptr(DynValue) stored = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, FALSE);
  select_row (fixture, "PROJ#2026-0001", TRUE);
  activate (window, "win.edit-item");
  editor = dyn_window_get_item_editor (window);
  g_assert_nonnull (editor);
  text = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "\"Tags\": {\"$set\": [\"data\", \"web\"]}"));
  g_assert_nonnull (strstr (text, "\"Budget\": 75606.97"));

  /* A third tag, a list beside the set, a number set with an exact number. */
  edited = replace (text, "{\"$set\": [\"data\", \"web\"]}",
                    "{\"$set\": [\"data\", \"web\", \"ml\"]},\n  \"Steps\": [\"data\", \"web\"],\n"
                    "  \"Scores\": {\"$set\": [1, 2.50]}");
  dyn_item_editor_set_text (editor, edited);
  g_assert_true (dyn_item_editor_get_valid (editor));
  item = dyn_item_editor_get_item (editor);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "Tags")), ==, DYN_VALUE_SS);
  g_assert_cmpuint (dyn_value_get_length (dyn_value_map_lookup (item, "Tags")), ==, 3);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "Steps")), ==, DYN_VALUE_L);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "Scores")), ==, DYN_VALUE_NS);
  g_assert_cmpstr (dyn_value_set_get_string (dyn_value_map_lookup (item, "Scores"), 1), ==, "2.50");

  /* Through the DynamoDB JSON view and back: the same text. */
  g_assert_true (dyn_item_editor_set_ddb_json (editor, TRUE));
  ddb = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (ddb, "\"Tags\": {\"SS\":"));
  g_assert_nonnull (strstr (ddb, "\"Steps\": {\"L\":"));
  g_assert_nonnull (strstr (ddb, "\"Scores\": {\"NS\":"));
  g_assert_true (dyn_item_editor_set_ddb_json (editor, FALSE));
  g_free (text);
  text = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "\"Tags\": {\"$set\": [\"data\", \"web\", \"ml\"]}"));
  g_assert_nonnull (strstr (text, "\"Steps\": [\"data\", \"web\"]"));
  g_assert_nonnull (strstr (text, "\"Scores\": {\"$set\": [1, 2.50]}"));

  /* A plain array where the set was is a list: what the text says. */
  g_free (edited);
  edited = replace (text, "{\"$set\": [\"data\", \"web\", \"ml\"]}", "[\"data\", \"web\", \"ml\"]");
  dyn_item_editor_set_text (editor, edited);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (dyn_item_editor_get_item (editor), "Tags")), ==,
                   DYN_VALUE_L);
  dyn_item_editor_set_text (editor, text);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  g_assert_null (wait_editor_closed (fixture));

  /* The staged row opens with the same text; the commit writes the types. */
  select_row (fixture, "PROJ#2026-0001", TRUE);
  activate (window, "win.edit-item");
  editor = dyn_window_get_item_editor (window);
  g_free (edited);
  edited = dyn_item_editor_dup_text (editor);
  g_assert_cmpstr (edited, ==, text);
  gtk_window_close (GTK_WINDOW (editor));
  g_assert_null (wait_editor_closed (fixture));
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (stored, "Tags")), ==, DYN_VALUE_SS);
  g_assert_cmpuint (dyn_value_get_length (dyn_value_map_lookup (stored, "Tags")), ==, 3);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (stored, "Steps")), ==, DYN_VALUE_L);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (stored, "Scores")), ==, DYN_VALUE_NS);
}

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  g_autoptr(DynValue) stored = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, TRUE);
  grid = dyn_window_get_grid (window);
  session = dyn_window_get_edit_session (window);
  g_assert_true (dyn_edit_session_get_read_only (session));

  /* Delete: refused with a message in the window; nothing staged. */
  select_row (fixture, "PROJ#2026-0001", TRUE);
  activate (window, "win.delete-item");
  g_assert_nonnull (dyn_window_get_error_text (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "read-only"));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0001")), ==, DYN_ITEM_STATE_UNCHANGED);
  activate (window, "win.dismiss-error");

  /* A cell: no entry opens. */
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Status"));
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "read-only"));

  /* The JSON editor does not open. */
  activate (window, "win.edit-item");
  g_assert_null (dyn_window_get_item_editor (window));
  activate (window, "win.new-item");
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);

  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "active");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-editing");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-editing/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("edit-commit-undo", test_edit_commit_undo);
  ADD ("conflict", test_conflict);
  ADD ("editor-sets", test_editor_sets);
  ADD ("read-only", test_read_only);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
