/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-text"

#include "config.h"

#include <glib/gi18n-lib.h>

#include <string.h>

#include "dyn-error.h"
#include "dyn-item-text.h"
#include "dyn-json.h"
#include "dyn-value-private.h"

/* Inline lists and sets longer than this are written one element a line. */
#define INLINE_WIDTH 72

static void
append_indent (GString *out,
               guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static gboolean
is_scalar (const DynValue *value)
{
  DynValueType type = dyn_value_get_value_type (value);

  return type != DYN_VALUE_M && type != DYN_VALUE_L;
}

static void
append_set_element (GString        *out,
                    const DynValue *set,
                    guint           i)
{
  g_autoptr(DynValue) element = NULL;

  switch (dyn_value_get_value_type (set))
    {
    case DYN_VALUE_SS:
      element = dyn_value_new_string (dyn_value_set_get_string (set, i));
      break;
    case DYN_VALUE_NS:
      element = dyn_value_new_number (dyn_value_set_get_string (set, i), NULL);
      break;
    case DYN_VALUE_BS:
      element = dyn_value_new_binary (dyn_value_set_get_binary (set, i));
      break;
    default:
      g_assert_not_reached ();
    }
  if (element != NULL)
    dyn_json_append_plain_value (out, element);
  else
    g_string_append (out, dyn_value_set_get_string (set, i));
}

static void append_value (GString *out, const DynValue *value, guint depth);

/* The elements of a list or set between brackets: on one line when they are
 * scalars and fit, else one a line. */
static void
append_elements (GString        *out,
                 const DynValue *value,
                 guint           depth)
{
  gboolean set = dyn_value_get_value_type (value) != DYN_VALUE_L;
  guint n = dyn_value_get_length (value);
  gboolean inline_ok = TRUE;
  gsize start = out->len;

  for (guint i = 0; i < n && inline_ok && !set; i++)
    inline_ok = is_scalar (dyn_value_list_get (value, i));
  if (n == 0)
    {
      g_string_append (out, "[]");
      return;
    }
  if (inline_ok)
    {
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (set)
            append_set_element (out, value, i);
          else
            append_value (out, dyn_value_list_get (value, i), depth + 1);
        }
      g_string_append_c (out, ']');
      if (out->len - start <= INLINE_WIDTH)
        return;
      g_string_truncate (out, start);
    }
  g_string_append (out, "[\n");
  for (guint i = 0; i < n; i++)
    {
      append_indent (out, depth + 1);
      if (set)
        append_set_element (out, value, i);
      else
        append_value (out, dyn_value_list_get (value, i), depth + 1);
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  append_indent (out, depth);
  g_string_append_c (out, ']');
}

static void
append_members (GString        *out,
                const DynValue *map,
                guint           depth)
{
  guint n = dyn_value_get_length (map);

  if (n == 0)
    {
      g_string_append (out, "{}");
      return;
    }
  g_string_append (out, "{\n");
  for (guint i = 0; i < n; i++)
    {
      const char *name = dyn_value_map_get_name (map, i);

      append_indent (out, depth + 1);
      dyn_json_append_string (out, name, strlen (name));
      g_string_append (out, ": ");
      append_value (out, dyn_value_map_get_value (map, i), depth + 1);
      g_string_append (out, i + 1 < n ? ",\n" : "\n");
    }
  append_indent (out, depth);
  g_string_append_c (out, '}');
}

static void
append_value (GString        *out,
              const DynValue *value,
              guint           depth)
{
  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append (out, "{\"$set\": ");
      append_elements (out, value, depth);
      g_string_append_c (out, '}');
      break;

    case DYN_VALUE_L:
      append_elements (out, value, depth);
      break;

    case DYN_VALUE_M:
      {
        const char *first = dyn_value_get_length (value) > 0 ? dyn_value_map_get_name (value, 0) : NULL;

        /* A map whose first member name is a tag is wrapped, as plain JSON
         * requires (VALUES.md). */
        if (first != NULL && _dyn_plain_is_tag (first, strlen (first)))
          {
            g_string_append (out, "{\"$map\": ");
            append_members (out, value, depth);
            g_string_append_c (out, '}');
          }
        else
          append_members (out, value, depth);
      }
      break;

    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_B:
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
    default:
      dyn_json_append_plain_value (out, value);
      break;
    }
}

char *
dyn_item_to_plain_text (const DynValue *item)
{
  GString *out;

  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);

  out = g_string_new (NULL);
  append_value (out, item, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

DynValue *
dyn_item_from_plain_text (const char  *text,
                          gssize       len,
                          GError     **error)
{
  g_autoptr(DynValue) value = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  if (len < 0)
    len = strlen (text);
  value = dyn_json_decode_plain (text, len, error);
  if (value == NULL)
    return NULL;
  if (dyn_value_get_value_type (value) != DYN_VALUE_M)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_PROTOCOL, _("an item must be a JSON object"));
      return NULL;
    }
  return g_steal_pointer (&value);
}
