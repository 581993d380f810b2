/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-edit-session.h"

G_BEGIN_DECLS

/* A whole item in a JSON editor (a modal window): plain JSON (with the tags
 * of client/VALUES.md: sets as {"$set": […]}) or DynamoDB JSON, validated as you type with the
 * line of the error, and a preview of the guard the write will use. "Stage"
 * (action editor.save) stages the item in the session and closes; the
 * "staged" signal carries the row. Property action editor.ddb-json switches
 * the view. */

#define DYN_TYPE_ITEM_EDITOR (dyn_item_editor_get_type ())
G_DECLARE_FINAL_TYPE (DynItemEditor, dyn_item_editor, DYN, ITEM_EDITOR, AdwWindow)

/* Edits the item of @object (a row of the session's model). */
GtkWidget    *dyn_item_editor_new             (DynEditSession *session,
                                               DynItemObject  *object);
/* A new item: @item (nullable) is the text to start from; NULL uses the
 * table's key schema (dyn_edit_session_new_item_template()). */
GtkWidget    *dyn_item_editor_new_for_create  (DynEditSession *session,
                                               DynValue       *item);

gboolean      dyn_item_editor_get_ddb_json    (DynItemEditor  *self);
/* Switches the view; refused (FALSE) while the text does not parse. */
gboolean      dyn_item_editor_set_ddb_json    (DynItemEditor  *self,
                                               gboolean        ddb_json);
char         *dyn_item_editor_dup_text        (DynItemEditor  *self) G_GNUC_WARN_UNUSED_RESULT;
void          dyn_item_editor_set_text        (DynItemEditor  *self,
                                               const char     *text);
gboolean      dyn_item_editor_get_valid       (DynItemEditor  *self);
/* The item the text holds now (borrowed), or NULL when it is not valid. */
DynValue     *dyn_item_editor_get_item        (DynItemEditor  *self);
/* The error as shown, and its 1-based line (0: none or unknown). */
const char   *dyn_item_editor_get_error_message (DynItemEditor *self);
guint         dyn_item_editor_get_error_line  (DynItemEditor  *self);
/* The guard the write will use, as shown ("" when nothing changes). */
const char   *dyn_item_editor_get_guard_text  (DynItemEditor  *self);
GtkWidget    *dyn_item_editor_get_source_view (DynItemEditor  *self);

G_END_DECLS
