/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-column-picker"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-column-picker.h"

struct _DynColumnPicker
{
  GtkPopover      parent_instance;

  DynColumnSet   *columns;
  GPtrArray      *keys;       /* the rows' keys, in order */
  GHashTable     *rows;       /* key → GtkListBoxRow */
  char           *error;
  gboolean        updating;

  GtkSearchEntry *search_entry;
  GtkListBox     *list;
  GtkEntry       *path_entry;
  GtkLabel       *error_label;
};

enum {
  PROP_0,
  PROP_COLUMNS,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynColumnPicker, dyn_column_picker, GTK_TYPE_POPOVER)

static GParamSpec *properties[N_PROPS];

/* The parts of a row. */
#define ROW_CHECK "dyn-check"
#define ROW_UP "dyn-up"
#define ROW_DOWN "dyn-down"
#define ROW_REMOVE "dyn-remove"

static void
set_error (DynColumnPicker *self,
           const char      *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static gboolean
row_matches (DynColumnPicker *self,
             DynColumn       *column)
{
  const char *filter = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *needle = NULL;
  g_autofree char *title = NULL;

  if (filter == NULL || *filter == '\0')
    return TRUE;
  needle = g_utf8_casefold (filter, -1);
  title = g_utf8_casefold (dyn_column_get_title (column), -1);
  return strstr (title, needle) != NULL;
}

static void
check_toggled_cb (GtkCheckButton  *check,
                  DynColumnPicker *self)
{
  const char *key = g_object_get_data (G_OBJECT (check), "dyn-key");

  if (self->updating || self->columns == NULL)
    return;
  dyn_column_set_set_visible (self->columns, key, gtk_check_button_get_active (check));
}

static GtkWidget *
icon_button (const char *icon,
             const char *action,
             const char *key,
             const char *tooltip,
             const char *label)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button), g_variant_new_string (key));
  return button;
}

static GtkWidget *
row_new (DynColumnPicker *self,
         DynColumn       *column)
{
  const char *key = dyn_column_get_key (column);
  const char *title = dyn_column_get_title (column);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
  GtkWidget *check = gtk_check_button_new_with_label (title);
  GtkWidget *up, *down, *remove = NULL;
  g_autofree char *up_label = g_strdup_printf (_("Move %s up"), title);
  g_autofree char *down_label = g_strdup_printf (_("Move %s down"), title);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_hexpand (check, TRUE);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 4);
  g_object_set_data_full (G_OBJECT (check), "dyn-key", g_strdup (key), g_free);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), dyn_column_get_visible (column));
  g_signal_connect (check, "toggled", G_CALLBACK (check_toggled_cb), self);
  gtk_box_append (GTK_BOX (box), check);
  if (dyn_column_get_kind (column) == DYN_COLUMN_PATH)
    {
      g_autofree char *remove_label = g_strdup_printf (_("Remove the column %s"), title);
      GtkWidget *kind = gtk_label_new (_("path"));

      gtk_widget_add_css_class (kind, "dim-label");
      gtk_widget_add_css_class (kind, "caption");
      gtk_widget_set_tooltip_text (check, _("Shows the value at this document path"));
      gtk_box_append (GTK_BOX (box), kind);
      remove = icon_button ("list-remove-symbolic", "columns.remove", key, _("Remove Column"), remove_label);
    }
  up = icon_button ("go-up-symbolic", "columns.move-up", key, _("Move Up"), up_label);
  down = icon_button ("go-down-symbolic", "columns.move-down", key, _("Move Down"), down_label);
  gtk_box_append (GTK_BOX (box), up);
  gtk_box_append (GTK_BOX (box), down);
  if (remove != NULL)
    gtk_box_append (GTK_BOX (box), remove);
  g_object_set_data (G_OBJECT (row), ROW_CHECK, check);
  g_object_set_data (G_OBJECT (row), ROW_UP, up);
  g_object_set_data (G_OBJECT (row), ROW_DOWN, down);
  g_object_set_data (G_OBJECT (row), ROW_REMOVE, remove);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

/* Which part of which row has the focus: to give it back after a rebuild. */
static const char *
focused_part (DynColumnPicker  *self,
              char            **key)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  const char *parts[] = { ROW_CHECK, ROW_UP, ROW_DOWN, ROW_REMOVE };
  GHashTableIter iter;
  gpointer k, row;

  *key = NULL;
  if (focus == NULL)
    return NULL;
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, &k, &row))
    for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
      {
        GtkWidget *part = g_object_get_data (row, parts[i]);

        if (part != NULL && (focus == part || gtk_widget_is_ancestor (focus, part)))
          {
            *key = g_strdup (k);
            return parts[i];
          }
      }
  return NULL;
}

/* Check states, the filter and which moves are possible, for rows that
 * stay. */
static void
update_rows (DynColumnPicker *self)
{
  guint n = self->keys->len;

  self->updating = TRUE;
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *row = g_hash_table_lookup (self->rows, self->keys->pdata[i]);
      DynColumn *column = dyn_column_set_lookup_key (self->columns, self->keys->pdata[i]);

      gtk_check_button_set_active (g_object_get_data (G_OBJECT (row), ROW_CHECK), dyn_column_get_visible (column));
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), ROW_UP), i > 0);
      gtk_widget_set_sensitive (g_object_get_data (G_OBJECT (row), ROW_DOWN), i + 1 < n);
      gtk_widget_set_visible (row, row_matches (self, column));
    }
  self->updating = FALSE;
}

static gboolean
same_keys (DynColumnPicker *self)
{
  guint n = self->columns ? dyn_column_set_get_n_columns (self->columns) : 0;

  if (n != self->keys->len)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (dyn_column_get_key (dyn_column_set_get_column (self->columns, i)), self->keys->pdata[i]) != 0)
      return FALSE;
  return TRUE;
}

static void
rebuild (DynColumnPicker *self)
{
  g_autofree char *focus_key = NULL;
  const char *part = NULL;
  GtkWidget *child;

  if (same_keys (self))
    {
      update_rows (self);
      return;
    }
  part = focused_part (self, &focus_key);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_hash_table_remove_all (self->rows);
  g_ptr_array_set_size (self->keys, 0);
  for (guint i = 0; self->columns != NULL && i < dyn_column_set_get_n_columns (self->columns); i++)
    {
      DynColumn *column = dyn_column_set_get_column (self->columns, i);
      GtkWidget *row = row_new (self, column);

      gtk_list_box_append (self->list, row);
      g_ptr_array_add (self->keys, g_strdup (dyn_column_get_key (column)));
      g_hash_table_insert (self->rows, g_strdup (dyn_column_get_key (column)), row);
    }
  update_rows (self);
  if (focus_key != NULL)
    {
      GtkWidget *row = g_hash_table_lookup (self->rows, focus_key);
      GtkWidget *target = row ? g_object_get_data (G_OBJECT (row), part) : NULL;

      /* A button that cannot move the column further gives the focus to its check. */
      if (target == NULL || !gtk_widget_get_sensitive (target))
        target = row ? g_object_get_data (G_OBJECT (row), ROW_CHECK) : GTK_WIDGET (self->search_entry);
      gtk_widget_grab_focus (target);
    }
}

static void
columns_changed_cb (DynColumnSet    *columns,
                    DynColumnPicker *self)
{
  rebuild (self);
}

static void
search_changed_cb (DynColumnPicker *self)
{
  if (self->columns != NULL)
    update_rows (self);
}

static void
path_changed_cb (DynColumnPicker *self)
{
  if (self->error != NULL)
    set_error (self, NULL);
}

static void
add_path (DynColumnPicker *self)
{
  g_autoptr(GError) error = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  if (self->columns == NULL)
    return;
  if (dyn_column_set_add_path (self->columns, text, &error) == NULL)
    {
      set_error (self, error->message);
      gtk_widget_grab_focus (GTK_WIDGET (self->path_entry));
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), "");
  set_error (self, NULL);
}

static void
path_activate_cb (DynColumnPicker *self)
{
  add_path (self);
}

static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (widget);
  const char *key = g_variant_get_string (parameter, NULL);
  guint position;

  if (self->columns == NULL)
    return;
  position = dyn_column_set_find (self->columns, key);
  if (position == G_MAXUINT)
    return;
  if (g_str_equal (action_name, "columns.move-up"))
    {
      if (position > 0)
        dyn_column_set_move (self->columns, key, position - 1);
    }
  else
    dyn_column_set_move (self->columns, key, position + 1);
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (widget);

  if (self->columns != NULL)
    dyn_column_set_remove_path (self->columns, g_variant_get_string (parameter, NULL));
}

static void
add_path_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  add_path (DYN_COLUMN_PICKER (widget));
}

static void
show_all_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (widget);

  if (self->columns != NULL)
    dyn_column_set_show_all (self->columns);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (widget);

  if (self->columns != NULL)
    dyn_column_set_reset (self->columns);
}

static void
dyn_column_picker_dispose (GObject *object)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (object);

  dyn_column_picker_set_columns (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_COLUMN_PICKER);

  G_OBJECT_CLASS (dyn_column_picker_parent_class)->dispose (object);
}

static void
dyn_column_picker_finalize (GObject *object)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (object);

  g_ptr_array_unref (self->keys);
  g_hash_table_unref (self->rows);
  g_free (self->error);

  G_OBJECT_CLASS (dyn_column_picker_parent_class)->finalize (object);
}

static void
dyn_column_picker_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (object);

  switch (prop_id)
    {
    case PROP_COLUMNS:
      g_value_set_object (value, self->columns);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_column_picker_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DynColumnPicker *self = DYN_COLUMN_PICKER (object);

  switch (prop_id)
    {
    case PROP_COLUMNS:
      dyn_column_picker_set_columns (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_column_picker_class_init (DynColumnPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_column_picker_dispose;
  object_class->finalize = dyn_column_picker_finalize;
  object_class->get_property = dyn_column_picker_get_property;
  object_class->set_property = dyn_column_picker_set_property;

  properties[PROP_COLUMNS] =
    g_param_spec_object ("columns", NULL, NULL, DYN_TYPE_COLUMN_SET,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-column-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, DynColumnPicker, search_entry);
  gtk_widget_class_bind_template_child (widget_class, DynColumnPicker, list);
  gtk_widget_class_bind_template_child (widget_class, DynColumnPicker, path_entry);
  gtk_widget_class_bind_template_child (widget_class, DynColumnPicker, error_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, path_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, path_changed_cb);

  gtk_widget_class_install_action (widget_class, "columns.move-up", "s", move_action);
  gtk_widget_class_install_action (widget_class, "columns.move-down", "s", move_action);
  gtk_widget_class_install_action (widget_class, "columns.remove", "s", remove_action);
  gtk_widget_class_install_action (widget_class, "columns.add-path", NULL, add_path_action);
  gtk_widget_class_install_action (widget_class, "columns.show-all", NULL, show_all_action);
  gtk_widget_class_install_action (widget_class, "columns.reset", NULL, reset_action);
}

static void
dyn_column_picker_init (DynColumnPicker *self)
{
  self->keys = g_ptr_array_new_with_free_func (g_free);
  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyn_column_picker_new (void)
{
  return g_object_new (DYN_TYPE_COLUMN_PICKER, NULL);
}

DynColumnSet *
dyn_column_picker_get_columns (DynColumnPicker *self)
{
  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  return self->columns;
}

void
dyn_column_picker_set_columns (DynColumnPicker *self,
                               DynColumnSet    *columns)
{
  g_return_if_fail (DYN_IS_COLUMN_PICKER (self));
  g_return_if_fail (columns == NULL || DYN_IS_COLUMN_SET (columns));

  if (self->columns == columns)
    return;
  if (self->columns != NULL)
    g_signal_handlers_disconnect_by_func (self->columns, columns_changed_cb, self);
  g_set_object (&self->columns, columns);
  if (columns != NULL)
    g_signal_connect (columns, "changed", G_CALLBACK (columns_changed_cb), self);
  set_error (self, NULL);
  /* Some widgets may be gone already while the popover is disposed. */
  if (self->list != NULL)
    rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLUMNS]);
}

GtkCheckButton *
dyn_column_picker_get_check_button (DynColumnPicker *self,
                                    const char      *key)
{
  GtkWidget *row;

  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  row = g_hash_table_lookup (self->rows, key);
  return row ? g_object_get_data (G_OBJECT (row), ROW_CHECK) : NULL;
}

GtkEditable *
dyn_column_picker_get_path_entry (DynColumnPicker *self)
{
  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  return GTK_EDITABLE (self->path_entry);
}

GtkEditable *
dyn_column_picker_get_search_entry (DynColumnPicker *self)
{
  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  return GTK_EDITABLE (self->search_entry);
}

const char *
dyn_column_picker_get_error (DynColumnPicker *self)
{
  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  return self->error;
}

GStrv
dyn_column_picker_dup_shown_keys (DynColumnPicker *self)
{
  GStrvBuilder *builder;
  GStrv keys;

  g_return_val_if_fail (DYN_IS_COLUMN_PICKER (self), NULL);

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->keys->len; i++)
    if (gtk_widget_get_visible (g_hash_table_lookup (self->rows, self->keys->pdata[i])))
      g_strv_builder_add (builder, self->keys->pdata[i]);
  keys = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return keys;
}
