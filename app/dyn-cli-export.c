/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"

/* dynoscope-cli export TABLE [--index I] [--filter E] [--key-condition E]
 *   --format ddb-json|json|csv|s3 --output PATH [--segments N] [--max-rcu N] [--resume]
 * dynoscope-cli count TABLE [--index I] [--filter E] [--segments N] */

gboolean
dyn_cli_export (DynTransferOptions  *o,
                DynClient           *client,
                int                 *status,
                GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "export: not written yet");
  return FALSE;
}

gboolean
dyn_cli_count (DynTransferOptions  *o,
               DynClient           *client,
               int                 *status,
               GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "count: not written yet");
  return FALSE;
}
