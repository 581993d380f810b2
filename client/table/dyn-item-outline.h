/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "dyn-diff.h"
#include "dyn-expr.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/* An item as the detail pane's tree lists it, without GTK: the order of the
 * members, which of them are keys, and the text each value shows. */

/**
 * DynOutlineKey:
 * @DYN_OUTLINE_NOT_KEY: an ordinary attribute
 * @DYN_OUTLINE_PARTITION_KEY: a partition key attribute of the table
 * @DYN_OUTLINE_SORT_KEY: a sort key attribute of the table
 * @DYN_OUTLINE_INDEX_KEY: a key attribute of a secondary index only
 *
 * What a top-level attribute is to the table.
 */
typedef enum {
  DYN_OUTLINE_NOT_KEY,
  DYN_OUTLINE_PARTITION_KEY,
  DYN_OUTLINE_SORT_KEY,
  DYN_OUTLINE_INDEX_KEY,
} DynOutlineKey;

/**
 * dyn_outline_key_role:
 * @keys: (nullable): the table's keys and indexes
 * @name: a top-level attribute name
 * @description: (out) (optional) (transfer full): for a key, one translated
 *   sentence naming every key it is part of ("Partition key of the table",
 *   "Sort key of index ByDate; partition key of index ByUser"); else %NULL
 *
 * Returns: what @name is to the table; a table key wins over an index key
 */
DynOutlineKey dyn_outline_key_role      (const DynTableKeys *keys,
                                         const char         *name,
                                         char              **description);

/**
 * dyn_outline_order:
 * @map: a value of type M
 * @keys: (nullable): the table's keys, for an item (the top level); %NULL
 *   for a map inside it
 *
 * The order the tree lists @map's members in, as positions in @map: with
 * @keys, the table's partition key attributes, then its sort key
 * attributes, then the key attributes of the indexes (each index's
 * partition then sort attributes, in the order of the indexes, each name
 * once), as far as @map holds them; then all other members by name,
 * case-insensitively (DynamoDB keeps no member order, so the order an item
 * arrives in means nothing and changes between reads).
 *
 * Returns: (transfer full) (element-type guint): the positions
 */
GArray       *dyn_outline_order         (const DynValue     *map,
                                         const DynTableKeys *keys) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynOutlineText:
 * @DYN_OUTLINE_TEXT_VALUE: the value itself
 * @DYN_OUTLINE_TEXT_EMPTY: a placeholder for an empty string or binary
 *   ("empty string"), to be shown unlike a value
 *
 * What the text of dyn_outline_value_text() is.
 */
typedef enum {
  DYN_OUTLINE_TEXT_VALUE,
  DYN_OUTLINE_TEXT_EMPTY,
} DynOutlineText;

/**
 * dyn_outline_value_text:
 * @value: a value
 * @kind: (out) (optional): whether the text is a placeholder
 *
 * The one line the tree shows for @value: a string as it is (line breaks as
 * symbols), a number with its exact text, binary as its size, the first
 * bytes in hex and, when they are text, as UTF-8 ("5 bytes · 68 65 6c 6c
 * 6f · “hello”"), maps and lists summarised, sets as {a, b}. An empty string
 * or binary is a translated placeholder ("empty string"), marked in @kind,
 * so that it reads unlike a missing attribute (which has no row).
 *
 * Returns: (transfer full): the text
 */
char         *dyn_outline_value_text    (const DynValue     *value,
                                         DynOutlineText     *kind) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_outline_binary_preview:
 * @bytes: binary data
 * @max_bytes: how many bytes to show in hex (more are cut with "…")
 *
 * "5 bytes · 68 65 6c 6c 6f · “hello”": the size, the first @max_bytes in
 * hex, and the text when the bytes are valid, printable UTF-8.
 *
 * Returns: (transfer full): the text
 */
char         *dyn_outline_binary_preview (GBytes            *bytes,
                                          guint              max_bytes) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_outline_edit_text:
 * @value: a scalar or a set element (S, N or B)
 *
 * The text an in-place editor starts with, read back by
 * dyn_edit_session_stage_path_text(): a string exactly, a number's exact
 * text, binary as base64, a boolean as "true" or "false". %NULL for a value
 * that is not edited as text (NULL, maps, lists, whole sets, a string that
 * holds U+0000, which an entry cannot).
 *
 * Returns: (transfer full) (nullable): the text
 */
char         *dyn_outline_edit_text     (const DynValue     *value) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_outline_lookup:
 * @item: an item
 * @path: a document path; a last index into a set names that element
 *
 * The value the tree shows at @path: dyn_path_lookup(), and for an element
 * of a set (SS, NS, BS) that element as a value of its own (S, N, B).
 *
 * Returns: (transfer full) (nullable): the value, or %NULL when @item does
 *   not hold @path
 */
DynValue     *dyn_outline_lookup        (const DynValue     *item,
                                         const DynExprPath  *path) G_GNUC_WARN_UNUSED_RESULT;

/* Element @index of a set (SS, NS, BS) as a value of its own (S, N, B). */
DynValue     *dyn_outline_set_element   (const DynValue     *set,
                                         guint               index) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_outline_same_shape:
 *
 * Whether the tree of @a and the tree of @b have the same rows: the same
 * member names in every map, lists and sets of the same lengths, at the same
 * paths (scalars may differ in value and type). The tree then updates its
 * rows in place, keeping what is expanded, selected and scrolled to.
 */
gboolean      dyn_outline_same_shape    (const DynValue     *a,
                                         const DynValue     *b);

G_END_DECLS
