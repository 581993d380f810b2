/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-edit-session.h"
#include "dyn-item-outline.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/* The selected item as a tree and as JSON.
 *
 * The tree lists the table's key attributes first, marked as keys (the
 * partition key, the sort key, then the key attributes of the indexes),
 * then the other attributes by name; maps list their members by name
 * (DynamoDB keeps no member order), lists and sets their elements in order.
 * Every row can be expanded or collapsed at once ("detail.expand-all",
 * Ctrl+Shift+Right; "detail.collapse-all", Ctrl+Shift+Left; buttons above
 * the tree and the context menu).
 *
 * A scalar at any depth is edited in place (Enter, a double-click or F2 on
 * its row: an entry; Enter stages, Escape cancels, leaving the entry
 * stages): through the edit session, so the change is staged with its guard
 * like any other edit, never written at once. The value keeps its type (a
 * number is checked as a DynamoDB number, binary is typed as base64, a set
 * element as its set's element type); a boolean toggles; NULL, maps, lists
 * and whole sets are edited in the JSON editor, and so are key attributes
 * (another key is another item: the editor writes a delete and a put).
 * A refused edit says why under the tree and changes nothing.
 *
 * The context menu of a row (a right-click, Shift+F10, Menu) edits it and
 * copies its value (Ctrl+C: a scalar as typed in place, a map, list or set
 * as plain JSON) or its path as the expression syntax spells it. */

#define DYN_TYPE_ITEM_DETAIL (dyn_item_detail_get_type ())
G_DECLARE_FINAL_TYPE (DynItemDetail, dyn_item_detail, DYN, ITEM_DETAIL, AdwBin)

GtkWidget      *dyn_item_detail_new              (void);
/* @item: (nullable): an item (type M). An item with the key and the rows
 * of the one shown (a staged edit of it) updates the rows in place;
 * another one keeps the paths that were expanded. */
void            dyn_item_detail_set_item         (DynItemDetail  *self,
                                                  DynValue       *item);
DynValue       *dyn_item_detail_get_item         (DynItemDetail  *self);
/* A title for the item (its key). */
void            dyn_item_detail_set_title        (DynItemDetail  *self,
                                                  const char     *title);
/* "tree", "json" or "ddb-json". */
void            dyn_item_detail_set_view         (DynItemDetail  *self,
                                                  const char     *view);
const char     *dyn_item_detail_get_view         (DynItemDetail  *self);
/* The texts shown (indented); NULL without an item. */
const char     *dyn_item_detail_get_plain_json   (DynItemDetail  *self);
const char     *dyn_item_detail_get_ddb_json     (DynItemDetail  *self);
/* The attribute tree (GtkTreeListRow items). */
GListModel     *dyn_item_detail_get_tree         (DynItemDetail  *self);

/* @session: (nullable): the open table's edit session. Its keys order the
 * tree; in-place edits are staged in it when its model holds the item (not
 * for items read from an index). */
void            dyn_item_detail_set_edit_session (DynItemDetail  *self,
                                                  DynEditSession *session);
DynEditSession *dyn_item_detail_get_edit_session (DynItemDetail  *self);

/* The rows as shown (0 … n-1 of the tree): the document path ("info.
 * ratings[2]"; an index into a set names its element), the text of the
 * value cell and what the attribute is to the table. NULL / NOT_KEY past
 * the end. */
char           *dyn_item_detail_dup_row_path     (DynItemDetail  *self,
                                                  guint           position) G_GNUC_WARN_UNUSED_RESULT;
char           *dyn_item_detail_dup_row_text     (DynItemDetail  *self,
                                                  guint           position) G_GNUC_WARN_UNUSED_RESULT;
DynOutlineKey   dyn_item_detail_get_row_key      (DynItemDetail  *self,
                                                  guint           position);
/* The position of the row at @path (text path syntax), or -1 when no row
 * shows it (its parents collapsed). */
int             dyn_item_detail_find_row         (DynItemDetail  *self,
                                                  const char     *path);
/* Selects the row at @path, expanding its parents; FALSE when the item
 * does not hold it. */
gboolean        dyn_item_detail_select_path      (DynItemDetail  *self,
                                                  const char     *path);
/* The entry of an in-place edit, or NULL. */
GtkEditable    *dyn_item_detail_get_editor       (DynItemDetail  *self);
/* Why the last edit was refused (shown under the tree), or NULL. */
const char     *dyn_item_detail_get_message      (DynItemDetail  *self);

G_END_DECLS
