/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "dyn-connection.h"
#include "dyn-history.h"

G_BEGIN_DECLS

/* How many recent reads are kept per table. */
#define DYN_RECENT_READS_MAX 20

#define DYN_TYPE_SAVED_QUERIES (dyn_saved_queries_get_type ())

/**
 * DynSavedQueries:
 *
 * The reads a user keeps, per connection: saved queries with names, and the
 * recent reads of each table (the last %DYN_RECENT_READS_MAX, without
 * repeats). They live in one JSON file (default
 * `$XDG_CONFIG_HOME/dynoscope/queries.json`, mode 0600) holding no secret:
 * a connection is known there by its id, name, profile, endpoint and region
 * (a connection given on the command line, which has a new id each time, by
 * the last four). Each #DynReadEntry keeps its request as sent, so numbers
 * and binary in the placeholder values come back exactly.
 *
 * Every change is written at once. Before it, the file is read again when
 * someone else (another window) changed it since, so nothing of theirs is
 * lost. A file that cannot be read is never written over: the store keeps
 * the error (dyn_saved_queries_get_error()), recent reads stay in memory
 * only, and saving, renaming and deleting fail with a message naming the
 * file, until it is repaired or removed. "changed" is emitted after every
 * change and load.
 */
G_DECLARE_FINAL_TYPE (DynSavedQueries, dyn_saved_queries, DYN, SAVED_QUERIES, GObject)

/* @path: (nullable): the file; NULL: the default. */
DynSavedQueries *dyn_saved_queries_new          (const char       *path) G_GNUC_WARN_UNUSED_RESULT;
const char      *dyn_saved_queries_get_path     (DynSavedQueries  *self);
/* Reads the file; a missing file is an empty store. */
gboolean         dyn_saved_queries_load         (DynSavedQueries  *self,
                                                 GError          **error);
/* (nullable): why the file could not be read, or NULL when it is fine. */
const GError    *dyn_saved_queries_get_error    (DynSavedQueries  *self);

/* The saved queries of @connection in the order they were saved, and the
 * recent reads of its @table, the newest first (DynReadEntry references). */
GPtrArray       *dyn_saved_queries_dup_saved    (DynSavedQueries  *self,
                                                 DynConnection    *connection) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray       *dyn_saved_queries_dup_recent   (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 const char       *table) G_GNUC_WARN_UNUSED_RESULT;
/* (nullable) (transfer none) */
DynReadEntry    *dyn_saved_queries_lookup       (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 const char       *id);

/* Puts a read that ran first in its table's recent reads (a copy of @entry).
 * FALSE when it could not be written (it is kept in memory all the same). */
gboolean         dyn_saved_queries_add_recent   (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 DynReadEntry     *entry,
                                                 GError          **error);
/* Saves @entry under @name (not empty; unique in the connection). Returns
 * the saved entry with its new id (transfer none), or NULL. */
DynReadEntry    *dyn_saved_queries_save         (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 DynReadEntry     *entry,
                                                 const char       *name,
                                                 GError          **error);
gboolean         dyn_saved_queries_rename       (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 const char       *id,
                                                 const char       *name,
                                                 GError          **error);
gboolean         dyn_saved_queries_remove       (DynSavedQueries  *self,
                                                 DynConnection    *connection,
                                                 const char       *id,
                                                 GError          **error);

G_END_DECLS
