/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-app-resources.h"
#include "dyn-connection-editor.h"
#include "dyn-item-editor.h"
#include "dyn-settings.h"
#include "dyn-table.h"
#include "dyn-table-state.h"
#include "dyn-value-format.h"
#include "dyn-window.h"

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
};

enum {
  PROP_0,
  PROP_BUSY,
  PROP_STATUS_TEXT,
  PROP_ERROR_TEXT,
  PROP_PAGE_SIZE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynWindow, dyn_window, ADW_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[N_PROPS];

static void load_next (DynWindow *self);
static void update_actions (DynWindow *self);
static void update_edit_actions (DynWindow *self);
static void set_session_model (DynWindow *self);
static void create_session (DynWindow *self);
static void clear_session (DynWindow *self);
static DynEditSession *detach_session (DynWindow *self);
static void attach_session (DynWindow      *self,
                            DynEditSession *session);
static void open_table_now (DynWindow  *self,
                            const char *table);
static void list_tables (DynWindow *self);
static void show_side_page (DynWindow  *self,
                            const char *name,
                            gboolean    toggle);

static void
update_page_size_button (DynWindow *self)
{
  g_autofree char *label = NULL;

  if (self->page_size == 0)
    label = g_strdup (_("First Page: Full"));
  else
    label = g_strdup_printf (_("First Page: %u"), self->page_size);
  gtk_menu_button_set_label (self->page_size_button, label);
}

static void
set_page_size (DynWindow *self,
               guint      page_size)
{
  if (self->page_size == page_size)
    return;
  self->page_size = page_size;
  /* The builder's read request carries it, so its snippet says what is sent. */
  dyn_expression_builder_set_page_size (self->builder, page_size);
  update_page_size_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE_SIZE]);
}

static void
set_busy (DynWindow *self,
          gboolean   busy)
{
  gboolean was = self->busy > 0;

  if (busy)
    self->busy++;
  else if (self->busy > 0)
    self->busy--;
  if (was != (self->busy > 0))
    {
      gtk_spinner_set_spinning (self->spinner, self->busy > 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
  update_actions (self);
}

static void
set_status (DynWindow  *self,
            const char *text)
{
  g_free (self->status_text);
  self->status_text = g_strdup (text);
  self->status_is_stats = FALSE;
  gtk_label_set_label (self->status_label, text ? text : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_TEXT]);
}

static void
clear_error (DynWindow *self)
{
  if (self->error_text == NULL)
    return;
  g_clear_pointer (&self->error_text, g_free);
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_TEXT]);
}

/* A message in the error bar; the next successful action hides it. */
static void
show_message (DynWindow  *self,
              const char *text)
{
  g_free (self->error_text);
  self->error_text = g_strdup (text);
  gtk_label_set_label (self->error_label, self->error_text);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_TEXT]);
}

/* Shows what failed in the error bar: the AWS code and message for service
 * errors. The window stays usable; the next successful action hides it. */
static void
show_error (DynWindow    *self,
            const char   *what,
            const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  g_autofree char *text = NULL;

  if (details != NULL && details->aws_code != NULL)
    text = g_strdup_printf (_("%s failed: %s (%s)"), what,
                            details->message ? details->message : error->message, details->aws_code);
  else
    text = g_strdup_printf (_("%s failed: %s"), what, error->message);
  show_message (self, text);
}

/* Says why something is refused on a read-only connection: not a failure. */
static void
refuse_read_only (DynWindow *self)
{
  g_autofree char *text = g_strdup_printf (_("%s is opened read-only: nothing can be changed or written"),
                                           self->table ? self->table : dyn_connection_get_name (self->connection));

  show_message (self, text);
}

static char *
describe_stats (DynWindow *self)
{
  const DynReadStats *stats = self->pager ? dyn_pager_get_stats (self->pager) : NULL;
  const char *operation;
  GString *s;
  char units[G_ASCII_DTOSTR_BUF_SIZE];

  if (stats == NULL)
    return NULL;
  operation = self->request->op == DYN_OP_QUERY ? "Query" : "Scan";
  s = g_string_new (operation);
  if (self->request->index != NULL)
    g_string_append_printf (s, " %s", self->request->index);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request", "%u requests", stats->requests),
                          stats->requests);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", stats->pages), stats->pages);
  g_ascii_formatd (units, sizeof units, stats->read_units == (gint64) stats->read_units ? "%.0f" : "%.1f",
                   stats->read_units);
  g_string_append_printf (s, " · %s RCU · ", units);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", (guint) stats->items),
                          (guint) stats->items);
  if (stats->scanned != stats->items)
    {
      g_string_append (s, " ");
      g_string_append_printf (s, _("(%u scanned)"), (guint) stats->scanned);
    }
  if (self->model != NULL && self->grid != NULL && dyn_item_grid_get_grouped (self->grid))
    {
      guint n = dyn_collection_model_get_n_collections (self->model);
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u collection", "%u collections", n), n);
    }
  /* The first read is small and says so. */
  if (self->request->limit > 0 && stats->pages <= 1)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, _("first page limited to %u"), (guint) self->request->limit);
    }
  if (self->loading)
    g_string_append_printf (s, " · %s", _("loading…"));
  else if (!dyn_pager_is_done (self->pager))
    g_string_append_printf (s, " · %s", _("more available"));
  if (!self->loading && self->read_time > 0)
    {
      g_autofree char *age = dyn_describe_read_age (self->read_time, g_get_real_time ());

      g_string_append_printf (s, " · %s", age);
    }
  return g_string_free (s, FALSE);
}

static void
update_status (DynWindow *self)
{
  g_autofree char *text = describe_stats (self);

  set_status (self, text);
  self->status_is_stats = text != NULL;
}

/* The age in the status line keeps up with the clock. */
static gboolean
age_tick_cb (gpointer user_data)
{
  DynWindow *self = user_data;

  if (self->status_is_stats && self->pager != NULL && !self->loading)
    update_status (self);
  return G_SOURCE_CONTINUE;
}

static void
update_edit_actions (DynWindow *self)
{
  gboolean session = self->session != NULL;
  gboolean selected = session && dyn_item_grid_get_selected_item (self->grid) != NULL;
  gboolean busy = session && dyn_edit_session_get_busy (self->session);
  guint n = session ? dyn_edit_session_get_n_changes (self->session) : 0;
  gboolean read_only = self->connection != NULL && dyn_connection_get_read_only (self->connection);

  /* A read-only connection offers no editing; a shortcut that tries anyway
   * is told why. */
  gtk_widget_set_visible (self->new_item_button, !read_only);
  gtk_widget_set_visible (self->edit_button, !read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.edit-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.duplicate-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-item", session);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.commit-changes", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-commit",
                                 session && dyn_edit_session_get_can_undo (self->session) && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-changes", session);
}

static void
update_actions (DynWindow *self)
{
  gboolean have_table = self->keys != NULL && self->client != NULL && !self->gone;
  gboolean can_load = have_table && self->pager != NULL && !self->loading && !dyn_pager_is_done (self->pager);
  gboolean user = self->connection != NULL &&
                  dyn_connection_get_kind (self->connection) == DYN_CONNECTION_KIND_USER &&
                  dyn_connection_store_lookup (self->store, dyn_connection_get_id (self->connection)) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.scan", have_table);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.refresh", have_table);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.query", have_table);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.follow-index", have_table);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.load-more", can_load);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.load-all",
                                 can_load || (have_table && self->loading && !self->fan_out));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load", self->loading);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.refresh-tables", self->client != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.edit-connection",
                                 self->connection != NULL &&
                                 dyn_connection_store_lookup (self->store, dyn_connection_get_id (self->connection)) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-connection", user);
  update_edit_actions (self);
}

/* Reading. */

static void
cancel_load (DynWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
}

static void
append_page (DynWindow *self,
             GPtrArray *items)
{
  dyn_collection_model_append_page (self->model, items);
  /* A staged change shows in its row, also in a page read after it. */
  if (self->session != NULL && dyn_edit_session_get_model (self->session) == self->model)
    dyn_edit_session_show_in_model (self->session);
}

static void
page_func (GPtrArray *items,
           gpointer   user_data)
{
  append_page (DYN_WINDOW (user_data), items);
}

/* ResourceNotFound: someone deleted the open table. Says so, stops what
 * cannot work any more and refreshes the table list. */
static void
table_gone (DynWindow *self)
{
  g_autofree char *text = g_strdup_printf (_("Table %s no longer exists"), self->table);

  self->gone = TRUE;
  self->load_all = FALSE;
  set_status (self, text);
  update_actions (self);
  if (self->client != NULL)
    list_tables (self);
}

static void
load_finished (DynWindow    *self,
               GPtrArray    *items,
               const GError *error)
{
  self->loading = FALSE;
  g_clear_object (&self->load_cancellable);
  if (error != NULL)
    {
      self->load_all = FALSE;
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, self->request->op == DYN_OP_QUERY ? "Query" : "Scan", error);
      update_status (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf ("%s · %s", self->status_text, _("cancelled"));
          set_status (self, text);
        }
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
        table_gone (self);
      set_busy (self, FALSE);
      return;
    }
  if (items != NULL)
    append_page (self, items);
  clear_error (self);
  update_status (self);
  set_busy (self, FALSE);
  if (self->load_all && !dyn_pager_is_done (self->pager))
    load_next (self);
  else
    self->load_all = FALSE;
}

typedef struct {
  DynWindow *self;
  DynPager  *pager;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_object_unref (data->self);
  g_object_unref (data->pager);
  g_free (data);
}

static void
next_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  LoadData *data = user_data;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  items = dyn_pager_next_finish (DYN_PAGER (source), result, &error);
  /* A page of an earlier read that arrives late is dropped. */
  if (data->self->pager == data->pager)
    load_finished (data->self, items, error);
  load_data_free (data);
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  LoadData *data = user_data;
  g_autoptr(GError) error = NULL;

  dyn_pager_run_finish (DYN_PAGER (source), result, &error);
  if (data->self->pager == data->pager)
    load_finished (data->self, NULL, error);
  load_data_free (data);
}

static void
load_next (DynWindow *self)
{
  LoadData *data;

  if (self->pager == NULL || self->loading || dyn_pager_is_done (self->pager))
    return;
  self->loading = TRUE;
  set_busy (self, TRUE);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->pager = g_object_ref (self->pager);
  update_status (self);
  if (self->fan_out)
    {
      /* A fan-out merges every shard by sort key: it reads to the end at once. */
      dyn_pager_run_async (self->pager, 1, 0, page_func, self, self->load_cancellable, run_cb, data);
    }
  else
    {
      /* Only the first page is small: Load More and Load All read full ones. */
      if (dyn_pager_get_stats (self->pager)->pages > 0)
        dyn_pager_set_page_limit (self->pager, 0);
      dyn_pager_next_async (self->pager, self->load_cancellable, next_cb, data);
    }
}

static const DynIndexInfo *
target_index (DynWindow  *self,
              const char *index)
{
  return self->keys ? dyn_table_keys_lookup (self->keys, index) : NULL;
}

/* Starts a read: a new model in the grid, the first page. Takes @read; the
 * pager is its own, so what is sent is what its plan and snippet say. */
static void
start_read (DynWindow      *self,
            DynReadRequest *read)
{
  g_autoptr(DynReadRequest) owned = read;
  const DynRequest *request = dyn_read_request_get_request (read);
  const DynIndexInfo *target;

  if (request == NULL)
    {
      show_error (self, "Scan", dyn_read_request_get_error (read));
      return;
    }
  target = target_index (self, request->index);
  cancel_load (self);
  if (self->loading)
    {
      self->loading = FALSE;
      set_busy (self, FALSE);
    }
  self->load_all = FALSE;
  g_clear_object (&self->pager);
  g_set_object (&self->read, read);
  g_clear_pointer (&self->request, dyn_request_free);
  self->request = dyn_request_copy (request);
  self->fan_out = request->shard_values != NULL && request->shard_placeholder != NULL;
  self->read_time = g_get_real_time ();
  self->pager = dyn_read_request_new_pager (read, self->client);
  /* The read request carries the page-size setting as the first page's
   * Limit; a fan-out reads every shard to its end at once, in full pages. */
  if (self->fan_out)
    dyn_pager_set_page_limit (self->pager, 0);

  g_clear_object (&self->model);
  self->model = target ? dyn_collection_model_new_for_schema (&target->keys, !request->scan_forward)
                       : dyn_collection_model_new ("", NULL, FALSE);
  dyn_item_grid_set_model (self->grid, self->model);
  set_session_model (self);
  dyn_item_detail_set_item (self->detail, NULL);
  gtk_stack_set_visible_child_name (self->items_stack, "grid");
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  load_next (self);
}

/* Every item of the table or index read, whatever the builder says. */
static DynReadRequest *
new_scan (DynWindow *self)
{
  DynReadSpec spec = { 0 };

  spec.table = self->table;
  spec.index = dyn_expression_builder_get_index (self->builder);
  spec.mode = DYN_READ_CONDITION;
  spec.limit = self->page_size;
  return dyn_read_request_new (self->keys, &spec);
}

/* Runs what the builder says, as its plan, output pane and snippet show it. */
static gboolean
run_builder (DynWindow  *self,
             GError    **error)
{
  DynReadRequest *read = dyn_expression_builder_get_read_request (self->builder);
  const char *parse_error = dyn_expression_builder_get_parse_error (self->builder);
  const DynRequest *request;

  if (parse_error != NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION, parse_error);
      return FALSE;
    }
  if (read == NULL || !dyn_read_request_is_valid (read))
    {
      const char * const *messages = dyn_expression_builder_get_messages (self->builder);

      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                           messages && messages[0] ? messages[0] : _("The expression is not complete"));
      return FALSE;
    }
  request = dyn_read_request_get_request (read);
  g_debug ("run: %s on %s (%s) kc=%s filter=%s", dyn_operation_get_name (request->op), self->table,
           request->index ? request->index : "table", request->key_condition, request->filter);
  start_read (self, g_object_ref (read));
  return TRUE;
}

/* Tables. */

/* The toolbar's index menu shows the builder's "Read from": one setting. */
static void
sync_index_menu (DynWindow *self)
{
  const char *index = dyn_expression_builder_get_index (self->builder);
  guint position = 0;

  for (guint i = 0; index != NULL && self->keys != NULL && i < self->keys->indexes->len; i++)
    if (g_strcmp0 (((DynIndexInfo *) self->keys->indexes->pdata[i])->name, index) == 0)
      position = i + 1;
  self->updating_indexes = TRUE;
  gtk_drop_down_set_selected (self->index_dropdown, position);
  self->updating_indexes = FALSE;
}

static void
fill_indexes (DynWindow *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) links = g_ptr_array_new ();

  g_ptr_array_add (names, (gpointer) _("Table"));
  if (self->keys != NULL)
    {
      g_ptr_array_add (links, self->keys->table.keys.partition_key);
      for (guint i = 0; i < self->keys->indexes->len; i++)
        {
          DynIndexInfo *info = self->keys->indexes->pdata[i];

          g_ptr_array_add (names, info->name);
          if (!g_ptr_array_find_with_equal_func (links, info->keys.partition_key, g_str_equal, NULL))
            g_ptr_array_add (links, info->keys.partition_key);
        }
    }
  g_ptr_array_add (names, NULL);
  g_ptr_array_add (links, NULL);
  self->updating_indexes = TRUE;
  gtk_string_list_splice (self->index_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->index_names)),
                          (const char * const *) names->pdata);
  self->updating_indexes = FALSE;
  sync_index_menu (self);
  dyn_item_grid_set_link_attributes (self->grid, (const char * const *) links->pdata);
}

static void
builder_index_cb (DynExpressionBuilder *builder,
                  GParamSpec           *pspec,
                  DynWindow            *self)
{
  sync_index_menu (self);
}

static void
select_index (DynWindow  *self,
              const char *index)
{
  dyn_expression_builder_set_index (self->builder, index);
}

/* Choosing from the index menu reads what the builder says, from there. */
static void
index_selected_cb (GtkDropDown *dropdown,
                   GParamSpec  *pspec,
                   DynWindow   *self)
{
  guint position = gtk_drop_down_get_selected (dropdown);
  const char *index = NULL;
  g_autoptr(GError) error = NULL;

  if (self->updating_indexes || self->keys == NULL)
    return;
  if (position != GTK_INVALID_LIST_POSITION && position > 0 && position <= self->keys->indexes->len)
    index = ((DynIndexInfo *) self->keys->indexes->pdata[position - 1])->name;
  select_index (self, index);
  if (!run_builder (self, &error))
    show_error (self, _("The query"), error);
}

static void
describe_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) description = NULL;
  DynTableKeys *keys = NULL;

  description = dyn_client_describe_table_finish (DYN_CLIENT (source), result, &keys, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (description == NULL)
    {
      show_error (self, "DescribeTable", error);
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
        table_gone (self);
      return;
    }
  g_clear_pointer (&self->description, json_object_unref);
  self->description = g_steal_pointer (&description);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  self->keys = keys;
  dyn_table_details_set_description (self->table_details, self->description);
  create_session (self);
  dyn_expression_builder_set_table (self->builder, self->keys);
  dyn_expression_builder_set_index (self->builder, NULL);
  fill_indexes (self);
  clear_error (self);
  if (self->initial_query != NULL)
    {
      g_autofree char *text = g_steal_pointer (&self->initial_query);
      g_autoptr(GError) query_error = NULL;

      dyn_expression_builder_set_text (self->builder, text);
      gtk_revealer_set_reveal_child (self->builder_revealer, TRUE);
      if (run_builder (self, &query_error))
        return;
      show_error (self, _("The query"), query_error);
    }
  start_read (self, new_scan (self));
}

/* The open table's title: its name, the connection, read-only. */
static void
update_title (DynWindow *self)
{
  adw_window_title_set_title (self->window_title, self->table ? self->table : _("No Table"));
  if (self->connection != NULL && dyn_connection_get_read_only (self->connection))
    {
      g_autofree char *subtitle = g_strdup_printf (_("%s · read-only"), dyn_connection_get_name (self->connection));

      adw_window_title_set_subtitle (self->window_title, subtitle);
    }
  else
    adw_window_title_set_subtitle (self->window_title,
                                   self->connection ? dyn_connection_get_name (self->connection) : NULL);
}

/* Per-table state. */

static char *
state_key (DynWindow  *self,
           const char *table)
{
  const char *id = self->connection ? dyn_connection_get_id (self->connection) : NULL;
  g_autofree char *unsaved = NULL;

  /* A connection that is not saved has no id: its object stands for it. */
  if (id == NULL)
    id = unsaved = g_strdup_printf ("%p", (void *) self->connection);
  return dyn_table_state_make_key (id, table);
}

static void
cancel_reading (DynWindow *self)
{
  cancel_load (self);
  if (self->loading)
    {
      self->loading = FALSE;
      set_busy (self, FALSE);
    }
  self->load_all = FALSE;
}

/* Forgets the open table's read, keys, builder text and edits (when they
 * were not kept with stash_table()) and empties the views. */
static void
clear_table (DynWindow *self)
{
  cancel_reading (self);
  g_clear_pointer (&self->description, json_object_unref);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_object (&self->read);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_object (&self->pager);
  clear_session (self);
  g_clear_object (&self->model);
  self->read_time = 0;
  self->gone = FALSE;
  self->fan_out = FALSE;
  dyn_item_grid_set_model (self->grid, NULL);
  dyn_item_detail_set_item (self->detail, NULL);
  dyn_table_details_set_description (self->table_details, NULL);
  /* The expression belonged to that table: it never runs against another. */
  dyn_expression_builder_set_text (self->builder, "");
  dyn_expression_builder_set_table (self->builder, NULL);
  self->updating_indexes = TRUE;
  gtk_string_list_splice (self->index_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->index_names)), NULL);
  self->updating_indexes = FALSE;
  set_status (self, NULL);
}

/* Keeps the open table's state for when it is opened again: what was read,
 * where the read stopped, the builder's text and index, the staged edits.
 * A read under way stops where it is. */
static void
stash_table (DynWindow *self)
{
  DynTableState *state;

  cancel_reading (self);
  if (self->table == NULL || self->keys == NULL || self->gone || self->connection == NULL)
    {
      clear_table (self);
      return;
    }
  state = dyn_table_state_new (dyn_connection_get_id (self->connection), self->table);
  state->description = g_steal_pointer (&self->description);
  state->keys = g_steal_pointer (&self->keys);
  state->expression = dyn_expression_builder_dup_text (self->builder);
  state->index = g_strdup (dyn_expression_builder_get_index (self->builder));
  state->read = g_steal_pointer (&self->read);
  state->request = g_steal_pointer (&self->request);
  /* A fan-out merges its shards at the end: one stopped half-way is read
   * again. */
  if (!self->fan_out || (self->pager != NULL && dyn_pager_is_done (self->pager)))
    {
      state->pager = g_steal_pointer (&self->pager);
      state->model = g_steal_pointer (&self->model);
      state->read_time = self->read_time;
    }
  state->session = G_OBJECT (detach_session (self));
  g_hash_table_replace (self->states, state_key (self, self->table), state);
  clear_table (self);
}

/* Shows a kept state again, without a request. Takes @state. */
static void
restore_table (DynWindow     *self,
               DynTableState *state)
{
  g_autoptr(DynTableState) owned = state;

  self->description = g_steal_pointer (&state->description);
  self->keys = g_steal_pointer (&state->keys);
  self->request = g_steal_pointer (&state->request);
  self->pager = g_steal_pointer (&state->pager);
  self->model = g_steal_pointer (&state->model);
  self->read_time = state->read_time;
  self->gone = FALSE;
  self->fan_out = self->request != NULL && self->request->shard_values != NULL &&
                  self->request->shard_placeholder != NULL;
  dyn_table_details_set_description (self->table_details, self->description);
  dyn_expression_builder_set_table (self->builder, self->keys);
  fill_indexes (self);
  self->read = g_steal_pointer (&state->read);
  select_index (self, state->index);
  dyn_expression_builder_set_text (self->builder, state->expression);
  if (state->session != NULL)
    attach_session (self, DYN_EDIT_SESSION (g_steal_pointer (&state->session)));
  else
    create_session (self);
  dyn_item_grid_set_model (self->grid, self->model);
  set_session_model (self);
  dyn_item_detail_set_item (self->detail, NULL);
  gtk_stack_set_visible_child_name (self->items_stack, "grid");
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  clear_error (self);
  update_actions (self);
  if (self->pager != NULL)
    update_status (self);
  else if (self->read != NULL)
    {
      /* The read was stopped before it could be kept: read it again. */
      start_read (self, g_object_ref (self->read));
    }
  else
    start_read (self, new_scan (self));
}

static void
open_table_now (DynWindow  *self,
                const char *table)
{
  g_autofree char *key = NULL;
  gpointer stolen_key = NULL;
  gpointer state = NULL;

  /* Open already: what was read stays (F5 reads it again). */
  if (g_strcmp0 (self->table, table) == 0 && self->keys != NULL && !self->gone)
    return;
  if (self->session != NULL && dyn_edit_session_get_busy (self->session))
    {
      show_message (self, _("Wait until the commit has finished"));
      return;
    }
  stash_table (self);
  g_free (self->table);
  self->table = g_strdup (table);
  update_title (self);
  if (self->settings != NULL && dyn_connection_store_lookup (self->store, dyn_connection_get_id (self->connection)))
    {
      g_settings_set_string (self->settings, "last-connection", dyn_connection_get_id (self->connection));
      g_settings_set_string (self->settings, "last-table", table);
      dyn_connection_set_last_table (self->connection, table);
    }
  key = state_key (self, table);
  if (g_hash_table_steal_extended (self->states, key, &stolen_key, &state))
    {
      g_free (stolen_key);
      restore_table (self, state);
      return;
    }
  gtk_stack_set_visible_child_name (self->items_stack, "grid");
  update_actions (self);
  self->load_cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  dyn_client_describe_table_async (self->client, table, self->load_cancellable, describe_cb, g_object_ref (self));
}

static void
tables_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = NULL;
  g_autofree char *pending = NULL;

  tables = dyn_client_list_tables_finish (DYN_CLIENT (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (tables == NULL)
    {
      dyn_connection_sidebar_set_status (self->sidebar, self->connection, _("Could not list the tables"));
      show_error (self, "ListTables", error);
      return;
    }
  dyn_connection_sidebar_set_status (self->sidebar, self->connection, NULL);
  g_strfreev (self->tables);
  self->tables = g_steal_pointer (&tables);
  dyn_connection_sidebar_set_tables (self->sidebar, self->connection, (const char * const *) self->tables);
  dyn_connection_sidebar_set_expanded (self->sidebar, self->connection, TRUE);
  /* After a table was found deleted, the error bar keeps saying so. */
  if (!self->gone)
    clear_error (self);
  pending = g_steal_pointer (&self->pending_table);
  if (pending != NULL)
    open_table_now (self, pending);
}

static void
list_tables (DynWindow *self)
{
  set_busy (self, TRUE);
  dyn_connection_sidebar_set_status (self->sidebar, self->connection, _("Listing tables…"));
  dyn_client_list_tables_async (self->client, self->connect_cancellable, tables_cb, g_object_ref (self));
}

static void
set_client (DynWindow *self,
            DynClient *client)
{
  g_set_object (&self->client, client);
  dyn_expression_builder_set_endpoint (self->builder, dyn_client_get_endpoint (client), dyn_client_get_region (client));
  update_actions (self);
  list_tables (self);
}

static void
client_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = NULL;

  client = dyn_connection_create_client_finish (DYN_CONNECTION (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_busy (self, FALSE);
  if (client == NULL)
    {
      dyn_connection_sidebar_set_status (self->sidebar, DYN_CONNECTION (source), _("Could not connect"));
      show_error (self, _("Connecting"), error);
      return;
    }
  if (DYN_CONNECTION (source) != self->connection)
    return;
  set_client (self, client);
}

static void
reset_connection (DynWindow     *self,
                  DynConnection *connection)
{
  if (self->connect_cancellable != NULL)
    g_cancellable_cancel (self->connect_cancellable);
  g_clear_object (&self->connect_cancellable);
  self->connect_cancellable = g_cancellable_new ();
  /* The tables of the connection left go with it (what was staged there
   * was committed or discarded first: see when_staged_handled()). */
  clear_table (self);
  g_hash_table_remove_all (self->states);
  g_set_object (&self->connection, connection);
  g_clear_object (&self->client);
  g_clear_pointer (&self->tables, g_strfreev);
  g_clear_pointer (&self->table, g_free);
  g_clear_pointer (&self->pending_table, g_free);
  gtk_stack_set_visible_child_name (self->items_stack, "empty");
  update_title (self);
  update_actions (self);
}

/* Staged work that would be lost: closing the window, opening another
 * connection, deleting this one. The user commits, discards or cancels, as
 * with unsaved documents. */

static void
open_connection_now (DynWindow     *self,
                     DynConnection *connection)
{
  reset_connection (self, connection);
  clear_error (self);
  set_busy (self, TRUE);
  dyn_connection_sidebar_set_status (self->sidebar, connection, _("Connecting…"));
  dyn_connection_create_client_async (connection, dyn_connection_store_get_shared_config (self->store),
                                      self->connect_cancellable, client_cb, g_object_ref (self));
}

static void
removed_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data);

/* The sessions with staged changes, each table's (the one open and the
 * ones kept), and their tables. A table that was deleted can take no
 * commit: its changes are not counted. */
static guint
collect_staged (DynWindow  *self,
                GPtrArray  *sessions,
                GPtrArray  *tables)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  if (self->session != NULL && !self->gone && dyn_edit_session_get_n_changes (self->session) > 0)
    {
      n += dyn_edit_session_get_n_changes (self->session);
      if (sessions != NULL)
        g_ptr_array_add (sessions, g_object_ref (self->session));
      if (tables != NULL)
        g_ptr_array_add (tables, g_strdup (self->table));
    }
  g_hash_table_iter_init (&iter, self->states);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      DynTableState *state = value;
      DynEditSession *session = state->session ? DYN_EDIT_SESSION (state->session) : NULL;

      if (session == NULL || state->gone || dyn_edit_session_get_n_changes (session) == 0)
        continue;
      n += dyn_edit_session_get_n_changes (session);
      if (sessions != NULL)
        g_ptr_array_add (sessions, g_object_ref (session));
      if (tables != NULL)
        g_ptr_array_add (tables, g_strdup (state->table));
    }
  return n;
}

static void
clear_after (DynWindow *self)
{
  self->after = AFTER_NOTHING;
  g_clear_object (&self->after_connection);
  g_clear_object (&self->after_client);
  g_clear_pointer (&self->after_table, g_free);
}

/* Does what waited for the staged changes. */
static void
run_after (DynWindow *self)
{
  AfterStaged after = self->after;
  g_autoptr(DynConnection) connection = g_steal_pointer (&self->after_connection);
  g_autoptr(DynClient) client = g_steal_pointer (&self->after_client);
  g_autofree char *table = g_steal_pointer (&self->after_table);

  clear_after (self);
  switch (after)
    {
    case AFTER_CLOSE:
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    case AFTER_OPEN_CONNECTION:
      open_connection_now (self, connection);
      if (table != NULL)
        {
          g_free (self->pending_table);
          self->pending_table = g_steal_pointer (&table);
        }
      break;
    case AFTER_ADD_CONNECTION:
      if (client == NULL)
        open_connection_now (self, connection);
      else
        {
          reset_connection (self, connection);
          set_client (self, client);
        }
      break;
    case AFTER_DELETE_CONNECTION:
      if (connection == self->connection)
        reset_connection (self, NULL);
      dyn_connection_store_remove_async (self->store, connection, self->cancellable, removed_cb, g_object_ref (self));
      break;
    case AFTER_NOTHING:
    default:
      break;
    }
}

static void
discard_all_staged (DynWindow *self)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);

  collect_staged (self, sessions, NULL);
  for (guint i = 0; i < sessions->len; i++)
    dyn_edit_session_discard_all (sessions->pdata[i]);
}

typedef struct {
  DynWindow *self;
  GPtrArray *sessions;
  GPtrArray *tables;
  guint      next;
  guint      not_committed;
  char      *first_problem;   /* the table of the first change left */
} CommitAll;

static void
commit_all_free (CommitAll *data)
{
  g_object_unref (data->self);
  g_ptr_array_unref (data->sessions);
  g_ptr_array_unref (data->tables);
  g_free (data->first_problem);
  g_free (data);
}

static void commit_next (CommitAll *data);

static void
commit_all_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  CommitAll *data = user_data;
  DynEditSession *session = DYN_EDIT_SESSION (source);
  g_autoptr(DynCommitResult) commit = NULL;
  g_autoptr(GError) error = NULL;

  commit = dyn_edit_session_commit_finish (session, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      commit_all_free (data);
      return;
    }
  if (dyn_edit_session_get_n_changes (session) > 0)
    {
      data->not_committed += dyn_edit_session_get_n_changes (session);
      if (data->first_problem == NULL)
        data->first_problem = g_strdup (data->tables->pdata[data->next]);
    }
  data->next++;
  commit_next (data);
}

/* Commits the tables one after the other; then does what waited, unless
 * something is left (a conflict, a failure): then the first table with a
 * change left opens with its staged changes, and nothing else happens. */
static void
commit_next (CommitAll *data)
{
  DynWindow *self = data->self;
  g_autofree char *text = NULL;

  if (data->next < data->sessions->len)
    {
      dyn_edit_session_commit_async (data->sessions->pdata[data->next], self->cancellable, commit_all_cb, data);
      return;
    }
  self->committing_all = FALSE;
  set_busy (self, FALSE);
  if (data->not_committed == 0)
    {
      commit_all_free (data);
      run_after (self);
      return;
    }
  clear_after (self);
  if (g_strcmp0 (data->first_problem, self->table) != 0)
    open_table_now (self, data->first_problem);
  show_side_page (self, "changes", FALSE);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u change was not committed (a conflict or a failure), so nothing else was done",
                                       "%u changes were not committed (conflicts or failures), so nothing else was done",
                                       data->not_committed),
                          data->not_committed);
  show_message (self, text);
  commit_all_free (data);
}

static void
commit_all_staged (DynWindow *self)
{
  CommitAll *data = g_new0 (CommitAll, 1);

  data->self = g_object_ref (self);
  data->sessions = g_ptr_array_new_with_free_func (g_object_unref);
  data->tables = g_ptr_array_new_with_free_func (g_free);
  collect_staged (self, data->sessions, data->tables);
  self->committing_all = TRUE;
  set_busy (self, TRUE);
  set_status (self, _("Committing…"));
  commit_next (data);
}

static void
staged_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  if (g_strcmp0 (response, "commit") == 0)
    commit_all_staged (self);
  else if (g_strcmp0 (response, "discard") == 0)
    {
      discard_all_staged (self);
      run_after (self);
    }
  else
    clear_after (self);
}

/* Does @after at once when nothing is staged; otherwise asks first, naming
 * how many changes in which tables, and does it once they are committed or
 * discarded (not when the user cancels). */
static void
when_staged_handled (DynWindow     *self,
                     AfterStaged    after,
                     DynConnection *connection,
                     DynClient     *client,
                     const char    *table)
{
  g_autoptr(GPtrArray) sessions = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) tables = g_ptr_array_new_with_free_func (g_free);
  g_autofree guint *counts = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;
  guint n;

  /* One question at a time. */
  if (self->staged_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->staged_dialog));
      return;
    }
  if (self->committing_all)
    return;
  clear_after (self);
  self->after = after;
  g_set_object (&self->after_connection, connection);
  g_set_object (&self->after_client, client);
  self->after_table = g_strdup (table);

  n = collect_staged (self, sessions, tables);
  if (n == 0)
    {
      run_after (self);
      return;
    }
  counts = g_new0 (guint, sessions->len);
  for (guint i = 0; i < sessions->len; i++)
    counts[i] = dyn_edit_session_get_n_changes (sessions->pdata[i]);
  g_ptr_array_add (tables, NULL);
  summary = dyn_describe_staged_tables ((const char * const *) tables->pdata, counts, sessions->len);
  switch (after)
    {
    case AFTER_CLOSE:
      heading = g_strdup (_("Commit Changes Before Closing?"));
      break;
    case AFTER_DELETE_CONNECTION:
      heading = g_strdup_printf (_("Commit Changes Before Deleting “%s”?"), dyn_connection_get_name (connection));
      break;
    case AFTER_OPEN_CONNECTION:
    case AFTER_ADD_CONNECTION:
    case AFTER_NOTHING:
    default:
      heading = g_strdup_printf (_("Commit Changes Before Opening “%s”?"), dyn_connection_get_name (connection));
      break;
    }
  /* Translators: %s is a list such as "3 changes in Movies and 1 change in Shows". */
  body = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s is staged but not written to DynamoDB. Discarded changes are lost.",
                                       "%s are staged but not written to DynamoDB. Discarded changes are lost.", n),
                          summary);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "discard", _("_Discard"), "commit", _("C_ommit"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "commit", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "commit");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (staged_response_cb), self, 0);
  self->staged_dialog = dialog;
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->staged_dialog);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Actions. */

static void
open_table_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  dyn_window_open_table (DYN_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
open_connection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *id = g_variant_get_string (parameter, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->connections)); i++)
    {
      g_autoptr(DynConnection) connection = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (dyn_connection_get_id (connection), id) == 0)
        {
          dyn_window_open_connection (self, connection);
          return;
        }
    }
}

static void
scan_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  start_read (self, new_scan (self));
}

/* F5: the current read again from its start, with a small first page; a
 * staged change keeps its mark and its value in the new rows. */
static void
refresh_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  /* The same read request again: a new pager starts at its beginning. */
  if (self->read == NULL)
    start_read (self, new_scan (self));
  else
    start_read (self, g_object_ref (self->read));
}

static void
query_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!run_builder (self, &error))
    show_error (self, _("The query"), error);
}

static void
load_more_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  load_next (DYN_WINDOW (widget));
}

static void
load_all_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  self->load_all = TRUE;
  load_next (self);
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  self->load_all = FALSE;
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
}

static void
follow_index_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *name = NULL, *json = NULL;
  g_autoptr(DynValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprPath) path = NULL;
  g_autofree char *path_text = NULL;
  g_autofree char *literal = NULL;
  g_autofree char *text = NULL;
  const char *index = NULL;
  gboolean found = FALSE;

  g_variant_get (parameter, "(&s&s)", &name, &json);
  {
    g_autoptr(JsonNode) node = json_from_string (json, &error);

    if (node != NULL)
      value = dyn_value_from_ddb_json (node, &error);
  }
  if (value == NULL)
    {
      show_error (self, _("Following the key"), error);
      return;
    }
  /* The table itself when the attribute is its partition key, else the first
   * index keyed by it. */
  if (g_strcmp0 (self->keys->table.keys.partition_key, name) == 0)
    found = TRUE;
  for (guint i = 0; !found && i < self->keys->indexes->len; i++)
    {
      DynIndexInfo *info = self->keys->indexes->pdata[i];

      if (g_strcmp0 (info->keys.partition_key, name) == 0)
        {
          index = info->name;
          found = TRUE;
        }
    }
  if (!found)
    {
      g_autoptr(GError) not_key = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                               _("%s is not the partition key of the table or an index"), name);
      show_error (self, _("Following the key"), not_key);
      return;
    }
  path = dyn_expr_path_new (name);
  path_text = dyn_expr_path_to_string (path);
  literal = dyn_expr_value_to_literal (value);
  text = g_strdup_printf ("%s = %s", path_text, literal);
  select_index (self, index);
  dyn_expression_builder_set_text (self->builder, text);
  gtk_revealer_set_reveal_child (self->builder_revealer, TRUE);
  gtk_widget_activate_action (widget, "win.query", NULL);
}

static void
follow_key_cb (DynItemGrid *grid,
               const char  *name,
               DynValue    *value,
               DynWindow   *self)
{
  g_autofree char *json = dyn_value_to_ddb_json_string (value);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.follow-index", "(ss)", name, json);
}

static void
near_end_cb (DynItemGrid *grid,
             DynWindow   *self)
{
  load_next (self);
}

static void
toggle_grouping_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  gboolean grouped = !dyn_item_grid_get_grouped (self->grid);

  dyn_item_grid_set_grouped (self->grid, grouped);
  if (self->settings != NULL)
    g_settings_set_boolean (self->settings, "group-by-collection", grouped);
  if (self->pager != NULL)
    update_status (self);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
toggle_builder_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  gtk_revealer_set_reveal_child (self->builder_revealer, !gtk_revealer_get_reveal_child (self->builder_revealer));
}

static void
toggle_detail_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  show_side_page (self, "detail", TRUE);
}

static void
focus_filter_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  dyn_connection_sidebar_focus_filter (self->sidebar);
}

static void
dismiss_error_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  clear_error (DYN_WINDOW (widget));
}

static void
refresh_tables_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->client != NULL)
    list_tables (self);
}

static void
editor_saved_cb (DynConnectionEditor *editor,
                 DynConnection       *connection,
                 DynWindow           *self)
{
  g_autofree char *text = g_strdup_printf (_("Connection “%s” saved"), dyn_connection_get_name (connection));

  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
  dyn_window_open_connection (self, connection);
}

static void
new_connection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynConnectionEditor *editor = dyn_connection_editor_new (GTK_WINDOW (self), self->store, NULL);

  g_signal_connect_object (editor, "saved", G_CALLBACK (editor_saved_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
edit_connection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynConnectionEditor *editor;

  if (self->connection == NULL)
    return;
  editor = dyn_connection_editor_new (GTK_WINDOW (self), self->store, self->connection);
  g_signal_connect_object (editor, "saved", G_CALLBACK (editor_saved_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
removed_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_connection_store_remove_finish (DYN_CONNECTION_STORE (source), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, _("Deleting the connection"), error);
      return;
    }
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Connection deleted")));
}

static void
delete_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  DynConnection *connection = g_object_get_data (G_OBJECT (dialog), "dyn-connection");

  if (g_strcmp0 (response, "delete") != 0 || connection == NULL)
    return;
  if (connection == self->connection)
    when_staged_handled (self, AFTER_DELETE_CONNECTION, connection, NULL, NULL);
  else
    dyn_connection_store_remove_async (self->store, connection, self->cancellable, removed_cb, g_object_ref (self));
}

static void
delete_connection_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  GtkWidget *dialog;

  if (self->connection == NULL)
    return;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Delete Connection?"), NULL);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("“%s” and its secret key in the keyring will be deleted."),
                                  dyn_connection_get_name (self->connection));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "delete", _("_Delete"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  g_object_set_data_full (G_OBJECT (dialog), "dyn-connection", g_object_ref (self->connection), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  gtk_stack_set_visible_child_name (DYN_WINDOW (widget)->view_stack, g_variant_get_string (parameter, NULL));
}

/* The side pane: the item's details or the staged changes. With @toggle,
 * showing the page already shown hides the pane. */
static void
show_side_page (DynWindow  *self,
                const char *name,
                gboolean    toggle)
{
  GtkWidget *pane = GTK_WIDGET (self->side_stack);
  gboolean shown = gtk_widget_get_visible (pane) &&
                   g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), name) == 0;

  if (toggle && shown)
    {
      gtk_widget_set_visible (pane, FALSE);
      return;
    }
  gtk_stack_set_visible_child_name (self->side_stack, name);
  gtk_widget_set_visible (pane, TRUE);
  /* The staged list needs more room than the detail. */
  if (g_strcmp0 (name, "changes") == 0)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self->paned));

      if (width > 0 && gtk_paned_get_position (self->paned) > width - 460)
        gtk_paned_set_position (self->paned, MAX (width - 460, 320));
    }
}

/* Editing. */

static void
update_changes_button (DynWindow *self)
{
  guint n = self->session ? dyn_edit_session_get_n_changes (self->session) : 0;
  guint conflicts = self->session ? dyn_edit_session_get_n_conflicts (self->session) : 0;
  g_autofree char *label = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->changes_button), n > 0);
  if (n == 0)
    return;
  if (conflicts > 0)
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Change · %u in Conflict", "%u Changes · %u in Conflict", n),
                             n, conflicts);
  else
    label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Change", "%u Changes", n), n);
  gtk_button_set_label (self->changes_button, label);
  if (conflicts > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->changes_button), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->changes_button), "error");
}

static void
session_changed_cb (DynEditSession *session,
                    DynWindow      *self)
{
  update_changes_button (self);
  update_edit_actions (self);
}

static void
session_notify_cb (DynEditSession *session,
                   GParamSpec     *pspec,
                   DynWindow      *self)
{
  gboolean busy = dyn_edit_session_get_busy (session);

  /* A commit counts as work in progress, like a read. */
  if (busy != self->session_busy)
    {
      self->session_busy = busy;
      set_busy (self, busy);
    }
  update_changes_button (self);
  update_edit_actions (self);
}

/* "Committed 3 changes in 1 transaction · 1 conflict". */
static char *
describe_commit (DynEditSession  *session,
                 DynCommitResult *result)
{
  guint applied = dyn_commit_result_get_n_applied (result);
  guint conflicts = dyn_commit_result_get_n_conflicts (result);
  guint failed = dyn_commit_result_get_n_failed (result);
  guint requests = dyn_commit_result_get_n_requests (result);
  guint transactions = 0;
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < requests; i++)
    if (g_strcmp0 (dyn_commit_result_get_request_operation (result, i), "TransactWriteItems") == 0)
      transactions++;
  /* An undo leaves nothing to undo. */
  if (applied > 0 && !dyn_edit_session_get_can_undo (session))
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Undid the last commit: %u change reverted",
                                            "Undid the last commit: %u changes reverted", applied), applied);
  else if (applied == 0)
    g_string_append (s, _("Nothing committed"));
  else if (transactions == requests)
    {
      g_autofree char *changes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Committed %u change",
                                                               "Committed %u changes", applied), applied);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s in %u transaction", "%s in %u transactions",
                                              requests), changes, requests);
    }
  else
    {
      g_autofree char *changes = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Committed %u change",
                                                               "Committed %u changes", applied), applied);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%s in %u request", "%s in %u requests",
                                              requests), changes, requests);
    }
  if (conflicts > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u conflict", "%u conflicts", conflicts), conflicts);
    }
  if (failed > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u failed", "%u failed", failed), failed);
    }
  return g_string_free (s, FALSE);
}

static void
staged_committed_cb (DynStagedChanges *staged,
                     DynCommitResult  *result,
                     DynWindow        *self)
{
  g_autofree char *text = NULL;

  if (result == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                                     dyn_staged_changes_get_status_text (staged));

      show_error (self, _("The commit"), error);
      return;
    }
  text = describe_commit (self->session, result);
  clear_error (self);
  set_status (self, text);
  if (dyn_commit_result_get_n_conflicts (result) + dyn_commit_result_get_n_failed (result) > 0)
    show_side_page (self, "changes", FALSE);
}

/* Takes the open table's session out of the window (transfer full). */
static DynEditSession *
detach_session (DynWindow *self)
{
  DynEditSession *session = g_steal_pointer (&self->session);

  if (self->item_editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->item_editor));
  dyn_staged_changes_set_session (self->staged, NULL);
  dyn_item_grid_set_edit_session (self->grid, NULL);
  if (session != NULL)
    {
      g_signal_handlers_disconnect_by_data (session, self);
      if (self->session_busy)
        {
          self->session_busy = FALSE;
          set_busy (self, FALSE);
        }
    }
  if (gtk_widget_get_visible (GTK_WIDGET (self->side_stack)) &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->side_stack), "changes") == 0)
    gtk_widget_set_visible (GTK_WIDGET (self->side_stack), FALSE);
  update_changes_button (self);
  return session;
}

static void
clear_session (DynWindow *self)
{
  g_autoptr(DynEditSession) session = detach_session (self);
}

/* Makes @session the open table's (takes it). */
static void
attach_session (DynWindow      *self,
                DynEditSession *session)
{
  clear_session (self);
  self->session = session;
  g_signal_connect (self->session, "changed", G_CALLBACK (session_changed_cb), self);
  g_signal_connect (self->session, "notify::busy", G_CALLBACK (session_notify_cb), self);
  g_signal_connect (self->session, "notify::can-undo", G_CALLBACK (session_notify_cb), self);
  g_signal_connect (self->session, "notify::n-conflicts", G_CALLBACK (session_notify_cb), self);
  if (dyn_edit_session_get_busy (session))
    {
      self->session_busy = TRUE;
      set_busy (self, TRUE);
    }
  dyn_staged_changes_set_session (self->staged, self->session);
  update_changes_button (self);
  update_edit_actions (self);
}

/* One session per table: its key schema, read-only from the connection, no
 * version attribute. It stays with the table while others are open. */
static void
create_session (DynWindow *self)
{
  DynEditSession *session;

  clear_session (self);
  if (self->keys == NULL || self->client == NULL)
    return;
  session = dyn_edit_session_new (self->client, self->table, &self->keys->table.keys);
  dyn_edit_session_set_read_only (session, self->connection != NULL && dyn_connection_get_read_only (self->connection));
  attach_session (self, session);
}

/* Rows are edited where the table itself is read: an index's rows may hold
 * only some attributes. */
static void
set_session_model (DynWindow *self)
{
  gboolean table = self->request != NULL && self->request->index == NULL;

  if (self->session == NULL)
    return;
  dyn_edit_session_set_model (self->session, table ? self->model : NULL);
  dyn_item_grid_set_edit_session (self->grid, table ? self->session : NULL);
}

/* Whether edits can be staged now; otherwise says why in the error bar. */
static gboolean
check_editable (DynWindow *self)
{
  g_autoptr(GError) error = NULL;

  if (self->session == NULL)
    return FALSE;
  if (dyn_edit_session_get_read_only (self->session))
    {
      refuse_read_only (self);
      return FALSE;
    }
  if (dyn_item_grid_get_edit_session (self->grid) == NULL)
    error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                 _("Items read from an index are not edited here: choose “Table” to edit them"));
  if (error != NULL)
    {
      show_error (self, _("Editing"), error);
      return FALSE;
    }
  return TRUE;
}

static void
item_editor_staged_cb (DynItemEditor *editor,
                       DynItemObject *row,
                       DynWindow     *self)
{
  clear_error (self);
  if (row != NULL)
    dyn_item_grid_select_item (self->grid, row, TRUE);
}

static void
present_item_editor (DynWindow *self,
                     GtkWidget *editor)
{
  if (self->item_editor != NULL)
    gtk_window_destroy (GTK_WINDOW (self->item_editor));
  self->item_editor = editor;
  g_object_add_weak_pointer (G_OBJECT (editor), (gpointer *) &self->item_editor);
  g_signal_connect_object (editor, "staged", G_CALLBACK (item_editor_staged_cb), self, 0);
  gtk_window_set_transient_for (GTK_WINDOW (editor), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (editor), TRUE);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
edit_row (DynWindow     *self,
          DynItemObject *row)
{
  if (row == NULL || !check_editable (self))
    return;
  if (dyn_item_object_get_state (row) == DYN_ITEM_STATE_DELETED)
    {
      g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                                     _("The item is staged for deletion: drop that change first"));
      show_error (self, _("Editing"), error);
      return;
    }
  present_item_editor (self, dyn_item_editor_new (self->session, row));
}

static void
edit_item_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  edit_row (self, dyn_item_grid_get_selected_item (self->grid));
}

static void
new_item_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (check_editable (self))
    present_item_editor (self, dyn_item_editor_new_for_create (self->session, NULL));
}

static void
duplicate_item_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynItemObject *row = dyn_item_grid_get_selected_item (self->grid);
  g_autoptr(DynValue) copy = NULL;

  if (row == NULL || !check_editable (self))
    return;
  copy = dyn_edit_session_dup_for_duplicate (self->session, row);
  present_item_editor (self, dyn_item_editor_new_for_create (self->session, copy));
}

static void
delete_item_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;

  if (!check_editable (self))
    return;
  rows = dyn_item_grid_dup_selected_items (self->grid);
  for (guint i = 0; i < rows->len && error == NULL; i++)
    if (dyn_item_object_get_state (rows->pdata[i]) != DYN_ITEM_STATE_DELETED)
      dyn_edit_session_stage_delete (self->session, rows->pdata[i], &error);
  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_READ_ONLY))
    refuse_read_only (self);
  else if (error != NULL)
    show_error (self, _("Deleting"), error);
  else
    clear_error (self);
}

static void
commit_changes_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->session == NULL || dyn_edit_session_get_n_changes (self->session) == 0)
    return;
  if (dyn_edit_session_get_read_only (self->session))
    {
      refuse_read_only (self);
      return;
    }
  show_side_page (self, "changes", FALSE);
  set_status (self, _("Committing…"));
  gtk_widget_activate_action (GTK_WIDGET (self->staged), "staged.commit", NULL);
}

static void
undo_response_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  DynWindow        *self)
{
  DynEditSession *session = g_object_get_data (G_OBJECT (dialog), "dyn-session");

  /* Only the commit asked about, while its table is open. */
  if (g_strcmp0 (response, "undo") != 0 || session != self->session ||
      !dyn_edit_session_get_can_undo (session) || dyn_edit_session_get_busy (session))
    return;
  set_status (self, _("Undoing the last commit…"));
  gtk_widget_activate_action (GTK_WIDGET (self->staged), "staged.undo", NULL);
}

/* Undo writes: it names the commit and its table and asks first. */
static void
undo_commit_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autofree char *heading = NULL;
  GtkWidget *dialog;
  guint n;

  if (self->session == NULL || !dyn_edit_session_get_can_undo (self->session))
    return;
  if (dyn_edit_session_get_read_only (self->session))
    {
      refuse_read_only (self);
      return;
    }
  n = dyn_edit_session_get_n_undo (self->session);
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Undo Commit of %u Change to %s?",
                                          "Undo Commit of %u Changes to %s?", n),
                             n, dyn_edit_session_get_table (self->session));
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, NULL);
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("The items are written back as they were before that commit. "
                                 "An item someone else changed since then is not overwritten."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "undo", _("_Undo Commit"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "undo", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "dyn-session", g_object_ref (self->session), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (undo_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Ctrl+Z: a text field with the focus keeps its own undo. */
static gboolean
undo_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  return gtk_widget_activate_action (widget, "win.undo-commit", NULL);
}

static void
toggle_changes_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  show_side_page (DYN_WINDOW (widget), "changes", TRUE);
}

static void
grid_edit_failed_cb (DynItemGrid  *grid,
                     const GError *error,
                     DynWindow    *self)
{
  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_READ_ONLY))
    refuse_read_only (self);
  else
    show_error (self, _("Editing the cell"), error);
}

static void
grid_edit_item_cb (DynItemGrid   *grid,
                   DynItemObject *row,
                   DynWindow     *self)
{
  edit_row (self, row);
}

/* Enter or a double-click on a row (not on a cell being edited): the JSON
 * editor. */
static void
grid_activate_cb (GtkColumnView *view,
                  guint          position,
                  DynWindow     *self)
{
  if (dyn_item_grid_get_cell_editor (self->grid) != NULL || self->session == NULL)
    return;
  if (dyn_item_grid_get_selected_item (self->grid) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.edit-item", NULL);
}

/* Signals of the parts. */

static void
connection_activated_cb (DynConnectionSidebar *sidebar,
                         DynConnection        *connection,
                         DynWindow            *self)
{
  if (connection != self->connection || self->client == NULL)
    dyn_window_open_connection (self, connection);
}

static void
table_activated_cb (DynConnectionSidebar *sidebar,
                    DynConnection        *connection,
                    const char           *table,
                    DynWindow            *self)
{
  if (connection != self->connection)
    {
      when_staged_handled (self, AFTER_OPEN_CONNECTION, connection, NULL, table);
      return;
    }
  dyn_window_open_table (self, table);
  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, FALSE);
}

static void
selected_item_cb (DynItemGrid *grid,
                  GParamSpec  *pspec,
                  DynWindow   *self)
{
  DynItemObject *item = dyn_item_grid_get_selected_item (grid);
  g_autofree char *title = NULL;

  if (item != NULL)
    {
      DynValue *pk = dyn_item_object_get_partition_key_value (item);
      DynValue *sk = dyn_item_object_get_sort_key_value (item);
      g_autofree char *a = pk ? dyn_value_format_cell (pk, DYN_BINARY_FORMAT_BASE64, 80) : NULL;
      g_autofree char *b = sk ? dyn_value_format_cell (sk, DYN_BINARY_FORMAT_BASE64, 80) : NULL;

      title = b ? g_strdup_printf ("%s · %s", a ? a : "", b) : g_strdup (a);
      if (!gtk_widget_get_visible (GTK_WIDGET (self->side_stack)))
        show_side_page (self, "detail", FALSE);
    }
  dyn_item_detail_set_item (self->detail, item ? dyn_item_object_get_item (item) : NULL);
  dyn_item_detail_set_title (self->detail, title);
  update_edit_actions (self);
}

static gboolean
dyn_window_close_request (GtkWindow *window)
{
  DynWindow *self = DYN_WINDOW (window);

  /* Staged changes are asked about first; the answer closes it. */
  if (!self->closing && collect_staged (self, NULL, NULL) > 0)
    {
      when_staged_handled (self, AFTER_CLOSE, NULL, NULL, NULL);
      return TRUE;
    }

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (dyn_window_parent_class)->close_request (window);
}

static void
dyn_window_dispose (GObject *object)
{
  DynWindow *self = DYN_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->connect_cancellable != NULL)
    g_cancellable_cancel (self->connect_cancellable);
  cancel_load (self);
  g_clear_handle_id (&self->age_id, g_source_remove);
  clear_after (self);
  if (self->staged_dialog != NULL)
    {
      GtkWidget *dialog = self->staged_dialog;

      g_object_remove_weak_pointer (G_OBJECT (dialog), (gpointer *) &self->staged_dialog);
      self->staged_dialog = NULL;
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  if (self->states != NULL)
    g_hash_table_remove_all (self->states);
  g_clear_object (&self->connect_cancellable);
  g_clear_object (&self->pager);
  if (self->staged != NULL)
    clear_session (self);
  g_clear_object (&self->model);
  g_clear_object (&self->client);
  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_WINDOW);

  G_OBJECT_CLASS (dyn_window_parent_class)->dispose (object);
}

static void
dyn_window_finalize (GObject *object)
{
  DynWindow *self = DYN_WINDOW (object);

  g_clear_object (&self->connections);
  g_clear_object (&self->extras);
  g_clear_object (&self->store);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->index_names);
  g_clear_pointer (&self->states, g_hash_table_unref);
  g_strfreev (self->tables);
  g_free (self->table);
  g_free (self->pending_table);
  g_free (self->initial_query);
  g_clear_object (&self->read);
  g_free (self->status_text);
  g_free (self->error_text);
  g_clear_pointer (&self->description, json_object_unref);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_pointer (&self->request, dyn_request_free);

  G_OBJECT_CLASS (dyn_window_parent_class)->finalize (object);
}

static void
dyn_window_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  DynWindow *self = DYN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy > 0);
      break;
    case PROP_STATUS_TEXT:
      g_value_set_string (value, self->status_text);
      break;
    case PROP_ERROR_TEXT:
      g_value_set_string (value, self->error_text);
      break;
    case PROP_PAGE_SIZE:
      g_value_set_uint (value, self->page_size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_window_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  DynWindow *self = DYN_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PAGE_SIZE:
      set_page_size (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_window_class_init (DynWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dyn_window_dispose;
  object_class->finalize = dyn_window_finalize;
  object_class->get_property = dyn_window_get_property;
  object_class->set_property = dyn_window_set_property;
  window_class->close_request = dyn_window_close_request;

  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS_TEXT] =
    g_param_spec_string ("status-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_TEXT] =
    g_param_spec_string ("error-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The Limit of a read's first page (0: a full page of up to 1 MB); the
   * "page-size" setting. */
  properties[PROP_PAGE_SIZE] =
    g_param_spec_uint ("page-size", NULL, NULL, 0, 10000, 50,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Pulls the resource bundle out of the static library (its constructor
   * registers it). */
  (void) dyn_app_get_resource ();
  g_type_ensure (DYN_TYPE_CONNECTION_SIDEBAR);
  g_type_ensure (DYN_TYPE_EXPRESSION_BUILDER);
  g_type_ensure (DYN_TYPE_ITEM_GRID);
  g_type_ensure (DYN_TYPE_ITEM_DETAIL);
  g_type_ensure (DYN_TYPE_TABLE_DETAILS);
  g_type_ensure (DYN_TYPE_STAGED_CHANGES);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DynWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, index_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, builder_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, builder);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, items_stack);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, grid);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, detail);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, side_stack);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, staged);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, changes_button);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, new_item_button);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, edit_button);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, page_size_button);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, table_details);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, status_label);

  gtk_widget_class_install_action (widget_class, "win.open-table", "s", open_table_action);
  gtk_widget_class_install_action (widget_class, "win.open-connection", "s", open_connection_action);
  gtk_widget_class_install_action (widget_class, "win.scan", NULL, scan_action);
  gtk_widget_class_install_action (widget_class, "win.refresh", NULL, refresh_action);
  gtk_widget_class_install_property_action (widget_class, "win.page-size", "page-size");
  gtk_widget_class_install_action (widget_class, "win.query", NULL, query_action);
  gtk_widget_class_install_action (widget_class, "win.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "win.load-all", NULL, load_all_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.follow-index", "(ss)", follow_index_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-grouping", NULL, toggle_grouping_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-builder", NULL, toggle_builder_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-detail", NULL, toggle_detail_action);
  gtk_widget_class_install_action (widget_class, "win.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "win.dismiss-error", NULL, dismiss_error_action);
  gtk_widget_class_install_action (widget_class, "win.refresh-tables", NULL, refresh_tables_action);
  gtk_widget_class_install_action (widget_class, "win.new-connection", NULL, new_connection_action);
  gtk_widget_class_install_action (widget_class, "win.edit-connection", NULL, edit_connection_action);
  gtk_widget_class_install_action (widget_class, "win.delete-connection", NULL, delete_connection_action);
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.edit-item", NULL, edit_item_action);
  gtk_widget_class_install_action (widget_class, "win.new-item", NULL, new_item_action);
  gtk_widget_class_install_action (widget_class, "win.duplicate-item", NULL, duplicate_item_action);
  gtk_widget_class_install_action (widget_class, "win.delete-item", NULL, delete_item_action);
  gtk_widget_class_install_action (widget_class, "win.commit-changes", NULL, commit_changes_action);
  gtk_widget_class_install_action (widget_class, "win.undo-commit", NULL, undo_commit_action);
  gtk_widget_class_install_action (widget_class, "win.toggle-changes", NULL, toggle_changes_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.focus-filter", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "win.refresh-tables", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.load-more", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.load-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-load", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "win.toggle-grouping", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.toggle-builder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.query", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "win.toggle-detail", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-connection", NULL);
  /* Editing. Enter on a row opens the JSON editor too (the grid's activate);
   * these are class shortcuts, so a focused entry keeps its own Delete,
   * Ctrl+Z and Insert. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.edit-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.new-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, 0, "win.new-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "win.duplicate-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "win.delete-item", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.commit-changes", NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, undo_shortcut_cb, NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.toggle-changes", NULL);
}

static void
dyn_window_init (DynWindow *self)
{
  GListStore *models;

  self->cancellable = g_cancellable_new ();
  self->states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_table_state_free);
  self->page_size = 50;
  self->index_names = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (self->index_names));
  g_signal_connect (self->index_dropdown, "notify::selected", G_CALLBACK (index_selected_cb), self);
  g_signal_connect (self->builder, "notify::index", G_CALLBACK (builder_index_cb), self);
  g_signal_connect (self->sidebar, "connection-activated", G_CALLBACK (connection_activated_cb), self);
  g_signal_connect (self->sidebar, "table-activated", G_CALLBACK (table_activated_cb), self);
  g_signal_connect (self->grid, "notify::selected-item", G_CALLBACK (selected_item_cb), self);
  g_signal_connect (self->grid, "follow-key", G_CALLBACK (follow_key_cb), self);
  g_signal_connect (self->grid, "near-end", G_CALLBACK (near_end_cb), self);
  g_signal_connect (self->grid, "edit-failed", G_CALLBACK (grid_edit_failed_cb), self);
  g_signal_connect (self->grid, "edit-item", G_CALLBACK (grid_edit_item_cb), self);
  g_signal_connect (dyn_item_grid_get_column_view (self->grid), "activate", G_CALLBACK (grid_activate_cb), self);
  g_signal_connect (self->staged, "committed", G_CALLBACK (staged_committed_cb), self);

  self->extras = g_list_store_new (DYN_TYPE_CONNECTION);
  models = g_list_store_new (G_TYPE_LIST_MODEL);
  self->connections = gtk_flatten_list_model_new (G_LIST_MODEL (models));

  self->settings = dyn_settings_new ();
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      dyn_item_grid_set_grouped (self->grid, g_settings_get_boolean (self->settings, "group-by-collection"));
      g_settings_bind (self->settings, "page-size", self, "page-size", G_SETTINGS_BIND_DEFAULT);
    }
  update_page_size_button (self);
  self->age_id = g_timeout_add_seconds (30, age_tick_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->side_stack), FALSE);
  update_actions (self);
}

DynWindow *
dyn_window_new (GtkApplication     *app,
                DynConnectionStore *store)
{
  DynWindow *self;
  GListStore *models;

  g_return_val_if_fail (GTK_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (DYN_IS_CONNECTION_STORE (store), NULL);

  self = g_object_new (DYN_TYPE_WINDOW, "application", app, NULL);
  self->store = g_object_ref (store);
  models = G_LIST_STORE (gtk_flatten_list_model_get_model (self->connections));
  g_list_store_append (models, store);
  g_list_store_append (models, self->extras);
  dyn_connection_sidebar_set_connections (self->sidebar, G_LIST_MODEL (self->connections));
  return self;
}

DynConnectionStore *
dyn_window_get_store (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  return self->store;
}

void
dyn_window_add_connection (DynWindow     *self,
                           DynConnection *connection,
                           DynClient     *client)
{
  g_return_if_fail (DYN_IS_WINDOW (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  g_list_store_append (self->extras, connection);
  when_staged_handled (self, AFTER_ADD_CONNECTION, connection, client, NULL);
}

void
dyn_window_open_connection (DynWindow     *self,
                            DynConnection *connection)
{
  g_return_if_fail (DYN_IS_WINDOW (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  when_staged_handled (self, AFTER_OPEN_CONNECTION, connection, NULL, NULL);
}

void
dyn_window_open_table (DynWindow  *self,
                       const char *table)
{
  g_return_if_fail (DYN_IS_WINDOW (self));
  g_return_if_fail (table != NULL);

  if (self->client == NULL || self->tables == NULL)
    {
      g_free (self->pending_table);
      self->pending_table = g_strdup (table);
      return;
    }
  open_table_now (self, table);
}

void
dyn_window_set_initial_query (DynWindow  *self,
                              const char *text)
{
  g_return_if_fail (DYN_IS_WINDOW (self));

  g_free (self->initial_query);
  self->initial_query = g_strdup (text);
}

void
dyn_window_set_page_limit (DynWindow *self,
                           guint      limit)
{
  g_return_if_fail (DYN_IS_WINDOW (self));

  /* For this window only: the setting keeps its value. */
  if (self->settings != NULL)
    g_settings_unbind (self, "page-size");
  set_page_size (self, MIN (limit, 10000));
}

DynConnection *
dyn_window_get_connection (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->connection;
}

DynClient *
dyn_window_get_client (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->client;
}

const char *
dyn_window_get_table (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->table;
}

const char *
dyn_window_get_index (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->request ? self->request->index : NULL;
}

const DynTableKeys *
dyn_window_get_table_keys (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->keys;
}

DynCollectionModel *
dyn_window_get_model (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->model;
}

DynPager *
dyn_window_get_pager (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->pager;
}

const DynRequest *
dyn_window_get_request (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->request;
}

DynReadRequest *
dyn_window_get_read_request (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->read;
}

gboolean
dyn_window_is_busy (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), FALSE);
  return self->busy > 0;
}

const char *
dyn_window_get_status_text (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->status_text;
}

const char *
dyn_window_get_error_text (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->error_text;
}

const char * const *
dyn_window_get_tables (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return (const char * const *) self->tables;
}

DynItemGrid *
dyn_window_get_grid (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->grid;
}

DynItemDetail *
dyn_window_get_detail (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->detail;
}

DynExpressionBuilder *
dyn_window_get_builder (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->builder;
}

DynConnectionSidebar *
dyn_window_get_sidebar (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->sidebar;
}

DynTableDetails *
dyn_window_get_table_details (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->table_details;
}

DynEditSession *
dyn_window_get_edit_session (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->session;
}

DynStagedChanges *
dyn_window_get_staged_changes (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->staged;
}

DynItemEditor *
dyn_window_get_item_editor (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->item_editor ? DYN_ITEM_EDITOR (self->item_editor) : NULL;
}

const char *
dyn_window_get_side_page (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->side_stack)))
    return NULL;
  return gtk_stack_get_visible_child_name (self->side_stack);
}
