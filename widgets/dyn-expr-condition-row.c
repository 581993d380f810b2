/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr-condition-row"
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-expr-condition-row.h"
#include "dyn-widgets-private.h"
#include "dyn-widgets-enums.h"

struct _DynExprConditionRow
{
  GtkWidget       parent_instance;

  GArray         *offered;      /* DynExprRowOp */
  DynExprRowOp    op;
  guint           projection : 1;
  guint           setting : 1;
  guint           types_given : 1;   /* the values' types came with an expression */

  GtkEntry       *path_entry;
  GtkDropDown    *op_dropdown;
  DynValueEditor *value1;
  GtkLabel       *and_label;
  DynValueEditor *value2;
  GtkButton      *remove_button;
};

enum {
  PROP_0,
  PROP_PATH,
  PROP_OPERATOR,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynExprConditionRow, dyn_expr_condition_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

enum {
  REMOVE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct {
  DynExprRowOp  op;
  const char   *label;
  int           n_values;
} row_ops[] = {
  { DYN_EXPR_ROW_EQ, "=", 1 },
  { DYN_EXPR_ROW_NE, "<>", 1 },
  { DYN_EXPR_ROW_LT, "<", 1 },
  { DYN_EXPR_ROW_LE, "<=", 1 },
  { DYN_EXPR_ROW_GT, ">", 1 },
  { DYN_EXPR_ROW_GE, ">=", 1 },
  { DYN_EXPR_ROW_BETWEEN, N_("between"), 2 },
  { DYN_EXPR_ROW_IN, N_("is one of"), -1 },
  { DYN_EXPR_ROW_BEGINS_WITH, N_("begins with"), 1 },
  { DYN_EXPR_ROW_CONTAINS, N_("contains"), 1 },
  { DYN_EXPR_ROW_EXISTS, N_("exists"), 0 },
  { DYN_EXPR_ROW_NOT_EXISTS, N_("does not exist"), 0 },
  { DYN_EXPR_ROW_TYPE, N_("is of type"), 1 },
  { DYN_EXPR_ROW_SIZE_EQ, N_("size ="), 1 },
  { DYN_EXPR_ROW_SIZE_NE, N_("size <>"), 1 },
  { DYN_EXPR_ROW_SIZE_LT, N_("size <"), 1 },
  { DYN_EXPR_ROW_SIZE_LE, N_("size <="), 1 },
  { DYN_EXPR_ROW_SIZE_GT, N_("size >"), 1 },
  { DYN_EXPR_ROW_SIZE_GE, N_("size >="), 1 },
};

static const char *
_dyn_expr_row_op_get_label (DynExprRowOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (row_ops); i++)
    if (row_ops[i].op == op)
      return g_dgettext (GETTEXT_PACKAGE, row_ops[i].label);
  return "?";
}

static int
_dyn_expr_row_op_get_n_values (DynExprRowOp op)
{
  for (guint i = 0; i < G_N_ELEMENTS (row_ops); i++)
    if (row_ops[i].op == op)
      return row_ops[i].n_values;
  return 1;
}

static gboolean
is_size_op (DynExprRowOp op)
{
  return op >= DYN_EXPR_ROW_SIZE_EQ && op <= DYN_EXPR_ROW_SIZE_GE;
}

static void
update_value_editors (DynExprConditionRow *self)
{
  int n = _dyn_expr_row_op_get_n_values (self->op);

  gtk_widget_set_visible (GTK_WIDGET (self->op_dropdown), !self->projection);
  gtk_widget_set_visible (GTK_WIDGET (self->value1), !self->projection && n != 0);
  gtk_widget_set_visible (GTK_WIDGET (self->and_label), !self->projection && n == 2);
  gtk_widget_set_visible (GTK_WIDGET (self->value2), !self->projection && n == 2);
  gtk_widget_set_hexpand (GTK_WIDGET (self->path_entry), self->projection || n == 0);
  dyn_value_editor_set_list_mode (self->value1, n == -1);
  dyn_value_editor_set_type_locked (self->value1, self->op == DYN_EXPR_ROW_TYPE);
  if (self->op == DYN_EXPR_ROW_TYPE)
    dyn_value_editor_set_value_type (self->value1, DYN_VALUE_S);
  else if (is_size_op (self->op) && !dyn_value_editor_get_type_chosen (self->value1))
    dyn_value_editor_set_value_type (self->value1, DYN_VALUE_N);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->remove_button),
                               self->projection ? _("Remove Attribute (Ctrl+Delete)")
                                                : _("Remove Condition (Ctrl+Delete)"));
}

static void
rebuild_dropdown (DynExprConditionRow *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  guint selected = 0;

  for (guint i = 0; i < self->offered->len; i++)
    {
      DynExprRowOp op = g_array_index (self->offered, DynExprRowOp, i);

      gtk_string_list_append (model, _dyn_expr_row_op_get_label (op));
      if (op == self->op)
        selected = i;
    }
  self->setting = TRUE;
  gtk_drop_down_set_model (self->op_dropdown, G_LIST_MODEL (model));
  gtk_drop_down_set_selected (self->op_dropdown, selected);
  self->setting = FALSE;
}

static void
path_changed_cb (DynExprConditionRow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

static void
entry_activate_cb (DynExprConditionRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.add-row", NULL);
}

static void
op_selected_cb (DynExprConditionRow *self)
{
  guint pos;

  if (self->setting)
    return;
  pos = gtk_drop_down_get_selected (self->op_dropdown);
  if (pos >= self->offered->len)
    return;
  dyn_expr_condition_row_set_operator (self, g_array_index (self->offered, DynExprRowOp, pos));
}

static void
value_changed_cb (DynExprConditionRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

static gboolean
value_activate_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  /* Enter in a value's entry runs the query (when the builder has one to
   * run); on the type drop-down it opens the list as usual. */
  if (focus == NULL || !GTK_IS_TEXT (focus))
    return FALSE;
  return gtk_widget_activate_action (widget, "builder.run", NULL);
}

static void
remove_clicked_cb (DynExprConditionRow *self)
{
  g_signal_emit (self, signals[REMOVE_REQUESTED], 0);
}

static gboolean
dyn_expr_condition_row_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (DYN_EXPR_CONDITION_ROW (widget)->path_entry));
}

static void
dyn_expr_condition_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  DynExprConditionRow *self = DYN_EXPR_CONDITION_ROW (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, dyn_expr_condition_row_get_path (self));
      break;
    case PROP_OPERATOR:
      g_value_set_enum (value, self->op);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_condition_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  DynExprConditionRow *self = DYN_EXPR_CONDITION_ROW (object);

  switch (prop_id)
    {
    case PROP_PATH:
      dyn_expr_condition_row_set_path (self, g_value_get_string (value));
      break;
    case PROP_OPERATOR:
      dyn_expr_condition_row_set_operator (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_condition_row_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_EXPR_CONDITION_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (dyn_expr_condition_row_parent_class)->dispose (object);
}

static void
dyn_expr_condition_row_finalize (GObject *object)
{
  DynExprConditionRow *self = DYN_EXPR_CONDITION_ROW (object);

  g_clear_pointer (&self->offered, g_array_unref);
  G_OBJECT_CLASS (dyn_expr_condition_row_parent_class)->finalize (object);
}

static void
dyn_expr_condition_row_class_init (DynExprConditionRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyn_expr_condition_row_get_property;
  object_class->set_property = dyn_expr_condition_row_set_property;
  object_class->dispose = dyn_expr_condition_row_dispose;
  object_class->finalize = dyn_expr_condition_row_finalize;
  widget_class->grab_focus = dyn_expr_condition_row_grab_focus;

  /* The user asked to remove the row; the group holding it does. */
  signals[REMOVE_REQUESTED] = g_signal_new ("remove-requested", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OPERATOR] =
    g_param_spec_enum ("operator", NULL, NULL, DYN_TYPE_EXPR_ROW_OP, DYN_EXPR_ROW_EQ,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DYN_TYPE_VALUE_EDITOR);
  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-expr-condition-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, path_entry);
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, value1);
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, and_label);
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, value2);
  gtk_widget_class_bind_template_child (widget_class, DynExprConditionRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, path_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, op_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, value_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
dyn_expr_condition_row_init (DynExprConditionRow *self)
{
  self->offered = g_array_new (FALSE, FALSE, sizeof (DynExprRowOp));
  self->op = DYN_EXPR_ROW_EQ;
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Before the value's entry sees Enter (it would add a row). */
  for (guint i = 0; i < 2; i++)
    {
      GtkEventController *controller = gtk_shortcut_controller_new ();

      gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
      for (guint k = 0; k < 2; k++)
        gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                              gtk_shortcut_new (gtk_keyval_trigger_new (k == 0 ? GDK_KEY_Return
                                                                                               : GDK_KEY_KP_Enter, 0),
                                                                gtk_callback_action_new (value_activate_cb, NULL, NULL)));
      gtk_widget_add_controller (GTK_WIDGET (i == 0 ? self->value1 : self->value2), controller);
    }
  for (guint i = 0; i < G_N_ELEMENTS (row_ops); i++)
    g_array_append_val (self->offered, row_ops[i].op);
  rebuild_dropdown (self);
  update_value_editors (self);
}

GtkWidget *
dyn_expr_condition_row_new (gboolean      projection,
                            GtkTreeModel *completion)
{
  DynExprConditionRow *self = g_object_new (DYN_TYPE_EXPR_CONDITION_ROW, NULL);

  self->projection = !!projection;
  if (projection)
    gtk_entry_set_placeholder_text (self->path_entry, _("Attribute path"));
  update_value_editors (self);
  if (completion != NULL)
    _dyn_widgets_setup_completion (self->path_entry, completion);
  return GTK_WIDGET (self);
}

const char *
dyn_expr_condition_row_get_path (DynExprConditionRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
}

void
dyn_expr_condition_row_set_path (DynExprConditionRow *self,
                                 const char          *path)
{
  g_return_if_fail (DYN_IS_EXPR_CONDITION_ROW (self));

  if (g_strcmp0 (path ? path : "", dyn_expr_condition_row_get_path (self)) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path ? path : "");
}

DynExprRowOp
dyn_expr_condition_row_get_operator (DynExprConditionRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), DYN_EXPR_ROW_EQ);
  return self->op;
}

void
dyn_expr_condition_row_set_operator (DynExprConditionRow *self,
                                     DynExprRowOp         op)
{
  gboolean listed = FALSE;

  g_return_if_fail (DYN_IS_EXPR_CONDITION_ROW (self));

  if (self->op == op)
    return;
  self->op = op;
  for (guint i = 0; i < self->offered->len; i++)
    {
      if (g_array_index (self->offered, DynExprRowOp, i) != op)
        continue;
      listed = TRUE;
      if (gtk_drop_down_get_selected (self->op_dropdown) != i)
        {
          self->setting = TRUE;
          gtk_drop_down_set_selected (self->op_dropdown, i);
          self->setting = FALSE;
        }
    }
  if (!listed)
    {
      g_array_append_val (self->offered, op);
      rebuild_dropdown (self);
    }
  update_value_editors (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OPERATOR]);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

gboolean
dyn_expr_condition_row_get_projection (DynExprConditionRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), FALSE);
  return self->projection;
}

void
dyn_expr_condition_row_set_allowed_operators (DynExprConditionRow *self,
                                              const DynExprRowOp  *ops,
                                              guint                n_ops)
{
  g_autoptr(GArray) offered = g_array_new (FALSE, FALSE, sizeof (DynExprRowOp));
  gboolean current = FALSE;

  g_return_if_fail (DYN_IS_EXPR_CONDITION_ROW (self));
  g_return_if_fail (n_ops > 0);

  g_array_append_vals (offered, ops, n_ops);
  for (guint i = 0; i < n_ops; i++)
    current |= ops[i] == self->op;
  if (!current)
    g_array_append_val (offered, self->op);

  if (offered->len == self->offered->len &&
      memcmp (offered->data, self->offered->data, offered->len * sizeof (DynExprRowOp)) == 0)
    return;
  g_clear_pointer (&self->offered, g_array_unref);
  self->offered = g_steal_pointer (&offered);
  rebuild_dropdown (self);
}

const DynExprRowOp *
dyn_expr_condition_row_get_offered_operators (DynExprConditionRow *self,
                                              guint               *n_ops)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), NULL);

  if (n_ops != NULL)
    *n_ops = self->offered->len;
  return (const DynExprRowOp *) self->offered->data;
}

DynValueEditor *
dyn_expr_condition_row_get_value_editor (DynExprConditionRow *self,
                                         guint                i)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), NULL);
  g_return_val_if_fail (i < 2, NULL);
  return i == 0 ? self->value1 : self->value2;
}

void
dyn_expr_condition_row_suggest_type (DynExprConditionRow *self,
                                     DynValueType         type)
{
  g_return_if_fail (DYN_IS_EXPR_CONDITION_ROW (self));

  /* A loaded expression says what its values are: "2013" stays a string
   * even where the key is a number (the checks then say so). */
  if (self->op == DYN_EXPR_ROW_TYPE || is_size_op (self->op) || self->types_given)
    return;
  for (guint i = 0; i < 2; i++)
    {
      DynValueEditor *editor = i == 0 ? self->value1 : self->value2;

      if (!dyn_value_editor_get_type_chosen (editor))
        dyn_value_editor_set_value_type (editor, type);
    }
}

GtkWidget *
dyn_expr_condition_row_get_path_entry (DynExprConditionRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), NULL);
  return GTK_WIDGET (self->path_entry);
}

DynExprNode *
dyn_expr_condition_row_build (DynExprConditionRow  *self,
                              GError              **error)
{
  g_autofree char *text = NULL;
  g_autoptr(DynExprPath) path = NULL;
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(GError) local_error = NULL;
  int n;

  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), NULL);

  text = g_strstrip (g_strdup (dyn_expr_condition_row_get_path (self)));
  if (text[0] == '\0')
    return NULL;
  path = dyn_expr_path_parse (text, &local_error);
  if (path == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("Attribute path “%s”: %s"),
                   text, local_error->message);
      return NULL;
    }
  if (self->projection)
    return dyn_expr_node_new_path (g_steal_pointer (&path));

  n = _dyn_expr_row_op_get_n_values (self->op);
  for (int i = 0; i < (n < 0 ? 1 : n); i++)
    {
      DynValueEditor *editor = i == 0 ? self->value1 : self->value2;
      g_autoptr(GPtrArray) got = NULL;

      if (dyn_value_editor_is_empty (editor))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("%s: a value is missing"), text);
          return NULL;
        }
      got = dyn_value_editor_dup_values (editor, &local_error);
      if (got == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s: %s", text, local_error->message);
          return NULL;
        }
      for (guint j = 0; j < got->len; j++)
        g_ptr_array_add (values, dyn_value_ref (got->pdata[j]));
    }

  return dyn_expr_node_new_row (g_steal_pointer (&path), self->op,
                                (DynValue * const *) values->pdata, values->len, error);
}

gboolean
dyn_expr_condition_row_load (DynExprConditionRow *self,
                             DynExprNode         *node)
{
  const DynExprPath *path = NULL;
  DynExprRowOp op;
  g_autoptr(GPtrArray) values = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYN_IS_EXPR_CONDITION_ROW (self), FALSE);
  g_return_val_if_fail (node != NULL, FALSE);

  if (self->projection)
    {
      if (dyn_expr_node_get_kind (node) != DYN_EXPR_PATH)
        return FALSE;
      text = dyn_expr_path_to_string (dyn_expr_node_get_path (node));
      dyn_expr_condition_row_set_path (self, text);
      return TRUE;
    }

  if (!dyn_expr_node_get_row (node, &path, &op, &values))
    return FALSE;
  self->types_given = TRUE;
  text = dyn_expr_path_to_string (path);
  dyn_expr_condition_row_set_path (self, text);
  dyn_expr_condition_row_set_operator (self, op);
  if (op == DYN_EXPR_ROW_IN)
    dyn_value_editor_set_values (self->value1, values);
  else
    for (guint i = 0; i < MIN (values->len, 2); i++)
      dyn_value_editor_set_value (i == 0 ? self->value1 : self->value2, values->pdata[i]);
  return TRUE;
}
