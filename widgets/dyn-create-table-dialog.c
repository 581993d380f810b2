/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-create-table"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "dyn-widgets-resources.h"

#include "dyn-create-table-dialog.h"

struct _DynCreateTableDialog
{
  AdwWindow     parent_instance;

  char         *json;
  GString      *problems;
  gboolean      valid;
  gboolean      busy;
  char         *server_error;

  GtkWidget    *cancel_button;
  GtkWidget    *create_button;
  GtkSpinner   *spinner;
  GtkWidget    *form;
  AdwEntryRow  *name_row;
  AdwEntryRow  *partition_row;
  GtkDropDown  *partition_type;
  AdwEntryRow  *sort_row;
  GtkDropDown  *sort_type;
  GtkLabel     *table_problem;
  GtkWidget    *add_gsi_button;
  GtkBox       *gsi_box;
  GtkWidget    *add_lsi_button;
  GtkBox       *lsi_box;
  AdwComboRow  *billing_row;
  GtkWidget    *read_row;
  GtkSpinButton *read_units;
  GtkWidget    *write_row;
  GtkSpinButton *write_units;
  AdwEntryRow  *ttl_row;
  AdwComboRow  *class_row;
  GtkSwitch    *protection_switch;
  GtkLabel     *settings_problem;
  GtkWidget    *copy_button;
  GtkLabel     *problem_label;
  GtkTextView  *json_view;
};

G_DEFINE_FINAL_TYPE (DynCreateTableDialog, dyn_create_table_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_CREATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_problem (DynCreateTableDialog *self,
              GtkLabel             *label,
              const char           *message)
{
  gtk_label_set_text (label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (label), message != NULL);
  if (message != NULL)
    g_string_append_printf (self->problems, "%s\n", message);
}

static char *
key_text (AdwEntryRow *row,
          GtkDropDown *type)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));

  return g_strdup_printf ("%s:%s", name, _dyn_key_type_code (_dyn_key_type_from_position (gtk_drop_down_get_selected (type))));
}

/* Builds the spec from the fields; every problem goes beside its field
 * (when @show) and the first into @error. */
static DynTableSpec *
build_spec (DynCreateTableDialog *self,
            gboolean              show,
            GError              **error)
{
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(GError) first = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *pk = key_text (self->partition_row, self->partition_type);
  g_autofree char *sk = NULL;
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row))));
  const char *ttl = gtk_editable_get_text (GTK_EDITABLE (self->ttl_row));
  gboolean bad = FALSE;

  if (*gtk_editable_get_text (GTK_EDITABLE (self->sort_row)) != '\0')
    sk = key_text (self->sort_row, self->sort_type);
  spec = dyn_table_spec_parse (name, pk, sk, &local);
  if (show)
    show_problem (self, self->table_problem, local ? local->message : NULL);
  if (spec == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      /* The indexes cannot be checked without the table's keys. */
      for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (self->gsi_box)); w; w = gtk_widget_get_next_sibling (w))
        dyn_create_table_index_row_set_error (DYN_CREATE_TABLE_INDEX_ROW (w), NULL);
      for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (self->lsi_box)); w; w = gtk_widget_get_next_sibling (w))
        dyn_create_table_index_row_set_error (DYN_CREATE_TABLE_INDEX_ROW (w), NULL);
      return NULL;
    }

  for (guint k = 0; k < 2; k++)
    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (k ? self->lsi_box : self->gsi_box)); w;
         w = gtk_widget_get_next_sibling (w))
      {
        DynCreateTableIndexRow *row = DYN_CREATE_TABLE_INDEX_ROW (w);
        g_autofree char *text = dyn_create_table_index_row_dup_text (row);
        gboolean ok = k ? dyn_table_spec_add_lsi (spec, text, &local) : dyn_table_spec_add_gsi (spec, text, &local);

        if (show)
          dyn_create_table_index_row_set_error (row, ok ? NULL : local->message);
        if (!ok)
          {
            if (show)
              g_string_append_printf (self->problems, "%s\n", local->message);
            bad = TRUE;
            if (first == NULL)
              first = g_steal_pointer (&local);
            g_clear_error (&local);
          }
      }

  if (adw_combo_row_get_selected (self->billing_row) == DYN_BILLING_PROVISIONED)
    {
      g_autofree char *billing = g_strdup_printf ("provisioned:%d:%d",
                                                  gtk_spin_button_get_value_as_int (self->read_units),
                                                  gtk_spin_button_get_value_as_int (self->write_units));
      if (!dyn_table_spec_set_billing (spec, billing, &local))
        {
          bad = TRUE;
          if (first == NULL)
            first = g_error_copy (local);
        }
    }
  else if (!dyn_table_spec_set_billing (spec, "on-demand", &local))
    {
      bad = TRUE;
      if (first == NULL)
        first = g_error_copy (local);
    }
  if (show)
    show_problem (self, self->settings_problem, local ? local->message : NULL);
  g_clear_error (&local);

  g_clear_pointer (&spec->ttl_attribute, g_free);
  if (*ttl != '\0')
    spec->ttl_attribute = g_strstrip (g_strdup (ttl));
  g_clear_pointer (&spec->table_class, g_free);
  if (adw_combo_row_get_selected (self->class_row) == 1)
    spec->table_class = g_strdup ("STANDARD_INFREQUENT_ACCESS");
  spec->deletion_protection = gtk_switch_get_active (self->protection_switch);

  if (bad)
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return NULL;
    }
  return g_steal_pointer (&spec);
}

/* A rule of the whole spec: shown beside each index it names, else beside
 * the settings. */
static void
show_rule_problem (DynCreateTableDialog *self,
                   const char           *message)
{
  gboolean shown = FALSE;

  g_string_append_printf (self->problems, "%s\n", message);
  for (guint k = 0; k < 2; k++)
    for (GtkWidget *w = gtk_widget_get_first_child (GTK_WIDGET (k ? self->lsi_box : self->gsi_box)); w;
         w = gtk_widget_get_next_sibling (w))
      {
        DynCreateTableIndexRow *row = DYN_CREATE_TABLE_INDEX_ROW (w);
        const char *name = dyn_create_table_index_row_get_name (row);

        if (*name != '\0' && strstr (message, name) != NULL)
          {
            dyn_create_table_index_row_set_error (row, message);
            shown = TRUE;
          }
      }
  if (!shown)
    {
      gtk_label_set_text (self->settings_problem, message);
      gtk_widget_set_visible (GTK_WIDGET (self->settings_problem), TRUE);
    }
}

static void
update (DynCreateTableDialog *self)
{
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->json_view);

  g_string_truncate (self->problems, 0);
  g_clear_pointer (&self->json, g_free);
  spec = build_spec (self, TRUE, &error);
  if (spec != NULL)
    {
      json = dyn_table_spec_to_create_json (spec, &error);
      if (json == NULL)
        show_rule_problem (self, error->message);
    }
  if (json != NULL)
    self->json = json_to_string (json, TRUE);
  self->valid = self->json != NULL;
  gtk_text_buffer_set_text (buffer, self->json ? self->json : "", -1);
  if (self->server_error != NULL)
    {
      g_string_append_printf (self->problems, "%s\n", self->server_error);
      gtk_label_set_text (self->problem_label, self->server_error);
      gtk_widget_set_visible (GTK_WIDGET (self->problem_label), TRUE);
    }
  else if (!self->valid)
    {
      g_autofree char *text = g_strdup_printf (_("No request yet: %s"), error ? error->message : "");
      gtk_label_set_text (self->problem_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->problem_label), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->problem_label), FALSE);
  gtk_widget_set_sensitive (self->create_button, self->valid && !self->busy);
  gtk_widget_set_sensitive (self->copy_button, self->valid);
}

static void
changed_cb (DynCreateTableDialog *self)
{
  g_clear_pointer (&self->server_error, g_free);
  update (self);
}

static void
notify_changed_cb (GObject              *object,
                   GParamSpec           *pspec,
                   DynCreateTableDialog *self)
{
  changed_cb (self);
}

static void
billing_cb (AdwComboRow          *row,
            GParamSpec           *pspec,
            DynCreateTableDialog *self)
{
  gboolean provisioned = adw_combo_row_get_selected (row) == DYN_BILLING_PROVISIONED;

  gtk_widget_set_visible (self->read_row, provisioned);
  gtk_widget_set_visible (self->write_row, provisioned);
  changed_cb (self);
}

static void
index_remove_cb (DynCreateTableIndexRow *row,
                 DynCreateTableDialog   *self)
{
  dyn_create_table_dialog_remove_index (self, row);
}

static void
add_gsi_cb (GtkButton            *button,
            DynCreateTableDialog *self)
{
  dyn_create_table_dialog_add_index (self, DYN_INDEX_GLOBAL);
}

static void
add_lsi_cb (GtkButton            *button,
            DynCreateTableDialog *self)
{
  dyn_create_table_dialog_add_index (self, DYN_INDEX_LOCAL);
}

static void
copy_cb (GtkButton            *button,
         DynCreateTableDialog *self)
{
  if (self->json != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->json);
}

static void
create_cb (GtkButton            *button,
           DynCreateTableDialog *self)
{
  if (self->valid && !self->busy)
    g_signal_emit (self, signals[SIGNAL_CREATE], 0);
}

static void
cancel_cb (GtkButton            *button,
           DynCreateTableDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static void
dyn_create_table_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_CREATE_TABLE_DIALOG);

  G_OBJECT_CLASS (dyn_create_table_dialog_parent_class)->dispose (object);
}

static void
dyn_create_table_dialog_finalize (GObject *object)
{
  DynCreateTableDialog *self = DYN_CREATE_TABLE_DIALOG (object);

  g_free (self->json);
  g_free (self->server_error);
  g_string_free (self->problems, TRUE);

  G_OBJECT_CLASS (dyn_create_table_dialog_parent_class)->finalize (object);
}

static void
dyn_create_table_dialog_class_init (DynCreateTableDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_create_table_dialog_dispose;
  object_class->finalize = dyn_create_table_dialog_finalize;

  /* Create was clicked with a valid spec. */
  signals[SIGNAL_CREATE] =
    g_signal_new ("create", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  (void) dyn_widgets_get_resource ();
  g_type_ensure (DYN_TYPE_CREATE_TABLE_INDEX_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-create-table-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, form);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, partition_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, partition_type);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, sort_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, sort_type);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, table_problem);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, add_gsi_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, gsi_box);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, add_lsi_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, lsi_box);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, billing_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, read_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, read_units);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, write_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, write_units);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, ttl_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, class_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, protection_switch);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, settings_problem);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, problem_label);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableDialog, json_view);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dyn_create_table_dialog_init (DynCreateTableDialog *self)
{
  self->problems = g_string_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_drop_down_set_model (self->partition_type, _dyn_key_type_model_new ());
  gtk_drop_down_set_model (self->sort_type, _dyn_key_type_model_new ());
  g_signal_connect (self->name_row, "notify::text", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->partition_row, "notify::text", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->partition_type, "notify::selected", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->sort_row, "notify::text", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->sort_type, "notify::selected", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->billing_row, "notify::selected", G_CALLBACK (billing_cb), self);
  g_signal_connect (self->read_units, "notify::value", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->write_units, "notify::value", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->ttl_row, "notify::text", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->class_row, "notify::selected", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->protection_switch, "notify::active", G_CALLBACK (notify_changed_cb), self);
  g_signal_connect (self->add_gsi_button, "clicked", G_CALLBACK (add_gsi_cb), self);
  g_signal_connect (self->add_lsi_button, "clicked", G_CALLBACK (add_lsi_cb), self);
  g_signal_connect (self->copy_button, "clicked", G_CALLBACK (copy_cb), self);
  g_signal_connect (self->create_button, "clicked", G_CALLBACK (create_cb), self);
  g_signal_connect (self->cancel_button, "clicked", G_CALLBACK (cancel_cb), self);
  update (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

GtkWidget *
dyn_create_table_dialog_new (void)
{
  return g_object_new (DYN_TYPE_CREATE_TABLE_DIALOG, NULL);
}

DynTableSpec *
dyn_create_table_dialog_dup_spec (DynCreateTableDialog *self,
                                  GError              **error)
{
  g_autoptr(DynTableSpec) spec = NULL;

  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), NULL);

  spec = build_spec (self, FALSE, error);
  if (spec == NULL || !dyn_table_spec_validate (spec, error))
    return NULL;
  return g_steal_pointer (&spec);
}

const char *
dyn_create_table_dialog_get_json (DynCreateTableDialog *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), NULL);
  return self->json;
}

char *
dyn_create_table_dialog_dup_problems (DynCreateTableDialog *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), NULL);
  return g_strdup (self->problems->str);
}

gboolean
dyn_create_table_dialog_get_valid (DynCreateTableDialog *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), FALSE);
  return self->valid;
}

GtkWidget *
dyn_create_table_dialog_get_create_button (DynCreateTableDialog *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), NULL);
  return self->create_button;
}

void
dyn_create_table_dialog_set_busy (DynCreateTableDialog *self,
                                  gboolean              busy)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));

  self->busy = busy;
  /* An insensitive entry keeps its blinking cursor unless it loses the
   * focus first. */
  if (busy)
    gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_sensitive (self->form, !busy);
  gtk_widget_set_sensitive (self->create_button, self->valid && !busy);
}

void
dyn_create_table_dialog_set_server_error (DynCreateTableDialog *self,
                                          const char           *message)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));

  g_free (self->server_error);
  self->server_error = g_strdup (message);
  update (self);
}

void
dyn_create_table_dialog_set_table (DynCreateTableDialog *self,
                                   const char           *name,
                                   const char           *partition_key,
                                   DynValueType          partition_type,
                                   const char           *sort_key,
                                   DynValueType          sort_type)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));

  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name ? name : "");
  gtk_editable_set_text (GTK_EDITABLE (self->partition_row), partition_key ? partition_key : "");
  gtk_drop_down_set_selected (self->partition_type, _dyn_key_type_to_position (partition_type));
  gtk_editable_set_text (GTK_EDITABLE (self->sort_row), sort_key ? sort_key : "");
  gtk_drop_down_set_selected (self->sort_type, _dyn_key_type_to_position (sort_type));
}

DynCreateTableIndexRow *
dyn_create_table_dialog_add_index (DynCreateTableDialog *self,
                                   DynIndexKind          kind)
{
  GtkWidget *row;

  g_return_val_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self), NULL);

  row = dyn_create_table_index_row_new (kind, TRUE);
  g_signal_connect_swapped (row, "changed", G_CALLBACK (changed_cb), self);
  g_signal_connect (row, "remove", G_CALLBACK (index_remove_cb), self);
  gtk_box_append (kind == DYN_INDEX_LOCAL ? self->lsi_box : self->gsi_box, row);
  changed_cb (self);
  return DYN_CREATE_TABLE_INDEX_ROW (row);
}

void
dyn_create_table_dialog_remove_index (DynCreateTableDialog   *self,
                                      DynCreateTableIndexRow *row)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));

  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (row))), GTK_WIDGET (row));
  changed_cb (self);
}

void
dyn_create_table_dialog_set_billing (DynCreateTableDialog *self,
                                     DynBilling            billing,
                                     guint                 read_units,
                                     guint                 write_units)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));

  gtk_spin_button_set_value (self->read_units, read_units);
  gtk_spin_button_set_value (self->write_units, write_units);
  adw_combo_row_set_selected (self->billing_row, billing);
}

void
dyn_create_table_dialog_set_ttl_attribute (DynCreateTableDialog *self,
                                           const char           *attribute)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->ttl_row), attribute ? attribute : "");
}

void
dyn_create_table_dialog_set_infrequent_access (DynCreateTableDialog *self,
                                               gboolean              infrequent)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));
  adw_combo_row_set_selected (self->class_row, infrequent ? 1 : 0);
}

void
dyn_create_table_dialog_set_deletion_protection (DynCreateTableDialog *self,
                                                 gboolean              protect)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_DIALOG (self));
  gtk_switch_set_active (self->protection_switch, protect);
}
