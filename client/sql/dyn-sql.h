/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SQL Workbench engine: SELECT statements run by an embedded SQLite, with
 * every DynamoDB table and index of a connection exposed as a virtual table
 * (sqlite3_module). SQLite parses, joins, groups, sorts and aggregates;
 * Dynoscope decides how each virtual table is read (GetItem, BatchGetItem,
 * Query or Scan) from the constraints SQLite hands to xBestIndex.
 *
 * Names: a table by its name (`Workspaces`, `"battle-royale"`), an index as
 * the quoted identifier `"Workspaces.GSI1"`. Columns: the key attributes, the
 * attributes found in the source's first page, and a hidden `item` column
 * with the whole item as plain JSON (client/values/VALUES.md).
 *
 * Numbers stay exact: an N that fits a 64-bit integer is an INTEGER, any other
 * is its exact decimal text; SUM, AVG, MIN, MAX and TOTAL are exact decimal
 * aggregates (dyn-sql-decimal.h).
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-client.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynSqlStep:
 * @source: "Workspaces" or "Workspaces.GSI1"
 * @operation: "GetItem", "BatchGetItem", "Query" or "Scan"
 * @key_condition: (nullable): the KeyConditionExpression (Query), or the key
 *   (GetItem/BatchGetItem) written as "#pk = :pk AND #sk = :sk"
 * @filter: (nullable): the FilterExpression pushed down, when there is one
 * @residual: (nullable): what SQLite evaluates itself on this source's rows,
 *   in words ("Status LIKE '%x%' (SQLite)")
 * @fan_out: how often it runs, in words: "once", "once per distinct CourseId
 *   (≤ 200)", "once per 100 keys"
 * @max_requests: the most requests the step can make, 0 when unknown (pages)
 * @request: the request object of one call (names and values maps, values as
 *   placeholders where they come from another source)
 * @is_scan: a Scan (runs only when scans are allowed)
 */
typedef struct {
  char      *source;
  char      *operation;
  char      *key_condition;
  char      *filter;
  char      *residual;
  char      *fan_out;
  guint      max_requests;
  JsonNode  *request;
  gboolean   is_scan;
} DynSqlStep;

typedef struct _DynSqlPlan DynSqlPlan;

#define DYN_TYPE_SQL_PLAN (dyn_sql_plan_get_type ())
GType             dyn_sql_plan_get_type    (void) G_GNUC_CONST;
DynSqlPlan       *dyn_sql_plan_ref         (DynSqlPlan *self);
void              dyn_sql_plan_unref       (DynSqlPlan *self);
guint             dyn_sql_plan_get_n_steps (DynSqlPlan *self);
const DynSqlStep *dyn_sql_plan_get_step    (DynSqlPlan *self, guint i);
/* The output columns of the statement, in order. */
const char * const *dyn_sql_plan_get_columns (DynSqlPlan *self);
/* Whether a step is a Scan. */
gboolean          dyn_sql_plan_needs_scan  (DynSqlPlan *self);
/* The plan as lines of text, one step a line, in the order the calls are
 * made ("Query Workspaces #pk = :pk (once)"); what `sql --explain` prints. */
char             *dyn_sql_plan_to_text     (DynSqlPlan *self) G_GNUC_WARN_UNUSED_RESULT;
JsonNode         *dyn_sql_plan_to_json     (DynSqlPlan *self) G_GNUC_WARN_UNUSED_RESULT;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSqlPlan, dyn_sql_plan_unref)

/**
 * DynSqlSourceStats:
 *
 * What really happened for one source after a run: the same honest cost
 * line as the grid.
 */
typedef struct {
  char    *source;
  guint    get_items;
  guint    batch_gets;
  guint    queries;
  guint    scans;
  guint    requests;      /* all calls, retries not counted */
  guint    pages;
  double   read_units;
  guint64  items;         /* items read from DynamoDB */
} DynSqlSourceStats;

/**
 * DynSqlRow:
 * @cells: one DynValue per output column: NULL, N (an INTEGER, or an exact
 *   decimal), S (text, also JSON text from the `item` column), B (blob)
 * @source: (nullable): the source whose item the row shows, when the row
 *   maps to one item (its full primary key is among the output columns)
 * @item: (nullable): that item, as read
 */
typedef struct {
  GPtrArray  *cells;    /* DynValue*, owned */
  char       *source;
  DynValue   *item;
} DynSqlRow;

void dyn_sql_row_free (DynSqlRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSqlRow, dyn_sql_row_free)

typedef struct _DynSqlResult DynSqlResult;
void                 dyn_sql_result_free          (DynSqlResult *self);
const char * const  *dyn_sql_result_get_columns   (DynSqlResult *self);
/* The rows not yet handed to a DynSqlRowsFunc (all of them when there was
 * none), DynSqlRow*. */
GPtrArray           *dyn_sql_result_get_rows      (DynSqlResult *self);
guint                dyn_sql_result_get_n_sources (DynSqlResult *self);
const DynSqlSourceStats *dyn_sql_result_get_source (DynSqlResult *self, guint i);
/* Totals over the sources, for the status line. */
void                 dyn_sql_result_get_totals    (DynSqlResult *self, guint *requests,
                                                   guint *pages, double *read_units);
/* Whether the run was cancelled; the rows that arrived are kept. */
gboolean             dyn_sql_result_was_cancelled (DynSqlResult *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSqlResult, dyn_sql_result_free)

/* Rows as they arrive (on the caller's main context), DynSqlRow*; the
 * callee may steal them (g_ptr_array_steal). */
typedef void (*DynSqlRowsFunc) (GPtrArray *rows, gpointer user_data);

#define DYN_TYPE_SQL_ENGINE (dyn_sql_engine_get_type ())
G_DECLARE_FINAL_TYPE (DynSqlEngine, dyn_sql_engine, DYN, SQL_ENGINE, GObject)

DynSqlEngine *dyn_sql_engine_new            (DynClient    *client) G_GNUC_WARN_UNUSED_RESULT;
/* Scans run only when allowed; otherwise a statement that needs one is
 * refused before any data request, naming the table and what would make it
 * a Query. Off by default. */
void          dyn_sql_engine_set_allow_scan (DynSqlEngine *self, gboolean allow);
gboolean      dyn_sql_engine_get_allow_scan (DynSqlEngine *self);
/* Parallel scan segments (default 4). */
void          dyn_sql_engine_set_segments   (DynSqlEngine *self, guint segments);
/* Forget the cached table list and columns (tables created or changed). */
void          dyn_sql_engine_reset          (DynSqlEngine *self);

/* The plan, with no data request: only ListTables, DescribeTable and each
 * source's first page (for its columns) are read, once, and cached. */
void          dyn_sql_engine_explain_async  (DynSqlEngine        *self,
                                             const char          *sql,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynSqlPlan   *dyn_sql_engine_explain_finish (DynSqlEngine  *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* Runs a SELECT. Rows go to @rows_func in batches while it runs (nullable:
 * then all rows are in the result). Cancelling keeps the rows that arrived
 * and finishes with a result whose was_cancelled is TRUE. Statements other
 * than one SELECT are refused. Errors name the source and position. */
void          dyn_sql_engine_run_async      (DynSqlEngine        *self,
                                             const char          *sql,
                                             DynSqlRowsFunc       rows_func,
                                             gpointer             rows_data,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynSqlResult *dyn_sql_engine_run_finish     (DynSqlEngine  *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* A row as one plain-JSON object keyed by column name (exact numbers), the
 * line `dynoscope-cli sql` prints and "Copy as JSON Lines" copies. */
char         *dyn_sql_row_to_json_line      (const char * const *columns,
                                             const DynSqlRow    *row) G_GNUC_WARN_UNUSED_RESULT;
/* RFC 4180 CSV: the header line (when @row is NULL) or one row, "\r\n" ended. */
char         *dyn_sql_row_to_csv_line       (const char * const *columns,
                                             const DynSqlRow    *row) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
