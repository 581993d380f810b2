/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "dyn-expr.h"

G_BEGIN_DECLS

/* Called by rows and groups when something the user edits changed; finds
 * the builder above @descendant (none: nothing happens). */
void          _dyn_expression_builder_changed      (GtkWidget *descendant);
/* Runs what the builder above @descendant (or @descendant itself) says: its
 * action (GtkActionable's action-name), after parsing text typed a moment
 * ago. FALSE when the builder has no action. */
gboolean      _dyn_expression_builder_run          (GtkWidget *descendant);
/* Asks the builder above @row to remove it (keeping the focus nearby). */
void          _dyn_expression_builder_remove_row   (GtkWidget *row);
/* The display label of a row operator ("=", "begins with", …), translated. */
const char   *_dyn_expr_row_op_get_label           (DynExprRowOp op);
/* The number of values the operator takes; -1 for "one or more" (IN). */
int           _dyn_expr_row_op_get_n_values        (DynExprRowOp op);
/* Sets up attribute-name completion on a path entry. */
void          _dyn_expression_setup_completion     (GtkEntry     *entry,
                                                    GtkTreeModel *model);

/* The text view of the expression text (for tests that type into it). */
GtkWidget    *_dyn_expression_builder_get_text_view (GtkWidget *builder);
/* Makes sure the widgets' GResource is linked in and registered. */
void          _dyn_widgets_ensure_resources        (void);

G_END_DECLS
