/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-value-format"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "dyn-value-format.h"

char *
dyn_value_format_binary (GBytes          *bytes,
                         DynBinaryFormat  binary_format)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  if (binary_format == DYN_BINARY_FORMAT_BASE64)
    return g_base64_encode (data, len);
  else
    {
      GString *s = g_string_sized_new (len * 2 + 2);

      g_string_append (s, "0x");
      for (gsize i = 0; i < len; i++)
        g_string_append_printf (s, "%02x", data[i]);
      return g_string_free (s, FALSE);
    }
}

const char *
dyn_value_format_type (const DynValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  return dyn_value_type_to_string (dyn_value_get_value_type (value));
}

static void
append_string (GString    *out,
               const char *text,
               gsize       len)
{
  const char *end = text + len;

  /* Control characters would break the one-line cell: show them as symbols. */
  for (const char *p = text; p < end; p++)
    {
      if (*p == '\n')
        g_string_append (out, "⏎");
      else if (*p == '\t')
        g_string_append (out, "⇥");
      else if (*p == '\0')
        g_string_append (out, "␀");
      else if ((guchar) *p < 0x20)
        g_string_append_unichar (out, 0x2400 + (guchar) *p);
      else
        g_string_append_c (out, *p);
    }
}

static void
append_value (GString         *out,
              const DynValue  *value,
              DynBinaryFormat  binary_format,
              gboolean         full,
              gboolean         quote)
{
  guint n;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      if (quote)
        g_string_append_c (out, '"');
      append_string (out, dyn_value_get_string (value), dyn_value_get_string_length (value));
      if (quote)
        g_string_append_c (out, '"');
      break;
    case DYN_VALUE_N:
      g_string_append (out, dyn_value_get_number (value));
      break;
    case DYN_VALUE_B:
      {
        g_autofree char *b = dyn_value_format_binary (dyn_value_get_binary (value), binary_format);
        g_string_append (out, b);
      }
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (value) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (value);
      g_string_append (out, "{");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (dyn_value_get_value_type (value) == DYN_VALUE_BS)
            {
              g_autofree char *b = dyn_value_format_binary (dyn_value_set_get_binary (value, i), binary_format);
              g_string_append (out, b);
            }
          else if (dyn_value_get_value_type (value) == DYN_VALUE_SS)
            {
              const char *s = dyn_value_set_get_string (value, i);
              g_string_append_c (out, '"');
              append_string (out, s, strlen (s));
              g_string_append_c (out, '"');
            }
          else
            g_string_append (out, dyn_value_set_get_string (value, i));
        }
      g_string_append (out, "}");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (value);
      if (!full)
        {
          g_string_append_c (out, '{');
          g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u attribute", "%u attributes", n), n);
          g_string_append_c (out, '}');
          break;
        }
      g_string_append_c (out, '{');
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyn_value_map_get_name (value, i);
          if (i > 0)
            g_string_append (out, ", ");
          append_string (out, name, strlen (name));
          g_string_append (out, ": ");
          append_value (out, dyn_value_map_get_value (value, i), binary_format, full, TRUE);
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (value);
      if (!full)
        {
          g_string_append_c (out, '[');
          g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", n), n);
          g_string_append_c (out, ']');
          break;
        }
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_value (out, dyn_value_list_get (value, i), binary_format, full, TRUE);
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
dyn_value_format_cell (const DynValue  *value,
                       DynBinaryFormat  binary_format,
                       guint            max_chars)
{
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  out = g_string_new (NULL);
  append_value (out, value, binary_format, FALSE, FALSE);
  if (max_chars > 0 && g_utf8_strlen (out->str, out->len) > max_chars)
    {
      const char *cut = g_utf8_offset_to_pointer (out->str, max_chars);
      g_string_truncate (out, cut - out->str);
      g_string_append (out, "…");
    }
  return g_string_free (out, FALSE);
}

char *
dyn_value_format_full (const DynValue  *value,
                       DynBinaryFormat  binary_format)
{
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  out = g_string_new (NULL);
  append_value (out, value, binary_format, TRUE, FALSE);
  return g_string_free (out, FALSE);
}

static void
newline (GString *out,
         int      depth)
{
  g_string_append_c (out, '\n');
  for (int i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

char *
dyn_json_text_indent (const char *json)
{
  GString *out;
  gboolean in_string = FALSE;
  int depth = 0;

  g_return_val_if_fail (json != NULL, NULL);

  out = g_string_sized_new (strlen (json) * 2);
  for (const char *p = json; *p != '\0'; p++)
    {
      char c = *p;

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\' && p[1] != '\0')
            g_string_append_c (out, *++p);
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      switch (c)
        {
        case '"':
          in_string = TRUE;
          g_string_append_c (out, c);
          break;
        case '{':
        case '[':
          g_string_append_c (out, c);
          if (p[1] == (c == '{' ? '}' : ']'))
            g_string_append_c (out, *++p);
          else
            newline (out, ++depth);
          break;
        case '}':
        case ']':
          newline (out, --depth);
          g_string_append_c (out, c);
          break;
        case ',':
          g_string_append_c (out, c);
          newline (out, depth);
          break;
        case ':':
          g_string_append (out, ": ");
          break;
        case ' ':
        case '\n':
        case '\t':
        case '\r':
          break;
        default:
          g_string_append_c (out, c);
        }
    }
  return g_string_free (out, FALSE);
}
