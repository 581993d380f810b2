/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-read-request.h"
#include "dyn-request.h"

G_BEGIN_DECLS

/**
 * DynReadOrigin:
 * @DYN_READ_ORIGIN_BUILDER: what the builder said (Run, Ctrl+Enter, an
 *   index chosen)
 * @DYN_READ_ORIGIN_FOLLOW: a key link followed: the builder got the
 *   condition of what the item shares by that key
 * @DYN_READ_ORIGIN_SCAN: every item of the table or index, whatever the
 *   builder said (opening a table, "Scan Whole Table")
 *
 * How a read came about.
 */
typedef enum {
  DYN_READ_ORIGIN_BUILDER,
  DYN_READ_ORIGIN_FOLLOW,
  DYN_READ_ORIGIN_SCAN,
} DynReadOrigin;

/**
 * DynReadEntry:
 *
 * One read as the user ran it, enough to show it in a list and to run it
 * again: the table and index, the builder's expression text (inline values,
 * exact: numbers as their text, binary as b64"…"), how it came about, and
 * the first page's request as it was sent (its operation, compiled
 * expressions, placeholder maps and options). Saved queries also have an
 * id and a name. Reference counted; what describes the read is immutable,
 * only the live #DynReadRequest a window attaches may change.
 */
typedef struct _DynReadEntry DynReadEntry;

#define DYN_TYPE_READ_ENTRY (dyn_read_entry_get_type ())
GType               dyn_read_entry_get_type     (void) G_GNUC_CONST;

/**
 * dyn_read_entry_new:
 * @table: the table's name
 * @index: (nullable): the index read; NULL: the table
 * @text: (nullable): the builder's expression text
 * @origin: how the read came about
 * @via: (nullable): for %DYN_READ_ORIGIN_FOLLOW, the attribute followed
 * @request: (nullable): the first page's request (copied); its table and
 *   index win over @table and @index when set
 */
DynReadEntry       *dyn_read_entry_new          (const char        *table,
                                                 const char        *index,
                                                 const char        *text,
                                                 DynReadOrigin      origin,
                                                 const char        *via,
                                                 const DynRequest  *request) G_GNUC_WARN_UNUSED_RESULT;
/* An entry for @read (a valid read request): its table, index and request;
 * @read is attached as the live read. */
DynReadEntry       *dyn_read_entry_new_for_read (DynReadRequest    *read,
                                                 const char        *text,
                                                 DynReadOrigin      origin,
                                                 const char        *via) G_GNUC_WARN_UNUSED_RESULT;
DynReadEntry       *dyn_read_entry_ref          (DynReadEntry      *self);
void                dyn_read_entry_unref        (DynReadEntry      *self);
/* A new entry with the same read, without the live read, and with @id and
 * @name (both nullable). */
DynReadEntry       *dyn_read_entry_copy_as      (const DynReadEntry *self,
                                                 const char        *id,
                                                 const char        *name) G_GNUC_WARN_UNUSED_RESULT;

const char         *dyn_read_entry_get_table    (const DynReadEntry *self);
const char         *dyn_read_entry_get_index    (const DynReadEntry *self);
/* Never NULL ("" for no expression). */
const char         *dyn_read_entry_get_text     (const DynReadEntry *self);
DynReadOrigin       dyn_read_entry_get_origin   (const DynReadEntry *self);
const char         *dyn_read_entry_get_via      (const DynReadEntry *self);
/* (nullable): the request as sent */
const DynRequest   *dyn_read_entry_get_request  (const DynReadEntry *self);
/* Query, Scan or GetItem (from the request; Scan without one). */
DynOperation        dyn_read_entry_get_operation (const DynReadEntry *self);
/* When it ran (g_get_real_time()); 0: not known. */
gint64              dyn_read_entry_get_time     (const DynReadEntry *self);
void                dyn_read_entry_set_time     (DynReadEntry      *self,
                                                 gint64             time);
/* Saved queries: a stable id and the user's name; NULL otherwise. */
const char         *dyn_read_entry_get_id       (const DynReadEntry *self);
const char         *dyn_read_entry_get_name     (const DynReadEntry *self);
/* The live read a window ran for this entry (not saved); NULL: none. */
DynReadRequest     *dyn_read_entry_get_read     (const DynReadEntry *self);
void                dyn_read_entry_set_read     (DynReadEntry      *self,
                                                 DynReadRequest    *read);

/* Whether @a and @b are the same read: table, index, text, whether the
 * builder's text was ignored (then the text does not count), and the
 * request as sent (operation, expressions, maps, options). Origin (builder
 * or followed link), time, id, name and live read do not count. */
gboolean            dyn_read_entry_equal        (const DynReadEntry *a,
                                                 const DynReadEntry *b);

/* A line for a list ("Status = "active"", or "All items" for a Scan of
 * everything) and the line under it ("Query · GSI1 · Movies"), translated. */
char               *dyn_read_entry_dup_title    (const DynReadEntry *self) G_GNUC_WARN_UNUSED_RESULT;
char               *dyn_read_entry_dup_subtitle (const DynReadEntry *self) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_read_entry_to_json:
 *
 * The entry as a JSON object: "table", "index", "text", "origin" ("builder",
 * "follow", "scan"), "via", "time" (ISO 8601), "id", "name", and "operation"
 * with "request", the request body in DynamoDB's wire form (values in
 * DynamoDB JSON, numbers and binary exact). dyn_read_entry_from_json()
 * reads it back to an equal entry.
 */
JsonNode           *dyn_read_entry_to_json      (const DynReadEntry *self) G_GNUC_WARN_UNUSED_RESULT;
/* @where: (nullable): where the object is, for errors ("saved[2]"). Errors
 * are DYN_ERROR_PROTOCOL and name the member ("saved[2].request.Limit: …"). */
DynReadEntry       *dyn_read_entry_from_json    (JsonNode          *node,
                                                 const char        *where,
                                                 GError           **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_read_entries_add_recent:
 * @list: #DynReadEntry references, the most recent first
 * @entry: the read that ran (a reference is added)
 * @max: how many to keep
 *
 * Puts @entry first; an equal entry already in @list goes (the newer one
 * stays, with its time); entries past @max are dropped. Returns whether
 * @list changed.
 */
gboolean            dyn_read_entries_add_recent (GPtrArray         *list,
                                                 DynReadEntry      *entry,
                                                 guint              max);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynReadEntry, dyn_read_entry_unref)

#define DYN_TYPE_HISTORY (dyn_history_get_type ())

/**
 * DynHistory:
 *
 * Back and Forward through a window's reads, as a browser does: pushing a
 * read drops what was ahead of the current one; going back and forward
 * moves through the rest. A push equal to the current entry does not add
 * one (a refresh, a table shown again). At most "max" entries are kept, the
 * oldest go first. The properties "can-go-back" and "can-go-forward"
 * notify on change.
 */
G_DECLARE_FINAL_TYPE (DynHistory, dyn_history, DYN, HISTORY, GObject)

DynHistory         *dyn_history_new             (guint              max) G_GNUC_WARN_UNUSED_RESULT;
/* Makes @entry the current one (a reference is added). Returns FALSE when it
 * equals the current entry (which then stays). */
gboolean            dyn_history_push            (DynHistory        *self,
                                                 DynReadEntry      *entry);
/* (nullable) (transfer none) */
DynReadEntry       *dyn_history_get_current     (DynHistory        *self);
/* (nullable) (transfer none): the entry Back (or Forward) would go to */
DynReadEntry       *dyn_history_peek_back       (DynHistory        *self);
DynReadEntry       *dyn_history_peek_forward    (DynHistory        *self);
gboolean            dyn_history_can_go_back     (DynHistory        *self);
gboolean            dyn_history_can_go_forward  (DynHistory        *self);
/* Moves one step and returns the new current entry, or NULL (nothing moves)
 * when there is none. */
DynReadEntry       *dyn_history_go_back         (DynHistory        *self);
DynReadEntry       *dyn_history_go_forward      (DynHistory        *self);
guint               dyn_history_get_length      (DynHistory        *self);
/* The current entry's position (0: the oldest); 0 when empty. */
guint               dyn_history_get_position    (DynHistory        *self);
/* (transfer none) */
DynReadEntry       *dyn_history_get_entry       (DynHistory        *self,
                                                 guint              position);
void                dyn_history_clear           (DynHistory        *self);

G_END_DECLS
