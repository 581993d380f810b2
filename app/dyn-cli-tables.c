/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"

/* dynoscope-cli create-table TABLE --pk NAME:TYPE [--sk NAME:TYPE] [--gsi …]… [--lsi …]…
 *   [--billing on-demand|provisioned:R:W] [--ttl ATTR] [--table-class C] [--deletion-protection]
 *   [--no-wait] [--json]
 * dynoscope-cli update-table TABLE --add-gsi GSI | --delete-gsi NAME | --ttl ATTR | --no-ttl [--no-wait] */

gboolean
dyn_cli_create_table (DynTransferOptions  *o,
                      DynClient           *client,
                      int                 *status,
                      GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "create-table: not written yet");
  return FALSE;
}

gboolean
dyn_cli_update_table (DynTransferOptions  *o,
                      DynClient           *client,
                      int                 *status,
                      GError             **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "update-table: not written yet");
  return FALSE;
}
