/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-value"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-value-private.h"

G_DEFINE_BOXED_TYPE (DynValue, dyn_value, dyn_value_ref, dyn_value_unref)

static const char * const type_names[] = {
  "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS",
};

/* Numbers */

DynNumberStatus
_dyn_number_parse (const char     *s,
                   gsize           len,
                   DynNumberParts *p)
{
  gsize i = 0;
  gint64 int_digits = 0;
  gint64 k = 0;                 /* index of the digit in the mantissa */
  gint64 k_first = -1;
  gint64 pending_zeros = 0;
  gboolean any_digit = FALSE;
  gboolean too_many = FALSE;
  gint64 exp = 0;

  p->sign = 1;
  p->n_digits = 0;
  p->msd_exp = 0;

  if (i < len && (s[i] == '-' || s[i] == '+'))
    {
      if (s[i] == '-')
        p->sign = -1;
      i++;
    }

  for (int part = 0; part < 2; part++)
    {
      for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, k++)
        {
          any_digit = TRUE;
          if (part == 0)
            int_digits++;
          if (s[i] == '0')
            {
              if (k_first >= 0)
                pending_zeros++;
              continue;
            }
          if (k_first < 0)
            k_first = k;
          if (p->n_digits + pending_zeros + 1 > DYN_NUMBER_MAX_DIGITS)
            {
              too_many = TRUE;
              pending_zeros = 0;
              continue;
            }
          for (; pending_zeros > 0; pending_zeros--)
            p->digits[p->n_digits++] = '0';
          p->digits[p->n_digits++] = s[i];
        }
      if (part == 0)
        {
          if (i < len && s[i] == '.')
            i++;
          else
            break;
        }
    }

  if (!any_digit)
    return DYN_NUMBER_SYNTAX;

  if (i < len && (s[i] == 'e' || s[i] == 'E'))
    {
      int esign = 1;
      gboolean exp_digit = FALSE;

      i++;
      if (i < len && (s[i] == '-' || s[i] == '+'))
        {
          if (s[i] == '-')
            esign = -1;
          i++;
        }
      for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
        {
          exp_digit = TRUE;
          if (exp < G_GINT64_CONSTANT (1000000000))
            exp = exp * 10 + (s[i] - '0');
        }
      if (!exp_digit)
        return DYN_NUMBER_SYNTAX;
      exp *= esign;
    }

  if (i != len)
    return DYN_NUMBER_SYNTAX;

  p->digits[p->n_digits] = '\0';

  if (k_first < 0)
    {
      p->sign = 0;
      return DYN_NUMBER_OK;
    }
  if (too_many)
    return DYN_NUMBER_DIGITS;

  p->msd_exp = int_digits - 1 - k_first + exp;
  if (p->msd_exp > DYN_NUMBER_MAX_EXP)
    return DYN_NUMBER_TOO_LARGE;
  if (p->msd_exp < DYN_NUMBER_MIN_EXP)
    return DYN_NUMBER_TOO_SMALL;
  return DYN_NUMBER_OK;
}

static char *
quote_for_message (const char *text,
                   gsize       len)
{
  g_autofree char *cut = g_strndup (text, MIN (len, 60));
  g_autofree char *esc = g_strescape (cut, NULL);

  return g_strdup_printf ("\"%s%s\"", esc, len > 60 ? "..." : "");
}

void
_dyn_number_set_error (GError          **error,
                       DynNumberStatus   status,
                       const char       *text,
                       gsize             len)
{
  g_autofree char *q = quote_for_message (text, len);

  switch (status)
    {
    case DYN_NUMBER_SYNTAX:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the number as typed, in quotes */
                   _("invalid number %s: not a decimal number"), q);
      break;
    case DYN_NUMBER_DIGITS:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the number as typed, in quotes */
                   _("invalid number %s: more than 38 significant digits"), q);
      break;
    case DYN_NUMBER_TOO_LARGE:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the number as typed, in quotes */
                   _("invalid number %s: exponent out of range "
                     "(magnitude must not exceed 9.9999999999999999999999999999999999999E+125)"), q);
      break;
    case DYN_NUMBER_TOO_SMALL:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the number as typed, in quotes */
                   _("invalid number %s: exponent out of range "
                     "(magnitude must be zero or at least 1E-130)"), q);
      break;
    case DYN_NUMBER_OK:
    default:
      g_assert_not_reached ();
    }
}

gsize
_dyn_number_parts_size (const DynNumberParts *parts)
{
  guint digits = MAX (parts->n_digits, 1);

  return (digits + 1) / 2 + 1;
}

/**
 * dyn_number_validate:
 * @text: number text
 * @error: return location for a #GError
 *
 * Checks @text against DynamoDB's number rules: an optional sign, decimal digits
 * with an optional point, an optional exponent; at most 38 significant digits;
 * zero or a magnitude between 1E-130 and 9.99…9E+125.
 *
 * Returns: %TRUE if DynamoDB can hold the number
 */
gboolean
dyn_number_validate (const char  *text,
                     GError     **error)
{
  DynNumberParts parts;
  DynNumberStatus status;

  g_return_val_if_fail (text != NULL, FALSE);

  status = _dyn_number_parse (text, strlen (text), &parts);
  if (status != DYN_NUMBER_OK)
    {
      _dyn_number_set_error (error, status, text, strlen (text));
      return FALSE;
    }
  return TRUE;
}

static int
number_parts_compare (const DynNumberParts *a,
                      const DynNumberParts *b)
{
  int mag;

  if (a->sign != b->sign)
    return a->sign < b->sign ? -1 : 1;
  if (a->sign == 0)
    return 0;

  if (a->msd_exp != b->msd_exp)
    mag = a->msd_exp < b->msd_exp ? -1 : 1;
  else
    {
      mag = strcmp (a->digits, b->digits);
      mag = mag < 0 ? -1 : (mag > 0 ? 1 : 0);
    }
  return a->sign > 0 ? mag : -mag;
}

/**
 * dyn_number_compare:
 * @a: a valid number text
 * @b: a valid number text
 *
 * Compares two numbers exactly, by value. Invalid text sorts by strcmp().
 *
 * Returns: negative, zero or positive as @a is less than, equal to or greater than @b
 */
int
dyn_number_compare (const char *a,
                    const char *b)
{
  DynNumberParts pa, pb;

  g_return_val_if_fail (a != NULL && b != NULL, 0);

  if (_dyn_number_parse (a, strlen (a), &pa) != DYN_NUMBER_OK ||
      _dyn_number_parse (b, strlen (b), &pb) != DYN_NUMBER_OK)
    return strcmp (a, b);
  return number_parts_compare (&pa, &pb);
}

static char *
number_parts_to_string (const DynNumberParts *p)
{
  GString *s;
  gint64 e = p->msd_exp;
  gint64 n = p->n_digits;

  if (p->sign == 0)
    return g_strdup ("0");

  s = g_string_sized_new (n + 8 + ABS (e));
  if (p->sign < 0)
    g_string_append_c (s, '-');
  if (e >= 0)
    {
      if (n <= e + 1)
        {
          g_string_append_len (s, p->digits, n);
          for (gint64 i = n; i < e + 1; i++)
            g_string_append_c (s, '0');
        }
      else
        {
          g_string_append_len (s, p->digits, e + 1);
          g_string_append_c (s, '.');
          g_string_append_len (s, p->digits + e + 1, n - (e + 1));
        }
    }
  else
    {
      g_string_append (s, "0.");
      for (gint64 i = 0; i < -e - 1; i++)
        g_string_append_c (s, '0');
      g_string_append_len (s, p->digits, n);
    }
  return g_string_free (s, FALSE);
}

/**
 * dyn_number_canonicalize:
 * @text: a number text
 *
 * Returns the number as DynamoDB stores and returns it: plain notation, no
 * leading '+', no leading or trailing zeros ("1E-130" becomes "0.000…0001",
 * "-0.0" becomes "0"). Invalid text is returned unchanged.
 *
 * Returns: (transfer full): the canonical text
 */
char *
dyn_number_canonicalize (const char *text)
{
  DynNumberParts parts;

  g_return_val_if_fail (text != NULL, NULL);

  if (_dyn_number_parse (text, strlen (text), &parts) != DYN_NUMBER_OK)
    return g_strdup (text);
  return number_parts_to_string (&parts);
}

/* Digit of @p at power of ten @e (0 outside its digits). */
static int
digit_at (const DynNumberParts *p,
          gint64                e)
{
  gint64 i = p->msd_exp - e;

  if (p->sign == 0 || i < 0 || i >= (gint64) p->n_digits)
    return 0;
  return p->digits[i] - '0';
}

char *
dyn_number_add (const char  *a,
                const char  *b,
                gboolean     subtract,
                GError     **error)
{
  DynNumberParts pa, pb;
  DynNumberStatus status;
  gint64 lo, hi, e;
  int sa, sb, sign;
  g_autofree int *sum = NULL;
  gint64 width, first = 0, last = 0;
  gboolean nonzero = FALSE;
  GString *out;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  if ((status = _dyn_number_parse (a, strlen (a), &pa)) != DYN_NUMBER_OK)
    {
      _dyn_number_set_error (error, status, a, strlen (a));
      return NULL;
    }
  if ((status = _dyn_number_parse (b, strlen (b), &pb)) != DYN_NUMBER_OK)
    {
      _dyn_number_set_error (error, status, b, strlen (b));
      return NULL;
    }
  sa = pa.sign;
  sb = subtract ? -pb.sign : pb.sign;
  if (sa == 0 && sb == 0)
    return g_strdup ("0");

  /* Powers of ten from lo to hi (one more for the carry). */
  lo = G_MAXINT64;
  hi = G_MININT64;
  if (sa != 0)
    lo = MIN (lo, pa.msd_exp - (gint64) pa.n_digits + 1), hi = MAX (hi, pa.msd_exp);
  if (sb != 0)
    lo = MIN (lo, pb.msd_exp - (gint64) pb.n_digits + 1), hi = MAX (hi, pb.msd_exp);
  hi++;
  width = hi - lo + 1;
  sum = g_new0 (int, width);

  /* Magnitudes: the larger minus (or plus) the smaller. */
  {
    int cmp = 0;
    const DynNumberParts *big = &pa, *small = &pb;
    int sbig = sa, ssmall = sb;
    int carry = 0;

    if (sa == 0 || sb == 0)
      cmp = sa == 0 ? -1 : 1;
    else
      for (e = hi; e >= lo && cmp == 0; e--)
        cmp = digit_at (&pa, e) - digit_at (&pb, e);
    if (cmp < 0)
      {
        big = &pb, small = &pa;
        sbig = sb, ssmall = sa;
      }
    sign = sbig;
    for (e = lo; e <= hi; e++)
      {
        int d = digit_at (big, e) + (ssmall == 0 ? 0 : (ssmall == sbig ? 1 : -1) * digit_at (small, e)) + carry;

        carry = 0;
        if (d < 0)
          d += 10, carry = -1;
        else if (d > 9)
          d -= 10, carry = 1;
        sum[e - lo] = d;
      }
  }

  for (e = hi; e >= lo; e--)
    if (sum[e - lo] != 0)
      {
        if (!nonzero)
          first = e;
        nonzero = TRUE;
        last = e;
      }
  if (!nonzero)
    return g_strdup ("0");
  if (first - last + 1 > DYN_NUMBER_MAX_DIGITS)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s and %s are numbers, %c is + or - */
                   _("%s %c %s needs more than 38 significant digits"), a, subtract ? '-' : '+', b);
      return NULL;
    }
  if (first > DYN_NUMBER_MAX_EXP || first < DYN_NUMBER_MIN_EXP)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s and %s are numbers, %c is + or - */
                   _("%s %c %s leaves DynamoDB's number range (1E-130 to 9.9999999999999999999999999999999999999E+125)"),
                   a, subtract ? '-' : '+', b);
      return NULL;
    }
  out = g_string_new (sign < 0 ? "-" : "");
  for (e = first; e >= last; e--)
    {
      g_string_append_c (out, '0' + sum[e - lo]);
      if (e == first && e != last)
        g_string_append_c (out, '.');
    }
  g_string_append_printf (out, "E%" G_GINT64_FORMAT, first);
  return g_string_free (out, FALSE);
}

/* Base64 (RFC 4648, standard alphabet, padded). */

static const guint8 b64_rev[256] = {
#define X 0xff
  X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
  X,X,X,X,X,X,X,X,X,X,X,62,X,X,X,63, 52,53,54,55,56,57,58,59,60,61,X,X,X,X,X,X,
  X,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14, 15,16,17,18,19,20,21,22,23,24,25,X,X,X,X,X,
  X,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40, 41,42,43,44,45,46,47,48,49,50,51,X,X,X,X,X,
  X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
  X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
  X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
  X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X, X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,X,
#undef X
};

GBytes *
_dyn_base64_decode (const char  *text,
                    gsize        len,
                    GError     **error)
{
  const guint8 *s = (const guint8 *) text;
  gsize pad = 0;
  gsize out_len;
  guint8 *out, *o;
  gsize i;

  if (len % 4 != 0)
    goto bad;
  if (len >= 1 && s[len - 1] == '=')
    pad++;
  if (len >= 2 && s[len - 2] == '=')
    pad++;
  out_len = len / 4 * 3 - pad;
  out = o = g_malloc (MAX (out_len, 1));

  for (i = 0; i + 4 <= len; i += 4)
    {
      guint8 a = b64_rev[s[i]], b = b64_rev[s[i + 1]], c, d;
      gboolean last = i + 4 == len;

      if (last && pad > 0)
        {
          c = pad == 2 ? 0 : b64_rev[s[i + 2]];
          d = 0;
          if ((a | b | c) == 0xff ||
              (pad == 2 && (b & 0x0f) != 0) ||
              (pad == 1 && (c & 0x03) != 0))
            {
              g_free (out);
              goto bad;
            }
          *o++ = (a << 2) | (b >> 4);
          if (pad == 1)
            *o++ = (b << 4) | (c >> 2);
          break;
        }
      c = b64_rev[s[i + 2]];
      d = b64_rev[s[i + 3]];
      if ((a | b | c | d) == 0xff)
        {
          g_free (out);
          goto bad;
        }
      *o++ = (a << 2) | (b >> 4);
      *o++ = (b << 4) | (c >> 2);
      *o++ = (c << 6) | d;
    }
  g_assert ((gsize) (o - out) == out_len);
  return g_bytes_new_take (out, out_len);

bad:
  {
    g_autofree char *q = quote_for_message (text, len);
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                 /* Translators: %s is the text as typed, in quotes */
                 _("invalid base64 %s"), q);
  }
  return NULL;
}

void
_dyn_base64_append (GString      *out,
                    const guint8 *data,
                    gsize         len)
{
  static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  gsize start = out->len;
  char *o;
  gsize i;

  g_string_set_size (out, start + (len + 2) / 3 * 4);
  o = out->str + start;
  for (i = 0; i + 3 <= len; i += 3)
    {
      guint32 v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      *o++ = alphabet[v >> 18];
      *o++ = alphabet[(v >> 12) & 63];
      *o++ = alphabet[(v >> 6) & 63];
      *o++ = alphabet[v & 63];
    }
  if (len - i == 1)
    {
      guint32 v = data[i] << 16;
      *o++ = alphabet[v >> 18];
      *o++ = alphabet[(v >> 12) & 63];
      *o++ = '=';
      *o++ = '=';
    }
  else if (len - i == 2)
    {
      guint32 v = (data[i] << 16) | (data[i + 1] << 8);
      *o++ = alphabet[v >> 18];
      *o++ = alphabet[(v >> 12) & 63];
      *o++ = alphabet[(v >> 6) & 63];
      *o++ = '=';
    }
}

/* Allocation */

DynValue *
_dyn_value_alloc (DynValueType type,
                  gsize        tail,
                  gpointer    *tail_out)
{
  gsize head = G_STRUCT_OFFSET (DynValue, u) + sizeof (((DynValue *) NULL)->u);
  DynValue *self;

  head = (head + 7) & ~(gsize) 7;
  self = g_malloc (head + tail);
  self->ref_count = 1;
  self->type = type;
  self->flags = 0;
  memset (&self->u, 0, sizeof self->u);
  if (tail_out != NULL)
    *tail_out = (char *) self + head;
  return self;
}

DynValue *
_dyn_value_new_text (DynValueType  type,
                     const char   *text,
                     gsize         len)
{
  DynValue *self;

  /* DynamoDB's items are at most 400 KB; a longer text cannot be sent. */
  g_return_val_if_fail (len < G_MAXUINT32, NULL);
  self = g_malloc (DYN_VALUE_TEXT_OFFSET + len + 1);
  self->ref_count = 1;
  self->type = type;
  self->flags = 0;
  self->u.str.len = len;
  memcpy (DYN_VALUE_TEXT (self), text, len);
  DYN_VALUE_TEXT (self)[len] = '\0';
  return self;
}

static guint
map_find_linear (const DynValue *self,
                 const char     *name,
                 gsize           len)
{
  for (guint i = 0; i < self->u.map.n; i++)
    {
      const DynMember *m = &self->u.map.members[i];
      if (strncmp (m->name, name, len) == 0 && m->name[len] == '\0')
        return i;
    }
  return G_MAXUINT;
}

static GHashTable *
map_build_index (const DynValue *self,
                 guint          *dup_index)
{
  GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < self->u.map.n; i++)
    {
      const char *name = self->u.map.members[i].name;
      if (!g_hash_table_insert (index, (gpointer) name, GUINT_TO_POINTER (i + 1)))
        {
          if (dup_index != NULL)
            *dup_index = i;
          g_hash_table_unref (index);
          return NULL;
        }
    }
  return index;
}

/* The map @self holds @v inside its own allocation. */
static inline gboolean
is_embedded_in (const DynValue *v,
                const DynValue *self)
{
  return (v->flags & DYN_VALUE_FLAG_EMBEDDED) && (const char *) v - v->ref_count == (const char *) self;
}

static inline DynValue *
embedding_map (DynValue *v)
{
  return (DynValue *) ((char *) v - v->ref_count);
}

/* A member's value that a map lets go of. */
static void
release_member (DynValue *map,
                DynValue *v)
{
  if (v != NULL && !is_embedded_in (v, map))
    dyn_value_unref (v);
}

/* An S or N the map can take into its own allocation: nobody else holds it. */
static gboolean
can_embed (const DynValue *v)
{
  return v != NULL && (v->type == DYN_VALUE_S || v->type == DYN_VALUE_N) &&
         !(v->flags & (DYN_VALUE_FLAG_STATIC | DYN_VALUE_FLAG_EMBEDDED)) &&
         g_atomic_int_get (&v->ref_count) == 1;
}

static gsize
embedded_size (const DynValue *v)
{
  /* A DynValue is 8-byte aligned (its union holds pointers). */
  return (DYN_VALUE_TEXT_OFFSET + v->u.str.len + 1 + 7) & ~(gsize) 7;
}

/* Attribute names repeat on every item of a table: short ones are kept once
 * for the whole process, up to a bound, so that a table whose names are
 * data (one attribute per day…) cannot grow the pool without end; past the
 * bound a map keeps its names itself. */
#define NAME_POOL_MAX      16384
#define NAME_POOL_MAX_LEN  64

G_LOCK_DEFINE_STATIC (name_pool);
static GHashTable *name_pool;

static const char *
pooled_name (const char *name,
             gsize       len)
{
  char key[NAME_POOL_MAX_LEN + 1];
  const char *found;

  if (len > NAME_POOL_MAX_LEN)
    return NULL;
  memcpy (key, name, len);
  key[len] = '\0';
  G_LOCK (name_pool);
  if (name_pool == NULL)
    name_pool = g_hash_table_new (g_str_hash, g_str_equal);
  found = g_hash_table_lookup (name_pool, key);
  if (found == NULL && g_hash_table_size (name_pool) < NAME_POOL_MAX)
    {
      char *copy = g_strndup (key, len);

      g_hash_table_add (name_pool, copy);
      found = copy;
    }
  G_UNLOCK (name_pool);
  return found;
}

/* Builds a map from parsed names and values (taking the values). The map
 * is one allocation: its header, the members, the names, and the string and
 * number members themselves (an item of a page is mostly those: one
 * allocation instead of one per attribute). */
DynValue *
_dyn_value_new_map_from (const char       *namebuf,
                         const DynNameRef *refs,
                         DynValue        **values,
                         guint             n,
                         guint            *dup_index)
{
  gsize names_total = 0, embed_total = 0, embed_at;
  gpointer tail;
  DynValue *self;
  char *np;
  const char *pooled_stack[32];
  g_autofree const char **pooled_heap = n > G_N_ELEMENTS (pooled_stack) ? g_new (const char *, n) : NULL;
  const char **pooled = pooled_heap ? pooled_heap : pooled_stack;

  for (guint i = 0; i < n; i++)
    {
      pooled[i] = pooled_name (namebuf + refs[i].off, refs[i].len);
      if (pooled[i] == NULL)
        names_total += refs[i].len + 1;
      if (can_embed (values[i]))
        embed_total += embedded_size (values[i]);
    }
  embed_at = (n * sizeof (DynMember) + names_total + 7) & ~(gsize) 7;

  self = _dyn_value_alloc (DYN_VALUE_M, embed_at + embed_total, &tail);
  self->u.map.members = tail;
  self->u.map.n = n;
  self->u.map.alloc = n;
  np = (char *) tail + n * sizeof (DynMember);
  for (guint i = 0; i < n; i++)
    {
      DynMember *m = &self->u.map.members[i];

      m->value = NULL;
      if (pooled[i] != NULL)
        {
          m->name = pooled[i];
          continue;
        }
      if (refs[i].len > 0)
        memcpy (np, namebuf + refs[i].off, refs[i].len);
      np[refs[i].len] = '\0';
      m->name = np;
      np += refs[i].len + 1;
    }

  if (n > DYN_MAP_INDEX_MIN)
    {
      self->u.map.index = map_build_index (self, dup_index);
      if (self->u.map.index == NULL)
        {
          self->u.map.n = 0;
          dyn_value_unref (self);
          return NULL;
        }
    }
  else
    {
      DynMember *m = self->u.map.members;

      for (guint i = 1; i < n; i++)
        for (guint j = 0; j < i; j++)
          if (strcmp (m[i].name, m[j].name) == 0)
            {
              if (dup_index != NULL)
                *dup_index = i;
              self->u.map.n = 0;
              dyn_value_unref (self);
              return NULL;
            }
    }

  {
    char *ep = (char *) tail + embed_at;

    for (guint i = 0; i < n; i++)
      {
        DynValue *v = values[i];

        if (can_embed (v))
          {
            DynValue *e = (DynValue *) ep;
            gsize offset = ep - (char *) self;

            g_assert (offset < G_MAXINT);
            e->ref_count = (gint) offset;
            e->type = v->type;
            e->flags = DYN_VALUE_FLAG_EMBEDDED;
            e->u.str.len = v->u.str.len;
            memcpy (DYN_VALUE_TEXT (e), DYN_VALUE_TEXT (v), v->u.str.len + 1);
            ep += embedded_size (v);
            g_free (v);
            v = e;
          }
        self->u.map.members[i].value = v;
      }
  }
  return self;
}

DynValue *
_dyn_value_new_list_from (DynValue **values,
                          guint      n)
{
  gpointer tail;
  DynValue *self = _dyn_value_alloc (DYN_VALUE_L, n * sizeof (DynValue *), &tail);

  self->u.list.elems = tail;
  self->u.list.n = n;
  self->u.list.alloc = n;
  if (n > 0)
    memcpy (tail, values, n * sizeof (DynValue *));
  return self;
}

/* Sets */

static guint
number_hash (gconstpointer key)
{
  DynNumberParts p;

  _dyn_number_parse (key, strlen (key), &p);
  if (p.sign == 0)
    return 0;
  return g_str_hash (p.digits) ^ (guint) (p.msd_exp * 31) ^ (guint) p.sign;
}

static gboolean
number_equal (gconstpointer a,
              gconstpointer b)
{
  return dyn_number_compare (a, b) == 0;
}

static gboolean
set_elements_equal (DynValueType  type,
                    gconstpointer a,
                    gconstpointer b)
{
  switch (type)
    {
    case DYN_VALUE_SS:
      return strcmp (a, b) == 0;
    case DYN_VALUE_NS:
      return dyn_number_compare (a, b) == 0;
    case DYN_VALUE_BS:
      return g_bytes_equal (a, b);
    default:
      g_assert_not_reached ();
    }
}

static GHashTable *
set_hash_table_new (DynValueType type)
{
  switch (type)
    {
    case DYN_VALUE_SS:
      return g_hash_table_new (g_str_hash, g_str_equal);
    case DYN_VALUE_NS:
      return g_hash_table_new (number_hash, number_equal);
    case DYN_VALUE_BS:
      return g_hash_table_new (g_bytes_hash, g_bytes_equal);
    default:
      g_assert_not_reached ();
    }
}

/* Returns the index of the first repeated element, or -1. */
static gssize
set_find_duplicate (DynValueType  type,
                    gpointer     *elems,
                    guint         n)
{
  if (n <= DYN_MAP_INDEX_MIN && type == DYN_VALUE_NS)
    {
      /* Parse each number once. */
      DynNumberParts parts[DYN_MAP_INDEX_MIN];

      for (guint i = 0; i < n; i++)
        {
          _dyn_number_parse (elems[i], strlen (elems[i]), &parts[i]);
          for (guint j = 0; j < i; j++)
            if (number_parts_compare (&parts[i], &parts[j]) == 0)
              return i;
        }
      return -1;
    }
  else if (n <= DYN_MAP_INDEX_MIN)
    {
      for (guint i = 1; i < n; i++)
        for (guint j = 0; j < i; j++)
          if (set_elements_equal (type, elems[i], elems[j]))
            return i;
      return -1;
    }
  else
    {
      g_autoptr(GHashTable) seen = set_hash_table_new (type);

      for (guint i = 0; i < n; i++)
        if (!g_hash_table_add (seen, elems[i]))
          return i;
      return -1;
    }
}

static void
set_duplicate_error (GError       **error,
                     DynValueType   type,
                     gpointer       elem)
{
  g_autofree char *q = NULL;

  if (type == DYN_VALUE_BS)
    {
      g_autoptr(GString) b64 = g_string_new (NULL);
      gsize len;
      const guint8 *data = g_bytes_get_data (elem, &len);

      _dyn_base64_append (b64, data, len);
      q = quote_for_message (b64->str, b64->len);
    }
  else
    q = quote_for_message (elem, strlen (elem));
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
               /* Translators: the first %s is a set type (SS, NS or BS), the second an element in quotes */
               _("%s set contains %s more than once"), type_names[type], q);
}

DynValue *
_dyn_value_new_text_set (DynValueType        type,
                         const char * const *strv,
                         const gsize        *lens,
                         guint               n,
                         GError            **error)
{
  gsize total = 0;
  gpointer tail;
  DynValue *self;
  char *p;
  gssize dup;

  g_assert (type == DYN_VALUE_SS || type == DYN_VALUE_NS);

  if (n == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is a set type: SS, NS or BS */
                   _("%s set must not be empty"), type_names[type]);
      return NULL;
    }

  for (guint i = 0; i < n; i++)
    {
      gsize len = lens ? lens[i] : strlen (strv[i]);

      if (type == DYN_VALUE_NS)
        {
          DynNumberParts parts;
          DynNumberStatus status = _dyn_number_parse (strv[i], len, &parts);
          if (status != DYN_NUMBER_OK)
            {
              _dyn_number_set_error (error, status, strv[i], len);
              return NULL;
            }
        }
      if (memchr (strv[i], '\0', len) != NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %s is a set type: SS, NS or BS */
                       _("%s set element contains a NUL character"), type_names[type]);
          return NULL;
        }
      total += len + 1;
    }

  self = _dyn_value_alloc (type, n * sizeof (gpointer) + total, &tail);
  self->u.set.elems = tail;
  self->u.set.n = n;
  p = (char *) tail + n * sizeof (gpointer);
  for (guint i = 0; i < n; i++)
    {
      gsize len = lens ? lens[i] : strlen (strv[i]);
      memcpy (p, strv[i], len);
      p[len] = '\0';
      self->u.set.elems[i] = p;
      p += len + 1;
    }

  dup = set_find_duplicate (type, self->u.set.elems, n);
  if (dup >= 0)
    {
      set_duplicate_error (error, type, self->u.set.elems[dup]);
      dyn_value_unref (self);
      return NULL;
    }
  return self;
}

DynValue *
_dyn_value_new_bytes_set (GBytes **bytesv,
                          guint    n,
                          GError **error)
{
  gpointer tail;
  DynValue *self;
  gssize dup;

  if (n == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("%s set must not be empty"), "BS");
      return NULL;
    }
  dup = set_find_duplicate (DYN_VALUE_BS, (gpointer *) bytesv, n);
  if (dup >= 0)
    {
      set_duplicate_error (error, DYN_VALUE_BS, bytesv[dup]);
      for (guint i = 0; i < n; i++)
        g_bytes_unref (bytesv[i]);
      return NULL;
    }
  self = _dyn_value_alloc (DYN_VALUE_BS, n * sizeof (gpointer), &tail);
  self->u.set.elems = tail;
  self->u.set.n = n;
  memcpy (tail, bytesv, n * sizeof (gpointer));
  return self;
}

/* Life cycle */

/**
 * dyn_value_ref:
 * @self: a #DynValue
 *
 * Returns: (transfer full): @self with one more reference
 */
DynValue *
dyn_value_ref (DynValue *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (self->flags & DYN_VALUE_FLAG_EMBEDDED)
    dyn_value_ref (embedding_map (self));
  else if (!(self->flags & DYN_VALUE_FLAG_STATIC))
    g_atomic_int_inc (&self->ref_count);
  return self;
}

static void
value_free (DynValue *self)
{
  switch ((DynValueType) self->type)
    {
    case DYN_VALUE_B:
      g_bytes_unref (self->u.bytes);
      break;
    case DYN_VALUE_M:
      for (guint i = 0; i < self->u.map.n; i++)
        {
          DynMember *m = &self->u.map.members[i];
          if (self->flags & DYN_VALUE_FLAG_OWNED_NAMES)
            g_free ((char *) m->name);
          release_member (self, m->value);
        }
      g_clear_pointer (&self->u.map.index, g_hash_table_unref);
      if (self->flags & DYN_VALUE_FLAG_HEAP_ARRAY)
        g_free (self->u.map.members);
      break;
    case DYN_VALUE_L:
      for (guint i = 0; i < self->u.list.n; i++)
        dyn_value_unref (self->u.list.elems[i]);
      if (self->flags & DYN_VALUE_FLAG_HEAP_ARRAY)
        g_free (self->u.list.elems);
      break;
    case DYN_VALUE_BS:
      for (guint i = 0; i < self->u.set.n; i++)
        g_bytes_unref (self->u.set.elems[i]);
      break;
    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    default:
      break;
    }
  g_free (self);
}

/**
 * dyn_value_unref:
 * @self: (transfer full): a #DynValue
 *
 * Drops a reference; the last one frees the value and its children.
 */
void
dyn_value_unref (DynValue *self)
{
  g_return_if_fail (self != NULL);
  if (self->flags & DYN_VALUE_FLAG_STATIC)
    return;
  if (self->flags & DYN_VALUE_FLAG_EMBEDDED)
    dyn_value_unref (embedding_map (self));
  else if (g_atomic_int_dec_and_test (&self->ref_count))
    value_free (self);
}

DynValueType
dyn_value_get_value_type (const DynValue *self)
{
  g_return_val_if_fail (self != NULL, DYN_VALUE_NULL);
  return self->type;
}

const char *
dyn_value_type_to_string (DynValueType type)
{
  g_return_val_if_fail ((guint) type < G_N_ELEMENTS (type_names), NULL);
  return type_names[type];
}

gboolean
dyn_value_type_from_string (const char   *s,
                            DynValueType *out_type)
{
  g_return_val_if_fail (s != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strcmp (s, type_names[i]) == 0)
      {
        if (out_type != NULL)
          *out_type = i;
        return TRUE;
      }
  return FALSE;
}

/* Constructors */

DynValue *
dyn_value_new_string (const char *utf8)
{
  g_return_val_if_fail (utf8 != NULL, NULL);
  return _dyn_value_new_text (DYN_VALUE_S, utf8, strlen (utf8));
}

DynValue *
dyn_value_new_string_len (const char *utf8,
                          gsize       len)
{
  g_return_val_if_fail (utf8 != NULL || len == 0, NULL);
  return _dyn_value_new_text (DYN_VALUE_S, utf8 ? utf8 : "", len);
}

DynValue *
dyn_value_new_number (const char  *text,
                      GError     **error)
{
  g_return_val_if_fail (text != NULL, NULL);

  if (!dyn_number_validate (text, error))
    return NULL;
  return _dyn_value_new_text (DYN_VALUE_N, text, strlen (text));
}

DynValue *
dyn_value_new_binary (GBytes *bytes)
{
  DynValue *self;

  g_return_val_if_fail (bytes != NULL, NULL);

  self = _dyn_value_alloc (DYN_VALUE_B, 0, NULL);
  self->u.bytes = g_bytes_ref (bytes);
  return self;
}

/* BOOL and NULL values are immutable and carry nothing else: share them. */
static DynValue static_true = { 1, DYN_VALUE_BOOL, DYN_VALUE_FLAG_STATIC, { .boolean = TRUE } };
static DynValue static_false = { 1, DYN_VALUE_BOOL, DYN_VALUE_FLAG_STATIC, { .boolean = FALSE } };
static DynValue static_null = { 1, DYN_VALUE_NULL, DYN_VALUE_FLAG_STATIC, { .boolean = FALSE } };

DynValue *
dyn_value_new_bool (gboolean b)
{
  return b ? &static_true : &static_false;
}

DynValue *
dyn_value_new_null (void)
{
  return &static_null;
}

DynValue *
dyn_value_new_map (void)
{
  return _dyn_value_alloc (DYN_VALUE_M, 0, NULL);
}

DynValue *
dyn_value_new_list (void)
{
  return _dyn_value_alloc (DYN_VALUE_L, 0, NULL);
}

DynValue *
dyn_value_new_string_set (const char * const *strv,
                          gssize              n,
                          GError            **error)
{
  g_return_val_if_fail (strv != NULL || n == 0, NULL);

  if (n < 0)
    n = g_strv_length ((char **) strv);
  for (gssize i = 0; i < n; i++)
    if (!g_utf8_validate (strv[i], -1, NULL))
      {
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                     /* Translators: %zd is the position of the element, counting from 0 */
                     _("SS set element %zd is not valid UTF-8"), (gssize) i);
        return NULL;
      }
  return _dyn_value_new_text_set (DYN_VALUE_SS, strv, NULL, n, error);
}

DynValue *
dyn_value_new_number_set (const char * const *strv,
                          gssize              n,
                          GError            **error)
{
  g_return_val_if_fail (strv != NULL || n == 0, NULL);

  if (n < 0)
    n = g_strv_length ((char **) strv);
  return _dyn_value_new_text_set (DYN_VALUE_NS, strv, NULL, n, error);
}

DynValue *
dyn_value_new_binary_set (GBytes * const *bytesv,
                          gsize           n,
                          GError        **error)
{
  g_autofree GBytes **copy = NULL;

  g_return_val_if_fail (bytesv != NULL || n == 0, NULL);

  copy = g_new (GBytes *, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    copy[i] = g_bytes_ref (bytesv[i]);
  return _dyn_value_new_bytes_set (copy, n, error);
}

/* Building */

static void
array_reserve (DynValue *self,
               gpointer *array,
               guint    *alloc,
               guint     n,
               gsize     elem_size)
{
  guint new_alloc;
  gpointer new_array;

  if (n < *alloc)
    return;
  new_alloc = MAX (4, *alloc * 2);
  if (self->flags & DYN_VALUE_FLAG_HEAP_ARRAY)
    new_array = g_realloc_n (*array, new_alloc, elem_size);
  else
    {
      /* The array lives in the value's tail: move it out. */
      new_array = g_malloc_n (new_alloc, elem_size);
      if (n > 0)
        memcpy (new_array, *array, n * elem_size);
      self->flags |= DYN_VALUE_FLAG_HEAP_ARRAY;
    }
  *array = new_array;
  *alloc = new_alloc;
}

static guint
map_find (const DynValue *self,
          const char     *name)
{
  GHashTable *index;
  /* The index is built lazily, also on shared values: publish it atomically. */
  GHashTable **slot = (GHashTable **) &self->u.map.index;

  if (self->u.map.n <= DYN_MAP_INDEX_MIN)
    return map_find_linear (self, name, strlen (name));

  index = g_atomic_pointer_get (slot);
  if (index == NULL)
    {
      index = map_build_index (self, NULL);
      if (!g_atomic_pointer_compare_and_exchange (slot, NULL, index))
        {
          g_hash_table_unref (index);
          index = g_atomic_pointer_get (slot);
        }
    }
  return GPOINTER_TO_UINT (g_hash_table_lookup (index, name)) - 1;
}

/* A parsed map keeps its names in its tail; before the first name of its
 * own joins them, every name becomes its own allocation (maps are changed
 * rarely, and only while being edited). */
static void
own_names (DynValue *map)
{
  if (map->flags & DYN_VALUE_FLAG_OWNED_NAMES)
    return;
  for (guint i = 0; i < map->u.map.n; i++)
    map->u.map.members[i].name = g_strdup (map->u.map.members[i].name);
  /* The index's keys were the old names. */
  g_clear_pointer (&map->u.map.index, g_hash_table_unref);
  map->flags |= DYN_VALUE_FLAG_OWNED_NAMES;
}

/**
 * dyn_value_map_take:
 * @map: a map value the caller holds the sole reference to
 * @name: the attribute name
 * @value: (transfer full): the value
 *
 * Sets @name to @value, replacing an existing member in place or appending.
 */
void
dyn_value_map_take (DynValue   *map,
                    const char *name,
                    DynValue   *value)
{
  guint i;
  DynMember *m;

  g_return_if_fail (map != NULL && map->type == DYN_VALUE_M);
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);
  g_return_if_fail (g_atomic_int_get (&map->ref_count) == 1);

  i = map_find (map, name);
  if (i != G_MAXUINT)
    {
      release_member (map, map->u.map.members[i].value);
      map->u.map.members[i].value = value;
      return;
    }

  own_names (map);
  array_reserve (map, (gpointer *) &map->u.map.members, &map->u.map.alloc,
                 map->u.map.n, sizeof (DynMember));
  m = &map->u.map.members[map->u.map.n];
  m->name = g_strdup (name);
  m->value = value;
  map->u.map.n++;
  if (map->u.map.index != NULL)
    g_hash_table_insert (map->u.map.index, (gpointer) m->name, GUINT_TO_POINTER (map->u.map.n));
}

void
dyn_value_map_set (DynValue   *map,
                   const char *name,
                   DynValue   *value)
{
  g_return_if_fail (value != NULL);
  dyn_value_map_take (map, name, dyn_value_ref (value));
}

gboolean
dyn_value_map_remove (DynValue   *map,
                      const char *name)
{
  guint i;
  DynMember *m;

  g_return_val_if_fail (map != NULL && map->type == DYN_VALUE_M, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (g_atomic_int_get (&map->ref_count) == 1, FALSE);

  i = map_find (map, name);
  if (i == G_MAXUINT)
    return FALSE;

  g_clear_pointer (&map->u.map.index, g_hash_table_unref);
  m = &map->u.map.members[i];
  release_member (map, m->value);
  if (map->flags & DYN_VALUE_FLAG_OWNED_NAMES)
    g_free ((char *) m->name);
  memmove (m, m + 1, (map->u.map.n - i - 1) * sizeof (DynMember));
  map->u.map.n--;
  return TRUE;
}

void
dyn_value_list_take (DynValue *list,
                     DynValue *value)
{
  g_return_if_fail (list != NULL && list->type == DYN_VALUE_L);
  g_return_if_fail (value != NULL);
  g_return_if_fail (g_atomic_int_get (&list->ref_count) == 1);

  array_reserve (list, (gpointer *) &list->u.list.elems, &list->u.list.alloc,
                 list->u.list.n, sizeof (DynValue *));
  list->u.list.elems[list->u.list.n++] = value;
}

void
dyn_value_list_append (DynValue *list,
                       DynValue *value)
{
  g_return_if_fail (value != NULL);
  dyn_value_list_take (list, dyn_value_ref (value));
}

/* Accessors */

const char *
dyn_value_get_string (const DynValue *self)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_S, NULL);
  return DYN_VALUE_TEXT (self);
}

/**
 * dyn_value_get_string_length:
 * @self: an S value
 *
 * Returns: the length of the string in bytes (strings may hold U+0000)
 */
gsize
dyn_value_get_string_length (const DynValue *self)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_S, 0);
  return self->u.str.len;
}

const char *
dyn_value_get_number (const DynValue *self)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_N, NULL);
  return DYN_VALUE_TEXT (self);
}

GBytes *
dyn_value_get_binary (const DynValue *self)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_B, NULL);
  return self->u.bytes;
}

gboolean
dyn_value_get_bool (const DynValue *self)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_BOOL, FALSE);
  return self->u.boolean;
}

guint
dyn_value_get_length (const DynValue *self)
{
  g_return_val_if_fail (self != NULL, 0);

  switch ((DynValueType) self->type)
    {
    case DYN_VALUE_M:
      return self->u.map.n;
    case DYN_VALUE_L:
      return self->u.list.n;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return self->u.set.n;
    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_B:
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
    default:
      return 0;
    }
}

DynValue *
dyn_value_map_lookup (const DynValue *self,
                      const char     *name)
{
  guint i;

  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_M, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  i = map_find (self, name);
  return i == G_MAXUINT ? NULL : self->u.map.members[i].value;
}

const char *
dyn_value_map_get_name (const DynValue *self,
                        guint           i)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_M, NULL);
  g_return_val_if_fail (i < self->u.map.n, NULL);
  return self->u.map.members[i].name;
}

DynValue *
dyn_value_map_get_value (const DynValue *self,
                         guint           i)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_M, NULL);
  g_return_val_if_fail (i < self->u.map.n, NULL);
  return self->u.map.members[i].value;
}

DynValue *
dyn_value_list_get (const DynValue *self,
                    guint           i)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_L, NULL);
  g_return_val_if_fail (i < self->u.list.n, NULL);
  return self->u.list.elems[i];
}

const char *
dyn_value_set_get_string (const DynValue *self,
                          guint           i)
{
  g_return_val_if_fail (self != NULL && (self->type == DYN_VALUE_SS || self->type == DYN_VALUE_NS), NULL);
  g_return_val_if_fail (i < self->u.set.n, NULL);
  return self->u.set.elems[i];
}

GBytes *
dyn_value_set_get_binary (const DynValue *self,
                          guint           i)
{
  g_return_val_if_fail (self != NULL && self->type == DYN_VALUE_BS, NULL);
  g_return_val_if_fail (i < self->u.set.n, NULL);
  return self->u.set.elems[i];
}

/* Comparison */

static gboolean
set_contains (const DynValue *set,
              gconstpointer   elem,
              GHashTable     *hash)
{
  if (hash != NULL)
    return g_hash_table_contains (hash, elem);
  for (guint i = 0; i < set->u.set.n; i++)
    if (set_elements_equal (set->type, set->u.set.elems[i], elem))
      return TRUE;
  return FALSE;
}

gboolean
dyn_value_equal (const DynValue *a,
                 const DynValue *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  if (a == b)
    return TRUE;
  if (a->type != b->type)
    return FALSE;

  switch ((DynValueType) a->type)
    {
    case DYN_VALUE_S:
      return a->u.str.len == b->u.str.len &&
             memcmp (DYN_VALUE_TEXT (a), DYN_VALUE_TEXT (b), a->u.str.len) == 0;
    case DYN_VALUE_N:
      return dyn_number_compare (DYN_VALUE_TEXT (a), DYN_VALUE_TEXT (b)) == 0;
    case DYN_VALUE_B:
      return g_bytes_equal (a->u.bytes, b->u.bytes);
    case DYN_VALUE_BOOL:
      return a->u.boolean == b->u.boolean;
    case DYN_VALUE_NULL:
      return TRUE;
    case DYN_VALUE_M:
      if (a->u.map.n != b->u.map.n)
        return FALSE;
      for (guint i = 0; i < a->u.map.n; i++)
        {
          const DynMember *m = &a->u.map.members[i];
          const DynValue *other;

          /* Fast path: same member order. */
          if (strcmp (m->name, b->u.map.members[i].name) == 0)
            other = b->u.map.members[i].value;
          else
            other = dyn_value_map_lookup (b, m->name);
          if (other == NULL || !dyn_value_equal (m->value, other))
            return FALSE;
        }
      return TRUE;
    case DYN_VALUE_L:
      if (a->u.list.n != b->u.list.n)
        return FALSE;
      for (guint i = 0; i < a->u.list.n; i++)
        if (!dyn_value_equal (a->u.list.elems[i], b->u.list.elems[i]))
          return FALSE;
      return TRUE;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      {
        g_autoptr(GHashTable) hash = NULL;

        if (a->u.set.n != b->u.set.n)
          return FALSE;
        if (b->u.set.n > DYN_MAP_INDEX_MIN)
          {
            hash = set_hash_table_new (b->type);
            for (guint i = 0; i < b->u.set.n; i++)
              g_hash_table_add (hash, b->u.set.elems[i]);
          }
        for (guint i = 0; i < a->u.set.n; i++)
          if (!set_contains (b, a->u.set.elems[i], hash))
            return FALSE;
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
}

static int
sign_of (int v)
{
  return v < 0 ? -1 : (v > 0 ? 1 : 0);
}

/**
 * dyn_value_compare:
 * @a: a value
 * @b: a value
 *
 * Orders values as DynamoDB orders sort keys: N by numeric value, S by UTF-8
 * bytes, B by unsigned bytes. Values of different types order by type, and the
 * other types get a stable order of their own (for display only).
 *
 * Returns: negative, zero or positive
 */
int
dyn_value_compare (const DynValue *a,
                   const DynValue *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, 0);

  if (a->type != b->type)
    return a->type < b->type ? -1 : 1;

  switch ((DynValueType) a->type)
    {
    case DYN_VALUE_S:
      {
        int r = memcmp (DYN_VALUE_TEXT (a), DYN_VALUE_TEXT (b), MIN (a->u.str.len, b->u.str.len));
        if (r != 0)
          return sign_of (r);
        return a->u.str.len < b->u.str.len ? -1 : (a->u.str.len > b->u.str.len ? 1 : 0);
      }
    case DYN_VALUE_N:
      return sign_of (dyn_number_compare (DYN_VALUE_TEXT (a), DYN_VALUE_TEXT (b)));
    case DYN_VALUE_B:
      return sign_of (g_bytes_compare (a->u.bytes, b->u.bytes));
    case DYN_VALUE_BOOL:
      return (int) a->u.boolean - (int) b->u.boolean;
    case DYN_VALUE_NULL:
      return 0;
    case DYN_VALUE_M:
      for (guint i = 0; i < MIN (a->u.map.n, b->u.map.n); i++)
        {
          int r = strcmp (a->u.map.members[i].name, b->u.map.members[i].name);
          if (r == 0)
            r = dyn_value_compare (a->u.map.members[i].value, b->u.map.members[i].value);
          if (r != 0)
            return sign_of (r);
        }
      return a->u.map.n < b->u.map.n ? -1 : (a->u.map.n > b->u.map.n ? 1 : 0);
    case DYN_VALUE_L:
      for (guint i = 0; i < MIN (a->u.list.n, b->u.list.n); i++)
        {
          int r = dyn_value_compare (a->u.list.elems[i], b->u.list.elems[i]);
          if (r != 0)
            return r;
        }
      return a->u.list.n < b->u.list.n ? -1 : (a->u.list.n > b->u.list.n ? 1 : 0);
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      for (guint i = 0; i < MIN (a->u.set.n, b->u.set.n); i++)
        {
          int r;
          if (a->type == DYN_VALUE_SS)
            r = strcmp (a->u.set.elems[i], b->u.set.elems[i]);
          else if (a->type == DYN_VALUE_NS)
            r = dyn_number_compare (a->u.set.elems[i], b->u.set.elems[i]);
          else
            r = g_bytes_compare (a->u.set.elems[i], b->u.set.elems[i]);
          if (r != 0)
            return sign_of (r);
        }
      return a->u.set.n < b->u.set.n ? -1 : (a->u.set.n > b->u.set.n ? 1 : 0);
    default:
      g_assert_not_reached ();
    }
}

/* Plain JSON helpers shared with the decoders (dyn-json-plain.c, dyn-json-write.c) */

gboolean
_dyn_plain_is_tag (const char *name,
                   gsize       len)
{
  if (len < 4 || name[0] != '$')
    return FALSE;
  return (len == 4 && memcmp (name, "$set", 4) == 0) ||
         (len == 4 && memcmp (name, "$map", 4) == 0) ||
         (len == 7 && memcmp (name, "$binary", 7) == 0) ||
         (len == 7 && memcmp (name, "$number", 7) == 0);
}

/* Builds SS / NS / BS from S / N / B values (all of one type); consumes nothing. */
DynValue *
_dyn_value_set_from_scalars (DynValue **elems,
                             guint      n,
                             GError   **error)
{
  DynValueType elem_type;

  if (n == 0)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("a set must not be empty"));
      return NULL;
    }
  elem_type = elems[0]->type;
  if (elem_type == DYN_VALUE_B)
    {
      g_autofree GBytes **bytesv = g_new (GBytes *, n);

      for (guint i = 0; i < n; i++)
        bytesv[i] = g_bytes_ref (elems[i]->u.bytes);
      return _dyn_value_new_bytes_set (bytesv, n, error);
    }
  else
    {
      g_autofree const char **strv = g_new (const char *, n);
      g_autofree gsize *lens = g_new (gsize, n);

      for (guint i = 0; i < n; i++)
        {
          strv[i] = DYN_VALUE_TEXT (elems[i]);
          lens[i] = elems[i]->u.str.len;
        }
      return _dyn_value_new_text_set (elem_type == DYN_VALUE_S ? DYN_VALUE_SS : DYN_VALUE_NS,
                                      strv, lens, n, error);
    }
}

/* Size */

/**
 * dyn_value_size:
 * @self: a value
 *
 * The size of the value alone (without an attribute name) as DynamoDB counts it.
 *
 * Returns: the size in bytes
 */
gsize
dyn_value_size (const DynValue *self)
{
  gsize size = 0;

  g_return_val_if_fail (self != NULL, 0);

  switch ((DynValueType) self->type)
    {
    case DYN_VALUE_S:
      return self->u.str.len;
    case DYN_VALUE_N:
      {
        DynNumberParts parts;
        _dyn_number_parse (DYN_VALUE_TEXT (self), self->u.str.len, &parts);
        return _dyn_number_parts_size (&parts);
      }
    case DYN_VALUE_B:
      return g_bytes_get_size (self->u.bytes);
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
      return 1;
    case DYN_VALUE_M:
      size = 3;
      for (guint i = 0; i < self->u.map.n; i++)
        size += strlen (self->u.map.members[i].name) + dyn_value_size (self->u.map.members[i].value) + 1;
      return size;
    case DYN_VALUE_L:
      size = 3;
      for (guint i = 0; i < self->u.list.n; i++)
        size += dyn_value_size (self->u.list.elems[i]) + 1;
      return size;
    case DYN_VALUE_SS:
      for (guint i = 0; i < self->u.set.n; i++)
        size += strlen (self->u.set.elems[i]);
      return size;
    case DYN_VALUE_NS:
      for (guint i = 0; i < self->u.set.n; i++)
        {
          DynNumberParts parts;
          const char *t = self->u.set.elems[i];
          _dyn_number_parse (t, strlen (t), &parts);
          size += _dyn_number_parts_size (&parts);
        }
      return size;
    case DYN_VALUE_BS:
      for (guint i = 0; i < self->u.set.n; i++)
        size += g_bytes_get_size (self->u.set.elems[i]);
      return size;
    default:
      g_assert_not_reached ();
    }
}

/**
 * dyn_item_size:
 * @item: an item (a map)
 *
 * The item's size as DynamoDB counts it against the 400 KB limit and for
 * capacity: the sum of the attribute names' UTF-8 bytes and the value sizes.
 *
 * Returns: the size in bytes
 */
gsize
dyn_item_size (const DynValue *item)
{
  gsize size = 0;

  g_return_val_if_fail (item != NULL && item->type == DYN_VALUE_M, 0);

  for (guint i = 0; i < item->u.map.n; i++)
    size += strlen (item->u.map.members[i].name) + dyn_value_size (item->u.map.members[i].value);
  return size;
}
