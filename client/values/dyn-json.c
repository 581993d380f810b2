/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-json"

#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "dyn-json-private.h"

guint8 _dyn_json_string_class[256];

void
_dyn_json_init_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < 256; c++)
        {
          if (c < 0x20)
            _dyn_json_string_class[c] = DYN_JSON_CC_CONTROL;
          else if (c == '"')
            _dyn_json_string_class[c] = DYN_JSON_CC_QUOTE;
          else if (c == '\\')
            _dyn_json_string_class[c] = DYN_JSON_CC_BACKSLASH;
          else if (c >= 0x80)
            _dyn_json_string_class[c] = DYN_JSON_CC_HIGH;
          else
            _dyn_json_string_class[c] = DYN_JSON_CC_PLAIN;
        }
      g_once_init_leave (&done, 1);
    }
}

void
_dyn_json_parser_clear (DynJsonParser *P)
{
  for (guint i = 0; i < P->vtop; i++)
    if (P->vstack[i] != NULL)
      dyn_value_unref (P->vstack[i]);
  g_free (P->vstack);
  g_free (P->nstack);
  g_free (P->names);
  if (P->buf != NULL)
    g_string_free (P->buf, TRUE);
  if (P->path != NULL)
    g_ptr_array_unref (P->path);
  g_clear_error (&P->error);
}

G_GNUC_PRINTF (3, 4)
void
_dyn_json_fail (DynJsonParser *P,
                int            code,
                const char    *format,
                ...)
{
  va_list args;

  if (P->error != NULL)
    return;
  va_start (args, format);
  P->error = g_error_new_valist (DYN_ERROR, code, format, args);
  va_end (args);
}

/* @expected is untranslated (marked with N_() where it has words): the
 * parser passes it on every token, and only a failure looks it up. */
void
_dyn_json_fail_unexpected (DynJsonParser *P,
                           const guchar  *at,
                           const char    *expected)
{
  if (at >= P->end)
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("truncated JSON at byte %zu"), _dyn_json_offset (P, at));
  else if (*at >= 0x21 && *at < 0x7f && expected == NULL)
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected character '%c' at byte %zu"), *at, _dyn_json_offset (P, at));
  else if (*at >= 0x21 && *at < 0x7f)
    /* Translators: %c is the character found, %zu its offset, %s what was expected, e.g. “a member name” or “',' or '}'” */
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected character '%c' at byte %zu, expected %s"),
                    *at, _dyn_json_offset (P, at), _(expected));
  else if (expected == NULL)
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte 0x%02x at byte %zu"), *at, _dyn_json_offset (P, at));
  else
    /* Translators: 0x%02x is the byte found, %zu its offset, %s what was expected, e.g. “a member name” or “',' or '}'” */
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte 0x%02x at byte %zu, expected %s"),
                    *at, _dyn_json_offset (P, at), _(expected));
}

void
_dyn_json_path_push (DynJsonParser *P,
                     const char    *format,
                     ...)
{
  va_list args;

  if (P->path == NULL)
    P->path = g_ptr_array_new_with_free_func (g_free);
  va_start (args, format);
  g_ptr_array_add (P->path, g_strdup_vprintf (format, args));
  va_end (args);
}

void
_dyn_json_path_push_name (DynJsonParser *P,
                          const char    *name,
                          gsize          len)
{
  g_autofree char *cut = g_strndup (name, MIN (len, 80));
  _dyn_json_path_push (P, ".%s", cut);
}

/* Moves the error out, prefixed with the path ("Items[3].price: …"). */
void
_dyn_json_parser_take_error (DynJsonParser *P,
                             const char    *root,
                             GError       **error)
{
  g_autoptr(GString) path = g_string_new (root);

  g_assert (P->error != NULL);

  if (P->path != NULL)
    for (guint i = P->path->len; i > 0; i--)
      g_string_append (path, P->path->pdata[i - 1]);
  if (path->len > 0 && path->str[0] == '.')
    g_string_erase (path, 0, 1);
  if (path->len > 0)
    g_prefix_error (&P->error, "%s: ", path->str);
  g_propagate_error (error, g_steal_pointer (&P->error));
}

gboolean
_dyn_json_expect_end (DynJsonParser *P)
{
  _dyn_json_skip_ws (P);
  if (P->p != P->end)
    {
      if (*P->p >= 0x21 && *P->p < 0x7f)
        _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected character at byte %zu after the JSON value"),
                        _dyn_json_offset (P, P->p));
      else
        _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte at byte %zu after the JSON value"),
                        _dyn_json_offset (P, P->p));
      return FALSE;
    }
  return TRUE;
}

/* Ends the decoding of a whole text: @parsed says whether the value was read,
 * and then nothing but whitespace may follow it. On failure the error goes to
 * @error. Frees @P either way. */
gboolean
_dyn_json_parser_finish (DynJsonParser *P,
                         gboolean       parsed,
                         GError       **error)
{
  gboolean ok = parsed && _dyn_json_expect_end (P);

  if (!ok)
    _dyn_json_parser_take_error (P, "", error);
  _dyn_json_parser_clear (P);
  return ok;
}

static gboolean
read_hex4 (DynJsonParser *P,
           const guchar  *at,
           const guchar  *limit,
           gunichar      *out)
{
  gunichar v = 0;

  if (limit - at < 4)
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("invalid \\u escape at byte %zu"), _dyn_json_offset (P, at - 2));
      return FALSE;
    }
  for (int i = 0; i < 4; i++)
    {
      int h = g_ascii_xdigit_value (at[i]);
      if (h < 0)
        {
          _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("invalid \\u escape at byte %zu"), _dyn_json_offset (P, at - 2));
          return FALSE;
        }
      v = (v << 4) | h;
    }
  *out = v;
  return TRUE;
}

/* Decodes the escaped string body [from, to) into P->buf. */
static gboolean
decode_escapes (DynJsonParser *P,
                const guchar  *from,
                const guchar  *to)
{
  const guchar *p = from;

  if (P->buf == NULL)
    P->buf = g_string_sized_new (256);
  g_string_truncate (P->buf, 0);

  while (p < to)
    {
      const guchar *run = p;
      gunichar cp;
      char utf8[6];

      while (p < to && *p != '\\')
        p++;
      g_string_append_len (P->buf, (const char *) run, p - run);
      if (p >= to)
        break;

      /* p at a backslash; the scanner made sure a character follows. */
      switch (p[1])
        {
        case '"':  g_string_append_c (P->buf, '"'); p += 2; continue;
        case '\\': g_string_append_c (P->buf, '\\'); p += 2; continue;
        case '/':  g_string_append_c (P->buf, '/'); p += 2; continue;
        case 'b':  g_string_append_c (P->buf, '\b'); p += 2; continue;
        case 'f':  g_string_append_c (P->buf, '\f'); p += 2; continue;
        case 'n':  g_string_append_c (P->buf, '\n'); p += 2; continue;
        case 'r':  g_string_append_c (P->buf, '\r'); p += 2; continue;
        case 't':  g_string_append_c (P->buf, '\t'); p += 2; continue;
        case 'u':
          if (!read_hex4 (P, p + 2, to, &cp))
            return FALSE;
          if (cp >= 0xdc00 && cp <= 0xdfff)
            {
              _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("lone low surrogate \\u%04X at byte %zu"),
                              cp, _dyn_json_offset (P, p));
              return FALSE;
            }
          if (cp >= 0xd800 && cp <= 0xdbff)
            {
              gunichar lo;

              if (to - (p + 6) < 2 || p[6] != '\\' || p[7] != 'u' ||
                  !read_hex4 (P, p + 8, to, &lo) || lo < 0xdc00 || lo > 0xdfff)
                {
                  g_clear_error (&P->error);
                  _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unpaired surrogate \\u%04X at byte %zu"),
                                  cp, _dyn_json_offset (P, p));
                  return FALSE;
                }
              cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
              p += 6;
            }
          g_string_append_len (P->buf, utf8, g_unichar_to_utf8 (cp, utf8));
          p += 6;
          continue;
        default:
          _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("invalid escape at byte %zu"), _dyn_json_offset (P, p));
          return FALSE;
        }
    }
  return TRUE;
}

/* Reads a JSON string at P->p (which must be at '"'). *out points into the
 * input (no escapes) or into P->buf (valid until the next string). */
gboolean
_dyn_json_read_string (DynJsonParser *P,
                       const char   **out,
                       gsize         *out_len)
{
  const guchar *s = P->p + 1;
  const guchar *q = s;
  const guchar *end = P->end;
  gboolean high = FALSE, escapes = FALSE;

  for (;;)
    {
      guint8 cls;

#ifdef __SSE2__
      /* Sixteen bytes at a time: stop at '"', '\\' or a control character;
       * note bytes >= 0x80 for the UTF-8 check below. */
      while (end - q >= 16)
        {
          __m128i v = _mm_loadu_si128 ((const __m128i *) q);
          __m128i stop = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('"')),
                                                     _mm_cmpeq_epi8 (v, _mm_set1_epi8 ('\\'))),
                                       _mm_cmpeq_epi8 (_mm_min_epu8 (v, _mm_set1_epi8 (0x1f)), v));
          int mask = _mm_movemask_epi8 (stop);

          if (mask != 0)
            {
              int n = __builtin_ctz (mask);
              high |= (_mm_movemask_epi8 (v) & ((1 << n) - 1)) != 0;
              q += n;
              break;
            }
          high |= _mm_movemask_epi8 (v) != 0;
          q += 16;
        }
#else
      /* Eight plain bytes at a time while we can. */
      while (end - q >= 8 &&
             (_dyn_json_string_class[q[0]] | _dyn_json_string_class[q[1]] |
              _dyn_json_string_class[q[2]] | _dyn_json_string_class[q[3]] |
              _dyn_json_string_class[q[4]] | _dyn_json_string_class[q[5]] |
              _dyn_json_string_class[q[6]] | _dyn_json_string_class[q[7]]) == 0)
        q += 8;
#endif
      if (q >= end)
        {
          _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("truncated JSON at byte %zu (unterminated string)"),
                          _dyn_json_offset (P, end));
          return FALSE;
        }
      cls = _dyn_json_string_class[*q];
      if (G_LIKELY (cls == DYN_JSON_CC_PLAIN))
        q++;
      else if (cls == DYN_JSON_CC_QUOTE)
        break;
      else if (cls == DYN_JSON_CC_BACKSLASH)
        {
          escapes = TRUE;
          q += 2;
          if (q > end)
            q = end;
        }
      else if (cls == DYN_JSON_CC_HIGH)
        {
          high = TRUE;
          q++;
        }
      else
        {
          _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("unescaped control character 0x%02x in string at byte %zu"),
                          *q, _dyn_json_offset (P, q));
          return FALSE;
        }
    }

  if (high)
    {
      const char *bad;
      if (!g_utf8_validate_len ((const char *) s, q - s, &bad))
        {
          _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("invalid UTF-8 in string at byte %zu"),
                          _dyn_json_offset (P, (const guchar *) bad));
          return FALSE;
        }
    }

  P->p = q + 1;
  if (!escapes)
    {
      *out = (const char *) s;
      *out_len = q - s;
      return TRUE;
    }
  if (!decode_escapes (P, s, q))
    return FALSE;
  *out = P->buf->str;
  *out_len = P->buf->len;
  return TRUE;
}

/* Scans a JSON number literal; returns its span. */
gboolean
_dyn_json_read_number (DynJsonParser *P,
                       const guchar **out,
                       gsize         *out_len,
                       gboolean      *is_integer)
{
  const guchar *s = P->p, *p = P->p, *end = P->end;

  *is_integer = TRUE;
  if (p < end && *p == '-')
    p++;
  if (p < end && *p == '0')
    p++;
  else if (p < end && *p >= '1' && *p <= '9')
    while (p < end && *p >= '0' && *p <= '9')
      p++;
  else
    goto bad;
  if (p < end && *p == '.')
    {
      *is_integer = FALSE;
      p++;
      if (!(p < end && *p >= '0' && *p <= '9'))
        goto bad;
      while (p < end && *p >= '0' && *p <= '9')
        p++;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      *is_integer = FALSE;
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (!(p < end && *p >= '0' && *p <= '9'))
        goto bad;
      while (p < end && *p >= '0' && *p <= '9')
        p++;
    }
  *out = s;
  *out_len = p - s;
  P->p = p;
  return TRUE;

bad:
  _dyn_json_fail_unexpected (P, p, N_("a digit"));
  return FALSE;
}

/* Builds a map from the stacks above the bases and pops them. */
DynValue *
_dyn_json_build_map (DynJsonParser *P,
                     guint          nbase,
                     guint          vbase)
{
  guint dup = 0;
  guint n = P->ntop - nbase;
  DynValue *map;

  g_assert (n == P->vtop - vbase);
  map = _dyn_value_new_map_from (P->names, n > 0 ? P->nstack + nbase : NULL,
                                 _dyn_json_values_from (P, vbase), n, &dup);
  if (map == NULL)
    {
      const DynNameRef *r = &P->nstack[nbase + dup];
      g_autofree char *name = g_strndup (P->names + r->off, MIN (r->len, 80));
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("duplicate attribute name \"%s\""), name);
      return NULL;
    }
  _dyn_json_npop_to (P, nbase);
  P->vtop = vbase;
  return map;
}

/* Shapes and payloads of both value decoders */

const char *
_dyn_json_kind_at (DynJsonParser *P)
{
  switch (_dyn_json_peek (P))
    {
    case '"': return _("a string");
    case '{': return _("an object");
    case '[': return _("an array");
    case 't': case 'f': return _("a boolean");
    case 'n': return "null";
    case -1: return _("nothing");
    default: return _("a number");
    }
}

/* @must is translated: what the payload of @type must be. */
void
_dyn_json_fail_shape (DynJsonParser *P,
                      const char    *type,
                      const char    *must)
{
  if (P->p >= P->end)
    _dyn_json_fail_unexpected (P, P->p, NULL);
  else
    /* Translators: the first %s is a DynamoDB type or a tag (“S”, “SS element”, “$map”, “Items”),
     * the second what its value must be (“a string”), the third what it is (“a number”),
     * %zu the offset in bytes */
    _dyn_json_fail (P, DYN_ERROR_PROTOCOL, _("%s must be %s, not %s (at byte %zu)"),
                    type, must, _dyn_json_kind_at (P), _dyn_json_offset (P, P->p));
}

DynValue *
_dyn_json_ddb_number (DynJsonParser *P,
                      const char    *text,
                      gsize          len)
{
  DynNumberParts parts;
  DynNumberStatus status = _dyn_number_parse (text, len, &parts);

  if (G_UNLIKELY (status != DYN_NUMBER_OK))
    {
      GError *e = NULL;
      _dyn_number_set_error (&e, status, text, len);
      P->error = e;
      return NULL;
    }
  return _dyn_value_new_text (DYN_VALUE_N, text, len);
}

/* Generic JSON → JsonNode */

JsonNode *
_dyn_json_generic_value (DynJsonParser *P,
                         int            depth)
{
  JsonNode *node;

  if (depth > DYN_JSON_MAX_DEPTH)
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL,
                      g_dngettext (GETTEXT_PACKAGE, "JSON nested deeper than %d level at byte %zu",
                                   "JSON nested deeper than %d levels at byte %zu", DYN_JSON_MAX_DEPTH),
                      DYN_JSON_MAX_DEPTH, _dyn_json_offset (P, P->p));
      return NULL;
    }

  _dyn_json_skip_ws (P);
  switch (_dyn_json_peek (P))
    {
    case '{':
      {
        JsonObject *object = json_object_new ();

        node = json_node_init_object (json_node_alloc (), object);
        json_object_unref (object);
        P->p++;
        _dyn_json_skip_ws (P);
        if (_dyn_json_peek (P) == '}')
          {
            P->p++;
            return node;
          }
        for (;;)
          {
            const char *name;
            gsize len;
            g_autofree char *key = NULL;
            JsonNode *member;

            if (!_dyn_json_expect_string (P, &name, &len, N_("a member name")))
              break;
            key = g_strndup (name, len);
            if (!_dyn_json_expect_char (P, ':', "':'"))
              break;
            member = _dyn_json_generic_value (P, depth + 1);
            if (member == NULL)
              {
                _dyn_json_path_push_name (P, key, strlen (key));
                break;
              }
            json_object_set_member (object, key, member);
            DynJsonSeparator sep = _dyn_json_next_separator (P, '}');

            if (sep == DYN_JSON_SEPARATOR_END)
              return node;
            if (sep == DYN_JSON_SEPARATOR_NONE)
              break;
          }
        json_node_unref (node);
        return NULL;
      }
    case '[':
      {
        JsonArray *array = json_array_new ();

        node = json_node_init_array (json_node_alloc (), array);
        json_array_unref (array);
        P->p++;
        _dyn_json_skip_ws (P);
        if (_dyn_json_peek (P) == ']')
          {
            P->p++;
            return node;
          }
        for (guint i = 0;; i++)
          {
            JsonNode *elem = _dyn_json_generic_value (P, depth + 1);

            if (elem == NULL)
              {
                _dyn_json_path_push (P, "[%u]", i);
                break;
              }
            json_array_add_element (array, elem);
            DynJsonSeparator sep = _dyn_json_next_separator (P, ']');

            if (sep == DYN_JSON_SEPARATOR_END)
              return node;
            if (sep == DYN_JSON_SEPARATOR_NONE)
              break;
          }
        json_node_unref (node);
        return NULL;
      }
    case '"':
      {
        const char *s;
        gsize len;
        g_autofree char *copy = NULL;

        if (!_dyn_json_read_string (P, &s, &len))
          return NULL;
        copy = g_strndup (s, len);
        node = json_node_alloc ();
        json_node_init_string (node, copy);
        return node;
      }
    case 't':
      if (!_dyn_json_read_literal (P, "true", 4))
        return NULL;
      return json_node_init_boolean (json_node_alloc (), TRUE);
    case 'f':
      if (!_dyn_json_read_literal (P, "false", 5))
        return NULL;
      return json_node_init_boolean (json_node_alloc (), FALSE);
    case 'n':
      if (!_dyn_json_read_literal (P, "null", 4))
        return NULL;
      return json_node_init_null (json_node_alloc ());
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        const guchar *s;
        gsize len;
        gboolean is_integer;
        char buf[64];
        g_autofree char *big = NULL;
        const char *text;

        if (!_dyn_json_read_number (P, &s, &len, &is_integer))
          return NULL;
        if (len < sizeof buf)
          {
            memcpy (buf, s, len);
            buf[len] = '\0';
            text = buf;
          }
        else
          text = big = g_strndup ((const char *) s, len);
        if (is_integer)
          {
            gint64 v;
            if (g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &v, NULL))
              return json_node_init_int (json_node_alloc (), v);
          }
        return json_node_init_double (json_node_alloc (), g_ascii_strtod (text, NULL));
      }
    default:
      _dyn_json_fail_unexpected (P, P->p, N_("a JSON value"));
      return NULL;
    }
}

JsonNode *
dyn_json_parse (const char  *json,
                gssize       len,
                GError     **error)
{
  DynJsonParser P;
  JsonNode *node;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  if (len < 0)
    len = strlen (json);
  _dyn_json_parser_init (&P, json, len);
  node = _dyn_json_generic_value (&P, 0);
  if (!_dyn_json_parser_finish (&P, node != NULL, error))
    g_clear_pointer (&node, json_node_unref);
  return node;
}

/* Members ----------------------------------------------------------------- */

JsonArray *
dyn_json_object_get_array (JsonObject *obj,
                           const char *name)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

JsonObject *
dyn_json_object_get_object (JsonObject *obj,
                            const char *name)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}
