/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-tables"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-create-table-dialog.h"
#include "dyn-table-details.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* Table management in the real window under Xvfb against DynamoDB Local:
 * Create Table through its dialog (a multi-attribute GSI and an LSI with an
 * INCLUDE projection, a numeric sort key; a hash-only table with a binary
 * key), where the CreateTable JSON shown is what DescribeTable then reports;
 * problems (an LSI on a table without sort key, two indexes of one name)
 * named beside their index with Create insensitive; the Table page's exact
 * count of a table of known size with its cost before and after; Add Index
 * with its status shown until ACTIVE, and Delete Index; TTL on and off;
 * Truncate (its cost first, a rate limit) empties the table; Delete Table
 * only once the exact name is typed, and the sidebar loses it. With
 * DYN_SCREENSHOT_DIR set (or into the build directory) create-table.png,
 * create-table-dark.png, create-table-invalid.png, add-index.png,
 * table-details.png, table-details-dark.png and delete-table.png are
 * written. */

/* Waits end after five minutes: long enough for a loaded machine (no test
 * asserts a time), short of the test's own timeout. */
static gint64
wait_deadline (void)
{
  return g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
}

static DynApplication *app;
static char *tmp_dir;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynClient          *client;     /* the test's own, to check what the window did */
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  g_unlink (path);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  fixture->client = dyn_test_client_new (server);
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

  fixture->connection = dyn_connection_new ("Local");
  dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (fixture->connection, dyn_test_server_get_endpoint (server));
  dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  dyn_window_open_connection (fixture->window, fixture->connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_clear_object (&fixture->connection);
  g_clear_object (&fixture->client);
  if (fixture->store != NULL)
    g_assert_finalize_object (fixture->store);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
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

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_group (GtkWidget  *widget,
            const char *title)
{
  if (ADW_IS_PREFERENCES_GROUP (widget) &&
      g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (widget)), title) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_group (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
screenshot (GtkWindow  *window,
            const char *name)
{
  dyn_test_window_screenshot (window, name, tmp_dir);
}

static void
activate (DynWindow  *window,
          const char *action,
          GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
}

/* Runs the loop until @window has no table dialog open (30 s at most). */
static void
wait_dialog_closed (DynWindow *window)
{
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline && dyn_window_get_table_dialog (window) != NULL;)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  if (DYN_IS_CREATE_TABLE_DIALOG (dyn_window_get_table_dialog (window)))
    {
      g_autofree char *problems = dyn_create_table_dialog_dup_problems (DYN_CREATE_TABLE_DIALOG (dyn_window_get_table_dialog (window)));
      g_test_message ("still open: %s", problems);
    }
  g_assert_null (dyn_window_get_table_dialog (window));
}

static void
respond (AdwMessageDialog *dialog,
         const char       *response)
{
  /* As a click does: the response, then the dialog goes. */
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
  dyn_test_iterate ();
}

static DynCreateTableDialog *
open_create_dialog (Fixture *fixture)
{
  GtkWindow *dialog;

  activate (fixture->window, "win.create-table", NULL);
  dyn_test_settle ();
  dialog = dyn_window_get_table_dialog (fixture->window);
  g_assert_true (DYN_IS_CREATE_TABLE_DIALOG (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  return DYN_CREATE_TABLE_DIALOG (dialog);
}

static JsonObject *
describe (Fixture    *fixture,
          const char *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fixture->client, "DescribeTable", &error,
                                                    "{\"TableName\":\"%s\"}", table);

  g_assert_no_error (error);
  return json_object_ref (json_object_get_object_member (json_node_get_object (response->root), "Table"));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static void
append_key_schema (GString    *out,
                   JsonObject *owner)
{
  JsonArray *schema = json_object_get_array_member (owner, "KeySchema");

  for (guint i = 0; i < json_array_get_length (schema); i++)
    {
      JsonObject *key = json_array_get_object_element (schema, i);
      g_string_append_printf (out, " %s/%s", json_object_get_string_member (key, "AttributeName"),
                              json_object_get_string_member (key, "KeyType"));
    }
}

static void
append_indexes (GString    *out,
                JsonObject *table,
                const char *member)
{
  JsonArray *indexes = json_object_has_member (table, member) ? json_object_get_array_member (table, member) : NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);
      JsonObject *projection = json_object_get_object_member (index, "Projection");
      GString *line = g_string_new (json_object_get_string_member (index, "IndexName"));

      append_key_schema (line, index);
      g_string_append_printf (line, " %s", json_object_get_string_member (projection, "ProjectionType"));
      if (json_object_has_member (projection, "NonKeyAttributes"))
        {
          JsonArray *attrs = json_object_get_array_member (projection, "NonKeyAttributes");
          g_autoptr(GPtrArray) names = g_ptr_array_new ();

          for (guint j = 0; j < json_array_get_length (attrs); j++)
            g_ptr_array_add (names, (gpointer) json_array_get_string_element (attrs, j));
          g_ptr_array_sort (names, compare_strings);
          for (guint j = 0; j < names->len; j++)
            g_string_append_printf (line, " +%s", (const char *) names->pdata[j]);
        }
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  g_ptr_array_sort (lines, compare_strings);
  g_string_append_printf (out, "%s:\n", member);
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "  %s\n", (const char *) lines->pdata[i]);
}

/* What a CreateTable request and DescribeTable's Table have in common:
 * name, attribute definitions, keys, indexes with their projections. */
static char *
table_shape (JsonObject *table)
{
  GString *out = g_string_new (json_object_get_string_member (table, "TableName"));
  JsonArray *defs = json_object_get_array_member (table, "AttributeDefinitions");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < json_array_get_length (defs); i++)
    {
      JsonObject *def = json_array_get_object_element (defs, i);
      g_ptr_array_add (names, g_strdup_printf ("%s:%s", json_object_get_string_member (def, "AttributeName"),
                                               json_object_get_string_member (def, "AttributeType")));
    }
  g_ptr_array_sort (names, compare_strings);
  g_string_append (out, "\nattributes:");
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, " %s", (const char *) names->pdata[i]);
  g_string_append (out, "\nkey:");
  append_key_schema (out, table);
  g_string_append_c (out, '\n');
  append_indexes (out, table, "GlobalSecondaryIndexes");
  append_indexes (out, table, "LocalSecondaryIndexes");
  return g_string_free (out, FALSE);
}

static void
click (GtkWidget *button)
{
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

/* Fills the dialog with the table of the example: a numeric sort
 * key, a GSI on two partition attributes with a sort attribute, an LSI with
 * INCLUDE. */
static void
fill_orders (DynCreateTableDialog *dialog,
             const char           *table)
{
  DynCreateTableIndexRow *gsi, *lsi;

  dyn_create_table_dialog_set_table (dialog, table, "customer", DYN_VALUE_S, "orderedAt", DYN_VALUE_N);
  gsi = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_GLOBAL);
  dyn_create_table_index_row_set_name (gsi, "ByRegionStatus");
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi, FALSE, "region", DYN_VALUE_S));
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi, FALSE, "status", DYN_VALUE_S));
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi, TRUE, "total", DYN_VALUE_N));
  dyn_create_table_index_row_set_projection (gsi, DYN_PROJECTION_KEYS_ONLY, NULL);
  lsi = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_LOCAL);
  dyn_create_table_index_row_set_name (lsi, "ByShipDate");
  g_assert_true (dyn_create_table_index_row_add_attribute (lsi, TRUE, "shippedAt", DYN_VALUE_S));
  dyn_create_table_index_row_set_projection (lsi, DYN_PROJECTION_INCLUDE, "items, address");
  dyn_create_table_dialog_set_ttl_attribute (dialog, "expiresAt");
}

static void
wait_table_open (Fixture    *fixture,
                 const char *table)
{
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline && (g_strcmp0 (dyn_window_get_table (fixture->window), table) != 0 ||
                                 dyn_window_get_table_keys (fixture->window) == NULL ||
                                 dyn_window_is_busy (fixture->window));)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  dyn_test_wait_idle (fixture->window);
}

static char *
details_text (Fixture *fixture)
{
  return dyn_table_details_dup_text (dyn_window_get_table_details (fixture->window));
}

static void
show_details (Fixture *fixture)
{
  activate (fixture->window, "win.show-view", g_variant_new_string ("details"));
  dyn_test_wait_idle (fixture->window);
  dyn_test_settle ();
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "details");
}

/* Scrolls the Table page so that the group titled @title is @above pixels
 * below the top. */
static void
scroll_details_to (Fixture    *fixture,
                   const char *title,
                   double      above)
{
  GtkWidget *details = GTK_WIDGET (dyn_window_get_table_details (fixture->window));
  GtkScrolledWindow *scrolled = GTK_SCROLLED_WINDOW (find_type (details, GTK_TYPE_SCROLLED_WINDOW));
  GtkWidget *child = gtk_scrolled_window_get_child (scrolled);
  GtkWidget *group = find_group (details, title);
  graphene_point_t point = GRAPHENE_POINT_INIT (0, 0), out;

  g_assert_nonnull (group);
  dyn_test_settle ();
  g_assert_true (gtk_widget_compute_point (group, child, &point, &out));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scrolled),
                            out.y + gtk_adjustment_get_value (gtk_scrolled_window_get_vadjustment (scrolled)) - above);
  dyn_test_settle ();
}

/* Create Table through the dialog: what it shows is what is created. */
static void
test_create (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Orders");
  DynCreateTableDialog *dialog;
  g_autoptr(JsonNode) shown = NULL;
  g_autoptr(JsonObject) described = NULL;
  g_autofree char *shown_shape = NULL;
  g_autofree char *described_shape = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) ttl = NULL;
  g_autofree char *text = NULL;

  if (fixture->window == NULL)
    return;
  dialog = open_create_dialog (fixture);
  g_assert_false (dyn_create_table_dialog_get_valid (dialog));
  g_assert_false (gtk_widget_is_sensitive (dyn_create_table_dialog_get_create_button (dialog)));
  fill_orders (dialog, table);
  dyn_test_settle ();
  {
    g_autofree char *problems = dyn_create_table_dialog_dup_problems (dialog);
    g_assert_cmpstr (problems, ==, "");
  }
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  g_assert_nonnull (dyn_create_table_dialog_get_json (dialog));
  /* The JSON shown is the admin API's request for the fields. */
  {
    g_autoptr(DynTableSpec) spec = dyn_create_table_dialog_dup_spec (dialog, &error);
    g_autoptr(JsonNode) request = NULL;
    g_autofree char *expected = NULL;

    g_assert_no_error (error);
    request = dyn_table_spec_to_create_json (spec, &error);
    g_assert_no_error (error);
    expected = json_to_string (request, TRUE);
    g_assert_cmpstr (dyn_create_table_dialog_get_json (dialog), ==, expected);
    g_assert_cmpstr (spec->ttl_attribute, ==, "expiresAt");
  }
  shown = json_from_string (dyn_create_table_dialog_get_json (dialog), &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (dyn_create_table_dialog_get_json (dialog), "\"region\""));
  g_assert_nonnull (strstr (dyn_create_table_dialog_get_json (dialog), "\"status\""));
  screenshot (GTK_WINDOW (dialog), "create-table.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  screenshot (GTK_WINDOW (dialog), "create-table-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  click (dyn_create_table_dialog_get_create_button (dialog));
  wait_dialog_closed (fixture->window);
  wait_table_open (fixture, table);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), table));

  /* DescribeTable says what the JSON shown said. */
  described = describe (fixture, table);
  shown_shape = table_shape (json_node_get_object (shown));
  described_shape = table_shape (described);
  g_assert_cmpstr (described_shape, ==, shown_shape);
  g_assert_nonnull (strstr (shown_shape, "ByRegionStatus region/HASH status/HASH total/RANGE KEYS_ONLY"));
  g_assert_nonnull (strstr (shown_shape, "ByShipDate customer/HASH shippedAt/RANGE INCLUDE +address +items"));
  ttl = dyn_test_callf (fixture->client, "DescribeTimeToLive", &error, "{\"TableName\":\"%s\"}", table);
  g_assert_no_error (error);
  {
    JsonObject *d = json_object_get_object_member (json_node_get_object (ttl->root), "TimeToLiveDescription");
    g_assert_cmpstr (json_object_get_string_member (d, "AttributeName"), ==, "expiresAt");
  }

  /* The Table page: keys, both indexes with their keys and projections. */
  show_details (fixture);
  text = details_text (fixture);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "customer (S)"));
  g_assert_nonnull (strstr (text, "orderedAt (N)"));
  g_assert_nonnull (strstr (text, "[ByRegionStatus]"));
  g_assert_nonnull (strstr (text, "region (S), status (S)"));
  g_assert_nonnull (strstr (text, "total (N)"));
  g_assert_nonnull (strstr (text, "KEYS_ONLY"));
  g_assert_nonnull (strstr (text, "[ByShipDate]"));
  g_assert_nonnull (strstr (text, "INCLUDE: "));
  g_assert_nonnull (strstr (text, "expiresAt"));
  g_assert_nonnull (strstr (text, "six hours"));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* Tables unlike the demo's: hash-only with a binary key, provisioned. */
static void
test_create_hash_only_binary (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Blobs");
  DynCreateTableDialog *dialog;
  g_autoptr(JsonObject) described = NULL;
  g_autoptr(JsonNode) shown = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *text = NULL;
  DynCreateTableIndexRow *gsi;

  if (fixture->window == NULL)
    return;
  dialog = open_create_dialog (fixture);
  dyn_create_table_dialog_set_table (dialog, table, "digest", DYN_VALUE_B, NULL, DYN_VALUE_S);
  dyn_create_table_dialog_set_billing (dialog, DYN_BILLING_PROVISIONED, 3, 2);
  gsi = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_GLOBAL);
  dyn_create_table_index_row_set_name (gsi, "BySize");
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi, FALSE, "size", DYN_VALUE_N));
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  g_assert_nonnull (strstr (dyn_create_table_dialog_get_json (dialog), "\"PROVISIONED\""));
  shown = json_from_string (dyn_create_table_dialog_get_json (dialog), &error);
  g_assert_no_error (error);
  click (dyn_create_table_dialog_get_create_button (dialog));
  wait_dialog_closed (fixture->window);
  wait_table_open (fixture, table);
  described = describe (fixture, table);
  a = table_shape (json_node_get_object (shown));
  b = table_shape (described);
  g_assert_cmpstr (b, ==, a);
  {
    JsonObject *throughput = json_object_get_object_member (described, "ProvisionedThroughput");
    g_assert_cmpint (json_object_get_int_member (throughput, "ReadCapacityUnits"), ==, 3);
    g_assert_cmpint (json_object_get_int_member (throughput, "WriteCapacityUnits"), ==, 2);
  }
  show_details (fixture);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "digest (B)"));
  g_assert_null (strstr (text, "Sort key:"));
  g_assert_nonnull (strstr (text, "Provisioned: 3 RCU, 2 WCU"));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* Problems beside their index; Create stays insensitive. */
static void
test_invalid (Fixture       *fixture,
              gconstpointer  data)
{
  DynCreateTableDialog *dialog;
  DynCreateTableIndexRow *lsi, *gsi1, *gsi2;
  g_autofree char *problems = NULL;

  if (fixture->window == NULL)
    return;
  dialog = open_create_dialog (fixture);

  /* An LSI on a table without a sort key. */
  dyn_create_table_dialog_set_table (dialog, "Invalid1", "pk", DYN_VALUE_S, NULL, DYN_VALUE_S);
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  lsi = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_LOCAL);
  dyn_create_table_index_row_set_name (lsi, "ByWhen");
  g_assert_true (dyn_create_table_index_row_add_attribute (lsi, TRUE, "when", DYN_VALUE_N));
  dyn_test_settle ();
  g_assert_false (dyn_create_table_dialog_get_valid (dialog));
  g_assert_false (gtk_widget_is_sensitive (dyn_create_table_dialog_get_create_button (dialog)));
  g_assert_null (dyn_create_table_dialog_get_json (dialog));
  g_assert_nonnull (dyn_create_table_index_row_get_error (lsi));
  g_test_message ("LSI without a sort key: %s", dyn_create_table_index_row_get_error (lsi));
  g_assert_nonnull (strstr (dyn_create_table_index_row_get_error (lsi), "ByWhen"));
  /* With a sort key it is fine. */
  dyn_create_table_dialog_set_table (dialog, "Invalid1", "pk", DYN_VALUE_S, "sk", DYN_VALUE_S);
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  g_assert_null (dyn_create_table_index_row_get_error (lsi));
  dyn_create_table_dialog_remove_index (dialog, lsi);

  /* Two indexes of one name. */
  gsi1 = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_GLOBAL);
  dyn_create_table_index_row_set_name (gsi1, "GSI1");
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi1, FALSE, "a", DYN_VALUE_S));
  gsi2 = dyn_create_table_dialog_add_index (dialog, DYN_INDEX_GLOBAL);
  dyn_create_table_index_row_set_name (gsi2, "GSI1");
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi2, FALSE, "b", DYN_VALUE_S));
  dyn_test_settle ();
  g_assert_false (dyn_create_table_dialog_get_valid (dialog));
  g_assert_false (gtk_widget_is_sensitive (dyn_create_table_dialog_get_create_button (dialog)));
  problems = dyn_create_table_dialog_dup_problems (dialog);
  g_test_message ("duplicate index: %s", problems);
  g_assert_nonnull (strstr (problems, "GSI1"));
  g_assert_true (dyn_create_table_index_row_get_error (gsi1) != NULL || dyn_create_table_index_row_get_error (gsi2) != NULL);
  screenshot (GTK_WINDOW (dialog), "create-table-invalid.png");
  dyn_create_table_index_row_set_name (gsi2, "GSI2");
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  g_assert_true (gtk_widget_is_sensitive (dyn_create_table_dialog_get_create_button (dialog)));

  /* One type per attribute across the keys. */
  g_assert_true (dyn_create_table_index_row_add_attribute (gsi2, TRUE, "sk", DYN_VALUE_N));
  dyn_test_settle ();
  g_assert_false (dyn_create_table_dialog_get_valid (dialog));
  g_clear_pointer (&problems, g_free);
  problems = dyn_create_table_dialog_dup_problems (dialog);
  g_test_message ("two types of sk: %s", problems);
  g_assert_nonnull (strstr (problems, "sk"));

  /* The table class and deletion protection go into the request. */
  dyn_create_table_dialog_remove_index (dialog, gsi2);
  dyn_create_table_dialog_set_infrequent_access (dialog, TRUE);
  dyn_create_table_dialog_set_deletion_protection (dialog, TRUE);
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  g_assert_nonnull (strstr (dyn_create_table_dialog_get_json (dialog), "\"STANDARD_INFREQUENT_ACCESS\""));
  g_assert_nonnull (strstr (dyn_create_table_dialog_get_json (dialog), "\"DeletionProtectionEnabled\" : true"));

  gtk_window_close (GTK_WINDOW (dialog));
  wait_dialog_closed (fixture->window);
}

static void
load_numbered (Fixture    *fixture,
               const char *table,
               guint       n)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  /* Movies-like: a numeric partition key and a string sort key. */
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"year\":{\"N\":\"%u\"},\"title\":{\"S\":\"Film %u\"},"
                                            "\"genre\":{\"S\":\"g%u\"},\"plot\":{\"S\":\"%0200u\"}}",
                                            1950 + i % 60, i, i % 7, i));
  g_assert_true (dyn_test_load_items (fixture->client, table, items, &error));
  g_assert_no_error (error);
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  activate (fixture->window, "win.refresh-tables", NULL);
  dyn_test_wait_idle (fixture->window);
  dyn_window_open_table (fixture->window, table);
  wait_table_open (fixture, table);
}

static guint64
scan_count (Fixture    *fixture,
            const char *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fixture->client, "Scan", &error,
                                                    "{\"TableName\":\"%s\",\"Select\":\"COUNT\"}", table);

  g_assert_no_error (error);
  return json_object_get_int_member (json_node_get_object (response->root), "Count");
}

/* The exact count: its cost first, then the count, when and what it cost;
 * then Add Index shown until ACTIVE, and Delete Index. */
static void
test_count_and_indexes (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Movies");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GtkWindow *dialog;
  DynCreateTableIndexRow *row;
  gboolean saw_status = FALSE;

  if (fixture->window == NULL)
    return;
  g_assert_true (dyn_test_create_table (fixture->client, table, "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  load_numbered (fixture, table, 321);
  open_table (fixture, table);
  show_details (fixture);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "year (N)"));
  g_assert_nonnull (strstr (text, "title (S)"));
  /* The cost is stated before it runs. */
  g_assert_nonnull (strstr (text, "Select=COUNT scan of the whole table: about"));
  g_assert_null (strstr (text, "Exact count:"));
  activate (fixture->window, "win.count-exactly", NULL);
  dyn_test_wait_idle (fixture->window);
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Exact count: 321 items"));
  g_assert_nonnull (strstr (text, "counted at "));
  g_assert_nonnull (strstr (text, " RCU in "));

  /* Add Index: the GSI row of the Create Table dialog. */
  activate (fixture->window, "win.add-gsi", NULL);
  dyn_test_settle ();
  dialog = dyn_window_get_table_dialog (fixture->window);
  g_assert_nonnull (dialog);
  row = DYN_CREATE_TABLE_INDEX_ROW (find_type (GTK_WIDGET (dialog), DYN_TYPE_CREATE_TABLE_INDEX_ROW));
  g_assert_false (gtk_widget_is_sensitive (find_button (GTK_WIDGET (dialog), "_Add Index")));
  dyn_create_table_index_row_set_name (row, "ByGenre");
  g_assert_true (dyn_create_table_index_row_add_attribute (row, FALSE, "genre", DYN_VALUE_S));
  g_assert_true (dyn_create_table_index_row_add_attribute (row, TRUE, "year", DYN_VALUE_N));
  dyn_test_settle ();
  g_assert_null (dyn_create_table_index_row_get_error (row));
  screenshot (dialog, "add-index.png");
  click (find_button (GTK_WIDGET (dialog), "_Add Index"));
  /* While DynamoDB builds it, the page says so. */
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline && dyn_window_is_busy (fixture->window);)
    {
      g_autofree char *now = details_text (fixture);

      if (strstr (now, "[Adding index ByGenre]") != NULL)
        saw_status = TRUE;
      dyn_test_iterate ();
      g_usleep (10000);
    }
  g_assert_true (saw_status);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_table_dialog (fixture->window));
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "[ByGenre]"));
  g_assert_nonnull (strstr (text, "genre (S)"));
  g_assert_nonnull (strstr (text, "Status: ACTIVE"));
  {
    g_autoptr(JsonObject) described = describe (fixture, table);
    g_autofree char *shape = table_shape (described);
    g_assert_nonnull (strstr (shape, "ByGenre genre/HASH year/RANGE ALL"));
  }
  /* The approximate and the exact count, then the indexes. */
  scroll_details_to (fixture, "Secondary Indexes", 330);
  screenshot (GTK_WINDOW (fixture->window), "table-details.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  screenshot (GTK_WINDOW (fixture->window), "table-details-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  /* Delete Index, after a confirmation. */
  activate (fixture->window, "win.delete-gsi", g_variant_new_string ("ByGenre"));
  dyn_test_settle ();
  dialog = dyn_window_get_table_dialog (fixture->window);
  g_assert_true (ADW_IS_MESSAGE_DIALOG (dialog));
  respond (ADW_MESSAGE_DIALOG (dialog), "delete");
  wait_dialog_closed (fixture->window);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  {
    g_autoptr(JsonObject) described = describe (fixture, table);
    g_autofree char *shape = table_shape (described);
    g_assert_null (strstr (shape, "ByGenre"));
  }
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_assert_null (strstr (text, "[ByGenre]"));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* Cancel stops an exact count: no count is shown, the next one runs. */
static void
test_count_cancel (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Counted");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  if (fixture->window == NULL)
    return;
  g_assert_true (dyn_test_create_table (fixture->client, table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  open_table (fixture, table);
  show_details (fixture);
  activate (fixture->window, "win.count-exactly", NULL);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "[Counting exactly]"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.cancel-table-job", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_assert_null (strstr (text, "[Counting exactly]"));
  g_assert_null (strstr (text, "Exact count:"));
  /* The next count runs to its end: an empty table has 0 items. */
  activate (fixture->window, "win.count-exactly", NULL);
  dyn_test_wait_idle (fixture->window);
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "Exact count: 0 items"));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

static char *
ttl_status (Fixture    *fixture,
            const char *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fixture->client, "DescribeTimeToLive", &error,
                                                    "{\"TableName\":\"%s\"}", table);
  JsonObject *d;

  g_assert_no_error (error);
  d = json_object_get_object_member (json_node_get_object (response->root), "TimeToLiveDescription");
  return g_strdup (json_object_get_string_member (d, "TimeToLiveStatus"));
}

static void
test_ttl (Fixture       *fixture,
          gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Sessions");
  g_autofree char *text = NULL;
  g_autofree char *status = NULL;
  g_autoptr(GError) error = NULL;

  if (fixture->window == NULL)
    return;
  g_assert_true (dyn_test_create_table (fixture->client, table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  open_table (fixture, table);
  show_details (fixture);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "[Time to Live]\n"));
  g_assert_nonnull (strstr (text, "Status: DISABLED"));
  dyn_table_details_set_ttl_entry (dyn_window_get_table_details (fixture->window), "expiresAt");
  activate (fixture->window, "win.enable-ttl", NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  status = ttl_status (fixture, table);
  g_assert_cmpstr (status, ==, "ENABLED");
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "Status: ENABLED (expiresAt)"));

  activate (fixture->window, "win.disable-ttl", NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  g_clear_pointer (&status, g_free);
  status = ttl_status (fixture, table);
  g_assert_cmpstr (status, ==, "DISABLED");
  g_clear_pointer (&text, g_free);
  text = details_text (fixture);
  g_assert_nonnull (strstr (text, "Status: DISABLED"));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* Truncate: the cost first, a rate limit, then an empty table. */
static void
test_truncate (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Truncated");
  g_autoptr(GError) error = NULL;
  GtkWindow *dialog;
  GtkWidget *rate;

  if (fixture->window == NULL)
    return;
  g_assert_true (dyn_test_create_table (fixture->client, table, "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  load_numbered (fixture, table, 140);
  g_assert_cmpuint (scan_count (fixture, table), ==, 140);
  open_table (fixture, table);
  show_details (fixture);
  activate (fixture->window, "win.truncate-table", NULL);
  dyn_test_settle ();
  dialog = dyn_window_get_table_dialog (fixture->window);
  g_assert_true (ADW_IS_MESSAGE_DIALOG (dialog));
  g_test_message ("%s", adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), " RCU "));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), " WCU "));
  rate = find_type (GTK_WIDGET (dialog), GTK_TYPE_SPIN_BUTTON);
  g_assert_nonnull (rate);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (rate), 500);
  respond (ADW_MESSAGE_DIALOG (dialog), "truncate");
  wait_dialog_closed (fixture->window);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  g_assert_cmpuint (scan_count (fixture, table), ==, 0);
  /* The items page was read again: empty. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (dyn_window_get_model (fixture->window))), ==, 0);
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* Delete Table only once its name is typed exactly. */
static void
test_delete (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Doomed");
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = NULL;
  GtkWindow *dialog;
  AdwMessageDialog *message;
  GtkEditable *entry;
  g_autofree char *upper = NULL;

  if (fixture->window == NULL)
    return;
  g_assert_true (dyn_test_create_table (fixture->client, table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  open_table (fixture, table);
  show_details (fixture);
  activate (fixture->window, "win.delete-table", NULL);
  dyn_test_settle ();
  dialog = dyn_window_get_table_dialog (fixture->window);
  g_assert_true (ADW_IS_MESSAGE_DIALOG (dialog));
  message = ADW_MESSAGE_DIALOG (dialog);
  entry = GTK_EDITABLE (adw_message_dialog_get_extra_child (message));
  g_assert_false (adw_message_dialog_get_response_enabled (message, "delete"));
  upper = g_ascii_strup (table, -1);
  gtk_editable_set_text (entry, upper);
  g_assert_false (adw_message_dialog_get_response_enabled (message, "delete"));
  {
    g_autofree char *spaced = g_strdup_printf ("%s ", table);
    gtk_editable_set_text (entry, spaced);
    g_assert_false (adw_message_dialog_get_response_enabled (message, "delete"));
  }
  gtk_editable_set_text (entry, table);
  g_assert_true (adw_message_dialog_get_response_enabled (message, "delete"));
  screenshot (GTK_WINDOW (dialog), "delete-table.png");
  respond (message, "delete");
  wait_dialog_closed (fixture->window);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_error_text (fixture->window), ==, NULL);
  tables = dyn_test_list_tables (fixture->client, &error);
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char * const *) tables, table));
  /* The sidebar's list lost it. */
  g_assert_false (g_strv_contains (dyn_window_get_tables (fixture->window), table));
}

/* Cancel on the Create Table dialog creates nothing. */
static void
test_create_cancel (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *table = dyn_test_table_name ("Never");
  DynCreateTableDialog *dialog;
  g_auto(GStrv) tables = NULL;
  g_autoptr(GError) error = NULL;

  if (fixture->window == NULL)
    return;
  dialog = open_create_dialog (fixture);
  fill_orders (dialog, table);
  dyn_test_settle ();
  g_assert_true (dyn_create_table_dialog_get_valid (dialog));
  click (find_button (GTK_WIDGET (dialog), "_Cancel"));
  wait_dialog_closed (fixture->window);
  dyn_test_wait_idle (fixture->window);
  tables = dyn_test_list_tables (fixture->client, &error);
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char * const *) tables, table));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-tables");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-tables/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("create", test_create);
  ADD ("create-hash-only-binary", test_create_hash_only_binary);
  ADD ("create-cancel", test_create_cancel);
  ADD ("invalid", test_invalid);
  ADD ("count-and-indexes", test_count_and_indexes);
  ADD ("count-cancel", test_count_cancel);
  ADD ("ttl", test_ttl);
  ADD ("truncate", test_truncate);
  ADD ("delete", test_delete);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
