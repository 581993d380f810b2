/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The floor for start-up: an empty libadwaita window, measured like Dynoscope's
 * (process start to the first frame painted, printed as "bench: first-frame µs"). */
#include <adwaita.h>
#include <stdio.h>

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  printf ("bench: first-frame %" G_GINT64_FORMAT "\n", g_get_real_time ());
  fflush (stdout);
  exit (0);
}

static void
realize_cb (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), NULL);
}

static void
activate_cb (GtkApplication *app)
{
  GtkWidget *window = adw_application_window_new (app);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 760);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), adw_status_page_new ());
  g_signal_connect (window, "realize", G_CALLBACK (realize_cb), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.dynoscope.BenchMinWindow",
                                                       G_APPLICATION_NON_UNIQUE);

  g_signal_connect (app, "activate", G_CALLBACK (activate_cb), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
