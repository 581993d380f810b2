/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"

/* dynoscope-cli import TABLE --input PATH [--format …] [--create --pk … [--sk …]]
 *   [--no-overwrite] [--max-wcu N] [--resume|--restart] [--dry-run] [--skip-bad] [--verify]
 * dynoscope-cli truncate TABLE [--max-wcu N] [--segments N] (--yes | --confirm TABLE) */

gboolean
dyn_cli_import (DynTransferOptions  *o,
                DynClient           *client,
                int                 *status,
                GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "import: not written yet");
  return FALSE;
}

gboolean
dyn_cli_truncate (DynTransferOptions  *o,
                  DynClient           *client,
                  int                 *status,
                  GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "truncate: not written yet");
  return FALSE;
}
