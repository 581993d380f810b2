/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-credentials.h"

G_BEGIN_DECLS

/* The credentials in what a credential_process of @profile_name (running
 * @program) printed on stdout, @out, after it exited with status 0; %NULL with
 * a %DYN_ERROR_CREDENTIALS error that never quotes @out otherwise. What the
 * provider does with a process's output, apart from running it (for
 * tests/fuzz-aws-config). */
DynCredentials *_dyn_credentials_from_process_output (const char  *profile_name,
                                                      const char  *program,
                                                      GBytes      *out,
                                                      GError     **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
