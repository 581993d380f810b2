/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-expr.h"
#include "dyn-value-editor.h"

G_BEGIN_DECLS

#define DYN_TYPE_EXPR_CONDITION_ROW (dyn_expr_condition_row_get_type ())
G_DECLARE_FINAL_TYPE (DynExprConditionRow, dyn_expr_condition_row, DYN, EXPR_CONDITION_ROW, GtkWidget)

/* A condition row "path <operator> value(s)"; in projection mode just a path. */
GtkWidget      *dyn_expr_condition_row_new                (gboolean              projection,
                                                          GtkTreeModel         *completion);
const char     *dyn_expr_condition_row_get_path           (DynExprConditionRow  *self);
void            dyn_expr_condition_row_set_path           (DynExprConditionRow  *self,
                                                           const char           *path);
DynExprRowOp    dyn_expr_condition_row_get_operator       (DynExprConditionRow  *self);
void            dyn_expr_condition_row_set_operator       (DynExprConditionRow  *self,
                                                           DynExprRowOp          op);
gboolean        dyn_expr_condition_row_get_projection     (DynExprConditionRow  *self);
/* The operators the drop-down offers (the current one stays listed even when
 * it is not allowed, so that a typed expression is shown as it is). */
void            dyn_expr_condition_row_set_allowed_operators (DynExprConditionRow *self,
                                                              const DynExprRowOp  *ops,
                                                              guint                n_ops);
/* Operators in the drop-down, in order (owned by the row). */
const DynExprRowOp *dyn_expr_condition_row_get_offered_operators (DynExprConditionRow *self,
                                                                  guint               *n_ops);
DynValueEditor *dyn_expr_condition_row_get_value_editor   (DynExprConditionRow  *self,
                                                           guint                 i);
/* Sets the value type unless the user chose one. */
void            dyn_expr_condition_row_suggest_type       (DynExprConditionRow  *self,
                                                           DynValueType          type);
GtkWidget      *dyn_expr_condition_row_get_path_entry     (DynExprConditionRow  *self);
/* The node for the row; NULL without error when the row is still empty. */
DynExprNode    *dyn_expr_condition_row_build              (DynExprConditionRow  *self,
                                                           GError              **error) G_GNUC_WARN_UNUSED_RESULT;
/* Shows @node; FALSE if it is not a row (see dyn_expr_node_get_row()). */
gboolean        dyn_expr_condition_row_load               (DynExprConditionRow  *self,
                                                           DynExprNode          *node);

G_END_DECLS
