/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-sql-workbench"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-sql-workbench.h"
#include "dyn-value-format.h"
#include "dyn-widgets-private.h"

/* A cell's text is cut here (the grid's limit); the copies are whole. */
#define CELL_MAX_CHARS 160

/* One result row in the list model. */
#define DYN_TYPE_SQL_ROW_OBJECT (dyn_sql_row_object_get_type ())
G_DECLARE_FINAL_TYPE (DynSqlRowObject, dyn_sql_row_object, DYN, SQL_ROW_OBJECT, GObject)

struct _DynSqlRowObject
{
  GObject    parent_instance;
  DynSqlRow *row;
};

G_DEFINE_FINAL_TYPE (DynSqlRowObject, dyn_sql_row_object, G_TYPE_OBJECT)

static void
dyn_sql_row_object_finalize (GObject *object)
{
  g_clear_pointer (&DYN_SQL_ROW_OBJECT (object)->row, dyn_sql_row_free);
  G_OBJECT_CLASS (dyn_sql_row_object_parent_class)->finalize (object);
}

static void
dyn_sql_row_object_class_init (DynSqlRowObjectClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_sql_row_object_finalize;
}

static void
dyn_sql_row_object_init (DynSqlRowObject *self)
{
}

static DynSqlRowObject *
dyn_sql_row_object_new (DynSqlRow *row)
{
  DynSqlRowObject *self = g_object_new (DYN_TYPE_SQL_ROW_OBJECT, NULL);

  self->row = row;
  return self;
}

struct _DynSqlWorkbench
{
  AdwBin             parent_instance;

  DynSqlEngine      *engine;
  GCancellable      *cancellable;
  DynSqlPlan        *plan;
  DynSqlResult      *result;
  GStrv              columns;
  GListStore        *rows;
  GtkMultiSelection *selection;
  char              *status_text;
  char              *error_text;
  guint              generation;   /* of the run whose rows are shown */
  gboolean           busy;
  gboolean           allow_scan;
  GtkTextTag        *error_tag;
  GtkWidget         *row_popover;

  GtkPaned          *main_paned;
  GtkPaned          *editor_paned;
  GtkSourceView     *source_view;
  GtkRevealer       *error_revealer;
  GtkLabel          *error_label;
  GtkLabel          *plan_title;
  GtkLabel          *plan_placeholder;
  GtkListBox        *plan_list;
  GtkLabel          *scan_label;
  GtkSwitch         *scan_switch;
  GtkPaned          *results_paned;
  GtkColumnView     *column_view;
  GtkWidget         *detail_box;
  GtkLabel          *detail_title;
  DynItemDetail     *detail;
  GtkSpinner        *spinner;
  GtkLabel          *status_label;
  GMenuModel        *row_menu;
};

G_DEFINE_FINAL_TYPE (DynSqlWorkbench, dyn_sql_workbench, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_ALLOW_SCAN,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* What an explain or a run needs when it finishes. */
typedef struct {
  DynSqlWorkbench *self;   /* a reference */
  char            *sql;
  guint            generation;
  gboolean         run;
} Task;

static void
task_free (Task *task)
{
  g_object_unref (task->self);
  g_free (task->sql);
  g_free (task);
}

static void
update_actions (DynSqlWorkbench *self)
{
  gboolean ready = self->engine != NULL && !self->busy;
  guint n_rows = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  gboolean has_item = FALSE;

  if (gtk_bitset_get_size (selected) == 1)
    {
      g_autoptr(DynSqlRowObject) object = g_list_model_get_item (G_LIST_MODEL (self->rows),
                                                                  gtk_bitset_get_nth (selected, 0));

      has_item = object != NULL && object->row->item != NULL;
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.run", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.explain", ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.cancel", self->busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.copy", n_rows > 0 && self->columns != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.open-item", has_item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sql.close-item", gtk_widget_get_visible (self->detail_box));
}

static void
set_busy (DynSqlWorkbench *self,
          gboolean         busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  gtk_spinner_set_spinning (self->spinner, busy);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_status (DynSqlWorkbench *self,
            const char      *text)
{
  g_free (self->status_text);
  self->status_text = g_strdup (text);
  gtk_label_set_label (self->status_label, text ? text : "");
}

static void
clear_error (DynSqlWorkbench *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  GtkTextIter start, end;

  g_clear_pointer (&self->error_text, g_free);
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);
}

/* The character (0-based, over the whole statement) an error points at.
 * The engine (client/sql) reports SQLite's error offset only in its
 * message, as "SQL error at character N: …" (N 1-based, in characters,
 * newlines counted), translated: match that format in the language the
 * engine used, or in English. */
static gboolean
error_char_at (const char *format,
               const char *message,
               int        *offset)
{
  const char *d = strstr (format, "%d");
  const char *s = d ? strstr (d + 2, "%s") : NULL;
  g_autofree char *before = NULL;
  g_autofree char *between = NULL;
  const char *p;
  char *end;
  guint64 n;

  if (s == NULL)
    return FALSE;
  before = g_strndup (format, d - format);
  between = g_strndup (d + 2, s - (d + 2));
  if (!g_str_has_prefix (message, before))
    return FALSE;
  p = message + strlen (before);
  if (!g_ascii_isdigit (*p))
    return FALSE;
  n = g_ascii_strtoull (p, &end, 10);
  if (n == 0 || n > G_MAXINT || !g_str_has_prefix (end, between))
    return FALSE;
  *offset = (int) n - 1;
  return TRUE;
}

static gboolean
error_position (const char *message,
                int        *offset)
{
  static const char format[] = N_("SQL error at character %d: %s");

  return error_char_at (g_dgettext (GETTEXT_PACKAGE, format), message, offset) ||
         error_char_at (format, message, offset);
}

/* The error under the editor; a position in it marks the word there. */
static void
show_error (DynSqlWorkbench *self,
            const char      *sql,
            const GError    *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  int offset;

  clear_error (self);
  if (details != NULL && details->aws_code != NULL)
    self->error_text = g_strdup_printf ("%s (%s)", details->message ? details->message : error->message,
                                        details->aws_code);
  else
    self->error_text = g_strdup (error->message);
  gtk_label_set_label (self->error_label, self->error_text);
  gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
  /* The engine's refusal is also a note of the plan: say it once. */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->plan_list)); row;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_has_css_class (row, "dyn-sql-plan-notes"))
      {
        GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));
        gboolean any = FALSE;

        for (GtkWidget *note = gtk_widget_get_first_child (box); note; note = gtk_widget_get_next_sibling (note))
          {
            if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (note)), error->message) == 0)
              gtk_widget_set_visible (note, FALSE);
            any |= gtk_widget_get_visible (note);
          }
        gtk_widget_set_visible (row, any);
      }

  /* Only while the editor still holds the statement the error is about. */
  if (sql != NULL && error_position (error->message, &offset))
    {
      g_autofree char *text = dyn_sql_workbench_dup_text (self);
      GtkTextIter start, end;

      if (g_strcmp0 (text, sql) != 0 || offset > (int) g_utf8_strlen (sql, -1))
        return;
      gtk_text_buffer_get_iter_at_offset (buffer, &start, offset);
      /* The token there: a word to its end, anything else one character. */
      end = start;
      if (gtk_text_iter_inside_word (&start) && !gtk_text_iter_ends_word (&end))
        gtk_text_iter_forward_word_end (&end);
      if (gtk_text_iter_equal (&start, &end))
        gtk_text_iter_forward_char (&end);
      gtk_text_buffer_apply_tag (buffer, self->error_tag, &start, &end);
      gtk_text_buffer_place_cursor (buffer, &start);
    }
}

/* The plan. */

static GtkWidget *
plan_line (const char *heading,
           const char *text,
           gboolean    code)
{
  GtkWidget *label = gtk_label_new (NULL);
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  g_autofree char *markup = code ? g_strdup_printf ("<span alpha=\"70%%\">%s</span> <tt>%s</tt>", heading, escaped)
                                 : g_strdup_printf ("<span alpha=\"70%%\">%s</span> %s", heading, escaped);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dyn-sql-plan-line");
  return label;
}

static void
clear_plan (DynSqlWorkbench *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->plan_list))) != NULL)
    gtk_list_box_remove (self->plan_list, child);
  g_clear_pointer (&self->plan, dyn_sql_plan_unref);
  gtk_widget_set_visible (GTK_WIDGET (self->plan_list), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->plan_placeholder), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->scan_label), FALSE);
}

static void
update_scan_note (DynSqlWorkbench *self)
{
  gboolean needs = self->plan != NULL && dyn_sql_plan_needs_scan (self->plan);

  if (needs && !self->allow_scan)
    gtk_label_set_label (self->scan_label,
                         _("This statement needs a Scan, which reads the whole table: it is refused before any "
                           "request unless Allow Scan is on."));
  else if (needs)
    gtk_label_set_label (self->scan_label, _("This statement scans: every item of the table is read and paid for."));
  gtk_widget_set_visible (GTK_WIDGET (self->scan_label), needs);
}

/* The engine's notes under the steps: what it read to know the sources
 * (cached or not) and how it shares reads ("each item collection is read
 * once, whole"). The contract has them only in the plan's JSON. */
static void
show_plan_notes (DynSqlWorkbench *self,
                 DynSqlPlan      *plan)
{
  g_autoptr(JsonNode) json = dyn_sql_plan_to_json (plan);
  JsonObject *object = json && JSON_NODE_HOLDS_OBJECT (json) ? json_node_get_object (json) : NULL;
  JsonArray *notes = object && json_object_has_member (object, "notes")
                     ? json_object_get_array_member (object, "notes") : NULL;
  GtkWidget *box, *row;
  guint n = notes ? json_array_get_length (notes) : 0;

  if (n == 0)
    return;
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start (box, 10);
  gtk_widget_set_margin_end (box, 10);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  for (guint i = 0; i < n; i++)
    {
      const char *note = json_array_get_string_element (notes, i);
      GtkWidget *label;

      if (note == NULL || *note == '\0')
        continue;
      label = gtk_label_new (note);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  row = gtk_list_box_row_new ();
  gtk_widget_add_css_class (row, "dyn-sql-plan-notes");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (self->plan_list, row);
}

static void
show_plan (DynSqlWorkbench *self,
           DynSqlPlan      *plan)
{
  guint n = dyn_sql_plan_get_n_steps (plan);

  clear_plan (self);
  self->plan = dyn_sql_plan_ref (plan);
  for (guint i = 0; i < n; i++)
    {
      const DynSqlStep *step = dyn_sql_plan_get_step (plan, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *title = gtk_label_new (NULL);
      GtkWidget *row = gtk_list_box_row_new ();
      g_autofree char *escaped_source = g_markup_escape_text (step->source ? step->source : "", -1);
      g_autofree char *markup = g_strdup_printf ("%u. <b>%s</b> %s", i + 1, step->operation ? step->operation : "",
                                                 escaped_source);
      g_autofree char *runs = NULL;

      gtk_widget_set_margin_start (box, 10);
      gtk_widget_set_margin_end (box, 10);
      gtk_widget_set_margin_top (box, 6);
      gtk_widget_set_margin_bottom (box, 6);
      gtk_label_set_markup (GTK_LABEL (title), markup);
      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_label_set_wrap (GTK_LABEL (title), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (title), TRUE);
      gtk_widget_set_hexpand (title, TRUE);
      gtk_widget_add_css_class (title, "dyn-sql-plan-title");
      gtk_box_append (GTK_BOX (title_box), title);
      if (step->is_scan)
        {
          /* Translators: a badge on a plan step that reads the whole table */
          GtkWidget *badge = gtk_label_new (_("reads the whole table"));

          gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
          gtk_widget_add_css_class (badge, "dyn-sql-scan-badge");
          gtk_box_append (GTK_BOX (title_box), badge);
          gtk_widget_add_css_class (row, "dyn-sql-scan-step");
        }
      gtk_box_append (GTK_BOX (box), title_box);
      if (step->key_condition != NULL && *step->key_condition != '\0')
        gtk_box_append (GTK_BOX (box), plan_line (_("Key:"), step->key_condition, TRUE));
      if (step->filter != NULL && *step->filter != '\0')
        gtk_box_append (GTK_BOX (box), plan_line (_("Filter:"), step->filter, TRUE));
      if (step->residual != NULL && *step->residual != '\0')
        /* Translators: what SQLite checks itself on a plan step's rows
         * follows; the engine's text ends in "(SQLite)" */
        gtk_box_append (GTK_BOX (box), plan_line (C_("sql plan", "Then:"), step->residual, TRUE));
      if (step->max_requests > 0)
        runs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · at most %u request", "%s · at most %u requests",
                                             step->max_requests),
                                step->fan_out ? step->fan_out : "", step->max_requests);
      else
        runs = g_strdup (step->fan_out ? step->fan_out : "");
      if (*runs != '\0')
        gtk_box_append (GTK_BOX (box), plan_line (_("Runs:"), runs, FALSE));
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_append (self->plan_list, row);
    }
  if (n == 0)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = plan_line ("", _("No DynamoDB request: SQLite answers by itself."), FALSE);

      gtk_widget_set_margin_start (label, 10);
      gtk_widget_set_margin_end (label, 10);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_append (self->plan_list, row);
    }
  show_plan_notes (self, plan);
  gtk_widget_set_visible (GTK_WIDGET (self->plan_list), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->plan_placeholder), FALSE);
  update_scan_note (self);
}

static void
append_label_texts (GtkWidget *widget,
                    GString   *s)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (*text == '\0')
        return;
      if (s->len > 0 && s->str[s->len - 1] != '\n')
        g_string_append (s, " · ");
      g_string_append (s, text);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    append_label_texts (child, s);
}

/* The rows. */

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               DynSqlWorkbench          *self)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), 4);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory),
                                                                                                "dyn-nat-chars")));
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

/* The text of a cell as shown, and what it shows. */
static char *
cell_text (const DynValue  *value,
           DynValueDisplay *kind,
           gboolean        *is_null)
{
  *is_null = value == NULL || dyn_value_get_value_type (value) == DYN_VALUE_NULL;
  *kind = DYN_VALUE_DISPLAY_TEXT;
  if (*is_null)
    /* Translators: an SQL NULL in a result cell */
    return g_strdup (C_("sql", "NULL"));
  return dyn_value_format_display (value, CELL_MAX_CHARS, kind);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              DynSqlWorkbench          *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "dyn-column"));
  DynSqlRowObject *object = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const DynValue *value = object && column < object->row->cells->len ? object->row->cells->pdata[column] : NULL;
  DynValueDisplay kind;
  gboolean is_null;
  g_autofree char *text = cell_text (value, &kind, &is_null);

  /* A cell made for an earlier run's rows takes this run's width. */
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory),
                                                                                                "dyn-nat-chars")));
  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  if (kind == DYN_VALUE_DISPLAY_NUMBER)
    gtk_widget_add_css_class (label, "numeric");
  else
    gtk_widget_remove_css_class (label, "numeric");
  if (is_null || kind == DYN_VALUE_DISPLAY_SUMMARY)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
  if (is_null)
    gtk_widget_add_css_class (label, "dyn-sql-null");
  else
    gtk_widget_remove_css_class (label, "dyn-sql-null");
  if (kind == DYN_VALUE_DISPLAY_BINARY)
    gtk_widget_add_css_class (label, "dyn-binary");
  else
    gtk_widget_remove_css_class (label, "dyn-binary");
  if (kind == DYN_VALUE_DISPLAY_EMPTY)
    gtk_widget_add_css_class (label, "dyn-empty");
  else
    gtk_widget_remove_css_class (label, "dyn-empty");
  g_object_set_data (G_OBJECT (label), "dyn-list-item", list_item);
}

static void
cell_unbind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                DynSqlWorkbench          *self)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_inscription_set_text (GTK_INSCRIPTION (label), NULL);
  g_object_set_data (G_OBJECT (label), "dyn-list-item", NULL);
}

static void
remove_columns (DynSqlWorkbench *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
}

static void
set_columns (DynSqlWorkbench    *self,
             const char * const *columns)
{
  if (self->columns != NULL && columns != NULL && g_strv_equal ((const char * const *) self->columns, columns))
    return;
  remove_columns (self);
  g_clear_pointer (&self->columns, g_strfreev);
  if (columns == NULL)
    return;
  self->columns = g_strdupv ((char **) columns);
  for (guint i = 0; columns[i] != NULL; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;
      /* The item's JSON is long: a wider column. */
      guint nat_chars = g_strcmp0 (columns[i], "item") == 0 ? 48 : CLAMP (strlen (columns[i]) + 2, 10, 24);

      g_object_set_data (G_OBJECT (factory), "dyn-column", GUINT_TO_POINTER (i));
      g_object_set_data (G_OBJECT (factory), "dyn-nat-chars", GUINT_TO_POINTER (nat_chars));
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), self);
      g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind_cb), self);
      column = gtk_column_view_column_new (columns[i], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (self->column_view, column);
    }
}

static void
clear_rows (DynSqlWorkbench *self)
{
  g_list_store_remove_all (self->rows);
  update_actions (self);
}

/* The first rows set each column's natural width: the widest of its
 * header and its cells there (cells are made after this, as the rows are
 * shown), within bounds; a column stays resizable. */
#define FIT_ROWS 200
#define FIT_MAX_CHARS 40

static void
fit_columns (DynSqlWorkbench *self,
             GPtrArray       *rows)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  guint n_columns = g_list_model_get_n_items (columns);

  for (guint c = 0; c < n_columns; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);
      const char *title = gtk_column_view_column_get_title (column);
      guint chars = g_utf8_strlen (title ? title : "", -1) + 2;

      for (guint i = 0; i < MIN (rows->len, FIT_ROWS) && chars < FIT_MAX_CHARS; i++)
        {
          DynSqlRow *row = rows->pdata[i];
          DynValueDisplay kind;
          gboolean is_null;
          g_autofree char *text = NULL;

          if (c >= row->cells->len)
            continue;
          text = cell_text (row->cells->pdata[c], &kind, &is_null);
          /* Slack: the inscription counts average characters. */
          chars = MAX (chars, (guint) g_utf8_strlen (text, -1) + 3);
        }
      chars = CLAMP (chars, 6, FIT_MAX_CHARS);
      g_object_set_data (G_OBJECT (factory), "dyn-nat-chars", GUINT_TO_POINTER (chars));
    }
}

static void
append_rows (DynSqlWorkbench *self,
             GPtrArray       *rows)
{
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func (g_object_unref);

  if (rows == NULL || rows->len == 0)
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->rows)) == 0)
    fit_columns (self, rows);
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (objects, dyn_sql_row_object_new (rows->pdata[i]));
  /* The rows now belong to the objects. */
  g_ptr_array_set_free_func (rows, NULL);
  g_ptr_array_set_size (rows, 0);
  g_list_store_splice (self->rows, g_list_model_get_n_items (G_LIST_MODEL (self->rows)), 0, objects->pdata,
                       objects->len);
  update_actions (self);
}

/* The status line: what really happened, per source and in total, in the
 * grid's words. */

static void
append_units (GString *s,
              double   units)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (text, sizeof text, units == (gint64) units ? "%.0f" : "%.1f", units);
  g_string_append_printf (s, " · %s RCU", text);
}

static void
append_cost (GString *s,
             guint    requests,
             guint    pages,
             double   units)
{
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u request", "%u requests", requests), requests);
  g_string_append (s, " · ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", pages), pages);
  append_units (s, units);
}

static void
append_operations (GString                 *s,
                   const DynSqlSourceStats *stats)
{
  struct { const char *name; guint n; } ops[] = {
    { "GetItem", stats->get_items },
    { "BatchGetItem", stats->batch_gets },
    { "Query", stats->queries },
    { "Scan", stats->scans },
  };
  gboolean first = TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      if (ops[i].n == 0)
        continue;
      if (!first)
        g_string_append (s, " + ");
      first = FALSE;
      if (ops[i].n == 1)
        g_string_append (s, ops[i].name);
      else
        g_string_append_printf (s, "%s ×%u", ops[i].name, ops[i].n);
    }
  if (first)
    /* Translators: a source of the statement that was not read */
    g_string_append (s, _("not read"));
}

static char *
describe_result (DynSqlResult *result,
                 guint         n_rows)
{
  GString *s = g_string_new (NULL);
  guint n_sources = dyn_sql_result_get_n_sources (result);
  guint requests = 0, pages = 0;
  double units = 0;

  if (dyn_sql_result_was_cancelled (result))
    {
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "Cancelled: %u row kept", "Cancelled: %u rows kept",
                                              n_rows), n_rows);
    }
  else
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u row", "%u rows", n_rows), n_rows);
  dyn_sql_result_get_totals (result, &requests, &pages, &units);
  if (n_sources == 0)
    {
      g_string_append (s, " · ");
      g_string_append (s, _("no request"));
      return g_string_free (s, FALSE);
    }
  for (guint i = 0; i < n_sources; i++)
    {
      const DynSqlSourceStats *stats = dyn_sql_result_get_source (result, i);

      g_string_append (s, i == 0 ? " — " : "; ");
      append_operations (s, stats);
      g_string_append_printf (s, " %s · ", stats->source);
      append_cost (s, stats->requests, stats->pages, stats->read_units);
      g_string_append (s, " · ");
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", (guint) stats->items),
                              (guint) stats->items);
    }
  if (n_sources > 1)
    {
      g_string_append (s, " — ");
      /* Translators: the cost of all sources of a statement follows */
      g_string_append (s, _("total:"));
      g_string_append (s, " ");
      append_cost (s, requests, pages, units);
    }
  return g_string_free (s, FALSE);
}

/* Explaining and running. */

static void run_cb (GObject *source, GAsyncResult *result, gpointer user_data);

static void
rows_cb (GPtrArray *rows,
         gpointer   user_data)
{
  Task *task = user_data;
  DynSqlWorkbench *self = task->self;
  g_autofree char *text = NULL;
  guint n;

  if (task->generation != self->generation)
    return;
  append_rows (self, rows);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Running… %u row", "Running… %u rows", n), n);
  set_status (self, text);
}

static void
explain_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Task *task = user_data;
  DynSqlWorkbench *self = task->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynSqlPlan) plan = dyn_sql_engine_explain_finish (DYN_SQL_ENGINE (source), result, &error);

  if (task->generation != self->generation || DYN_SQL_ENGINE (source) != self->engine)
    {
      task_free (task);
      return;
    }
  if (plan == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        set_status (self, _("Cancelled"));
      else
        {
          show_error (self, task->sql, error);
          set_status (self, NULL);
        }
      set_busy (self, FALSE);
      task_free (task);
      return;
    }
  show_plan (self, plan);
  if (!task->run)
    {
      guint n = dyn_sql_plan_get_n_steps (plan);

      set_status (self, NULL);
      if (n > 0)
        {
          g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Explained: %u step, no data read",
                                                                "Explained: %u steps, no data read", n), n);
          set_status (self, text);
        }
      set_busy (self, FALSE);
      task_free (task);
      return;
    }
  clear_rows (self);
  set_columns (self, dyn_sql_plan_get_columns (plan));
  gtk_widget_set_visible (self->detail_box, FALSE);
  set_status (self, _("Running…"));
  dyn_sql_engine_run_async (self->engine, task->sql, rows_cb, task, self->cancellable, run_cb, task);
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  Task *task = user_data;
  DynSqlWorkbench *self = task->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynSqlResult) done = dyn_sql_engine_run_finish (DYN_SQL_ENGINE (source), result, &error);
  g_autofree char *text = NULL;

  if (task->generation != self->generation || DYN_SQL_ENGINE (source) != self->engine)
    {
      task_free (task);
      return;
    }
  if (done == NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Cancelled: %u row kept", "Cancelled: %u rows kept", n),
                                n);
      else
        show_error (self, task->sql, error);
      set_status (self, text);
      set_busy (self, FALSE);
      task_free (task);
      return;
    }
  if (self->columns == NULL || g_strv_length (self->columns) == 0)
    set_columns (self, dyn_sql_result_get_columns (done));
  append_rows (self, dyn_sql_result_get_rows (done));
  text = describe_result (done, g_list_model_get_n_items (G_LIST_MODEL (self->rows)));
  set_status (self, text);
  g_clear_pointer (&self->result, dyn_sql_result_free);
  self->result = g_steal_pointer (&done);
  set_busy (self, FALSE);
  task_free (task);
}

static void
start (DynSqlWorkbench *self,
       gboolean         run)
{
  Task *task;
  g_autofree char *sql = NULL;
  g_autofree char *stripped = NULL;

  if (self->engine == NULL || self->busy)
    return;
  sql = dyn_sql_workbench_dup_text (self);
  stripped = g_strstrip (g_strdup (sql));
  clear_error (self);
  if (*stripped == '\0')
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                                     _("Write a SELECT statement first."));

      show_error (self, NULL, error);
      return;
    }
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->generation++;
  if (run)
    g_clear_pointer (&self->result, dyn_sql_result_free);
  dyn_sql_engine_set_allow_scan (self->engine, self->allow_scan);
  task = g_new0 (Task, 1);
  task->self = g_object_ref (self);
  task->sql = g_steal_pointer (&sql);
  task->generation = self->generation;
  task->run = run;
  set_busy (self, TRUE);
  set_status (self, _("Explaining…"));
  dyn_sql_engine_explain_async (self->engine, task->sql, self->cancellable, explain_cb, task);
}

/* Copying and opening rows. */

static GPtrArray *
chosen_rows (DynSqlWorkbench *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  if (gtk_bitset_is_empty (selected))
    for (guint i = 0; i < n; i++)
      g_ptr_array_add (rows, g_list_model_get_item (G_LIST_MODEL (self->rows), i));
  else
    for (guint64 i = 0; i < gtk_bitset_get_size (selected); i++)
      g_ptr_array_add (rows, g_list_model_get_item (G_LIST_MODEL (self->rows), gtk_bitset_get_nth (selected, i)));
  return rows;
}

char *
dyn_sql_workbench_dup_rows_text (DynSqlWorkbench *self,
                                 const char      *format)
{
  g_autoptr(GPtrArray) rows = NULL;
  gboolean csv;
  GString *s;

  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);

  if (self->columns == NULL)
    return NULL;
  csv = g_strcmp0 (format, "csv") == 0;
  rows = chosen_rows (self);
  s = g_string_new (NULL);
  if (csv)
    {
      g_autofree char *header = dyn_sql_row_to_csv_line ((const char * const *) self->columns, NULL);

      g_string_append (s, header);
    }
  for (guint i = 0; i < rows->len; i++)
    {
      DynSqlRowObject *object = rows->pdata[i];
      g_autofree char *line = csv ? dyn_sql_row_to_csv_line ((const char * const *) self->columns, object->row)
                                  : dyn_sql_row_to_json_line ((const char * const *) self->columns, object->row);

      if (line == NULL)
        continue;
      g_string_append (s, line);
      if (!csv && !g_str_has_suffix (line, "\n"))
        g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);
  g_autofree char *text = dyn_sql_workbench_dup_rows_text (self, g_variant_get_string (parameter, NULL));

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

gboolean
dyn_sql_workbench_open_row (DynSqlWorkbench *self,
                            guint            position)
{
  g_autoptr(DynSqlRowObject) object = NULL;

  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), FALSE);

  object = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  if (object == NULL || object->row->item == NULL)
    return FALSE;
  dyn_item_detail_set_item (self->detail, object->row->item);
  dyn_item_detail_set_title (self->detail, object->row->source);
  gtk_label_set_label (self->detail_title, object->row->source ? object->row->source : "");
  if (!gtk_widget_get_visible (self->detail_box))
    {
      int width = gtk_widget_get_width (GTK_WIDGET (self->results_paned));

      gtk_widget_set_visible (self->detail_box, TRUE);
      if (width > 0)
        gtk_paned_set_position (self->results_paned, MAX (width - 400, width / 2));
    }
  update_actions (self);
  return TRUE;
}

static void
open_item_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  if (gtk_bitset_get_size (selected) == 1)
    dyn_sql_workbench_open_row (self, gtk_bitset_get_nth (selected, 0));
}

static void
close_item_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);

  gtk_widget_set_visible (self->detail_box, FALSE);
  dyn_item_detail_set_item (self->detail, NULL);
  update_actions (self);
}

static void
activate_cb (GtkColumnView   *view,
             guint            position,
             DynSqlWorkbench *self)
{
  dyn_sql_workbench_open_row (self, position);
}

static void
selection_changed_cb (GtkSelectionModel *model,
                      guint              position,
                      guint              n_items,
                      DynSqlWorkbench   *self)
{
  update_actions (self);
}

/* The row menu: a right-click selects the row under the pointer first. */
static void
row_menu_pressed_cb (GtkGestureClick *gesture,
                     int              n_press,
                     double           x,
                     double           y,
                     DynSqlWorkbench *self)
{
  GtkWidget *view = GTK_WIDGET (self->column_view);
  GtkWidget *picked = gtk_widget_pick (view, x, y, GTK_PICK_DEFAULT);
  GtkWidget *rows = picked ? gtk_widget_get_ancestor (picked, GTK_TYPE_LIST_VIEW) : NULL;
  GtkListItem *list_item = NULL;
  graphene_point_t point;

  if (rows == NULL)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  for (GtkWidget *w = picked; w != NULL && w != view && list_item == NULL; w = gtk_widget_get_parent (w))
    list_item = g_object_get_data (G_OBJECT (w), "dyn-list-item");
  if (list_item == NULL && picked != NULL)
    {
      /* The row's own widget: its first cell knows the item. */
      for (GtkWidget *w = picked; w != NULL && w != view && list_item == NULL; w = gtk_widget_get_parent (w))
        for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL && list_item == NULL;
             c = gtk_widget_get_next_sibling (c))
          {
            GtkWidget *inner = gtk_widget_get_first_child (c);

            if (inner != NULL)
              list_item = g_object_get_data (G_OBJECT (inner), "dyn-list-item");
          }
    }
  if (list_item != NULL &&
      !gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), gtk_list_item_get_position (list_item)))
    gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), gtk_list_item_get_position (list_item),
                                     TRUE);
  if (!gtk_widget_compute_point (view, GTK_WIDGET (self), &GRAPHENE_POINT_INIT (x, y), &point))
    point = GRAPHENE_POINT_INIT (x, y);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_popover),
                               &(GdkRectangle) { (int) point.x, (int) point.y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_popover));
}

static gboolean
row_menu_key_cb (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;
  graphene_rect_t bounds;

  if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view)))
    return FALSE;
  if (!gtk_widget_compute_bounds (focus, widget, &bounds))
    bounds = GRAPHENE_RECT_INIT (0, 0, 48, 48);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->row_popover),
                               &(GdkRectangle) { (int) (bounds.origin.x + MIN (bounds.size.width, 48)),
                                                 (int) (bounds.origin.y + bounds.size.height / 2), 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->row_popover));
  return TRUE;
}

/* The keys: in the capture phase, so that the editor's own bindings
 * (Ctrl+. opens the emoji chooser in a text view) come second. Escape only
 * when something runs (else the editor keeps it). */
static gboolean
run_key_cb (GtkWidget *widget,
            GVariant  *args,
            gpointer   user_data)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);

  if (self->busy || self->engine == NULL)
    return FALSE;
  dyn_sql_workbench_run (self);
  return TRUE;
}

static gboolean
explain_key_cb (GtkWidget *widget,
                GVariant  *args,
                gpointer   user_data)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);

  if (self->busy || self->engine == NULL)
    return FALSE;
  dyn_sql_workbench_explain (self);
  return TRUE;
}

static gboolean
cancel_key_cb (GtkWidget *widget,
               GVariant  *args,
               gpointer   user_data)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (widget);

  if (!self->busy)
    return FALSE;
  dyn_sql_workbench_cancel (self);
  return TRUE;
}

static void
add_key (GtkShortcutController *keys,
         guint                  keyval,
         GdkModifierType        modifiers,
         GtkShortcutFunc        func)
{
  gtk_shortcut_controller_add_shortcut (keys, gtk_shortcut_new (gtk_keyval_trigger_new (keyval, modifiers),
                                                                gtk_callback_action_new (func, NULL, NULL)));
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  dyn_sql_workbench_run (DYN_SQL_WORKBENCH (widget));
}

static void
explain_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  dyn_sql_workbench_explain (DYN_SQL_WORKBENCH (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  dyn_sql_workbench_cancel (DYN_SQL_WORKBENCH (widget));
}

static void
update_style_scheme (DynSqlWorkbench *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, id);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (buffer), scheme);
}

static void
dark_cb (AdwStyleManager *manager,
         GParamSpec      *pspec,
         DynSqlWorkbench *self)
{
  update_style_scheme (self);
}

static void
dyn_sql_workbench_dispose (GObject *object)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  self->generation++;
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  if (self->row_popover != NULL)
    g_clear_pointer (&self->row_popover, gtk_widget_unparent);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_SQL_WORKBENCH);
  g_clear_object (&self->engine);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->plan, dyn_sql_plan_unref);
  g_clear_pointer (&self->result, dyn_sql_result_free);

  G_OBJECT_CLASS (dyn_sql_workbench_parent_class)->dispose (object);
}

static void
dyn_sql_workbench_finalize (GObject *object)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (object);

  g_strfreev (self->columns);
  g_free (self->status_text);
  g_free (self->error_text);

  G_OBJECT_CLASS (dyn_sql_workbench_parent_class)->finalize (object);
}

static void
dyn_sql_workbench_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (object);

  switch (prop_id)
    {
    case PROP_ALLOW_SCAN:
      g_value_set_boolean (value, self->allow_scan);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_sql_workbench_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  DynSqlWorkbench *self = DYN_SQL_WORKBENCH (object);

  switch (prop_id)
    {
    case PROP_ALLOW_SCAN:
      dyn_sql_workbench_set_allow_scan (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_sql_workbench_class_init (DynSqlWorkbenchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  g_type_ensure (DYN_TYPE_ITEM_DETAIL);

  object_class->dispose = dyn_sql_workbench_dispose;
  object_class->finalize = dyn_sql_workbench_finalize;
  object_class->get_property = dyn_sql_workbench_get_property;
  object_class->set_property = dyn_sql_workbench_set_property;

  properties[PROP_ALLOW_SCAN] =
    g_param_spec_boolean ("allow-scan", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-sql-workbench.ui");
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, main_paned);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, editor_paned);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, source_view);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, error_label);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, plan_title);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, plan_placeholder);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, plan_list);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, scan_label);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, scan_switch);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, results_paned);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, column_view);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, detail_box);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, detail_title);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, detail);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, spinner);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynSqlWorkbench, row_menu);

  gtk_widget_class_install_action (widget_class, "sql.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "sql.explain", NULL, explain_action);
  gtk_widget_class_install_action (widget_class, "sql.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "sql.copy", "s", copy_action);
  gtk_widget_class_install_action (widget_class, "sql.open-item", NULL, open_item_action);
  gtk_widget_class_install_action (widget_class, "sql.close-item", NULL, close_item_action);
}

static void
dyn_sql_workbench_init (DynSqlWorkbench *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *sql;
  GtkTextBuffer *buffer;
  GtkEventController *keys;
  GtkGesture *gesture;

  gtk_widget_init_template (GTK_WIDGET (self));

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  sql = gtk_source_language_manager_get_language (languages, "sql");
  if (sql != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), sql);
  self->error_tag = gtk_text_buffer_create_tag (buffer, "error",
                                                "underline", PANGO_UNDERLINE_ERROR,
                                                "background", "rgba(224, 27, 36, 0.15)",
                                                NULL);
  update_style_scheme (self);
  g_signal_connect (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (dark_cb), self);

  self->rows = g_list_store_new (DYN_TYPE_SQL_ROW_OBJECT);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (selection_changed_cb), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  g_object_bind_property (self, "allow-scan", self->scan_switch, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Return, GDK_CONTROL_MASK, run_key_cb);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_KP_Enter, GDK_CONTROL_MASK, run_key_cb);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK, explain_key_cb);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_period, GDK_CONTROL_MASK, cancel_key_cb);
  add_key (GTK_SHORTCUT_CONTROLLER (keys), GDK_KEY_Escape, 0, cancel_key_cb);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  self->row_popover = gtk_popover_menu_new_from_model (self->row_menu);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->row_popover), FALSE);
  gtk_widget_set_halign (self->row_popover, GTK_ALIGN_START);
  gtk_widget_set_parent (self->row_popover, GTK_WIDGET (self));
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

  set_status (self, NULL);
  update_actions (self);
}

GtkWidget *
dyn_sql_workbench_new (void)
{
  return g_object_new (DYN_TYPE_SQL_WORKBENCH, NULL);
}

void
dyn_sql_workbench_set_engine (DynSqlWorkbench *self,
                              DynSqlEngine    *engine)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));
  g_return_if_fail (engine == NULL || DYN_IS_SQL_ENGINE (engine));

  if (self->engine == engine)
    return;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  self->generation++;
  g_set_object (&self->engine, engine);
  clear_error (self);
  clear_plan (self);
  clear_rows (self);
  set_columns (self, NULL);
  g_clear_pointer (&self->result, dyn_sql_result_free);
  gtk_widget_set_visible (self->detail_box, FALSE);
  dyn_item_detail_set_item (self->detail, NULL);
  set_status (self, NULL);
  set_busy (self, FALSE);
  update_actions (self);
}

DynSqlEngine *
dyn_sql_workbench_get_engine (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->engine;
}

char *
dyn_sql_workbench_dup_text (DynSqlWorkbench *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);

  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

void
dyn_sql_workbench_set_text (DynSqlWorkbench *self,
                            const char      *text)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));

  clear_error (self);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view)), text ? text : "", -1);
}

gboolean
dyn_sql_workbench_get_allow_scan (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), FALSE);
  return self->allow_scan;
}

void
dyn_sql_workbench_set_allow_scan (DynSqlWorkbench *self,
                                  gboolean         allow)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));

  allow = !!allow;
  if (self->allow_scan == allow)
    return;
  self->allow_scan = allow;
  update_scan_note (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOW_SCAN]);
}

void
dyn_sql_workbench_explain (DynSqlWorkbench *self)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));
  start (self, FALSE);
}

void
dyn_sql_workbench_run (DynSqlWorkbench *self)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));
  start (self, TRUE);
}

void
dyn_sql_workbench_cancel (DynSqlWorkbench *self)
{
  g_return_if_fail (DYN_IS_SQL_WORKBENCH (self));

  if (self->busy && self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

gboolean
dyn_sql_workbench_get_busy (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), FALSE);
  return self->busy;
}

const char *
dyn_sql_workbench_get_status_text (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->status_text;
}

const char *
dyn_sql_workbench_get_error_text (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->error_text;
}

char *
dyn_sql_workbench_dup_plan_text (DynSqlWorkbench *self)
{
  GString *s;

  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);

  if (self->plan == NULL)
    return NULL;
  s = g_string_new (NULL);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->plan_list)); row;
       row = gtk_widget_get_next_sibling (row))
    {
      append_label_texts (row, s);
      g_string_append_c (s, '\n');
    }
  append_label_texts (GTK_WIDGET (self->scan_label), s);
  return g_string_free (s, FALSE);
}

DynSqlPlan *
dyn_sql_workbench_get_plan (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->plan;
}

DynSqlResult *
dyn_sql_workbench_get_result (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->result;
}

const char * const *
dyn_sql_workbench_get_columns (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return (const char * const *) self->columns;
}

guint
dyn_sql_workbench_get_n_rows (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->rows));
}

const DynSqlRow *
dyn_sql_workbench_get_row (DynSqlWorkbench *self,
                           guint            position)
{
  g_autoptr(DynSqlRowObject) object = NULL;

  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);

  object = g_list_model_get_item (G_LIST_MODEL (self->rows), position);
  /* The store keeps the object, and with it the row. */
  return object ? object->row : NULL;
}

char *
dyn_sql_workbench_dup_cell_text (DynSqlWorkbench *self,
                                 guint            position,
                                 guint            column)
{
  const DynSqlRow *row = dyn_sql_workbench_get_row (self, position);
  DynValueDisplay kind;
  gboolean is_null;

  if (row == NULL || column >= row->cells->len)
    return NULL;
  return cell_text (row->cells->pdata[column], &kind, &is_null);
}

GtkColumnView *
dyn_sql_workbench_get_column_view (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->column_view;
}

GtkSourceView *
dyn_sql_workbench_get_source_view (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->source_view;
}

DynItemDetail *
dyn_sql_workbench_get_detail (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), NULL);
  return self->detail;
}

gboolean
dyn_sql_workbench_get_detail_shown (DynSqlWorkbench *self)
{
  g_return_val_if_fail (DYN_IS_SQL_WORKBENCH (self), FALSE);
  return gtk_widget_get_visible (self->detail_box);
}
