/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-grid"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-error.h"
#include "dyn-item-grid.h"
#include "dyn-lifetime.h"
#include "dyn-row-model.h"
#include "dyn-value-format.h"

/* Longest text a cell shows; the detail pane has the rest. */
#define CELL_MAX_CHARS 160
/* Longest group header tooltip. */
#define TOOLTIP_MAX_CHARS 1000
/* The Item column: wide for the group headers, narrow for the entity
 * labels and marks of a plain list. */
#define ITEM_COLUMN_GROUPED_WIDTH 250
#define ITEM_COLUMN_FLAT_WIDTH 90

struct _DynItemGrid
{
  AdwBin              parent_instance;

  DynCollectionModel *model;
  DynRowModel        *rows;
  GtkMultiSelection  *selection;
  DynEditSession     *session;
  GHashTable         *bound;        /* GtkListItem* of bound attribute cells */
  GtkBitset          *reselect;     /* rows replaced in place while selected */
  GHashTable         *columns;      /* name → GtkColumnViewColumn, owned by the view */
  GPtrArray          *column_order; /* names in creation order */
  GHashTable         *links;        /* attribute names shown as links */
  DynItemObject      *selected;
  gulong              attributes_handler;
  gulong              has_collections_handler;
  gulong              entity_source_handler;
  GHashTable         *auto_hidden;  /* name → GtkColumnViewColumn* the grid hid itself (not a reference) */
  gboolean            grouped;
  gboolean            shows_collections; /* grouped, and the model has collections */
  gboolean            refocus;      /* the focus left rows being destroyed */
  guint               finish_id;    /* the edit is finished when idle */

  /* In-place editing: the cell's list item, its usual child while an
   * entry takes its place, and the entry. */
  GtkListItem        *edit_item;
  GtkWidget          *edit_child;
  GtkWidget          *edit_entry;

  GtkScrolledWindow  *scrolled;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *item_column;
};

enum {
  PROP_0,
  PROP_MODEL,
  PROP_GROUPED,
  PROP_SELECTED_ITEM,
  PROP_EDIT_SESSION,
  N_PROPS
};

enum {
  FOLLOW_KEY,
  FOLLOW_ITEM,
  NEAR_END,
  EDIT_FAILED,
  EDIT_ITEM,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynItemGrid, dyn_item_grid, ADW_TYPE_BIN)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void hide_redundant_columns (DynItemGrid *self,
                                    gboolean     again);

/* The row's DynCollection or DynItemObject (the list item holds it). */
static gpointer
row_get_object (GtkListItem *list_item)
{
  return gtk_list_item_get_item (list_item);
}

/* The first column: expander, collection title and count, or entity type. */

/* A header's key was clicked: the collection's key is followed as a key
 * cell's would be (a multi-attribute key with the other values from the
 * collection's first item). */
static void
header_link_clicked_cb (GtkButton   *button,
                        DynItemGrid *self)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (button), "dyn-list-item");
  DynCollection *collection = dyn_list_item_get_bound (list_item, "dyn-collection");
  g_autofree char *name = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) value = NULL;
  gboolean handled = FALSE;

  if (collection == NULL || self->model == NULL || dyn_collection_get_n_items (collection) == 0 ||
      dyn_collection_get_partition_key_value (collection) == NULL)
    return;
  /* Following reads anew: the model and its rows go while we are here. */
  name = g_strdup (dyn_collection_model_get_partition_key (self->model));
  item = dyn_value_ref (dyn_item_object_get_item (dyn_collection_peek_item (collection, 0)));
  value = dyn_value_map_lookup (item, name) ? dyn_value_ref (dyn_value_map_lookup (item, name)) : NULL;
  g_signal_emit (self, signals[FOLLOW_ITEM], 0, name, item, &handled);
  if (!handled && value != NULL)
    g_signal_emit (self, signals[FOLLOW_KEY], 0, name, value);
}

static void
update_expander (GtkWidget *expander,
                 gboolean   expanded)
{
  gtk_button_set_icon_name (GTK_BUTTON (expander), expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  gtk_widget_set_tooltip_text (expander, expanded ? _("Collapse") : _("Expand"));
}

static void
toggle_collection (DynItemGrid   *self,
                   DynCollection *collection)
{
  gboolean expanded = !dyn_row_model_get_expanded (self->rows, collection);

  dyn_row_model_set_expanded (self->rows, collection, expanded);
}

static void
expander_clicked_cb (GtkButton   *button,
                     GtkListItem *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  DynItemGrid *self = g_object_get_data (G_OBJECT (box), "dyn-grid");
  gpointer object = row_get_object (list_item);

  if (!DYN_IS_COLLECTION (object))
    return;
  toggle_collection (self, object);
  update_expander (GTK_WIDGET (button), dyn_row_model_get_expanded (self->rows, object));
}

static void
item_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               DynItemGrid              *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *expander = gtk_button_new_from_icon_name ("pan-end-symbolic");
  GtkWidget *mark = gtk_label_new (NULL);
  GtkWidget *entity = gtk_label_new (NULL);
  GtkWidget *title = gtk_inscription_new (NULL);
  GtkWidget *link = gtk_button_new ();
  GtkWidget *count = gtk_label_new (NULL);

  gtk_widget_add_css_class (entity, "dyn-entity-type");
  gtk_widget_add_css_class (entity, "caption");
  gtk_label_set_ellipsize (GTK_LABEL (entity), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (entity), 14);
  /* Keys often differ at their end ("customer#…-0041", "…-0042"). */
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (title), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE);
  /* The header's key is a link, as the key cells it replaces were: it
   * queries the collection. As wide as its text, cut when the column is
   * narrower. */
  gtk_button_set_child (GTK_BUTTON (link), title);
  gtk_widget_add_css_class (link, "flat");
  gtk_widget_set_hexpand (link, TRUE);
  gtk_widget_set_halign (link, GTK_ALIGN_START);
  g_object_set_data (G_OBJECT (link), "dyn-list-item", list_item);
  g_signal_connect (link, "clicked", G_CALLBACK (header_link_clicked_cb), self);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "caption");
  gtk_widget_add_css_class (count, "numeric");
  gtk_widget_add_css_class (mark, "dyn-mark");
  gtk_widget_set_visible (mark, FALSE);
  /* The rows are a DynRowModel, not a GtkTreeListModel: a collection's
   * header has its own expander button (GtkTreeExpander needs tree rows). */
  gtk_widget_add_css_class (expander, "flat");
  gtk_widget_add_css_class (expander, "dyn-expander");
  gtk_widget_set_focus_on_click (expander, FALSE);
  gtk_widget_set_valign (expander, GTK_ALIGN_CENTER);
  g_signal_connect (expander, "clicked", G_CALLBACK (expander_clicked_cb), list_item);
  gtk_box_append (GTK_BOX (box), expander);
  gtk_box_append (GTK_BOX (box), mark);
  gtk_box_append (GTK_BOX (box), entity);
  gtk_box_append (GTK_BOX (box), link);
  gtk_box_append (GTK_BOX (box), count);
  g_object_set_data (G_OBJECT (box), "dyn-mark", mark);
  g_object_set_data (G_OBJECT (box), "dyn-entity", entity);
  g_object_set_data (G_OBJECT (box), "dyn-title", title);
  g_object_set_data (G_OBJECT (box), "dyn-link", link);
  g_object_set_data (G_OBJECT (box), "dyn-expander", expander);
  g_object_set_data (G_OBJECT (box), "dyn-grid", self);
  /* The row's focus lands here (as it did on a GtkTreeExpander), not in
   * the first focusable cell further right, such as an open cell editor. */
  gtk_widget_set_focusable (box, TRUE);
  /* For tests: the row a cell of the Item column shows. */
  g_object_set_data (G_OBJECT (box), "dyn-list-item", list_item);
  gtk_list_item_set_child (list_item, box);
}

/* "4 items"; "1+ items (more not loaded)" while the read may add to the
 * collection (a page ended in it). */
static void
update_count (GtkLabel      *count,
              DynCollection *collection)
{
  guint n = dyn_collection_get_n_items (collection);
  gboolean more = dyn_collection_get_more_pending (collection);
  g_autofree char *text = NULL;

  if (more)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u+ item (more not loaded)", "%u+ items (more not loaded)", n), n);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", n), n);
  gtk_label_set_label (count, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (count),
                               more ? _("The read has more pages: Load More reads the rest of this collection") : NULL);
}

static void
collection_n_items_cb (DynCollection *collection,
                       GParamSpec    *pspec,
                       GtkLabel      *count)
{
  update_count (count, collection);
}

static const char * const state_classes[] = { "dyn-added", "dyn-changed", "dyn-deleted", "dyn-cell-changed" };

static void
clear_state_classes (GtkWidget *widget)
{
  for (guint i = 0; i < G_N_ELEMENTS (state_classes); i++)
    gtk_widget_remove_css_class (widget, state_classes[i]);
}

/* The row's marker: + added, ● changed, − deleted (the row is staged). */
static void
update_mark (GtkLabel      *mark,
             GParamSpec    *pspec,
             DynItemObject *object)
{
  DynItemState state = dyn_item_object_get_state (object);

  clear_state_classes (GTK_WIDGET (mark));
  switch (state)
    {
    case DYN_ITEM_STATE_ADDED:
      gtk_label_set_label (mark, "+");
      gtk_widget_set_tooltip_text (GTK_WIDGET (mark), _("New item, not yet written"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-added");
      break;
    case DYN_ITEM_STATE_CHANGED:
      gtk_label_set_label (mark, "●");
      gtk_widget_set_tooltip_text (GTK_WIDGET (mark), _("Changed, not yet written"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-changed");
      break;
    case DYN_ITEM_STATE_DELETED:
      gtk_label_set_label (mark, "−");
      gtk_widget_set_tooltip_text (GTK_WIDGET (mark), _("Staged for deletion"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-deleted");
      break;
    case DYN_ITEM_STATE_UNCHANGED:
    default:
      gtk_label_set_label (mark, "");
      gtk_widget_set_tooltip_text (GTK_WIDGET (mark), NULL);
      break;
    }
  gtk_widget_set_visible (GTK_WIDGET (mark), state != DYN_ITEM_STATE_UNCHANGED);
}

/* The row's entity label, under the model's rule (which may change as
 * pages arrive: then only the bound rows are told). */
static void
update_entity (GtkLabel      *entity,
               DynItemObject *item)
{
  const char *type = dyn_item_object_get_entity_type (item);

  gtk_widget_set_visible (GTK_WIDGET (entity), type != NULL);
  gtk_label_set_label (entity, type ? type : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entity), type);
}

static void
entity_rule_cb (DynCollectionModel *model,
                GParamSpec         *pspec,
                GtkListItem        *list_item)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  DynItemObject *item = dyn_list_item_get_bound (list_item, "dyn-item");

  if (item != NULL)
    update_entity (g_object_get_data (G_OBJECT (box), "dyn-entity"), item);
}

static void
item_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              DynItemGrid              *self)
{
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *expander = g_object_get_data (G_OBJECT (box), "dyn-expander");
  GtkLabel *mark = g_object_get_data (G_OBJECT (box), "dyn-mark");
  GtkLabel *entity = g_object_get_data (G_OBJECT (box), "dyn-entity");
  GtkInscription *title = g_object_get_data (G_OBJECT (box), "dyn-title");
  GtkWidget *link = g_object_get_data (G_OBJECT (box), "dyn-link");
  GtkLabel *count = GTK_LABEL (gtk_widget_get_last_child (box));
  gpointer object = row_get_object (list_item);
  gboolean is_link;
  glong n_chars;

  gtk_widget_set_visible (GTK_WIDGET (mark), FALSE);
  gtk_widget_set_visible (expander, DYN_IS_COLLECTION (object));
  /* Items of a collection sit under its title, as a tree indents them. */
  gtk_widget_set_margin_start (box, self->shows_collections && !DYN_IS_COLLECTION (object) ? 30 : 0);
  if (DYN_IS_COLLECTION (object))
    {
      DynCollection *collection = object;
      const char *text = dyn_collection_get_title (collection);

      if (dyn_collection_get_partition_key_value (collection) == NULL)
        text = _("(no key)");
      gtk_widget_set_visible (GTK_WIDGET (entity), FALSE);
      update_expander (expander, dyn_row_model_get_expanded (self->rows, collection));
      gtk_widget_set_visible (GTK_WIDGET (link), TRUE);
      gtk_inscription_set_text (title, text);
      /* Characters of average width: room for a bold heading's wider ones. */
      n_chars = g_utf8_strlen (text, -1);
      gtk_inscription_set_nat_chars (title, MIN (n_chars + n_chars / 2 + 2, 90));
      is_link = self->model != NULL && dyn_collection_get_partition_key_value (collection) != NULL &&
                g_hash_table_contains (self->links, dyn_collection_model_get_partition_key (self->model));
      gtk_widget_set_can_target (GTK_WIDGET (link), is_link);
      gtk_widget_set_focusable (GTK_WIDGET (link), is_link);
      if (is_link)
        gtk_widget_add_css_class (GTK_WIDGET (link), "dyn-link");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (link), "dyn-link");
      g_object_set_data_full (G_OBJECT (link), "dyn-attribute",
                              self->model ? g_strdup (dyn_collection_model_get_partition_key (self->model)) : NULL,
                              g_free);
      /* A long key is cut in the middle; the tooltip has all of it. */
      if (g_utf8_strlen (text, -1) > TOOLTIP_MAX_CHARS)
        {
          g_autofree char *cut = g_utf8_substring (text, 0, TOOLTIP_MAX_CHARS);
          g_autofree char *tip = g_strconcat (cut, "…", NULL);

          gtk_widget_set_tooltip_text (GTK_WIDGET (title), tip);
        }
      else
        gtk_widget_set_tooltip_text (GTK_WIDGET (title), text);
      gtk_widget_add_css_class (GTK_WIDGET (title), "heading");
      gtk_widget_set_visible (GTK_WIDGET (count), TRUE);
      update_count (count, collection);
      /* The model drops a collection when its last item goes, before the
       * row is unbound: the binding keeps it until then. */
      dyn_list_item_bind_handler (list_item, "dyn-collection", collection,
                                  g_signal_connect_object (collection, "notify::n-items",
                                                           G_CALLBACK (collection_n_items_cb), count, 0));
      dyn_list_item_bind_handler (list_item, "dyn-more-pending", collection,
                                  g_signal_connect_object (collection, "notify::more-pending",
                                                           G_CALLBACK (collection_n_items_cb), count, 0));
    }
  else if (DYN_IS_ITEM_OBJECT (object))
    {
      DynItemObject *item = object;

      /* The keys have their own columns: the Item column shows what they do
       * not, the entity label and the staged state. */
      gtk_inscription_set_text (title, NULL);
      gtk_widget_set_tooltip_text (GTK_WIDGET (title), NULL);
      gtk_widget_set_visible (GTK_WIDGET (link), FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (title), "heading");
      gtk_widget_set_visible (GTK_WIDGET (count), FALSE);
      update_mark (mark, NULL, item);
      dyn_list_item_bind_handler (list_item, "dyn-item", item,
                                  g_signal_connect_object (item, "notify::state", G_CALLBACK (update_mark), mark,
                                                           G_CONNECT_SWAPPED));
      update_entity (entity, item);
      if (self->model != NULL)
        dyn_list_item_bind_handler (list_item, "dyn-entity-rule", self->model,
                                    g_signal_connect_object (self->model, "notify::entity-source",
                                                             G_CALLBACK (entity_rule_cb), list_item, 0));
    }
}

static void
item_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemGrid              *self)
{
  dyn_list_item_unbind_handler (list_item, "dyn-entity-rule");
  dyn_list_item_unbind_handler (list_item, "dyn-item");
  dyn_list_item_unbind_handler (list_item, "dyn-more-pending");
  dyn_list_item_unbind_handler (list_item, "dyn-collection");
}

/* Attribute columns. */

static void
link_clicked_cb (GtkButton   *button,
                 DynItemGrid *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "dyn-attribute");
  DynValue *value = g_object_get_data (G_OBJECT (button), "dyn-value");
  DynValue *item = g_object_get_data (G_OBJECT (button), "dyn-item");
  gboolean handled = FALSE;

  if (name == NULL || value == NULL)
    return;
  if (item != NULL)
    g_signal_emit (self, signals[FOLLOW_ITEM], 0, name, item, &handled);
  if (!handled)
    g_signal_emit (self, signals[FOLLOW_KEY], 0, name, value);
}

/* The inscription of a cell (inside the link button for link cells). */
static GtkWidget *
cell_label (GtkWidget *child)
{
  return GTK_IS_BUTTON (child) ? gtk_button_get_child (GTK_BUTTON (child)) : child;
}

static DynItemObject *
cell_row (GtkListItem *list_item)
{
  return dyn_list_item_get_bound (list_item, "dyn-row");
}

static const char *
cell_attribute (GtkListItem *list_item)
{
  return g_object_get_data (G_OBJECT (list_item), "dyn-attribute");
}

/* Marks a bound cell: the row's state, and whether this attribute differs
 * from what was loaded. */
static void
update_cell_state (DynItemGrid *self,
                   GtkListItem *list_item)
{
  GtkWidget *child = self->edit_item == list_item ? self->edit_child : gtk_list_item_get_child (list_item);
  DynItemObject *object = cell_row (list_item);
  DynItemState state;

  if (child == NULL)
    return;
  clear_state_classes (child);
  if (object == NULL)
    return;
  state = dyn_item_object_get_state (object);
  if (state == DYN_ITEM_STATE_ADDED)
    gtk_widget_add_css_class (child, "dyn-added");
  else if (state == DYN_ITEM_STATE_DELETED)
    gtk_widget_add_css_class (child, "dyn-deleted");
  else if (state == DYN_ITEM_STATE_CHANGED && self->session != NULL &&
           dyn_edit_session_is_attribute_changed (self->session, object, cell_attribute (list_item)))
    gtk_widget_add_css_class (child, "dyn-cell-changed");
}

static void
row_state_cb (DynItemObject *object,
              GParamSpec    *pspec,
              GtkListItem   *list_item)
{
  DynItemGrid *self = g_object_get_data (G_OBJECT (list_item), "dyn-grid");

  if (self != NULL)
    update_cell_state (self, list_item);
}

static void
session_changed_cb (DynEditSession *session,
                    DynItemGrid    *self)
{
  GHashTableIter iter;
  gpointer list_item;

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    update_cell_state (self, list_item);
}

static gboolean
is_scalar (DynValue *value)
{
  switch (value ? dyn_value_get_value_type (value) : DYN_VALUE_S)
    {
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return FALSE;
    default:
      return TRUE;
    }
}

static void
emit_failed (DynItemGrid *self,
             GError      *error)
{
  g_signal_emit (self, signals[EDIT_FAILED], 0, error);
}

/* Puts the usual child back; with @commit stages the entry's text. */
static void
finish_editing (DynItemGrid *self,
                gboolean     commit)
{
  g_autoptr(GtkListItem) list_item = g_steal_pointer (&self->edit_item);
  g_autoptr(GtkWidget) child = g_steal_pointer (&self->edit_child);
  g_autoptr(GtkWidget) entry = g_steal_pointer (&self->edit_entry);
  g_autofree char *text = NULL;
  g_autofree char *attribute = NULL;
  g_autoptr(DynItemObject) object = NULL;
  const char *before;

  g_clear_handle_id (&self->finish_id, g_source_remove);
  if (list_item == NULL)
    return;
  text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry)));
  before = g_object_get_data (G_OBJECT (entry), "dyn-before");
  commit = commit && g_strcmp0 (text, before) != 0;
  object = cell_row (list_item) ? g_object_ref (cell_row (list_item)) : NULL;
  attribute = g_strdup (cell_attribute (list_item));
  /* The entry leaves the tree: the focus goes back to the rows first. */
  dyn_widget_release_focus (entry, GTK_WIDGET (self->column_view));
  if (gtk_list_item_get_child (list_item) == entry)
    gtk_list_item_set_child (list_item, child);

  /* Staging replaces the row: the cell is bound again afterwards. */
  if (commit && object != NULL && self->session != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!dyn_edit_session_stage_cell_text (self->session, object, attribute, text, &error))
        emit_failed (self, error);
    }
}

static void
entry_activate_cb (GtkEntry    *entry,
                   DynItemGrid *self)
{
  if (self->edit_entry == GTK_WIDGET (entry))
    finish_editing (self, TRUE);
}

static gboolean
entry_key_pressed_cb (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      DynItemGrid           *self)
{
  if (keyval != GDK_KEY_Escape)
    return FALSE;
  finish_editing (self, FALSE);
  return TRUE;
}

static gboolean
finish_later_cb (gpointer user_data)
{
  DynItemGrid *self = user_data;

  self->finish_id = 0;
  if (self->edit_entry != NULL && !gtk_widget_has_focus (GTK_WIDGET (gtk_editable_get_delegate (GTK_EDITABLE (self->edit_entry)))))
    finish_editing (self, TRUE);
  return G_SOURCE_REMOVE;
}

/* The focus left the entry (a click elsewhere): the text is staged. Not
 * from inside the focus change: GTK is still walking the widgets that lose
 * the focus, the entry among them. */
static void
entry_leave_cb (GtkEventControllerFocus *controller,
                DynItemGrid             *self)
{
  if (self->edit_entry == gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)) && self->finish_id == 0)
    self->finish_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, finish_later_cb, g_object_ref (self), g_object_unref);
}

static gboolean
start_editing (DynItemGrid *self,
               GtkListItem *list_item)
{
  DynItemObject *object = cell_row (list_item);
  const char *attribute = cell_attribute (list_item);
  DynValue *value;
  GtkWidget *entry;
  GtkEventController *controller;
  g_autofree char *text = NULL;

  if (self->session == NULL || object == NULL || attribute == NULL)
    return FALSE;
  finish_editing (self, TRUE);
  /* Staging the previous cell may have replaced this row. */
  object = cell_row (list_item);
  if (object == NULL)
    return FALSE;
  if (dyn_edit_session_get_read_only (self->session))
    {
      g_autoptr(GError) error = g_error_new_literal (DYN_ERROR, DYN_ERROR_READ_ONLY,
                                                     _("This connection is read-only: nothing can be changed or written"));
      emit_failed (self, error);
      return FALSE;
    }
  if (dyn_item_object_get_state (object) == DYN_ITEM_STATE_DELETED)
    return FALSE;
  value = dyn_value_map_lookup (dyn_item_object_get_item (object), attribute);
  if (!is_scalar (value))
    {
      /* Maps, lists and sets: the whole item in the JSON editor. */
      g_signal_emit (self, signals[EDIT_ITEM], 0, object);
      return FALSE;
    }

  text = value ? dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, G_MAXINT) : g_strdup ("");
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 4);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_widget_add_css_class (entry, "dyn-cell-entry");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, attribute, -1);
  g_object_set_data_full (G_OBJECT (entry), "dyn-before", g_steal_pointer (&text), g_free);
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
  gtk_list_item_set_child (list_item, entry);
  gtk_widget_grab_focus (entry);
  return TRUE;
}

static void
cell_pressed_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkListItem     *list_item)
{
  DynItemGrid *self = g_object_get_data (G_OBJECT (list_item), "dyn-grid");

  if (n_press != 2 || self == NULL || self->session == NULL)
    return;
  /* The second click edits the cell instead of activating the row. */
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  start_editing (self, list_item);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               DynItemGrid              *self)
{
  const char *name = g_object_get_data (G_OBJECT (factory), "dyn-attribute");
  /* GtkInscription: a cell that does not measure its text, much cheaper
   * than a label when thousands of rows scroll by. */
  GtkWidget *cell = gtk_inscription_new (NULL);

  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (cell), 12);
  gtk_widget_set_hexpand (cell, TRUE);
  g_object_set_data_full (G_OBJECT (list_item), "dyn-attribute", g_strdup (name), g_free);
  if (g_hash_table_contains (self->links, name))
    {
      GtkWidget *button = gtk_button_new ();

      gtk_button_set_child (GTK_BUTTON (button), cell);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_add_css_class (button, "dyn-link");
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_set_tooltip_text (button, _("Query the index with this key"));
      g_signal_connect (button, "clicked", G_CALLBACK (link_clicked_cb), self);
      gtk_list_item_set_child (list_item, button);
    }
  else
    {
      GtkGesture *gesture = gtk_gesture_click_new ();

      gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
      g_signal_connect (gesture, "pressed", G_CALLBACK (cell_pressed_cb), list_item);
      gtk_widget_add_controller (cell, GTK_EVENT_CONTROLLER (gesture));
      gtk_list_item_set_child (list_item, cell);
    }
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              DynItemGrid              *self)
{
  const char *name = g_object_get_data (G_OBJECT (factory), "dyn-attribute");
  GtkWidget *child = gtk_list_item_get_child (list_item);
  GtkInscription *label = GTK_INSCRIPTION (cell_label (child));
  gpointer object = row_get_object (list_item);
  DynValue *value = NULL;
  DynValueDisplay kind = DYN_VALUE_DISPLAY_TEXT;
  g_autofree char *text = NULL;

  if (DYN_IS_ITEM_OBJECT (object))
    value = dyn_value_map_lookup (dyn_item_object_get_item (object), name);
  if (value != NULL)
    text = dyn_value_format_display (value, CELL_MAX_CHARS, &kind);
  gtk_inscription_set_text (label, text);
  if (value != NULL && kind == DYN_VALUE_DISPLAY_NUMBER)
    gtk_widget_add_css_class (GTK_WIDGET (label), "numeric");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "numeric");
  if (value != NULL && kind == DYN_VALUE_DISPLAY_SUMMARY)
    gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
  if (value != NULL && kind == DYN_VALUE_DISPLAY_BINARY)
    gtk_widget_add_css_class (GTK_WIDGET (label), "dyn-binary");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "dyn-binary");
  if (value != NULL && kind == DYN_VALUE_DISPLAY_EMPTY)
    gtk_widget_add_css_class (GTK_WIDGET (label), "dyn-empty");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "dyn-empty");

  if (GTK_IS_BUTTON (child))
    {
      gtk_widget_set_visible (child, value != NULL);
      g_object_set_data_full (G_OBJECT (child), "dyn-attribute", g_strdup (name), g_free);
      g_object_set_data_full (G_OBJECT (child), "dyn-value",
                              value ? dyn_value_ref (value) : NULL, (GDestroyNotify) dyn_value_unref);
      /* A multi-attribute key follows with the row's other key values. */
      g_object_set_data_full (G_OBJECT (child), "dyn-item",
                              value ? dyn_value_ref (dyn_item_object_get_item (object)) : NULL,
                              (GDestroyNotify) dyn_value_unref);
    }

  if (DYN_IS_ITEM_OBJECT (object))
    {
      g_object_set_data (G_OBJECT (list_item), "dyn-grid", self);
      dyn_list_item_bind_handler (list_item, "dyn-row", object,
                                  g_signal_connect_object (object, "notify::state", G_CALLBACK (row_state_cb),
                                                           list_item, 0));
      g_hash_table_add (self->bound, list_item);
    }
  update_cell_state (self, list_item);
}

static void
cell_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynItemGrid              *self)
{
  GtkWidget *child;

  if (self->edit_item == list_item)
    finish_editing (self, FALSE);
  child = gtk_list_item_get_child (list_item);
  if (GTK_IS_BUTTON (child))
    {
      g_object_set_data (G_OBJECT (child), "dyn-value", NULL);
      g_object_set_data (G_OBJECT (child), "dyn-item", NULL);
    }
  g_hash_table_remove (self->bound, list_item);
  g_object_set_data (G_OBJECT (list_item), "dyn-grid", NULL);
  dyn_list_item_unbind_handler (list_item, "dyn-row");
}

static GMenuModel *
column_menu (const char *name)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenuItem) hide = g_menu_item_new (_("_Hide Column"), NULL);

  g_menu_item_set_action_and_target_value (hide, "grid.hide-column", g_variant_new_string (name));
  g_menu_append_item (menu, hide);
  g_menu_append (menu, _("_Show All Columns"), "grid.show-all-columns");
  return G_MENU_MODEL (menu);
}

static void
add_column (DynItemGrid *self,
            const char  *name)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column;
  g_autoptr(GMenuModel) menu = column_menu (name);

  g_object_set_data_full (G_OBJECT (factory), "dyn-attribute", g_strdup (name), g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), self);
  column = gtk_column_view_column_new (name, factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, 170);
  gtk_column_view_column_set_header_menu (column, menu);
  gtk_column_view_append_column (self->column_view, column);
  g_hash_table_insert (self->columns, g_strdup (name), column);
  g_ptr_array_add (self->column_order, g_strdup (name));
  g_object_unref (column);
}

/* Rows (or cells) are about to be destroyed: the focus leaves them first
 * and comes back to the view once it shows what replaced them. */
static void
hold_focus (DynItemGrid *self)
{
  if (dyn_widget_release_focus (GTK_WIDGET (self->column_view), NULL))
    self->refocus = TRUE;
}

static void
restore_focus (DynItemGrid *self)
{
  if (!self->refocus)
    return;
  self->refocus = FALSE;
  if (gtk_widget_get_mapped (GTK_WIDGET (self->column_view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

static void
remove_columns (DynItemGrid *self)
{
  GHashTableIter iter;
  gpointer column;

  finish_editing (self, FALSE);
  hold_focus (self);
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, NULL, &column))
    gtk_column_view_remove_column (self->column_view, column);
  g_hash_table_remove_all (self->columns);
  g_hash_table_remove_all (self->bound);
  g_ptr_array_set_size (self->column_order, 0);
  restore_focus (self);
}

static void
sync_columns (DynItemGrid *self)
{
  const char * const *names;
  guint n = 0;

  if (self->model == NULL)
    return;
  names = dyn_collection_model_get_attributes (self->model, &n);
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (self->columns, names[i]))
      add_column (self, names[i]);
}

static void
attributes_changed_cb (DynCollectionModel *model,
                       guint               position,
                       guint               removed,
                       guint               added,
                       DynItemGrid        *self)
{
  if (removed > 0 && added == 0 && dyn_collection_model_get_attributes (model, NULL)[0] == NULL)
    remove_columns (self);
  sync_columns (self);
  hide_redundant_columns (self, FALSE);
}

static DynItemObject *
row_item (gpointer row)
{
  return DYN_IS_ITEM_OBJECT (row) ? DYN_ITEM_OBJECT (row) : NULL;
}

static void
selection_changed_cb (GtkSelectionModel *selection,
                      guint              position,
                      guint              n_items,
                      DynItemGrid       *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (selection);
  DynItemObject *item = NULL;

  /* The detail shows the first selected item. */
  if (!gtk_bitset_is_empty (selected))
    item = row_item (dyn_row_model_peek_row (self->rows, gtk_bitset_get_minimum (selected)));

  if (g_set_object (&self->selected, item))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
}

/* A staged edit replaces the row's object in place: the selection keeps
 * its position, so the selected item is read again. */
static void
rows_items_changed_cb (GListModel  *rows,
                       guint        position,
                       guint        removed,
                       guint        added,
                       DynItemGrid *self)
{
  /* Runs before the selection and the view see the change. Rows of
   * removed items are destroyed: not with the focus in them. */
  if (removed > 0)
    hold_focus (self);
  /* Note which replaced rows were selected. */
  if (self->selection == NULL || removed != added)
    return;
  for (guint i = position; i < position + removed; i++)
    if (gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), i))
      gtk_bitset_add (self->reselect, i);
}

static void
selection_items_changed_cb (GListModel  *selection,
                            guint        position,
                            guint        removed,
                            guint        added,
                            DynItemGrid *self)
{
  if (!gtk_bitset_is_empty (self->reselect))
    {
      g_autoptr(GtkBitset) rows = gtk_bitset_copy (self->reselect);
      GtkBitsetIter iter;
      guint row;

      gtk_bitset_remove_all (self->reselect);
      for (gboolean ok = gtk_bitset_iter_init_first (&iter, rows, &row); ok; ok = gtk_bitset_iter_next (&iter, &row))
        gtk_selection_model_select_item (GTK_SELECTION_MODEL (selection), row, FALSE);
    }
  selection_changed_cb (GTK_SELECTION_MODEL (selection), position, added, self);
}

/* After the view has its new rows. */
static void
selection_items_changed_after_cb (GListModel  *selection,
                                  guint        position,
                                  guint        removed,
                                  guint        added,
                                  DynItemGrid *self)
{
  restore_focus (self);
}

/* A collection's header row: activating it (Enter, double-click) folds or
 * unfolds it; + and - (or Right and Left) unfold and fold, * every one. */
static void
view_activate_cb (GtkColumnView *view,
                  guint          position,
                  DynItemGrid   *self)
{
  gpointer row = dyn_row_model_peek_row (self->rows, position);

  if (DYN_IS_COLLECTION (row))
    toggle_collection (self, row);
}

static DynCollection *
selected_collection (DynItemGrid *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  gpointer row;

  if (gtk_bitset_get_size (selected) != 1)
    return NULL;
  row = dyn_row_model_peek_row (self->rows, gtk_bitset_get_minimum (selected));
  return DYN_IS_COLLECTION (row) ? row : NULL;
}

static gboolean
view_key_pressed_cb (GtkEventControllerKey *controller,
                     guint                  keyval,
                     guint                  keycode,
                     GdkModifierType        state,
                     DynItemGrid           *self)
{
  DynCollection *collection;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0 || self->edit_entry != NULL)
    return GDK_EVENT_PROPAGATE;
  if (keyval == GDK_KEY_asterisk || keyval == GDK_KEY_KP_Multiply)
    {
      dyn_row_model_set_all_expanded (self->rows, TRUE);
      return GDK_EVENT_STOP;
    }
  collection = selected_collection (self);
  if (collection == NULL)
    return GDK_EVENT_PROPAGATE;
  switch (keyval)
    {
    case GDK_KEY_plus: case GDK_KEY_KP_Add: case GDK_KEY_Right:
      dyn_row_model_set_expanded (self->rows, collection, TRUE);
      return GDK_EVENT_STOP;
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract: case GDK_KEY_Left:
      dyn_row_model_set_expanded (self->rows, collection, FALSE);
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* Each fact once: grouped, the header row of a collection shows its
 * partition key, so the partition-key columns are hidden; a discriminator
 * attribute that labels the rows (EntityType …) is hidden as well. The
 * grid shows again what it hid when that no longer holds (flat, another
 * rule); a column the user showed stays shown until the next change of
 * mode. With @again the rule changed, else columns were added. */
static void
hide_redundant_columns (DynItemGrid *self,
                        gboolean     again)
{
  g_autoptr(GPtrArray) redundant = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer name, column;

  if (self->model != NULL && self->shows_collections)
    for (const char * const *k = dyn_collection_model_get_partition_keys (self->model); *k != NULL; k++)
      g_ptr_array_add (redundant, (gpointer) *k);
  if (self->model != NULL && dyn_collection_model_get_entity_source (self->model) == DYN_ENTITY_SOURCE_ATTRIBUTE)
    g_ptr_array_add (redundant, (gpointer) dyn_collection_model_get_entity_attribute (self->model));

  g_hash_table_iter_init (&iter, self->auto_hidden);
  while (g_hash_table_iter_next (&iter, &name, &column))
    {
      gboolean still = FALSE;

      /* Gone with its model (a new one has the same name). */
      if (g_hash_table_lookup (self->columns, name) != column)
        {
          g_hash_table_iter_remove (&iter);
          continue;
        }
      for (guint i = 0; i < redundant->len && !still; i++)
        still = strcmp (redundant->pdata[i], name) == 0;
      if (again && !still)
        {
          gtk_column_view_column_set_visible (column, TRUE);
          g_hash_table_iter_remove (&iter);
        }
    }
  for (guint i = 0; i < redundant->len; i++)
    {
      GtkColumnViewColumn *col = g_hash_table_lookup (self->columns, redundant->pdata[i]);

      if (col == NULL || (!again && g_hash_table_lookup (self->auto_hidden, redundant->pdata[i]) == col))
        continue;
      gtk_column_view_column_set_visible (col, FALSE);
      g_hash_table_insert (self->auto_hidden, g_strdup (redundant->pdata[i]), col);
    }
}

static void
rebuild (DynItemGrid *self)
{
  gboolean grouped;

  finish_editing (self, FALSE);
  hold_focus (self);
  gtk_column_view_set_model (self->column_view, NULL);
  if (self->selection != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
      g_signal_handlers_disconnect_by_func (self->selection, selection_items_changed_cb, self);
      g_signal_handlers_disconnect_by_func (self->selection, selection_items_changed_after_cb, self);
    }
  g_clear_object (&self->selection);
  if (self->rows != NULL)
    g_signal_handlers_disconnect_by_func (self->rows, rows_items_changed_cb, self);
  g_clear_object (&self->rows);
  if (g_set_object (&self->selected, NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);

  /* A table without a sort key has no item collections: a plain list,
   * even when grouping is on (a hash-only index gets its groups once a key
   * holds two items). */
  grouped = self->grouped && (self->model == NULL || dyn_collection_model_has_collections (self->model));
  if (grouped != self->shows_collections || self->model == NULL)
    gtk_column_view_column_set_fixed_width (self->item_column,
                                            grouped ? ITEM_COLUMN_GROUPED_WIDTH : ITEM_COLUMN_FLAT_WIDTH);
  if (grouped != self->shows_collections)
    {
      self->shows_collections = grouped;
      hide_redundant_columns (self, TRUE);
    }
  self->rows = dyn_row_model_new (self->model, grouped);
  g_signal_connect (self->rows, "items-changed", G_CALLBACK (rows_items_changed_cb), self);
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->rows)));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->selection, "items-changed", G_CALLBACK (selection_items_changed_cb), self);
  g_signal_connect_after (self->selection, "items-changed", G_CALLBACK (selection_items_changed_after_cb), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  restore_focus (self);
}

/* The entity rule changed: a discriminator column may now be redundant. */
static void
entity_source_cb (DynItemGrid *self)
{
  hide_redundant_columns (self, TRUE);
}

/* A hash-only index got its first key with two items: groups from now on. */
static void
has_collections_cb (DynItemGrid *self)
{
  if (self->grouped && dyn_collection_model_has_collections (self->model) != self->shows_collections)
    rebuild (self);
}

static void
vadjustment_changed_cb (GtkAdjustment *adjustment,
                        DynItemGrid   *self)
{
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);
  double upper = gtk_adjustment_get_upper (adjustment);

  /* Only once the user scrolled: rows that do not fill the view are no reason
   * to read (and pay for) another page unasked; Load More is there. */
  if (page > 0 && value > 0 && upper - (value + page) < 2 * page)
    g_signal_emit (self, signals[NEAR_END], 0);
}

static void
hide_column_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  dyn_item_grid_set_column_visible (DYN_ITEM_GRID (widget), g_variant_get_string (parameter, NULL), FALSE);
}

static void
show_all_columns_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  GHashTableIter iter;
  gpointer column;

  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, NULL, &column))
    gtk_column_view_column_set_visible (column, TRUE);
}

static void
edit_cell_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);

  if (self->selected != NULL)
    dyn_item_grid_edit_cell (self, self->selected, g_variant_get_string (parameter, NULL));
}

static void
dyn_item_grid_dispose (GObject *object)
{
  DynItemGrid *self = DYN_ITEM_GRID (object);

  finish_editing (self, FALSE);
  dyn_item_grid_set_edit_session (self, NULL);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  if (self->selection != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
      g_signal_handlers_disconnect_by_func (self->selection, selection_items_changed_cb, self);
      g_signal_handlers_disconnect_by_func (self->selection, selection_items_changed_after_cb, self);
    }
  g_clear_object (&self->selection);
  if (self->rows != NULL)
    g_signal_handlers_disconnect_by_func (self->rows, rows_items_changed_cb, self);
  g_clear_object (&self->rows);
  if (self->model != NULL)
    {
      g_clear_signal_handler (&self->attributes_handler, self->model);
      g_clear_signal_handler (&self->has_collections_handler, self->model);
      g_clear_signal_handler (&self->entity_source_handler, self->model);
    }
  g_clear_object (&self->model);
  g_clear_object (&self->selected);
  /* The template's top widget is the AdwBin child: let AdwBin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_ITEM_GRID);

  G_OBJECT_CLASS (dyn_item_grid_parent_class)->dispose (object);
}

static void
dyn_item_grid_finalize (GObject *object)
{
  DynItemGrid *self = DYN_ITEM_GRID (object);

  g_hash_table_unref (self->columns);
  g_hash_table_unref (self->links);
  g_hash_table_unref (self->bound);
  gtk_bitset_unref (self->reselect);
  g_ptr_array_unref (self->column_order);
  g_hash_table_unref (self->auto_hidden);

  G_OBJECT_CLASS (dyn_item_grid_parent_class)->finalize (object);
}

static void
dyn_item_grid_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  DynItemGrid *self = DYN_ITEM_GRID (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_GROUPED:
      g_value_set_boolean (value, self->grouped);
      break;
    case PROP_SELECTED_ITEM:
      g_value_set_object (value, self->selected);
      break;
    case PROP_EDIT_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_grid_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  DynItemGrid *self = DYN_ITEM_GRID (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      dyn_item_grid_set_model (self, g_value_get_object (value));
      break;
    case PROP_GROUPED:
      dyn_item_grid_set_grouped (self, g_value_get_boolean (value));
      break;
    case PROP_EDIT_SESSION:
      dyn_item_grid_set_edit_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_grid_class_init (DynItemGridClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_item_grid_dispose;
  object_class->finalize = dyn_item_grid_finalize;
  object_class->get_property = dyn_item_grid_get_property;
  object_class->set_property = dyn_item_grid_set_property;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, DYN_TYPE_COLLECTION_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPED] =
    g_param_spec_boolean ("grouped", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_ITEM] =
    g_param_spec_object ("selected-item", NULL, NULL, DYN_TYPE_ITEM_OBJECT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDIT_SESSION] =
    g_param_spec_object ("edit-session", NULL, NULL, DYN_TYPE_EDIT_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * DynItemGrid::follow-key:
   * @name: the attribute
   * @value: its value in the clicked row
   *
   * A link cell (a partition key of the table or an index) was clicked and
   * no follow-item handler took it.
   */
  signals[FOLLOW_KEY] =
    g_signal_new ("follow-key", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, DYN_TYPE_VALUE);
  /**
   * DynItemGrid::follow-item:
   * @name: the attribute
   * @item: the clicked row's item (a map)
   *
   * A link cell was clicked, with the whole item: a multi-attribute key takes
   * its other attributes' values from it. Emitted before follow-key, which
   * is not emitted when a handler returns TRUE.
   *
   * Returns: TRUE when handled
   */
  signals[FOLLOW_ITEM] =
    g_signal_new ("follow-item", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  g_signal_accumulator_true_handled, NULL, NULL,
                  G_TYPE_BOOLEAN, 2, G_TYPE_STRING, DYN_TYPE_VALUE);
  /* The user scrolled close to the last row. */
  signals[NEAR_END] =
    g_signal_new ("near-end", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * DynItemGrid::edit-failed:
   * @error: why (translated)
   *
   * An in-place edit was refused: the text does not fit the attribute's
   * type, or the connection is read-only.
   */
  signals[EDIT_FAILED] =
    g_signal_new ("edit-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_ERROR);
  /* A cell holding a map, list or set was opened: the host edits the whole
   * item. */
  signals[EDIT_ITEM] =
    g_signal_new ("edit-item", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_ITEM_OBJECT);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-item-grid.ui");
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, scrolled);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, column_view);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, item_column);

  gtk_widget_class_install_action (widget_class, "grid.hide-column", "s", hide_column_action);
  gtk_widget_class_install_action (widget_class, "grid.show-all-columns", NULL, show_all_columns_action);
  gtk_widget_class_install_action (widget_class, "grid.edit-cell", "s", edit_cell_action);
}

static void
dyn_item_grid_init (DynItemGrid *self)
{
  GtkListItemFactory *factory;

  self->grouped = TRUE;
  self->columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->bound = g_hash_table_new (NULL, NULL);
  self->reselect = gtk_bitset_new_empty ();
  self->column_order = g_ptr_array_new_with_free_func (g_free);
  self->auto_hidden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (item_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (item_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (item_unbind_cb), self);
  gtk_column_view_column_set_factory (self->item_column, factory);
  g_object_unref (factory);

  g_signal_connect (gtk_scrolled_window_get_vadjustment (self->scrolled), "value-changed",
                    G_CALLBACK (vadjustment_changed_cb), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (view_activate_cb), self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (view_key_pressed_cb), self);
    gtk_widget_add_controller (GTK_WIDGET (self->column_view), keys);
  }
  rebuild (self);
}

GtkWidget *
dyn_item_grid_new (void)
{
  return g_object_new (DYN_TYPE_ITEM_GRID, NULL);
}

DynCollectionModel *
dyn_item_grid_get_model (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->model;
}

void
dyn_item_grid_set_model (DynItemGrid        *self,
                         DynCollectionModel *model)
{
  GtkRoot *root;
  GtkWidget *focus;
  gboolean had_focus;

  g_return_if_fail (DYN_IS_ITEM_GRID (self));
  g_return_if_fail (model == NULL || DYN_IS_COLLECTION_MODEL (model));

  if (self->model == model)
    return;
  /* The focused cell goes with its row and column: GTK 4.8 keeps a pointer
   * to it otherwise. The grid takes the focus back afterwards. */
  root = gtk_widget_get_root (GTK_WIDGET (self));
  focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  had_focus = focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view));
  if (had_focus)
    gtk_root_set_focus (root, NULL);
  if (self->model != NULL)
    {
      g_clear_signal_handler (&self->attributes_handler, self->model);
      g_clear_signal_handler (&self->has_collections_handler, self->model);
      g_clear_signal_handler (&self->entity_source_handler, self->model);
    }
  g_set_object (&self->model, model);
  remove_columns (self);
  if (model != NULL)
    {
      self->attributes_handler = g_signal_connect (model, "attributes-changed",
                                                   G_CALLBACK (attributes_changed_cb), self);
      self->has_collections_handler = g_signal_connect_swapped (model, "notify::has-collections",
                                                                G_CALLBACK (has_collections_cb), self);
      self->entity_source_handler = g_signal_connect_swapped (model, "notify::entity-source",
                                                              G_CALLBACK (entity_source_cb), self);
    }
  rebuild (self);
  sync_columns (self);
  hide_redundant_columns (self, TRUE);
  if (had_focus)
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

gboolean
dyn_item_grid_get_grouped (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  return self->grouped;
}

void
dyn_item_grid_set_grouped (DynItemGrid *self,
                           gboolean     grouped)
{
  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  grouped = !!grouped;
  if (self->grouped == grouped)
    return;
  self->grouped = grouped;
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROUPED]);
}

gboolean
dyn_item_grid_get_shows_collections (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  return self->shows_collections;
}

void
dyn_item_grid_set_link_attributes (DynItemGrid        *self,
                                   const char * const *names)
{
  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  g_hash_table_remove_all (self->links);
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_hash_table_add (self->links, g_strdup (names[i]));
  /* The factories decide between label and link at setup: start over. */
  remove_columns (self);
  sync_columns (self);
  hide_redundant_columns (self, TRUE);
}

GListModel *
dyn_item_grid_get_rows (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return G_LIST_MODEL (self->rows);
}

GtkColumnView *
dyn_item_grid_get_column_view (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->column_view;
}

GStrv
dyn_item_grid_dup_column_names (DynItemGrid *self)
{
  GListModel *columns;
  GStrvBuilder *builder;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  builder = g_strv_builder_new ();
  columns = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (column != self->item_column)
        g_strv_builder_add (builder, gtk_column_view_column_get_title (column));
    }
  {
    GStrv result = g_strv_builder_end (builder);
    g_strv_builder_unref (builder);
    return result;
  }
}

void
dyn_item_grid_set_column_visible (DynItemGrid *self,
                                  const char  *name,
                                  gboolean     visible)
{
  GtkColumnViewColumn *column;

  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  column = g_hash_table_lookup (self->columns, name);
  if (column != NULL)
    gtk_column_view_column_set_visible (column, visible);
}

gboolean
dyn_item_grid_get_column_visible (DynItemGrid *self,
                                  const char  *name)
{
  GtkColumnViewColumn *column;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  column = g_hash_table_lookup (self->columns, name);
  return column != NULL && gtk_column_view_column_get_visible (column);
}

DynItemObject *
dyn_item_grid_get_selected_item (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->selected;
}

void
dyn_item_grid_select_row (DynItemGrid *self,
                          guint        position)
{
  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  if (position == GTK_INVALID_LIST_POSITION)
    gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->selection));
  else
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
}

void
dyn_item_grid_select_item (DynItemGrid   *self,
                           DynItemObject *object,
                           gboolean       unselect_rest)
{
  guint position;

  g_return_if_fail (DYN_IS_ITEM_GRID (self));
  g_return_if_fail (DYN_IS_ITEM_OBJECT (object));

  position = dyn_row_model_find_item (self->rows, object);
  if (position != G_MAXUINT)
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, unselect_rest);
}

GPtrArray *
dyn_item_grid_dup_selected_items (DynItemGrid *self)
{
  g_autoptr(GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  GPtrArray *items;
  guint position;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  items = g_ptr_array_new_with_free_func (g_object_unref);
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position); ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      DynItemObject *item = row_item (dyn_row_model_peek_row (self->rows, position));

      if (item != NULL)
        g_ptr_array_add (items, g_object_ref (item));
    }
  return items;
}

DynEditSession *
dyn_item_grid_get_edit_session (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->session;
}

void
dyn_item_grid_set_edit_session (DynItemGrid    *self,
                                DynEditSession *session)
{
  g_return_if_fail (DYN_IS_ITEM_GRID (self));
  g_return_if_fail (session == NULL || DYN_IS_EDIT_SESSION (session));

  if (self->session == session)
    return;
  finish_editing (self, FALSE);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_func (self->session, session_changed_cb, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    g_signal_connect (session, "changed", G_CALLBACK (session_changed_cb), self);
  session_changed_cb (session, self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDIT_SESSION]);
}

gboolean
dyn_item_grid_edit_cell (DynItemGrid   *self,
                         DynItemObject *object,
                         const char    *attribute)
{
  GHashTableIter iter;
  gpointer list_item;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), FALSE);
  g_return_val_if_fail (attribute != NULL, FALSE);

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    if (cell_row (list_item) == object && g_strcmp0 (cell_attribute (list_item), attribute) == 0)
      return start_editing (self, list_item);
  return FALSE;
}

GtkEditable *
dyn_item_grid_get_cell_editor (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->edit_entry ? GTK_EDITABLE (self->edit_entry) : NULL;
}

gboolean
dyn_item_grid_get_cell_changed (DynItemGrid   *self,
                                DynItemObject *object,
                                const char    *attribute)
{
  GHashTableIter iter;
  gpointer list_item;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    if (cell_row (list_item) == object && g_strcmp0 (cell_attribute (list_item), attribute) == 0)
      {
        GtkWidget *child = self->edit_item == list_item ? self->edit_child : gtk_list_item_get_child (list_item);

        return gtk_widget_has_css_class (child, "dyn-cell-changed");
      }
  return FALSE;
}

char *
dyn_item_grid_dup_cell_text (DynItemGrid   *self,
                             DynItemObject *object,
                             const char    *attribute)
{
  GHashTableIter iter;
  gpointer list_item;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    if (cell_row (list_item) == object && g_strcmp0 (cell_attribute (list_item), attribute) == 0)
      {
        GtkWidget *child = self->edit_item == list_item ? self->edit_child : gtk_list_item_get_child (list_item);
        const char *text = gtk_inscription_get_text (GTK_INSCRIPTION (cell_label (child)));

        return g_strdup (text ? text : "");
      }
  return NULL;
}

GPtrArray *
dyn_item_grid_dup_shown_items (DynItemGrid *self)
{
  GPtrArray *items;
  GHashTableIter iter;
  gpointer list_item;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  items = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_iter_init (&iter, self->bound);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    {
      DynItemObject *object = cell_row (list_item);

      if (object != NULL && !g_ptr_array_find (items, object, NULL))
        g_ptr_array_add (items, g_object_ref (object));
    }
  return items;
}

GtkAdjustment *
dyn_item_grid_get_vadjustment (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return gtk_scrolled_window_get_vadjustment (self->scrolled);
}

/* The row context menu: dyn_item_grid_set_row_menu() and its handlers. */

/* The list item of the item row @widget is in (any of its cells), found
 * among the bound cells; NULL for collection rows. */
static GtkListItem *
row_menu_list_item (DynItemGrid *self,
                    GtkWidget   *widget)
{
  for (GtkWidget *w = widget; w != NULL && !GTK_IS_LIST_VIEW (w) && w != GTK_WIDGET (self->column_view);
       w = gtk_widget_get_parent (w))
    {
      GHashTableIter iter;
      gpointer list_item;

      g_hash_table_iter_init (&iter, self->bound);
      while (g_hash_table_iter_next (&iter, &list_item, NULL))
        {
          GtkWidget *child = gtk_list_item_get_child (list_item);

          if (child != NULL && (child == w || gtk_widget_is_ancestor (child, w)))
            return list_item;
        }
    }
  return NULL;
}

/* A right click selects the row under the pointer (unless it is selected
 * already, maybe with others) and opens the menu there. */
static void
row_menu_pressed_cb (GtkGestureClick *gesture,
                     int              n_press,
                     double           x,
                     double           y,
                     DynItemGrid     *self)
{
  GtkWidget *view = GTK_WIDGET (self->column_view);
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  GtkWidget *rows = picked ? gtk_widget_get_ancestor (picked, GTK_TYPE_LIST_VIEW) : NULL;
  GtkListItem *list_item = picked ? row_menu_list_item (self, picked) : NULL;
  GtkSelectionModel *selection = GTK_SELECTION_MODEL (self->selection);
  GtkPopover *popover = g_object_get_data (G_OBJECT (self), "dyn-row-menu");
  graphene_point_t point;

  /* The column headers keep their own menu. */
  if (rows == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  if (list_item != NULL && !gtk_selection_model_is_selected (selection, gtk_list_item_get_position (list_item)))
    gtk_selection_model_select_item (selection, gtk_list_item_get_position (list_item), TRUE);
  if (!gtk_widget_compute_point (view, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    point = GRAPHENE_POINT_INIT (x, y);
  gtk_popover_set_pointing_to (popover, &(GdkRectangle) { (int) point.x, (int) point.y, 1, 1 });
  gtk_popover_popup (popover);
}

/* The Menu key and Shift+F10 open it at the focused row. */
static gboolean
row_menu_key_cb (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  GtkPopover *popover = g_object_get_data (G_OBJECT (widget), "dyn-row-menu");
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, 48, 48);

  if (focus == NULL || !gtk_widget_is_ancestor (focus, widget) || !gtk_widget_compute_bounds (focus, widget, &bounds))
    bounds = GRAPHENE_RECT_INIT (0, 0, 48, 48);
  gtk_popover_set_pointing_to (popover, &(GdkRectangle) { (int) (bounds.origin.x + MIN (bounds.size.width, 48)),
                                                          (int) (bounds.origin.y + bounds.size.height / 2), 1, 1 });
  gtk_popover_popup (popover);
  return TRUE;
}

GtkPopover *
dyn_item_grid_set_row_menu (DynItemGrid *self,
                            GMenuModel  *menu)
{
  GtkWidget *popover;
  GtkGesture *gesture;
  GtkEventController *keys;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);
  g_return_val_if_fail (G_IS_MENU_MODEL (menu), NULL);
  g_return_val_if_fail (g_object_get_data (G_OBJECT (self), "dyn-row-menu") == NULL, NULL);

  popover = gtk_popover_menu_new_from_model (menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_widget_set_parent (popover, GTK_WIDGET (self));
  g_object_set_data (G_OBJECT (self), "dyn-row-menu", popover);
  g_signal_connect_swapped (self, "destroy", G_CALLBACK (gtk_widget_unparent), popover);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
  g_signal_connect (gesture, "pressed", G_CALLBACK (row_menu_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (gesture));

  keys = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_alternative_trigger_new (
                                                            gtk_keyval_trigger_new (GDK_KEY_Menu, 0),
                                                            gtk_keyval_trigger_new (GDK_KEY_F10, GDK_SHIFT_MASK)),
                                                          gtk_callback_action_new (row_menu_key_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  return GTK_POPOVER (popover);
}
