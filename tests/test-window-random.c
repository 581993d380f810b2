/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-random"
#include "config.h"

#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-value-format.h"
#include "dyn-window.h"

/* The main window under Xvfb against DynamoDB Local, driven through its
 * actions as a user's gestures end up, with G_DEBUG=fatal-criticals: the
 * sequence that used to hang the window (a create that conflicts, "Keep
 * Server's Item", delete, commit, the staged pane, a cell edited and
 * cancelled, Ctrl+I); the keyboard focus on widgets that leave the window;
 * undo with a staged change on the same item; then long random sequences of
 * the window's actions (see "The random-action test" below). */

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

/* A few frames: rows are bound to widgets, panes laid out, focus moved. */
static void
settle (void)
{
  for (guint i = 0; i < 6; i++)
    {
      dyn_test_iterate ();
      g_usleep (4000);
    }
  dyn_test_iterate ();
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
  if (fixture->table != NULL)
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
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", table));
  dyn_test_wait_idle (fixture->window);
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

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_list_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A click on @row: the column view's list selects it and gives it the
 * focus ("list.select-item", what its click gesture does). */
static void
click_row (DynItemGrid   *grid,
           DynItemObject *row)
{
  GListModel *rows = dyn_item_grid_get_rows (grid);
  GtkWidget *list = find_list_view (GTK_WIDGET (dyn_item_grid_get_column_view (grid)));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);

      if (item == (gpointer) row)
        {
          g_assert_nonnull (list);
          g_assert_true (gtk_widget_activate_action (list, "list.select-item", "(ubb)", i, FALSE, FALSE));
          /* The row widget takes the focus as the click lands on it. */
          gtk_widget_grab_focus (list);
          settle ();
          return;
        }
    }
  g_assert_not_reached ();
}

/* With DYN_SCREENSHOT_DIR set: the window as a PNG there, to look at. */
static void
maybe_screenshot (DynWindow  *window,
                  const char *name)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  g_assert_true (dyn_window_save_png (GTK_WINDOW (window), path, &error));
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
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
  dyn_test_wait_idle (window);
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

  /* Delete that row (clicked: it has the focus) and commit. */
  click_row (grid, row);
  g_assert_true (dyn_item_grid_get_selected_item (grid) == row);
  activate (window, "win.delete-item");
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
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
  click_row (grid, row);
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
  maybe_screenshot (window, grouped ? "window-random-hang-grouped.png" : "window-random-hang-flat.png");
}

/* ------------------------------------------------------------------------ */
/* The random-action test.
 *
 * A seeded PRNG picks the window's actions one after another, as a user's
 * gestures end up: a cell edited in place (double-click, text, Enter, or
 * Escape), an item edited or created in the JSON editor, rows deleted,
 * commits, conflicts (a second client changes items in between) resolved
 * by keeping the server's item, mine, or per attribute, undo, another table,
 * the panes toggled, refresh, more pages. The main loop runs between steps.
 * After each step the invariants are checked:
 *
 *  - no critical or warning (G_DEBUG=fatal-criticals makes them fatal);
 *  - the window's staged count (the changes button, the staged pane) is the
 *    session's;
 *  - every staged row shows its staged value and mark, in the model and in
 *    the shown cells; every shown row is an object of the current model;
 *  - the detail pane shows the selected item;
 *  - the server holds what the test committed and nothing else: the test
 *    keeps the server's expected items (the second client's writes
 *    included); a commit may only change the keys of the changes staged
 *    then, each to the staged change applied (or not at all when it stays
 *    staged as a conflict), an undo only the keys of the commit undone;
 *  - no row refers to a freed object (AddressSanitizer, G_SLICE=always-malloc).
 *
 * DYN_RANDOM_SEED (default below) and DYN_RANDOM_STEPS choose the run; a
 * failure prints the seed and the action log, so that it can be replayed
 * (DYN_RANDOM_LOG=1 prints the log of a run that passes, too). Any message
 * dialog the window shows (a confirmation) is answered by a click on one of
 * the responses in dialog_responses[], chosen at random; a response in
 * writing_responses[] counts as asking for a commit (or the undo).
 *
 * To add an action: a function action_…(Run *) that does what the user's
 * gesture would (log_action() first; allow_commit() before anything that
 * may write the staged changes), and a line in random_actions[] (and in
 * busy_actions[] when it is harmless while a commit is in flight). */

#define DEFAULT_SEED 20260807u
/* About a minute in the normal and in the AddressSanitizer build. */
#define DEFAULT_STEPS 300
#define N_TABLES 3
#define PAGE_LIMIT 5

/* Issue 8 item 3 is fixed on another branch: until then F5 with staged
 * changes shows the server's rows (the marks are lost), so after such a
 * refresh the staged rows are not checked until nothing is staged. TRUE
 * once that fix is merged. */
#define REFRESH_KEEPS_STAGED FALSE

/* Responses the test gives to a message dialog, by id, when the dialog has
 * them; the first that exists among a random rotation is used. Responses
 * that write are listed in writing_responses[]. */
static const char * const dialog_responses[] = {
  "cancel", "commit", "discard", "undo", "delete", "save", "keep", "close", "ok",
};
static const char * const writing_responses[] = { "commit", "undo", "save" };

typedef struct {
  char         *name;
  DynKeySchema  keys;
  GHashTable   *expected;     /* key text → DynValue: what the server holds */
  /* The last commit that applied something, for undo: key text → the item
   * before and after it (NULL: absent). */
  GHashTable   *undo_before;
  GHashTable   *undo_after;
  guint         undo_session; /* serial of the session that committed it */
  guint         next_id;
} Table;

/* A key a step may write: what the server holds now and what it holds if
 * the write happens. */
typedef enum {
  ORIGIN_COMMIT,
  ORIGIN_UNDO,
} Origin;

typedef struct {
  DynValue *old_item;
  DynValue *new_item;
  Origin    origin;
  gboolean  strict;           /* the commit is done: the write happened or not */
  gboolean  written;          /* with strict: which */
} Allowed;

typedef struct {
  Fixture      *fixture;
  DynConnection *connection;
  GRand        *rand;
  guint32       seed;
  guint         step;
  guint         n_steps;
  GString      *log;
  Table         tables[N_TABLES];
  guint         current;      /* index of the open table */
  guint         session_serial;
  /* What the current step (and a commit still in flight) may write. */
  GHashTable   *allowed;      /* key text → Allowed */
  GHashTable   *snapshot;     /* key text → Allowed: the staged changes before the step */
  gboolean      expect_undo;  /* the next "committed" of the session is an undo */
  char         *focus;        /* where the focus was, for the log */
  GHashTable   *stale_sessions; /* serials of sessions refreshed with staged changes, see REFRESH_KEEPS_STAGED */
  /* Counters for the summary. */
  guint         n_commits;
  guint         n_conflicts;
  guint         n_undos;
  guint         n_dialogs;
} Run;

static Run *current_run;

/* For hash table values that may be NULL (an absent item). */
static void
value_unref0 (gpointer value)
{
  if (value != NULL)
    dyn_value_unref (value);
}

static void
allowed_free (gpointer data)
{
  Allowed *allowed = data;

  g_clear_pointer (&allowed->old_item, dyn_value_unref);
  g_clear_pointer (&allowed->new_item, dyn_value_unref);
  g_free (allowed);
}

static void
print_log (void)
{
  if (current_run == NULL)
    return;
  g_printerr ("\n# window-random: seed %u, failed at step %u of %u. Replay: DYN_RANDOM_SEED=%u DYN_RANDOM_STEPS=%u\n"
              "# The actions:\n%s\n", current_run->seed, current_run->step, current_run->n_steps,
              current_run->seed, current_run->step + 1, current_run->log->str);
}

static gboolean
fatal_log_cb (const char     *log_domain,
              GLogLevelFlags  log_level,
              const char     *message,
              gpointer        user_data)
{
  print_log ();
  return TRUE;
}

/* A crash: the log as well (not async-signal-safe, but the process is
 * going down anyway). */
static void
crash_cb (int signum)
{
  print_log ();
  signal (signum, SIG_DFL);
  raise (signum);
}

/* AddressSanitizer's report: the log as well. */
extern void __sanitizer_set_death_callback (void (*callback) (void)) __attribute__ ((weak));

static void
log_action (Run        *run,
            const char *format,
            ...) G_GNUC_PRINTF (2, 3);

static void
log_action (Run        *run,
            const char *format,
            ...)
{
  va_list args;

  g_string_append_printf (run->log, "#  %3u [%s] ", run->step, run->tables[run->current].name);
  va_start (args, format);
  g_string_append_vprintf (run->log, format, args);
  va_end (args);
  g_string_append_c (run->log, '\n');
}

/* Fails the test with the log. */
#define check(run, cond, ...) \
  G_STMT_START { \
    if (!(cond)) \
      { \
        log_action ((run), "CHECK FAILED: " __VA_ARGS__); \
        print_log (); \
        g_error ("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
      } \
  } G_STMT_END

static char *
key_text (const DynKeySchema *keys,
          const DynValue     *item)
{
  g_autoptr(DynValue) key = item ? dyn_item_key (item, keys) : NULL;

  return key ? dyn_item_to_ddb_json_string (key) : NULL;
}

static char *
item_text (const DynValue *item)
{
  return item ? dyn_item_to_ddb_json_string (item) : g_strdup ("(none)");
}

static gboolean
items_equal (const DynValue *a,
             const DynValue *b)
{
  return (a == NULL && b == NULL) || (a != NULL && b != NULL && dyn_value_equal (a, b));
}

static Table *
current_table (Run *run)
{
  return &run->tables[run->current];
}

static DynWindow *
run_window (Run *run)
{
  return run->fixture->window;
}

static guint
random_below (Run  *run,
              guint n)
{
  return n > 0 ? (guint) g_rand_int_range (run->rand, 0, n) : 0;
}

static gboolean
chance (Run    *run,
        double  p)
{
  return g_rand_double (run->rand) < p;
}

static const char *
pick (Run                *run,
      const char * const *choices,
      guint               n)
{
  return choices[random_below (run, n)];
}

/* The tables: two with a composite key, one with a partition key only. */

static DynValue *
make_item (Run        *run,
           Table      *table,
           guint       id)
{
  static const char * const names[] = { "Website", "Data lake", "Mobile app", "Search", "Billing", "Reports" };
  static const char * const statuses[] = { "active", "draft", "paused", "done" };
  g_autoptr(DynValue) item = dyn_value_new_map ();
  g_autofree char *pk = NULL;
  g_autofree char *sk = NULL;
  g_autofree char *budget = g_strdup_printf ("%u.%02u", 1000 + random_below (run, 90000), random_below (run, 100));

  if (table->keys.sort_key != NULL)
    {
      pk = g_strdup_printf ("WS#%c", 'a' + id % 3);
      sk = id % 4 == 0 ? g_strdup_printf ("META#%03u", id) : g_strdup_printf ("PROJ#%03u", id);
      dyn_value_map_take (item, table->keys.partition_key, dyn_value_new_string (pk));
      dyn_value_map_take (item, table->keys.sort_key, dyn_value_new_string (sk));
    }
  else
    {
      pk = g_strdup_printf ("item-%03u", id);
      dyn_value_map_take (item, table->keys.partition_key, dyn_value_new_string (pk));
    }
  dyn_value_map_take (item, "Name", dyn_value_new_string (names[id % G_N_ELEMENTS (names)]));
  dyn_value_map_take (item, "Status", dyn_value_new_string (statuses[random_below (run, G_N_ELEMENTS (statuses))]));
  dyn_value_map_take (item, "Budget", dyn_value_new_number (budget, NULL));
  if (id % 3 == 1)
    {
      const char *tags[] = { "web", "data", "ops" };

      dyn_value_map_take (item, "Tags", dyn_value_new_string_set (tags, 1 + id % 3, NULL));
    }
  if (id % 3 == 2)
    {
      g_autoptr(DynValue) info = dyn_value_new_map ();
      g_autofree char *rank = g_strdup_printf ("%u", id);

      dyn_value_map_take (info, "rank", dyn_value_new_number (rank, NULL));
      dyn_value_map_take (info, "owner", dyn_value_new_string ("ops@example.com"));
      dyn_value_map_take (item, "Info", g_steal_pointer (&info));
    }
  if (id % 5 == 0)
    dyn_value_map_take (item, "Active", dyn_value_new_bool (id % 2 == 0));
  return g_steal_pointer (&item);
}

static void
expect (Table    *table,
        DynValue *item)
{
  g_hash_table_replace (table->expected, key_text (&table->keys, item), dyn_value_ref (item));
}

static void
tables_set_up (Run *run)
{
  DynClient *other = run->fixture->other;
  const char *prefixes[N_TABLES] = { "RandA", "RandB", "RandC" };

  for (guint t = 0; t < N_TABLES; t++)
    {
      Table *table = &run->tables[t];
      g_autoptr(GError) error = NULL;
      guint n = t == 0 ? 14 : 9;

      table->name = dyn_test_table_name (prefixes[t]);
      table->keys.partition_key = g_strdup (t == 2 ? "Id" : "EntityRef");
      table->keys.partition_type = DYN_VALUE_S;
      table->keys.sort_key = t == 2 ? NULL : g_strdup ("Detail");
      table->keys.sort_type = DYN_VALUE_S;
      table->expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
      table->undo_before = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, value_unref0);
      table->undo_after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, value_unref0);
      g_assert_true (dyn_test_create_table (other, table->name, t == 2 ? "Id:S" : "EntityRef:S",
                                            t == 2 ? NULL : "Detail:S", NULL, &error));
      g_assert_no_error (error);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(DynValue) item = make_item (run, table, table->next_id++);

          g_assert_true (dyn_test_put_item (other, table->name, item, &error));
          g_assert_no_error (error);
          expect (table, item);
        }
    }
}

static void
tables_tear_down (Run *run)
{
  for (guint t = 0; t < N_TABLES; t++)
    {
      Table *table = &run->tables[t];

      if (table->name != NULL)
        dyn_test_delete_table (run->fixture->other, table->name, NULL);
      g_free (table->name);
      g_free (table->keys.partition_key);
      g_free (table->keys.sort_key);
      g_clear_pointer (&table->expected, g_hash_table_unref);
      g_clear_pointer (&table->undo_before, g_hash_table_unref);
      g_clear_pointer (&table->undo_after, g_hash_table_unref);
    }
}

/* Message dialogs the window shows (confirmations): answered. */

static AdwMessageDialog *
find_dialog (Run *run)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

static void wait_quiet (Run *run);
static void allow_commit (Run *run);

static GtkWidget *
find_response_button (GtkWidget  *widget,
                      const char *label)
{
  if (label == NULL)
    return NULL;
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_response_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
answer_dialogs (Run *run)
{
  AdwMessageDialog *dialog;
  GtkWidget *response_button;

  for (guint rounds = 0; rounds < 5 && (dialog = find_dialog (run)) != NULL; rounds++)
    {
      guint start = random_below (run, G_N_ELEMENTS (dialog_responses));
      const char *response = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (dialog_responses) && response == NULL; i++)
        {
          const char *id = dialog_responses[(start + i) % G_N_ELEMENTS (dialog_responses)];

          if (adw_message_dialog_has_response (dialog, id) && adw_message_dialog_get_response_enabled (dialog, id))
            response = id;
        }
      if (response == NULL)
        response = adw_message_dialog_get_close_response (dialog);
      log_action (run, "dialog “%s”: %s", adw_message_dialog_get_heading (dialog), response);
      run->n_dialogs++;
      if (g_strv_contains (writing_responses, response))
        {
          /* The undo writes the inverse of the last commit only, what
           * allow_undo() allowed; staged changes stay staged (allowing them
           * here would take back what the undo may write to a key that is
           * staged again). */
          if (g_strcmp0 (response, "undo") == 0)
            run->expect_undo = TRUE;
          else
            allow_commit (run);
        }
      /* A click on the response's button; without one (the close
       * response), what Escape does. */
      response_button = find_response_button (GTK_WIDGET (dialog),
                                              adw_message_dialog_has_response (dialog, response)
                                              ? adw_message_dialog_get_response_label (dialog, response) : NULL);
      if (response_button != NULL)
        g_signal_emit_by_name (response_button, "clicked");
      else
        gtk_window_close (GTK_WINDOW (dialog));
      wait_quiet (run);
    }
}

/* Lets the window finish what it started: reads, commits, the dialogs. */
static void
wait_quiet (Run *run)
{
  settle ();
  dyn_test_wait_idle (run_window (run));
  settle ();
}

/* Rows. */

static DynItemGrid *
run_grid (Run *run)
{
  return dyn_window_get_grid (run_window (run));
}

/* The item rows shown (not the collection headers), in order. */
static GPtrArray *
item_rows (Run *run)
{
  GListModel *rows = dyn_item_grid_get_rows (run_grid (run));
  GPtrArray *items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (rows, i);

      if (DYN_IS_ITEM_OBJECT (item))
        g_ptr_array_add (items, g_steal_pointer (&item));
    }
  return items;
}

static DynItemObject *
random_row (Run *run)
{
  g_autoptr(GPtrArray) rows = item_rows (run);

  if (rows->len == 0)
    return NULL;
  return rows->pdata[random_below (run, rows->len)];   /* the model keeps it */
}

static char *
row_title (Run           *run,
           DynItemObject *row)
{
  return key_text (&current_table (run)->keys, dyn_item_object_get_item (row));
}

static gboolean
select_random_row (Run *run)
{
  DynItemObject *row = random_row (run);
  g_autofree char *title = NULL;

  if (row == NULL)
    return FALSE;
  title = row_title (run, row);
  if (chance (run, 0.5))
    {
      log_action (run, "click %s", title);
      click_row (run_grid (run), row);
    }
  else
    {
      log_action (run, "select %s", title);
      dyn_item_grid_select_item (run_grid (run), row, TRUE);
      settle ();
    }
  return dyn_item_grid_get_selected_item (run_grid (run)) != NULL;
}

static gboolean
window_action (Run        *run,
               const char *action,
               GVariant   *parameter)
{
  gboolean done = gtk_widget_activate_action_variant (GTK_WIDGET (run_window (run)), action, parameter);

  check (run, done, "no action %s", action);
  return done;
}

/* Writes the server state checks need: what the staged changes may do. */

static DynValue *
apply_change (DynValue *server,
              DynValue *before,
              DynValue *after)
{
  DynValue *result;

  if (after == NULL)
    return NULL;
  if (before == NULL)
    return dyn_value_ref (after);
  /* An update of an item that is gone must not bring it back. */
  if (server == NULL)
    return NULL;
  result = dyn_value_ref (server);
  for (guint i = 0; i < dyn_value_get_length (after); i++)
    {
      const char *name = dyn_value_map_get_name (after, i);
      DynValue *value = dyn_value_map_get_value (after, i);

      if (!items_equal (dyn_value_map_lookup (before, name), value))
        {
          DynValue *next = dyn_item_with_attribute (result, name, value);

          dyn_value_unref (result);
          result = next;
        }
    }
  for (guint i = 0; i < dyn_value_get_length (before); i++)
    {
      const char *name = dyn_value_map_get_name (before, i);

      if (dyn_value_map_lookup (after, name) == NULL && dyn_value_map_lookup (result, name) != NULL)
        {
          DynValue *next = dyn_item_with_attribute (result, name, NULL);

          dyn_value_unref (result);
          result = next;
        }
    }
  return result;
}

static Allowed *
add_allowed (GHashTable *allowed,
             char       *key,          /* taken */
             DynValue   *old_item,
             DynValue   *new_item)
{
  Allowed *entry = g_new0 (Allowed, 1);

  entry->old_item = old_item ? dyn_value_ref (old_item) : NULL;
  entry->new_item = new_item ? dyn_value_ref (new_item) : NULL;
  g_hash_table_replace (allowed, key, entry);
  return entry;
}

/* The keys of change (@before, @after) with what they may become. */
static void
allow_change (Table      *table,
              GHashTable *allowed,
              DynValue   *before,
              DynValue   *after)
{
  g_autofree char *before_key = key_text (&table->keys, before);
  g_autofree char *after_key = key_text (&table->keys, after);

  if (before_key != NULL && after_key != NULL && strcmp (before_key, after_key) != 0)
    {
      /* A key change: the old key goes, the new one is created. */
      add_allowed (allowed, g_steal_pointer (&before_key), g_hash_table_lookup (table->expected, before_key), NULL);
      {
        DynValue *server = g_hash_table_lookup (table->expected, after_key);

        add_allowed (allowed, g_steal_pointer (&after_key), server, after);
      }
      return;
    }
  {
    const char *key = after_key ? after_key : before_key;
    DynValue *server = g_hash_table_lookup (table->expected, key);
    g_autoptr(DynValue) result = apply_change (server, before, after);

    add_allowed (allowed, g_strdup (key), server, result);
  }
}

/* The staged changes of the open table, before a step. */
static void
take_snapshot (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));
  Table *table = current_table (run);

  g_hash_table_remove_all (run->snapshot);
  if (session == NULL)
    return;
  for (guint i = 0; i < dyn_edit_session_get_n_changes (session); i++)
    {
      DynChange *change = dyn_edit_session_get_change (session, i);

      allow_change (table, run->snapshot, dyn_change_get_before (change), dyn_change_get_after (change));
    }
}

/* Whether the session still has a change for @key. */
static gboolean
session_has_key (Run        *run,
                 const char *key)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));
  Table *table = current_table (run);

  for (guint i = 0; session != NULL && i < dyn_edit_session_get_n_changes (session); i++)
    {
      DynChange *change = dyn_edit_session_get_change (session, i);
      g_autofree char *a = key_text (&table->keys, dyn_change_get_before (change));
      g_autofree char *b = key_text (&table->keys, dyn_change_get_after (change));

      if (g_strcmp0 (a, key) == 0 || g_strcmp0 (b, key) == 0)
        return TRUE;
    }
  return FALSE;
}

static guint
session_serial (Run            *run,
                DynEditSession *session)
{
  guint serial = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (session), "test-serial"));

  if (serial == 0)
    {
      serial = ++run->session_serial;
      g_object_set_data (G_OBJECT (session), "test-serial", GUINT_TO_POINTER (serial));
    }
  return serial;
}

/* The server's items of @table. */
static GHashTable *
server_items (Run   *run,
              Table *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  GHashTable *items = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);

  response = dyn_test_callf (run->fixture->other, "Scan", &error, "{\"TableName\":\"%s\",\"ConsistentRead\":true}",
                             table->name);
  g_assert_no_error (error);
  for (guint i = 0; response->items != NULL && i < response->items->len; i++)
    {
      DynValue *item = response->items->pdata[i];

      g_hash_table_replace (items, key_text (&table->keys, item), dyn_value_ref (item));
    }
  return items;
}

/* Compares the server with what the test expects, given what the step
 * may have written, and takes the server's items as expected from now on. */
static void
verify_server (Run      *run,
               Table    *table,
               gboolean  this_table)
{
  g_autoptr(GHashTable) server = server_items (run, table);
  g_autoptr(GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key, value;
  gboolean committed_here = FALSE;

  g_hash_table_iter_init (&iter, table->expected);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (keys, key);
  g_hash_table_iter_init (&iter, server);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (keys, key);
  g_hash_table_iter_init (&iter, keys);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      DynValue *now = g_hash_table_lookup (server, key);
      DynValue *before = g_hash_table_lookup (table->expected, key);
      Allowed *allowed = this_table ? g_hash_table_lookup (run->allowed, key) : NULL;
      g_autofree char *now_text = item_text (now);
      g_autofree char *before_text = item_text (before);

      if (items_equal (now, before))
        {
          check (run, allowed == NULL || !allowed->strict || !allowed->written ||
                      items_equal (allowed->new_item, before),
                 "%s: the change that left the staged list was not written: %s", (char *) key, now_text);
          continue;
        }
      check (run, allowed != NULL, "%s changed on the server without being committed: %s → %s",
             (char *) key, before_text, now_text);
      {
        g_autofree char *new_text = item_text (allowed->new_item);

        check (run, items_equal (now, allowed->new_item),
               "%s: the server holds %s, neither what it held (%s) nor the staged change (%s)",
               (char *) key, now_text, before_text, new_text);
        check (run, !allowed->strict || allowed->written,
               "%s was written though its change is still staged: %s", (char *) key, now_text);
      }
      committed_here = TRUE;
    }
  (void) committed_here;
  g_hash_table_remove_all (table->expected);
  g_hash_table_iter_init (&iter, server);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (table->expected, g_strdup (key), dyn_value_ref (value));
}

/* Before a commit starts: it may write the staged changes of the snapshot. */
static void
allow_commit (Run *run)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, run->snapshot);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Allowed *entry = value;

      add_allowed (run->allowed, g_strdup (key), entry->old_item, entry->new_item)->origin = ORIGIN_COMMIT;
    }
}

/* The session's commit is done: each change that left the list was
 * written, each that stayed was not; the record for undo. */
static void
commit_done (Run            *run,
             DynEditSession *session)
{
  Table *table = current_table (run);
  g_autoptr(GHashTable) server = server_items (run, table);
  GHashTableIter iter;
  gpointer key, value;
  gboolean applied = FALSE;

  g_hash_table_iter_init (&iter, run->allowed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Allowed *entry = value;

      if (entry->origin != ORIGIN_COMMIT || entry->strict)
        continue;
      entry->strict = TRUE;
      /* Left the staged list, or (when the item was staged again while the
       * commit ran) the server holds what the commit wrote: an undo reverts
       * it either way. */
      entry->written = !session_has_key (run, key) ||
                       (entry->new_item != NULL &&
                        items_equal (g_hash_table_lookup (server, key), entry->new_item));
      if (entry->written && !items_equal (entry->old_item, entry->new_item))
        applied = TRUE;
    }
  log_action (run, "(the commit is done: %u staged, %u in conflict)", dyn_edit_session_get_n_changes (session),
              dyn_edit_session_get_n_conflicts (session));
  if (!applied)
    return;
  /* What undo would revert: what this commit wrote. */
  g_hash_table_remove_all (table->undo_before);
  g_hash_table_remove_all (table->undo_after);
  g_hash_table_iter_init (&iter, run->allowed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Allowed *entry = value;

      if (entry->origin != ORIGIN_COMMIT || !entry->written || items_equal (entry->old_item, entry->new_item))
        continue;
      log_action (run, "(undo would revert %s)", (char *) key);
      g_hash_table_insert (table->undo_before, g_strdup (key), entry->old_item ? dyn_value_ref (entry->old_item) : NULL);
      g_hash_table_insert (table->undo_after, g_strdup (key), entry->new_item ? dyn_value_ref (entry->new_item) : NULL);
    }
  table->undo_session = session_serial (run, session);
}

static void
session_committed_cb (DynEditSession  *session,
                      DynCommitResult *result,
                      Run             *run)
{
  if (session != dyn_window_get_edit_session (run_window (run)))
    return;
  if (run->expect_undo)
    {
      Table *table = current_table (run);

      run->expect_undo = FALSE;
      log_action (run, "(the undo is done: %u of %u applied)", dyn_commit_result_get_n_applied (result),
                  dyn_commit_result_get_n_changes (result));
      if (!dyn_edit_session_get_can_undo (session))
        {
          g_hash_table_remove_all (table->undo_before);
          g_hash_table_remove_all (table->undo_after);
        }
      return;
    }
  commit_done (run, session);
}

/* Each session the window shows is watched for its commits. */
static void
watch_session (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));

  if (session != NULL && g_object_get_data (G_OBJECT (session), "test-watched") == NULL)
    {
      g_object_set_data (G_OBJECT (session), "test-watched", GINT_TO_POINTER (TRUE));
      g_signal_connect (session, "committed", G_CALLBACK (session_committed_cb), run);
      session_serial (run, session);
    }
}

/* Before an undo: the keys of the commit it reverts. */
static void
allow_undo (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));
  Table *table = current_table (run);
  GHashTableIter iter;
  gpointer key, value;

  if (session == NULL || !dyn_edit_session_get_can_undo (session))
    return;
  check (run, table->undo_session == session_serial (run, session),
         "undo is offered, but this session's last commit was not seen");
  g_hash_table_iter_init (&iter, table->undo_before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      DynValue *now = g_hash_table_lookup (table->expected, key);
      DynValue *after = g_hash_table_lookup (table->undo_after, key);

      /* Changed since the commit: the undo's guard keeps it. */
      log_action (run, "(undo may revert %s)", (char *) key);
      add_allowed (run->allowed, g_strdup (key), now, items_equal (now, after) ? value : now)->origin = ORIGIN_UNDO;
    }
}

/* The window's invariants after a step. */

static GtkWidget *
find_widget (GtkWidget *widget,
             gboolean (*match) (GtkWidget *widget))
{
  if (match (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, match);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
is_changes_button (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) && !GTK_IS_MENU_BUTTON (gtk_widget_get_parent (widget)) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.toggle-changes") == 0;
}

static gboolean
is_list_box (GtkWidget *widget)
{
  return GTK_IS_LIST_BOX (widget);
}

static gboolean
is_drop_button (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) &&
         g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "staged.drop") == 0;
}

static guint
count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* What a grid cell shows (issue 11: binary, numbers and empty values are
 * shown to be read, dyn_value_format_display()). */
static char *
cell_text (DynValue *value)
{
  return value ? dyn_value_format_display (value, 160, NULL) : g_strdup ("");
}

static void
check_invariants (Run *run)
{
  DynWindow *window = run_window (run);
  DynEditSession *session = dyn_window_get_edit_session (window);
  DynStagedChanges *staged = dyn_window_get_staged_changes (window);
  DynItemGrid *grid = run_grid (run);
  DynCollectionModel *model = dyn_window_get_model (window);
  DynItemObject *selected = dyn_item_grid_get_selected_item (grid);
  g_autoptr(GPtrArray) shown = dyn_item_grid_dup_shown_items (grid);
  guint n = session ? dyn_edit_session_get_n_changes (session) : 0;
  GtkWidget *button = find_widget (GTK_WIDGET (window), is_changes_button);
  GtkWidget *list_box = find_widget (GTK_WIDGET (staged), is_list_box);

  /* The staged count: the changes button, the staged pane, the session. */
  check (run, dyn_staged_changes_get_session (staged) == session, "the staged pane shows another session");
  check (run, button != NULL, "no changes button");
  check (run, gtk_widget_get_visible (button) == (n > 0), "the changes button is %s with %u changes",
         gtk_widget_get_visible (button) ? "shown" : "hidden", n);
  if (n > 0)
    {
      g_autofree char *number = g_strdup_printf ("%u ", n);
      const char *label = gtk_button_get_label (GTK_BUTTON (button));

      check (run, label != NULL && g_str_has_prefix (label, number), "the changes button says “%s” with %u changes",
             label, n);
    }
  check (run, list_box != NULL && count_children (list_box) == n, "the staged pane lists %u changes, the session %u",
         list_box ? count_children (list_box) : 0, n);

  /* The selection and the detail. */
  if (selected != NULL)
    {
      check (run, model != NULL && dyn_collection_model_lookup (model, dyn_item_object_get_item (selected)) == selected,
             "the selected row is no row of the model");
      check (run, dyn_item_detail_get_item (dyn_window_get_detail (window)) == dyn_item_object_get_item (selected),
             "the detail pane shows another item than the selected one");
    }

  /* Shown rows are the model's objects. */
  for (guint i = 0; model != NULL && i < shown->len; i++)
    {
      DynItemObject *row = shown->pdata[i];
      g_autofree char *key = row_title (run, row);

      check (run, dyn_collection_model_lookup (model, dyn_item_object_get_item (row)) == row,
             "a shown row (%s) is not the model's object for its key", key);
    }

  /* Every staged change: its row shows the staged item and its mark. */
  if (session == NULL || dyn_edit_session_get_model (session) == NULL ||
      dyn_edit_session_get_model (session) != model)
    return;
  /* Per session: a table refreshed with staged changes stays unchecked
   * while they are staged, also after another table was shown. */
  if (n == 0)
    g_hash_table_remove (run->stale_sessions, GUINT_TO_POINTER (session_serial (run, session)));
  else if (!REFRESH_KEEPS_STAGED &&
           g_hash_table_contains (run->stale_sessions, GUINT_TO_POINTER (session_serial (run, session))))
    return;
  for (guint i = 0; i < n; i++)
    {
      DynChange *change = dyn_edit_session_get_change (session, i);
      DynValue *after = dyn_change_get_after (change);
      DynValue *before = dyn_change_get_before (change);
      DynChangeStatus status = dyn_edit_session_get_status (session, i);
      DynItemObject *object = dyn_edit_session_get_object (session, i);
      g_autofree char *key = key_text (&current_table (run)->keys, after ? after : before);
      g_autoptr(DynValue) lookup_key = dyn_item_key (after ? after : before, dyn_edit_session_get_keys (session));
      DynItemObject *row = dyn_collection_model_lookup (model, lookup_key);

      check (run, row != NULL, "the staged %s has no row", key);
      check (run, row == object, "the staged %s is not shown by its row", key);
      if (after == NULL)
        check (run, dyn_item_object_get_state (row) == DYN_ITEM_STATE_DELETED, "the deleted %s is not marked", key);
      else
        {
          check (run, dyn_item_object_get_state (row) == (before ? DYN_ITEM_STATE_CHANGED : DYN_ITEM_STATE_ADDED) ||
                      (status == DYN_CHANGE_STATUS_CONFLICT && dyn_item_object_get_state (row) != DYN_ITEM_STATE_UNCHANGED),
                 "the staged %s is marked %d", key, dyn_item_object_get_state (row));
          check (run, items_equal (dyn_item_object_get_item (row), after), "the row of %s does not show the staged item",
                 key);
          for (guint a = 0; a < dyn_value_get_length (after); a++)
            {
              const char *name = dyn_value_map_get_name (after, a);
              g_autofree char *text = dyn_item_grid_dup_cell_text (grid, row, name);
              g_autofree char *expected = cell_text (dyn_value_map_get_value (after, a));

              check (run, text == NULL || strcmp (text, expected) == 0, "the cell %s of %s shows “%s”, staged is “%s”",
                     name, key, text, expected);
            }
        }
    }
}

/* The actions. Each returns after the window is quiet again. */

static const char *
random_attribute (Run *run)
{
  static const char * const names[] = { "Name", "Status", "Budget", "Active", "Tags", "Info", "Note" };

  return pick (run, names, G_N_ELEMENTS (names));
}

static char *
random_text_for (Run        *run,
                 const char *attribute)
{
  static const char * const words[] = { "alpha", "beta", "gamma", "ünïcode ✓", "two words", "", "x" };

  if (g_strcmp0 (attribute, "Budget") == 0)
    return chance (run, 0.1) ? g_strdup ("lots") : g_strdup_printf ("%u.%u", random_below (run, 100000), random_below (run, 10));
  if (g_strcmp0 (attribute, "Active") == 0)
    return g_strdup (chance (run, 0.5) ? "true" : "false");
  return g_strdup (pick (run, words, G_N_ELEMENTS (words)));
}

static GtkWidget *
cell_editor (Run *run)
{
  GtkEditable *entry = dyn_item_grid_get_cell_editor (run_grid (run));

  return entry ? GTK_WIDGET (entry) : NULL;
}

static void
close_item_editor (Run *run)
{
  DynItemEditor *editor = dyn_window_get_item_editor (run_window (run));

  if (editor != NULL)
    {
      log_action (run, "close the item editor");
      gtk_window_close (GTK_WINDOW (editor));
      settle ();
    }
}

/* The gesture of a double-click on a shown cell of @row, if one is shown. */
static GtkGesture *
cell_gesture (GtkWidget  *widget,
              const char *text)
{
  if (GTK_IS_INSCRIPTION (widget) && gtk_widget_get_mapped (widget) &&
      !gtk_widget_get_ancestor (widget, GTK_TYPE_TREE_EXPANDER) &&
      g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0)
    {
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

      for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
        {
          g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

          if (GTK_IS_GESTURE_CLICK (controller))
            return GTK_GESTURE (controller);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkGesture *gesture = cell_gesture (child, text);

      if (gesture != NULL)
        return gesture;
    }
  return NULL;
}

/* Starts editing a cell of the selected row: a double-click on it when it
 * is shown with text, else the grid's action. */
static gboolean
start_cell_edit (Run        *run,
                 const char *attribute)
{
  DynItemGrid *grid = run_grid (run);
  DynItemObject *row = dyn_item_grid_get_selected_item (grid);
  g_autofree char *text = row ? dyn_item_grid_dup_cell_text (grid, row, attribute) : NULL;
  GtkGesture *gesture = text && *text ? cell_gesture (GTK_WIDGET (grid), text) : NULL;

  if (gesture != NULL && chance (run, 0.5))
    {
      log_action (run, "double-click the %s cell", attribute);
      g_signal_emit_by_name (gesture, "pressed", 1, 4.0, 4.0);
      g_signal_emit_by_name (gesture, "released", 1, 4.0, 4.0);
      g_signal_emit_by_name (gesture, "pressed", 2, 4.0, 4.0);
      g_signal_emit_by_name (gesture, "released", 2, 4.0, 4.0);
    }
  else
    {
      log_action (run, "edit the %s cell (grid.edit-cell)", attribute);
      check (run, gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", attribute),
             "no grid.edit-cell");
    }
  settle ();
  return cell_editor (run) != NULL;
}

static void
action_cell_edit (Run *run)
{
  const char *attribute = random_attribute (run);
  GtkWidget *entry;

  if (!select_random_row (run))
    return;
  if (!start_cell_edit (run, attribute))
    {
      /* A map, list or set cell opens the JSON editor; a deleted row
       * refuses. */
      close_item_editor (run);
      return;
    }
  entry = cell_editor (run);
  switch (random_below (run, 4))
    {
    case 0:
      log_action (run, "Escape");
      press_escape (entry);
      break;
    case 1:
      {
        g_autofree char *text = random_text_for (run, attribute);

        log_action (run, "type “%s”, move the focus away", text);
        gtk_editable_set_text (GTK_EDITABLE (entry), text);
        gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_column_view (run_grid (run))));
      }
      break;
    default:
      {
        g_autofree char *text = random_text_for (run, attribute);

        log_action (run, "type “%s”, Enter", text);
        gtk_editable_set_text (GTK_EDITABLE (entry), text);
        g_signal_emit_by_name (entry, "activate");
      }
      break;
    }
  settle ();
  if (cell_editor (run) != NULL)
    {
      log_action (run, "Escape (still editing)");
      press_escape (cell_editor (run));
      settle ();
    }
}

static void
action_cell_cancel (Run *run)
{
  if (!select_random_row (run))
    return;
  if (start_cell_edit (run, random_attribute (run)))
    {
      log_action (run, "Escape");
      press_escape (cell_editor (run));
    }
  close_item_editor (run);
  settle ();
}

/* The JSON editor: @item's text set, saved; if the session is busy, tried
 * again once it is not. */
static void
save_item_editor (Run      *run,
                  DynValue *item)
{
  DynItemEditor *editor = dyn_window_get_item_editor (run_window (run));
  g_autofree char *text = NULL;

  if (editor == NULL)
    return;
  text = dyn_item_to_editable_json (item);
  dyn_item_editor_set_text (editor, text);
  settle ();
  if (!dyn_item_editor_get_valid (editor))
    {
      log_action (run, "the editor refuses the text: %s", dyn_item_editor_get_error_message (editor));
      close_item_editor (run);
      return;
    }
  log_action (run, "save");
  check (run, gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL), "no editor.save");
  settle ();
  if (dyn_window_get_item_editor (run_window (run)) != NULL)
    {
      log_action (run, "not saved: %s", dyn_item_editor_get_error_message (editor));
      wait_quiet (run);
      if (dyn_window_get_item_editor (run_window (run)) != NULL)
        {
          log_action (run, "save again");
          gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL);
          settle ();
        }
    }
  close_item_editor (run);
}

static DynValue *
changed_item (Run      *run,
              DynValue *item)
{
  g_autoptr(DynValue) result = dyn_value_ref (item);

  for (guint n = 1 + random_below (run, 3); n > 0; n--)
    {
      const char *attribute = random_attribute (run);
      g_autoptr(DynValue) value = NULL;
      DynValue *next;

      if (g_strcmp0 (attribute, "Tags") == 0)
        {
          const char *tags[] = { "ml", "web", "ops" };

          value = dyn_value_new_string_set (tags, 1 + random_below (run, 3), NULL);
        }
      else if (g_strcmp0 (attribute, "Info") == 0)
        {
          g_autofree char *rank = g_strdup_printf ("%u", random_below (run, 1000));

          value = dyn_value_new_map ();
          dyn_value_map_take (value, "rank", dyn_value_new_number (rank, NULL));
        }
      else if (g_strcmp0 (attribute, "Budget") == 0)
        {
          g_autofree char *number = g_strdup_printf ("%u", random_below (run, 100000));

          value = dyn_value_new_number (number, NULL);
        }
      else if (g_strcmp0 (attribute, "Active") == 0)
        value = dyn_value_new_bool (chance (run, 0.5));
      else if (!chance (run, 0.15))
        {
          g_autofree char *text = random_text_for (run, attribute);

          value = dyn_value_new_string (text);
        }
      /* else: the attribute removed */
      next = dyn_item_with_attribute (result, attribute, value);
      dyn_value_unref (result);
      result = next;
    }
  return g_steal_pointer (&result);
}

static void
action_edit_item (Run *run)
{
  DynItemObject *row;
  DynItemEditor *editor;
  g_autoptr(DynValue) item = NULL;

  if (!select_random_row (run))
    return;
  row = dyn_item_grid_get_selected_item (run_grid (run));
  log_action (run, "edit the item (Ctrl+O)");
  window_action (run, "win.edit-item", NULL);
  settle ();
  editor = dyn_window_get_item_editor (run_window (run));
  if (editor == NULL)
    return;
  if (chance (run, 0.15))
    {
      close_item_editor (run);
      return;
    }
  item = changed_item (run, dyn_item_object_get_item (row));
  save_item_editor (run, item);
}

static DynValue *
new_key_item (Run   *run,
              Table *table)
{
  g_autoptr(DynValue) item = make_item (run, table, 500 + table->next_id++);

  return g_steal_pointer (&item);
}

static void
action_create (Run *run)
{
  Table *table = current_table (run);
  g_autoptr(DynValue) item = NULL;
  guint kind = random_below (run, 4);

  if (kind == 0 && g_hash_table_size (table->expected) > 0)
    {
      /* A key the server has (loaded or not): a conflict, or refused. */
      g_autoptr(GList) items = g_hash_table_get_values (table->expected);
      DynValue *existing = g_list_nth_data (items, random_below (run, g_list_length (items)));

      item = changed_item (run, existing);
      log_action (run, "new item (Ctrl+Shift+N) with the key of a server item");
    }
  else
    {
      item = new_key_item (run, table);
      log_action (run, "new item (Ctrl+Shift+N)");
    }
  window_action (run, "win.new-item", NULL);
  settle ();
  if (dyn_window_get_item_editor (run_window (run)) == NULL)
    return;
  save_item_editor (run, item);
}

static void
action_duplicate (Run *run)
{
  DynItemEditor *editor;
  g_autoptr(DynValue) copy = NULL;

  if (!select_random_row (run))
    return;
  log_action (run, "duplicate (Ctrl+D)");
  window_action (run, "win.duplicate-item", NULL);
  settle ();
  editor = dyn_window_get_item_editor (run_window (run));
  if (editor == NULL)
    return;
  copy = dyn_item_editor_get_item (editor) ? dyn_value_ref (dyn_item_editor_get_item (editor)) : NULL;
  if (copy == NULL)
    {
      close_item_editor (run);
      return;
    }
  save_item_editor (run, copy);
}

static void
action_delete (Run *run)
{
  g_autoptr(GPtrArray) rows = item_rows (run);
  GtkSelectionModel *selection = gtk_column_view_get_model (dyn_item_grid_get_column_view (run_grid (run)));
  guint n = 1 + random_below (run, 3);

  if (!select_random_row (run))
    return;
  for (guint i = 1; i < n; i++)
    {
      guint position = random_below (run, g_list_model_get_n_items (G_LIST_MODEL (selection)));

      log_action (run, "also select row %u", position);
      gtk_selection_model_select_item (selection, position, FALSE);
    }
  settle ();
  log_action (run, "delete (Delete)");
  window_action (run, "win.delete-item", NULL);
  settle ();
}

static void
action_commit (Run      *run,
               gboolean  wait)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));

  if (session == NULL || dyn_edit_session_get_n_changes (session) == 0)
    return;
  log_action (run, "commit (Ctrl+S)%s", wait ? "" : ", without waiting");
  allow_commit (run);
  run->n_commits++;
  window_action (run, "win.commit-changes", NULL);
  if (wait)
    wait_quiet (run);
}

static DynConflictView *
conflict_view (Run *run)
{
  return dyn_staged_changes_get_conflict_view (dyn_window_get_staged_changes (run_window (run)));
}

/* The conflict window is open: keep the server's item, mine, choose per
 * attribute, or close it. */
static void
action_conflict (Run *run)
{
  DynConflictView *view = conflict_view (run);
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));
  guint index = dyn_conflict_view_get_index (view);
  DynChange *change = dyn_edit_session_get_change (session, index);
  DynValue *current = dyn_edit_session_get_current (session, index);
  Table *table = current_table (run);

  run->n_conflicts++;
  switch (random_below (run, 4))
    {
    case 0:
      log_action (run, "conflict: Keep Server's Item");
      gtk_widget_activate_action (GTK_WIDGET (view), "conflict.keep-server", NULL);
      break;
    case 1:
      log_action (run, "conflict: close the window");
      gtk_window_close (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view))));
      break;
    default:
      {
        GPtrArray *entries = dyn_conflict_view_get_entries (view);
        g_autoptr(DynValue) merged = NULL;

        if (chance (run, 0.5))
          {
            log_action (run, "conflict: take all mine");
            gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take-all-mine", NULL);
          }
        for (guint i = 0; i < entries->len; i++)
          {
            DynMergeEntry *entry = entries->pdata[i];

            if (!entry->is_key && (entry->server_changed || entry->mine_changed) && chance (run, 0.4))
              {
                const char *side = chance (run, 0.5) ? "mine" : "server";

                log_action (run, "conflict: %s from %s", entry->name, side);
                gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", entry->name, side);
              }
          }
        /* What the commit will write for this change: the merged item
         * against the server's item now. */
        merged = dyn_conflict_view_get_merged_item (view) ? dyn_value_ref (dyn_conflict_view_get_merged_item (view))
                                                          : NULL;
        {
          g_autofree char *key = key_text (&table->keys, dyn_change_get_after (change) ? dyn_change_get_after (change)
                                                                                     : dyn_change_get_before (change));
          DynValue *server = g_hash_table_lookup (table->expected, key);
          g_autoptr(DynValue) result = merged ? apply_change (server, current, merged) : NULL;

          /* Mine (merged) written over the server's item now, or a delete anyway. */
          add_allowed (run->snapshot, g_steal_pointer (&key), server, result);
        }
        log_action (run, "conflict: commit");
        allow_commit (run);
        gtk_widget_activate_action (GTK_WIDGET (view), "conflict.commit", NULL);
      }
      break;
    }
  wait_quiet (run);
}

static void
action_resolve (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));

  for (guint i = 0; session != NULL && i < dyn_edit_session_get_n_changes (session); i++)
    if (dyn_edit_session_get_status (session, i) == DYN_CHANGE_STATUS_CONFLICT)
      {
        log_action (run, "Resolve… change %u", i);
        gtk_widget_activate_action (GTK_WIDGET (dyn_window_get_staged_changes (run_window (run))), "staged.resolve",
                                    "u", i);
        settle ();
        return;
      }
}

static void
action_drop (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));
  guint n = session ? dyn_edit_session_get_n_changes (session) : 0;

  if (n == 0)
    return;
  if (chance (run, 0.1))
    {
      log_action (run, "discard all staged changes");
      gtk_widget_activate_action (GTK_WIDGET (dyn_window_get_staged_changes (run_window (run))), "staged.discard-all",
                                  NULL);
    }
  else
    {
      guint index = random_below (run, n);

      log_action (run, "drop staged change %u", index);
      gtk_widget_activate_action (GTK_WIDGET (dyn_window_get_staged_changes (run_window (run))), "staged.drop", "u",
                                  index);
    }
  settle ();
}

static void
undo (Run      *run,
      gboolean  wait)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));

  if (session == NULL || !dyn_edit_session_get_can_undo (session) || dyn_edit_session_get_busy (session))
    return;
  log_action (run, "undo the last commit (Ctrl+Z)%s", wait ? "" : ", without waiting");
  run->n_undos++;
  allow_undo (run);
  /* With a confirmation, the dialog's answer decides. */
  run->expect_undo = TRUE;
  window_action (run, "win.undo-commit", NULL);
  if (wait)
    wait_quiet (run);
}

static void
action_undo (Run *run)
{
  undo (run, TRUE);
}

static void
action_undo_nowait (Run *run)
{
  undo (run, FALSE);
}

/* The second user changes, creates or deletes a server item. */
static void
action_other_client (Run *run)
{
  Table *table = &run->tables[chance (run, 0.8) ? run->current : random_below (run, N_TABLES)];
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) items = g_hash_table_get_values (table->expected);
  DynValue *existing = items ? g_list_nth_data (items, random_below (run, g_list_length (items))) : NULL;
  guint kind = existing ? random_below (run, 6) : 0;
  g_autofree char *key = NULL;

  if (kind == 0)
    {
      g_autoptr(DynValue) item = new_key_item (run, table);

      key = key_text (&table->keys, item);
      log_action (run, "the other client creates %s in %s", key, table->name);
      g_assert_true (dyn_test_put_item (run->fixture->other, table->name, item, &error));
      g_assert_no_error (error);
      expect (table, item);
    }
  else if (kind == 1)
    {
      g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, table->name);
      g_autoptr(DynResponse) response = NULL;

      key = key_text (&table->keys, existing);
      log_action (run, "the other client deletes %s in %s", key, table->name);
      request->key = dyn_item_key (existing, &table->keys);
      response = dyn_test_execute (run->fixture->other, request, &error);
      g_assert_no_error (error);
      g_hash_table_remove (table->expected, key);
    }
  else
    {
      /* A top-level scalar: Name, Status or Budget. */
      static const char * const names[] = { "Name", "Status", "Budget" };
      const char *name = pick (run, names, G_N_ELEMENTS (names));
      g_autofree char *text = g_strdup_printf ("%u", random_below (run, 100000));
      g_autoptr(DynValue) value = g_strcmp0 (name, "Budget") == 0 ? dyn_value_new_number (text, NULL)
                                                                  : dyn_value_new_string (text);
      g_autoptr(DynValue) item = dyn_item_with_attribute (existing, name, value);

      key = key_text (&table->keys, existing);
      log_action (run, "the other client sets %s = %s on %s in %s", name, text, key, table->name);
      g_assert_true (dyn_test_put_item (run->fixture->other, table->name, item, &error));
      g_assert_no_error (error);
      expect (table, item);
    }
}

static void
action_switch_table (Run *run)
{
  guint next = (run->current + 1 + random_below (run, N_TABLES - 1)) % N_TABLES;

  log_action (run, "open table %s", run->tables[next].name);
  run->current = next;
  window_action (run, "win.open-table", g_variant_new_string (run->tables[next].name));
  wait_quiet (run);
  check (run, g_strcmp0 (dyn_window_get_table (run_window (run)), run->tables[next].name) == 0,
         "the window shows %s", dyn_window_get_table (run_window (run)));
}

static void
action_toggle (Run *run)
{
  static const char * const actions[] = {
    "win.toggle-detail", "win.toggle-changes", "win.toggle-builder", "win.toggle-sidebar", "win.toggle-grouping",
  };
  const char *action = pick (run, actions, G_N_ELEMENTS (actions));

  log_action (run, "%s", action);
  window_action (run, action, NULL);
  settle ();
}

static void
action_refresh (Run *run)
{
  DynEditSession *session = dyn_window_get_edit_session (run_window (run));

  if (!REFRESH_KEEPS_STAGED && session != NULL && dyn_edit_session_get_n_changes (session) > 0)
    g_hash_table_add (run->stale_sessions, GUINT_TO_POINTER (session_serial (run, session)));
  log_action (run, "refresh (F5)");
  window_action (run, "win.scan", NULL);
  wait_quiet (run);
}

static void
action_load_more (Run *run)
{
  const char *action = chance (run, 0.25) ? "win.load-all" : "win.load-more";
  gboolean wait = chance (run, 0.7);

  log_action (run, "%s%s", action, wait ? "" : ", without waiting");
  window_action (run, action, NULL);
  if (wait)
    wait_quiet (run);
}

typedef struct {
  const char *name;
  guint       weight;
  void      (*func) (Run *run);
} RandomAction;

static void action_commit_wait (Run *run) { action_commit (run, TRUE); }
static void action_commit_nowait (Run *run) { action_commit (run, FALSE); }

static const RandomAction random_actions[] = {
  { "cell-edit", 14, action_cell_edit },
  { "cell-cancel", 4, action_cell_cancel },
  { "edit-item", 8, action_edit_item },
  { "create", 6, action_create },
  { "duplicate", 2, action_duplicate },
  { "delete", 6, action_delete },
  { "commit", 9, action_commit_wait },
  { "commit-nowait", 2, action_commit_nowait },
  { "resolve", 2, action_resolve },
  { "drop", 3, action_drop },
  { "undo", 4, action_undo },
  { "undo-nowait", 1, action_undo_nowait },
  { "other-client", 8, action_other_client },
  { "switch-table", 3, action_switch_table },
  { "toggle", 6, action_toggle },
  { "refresh", 3, action_refresh },
  { "load-more", 3, action_load_more },
};

static const RandomAction *
pick_action (Run *run)
{
  guint total = 0, r;

  for (guint i = 0; i < G_N_ELEMENTS (random_actions); i++)
    total += random_actions[i].weight;
  r = random_below (run, total);
  for (guint i = 0; i < G_N_ELEMENTS (random_actions); i++)
    {
      if (r < random_actions[i].weight)
        return &random_actions[i];
      r -= random_actions[i].weight;
    }
  g_assert_not_reached ();
}

/* Where the keyboard focus is: its type and the part of the window. */
static char *
describe_focus (Run *run)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (run_window (run)));
  GtkWidget *part = focus;

  if (focus == NULL)
    return g_strdup ("nowhere");
  while (part != NULL && !g_str_has_prefix (G_OBJECT_TYPE_NAME (part), "Dyn"))
    part = gtk_widget_get_parent (part);
  return g_strdup_printf ("%s in %s%s", G_OBJECT_TYPE_NAME (focus), part ? G_OBJECT_TYPE_NAME (part) : "(no part)",
                          gtk_widget_get_root (focus) == NULL ? ", not in the window" : "");
}

static void
log_focus (Run *run)
{
  g_autofree char *focus = describe_focus (run);

  if (g_strcmp0 (focus, run->focus) != 0)
    {
      log_action (run, "(the focus: %s)", focus);
      g_free (run->focus);
      run->focus = g_steal_pointer (&focus);
    }
}

/* While a commit is in flight: actions that do not write. */
static const RandomAction busy_actions[] = {
  { "cell-edit", 2, action_cell_edit },
  { "cell-cancel", 1, action_cell_cancel },
  { "edit-item", 2, action_edit_item },
  { "toggle", 2, action_toggle },
};

static void
run_step (Run *run)
{
  DynWindow *window = run_window (run);
  gboolean in_flight = dyn_window_is_busy (window);

  watch_session (run);
  if (!in_flight)
    {
      g_hash_table_remove_all (run->allowed);
      run->expect_undo = FALSE;
    }
  take_snapshot (run);

  /* A modal window takes the input: only its actions. */
  if (conflict_view (run) != NULL)
    action_conflict (run);
  else if (dyn_window_get_item_editor (window) != NULL)
    close_item_editor (run);
  else if (in_flight)
    busy_actions[random_below (run, G_N_ELEMENTS (busy_actions))].func (run);
  else
    pick_action (run)->func (run);
  log_focus (run);
  watch_session (run);
  answer_dialogs (run);
  /* A commit started without waiting runs on during the next step. */
  if (in_flight || !dyn_window_is_busy (window))
    wait_quiet (run);
  else
    settle ();

  log_focus (run);
  check_invariants (run);
  if (!dyn_window_is_busy (window))
    verify_server (run, current_table (run), TRUE);
}

static void
random_set_up (Fixture       *fixture,
               gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
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
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static guint
env_uint (const char *name,
          guint       fallback)
{
  const char *text = g_getenv (name);

  return text != NULL && *text != '\0' ? (guint) g_ascii_strtoull (text, NULL, 10) : fallback;
}

static void
test_random (Fixture       *fixture,
             gconstpointer  data)
{
  Run run = { 0 };
  gint64 start = g_get_monotonic_time ();

  if (fixture->window == NULL)
    return;
  run.fixture = fixture;
  run.seed = env_uint ("DYN_RANDOM_SEED", DEFAULT_SEED);
  run.n_steps = env_uint ("DYN_RANDOM_STEPS", DEFAULT_STEPS);
  run.rand = g_rand_new_with_seed (run.seed);
  run.log = g_string_new (NULL);
  run.allowed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, allowed_free);
  run.snapshot = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, allowed_free);
  run.stale_sessions = g_hash_table_new (NULL, NULL);
  current_run = &run;
  g_test_log_set_fatal_handler (fatal_log_cb, NULL);
  if (__sanitizer_set_death_callback != NULL)
    __sanitizer_set_death_callback (print_log);
  else
    {
      signal (SIGSEGV, crash_cb);
      signal (SIGABRT, crash_cb);
    }
  g_test_message ("seed %u, %u steps (replay with DYN_RANDOM_SEED=%u DYN_RANDOM_STEPS=%u)", run.seed, run.n_steps,
                  run.seed, run.n_steps);

  tables_set_up (&run);
  /* Small pages: there is more to load, and rows the window has not read. */
  dyn_window_set_page_limit (fixture->window, PAGE_LIMIT);
  open_table (fixture, run.tables[0].name);

  for (run.step = 0; run.step < run.n_steps; run.step++)
    run_step (&run);

  /* The end: nothing in flight, every table as the test expects. */
  wait_quiet (&run);
  while (conflict_view (&run) != NULL)
    {
      gtk_window_close (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (conflict_view (&run)))));
      settle ();
    }
  close_item_editor (&run);
  answer_dialogs (&run);
  check_invariants (&run);
  for (guint t = 0; t < N_TABLES; t++)
    verify_server (&run, &run.tables[t], t == run.current);
  maybe_screenshot (fixture->window, "window-random-actions.png");
  g_test_message ("%u steps in %.1f s: %u commits, %u conflict windows, %u undos, %u dialogs answered",
                  run.n_steps, (g_get_monotonic_time () - start) / 1e6, run.n_commits, run.n_conflicts,
                  run.n_undos, run.n_dialogs);
  if (g_getenv ("DYN_RANDOM_LOG") != NULL)
    g_printerr ("%s", run.log->str);

  current_run = NULL;
  tables_tear_down (&run);
  g_hash_table_unref (run.allowed);
  g_hash_table_unref (run.snapshot);
  g_hash_table_unref (run.stale_sessions);
  g_string_free (run.log, TRUE);
  g_free (run.focus);
  g_rand_free (run.rand);
}


static gboolean
is_flap (GtkWidget *widget)
{
  return ADW_IS_FLAP (widget);
}

static GtkWidget *find_widget (GtkWidget *widget, gboolean (*match) (GtkWidget *widget));

/* The focus on a row, a cell entry or a staged change's button when what
 * holds it leaves the window: a refresh, a commit that removes the row,
 * Escape in a cell, dropping the change. GTK 4.8 moves the focus of a
 * removed widget a frame later and then reads the freed widget, when the
 * focus lands in a text entry (the sidebar's search entry, first in the tab
 * order). */
static void
test_focus (Fixture       *fixture,
            gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  DynItemObject *row;
  GtkWidget *flap;
  GtkRoot *root = GTK_ROOT (fixture->window);

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->table);
  grid = dyn_window_get_grid (window);
  session = dyn_window_get_edit_session (window);
  flap = find_widget (GTK_WIDGET (window), is_flap);
  g_assert_nonnull (flap);
  adw_flap_set_reveal_flap (ADW_FLAP (flap), TRUE);
  settle ();

  /* A clicked row, then F5: every row is destroyed. */
  click_row (grid, row_for (fixture, "PROJ#2026-0002"));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (root), GTK_WIDGET (grid)));
  activate (window, "win.scan");
  dyn_test_wait_idle (window);
  settle ();

  /* A clicked row deleted and committed: that row is destroyed. */
  row = row_for (fixture, "PROJ#2026-0003");
  click_row (grid, row);
  activate (window, "win.delete-item");
  settle ();
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  settle ();
  g_assert_null (row_for (fixture, "PROJ#2026-0003"));

  /* Escape in a cell: the entry with the focus leaves. */
  click_row (grid, row_for (fixture, "PROJ#2026-0001"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Name"));
  gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_cell_editor (grid)));
  settle ();
  press_escape (GTK_WIDGET (dyn_item_grid_get_cell_editor (grid)));
  settle ();
  activate (window, "win.toggle-detail");
  settle ();

  /* A cell edited, then a click elsewhere: the focus leaves the entry,
   * which stages the text and goes. */
  row = row_for (fixture, "PROJ#2026-0001");
  click_row (grid, row);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Status"));
  gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_cell_editor (grid)));
  settle ();
  gtk_editable_set_text (dyn_item_grid_get_cell_editor (grid), "paused");
  gtk_widget_grab_focus (GTK_WIDGET (dyn_window_get_builder (window)));
  gtk_widget_grab_focus (find_list_view (GTK_WIDGET (dyn_item_grid_get_column_view (grid))));
  settle ();
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0001")), "Status"),
                   ==, "paused");
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);

  /* A staged change dropped with its own button. */
  row = row_for (fixture, "META");
  click_row (grid, row);
  activate (window, "win.delete-item");
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  if (g_strcmp0 (dyn_window_get_side_page (window), "changes") != 0)
    activate (window, "win.toggle-changes");
  settle ();
  {
    GtkWidget *list_box = find_widget (GTK_WIDGET (dyn_window_get_staged_changes (window)), is_list_box);
    GtkWidget *button = NULL;

    g_assert_nonnull (list_box);
    button = find_widget (list_box, is_drop_button);
    g_assert_nonnull (button);
    g_assert_true (gtk_widget_grab_focus (button));
    settle ();
    g_assert_true (gtk_root_get_focus (root) == button);
    /* What a click on it ends as. */
    g_signal_emit_by_name (button, "clicked");
  }
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  for (guint i = 0; i < 5; i++)
    settle ();
  g_assert_true (gtk_root_get_focus (root) == NULL || gtk_widget_get_root (gtk_root_get_focus (root)) == root);
}

/* Undo asks first (issue 8, item 4): say yes, as a click on "Undo Commit" does. */
static void
confirm_undo (DynWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel) && gtk_widget_get_visible (GTK_WIDGET (toplevel)) &&
          adw_message_dialog_has_response (ADW_MESSAGE_DIALOG (toplevel), "undo"))
        {
          adw_message_dialog_response (ADW_MESSAGE_DIALOG (toplevel), "undo");
          return;
        }
    }
  g_assert_not_reached ();
}

/* Undo while the item the commit wrote has a new staged change: the row
 * keeps showing that change (the undo does not overwrite it, and the
 * change's commit, guarded by the path it changes, keeps what the undo
 * wrote). */
static void
test_undo_staged (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  DynItemObject *row;
  GtkEditable *entry;
  g_autoptr(DynValue) key = key_for ("WS#acme", "PROJ#2026-0002");
  g_autoptr(DynValue) stored = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->table);
  grid = dyn_window_get_grid (window);
  dyn_item_grid_set_grouped (grid, FALSE);
  settle ();
  session = dyn_window_get_edit_session (window);

  /* Commit Name = "v2", then stage Status = "paused" on the same item. */
  for (guint i = 0; i < 2; i++)
    {
      click_row (grid, row_for (fixture, "PROJ#2026-0002"));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", i == 0 ? "Name" : "Status"));
      entry = dyn_item_grid_get_cell_editor (grid);
      g_assert_nonnull (entry);
      gtk_editable_set_text (entry, i == 0 ? "v2" : "paused");
      g_signal_emit_by_name (entry, "activate");
      settle ();
      if (i == 0)
        {
          activate (window, "win.commit-changes");
          dyn_test_wait_idle (window);
          settle ();
          g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
        }
    }
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_true (dyn_edit_session_get_can_undo (session));

  activate (window, "win.undo-commit");
  confirm_undo (window);
  dyn_test_wait_idle (window);
  settle ();
  stored = dyn_test_get_item (fixture->other, fixture->table, key, TRUE);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Name"), ==, "Data lake");

  /* The staged change: still shown by its row. */
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  row = row_for (fixture, "PROJ#2026-0002");
  g_assert_true (dyn_edit_session_get_object (session, 0) == row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Status"), ==, "paused");

  /* Its commit is guarded by the path it changes (Status), which the undo
   * did not touch: it applies and keeps what the undo wrote (Name). */
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 0);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = dyn_test_get_item (fixture->other, fixture->table, key, TRUE);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Name"), ==, "Data lake");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
}

/* The JSON editor opened on a row while an undo runs; the undo replaces
 * that row; then the editor saves: the change is staged on the row the
 * window shows, not on the object the undo replaced. */
static void
test_editor_row_replaced (Fixture       *fixture,
                          gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynEditSession *session;
  DynItemEditor *editor;
  DynItemObject *row;
  GtkEditable *entry;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  g_auto(GStrv) parts = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->table);
  grid = dyn_window_get_grid (window);
  session = dyn_window_get_edit_session (window);

  click_row (grid, row_for (fixture, "PROJ#2026-0002"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Status"));
  entry = dyn_item_grid_get_cell_editor (grid);
  gtk_editable_set_text (entry, "paused");
  g_signal_emit_by_name (entry, "activate");
  settle ();

  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  settle ();
  g_assert_true (dyn_edit_session_get_can_undo (session));

  /* Undo, and open the editor before it is done. */
  activate (window, "win.undo-commit");
  confirm_undo (window);
  g_assert_true (dyn_edit_session_get_busy (session));
  activate (window, "win.edit-item");
  editor = dyn_window_get_item_editor (window);
  g_assert_nonnull (editor);
  text = dyn_item_editor_dup_text (editor);
  parts = g_strsplit (text, "\"Data lake\"", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  edited = g_strjoinv ("\"Data lake v2\"", parts);
  dyn_item_editor_set_text (editor, edited);
  dyn_test_wait_idle (window);
  settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  settle ();
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  row = row_for (fixture, "PROJ#2026-0002");
  g_assert_true (dyn_edit_session_get_object (session, 0) == row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Name"), ==, "Data lake v2");
  /* The editor's text came from the item before the undo. */
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Status"), ==, "paused");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-random");
  if (tmp_dir == NULL)
    return 0;
  if (g_getenv ("XX_NONFATAL")) { g_log_set_always_fatal (G_LOG_FATAL_MASK); g_log_set_fatal_mask ("GLib-GObject", G_LOG_FATAL_MASK); g_log_set_fatal_mask ("Gtk", G_LOG_FATAL_MASK); g_log_set_fatal_mask ("GLib", G_LOG_FATAL_MASK);}

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add ("/dyn/window-random/hang/grouped", Fixture, GINT_TO_POINTER (TRUE),
              fixture_set_up, test_hang, fixture_tear_down);
  g_test_add ("/dyn/window-random/hang/flat", Fixture, GINT_TO_POINTER (FALSE),
              fixture_set_up, test_hang, fixture_tear_down);
  g_test_add ("/dyn/window-random/focus", Fixture, NULL, fixture_set_up, test_focus, fixture_tear_down);
  g_test_add ("/dyn/window-random/undo-staged", Fixture, NULL, fixture_set_up, test_undo_staged, fixture_tear_down);
  g_test_add ("/dyn/window-random/editor-row-replaced", Fixture, NULL, fixture_set_up, test_editor_row_replaced,
              fixture_tear_down);
  g_test_add ("/dyn/window-random/actions", Fixture, NULL, random_set_up, test_random, fixture_tear_down);

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
