/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-conflict-view.h"
#include "dyn-edit-session.h"

G_BEGIN_DECLS

/* The staged changes of a DynEditSession: per change its kind, item, guard
 * and per-attribute diff (before / after), a button to drop it; "Commit N
 * Changes", "Discard All", undo of the last commit. A commit that meets a
 * conflict opens a DynConflictView in a modal window; resolving it there
 * commits again.
 * The guard choice (DynEditSession:guard-mode: the values it changes, the
 * whole item, a version attribute) is a dropdown above the list.
 * Actions: staged.commit, staged.discard-all, staged.undo, staged.drop (u),
 * staged.resolve (u), staged.guard-mode (s: "changes", "item", "version"). Signal "committed" (DynCommitResult, or NULL with the
 * error's message in the status line) after a commit or undo. */

#define DYN_TYPE_STAGED_CHANGES (dyn_staged_changes_get_type ())
G_DECLARE_FINAL_TYPE (DynStagedChanges, dyn_staged_changes, DYN, STAGED_CHANGES, AdwBin)

GtkWidget        *dyn_staged_changes_new               (DynEditSession   *session);
DynEditSession   *dyn_staged_changes_get_session       (DynStagedChanges *self);
void              dyn_staged_changes_set_session       (DynStagedChanges *self,
                                                        DynEditSession   *session);
/* The conflict view open now, or NULL. */
DynConflictView  *dyn_staged_changes_get_conflict_view (DynStagedChanges *self);
/* The status line ("2 changes committed" …). */
const char       *dyn_staged_changes_get_status_text   (DynStagedChanges *self);
/* What the list shows for change @index (for tests and screen readers):
 * the number of attribute rows in its diff, and its guard line. */
guint             dyn_staged_changes_get_n_diff_rows   (DynStagedChanges *self,
                                                        guint             index);
const char       *dyn_staged_changes_get_guard_text    (DynStagedChanges *self,
                                                        guint             index);
/* The guard choice (for tests). */
GtkDropDown      *dyn_staged_changes_get_guard_dropdown (DynStagedChanges *self);

G_END_DECLS
