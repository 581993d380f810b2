/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr-group-row"
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-expr-condition-row.h"
#include "dyn-expr-group-row.h"
#include "dyn-expr-update-row.h"
#include "dyn-lifetime.h"
#include "dyn-widgets-private.h"
#include "dyn-widgets-enums.h"

struct _DynExprGroupRow
{
  GtkWidget          parent_instance;

  GtkTreeModel      *completion;
  DynExprRole        role;
  gboolean           root;

  GtkBox            *header;
  GtkDropDown       *combinator_dropdown;
  GtkCheckButton    *negate_check;
  GtkLabel          *title_label;
  GtkButton         *add_row_button;
  AdwButtonContent  *add_row_content;
  GtkButton         *add_group_button;
  GtkButton         *remove_button;
  GtkBox            *items_box;
  GtkLabel          *empty_label;
};

enum {
  PROP_0,
  PROP_COMBINATOR,
  PROP_NEGATED,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (DynExprGroupRow, dyn_expr_group_row, GTK_TYPE_WIDGET)

static GParamSpec *properties[N_PROPS];

enum {
  REMOVE_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
is_condition_role (DynExprRole role)
{
  return role == DYN_EXPR_ROLE_FILTER || role == DYN_EXPR_ROLE_CONDITION;
}

static void
update_empty (DynExprGroupRow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->empty_label), dyn_expr_group_row_get_n_items (self) == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->items_box), dyn_expr_group_row_get_n_items (self) > 0);
}

static void
setup_role (DynExprGroupRow *self)
{
  const char *title = NULL;
  const char *add = _("_Add Condition");
  const char *empty = _("No conditions yet.");
  gboolean conditions = is_condition_role (self->role);

  switch (self->role)
    {
    case DYN_EXPR_ROLE_KEY_CONDITION:
      title = _("Partition key, then sort key");
      empty = _("Add the condition on the partition key.");
      break;
    case DYN_EXPR_ROLE_FILTER:
      empty = _("No conditions: every item read is returned.");
      break;
    case DYN_EXPR_ROLE_CONDITION:
      empty = _("No conditions: the write is not guarded.");
      break;
    case DYN_EXPR_ROLE_UPDATE:
      title = _("Actions");
      add = _("_Add Action");
      empty = _("No actions yet.");
      break;
    case DYN_EXPR_ROLE_PROJECTION:
      title = _("Attributes to return");
      add = _("_Add Attribute");
      empty = _("No attributes: all attributes are returned.");
      break;
    default:
      break;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->combinator_dropdown), conditions);
  gtk_widget_set_visible (GTK_WIDGET (self->negate_check), conditions);
  gtk_widget_set_visible (GTK_WIDGET (self->add_group_button), conditions);
  gtk_widget_set_visible (GTK_WIDGET (self->remove_button), !self->root);
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), title != NULL);
  gtk_label_set_label (self->title_label, title);
  adw_button_content_set_label (self->add_row_content, add);
  gtk_label_set_label (self->empty_label, empty);
  if (self->root)
    gtk_widget_add_css_class (GTK_WIDGET (self), "dyn-root-group");
  update_empty (self);
}

static void
changed_cb (DynExprGroupRow *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

static void
add_row_clicked_cb (DynExprGroupRow *self)
{
  GtkWidget *row = dyn_expr_group_row_add_row (self);

  gtk_widget_grab_focus (row);
}

static void
add_group_clicked_cb (DynExprGroupRow *self)
{
  DynExprGroupRow *group = dyn_expr_group_row_add_group (self);
  GtkWidget *row = dyn_expr_group_row_add_row (group);

  gtk_widget_grab_focus (row);
}

static void
remove_clicked_cb (DynExprGroupRow *self)
{
  g_signal_emit (self, signals[REMOVE_REQUESTED], 0);
}

static void
dyn_expr_group_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  DynExprGroupRow *self = DYN_EXPR_GROUP_ROW (object);

  switch (prop_id)
    {
    case PROP_COMBINATOR:
      g_value_set_enum (value, dyn_expr_group_row_get_combinator (self));
      break;
    case PROP_NEGATED:
      g_value_set_boolean (value, dyn_expr_group_row_get_negated (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_group_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  DynExprGroupRow *self = DYN_EXPR_GROUP_ROW (object);

  switch (prop_id)
    {
    case PROP_COMBINATOR:
      dyn_expr_group_row_set_combinator (self, g_value_get_enum (value));
      break;
    case PROP_NEGATED:
      dyn_expr_group_row_set_negated (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expr_group_row_dispose (GObject *object)
{
  DynExprGroupRow *self = DYN_EXPR_GROUP_ROW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_EXPR_GROUP_ROW);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->completion);
  G_OBJECT_CLASS (dyn_expr_group_row_parent_class)->dispose (object);
}

static void
dyn_expr_group_row_class_init (DynExprGroupRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyn_expr_group_row_get_property;
  object_class->set_property = dyn_expr_group_row_set_property;
  object_class->dispose = dyn_expr_group_row_dispose;

  /* The user asked to remove the row; the group holding it does. */
  signals[REMOVE_REQUESTED] = g_signal_new ("remove-requested", G_TYPE_FROM_CLASS (klass),
                                            G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                            G_TYPE_NONE, 0);
  properties[PROP_COMBINATOR] =
    g_param_spec_enum ("combinator", NULL, NULL, DYN_TYPE_EXPR_KIND, DYN_EXPR_AND,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEGATED] =
    g_param_spec_boolean ("negated", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-expr-group-row.ui");
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, header);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, combinator_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, negate_check);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, add_row_button);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, add_row_content);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, add_group_button);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, items_box);
  gtk_widget_class_bind_template_child (widget_class, DynExprGroupRow, empty_label);
  gtk_widget_class_bind_template_callback (widget_class, changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_row_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, add_group_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, remove_clicked_cb);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
dyn_expr_group_row_init (DynExprGroupRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
dyn_expr_group_row_new (DynExprRole   role,
                        gboolean      root,
                        GtkTreeModel *completion)
{
  DynExprGroupRow *self = g_object_new (DYN_TYPE_EXPR_GROUP_ROW, NULL);

  self->role = role;
  self->root = !!root;
  g_set_object (&self->completion, completion);
  setup_role (self);
  return GTK_WIDGET (self);
}

DynExprRole
dyn_expr_group_row_get_role (DynExprGroupRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), 0);
  return self->role;
}

gboolean
dyn_expr_group_row_get_root (DynExprGroupRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), FALSE);
  return self->root;
}

DynExprKind
dyn_expr_group_row_get_combinator (DynExprGroupRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), DYN_EXPR_AND);

  if (!is_condition_role (self->role))
    return DYN_EXPR_AND;
  return gtk_drop_down_get_selected (self->combinator_dropdown) == 1 ? DYN_EXPR_OR : DYN_EXPR_AND;
}

void
dyn_expr_group_row_set_combinator (DynExprGroupRow *self,
                                   DynExprKind      combinator)
{
  g_return_if_fail (DYN_IS_EXPR_GROUP_ROW (self));
  g_return_if_fail (combinator == DYN_EXPR_AND || combinator == DYN_EXPR_OR);

  if (dyn_expr_group_row_get_combinator (self) == combinator)
    return;
  gtk_drop_down_set_selected (self->combinator_dropdown, combinator == DYN_EXPR_OR ? 1 : 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMBINATOR]);
}

gboolean
dyn_expr_group_row_get_negated (DynExprGroupRow *self)
{
  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), FALSE);
  return is_condition_role (self->role) && gtk_check_button_get_active (self->negate_check);
}

void
dyn_expr_group_row_set_negated (DynExprGroupRow *self,
                                gboolean         negated)
{
  g_return_if_fail (DYN_IS_EXPR_GROUP_ROW (self));

  if (gtk_check_button_get_active (self->negate_check) == !!negated)
    return;
  gtk_check_button_set_active (self->negate_check, negated);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEGATED]);
}

static void
child_remove_requested_cb (GtkWidget       *child,
                           DynExprGroupRow *self)
{
  dyn_expr_group_row_remove_keeping_focus (self, child);
}

static void
append_item (DynExprGroupRow *self,
             GtkWidget       *item)
{
  g_signal_connect_object (item, "remove-requested", G_CALLBACK (child_remove_requested_cb), self, 0);
  gtk_box_append (self->items_box, item);
  update_empty (self);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

GtkWidget *
dyn_expr_group_row_add_row (DynExprGroupRow *self)
{
  GtkWidget *row;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), NULL);

  if (self->role == DYN_EXPR_ROLE_UPDATE)
    row = dyn_expr_update_row_new (self->completion);
  else
    row = dyn_expr_condition_row_new (self->role == DYN_EXPR_ROLE_PROJECTION, self->completion);
  append_item (self, row);
  return row;
}

DynExprGroupRow *
dyn_expr_group_row_add_group (DynExprGroupRow *self)
{
  GtkWidget *group;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), NULL);
  g_return_val_if_fail (is_condition_role (self->role), NULL);

  group = dyn_expr_group_row_new (self->role, FALSE, self->completion);
  append_item (self, group);
  return DYN_EXPR_GROUP_ROW (group);
}

void
dyn_expr_group_row_remove (DynExprGroupRow *self,
                           GtkWidget       *item)
{
  g_return_if_fail (DYN_IS_EXPR_GROUP_ROW (self));
  g_return_if_fail (gtk_widget_get_parent (item) == GTK_WIDGET (self->items_box));

  /* Its remove button has the focus when it was clicked: let go first. */
  dyn_widget_release_focus (item, NULL);
  gtk_box_remove (self->items_box, item);
  update_empty (self);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

void
dyn_expr_group_row_remove_keeping_focus (DynExprGroupRow *self,
                                         GtkWidget       *item)
{
  GtkWidget *next;

  g_return_if_fail (DYN_IS_EXPR_GROUP_ROW (self));
  g_return_if_fail (gtk_widget_get_parent (item) == GTK_WIDGET (self->items_box));

  next = gtk_widget_get_next_sibling (item);
  if (next == NULL)
    next = gtk_widget_get_prev_sibling (item);
  /* The focus may be inside @item: keep the keyboard user where they were. */
  g_object_ref (item);
  dyn_expr_group_row_remove (self, item);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_child_focus (next ? next : GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
  g_object_unref (item);
}

void
dyn_expr_group_row_clear (DynExprGroupRow *self)
{
  GtkWidget *child;

  g_return_if_fail (DYN_IS_EXPR_GROUP_ROW (self));

  dyn_widget_release_focus (GTK_WIDGET (self->items_box), NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->items_box))) != NULL)
    gtk_box_remove (self->items_box, child);
  dyn_expr_group_row_set_negated (self, FALSE);
  dyn_expr_group_row_set_combinator (self, DYN_EXPR_AND);
  update_empty (self);
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.rows-changed", NULL);
}

guint
dyn_expr_group_row_get_n_items (DynExprGroupRow *self)
{
  guint n = 0;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->items_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

GtkWidget *
dyn_expr_group_row_get_item (DynExprGroupRow *self,
                             guint            i)
{
  GtkWidget *child;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), NULL);

  for (child = gtk_widget_get_first_child (GTK_WIDGET (self->items_box));
       child != NULL && i > 0;
       child = gtk_widget_get_next_sibling (child))
    i--;
  return child;
}

DynExprNode *
dyn_expr_group_row_build (DynExprGroupRow *self,
                          GPtrArray       *messages)
{
  g_autoptr(DynExprNode) node = NULL;
  DynExprKind kind;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), NULL);
  g_return_val_if_fail (messages != NULL, NULL);

  switch (self->role)
    {
    case DYN_EXPR_ROLE_UPDATE:
      kind = DYN_EXPR_UPDATE;
      break;
    case DYN_EXPR_ROLE_PROJECTION:
      kind = DYN_EXPR_PROJECTION;
      break;
    default:
      kind = dyn_expr_group_row_get_combinator (self);
      break;
    }
  node = dyn_expr_node_new (kind);

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->items_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      g_autoptr(GError) error = NULL;
      DynExprNode *item = NULL;

      if (DYN_IS_EXPR_GROUP_ROW (child))
        item = dyn_expr_group_row_build (DYN_EXPR_GROUP_ROW (child), messages);
      else if (DYN_IS_EXPR_CONDITION_ROW (child))
        item = dyn_expr_condition_row_build (DYN_EXPR_CONDITION_ROW (child), &error);
      else if (DYN_IS_EXPR_UPDATE_ROW (child))
        item = dyn_expr_update_row_build (DYN_EXPR_UPDATE_ROW (child), &error);
      if (error != NULL)
        g_ptr_array_add (messages, g_strdup (error->message));
      if (item != NULL)
        dyn_expr_node_add_child (node, item);
    }

  if (dyn_expr_node_get_n_children (node) == 0)
    return NULL;
  if (kind == DYN_EXPR_AND || kind == DYN_EXPR_OR)
    {
      if (dyn_expr_node_get_n_children (node) == 1)
        {
          DynExprNode *only = dyn_expr_node_ref (dyn_expr_node_get_child (node, 0));

          dyn_expr_node_unref (node);
          node = only;
        }
      if (dyn_expr_group_row_get_negated (self))
        return dyn_expr_node_new_unary (DYN_EXPR_NOT, g_steal_pointer (&node));
    }
  return g_steal_pointer (&node);
}

static gboolean
is_group_kind (DynExprKind kind)
{
  return kind == DYN_EXPR_AND || kind == DYN_EXPR_OR || kind == DYN_EXPR_NOT;
}

static gboolean
load_conditions (DynExprGroupRow *self,
                 DynExprNode     *node)
{
  DynExprKind kind = dyn_expr_node_get_kind (node);
  g_autoptr(GPtrArray) items = g_ptr_array_new ();

  if (kind == DYN_EXPR_NOT)
    {
      if (!is_condition_role (self->role))
        return FALSE;
      dyn_expr_group_row_set_negated (self, TRUE);
      node = dyn_expr_node_get_child (node, 0);
      kind = dyn_expr_node_get_kind (node);
    }
  if (kind == DYN_EXPR_AND || kind == DYN_EXPR_OR)
    {
      if (kind == DYN_EXPR_OR && !is_condition_role (self->role))
        return FALSE;
      dyn_expr_group_row_set_combinator (self, kind);
      for (guint i = 0; i < dyn_expr_node_get_n_children (node); i++)
        g_ptr_array_add (items, dyn_expr_node_get_child (node, i));
    }
  else
    g_ptr_array_add (items, node);

  for (guint i = 0; i < items->len; i++)
    {
      DynExprNode *item = items->pdata[i];

      if (is_group_kind (dyn_expr_node_get_kind (item)))
        {
          DynExprGroupRow *group;

          if (!is_condition_role (self->role))
            return FALSE;
          group = dyn_expr_group_row_add_group (self);
          if (!load_conditions (group, item))
            return FALSE;
        }
      else
        {
          GtkWidget *row = dyn_expr_group_row_add_row (self);

          if (!dyn_expr_condition_row_load (DYN_EXPR_CONDITION_ROW (row), item))
            return FALSE;
        }
    }
  return TRUE;
}

gboolean
dyn_expr_group_row_load (DynExprGroupRow *self,
                         DynExprNode     *node)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (DYN_IS_EXPR_GROUP_ROW (self), FALSE);

  dyn_expr_group_row_clear (self);
  if (node == NULL)
    return TRUE;

  switch (self->role)
    {
    case DYN_EXPR_ROLE_UPDATE:
    case DYN_EXPR_ROLE_PROJECTION:
      if (dyn_expr_node_get_kind (node) != (self->role == DYN_EXPR_ROLE_UPDATE ? DYN_EXPR_UPDATE
                                                                               : DYN_EXPR_PROJECTION))
        {
          ok = FALSE;
          break;
        }
      for (guint i = 0; ok && i < dyn_expr_node_get_n_children (node); i++)
        {
          GtkWidget *row = dyn_expr_group_row_add_row (self);
          DynExprNode *item = dyn_expr_node_get_child (node, i);

          if (DYN_IS_EXPR_UPDATE_ROW (row))
            ok = dyn_expr_update_row_load (DYN_EXPR_UPDATE_ROW (row), item);
          else
            ok = dyn_expr_condition_row_load (DYN_EXPR_CONDITION_ROW (row), item);
        }
      break;

    default:
      ok = load_conditions (self, node);
      break;
    }

  if (!ok)
    dyn_expr_group_row_clear (self);
  return ok;
}
