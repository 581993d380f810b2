/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Makes sure the widgets' GResource is linked in and registered. */
void  _dyn_widgets_ensure_resources (void);
/* Sets up attribute-name completion on a path entry. */
void  _dyn_widgets_setup_completion (GtkEntry     *entry,
                                     GtkTreeModel *model);

G_END_DECLS
