/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "dyn-columns.h"

G_BEGIN_DECLS

/*
 * The column picker: a popover listing a table's columns (DynColumnSet) with
 * a check button each to show or hide it, buttons to move it up or down
 * (remove, for a nested-path column), a filter, an entry that adds a column
 * for a document path ("info.rating", "tags[0]"), Show All and Reset. It
 * changes the set; whoever shows the columns follows the set's "changed".
 * Actions (with the column's key as target where there is one):
 * columns.move-up, columns.move-down, columns.remove, columns.add-path,
 * columns.show-all, columns.reset.
 */

#define DYN_TYPE_COLUMN_PICKER (dyn_column_picker_get_type ())
G_DECLARE_FINAL_TYPE (DynColumnPicker, dyn_column_picker, DYN, COLUMN_PICKER, GtkPopover)

GtkWidget      *dyn_column_picker_new              (void);
DynColumnSet   *dyn_column_picker_get_columns      (DynColumnPicker *self);
void            dyn_column_picker_set_columns      (DynColumnPicker *self,
                                                    DynColumnSet    *columns);
/* The parts a test or a screen reader finds by column key. */
GtkCheckButton *dyn_column_picker_get_check_button (DynColumnPicker *self,
                                                    const char      *key);
GtkEditable    *dyn_column_picker_get_path_entry   (DynColumnPicker *self);
GtkEditable    *dyn_column_picker_get_search_entry (DynColumnPicker *self);
/* The error of the last path added, or NULL. */
const char     *dyn_column_picker_get_error        (DynColumnPicker *self);
/* The keys of the rows the filter shows, in order. */
GStrv           dyn_column_picker_dup_shown_keys   (DynColumnPicker *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
