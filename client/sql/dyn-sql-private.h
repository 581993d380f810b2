/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The parts of the SQL Workbench engine that talk to each other: the
 * sources (a table or an index with its columns), one statement's run (its
 * cache of reads, the requests in flight on the caller's context, the
 * stats), the virtual-table module and the plan.
 */
#pragma once

#include <sqlite3.h>

#include "dyn-sql.h"
#include "dyn-expr.h"

G_BEGIN_DECLS

/* A column of a virtual table. */
typedef struct {
  char         *name;
  gboolean      is_key;
  DynValueType  key_type;   /* for keys */
  gboolean      decimal;    /* N values with fractions or beyond 64 bits seen: all N as exact text */
  gboolean      numeric;    /* N values seen (or an N key) */
} DynSqlColumn;

/* A table or an index, as a virtual table. Reference-counted; immutable
 * once registered. */
typedef struct {
  gint           ref_count;
  char          *name;          /* "Workspaces" or "Workspaces.GSI1" */
  char          *table;
  char          *index;         /* NULL for the table */
  DynIndexKind   kind;
  DynKeySchema   keys;          /* the source's key */
  DynTableKeys  *table_keys;    /* the table's keys and indexes (suggestions, item keys) */
  GPtrArray     *columns;       /* DynSqlColumn*; the hidden `item` column comes after them */
  guint          sampled_items; /* items of the first page read for the columns */
  double         sample_units;
} DynSqlSource;

DynSqlSource *dyn_sql_source_ref   (DynSqlSource *self);
void          dyn_sql_source_unref (DynSqlSource *self);
/* The CREATE TABLE statement for sqlite3_declare_vtab(). */
char         *dyn_sql_source_schema (DynSqlSource *self) G_GNUC_WARN_UNUSED_RESULT;
/* Builds a source from DescribeTable's keys and a first page of items. */
DynSqlSource *dyn_sql_source_new   (const DynTableKeys *keys, const char *index,
                                    GPtrArray *sample) G_GNUC_WARN_UNUSED_RESULT;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynSqlSource, dyn_sql_source_unref)

/* Value conversion between DynamoDB and SQLite. */
void          dyn_sql_result_value (sqlite3_context *ctx, const DynValue *value, gboolean decimal);
DynValue     *dyn_sql_value_to_dyn (sqlite3_value *value, gboolean numeric_text) G_GNUC_WARN_UNUSED_RESULT;
/* A key value of @type from what SQLite compares with; NULL when no item can match. */
DynValue     *dyn_sql_key_value    (sqlite3_value *value, DynValueType type) G_GNUC_WARN_UNUSED_RESULT;
/* A quoted SQL identifier. */
char         *dyn_sql_quote_identifier (const char *name) G_GNUC_WARN_UNUSED_RESULT;

/* ------------------------------------------------------------------------ */
/* Access paths: what xBestIndex chose, encoded in idxStr so that EXPLAIN
 * QUERY PLAN shows it ("dyn:<n>"), the details kept in the run by number. */

typedef enum {
  DYN_SQL_ACCESS_GET,
  DYN_SQL_ACCESS_BATCH_GET,
  DYN_SQL_ACCESS_QUERY,
  DYN_SQL_ACCESS_SCAN,
} DynSqlAccessOp;

typedef enum {
  DYN_SQL_ARG_PARTITION,     /* = or IN on partition attribute @attr */
  DYN_SQL_ARG_SORT,          /* a condition on sort attribute @attr */
  DYN_SQL_ARG_FILTER,        /* = on a non-key column, FilterExpression */
} DynSqlArgRole;

typedef enum {
  DYN_SQL_COND_EQ,
  DYN_SQL_COND_LT,
  DYN_SQL_COND_LE,
  DYN_SQL_COND_GT,
  DYN_SQL_COND_GE,
  DYN_SQL_COND_BEGINS,       /* LIKE 'prefix%' */
} DynSqlCond;

typedef struct {
  DynSqlArgRole  role;
  guint          attr;       /* partition/sort attribute position; column for FILTER */
  DynSqlCond     cond;
  gboolean       in;         /* IN, all values at once */
  gboolean       constant;   /* the value is known when the statement is prepared */
  DynValue      *value;      /* that value (NULL for IN lists and joined values) */
} DynSqlArg;

typedef struct {
  guint           id;
  DynSqlSource   *source;
  DynSqlAccessOp  op;
  GArray         *args;          /* DynSqlArg, in argv order */
  gboolean        order_consumed;
  gboolean        descending;
  GPtrArray      *constrained;   /* column names with an = the Scan could not use */
  char           *residual;      /* in words: what SQLite evaluates itself */
} DynSqlAccess;

void          dyn_sql_access_free  (DynSqlAccess *access);

/* ------------------------------------------------------------------------ */
/* One statement's run: the worker's side. */

typedef struct _DynSqlRun DynSqlRun;

/* The module registered for every source, eponymous (the vtab's pAux is a
 * DynSqlRun-owning connection context). */
typedef struct {
  DynSqlRun    *run;
  DynSqlSource *source;
} DynSqlModuleData;

extern const sqlite3_module dyn_sql_module;

/* From the vtab: */
guint          dyn_sql_run_add_access   (DynSqlRun *run, DynSqlAccess *access);   /* takes it */
DynSqlAccess  *dyn_sql_run_get_access   (DynSqlRun *run, guint id);
/* Notes a constant partition key seen with a sort-key shape, so that reads
 * of one item collection with different sort conditions share one Query. */
void           dyn_sql_run_note_collection (DynSqlRun *run, DynSqlSource *source,
                                            const char *partition, const char *shape);
gboolean       dyn_sql_run_is_collection   (DynSqlRun *run, DynSqlSource *source,
                                            const char *partition);

/* A read the cursor iterates: a cached job of the run. */
typedef struct _DynSqlJob DynSqlJob;

/* Looks up (or starts, or records as missing) the read described; NULL
 * when it is missing in this pass (the cursor is empty then). */
DynSqlJob     *dyn_sql_run_read         (DynSqlRun *run, DynSqlSource *source,
                                         DynSqlAccessOp op, GPtrArray *partition,
                                         GPtrArray *sort_conds, GPtrArray *filters,
                                         gboolean forward, DynValue *key, GError **error);
/* Remembers the first read that failed (the statement fails with it). */
void           dyn_sql_run_set_error    (DynSqlRun *run, const GError *error);
/* Item @i of @job, waiting for it to arrive; NULL at the end (or on error,
 * with @error set). Borrowed. */
DynValue      *dyn_sql_job_get_item     (DynSqlJob *job, guint i, GError **error);

/* A sort-key condition, for keys and the local filter of collection reads. */
typedef struct {
  guint      attr;
  DynSqlCond cond;
  DynValue  *value;
} DynSqlSortCond;

void           dyn_sql_sort_cond_free   (DynSqlSortCond *c);
gboolean       dyn_sql_sort_cond_match  (const DynSqlSortCond *c, const DynKeySchema *keys,
                                         DynValue *item);
/* A non-key equality pushed into the FilterExpression. */
typedef struct {
  char     *name;
  DynValue *value;
} DynSqlFilter;

void           dyn_sql_filter_free      (DynSqlFilter *f);

/* ------------------------------------------------------------------------ */
/* Plans */

DynSqlPlan    *dyn_sql_plan_new         (const char * const *columns);
/* Adds a step for @access, in call order; @outer is the step before it in
 * the loop nest (NULL for the outermost). Text parts are copied. */
void           dyn_sql_plan_add_access  (DynSqlPlan *plan, DynSqlAccess *access, guint depth,
                                         DynSqlAccess *outer, guint segments);
void           dyn_sql_plan_add_note    (DynSqlPlan *plan, const char *note);
/* Builds the request of one call: "KeyConditionExpression" etc. as
 * DynamoDB takes it; placeholders for joined values. */
JsonNode      *dyn_sql_build_request    (DynSqlSource *source, DynSqlAccessOp op,
                                         GPtrArray *partition, GPtrArray *sort_conds,
                                         GPtrArray *filters, gboolean forward,
                                         char **key_condition, char **filter,
                                         GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Rows */
DynSqlResult  *dyn_sql_result_new       (const char * const *columns);
void           dyn_sql_result_add_rows  (DynSqlResult *self, GPtrArray *rows);
void           dyn_sql_result_set_stats (DynSqlResult *self, GPtrArray *stats, gboolean cancelled);
void           dyn_sql_source_stats_free (DynSqlSourceStats *stats);

G_END_DECLS
