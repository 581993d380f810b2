/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gio.h>

#include <adwaita.h>

#include "dyn-test-util.h"
#include "dyn-test-window.h"

gboolean
dyn_window_save_png (GtkWindow   *window,
                     const char  *path,
                     GError     **error)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "nothing was drawn");
      return FALSE;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "could not write %s", path);
      return FALSE;
    }
  return TRUE;
}

void
dyn_test_iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

void
dyn_test_wait_idle (DynWindow *window)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (30, timeout_cb, &timed_out);

  dyn_test_iterate ();
  while (dyn_window_is_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (id);
  g_assert_false (timed_out);
  dyn_test_iterate ();
}

char *
dyn_test_window_init (int         *argc,
                      char      ***argv,
                      const char  *name)
{
  g_autofree char *template = g_strdup_printf ("%s-XXXXXX", name);
  g_autofree char *tmp_dir = NULL;

  dyn_test_init (argc, argv);
  tmp_dir = g_dir_make_tmp (template, NULL);
  g_assert_nonnull (tmp_dir);
  g_setenv ("HOME", tmp_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", tmp_dir, TRUE);
  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return NULL;
    }
  adw_init ();
  return g_steal_pointer (&tmp_dir);
}

void
dyn_test_window_finalize (DynWindow *window,
                          gboolean   destroy)
{
  if (destroy)
    gtk_window_destroy (GTK_WINDOW (window));
  dyn_test_iterate ();
  g_object_unref (window);
  /* Pending requests hold the window until they see the cancellation. */
  for (guint i = 0; i < 200 && G_OBJECT (window)->ref_count > 1; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_finalize_object (window);
}

void
dyn_test_settle (void)
{
  for (guint i = 0; i < 15; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

void
dyn_test_window_screenshot (GtkWindow  *window,
                            const char *name,
                            const char *fallback_dir)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR");
  const char *build = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *out = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;

  if (dir != NULL)
    out = g_strdup (dir);
  else
    out = g_build_filename (build != NULL ? build : fallback_dir, "screenshots", NULL);
  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
  path = g_build_filename (out, name, NULL);
  for (guint i = 0; i < 50 && !saved; i++)
    {
      dyn_test_settle ();
      g_clear_error (&error);
      saved = dyn_window_save_png (window, path, &error);
    }
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_test_message ("screenshot: %s", path);
}
