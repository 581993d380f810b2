/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-history.h"

G_BEGIN_DECLS

#define DYN_TYPE_QUERY_POPOVER (dyn_query_popover_get_type ())
G_DECLARE_FINAL_TYPE (DynQueryPopover, dyn_query_popover, DYN, QUERY_POPOVER, GtkPopover)

/* The saved queries of a connection and the recent reads of a table, as
 * rows that run them: win.run-saved (s, the id), win.rename-saved and
 * win.delete-saved on saved ones, win.run-recent (u, the position) on
 * recent ones; "Save Current Query…" is win.save-query. */
GtkWidget   *dyn_query_popover_new              (void);
/* @entries: DynReadEntry (saved: with ids and names) */
void         dyn_query_popover_set_saved        (DynQueryPopover *self,
                                                 GPtrArray       *entries);
/* @table: (nullable): the open table; NULL: none (no recent reads shown) */
void         dyn_query_popover_set_recent       (DynQueryPopover *self,
                                                 const char      *table,
                                                 GPtrArray       *entries);
/* A problem with the saved queries (a file that cannot be read), or NULL. */
void         dyn_query_popover_set_message      (DynQueryPopover *self,
                                                 const char      *message);
GtkListBox  *dyn_query_popover_get_saved_list   (DynQueryPopover *self);
GtkListBox  *dyn_query_popover_get_recent_list  (DynQueryPopover *self);

G_END_DECLS
