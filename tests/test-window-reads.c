/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-reads"
#include "config.h"

#include <dlfcn.h>
#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-expression-builder-private.h"
#include "dyn-expr-condition-row.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* Every read the main window starts, under Xvfb against DynamoDB Local: Run
 * with a key condition, with a filter only, with an index chosen in the
 * builder, following a key link, choosing an index in the toolbar, Load
 * More. For each the plan the builder shows, its compiled expressions and
 * its snippet are compared with the request the window's pager sends: they
 * come from one DynReadRequest. And: "Read from" is one setting; a string
 * for a number key gets the command line's check; a text that does not parse
 * shows no stale result; Ctrl+Enter and Enter run. */

static DynApplication *app;
static char *tmp_dir;
static char *movies;
static char *plays;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
} Fixture;

/* year (N) + title (S); byRating: year + rating (N), local; byGenre: genre
 * (S) + year, global. */
static const char *films[][4] = {
  { "2012", "Argo", "7.7", "Drama" },
  { "2012", "Looper", "7.4", "SciFi" },
  { "2012", "Skyfall", "7.8", "Action" },
  { "2013", "Her", "8.0", "Drama" },
  { "2013", "Gravity", "7.7", "SciFi" },
  { "2013", "Prisoners", "8.1", "Drama" },
  { "2013", "Rush", "8.1", "Sport" },
  { "2013", "Frozen", "7.4", "Animation" },
  { "2014", "Interstellar", "8.7", "SciFi" },
  { "2014", "Whiplash", "8.5", "Drama" },
  { "2014", "Boyhood", "7.9", "Drama" },
};

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
activate (DynWindow  *window,
          const char *action,
          GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
}

static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *params = NULL;

  if (server == NULL)
    return FALSE;
  if (movies != NULL)
    return TRUE;
  client = dyn_test_client_new (server);
  movies = dyn_test_table_name ("movies");
  plays = dyn_test_table_name ("plays");

  params = g_strdup_printf (
    "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"year\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"title\",\"AttributeType\":\"S\"},{\"AttributeName\":\"rating\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"genre\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byRating\",\"KeySchema\":[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"rating\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byGenre\",\"KeySchema\":[{\"AttributeName\":\"genre\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"year\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", movies);
  g_assert_true (dyn_test_create_table_json (client, movies, params, &error));
  g_assert_no_error (error);
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (films); i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"year\":{\"N\":\"%s\"},\"title\":{\"S\":\"%s\"},"
                                            "\"rating\":{\"N\":\"%s\"},\"genre\":{\"S\":\"%s\"}}",
                                            films[i][0], films[i][1], films[i][2], films[i][3]));
  g_assert_true (dyn_test_load_items (client, movies, items, &error));
  g_assert_no_error (error);

  /* A table with a partition key only. */
  g_assert_true (dyn_test_create_table (client, plays, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  g_ptr_array_set_size (items, 0);
  for (guint i = 1; i <= 3; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"S\":\"p%u\"},\"n\":{\"N\":\"%u\"}}", i, i));
  g_assert_true (dyn_test_load_items (client, plays, items, &error));
  g_assert_no_error (error);
  return TRUE;
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
  return connection;
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  if (dyn_window_get_connection (fixture->window) == NULL)
    {
      dyn_window_open_connection (fixture->window, add_connection (fixture));
      dyn_test_wait_idle (fixture->window);
      g_assert_null (dyn_window_get_error_text (fixture->window));
    }
  activate (fixture->window, "win.open-table", g_variant_new_string (table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  /* The builder is open, as a user who queries has it. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (dyn_window_get_builder (fixture->window))))
    activate (fixture->window, "win.toggle-builder", NULL);
  dyn_test_iterate ();
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
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
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

/* ------------------------------------------------------------------------ */
/* What the window shows and what it sends */

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

/* The toolbar's "Table or Index to Read" menu. */
static GtkDropDown *
find_index_menu (GtkWidget *widget)
{
  if (GTK_IS_DROP_DOWN (widget) &&
      g_strcmp0 (gtk_widget_get_tooltip_text (widget), "Table or Index to Read") == 0)
    return GTK_DROP_DOWN (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkDropDown *found = find_index_menu (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
index_position (DynWindow  *window,
                const char *index)
{
  const DynTableKeys *keys = dyn_window_get_table_keys (window);

  for (guint i = 0; index != NULL && i < keys->indexes->len; i++)
    if (g_strcmp0 (((DynIndexInfo *) keys->indexes->pdata[i])->name, index) == 0)
      return i + 1;
  g_assert_null (index);
  return 0;
}

/* The body of @request as sent, without the page's ExclusiveStartKey. */
static char *
body_text (const DynRequest *request)
{
  g_autoptr(DynRequest) copy = dyn_request_copy (request);
  g_autoptr(JsonNode) body = NULL;

  dyn_request_set_exclusive_start_key (copy, NULL);
  body = dyn_request_to_json (copy);
  return json_to_string (body, FALSE);
}

/* A Scan of everything: its plan says so, and it is what was sent. */
static void
assert_plain_scan (Fixture        *fixture,
                   DynReadRequest *read,
                   DynOperation    op,
                   const char     *index,
                   guint           n_items)
{
  const DynExprPlan *plan = dyn_read_request_get_plan (read);
  g_autofree char *snippet = dyn_read_request_dup_snippet (read, DYN_SNIPPET_CLI, NULL, NULL);

  g_assert_cmpint (op, ==, DYN_OP_SCAN);
  g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
  g_assert_cmpstr (plan->index_name, ==, index);
  g_assert_nonnull (strstr (plan->reason, "Scan: no condition on the partition key"));
  g_assert_nonnull (strstr (snippet, "aws dynamodb scan"));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, n_items);
}

/* The read the window last started: the builder's plan, output pane and
 * snippet are those of the request its pager sent. */
static const DynRequest *
assert_read (Fixture      *fixture,
             DynOperation  op,
             const char   *index,
             guint         n_items)
{
  DynExpressionBuilder *builder = dyn_window_get_builder (fixture->window);
  DynReadRequest *read = dyn_window_get_read_request (fixture->window);
  DynPager *pager = dyn_window_get_pager (fixture->window);
  DynClient *client = dyn_window_get_client (fixture->window);
  const DynRequest *sent;
  const DynExprPlan *plan;
  g_autofree char *sent_body = NULL;
  g_autofree char *read_body = NULL;
  const char *plan_text;

  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (read);
  g_assert_nonnull (pager);
  sent = dyn_pager_get_request (pager);

  /* What was sent. */
  g_assert_cmpint (sent->op, ==, op);
  g_assert_cmpstr (sent->index, ==, index);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, n_items);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (fixture->window),
                                   op == DYN_OP_QUERY ? "Query" : "Scan"));

  /* It is the read's request … */
  sent_body = body_text (sent);
  read_body = body_text (dyn_read_request_get_request (read));
  g_assert_cmpstr (sent_body, ==, read_body);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, op);

  /* … and the builder's: one object (opening a table and "Scan All" read
   * everything, whatever the builder holds). */
  if (dyn_read_request_get_request (read)->key_condition == NULL &&
      dyn_read_request_get_request (read)->filter == NULL &&
      dyn_expression_builder_get_read_request (builder) != read)
    {
      assert_plain_scan (fixture, read, op, index, n_items);
      return sent;
    }
  g_assert_true (dyn_expression_builder_get_read_request (builder) == read);
  plan = dyn_read_request_get_plan (read);
  g_assert_cmpint (plan->operation == DYN_EXPR_PLAN_QUERY ? DYN_OP_QUERY : DYN_OP_SCAN, ==, op);
  g_assert_cmpstr (plan->index_name, ==, index);
  plan_text = dyn_expression_builder_get_plan (builder);
  g_assert_nonnull (plan_text);
  if (op == DYN_OP_QUERY)
    g_assert_true (g_str_has_prefix (plan_text, index ? "Query on index " : "Query on table "));
  else
    g_assert_true (g_str_has_prefix (plan_text, index ? "Scan of index " : "Scan of table "));
  g_assert_nonnull (strstr (plan_text, index ? index : dyn_window_get_table (fixture->window)));

  /* The output pane shows the expressions sent. */
  if (sent->key_condition != NULL)
    {
      g_assert_true (shows_label (GTK_WIDGET (builder), "KeyConditionExpression"));
      g_assert_true (shows_label (GTK_WIDGET (builder), sent->key_condition));
    }
  if (sent->filter != NULL)
    {
      g_assert_true (shows_label (GTK_WIDGET (builder), "FilterExpression"));
      g_assert_true (shows_label (GTK_WIDGET (builder), sent->filter));
    }
  if (sent->key_condition == NULL && sent->filter == NULL)
    g_assert_false (shows_label (GTK_WIDGET (builder), "KeyConditionExpression"));

  /* The snippets are of the request sent. */
  for (DynSnippetLanguage lang = DYN_SNIPPET_CLI; lang <= DYN_SNIPPET_BOTO3; lang++)
    {
      g_autoptr(DynRequest) first_page = dyn_request_copy (sent);
      g_autofree char *expected = NULL;

      dyn_request_set_exclusive_start_key (first_page, NULL);
      expected = dyn_snippet_generate (lang, first_page, dyn_client_get_endpoint (client),
                                       dyn_client_get_region (client));
      dyn_expression_builder_set_snippet_language (builder, lang);
      g_assert_cmpstr (dyn_expression_builder_get_snippet (builder), ==, expected);
    }
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder),
                            op == DYN_OP_QUERY ? "client.query(" : "client.scan("));
  dyn_expression_builder_set_snippet_language (builder, DYN_SNIPPET_CLI);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder),
                            op == DYN_OP_QUERY ? "aws dynamodb query" : "aws dynamodb scan"));
  return sent;
}

static void
run_text (Fixture    *fixture,
          const char *text)
{
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), text);
  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
}

static const char *
number_value (const DynRequest *request,
              const char       *placeholder)
{
  DynValue *v = g_hash_table_lookup (request->values, placeholder);

  g_assert_nonnull (v);
  g_assert_cmpint (dyn_value_get_value_type (v), ==, DYN_VALUE_N);
  return dyn_value_get_number (v);
}

/* Issue 8, item 6: for every read the window starts, the plan, the output,
 * the snippet and the request sent agree. */
static void
test_one_object (Fixture       *fixture,
                 gconstpointer  data)
{
  DynExpressionBuilder *builder;
  const DynRequest *sent;
  DynReadRequest *read_before_more;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);

  /* Opening the table: a Scan, from the same kind of object. */
  assert_read (fixture, DYN_OP_SCAN, NULL, G_N_ELEMENTS (films));

  /* Run with the partition key's equality: a Query, and the plan says so. */
  run_text (fixture, "year = 2013");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 5);
  g_assert_cmpstr (sent->key_condition, ==, "#y = :y");
  g_assert_null (sent->filter);
  g_assert_cmpstr (number_value (sent, ":y"), ==, "2013");

  /* With the sort key and a filter. */
  run_text (fixture, "year = 2013 AND title BETWEEN \"G\" AND \"R\" AND rating > 8");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 1);
  g_assert_cmpstr (sent->key_condition, ==, "#y = :y AND #t BETWEEN :tlo AND :thi");
  g_assert_cmpstr (sent->filter, ==, "#r > :r");

  /* A filter only: a Scan. */
  run_text (fixture, "rating > 8");
  sent = assert_read (fixture, DYN_OP_SCAN, NULL, 4);
  g_assert_null (sent->key_condition);
  g_assert_cmpstr (sent->filter, ==, "#r > :r");

  /* An index chosen in the builder's "Read from". */
  dyn_expression_builder_set_index (builder, "byGenre");
  run_text (fixture, "genre = \"Drama\" AND rating > 7.8");
  sent = assert_read (fixture, DYN_OP_QUERY, "byGenre", 4);
  g_assert_cmpstr (sent->key_condition, ==, "#g = :g");
  g_assert_cmpstr (sent->filter, ==, "#r > :r");

  /* A key link: the index keyed by the attribute, what the builder says. */
  dyn_expression_builder_set_index (builder, NULL);
  {
    g_autoptr(DynValue) scifi = dyn_value_new_string ("SciFi");

    g_signal_emit_by_name (dyn_window_get_grid (fixture->window), "follow-key", "genre", scifi);
    dyn_test_wait_idle (fixture->window);
  }
  sent = assert_read (fixture, DYN_OP_QUERY, "byGenre", 3);
  g_assert_cmpstr (sent->key_condition, ==, "#g = :g");
  {
    g_autoptr(DynValue) year = dyn_value_new_number ("2014", NULL);

    g_signal_emit_by_name (dyn_window_get_grid (fixture->window), "follow-key", "year", year);
    dyn_test_wait_idle (fixture->window);
  }
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 3);
  g_assert_cmpstr (number_value (sent, ":y"), ==, "2014");

  /* The toolbar's index menu: the builder's condition, on the index chosen. */
  dyn_expression_builder_set_text (builder, "year = 2013 AND rating > 8");
  gtk_drop_down_set_selected (find_index_menu (GTK_WIDGET (fixture->window)),
                              index_position (fixture->window, "byRating"));
  dyn_test_wait_idle (fixture->window);
  sent = assert_read (fixture, DYN_OP_QUERY, "byRating", 2);
  g_assert_cmpstr (sent->key_condition, ==, "#y = :y AND #r > :r");
  g_assert_null (sent->filter);

  /* Load More: the same request from where it stopped, in full pages (only
   * the first page is small). */
  dyn_window_set_page_limit (fixture->window, 2);
  dyn_expression_builder_set_index (builder, NULL);
  run_text (fixture, "year = 2013");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 2);
  g_assert_cmpint (sent->limit, ==, 2);
  g_assert_null (sent->exclusive_start_key);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--page-size 2"));
  read_before_more = dyn_window_get_read_request (fixture->window);
  activate (fixture->window, "win.load-more", NULL);
  dyn_test_wait_idle (fixture->window);
  /* The read request's body with its start key and without the first
   * page's Limit: the rest of what it asked for. */
  sent = dyn_pager_get_request (dyn_window_get_pager (fixture->window));
  g_assert_true (dyn_window_get_read_request (fixture->window) == read_before_more);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 5);
  g_assert_cmpint (sent->op, ==, DYN_OP_QUERY);
  g_assert_cmpstr (sent->key_condition, ==, dyn_read_request_get_request (read_before_more)->key_condition);
  g_assert_nonnull (sent->exclusive_start_key);
  g_assert_cmpint (sent->limit, ==, 0);
  dyn_window_set_page_limit (fixture->window, 0);

  /* A table with a partition key only. */
  open_table (fixture, plays);
  run_text (fixture, "id = \"p2\"");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 1);
  g_assert_cmpstr (sent->key_condition, ==, "#i = :i");
  run_text (fixture, "n >= 2");
  sent = assert_read (fixture, DYN_OP_SCAN, NULL, 2);
  g_assert_cmpstr (sent->filter, ==, "#n >= :n");
}

static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action_name)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Scrolls the views around @widget to their ends (GTK 4.8's viewports do
 * not follow the focus). */
static void
scroll_to_end (GtkWidget *widget)
{
  for (guint i = 0; i < 10; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_SCROLLED_WINDOW (w))
      {
        GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (w));

        gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
      }
}

/* Saves the window as @name in the build directory (to look at). */
static void
screenshot (Fixture    *fixture,
            const char *name)
{
  g_autofree char *png = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 20; i++)
    {
      dyn_test_iterate ();
      g_usleep (20000);
    }
  png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : tmp_dir, name, NULL);
  if (dyn_window_save_png (GTK_WINDOW (fixture->window), png, &error))
    g_test_message ("screenshot: %s", png);
  else
    g_test_message ("no screenshot: %s", error->message);
}

/* Issue 8, item 6: the suggestion is a button; applied, the read is the Query. */
static void
test_suggestion (Fixture       *fixture,
                 gconstpointer  data)
{
  DynExpressionBuilder *builder;
  DynReadRequest *read;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);
  dyn_expression_builder_set_text (builder, "genre = \"Drama\" AND rating > 7.8");
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_SCAN);
  g_assert_cmpstr (dyn_read_request_get_suggested_index (read), ==, "byGenre");
  g_assert_true (shows_label (GTK_WIDGET (builder),
                              "Suggestion: Query on index byGenre possible, with key condition genre = \"Drama\""));
  g_assert_true (shows_label (GTK_WIDGET (builder), "_Apply Suggestion"));

  /* A picture of the plan with its button. */
  scroll_to_end (find_actionable (GTK_WIDGET (builder), "builder.apply-suggestion"));
  screenshot (fixture, "window-reads-suggestion.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.apply-suggestion", NULL));
  g_assert_cmpstr (dyn_expression_builder_get_index (builder), ==, "byGenre");
  g_assert_cmpuint (gtk_drop_down_get_selected (find_index_menu (GTK_WIDGET (fixture->window))), ==,
                    index_position (fixture->window, "byGenre"));
  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
  sent = assert_read (fixture, DYN_OP_QUERY, "byGenre", 4);
  g_assert_cmpstr (sent->key_condition, ==, "#g = :g");
  scroll_to_end (find_actionable (GTK_WIDGET (builder), "builder.apply-suggestion"));
  screenshot (fixture, "window-reads-applied.png");

  /* The local index narrows a Query of the table. */
  dyn_expression_builder_set_index (builder, NULL);
  dyn_expression_builder_set_text (builder, "year = 2013 AND rating > 8");
  g_assert_cmpstr (dyn_read_request_get_suggested_index (dyn_expression_builder_get_read_request (builder)), ==,
                   "byRating");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.apply-suggestion", NULL));
  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
  sent = assert_read (fixture, DYN_OP_QUERY, "byRating", 2);
  g_assert_null (sent->filter);
}

/* Issue 8, item 7: the builder's "Read from" and the toolbar's menu are one
 * setting; choosing in the toolbar runs what the builder says there. */
static void
test_one_setting (Fixture       *fixture,
                  gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkDropDown *menu;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);
  menu = find_index_menu (GTK_WIDGET (fixture->window));
  g_assert_nonnull (menu);

  /* The builder's choice shows in the toolbar, and Run reads from it. */
  dyn_expression_builder_set_index (builder, "byRating");
  g_assert_cmpuint (gtk_drop_down_get_selected (menu), ==, index_position (fixture->window, "byRating"));
  run_text (fixture, "year = 2013 AND rating > 8");
  sent = assert_read (fixture, DYN_OP_QUERY, "byRating", 2);
  g_assert_cmpstr (sent->key_condition, ==, "#y = :y AND #r > :r");
  g_assert_cmpstr (dyn_window_get_index (fixture->window), ==, "byRating");

  /* The toolbar's choice is the builder's, and runs its condition there
   * (not a Scan that ignores it). */
  dyn_expression_builder_set_text (builder, "genre = \"Drama\"");
  gtk_drop_down_set_selected (menu, index_position (fixture->window, "byGenre"));
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_expression_builder_get_index (builder), ==, "byGenre");
  sent = assert_read (fixture, DYN_OP_QUERY, "byGenre", 5);
  g_assert_cmpstr (sent->key_condition, ==, "#g = :g");

  /* Back to the table: the same condition filters a Scan of it. */
  gtk_drop_down_set_selected (menu, 0);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_expression_builder_get_index (builder));
  sent = assert_read (fixture, DYN_OP_SCAN, NULL, 5);
  g_assert_cmpstr (sent->filter, ==, "#g = :g");

  /* Without a condition the choice reads the whole index. */
  dyn_expression_builder_set_text (builder, "");
  gtk_drop_down_set_selected (menu, index_position (fixture->window, "byRating"));
  dyn_test_wait_idle (fixture->window);
  sent = assert_read (fixture, DYN_OP_SCAN, "byRating", G_N_ELEMENTS (films));
  g_assert_null (sent->filter);
}

/* Runs dynoscope-cli against the test server; returns its standard error. */
static char *
cli_error (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  char *err = NULL;

  g_ptr_array_add (argv, g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL));
  g_ptr_array_add (argv, g_strdup ("--endpoint"));
  g_ptr_array_add (argv, g_strdup (dyn_test_server_get_endpoint (dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL))));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char * const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_assert_false (g_subprocess_get_successful (proc));
  return err;
}

/* Issue 8, item 11: a string for the number key is what the text says, and
 * the window gives the command line's check, with its position. */
static void
test_key_types (Fixture       *fixture,
                gconstpointer  data)
{
  DynExpressionBuilder *builder;
  DynReadRequest *before;
  g_autofree char *cli = NULL;
  g_autofree char *text = NULL;
  const char *message;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);
  before = dyn_window_get_read_request (fixture->window);

  cli = cli_error ((const char * const[]) { "query", movies, "--key-condition", "year = \"2013\"", NULL });
  g_assert_true (g_str_has_prefix (cli, "error: KeyConditionExpression: "));
  g_strchomp (cli);
  message = cli + strlen ("error: KeyConditionExpression: ");
  g_assert_nonnull (strstr (message, "at character 8"));

  dyn_expression_builder_set_text (builder, "year = \"2013\"");
  text = dyn_expression_builder_dup_text (builder);
  g_assert_cmpstr (text, ==, "year = \"2013\"");
  g_assert_false (dyn_expression_builder_get_valid (builder));
  g_assert_cmpstr (dyn_expression_builder_get_messages (builder)[0], ==, message);
  {
    g_autofree char *shown = g_strdup_printf ("• %s", message);

    g_assert_true (shows_label (GTK_WIDGET (builder), shown));
  }
  g_assert_false (shows_label (GTK_WIDGET (builder), "No problems found"));

  /* Run refuses, with the same words; nothing is read. */
  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_nonnull (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), message));
  g_assert_true (dyn_window_get_read_request (fixture->window) == before);

  /* The number runs, as a number. */
  activate (fixture->window, "win.dismiss-error", NULL);
  run_text (fixture, "year = 2013");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 5);
  g_assert_cmpstr (number_value (sent, ":y"), ==, "2013");
}

/* Issue 8, item 12: a text that does not parse shows no compiled result of
 * the one before it, and Run refuses it. */
static void
test_parse_error (Fixture       *fixture,
                  gconstpointer  data)
{
  DynExpressionBuilder *builder;
  DynReadRequest *before;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);
  run_text (fixture, "year = 2013 AND rating > 8");
  assert_read (fixture, DYN_OP_QUERY, NULL, 2);
  before = dyn_window_get_read_request (fixture->window);
  g_assert_true (shows_label (GTK_WIDGET (builder), "#r > :r"));

  dyn_expression_builder_set_text (builder, "year = 2013 AND rating >");
  g_assert_nonnull (dyn_expression_builder_get_parse_error (builder));
  g_assert_true (dyn_expression_builder_get_stale (builder));
  g_assert_null (dyn_expression_builder_get_read_request (builder));
  g_assert_false (shows_label (GTK_WIDGET (builder), "#r > :r"));
  g_assert_false (shows_label (GTK_WIDGET (builder), "#y = :y"));
  g_assert_true (shows_label (GTK_WIDGET (builder),
                              "Out of date: the expression text does not parse, so nothing is compiled from it."));
  g_assert_null (dyn_expression_builder_get_snippet (builder));

  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "character"));
  g_assert_true (dyn_window_get_read_request (fixture->window) == before);
}

/* ------------------------------------------------------------------------ */
/* Keys, pressed for real through the X server (XTest) */

typedef int (*FakeKeyFunc) (void *display, unsigned int keycode, int is_press, unsigned long delay);

static FakeKeyFunc fake_key;

static gboolean
have_xtest (void)
{
#ifdef GDK_WINDOWING_X11
  static void *module;

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return FALSE;
  if (module == NULL)
    module = dlopen ("libXtst.so.6", RTLD_NOW);
  if (module != NULL && fake_key == NULL)
    fake_key = (FakeKeyFunc) dlsym (module, "XTestFakeKeyEvent");
  return fake_key != NULL;
#else
  return FALSE;
#endif
}

static void
press (guint    keyval,
       gboolean control)
{
  /* Let focus changes and pending redraws land before the key does. */
  for (guint i = 0; i < 30; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
#ifdef GDK_WINDOWING_X11
  Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
  unsigned int key = XKeysymToKeycode (dpy, keyval);
  unsigned int ctl = XKeysymToKeycode (dpy, XK_Control_L);

  if (control)
    fake_key (dpy, ctl, True, 0);
  fake_key (dpy, key, True, 0);
  fake_key (dpy, key, False, 0);
  if (control)
    fake_key (dpy, ctl, False, 0);
  XFlush (dpy);
#endif
}

/* Waits until the window's read is another one than @before. */
static void
wait_new_read (Fixture        *fixture,
               DynReadRequest *before)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (10, timeout_cb, &timed_out);

  while (dyn_window_get_read_request (fixture->window) == before && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  dyn_test_wait_idle (fixture->window);
}

static GtkWidget *
find_entry (GtkWidget *widget)
{
  if (GTK_IS_ENTRY (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Issue 8, item 13: Ctrl+Enter in the Expression text runs the query (no
 * newline); Enter in a condition's value runs it too. */
static void
test_run_keys (Fixture       *fixture,
               gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkWidget *view;
  GtkTextBuffer *buffer;
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  DynValueEditor *value;
  DynReadRequest *before;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  open_table (fixture, movies);
  builder = dyn_window_get_builder (fixture->window);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (builder)), ==, "win.query");

  /* Typed text, run at once with Ctrl+Enter. */
  view = _dyn_expression_builder_get_text_view (GTK_WIDGET (builder));
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  g_assert_true (gtk_widget_grab_focus (view));
  gtk_text_buffer_set_text (buffer, "year = 2012", -1);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  before = dyn_window_get_read_request (fixture->window);
  press (GDK_KEY_Return, TRUE);
  wait_new_read (fixture, before);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_cmpstr (text, ==, "year = 2012");
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 3);
  g_assert_cmpstr (number_value (sent, ":y"), ==, "2012");

  /* Enter in the value of the row. */
  value = dyn_expr_condition_row_get_value_editor (
    DYN_EXPR_CONDITION_ROW (dyn_expr_group_row_get_item (dyn_expression_builder_get_root_group (builder), 0)), 0);
  g_assert_true (gtk_widget_grab_focus (find_entry (GTK_WIDGET (value))));
  dyn_value_editor_set_text (value, "2014");
  before = dyn_window_get_read_request (fixture->window);
  press (GDK_KEY_Return, FALSE);
  wait_new_read (fixture, before);
  sent = assert_read (fixture, DYN_OP_QUERY, NULL, 3);
  g_assert_cmpstr (number_value (sent, ":y"), ==, "2014");
  /* No row was added. */
  g_assert_cmpuint (dyn_expr_group_row_get_n_items (dyn_expression_builder_get_root_group (builder)), ==, 1);

  /* The shortcuts window says so. */
  {
    g_autoptr(GBytes) ui = g_resources_lookup_data ("/io/github/dynoscope/Dynoscope/gtk/help-overlay.ui", 0, NULL);
    const char *xml = ui ? g_bytes_get_data (ui, NULL) : NULL;
    const char *run = xml ? strstr (xml, "Run the query") : NULL;

    g_assert_nonnull (run);
    g_assert_true (g_str_has_prefix (strstr (run, "accelerator"), "accelerator\">&lt;Control&gt;Return<"));
  }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  dyn_test_init (&argc, &argv);
  tmp_dir = g_dir_make_tmp ("dyn-test-window-reads-XXXXXX", NULL);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  gtk_init ();
  adw_init ();

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) g_test_add ("/dyn/window-reads/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("one-object", test_one_object);
  ADD ("suggestion", test_suggestion);
  ADD ("one-setting", test_one_setting);
  ADD ("key-types", test_key_types);
  ADD ("parse-error", test_parse_error);
  ADD ("run-keys", test_run_keys);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (movies);
  g_free (plays);
  return status;
}
