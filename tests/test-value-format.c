/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-value-format"
#include "config.h"

#include <locale.h>
#include <string.h>

#include "dyn-test-util.h"
#include "dyn-value-format.h"

/* How a grid cell shows a value to be read (dyn_value_format_display): binary
 * marked with a preview, numbers exact and readable, an empty string or
 * binary unlike a missing attribute. The text to edit
 * (dyn_value_format_cell) stays the exact value. */

#define NNBSP "\u202f"

/* Every digit of @number's significant digits is in @text, in order. */
static void
assert_digits_kept (const char *number,
                    const char *text)
{
  g_autoptr(GString) want = g_string_new (NULL);
  g_autoptr(GString) got = g_string_new (NULL);
  const char *part;

  for (const char *p = number; *p && *p != 'e' && *p != 'E'; p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (want, *p);
  /* The exact part: after " · " when there is one, else all of it. */
  part = strstr (text, " · ");
  part = part ? part + strlen (" · ") : text;
  for (const char *p = part; *p && *p != 'e' && *p != 'E' && !g_str_has_prefix (p, " × "); p++)
    if (g_ascii_isdigit (*p))
      g_string_append_c (got, *p);
  while (want->len > 1 && want->str[0] == '0')
    g_string_erase (want, 0, 1);
  while (got->len > 1 && got->str[0] == '0')
    g_string_erase (got, 0, 1);
  while (want->len > 1 && want->str[want->len - 1] == '0')
    g_string_truncate (want, want->len - 1);
  while (got->len > 1 && got->str[got->len - 1] == '0')
    g_string_truncate (got, got->len - 1);
  g_assert_cmpstr (got->str, ==, want->str);
}

static void
test_numbers (void)
{
  struct { const char *number; const char *shown; } cases[] = {
    /* Short numbers as they are; four digits are not grouped. */
    { "0", "0" },
    { "7", "7" },
    { "-42.5", "-42.5" },
    { "2013", "2013" },
    { "1E+3", "1E+3" },
    /* Five or more integer digits, seven or more fraction digits: groups. */
    { "12000.50", "12" NNBSP "000.50" },
    { "-1234567", "-1" NNBSP "234" NNBSP "567" },
    { "0.1234567", "0.123" NNBSP "456" NNBSP "7" },
    /* Beyond 15 significant digits: the scientific form leads, rounded
     * and marked, the exact digits beside it. */
    { "12345678901234567890.123456789012345678",
      "≈ 1.235 × 10¹⁹ · 12" NNBSP "345" NNBSP "678" NNBSP "901" NNBSP "234" NNBSP "567" NNBSP "890."
      "123" NNBSP "456" NNBSP "789" NNBSP "012" NNBSP "345" NNBSP "678" },
    { "99999999999999999999999999999999999999",
      "≈ 1 × 10³⁸ · 99" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP
      "999" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP "999" NNBSP "999" },
    /* Large or tiny with few digits: the scientific form is exact. */
    { "1000000000000000000000", "1 × 10²¹ · 1" NNBSP "000" NNBSP "000" NNBSP "000" NNBSP "000" NNBSP "000" NNBSP "000" NNBSP "000" },
    { "0.00000015", "1.5 × 10⁻⁷ · 0.000" NNBSP "000" NNBSP "15" },
    { "1E-130", "1 × 10⁻¹³⁰" },
    { "-2.5E+125", "-2.5 × 10¹²⁵" },
    /* DynamoDB Local returns 1E-130 as 0.000…0001: too long to read. */
    { "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
      "1 × 10⁻¹³⁰" },
    /* Too long to read and many digits: every digit, scientifically. */
    { "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001234567890123456789",
      "1.234567890123456789 × 10⁻⁹⁹" },
    { "1.234567890123456789E-99", "≈ 1.235 × 10⁻⁹⁹ · 1.234567890123456789E-99" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = dyn_number_format_display (cases[i].number);

      g_test_message ("%s → %s", cases[i].number, shown);
      g_assert_cmpstr (shown, ==, cases[i].shown);
      assert_digits_kept (cases[i].number, shown);
    }
}

static void
test_binary (void)
{
  g_autoptr(DynValue) item = dyn_test_item (
    "{\"text\":{\"B\":\"aGVsbG8gd29ybGQ=\"},"          /* hello world */
    "\"png\":{\"B\":\"iVBORw0KGgoAAAANSUhEUgAA\"},"    /* 18 bytes of a PNG header */
    "\"bytes\":{\"B\":\"AAECAwQ=\"},"
    "\"empty\":{\"B\":\"\"},"
    "\"set\":{\"BS\":[\"aGk=\",\"AAE=\"]}}");
  struct { const char *name; const char *shown; DynValueDisplay kind; } cases[] = {
    { "text", "binary · 11 bytes · “hello world”", DYN_VALUE_DISPLAY_BINARY },
    { "png", "binary · 18 bytes · 8950 4e47 0d0a 1a0a 0000 000d 4948 4452 …", DYN_VALUE_DISPLAY_BINARY },
    { "bytes", "binary · 5 bytes · 0001 0203 04", DYN_VALUE_DISPLAY_BINARY },
    { "empty", "binary · 0 bytes", DYN_VALUE_DISPLAY_EMPTY },
    { "set", "binary · {“hi”, 0001}", DYN_VALUE_DISPLAY_BINARY },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DynValueDisplay kind = -1;
      g_autofree char *shown = dyn_value_format_display (dyn_value_map_lookup (item, cases[i].name), 0, &kind);

      g_assert_cmpstr (shown, ==, cases[i].shown);
      g_assert_cmpint (kind, ==, cases[i].kind);
    }
  /* The text to edit is still the exact base64. */
  {
    g_autofree char *cell = dyn_value_format_cell (dyn_value_map_lookup (item, "bytes"), DYN_BINARY_FORMAT_BASE64, 0);
    g_assert_cmpstr (cell, ==, "AAECAwQ=");
  }
}

static void
test_kinds (void)
{
  g_autoptr(DynValue) item = dyn_test_item (
    "{\"s\":{\"S\":\"two\\nlines\"},\"e\":{\"S\":\"\"},\"n\":{\"N\":\"12000.50\"},"
    "\"ns\":{\"NS\":[\"1\",\"12345\"]},\"ss\":{\"SS\":[\"a\",\"b\"]},"
    "\"m\":{\"M\":{\"a\":{\"N\":\"1\"}}},\"l\":{\"L\":[]},\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true}}");
  struct { const char *name; const char *shown; DynValueDisplay kind; } cases[] = {
    { "s", "two⏎lines", DYN_VALUE_DISPLAY_TEXT },
    { "e", "(empty string)", DYN_VALUE_DISPLAY_EMPTY },
    { "n", "12" NNBSP "000.50", DYN_VALUE_DISPLAY_NUMBER },
    { "ns", "{1, 12" NNBSP "345}", DYN_VALUE_DISPLAY_NUMBER },
    { "ss", "{\"a\", \"b\"}", DYN_VALUE_DISPLAY_TEXT },
    { "m", "{1 attribute}", DYN_VALUE_DISPLAY_SUMMARY },
    { "l", "[0 items]", DYN_VALUE_DISPLAY_SUMMARY },
    { "t", "true", DYN_VALUE_DISPLAY_TEXT },
    { "z", "null", DYN_VALUE_DISPLAY_TEXT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      DynValueDisplay kind = -1;
      g_autofree char *shown = dyn_value_format_display (dyn_value_map_lookup (item, cases[i].name), 0, &kind);

      g_assert_cmpstr (shown, ==, cases[i].shown);
      g_assert_cmpint (kind, ==, cases[i].kind);
    }
  /* An empty string is a value: its cell differs from a missing one (NULL),
   * and from a string of spaces. */
  {
    g_autoptr(DynValue) spaces = dyn_value_new_string ("  ");
    g_autofree char *shown = dyn_value_format_display (spaces, 0, NULL);

    g_assert_cmpstr (shown, ==, "  ");
  }
  /* Cut at max_chars. */
  {
    g_autofree char *cut = dyn_value_format_display (dyn_value_map_lookup (item, "s"), 3, NULL);

    g_assert_cmpstr (cut, ==, "two…");
  }
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/value-format/numbers", test_numbers);
  g_test_add_func ("/dyn/value-format/binary", test_binary);
  g_test_add_func ("/dyn/value-format/kinds", test_kinds);
  return g_test_run ();
}
