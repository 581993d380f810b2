/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder: being written */
#include "dyn-test-util.h"

int
main (int argc, char **argv)
{
  dyn_test_init (&argc, &argv);
  return g_test_run ();
}
