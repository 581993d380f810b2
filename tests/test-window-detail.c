/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-detail"
#include "config.h"

#include <dlfcn.h>
#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The detail pane's tree in the main window under Xvfb against DynamoDB
 * Local, on a movies table (partition key year N, sort key title S, an
 * index on genre) and a hash-only products table: the key attributes come
 * first and are marked, the rest by name; empty strings and binaries read
 * unlike missing attributes, binary shows its bytes, huge numbers are
 * exact; "Expand All" (button, Ctrl+Shift+Right) and "Collapse All"; a
 * value deep in a map inside a list is edited in place with real keys (F2,
 * Enter, Escape, a double-click), staged with its guard, committed and read
 * back exactly; a number that is no DynamoDB number, a key and NULL are
 * refused with a message and nothing staged. With DYN_SCREENSHOT_DIR set,
 * the expanded tree and an edit in place are saved there. */

static DynApplication *app;
static char *tmp_dir;

static const char *rush =
  "{\"year\": 2013, \"title\": \"Rush\", \"zeta\": \"last\", \"genre\": \"Drama\", \"Budget\": 38000000,"
  " \"empty\": \"\", \"blob\": {\"$binary\": \"aGVsbG8=\"}, \"nothing\": {\"$binary\": \"\"},"
  " \"huge\": {\"$number\": \"12345678901234567890123456789012345678\"}, \"watched\": false, \"note\": null,"
  " \"info\": {\"rating\": 8.7, \"plot\": \"Hunt and Lauda\","
  "  \"ratings\": [{\"source\": \"imdb\", \"score\": 8.1}, {\"source\": \"rt\", \"score\": 89},"
  "   {\"source\": \"meta\", \"score\": 75, \"tags\": {\"$set\": [\"a\", \"b\"]}}]}}";

static const char *products[] = {
  "{\"sku\": \"p-1\", \"name\": \"Kettle\", \"price\": 29.5, \"Colour\": \"red\"}",
  "{\"sku\": \"p-2\", \"name\": \"Toaster\", \"price\": 35}",
};

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynClient          *other;
  char               *movies;
  char               *products;
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
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  const char *gsis[] = { "ByGenre:genre:S", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) item = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->movies = dyn_test_table_name ("Movies");
  fixture->products = dyn_test_table_name ("Products");
  g_assert_true (dyn_test_create_table (fixture->other, fixture->movies, "year:N", "title:S", gsis, &error));
  g_assert_no_error (error);
  item = dyn_test_plain_item (rush);
  g_assert_true (dyn_test_put_item (fixture->other, fixture->movies, item, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (fixture->other, fixture->products, "sku:S", NULL, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (products); i++)
    {
      g_autoptr(DynValue) product = dyn_test_plain_item (products[i]);

      g_assert_true (dyn_test_put_item (fixture->other, fixture->products, product, &error));
      g_assert_no_error (error);
    }

  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  dyn_item_grid_set_grouped (dyn_window_get_grid (fixture->window), FALSE);
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
  dyn_test_delete_table (fixture->other, fixture->movies, NULL);
  dyn_test_delete_table (fixture->other, fixture->products, NULL);
  g_clear_object (&fixture->other);
  g_free (fixture->movies);
  g_free (fixture->products);
}

static void
connect_read_only (Fixture  *fixture,
                   gboolean  read_only)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynConnection) connection = dyn_connection_new ("Local");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_connection_set_read_only (connection, read_only);
  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
  dyn_connection_store_add_async (fixture->store, connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  dyn_window_open_connection (fixture->window, connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

static void
connect (Fixture *fixture)
{
  connect_read_only (fixture, FALSE);
}

/* Opens @table and selects its item with @key (DynamoDB JSON): the detail
 * shows it. */
static DynItemDetail *
open_item (Fixture    *fixture,
           const char *table,
           const char *key)
{
  g_autoptr(DynValue) key_value = dyn_test_item (key);
  DynItemObject *row;
  DynItemDetail *detail = dyn_window_get_detail (fixture->window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  row = dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key_value);
  g_assert_nonnull (row);
  dyn_item_grid_select_item (dyn_window_get_grid (fixture->window), row, TRUE);
  settle ();
  g_assert_true (dyn_value_equal (dyn_item_detail_get_item (detail), dyn_item_object_get_item (row)));
  g_assert_cmpstr (dyn_item_detail_get_view (detail), ==, "tree");
  return detail;
}

static DynItemDetail *
open_rush (Fixture *fixture)
{
  connect (fixture);
  return open_item (fixture, fixture->movies, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
}

static DynItemObject *
rush_row (Fixture *fixture)
{
  g_autoptr(DynValue) key = dyn_test_item ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynValue *
stored_rush (Fixture *fixture)
{
  g_autoptr(DynValue) key = dyn_test_item ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");

  return dyn_test_get_item (fixture->other, fixture->movies, key, TRUE);
}

static DynValue *
at (DynValue   *item,
    const char *path_text)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_parse (path_text, NULL);

  g_assert_nonnull (path);
  return dyn_path_lookup (item, path);
}

static guint
n_rows (DynItemDetail *detail)
{
  return g_list_model_get_n_items (dyn_item_detail_get_tree (detail));
}

/* The paths of the rows, joined by spaces. */
static char *
row_paths (DynItemDetail *detail)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n_rows (detail); i++)
    {
      g_autofree char *path = dyn_item_detail_dup_row_path (detail, i);

      g_string_append_printf (s, i ? " %s" : "%s", path);
    }
  return g_string_free (s, FALSE);
}

static char *
row_text (DynItemDetail *detail,
          const char    *path)
{
  int position = dyn_item_detail_find_row (detail, path);

  g_assert_cmpint (position, >=, 0);
  return dyn_item_detail_dup_row_text (detail, position);
}

/* The visible label under @widget that reads @text, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0 &&
      gtk_widget_is_drawable (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
screenshot (Fixture    *fixture,
            const char *name)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  settle ();
  g_usleep (100000);
  settle ();
  g_assert_true (dyn_window_save_png (GTK_WINDOW (fixture->window), path, &error));
  g_assert_no_error (error);
  g_test_message ("saved %s", path);
}

/* ------------------------------------------------------------------------ */
/* Keys and the pointer, for real through the X server (XTest) */

#ifdef GDK_WINDOWING_X11
typedef int (*FakeKeyFunc) (Display *display, unsigned int keycode, Bool is_press, unsigned long delay);
typedef int (*FakeButtonFunc) (Display *display, unsigned int button, Bool is_press, unsigned long delay);
typedef int (*FakeMotionFunc) (Display *display, int screen, int x, int y, unsigned long delay);
typedef KeyCode (*KeysymToKeycodeFunc) (Display *display, KeySym keysym);
typedef int (*FlushFunc) (Display *display);
typedef Bool (*TranslateFunc) (Display *display, Window src, Window dest, int src_x, int src_y,
                               int *dest_x, int *dest_y, Window *child);
typedef Window (*RootWindowFunc) (Display *display);

static FakeKeyFunc fake_key;
static FakeButtonFunc fake_button;
static FakeMotionFunc fake_motion;
static KeysymToKeycodeFunc keysym_to_keycode;
static FlushFunc x_flush;
static TranslateFunc translate_coordinates;
static RootWindowFunc default_root_window;
#endif

static gboolean
have_xtest (void)
{
#ifdef GDK_WINDOWING_X11
  static void *xtst, *x11;

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return FALSE;
  if (xtst == NULL)
    xtst = dlopen ("libXtst.so.6", RTLD_NOW);
  if (x11 == NULL)
    x11 = dlopen ("libX11.so.6", RTLD_NOW);
  if (xtst == NULL || x11 == NULL)
    return FALSE;
  fake_key = (FakeKeyFunc) dlsym (xtst, "XTestFakeKeyEvent");
  fake_button = (FakeButtonFunc) dlsym (xtst, "XTestFakeButtonEvent");
  fake_motion = (FakeMotionFunc) dlsym (xtst, "XTestFakeMotionEvent");
  keysym_to_keycode = (KeysymToKeycodeFunc) dlsym (x11, "XKeysymToKeycode");
  x_flush = (FlushFunc) dlsym (x11, "XFlush");
  translate_coordinates = (TranslateFunc) dlsym (x11, "XTranslateCoordinates");
  default_root_window = (RootWindowFunc) dlsym (x11, "XDefaultRootWindow");
  return fake_key && fake_button && fake_motion && keysym_to_keycode && x_flush && translate_coordinates &&
         default_root_window;
#else
  return FALSE;
#endif
}

static void
let_events_land (void)
{
  for (guint i = 0; i < 30; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static void
press_keys (guint           keyval,
            GdkModifierType modifiers)
{
  let_events_land ();
#ifdef GDK_WINDOWING_X11
  {
    Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
    unsigned int key = keysym_to_keycode (dpy, keyval);
    unsigned int ctl = keysym_to_keycode (dpy, GDK_KEY_Control_L);
    unsigned int shift = keysym_to_keycode (dpy, GDK_KEY_Shift_L);

    if (modifiers & GDK_CONTROL_MASK)
      fake_key (dpy, ctl, True, 0);
    if (modifiers & GDK_SHIFT_MASK)
      fake_key (dpy, shift, True, 0);
    fake_key (dpy, key, True, 0);
    fake_key (dpy, key, False, 0);
    if (modifiers & GDK_SHIFT_MASK)
      fake_key (dpy, shift, False, 0);
    if (modifiers & GDK_CONTROL_MASK)
      fake_key (dpy, ctl, False, 0);
    x_flush (dpy);
  }
#endif
  let_events_land ();
}

static void
press (guint keyval)
{
  press_keys (keyval, 0);
}

/* Clicks @widget @n times, a few pixels into it, with the first button. */
static void
click (GtkWidget *widget,
       guint      n)
{
  let_events_land ();
#ifdef GDK_WINDOWING_X11
  {
    Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
    GtkNative *native = gtk_widget_get_native (widget);
    graphene_point_t point;
    double sx, sy;
    int rx, ry;
    Window child;

    g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native),
                                             &GRAPHENE_POINT_INIT (6, gtk_widget_get_height (widget) / 2.0), &point));
    gtk_native_get_surface_transform (native, &sx, &sy);
    translate_coordinates (dpy, gdk_x11_surface_get_xid (gtk_native_get_surface (native)), default_root_window (dpy),
                           (int) (point.x + sx), (int) (point.y + sy), &rx, &ry, &child);
    fake_motion (dpy, -1, rx, ry, 0);
    x_flush (dpy);
    let_events_land ();
    for (guint i = 0; i < n; i++)
      {
        fake_button (dpy, 1, True, 0);
        fake_button (dpy, 1, False, 0);
      }
    x_flush (dpy);
  }
#endif
  let_events_land ();
}

/* Selects the row at @path and puts the keyboard focus in the tree. */
static void
focus_row (DynItemDetail *detail,
           const char    *path)
{
  GtkWidget *tree = GTK_WIDGET (gtk_widget_get_first_child (GTK_WIDGET (detail)));

  g_assert_true (dyn_item_detail_select_path (detail, path));
  settle ();
  /* The tree view: the first column view under the detail. */
  for (GtkWidget *w = tree; w != NULL;)
    {
      if (GTK_IS_COLUMN_VIEW (w))
        {
          gtk_widget_grab_focus (w);
          break;
        }
      if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != NULL && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w ? gtk_widget_get_next_sibling (w) : NULL;
        }
    }
  settle ();
}

/* ------------------------------------------------------------------------ */

/* Keys first and marked, then the rest by name; what the values show. */
static void
test_key_order (Fixture       *fixture,
                gconstpointer  data)
{
  DynItemDetail *detail;
  g_autofree char *paths = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *nothing = NULL;
  g_autofree char *blob = NULL;
  g_autofree char *huge = NULL;
  g_autofree char *product_paths = NULL;
  GtkWidget *label;

  if (fixture->window == NULL)
    return;
  detail = open_rush (fixture);

  paths = row_paths (detail);
  g_assert_cmpstr (paths, ==, "year title genre blob Budget empty huge info note nothing watched zeta");
  g_assert_cmpint (dyn_item_detail_get_row_key (detail, 0), ==, DYN_OUTLINE_PARTITION_KEY);
  g_assert_cmpint (dyn_item_detail_get_row_key (detail, 1), ==, DYN_OUTLINE_SORT_KEY);
  g_assert_cmpint (dyn_item_detail_get_row_key (detail, 2), ==, DYN_OUTLINE_INDEX_KEY);
  g_assert_cmpint (dyn_item_detail_get_row_key (detail, 3), ==, DYN_OUTLINE_NOT_KEY);
  /* Marked where the user sees them, the index named in the tooltip. */
  g_assert_nonnull (find_label (GTK_WIDGET (detail), "partition key"));
  g_assert_nonnull (find_label (GTK_WIDGET (detail), "sort key"));
  label = find_label (GTK_WIDGET (detail), "index key");
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_widget_get_tooltip_text (label), ==, "Partition key of index ByGenre");

  /* Empty values are shown as such (a missing attribute has no row),
   * binary as its bytes, a 38-digit number exactly. */
  empty = row_text (detail, "empty");
  g_assert_cmpstr (empty, ==, "empty string");
  label = find_label (GTK_WIDGET (detail), "empty string");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (label, "dyn-empty-value"));
  nothing = row_text (detail, "nothing");
  g_assert_cmpstr (nothing, ==, "empty binary");
  blob = row_text (detail, "blob");
  g_assert_cmpstr (blob, ==, "5 bytes · 68 65 6c 6c 6f · “hello”");
  g_assert_nonnull (find_label (GTK_WIDGET (detail), blob));
  huge = row_text (detail, "huge");
  g_assert_cmpstr (huge, ==, "12345678901234567890123456789012345678");
  g_assert_nonnull (find_label (GTK_WIDGET (detail), huge));
  g_assert_cmpint (dyn_item_detail_find_row (detail, "missing"), ==, -1);

  /* A hash-only table: its one key first, no sort key. */
  detail = open_item (fixture, fixture->products, "{\"sku\":{\"S\":\"p-1\"}}");
  product_paths = row_paths (detail);
  g_assert_cmpstr (product_paths, ==, "sku Colour name price");
  g_assert_cmpint (dyn_item_detail_get_row_key (detail, 0), ==, DYN_OUTLINE_PARTITION_KEY);
  g_assert_nonnull (find_label (GTK_WIDGET (detail), "partition key"));
  g_assert_null (find_label (GTK_WIDGET (detail), "sort key"));
  screenshot (fixture, "detail-hash-only.png");
}

/* Expand All and Collapse All: the button's action, the shortcut from the
 * grid, the context menu's action. */
static void
test_expand_all (Fixture       *fixture,
                 gconstpointer  data)
{
  DynItemDetail *detail;
  g_autofree char *paths = NULL;
  guint top;

  if (fixture->window == NULL)
    return;
  detail = open_rush (fixture);
  top = n_rows (detail);
  g_assert_cmpuint (top, ==, 12);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "detail.expand-all", NULL));
  settle ();
  paths = row_paths (detail);
  g_assert_cmpstr (paths, ==,
                   "year title genre blob Budget empty huge "
                   "info info.plot info.rating info.ratings "
                   "info.ratings[0] info.ratings[0].score info.ratings[0].source "
                   "info.ratings[1] info.ratings[1].score info.ratings[1].source "
                   "info.ratings[2] info.ratings[2].score info.ratings[2].source "
                   "info.ratings[2].tags info.ratings[2].tags[0] info.ratings[2].tags[1] "
                   "note nothing watched zeta");
  screenshot (fixture, "detail-expanded.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "detail.collapse-all", NULL));
  settle ();
  g_assert_cmpuint (n_rows (detail), ==, top);

  /* Ctrl+Shift+Right and Ctrl+Shift+Left, pressed with the focus in the grid. */
  if (!have_xtest ())
    {
      g_test_message ("no XTest: the shortcuts are not pressed");
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_column_view (dyn_window_get_grid (fixture->window))));
  press_keys (GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_cmpuint (n_rows (detail), ==, 27);
  press_keys (GDK_KEY_Left, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_cmpuint (n_rows (detail), ==, top);

  /* A text field with the focus keeps the keys (it selects words). */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.focus-filter", NULL));
  settle ();
  g_assert_true (GTK_IS_EDITABLE (gtk_root_get_focus (GTK_ROOT (fixture->window))));
  press_keys (GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_cmpuint (n_rows (detail), ==, top);
}

/* A number in a map inside a list, edited in place with real keys: staged
 * (not written), shown as changed, committed and read back exactly. A
 * boolean toggles, a set element keeps the set's type, a double-click
 * edits too. */
static void
test_nested_edit (Fixture       *fixture,
                  gconstpointer  data)
{
  DynItemDetail *detail;
  DynEditSession *session;
  GtkEditable *editor;
  g_autoptr(DynValue) stored = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autofree char *guard = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *selected = NULL;
  GtkWidget *label;
  const char *exact = "98765432109876543210.123456789";
  int position;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  detail = open_rush (fixture);
  session = dyn_window_get_edit_session (fixture->window);

  /* F2 on info.ratings[2].score opens an entry with its exact text. */
  focus_row (detail, "info.ratings[2].score");
  press (GDK_KEY_F2);
  editor = dyn_item_detail_get_editor (detail);
  g_assert_nonnull (editor);
  g_assert_cmpstr (gtk_editable_get_text (editor), ==, "75");
  gtk_editable_set_text (editor, exact);
  screenshot (fixture, "detail-edit-in-place.png");

  /* Enter stages it: one change, nothing written yet. */
  press (GDK_KEY_Return);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_null (dyn_item_detail_get_message (detail));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpint (dyn_item_object_get_state (rush_row (fixture)), ==, DYN_ITEM_STATE_CHANGED);
  before = stored_rush (fixture);
  g_assert_cmpstr (dyn_value_get_number (at (before, "info.ratings[2].score")), ==, "75");
  guard = dyn_edit_session_describe_guard (session, 0, NULL, NULL);
  g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.ratings[2].score is still 75, "
                              "info.ratings still has 3 elements");
  /* The tree shows the staged value where it was, still expanded and
   * selected, marked as changed. */
  shown = row_text (detail, "info.ratings[2].score");
  g_assert_cmpstr (shown, ==, exact);
  label = find_label (GTK_WIDGET (detail), exact);
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_has_css_class (label, "dyn-detail-changed"));
  position = dyn_item_detail_find_row (detail, "info.ratings[2].score");
  g_assert_cmpint (position, >=, 0);
  selected = dyn_item_detail_dup_row_path (detail, position);
  g_assert_cmpstr (selected, ==, "info.ratings[2].score");
  screenshot (fixture, "detail-staged.png");

  /* F2 on a boolean toggles it. */
  focus_row (detail, "watched");
  g_assert_true (dyn_item_detail_select_path (detail, "watched"));
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_true (dyn_value_get_bool (at (dyn_item_object_get_item (rush_row (fixture)), "watched")));

  /* A double-click on a set element's value edits it as a string. */
  focus_row (detail, "info.ratings[2].tags[1]");
  label = find_label (GTK_WIDGET (detail), "b");
  g_assert_nonnull (label);
  click (label, 2);
  editor = dyn_item_detail_get_editor (detail);
  g_assert_nonnull (editor);
  g_assert_cmpstr (gtk_editable_get_text (editor), ==, "b");
  gtk_editable_set_text (editor, "c");
  press (GDK_KEY_Return);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);

  /* Commit: the values arrive exactly, with their types. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.commit-changes", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (fixture->window), ==, "Committed 1 change in 1 transaction");
  stored = stored_rush (fixture);
  g_assert_cmpint (dyn_value_get_value_type (at (stored, "info.ratings[2].score")), ==, DYN_VALUE_N);
  g_assert_cmpstr (dyn_value_get_number (at (stored, "info.ratings[2].score")), ==, exact);
  g_assert_cmpstr (dyn_value_get_number (at (stored, "info.ratings[1].score")), ==, "89");
  g_assert_true (dyn_value_get_bool (at (stored, "watched")));
  {
    g_autoptr(DynValue) tags = dyn_test_plain_item ("{\"t\": {\"$set\": [\"a\", \"c\"]}}");

    g_assert_true (dyn_value_equal (at (stored, "info.ratings[2].tags"), dyn_value_map_lookup (tags, "t")));
  }
  settle ();
  g_clear_pointer (&shown, g_free);
  shown = row_text (detail, "info.ratings[2].score");
  g_assert_cmpstr (shown, ==, exact);
}

/* Text that is no DynamoDB number is refused with a message; nothing is
 * staged and the entry stays open with the text. Escape then cancels. */
static void
test_invalid_number (Fixture       *fixture,
                     gconstpointer  data)
{
  DynItemDetail *detail;
  DynEditSession *session;
  GtkEditable *editor;
  g_autofree char *shown = NULL;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  detail = open_rush (fixture);
  session = dyn_window_get_edit_session (fixture->window);

  focus_row (detail, "info.rating");
  press (GDK_KEY_F2);
  editor = dyn_item_detail_get_editor (detail);
  g_assert_nonnull (editor);
  gtk_editable_set_text (editor, "8.7.1");
  press (GDK_KEY_Return);
  g_assert_cmpstr (dyn_item_detail_get_message (detail), ==, "info.rating: “8.7.1” is not a number DynamoDB can store");
  g_assert_nonnull (find_label (GTK_WIDGET (detail), "info.rating: “8.7.1” is not a number DynamoDB can store"));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpint (dyn_item_object_get_state (rush_row (fixture)), ==, DYN_ITEM_STATE_UNCHANGED);
  editor = dyn_item_detail_get_editor (detail);
  g_assert_nonnull (editor);
  g_assert_cmpstr (gtk_editable_get_text (editor), ==, "8.7.1");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (editor), "error"));
  screenshot (fixture, "detail-invalid-number.png");

  /* Too many digits for DynamoDB: refused too. */
  gtk_editable_set_text (editor, "1234567890123456789012345678901234567890");
  press (GDK_KEY_Return);
  g_assert_nonnull (strstr (dyn_item_detail_get_message (detail), "is not a number DynamoDB can store"));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);

  /* Escape: the entry closes, nothing staged, the value as it was. */
  press (GDK_KEY_Escape);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_null (dyn_item_detail_get_message (detail));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  shown = row_text (detail, "info.rating");
  g_assert_cmpstr (shown, ==, "8.7");
  /* The window's Escape (cancel a read) did not see the key either. */
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

/* Escape cancels a valid edit too; keys, NULL and maps are not edited in
 * place, each with its reason. */
static void
test_escape_and_refusals (Fixture       *fixture,
                          gconstpointer  data)
{
  DynItemDetail *detail;
  DynEditSession *session;
  GtkEditable *editor;
  g_autofree char *shown = NULL;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  detail = open_rush (fixture);
  session = dyn_window_get_edit_session (fixture->window);

  focus_row (detail, "info.plot");
  press (GDK_KEY_F2);
  editor = dyn_item_detail_get_editor (detail);
  g_assert_nonnull (editor);
  g_assert_cmpstr (gtk_editable_get_text (editor), ==, "Hunt and Lauda");
  gtk_editable_set_text (editor, "Something else");
  press (GDK_KEY_Escape);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  shown = row_text (detail, "info.plot");
  g_assert_cmpstr (shown, ==, "Hunt and Lauda");

  /* The sort key: another key is another item. */
  focus_row (detail, "title");
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_nonnull (strstr (dyn_item_detail_get_message (detail), "title is part of the table’s key"));
  g_assert_nonnull (strstr (dyn_item_detail_get_message (detail), "a delete and a put"));
  /* NULL holds no text. */
  focus_row (detail, "note");
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpstr (dyn_item_detail_get_message (detail), ==,
                   "note: a NULL value holds no text; change its type in the JSON editor");
  /* A map opens and closes on Enter; F2 says where it is edited. */
  focus_row (detail, "info");
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpstr (dyn_item_detail_get_message (detail), ==, "info: maps, lists and sets are edited in the JSON editor");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
}

/* Where nothing can be staged, the tree says why and opens no entry: rows
 * read from an index, a read-only connection. The keys still come first. */
static void
test_not_editable_here (Fixture       *fixture,
                        gconstpointer  data)
{
  DynItemDetail *detail;
  DynItemObject *row;
  g_autofree char *paths = NULL;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  detail = open_rush (fixture);

  /* Follow the genre to its index: the rows are the index's. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.follow-index", "(ss)",
                                             "genre", "{\"S\":\"Drama\"}"));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_read_request_get_index (dyn_window_get_read_request (fixture->window)), ==, "ByGenre");
  row = dyn_item_grid_get_selected_item (dyn_window_get_grid (fixture->window));
  if (row == NULL)
    {
      g_autoptr(DynValue) key = dyn_test_item ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");

      row = dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
      g_assert_nonnull (row);
      dyn_item_grid_select_item (dyn_window_get_grid (fixture->window), row, TRUE);
      settle ();
    }
  paths = row_paths (detail);
  g_assert_true (g_str_has_prefix (paths, "year title genre "));
  focus_row (detail, "info.plot");
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpstr (dyn_item_detail_get_message (detail), ==,
                   "Items read from an index are not edited here: choose “Table” to edit them");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (fixture->window)), ==, 0);
}

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  DynItemDetail *detail;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  connect_read_only (fixture, TRUE);
  detail = open_item (fixture, fixture->movies, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
  focus_row (detail, "watched");
  press (GDK_KEY_F2);
  g_assert_cmpstr (dyn_item_detail_get_message (detail), ==,
                   "This connection is read-only: nothing can be changed or written");
  focus_row (detail, "info.rating");
  press (GDK_KEY_F2);
  g_assert_null (dyn_item_detail_get_editor (detail));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (fixture->window)), ==, 0);
  g_assert_false (dyn_value_get_bool (at (dyn_item_object_get_item (rush_row (fixture)), "watched")));
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

static GtkPopover *
find_popover (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkPopover *found;

      if (GTK_IS_POPOVER (child))
        return GTK_POPOVER (child);
      found = find_popover (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A right-click on a value opens the row's menu; Copy Value (Ctrl+C) and
 * Copy Path copy the exact value and the path as the expression syntax
 * spells it. */
static void
test_context_menu (Fixture       *fixture,
                   gconstpointer  data)
{
  DynItemDetail *detail;
  GtkWidget *label;
  GtkPopover *popover;
  g_autofree char *path = NULL;
  g_autofree char *value = NULL;
  g_autofree char *map = NULL;

  if (fixture->window == NULL)
    return;
  if (!have_xtest ())
    {
      g_test_skip ("no XTest on this display");
      return;
    }
  detail = open_rush (fixture);
  g_assert_true (dyn_item_detail_select_path (detail, "info.ratings[2].score"));
  settle ();
  g_assert_true (dyn_item_detail_select_path (detail, "huge"));
  settle ();
  label = find_label (GTK_WIDGET (detail), "12345678901234567890123456789012345678");
  g_assert_nonnull (label);
#ifdef GDK_WINDOWING_X11
  {
    /* The secondary button, for real. */
    Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());

    click (label, 0);
    fake_button (dpy, 3, True, 0);
    fake_button (dpy, 3, False, 0);
    x_flush (dpy);
    let_events_land ();
  }
#endif
  popover = find_popover (GTK_WIDGET (detail));
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  if (g_getenv ("DYN_SCREENSHOT_DIR") != NULL)
    {
      /* The menu is a surface of its own: drawn by itself. */
      g_autofree char *file = g_build_filename (g_getenv ("DYN_SCREENSHOT_DIR"), "detail-context-menu.png", NULL);
      g_autoptr(GError) error = NULL;

      settle ();
      g_assert_true (dyn_window_save_png ((GtkWindow *) popover, file, &error));
      g_assert_no_error (error);
    }
  gtk_popover_popdown (popover);

  /* Ctrl+C in the tree copies the selected row's exact value. */
  focus_row (detail, "huge");
  press_keys (GDK_KEY_c, GDK_CONTROL_MASK);
  value = clipboard_text (GTK_WIDGET (detail));
  g_assert_cmpstr (value, ==, "12345678901234567890123456789012345678");
  g_assert_true (dyn_item_detail_select_path (detail, "info.ratings[2].score"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "detail.copy-path", NULL));
  path = clipboard_text (GTK_WIDGET (detail));
  g_assert_cmpstr (path, ==, "info.ratings[2].score");
  g_assert_true (dyn_item_detail_select_path (detail, "info.ratings[2]"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "detail.copy-value", NULL));
  map = clipboard_text (GTK_WIDGET (detail));
  {
    /* Plain JSON, the set kept as a set. */
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) copied = dyn_item_from_plain_json_string (map, -1, &error);

    g_assert_no_error (error);
    g_assert_true (dyn_value_equal (copied, at (dyn_item_detail_get_item (detail), "info.ratings[2]")));
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (copied, "tags")), ==, DYN_VALUE_SS);
  }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-detail");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-detail/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("key-order", test_key_order);
  ADD ("expand-all", test_expand_all);
  ADD ("nested-edit", test_nested_edit);
  ADD ("invalid-number", test_invalid_number);
  ADD ("escape-and-refusals", test_escape_and_refusals);
  ADD ("not-editable-here", test_not_editable_here);
  ADD ("read-only", test_read_only);
  ADD ("context-menu", test_context_menu);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
