/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr-update-row"
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-expr-update-row.h"
#include "dyn-widgets-private.h"
#include "dyn-widgets-enums.h"

struct _DynExprUpdateRow
{
  GtkWidget       parent_instance;

  GtkDropDown    *action_dropdown;
  GtkEntry       *path_entry;
  GtkDropDown    *mode_dropdown;
  DynValueEditor *value;
  GtkButton      *remove_button;
};

enum {
  PROP_0,
  PROP_ACTION,
  PROP_SET_MODE,
  PROP_PATH,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynExprUpdateRow, dyn_expr_update_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

enum {
  REMOVE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const DynExprKind actions[] = {
  DYN_EXPR_SET, DYN_EXPR_REMOVE, DYN_EXPR_ADD, DYN_EXPR_DELETE,
};

static void
update_visibility (DynExprUpdateRow *self)
{
  DynExprKind action = dyn_expr_update_row_get_action (self);

  gtk_widget_set_visible (GTK_WIDGET (self->mode_dropdown), action == DYN_EXPR_SET);
  gtk_widget_set_visible (GTK_WIDGET (self->value), action != DYN_EXPR_REMOVE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->path_entry), action == DYN_EXPR_REMOVE);
  if ((action == DYN_EXPR_ADD || dyn_expr_update_row_get_set_mode (self) == DYN_EXPR_SET_PLUS ||
       dyn_expr_update_row_get_set_mode (self) == DYN_EXPR_SET_MINUS) &&
      !dyn_value_editor_get_type_chosen (self->value) && action != DYN_EXPR_DELETE &&
      dyn_value_editor_is_empty (self->value))
    dyn_value_editor_set_value_type (self->value, DYN_VALUE_N);
  else if (action == DYN_EXPR_DELETE && !dyn_value_editor_get_type_chosen (self->value) &&
           dyn_value_editor_is_empty (self->value))
    dyn_value_editor_set_value_type (self->value, DYN_VALUE_SS);
  else if ((dyn_expr_update_row_get_set_mode (self) == DYN_EXPR_SET_LIST_APPEND ||
            dyn_expr_update_row_get_set_mode (self) == DYN_EXPR_SET_LIST_PREPEND) &&
           action == DYN_EXPR_SET && !dyn_value_editor_get_type_chosen (self->value) &&
           dyn_value_editor_is_empty (self->value))
    dyn_value_editor_set_value_type (self->value, DYN_VALUE_L);
}

static void
action_selected_cb (DynExprUpdateRow *self)
{
  update_visibility (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTION]);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

static void
changed_cb (DynExprUpdateRow *self)
{
  update_visibility (self);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

static void
entry_activate_cb (DynExprUpdateRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.add-row", NULL);
}

static void
remove_clicked_cb (DynExprUpdateRow *self)
{
  g_signal_emit (self, signals[REMOVE_REQUESTED], 0);
}

static gboolean
dyn_expr_update_row_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (DYN_EXPR_UPDATE_ROW (widget)->action_dropdown));
}

static void
dyn_expr_update_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  DynExprUpdateRow *self = DYN_EXPR_UPDATE_ROW (object);

  switch (prop_id)
    {
    case PROP_ACTION:
      g_value_set_enum (value, dyn_expr_update_row_get_action (self));
      break;
    case PROP_SET_MODE:
      g_value_set_uint (value, dyn_expr_update_row_get_set_mode (self));
      break;
    case PROP_PATH:
      g_value_set_string (value, dyn_expr_update_row_get_path (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_update_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  DynExprUpdateRow *self = DYN_EXPR_UPDATE_ROW (object);

  switch (prop_id)
    {
    case PROP_ACTION:
      dyn_expr_update_row_set_action (self, g_value_get_enum (value));
      break;
    case PROP_SET_MODE:
      dyn_expr_update_row_set_set_mode (self, g_value_get_uint (value));
      break;
    case PROP_PATH:
      dyn_expr_update_row_set_path (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_update_row_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_EXPR_UPDATE_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (dyn_expr_update_row_parent_class)->dispose (object);
}

static void
dyn_expr_update_row_class_init (DynExprUpdateRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyn_expr_update_row_get_property;
  object_class->set_property = dyn_expr_update_row_set_property;
  object_class->dispose = dyn_expr_update_row_dispose;
  widget_class->grab_focus = dyn_expr_update_row_grab_focus;

  /* The user asked to remove the row; the group holding it does. */
  signals[REMOVE_REQUESTED] = g_signal_new ("remove-requested", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  properties[PROP_ACTION] =
    g_param_spec_enum ("action", NULL, NULL, DYN_TYPE_EXPR_KIND, DYN_EXPR_SET,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SET_MODE] =
    g_param_spec_uint ("set-mode", NULL, NULL, DYN_EXPR_SET_VALUE, DYN_EXPR_SET_MINUS, DYN_EXPR_SET_VALUE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DYN_TYPE_VALUE_EDITOR);
  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-expr-update-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynExprUpdateRow, action_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExprUpdateRow, path_entry);
  gtk_widget_class_bind_template_child (widget_class, DynExprUpdateRow, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExprUpdateRow, value);
  gtk_widget_class_bind_template_child (widget_class, DynExprUpdateRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, action_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
dyn_expr_update_row_init (DynExprUpdateRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update_visibility (self);
}

GtkWidget *
dyn_expr_update_row_new (GtkTreeModel *completion)
{
  DynExprUpdateRow *self = g_object_new (DYN_TYPE_EXPR_UPDATE_ROW, NULL);

  if (completion != NULL)
    _dyn_widgets_setup_completion (self->path_entry, completion);
  return GTK_WIDGET (self);
}

DynExprKind
dyn_expr_update_row_get_action (DynExprUpdateRow *self)
{
  guint pos;

  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), DYN_EXPR_SET);

  pos = gtk_drop_down_get_selected (self->action_dropdown);
  return pos < G_N_ELEMENTS (actions) ? actions[pos] : DYN_EXPR_SET;
}

void
dyn_expr_update_row_set_action (DynExprUpdateRow *self,
                                DynExprKind       action)
{
  g_return_if_fail (DYN_IS_EXPR_UPDATE_ROW (self));

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    if (actions[i] == action)
      gtk_drop_down_set_selected (self->action_dropdown, i);
}

DynExprSetMode
dyn_expr_update_row_get_set_mode (DynExprUpdateRow *self)
{
  guint pos;

  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), DYN_EXPR_SET_VALUE);

  pos = gtk_drop_down_get_selected (self->mode_dropdown);
  return pos <= DYN_EXPR_SET_MINUS ? (DynExprSetMode) pos : DYN_EXPR_SET_VALUE;
}

void
dyn_expr_update_row_set_set_mode (DynExprUpdateRow *self,
                                  DynExprSetMode    mode)
{
  g_return_if_fail (DYN_IS_EXPR_UPDATE_ROW (self));

  if (dyn_expr_update_row_get_set_mode (self) == mode)
    return;
  gtk_drop_down_set_selected (self->mode_dropdown, mode);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SET_MODE]);
}

const char *
dyn_expr_update_row_get_path (DynExprUpdateRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
}

void
dyn_expr_update_row_set_path (DynExprUpdateRow *self,
                              const char       *path)
{
  g_return_if_fail (DYN_IS_EXPR_UPDATE_ROW (self));

  if (g_strcmp0 (path ? path : "", dyn_expr_update_row_get_path (self)) == 0)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path ? path : "");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

DynValueEditor *
dyn_expr_update_row_get_value_editor (DynExprUpdateRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), NULL);
  return self->value;
}

GtkWidget *
dyn_expr_update_row_get_path_entry (DynExprUpdateRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), NULL);
  return GTK_WIDGET (self->path_entry);
}

DynExprNode *
dyn_expr_update_row_build (DynExprUpdateRow  *self,
                           GError           **error)
{
  g_autofree char *text = NULL;
  g_autoptr(DynExprPath) path = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynValue) value = NULL;
  DynExprKind action;
  DynExprNode *operand;

  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), NULL);

  text = g_strstrip (g_strdup (dyn_expr_update_row_get_path (self)));
  if (text[0] == '\0')
    return NULL;
  path = dyn_expr_path_parse (text, &local_error);
  if (path == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("Attribute path “%s”: %s"),
                   text, local_error->message);
      return NULL;
    }

  action = dyn_expr_update_row_get_action (self);
  if (action == DYN_EXPR_REMOVE)
    return dyn_expr_node_new_unary (DYN_EXPR_REMOVE, dyn_expr_node_new_path (g_steal_pointer (&path)));

  if (dyn_value_editor_is_empty (self->value))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("%s: a value is missing"), text);
      return NULL;
    }
  value = dyn_value_editor_dup_value (self->value, &local_error);
  if (value == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s: %s", text, local_error->message);
      return NULL;
    }

  if (action != DYN_EXPR_SET)
    return dyn_expr_node_new_binary (action, dyn_expr_node_new_path (g_steal_pointer (&path)),
                                     dyn_expr_node_new_value (value));

  switch (dyn_expr_update_row_get_set_mode (self))
    {
    case DYN_EXPR_SET_VALUE:
      operand = dyn_expr_node_new_value (value);
      break;
    case DYN_EXPR_SET_IF_NOT_EXISTS:
      operand = dyn_expr_node_new_binary (DYN_EXPR_IF_NOT_EXISTS, dyn_expr_node_new_path (dyn_expr_path_copy (path)),
                                          dyn_expr_node_new_value (value));
      break;
    case DYN_EXPR_SET_LIST_APPEND:
      operand = dyn_expr_node_new_binary (DYN_EXPR_LIST_APPEND, dyn_expr_node_new_path (dyn_expr_path_copy (path)),
                                          dyn_expr_node_new_value (value));
      break;
    case DYN_EXPR_SET_LIST_PREPEND:
      operand = dyn_expr_node_new_binary (DYN_EXPR_LIST_APPEND, dyn_expr_node_new_value (value),
                                          dyn_expr_node_new_path (dyn_expr_path_copy (path)));
      break;
    case DYN_EXPR_SET_PLUS:
      operand = dyn_expr_node_new_binary (DYN_EXPR_PLUS, dyn_expr_node_new_path (dyn_expr_path_copy (path)),
                                          dyn_expr_node_new_value (value));
      break;
    case DYN_EXPR_SET_MINUS:
      operand = dyn_expr_node_new_binary (DYN_EXPR_MINUS, dyn_expr_node_new_path (dyn_expr_path_copy (path)),
                                          dyn_expr_node_new_value (value));
      break;
    default:
      g_assert_not_reached ();
    }
  return dyn_expr_node_new_binary (DYN_EXPR_SET, dyn_expr_node_new_path (g_steal_pointer (&path)), operand);
}

static gboolean
is_path (DynExprNode       *node,
         const DynExprPath *path)
{
  return dyn_expr_node_get_kind (node) == DYN_EXPR_PATH &&
         dyn_expr_path_equal (dyn_expr_node_get_path (node), path);
}

static DynValue *
inline_value (DynExprNode *node)
{
  return dyn_expr_node_get_kind (node) == DYN_EXPR_VALUE ? dyn_expr_node_get_value (node) : NULL;
}

gboolean
dyn_expr_update_row_load (DynExprUpdateRow *self,
                          DynExprNode      *node)
{
  DynExprKind action;
  DynExprNode *target;
  const DynExprPath *path;
  g_autofree char *text = NULL;
  DynValue *value = NULL;
  DynExprSetMode mode = DYN_EXPR_SET_VALUE;

  g_return_val_if_fail (DYN_IS_EXPR_UPDATE_ROW (self), FALSE);

  action = dyn_expr_node_get_kind (node);
  if (action != DYN_EXPR_SET && action != DYN_EXPR_REMOVE && action != DYN_EXPR_ADD && action != DYN_EXPR_DELETE)
    return FALSE;
  target = dyn_expr_node_get_child (node, 0);
  if (dyn_expr_node_get_kind (target) != DYN_EXPR_PATH)
    return FALSE;
  path = dyn_expr_node_get_path (target);

  if (action == DYN_EXPR_SET)
    {
      DynExprNode *operand = dyn_expr_node_get_child (node, 1);
      DynExprKind kind = dyn_expr_node_get_kind (operand);

      if (kind == DYN_EXPR_VALUE)
        value = inline_value (operand);
      else if (dyn_expr_node_get_n_children (operand) == 2)
        {
          DynExprNode *a = dyn_expr_node_get_child (operand, 0);
          DynExprNode *b = dyn_expr_node_get_child (operand, 1);

          if (kind == DYN_EXPR_LIST_APPEND && is_path (b, path))
            {
              mode = DYN_EXPR_SET_LIST_PREPEND;
              value = inline_value (a);
            }
          else if (is_path (a, path))
            {
              value = inline_value (b);
              if (kind == DYN_EXPR_IF_NOT_EXISTS)
                mode = DYN_EXPR_SET_IF_NOT_EXISTS;
              else if (kind == DYN_EXPR_LIST_APPEND)
                mode = DYN_EXPR_SET_LIST_APPEND;
              else if (kind == DYN_EXPR_PLUS)
                mode = DYN_EXPR_SET_PLUS;
              else if (kind == DYN_EXPR_MINUS)
                mode = DYN_EXPR_SET_MINUS;
              else
                value = NULL;
            }
        }
      if (value == NULL)
        return FALSE;
    }
  else if (action != DYN_EXPR_REMOVE)
    {
      value = inline_value (dyn_expr_node_get_child (node, 1));
      if (value == NULL)
        return FALSE;
    }

  text = dyn_expr_path_to_string (path);
  dyn_expr_update_row_set_action (self, action);
  dyn_expr_update_row_set_set_mode (self, mode);
  dyn_expr_update_row_set_path (self, text);
  if (value != NULL)
    dyn_value_editor_set_value (self->value, value);
  return TRUE;
}
