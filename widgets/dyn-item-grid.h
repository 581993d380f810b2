/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-collections.h"
#include "dyn-column-picker.h"
#include "dyn-columns.h"
#include "dyn-edit-session.h"
#include "dyn-pager.h"
#include "dyn-read-request.h"

G_BEGIN_DECLS

#define DYN_TYPE_ITEM_GRID (dyn_item_grid_get_type ())
G_DECLARE_FINAL_TYPE (DynItemGrid, dyn_item_grid, DYN, ITEM_GRID, AdwBin)

GtkWidget          *dyn_item_grid_new                 (void);
DynCollectionModel *dyn_item_grid_get_model           (DynItemGrid        *self);
/* Shows @model: grouped by item collection or flat (see "grouped"). */
void                dyn_item_grid_set_model           (DynItemGrid        *self,
                                                       DynCollectionModel *model);
/* "grouped" is the user's choice; a model without item collections (no
 * sort key, see dyn_collection_model_has_collections()) is shown as a plain
 * list all the same, which get_shows_collections() says. Grouped, the
 * header row of a collection shows the partition key and its rows leave
 * their partition-key cells empty; the Item column of an item row shows
 * its entity label and staged state, the keys have their own columns. */
gboolean            dyn_item_grid_get_grouped         (DynItemGrid        *self);
void                dyn_item_grid_set_grouped         (DynItemGrid        *self,
                                                       gboolean            grouped);
gboolean            dyn_item_grid_get_shows_collections (DynItemGrid      *self);
/* Attributes whose values are links ("follow-item", then "follow-key"): the
 * partition keys of the table and its indexes, see
 * dyn_table_keys_get_link_attributes(). */
void                dyn_item_grid_set_link_attributes (DynItemGrid        *self,
                                                       const char * const *names);
/* The row list as shown: a DynRowModel, whose items are DynCollection
 * (a collection's header row) and DynItemObject. */
GListModel         *dyn_item_grid_get_rows            (DynItemGrid        *self);
GtkColumnView      *dyn_item_grid_get_column_view     (DynItemGrid        *self);
/* The attribute columns in their current order (hidden ones included). */
GStrv               dyn_item_grid_dup_column_names    (DynItemGrid        *self) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_item_grid_set_column_visible  (DynItemGrid        *self,
                                                       const char         *name,
                                                       gboolean            visible);
gboolean            dyn_item_grid_get_column_visible  (DynItemGrid        *self,
                                                       const char         *name);
/* (nullable) (transfer none): the selected item */
DynItemObject      *dyn_item_grid_get_selected_item   (DynItemGrid        *self);
void                dyn_item_grid_select_row          (DynItemGrid        *self,
                                                       guint               position);
/* Selects the row of @object (when it is shown). */
void                dyn_item_grid_select_item         (DynItemGrid        *self,
                                                       DynItemObject      *object,
                                                       gboolean            unselect_rest);
/* The selected items (DynItemObject, new references; collection rows are
 * left out). */
GPtrArray          *dyn_item_grid_dup_selected_items  (DynItemGrid        *self) G_GNUC_WARN_UNUSED_RESULT;
GtkAdjustment      *dyn_item_grid_get_vadjustment     (DynItemGrid        *self);

/* Editing: with a session, a double-click on a scalar cell (or action
 * grid.edit-cell on the selected row) edits it in place; Enter stages the
 * text with dyn_edit_session_stage_cell_text(), Escape cancels. Rows show
 * their DynItemState; changed cells are marked. Signals "edit-failed"
 * (GError) and "edit-item" (DynItemObject: a map, list or set cell). */
DynEditSession     *dyn_item_grid_get_edit_session    (DynItemGrid        *self);
void                dyn_item_grid_set_edit_session    (DynItemGrid        *self,
                                                       DynEditSession     *session);
/* Starts editing the cell of @object's row (it must be shown). */
gboolean            dyn_item_grid_edit_cell           (DynItemGrid        *self,
                                                       DynItemObject      *object,
                                                       const char         *attribute);
/* The entry of the cell being edited, or NULL. */
GtkEditable        *dyn_item_grid_get_cell_editor     (DynItemGrid        *self);
/* Whether the shown cell is marked as changed (FALSE when not shown). */
gboolean            dyn_item_grid_get_cell_changed    (DynItemGrid        *self,
                                                       DynItemObject      *object,
                                                       const char         *attribute);
/* The text the shown cell of @object's row displays, or NULL when that cell
 * is not shown. */
char               *dyn_item_grid_dup_cell_text       (DynItemGrid        *self,
                                                       DynItemObject      *object,
                                                       const char         *attribute) G_GNUC_WARN_UNUSED_RESULT;
/* The items the shown rows are bound to (DynItemObject, new references, each
 * once). */
GPtrArray          *dyn_item_grid_dup_shown_items     (DynItemGrid        *self) G_GNUC_WARN_UNUSED_RESULT;

/* A context menu on the rows: a right click selects the row under the
 * pointer (unless it is selected already) and opens @menu there; the Menu
 * key and Shift+F10 open it at the focused row. Once per grid. Returns its
 * popover (transfer none). */
GtkPopover         *dyn_item_grid_set_row_menu        (DynItemGrid        *self,
                                                       GMenuModel         *menu);
/* Columns. The attribute columns follow a DynColumnSet: one per table, its
 * layout (order, hidden, nested-path columns, widths) saved per connection
 * and table in dyn_columns_get_default_path() (not for a connection without
 * an id). The column picker (a button over the header's end, or "Columns…"
 * in a header's menu: grid.choose-columns) changes it; so do dragging a
 * header or its edge and the header menus. A column without a width of the
 * user's is sized to its header and the loaded values; a double-click on a
 * header's edge, grid.fit-column (name) and grid.fit-all-columns fit it.
 * Names in the actions and functions here are attribute names, or the text
 * of a nested path ("info.rating", "tags[0]"). */

/* What is shown: the connection (its id; NULL: not saved) and the table
 * whose column layout applies, and the read (to tell whether a Query
 * returns a column's order; @pager: whether all of it is loaded). Another
 * table loads its layout and drops the sort. */
void                dyn_item_grid_set_read            (DynItemGrid        *self,
                                                       const char         *connection_id,
                                                       const DynTableKeys *keys,
                                                       DynReadRequest     *read,
                                                       DynPager           *pager);
DynColumnSet       *dyn_item_grid_get_column_set      (DynItemGrid        *self);
DynColumnPicker    *dyn_item_grid_get_column_picker   (DynItemGrid        *self);
/* The width the column has (-1: not shown). */
int                 dyn_item_grid_get_column_width    (DynItemGrid        *self,
                                                       const char         *name);

/* Sorting: a header click (or grid.sort-ascending/-descending with a name,
 * grid.clear-sort) sorts the loaded rows by that column with
 * dyn_column_compare_values(): in grouped mode within each item
 * collection, in flat mode all of them. A bar over the rows says so and
 * offers "Query Index X Ordered by This" (grid.query-ordered, signal
 * "query-ordered" (index or NULL for the table, descending)) when a Query
 * would return the same items in that order. @name NULL: unsorted. */
void                dyn_item_grid_sort_by             (DynItemGrid        *self,
                                                       const char         *name,
                                                       gboolean            descending);
/* The sort column's name, or NULL. */
const char         *dyn_item_grid_get_sort_column     (DynItemGrid        *self,
                                                       gboolean           *descending);
/* What the bar says, or NULL when unsorted. */
const char         *dyn_item_grid_get_sort_text       (DynItemGrid        *self);
/* Whether the bar offers a Query; @index_name: its index, NULL for the table. */
gboolean            dyn_item_grid_get_ordered_query   (DynItemGrid        *self,
                                                       const char        **index_name);

G_END_DECLS
