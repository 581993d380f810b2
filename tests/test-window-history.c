/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-history"
#include "config.h"

#include <dlfcn.h>
#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-connection-editor.h"
#include "dyn-expression-builder-private.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* Going back to what was read, in the real window under Xvfb against
 * DynamoDB Local: Back and Forward (the actions and Alt+Left/Right pressed
 * for real) restore the builder's text and index and the rows; a followed
 * key link and back; staged edits survive both, also across tables; the
 * recent reads of a table; saved queries that outlive the window, with an
 * exact number; a file of saved queries that cannot be read; Ctrl+C and
 * the row menu copy JSON lines in both formats; Enter in the table filter;
 * the empty window's "Add Connection". Screenshots of the popover, the row
 * menu and the empty window. */

static DynApplication *app;
static char *tmp_dir;
static char *movies;
static char *plays;

/* year (N) + title (S), byGenre: genre (S) + year; Rush has a number no
 * double holds, binary and a set. */
static const char *films[] = {
  "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},\"rating\":{\"N\":\"8.1\"},\"genre\":{\"S\":\"Drama\"},"
  "\"gross\":{\"N\":\"90247624.000000000000000000000000000001\"},\"poster\":{\"B\":\"AP8=\"},"
  "\"tags\":{\"SS\":[\"f1\",\"bio\"]}}",
  "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Gravity\"},\"rating\":{\"N\":\"7.7\"},\"genre\":{\"S\":\"SciFi\"}}",
  "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Her\"},\"rating\":{\"N\":\"8\"},\"genre\":{\"S\":\"Drama\"},"
  "\"gross\":{\"N\":\"90247624\"}}",
  "{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Interstellar\"},\"rating\":{\"N\":\"8.6\"},\"genre\":{\"S\":\"SciFi\"}}",
  "{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Whiplash\"},\"rating\":{\"N\":\"8.5\"},\"genre\":{\"S\":\"Drama\"}}",
  "{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Boyhood\"},\"rating\":{\"N\":\"7.9\"},\"genre\":{\"S\":\"Drama\"}}",
  "{\"year\":{\"N\":\"2015\"},\"title\":{\"S\":\"Room\"},\"rating\":{\"N\":\"8.1\"},\"genre\":{\"S\":\"Drama\"}}",
};

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
} Fixture;

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
settle (void)
{
  for (guint i = 0; i < 15; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static gboolean
activate (DynWindow  *window,
          const char *action,
          GVariant   *parameter)
{
  gboolean done = gtk_widget_activate_action_variant (GTK_WIDGET (window), action, parameter);

  dyn_test_wait_idle (window);
  return done;
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
    "{\"AttributeName\":\"title\",\"AttributeType\":\"S\"},{\"AttributeName\":\"genre\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byGenre\",\"KeySchema\":[{\"AttributeName\":\"genre\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"year\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", movies);
  g_assert_true (dyn_test_create_table_json (client, movies, params, &error));
  g_assert_no_error (error);
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (films); i++)
    g_ptr_array_add (items, dyn_test_item (films[i]));
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

static char *
queries_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "dynoscope", "queries.json", NULL);
}

static DynWindow *
new_window (Fixture *fixture)
{
  DynWindow *window = dyn_window_new (GTK_APPLICATION (app), fixture->store);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  g_object_ref_sink (window);
  g_object_ref (window);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  return window;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autofree char *queries = queries_path ();

  g_unlink (path);
  g_unlink (queries);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = new_window (fixture);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_clear_object (&fixture->connection);
  g_assert_finalize_object (fixture->store);
}

static void
connect (Fixture *fixture)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (fixture->connection == NULL)
    {
      fixture->connection = dyn_connection_new ("Local");
      dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
      dyn_connection_set_endpoint_url (fixture->connection, dyn_test_server_get_endpoint (server));
      dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb,
                                      &result);
      dyn_test_wait (&result);
      g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
      g_assert_no_error (error);
    }
  dyn_window_open_connection (fixture->window, fixture->connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  if (dyn_window_get_connection (fixture->window) == NULL)
    connect (fixture);
  g_assert_true (activate (fixture->window, "win.open-table", g_variant_new_string (table)));
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
}

static guint
n_items (Fixture *fixture)
{
  return dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window));
}

static char *
builder_text (Fixture *fixture)
{
  return dyn_expression_builder_dup_text (dyn_window_get_builder (fixture->window));
}

static void
run_text (Fixture    *fixture,
          const char *text)
{
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), text);
  g_assert_true (activate (fixture->window, "win.query", NULL));
  g_assert_null (dyn_window_get_error_text (fixture->window));
}

static void
assert_shows (Fixture    *fixture,
              const char *text,
              const char *index,
              guint       items)
{
  g_autofree char *shown = builder_text (fixture);

  g_assert_cmpstr (shown, ==, text);
  g_assert_cmpstr (dyn_expression_builder_get_index (dyn_window_get_builder (fixture->window)), ==, index);
  g_assert_cmpstr (dyn_window_get_index (fixture->window), ==, index);
  g_assert_cmpuint (n_items (fixture), ==, items);
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *year,
         const char *title)
{
  g_autofree char *json = g_strdup_printf ("{\"year\":{\"N\":\"%s\"},\"title\":{\"S\":\"%s\"}}", year, title);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

/* Keys pressed for real through the X server (XTest). */

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

/* @modifier: 0, GDK_KEY_Control_L or GDK_KEY_Alt_L */
static void
press (guint keyval,
       guint modifier)
{
  settle ();
#ifdef GDK_WINDOWING_X11
  Display *dpy = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
  unsigned int key = XKeysymToKeycode (dpy, keyval);
  unsigned int mod = modifier ? XKeysymToKeycode (dpy, modifier) : 0;

  if (mod)
    fake_key (dpy, mod, True, 0);
  fake_key (dpy, key, True, 0);
  fake_key (dpy, key, False, 0);
  if (mod)
    fake_key (dpy, mod, False, 0);
  XFlush (dpy);
#endif
  settle ();
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

/* Screenshots: the window, and a popover of it drawn where it is. */

static GdkTexture *
render (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return NULL;
  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

static cairo_surface_t *
texture_surface (GdkTexture *texture)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, gdk_texture_get_width (texture),
                                                         gdk_texture_get_height (texture));

  gdk_texture_download (texture, cairo_image_surface_get_data (surface), cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  return surface;
}

static void
screenshot (DynWindow  *window,
            GtkWidget  *popover,
            const char *name)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR") ? g_getenv ("DYN_SCREENSHOT_DIR") : g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *path = g_build_filename (dir ? dir : tmp_dir, name, NULL);
  g_autoptr(GdkTexture) base = NULL;
  g_autoptr(GdkTexture) top = NULL;
  cairo_surface_t *surface, *over;
  cairo_t *cr;
  double wx, wy, px, py;

  for (guint i = 0; i < 20; i++)
    {
      dyn_test_iterate ();
      g_usleep (20000);
    }
  base = render (GTK_WIDGET (window));
  g_assert_nonnull (base);
  surface = texture_surface (base);
  if (popover != NULL)
    {
      GdkSurface *popup = gtk_native_get_surface (GTK_NATIVE (popover));

      top = render (popover);
      g_assert_nonnull (top);
      over = texture_surface (top);
      gtk_native_get_surface_transform (GTK_NATIVE (window), &wx, &wy);
      gtk_native_get_surface_transform (GTK_NATIVE (popover), &px, &py);
      cr = cairo_create (surface);
      cairo_set_source_surface (cr, over, gdk_popup_get_position_x (GDK_POPUP (popup)) + px - wx,
                                gdk_popup_get_position_y (GDK_POPUP (popup)) + py - wy);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (over);
    }
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (surface);
  g_test_message ("screenshot: %s", path);
}

static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether the header bar's button of @action can be clicked. */
static gboolean
enabled (DynWindow  *window,
         const char *action)
{
  GtkWidget *button = find_actionable (GTK_WIDGET (window), action);

  g_assert_nonnull (button);
  dyn_test_iterate ();
  return gtk_widget_get_sensitive (button);
}

/* ------------------------------------------------------------------------ */

/* Back and Forward: the builder's text and index as they were, and the
 * rows, read again; a read from the middle drops what was ahead. */
static void
test_back_forward (Fixture       *fixture,
                   gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynExpressionBuilder *builder;
  DynHistory *history;
  DynReadRequest *before;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  history = dyn_window_get_history (window);
  g_assert_false (enabled (window, "win.go-back"));
  open_table (fixture, movies);
  builder = dyn_window_get_builder (window);
  g_assert_cmpuint (dyn_history_get_length (history), ==, 1);
  run_text (fixture, "year = 2013");
  g_assert_cmpuint (n_items (fixture), ==, 3);
  run_text (fixture, "year = 2014 AND rating > 8");
  g_assert_cmpuint (n_items (fixture), ==, 2);
  dyn_expression_builder_set_index (builder, "byGenre");
  run_text (fixture, "genre = \"SciFi\"");
  assert_shows (fixture, "genre = \"SciFi\"", "byGenre", 2);
  g_assert_cmpuint (dyn_history_get_length (history), ==, 4);
  /* F5 is the same read: no new entry. */
  g_assert_true (activate (window, "win.refresh", NULL));
  g_assert_cmpuint (dyn_history_get_length (history), ==, 4);
  g_assert_false (enabled (window, "win.go-forward"));

  /* Back: the text and the index, read again (a new request: it costs
   * what the read costs, and the status line says what it did). */
  before = dyn_window_get_read_request (window);
  g_assert_true (activate (window, "win.go-back", NULL));
  g_assert_true (dyn_window_get_read_request (window) != before);
  assert_shows (fixture, "year = 2014 AND rating > 8", NULL, 2);
  sent = dyn_window_get_request (window);
  g_assert_cmpint (sent->op, ==, DYN_OP_QUERY);
  g_assert_nonnull (sent->filter);
  g_assert_true (g_str_has_prefix (dyn_window_get_status_text (window), "Query · 1 request"));
  g_assert_nonnull (strstr (dyn_window_get_status_text (window), "RCU"));
  g_assert_cmpuint (dyn_history_get_position (history), ==, 2);
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (activate (window, "win.go-back", NULL));
  /* Opening the table: every item. */
  assert_shows (fixture, "", NULL, G_N_ELEMENTS (films));
  g_assert_cmpint (dyn_window_get_request (window)->op, ==, DYN_OP_SCAN);
  g_assert_false (enabled (window, "win.go-back"));
  g_assert_cmpuint (dyn_history_get_length (history), ==, 4);

  g_assert_true (activate (window, "win.go-forward", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (activate (window, "win.go-forward", NULL));
  g_assert_true (activate (window, "win.go-forward", NULL));
  assert_shows (fixture, "genre = \"SciFi\"", "byGenre", 2);
  g_assert_false (enabled (window, "win.go-forward"));

  /* A new read from the middle: what was ahead is gone. */
  g_assert_true (activate (window, "win.go-back", NULL));
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  run_text (fixture, "year = 2015");
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_cmpuint (dyn_history_get_length (history), ==, 3);
  g_assert_false (enabled (window, "win.go-forward"));

  /* Alt+Left and Alt+Right, pressed for real, with the focus in the rows. */
  if (!have_xtest ())
    {
      g_test_message ("no XTest: Alt+Left/Right not pressed");
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (dyn_item_grid_get_column_view (dyn_window_get_grid (window))));
  before = dyn_window_get_read_request (window);
  press (GDK_KEY_Left, GDK_KEY_Alt_L);
  wait_new_read (fixture, before);
  assert_shows (fixture, "year = 2013", NULL, 3);
  before = dyn_window_get_read_request (window);
  press (GDK_KEY_Right, GDK_KEY_Alt_L);
  wait_new_read (fixture, before);
  assert_shows (fixture, "year = 2015", NULL, 1);
}

/* A followed key link is a read Back returns from. */
static void
test_follow_back (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynReadEntry *current;
  g_autoptr(DynValue) drama = dyn_value_new_string ("Drama");
  g_autofree char *followed = NULL;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  run_text (fixture, "year = 2013");
  g_signal_emit_by_name (dyn_window_get_grid (window), "follow-key", "genre", drama);
  dyn_test_wait_idle (window);
  g_assert_cmpstr (dyn_window_get_index (window), ==, "byGenre");
  g_assert_cmpuint (n_items (fixture), ==, 5);
  current = dyn_history_get_current (dyn_window_get_history (window));
  g_assert_cmpint (dyn_read_entry_get_origin (current), ==, DYN_READ_ORIGIN_FOLLOW);
  g_assert_cmpstr (dyn_read_entry_get_via (current), ==, "genre");
  followed = builder_text (fixture);

  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (activate (window, "win.go-forward", NULL));
  assert_shows (fixture, followed, "byGenre", 5);
  g_assert_cmpint (dyn_read_entry_get_origin (dyn_history_get_current (dyn_window_get_history (window))), ==,
                   DYN_READ_ORIGIN_FOLLOW);
}

/* Staged edits stay through Back and Forward, on the table and across
 * tables; a table's kept read is shown as kept, without a request. */
static void
test_staged_kept (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynCollectionModel *kept;
  DynReadRequest *kept_read;
  DynItemObject *row;
  g_autoptr(GError) error = NULL;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  run_text (fixture, "year = 2013");
  session = dyn_window_get_edit_session (window);
  g_assert_true (dyn_edit_session_stage_cell_text (session, row_for (fixture, "2013", "Gravity"), "genre", "Space",
                                                   &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  run_text (fixture, "year = 2014");

  /* Back on the same table: read again, the staged value in its row. */
  g_assert_true (activate (window, "win.go-back", NULL));
  g_assert_true (dyn_window_get_edit_session (window) == session);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  row = row_for (fixture, "2013", "Gravity");
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "genre"), ==, "Space");

  /* Another table, as the sidebar opens it, then back and forward. */
  kept = dyn_window_get_model (window);
  kept_read = dyn_window_get_read_request (window);
  open_table (fixture, plays);
  g_assert_cmpuint (n_items (fixture), ==, 3);
  g_assert_true (activate (window, "win.go-back", NULL));
  g_assert_cmpstr (dyn_window_get_table (window), ==, movies);
  /* The rows as they were kept: no request. */
  g_assert_true (dyn_window_get_model (window) == kept);
  g_assert_true (dyn_window_get_read_request (window) == kept_read);
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (dyn_window_get_edit_session (window) == session);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_true (activate (window, "win.go-forward", NULL));
  g_assert_cmpstr (dyn_window_get_table (window), ==, plays);
  /* Opening plays from the middle dropped "year = 2014": back is 2013. */
  g_assert_cmpuint (dyn_history_get_length (dyn_window_get_history (window)), ==, 3);
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (dyn_window_get_edit_session (window) == session);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "2013", "Gravity")), ==, DYN_ITEM_STATE_CHANGED);
}

static guint
n_rows (GtkListBox *list)
{
  guint n = 0;

  while (gtk_list_box_get_row_at_index (list, n) != NULL)
    n++;
  return n;
}

static const char *
row_title (GtkListBox *list,
           guint       i)
{
  return adw_preferences_row_get_title (ADW_PREFERENCES_ROW (gtk_list_box_get_row_at_index (list, i)));
}

/* The recent reads of a table, the newest first, without repeats, in the
 * popover; one of them runs again. */
static void
test_recent (Fixture       *fixture,
             gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynQueryPopover *popover = dyn_window_get_query_popover (window);
  GtkListBox *recent_list = dyn_query_popover_get_recent_list (popover);
  g_autoptr(GPtrArray) recent = NULL;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  run_text (fixture, "year = 2013");
  run_text (fixture, "year = 2014");
  run_text (fixture, "year = 2013");
  open_table (fixture, plays);
  recent = dyn_saved_queries_dup_recent (dyn_window_get_saved_queries (window), fixture->connection, movies);
  g_assert_cmpuint (recent->len, ==, 3);
  g_assert_cmpstr (dyn_read_entry_get_text (recent->pdata[0]), ==, "year = 2013");
  g_assert_cmpstr (dyn_read_entry_get_text (recent->pdata[1]), ==, "year = 2014");
  g_assert_cmpint (dyn_read_entry_get_origin (recent->pdata[2]), ==, DYN_READ_ORIGIN_SCAN);
  g_clear_pointer (&recent, g_ptr_array_unref);
  recent = dyn_saved_queries_dup_recent (dyn_window_get_saved_queries (window), fixture->connection, plays);
  g_assert_cmpuint (recent->len, ==, 1);

  /* The popover shows the open table's. */
  open_table (fixture, movies);
  gtk_popover_popup (GTK_POPOVER (popover));
  settle ();
  g_assert_cmpuint (n_rows (recent_list), ==, 3);
  /* (Coming back to movies showed what was kept: nothing new was read.) */
  g_assert_cmpstr (row_title (recent_list, 0), ==, "year = 2013");
  g_assert_cmpstr (row_title (recent_list, 1), ==, "year = 2014");
  g_assert_cmpstr (row_title (recent_list, 2), ==, "All items");
  /* A row runs its read (what clicking it does). */
  g_signal_emit_by_name (gtk_list_box_get_row_at_index (recent_list, 1), "activate");
  dyn_test_wait_idle (window);
  assert_shows (fixture, "year = 2014", NULL, 3);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
  /* It is the newest now, and Back returns to 2013. */
  gtk_popover_popup (GTK_POPOVER (popover));
  settle ();
  g_assert_cmpstr (row_title (recent_list, 0), ==, "year = 2014");
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
}

static AdwMessageDialog *
find_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }
  return NULL;
}

/* Answers the name question with @name. */
static void
answer_name (const char *name)
{
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  settle ();
  dialog = find_dialog ();
  g_assert_nonnull (dialog);
  entry = adw_message_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_EDITABLE (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), name);
  g_test_message ("answering “%s” with “%s”", adw_message_dialog_get_heading (dialog), name);
  /* What the Save button does: the response, then the dialog closes. */
  adw_message_dialog_response (dialog, "save");
  gtk_window_destroy (GTK_WINDOW (dialog));
  settle ();
  g_assert_null (find_dialog ());
}

static const char *
saved_id (Fixture    *fixture,
          const char *name)
{
  g_autoptr(GPtrArray) saved = dyn_saved_queries_dup_saved (dyn_window_get_saved_queries (fixture->window),
                                                            fixture->connection);

  for (guint i = 0; i < saved->len; i++)
    if (g_strcmp0 (dyn_read_entry_get_name (saved->pdata[i]), name) == 0)
      return g_intern_string (dyn_read_entry_get_id (saved->pdata[i]));
  return NULL;
}

/* Saved queries: named in the window, renamed, deleted and undone, and
 * after a restart run again, a number no double holds included. */
static void
test_saved_restart (Fixture       *fixture,
                    gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynQueryPopover *popover = dyn_window_get_query_popover (window);
  GtkListBox *saved_list = dyn_query_popover_get_saved_list (popover);
  g_autofree char *path = queries_path ();
  g_autofree char *contents = NULL;
  const char *exact = "gross = 90247624.000000000000000000000000000001";
  const char *id;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  run_text (fixture, "year = 2013 AND rating >= 8");
  g_assert_cmpuint (n_items (fixture), ==, 2);
  g_assert_true (activate (window, "win.save-query", NULL));
  answer_name ("Good films");
  id = saved_id (fixture, "Good films");
  g_assert_nonnull (id);
  g_assert_true (activate (window, "win.rename-saved", g_variant_new_string (id)));
  answer_name ("Good films of 2013");
  g_assert_null (saved_id (fixture, "Good films"));
  g_assert_true (saved_id (fixture, "Good films of 2013") == id);

  run_text (fixture, exact);
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_true (activate (window, "win.save-query", NULL));
  answer_name ("The exact gross");
  g_assert_true (activate (window, "win.save-query", NULL));
  answer_name ("To delete");
  g_assert_true (activate (window, "win.delete-saved", g_variant_new_string (saved_id (fixture, "To delete"))));
  g_assert_null (saved_id (fixture, "To delete"));
  g_assert_true (activate (window, "win.undo-delete-saved", NULL));
  g_assert_nonnull (saved_id (fixture, "To delete"));
  g_assert_true (activate (window, "win.delete-saved", g_variant_new_string (saved_id (fixture, "To delete"))));
  g_assert_null (dyn_window_get_error_text (window));

  /* The file: the number exactly, the connection without secrets. */
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"Good films of 2013\""));
  g_assert_nonnull (strstr (contents, "\"N\" : \"90247624.000000000000000000000000000001\""));
  g_assert_nonnull (strstr (contents, dyn_connection_get_endpoint_url (fixture->connection)));

  /* The popover lists them, with the recent reads below. */
  gtk_popover_popup (GTK_POPOVER (popover));
  settle ();
  g_assert_cmpuint (n_rows (saved_list), ==, 2);
  g_assert_cmpstr (row_title (saved_list, 0), ==, "Good films of 2013");
  g_assert_cmpstr (row_title (saved_list, 1), ==, "The exact gross");
  screenshot (window, GTK_WIDGET (popover), "history-popover.png");
  gtk_popover_popdown (GTK_POPOVER (popover));

  /* A restart: another window, the same files. */
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  fixture->window = window = new_window (fixture);
  popover = dyn_window_get_query_popover (window);
  saved_list = dyn_query_popover_get_saved_list (popover);
  open_table (fixture, plays);
  gtk_popover_popup (GTK_POPOVER (popover));
  settle ();
  g_assert_cmpuint (n_rows (saved_list), ==, 2);
  /* Running a saved query opens its table. */
  g_signal_emit_by_name (gtk_list_box_get_row_at_index (saved_list, 1), "activate");
  dyn_test_wait_idle (window);
  g_assert_cmpstr (dyn_window_get_table (window), ==, movies);
  assert_shows (fixture, exact, NULL, 1);
  g_assert_nonnull (row_for (fixture, "2013", "Rush"));
  g_assert_true (activate (window, "win.run-saved", g_variant_new_string (id)));
  assert_shows (fixture, "year = 2013 AND rating >= 8", NULL, 2);
  /* Back to the table opened before. */
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, exact, NULL, 1);
  g_assert_true (activate (window, "win.go-back", NULL));
  g_assert_cmpstr (dyn_window_get_table (window), ==, plays);
}

/* A file of saved queries that cannot be read: the window says so with its
 * name, keeps working, and never writes over it. */
static void
test_saved_malformed (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *path = queries_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *contents = NULL;
  const char *broken = "{\"version\": 1, \"connections\": [ {";
  DynWindow *window;

  if (!ensure_tables ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, broken, -1, NULL));
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  fixture->window = window = new_window (fixture);
  g_assert_nonnull (dyn_window_get_error_text (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), path));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "nothing is saved to it"));
  activate (window, "win.dismiss-error", NULL);

  open_table (fixture, movies);
  run_text (fixture, "year = 2014");
  g_assert_cmpuint (n_items (fixture), ==, 3);
  g_assert_true (activate (window, "win.save-query", NULL));
  answer_name ("Never written");
  g_assert_nonnull (dyn_window_get_error_text (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "Saving the query failed"));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, broken);
  /* Back and Forward do not depend on the file. */
  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "", NULL, G_N_ELEMENTS (films));
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
clipboard_text (DynWindow *window)
{
  char *text = NULL;

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (window)), NULL, read_text_cb, &text);
  while (text == NULL)
    g_main_context_iteration (NULL, TRUE);
  return text;
}

static void
clear_clipboard (DynWindow *window)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), "nothing");
}

/* Each line parses to the item of its row, in the format asked for. */
static void
assert_lines (const char     *text,
              DynItemObject **rows,
              guint           n,
              gboolean        ddb)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_true (g_str_has_suffix (text, "\n"));
  g_assert_cmpuint (g_strv_length (lines), ==, n + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) item = ddb ? dyn_item_from_ddb_json_string (lines[i], -1, &error)
                                     : dyn_item_from_plain_json_string (lines[i], -1, &error);

      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (item, dyn_item_object_get_item (rows[i])));
    }
}

static gboolean
has_text (GtkWidget  *widget,
          const char *text)
{
  if (GTK_IS_INSCRIPTION (widget) && g_strcmp0 (gtk_inscription_get_text (GTK_INSCRIPTION (widget)), text) == 0)
    return TRUE;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  return FALSE;
}

static GtkWidget *
find_text (GtkWidget  *widget,
           const char *text)
{
  if (has_text (widget, text) && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_text (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkGesture *
secondary_click (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller) &&
          gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == GDK_BUTTON_SECONDARY)
        return GTK_GESTURE (controller);
    }
  return NULL;
}

static GtkPopover *
row_menu (DynItemGrid *grid)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER_MENU (child))
      return GTK_POPOVER (child);
  return NULL;
}

/* Ctrl+C on selected rows: JSON lines, plain or DynamoDB JSON as the
 * setting says, numbers exactly; the row menu's entries; Copy Key. */
static void
test_copy (Fixture       *fixture,
           gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid;
  GtkWidget *view;
  DynItemObject *rows[2];
  g_autofree char *plain = NULL;
  g_autofree char *ddb = NULL;
  g_autofree char *key = NULL;
  g_autofree char *pressed = NULL;
  g_autoptr(GSettings) settings = NULL;
  GtkPopover *menu;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  run_text (fixture, "year = 2013");
  grid = dyn_window_get_grid (window);
  dyn_item_grid_set_grouped (grid, FALSE);
  settle ();
  /* In the grid's order (by title): Her, then Rush. */
  rows[0] = row_for (fixture, "2013", "Her");
  rows[1] = row_for (fixture, "2013", "Rush");
  dyn_item_grid_select_item (grid, rows[1], TRUE);
  dyn_item_grid_select_item (grid, rows[0], FALSE);
  settle ();

  clear_clipboard (window);
  g_assert_true (activate (window, "win.copy-rows", NULL));
  plain = clipboard_text (window);
  assert_lines (plain, rows, 2, FALSE);
  g_assert_nonnull (strstr (plain, "\"gross\":90247624.000000000000000000000000000001"));
  g_assert_true (strstr (plain, "\"gross\":90247624}") != NULL || strstr (plain, "\"gross\":90247624,") != NULL);
  g_assert_nonnull (strstr (plain, "{\"$binary\":\"AP8=\"}"));
  g_assert_nonnull (strstr (plain, "{\"$set\":["));

  clear_clipboard (window);
  g_assert_true (activate (window, "win.copy-rows-ddb", NULL));
  ddb = clipboard_text (window);
  assert_lines (ddb, rows, 2, TRUE);
  g_assert_nonnull (strstr (ddb, "\"gross\":{\"N\":\"90247624.000000000000000000000000000001\"}"));
  g_assert_nonnull (strstr (ddb, "\"poster\":{\"B\":\"AP8=\"}"));

  /* The choice of what Ctrl+C copies is a setting. */
  g_assert_true (activate (window, "win.copy-format", g_variant_new_string ("ddb")));
  settings = g_settings_new ("io.github.dynoscope.Dynoscope");
  g_assert_cmpstr (g_settings_get_string (settings, "copy-format"), ==, "ddb");
  clear_clipboard (window);
  g_assert_true (activate (window, "win.copy-key", NULL));
  key = clipboard_text (window);
  g_assert_cmpstr (key, ==, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Her\"}}\n"
                            "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}\n");

  view = GTK_WIDGET (dyn_item_grid_get_column_view (grid));
  if (have_xtest ())
    {
      /* Ctrl+C pressed for real, focus in the rows. */
      gtk_widget_grab_focus (view);
      clear_clipboard (window);
      press (GDK_KEY_c, GDK_KEY_Control_L);
      pressed = clipboard_text (window);
      g_assert_cmpstr (pressed, ==, ddb);
      g_clear_pointer (&pressed, g_free);
      g_settings_set_string (settings, "copy-format", "plain");
      settle ();
      clear_clipboard (window);
      press (GDK_KEY_c, GDK_KEY_Control_L);
      pressed = clipboard_text (window);
      g_assert_cmpstr (pressed, ==, plain);
      /* Ctrl+C in the builder's text copies its text, not rows. */
      {
        GtkWidget *text_view = _dyn_expression_builder_get_text_view (GTK_WIDGET (dyn_window_get_builder (window)));
        GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (text_view));
        GtkTextIter start, end;

        if (!gtk_widget_get_mapped (text_view))
          activate (window, "win.toggle-builder", NULL);
        settle ();
        g_assert_true (gtk_widget_get_mapped (text_view));
        clear_clipboard (window);
        g_assert_true (gtk_widget_grab_focus (text_view));
        gtk_text_buffer_get_bounds (buffer, &start, &end);
        gtk_text_buffer_select_range (buffer, &start, &end);
        press (GDK_KEY_c, GDK_KEY_Control_L);
        g_clear_pointer (&pressed, g_free);
        pressed = clipboard_text (window);
        g_assert_cmpstr (pressed, ==, "year = 2013");
      }
    }
  else
    g_test_message ("no XTest: Ctrl+C not pressed");

  /* A right click on a row that is not selected selects it alone and opens
   * the menu. */
  {
    GtkWidget *cell = find_text (view, "Gravity");
    GtkGesture *gesture = secondary_click (view);
    graphene_point_t point;
    g_autoptr(GPtrArray) selected = NULL;

    g_assert_nonnull (cell);
    g_assert_nonnull (gesture);
    g_assert_true (gtk_widget_compute_point (cell, view, &GRAPHENE_POINT_INIT (4, 4), &point));
    g_signal_emit_by_name (gesture, "pressed", 1, (double) point.x, (double) point.y);
    settle ();
    selected = dyn_item_grid_dup_selected_items (grid);
    g_assert_cmpuint (selected->len, ==, 1);
    g_assert_true (selected->pdata[0] == row_for (fixture, "2013", "Gravity"));
  }
  menu = row_menu (grid);
  g_assert_nonnull (menu);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (menu)));
  screenshot (window, GTK_WIDGET (menu), "row-menu.png");
  /* Its entries are the window's actions. */
  clear_clipboard (window);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (menu), "win.copy-rows-json", NULL));
  g_clear_pointer (&pressed, g_free);
  pressed = clipboard_text (window);
  {
    DynItemObject *gravity = row_for (fixture, "2013", "Gravity");

    assert_lines (pressed, &gravity, 1, FALSE);
  }
  gtk_popover_popdown (menu);
  settle ();
  /* A right click on a column header is the header's, not the rows'. */
  {
    GtkWidget *header = find_text (view, "title");
    graphene_point_t point;

    g_assert_nonnull (header);
    g_assert_true (gtk_widget_compute_point (header, view, &GRAPHENE_POINT_INIT (2, 2), &point));
    g_signal_emit_by_name (secondary_click (view), "pressed", 1, (double) point.x, (double) point.y);
    settle ();
    g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
  }

  /* The Menu key opens it at the focused row. */
  if (have_xtest ())
    {
      gtk_widget_grab_focus (view);
      press (GDK_KEY_Menu, 0);
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (menu)));
      press (GDK_KEY_Escape, 0);
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (menu)));
    }

  /* A key without a sort key (a hash-only table), copied as plain JSON
   * (also where no XTest pressed the keys above). */
  g_settings_set_string (settings, "copy-format", "plain");
  open_table (fixture, plays);
  {
    g_autoptr(DynValue) p2 = dyn_test_item ("{\"id\":{\"S\":\"p2\"}}");

    dyn_item_grid_select_item (grid, dyn_collection_model_lookup (dyn_window_get_model (window), p2), TRUE);
  }
  settle ();
  clear_clipboard (window);
  g_assert_true (activate (window, "win.copy-key", NULL));
  g_clear_pointer (&pressed, g_free);
  pressed = clipboard_text (window);
  g_assert_cmpstr (pressed, ==, "{\"id\":\"p2\"}\n");
}

/* Enter in the table filter opens the only table that matches. */
static void
test_filter_enter (Fixture       *fixture,
                   gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynConnectionSidebar *sidebar = dyn_window_get_sidebar (window);
  GtkEditable *entry = dyn_connection_sidebar_get_filter_entry (sidebar);
  if (!ensure_tables ())
    return;
  connect (fixture);
  g_assert_null (dyn_window_get_table (window));

  /* Several match: nothing opens. */
  gtk_editable_set_text (entry, "-");
  g_signal_emit_by_name (entry, "activate");
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_table (window));

  /* One matches (typed and Enter at once: before the entry's delay). */
  gtk_editable_set_text (entry, "PLAYS");
  g_signal_emit_by_name (entry, "activate");
  dyn_test_wait_idle (window);
  g_assert_cmpstr (dyn_window_get_table (window), ==, plays);
  g_assert_cmpuint (n_items (fixture), ==, 3);

  if (have_xtest ())
    {
      gtk_editable_set_text (entry, "movies");
      gtk_widget_grab_focus (GTK_WIDGET (entry));
      press (GDK_KEY_Return, 0);
      dyn_test_wait_idle (window);
      g_assert_cmpstr (dyn_window_get_table (window), ==, movies);
    }
}

static DynConnectionEditor *
find_editor (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (DYN_IS_CONNECTION_EDITOR (window))
        return DYN_CONNECTION_EDITOR (window);
    }
  return NULL;
}

/* A window without a connection offers to add one. */
static void
test_empty_window (Fixture       *fixture,
                   gconstpointer  data)
{
  DynWindow *window = fixture->window;
  AdwStatusPage *page = dyn_window_get_empty_page (window);
  GtkWidget *button = adw_status_page_get_child (page);
  DynConnectionEditor *editor;

  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (page)));
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No Connection");
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "_Add Connection…");
  screenshot (window, NULL, "empty-window.png");

  g_assert_null (find_editor ());
  g_signal_emit_by_name (button, "clicked");
  settle ();
  editor = find_editor ();
  g_assert_nonnull (editor);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (editor)));
  gtk_window_destroy (GTK_WINDOW (editor));
  settle ();

  if (!ensure_tables ())
    return;
  connect (fixture);
  g_assert_cmpstr (adw_status_page_get_title (page), ==, "No Table Open");
  g_assert_false (gtk_widget_get_visible (button));
}

/* Back restores the read options too: descending, consistent read and a
 * projection, and Forward the read without them. */
static void
test_back_options (Fixture       *fixture,
                   gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynExpressionBuilder *builder;
  const DynRequest *sent;

  if (!ensure_tables ())
    return;
  open_table (fixture, movies);
  builder = dyn_window_get_builder (window);
  dyn_expression_builder_set_descending (builder, TRUE);
  dyn_expression_builder_set_consistent_read (builder, TRUE);
  dyn_expression_builder_set_projection (builder, "title, rating");
  run_text (fixture, "year = 2013");
  sent = dyn_window_get_request (window);
  g_assert_false (sent->scan_forward);
  g_assert_true (sent->consistent_read);

  /* Another read with every option off. */
  dyn_expression_builder_set_descending (builder, FALSE);
  dyn_expression_builder_set_consistent_read (builder, FALSE);
  dyn_expression_builder_set_projection (builder, NULL);
  run_text (fixture, "year = 2014");
  g_assert_true (dyn_window_get_request (window)->scan_forward);

  g_assert_true (activate (window, "win.go-back", NULL));
  assert_shows (fixture, "year = 2013", NULL, 3);
  g_assert_true (dyn_expression_builder_get_descending (builder));
  g_assert_true (dyn_expression_builder_get_consistent_read (builder));
  g_assert_nonnull (dyn_expression_builder_get_projection (builder));
  sent = dyn_window_get_request (window);
  g_assert_false (sent->scan_forward);
  g_assert_true (sent->consistent_read);
  g_assert_nonnull (sent->projection);

  g_assert_true (activate (window, "win.go-forward", NULL));
  assert_shows (fixture, "year = 2014", NULL, 3);
  g_assert_false (dyn_expression_builder_get_descending (builder));
  g_assert_false (dyn_expression_builder_get_consistent_read (builder));
  g_assert_null (dyn_expression_builder_get_projection (builder));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-history");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-history/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("back-forward", test_back_forward);
  ADD ("back-options", test_back_options);
  ADD ("follow-back", test_follow_back);
  ADD ("staged-kept", test_staged_kept);
  ADD ("recent", test_recent);
  ADD ("saved-restart", test_saved_restart);
  ADD ("saved-malformed", test_saved_malformed);
  ADD ("copy", test_copy);
  ADD ("filter-enter", test_filter_enter);
  ADD ("empty-window", test_empty_window);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (movies);
  g_free (plays);
  return status;
}
