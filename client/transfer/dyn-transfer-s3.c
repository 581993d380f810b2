/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-transfer-format-private.h"

gboolean
_dyn_s3_reader_init (DynItemReader *self, GError **error)
{
  (void) self;
  g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "S3: in progress");
  return FALSE;
}

gboolean _dyn_s3_reader_open_file (DynItemReader *self, guint index, GError **error) { (void) self; (void) index; (void) error; return FALSE; }
gboolean _dyn_s3_reader_finish_file (DynItemReader *self, GError **error) { (void) self; (void) error; return TRUE; }
char *_dyn_s3_find_export (const char *path) { (void) path; return NULL; }
