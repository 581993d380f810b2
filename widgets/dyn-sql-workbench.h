/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <gtksourceview/gtksource.h>

#include "dyn-item-detail.h"
#include "dyn-sql.h"

G_BEGIN_DECLS

/* The SQL Workbench of a connection: a SELECT written in an SQL editor,
 * its plan as the DynamoDB calls each source makes (a Scan marked, and
 * refused unless "Allow Scan" is on), the rows streaming into a flat
 * column view as they arrive, and a status line with what really happened
 * per source (requests, pages, RCU) and in total.
 *
 * The engine (client/sql/dyn-sql.h) does the work; the workbench renders.
 * Actions (group "sql"): sql.run (Ctrl+Return: explains, then runs),
 * sql.explain (Ctrl+Shift+E: the plan, no data request), sql.cancel
 * (Escape or Ctrl+.: the rows that arrived stay), sql.copy ("json" or
 * "csv": the selected rows, all rows when none is selected; CSV with its
 * header line), sql.open-item (Enter or a double-click on a row that maps
 * to one item: the item in the detail pane beside the rows). */

#define DYN_TYPE_SQL_WORKBENCH (dyn_sql_workbench_get_type ())
G_DECLARE_FINAL_TYPE (DynSqlWorkbench, dyn_sql_workbench, DYN, SQL_WORKBENCH, AdwBin)

GtkWidget          *dyn_sql_workbench_new             (void);
/* @engine: (nullable): the connection's engine; setting another one
 * cancels what runs and clears the plan and the rows (not the text). */
void                dyn_sql_workbench_set_engine      (DynSqlWorkbench *self,
                                                       DynSqlEngine    *engine);
DynSqlEngine       *dyn_sql_workbench_get_engine      (DynSqlWorkbench *self);
/* The statement in the editor. */
char               *dyn_sql_workbench_dup_text        (DynSqlWorkbench *self) G_GNUC_WARN_UNUSED_RESULT;
void                dyn_sql_workbench_set_text        (DynSqlWorkbench *self,
                                                       const char      *text);
/* The "Allow Scan" switch (the "allow-scan" property), off by default. */
gboolean            dyn_sql_workbench_get_allow_scan  (DynSqlWorkbench *self);
void                dyn_sql_workbench_set_allow_scan  (DynSqlWorkbench *self,
                                                       gboolean         allow);

void                dyn_sql_workbench_explain         (DynSqlWorkbench *self);
void                dyn_sql_workbench_run             (DynSqlWorkbench *self);
void                dyn_sql_workbench_cancel          (DynSqlWorkbench *self);
/* Explaining or running (the "busy" property). */
gboolean            dyn_sql_workbench_get_busy        (DynSqlWorkbench *self);

/* What is shown: the status line, the inline error (NULL when there is
 * none; a syntax error is also marked in the editor), the plan steps as
 * their rows read (one line a step, NULL without a plan). */
const char         *dyn_sql_workbench_get_status_text (DynSqlWorkbench *self);
const char         *dyn_sql_workbench_get_error_text  (DynSqlWorkbench *self);
char               *dyn_sql_workbench_dup_plan_text   (DynSqlWorkbench *self) G_GNUC_WARN_UNUSED_RESULT;
DynSqlPlan         *dyn_sql_workbench_get_plan        (DynSqlWorkbench *self);
/* The result of the last run that finished (NULL while it runs). */
DynSqlResult       *dyn_sql_workbench_get_result      (DynSqlWorkbench *self);

/* The rows shown and their columns. */
const char * const *dyn_sql_workbench_get_columns     (DynSqlWorkbench *self);
guint               dyn_sql_workbench_get_n_rows      (DynSqlWorkbench *self);
const DynSqlRow    *dyn_sql_workbench_get_row         (DynSqlWorkbench *self,
                                                       guint            position);
/* The text of a cell as shown. */
char               *dyn_sql_workbench_dup_cell_text   (DynSqlWorkbench *self,
                                                       guint            position,
                                                       guint            column) G_GNUC_WARN_UNUSED_RESULT;
GtkColumnView      *dyn_sql_workbench_get_column_view (DynSqlWorkbench *self);
GtkSourceView      *dyn_sql_workbench_get_source_view (DynSqlWorkbench *self);

/* Opens the row's item in the detail pane; FALSE when the row maps to no
 * item. */
gboolean            dyn_sql_workbench_open_row        (DynSqlWorkbench *self,
                                                       guint            position);
DynItemDetail      *dyn_sql_workbench_get_detail      (DynSqlWorkbench *self);
gboolean            dyn_sql_workbench_get_detail_shown (DynSqlWorkbench *self);

/* The rows as "Copy" copies them: @format "json" (JSON lines) or "csv"
 * (with the header line); the selected rows, all when none is selected. */
char               *dyn_sql_workbench_dup_rows_text   (DynSqlWorkbench *self,
                                                       const char      *format) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
