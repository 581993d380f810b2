/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-fit"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The grid fits the table (issue 11), in the real window under Xvfb against
 * DynamoDB Local, on tables unlike the demo data that the test creates:
 *
 * - a table without a sort key is a plain list, grouping on or off; a
 *   hash-only index groups only a key that holds several items;
 * - entity labels come from a discriminator attribute (EntityType), from a
 *   key prefix many items share (PROJ#…), or are not shown (a movies table
 *   keyed by year and title); they follow the rule as pages arrive;
 * - each fact once: the Item column shows no key, the partition key is in
 *   the group header only, a discriminator in the label only;
 * - a collection cut by a page boundary says "2+ items (more not loaded)"
 *   until the rest arrives; a long group header has the whole key as its
 *   tooltip;
 * - cells mark binary with a preview, show huge numbers exactly and
 *   readably, and tell an empty string or binary from a missing attribute.
 *
 * The assertions read what the window shows (its rows, labels, cells and
 * columns), not the model's own account of it. */

static DynApplication *app;
static char *tmp_dir;
static char *products, *catalog, *shop, *movies, *single, *events, *long_keys, *values;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
} Fixture;

static void
activate (DynWindow  *window,
          const char *action,
          GVariant   *parameter)
{
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter));
}

static void
load (DynClient  *client,
      const char *table,
      const char *lines)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_auto(GStrv) split = g_strsplit (lines, "\n", -1);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; split[i] != NULL; i++)
    if (*split[i] != '\0')
      g_ptr_array_add (items, dyn_test_plain_item (split[i]));
  g_assert_true (dyn_test_load_items (client, table, items, &error));
  g_assert_no_error (error);
}

static void
create (DynClient          *client,
        char              **name,
        const char         *base,
        const char         *pk,
        const char         *sk,
        const char * const *gsis)
{
  g_autoptr(GError) error = NULL;

  *name = dyn_test_table_name (base);
  g_assert_true (dyn_test_create_table (client, *name, pk, sk, gsis, &error));
  g_assert_no_error (error);
}

static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  const char *by_category[] = { "byCategory:category:S", NULL };

  if (server == NULL)
    return FALSE;
  if (products != NULL)
    return TRUE;
  client = dyn_test_client_new (server);

  /* A product catalogue without a sort key. */
  create (client, &products, "products", "id:S", NULL, NULL);
  load (client, products,
        "{\"id\": \"P-1001\", \"name\": \"Linen shirt\", \"price\": 49.90}\n"
        "{\"id\": \"P-1002\", \"name\": \"Rain jacket\", \"price\": 129}\n"
        "{\"id\": \"P-1003\", \"name\": \"Wool socks\", \"price\": 12.5}\n"
        "{\"id\": \"P-1004\", \"name\": \"Desk lamp\", \"price\": 35}\n"
        "{\"id\": \"P-1005\", \"name\": \"Yoga mat\", \"price\": 25}\n");
  /* The same without a sort key, and an index by category (hash-only). */
  create (client, &catalog, "catalog", "id:S", NULL, by_category);
  load (client, catalog,
        "{\"id\": \"b1\", \"category\": \"book\"}\n"
        "{\"id\": \"b2\", \"category\": \"book\"}\n"
        "{\"id\": \"b3\", \"category\": \"book\"}\n"
        "{\"id\": \"t1\", \"category\": \"toy\"}\n"
        "{\"id\": \"x1\"}\n");
  /* Customers and orders under generic keys, told apart by EntityType. */
  create (client, &shop, "shop", "PK:S", "SK:S", NULL);
  load (client, shop,
        "{\"PK\": \"c1\", \"SK\": \"c1\", \"EntityType\": \"customer\", \"Name\": \"Ayşe\"}\n"
        "{\"PK\": \"c1\", \"SK\": \"o1\", \"EntityType\": \"order\", \"Total\": 12}\n"
        "{\"PK\": \"c1\", \"SK\": \"o2\", \"EntityType\": \"order\", \"Total\": 30}\n"
        "{\"PK\": \"c2\", \"SK\": \"c2\", \"EntityType\": \"customer\", \"Name\": \"Jonas\"}\n"
        "{\"PK\": \"c2\", \"SK\": \"o3\", \"EntityType\": \"order\", \"Total\": 8}\n");
  /* Movies keyed by year (N) and title (S). */
  create (client, &movies, "movies", "year:N", "title:S", NULL);
  load (client, movies,
        "{\"year\": 2013, \"title\": \"Rush\", \"info\": {\"rating\": 8.1}}\n"
        "{\"year\": 2013, \"title\": \"Gravity\", \"info\": {\"rating\": 7.7}}\n"
        "{\"year\": 2013, \"title\": \"Her\", \"info\": {\"rating\": 8.0}}\n"
        "{\"year\": 2014, \"title\": \"Interstellar\", \"info\": {\"rating\": 8.7}}\n"
        "{\"year\": 2014, \"title\": \"Star Wars: Rebels\", \"info\": {\"rating\": 7.9}}\n");
  /* The seeds' single-table design: prefixes on the sort key. */
  create (client, &single, "single", "PK:S", "SK:S", NULL);
  load (client, single,
        "{\"PK\": \"WS#acme\", \"SK\": \"META\", \"Name\": \"Acme\"}\n"
        "{\"PK\": \"WS#acme\", \"SK\": \"PROJ#0001\", \"Name\": \"One\"}\n"
        "{\"PK\": \"WS#acme\", \"SK\": \"PROJ#0002\", \"Name\": \"Two\"}\n"
        "{\"PK\": \"WS#globex\", \"SK\": \"META\", \"Name\": \"Globex\"}\n"
        "{\"PK\": \"WS#globex\", \"SK\": \"PROJ#0003\", \"Name\": \"Three\"}\n");
  /* Two collections, for a page boundary to cut. */
  create (client, &events, "events", "PK:S", "SK:S", NULL);
  load (client, events,
        "{\"PK\": \"e#853\", \"SK\": \"1\"}\n{\"PK\": \"e#853\", \"SK\": \"2\"}\n{\"PK\": \"e#853\", \"SK\": \"3\"}\n"
        "{\"PK\": \"e#854\", \"SK\": \"1\"}\n{\"PK\": \"e#854\", \"SK\": \"2\"}\n{\"PK\": \"e#854\", \"SK\": \"3\"}\n"
        "{\"PK\": \"e#854\", \"SK\": \"4\"}\n");
  /* Partition keys too long for the Item column, alike but for their end. */
  create (client, &long_keys, "long", "PK:S", "SK:S", NULL);
  {
    g_autofree char *stem = g_strnfill (150, 'k');
    g_autofree char *lines = g_strdup_printf ("{\"PK\": \"tenant-%s-0041\", \"SK\": \"a\"}\n"
                                              "{\"PK\": \"tenant-%s-0042\", \"SK\": \"a\"}\n", stem, stem);
    load (client, long_keys, lines);
  }
  /* Values a reader must tell apart. */
  create (client, &values, "values", "id:S", NULL, NULL);
  load (client, values,
        "{\"id\": \"a\", \"text\": {\"$binary\": \"aGVsbG8=\"}, \"bytes\": {\"$binary\": \"AAECAwQ=\"},"
        " \"empty\": \"\", \"nothing\": {\"$binary\": \"\"},"
        " \"big\": {\"$number\": \"12345678901234567890.123456789012345678\"}, \"tiny\": {\"$number\": \"1E-130\"},"
        " \"count\": 1234567}\n"
        "{\"id\": \"b\", \"count\": 7}\n");
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

/* Opens @table: a Scan of it, its first page. */
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
  /* The rows are drawn. */
  for (guint i = 0; i < 5; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  dyn_test_iterate ();
}

static void
run_text (Fixture    *fixture,
          const char *index,
          const char *text)
{
  DynExpressionBuilder *builder = dyn_window_get_builder (fixture->window);

  dyn_expression_builder_set_index (builder, index);
  dyn_expression_builder_set_text (builder, text);
  activate (fixture->window, "win.query", NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  for (guint i = 0; i < 5; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
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
  /* Whole tables in the first page, unless a test says otherwise. */
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

/* What the grid shows. --------------------------------------------------- */

static DynItemGrid *
grid_of (Fixture *fixture)
{
  return dyn_window_get_grid (fixture->window);
}

/* The rows as shown: how many, and how many are collection headers. */
static guint
count_rows (Fixture *fixture,
            guint   *n_headers)
{
  GListModel *rows = dyn_item_grid_get_rows (grid_of (fixture));
  guint n = g_list_model_get_n_items (rows);

  *n_headers = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (rows, i);

      if (DYN_IS_COLLECTION (object))
        (*n_headers)++;
      else
        g_assert_true (DYN_IS_ITEM_OBJECT (object));
    }
  return n;
}

/* The Item column's cell of each shown row. */
static void
collect_expanders (GtkWidget *widget,
                   GPtrArray *out)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (g_object_get_data (G_OBJECT (widget), "dyn-expander") != NULL &&
      gtk_list_item_get_item (g_object_get_data (G_OBJECT (widget), "dyn-list-item")) != NULL)
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_expanders (child, out);
}

static gpointer
expander_object (GtkWidget *expander)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (expander), "dyn-list-item");

  return gtk_list_item_get_item (list_item);
}

/* The Item column's cell showing @object, or NULL. */
static GtkWidget *
expander_for (Fixture  *fixture,
              gpointer  object)
{
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();

  collect_expanders (GTK_WIDGET (grid_of (fixture)), expanders);
  for (guint i = 0; i < expanders->len; i++)
    if (expander_object (expanders->pdata[i]) == object)
      return expanders->pdata[i];
  return NULL;
}

/* The text of the visible labels and inscriptions under @widget, joined by
 * "|"; those with @css_class only when given. */
static void
collect_text (GtkWidget  *widget,
              const char *css_class,
              GString    *out)
{
  const char *text = NULL;

  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    text = gtk_label_get_text (GTK_LABEL (widget));
  else if (GTK_IS_INSCRIPTION (widget))
    text = gtk_inscription_get_text (GTK_INSCRIPTION (widget));
  if (text != NULL && *text != '\0' && (css_class == NULL || gtk_widget_has_css_class (widget, css_class)))
    {
      if (out->len > 0)
        g_string_append_c (out, '|');
      g_string_append (out, text);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_text (child, css_class, out);
}

static char *
text_under (GtkWidget  *widget,
            const char *css_class)
{
  GString *out = g_string_new (NULL);

  collect_text (widget, css_class, out);
  return g_string_free (out, FALSE);
}

/* The entity label shown before @item's row ("" for none). */
static char *
entity_label (Fixture       *fixture,
              DynItemObject *item)
{
  GtkWidget *expander = expander_for (fixture, item);

  g_assert_nonnull (expander);
  return text_under (expander, "dyn-entity-type");
}

/* Every item row shown: its entity label, in order, joined by spaces ("-"
 * for none). */
static char *
shown_labels (Fixture *fixture)
{
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();
  GString *out = g_string_new (NULL);
  guint n = 0;

  collect_expanders (GTK_WIDGET (grid_of (fixture)), expanders);
  for (guint i = 0; i < expanders->len; i++)
    {
      g_autofree char *label = NULL;

      if (!DYN_IS_ITEM_OBJECT (expander_object (expanders->pdata[i])))
        continue;
      label = text_under (expanders->pdata[i], "dyn-entity-type");
      if (n++ > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, *label ? label : "-");
    }
  return g_string_free (out, FALSE);
}

static DynItemObject *
lookup (Fixture    *fixture,
        const char *plain_key)
{
  g_autoptr(DynValue) key = dyn_test_plain_item (plain_key);
  DynItemObject *row = dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);

  g_assert_nonnull (row);
  return row;
}

static char *
cell (Fixture       *fixture,
      DynItemObject *row,
      const char    *attribute)
{
  return dyn_item_grid_dup_cell_text (grid_of (fixture), row, attribute);
}

/* The inscription of a shown cell reading @text. */
static GtkWidget *
find_inscription (GtkWidget  *widget,
                  const char *text)
{
  if (!gtk_widget_get_mapped (widget))
    return NULL;
  if (GTK_IS_INSCRIPTION (widget) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_inscription (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The tests. ------------------------------------------------------------- */

/* No sort key, no item collections: a plain list, whatever the grouping
 * setting says; a hash-only index groups a key with several items only. */
static void
test_hash_only (Fixture       *fixture,
                gconstpointer  data)
{
  DynItemGrid *grid;
  guint n_headers, n;

  if (!ensure_tables ())
    return;
  open_table (fixture, products);
  grid = grid_of (fixture);
  g_assert_true (dyn_item_grid_get_grouped (grid));
  n = count_rows (fixture, &n_headers);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (n_headers, ==, 0);
  g_assert_null (strstr (dyn_window_get_status_text (fixture->window), "collection"));
  /* The key is shown once, in its column. */
  g_assert_true (dyn_item_grid_get_column_visible (grid, "id"));
  {
    g_autofree char *id = cell (fixture, lookup (fixture, "{\"id\": \"P-1003\"}"), "id");
    g_assert_cmpstr (id, ==, "P-1003");
  }

  /* Flat and back: the same plain list. */
  activate (fixture->window, "win.toggle-grouping", NULL);
  g_assert_false (dyn_item_grid_get_grouped (grid));
  g_assert_cmpuint (count_rows (fixture, &n_headers), ==, 5);
  activate (fixture->window, "win.toggle-grouping", NULL);
  g_assert_true (dyn_item_grid_get_grouped (grid));
  g_assert_cmpuint (count_rows (fixture, &n_headers), ==, 5);
  g_assert_cmpuint (n_headers, ==, 0);

  /* A hash-only index: three books share their key, a group; one toy is
   * a row of its own. */
  open_table (fixture, catalog);
  g_assert_cmpuint (count_rows (fixture, &n_headers), ==, 5);
  g_assert_cmpuint (n_headers, ==, 0);
  run_text (fixture, "byCategory", "category = \"book\"");
  g_assert_cmpuint (count_rows (fixture, &n_headers), ==, 1 + 3);
  g_assert_cmpuint (n_headers, ==, 1);
  g_assert_nonnull (strstr (dyn_window_get_status_text (fixture->window), "1 collection"));
  run_text (fixture, "byCategory", "category = \"toy\"");
  g_assert_cmpuint (count_rows (fixture, &n_headers), ==, 1);
  g_assert_cmpuint (n_headers, ==, 0);
}

/* Entity labels: EntityType, a shared prefix, or none. */
static void
test_entity_labels (Fixture       *fixture,
                    gconstpointer  data)
{
  DynItemObject *order;
  g_autofree char *labels = NULL;
  g_autofree char *label = NULL;
  GtkWidget *expander;

  if (!ensure_tables ())
    return;

  /* The shop: customer and order, not the keys' "c1", "o1". */
  open_table (fixture, shop);
  order = lookup (fixture, "{\"PK\": \"c1\", \"SK\": \"o2\"}");
  label = entity_label (fixture, order);
  g_assert_cmpstr (label, ==, "order");
  labels = shown_labels (fixture);
  g_assert_nonnull (strstr (labels, "customer order order"));
  g_assert_null (strstr (labels, "c1"));
  g_assert_null (strstr (labels, "-"));

  /* Movies: no title is a type. */
  open_table (fixture, movies);
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (fixture);
  g_assert_cmpstr (labels, ==, "- - - - -");

  /* The single-table design: the sort key's prefix; META names itself. */
  open_table (fixture, single);
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (fixture);
  g_assert_true (g_str_equal (labels, "META PROJ PROJ META PROJ") || g_str_equal (labels, "META PROJ META PROJ PROJ"));

  /* As pages arrive: one item says nothing; the next page decides, and the
   * row already shown gets its label where it is. */
  dyn_window_set_page_limit (fixture->window, 1);
  open_table (fixture, shop);
  /* The table as read before is kept: read it again. */
  activate (fixture->window, "win.scan", NULL);
  dyn_test_wait_idle (fixture->window);
  dyn_test_iterate ();
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 1);
  {
    DynCollection *first = dyn_collection_model_peek_collection (dyn_window_get_model (fixture->window), 0);
    DynItemObject *row = dyn_collection_peek_item (first, 0);
    const char *type = dyn_test_item_get_string (dyn_item_object_get_item (row), "EntityType");

    expander = expander_for (fixture, row);
    g_assert_nonnull (expander);
    g_clear_pointer (&label, g_free);
    label = text_under (expander, "dyn-entity-type");
    g_assert_cmpstr (label, ==, "");
    activate (fixture->window, "win.load-all", NULL);
    dyn_test_wait_idle (fixture->window);
    dyn_test_iterate ();
    g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==, 5);
    g_assert_true (expander_for (fixture, row) == expander);
    g_clear_pointer (&label, g_free);
    label = text_under (expander, "dyn-entity-type");
    g_assert_cmpstr (label, ==, type);
  }
  g_clear_pointer (&labels, g_free);
  labels = shown_labels (fixture);
  g_assert_null (strstr (labels, "-"));
}

/* Each fact once: the Item column of a row shows no key; grouped, the
 * partition key is in the header only; a discriminator in the label only. */
static void
test_each_fact_once (Fixture       *fixture,
                     gconstpointer  data)
{
  DynItemGrid *grid;
  DynItemObject *row;
  g_autofree char *text = NULL;
  g_autofree char *sk = NULL;

  if (!ensure_tables ())
    return;
  open_table (fixture, single);
  grid = grid_of (fixture);
  row = lookup (fixture, "{\"PK\": \"WS#acme\", \"SK\": \"PROJ#0002\"}");
  /* The row's Item cell: its label, not its sort key. */
  text = text_under (expander_for (fixture, row), NULL);
  g_assert_cmpstr (text, ==, "PROJ");
  g_clear_pointer (&text, g_free);
  /* The header: the partition key and the count. */
  text = text_under (expander_for (fixture, dyn_collection_model_lookup_collection (
                                     dyn_window_get_model (fixture->window), dyn_item_object_get_partition_key_value (row))),
                     NULL);
  g_assert_cmpstr (text, ==, "WS#acme|3 items");
  /* The partition key's column is hidden (the header says it), the sort
   * key's shows it. */
  g_assert_false (dyn_item_grid_get_column_visible (grid, "PK"));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "SK"));
  sk = cell (fixture, row, "SK");
  g_assert_cmpstr (sk, ==, "PROJ#0002");

  /* Flat: the partition key in its column, once. */
  activate (fixture->window, "win.toggle-grouping", NULL);
  dyn_test_iterate ();
  g_assert_true (dyn_item_grid_get_column_visible (grid, "PK"));
  g_clear_pointer (&text, g_free);
  text = cell (fixture, row, "PK");
  g_assert_cmpstr (text, ==, "WS#acme");
  g_clear_pointer (&text, g_free);
  text = text_under (expander_for (fixture, row), NULL);
  g_assert_cmpstr (text, ==, "PROJ");
  activate (fixture->window, "win.toggle-grouping", NULL);
  dyn_test_iterate ();
  g_assert_false (dyn_item_grid_get_column_visible (grid, "PK"));

  /* The shop: the label says EntityType; its column would say it again. */
  open_table (fixture, shop);
  g_assert_false (dyn_item_grid_get_column_visible (grid, "EntityType"));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "SK"));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "Name"));
}

/* A page boundary cuts a collection: its count is a lower bound until the
 * rest arrives. A long header has all of its key as tooltip. */
static void
test_cut_collection (Fixture       *fixture,
                     gconstpointer  data)
{
  DynCollectionModel *model;
  DynCollection *cut;
  g_autofree char *text = NULL;
  GtkWidget *title;

  if (!ensure_tables ())
    return;
  dyn_window_set_page_limit (fixture->window, 2);
  open_table (fixture, events);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 2);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  cut = dyn_collection_model_peek_collection (model, 0);
  text = text_under (expander_for (fixture, cut), NULL);
  g_assert_cmpstr (text, ==, g_str_equal (dyn_collection_get_title (cut), "e#853")
                             ? "e#853|2+ items (more not loaded)" : "e#854|2+ items (more not loaded)");

  /* The rest: exact counts. */
  activate (fixture->window, "win.load-all", NULL);
  dyn_test_wait_idle (fixture->window);
  dyn_test_iterate ();
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 7);
  for (guint c = 0; c < 2; c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);
      g_autofree char *shown = text_under (expander_for (fixture, coll), NULL);
      g_autofree char *want = g_strdup_printf ("%s|%u items", dyn_collection_get_title (coll),
                                               g_str_equal (dyn_collection_get_title (coll), "e#853") ? 3 : 4);

      g_assert_cmpstr (shown, ==, want);
    }

  /* Long keys that differ at their end: cut in the middle, whole in the
   * tooltip. */
  dyn_window_set_page_limit (fixture->window, 0);
  open_table (fixture, long_keys);
  model = dyn_window_get_model (fixture->window);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 2);
  for (guint c = 0; c < 2; c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);
      const char *key = dyn_collection_get_title (coll);
      GtkWidget *expander = expander_for (fixture, coll);

      g_assert_nonnull (expander);
      title = find_inscription (expander, key);
      g_assert_nonnull (title);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (title), ==, key);
      g_assert_cmpint (gtk_inscription_get_text_overflow (GTK_INSCRIPTION (title)), ==,
                       GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE);
      /* It does not fit: the tooltip is needed. */
      g_assert_cmpint (gtk_widget_get_width (title), <, 150 * 5);
    }
}

/* Cells: binary marked with a preview, huge numbers exact and readable, an
 * empty string or binary unlike a missing attribute. */
static void
test_values (Fixture       *fixture,
             gconstpointer  data)
{
  struct { const char *attribute; const char *text; } cases[] = {
    { "text", "binary · 5 bytes · “hello”" },
    { "bytes", "binary · 5 bytes · 0001 0203 04" },
    { "empty", "(empty string)" },
    { "nothing", "binary · 0 bytes" },
    { "big", "≈ 1.235 × 10¹⁹ · 12\u202f345\u202f678\u202f901\u202f234\u202f567\u202f890.123\u202f456\u202f789\u202f012\u202f345\u202f678" },
    { "tiny", "1 × 10⁻¹³⁰" },
    { "count", "1\u202f234\u202f567" },
  };
  DynItemObject *a, *b;

  if (!ensure_tables ())
    return;
  open_table (fixture, values);
  a = lookup (fixture, "{\"id\": \"a\"}");
  b = lookup (fixture, "{\"id\": \"b\"}");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = cell (fixture, a, cases[i].attribute);
      g_autofree char *missing = cell (fixture, b, cases[i].attribute);

      g_assert_cmpstr (text, ==, cases[i].text);
      if (strcmp (cases[i].attribute, "count") != 0)
        g_assert_cmpstr (missing, ==, "");
    }
  /* Empty values look so; a missing one has no text at all. */
  g_assert_true (gtk_widget_has_css_class (find_inscription (GTK_WIDGET (grid_of (fixture)), "(empty string)"),
                                           "dyn-empty"));
  g_assert_true (gtk_widget_has_css_class (find_inscription (GTK_WIDGET (grid_of (fixture)), "binary · 0 bytes"),
                                           "dyn-empty"));
  /* The exact text is what an edit starts from. */
  dyn_item_grid_select_item (grid_of (fixture), a, TRUE);
  dyn_test_iterate ();
  g_assert_true (dyn_item_grid_edit_cell (grid_of (fixture), a, "big"));
  g_assert_cmpstr (gtk_editable_get_text (dyn_item_grid_get_cell_editor (grid_of (fixture))), ==,
                   "12345678901234567890.123456789012345678");
  g_signal_emit_by_name (dyn_item_grid_get_cell_editor (grid_of (fixture)), "activate");
  g_assert_null (dyn_item_grid_get_cell_editor (grid_of (fixture)));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (fixture->window)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-fit");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) g_test_add ("/dyn/window-fit/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("hash-only", test_hash_only);
  ADD ("entity-labels", test_entity_labels);
  ADD ("each-fact-once", test_each_fact_once);
  ADD ("cut-collection", test_cut_collection);
  ADD ("values", test_values);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (products);
  g_free (catalog);
  g_free (shop);
  g_free (movies);
  g_free (single);
  g_free (events);
  g_free (long_keys);
  g_free (values);
  return status;
}
