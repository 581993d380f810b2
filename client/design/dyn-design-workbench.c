/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-design-private.h"
#include "dyn-error.h"

DynDesignModel *
_dyn_design_workbench_load (JsonObject *root, const char *table, GError **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "NoSQL Workbench models: next commit");
  return NULL;
}
