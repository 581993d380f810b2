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

/* Numbers to read. --------------------------------------------------------- */

#define NNBSP "\u202f"   /* narrow no-break space: groups digits in any language */
#define PLAIN_MAX 60    /* longer plain digits give way to the exact scientific form */

static const char * const superscripts[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };

/* Appends @digits[0..n) grouped in threes, counted from the right (an
 * integer part) or from the left (a fraction). */
static void
append_grouped (GString    *out,
                const char *digits,
                gsize       n,
                gboolean    from_right,
                gsize       min_len)
{
  for (gsize i = 0; i < n; i++)
    {
      if (n >= min_len && i > 0 && (from_right ? (n - i) % 3 == 0 : i % 3 == 0))
        g_string_append (out, NNBSP);
      g_string_append_c (out, digits[i]);
    }
}

static void
append_exponent (GString *out,
                 int      exponent)
{
  char buf[16];

  g_string_append (out, " × 10");
  if (exponent < 0)
    g_string_append (out, "⁻");
  g_snprintf (buf, sizeof buf, "%d", ABS (exponent));
  for (const char *p = buf; *p != '\0'; p++)
    g_string_append (out, superscripts[*p - '0']);
}

/* "d.ddd × 10ⁿ" from significant digits. */
static void
append_scientific (GString    *out,
                   gboolean    negative,
                   const char *digits,
                   gsize       n,
                   int         exponent)
{
  if (negative)
    g_string_append_c (out, '-');
  g_string_append_c (out, digits[0]);
  if (n > 1)
    {
      g_string_append_c (out, '.');
      g_string_append_len (out, digits + 1, n - 1);
    }
  append_exponent (out, exponent);
}

char *
dyn_number_format_display (const char *number)
{
  g_autoptr(GString) mantissa = g_string_new (NULL);
  GString *out;
  gboolean negative = FALSE, has_exponent = FALSE;
  const char *p = number;
  gint64 exponent = 0;
  gsize int_digits = 0, lead, end;
  gboolean seen_point = FALSE;
  int sci;

  g_return_val_if_fail (number != NULL, NULL);

  if (*p == '-' || *p == '+')
    negative = *p++ == '-';
  for (; *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p))
        {
          g_string_append_c (mantissa, *p);
          if (!seen_point)
            int_digits++;
        }
      else if (*p == '.' && !seen_point)
        seen_point = TRUE;
      else if (*p == 'e' || *p == 'E')
        {
          has_exponent = TRUE;
          exponent = g_ascii_strtoll (p + 1, NULL, 10);
          break;
        }
      else
        return g_strdup (number);   /* not a number text: as it is */
    }
  for (lead = 0; lead < mantissa->len && mantissa->str[lead] == '0'; lead++)
    ;
  if (lead == mantissa->len)
    return g_strdup (number);   /* zero */
  for (end = mantissa->len; mantissa->str[end - 1] == '0'; end--)
    ;
  sci = (int) ((gint64) int_digits - 1 - (gint64) lead + exponent);

  out = g_string_new (NULL);
  if (end - lead > 15 || sci >= 15 || sci < -6)
    {
      const char *sig = mantissa->str + lead;
      gsize n = end - lead;
      gboolean exact = n <= 4;
      g_autoptr(GString) plain = g_string_new (NULL);

      if (exact)
        append_scientific (out, negative, sig, n, sci);
      else
        {
          /* Four significant digits, rounded half up. */
          char four[5] = { sig[0], sig[1], sig[2], sig[3], '\0' };
          int e = sci;
          gsize len = 4;

          if (sig[4] >= '5')
            {
              int i = 3;

              while (i >= 0 && four[i] == '9')
                four[i--] = '0';
              if (i >= 0)
                four[i]++;
              else
                {
                  memmove (four + 1, four, 3);
                  four[0] = '1';
                  e++;
                }
            }
          while (len > 1 && four[len - 1] == '0')
            len--;
          g_string_append (out, "≈ ");
          append_scientific (out, negative, four, len, e);
        }

      /* Beside it, the exact digits. */
      if (!has_exponent)
        {
          const char *point = strchr (number, '.');
          const char *digits = number + (*number == '-' || *number == '+');
          gsize n_int = point ? (gsize) (point - digits) : strlen (digits);

          if (negative)
            g_string_append_c (plain, '-');
          append_grouped (plain, digits, n_int, TRUE, 5);
          if (point != NULL)
            {
              g_string_append_c (plain, '.');
              append_grouped (plain, point + 1, strlen (point + 1), FALSE, 7);
            }
        }
      else if (!exact)
        g_string_append (plain, number);
      if (plain->len > 0 && g_utf8_strlen (plain->str, plain->len) <= PLAIN_MAX)
        {
          g_string_append (out, " · ");
          g_string_append_len (out, plain->str, plain->len);
        }
      else if (!exact)
        {
          /* Too long to read: every significant digit, scientifically. */
          g_string_truncate (out, 0);
          append_scientific (out, negative, sig, n, sci);
        }
      return g_string_free (out, FALSE);
    }

  if (has_exponent)
    {
      g_string_append (out, number);
      return g_string_free (out, FALSE);
    }
  {
    const char *point = strchr (number, '.');
    const char *digits = number + (*number == '-' || *number == '+');
    gsize n_int = point ? (gsize) (point - digits) : strlen (digits);

    if (negative)
      g_string_append_c (out, '-');
    append_grouped (out, digits, n_int, TRUE, 5);
    if (point != NULL)
      {
        g_string_append_c (out, '.');
        append_grouped (out, point + 1, strlen (point + 1), FALSE, 7);
      }
  }
  return g_string_free (out, FALSE);
}

/* Binary to read. ---------------------------------------------------------- */

#define PREVIEW_BYTES 16
#define PREVIEW_CHARS 48

static gboolean
is_printable_text (const char *data,
                   gsize       len)
{
  const char *end = data + len;

  if (!g_utf8_validate (data, len, NULL))
    return FALSE;
  for (const char *p = data; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_isprint (c) && c != ' ')
        return FALSE;
    }
  return TRUE;
}

/* “text” for printable UTF-8, else the first bytes in hex. */
static void
append_binary_preview (GString *out,
                       GBytes  *bytes)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  if (len == 0)
    {
      g_string_append (out, "“”");
      return;
    }
  if (is_printable_text ((const char *) data, len))
    {
      glong n = g_utf8_strlen ((const char *) data, len);

      g_string_append (out, "“");
      if (n > PREVIEW_CHARS)
        {
          const char *cut = g_utf8_offset_to_pointer ((const char *) data, PREVIEW_CHARS);

          g_string_append_len (out, (const char *) data, cut - (const char *) data);
          g_string_append (out, "…");
        }
      else
        g_string_append_len (out, (const char *) data, len);
      g_string_append (out, "”");
      return;
    }
  /* In pairs, as hexdump and xxd write them. */
  for (gsize i = 0; i < len && i < PREVIEW_BYTES; i++)
    g_string_append_printf (out, i > 0 && i % 2 == 0 ? " %02x" : "%02x", data[i]);
  if (len > PREVIEW_BYTES)
    g_string_append (out, " …");
}

static void
append_display (GString         *out,
                const DynValue  *value,
                DynValueDisplay *kind)
{
  guint n;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      if (dyn_value_get_string_length (value) == 0)
        {
          *kind = DYN_VALUE_DISPLAY_EMPTY;
          g_string_append (out, _("(empty string)"));
          return;
        }
      *kind = DYN_VALUE_DISPLAY_TEXT;
      append_value (out, value, DYN_BINARY_FORMAT_BASE64, FALSE, FALSE);
      break;
    case DYN_VALUE_N:
      {
        g_autofree char *text = dyn_number_format_display (dyn_value_get_number (value));

        *kind = DYN_VALUE_DISPLAY_NUMBER;
        g_string_append (out, text);
      }
      break;
    case DYN_VALUE_B:
      {
        GBytes *bytes = dyn_value_get_binary (value);
        g_autofree char *size = g_format_size (g_bytes_get_size (bytes));

        *kind = g_bytes_get_size (bytes) == 0 ? DYN_VALUE_DISPLAY_EMPTY : DYN_VALUE_DISPLAY_BINARY;
        g_string_append_printf (out, "%s · %s", _("binary"), size);
        if (g_bytes_get_size (bytes) > 0)
          {
            g_string_append (out, " · ");
            append_binary_preview (out, bytes);
          }
      }
      break;
    case DYN_VALUE_NS:
      *kind = DYN_VALUE_DISPLAY_NUMBER;
      n = dyn_value_get_length (value);
      g_string_append_c (out, '{');
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *text = dyn_number_format_display (dyn_value_set_get_string (value, i));

          if (i > 0)
            g_string_append (out, ", ");
          g_string_append (out, text);
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_BS:
      *kind = DYN_VALUE_DISPLAY_BINARY;
      n = dyn_value_get_length (value);
      g_string_append_printf (out, "%s · {", _("binary"));
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_binary_preview (out, dyn_value_set_get_binary (value, i));
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_M:
    case DYN_VALUE_L:
      *kind = DYN_VALUE_DISPLAY_SUMMARY;
      append_value (out, value, DYN_BINARY_FORMAT_BASE64, FALSE, FALSE);
      break;
    default:
      *kind = DYN_VALUE_DISPLAY_TEXT;
      append_value (out, value, DYN_BINARY_FORMAT_BASE64, FALSE, FALSE);
    }
}

static void
cut_at (GString *out,
        guint    max_chars)
{
  if (max_chars > 0 && g_utf8_strlen (out->str, out->len) > max_chars)
    {
      const char *cut = g_utf8_offset_to_pointer (out->str, max_chars);
      g_string_truncate (out, cut - out->str);
      g_string_append (out, "…");
    }
}

char *
dyn_value_format_display (const DynValue  *value,
                          guint            max_chars,
                          DynValueDisplay *kind)
{
  DynValueDisplay shown = DYN_VALUE_DISPLAY_TEXT;
  GString *out;

  g_return_val_if_fail (value != NULL, NULL);

  out = g_string_new (NULL);
  append_display (out, value, &shown);
  cut_at (out, max_chars);
  if (kind != NULL)
    *kind = shown;
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
