/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-item-grid"
#include "config.h"

#include <adwaita.h>

#include "dyn-item-detail.h"
#include "dyn-item-grid.h"
#include "dyn-test-util.h"
#include "dyn-value-format.h"

/* The item grid and the value formatting, without a server: a collection
 * model filled page by page, grouped and flat. */

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GPtrArray *
page (const char * const *items)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  for (guint i = 0; items[i] != NULL; i++)
    g_ptr_array_add (array, dyn_test_plain_item (items[i]));
  return array;
}

static void
test_format (void)
{
  g_autoptr(DynValue) item = dyn_test_item (
    "{\"n\":{\"N\":\"12345678901234567890.123456789012345678\"},"
    "\"tiny\":{\"N\":\"1E-130\"},"
    "\"ss\":{\"SS\":[\"a\",\"b\"]},"
    "\"ns\":{\"NS\":[\"1\",\"99999999999999999999999999999999999999\"]},"
    "\"b\":{\"B\":\"AAECAwQ=\"},"
    "\"m\":{\"M\":{\"a\":{\"N\":\"1\"},\"b\":{\"S\":\"x\"}}},"
    "\"l\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"},{\"BOOL\":true}]},"
    "\"s\":{\"S\":\"two\\nlines\"},"
    "\"z\":{\"NULL\":true}}");
  struct { const char *name; const char *cell; } cases[] = {
    { "n", "12345678901234567890.123456789012345678" },
    { "ss", "{\"a\", \"b\"}" },
    { "ns", "{1, 99999999999999999999999999999999999999}" },
    { "b", "AAECAwQ=" },
    { "m", "{2 attributes}" },
    { "l", "[3 items]" },
    { "s", "two⏎lines" },
    { "z", "null" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = dyn_value_format_cell (dyn_value_map_lookup (item, cases[i].name),
                                                     DYN_BINARY_FORMAT_BASE64, 0);
      g_assert_cmpstr (text, ==, cases[i].cell);
    }
  {
    g_autofree char *hex = dyn_value_format_cell (dyn_value_map_lookup (item, "b"), DYN_BINARY_FORMAT_HEX, 0);
    g_autofree char *full = dyn_value_format_full (dyn_value_map_lookup (item, "m"), DYN_BINARY_FORMAT_BASE64);
    g_autofree char *cut = dyn_value_format_cell (dyn_value_map_lookup (item, "n"), DYN_BINARY_FORMAT_BASE64, 5);
    g_autofree char *tiny = dyn_value_format_cell (dyn_value_map_lookup (item, "tiny"), DYN_BINARY_FORMAT_BASE64, 0);

    g_assert_cmpstr (hex, ==, "0x0001020304");
    g_assert_cmpstr (full, ==, "{a: 1, b: \"x\"}");
    g_assert_cmpstr (cut, ==, "12345…");
    g_assert_cmpstr (tiny, ==, "1E-130");
    g_assert_cmpstr (dyn_value_format_type (dyn_value_map_lookup (item, "ns")), ==, "NS");
  }
  {
    g_autofree char *pretty = dyn_json_text_indent ("{\"a\":[1,{}],\"b\":\"x,:{\\\"\",\"c\":[]}");
    g_assert_cmpstr (pretty, ==, "{\n  \"a\": [\n    1,\n    {}\n  ],\n  \"b\": \"x,:{\\\"\",\n  \"c\": []\n}");
  }
}

static void
follow_key_cb (DynItemGrid *grid,
               const char  *name,
               DynValue    *value,
               guint       *follows)
{
  g_assert_cmpstr (name, ==, "PK");
  g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_S);
  (*follows)++;
}

static void
test_grid (void)
{
  const char *page1[] = {
    "{\"PK\": \"WS#acme\", \"SK\": \"PROJ#2\", \"Name\": \"b\"}",
    "{\"PK\": \"WS#acme\", \"SK\": \"META\", \"Name\": \"Acme\"}",
    "{\"PK\": \"WS#globex\", \"SK\": \"META\", \"Seats\": 12}",
    NULL
  };
  const char *page2[] = {
    "{\"PK\": \"WS#acme\", \"SK\": \"PROJ#1\", \"Budget\": 12000.50}",
    NULL
  };
  const char *links[] = { "PK", NULL };
  g_autoptr(GPtrArray) p1 = page (page1);
  g_autoptr(GPtrArray) p2 = page (page2);
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", FALSE);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  DynItemGrid *grid = DYN_ITEM_GRID (dyn_item_grid_new ());
  GListModel *rows;
  guint follows = 0;

  g_object_ref (grid);
  gtk_window_set_child (window, GTK_WIDGET (grid));
  gtk_window_set_default_size (window, 900, 500);
  gtk_window_present (window);
  dyn_item_grid_set_link_attributes (grid, links);
  dyn_item_grid_set_model (grid, model);
  dyn_collection_model_append_page (model, p1);
  iterate ();

  rows = dyn_item_grid_get_rows (grid);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  dyn_collection_model_append_page (model, p2);
  iterate ();
  rows = dyn_item_grid_get_rows (grid);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 6);
  {
    /* WS#acme: META, PROJ#1, PROJ#2 under its group row. */
    g_autoptr(GObject) c = g_list_model_get_item (rows, 0);
    g_autoptr(GObject) i = g_list_model_get_item (rows, 2);

    g_assert_true (DYN_IS_COLLECTION (c));
    g_assert_cmpstr (dyn_collection_get_title (DYN_COLLECTION (c)), ==, "WS#acme");
    g_assert_cmpuint (dyn_collection_get_n_items (DYN_COLLECTION (c)), ==, 3);
    g_assert_true (DYN_IS_ITEM_OBJECT (i));
    g_assert_cmpstr (dyn_value_get_string (dyn_item_object_get_sort_key_value (DYN_ITEM_OBJECT (i))), ==, "PROJ#1");
  }
  {
    g_auto(GStrv) names = dyn_item_grid_dup_column_names (grid);

    g_assert_cmpstr (names[0], ==, "PK");
    g_assert_cmpstr (names[1], ==, "SK");
    g_assert_true (g_strv_contains ((const char * const *) names, "Budget"));
    g_assert_cmpuint (g_strv_length (names), ==, 5);
  }

  /* Hide a column through its header menu's action, show all again. */
  g_assert_true (dyn_item_grid_get_column_visible (grid, "Seats"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.hide-column", "s", "Seats"));
  g_assert_false (dyn_item_grid_get_column_visible (grid, "Seats"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.show-all-columns", NULL));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "Seats"));

  /* Flat: the items in arrival order. */
  dyn_item_grid_set_grouped (grid, FALSE);
  rows = dyn_item_grid_get_rows (grid);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 4);

  /* Selection. */
  g_assert_null (dyn_item_grid_get_selected_item (grid));
  dyn_item_grid_select_row (grid, 2);
  g_assert_nonnull (dyn_item_grid_get_selected_item (grid));
  g_assert_cmpstr (dyn_value_get_string (dyn_item_object_get_partition_key_value (dyn_item_grid_get_selected_item (grid))),
                   ==, "WS#globex");

  /* A clicked link cell emits follow-key. */
  {
    GtkWidget *w;
    GtkWidget *button = NULL;

    for (guint i = 0; i < 20; i++)
      iterate ();
    /* Find a link button among the rendered cells. */
    for (w = GTK_WIDGET (grid); w != NULL && button == NULL;)
      {
        if (GTK_IS_BUTTON (w) && gtk_widget_has_css_class (w, "dyn-link") && gtk_widget_get_visible (w))
          button = w;
        else if (gtk_widget_get_first_child (w) != NULL)
          w = gtk_widget_get_first_child (w);
        else
          {
            while (w != NULL && w != GTK_WIDGET (grid) && gtk_widget_get_next_sibling (w) == NULL)
              w = gtk_widget_get_parent (w);
            w = (w == NULL || w == GTK_WIDGET (grid)) ? NULL : gtk_widget_get_next_sibling (w);
          }
      }
    g_assert_nonnull (button);
    g_signal_connect (grid, "follow-key", G_CALLBACK (follow_key_cb), &follows);
    g_signal_emit_by_name (button, "clicked");
    g_assert_cmpuint (follows, ==, 1);
  }

  gtk_window_destroy (window);
  iterate ();
  g_assert_finalize_object (grid);
}

static void
test_detail (void)
{
  g_autoptr(DynValue) item = dyn_test_item ("{\"PK\":{\"S\":\"a\"},\"m\":{\"M\":{\"x\":{\"L\":[{\"N\":\"1\"}]}}},"
                                            "\"n\":{\"N\":\"1E-130\"}}");
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  DynItemDetail *detail = DYN_ITEM_DETAIL (dyn_item_detail_new ());
  GListModel *tree;

  g_object_ref (detail);
  gtk_window_set_child (window, GTK_WIDGET (detail));
  gtk_window_present (window);
  g_assert_null (dyn_item_detail_get_plain_json (detail));
  dyn_item_detail_set_item (detail, item);
  g_assert_cmpstr (dyn_item_detail_get_plain_json (detail), ==,
                   "{\n  \"PK\": \"a\",\n  \"m\": {\n    \"x\": [\n      1\n    ]\n  },\n  \"n\": 1E-130\n}");
  g_assert_nonnull (strstr (dyn_item_detail_get_ddb_json (detail), "\"N\": \"1E-130\""));
  tree = dyn_item_detail_get_tree (detail);
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 3);
  {
    /* Without a table's keys the attributes are listed by name: the map
     * "m" comes first. */
    g_autofree char *first = dyn_item_detail_dup_row_path (detail, 0);
    g_autoptr(GtkTreeListRow) row = g_list_model_get_item (tree, 0);

    g_assert_cmpstr (first, ==, "m");
    gtk_tree_list_row_set_expanded (row, TRUE);
  }
  g_assert_cmpuint (g_list_model_get_n_items (tree), ==, 4);
  dyn_item_detail_set_item (detail, NULL);
  g_assert_null (dyn_item_detail_get_plain_json (detail));
  gtk_window_destroy (window);
  iterate ();
  g_assert_finalize_object (detail);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/dyn/item-grid/format", test_format);
  g_test_add_func ("/dyn/item-grid/grid", test_grid);
  g_test_add_func ("/dyn/item-grid/detail", test_detail);
  return g_test_run ();
}
