/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's reads (the first page, Load More, the builder's read request),
 * its tables, what it keeps of each table while another is shown, and its
 * connections. */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-connection-editor.h"
#include "dyn-item-editor.h"
#include "dyn-settings.h"
#include "dyn-table.h"
#include "dyn-table-state.h"
#include "dyn-value-format.h"
#include "dyn-window-private.h"

/* Reading. */

void
_dyn_window_cancel_load (DynWindow *self)
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
  _dyn_window_set_status (self, text);
  _dyn_window_update_actions (self);
  if (self->client != NULL)
    _dyn_window_list_tables (self);
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
        _dyn_window_show_error (self, dyn_operation_get_name (self->request->op), error);
      _dyn_window_update_status (self);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf ("%s · %s", self->status_text, _("cancelled"));
          _dyn_window_set_status (self, text);
        }
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
        table_gone (self);
      _dyn_window_set_busy (self, FALSE);
      return;
    }
  if (items != NULL)
    append_page (self, items);
  /* The collection the last page ended in may go on in the next. */
  dyn_collection_model_set_more_pending (self->model, !dyn_pager_is_done (self->pager));
  _dyn_window_clear_error (self);
  _dyn_window_update_status (self);
  /* A GetItem that finds nothing says so where the row would be. */
  if (self->request->op == DYN_OP_GET_ITEM && items != NULL && items->len == 0)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("No item with this key")));
  _dyn_window_set_busy (self, FALSE);
  if (self->load_all && !dyn_pager_is_done (self->pager))
    _dyn_window_load_next (self);
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

void
_dyn_window_load_next (DynWindow *self)
{
  LoadData *data;

  if (self->pager == NULL || self->loading || dyn_pager_is_done (self->pager))
    return;
  self->loading = TRUE;
  _dyn_window_set_busy (self, TRUE);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  data = g_new0 (LoadData, 1);
  data->self = g_object_ref (self);
  data->pager = g_object_ref (self->pager);
  _dyn_window_update_status (self);
  if (self->fan_out)
    {
      /* A fan-out merges every shard by sort key: it reads to the end at once. */
      dyn_pager_run_async (self->pager, 1, 0, page_func, self, self->load_cancellable, run_cb, data);
    }
  else
    {
      /* The pager knows whether its Limit is the first page's only (the
       * page-size setting: Load More and Load All read full pages) or the
       * page size the builder asked for (every page). */
      dyn_pager_next_async (self->pager, self->load_cancellable, next_cb, data);
    }
}

/* The grid's columns follow the table and the read (their layout is saved
 * for a connection of the store). */
static void
show_read_in_grid (DynWindow *self)
{
  const char *id = self->connection ? dyn_connection_get_id (self->connection) : NULL;

  if (id != NULL && dyn_connection_store_lookup (self->store, id) == NULL)
    id = NULL;
  dyn_item_grid_set_read (self->grid, id, self->keys, self->read, self->pager);
}

/* The grid's "Query Index X Ordered by This": the builder's condition, read
 * from that index. */
void
_dyn_window_grid_query_ordered_cb (DynItemGrid *grid,
                                   const char  *index,
                                   gboolean     descending,
                                   DynWindow   *self)
{
  g_autoptr(GError) error = NULL;

  _dyn_window_select_index (self, index);
  /* The builder's Descending option, when it has one. */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (self->builder), "descending") != NULL)
    g_object_set (self->builder, "descending", descending, NULL);
  if (!_dyn_window_run_builder (self, &error))
    _dyn_window_show_error (self, _("The query"), error);
}

static const DynIndexInfo *
target_index (DynWindow  *self,
              const char *index)
{
  return self->keys ? dyn_table_keys_lookup (self->keys, index) : NULL;
}

/* Starts a read: a new model in the grid, the first page. Takes @read; the
 * pager is its own, so what is sent is what its plan and snippet say. */
void
_dyn_window_start_read (DynWindow      *self,
                        DynReadRequest *read)
{
  g_autoptr(DynReadRequest) owned = read;
  const DynRequest *request = dyn_read_request_get_request (read);
  const DynIndexInfo *target;

  if (request == NULL)
    {
      _dyn_window_show_error (self, "Scan", dyn_read_request_get_error (read));
      return;
    }
  _dyn_window_history_record_read (self, read);
  target = target_index (self, request->index);
  _dyn_window_cancel_load (self);
  if (self->loading)
    {
      self->loading = FALSE;
      _dyn_window_set_busy (self, FALSE);
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
  show_read_in_grid (self);
  dyn_item_grid_set_model (self->grid, self->model);
  _dyn_window_set_session_model (self);
  dyn_item_detail_set_item (self->detail, NULL);
  gtk_stack_set_visible_child_name (self->items_stack, "grid");
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  _dyn_window_load_next (self);
}

/* Every item of the table or index read, whatever the builder says. */
DynReadRequest *
_dyn_window_new_scan (DynWindow *self)
{
  DynReadSpec spec = { 0 };

  spec.table = self->table;
  spec.index = dyn_expression_builder_get_index (self->builder);
  spec.mode = DYN_READ_CONDITION;
  spec.limit = self->page_size;
  spec.first_page_only = TRUE;
  return dyn_read_request_new (self->keys, &spec);
}

/* Runs what the builder says, as its plan, output pane and snippet show it. */
gboolean
_dyn_window_run_builder (DynWindow  *self,
                         GError    **error)
{
  DynReadRequest *read = dyn_expression_builder_get_read_request (self->builder);
  const char *parse_error = dyn_expression_builder_get_parse_error (self->builder);
  const DynRequest *request;

  /* The expression's text counts unless the builder gets an item by key. */
  if (parse_error != NULL && !dyn_expression_builder_get_by_key (self->builder))
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
  _dyn_window_start_read (self, g_object_ref (read));
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
  g_auto(GStrv) links = NULL;

  g_ptr_array_add (names, (gpointer) _("Table"));
  if (self->keys != NULL)
    {
      links = dyn_table_keys_get_link_attributes (self->keys);
      for (guint i = 0; i < self->keys->indexes->len; i++)
        g_ptr_array_add (names, ((DynIndexInfo *) self->keys->indexes->pdata[i])->name);
    }
  g_ptr_array_add (names, NULL);
  self->updating_indexes = TRUE;
  gtk_string_list_splice (self->index_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->index_names)),
                          (const char * const *) names->pdata);
  self->updating_indexes = FALSE;
  sync_index_menu (self);
  dyn_item_grid_set_link_attributes (self->grid, (const char * const *) links);
}

void
_dyn_window_builder_index_cb (DynExpressionBuilder *builder,
                              GParamSpec           *pspec,
                              DynWindow            *self)
{
  sync_index_menu (self);
}

void
_dyn_window_select_index (DynWindow  *self,
                          const char *index)
{
  dyn_expression_builder_set_index (self->builder, index);
}

/* Choosing from the index menu reads what the builder says, from there. */
void
_dyn_window_index_selected_cb (GtkDropDown *dropdown,
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
  _dyn_window_select_index (self, index);
  if (!_dyn_window_run_builder (self, &error))
    _dyn_window_show_error (self, _("The query"), error);
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
  _dyn_window_set_busy (self, FALSE);
  if (description == NULL)
    {
      _dyn_window_show_error (self, "DescribeTable", error);
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
        table_gone (self);
      return;
    }
  g_clear_pointer (&self->description, json_object_unref);
  self->description = g_steal_pointer (&description);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  self->keys = keys;
  dyn_table_details_set_description (self->table_details, self->description);
  _dyn_window_create_session (self);
  dyn_expression_builder_set_table (self->builder, self->keys);
  dyn_expression_builder_set_index (self->builder, NULL);
  fill_indexes (self);
  _dyn_window_clear_error (self);
  if (_dyn_window_history_run_pending (self))
    return;
  if (self->initial_query != NULL)
    {
      g_autofree char *text = g_steal_pointer (&self->initial_query);
      g_autoptr(GError) query_error = NULL;

      dyn_expression_builder_set_text (self->builder, text);
      gtk_revealer_set_reveal_child (self->builder_revealer, TRUE);
      if (_dyn_window_run_builder (self, &query_error))
        return;
      _dyn_window_show_error (self, _("The query"), query_error);
    }
  _dyn_window_start_read (self, _dyn_window_new_scan (self));
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
  _dyn_window_cancel_load (self);
  if (self->loading)
    {
      self->loading = FALSE;
      _dyn_window_set_busy (self, FALSE);
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
  _dyn_window_clear_session (self);
  g_clear_object (&self->model);
  self->read_time = 0;
  self->gone = FALSE;
  self->fan_out = FALSE;
  dyn_item_grid_set_model (self->grid, NULL);
  show_read_in_grid (self);
  dyn_item_detail_set_item (self->detail, NULL);
  dyn_table_details_set_description (self->table_details, NULL);
  /* The expression and the read options belonged to that table: they never
   * run against another. */
  dyn_expression_builder_set_text (self->builder, "");
  dyn_expression_builder_reset_read_options (self->builder);
  dyn_expression_builder_set_table (self->builder, NULL);
  self->updating_indexes = TRUE;
  gtk_string_list_splice (self->index_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->index_names)), NULL);
  self->updating_indexes = FALSE;
  _dyn_window_set_status (self, NULL);
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
  state->session = G_OBJECT (_dyn_window_detach_session (self));
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
  _dyn_window_select_index (self, state->index);
  dyn_expression_builder_set_text (self->builder, state->expression);
  if (state->session != NULL)
    _dyn_window_attach_session (self, DYN_EDIT_SESSION (g_steal_pointer (&state->session)));
  else
    _dyn_window_create_session (self);
  show_read_in_grid (self);
  dyn_item_grid_set_model (self->grid, self->model);
  _dyn_window_set_session_model (self);
  dyn_item_detail_set_item (self->detail, NULL);
  gtk_stack_set_visible_child_name (self->items_stack, "grid");
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  _dyn_window_clear_error (self);
  _dyn_window_update_actions (self);
  if (self->pager != NULL)
    _dyn_window_update_status (self);
  else if (self->read != NULL)
    {
      /* The read was stopped before it could be kept: read it again. */
      _dyn_window_start_read (self, g_object_ref (self->read));
    }
  else
    _dyn_window_start_read (self, _dyn_window_new_scan (self));
  _dyn_window_history_record_shown (self);
}

void
_dyn_window_open_table_now (DynWindow  *self,
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
      _dyn_window_show_message (self, _("Wait until the commit has finished"));
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
  _dyn_window_update_actions (self);
  self->load_cancellable = g_cancellable_new ();
  _dyn_window_set_busy (self, TRUE);
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
  _dyn_window_set_busy (self, FALSE);
  if (tables == NULL)
    {
      dyn_connection_sidebar_set_status (self->sidebar, self->connection, _("Could not list the tables"));
      _dyn_window_show_error (self, "ListTables", error);
      return;
    }
  dyn_connection_sidebar_set_status (self->sidebar, self->connection, NULL);
  g_strfreev (self->tables);
  self->tables = g_steal_pointer (&tables);
  dyn_connection_sidebar_set_tables (self->sidebar, self->connection, (const char * const *) self->tables);
  dyn_partiql_editor_set_tables (dyn_window_get_partiql_editor (self), (const char * const *) self->tables);
  _dyn_window_design_tables_changed (self);
  dyn_connection_sidebar_set_expanded (self->sidebar, self->connection, TRUE);
  /* After a table was found deleted, the error bar keeps saying so. */
  if (!self->gone)
    _dyn_window_clear_error (self);
  _dyn_window_guardrails_tables_listed (self);
  pending = g_steal_pointer (&self->pending_table);
  if (pending != NULL)
    _dyn_window_open_table_now (self, pending);
}

void
_dyn_window_list_tables (DynWindow *self)
{
  _dyn_window_set_busy (self, TRUE);
  _dyn_window_sql_tables_changed (self);
  dyn_connection_sidebar_set_status (self->sidebar, self->connection, _("Listing tables…"));
  dyn_client_list_tables_async (self->client, self->connect_cancellable, tables_cb, g_object_ref (self));
}

void
_dyn_window_set_client (DynWindow *self,
                        DynClient *client)
{
  g_set_object (&self->client, client);
  _dyn_window_signin_client_changed (self);
  dyn_expression_builder_set_endpoint (self->builder, dyn_client_get_endpoint (client), dyn_client_get_region (client));
  _dyn_window_sql_set_client (self);
  _dyn_window_partiql_set_client (self);
  _dyn_window_design_set_client (self);
  _dyn_window_update_actions (self);
  _dyn_window_list_tables (self);
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
  _dyn_window_signin_end (self);
  /* Another connection, or the window closing, cancelled it; a sign-in the
   * user cancelled (the MFA dialog) is an error to show. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;
  _dyn_window_set_busy (self, FALSE);
  if (client == NULL)
    {
      dyn_connection_sidebar_set_status (self->sidebar, DYN_CONNECTION (source), _("Could not connect"));
      _dyn_window_show_error (self, _("Connecting"), error);
      return;
    }
  if (DYN_CONNECTION (source) != self->connection)
    return;
  _dyn_window_set_client (self, client);
}

void
_dyn_window_reset_connection (DynWindow     *self,
                              DynConnection *connection)
{
  if (self->connect_cancellable != NULL)
    g_cancellable_cancel (self->connect_cancellable);
  g_clear_object (&self->connect_cancellable);
  self->connect_cancellable = g_cancellable_new ();
  /* The tables of the connection left go with it (what was staged there
   * was committed or discarded first: see _dyn_window_when_staged_handled()). */
  clear_table (self);
  g_hash_table_remove_all (self->states);
  _dyn_window_sql_leave_connection (self);
  g_set_object (&self->connection, connection);
  g_clear_object (&self->client);
  _dyn_window_signin_client_changed (self);
  g_clear_pointer (&self->tables, g_strfreev);
  g_clear_pointer (&self->table, g_free);
  g_clear_pointer (&self->pending_table, g_free);
  _dyn_window_history_reset (self);
  gtk_stack_set_visible_child_name (self->items_stack, "empty");
  update_title (self);
  _dyn_window_update_actions (self);
}

/* Staged work that would be lost: closing the window, opening another
 * connection, deleting this one. The user commits, discards or cancels, as
 * with unsaved documents. */

void
_dyn_window_open_connection_now (DynWindow     *self,
                                 DynConnection *connection)
{
  _dyn_window_reset_connection (self, connection);
  _dyn_window_clear_error (self);
  _dyn_window_set_busy (self, TRUE);
  dyn_connection_sidebar_set_status (self->sidebar, connection, _("Connecting…"));
  /* The user chose the connection: signing in may ask (an MFA code, the device flow). */
  _dyn_window_signin_begin (self);
  dyn_connection_create_client_async (connection, dyn_connection_store_get_shared_config (self->store),
                                      self->connect_cancellable, client_cb, g_object_ref (self));
}

