/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's PartiQL page: the editor (widgets/dyn-partiql-editor), the
 * key schemas its linter asks for (the open table's, else described once
 * per connection), and running: one statement with ExecuteStatement and
 * NextToken paging, several as one ExecuteTransaction; writes only after a
 * confirmation naming table and keys, never on a read-only connection. */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-partiql.h"
#include "dyn-partiql-editor.h"
#include "dyn-table.h"
#include "dyn-window-private.h"

struct _DynWindowPartiql
{
  DynPartiqlEditor *editor;
  DynClient        *schema_client;   /* whose tables the cache describes */
  GHashTable       *schemas;         /* table → DynTableKeys* (NULL: could not be described) */
  GCancellable     *cancellable;     /* describes and runs of this client */

  /* The last run of one statement: Load More repeats its text exactly. */
  char             *text;            /* the editor's text it ran from */
  char             *statement;
  DynValue         *parameters;
  char             *next_token;
  guint             items;
  guint             pages;
  double            read_units;
  double            write_units;
  gboolean          running;
};

static void
update_partiql_actions (DynWindow *self)
{
  DynWindowPartiql *p = self->partiql;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.partiql-run", !p->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.partiql-load-more", !p->running && p->next_token != NULL);
}

static void
reset_schemas (DynWindow *self)
{
  DynWindowPartiql *p = self->partiql;

  g_cancellable_cancel (p->cancellable);
  g_clear_object (&p->cancellable);
  p->cancellable = g_cancellable_new ();
  g_hash_table_remove_all (p->schemas);
  g_set_object (&p->schema_client, self->client);
  g_clear_pointer (&p->next_token, g_free);
  p->running = FALSE;
}

typedef struct {
  DynWindow *window;
  char      *table;
} Describe;

static void
describe_free (Describe *d)
{
  g_object_unref (d->window);
  g_free (d->table);
  g_free (d);
}

static void
describe_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Describe *d = user_data;
  DynWindow *self = d->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) description = NULL;
  DynTableKeys *keys = NULL;

  description = dyn_client_describe_table_finish (DYN_CLIENT (source), result, &keys, &error);
  if (self->partiql != NULL)   /* NULL: the window is gone */
    _dyn_window_set_busy (self, FALSE);
  if (self->partiql != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (self->partiql->schema_client == DYN_CLIENT (source))
        {
          /* Also a failure is kept: the linter then skips the key rules. */
          g_hash_table_replace (self->partiql->schemas, g_strdup (d->table), keys);
          keys = NULL;
          dyn_partiql_editor_queue_lint (self->partiql->editor);
        }
    }
  g_clear_pointer (&keys, dyn_table_keys_free);
  describe_free (d);
}

/* The key schema of @table for the linter: the open table's, one described
 * before, or NULL while it is described (the lint runs again then). Only
 * the connection's tables are described, not each prefix typed. */
static const DynTableKeys *
schema_func (const char *table,
             gpointer    user_data)
{
  DynWindow *self = user_data;
  DynWindowPartiql *p = self->partiql;
  gpointer keys;

  if (table == NULL || self->client == NULL)
    return NULL;
  if (p->schema_client != self->client)
    reset_schemas (self);
  if (self->keys != NULL && g_strcmp0 (self->table, table) == 0)
    return self->keys;
  if (g_hash_table_lookup_extended (p->schemas, table, NULL, &keys))
    return keys;
  if (self->tables != NULL && g_strv_contains ((const char * const *) self->tables, table))
    {
      Describe *d = g_new0 (Describe, 1);

      d->window = g_object_ref (self);
      d->table = g_strdup (table);
      g_hash_table_insert (p->schemas, g_strdup (table), NULL);
      _dyn_window_set_busy (self, TRUE);
      dyn_client_describe_table_async (self->client, table, p->cancellable, describe_cb, d);
    }
  return NULL;
}

static char *
format_units (double units)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, units == (gint64) units ? "%.0f" : "%.1f", units));
}

static void
show_status (DynWindow  *self,
             const char *what)
{
  DynWindowPartiql *p = self->partiql;
  g_autofree char *rcu = format_units (p->read_units);
  g_autofree char *wcu = format_units (p->write_units);
  GString *s = g_string_new (what);

  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", p->items), p->items);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", p->pages), p->pages);
  g_string_append_printf (s, " · %s RCU · %s WCU", rcu, wcu);
  if (p->next_token != NULL)
    g_string_append_printf (s, " · %s", _("more items: Load More"));
  dyn_partiql_editor_set_status (p->editor, s->str);
  g_string_free (s, TRUE);
}

static void
run_failed (DynWindow    *self,
            const GError *error)
{
  g_autofree char *text = g_strdup_printf (_("PartiQL failed: %s"), error->message);

  dyn_partiql_editor_set_status (self->partiql->editor, text);
  _dyn_window_show_error (self, _("Running PartiQL"), error);
}

static void
page_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  DynWindowPartiql *p = self->partiql;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynPartiqlPage) page = NULL;
  gboolean transaction = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (result), "dyn-transaction"));

  if (transaction)
    page = dyn_partiql_transaction_finish (DYN_CLIENT (source), result, &error);
  else
    page = dyn_partiql_execute_finish (DYN_CLIENT (source), result, &error);
  if (p == NULL)   /* the window is gone */
    return;
  _dyn_window_set_busy (self, FALSE);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  p->running = FALSE;
  if (page == NULL)
    {
      g_clear_pointer (&p->next_token, g_free);
      run_failed (self, error);
      update_partiql_actions (self);
      return;
    }
  _dyn_window_clear_error (self);
  dyn_partiql_editor_add_items (p->editor, page->items);
  p->items += page->items ? page->items->len : 0;
  p->pages++;
  p->read_units += page->read_units;
  p->write_units += page->write_units;
  g_free (p->next_token);
  p->next_token = transaction ? NULL : g_strdup (page->next_token);
  show_status (self, transaction ? "ExecuteTransaction" : "ExecuteStatement");
  update_partiql_actions (self);
}

typedef struct {
  DynWindow *window;
  gboolean   transaction;
} PageData;

static void
page_data_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  PageData *data = user_data;

  g_object_set_data (G_OBJECT (result), "dyn-transaction", GINT_TO_POINTER (data->transaction));
  page_cb (source, result, data->window);
  g_free (data);
}

static void
start_page (DynWindow *self)
{
  DynWindowPartiql *p = self->partiql;
  PageData *data = g_new0 (PageData, 1);

  data->window = g_object_ref (self);
  p->running = TRUE;
  _dyn_window_set_busy (self, TRUE);
  update_partiql_actions (self);
  dyn_partiql_execute_async (self->client, p->statement, p->parameters, p->next_token, p->cancellable,
                             page_data_cb, data);
}

static void
start_run (DynWindow *self,
           GPtrArray *statements,
           GPtrArray *parameters)
{
  DynWindowPartiql *p = self->partiql;

  dyn_partiql_editor_clear_results (p->editor);
  g_clear_pointer (&p->next_token, g_free);
  g_clear_pointer (&p->statement, g_free);
  g_clear_pointer (&p->parameters, dyn_value_unref);
  g_free (p->text);
  p->text = dyn_partiql_editor_dup_text (p->editor);
  p->items = p->pages = 0;
  p->read_units = p->write_units = 0;
  dyn_partiql_editor_set_status (p->editor, _("Running…"));

  if (statements->len == 1)
    {
      p->statement = g_strdup (statements->pdata[0]);
      p->parameters = parameters->pdata[0] ? dyn_value_ref (parameters->pdata[0]) : NULL;
      start_page (self);
    }
  else
    {
      PageData *data = g_new0 (PageData, 1);

      data->window = g_object_ref (self);
      data->transaction = TRUE;
      p->running = TRUE;
      _dyn_window_set_busy (self, TRUE);
      update_partiql_actions (self);
      dyn_partiql_transaction_async (self->client, statements, parameters, p->cancellable, page_data_cb, data);
    }
}

typedef struct {
  DynWindow *window;
  GPtrArray *statements;
  GPtrArray *parameters;
} Pending;

static void
pending_free (gpointer  data,
              GClosure *closure)
{
  Pending *pending = data;

  g_clear_weak_pointer (&pending->window);
  g_ptr_array_unref (pending->statements);
  g_ptr_array_unref (pending->parameters);
  g_free (pending);
}

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     Pending          *pending)
{
  DynWindow *self = pending->window;

  if (self == NULL)
    return;
  if (g_strcmp0 (response, "run") == 0 && self->client != NULL && !self->partiql->running)
    start_run (self, pending->statements, pending->parameters);
  else if (g_strcmp0 (response, "run") != 0)
    dyn_partiql_editor_set_status (self->partiql->editor, _("Nothing was written"));
}

static void
free_pending (gpointer data)
{
  pending_free (data, NULL);
}

static void
run_pending_now (DynWindow *self,
                 gpointer   data)
{
  Pending *pending = data;

  if (self->client != NULL && !self->partiql->running)
    start_run (self, pending->statements, pending->parameters);
}

/* "INSERT into Movies: year = 2020, title = 'Soul'", one line per write. */
static char *
describe_writes (GPtrArray *infos,
                 guint     *n_writes)
{
  GString *s = g_string_new (NULL);

  *n_writes = 0;
  for (guint i = 0; i < infos->len; i++)
    {
      DynPartiqlInfo *info = infos->pdata[i];
      const char *line;

      if (!info->is_write)
        continue;
      (*n_writes)++;
      switch (info->kind)
        {
        case DYN_PARTIQL_INSERT:
          /* Translators: a write in the confirmation: the table, then the key */
          line = _("INSERT into %s: %s");
          break;
        case DYN_PARTIQL_UPDATE:
          line = _("UPDATE of %s: %s");
          break;
        case DYN_PARTIQL_DELETE:
          line = _("DELETE from %s: %s");
          break;
        default:
          line = _("Write to %s: %s");
          break;
        }
      if (s->len > 0)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, line, info->table ? info->table : "?",
                              info->keys ? info->keys : _("no key given"));
    }
  return g_string_free (s, FALSE);
}

static void
partiql_run_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowPartiql *p = self->partiql;
  g_autoptr(GPtrArray) statements = NULL;
  g_autoptr(GPtrArray) parameters = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *writes = NULL;
  guint n_writes;
  GtkWidget *dialog;
  Pending *pending;

  if (p->running)
    return;
  if (!dyn_partiql_editor_collect (p->editor, &statements, &parameters, &error))
    {
      run_failed (self, error);
      return;
    }
  if (self->client == NULL)
    {
      g_autoptr(GError) no_client = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED,
                                                          _("Open a connection first"));

      run_failed (self, no_client);
      return;
    }
  if (p->schema_client != self->client)
    reset_schemas (self);

  infos = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_partiql_info_free);
  for (guint i = 0; i < statements->len; i++)
    g_ptr_array_add (infos, dyn_partiql_inspect_with_schema (statements->pdata[i], schema_func, self));
  writes = describe_writes (infos, &n_writes);
  if (n_writes == 0)
    {
      start_run (self, statements, parameters);
      return;
    }

  /* Writes never run without asking, and never on a read-only connection
   * (a production connection is one until its writes are unlocked). */
  if (_dyn_window_is_read_only (self))
    {
      g_autofree char *text = g_strdup_printf (_("%s is opened read-only: PartiQL writes (INSERT, UPDATE, DELETE) are refused"),
                                               dyn_connection_get_name (self->connection));

      dyn_partiql_editor_set_status (p->editor, text);
      _dyn_window_show_message (self, text);
      return;
    }
  /* Production: the guardrail's confirmation is the question. */
  if (dyn_guardrail_get_production (_dyn_window_get_guardrail (self)))
    {
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Run a Write?", "Run %u Writes?",
                                                             n_writes), n_writes);
      g_autoptr(DynWriteSummary) summary = dyn_write_summary_new (title);

      for (guint i = 0; i < infos->len; i++)
        {
          DynPartiqlInfo *info = infos->pdata[i];
          const char *what = info->kind == DYN_PARTIQL_INSERT ? "INSERT" : info->kind == DYN_PARTIQL_UPDATE ? "UPDATE"
                           : info->kind == DYN_PARTIQL_DELETE ? "DELETE" : "PartiQL";

          /* At least 1 KB each, ×2 in a transaction: the items' sizes are not known here. */
          if (info->is_write)
            dyn_write_summary_add (summary, info->table ? info->table : "?", what, info->keys, NULL,
                                   statements->len > 1 ? 2 : 1);
        }
      pending = g_new0 (Pending, 1);
      g_set_weak_pointer (&pending->window, self);
      pending->statements = g_steal_pointer (&statements);
      pending->parameters = g_steal_pointer (&parameters);
      _dyn_window_guard_write (self, summary, run_pending_now, pending, (GDestroyNotify) free_pending);
      return;
    }
  {
    g_autofree char *heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Run a Write?", "Run %u Writes?",
                                                             n_writes), n_writes);

    dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, NULL);
  }
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog), writes);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "run", _("_Write"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "run", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  pending = g_new0 (Pending, 1);
  /* Weak: an open dialog does not keep a closed window alive. */
  g_set_weak_pointer (&pending->window, self);
  pending->statements = g_steal_pointer (&statements);
  pending->parameters = g_steal_pointer (&parameters);
  g_signal_connect_data (dialog, "response", G_CALLBACK (confirm_response_cb), pending,
                         pending_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
partiql_load_more_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowPartiql *p = self->partiql;
  g_autofree char *text = NULL;

  if (p->running || p->next_token == NULL || self->client == NULL)
    return;
  /* NextToken belongs to the exact statement it came from: after an edit
   * the read starts again from the first page. */
  text = dyn_partiql_editor_dup_text (p->editor);
  if (g_strcmp0 (text, p->text) != 0)
    {
      g_clear_pointer (&p->next_token, g_free);
      partiql_run_action (widget, "win.partiql-run", NULL);
      return;
    }
  start_page (self);
}

static void
partiql_focus_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->view_stack, "partiql");
  gtk_widget_grab_focus (GTK_WIDGET (dyn_partiql_editor_get_view (self->partiql->editor)));
}

void
_dyn_window_class_partiql_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.partiql-run", NULL, partiql_run_action);
  gtk_widget_class_install_action (widget_class, "win.partiql-load-more", NULL, partiql_load_more_action);
  gtk_widget_class_install_action (widget_class, "win.show-partiql", NULL, partiql_focus_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.show-partiql", NULL);
}

/* The Items page's read bar (the grid's Load More, Load All) belongs to the
 * table pages; the PartiQL page pages by its own Load More. The same rule as
 * the SQL Workbench page's. */
static void
view_changed_cb (GtkStack   *stack,
                 GParamSpec *pspec,
                 DynWindow  *self)
{
  const char *name = gtk_stack_get_visible_child_name (stack);

  gtk_widget_set_visible (self->read_bar,
                          name == NULL || g_str_equal (name, "items") || g_str_equal (name, "details"));
}

void
_dyn_window_partiql_init (DynWindow *self)
{
  DynWindowPartiql *p = g_new0 (DynWindowPartiql, 1);
  GtkStackPage *page;

  self->partiql = p;
  p->schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_table_keys_free);
  p->cancellable = g_cancellable_new ();
  p->editor = DYN_PARTIQL_EDITOR (dyn_partiql_editor_new ());
  page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (p->editor), "partiql", _("PartiQL"));
  gtk_stack_page_set_icon_name (page, "utilities-terminal-symbolic");
  dyn_partiql_editor_set_schema_func (p->editor, schema_func, self);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name", G_CALLBACK (view_changed_cb), self, 0);
  update_partiql_actions (self);
}

/* A new client (connection): its tables are described anew. */
void
_dyn_window_partiql_set_client (DynWindow *self)
{
  if (self->partiql == NULL)
    return;
  reset_schemas (self);
  dyn_partiql_editor_set_tables (self->partiql->editor, (const char * const *) self->tables);
  dyn_partiql_editor_set_endpoint (self->partiql->editor,
                                   self->client ? dyn_client_get_endpoint (self->client) : NULL,
                                   self->client ? dyn_client_get_region (self->client) : NULL);
  dyn_partiql_editor_queue_lint (self->partiql->editor);
  update_partiql_actions (self);
}

void
_dyn_window_partiql_dispose (DynWindow *self)
{
  DynWindowPartiql *p = self->partiql;

  if (p == NULL)
    return;
  self->partiql = NULL;
  g_cancellable_cancel (p->cancellable);
  g_clear_object (&p->cancellable);
  g_clear_object (&p->schema_client);
  g_clear_pointer (&p->schemas, g_hash_table_unref);
  g_free (p->text);
  g_free (p->statement);
  g_clear_pointer (&p->parameters, dyn_value_unref);
  g_free (p->next_token);
  g_free (p);
}

DynPartiqlEditor *
dyn_window_get_partiql_editor (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  return self->partiql ? self->partiql->editor : NULL;
}
