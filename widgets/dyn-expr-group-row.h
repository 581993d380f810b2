/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-expr.h"

G_BEGIN_DECLS

#define DYN_TYPE_EXPR_GROUP_ROW (dyn_expr_group_row_get_type ())
G_DECLARE_FINAL_TYPE (DynExprGroupRow, dyn_expr_group_row, DYN, EXPR_GROUP_ROW, GtkWidget)

/* A group of rows. For conditions and filters an AND/OR group (optionally
 * negated) holding condition rows and nested groups; for key conditions an
 * AND of rows; for updates a list of action rows; for projections a list of
 * paths. */
GtkWidget      *dyn_expr_group_row_new            (DynExprRole       role,
                                                   gboolean          root,
                                                   GtkTreeModel     *completion);
DynExprRole     dyn_expr_group_row_get_role       (DynExprGroupRow  *self);
gboolean        dyn_expr_group_row_get_root       (DynExprGroupRow  *self);
/* DYN_EXPR_AND or DYN_EXPR_OR. */
DynExprKind     dyn_expr_group_row_get_combinator (DynExprGroupRow  *self);
void            dyn_expr_group_row_set_combinator (DynExprGroupRow  *self,
                                                   DynExprKind       combinator);
gboolean        dyn_expr_group_row_get_negated    (DynExprGroupRow  *self);
void            dyn_expr_group_row_set_negated    (DynExprGroupRow  *self,
                                                   gboolean          negated);
/* Appends a row of the group's kind (DynExprConditionRow or DynExprUpdateRow). */
GtkWidget      *dyn_expr_group_row_add_row        (DynExprGroupRow  *self);
DynExprGroupRow *dyn_expr_group_row_add_group     (DynExprGroupRow  *self);
void            dyn_expr_group_row_remove         (DynExprGroupRow  *self,
                                                   GtkWidget        *item);
/* Removes @item and moves the focus to its neighbour (or the group). */
void            dyn_expr_group_row_remove_keeping_focus (DynExprGroupRow *self,
                                                         GtkWidget       *item);
void            dyn_expr_group_row_clear          (DynExprGroupRow  *self);
guint           dyn_expr_group_row_get_n_items    (DynExprGroupRow  *self);
GtkWidget      *dyn_expr_group_row_get_item       (DynExprGroupRow  *self,
                                                   guint             i);
/* Builds the group's node (NULL when the group is empty). Rows that cannot be
 * built are left out and their errors added to @messages (strings). */
DynExprNode    *dyn_expr_group_row_build          (DynExprGroupRow  *self,
                                                   GPtrArray        *messages) G_GNUC_WARN_UNUSED_RESULT;
/* Replaces the content with @node (NULL: empty); FALSE when @node has a form
 * rows cannot show (the group is then left empty). */
gboolean        dyn_expr_group_row_load           (DynExprGroupRow  *self,
                                                   DynExprNode      *node);

G_END_DECLS
