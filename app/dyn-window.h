/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "dyn-client.h"
#include "dyn-collections.h"
#include "dyn-connection.h"
#include "dyn-connection-sidebar.h"
#include "dyn-design-view.h"
#include "dyn-edit-session.h"
#include "dyn-expression-builder.h"
#include "dyn-item-detail.h"
#include "dyn-item-editor.h"
#include "dyn-item-grid.h"
#include "dyn-partiql-editor.h"
#include "dyn-history.h"
#include "dyn-pager.h"
#include "dyn-query-popover.h"
#include "dyn-saved-queries.h"
#include "dyn-sql-workbench.h"
#include "dyn-staged-changes.h"
#include "dyn-table-details.h"

G_BEGIN_DECLS

#define DYN_TYPE_WINDOW (dyn_window_get_type ())
G_DECLARE_FINAL_TYPE (DynWindow, dyn_window, DYN, WINDOW, AdwApplicationWindow)

DynWindow          *dyn_window_new                  (GtkApplication     *app,
                                                     DynConnectionStore *store);
DynConnectionStore *dyn_window_get_store            (DynWindow          *self);
/* Adds a connection that is not saved (the command line's) and opens it
 * with @client, or with a client made from it when @client is NULL. */
void                dyn_window_add_connection       (DynWindow          *self,
                                                     DynConnection      *connection,
                                                     DynClient          *client);
/* Opens @connection: makes its client and lists its tables. */
void                dyn_window_open_connection      (DynWindow          *self,
                                                     DynConnection      *connection);
/* Opens a table of the current connection and reads its first page (a Scan),
 * or when no client is ready yet, as soon as it is. */
void                dyn_window_open_table           (DynWindow          *self,
                                                     const char         *table);
/* The builder's text to run instead of a Scan when the next table opens. */
void                dyn_window_set_initial_query    (DynWindow          *self,
                                                     const char         *text);
/* The size of a read's first page (its Limit; 0: a full page of up to 1 MB)
 * for this window, instead of the "page-size" setting (the "page-size"
 * property). Later pages are always full ones. */
void                dyn_window_set_page_limit       (DynWindow          *self,
                                                     guint               limit);

DynConnection      *dyn_window_get_connection       (DynWindow          *self);
DynClient          *dyn_window_get_client           (DynWindow          *self);
const char         *dyn_window_get_table            (DynWindow          *self);
/* The index being read, NULL for the table. */
const char         *dyn_window_get_index            (DynWindow          *self);
const DynTableKeys *dyn_window_get_table_keys       (DynWindow          *self);
DynCollectionModel *dyn_window_get_model            (DynWindow          *self);
DynPager           *dyn_window_get_pager            (DynWindow          *self);
/* What the current read is: a copy of its request (NULL: none). */
const DynRequest   *dyn_window_get_request          (DynWindow          *self);
/* The current read: the object its plan, request, snippet and pager come
 * from (NULL: none). */
DynReadRequest     *dyn_window_get_read_request     (DynWindow          *self);
/* TRUE while connecting, describing or loading a page ("busy" notifies). */
gboolean            dyn_window_is_busy              (DynWindow          *self);
const char         *dyn_window_get_status_text      (DynWindow          *self);
/* The message shown for the last error (with the AWS code), or NULL. */
const char         *dyn_window_get_error_text       (DynWindow          *self);
/* The table names listed for the current connection. */
const char * const *dyn_window_get_tables           (DynWindow          *self);

DynItemGrid          *dyn_window_get_grid           (DynWindow *self);
DynItemDetail        *dyn_window_get_detail         (DynWindow *self);
DynExpressionBuilder *dyn_window_get_builder        (DynWindow *self);
DynConnectionSidebar *dyn_window_get_sidebar        (DynWindow *self);
DynTableDetails      *dyn_window_get_table_details  (DynWindow *self);

/* Editing: the open table's session (NULL when no table is open), the
 * staged-changes pane, the JSON editor while it is open, and the side pane
 * shown ("detail", "changes", or NULL when hidden). */
DynEditSession       *dyn_window_get_edit_session   (DynWindow *self);
DynStagedChanges     *dyn_window_get_staged_changes (DynWindow *self);
DynItemEditor        *dyn_window_get_item_editor    (DynWindow *self);
const char           *dyn_window_get_side_page      (DynWindow *self);
/* Back/Forward through the window's reads, and the saved queries and
 * recent reads it shows (dyn-window-history.c). */
DynHistory           *dyn_window_get_history        (DynWindow *self);
DynSavedQueries      *dyn_window_get_saved_queries  (DynWindow *self);
DynQueryPopover      *dyn_window_get_query_popover  (DynWindow *self);
/* The empty page shown while no table is open. */
AdwStatusPage        *dyn_window_get_empty_page     (DynWindow *self);
/* The SQL Workbench page (dyn-window-sql.c), and the page shown ("items",
 * "details", "sql"). */
DynSqlWorkbench      *dyn_window_get_sql_workbench  (DynWindow *self);
const char           *dyn_window_get_view           (DynWindow *self);
/* The PartiQL page's editor (dyn-window-partiql.c). */
DynPartiqlEditor     *dyn_window_get_partiql_editor (DynWindow *self);
/* The Design page (dyn-window-design.c): its view, and a model file read
 * into it (Dynoscope, NoSQL Workbench or CloudFormation JSON; the page is
 * shown) or the model saved as a Dynoscope model file: what win.design-open
 * and win.design-save do after their file dialog. */
DynDesignView        *dyn_window_get_design_view    (DynWindow *self);
/* The Create Table dialog, the Add Index dialog or the confirmation of a
 * table operation open now, or NULL (dyn-window-tables.c). */
GtkWindow            *dyn_window_get_table_dialog   (DynWindow *self);
gboolean              dyn_window_open_design_file   (DynWindow *self,
                                                     GFile     *file,
                                                     GError   **error);
gboolean              dyn_window_save_design_file   (DynWindow *self,
                                                     GFile     *file,
                                                     GError   **error);
/* The model exported (dyn_design_export(): NoSQL Workbench, CloudFormation
 * or the create-table input) through its current plan: what win.design-export
 * does after its file dialog. The model file itself is not changed. */
gboolean              dyn_window_export_design_file (DynWindow      *self,
                                                     GFile          *file,
                                                     DynDesignFormat format,
                                                     GError        **error);

/* The Export or Import dialog open (dyn-window-transfer.c; a
 * DynTransferExportDialog or DynTransferImportDialog: what win.export and
 * win.import show), or NULL. */
GtkWindow            *dyn_window_get_transfer_dialog (DynWindow *self);

/* The write lock of the open connection (dyn-window-guardrails.c): production
 * connections are read-only until unlocked; tests shorten the unlock with
 * dyn_guardrail_set_unlock_seconds(). The confirmation shown now before a
 * write (an AdwMessageDialog from dyn_write_confirm_dialog_new()), or NULL. */
DynGuardrail         *dyn_window_get_guardrail       (DynWindow *self);
GtkWidget            *dyn_window_get_write_confirm_dialog (DynWindow *self);

G_END_DECLS
