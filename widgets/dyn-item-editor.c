/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-editor"
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "dyn-item-editor.h"
#include "dyn-widgets-resources.h"
#include "dyn-item-text.h"
#include "dyn-json.h"

struct _DynItemEditor
{
  AdwWindow        parent_instance;

  DynEditSession  *session;
  DynItemObject   *object;       /* NULL: a create */
  DynValue        *before;       /* what the write would be guarded by; NULL for a create */
  DynValue        *item;         /* the text's item while valid */
  char            *error_message;
  char            *guard_text;
  guint            error_line;
  gboolean         ddb_json;
  gboolean         updating;
  GtkTextTag      *error_tag;

  GtkToggleButton *plain_button;
  GtkToggleButton *ddb_button;
  GtkLabel        *subtitle_label;
  GtkSourceView   *source_view;
  GtkImage        *status_icon;
  GtkLabel        *status_label;
  GtkLabel        *guard_label;
};

enum {
  PROP_0,
  PROP_DDB_JSON,
  PROP_VALID,
  PROP_ERROR_LINE,
  N_PROPS
};

enum {
  SIGNAL_STAGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynItemEditor, dyn_item_editor, ADW_TYPE_WINDOW)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static GtkTextBuffer *
get_buffer (DynItemEditor *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->source_view));
}

/* DynamoDB JSON with one attribute per line, each value on its line. */
static char *
to_ddb_text (const DynValue *item)
{
  GString *out = g_string_new ("{\n");
  guint n = dyn_value_get_length (item);

  for (guint i = 0; i < n; i++)
    {
      const char *name = dyn_value_map_get_name (item, i);

      g_string_append (out, "  ");
      dyn_json_append_string (out, name, strlen (name));
      g_string_append (out, ": ");
      dyn_json_append_ddb_value (out, dyn_value_map_get_value (item, i));
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  g_string_append (out, "}\n");
  return g_string_free (out, FALSE);
}

static char *
text_for (DynItemEditor  *self,
          const DynValue *item,
          gboolean        ddb_json)
{
  /* Plain JSON names the types it cannot say ({"$set": …}), so that what
   * is shown is what will be written. */
  return ddb_json ? to_ddb_text (item) : dyn_item_to_plain_text (item);
}

static void
set_buffer_text (DynItemEditor *self,
                 const char    *text)
{
  GtkTextBuffer *buffer = get_buffer (self);
  GtkTextIter start;

  gtk_text_buffer_begin_irreversible_action (buffer);
  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_text_buffer_end_irreversible_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
}

static void
update_guard (DynItemEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (self->item == NULL)
    text = g_strdup ("");
  else if (self->before != NULL && dyn_value_equal (self->before, self->item))
    text = g_strdup (_("Nothing changed yet."));
  else
    {
      text = dyn_edit_session_preview_guard (self->session, self->before, self->item, &error);
      if (text == NULL)
        text = g_strdup_printf (_("This write cannot be planned: %s"), error->message);
    }
  g_free (self->guard_text);
  self->guard_text = g_steal_pointer (&text);
  gtk_label_set_text (self->guard_label, self->guard_text);
}

static void
set_error (DynItemEditor *self,
           const char    *message,
           guint          line)
{
  GtkTextBuffer *buffer = get_buffer (self);
  GtkTextIter start, end;
  gboolean was_valid = self->item != NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag (buffer, self->error_tag, &start, &end);

  g_clear_pointer (&self->error_message, g_free);
  if (message != NULL)
    {
      g_autofree char *shown = NULL;

      g_clear_pointer (&self->item, dyn_value_unref);
      self->error_message = g_strdup (message);
      if (line > 0)
        {
          shown = g_strdup_printf (_("Line %u: %s"), line, message);
          gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
          end = start;
          if (!gtk_text_iter_ends_line (&end))
            gtk_text_iter_forward_to_line_end (&end);
          gtk_text_buffer_apply_tag (buffer, self->error_tag, &start, &end);
        }
      else
        shown = g_strdup (message);
      gtk_label_set_text (self->status_label, shown);
      gtk_image_set_from_icon_name (self->status_icon, "dialog-error-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_icon), "error");
    }
  else
    {
      g_autofree char *shown = NULL;
      g_autofree char *size = g_format_size_full (dyn_item_size (self->item), G_FORMAT_SIZE_IEC_UNITS);

      /* Translators: the second %s is a size such as "312 bytes" or "1.2 KiB". */
      shown = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Valid item · %u attribute · %s",
                                            "Valid item · %u attributes · %s",
                                            dyn_value_get_length (self->item)),
                               dyn_value_get_length (self->item), size);
      gtk_label_set_text (self->status_label, shown);
      gtk_image_set_from_icon_name (self->status_icon, "emblem-ok-symbolic");
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_icon), "error");
    }

  if (self->error_line != line)
    {
      self->error_line = line;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_LINE]);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "editor.save", self->item != NULL);
  if (was_valid != (self->item != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
}

static void
validate (DynItemEditor *self)
{
  g_autofree char *text = dyn_item_editor_dup_text (self);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) item = NULL;

  if (self->ddb_json)
    item = dyn_json_decode_ddb_item (text, strlen (text), &error);
  else
    item = dyn_item_from_plain_text (text, -1, &error);
  if (item != NULL && !dyn_item_check_key (item, dyn_edit_session_get_keys (self->session), &error))
    g_clear_pointer (&item, dyn_value_unref);
  if (item != NULL && dyn_item_size (item) > DYN_ITEM_MAX_SIZE)
    {
      g_set_error (&error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The item is larger than DynamoDB’s limit of 400 KB"));
      g_clear_pointer (&item, dyn_value_unref);
    }

  if (item == NULL)
    set_error (self, error->message, dyn_json_error_line (text, error->message));
  else
    {
      gboolean was_valid = self->item != NULL;

      g_clear_pointer (&self->item, dyn_value_unref);
      self->item = g_steal_pointer (&item);
      set_error (self, NULL, 0);
      if (!was_valid)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }
  update_guard (self);
}

static void
buffer_changed_cb (DynItemEditor *self)
{
  if (!self->updating)
    validate (self);
}

static void
sync_toggles (DynItemEditor *self)
{
  self->updating = TRUE;
  gtk_toggle_button_set_active (self->ddb_json ? self->ddb_button : self->plain_button, TRUE);
  self->updating = FALSE;
}

static void
plain_toggled_cb (DynItemEditor *self)
{
  if (self->updating || !gtk_toggle_button_get_active (self->plain_button))
    return;
  if (!dyn_item_editor_set_ddb_json (self, FALSE))
    sync_toggles (self);
}

static void
ddb_toggled_cb (DynItemEditor *self)
{
  if (self->updating || !gtk_toggle_button_get_active (self->ddb_button))
    return;
  if (!dyn_item_editor_set_ddb_json (self, TRUE))
    sync_toggles (self);
}

/* The row the window shows for the edited item now: while the editor was
 * open, a commit, an undo or a page of Load More may have put a new row
 * object in the place of the one it was opened on. */
static DynItemObject *
current_row (DynItemEditor *self)
{
  DynCollectionModel *model = dyn_edit_session_get_model (self->session);
  g_autoptr(DynValue) key = NULL;
  DynItemObject *found;

  if (model == NULL)
    return self->object;
  key = dyn_item_key (dyn_item_object_get_item (self->object), dyn_edit_session_get_keys (self->session));
  found = key ? dyn_collection_model_lookup (model, key) : NULL;
  if (found != NULL && found != self->object)
    g_set_object (&self->object, found);
  return self->object;
}

static void
save_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  DynItemEditor *self = DYN_ITEM_EDITOR (widget);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemObject) row = NULL;

  validate (self);
  if (self->item == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }

  if (self->object == NULL)
    {
      DynItemObject *created = dyn_edit_session_stage_create (self->session, self->item, &error);

      if (created != NULL)
        row = g_object_ref (created);
    }
  else
    {
      int index;

      if (dyn_edit_session_stage_edit (self->session, current_row (self), self->item, &error))
        {
          index = dyn_edit_session_lookup (self->session, self->object);
          /* The model may have put a new row in the old one's place. */
          row = index >= 0 ? g_object_ref (self->object) : NULL;
          if (row == NULL && dyn_edit_session_get_model (self->session) != NULL)
            {
              g_autoptr(DynValue) key = dyn_item_key (self->item, dyn_edit_session_get_keys (self->session));
              DynItemObject *found = key ? dyn_collection_model_lookup (dyn_edit_session_get_model (self->session), key) : NULL;

              row = found ? g_object_ref (found) : NULL;
            }
        }
    }
  if (error != NULL)
    {
      set_error (self, error->message, 0);
      gtk_widget_error_bell (widget);
      return;
    }

  g_signal_emit (self, signals[SIGNAL_STAGED], 0, row);
  gtk_window_close (GTK_WINDOW (self));
}

static void
update_style_scheme (DynItemEditor *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, id);

  if (scheme != NULL)
    gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (get_buffer (self)), scheme);
}

static void
dyn_item_editor_dispose (GObject *object)
{
  DynItemEditor *self = (DynItemEditor *) object;

  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), DYN_TYPE_ITEM_EDITOR);
  g_clear_object (&self->session);
  g_clear_object (&self->object);
  G_OBJECT_CLASS (dyn_item_editor_parent_class)->dispose (object);
}

static void
dyn_item_editor_finalize (GObject *object)
{
  DynItemEditor *self = (DynItemEditor *) object;

  g_clear_pointer (&self->before, dyn_value_unref);
  g_clear_pointer (&self->item, dyn_value_unref);
  g_free (self->error_message);
  g_free (self->guard_text);
  G_OBJECT_CLASS (dyn_item_editor_parent_class)->finalize (object);
}

static void
dyn_item_editor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  DynItemEditor *self = DYN_ITEM_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DDB_JSON:
      g_value_set_boolean (value, self->ddb_json);
      break;
    case PROP_VALID:
      g_value_set_boolean (value, self->item != NULL);
      break;
    case PROP_ERROR_LINE:
      g_value_set_uint (value, self->error_line);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_editor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  DynItemEditor *self = DYN_ITEM_EDITOR (object);

  switch (prop_id)
    {
    case PROP_DDB_JSON:
      dyn_item_editor_set_ddb_json (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_item_editor_class_init (DynItemEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  object_class->dispose = dyn_item_editor_dispose;
  object_class->finalize = dyn_item_editor_finalize;
  object_class->get_property = dyn_item_editor_get_property;
  object_class->set_property = dyn_item_editor_set_property;

  properties[PROP_DDB_JSON] =
    g_param_spec_boolean ("ddb-json", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_LINE] =
    g_param_spec_uint ("error-line", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_STAGED] =
    g_signal_new ("staged", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, DYN_TYPE_ITEM_OBJECT);

  /* Pulls the resource bundle out of the static library. */
  (void) dyn_widgets_get_resource ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/dynoscope/Dynoscope/dyn-item-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, plain_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, ddb_button);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, source_view);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, status_icon);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, status_label);
  gtk_widget_class_bind_template_child (widget_class, DynItemEditor, guard_label);
  gtk_widget_class_bind_template_callback (widget_class, plain_toggled_cb);
  gtk_widget_class_bind_template_callback (widget_class, ddb_toggled_cb);

  gtk_widget_class_install_action (widget_class, "editor.save", NULL, save_action);
  gtk_widget_class_install_property_action (widget_class, "editor.ddb-json", "ddb-json");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "editor.save", NULL);
}

static void
dyn_item_editor_init (DynItemEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *json;
  GtkTextBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));

  buffer = get_buffer (self);
  json = gtk_source_language_manager_get_language (languages, "json");
  if (json != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), json);
  self->error_tag = gtk_text_buffer_create_tag (buffer, "error",
                                                "underline", PANGO_UNDERLINE_ERROR,
                                                "background", "rgba(224, 27, 36, 0.15)",
                                                NULL);
  g_signal_connect_swapped (buffer, "changed", G_CALLBACK (buffer_changed_cb), self);
  g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                            G_CALLBACK (update_style_scheme), self);
  update_style_scheme (self);
}

static GtkWidget *
editor_new (DynEditSession *session,
            DynItemObject  *object,
            DynValue       *item)
{
  DynItemEditor *self = g_object_new (DYN_TYPE_ITEM_EDITOR, NULL);
  g_autofree char *text = NULL;

  self->session = g_object_ref (session);
  if (object != NULL)
    {
      int index = dyn_edit_session_lookup (session, object);
      DynValue *before = index >= 0 ? dyn_change_get_before (dyn_edit_session_get_change (session, index)) : item;

      self->object = g_object_ref (object);
      self->before = before ? dyn_value_ref (before) : NULL;
    }
  text = text_for (self, item, FALSE);
  self->updating = TRUE;
  set_buffer_text (self, text);
  self->updating = FALSE;
  validate (self);
  return GTK_WIDGET (self);
}

GtkWidget *
dyn_item_editor_new (DynEditSession *session,
                     DynItemObject  *object)
{
  DynItemEditor *self;
  g_autofree char *title = NULL;
  DynValue *item;
  const DynKeySchema *keys;
  DynValue *pk, *sk;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (session), NULL);
  g_return_val_if_fail (DYN_IS_ITEM_OBJECT (object), NULL);

  item = dyn_item_object_get_item (object);
  self = DYN_ITEM_EDITOR (editor_new (session, object, item));
  keys = dyn_edit_session_get_keys (session);
  pk = dyn_value_map_lookup (item, keys->partition_key);
  sk = keys->sort_key ? dyn_value_map_lookup (item, keys->sort_key) : NULL;
  if (pk != NULL && dyn_value_get_value_type (pk) == DYN_VALUE_S &&
      (sk == NULL || dyn_value_get_value_type (sk) == DYN_VALUE_S))
    title = sk ? g_strdup_printf ("%s · %s", dyn_value_get_string (pk), dyn_value_get_string (sk))
               : g_strdup (dyn_value_get_string (pk));
  else
    title = g_strdup (dyn_edit_session_get_table (session));
  gtk_label_set_text (self->subtitle_label, title);
  return GTK_WIDGET (self);
}

GtkWidget *
dyn_item_editor_new_for_create (DynEditSession *session,
                                DynValue       *item)
{
  g_autoptr(DynValue) template = NULL;
  g_autofree char *subtitle = NULL;
  DynItemEditor *self;

  g_return_val_if_fail (DYN_IS_EDIT_SESSION (session), NULL);

  template = item ? dyn_value_ref (item) : dyn_edit_session_new_item_template (session);
  self = DYN_ITEM_EDITOR (editor_new (session, NULL, template));
  gtk_window_set_title (GTK_WINDOW (self), _("New Item"));
  subtitle = g_strdup_printf (_("New item in %s, created only if no item with its key exists"),
                              dyn_edit_session_get_table (session));
  gtk_label_set_text (self->subtitle_label, subtitle);
  return GTK_WIDGET (self);
}

gboolean
dyn_item_editor_get_ddb_json (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), FALSE);
  return self->ddb_json;
}

gboolean
dyn_item_editor_set_ddb_json (DynItemEditor *self,
                              gboolean       ddb_json)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), FALSE);

  ddb_json = !!ddb_json;
  if (self->ddb_json == ddb_json)
    return TRUE;
  validate (self);
  if (self->item == NULL)
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return FALSE;
    }
  self->ddb_json = ddb_json;
  text = text_for (self, self->item, ddb_json);
  self->updating = TRUE;
  set_buffer_text (self, text);
  self->updating = FALSE;
  validate (self);
  sync_toggles (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DDB_JSON]);
  return TRUE;
}

char *
dyn_item_editor_dup_text (DynItemEditor *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), NULL);

  gtk_text_buffer_get_bounds (get_buffer (self), &start, &end);
  return gtk_text_buffer_get_text (get_buffer (self), &start, &end, FALSE);
}

void
dyn_item_editor_set_text (DynItemEditor *self,
                          const char    *text)
{
  g_return_if_fail (DYN_IS_ITEM_EDITOR (self));
  g_return_if_fail (text != NULL);

  gtk_text_buffer_set_text (get_buffer (self), text, -1);
}

gboolean
dyn_item_editor_get_valid (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), FALSE);
  return self->item != NULL;
}

DynValue *
dyn_item_editor_get_item (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), NULL);
  return self->item;
}

const char *
dyn_item_editor_get_error_message (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), NULL);
  return self->error_message;
}

guint
dyn_item_editor_get_error_line (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), 0);
  return self->error_line;
}

const char *
dyn_item_editor_get_guard_text (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), NULL);
  return self->guard_text ? self->guard_text : "";
}

GtkWidget *
dyn_item_editor_get_source_view (DynItemEditor *self)
{
  g_return_val_if_fail (DYN_IS_ITEM_EDITOR (self), NULL);
  return GTK_WIDGET (self->source_view);
}
