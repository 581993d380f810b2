/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "dyn-expr.h"
#include "dyn-item-object.h"
#include "dyn-read-request.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynColumnKind:
 * @DYN_COLUMN_ATTRIBUTE: a top-level attribute, as the items carry it
 * @DYN_COLUMN_PATH: a document path the user added ("info.rating",
 *   "tags[0]"): the value found there
 *
 * What a grid column shows.
 */
typedef enum {
  DYN_COLUMN_ATTRIBUTE,
  DYN_COLUMN_PATH,
} DynColumnKind;

/**
 * DynColumn:
 *
 * One column of a table's grid: an attribute or a nested document path,
 * whether it is shown and how wide it was made. Reference-counted; its set
 * changes its visibility and width, the rest never changes.
 *
 * The key names a column uniquely across both kinds: "a:" and the attribute
 * name, or "p:" and the path in the text path syntax
 * (dyn_expr_path_to_string()), so an attribute named "info.rating" and the
 * path info.rating are two columns.
 */
typedef struct _DynColumn DynColumn;

#define DYN_TYPE_COLUMN (dyn_column_get_type ())
GType              dyn_column_get_type      (void) G_GNUC_CONST;

DynColumn         *dyn_column_ref           (DynColumn       *self);
void               dyn_column_unref         (DynColumn       *self);
const char        *dyn_column_get_key       (const DynColumn *self);
DynColumnKind      dyn_column_get_kind      (const DynColumn *self);
/* The attribute's name, or the path in the text path syntax (parses back
 * with dyn_expr_path_parse()). */
const char        *dyn_column_get_name      (const DynColumn *self);
/* What the header says: the attribute's name, or the path as the user reads
 * it (dyn_path_to_display()). */
const char        *dyn_column_get_title     (const DynColumn *self);
/* The path (a single name for an attribute column). */
const DynExprPath *dyn_column_get_path      (const DynColumn *self);
gboolean           dyn_column_get_visible   (const DynColumn *self);
/* The width the user gave it (dragged or fitted) in pixels; 0: none, the
 * grid sizes it. */
int                dyn_column_get_width     (const DynColumn *self);
/**
 * dyn_column_lookup:
 * @item: an item (M)
 *
 * Returns: (transfer none) (nullable): the value the column shows for
 *   @item; NULL when the item has nothing there (the attribute is missing,
 *   or the path leads through a missing member, an index past the end, or a
 *   value that is not a map or list)
 */
DynValue          *dyn_column_lookup        (const DynColumn *self,
                                             const DynValue  *item);

/**
 * dyn_column_compare_values:
 * @a: (nullable): a value, NULL for missing
 * @b: (nullable): a value, NULL for missing
 * @descending: the order is reversed, but for missing values
 *
 * The order of a grid sorted by a column. Values of one type compare as
 * DynamoDB orders keys (dyn_value_compare()): numbers by their exact value
 * (never through a double), strings and binary by their bytes; false before
 * true; maps, lists and sets element by element. Values of different types
 * go in this order: numbers, strings, binary, booleans, string sets, number
 * sets, binary sets, lists, maps, nulls. A missing value comes after every
 * value, also in descending order.
 *
 * Returns: < 0, 0 or > 0
 */
int                dyn_column_compare_values (const DynValue *a,
                                              const DynValue *b,
                                              gboolean        descending);
/* The same for two rows by @self's value. */
int                dyn_column_compare_items  (const DynColumn *self,
                                              DynItemObject   *a,
                                              DynItemObject   *b,
                                              gboolean         descending);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynColumn, dyn_column_unref)

/**
 * DynColumnSet:
 *
 * The columns of one table's grid as the user arranged them: their order,
 * which are hidden, the nested-path columns added, the widths given. The
 * attribute columns come from the items read (dyn_column_set_note_attributes());
 * an attribute the set knows from before (a saved layout) but that no item
 * read has yet is kept in its place and not listed. Path columns are always
 * listed. New attributes go after the columns listed so far.
 *
 * A layout is saved in a GKeyFile group per connection and table
 * (dyn_column_set_save()), in the file dyn_columns_get_default_path().
 *
 * Signal "changed": the list or a column changed.
 */
#define DYN_TYPE_COLUMN_SET (dyn_column_set_get_type ())
G_DECLARE_FINAL_TYPE (DynColumnSet, dyn_column_set, DYN, COLUMN_SET, GObject)

DynColumnSet *dyn_column_set_new               (void) G_GNUC_WARN_UNUSED_RESULT;
/* Marks @names (e.g. dyn_collection_model_get_attributes()) as present in the
 * items read; @n -1: NULL-terminated. Returns whether the list changed. */
gboolean      dyn_column_set_note_attributes   (DynColumnSet       *self,
                                                const char * const *names,
                                                int                 n);
/* No attribute is present any more (a new read starts); the layout stays. */
void          dyn_column_set_forget_attributes (DynColumnSet       *self);
/* The listed columns in order, hidden ones included. */
guint         dyn_column_set_get_n_columns     (DynColumnSet       *self);
/* (transfer none) */
DynColumn    *dyn_column_set_get_column        (DynColumnSet       *self,
                                                guint               position);
/* (transfer none) (nullable): a listed column by key. */
DynColumn    *dyn_column_set_lookup_key        (DynColumnSet       *self,
                                                const char         *key);
/* (transfer none) (nullable): a listed column by attribute name, else by
 * path text. */
DynColumn    *dyn_column_set_lookup            (DynColumnSet       *self,
                                                const char         *name);
/* Where a listed column is (G_MAXUINT: not listed). */
guint         dyn_column_set_find              (DynColumnSet       *self,
                                                const char         *key);

/**
 * dyn_column_set_add_path:
 * @text: a document path in the expression syntax: "info.rating",
 *   "tags[0]", "`odd.name`.x"
 *
 * Adds a column for the value at @text (after the listed columns), or shows
 * the one there is. A single name is the attribute's column. Fails with
 * DYN_ERROR_EXPRESSION (the parser's message) when @text is not a path.
 *
 * Returns: (transfer none) (nullable): the column
 */
DynColumn    *dyn_column_set_add_path          (DynColumnSet       *self,
                                                const char         *text,
                                                GError            **error);
/* Removes a path column; FALSE for an attribute column or an unknown key. */
gboolean      dyn_column_set_remove_path       (DynColumnSet       *self,
                                                const char         *key);
gboolean      dyn_column_set_set_visible       (DynColumnSet       *self,
                                                const char         *key,
                                                gboolean            visible);
/* Shows every listed column; returns whether one was hidden. */
gboolean      dyn_column_set_show_all          (DynColumnSet       *self);
/* Moves a listed column to @position among the listed ones. */
gboolean      dyn_column_set_move              (DynColumnSet       *self,
                                                const char         *key,
                                                guint               position);
/* Puts the listed columns of @keys in that order (in the places the listed
 * columns hold; others stay where they are): what a drag of the headers did. */
gboolean      dyn_column_set_reorder           (DynColumnSet       *self,
                                                const char * const *keys);
/* @width 0: none (the grid sizes the column). */
gboolean      dyn_column_set_set_width         (DynColumnSet       *self,
                                                const char         *key,
                                                int                 width);
/* Forgets the layout: path columns go, every column is shown at the grid's
 * width, in the order the attributes were noted. */
void          dyn_column_set_reset             (DynColumnSet       *self);
/* Whether anything differs from what dyn_column_set_reset() gives. */
gboolean      dyn_column_set_is_customized     (DynColumnSet       *self);

/* Persistence. */

/* g_get_user_config_dir()/dynoscope/columns.ini */
char         *dyn_columns_get_default_path     (void) G_GNUC_WARN_UNUSED_RESULT;
/* The key file group of a table of a connection (a connection's id). */
char         *dyn_columns_make_group           (const char         *connection_id,
                                                const char         *table) G_GNUC_WARN_UNUSED_RESULT;
/* Replaces the layout with the one in @group; FALSE (nothing changed) when
 * @file has no such group. Attributes not yet noted are kept unlisted. */
gboolean      dyn_column_set_load              (DynColumnSet       *self,
                                                GKeyFile           *file,
                                                const char         *group);
/* Writes the layout into @group (removes the group when nothing is
 * customized). */
void          dyn_column_set_save              (DynColumnSet       *self,
                                                GKeyFile           *file,
                                                const char         *group);
/* The same with the file at @path: loading a missing file is no error;
 * saving reads the file again first, so the other tables' groups another
 * window wrote stay, creates its folder, and writes nothing when the file
 * would not change. */
gboolean      dyn_column_set_load_file         (DynColumnSet       *self,
                                                const char         *path,
                                                const char         *group,
                                                GError            **error);
gboolean      dyn_column_set_save_file         (DynColumnSet       *self,
                                                const char         *path,
                                                const char         *group,
                                                GError            **error);

/* Sorting by a column and saying so. */

/**
 * dyn_columns_read_is_ordered_by:
 * @keys: (nullable): the table's keys
 * @read: (nullable): the read shown
 *
 * Whether @read returns its items ordered by @attribute, as a grid sorted by
 * it shows them: a Query on a source whose (first) sort key @attribute is,
 * forwards for ascending, backwards for @descending.
 */
gboolean      dyn_columns_read_is_ordered_by   (const DynTableKeys *keys,
                                                DynReadRequest     *read,
                                                const char         *attribute,
                                                gboolean            descending);
/**
 * dyn_columns_find_ordered_query:
 * @keys: (nullable): the table's keys
 * @read: (nullable): the read shown
 * @index_name: (out) (transfer full) (optional): the index, NULL for the table
 *
 * A source (the table or an index that projects every attribute) whose first
 * sort key is @attribute and on which the items @read asks for (its key
 * condition and filter) can be read with a Query, other than a Query @read
 * already is: DynamoDB then returns them ordered by @attribute. Items without
 * @attribute are not in such an index.
 *
 * Returns: whether there is one
 */
gboolean      dyn_columns_find_ordered_query   (const DynTableKeys *keys,
                                                DynReadRequest     *read,
                                                const char         *attribute,
                                                char              **index_name);
/**
 * dyn_columns_describe_sort:
 * @title: the column's title
 * @grouped: rows are grouped in item collections (sorted within each)
 * @n_items: the items loaded
 * @complete: every item of the read is loaded
 * @ordered: the read returns the items in this order
 *   (dyn_columns_read_is_ordered_by())
 * @index_name: (nullable): the index read, NULL for the table
 *
 * What the grid says while sorted (translated): "Sorted by Price over the
 * 279 loaded items — not the whole table".
 */
char         *dyn_columns_describe_sort        (const char         *title,
                                                gboolean            descending,
                                                gboolean            grouped,
                                                guint               n_items,
                                                gboolean            complete,
                                                gboolean            ordered,
                                                const char         *index_name) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
