/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-random"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-window.h"

/* The main window under Xvfb against DynamoDB Local, driven through its
 * actions as a user's gestures end up: first the sequence that used to hang
 * the window (a create that conflicts, "Keep Server's Item", delete, commit,
 * the staged pane, a cell edited and cancelled, Ctrl+I), then long random
 * sequences of the window's actions. Runs with G_DEBUG=fatal-criticals. */

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

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the window is idle (reads and commits). */
static void
wait_idle (DynWindow *window)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  iterate ();
  while (dyn_window_is_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  iterate ();
}

/* A few frames: rows are bound to widgets, panes laid out, focus moved. */
static void
settle (void)
{
  for (guint i = 0; i < 6; i++)
    {
      iterate ();
      g_usleep (4000);
    }
  iterate ();
}

static void
activate (DynWindow  *window,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

static DynConnection *
add_connection (Fixture *fixture)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynConnection) connection = dyn_connection_new ("Local");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
  dyn_connection_store_add_async (fixture->store, connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&connection);
}

static void
create_seeded_table (DynClient  *client,
                     const char *table)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (dyn_test_create_table (client, table, "EntityRef:S", "Detail:S", NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (seed[i]);

      g_assert_true (dyn_test_put_item (client, table, item, &error));
      g_assert_no_error (error);
    }
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("Hang");
  create_seeded_table (fixture->other, fixture->table);

  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      iterate ();
      g_usleep (10000);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window == NULL)
    return;
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  iterate ();
  g_object_unref (fixture->window);
  for (guint i = 0; i < 200 && G_OBJECT (fixture->window)->ref_count > 1; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_finalize_object (fixture->window);
  g_assert_finalize_object (fixture->store);
  dyn_test_delete_table (fixture->other, fixture->table, NULL);
  g_clear_object (&fixture->other);
  g_free (fixture->table);
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  g_autoptr(DynConnection) connection = add_connection (fixture);

  dyn_window_open_connection (fixture->window, connection);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", table));
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  settle ();
}

static DynValue *
key_for (const char *entity,
         const char *detail)
{
  g_autofree char *json = g_strdup_printf ("{\"EntityRef\":{\"S\":\"%s\"},\"Detail\":{\"S\":\"%s\"}}",
                                           entity, detail);

  return dyn_test_item (json);
}

static DynItemObject *
row_for_key (Fixture    *fixture,
             const char *entity,
             const char *detail)
{
  g_autoptr(DynValue) key = key_for (entity, detail);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *detail)
{
  return row_for_key (fixture, "WS#acme", detail);
}

/* Escape in the cell's entry: what its key controller gets. */
static void
press_escape (GtkWidget *entry)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (entry);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !handled; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Escape, 9, 0, &handled);
    }
  g_assert_true (handled);
}

/* ------------------------------------------------------------------------ */

/* Issue 8, item 5: a create whose guard conflicts, "Keep Server's Item",
 * delete that row and commit, the staged pane, a cell edited and cancelled,
 * Ctrl+I. The window used to warn about a freed row on commit and then loop
 * on gtk_widget_get_parent() criticals. */
static void
test_hang (Fixture       *fixture,
           gconstpointer  data)
{
  gboolean grouped = GPOINTER_TO_INT (data);
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  DynStagedChanges *staged;
  DynConflictView *view;
  DynItemEditor *editor;
  DynItemObject *row;
  GtkEditable *entry;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->table);
  grid = dyn_window_get_grid (window);
  dyn_item_grid_set_grouped (grid, grouped);
  settle ();
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);

  /* Someone else creates an item after the window read the table: a
   * collection of its own. */
  response = dyn_test_callf (fixture->other, "PutItem", &error,
                             "{\"TableName\":\"%s\",\"Item\":{\"EntityRef\":{\"S\":\"WS#bob\"},"
                             "\"Detail\":{\"S\":\"META\"},\"Name\":{\"S\":\"Bob's\"}}}",
                             fixture->table);
  g_assert_no_error (error);

  /* The window creates one with the same key: the guard conflicts. */
  activate (window, "win.new-item");
  editor = dyn_window_get_item_editor (window);
  g_assert_nonnull (editor);
  dyn_item_editor_set_text (editor, "{\"EntityRef\": \"WS#bob\", \"Detail\": \"META\", \"Name\": \"Mine\"}");
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  settle ();
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  activate (window, "win.commit-changes");
  wait_idle (window);
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 1);
  view = dyn_staged_changes_get_conflict_view (staged);
  g_assert_nonnull (view);

  /* Keep Server's Item: the row shows Bob's item, nothing is staged. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.keep-server", NULL));
  settle ();
  g_assert_null (dyn_staged_changes_get_conflict_view (staged));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  row = row_for_key (fixture, "WS#bob", "META");
  g_assert_nonnull (row);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Name"), ==, "Bob's");

  /* Delete that row and commit. */
  dyn_item_grid_select_item (grid, row, TRUE);
  settle ();
  activate (window, "win.delete-item");
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  activate (window, "win.commit-changes");
  wait_idle (window);
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_null (row_for_key (fixture, "WS#bob", "META"));

  /* The staged pane. */
  if (g_strcmp0 (dyn_window_get_side_page (window), "changes") != 0)
    activate (window, "win.toggle-changes");
  settle ();
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "changes");

  /* A double-click on a cell, Escape. */
  row = row_for (fixture, "PROJ#2026-0001");
  dyn_item_grid_select_item (grid, row, TRUE);
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Name"));
  entry = dyn_item_grid_get_cell_editor (grid);
  g_assert_nonnull (entry);
  settle ();
  press_escape (GTK_WIDGET (entry));
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  settle ();

  /* Ctrl+I: the detail pane. */
  activate (window, "win.toggle-detail");
  settle ();
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "detail");
  activate (window, "win.toggle-detail");
  settle ();
  activate (window, "win.toggle-detail");
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  dyn_test_init (&argc, &argv);
  tmp_dir = g_dir_make_tmp ("dyn-test-window-random-XXXXXX", NULL);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  adw_init ();
  if (g_getenv ("XX_NONFATAL")) { g_log_set_always_fatal (G_LOG_FATAL_MASK); g_log_set_fatal_mask ("GLib-GObject", G_LOG_FATAL_MASK); g_log_set_fatal_mask ("Gtk", G_LOG_FATAL_MASK); g_log_set_fatal_mask ("GLib", G_LOG_FATAL_MASK);}

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add ("/dyn/window-random/hang/grouped", Fixture, GINT_TO_POINTER (TRUE),
              fixture_set_up, test_hang, fixture_tear_down);
  g_test_add ("/dyn/window-random/hang/flat", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_hang, fixture_tear_down);

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
