/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-window"

/* The window's Design page (widgets/dyn-design-view): a model file opened
 * (Dynoscope, NoSQL Workbench or CloudFormation JSON) or saved, a new design
 * from scratch or inferred from the open table, the live check on the
 * window's connection with its progress line and Cancel, and "Open in
 * Table": the checked table in the Items page, grouped by item collection.
 * The check keeps its scratch table so that it can be browsed; the one kept
 * is deleted before the next check and when the window closes (unless it is
 * the table open in the Items page then). Alt+5 shows the page. */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyn-design-view.h"
#include "dyn-window-private.h"

struct _DynWindowDesign
{
  DynDesignView        *view;
  GFile                *file;          /* the model file read or saved */
  gboolean              file_is_model; /* a Dynoscope model file: Save writes it again */
  GCancellable         *cancellable;   /* the check or the inference running */
  gboolean              checking;
  gboolean              inferring;
  char                 *kept_table;    /* the last check's scratch table */
  DynClient            *kept_client;   /* whose it is */
  GtkFileChooserNative *chooser;
  int                   export_format; /* the chooser's: a DynDesignFormat to export, -1 open or save */
};

static void
update_design_actions (DynWindow *self)
{
  DynWindowDesign *d = self->design;
  gboolean model = dyn_design_view_get_model (d->view) != NULL;
  gboolean running = d->checking || d->inferring;
  const DynDesignCheckReport *report = dyn_design_view_get_report (d->view);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-save", model);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-export", model && dyn_design_view_get_plan (d->view) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-check", model && !running && self->client != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-cancel-check", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-new", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-open", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.design-open-table",
                                 report != NULL && report->table != NULL && self->client != NULL && !running);
}

static void
view_changed_cb (DynDesignView *view,
                 DynWindow     *self)
{
  if (self->design != NULL)
    update_design_actions (self);
}

/* ------------------------------------------------------------------------ */
/* The scratch table kept for Open in Table */

static void
deleted_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  g_autofree char *table = user_data;

  if (response == NULL)
    g_debug ("Deleting the scratch table %s: %s", table, error->message);
}

/* Deletes the scratch table kept, unless it is open in the Items page
 * (and @even_open is FALSE). */
static void
drop_kept_table (DynWindow *self,
                 gboolean   even_open)
{
  DynWindowDesign *d = self->design;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) params = NULL;

  if (d->kept_table == NULL)
    return;
  if (!even_open && d->kept_client == self->client && g_strcmp0 (self->table, d->kept_table) == 0)
    {
      g_clear_pointer (&d->kept_table, g_free);
      g_clear_object (&d->kept_client);
      return;
    }
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "TableName");
  json_builder_add_string_value (builder, d->kept_table);
  json_builder_end_object (builder);
  params = json_builder_get_root (builder);
  /* Not cancelled with the window: the table goes also when it closes. */
  dyn_client_call_async (d->kept_client, "DeleteTable", params, NULL, deleted_cb, g_strdup (d->kept_table));
  g_clear_pointer (&d->kept_table, g_free);
  g_clear_object (&d->kept_client);
}

/* ------------------------------------------------------------------------ */
/* Opening and saving */

static void
set_model (DynWindow      *self,
           DynDesignModel *model,
           GFile          *file)
{
  DynWindowDesign *d = self->design;

  g_set_object (&d->file, file);
  d->file_is_model = file != NULL && model->source_format == DYN_DESIGN_FORMAT_DYNOSCOPE;
  dyn_design_view_set_model (d->view, model);
  dyn_design_view_set_page (d->view, "plan");
  gtk_stack_set_visible_child_name (self->view_stack, "design");
  update_design_actions (self);
}

gboolean
dyn_window_open_design_file (DynWindow  *self,
                             GFile      *file,
                             GError    **error)
{
  g_autofree char *path = NULL;
  DynDesignModel *model;

  g_return_val_if_fail (DYN_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local model files can be opened"));
      return FALSE;
    }
  model = dyn_design_model_load_file (path, NULL, error);
  if (model == NULL)
    return FALSE;
  set_model (self, model, file);
  return TRUE;
}

gboolean
dyn_window_save_design_file (DynWindow  *self,
                             GFile      *file,
                             GError    **error)
{
  DynWindowDesign *d;
  DynDesignModel *model;
  g_autofree char *path = NULL;

  g_return_val_if_fail (DYN_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  d = self->design;
  model = dyn_design_view_get_model (d->view);
  if (model == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No design is open"));
      return FALSE;
    }
  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Only local model files can be saved"));
      return FALSE;
    }
  if (!dyn_design_model_save_file (model, path, error))
    return FALSE;
  /* From now on it is a Dynoscope model file. */
  model->source_format = DYN_DESIGN_FORMAT_DYNOSCOPE;
  g_set_object (&d->file, file);
  d->file_is_model = TRUE;
  return TRUE;
}

gboolean
dyn_window_export_design_file (DynWindow      *self,
                               GFile          *file,
                               DynDesignFormat format,
                               GError        **error)
{
  DynWindowDesign *d;
  DynDesignModel *model;
  const DynDesignPlan *plan;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(JsonGenerator) gen = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYN_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  d = self->design;
  model = dyn_design_view_get_model (d->view);
  plan = dyn_design_view_get_plan (d->view);
  if (model == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No design is open"));
      return FALSE;
    }
  if (plan == NULL)
    {
      const GError *draft = dyn_design_view_get_draft_error (d->view);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The model has no plan to export: %s"),
                   draft ? draft->message : "");
      return FALSE;
    }
  json = dyn_design_export (model, plan, format, error);
  if (json == NULL)
    return FALSE;
  gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, json);
  text = json_generator_to_data (gen, NULL);
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE,
                                  NULL, NULL, error);
}

static void
chooser_response_cb (GtkNativeDialog *chooser,
                     int              response,
                     DynWindow       *self)
{
  gboolean save = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)) == GTK_FILE_CHOOSER_ACTION_SAVE;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (self->design == NULL)
    return;
  int export_format = self->design->export_format;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_object (&self->design->chooser);
  self->design->export_format = -1;
  if (file == NULL)
    return;
  if (save && export_format >= 0)
    {
      if (dyn_window_export_design_file (self, file, export_format, &error))
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *text = g_strdup_printf (_("Exported %s"), name);

          _dyn_window_show_message (self, text);
        }
      else
        _dyn_window_show_error (self, _("Exporting the model"), error);
    }
  else if (save)
    {
      if (dyn_window_save_design_file (self, file, &error))
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *text = g_strdup_printf (_("Saved %s"), name);

          _dyn_window_show_message (self, text);
        }
      else
        _dyn_window_show_error (self, _("Saving the model file"), error);
    }
  else if (!dyn_window_open_design_file (self, file, &error))
    _dyn_window_show_error (self, _("Opening the model file"), error);
}

static void
run_chooser (DynWindow           *self,
             GtkFileChooserAction action)
{
  DynWindowDesign *d = self->design;
  g_autoptr(GtkFileFilter) json = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();
  gboolean save = action == GTK_FILE_CHOOSER_ACTION_SAVE;

  if (d->chooser != NULL)
    return;
  d->chooser = gtk_file_chooser_native_new (save ? _("Save the Model File") : _("Open a Model File"),
                                            GTK_WINDOW (self), action,
                                            save ? _("_Save") : _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (d->chooser), TRUE);
  gtk_file_filter_set_name (json, _("Model files (Dynoscope, NoSQL Workbench, CloudFormation JSON)"));
  gtk_file_filter_add_pattern (json, "*.json");
  gtk_file_filter_add_mime_type (json, "application/json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (d->chooser), json);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (d->chooser), all);
  if (save)
    {
      DynDesignModel *model = dyn_design_view_get_model (d->view);
      const char *suffix = d->export_format == DYN_DESIGN_FORMAT_WORKBENCH ? "-workbench" :
                           d->export_format == DYN_DESIGN_FORMAT_CLOUDFORMATION ? "-cloudformation" :
                           d->export_format == DYN_DESIGN_FORMAT_CREATE_TABLE ? "-create-table" : "";
      g_autofree char *name = g_strdup_printf ("%s%s.json", model && model->name ? model->name : "design", suffix);

      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (d->chooser), name);
    }
  g_signal_connect (d->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (d->chooser));
}

static void
design_open_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  run_chooser (DYN_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN);
}

/* Save writes a Dynoscope model file back where it was read; a model read
 * from another format (or new) is saved as a Dynoscope file under a name
 * the user chooses, so that a NoSQL Workbench file is never overwritten. */
static void
design_save_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowDesign *d = self->design;
  g_autoptr(GError) error = NULL;

  if (dyn_design_view_get_model (d->view) == NULL)
    return;
  if (d->file == NULL || !d->file_is_model)
    {
      run_chooser (self, GTK_FILE_CHOOSER_ACTION_SAVE);
      return;
    }
  if (dyn_window_save_design_file (self, d->file, &error))
    {
      g_autofree char *name = g_file_get_basename (d->file);
      g_autofree char *text = g_strdup_printf (_("Saved %s"), name);

      _dyn_window_show_message (self, text);
    }
  else
    _dyn_window_show_error (self, _("Saving the model file"), error);
}

/* Save As (a Dynoscope model file) or Export (NoSQL Workbench,
 * CloudFormation, create-table), each to a file the user chooses. */
static void
design_export_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowDesign *d = self->design;
  DynDesignFormat format;

  if (dyn_design_view_get_model (d->view) == NULL || d->chooser != NULL)
    return;
  if (!dyn_design_format_from_string (g_variant_get_string (parameter, NULL), &format))
    return;
  d->export_format = format == DYN_DESIGN_FORMAT_DYNOSCOPE ? -1 : (int) format;
  run_chooser (self, GTK_FILE_CHOOSER_ACTION_SAVE);
}

/* ------------------------------------------------------------------------ */
/* New: from scratch, or inferred from the open table */

static void
infer_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_infer_finish (DYN_CLIENT (source), result, &error);

  if (self->design == NULL)   /* the window is gone */
    {
      g_clear_pointer (&model, dyn_design_model_free);
      return;
    }
  _dyn_window_set_busy (self, FALSE);
  self->design->inferring = FALSE;
  dyn_design_view_set_progress (self->design->view, NULL);
  if (model == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _dyn_window_show_error (self, _("Inferring a model"), error);
      update_design_actions (self);
      return;
    }
  set_model (self, model, NULL);
}

static void
design_new_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowDesign *d = self->design;
  const char *how = g_variant_get_string (parameter, NULL);

  if (d->checking || d->inferring)
    return;
  if (g_strcmp0 (how, "infer") != 0)
    {
      set_model (self, dyn_design_model_new (_("New Design")), NULL);
      return;
    }
  if (self->client == NULL || self->table == NULL)
    {
      _dyn_window_show_message (self, _("Open a table first: its entities, keys and indexes are inferred from it"));
      return;
    }
  g_clear_object (&d->cancellable);
  d->cancellable = g_cancellable_new ();
  d->inferring = TRUE;
  {
    g_autofree char *text = g_strdup_printf (_("Inferring a model from %s …"), self->table);

    dyn_design_view_set_progress (d->view, text);
  }
  _dyn_window_set_busy (self, TRUE);
  update_design_actions (self);
  gtk_stack_set_visible_child_name (self->view_stack, "design");
  dyn_design_infer_async (self->client, self->table, 0, d->cancellable, infer_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* The check */

typedef struct {
  DynWindow *window;   /* weak */
} CheckData;

static void
check_progress_cb (const char *message,
                   gpointer    user_data)
{
  CheckData *data = user_data;

  if (data->window != NULL && data->window->design != NULL)
    dyn_design_view_set_progress (data->window->design->view, message);
}

static void
check_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  CheckData *data = user_data;
  DynWindow *self = data->window;
  g_autoptr(GError) error = NULL;
  DynDesignCheckReport *report = dyn_design_check_finish (DYN_CLIENT (source), result, &error);
  DynWindowDesign *d;

  g_clear_weak_pointer (&data->window);
  g_free (data);
  if (self == NULL || self->design == NULL)
    {
      /* The window is gone: so goes the scratch table. */
      if (report != NULL && report->scratch && report->table != NULL)
        {
          g_autoptr(JsonBuilder) builder = json_builder_new ();
          g_autoptr(JsonNode) params = NULL;

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "TableName");
          json_builder_add_string_value (builder, report->table);
          json_builder_end_object (builder);
          params = json_builder_get_root (builder);
          dyn_client_call_async (DYN_CLIENT (source), "DeleteTable", params, NULL, deleted_cb, g_strdup (report->table));
        }
      g_clear_pointer (&report, dyn_design_check_report_free);
      return;
    }
  d = self->design;
  _dyn_window_set_busy (self, FALSE);
  d->checking = FALSE;
  dyn_design_view_set_progress (d->view, NULL);
  if (report == NULL)
    {
      g_autofree char *text = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        text = g_strdup (_("The check was cancelled"));
      else
        text = g_strdup_printf (_("The check failed: %s"), error->message);
      dyn_design_view_set_check_error (d->view, text);
      update_design_actions (self);
      return;
    }
  if (report->scratch && report->table != NULL)
    {
      d->kept_table = g_strdup (report->table);
      g_set_object (&d->kept_client, DYN_CLIENT (source));
    }
  dyn_design_view_set_report (d->view, report);
  update_design_actions (self);
}

static void
design_check_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  DynWindowDesign *d = self->design;
  DynDesignModel *model = dyn_design_view_get_model (d->view);
  DynDesignCheckOptions options = { 0 };
  CheckData *data;

  if (model == NULL || d->checking || d->inferring)
    return;
  if (self->client == NULL)
    {
      _dyn_window_show_message (self, _("Open a connection first: the check runs on it (DynamoDB Local is fine)"));
      return;
    }
  drop_kept_table (self, FALSE);
  options.table = dyn_design_view_get_check_table (d->view);
  options.write_examples = FALSE;
  /* Kept for Open in Table; deleted before the next check. */
  options.keep_table = TRUE;
  options.seed = 1;
  g_clear_object (&d->cancellable);
  d->cancellable = g_cancellable_new ();
  d->checking = TRUE;
  dyn_design_view_set_report (d->view, NULL);
  dyn_design_view_set_progress (d->view, _("Starting the check …"));
  dyn_design_view_set_page (d->view, "check");
  _dyn_window_set_busy (self, TRUE);
  update_design_actions (self);
  data = g_new0 (CheckData, 1);
  g_set_weak_pointer (&data->window, self);
  dyn_design_check_async (self->client, model, &options, check_progress_cb, data, d->cancellable, check_cb, data);
}

static void
design_cancel_check_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);

  if (self->design->cancellable != NULL)
    g_cancellable_cancel (self->design->cancellable);
}

/* The checked table in the Items page, grouped by item collection; the
 * table list is read again first when the table is new to it. */
static void
design_open_table_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  DynWindow *self = DYN_WINDOW (widget);
  const DynDesignCheckReport *report = dyn_design_view_get_report (self->design->view);

  if (report == NULL || report->table == NULL || self->client == NULL)
    return;
  dyn_item_grid_set_grouped (self->grid, TRUE);
  gtk_stack_set_visible_child_name (self->view_stack, "items");
  if (self->tables != NULL && g_strv_contains ((const char * const *) self->tables, report->table))
    dyn_window_open_table (self, report->table);
  else
    {
      g_free (self->pending_table);
      self->pending_table = g_strdup (report->table);
      _dyn_window_list_tables (self);
    }
}

void
_dyn_window_class_design_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.design-open", NULL, design_open_action);
  gtk_widget_class_install_action (widget_class, "win.design-save", NULL, design_save_action);
  gtk_widget_class_install_action (widget_class, "win.design-export", "s", design_export_action);
  gtk_widget_class_install_action (widget_class, "win.design-new", "s", design_new_action);
  gtk_widget_class_install_action (widget_class, "win.design-check", NULL, design_check_action);
  gtk_widget_class_install_action (widget_class, "win.design-cancel-check", NULL, design_cancel_check_action);
  gtk_widget_class_install_action (widget_class, "win.design-open-table", NULL, design_open_table_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_5, GDK_ALT_MASK, "win.show-view", "s", "design");
}

void
_dyn_window_design_init (DynWindow *self)
{
  DynWindowDesign *d = g_new0 (DynWindowDesign, 1);
  GtkStackPage *page;

  self->design = d;
  d->export_format = -1;
  d->view = DYN_DESIGN_VIEW (dyn_design_view_new ());
  page = gtk_stack_add_titled (self->view_stack, GTK_WIDGET (d->view), "design", _("Design"));
  gtk_stack_page_set_icon_name (page, "applications-engineering-symbolic");
  g_signal_connect_object (d->view, "changed", G_CALLBACK (view_changed_cb), self, 0);
  update_design_actions (self);
}

/* A new client (connection): its endpoint in the snippets, its tables to
 * check against. */
void
_dyn_window_design_set_client (DynWindow *self)
{
  DynWindowDesign *d = self->design;

  if (d == NULL)
    return;
  dyn_design_view_set_endpoint (d->view, self->client ? dyn_client_get_endpoint (self->client) : NULL,
                                self->client ? dyn_client_get_region (self->client) : NULL);
  dyn_design_view_set_tables (d->view, NULL);
  update_design_actions (self);
}

/* The table list was read: the tables to check against. */
void
_dyn_window_design_tables_changed (DynWindow *self)
{
  DynWindowDesign *d = self->design;

  if (d == NULL)
    return;
  dyn_design_view_set_tables (d->view, (const char * const *) self->tables);
  update_design_actions (self);
}

void
_dyn_window_design_dispose (DynWindow *self)
{
  DynWindowDesign *d = self->design;

  if (d == NULL)
    return;
  g_cancellable_cancel (d->cancellable);
  /* The table open in the Items page goes too: the window closes. */
  drop_kept_table (self, TRUE);
  self->design = NULL;
  if (d->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_func (d->chooser, chooser_response_cb, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (d->chooser));
      g_clear_object (&d->chooser);
    }
  g_clear_object (&d->cancellable);
  g_clear_object (&d->file);
  g_clear_object (&d->kept_client);
  g_free (d->kept_table);
  g_free (d);
}

DynDesignView *
dyn_window_get_design_view (DynWindow *self)
{
  g_return_val_if_fail (DYN_IS_WINDOW (self), NULL);

  return self->design ? self->design->view : NULL;
}
