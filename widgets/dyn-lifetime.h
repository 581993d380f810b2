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

/* Before @widget, or widgets inside it, leave the widget tree (rows rebuilt,
 * an entry swapped back for a label): GTK 4.8 keeps a removed focus widget
 * as the window's focus until the next frame and then hands the focus on
 * reading the old widget after it was freed (criticals, a loop on
 * gtk_widget_get_parent()). When the keyboard focus is in @widget this
 * moves it to @fallback (nullable; outside @widget, or an ancestor of it),
 * or else nowhere. Returns whether the focus was in @widget. */
gboolean dyn_widget_release_focus     (GtkWidget   *widget,
                                       GtkWidget   *fallback);

G_END_DECLS
