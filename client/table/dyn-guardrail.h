/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-changes.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/*
 * Guardrails for production connections.
 *
 * A #DynGuardrail says whether writes are allowed now: on a production
 * connection they are locked until the user unlocks them, for a limited time
 * (15 minutes by default), after which they lock again by themselves. While
 * unlocked, each write is first shown to the user as a #DynWriteSummary
 * (table, key, guard and estimated WCU of every request, totals; bulk
 * operations their count and total cost first) and only sent when the user
 * confirms it. Every write path asks dyn_guardrail_approve_async() (or, for a
 * quick refusal before any work, dyn_guardrail_check_write()).
 */

/* ------------------------------------------------------------------------ */
/* What a write will do                                                       */

/**
 * DynWriteEntry:
 * @table: the table written
 * @action: what happens, translated ("Update", "Create", "Delete", "Key change", "Delete table" …)
 * @key: (nullable): the item's key as the grid shows it ("acme · 7")
 * @guard: (nullable): the condition the write is guarded by, as the staged
 *   changes show it ("Guarded by the values it changes: …")
 * @write_units: the estimated WCU
 *
 * One request (or one change of a transaction) of a write.
 */
typedef struct {
  char   *table;
  char   *action;
  char   *key;
  char   *guard;
  double  write_units;
} DynWriteEntry;

/**
 * DynWriteSummary:
 *
 * What the user confirms: a title ("Commit 3 changes to Orders"), the entries,
 * their total estimated WCU, and for bulk operations (import, truncate,
 * delete table, many deletes) the number of items they touch. Reference
 * counted; immutable once handed to dyn_guardrail_approve_async().
 */
typedef struct _DynWriteSummary DynWriteSummary;

#define DYN_TYPE_WRITE_SUMMARY (dyn_write_summary_get_type ())
GType            dyn_write_summary_get_type       (void) G_GNUC_CONST;

/* A write of this many changes or more counts as bulk: its count and cost come first. */
#define DYN_WRITE_SUMMARY_BULK_CHANGES 25

DynWriteSummary *dyn_write_summary_new            (const char      *title) G_GNUC_WARN_UNUSED_RESULT;
DynWriteSummary *dyn_write_summary_ref            (DynWriteSummary *self);
void             dyn_write_summary_unref          (DynWriteSummary *self);
/* Appends an entry; its WCU count into the total. */
void             dyn_write_summary_add            (DynWriteSummary *self,
                                                   const char      *table,
                                                   const char      *action,
                                                   const char      *key,
                                                   const char      *guard,
                                                   double           write_units);
/* Marks the write as bulk: @count items, @write_units in all (which replaces
 * the sum of the entries; a bulk write may have no entries). */
void             dyn_write_summary_set_bulk       (DynWriteSummary *self,
                                                   guint64          count,
                                                   double           write_units);

/**
 * dyn_write_summary_new_for_change_set:
 * @title: (nullable): %NULL for "Commit N changes to TABLE"
 *
 * The summary of committing @set: one entry per change with its key, its
 * guard (the plan's guard sentence) and its WCU — the item size rounded up to
 * 1 KB units (the larger of before and after for an update, both for a key
 * change), doubled when the change goes in a transaction, as DynamoDB
 * counts. Many changes make it bulk (%DYN_WRITE_SUMMARY_BULK_CHANGES).
 * %NULL with the plan's error when @set cannot be planned.
 */
DynWriteSummary *dyn_write_summary_new_for_change_set (DynChangeSet *set,
                                                       const char   *title,
                                                       GError      **error) G_GNUC_WARN_UNUSED_RESULT;
/* A bulk write: @action on @table, @count items, @write_units estimated. */
DynWriteSummary *dyn_write_summary_new_bulk       (const char      *title,
                                                   const char      *table,
                                                   const char      *action,
                                                   guint64          count,
                                                   double           write_units) G_GNUC_WARN_UNUSED_RESULT;

const char      *dyn_write_summary_get_title      (DynWriteSummary *self);
guint            dyn_write_summary_get_n_entries  (DynWriteSummary *self);
const DynWriteEntry *dyn_write_summary_get_entry  (DynWriteSummary *self,
                                                   guint            index);
double           dyn_write_summary_get_write_units (DynWriteSummary *self);
gboolean         dyn_write_summary_is_bulk        (DynWriteSummary *self);
/* Items touched: the bulk count, else the number of entries. */
guint64          dyn_write_summary_get_count      (DynWriteSummary *self);
/* The line that comes first: "3 writes · about 6 WCU", for bulk "Import 12,000 items
 * into Orders · about 12,000 WCU" (translated). */
char            *dyn_write_summary_dup_headline   (DynWriteSummary *self) G_GNUC_WARN_UNUSED_RESULT;
/* One line per entry: "Orders · acme · 7 — Update — Guarded by … — 2 WCU". */
char            *dyn_write_summary_dup_entry_text (DynWriteSummary *self,
                                                   guint            index) G_GNUC_WARN_UNUSED_RESULT;
/* The headline, then every entry, then the total: what the dialog shows, as text. */
char            *dyn_write_summary_to_text        (DynWriteSummary *self) G_GNUC_WARN_UNUSED_RESULT;

/* ⌈dyn_item_size (@item) / 1 KB⌉, at least 1: the WCU of writing @item once. */
double           dyn_item_write_units             (const DynValue  *item);
/* "~12 WCU" as the summaries write it (translated). */
char            *dyn_format_write_units           (double           write_units) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynWriteSummary, dyn_write_summary_unref)

/* ------------------------------------------------------------------------ */
/* The lock                                                                   */

/* How long an unlock lasts unless set otherwise. */
#define DYN_GUARDRAIL_DEFAULT_UNLOCK_SECONDS (15 * 60)

#define DYN_TYPE_GUARDRAIL (dyn_guardrail_get_type ())

/**
 * DynGuardrail:
 *
 * The write lock of one connection. Properties: "production" (set by the
 * window from dyn_connection_is_production()), "locked" (production and not
 * unlocked: every write is refused), "unlocked" (production and unlocked:
 * every write is confirmed first), "unlock-seconds". They notify on change,
 * also when an unlock runs out (a timeout on the thread-default main context
 * of the dyn_guardrail_unlock() call; dyn_guardrail_check_write() looks at
 * the clock itself too).
 */
G_DECLARE_FINAL_TYPE (DynGuardrail, dyn_guardrail, DYN, GUARDRAIL, GObject)

DynGuardrail *dyn_guardrail_new                  (void) G_GNUC_WARN_UNUSED_RESULT;
gboolean      dyn_guardrail_get_production       (DynGuardrail *self);
/* Turning production on or off locks (ends any unlock). */
void          dyn_guardrail_set_production       (DynGuardrail *self,
                                                  gboolean      production);
gboolean      dyn_guardrail_get_locked           (DynGuardrail *self);
gboolean      dyn_guardrail_get_unlocked         (DynGuardrail *self);
guint         dyn_guardrail_get_unlock_seconds   (DynGuardrail *self);
/* The length of the next unlock (at least 1 s); tests use a short one. */
void          dyn_guardrail_set_unlock_seconds   (DynGuardrail *self,
                                                  guint         seconds);
/* Allows writes (each one confirmed) for unlock-seconds; on a connection
 * that is not production it does nothing. Unlocking again restarts the time. */
void          dyn_guardrail_unlock               (DynGuardrail *self);
void          dyn_guardrail_lock                 (DynGuardrail *self);
/* Seconds until the unlock ends (rounded up), 0 when locked or not production. */
guint         dyn_guardrail_get_remaining_seconds (DynGuardrail *self);

/* FALSE with %DYN_ERROR_READ_ONLY (translated, says how to unlock) when
 * writes are locked now. */
gboolean      dyn_guardrail_check_write          (DynGuardrail  *self,
                                                  GError       **error);

/**
 * DynGuardrailConfirmFunc:
 * @summary: what the write will do
 * @request: hand it to dyn_guardrail_reply() once the user answered
 *
 * Shows @summary and asks whether to write (the window's confirmation dialog).
 */
typedef void (*DynGuardrailConfirmFunc) (DynGuardrail    *guardrail,
                                         DynWriteSummary *summary,
                                         GTask           *request,
                                         gpointer         user_data);

void          dyn_guardrail_set_confirm_func     (DynGuardrail            *self,
                                                  DynGuardrailConfirmFunc  func,
                                                  gpointer                 user_data,
                                                  GDestroyNotify           destroy);
/* The user's answer to @request: %TRUE writes, %FALSE cancels. */
void          dyn_guardrail_reply                (GTask                   *request,
                                                  gboolean                 confirmed);

/**
 * dyn_guardrail_approve_async:
 *
 * The check every write calls before it sends anything. Not production: yes
 * at once. Locked: %DYN_ERROR_READ_ONLY. Unlocked: the confirm function shows
 * @summary; Cancel gives %G_IO_ERROR_CANCELLED ("nothing was written"), and
 * an unlock that ran out while the question was open %DYN_ERROR_READ_ONLY.
 * Without a confirm function an unlocked write is refused too.
 */
void          dyn_guardrail_approve_async        (DynGuardrail        *self,
                                                  DynWriteSummary     *summary,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean      dyn_guardrail_approve_finish       (DynGuardrail        *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

G_END_DECLS
