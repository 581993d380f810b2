/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-multikey"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* A table with a multi-attribute global secondary index (DynamoDB, November
 * 2025) in the main window, under Xvfb against DynamoDB Local: a Query on the
 * index, whose plan names every key attribute; the whole index grouped by
 * both partition attributes; a key link clicked in a row, which fills in
 * every partition attribute (and the sort attributes up to a sort link) from
 * that row; an edit of an index key attribute, which moves the item to
 * another collection of the index. Screenshots go to the build directory
 * (or DYN_SCREENSHOT_DIR). */

static DynApplication *app;
static char *tmp_dir;

/* pk, tenant, site (NULL: none), kind, seq */
static const char *orders[][5] = {
  { "o1", "acme", "1", "order", "10" },
  { "o2", "acme", "1", "order", "9" },
  { "o3", "acme", "1", "invoice", "1" },
  { "o4", "acme", "2", "order", "1" },
  { "o5", "globex", "1", "order", "3" },
  { "o6", "acme", NULL, "order", "4" },   /* not in the index */
};

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
  static const char * const gsis[] = { "ByTenant:tenant:S+site:N:kind:S+seq:N", NULL };
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(DynConnection) connection = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("Orders");
  g_assert_true (dyn_test_create_table (fixture->other, fixture->table, "pk:S", "sk:S", gsis, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      g_autoptr(GString) json = g_string_new (NULL);

      g_string_append_printf (json, "{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"line\"},\"tenant\":{\"S\":\"%s\"},"
                              "\"kind\":{\"S\":\"%s\"},\"seq\":{\"N\":\"%s\"},\"amount\":{\"N\":\"%u.50\"}",
                              orders[i][0], orders[i][1], orders[i][3], orders[i][4], 10 * (i + 1));
      if (orders[i][2] != NULL)
        g_string_append_printf (json, ",\"site\":{\"N\":\"%s\"}", orders[i][2]);
      g_string_append (json, "}");
      g_ptr_array_add (items, dyn_test_item (json->str));
    }
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

/* Runs @text in the builder on @index (NULL: the table), as Run does. */
static void
run (Fixture    *fixture,
     const char *index,
     const char *text)
{
  DynExpressionBuilder *builder = dyn_window_get_builder (fixture->window);

  dyn_expression_builder_set_index (builder, index);
  dyn_expression_builder_set_text (builder, text);
  dyn_test_iterate ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.query", NULL));
  dyn_test_wait_idle (fixture->window);
  settle ();
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

/* The pk of each item of the collection titled @title, joined by spaces;
 * NULL when there is none. */
static char *
collection_pks (Fixture    *fixture,
                const char *title)
{
  DynCollectionModel *model = dyn_window_get_model (fixture->window);

  for (guint c = 0; c < dyn_collection_model_get_n_collections (model); c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);
      GString *out;

      if (g_strcmp0 (dyn_collection_get_title (coll), title) != 0)
        continue;
      out = g_string_new (NULL);
      for (guint i = 0; i < dyn_collection_get_n_items (coll); i++)
        g_string_append_printf (out, "%s%s", i ? " " : "",
                                dyn_test_item_get_string (dyn_item_object_get_item (dyn_collection_peek_item (coll, i)),
                                                          "pk"));
      return g_string_free (out, FALSE);
    }
  return NULL;
}

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  if (GTK_IS_INSCRIPTION (widget) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Scrolls the builder so that the label showing @text is in view. */
static void
scroll_to_label (GtkWidget  *root,
                 const char *text)
{
  GtkWidget *label = find_label (root, text);
  GtkWidget *scrolled = label ? gtk_widget_get_ancestor (label, GTK_TYPE_SCROLLED_WINDOW) : NULL;
  GtkAdjustment *adj;

  g_assert_nonnull (scrolled);
  settle ();
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  settle ();
}

/* The mapped link button of @attribute whose cell shows @text. */
static GtkWidget *
find_link (GtkWidget  *widget,
           const char *attribute,
           const char *text)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_has_css_class (widget, "dyn-link") && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (g_object_get_data (G_OBJECT (widget), "dyn-attribute"), attribute) == 0 &&
      shows_label (widget, text))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_link (child, attribute, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The link of @attribute in the row of @pk, found by its row's other cells:
 * the rows are collections' children, each link button's data names its
 * attribute; the one whose row item has @pk. */
static GtkWidget *
find_row_link (GtkWidget  *widget,
               const char *attribute,
               const char *pk)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_has_css_class (widget, "dyn-link") && gtk_widget_get_mapped (widget) &&
      g_strcmp0 (g_object_get_data (G_OBJECT (widget), "dyn-attribute"), attribute) == 0)
    {
      DynValue *item = g_object_get_data (G_OBJECT (widget), "dyn-item");

      if (item != NULL && g_strcmp0 (dyn_test_item_get_string (item, "pk"), pk) == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_row_link (child, attribute, pk);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Query, group, follow, edit. */
static void
test_read_group_follow_edit (Fixture       *fixture,
                             gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynExpressionBuilder *builder;
  DynCollectionModel *model;
  const DynRequest *request;
  const DynExprPlan *plan;
  g_autofree char *pks = NULL;
  g_autofree char *text = NULL;

  if (window == NULL)
    return;
  builder = dyn_window_get_builder (window);

  /* A Query on the index: both partition attributes, kind then seq. */
  run (fixture, "ByTenant", "seq > 5 AND kind = \"order\" AND site = 1 AND tenant = \"acme\"");
  request = dyn_window_get_request (window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpstr (request->index, ==, "ByTenant");
  g_assert_cmpstr (request->key_condition, ==, "#t = :t AND #s = :s AND #k = :k AND #s2 > :s2");
  g_assert_null (request->filter);
  plan = dyn_read_request_get_plan (dyn_window_get_read_request (window));
  g_assert_cmpstr (plan->reason, ==, "Query on index ByTenant: partition key tenant = \"acme\" AND site = 1, "
                                     "sort key kind = \"order\" AND seq > 5");
  g_assert_cmpstr (dyn_expression_builder_get_plan (builder), ==,
                   "Query on index ByTenant · Query on index ByTenant: partition key tenant = \"acme\" AND "
                   "site = 1, sort key kind = \"order\" AND seq > 5");
  g_assert_true (shows_label (GTK_WIDGET (builder), plan->reason));
  model = dyn_window_get_model (window);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  pks = collection_pks (fixture, "acme · 1");
  g_assert_cmpstr (pks, ==, "o2 o1");
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Query"));
  /* The plan, under the builder's rows. */
  scroll_to_label (GTK_WIDGET (builder), plan->reason);
  screenshot (fixture, "multikey-query.png");

  /* The whole index: one collection per tenant and site, in DynamoDB's
   * order of kind and seq; o6 has no site and is not in the index. */
  run (fixture, "ByTenant", "");
  request = dyn_window_get_request (window);
  g_assert_cmpint (request->op, ==, DYN_OP_SCAN);
  model = dyn_window_get_model (window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 5);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 3);
  g_clear_pointer (&pks, g_free);
  pks = collection_pks (fixture, "acme · 1");
  g_assert_cmpstr (pks, ==, "o3 o2 o1");
  g_clear_pointer (&pks, g_free);
  pks = collection_pks (fixture, "acme · 2");
  g_assert_cmpstr (pks, ==, "o4");
  g_clear_pointer (&pks, g_free);
  pks = collection_pks (fixture, "globex · 1");
  g_assert_cmpstr (pks, ==, "o5");
  /* The grid shows the collections by both values, rows both sort values,
   * each in its column once (issue 11: the Item column no longer repeats
   * them as "order · 10"). */
  g_assert_true (shows_label (GTK_WIDGET (dyn_window_get_grid (window)), "acme · 1"));
  g_assert_false (shows_label (GTK_WIDGET (dyn_window_get_grid (window)), "order · 10"));
  {
    g_autoptr(DynValue) key = dyn_test_item ("{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"line\"}}");
    DynItemObject *o1 = dyn_collection_model_lookup (model, key);
    g_autofree char *kind = dyn_item_grid_dup_cell_text (dyn_window_get_grid (window), o1, "kind");
    g_autofree char *seq = dyn_item_grid_dup_cell_text (dyn_window_get_grid (window), o1, "seq");

    g_assert_cmpstr (kind, ==, "order");
    g_assert_cmpstr (seq, ==, "10");
  }
  screenshot (fixture, "multikey-grouped.png");

  /* A click on globex's key in its group header (grouped, the header shows
   * the partition attributes instead of the rows' tenant and site links):
   * both partition attributes from the collection. */
  {
    GtkWidget *link = find_link (GTK_WIDGET (dyn_window_get_grid (window)), "tenant", "globex · 1");

    g_assert_nonnull (link);
    g_signal_emit_by_name (link, "clicked");
    dyn_test_wait_idle (window);
    settle ();
  }
  g_assert_null (dyn_window_get_error_text (window));
  request = dyn_window_get_request (window);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpstr (request->index, ==, "ByTenant");
  g_assert_cmpstr (request->key_condition, ==, "#t = :t AND #s = :s");
  g_clear_pointer (&text, g_free);
  text = dyn_expression_builder_dup_text (builder);
  g_assert_cmpstr (text, ==, "tenant = \"globex\" AND site = 1");
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (window)), ==, 1);

  /* A sort link, kind (not the last sort attribute): the partition attributes
   * and kind, from acme's row o2. */
  run (fixture, "ByTenant", "");
  {
    GtkWidget *link = find_row_link (GTK_WIDGET (dyn_window_get_grid (window)), "kind", "o2");

    g_assert_nonnull (link);
    g_assert_null (find_link (GTK_WIDGET (dyn_window_get_grid (window)), "seq", "10"));   /* the last: no link */
    g_signal_emit_by_name (link, "clicked");
    dyn_test_wait_idle (window);
    settle ();
  }
  request = dyn_window_get_request (window);
  g_assert_cmpstr (request->key_condition, ==, "#t = :t AND #s = :s AND #k = :k");
  g_clear_pointer (&text, g_free);
  text = dyn_expression_builder_dup_text (builder);
  g_assert_cmpstr (text, ==, "tenant = \"acme\" AND site = 1 AND kind = \"order\"");
  g_clear_pointer (&pks, g_free);
  pks = collection_pks (fixture, "acme · 1");
  g_assert_cmpstr (pks, ==, "o2 o1");
  screenshot (fixture, "multikey-followed.png");

  /* An edit of an index key attribute, on the table: o4 moves to site 1. */
  run (fixture, NULL, "pk = \"o4\" AND sk = \"line\"");
  g_assert_cmpint (dyn_window_get_request (window)->op, ==, DYN_OP_QUERY);
  g_assert_null (dyn_window_get_request (window)->index);
  {
    DynItemGrid *grid = dyn_window_get_grid (window);
    DynEditSession *session = dyn_window_get_edit_session (window);
    g_autoptr(DynValue) key = dyn_test_item ("{\"pk\":{\"S\":\"o4\"},\"sk\":{\"S\":\"line\"}}");
    DynItemObject *row = dyn_collection_model_lookup (dyn_window_get_model (window), key);
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) stored = NULL;
    g_autofree char *guard = NULL;
    GtkEditable *entry;

    g_assert_nonnull (row);
    dyn_item_grid_select_item (grid, row, TRUE);
    settle ();
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "site"));
    entry = dyn_item_grid_get_cell_editor (grid);
    g_assert_nonnull (entry);
    gtk_editable_set_text (entry, "1");
    g_signal_emit_by_name (entry, "activate");
    settle ();
    g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
    guard = dyn_edit_session_describe_guard (session, 0, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: site is still 2");

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-changes", NULL));
    settle ();
    g_assert_true (shows_label (GTK_WIDGET (dyn_window_get_staged_changes (window)), guard));
    screenshot (fixture, "multikey-staged.png");

    /* An empty string where the index needs a key value: refused when
     * staged, the index named. */
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "kind"));
    entry = dyn_item_grid_get_cell_editor (grid);
    g_assert_nonnull (entry);
    gtk_editable_set_text (entry, "");
    g_signal_emit_by_name (entry, "activate");
    settle ();
    g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
    g_assert_nonnull (dyn_window_get_error_text (window));
    g_assert_nonnull (strstr (dyn_window_get_error_text (window),
                              "kind is a key attribute of index ByTenant: it must not be empty"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.dismiss-error", NULL));

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.commit-changes", NULL));
    dyn_test_wait_idle (window);
    g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
    stored = dyn_test_callf (fixture->other, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"ConsistentRead\":true,"
                             "\"Key\":{\"pk\":{\"S\":\"o4\"},\"sk\":{\"S\":\"line\"}}}", fixture->table);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_test_item_get_number (stored->item, "site"), ==, "1");
  }
  /* Read from the index again: o4 is with acme's site 1 now, first by kind. */
  run (fixture, "ByTenant", "tenant = \"acme\" AND site = 1");
  g_clear_pointer (&pks, g_free);
  pks = collection_pks (fixture, "acme · 1");
  g_assert_cmpstr (pks, ==, "o3 o4 o2 o1");
  g_assert_null (collection_pks (fixture, "acme · 2"));
  screenshot (fixture, "multikey-after-edit.png");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-multikey");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add ("/dyn/window-multikey/read-group-follow-edit", Fixture, NULL, fixture_set_up,
              test_read_group_follow_edit, fixture_tear_down);

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
