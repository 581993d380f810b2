/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-changes.h"
#include "dyn-client.h"
#include "dyn-collections.h"
#include "dyn-diff.h"
#include "dyn-guardrail.h"

G_BEGIN_DECLS

/* The staged edits of one table: what the user changed, shown in the
 * collection model (rows replaced by their staged items and marked with
 * DynItemState), committed as one DynChangeSet. Conflicts stay staged with
 * the server's current item until resolved; the last commit can be undone
 * with guarded inverse changes.
 *
 * Signals: "changed" (the staged list or a status changed), "conflict"
 * (guint index: a commit left that change in conflict), "committed"
 * (DynCommitResult: a commit or an undo finished). */

#define DYN_TYPE_EDIT_SESSION (dyn_edit_session_get_type ())
G_DECLARE_FINAL_TYPE (DynEditSession, dyn_edit_session, DYN, EDIT_SESSION, GObject)

DynEditSession     *dyn_edit_session_new                 (DynClient          *client,
                                                          const char         *table,
                                                          const DynKeySchema *keys) G_GNUC_WARN_UNUSED_RESULT;
/* The table's indexes (copied; NULL: none): staging refuses an item whose
 * index key attributes have other types than the index's or are empty, and
 * the commit's change set checks the same (dyn_change_set_set_index_keys()). */
void                dyn_edit_session_set_index_keys      (DynEditSession     *self,
                                                          const DynTableKeys *table);
/* The table's indexes as set above (NULL: none set). */
const DynTableKeys *dyn_edit_session_get_index_keys      (DynEditSession     *self);
DynClient          *dyn_edit_session_get_client          (DynEditSession     *self);
const char         *dyn_edit_session_get_table           (DynEditSession     *self);
const DynKeySchema *dyn_edit_session_get_keys            (DynEditSession     *self);
DynCollectionModel *dyn_edit_session_get_model           (DynEditSession     *self);
/* The rows to mark; staged items replace their rows in it. May be NULL. */
void                dyn_edit_session_set_model           (DynEditSession     *self,
                                                          DynCollectionModel *model);
/* Shows each staged change in the model's row that holds its key, staged
 * item and mark (a create gets a row of its own): after a refresh put a new
 * model in place, or a page arrived. set_model() does it too. */
void                dyn_edit_session_show_in_model       (DynEditSession     *self);
gboolean            dyn_edit_session_get_read_only       (DynEditSession     *self);
void                dyn_edit_session_set_read_only       (DynEditSession     *self,
                                                          gboolean            read_only);
const char         *dyn_edit_session_get_version_attribute (DynEditSession   *self);
/* Naming a version attribute also selects DYN_GUARD_VERSION; NULL while it
 * is selected returns to DYN_GUARD_CHANGES (as on DynChangeSet). */
void                dyn_edit_session_set_version_attribute (DynEditSession   *self,
                                                            const char       *name);
/* What the staged updates and deletes are guarded by (property
 * "guard-mode", default DYN_GUARD_CHANGES); changing it re-plans them. */
DynGuardMode        dyn_edit_session_get_guard_mode      (DynEditSession     *self);
void                dyn_edit_session_set_guard_mode      (DynEditSession     *self,
                                                          DynGuardMode        mode);
guint               dyn_edit_session_get_n_changes       (DynEditSession     *self);
guint               dyn_edit_session_get_n_conflicts     (DynEditSession     *self);
gboolean            dyn_edit_session_get_busy            (DynEditSession     *self);
gboolean            dyn_edit_session_get_can_undo        (DynEditSession     *self);
/* How many changes the last commit applied, which an undo would revert. */
guint               dyn_edit_session_get_n_undo          (DynEditSession     *self);

/* Staging. Each fails with DYN_ERROR_READ_ONLY on a read-only session,
 * G_IO_ERROR_BUSY during a commit, DYN_ERROR_INVALID_ARGUMENT for an item
 * without its key; messages are translated. @object is a row of the model
 * (or any DynItemObject when there is no model). */
gboolean            dyn_edit_session_stage_edit          (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          DynValue           *new_item,
                                                          GError            **error);
/* Sets (or with @value NULL removes) one attribute of the row's item. */
gboolean            dyn_edit_session_stage_attribute     (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const char         *attribute,
                                                          DynValue           *value,
                                                          GError            **error);
/* In-place cell editing: @text is read as the attribute's current type (S,
 * N, BOOL, NULL, B as base64; a new attribute is a string). Maps, lists and
 * sets are refused: they are edited in the JSON editor. */
gboolean            dyn_edit_session_stage_cell_text     (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const char         *attribute,
                                                          const char         *text,
                                                          GError            **error);
/* In-place editing inside the item (the detail tree). @path names a value
 * through maps and lists; when its last segment is an index into a set (SS,
 * NS, BS) it names that element, in the set's order. stage_path sets the
 * value there (or with @value NULL removes a map member); an element of a
 * set must get a value of the set's element type, and one the set does not
 * hold yet. stage_path_text reads @text as the value's current type (S as
 * it is, N validated as a DynamoDB number, BOOL true or false, B as base64,
 * a set element as its element type); NULL values, maps, lists and whole
 * sets are refused. Both refuse a key attribute of the table (a changed key
 * is another item: a delete and a put) and a path the item does not hold,
 * with DYN_ERROR_INVALID_ARGUMENT or DYN_ERROR_INVALID_VALUE and a
 * translated message; nothing is staged then. Otherwise the change is
 * staged like any other edit, with its guard. */
gboolean            dyn_edit_session_stage_path          (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const DynExprPath  *path,
                                                          DynValue           *value,
                                                          GError            **error);
gboolean            dyn_edit_session_stage_path_text     (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const DynExprPath  *path,
                                                          const char         *text,
                                                          GError            **error);
/* Whether the value at @path can be edited as text in place now; FALSE with
 * the reason stage_path_text would give (read-only, a key, NULL, a map …)
 * in @error. */
gboolean            dyn_edit_session_check_path          (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const DynExprPath  *path,
                                                          GError            **error);
/* Whether the value at @path (maps and lists walked) differs between what
 * was loaded and what is staged for @object. */
gboolean            dyn_edit_session_is_path_changed     (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          const DynExprPath  *path);
gboolean            dyn_edit_session_stage_delete        (DynEditSession     *self,
                                                          DynItemObject      *object,
                                                          GError            **error);
/* Returns the new row (transfer none), or NULL with @error. */
DynItemObject      *dyn_edit_session_stage_create        (DynEditSession     *self,
                                                          DynValue           *item,
                                                          GError            **error);
/* Whether the cell @attribute of @object differs from what was loaded. */
gboolean            dyn_edit_session_is_attribute_changed (DynEditSession    *self,
                                                           DynItemObject     *object,
                                                           const char        *attribute);
/* The index of @object's staged change, or -1. */
int                 dyn_edit_session_lookup              (DynEditSession     *self,
                                                          DynItemObject      *object);
/* A new item from the key schema: the key attributes, empty. */
DynValue           *dyn_edit_session_new_item_template   (DynEditSession     *self) G_GNUC_WARN_UNUSED_RESULT;
/* A copy of @object's item with a new key suggested (the sort key, else the
 * partition key, with "-copy" appended). */
DynValue           *dyn_edit_session_dup_for_duplicate   (DynEditSession     *self,
                                                          DynItemObject      *object) G_GNUC_WARN_UNUSED_RESULT;

/* The staged changes, by index (0 … n_changes-1). */
DynChange          *dyn_edit_session_get_change          (DynEditSession     *self,
                                                          guint               index);   /* borrowed */
DynItemObject      *dyn_edit_session_get_object          (DynEditSession     *self,
                                                          guint               index);   /* borrowed, nullable */
DynChangeKind       dyn_edit_session_get_kind            (DynEditSession     *self,
                                                          guint               index);
/* PENDING, or what the last commit did with it (CONFLICT, FAILED …). */
DynChangeStatus     dyn_edit_session_get_status          (DynEditSession     *self,
                                                          guint               index);
/* For a conflict: the server's current item (NULL: it is gone). */
DynValue           *dyn_edit_session_get_current         (DynEditSession     *self,
                                                          guint               index);
const GError       *dyn_edit_session_get_error           (DynEditSession     *self,
                                                          guint               index);
/* How the change will be guarded: the plan's guard kind ("values",
 * "version", "changed-attributes", "partial", "not-exists") and its one
 * translated sentence ("Guarded by the values it changes: info.rating is
 * still 8.7"). NULL with @error when the staged set cannot be planned. */
char               *dyn_edit_session_describe_guard      (DynEditSession     *self,
                                                          guint               index,
                                                          char              **guard_kind,
                                                          GError            **error) G_GNUC_WARN_UNUSED_RESULT;
/* The requests a commit would send now (dyn_change_set_plan()), a copy. */
JsonNode           *dyn_edit_session_dup_plan            (DynEditSession     *self,
                                                          GError            **error) G_GNUC_WARN_UNUSED_RESULT;
/* The guard sentence a change from @before to @after would get, as shown
 * before a write. NULL with @error when the change cannot be planned. */
char               *dyn_edit_session_preview_guard       (DynEditSession     *self,
                                                          DynValue           *before,
                                                          DynValue           *after,
                                                          GError            **error) G_GNUC_WARN_UNUSED_RESULT;
/* The diff of change @index by document path (changed paths only). */
GPtrArray          *dyn_edit_session_diff                (DynEditSession     *self,
                                                          guint               index) G_GNUC_WARN_UNUSED_RESULT;
/* A title for the change's item: "WS#acme · PROJ#2026-0001". */
char               *dyn_edit_session_dup_title           (DynEditSession     *self,
                                                          guint               index) G_GNUC_WARN_UNUSED_RESULT;

/* Drops change @index and restores its row. */
void                dyn_edit_session_drop                (DynEditSession     *self,
                                                          guint               index);
void                dyn_edit_session_discard_all         (DynEditSession     *self);

/* Conflicts. resolve: stages @resolved (NULL: delete) against the server's
 * current item, so the next commit is guarded by what the server has now;
 * when the item is gone the change becomes a create. keep_server: drops the
 * change and shows the server's item in the row. */
gboolean            dyn_edit_session_resolve_conflict    (DynEditSession     *self,
                                                          guint               index,
                                                          DynValue           *resolved,
                                                          GError            **error);
void                dyn_edit_session_keep_server         (DynEditSession     *self,
                                                          guint               index);

/* The guardrail asked before every commit and undo (dyn_guardrail_approve_async()
 * with the summary of the set about to be sent): a production connection
 * refuses while locked and confirms each write while unlocked; nothing is
 * sent on a refusal or Cancel (G_IO_ERROR_CANCELLED). NULL (default): none. */
void                dyn_edit_session_set_guardrail       (DynEditSession     *self,
                                                          DynGuardrail       *guardrail);
DynGuardrail       *dyn_edit_session_get_guardrail       (DynEditSession     *self);

/* Commits every staged change. Applied changes leave the list and their rows
 * show the written items; conflicts and failures stay. Fails (without
 * sending anything) on a read-only session or when the set cannot be planned. */
void                dyn_edit_session_commit_async        (DynEditSession     *self,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
DynCommitResult    *dyn_edit_session_commit_finish       (DynEditSession     *self,
                                                          GAsyncResult       *result,
                                                          GError            **error) G_GNUC_WARN_UNUSED_RESULT;
/* Commits the inverse of every change the last commit applied, each guarded
 * by the item as that commit left it. */
void                dyn_edit_session_undo_async          (DynEditSession     *self,
                                                          GCancellable       *cancellable,
                                                          GAsyncReadyCallback callback,
                                                          gpointer            user_data);
DynCommitResult    *dyn_edit_session_undo_finish         (DynEditSession     *self,
                                                          GAsyncResult       *result,
                                                          GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* A value as Pango markup for a diff cell: its type, dimmed, then the value
 * as the grid shows it; an em dash for an absent one. */
char               *dyn_edit_session_format_value        (const DynValue     *value) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
