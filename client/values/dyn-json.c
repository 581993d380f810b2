/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-json"

#include "config.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-value-private.h"

/* Character classes inside a JSON string. */
enum {
  CC_PLAIN = 0,
  CC_QUOTE,
  CC_BACKSLASH,
  CC_CONTROL,
  CC_HIGH,
};

static guint8 string_class[256];

static void
init_tables (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint c = 0; c < 256; c++)
        {
          if (c < 0x20)
            string_class[c] = CC_CONTROL;
          else if (c == '"')
            string_class[c] = CC_QUOTE;
          else if (c == '\\')
            string_class[c] = CC_BACKSLASH;
          else if (c >= 0x80)
            string_class[c] = CC_HIGH;
          else
            string_class[c] = CC_PLAIN;
        }
      g_once_init_leave (&done, 1);
    }
}

typedef struct {
  const guchar *start;
  const guchar *p;
  const guchar *end;
  GError       *error;
  /* Path segments of the failing value, innermost first. */
  GPtrArray    *path;
  /* Scratch for decoded strings with escapes. */
  GString      *buf;
  /* Stacks shared by all nesting levels: values of maps and lists under
   * construction, and the names of map members. */
  DynValue    **vstack;
  guint         vtop;
  guint         valloc;
  DynNameRef   *nstack;
  guint         ntop;
  guint         nalloc;
  char         *names;
  gsize         names_len;
  gsize         names_alloc;
} Parser;

static void
parser_init (Parser     *P,
             const char *json,
             gsize       len)
{
  init_tables ();
  memset (P, 0, sizeof *P);
  P->start = P->p = (const guchar *) json;
  P->end = P->start + len;
}

static void
parser_clear (Parser *P)
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

static gsize
offset (Parser       *P,
        const guchar *at)
{
  return at - P->start;
}

G_GNUC_PRINTF (3, 4)
static void
fail (Parser     *P,
      int         code,
      const char *format,
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
static void
fail_unexpected (Parser       *P,
                 const guchar *at,
                 const char   *expected)
{
  if (at >= P->end)
    fail (P, DYN_ERROR_PROTOCOL, _("truncated JSON at byte %zu"), offset (P, at));
  else if (*at >= 0x21 && *at < 0x7f && expected == NULL)
    fail (P, DYN_ERROR_PROTOCOL, _("unexpected character '%c' at byte %zu"), *at, offset (P, at));
  else if (*at >= 0x21 && *at < 0x7f)
    /* Translators: %c is the character found, %zu its offset, %s what was expected, e.g. “a member name” or “',' or '}'” */
    fail (P, DYN_ERROR_PROTOCOL, _("unexpected character '%c' at byte %zu, expected %s"),
          *at, offset (P, at), _(expected));
  else if (expected == NULL)
    fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte 0x%02x at byte %zu"), *at, offset (P, at));
  else
    /* Translators: 0x%02x is the byte found, %zu its offset, %s what was expected, e.g. “a member name” or “',' or '}'” */
    fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte 0x%02x at byte %zu, expected %s"),
          *at, offset (P, at), _(expected));
}

static void
path_push (Parser     *P,
           const char *format,
           ...) G_GNUC_PRINTF (2, 3);

static void
path_push (Parser     *P,
           const char *format,
           ...)
{
  va_list args;

  if (P->path == NULL)
    P->path = g_ptr_array_new_with_free_func (g_free);
  va_start (args, format);
  g_ptr_array_add (P->path, g_strdup_vprintf (format, args));
  va_end (args);
}

static void
path_push_name (Parser     *P,
                const char *name,
                gsize       len)
{
  g_autofree char *cut = g_strndup (name, MIN (len, 80));
  path_push (P, ".%s", cut);
}

/* Moves the error out, prefixed with the path ("Items[3].price: …"). */
static void
parser_take_error (Parser      *P,
                   const char  *root,
                   GError     **error)
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

static inline void
skip_ws (Parser *P)
{
  const guchar *p = P->p;

  while (p < P->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  P->p = p;
}

static inline int
peek (Parser *P)
{
  return P->p < P->end ? *P->p : -1;
}

static gboolean
expect_char (Parser     *P,
             char        c,
             const char *what)
{
  skip_ws (P);
  if (P->p < P->end && *P->p == (guchar) c)
    {
      P->p++;
      return TRUE;
    }
  fail_unexpected (P, P->p, what);
  return FALSE;
}

static gboolean
expect_end (Parser *P)
{
  skip_ws (P);
  if (P->p != P->end)
    {
      if (*P->p >= 0x21 && *P->p < 0x7f)
        fail (P, DYN_ERROR_PROTOCOL, _("unexpected character at byte %zu after the JSON value"),
              offset (P, P->p));
      else
        fail (P, DYN_ERROR_PROTOCOL, _("unexpected byte at byte %zu after the JSON value"),
              offset (P, P->p));
      return FALSE;
    }
  return TRUE;
}

typedef enum {
  SEPARATOR_NONE,   /* failed */
  SEPARATOR_COMMA,  /* another member or element follows */
  SEPARATOR_END,    /* @close ended the object or array */
} Separator;

/* What follows a member or element: a ',' or @close (consumed), or else the
 * parse fails. */
static inline Separator
next_separator (Parser *P,
                guchar  close)
{
  skip_ws (P);
  if (peek (P) == ',')
    {
      P->p++;
      return SEPARATOR_COMMA;
    }
  if (peek (P) == close)
    {
      P->p++;
      return SEPARATOR_END;
    }
  /* Translators: what the JSON parser expected; keep the characters in quotes */
  fail_unexpected (P, P->p, close == ']' ? N_("',' or ']'") : N_("',' or '}'"));
  return SEPARATOR_NONE;
}

/* Ends the decoding of a whole text: @parsed says whether the value was read,
 * and then nothing but whitespace may follow it. On failure the error goes to
 * @error. Frees @P either way. */
static gboolean
parser_finish (Parser   *P,
               gboolean  parsed,
               GError  **error)
{
  gboolean ok = parsed && expect_end (P);

  if (!ok)
    parser_take_error (P, "", error);
  parser_clear (P);
  return ok;
}

static gboolean
read_hex4 (Parser       *P,
           const guchar *at,
           const guchar *limit,
           gunichar     *out)
{
  gunichar v = 0;

  if (limit - at < 4)
    {
      fail (P, DYN_ERROR_PROTOCOL, _("invalid \\u escape at byte %zu"), offset (P, at - 2));
      return FALSE;
    }
  for (int i = 0; i < 4; i++)
    {
      int h = g_ascii_xdigit_value (at[i]);
      if (h < 0)
        {
          fail (P, DYN_ERROR_PROTOCOL, _("invalid \\u escape at byte %zu"), offset (P, at - 2));
          return FALSE;
        }
      v = (v << 4) | h;
    }
  *out = v;
  return TRUE;
}

/* Decodes the escaped string body [from, to) into P->buf. */
static gboolean
decode_escapes (Parser       *P,
                const guchar *from,
                const guchar *to)
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
              fail (P, DYN_ERROR_PROTOCOL, _("lone low surrogate \\u%04X at byte %zu"),
                    cp, offset (P, p));
              return FALSE;
            }
          if (cp >= 0xd800 && cp <= 0xdbff)
            {
              gunichar lo;

              if (to - (p + 6) < 2 || p[6] != '\\' || p[7] != 'u' ||
                  !read_hex4 (P, p + 8, to, &lo) || lo < 0xdc00 || lo > 0xdfff)
                {
                  g_clear_error (&P->error);
                  fail (P, DYN_ERROR_PROTOCOL, _("unpaired surrogate \\u%04X at byte %zu"),
                        cp, offset (P, p));
                  return FALSE;
                }
              cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
              p += 6;
            }
          g_string_append_len (P->buf, utf8, g_unichar_to_utf8 (cp, utf8));
          p += 6;
          continue;
        default:
          fail (P, DYN_ERROR_PROTOCOL, _("invalid escape at byte %zu"), offset (P, p));
          return FALSE;
        }
    }
  return TRUE;
}

/* Reads a JSON string at P->p (which must be at '"'). *out points into the
 * input (no escapes) or into P->buf (valid until the next string). */
static gboolean
read_string (Parser      *P,
             const char **out,
             gsize       *out_len)
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
             (string_class[q[0]] | string_class[q[1]] | string_class[q[2]] | string_class[q[3]] |
              string_class[q[4]] | string_class[q[5]] | string_class[q[6]] | string_class[q[7]]) == 0)
        q += 8;
#endif
      if (q >= end)
        {
          fail (P, DYN_ERROR_PROTOCOL, _("truncated JSON at byte %zu (unterminated string)"),
                offset (P, end));
          return FALSE;
        }
      cls = string_class[*q];
      if (G_LIKELY (cls == CC_PLAIN))
        q++;
      else if (cls == CC_QUOTE)
        break;
      else if (cls == CC_BACKSLASH)
        {
          escapes = TRUE;
          q += 2;
          if (q > end)
            q = end;
        }
      else if (cls == CC_HIGH)
        {
          high = TRUE;
          q++;
        }
      else
        {
          fail (P, DYN_ERROR_PROTOCOL, _("unescaped control character 0x%02x in string at byte %zu"),
                *q, offset (P, q));
          return FALSE;
        }
    }

  if (high)
    {
      const char *bad;
      if (!g_utf8_validate_len ((const char *) s, q - s, &bad))
        {
          fail (P, DYN_ERROR_PROTOCOL, _("invalid UTF-8 in string at byte %zu"),
                offset (P, (const guchar *) bad));
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

static gboolean
expect_string (Parser      *P,
               const char **out,
               gsize       *out_len,
               const char  *what)
{
  skip_ws (P);
  if (peek (P) != '"')
    {
      fail_unexpected (P, P->p, what);
      return FALSE;
    }
  return read_string (P, out, out_len);
}

/* Scans a JSON number literal; returns its span. */
static gboolean
read_number (Parser        *P,
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
  fail_unexpected (P, p, N_("a digit"));
  return FALSE;
}

static gboolean
read_literal (Parser     *P,
              const char *word,
              gsize       len)
{
  if ((gsize) (P->end - P->p) >= len && memcmp (P->p, word, len) == 0)
    {
      P->p += len;
      return TRUE;
    }
  /* Point at the first byte that differs. */
  for (gsize i = 0; i < len; i++)
    if (P->p + i >= P->end || P->p[i] != (guchar) word[i])
      {
        fail_unexpected (P, P->p + i, NULL);
        break;
      }
  return FALSE;
}

/* Stacks */

static inline void
vpush (Parser   *P,
       DynValue *v)
{
  if (G_UNLIKELY (P->vtop == P->valloc))
    {
      P->valloc = MAX (64, P->valloc * 2);
      P->vstack = g_renew (DynValue *, P->vstack, P->valloc);
    }
  P->vstack[P->vtop++] = v;
}

static inline void
npush (Parser     *P,
       const char *name,
       gsize       len)
{
  if (G_UNLIKELY (P->ntop == P->nalloc))
    {
      P->nalloc = MAX (64, P->nalloc * 2);
      P->nstack = g_renew (DynNameRef, P->nstack, P->nalloc);
    }
  if (G_UNLIKELY (P->names_len + len > P->names_alloc))
    {
      P->names_alloc = MAX (MAX (1024, P->names_alloc * 2), P->names_len + len);
      P->names = g_realloc (P->names, P->names_alloc);
    }
  memcpy (P->names + P->names_len, name, len);
  P->nstack[P->ntop].off = P->names_len;
  P->nstack[P->ntop].len = len;
  P->ntop++;
  P->names_len += len;
}

static void
npop_to (Parser *P,
         guint   nbase)
{
  P->ntop = nbase;
  P->names_len = nbase > 0 ? P->nstack[nbase - 1].off + P->nstack[nbase - 1].len : 0;
}

/* Builds a map from the stacks above the bases and pops them. */
static DynValue *
build_map (Parser *P,
           guint   nbase,
           guint   vbase)
{
  guint dup = 0;
  guint n = P->ntop - nbase;
  DynValue *map;

  g_assert (n == P->vtop - vbase);
  map = _dyn_value_new_map_from (P->names, P->nstack + nbase, P->vstack + vbase, n, &dup);
  if (map == NULL)
    {
      const DynNameRef *r = &P->nstack[nbase + dup];
      g_autofree char *name = g_strndup (P->names + r->off, MIN (r->len, 80));
      fail (P, DYN_ERROR_PROTOCOL, _("duplicate attribute name \"%s\""), name);
      return NULL;
    }
  npop_to (P, nbase);
  P->vtop = vbase;
  return map;
}

static gboolean
check_name (Parser     *P,
            const char *name,
            gsize       len)
{
  if (G_UNLIKELY (memchr (name, '\0', len) != NULL))
    {
      fail (P, DYN_ERROR_PROTOCOL, "%s", _("attribute name contains U+0000"));
      return FALSE;
    }
  return TRUE;
}

/* DynamoDB JSON */

static DynValue *ddb_value (Parser *P, int depth);

/* At '{' of an item or of the object under "M". */
static DynValue *
ddb_map (Parser *P,
         int     depth)
{
  guint nbase = P->ntop, vbase = P->vtop;

  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      fail (P, DYN_ERROR_PROTOCOL,
            g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level", "value nested deeper than %d levels",
                         DYN_VALUE_MAX_DEPTH),
            DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  P->p++;
  skip_ws (P);
  if (peek (P) == '}')
    {
      P->p++;
      return build_map (P, nbase, vbase);
    }

  for (;;)
    {
      const char *name;
      gsize len;
      guint slot;
      DynValue *v;

      if (!expect_string (P, &name, &len, N_("an attribute name")))
        return NULL;
      if (!check_name (P, name, len))
        return NULL;
      slot = P->ntop;
      npush (P, name, len);
      if (!expect_char (P, ':', "':'"))
        return NULL;
      v = ddb_value (P, depth);
      if (v == NULL)
        {
          const DynNameRef *r = &P->nstack[slot];
          path_push_name (P, P->names + r->off, r->len);
          return NULL;
        }
      vpush (P, v);
      Separator sep = next_separator (P, '}');

      if (sep == SEPARATOR_END)
        break;
      if (sep == SEPARATOR_NONE)
        return NULL;
    }
  return build_map (P, nbase, vbase);
}

static gboolean
ddb_type_from_key (const char   *k,
                   gsize         len,
                   DynValueType *type)
{
  switch (len)
    {
    case 1:
      switch (k[0])
        {
        case 'S': *type = DYN_VALUE_S; return TRUE;
        case 'N': *type = DYN_VALUE_N; return TRUE;
        case 'B': *type = DYN_VALUE_B; return TRUE;
        case 'M': *type = DYN_VALUE_M; return TRUE;
        case 'L': *type = DYN_VALUE_L; return TRUE;
        default: return FALSE;
        }
    case 2:
      if (k[1] != 'S')
        return FALSE;
      switch (k[0])
        {
        case 'S': *type = DYN_VALUE_SS; return TRUE;
        case 'N': *type = DYN_VALUE_NS; return TRUE;
        case 'B': *type = DYN_VALUE_BS; return TRUE;
        default: return FALSE;
        }
    case 4:
      if (memcmp (k, "BOOL", 4) == 0)
        {
          *type = DYN_VALUE_BOOL;
          return TRUE;
        }
      if (memcmp (k, "NULL", 4) == 0)
        {
          *type = DYN_VALUE_NULL;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

static const char *
json_kind_at (Parser *P)
{
  switch (peek (P))
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
static void
fail_shape (Parser     *P,
            const char *type,
            const char *must)
{
  if (P->p >= P->end)
    fail_unexpected (P, P->p, NULL);
  else
    /* Translators: the first %s is a DynamoDB type or a tag (“S”, “SS element”, “$map”, “Items”),
     * the second what its value must be (“a string”), the third what it is (“a number”),
     * %zu the offset in bytes */
    fail (P, DYN_ERROR_PROTOCOL, _("%s must be %s, not %s (at byte %zu)"),
          type, must, json_kind_at (P), offset (P, P->p));
}

/* The string payload of a {"TYPE": payload} value; anything else fails as
 * not being @must (untranslated, marked with N_(): it is passed on every
 * value, and only a failure looks it up). */
static inline gboolean
read_payload_string (Parser      *P,
                     const char  *type,
                     const char  *must,
                     const char **out,
                     gsize       *out_len)
{
  if (peek (P) != '"')
    {
      fail_shape (P, type, _(must));
      return FALSE;
    }
  return read_string (P, out, out_len);
}

static DynValue *
ddb_number (Parser     *P,
            const char *text,
            gsize       len)
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

static DynValue *
ddb_binary (Parser     *P,
            const char *text,
            gsize       len)
{
  GError *e = NULL;
  GBytes *bytes = _dyn_base64_decode (text, len, &e);
  DynValue *v;

  if (bytes == NULL)
    {
      P->error = e;
      return NULL;
    }
  v = _dyn_value_alloc (DYN_VALUE_B, 0, NULL);
  v->u.bytes = bytes;
  return v;
}

static DynValue *
ddb_set (Parser       *P,
         DynValueType  type)
{
  const char *tname = dyn_value_type_to_string (type);
  guint nbase = P->ntop;
  g_autoptr(GPtrArray) bytes = NULL;
  DynValue *set = NULL;
  guint i = 0;

  P->p++;
  skip_ws (P);
  if (peek (P) == ']')
    {
      P->p++;
      fail (P, DYN_ERROR_INVALID_VALUE, _("%s set must not be empty"), tname);
      return NULL;
    }
  if (type == DYN_VALUE_BS)
    bytes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (;; i++)
    {
      const char *s;
      gsize len;

      skip_ws (P);
      if (peek (P) != '"')
        {
          /* Translators: %s is a set type: SS, NS or BS */
          g_autofree char *what = g_strdup_printf (_("%s element"), tname);
          fail_shape (P, what, _("a string"));
          path_push (P, "[%u]", i);
          goto out;
        }
      if (!read_string (P, &s, &len))
        goto out;
      if (type == DYN_VALUE_NS)
        {
          DynNumberParts parts;
          DynNumberStatus status = _dyn_number_parse (s, len, &parts);
          if (status != DYN_NUMBER_OK)
            {
              GError *e = NULL;
              _dyn_number_set_error (&e, status, s, len);
              P->error = e;
              path_push (P, "[%u]", i);
              goto out;
            }
        }
      if (type == DYN_VALUE_BS)
        {
          GError *e = NULL;
          GBytes *b = _dyn_base64_decode (s, len, &e);
          if (b == NULL)
            {
              P->error = e;
              path_push (P, "[%u]", i);
              goto out;
            }
          g_ptr_array_add (bytes, b);
        }
      else
        npush (P, s, len);

      Separator sep = next_separator (P, ']');

      if (sep == SEPARATOR_END)
        break;
      if (sep == SEPARATOR_NONE)
        goto out;
    }

  if (type == DYN_VALUE_BS)
    {
      guint n = bytes->len;
      GBytes **v = (GBytes **) g_ptr_array_steal (bytes, NULL);
      set = _dyn_value_new_bytes_set (v, n, &P->error);
      g_free (v);
    }
  else
    {
      guint n = P->ntop - nbase;
      const char *strv_small[16];
      gsize lens_small[16];
      g_autofree const char **strv_big = NULL;
      g_autofree gsize *lens_big = NULL;
      const char **strv = strv_small;
      gsize *lens = lens_small;

      if (n > G_N_ELEMENTS (strv_small))
        {
          strv = strv_big = g_new (const char *, n);
          lens = lens_big = g_new (gsize, n);
        }
      for (guint j = 0; j < n; j++)
        {
          strv[j] = P->names + P->nstack[nbase + j].off;
          lens[j] = P->nstack[nbase + j].len;
        }
      set = _dyn_value_new_text_set (type, strv, lens, n, &P->error);
    }

out:
  npop_to (P, nbase);
  return set;
}

static DynValue *
ddb_list (Parser *P,
          int     depth)
{
  guint vbase = P->vtop;
  guint i = 0;
  DynValue *list;

  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      fail (P, DYN_ERROR_PROTOCOL,
            g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level", "value nested deeper than %d levels",
                         DYN_VALUE_MAX_DEPTH),
            DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  P->p++;
  skip_ws (P);
  if (peek (P) == ']')
    P->p++;
  else
    for (;; i++)
      {
        DynValue *v = ddb_value (P, depth);

        if (v == NULL)
          {
            path_push (P, "[%u]", i);
            return NULL;
          }
        vpush (P, v);
        Separator sep = next_separator (P, ']');

        if (sep == SEPARATOR_END)
          break;
        if (sep == SEPARATOR_NONE)
          return NULL;
      }

  list = _dyn_value_new_list_from (P->vstack + vbase, P->vtop - vbase);
  P->vtop = vbase;
  return list;
}

/* One attribute value object: {"TYPE": payload}. */
static DynValue *
ddb_value (Parser *P,
           int     depth)
{
  const char *key;
  gsize key_len;
  DynValueType type;
  DynValue *v = NULL;
  const char *s;
  gsize len;

  skip_ws (P);
  if (peek (P) != '{')
    {
      if (P->p >= P->end)
        fail_unexpected (P, P->p, NULL);
      else
        /* Translators: %s is what the value is instead (“a string”, “an array” …), %zu the offset in bytes */
        fail (P, DYN_ERROR_PROTOCOL, _("attribute value must be an object like {\"S\": …}, not %s "
                                       "(at byte %zu)"), json_kind_at (P), offset (P, P->p));
      return NULL;
    }
  P->p++;
  skip_ws (P);
  if (peek (P) == '}')
    {
      fail (P, DYN_ERROR_PROTOCOL, _("attribute value has no type key (at byte %zu)"),
            offset (P, P->p));
      return NULL;
    }
  if (!expect_string (P, &key, &key_len, N_("a type key")))
    return NULL;
  if (!ddb_type_from_key (key, key_len, &type))
    {
      g_autofree char *k = g_strndup (key, MIN (key_len, 40));
      g_autofree char *esc = g_strescape (k, NULL);
      fail (P, DYN_ERROR_PROTOCOL, _("unknown type key \"%s\" (at byte %zu)"),
            esc, offset (P, P->p));
      return NULL;
    }
  if (!expect_char (P, ':', "':'"))
    return NULL;
  skip_ws (P);

  switch (type)
    {
    case DYN_VALUE_S:
      if (!read_payload_string (P, "S", N_("a string"), &s, &len))
        return NULL;
      v = _dyn_value_new_text (DYN_VALUE_S, s, len);
      break;
    case DYN_VALUE_N:
      if (!read_payload_string (P, "N", N_("a string"), &s, &len))
        return NULL;
      v = ddb_number (P, s, len);
      break;
    case DYN_VALUE_B:
      if (!read_payload_string (P, "B", N_("a base64 string"), &s, &len))
        return NULL;
      v = ddb_binary (P, s, len);
      break;
    case DYN_VALUE_BOOL:
      if (peek (P) == 't' && read_literal (P, "true", 4))
        v = dyn_value_new_bool (TRUE);
      else if (peek (P) == 'f' && read_literal (P, "false", 5))
        v = dyn_value_new_bool (FALSE);
      else
        {
          g_clear_error (&P->error);
          /* Translators: true and false are JSON literals; keep them */
          fail_shape (P, "BOOL", _("true or false"));
        }
      break;
    case DYN_VALUE_NULL:
      if (peek (P) == 't' && read_literal (P, "true", 4))
        v = dyn_value_new_null ();
      else
        {
          g_clear_error (&P->error);
          fail_shape (P, "NULL", "true");
        }
      break;
    case DYN_VALUE_M:
      if (peek (P) != '{')
        {
          fail_shape (P, "M", _("an object"));
          return NULL;
        }
      v = ddb_map (P, depth + 1);
      break;
    case DYN_VALUE_L:
      if (peek (P) != '[')
        {
          fail_shape (P, "L", _("an array"));
          return NULL;
        }
      v = ddb_list (P, depth + 1);
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      if (peek (P) != '[')
        {
          fail_shape (P, dyn_value_type_to_string (type), _("an array of strings"));
          return NULL;
        }
      v = ddb_set (P, type);
      break;
    default:
      g_assert_not_reached ();
    }

  if (v == NULL)
    return NULL;

  skip_ws (P);
  if (G_LIKELY (peek (P) == '}'))
    {
      P->p++;
      return v;
    }
  dyn_value_unref (v);
  if (peek (P) == ',')
    fail (P, DYN_ERROR_PROTOCOL, _("attribute value has more than one type key (at byte %zu)"),
          offset (P, P->p));
  else
    fail_unexpected (P, P->p, "'}'");
  return NULL;
}

static DynValue *
ddb_item (Parser *P)
{
  skip_ws (P);
  if (peek (P) != '{')
    {
      if (P->p >= P->end)
        fail_unexpected (P, P->p, NULL);
      else
        /* Translators: %s is what the item is instead (“a string”, “an array” …), %zu the offset in bytes */
        fail (P, DYN_ERROR_PROTOCOL, _("item must be an object, not %s (at byte %zu)"),
              json_kind_at (P), offset (P, P->p));
      return NULL;
    }
  return ddb_map (P, 0);
}

/* At '[' of an array of items. */
static GPtrArray *
ddb_items (Parser *P)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  skip_ws (P);
  if (peek (P) != '[')
    {
      fail_shape (P, "Items", _("an array"));
      return NULL;
    }
  P->p++;
  skip_ws (P);
  if (peek (P) == ']')
    {
      P->p++;
      return g_steal_pointer (&items);
    }
  for (guint i = 0;; i++)
    {
      DynValue *item = ddb_item (P);

      if (item == NULL)
        {
          path_push (P, "[%u]", i);
          return NULL;
        }
      g_ptr_array_add (items, item);
      Separator sep = next_separator (P, ']');

      if (sep == SEPARATOR_END)
        break;
      if (sep == SEPARATOR_NONE)
        return NULL;
    }
  return g_steal_pointer (&items);
}

DynValue *
dyn_json_decode_ddb_value (const char  *json,
                           gsize        len,
                           GError     **error)
{
  Parser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  parser_init (&P, json, len);
  v = ddb_value (&P, 0);
  if (!parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}

DynValue *
dyn_json_decode_ddb_item (const char  *json,
                          gsize        len,
                          GError     **error)
{
  Parser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  parser_init (&P, json, len);
  v = ddb_item (&P);
  if (!parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}

GPtrArray *
dyn_json_decode_ddb_items (const char  *json,
                           gsize        len,
                           GError     **error)
{
  Parser P;
  GPtrArray *items;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  parser_init (&P, json, len);
  items = ddb_items (&P);
  if (!parser_finish (&P, items != NULL, error))
    g_clear_pointer (&items, g_ptr_array_unref);
  return items;
}

/* Generic JSON → JsonNode */

static JsonNode *
generic_value (Parser *P,
               int     depth)
{
  JsonNode *node;

  if (depth > DYN_JSON_MAX_DEPTH)
    {
      fail (P, DYN_ERROR_PROTOCOL,
            g_dngettext (GETTEXT_PACKAGE, "JSON nested deeper than %d level at byte %zu",
                         "JSON nested deeper than %d levels at byte %zu", DYN_JSON_MAX_DEPTH),
            DYN_JSON_MAX_DEPTH, offset (P, P->p));
      return NULL;
    }

  skip_ws (P);
  switch (peek (P))
    {
    case '{':
      {
        JsonObject *object = json_object_new ();

        node = json_node_init_object (json_node_alloc (), object);
        json_object_unref (object);
        P->p++;
        skip_ws (P);
        if (peek (P) == '}')
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

            if (!expect_string (P, &name, &len, N_("a member name")))
              break;
            key = g_strndup (name, len);
            if (!expect_char (P, ':', "':'"))
              break;
            member = generic_value (P, depth + 1);
            if (member == NULL)
              {
                path_push_name (P, key, strlen (key));
                break;
              }
            json_object_set_member (object, key, member);
            Separator sep = next_separator (P, '}');

            if (sep == SEPARATOR_END)
              return node;
            if (sep == SEPARATOR_NONE)
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
        skip_ws (P);
        if (peek (P) == ']')
          {
            P->p++;
            return node;
          }
        for (guint i = 0;; i++)
          {
            JsonNode *elem = generic_value (P, depth + 1);

            if (elem == NULL)
              {
                path_push (P, "[%u]", i);
                break;
              }
            json_array_add_element (array, elem);
            Separator sep = next_separator (P, ']');

            if (sep == SEPARATOR_END)
              return node;
            if (sep == SEPARATOR_NONE)
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

        if (!read_string (P, &s, &len))
          return NULL;
        copy = g_strndup (s, len);
        node = json_node_alloc ();
        json_node_init_string (node, copy);
        return node;
      }
    case 't':
      if (!read_literal (P, "true", 4))
        return NULL;
      return json_node_init_boolean (json_node_alloc (), TRUE);
    case 'f':
      if (!read_literal (P, "false", 5))
        return NULL;
      return json_node_init_boolean (json_node_alloc (), FALSE);
    case 'n':
      if (!read_literal (P, "null", 4))
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

        if (!read_number (P, &s, &len, &is_integer))
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
      fail_unexpected (P, P->p, N_("a JSON value"));
      return NULL;
    }
}

JsonNode *
dyn_json_parse (const char  *json,
                gssize       len,
                GError     **error)
{
  Parser P;
  JsonNode *node;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  if (len < 0)
    len = strlen (json);
  parser_init (&P, json, len);
  node = generic_value (&P, 0);
  if (!parser_finish (&P, node != NULL, error))
    g_clear_pointer (&node, json_node_unref);
  return node;
}

JsonNode *
dyn_json_parse_response (const char  *json,
                         gsize        len,
                         GPtrArray  **items_out,
                         GError     **error)
{
  Parser P;
  JsonObject *object;
  JsonNode *node;
  g_autoptr(GPtrArray) items = NULL;
  const char *root = "";

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  if (items_out != NULL)
    *items_out = NULL;

  parser_init (&P, json, len);
  object = json_object_new ();
  node = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);

  skip_ws (&P);
  if (peek (&P) != '{')
    {
      if (P.p >= P.end)
        fail_unexpected (&P, P.p, NULL);
      else
        /* Translators: %s is what the response is instead (“a string”, “an array” …) */
        fail (&P, DYN_ERROR_PROTOCOL, _("response must be a JSON object, not %s"), json_kind_at (&P));
      goto error;
    }
  P.p++;
  skip_ws (&P);
  if (peek (&P) == '}')
    P.p++;
  else
    for (;;)
      {
        const char *name;
        gsize name_len;

        if (!expect_string (&P, &name, &name_len, N_("a member name")))
          goto error;
        if (name_len == 5 && memcmp (name, "Items", 5) == 0)
          {
            if (items != NULL)
              {
                fail (&P, DYN_ERROR_PROTOCOL, "%s", _("duplicate \"Items\" member"));
                goto error;
              }
            if (!expect_char (&P, ':', "':'"))
              goto error;
            items = ddb_items (&P);
            if (items == NULL)
              {
                root = "Items";
                goto error;
              }
          }
        else
          {
            g_autofree char *key = g_strndup (name, name_len);
            JsonNode *member;

            if (!expect_char (&P, ':', "':'"))
              goto error;
            member = generic_value (&P, 1);
            if (member == NULL)
              {
                path_push_name (&P, key, strlen (key));
                goto error;
              }
            json_object_set_member (object, key, member);
          }
        skip_ws (&P);
        if (peek (&P) == ',')
          {
            P.p++;
            continue;
          }
        if (peek (&P) == '}')
          {
            P.p++;
            break;
          }
        /* Translators: what the JSON parser expected; keep the characters in quotes */
        fail_unexpected (&P, P.p, N_("',' or '}'"));
        goto error;
      }

  if (!expect_end (&P))
    goto error;

  parser_clear (&P);
  if (items_out != NULL)
    *items_out = g_steal_pointer (&items);
  return node;

error:
  parser_take_error (&P, root, error);
  parser_clear (&P);
  json_node_unref (node);
  return NULL;
}

/* Plain JSON → DynValue */

static DynValue *plain_value (Parser *P, int depth);

/* At '{'. With @tags, an object whose first key is a tag is a tagged form. */
static DynValue *
plain_object (Parser   *P,
              int       depth,
              gboolean  tags)
{
  guint nbase = P->ntop, vbase = P->vtop;

  if (depth > DYN_VALUE_MAX_DEPTH)
    {
      fail (P, DYN_ERROR_PROTOCOL,
            g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level", "value nested deeper than %d levels",
                         DYN_VALUE_MAX_DEPTH),
            DYN_VALUE_MAX_DEPTH);
      return NULL;
    }

  P->p++;
  skip_ws (P);
  if (peek (P) == '}')
    {
      P->p++;
      return build_map (P, nbase, vbase);
    }

  for (gboolean first = TRUE;; first = FALSE)
    {
      const char *name;
      gsize len;
      guint slot;
      DynValue *v;

      if (!expect_string (P, &name, &len, N_("a member name")))
        return NULL;
      if (first && tags && _dyn_plain_is_tag (name, len))
        {
          char tag[8];
          const char *s;
          gsize slen;

          memcpy (tag, name, len);
          tag[len] = '\0';
          if (!expect_char (P, ':', "':'"))
            return NULL;
          skip_ws (P);
          if (strcmp (tag, "$number") == 0 || strcmp (tag, "$binary") == 0)
            {
              if (!read_payload_string (P, tag, N_("a string"), &s, &slen))
                return NULL;
              v = tag[1] == 'n' ? ddb_number (P, s, slen) : ddb_binary (P, s, slen);
            }
          else if (strcmp (tag, "$map") == 0)
            {
              if (peek (P) != '{')
                {
                  fail_shape (P, tag, _("an object"));
                  return NULL;
                }
              v = plain_object (P, depth, FALSE);
            }
          else
            {
              guint i = 0;
              guint ebase = P->vtop;

              if (peek (P) != '[')
                {
                  fail_shape (P, tag, _("an array"));
                  return NULL;
                }
              P->p++;
              skip_ws (P);
              if (peek (P) == ']')
                P->p++;
              else
                for (;; i++)
                  {
                    DynValue *e = plain_value (P, depth + 1);

                    if (e == NULL)
                      {
                        path_push (P, "[%u]", i);
                        return NULL;
                      }
                    vpush (P, e);
                    if ((e->type != DYN_VALUE_S && e->type != DYN_VALUE_N && e->type != DYN_VALUE_B) ||
                        e->type != P->vstack[ebase]->type)
                      {
                        fail (P, DYN_ERROR_INVALID_VALUE, "%s",
                              /* Translators: $set and $binary are tags of the JSON form; keep them */
                              _("$set elements must be all strings, all numbers or all $binary"));
                        path_push (P, "[%u]", i);
                        return NULL;
                      }
                    Separator sep = next_separator (P, ']');

                    if (sep == SEPARATOR_END)
                      break;
                    if (sep == SEPARATOR_NONE)
                      return NULL;
                  }
              v = _dyn_value_set_from_scalars (P->vstack + ebase, P->vtop - ebase, &P->error);
              for (guint j = ebase; j < P->vtop; j++)
                dyn_value_unref (P->vstack[j]);
              P->vtop = ebase;
            }
          if (v == NULL)
            return NULL;
          skip_ws (P);
          if (peek (P) != '}')
            {
              dyn_value_unref (v);
              if (peek (P) == ',')
                /* Translators: %s is a tag of the JSON form such as $set, %zu the offset in bytes */
                fail (P, DYN_ERROR_PROTOCOL, _("an object starting with \"%s\" must have exactly one "
                                               "member (at byte %zu)"), tag, offset (P, P->p));
              else
                fail_unexpected (P, P->p, "'}'");
              return NULL;
            }
          P->p++;
          return v;
        }

      if (!check_name (P, name, len))
        return NULL;
      slot = P->ntop;
      npush (P, name, len);
      if (!expect_char (P, ':', "':'"))
        return NULL;
      v = plain_value (P, depth + 1);
      if (v == NULL)
        {
          const DynNameRef *r = &P->nstack[slot];
          path_push_name (P, P->names + r->off, r->len);
          return NULL;
        }
      vpush (P, v);
      Separator sep = next_separator (P, '}');

      if (sep == SEPARATOR_END)
        break;
      if (sep == SEPARATOR_NONE)
        return NULL;
    }
  return build_map (P, nbase, vbase);
}

static DynValue *
plain_value (Parser *P,
             int     depth)
{
  skip_ws (P);
  switch (peek (P))
    {
    case '{':
      return plain_object (P, depth, TRUE);
    case '[':
      {
        guint vbase = P->vtop;
        DynValue *list;

        if (depth > DYN_VALUE_MAX_DEPTH)
          {
            fail (P, DYN_ERROR_PROTOCOL,
                  g_dngettext (GETTEXT_PACKAGE, "value nested deeper than %d level", "value nested deeper than %d levels",
                               DYN_VALUE_MAX_DEPTH),
                  DYN_VALUE_MAX_DEPTH);
            return NULL;
          }
        P->p++;
        skip_ws (P);
        if (peek (P) == ']')
          P->p++;
        else
          for (guint i = 0;; i++)
            {
              DynValue *v = plain_value (P, depth + 1);

              if (v == NULL)
                {
                  path_push (P, "[%u]", i);
                  return NULL;
                }
              vpush (P, v);
              Separator sep = next_separator (P, ']');

              if (sep == SEPARATOR_END)
                break;
              if (sep == SEPARATOR_NONE)
                return NULL;
            }
        list = _dyn_value_new_list_from (P->vstack + vbase, P->vtop - vbase);
        P->vtop = vbase;
        return list;
      }
    case '"':
      {
        const char *s;
        gsize len;

        if (!read_string (P, &s, &len))
          return NULL;
        return _dyn_value_new_text (DYN_VALUE_S, s, len);
      }
    case 't':
      if (!read_literal (P, "true", 4))
        return NULL;
      return dyn_value_new_bool (TRUE);
    case 'f':
      if (!read_literal (P, "false", 5))
        return NULL;
      return dyn_value_new_bool (FALSE);
    case 'n':
      if (!read_literal (P, "null", 4))
        return NULL;
      return dyn_value_new_null ();
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
      {
        const guchar *s;
        gsize len;
        gboolean is_integer;

        if (!read_number (P, &s, &len, &is_integer))
          return NULL;
        return ddb_number (P, (const char *) s, len);
      }
    default:
      fail_unexpected (P, P->p, N_("a JSON value"));
      return NULL;
    }
}

DynValue *
dyn_json_decode_plain (const char  *json,
                       gsize        len,
                       GError     **error)
{
  Parser P;
  DynValue *v;

  g_return_val_if_fail (json != NULL || len == 0, NULL);

  parser_init (&P, json, len);
  v = plain_value (&P, 0);
  if (!parser_finish (&P, v != NULL, error))
    g_clear_pointer (&v, dyn_value_unref);
  return v;
}

/* Writers */

void
dyn_json_append_string (GString    *out,
                        const char *str,
                        gsize       len)
{
  static const char hex[] = "0123456789abcdef";
  const guchar *s = (const guchar *) str;
  gsize run = 0;

  init_tables ();
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = s[i];
      guint8 cls = string_class[c];

      if (cls == CC_PLAIN || cls == CC_HIGH)
        continue;
      g_string_append_len (out, str + run, i - run);
      run = i + 1;
      switch (c)
        {
        case '"':  g_string_append_len (out, "\\\"", 2); break;
        case '\\': g_string_append_len (out, "\\\\", 2); break;
        case '\b': g_string_append_len (out, "\\b", 2); break;
        case '\f': g_string_append_len (out, "\\f", 2); break;
        case '\n': g_string_append_len (out, "\\n", 2); break;
        case '\r': g_string_append_len (out, "\\r", 2); break;
        case '\t': g_string_append_len (out, "\\t", 2); break;
        default:
          {
            char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            g_string_append_len (out, u, 6);
          }
        }
    }
  g_string_append_len (out, str + run, len - run);
  g_string_append_c (out, '"');
}

static void
append_cstring (GString    *out,
                const char *s)
{
  dyn_json_append_string (out, s, strlen (s));
}

static void
append_base64 (GString *out,
               GBytes  *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_string_append_c (out, '"');
  _dyn_base64_append (out, data, len);
  g_string_append_c (out, '"');
}

static void
append_ddb_members (GString        *out,
                    const DynValue *map)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < map->u.map.n; i++)
    {
      const DynMember *m = &map->u.map.members[i];

      if (i > 0)
        g_string_append_c (out, ',');
      dyn_json_append_string (out, m->name, m->name_len);
      g_string_append_c (out, ':');
      dyn_json_append_ddb_value (out, m->value);
    }
  g_string_append_c (out, '}');
}

void
dyn_json_append_ddb_value (GString        *out,
                           const DynValue *v)
{
  g_return_if_fail (out != NULL && v != NULL);

  g_string_append_len (out, "{\"", 2);
  g_string_append (out, dyn_value_type_to_string (v->type));
  g_string_append_len (out, "\":", 2);
  switch ((DynValueType) v->type)
    {
    case DYN_VALUE_S:
    case DYN_VALUE_N:
      dyn_json_append_string (out, v->u.str.text, v->u.str.len);
      break;
    case DYN_VALUE_B:
      append_base64 (out, v->u.bytes);
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, v->u.boolean ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "true");
      break;
    case DYN_VALUE_M:
      append_ddb_members (out, v);
      break;
    case DYN_VALUE_L:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.list.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyn_json_append_ddb_value (out, v->u.list.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.set.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (v->type == DYN_VALUE_BS)
            append_base64 (out, v->u.set.elems[i]);
          else
            append_cstring (out, v->u.set.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append_c (out, '}');
}

void
dyn_json_append_ddb_item (GString        *out,
                          const DynValue *item)
{
  g_return_if_fail (out != NULL && item != NULL && item->type == DYN_VALUE_M);
  append_ddb_members (out, item);
}

/* Whether @text is a JSON number literal (so it can be written bare). */
static gboolean
is_json_number (const char *text,
                gsize       len)
{
  Parser P;
  const guchar *s;
  gsize n;
  gboolean is_integer;
  gboolean ok;

  parser_init (&P, text, len);
  ok = read_number (&P, &s, &n, &is_integer) && P.p == P.end;
  parser_clear (&P);
  return ok;
}

static void
append_plain_number (GString    *out,
                     const char *text,
                     gsize       len)
{
  if (is_json_number (text, len))
    g_string_append_len (out, text, len);
  else
    {
      g_string_append (out, "{\"$number\":");
      dyn_json_append_string (out, text, len);
      g_string_append_c (out, '}');
    }
}

void
dyn_json_append_plain_value (GString        *out,
                             const DynValue *v)
{
  g_return_if_fail (out != NULL && v != NULL);

  switch ((DynValueType) v->type)
    {
    case DYN_VALUE_S:
      dyn_json_append_string (out, v->u.str.text, v->u.str.len);
      break;
    case DYN_VALUE_N:
      append_plain_number (out, v->u.str.text, v->u.str.len);
      break;
    case DYN_VALUE_B:
      g_string_append (out, "{\"$binary\":");
      append_base64 (out, v->u.bytes);
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, v->u.boolean ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYN_VALUE_M:
      {
        gboolean wrap = v->u.map.n > 0 &&
                        _dyn_plain_is_tag (v->u.map.members[0].name, v->u.map.members[0].name_len);

        if (wrap)
          g_string_append (out, "{\"$map\":");
        g_string_append_c (out, '{');
        for (guint i = 0; i < v->u.map.n; i++)
          {
            const DynMember *m = &v->u.map.members[i];

            if (i > 0)
              g_string_append_c (out, ',');
            dyn_json_append_string (out, m->name, m->name_len);
            g_string_append_c (out, ':');
            dyn_json_append_plain_value (out, m->value);
          }
        g_string_append_c (out, '}');
        if (wrap)
          g_string_append_c (out, '}');
      }
      break;
    case DYN_VALUE_L:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.list.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyn_json_append_plain_value (out, v->u.list.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append (out, "{\"$set\":[");
      for (guint i = 0; i < v->u.set.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (v->type == DYN_VALUE_SS)
            append_cstring (out, v->u.set.elems[i]);
          else if (v->type == DYN_VALUE_NS)
            append_plain_number (out, v->u.set.elems[i], strlen (v->u.set.elems[i]));
          else
            {
              g_string_append (out, "{\"$binary\":");
              append_base64 (out, v->u.set.elems[i]);
              g_string_append_c (out, '}');
            }
        }
      g_string_append (out, "]}");
      break;
    default:
      g_assert_not_reached ();
    }
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
