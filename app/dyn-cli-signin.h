/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * dynoscope-cli's sign-in: the terminal prompter (MFA codes from --mfa-code or
 * /dev/tty, the device flow's URL and code on stderr during `login`), the
 * notice about placeholder keys, and the commands `whoami` and `login`.
 */

/* Takes the global --mfa-code CODE (or --mfa-code=CODE) out of @argv, wherever
 * it stands, and installs the terminal prompter as the default prompter and the
 * placeholder-key notice. FALSE with @error set on a usage error. */
gboolean dyn_cli_signin_setup   (int         *argc,
                                 char       **argv,
                                 GError     **error);
/* Whether @command is `whoami` or `login`. */
gboolean dyn_cli_signin_handles (const char  *command);
/* `dynoscope-cli whoami|login …` (argv[0] is the command); the exit status:
 * 0 done, 1 failed, 2 usage. */
int      dyn_cli_signin         (int          argc,
                                 char       **argv);

G_END_DECLS
