/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What a list item factory's "bind" connects, undone by its "unbind".
 *
 * A bound row must not rely on the model to keep what it shows alive: the
 * model may drop an object (a collection whose last item was deleted, an item
 * replaced by a staged edit) while the row is still bound to it, and unbind
 * runs later. dyn_list_item_bind_handler() keeps a reference to @instance
 * with the handler, under @key on @list_item; dyn_list_item_unbind_handler()
 * (or the list item's end) disconnects the handler and drops the reference. */
void     dyn_list_item_bind_handler   (GtkListItem *list_item,
                                       const char  *key,
                                       gpointer     instance,
                                       gulong       handler);
void     dyn_list_item_unbind_handler (GtkListItem *list_item,
                                       const char  *key);
/* (transfer none) (nullable): the instance bound under @key. */
gpointer dyn_list_item_get_bound      (GtkListItem *list_item,
                                       const char  *key);

G_END_DECLS
