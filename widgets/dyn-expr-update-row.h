/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-expr.h"
#include "dyn-value-editor.h"

G_BEGIN_DECLS

/**
 * DynExprSetMode:
 *
 * What a SET action assigns.
 */
typedef enum {
  DYN_EXPR_SET_VALUE,           /* path = value */
  DYN_EXPR_SET_IF_NOT_EXISTS,   /* path = if_not_exists(path, value) */
  DYN_EXPR_SET_LIST_APPEND,     /* path = list_append(path, value) */
  DYN_EXPR_SET_LIST_PREPEND,    /* path = list_append(value, path) */
  DYN_EXPR_SET_PLUS,            /* path = path + value */
  DYN_EXPR_SET_MINUS,           /* path = path - value */
} DynExprSetMode;

#define DYN_TYPE_EXPR_UPDATE_ROW (dyn_expr_update_row_get_type ())
G_DECLARE_FINAL_TYPE (DynExprUpdateRow, dyn_expr_update_row, DYN, EXPR_UPDATE_ROW, GtkWidget)

/* An update action row: SET/REMOVE/ADD/DELETE path [value]. */
GtkWidget      *dyn_expr_update_row_new            (GtkTreeModel      *completion);
/* DYN_EXPR_SET, _REMOVE, _ADD or _DELETE. */
DynExprKind     dyn_expr_update_row_get_action     (DynExprUpdateRow  *self);
void            dyn_expr_update_row_set_action     (DynExprUpdateRow  *self,
                                                    DynExprKind        action);
DynExprSetMode  dyn_expr_update_row_get_set_mode   (DynExprUpdateRow  *self);
void            dyn_expr_update_row_set_set_mode   (DynExprUpdateRow  *self,
                                                    DynExprSetMode     mode);
const char     *dyn_expr_update_row_get_path       (DynExprUpdateRow  *self);
void            dyn_expr_update_row_set_path       (DynExprUpdateRow  *self,
                                                    const char        *path);
DynValueEditor *dyn_expr_update_row_get_value_editor (DynExprUpdateRow *self);
GtkWidget      *dyn_expr_update_row_get_path_entry (DynExprUpdateRow  *self);
DynExprNode    *dyn_expr_update_row_build          (DynExprUpdateRow  *self,
                                                    GError           **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean        dyn_expr_update_row_load           (DynExprUpdateRow  *self,
                                                    DynExprNode       *node);

G_END_DECLS
