/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-window.h"
#include "dyn-table-state.h"

G_BEGIN_DECLS

/* The window's state and the functions its files share: dyn-window.c (the
 * object, status line, properties and public API), dyn-window-loading.c
 * (reads, tables, per-table state, connections), dyn-window-editing.c
 * (staged work, commits, undo, the questions before work is lost) and
 * dyn-window-actions.c (the actions of reading and of the window). */

/* What waits for the question about staged changes. */
typedef enum {
  AFTER_NOTHING,
  AFTER_CLOSE,
  AFTER_OPEN_CONNECTION,
  AFTER_ADD_CONNECTION,
  AFTER_DELETE_CONNECTION,
} AfterStaged;

struct _DynWindow
{
  AdwApplicationWindow  parent_instance;

  DynConnectionStore   *store;
  GListStore           *extras;        /* connections that are not saved */
  GtkFlattenListModel  *connections;
  GSettings            *settings;
  GCancellable         *cancellable;   /* the window's: cancelled in dispose */
  GCancellable         *connect_cancellable;
  GCancellable         *load_cancellable;

  DynConnection        *connection;
  DynClient            *client;
  GStrv                 tables;
  char                 *table;
  char                 *pending_table;
  char                 *initial_query;
  JsonObject           *description;
  DynTableKeys         *keys;
  DynReadRequest       *read;          /* the current read: plan, request and pager come from it */
  DynRequest           *request;
  DynPager             *pager;
  DynCollectionModel   *model;
  DynEditSession       *session;       /* the open table's staged edits */
  GtkWidget            *item_editor;   /* weak: the JSON editor while open */
  gboolean              session_busy;
  GtkStringList        *index_names;
  char                 *status_text;
  char                 *error_text;
  guint                 page_size;     /* the first page's Limit; 0: full pages */
  guint                 busy;
  gboolean              fan_out;
  gboolean              loading;
  gboolean              load_all;
  gboolean              updating_indexes;

  /* The other tables of the connection, as they were left: key (connection
   * and table) → DynTableState. The open table's state is in the fields
   * above. */
  GHashTable           *states;
  gint64                read_time;     /* when the open table's read started */
  gboolean              gone;          /* the open table was found deleted */
  gboolean              status_is_stats;
  guint                 age_id;

  /* The question about staged changes, and what it holds up. */
  GtkWidget            *staged_dialog; /* weak */
  AfterStaged           after;
  DynConnection        *after_connection;
  DynClient            *after_client;
  char                 *after_table;
  gboolean              closing;       /* answered: the window closes */
  gboolean              committing_all;

  /* Back/Forward, recent reads, saved queries (dyn-window-history.c). */
  DynHistory           *history;
  DynSavedQueries      *queries;
  gboolean              history_moving;  /* Back/Forward: reads go to the current entry */
  DynReadOrigin         next_origin;     /* how the builder's next read comes about */
  char                 *next_via;
  DynReadEntry         *history_pending; /* runs once the table is described */
  gboolean              pending_moving;
  DynReadEntry         *deleted_query;   /* for Undo */
  char                 *queries_message; /* the last problem shown */
  GtkWidget            *query_dialog;    /* weak */
  char                 *copy_format;     /* "plain" or "ddb": what Ctrl+C copies */

  /* The SQL Workbench page (dyn-window-sql.c). */
  DynSqlWorkbench      *sql_workbench;
  GHashTable           *sql_states;      /* DynConnection → its statement and Allow Scan */
  gboolean              sql_busy;

  AdwToastOverlay      *toast_overlay;
  AdwFlap              *flap;
  DynConnectionSidebar *sidebar;
  AdwWindowTitle       *window_title;
  GtkDropDown          *index_dropdown;
  GtkRevealer          *error_revealer;
  GtkLabel             *error_label;
  GtkRevealer          *builder_revealer;
  DynExpressionBuilder *builder;
  GtkStack             *view_stack;
  GtkStack             *items_stack;
  GtkPaned             *paned;
  DynItemGrid          *grid;
  DynItemDetail        *detail;
  GtkStack             *side_stack;
  DynStagedChanges     *staged;
  GtkButton            *changes_button;
  GtkWidget            *new_item_button;
  GtkWidget            *edit_button;
  GtkMenuButton        *page_size_button;
  DynTableDetails      *table_details;
  GtkSpinner           *spinner;
  GtkLabel             *status_label;
  AdwStatusPage        *empty_page;
  GtkWidget            *add_connection_button;
  DynQueryPopover      *query_popover;
  GMenuModel           *row_menu;
  GtkWidget            *read_bar;

  /* The PartiQL page (dyn-window-partiql.c). */
  struct _DynWindowPartiql *partiql;

  /* The Design page (dyn-window-design.c). */
  struct _DynWindowDesign *design;

  /* Export and Import (dyn-window-transfer.c): the dialog open, weak. */
  GtkWidget            *transfer_dialog;
  /* Create Table and the Table page's operations (dyn-window-tables.c). */
  struct _DynWindowTables *table_admin;
  /* Production connections (dyn-window-guardrails.c). */
  struct _DynWindowGuardrails *guardrails;

  /* Signing in: the "Sign in again" bar, who the connection is (dyn-window-signin.c). */
  struct _DynWindowSignin *signin;
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS_TEXT,
  PROP_ERROR_TEXT,
  PROP_PAGE_SIZE,
  PROP_COPY_FORMAT,
  N_PROPS
};


/* dyn-window-actions.c */
void _dyn_window_class_actions_init (GtkWidgetClass *widget_class);
void _dyn_window_follow_key_cb (DynItemGrid *grid, const char *name, DynValue *value, DynWindow *self);
gboolean _dyn_window_follow_item_cb (DynItemGrid *grid, const char *name, DynValue *item, DynWindow *self);
void _dyn_window_near_end_cb (DynItemGrid *grid, DynWindow *self);
void _dyn_window_removed_cb (GObject *source, GAsyncResult *result, gpointer user_data);
void _dyn_window_show_side_page (DynWindow *self, const char *name, gboolean toggle);
/* dyn-window-editing.c */
void _dyn_window_class_editing_init (GtkWidgetClass *widget_class);
void _dyn_window_attach_session (DynWindow *self, DynEditSession *session);
void _dyn_window_clear_after (DynWindow *self);
void _dyn_window_clear_session (DynWindow *self);
guint _dyn_window_collect_staged (DynWindow *self, GPtrArray *sessions, GPtrArray *tables);
void _dyn_window_create_session (DynWindow *self);
DynEditSession *_dyn_window_detach_session (DynWindow *self);
void _dyn_window_grid_activate_cb (GtkColumnView *view, guint position, DynWindow *self);
void _dyn_window_grid_edit_failed_cb (DynItemGrid *grid, const GError *error, DynWindow *self);
void _dyn_window_grid_edit_item_cb (DynItemGrid *grid, DynItemObject *row, DynWindow *self);
void _dyn_window_set_session_model (DynWindow *self);
void _dyn_window_staged_committed_cb (DynStagedChanges *staged, DynCommitResult *result, DynWindow *self);
void _dyn_window_when_staged_handled (DynWindow *self, AfterStaged after, DynConnection *connection, DynClient *client, const char *table);
/* dyn-window-loading.c */
void _dyn_window_builder_index_cb (DynExpressionBuilder *builder, GParamSpec *pspec, DynWindow *self);
void _dyn_window_cancel_load (DynWindow *self);
void _dyn_window_grid_query_ordered_cb (DynItemGrid *grid, const char *index, gboolean descending, DynWindow *self);
void _dyn_window_index_selected_cb (GtkDropDown *dropdown, GParamSpec *pspec, DynWindow *self);
void _dyn_window_list_tables (DynWindow *self);
void _dyn_window_load_next (DynWindow *self);
DynReadRequest *_dyn_window_new_scan (DynWindow *self);
void _dyn_window_open_connection_now (DynWindow *self, DynConnection *connection);
void _dyn_window_open_table_now (DynWindow *self, const char *table);
void _dyn_window_reset_connection (DynWindow *self, DynConnection *connection);
gboolean _dyn_window_run_builder (DynWindow *self, GError **error);
void _dyn_window_select_index (DynWindow *self, const char *index);
void _dyn_window_set_client (DynWindow *self, DynClient *client);
void _dyn_window_start_read (DynWindow *self, DynReadRequest *read);
/* dyn-window-history.c */
void _dyn_window_class_history_init (GtkWidgetClass *widget_class);
void _dyn_window_history_init (DynWindow *self);
void _dyn_window_history_dispose (DynWindow *self);
void _dyn_window_history_record_read (DynWindow *self, DynReadRequest *read);
void _dyn_window_history_record_shown (DynWindow *self);
void _dyn_window_history_reset (DynWindow *self);
gboolean _dyn_window_history_run_pending (DynWindow *self);
void _dyn_window_history_update_actions (DynWindow *self);
/* dyn-window-sql.c */
void _dyn_window_class_sql_init (GtkWidgetClass *widget_class);
void _dyn_window_sql_init (DynWindow *self);
void _dyn_window_sql_dispose (DynWindow *self);
void _dyn_window_sql_leave_connection (DynWindow *self);
void _dyn_window_sql_set_client (DynWindow *self);
void _dyn_window_sql_tables_changed (DynWindow *self);
/* dyn-window-partiql.c */
typedef struct _DynWindowPartiql DynWindowPartiql;
void _dyn_window_class_partiql_init (GtkWidgetClass *widget_class);
void _dyn_window_partiql_init (DynWindow *self);
void _dyn_window_partiql_set_client (DynWindow *self);
void _dyn_window_partiql_dispose (DynWindow *self);
/* dyn-window-design.c */
typedef struct _DynWindowDesign DynWindowDesign;
void _dyn_window_class_design_init (GtkWidgetClass *widget_class);
void _dyn_window_design_init (DynWindow *self);
void _dyn_window_design_set_client (DynWindow *self);
void _dyn_window_design_tables_changed (DynWindow *self);
void _dyn_window_design_dispose (DynWindow *self);
/* dyn-window-transfer.c */
void _dyn_window_class_transfer_init (GtkWidgetClass *widget_class);
void _dyn_window_transfer_update_actions (DynWindow *self);
void _dyn_window_transfer_dispose (DynWindow *self);
/* dyn-window-tables.c */
typedef struct _DynWindowTables DynWindowTables;
void _dyn_window_class_tables_init (GtkWidgetClass *widget_class);
void _dyn_window_tables_init (DynWindow *self);
void _dyn_window_tables_dispose (DynWindow *self);
void _dyn_window_tables_refresh (DynWindow *self);
void _dyn_window_tables_update_actions (DynWindow *self);
/* dyn-window-guardrails.c */
typedef struct _DynWindowGuardrails DynWindowGuardrails;
void _dyn_window_class_guardrails_init (GtkWidgetClass *widget_class);
void _dyn_window_guardrails_init (DynWindow *self);
void _dyn_window_guardrails_dispose (DynWindow *self);
void _dyn_window_guardrails_sync (DynWindow *self);
void _dyn_window_guardrails_attach_session (DynWindow *self, DynEditSession *session);
void _dyn_window_guardrails_tables_listed (DynWindow *self);
const char *_dyn_window_guardrails_get_empty_hint (DynWindow *self);
gboolean _dyn_window_is_read_only (DynWindow *self);
DynGuardrail *_dyn_window_get_guardrail (DynWindow *self);
void _dyn_window_approve_write (DynWindow *self, DynWriteSummary *summary, GAsyncReadyCallback then, gpointer user_data);
/* Runs @func (self, @data) once the guardrail allows the write @summary describes (at once off
 * production; refused while locked; after the confirmation while unlocked), then @destroy (@data). */
typedef void (*DynWindowWriteFunc) (DynWindow *self, gpointer data);
void _dyn_window_guard_write (DynWindow *self, DynWriteSummary *summary, DynWindowWriteFunc func,
                              gpointer data, GDestroyNotify destroy);
/* dyn-window-signin.c */
typedef struct _DynWindowSignin DynWindowSignin;
void _dyn_window_signin_init (DynWindow *self);
void _dyn_window_signin_dispose (DynWindow *self);
/* Between these the user may be asked to sign in (an MFA code, the device flow). */
void _dyn_window_signin_begin (DynWindow *self);
void _dyn_window_signin_end (DynWindow *self);
void _dyn_window_signin_client_changed (DynWindow *self);
/* dyn-window.c */
void _dyn_window_clear_error (DynWindow *self);
void _dyn_window_refuse_read_only (DynWindow *self);
void _dyn_window_set_busy (DynWindow *self, gboolean busy);
void _dyn_window_set_status (DynWindow *self, const char *text);
void _dyn_window_show_error (DynWindow *self, const char *what, const GError *error);
void _dyn_window_show_message (DynWindow *self, const char *text);
void _dyn_window_update_actions (DynWindow *self);
void _dyn_window_update_edit_actions (DynWindow *self);
void _dyn_window_update_status (DynWindow *self);

G_END_DECLS
