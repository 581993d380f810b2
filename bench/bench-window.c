/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-window"
#include "config.h"

#include <locale.h>
#include <malloc.h>
#include <string.h>
#include <glib/gi18n.h>

#include "dyn-application.h"

/* The Dynoscope window as `dynoscope` runs it (the same application and
 * window from the app library, the same command line), measured from the
 * outside through GdkFrameClock signals and the window's public getters and
 * actions. For bench/run-window.sh. Prints on standard output, times in µs
 * of the wall clock (g_get_real_time()):
 *
 *   bench: first-frame T            the first frame painted
 *   bench: first-page T N           the first page in the window (N items)
 *   bench: first-rows T             the next frame painted: rows on screen
 *   bench: all-loaded T N           every page read (win.load-all), N items
 *   bench: scroll frames F max-ms M over-50ms S rows R
 *   bench: VmHWM: … / VmRSS: …      peak and current memory
 *   bench: status TEXT              the window's status line
 *
 * Usage: bench-window [--startup-only] [--no-scroll] [--scroll-pages N]
 *                     [DYNOSCOPE OPTIONS] [TABLE]
 * --startup-only quits after the first frame; otherwise, once the table's
 * first page arrived, every page is read, then the grid is scrolled through
 * every row, N pages a frame (default 1), and the frame times reported. */

typedef struct {
  gboolean            startup_only;
  gboolean            no_scroll;
  double              scroll_pages;

  DynWindow          *window;
  gboolean            first_page;
  gboolean            load_all;
  gboolean            all_loaded;

  gint64              last_paint;
  GArray             *frame_times;  /* gint64 µs, every scrolled frame */
  gint64              max_frame;
  guint               slow_frames;
  guint               frames;
  guint               scroll_id;
} Bench;

static Bench bench = { .scroll_pages = 1.0 };


static gint64
now (void)
{
  return g_get_real_time ();
}

/* The process's current resident memory in kB (VmRSS), or 0. */
static guint64
rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *rss;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (rss = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (rss + strlen ("VmRSS:"), NULL, 10);
}

static int
cmp_frame (gconstpointer a,
           gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The @percent percentile of the frame times, in ms. */
static double
percentile (GArray *times,
            double  percent)
{
  guint i;

  if (times->len == 0)
    return 0;
  i = (guint) (percent / 100.0 * (times->len - 1) + 0.5);
  return g_array_index (times, gint64, MIN (i, times->len - 1)) / 1000.0;
}

static gboolean
destroy_idle_cb (gpointer user_data)
{
  gtk_window_destroy (GTK_WINDOW (user_data));
  g_object_unref (user_data);
  return G_SOURCE_REMOVE;
}

static void
quit (Bench *b)
{
  g_idle_add (destroy_idle_cb, g_object_ref (b->window));
}

static void
first_frame_cb (GdkFrameClock *clock,
                Bench         *b)
{
  g_signal_handlers_disconnect_by_func (clock, first_frame_cb, b);
  g_print ("bench: first-frame %" G_GINT64_FORMAT "\n", now ());
  g_print ("bench: rss-first-frame %" G_GUINT64_FORMAT "\n", rss_kb ());
  {
    struct mallinfo2 info = mallinfo2 ();

    g_print ("bench: heap-first-frame in-use %zu free %zu mmap %zu\n", info.uordblks, info.fordblks, info.hblkhd);
  }
  if (b->startup_only)
    quit (b);
}

static void
realize_cb (GtkWidget *widget,
            Bench     *b)
{
  g_signal_connect (gtk_widget_get_frame_clock (widget), "after-paint", G_CALLBACK (first_frame_cb), b);
}

static void
first_rows_cb (GdkFrameClock *clock,
               Bench         *b)
{
  g_signal_handlers_disconnect_by_func (clock, first_rows_cb, b);
  g_print ("bench: first-rows %" G_GINT64_FORMAT "\n", now ());
}

static void
scroll_done (Bench *b)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));
  g_autofree char *status = NULL;
  const char *text = dyn_window_get_status_text (b->window);

  if (clock != NULL)
    g_signal_handlers_disconnect_by_data (clock, b);
  g_array_sort (b->frame_times, cmp_frame);
  g_print ("bench: scroll frames %u max-ms %.1f over-50ms %u rows %u p50-ms %.1f p99-ms %.1f\n", b->frames,
           b->max_frame / 1000.0, b->slow_frames,
           g_list_model_get_n_items (dyn_item_grid_get_rows (dyn_window_get_grid (b->window))),
           percentile (b->frame_times, 50), percentile (b->frame_times, 99));
  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    {
      const char *hwm = strstr (status, "VmHWM:");
      const char *rss = strstr (status, "VmRSS:");

      if (hwm != NULL)
        g_print ("bench: %.*s\n", (int) strcspn (hwm, "\n"), hwm);
      if (rss != NULL)
        g_print ("bench: %.*s\n", (int) strcspn (rss, "\n"), rss);
    }
  g_print ("bench: status %s\n", text ? text : "");
  quit (b);
}

static void
scroll_paint_cb (GdkFrameClock *clock,
                 Bench         *b)
{
  gint64 t = g_get_monotonic_time ();

  if (b->last_paint > 0)
    {
      gint64 frame = t - b->last_paint;

      b->max_frame = MAX (b->max_frame, frame);
      g_array_append_val (b->frame_times, frame);
      if (frame > 50000)
        b->slow_frames++;
      b->frames++;
    }
  b->last_paint = t;
}

static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  Bench *b = user_data;
  GtkAdjustment *adjustment = dyn_item_grid_get_vadjustment (dyn_window_get_grid (b->window));
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);

  if (value + page >= gtk_adjustment_get_upper (adjustment))
    {
      b->scroll_id = 0;
      scroll_done (b);
      return G_SOURCE_REMOVE;
    }
  gtk_adjustment_set_value (adjustment, value + page * b->scroll_pages);
  return G_SOURCE_CONTINUE;
}

static void
all_loaded (Bench *b)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (b->window));

  b->all_loaded = TRUE;
  g_print ("bench: all-loaded %" G_GINT64_FORMAT " %u\n", now (),
           dyn_collection_model_get_n_items_total (dyn_window_get_model (b->window)));
  g_print ("bench: rss-loaded %" G_GUINT64_FORMAT "\n", rss_kb ());
  {
    struct mallinfo2 info = mallinfo2 ();

    g_print ("bench: heap-loaded in-use %zu free %zu mmap %zu\n", info.uordblks, info.fordblks, info.hblkhd);
  }
  if (b->no_scroll || clock == NULL)
    {
      scroll_done (b);
      return;
    }
  g_signal_connect (clock, "after-paint", G_CALLBACK (scroll_paint_cb), b);
  b->scroll_id = gtk_widget_add_tick_callback (GTK_WIDGET (b->window), scroll_tick_cb, b, NULL);
}

/* The window idle after a page of the table's read: the first page is in
 * the model (rows on screen with the next frame), then read the rest (Load
 * All); once the pager is done, every row is loaded. */
static void
busy_cb (DynWindow  *window,
         GParamSpec *pspec,
         Bench      *b)
{
  DynPager *pager = dyn_window_get_pager (window);
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));

  if (dyn_window_is_busy (window) || b->all_loaded || pager == NULL)
    return;
  if (dyn_window_get_error_text (window) != NULL)
    {
      g_printerr ("bench-window: %s\n", dyn_window_get_error_text (window));
      quit (b);
      return;
    }
  if (!b->first_page)
    {
      b->first_page = TRUE;
      g_print ("bench: first-page %" G_GINT64_FORMAT " %u\n", now (),
               dyn_collection_model_get_n_items_total (dyn_window_get_model (window)));
      if (clock != NULL)
        g_signal_connect (clock, "after-paint", G_CALLBACK (first_rows_cb), b);
    }
  if (dyn_pager_is_done (pager))
    all_loaded (b);
  else if (!b->load_all)
    {
      b->load_all = TRUE;
      if (!gtk_widget_activate_action (GTK_WIDGET (window), "win.load-all", NULL))
        g_printerr ("bench-window: win.load-all is not enabled\n");
    }
}

static void
window_added_cb (GtkApplication *app,
                 GtkWindow      *window,
                 Bench          *b)
{
  if (b->window != NULL || !DYN_IS_WINDOW (window))
    return;
  b->window = DYN_WINDOW (window);
  g_signal_connect (window, "realize", G_CALLBACK (realize_cb), b);
  g_signal_connect (window, "notify::busy", G_CALLBACK (busy_cb), b);
}

static void
window_removed_cb (GtkApplication *app,
                   GtkWindow      *window,
                   Bench          *b)
{
  if (window != GTK_WINDOW (b->window))
    return;
  if (b->scroll_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (window), b->scroll_id);
  b->scroll_id = 0;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(DynApplication) app = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* The bench's own options; the rest is dynoscope's command line. */
  for (int i = 0; i < argc; i++)
    {
      if (i > 0 && strcmp (argv[i], "--startup-only") == 0)
        bench.startup_only = TRUE;
      else if (i > 0 && strcmp (argv[i], "--no-scroll") == 0)
        bench.no_scroll = TRUE;
      else if (i > 0 && strcmp (argv[i], "--scroll-pages") == 0 && i + 1 < argc)
        bench.scroll_pages = g_ascii_strtod (argv[++i], NULL);
      else
        g_ptr_array_add (args, argv[i]);
    }
  bench.frame_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  if (bench.scroll_pages <= 0)
    bench.scroll_pages = 1.0;
  g_ptr_array_add (args, NULL);

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "window-added", G_CALLBACK (window_added_cb), &bench);
  g_signal_connect (app, "window-removed", G_CALLBACK (window_removed_cb), &bench);
  return g_application_run (G_APPLICATION (app), (int) args->len - 1, (char **) args->pdata);
}
