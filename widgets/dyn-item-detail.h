/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-value.h"

G_BEGIN_DECLS

#define DYN_TYPE_ITEM_DETAIL (dyn_item_detail_get_type ())
G_DECLARE_FINAL_TYPE (DynItemDetail, dyn_item_detail, DYN, ITEM_DETAIL, AdwBin)

GtkWidget  *dyn_item_detail_new            (void);
/* @item: (nullable): an item (type M) */
void        dyn_item_detail_set_item       (DynItemDetail *self,
                                            DynValue      *item);
DynValue   *dyn_item_detail_get_item       (DynItemDetail *self);
/* A title for the item (its key). */
void        dyn_item_detail_set_title      (DynItemDetail *self,
                                            const char    *title);
/* "tree", "json" or "ddb-json". */
void        dyn_item_detail_set_view       (DynItemDetail *self,
                                            const char    *view);
const char *dyn_item_detail_get_view       (DynItemDetail *self);
/* The texts shown (indented); NULL without an item. */
const char *dyn_item_detail_get_plain_json (DynItemDetail *self);
const char *dyn_item_detail_get_ddb_json   (DynItemDetail *self);
/* The attribute tree (GtkTreeListRow items). */
GListModel *dyn_item_detail_get_tree       (DynItemDetail *self);

G_END_DECLS
