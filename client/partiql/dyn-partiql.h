/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * DynamoDB's PartiQL: a linter that runs as the user types, against the
 * real table's key schema, and the calls that run statements
 * (ExecuteStatement with NextToken paging, ExecuteTransaction).
 */
#pragma once

#include <gio/gio.h>

#include "dyn-client.h"
#include "dyn-expr.h"
#include "dyn-value.h"

G_BEGIN_DECLS

typedef enum {
  DYN_PARTIQL_ERROR,     /* DynamoDB refuses it */
  DYN_PARTIQL_WARNING,   /* runs, but not as the user likely means (a Scan, "x" = 'y') */
  DYN_PARTIQL_INFO,
} DynPartiqlSeverity;

/**
 * DynPartiqlDiagnostic:
 * @code: a stable rule name: "full-scan", "double-quoted-string", "join",
 *   "group-by", "count", "limit", "like", "no-full-key", "insert-no-key",
 *   "number-digits", "in-too-many", "syntax", "unknown-table" …
 * @line, @column: 1-based; @column counts characters
 * @start, @end: the byte range in the statement the message is about
 * @message: translated, one sentence, naming the key or the alternative
 * @fix_label: (nullable): a quick fix ("Use single quotes")
 * @fix_text: (nullable): the text that replaces [@start, @end) for the fix
 * @open_in_sql: the SQL Workbench can run this statement instead
 */
typedef struct {
  const char          *code;
  DynPartiqlSeverity   severity;
  guint                line;
  guint                column;
  gsize                start;
  gsize                end;
  char                *message;
  char                *fix_label;
  char                *fix_text;
  gboolean             open_in_sql;
} DynPartiqlDiagnostic;

void dyn_partiql_diagnostic_free (DynPartiqlDiagnostic *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynPartiqlDiagnostic, dyn_partiql_diagnostic_free)

typedef enum {
  DYN_PARTIQL_SELECT,
  DYN_PARTIQL_INSERT,
  DYN_PARTIQL_UPDATE,
  DYN_PARTIQL_DELETE,
  DYN_PARTIQL_UNKNOWN,
} DynPartiqlKind;

/**
 * DynPartiqlInfo:
 *
 * What one statement is, for the editor's confirmation and the snippets.
 * @keys: the key values the statement names (a write's target), plain text
 *   "PK = 'WS#acme', SK = 'META'", or NULL when it names none
 */
typedef struct {
  DynPartiqlKind  kind;
  char           *table;
  char           *index;        /* nullable */
  char           *keys;         /* nullable */
  guint           n_parameters; /* the `?` in it */
  gboolean        is_write;
} DynPartiqlInfo;

void dyn_partiql_info_free (DynPartiqlInfo *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynPartiqlInfo, dyn_partiql_info_free)

/* The key schema of a table by name, or NULL when unknown (the linter then
 * skips the key rules). */
typedef const DynTableKeys *(*DynPartiqlSchemaFunc) (const char *table, gpointer user_data);

/* Splits text into statements (`;` outside strings and quoted names); each
 * element is a string; positions of diagnostics are relative to @text. */
GPtrArray      *dyn_partiql_split   (const char *text) G_GNUC_WARN_UNUSED_RESULT;
DynPartiqlInfo *dyn_partiql_inspect (const char *statement) G_GNUC_WARN_UNUSED_RESULT;
/* All diagnostics of @text (one or more statements), in order of position. */
GPtrArray      *dyn_partiql_lint    (const char           *text,
                                     DynPartiqlSchemaFunc  schema_func,
                                     gpointer              schema_data) G_GNUC_WARN_UNUSED_RESULT;
/* Like dyn_partiql_lint(); with @tables (the connection's table names, or
 * NULL when not known) a table not in it is an "unknown-table" error. */
GPtrArray      *dyn_partiql_lint_with_tables (const char           *text,
                                              DynPartiqlSchemaFunc  schema_func,
                                              gpointer              schema_data,
                                              const char * const   *tables) G_GNUC_WARN_UNUSED_RESULT;
/* Like dyn_partiql_inspect(); with the schema, @keys names only the key
 * attributes (in key order), and an INSERT's key is taken from its VALUE
 * (dyn_partiql_inspect() cannot tell which members of an INSERT are the key:
 * its @keys is NULL then). */
DynPartiqlInfo *dyn_partiql_inspect_with_schema (const char           *statement,
                                                 DynPartiqlSchemaFunc  schema_func,
                                                 gpointer              schema_data) G_GNUC_WARN_UNUSED_RESULT;

/* One page of ExecuteStatement. @parameters: (nullable): a DynValue list of
 * the `?` values. @next_token: (nullable): from the previous page; the
 * statement text must be identical. */
typedef struct {
  GPtrArray *items;        /* DynValue* */
  char      *next_token;   /* nullable */
  double     read_units;
  double     write_units;
} DynPartiqlPage;
void dyn_partiql_page_free (DynPartiqlPage *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynPartiqlPage, dyn_partiql_page_free)

void            dyn_partiql_execute_async      (DynClient           *client,
                                                const char          *statement,
                                                const DynValue      *parameters,
                                                const char          *next_token,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
DynPartiqlPage *dyn_partiql_execute_finish     (DynClient     *client,
                                                GAsyncResult  *result,
                                                GError       **error) G_GNUC_WARN_UNUSED_RESULT;
/* Several statements (each with its parameter list or NULL) as one
 * ExecuteTransaction; cancellation reasons are named per statement. */
void            dyn_partiql_transaction_async  (DynClient           *client,
                                                GPtrArray           *statements,
                                                GPtrArray           *parameters,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
DynPartiqlPage *dyn_partiql_transaction_finish (DynClient     *client,
                                                GAsyncResult  *result,
                                                GError       **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
