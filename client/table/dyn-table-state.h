/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-collections.h"
#include "dyn-expr.h"
#include "dyn-pager.h"
#include "dyn-read-request.h"
#include "dyn-request.h"

G_BEGIN_DECLS

/**
 * DynTableState:
 * @connection_id: the connection the table belongs to
 * @table: the table's name
 * @description: (nullable): the DescribeTable "Table" object
 * @keys: (nullable): the key schema of the table and its indexes
 * @expression: (nullable): the builder's text
 * @index: (nullable): the index read ("Read from", the builder's one
 *   setting); %NULL: the table
 * @read: (nullable): the last read as planned (its plan, request, snippet)
 * @request: (nullable): the last read's request
 * @pager: (nullable): the last read's pager, where it stopped
 * @model: (nullable): the rows read
 * @read_time: when the last read started (g_get_real_time()); 0: never
 * @session: (nullable): the table's staged edits (the window's edit session)
 * @gone: the table was found deleted (ResourceNotFound)
 *
 * What a window keeps of a table while another one is shown, so that going
 * back shows what was read, with its age, and keeps the staged work and
 * the builder's expression of that table. Every member is owned.
 */
typedef struct {
  char               *connection_id;
  char               *table;
  JsonObject         *description;
  DynTableKeys       *keys;
  char               *expression;
  char               *index;
  DynReadRequest     *read;
  DynRequest         *request;
  DynPager           *pager;
  DynCollectionModel *model;
  gint64              read_time;
  GObject            *session;
  gboolean            gone;
} DynTableState;

DynTableState *dyn_table_state_new      (const char          *connection_id,
                                         const char          *table) G_GNUC_WARN_UNUSED_RESULT;
void           dyn_table_state_free     (DynTableState       *state);
/* The key a window files states under: connection and table together. */
char          *dyn_table_state_make_key (const char          *connection_id,
                                         const char          *table) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_describe_read_age:
 * @read_time: when the read started, in g_get_real_time() microseconds
 * @now: the time now, the same way
 *
 * How old what was read is, for the status line: "read just now", "read 2
 * min ago", "read 3 h ago", "read 2 days ago" (translated).
 */
char          *dyn_describe_read_age    (gint64               read_time,
                                         gint64               now) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_describe_staged_tables:
 * @tables: the table names
 * @counts: the number of staged changes of each
 * @n: how many tables
 *
 * "3 changes in Movies and 1 change in Shows" (translated), for a question
 * about staged work that would be lost. Tables without changes are left out.
 */
char          *dyn_describe_staged_tables (const char * const *tables,
                                           const guint        *counts,
                                           guint               n) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynTableState, dyn_table_state_free)

G_END_DECLS
