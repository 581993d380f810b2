/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-edit-session.h"

G_BEGIN_DECLS

/* A change in conflict, in three columns: the item the user started from,
 * the server's item now, the user's item; one row per document path of
 * dyn_merge_entries() (attributes, and inside maps both sides still hold,
 * their members: "info.rating"), each with a choice between the server's
 * value and the user's (by default the side that changed it).
 * Actions: conflict.take (ss: path as shown, "mine" or "server"),
 * conflict.take-all-mine, conflict.keep-server (drops the change),
 * conflict.commit (stages the merged item against the server's item, so the
 * next commit carries fresh guards, and emits "resolved"; the host then
 * commits). "resolved" (gboolean commit) also follows keep-server, with
 * FALSE. */

typedef enum {
  DYN_CONFLICT_COLUMN_BASE,
  DYN_CONFLICT_COLUMN_SERVER,
  DYN_CONFLICT_COLUMN_MINE,
} DynConflictColumn;

#define DYN_TYPE_CONFLICT_VIEW (dyn_conflict_view_get_type ())
G_DECLARE_FINAL_TYPE (DynConflictView, dyn_conflict_view, DYN, CONFLICT_VIEW, AdwBin)

/* @index: a change of @session whose status is DYN_CHANGE_STATUS_CONFLICT. */
GtkWidget      *dyn_conflict_view_new            (DynEditSession    *session,
                                                  guint              index);
guint           dyn_conflict_view_get_index      (DynConflictView   *self);
/* The item "Commit Again" would stage (NULL: a delete). Borrowed. */
DynValue       *dyn_conflict_view_get_merged_item (DynConflictView  *self);
GPtrArray      *dyn_conflict_view_get_entries    (DynConflictView   *self);  /* DynMergeEntry*, borrowed */
/* What a cell of the row for @attribute (a path as shown: "info.rating")
 * shows, for tests and screen readers, or NULL. */
const char     *dyn_conflict_view_get_cell_text  (DynConflictView   *self,
                                                  const char        *attribute,
                                                  DynConflictColumn  column);
const char     *dyn_conflict_view_get_guard_text (DynConflictView   *self);
/* A modal window holding a conflict view, closed when it is resolved. */
GtkWindow      *dyn_conflict_view_present_window (DynConflictView   *self,
                                                  GtkWindow         *parent);

G_END_DECLS
