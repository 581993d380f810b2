/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-builder"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-expression-builder-private.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The builder's read options in the main window, under Xvfb against
 * DynamoDB Local, on a table unlike the demo data: a numeric sort key
 * (episode N under series S), a global index on network and rating, a local
 * one on the air date. Each option is set through the builder's own
 * widgets and actions and run with Run (win.query); what the window read is
 * checked against DynamoDB Local read directly: the attributes a projection
 * asks for, a strongly consistent read (and that a global index refuses
 * it), the sort key backwards, a page size for every page, a count without
 * items, and the GetItem form. Screenshots go to the build directory (or
 * DYN_SCREENSHOT_DIR). */

static DynApplication *app;
static char *tmp_dir;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynClient          *other;
  char               *table;
} Fixture;

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
screenshot (Fixture    *fixture,
            const char *name)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR") ? g_getenv ("DYN_SCREENSHOT_DIR") : g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *path = g_build_filename (dir ? dir : tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 20; i++)
    {
      dyn_test_iterate ();
      g_usleep (20000);
    }
  if (dyn_window_save_png (GTK_WINDOW (fixture->window), path, &error))
    g_test_message ("screenshot: %s", path);
  else
    g_test_message ("no screenshot: %s", error->message);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autofree char *params = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(DynConnection) connection = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("Episodes");
  params = g_strdup_printf (
    "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"series\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"episode\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"network\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"rating\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"aired\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"series\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"episode\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByNetwork\",\"KeySchema\":["
    "{\"AttributeName\":\"network\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"rating\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"ByAired\",\"KeySchema\":["
    "{\"AttributeName\":\"series\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"aired\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", fixture->table);
  g_assert_true (dyn_test_create_table_json (fixture->other, fixture->table, params, &error));
  g_assert_no_error (error);
  /* Twelve episodes of one series, three of another: numbers that sort
   * differently as text (10 before 2), ratings with decimals. */
  for (guint i = 1; i <= 12; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"series\":{\"S\":\"Lost\"},\"episode\":{\"N\":\"%u\"},\"network\":{\"S\":\"ABC\"},"
      "\"rating\":{\"N\":\"%u.%u\"},\"aired\":{\"S\":\"2004-%02u-01\"},\"title\":{\"S\":\"Lost %u\"},"
      "\"info\":{\"M\":{\"plot\":{\"S\":\"Plot %u\"},\"cast\":{\"L\":[{\"S\":\"Jack\"},{\"S\":\"Kate\"}]}}}}",
      i, 7 + i % 3, i, i, i, i));
  for (guint i = 1; i <= 3; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"series\":{\"S\":\"Dark\"},\"episode\":{\"N\":\"%u\"},\"network\":{\"S\":\"Netflix\"},"
      "\"rating\":{\"N\":\"9.%u\"},\"aired\":{\"S\":\"2017-12-0%u\"},\"title\":{\"S\":\"Dark %u\"}}",
      i, i, i, i));
  g_assert_true (dyn_test_load_items (fixture->other, fixture->table, items, &error));
  g_assert_no_error (error);

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

  connection = dyn_connection_new ("Local");
  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
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
  if (!gtk_widget_get_mapped (GTK_WIDGET (dyn_window_get_builder (fixture->window))))
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.toggle-builder", NULL));
  settle ();
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

/* Widgets ------------------------------------------------------------------ */

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The visible label whose text starts with @prefix. */
static GtkWidget *
find_label_prefix (GtkWidget  *widget,
                   const char *prefix)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_is_visible (widget) &&
      g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label_prefix (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The check button labelled @label. */
static GtkWidget *
find_check (GtkWidget  *widget,
            const char *label)
{
  if (GTK_IS_CHECK_BUTTON (widget) && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_check (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The builder's Attributes field (ProjectionExpression). */
static GtkWidget *
find_projection_entry (GtkWidget *widget)
{
  if (GTK_IS_ENTRY (widget) && g_strcmp0 (gtk_entry_get_placeholder_text (GTK_ENTRY (widget)), "All attributes") == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_projection_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The GetItem form's field of @attribute. */
static GtkWidget *
find_key_row (GtkWidget  *widget,
              const char *attribute)
{
  if (ADW_IS_ENTRY_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), attribute) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_key_row (child, attribute);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Scrolls the builder's pane so that @widget is in view. */
static void
scroll_to (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj;
  graphene_point_t point;

  g_assert_nonnull (scrolled);
  settle ();
  g_assert_true (gtk_widget_compute_point (widget, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adj, point.y - 12);
  settle ();
}

/* Reads ------------------------------------------------------------------------ */

static void
set_text (Fixture    *fixture,
          const char *text)
{
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), text);
  dyn_test_iterate ();
}

/* Run, as the builder's button does; no error. */
static void
run (Fixture *fixture)
{
  GtkWidget *button = find_label (GTK_WIDGET (fixture->window), "_Run");

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  /* A click (activating a button only clicks it after its press shows). */
  g_signal_emit_by_name (button, "clicked");
  dyn_test_wait_idle (fixture->window);
  settle ();
  if (dyn_window_get_error_text (fixture->window) != NULL)
    g_error ("the read failed: %s", dyn_window_get_error_text (fixture->window));
}

/* The items the window read, in the order they arrived. */
static GPtrArray *
window_items (Fixture *fixture)
{
  GListModel *flat = dyn_collection_model_get_flat_model (dyn_window_get_model (fixture->window));
  GPtrArray *items = dyn_test_item_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (flat); i++)
    {
      g_autoptr(DynItemObject) object = g_list_model_get_item (flat, i);

      g_ptr_array_add (items, dyn_value_ref (dyn_item_object_get_item (object)));
    }
  return items;
}

/* The episode numbers the window read, in arrival order: "12 11 10". */
static char *
window_episodes (Fixture *fixture)
{
  g_autoptr(GPtrArray) items = window_items (fixture);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", dyn_test_item_get_number (items->pdata[i], "episode"));
  return g_string_free (s, FALSE);
}

/* What DynamoDB Local itself returns for the window's request, every page. */
static GPtrArray *
server_items (Fixture *fixture)
{
  g_autoptr(DynPager) pager = dyn_pager_new (fixture->other, dyn_window_get_request (fixture->window));
  g_autoptr(GError) error = NULL;
  GPtrArray *items = dyn_test_pager_run (pager, 1, 0, &error);

  g_assert_no_error (error);
  return items;
}

static void
assert_items_equal (GPtrArray *got,
                    GPtrArray *expected)
{
  g_assert_cmpuint (got->len, ==, expected->len);
  for (guint i = 0; i < got->len; i++)
    if (!dyn_value_equal (got->pdata[i], expected->pdata[i]))
      {
        g_autofree char *a = dyn_item_to_ddb_json_string (got->pdata[i]);
        g_autofree char *b = dyn_item_to_ddb_json_string (expected->pdata[i]);

        g_error ("item %u differs:\n  window: %s\n  server: %s", i, a, b);
      }
}

static void
load_all (Fixture *fixture)
{
  while (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.load-more", NULL) &&
         !dyn_pager_is_done (dyn_window_get_pager (fixture->window)))
    dyn_test_wait_idle (fixture->window);
  dyn_test_wait_idle (fixture->window);
}

/* Tests ------------------------------------------------------------------------- */

/* Attributes: only those asked for come back, with the key attributes. */
static void
test_projection (Fixture       *fixture,
                 gconstpointer  data)
{
  DynExpressionBuilder *builder;
  const DynRequest *request;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  GtkWidget *entry;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Lost\"");
  /* Typed into the builder's Attributes field. */
  entry = find_projection_entry (GTK_WIDGET (builder));
  g_assert_nonnull (entry);
  g_assert_true (gtk_widget_is_visible (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "title, info.plot, rating");
  dyn_test_iterate ();
  g_assert_cmpstr (dyn_expression_builder_get_projection (builder), ==, "title, info.plot, rating");
  g_assert_true (dyn_expression_builder_get_valid (builder));
  /* The snippet and the output pane say what is sent. */
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--projection-expression"));
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "ProjectionExpression"));
  run (fixture);

  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  /* The key attributes are read too: the grid groups and edits by them. */
  g_assert_cmpstr (request->projection, ==, "#t, #i.#p, #r, #s, #e");
  g_assert_cmpstr (g_hash_table_lookup (request->names, "#s"), ==, "series");
  g_assert_cmpstr (g_hash_table_lookup (request->names, "#e"), ==, "episode");
  items = window_items (fixture);
  g_assert_cmpuint (items->len, ==, 12);
  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      DynValue *info = dyn_value_map_lookup (item, "info");

      g_assert_cmpuint (dyn_value_get_length (item), ==, 5);
      g_assert_null (dyn_value_map_lookup (item, "network"));
      g_assert_null (dyn_value_map_lookup (item, "aired"));
      g_assert_nonnull (info);
      g_assert_cmpuint (dyn_value_get_length (info), ==, 1);
      g_assert_nonnull (dyn_value_map_lookup (info, "plot"));
    }
  expected = server_items (fixture);
  assert_items_equal (items, expected);

  /* A projection that does not parse: no read, the field says why. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "title,, rating");
  dyn_test_iterate ();
  g_assert_false (dyn_expression_builder_get_valid (builder));
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_messages (builder)[0], "ProjectionExpression: "));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.query", NULL));
  g_assert_nonnull (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "ProjectionExpression"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.dismiss-error", NULL);
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  dyn_test_iterate ();
  g_assert_null (dyn_expression_builder_get_projection (builder));
}

/* Strongly consistent on the table and a local index; a global index has
 * none: the option is off there, and says so. */
static void
test_consistent_read (Fixture       *fixture,
                      gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkWidget *check;
  const DynRequest *request;
  double eventual, consistent;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Lost\"");
  dyn_window_set_page_limit (fixture->window, 0);
  run (fixture);
  g_assert_false (dyn_window_get_request (fixture->window)->consistent_read);
  eventual = dyn_pager_get_stats (dyn_window_get_pager (fixture->window))->read_units;

  /* Clicked, as the user does. */
  check = find_check (GTK_WIDGET (builder), "S_trongly consistent read");
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_is_sensitive (check));
  g_assert_true (gtk_widget_activate (check));
  dyn_test_iterate ();
  g_assert_true (dyn_expression_builder_get_consistent_read (builder));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--consistent-read"));
  run (fixture);
  request = dyn_window_get_request (fixture->window);
  g_assert_true (request->consistent_read);
  consistent = dyn_pager_get_stats (dyn_window_get_pager (fixture->window))->read_units;
  /* A strongly consistent read costs twice as much, and the status says which it was. */
  g_assert_cmpfloat (consistent, ==, 2 * eventual);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "strongly consistent"));

  /* The local index has them too. */
  dyn_expression_builder_set_index (builder, "ByAired");
  dyn_test_iterate ();
  g_assert_true (gtk_widget_is_sensitive (check));
  run (fixture);
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpstr (request->index, ==, "ByAired");
  g_assert_true (request->consistent_read);

  /* The global index: off, with DynamoDB's reason beside it; the read goes
   * out eventually consistent and succeeds. */
  dyn_expression_builder_set_index (builder, "ByNetwork");
  set_text (fixture, "network = \"ABC\"");
  /* Off and insensitive there, with DynamoDB's reason beside it. */
  g_assert_false (gtk_widget_is_sensitive (check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_true (dyn_expression_builder_get_consistent_read (builder));
  g_assert_nonnull (find_label (GTK_WIDGET (builder),
                                "A global secondary index only has eventually consistent reads: this read is not "
                                "strongly consistent."));
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "--consistent-read"));
  scroll_to (find_label (GTK_WIDGET (builder), "Read Options"));
  screenshot (fixture, "builder-consistent-gsi.png");
  run (fixture);
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpstr (request->index, ==, "ByNetwork");
  g_assert_false (request->consistent_read);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 12);
  g_assert_null (strstr (dyn_window_get_status_text (fixture->window), "strongly consistent"));

  /* Back on the table, the choice applies again. */
  dyn_expression_builder_set_index (builder, NULL);
  set_text (fixture, "series = \"Dark\"");
  g_assert_true (gtk_widget_is_sensitive (check));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  run (fixture);
  g_assert_true (dyn_window_get_request (fixture->window)->consistent_read);
}

/* Descending: the sort key from last to first, as numbers (12 before 9);
 * with a small page, the last episodes are the ones read. A Scan has no
 * order: the option is off there and not sent. */
static void
test_descending (Fixture       *fixture,
                 gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkWidget *check;
  g_autofree char *episodes = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GPtrArray) items = NULL;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Lost\"");
  check = find_check (GTK_WIDGET (builder), "_Descending");
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_activate (check));
  dyn_test_iterate ();
  g_assert_true (dyn_expression_builder_get_descending (builder));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--no-scan-index-forward"));
  dyn_window_set_page_limit (fixture->window, 3);
  run (fixture);
  g_assert_false (dyn_window_get_request (fixture->window)->scan_forward);
  episodes = window_episodes (fixture);
  g_assert_cmpstr (episodes, ==, "12 11 10");
  /* The grid shows them in that order. */
  g_assert_true (dyn_collection_model_get_descending (dyn_window_get_model (fixture->window)));
  load_all (fixture);
  g_clear_pointer (&episodes, g_free);
  episodes = window_episodes (fixture);
  g_assert_cmpstr (episodes, ==, "12 11 10 9 8 7 6 5 4 3 2 1");
  items = window_items (fixture);
  expected = server_items (fixture);
  assert_items_equal (items, expected);

  /* A filter on a non-key attribute is a Scan: Descending does not apply. */
  set_text (fixture, "rating > 9");
  g_assert_false (gtk_widget_is_sensitive (check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  g_assert_nonnull (find_label (GTK_WIDGET (builder),
                                "A Scan returns the items in no order: Descending applies to a Query."));
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "scan-index-forward"));
  run (fixture);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_SCAN);
  g_assert_true (dyn_window_get_request (fixture->window)->scan_forward);
  {
    g_autoptr(JsonNode) body = dyn_read_request_dup_body (dyn_window_get_read_request (fixture->window));

    g_assert_false (json_object_has_member (json_node_get_object (body), "ScanIndexForward"));
  }
  g_assert_false (dyn_collection_model_get_descending (dyn_window_get_model (fixture->window)));
  /* A Query again: the choice is kept. */
  set_text (fixture, "series = \"Dark\"");
  g_assert_true (gtk_widget_is_sensitive (check));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  run (fixture);
  g_clear_pointer (&episodes, g_free);
  episodes = window_episodes (fixture);
  g_assert_cmpstr (episodes, ==, "3 2 1");
}

/* Page size: the window's setting is the first page's (Load More reads
 * the rest in full); one chosen in the builder is every page's. */
static void
test_page_size (Fixture       *fixture,
                gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkSpinButton *spin;
  const DynReadStats *stats;
  g_autofree char *episodes = NULL;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Lost\"");
  dyn_window_set_page_limit (fixture->window, 5);
  spin = GTK_SPIN_BUTTON (find_type (GTK_WIDGET (builder), GTK_TYPE_SPIN_BUTTON));
  g_assert_nonnull (spin);
  /* It shows the setting until the user chooses. */
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 5);
  g_assert_cmpint (dyn_expression_builder_get_read_page_size (builder), ==, -1);
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "first page"));
  run (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 5);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "first page limited to 5"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.load-more", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 12);

  /* Chosen in the builder: 4 a page, Load More reads 4 more. */
  gtk_spin_button_set_value (spin, 4);
  dyn_test_iterate ();
  g_assert_cmpint (dyn_expression_builder_get_read_page_size (builder), ==, 4);
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "every page"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--page-size 4"));
  run (fixture);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->limit, ==, 4);
  episodes = window_episodes (fixture);
  g_assert_cmpstr (episodes, ==, "1 2 3 4");
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "pages of 4"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.load-more", NULL));
  dyn_test_wait_idle (fixture->window);
  g_clear_pointer (&episodes, g_free);
  episodes = window_episodes (fixture);
  g_assert_cmpstr (episodes, ==, "1 2 3 4 5 6 7 8");
  stats = dyn_pager_get_stats (dyn_window_get_pager (fixture->window));
  g_assert_cmpuint (stats->pages, ==, 2);
  load_all (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 12);
  g_assert_cmpuint (stats->pages, ==, 4);   /* 4 + 4 + 4, and an empty last page */

  /* "Full": pages of up to 1 MB, no Limit sent (DynamoDB refuses 0). */
  gtk_spin_button_set_value (spin, 0);
  dyn_test_iterate ();
  g_assert_cmpint (dyn_expression_builder_get_read_page_size (builder), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "Full");
  run (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 12);
  {
    g_autoptr(JsonNode) body = dyn_read_request_dup_body (dyn_window_get_read_request (fixture->window));

    g_assert_false (json_object_has_member (json_node_get_object (body), "Limit"));
  }
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "--page-size"));
}

/* Count only: Count, ScannedCount and the capacity, no rows. */
static void
test_count_only (Fixture       *fixture,
                 gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkWidget *check;
  const DynReadStats *stats;
  const char *status;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  dyn_window_set_page_limit (fixture->window, 0);
  dyn_expression_builder_set_projection (builder, "title");
  set_text (fixture, "series = \"Lost\" AND rating > 8");
  check = find_check (GTK_WIDGET (builder), "C_ount only");
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_activate (check));
  dyn_test_iterate ();
  g_assert_true (dyn_expression_builder_get_count_only (builder));
  /* A count reads no attributes: the projection is off, and not sent. */
  g_assert_false (gtk_widget_is_sensitive (find_projection_entry (GTK_WIDGET (builder))));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--select COUNT"));
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "--projection-expression"));
  g_assert_nonnull (find_label_prefix (GTK_WIDGET (builder), "Count only: no items"));
  scroll_to (find_label (GTK_WIDGET (builder), "Read Options"));
  screenshot (fixture, "builder-count-only.png");
  run (fixture);
  g_assert_cmpstr (dyn_window_get_request (fixture->window)->select, ==, "COUNT");
  g_assert_null (dyn_window_get_request (fixture->window)->projection);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 0);
  stats = dyn_pager_get_stats (dyn_window_get_pager (fixture->window));
  /* rating 8.x and 9.x: episodes with i % 3 != 0, eight of them; twelve read. */
  g_assert_cmpuint (stats->counted, ==, 8);
  g_assert_cmpuint (stats->scanned, ==, 12);
  g_assert_cmpfloat (stats->read_units, >, 0);
  status = dyn_window_get_status_text (fixture->window);
  g_assert_true (g_str_has_prefix (status, "Query · 1 request · 1 page · "));
  g_assert_nonnull (strstr (status, "count only: 8 items (12 scanned)"));
  screenshot (fixture, "window-count-only.png");

  /* A Scan counts too. */
  set_text (fixture, "network = \"Netflix\"");
  run (fixture);
  stats = dyn_pager_get_stats (dyn_window_get_pager (fixture->window));
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_SCAN);
  g_assert_cmpuint (stats->counted, ==, 3);
  g_assert_cmpuint (stats->scanned, ==, 15);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 0);

  /* Off again: the items and the projection come back. */
  g_assert_true (gtk_widget_activate (check));
  dyn_test_iterate ();
  run (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 3);
  g_assert_nonnull (dyn_window_get_request (fixture->window)->projection);
}

/* The GetItem form: a field per key attribute, typed; one row, or the
 * status says there is no such item; projection and consistency apply. */
static void
test_get_item (Fixture       *fixture,
               gconstpointer  data)
{
  DynExpressionBuilder *builder;
  GtkWidget *get_button, *series, *episode;
  const DynRequest *request;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(DynResponse) stored = NULL;
  g_autoptr(GError) error = NULL;
  const char *status;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Dark\"");
  get_button = find_label (GTK_WIDGET (builder), "_Get Item by Key");
  g_assert_nonnull (get_button);
  g_signal_emit_by_name (get_button, "clicked");
  dyn_test_iterate ();
  g_assert_true (dyn_expression_builder_get_by_key (builder));
  series = find_key_row (GTK_WIDGET (builder), "series");
  episode = find_key_row (GTK_WIDGET (builder), "episode");
  g_assert_nonnull (series);
  g_assert_nonnull (episode);
  g_assert_true (gtk_widget_is_visible (series) && gtk_widget_is_visible (episode));
  g_assert_nonnull (find_label (GTK_WIDGET (series), "Partition key · String"));
  g_assert_nonnull (find_label (GTK_WIDGET (episode), "Sort key · Number"));
  /* The expression and the options of a Query are out of the way. */
  g_assert_false (gtk_widget_is_visible (_dyn_expression_builder_get_text_view (GTK_WIDGET (builder))));
  g_assert_false (gtk_widget_is_visible (find_check (GTK_WIDGET (builder), "_Descending")));
  g_assert_false (gtk_widget_is_visible (find_check (GTK_WIDGET (builder), "C_ount only")));
  g_assert_false (dyn_expression_builder_get_valid (builder));

  gtk_editable_set_text (GTK_EDITABLE (series), "Lost");
  gtk_editable_set_text (GTK_EDITABLE (episode), "10");
  dyn_test_iterate ();
  g_assert_true (dyn_expression_builder_get_valid (builder));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (builder), "GetItem on table Episodes"));
  g_assert_true (g_str_has_suffix (dyn_expression_builder_get_plan (builder),
                                   "GetItem of the one item with series = \"Lost\" AND episode = 10"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "aws dynamodb get-item"));
  /* Enter in a field runs it. */
  g_signal_emit_by_name (episode, "entry-activated");
  dyn_test_wait_idle (fixture->window);
  settle ();
  g_assert_null (dyn_window_get_error_text (fixture->window));
  request = dyn_window_get_request (fixture->window);
  g_assert_cmpint (request->op, ==, DYN_OP_GET_ITEM);
  g_assert_null (request->index);
  items = window_items (fixture);
  g_assert_cmpuint (items->len, ==, 1);
  stored = dyn_test_callf (fixture->other, "GetItem", &error,
                           "{\"TableName\":\"%s\",\"Key\":{\"series\":{\"S\":\"Lost\"},\"episode\":{\"N\":\"10\"}}}",
                           fixture->table);
  g_assert_no_error (error);
  g_assert_true (dyn_value_equal (items->pdata[0], stored->item));
  status = dyn_window_get_status_text (fixture->window);
  g_assert_true (g_str_has_prefix (status, "GetItem · 1 request · 0.5 RCU · 1 item"));
  /* One item, one request: there is nothing more to load. */
  g_assert_true (dyn_pager_is_done (dyn_window_get_pager (fixture->window)));

  /* With attributes and strongly consistent: what the form sends. */
  dyn_expression_builder_set_projection (builder, "title, info.cast[1]");
  g_assert_true (gtk_widget_activate (find_check (GTK_WIDGET (builder), "S_trongly consistent read")));
  dyn_test_iterate ();
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--consistent-read"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--projection-expression"));
  scroll_to (find_label (GTK_WIDGET (builder), "_Find Items"));
  screenshot (fixture, "builder-get-item.png");
  run (fixture);
  request = dyn_window_get_request (fixture->window);
  g_assert_true (request->consistent_read);
  g_assert_cmpstr (request->projection, ==, "#t, #i.#c[1], #s, #e");
  g_clear_pointer (&items, g_ptr_array_unref);
  items = window_items (fixture);
  g_assert_cmpuint (items->len, ==, 1);
  g_assert_cmpuint (dyn_value_get_length (items->pdata[0]), ==, 4);
  {
    DynValue *cast = dyn_value_map_lookup (dyn_value_map_lookup (items->pdata[0], "info"), "cast");

    g_assert_cmpuint (dyn_value_get_length (cast), ==, 1);
    g_assert_cmpstr (dyn_value_get_string (dyn_value_list_get (cast, 0)), ==, "Kate");
  }
  status = dyn_window_get_status_text (fixture->window);
  g_assert_true (g_str_has_prefix (status, "GetItem · 1 request · 1 RCU · strongly consistent · 1 item"));
  screenshot (fixture, "window-get-item.png");

  /* A key with no item: no row, and the status says so. */
  gtk_editable_set_text (GTK_EDITABLE (episode), "99");
  dyn_test_iterate ();
  run (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 0);
  status = dyn_window_get_status_text (fixture->window);
  g_assert_nonnull (strstr (status, "no item with this key"));
  screenshot (fixture, "window-get-item-none.png");

  /* A number that is not one: the form says so, Run refuses. */
  gtk_editable_set_text (GTK_EDITABLE (episode), "ten");
  dyn_test_iterate ();
  g_assert_false (dyn_expression_builder_get_valid (builder));
  g_assert_cmpstr (dyn_expression_builder_get_messages (builder)[0], ==,
                   "episode: “ten” is not a DynamoDB number");
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "• episode: “ten” is not a DynamoDB number"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.query", NULL));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "episode: “ten” is not a DynamoDB number"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.dismiss-error", NULL);
  /* An empty string: a key attribute cannot be one. */
  gtk_editable_set_text (GTK_EDITABLE (episode), "3");
  gtk_editable_set_text (GTK_EDITABLE (series), "");
  dyn_test_iterate ();
  g_assert_cmpstr (dyn_expression_builder_get_messages (builder)[0], ==,
                   "series: a key attribute must not be empty");

  /* Finding items again: the expression is still there, and runs. */
  g_signal_emit_by_name (find_label (GTK_WIDGET (builder), "_Find Items"), "clicked");
  dyn_test_iterate ();
  g_assert_false (dyn_expression_builder_get_by_key (builder));
  g_assert_true (gtk_widget_is_visible (_dyn_expression_builder_get_text_view (GTK_WIDGET (builder))));
  run (fixture);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_QUERY);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 3);

  /* Following a key link from a row reads by the expression again. */
  g_signal_emit_by_name (get_button, "clicked");
  dyn_test_iterate ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.follow-index", "(ss)", "series",
                                             "{\"S\":\"Lost\"}"));
  dyn_test_wait_idle (fixture->window);
  g_assert_false (dyn_expression_builder_get_by_key (builder));
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_QUERY);
}

/* Another table: the options and the key form were this table's, and are
 * not carried over (its attribute names are not the other's). */
static void
test_other_table (Fixture       *fixture,
                  gconstpointer  data)
{
  DynExpressionBuilder *builder;
  g_autofree char *other = NULL;
  g_autoptr(GError) error = NULL;
  DynReadRequest *read;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  other = dyn_test_table_name ("Products");
  g_assert_true (dyn_test_create_table (fixture->other, other, "sku:S", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.refresh-tables", NULL));
  dyn_test_wait_idle (fixture->window);

  dyn_expression_builder_set_projection (builder, "title");
  dyn_expression_builder_set_consistent_read (builder, TRUE);
  dyn_expression_builder_set_descending (builder, TRUE);
  dyn_expression_builder_set_count_only (builder, TRUE);
  dyn_expression_builder_set_read_page_size (builder, 3);
  dyn_expression_builder_set_by_key (builder, TRUE);
  gtk_editable_set_text (GTK_EDITABLE (find_key_row (GTK_WIDGET (builder), "series")), "Lost");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", other));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_false (dyn_expression_builder_get_by_key (builder));
  g_assert_null (dyn_expression_builder_get_projection (builder));
  g_assert_false (dyn_expression_builder_get_consistent_read (builder));
  g_assert_false (dyn_expression_builder_get_descending (builder));
  g_assert_false (dyn_expression_builder_get_count_only (builder));
  g_assert_cmpint (dyn_expression_builder_get_read_page_size (builder), ==, -1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find_projection_entry (GTK_WIDGET (builder)))), ==, "");
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_nonnull (read);
  g_assert_null (dyn_read_request_get_request (read)->projection);
  g_assert_null (dyn_read_request_get_request (read)->select);
  /* A hash-only table: one key field. */
  dyn_expression_builder_set_by_key (builder, TRUE);
  g_assert_nonnull (find_key_row (GTK_WIDGET (builder), "sku"));
  g_assert_null (find_key_row (GTK_WIDGET (builder), "series"));
  gtk_editable_set_text (GTK_EDITABLE (find_key_row (GTK_WIDGET (builder), "sku")), "nope");
  dyn_test_iterate ();
  run (fixture);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_GET_ITEM);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "no item with this key"));
  dyn_test_delete_table (fixture->other, other, NULL);
}

/* The builder with the options set, for the README (builder-options.png). */
static void
test_options_screenshot (Fixture       *fixture,
                         gconstpointer  data)
{
  DynExpressionBuilder *builder;

  if (fixture->window == NULL)
    return;
  builder = dyn_window_get_builder (fixture->window);
  set_text (fixture, "series = \"Lost\" AND episode >= 3");
  dyn_expression_builder_set_projection (builder, "title, rating, info.plot");
  dyn_expression_builder_set_consistent_read (builder, TRUE);
  dyn_expression_builder_set_descending (builder, TRUE);
  dyn_expression_builder_set_read_page_size (builder, 5);
  run (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 5);
  scroll_to (find_label (GTK_WIDGET (builder), "Read Options"));
  screenshot (fixture, "builder-options.png");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-builder");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-builder/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("projection", test_projection);
  ADD ("consistent-read", test_consistent_read);
  ADD ("descending", test_descending);
  ADD ("page-size", test_page_size);
  ADD ("count-only", test_count_only);
  ADD ("get-item", test_get_item);
  ADD ("other-table", test_other_table);
  ADD ("options-screenshot", test_options_screenshot);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
