/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-grid"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-widgets-resources.h"

#include "dyn-column-picker.h"
#include "dyn-columns.h"
#include "dyn-diff.h"
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

/* Fitting a column's width to its content: the items looked at (the first
 * ones, then a spread of the rest), how many of the longest texts are
 * measured, and the bounds. */
#define FIT_SAMPLE 400
#define FIT_FIRST 100
#define FIT_MEASURED 12
#define FIT_MIN_WIDTH 56
#define FIT_MAX_WIDTH 420
/* A cell's padding and a header's sort arrow, beside the text. */
#define FIT_CELL_PADDING 22
#define FIT_HEADER_PADDING 40
/* How close to a header's right edge a double-click fits the column. */
#define SEPARATOR_SLOP 4

struct _DynItemGrid
{
  AdwBin              parent_instance;

  DynCollectionModel *model;
  DynRowModel        *rows;
  GtkMultiSelection  *selection;
  DynEditSession     *session;
  GHashTable         *bound;        /* GtkListItem* of bound attribute cells */
  GtkBitset          *reselect;     /* rows replaced in place while selected */
  GHashTable         *columns;      /* column key → GtkColumnViewColumn, owned by the view */
  GPtrArray          *column_order; /* keys in creation order */
  GHashTable         *links;        /* attribute names shown as links */
  DynItemObject      *selected;
  gulong              attributes_handler;
  gulong              has_collections_handler;
  gulong              entity_source_handler;
  GHashTable         *auto_hidden;  /* column key → GtkColumnViewColumn* the grid hid itself (not a reference) */
  gboolean            grouped;
  gboolean            shows_collections; /* grouped, and the model has collections */
  gboolean            refocus;      /* the focus left rows being destroyed */
  guint               finish_id;    /* the edit is finished when idle */

  /* In-place editing: the cell's list item, its usual child while an
   * entry takes its place, and the entry. */
  GtkListItem        *edit_item;
  GtkWidget          *edit_child;
  GtkWidget          *edit_entry;

  /* The columns as the user arranged them for the table shown, and where
   * that is saved (no group: not saved). */
  DynColumnSet       *column_set;
  char               *columns_path;
  char               *columns_group;
  char               *columns_table;  /* connection and table the set is for */
  guint               save_id;
  guint               applying;       /* the view is made to match the set */
  /* What is read: to tell whether a Query returns a column's order. */
  DynTableKeys       *keys;
  DynReadRequest     *read;
  DynPager           *pager;
  gulong              total_handler;

  /* Sorting over the loaded rows: the sorter all sort models share (no sort
   * function while unsorted), the column and direction, the Query offered. */
  GtkSorter          *sorter;
  DynColumn          *sort_column;
  gboolean            sort_descending;
  gboolean            has_offer;
  char               *offer_index;
  GtkColumnViewColumn *probe_column;
  char               *edge_key;       /* the header edge pressed first */
  gboolean            edge_fitting;   /* a double-click on an edge, until released */
  guint               widths_id;      /* widths dragged, kept when idle */

  GtkScrolledWindow  *scrolled;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *item_column;
  GtkRevealer        *sort_bar;
  GtkImage           *sort_icon;
  GtkLabel           *sort_label;
  GtkButton          *offer_button;
  GtkMenuButton      *columns_button;
  DynColumnPicker    *picker;
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
  QUERY_ORDERED,
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

/* Sets a tooltip only when it changes: each gtk_widget_set_tooltip_text()
 * makes GTK look up the widget under the pointer, which cost a quarter of
 * every scrolled frame when each bound row did it. */
static void
set_tooltip (GtkWidget  *widget,
             const char *text)
{
  const char *now = gtk_widget_get_tooltip_text (widget);

  if (g_strcmp0 (now, text) != 0)
    gtk_widget_set_tooltip_text (widget, text);
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
  set_tooltip (expander, expanded ? _("Collapse") : _("Expand"));
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
  set_tooltip (GTK_WIDGET (count),
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
      set_tooltip (GTK_WIDGET (mark), _("New item, not yet written"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-added");
      break;
    case DYN_ITEM_STATE_CHANGED:
      gtk_label_set_label (mark, "●");
      set_tooltip (GTK_WIDGET (mark), _("Changed, not yet written"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-changed");
      break;
    case DYN_ITEM_STATE_DELETED:
      gtk_label_set_label (mark, "−");
      set_tooltip (GTK_WIDGET (mark), _("Staged for deletion"));
      gtk_widget_add_css_class (GTK_WIDGET (mark), "dyn-deleted");
      break;
    case DYN_ITEM_STATE_UNCHANGED:
    default:
      gtk_label_set_label (mark, "");
      set_tooltip (GTK_WIDGET (mark), NULL);
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
  /* A tooltip only for a label cut short. */
  set_tooltip (GTK_WIDGET (entity), type != NULL && g_utf8_strlen (type, -1) > 14 ? type : NULL);
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

          set_tooltip (GTK_WIDGET (title), tip);
        }
      else
        set_tooltip (GTK_WIDGET (title), text);
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
      set_tooltip (GTK_WIDGET (title), NULL);
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
  /* A nested-path cell: the whole item in the JSON editor. */
  if (g_object_get_data (G_OBJECT (list_item), "dyn-path-cell") != NULL)
    {
      g_signal_emit (self, signals[EDIT_ITEM], 0, object);
      return FALSE;
    }
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

/* The value a cell of @factory's column shows for @object: its attribute,
 * or for a nested-path column the value at the path (NULL: missing). Marks
 * the cells of path columns: they are edited in the JSON editor. */
static DynValue *
cell_value (GtkListItemFactory *factory,
            GtkListItem        *list_item,
            gpointer            object)
{
  const DynExprPath *path = g_object_get_data (G_OBJECT (factory), "dyn-path");
  DynValue *item;

  g_object_set_data (G_OBJECT (list_item), "dyn-path-cell", GINT_TO_POINTER (path != NULL));
  if (!DYN_IS_ITEM_OBJECT (object))
    return NULL;
  item = dyn_item_object_get_item (object);
  if (path != NULL)
    return dyn_path_lookup (item, path);
  return dyn_value_map_lookup (item, g_object_get_data (G_OBJECT (factory), "dyn-attribute"));
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

  value = cell_value (GTK_LIST_ITEM_FACTORY (factory), list_item, object);
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

/* Columns: the view follows the table's column set. */

static GMenuModel *
column_menu (DynColumn *column)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) sort = g_menu_new ();
  g_autoptr(GMenu) width = g_menu_new ();
  g_autoptr(GMenu) shown = g_menu_new ();
  GVariant *name = g_variant_new_string (dyn_column_get_name (column));
  struct {
    GMenu      *section;
    const char *label;
    const char *action;
  } entries[] = {
    { sort, N_("Sort _Ascending"), "grid.sort-ascending" },
    { sort, N_("Sort _Descending"), "grid.sort-descending" },
    { width, N_("_Fit Width"), "grid.fit-column" },
    { shown, N_("_Hide Column"), "grid.hide-column" },
  };

  g_variant_ref_sink (name);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(entries[i].label), NULL);

      g_menu_item_set_action_and_target_value (item, entries[i].action, name);
      g_menu_append_item (entries[i].section, item);
    }
  g_menu_append (sort, _("_Clear Sort"), "grid.clear-sort");
  g_menu_append (width, _("Fit _All Columns"), "grid.fit-all-columns");
  if (dyn_column_get_kind (column) == DYN_COLUMN_PATH)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("_Remove Column"), NULL);

      g_menu_item_set_action_and_target_value (item, "grid.remove-column", name);
      g_menu_append_item (shown, item);
    }
  g_menu_append (shown, _("_Show All Columns"), "grid.show-all-columns");
  g_menu_append (shown, _("C_olumns…"), "grid.choose-columns");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (sort));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (width));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (shown));
  g_variant_unref (name);
  return G_MENU_MODEL (menu);
}

/* The text a cell shows for @value, as cell_bind_cb() writes it. */
static char *
fit_text (DynValue *value)
{
  return value ? dyn_value_format_display (value, CELL_MAX_CHARS, NULL) : NULL;
}

static int
text_width (PangoLayout *layout,
            const char  *text)
{
  int width = 0;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* The width that shows @column's header and its values in the loaded rows:
 * the first ones (those on screen) and a spread of the rest. Only the
 * longest texts are measured. */
static int
fit_width (DynItemGrid *self,
           DynColumn   *column)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->column_view), NULL);
  g_autoptr(GPtrArray) longest = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (glong));
  GListModel *flat = self->model ? dyn_collection_model_get_flat_model (self->model) : NULL;
  guint n = flat ? g_list_model_get_n_items (flat) : 0;
  guint step = n > FIT_SAMPLE ? (n - FIT_FIRST) / (FIT_SAMPLE - FIT_FIRST) : 1;
  int width = text_width (layout, dyn_column_get_title (column)) + FIT_HEADER_PADDING;

  for (guint i = 0; i < n; i += i < FIT_FIRST ? 1 : MAX (step, 1))
    {
      g_autoptr(DynItemObject) object = g_list_model_get_item (flat, i);
      char *text = fit_text (dyn_column_lookup (column, dyn_item_object_get_item (object)));
      glong length;
      guint at;

      if (text == NULL)
        continue;
      length = g_utf8_strlen (text, -1);
      /* Kept longest first. */
      for (at = 0; at < lengths->len && g_array_index (lengths, glong, at) >= length; at++)
        ;
      if (at >= FIT_MEASURED)
        {
          g_free (text);
          continue;
        }
      g_array_insert_val (lengths, at, length);
      g_ptr_array_insert (longest, (int) at, text);
      if (longest->len > FIT_MEASURED)
        {
          g_array_set_size (lengths, FIT_MEASURED);
          g_ptr_array_set_size (longest, FIT_MEASURED);
        }
    }
  for (guint i = 0; i < longest->len; i++)
    width = MAX (width, text_width (layout, longest->pdata[i]) + FIT_CELL_PADDING);
  return CLAMP (width, FIT_MIN_WIDTH, FIT_MAX_WIDTH);
}

static GtkColumnViewColumn *
view_column (DynItemGrid *self,
             DynColumn   *column)
{
  return column ? g_hash_table_lookup (self->columns, dyn_column_get_key (column)) : NULL;
}

/* The listed column @name names: an attribute, else a path's text. */
static DynColumn *
lookup_column (DynItemGrid *self,
               const char  *name)
{
  return name ? dyn_column_set_lookup (self->column_set, name) : NULL;
}

/* The sort arrow shows the grid's sort (it is lost with the view's column). */
static void
sync_sort_indicator (DynItemGrid *self)
{
  GtkColumnViewColumn *column = view_column (self, self->sort_column);

  self->applying++;
  /* Cleared first: GTK 4.8 leaves the arrow on a column another replaces. */
  gtk_column_view_sort_by_column (self->column_view, NULL, GTK_SORT_ASCENDING);
  if (column != NULL)
    gtk_column_view_sort_by_column (self->column_view, column,
                                    self->sort_descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
  self->applying--;
}

/* A header click sorts: the view's sorter says by which column and which
 * way. GTK 4.8 has no API to ask it, so it is asked to compare: it calls the
 * primary column's sorter (which notes the column and says "smaller") and
 * turns the answer round when that column is descending. */
static int
probe_compare_cb (gconstpointer a,
                  gconstpointer b,
                  gpointer      column)
{
  DynItemGrid *self = (DynItemGrid *) a;

  if (DYN_IS_ITEM_GRID (self))
    self->probe_column = column;
  return GTK_ORDERING_SMALLER;
}

static void set_sort (DynItemGrid *self, DynColumn *column, gboolean descending);

static void
view_sorter_changed_cb (GtkSorter   *sorter,
                        int          change,
                        DynItemGrid *self)
{
  GtkOrdering order;
  const char *key;

  if (self->applying > 0)
    return;
  /* GTK 4.8 lets the title under a double-clicked edge sort on release:
   * fitting is all that click does. */
  if (self->edge_fitting)
    {
      sync_sort_indicator (self);
      return;
    }
  self->probe_column = NULL;
  order = gtk_sorter_compare (sorter, self, self->column_view);
  key = self->probe_column ? g_object_get_data (G_OBJECT (self->probe_column), "dyn-column-key") : NULL;
  self->probe_column = NULL;
  set_sort (self, key ? dyn_column_set_lookup_key (self->column_set, key) : NULL, order == GTK_ORDERING_LARGER);
}

static void apply_columns (DynItemGrid *self);

static gboolean
keep_widths_cb (gpointer user_data)
{
  DynItemGrid *self = user_data;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, column;

  self->widths_id = 0;
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &key, &column))
    if (g_object_steal_data (column, "dyn-width-changed") != NULL)
      g_ptr_array_add (keys, g_strdup (key));
  for (guint i = 0; i < keys->len; i++)
    {
      GtkColumnViewColumn *column_view_column = g_hash_table_lookup (self->columns, keys->pdata[i]);
      DynColumn *column_of_set = dyn_column_set_lookup_key (self->column_set, keys->pdata[i]);
      int width = column_view_column ? gtk_column_view_column_get_fixed_width (column_view_column) : 0;

      if (column_of_set == NULL)
        continue;
      /* -1: GTK sized it to the cells on screen (a double-click on its
       * edge); the grid fits it to the loaded values instead. */
      if (width < 0)
        width = fit_width (self, column_of_set);
      dyn_column_set_set_width (self->column_set, keys->pdata[i], width);
    }
  /* Also when the set had that width already. */
  if (keys->len > 0)
    apply_columns (self);
  return G_SOURCE_REMOVE;
}

static void
column_width_cb (GtkColumnViewColumn *column,
                 GParamSpec          *pspec,
                 DynItemGrid         *self)
{
  /* The user dragged its edge: that width is kept, once the view is done
   * with the drag's event. */
  if (self->applying > 0)
    return;
  g_object_set_data (G_OBJECT (column), "dyn-width-changed", GINT_TO_POINTER (TRUE));
  if (self->widths_id == 0)
    self->widths_id = g_idle_add (keep_widths_cb, self);
}

static GtkColumnViewColumn *
add_column (DynItemGrid *self,
            DynColumn   *column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view;
  g_autoptr(GMenuModel) menu = column_menu (column);
  g_autoptr(GtkSorter) sorter = NULL;
  const char *key = dyn_column_get_key (column);
  int width = dyn_column_get_width (column);

  /* Cells know their attribute by name; a path column's cells by the path's
   * text, and they look up the path (cell_value()). */
  g_object_set_data_full (G_OBJECT (factory), "dyn-attribute", g_strdup (dyn_column_get_name (column)), g_free);
  if (dyn_column_get_kind (column) == DYN_COLUMN_PATH)
    g_object_set_data_full (G_OBJECT (factory), "dyn-path", dyn_expr_path_copy (dyn_column_get_path (column)),
                            (GDestroyNotify) dyn_expr_path_free);
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), self);
  view = gtk_column_view_column_new (dyn_column_get_title (column), factory);
  g_object_set_data_full (G_OBJECT (view), "dyn-column-key", g_strdup (key), g_free);
  gtk_column_view_column_set_resizable (view, TRUE);
  /* Sized to what it shows, unless the user gave it a width. */
  gtk_column_view_column_set_fixed_width (view, width > 0 ? width : fit_width (self, column));
  gtk_column_view_column_set_header_menu (view, menu);
  sorter = GTK_SORTER (gtk_custom_sorter_new (probe_compare_cb, view, NULL));
  gtk_column_view_column_set_sorter (view, sorter);
  g_signal_connect (view, "notify::fixed-width", G_CALLBACK (column_width_cb), self);
  gtk_column_view_append_column (self->column_view, view);
  g_hash_table_insert (self->columns, g_strdup (key), view);
  g_ptr_array_add (self->column_order, g_strdup (key));
  g_object_unref (view);
  return view;
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
remove_view_column (DynItemGrid         *self,
                    GtkColumnViewColumn *column)
{
  g_signal_handlers_disconnect_by_func (column, column_width_cb, self);
  gtk_column_view_remove_column (self->column_view, column);
}

static void
remove_columns (DynItemGrid *self)
{
  GHashTableIter iter;
  gpointer column;

  finish_editing (self, FALSE);
  hold_focus (self);
  self->applying++;
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, NULL, &column))
    remove_view_column (self, column);
  self->applying--;
  g_hash_table_remove_all (self->columns);
  g_hash_table_remove_all (self->bound);
  g_ptr_array_set_size (self->column_order, 0);
  restore_focus (self);
}

/* Makes the view's attribute columns those of the set: added, removed,
 * shown or hidden, sized and in its order. The Item column stays where it
 * is. */
static void
apply_columns (DynItemGrid *self)
{
  GListModel *view_columns = gtk_column_view_get_columns (self->column_view);
  guint n = dyn_column_set_get_n_columns (self->column_set);
  GHashTableIter iter;
  gpointer key, column;
  gboolean removed = FALSE;

  if (self->model == NULL)
    return;
  self->applying++;
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &key, &column))
    if (dyn_column_set_lookup_key (self->column_set, key) == NULL)
      {
        if (!removed)
          {
            finish_editing (self, FALSE);
            hold_focus (self);
            removed = TRUE;
          }
        remove_view_column (self, column);
        g_hash_table_iter_remove (&iter);
      }
  for (guint i = 0; i < n; i++)
    {
      DynColumn *wanted = dyn_column_set_get_column (self->column_set, i);
      GtkColumnViewColumn *view = view_column (self, wanted);
      int width = dyn_column_get_width (wanted);

      if (view == NULL)
        view = add_column (self, wanted);
      /* A column the grid hid itself (each fact once) stays hidden. */
      gtk_column_view_column_set_visible (view, dyn_column_get_visible (wanted) &&
                                                g_hash_table_lookup (self->auto_hidden, dyn_column_get_key (wanted)) != view);
      if (width > 0 && gtk_column_view_column_get_fixed_width (view) != width)
        gtk_column_view_column_set_fixed_width (view, width);
    }
  /* The k-th attribute column goes where the k-th is now. */
  for (guint k = 0; k < n; k++)
    {
      GtkColumnViewColumn *wanted = view_column (self, dyn_column_set_get_column (self->column_set, k));
      guint n_view = g_list_model_get_n_items (view_columns);
      guint target = G_MAXUINT, current = G_MAXUINT, seen = 0;

      for (guint j = 0; j < n_view && (target == G_MAXUINT || current == G_MAXUINT); j++)
        {
          g_autoptr(GtkColumnViewColumn) at = g_list_model_get_item (view_columns, j);

          if (at == wanted)
            current = j;
          if (at == self->item_column)
            continue;
          if (seen++ == k)
            target = j;
        }
      if (target != G_MAXUINT && current != target)
        gtk_column_view_insert_column (self->column_view, target, wanted);
    }
  self->applying--;
  if (removed)
    restore_focus (self);
  sync_sort_indicator (self);
}

/* The user dragged a header elsewhere. */
static void
view_columns_changed_cb (GListModel  *view_columns,
                         guint        position,
                         guint        removed,
                         guint        added,
                         DynItemGrid *self)
{
  g_autoptr(GPtrArray) keys = NULL;

  if (self->applying > 0)
    return;
  keys = g_ptr_array_new ();
  for (guint i = 0; i < g_list_model_get_n_items (view_columns); i++)
    {
      g_autoptr(GObject) column = g_list_model_get_item (view_columns, i);
      const char *key = g_object_get_data (column, "dyn-column-key");

      if (key != NULL)
        g_ptr_array_add (keys, (gpointer) key);
    }
  g_ptr_array_add (keys, NULL);
  dyn_column_set_reorder (self->column_set, (const char * const *) keys->pdata);
}

static gboolean
save_columns_cb (gpointer user_data)
{
  DynItemGrid *self = user_data;
  g_autoptr(GError) error = NULL;

  self->save_id = 0;
  if (self->columns_group != NULL &&
      !dyn_column_set_save_file (self->column_set, self->columns_path, self->columns_group, &error))
    g_warning ("Could not save the columns of %s: %s", self->columns_group, error->message);
  return G_SOURCE_REMOVE;
}

static void
flush_save (DynItemGrid *self)
{
  if (self->save_id == 0)
    return;
  g_clear_handle_id (&self->save_id, g_source_remove);
  save_columns_cb (self);
}

static void update_sort_bar (DynItemGrid *self);

static void
column_set_changed_cb (DynColumnSet *set,
                       DynItemGrid  *self)
{
  /* A removed path column no longer sorts. */
  if (self->sort_column != NULL &&
      dyn_column_get_kind (self->sort_column) == DYN_COLUMN_PATH &&
      dyn_column_set_lookup_key (set, dyn_column_get_key (self->sort_column)) == NULL)
    set_sort (self, NULL, FALSE);
  apply_columns (self);
  if (self->columns_group != NULL)
    {
      /* Dragging an edge changes the width many times: saved once it rests. */
      g_clear_handle_id (&self->save_id, g_source_remove);
      self->save_id = g_timeout_add (300, save_columns_cb, self);
    }
}

static void
sync_columns (DynItemGrid *self)
{
  const char * const *names;
  guint n = 0;

  if (self->model == NULL)
    return;
  names = dyn_collection_model_get_attributes (self->model, &n);
  dyn_column_set_note_attributes (self->column_set, names, (int) n);
  apply_columns (self);
}

static void
attributes_changed_cb (DynCollectionModel *model,
                       guint               position,
                       guint               removed,
                       guint               added,
                       DynItemGrid        *self)
{
  if (removed > 0 && added == 0 && dyn_collection_model_get_attributes (model, NULL)[0] == NULL)
    {
      remove_columns (self);
      dyn_column_set_forget_attributes (self->column_set);
    }
  sync_columns (self);
  hide_redundant_columns (self, FALSE);
}

/* Uses @set for the columns (a new table's). */
static void
set_column_set (DynItemGrid  *self,
                DynColumnSet *set)
{
  if (self->column_set != NULL)
    g_signal_handlers_disconnect_by_func (self->column_set, column_set_changed_cb, self);
  g_set_object (&self->column_set, set);
  g_signal_connect (set, "changed", G_CALLBACK (column_set_changed_cb), self);
  if (self->picker != NULL)
    dyn_column_picker_set_columns (self->picker, set);
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
  /* By column key ("a:" and the attribute's name, see dyn-columns.h). */
  g_autoptr(GPtrArray) redundant = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer name, column;

  if (self->model != NULL && self->shows_collections)
    for (const char * const *k = dyn_collection_model_get_partition_keys (self->model); *k != NULL; k++)
      g_ptr_array_add (redundant, g_strconcat ("a:", *k, NULL));
  if (self->model != NULL && dyn_collection_model_get_entity_source (self->model) == DYN_ENTITY_SOURCE_ATTRIBUTE)
    g_ptr_array_add (redundant, g_strconcat ("a:", dyn_collection_model_get_entity_attribute (self->model), NULL));

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

/* The order of the column the user sorted by (the view's sorter). */
static int
sort_rows_cb (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  DynItemGrid *self = user_data;

  switch (gtk_sorter_compare (self->sorter, (gpointer) a, (gpointer) b))
    {
    case GTK_ORDERING_SMALLER: return -1;
    case GTK_ORDERING_LARGER: return 1;
    default: return 0;
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
  /* Sorted: the rows of each collection, or all of them when flat. */
  if (self->sort_column != NULL && self->model != NULL)
    dyn_row_model_set_sort_func (self->rows, sort_rows_cb, self);
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

/* Sorting. */

static int
sort_compare_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  DynItemGrid *self = user_data;
  gpointer x = (gpointer) a, y = (gpointer) b;

  if (self->sort_column == NULL || !DYN_IS_ITEM_OBJECT (x) || !DYN_IS_ITEM_OBJECT (y))
    return GTK_ORDERING_EQUAL;
  return gtk_ordering_from_cmpfunc (dyn_column_compare_items (self->sort_column, x, y, self->sort_descending));
}

/* Selects @items again where the rows now show them (the first of them: a
 * search per item). */
static void
reselect_items (DynItemGrid *self,
                GPtrArray   *items)
{
  if (items->len == 0)
    return;
  gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->selection));
  for (guint i = 0; i < MIN (items->len, 50); i++)
    dyn_item_grid_select_item (self, items->pdata[i], FALSE);
}

/* What the bar over the rows says while they are sorted, and the Query it
 * offers. */
static void
update_sort_bar (DynItemGrid *self)
{
  g_autofree char *text = NULL;
  g_autofree char *index = NULL;
  const char *attribute = NULL;
  gboolean ordered = FALSE, complete, offer = FALSE;

  if (self->sort_column == NULL)
    {
      gtk_revealer_set_reveal_child (self->sort_bar, FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.clear-sort", FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.query-ordered", FALSE);
      self->has_offer = FALSE;
      g_clear_pointer (&self->offer_index, g_free);
      return;
    }
  if (dyn_column_get_kind (self->sort_column) == DYN_COLUMN_ATTRIBUTE)
    attribute = dyn_column_get_name (self->sort_column);
  complete = self->pager != NULL && dyn_pager_is_done (self->pager);
  if (attribute != NULL)
    ordered = dyn_columns_read_is_ordered_by (self->keys, self->read, attribute, self->sort_descending);
  /* All of the read is here: sorting it is the whole answer. */
  if (attribute != NULL && !ordered && !complete)
    offer = dyn_columns_find_ordered_query (self->keys, self->read, attribute, &index);
  text = dyn_columns_describe_sort (dyn_column_get_title (self->sort_column), self->sort_descending, self->shows_collections,
                                    self->model ? dyn_collection_model_get_n_items_total (self->model) : 0,
                                    complete, ordered, self->read ? dyn_read_request_get_index (self->read) : NULL);
  gtk_label_set_label (self->sort_label, text);
  gtk_image_set_from_icon_name (self->sort_icon, self->sort_descending ? "view-sort-descending-symbolic"
                                                                      : "view-sort-ascending-symbolic");
  self->has_offer = offer;
  g_free (self->offer_index);
  self->offer_index = g_steal_pointer (&index);
  if (offer)
    {
      g_autofree char *label = self->offer_index
                                 ? g_strdup_printf (_("Query Index %s Ordered by This"), self->offer_index)
                                 : g_strdup (_("Query the Table Ordered by This"));
      g_autofree char *tooltip = self->offer_index
                                   ? g_strdup_printf (_("DynamoDB returns the items in this order, page by page; "
                                                        "items without %s are not in the index"), attribute)
                                   : g_strdup (_("DynamoDB returns the items in this order, page by page"));

      gtk_button_set_label (self->offer_button, label);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->offer_button), tooltip);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->offer_button), offer);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.clear-sort", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.query-ordered", offer);
  gtk_revealer_set_reveal_child (self->sort_bar, TRUE);
}

static void
set_sort (DynItemGrid *self,
          DynColumn   *column,
          gboolean     descending)
{
  gboolean was_sorted = self->sort_column != NULL;
  g_autoptr(GPtrArray) selected = NULL;

  descending = column != NULL && descending;
  if (column == self->sort_column && descending == self->sort_descending)
    {
      sync_sort_indicator (self);
      update_sort_bar (self);
      return;
    }
  /* The selected rows stay selected where they go. */
  selected = dyn_item_grid_dup_selected_items (self);
  if (column != NULL)
    dyn_column_ref (column);
  g_clear_pointer (&self->sort_column, dyn_column_unref);
  self->sort_column = column;
  self->sort_descending = descending;
  /* Every sort model of the rows sorts again. */
  gtk_custom_sorter_set_sort_func (GTK_CUSTOM_SORTER (self->sorter), column ? sort_compare_cb : NULL,
                                   column ? self : NULL, NULL);
  if (was_sorted != (column != NULL))
    rebuild (self);
  else if (column != NULL)
    dyn_row_model_set_sort_func (self->rows, sort_rows_cb, self);
  reselect_items (self, selected);
  sync_sort_indicator (self);
  update_sort_bar (self);
}

static void
sort_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  DynColumn *column = lookup_column (self, g_variant_get_string (parameter, NULL));

  if (column != NULL)
    set_sort (self, column, g_str_equal (action_name, "grid.sort-descending"));
}

static void
clear_sort_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  set_sort (DYN_ITEM_GRID (widget), NULL, FALSE);
}

static void
query_ordered_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  g_autofree char *index = g_strdup (self->offer_index);

  if (self->has_offer)
    g_signal_emit (self, signals[QUERY_ORDERED], 0, index, self->sort_descending);
}

/* Fitting widths. */

static void
fit_column (DynItemGrid *self,
            DynColumn   *column)
{
  /* Kept as the user's width: it is what they asked for. */
  dyn_column_set_set_width (self->column_set, dyn_column_get_key (column), fit_width (self, column));
}

static void
fit_column_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  DynColumn *column = lookup_column (self, g_variant_get_string (parameter, NULL));

  if (column != NULL)
    fit_column (self, column);
}

static void
fit_all_columns_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_column_unref);

  for (guint i = 0; i < dyn_column_set_get_n_columns (self->column_set); i++)
    g_ptr_array_add (columns, dyn_column_ref (dyn_column_set_get_column (self->column_set, i)));
  for (guint i = 0; i < columns->len; i++)
    if (dyn_column_get_visible (columns->pdata[i]))
      fit_column (self, columns->pdata[i]);
}

/* The header of the view: its children are the columns' titles, in the
 * order of the columns. */
static GtkWidget *
view_header (DynItemGrid *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_css_name (child), "header") == 0)
      return child;
  return NULL;
}

/* The attribute column whose header's right edge (where it is resized) is
 * at @x, @y of the header. */
static DynColumn *
column_at_edge (DynItemGrid *self,
                double       x,
                double       y)
{
  GtkWidget *header = view_header (self);
  GListModel *view_columns = gtk_column_view_get_columns (self->column_view);
  GtkWidget *title;
  guint i = 0;

  if (header == NULL)
    return NULL;
  for (title = gtk_widget_get_first_child (header); title != NULL; title = gtk_widget_get_next_sibling (title), i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (view_columns, i);
      graphene_rect_t bounds;
      const char *key;

      if (column == NULL)
        break;
      if (!gtk_widget_get_visible (title) || !gtk_widget_compute_bounds (title, header, &bounds))
        continue;
      if (y < bounds.origin.y || y > bounds.origin.y + bounds.size.height ||
          ABS (x - (bounds.origin.x + bounds.size.width)) > SEPARATOR_SLOP)
        continue;
      key = g_object_get_data (G_OBJECT (column), "dyn-column-key");
      return key ? dyn_column_set_lookup_key (self->column_set, key) : NULL;
    }
  return NULL;
}

/* A double-click on a header's edge fits the column, as in a spreadsheet. */
static void
header_pressed_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   DynItemGrid     *self)
{
  DynColumn *column = column_at_edge (self, x, y);

  /* The first press may scroll the view (it takes the focus): the edge is
   * the one pressed first. */
  if (n_press == 1)
    {
      g_free (self->edge_key);
      self->edge_key = column ? g_strdup (dyn_column_get_key (column)) : NULL;
      return;
    }
  if (n_press != 2)
    return;
  if (column == NULL)
    column = dyn_column_set_lookup_key (self->column_set, self->edge_key);
  g_clear_pointer (&self->edge_key, g_free);
  /* The header's drag has claimed the press (it resizes there). */
  if (column != NULL)
    {
      self->edge_fitting = TRUE;
      fit_column (self, column);
    }
}

/* After the titles saw the release. */
static gboolean
header_event_cb (GtkEventControllerLegacy *controller,
                 GdkEvent                 *event,
                 DynItemGrid              *self)
{
  if (gdk_event_get_event_type (event) == GDK_BUTTON_RELEASE)
    self->edge_fitting = FALSE;
  return GDK_EVENT_PROPAGATE;
}

static void
choose_columns_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  gtk_menu_button_popup (DYN_ITEM_GRID (widget)->columns_button);
}

static void
remove_column_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynItemGrid *self = DYN_ITEM_GRID (widget);
  DynColumn *column = lookup_column (self, g_variant_get_string (parameter, NULL));

  if (column != NULL)
    dyn_column_set_remove_path (self->column_set, dyn_column_get_key (column));
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

  dyn_column_set_show_all (self->column_set);
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
  /* The columns go with the view: nothing follows that. */
  if (self->widths_id != 0)
    {
      g_clear_handle_id (&self->widths_id, g_source_remove);
      keep_widths_cb (self);
    }
  self->applying++;
  flush_save (self);
  if (self->column_view != NULL)
    {
      g_signal_handlers_disconnect_by_func (gtk_column_view_get_sorter (self->column_view),
                                            view_sorter_changed_cb, self);
      g_signal_handlers_disconnect_by_func (gtk_column_view_get_columns (self->column_view),
                                            view_columns_changed_cb, self);
      gtk_column_view_set_model (self->column_view, NULL);
    }
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
      g_clear_signal_handler (&self->total_handler, self->model);
    }
  g_clear_object (&self->model);
  g_clear_object (&self->selected);
  if (self->column_set != NULL)
    g_signal_handlers_disconnect_by_func (self->column_set, column_set_changed_cb, self);
  g_clear_object (&self->column_set);
  g_clear_pointer (&self->sort_column, dyn_column_unref);
  if (self->sorter != NULL)
    gtk_custom_sorter_set_sort_func (GTK_CUSTOM_SORTER (self->sorter), NULL, NULL, NULL);
  g_clear_object (&self->sorter);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_object (&self->read);
  g_clear_object (&self->pager);
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
  g_free (self->columns_path);
  g_free (self->columns_group);
  g_free (self->columns_table);
  g_free (self->offer_index);
  g_free (self->edge_key);

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
  /**
   * DynItemGrid::query-ordered:
   * @index: (nullable): the index to Query, NULL for the table
   * @descending: the order is descending (ScanIndexForward false)
   *
   * The user asked for the rows ordered by the sort column from DynamoDB:
   * the same items read with a Query on @index, whose sort key it is (see
   * dyn_columns_find_ordered_query()).
   */
  signals[QUERY_ORDERED] =
    g_signal_new ("query-ordered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_BOOLEAN);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  g_type_ensure (DYN_TYPE_COLUMN_PICKER);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-item-grid.ui");
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, scrolled);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, column_view);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, item_column);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, sort_bar);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, sort_icon);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, sort_label);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, offer_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, columns_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemGrid, picker);

  gtk_widget_class_install_action (widget_class, "grid.hide-column", "s", hide_column_action);
  gtk_widget_class_install_action (widget_class, "grid.show-all-columns", NULL, show_all_columns_action);
  gtk_widget_class_install_action (widget_class, "grid.remove-column", "s", remove_column_action);
  gtk_widget_class_install_action (widget_class, "grid.choose-columns", NULL, choose_columns_action);
  gtk_widget_class_install_action (widget_class, "grid.sort-ascending", "s", sort_action);
  gtk_widget_class_install_action (widget_class, "grid.sort-descending", "s", sort_action);
  gtk_widget_class_install_action (widget_class, "grid.clear-sort", NULL, clear_sort_action);
  gtk_widget_class_install_action (widget_class, "grid.query-ordered", NULL, query_ordered_action);
  gtk_widget_class_install_action (widget_class, "grid.fit-column", "s", fit_column_action);
  gtk_widget_class_install_action (widget_class, "grid.fit-all-columns", NULL, fit_all_columns_action);
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
  self->columns_path = dyn_columns_get_default_path ();
  self->sorter = GTK_SORTER (gtk_custom_sorter_new (NULL, NULL, NULL));

  gtk_widget_init_template (GTK_WIDGET (self));

  {
    g_autoptr(DynColumnSet) set = dyn_column_set_new ();
    g_autoptr(GMenu) menu = g_menu_new ();
    g_autoptr(GMenu) section = g_menu_new ();
    GtkGesture *gesture;
    GtkEventController *legacy;
    GtkWidget *header;

    set_column_set (self, set);
    g_menu_append (section, _("C_olumns…"), "grid.choose-columns");
    g_menu_append (section, _("_Show All Columns"), "grid.show-all-columns");
    g_menu_append (section, _("Fit _All Columns"), "grid.fit-all-columns");
    g_menu_append (section, _("_Clear Sort"), "grid.clear-sort");
    g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
    gtk_column_view_column_set_header_menu (self->item_column, G_MENU_MODEL (menu));
    g_signal_connect (gtk_column_view_get_sorter (self->column_view), "changed",
                      G_CALLBACK (view_sorter_changed_cb), self);
    g_signal_connect (gtk_column_view_get_columns (self->column_view), "items-changed",
                      G_CALLBACK (view_columns_changed_cb), self);
    header = view_header (self);
    if (header != NULL)
      {
        g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (header);

        gesture = gtk_gesture_click_new ();
        gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
        gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (gesture), GTK_PHASE_CAPTURE);
        g_signal_connect (gesture, "pressed", G_CALLBACK (header_pressed_cb), self);
        gtk_widget_add_controller (header, GTK_EVENT_CONTROLLER (gesture));
        legacy = gtk_event_controller_legacy_new ();
        g_signal_connect (legacy, "event", G_CALLBACK (header_event_cb), self);
        gtk_widget_add_controller (header, legacy);
        /* The header's own drag (which resizes at an edge) claims the press
         * there: in its group, this click still counts the presses. */
        for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
          {
            g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

            if (GTK_IS_GESTURE_DRAG (controller))
              {
                gtk_gesture_group (GTK_GESTURE (controller), gesture);
                break;
              }
          }
      }
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.clear-sort", FALSE);
    gtk_widget_action_set_enabled (GTK_WIDGET (self), "grid.query-ordered", FALSE);
  }

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
      g_clear_signal_handler (&self->total_handler, self->model);
    }
  g_set_object (&self->model, model);
  remove_columns (self);
  /* A new read: its attributes come as its items do; the layout stays. */
  dyn_column_set_forget_attributes (self->column_set);
  if (model != NULL)
    {
      self->attributes_handler = g_signal_connect (model, "attributes-changed",
                                                   G_CALLBACK (attributes_changed_cb), self);
      self->has_collections_handler = g_signal_connect_swapped (model, "notify::has-collections",
                                                                G_CALLBACK (has_collections_cb), self);
      self->entity_source_handler = g_signal_connect_swapped (model, "notify::entity-source",
                                                              G_CALLBACK (entity_source_cb), self);
      self->total_handler = g_signal_connect_swapped (model, "notify::n-items-total",
                                                      G_CALLBACK (update_sort_bar), self);
    }
  rebuild (self);
  sync_columns (self);
  hide_redundant_columns (self, TRUE);
  update_sort_bar (self);
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
  update_sort_bar (self);
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
  DynColumn *column;

  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  column = lookup_column (self, name);
  if (column != NULL)
    dyn_column_set_set_visible (self->column_set, dyn_column_get_key (column), visible);
}

gboolean
dyn_item_grid_get_column_visible (DynItemGrid *self,
                                  const char  *name)
{
  GtkColumnViewColumn *column;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  column = view_column (self, lookup_column (self, name));
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

void
dyn_item_grid_set_read (DynItemGrid        *self,
                        const char         *connection_id,
                        const DynTableKeys *keys,
                        DynReadRequest     *read,
                        DynPager           *pager)
{
  g_autofree char *table = NULL;

  g_return_if_fail (DYN_IS_ITEM_GRID (self));
  g_return_if_fail (read == NULL || DYN_IS_READ_REQUEST (read));
  g_return_if_fail (pager == NULL || DYN_IS_PAGER (pager));

  table = g_strdup_printf ("%s\n%s", connection_id ? connection_id : "", keys ? keys->table.name : "");
  if (g_strcmp0 (table, self->columns_table) != 0)
    {
      g_autoptr(DynColumnSet) set = dyn_column_set_new ();
      g_autoptr(GError) error = NULL;

      /* Another table: its own columns, as they were left. */
      flush_save (self);
      set_sort (self, NULL, FALSE);
      g_free (self->columns_table);
      self->columns_table = g_steal_pointer (&table);
      g_free (self->columns_group);
      self->columns_group = connection_id && keys ? dyn_columns_make_group (connection_id, keys->table.name) : NULL;
      if (self->columns_group != NULL &&
          !dyn_column_set_load_file (set, self->columns_path, self->columns_group, &error))
        g_warning ("Could not read the columns of %s: %s", self->columns_group, error->message);
      remove_columns (self);
      set_column_set (self, set);
      sync_columns (self);
      hide_redundant_columns (self, TRUE);
    }
  if (keys != self->keys)
    {
      g_clear_pointer (&self->keys, dyn_table_keys_free);
      self->keys = keys ? dyn_table_keys_copy (keys) : NULL;
    }
  g_set_object (&self->read, read);
  g_set_object (&self->pager, pager);
  update_sort_bar (self);
}

DynColumnSet *
dyn_item_grid_get_column_set (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->column_set;
}

DynColumnPicker *
dyn_item_grid_get_column_picker (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->picker;
}

void
dyn_item_grid_sort_by (DynItemGrid *self,
                       const char  *name,
                       gboolean     descending)
{
  g_return_if_fail (DYN_IS_ITEM_GRID (self));

  set_sort (self, lookup_column (self, name), descending);
}

const char *
dyn_item_grid_get_sort_column (DynItemGrid *self,
                               gboolean    *descending)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  if (descending != NULL)
    *descending = self->sort_descending;
  return self->sort_column ? dyn_column_get_name (self->sort_column) : NULL;
}

const char *
dyn_item_grid_get_sort_text (DynItemGrid *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), NULL);

  return self->sort_column ? gtk_label_get_label (self->sort_label) : NULL;
}

gboolean
dyn_item_grid_get_ordered_query (DynItemGrid  *self,
                                 const char  **index_name)
{
  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), FALSE);

  if (index_name != NULL)
    *index_name = self->offer_index;
  return self->has_offer;
}

int
dyn_item_grid_get_column_width (DynItemGrid *self,
                                const char  *name)
{
  GtkColumnViewColumn *column;

  g_return_val_if_fail (DYN_IS_ITEM_GRID (self), -1);

  column = view_column (self, lookup_column (self, name));
  return column ? gtk_column_view_column_get_fixed_width (column) : -1;
}
