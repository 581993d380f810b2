/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The SQL Workbench in the window: the "SQL" page of the view switcher
 * beside "Items" and "Table", for the open connection (not for one table).
 * Its engine (client/sql) is made for the connection's client; the
 * statement and the Allow Scan switch are kept per connection, so they
 * survive switching tables, pages and connections. The pages other than
 * the table's own ("items", "details") hide what only reads a table: the
 * builder, the index menu, New Item and Edit, and the read bar with Load
 * More (the workbench has its own status line). While the workbench
 * explains or runs, the window is busy. win.open-in-sql puts a statement
 * into its editor and shows the page. */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-window-private.h"

typedef struct {
  char     *text;
  gboolean  allow_scan;
} SqlState;

static void
sql_state_free (SqlState *state)
{
  g_free (state->text);
  g_free (state);
}

static gboolean
is_table_page (const char *name)
{
  return name == NULL || g_str_equal (name, "items") || g_str_equal (name, "details");
}

static void
page_changed_cb (GtkStack   *stack,
                 GParamSpec *pspec,
                 DynWindow  *self)
{
  const char *name = gtk_stack_get_visible_child_name (stack);
  gboolean table = is_table_page (name);

  gtk_widget_set_visible (GTK_WIDGET (self->builder_revealer), table);
  gtk_widget_set_visible (self->read_bar, table);
  gtk_widget_set_visible (GTK_WIDGET (self->index_dropdown), table);
  gtk_widget_set_visible (self->new_item_button, table);
  gtk_widget_set_visible (self->edit_button, table);
  if (g_strcmp0 (name, "sql") == 0)
    gtk_widget_grab_focus (GTK_WIDGET (dyn_sql_workbench_get_source_view (self->sql_workbench)));
}

static void
workbench_busy_cb (DynSqlWorkbench *workbench,
                   GParamSpec      *pspec,
                   DynWindow       *self)
{
  gboolean busy = dyn_sql_workbench_get_busy (workbench);

  if (busy == self->sql_busy)
    return;
  self->sql_busy = busy;
  _dyn_window_set_busy (self, busy);
}

/* Keeps the statement of the connection left. */
void
_dyn_window_sql_leave_connection (DynWindow *self)
{
  SqlState *state;

  if (self->sql_workbench == NULL)
    return;
  if (self->connection != NULL)
    {
      state = g_new0 (SqlState, 1);
      state->text = dyn_sql_workbench_dup_text (self->sql_workbench);
      state->allow_scan = dyn_sql_workbench_get_allow_scan (self->sql_workbench);
      g_hash_table_replace (self->sql_states, g_object_ref (self->connection), state);
    }
  dyn_sql_workbench_set_engine (self->sql_workbench, NULL);
}

/* The connection's client is there: its engine, and its statement back. */
void
_dyn_window_sql_set_client (DynWindow *self)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  SqlState *state;

  if (self->sql_workbench == NULL)
    return;
  engine = self->client ? dyn_sql_engine_new (self->client) : NULL;
  dyn_sql_workbench_set_engine (self->sql_workbench, engine);
  state = self->connection ? g_hash_table_lookup (self->sql_states, self->connection) : NULL;
  if (state != NULL)
    {
      dyn_sql_workbench_set_text (self->sql_workbench, state->text);
      dyn_sql_workbench_set_allow_scan (self->sql_workbench, state->allow_scan);
    }
  else
    {
      dyn_sql_workbench_set_text (self->sql_workbench, "");
      dyn_sql_workbench_set_allow_scan (self->sql_workbench, FALSE);
    }
}

/* The table list was read again: tables may be new or changed. */
void
_dyn_window_sql_tables_changed (DynWindow *self)
{
  DynSqlEngine *engine = self->sql_workbench ? dyn_sql_workbench_get_engine (self->sql_workbench) : NULL;

  if (engine != NULL)
    dyn_sql_engine_reset (engine);
}

void
_dyn_window_sql_init (DynWindow *self)
{
  GtkStackPage *page;

  self->sql_states = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_object_unref,
                                            (GDestroyNotify) sql_state_free);
  self->sql_workbench = DYN_SQL_WORKBENCH (dyn_sql_workbench_new ());
  page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (self->sql_workbench), "sql", _("SQL"));
  gtk_stack_page_set_icon_name (page, "x-office-spreadsheet-symbolic");
  g_signal_connect (self->sql_workbench, "notify::busy", G_CALLBACK (workbench_busy_cb), self);
  g_signal_connect (self->view_stack, "notify::visible-child-name", G_CALLBACK (page_changed_cb), self);
}

void
_dyn_window_sql_dispose (DynWindow *self)
{
  if (self->view_stack != NULL)
    g_signal_handlers_disconnect_by_func (self->view_stack, page_changed_cb, self);
  if (self->sql_workbench != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->sql_workbench, workbench_busy_cb, self);
      dyn_sql_workbench_set_engine (self->sql_workbench, NULL);
      self->sql_workbench = NULL;
    }
  g_clear_pointer (&self->sql_states, g_hash_table_unref);
}

/* win.show-view: a page of the view switcher by name (Alt+1 Items, Alt+2
 * Table, Alt+3 SQL). */
static void
show_view_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *name = g_variant_get_string (parameter, NULL);

  if (gtk_stack_get_child_by_name (self->view_stack, name) != NULL)
    gtk_stack_set_visible_child_name (self->view_stack, name);
}

/* win.open-in-sql: a statement into the SQL Workbench's editor, its page
 * shown, the editor focused; nothing runs. The PartiQL editor offers it
 * for statements DynamoDB's PartiQL refuses (JOIN, GROUP BY, …). */
static void
open_in_sql_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  GtkSourceView *view;
  GtkTextBuffer *buffer;
  GtkTextIter start;

  if (self->sql_workbench == NULL)
    return;
  dyn_sql_workbench_set_text (self->sql_workbench, g_variant_get_string (parameter, NULL));
  gtk_stack_set_visible_child_name (self->view_stack, "sql");
  view = dyn_sql_workbench_get_source_view (self->sql_workbench);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  gtk_widget_grab_focus (GTK_WIDGET (view));
}

void
_dyn_window_class_sql_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-view", "s", show_view_action);
  gtk_widget_class_install_action (widget_class, "win.open-in-sql", "s", open_in_sql_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_ALT_MASK, "win.show-view", "s", "items");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_ALT_MASK, "win.show-view", "s", "details");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_ALT_MASK, "win.show-view", "s", "sql");
}

DynSqlWorkbench *
dyn_window_get_sql_workbench (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->sql_workbench;
}

const char *
dyn_window_get_view (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->view_stack);
}
