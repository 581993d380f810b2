/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the SQL Workbench's exact decimals: the input is two
 * texts split at the first newline (numbers as they come from an item or a
 * statement). Whatever the text, dyn_decimal_add() and
 * dyn_decimal_divide_int() return a number or an error, never crash; and
 * when both are numbers, a + b - b == a exactly (normalised alike).
 */
#include "config.h"

#include <string.h>

#include "dyn-sql-decimal.h"

static char *
negate (const char *text)
{
  if (text[0] == '-')
    return g_strdup (text + 1);
  if (text[0] == '+')
    return g_strconcat ("-", text + 1, NULL);
  return g_strconcat ("-", text, NULL);
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = NULL;
  g_autofree char *sum = NULL;
  g_autofree char *quotient = NULL;
  g_autoptr(GError) error = NULL;
  char *b;
  gint64 i;

  if (size > 4096 || memchr (data, '\0', size) != NULL)
    return 0;
  text = g_strndup ((const char *) data, size);
  b = strchr (text, '\n');
  if (b == NULL)
    return 0;
  *b++ = '\0';

  (void) dyn_decimal_to_int64 (text, &i);
  quotient = dyn_decimal_divide_int (text, 7, 20, &error);
  g_assert ((quotient == NULL) == (error != NULL));
  g_clear_error (&error);

  sum = dyn_decimal_add (text, b, &error);
  g_assert ((sum == NULL) == (error != NULL));
  if (sum != NULL)
    {
      g_autofree char *minus_b = negate (b);
      g_autofree char *back = dyn_decimal_add (sum, minus_b, NULL);
      g_autofree char *a_norm = dyn_decimal_add (text, "0", NULL);

      /* a + b - b is a, exactly (both normalised the same way). */
      if (back != NULL && a_norm != NULL)
        g_assert_cmpstr (back, ==, a_norm);
    }
  return 0;
}
