/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real `dynoscope` binary as a user starts it: from the build tree with no
 * settings schema installed (it warns and starts on the schema's defaults), and
 * through `meson devenv` (which finds the schema compiled into the build tree).
 * Each run waits for its window to be mapped on the X server, then quits
 * through the application's own app.quit action on a private session bus. */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "dyn-test-util.h"

#define FALLBACK_WARNING "is not installed: using its defaults"

static GTestDBus *bus;
static char      *display_name;
static Display   *display;
static char      *tmp_dir;

typedef struct
{
  int   status;
  char *err;
  int   width;
  int   height;
} AppRun;

static void
app_run_clear (AppRun *run)
{
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (AppRun, app_run_clear)

static int
ignore_x_error_cb (Display     *dpy,
                   XErrorEvent *event)
{
  /* A window may go away between XQueryTree and the questions about it. */
  return 0;
}

/* The size of a mapped top-level window of the program "dynoscope", or FALSE. */
static gboolean
find_mapped_window (int *width,
                    int *height)
{
  Window root, parent, *children = NULL;
  unsigned int n = 0;
  gboolean found = FALSE;

  if (!XQueryTree (display, DefaultRootWindow (display), &root, &parent, &children, &n))
    return FALSE;
  for (unsigned int i = 0; i < n && !found; i++)
    {
      XWindowAttributes attrs;
      XClassHint hint = { NULL, NULL };

      if (!XGetWindowAttributes (display, children[i], &attrs) || attrs.map_state != IsViewable)
        continue;
      if (!XGetClassHint (display, children[i], &hint))
        continue;
      if (hint.res_name != NULL && strcmp (hint.res_name, "dynoscope") == 0)
        {
          found = TRUE;
          *width = attrs.width;
          *height = attrs.height;
        }
      XFree (hint.res_name);
      XFree (hint.res_class);
    }
  XFree (children);
  return found;
}

static void
exited_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main context until *@flag is set or @seconds passed; a bound, not an assertion on speed. */
static gboolean
wait_for_flag (gboolean *flag,
               guint     seconds)
{
  gboolean expired = FALSE;
  guint id = g_timeout_add_seconds (seconds, timeout_cb, &expired);

  while (!*flag && !expired)
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (id);
  return *flag;
}

/* Wakes the main loop up to look at the X server again. */
static gboolean
poll_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static void
activate_quit (void)
{
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (connection, APPLICATION_ID, "/io/github/dynoscope/Dynoscope",
                                       "org.gtk.Actions", "Activate",
                                       g_variant_new ("(s@av@a{sv})", "quit",
                                                      g_variant_new_array (G_VARIANT_TYPE_VARIANT, NULL, 0),
                                                      g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0)),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  g_assert_no_error (error);
}

/* Starts @argv with @schema_dir as GSETTINGS_SCHEMA_DIR (NULL: unset), waits for
 * its window, saves a screenshot "app-@shot_name.png" in the test build
 * directory, activates app.quit and waits for the exit. */
static void
app_run (AppRun             *run,
         const char         *shot_name,
         const char         *schema_dir,
         const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("dyn-app-home-XXXXXX", NULL);
  g_autofree char *err_path = g_build_filename (home, "stderr.txt", NULL);
  gboolean exited = FALSE;
  gboolean shown;
  guint poll_id;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "DISPLAY", display_name, TRUE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_DATA_HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CACHE_HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  /* The fallback's warning is expected; a critical still aborts. */
  g_subprocess_launcher_setenv (launcher, "G_DEBUG", "gc-friendly,fatal-criticals", TRUE);
  /* The real application: unique on the (private) session bus. */
  g_subprocess_launcher_unsetenv (launcher, "DYN_NON_UNIQUE");
  g_subprocess_launcher_unsetenv (launcher, "DYN_BENCH");
  if (schema_dir != NULL)
    g_subprocess_launcher_setenv (launcher, "GSETTINGS_SCHEMA_DIR", schema_dir, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "GSETTINGS_SCHEMA_DIR");
  g_subprocess_launcher_set_stderr_file_path (launcher, err_path);

  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_wait_async (proc, NULL, exited_cb, &exited);

  /* Until the window is mapped, or the program ends (it must not). */
  shown = FALSE;
  poll_id = g_timeout_add (50, poll_cb, NULL);
  {
    gboolean expired = FALSE;
    guint limit = g_timeout_add_seconds (60, timeout_cb, &expired);

    while (!exited && !expired && !(shown = find_mapped_window (&run->width, &run->height)))
      g_main_context_iteration (NULL, TRUE);
    if (!expired)
      g_source_remove (limit);
  }
  g_source_remove (poll_id);

  if (shown)
    {
      const char *shot_dir = g_getenv ("G_TEST_BUILDDIR");
      g_autofree char *import = g_find_program_in_path ("import");

      /* A picture to look at, when ImageMagick is there; not an assertion.
       * The window is mapped before its first frame: give it a moment. */
      if (import != NULL && shot_dir != NULL)
        {
          g_autofree char *name = g_strdup_printf ("app-%s.png", shot_name);
          gboolean settled = FALSE;

          g_timeout_add (1000, timeout_cb, &settled);
          wait_for_flag (&settled, 10);
          g_autofree char *shot = g_build_filename (shot_dir, name, NULL);
          g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "DISPLAY", display_name, TRUE);
          const char *shot_argv[] = { import, "-window", "root", shot, NULL };

          g_spawn_sync (NULL, (char **) shot_argv, envp, G_SPAWN_STDERR_TO_DEV_NULL,
                        NULL, NULL, NULL, NULL, NULL, NULL);
        }
      activate_quit ();
      if (!wait_for_flag (&exited, 60))
        {
          g_subprocess_force_exit (proc);
          wait_for_flag (&exited, 10);
        }
    }
  else if (!exited)
    {
      g_subprocess_force_exit (proc);
      wait_for_flag (&exited, 10);
    }

  g_assert_true (g_file_get_contents (err_path, &run->err, NULL, NULL));
  g_test_message ("stderr: %s", run->err);
  g_assert_true (shown);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
  g_unlink (err_path);
  g_rmdir (home);
}

static char *
dynoscope_path (void)
{
  return g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope", NULL);
}

/* Whether the system's schema directories hold our schema (an installed Dynoscope). */
static gboolean
schema_installed (void)
{
  const char * const *dirs = g_get_system_data_dirs ();

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *dir = g_build_filename (dirs[i], "glib-2.0", "schemas", NULL);
      g_autoptr(GSettingsSchemaSource) source = g_settings_schema_source_new_from_directory (dir, NULL, FALSE, NULL);
      g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APPLICATION_ID, FALSE) : NULL;

      if (schema != NULL)
        return TRUE;
    }
  return FALSE;
}

static char *
empty_schema_dir (void)
{
  char *dir = g_build_filename (tmp_dir, "no-schemas", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* No arguments, no schema: this aborted ("Settings schema … is not installed", SIGTRAP). */
static void
test_no_schema (void)
{
  g_auto(AppRun) run = { 0 };
  g_autofree char *path = dynoscope_path ();
  g_autofree char *empty = empty_schema_dir ();

  if (display == NULL || schema_installed ())
    {
      g_test_skip (display ? "the settings schema is installed on this system" : "no X display");
      return;
    }
  app_run (&run, "no-schema", empty, (const char * const[]) { path, NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, FALLBACK_WARNING));
  g_assert_nonnull (strstr (run.err, "meson devenv"));
  g_assert_null (strstr (run.err, "CRITICAL"));
  /* The schema's default size. */
  g_assert_cmpint (run.width, ==, 1200);
  g_assert_cmpint (run.height, ==, 760);
}

/* The same with an endpoint: the window opens the test's DynamoDB Local. */
static void
test_no_schema_endpoint (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_auto(AppRun) run = { 0 };
  g_autofree char *path = dynoscope_path ();
  g_autofree char *empty = empty_schema_dir ();

  if (server == NULL)
    return;
  if (display == NULL || schema_installed ())
    {
      g_test_skip (display ? "the settings schema is installed on this system" : "no X display");
      return;
    }
  app_run (&run, "no-schema-endpoint", empty, (const char * const[]) { path, "--endpoint", dyn_test_server_get_endpoint (server), NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, FALLBACK_WARNING));
  g_assert_null (strstr (run.err, "CRITICAL"));
}

/* `meson devenv -C BUILD dynoscope`, as the README says: the schema compiled
 * into the build tree is found, so nothing is said about it. */
static void
test_devenv (void)
{
  g_auto(AppRun) run = { 0 };
  g_autofree char *meson = g_find_program_in_path ("meson");
  g_autofree char *gsettings = g_find_program_in_path ("gsettings");
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *build = g_getenv ("DYN_BUILD_ROOT");
  int status = -1;

  if (meson == NULL)
    {
      g_test_skip ("meson is not in PATH");
      return;
    }
  if (display == NULL)
    {
      g_test_skip ("no X display");
      return;
    }

  /* The environment alone, without the test's GSETTINGS_SCHEMA_DIR. */
  {
    g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
    g_autoptr(GSubprocess) proc = NULL;

    g_subprocess_launcher_unsetenv (launcher, "GSETTINGS_SCHEMA_DIR");
    proc = g_subprocess_launcher_spawn (launcher, &error, meson, "devenv", "-C", build, "gsettings", "get",
                                        APPLICATION_ID, "window-width", NULL);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
    g_assert_no_error (error);
    status = g_subprocess_get_exit_status (proc);
    if (gsettings != NULL)
      {
        g_assert_cmpint (status, ==, 0);
        g_assert_cmpstr (g_strstrip (out), ==, "1200");
      }
  }

  app_run (&run, "devenv", NULL, (const char * const[]) { meson, "devenv", "-C", build, "dynoscope", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.err, "not installed"));
  g_assert_null (strstr (run.err, "CRITICAL"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  dyn_test_init (&argc, &argv);
  tmp_dir = g_dir_make_tmp ("dyn-test-app-XXXXXX", NULL);

  /* GTestDBus unsets DISPLAY: keep it for the children and for Xlib. */
  display_name = g_strdup (g_getenv ("DISPLAY"));
  if (display_name != NULL)
    display = XOpenDisplay (display_name);
  XSetErrorHandler (ignore_x_error_cb);
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);

  g_test_add_func ("/dyn/app/no-schema", test_no_schema);
  g_test_add_func ("/dyn/app/no-schema-endpoint", test_no_schema_endpoint);
  g_test_add_func ("/dyn/app/devenv", test_devenv);

  status = g_test_run ();

  g_test_dbus_down (bus);
  g_object_unref (bus);
  if (display != NULL)
    XCloseDisplay (display);
  g_free (display_name);
  return status;
}
