/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "dyn-lifetime.h"

typedef struct {
  GObject *instance;
  gulong   handler;
} BoundHandler;

static void
bound_handler_free (gpointer data)
{
  BoundHandler *bound = data;

  /* A handler connected with g_signal_connect_object() is gone already
   * when its target was finalized. */
  if (bound->handler != 0 && g_signal_handler_is_connected (bound->instance, bound->handler))
    g_signal_handler_disconnect (bound->instance, bound->handler);
  g_object_unref (bound->instance);
  g_free (bound);
}

void
dyn_list_item_bind_handler (GtkListItem *list_item,
                            const char  *key,
                            gpointer     instance,
                            gulong       handler)
{
  BoundHandler *bound;

  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));
  g_return_if_fail (key != NULL);
  g_return_if_fail (G_IS_OBJECT (instance));

  bound = g_new (BoundHandler, 1);
  bound->instance = g_object_ref (instance);
  bound->handler = handler;
  g_object_set_data_full (G_OBJECT (list_item), key, bound, bound_handler_free);
}

void
dyn_list_item_unbind_handler (GtkListItem *list_item,
                              const char  *key)
{
  g_return_if_fail (GTK_IS_LIST_ITEM (list_item));

  g_object_set_data (G_OBJECT (list_item), key, NULL);
}

gpointer
dyn_list_item_get_bound (GtkListItem *list_item,
                         const char  *key)
{
  BoundHandler *bound;

  g_return_val_if_fail (GTK_IS_LIST_ITEM (list_item), NULL);

  bound = g_object_get_data (G_OBJECT (list_item), key);
  return bound ? bound->instance : NULL;
}

static gboolean
focus_within (GtkWidget *focus,
              GtkWidget *widget)
{
  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

gboolean
dyn_widget_release_focus (GtkWidget *widget,
                          GtkWidget *fallback)
{
  GtkRoot *root;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (fallback == NULL || GTK_IS_WIDGET (fallback), FALSE);

  root = gtk_widget_get_root (widget);
  if (root == NULL || !focus_within (gtk_root_get_focus (root), widget))
    return FALSE;
  if (fallback != NULL && fallback != widget && gtk_widget_get_mapped (fallback))
    gtk_widget_grab_focus (fallback);
  if (focus_within (gtk_root_get_focus (root), widget))
    gtk_root_set_focus (root, NULL);
  return TRUE;
}
