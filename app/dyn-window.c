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
#include "dyn-window-private.h"

G_DEFINE_FINAL_TYPE (DynWindow, dyn_window, ADW_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[N_PROPS];

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
set_copy_format (DynWindow  *self,
                 const char *format)
{
  if (g_strcmp0 (format, "ddb") != 0)
    format = "plain";
  if (g_strcmp0 (self->copy_format, format) == 0)
    return;
  g_free (self->copy_format);
  self->copy_format = g_strdup (format);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COPY_FORMAT]);
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

void
_dyn_window_set_busy (DynWindow *self,
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
  _dyn_window_update_actions (self);
}

void
_dyn_window_set_status (DynWindow  *self,
                        const char *text)
{
  g_free (self->status_text);
  self->status_text = g_strdup (text);
  self->status_is_stats = FALSE;
  gtk_label_set_label (self->status_label, text ? text : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_TEXT]);
}

void
_dyn_window_clear_error (DynWindow *self)
{
  if (self->error_text == NULL)
    return;
  g_clear_pointer (&self->error_text, g_free);
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_TEXT]);
}

/* A message in the error bar; the next successful action hides it. */
void
_dyn_window_show_message (DynWindow  *self,
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
void
_dyn_window_show_error (DynWindow    *self,
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
  _dyn_window_show_message (self, text);
}

/* Says why something is refused on a read-only connection: not a failure. */
void
_dyn_window_refuse_read_only (DynWindow *self)
{
  g_autofree char *text = NULL;

  if (self->guardrails != NULL && dyn_guardrail_get_locked (_dyn_window_get_guardrail (self)))
    text = g_strdup_printf (_("%s is a production connection: writes are locked — use “Unlock Writes” in the header first"),
                            dyn_connection_get_name (self->connection));
  else
    text = g_strdup_printf (_("%s is opened read-only: nothing can be changed or written"),
                            self->table ? self->table : dyn_connection_get_name (self->connection));
  _dyn_window_show_message (self, text);
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
  operation = dyn_operation_get_name (self->request->op);
  s = g_string_new (operation);
  if (self->request->index != NULL)
    g_string_append_printf (s, " %s", self->request->index);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request", "%u requests", stats->requests),
                          stats->requests);
  if (self->request->op != DYN_OP_GET_ITEM)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", stats->pages), stats->pages);
    }
  g_ascii_formatd (units, sizeof units, stats->read_units == (gint64) stats->read_units ? "%.0f" : "%.1f",
                   stats->read_units);
  g_string_append_printf (s, " · %s RCU · ", units);
  if (self->request->consistent_read)
    g_string_append_printf (s, "%s · ", _("strongly consistent"));
  if (g_strcmp0 (self->request->select, "COUNT") == 0)
    /* Translators: a read that only counts (Select=COUNT) */
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "count only: %u item", "count only: %u items",
                                            (guint) stats->counted), (guint) stats->counted);
  else if (self->request->op == DYN_OP_GET_ITEM && stats->pages > 0 && stats->items == 0)
    g_string_append (s, _("no item with this key"));
  else
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", (guint) stats->items),
                            (guint) stats->items);
  if (g_strcmp0 (self->request->select, "COUNT") == 0 && stats->scanned != stats->counted)
    {
      g_string_append (s, " ");
      g_string_append_printf (s, _("(%u scanned)"), (guint) stats->scanned);
    }
  else if (g_strcmp0 (self->request->select, "COUNT") != 0 && stats->scanned != stats->items)
    {
      g_string_append (s, " ");
      g_string_append_printf (s, _("(%u scanned)"), (guint) stats->scanned);
    }
  if (self->model != NULL && self->grid != NULL && dyn_item_grid_get_shows_collections (self->grid) &&
      g_strcmp0 (self->request->select, "COUNT") != 0 && self->request->op != DYN_OP_GET_ITEM)
    {
      guint n = dyn_collection_model_get_n_collections (self->model);
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u collection", "%u collections", n), n);
    }
  /* The first read is small and says so; a page size chosen for the read
   * is every page's. */
  if (self->request->limit > 0 && self->read != NULL && !dyn_read_request_get_first_page_only (self->read))
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, _("pages of %u"), (guint) self->request->limit);
    }
  else if (self->request->limit > 0 && stats->pages <= 1)
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

void
_dyn_window_update_status (DynWindow *self)
{
  g_autofree char *text = describe_stats (self);

  _dyn_window_set_status (self, text);
  self->status_is_stats = text != NULL;
}

/* The age in the status line keeps up with the clock. */
static gboolean
age_tick_cb (gpointer user_data)
{
  DynWindow *self = user_data;

  if (self->status_is_stats && self->pager != NULL && !self->loading)
    _dyn_window_update_status (self);
  return G_SOURCE_CONTINUE;
}

void
_dyn_window_update_edit_actions (DynWindow *self)
{
  gboolean session = self->session != NULL;
  gboolean selected = session && dyn_item_grid_get_selected_item (self->grid) != NULL;
  gboolean busy = session && dyn_edit_session_get_busy (self->session);
  guint n = session ? dyn_edit_session_get_n_changes (self->session) : 0;
  gboolean read_only = _dyn_window_is_read_only (self);

  const char *page = self->view_stack ? gtk_stack_get_visible_child_name (self->view_stack) : NULL;
  gboolean table_page = page == NULL || g_str_equal (page, "items") || g_str_equal (page, "details");

  /* A read-only connection offers no editing; a shortcut that tries anyway
   * is told why. The pages that are not the table's (SQL, PartiQL, Design)
   * hide them (dyn-window-sql.c), also when the edit state changes there. */
  gtk_widget_set_visible (self->new_item_button, !read_only && table_page);
  gtk_widget_set_visible (self->edit_button, !read_only && table_page);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.edit-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.duplicate-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-item", selected);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.new-item", session);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.commit-changes", n > 0 && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo-commit",
                                 session && dyn_edit_session_get_can_undo (self->session) && !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.toggle-changes", session);
  /* Copying needs rows, not a session: an index read copies too. */
  {
    gboolean rows = dyn_item_grid_get_selected_item (self->grid) != NULL;

    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-rows", rows);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-rows-json", rows);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-rows-ddb", rows);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-key", rows && self->keys != NULL);
  }
}

/* The page shown while no table is open: without a connection it offers
 * to add one. */
static void
update_empty_page (DynWindow *self)
{
  gboolean connected = self->connection != NULL;
  const char *hint = _dyn_window_guardrails_get_empty_hint (self);

  if (connected && hint != NULL)
    {
      adw_status_page_set_title (self->empty_page, _("No Tables"));
      adw_status_page_set_description (self->empty_page, hint);
    }
  else if (connected)
    {
      adw_status_page_set_title (self->empty_page, _("No Table Open"));
      adw_status_page_set_description (self->empty_page, _("Choose a table in the sidebar."));
    }
  else
    {
      adw_status_page_set_title (self->empty_page, _("No Connection"));
      adw_status_page_set_description (self->empty_page,
                                       _("Add a connection to DynamoDB, DynamoDB Local or another server that "
                                         "speaks its protocol, or choose one in the sidebar."));
    }
  gtk_widget_set_visible (self->add_connection_button, !connected);
}

void
_dyn_window_update_actions (DynWindow *self)
{
  gboolean have_table = self->keys != NULL && self->client != NULL && !self->gone;
  gboolean can_load = have_table && self->pager != NULL && !self->loading && !dyn_pager_is_done (self->pager);
  gboolean user = self->connection != NULL &&
                  dyn_connection_get_kind (self->connection) == DYN_CONNECTION_KIND_USER &&
                  dyn_connection_store_lookup (self->store, dyn_connection_get_id (self->connection)) != NULL;

  _dyn_window_guardrails_sync (self);
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
  _dyn_window_update_edit_actions (self);
  _dyn_window_history_update_actions (self);
  _dyn_window_transfer_update_actions (self);
  _dyn_window_tables_update_actions (self);
  update_empty_page (self);
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
      _dyn_window_when_staged_handled (self, AFTER_OPEN_CONNECTION, connection, NULL, table);
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
      g_autofree char *a = dyn_item_object_format_key (item, FALSE, 80);
      g_autofree char *b = dyn_item_object_format_key (item, TRUE, 80);

      title = b ? g_strdup_printf ("%s · %s", a ? a : "", b) : g_strdup (a);
      if (!gtk_widget_get_visible (GTK_WIDGET (self->side_stack)))
        _dyn_window_show_side_page (self, "detail", FALSE);
    }
  dyn_item_detail_set_item (self->detail, item ? dyn_item_object_get_item (item) : NULL);
  dyn_item_detail_set_title (self->detail, title);
  _dyn_window_update_edit_actions (self);
}

static gboolean
dyn_window_close_request (GtkWindow *window)
{
  DynWindow *self = DYN_WINDOW (window);

  /* Staged changes are asked about first; the answer closes it. */
  if (!self->closing && _dyn_window_collect_staged (self, NULL, NULL) > 0)
    {
      _dyn_window_when_staged_handled (self, AFTER_CLOSE, NULL, NULL, NULL);
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
  _dyn_window_cancel_load (self);
  g_clear_handle_id (&self->age_id, g_source_remove);
  _dyn_window_clear_after (self);
  _dyn_window_signin_dispose (self);
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
    _dyn_window_clear_session (self);
  g_clear_object (&self->model);
  g_clear_object (&self->client);
  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  _dyn_window_history_dispose (self);
  _dyn_window_sql_dispose (self);
  _dyn_window_partiql_dispose (self);
  _dyn_window_design_dispose (self);
  _dyn_window_transfer_dispose (self);
  _dyn_window_tables_dispose (self);
  _dyn_window_guardrails_dispose (self);
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
  g_free (self->copy_format);
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
    case PROP_COPY_FORMAT:
      g_value_set_string (value, self->copy_format);
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
    case PROP_COPY_FORMAT:
      set_copy_format (self, g_value_get_string (value));
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
  /* What Ctrl+C on rows copies: "plain" (JSON) or "ddb" (DynamoDB JSON);
   * the "copy-format" setting. */
  properties[PROP_COPY_FORMAT] =
    g_param_spec_string ("copy-format", NULL, NULL, "plain",
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
  g_type_ensure (DYN_TYPE_QUERY_POPOVER);

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
  gtk_widget_class_bind_template_child (widget_class, DynWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, add_connection_button);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, query_popover);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, row_menu);
  gtk_widget_class_bind_template_child (widget_class, DynWindow, read_bar);

  gtk_widget_class_install_property_action (widget_class, "win.page-size", "page-size");
  gtk_widget_class_install_property_action (widget_class, "win.copy-format", "copy-format");

  /* Editing. Enter on a row opens the JSON editor too (the grid's activate);
   * these are class shortcuts, so a focused entry keeps its own Delete,
   * Ctrl+Z and Insert. */

  _dyn_window_class_actions_init (widget_class);
  _dyn_window_class_editing_init (widget_class);
  _dyn_window_class_history_init (widget_class);
  _dyn_window_class_sql_init (widget_class);
  _dyn_window_class_partiql_init (widget_class);
  _dyn_window_class_design_init (widget_class);
  _dyn_window_class_transfer_init (widget_class);
  _dyn_window_class_tables_init (widget_class);
  _dyn_window_class_guardrails_init (widget_class);
}

static void
dyn_window_init (DynWindow *self)
{
  GListStore *models;

  self->cancellable = g_cancellable_new ();
  self->states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_table_state_free);
  self->page_size = 50;
  self->copy_format = g_strdup ("plain");
  self->index_names = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (self->index_names));
  g_signal_connect (self->index_dropdown, "notify::selected", G_CALLBACK (_dyn_window_index_selected_cb), self);
  g_signal_connect (self->builder, "notify::index", G_CALLBACK (_dyn_window_builder_index_cb), self);
  g_signal_connect (self->sidebar, "connection-activated", G_CALLBACK (connection_activated_cb), self);
  g_signal_connect (self->sidebar, "table-activated", G_CALLBACK (table_activated_cb), self);
  g_signal_connect (self->grid, "notify::selected-item", G_CALLBACK (selected_item_cb), self);
  g_signal_connect (self->grid, "follow-key", G_CALLBACK (_dyn_window_follow_key_cb), self);
  g_signal_connect (self->grid, "follow-item", G_CALLBACK (_dyn_window_follow_item_cb), self);
  g_signal_connect (self->grid, "near-end", G_CALLBACK (_dyn_window_near_end_cb), self);
  g_signal_connect (self->grid, "edit-failed", G_CALLBACK (_dyn_window_grid_edit_failed_cb), self);
  g_signal_connect (self->grid, "edit-item", G_CALLBACK (_dyn_window_grid_edit_item_cb), self);
  g_signal_connect (self->grid, "query-ordered", G_CALLBACK (_dyn_window_grid_query_ordered_cb), self);
  g_signal_connect (dyn_item_grid_get_column_view (self->grid), "activate", G_CALLBACK (_dyn_window_grid_activate_cb), self);
  g_signal_connect (self->staged, "committed", G_CALLBACK (_dyn_window_staged_committed_cb), self);

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
      g_settings_bind (self->settings, "copy-format", self, "copy-format", G_SETTINGS_BIND_DEFAULT);
    }
  _dyn_window_history_init (self);
  _dyn_window_sql_init (self);
  _dyn_window_partiql_init (self);
  _dyn_window_design_init (self);
  _dyn_window_tables_init (self);
  _dyn_window_guardrails_init (self);
  _dyn_window_signin_init (self);
  update_page_size_button (self);
  self->age_id = g_timeout_add_seconds (30, age_tick_cb, self);
  gtk_widget_set_visible (GTK_WIDGET (self->side_stack), FALSE);
  _dyn_window_update_actions (self);
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
  _dyn_window_when_staged_handled (self, AFTER_ADD_CONNECTION, connection, client, NULL);
}

void
dyn_window_open_connection (DynWindow     *self,
                            DynConnection *connection)
{
  g_return_if_fail (DYN_IS_WINDOW (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  _dyn_window_when_staged_handled (self, AFTER_OPEN_CONNECTION, connection, NULL, NULL);
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
  _dyn_window_open_table_now (self, table);
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

DynHistory *
dyn_window_get_history (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->history;
}

DynSavedQueries *
dyn_window_get_saved_queries (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->queries;
}

DynQueryPopover *
dyn_window_get_query_popover (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->query_popover;
}

AdwStatusPage *
dyn_window_get_empty_page (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->empty_page;
}
