/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `dynoscope-cli design SUBCOMMAND …` (draft, check, infer, export): parses
 * its own options (argv[0] is "design"), connects when the subcommand needs
 * a connection, and returns the process's exit status. */
int dyn_cli_design (int argc, char **argv);

G_END_DECLS
