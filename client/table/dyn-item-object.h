/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynItemState:
 * @DYN_ITEM_STATE_UNCHANGED: the item as the server returned it
 * @DYN_ITEM_STATE_ADDED: a new item, not yet written
 * @DYN_ITEM_STATE_CHANGED: an edited item, not yet written
 * @DYN_ITEM_STATE_DELETED: an item staged for deletion
 *
 * The editing state of a row. The collection model never changes it; the
 * staged-edits logic does.
 */
typedef enum {
  DYN_ITEM_STATE_UNCHANGED,
  DYN_ITEM_STATE_ADDED,
  DYN_ITEM_STATE_CHANGED,
  DYN_ITEM_STATE_DELETED,
} DynItemState;

#define DYN_TYPE_ITEM_STATE (dyn_item_state_get_type ())
GType dyn_item_state_get_type (void) G_GNUC_CONST;

/**
 * DynItemObject:
 *
 * One item (a DynValue of type M) as a GObject for list models. It holds a
 * reference to the item; the key values are borrowed from it, nothing is
 * copied (but for a multi-attribute key, whose values it holds as a list).
 *
 * The entity type (the label before the row) of an item in a
 * DynCollectionModel follows the model's rule, decided from all its items
 * (a discriminator attribute, a shared key prefix, or nothing: see
 * DynEntityDetector). An item on its own has only its key to go by: the
 * prefix of the sort key before the first '#' ("PROJ" for "PROJ#2026-0042",
 * "META" for "META"), or of the partition key without a sort key; number
 * and binary keys name no type.
 *
 * Properties: "item", "partition-key-value", "sort-key-value" (DynValue,
 * read-only), "entity-type" (string, read-only), "state" (DynItemState,
 * read-write).
 */
#define DYN_TYPE_ITEM_OBJECT (dyn_item_object_get_type ())
G_DECLARE_FINAL_TYPE (DynItemObject, dyn_item_object, DYN, ITEM_OBJECT, GObject)

/* Wraps @item; the key values are looked up by attribute name (@sort_key may
 * be NULL for a simple key). */
DynItemObject *dyn_item_object_new                     (DynValue      *item,
                                                        const char    *partition_key,
                                                        const char    *sort_key) G_GNUC_WARN_UNUSED_RESULT;

DynValue      *dyn_item_object_get_item                (DynItemObject *self);
/* The key values, borrowed from the item; NULL when the item lacks them.
 * For a multi-attribute key (dyn_item_object_has_composite_key()) a list
 * (L) of the attributes' values in key order, held by the object: the
 * partition key only when the item has every partition attribute, the sort
 * key as far as the item has the sort attributes from the left. */
DynValue      *dyn_item_object_get_partition_key_value (DynItemObject *self);
DynValue      *dyn_item_object_get_sort_key_value      (DynItemObject *self);
gboolean       dyn_item_object_has_composite_key       (DynItemObject *self,
                                                        gboolean       sort);
/* The partition (or sort) key as a cell shows it: a multi-attribute key's
 * values joined by " · " ("acme · 7"), binary as base64, each value cut at
 * @max_chars. NULL when the item lacks it. */
char          *dyn_item_object_format_key              (DynItemObject *self,
                                                        gboolean       sort,
                                                        guint          max_chars) G_GNUC_WARN_UNUSED_RESULT;
/* The same for a key value: @composite says it is such a list. */
char          *dyn_key_value_format                    (const DynValue *key,
                                                        gboolean        composite,
                                                        guint           max_chars) G_GNUC_WARN_UNUSED_RESULT;
/* An interned string, or NULL; computed on each call (the model's rule may
 * change as pages arrive: DynCollectionModel::notify::entity-source). */
const char    *dyn_item_object_get_entity_type         (DynItemObject *self);
DynItemState   dyn_item_object_get_state               (DynItemObject *self);
void           dyn_item_object_set_state               (DynItemObject *self,
                                                        DynItemState   state);

/**
 * dyn_entity_type_from_key:
 * @key: (nullable): a key value
 *
 * The entity type a key value names: for a string, the text before the first
 * '#' (the whole string when it has none); NULL for an empty string, a
 * number, a binary value or NULL. Returns an interned string.
 */
const char    *dyn_entity_type_from_key                (const DynValue *key);

G_END_DECLS
