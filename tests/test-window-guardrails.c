/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>

#include "dyn-test-util.h"

int
main (int argc, char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  return g_test_run ();
}
