/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-create-table"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-create-table-index-row.h"

struct _DynCreateTableIndexRow
{
  GtkBox        parent_instance;

  DynIndexKind  kind;
  GPtrArray    *partition_rows;   /* AdwEntryRow, with "type-dropdown" */
  GPtrArray    *sort_rows;
  char         *error;

  GtkListBox   *list;
  AdwEntryRow  *name_row;
  GtkWidget    *remove_button;
  AdwActionRow *add_partition_row;
  AdwActionRow *add_sort_row;
  AdwComboRow  *projection_row;
  AdwEntryRow  *include_row;
  GtkLabel     *error_label;
};

G_DEFINE_FINAL_TYPE (DynCreateTableIndexRow, dyn_create_table_index_row, GTK_TYPE_BOX)

enum {
  SIGNAL_CHANGED,
  SIGNAL_REMOVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* Key types */

static const DynValueType key_types[] = { DYN_VALUE_S, DYN_VALUE_N, DYN_VALUE_B };

GListModel *
_dyn_key_type_model_new (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, _("String"));
  gtk_string_list_append (list, _("Number"));
  gtk_string_list_append (list, _("Binary"));
  return G_LIST_MODEL (list);
}

DynValueType
_dyn_key_type_from_position (guint position)
{
  return position < G_N_ELEMENTS (key_types) ? key_types[position] : DYN_VALUE_S;
}

guint
_dyn_key_type_to_position (DynValueType type)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_types); i++)
    if (key_types[i] == type)
      return i;
  return 0;
}

const char *
_dyn_key_type_code (DynValueType type)
{
  switch (type)
    {
    case DYN_VALUE_N:
      return "N";
    case DYN_VALUE_B:
      return "B";
    default:
      return "S";
    }
}

/* ------------------------------------------------------------------------ */

static void
emit_changed (DynCreateTableIndexRow *self)
{
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
update_rows (DynCreateTableIndexRow *self)
{
  gboolean global = self->kind == DYN_INDEX_GLOBAL;

  gtk_widget_set_visible (GTK_WIDGET (self->add_partition_row), global && self->partition_rows->len < DYN_KEY_MAX_ATTRIBUTES);
  gtk_widget_set_visible (GTK_WIDGET (self->add_sort_row), global && self->sort_rows->len < DYN_KEY_MAX_ATTRIBUTES);
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *rows = k ? self->sort_rows : self->partition_rows;

      for (guint i = 0; i < rows->len; i++)
        {
          g_autofree char *title = NULL;

          if (!global)
            title = g_strdup (_("Sort key"));
          else if (rows->len == 1)
            title = g_strdup (k ? _("Sort attribute") : _("Partition attribute"));
          else
            /* Translators: "Partition attribute 2 of 3" */
            title = g_strdup_printf (k ? _("Sort attribute %u of %u") : _("Partition attribute %u of %u"),
                                     i + 1, rows->len);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (rows->pdata[i]), title);
        }
    }
}

static void
attribute_changed_cb (GObject                *object,
                      GParamSpec             *pspec,
                      DynCreateTableIndexRow *self)
{
  emit_changed (self);
}

static void
remove_attribute_cb (GtkButton              *button,
                     DynCreateTableIndexRow *self)
{
  GtkWidget *row = g_object_get_data (G_OBJECT (button), "attribute-row");

  if (!g_ptr_array_remove (self->partition_rows, row))
    g_ptr_array_remove (self->sort_rows, row);
  gtk_list_box_remove (self->list, row);
  update_rows (self);
  emit_changed (self);
}

static GtkWidget *
add_attribute_row (DynCreateTableIndexRow *self,
                   gboolean                is_sort,
                   gboolean                removable)
{
  GtkWidget *row = adw_entry_row_new ();
  g_autoptr(GListModel) types = _dyn_key_type_model_new ();
  GtkWidget *dropdown = gtk_drop_down_new (g_object_ref (types), NULL);
  guint position;

  gtk_widget_set_valign (dropdown, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (dropdown, _("Attribute type"));
  adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), dropdown);
  g_object_set_data (G_OBJECT (row), "type-dropdown", dropdown);
  if (removable)
    {
      GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

      gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove Attribute"));
      g_object_set_data (G_OBJECT (remove), "attribute-row", row);
      g_signal_connect (remove, "clicked", G_CALLBACK (remove_attribute_cb), self);
      adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), remove);
    }
  g_signal_connect (row, "notify::text", G_CALLBACK (attribute_changed_cb), self);
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (attribute_changed_cb), self);
  /* name 0, partition rows, "add partition", sort rows, "add sort", … */
  if (is_sort)
    {
      position = 2 + self->partition_rows->len + self->sort_rows->len;
      g_ptr_array_add (self->sort_rows, row);
    }
  else
    {
      position = 1 + self->partition_rows->len;
      g_ptr_array_add (self->partition_rows, row);
    }
  gtk_list_box_insert (self->list, row, position);
  update_rows (self);
  return row;
}

static void
add_partition_cb (AdwActionRow           *row,
                  DynCreateTableIndexRow *self)
{
  if (self->partition_rows->len < DYN_KEY_MAX_ATTRIBUTES)
    gtk_widget_grab_focus (add_attribute_row (self, FALSE, TRUE));
  emit_changed (self);
}

static void
add_sort_cb (AdwActionRow           *row,
             DynCreateTableIndexRow *self)
{
  if (self->sort_rows->len < DYN_KEY_MAX_ATTRIBUTES)
    gtk_widget_grab_focus (add_attribute_row (self, TRUE, TRUE));
  emit_changed (self);
}

static void
projection_cb (AdwComboRow            *row,
               GParamSpec             *pspec,
               DynCreateTableIndexRow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->include_row), adw_combo_row_get_selected (row) == DYN_PROJECTION_INCLUDE);
  emit_changed (self);
}

static void
text_changed_cb (GObject                *object,
                 GParamSpec             *pspec,
                 DynCreateTableIndexRow *self)
{
  emit_changed (self);
}

static void
remove_clicked_cb (GtkButton              *button,
                   DynCreateTableIndexRow *self)
{
  g_signal_emit (self, signals[SIGNAL_REMOVE], 0);
}

static void
dyn_create_table_index_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_CREATE_TABLE_INDEX_ROW);

  G_OBJECT_CLASS (dyn_create_table_index_row_parent_class)->dispose (object);
}

static void
dyn_create_table_index_row_finalize (GObject *object)
{
  DynCreateTableIndexRow *self = DYN_CREATE_TABLE_INDEX_ROW (object);

  g_ptr_array_unref (self->partition_rows);
  g_ptr_array_unref (self->sort_rows);
  g_free (self->error);

  G_OBJECT_CLASS (dyn_create_table_index_row_parent_class)->finalize (object);
}

static void
dyn_create_table_index_row_class_init (DynCreateTableIndexRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_create_table_index_row_dispose;
  object_class->finalize = dyn_create_table_index_row_finalize;

  /* Something in the index was edited. */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Its Remove button was clicked. */
  signals[SIGNAL_REMOVE] =
    g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-create-table-index-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, list);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, name_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, add_partition_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, add_sort_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, projection_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, include_row);
  gtk_widget_class_bind_template_child (widget_class, DynCreateTableIndexRow, error_label);
}

static void
dyn_create_table_index_row_init (DynCreateTableIndexRow *self)
{
  self->partition_rows = g_ptr_array_new ();
  self->sort_rows = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->name_row, "notify::text", G_CALLBACK (text_changed_cb), self);
  g_signal_connect (self->include_row, "notify::text", G_CALLBACK (text_changed_cb), self);
  g_signal_connect (self->projection_row, "notify::selected", G_CALLBACK (projection_cb), self);
  g_signal_connect (self->add_partition_row, "activated", G_CALLBACK (add_partition_cb), self);
  g_signal_connect (self->add_sort_row, "activated", G_CALLBACK (add_sort_cb), self);
  g_signal_connect (self->remove_button, "clicked", G_CALLBACK (remove_clicked_cb), self);
}

GtkWidget *
dyn_create_table_index_row_new (DynIndexKind kind,
                                gboolean     removable)
{
  DynCreateTableIndexRow *self = g_object_new (DYN_TYPE_CREATE_TABLE_INDEX_ROW, NULL);

  self->kind = kind;
  gtk_widget_set_visible (self->remove_button, removable);
  if (kind == DYN_INDEX_LOCAL)
    add_attribute_row (self, TRUE, FALSE);
  else
    add_attribute_row (self, FALSE, FALSE);
  update_rows (self);
  return GTK_WIDGET (self);
}

DynIndexKind
dyn_create_table_index_row_get_kind (DynCreateTableIndexRow *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self), DYN_INDEX_GLOBAL);
  return self->kind;
}

const char *
dyn_create_table_index_row_get_name (DynCreateTableIndexRow *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->name_row));
}

static void
append_attributes (GString   *text,
                   GPtrArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      GtkDropDown *dropdown = g_object_get_data (G_OBJECT (rows->pdata[i]), "type-dropdown");
      g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (rows->pdata[i]))));

      g_string_append_printf (text, "%s%s:%s", i ? "+" : "", name,
                              _dyn_key_type_code (_dyn_key_type_from_position (gtk_drop_down_get_selected (dropdown))));
    }
}

char *
dyn_create_table_index_row_dup_text (DynCreateTableIndexRow *self)
{
  GString *text;
  g_autofree char *name = NULL;

  g_return_val_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self), NULL);

  name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_row))));
  text = g_string_new (name);
  g_string_append_c (text, ':');
  if (self->kind == DYN_INDEX_GLOBAL)
    {
      append_attributes (text, self->partition_rows);
      if (self->sort_rows->len > 0)
        {
          g_string_append_c (text, ':');
          append_attributes (text, self->sort_rows);
        }
    }
  else
    append_attributes (text, self->sort_rows);
  switch (adw_combo_row_get_selected (self->projection_row))
    {
    case DYN_PROJECTION_KEYS_ONLY:
      g_string_append (text, ":KEYS_ONLY");
      break;
    case DYN_PROJECTION_INCLUDE:
      {
        g_auto(GStrv) parts = g_strsplit (gtk_editable_get_text (GTK_EDITABLE (self->include_row)), ",", -1);
        guint n = 0;

        g_string_append (text, ":INCLUDE=");
        for (guint i = 0; parts[i] != NULL; i++)
          {
            g_strstrip (parts[i]);
            if (*parts[i] != '\0')
              g_string_append_printf (text, "%s%s", n++ ? "," : "", parts[i]);
          }
      }
      break;
    default:
      g_string_append (text, ":ALL");
    }
  return g_string_free (text, FALSE);
}

void
dyn_create_table_index_row_set_error (DynCreateTableIndexRow *self,
                                      const char             *message)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self));

  if (g_strcmp0 (self->error, message) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");
}

const char *
dyn_create_table_index_row_get_error (DynCreateTableIndexRow *self)
{
  g_return_val_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self), NULL);
  return self->error;
}

void
dyn_create_table_index_row_set_name (DynCreateTableIndexRow *self,
                                     const char             *name)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);
}

gboolean
dyn_create_table_index_row_add_attribute (DynCreateTableIndexRow *self,
                                          gboolean                is_sort,
                                          const char             *name,
                                          DynValueType            type)
{
  GPtrArray *rows;
  GtkWidget *row;

  g_return_val_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self), FALSE);
  g_return_val_if_fail (is_sort || self->kind == DYN_INDEX_GLOBAL, FALSE);

  rows = is_sort ? self->sort_rows : self->partition_rows;
  /* The first row of a key is there from the start: fill it first. */
  if (rows->len > 0 && *gtk_editable_get_text (GTK_EDITABLE (rows->pdata[rows->len - 1])) == '\0')
    row = rows->pdata[rows->len - 1];
  else if (self->kind == DYN_INDEX_LOCAL || rows->len >= DYN_KEY_MAX_ATTRIBUTES)
    return FALSE;
  else
    row = add_attribute_row (self, is_sort, TRUE);
  gtk_drop_down_set_selected (g_object_get_data (G_OBJECT (row), "type-dropdown"), _dyn_key_type_to_position (type));
  gtk_editable_set_text (GTK_EDITABLE (row), name);
  return TRUE;
}

void
dyn_create_table_index_row_set_projection (DynCreateTableIndexRow *self,
                                           DynProjectionType       projection,
                                           const char             *attributes)
{
  g_return_if_fail (DYN_IS_CREATE_TABLE_INDEX_ROW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->include_row), attributes ? attributes : "");
  adw_combo_row_set_selected (self->projection_row, projection);
}
