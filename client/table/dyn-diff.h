/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "dyn-expr.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/* Document paths --------------------------------------------------------- */

/**
 * dyn_path_to_display:
 *
 * A document path as the user reads it: member names joined by ".", list
 * elements as "[n]" ("info.rating", "info.genres[1]"). A name that would
 * read as more than one segment (it holds ".", "[", "]" or "`", or is
 * empty) is backquoted, with "`" doubled, as in the expression syntax.
 */
char         *dyn_path_to_display       (const DynExprPath  *path) G_GNUC_WARN_UNUSED_RESULT;
/* The value at @path in @item (maps and lists walked), or NULL. Borrowed. */
DynValue     *dyn_path_lookup           (const DynValue     *item,
                                         const DynExprPath  *path);
/* Whether one path is a prefix of the other (or both are equal): DynamoDB
 * refuses two such paths in one update expression. */
gboolean      dyn_path_overlaps         (const DynExprPath  *a,
                                         const DynExprPath  *b);
/**
 * dyn_item_with_path:
 * @value: (nullable): the new value, %NULL to remove the member
 *
 * A copy of @item with the value at @path replaced (or, for a map member,
 * removed when @value is %NULL); maps and lists on the way are copied, the
 * rest is shared. Returns %NULL when a parent on the way is missing or of
 * another type, or a list index is out of range.
 */
DynValue     *dyn_item_with_path        (const DynValue     *item,
                                         const DynExprPath  *path,
                                         DynValue           *value) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynDiffKind:
 *
 * How the value at one document path differs between two items.
 */
typedef enum {
  DYN_DIFF_UNCHANGED,
  DYN_DIFF_ADDED,
  DYN_DIFF_REMOVED,
  DYN_DIFF_CHANGED,
} DynDiffKind;

/**
 * DynDiffEntry:
 * @name: the path as text (dyn_path_to_display()): "Status", "info.rating"
 * @kind: what happened to it
 * @before: (nullable): its value before
 * @after: (nullable): its value after
 * @is_key: whether it is a key attribute
 * @path: the document path
 */
typedef struct {
  char        *name;
  DynDiffKind  kind;
  DynValue    *before;
  DynValue    *after;
  gboolean     is_key;
  DynExprPath *path;
} DynDiffEntry;

/**
 * dyn_diff_items:
 * @before: (nullable): an item (type M), %NULL for a create
 * @after: (nullable): an item, %NULL for a delete
 * @keys: (nullable): the table's key schema; key attributes come first
 * @include_unchanged: whether to list paths that did not change
 *
 * The diff of two items by document path (values compared with DynamoDB
 * equality). Where both items hold a map at a path, the diff goes into its
 * members; where both hold a list of the same length, into its elements (a
 * list that grew or shrank is one changed value: positions would not name
 * the same elements any more). Everything else — scalars, sets, a map
 * replaced by a non-map, a map that is new or gone — is one entry at its
 * path. The entries' paths never overlap. Order: key attributes first, then
 * at each level @before's members in its order, then those only @after has.
 *
 * Returns: (transfer full) (element-type DynDiffEntry): the entries
 */
GPtrArray    *dyn_diff_items            (const DynValue     *before,
                                         const DynValue     *after,
                                         const DynKeySchema *keys,
                                         gboolean            include_unchanged) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynMergeSide:
 *
 * Which value a three-way merge keeps at a path.
 */
typedef enum {
  DYN_MERGE_SERVER,
  DYN_MERGE_MINE,
} DynMergeSide;

/**
 * DynMergeEntry:
 * @name: the path as text (dyn_path_to_display())
 * @base: (nullable): the value the user started from
 * @server: (nullable): the value on the server now
 * @mine: (nullable): the value the user wants
 * @server_changed: @server differs from @base
 * @mine_changed: @mine differs from @base
 * @conflict: both changed, to different values
 * @is_key: a key attribute (never chosen: the key is the item's identity)
 * @side: the choice; by default the side that changed it (mine when both did)
 * @path: the document path
 */
typedef struct {
  char         *name;
  DynValue     *base;
  DynValue     *server;
  DynValue     *mine;
  gboolean      server_changed;
  gboolean      mine_changed;
  gboolean      conflict;
  gboolean      is_key;
  DynMergeSide  side;
  DynExprPath  *path;
} DynMergeEntry;

/**
 * dyn_merge_entries:
 * @base: (nullable): the item the user started from
 * @server: (nullable): the server's current item (%NULL: deleted there)
 * @mine: (nullable): the user's item (%NULL: the user deletes it)
 *
 * One entry per document path of the three items. Where the server's and
 * the user's items both hold a map (and the base a map or nothing), the
 * merge goes into its members, so each side keeps the members it changed;
 * where all three hold lists of one length, into the elements. Anything
 * else (a map replaced by a non-map, a map one side removed) is one entry at
 * its path. Paths that are the same in all three are single entries at the
 * highest level where they are. The entries' paths never overlap. Order:
 * keys, then at each level @base's, @server's and @mine's members.
 *
 * Returns: (transfer full) (element-type DynMergeEntry): the entries
 */
GPtrArray    *dyn_merge_entries         (const DynValue     *base,
                                         const DynValue     *server,
                                         const DynValue     *mine,
                                         const DynKeySchema *keys) G_GNUC_WARN_UNUSED_RESULT;
/* The merged item: each entry's chosen value at its path (absent when NULL;
 * the maps and lists the merge went into are kept, even when emptied). Keys
 * come from the server's side, or mine when the server has none. */
DynValue     *dyn_merge_build           (GPtrArray          *entries) G_GNUC_WARN_UNUSED_RESULT;
/* The entry whose path reads @name ("info.rating"), or NULL. */
DynMergeEntry *dyn_merge_lookup         (GPtrArray          *entries,
                                         const char         *name);

/* A copy of @item with @name set to @value (or removed when @value is NULL),
 * keeping member order. */
DynValue     *dyn_item_with_attribute   (const DynValue     *item,
                                         const char         *name,
                                         DynValue           *value) G_GNUC_WARN_UNUSED_RESULT;
/* The key attributes of @item as a map, or NULL when one is missing. */
DynValue     *dyn_item_key              (const DynValue     *item,
                                         const DynKeySchema *keys) G_GNUC_WARN_UNUSED_RESULT;
/* Whether @item holds the key attributes with their schema types; a message
 * in @error names the missing or mistyped one (DYN_ERROR_INVALID_ARGUMENT). */
gboolean      dyn_item_check_key        (const DynValue     *item,
                                         const DynKeySchema *keys,
                                         GError            **error);
/* Whether the key attributes of @table's indexes that @item holds have the
 * index's types and are not empty strings or binaries, as DynamoDB requires
 * of a written item (an item without one is just not in that index). Every
 * attribute of a multi-attribute key counts. The message names the
 * attribute and the index (DYN_ERROR_INVALID_ARGUMENT). */
gboolean      dyn_item_check_index_keys (const DynValue     *item,
                                         const DynTableKeys *table,
                                         GError            **error);

/**
 * dyn_item_to_editable_json:
 *
 * An item as plain JSON for editing by hand: one attribute per line, maps
 * and lists of more than a few members indented, numbers with their exact
 * text, binary as {"$binary": …}, and sets written as plain arrays (see
 * dyn_item_from_editable_json(), which turns them back into sets).
 */
char         *dyn_item_to_editable_json (const DynValue     *item) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_item_from_editable_json:
 * @reference: (nullable): the item the text was made from
 *
 * Parses plain JSON (the rules of dyn_json_decode_plain()) into an item and
 * keeps set types: where @reference holds a set (at the same path through
 * maps and lists) and the text holds an array of elements of that set's
 * type, the value becomes that set again. An empty array or repeated
 * elements there are an error rather than a silent change of type.
 */
DynValue     *dyn_item_from_editable_json (const char       *json,
                                           gssize            len,
                                           const DynValue   *reference,
                                           GError          **error) G_GNUC_WARN_UNUSED_RESULT;

/* The 1-based line of the byte offset an error message names ("… at byte
 * 123"), or of the first quoted attribute name it starts with; 0 when
 * neither is found in @text. */
guint         dyn_json_error_line       (const char         *text,
                                         const char         *message);

void          dyn_diff_entry_free       (DynDiffEntry       *entry);
void          dyn_merge_entry_free      (DynMergeEntry      *entry);

G_END_DECLS
