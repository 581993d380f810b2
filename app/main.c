/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope"

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "dyn-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(DynApplication) app = NULL;
  GApplicationFlags flags = G_APPLICATION_DEFAULT_FLAGS;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* DYN_NON_UNIQUE=1: an instance of its own (the demo script, the tests). */
  if (g_getenv ("DYN_NON_UNIQUE") != NULL)
    flags |= G_APPLICATION_NON_UNIQUE;

  app = dyn_application_new (flags);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
