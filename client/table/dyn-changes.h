/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/*
 * Staged edits and their guarded commit.
 *
 * A change is (item before, item after) as the user saw and left it. Each one
 * becomes a guarded write:
 *  - create (no before): PutItem with attribute_not_exists(<partition key>);
 *  - update: a minimal UpdateItem by document path (dyn_diff_items()): SET
 *    of each changed or added path (a map member at any depth, a list
 *    element where the list kept its length; a map that is new at its path
 *    is set whole), REMOVE of removed ones, ADD/DELETE of set elements when
 *    that is smaller than the whole set. No two paths overlap. Its guard
 *    depends on the DynGuardMode below;
 *  - delete (no after): DeleteItem guarded by the item as seen (a delete
 *    changes every attribute), or by its version;
 *  - a changed key: a guarded delete of the old item plus a guarded create of
 *    the new one, always in the same transaction.
 * When the whole-item guard would be longer than DynamoDB's 4 KB expression
 * limit, an update falls back to the guard on the paths it changes, and a
 * delete to as many attributes (in item order) as fit; the plan says so.
 *
 * A commit sends TransactWriteItems of at most 100 actions, each with a
 * ClientRequestToken kept by the change set, so committing the same set again
 * after a lost answer is applied once. Paths the user did not touch are
 * never sent.
 */

/**
 * DynGuardMode:
 * @DYN_GUARD_CHANGES: an update is guarded by what it depends on: the item
 *   exists, each path it changes or removes still holds the value loaded,
 *   each path it adds is still absent (and its parent still a map), each
 *   list it writes elements of still has the length loaded. Another
 *   writer's change elsewhere in the item does not conflict. The default.
 * @DYN_GUARD_ITEM: an update is guarded by the whole item as loaded: it
 *   exists, every attribute holds the value loaded, the attributes it adds
 *   are absent. Any concurrent change conflicts.
 * @DYN_GUARD_VERSION: writes are guarded by the version attribute alone
 *   (see dyn_change_set_set_version_attribute()), which each write sets to
 *   version + 1 (a create to 1). Items without a number there are guarded
 *   as with @DYN_GUARD_CHANGES.
 *
 * What an update's (and a delete's) guard checks. Creates are always
 * guarded by attribute_not_exists(<partition key>).
 */
typedef enum {
  DYN_GUARD_CHANGES,
  DYN_GUARD_ITEM,
  DYN_GUARD_VERSION,
} DynGuardMode;

#define DYN_TYPE_GUARD_MODE (dyn_guard_mode_get_type ())
GType           dyn_guard_mode_get_type      (void) G_GNUC_CONST;

/**
 * DynChangeKind:
 *
 * What a change does to the table.
 */
typedef enum {
  DYN_CHANGE_KIND_NONE,        /* before and after are equal */
  DYN_CHANGE_KIND_CREATE,
  DYN_CHANGE_KIND_UPDATE,
  DYN_CHANGE_KIND_DELETE,
  DYN_CHANGE_KIND_KEY_CHANGE,  /* delete + create in one transaction */
} DynChangeKind;

const char     *dyn_change_kind_to_string    (DynChangeKind kind);  /* "create" … */

/**
 * DynChange:
 *
 * An immutable, reference-counted pair of items (type M): @before is %NULL
 * for a create, @after %NULL for a delete.
 */
typedef struct _DynChange DynChange;

#define DYN_TYPE_CHANGE (dyn_change_get_type ())
GType           dyn_change_get_type          (void) G_GNUC_CONST;
DynChange      *dyn_change_new               (DynValue           *before,
                                              DynValue           *after) G_GNUC_WARN_UNUSED_RESULT;
DynChange      *dyn_change_ref               (DynChange          *self);
void            dyn_change_unref             (DynChange          *self);
DynValue       *dyn_change_get_before        (const DynChange    *self);  /* borrowed, nullable */
DynValue       *dyn_change_get_after         (const DynChange    *self);  /* borrowed, nullable */
DynChangeKind   dyn_change_get_kind          (const DynChange    *self,
                                              const DynKeySchema *keys);

/**
 * dyn_change_inverse:
 * @version_attribute: (nullable): the table's version attribute
 *
 * The change that undoes @self once it was applied: its before is the item
 * as the commit left it (with the version the commit wrote), its after the
 * original before. Committed, it is guarded like any other change, so it
 * fails if someone changed the item since.
 */
DynChange      *dyn_change_inverse           (const DynChange    *self,
                                              const char         *version_attribute) G_GNUC_WARN_UNUSED_RESULT;

/* Adds 1 to a DynamoDB number exactly (decimal text, no double). */
char           *dyn_number_increment         (const char         *text,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * DynChangeStatus:
 *
 * The outcome of one change after a commit.
 */
typedef enum {
  DYN_CHANGE_STATUS_PENDING,      /* not sent (yet) */
  DYN_CHANGE_STATUS_UNCHANGED,    /* nothing to send */
  DYN_CHANGE_STATUS_APPLIED,
  DYN_CHANGE_STATUS_CONFLICT,     /* its guard failed; see the current item */
  DYN_CHANGE_STATUS_NOT_APPLIED,  /* its transaction was cancelled by another change */
  DYN_CHANGE_STATUS_FAILED,       /* an error; see the error */
} DynChangeStatus;

const char     *dyn_change_status_to_string  (DynChangeStatus status);  /* "applied" … */

/**
 * DynCommitResult:
 *
 * What a commit did: per change its status, for a conflict the server's
 * current item (%NULL when the item does not exist) and the key of the item
 * whose guard failed, for a failure the error; and the requests sent
 * (operation, ClientRequestToken, the changes in each).
 */
typedef struct _DynCommitResult DynCommitResult;

#define DYN_TYPE_COMMIT_RESULT (dyn_commit_result_get_type ())
GType           dyn_commit_result_get_type   (void) G_GNUC_CONST;
DynCommitResult *dyn_commit_result_ref       (DynCommitResult *self);
void            dyn_commit_result_unref      (DynCommitResult *self);
guint           dyn_commit_result_get_n_changes   (DynCommitResult *self);
DynChangeStatus dyn_commit_result_get_status      (DynCommitResult *self, guint change);
DynValue       *dyn_commit_result_get_current     (DynCommitResult *self, guint change);  /* borrowed */
DynValue       *dyn_commit_result_get_conflict_key (DynCommitResult *self, guint change); /* borrowed */
const GError   *dyn_commit_result_get_error       (DynCommitResult *self, guint change);
/* Which request (index) carried the change, or -1. */
int             dyn_commit_result_get_request     (DynCommitResult *self, guint change);
guint           dyn_commit_result_get_n_conflicts (DynCommitResult *self);
guint           dyn_commit_result_get_n_applied   (DynCommitResult *self);
guint           dyn_commit_result_get_n_failed    (DynCommitResult *self);  /* failed + not applied */
guint           dyn_commit_result_get_n_requests  (DynCommitResult *self);
const char     *dyn_commit_result_get_request_operation (DynCommitResult *self, guint request);
const char     *dyn_commit_result_get_request_token     (DynCommitResult *self, guint request); /* nullable */
/* The HTTP requests the commit sent (retries and the reads of conflicting
 * items included; a request that failed counts once) and the capacity the
 * server reported for them. */
guint           dyn_commit_result_get_n_sent      (DynCommitResult *self);
double          dyn_commit_result_get_write_units (DynCommitResult *self);
double          dyn_commit_result_get_read_units  (DynCommitResult *self);
/* Every outcome as JSON: {"changes": [{"change": 0, "status": "conflict",
 * "current": ITEM|null, "key": KEY, "error": "…"}…], "requests": [{"operation":
 * …, "token": …, "changes": [0, 1…]}…]}, items in DynamoDB JSON. */
JsonNode       *dyn_commit_result_to_json         (DynCommitResult *self) G_GNUC_WARN_UNUSED_RESULT;

#define DYN_TYPE_CHANGE_SET (dyn_change_set_get_type ())
G_DECLARE_FINAL_TYPE (DynChangeSet, dyn_change_set, DYN, CHANGE_SET, GObject)

/* The most actions DynamoDB takes in one TransactWriteItems. */
#define DYN_TRANSACTION_MAX_ACTIONS 100
/* The longest expression string DynamoDB takes. */
#define DYN_EXPRESSION_MAX_LENGTH 4096

/**
 * dyn_change_set_new:
 * @table: the table name
 * @keys: its key schema (copied)
 *
 * An empty set of staged changes for @table.
 */
DynChangeSet   *dyn_change_set_new           (const char         *table,
                                              const DynKeySchema *keys) G_GNUC_WARN_UNUSED_RESULT;
const char     *dyn_change_set_get_table     (DynChangeSet       *self);
/* The attribute used for optimistic locking (a number), or %NULL (default).
 * Setting one also selects DYN_GUARD_VERSION; setting %NULL while that mode
 * is selected returns to DYN_GUARD_CHANGES. Property "version-attribute". */
void            dyn_change_set_set_version_attribute (DynChangeSet *self,
                                                      const char   *name);
const char     *dyn_change_set_get_version_attribute (DynChangeSet *self);
/* What updates and deletes are guarded by (property "guard-mode"). */
void            dyn_change_set_set_guard_mode (DynChangeSet *self,
                                               DynGuardMode  mode);
DynGuardMode    dyn_change_set_get_guard_mode (DynChangeSet *self);
/* When TRUE, a set holding a single change sends it as a plain PutItem,
 * UpdateItem or DeleteItem instead of a one-action transaction (half the
 * write cost, but no idempotency token). Default FALSE. */
void            dyn_change_set_set_single_requests (DynChangeSet *self,
                                                    gboolean      single);
/* Lower than 100 for tests and for users who want smaller transactions. */
void            dyn_change_set_set_max_actions (DynChangeSet *self,
                                                guint         max_actions);

/* The table's indexes (copied; NULL: none known): an item written must give
 * every index key attribute it holds the index's type and no empty string or
 * binary (dyn_item_check_index_keys()), checked when a change is added, as
 * DynamoDB refuses such a write. An edit of an index key attribute is
 * otherwise an update like any other, guarded by its path. */
void            dyn_change_set_set_index_keys (DynChangeSet       *self,
                                               const DynTableKeys *table);

/**
 * dyn_change_set_add:
 * @before: (nullable): the item as loaded, %NULL for a create
 * @after: (nullable): the item as edited, %NULL for a delete
 *
 * Stages a change. Both items must be maps holding the table's key
 * attributes. Returns the change's index, or -1 with DYN_ERROR_INVALID_ARGUMENT.
 * Adding forgets the ClientRequestTokens of a previous plan.
 */
int             dyn_change_set_add           (DynChangeSet       *self,
                                              DynValue           *before,
                                              DynValue           *after,
                                              GError            **error);
int             dyn_change_set_add_change    (DynChangeSet       *self,
                                              DynChange          *change,
                                              GError            **error);
guint           dyn_change_set_get_n_changes (DynChangeSet       *self);
DynChange      *dyn_change_set_get_change    (DynChangeSet       *self,
                                              guint               index);  /* borrowed */
void            dyn_change_set_clear         (DynChangeSet       *self);

/**
 * dyn_change_set_plan:
 *
 * The requests a commit would send, as JSON:
 * {"table": T, "guard_mode": "changes"|"item"|"version",
 *  "changes": [{"change": i, "kind": "update", "request": r,
 *   "guard": "changed-attributes"|"values"|"version"|"partial"|"not-exists",
 *   "guard_text": "Guarded by …", "description": "Update …"}…],
 *  "requests": [{"operation": "TransactWriteItems", "changes": [i…],
 *   "params": {… the request body …}}…]}.
 * The ClientRequestTokens are created here and kept for the commit. Fails
 * when two changes touch the same item or a request breaks a limit.
 * "guard" names what the guard checks: "changed-attributes" the paths the
 * update changes (DYN_GUARD_CHANGES, or DYN_GUARD_ITEM over the 4 KB
 * limit), "values" the whole item as loaded, "version" the version,
 * "partial" the first attributes of a delete's item, "not-exists" a create.
 * "guard_text" says the same in one translated sentence (what
 * dyn_change_set_describe_guard() returns); "description" adds what the
 * change does.
 */
JsonNode       *dyn_change_set_plan          (DynChangeSet       *self,
                                              GError            **error) G_GNUC_WARN_UNUSED_RESULT;

/* The sentence on how change @index is guarded ("Guarded by the values it
 * changes: info.rating is still 8.7"), translated; NULL with @error. */
char           *dyn_change_set_describe_guard (DynChangeSet      *self,
                                               guint              index,
                                               GError           **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_change_set_commit_async:
 *
 * Sends the planned requests one after the other. The result tells each
 * change's outcome; a conflict carries the server's current item (from
 * ReturnValuesOnConditionCheckFailure=ALL_OLD, or a consistent GetItem when
 * the answer has none). Requests after a failed one are still sent: each
 * transaction stands alone. The task fails only when nothing could be
 * planned; service errors are per change. On cancellation the request in
 * flight is reported as failed with G_IO_ERROR_CANCELLED (it may or may not
 * have been applied: commit the same set again, its tokens make that safe)
 * and later ones stay pending.
 */
void            dyn_change_set_commit_async  (DynChangeSet       *self,
                                              DynClient          *client,
                                              GCancellable       *cancellable,
                                              GAsyncReadyCallback callback,
                                              gpointer            user_data);
DynCommitResult *dyn_change_set_commit_finish (DynChangeSet      *self,
                                               GAsyncResult      *result,
                                               GError           **error) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynChange, dyn_change_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynCommitResult, dyn_commit_result_unref)

G_END_DECLS
