/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-entity.h"
#include "dyn-expr.h"
#include "dyn-item-object.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/* The title of the collection that holds items without the partition key
 * (a projection that left the key out), untranslated; the collection's title
 * is its translation. */
#define DYN_COLLECTION_NO_KEY_TITLE "(no key)"

/**
 * DynCollection:
 *
 * One item collection: the items that share a partition-key value, as a
 * GListModel of DynItemObject ordered by sort key (ascending, or descending
 * when the model reads backwards). Items with equal sort keys (possible in a
 * GSI) and items without the sort key keep arrival order; a missing sort key
 * sorts before every value.
 *
 * Properties: "partition-key-value" (DynValue, NULL for the "(no key)"
 * collection), "title" (the key as text: a string as is, a number's text,
 * binary as base64), "n-items", "more-pending" (the read that fills the
 * model has more pages and this collection may get more of them: see
 * dyn_collection_model_set_more_pending()).
 */
#define DYN_TYPE_COLLECTION (dyn_collection_get_type ())
G_DECLARE_FINAL_TYPE (DynCollection, dyn_collection, DYN, COLLECTION, GObject)

DynValue      *dyn_collection_get_partition_key_value (DynCollection *self);
const char    *dyn_collection_get_title               (DynCollection *self);
guint          dyn_collection_get_n_items             (DynCollection *self);
/* Borrowed; g_list_model_get_item() returns a new reference instead. */
DynItemObject *dyn_collection_peek_item               (DynCollection *self,
                                                       guint          position);
/* Where @item is in @self (binary search by sort key). */
gboolean       dyn_collection_find                    (DynCollection *self,
                                                       DynItemObject *item,
                                                       guint         *position);
/* Whether the next page of the read may add items (the "more-pending"
 * property): its count is then a lower bound. */
gboolean       dyn_collection_get_more_pending        (DynCollection *self);

/**
 * DynCollectionModel:
 *
 * The rows of a Query or Scan grouped into item collections, built page by
 * page. The model itself is a GListModel of DynCollection in order of first
 * appearance (the order the server returned the partitions in);
 * dyn_collection_model_get_flat_model() lists every DynItemObject in arrival
 * order (grouping switched off). The grid shows both through a DynRowModel
 * (dyn-row-model.h); each DynCollection can also be the child model of a
 * GtkTreeListModel (see dyn_collection_model_create_child_model()).
 *
 * Each dyn_collection_model_append_page() emits at most one items-changed on
 * the model (new collections at the end), one on the flat model (the page at
 * the end) and, for collections that already existed, one per inserted run of
 * items (one when the items go to the end, as they do when a partition
 * continues on the next page).
 *
 * Items without the partition key attribute go into one collection titled
 * DYN_COLLECTION_NO_KEY_TITLE, placed where the first such item appeared.
 * A collection whose last item is removed leaves the model.
 *
 * The model knows the attribute names it has seen: key attributes first (in
 * key order, once seen), then the others in first-seen order. The
 * "attributes-changed" signal (position, removed, added) tells when the list
 * changes; usually new names are appended.
 *
 * A multi-attribute key (a global secondary index with several partition
 * or sort attributes) groups the items that share every partition
 * attribute's value; the collection's partition-key value is then a list
 * (L) of those values in key order and its title joins them ("acme · 7").
 * Items without one of them go into the "(no key)" collection (an index
 * does not hold them). Within a collection the items are ordered by the sort
 * attributes left to right, as DynamoDB returns them.
 *
 * Item collections exist where items share a partition key: always with a
 * sort key; without one (a hash-only table holds one item per key) only when
 * a key holds more than one loaded item, as a hash-only global index may.
 * "has-collections" says which (it is notified once, when the first such key
 * shows up, and again after dyn_collection_model_clear()); a grid shows a
 * model without collections as a plain list.
 *
 * The entity label of each item (dyn_item_object_get_entity_type()) follows
 * one rule for the whole model, decided by a DynEntityDetector from the
 * items as they arrive: a discriminator attribute, a shared key prefix, or
 * nothing. "entity-source" is notified when the rule changes (usually once,
 * with the first page), so views update the labels they show instead of
 * binding every row again.
 *
 * Properties: "partition-key", "sort-key" (the first attributes),
 * "partition-keys", "sort-keys" (all, GStrv), "descending" (construct-only),
 * "n-items" (collections), "n-items-total" (items), "n-attributes",
 * "has-collections", "more-pending", "entity-source" (DynEntitySource).
 */
#define DYN_TYPE_COLLECTION_MODEL (dyn_collection_model_get_type ())
G_DECLARE_FINAL_TYPE (DynCollectionModel, dyn_collection_model, DYN, COLLECTION_MODEL, GObject)

/* @sort_key may be NULL (a simple key); @descending follows the read's
 * ScanIndexForward=false. */
DynCollectionModel *dyn_collection_model_new               (const char          *partition_key,
                                                            const char          *sort_key,
                                                            gboolean             descending) G_GNUC_WARN_UNUSED_RESULT;
/* Every attribute of @keys: a multi-attribute key (a global secondary index)
 * groups by all its partition attributes and orders by its sort attributes
 * left to right. */
DynCollectionModel *dyn_collection_model_new_for_schema    (const DynKeySchema  *keys,
                                                            gboolean             descending) G_GNUC_WARN_UNUSED_RESULT;

/* The first partition and sort attribute. */
const char         *dyn_collection_model_get_partition_key (DynCollectionModel  *self);
const char         *dyn_collection_model_get_sort_key      (DynCollectionModel  *self);
/* Every partition and sort attribute in key order (NULL-terminated; the
 * sort attributes may be none). */
const char * const *dyn_collection_model_get_partition_keys (DynCollectionModel *self);
const char * const *dyn_collection_model_get_sort_keys     (DynCollectionModel  *self);
gboolean            dyn_collection_model_get_descending    (DynCollectionModel  *self);

/**
 * dyn_collection_model_append_page:
 * @items: (element-type DynValue): a page of items (type M); the model takes
 *   references, @items is not changed
 *
 * Adds a page of items, as a DynPageFunc may pass it. After
 * dyn_collection_model_insert() or dyn_collection_model_replace() an item
 * of the page whose key values a row already has does not become a second
 * row: an unchanged row (DYN_ITEM_STATE_UNCHANGED) is replaced with it,
 * any other keeps what it shows.
 */
void                dyn_collection_model_append_page       (DynCollectionModel  *self,
                                                            GPtrArray           *items);
/* A DynPageFunc (dyn-pager.h) that appends the page to @model:
 * dyn_pager_run_async (pager, 1, 0, dyn_collection_model_page_func, model, …). */
void                dyn_collection_model_page_func         (GPtrArray           *items,
                                                            gpointer             model);
/* Whether items share partition keys here (see above). */
gboolean            dyn_collection_model_has_collections   (DynCollectionModel  *self);

/**
 * dyn_collection_model_set_more_pending:
 * @more_pending: whether the read that fills the model has more pages
 *
 * Set by the reader after each page. While TRUE, the collection the last
 * page ended in is "more-pending": a Query reads one partition, and a Scan
 * (in one segment) returns each partition's items one after another, so
 * only that collection can grow with the next page.
 */
void                dyn_collection_model_set_more_pending  (DynCollectionModel  *self,
                                                            gboolean             more_pending);
gboolean            dyn_collection_model_get_more_pending  (DynCollectionModel  *self);

/* Where the entity labels come from, and the discriminator attribute (for
 * DYN_ENTITY_SOURCE_ATTRIBUTE, else NULL). */
DynEntitySource     dyn_collection_model_get_entity_source    (DynCollectionModel *self);
const char         *dyn_collection_model_get_entity_attribute (DynCollectionModel *self);

/* Removes everything (collections, items, known attributes, the entity
 * rule; "more-pending" becomes FALSE). */
void                dyn_collection_model_clear             (DynCollectionModel  *self);

guint               dyn_collection_model_get_n_items_total (DynCollectionModel  *self);
guint               dyn_collection_model_get_n_collections (DynCollectionModel  *self);
/* Borrowed: a GListModel of every DynItemObject in arrival order. */
GListModel         *dyn_collection_model_get_flat_model    (DynCollectionModel  *self);
/* Borrowed. */
DynCollection      *dyn_collection_model_peek_collection   (DynCollectionModel  *self,
                                                            guint                position);

/* The known attribute names, NULL-terminated, borrowed (valid until the next
 * change). */
const char * const *dyn_collection_model_get_attributes    (DynCollectionModel  *self,
                                                            guint               *n_attributes);

/**
 * dyn_collection_model_lookup_collection:
 * @pk_value: (nullable): a partition-key value (a list of the values for a
 *   multi-attribute partition key); NULL for the "(no key)" collection
 *
 * Returns: (transfer none) (nullable): the collection
 */
DynCollection      *dyn_collection_model_lookup_collection (DynCollectionModel  *self,
                                                            const DynValue      *pk_value);
/**
 * dyn_collection_model_lookup:
 * @key: a map of key attributes (e.g. {EntityRef, Detail})
 *
 * Finds the first item (in collection order) whose attributes equal every
 * member of @key. When @key holds the model's partition key (and sort key),
 * the search is a hash lookup plus a binary search; otherwise it scans.
 *
 * Returns: (transfer none) (nullable): the item object
 */
DynItemObject      *dyn_collection_model_lookup            (DynCollectionModel  *self,
                                                            const DynValue      *key);
/**
 * dyn_collection_model_insert:
 *
 * Adds one item (after a create), like a page of one.
 *
 * Returns: (transfer none): the new item object
 */
DynItemObject      *dyn_collection_model_insert            (DynCollectionModel  *self,
                                                            DynValue            *item);
/**
 * dyn_collection_model_replace:
 * @old: an item object of this model
 * @item: the item as it is now (after a write)
 *
 * Puts a new DynItemObject for @item in the place of @old. With the same key
 * values it keeps @old's positions (items-changed with 1 removed, 1 added);
 * otherwise it moves to where its keys belong. In the flat model it always
 * keeps @old's position. @old leaves the model (its state is not copied).
 *
 * Returns: (transfer none) (nullable): the new item object, NULL when @old is
 *   not in this model
 */
DynItemObject      *dyn_collection_model_replace           (DynCollectionModel  *self,
                                                            DynItemObject       *old,
                                                            DynValue            *item);
/* Removes @item (after a delete); FALSE when it is not in this model. */
gboolean            dyn_collection_model_remove            (DynCollectionModel  *self,
                                                            DynItemObject       *item);

/**
 * dyn_collection_model_create_child_model:
 * @item: a row of the tree (a DynCollection or a DynItemObject)
 *
 * A GtkTreeListModelCreateModelFunc: a DynCollection's children are itself,
 * an item has none.
 *
 * Returns: (transfer full) (nullable): the child model
 */
GListModel         *dyn_collection_model_create_child_model (gpointer            item,
                                                             gpointer            user_data);

G_END_DECLS
