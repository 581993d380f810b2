/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-screenshots"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-row-model.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* The README screenshots, taken in the real window under Xvfb against
 * DynamoDB Local with the demo data (data/demo: the Workspaces table with
 * GSI1, School, Products, Movies and Shop), driven through the window's actions and properties:
 *
 *   grouped.png             the Workspaces table grouped by item collection
 *   detail.png              a Query from the builder, a row in the detail pane
 *   builder.png             the builder in the window: a key condition, its plan
 *   builder-filter-dark.png the builder with a nested filter, dark style
 *   staged-diff.png         a cell edit, a set edit, a duplicate and a delete
 *                           staged, the staged pane open
 *   conflict.png            a second writer changed the item between staging
 *                           and commit: the conflict window
 *   products.png            a table without a sort key (Products): a plain
 *                           list; binary, empty and huge values in cells
 *   movies.png              a number partition key (Movies: year, title):
 *                           grouped by year, no entity labels
 *   shop.png                an EntityType attribute (Shop): its values label
 *                           the rows
 *   sql-workbench.png       the SQL Workbench: the course roster through GSI1
 *                           joined to each student's profile, its plan and
 *                           rows, a row's item in the detail pane
 *   sql-workbench-dark.png  the workspace with its projects newest-first, one
 *                           Query, dark style
 *   partiql.png             the PartiQL editor on a table without a sort key
 *                           (Products): a full Scan warned about with the key
 *                           that makes it a Query, its results (sets, exact
 *                           numbers)
 *   partiql-dark.png        the PartiQL editor, dark, on a number partition
 *                           key (Movies): a `?` parameter, a LIKE with its
 *                           begins_with fix
 *
 * Each is rendered into the build directory (tests/screenshots/), or into
 * $DYN_SCREENSHOT_DIR when set (`meson compile -C _build screenshots` sets it
 * to data/screenshots/), and each test asserts that the picture is drawn and
 * that the window shows what the picture is meant to show. */

static DynApplication *app;
static char *tmp_dir;
static char *out_dir;
static gboolean tables_loaded;

typedef struct {
  DynWindow *window;
  DynClient *other;     /* the second writer */
} Fixture;

/* The window's size for a picture (the fixture's data); a smaller screen
 * makes it smaller (`meson test` runs on 1280×800, the run target on a larger
 * screen). */
typedef struct {
  int width;
  int height;
} Size;

static const Size normal_size = { 1280, 800 };
static const Size large_size = { 1440, 900 };

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
count_frame_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

/* Lets @widget's window draw @n frames: the layout, the row widgets and the
 * fonts settle. */
static void
wait_frames (GtkWidget *widget,
             guint      n)
{
  guint frames = 0;
  gboolean timed_out = FALSE;
  guint tick = gtk_widget_add_tick_callback (widget, count_frame_cb, &frames, NULL);
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  while (frames < n && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  gtk_widget_remove_tick_callback (widget, tick);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  dyn_test_iterate ();
}

static void
activate (DynWindow  *window,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

/* Whether a visible label under @widget reads @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

/* The visible label under @widget whose text starts with @prefix, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *prefix)
{
  if (!gtk_widget_get_visible (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, prefix);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Scrolls the scrolled window around @target as a user would: @target at the
 * top of the view (@to_top) or at its bottom; then checks it is in view. */
static void
scroll_to (GtkWidget *target,
           gboolean   to_top)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (target, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  graphene_rect_t bounds;
  double page, value;

  g_assert_nonnull (scroller);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  page = gtk_adjustment_get_page_size (adjustment);
  g_assert_true (gtk_widget_compute_bounds (target, scroller, &bounds));
  value = gtk_adjustment_get_value (adjustment) +
          (to_top ? bounds.origin.y - 12 : bounds.origin.y + bounds.size.height + 18 - page);
  gtk_adjustment_set_value (adjustment, value);
  wait_frames (target, 3);
  g_assert_true (gtk_widget_compute_bounds (target, scroller, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, page);
}

static char *
replace (const char *text,
         const char *from,
         const char *to)
{
  g_auto(GStrv) parts = NULL;

  g_assert_nonnull (strstr (text, from));
  parts = g_strsplit (text, from, 2);
  return g_strjoinv (to, parts);
}

/* The demo data: data/demo/NAME, DynamoDB JSON lines. */
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

/* The demo item of Workspaces with this key, from the file. */
static DynValue *
demo_item (const char *entity_ref,
           const char *detail)
{
  g_autoptr(GPtrArray) items = read_demo ("Workspaces.jsonl");

  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "EntityRef"), entity_ref) == 0 &&
        g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "Detail"), detail) == 0)
      return dyn_value_ref (items->pdata[i]);
  g_assert_not_reached ();
  return NULL;
}

/* The tables as build-aux/run-demo.sh creates them, named as there: the
 * server is this process's own. */
static void
load_demo_tables (DynClient *client)
{
  const char *gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(GPtrArray) workspaces = read_demo ("Workspaces.jsonl");
  g_autoptr(GPtrArray) school = read_demo ("School.jsonl");
  g_autoptr(GPtrArray) products = read_demo ("Products.jsonl");
  g_autoptr(GPtrArray) movies = read_demo ("Movies.jsonl");
  g_autoptr(GPtrArray) shop = read_demo ("Shop.jsonl");
  g_autoptr(GError) error = NULL;

  if (tables_loaded)
    return;
  g_assert_true (dyn_test_create_table (client, "Workspaces", "EntityRef:S", "Detail:S", gsis, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, "Workspaces", workspaces, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, "School", "PK:S", "SK:S", gsis, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, "School", school, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, "Products", "ProductId:S", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, "Products", products, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, "Movies", "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, "Movies", movies, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, "Shop", "PK:S", "SK:S", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_load_items (client, "Shop", shop, &error));
  g_assert_no_error (error);
  tables_loaded = TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(DynConnectionStore) store = NULL;
  g_autoptr(DynConnection) connection = NULL;
  const Size *size = data;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  load_demo_tables (fixture->other);

  g_unlink (path);
  store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), size->width, size->height);
  /* The pictures show whole demo tables: full pages from the first read. */
  dyn_window_set_page_limit (fixture->window, 0);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }

  /* The connection as `dynoscope --endpoint URL` adds it (not saved). */
  connection = dyn_connection_new ("DynamoDB Local");
  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
  dyn_window_add_connection (fixture->window, connection, NULL);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), "Workspaces"));
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), "School"));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  DynConnectionStore *store;

  if (fixture->window == NULL)
    return;
  store = dyn_window_get_store (fixture->window);
  g_object_add_weak_pointer (G_OBJECT (store), (gpointer *) &store);
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_assert_null (store);
  g_clear_object (&fixture->other);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* Opens the demo table: a Scan of every item, grouped by item collection. */
static void
open_workspaces (Fixture *fixture)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", "Workspaces"));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, "Workspaces");
  g_assert_nonnull (dyn_window_get_edit_session (fixture->window));
  wait_frames (GTK_WIDGET (fixture->window), 3);
}

static void
show_builder (Fixture  *fixture,
              gboolean  shown)
{
  DynExpressionBuilder *builder = dyn_window_get_builder (fixture->window);

  if (gtk_widget_get_mapped (GTK_WIDGET (builder)) != shown)
    activate (fixture->window, "win.toggle-builder");
  wait_frames (GTK_WIDGET (fixture->window), 3);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (builder)) == shown);
}

static void
show_sidebar (Fixture  *fixture,
              gboolean  shown)
{
  DynConnectionSidebar *sidebar = dyn_window_get_sidebar (fixture->window);

  if (gtk_widget_get_mapped (GTK_WIDGET (sidebar)) != shown)
    activate (fixture->window, "win.toggle-sidebar");
  wait_frames (GTK_WIDGET (fixture->window), 3);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (sidebar)) == shown);
}

/* Runs @text from the builder, as its Run button does. */
static void
run_query (Fixture    *fixture,
           const char *text)
{
  show_builder (fixture, TRUE);
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), text);
  activate (fixture->window, "win.query");
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *detail)
{
  g_autofree char *json = g_strdup_printf ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}", detail);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynItemObject *
select_row (Fixture    *fixture,
            const char *detail)
{
  DynItemObject *row = row_for (fixture, detail);

  g_assert_nonnull (row);
  dyn_item_grid_select_item (dyn_window_get_grid (fixture->window), row, TRUE);
  dyn_test_iterate ();
  g_assert_true (dyn_item_grid_get_selected_item (dyn_window_get_grid (fixture->window)) == row);
  return row;
}

/* A cell edited in place: the grid's action on the selected row, the text,
 * Enter. */
static void
edit_cell (Fixture    *fixture,
           const char *detail,
           const char *attribute,
           const char *text)
{
  DynItemGrid *grid = dyn_window_get_grid (fixture->window);
  GtkEditable *entry;

  select_row (fixture, detail);
  wait_frames (GTK_WIDGET (fixture->window), 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", attribute));
  entry = dyn_item_grid_get_cell_editor (grid);
  g_assert_nonnull (entry);
  gtk_editable_set_text (entry, text);
  g_signal_emit_by_name (entry, "activate");
  g_assert_null (dyn_item_grid_get_cell_editor (grid));
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

/* The JSON editor open now: @from replaced by @to (and @from2 by @to2), Save. */
static void
save_in_editor (Fixture    *fixture,
                const char *from,
                const char *to,
                const char *from2,
                const char *to2)
{
  DynItemEditor *editor = dyn_window_get_item_editor (fixture->window);
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;

  g_assert_nonnull (editor);
  text = dyn_item_editor_dup_text (editor);
  edited = replace (text, from, to);
  if (from2 != NULL)
    {
      g_autofree char *once = g_steal_pointer (&edited);

      edited = replace (once, from2, to2);
    }
  dyn_item_editor_set_text (editor, edited);
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  for (guint i = 0; i < 100 && dyn_window_get_item_editor (fixture->window) != NULL; i++)
    {
      dyn_test_iterate ();
      g_usleep (1000);
    }
  g_assert_null (dyn_window_get_item_editor (fixture->window));
}

/* Room for the staged list: the builder and the sidebar closed, the
 * partition key (the group header says it) and the GSI keys hidden. */
static void
editing_layout (Fixture *fixture)
{
  const char *shown[] = { "Detail", "Name", "Status", "Budget", "Tags", NULL };
  DynItemGrid *grid = dyn_window_get_grid (fixture->window);
  g_auto(GStrv) columns = dyn_item_grid_dup_column_names (grid);

  show_builder (fixture, FALSE);
  show_sidebar (fixture, FALSE);
  for (guint i = 0; columns[i] != NULL; i++)
    dyn_item_grid_set_column_visible (grid, columns[i], g_strv_contains (shown, columns[i]));
  for (guint i = 0; columns[i] != NULL; i++)
    g_assert_true (dyn_item_grid_get_column_visible (grid, columns[i]) == g_strv_contains (shown, columns[i]));
}

/* What a picture holds: its size, how many colours (a blank or half-drawn
 * window has few) and its mean brightness (0 black … 1 white). */
typedef struct {
  int    width;
  int    height;
  guint  n_colors;
  double brightness;
} Picture;

static Picture
read_picture (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  g_autoptr(GHashTable) colors = g_hash_table_new (NULL, NULL);
  g_autofree guchar *pixels = NULL;
  Picture picture = { 0 };
  gsize stride;
  double sum = 0;

  g_assert_no_error (error);
  picture.width = gdk_texture_get_width (texture);
  picture.height = gdk_texture_get_height (texture);
  stride = (gsize) picture.width * 4;
  pixels = g_malloc (stride * picture.height);
  /* CAIRO_FORMAT_ARGB32: B, G, R, A in memory on little-endian machines. */
  gdk_texture_download (texture, pixels, stride);
  for (int y = 0; y < picture.height; y++)
    for (int x = 0; x < picture.width; x++)
      {
        const guchar *p = pixels + y * stride + x * 4;
        guint32 argb = (guint32) p[3] << 24 | (guint32) p[2] << 16 | (guint32) p[1] << 8 | p[0];

        if (g_hash_table_size (colors) < 100000)
          g_hash_table_add (colors, GUINT_TO_POINTER (argb));
        sum += (0.2126 * p[2] + 0.7152 * p[1] + 0.0722 * p[0]) / 255.0;
      }
  picture.n_colors = g_hash_table_size (colors);
  picture.brightness = sum / ((double) picture.width * picture.height);
  return picture;
}

/* Saves @window as @name, reads the file back and checks it is a drawn
 * picture of the window. */
static Picture
save_picture (GtkWindow  *window,
              const char *name)
{
  g_autofree char *path = g_build_filename (out_dir, name, NULL);
  g_autoptr(GError) error = NULL;
  GStatBuf st;
  Picture picture;
  gboolean saved = FALSE;

  wait_frames (GTK_WIDGET (window), 12);
  /* A frame in the middle of a relayout has no render node yet. */
  for (guint i = 0; i < 100 && !saved; i++)
    {
      g_clear_error (&error);
      saved = dyn_window_save_png (window, path, &error);
      if (!saved)
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PENDING);
          wait_frames (GTK_WIDGET (window), 1);
        }
    }
  g_assert_no_error (error);
  g_assert_true (saved);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, 0);
  picture = read_picture (path);
  g_assert_cmpint (picture.width, ==, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (picture.height, ==, gtk_widget_get_height (GTK_WIDGET (window)));
  g_assert_cmpint (picture.width, >, 400);
  g_assert_cmpint (picture.height, >, 300);
  /* Text, icons and widgets, not a blank window. */
  g_assert_cmpuint (picture.n_colors, >, 64);
  g_test_message ("saved %s (%d×%d, %u colours, brightness %.2f)", path, picture.width, picture.height,
                  picture.n_colors, picture.brightness);
  return picture;
}

/* ------------------------------------------------------------------------ */

/* grouped.png: every item of the table, one group per partition key with
 * its item count, items by sort key, the status line of the read. */
static void
test_grouped (Fixture       *fixture,
              gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autoptr(GPtrArray) items = read_demo ("Workspaces.jsonl");
  g_autoptr(GHashTable) partitions = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *count = NULL;
  DynCollectionModel *model;
  GListModel *rows;
  DynCollection *collection;
  g_autoptr(DynItemObject) item = NULL;
  guint in_first = 0;
  Picture picture;

  if (window == NULL)
    return;
  for (guint i = 0; i < items->len; i++)
    g_hash_table_add (partitions, (gpointer) dyn_test_item_get_string (items->pdata[i], "EntityRef"));

  open_workspaces (fixture);
  show_builder (fixture, FALSE);
  g_assert_null (dyn_window_get_side_page (window));
  model = dyn_window_get_model (window);
  g_assert_cmpint (dyn_window_get_request (window)->op, ==, DYN_OP_SCAN);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, items->len);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, g_hash_table_size (partitions));
  g_assert_true (dyn_item_grid_get_grouped (dyn_window_get_grid (window)));
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Scan · 1 request · 1 page"));

  /* The first row is a collection, expanded, with its count shown. */
  rows = dyn_item_grid_get_rows (dyn_window_get_grid (window));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, g_hash_table_size (partitions));
  collection = g_list_model_get_item (rows, 0);
  g_assert_true (DYN_IS_COLLECTION (collection));
  g_assert_true (dyn_row_model_get_expanded (DYN_ROW_MODEL (rows), collection));
  item = g_list_model_get_item (G_LIST_MODEL (collection), 0);
  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "EntityRef"),
                   dyn_test_item_get_string (dyn_item_object_get_item (item), "EntityRef")) == 0)
      in_first++;
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (collection)), ==, in_first);
  g_object_unref (collection);
  count = g_strdup_printf ("%u items", in_first);

  picture = save_picture (GTK_WINDOW (window), "grouped.png");
  g_assert_true (shows_label (GTK_WIDGET (dyn_window_get_grid (window)), count));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* detail.png: a Query from the builder, the last row in the detail pane as
 * plain JSON (numbers exact, binary and sets in their JSON forms). */
static void
test_detail (Fixture       *fixture,
             gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  DynItemDetail *detail;
  GListModel *rows;
  guint n_rows;
  DynItemObject *row;
  Picture picture;

  if (window == NULL)
    return;
  open_workspaces (fixture);
  show_sidebar (fixture, TRUE);
  run_query (fixture, "EntityRef = \"WS#acme\" AND Detail >= \"PROJ#2026-0036\"");
  g_assert_cmpint (dyn_window_get_request (window)->op, ==, DYN_OP_QUERY);
  /* PROJ#2026-0036 … 0042 and PROJ#2026-9999. */
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (window)), ==, 8);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Query · 1 request · 1 page"));

  grid = dyn_window_get_grid (window);
  rows = dyn_item_grid_get_rows (grid);
  n_rows = g_list_model_get_n_items (rows);
  g_assert_cmpuint (n_rows, ==, 1 + 8);     /* the collection and its items */
  dyn_item_grid_select_row (grid, n_rows - 1);
  row = dyn_item_grid_get_selected_item (grid);
  g_assert_nonnull (row);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Detail"), ==, "PROJ#2026-9999");
  if (g_strcmp0 (dyn_window_get_side_page (window), "detail") != 0)
    activate (window, "win.toggle-detail");
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "detail");
  detail = dyn_window_get_detail (window);
  dyn_item_detail_set_view (detail, "json");
  g_assert_cmpstr (dyn_item_detail_get_view (detail), ==, "json");
  g_assert_true (dyn_item_detail_get_item (detail) == dyn_item_object_get_item (row));
  g_assert_nonnull (strstr (dyn_item_detail_get_plain_json (detail), "99999999999999999999999999999999999999"));
  g_assert_nonnull (strstr (dyn_item_detail_get_plain_json (detail), "\"$binary\""));
  g_assert_nonnull (strstr (dyn_item_detail_get_plain_json (detail), "\"$set\""));

  picture = save_picture (GTK_WINDOW (window), "detail.png");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (detail)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (dyn_window_get_builder (window))));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* builder.png: the builder in the window (the Query Builder button, Ctrl+E):
 * a key condition as text and rows, its expressions and maps, the plan. */
static void
test_builder (Fixture       *fixture,
              gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynExpressionBuilder *builder;
  Picture picture;

  if (window == NULL)
    return;
  open_workspaces (fixture);
  show_sidebar (fixture, FALSE);
  run_query (fixture, "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")");
  builder = dyn_window_get_builder (window);
  g_assert_true (dyn_expression_builder_get_valid (builder));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (builder), "Query on table Workspaces"));
  g_assert_cmpint (dyn_window_get_request (window)->op, ==, DYN_OP_QUERY);
  g_assert_cmpstr (dyn_window_get_request (window)->key_condition, ==, "#er = :er AND begins_with(#d, :p)");
  dyn_expression_builder_set_snippet_language (builder, DYN_SNIPPET_CLI);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "aws dynamodb query"));
  wait_frames (GTK_WIDGET (window), 3);
  /* Scrolled as a user would: the rows and the read options on the left,
   * the snippet on the right. */
  scroll_to (find_label (GTK_WIDGET (builder), "Strongly consistent read"), FALSE);
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "Query on table Workspaces"));
  scroll_to (find_label (GTK_WIDGET (builder), "Snippet"), TRUE);

  picture = save_picture (GTK_WINDOW (window), "builder.png");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (builder)));
  g_assert_true (shows_label (GTK_WIDGET (builder), "#er = :er AND begins_with(#d, :p)"));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* builder-filter-dark.png: a filter with a nested OR group, a NOT and an
 * IN, in the dark style; the plan says Scan and suggests GSI1. */
static void
test_builder_filter_dark (Fixture       *fixture,
                          gconstpointer  data)
{
  DynWindow *window = fixture->window;
  AdwStyleManager *style = adw_style_manager_get_default ();
  DynExpressionBuilder *builder;
  DynReadRequest *read;
  Picture picture;

  if (window == NULL)
    return;
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (style));
  open_workspaces (fixture);
  show_sidebar (fixture, FALSE);
  show_builder (fixture, TRUE);
  builder = dyn_window_get_builder (window);
  dyn_expression_builder_set_text (builder, "GSI1PK = \"CRS#math204\" AND (grade > 2 OR NOT attribute_exists(Dropped)) "
                                            "AND Tags IN (\"a\", \"b\")");
  dyn_expression_builder_set_snippet_language (builder, DYN_SNIPPET_BOTO3);
  g_assert_true (dyn_expression_builder_get_valid (builder));
  g_assert_null (dyn_expression_builder_get_parse_error (builder));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (builder), "Scan of table Workspaces"));
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_nonnull (read);
  g_assert_cmpstr (dyn_read_request_get_suggested_index (read), ==, "GSI1");
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "import boto3"));
  wait_frames (GTK_WIDGET (window), 3);
  /* The nested groups and the plan with its suggestion in view. */
  scroll_to (find_label (GTK_WIDGET (builder), "Suggestion"), FALSE);
  g_assert_nonnull (find_label (GTK_WIDGET (builder), "Scan of table Workspaces"));

  picture = save_picture (GTK_WINDOW (window), "builder-filter-dark.png");
  g_assert_true (shows_label (GTK_WIDGET (builder), "#gsi1pk = :gsi1pk AND (#g > :g OR NOT attribute_exists(#d)) "
                                                    "AND #t IN (:t, :t2)"));
  g_assert_cmpfloat (picture.brightness, <, 0.4);
}

/* staged-diff.png: a cell edit (twice, one change), a set edited in the
 * JSON editor, a duplicate and a delete; the staged pane lists the three
 * changes with their guards and per-attribute diffs. */
static void
test_staged (Fixture       *fixture,
             gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynStagedChanges *staged;
  DynItemObject *copy;
  Picture picture;

  if (window == NULL)
    return;
  open_workspaces (fixture);
  run_query (fixture, "EntityRef = \"WS#acme\"");
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);

  edit_cell (fixture, "PROJ#2026-0001", "Status", "paused");
  edit_cell (fixture, "PROJ#2026-0001", "Budget", "80000");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  /* The set, in the JSON editor (plain JSON writes it as an array). */
  select_row (fixture, "PROJ#2026-0001");
  activate (window, "win.edit-item");
  save_in_editor (fixture, "\"web\"", "\"web\", \"ml\"", NULL, NULL);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0001")),
                                                                   "Tags")), ==, DYN_VALUE_SS);
  /* A duplicate, renamed; it sorts right after its original. */
  select_row (fixture, "PROJ#2026-0004");
  activate (window, "win.duplicate-item");
  save_in_editor (fixture, "\"Acme Corp project 4\"", "\"Search\"", "\"active\"", "\"draft\"");
  /* A delete. */
  select_row (fixture, "PROJ#2026-0003");
  activate (window, "win.delete-item");
  g_assert_null (dyn_window_get_error_text (window));

  editing_layout (fixture);
  select_row (fixture, "PROJ#2026-0001");
  activate (window, "win.toggle-changes");
  g_assert_cmpstr (dyn_window_get_side_page (window), ==, "changes");

  /* Three changes: the update, the create, the delete, in that order. */
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 3);
  g_assert_cmpint (dyn_edit_session_get_kind (session, 0), ==, DYN_CHANGE_KIND_UPDATE);
  g_assert_cmpint (dyn_edit_session_get_kind (session, 1), ==, DYN_CHANGE_KIND_CREATE);
  g_assert_cmpint (dyn_edit_session_get_kind (session, 2), ==, DYN_CHANGE_KIND_DELETE);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0001")), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0003")), ==, DYN_ITEM_STATE_DELETED);
  copy = dyn_edit_session_get_object (session, 1);
  g_assert_cmpint (dyn_item_object_get_state (copy), ==, DYN_ITEM_STATE_ADDED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (copy), "Name"), ==, "Search");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (copy), "Status"), ==, "draft");
  g_assert_true (dyn_item_grid_get_cell_changed (dyn_window_get_grid (window), row_for (fixture, "PROJ#2026-0001"),
                                                 "Status"));

  picture = save_picture (GTK_WINDOW (window), "staged-diff.png");
  g_assert_true (shows_label (GTK_WIDGET (staged), "3 Staged Changes"));
  g_assert_true (shows_label (GTK_WIDGET (staged), "Commit 3 Changes"));
  /* Status, Budget, Tags. */
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, 0), ==, 3);
  g_assert_cmpstr (dyn_staged_changes_get_guard_text (staged, 0), ==,
                   "Guarded by the values it changes: Status is still \"active\", Budget is still 75606.97, "
                   "Tags is still <<\"data\", \"web\">>");
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, 1), ==,
                    dyn_value_get_length (dyn_item_object_get_item (copy)));
  g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (staged, 1), "no item with this key"));
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, 2), >, 0);
  g_assert_true (g_str_has_prefix (dyn_staged_changes_get_guard_text (staged, 2), "Guarded by the whole item as loaded"));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* conflict.png: Status and Budget staged; a second writer changes Name,
 * Budget and Owner first; the commit's guard fails and the conflict window
 * shows per attribute what I started from, the server's and mine, with the
 * server's Budget taken. */
static void
test_conflict (Fixture       *fixture,
               gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynConflictView *view;
  GtkWindow *conflict_window;
  GPtrArray *entries;
  DynMergeEntry *budget;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) original = NULL;
  Picture picture;

  if (window == NULL)
    return;
  open_workspaces (fixture);
  run_query (fixture, "EntityRef = \"WS#acme\"");
  editing_layout (fixture);
  session = dyn_window_get_edit_session (window);

  edit_cell (fixture, "PROJ#2026-0002", "Status", "paused");
  edit_cell (fixture, "PROJ#2026-0002", "Budget", "80000");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);

  /* The second writer, between staging and commit. */
  response = dyn_test_callf (fixture->other, "UpdateItem", &error,
                             "{\"TableName\":\"Workspaces\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                             "\"Detail\":{\"S\":\"PROJ#2026-0002\"}},"
                             "\"UpdateExpression\":\"SET #n = :n, #b = :b, #o = :o\","
                             "\"ExpressionAttributeNames\":{\"#n\":\"Name\",\"#b\":\"Budget\",\"#o\":\"Owner\"},"
                             "\"ExpressionAttributeValues\":{\":n\":{\"S\":\"Data lake (EU)\"},"
                             "\":b\":{\"N\":\"70000\"},\":o\":{\"S\":\"ayse@acme.example\"}}}");
  g_assert_no_error (error);

  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 1);
  view = dyn_staged_changes_get_conflict_view (dyn_window_get_staged_changes (window));
  g_assert_nonnull (view);
  conflict_window = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view)));
  g_assert_true (conflict_window != GTK_WINDOW (window));
  g_assert_true (gtk_window_get_transient_for (conflict_window) == GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "Budget", "server"));
  gtk_window_set_default_size (conflict_window, 980, 560);

  /* The rows: what I started from, the server's, mine. */
  entries = dyn_conflict_view_get_entries (view);
  budget = dyn_merge_lookup (entries, "Budget");
  g_assert_nonnull (budget);
  g_assert_true (budget->conflict);
  g_assert_cmpint (budget->side, ==, DYN_MERGE_SERVER);
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_BASE), "65937.97"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_SERVER), "70000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_MINE), "80000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Status", DYN_CONFLICT_COLUMN_MINE), "paused"));
  g_assert_false (dyn_merge_lookup (entries, "Status")->conflict);
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Name", DYN_CONFLICT_COLUMN_SERVER), "Data lake (EU)"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Owner", DYN_CONFLICT_COLUMN_SERVER),
                            "ayse@acme.example"));
  g_assert_null (dyn_merge_lookup (entries, "Owner")->base);
  g_assert_cmpstr (dyn_test_item_get_number (dyn_conflict_view_get_merged_item (view), "Budget"), ==, "70000");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_conflict_view_get_merged_item (view), "Status"), ==, "paused");

  picture = save_picture (conflict_window, "conflict.png");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (conflict_window)));
  g_assert_nonnull (find_label (GTK_WIDGET (view), "Budget"));
  g_assert_true (shows_label (GTK_WIDGET (view), "Owner"));
  g_assert_cmpfloat (picture.brightness, >, 0.5);

  /* Nothing was overwritten; the demo item is put back for the next test. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.keep-server", NULL));
  dyn_test_iterate ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  original = demo_item ("WS#acme", "PROJ#2026-0002");
  g_assert_true (dyn_test_put_item (fixture->other, "Workspaces", original, &error));
  g_assert_no_error (error);
}

/* Opens a demo table: a Scan of every item. */
static void
open_demo_table (Fixture    *fixture,
                 const char *table)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  wait_frames (GTK_WIDGET (fixture->window), 3);
}

/* How many visible entity labels under @widget read @text (any text when
 * NULL). */
static guint
count_entity_labels (GtkWidget  *widget,
                     const char *text)
{
  guint n = 0;

  if (!gtk_widget_get_visible (widget))
    return 0;
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "dyn-entity-type") &&
      (text == NULL || g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0))
    n++;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += count_entity_labels (child, text);
  return n;
}

/* Shows only these columns, in this order after the Item column, as a user
 * would drag them. */
static void
show_columns (Fixture            *fixture,
              const char * const *shown)
{
  DynItemGrid *grid = dyn_window_get_grid (fixture->window);
  GtkColumnView *view = dyn_item_grid_get_column_view (grid);
  g_auto(GStrv) columns = dyn_item_grid_dup_column_names (grid);

  for (guint i = 0; columns[i] != NULL; i++)
    dyn_item_grid_set_column_visible (grid, columns[i], g_strv_contains (shown, columns[i]));
  for (guint k = 0; shown[k] != NULL; k++)
    {
      GListModel *list = gtk_column_view_get_columns (view);

      for (guint i = 0; i < g_list_model_get_n_items (list); i++)
        {
          g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (list, i);

          if (g_strcmp0 (gtk_column_view_column_get_title (column), shown[k]) == 0)
            {
              gtk_column_view_insert_column (view, k + 1, column);
              break;
            }
        }
    }
  g_clear_pointer (&columns, g_strfreev);
  columns = dyn_item_grid_dup_column_names (grid);
  for (guint k = 0; shown[k] != NULL; k++)
    g_assert_cmpstr (columns[k], ==, shown[k]);
}

static DynItemObject *
lookup_row (Fixture    *fixture,
            const char *key_json)
{
  g_autoptr(DynValue) key = dyn_test_item (key_json);
  DynItemObject *row = dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);

  g_assert_nonnull (row);
  return row;
}

static void
assert_cell (Fixture       *fixture,
             DynItemObject *row,
             const char    *attribute,
             const char    *prefix)
{
  g_autofree char *text = dyn_item_grid_dup_cell_text (dyn_window_get_grid (fixture->window), row, attribute);

  g_assert_nonnull (text);
  if (!g_str_has_prefix (text, prefix))
    g_error ("the %s cell shows “%s”, not “%s…”", attribute, text, prefix);
}

/* products.png: a table without a sort key is a plain list, though
 * grouping is on; its cells mark binary (with a preview), an empty string
 * and empty binary, and show a 20-digit number readably. */
static void
test_products (Fixture       *fixture,
               gconstpointer  data)
{
  const char *shown[] = { "ProductId", "Name", "Thumbnail", "Barcode", "Description", "UnitsSold", NULL };
  /* Wide enough for the previews, as a user would drag them. */
  const int widths[] = { 100, 160, 236, 236, 140, 318 };
  DynWindow *window = fixture->window;
  g_autoptr(GPtrArray) items = read_demo ("Products.jsonl");
  DynItemGrid *grid;
  DynCollectionModel *model;
  GListModel *rows;
  DynItemObject *gift, *shirt;
  Picture picture;

  if (window == NULL)
    return;
  open_demo_table (fixture, "Products");
  show_builder (fixture, FALSE);
  show_sidebar (fixture, FALSE);
  show_columns (fixture, shown);
  grid = dyn_window_get_grid (window);
  {
    GListModel *columns = gtk_column_view_get_columns (dyn_item_grid_get_column_view (grid));

    for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i + 1);

        gtk_column_view_column_set_fixed_width (column, widths[i]);
      }
  }
  model = dyn_window_get_model (window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, items->len);
  g_assert_true (dyn_item_grid_get_grouped (grid));
  g_assert_false (dyn_item_grid_get_shows_collections (grid));
  /* No header rows: every row is an item. */
  rows = dyn_item_grid_get_rows (grid);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, items->len);
  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (rows, i);

      g_assert_true (DYN_IS_ITEM_OBJECT (object));
    }
  g_assert_null (strstr (dyn_window_get_status_text (window), "collection"));
  /* Product ids name no entity type. */
  g_assert_cmpint (dyn_collection_model_get_entity_source (model), ==, DYN_ENTITY_SOURCE_NONE);

  picture = save_picture (GTK_WINDOW (window), "products.png");
  g_assert_cmpuint (count_entity_labels (GTK_WIDGET (grid), NULL), ==, 0);
  gift = lookup_row (fixture, "{\"ProductId\":{\"S\":\"P-2001\"}}");
  shirt = lookup_row (fixture, "{\"ProductId\":{\"S\":\"P-1001\"}}");
  assert_cell (fixture, gift, "ProductId", "P-2001");
  assert_cell (fixture, gift, "Description", "(empty string)");
  assert_cell (fixture, gift, "Thumbnail", "binary · 0 bytes");
  assert_cell (fixture, gift, "Barcode", "binary · 12 bytes · “GIFT-2001-EU”");
  assert_cell (fixture, gift, "UnitsSold", "≈ 1.235 × 10¹⁹ · 12\u202f345\u202f678\u202f901\u202f234\u202f567\u202f890");
  assert_cell (fixture, shirt, "Thumbnail", "binary · 72 bytes · 8950 4e47 0d0a 1a0a");
  /* A missing attribute: no text at all. */
  assert_cell (fixture, shirt, "Description", "");
  {
    g_autofree char *missing = dyn_item_grid_dup_cell_text (grid, shirt, "Description");
    g_assert_cmpstr (missing, ==, "");
  }
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* movies.png: year (N) and title (S), grouped by year; the titles are no
 * entity types, and the rows do not repeat the year of their header. */
static void
test_movies (Fixture       *fixture,
             gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autoptr(GPtrArray) items = read_demo ("Movies.jsonl");
  DynItemGrid *grid;
  DynCollectionModel *model;
  DynItemObject *rush;
  Picture picture;

  if (window == NULL)
    return;
  open_demo_table (fixture, "Movies");
  show_builder (fixture, FALSE);
  grid = dyn_window_get_grid (window);
  model = dyn_window_get_model (window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, items->len);
  g_assert_true (dyn_item_grid_get_shows_collections (grid));
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 5);
  g_assert_cmpint (dyn_collection_model_get_entity_source (model), ==, DYN_ENTITY_SOURCE_NONE);
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "5 collections"));
  for (guint c = 0; c < 5; c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);
      const char *year = dyn_collection_get_title (coll);

      g_assert_true (g_str_has_prefix (year, "201"));
      for (guint i = 0; i < dyn_collection_get_n_items (coll); i++)
        g_assert_null (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, i)));
    }

  picture = save_picture (GTK_WINDOW (window), "movies.png");
  g_assert_cmpuint (count_entity_labels (GTK_WIDGET (grid), NULL), ==, 0);
  rush = lookup_row (fixture, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
  assert_cell (fixture, rush, "title", "Rush");
  assert_cell (fixture, rush, "info", "{6 attributes}");
  /* The header rows say the year: its column is hidden while grouped. */
  g_assert_false (dyn_item_grid_get_column_visible (grid, "year"));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "title"));
  g_assert_true (shows_label (GTK_WIDGET (grid), "5 items"));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* Until the PartiQL editor's lint has run, with every key schema it asked for. */
static void
wait_partiql_lint (DynWindow *window)
{
  DynPartiqlEditor *editor = dyn_window_get_partiql_editor (window);

  do
    {
      dyn_test_wait_idle (window);
      while (dyn_partiql_editor_get_lint_pending (editor))
        g_main_context_iteration (NULL, TRUE);
    }
  while (dyn_window_is_busy (window));
}

static gboolean
has_diagnostic (DynWindow  *window,
                const char *code)
{
  GPtrArray *diagnostics = dyn_partiql_editor_get_diagnostics (dyn_window_get_partiql_editor (window));

  for (guint i = 0; i < diagnostics->len; i++)
    if (g_strcmp0 (((DynPartiqlDiagnostic *) diagnostics->pdata[i])->code, code) == 0)
      return TRUE;
  return FALSE;
}

/* partiql.png: a statement that reads the whole of a table without a sort
 * key, the warning naming Products' partition key, and what the Scan
 * returned. */
static void
test_partiql (Fixture       *fixture,
              gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynPartiqlEditor *editor;
  Picture picture;

  if (window == NULL)
    return;
  open_demo_table (fixture, "Products");
  show_sidebar (fixture, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-partiql", NULL));
  editor = dyn_window_get_partiql_editor (window);
  dyn_partiql_editor_set_text (editor, "SELECT ProductId, Name, Price, Tags, UnitsSold\nFROM Products\nWHERE Price >= 300 OR Category = 'gift'");
  wait_partiql_lint (window);
  g_assert_true (has_diagnostic (window, "full-scan"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.partiql-run", NULL));
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor), >, 0);

  picture = save_picture (GTK_WINDOW (window), "partiql.png");
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (editor)));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* partiql-dark.png: a Query with a `?` parameter (a number) and a LIKE the
 * linter offers to write as begins_with; the snippet's language set. */
static void
test_partiql_dark (Fixture       *fixture,
                   gconstpointer  data)
{
  DynWindow *window = fixture->window;
  AdwStyleManager *style = adw_style_manager_get_default ();
  DynPartiqlEditor *editor;
  Picture picture;

  if (window == NULL)
    return;
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (style));
  open_demo_table (fixture, "Movies");
  show_sidebar (fixture, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-partiql", NULL));
  editor = dyn_window_get_partiql_editor (window);
  dyn_partiql_editor_set_text (editor, "SELECT * FROM Movies\nWHERE \"year\" = ? AND title LIKE 'R%'");
  wait_partiql_lint (window);
  g_assert_true (has_diagnostic (window, "like"));
  g_assert_cmpuint (dyn_partiql_editor_get_n_parameters (editor), ==, 1);
  dyn_partiql_editor_set_parameter (editor, 0, DYN_VALUE_N, "2013");
  dyn_partiql_editor_set_snippet_language (editor, DYN_SNIPPET_BOTO3);
  g_assert_nonnull (dyn_partiql_editor_get_snippet (editor));

  picture = save_picture (GTK_WINDOW (window), "partiql-dark.png");
  g_assert_cmpfloat (picture.brightness, <, 0.4);
}

/* shop.png: customers and orders under generic keys, labelled by their
 * EntityType attribute, not by the keys' text. */
static void
test_shop (Fixture       *fixture,
           gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autoptr(GPtrArray) items = read_demo ("Shop.jsonl");
  DynItemGrid *grid;
  DynCollectionModel *model;
  DynItemObject *order;
  Picture picture;

  if (window == NULL)
    return;
  open_demo_table (fixture, "Shop");
  show_builder (fixture, FALSE);
  grid = dyn_window_get_grid (window);
  model = dyn_window_get_model (window);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, items->len);
  g_assert_cmpint (dyn_collection_model_get_entity_source (model), ==, DYN_ENTITY_SOURCE_ATTRIBUTE);
  g_assert_cmpstr (dyn_collection_model_get_entity_attribute (model), ==, "EntityType");

  picture = save_picture (GTK_WINDOW (window), "shop.png");
  g_assert_cmpuint (count_entity_labels (GTK_WIDGET (grid), "customer"), >=, 3);
  g_assert_cmpuint (count_entity_labels (GTK_WIDGET (grid), "order"), >=, 6);
  g_assert_cmpuint (count_entity_labels (GTK_WIDGET (grid), NULL), ==,
                    count_entity_labels (GTK_WIDGET (grid), "customer") + count_entity_labels (GTK_WIDGET (grid), "order"));
  order = lookup_row (fixture, "{\"PK\":{\"S\":\"c1001\"},\"SK\":{\"S\":\"o5001\"}}");
  g_assert_cmpstr (dyn_item_object_get_entity_type (order), ==, "order");
  assert_cell (fixture, order, "SK", "o5001");
  /* Each fact once: the header rows say PK, the labels EntityType. */
  g_assert_false (dyn_item_grid_get_column_visible (grid, "PK"));
  g_assert_false (dyn_item_grid_get_column_visible (grid, "EntityType"));
  g_assert_true (dyn_item_grid_get_column_visible (grid, "SK"));
  g_assert_cmpfloat (picture.brightness, >, 0.5);
}

/* The SQL Workbench page with @sql explained and run. */
static void
run_sql (Fixture    *fixture,
         const char *sql)
{
  DynSqlWorkbench *workbench = dyn_window_get_sql_workbench (fixture->window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "sql"));
  show_sidebar (fixture, FALSE);
  dyn_sql_workbench_set_text (workbench, sql);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (workbench), "sql.run", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_sql_workbench_get_error_text (workbench));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (workbench), >, 0);
  wait_frames (GTK_WIDGET (fixture->window), 3);
}

/* sql-workbench.png: a join through an index: the course's roster (GSI1)
 * and each student's profile (1 Query + 1 BatchGetItem); the plan's two
 * steps, the rows, a row's item in the detail pane when it maps to one. */
static void
test_sql_workbench (Fixture       *fixture,
                    gconstpointer  data)
{
  DynSqlWorkbench *workbench;
  g_autofree char *plan = NULL;

  if (fixture->window == NULL)
    return;
  workbench = dyn_window_get_sql_workbench (fixture->window);
  run_sql (fixture,
           "SELECT s.PK AS Student, s.SK, s.Name, s.Year, e.Grade, e.EnrolledOn\n"
           "FROM \"School.GSI1\" e\n"
           "JOIN School s ON s.PK = e.GSI1SK AND s.SK = 'PROFILE'\n"
           "WHERE e.GSI1PK = 'CRS#math204'\n"
           "ORDER BY e.GSI1SK");
  plan = dyn_sql_workbench_dup_plan_text (workbench);
  g_test_message ("plan: %s", plan);
  g_assert_nonnull (strstr (plan, "1. Query School.GSI1"));
  g_assert_nonnull (strstr (plan, "2. "));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (workbench), ==, 3);
  g_test_message ("status: %s", dyn_sql_workbench_get_status_text (workbench));
  /* A row showing the profile's full key (PK, SK) opens the profile. */
  g_assert_nonnull (dyn_sql_workbench_get_row (workbench, 0)->item);
  g_assert_true (dyn_sql_workbench_open_row (workbench, 0));
  save_picture (GTK_WINDOW (fixture->window), "sql-workbench.png");
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (dyn_sql_workbench_get_column_view (workbench))));
}

/* sql-workbench-dark.png: the seeds' read as SQL, dark. */
static void
test_sql_workbench_dark (Fixture       *fixture,
                         gconstpointer  data)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  DynSqlWorkbench *workbench;
  Picture picture;

  if (fixture->window == NULL)
    return;
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  workbench = dyn_window_get_sql_workbench (fixture->window);
  run_sql (fixture,
           "SELECT Detail, Name, Status, Budget, Tags\n"
           "FROM Workspaces\n"
           "WHERE EntityRef = 'WS#acme' AND Detail LIKE 'PROJ#%'\n"
           "ORDER BY Detail DESC");
  g_assert_nonnull (strstr (dyn_sql_workbench_get_status_text (workbench), "1 request"));
  picture = save_picture (GTK_WINDOW (fixture->window), "sql-workbench-dark.png");
  g_assert_cmpfloat (picture.brightness, <, 0.4);
}

/* sql-products.png (not in the README): a table without a sort key; an IN
 * on its hash key is one BatchGetItem, each row its item (binary, sets). */
static void
test_sql_products (Fixture       *fixture,
                   gconstpointer  data)
{
  DynSqlWorkbench *workbench;
  g_autofree char *plan = NULL;
  const DynSqlRow *row;

  if (fixture->window == NULL)
    return;
  workbench = dyn_window_get_sql_workbench (fixture->window);
  run_sql (fixture,
           "SELECT ProductId, Name, Category, Price, Stock, InStock, Tags, Thumbnail\n"
           "FROM Products\n"
           "WHERE ProductId IN ('P-1001', 'P-1004', 'P-1009', 'P-2001')\n"
           "ORDER BY Price DESC");
  plan = dyn_sql_workbench_dup_plan_text (workbench);
  g_test_message ("plan: %s", plan);
  g_test_message ("status: %s", dyn_sql_workbench_get_status_text (workbench));
  g_assert_nonnull (strstr (plan, "1. BatchGetItem Products"));
  g_assert_cmpuint (dyn_sql_workbench_get_n_rows (workbench), ==, 4);
  g_assert_nonnull (strstr (dyn_sql_workbench_get_status_text (workbench), "1 request"));
  row = dyn_sql_workbench_get_row (workbench, 0);
  g_assert_nonnull (row->item);
  g_assert_cmpstr (dyn_value_get_string (row->cells->pdata[0]), ==, "P-1004");
  g_assert_cmpstr (dyn_value_get_number (row->cells->pdata[3]), ==, "340.95");
  g_assert_true (dyn_sql_workbench_open_row (workbench, 0));
  save_picture (GTK_WINDOW (fixture->window), "sql-products.png");
}

/* sql-movies.png (not in the README): a number partition key (year) and a
 * string sort key (title): one Query, the range and ORDER BY DESC pushed
 * down; nested attributes through json_extract on the item column. */
static void
test_sql_movies (Fixture       *fixture,
                 gconstpointer  data)
{
  DynSqlWorkbench *workbench;
  g_autofree char *plan = NULL;
  guint n;

  if (fixture->window == NULL)
    return;
  workbench = dyn_window_get_sql_workbench (fixture->window);
  run_sql (fixture,
           "SELECT year, title, json_extract(item, '$.info.rating') AS rating,\n"
           "       json_extract(item, '$.info.directors[0]') AS director, info\n"
           "FROM Movies\n"
           "WHERE year = 2013 AND title >= 'G'\n"
           "ORDER BY title DESC");
  plan = dyn_sql_workbench_dup_plan_text (workbench);
  g_test_message ("plan: %s", plan);
  g_test_message ("status: %s", dyn_sql_workbench_get_status_text (workbench));
  g_assert_nonnull (strstr (plan, "1. Query Movies"));
  g_assert_null (strstr (plan, "reads the whole table"));
  g_assert_nonnull (strstr (dyn_sql_workbench_get_status_text (workbench), "1 request"));
  n = dyn_sql_workbench_get_n_rows (workbench);
  for (guint i = 0; i < n; i++)
    {
      const DynSqlRow *row = dyn_sql_workbench_get_row (workbench, i);

      g_assert_cmpint (dyn_value_get_value_type (row->cells->pdata[0]), ==, DYN_VALUE_N);
      g_assert_cmpstr (dyn_value_get_number (row->cells->pdata[0]), ==, "2013");
      g_assert_cmpint (strcmp (dyn_value_get_string (row->cells->pdata[1]), "G"), >=, 0);
      if (i > 0)
        g_assert_cmpint (strcmp (dyn_value_get_string (dyn_sql_workbench_get_row (workbench, i - 1)->cells->pdata[1]),
                                 dyn_value_get_string (row->cells->pdata[1])), >, 0);
    }
  save_picture (GTK_WINDOW (fixture->window), "sql-movies.png");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-screenshots");
  if (tmp_dir == NULL)
    return 0;
  /* Revealers and the sidebar at their end state at once. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
#ifdef GDK_WINDOWING_X11
  /* The pointer in the screen's corner, so that no row is drawn hovered. */
  if (GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
      Window root = DefaultRootWindow (dpy);

      XWarpPointer (dpy, None, root, 0, 0, 0, 0, DisplayWidth (dpy, DefaultScreen (dpy)) - 1,
                    DisplayHeight (dpy, DefaultScreen (dpy)) - 1);
      XFlush (dpy);
    }
#endif

  if (g_getenv ("DYN_SCREENSHOT_DIR") != NULL)
    out_dir = g_strdup (g_getenv ("DYN_SCREENSHOT_DIR"));
  else
    out_dir = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", "screenshots", NULL);
  g_assert_cmpint (g_mkdir_with_parents (out_dir, 0755), ==, 0);

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, size, func) \
  g_test_add ("/dyn/screenshots/" path, Fixture, &size, fixture_set_up, func, fixture_tear_down)
  ADD ("grouped", normal_size, test_grouped);
  ADD ("detail", normal_size, test_detail);
  ADD ("builder", normal_size, test_builder);
  ADD ("builder-filter-dark", normal_size, test_builder_filter_dark);
  ADD ("staged-diff", large_size, test_staged);
  ADD ("conflict", normal_size, test_conflict);
  ADD ("products", normal_size, test_products);
  ADD ("movies", normal_size, test_movies);
  ADD ("shop", normal_size, test_shop);
  ADD ("sql-workbench", normal_size, test_sql_workbench);
  ADD ("sql-workbench-dark", normal_size, test_sql_workbench_dark);
  ADD ("sql-products", normal_size, test_sql_products);
  ADD ("sql-movies", normal_size, test_sql_movies);
  ADD ("partiql", normal_size, test_partiql);
  ADD ("partiql-dark", normal_size, test_partiql_dark);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (out_dir);
  return status;
}
