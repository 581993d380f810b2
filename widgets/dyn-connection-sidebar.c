/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-connection-sidebar"

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-connection-sidebar.h"
#include "dyn-lifetime.h"

struct _DynConnectionSidebar
{
  AdwBin            parent_instance;

  GListModel       *connections;
  GtkTreeListModel *tree;
  GtkStringFilter  *filter;
  GHashTable       *tables;     /* DynConnection* → GtkFilterListModel over a GtkStringList */
  GHashTable       *statuses;   /* DynConnection* → char* */
  gboolean          refocus;    /* the focus left rows being destroyed */

  GtkSearchEntry   *search_entry;
  GtkListView      *list_view;
};

enum {
  CONNECTION_ACTIVATED,
  TABLE_ACTIVATED,
  STATUS_CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynConnectionSidebar, dyn_connection_sidebar, ADW_TYPE_BIN)

static guint signals[N_SIGNALS];

static GtkFilterListModel *
tables_for (DynConnectionSidebar *self,
            DynConnection        *connection)
{
  GtkFilterListModel *model = g_hash_table_lookup (self->tables, connection);

  if (model == NULL)
    {
      model = gtk_filter_list_model_new (G_LIST_MODEL (gtk_string_list_new (NULL)),
                                         g_object_ref (GTK_FILTER (self->filter)));
      g_hash_table_insert (self->tables, g_object_ref (connection), model);
    }
  return model;
}

static GListModel *
create_child_cb (gpointer item,
                 gpointer user_data)
{
  DynConnectionSidebar *self = user_data;

  if (!DYN_IS_CONNECTION (item))
    return NULL;
  return g_object_ref (G_LIST_MODEL (tables_for (self, item)));
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          DynConnectionSidebar     *self)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *lock = gtk_image_new_from_icon_name ("changes-prevent-symbolic");

  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (lock, GTK_ALIGN_CENTER);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_tooltip_text (lock, _("Read-only"));
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), subtitle);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_box_append (GTK_BOX (box), lock);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static void
update_row (DynConnectionSidebar *self,
            GtkListItem          *list_item)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);
  GtkWidget *box = gtk_tree_expander_get_child (expander);
  GtkWidget *icon = gtk_widget_get_first_child (box);
  GtkWidget *texts = gtk_widget_get_next_sibling (icon);
  GtkWidget *lock = gtk_widget_get_last_child (box);
  GtkLabel *title = GTK_LABEL (gtk_widget_get_first_child (texts));
  GtkLabel *subtitle = GTK_LABEL (gtk_widget_get_last_child (texts));

  /* A row whose item just left the model, not yet unbound. */
  if (item == NULL)
    return;
  if (DYN_IS_CONNECTION (item))
    {
      DynConnection *connection = DYN_CONNECTION (item);
      const char *status = g_hash_table_lookup (self->statuses, connection);
      const char *endpoint = dyn_connection_get_endpoint_url (connection);
      const char *region = dyn_connection_get_region (connection);
      g_autofree char *where = NULL;

      if (status != NULL)
        where = g_strdup (status);
      else if (endpoint != NULL && g_strcmp0 (endpoint, dyn_connection_get_name (connection)) == 0)
        where = g_strdup (region ? region : "");
      else if (endpoint != NULL)
        where = g_strdup_printf ("%s · %s", region ? region : "", endpoint);
      else
        where = g_strdup (region ? region : _("default region"));
      gtk_image_set_from_icon_name (GTK_IMAGE (icon), dyn_connection_get_kind (connection) == DYN_CONNECTION_KIND_PROFILE
                                                        ? "avatar-default-symbolic" : "network-server-symbolic");
      gtk_label_set_label (title, dyn_connection_get_name (connection));
      gtk_label_set_label (subtitle, where);
      gtk_widget_set_visible (GTK_WIDGET (subtitle), TRUE);
      gtk_widget_set_visible (lock, dyn_connection_get_read_only (connection));
    }
  else
    {
      gtk_image_set_from_icon_name (GTK_IMAGE (icon), "view-grid-symbolic");
      gtk_label_set_label (title, gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
      gtk_widget_set_visible (GTK_WIDGET (subtitle), FALSE);
      gtk_widget_set_visible (lock, FALSE);
    }
}

static void
connection_notify_cb (GObject     *connection,
                      GParamSpec  *pspec,
                      GtkListItem *list_item)
{
  DynConnectionSidebar *self = g_object_get_data (G_OBJECT (list_item), "dyn-sidebar");

  if (self != NULL)
    update_row (self, list_item);
}

static void
status_changed_cb (DynConnectionSidebar *self,
                   DynConnection        *connection,
                   GtkListItem          *list_item)
{
  if (dyn_list_item_get_bound (list_item, "dyn-connection") == (gpointer) connection)
    update_row (self, list_item);
}

static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         DynConnectionSidebar     *self)
{
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item));
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (expander, row);
  g_object_set_data (G_OBJECT (list_item), "dyn-sidebar", self);
  if (DYN_IS_CONNECTION (item))
    {
      /* Held until unbind: the row may outlive the connection's place in
       * the model. */
      dyn_list_item_bind_handler (list_item, "dyn-connection", item,
                                  g_signal_connect_object (item, "notify", G_CALLBACK (connection_notify_cb),
                                                           list_item, 0));
      g_signal_connect_object (self, "status-changed", G_CALLBACK (status_changed_cb), list_item, 0);
    }
  update_row (self, list_item);
}

static void
unbind_cb (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           DynConnectionSidebar     *self)
{
  if (dyn_list_item_get_bound (list_item, "dyn-connection") != NULL)
    g_signal_handlers_disconnect_by_func (self, status_changed_cb, list_item);
  dyn_list_item_unbind_handler (list_item, "dyn-connection");
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (gtk_list_item_get_child (list_item)), NULL);
}

static void
activate_cb (GtkListView          *view,
             guint                 position,
             DynConnectionSidebar *self)
{
  g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), position);
  g_autoptr(GObject) item = row ? gtk_tree_list_row_get_item (row) : NULL;

  if (DYN_IS_CONNECTION (item))
    {
      gtk_tree_list_row_set_expanded (row, TRUE);
      g_signal_emit (self, signals[CONNECTION_ACTIVATED], 0, item);
    }
  else if (GTK_IS_STRING_OBJECT (item))
    {
      g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (row);
      g_autoptr(GObject) connection = parent ? gtk_tree_list_row_get_item (parent) : NULL;

      if (DYN_IS_CONNECTION (connection))
        g_signal_emit (self, signals[TABLE_ACTIVATED], 0, connection,
                       gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
    }
}

static void
search_changed_cb (GtkSearchEntry       *entry,
                   DynConnectionSidebar *self)
{
  gtk_string_filter_set_search (self->filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* Enter in the filter opens the only table shown; with several it moves
 * to the list. The filter takes the text first: the entry's own delay may
 * not have passed yet. */
static void
search_activate_cb (GtkSearchEntry       *entry,
                    DynConnectionSidebar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autoptr(GtkTreeListRow) only = NULL;
  guint matches = 0;

  gtk_string_filter_set_search (self->filter, text);
  if (text == NULL || *text == '\0' || self->tree == NULL)
    return;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (GTK_IS_STRING_OBJECT (item) && matches++ == 0)
        only = g_steal_pointer (&row);
    }
  if (matches == 1)
    {
      g_autoptr(GObject) table = gtk_tree_list_row_get_item (only);
      g_autoptr(GtkTreeListRow) parent = gtk_tree_list_row_get_parent (only);
      g_autoptr(GObject) connection = parent ? gtk_tree_list_row_get_item (parent) : NULL;
      g_autofree char *name = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (table)));

      if (DYN_IS_CONNECTION (connection))
        g_signal_emit (self, signals[TABLE_ACTIVATED], 0, connection, name);
    }
  else if (matches > 1)
    gtk_widget_child_focus (GTK_WIDGET (self->list_view), GTK_DIR_TAB_FORWARD);
}

static void tree_items_changed_cb (GListModel           *tree,
                                   guint                 position,
                                   guint                 removed,
                                   guint                 added,
                                   DynConnectionSidebar *self);

static void
dyn_connection_sidebar_dispose (GObject *object)
{
  DynConnectionSidebar *self = DYN_CONNECTION_SIDEBAR (object);

  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  if (self->tree != NULL)
    g_signal_handlers_disconnect_by_func (self->tree, tree_items_changed_cb, self);
  g_clear_object (&self->tree);
  g_clear_object (&self->connections);
  g_hash_table_remove_all (self->tables);
  /* The template's top widget is the AdwBin child: let AdwBin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_CONNECTION_SIDEBAR);

  G_OBJECT_CLASS (dyn_connection_sidebar_parent_class)->dispose (object);
}

static void
dyn_connection_sidebar_finalize (GObject *object)
{
  DynConnectionSidebar *self = DYN_CONNECTION_SIDEBAR (object);

  g_hash_table_unref (self->tables);
  g_hash_table_unref (self->statuses);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (dyn_connection_sidebar_parent_class)->finalize (object);
}

static void
dyn_connection_sidebar_class_init (DynConnectionSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_connection_sidebar_dispose;
  object_class->finalize = dyn_connection_sidebar_finalize;

  signals[CONNECTION_ACTIVATED] =
    g_signal_new ("connection-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_CONNECTION);
  signals[TABLE_ACTIVATED] =
    g_signal_new ("table-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, DYN_TYPE_CONNECTION, G_TYPE_STRING);
  /* Internal: rows of the connection update themselves. */
  signals[STATUS_CHANGED] =
    g_signal_new ("status-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_CONNECTION);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-connection-sidebar.ui");
  gtk_widget_class_bind_template_child (widget_class, DynConnectionSidebar, search_entry);
  gtk_widget_class_bind_template_child (widget_class, DynConnectionSidebar, list_view);
}

static void
dyn_connection_sidebar_init (DynConnectionSidebar *self)
{
  GtkListItemFactory *factory;

  self->tables = g_hash_table_new_full (NULL, NULL, g_object_unref, g_object_unref);
  self->statuses = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->filter = gtk_string_filter_new (gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->filter, TRUE);

  gtk_widget_init_template (GTK_WIDGET (self));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  g_signal_connect (self->list_view, "activate", G_CALLBACK (activate_cb), self);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
}

GtkWidget *
dyn_connection_sidebar_new (void)
{
  return g_object_new (DYN_TYPE_CONNECTION_SIDEBAR, NULL);
}

/* Rows of removed items (a table list refreshed, a connection deleted) are
 * destroyed: the focus leaves them first (this runs before the view sees
 * the change) and comes back once the view has its new rows. */
static void
tree_items_changed_cb (GListModel           *tree,
                       guint                 position,
                       guint                 removed,
                       guint                 added,
                       DynConnectionSidebar *self)
{
  if (removed > 0 && dyn_widget_release_focus (GTK_WIDGET (self->list_view), NULL))
    self->refocus = TRUE;
}

static void
restore_focus (DynConnectionSidebar *self)
{
  if (!self->refocus)
    return;
  self->refocus = FALSE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self->list_view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
selection_items_changed_after_cb (GListModel           *selection,
                                  guint                 position,
                                  guint                 removed,
                                  guint                 added,
                                  DynConnectionSidebar *self)
{
  restore_focus (self);
}

void
dyn_connection_sidebar_set_connections (DynConnectionSidebar *self,
                                        GListModel           *connections)
{
  g_autoptr(GtkSingleSelection) selection = NULL;

  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));
  g_return_if_fail (G_IS_LIST_MODEL (connections));

  if (dyn_widget_release_focus (GTK_WIDGET (self->list_view), NULL))
    self->refocus = TRUE;
  gtk_list_view_set_model (self->list_view, NULL);
  if (self->tree != NULL)
    g_signal_handlers_disconnect_by_func (self->tree, tree_items_changed_cb, self);
  g_clear_object (&self->tree);
  g_set_object (&self->connections, connections);
  self->tree = gtk_tree_list_model_new (g_object_ref (connections), FALSE, FALSE, create_child_cb, self, NULL);
  /* Before the selection connects: see tree_items_changed_cb(). */
  g_signal_connect (self->tree, "items-changed", G_CALLBACK (tree_items_changed_cb), self);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->tree)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  g_signal_connect_object (selection, "items-changed", G_CALLBACK (selection_items_changed_after_cb), self,
                           G_CONNECT_AFTER);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
  restore_focus (self);
}

void
dyn_connection_sidebar_set_tables (DynConnectionSidebar *self,
                                   DynConnection        *connection,
                                   const char * const   *tables)
{
  GtkFilterListModel *model;
  GtkStringList *list;

  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));
  g_return_if_fail (DYN_IS_CONNECTION (connection));

  model = tables_for (self, connection);
  list = GTK_STRING_LIST (gtk_filter_list_model_get_model (model));
  gtk_string_list_splice (list, 0, g_list_model_get_n_items (G_LIST_MODEL (list)), tables);
}

static GtkTreeListRow *
find_row (DynConnectionSidebar *self,
          DynConnection        *connection)
{
  for (guint i = 0; self->tree != NULL && i < g_list_model_get_n_items (G_LIST_MODEL (self->tree)); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (G_LIST_MODEL (self->tree), i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (item == (GObject *) connection)
        return g_steal_pointer (&row);
    }
  return NULL;
}

void
dyn_connection_sidebar_set_status (DynConnectionSidebar *self,
                                   DynConnection        *connection,
                                   const char           *status)
{
  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));

  if (status != NULL)
    g_hash_table_insert (self->statuses, connection, g_strdup (status));
  else
    g_hash_table_remove (self->statuses, connection);
  g_signal_emit (self, signals[STATUS_CHANGED], 0, connection);
}

void
dyn_connection_sidebar_set_expanded (DynConnectionSidebar *self,
                                     DynConnection        *connection,
                                     gboolean              expanded)
{
  g_autoptr(GtkTreeListRow) row = NULL;

  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));

  row = find_row (self, connection);
  if (row != NULL)
    gtk_tree_list_row_set_expanded (row, expanded);
}

void
dyn_connection_sidebar_set_filter (DynConnectionSidebar *self,
                                   const char           *text)
{
  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  gtk_string_filter_set_search (self->filter, text);
}

GListModel *
dyn_connection_sidebar_get_tables (DynConnectionSidebar *self,
                                   DynConnection        *connection)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_SIDEBAR (self), NULL);

  return G_LIST_MODEL (tables_for (self, connection));
}

void
dyn_connection_sidebar_focus_filter (DynConnectionSidebar *self)
{
  g_return_if_fail (DYN_IS_CONNECTION_SIDEBAR (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

GListModel *
dyn_connection_sidebar_get_rows (DynConnectionSidebar *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_SIDEBAR (self), NULL);

  return G_LIST_MODEL (self->tree);
}

GtkEditable *
dyn_connection_sidebar_get_filter_entry (DynConnectionSidebar *self)
{
  g_return_val_if_fail (DYN_IS_CONNECTION_SIDEBAR (self), NULL);

  return GTK_EDITABLE (self->search_entry);
}
