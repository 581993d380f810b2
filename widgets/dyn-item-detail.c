/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-detail"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-diff.h"
#include "dyn-error.h"
#include "dyn-item-detail.h"
#include "dyn-lifetime.h"
#include "dyn-value-format.h"

/* DynDetailNode: one attribute (or element) of the item in the tree. */

#define DYN_TYPE_DETAIL_NODE (dyn_detail_node_get_type ())
G_DECLARE_FINAL_TYPE (DynDetailNode, dyn_detail_node, DYN, DETAIL_NODE, GObject)

struct _DynDetailNode
{
  GObject        parent_instance;
  char          *name;        /* what the row shows: a member name, "[2]" */
  DynValue      *value;
  DynExprPath   *path;        /* from the item; an index into a set for its elements */
  char          *path_text;
  DynOutlineKey  key;
  char          *key_description;
};

enum {
  NODE_PROP_0,
  NODE_PROP_VALUE,
  NODE_N_PROPS
};

static GParamSpec *node_properties[NODE_N_PROPS];

G_DEFINE_FINAL_TYPE (DynDetailNode, dyn_detail_node, G_TYPE_OBJECT)

static void
dyn_detail_node_finalize (GObject *object)
{
  DynDetailNode *self = DYN_DETAIL_NODE (object);

  g_free (self->name);
  g_clear_pointer (&self->value, dyn_value_unref);
  g_clear_pointer (&self->path, dyn_expr_path_free);
  g_free (self->path_text);
  g_free (self->key_description);
  G_OBJECT_CLASS (dyn_detail_node_parent_class)->finalize (object);
}

static void
dyn_detail_node_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DynDetailNode *self = DYN_DETAIL_NODE (object);

  switch (prop_id)
    {
    case NODE_PROP_VALUE:
      g_value_set_boxed (value, self->value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_detail_node_class_init (DynDetailNodeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_detail_node_finalize;
  object_class->get_property = dyn_detail_node_get_property;

  node_properties[NODE_PROP_VALUE] =
    g_param_spec_boxed ("value", NULL, NULL, DYN_TYPE_VALUE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, NODE_N_PROPS, node_properties);
}

static void
dyn_detail_node_init (DynDetailNode *self)
{
}

static DynDetailNode *
detail_node_new (const char        *name,
                 DynValue          *value,
                 const DynExprPath *parent,
                 const char        *member,
                 guint              index)
{
  DynDetailNode *node = g_object_new (DYN_TYPE_DETAIL_NODE, NULL);

  node->name = g_strdup (name);
  node->value = dyn_value_ref (value);
  node->path = parent ? dyn_expr_path_copy (parent) : dyn_expr_path_new (NULL);
  if (member != NULL)
    dyn_expr_path_append_name (node->path, member);
  else
    dyn_expr_path_append_index (node->path, index);
  node->path_text = dyn_path_to_display (node->path);
  return node;
}

/* Rows showing the node are bound again only when what they show changed. */
static void
detail_node_set_value (DynDetailNode *node,
                       DynValue      *value)
{
  gboolean same;

  if (node->value == value)
    return;
  same = dyn_value_get_value_type (node->value) == dyn_value_get_value_type (value) &&
         dyn_value_equal (node->value, value);
  dyn_value_ref (value);
  g_clear_pointer (&node->value, dyn_value_unref);
  node->value = value;
  if (!same)
    g_object_notify_by_pspec (G_OBJECT (node), node_properties[NODE_PROP_VALUE]);
}

static gboolean
is_container (DynValue *value)
{
  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The children of a map, list or set value as a list of nodes (NULL for a
 * scalar or an empty one: nothing to expand). @keys: the table's, for the
 * item itself. */
static GListModel *
value_children (DynValue           *value,
                const DynExprPath  *parent,
                const DynTableKeys *keys)
{
  GListStore *store;
  guint n;

  if (!is_container (value) || dyn_value_get_length (value) == 0)
    return NULL;
  n = dyn_value_get_length (value);
  store = g_list_store_new (DYN_TYPE_DETAIL_NODE);
  if (dyn_value_get_value_type (value) == DYN_VALUE_M)
    {
      g_autoptr(GArray) order = dyn_outline_order (value, keys);

      for (guint i = 0; i < order->len; i++)
        {
          guint position = g_array_index (order, guint, i);
          const char *name = dyn_value_map_get_name (value, position);
          g_autoptr(DynDetailNode) node = detail_node_new (name, dyn_value_map_get_value (value, position),
                                                           parent, name, 0);

          if (parent == NULL)
            node->key = dyn_outline_key_role (keys, name, &node->key_description);
          g_list_store_append (store, node);
        }
      return G_LIST_MODEL (store);
    }

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *index = g_strdup_printf ("[%u]", i);
      g_autoptr(DynDetailNode) node = NULL;

      if (dyn_value_get_value_type (value) == DYN_VALUE_L)
        node = detail_node_new (index, dyn_value_list_get (value, i), parent, NULL, i);
      else
        {
          g_autoptr(DynValue) element = dyn_outline_set_element (value, i);

          if (element == NULL)
            continue;
          node = detail_node_new (index, element, parent, NULL, i);
        }
      g_list_store_append (store, node);
    }
  return G_LIST_MODEL (store);
}

static GListModel *
create_children_cb (gpointer item,
                    gpointer user_data)
{
  DynDetailNode *node = DYN_DETAIL_NODE (item);

  return value_children (node->value, node->path, NULL);
}

/* DynItemDetail. */

struct _DynItemDetail
{
  AdwBin               parent_instance;

  DynValue            *item;
  char                *plain_json;
  char                *ddb_json;
  GtkTreeListModel    *tree;
  GtkSingleSelection  *selection;
  DynEditSession      *session;
  DynTableKeys        *keys;          /* from the session, or NULL */
  DynItemObject       *row;           /* the session's row of the item, or NULL */
  GHashTable          *bound;         /* GtkListItem* of the value column */

  /* An in-place edit. */
  GtkListItem         *edit_item;
  GtkWidget           *edit_child;
  GtkWidget           *edit_entry;
  DynDetailNode       *edit_node;
  guint                finish_id;

  GtkStack            *content_stack;
  GtkStack            *view_stack;
  GtkLabel            *title_label;
  GtkColumnView       *tree_view;
  GtkColumnViewColumn *name_column;
  GtkColumnViewColumn *type_column;
  GtkColumnViewColumn *value_column;
  GtkTextView         *json_view;
  GtkTextView         *ddb_view;
  GtkLabel            *message_label;
  GtkWidget           *expand_button;
  GtkWidget           *collapse_button;
  GMenuModel          *context_menu;
  GtkWidget           *popover;
};

G_DEFINE_FINAL_TYPE (DynItemDetail, dyn_item_detail, ADW_TYPE_BIN)

/* How an in-place edit ends. */
typedef enum {
  FINISH_CANCEL,
  FINISH_COMMIT,          /* stage the text now */
  FINISH_COMMIT_REOPEN,   /* …and open the entry again when it is refused */
  FINISH_COMMIT_LATER,    /* stage it from an idle: the rows are changing */
} FinishMode;

static void finish_editing (DynItemDetail *self,
                            FinishMode     mode);

static DynDetailNode *
row_node (GtkTreeListRow *row)
{
  g_autoptr(GObject) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  /* The tree row keeps a reference. */
  return DYN_IS_DETAIL_NODE (item) ? DYN_DETAIL_NODE (item) : NULL;
}

static DynDetailNode *
list_item_node (GtkListItem *list_item)
{
  return row_node (gtk_list_item_get_item (list_item));
}

static DynDetailNode *
node_at (DynItemDetail *self,
         guint          position)
{
  g_autoptr(GtkTreeListRow) row = NULL;

  if (self->tree == NULL)
    return NULL;
  row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
  return row_node (row);
}

static void
show_message (DynItemDetail *self,
              const char    *message)
{
  gtk_label_set_label (self->message_label, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL);
}

/* The row of the session's model that holds the item shown. */
static void
update_row (DynItemDetail *self)
{
  DynCollectionModel *model = self->session ? dyn_edit_session_get_model (self->session) : NULL;
  g_autoptr(DynValue) key = NULL;
  DynItemObject *row = NULL;

  if (model != NULL && self->item != NULL)
    key = dyn_item_key (self->item, dyn_edit_session_get_keys (self->session));
  if (key != NULL)
    row = dyn_collection_model_lookup (model, key);
  if (row != NULL && dyn_item_object_get_item (row) != self->item &&
      !dyn_value_equal (dyn_item_object_get_item (row), self->item))
    row = NULL;
  g_set_object (&self->row, row);
}

/* Name column: the expander, the name and, for keys, a badge. */

static void
name_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               DynItemDetail            *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *badge = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (badge, "dyn-key-badge");
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), badge);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static const char *
key_badge (DynOutlineKey key)
{
  switch (key)
    {
    case DYN_OUTLINE_PARTITION_KEY:
      return _("partition key");
    case DYN_OUTLINE_SORT_KEY:
      return _("sort key");
    case DYN_OUTLINE_INDEX_KEY:
      return _("index key");
    case DYN_OUTLINE_NOT_KEY:
    default:
      return NULL;
    }
}

static void
name_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              DynItemDetail            *self)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  GtkWidget *box = gtk_tree_expander_get_child (expander);
  GtkWidget *label = gtk_widget_get_first_child (box);
  GtkWidget *badge = gtk_widget_get_next_sibling (label);
  DynDetailNode *node = list_item_node (list_item);
  const char *badge_text = node ? key_badge (node->key) : NULL;

  gtk_tree_expander_set_list_row (expander, gtk_list_item_get_item (list_item));
  gtk_label_set_label (GTK_LABEL (label), node ? node->name : "");
  gtk_widget_set_tooltip_text (label, node ? node->path_text : NULL);
  gtk_label_set_label (GTK_LABEL (badge), badge_text ? badge_text : "");
  gtk_widget_set_visible (badge, badge_text != NULL);
  gtk_widget_set_tooltip_text (badge, node ? node->key_description : NULL);
  if (node != NULL && (node->key == DYN_OUTLINE_PARTITION_KEY || node->key == DYN_OUTLINE_SORT_KEY))
    {
      gtk_widget_add_css_class (label, "dyn-detail-key");
      gtk_widget_add_css_class (badge, "dyn-table-key");
    }
  else
    {
      gtk_widget_remove_css_class (label, "dyn-detail-key");
      gtk_widget_remove_css_class (badge, "dyn-table-key");
    }
}

static void
name_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemDetail            *self)
{
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

/* Type and value columns. */

static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkListItem     *list_item);

static void
label_setup_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemDetail            *self)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean value = g_object_get_data (G_OBJECT (factory), "dyn-value") != NULL;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (!value)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (list_item, label);
}

static void
update_type (GtkListItem *list_item)
{
  DynDetailNode *node = list_item_node (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_label (GTK_LABEL (label), node ? dyn_value_format_type (node->value) : "");
}

static void
type_node_notify_cb (DynDetailNode *node,
                     GParamSpec    *pspec,
                     GtkListItem   *list_item)
{
  update_type (list_item);
}

static void
type_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              DynItemDetail            *self)
{
  DynDetailNode *node = list_item_node (list_item);

  update_type (list_item);
  if (node != NULL)
    dyn_list_item_bind_handler (list_item, "dyn-node", node,
                                g_signal_connect (node, "notify::value", G_CALLBACK (type_node_notify_cb), list_item));
}

static void
type_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemDetail            *self)
{
  dyn_list_item_unbind_handler (list_item, "dyn-node");
}

static char *
value_tooltip (DynValue   *value,
               const char *text)
{
  if (dyn_value_get_value_type (value) == DYN_VALUE_B && g_bytes_get_size (dyn_value_get_binary (value)) > 0)
    {
      g_autofree char *base64 = dyn_value_format_binary (dyn_value_get_binary (value), DYN_BINARY_FORMAT_BASE64);

      if (strlen (base64) > 2000)
        base64[2000] = '\0';
      return g_strdup_printf ("%s\nBase64: %s", text, base64);
    }
  if (dyn_value_get_value_type (value) == DYN_VALUE_S)
    return dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 2000);
  return g_strdup (text);
}

static void
update_value (DynItemDetail *self,
              GtkListItem   *list_item)
{
  DynDetailNode *node = list_item_node (list_item);
  GtkWidget *label = self->edit_item == list_item ? self->edit_child : gtk_list_item_get_child (list_item);
  DynOutlineText kind = DYN_OUTLINE_TEXT_VALUE;
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  gboolean changed;

  if (label == NULL)
    return;
  if (node != NULL)
    {
      text = dyn_outline_value_text (node->value, &kind);
      tooltip = value_tooltip (node->value, text);
    }
  gtk_label_set_label (GTK_LABEL (label), text ? text : "");
  gtk_widget_set_tooltip_text (label, tooltip);
  if (kind == DYN_OUTLINE_TEXT_EMPTY)
    gtk_widget_add_css_class (label, "dyn-empty-value");
  else
    gtk_widget_remove_css_class (label, "dyn-empty-value");
  /* A staged change at this path, or inside it. */
  changed = node != NULL && self->session != NULL && self->row != NULL &&
            dyn_edit_session_is_path_changed (self->session, self->row, node->path);
  if (changed)
    gtk_widget_add_css_class (label, "dyn-detail-changed");
  else
    gtk_widget_remove_css_class (label, "dyn-detail-changed");
}

static void
value_node_notify_cb (DynDetailNode *node,
                      GParamSpec    *pspec,
                      GtkListItem   *list_item)
{
  DynItemDetail *self = g_object_get_data (G_OBJECT (list_item), "dyn-detail");

  if (self != NULL)
    update_value (self, list_item);
}

static void
value_setup_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemDetail            *self)
{
  GtkGesture *gesture;

  label_setup_cb (factory, list_item, self);
  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (context_pressed_cb), list_item);
  gtk_widget_add_controller (gtk_list_item_get_child (list_item), GTK_EVENT_CONTROLLER (gesture));
}

static void
value_bind_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               DynItemDetail            *self)
{
  DynDetailNode *node = list_item_node (list_item);

  g_object_set_data (G_OBJECT (list_item), "dyn-detail", self);
  g_hash_table_add (self->bound, list_item);
  update_value (self, list_item);
  if (node != NULL)
    dyn_list_item_bind_handler (list_item, "dyn-node", node,
                                g_signal_connect (node, "notify::value", G_CALLBACK (value_node_notify_cb), list_item));
}

static void
value_unbind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 DynItemDetail            *self)
{
  /* The row goes away under the entry: the edit ends (it is staged). */
  if (self->edit_item == list_item)
    finish_editing (self, FINISH_COMMIT_LATER);
  dyn_list_item_unbind_handler (list_item, "dyn-node");
  g_hash_table_remove (self->bound, list_item);
  g_object_set_data (G_OBJECT (list_item), "dyn-detail", NULL);
}

static void
refresh_values (DynItemDetail *self)
{
  GHashTableIter iter;
  gpointer list_item;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    update_value (self, list_item);
}

static void
set_factory (GtkColumnViewColumn *column,
             DynItemDetail       *self,
             GCallback            setup,
             GCallback            bind,
             GCallback            unbind,
             gboolean             value)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  if (value)
    g_object_set_data (G_OBJECT (factory), "dyn-value", GINT_TO_POINTER (1));
  g_signal_connect (factory, "setup", setup, self);
  g_signal_connect (factory, "bind", bind, self);
  if (unbind != NULL)
    g_signal_connect (factory, "unbind", unbind, self);
  gtk_column_view_column_set_factory (column, factory);
  g_object_unref (factory);
}

/* ------------------------------------------------------------------------ */
/* In-place editing */

static GtkListItem *
bound_value_item (DynItemDetail *self,
                  guint          position)
{
  GHashTableIter iter;
  gpointer list_item;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    if (gtk_list_item_get_position (list_item) == position)
      return list_item;
  return NULL;
}

/* The row widget around @widget (a cell's content), focusable. */
static GtkWidget *
row_widget (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    if (GTK_IS_LIST_VIEW (gtk_widget_get_parent (w)))
      return w;
  return NULL;
}

static gboolean
stage_text (DynItemDetail *self,
            DynDetailNode *node,
            DynItemObject *row,
            const char    *text)
{
  g_autoptr(GError) error = NULL;

  if (dyn_edit_session_stage_path_text (self->session, row, node->path, text, &error))
    {
      show_message (self, NULL);
      return TRUE;
    }
  show_message (self, error->message);
  return FALSE;
}

static gboolean start_editing (DynItemDetail *self,
                               guint          position,
                               const char    *text);

typedef struct {
  DynItemDetail  *self;
  DynEditSession *session;
  DynItemObject  *row;
  DynExprPath    *path;
  char           *text;
} LaterEdit;

static void
later_edit_free (LaterEdit *later)
{
  g_object_unref (later->self);
  g_object_unref (later->session);
  g_object_unref (later->row);
  dyn_expr_path_free (later->path);
  g_free (later->text);
  g_free (later);
}

static gboolean
stage_later_cb (gpointer user_data)
{
  LaterEdit *later = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_edit_session_stage_path_text (later->session, later->row, later->path, later->text, &error))
    show_message (later->self, error->message);
  return G_SOURCE_REMOVE;
}

/* Puts the label back; stages the entry's text as @mode says. */
static void
finish_editing (DynItemDetail *self,
                FinishMode     mode)
{
  g_autoptr(GtkListItem) list_item = g_steal_pointer (&self->edit_item);
  g_autoptr(GtkWidget) child = g_steal_pointer (&self->edit_child);
  g_autoptr(GtkWidget) entry = g_steal_pointer (&self->edit_entry);
  g_autoptr(DynDetailNode) node = g_steal_pointer (&self->edit_node);
  g_autoptr(DynItemObject) row = NULL;
  g_autofree char *text = NULL;
  GtkWidget *focus_row;
  const char *before;
  guint position;

  g_clear_handle_id (&self->finish_id, g_source_remove);
  if (list_item == NULL)
    return;
  text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  before = g_object_get_data (G_OBJECT (entry), "dyn-before");
  if (g_strcmp0 (text, before) == 0)
    mode = FINISH_CANCEL;
  position = gtk_list_item_get_position (list_item);
  /* The entry leaves the tree: the focus goes back to its row first. */
  focus_row = row_widget (entry);
  dyn_widget_release_focus (entry, focus_row ? focus_row : GTK_WIDGET (self->tree_view));
  if (gtk_list_item_get_child (list_item) == entry)
    gtk_list_item_set_child (list_item, child);
  if (mode == FINISH_CANCEL || self->session == NULL)
    return;
  /* Staging replaces the row of the model, and the window shows its new
   * item here: hold on to what is needed. */
  row = self->row ? g_object_ref (self->row) : NULL;
  if (row == NULL)
    {
      show_message (self, _("The item is not among the table’s loaded rows any more: read it again to edit it"));
      return;
    }
  if (mode == FINISH_COMMIT_LATER)
    {
      LaterEdit *later = g_new0 (LaterEdit, 1);

      later->self = g_object_ref (self);
      later->session = g_object_ref (self->session);
      later->row = g_steal_pointer (&row);
      later->path = dyn_expr_path_copy (node->path);
      later->text = g_steal_pointer (&text);
      g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, stage_later_cb, later, (GDestroyNotify) later_edit_free);
      return;
    }
  if (!stage_text (self, node, row, text) && mode == FINISH_COMMIT_REOPEN && list_item_node (list_item) == node)
    {
      start_editing (self, position, text);
      if (self->edit_entry != NULL)
        gtk_widget_add_css_class (self->edit_entry, "error");
    }
}

static void
entry_activate_cb (GtkEntry      *entry,
                   DynItemDetail *self)
{
  if (self->edit_entry == GTK_WIDGET (entry))
    finish_editing (self, FINISH_COMMIT_REOPEN);
}

static gboolean
entry_key_pressed_cb (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      DynItemDetail         *self)
{
  if (keyval != GDK_KEY_Escape)
    return FALSE;
  finish_editing (self, FINISH_CANCEL);
  show_message (self, NULL);
  return TRUE;
}

static gboolean
finish_later_cb (gpointer user_data)
{
  DynItemDetail *self = user_data;

  self->finish_id = 0;
  if (self->edit_entry != NULL &&
      !gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (self->edit_entry)))))
    finish_editing (self, FINISH_COMMIT);
  return G_SOURCE_REMOVE;
}

/* The focus left the entry (a click elsewhere): the text is staged. Not
 * from inside the focus change, as in the grid. */
static void
entry_leave_cb (GtkEventControllerFocus *controller,
                DynItemDetail           *self)
{
  if (self->edit_entry == gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)) && self->finish_id == 0)
    self->finish_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, finish_later_cb, g_object_ref (self), g_object_unref);
}

/* Why nothing can be edited here, or NULL. */
static const char *
refusal (DynItemDetail *self)
{
  if (self->session == NULL || self->item == NULL)
    return _("Open a table to edit its items");
  if (dyn_edit_session_get_read_only (self->session))
    return _("This connection is read-only: nothing can be changed or written");
  if (dyn_edit_session_get_model (self->session) == NULL)
    return _("Items read from an index are not edited here: choose “Table” to edit them");
  if (self->row == NULL)
    return _("The item is not among the table’s loaded rows any more: read it again to edit it");
  return NULL;
}

/* Opens the entry on the row at @position (its value as text, or @text),
 * toggles a boolean, or says why the value is not edited in place. */
static gboolean
start_editing (DynItemDetail *self,
               guint          position,
               const char    *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *initial = NULL;
  DynDetailNode *node;
  GtkListItem *list_item;
  GtkWidget *entry;
  GtkEventController *controller;
  const char *why;

  finish_editing (self, FINISH_COMMIT);
  /* Staging the previous edit may have changed the rows. */
  node = node_at (self, position);
  if (node == NULL)
    return FALSE;
  why = refusal (self);
  if (why != NULL)
    {
      show_message (self, why);
      return FALSE;
    }
  if (!dyn_edit_session_check_path (self->session, self->row, node->path, &error))
    {
      show_message (self, error->message);
      return FALSE;
    }
  if (dyn_value_get_value_type (node->value) == DYN_VALUE_BOOL)
    {
      g_autoptr(DynValue) toggled = dyn_value_new_bool (!dyn_value_get_bool (node->value));
      g_autoptr(DynItemObject) row = g_object_ref (self->row);
      g_autoptr(DynExprPath) path = dyn_expr_path_copy (node->path);

      if (!dyn_edit_session_stage_path (self->session, row, path, toggled, &error))
        show_message (self, error->message);
      else
        show_message (self, NULL);
      return FALSE;
    }
  initial = dyn_outline_edit_text (node->value);
  if (initial == NULL)
    {
      show_message (self, _("This string holds a character an entry cannot show (U+0000): edit it in the JSON editor"));
      return FALSE;
    }
  list_item = bound_value_item (self, position);
  if (list_item == NULL)
    return FALSE;

  /* Opened again with refused text: the reason stays beside it. */
  if (text == NULL)
    show_message (self, NULL);
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), text ? text : initial);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 4);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_widget_add_css_class (entry, "dyn-cell-entry");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, node->path_text, -1);
  g_object_set_data_full (G_OBJECT (entry), "dyn-before", g_steal_pointer (&initial), g_free);
  g_signal_connect (entry, "activate", G_CALLBACK (entry_activate_cb), self);
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (entry_key_pressed_cb), self);
  gtk_widget_add_controller (entry, controller);
  controller = gtk_event_controller_focus_new ();
  g_signal_connect (controller, "leave", G_CALLBACK (entry_leave_cb), self);
  gtk_widget_add_controller (entry, controller);

  self->edit_item = g_object_ref (list_item);
  self->edit_child = g_object_ref (gtk_list_item_get_child (list_item));
  self->edit_entry = g_object_ref_sink (entry);
  self->edit_node = g_object_ref (node);
  gtk_list_item_set_child (list_item, entry);
  gtk_widget_grab_focus (entry);
  return TRUE;
}

static guint
selected_position (DynItemDetail *self)
{
  return self->selection ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;
}

/* Enter or a double-click on a row: a map, list or set opens or closes, a
 * value is edited. */
static void
tree_activate_cb (GtkColumnView *view,
                  guint          position,
                  DynItemDetail *self)
{
  g_autoptr(GtkTreeListRow) row = self->tree ? g_list_model_get_item (G_LIST_MODEL (self->tree), position) : NULL;
  DynDetailNode *node = row_node (row);

  if (node == NULL)
    return;
  if (gtk_tree_list_row_is_expandable (row))
    {
      gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
      return;
    }
  start_editing (self, position, NULL);
}

static void
edit_value_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  guint position = selected_position (self);

  if (position != GTK_INVALID_LIST_POSITION)
    start_editing (self, position, NULL);
}

/* ------------------------------------------------------------------------ */
/* Expanding, copying, the context menu */

static void
expand_all (DynItemDetail *self)
{
  if (self->tree == NULL)
    return;
  /* Rows appear after the ones expanded: the count grows as we go. */
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);

      if (gtk_tree_list_row_is_expandable (row))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

static void
collapse_all (DynItemDetail *self)
{
  gboolean refocus;
  guint n;

  if (self->tree == NULL)
    return;
  finish_editing (self, FINISH_COMMIT);
  /* Rows are destroyed: not with the focus in one. */
  refocus = dyn_widget_release_focus (GTK_WIDGET (self->tree_view), NULL);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));
  for (guint i = n; i > 0; i--)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i - 1);

      if (row != NULL && gtk_tree_list_row_get_expanded (row))
        gtk_tree_list_row_set_expanded (row, FALSE);
    }
  if (refocus)
    gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
}

static void
expand_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  expand_all (DYN_ITEM_DETAIL (widget));
}

static void
collapse_all_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  collapse_all (DYN_ITEM_DETAIL (widget));
}

/* The window's Ctrl+Shift+arrows: while the tree can be seen, and not
 * when a text field has the focus (it selects words with them). */
static gboolean
tree_shortcut_cb (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  if (self->tree == NULL || !gtk_widget_is_drawable (GTK_WIDGET (self->tree_view)))
    return FALSE;
  if (GPOINTER_TO_INT (user_data))
    expand_all (self);
  else
    collapse_all (self);
  return TRUE;
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
copy_value_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  DynDetailNode *node = node_at (self, selected_position (self));
  g_autofree char *text = NULL;

  if (node == NULL)
    return;
  /* Scalars as typed in place, the rest as plain JSON. */
  text = dyn_outline_edit_text (node->value);
  if (text == NULL)
    text = dyn_value_to_plain_json_string (node->value);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

static void
copy_path_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  DynDetailNode *node = node_at (self, selected_position (self));

  if (node != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), node->path_text);
}

static void
popup_menu (DynItemDetail *self,
            GtkWidget     *at,
            double         x,
            double         y)
{
  graphene_point_t point;
  GdkRectangle rect;

  if (self->popover == NULL)
    {
      self->popover = gtk_popover_menu_new_from_model (self->context_menu);
      gtk_widget_set_parent (self->popover, GTK_WIDGET (self));
      gtk_popover_set_has_arrow (GTK_POPOVER (self->popover), FALSE);
      gtk_widget_set_halign (self->popover, GTK_ALIGN_START);
    }
  if (!gtk_widget_compute_point (at, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    point = GRAPHENE_POINT_INIT (0, 0);
  rect = (GdkRectangle) { (int) point.x, (int) point.y, 1, 1 };
  gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &rect);
  gtk_popover_popup (GTK_POPOVER (self->popover));
}

static void
context_pressed_cb (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    GtkListItem     *list_item)
{
  DynItemDetail *self = g_object_get_data (G_OBJECT (list_item), "dyn-detail");
  guint position = gtk_list_item_get_position (list_item);

  if (self == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  popup_menu (self, gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture)), x, y);
}

/* Shift+F10 or the Menu key: the menu of the selected row. */
static void
context_menu_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (widget);
  guint position = selected_position (self);
  GtkListItem *list_item = position != GTK_INVALID_LIST_POSITION ? bound_value_item (self, position) : NULL;

  if (list_item != NULL)
    popup_menu (self, gtk_list_item_get_child (list_item), 0, 0);
  else
    popup_menu (self, GTK_WIDGET (self->tree_view), 0, 0);
}

static void
update_actions (DynItemDetail *self)
{
  gboolean item = self->item != NULL;
  gboolean tree = g_strcmp0 (gtk_stack_get_visible_child_name (self->view_stack), "tree") == 0;
  gboolean row = item && selected_position (self) != GTK_INVALID_LIST_POSITION;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.copy", item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.expand-all", item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.collapse-all", item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.edit-value", row);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.copy-value", row);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "detail.copy-path", row);
  gtk_widget_set_visible (self->expand_button, tree);
  gtk_widget_set_visible (self->collapse_button, tree);
}

static void
selection_changed_cb (GtkSelectionModel *selection,
                      guint              position,
                      guint              n_items,
                      DynItemDetail     *self)
{
  update_actions (self);
}

static void
view_changed_cb (GtkStack      *stack,
                 GParamSpec    *pspec,
                 DynItemDetail *self)
{
  update_actions (self);
}

static void
session_changed_cb (DynEditSession *session,
                    DynItemDetail  *self)
{
  update_row (self);
  refresh_values (self);
}

static void
session_model_cb (DynEditSession *session,
                  GParamSpec     *pspec,
                  DynItemDetail  *self)
{
  session_changed_cb (session, self);
}

/* ------------------------------------------------------------------------ */
/* The tree */

/* The paths of the expanded rows. */
static GHashTable *
collect_expanded (DynItemDetail *self)
{
  GHashTable *expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n = self->tree ? g_list_model_get_n_items (G_LIST_MODEL (self->tree)) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      DynDetailNode *node = row_node (row);

      if (node != NULL && gtk_tree_list_row_get_expanded (row))
        g_hash_table_add (expanded, g_strdup (node->path_text));
    }
  return expanded;
}

static void
build_tree (DynItemDetail *self,
            GHashTable    *expanded)
{
  g_autoptr(GtkSingleSelection) selection = NULL;
  GListModel *root;

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
  gtk_column_view_set_model (self->tree_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  if (self->item == NULL)
    return;

  root = value_children (self->item, NULL, self->keys);
  if (root == NULL)
    root = G_LIST_MODEL (g_list_store_new (DYN_TYPE_DETAIL_NODE));
  self->tree = gtk_tree_list_model_new (root, FALSE, FALSE, create_children_cb, NULL, NULL);
  for (guint i = 0; expanded != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      DynDetailNode *node = row_node (row);

      if (node != NULL && gtk_tree_list_row_is_expandable (row) && g_hash_table_contains (expanded, node->path_text))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  self->selection = g_steal_pointer (&selection);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->tree_view, GTK_SELECTION_MODEL (self->selection));
}

/* The same item with the same rows: each row shows its new value. */
static void
update_tree (DynItemDetail *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tree));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      DynDetailNode *node = row_node (row);
      g_autoptr(DynValue) value = node ? dyn_outline_lookup (self->item, node->path) : NULL;

      if (value != NULL)
        detail_node_set_value (node, value);
    }
  /* Collapsed maps and lists build their rows from the new value later;
   * the top-level nodes are rows, and so is every expanded one. */
}

static gboolean
same_key (DynItemDetail *self,
          DynValue      *a,
          DynValue      *b)
{
  const DynKeySchema *keys = self->session ? dyn_edit_session_get_keys (self->session) : NULL;
  g_autoptr(DynValue) key_a = NULL;
  g_autoptr(DynValue) key_b = NULL;

  if (keys == NULL || a == NULL || b == NULL)
    return FALSE;
  key_a = dyn_item_key (a, keys);
  key_b = dyn_item_key (b, keys);
  return key_a != NULL && key_b != NULL && dyn_value_equal (key_a, key_b);
}

static void
dyn_item_detail_dispose (GObject *object)
{
  DynItemDetail *self = DYN_ITEM_DETAIL (object);

  finish_editing (self, FINISH_CANCEL);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->row);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
  if (self->tree_view != NULL)
    gtk_column_view_set_model (self->tree_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree);
  g_clear_pointer (&self->popover, gtk_widget_unparent);
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
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_pointer (&self->bound, g_hash_table_unref);
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
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, message_label);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, expand_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, collapse_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemDetail, context_menu);

  gtk_widget_class_install_action (widget_class, "detail.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "detail.expand-all", NULL, expand_all_action);
  gtk_widget_class_install_action (widget_class, "detail.collapse-all", NULL, collapse_all_action);
  gtk_widget_class_install_action (widget_class, "detail.edit-value", NULL, edit_value_action);
  gtk_widget_class_install_action (widget_class, "detail.copy-value", NULL, copy_value_action);
  gtk_widget_class_install_action (widget_class, "detail.copy-path", NULL, copy_path_action);
  gtk_widget_class_install_action (widget_class, "detail.context-menu", NULL, context_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F2, 0, "detail.edit-value", NULL);
  /* With a row selected; text views and entries copy their own text first. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "detail.copy-value", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "detail.context-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "detail.context-menu", NULL);
}

static void
dyn_item_detail_init (DynItemDetail *self)
{
  GtkEventController *shortcuts;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->bound = g_hash_table_new (NULL, NULL);

  set_factory (self->name_column, self, G_CALLBACK (name_setup_cb), G_CALLBACK (name_bind_cb),
               G_CALLBACK (name_unbind_cb), FALSE);
  set_factory (self->type_column, self, G_CALLBACK (label_setup_cb), G_CALLBACK (type_bind_cb),
               G_CALLBACK (type_unbind_cb), FALSE);
  set_factory (self->value_column, self, G_CALLBACK (value_setup_cb), G_CALLBACK (value_bind_cb),
               G_CALLBACK (value_unbind_cb), TRUE);
  g_signal_connect (self->tree_view, "activate", G_CALLBACK (tree_activate_cb), self);
  g_signal_connect (self->view_stack, "notify::visible-child-name", G_CALLBACK (view_changed_cb), self);

  /* Expand and collapse all from anywhere in the window while the tree is
   * shown: before the focus widget sees the keys, since lists take every
   * arrow key (a text field keeps its own Ctrl+Shift+arrows). */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
    gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Right, GDK_CONTROL_MASK | GDK_SHIFT_MASK),
                      gtk_callback_action_new (tree_shortcut_cb, GINT_TO_POINTER (TRUE), NULL)));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
    gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Left, GDK_CONTROL_MASK | GDK_SHIFT_MASK),
                      gtk_callback_action_new (tree_shortcut_cb, GINT_TO_POINTER (FALSE), NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  update_actions (self);
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
  g_autoptr(GHashTable) expanded = NULL;
  gboolean refocus;
  gboolean in_place;

  g_return_if_fail (DYN_IS_ITEM_DETAIL (self));
  g_return_if_fail (item == NULL || dyn_value_get_value_type (item) == DYN_VALUE_M);

  if (item == self->item)
    return;
  /* A staged edit of the item shown (or a write of it): the same rows with
   * new values, kept where they are, and an edit in progress goes on. */
  in_place = self->tree != NULL && same_key (self, self->item, item) && dyn_outline_same_shape (self->item, item);
  if (!in_place)
    finish_editing (self, FINISH_COMMIT_LATER);
  if (item != NULL)
    dyn_value_ref (item);
  g_clear_pointer (&self->item, dyn_value_unref);
  self->item = item;
  g_clear_pointer (&self->plain_json, g_free);
  g_clear_pointer (&self->ddb_json, g_free);
  update_row (self);

  if (item != NULL)
    {
      g_autofree char *plain = dyn_value_to_plain_json_string (item);
      g_autofree char *ddb = dyn_item_to_ddb_json_string (item);

      self->plain_json = dyn_json_text_indent (plain);
      self->ddb_json = dyn_json_text_indent (ddb);
    }

  if (in_place)
    {
      update_tree (self);
      refresh_values (self);
    }
  else
    {
      show_message (self, NULL);
      expanded = collect_expanded (self);
      /* The rows are destroyed: not with the focus in one. */
      refocus = dyn_widget_release_focus (GTK_WIDGET (self->tree_view), NULL);
      build_tree (self, expanded);
      if (refocus && item != NULL)
        gtk_widget_grab_focus (GTK_WIDGET (self->tree_view));
    }
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->json_view), self->plain_json ? self->plain_json : "", -1);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->ddb_view), self->ddb_json ? self->ddb_json : "", -1);
  gtk_stack_set_visible_child_name (self->content_stack, item ? "item" : "empty");
  update_actions (self);
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

void
dyn_item_detail_set_edit_session (DynItemDetail  *self,
                                  DynEditSession *session)
{
  const DynTableKeys *keys;
  g_autoptr(GHashTable) expanded = NULL;

  g_return_if_fail (DYN_IS_ITEM_DETAIL (self));
  g_return_if_fail (session == NULL || DYN_IS_EDIT_SESSION (session));

  if (self->session == session)
    return;
  finish_editing (self, FINISH_CANCEL);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  if (session != NULL)
    {
      const DynKeySchema *schema = dyn_edit_session_get_keys (session);

      g_signal_connect (session, "changed", G_CALLBACK (session_changed_cb), self);
      g_signal_connect (session, "notify::model", G_CALLBACK (session_model_cb), self);
      keys = dyn_edit_session_get_index_keys (session);
      if (keys != NULL)
        self->keys = dyn_table_keys_copy (keys);
      else
        self->keys = dyn_table_keys_new (dyn_edit_session_get_table (session), schema->partition_key,
                                         schema->partition_type, schema->sort_key, schema->sort_type);
    }
  update_row (self);
  /* The keys order the rows. */
  if (self->item != NULL)
    {
      expanded = collect_expanded (self);
      dyn_widget_release_focus (GTK_WIDGET (self->tree_view), NULL);
      build_tree (self, expanded);
    }
  update_actions (self);
}

DynEditSession *
dyn_item_detail_get_edit_session (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return self->session;
}

char *
dyn_item_detail_dup_row_path (DynItemDetail *self,
                              guint          position)
{
  DynDetailNode *node;

  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  node = node_at (self, position);
  return node ? g_strdup (node->path_text) : NULL;
}

char *
dyn_item_detail_dup_row_text (DynItemDetail *self,
                              guint          position)
{
  DynDetailNode *node;

  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  node = node_at (self, position);
  return node ? dyn_outline_value_text (node->value, NULL) : NULL;
}

DynOutlineKey
dyn_item_detail_get_row_key (DynItemDetail *self,
                             guint          position)
{
  DynDetailNode *node;

  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), DYN_OUTLINE_NOT_KEY);

  node = node_at (self, position);
  return node ? node->key : DYN_OUTLINE_NOT_KEY;
}

int
dyn_item_detail_find_row (DynItemDetail *self,
                          const char    *path)
{
  guint n;

  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), -1);
  g_return_val_if_fail (path != NULL, -1);

  n = self->tree ? g_list_model_get_n_items (G_LIST_MODEL (self->tree)) : 0;
  for (guint i = 0; i < n; i++)
    {
      DynDetailNode *node = node_at (self, i);

      if (node != NULL && g_strcmp0 (node->path_text, path) == 0)
        return (int) i;
    }
  return -1;
}

gboolean
dyn_item_detail_select_path (DynItemDetail *self,
                             const char    *path)
{
  g_autoptr(DynExprPath) parsed = NULL;
  g_autofree char *wanted = NULL;
  int position = -1;

  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  parsed = dyn_expr_path_parse (path, NULL);
  if (parsed == NULL || self->tree == NULL)
    return FALSE;
  wanted = dyn_path_to_display (parsed);
  /* Each prefix in turn: its row appears once its parent is expanded. */
  for (guint len = 1; len <= dyn_expr_path_get_length (parsed); len++)
    {
      g_autoptr(DynExprPath) prefix = dyn_expr_path_new (NULL);
      g_autofree char *text = NULL;
      g_autoptr(GtkTreeListRow) row = NULL;

      for (guint i = 0; i < len; i++)
        {
          if (dyn_expr_path_is_index (parsed, i))
            dyn_expr_path_append_index (prefix, dyn_expr_path_get_index (parsed, i));
          else
            dyn_expr_path_append_name (prefix, dyn_expr_path_get_name (parsed, i, NULL));
        }
      text = dyn_path_to_display (prefix);
      position = dyn_item_detail_find_row (self, text);
      if (position < 0)
        return FALSE;
      row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
      if (len < dyn_expr_path_get_length (parsed))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  return TRUE;
}

GtkEditable *
dyn_item_detail_get_editor (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return self->edit_entry ? GTK_EDITABLE (self->edit_entry) : NULL;
}

const char *
dyn_item_detail_get_message (DynItemDetail *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_DETAIL (self), NULL);

  return gtk_widget_get_visible (GTK_WIDGET (self->message_label)) ? gtk_label_get_label (self->message_label) : NULL;
}
