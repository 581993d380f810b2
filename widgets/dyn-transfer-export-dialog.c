/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

/* The Export dialog: what (the table, an index, the read the window shows),
 * the format, the Scan segments and the output; then the export's progress
 * with Stop, and Resume when a checkpoint of the output is left. */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "dyn-transfer-export-dialog.h"

struct _DynTransferExportDialog
{
  AdwWindow               parent_instance;

  DynClient              *client;
  DynTableKeys           *keys;
  DynRequest             *current;
  guint64                 item_count;
  GArray                 *sources;      /* DynExportSource per row of source_row */
  GPtrArray              *indexes;      /* the index name per row (NULL for the others) */
  char                   *output;
  gboolean                output_confirmed; /* chosen in the file chooser: overwriting was confirmed */
  DynExportJob           *job;
  GCancellable           *cancellable;
  DynTransferState        state;
  char                   *message;
  GtkFileChooserNative   *chooser;

  GtkWidget              *start_button;
  GtkWidget              *resume_button;
  GtkWidget              *cancel_button;
  GtkRevealer            *error_revealer;
  GtkLabel               *error_label;
  AdwComboRow            *source_row;
  AdwComboRow            *format_row;
  AdwActionRow           *segments_row;
  GtkSpinButton          *segments_spin;
  AdwActionRow           *output_row;
  GtkWidget              *progress_group;
  DynTransferProgressBar *progress;
};

G_DEFINE_FINAL_TYPE (DynTransferExportDialog, dyn_transfer_export_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_error (DynTransferExportDialog *self,
            const char              *text)
{
  gtk_label_set_label (self->error_label, text ? text : "");
  gtk_revealer_set_reveal_child (self->error_revealer, text != NULL);
}

static DynTransferFormat
get_format (DynTransferExportDialog *self)
{
  return (DynTransferFormat) adw_combo_row_get_selected (self->format_row);
}

DynRequest *
dyn_transfer_export_dialog_dup_request (DynTransferExportDialog  *self,
                                        GError                  **error)
{
  guint row;

  g_return_val_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self), NULL);

  row = adw_combo_row_get_selected (self->source_row);
  if (row >= self->sources->len)
    row = 0;
  return dyn_export_source_request (g_array_index (self->sources, DynExportSource, row), self->keys->table.name,
                                    g_ptr_array_index (self->indexes, row), self->current, error);
}

static void
update (DynTransferExportDialog *self)
{
  gboolean running = self->state == DYN_TRANSFER_STATE_RUNNING;
  gboolean resumable = !running && dyn_export_can_resume (self->output);
  g_autoptr(DynRequest) request = dyn_transfer_export_dialog_dup_request (self, NULL);
  gboolean scan = request != NULL && dyn_export_request_can_segment (request);
  g_autofree char *shown = NULL;

  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->resume_button, resumable);
  /* An output with a checkpoint is resumed, or another output chosen: the
   * checkpoint is never thrown away here. */
  gtk_widget_set_visible (self->start_button, !running && !resumable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.start",
                                 !running && !resumable && request != NULL && self->output != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.resume", resumable && request != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.choose-output", !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->source_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->format_row), !running);
  /* A Query reads one partition in order: no segments. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->segments_row), !running && scan);
  if (self->output == NULL)
    shown = g_strdup (get_format (self) == DYN_TRANSFER_FORMAT_S3 ? _("No folder chosen") : _("No file chosen"));
  else if (resumable)
    shown = g_strdup_printf (_("%s — an export to it stopped midway: Resume continues it, or choose another output"), self->output);
  else
    shown = g_strdup (self->output);
  adw_action_row_set_subtitle (self->output_row, shown);
}

static void
set_message (DynTransferExportDialog *self,
             const char              *text)
{
  g_free (self->message);
  self->message = g_strdup (text);
  dyn_transfer_progress_bar_set_text (self->progress, text);
}

static void
progress_cb (const DynTransferProgress *progress,
             gpointer                   user_data)
{
  DynTransferExportDialog *self = user_data;

  dyn_transfer_progress_bar_update (self->progress, progress);
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(DynTransferExportDialog) self = user_data;
  DynExportJob *job = DYN_EXPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  const DynTransferProgress *progress = dyn_export_job_get_progress (job);

  if (job != self->job)
    return;
  g_clear_object (&self->cancellable);
  if (dyn_export_job_run_finish (job, result, &error))
    {
      g_autofree char *text = dyn_export_describe_done (progress, self->output);

      self->state = DYN_TRANSFER_STATE_DONE;
      dyn_transfer_progress_bar_update (self->progress, progress);
      dyn_transfer_progress_bar_set_fraction (self->progress, 1.0);
      set_message (self, text);
      update (self);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, text);
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *described = dyn_transfer_progress_describe (progress);
      g_autofree char *text = g_strdup_printf (_("Stopped: %s. Resume continues from the checkpoint."), described);

      self->state = DYN_TRANSFER_STATE_STOPPED;
      set_message (self, text);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("The export failed: %s"), error->message);

      self->state = DYN_TRANSFER_STATE_FAILED;
      set_message (self, text);
      show_error (self, text);
    }
  update (self);
}

static void
start (DynTransferExportDialog *self,
       gboolean                 resume)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = dyn_transfer_export_dialog_dup_request (self, &error);
  g_autoptr(GPtrArray) key_names = g_ptr_array_new ();
  DynExportOptions options = { 0 };
  DynExportSource source = g_array_index (self->sources, DynExportSource,
                                          MIN (adw_combo_row_get_selected (self->source_row), self->sources->len - 1));
  const DynIndexInfo *info;

  if (request == NULL)
    {
      show_error (self, error->message);
      return;
    }
  if (self->output == NULL)
    return;
  /* The file chooser asked before overwriting: an old file goes now (a
   * folder, an S3 export, is never removed here). */
  if (!resume && self->output_confirmed && g_file_test (self->output, G_FILE_TEST_IS_REGULAR))
    g_unlink (self->output);

  info = dyn_table_keys_lookup (self->keys, request->index);
  if (info == NULL)
    info = &self->keys->table;
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (&self->keys->table.keys); i++)
    g_ptr_array_add (key_names, (gpointer) dyn_key_schema_get_attribute (&self->keys->table.keys, i, NULL));
  for (guint i = 0; info != &self->keys->table && i < dyn_key_schema_get_n_attributes (&info->keys); i++)
    {
      const char *name = dyn_key_schema_get_attribute (&info->keys, i, NULL);

      if (!g_ptr_array_find_with_equal_func (key_names, name, g_str_equal, NULL))
        g_ptr_array_add (key_names, (gpointer) name);
    }
  g_ptr_array_add (key_names, NULL);

  options.format = get_format (self);
  options.output = self->output;
  options.segments = dyn_export_request_can_segment (request) ? (guint) gtk_spin_button_get_value_as_int (self->segments_spin) : 1;
  options.resume = resume;
  options.key_names = (const char * const *) key_names->pdata;
  options.items_total = source == DYN_EXPORT_SOURCE_TABLE ? self->item_count : 0;

  g_clear_object (&self->job);
  self->job = dyn_export_job_new (self->client, request, &options, &error);
  if (self->job == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The export cannot start: %s"), error->message);

      self->state = DYN_TRANSFER_STATE_FAILED;
      g_free (self->message);
      self->message = g_strdup (text);
      show_error (self, text);
      update (self);
      return;
    }
  show_error (self, NULL);
  self->state = DYN_TRANSFER_STATE_RUNNING;
  gtk_widget_set_visible (self->progress_group, TRUE);
  dyn_transfer_progress_bar_reset (self->progress);
  g_clear_pointer (&self->message, g_free);
  self->cancellable = g_cancellable_new ();
  dyn_export_job_run_async (self->job, self->cancellable, progress_cb, self, run_cb, g_object_ref (self));
  update (self);
}

static void
start_action (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  start (DYN_TRANSFER_EXPORT_DIALOG (widget), FALSE);
}

static void
resume_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  start (DYN_TRANSFER_EXPORT_DIALOG (widget), TRUE);
}

static void
cancel_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  DynTransferExportDialog *self = DYN_TRANSFER_EXPORT_DIALOG (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
chooser_response_cb (GtkNativeDialog         *chooser,
                     int                      response,
                     DynTransferExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL && get_format (self) == DYN_TRANSFER_FORMAT_S3)
        {
          /* An S3 export is a folder of its own inside the one chosen. */
          g_autofree char *name = dyn_transfer_suggest_file_name (self->keys->table.name, NULL,
                                                                  DYN_TRANSFER_FORMAT_S3, NULL);
          g_autofree char *folder = g_build_filename (path, name, NULL);

          dyn_transfer_export_dialog_set_output (self, folder);
        }
      else if (path != NULL)
        {
          dyn_transfer_export_dialog_set_output (self, path);
          self->output_confirmed = TRUE;
        }
      else
        show_error (self, _("Only a local file can be written"));
    }
  g_clear_object (&self->chooser);
}

static void
choose_output_action (GtkWidget  *widget,
                      const char *name,
                      GVariant   *parameter)
{
  DynTransferExportDialog *self = DYN_TRANSFER_EXPORT_DIALOG (widget);
  gboolean folder = get_format (self) == DYN_TRANSFER_FORMAT_S3;
  g_autoptr(DynRequest) request = dyn_transfer_export_dialog_dup_request (self, NULL);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (folder ? _("Export Into Folder") : _("Export To"), GTK_WINDOW (self),
                                               folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_SAVE,
                                               folder ? _("_Select") : _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (!folder)
    {
      g_autofree char *suggested = dyn_transfer_suggest_file_name (self->keys->table.name,
                                                                   request ? request->index : NULL,
                                                                   get_format (self), NULL);

      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested);
    }
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
row_changed_cb (GObject                 *row,
                GParamSpec              *pspec,
                DynTransferExportDialog *self)
{
  update (self);
}

static gboolean
close_request_cb (GtkWindow *window)
{
  DynTransferExportDialog *self = DYN_TRANSFER_EXPORT_DIALOG (window);

  /* Closing stops the export; its checkpoint stays for a resume. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return FALSE;
}

static void
dyn_transfer_export_dialog_dispose (GObject *object)
{
  DynTransferExportDialog *self = DYN_TRANSFER_EXPORT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_TRANSFER_EXPORT_DIALOG);
  G_OBJECT_CLASS (dyn_transfer_export_dialog_parent_class)->dispose (object);
}

static void
dyn_transfer_export_dialog_finalize (GObject *object)
{
  DynTransferExportDialog *self = DYN_TRANSFER_EXPORT_DIALOG (object);

  g_clear_object (&self->client);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_pointer (&self->current, dyn_request_free);
  g_clear_pointer (&self->sources, g_array_unref);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);
  g_free (self->output);
  g_free (self->message);
  G_OBJECT_CLASS (dyn_transfer_export_dialog_parent_class)->finalize (object);
}

static void
dyn_transfer_export_dialog_class_init (DynTransferExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dyn_transfer_export_dialog_dispose;
  object_class->finalize = dyn_transfer_export_dialog_finalize;
  window_class->close_request = close_request_cb;

  /**
   * DynTransferExportDialog::finished:
   * @text: the end's sentence: items, bytes and RCU
   *
   * The export is complete.
   */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                           NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (DYN_TYPE_TRANSFER_PROGRESS_BAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-transfer-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, resume_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, source_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, segments_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, segments_spin);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, output_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, progress_group);
  gtk_widget_class_bind_template_child (widget_class, DynTransferExportDialog, progress);

  gtk_widget_class_install_action (widget_class, "transfer.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "transfer.resume", NULL, resume_action);
  gtk_widget_class_install_action (widget_class, "transfer.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "transfer.choose-output", NULL, choose_output_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyn_transfer_export_dialog_init (DynTransferExportDialog *self)
{
  const char *formats[] = {
    N_("DynamoDB JSON Lines"), N_("JSON Lines (plain, exact numbers)"), N_("CSV (typed header)"),
    N_("S3 Export Folder (manifests, data/*.json.gz)"), NULL,
  };
  g_autoptr(GtkStringList) format_names = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->sources = g_array_new (FALSE, FALSE, sizeof (DynExportSource));
  self->indexes = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; formats[i] != NULL; i++)
    gtk_string_list_append (format_names, _(formats[i]));
  adw_combo_row_set_model (self->format_row, G_LIST_MODEL (format_names));
  g_signal_connect (self->format_row, "notify::selected", G_CALLBACK (row_changed_cb), self);
  g_signal_connect (self->source_row, "notify::selected", G_CALLBACK (row_changed_cb), self);
}

static void
add_source (DynTransferExportDialog *self,
            GtkStringList           *names,
            DynExportSource          source,
            const char              *index,
            const char              *label)
{
  g_array_append_val (self->sources, source);
  g_ptr_array_add (self->indexes, g_strdup (index));
  gtk_string_list_append (names, label);
}

DynTransferExportDialog *
dyn_transfer_export_dialog_new (GtkWindow          *parent,
                                DynClient          *client,
                                const DynTableKeys *keys,
                                const DynRequest   *current,
                                const char         *current_label,
                                guint64             item_count)
{
  DynTransferExportDialog *self;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree char *table = NULL;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (keys != NULL, NULL);

  self = g_object_new (DYN_TYPE_TRANSFER_EXPORT_DIALOG, "transient-for", parent, NULL);
  self->client = g_object_ref (client);
  self->keys = dyn_table_keys_copy (keys);
  self->current = current && (current->op == DYN_OP_QUERY || current->op == DYN_OP_SCAN) ? dyn_request_copy (current) : NULL;
  self->item_count = item_count;

  table = g_strdup_printf (_("The table %s"), keys->table.name);
  add_source (self, names, DYN_EXPORT_SOURCE_TABLE, NULL, table);
  for (guint i = 0; keys->indexes != NULL && i < keys->indexes->len; i++)
    {
      const DynIndexInfo *index = g_ptr_array_index (keys->indexes, i);
      g_autofree char *label = g_strdup_printf (_("The index %s"), index->name);

      add_source (self, names, DYN_EXPORT_SOURCE_INDEX, index->name, label);
    }
  if (self->current != NULL)
    {
      g_autofree char *label = g_strdup_printf (_("The result shown (%s)"),
                                                current_label ? current_label : dyn_operation_get_name (current->op));

      add_source (self, names, DYN_EXPORT_SOURCE_RESULT, NULL, label);
    }
  adw_combo_row_set_model (self->source_row, G_LIST_MODEL (names));
  update (self);
  return self;
}

void
dyn_transfer_export_dialog_set_source (DynTransferExportDialog *self,
                                       DynExportSource          source,
                                       const char              *index)
{
  g_return_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self));

  for (guint i = 0; i < self->sources->len; i++)
    if (g_array_index (self->sources, DynExportSource, i) == source &&
        (source != DYN_EXPORT_SOURCE_INDEX || g_strcmp0 (g_ptr_array_index (self->indexes, i), index) == 0))
      {
        adw_combo_row_set_selected (self->source_row, i);
        return;
      }
  g_warning ("No such export source");
}

void
dyn_transfer_export_dialog_set_format (DynTransferExportDialog *self,
                                       DynTransferFormat        format)
{
  g_return_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self));
  adw_combo_row_set_selected (self->format_row, format);
}

void
dyn_transfer_export_dialog_set_segments (DynTransferExportDialog *self,
                                         guint                    segments)
{
  g_return_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self));
  gtk_spin_button_set_value (self->segments_spin, segments);
}

void
dyn_transfer_export_dialog_set_output (DynTransferExportDialog *self,
                                       const char              *path)
{
  g_return_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self));
  g_free (self->output);
  self->output = path && *path ? g_strdup (path) : NULL;
  self->output_confirmed = FALSE;
  update (self);
}

const char *
dyn_transfer_export_dialog_get_output (DynTransferExportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self), NULL);
  return self->output;
}

DynTransferState
dyn_transfer_export_dialog_get_state (DynTransferExportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self), DYN_TRANSFER_STATE_IDLE);
  return self->state;
}

DynExportJob *
dyn_transfer_export_dialog_get_job (DynTransferExportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self), NULL);
  return self->job;
}

const char *
dyn_transfer_export_dialog_get_message (DynTransferExportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_EXPORT_DIALOG (self), NULL);
  return self->message;
}
