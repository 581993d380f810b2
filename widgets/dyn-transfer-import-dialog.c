/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

/* The Import dialog: the file (or S3 export folder) and its detected
 * format, the table (this one or a new one with a chosen key schema), never
 * overwrite, a WCU/s limit and skip bad lines; the dry run that always comes
 * first, with its bad lines; then the run with Stop and Resume, its summary
 * and Verify. */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-guardrail.h"
#include "dyn-table-admin.h"
#include "dyn-transfer-import-dialog.h"

#define MAX_ROWS 200

struct _DynTransferImportDialog
{
  AdwWindow               parent_instance;

  DynClient              *client;
  DynGuardrail           *guardrail;   /* asked before anything is written, or NULL */
  DynTableKeys           *keys;         /* the window's table, or NULL */
  char                   *input;
  DynImportJob           *dry_job;      /* the last dry run */
  gboolean                checked;      /* the dry run of the current settings finished */
  gboolean                check_failed;
  DynImportJob           *job;          /* the last run */
  gboolean                resumable;    /* a checkpoint of this input and table exists */
  char                   *created_table; /* the new table this dialog created */
  GCancellable           *check_cancellable;
  GCancellable           *cancellable;
  DynTransferState        state;
  char                   *message;
  char                   *verify_text;
  GPtrArray              *shown;        /* DynImportProblem (the jobs' own), as listed */
  guint                   check_id;
  gboolean                setting;      /* rows set from code: no second check */
  GtkFileChooserNative   *chooser;

  GtkWidget              *start_button;
  GtkWidget              *resume_button;
  GtkWidget              *cancel_button;
  GtkSpinner             *spinner;
  GtkRevealer            *error_revealer;
  GtkLabel               *error_label;
  AdwActionRow           *input_row;
  AdwComboRow            *format_row;
  AdwComboRow            *target_row;
  AdwEntryRow            *table_row;
  AdwEntryRow            *pk_row;
  GtkDropDown            *pk_type;
  AdwEntryRow            *sk_row;
  GtkDropDown            *sk_type;
  GtkSwitch              *never_overwrite_switch;
  GtkSpinButton          *wcu_spin;
  GtkSwitch              *skip_bad_switch;
  AdwPreferencesGroup    *check_group;
  GtkListBox             *problem_list;
  GtkWidget              *progress_group;
  DynTransferProgressBar *progress;
  GtkWidget              *verify_button;
  GtkLabel               *verify_label;
};

G_DEFINE_FINAL_TYPE (DynTransferImportDialog, dyn_transfer_import_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const DynValueType key_types[] = { DYN_VALUE_S, DYN_VALUE_N, DYN_VALUE_B };

static void schedule_check (DynTransferImportDialog *self);

static void
show_error (DynTransferImportDialog *self,
            const char              *text)
{
  gtk_label_set_label (self->error_label, text ? text : "");
  gtk_revealer_set_reveal_child (self->error_revealer, text != NULL);
}

static void
set_message (DynTransferImportDialog *self,
             const char              *text)
{
  g_free (self->message);
  self->message = g_strdup (text);
}

static gboolean
is_new_table (DynTransferImportDialog *self)
{
  return self->keys == NULL || adw_combo_row_get_selected (self->target_row) == 1;
}

const char *
dyn_transfer_import_dialog_get_table (DynTransferImportDialog *self)
{
  const char *name;

  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  if (!is_new_table (self))
    return self->keys->table.name;
  name = gtk_editable_get_text (GTK_EDITABLE (self->table_row));
  return name && *name ? name : NULL;
}

/* The keys the file's items must carry: the table's, or the new table's
 * from the rows (NULL and why when they are not filled in). */
static DynTableKeys *
dup_target_keys (DynTransferImportDialog  *self,
                 GError                  **error)
{
  const char *table, *pk, *sk;

  if (!is_new_table (self))
    return dyn_table_keys_copy (self->keys);
  table = dyn_transfer_import_dialog_get_table (self);
  pk = gtk_editable_get_text (GTK_EDITABLE (self->pk_row));
  sk = gtk_editable_get_text (GTK_EDITABLE (self->sk_row));
  if (table == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Give the new table a name"));
      return NULL;
    }
  if (pk == NULL || *pk == '\0')
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Give the new table's partition key"));
      return NULL;
    }
  return dyn_table_keys_new (table, pk, key_types[MIN (gtk_drop_down_get_selected (self->pk_type), 2)],
                             sk && *sk ? sk : NULL, key_types[MIN (gtk_drop_down_get_selected (self->sk_type), 2)]);
}

static const DynImportSummary *
dry_summary (DynTransferImportDialog *self)
{
  return self->checked && self->dry_job != NULL ? dyn_import_job_get_summary (self->dry_job) : NULL;
}

static void
update (DynTransferImportDialog *self)
{
  gboolean running = self->state == DYN_TRANSFER_STATE_RUNNING;
  gboolean checking = self->state == DYN_TRANSFER_STATE_CHECKING;
  const DynImportSummary *summary = dry_summary (self);
  gboolean allowed = summary != NULL && dyn_import_dry_run_allows (summary, gtk_switch_get_active (self->skip_bad_switch));
  gboolean new_table = is_new_table (self);

  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (self->start_button, !running);
  gtk_widget_set_visible (self->resume_button, !running && self->resumable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.start", !running && !checking && allowed);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.resume", !running && !checking && allowed && self->resumable);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.choose-input", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "transfer.verify",
                                 !running && self->job != NULL && self->state == DYN_TRANSFER_STATE_DONE);
  gtk_widget_set_visible (self->verify_button, self->job != NULL && self->state == DYN_TRANSFER_STATE_DONE);
  gtk_spinner_set_spinning (self->spinner, checking);
  gtk_widget_set_visible (GTK_WIDGET (self->table_row), new_table);
  gtk_widget_set_visible (GTK_WIDGET (self->pk_row), new_table);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_row), new_table);
  gtk_widget_set_sensitive (GTK_WIDGET (self->format_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->target_row), !running && self->keys != NULL);
  /* What a run was checked and started with stays as it is while it runs. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->table_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->pk_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_row), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->never_overwrite_switch), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->wcu_spin), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->skip_bad_switch), !running);
  adw_action_row_set_subtitle (self->input_row, self->input ? self->input : _("No file chosen"));
  gtk_button_set_label (GTK_BUTTON (self->start_button),
                        self->resumable && !running ? _("Start _Over") : _("_Import"));
}

/* ------------------------------------------------------------------------ */
/* The list of problems */

static const char *
kind_label (DynImportProblemKind kind)
{
  switch (kind)
    {
    case DYN_IMPORT_PROBLEM_BAD_LINE:
      return _("Bad line");
    case DYN_IMPORT_PROBLEM_EXISTS:
      return _("Exists");
    case DYN_IMPORT_PROBLEM_DUPLICATE:
      return _("Duplicate key");
    case DYN_IMPORT_PROBLEM_MISSING:
      return _("Missing");
    case DYN_IMPORT_PROBLEM_DIFFERENT:
    default:
      return _("Different");
    }
}

static void
clear_problems (DynTransferImportDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->problem_list))) != NULL)
    gtk_list_box_remove (self->problem_list, child);
  g_ptr_array_set_size (self->shown, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->problem_list), FALSE);
}

/* Lists @problems from @from on (the ones not yet listed). */
static void
add_problems (DynTransferImportDialog *self,
              GPtrArray               *problems,
              guint                    from)
{
  guint rows = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self->problem_list)); c; c = gtk_widget_get_next_sibling (c))
    rows++;
  for (guint i = from; problems != NULL && i < problems->len; i++)
    {
      DynImportProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *title = NULL;
      GtkWidget *row;
      GtkWidget *tag;

      g_ptr_array_add (self->shown, problem);
      if (rows >= MAX_ROWS)
        continue;
      rows++;
      row = adw_action_row_new ();
      title = g_strdup_printf ("%s", problem->where ? problem->where : "");
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), problem->message ? problem->message : "");
      tag = gtk_label_new (kind_label (problem->kind));
      gtk_widget_set_valign (tag, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (tag, problem->kind == DYN_IMPORT_PROBLEM_BAD_LINE ||
                                     problem->kind == DYN_IMPORT_PROBLEM_MISSING ||
                                     problem->kind == DYN_IMPORT_PROBLEM_DIFFERENT ? "error" : "warning");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), tag);
      gtk_list_box_append (self->problem_list, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->problem_list), self->shown->len > 0);
}

/* ------------------------------------------------------------------------ */
/* The dry run */

static void
check_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynTransferImportDialog) self = user_data;
  DynImportJob *job = DYN_IMPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  gboolean ok = dyn_import_job_run_finish (job, result, &error);
  const DynImportSummary *summary;
  g_autofree char *text = NULL;
  g_autofree char *described = NULL;

  if (job != self->dry_job || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->check_cancellable);
  self->state = DYN_TRANSFER_STATE_IDLE;
  summary = dyn_import_job_get_summary (job);
  /* Bad records end a dry run with INVALID_VALUE: it was read to the end. */
  if (!ok && !g_error_matches (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE))
    {
      text = g_strdup_printf (_("The file cannot be read: %s"), error->message);
      self->check_failed = TRUE;
      adw_preferences_group_set_description (self->check_group, text);
      set_message (self, text);
      show_error (self, text);
      update (self);
      return;
    }
  self->checked = TRUE;
  described = dyn_import_describe_dry_run (summary);
  if (summary->items == 0)
    text = g_strdup_printf (_("%s. There is nothing to import."), described);
  else if (summary->bad == 0)
    text = g_strdup_printf (_("%s. The file is clean: Import writes it."), described);
  else
    text = g_strdup_printf (_("%s. Nothing is written while a line is bad, unless Skip Bad Lines is on."), described);
  adw_preferences_group_set_description (self->check_group, text);
  set_message (self, text);
  clear_problems (self);
  add_problems (self, dyn_import_job_get_problems (job), 0);
  update (self);
}

/* Creates the job of a real run with the settings shown (not started). */
static DynImportJob *
new_run_job (DynTransferImportDialog  *self,
             gboolean                  dry_run,
             gboolean                  resume,
             gboolean                  restart,
             GError                  **error)
{
  g_autoptr(DynTableKeys) keys = dup_target_keys (self, error);
  DynImportOptions options = { 0 };

  if (keys == NULL)
    return NULL;
  options.format = dyn_transfer_import_dialog_get_format (self);
  options.input = self->input;
  options.never_overwrite = gtk_switch_get_active (self->never_overwrite_switch);
  options.max_wcu = gtk_spin_button_get_value (self->wcu_spin);
  options.dry_run = dry_run;
  options.skip_bad = gtk_switch_get_active (self->skip_bad_switch);
  options.resume = resume;
  options.restart = restart;
  return dyn_import_job_new (self->client, keys->table.name, keys, &options, error);
}

static void
update_resumable (DynTransferImportDialog *self)
{
  g_autoptr(DynImportJob) probe = NULL;

  self->resumable = FALSE;
  if (self->input == NULL)
    return;
  probe = new_run_job (self, FALSE, TRUE, FALSE, NULL);
  self->resumable = probe != NULL && dyn_import_job_has_checkpoint (probe, NULL);
}

static gboolean
check_now_cb (gpointer user_data)
{
  DynTransferImportDialog *self = user_data;
  g_autoptr(GError) error = NULL;

  self->check_id = 0;
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_object (&self->check_cancellable);
  g_clear_object (&self->dry_job);
  self->checked = FALSE;
  self->check_failed = FALSE;
  clear_problems (self);
  show_error (self, NULL);
  self->state = DYN_TRANSFER_STATE_IDLE;
  if (self->input == NULL)
    {
      update (self);
      return G_SOURCE_REMOVE;
    }
  update_resumable (self);
  self->dry_job = new_run_job (self, TRUE, FALSE, FALSE, &error);
  if (self->dry_job == NULL)
    {
      self->check_failed = TRUE;
      adw_preferences_group_set_description (self->check_group, error->message);
      set_message (self, error->message);
      update (self);
      return G_SOURCE_REMOVE;
    }
  self->state = DYN_TRANSFER_STATE_CHECKING;
  adw_preferences_group_set_description (self->check_group, _("Reading every line…"));
  self->check_cancellable = g_cancellable_new ();
  dyn_import_job_run_async (self->dry_job, self->check_cancellable, NULL, NULL, check_cb, g_object_ref (self));
  update (self);
  return G_SOURCE_REMOVE;
}

/* A dry run of the settings shown, once they rest for a moment. */
static void
schedule_check (DynTransferImportDialog *self)
{
  if (self->state == DYN_TRANSFER_STATE_RUNNING)
    return;
  self->checked = FALSE;
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  g_clear_handle_id (&self->check_id, g_source_remove);
  self->check_id = g_timeout_add (150, check_now_cb, self);
  self->state = DYN_TRANSFER_STATE_CHECKING;
  update (self);
}

static void
settings_changed_cb (GObject                 *object,
                     GParamSpec              *pspec,
                     DynTransferImportDialog *self)
{
  if (!self->setting)
    schedule_check (self);
}

static void
entry_changed_cb (GtkEditable             *editable,
                  DynTransferImportDialog *self)
{
  if (!self->setting)
    schedule_check (self);
}

static void
skip_bad_cb (GObject                 *object,
             GParamSpec              *pspec,
             DynTransferImportDialog *self)
{
  /* The dry run reads the same either way: only Import's state changes. */
  update (self);
}

/* ------------------------------------------------------------------------ */
/* The run */

static void
progress_cb (const DynTransferProgress *progress,
             gpointer                   user_data)
{
  DynTransferImportDialog *self = user_data;

  dyn_transfer_progress_bar_update (self->progress, progress);
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(DynTransferImportDialog) self = user_data;
  DynImportJob *job = DYN_IMPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  gboolean ok;
  const DynTransferProgress *progress;
  GPtrArray *problems;

  if (job != self->job)
    return;
  ok = dyn_import_job_run_finish (job, result, &error);
  g_clear_object (&self->cancellable);
  progress = dyn_import_job_get_progress (job);
  problems = dyn_import_job_get_problems (job);
  /* The run's own problems (existing items) after the dry run's. */
  clear_problems (self);
  if (self->dry_job != NULL)
    add_problems (self, dyn_import_job_get_problems (self->dry_job), 0);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      DynImportProblem *problem = g_ptr_array_index (problems, i);

      /* Bad lines and duplicates are the dry run's, listed already. */
      if (problem->kind != DYN_IMPORT_PROBLEM_BAD_LINE && problem->kind != DYN_IMPORT_PROBLEM_DUPLICATE)
        {
          g_autoptr(GPtrArray) one = g_ptr_array_new ();

          g_ptr_array_add (one, problem);
          add_problems (self, one, 0);
        }
    }
  self->resumable = dyn_import_job_has_checkpoint (job, NULL);
  if (ok)
    {
      g_autofree char *text = dyn_import_describe_done (dyn_import_job_get_summary (job), progress);

      self->state = DYN_TRANSFER_STATE_DONE;
      dyn_transfer_progress_bar_update (self->progress, progress);
      dyn_transfer_progress_bar_set_fraction (self->progress, 1.0);
      dyn_transfer_progress_bar_set_text (self->progress, text);
      set_message (self, text);
      update (self);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, text, dyn_transfer_import_dialog_get_table (self));
      return;
    }
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *described = dyn_transfer_progress_describe (progress);
      g_autofree char *text = g_strdup_printf (_("Stopped: %s. Resume continues from the checkpoint."), described);

      self->state = DYN_TRANSFER_STATE_STOPPED;
      dyn_transfer_progress_bar_set_text (self->progress, text);
      set_message (self, text);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("The import failed: %s"), error->message);

      self->state = DYN_TRANSFER_STATE_FAILED;
      dyn_transfer_progress_bar_set_text (self->progress, text);
      set_message (self, text);
      show_error (self, text);
    }
  update (self);
}

static void
run (DynTransferImportDialog *self,
     gboolean                 resume)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->job);
  self->job = new_run_job (self, FALSE, resume, !resume && self->resumable, &error);
  if (self->job == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The import cannot start: %s"), error->message);

      self->state = DYN_TRANSFER_STATE_FAILED;
      set_message (self, text);
      show_error (self, text);
      update (self);
      return;
    }
  self->state = DYN_TRANSFER_STATE_RUNNING;
  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
  dyn_import_job_run_async (self->job, self->cancellable, progress_cb, self, run_cb, g_object_ref (self));
  update (self);
}

static void
created_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(DynTransferImportDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (self->state != DYN_TRANSFER_STATE_RUNNING)
    return;
  if (!dyn_table_create_finish (result, &error))
    {
      g_autofree char *text = NULL;

      g_clear_object (&self->cancellable);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        text = g_strdup (_("Stopped before the table was created"));
      else
        text = g_strdup_printf (_("The table %s cannot be created: %s"), dyn_transfer_import_dialog_get_table (self),
                                error->message);
      self->state = error->code == G_IO_ERROR_CANCELLED && error->domain == G_IO_ERROR ? DYN_TRANSFER_STATE_STOPPED
                                                                                      : DYN_TRANSFER_STATE_FAILED;
      dyn_transfer_progress_bar_set_text (self->progress, text);
      set_message (self, text);
      show_error (self, text);
      update (self);
      return;
    }
  g_free (self->created_table);
  self->created_table = g_strdup (dyn_transfer_import_dialog_get_table (self));
  run (self, FALSE);
}

static void
start (DynTransferImportDialog *self,
       gboolean                 resume)
{
  const DynImportSummary *summary = dry_summary (self);
  const char *table = dyn_transfer_import_dialog_get_table (self);

  /* Never before a dry run of these settings that allows it. */
  if (summary == NULL || !dyn_import_dry_run_allows (summary, gtk_switch_get_active (self->skip_bad_switch)))
    return;
  show_error (self, NULL);
  gtk_widget_set_visible (self->progress_group, TRUE);
  dyn_transfer_progress_bar_reset (self->progress);
  gtk_label_set_label (self->verify_label, "");
  g_clear_pointer (&self->verify_text, g_free);
  self->state = DYN_TRANSFER_STATE_RUNNING;
  self->cancellable = g_cancellable_new ();
  if (is_new_table (self) && g_strcmp0 (self->created_table, table) != 0 && !resume)
    {
      g_autoptr(DynTableKeys) keys = dup_target_keys (self, NULL);
      g_autoptr(DynTableSpec) spec = NULL;
      DynValueType pk_type, sk_type = DYN_VALUE_S;
      const char *pk = dyn_key_schema_get_partition_key (&keys->table.keys, 0, &pk_type);
      const char *sk = dyn_key_schema_get_sort_key (&keys->table.keys, 0, &sk_type);
      g_autofree char *text = g_strdup_printf (_("Creating the table %s…"), table);

      spec = dyn_table_spec_new (table, pk, pk_type, sk, sk_type);
      dyn_transfer_progress_bar_set_text (self->progress, text);
      update (self);
      dyn_table_create_async (self->client, spec, self->cancellable, created_cb, g_object_ref (self));
      return;
    }
  run (self, resume);
}

static void
approved_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(DynTransferImportDialog) self = user_data;
  gboolean resume = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), "dyn-resume"));
  g_autoptr(GError) error = NULL;

  if (dyn_guardrail_approve_finish (DYN_GUARDRAIL (source), result, &error))
    start (self, resume);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, error->message);
}

/* On a production connection the guardrail confirms the import first: the
 * item count and the estimated WCU of the dry run. */
static void
guarded_start (DynTransferImportDialog *self,
               gboolean                 resume)
{
  const DynImportSummary *summary = dry_summary (self);
  g_autoptr(DynWriteSummary) write = NULL;
  g_autofree char *title = NULL;
  g_autofree char *base = NULL;

  if (self->guardrail == NULL || !dyn_guardrail_get_production (self->guardrail) || summary == NULL)
    {
      start (self, resume);
      return;
    }
  base = g_path_get_basename (dyn_transfer_import_dialog_get_input (self) ? dyn_transfer_import_dialog_get_input (self) : "");
  /* Translators: "Import orders.json into Orders" */
  title = g_strdup_printf (_("Import %s into %s"), base, dyn_transfer_import_dialog_get_table (self));
  write = dyn_write_summary_new_bulk (title, dyn_transfer_import_dialog_get_table (self), _("Import"),
                                      summary->items, summary->write_units_estimate);
  g_object_set_data (G_OBJECT (self), "dyn-resume", GINT_TO_POINTER (resume));
  dyn_guardrail_approve_async (self->guardrail, write, NULL, approved_cb, g_object_ref (self));
}

void
dyn_transfer_import_dialog_set_guardrail (DynTransferImportDialog *self,
                                          DynGuardrail            *guardrail)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));
  g_set_object (&self->guardrail, guardrail);
}

static void
start_action (GtkWidget  *widget,
              const char *name,
              GVariant   *parameter)
{
  guarded_start (DYN_TRANSFER_IMPORT_DIALOG (widget), FALSE);
}

static void
resume_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  guarded_start (DYN_TRANSFER_IMPORT_DIALOG (widget), TRUE);
}

static void
cancel_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
verify_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(DynTransferImportDialog) self = user_data;
  DynImportJob *job = DYN_IMPORT_JOB (source);
  g_autoptr(GError) error = NULL;
  DynImportVerify verify = { 0 };
  GPtrArray *problems;

  if (job != self->job)
    return;
  g_clear_object (&self->cancellable);
  self->state = DYN_TRANSFER_STATE_DONE;
  g_free (self->verify_text);
  if (dyn_import_job_verify_finish (job, result, &verify, &error))
    self->verify_text = dyn_import_describe_verify (&verify);
  else
    self->verify_text = g_strdup_printf (_("The verify failed: %s"), error->message);
  gtk_label_set_label (self->verify_label, self->verify_text);
  problems = dyn_import_job_get_problems (job);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      DynImportProblem *problem = g_ptr_array_index (problems, i);

      if (problem->kind == DYN_IMPORT_PROBLEM_MISSING || problem->kind == DYN_IMPORT_PROBLEM_DIFFERENT)
        {
          g_autoptr(GPtrArray) one = g_ptr_array_new ();

          g_ptr_array_add (one, problem);
          add_problems (self, one, 0);
        }
    }
  update (self);
}

static void
verify_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (widget);

  if (self->job == NULL || self->state != DYN_TRANSFER_STATE_DONE)
    return;
  self->state = DYN_TRANSFER_STATE_RUNNING;
  self->cancellable = g_cancellable_new ();
  gtk_label_set_label (self->verify_label, _("Reading every item back…"));
  /* The bar keeps the import's summary; the label says what the verify does. */
  dyn_import_job_verify_async (self->job, self->cancellable, NULL, NULL, verify_cb, g_object_ref (self));
  update (self);
}

static void
chooser_response_cb (GtkNativeDialog         *chooser,
                     int                      response,
                     DynTransferImportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        dyn_transfer_import_dialog_set_input (self, path);
      else
        show_error (self, _("Only a local file can be read"));
    }
  g_clear_object (&self->chooser);
}

static void
choose_input_action (GtkWidget  *widget,
                     const char *name,
                     GVariant   *parameter)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (widget);
  gboolean folder = g_variant_get_boolean (parameter);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (folder ? _("Import an S3 Export Folder") : _("Import a File"),
                                               GTK_WINDOW (self),
                                               folder ? GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER : GTK_FILE_CHOOSER_ACTION_OPEN,
                                               folder ? _("_Select") : _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static gboolean
close_request_cb (GtkWindow *window)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (window);

  /* Closing stops the import; its checkpoint stays for a resume. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  return FALSE;
}

static void
dyn_transfer_import_dialog_dispose (GObject *object)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->check_cancellable != NULL)
    g_cancellable_cancel (self->check_cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_TRANSFER_IMPORT_DIALOG);
  G_OBJECT_CLASS (dyn_transfer_import_dialog_parent_class)->dispose (object);
}

static void
dyn_transfer_import_dialog_finalize (GObject *object)
{
  DynTransferImportDialog *self = DYN_TRANSFER_IMPORT_DIALOG (object);

  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_object (&self->client);
  g_clear_object (&self->guardrail);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_object (&self->dry_job);
  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->check_cancellable);
  g_free (self->input);
  g_free (self->created_table);
  g_free (self->message);
  g_free (self->verify_text);
  G_OBJECT_CLASS (dyn_transfer_import_dialog_parent_class)->finalize (object);
}

static void
dyn_transfer_import_dialog_class_init (DynTransferImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = dyn_transfer_import_dialog_dispose;
  object_class->finalize = dyn_transfer_import_dialog_finalize;
  window_class->close_request = close_request_cb;

  /**
   * DynTransferImportDialog::finished:
   * @text: the summary: items written, skipped, existing, WCU
   * @table: the table written into
   *
   * The import ran to its end.
   */
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                           NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  g_type_ensure (DYN_TYPE_TRANSFER_PROGRESS_BAR);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-transfer-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, start_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, resume_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, input_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, format_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, target_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, table_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, pk_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, pk_type);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, sk_row);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, sk_type);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, never_overwrite_switch);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, wcu_spin);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, skip_bad_switch);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, check_group);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, problem_list);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, progress_group);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, progress);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, verify_button);
  gtk_widget_class_bind_template_child (widget_class, DynTransferImportDialog, verify_label);

  gtk_widget_class_install_action (widget_class, "transfer.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "transfer.resume", NULL, resume_action);
  gtk_widget_class_install_action (widget_class, "transfer.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "transfer.verify", NULL, verify_action);
  gtk_widget_class_install_action (widget_class, "transfer.choose-input", "b", choose_input_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyn_transfer_import_dialog_init (DynTransferImportDialog *self)
{
  const char *formats[] = {
    N_("DynamoDB JSON Lines"), N_("JSON Lines (plain, exact numbers)"), N_("CSV (typed header)"),
    N_("S3 Export Folder (manifests, data/*.json.gz)"), NULL,
  };
  g_autoptr(GtkStringList) format_names = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->shown = g_ptr_array_new ();
  for (guint i = 0; formats[i] != NULL; i++)
    gtk_string_list_append (format_names, _(formats[i]));
  adw_combo_row_set_model (self->format_row, G_LIST_MODEL (format_names));
  g_signal_connect (self->format_row, "notify::selected", G_CALLBACK (settings_changed_cb), self);
  g_signal_connect (self->target_row, "notify::selected", G_CALLBACK (settings_changed_cb), self);
  g_signal_connect (self->pk_type, "notify::selected", G_CALLBACK (settings_changed_cb), self);
  g_signal_connect (self->sk_type, "notify::selected", G_CALLBACK (settings_changed_cb), self);
  g_signal_connect (self->never_overwrite_switch, "notify::active", G_CALLBACK (settings_changed_cb), self);
  g_signal_connect (self->skip_bad_switch, "notify::active", G_CALLBACK (skip_bad_cb), self);
  g_signal_connect (self->table_row, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect (self->pk_row, "changed", G_CALLBACK (entry_changed_cb), self);
  g_signal_connect (self->sk_row, "changed", G_CALLBACK (entry_changed_cb), self);
}

DynTransferImportDialog *
dyn_transfer_import_dialog_new (GtkWindow          *parent,
                                DynClient          *client,
                                const DynTableKeys *keys)
{
  DynTransferImportDialog *self;
  g_autoptr(GtkStringList) targets = gtk_string_list_new (NULL);

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);

  self = g_object_new (DYN_TYPE_TRANSFER_IMPORT_DIALOG, "transient-for", parent, NULL);
  self->client = g_object_ref (client);
  self->keys = keys ? dyn_table_keys_copy (keys) : NULL;
  self->setting = TRUE;
  if (keys != NULL)
    {
      g_autofree char *label = g_strdup_printf (_("This table (%s)"), keys->table.name);

      gtk_string_list_append (targets, label);
    }
  gtk_string_list_append (targets, _("A new table"));
  adw_combo_row_set_model (self->target_row, G_LIST_MODEL (targets));
  self->setting = FALSE;
  update (self);
  return self;
}

void
dyn_transfer_import_dialog_set_input (DynTransferImportDialog *self,
                                      const char              *path)
{
  DynTransferFormat format;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));

  g_free (self->input);
  self->input = path && *path ? g_strdup (path) : NULL;
  if (self->input != NULL)
    {
      if (dyn_transfer_format_detect (self->input, &format, &error))
        {
          self->setting = TRUE;
          adw_combo_row_set_selected (self->format_row, format);
          self->setting = FALSE;
        }
      else
        show_error (self, error->message);
    }
  gtk_widget_set_visible (self->progress_group, FALSE);
  self->state = DYN_TRANSFER_STATE_IDLE;
  g_clear_object (&self->job);
  schedule_check (self);
}

const char *
dyn_transfer_import_dialog_get_input (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return self->input;
}

void
dyn_transfer_import_dialog_set_format (DynTransferImportDialog *self,
                                       DynTransferFormat        format)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));
  adw_combo_row_set_selected (self->format_row, format);
}

DynTransferFormat
dyn_transfer_import_dialog_get_format (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), DYN_TRANSFER_FORMAT_DDB_JSON);
  return (DynTransferFormat) adw_combo_row_get_selected (self->format_row);
}

static guint
type_position (DynValueType type)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_types); i++)
    if (key_types[i] == type)
      return i;
  return 0;
}

void
dyn_transfer_import_dialog_set_new_table (DynTransferImportDialog *self,
                                          const char              *table,
                                          const char              *partition_key,
                                          DynValueType             partition_type,
                                          const char              *sort_key,
                                          DynValueType             sort_type)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));

  self->setting = TRUE;
  if (table != NULL)
    {
      adw_combo_row_set_selected (self->target_row, self->keys != NULL ? 1 : 0);
      gtk_editable_set_text (GTK_EDITABLE (self->table_row), table);
      gtk_editable_set_text (GTK_EDITABLE (self->pk_row), partition_key ? partition_key : "");
      gtk_drop_down_set_selected (self->pk_type, type_position (partition_type));
      gtk_editable_set_text (GTK_EDITABLE (self->sk_row), sort_key ? sort_key : "");
      gtk_drop_down_set_selected (self->sk_type, type_position (sort_type));
    }
  else if (self->keys != NULL)
    adw_combo_row_set_selected (self->target_row, 0);
  self->setting = FALSE;
  schedule_check (self);
}

void
dyn_transfer_import_dialog_set_never_overwrite (DynTransferImportDialog *self,
                                                gboolean                 never_overwrite)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));
  gtk_switch_set_active (self->never_overwrite_switch, never_overwrite);
}

void
dyn_transfer_import_dialog_set_skip_bad (DynTransferImportDialog *self,
                                         gboolean                 skip_bad)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));
  gtk_switch_set_active (self->skip_bad_switch, skip_bad);
}

void
dyn_transfer_import_dialog_set_max_wcu (DynTransferImportDialog *self,
                                        double                   max_wcu)
{
  g_return_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self));
  gtk_spin_button_set_value (self->wcu_spin, max_wcu);
}

DynTransferState
dyn_transfer_import_dialog_get_state (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), DYN_TRANSFER_STATE_IDLE);
  return self->state;
}

const DynImportSummary *
dyn_transfer_import_dialog_get_dry_run (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return dry_summary (self);
}

GPtrArray *
dyn_transfer_import_dialog_get_problems (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return self->shown;
}

DynImportJob *
dyn_transfer_import_dialog_get_job (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return self->job;
}

const char *
dyn_transfer_import_dialog_get_message (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return self->message;
}

const char *
dyn_transfer_import_dialog_get_verify_text (DynTransferImportDialog *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_IMPORT_DIALOG (self), NULL);
  return self->verify_text;
}
