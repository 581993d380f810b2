/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-state"
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-table-state.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The window's per-table state under Xvfb against DynamoDB Local, driven
 * through its actions: a small first page (the page-size setting) on a
 * table of 4,200 movies, and nothing read again when switching back; each
 * table's builder text and staged edits kept; F5 keeping staged rows; the
 * question before quitting, closing or opening another connection with
 * staged work; an undo that names its commit and belongs to its table; a
 * table deleted by someone else; a read-only connection. Tables unlike the
 * demo data: movies keyed by year (N) and title (S), shows keyed by id only.
 *
 * DYN_TEST_SCREENSHOT_DIR: where to save screenshots of the dialogs and the
 * status line. */

#define N_MOVIES 4200

static DynApplication *app;
static char *tmp_dir;
static char *movies_table;
static char *shows_table;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynClient          *other;     /* a second user */
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the window is idle (reads, commits). */
static void
wait_idle (DynWindow *window)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (60, timeout_cb, &timed_out);

  dyn_test_iterate ();
  while (dyn_window_is_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  dyn_test_iterate ();
}

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
busy_cb (DynWindow  *window,
         GParamSpec *pspec,
         guint      *count)
{
  (*count)++;
}

/* The widget in @root's tree whose action is @action (a button, a menu
 * button's item does not count), or NULL. */
static GtkWidget *
find_actionable (GtkWidget  *root,
                 const char *action)
{
  /* Buttons: the expression builder runs win.query too, as an actionable
   * that is no button. */
  if (GTK_IS_BUTTON (root) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (root)), action) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The menu button with @icon_name, or with a label that starts with
 * @label. */
static GtkWidget *
find_menu_button (GtkWidget  *root,
                  const char *icon_name,
                  const char *label)
{
  if (GTK_IS_MENU_BUTTON (root))
    {
      const char *shown = gtk_menu_button_get_label (GTK_MENU_BUTTON (root));

      if (icon_name != NULL && g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (root)), icon_name) == 0)
        return root;
      if (label != NULL && shown != NULL && g_str_has_prefix (shown, label))
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_button (child, icon_name, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether the window's button for @action can be clicked: actionable
 * widgets follow their action's enabled state. */
static gboolean
button_enabled (DynWindow  *window,
                const char *action)
{
  GtkWidget *button = find_actionable (GTK_WIDGET (window), action);

  g_assert_nonnull (button);
  return gtk_widget_get_sensitive (button);
}

/* The message dialog the window shows now, or NULL. */
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

/* Presses Ctrl+Z as the window's shortcut controller would: runs the
 * shortcut bound to it. Returns whether it was handled. */
static gboolean
press_ctrl_z (DynWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == GDK_KEY_z &&
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == GDK_CONTROL_MASK)
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                 GTK_WIDGET (window), gtk_shortcut_get_arguments (shortcut));
        }
    }
  g_assert_not_reached ();
  return FALSE;
}

static void
screenshot (GtkWindow  *window,
            const char *name)
{
  const char *dir = g_getenv ("DYN_TEST_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    return;
  for (guint i = 0; i < 30; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  path = g_build_filename (dir, name, NULL);
  if (!dyn_window_save_png (window, path, &error))
    g_printerr ("screenshot %s: %s\n", path, error->message);
}

/* The tables, made once: 4,200 movies of about 300 bytes each (about one
 * full 1 MB page) with a GSI, and a few shows keyed by id alone. */
static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  const char *gsis[] = { "ByGenre:genre:S:rating:N", NULL };
  const char *genres[] = { "drama", "comedy", "western", "noir", "science fiction", "documentary" };
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return FALSE;
  if (movies_table != NULL)
    return TRUE;
  client = dyn_test_client_new (server);
  movies_table = dyn_test_table_name ("Movies");
  shows_table = dyn_test_table_name ("Shows");
  g_assert_true (dyn_test_create_table (client, movies_table, "year:N", "title:S", gsis, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, shows_table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);

  items = dyn_test_item_array_new ();
  for (guint i = 0; i < N_MOVIES; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"year\":{\"N\":\"%u\"},\"title\":{\"S\":\"Movie %04u\"},"
                                            "\"genre\":{\"S\":\"%s\"},\"rating\":{\"N\":\"%u.%u\"},"
                                            "\"plot\":{\"S\":\"%s\"}}",
                                            1920 + i % 100, i, genres[i % G_N_ELEMENTS (genres)],
                                            1 + i % 9, i % 10,
                                            "A long, winding and entirely made-up story about people, places and "
                                            "the things between them, told at some length so that each item has "
                                            "the size of a real catalogue entry with a synopsis of its plot."));
  g_assert_true (dyn_test_load_items (client, movies_table, items, &error));
  g_assert_no_error (error);
  g_ptr_array_set_size (items, 0);
  for (guint i = 0; i < 30; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"S\":\"show-%02u\"},\"name\":{\"S\":\"Show %u\"},"
                                            "\"seasons\":{\"N\":\"%u\"}}", i, i, 1 + i % 7));
  g_assert_true (dyn_test_load_items (client, shows_table, items, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
open_connection (Fixture  *fixture,
                 gboolean  read_only)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  fixture->connection = dyn_connection_new (read_only ? "Local (read-only)" : "Local");
  dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (fixture->connection, dyn_test_server_get_endpoint (server));
  dyn_connection_set_read_only (fixture->connection, read_only);
  dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);

  dyn_window_open_connection (fixture->window, fixture->connection);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", table));
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  settle ();
}

/* Whether the window was closed for good (destroyed: not a toplevel any
 * more). */
static gboolean
closed (Fixture *fixture)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (window == G_OBJECT (fixture->window))
        return FALSE;
    }
  return TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);

  if (server == NULL || !ensure_tables ())
    return;
  fixture->other = dyn_test_client_new (server);
  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  /* The setting's default, whatever an earlier case chose. */
  g_object_set (fixture->window, "page-size", 50, NULL);
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
  gboolean open;

  if (fixture->window == NULL)
    return;
  open = !closed (fixture);
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), open);
  g_clear_object (&fixture->connection);
  g_assert_finalize_object (fixture->store);
  g_clear_object (&fixture->other);
}

/* The row @i of the grid as shown (ungrouped: an item). */
static DynItemObject *
shown_row (Fixture *fixture,
           guint    i)
{
  GListModel *rows = dyn_item_grid_get_rows (dyn_window_get_grid (fixture->window));
  g_autoptr(GObject) item = g_list_model_get_item (rows, i);

  g_assert_nonnull (item);
  g_assert_true (DYN_IS_ITEM_OBJECT (item));
  /* The model holds it. */
  return DYN_ITEM_OBJECT (item);
}

/* The row of the open model with @key. */
static DynItemObject *
row_like (Fixture        *fixture,
          DynValue       *key)
{
  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynValue *
key_of (Fixture       *fixture,
        DynItemObject *row)
{
  return dyn_item_key (dyn_item_object_get_item (row), &dyn_window_get_table_keys (fixture->window)->table.keys);
}

/* Edits a cell in place through the grid's action on the selected row. */
static void
edit_cell (Fixture       *fixture,
           DynItemObject *row,
           const char    *attribute,
           const char    *text)
{
  DynItemGrid *grid = dyn_window_get_grid (fixture->window);
  GtkEditable *entry;

  dyn_item_grid_select_item (grid, row, TRUE);
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", attribute));
  entry = dyn_item_grid_get_cell_editor (grid);
  g_assert_nonnull (entry);
  gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  settle ();
}

static DynValue *
server_item (Fixture    *fixture,
             const char *table,
             DynValue   *key)
{
  return dyn_test_get_item (fixture->other, table, key, TRUE);
}

/* ------------------------------------------------------------------------ */

/* Item 8: the first read is a small page, stated; switching away and back
 * sends nothing and says how old the rows are; Load More reads full pages. */
static void
test_first_page (Fixture       *fixture,
                 gconstpointer  data)
{
  DynWindow *window = fixture->window;
  const DynReadStats *stats;
  DynCollectionModel *model;
  DynPager *pager;
  GListModel *flat;
  gsize bytes = 0;
  double bound;
  guint busy = 0;
  gulong handler;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, movies_table);

  model = dyn_window_get_model (window);
  pager = dyn_window_get_pager (window);
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpint (dyn_window_get_request (window)->limit, ==, 50);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 50);
  g_assert_cmpuint (stats->requests, ==, 1);
  g_assert_cmpuint (stats->items, ==, 50);
  /* The capacity of what was read: 50 items, eventually consistent, in 4 KB
   * units, with one unit to spare for the server's own rounding of sizes
   * (not the 1 MB page of 4,200 items: about 128 RCU). */
  flat = dyn_collection_model_get_flat_model (model);
  for (guint i = 0; i < g_list_model_get_n_items (flat); i++)
    {
      g_autoptr(DynItemObject) row = g_list_model_get_item (flat, i);

      bytes += dyn_item_size (dyn_item_object_get_item (row));
    }
  bound = (ceil (bytes / 4096.0) + 1) * 0.5;
  g_test_message ("first page: %u items, %zu bytes, %.1f RCU (bound %.1f)", (guint) stats->items, bytes,
                  stats->read_units, bound);
  g_assert_cmpfloat (stats->read_units, >, 0);
  g_assert_cmpfloat (stats->read_units, <=, bound);
  g_assert_false (dyn_pager_is_done (pager));
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "50 items"));
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "first page limited to 50"));
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "more available"));
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "read just now"));

  /* The setting is in the window, in a menu of the status bar; it is the
   * "page-size" key of the settings. */
  {
    GtkWidget *button = find_menu_button (GTK_WIDGET (window), NULL, "First Page: ");
    g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
    guint page_size = 0;

    g_assert_nonnull (button);
    g_assert_true (gtk_widget_get_visible (button));
    g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (button)), ==, "First Page: 50");
    screenshot (GTK_WINDOW (window), "status-page-size.png");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.page-size", "u", 25));
    g_object_get (window, "page-size", &page_size, NULL);
    g_assert_cmpuint (page_size, ==, 25);
    g_assert_cmpuint (g_settings_get_uint (settings, "page-size"), ==, 25);
    g_assert_cmpstr (gtk_menu_button_get_label (GTK_MENU_BUTTON (button)), ==, "First Page: 25");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.page-size", "u", 50));
    g_assert_cmpuint (g_settings_get_uint (settings, "page-size"), ==, 50);
  }

  /* Away and back: what was read is shown again, no request is sent. */
  open_table (fixture, shows_table);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (window)), ==, 30);
  handler = g_signal_connect (window, "notify::busy", G_CALLBACK (busy_cb), &busy);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-table", "s", movies_table));
  settle ();
  g_signal_handler_disconnect (window, handler);
  g_assert_cmpuint (busy, ==, 0);
  g_assert_false (dyn_window_is_busy (window));
  g_assert_true (dyn_window_get_model (window) == model);
  g_assert_true (dyn_window_get_pager (window) == pager);
  g_assert_cmpuint (dyn_pager_get_stats (pager)->requests, ==, 1);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 50);
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "read just now"));
  g_assert_true (button_enabled (window, "win.refresh"));
  g_assert_true (button_enabled (window, "win.load-more"));

  /* Load More: a full page, without Limit. */
  activate (window, "win.load-more");
  wait_idle (window);
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->pages, ==, 2);
  g_assert_cmpint (dyn_pager_get_request (pager)->limit, ==, 0);
  g_assert_cmpuint (stats->items, >, 1000);
  g_assert_null (strstr (dyn_window_get_status_text (window), "first page limited"));
  screenshot (GTK_WINDOW (window), "status-after-load-more.png");
}

/* Item 10 and 3: each table keeps its builder text and Read-from choice
 * and its staged edits; another table starts with an empty builder. */
static void
test_switch_tables (Fixture       *fixture,
                    gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynExpressionBuilder *builder;
  DynEditSession *session;
  DynCollectionModel *model;
  DynItemObject *row;
  g_autoptr(DynValue) key = NULL;
  g_autofree char *text = NULL;
  const DynRequest *request;
  guint busy = 0;
  gulong handler;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, movies_table);
  builder = dyn_window_get_builder (window);
  dyn_expression_builder_set_index (builder, "ByGenre");
  dyn_expression_builder_set_text (builder, "rating > 8");
  g_assert_null (dyn_expression_builder_get_parse_error (builder));
  session = dyn_window_get_edit_session (window);
  model = dyn_window_get_model (window);
  row = shown_row (fixture, 0);
  key = key_of (fixture, row);
  edit_cell (fixture, row, "plot", "Staged in the movies table");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);

  /* Another table: its own empty builder and session; Run reads it whole. */
  open_table (fixture, shows_table);
  g_assert_cmpstr (dyn_window_get_table (window), ==, shows_table);
  text = dyn_expression_builder_dup_text (builder);
  g_assert_cmpstr (g_strstrip (text), ==, "");
  g_clear_pointer (&text, g_free);
  g_assert_null (dyn_expression_builder_get_index (builder));
  g_assert_true (dyn_window_get_edit_session (window) != session);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 0);
  activate (window, "win.query");
  wait_idle (window);
  g_assert_null (dyn_window_get_error_text (window));
  request = dyn_window_get_request (window);
  g_assert_cmpstr (request->table, ==, shows_table);
  g_assert_cmpint (request->op, ==, DYN_OP_SCAN);
  g_assert_null (request->filter);
  g_assert_null (request->index);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (window)), ==, 30);

  /* Back: the text, the index, the staged edit and its mark, no request. */
  handler = g_signal_connect (window, "notify::busy", G_CALLBACK (busy_cb), &busy);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-table", "s", movies_table));
  settle ();
  g_signal_handler_disconnect (window, handler);
  g_assert_cmpuint (busy, ==, 0);
  text = dyn_expression_builder_dup_text (builder);
  g_assert_cmpstr (g_strstrip (text), ==, "rating > 8");
  g_assert_cmpstr (dyn_expression_builder_get_index (builder), ==, "ByGenre");
  g_assert_true (dyn_window_get_edit_session (window) == session);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_true (dyn_window_get_model (window) == model);
  row = row_like (fixture, key);
  g_assert_nonnull (row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "plot"), ==, "Staged in the movies table");
  g_assert_true (dyn_item_grid_get_edit_session (dyn_window_get_grid (window)) == session);

  /* Nothing was written; discarding leaves the server as it was. */
  {
    g_autoptr(DynValue) stored = server_item (fixture, movies_table, key);

    g_assert_cmpstr (dyn_test_item_get_string (stored, "plot"), !=, "Staged in the movies table");
  }
  dyn_edit_session_discard_all (session);
}

/* Item 3: F5 reads again and keeps each staged row's mark and value; the
 * commit afterwards writes them. */
static void
test_refresh_keeps_staged (Fixture       *fixture,
                           gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynCollectionModel *model;
  DynItemObject *row;
  g_autoptr(DynValue) edited = NULL;
  g_autoptr(DynValue) deleted = NULL;
  g_autoptr(DynValue) stored = NULL;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, movies_table);
  session = dyn_window_get_edit_session (window);
  model = dyn_window_get_model (window);
  row = shown_row (fixture, 2);
  edited = key_of (fixture, row);
  edit_cell (fixture, row, "plot", "Staged before F5");
  row = shown_row (fixture, 3);
  deleted = key_of (fixture, row);
  dyn_item_grid_select_item (dyn_window_get_grid (window), row, TRUE);
  activate (window, "win.delete-item");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 2);

  activate (window, "win.refresh");
  wait_idle (window);
  g_assert_true (dyn_window_get_model (window) != model);
  g_assert_cmpint (dyn_window_get_request (window)->limit, ==, 50);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 2);
  row = row_like (fixture, edited);
  g_assert_nonnull (row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "plot"), ==, "Staged before F5");
  g_assert_true (dyn_edit_session_lookup (session, row) >= 0);
  row = row_like (fixture, deleted);
  g_assert_nonnull (row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_DELETED);

  /* The commit writes them and the new rows show what was written. */
  activate (window, "win.commit-changes");
  wait_idle (window);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 2 changes in 1 transaction");
  row = row_like (fixture, edited);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_UNCHANGED);
  g_assert_null (row_like (fixture, deleted));
  stored = server_item (fixture, movies_table, edited);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "plot"), ==, "Staged before F5");
  g_assert_null (server_item (fixture, movies_table, deleted));

  /* Put the movie back for the other cases. */
  activate (window, "win.undo-commit");
  click_response (find_dialog (window), "_Undo Commit");
  wait_idle (window);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, movies_table, deleted);
  g_assert_nonnull (stored);
}

/* Item 3: quitting with staged changes in two tables asks, naming them;
 * Cancel keeps everything, Commit writes both and closes. */
static void
test_quit_asks (Fixture       *fixture,
                gconstpointer  data)
{
  DynWindow *window = fixture->window;
  AdwMessageDialog *dialog;
  g_autoptr(DynValue) movie = NULL;
  g_autoptr(DynValue) show_a = NULL;
  g_autoptr(DynValue) show_b = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autofree char *movies_part = NULL;
  g_autofree char *shows_part = NULL;
  DynItemObject *row;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, movies_table);
  row = shown_row (fixture, 4);
  movie = key_of (fixture, row);
  edit_cell (fixture, row, "plot", "Committed on quit");
  open_table (fixture, shows_table);
  row = shown_row (fixture, 0);
  show_a = key_of (fixture, row);
  edit_cell (fixture, row, "name", "Renamed on quit");
  row = shown_row (fixture, 1);
  show_b = key_of (fixture, row);
  edit_cell (fixture, row, "name", "Renamed on quit too");

  /* Ctrl+Q. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  dyn_test_iterate ();
  g_assert_false (closed (fixture));
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Commit Changes Before Closing?");
  movies_part = g_strdup_printf ("1 change in %s", movies_table);
  shows_part = g_strdup_printf ("2 changes in %s", shows_table);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), movies_part));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), shows_part));
  g_assert_true (adw_message_dialog_has_response (dialog, "commit"));
  g_assert_true (adw_message_dialog_has_response (dialog, "discard"));
  g_assert_true (adw_message_dialog_has_response (dialog, "cancel"));
  screenshot (GTK_WINDOW (dialog), "quit-dialog.png");

  /* Cancel: nothing happens. */
  click_response (dialog, "_Cancel");
  g_assert_null (find_dialog (window));
  g_assert_false (closed (fixture));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 2);

  /* Closing the window asks the same; Commit writes both tables and closes. */
  gtk_window_close (GTK_WINDOW (window));
  dyn_test_iterate ();
  g_assert_false (closed (fixture));
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  click_response (dialog, "C_ommit");
  while (!closed (fixture) && dyn_window_is_busy (window))
    g_main_context_iteration (NULL, TRUE);
  dyn_test_iterate ();
  g_assert_true (closed (fixture));
  stored = server_item (fixture, movies_table, movie);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "plot"), ==, "Committed on quit");
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, shows_table, show_a);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "name"), ==, "Renamed on quit");
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, shows_table, show_b);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "name"), ==, "Renamed on quit too");
}

/* Item 3: opening another connection asks too; Discard drops the staged
 * work (nothing written) and opens it. */
static void
test_other_connection_asks (Fixture       *fixture,
                            gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynTestServer *server;
  g_autoptr(DynConnection) other = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;
  DynItemObject *row;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, shows_table);
  row = shown_row (fixture, 2);
  key = key_of (fixture, row);
  edit_cell (fixture, row, "name", "Never written");

  server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  other = dyn_connection_new ("Other");
  dyn_connection_set_region (other, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (other, dyn_test_server_get_endpoint (server));
  dyn_window_add_connection (window, other, NULL);
  dyn_test_iterate ();
  g_assert_true (dyn_window_get_connection (window) == fixture->connection);
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  heading = g_strdup_printf ("Commit Changes Before Opening “%s”?", "Other");
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
  click_response (dialog, "_Discard");
  wait_idle (window);
  g_assert_true (dyn_window_get_connection (window) == other);
  g_assert_null (dyn_window_get_table (window));
  stored = server_item (fixture, shows_table, key);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "name"), !=, "Never written");
  /* Nothing is left to ask about. */
  gtk_window_close (GTK_WINDOW (window));
  dyn_test_iterate ();
  g_assert_true (closed (fixture));
}

/* Item 4: undo names its commit and table, asks before writing, is offered
 * only on its table and leaves a text field's Ctrl+Z alone. */
static void
test_undo_confirms (Fixture       *fixture,
                    gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *before = NULL;
  AdwMessageDialog *dialog;
  DynItemObject *row;

  if (window == NULL)
    return;
  open_connection (fixture, FALSE);
  open_table (fixture, movies_table);
  row = shown_row (fixture, 5);
  key = key_of (fixture, row);
  before = g_strdup (dyn_test_item_get_string (dyn_item_object_get_item (row), "plot"));
  edit_cell (fixture, row, "plot", "Committed, then undone");
  activate (window, "win.commit-changes");
  wait_idle (window);
  g_assert_true (dyn_edit_session_get_can_undo (dyn_window_get_edit_session (window)));
  g_assert_true (button_enabled (window, "win.undo-commit"));

  /* Another table: undo is not offered and does nothing. */
  open_table (fixture, shows_table);
  g_assert_false (button_enabled (window, "win.undo-commit"));
  activate (window, "win.undo-commit");
  press_ctrl_z (window);
  dyn_test_iterate ();
  g_assert_null (find_dialog (window));

  /* Back on its table: in a text field Ctrl+Z is the field's. */
  open_table (fixture, movies_table);
  g_assert_true (button_enabled (window, "win.undo-commit"));
  activate (window, "win.focus-filter");
  dyn_test_iterate ();
  g_assert_true (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (window))));
  g_assert_false (press_ctrl_z (window));
  dyn_test_iterate ();
  g_assert_null (find_dialog (window));

  /* Elsewhere it asks, naming the commit; Cancel writes nothing. */
  gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_column_view (dyn_window_get_grid (window))));
  g_assert_true (press_ctrl_z (window));
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  heading = g_strdup_printf ("Undo Commit of 1 Change to %s?", movies_table);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
  screenshot (GTK_WINDOW (dialog), "undo-dialog.png");
  click_response (dialog, "_Cancel");
  wait_idle (window);
  stored = server_item (fixture, movies_table, key);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "plot"), ==, "Committed, then undone");
  g_clear_pointer (&stored, dyn_value_unref);

  /* Undo Commit: the inverse write. */
  activate (window, "win.undo-commit");
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  click_response (dialog, "_Undo Commit");
  wait_idle (window);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Undid the last commit: 1 change"));
  stored = server_item (fixture, movies_table, key);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "plot"), ==, before);
  g_assert_false (button_enabled (window, "win.undo-commit"));
}

/* Item 14: a table deleted by someone else: the status says so, reads are
 * disabled and the sidebar's list drops it, without Ctrl+R. */
static void
test_table_deleted (Fixture       *fixture,
                    gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autofree char *table = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;
  GListModel *listed;
  const DynReadStats *stats;
  guint requests;

  if (window == NULL)
    return;
  table = dyn_test_table_name ("Doomed");
  g_assert_true (dyn_test_create_table (fixture->other, table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < 120; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"S\":\"doomed-%03u\"}}", i));
  g_assert_true (dyn_test_load_items (fixture->other, table, items, &error));
  g_assert_no_error (error);

  open_connection (fixture, FALSE);
  open_table (fixture, table);
  g_assert_true (button_enabled (window, "win.load-more"));
  g_assert_true (dyn_test_delete_table (fixture->other, table, &error));
  g_assert_no_error (error);

  activate (window, "win.load-more");
  wait_idle (window);
  expected = g_strdup_printf ("Table %s no longer exists", table);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, expected);
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "ResourceNotFoundException"));
  g_assert_false (button_enabled (window, "win.load-more"));
  g_assert_false (button_enabled (window, "win.load-all"));
  g_assert_false (button_enabled (window, "win.refresh"));
  g_assert_false (button_enabled (window, "win.scan"));
  g_assert_false (button_enabled (window, "win.query"));
  /* The action refuses too: no request. */
  stats = dyn_pager_get_stats (dyn_window_get_pager (window));
  requests = stats->requests;
  gtk_widget_activate_action (GTK_WIDGET (window), "win.load-more", NULL);
  g_assert_false (dyn_window_is_busy (window));
  g_assert_cmpuint (stats->requests, ==, requests);

  /* The list was read again: the table is gone from it. */
  g_assert_false (g_strv_contains (dyn_window_get_tables (window), table));
  g_assert_true (g_strv_contains (dyn_window_get_tables (window), movies_table));
  listed = dyn_connection_sidebar_get_tables (dyn_window_get_sidebar (window), fixture->connection);
  g_assert_cmpuint (g_list_model_get_n_items (listed), >, 0);
  for (guint i = 0; i < g_list_model_get_n_items (listed); i++)
    {
      g_autoptr(GtkStringObject) name = g_list_model_get_item (listed, i);

      g_assert_cmpstr (gtk_string_object_get_string (name), !=, table);
    }
}

/* Item 15: a read-only connection hides "+" and the edit menu; a refused
 * attempt says read-only, not that editing failed. */
static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  g_autofree char *expected = NULL;
  GtkWidget *button;

  if (window == NULL)
    return;
  open_connection (fixture, TRUE);
  open_table (fixture, movies_table);
  grid = dyn_window_get_grid (window);
  expected = g_strdup_printf ("%s is opened read-only: nothing can be changed or written", movies_table);

  button = find_actionable (GTK_WIDGET (window), "win.new-item");
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_visible (button));
  button = find_menu_button (GTK_WIDGET (window), "document-edit-symbolic", NULL);
  g_assert_nonnull (button);
  g_assert_false (gtk_widget_get_visible (button));
  screenshot (GTK_WINDOW (window), "read-only.png");

  /* Delete (a shortcut): refused, saying why. */
  dyn_item_grid_select_item (grid, shown_row (fixture, 0), TRUE);
  activate (window, "win.delete-item");
  g_assert_cmpstr (dyn_window_get_error_text (window), ==, expected);
  g_assert_null (strstr (dyn_window_get_error_text (window), "failed"));
  activate (window, "win.dismiss-error");
  g_assert_null (dyn_window_get_error_text (window));

  /* A cell (double-click) and the JSON editor (Ctrl+O, Insert). */
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "plot"));
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  g_assert_cmpstr (dyn_window_get_error_text (window), ==, expected);
  activate (window, "win.dismiss-error");
  activate (window, "win.new-item");
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_cmpstr (dyn_window_get_error_text (window), ==, expected);
  activate (window, "win.dismiss-error");
  activate (window, "win.edit-item");
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_cmpstr (dyn_window_get_error_text (window), ==, expected);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 0);
  screenshot (GTK_WINDOW (window), "read-only-refused.png");
}

/* The texts of the client record: the age and the list of staged tables. */
static void
test_texts (void)
{
  const gint64 second = G_USEC_PER_SEC;
  gint64 now = 1700000000 * second;
  const char *tables[] = { "Movies", "Shows", "Books" };
  guint counts[] = { 3, 1, 2 };
  guint none[] = { 0, 1, 0 };
  g_autofree char *a = dyn_describe_read_age (now - 30 * second, now);
  g_autofree char *b = dyn_describe_read_age (now - 130 * second, now);
  g_autofree char *c = dyn_describe_read_age (now - 3 * 3600 * second, now);
  g_autofree char *d = dyn_describe_read_age (now - 49 * 3600 * second, now);
  g_autofree char *e = dyn_describe_read_age (now + second, now);
  g_autofree char *one = dyn_describe_staged_tables (tables, counts, 1);
  g_autofree char *two = dyn_describe_staged_tables (tables, counts, 2);
  g_autofree char *three = dyn_describe_staged_tables (tables, counts, 3);
  g_autofree char *skipped = dyn_describe_staged_tables (tables, none, 3);
  g_autofree char *key = dyn_table_state_make_key ("id", "Movies");
  g_autoptr(DynTableState) state = dyn_table_state_new ("id", "Movies");

  g_assert_cmpstr (a, ==, "read just now");
  g_assert_cmpstr (b, ==, "read 2 min ago");
  g_assert_cmpstr (c, ==, "read 3 h ago");
  g_assert_cmpstr (d, ==, "read 2 days ago");
  g_assert_cmpstr (e, ==, "read just now");
  g_assert_cmpstr (one, ==, "3 changes in Movies");
  g_assert_cmpstr (two, ==, "3 changes in Movies and 1 change in Shows");
  g_assert_cmpstr (three, ==, "3 changes in Movies, 1 change in Shows and 2 changes in Books");
  g_assert_cmpstr (skipped, ==, "1 change in Shows");
  g_assert_cmpstr (state->table, ==, "Movies");
  g_assert_cmpstr (key, !=, "idMovies");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-state");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/dyn/window-state/texts", test_texts);
#define ADD(path, func) \
  g_test_add ("/dyn/window-state/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("first-page", test_first_page);
  ADD ("switch-tables", test_switch_tables);
  ADD ("refresh-keeps-staged", test_refresh_keeps_staged);
  ADD ("quit-asks", test_quit_asks);
  ADD ("other-connection-asks", test_other_connection_asks);
  ADD ("undo-confirms", test_undo_confirms);
  ADD ("table-deleted", test_table_deleted);
  ADD ("read-only", test_read_only);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (movies_table);
  g_free (shows_table);
  return status;
}
