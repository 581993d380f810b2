/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-sql"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-value-format.h"
#include "dyn-window.h"

/* The SQL Workbench in the real window under Xvfb against DynamoDB Local,
 * with the demo Workspaces table (data/demo; its GSI1): the workspace with
 * its projects newest-first explained (the plan as shown) and run (the
 * rows, exact numbers, the status line: 1 request, and one Query really
 * sent); a statement that needs a Scan refused with the engine's message
 * and no data request sent, then run with Allow Scan on; a join; cancel
 * keeps the rows that arrived; Copy as JSON Lines and as CSV through the
 * clipboard; a row's item opened in the detail pane; a syntax error shown
 * inline; the statement kept per connection across pages and tables.
 *
 * The window's connection goes through a counting proxy in this process,
 * so that "requests" are what DynamoDB really received, not what the
 * engine says it sent. */

static DynApplication *app;
static char *tmp_dir;
static char *workspaces;

/* The counting proxy: every X-Amz-Target the window sends, counted. */

typedef struct {
  GSocketService *service;
  guint16         port;
  char           *upstream_host;
  guint16         upstream_port;
  GMutex          lock;
  GHashTable     *counts;   /* "Query" → count */
} Proxy;

static Proxy proxy;

static void
count_targets (const char *data,
               gsize       len)
{
  static const char marker[] = "DynamoDB_20120810.";
  const char *p = data;
  const char *end = data + len;

  while (p < end && (p = g_strstr_len (p, end - p, marker)) != NULL)
    {
      const char *name = p + strlen (marker);
      const char *stop = name;
      g_autofree char *op = NULL;

      while (stop < end && g_ascii_isalpha (*stop))
        stop++;
      op = g_strndup (name, stop - name);
      g_mutex_lock (&proxy.lock);
      g_hash_table_insert (proxy.counts, g_strdup (op),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (proxy.counts, op)) + 1));
      g_mutex_unlock (&proxy.lock);
      p = stop;
    }
}

typedef struct {
  GInputStream  *in;
  GOutputStream *out;
  gboolean       count;
  GIOStream     *keep_a;
  GIOStream     *keep_b;
} Pipe;

static gpointer
pipe_thread (gpointer data)
{
  Pipe *pipe = data;
  char buffer[65536];
  gssize n;

  /* A request's headers come in one read: the client writes them at once. */
  while ((n = g_input_stream_read (pipe->in, buffer, sizeof buffer, NULL, NULL)) > 0)
    {
      if (pipe->count)
        count_targets (buffer, n);
      if (!g_output_stream_write_all (pipe->out, buffer, n, NULL, NULL, NULL))
        break;
    }
  g_io_stream_close (pipe->keep_a, NULL, NULL);
  g_io_stream_close (pipe->keep_b, NULL, NULL);
  g_object_unref (pipe->keep_a);
  g_object_unref (pipe->keep_b);
  g_free (pipe);
  return NULL;
}

static gboolean
incoming_cb (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source,
             gpointer           user_data)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) upstream = g_socket_client_connect_to_host (client, proxy.upstream_host,
                                                                          proxy.upstream_port, NULL, NULL);
  Pipe *up, *down;

  if (upstream == NULL)
    return FALSE;
  up = g_new0 (Pipe, 1);
  up->in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  up->out = g_io_stream_get_output_stream (G_IO_STREAM (upstream));
  up->count = TRUE;
  up->keep_a = g_object_ref (G_IO_STREAM (connection));
  up->keep_b = g_object_ref (G_IO_STREAM (upstream));
  down = g_new0 (Pipe, 1);
  down->in = g_io_stream_get_input_stream (G_IO_STREAM (upstream));
  down->out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  down->keep_a = g_object_ref (G_IO_STREAM (connection));
  down->keep_b = g_object_ref (G_IO_STREAM (upstream));
  g_thread_unref (g_thread_new ("proxy-up", pipe_thread, up));
  g_thread_unref (g_thread_new ("proxy-down", pipe_thread, down));
  return TRUE;
}

static void
proxy_start (const char *endpoint)
{
  g_autoptr(GUri) uri = g_uri_parse (endpoint, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (uri);
  g_mutex_init (&proxy.lock);
  proxy.counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  proxy.upstream_host = g_strdup (g_uri_get_host (uri));
  proxy.upstream_port = g_uri_get_port (uri);
  /* A threaded service: the window's client runs on the main context. */
  proxy.service = g_threaded_socket_service_new (8);
  g_signal_connect (proxy.service, "run", G_CALLBACK (incoming_cb), NULL);
  proxy.port = g_socket_listener_add_any_inet_port (G_SOCKET_LISTENER (proxy.service), NULL, &error);
  g_assert_no_error (error);
  g_socket_service_start (proxy.service);
}

static void
proxy_reset (void)
{
  g_mutex_lock (&proxy.lock);
  g_hash_table_remove_all (proxy.counts);
  g_mutex_unlock (&proxy.lock);
}

static guint
proxy_count (const char *operation)
{
  guint n;

  g_mutex_lock (&proxy.lock);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (proxy.counts, operation));
  g_mutex_unlock (&proxy.lock);
  return n;
}

/* The data requests: what reads items. */
static guint
proxy_data_requests (void)
{
  return proxy_count ("GetItem") + proxy_count ("BatchGetItem") + proxy_count ("Query") + proxy_count ("Scan");
}

/* The fixture. */

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynSqlWorkbench    *workbench;
} Fixture;

static void
settle (void)
{
  for (guint i = 0; i < 15; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static GPtrArray *
read_demo (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "demo", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      g_ptr_array_add (items, dyn_test_item (lines[i]));
  return items;
}

/* The demo items of one workspace whose Detail starts with @prefix. */
static guint
count_demo (const char *entity_ref,
            const char *prefix,
            const char *status)
{
  g_autoptr(GPtrArray) items = read_demo ("Workspaces.jsonl");
  guint n = 0;

  for (guint i = 0; i < items->len; i++)
    if ((entity_ref == NULL || g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "EntityRef"), entity_ref) == 0) &&
        (prefix == NULL || g_str_has_prefix (dyn_test_item_get_string (items->pdata[i], "Detail"), prefix)) &&
        (status == NULL || g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "Status"), status) == 0))
      n++;
  return n;
}

static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  const char *gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return FALSE;
  if (workspaces != NULL)
    return TRUE;
  client = dyn_test_client_new (server);
  /* A name SQL must quote. */
  workspaces = dyn_test_table_name ("work-spaces");
  g_assert_true (dyn_test_create_table (client, workspaces, "EntityRef:S", "Detail:S", gsis, &error));
  g_assert_no_error (error);
  items = read_demo ("Workspaces.jsonl");
  g_assert_true (dyn_test_load_items (client, workspaces, items, &error));
  g_assert_no_error (error);
  proxy_start (dyn_test_server_get_endpoint (server));
  return TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autofree char *endpoint = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!ensure_tables ())
    return;
  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }

  endpoint = g_strdup_printf ("http://127.0.0.1:%u", proxy.port);
  fixture->connection = dyn_connection_new ("Local");
  dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (fixture->connection, endpoint);
  dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  dyn_window_open_connection (fixture->window, fixture->connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));

  fixture->workbench = dyn_window_get_sql_workbench (fixture->window);
  g_assert_nonnull (fixture->workbench);
  g_assert_nonnull (dyn_sql_workbench_get_engine (fixture->workbench));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "sql"));
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "sql");
  settle ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_clear_object (&fixture->connection);
  if (fixture->store != NULL)
    g_assert_finalize_object (fixture->store);
}

/* Runs a workbench action and waits until it is done. */
static void
act (Fixture    *fixture,
     const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->workbench), action, NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_false (dyn_sql_workbench_get_busy (fixture->workbench));
  settle ();
}

static void
set_sql (Fixture    *fixture,
         const char *format,
         ...) G_GNUC_PRINTF (2, 3);

static void
set_sql (Fixture    *fixture,
         const char *format,
         ...)
{
  va_list args;
  g_autofree char *sql = NULL;

  va_start (args, format);
  sql = g_strdup_vprintf (format, args);
  va_end (args);
  dyn_sql_workbench_set_text (fixture->workbench, sql);
}

static const char *
cell_string (const DynSqlRow *row,
             guint            column)
{
  const DynValue *value = row->cells->pdata[column];

  g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_S);
  return dyn_value_get_string (value);
}

static int
column_index (Fixture    *fixture,
              const char *name)
{
  const char * const *columns = dyn_sql_workbench_get_columns (fixture->workbench);

  g_assert_nonnull (columns);
  for (guint i = 0; columns[i] != NULL; i++)
    if (g_strcmp0 (columns[i], name) == 0)
      return i;
  g_assert_not_reached ();
  return -1;
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Screenshots into the build directory. */
static void
screenshot (Fixture    *fixture,
            const char *name)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *path = g_build_filename (dir ? dir : tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;

  for (guint i = 0; i < 50 && !saved; i++)
    {
      settle ();
      g_clear_error (&error);
      saved = dyn_window_save_png (GTK_WINDOW (fixture->window), path, &error);
    }
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
}

/* The workspace with its projects, newest first: one Query, the sort key
 * condition pushed down, ORDER BY DESC as ScanIndexForward. */
static const char *projects_sql =
  "SELECT EntityRef, Detail, Name, Budget, Exact, Tags\n"
  "FROM \"%s\"\n"
  "WHERE EntityRef = 'WS#acme' AND Detail LIKE 'PROJ#%%'\n"
  "ORDER BY Detail DESC";

static void
test_explain_run (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *plan = NULL;
  const char *status;
  guint expected;
  int detail, budget;
  g_autoptr(GPtrArray) items = NULL;

  if (fixture->window == NULL)
    return;
  expected = count_demo ("WS#acme", "PROJ#", NULL);
  g_assert_cmpuint (expected, >, 20);
  /* The switch is there and off. */
  g_assert_false (dyn_sql_workbench_get_allow_scan (fixture->workbench));

  set_sql (fixture, projects_sql, workspaces);
  proxy_reset ();
  act (fixture, "sql.explain");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  plan = dyn_sql_workbench_dup_plan_text (fixture->workbench);
  g_test_message ("plan: %s", plan);
  g_assert_nonnull (plan);
  g_assert_nonnull (strstr (plan, "1. Query"));
  g_assert_nonnull (strstr (plan, workspaces));
  /* No step scans (the engine's notes may name the first-page read that
   * taught it the columns). */
  g_assert_null (strstr (plan, "1. Scan"));
  g_assert_null (strstr (plan, "reads the whole table"));
  g_assert_cmpuint (dyn_sql_plan_get_n_steps (dyn_sql_workbench_get_plan (fixture->workbench)), ==, 1);
  g_assert_false (dyn_sql_plan_needs_scan (dyn_sql_workbench_get_plan (fixture->workbench)));
  /* Explaining reads no item. */
  g_assert_cmpuint (proxy_count ("Query"), ==, 0);
  g_assert_cmpuint (proxy_count ("GetItem"), ==, 0);
  g_assert_cmpuint (proxy_count ("BatchGetItem"), ==, 0);
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, 0);

  proxy_reset ();
  act (fixture, "sql.run");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, expected);
  /* One Query really went out, and the status line says so. */
  g_assert_cmpuint (proxy_count ("Query"), ==, 1);
  g_assert_cmpuint (proxy_count ("Scan"), ==, 0);
  status = dyn_sql_workbench_get_status_text (fixture->workbench);
  g_test_message ("status: %s", status);
  g_assert_nonnull (strstr (status, "1 request"));
  g_assert_null (strstr (status, "1 requests"));
  g_assert_nonnull (strstr (status, "Query"));
  g_assert_nonnull (strstr (status, "RCU"));

  /* Newest first; the numbers exact, shown as the grid shows them. */
  detail = column_index (fixture, "Detail");
  budget = column_index (fixture, "Budget");
  items = read_demo ("Workspaces.jsonl");
  for (guint i = 1; i < expected; i++)
    g_assert_cmpint (strcmp (cell_string (dyn_sql_workbench_get_row (fixture->workbench, i - 1), detail),
                             cell_string (dyn_sql_workbench_get_row (fixture->workbench, i), detail)), >, 0);
  for (guint i = 0; i < expected; i++)
    {
      const DynSqlRow *row = dyn_sql_workbench_get_row (fixture->workbench, i);
      const char *key = cell_string (row, detail);
      const DynValue *value = row->cells->pdata[budget];

      for (guint j = 0; j < items->len; j++)
        if (g_strcmp0 (dyn_test_item_get_string (items->pdata[j], "EntityRef"), "WS#acme") == 0 &&
            g_strcmp0 (dyn_test_item_get_string (items->pdata[j], "Detail"), key) == 0)
          {
            DynValue *demo = dyn_value_map_lookup (items->pdata[j], "Budget");
            g_autofree char *shown = dyn_sql_workbench_dup_cell_text (fixture->workbench, i, budget);
            g_autofree char *expected_text = NULL;
            g_autofree char *canonical = NULL;

            /* No Budget: SQL NULL, shown unlike an empty string. */
            if (demo == NULL)
              {
                g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_NULL);
                g_assert_cmpstr (shown, ==, "NULL");
                continue;
              }
            /* As DynamoDB stores it: 76782.50 comes back as 76782.5. */
            canonical = dyn_number_canonicalize (dyn_value_get_number (demo));
            g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_N);
            g_assert_cmpstr (dyn_value_get_number (value), ==, canonical);
            expected_text = dyn_number_format_display (canonical);
            g_assert_cmpstr (shown, ==, expected_text);
          }
    }
  /* The newest is the precision check: a 38-digit number, exact. */
  {
    const DynSqlRow *first = dyn_sql_workbench_get_row (fixture->workbench, 0);
    int exact = column_index (fixture, "Exact");
    g_autofree char *shown = dyn_sql_workbench_dup_cell_text (fixture->workbench, 0, exact);
    g_autofree char *expected_text = dyn_number_format_display ("12345678901234567890.123456789012345678");

    g_assert_cmpstr (cell_string (first, detail), ==, "PROJ#2026-9999");
    g_assert_cmpint (dyn_value_get_value_type (first->cells->pdata[exact]), ==, DYN_VALUE_N);
    g_assert_cmpstr (dyn_value_get_number (first->cells->pdata[exact]), ==, "12345678901234567890.123456789012345678");
    g_assert_cmpstr (shown, ==, expected_text);
  }
  screenshot (fixture, "sql-workbench-run.png");

  /* The statement stays across the pages and a table opened. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "items"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", workspaces));
  dyn_test_wait_idle (fixture->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "sql"));
  {
    g_autofree char *text = dyn_sql_workbench_dup_text (fixture->workbench);
    g_autofree char *sql = g_strdup_printf (projects_sql, workspaces);

    g_assert_cmpstr (text, ==, sql);
    g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, expected);
  }
}

/* A statement that needs a Scan is refused before any data request, with
 * the engine's message naming the table; Allow Scan on, it runs. */
static void
test_refused_scan (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *plan = NULL;
  const char *error;
  const char *status;
  guint expected;

  if (fixture->window == NULL)
    return;
  expected = count_demo (NULL, NULL, "active");
  set_sql (fixture, "SELECT EntityRef, Detail, Status FROM \"%s\" WHERE Status = 'active'", workspaces);
  /* The engine learns the table's columns from its first page (one Scan
   * with a Limit, cached) when it first meets the table; that read is the
   * catalog's, not the statement's. */
  proxy_reset ();
  act (fixture, "sql.explain");
  g_assert_cmpuint (proxy_count ("Scan"), <=, 1);
  g_assert_cmpuint (proxy_count ("Query") + proxy_count ("GetItem") + proxy_count ("BatchGetItem"), ==, 0);
  proxy_reset ();
  act (fixture, "sql.run");
  error = dyn_sql_workbench_get_error_text (fixture->workbench);
  g_test_message ("refused: %s", error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, workspaces));
  g_assert_nonnull (strstr (error, "EntityRef"));
  g_assert_cmpuint (proxy_data_requests (), ==, 0);
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, 0);
  g_assert_null (dyn_sql_workbench_get_result (fixture->workbench));
  /* The plan shows the Scan, marked. */
  plan = dyn_sql_workbench_dup_plan_text (fixture->workbench);
  g_test_message ("plan: %s", plan);
  g_assert_nonnull (plan);
  g_assert_nonnull (strstr (plan, "Scan"));
  g_assert_nonnull (strstr (plan, "reads the whole table"));
  g_assert_nonnull (strstr (plan, "Allow Scan"));
  screenshot (fixture, "sql-workbench-refused.png");

  /* The switch, as a user turns it. */
  {
    GtkSwitch *scan_switch = GTK_SWITCH (find_widget (GTK_WIDGET (fixture->workbench), GTK_TYPE_SWITCH));

    g_assert_nonnull (scan_switch);
    g_assert_true (gtk_widget_is_visible (GTK_WIDGET (scan_switch)));
    g_assert_false (gtk_switch_get_active (scan_switch));
    gtk_switch_set_active (scan_switch, TRUE);
  }
  g_assert_true (dyn_sql_workbench_get_allow_scan (fixture->workbench));
  proxy_reset ();
  act (fixture, "sql.run");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, expected);
  g_assert_cmpuint (proxy_count ("Scan"), >=, 1);
  status = dyn_sql_workbench_get_status_text (fixture->workbench);
  g_test_message ("status: %s", status);
  g_assert_nonnull (strstr (status, "Scan"));
  {
    g_autofree char *requests = g_strdup_printf (" %u request", proxy_count ("Scan"));

    g_assert_nonnull (strstr (status, requests));
  }
}

/* A join: each workspace's META row to its projects; the plan says how
 * often the inner side runs, and the rows are those of the collections. */
static void
test_join (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *plan = NULL;
  guint expected;
  int workspace;

  if (fixture->window == NULL)
    return;
  set_sql (fixture,
           "SELECT w.Name AS workspace, p.Detail AS project, p.Budget\n"
           "FROM \"%s\" w JOIN \"%s\" p ON p.EntityRef = w.EntityRef\n"
           "WHERE w.EntityRef IN ('WS#acme', 'WS#bigco#01') AND w.Detail = 'META' AND p.Detail LIKE 'PROJ#%%'",
           workspaces, workspaces);
  expected = count_demo ("WS#acme", "PROJ#", NULL) + count_demo ("WS#bigco#01", "PROJ#", NULL);
  act (fixture, "sql.explain");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  plan = dyn_sql_workbench_dup_plan_text (fixture->workbench);
  g_test_message ("plan: %s", plan);
  g_assert_cmpuint (dyn_sql_plan_get_n_steps (dyn_sql_workbench_get_plan (fixture->workbench)), >=, 2);
  g_assert_nonnull (strstr (plan, "2. "));
  g_assert_null (strstr (plan, "reads the whole table"));

  proxy_reset ();
  act (fixture, "sql.run");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, expected);
  g_assert_cmpuint (proxy_count ("Scan"), ==, 0);
  /* Two distinct outer keys: at most two Queries, besides the META rows. */
  g_assert_cmpuint (proxy_count ("Query"), <=, 2);
  workspace = column_index (fixture, "workspace");
  for (guint i = 0; i < expected; i++)
    {
      const char *name = cell_string (dyn_sql_workbench_get_row (fixture->workbench, i), workspace);

      g_assert_true (g_str_equal (name, "Acme Corp") || g_str_equal (name, "BigCo shard 01"));
    }
  g_test_message ("status: %s", dyn_sql_workbench_get_status_text (fixture->workbench));
  /* The engine's note says why the plan's META lookups cost nothing: the
   * collections are read once, whole. */
  g_assert_nonnull (strstr (plan, "each item collection is read once"));

  /* A join row with the project's full key maps to the project's item. */
  set_sql (fixture,
           "SELECT p.EntityRef, p.Detail, p.Name, w.Name AS workspace\n"
           "FROM \"%s\" w JOIN \"%s\" p ON p.EntityRef = w.EntityRef\n"
           "WHERE w.EntityRef = 'WS#acme' AND w.Detail = 'META' AND p.Detail LIKE 'PROJ#%%'\n"
           "ORDER BY p.Detail DESC",
           workspaces, workspaces);
  act (fixture, "sql.run");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, count_demo ("WS#acme", "PROJ#", NULL));
  {
    const DynSqlRow *row = dyn_sql_workbench_get_row (fixture->workbench, 0);

    g_assert_nonnull (row->item);
    g_assert_cmpstr (row->source, ==, workspaces);
    g_assert_cmpstr (dyn_test_item_get_string (row->item, "Detail"), ==, cell_string (row, 1));
    g_assert_cmpstr (dyn_test_item_get_string (row->item, "Detail"), ==, "PROJ#2026-9999");
    g_assert_true (dyn_sql_workbench_open_row (fixture->workbench, 0));
    g_assert_true (dyn_item_detail_get_item (dyn_sql_workbench_get_detail (fixture->workbench)) == row->item);
  }
  screenshot (fixture, "sql-workbench-join.png");
}

/* Cancel at the first rows: what arrived stays, and the status says so. */
static void
cancel_on_rows_cb (GListModel      *model,
                   guint            position,
                   guint            removed,
                   guint            added,
                   DynSqlWorkbench *workbench)
{
  if (added > 0)
    dyn_sql_workbench_cancel (workbench);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  GListModel *rows;
  guint kept;
  const char *status;

  if (fixture->window == NULL)
    return;
  dyn_sql_workbench_set_allow_scan (fixture->workbench, TRUE);
  dyn_sql_workbench_set_text (fixture->workbench, NULL);
  set_sql (fixture,
           "SELECT a.EntityRef, a.Detail, b.Detail AS other FROM \"%s\" a JOIN \"%s\" b ON b.EntityRef = a.EntityRef",
           workspaces, workspaces);
  rows = G_LIST_MODEL (gtk_column_view_get_model (dyn_sql_workbench_get_column_view (fixture->workbench)));
  g_signal_connect (rows, "items-changed", G_CALLBACK (cancel_on_rows_cb), fixture->workbench);
  act (fixture, "sql.run");
  g_signal_handlers_disconnect_by_func (rows, cancel_on_rows_cb, fixture->workbench);
  kept = dyn_sql_workbench_get_n_rows (fixture->workbench);
  status = dyn_sql_workbench_get_status_text (fixture->workbench);
  g_test_message ("cancelled: %u rows; %s", kept, status);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, kept);
  g_assert_nonnull (status);
  g_assert_true (g_str_has_prefix (status, "Cancelled"));
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  /* The engine finishes a cancelled run with its result: what was read. */
  g_assert_nonnull (dyn_sql_workbench_get_result (fixture->workbench));
  g_assert_true (dyn_sql_result_was_cancelled (dyn_sql_workbench_get_result (fixture->workbench)));
  g_assert_nonnull (strstr (status, "request"));
}

static void
read_text_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
  if (*text == NULL)
    *text = g_strdup ("");
}

static char *
clipboard_text (GtkWidget *widget)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, read_text_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);
  return text;
}

/* Copy as JSON Lines and as CSV: all rows, then the selected ones; exact
 * numbers; the CSV with its header. */
static void
test_copy (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *widget;
  GtkSelectionModel *selection;
  g_autofree char *json = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *two = NULL;
  g_auto(GStrv) lines = NULL;
  guint n;

  if (fixture->window == NULL)
    return;
  widget = GTK_WIDGET (fixture->workbench);
  set_sql (fixture, projects_sql, workspaces);
  act (fixture, "sql.run");
  n = dyn_sql_workbench_get_n_rows (fixture->workbench);
  g_assert_cmpuint (n, >, 2);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), "nothing");
  g_assert_true (gtk_widget_activate_action (widget, "sql.copy", "s", "json"));
  json = clipboard_text (widget);
  lines = g_strsplit (json, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n + 1);
  g_assert_cmpstr (lines[n], ==, "");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *expected = dyn_sql_row_to_json_line (dyn_sql_workbench_get_columns (fixture->workbench),
                                                            dyn_sql_workbench_get_row (fixture->workbench, i));
      g_autoptr(JsonParser) parser = json_parser_new ();

      g_assert_cmpstr (lines[i], ==, g_strchomp (expected));
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
    }
  /* The first row is the newest project: its 38-digit number exact, its
   * missing budget null. */
  g_assert_nonnull (strstr (lines[0], "\"Detail\":\"PROJ#2026-9999\""));
  g_assert_nonnull (strstr (lines[0], "12345678901234567890.123456789012345678"));
  g_assert_nonnull (strstr (lines[0], "\"Budget\":null"));
  g_clear_pointer (&lines, g_strfreev);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), "nothing");
  g_assert_true (gtk_widget_activate_action (widget, "sql.copy", "s", "csv"));
  csv = clipboard_text (widget);
  g_assert_true (g_str_has_prefix (csv, "EntityRef,Detail,Name,Budget,Exact,Tags\r\n"));
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >=, n + 2);

  /* Two rows selected: only they are copied. */
  selection = gtk_column_view_get_model (dyn_sql_workbench_get_column_view (fixture->workbench));
  gtk_selection_model_select_range (selection, 1, 2, TRUE);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), "nothing");
  g_assert_true (gtk_widget_activate_action (widget, "sql.copy", "s", "json"));
  two = clipboard_text (widget);
  g_clear_pointer (&lines, g_strfreev);
  lines = g_strsplit (two, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  {
    g_autofree char *second = dyn_sql_row_to_json_line (dyn_sql_workbench_get_columns (fixture->workbench),
                                                        dyn_sql_workbench_get_row (fixture->workbench, 1));

    g_assert_cmpstr (lines[0], ==, g_strchomp (second));
  }
}

/* A row that maps to one item opens it in the detail pane (the column
 * view's activate: Enter or a double-click). */
static void
test_open_item (Fixture       *fixture,
                gconstpointer  data)
{
  GtkColumnView *view;
  DynItemDetail *detail;
  const DynSqlRow *row;
  const char *json;

  if (fixture->window == NULL)
    return;
  set_sql (fixture, projects_sql, workspaces);
  act (fixture, "sql.run");
  row = dyn_sql_workbench_get_row (fixture->workbench, 0);
  g_assert_nonnull (row);
  g_assert_nonnull (row->item);
  g_assert_cmpstr (row->source, ==, workspaces);
  g_assert_false (dyn_sql_workbench_get_detail_shown (fixture->workbench));

  view = dyn_sql_workbench_get_column_view (fixture->workbench);
  g_signal_emit_by_name (view, "activate", 0);
  settle ();
  g_assert_true (dyn_sql_workbench_get_detail_shown (fixture->workbench));
  detail = dyn_sql_workbench_get_detail (fixture->workbench);
  g_assert_true (dyn_item_detail_get_item (detail) == row->item);
  json = dyn_item_detail_get_plain_json (detail);
  g_assert_nonnull (json);
  g_assert_nonnull (strstr (json, dyn_test_item_get_string (row->item, "Detail")));
  /* The item as read: attributes the statement did not select too. */
  g_assert_nonnull (strstr (json, "GSI1PK"));
  screenshot (fixture, "sql-workbench-detail.png");

  /* The row menu's action on the selected row. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->workbench), "sql.close-item", NULL));
  g_assert_false (dyn_sql_workbench_get_detail_shown (fixture->workbench));
  gtk_selection_model_select_item (gtk_column_view_get_model (view), 2, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->workbench), "sql.open-item", NULL));
  g_assert_true (dyn_sql_workbench_get_detail_shown (fixture->workbench));
  g_assert_true (dyn_item_detail_get_item (detail) == dyn_sql_workbench_get_row (fixture->workbench, 2)->item);

  /* An aggregate maps to no item: nothing opens. */
  set_sql (fixture, "SELECT COUNT(*) AS n FROM \"%s\" WHERE EntityRef = 'WS#acme'", workspaces);
  act (fixture, "sql.run");
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, 1);
  g_assert_null (dyn_sql_workbench_get_row (fixture->workbench, 0)->item);
  g_assert_false (dyn_sql_workbench_open_row (fixture->workbench, 0));
  {
    g_autofree char *n = dyn_sql_workbench_dup_cell_text (fixture->workbench, 0, 0);
    g_autofree char *expected = g_strdup_printf ("%u", count_demo ("WS#acme", NULL, NULL));

    g_assert_cmpstr (n, ==, expected);
  }
}

/* A syntax error: inline, with its position marked in the editor; no
 * request. The engine gives the position in characters: text before it
 * that is not ASCII must not shift the mark. */
static void
test_syntax_error (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *error;
  g_autofree char *sql = NULL;

  if (fixture->window == NULL)
    return;
  set_sql (fixture, "SELECT EntityRef, 'Straße € ✓' AS note\nFROM \"%s\"\nWHERE EntityRef = = 'x'", workspaces);
  sql = dyn_sql_workbench_dup_text (fixture->workbench);
  proxy_reset ();
  act (fixture, "sql.run");
  error = dyn_sql_workbench_get_error_text (fixture->workbench);
  g_test_message ("error: %s", error);
  g_assert_nonnull (error);
  g_assert_cmpuint (proxy_data_requests (), ==, 0);
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, 0);
  {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (dyn_sql_workbench_get_source_view (fixture->workbench)));
    GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "error");
    /* SQLite points at the second "=". */
    int expected = (int) g_utf8_pointer_to_offset (sql, strstr (sql, "= =") + 2);
    GtkTextIter cursor, at, before;

    gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
    g_assert_cmpint (gtk_text_iter_get_line (&cursor), ==, 2);
    g_assert_cmpint (gtk_text_iter_get_offset (&cursor), ==, expected);
    /* The "=" there is marked, the text before it not. */
    g_assert_nonnull (tag);
    gtk_text_buffer_get_iter_at_offset (buffer, &at, expected);
    g_assert_true (gtk_text_iter_has_tag (&at, tag));
    gtk_text_buffer_get_iter_at_offset (buffer, &before, expected - 2);
    g_assert_false (gtk_text_iter_has_tag (&before, tag));
  }
  screenshot (fixture, "sql-workbench-error.png");

  /* Edited since: the mark goes with the error, the text stays. */
  dyn_sql_workbench_set_text (fixture->workbench, "SELECT 1");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
}

/* win.open-in-sql: a statement (from the PartiQL editor, for SQL that
 * DynamoDB's PartiQL refuses) lands in the SQL editor, the SQL page shown,
 * the editor focused; nothing runs until the user runs it. */
static void
test_open_in_sql (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *sql = NULL;
  g_autofree char *text = NULL;
  GtkWidget *focus;

  if (fixture->window == NULL)
    return;
  set_sql (fixture, "SELECT 'old' AS x");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "items"));
  settle ();
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "items");
  sql = g_strdup_printf ("SELECT Detail, COUNT(*) AS n FROM \"%s\" WHERE EntityRef = 'WS#acme' GROUP BY Detail",
                         workspaces);
  proxy_reset ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-in-sql", "s", sql));
  settle ();
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "sql");
  text = dyn_sql_workbench_dup_text (fixture->workbench);
  g_assert_cmpstr (text, ==, sql);
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_true (focus == GTK_WIDGET (dyn_sql_workbench_get_source_view (fixture->workbench)));
  /* Nothing ran. */
  g_assert_false (dyn_sql_workbench_get_busy (fixture->workbench));
  g_assert_cmpuint (proxy_data_requests (), ==, 0);
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, 0);
  /* The user runs it. */
  act (fixture, "sql.run");
  g_assert_null (dyn_sql_workbench_get_error_text (fixture->workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (fixture->workbench), ==, count_demo ("WS#acme", NULL, NULL));
  g_assert_cmpuint (proxy_count ("Query"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-sql");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-sql/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("explain-run", test_explain_run);
  ADD ("refused-scan", test_refused_scan);
  ADD ("join", test_join);
  ADD ("cancel", test_cancel);
  ADD ("copy", test_copy);
  ADD ("open-item", test_open_item);
  ADD ("syntax-error", test_syntax_error);
  ADD ("open-in-sql", test_open_in_sql);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (workspaces);
  return status;
}
