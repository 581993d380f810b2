/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-design-view"

/* The Design view (dyn-design-view.h): the entity editor on the left, the
 * plan, the access patterns, the examples and the check on the right. The
 * model is edited in place; each edit drafts again and draws the panes
 * anew (the editor itself is not redrawn while the user types in it). */

#include "config.h"

#include <glib/gi18n.h>

#include "dyn-design-edit.h"
#include "dyn-design-view.h"
#include "dyn-value-format.h"
#include "dyn-widgets-private.h"

/* How many item collections the Examples page draws at most. */
#define MAX_PARTITIONS 60

static const char * const attribute_types[] = {
  "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS", NULL
};

struct _DynDesignView
{
  AdwBin                parent_instance;

  DynDesignModel       *model;
  DynDesignPlan        *plan;
  GError               *draft_error;
  GPtrArray            *examples;
  DynDesignCheckReport *report;
  gboolean              report_stale;   /* the model changed since the check */
  char                 *check_error;
  char                 *cost_text;
  guint                 n_drafts;
  char                 *selected;       /* the entity edited */
  gboolean              updating;       /* filling the editor: not an edit */
  DynSnippetLanguage    language;
  char                 *endpoint;
  char                 *region;
  GPtrArray            *snippet_views;  /* GtkTextView per request (borrowed) */
  GPtrArray            *snippets;       /* char * per request */
  GHashTable           *plan_cells;     /* "entity\037attribute" → text */
  GtkStringList        *parent_names;
  GtkStringList        *table_names;

  GtkStack             *outer_stack;
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkListBox           *entity_list;
  GtkWidget            *editor_box;
  AdwEntryRow          *name_row;
  AdwEntryRow          *id_row;
  GtkDropDown          *parent_dropdown;
  GtkListBox           *attribute_list;
  GtkLabel             *entity_keys_label;
  GtkLabel             *draft_error_label;
  GtkStack             *pages;
  GtkBox               *plan_box;
  GtkBox               *patterns_box;
  GtkBox               *examples_box;
  GtkSpinButton        *per_parent_spin;
  gboolean              syncing_per_parent;
  GtkBox               *check_box;
  GtkDropDown          *language_dropdown;
  GtkDropDown          *table_dropdown;
  GtkSpinner           *check_spinner;
  GtkLabel             *progress_label;
  GtkWidget            *cancel_button;
};

G_DEFINE_FINAL_TYPE (DynDesignView, dyn_design_view, ADW_TYPE_BIN)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void fill_editor (DynDesignView *self);
static void render_check (DynDesignView *self);

/* ------------------------------------------------------------------------ */
/* Small widgets */

static void
clear_box (GtkBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))) != NULL)
    gtk_box_remove (box, child);
}

static GtkWidget *
new_label (const char *text,
           const char *style,
           ...)
{
  GtkWidget *label = gtk_label_new (text);
  va_list args;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  va_start (args, style);
  for (const char *s = style; s != NULL; s = va_arg (args, const char *))
    gtk_widget_add_css_class (label, s);
  va_end (args);
  return label;
}

static GtkWidget *
new_wrapped_label (const char *text,
                   const char *style,
                   ...)
{
  GtkWidget *label = gtk_label_new (text);
  va_list args;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  va_start (args, style);
  for (const char *s = style; s != NULL; s = va_arg (args, const char *))
    gtk_widget_add_css_class (label, s);
  va_end (args);
  return label;
}

static GtkWidget *
new_card (void)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_add_css_class (card, "card");
  return card;
}

/* A wide grid in a card scrolls sideways on its own; the page does not. */
static GtkWidget *
new_hscroll (GtkWidget *child)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), child);
  return scrolled;
}

static GtkWidget *
new_card_content (GtkWidget *card)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 10);
  gtk_widget_set_margin_bottom (box, 10);
  gtk_box_append (GTK_BOX (card), box);
  return box;
}

static char *
format_units (double units)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, units == (gint64) units ? "%.0f" : "%.1f", units));
}

static char *
format_value (const DynValue *value)
{
  if (value == NULL)
    return g_strdup ("—");
  return dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 48);
}

/* ------------------------------------------------------------------------ */
/* The table's key attributes, as the plan's columns */

typedef struct {
  char *attribute;
  char *role;      /* "table partition key", "GSI1 sort key" */
} Column;

static void
column_clear (gpointer data)
{
  Column *c = data;

  g_free (c->attribute);
  g_free (c->role);
}

static void
add_column (GArray     *columns,
            const char *attribute,
            char       *role)
{
  Column c;

  if (attribute == NULL)
    {
      g_free (role);
      return;
    }
  for (guint i = 0; i < columns->len; i++)
    if (g_strcmp0 (g_array_index (columns, Column, i).attribute, attribute) == 0)
      {
        g_free (role);
        return;
      }
  c.attribute = g_strdup (attribute);
  c.role = role;
  g_array_append_val (columns, c);
}

static GArray *
plan_columns (const DynDesignTable *table)
{
  GArray *columns = g_array_new (FALSE, TRUE, sizeof (Column));

  g_array_set_clear_func (columns, column_clear);
  if (table == NULL)
    return columns;
  add_column (columns, table->partition_key, g_strdup (_("table partition key")));
  add_column (columns, table->sort_key, g_strdup (_("table sort key")));
  for (guint i = 0; table->indexes && i < table->indexes->len; i++)
    {
      DynDesignIndex *index = table->indexes->pdata[i];

      /* Translators: a column's caption in the key plan: the index name */
      add_column (columns, index->partition_key, g_strdup_printf (_("%s partition key"), index->name));
      add_column (columns, index->sort_key, g_strdup_printf (_("%s sort key"), index->name));
    }
  return columns;
}

static gboolean
is_key_attribute (const DynDesignTable *table,
                  const char           *name)
{
  if (table == NULL)
    return FALSE;
  if (g_strcmp0 (table->partition_key, name) == 0 || g_strcmp0 (table->sort_key, name) == 0)
    return TRUE;
  for (guint i = 0; table->indexes && i < table->indexes->len; i++)
    {
      DynDesignIndex *index = table->indexes->pdata[i];

      if (g_strcmp0 (index->partition_key, name) == 0 || g_strcmp0 (index->sort_key, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static const char *
placement_key (const DynDesignPlacement *placement,
               const char               *attribute)
{
  for (guint i = 0; placement && placement->keys && i < placement->keys->len; i++)
    {
      DynDesignKey *key = placement->keys->pdata[i];

      if (g_strcmp0 (key->attribute, attribute) == 0)
        return key->template;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The key plan */

static char *
table_line (const DynDesignTable *table)
{
  GString *s = g_string_new (NULL);

  /* Translators: the plan's table line: table name, partition key and its type */
  g_string_append_printf (s, _("Table %s · partition key %s (%s)"), table->name ? table->name : "?",
                          table->partition_key, table->partition_type ? table->partition_type : "S");
  if (table->sort_key != NULL)
    g_string_append_printf (s, _(" · sort key %s (%s)"), table->sort_key, table->sort_type ? table->sort_type : "S");
  else
    g_string_append (s, _(" · no sort key"));
  for (guint i = 0; table->indexes && i < table->indexes->len; i++)
    {
      DynDesignIndex *index = table->indexes->pdata[i];

      g_string_append_printf (s, " · %s %s", index->local ? "LSI" : "GSI", index->name);
    }
  if (table->billing_mode != NULL)
    g_string_append_printf (s, " · %s", table->billing_mode);
  return g_string_free (s, FALSE);
}

static GtkWidget *
decision_row (const DynDesignDecision *decision)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name (decision->warning ? "dialog-warning-symbolic"
                                                                    : "emblem-ok-symbolic");
  g_autofree char *subject = NULL;

  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_widget_set_margin_top (row, 8);
  gtk_widget_set_margin_bottom (row, 8);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (icon, decision->warning ? "warning" : "dim-label");
  gtk_box_append (GTK_BOX (row), icon);
  if (decision->pattern != NULL && g_strcmp0 (decision->pattern, decision->subject) != 0)
    /* Translators: a decision's subject, and the access pattern it serves */
    subject = g_strdup_printf (_("%s · for “%s”"), decision->subject ? decision->subject : "", decision->pattern);
  else
    subject = g_strdup (decision->subject ? decision->subject : "");
  gtk_box_append (GTK_BOX (text), new_label (subject, "heading", decision->warning ? "warning" : NULL, NULL));
  gtk_box_append (GTK_BOX (text), new_wrapped_label (decision->text, NULL));
  gtk_widget_set_hexpand (text, TRUE);
  gtk_box_append (GTK_BOX (row), text);
  return row;
}

static void
render_plan (DynDesignView *self)
{
  const DynDesignTable *table;
  g_autoptr(GArray) columns = NULL;
  GPtrArray *placements;
  GPtrArray *decisions;
  g_autofree char *line = NULL;
  GtkWidget *card, *grid, *list;
  int row = 0;

  clear_box (self->plan_box);
  g_hash_table_remove_all (self->plan_cells);
  if (self->plan == NULL)
    {
      gtk_box_append (self->plan_box, new_wrapped_label (_("No plan: the model does not draft."), "dim-label", NULL));
      return;
    }
  table = dyn_design_plan_get_table (self->plan);
  columns = plan_columns (table);
  placements = dyn_design_plan_get_placements (self->plan);

  if (table != NULL)
    {
      line = table_line (table);
      gtk_box_append (self->plan_box, new_wrapped_label (line, "dim-label", NULL));
    }

  card = new_card ();
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 10);
  gtk_widget_set_margin_bottom (grid, 10);
  gtk_widget_set_name (grid, "design-plan-grid");
  gtk_box_append (GTK_BOX (card), new_hscroll (grid));

  /* The header: the key attributes and what they are. */
  {
    GtkWidget *head = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    gtk_box_append (GTK_BOX (head), new_label (_("Entity"), "heading", NULL));
    gtk_box_append (GTK_BOX (head), new_label (" ", "caption", NULL));
    gtk_grid_attach (GTK_GRID (grid), head, 0, row, 1, 1);
  }
  for (guint c = 0; c < columns->len; c++)
    {
      Column *column = &g_array_index (columns, Column, c);
      GtkWidget *head = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      gtk_box_append (GTK_BOX (head), new_label (column->attribute, "heading", NULL));
      gtk_box_append (GTK_BOX (head), new_label (column->role, "caption", "dim-label", NULL));
      gtk_grid_attach (GTK_GRID (grid), head, c + 1, row, 1, 1);
    }
  row++;
  gtk_grid_attach (GTK_GRID (grid), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), 0, row++, columns->len + 1, 1);

  for (guint p = 0; placements && p < placements->len; p++)
    {
      DynDesignPlacement *placement = placements->pdata[p];
      GtkWidget *name = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

      gtk_box_append (GTK_BOX (name), new_label (placement->entity, "heading", NULL));
      if (placement->shards > 1)
        {
          /* Translators: under an entity in the key plan */
          g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "sharded: %u shard",
                                                                "sharded: %u shards", placement->shards),
                                                   placement->shards);

          gtk_box_append (GTK_BOX (name), new_label (text, "caption", "warning", NULL));
        }
      gtk_grid_attach (GTK_GRID (grid), name, 0, row, 1, 1);
      for (guint c = 0; c < columns->len; c++)
        {
          Column *column = &g_array_index (columns, Column, c);
          const char *template = placement_key (placement, column->attribute);
          GtkWidget *cell;

          if (template != NULL)
            {
              cell = new_label (template, "monospace", NULL);
              gtk_label_set_selectable (GTK_LABEL (cell), TRUE);
              g_hash_table_insert (self->plan_cells,
                                   g_strdup_printf ("%s\037%s", placement->entity, column->attribute),
                                   g_strdup (template));
            }
          else
            cell = new_label ("—", "dim-label", NULL);
          gtk_widget_set_valign (cell, GTK_ALIGN_START);
          gtk_grid_attach (GTK_GRID (grid), cell, c + 1, row, 1, 1);
        }
      row++;
    }
  gtk_box_append (self->plan_box, card);

  decisions = dyn_design_plan_get_decisions (self->plan);
  if (decisions != NULL && decisions->len > 0)
    {
      gtk_box_append (self->plan_box, new_label (_("Decisions"), "heading", NULL));
      list = gtk_list_box_new ();
      gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
      gtk_widget_add_css_class (list, "boxed-list");
      for (guint i = 0; i < decisions->len; i++)
        gtk_list_box_append (GTK_LIST_BOX (list), decision_row (decisions->pdata[i]));
      gtk_box_append (self->plan_box, list);
    }
}

/* ------------------------------------------------------------------------ */
/* The access patterns */

static const DynDesignPattern *
find_pattern (DynDesignView *self,
              const char    *name)
{
  for (guint i = 0; self->model && i < self->model->patterns->len; i++)
    {
      DynDesignPattern *pattern = self->model->patterns->pdata[i];

      if (g_strcmp0 (pattern->name, name) == 0)
        return pattern;
    }
  return NULL;
}

static const char *
operation_label (DynDesignOperation op)
{
  switch (op)
    {
    case DYN_DESIGN_GET:
      return _("get one item");
    case DYN_DESIGN_LIST:
      return _("list a collection");
    case DYN_DESIGN_LIST_NEWEST_FIRST:
      return _("list a collection, newest first");
    case DYN_DESIGN_COUNT:
      return _("count a collection");
    default:
      return "";
    }
}

static void
update_snippets (DynDesignView *self)
{
  GPtrArray *requests = self->plan ? dyn_design_plan_get_requests (self->plan) : NULL;

  g_ptr_array_set_size (self->snippets, 0);
  for (guint i = 0; i < self->snippet_views->len; i++)
    {
      DynDesignRequest *request = requests && i < requests->len ? requests->pdata[i] : NULL;
      char *text = NULL;

      if (request != NULL && request->request != NULL && dyn_read_request_is_valid (request->request))
        text = dyn_read_request_dup_snippet (request->request, self->language, self->endpoint, self->region);
      g_ptr_array_add (self->snippets, text);
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->snippet_views->pdata[i]), text ? text : "", -1);
    }
}

static void
copy_snippet_cb (GtkButton     *button,
                 DynDesignView *self)
{
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "dyn-index"));

  if (i < self->snippets->len && self->snippets->pdata[i] != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)), self->snippets->pdata[i]);
}

/* The request's members a developer copies: the key or key condition, the
 * index, the placeholder maps, the order. */
static void
add_body_fields (GtkGrid  *grid,
                 int      *row,
                 JsonNode *body)
{
  static const char * const members[] = {
    "IndexName", "Key", "KeyConditionExpression", "FilterExpression", "ExpressionAttributeNames",
    "ExpressionAttributeValues", "ScanIndexForward", "Select", NULL
  };
  JsonObject *object;

  if (body == NULL || !JSON_NODE_HOLDS_OBJECT (body))
    return;
  object = json_node_get_object (body);
  for (guint i = 0; members[i] != NULL; i++)
    {
      JsonNode *member = json_object_get_member (object, members[i]);
      g_autofree char *text = NULL;
      GtkWidget *name, *value;

      if (member == NULL)
        continue;
      if (JSON_NODE_HOLDS_VALUE (member) && json_node_get_value_type (member) == G_TYPE_STRING)
        text = g_strdup (json_node_get_string (member));
      else
        text = json_to_string (member, FALSE);
      name = new_label (members[i], "caption", "dim-label", NULL);
      gtk_widget_set_valign (name, GTK_ALIGN_START);
      value = new_wrapped_label (text, "monospace", NULL);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_grid_attach (grid, name, 0, *row, 1, 1);
      gtk_grid_attach (grid, value, 1, *row, 1, 1);
      (*row)++;
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

static GtkWidget *
pattern_card (DynDesignView          *self,
              const DynDesignRequest *request,
              guint                   index)
{
  const DynDesignPattern *pattern = find_pattern (self, request->pattern);
  GtkWidget *card = new_card ();
  GtkWidget *box = new_card_content (card);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *expander, *snippet_box, *copy, *frame, *scrolled, *view;
  g_autofree char *op = NULL;
  g_autoptr(GString) about = g_string_new (NULL);
  int row = 0;

  gtk_widget_set_name (card, "design-pattern");
  gtk_box_append (GTK_BOX (head), new_label (request->pattern, "heading", NULL));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (head), TRUE);
  if (request->index != NULL)
    /* Translators: an access pattern's read: the operation and the index */
    op = g_strdup_printf (_("%s on %s"), dyn_operation_get_name (request->operation), request->index);
  else
    op = g_strdup (dyn_operation_get_name (request->operation));
  gtk_box_append (GTK_BOX (head), new_label (op, "heading", request->operation == DYN_OP_SCAN ? "error" : "success", NULL));
  gtk_box_append (GTK_BOX (box), head);

  if (pattern != NULL)
    {
      g_string_append_printf (about, "%s · %s", pattern->entity, operation_label (pattern->operation));
      if (pattern->across_parents)
        g_string_append_printf (about, " · %s", _("across parents"));
    }
  if (request->shards > 1)
    g_string_append_printf (about, " · %s", _("fans out over every shard"));
  if (request->parameters != NULL && g_hash_table_size (request->parameters) > 0)
    {
      g_autoptr(GPtrArray) keys = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, request->parameters);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_ptr_array_add (keys, key);
      g_ptr_array_sort (keys, compare_strings);
      g_string_append_printf (about, " · %s", _("you give"));
      for (guint i = 0; i < keys->len; i++)
        g_string_append_printf (about, "%s %s → %s", i ? "," : "", (char *) keys->pdata[i],
                                (char *) g_hash_table_lookup (request->parameters, keys->pdata[i]));
    }
  gtk_box_append (GTK_BOX (box), new_wrapped_label (about->str, "dim-label", NULL));
  if (request->reason != NULL)
    gtk_box_append (GTK_BOX (box), new_wrapped_label (request->reason,
                                                      request->operation == DYN_OP_SCAN || request->request == NULL
                                                        ? "error" : "dim-label", NULL));

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  if (request->request != NULL && dyn_read_request_is_valid (request->request))
    {
      g_autoptr(JsonNode) body = dyn_read_request_dup_body (request->request);

      add_body_fields (GTK_GRID (grid), &row, body);
    }
  else if (request->request != NULL && dyn_read_request_get_error (request->request) != NULL)
    gtk_box_append (GTK_BOX (box), new_wrapped_label (dyn_read_request_get_error (request->request)->message,
                                                      "error", NULL));
  gtk_box_append (GTK_BOX (box), grid);

  /* The snippet, in the language chosen above the list. */
  expander = gtk_expander_new_with_mnemonic (_("S_nippet"));
  snippet_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  copy = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_tooltip_text (copy, _("Copy the snippet to the clipboard"));
  gtk_widget_set_halign (copy, GTK_ALIGN_END);
  g_object_set_data (G_OBJECT (copy), "dyn-index", GUINT_TO_POINTER (index));
  g_signal_connect (copy, "clicked", G_CALLBACK (copy_snippet_cb), self);
  gtk_box_append (GTK_BOX (snippet_box), copy);
  frame = gtk_frame_new (NULL);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 160);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 320);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  view = gtk_text_view_new ();
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 6);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Snippet"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_frame_set_child (GTK_FRAME (frame), scrolled);
  gtk_box_append (GTK_BOX (snippet_box), frame);
  gtk_expander_set_child (GTK_EXPANDER (expander), snippet_box);
  gtk_box_append (GTK_BOX (box), expander);
  g_ptr_array_add (self->snippet_views, view);
  return card;
}

static void
render_patterns (DynDesignView *self)
{
  GPtrArray *requests;

  clear_box (self->patterns_box);
  g_ptr_array_set_size (self->snippet_views, 0);
  requests = self->plan ? dyn_design_plan_get_requests (self->plan) : NULL;
  if (requests == NULL || requests->len == 0)
    {
      gtk_box_append (self->patterns_box,
                      new_wrapped_label (_("No access patterns: a design starts from the reads it must serve. Add them to the model file (accessPatterns)."),
                                         "dim-label", NULL));
      update_snippets (self);
      return;
    }
  for (guint i = 0; i < requests->len; i++)
    gtk_box_append (self->patterns_box, pattern_card (self, requests->pdata[i], i));
  update_snippets (self);
}

/* ------------------------------------------------------------------------ */
/* The examples, stacked per item collection */

static char *
item_summary (const DynDesignTable *table,
              const DynValue       *item,
              guint                 max)
{
  GString *s = g_string_new (NULL);
  guint n = 0;

  /* The index keys first: they show where the item is found again. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < dyn_value_get_length (item) && n < max; i++)
      {
        const char *name = dyn_value_map_get_name (item, i);
        gboolean index_key = is_key_attribute (table, name) &&
                             g_strcmp0 (name, table->partition_key) != 0 &&
                             g_strcmp0 (name, table->sort_key) != 0;
        g_autofree char *text = NULL;

        if (table != NULL && (g_strcmp0 (name, table->partition_key) == 0 || g_strcmp0 (name, table->sort_key) == 0))
          continue;
        if ((pass == 0) != index_key)
          continue;
        text = format_value (dyn_value_map_get_value (item, i));
        if (s->len > 0)
          g_string_append (s, "   ");
        g_string_append_printf (s, "%s: %s", name, text);
        n++;
      }
  return g_string_free (s, FALSE);
}

static void
render_examples (DynDesignView *self)
{
  const DynDesignTable *table = self->plan ? dyn_design_plan_get_table (self->plan) : NULL;
  const DynValue *previous = NULL;
  GtkWidget *grid = NULL;
  guint partitions = 0;
  int row = 0;
  g_autofree char *count = NULL;

  clear_box (self->examples_box);
  if (self->examples == NULL || self->examples->len == 0 || table == NULL)
    {
      gtk_box_append (self->examples_box, new_wrapped_label (_("No examples."), "dim-label", NULL));
      return;
    }
  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "%u example item, one block per item collection (partition key), its items in sort-key order",
                                        "%u example items, one block per item collection (partition key), its items in sort-key order",
                                        self->examples->len),
                           self->examples->len);
  gtk_box_append (self->examples_box, new_wrapped_label (count, "dim-label", NULL));

  for (guint i = 0; i < self->examples->len; i++)
    {
      const DynValue *item = self->examples->pdata[i];
      const DynValue *pk = dyn_value_map_lookup (item, table->partition_key);
      const DynValue *sk = table->sort_key ? dyn_value_map_lookup (item, table->sort_key) : NULL;
      const char *entity = dyn_design_plan_classify (self->plan, item);
      g_autofree char *sk_text = NULL;
      g_autofree char *summary = NULL;
      GtkWidget *label;

      if (grid == NULL || previous == NULL || pk == NULL || !dyn_value_equal (previous, pk))
        {
          GtkWidget *card, *box;
          g_autofree char *pk_text = format_value (pk);

          if (++partitions > MAX_PARTITIONS)
            {
              g_autofree char *more = g_strdup_printf (_("… and more (%u items in all)"), self->examples->len);

              gtk_box_append (self->examples_box, new_label (more, "dim-label", NULL));
              break;
            }
          card = new_card ();
          gtk_widget_set_name (card, "design-collection");
          box = new_card_content (card);
          label = new_label (pk_text, "heading", "monospace", NULL);
          gtk_label_set_selectable (GTK_LABEL (label), TRUE);
          gtk_widget_set_tooltip_text (label, table->partition_key);
          gtk_box_append (GTK_BOX (box), label);
          grid = gtk_grid_new ();
          gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
          gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
          gtk_widget_set_margin_start (grid, 18);
          gtk_box_append (GTK_BOX (box), grid);
          gtk_box_append (self->examples_box, card);
          row = 0;
          previous = pk;
        }
      sk_text = table->sort_key ? format_value (sk) : g_strdup ("");
      label = new_label (sk_text, "monospace", NULL);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
      label = new_label (entity ? entity : _("no entity"), "caption-heading", entity ? "accent" : "warning", NULL);
      gtk_grid_attach (GTK_GRID (grid), label, 1, row, 1, 1);
      summary = item_summary (table, item, 4);
      label = new_label (summary, "caption", "dim-label", NULL);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_grid_attach (GTK_GRID (grid), label, 2, row, 1, 1);
      row++;
    }
}

/* ------------------------------------------------------------------------ */
/* The check */

static char *
report_cost (const DynDesignCheckReport *report)
{
  g_autofree char *rcu = NULL;
  g_autofree char *wcu = format_units (report->write_units);
  GString *s = g_string_new (NULL);
  guint requests = 0;
  double read_units = 0;

  for (guint i = 0; report->results && i < report->results->len; i++)
    {
      DynDesignCheckResult *result = report->results->pdata[i];

      requests += result->requests;
      read_units += result->read_units;
    }
  rcu = format_units (read_units);
  if (report->scratch)
    /* Translators: the check's cost line starts with the table checked */
    g_string_append_printf (s, _("Scratch table %s"), report->table);
  else
    g_string_append_printf (s, _("Table %s"), report->table);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u example written", "%u examples written",
                                          report->items_written), report->items_written);
  if (report->items_existing > 0)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u already there, not written",
                                              "%u already there, not written", report->items_existing),
                              report->items_existing);
    }
  g_string_append_printf (s, " · %s WCU · ", wcu);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u read request", "%u read requests", requests),
                          requests);
  g_string_append_printf (s, " · %s RCU", rcu);
  if (report->sampled_items > 0)
    {
      g_autofree char *sample = format_units (report->sample_read_units);
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, report->sampled_items);

      g_string_append (s, " · ");
      /* Translators: the cost of the sample read of an existing table: its items, its RCU */
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "a sample of %s item for %s RCU",
                                              "a sample of %s items for %s RCU",
                                              (gulong) MIN (report->sampled_items, G_MAXULONG)),
                              n, sample);
    }
  return g_string_free (s, FALSE);
}

static void
attach_cell (GtkGrid    *grid,
             const char *text,
             int         column,
             int         row,
             gboolean    numeric)
{
  GtkWidget *label = new_label (text, numeric ? "numeric" : NULL, NULL);

  if (numeric)
    gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static void
render_check (DynDesignView *self)
{
  const DynDesignCheckReport *report = self->report;
  GtkWidget *card, *grid, *list;
  guint failed = 0;
  int row = 0;
  static const char *heads[] = {
    N_("Access Pattern"), N_("Operation"), N_("Requests"), N_("Pages"), N_("RCU"), N_("Items"), N_("Result"), NULL
  };

  clear_box (self->check_box);
  g_clear_pointer (&self->cost_text, g_free);
  if (self->check_error != NULL)
    gtk_box_append (self->check_box, new_wrapped_label (self->check_error, "error", NULL));
  if (report == NULL)
    {
      if (self->check_error == NULL)
        gtk_box_append (self->check_box,
                        new_wrapped_label (_("Check creates a scratch table from the plan on the window’s connection (DynamoDB Local or any other), writes the examples (never over existing items), runs every access pattern and measures it: one GetItem or Query of one page that returns only the intended entity passes. Against an existing table, its own data is checked against the model."),
                                           "dim-label", NULL));
      return;
    }

  for (guint i = 0; report->results && i < report->results->len; i++)
    if (!((DynDesignCheckResult *) report->results->pdata[i])->passed)
      failed++;
  {
    g_autofree char *verdict = NULL;
    guint n = report->results ? report->results->len : 0;

    if (failed == 0 && report->passed)
      verdict = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The access pattern passed: one request, one page",
                                              "All %u access patterns passed: one request and one page each", n), n);
    else if (failed == 0)
      verdict = g_strdup (_("Every access pattern passed, but there are findings"));
    else
      verdict = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u access patterns failed",
                                              "%u of %u access patterns failed", n), failed, n);
    gtk_box_append (self->check_box, new_wrapped_label (verdict, "title-4", report->passed ? "success" : "error", NULL));
  }
  self->cost_text = report_cost (report);
  gtk_box_append (self->check_box, new_wrapped_label (self->cost_text, "dim-label", NULL));
  if (self->report_stale)
    gtk_box_append (self->check_box, new_wrapped_label (_("The model changed since this check: check again."),
                                                        "warning", NULL));

  card = new_card ();
  grid = gtk_grid_new ();
  gtk_widget_set_name (grid, "design-check-grid");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 10);
  gtk_widget_set_margin_bottom (grid, 10);
  /* Not in a sideways scroller: the problems wrap to the card's width. */
  gtk_box_append (GTK_BOX (card), grid);
  for (guint c = 0; heads[c] != NULL; c++)
    {
      GtkWidget *label = new_label (_(heads[c]), "heading", NULL);

      if (c >= 2 && c <= 5)
        gtk_label_set_xalign (GTK_LABEL (label), 1);
      gtk_grid_attach (GTK_GRID (grid), label, c, row, 1, 1);
    }
  row++;
  gtk_grid_attach (GTK_GRID (grid), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL), 0, row++, 7, 1);
  for (guint i = 0; report->results && i < report->results->len; i++)
    {
      DynDesignCheckResult *result = report->results->pdata[i];
      g_autofree char *op = result->index ? g_strdup_printf (_("%s on %s"), dyn_operation_get_name (result->operation),
                                                             result->index)
                                          : g_strdup (dyn_operation_get_name (result->operation));
      g_autofree char *requests = g_strdup_printf ("%u", result->requests);
      g_autofree char *pages = g_strdup_printf ("%u", result->pages);
      g_autofree char *rcu = format_units (result->read_units);
      g_autofree char *items = g_strdup_printf ("%u", result->items);
      GtkWidget *verdict;

      attach_cell (GTK_GRID (grid), result->pattern, 0, row, FALSE);
      attach_cell (GTK_GRID (grid), op, 1, row, FALSE);
      attach_cell (GTK_GRID (grid), requests, 2, row, TRUE);
      attach_cell (GTK_GRID (grid), pages, 3, row, TRUE);
      attach_cell (GTK_GRID (grid), rcu, 4, row, TRUE);
      attach_cell (GTK_GRID (grid), items, 5, row, TRUE);
      if (result->passed)
        verdict = new_label (_("✓ passed"), "success", NULL);
      else
        {
          g_autofree char *text = g_strdup_printf (_("✗ %s"), result->problem ? result->problem : _("failed"));

          verdict = new_wrapped_label (text, "error", NULL);
          gtk_label_set_width_chars (GTK_LABEL (verdict), 20);
          gtk_label_set_max_width_chars (GTK_LABEL (verdict), 60);
        }
      gtk_widget_set_hexpand (verdict, TRUE);
      gtk_grid_attach (GTK_GRID (grid), verdict, 6, row, 1, 1);
      row++;
    }
  gtk_box_append (self->check_box, card);

  if (report->findings != NULL && report->findings->len > 0)
    {
      gtk_box_append (self->check_box, new_label (_("Findings"), "heading", NULL));
      list = gtk_list_box_new ();
      gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
      gtk_widget_add_css_class (list, "boxed-list");
      for (guint i = 0; i < report->findings->len; i++)
        gtk_list_box_append (GTK_LIST_BOX (list), decision_row (report->findings->pdata[i]));
      gtk_box_append (self->check_box, list);
    }
}

/* ------------------------------------------------------------------------ */
/* Drafting */

static DynDesignEntity *
selected_entity (DynDesignView *self)
{
  if (self->model == NULL || self->selected == NULL)
    return NULL;
  return dyn_design_model_find_entity (self->model, self->selected);
}

static char *
entity_keys_text (DynDesignView *self,
                  const char    *entity)
{
  const DynDesignPlacement *placement = self->plan ? dyn_design_plan_find_placement (self->plan, entity) : NULL;
  GString *s;

  if (placement == NULL || placement->keys == NULL)
    return g_strdup ("");
  s = g_string_new (NULL);
  for (guint i = 0; i < placement->keys->len; i++)
    {
      DynDesignKey *key = placement->keys->pdata[i];

      if (s->len > 0)
        g_string_append (s, "  ");
      g_string_append (s, key->template);
    }
  return g_string_free (s, FALSE);
}

static void
update_entity_rows (DynDesignView *self)
{
  guint i = 0;

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->entity_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row), i++)
    {
      GtkWidget *box, *name, *keys;
      DynDesignEntity *entity;
      g_autofree char *text = NULL;

      if (!GTK_IS_LIST_BOX_ROW (row) || self->model == NULL || i >= self->model->entities->len)
        continue;
      entity = self->model->entities->pdata[i];
      box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));
      name = gtk_widget_get_first_child (box);
      keys = gtk_widget_get_next_sibling (name);
      gtk_label_set_text (GTK_LABEL (name), entity->name);
      text = entity_keys_text (self, entity->name);
      gtk_label_set_text (GTK_LABEL (keys), text);
      gtk_widget_set_visible (keys, *text != '\0');
    }
  if (self->selected != NULL)
    {
      g_autofree char *text = entity_keys_text (self, self->selected);
      g_autofree char *line = *text ? g_strdup_printf (_("Keys in the plan: %s"), text) : g_strdup ("");

      gtk_label_set_text (self->entity_keys_label, line);
    }
}

static void
update_titles (DynDesignView *self)
{
  g_autofree char *counts = NULL;

  if (self->model == NULL)
    return;
  gtk_label_set_text (self->title_label, self->model->name ? self->model->name : _("Unnamed Design"));
  {
    guint e = self->model->entities->len, r = self->model->relationships->len, p = self->model->patterns->len;
    g_autofree char *entities = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u entity", "%u entities", e), e);
    g_autofree char *relationships = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u relationship",
                                                                   "%u relationships", r), r);
    g_autofree char *patterns = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u access pattern",
                                                              "%u access patterns", p), p);

    counts = g_strdup_printf ("%s · %s · %s", entities, relationships, patterns);
  }
  if (self->model->description != NULL && *self->model->description != '\0')
    {
      g_autofree char *text = g_strdup_printf ("%s — %s", counts, self->model->description);

      gtk_label_set_text (self->subtitle_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), self->model->description);
    }
  else
    gtk_label_set_text (self->subtitle_label, counts);
}

static void
redraft (DynDesignView *self)
{
  g_autoptr(GError) error = NULL;
  DynDesignPlan *plan = NULL;

  if (self->model != NULL)
    {
      plan = dyn_design_draft (self->model, &error);
      self->n_drafts++;
    }
  g_clear_error (&self->draft_error);
  if (plan != NULL || self->model == NULL)
    {
      g_clear_pointer (&self->examples, g_ptr_array_unref);
      g_clear_pointer (&self->plan, dyn_design_plan_free);
      self->plan = plan;
      if (plan != NULL)
        self->examples = dyn_design_examples (self->model, plan,
                                              self->model->examples_per_parent ? self->model->examples_per_parent : 3, 1);
    }
  else
    /* The last plan stays on screen, under the error. */
    self->draft_error = g_steal_pointer (&error);

  gtk_widget_set_visible (GTK_WIDGET (self->draft_error_label), self->draft_error != NULL);
  if (self->draft_error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The model does not draft: %s"), self->draft_error->message);

      gtk_label_set_text (self->draft_error_label, text);
    }
  else
    {
      render_plan (self);
      render_patterns (self);
      render_examples (self);
    }
  update_entity_rows (self);
  update_titles (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* An edit of the model: drafts again, the check's report is now stale. */
static void
edited (DynDesignView *self)
{
  if (self->report != NULL)
    self->report_stale = TRUE;
  redraft (self);
  if (self->report != NULL)
    render_check (self);
}

/* The examples' children per parent: the model's examplesPerParent, so
 * that the check writes what the page shows. */
static void
per_parent_changed_cb (GtkSpinButton *spin,
                       DynDesignView *self)
{
  guint n = (guint) gtk_spin_button_get_value_as_int (spin);

  if (self->model == NULL || self->syncing_per_parent)
    return;
  if ((self->model->examples_per_parent ? self->model->examples_per_parent : 3) == n)
    return;
  self->model->examples_per_parent = n;
  edited (self);
}

static void
sync_per_parent (DynDesignView *self)
{
  self->syncing_per_parent = TRUE;
  gtk_spin_button_set_value (self->per_parent_spin,
                             self->model && self->model->examples_per_parent ? self->model->examples_per_parent : 3);
  self->syncing_per_parent = FALSE;
}

/* ------------------------------------------------------------------------ */
/* The entity list and editor */

static GtkWidget *
entity_row (DynDesignEntity *entity)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *keys;

  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_box_append (GTK_BOX (box), new_label (entity->name, NULL));
  keys = new_label ("", "caption", "dim-label", "monospace", NULL);
  gtk_label_set_ellipsize (GTK_LABEL (keys), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), keys);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
fill_entity_list (DynDesignView *self)
{
  GtkWidget *child;
  guint selected = G_MAXUINT;

  self->updating = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->entity_list))) != NULL)
    gtk_list_box_remove (self->entity_list, child);
  for (guint i = 0; self->model && i < self->model->entities->len; i++)
    {
      DynDesignEntity *entity = self->model->entities->pdata[i];

      gtk_list_box_append (self->entity_list, entity_row (entity));
      if (g_strcmp0 (entity->name, self->selected) == 0)
        selected = i;
    }
  if (selected == G_MAXUINT && self->model && self->model->entities->len > 0)
    {
      selected = 0;
      g_free (self->selected);
      self->selected = g_strdup (((DynDesignEntity *) self->model->entities->pdata[0])->name);
    }
  else if (selected == G_MAXUINT)
    g_clear_pointer (&self->selected, g_free);
  if (selected != G_MAXUINT)
    gtk_list_box_select_row (self->entity_list, gtk_list_box_get_row_at_index (self->entity_list, selected));
  self->updating = FALSE;
  fill_editor (self);
}

static void
entity_selected_cb (GtkListBox    *list,
                    GtkListBoxRow *row,
                    DynDesignView *self)
{
  int i;

  if (self->updating || row == NULL || self->model == NULL)
    return;
  i = gtk_list_box_row_get_index (row);
  if (i < 0 || (guint) i >= self->model->entities->len)
    return;
  g_free (self->selected);
  self->selected = g_strdup (((DynDesignEntity *) self->model->entities->pdata[i])->name);
  fill_editor (self);
  update_entity_rows (self);
}

static void
attribute_name_changed_cb (GtkEditable   *editable,
                           DynDesignView *self)
{
  DynDesignAttribute *attribute = g_object_get_data (G_OBJECT (editable), "dyn-attribute");
  DynDesignEntity *entity = selected_entity (self);
  const char *text = gtk_editable_get_text (editable);
  DynDesignAttribute *other;

  if (self->updating || entity == NULL || attribute == NULL)
    return;
  other = *text ? dyn_design_entity_find_attribute (entity, text) : NULL;
  if (*text == '\0' || (other != NULL && other != attribute))
    {
      gtk_widget_add_css_class (GTK_WIDGET (editable), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
  dyn_design_model_rename_attribute (self->model, entity, attribute->name, text);
  self->updating = TRUE;
  {
    g_autofree char *id = entity->id ? g_strjoinv (", ", entity->id) : g_strdup ("");

    if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->id_row)), id) != 0)
      gtk_editable_set_text (GTK_EDITABLE (self->id_row), id);
  }
  self->updating = FALSE;
  edited (self);
}

static void
attribute_type_changed_cb (GtkDropDown   *dropdown,
                           GParamSpec    *pspec,
                           DynDesignView *self)
{
  DynDesignAttribute *attribute = g_object_get_data (G_OBJECT (dropdown), "dyn-attribute");
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating || attribute == NULL || selected >= G_N_ELEMENTS (attribute_types) - 1)
    return;
  g_free (attribute->type);
  attribute->type = g_strdup (attribute_types[selected]);
  edited (self);
}

static void
attribute_remove_cb (GtkButton     *button,
                     DynDesignView *self)
{
  DynDesignAttribute *attribute = g_object_get_data (G_OBJECT (button), "dyn-attribute");
  DynDesignEntity *entity = selected_entity (self);

  if (entity == NULL || attribute == NULL)
    return;
  g_ptr_array_remove (entity->attributes, attribute);
  fill_editor (self);
  edited (self);
}

static GtkWidget *
attribute_row (DynDesignView      *self,
               DynDesignAttribute *attribute)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *types = gtk_drop_down_new_from_strings (attribute_types);
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  guint type = 0;

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_editable_set_text (GTK_EDITABLE (entry), attribute->name);
  gtk_widget_set_hexpand (entry, TRUE);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 8);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Attribute name"), -1);
  g_object_set_data (G_OBJECT (entry), "dyn-attribute", attribute);
  g_signal_connect (entry, "changed", G_CALLBACK (attribute_name_changed_cb), self);
  for (guint i = 0; attribute_types[i] != NULL; i++)
    if (g_strcmp0 (attribute_types[i], attribute->type) == 0)
      type = i;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (types), type);
  gtk_widget_set_tooltip_text (types, _("The attribute’s DynamoDB type"));
  g_object_set_data (G_OBJECT (types), "dyn-attribute", attribute);
  g_signal_connect (types, "notify::selected", G_CALLBACK (attribute_type_changed_cb), self);
  gtk_widget_set_tooltip_text (remove, _("Remove the attribute"));
  gtk_widget_add_css_class (remove, "flat");
  g_object_set_data (G_OBJECT (remove), "dyn-attribute", attribute);
  g_signal_connect (remove, "clicked", G_CALLBACK (attribute_remove_cb), self);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_box_append (GTK_BOX (box), types);
  gtk_box_append (GTK_BOX (box), remove);
  return box;
}

static void
fill_parents (DynDesignView   *self,
              DynDesignEntity *entity)
{
  const char *parent = dyn_design_model_get_parent (self->model, entity->name);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->parent_names));
  guint selected = 0;

  gtk_string_list_splice (self->parent_names, 0, n, NULL);
  gtk_string_list_append (self->parent_names, _("None"));
  for (guint i = 0; i < self->model->entities->len; i++)
    {
      DynDesignEntity *other = self->model->entities->pdata[i];

      if (other == entity)
        continue;
      gtk_string_list_append (self->parent_names, other->name);
      if (g_strcmp0 (other->name, parent) == 0)
        selected = g_list_model_get_n_items (G_LIST_MODEL (self->parent_names)) - 1;
    }
  gtk_drop_down_set_selected (self->parent_dropdown, selected);
}

static void
fill_editor (DynDesignView *self)
{
  DynDesignEntity *entity = selected_entity (self);
  GtkWidget *child;
  g_autofree char *id = NULL;

  self->updating = TRUE;
  gtk_widget_set_sensitive (self->editor_box, entity != NULL);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->attribute_list))) != NULL)
    gtk_list_box_remove (self->attribute_list, child);
  if (entity == NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->name_row), "");
      gtk_editable_set_text (GTK_EDITABLE (self->id_row), "");
      self->updating = FALSE;
      return;
    }
  gtk_editable_set_text (GTK_EDITABLE (self->name_row), entity->name);
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");
  id = entity->id ? g_strjoinv (", ", entity->id) : g_strdup ("");
  gtk_editable_set_text (GTK_EDITABLE (self->id_row), id);
  fill_parents (self, entity);
  for (guint i = 0; i < entity->attributes->len; i++)
    gtk_list_box_append (self->attribute_list, attribute_row (self, entity->attributes->pdata[i]));
  self->updating = FALSE;
}

static void
name_changed_cb (GtkEditable   *editable,
                 DynDesignView *self)
{
  DynDesignEntity *entity = selected_entity (self);
  const char *text = gtk_editable_get_text (editable);
  DynDesignEntity *other;

  if (self->updating || entity == NULL)
    return;
  other = *text ? dyn_design_model_find_entity (self->model, text) : NULL;
  if (*text == '\0' || (other != NULL && other != entity))
    {
      gtk_widget_add_css_class (GTK_WIDGET (editable), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
  dyn_design_model_rename_entity (self->model, entity->name, text);
  g_free (self->selected);
  self->selected = g_strdup (text);
  edited (self);
}

static void
id_changed_cb (GtkEditable   *editable,
               DynDesignView *self)
{
  DynDesignEntity *entity = selected_entity (self);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  if (self->updating || entity == NULL)
    return;
  parts = g_strsplit (gtk_editable_get_text (editable), ",", -1);
  builder = g_strv_builder_new ();
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (*parts[i] != '\0')
        g_strv_builder_add (builder, parts[i]);
    }
  g_strfreev (entity->id);
  entity->id = g_strv_builder_end (builder);
  edited (self);
}

static void
parent_selected_cb (GtkDropDown   *dropdown,
                    GParamSpec    *pspec,
                    DynDesignView *self)
{
  DynDesignEntity *entity = selected_entity (self);
  guint selected = gtk_drop_down_get_selected (dropdown);
  const char *parent = NULL;

  if (self->updating || entity == NULL || selected == GTK_INVALID_LIST_POSITION)
    return;
  if (selected > 0)
    parent = gtk_string_list_get_string (self->parent_names, selected);
  if (g_strcmp0 (parent, dyn_design_model_get_parent (self->model, entity->name)) == 0)
    return;
  dyn_design_model_set_parent (self->model, entity->name, parent);
  edited (self);
}

static void
add_entity_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynDesignView *self = DYN_DESIGN_VIEW (widget);
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;
  DynDesignEntity *entity;
  DynDesignAttribute *attribute;

  if (self->model == NULL)
    return;
  name = dyn_design_model_new_entity_name (self->model, _("Entity"));
  entity = dyn_design_entity_new (name);
  id = g_strdup_printf ("%c%sId", g_ascii_tolower (name[0]), name + 1);
  attribute = dyn_design_attribute_new (id, "S");
  attribute->required = TRUE;
  g_ptr_array_add (entity->attributes, attribute);
  g_strfreev (entity->id);
  entity->id = g_strdupv ((char *[]) { id, NULL });
  g_ptr_array_add (self->model->entities, entity);
  g_free (self->selected);
  self->selected = g_strdup (name);
  fill_entity_list (self);
  edited (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
remove_entity_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynDesignView *self = DYN_DESIGN_VIEW (widget);

  if (selected_entity (self) == NULL)
    return;
  dyn_design_model_remove_entity (self->model, self->selected);
  g_clear_pointer (&self->selected, g_free);
  fill_entity_list (self);
  sync_per_parent (self);
  edited (self);
}

static void
add_attribute_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  DynDesignView *self = DYN_DESIGN_VIEW (widget);
  DynDesignEntity *entity = selected_entity (self);
  g_autofree char *name = NULL;

  if (entity == NULL)
    return;
  for (guint n = 1; name == NULL || dyn_design_entity_find_attribute (entity, name) != NULL; n++)
    {
      g_free (name);
      name = n == 1 ? g_strdup ("attribute") : g_strdup_printf ("attribute%u", n);
    }
  g_ptr_array_add (entity->attributes, dyn_design_attribute_new (name, "S"));
  fill_editor (self);
  edited (self);
}

static void
language_selected_cb (GtkDropDown   *dropdown,
                      GParamSpec    *pspec,
                      DynDesignView *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (selected >= DYN_SNIPPET_N_LANGUAGES || (DynSnippetLanguage) selected == self->language)
    return;
  self->language = selected;
  update_snippets (self);
}

static void
update_actions (DynDesignView *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "design.add-entity", self->model != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "design.remove-entity", selected_entity (self) != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "design.add-attribute", selected_entity (self) != NULL);
}

static void
changed_update_actions_cb (DynDesignView *self)
{
  update_actions (self);
}

/* ------------------------------------------------------------------------ */
/* GObject */

static void
dyn_design_view_dispose (GObject *object)
{
  DynDesignView *self = DYN_DESIGN_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_DESIGN_VIEW);
  G_OBJECT_CLASS (dyn_design_view_parent_class)->dispose (object);
  g_clear_object (&self->parent_names);
  g_clear_object (&self->table_names);
}

static void
dyn_design_view_finalize (GObject *object)
{
  DynDesignView *self = DYN_DESIGN_VIEW (object);

  g_clear_pointer (&self->examples, g_ptr_array_unref);
  g_clear_pointer (&self->plan, dyn_design_plan_free);
  g_clear_pointer (&self->model, dyn_design_model_free);
  g_clear_pointer (&self->report, dyn_design_check_report_free);
  g_clear_error (&self->draft_error);
  g_free (self->check_error);
  g_free (self->cost_text);
  g_free (self->selected);
  g_free (self->endpoint);
  g_free (self->region);
  g_ptr_array_unref (self->snippet_views);
  g_ptr_array_unref (self->snippets);
  g_hash_table_unref (self->plan_cells);
  G_OBJECT_CLASS (dyn_design_view_parent_class)->finalize (object);
}

static void
dyn_design_view_class_init (DynDesignViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dyn_design_view_dispose;
  object_class->finalize = dyn_design_view_finalize;

  /**
   * DynDesignView::changed:
   *
   * The model was edited (or set) and drafted again.
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                          NULL, NULL, NULL, G_TYPE_NONE, 0);

  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-design-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, title_label);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, entity_list);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, editor_box);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, name_row);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, id_row);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, parent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, attribute_list);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, entity_keys_label);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, draft_error_label);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, pages);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, plan_box);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, patterns_box);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, examples_box);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, per_parent_spin);
  gtk_widget_class_bind_template_callback (widget_class, per_parent_changed_cb);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, check_box);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, language_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, table_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, check_spinner);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DynDesignView, cancel_button);

  gtk_widget_class_install_action (widget_class, "design.add-entity", NULL, add_entity_action);
  gtk_widget_class_install_action (widget_class, "design.remove-entity", NULL, remove_entity_action);
  gtk_widget_class_install_action (widget_class, "design.add-attribute", NULL, add_attribute_action);
}

static void
dyn_design_view_init (DynDesignView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The bin's child: not a template child (AdwBin unparents it itself). */
  self->outer_stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));

  self->language = DYN_SNIPPET_CLI;
  self->snippet_views = g_ptr_array_new ();
  self->snippets = g_ptr_array_new_with_free_func (g_free);
  self->plan_cells = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->parent_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->parent_dropdown, G_LIST_MODEL (self->parent_names));
  self->table_names = gtk_string_list_new ((const char *[]) { _("A Scratch Table From the Plan"), NULL });
  gtk_drop_down_set_model (self->table_dropdown, G_LIST_MODEL (self->table_names));

  g_signal_connect (self->entity_list, "row-selected", G_CALLBACK (entity_selected_cb), self);
  g_signal_connect (self->name_row, "changed", G_CALLBACK (name_changed_cb), self);
  g_signal_connect (self->id_row, "changed", G_CALLBACK (id_changed_cb), self);
  g_signal_connect (self->parent_dropdown, "notify::selected", G_CALLBACK (parent_selected_cb), self);
  g_signal_connect (self->language_dropdown, "notify::selected", G_CALLBACK (language_selected_cb), self);
  g_signal_connect (self, "changed", G_CALLBACK (changed_update_actions_cb), NULL);
  gtk_stack_set_visible_child_name (self->outer_stack, "empty");
  render_check (self);
  update_actions (self);
}

/* ------------------------------------------------------------------------ */
/* API */

GtkWidget *
dyn_design_view_new (void)
{
  return g_object_new (DYN_TYPE_DESIGN_VIEW, NULL);
}

void
dyn_design_view_set_model (DynDesignView  *self,
                           DynDesignModel *model)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  if (model == self->model)
    return;
  g_clear_pointer (&self->model, dyn_design_model_free);
  self->model = model;
  g_clear_pointer (&self->selected, g_free);
  g_clear_pointer (&self->report, dyn_design_check_report_free);
  g_clear_pointer (&self->check_error, g_free);
  self->report_stale = FALSE;
  self->n_drafts = 0;
  gtk_stack_set_visible_child_name (self->outer_stack, model ? "design" : "empty");
  fill_entity_list (self);
  sync_per_parent (self);
  redraft (self);
  render_check (self);
  update_actions (self);
}

DynDesignModel *
dyn_design_view_get_model (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->model;
}

void
dyn_design_view_model_changed (DynDesignView *self)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  fill_entity_list (self);
  edited (self);
}

const DynDesignPlan *
dyn_design_view_get_plan (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->plan;
}

const GError *
dyn_design_view_get_draft_error (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->draft_error;
}

GPtrArray *
dyn_design_view_get_examples (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->examples;
}

guint
dyn_design_view_get_n_drafts (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), 0);
  return self->n_drafts;
}

void
dyn_design_view_set_page (DynDesignView *self,
                          const char    *page)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  if (gtk_stack_get_child_by_name (self->pages, page) != NULL)
    gtk_stack_set_visible_child_name (self->pages, page);
}

const char *
dyn_design_view_get_page (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return gtk_stack_get_visible_child_name (self->pages);
}

gboolean
dyn_design_view_select_entity (DynDesignView *self,
                               const char    *name)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), FALSE);

  for (guint i = 0; self->model && i < self->model->entities->len; i++)
    if (g_strcmp0 (((DynDesignEntity *) self->model->entities->pdata[i])->name, name) == 0)
      {
        gtk_list_box_select_row (self->entity_list, gtk_list_box_get_row_at_index (self->entity_list, i));
        return TRUE;
      }
  return FALSE;
}

const char *
dyn_design_view_get_selected_entity (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->selected;
}

GtkEditable *
dyn_design_view_get_name_editable (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_EDITABLE (self->name_row);
}

GtkEditable *
dyn_design_view_get_id_editable (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_EDITABLE (self->id_row);
}

GtkEditable *
dyn_design_view_get_attribute_editable (DynDesignView *self,
                                        guint          i)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);

  row = gtk_list_box_get_row_at_index (self->attribute_list, i);
  if (row == NULL)
    return NULL;
  return GTK_EDITABLE (gtk_widget_get_first_child (gtk_list_box_row_get_child (row)));
}

GtkWidget *
dyn_design_view_get_plan_widget (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_WIDGET (self->plan_box);
}

GtkWidget *
dyn_design_view_get_patterns_widget (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_WIDGET (self->patterns_box);
}

GtkWidget *
dyn_design_view_get_examples_widget (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_WIDGET (self->examples_box);
}

GtkWidget *
dyn_design_view_get_check_widget (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return GTK_WIDGET (self->check_box);
}

const char *
dyn_design_view_get_plan_cell (DynDesignView *self,
                               const char    *entity,
                               const char    *attribute)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);

  key = g_strdup_printf ("%s\037%s", entity, attribute);
  return g_hash_table_lookup (self->plan_cells, key);
}

void
dyn_design_view_set_snippet_language (DynDesignView      *self,
                                      DynSnippetLanguage  lang)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));
  g_return_if_fail (lang < DYN_SNIPPET_N_LANGUAGES);

  gtk_drop_down_set_selected (self->language_dropdown, lang);
}

DynSnippetLanguage
dyn_design_view_get_snippet_language (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), DYN_SNIPPET_CLI);
  return self->language;
}

void
dyn_design_view_set_endpoint (DynDesignView *self,
                              const char    *endpoint,
                              const char    *region)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  if (g_strcmp0 (endpoint, self->endpoint) == 0 && g_strcmp0 (region, self->region) == 0)
    return;
  g_free (self->endpoint);
  self->endpoint = g_strdup (endpoint);
  g_free (self->region);
  self->region = g_strdup (region);
  update_snippets (self);
}

const char *
dyn_design_view_get_snippet (DynDesignView *self,
                             guint          i)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return i < self->snippets->len ? self->snippets->pdata[i] : NULL;
}

void
dyn_design_view_set_tables (DynDesignView      *self,
                            const char * const *tables)
{
  g_autofree char *chosen = NULL;
  guint n, selected = 0;

  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  chosen = g_strdup (dyn_design_view_get_check_table (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (self->table_names));
  gtk_string_list_splice (self->table_names, 1, n - 1, tables);
  for (guint i = 0; chosen && tables && tables[i]; i++)
    if (g_str_equal (tables[i], chosen))
      selected = i + 1;
  gtk_drop_down_set_selected (self->table_dropdown, selected);
}

const char *
dyn_design_view_get_check_table (DynDesignView *self)
{
  guint selected;

  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);

  selected = gtk_drop_down_get_selected (self->table_dropdown);
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION)
    return NULL;
  return gtk_string_list_get_string (self->table_names, selected);
}

void
dyn_design_view_set_check_table (DynDesignView *self,
                                 const char    *table)
{
  guint n;

  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->table_names));
  for (guint i = 1; table != NULL && i < n; i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->table_names, i), table) == 0)
      {
        gtk_drop_down_set_selected (self->table_dropdown, i);
        return;
      }
  gtk_drop_down_set_selected (self->table_dropdown, 0);
}

void
dyn_design_view_set_progress (DynDesignView *self,
                              const char    *message)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  gtk_label_set_text (self->progress_label, message ? message : "");
  gtk_spinner_set_spinning (self->check_spinner, message != NULL);
  gtk_widget_set_visible (self->cancel_button, message != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->table_dropdown), message == NULL);
}

const char *
dyn_design_view_get_progress (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);

  return gtk_spinner_get_spinning (self->check_spinner) ? gtk_label_get_text (self->progress_label) : NULL;
}

void
dyn_design_view_set_report (DynDesignView        *self,
                            DynDesignCheckReport *report)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  g_clear_pointer (&self->report, dyn_design_check_report_free);
  g_clear_pointer (&self->check_error, g_free);
  self->report = report;
  self->report_stale = FALSE;
  render_check (self);
}

void
dyn_design_view_set_check_error (DynDesignView *self,
                                 const char    *message)
{
  g_return_if_fail (DYN_IS_DESIGN_VIEW (self));

  g_free (self->check_error);
  self->check_error = g_strdup (message);
  render_check (self);
}

const DynDesignCheckReport *
dyn_design_view_get_report (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->report;
}

const char *
dyn_design_view_get_cost_text (DynDesignView *self)
{
  g_return_val_if_fail (DYN_IS_DESIGN_VIEW (self), NULL);
  return self->cost_text;
}
