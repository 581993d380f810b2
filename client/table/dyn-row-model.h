/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-collections.h"

G_BEGIN_DECLS

/**
 * DynRowModel:
 *
 * The rows the grid shows, as one GListModel: grouped, each item collection
 * of a DynCollectionModel is a header row (the DynCollection itself)
 * followed, while the collection is expanded, by its items (DynItemObject);
 * flat, the model's items in arrival order.
 *
 * It keeps a few numbers per collection and nothing per item, so a million
 * items cost no more here than a thousand (GtkTreeListModel keeps a node
 * and, for every row it hands out, a row object per item). Collections are
 * expanded when they arrive.
 *
 * Each change of the collection model becomes one items-changed in row
 * positions.
 *
 * Properties: "model" (DynCollectionModel, construct-only), "grouped"
 * (construct-only), "n-items".
 */
#define DYN_TYPE_ROW_MODEL (dyn_row_model_get_type ())
G_DECLARE_FINAL_TYPE (DynRowModel, dyn_row_model, DYN, ROW_MODEL, GObject)

/* @model may be NULL: no rows. */
DynRowModel        *dyn_row_model_new            (DynCollectionModel *model,
                                                  gboolean            grouped) G_GNUC_WARN_UNUSED_RESULT;
DynCollectionModel *dyn_row_model_get_model      (DynRowModel        *self);
gboolean            dyn_row_model_get_grouped    (DynRowModel        *self);

/* Whether @collection's items are shown (TRUE for a flat model). */
gboolean            dyn_row_model_get_expanded   (DynRowModel        *self,
                                                  DynCollection      *collection);
/* Shows or hides @collection's items (grouped only). */
void                dyn_row_model_set_expanded   (DynRowModel        *self,
                                                  DynCollection      *collection,
                                                  gboolean            expanded);
/* Every collection at once. */
void                dyn_row_model_set_all_expanded (DynRowModel      *self,
                                                    gboolean          expanded);

/* Orders the items of each collection (grouped), or all of them (flat), by
 * @func (on two DynItemObject), stably, and again as they change; NULL: the
 * model's own order. Calling it again sorts again. */
void                dyn_row_model_set_sort_func  (DynRowModel        *self,
                                                  GCompareDataFunc    func,
                                                  gpointer            user_data);

/* The row of @collection's header, or GTK_INVALID_LIST_POSITION
 * (G_MAXUINT) when it is not in the model. */
guint               dyn_row_model_find_collection (DynRowModel       *self,
                                                   DynCollection     *collection);
/* The row of @item, or G_MAXUINT when it is not shown (not in the model, or
 * in a collapsed collection). */
guint               dyn_row_model_find_item      (DynRowModel        *self,
                                                  DynItemObject      *item);
/* Borrowed: the object of row @position (a DynCollection or a
 * DynItemObject), NULL past the end. */
gpointer            dyn_row_model_peek_row       (DynRowModel        *self,
                                                  guint               position);

G_END_DECLS
