/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-partiql.h"
#include "dyn-snippet.h"

G_BEGIN_DECLS

/* The PartiQL editor: a GtkSourceView with SQL highlighting, linted as the
 * user types (dyn_partiql_lint against the key schemas its schema function
 * gives), each diagnostic underlined and listed with its quick fix; one typed
 * value per `?`; the results of a run as one plain-JSON line per item; the
 * snippets of the statements. Running is the window's: Run and Ctrl+Enter
 * activate "win.partiql-run", Load More "win.partiql-load-more", and
 * "Open in SQL Workbench" activates "win.open-in-sql" with the text. */

#define DYN_TYPE_PARTIQL_EDITOR (dyn_partiql_editor_get_type ())
G_DECLARE_FINAL_TYPE (DynPartiqlEditor, dyn_partiql_editor, DYN, PARTIQL_EDITOR, AdwBin)

GtkWidget     *dyn_partiql_editor_new                (void);
char          *dyn_partiql_editor_dup_text           (DynPartiqlEditor     *self) G_GNUC_WARN_UNUSED_RESULT;
void           dyn_partiql_editor_set_text           (DynPartiqlEditor     *self,
                                                      const char           *text);
GtkTextView   *dyn_partiql_editor_get_view           (DynPartiqlEditor     *self);

/* Where the linter finds a table's key schema (NULL: unknown for now). */
void           dyn_partiql_editor_set_schema_func    (DynPartiqlEditor     *self,
                                                      DynPartiqlSchemaFunc  func,
                                                      gpointer              user_data);
/* The connection's table names (NULL: not known): a table not among them is
 * an error. */
void           dyn_partiql_editor_set_tables         (DynPartiqlEditor     *self,
                                                      const char * const   *tables);
/* Lints again (a key schema arrived); on the idle. */
void           dyn_partiql_editor_queue_lint         (DynPartiqlEditor     *self);
/* TRUE while a lint waits to run (the text changed since the last one). */
gboolean       dyn_partiql_editor_get_lint_pending   (DynPartiqlEditor     *self);
/* The diagnostics of the last lint (DynPartiqlDiagnostic*), in order. */
GPtrArray     *dyn_partiql_editor_get_diagnostics    (DynPartiqlEditor     *self);
/* Replaces the range of diagnostic @index with its fix_text. */
gboolean       dyn_partiql_editor_apply_fix          (DynPartiqlEditor     *self,
                                                      guint                 index);

/* The `?` values: one value editor per `?` of the text, in order. */
guint          dyn_partiql_editor_get_n_parameters   (DynPartiqlEditor     *self);
void           dyn_partiql_editor_set_parameter      (DynPartiqlEditor     *self,
                                                      guint                 index,
                                                      DynValueType          type,
                                                      const char           *text);
/* The statements of the text (strings) and, per statement, a DynValue list
 * of its `?` values or NULL; FALSE with the value editor's error when a value
 * does not parse or there is no statement. */
gboolean       dyn_partiql_editor_collect            (DynPartiqlEditor     *self,
                                                      GPtrArray           **statements,
                                                      GPtrArray           **parameters,
                                                      GError              **error);

/* Results: one line per item. */
void           dyn_partiql_editor_clear_results      (DynPartiqlEditor     *self);
void           dyn_partiql_editor_add_items          (DynPartiqlEditor     *self,
                                                      GPtrArray            *items);
guint          dyn_partiql_editor_get_n_results      (DynPartiqlEditor     *self);
char          *dyn_partiql_editor_dup_result         (DynPartiqlEditor     *self,
                                                      guint                 position) G_GNUC_WARN_UNUSED_RESULT;
void           dyn_partiql_editor_set_status         (DynPartiqlEditor     *self,
                                                      const char           *text);
const char    *dyn_partiql_editor_get_status         (DynPartiqlEditor     *self);

/* Snippets: the connection's endpoint and region (both nullable). */
void           dyn_partiql_editor_set_endpoint       (DynPartiqlEditor     *self,
                                                      const char           *endpoint,
                                                      const char           *region);
void           dyn_partiql_editor_set_snippet_language (DynPartiqlEditor   *self,
                                                      DynSnippetLanguage    lang);
const char    *dyn_partiql_editor_get_snippet        (DynPartiqlEditor     *self);

G_END_DECLS
