/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expression-builder"
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-expr-condition-row.h"
#include "dyn-expr-group-row.h"
#include "dyn-expr-update-row.h"
#include "dyn-expression-builder.h"
#include "dyn-expression-builder-private.h"
#include "dyn-widgets-enums.h"
#include "dyn-widgets-private.h"

#define PARSE_DELAY_MS 350

struct _DynExpressionBuilder
{
  AdwBin              parent_instance;

  DynExprRole         kind;
  DynTableKeys       *table;
  char               *index;
  DynSnippetLanguage  language;
  char               *endpoint;
  char               *region;
  GtkListStore       *completion;
  GHashTable         *known;            /* attribute names seen */
  DynExprNode        *node;             /* what the rows (or the raw text) say */
  DynExprNode        *raw_node;         /* text rows cannot show */
  DynExprNode        *parsed_node;      /* the text as last parsed (offsets into it) */
  DynExprContext     *context;          /* the valid compilation, or NULL */
  DynReadRequest     *read;             /* reads: the one object behind plan, output and Run */
  gint64              page_size;        /* the window's: the first page's Limit */
  gint64              read_page_size;   /* the user's for this read: every page's; -1: page_size */
  char               *projection;       /* the attributes to read, as typed */
  GPtrArray          *key_rows;         /* AdwEntryRow per key attribute of the table */
  gboolean            by_key;           /* reads: a GetItem of the key in the form */
  gboolean            consistent_read;
  gboolean            descending;
  gboolean            count_only;
  char               *action_name;      /* what Ctrl+Enter runs (GtkActionable) */
  GVariant           *action_target;
  GPtrArray          *messages;         /* NULL-terminated */
  char               *parse_error;
  char               *plan;
  char               *snippet;
  guint               parse_source;
  guint               freeze;
  guint               refreshing : 1;
  guint               text_is_source : 1;
  guint               setting_text : 1;
  guint               updating_index : 1;
  guint               rows_edited : 1;
  guint               stale : 1;
  guint               updating_options : 1;

  DynExprGroupRow    *root;

  AdwToastOverlay    *toast_overlay;
  GtkBox             *read_box;
  GtkToggleButton    *find_button;
  GtkToggleButton    *get_button;
  GtkBox             *key_box;
  GtkListBox         *key_list;
  GtkBox             *expression_box;
  GtkBox             *options_box;
  GtkEntry           *projection_entry;
  GtkCheckButton     *consistent_check;
  GtkWidget          *descending_check;
  GtkWidget          *count_check;
  GtkWidget          *page_size_box;
  GtkSpinButton      *page_size_spin;
  GtkLabel           *page_size_hint_label;
  GtkLabel           *options_note_label;
  GtkLabel           *projection_field_label;
  GtkLabel           *projection_expression_label;
  GtkBox             *index_box;
  GtkDropDown        *index_dropdown;
  GtkTextView        *text_view;
  GtkLabel           *parse_error_label;
  GtkLabel           *raw_label;
  AdwBin             *rows_bin;
  GtkLabel           *stale_label;
  GtkLabel           *field_label;
  GtkLabel           *expression_label;
  GtkLabel           *filter_field_label;
  GtkLabel           *filter_expression_label;
  GtkLabel           *names_label;
  GtkLabel           *values_label;
  GtkBox             *plan_box;
  GtkLabel           *plan_label;
  GtkLabel           *plan_reason_label;
  GtkBox             *plan_suggestion_box;
  GtkLabel           *plan_suggestion_label;
  GtkLabel           *problems_label;
  GtkDropDown        *language_dropdown;
  GtkTextView        *snippet_view;
};

enum {
  PROP_0,
  PROP_KIND,
  PROP_INDEX,
  PROP_SNIPPET_LANGUAGE,
  PROP_EXPRESSION,
  PROP_VALID,
  PROP_PARSE_ERROR,
  PROP_SNIPPET,
  PROP_STALE,
  PROP_READ_REQUEST,
  PROP_PAGE_SIZE,
  PROP_READ_PAGE_SIZE,
  PROP_BY_KEY,
  PROP_CONSISTENT_READ,
  PROP_DESCENDING,
  PROP_COUNT_ONLY,
  PROP_PROJECTION,
  N_PROPS,
  PROP_ACTION_NAME,
  PROP_ACTION_TARGET,
};

static void dyn_expression_builder_actionable_init (GtkActionableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DynExpressionBuilder, dyn_expression_builder, ADW_TYPE_BIN,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_ACTIONABLE, dyn_expression_builder_actionable_init))

static GParamSpec *properties[N_PROPS];

static const DynExprRowOp key_partition_ops[] = { DYN_EXPR_ROW_EQ };
static const DynExprRowOp key_sort_ops[] = {
  DYN_EXPR_ROW_EQ, DYN_EXPR_ROW_LT, DYN_EXPR_ROW_LE, DYN_EXPR_ROW_GT, DYN_EXPR_ROW_GE,
  DYN_EXPR_ROW_BETWEEN, DYN_EXPR_ROW_BEGINS_WITH,
};
static const DynExprRowOp condition_ops[] = {
  DYN_EXPR_ROW_EQ, DYN_EXPR_ROW_NE, DYN_EXPR_ROW_LT, DYN_EXPR_ROW_LE, DYN_EXPR_ROW_GT, DYN_EXPR_ROW_GE,
  DYN_EXPR_ROW_BETWEEN, DYN_EXPR_ROW_IN, DYN_EXPR_ROW_BEGINS_WITH, DYN_EXPR_ROW_CONTAINS,
  DYN_EXPR_ROW_EXISTS, DYN_EXPR_ROW_NOT_EXISTS, DYN_EXPR_ROW_TYPE,
  DYN_EXPR_ROW_SIZE_EQ, DYN_EXPR_ROW_SIZE_NE, DYN_EXPR_ROW_SIZE_LT, DYN_EXPR_ROW_SIZE_LE,
  DYN_EXPR_ROW_SIZE_GT, DYN_EXPR_ROW_SIZE_GE,
};

static void refresh (DynExpressionBuilder *self);
static void parse_text (DynExpressionBuilder *self);

/* g_set_str() is GLib 2.76. */
static gboolean
set_str (char       **str,
         const char  *value)
{
  if (g_strcmp0 (*str, value) == 0)
    return FALSE;
  g_free (*str);
  *str = g_strdup (value);
  return TRUE;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* ------------------------------------------------------------------------ */
/* Helpers */

static const DynKeySchema *
index_keys (DynExpressionBuilder *self)
{
  const DynIndexInfo *info;

  if (self->table == NULL)
    return NULL;
  info = dyn_table_keys_lookup (self->table, self->index);
  return info != NULL ? &info->keys : &self->table->table.keys;
}

/* The key schema the compiler checks the kind against. */
static const DynKeySchema *
rule_keys (DynExpressionBuilder *self)
{
  switch (self->kind)
    {
    case DYN_EXPR_ROLE_KEY_CONDITION:
      return index_keys (self);
    case DYN_EXPR_ROLE_UPDATE:
      return self->table ? &self->table->table.keys : NULL;
    default:
      return NULL;
    }
}

static gboolean
has_groups (DynExprRole kind)
{
  return kind == DYN_EXPR_ROLE_FILTER || kind == DYN_EXPR_ROLE_CONDITION;
}

static gboolean
has_plan (DynExprRole kind)
{
  return kind == DYN_EXPR_ROLE_KEY_CONDITION || kind == DYN_EXPR_ROLE_FILTER;
}

/* Whether the read is from a global secondary index, which has no
 * strongly consistent reads. */
static gboolean
source_is_global (DynExpressionBuilder *self)
{
  const DynIndexInfo *info = self->table && self->index ? dyn_table_keys_lookup (self->table, self->index) : NULL;

  return info != NULL && info->kind == DYN_INDEX_GLOBAL;
}

static void
add_completion_name (DynExpressionBuilder *self,
                     GHashTable           *seen,
                     const char           *name)
{
  GtkTreeIter iter;

  if (name == NULL || !g_hash_table_add (seen, (gpointer) name))
    return;
  gtk_list_store_append (self->completion, &iter);
  gtk_list_store_set (self->completion, &iter, 0, name, -1);
}

static void
rebuild_completion (DynExpressionBuilder *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **known = NULL;

  gtk_list_store_clear (self->completion);
  if (self->table != NULL)
    {
      for (guint i = 0; self->table->indexes != NULL && i <= self->table->indexes->len; i++)
        {
          const DynKeySchema *keys = i == 0 ? &self->table->table.keys
                                            : &((const DynIndexInfo *) self->table->indexes->pdata[i - 1])->keys;

          /* Every attribute of a multi-attribute key. */
          for (guint k = 0; k < dyn_key_schema_get_n_partition_keys (keys); k++)
            add_completion_name (self, seen, dyn_key_schema_get_partition_key (keys, k, NULL));
          for (guint k = 0; k < dyn_key_schema_get_n_sort_keys (keys); k++)
            add_completion_name (self, seen, dyn_key_schema_get_sort_key (keys, k, NULL));
        }
    }
  known = (const char **) g_hash_table_get_keys_as_array (self->known, NULL);
  g_qsort_with_data (known, g_hash_table_size (self->known), sizeof (char *),
                     compare_names, NULL);
  for (guint i = 0; known[i] != NULL; i++)
    add_completion_name (self, seen, known[i]);
}

static void
collect_names (DynExpressionBuilder *self,
               DynExprNode          *node,
               gboolean             *added)
{
  if (dyn_expr_node_get_kind (node) == DYN_EXPR_PATH)
    {
      const DynExprPath *path = dyn_expr_node_get_path (node);
      gboolean placeholder = FALSE;
      const char *name = dyn_expr_path_get_name (path, 0, &placeholder);

      if (name != NULL && !placeholder && !g_hash_table_contains (self->known, name))
        {
          g_hash_table_add (self->known, g_strdup (name));
          *added = TRUE;
        }
      return;
    }
  for (guint i = 0; i < dyn_expr_node_get_n_children (node); i++)
    collect_names (self, dyn_expr_node_get_child (node, i), added);
}

static char *
pretty_json (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static DynValue *
sample_key_value (DynValueType type,
                  const char  *name)
{
  switch (type)
    {
    case DYN_VALUE_N:
      return dyn_value_new_number ("0", NULL);
    case DYN_VALUE_B:
      {
        g_autoptr(GBytes) bytes = g_bytes_new_static ("\0", 1);

        return dyn_value_new_binary (bytes);
      }
    default:
      {
        g_autofree char *text = g_strdup_printf ("<%s>", name);

        return dyn_value_new_string (text);
      }
    }
}

/* A key with placeholder values for the item requests a snippet shows. */
static DynValue *
sample_key (DynExpressionBuilder *self)
{
  DynValue *key = dyn_value_new_map ();
  const DynKeySchema *keys = self->table ? &self->table->table.keys : NULL;

  if (keys == NULL)
    {
      dyn_value_map_take (key, "PK", dyn_value_new_string ("<PK>"));
      return key;
    }
  dyn_value_map_take (key, keys->partition_key, sample_key_value (keys->partition_type, keys->partition_key));
  if (keys->sort_key != NULL)
    dyn_value_map_take (key, keys->sort_key, sample_key_value (keys->sort_type, keys->sort_key));
  return key;
}

/* The item request a snippet of a condition, update or projection shows
 * (reads have their DynReadRequest). */
static DynRequest *
build_request (DynExpressionBuilder *self)
{
  const char *table = self->table ? self->table->table.name : "MyTable";
  const char *expression = dyn_expression_builder_get_expression (self);
  DynRequest *request;

  switch (self->kind)
    {
    case DYN_EXPR_ROLE_CONDITION:
      request = dyn_request_new (DYN_OP_DELETE_ITEM, table);
      request->key = sample_key (self);
      request->condition = g_strdup (expression);
      break;
    case DYN_EXPR_ROLE_UPDATE:
      request = dyn_request_new (DYN_OP_UPDATE_ITEM, table);
      request->key = sample_key (self);
      request->update = g_strdup (expression);
      break;
    case DYN_EXPR_ROLE_PROJECTION:
    default:
      request = dyn_request_new (DYN_OP_GET_ITEM, table);
      request->key = sample_key (self);
      request->projection = g_strdup (expression);
      break;
    }

  if (self->context != NULL)
    {
      for (guint i = 0; i < dyn_expr_context_get_n_names (self->context); i++)
        {
          const char *attribute = NULL;
          const char *placeholder = dyn_expr_context_get_name (self->context, i, &attribute);

          dyn_request_add_name (request, placeholder, attribute);
        }
      for (guint i = 0; i < dyn_expr_context_get_n_values (self->context); i++)
        {
          DynValue *value = NULL;
          const char *placeholder = dyn_expr_context_get_value (self->context, i, &value);

          dyn_request_add_value (request, placeholder, value);
        }
    }
  return request;
}

/* ------------------------------------------------------------------------ */
/* Rows */

static void
update_row_operators (DynExpressionBuilder *self,
                      DynExprGroupRow      *group)
{
  const DynKeySchema *keys = index_keys (self);
  guint n = dyn_expr_group_row_get_n_items (group);

  for (guint i = 0; i < n; i++)
    {
      GtkWidget *item = dyn_expr_group_row_get_item (group, i);
      DynExprConditionRow *row;
      g_autofree char *path = NULL;

      if (DYN_IS_EXPR_GROUP_ROW (item))
        {
          update_row_operators (self, DYN_EXPR_GROUP_ROW (item));
          continue;
        }
      if (!DYN_IS_EXPR_CONDITION_ROW (item))
        continue;
      row = DYN_EXPR_CONDITION_ROW (item);
      if (dyn_expr_condition_row_get_projection (row))
        continue;
      path = g_strstrip (g_strdup (dyn_expr_condition_row_get_path (row)));

      if (self->kind == DYN_EXPR_ROLE_KEY_CONDITION)
        {
          gboolean is_sort = TRUE;
          gboolean partition = keys != NULL ? dyn_key_schema_find (keys, path, &is_sort, NULL, NULL) && !is_sort
                                            : i == 0;

          if (partition)
            dyn_expr_condition_row_set_allowed_operators (row, key_partition_ops,
                                                          G_N_ELEMENTS (key_partition_ops));
          else
            dyn_expr_condition_row_set_allowed_operators (row, key_sort_ops, G_N_ELEMENTS (key_sort_ops));
        }
      else
        dyn_expr_condition_row_set_allowed_operators (row, condition_ops, G_N_ELEMENTS (condition_ops));

      {
        DynValueType type;

        if (keys != NULL && dyn_key_schema_find (keys, path, NULL, NULL, &type))
          dyn_expr_condition_row_suggest_type (row, type);
      }
    }
}

/* The row or non-root group that holds the focus. */
static GtkWidget *
focused_item (DynExpressionBuilder *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  for (GtkWidget *w = focus; w != NULL && w != GTK_WIDGET (self); w = gtk_widget_get_parent (w))
    {
      if (DYN_IS_EXPR_CONDITION_ROW (w) || DYN_IS_EXPR_UPDATE_ROW (w))
        return w;
      if (DYN_IS_EXPR_GROUP_ROW (w))
        return dyn_expr_group_row_get_root (DYN_EXPR_GROUP_ROW (w)) ? NULL : w;
    }
  return NULL;
}

static DynExprGroupRow *
focused_group (DynExpressionBuilder *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  GtkWidget *group = NULL;

  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->root)))
    group = gtk_widget_get_ancestor (focus, DYN_TYPE_EXPR_GROUP_ROW);
  return group ? DYN_EXPR_GROUP_ROW (group) : self->root;
}

static void
remove_row (GtkWidget *row)
{
  GtkWidget *parent = gtk_widget_get_parent (row);
  GtkWidget *group = parent ? gtk_widget_get_ancestor (parent, DYN_TYPE_EXPR_GROUP_ROW) : NULL;

  if (group != NULL)
    dyn_expr_group_row_remove_keeping_focus (DYN_EXPR_GROUP_ROW (group), row);
}

GtkWidget *
_dyn_expression_builder_get_text_view (GtkWidget *builder)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (builder), NULL);
  return GTK_WIDGET (DYN_EXPRESSION_BUILDER (builder)->text_view);
}

/* builder.rows-changed: a row or group below changed what the user edits.
 * Rows tell the builder by this action, so they need not know it. */
static void
rows_changed_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);

  if (self->freeze == 0 && !self->refreshing)
    {
      self->rows_edited = TRUE;
      refresh (self);
      self->rows_edited = FALSE;
    }
}

static gboolean run_builder_action (DynExpressionBuilder *self);

/* builder.run: Enter in a row's value runs what the builder says. */
static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  run_builder_action (DYN_EXPRESSION_BUILDER (widget));
}

static gboolean
run_builder_action (DynExpressionBuilder *self)
{
  GtkWidget *builder = GTK_WIDGET (self);

  if (self->action_name == NULL)
    return FALSE;
  /* What was typed a moment ago is what runs. */
  if (self->parse_source != 0)
    parse_text (self);
  return gtk_widget_activate_action_variant (builder, self->action_name, self->action_target);
}

/* ------------------------------------------------------------------------ */
/* The key form and the read options */

static void key_changed_cb (DynExpressionBuilder *self);
static void key_activated_cb (DynExpressionBuilder *self);

/* The GetItem form: one typed field per key attribute of the table. What
 * was typed stays for the attributes the new keys share. */
static void
update_key_rows (DynExpressionBuilder *self)
{
  g_autoptr(GHashTable) typed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const DynKeySchema *keys = self->table ? &self->table->table.keys : NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  /* The focus leaves a field before it goes. */
  if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->key_list)))
    gtk_root_set_focus (root, NULL);
  for (guint i = 0; i < self->key_rows->len; i++)
    {
      GtkWidget *row = self->key_rows->pdata[i];

      g_hash_table_insert (typed, g_strdup (g_object_get_data (G_OBJECT (row), "dyn-attribute")),
                           g_strdup (gtk_editable_get_text (GTK_EDITABLE (row))));
      gtk_list_box_remove (self->key_list, row);
    }
  g_ptr_array_set_size (self->key_rows, 0);

  for (guint i = 0; keys != NULL && i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (keys, i, &type);
      GtkWidget *row = adw_entry_row_new ();
      GtkWidget *suffix;
      g_autofree char *what = NULL;
      const char *text = g_hash_table_lookup (typed, name);

      what = g_strdup_printf ("%s · %s", i < dyn_key_schema_get_n_partition_keys (keys) ? _("Partition key")
                                                                                          : _("Sort key"),
                              type == DYN_VALUE_N ? _("Number") : type == DYN_VALUE_B ? _("Binary") : _("String"));
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      suffix = gtk_label_new (what);
      gtk_widget_add_css_class (suffix, "dim-label");
      gtk_widget_add_css_class (suffix, "caption");
      adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), suffix);
      if (type == DYN_VALUE_N)
        adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_NUMBER);
      g_object_set_data_full (G_OBJECT (row), "dyn-attribute", g_strdup (name), g_free);
      if (text != NULL)
        gtk_editable_set_text (GTK_EDITABLE (row), text);
      g_signal_connect_object (row, "changed", G_CALLBACK (key_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (row, "entry-activated", G_CALLBACK (key_activated_cb), self, G_CONNECT_SWAPPED);
      gtk_list_box_append (self->key_list, row);
      g_ptr_array_add (self->key_rows, row);
    }
}

/* What the key form says, one text per key attribute, in key order. */
static GStrv
dup_key_texts (DynExpressionBuilder *self)
{
  GStrv texts = g_new0 (char *, self->key_rows->len + 1);

  for (guint i = 0; i < self->key_rows->len; i++)
    texts[i] = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->key_rows->pdata[i])));
  return texts;
}

/* What shows for which kind of read: the form or the expression, and the
 * options that apply. */
static void
update_read_widgets (DynExpressionBuilder *self)
{
  gboolean read = has_plan (self->kind);
  gboolean by_key = read && self->by_key;

  gtk_widget_set_visible (GTK_WIDGET (self->read_box), read && self->table != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->index_box),
                          read && !by_key && self->table != NULL &&
                          self->table->indexes != NULL && self->table->indexes->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->key_box), by_key);
  gtk_widget_set_visible (GTK_WIDGET (self->expression_box), !by_key);
  gtk_widget_set_visible (GTK_WIDGET (self->options_box), read);
  gtk_widget_set_visible (self->descending_check, !by_key);
  gtk_widget_set_visible (self->count_check, !by_key);
  gtk_widget_set_visible (self->page_size_box, !by_key);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.by-key", read && self->table != NULL);
}

static gint64
effective_page_size (DynExpressionBuilder *self)
{
  return self->read_page_size >= 0 ? self->read_page_size : self->page_size;
}

/* The options that do not apply to this read are shown off, and say why:
 * a global secondary index has no strongly consistent reads, a Scan no
 * order, a count no attributes. */
static void
update_option_states (DynExpressionBuilder *self)
{
  gboolean scan = self->read != NULL && dyn_read_request_is_valid (self->read) &&
                  dyn_read_request_get_operation (self->read) == DYN_OP_SCAN;
  gboolean global = !self->by_key && source_is_global (self);
  gboolean counting = !self->by_key && self->count_only;
  gint64 page_size = effective_page_size (self);
  g_autoptr(GString) notes = g_string_new (NULL);

  /* An option that does not apply shows off (and insensitive); the
   * choice stays for the reads it applies to. */
  self->updating_options = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->consistent_check), !global);
  gtk_check_button_set_active (self->consistent_check, self->consistent_read && !global);
  gtk_widget_set_sensitive (self->descending_check, !scan);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->descending_check), self->descending && !scan);
  self->updating_options = FALSE;
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->consistent_check),
                               global ? _("A global secondary index only has eventually consistent reads")
                                      : _("ConsistentRead: the latest data, at twice the read capacity"));
  gtk_widget_set_tooltip_text (self->descending_check,
                               scan ? _("A Scan returns the items in no order")
                                    : _("ScanIndexForward=false: the sort key from last to first"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->projection_entry), !counting);
  if (global && self->consistent_read)
    g_string_append (notes, _("A global secondary index only has eventually consistent reads: this read is "
                              "not strongly consistent."));
  if (scan && self->descending)
    g_string_append_printf (notes, "%s%s", notes->len ? "\n" : "",
                            _("A Scan returns the items in no order: Descending applies to a Query."));
  if (counting)
    g_string_append_printf (notes, "%s%s", notes->len ? "\n" : "",
                            _("Count only: no items and no attributes are read; the status line says how many "
                              "items matched and what that cost."));
  gtk_label_set_label (self->options_note_label, notes->str);
  gtk_widget_set_visible (GTK_WIDGET (self->options_note_label), notes->len > 0);

  self->updating_options = TRUE;
  if ((gint64) gtk_spin_button_get_value (self->page_size_spin) != page_size)
    gtk_spin_button_set_value (self->page_size_spin, page_size);
  self->updating_options = FALSE;
  if (page_size == 0)
    gtk_label_set_label (self->page_size_hint_label, "");
  else if (self->read_page_size < 0)
    gtk_label_set_label (self->page_size_hint_label, _("first page"));
  else
    gtk_label_set_label (self->page_size_hint_label, _("every page"));
}

/* The projection as typed (Dynoscope's syntax), or NULL when none. */
static gboolean
parse_projection (DynExpressionBuilder  *self,
                  DynExprNode          **out,
                  GError               **error)
{
  g_autofree char *text = g_strstrip (g_strdup (self->projection ? self->projection : ""));

  *out = NULL;
  if (text[0] == '\0')
    return TRUE;
  *out = dyn_expr_parse (text, DYN_EXPR_ROLE_PROJECTION, NULL, NULL, NULL, error);
  return *out != NULL;
}

/* The read the builder says: the expression's Query or Scan, or the key
 * form's GetItem, with the options. Problems go to the messages. */
static void
build_read (DynExpressionBuilder *self)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynExprNode) projection = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) key_texts = NULL;
  const GError *read_error;

  if (!parse_projection (self, &projection, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->projection_entry), "error");
      g_ptr_array_add (self->messages, g_strdup_printf ("%s: %s", dyn_expr_role_get_field (DYN_EXPR_ROLE_PROJECTION),
                                                        error->message));
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->projection_entry), "error");

  spec.table = self->table ? NULL : "MyTable";
  spec.consistent_read = self->consistent_read && (self->by_key || !source_is_global (self));
  spec.project_keys = TRUE;
  if (self->by_key)
    {
      key_texts = dup_key_texts (self);
      spec.mode = DYN_READ_GET_ITEM;
      spec.key_texts = (const char * const *) key_texts;
      spec.projection_node = projection;
    }
  else
    {
      spec.index = self->index;
      spec.mode = self->kind == DYN_EXPR_ROLE_KEY_CONDITION ? DYN_READ_EXPLICIT : DYN_READ_CONDITION;
      if (self->kind == DYN_EXPR_ROLE_KEY_CONDITION)
        spec.key_condition_node = self->node;
      else
        spec.filter_node = self->node;
      spec.limit = effective_page_size (self);
      spec.first_page_only = self->read_page_size < 0;
      spec.descending = self->descending;
      spec.count_only = self->count_only;
      /* A count reads no attributes. */
      spec.projection_node = self->count_only ? NULL : projection;
    }
  self->read = dyn_read_request_new (self->table, &spec);
  read_error = dyn_read_request_get_error (self->read);
  if (read_error != NULL)
    g_ptr_array_add (self->messages, g_strdup (read_error->message));
}

static void
key_changed_cb (DynExpressionBuilder *self)
{
  if (self->by_key)
    refresh (self);
}

static void
key_activated_cb (DynExpressionBuilder *self)
{
  run_builder_action (self);
}

static void
entry_activate_cb (DynExpressionBuilder *self)
{
  run_builder_action (self);
}

static void
projection_changed_cb (DynExpressionBuilder *self)
{
  dyn_expression_builder_set_projection (self, gtk_editable_get_text (GTK_EDITABLE (self->projection_entry)));
}

/* A check of an option the user clicked (the ones that can be shown off). */
static void
option_toggled_cb (DynExpressionBuilder *self,
                   GtkCheckButton       *check)
{
  if (self->updating_options)
    return;
  if (check == self->consistent_check)
    dyn_expression_builder_set_consistent_read (self, gtk_check_button_get_active (check));
  else
    dyn_expression_builder_set_descending (self, gtk_check_button_get_active (check));
}

static void
mode_toggled_cb (DynExpressionBuilder *self)
{
  if (!self->updating_options)
    dyn_expression_builder_set_by_key (self, gtk_toggle_button_get_active (self->get_button));
}

static void
page_size_changed_cb (DynExpressionBuilder *self)
{
  if (!self->updating_options)
    dyn_expression_builder_set_read_page_size (self, (gint64) gtk_spin_button_get_value (self->page_size_spin));
}

/* 0 is DynamoDB's full pages of up to 1 MB. */
static gboolean
page_size_output_cb (DynExpressionBuilder *self,
                     GtkSpinButton        *spin)
{
  if (gtk_spin_button_get_value (spin) != 0)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (spin), _("Full"));
  return TRUE;
}

static int
page_size_input_cb (DynExpressionBuilder *self,
                    double               *value,
                    GtkSpinButton        *spin)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  if (g_utf8_collate (text, _("Full")) != 0 && g_ascii_strcasecmp (text, "full") != 0)
    return FALSE;
  *value = 0;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Output */

static void
set_text_quietly (DynExpressionBuilder *self,
                  const char           *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  g_autofree char *current = NULL;
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  current = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  if (g_strcmp0 (current, text) == 0)
    return;
  self->setting_text = TRUE;
  gtk_text_buffer_set_text (buffer, text, -1);
  self->setting_text = FALSE;
}

/* The compilation the output shows: the read's for reads, else the builder's own. */
static DynExprContext *
output_context (DynExpressionBuilder *self)
{
  if (self->read != NULL)
    return dyn_read_request_is_valid (self->read) ? dyn_read_request_get_context (self->read) : NULL;
  return self->context;
}

static void
show_names_and_values (DynExpressionBuilder *self)
{
  DynExprContext *context = output_context (self);
  g_autoptr(JsonBuilder) names = json_builder_new ();
  g_autoptr(JsonBuilder) values = json_builder_new ();
  g_autoptr(JsonNode) names_root = NULL;
  g_autoptr(JsonNode) values_root = NULL;
  g_autofree char *names_text = NULL;
  g_autofree char *values_text = NULL;

  if (context == NULL)
    {
      gtk_label_set_label (self->names_label, "—");
      gtk_label_set_label (self->values_label, "—");
      return;
    }

  json_builder_begin_object (names);
  for (guint i = 0; i < dyn_expr_context_get_n_names (context); i++)
    {
      const char *attribute = NULL;

      json_builder_set_member_name (names, dyn_expr_context_get_name (context, i, &attribute));
      json_builder_add_string_value (names, attribute);
    }
  json_builder_end_object (names);

  json_builder_begin_object (values);
  for (guint i = 0; i < dyn_expr_context_get_n_values (context); i++)
    {
      DynValue *value = NULL;

      json_builder_set_member_name (values, dyn_expr_context_get_value (context, i, &value));
      /* DynamoDB JSON keeps numbers as strings: nothing passes a double. */
      json_builder_add_value (values, dyn_value_to_ddb_json (value));
    }
  json_builder_end_object (values);

  names_root = json_builder_get_root (names);
  values_root = json_builder_get_root (values);
  names_text = dyn_expr_context_get_n_names (context) ? pretty_json (names_root) : g_strdup ("{}");
  values_text = dyn_expr_context_get_n_values (context) ? pretty_json (values_root) : g_strdup ("{}");
  gtk_label_set_label (self->names_label, names_text);
  gtk_label_set_label (self->values_label, values_text);
}

/* The compiled expressions: one for most kinds; a read shows what it sends
 * (a Query's key condition and filter). */
static void
show_expressions (DynExpressionBuilder *self)
{
  const char *first_field = dyn_expr_role_get_field (self->kind);
  const char *first = NULL;
  const char *filter = NULL;
  const char *projection = NULL;
  g_autofree char *key = NULL;
  gboolean valid = dyn_expression_builder_get_valid (self);

  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), self->stale && !(has_plan (self->kind) && self->by_key));
  if (self->read != NULL && valid)
    projection = dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_PROJECTION);
  if (self->read != NULL && valid && dyn_read_request_get_key (self->read) != NULL)
    {
      /* A GetItem: its key. */
      g_autoptr(JsonNode) json = dyn_item_to_ddb_json (dyn_read_request_get_key (self->read));

      first_field = "Key";
      first = key = pretty_json (json);
    }
  else if (self->read != NULL && valid)
    {
      first = dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_KEY_CONDITION);
      filter = dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_FILTER);
      if (first != NULL)
        first_field = dyn_expr_role_get_field (DYN_EXPR_ROLE_KEY_CONDITION);
      else
        {
          first_field = dyn_expr_role_get_field (DYN_EXPR_ROLE_FILTER);
          first = filter;
          filter = NULL;
        }
    }
  else if (valid)
    first = dyn_expression_builder_get_expression (self);

  gtk_label_set_label (self->field_label, first_field);
  if (valid)
    gtk_label_set_label (self->expression_label, first ? first : _("(empty)"));
  else
    gtk_label_set_label (self->expression_label, self->node == NULL && !self->stale ? _("(empty)") : "—");
  gtk_widget_set_visible (GTK_WIDGET (self->filter_field_label), filter != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->filter_expression_label), filter != NULL);
  gtk_label_set_label (self->filter_field_label, dyn_expr_role_get_field (DYN_EXPR_ROLE_FILTER));
  gtk_label_set_label (self->filter_expression_label, filter ? filter : "");
  gtk_widget_set_visible (GTK_WIDGET (self->projection_field_label), projection != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->projection_expression_label), projection != NULL);
  gtk_label_set_label (self->projection_expression_label, projection ? projection : "");
}

static void
show_plan (DynExpressionBuilder *self)
{
  const DynExprPlan *plan = self->read ? dyn_read_request_get_plan (self->read) : NULL;
  const char *suggestion = self->read ? dyn_read_request_get_suggestion (self->read) : NULL;
  gboolean get_item = self->read != NULL && dyn_read_request_get_key (self->read) != NULL;

  g_clear_pointer (&self->plan, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->plan_box), plan != NULL || suggestion != NULL ||
                                                       (has_plan (self->kind) && self->by_key));
  gtk_widget_remove_css_class (GTK_WIDGET (self->plan_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->plan_label), "warning");
  if (get_item)
    {
      /* Translators: GetItem is the operation; %s is a table */
      g_autofree char *title = g_strdup_printf (_("GetItem on table %s"), dyn_read_request_get_table (self->read));
      const char *reason = dyn_read_request_get_reason (self->read);

      gtk_label_set_label (self->plan_label, title);
      gtk_widget_add_css_class (GTK_WIDGET (self->plan_label), "success");
      gtk_label_set_label (self->plan_reason_label, reason);
      self->plan = g_strdup_printf ("%s · %s", title, reason ? reason : "");
    }
  else if (plan != NULL)
    {
      const char *target = plan->index_name ? plan->index_name : dyn_read_request_get_table (self->read);
      g_autofree char *title = NULL;

      if (plan->operation == DYN_EXPR_PLAN_QUERY)
        title = plan->index_name ? g_strdup_printf (_("Query on index %s"), target)
                                 : g_strdup_printf (_("Query on table %s"), target);
      else
        title = plan->index_name ? g_strdup_printf (_("Scan of index %s"), target)
                                 : g_strdup_printf (_("Scan of table %s"), target);
      gtk_label_set_label (self->plan_label, title);
      gtk_widget_add_css_class (GTK_WIDGET (self->plan_label),
                                plan->operation == DYN_EXPR_PLAN_QUERY ? "success" : "warning");
      gtk_label_set_label (self->plan_reason_label, plan->reason);
      self->plan = g_strdup_printf ("%s · %s", title, plan->reason ? plan->reason : "");
    }
  else
    {
      gtk_label_set_label (self->plan_label, has_plan (self->kind) && self->by_key
                                             ? _("Not planned: the key is not complete")
                                             : _("Not planned: the expression has a problem"));
      gtk_label_set_label (self->plan_reason_label, "");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->plan_reason_label), plan != NULL || get_item);

  if (suggestion != NULL)
    {
      DynExprNode *kc = dyn_read_request_get_suggested_key_condition (self->read);
      g_autofree char *kc_text = kc ? dyn_expr_node_to_string (kc) : NULL;
      g_autofree char *text = NULL;

      text = kc_text ? g_strdup_printf (_("Suggestion: %s, with key condition %s"), suggestion, kc_text)
                     : g_strdup_printf (_("Suggestion: %s"), suggestion);
      gtk_label_set_label (self->plan_suggestion_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->plan_suggestion_box), suggestion != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.apply-suggestion",
                                 self->read != NULL && dyn_read_request_get_suggested_index (self->read) != NULL);
}

static void
show_messages (DynExpressionBuilder *self)
{
  GtkWidget *label = GTK_WIDGET (self->problems_label);

  gtk_widget_remove_css_class (label, "error");
  gtk_widget_remove_css_class (label, "success");
  gtk_widget_remove_css_class (label, "dim-label");
  if (self->messages->len > 1)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint i = 0; i + 1 < self->messages->len; i++)
        g_string_append_printf (text, "%s• %s", i ? "\n" : "", (char *) self->messages->pdata[i]);
      gtk_label_set_label (self->problems_label, text->str);
      gtk_widget_add_css_class (label, "error");
    }
  else if (self->node != NULL || (has_plan (self->kind) && self->by_key))
    {
      gtk_label_set_label (self->problems_label, _("No problems found"));
      gtk_widget_add_css_class (label, "success");
    }
  else
    {
      gtk_label_set_label (self->problems_label, _("Nothing to check yet"));
      gtk_widget_add_css_class (label, "dim-label");
    }
}

static void
update_snippet (DynExpressionBuilder *self)
{
  g_autofree char *snippet = NULL;

  if (self->read != NULL)
    {
      /* The read's own snippet; none while it cannot be sent. */
      if (dyn_read_request_is_valid (self->read))
        snippet = dyn_read_request_dup_snippet (self->read, self->language, self->endpoint, self->region);
    }
  else if (!self->stale && !has_plan (self->kind))
    {
      g_autoptr(DynRequest) request = build_request (self);

      snippet = dyn_snippet_generate (self->language, request, self->endpoint, self->region);
    }

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.copy-snippet", snippet != NULL);
  if (g_strcmp0 (snippet, self->snippet) == 0)
    return;
  g_free (self->snippet);
  self->snippet = g_steal_pointer (&snippet);
  {
    GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->snippet_view);
    GtkTextIter start, end;

    gtk_text_buffer_set_text (buffer, self->snippet ? self->snippet : "", -1);
    /* Code wraps at any character, but a hyphen would read as code. */
    gtk_text_buffer_get_bounds (buffer, &start, &end);
    gtk_text_buffer_apply_tag_by_name (buffer, "code", &start, &end);
  }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNIPPET]);
}

/* What the rows say, with the offsets of the text it is shown as: the
 * parsed text when the rows were just loaded from it, else the rows' own
 * text (which the text view is about to show). */
static DynExprNode *
node_with_offsets (DynExpressionBuilder *self,
                   DynExprNode          *rows)
{
  g_autofree char *text = NULL;
  DynExprNode *parsed;

  if (self->text_is_source && self->parsed_node != NULL && dyn_expr_node_equal (rows, self->parsed_node))
    return dyn_expr_node_ref (self->parsed_node);
  text = dyn_expr_node_to_string (rows);
  parsed = dyn_expr_parse (text, self->kind, NULL, NULL, NULL, NULL);
  if (parsed != NULL && dyn_expr_node_equal (parsed, rows))
    return parsed;
  g_clear_pointer (&parsed, dyn_expr_node_unref);
  return dyn_expr_node_ref (rows);
}

static void
refresh (DynExpressionBuilder *self)
{
  g_autoptr(DynExprContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *old_expression = NULL;
  gboolean was_valid;
  gboolean row_problems;
  gboolean rows_to_text;
  gboolean old_stale = self->stale;

  if (self->freeze > 0 || self->refreshing || self->root == NULL)
    return;
  self->refreshing = TRUE;

  old_expression = g_strdup (dyn_expression_builder_get_expression (self));
  was_valid = dyn_expression_builder_get_valid (self);

  update_row_operators (self, self->root);

  g_ptr_array_set_size (self->messages, 0);
  g_clear_pointer (&self->node, dyn_expr_node_unref);
  if (self->raw_node != NULL)
    self->node = dyn_expr_node_ref (self->raw_node);
  else
    {
      g_autoptr(DynExprNode) rows = dyn_expr_group_row_build (self->root, self->messages);

      if (rows != NULL)
        self->node = node_with_offsets (self, rows);
    }
  row_problems = self->messages->len > 0;

  /* The rows write the text when the user edited them (and they are
   * complete); a text that does not parse is never replaced otherwise. The
   * result of such a text is not known: nothing of the last one is shown. */
  rows_to_text = self->raw_node == NULL && !self->text_is_source && !row_problems &&
                 (self->parse_error == NULL || self->rows_edited);
  self->stale = self->parse_error != NULL && !rows_to_text;

  g_clear_pointer (&self->context, dyn_expr_context_free);
  g_clear_object (&self->read);
  if (has_plan (self->kind) && self->by_key)
    {
      /* A GetItem of the key in the form: the expression does not count. */
      g_ptr_array_set_size (self->messages, 0);
      build_read (self);
    }
  else if (self->stale)
    g_ptr_array_add (self->messages, g_strdup (self->parse_error));
  else if (has_plan (self->kind))
    {
      /* A read: the one object that plans it, compiles it, writes its
       * snippet and that Run sends. */
      if (!row_problems)
        build_read (self);
    }
  else
    {
      context = dyn_expr_context_new ();
      if (rule_keys (self) != NULL)
        dyn_expr_context_set_key_schema (context, rule_keys (self));
      if (self->node != NULL && dyn_expr_context_add (context, self->kind, self->node, &error) == NULL)
        g_ptr_array_add (self->messages, g_strdup (error->message));
      g_clear_error (&error);
      if (self->node != NULL && self->messages->len == 0)
        self->context = g_steal_pointer (&context);
    }
  g_ptr_array_add (self->messages, NULL);

  /* Output. */
  if (has_plan (self->kind))
    update_option_states (self);
  show_expressions (self);
  show_names_and_values (self);
  show_plan (self);
  show_messages (self);
  update_snippet (self);

  if (rows_to_text)
    {
      g_autofree char *text = self->node ? dyn_expr_node_to_string (self->node) : g_strdup ("");

      set_text_quietly (self, text);
      if (self->parse_error != NULL)
        {
          GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
          GtkTextIter start, end;

          gtk_text_buffer_get_bounds (buffer, &start, &end);
          gtk_text_buffer_remove_tag_by_name (buffer, "error", &start, &end);
          g_clear_pointer (&self->parse_error, g_free);
          gtk_widget_set_visible (GTK_WIDGET (self->parse_error_label), FALSE);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARSE_ERROR]);
        }
    }

  self->refreshing = FALSE;

  if (g_strcmp0 (old_expression, dyn_expression_builder_get_expression (self)) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPRESSION]);
  if (was_valid != dyn_expression_builder_get_valid (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
  if (old_stale != self->stale)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_REQUEST]);
}

/* ------------------------------------------------------------------------ */
/* Text */

static void
set_parse_error (DynExpressionBuilder *self,
                 const GError         *error,
                 glong                 offset)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "error", &start, &end);

  g_clear_pointer (&self->parse_error, g_free);
  if (error != NULL)
    {
      self->parse_error = g_strdup (error->message);
      gtk_label_set_label (self->parse_error_label, error->message);
      if (offset >= 0)
        {
          gtk_text_buffer_get_iter_at_offset (buffer, &start, offset);
          end = start;
          if (!gtk_text_iter_forward_char (&end))
            gtk_text_iter_backward_char (&start);
          gtk_text_buffer_apply_tag_by_name (buffer, "error", &start, &end);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->parse_error_label), error != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PARSE_ERROR]);
}

static void
set_raw (DynExpressionBuilder *self,
         DynExprNode          *raw)
{
  if (raw != NULL)
    dyn_expr_node_ref (raw);
  g_clear_pointer (&self->raw_node, dyn_expr_node_unref);
  self->raw_node = raw;
  gtk_widget_set_visible (GTK_WIDGET (self->raw_label), raw != NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rows_bin), raw == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.add-row", raw == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.add-group", raw == NULL && has_groups (self->kind));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.remove-row", raw == NULL);
}

static void
parse_text (DynExpressionBuilder *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  g_autoptr(DynExprNode) node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GtkTextIter start, end;
  glong offset = -1;
  gboolean added = FALSE;
  gboolean loaded;

  g_clear_handle_id (&self->parse_source, g_source_remove);

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_strstrip (text);

  if (text[0] != '\0')
    {
      node = dyn_expr_parse (text, self->kind, NULL, NULL, &offset, &error);
      if (node == NULL)
        {
          /* The rows stay as they are until the text parses again; the
           * offset counts from the stripped text. */
          const char *raw = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
          glong lead = 0;

          while (raw[lead] != '\0' && g_ascii_isspace (raw[lead]))
            lead++;
          g_free ((char *) raw);
          set_parse_error (self, error, offset >= 0 ? offset + lead : -1);
          self->text_is_source = TRUE;
          refresh (self);
          self->text_is_source = FALSE;
          return;
        }
      collect_names (self, node, &added);
      if (added)
        rebuild_completion (self);
    }
  g_clear_pointer (&self->parsed_node, dyn_expr_node_unref);
  if (node != NULL)
    self->parsed_node = dyn_expr_node_ref (node);
  if (self->parse_error != NULL)
    set_parse_error (self, NULL, -1);

  self->freeze++;
  loaded = dyn_expr_group_row_load (self->root, node);
  self->freeze--;
  set_raw (self, loaded ? NULL : node);

  self->text_is_source = TRUE;
  refresh (self);
  self->text_is_source = FALSE;
}

static gboolean
parse_timeout_cb (gpointer user_data)
{
  DynExpressionBuilder *self = user_data;

  self->parse_source = 0;
  parse_text (self);
  return G_SOURCE_REMOVE;
}

static void
text_changed_cb (DynExpressionBuilder *self)
{
  if (self->setting_text)
    return;
  g_clear_handle_id (&self->parse_source, g_source_remove);
  self->parse_source = g_timeout_add (PARSE_DELAY_MS, parse_timeout_cb, self);
}

/* ------------------------------------------------------------------------ */
/* Kind, index */

static void
setup_root (DynExpressionBuilder *self)
{
  GtkWidget *root = dyn_expr_group_row_new (self->kind, TRUE, GTK_TREE_MODEL (self->completion));

  self->root = DYN_EXPR_GROUP_ROW (root);
  adw_bin_set_child (self->rows_bin, root);
  gtk_label_set_label (self->field_label, dyn_expr_role_get_field (self->kind));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "builder.add-group", has_groups (self->kind));
}

static guint
index_position (DynExpressionBuilder *self)
{
  for (guint i = 0; self->table && self->table->indexes && i < self->table->indexes->len; i++)
    if (g_strcmp0 (((DynIndexInfo *) self->table->indexes->pdata[i])->name, self->index) == 0)
      return i + 1;
  return 0;
}

/* The drop-down of the table and its indexes; rebuilt when the table changes. */
static void
update_index_list (DynExpressionBuilder *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

  if (self->table != NULL)
    {
      g_autofree char *table = g_strdup_printf (_("Table %s"), self->table->table.name);

      gtk_string_list_append (model, table);
      for (guint i = 0; self->table->indexes != NULL && i < self->table->indexes->len; i++)
        {
          const DynIndexInfo *info = self->table->indexes->pdata[i];
          g_autofree char *label = NULL;

          label = g_strdup_printf (info->kind == DYN_INDEX_LOCAL ? _("Local index %s") : _("Global index %s"),
                                   info->name);
          gtk_string_list_append (model, label);
        }
    }
  self->updating_index = TRUE;
  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (model));
  gtk_drop_down_set_selected (self->index_dropdown, index_position (self));
  self->updating_index = FALSE;
  update_read_widgets (self);
}

static void
index_selected_cb (DynExpressionBuilder *self)
{
  guint pos = gtk_drop_down_get_selected (self->index_dropdown);
  const char *name = NULL;

  if (self->table == NULL || self->updating_index)
    return;
  if (pos > 0 && self->table->indexes != NULL && pos - 1 < self->table->indexes->len)
    name = ((DynIndexInfo *) self->table->indexes->pdata[pos - 1])->name;
  dyn_expression_builder_set_index (self, name);
}

static void
language_selected_cb (DynExpressionBuilder *self)
{
  guint pos = gtk_drop_down_get_selected (self->language_dropdown);

  if (pos < DYN_SNIPPET_N_LANGUAGES)
    dyn_expression_builder_set_snippet_language (self, (DynSnippetLanguage) pos);
}

/* ------------------------------------------------------------------------ */
/* Actions */

static void
add_row_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);
  GtkWidget *row = dyn_expr_group_row_add_row (focused_group (self));

  gtk_widget_grab_focus (row);
}

static void
add_group_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);
  DynExprGroupRow *group = dyn_expr_group_row_add_group (focused_group (self));
  GtkWidget *row;

  self->freeze++;
  row = dyn_expr_group_row_add_row (group);
  self->freeze--;
  refresh (self);
  gtk_widget_grab_focus (row);
}

static void
remove_row_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);
  GtkWidget *item = focused_item (self);
  guint n;

  if (item == NULL)
    {
      n = dyn_expr_group_row_get_n_items (self->root);
      if (n == 0)
        return;
      item = dyn_expr_group_row_get_item (self->root, n - 1);
    }
  remove_row (item);
}

static void
clear_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  dyn_expression_builder_set_text (DYN_EXPRESSION_BUILDER (widget), "");
}

static void
copy_snippet_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);

  if (self->snippet == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->snippet);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Snippet copied")));
}

static void
apply_suggestion_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);
  g_autofree char *index = NULL;

  if (self->read == NULL || dyn_read_request_get_suggested_index (self->read) == NULL)
    return;
  /* The suggestion reads from another source; on it the planner puts the
   * key equality (and the sort-key condition) into the key condition. */
  index = g_strdup (dyn_read_request_get_suggested_index (self->read));
  dyn_expression_builder_set_index (self, index);
}

static gboolean
run_shortcut_cb (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  return run_builder_action (DYN_EXPRESSION_BUILDER (widget));
}

static gboolean
remove_shortcut_cb (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   user_data)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  /* In the text view Ctrl+Delete deletes a word, as everywhere. */
  if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->root)) || self->raw_node != NULL)
    return FALSE;
  return gtk_widget_activate_action (widget, "builder.remove-row", NULL);
}

/* ------------------------------------------------------------------------ */
/* GtkActionable: the action Ctrl+Enter and Enter in a value run */

static const char *
dyn_expression_builder_get_action_name (GtkActionable *actionable)
{
  return DYN_EXPRESSION_BUILDER (actionable)->action_name;
}

static void
dyn_expression_builder_set_action_name (GtkActionable *actionable,
                                        const char    *action_name)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (actionable);

  if (set_str (&self->action_name, action_name))
    g_object_notify (G_OBJECT (self), "action-name");
}

static GVariant *
dyn_expression_builder_get_action_target_value (GtkActionable *actionable)
{
  return DYN_EXPRESSION_BUILDER (actionable)->action_target;
}

static void
dyn_expression_builder_set_action_target_value (GtkActionable *actionable,
                                                GVariant      *target)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (actionable);

  if (target == self->action_target ||
      (target != NULL && self->action_target != NULL && g_variant_equal (target, self->action_target)))
    return;
  g_clear_pointer (&self->action_target, g_variant_unref);
  if (target != NULL)
    self->action_target = g_variant_ref_sink (target);
  g_object_notify (G_OBJECT (self), "action-target");
}

static void
dyn_expression_builder_actionable_init (GtkActionableInterface *iface)
{
  iface->get_action_name = dyn_expression_builder_get_action_name;
  iface->set_action_name = dyn_expression_builder_set_action_name;
  iface->get_action_target_value = dyn_expression_builder_get_action_target_value;
  iface->set_action_target_value = dyn_expression_builder_set_action_target_value;
}

/* ------------------------------------------------------------------------ */
/* GObject */

static void
dyn_expression_builder_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_INDEX:
      g_value_set_string (value, self->index);
      break;
    case PROP_SNIPPET_LANGUAGE:
      g_value_set_enum (value, self->language);
      break;
    case PROP_EXPRESSION:
      g_value_set_string (value, dyn_expression_builder_get_expression (self));
      break;
    case PROP_VALID:
      g_value_set_boolean (value, dyn_expression_builder_get_valid (self));
      break;
    case PROP_PARSE_ERROR:
      g_value_set_string (value, self->parse_error);
      break;
    case PROP_SNIPPET:
      g_value_set_string (value, self->snippet);
      break;
    case PROP_STALE:
      g_value_set_boolean (value, self->stale);
      break;
    case PROP_READ_REQUEST:
      g_value_set_object (value, self->read);
      break;
    case PROP_PAGE_SIZE:
      g_value_set_int64 (value, self->page_size);
      break;
    case PROP_READ_PAGE_SIZE:
      g_value_set_int64 (value, self->read_page_size);
      break;
    case PROP_BY_KEY:
      g_value_set_boolean (value, self->by_key);
      break;
    case PROP_CONSISTENT_READ:
      g_value_set_boolean (value, self->consistent_read);
      break;
    case PROP_DESCENDING:
      g_value_set_boolean (value, self->descending);
      break;
    case PROP_COUNT_ONLY:
      g_value_set_boolean (value, self->count_only);
      break;
    case PROP_PROJECTION:
      g_value_set_string (value, self->projection);
      break;
    case PROP_ACTION_NAME:
      g_value_set_string (value, self->action_name);
      break;
    case PROP_ACTION_TARGET:
      g_value_set_variant (value, self->action_target);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expression_builder_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (object);

  switch (prop_id)
    {
    case PROP_KIND:
      dyn_expression_builder_set_kind (self, g_value_get_enum (value));
      break;
    case PROP_INDEX:
      dyn_expression_builder_set_index (self, g_value_get_string (value));
      break;
    case PROP_SNIPPET_LANGUAGE:
      dyn_expression_builder_set_snippet_language (self, g_value_get_enum (value));
      break;
    case PROP_PAGE_SIZE:
      dyn_expression_builder_set_page_size (self, g_value_get_int64 (value));
      break;
    case PROP_READ_PAGE_SIZE:
      dyn_expression_builder_set_read_page_size (self, g_value_get_int64 (value));
      break;
    case PROP_BY_KEY:
      dyn_expression_builder_set_by_key (self, g_value_get_boolean (value));
      break;
    case PROP_CONSISTENT_READ:
      dyn_expression_builder_set_consistent_read (self, g_value_get_boolean (value));
      break;
    case PROP_DESCENDING:
      dyn_expression_builder_set_descending (self, g_value_get_boolean (value));
      break;
    case PROP_COUNT_ONLY:
      dyn_expression_builder_set_count_only (self, g_value_get_boolean (value));
      break;
    case PROP_PROJECTION:
      dyn_expression_builder_set_projection (self, g_value_get_string (value));
      break;
    case PROP_ACTION_NAME:
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self), g_value_get_string (value));
      break;
    case PROP_ACTION_TARGET:
      gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self), g_value_get_variant (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_expression_builder_dispose (GObject *object)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (object);

  g_clear_handle_id (&self->parse_source, g_source_remove);
  /* Rows report changes while they are torn down; nothing listens now. */
  self->freeze++;
  self->root = NULL;
  if (self->key_rows != NULL)
    g_ptr_array_set_size (self->key_rows, 0);
  /* The template's top widget is the AdwBin child: let AdwBin drop it first. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_EXPRESSION_BUILDER);
  g_clear_object (&self->completion);
  G_OBJECT_CLASS (dyn_expression_builder_parent_class)->dispose (object);
}

static void
dyn_expression_builder_finalize (GObject *object)
{
  DynExpressionBuilder *self = DYN_EXPRESSION_BUILDER (object);

  g_clear_pointer (&self->table, dyn_table_keys_free);
  g_clear_pointer (&self->index, g_free);
  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->region, g_free);
  g_clear_pointer (&self->known, g_hash_table_unref);
  g_clear_pointer (&self->node, dyn_expr_node_unref);
  g_clear_pointer (&self->raw_node, dyn_expr_node_unref);
  g_clear_pointer (&self->parsed_node, dyn_expr_node_unref);
  g_clear_pointer (&self->context, dyn_expr_context_free);
  g_clear_object (&self->read);
  g_clear_pointer (&self->action_name, g_free);
  g_clear_pointer (&self->action_target, g_variant_unref);
  g_clear_pointer (&self->messages, g_ptr_array_unref);
  g_clear_pointer (&self->parse_error, g_free);
  g_clear_pointer (&self->plan, g_free);
  g_clear_pointer (&self->snippet, g_free);
  g_clear_pointer (&self->projection, g_free);
  g_clear_pointer (&self->key_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (dyn_expression_builder_parent_class)->finalize (object);
}

static void
dyn_expression_builder_class_init (DynExpressionBuilderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyn_expression_builder_get_property;
  object_class->set_property = dyn_expression_builder_set_property;
  object_class->dispose = dyn_expression_builder_dispose;
  object_class->finalize = dyn_expression_builder_finalize;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, DYN_TYPE_EXPR_ROLE, DYN_EXPR_ROLE_FILTER,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INDEX] =
    g_param_spec_string ("index", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNIPPET_LANGUAGE] =
    g_param_spec_enum ("snippet-language", NULL, NULL, DYN_TYPE_SNIPPET_LANGUAGE, DYN_SNIPPET_CLI,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPRESSION] =
    g_param_spec_string ("expression", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PARSE_ERROR] =
    g_param_spec_string ("parse-error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SNIPPET] =
    g_param_spec_string ("snippet", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* TRUE while the text does not parse: nothing compiled is shown. */
  properties[PROP_STALE] =
    g_param_spec_boolean ("stale", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READ_REQUEST] =
    g_param_spec_object ("read-request", NULL, NULL, DYN_TYPE_READ_REQUEST,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The window's page size: the first page's Limit. */
  properties[PROP_PAGE_SIZE] =
    g_param_spec_int64 ("page-size", NULL, NULL, 0, G_MAXINT32, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* The page size the user chose for this read, every page's Limit; -1: page-size. */
  properties[PROP_READ_PAGE_SIZE] =
    g_param_spec_int64 ("read-page-size", NULL, NULL, -1, G_MAXINT32, -1,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BY_KEY] =
    g_param_spec_boolean ("by-key", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONSISTENT_READ] =
    g_param_spec_boolean ("consistent-read", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DESCENDING] =
    g_param_spec_boolean ("descending", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COUNT_ONLY] =
    g_param_spec_boolean ("count-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROJECTION] =
    g_param_spec_string ("projection", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_ACTION_NAME, "action-name");
  g_object_class_override_property (object_class, PROP_ACTION_TARGET, "action-target");

  _dyn_widgets_ensure_resources ();
  g_type_ensure (DYN_TYPE_EXPR_GROUP_ROW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-expression-builder.ui");
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, read_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, find_button);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, get_button);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, key_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, key_list);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, expression_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, options_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, projection_entry);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, consistent_check);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, descending_check);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, count_check);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, page_size_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, page_size_spin);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, page_size_hint_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, options_note_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, projection_field_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, projection_expression_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, index_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, index_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, text_view);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, parse_error_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, raw_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, rows_bin);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, stale_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, field_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, expression_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, filter_field_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, filter_expression_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, names_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, values_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, plan_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, plan_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, plan_reason_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, plan_suggestion_box);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, plan_suggestion_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, problems_label);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, language_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynExpressionBuilder, snippet_view);
  gtk_widget_class_bind_template_callback (widget_class, index_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, language_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, mode_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, option_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, projection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_size_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_size_output_cb);
  gtk_widget_class_bind_template_callback (widget_class, page_size_input_cb);

  gtk_widget_class_install_action (widget_class, "builder.add-row", NULL, add_row_action);
  gtk_widget_class_install_action (widget_class, "builder.add-group", NULL, add_group_action);
  gtk_widget_class_install_action (widget_class, "builder.remove-row", NULL, remove_row_action);
  gtk_widget_class_install_action (widget_class, "builder.clear", NULL, clear_action);
  gtk_widget_class_install_action (widget_class, "builder.rows-changed", NULL, rows_changed_action);
  gtk_widget_class_install_action (widget_class, "builder.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "builder.copy-snippet", NULL, copy_snippet_action);
  gtk_widget_class_install_action (widget_class, "builder.apply-suggestion", NULL, apply_suggestion_action);
  gtk_widget_class_install_property_action (widget_class, "builder.by-key", "by-key");
  gtk_widget_class_install_property_action (widget_class, "builder.consistent-read", "consistent-read");
  gtk_widget_class_install_property_action (widget_class, "builder.descending", "descending");
  gtk_widget_class_install_property_action (widget_class, "builder.count-only", "count-only");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "builder.remove-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "builder.remove-row", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "builder.add-group", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "builder.copy-snippet", NULL);
}

static void
dyn_expression_builder_init (DynExpressionBuilder *self)
{
  GtkEventController *controller;
  GtkShortcut *shortcut;
  GtkTextBuffer *buffer;

  self->kind = DYN_EXPR_ROLE_FILTER;
  self->language = DYN_SNIPPET_CLI;
  self->completion = gtk_list_store_new (1, G_TYPE_STRING);
  self->known = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->messages = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->messages, NULL);
  self->key_rows = g_ptr_array_new ();
  self->read_page_size = -1;

  gtk_widget_init_template (GTK_WIDGET (self));

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_create_tag (buffer, "error", "underline", PANGO_UNDERLINE_ERROR, NULL);
  g_signal_connect_object (buffer, "changed", G_CALLBACK (text_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_text_buffer_create_tag (gtk_text_view_get_buffer (self->snippet_view), "code",
                              "insert-hyphens", FALSE, NULL);

  /* Ctrl+Delete must reach the builder before an entry takes it as "delete
   * word": a capture-phase shortcut. */
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, GDK_CONTROL_MASK),
                               gtk_callback_action_new (remove_shortcut_cb, NULL, NULL));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  /* Ctrl+Enter runs the query, also in the text view (which would take it
   * as a newline). */
  for (guint i = 0; i < 2; i++)
    {
      shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (i == 0 ? GDK_KEY_Return : GDK_KEY_KP_Enter,
                                                           GDK_CONTROL_MASK),
                                   gtk_callback_action_new (run_shortcut_cb, NULL, NULL));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  setup_root (self);
  update_read_widgets (self);
  refresh (self);
}

/* ------------------------------------------------------------------------ */
/* Public API */

GtkWidget *
dyn_expression_builder_new (DynExprRole kind)
{
  return g_object_new (DYN_TYPE_EXPRESSION_BUILDER, "kind", kind, NULL);
}

DynExprRole
dyn_expression_builder_get_kind (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), DYN_EXPR_ROLE_FILTER);
  return self->kind;
}

void
dyn_expression_builder_set_kind (DynExpressionBuilder *self,
                                 DynExprRole           kind)
{
  g_autofree char *text = NULL;

  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));
  g_return_if_fail (kind < DYN_EXPR_N_ROLES);

  if (self->kind == kind)
    return;

  text = dyn_expression_builder_dup_text (self);
  self->kind = kind;
  g_clear_pointer (&self->parsed_node, dyn_expr_node_unref);
  self->freeze++;
  setup_root (self);
  self->freeze--;
  update_index_list (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);

  /* Keep what was typed if it means something in the new kind. */
  set_text_quietly (self, text);
  parse_text (self);
  if (self->parse_error != NULL)
    dyn_expression_builder_set_text (self, "");
}

void
dyn_expression_builder_set_table (DynExpressionBuilder *self,
                                  const DynTableKeys   *table)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  g_clear_pointer (&self->table, dyn_table_keys_free);
  if (table != NULL)
    self->table = dyn_table_keys_copy (table);
  if (self->index != NULL && (self->table == NULL || dyn_table_keys_lookup (self->table, self->index) == NULL))
    {
      g_clear_pointer (&self->index, g_free);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
  /* A GetItem needs the table's key. */
  if (self->table == NULL && self->by_key)
    {
      self->by_key = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_KEY]);
    }
  update_key_rows (self);
  update_index_list (self);
  rebuild_completion (self);
  refresh (self);
}

const DynTableKeys *
dyn_expression_builder_get_table (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->table;
}

const char *
dyn_expression_builder_get_index (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->index;
}

void
dyn_expression_builder_set_index (DynExpressionBuilder *self,
                                  const char           *index)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  if (index != NULL && (index[0] == '\0' ||
                        (self->table != NULL && g_strcmp0 (index, self->table->table.name) == 0)))
    index = NULL;
  if (!set_str (&self->index, index))
    return;
  /* An index is read with a Query or Scan, never a GetItem. */
  if (index != NULL && self->by_key)
    {
      self->by_key = FALSE;
      self->updating_options = TRUE;
      gtk_toggle_button_set_active (self->find_button, TRUE);
      self->updating_options = FALSE;
      update_read_widgets (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_KEY]);
    }
  if (gtk_drop_down_get_selected (self->index_dropdown) != index_position (self))
    {
      self->updating_index = TRUE;
      gtk_drop_down_set_selected (self->index_dropdown, index_position (self));
      self->updating_index = FALSE;
    }
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
}

void
dyn_expression_builder_add_known_attributes (DynExpressionBuilder *self,
                                             const char * const   *names)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    g_hash_table_add (self->known, g_strdup (names[i]));
  rebuild_completion (self);
}

char *
dyn_expression_builder_dup_text (DynExpressionBuilder *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
dyn_expression_builder_set_text (DynExpressionBuilder *self,
                                 const char           *text)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  /* An expression given is the one to read by. */
  dyn_expression_builder_set_by_key (self, FALSE);
  set_text_quietly (self, text ? text : "");
  parse_text (self);
}

const char *
dyn_expression_builder_get_parse_error (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->parse_error;
}

DynExprGroupRow *
dyn_expression_builder_get_root_group (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->root;
}

const char *
dyn_expression_builder_get_expression (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);

  if (self->read != NULL)
    return dyn_read_request_get_expression (self->read, self->kind);
  if (self->context == NULL)
    return NULL;
  return dyn_expr_context_get_expression (self->context, self->kind);
}

gboolean
dyn_expression_builder_get_valid (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  if (self->read != NULL)
    return dyn_read_request_is_valid (self->read);
  return self->context != NULL;
}

gboolean
dyn_expression_builder_get_stale (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  return self->stale;
}

DynReadRequest *
dyn_expression_builder_get_read_request (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);

  /* Text typed a moment ago counts. */
  if (self->parse_source != 0)
    parse_text (self);
  return self->read;
}

gint64
dyn_expression_builder_get_page_size (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), 0);
  return self->page_size;
}

void
dyn_expression_builder_set_page_size (DynExpressionBuilder *self,
                                      gint64                page_size)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));
  g_return_if_fail (page_size >= 0);

  if (self->page_size == page_size)
    return;
  self->page_size = page_size;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE_SIZE]);
}

gint64
dyn_expression_builder_get_read_page_size (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), -1);
  return self->read_page_size;
}

void
dyn_expression_builder_set_read_page_size (DynExpressionBuilder *self,
                                           gint64                page_size)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));
  g_return_if_fail (page_size >= -1 && page_size <= G_MAXINT32);

  if (self->read_page_size == page_size)
    return;
  self->read_page_size = page_size;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_PAGE_SIZE]);
}

gboolean
dyn_expression_builder_get_by_key (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  return self->by_key;
}

void
dyn_expression_builder_set_by_key (DynExpressionBuilder *self,
                                   gboolean              by_key)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  by_key = !!by_key && self->table != NULL && has_plan (self->kind);
  if (self->by_key == by_key)
    return;
  self->by_key = by_key;
  /* A GetItem reads the table. */
  if (by_key && self->index != NULL)
    {
      g_clear_pointer (&self->index, g_free);
      self->updating_index = TRUE;
      gtk_drop_down_set_selected (self->index_dropdown, 0);
      self->updating_index = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
  self->updating_options = TRUE;
  gtk_toggle_button_set_active (by_key ? self->get_button : self->find_button, TRUE);
  self->updating_options = FALSE;
  update_read_widgets (self);
  refresh (self);
  if (by_key && self->key_rows->len > 0 && gtk_widget_get_mapped (GTK_WIDGET (self)))
    gtk_widget_grab_focus (self->key_rows->pdata[0]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_KEY]);
}

void
dyn_expression_builder_set_key (DynExpressionBuilder *self,
                                DynValue             *key)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  self->freeze++;
  for (guint i = 0; i < self->key_rows->len; i++)
    {
      GtkWidget *row = self->key_rows->pdata[i];
      DynValue *v = key ? dyn_value_map_lookup (key, g_object_get_data (G_OBJECT (row), "dyn-attribute")) : NULL;
      g_autofree char *text = NULL;

      if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_S)
        text = g_strdup (dyn_value_get_string (v));
      else if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_N)
        text = g_strdup (dyn_value_get_number (v));
      else if (v != NULL && dyn_value_get_value_type (v) == DYN_VALUE_B)
        {
          GBytes *bytes = dyn_value_get_binary (v);
          gsize len = 0;
          const guchar *data = g_bytes_get_data (bytes, &len);

          text = g_base64_encode (data, len);
        }
      gtk_editable_set_text (GTK_EDITABLE (row), text ? text : "");
    }
  self->freeze--;
  refresh (self);
}

void
dyn_expression_builder_reset_read_options (DynExpressionBuilder *self)
{
  GObject *object = G_OBJECT (self);

  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  g_object_freeze_notify (object);
  self->freeze++;
  dyn_expression_builder_set_by_key (self, FALSE);
  dyn_expression_builder_set_key (self, NULL);
  dyn_expression_builder_set_projection (self, NULL);
  dyn_expression_builder_set_consistent_read (self, FALSE);
  dyn_expression_builder_set_descending (self, FALSE);
  dyn_expression_builder_set_count_only (self, FALSE);
  dyn_expression_builder_set_read_page_size (self, -1);
  self->freeze--;
  refresh (self);
  g_object_thaw_notify (object);
}

gboolean
dyn_expression_builder_get_consistent_read (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  return self->consistent_read;
}

void
dyn_expression_builder_set_consistent_read (DynExpressionBuilder *self,
                                            gboolean              consistent_read)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  if (self->consistent_read == !!consistent_read)
    return;
  self->consistent_read = !!consistent_read;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONSISTENT_READ]);
}

gboolean
dyn_expression_builder_get_descending (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  return self->descending;
}

void
dyn_expression_builder_set_descending (DynExpressionBuilder *self,
                                       gboolean              descending)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  if (self->descending == !!descending)
    return;
  self->descending = !!descending;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DESCENDING]);
}

gboolean
dyn_expression_builder_get_count_only (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  return self->count_only;
}

void
dyn_expression_builder_set_count_only (DynExpressionBuilder *self,
                                       gboolean              count_only)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  if (self->count_only == !!count_only)
    return;
  self->count_only = !!count_only;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COUNT_ONLY]);
}

const char *
dyn_expression_builder_get_projection (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->projection;
}

void
dyn_expression_builder_set_projection (DynExpressionBuilder *self,
                                       const char           *projection)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  if (projection != NULL && projection[0] == '\0')
    projection = NULL;
  if (!set_str (&self->projection, projection))
    return;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->projection_entry)), projection ? projection : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->projection_entry), projection ? projection : "");
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECTION]);
}

const char * const *
dyn_expression_builder_get_messages (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return (const char * const *) self->messages->pdata;
}

GHashTable *
dyn_expression_builder_dup_names (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);

  if (output_context (self) == NULL)
    return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return dyn_expr_context_dup_names (output_context (self));
}

GHashTable *
dyn_expression_builder_dup_values (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);

  if (output_context (self) == NULL)
    return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
  return dyn_expr_context_dup_values (output_context (self));
}

DynExprNode *
dyn_expression_builder_dup_node (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->node ? dyn_expr_node_copy (self->node) : NULL;
}

const char *
dyn_expression_builder_get_plan (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->plan;
}

gboolean
dyn_expression_builder_apply_to_request (DynExpressionBuilder  *self,
                                         DynRequest            *request,
                                         GError               **error)
{
  DynExprContext *context;

  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), FALSE);
  g_return_val_if_fail (request != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((self->node != NULL || self->stale) && !dyn_expression_builder_get_valid (self))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("The %s is not valid: %s"),
                   dyn_expr_role_get_field (self->kind),
                   self->messages->len > 1 ? (char *) self->messages->pdata[0] : "");
      return FALSE;
    }
  context = output_context (self);

  /* Check for clashes first so that nothing changes on failure. */
  if (context != NULL)
    {
      for (guint i = 0; i < dyn_expr_context_get_n_names (context); i++)
        {
          const char *attribute = NULL;
          const char *placeholder = dyn_expr_context_get_name (context, i, &attribute);
          const char *old = request->names ? g_hash_table_lookup (request->names, placeholder) : NULL;

          if (old != NULL && g_strcmp0 (old, attribute) != 0)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                           _("The placeholder %s is already used for %s"), placeholder, old);
              return FALSE;
            }
        }
      for (guint i = 0; i < dyn_expr_context_get_n_values (context); i++)
        {
          DynValue *value = NULL;
          const char *placeholder = dyn_expr_context_get_value (context, i, &value);
          DynValue *old = request->values ? g_hash_table_lookup (request->values, placeholder) : NULL;

          if (old != NULL && !dyn_value_equal (old, value))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                           _("The placeholder %s is already used for another value"), placeholder);
              return FALSE;
            }
        }
    }

  if (self->read != NULL)
    {
      /* A read: what it sends, key condition and filter, on its source. */
      DynValue *key = dyn_read_request_get_key (self->read);

      request->op = dyn_read_request_get_operation (self->read);
      set_str (&request->key_condition, dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_KEY_CONDITION));
      set_str (&request->filter, dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_FILTER));
      set_str (&request->projection, dyn_read_request_get_expression (self->read, DYN_EXPR_ROLE_PROJECTION));
      set_str (&request->index, dyn_read_request_get_index (self->read));
      if (key != NULL)
        {
          g_clear_pointer (&request->key, dyn_value_unref);
          request->key = dyn_value_ref (key);
        }
    }
  else
    {
      char **field = NULL;

      switch (self->kind)
        {
        case DYN_EXPR_ROLE_CONDITION: field = &request->condition; break;
        case DYN_EXPR_ROLE_UPDATE: field = &request->update; break;
        case DYN_EXPR_ROLE_PROJECTION: field = &request->projection; break;
        case DYN_EXPR_ROLE_KEY_CONDITION: field = &request->key_condition; break;
        case DYN_EXPR_ROLE_FILTER: field = &request->filter; break;
        default: g_assert_not_reached ();
        }
      set_str (field, dyn_expression_builder_get_expression (self));
    }

  if (context != NULL)
    {
      for (guint i = 0; i < dyn_expr_context_get_n_names (context); i++)
        {
          const char *attribute = NULL;
          const char *placeholder = dyn_expr_context_get_name (context, i, &attribute);

          dyn_request_add_name (request, placeholder, attribute);
        }
      for (guint i = 0; i < dyn_expr_context_get_n_values (context); i++)
        {
          DynValue *value = NULL;
          const char *placeholder = dyn_expr_context_get_value (context, i, &value);

          dyn_request_add_value (request, placeholder, value);
        }
    }
  return TRUE;
}

DynSnippetLanguage
dyn_expression_builder_get_snippet_language (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), DYN_SNIPPET_CLI);
  return self->language;
}

void
dyn_expression_builder_set_snippet_language (DynExpressionBuilder *self,
                                             DynSnippetLanguage    lang)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));
  g_return_if_fail (lang < DYN_SNIPPET_N_LANGUAGES);

  if (self->language == lang)
    return;
  self->language = lang;
  if (gtk_drop_down_get_selected (self->language_dropdown) != lang)
    gtk_drop_down_set_selected (self->language_dropdown, lang);
  update_snippet (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SNIPPET_LANGUAGE]);
}

void
dyn_expression_builder_set_endpoint (DynExpressionBuilder *self,
                                     const char           *endpoint,
                                     const char           *region)
{
  g_return_if_fail (DYN_IS_EXPRESSION_BUILDER (self));

  set_str (&self->endpoint, endpoint);
  set_str (&self->region, region);
  update_snippet (self);
}

const char *
dyn_expression_builder_get_snippet (DynExpressionBuilder *self)
{
  g_return_val_if_fail (DYN_IS_EXPRESSION_BUILDER (self), NULL);
  return self->snippet;
}
