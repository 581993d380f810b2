/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-detail"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-item-detail.h"
#include "dyn-lifetime.h"
#include "dyn-value-format.h"

/* DynDetailNode: one attribute (or element) of the item in the tree. */

#define DYN_TYPE_DETAIL_NODE (dyn_detail_node_get_type ())
G_DECLARE_FINAL_TYPE (DynDetailNode, dyn_detail_node, DYN, DETAIL_NODE, GObject)

struct _DynDetailNode
{
  GObject   parent_instance;
  char     *name;
  DynValue *value;
};

G_DEFINE_FINAL_TYPE (DynDetailNode, dyn_detail_node, G_TYPE_OBJECT)

static void
dyn_detail_node_finalize (GObject *object)
{
  DynDetailNode *self = DYN_DETAIL_NODE (object);

  g_free (self->name);
  g_clear_pointer (&self->value, dyn_value_unref);
  G_OBJECT_CLASS (dyn_detail_node_parent_class)->finalize (object);
}

static void
dyn_detail_node_class_init (DynDetailNodeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_detail_node_finalize;
}

static void
dyn_detail_node_init (DynDetailNode *self)
{
}

static DynDetailNode *
detail_node_new (const char *name,
                 DynValue   *value)
{
  DynDetailNode *node = g_object_new (DYN_TYPE_DETAIL_NODE, NULL);

  node->name = g_strdup (name);
  node->value = dyn_value_ref (value);
  return node;
}

/* The children of a map, list or set value as a list of nodes. */
static GListModel *
value_children (DynValue *value)
{
  GListStore *store;
  guint n;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      break;
    default:
      return NULL;
    }
  n = dyn_value_get_length (value);
  store = g_list_store_new (DYN_TYPE_DETAIL_NODE);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynDetailNode) node = NULL;
      g_autofree char *index = g_strdup_printf ("[%u]", i);

      switch (dyn_value_get_value_type (value))
        {
        case DYN_VALUE_M:
          node = detail_node_new (dyn_value_map_get_name (value, i), dyn_value_map_get_value (value, i));
          break;
        case DYN_VALUE_L:
          node = detail_node_new (index, dyn_value_list_get (value, i));
          break;
        case DYN_VALUE_SS:
          {
            g_autoptr(DynValue) v = dyn_value_new_string (dyn_value_set_get_string (value, i));
            node = detail_node_new (index, v);
          }
          break;
        case DYN_VALUE_NS:
          {
            g_autoptr(DynValue) v = dyn_value_new_number (dyn_value_set_get_string (value, i), NULL);
            if (v == NULL)
              continue;
            node = detail_node_new (index, v);
          }
          break;
        case DYN_VALUE_BS:
          {
            g_autoptr(DynValue) v = dyn_value_new_binary (dyn_value_set_get_binary (value, i));
            node = detail_node_new (index, v);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      g_list_store_append (store, node);
    }
  return G_LIST_MODEL (store);
}

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  return value_children (DYN_DETAIL_NODE (item)->value);
}

/* DynItemDetail. */

struct _DynItemDetail
{
  AdwBin               parent_instance;

  DynValue            *item;
  char                *plain_json;
  char                *ddb_json;
  GtkTreeListModel    *tree;

  GtkStack            *content_stack;
  GtkStack            *view_stack;
  GtkLabel            *title_label;
  GtkColumnView       *tree_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *type_column;
  GtkColumnViewColumn *value_column;
  GtkTextView         *json_view;
  GtkTextView         *ddb_view;
};

G_DEFINE_FINAL_TYPE (DynItemDetail, dyn_item_detail, ADW_TYPE_BIN)

static DynDetailNode *
list_item_node (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  return DYN_IS_DETAIL_NODE (item) ? DYN_DETAIL_NODE (item) : NULL;
}

static void
name_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
name_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  DynDetailNode *node = list_item_node (list_item);

  gtk_tree_expander_set_list_row (expander, gtk_list_item_get_item (list_item));
  gtk_label_set_label (GTK_LABEL (gtk_tree_expander_get_child (expander)), node ? node->name : "");
}

static void
name_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static void
label_setup_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (label), GPOINTER_TO_INT (user_data) == 1);
  if (GPOINTER_TO_INT (user_data) == 0)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (list_item, label);
}

static void
type_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  DynDetailNode *node = list_item_node (list_item);

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (list_item)),
                       node ? dyn_value_format_type (node->value) : "");
}

static void
value_bind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  DynDetailNode *node = list_item_node (list_item);
  g_autofree char *text = node ? dyn_value_format_cell (node->value, DYN_BINARY_FORMAT_BASE64, 400) : NULL;

  gtk_label_set_label (GTK_LABEL (gtk_list_item_get_child (list_item)), text ? text : "");
  gtk_widget_set_tooltip_text (gtk_list_item_get_child (list_item), text);
}

static void
set_factory (GtkColumnViewColumn *column,
             GCallback            setup,
             GCallback            bind,
             GCallback            unbind,
             gpointer             data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", setup, data);
  g_signal_connect (factory, "bind", bind, data);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, data);
  gtk_column_view_column_set_factory (column, factory);
  g_object_unref (factory);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  const char *text;

  if (self->item == NULL)
    return;
  text = g_strcmp0 (dyn_item_detail_get_view (self), "ddb-json") == 0 ? self->ddb_json : self->plain_json;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
dyn_item_detail_dispose (GObject *object)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (object);

  if (self->tree_view != NULL)
    gtk_column_view_set_model (self->tree_view, NULL);
  g_clear_object (&self->tree);
  /* The template's top widget is the AdwBin child: let AdwBin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_ITEM_DETAIL);

  G_OBJECT_CLASS (dyn_item_detail_parent_class)->dispose (object);
}

static void
dyn_item_detail_finalize (GObject *object)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (object);

  g_clear_pointer (&self->item, dyn_value_unref);
  g_free (self->plain_json);
  g_free (self->ddb_json);

  G_OBJECT_CLASS (dyn_item_detail_parent_class)->finalize (object);
}

static void
dyn_item_detail_class_init (DynItemDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_item_detail_dispose;
  object_class->finalize = dyn_item_detail_finalize;

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-item-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, content_stack);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, view_stack);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, title_label);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, tree_view);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, name_column);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, type_column);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, value_column);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, json_view);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, ddb_view);

  gtk_widget_class_install_action (widget_class, "detail.copy", NULL, copy_action);
}

static void
dyn_item_detail_init (DynItemDetail *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  set_factory (self->name_column, G_CALLBACK (name_setup_cb), G_CALLBACK (name_bind_cb),
               G_CALLBACK (name_unbind_cb), NULL);
  set_factory (self->type_column, G_CALLBACK (label_setup_cb), G_CALLBACK (type_bind_cb), NULL,
               GINT_TO_POINTER (0));
  set_factory (self->value_column, G_CALLBACK (label_setup_cb), G_CALLBACK (value_bind_cb), NULL,
               GINT_TO_POINTER (1));
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.copy", FALSE);
}

GtkWidget *
dyn_item_detail_new (void)
{
  return g_object_new (DYN_TYPE_ITEM_DETAIL, NULL);
}

void
dyn_item_detail_set_item (DynItemDetail *self,
                          DynValue      *item)
{
  g_autoptr(GtkNoSelection) selection = NULL;
  gboolean refocus;

  g_return_if_fail (DYN_IS_ITEM_DETAIL (self));
  g_return_if_fail (item == NULL || dyn_value_get_value_type (item) == DYN_VALUE_M);

  if (item == self->item)
    return;
  if (item != NULL)
    dyn_value_ref (item);
  g_clear_pointer (&self->item, dyn_value_unref);
  self->item = item;
  g_clear_pointer (&self->plain_json, g_free);
  g_clear_pointer (&self->ddb_json, g_free);
  /* The rows are destroyed: not with the focus in one. */
  refocus = dyn_widget_release_focus (GTK_WIDGET (self->tree_view), NULL);
  gtk_column_view_set_model (self->tree_view, NULL);
  g_clear_object (&self->tree);

  if (item != NULL)
    {
      g_autofree char *plain = dyn_value_to_plain_json_string (item);
      g_autofree char *ddb = dyn_item_to_ddb_json_string (item);
      GListModel *root = value_children (item);

      self->plain_json = dyn_json_text_indent (plain);
      self->ddb_json = dyn_json_text_indent (ddb);
      self->tree = gtk_tree_list_model_new (root, FALSE, FALSE, create_children_cb, NULL, NULL);
      selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
      gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (selection));
      if (refocus)
        gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
    }
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->json_view), self->plain_json ? self->plain_json : "", -1);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->ddb_view), self->ddb_json ? self->ddb_json : "", -1);
  gtk_stack_set_visible_child_name (self->content_stack, item ? "item" : "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.copy", item != NULL);
}

DynValue *
dyn_item_detail_get_item (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return self->item;
}

void
dyn_item_detail_set_title (DynItemDetail *self,
                           const char    *title)
{
  g_return_if_fail (DYN_IS_ITEM_DETAIL (self));

  gtk_label_set_label (self->title_label, title ? title : "");
  gtk_widget_set_visible (GTK_WIDGET (self->title_label), title != NULL && *title != '\0');
}

void
dyn_item_detail_set_view (DynItemDetail *self,
                          const char    *view)
{
  g_return_if_fail (DYN_IS_ITEM_DETAIL (self));

  gtk_stack_set_visible_child_name (self->view_stack, view);
}

const char *
dyn_item_detail_get_view (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return gtk_stack_get_visible_child_name (self->view_stack);
}

const char *
dyn_item_detail_get_plain_json (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return self->plain_json;
}

const char *
dyn_item_detail_get_ddb_json (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return self->ddb_json;
}

GListModel *
dyn_item_detail_get_tree (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return G_LIST_MODEL (self->tree);
}
