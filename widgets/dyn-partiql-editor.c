/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-partiql-editor"

/* The PartiQL editor (see dyn-partiql-editor.h): it renders what the linter
 * (client/partiql) says and what the window's runs return; running and the
 * key schemas are the window's. */

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "dyn-partiql-editor.h"
#include "dyn-value-editor.h"
#include "dyn-widgets-private.h"

#define LINT_DELAY_MS 150

struct _DynPartiqlEditor
{
  AdwBin                parent_instance;

  GtkSourceView        *view;
  GtkListBox           *diagnostics_list;
  GtkWidget            *parameters_box;
  GtkListBox           *parameters_list;
  GtkListView          *results_view;
  GtkLabel             *status_label;
  GtkDropDown          *language_dropdown;
  GtkTextView          *snippet_view;
  GtkMenuButton        *snippet_button;

  GtkTextTag           *error_tag;
  GtkTextTag           *warning_tag;
  GtkStringList        *results;
  GPtrArray            *diagnostics;   /* DynPartiqlDiagnostic* */
  GPtrArray            *editors;       /* DynValueEditor*, one per `?` */
  DynPartiqlSchemaFunc  schema_func;
  gpointer              schema_data;
  guint                 lint_id;
  char                 *endpoint;
  char                 *region;
  DynSnippetLanguage    language;
  char                 *snippet;
  GStrv                 tables;        /* the connection's, or NULL */
};

G_DEFINE_FINAL_TYPE (DynPartiqlEditor, dyn_partiql_editor, ADW_TYPE_BIN)

static GtkTextBuffer *
get_buffer (DynPartiqlEditor *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view));
}

/* ------------------------------------------------------------------------ */
/* Snippets */

static void
update_snippet (DynPartiqlEditor *self)
{
  g_autoptr(GPtrArray) statements = NULL;
  g_autoptr(GPtrArray) parameters = NULL;
  g_autofree char *snippet = NULL;

  if (dyn_partiql_editor_collect (self, &statements, &parameters, NULL))
    snippet = dyn_snippet_generate_partiql (self->language, statements, parameters, self->endpoint, self->region);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "partiql.copy-snippet", snippet != NULL);
  if (g_strcmp0 (snippet, self->snippet) == 0)
    return;
  g_free (self->snippet);
  self->snippet = g_steal_pointer (&snippet);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->snippet_view),
                            self->snippet ? self->snippet : _("No statement to write as a snippet yet"), -1);
}

static void
language_selected_cb (DynPartiqlEditor *self)
{
  guint pos = gtk_drop_down_get_selected (self->language_dropdown);

  if (pos < DYN_SNIPPET_N_LANGUAGES)
    dyn_partiql_editor_set_snippet_language (self, (DynSnippetLanguage) pos);
}

static void
copy_snippet_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  DynPartiqlEditor *self = DYN_PARTIQL_EDITOR (widget);

  if (self->snippet != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->snippet);
}

/* ------------------------------------------------------------------------ */
/* Parameters */

static void
parameter_changed_cb (DynPartiqlEditor *self)
{
  update_snippet (self);
}

/* One value editor per `?`; the values already typed stay. */
static void
set_n_parameters (DynPartiqlEditor *self,
                  guint             n)
{
  while (self->editors->len > n)
    {
      GtkWidget *editor = g_ptr_array_steal_index (self->editors, self->editors->len - 1);
      GtkWidget *row = gtk_widget_get_ancestor (editor, GTK_TYPE_LIST_BOX_ROW);

      gtk_list_box_remove (self->parameters_list, row);
    }
  while (self->editors->len < n)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      g_autofree char *number = g_strdup_printf ("%u", self->editors->len + 1);
      g_autofree char *name = g_strdup_printf (_("Value of parameter %u"), self->editors->len + 1);
      GtkWidget *label = gtk_label_new (number);
      GtkWidget *editor = dyn_value_editor_new ();

      gtk_widget_set_margin_start (box, 12);
      gtk_widget_set_margin_end (box, 6);
      gtk_widget_set_margin_top (box, 3);
      gtk_widget_set_margin_bottom (box, 3);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "numeric");
      gtk_widget_set_hexpand (editor, TRUE);
      gtk_accessible_update_property (GTK_ACCESSIBLE (dyn_value_editor_get_entry (DYN_VALUE_EDITOR (editor))),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), editor);
      g_signal_connect_swapped (dyn_value_editor_get_entry (DYN_VALUE_EDITOR (editor)), "changed",
                                G_CALLBACK (parameter_changed_cb), self);
      g_signal_connect_swapped (editor, "notify::value-type", G_CALLBACK (parameter_changed_cb), self);
      gtk_list_box_append (self->parameters_list, box);
      g_ptr_array_add (self->editors, editor);
    }
  gtk_widget_set_visible (self->parameters_box, n > 0);
}

/* ------------------------------------------------------------------------ */
/* Lint */

static void
open_in_sql_cb (GtkButton        *button,
                DynPartiqlEditor *self)
{
  g_autofree char *text = dyn_partiql_editor_dup_text (self);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-in-sql", "s", text);
}

static void
fix_cb (GtkButton        *button,
        DynPartiqlEditor *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "diagnostic"));

  dyn_partiql_editor_apply_fix (self, index);
}

static GtkWidget *
diagnostic_row (DynPartiqlEditor           *self,
                const DynPartiqlDiagnostic *d,
                guint                       index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  const char *icon = d->severity == DYN_PARTIQL_ERROR ? "dialog-error-symbolic" :
                     d->severity == DYN_PARTIQL_WARNING ? "dialog-warning-symbolic" : "dialog-information-symbolic";
  GtkWidget *image = gtk_image_new_from_icon_name (icon);
  g_autofree char *where = g_strdup_printf ("%u:%u", d->line, d->column);
  GtkWidget *position = gtk_label_new (where);
  GtkWidget *message = gtk_label_new (d->message);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_add_css_class (image, d->severity == DYN_PARTIQL_ERROR ? "error" :
                                   d->severity == DYN_PARTIQL_WARNING ? "warning" : "accent");
  gtk_widget_add_css_class (position, "numeric");
  gtk_widget_add_css_class (position, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (box), image);
  gtk_box_append (GTK_BOX (box), position);
  gtk_box_append (GTK_BOX (box), message);
  if (d->fix_label != NULL && d->fix_text != NULL)
    {
      GtkWidget *fix = gtk_button_new_with_label (d->fix_label);

      gtk_widget_set_valign (fix, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (fix, _("Apply the quick fix"));
      g_object_set_data (G_OBJECT (fix), "diagnostic", GUINT_TO_POINTER (index));
      g_signal_connect (fix, "clicked", G_CALLBACK (fix_cb), self);
      gtk_box_append (GTK_BOX (box), fix);
    }
  if (d->open_in_sql)
    {
      GtkWidget *open = gtk_button_new_with_mnemonic (_("Open in _SQL Workbench"));

      gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (open, _("The SQL Workbench runs this statement with SQLite over DynamoDB reads"));
      g_signal_connect (open, "clicked", G_CALLBACK (open_in_sql_cb), self);
      gtk_box_append (GTK_BOX (box), open);
    }
  return box;
}

static const DynTableKeys *
schema_cb (const char *table,
           gpointer    user_data)
{
  DynPartiqlEditor *self = user_data;

  return self->schema_func ? self->schema_func (table, self->schema_data) : NULL;
}

static void
lint_now (DynPartiqlEditor *self)
{
  GtkTextBuffer *buffer = get_buffer (self);
  g_autofree char *text = dyn_partiql_editor_dup_text (self);
  g_autoptr(GPtrArray) statements = NULL;
  GtkTextIter start, end;
  GtkWidget *child;
  guint n_parameters = 0;

  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  self->diagnostics = dyn_partiql_lint_with_tables (text, schema_cb, self, (const char * const *) self->tables);

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->warning_tag, &start, &end);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->diagnostics_list))) != NULL)
    gtk_list_box_remove (self->diagnostics_list, child);

  for (guint i = 0; i < self->diagnostics->len; i++)
    {
      const DynPartiqlDiagnostic *d = self->diagnostics->pdata[i];
      gsize length = strlen (text);
      gsize from = MIN (d->start, length);
      gsize to = MIN (MAX (d->end, from), length);

      gtk_text_buffer_get_iter_at_offset (buffer, &start, g_utf8_pointer_to_offset (text, text + from));
      gtk_text_buffer_get_iter_at_offset (buffer, &end, g_utf8_pointer_to_offset (text, text + to));
      if (gtk_text_iter_equal (&start, &end) && !gtk_text_iter_forward_char (&end))
        gtk_text_iter_backward_char (&start);
      gtk_text_buffer_apply_tag (buffer, d->severity == DYN_PARTIQL_ERROR ? self->error_tag : self->warning_tag,
                                 &start, &end);
      gtk_list_box_append (self->diagnostics_list, diagnostic_row (self, d, i));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->diagnostics_list), self->diagnostics->len > 0);

  statements = dyn_partiql_split (text);
  for (guint i = 0; i < statements->len; i++)
    {
      g_autoptr(DynPartiqlInfo) info = dyn_partiql_inspect (statements->pdata[i]);

      if (info != NULL)
        n_parameters += info->n_parameters;
    }
  set_n_parameters (self, n_parameters);
  update_snippet (self);
}

static gboolean
lint_timeout_cb (gpointer user_data)
{
  DynPartiqlEditor *self = user_data;

  self->lint_id = 0;
  lint_now (self);
  return G_SOURCE_REMOVE;
}

void
dyn_partiql_editor_queue_lint (DynPartiqlEditor *self)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  /* Debounced: typing restarts the wait; the lint runs once it settles. */
  g_clear_handle_id (&self->lint_id, g_source_remove);
  self->lint_id = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, LINT_DELAY_MS, lint_timeout_cb, self, NULL);
}

static void
buffer_changed_cb (DynPartiqlEditor *self)
{
  dyn_partiql_editor_queue_lint (self);
}

/* ------------------------------------------------------------------------ */
/* Results */

static void
setup_result_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_list_item_set_child (item, label);
}

static void
bind_result_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item)
{
  GtkStringObject *object = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (object));
}

/* ------------------------------------------------------------------------ */

static gboolean
run_shortcut_cb (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  return gtk_widget_activate_action (widget, "win.partiql-run", NULL);
}

static void
update_style_scheme (DynPartiqlEditor *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, id);

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (get_buffer (self)), scheme);
}

static void
dyn_partiql_editor_dispose (GObject *object)
{
  DynPartiqlEditor *self = (DynPartiqlEditor *) object;

  g_clear_handle_id (&self->lint_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  /* The value editors go with the template; their signals must not reach
   * an editor whose view is gone. */
  for (guint i = 0; i < self->editors->len; i++)
    {
      GtkWidget *editor = g_ptr_array_index (self->editors, i);

      g_signal_handlers_disconnect_by_data (editor, self);
      g_signal_handlers_disconnect_by_data (dyn_value_editor_get_entry (DYN_VALUE_EDITOR (editor)), self);
    }
  g_ptr_array_set_size (self->editors, 0);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_PARTIQL_EDITOR);

  G_OBJECT_CLASS (dyn_partiql_editor_parent_class)->dispose (object);
}

static void
dyn_partiql_editor_finalize (GObject *object)
{
  DynPartiqlEditor *self = (DynPartiqlEditor *) object;

  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);
  g_clear_pointer (&self->editors, g_ptr_array_unref);
  g_clear_object (&self->results);
  g_free (self->endpoint);
  g_free (self->region);
  g_free (self->snippet);
  g_strfreev (self->tables);

  G_OBJECT_CLASS (dyn_partiql_editor_parent_class)->finalize (object);
}

static void
dyn_partiql_editor_class_init (DynPartiqlEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  object_class->dispose = dyn_partiql_editor_dispose;
  object_class->finalize = dyn_partiql_editor_finalize;

  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-partiql-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, view);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, diagnostics_list);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, parameters_box);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, parameters_list);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, results_view);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, language_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, snippet_view);
  gtk_widget_class_bind_template_child (widget_class, DynPartiqlEditor, snippet_button);

  gtk_widget_class_install_action (widget_class, "partiql.copy-snippet", NULL, copy_snippet_action);
}

static void
dyn_partiql_editor_init (DynPartiqlEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *sql;
  GtkTextBuffer *buffer;
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkEventController *controller;
  GdkRGBA red = { 0.88, 0.11, 0.14, 1 };
  GdkRGBA orange = { 0.90, 0.51, 0.0, 1 };

  self->editors = g_ptr_array_new ();
  self->diagnostics = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_partiql_diagnostic_free);
  self->results = gtk_string_list_new (NULL);
  gtk_widget_init_template (GTK_WIDGET (self));

  buffer = get_buffer (self);
  sql = gtk_source_language_manager_get_language (languages, "sql");
  if (sql != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), sql);
  self->error_tag = gtk_text_buffer_create_tag (buffer, "partiql-error",
                                                "underline", PANGO_UNDERLINE_ERROR,
                                                "underline-rgba", &red, NULL);
  self->warning_tag = gtk_text_buffer_create_tag (buffer, "partiql-warning",
                                                  "underline", PANGO_UNDERLINE_ERROR,
                                                  "underline-rgba", &orange, NULL);
  g_signal_connect_swapped (buffer, "changed", G_CALLBACK (buffer_changed_cb), self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (update_style_scheme), self);
  update_style_scheme (self);

  for (guint i = 0; i < DYN_SNIPPET_N_LANGUAGES; i++)
    gtk_string_list_append (names, dyn_snippet_language_get_label (i));
  gtk_drop_down_set_model (self->language_dropdown, G_LIST_MODEL (names));
  g_signal_connect_swapped (self->language_dropdown, "notify::selected", G_CALLBACK (language_selected_cb), self);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_result_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_result_cb), NULL);
  gtk_list_view_set_factory (self->results_view, factory);
  gtk_list_view_set_model (self->results_view,
                           GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->results)))));

  /* Ctrl+Enter runs, also in the source view (which would take it as a
   * newline): a capture-phase shortcut. */
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < 2; i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
      gtk_shortcut_new (gtk_keyval_trigger_new (i == 0 ? GDK_KEY_Return : GDK_KEY_KP_Enter, GDK_CONTROL_MASK),
                        gtk_callback_action_new (run_shortcut_cb, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  update_snippet (self);
}

/* ------------------------------------------------------------------------ */
/* Public API */

GtkWidget *
dyn_partiql_editor_new (void)
{
  return g_object_new (DYN_TYPE_PARTIQL_EDITOR, NULL);
}

char *
dyn_partiql_editor_dup_text (DynPartiqlEditor *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  gtk_text_buffer_get_bounds (get_buffer (self), &start, &end);
  return gtk_text_buffer_get_text (get_buffer (self), &start, &end, FALSE);
}

void
dyn_partiql_editor_set_text (DynPartiqlEditor *self,
                             const char       *text)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  gtk_text_buffer_set_text (get_buffer (self), text ? text : "", -1);
}

GtkTextView *
dyn_partiql_editor_get_view (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  return GTK_TEXT_VIEW (self->view);
}

void
dyn_partiql_editor_set_schema_func (DynPartiqlEditor     *self,
                                    DynPartiqlSchemaFunc  func,
                                    gpointer              user_data)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  self->schema_func = func;
  self->schema_data = user_data;
  dyn_partiql_editor_queue_lint (self);
}

void
dyn_partiql_editor_set_tables (DynPartiqlEditor   *self,
                               const char * const *tables)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  g_strfreev (self->tables);
  self->tables = g_strdupv ((char **) tables);
  dyn_partiql_editor_queue_lint (self);
}

gboolean
dyn_partiql_editor_get_lint_pending (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), FALSE);

  return self->lint_id != 0;
}

GPtrArray *
dyn_partiql_editor_get_diagnostics (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  return self->diagnostics;
}

gboolean
dyn_partiql_editor_apply_fix (DynPartiqlEditor *self,
                              guint             index)
{
  GtkTextBuffer *buffer;
  g_autofree char *text = NULL;
  const DynPartiqlDiagnostic *d;
  GtkTextIter start, end;
  gsize length;

  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), FALSE);

  if (self->lint_id != 0 || index >= self->diagnostics->len)
    return FALSE;   /* the positions are of an older text */
  d = self->diagnostics->pdata[index];
  if (d->fix_text == NULL)
    return FALSE;
  buffer = get_buffer (self);
  text = dyn_partiql_editor_dup_text (self);
  length = strlen (text);
  if (d->start > length || d->end > length || d->end < d->start)
    return FALSE;
  gtk_text_buffer_get_iter_at_offset (buffer, &start, g_utf8_pointer_to_offset (text, text + d->start));
  gtk_text_buffer_get_iter_at_offset (buffer, &end, g_utf8_pointer_to_offset (text, text + d->end));
  {
    /* The fix is copied: deleting the range relints and frees @d later. */
    g_autofree char *fix = g_strdup (d->fix_text);

    gtk_text_buffer_begin_user_action (buffer);
    gtk_text_buffer_delete (buffer, &start, &end);
    gtk_text_buffer_insert (buffer, &start, fix, -1);
    gtk_text_buffer_end_user_action (buffer);
  }
  return TRUE;
}

guint
dyn_partiql_editor_get_n_parameters (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), 0);

  return self->editors->len;
}

void
dyn_partiql_editor_set_parameter (DynPartiqlEditor *self,
                                  guint             index,
                                  DynValueType      type,
                                  const char       *text)
{
  DynValueEditor *editor;

  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));
  g_return_if_fail (index < self->editors->len);

  editor = self->editors->pdata[index];
  dyn_value_editor_set_value_type (editor, type);
  dyn_value_editor_set_text (editor, text);
}

/* A statement without `?` has NULL in the list. */
static void
value_list_free (gpointer data)
{
  if (data != NULL)
    dyn_value_unref (data);
}

gboolean
dyn_partiql_editor_collect (DynPartiqlEditor  *self,
                            GPtrArray        **statements,
                            GPtrArray        **parameters,
                            GError           **error)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) split = NULL;
  g_autoptr(GPtrArray) values = NULL;
  guint next = 0;

  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), FALSE);

  text = dyn_partiql_editor_dup_text (self);
  split = dyn_partiql_split (text);
  values = g_ptr_array_new_with_free_func (value_list_free);
  for (guint i = 0; i < split->len; i++)
    {
      g_autoptr(DynPartiqlInfo) info = dyn_partiql_inspect (split->pdata[i]);
      guint n = info != NULL ? info->n_parameters : 0;
      g_autoptr(DynValue) list = NULL;

      if (n > 0)
        list = dyn_value_new_list ();
      for (guint j = 0; j < n; j++)
        {
          DynValue *value;

          if (next >= self->editors->len)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("The parameters are not ready yet"));
              return FALSE;
            }
          value = dyn_value_editor_dup_value (self->editors->pdata[next], error);
          if (value == NULL)
            {
              g_prefix_error (error, _("Parameter %u: "), next + 1);
              return FALSE;
            }
          dyn_value_list_take (list, value);
          next++;
        }
      g_ptr_array_add (values, g_steal_pointer (&list));
    }
  if (split->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("There is no statement to run"));
      return FALSE;
    }
  if (statements != NULL)
    *statements = g_steal_pointer (&split);
  if (parameters != NULL)
    *parameters = g_steal_pointer (&values);
  return TRUE;
}

void
dyn_partiql_editor_clear_results (DynPartiqlEditor *self)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  gtk_string_list_splice (self->results, 0, g_list_model_get_n_items (G_LIST_MODEL (self->results)), NULL);
}

void
dyn_partiql_editor_add_items (DynPartiqlEditor *self,
                              GPtrArray        *items)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = NULL;
  guint n;

  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      g_autofree char *line = dyn_value_to_plain_json_string (items->pdata[i]);

      g_strv_builder_add (builder, line);
    }
  lines = g_strv_builder_end (builder);
  n = g_list_model_get_n_items (G_LIST_MODEL (self->results));
  gtk_string_list_splice (self->results, n, 0, (const char * const *) lines);
}

guint
dyn_partiql_editor_get_n_results (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->results));
}

char *
dyn_partiql_editor_dup_result (DynPartiqlEditor *self,
                               guint             position)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  return g_strdup (gtk_string_list_get_string (self->results, position));
}

void
dyn_partiql_editor_set_status (DynPartiqlEditor *self,
                               const char       *text)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  gtk_label_set_text (self->status_label, text ? text : "");
}

const char *
dyn_partiql_editor_get_status (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  return gtk_label_get_text (self->status_label);
}

void
dyn_partiql_editor_set_endpoint (DynPartiqlEditor *self,
                                 const char       *endpoint,
                                 const char       *region)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));

  g_free (self->endpoint);
  self->endpoint = g_strdup (endpoint);
  g_free (self->region);
  self->region = g_strdup (region);
  update_snippet (self);
}

void
dyn_partiql_editor_set_snippet_language (DynPartiqlEditor   *self,
                                         DynSnippetLanguage  lang)
{
  g_return_if_fail (DYN_IS_PARTIQL_EDITOR (self));
  g_return_if_fail (lang < DYN_SNIPPET_N_LANGUAGES);

  self->language = lang;
  if (gtk_drop_down_get_selected (self->language_dropdown) != lang)
    gtk_drop_down_set_selected (self->language_dropdown, lang);
  update_snippet (self);
}

const char *
dyn_partiql_editor_get_snippet (DynPartiqlEditor *self)
{
  g_return_val_if_fail (DYN_IS_PARTIQL_EDITOR (self), NULL);

  return self->snippet;
}
