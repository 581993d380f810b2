/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-sql-decimal"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-sql-decimal.h"
#include "dyn-value.h"

/* Sums of DynamoDB numbers span at most some 280 powers of ten; this bounds
 * what text typed into a statement ("1E+999999999" + 1) can make us allocate. */
#define MAX_WIDTH 100000
/* Plain notation up to this many written digits, exponent notation beyond. */
#define MAX_PLAIN_DIGITS 40
/* AVG rounds to DynamoDB's precision. */
#define AVG_DIGITS 38

/* Parsed number text, pointing into the text (no copy): the significant
 * digits run from @first to @last, '.' skipped. */
typedef struct {
  int         sign;       /* -1, 0 (zero) or 1 */
  gint64      msd;        /* power of ten of the most significant digit */
  guint       n;          /* significant digits */
  const char *first;
  const char *last;
} NumView;

/* An owned exact decimal: sign × digits × 10^exp, digits little-endian,
 * normalised (no zero at either end) unless zero. */
typedef struct {
  int     sign;
  gint64  exp;            /* power of ten of d[0] */
  guint   n;
  guint8 *d;
} Dec;

static gboolean
view_parse (const char *s,
            gsize       len,
            NumView    *v)
{
  gsize i = 0;
  gint64 int_digits = 0, k = 0, k_first = -1, exp = 0;
  gboolean any_digit = FALSE;

  v->sign = 1;
  v->msd = 0;
  v->n = 0;
  v->first = v->last = NULL;

  if (i < len && (s[i] == '-' || s[i] == '+'))
    {
      if (s[i] == '-')
        v->sign = -1;
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
            continue;
          if (k_first < 0)
            {
              k_first = k;
              v->first = s + i;
            }
          v->last = s + i;
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
    return FALSE;
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
          if (exp < G_GINT64_CONSTANT (1000000000000))
            exp = exp * 10 + (s[i] - '0');
        }
      if (!exp_digit)
        return FALSE;
      exp *= esign;
    }
  if (i != len)
    return FALSE;

  if (k_first < 0)
    {
      v->sign = 0;
      return TRUE;
    }
  for (const char *p = v->first; p <= v->last; p++)
    if (*p != '.')
      v->n++;
  v->msd = int_digits - 1 - k_first + exp;
  return TRUE;
}

static int
view_compare (const NumView *a,
              const NumView *b)
{
  const char *pa, *pb;
  int mag = 0;

  if (a->sign != b->sign)
    return a->sign < b->sign ? -1 : 1;
  if (a->sign == 0)
    return 0;
  if (a->msd != b->msd)
    mag = a->msd < b->msd ? -1 : 1;
  else
    {
      pa = a->first;
      pb = b->first;
      while (mag == 0 && (pa != NULL || pb != NULL))
        {
          int da = 0, db = 0;

          if (pa != NULL && *pa == '.')
            pa++;
          if (pb != NULL && *pb == '.')
            pb++;
          if (pa != NULL)
            {
              da = *pa - '0';
              pa = pa == a->last ? NULL : pa + 1;
            }
          if (pb != NULL)
            {
              db = *pb - '0';
              pb = pb == b->last ? NULL : pb + 1;
            }
          mag = da < db ? -1 : (da > db ? 1 : 0);
        }
    }
  return a->sign > 0 ? mag : -mag;
}

static void
dec_clear (Dec *d)
{
  g_clear_pointer (&d->d, g_free);
  d->sign = 0;
  d->n = 0;
  d->exp = 0;
}

static void
dec_from_view (Dec           *d,
               const NumView *v)
{
  guint j = 0;

  dec_clear (d);
  if (v->sign == 0)
    return;
  d->sign = v->sign;
  d->n = v->n;
  d->exp = v->msd - v->n + 1;
  d->d = g_malloc (v->n);
  for (const char *p = v->last; p >= v->first; p--)
    if (*p != '.')
      d->d[j++] = *p - '0';
}

static void
dec_from_int64 (Dec    *d,
                gint64  i)
{
  guint64 m;
  guint8 buf[20];
  guint n = 0;

  dec_clear (d);
  if (i == 0)
    return;
  d->sign = i < 0 ? -1 : 1;
  m = i < 0 ? (guint64) 0 - (guint64) i : (guint64) i;
  while (m % 10 == 0)
    {
      m /= 10;
      d->exp++;
    }
  for (; m > 0; m /= 10)
    buf[n++] = m % 10;
  d->n = n;
  d->d = g_memdup2 (buf, n);
}

/* Drops zeros at both ends; the digits array is kept. */
static void
dec_normalise (Dec *d)
{
  guint lo = 0;

  while (d->n > 0 && d->d[d->n - 1] == 0)
    d->n--;
  if (d->n == 0)
    {
      dec_clear (d);
      return;
    }
  while (d->d[lo] == 0)
    lo++;
  if (lo > 0)
    {
      memmove (d->d, d->d + lo, d->n - lo);
      d->n -= lo;
      d->exp += lo;
    }
}

static int
dec_digit (const Dec *d,
           gint64     e)
{
  gint64 i = e - d->exp;

  if (d->sign == 0 || i < 0 || i >= (gint64) d->n)
    return 0;
  return d->d[i];
}

static gint64
dec_msd (const Dec *d)
{
  return d->exp + d->n - 1;
}

static int
dec_compare_magnitude (const Dec *a,
                       const Dec *b)
{
  gint64 e, lo;

  if (a->sign == 0 || b->sign == 0)
    return (a->sign != 0) - (b->sign != 0);
  if (dec_msd (a) != dec_msd (b))
    return dec_msd (a) < dec_msd (b) ? -1 : 1;
  lo = MIN (a->exp, b->exp);
  for (e = dec_msd (a); e >= lo; e--)
    {
      int da = dec_digit (a, e), db = dec_digit (b, e);

      if (da != db)
        return da < db ? -1 : 1;
    }
  return 0;
}

static void
set_width_error (GError **error)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
               /* Translators: %d is a number of digits */
               _("the result needs more than %d digits"), MAX_WIDTH);
}

/* @acc += @bsign × |@b|. */
static gboolean
dec_add_signed (Dec        *acc,
                const Dec  *b,
                int         bsign,
                GError    **error)
{
  const Dec *big, *small;
  int sbig, ssmall, carry = 0;
  gint64 lo, hi, e;
  guint8 *sum;
  Dec out = { 0 };

  if (b->sign == 0 || bsign == 0)
    return TRUE;
  if (acc->sign == 0)
    {
      acc->sign = bsign;
      acc->exp = b->exp;
      acc->n = b->n;
      g_free (acc->d);
      acc->d = g_memdup2 (b->d, b->n);
      return TRUE;
    }
  lo = MIN (acc->exp, b->exp);
  hi = MAX (dec_msd (acc), dec_msd (b)) + 1;
  if (hi - lo + 1 > MAX_WIDTH)
    {
      set_width_error (error);
      return FALSE;
    }
  if (dec_compare_magnitude (acc, b) >= 0)
    big = acc, small = b, sbig = acc->sign, ssmall = bsign;
  else
    big = b, small = acc, sbig = bsign, ssmall = acc->sign;

  sum = g_malloc (hi - lo + 1);
  for (e = lo; e <= hi; e++)
    {
      int d = dec_digit (big, e) + (ssmall == sbig ? 1 : -1) * dec_digit (small, e) + carry;

      carry = 0;
      if (d < 0)
        d += 10, carry = -1;
      else if (d > 9)
        d -= 10, carry = 1;
      sum[e - lo] = d;
    }
  out.sign = sbig;
  out.exp = lo;
  out.n = hi - lo + 1;
  out.d = sum;
  dec_normalise (&out);
  g_free (acc->d);
  *acc = out;
  return TRUE;
}

static char *
dec_to_string (const Dec *d)
{
  GString *s;
  gint64 msd, plain;

  if (d->sign == 0)
    return g_strdup ("0");
  msd = dec_msd (d);
  if (d->exp >= 0)
    plain = msd + 1;
  else if (msd >= 0)
    plain = d->n;
  else
    plain = 1 - d->exp;

  s = g_string_sized_new (d->n + 16);
  if (d->sign < 0)
    g_string_append_c (s, '-');
  if (plain <= MAX_PLAIN_DIGITS)
    {
      if (msd < 0)
        {
          g_string_append (s, "0.");
          for (gint64 e = -1; e > msd; e--)
            g_string_append_c (s, '0');
        }
      for (gint64 e = msd; e >= MIN (d->exp, 0); e--)
        {
          if (e == -1 && msd >= 0)
            g_string_append_c (s, '.');
          g_string_append_c (s, '0' + dec_digit (d, e));
        }
    }
  else
    {
      g_string_append_c (s, '0' + d->d[d->n - 1]);
      if (d->n > 1)
        g_string_append_c (s, '.');
      for (gint64 i = (gint64) d->n - 2; i >= 0; i--)
        g_string_append_c (s, '0' + d->d[i]);
      g_string_append_printf (s, "E%c%" G_GINT64_FORMAT, msd < 0 ? '-' : '+', ABS (msd));
    }
  return g_string_free (s, FALSE);
}

static gboolean
dec_to_int64 (const Dec *d,
              gint64    *out)
{
  guint64 m = 0, limit;

  if (d->sign == 0)
    {
      *out = 0;
      return TRUE;
    }
  if (d->exp < 0 || dec_msd (d) > 18)
    return FALSE;
  limit = d->sign > 0 ? (guint64) G_MAXINT64 : (guint64) G_MAXINT64 + 1;
  for (gint64 e = dec_msd (d); e >= 0; e--)
    {
      int digit = dec_digit (d, e);

      if (m > (limit - digit) / 10)
        return FALSE;
      m = m * 10 + digit;
    }
  *out = d->sign > 0 ? (gint64) m : (gint64) (0 - m);
  return TRUE;
}

/* The error for text that is not a number: DynamoDB's number rules say why. */
static void
set_not_a_number_error (GError     **error,
                        const char  *text)
{
  if (dyn_number_validate (text, error))
    {
      g_autofree char *quoted = g_strdup_printf ("\"%s\"", text);

      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   /* Translators: %s is the number as typed, in quotes */
                   _("invalid number %s: not a decimal number"), quoted);
    }
}

static gboolean
dec_parse (Dec         *d,
           const char  *text,
           GError     **error)
{
  NumView v;

  if (!view_parse (text, strlen (text), &v))
    {
      set_not_a_number_error (error, text);
      return FALSE;
    }
  if (v.sign != 0 && (v.msd > MAX_WIDTH || v.msd < -MAX_WIDTH))
    {
      set_width_error (error);
      return FALSE;
    }
  dec_from_view (d, &v);
  return TRUE;
}

/* Digits of |@n| minus one. */
static int
int64_msd (guint64 n)
{
  int m = 0;

  for (; n >= 10; n /= 10)
    m++;
  return m;
}

/* @a / @n rounded half-even to @scale fraction digits (negative: to tens,
 * hundreds …). *@floor_digits gets the digit count of the truncated quotient. */
static void
dec_divide (const Dec *a,
            gint64     n,
            gint64     scale,
            Dec       *q,
            guint     *floor_digits)
{
  guint64 div = n < 0 ? (guint64) 0 - (guint64) n : (guint64) n;
  /* F = floor(|a| × 10^(scale + 1) / div), one guard digit. */
  gint64 k = a->exp + scale + 1;
  gint64 lo = a->sign == 0 ? 0 : MIN (a->exp, a->exp - k);
  gboolean sticky = FALSE;
  unsigned __int128 rem = 0;
  GByteArray *f = g_byte_array_new ();   /* big-endian digits of F */
  guint8 last;
  gboolean up;
  guint fn, start = 0;

  dec_clear (q);
  *floor_digits = 0;
  if (a->sign == 0)
    {
      g_byte_array_unref (f);
      return;
    }
  /* Digits of |a| × 10^k, from the most significant one down to 10^0 of the
   * shifted number; those below are dropped into the sticky bit. */
  for (gint64 e = dec_msd (a); e >= lo; e--)
    {
      int digit = dec_digit (a, e);

      /* The digit's power in |a| × 10^k, an integer: below 10^0 it is cut. */
      if (e - a->exp + k < 0)
        {
          if (digit != 0)
            sticky = TRUE;
          continue;
        }
      rem = rem * 10 + digit;
      {
        guint8 qd = (guint8) (rem / div);

        rem %= div;
        g_byte_array_append (f, &qd, 1);
      }
    }
  if (rem != 0)
    sticky = TRUE;

  while (start < f->len && f->data[start] == 0)
    start++;
  fn = f->len - start;
  *floor_digits = fn > 1 ? fn - 1 : 0;
  if (fn == 0)
    {
      g_byte_array_unref (f);
      return;
    }
  /* Round away the guard digit. */
  last = f->data[f->len - 1];
  if (last > 5)
    up = TRUE;
  else if (last < 5)
    up = FALSE;
  else
    up = sticky || (f->len >= 2 && (f->data[f->len - 2] & 1));
  q->n = f->len - 1 - start + 1;
  q->d = g_malloc0 (q->n);
  for (guint i = 0; i + 1 < q->n; i++)
    q->d[i] = f->data[f->len - 2 - i];
  q->d[q->n - 1] = 0;
  if (up)
    for (guint i = 0; i < q->n; i++)
      {
        if (q->d[i] < 9)
          {
            q->d[i]++;
            break;
          }
        q->d[i] = 0;
      }
  q->sign = (a->sign > 0) == (n > 0) ? 1 : -1;
  q->exp = -scale;
  dec_normalise (q);
  g_byte_array_unref (f);
}

/* Public API */

/**
 * dyn_decimal_add:
 * @a: decimal text
 * @b: decimal text
 * @error: return location for a #GError
 *
 * Adds two numbers exactly, whatever their number of digits.
 *
 * Returns: (transfer full): the normalised sum, or %NULL with @error
 */
char *
dyn_decimal_add (const char  *a,
                 const char  *b,
                 GError     **error)
{
  Dec da = { 0 }, db = { 0 };
  char *out = NULL;

  g_return_val_if_fail (a != NULL && b != NULL, NULL);

  if (dec_parse (&da, a, error) && dec_parse (&db, b, error) &&
      dec_add_signed (&da, &db, db.sign, error))
    out = dec_to_string (&da);
  dec_clear (&da);
  dec_clear (&db);
  return out;
}

static gboolean
divide_checked (const Dec  *a,
                gint64      n,
                gint64      scale,
                Dec        *q,
                guint      *floor_digits,
                GError    **error)
{
  if (n == 0)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, _("division by zero"));
      return FALSE;
    }
  if (a->sign != 0 && (a->exp + scale > MAX_WIDTH || dec_msd (a) + scale > MAX_WIDTH ||
                       -scale > MAX_WIDTH))
    {
      set_width_error (error);
      return FALSE;
    }
  dec_divide (a, n, scale, q, floor_digits);
  return TRUE;
}

/**
 * dyn_decimal_divide_int:
 * @a: decimal text
 * @n: the divisor
 * @scale: fraction digits of the result
 * @error: return location for a #GError
 *
 * Returns: (transfer full): @a / @n rounded half-even to @scale fraction
 *   digits, normalised, or %NULL with @error (text that is not a number,
 *   @n zero)
 */
char *
dyn_decimal_divide_int (const char  *a,
                        gint64       n,
                        guint        scale,
                        GError     **error)
{
  Dec da = { 0 }, q = { 0 };
  guint floor_digits;
  char *out = NULL;

  g_return_val_if_fail (a != NULL, NULL);

  if (dec_parse (&da, a, error) && divide_checked (&da, n, scale, &q, &floor_digits, error))
    out = dec_to_string (&q);
  dec_clear (&da);
  dec_clear (&q);
  return out;
}

/**
 * dyn_decimal_to_int64:
 * @text: decimal text
 * @out: (out): the integer
 *
 * Returns: %TRUE when @text is an integer that fits 64 bits (in any
 *   notation: "1.5E+2" is 150)
 */
gboolean
dyn_decimal_to_int64 (const char *text,
                      gint64     *out)
{
  NumView v;
  Dec d = { 0 };
  gboolean ok;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);

  if (!view_parse (text, strlen (text), &v) || (v.sign != 0 && (v.msd > 18 || v.msd < -MAX_WIDTH)))
    return FALSE;
  dec_from_view (&d, &v);
  ok = dec_to_int64 (&d, out);
  dec_clear (&d);
  return ok;
}

/* SQLite functions */

typedef enum {
  FUNC_SUM,
  FUNC_TOTAL,
  FUNC_AVG,
  FUNC_MIN,
  FUNC_MAX,
} FuncKind;

typedef struct {
  const char *name;
  FuncKind    kind;
} FuncInfo;

static const FuncInfo funcs[] = {
  { "sum", FUNC_SUM },
  { "total", FUNC_TOTAL },
  { "avg", FUNC_AVG },
  { "min", FUNC_MIN },
  { "max", FUNC_MAX },
};

/* The shortest text that reads back as @x (REAL arguments: what a user
 * typed as 0.1 is 0.1, not 0.1000000000000000055511151231257827). */
static void
double_to_text (double  x,
                char   *buf,
                gsize   size)
{
  for (int p = 1; p <= 17; p++)
    {
      char fmt[8];

      g_snprintf (fmt, sizeof fmt, "%%.%dg", p);
      g_ascii_formatd (buf, size, fmt, x);
      if (g_ascii_strtod (buf, NULL) == x)
        return;
    }
}

static void
result_error (sqlite3_context *ctx,
              const char      *message)
{
  const FuncInfo *info = sqlite3_user_data (ctx);
  g_autofree char *text = g_strdup_printf ("%s(): %s", info->name, message);

  sqlite3_result_error (ctx, text, -1);
}

static void
result_dec (sqlite3_context *ctx,
            const Dec       *d)
{
  gint64 i;
  char *text;

  if (dec_to_int64 (d, &i))
    {
      sqlite3_result_int64 (ctx, i);
      return;
    }
  text = dec_to_string (d);
  sqlite3_result_text64 (ctx, text, strlen (text), g_free, SQLITE_UTF8);
}

/* A value as an exact number; FALSE with an error set on @ctx when it is
 * not one. */
static gboolean
value_to_dec (sqlite3_context *ctx,
              sqlite3_value   *value,
              Dec             *d)
{
  g_autoptr(GError) error = NULL;
  char buf[40];
  NumView v;

  switch (sqlite3_value_type (value))
    {
    case SQLITE_INTEGER:
      dec_from_int64 (d, sqlite3_value_int64 (value));
      return TRUE;
    case SQLITE_FLOAT:
      {
        double x = sqlite3_value_double (value);

        if (!isfinite (x))
          {
            g_autofree char *message =
              /* Translators: %s is a number such as Inf */
              g_strdup_printf (_("%s is not a finite number"), x > 0 ? "Inf" : "-Inf");

            result_error (ctx, message);
            return FALSE;
          }
        double_to_text (x, buf, sizeof buf);
        view_parse (buf, strlen (buf), &v);
        dec_from_view (d, &v);
        return TRUE;
      }
    case SQLITE_TEXT:
      if (!dec_parse (d, (const char *) sqlite3_value_text (value), &error))
        {
          result_error (ctx, error->message);
          return FALSE;
        }
      return TRUE;
    case SQLITE_BLOB:
    default:
      result_error (ctx, _("a BLOB is not a number"));
      return FALSE;
    }
}

typedef struct {
  gint64   count;         /* non-NULL values in the frame */
  gboolean big;           /* the sum is in d, not in i */
  gint64   i;
  Dec      d;
} SumState;

static void
sum_update (sqlite3_context *ctx,
            sqlite3_value   *value,
            int              direction)
{
  SumState *st;
  g_autoptr(GError) error = NULL;
  Dec x = { 0 };

  if (sqlite3_value_type (value) == SQLITE_NULL)
    return;
  st = sqlite3_aggregate_context (ctx, sizeof (SumState));
  if (st == NULL)
    {
      sqlite3_result_error_nomem (ctx);
      return;
    }
  if (!st->big && sqlite3_value_type (value) == SQLITE_INTEGER)
    {
      gint64 v = sqlite3_value_int64 (value), r;

      if (!(direction > 0 ? __builtin_add_overflow (st->i, v, &r)
                          : __builtin_sub_overflow (st->i, v, &r)))
        {
          st->i = r;
          st->count += direction;
          return;
        }
    }
  if (!value_to_dec (ctx, value, &x))
    return;
  if (!st->big)
    {
      dec_from_int64 (&st->d, st->i);
      st->big = TRUE;
    }
  if (!dec_add_signed (&st->d, &x, direction * x.sign, &error))
    result_error (ctx, error->message);
  else
    st->count += direction;
  dec_clear (&x);
}

static void
sum_step_cb (sqlite3_context  *ctx,
             int               argc,
             sqlite3_value   **argv)
{
  sum_update (ctx, argv[0], 1);
}

static void
sum_inverse_cb (sqlite3_context  *ctx,
                int               argc,
                sqlite3_value   **argv)
{
  sum_update (ctx, argv[0], -1);
}

/* The average to AVG_DIGITS significant digits, rounded half-even. */
static gboolean
average (const Dec  *sum,
         gint64      count,
         Dec        *q,
         GError    **error)
{
  gint64 d, scale;
  guint floor_digits;

  if (sum->sign == 0)
    {
      dec_clear (q);
      return TRUE;
    }
  d = dec_msd (sum) - int64_msd ((guint64) count);
  scale = AVG_DIGITS - d;
  if (!divide_checked (sum, count, scale, q, &floor_digits, error))
    return FALSE;
  if (floor_digits > AVG_DIGITS)
    dec_divide (sum, count, scale - 1, q, &floor_digits);
  return TRUE;
}

static void
sum_result (sqlite3_context *ctx,
            gboolean         final)
{
  const FuncInfo *info = sqlite3_user_data (ctx);
  SumState *st = sqlite3_aggregate_context (ctx, 0);
  Dec tmp = { 0 };
  const Dec *sum;

  if (st == NULL || st->count == 0)
    {
      if (info->kind == FUNC_TOTAL)
        sqlite3_result_int64 (ctx, 0);
      else
        sqlite3_result_null (ctx);
    }
  else if (info->kind != FUNC_AVG && !st->big)
    sqlite3_result_int64 (ctx, st->i);
  else
    {
      if (!st->big)
        dec_from_int64 (&tmp, st->i);
      sum = st->big ? &st->d : &tmp;
      if (info->kind == FUNC_AVG)
        {
          g_autoptr(GError) error = NULL;
          Dec q = { 0 };

          if (average (sum, st->count, &q, &error))
            result_dec (ctx, &q);
          else
            result_error (ctx, error->message);
          dec_clear (&q);
        }
      else
        result_dec (ctx, sum);
      dec_clear (&tmp);
    }
  if (final && st != NULL)
    dec_clear (&st->d);
}

static void
sum_value_cb (sqlite3_context *ctx)
{
  sum_result (ctx, FALSE);
}

static void
sum_final_cb (sqlite3_context *ctx)
{
  sum_result (ctx, TRUE);
}

/* Ordering of any two values: NULL < numbers (INTEGER, REAL and numeric
 * TEXT, by exact value) < other text (by bytes) < BLOB (by bytes). */
typedef enum {
  CLASS_NULL,
  CLASS_NUMBER,
  CLASS_TEXT,
  CLASS_BLOB,
} ValueClass;

typedef struct {
  ValueClass  cls;
  int         inf;        /* -1, 0, 1: a REAL infinity */
  NumView     num;
  const void *bytes;
  int         len;
  char        buf[40];
} Key;

static void
key_init (Key           *k,
          sqlite3_value *value)
{
  k->inf = 0;
  switch (sqlite3_value_type (value))
    {
    case SQLITE_NULL:
      k->cls = CLASS_NULL;
      break;
    case SQLITE_INTEGER:
      k->cls = CLASS_NUMBER;
      g_snprintf (k->buf, sizeof k->buf, "%" G_GINT64_FORMAT, (gint64) sqlite3_value_int64 (value));
      view_parse (k->buf, strlen (k->buf), &k->num);
      break;
    case SQLITE_FLOAT:
      {
        double x = sqlite3_value_double (value);

        k->cls = CLASS_NUMBER;
        if (!isfinite (x))
          k->inf = x > 0 ? 1 : -1;
        else
          {
            double_to_text (x, k->buf, sizeof k->buf);
            view_parse (k->buf, strlen (k->buf), &k->num);
          }
      }
      break;
    case SQLITE_TEXT:
      k->bytes = sqlite3_value_text (value);
      k->len = sqlite3_value_bytes (value);
      k->cls = view_parse (k->bytes, k->len, &k->num) ? CLASS_NUMBER : CLASS_TEXT;
      break;
    case SQLITE_BLOB:
    default:
      k->cls = CLASS_BLOB;
      k->bytes = sqlite3_value_blob (value);
      k->len = sqlite3_value_bytes (value);
      break;
    }
}

static int
bytes_compare (const void *a,
               int         na,
               const void *b,
               int         nb)
{
  int r = MIN (na, nb) > 0 ? memcmp (a, b, MIN (na, nb)) : 0;

  if (r != 0)
    return r < 0 ? -1 : 1;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

static int
key_compare (const Key *a,
             const Key *b)
{
  if (a->cls != b->cls)
    return a->cls < b->cls ? -1 : 1;
  switch (a->cls)
    {
    case CLASS_NULL:
      return 0;
    case CLASS_NUMBER:
      if (a->inf != 0 || b->inf != 0)
        return a->inf < b->inf ? -1 : (a->inf > b->inf ? 1 : 0);
      return view_compare (&a->num, &b->num);
    case CLASS_TEXT:
    case CLASS_BLOB:
    default:
      return bytes_compare (a->bytes, a->len, b->bytes, b->len);
    }
}

static int
value_compare (sqlite3_value *a,
               sqlite3_value *b)
{
  Key ka, kb;

  key_init (&ka, a);
  key_init (&kb, b);
  return key_compare (&ka, &kb);
}

/* MIN and MAX keep the candidates of a sliding window frame: rows leave a
 * frame in the order they entered it, so a monotonic queue (front: the
 * result) with each row's sequence number answers every frame. */
typedef struct {
  gint64         seq;
  sqlite3_value *value;
} Candidate;

typedef struct {
  GQueue *queue;
  gint64  seq_in;
  gint64  seq_out;
} MinMaxState;

static void
candidate_free (gpointer data)
{
  Candidate *c = data;

  sqlite3_value_free (c->value);
  g_free (c);
}

static void
minmax_step_cb (sqlite3_context  *ctx,
                int               argc,
                sqlite3_value   **argv)
{
  const FuncInfo *info = sqlite3_user_data (ctx);
  MinMaxState *st = sqlite3_aggregate_context (ctx, sizeof (MinMaxState));
  int worse = info->kind == FUNC_MIN ? 1 : -1;
  Candidate *c;

  if (st == NULL)
    {
      sqlite3_result_error_nomem (ctx);
      return;
    }
  if (st->queue == NULL)
    st->queue = g_queue_new ();
  st->seq_in++;
  if (sqlite3_value_type (argv[0]) == SQLITE_NULL)
    return;
  /* Equal values stay: the first of them is the result, as in SQLite. */
  while (!g_queue_is_empty (st->queue) &&
         value_compare (((Candidate *) g_queue_peek_tail (st->queue))->value, argv[0]) * worse > 0)
    candidate_free (g_queue_pop_tail (st->queue));
  c = g_new (Candidate, 1);
  c->seq = st->seq_in;
  c->value = sqlite3_value_dup (argv[0]);
  if (c->value == NULL)
    {
      g_free (c);
      sqlite3_result_error_nomem (ctx);
      return;
    }
  g_queue_push_tail (st->queue, c);
}

static void
minmax_inverse_cb (sqlite3_context  *ctx,
                   int               argc,
                   sqlite3_value   **argv)
{
  MinMaxState *st = sqlite3_aggregate_context (ctx, sizeof (MinMaxState));
  Candidate *front;

  if (st == NULL || st->queue == NULL)
    return;
  st->seq_out++;
  front = g_queue_peek_head (st->queue);
  if (front != NULL && front->seq == st->seq_out)
    candidate_free (g_queue_pop_head (st->queue));
}

static void
minmax_value_cb (sqlite3_context *ctx)
{
  MinMaxState *st = sqlite3_aggregate_context (ctx, 0);
  Candidate *front = st != NULL && st->queue != NULL ? g_queue_peek_head (st->queue) : NULL;

  if (front != NULL)
    sqlite3_result_value (ctx, front->value);
  else
    sqlite3_result_null (ctx);
}

static void
minmax_final_cb (sqlite3_context *ctx)
{
  MinMaxState *st = sqlite3_aggregate_context (ctx, 0);

  minmax_value_cb (ctx);
  if (st != NULL && st->queue != NULL)
    g_queue_free_full (g_steal_pointer (&st->queue), candidate_free);
}

/* min(a, b, …) and max(a, b, …): NULL when any argument is NULL, as in SQLite. */
static void
minmax_scalar_cb (sqlite3_context  *ctx,
                  int               argc,
                  sqlite3_value   **argv)
{
  const FuncInfo *info = sqlite3_user_data (ctx);
  int worse = info->kind == FUNC_MIN ? 1 : -1;
  int best = 0;

  if (argc < 2)
    {
      g_autofree char *message =
        /* Translators: %s is an SQL function name */
        g_strdup_printf (_("wrong number of arguments to function %s()"), info->name);

      sqlite3_result_error (ctx, message, -1);
      return;
    }
  for (int i = 0; i < argc; i++)
    {
      if (sqlite3_value_type (argv[i]) == SQLITE_NULL)
        {
          sqlite3_result_null (ctx);
          return;
        }
      if (i > 0 && value_compare (argv[best], argv[i]) * worse > 0)
        best = i;
    }
  sqlite3_result_value (ctx, argv[best]);
}

static void
dec_cmp_cb (sqlite3_context  *ctx,
            int               argc,
            sqlite3_value   **argv)
{
  if (sqlite3_value_type (argv[0]) == SQLITE_NULL || sqlite3_value_type (argv[1]) == SQLITE_NULL)
    {
      sqlite3_result_null (ctx);
      return;
    }
  sqlite3_result_int (ctx, value_compare (argv[0], argv[1]));
}

static int
decimal_collate_cb (void       *user_data,
                    int         na,
                    const void *a,
                    int         nb,
                    const void *b)
{
  NumView va, vb;
  gboolean num_a = view_parse (a, na, &va);
  gboolean num_b = view_parse (b, nb, &vb);

  if (num_a && num_b)
    return view_compare (&va, &vb);
  if (num_a != num_b)
    return num_a ? -1 : 1;
  return bytes_compare (a, na, b, nb);
}

int
dyn_sql_decimal_register (sqlite3 *db)
{
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc;

  g_return_val_if_fail (db != NULL, SQLITE_MISUSE);

  for (guint i = 0; i < G_N_ELEMENTS (funcs); i++)
    {
      const FuncInfo *info = &funcs[i];
      gboolean minmax = info->kind == FUNC_MIN || info->kind == FUNC_MAX;

      rc = sqlite3_create_window_function (db, info->name, 1, flags, (void *) info,
                                           minmax ? minmax_step_cb : sum_step_cb,
                                           minmax ? minmax_final_cb : sum_final_cb,
                                           minmax ? minmax_value_cb : sum_value_cb,
                                           minmax ? minmax_inverse_cb : sum_inverse_cb,
                                           NULL);
      if (rc == SQLITE_OK && minmax)
        rc = sqlite3_create_function_v2 (db, info->name, -1, flags, (void *) info,
                                         minmax_scalar_cb, NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return rc;
    }
  rc = sqlite3_create_function_v2 (db, "dec_cmp", 2, flags, NULL, dec_cmp_cb, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return rc;
  return sqlite3_create_collation_v2 (db, "DECIMAL", SQLITE_UTF8, NULL, decimal_collate_cb, NULL);
}
