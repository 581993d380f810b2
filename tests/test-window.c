/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window"
#include "config.h"

#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-connection-editor.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The main window under Xvfb with a real client against DynamoDB Local,
 * driven through its actions: open a connection and a table, group, page,
 * query through the builder, follow GSI1, show an item, survive an error. */

static DynApplication *app;
static char *workspaces_table;
static char *school_table;
static char *tmp_dir;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until the window is idle (or 30 s pass). */
static void
wait_idle (DynWindow *window)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  /* Let queued work start first. */
  dyn_test_iterate ();
  while (dyn_window_is_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  dyn_test_iterate ();
}

static void
activate (DynWindow  *window,
          const char *action,
          GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
}

static GPtrArray *
read_jsonl (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "demo", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      g_ptr_array_add (items, dyn_test_item (lines[i]));
  return items;
}

static gboolean
create_and_load (DynClient  *client,
                 const char *table,
                 const char *pk,
                 const char *sk,
                 const char *file)
{
  const char *gsis[] = { g_strdup_printf ("GSI1:GSI1PK:S:GSI1SK:S"), NULL };
  g_autoptr(GPtrArray) items = read_jsonl (file);
  g_autoptr(GError) error = NULL;

  g_assert_true (dyn_test_create_table (client, table, pk, sk, gsis, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, table, items, &error));
  g_assert_no_error (error);
  g_free ((char *) gsis[0]);
  return TRUE;
}

static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;

  if (server == NULL)
    return FALSE;
  if (workspaces_table != NULL)
    return TRUE;
  client = dyn_test_client_new (server);
  workspaces_table = dyn_test_table_name ("Workspaces");
  school_table = dyn_test_table_name ("School");
  create_and_load (client, workspaces_table, "EntityRef:S", "Detail:S", "Workspaces.jsonl");
  create_and_load (client, school_table, "PK:S", "SK:S", "School.jsonl");
  return TRUE;
}

/* A user-added connection to the test server, saved in the fixture's store
 * (no secret: the credentials come from the environment). */
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
  return connection;
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  DynConnection *connection = add_connection (fixture);

  dyn_window_open_connection (fixture->window, connection);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (dyn_window_get_tables (fixture->window));
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), table));
  activate (fixture->window, "win.open-table", g_variant_new_string (table));
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);

  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  /* These tests read the demo tables whole in one page; the small first
   * page of the page-size setting is test-window-state's subject. */
  dyn_window_set_page_limit (fixture->window, 0);
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
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_assert_finalize_object (fixture->store);
}

static void
test_new_destroy (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->window)));
  g_assert_null (dyn_window_get_table (fixture->window));
  g_assert_false (dyn_window_is_busy (fixture->window));
}

/* The seed's collections: one group per partition key, titled with the key
 * and its count, items ordered by sort key, entity types from the prefix. */
static void
test_grouped (Fixture       *fixture,
              gconstpointer  data)
{
  DynItemGrid *grid;
  DynCollectionModel *model;
  DynCollection *acme;
  g_autoptr(DynValue) key = dyn_value_new_string ("WS#acme");
  GListModel *rows;
  guint n_collections, n_items;

  if (!ensure_tables ())
    return;
  open_table (fixture, workspaces_table);

  model = dyn_window_get_model (fixture->window);
  grid = dyn_window_get_grid (fixture->window);
  g_assert_nonnull (model);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 279);
  n_collections = dyn_collection_model_get_n_collections (model);
  g_assert_cmpuint (n_collections, ==, 13);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (fixture->window), "Scan · 1 request · 1 page · "));
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "279 items"));

  acme = dyn_collection_model_lookup_collection (model, key);
  g_assert_nonnull (acme);
  g_assert_cmpstr (dyn_collection_get_title (acme), ==, "WS#acme");
  n_items = dyn_collection_get_n_items (acme);
  g_assert_cmpuint (n_items, >, 20);
  g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (acme, 0)), ==, "META");
  for (guint i = 1; i < n_items; i++)
    {
      DynItemObject *a = dyn_collection_peek_item (acme, i - 1);
      DynItemObject *b = dyn_collection_peek_item (acme, i);

      g_assert_cmpint (dyn_value_compare (dyn_item_object_get_sort_key_value (a),
                                          dyn_item_object_get_sort_key_value (b)), <, 0);
      g_assert_cmpstr (dyn_item_object_get_entity_type (b), ==, "PROJ");
    }

  /* Grouped: every collection and every item is a row; flat: items only. */
  rows = dyn_item_grid_get_rows (grid);
  g_assert_true (dyn_item_grid_get_grouped (grid));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 279 + 13);
  activate (fixture->window, "win.toggle-grouping", NULL);
  rows = dyn_item_grid_get_rows (grid);
  g_assert_false (dyn_item_grid_get_grouped (grid));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 279);
  activate (fixture->window, "win.toggle-grouping", NULL);
  g_assert_true (dyn_item_grid_get_grouped (grid));
  g_assert_cmpuint (g_list_model_get_n_items (dyn_item_grid_get_rows (grid)), ==, 279 + 13);

  /* Key attributes come first among the columns. */
  {
    g_auto(GStrv) columns = dyn_item_grid_dup_column_names (grid);

    g_assert_cmpstr (columns[0], ==, "EntityRef");
    g_assert_cmpstr (columns[1], ==, "Detail");
    g_assert_true (g_strv_contains ((const char * const *) columns, "GSI1PK"));
  }

  /* The table's details: keys, the GSI with its projection, the count. */
  {
    g_autofree char *text = dyn_table_details_dup_text (dyn_window_get_table_details (fixture->window));

    g_assert_nonnull (strstr (text, "EntityRef (S)"));
    g_assert_nonnull (strstr (text, "[GSI1]"));
    g_assert_nonnull (strstr (text, "GSI1PK (S)"));
    g_assert_nonnull (strstr (text, "ALL"));
  }
}

/* A small first page; Load More reads on in full pages (the rest of this
 * table is one); a cancelled load resumes where it stopped; F5 reads a
 * small first page again and Load All reads to the end. */
static void
test_paging (Fixture       *fixture,
             gconstpointer  data)
{
  DynCollectionModel *model;

  if (!ensure_tables ())
    return;
  dyn_window_set_page_limit (fixture->window, 25);
  open_table (fixture, workspaces_table);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 25);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->limit, ==, 25);
  g_assert_false (dyn_pager_is_done (dyn_window_get_pager (fixture->window)));
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "1 page"));
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "first page limited to 25"));

  /* Cancel at once: nothing is added, and the next load continues. */
  activate (fixture->window, "win.load-more", NULL);
  g_assert_true (dyn_window_is_busy (fixture->window));
  activate (fixture->window, "win.cancel-load", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 25);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "cancelled"));
  activate (fixture->window, "win.load-more", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 279);
  g_assert_true (dyn_pager_is_done (dyn_window_get_pager (fixture->window)));
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "2 pages"));

  /* F5: a small first page again; Load All reads to the end, every item once. */
  activate (fixture->window, "win.refresh", NULL);
  wait_idle (fixture->window);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 25);
  activate (fixture->window, "win.load-all", NULL);
  wait_idle (fixture->window);
  g_assert_true (dyn_pager_is_done (dyn_window_get_pager (fixture->window)));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 279);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 13);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "2 pages"));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (dyn_window_get_grid (fixture->window))) == FALSE);
}

/* The builder's text runs as one Query: the planner turns the key equality
 * into a key condition. */
static void
test_query (Fixture       *fixture,
            gconstpointer  data)
{
  DynCollectionModel *model;
  const DynRequest *request;
  DynCollection *collection;

  if (!ensure_tables ())
    return;
  open_table (fixture, workspaces_table);
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window),
                                   "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")");
  activate (fixture->window, "win.query", NULL);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_null (request->index);
  g_assert_nonnull (request->key_condition);
  g_assert_null (request->filter);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  collection = dyn_collection_model_peek_collection (model, 0);
  g_assert_cmpstr (dyn_collection_get_title (collection), ==, "WS#acme");
  for (guint i = 0; i < dyn_collection_get_n_items (collection); i++)
    g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (collection, i)), ==, "PROJ");
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (fixture->window), "Query · 1 request · 1 page · "));

  /* A sharded key ("WS#bigco#01..10") fans out over the shards. */
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), "EntityRef = \"WS#bigco#01..10\"");
  activate (fixture->window, "win.query", NULL);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 10);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 209);

  /* A condition on a non-key attribute is a Scan with a filter. */
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), "Status = \"paused\"");
  activate (fixture->window, "win.query", NULL);
  wait_idle (fixture->window);
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_SCAN);
  g_assert_nonnull (request->filter);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), >, 0);
}

/* n:m: from a student's enrolment to the course's roster through GSI1, with
 * one click on the GSI1PK value. */
static void
test_follow_index (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DynValue) course = dyn_value_new_string ("CRS#math204");
  DynCollectionModel *model;
  const DynRequest *request;
  DynCollection *roster;

  if (!ensure_tables ())
    return;
  open_table (fixture, school_table);
  /* What a click on a link cell does. */
  g_signal_emit_by_name (dyn_window_get_grid (fixture->window), "follow-key", "GSI1PK", course);
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpstr (request->index, ==, "GSI1");
  g_assert_cmpstr (dyn_window_get_index (fixture->window), ==, "GSI1");
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpstr (dyn_collection_model_get_partition_key (model), ==, "GSI1PK");
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  roster = dyn_collection_model_peek_collection (model, 0);
  g_assert_cmpstr (dyn_collection_get_title (roster), ==, "CRS#math204");
  g_assert_cmpuint (dyn_collection_get_n_items (roster), >=, 3);
  for (guint i = 0; i < dyn_collection_get_n_items (roster); i++)
    g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (roster, i)), ==, "STU");

  /* And back from the roster to a student's collection: PK of the table. */
  activate (fixture->window, "win.follow-index", g_variant_new ("(ss)", "PK", "{\"S\":\"STU#a91\"}"));
  wait_idle (fixture->window);
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_null (request->index);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  g_assert_cmpstr (dyn_collection_get_title (dyn_collection_model_peek_collection (model, 0)), ==, "STU#a91");
}

/* Selecting a row shows the item as a tree and as plain and DynamoDB JSON,
 * numbers exact. */
static void
test_detail (Fixture       *fixture,
             gconstpointer  data)
{
  DynItemDetail *detail;
  const char *plain, *ddb;

  if (!ensure_tables ())
    return;
  open_table (fixture, workspaces_table);
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window),
                                   "EntityRef = \"WS#acme\" AND Detail = \"PROJ#2026-9999\"");
  activate (fixture->window, "win.query", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 1);
  /* Row 0 is the collection, row 1 its item. */
  dyn_item_grid_select_row (dyn_window_get_grid (fixture->window), 1);
  dyn_test_iterate ();
  detail = dyn_window_get_detail (fixture->window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (detail)));
  g_assert_nonnull (dyn_item_detail_get_item (detail));
  plain = dyn_item_detail_get_plain_json (detail);
  ddb = dyn_item_detail_get_ddb_json (detail);
  g_assert_nonnull (strstr (plain, "\"EntityRef\": \"WS#acme\""));
  g_assert_nonnull (strstr (plain, "12345678901234567890.123456789012345678"));
  g_assert_nonnull (strstr (ddb, "\"Exact\": {\n"));
  g_assert_nonnull (strstr (ddb, "\"N\": \"12345678901234567890.123456789012345678\""));
  g_assert_nonnull (strstr (ddb, "\"NS\": ["));
  g_assert_nonnull (strstr (ddb, "\"B\": \"AAECAwQ=\""));
  /* The tree lists the attributes; maps and lists expand. */
  g_assert_cmpuint (g_list_model_get_n_items (dyn_item_detail_get_tree (detail)), >=, 10);
  dyn_item_detail_set_view (detail, "ddb-json");
  g_assert_cmpstr (dyn_item_detail_get_view (detail), ==, "ddb-json");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "detail.copy", NULL));
}

/* A missing table: an in-window message with the AWS code; the window
 * stays usable. */
static void
test_missing_table (Fixture       *fixture,
                    gconstpointer  data)
{
  if (!ensure_tables ())
    return;
  open_table (fixture, workspaces_table);
  activate (fixture->window, "win.open-table", g_variant_new_string ("NoSuchTable"));
  wait_idle (fixture->window);
  g_assert_nonnull (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "ResourceNotFoundException"));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "DescribeTable"));

  activate (fixture->window, "win.open-table", g_variant_new_string (workspaces_table));
  wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 279);
}

/* A connection added with the editor is saved without secrets and opens. */
static void
test_connection_editor (Fixture       *fixture,
                        gconstpointer  data)
{
  DynTestServer *server;
  DynConnectionEditor *editor;
  DynConnection *connection;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;

  if (!ensure_tables ())
    return;
  server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  editor = dyn_connection_editor_new (GTK_WINDOW (fixture->window), fixture->store, NULL);
  g_object_ref (editor);
  gtk_window_present (GTK_WINDOW (editor));
  /* Invalid first: a message, nothing saved. */
  dyn_connection_editor_fill (editor, "Editor", "us-east-1", "localhost:1", NULL, NULL, NULL, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  g_assert_nonnull (dyn_connection_editor_get_error (editor));
  dyn_connection_editor_fill (editor, NULL, NULL, dyn_test_server_get_endpoint (server), NULL, NULL, NULL, TRUE);
  g_signal_connect_swapped (editor, "saved", G_CALLBACK (dyn_window_open_connection), fixture->window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  for (guint i = 0; i < 500 && gtk_widget_get_visible (GTK_WIDGET (editor)); i++)
    g_main_context_iteration (NULL, TRUE);
  connection = dyn_connection_store_lookup_by_name (fixture->store, "Editor");
  g_assert_nonnull (connection);
  g_assert_true (dyn_connection_get_read_only (connection));
  g_assert_finalize_object (editor);
  wait_idle (fixture->window);
  g_assert_true (dyn_window_get_connection (fixture->window) == connection);
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), workspaces_table));

  path = g_strdup (dyn_connection_store_get_path (fixture->store));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "Editor"));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  dyn_test_init (&argc, &argv);
  tmp_dir = g_dir_make_tmp ("dyn-test-window-XXXXXX", NULL);
  /* Hermetic credentials: DynamoDB Local takes any alphanumeric keys. */
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  gtk_init ();
  adw_init ();

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) g_test_add ("/dyn/window/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("new-destroy", test_new_destroy);
  ADD ("grouped", test_grouped);
  ADD ("paging", test_paging);
  ADD ("query", test_query);
  ADD ("follow-index", test_follow_index);
  ADD ("detail", test_detail);
  ADD ("missing-table", test_missing_table);
  ADD ("connection-editor", test_connection_editor);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (workspaces_table);
  g_free (school_table);
  return status;
}
