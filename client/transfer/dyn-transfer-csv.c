/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-transfer-format-private.h"

gboolean
_dyn_csv_reader_init (DynItemReader *self, const DynItemReaderOptions *options, GError **error)
{
  (void) self; (void) options;
  g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "CSV: in progress");
  return FALSE;
}

DynItemReadResult
_dyn_csv_reader_next (DynItemReader *self, DynValue **item, GError **error)
{
  (void) self; (void) item; (void) error;
  return DYN_ITEM_READ_END;
}

void
_dyn_csv_reader_clear (DynItemReader *self)
{
  (void) self;
}
