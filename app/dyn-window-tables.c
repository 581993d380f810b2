/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The tables themselves (client/admin, client/transfer): Create Table (the
 * dialog widgets/dyn-create-table-dialog, then the new table is opened),
 * and on the Table page (widgets/dyn-table-details) what DescribeTable and
 * DescribeTimeToLive say, the exact count with its cost before and after,
 * Add Index (UpdateTable, then the index's CREATING/backfill shown until it
 * is ACTIVE), Delete Index, TTL on and off, Truncate (its cost first, a
 * rate limit) and Delete Table after its name is typed. One job (count,
 * truncate, waiting for an index) runs at a time, with progress and
 * Cancel. */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "dyn-create-table-dialog.h"
#include "dyn-table-admin.h"
#include "dyn-table-details.h"
#include "dyn-transfer.h"
#include "dyn-window-private.h"

struct _DynWindowTables
{
  GCancellable *job;              /* the count, truncate or wait running */
  char         *job_title;
  GCancellable *info_cancellable;
  GtkWidget    *dialog;           /* weak: Create Table, Add Index or a confirmation */
  GtkWidget    *add_row;          /* the Add Index dialog's DynCreateTableIndexRow */
  GtkWidget    *add_button;
  GtkWidget    *add_spinner;
  GtkSpinButton *rate;            /* the truncate confirmation's WCU/s */
  GtkEditable  *confirm_entry;    /* the delete confirmation's name */
  char         *ttl_asked;        /* the table whose TTL details_info_cb() asked for */
};

/* What an asynchronous call needs back: the window and the table it was for. */
typedef struct {
  DynWindow    *window;
  char         *table;
  char         *what;
  GCancellable *cancellable;    /* the DescribeTable it answers (info_cb) */
} Call;

static Call *
call_new (DynWindow  *self,
          const char *table,
          const char *what)
{
  Call *call = g_new0 (Call, 1);

  call->window = g_object_ref (self);
  call->table = g_strdup (table);
  call->what = g_strdup (what);
  return call;
}

static void
call_free (Call *call)
{
  g_object_unref (call->window);
  g_clear_object (&call->cancellable);
  g_free (call->table);
  g_free (call->what);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

static gboolean
window_gone (DynWindow *self)
{
  return self->table_admin == NULL;
}

static void
toast (DynWindow  *self,
       const char *text)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (text));
}

static void
set_dialog (DynWindow *self,
            GtkWidget *dialog)
{
  DynWindowTables *t = self->table_admin;

  if (t->dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (t->dialog), (gpointer *) &t->dialog);
  t->dialog = dialog;
  if (dialog != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &t->dialog);
      gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
      gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

void
_dyn_window_tables_update_actions (DynWindow *self)
{
  DynWindowTables *t = self->table_admin;
  gboolean have_table = self->client != NULL && self->table != NULL && !self->gone;
  gboolean info = have_table && t != NULL && dyn_table_details_get_info (self->table_details) != NULL;
  gboolean idle = t != NULL && t->job == NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.create-table", self->client != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.count-exactly", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.truncate-table", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.add-gsi", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-gsi", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.enable-ttl", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.disable-ttl", info && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.delete-table", have_table && idle);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-table-job", t != NULL && t->job != NULL);
}

/* ------------------------------------------------------------------------ */
/* What the table is now */

static void
info_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  DynTableInfo *info = dyn_table_info_load_finish (result, &error);

  /* Superseded by a newer DescribeTable (which released the busy count). */
  if (window_gone (self) || call->cancellable != self->table_admin->info_cancellable)
    {
      g_clear_pointer (&info, dyn_table_info_free);
      return;
    }
  _dyn_window_set_busy (self, FALSE);
  g_clear_object (&self->table_admin->info_cancellable);
  if (info == NULL)
    {
      _dyn_window_show_error (self, "DescribeTable", error);
      return;
    }
  if (g_strcmp0 (call->table, self->table) != 0)
    {
      dyn_table_info_free (info);
      return;
    }
  dyn_table_details_set_info (self->table_details, info);
  _dyn_window_tables_update_actions (self);
}

/* DescribeTable and DescribeTimeToLive again, into the Table page. */
void
_dyn_window_tables_refresh (DynWindow *self)
{
  DynWindowTables *t = self->table_admin;
  Call *call;

  if (t == NULL || self->client == NULL || self->table == NULL || self->gone)
    return;
  if (t->info_cancellable != NULL)
    {
      g_cancellable_cancel (t->info_cancellable);
      g_clear_object (&t->info_cancellable);
      _dyn_window_set_busy (self, FALSE);
    }
  t->info_cancellable = g_cancellable_new ();
  call = call_new (self, self->table, NULL);
  call->cancellable = g_object_ref (t->info_cancellable);
  _dyn_window_set_busy (self, TRUE);
  dyn_table_info_load_async (self->client, self->table, t->info_cancellable, info_cb, call);
}

static void
view_changed_cb (GtkStack   *stack,
                 GParamSpec *pspec,
                 DynWindow  *self)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (stack), "details") == 0)
    _dyn_window_tables_refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Jobs */

static void
job_start (DynWindow  *self,
           const char *title)
{
  DynWindowTables *t = self->table_admin;

  t->job = g_cancellable_new ();
  g_free (t->job_title);
  t->job_title = g_strdup (title);
  dyn_table_details_set_job (self->table_details, title, _("Starting…"), 0);
  gtk_stack_set_visible_child_name (self->view_stack, "details");
  _dyn_window_set_busy (self, TRUE);
  _dyn_window_tables_update_actions (self);
}

static void
job_end (DynWindow *self)
{
  DynWindowTables *t = self->table_admin;

  g_clear_object (&t->job);
  dyn_table_details_set_job (self->table_details, NULL, NULL, 0);
  _dyn_window_set_busy (self, FALSE);
  _dyn_window_tables_update_actions (self);
}

static void
job_progress_cb (const DynTransferProgress *progress,
                 gpointer                   user_data)
{
  DynWindow *self = user_data;
  g_autofree char *text = dyn_transfer_progress_describe (progress);
  const DynTableInfo *info;
  double fraction = -1;

  if (window_gone (self) || self->table_admin->job == NULL)
    return;
  /* Without a total of its own, DescribeTable's approximate count. */
  info = dyn_table_details_get_info (self->table_details);
  if (progress->items_total > 0)
    fraction = (double) progress->items / progress->items_total;
  else if (info != NULL && info->item_count > 0)
    fraction = MIN ((double) progress->items / info->item_count, 1.0);
  dyn_table_details_set_job (self->table_details, self->table_admin->job_title, text, fraction);
}

static void
cancel_job_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->table_admin->job != NULL)
    g_cancellable_cancel (self->table_admin->job);
}

/* Segments for a scan of the table: one per ~256 MB, 1–16. */
static guint
scan_segments (const DynTableInfo *info)
{
  return (guint) CLAMP (info->size_bytes / (256 * 1024 * 1024) + 1, 1, 16);
}

static void
counted_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  DynCountResult count = { 0 };
  gboolean ok = dyn_transfer_count_finish (result, &count, &error);

  if (window_gone (self))
    return;
  job_end (self);
  if (!ok)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        toast (self, _("Count cancelled"));
      else
        _dyn_window_show_error (self, _("Counting"), error);
      return;
    }
  if (g_strcmp0 (call->table, self->table) == 0)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      dyn_table_details_set_count (self->table_details, &count, now);
    }
}

static void
count_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autoptr(DynRequest) request = NULL;

  if (info == NULL || self->table_admin->job != NULL || self->client == NULL)
    return;
  request = dyn_request_new (DYN_OP_SCAN, info->name);
  job_start (self, _("Counting exactly"));
  dyn_transfer_count_async (self->client, request, scan_segments (info), self->table_admin->job,
                            job_progress_cb, self, counted_cb, call_new (self, info->name, NULL));
}

/* ------------------------------------------------------------------------ */
/* Create Table */

static void
created_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  gboolean ok = dyn_table_create_finish (result, &error);
  DynWindowTables *t = self->table_admin;
  g_autofree char *text = NULL;

  if (window_gone (self))
    return;
  _dyn_window_set_busy (self, FALSE);
  if (!ok)
    {
      if (t->dialog != NULL && DYN_IS_CREATE_TABLE_DIALOG (t->dialog))
        {
          dyn_create_table_dialog_set_busy (DYN_CREATE_TABLE_DIALOG (t->dialog), FALSE);
          dyn_create_table_dialog_set_server_error (DYN_CREATE_TABLE_DIALOG (t->dialog), error->message);
        }
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _dyn_window_show_error (self, "CreateTable", error);
      return;
    }
  if (t->dialog != NULL && DYN_IS_CREATE_TABLE_DIALOG (t->dialog))
    gtk_window_destroy (GTK_WINDOW (t->dialog));
  text = g_strdup_printf (_("Table %s created"), call->table);
  toast (self, text);
  /* Listed, then opened (the sidebar shows it). */
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  g_free (self->pending_table);
  self->pending_table = g_strdup (call->table);
  _dyn_window_list_tables (self);
}

static void
create_table_now (DynWindow *self,
                  gpointer   data)
{
  DynWindowTables *t = self->table_admin;
  DynTableSpec *spec = data;

  if (self->client == NULL)
    return;
  if (t->dialog != NULL && DYN_IS_CREATE_TABLE_DIALOG (t->dialog))
    dyn_create_table_dialog_set_busy (DYN_CREATE_TABLE_DIALOG (t->dialog), TRUE);
  _dyn_window_set_busy (self, TRUE);
  dyn_table_create_async (self->client, spec, self->cancellable, created_cb,
                          call_new (self, spec->keys->table.name, NULL));
}

static void
create_cb (DynCreateTableDialog *dialog,
           DynWindow            *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_create_table_dialog_dup_spec (dialog, &error);

  if (spec == NULL || self->client == NULL)
    {
      dyn_create_table_dialog_set_server_error (dialog, error ? error->message : _("Not connected"));
      return;
    }
  {
    g_autofree char *title = g_strdup_printf (_("Create table %s"), spec->keys->table.name);
    g_autoptr(DynWriteSummary) summary = dyn_write_summary_new (title);

    dyn_write_summary_add (summary, spec->keys->table.name, title, NULL, NULL, 0);
    _dyn_window_guard_write (self, summary, create_table_now, g_steal_pointer (&spec), (GDestroyNotify) dyn_table_spec_free);
  }
}

static void
create_table_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  GtkWidget *dialog;

  if (self->client == NULL)
    return;
  if (self->table_admin->dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->table_admin->dialog));
      return;
    }
  dialog = dyn_create_table_dialog_new ();
  g_signal_connect_object (dialog, "create", G_CALLBACK (create_cb), self, 0);
  set_dialog (self, dialog);
}

/* ------------------------------------------------------------------------ */
/* UpdateTable, then waiting for the indexes */

static void
wait_progress_cb (const DynTableInfo *info,
                  gpointer            user_data)
{
  DynWindow *self = user_data;
  GString *text;

  if (window_gone (self) || self->table_admin->job == NULL)
    return;
  text = g_string_new (NULL);
  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (g_strcmp0 (index->status, "ACTIVE") != 0 || index->backfilling)
        {
          if (text->len > 0)
            g_string_append (text, " · ");
          g_string_append_printf (text, "%s: %s%s", index->name, index->status ? index->status : "",
                                  index->backfilling ? _(", backfilling") : "");
        }
    }
  if (text->len == 0)
    g_string_append_printf (text, _("Table %s"), info->status ? info->status : "");
  dyn_table_details_set_job (self->table_details, self->table_admin->job_title, text->str, -1);
  dyn_table_details_show_info (self->table_details, info);
  g_string_free (text, TRUE);
}

static void
waited_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  gboolean ok = dyn_table_wait_finish (result, &error);

  if (window_gone (self))
    return;
  job_end (self);
  if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _dyn_window_show_error (self, call->what, error);
  else if (ok)
    {
      g_autofree char *text = g_strdup_printf (_("%s: done"), call->what);
      toast (self, text);
    }
  _dyn_window_tables_refresh (self);
}

static void
updated_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  DynWindowTables *t = self->table_admin;

  if (window_gone (self))
    return;
  if (response == NULL)
    {
      job_end (self);
      if (t->dialog != NULL && t->add_row != NULL)
        {
          dyn_create_table_index_row_set_error (DYN_CREATE_TABLE_INDEX_ROW (t->add_row), error->message);
          gtk_spinner_set_spinning (GTK_SPINNER (t->add_spinner), FALSE);
          gtk_widget_set_sensitive (t->add_button, TRUE);
        }
      else
        _dyn_window_show_error (self, call->what, error);
      return;
    }
  if (t->dialog != NULL && t->add_row != NULL)
    gtk_window_destroy (GTK_WINDOW (t->dialog));
  dyn_table_wait_async (self->client, call->table, DYN_TABLE_WAIT_ACTIVE, 500, wait_progress_cb, self,
                        t->job, waited_cb, call_new (self, call->table, call->what));
}

typedef struct {
  char     *table;
  char     *operation;
  JsonNode *params;
  char     *title;
} TableWrite;

static void
table_write_free (TableWrite *w)
{
  g_free (w->table);
  g_free (w->operation);
  json_node_unref (w->params);
  g_free (w->title);
  g_free (w);
}

static void
update_table_now (DynWindow *self,
                  gpointer   data)
{
  TableWrite *w = data;

  if (self->client == NULL || self->table_admin->job != NULL)
    return;
  job_start (self, w->title);
  dyn_client_call_async (self->client, w->operation, w->params, self->table_admin->job, updated_cb,
                         call_new (self, w->table, w->title));
}

/* A change of the table itself (UpdateTable, an index …): asked first on a production connection. */
static void
update_table (DynWindow  *self,
              const char *operation,
              JsonNode   *params,
              const char *title)
{
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  TableWrite *w = g_new0 (TableWrite, 1);
  g_autoptr(DynWriteSummary) summary = dyn_write_summary_new (title);

  dyn_write_summary_add (summary, info->name, title, NULL, NULL, 0);
  w->table = g_strdup (info->name);
  w->operation = g_strdup (operation);
  w->params = json_node_ref (params);
  w->title = g_strdup (title);
  _dyn_window_guard_write (self, summary, update_table_now, w, (GDestroyNotify) table_write_free);
}

/* Add Index: the GSI row of the Create Table dialog in a small window. */

static void
add_dialog_changed_cb (DynCreateTableIndexRow *row,
                       DynWindow              *self)
{
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autofree char *text = dyn_create_table_index_row_dup_text (row);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = info ? dyn_table_add_gsi_params (info, text, &error) : NULL;

  dyn_create_table_index_row_set_error (row, params ? NULL : error ? error->message : NULL);
  gtk_widget_set_sensitive (t->add_button, params != NULL && t->job == NULL);
}

static void
add_dialog_add_cb (GtkButton *button,
                   DynWindow *self)
{
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autofree char *text = dyn_create_table_index_row_dup_text (DYN_CREATE_TABLE_INDEX_ROW (t->add_row));
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = info ? dyn_table_add_gsi_params (info, text, &error) : NULL;
  g_autofree char *title = NULL;

  if (params == NULL || t->job != NULL)
    return;
  title = g_strdup_printf (_("Adding index %s"), dyn_create_table_index_row_get_name (DYN_CREATE_TABLE_INDEX_ROW (t->add_row)));
  gtk_widget_set_sensitive (t->add_button, FALSE);
  gtk_spinner_set_spinning (GTK_SPINNER (t->add_spinner), TRUE);
  update_table (self, "UpdateTable", params, title);
}

static void
add_dialog_destroy_cb (GtkWidget *dialog,
                       DynWindow *self)
{
  if (!window_gone (self))
    {
      self->table_admin->add_row = NULL;
      self->table_admin->add_button = NULL;
      self->table_admin->add_spinner = NULL;
    }
}

static void
add_gsi_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  GtkWidget *dialog, *box, *header, *cancel, *scrolled, *clamp, *body, *label;
  g_autofree char *title = NULL;

  if (info == NULL || t->dialog != NULL)
    return;
  dialog = adw_window_new ();
  title = g_strdup_printf (_("Add Index to %s"), info->name);
  gtk_window_set_title (GTK_WINDOW (dialog), title);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 560, 560);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  header = adw_header_bar_new ();
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "window.close");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  t->add_button = gtk_button_new_with_mnemonic (_("_Add Index"));
  gtk_widget_add_css_class (t->add_button, "suggested-action");
  gtk_widget_set_sensitive (t->add_button, FALSE);
  g_signal_connect (t->add_button, "clicked", G_CALLBACK (add_dialog_add_cb), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), t->add_button);
  t->add_spinner = gtk_spinner_new ();
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), t->add_spinner);
  gtk_box_append (GTK_BOX (box), header);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  clamp = adw_clamp_new ();
  body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_top (body, 18);
  gtk_widget_set_margin_bottom (body, 18);
  gtk_widget_set_margin_start (body, 12);
  gtk_widget_set_margin_end (body, 12);
  label = gtk_label_new (_("A global secondary index is added with UpdateTable; DynamoDB then fills it from the "
                           "table's items (backfilling) before it can be read."));
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (body), label);
  t->add_row = dyn_create_table_index_row_new (DYN_INDEX_GLOBAL, FALSE);
  g_signal_connect (t->add_row, "changed", G_CALLBACK (add_dialog_changed_cb), self);
  gtk_box_append (GTK_BOX (body), t->add_row);
  adw_clamp_set_child (ADW_CLAMP (clamp), body);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);
  gtk_box_append (GTK_BOX (box), scrolled);
  adw_window_set_content (ADW_WINDOW (dialog), box);
  g_signal_connect (dialog, "destroy", G_CALLBACK (add_dialog_destroy_cb), self);
  set_dialog (self, dialog);
}

static void
delete_gsi_response_cb (AdwMessageDialog *dialog,
                        const char       *response,
                        DynWindow        *self)
{
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  const char *index = g_object_get_data (G_OBJECT (dialog), "index");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *title = NULL;

  if (g_strcmp0 (response, "delete") != 0 || info == NULL || self->table_admin->job != NULL)
    return;
  params = dyn_table_delete_gsi_params (info, index, &error);
  if (params == NULL)
    {
      _dyn_window_show_error (self, "UpdateTable", error);
      return;
    }
  title = g_strdup_printf (_("Deleting index %s"), index);
  update_table (self, "UpdateTable", params, title);
}

static void
delete_gsi_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const char *index = g_variant_get_string (parameter, NULL);
  g_autofree char *heading = g_strdup_printf (_("Delete Index %s?"), index);
  GtkWidget *dialog;

  if (self->table_admin->dialog != NULL)
    return;
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading,
                                   _("Queries and scans of the index stop working. The table's items stay; "
                                     "adding the index again reads them all again."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "delete", _("_Delete Index"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "index", g_strdup (index), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_gsi_response_cb), self, 0);
  set_dialog (self, dialog);
}

/* ------------------------------------------------------------------------ */
/* TTL */

static void
ttl_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);

  if (window_gone (self))
    return;
  _dyn_window_set_busy (self, FALSE);
  if (response == NULL)
    _dyn_window_show_error (self, "UpdateTimeToLive", error);
  else
    toast (self, call->what);
  _dyn_window_tables_refresh (self);
}

static void
set_ttl_now (DynWindow *self,
             gpointer   data)
{
  TableWrite *w = data;

  if (self->client == NULL)
    return;
  _dyn_window_set_busy (self, TRUE);
  dyn_client_call_async (self->client, "UpdateTimeToLive", w->params, self->cancellable, ttl_cb,
                         call_new (self, w->table, w->title));
}

static void
set_ttl (DynWindow  *self,
         const char *attribute)
{
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *done = NULL;

  if (info == NULL || self->client == NULL)
    return;
  params = dyn_table_ttl_params (info, attribute, &error);
  if (params == NULL)
    {
      _dyn_window_show_error (self, "UpdateTimeToLive", error);
      return;
    }
  done = attribute ? g_strdup_printf (_("Time to live on %s enabled"), attribute) : g_strdup (_("Time to live disabled"));
  {
    TableWrite *w = g_new0 (TableWrite, 1);
    g_autoptr(DynWriteSummary) summary = dyn_write_summary_new (done);

    dyn_write_summary_add (summary, info->name, done, NULL, NULL, 0);
    w->table = g_strdup (info->name);
    w->params = json_node_ref (params);
    w->title = g_steal_pointer (&done);
    _dyn_window_guard_write (self, summary, set_ttl_now, w, (GDestroyNotify) table_write_free);
  }
}

static void
enable_ttl_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  g_autofree char *attribute = g_strstrip (g_strdup (dyn_table_details_get_ttl_entry (self->table_details)
                                                     ? dyn_table_details_get_ttl_entry (self->table_details) : ""));

  set_ttl (self, attribute);
}

static void
disable_ttl_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  set_ttl (DYN_WINDOW (widget), NULL);
}

/* ------------------------------------------------------------------------ */
/* Truncate */

static void
truncated_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  DynTransferProgress done = { 0 };
  gboolean ok = dyn_transfer_truncate_finish (result, &done, &error);
  g_autofree char *items = g_strdup_printf ("%'" G_GUINT64_FORMAT, done.items);
  g_autofree char *wcu = g_strdup_printf ("%'.1f", done.write_units);
  g_autofree char *text = NULL;

  if (window_gone (self))
    return;
  job_end (self);
  if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _dyn_window_show_error (self, _("Truncating"), error);
  else
    {
      /* Translators: "Deleted 1,234 items of Orders (1,300.0 WCU)" */
      text = g_strdup_printf (ngettext ("Deleted %s item of %s (%s WCU)%s", "Deleted %s items of %s (%s WCU)%s", done.items),
                              items, call->table, wcu, ok ? "" : _(", then cancelled"));
      toast (self, text);
    }
  if (g_strcmp0 (call->table, self->table) == 0)
    {
      /* A read that works would clear the error bar. */
      if (ok || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* The Items page reads again; the Table page stays in front. */
          g_autofree char *view = g_strdup (gtk_stack_get_visible_child_name (self->view_stack));

          gtk_widget_activate_action (GTK_WIDGET (self), "win.refresh", NULL);
          gtk_stack_set_visible_child_name (self->view_stack, view);
        }
      _dyn_window_tables_refresh (self);
    }
}

/* Truncates @table once the guardrail allowed it. */
static void
truncate_now (DynWindow *self,
              gpointer   data)
{
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  double max_wcu = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "dyn-truncate-rate"));
  g_autofree char *title = NULL;

  if (info == NULL || g_strcmp0 (info->name, data) != 0 || t->job != NULL || self->client == NULL)
    return;
  title = g_strdup_printf (_("Truncating %s"), info->name);
  job_start (self, title);
  dyn_transfer_truncate_async (self->client, info->name, info->keys, scan_segments (info), max_wcu, t->job,
                               job_progress_cb, self, truncated_cb, call_new (self, info->name, NULL));
}

static void
truncate_response_cb (AdwMessageDialog *dialog,
                      const char       *response,
                      DynWindow        *self)
{
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  double max_wcu = t->rate ? gtk_spin_button_get_value (t->rate) : 0;
  g_autofree char *title = NULL;

  t->rate = NULL;
  if (g_strcmp0 (response, "truncate") != 0 || info == NULL || t->job != NULL || self->client == NULL)
    return;
  {
    g_autoptr(DynWriteSummary) summary = NULL;
    double rcu = 0, wcu = 0;

    dyn_transfer_estimate_truncate (MAX (info->item_count, 0), MAX (info->size_bytes, 0), &rcu, &wcu);
    title = g_strdup_printf (_("Truncate %s"), info->name);
    summary = dyn_write_summary_new_bulk (title, info->name, _("Delete every item"), MAX (info->item_count, 0), wcu);
    g_object_set_data (G_OBJECT (self), "dyn-truncate-rate", GINT_TO_POINTER ((int) max_wcu));
    _dyn_window_guard_write (self, summary, truncate_now, g_strdup (info->name), g_free);
  }
}

static void
truncate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  g_autofree char *items = NULL;
  g_autofree char *r = NULL;
  g_autofree char *w = NULL;
  double rcu = 0, wcu = 0;
  GtkWidget *dialog, *box, *label;

  if (info == NULL || t->dialog != NULL || t->job != NULL)
    return;
  dyn_transfer_estimate_truncate (MAX (info->item_count, 0), MAX (info->size_bytes, 0), &rcu, &wcu);
  items = g_strdup_printf ("%'" G_GINT64_FORMAT, info->item_count);
  r = g_strdup_printf ("%'.1f", rcu);
  w = g_strdup_printf ("%'.1f", wcu);
  heading = g_strdup_printf (_("Truncate %s?"), info->name);
  /* Translators: "… about 1,234 items … about 2.5 RCU … 1,234.0 WCU …" */
  body = g_strdup_printf (_("Every item is deleted (DescribeTable says about %s items, a count up to six hours old); "
                            "the table, its indexes and settings stay. It costs about %s RCU to scan the keys and "
                            "%s WCU to delete. Stopping it midway leaves fewer items, never a changed one."),
                          items, r, w);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  label = gtk_label_new_with_mnemonic (_("At most _WCU per second (0: no limit)"));
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  t->rate = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 100000, 1));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (t->rate));
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (t->rate));
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "truncate", _("_Truncate"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "truncate", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (truncate_response_cb), self, 0);
  set_dialog (self, dialog);
}

/* ------------------------------------------------------------------------ */
/* Delete Table */

static void
deleted_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(Call) call = user_data;
  DynWindow *self = call->window;
  g_autoptr(GError) error = NULL;
  gboolean ok = dyn_table_delete_finish (result, &error);
  g_autofree char *text = NULL;

  if (window_gone (self))
    return;
  job_end (self);
  if (!ok)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _dyn_window_show_error (self, "DeleteTable", error);
      return;
    }
  text = g_strdup_printf (_("Table %s deleted"), call->table);
  toast (self, text);
  if (g_strcmp0 (call->table, self->table) == 0)
    {
      self->gone = TRUE;
      self->load_all = FALSE;
      _dyn_window_set_status (self, text);
      dyn_table_details_set_info (self->table_details, NULL);
      gtk_stack_set_visible_child_name (self->view_stack, "items");
      _dyn_window_update_actions (self);
    }
  if (self->client != NULL)
    _dyn_window_list_tables (self);
}

static void
confirm_changed_cb (GtkEditable      *entry,
                    AdwMessageDialog *dialog)
{
  const char *table = g_object_get_data (G_OBJECT (dialog), "table");

  /* Exactly the name: not folded, not trimmed. */
  adw_message_dialog_set_response_enabled (dialog, "delete", g_strcmp0 (gtk_editable_get_text (entry), table) == 0);
}

/* Deletes the table once the guardrail allowed it: @data is { table, the name typed }. */
static void
delete_table_now (DynWindow *self,
                  gpointer   data)
{
  DynWindowTables *t = self->table_admin;
  char **names = data;
  g_autofree char *title = NULL;

  if (t->job != NULL || self->client == NULL)
    return;
  title = g_strdup_printf (_("Deleting %s"), names[0]);
  job_start (self, title);
  dyn_table_delete_async (self->client, names[0], names[1], t->job, deleted_cb, call_new (self, names[0], NULL));
}

static void
delete_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    DynWindow        *self)
{
  DynWindowTables *t = self->table_admin;
  const char *table = g_object_get_data (G_OBJECT (dialog), "table");
  g_autofree char *typed = t->confirm_entry ? g_strdup (gtk_editable_get_text (t->confirm_entry)) : NULL;
  g_autofree char *title = NULL;

  t->confirm_entry = NULL;
  if (g_strcmp0 (response, "delete") != 0 || t->job != NULL || self->client == NULL)
    return;
  {
    const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
    guint64 items = info != NULL && g_strcmp0 (info->name, table) == 0 ? MAX (info->item_count, 0) : 0;
    g_autoptr(DynWriteSummary) summary = NULL;
    char **names = g_new0 (char *, 3);

    title = g_strdup_printf (_("Delete table %s"), table);
    summary = dyn_write_summary_new_bulk (title, table, _("Delete the table with its items and indexes"), items, 0);
    names[0] = g_strdup (table);
    names[1] = g_steal_pointer (&typed);
    _dyn_window_guard_write (self, summary, delete_table_now, names, (GDestroyNotify) g_strfreev);
  }
}

static void
delete_table_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (self->table_details);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog, *entry;

  if (self->table == NULL || t->dialog != NULL || t->job != NULL)
    return;
  heading = g_strdup_printf (_("Delete Table %s?"), self->table);
  if (info != NULL && info->deletion_protection)
    body = g_strdup (_("The table has deletion protection: DynamoDB refuses to delete it until it is turned off."));
  else
    body = g_strdup_printf (_("The table, its indexes and every item in it are deleted; this cannot be undone. "
                              "Type the table's name, %s, to confirm."), self->table);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), self->table);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), FALSE);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "delete", _("_Delete Table"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "delete", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "delete", FALSE);
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "table", g_strdup (self->table), g_free);
  g_signal_connect (entry, "changed", G_CALLBACK (confirm_changed_cb), dialog);
  t->confirm_entry = GTK_EDITABLE (entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  set_dialog (self, dialog);
  gtk_widget_grab_focus (entry);
}

/* ------------------------------------------------------------------------ */

/* Another table described while the Table page is in front: its TTL
 * (DescribeTimeToLive) is asked for once. */
static void
details_info_cb (DynTableDetails *details,
                 GParamSpec      *pspec,
                 DynWindow       *self)
{
  DynWindowTables *t = self->table_admin;
  const DynTableInfo *info = dyn_table_details_get_info (details);

  _dyn_window_tables_update_actions (self);
  if (t == NULL || info == NULL || info->ttl_status != NULL || t->info_cancellable != NULL ||
      g_strcmp0 (t->ttl_asked, info->name) == 0 ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "details") != 0)
    return;
  g_free (t->ttl_asked);
  t->ttl_asked = g_strdup (info->name);
  _dyn_window_tables_refresh (self);
}

void
_dyn_window_class_tables_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.create-table", NULL, create_table_action);
  gtk_widget_class_install_action (widget_class, "win.count-exactly", NULL, count_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-table-job", NULL, cancel_job_action);
  gtk_widget_class_install_action (widget_class, "win.add-gsi", NULL, add_gsi_action);
  gtk_widget_class_install_action (widget_class, "win.delete-gsi", "s", delete_gsi_action);
  gtk_widget_class_install_action (widget_class, "win.enable-ttl", NULL, enable_ttl_action);
  gtk_widget_class_install_action (widget_class, "win.disable-ttl", NULL, disable_ttl_action);
  gtk_widget_class_install_action (widget_class, "win.truncate-table", NULL, truncate_action);
  gtk_widget_class_install_action (widget_class, "win.delete-table", NULL, delete_table_action);
}

void
_dyn_window_tables_init (DynWindow *self)
{
  self->table_admin = g_new0 (DynWindowTables, 1);
  g_signal_connect (self->view_stack, "notify::visible-child-name", G_CALLBACK (view_changed_cb), self);
  g_signal_connect (self->table_details, "notify::info", G_CALLBACK (details_info_cb), self);
  _dyn_window_tables_update_actions (self);
}

void
_dyn_window_tables_dispose (DynWindow *self)
{
  DynWindowTables *t = self->table_admin;

  if (t == NULL)
    return;
  if (t->job != NULL)
    g_cancellable_cancel (t->job);
  if (t->info_cancellable != NULL)
    g_cancellable_cancel (t->info_cancellable);
  g_clear_object (&t->job);
  g_clear_object (&t->info_cancellable);
  if (t->dialog != NULL)
    {
      GtkWidget *dialog = t->dialog;

      set_dialog (self, NULL);
      gtk_window_destroy (GTK_WINDOW (dialog));
    }
  g_free (t->job_title);
  g_free (t->ttl_asked);
  g_clear_pointer (&self->table_admin, g_free);
}

GtkWindow *
dyn_window_get_table_dialog (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);
  return self->table_admin && self->table_admin->dialog ? GTK_WINDOW (self->table_admin->dialog) : NULL;
}
