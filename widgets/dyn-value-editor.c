/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-value-editor"
#include "config.h"

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-expr.h"
#include "dyn-value-editor.h"
#include "dyn-widgets-private.h"
#include "dyn-widgets-enums.h"

struct _DynValueEditor
{
  AdwBin       parent_instance;

  guint        list_mode : 1;
  guint        type_locked : 1;
  guint        type_chosen : 1;
  guint        setting : 1;

  GtkDropDown *type_dropdown;
  GtkEntry    *entry;
};

enum {
  PROP_0,
  PROP_VALUE_TYPE,
  PROP_TEXT,
  PROP_LIST_MODE,
  PROP_TYPE_LOCKED,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (DynValueEditor, dyn_value_editor, ADW_TYPE_BIN)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The order of the type drop-down. */
static const DynValueType dropdown_types[] = {
  DYN_VALUE_S, DYN_VALUE_N, DYN_VALUE_B, DYN_VALUE_BOOL, DYN_VALUE_NULL,
  DYN_VALUE_SS, DYN_VALUE_NS, DYN_VALUE_BS, DYN_VALUE_L, DYN_VALUE_M,
};

static guint
type_to_position (DynValueType type)
{
  for (guint i = 0; i < G_N_ELEMENTS (dropdown_types); i++)
    if (dropdown_types[i] == type)
      return i;
  return 0;
}

static void
update_placeholder (DynValueEditor *self)
{
  const char *text = NULL;

  if (self->list_mode)
    text = _("Values, e.g. \"a\", \"b\", 3");
  else
    switch (dyn_value_editor_get_value_type (self))
      {
      case DYN_VALUE_S: text = _("Text"); break;
      case DYN_VALUE_N: text = _("Number"); break;
      case DYN_VALUE_B: text = _("Base64"); break;
      case DYN_VALUE_BOOL: text = _("true or false"); break;
      case DYN_VALUE_NULL: text = _("null"); break;
      case DYN_VALUE_SS: text = _("JSON array of strings"); break;
      case DYN_VALUE_NS: text = _("JSON array of numbers"); break;
      case DYN_VALUE_BS: text = _("JSON array of Base64 strings"); break;
      case DYN_VALUE_L: text = _("JSON array"); break;
      case DYN_VALUE_M: text = _("JSON object"); break;
      default: break;
      }
  gtk_entry_set_placeholder_text (self->entry, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->entry),
                            self->list_mode || dyn_value_editor_get_value_type (self) != DYN_VALUE_NULL);
}

static void
show_error (DynValueEditor *self,
            const GError   *error)
{
  if (error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry), error->message);
    }
  else
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry), NULL);
    }
}

static void
validate (DynValueEditor *self)
{
  g_autoptr(GError) error = NULL;

  if (dyn_value_editor_is_empty (self))
    {
      show_error (self, NULL);
      return;
    }
  if (self->list_mode)
    {
      g_autoptr(GPtrArray) values = dyn_value_editor_dup_values (self, &error);
    }
  else
    {
      g_autoptr(DynValue) value = dyn_value_editor_dup_value (self, &error);
    }
  show_error (self, error);
}

static void
emit_changed (DynValueEditor *self)
{
  validate (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
type_selected_cb (DynValueEditor *self)
{
  if (!self->setting)
    self->type_chosen = TRUE;
  update_placeholder (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALUE_TYPE]);
  emit_changed (self);
}

static void
entry_changed_cb (DynValueEditor *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  emit_changed (self);
}

static void
entry_activate_cb (DynValueEditor *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "builder.add-row", NULL);
}

static gboolean
is_base64 (const char *s)
{
  gsize n = 0;
  gsize pad = 0;

  for (const char *p = s; *p; p++, n++)
    {
      if (*p == '=')
        pad++;
      else if (pad > 0 || !(g_ascii_isalnum (*p) || *p == '+' || *p == '/'))
        return FALSE;
    }
  return n % 4 == 0 && pad <= 2;
}

static GBytes *
decode_base64 (const char  *text,
               GError     **error)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  guchar *data;
  gsize len = 0;

  if (!is_base64 (copy))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Not valid Base64: %s"), copy);
      return NULL;
    }
  data = g_base64_decode (copy, &len);
  return g_bytes_new_take (data, len);
}

static DynValue *
parse_json_value (const char    *text,
                  DynValueType   expected,
                  GError       **error)
{
  g_autofree char *wrapped = g_strdup_printf ("{\"v\": %s}", text);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynValue) item = dyn_item_from_plain_json_string (wrapped, -1, &local_error);
  DynValue *v;

  if (item == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Not valid JSON: %s"), local_error->message);
      return NULL;
    }
  v = dyn_value_map_lookup (item, "v");
  if (v == NULL || dyn_value_get_value_type (v) != expected)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   expected == DYN_VALUE_L ? _("Expected a JSON array") : _("Expected a JSON object"));
      return NULL;
    }
  return dyn_value_ref (v);
}

static DynValue *
parse_set (const char    *text,
           DynValueType   type,
           GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) strings = g_ptr_array_new ();
  g_autoptr(GPtrArray) bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;
  JsonArray *array;
  DynValue *v;

  if (type == DYN_VALUE_NS)
    {
      /* json-glib would read numbers as doubles: the exact parser does NS. */
      g_autofree char *wrapped = g_strdup_printf ("{\"v\": {\"$set\": %s}}", text);
      g_autoptr(DynValue) item = dyn_item_from_plain_json_string (wrapped, -1, &local_error);
      DynValue *set;

      if (item == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Not a set of numbers: %s"),
                       local_error->message);
          return NULL;
        }
      set = dyn_value_map_lookup (item, "v");
      if (set == NULL || dyn_value_get_value_type (set) != DYN_VALUE_NS)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Expected a JSON array of numbers"));
          return NULL;
        }
      return dyn_value_ref (set);
    }

  if (!json_parser_load_from_data (parser, text, -1, &local_error))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Not valid JSON: %s"), local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Expected a JSON array of strings"));
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *el = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (el) || json_node_get_value_type (el) != G_TYPE_STRING)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Expected a JSON array of strings"));
          return NULL;
        }
      if (type == DYN_VALUE_BS)
        {
          GBytes *b = decode_base64 (json_node_get_string (el), error);

          if (b == NULL)
            return NULL;
          g_ptr_array_add (bytes, b);
        }
      else
        g_ptr_array_add (strings, (gpointer) json_node_get_string (el));
    }

  if (type == DYN_VALUE_BS)
    v = dyn_value_new_binary_set ((GBytes * const *) bytes->pdata, bytes->len, &local_error);
  else
    v = dyn_value_new_string_set ((const char * const *) strings->pdata, strings->len, &local_error);
  if (v == NULL)
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s", local_error->message);
  return v;
}

static char *
set_to_text (const DynValue *value)
{
  GString *s = g_string_new ("[");
  DynValueType type = dyn_value_get_value_type (value);

  for (guint i = 0; i < dyn_value_get_length (value); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      if (type == DYN_VALUE_NS)
        g_string_append (s, dyn_value_set_get_string (value, i));
      else
        {
          g_autofree char *b64 = NULL;
          g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
          g_autofree char *quoted = NULL;

          if (type == DYN_VALUE_BS)
            {
              GBytes *b = dyn_value_set_get_binary (value, i);

              b64 = g_base64_encode (g_bytes_get_data (b, NULL), g_bytes_get_size (b));
              json_node_set_string (node, b64);
            }
          else
            json_node_set_string (node, dyn_value_set_get_string (value, i));
          quoted = json_to_string (node, FALSE);
          g_string_append (s, quoted);
        }
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static void
dyn_value_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  DynValueEditor *self = DYN_VALUE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_VALUE_TYPE:
      g_value_set_enum (value, dyn_value_editor_get_value_type (self));
      break;
    case PROP_TEXT:
      g_value_set_string (value, dyn_value_editor_get_text (self));
      break;
    case PROP_LIST_MODE:
      g_value_set_boolean (value, self->list_mode);
      break;
    case PROP_TYPE_LOCKED:
      g_value_set_boolean (value, self->type_locked);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_value_editor_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  DynValueEditor *self = DYN_VALUE_EDITOR (object);

  switch (prop_id)
    {
    case PROP_VALUE_TYPE:
      dyn_value_editor_set_value_type (self, g_value_get_enum (value));
      break;
    case PROP_TEXT:
      dyn_value_editor_set_text (self, g_value_get_string (value));
      break;
    case PROP_LIST_MODE:
      dyn_value_editor_set_list_mode (self, g_value_get_boolean (value));
      break;
    case PROP_TYPE_LOCKED:
      dyn_value_editor_set_type_locked (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_value_editor_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), DYN_TYPE_VALUE_EDITOR);
  G_OBJECT_CLASS (dyn_value_editor_parent_class)->dispose (object);
}

static void
dyn_value_editor_class_init (DynValueEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dyn_value_editor_get_property;
  object_class->set_property = dyn_value_editor_set_property;
  object_class->dispose = dyn_value_editor_dispose;

  properties[PROP_VALUE_TYPE] =
    g_param_spec_enum ("value-type", NULL, NULL, DYN_TYPE_VALUE_TYPE, DYN_VALUE_S,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LIST_MODE] =
    g_param_spec_boolean ("list-mode", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TYPE_LOCKED] =
    g_param_spec_boolean ("type-locked", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  _dyn_widgets_ensure_resources ();
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dyn-value-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, DynValueEditor, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DynValueEditor, entry);
  gtk_widget_class_bind_template_callback (widget_class, type_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
}

static void
dyn_value_editor_init (DynValueEditor *self)
{
  self->setting = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  self->setting = FALSE;
  update_placeholder (self);
}

GtkWidget *
dyn_value_editor_new (void)
{
  return g_object_new (DYN_TYPE_VALUE_EDITOR, NULL);
}

DynValueType
dyn_value_editor_get_value_type (DynValueEditor *self)
{
  guint pos;

  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), DYN_VALUE_S);

  pos = gtk_drop_down_get_selected (self->type_dropdown);
  return pos < G_N_ELEMENTS (dropdown_types) ? dropdown_types[pos] : DYN_VALUE_S;
}

/* Sets the type without marking it as the user's choice. */
static void
set_type_quietly (DynValueEditor *self,
                  DynValueType    type)
{
  self->setting = TRUE;
  gtk_drop_down_set_selected (self->type_dropdown, type_to_position (type));
  self->setting = FALSE;
}

void
dyn_value_editor_set_value_type (DynValueEditor *self,
                                 DynValueType    type)
{
  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));

  if (dyn_value_editor_get_value_type (self) == type)
    return;
  /* Programmatic settings come from the builder's suggestions and from
   * loading an expression; both leave the user's own choice intact. */
  set_type_quietly (self, type);
}

gboolean
dyn_value_editor_get_type_chosen (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), FALSE);
  return self->type_chosen;
}

const char *
dyn_value_editor_get_text (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

void
dyn_value_editor_set_text (DynValueEditor *self,
                           const char     *text)
{
  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));

  if (g_strcmp0 (text ? text : "", dyn_value_editor_get_text (self)) == 0)
    return;
  gtk_editable_set_text (GTK_EDITABLE (self->entry), text ? text : "");
}

gboolean
dyn_value_editor_get_list_mode (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), FALSE);
  return self->list_mode;
}

void
dyn_value_editor_set_list_mode (DynValueEditor *self,
                                gboolean        list_mode)
{
  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));

  list_mode = !!list_mode;
  if (self->list_mode == list_mode)
    return;
  self->list_mode = list_mode;
  gtk_widget_set_visible (GTK_WIDGET (self->type_dropdown), !list_mode && !self->type_locked);
  update_placeholder (self);
  validate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIST_MODE]);
}

gboolean
dyn_value_editor_get_type_locked (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), FALSE);
  return self->type_locked;
}

void
dyn_value_editor_set_type_locked (DynValueEditor *self,
                                  gboolean        locked)
{
  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));

  locked = !!locked;
  if (self->type_locked == locked)
    return;
  self->type_locked = locked;
  gtk_widget_set_visible (GTK_WIDGET (self->type_dropdown), !self->list_mode && !locked);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TYPE_LOCKED]);
}

gboolean
dyn_value_editor_is_empty (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), TRUE);

  if (!self->list_mode && dyn_value_editor_get_value_type (self) == DYN_VALUE_NULL)
    return FALSE;
  /* An empty string is a value of its own, but not one a user means when
   * the entry was simply left blank. */
  return dyn_value_editor_get_text (self)[0] == '\0';
}

DynValue *
dyn_value_editor_dup_value (DynValueEditor  *self,
                            GError         **error)
{
  const char *text;
  g_autofree char *stripped = NULL;
  g_autoptr(GError) local_error = NULL;
  DynValue *v = NULL;

  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), NULL);

  text = dyn_value_editor_get_text (self);
  stripped = g_strstrip (g_strdup (text));

  switch (dyn_value_editor_get_value_type (self))
    {
    case DYN_VALUE_S:
      return dyn_value_new_string (text);

    case DYN_VALUE_N:
      v = dyn_value_new_number (stripped, &local_error);
      if (v == NULL)
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                     _("“%s” is not a DynamoDB number"), stripped);
      return v;

    case DYN_VALUE_B:
      {
        g_autoptr(GBytes) bytes = decode_base64 (stripped, error);

        return bytes ? dyn_value_new_binary (bytes) : NULL;
      }

    case DYN_VALUE_BOOL:
      if (g_ascii_strcasecmp (stripped, "true") == 0)
        return dyn_value_new_bool (TRUE);
      if (g_ascii_strcasecmp (stripped, "false") == 0)
        return dyn_value_new_bool (FALSE);
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Expected true or false"));
      return NULL;

    case DYN_VALUE_NULL:
      return dyn_value_new_null ();

    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return parse_set (stripped, dyn_value_editor_get_value_type (self), error);

    case DYN_VALUE_L:
    case DYN_VALUE_M:
      return parse_json_value (stripped, dyn_value_editor_get_value_type (self), error);

    default:
      g_assert_not_reached ();
    }
}

GPtrArray *
dyn_value_editor_dup_values (DynValueEditor  *self,
                             GError         **error)
{
  g_autofree char *wrapped = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynValue) list = NULL;
  GPtrArray *values;

  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), NULL);

  if (!self->list_mode)
    {
      DynValue *v = dyn_value_editor_dup_value (self, error);

      if (v == NULL)
        return NULL;
      values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_ptr_array_add (values, v);
      return values;
    }

  wrapped = g_strdup_printf ("[%s]", dyn_value_editor_get_text (self));
  list = dyn_expr_parse_value (wrapped, &local_error);
  if (list == NULL || dyn_value_get_value_type (list) != DYN_VALUE_L)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("Not a list of values: %s"),
                   local_error ? local_error->message : "");
      return NULL;
    }
  values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  for (guint i = 0; i < dyn_value_get_length (list); i++)
    g_ptr_array_add (values, dyn_value_ref (dyn_value_list_get (list, i)));
  return values;
}

void
dyn_value_editor_set_value (DynValueEditor *self,
                            const DynValue *value)
{
  g_autofree char *text = NULL;
  DynValueType type;

  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));
  g_return_if_fail (value != NULL);

  if (self->list_mode)
    {
      g_autoptr(GPtrArray) values = g_ptr_array_new ();

      g_ptr_array_add (values, (gpointer) value);
      dyn_value_editor_set_values (self, values);
      return;
    }

  type = dyn_value_get_value_type (value);
  switch (type)
    {
    case DYN_VALUE_S:
      text = g_strdup (dyn_value_get_string (value));
      break;
    case DYN_VALUE_N:
      text = g_strdup (dyn_value_get_number (value));
      break;
    case DYN_VALUE_B:
      {
        GBytes *b = dyn_value_get_binary (value);

        text = g_base64_encode (g_bytes_get_data (b, NULL), g_bytes_get_size (b));
      }
      break;
    case DYN_VALUE_BOOL:
      text = g_strdup (dyn_value_get_bool (value) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      text = g_strdup ("");
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      text = set_to_text (value);
      break;
    case DYN_VALUE_L:
    case DYN_VALUE_M:
      text = dyn_value_to_plain_json_string (value);
      break;
    default:
      g_assert_not_reached ();
    }

  set_type_quietly (self, type);
  dyn_value_editor_set_text (self, text);
}

void
dyn_value_editor_set_values (DynValueEditor *self,
                             GPtrArray      *values)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_return_if_fail (DYN_IS_VALUE_EDITOR (self));
  g_return_if_fail (values != NULL);

  if (!self->list_mode)
    {
      if (values->len > 0)
        dyn_value_editor_set_value (self, values->pdata[0]);
      return;
    }
  for (guint i = 0; i < values->len; i++)
    {
      g_autofree char *literal = dyn_expr_value_to_literal (values->pdata[i]);

      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, literal);
    }
  dyn_value_editor_set_text (self, s->str);
}

GtkWidget *
dyn_value_editor_get_entry (DynValueEditor *self)
{
  g_return_val_if_fail (DYN_IS_VALUE_EDITOR (self), NULL);
  return GTK_WIDGET (self->entry);
}
