/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `dynoscope --help` lists what a user does: the connection (--profile,
 * --region, --endpoint), a read (--query, --limit) and a table; nothing the
 * tests or the screenshots need (those drive the window from tests/). */
#include "config.h"

#include <string.h>

#include <glib.h>
#include <gio/gio.h>

static char *
run_help (const char *language,
          const char *option)
{
  g_autofree char *path = g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope", NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  proc = g_subprocess_launcher_spawn (launcher, &error, path, option, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  return out;
}

/* The long options of the "Application Options:" section. */
static GStrv
application_options (const char *help)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = g_strsplit (help, "\n", -1);
  gboolean in_section = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *dashes = strstr (line, "--");
      g_autofree char *name = NULL;

      if (g_str_has_suffix (line, "Options:") || g_str_has_suffix (line, "options"))
        {
          in_section = strcmp (line, "Application Options:") == 0;
          continue;
        }
      if (!in_section || dashes == NULL)
        continue;
      name = g_strndup (dashes + 2, strcspn (dashes + 2, "= "));
      g_strv_builder_add (builder, name);
    }
  return g_strv_builder_end (builder);
}

static void
test_user_options (void)
{
  const char *expected[] = { "profile", "region", "endpoint", "query", "limit", NULL };
  const char *gone[] = { "screenshot", "select-row", "detail-view", "scene", "dark", NULL };
  g_autofree char *help = run_help ("C", "--help-all");
  g_auto(GStrv) options = application_options (help);

  g_test_message ("%s", help);
  g_assert_cmpstrv (options, expected);
  for (guint i = 0; gone[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--", gone[i], NULL);

      g_assert_null (strstr (help, option));
    }
  g_assert_null (strstr (help, "screenshot"));
  /* The table, named once. */
  g_assert_nonnull (strstr (help, "dynoscope [OPTION…] [TABLE]\n"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dyn/help/user-options", test_user_options);
  return g_test_run ();
}
