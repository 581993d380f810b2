/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-test-util.h"
#include "dyn-value.h"

#define N38 "12345678901234567890123456789012345678"

/* Helpers */

static DynValue *
ddb (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_json_decode_ddb_value (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static DynValue *
num (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_value_new_number (text, &error);

  g_assert_no_error (error);
  return v;
}

/* Decodes @json as a DynamoDB item and checks the error's code and that its
 * message contains @needle. */
static void
assert_item_error (const char *json,
                   int         code,
                   const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) v = dyn_item_from_ddb_json_string (json, -1, &error);

  g_assert_null (v);
  g_assert_error (error, DYN_ERROR, code);
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

static void
assert_plain_error (const char *json,
                    const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) v = dyn_json_decode_plain (json, strlen (json), &error);

  g_assert_null (v);
  g_assert_nonnull (error);
  g_assert_true (error->domain == DYN_ERROR);
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

static void
assert_json_error (const char *json,
                   const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = dyn_json_parse (json, -1, &error);

  g_assert_null (node);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  if (strstr (error->message, needle) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", error->message, needle);
}

/* Tests */

static void
test_new_destroy (void)
{
  DynValue *map = dyn_value_new_map ();
  DynValue *s = dyn_value_new_string ("x");

  g_assert_cmpint (dyn_value_get_value_type (map), ==, DYN_VALUE_M);
  dyn_value_map_set (map, "a", s);
  g_assert_true (dyn_value_map_lookup (map, "a") == s);
  dyn_value_ref (map);
  dyn_value_unref (map);
  dyn_value_unref (s);   /* the map still holds one */
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (map, "a")), ==, "x");
  dyn_value_unref (map);

  /* Boxed type */
  {
    g_autoptr(DynValue) v = dyn_value_new_bool (TRUE);
    DynValue *copy = g_boxed_copy (DYN_TYPE_VALUE, v);
    g_assert_true (copy == v);
    g_boxed_free (DYN_TYPE_VALUE, copy);
    g_assert_true (G_TYPE_IS_BOXED (DYN_TYPE_VALUE));
  }
}

static void
test_type_names (void)
{
  for (DynValueType t = DYN_VALUE_S; t <= DYN_VALUE_BS; t++)
    {
      DynValueType back;
      g_assert_true (dyn_value_type_from_string (dyn_value_type_to_string (t), &back));
      g_assert_cmpint (back, ==, t);
    }
  g_assert_cmpstr (dyn_value_type_to_string (DYN_VALUE_NS), ==, "NS");
  g_assert_false (dyn_value_type_from_string ("X", NULL));
}

static void
test_number_validate (void)
{
  const char *good[] = {
    "0", "-0", "+1", "1.5", "-0.5", ".5", "5.", "1e5", "1E+5", "1e-5", "007", "0.000",
    N38, "-" N38, N38 "000000", "0.00" N38, "1" "00000000000000000000000000000000000000000000",
    "1E-130", "-1E-130", "0.1E-129", "9.9999999999999999999999999999999999999E+125",
    "-9.9999999999999999999999999999999999999E+125", "0E999999", "0e-99999999999999999",
"100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",  /* 1E125 */
  };
  struct { const char *text; const char *rule; } bad[] = {
    { "", "not a decimal number" },
    { " 1", "not a decimal number" },
    { "1 ", "not a decimal number" },
    { "NaN", "not a decimal number" },
    { "Infinity", "not a decimal number" },
    { "0x10", "not a decimal number" },
    { "1e", "not a decimal number" },
    { ".", "not a decimal number" },
    { "-", "not a decimal number" },
    { "1.2.3", "not a decimal number" },
    { "--1", "not a decimal number" },
    { "1e5.5", "not a decimal number" },
    { N38 "1", "38 significant digits" },
    { "1.00000000000000000000000000000000000001", "38 significant digits" },
    { "1E-131", "exponent out of range" },
    { "0.1E-130", "exponent out of range" },
    { "1E+126", "exponent out of range" },
    { "10E+125", "exponent out of range" },
    { "1E99999999999999999999", "exponent out of range" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      if (!dyn_number_validate (good[i], &error))
        g_error ("%s rejected: %s", good[i], error->message);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_assert_false (dyn_number_validate (bad[i].text, &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
      if (strstr (error->message, bad[i].rule) == NULL)
        g_error ("\"%s\": message \"%s\" lacks \"%s\"", bad[i].text, error->message, bad[i].rule);
    }

  /* The message names the number. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_value_new_number ("1E+126", &error);
    g_assert_null (v);
    g_assert_nonnull (strstr (error->message, "\"1E+126\""));
  }
}

static void
test_number_compare (void)
{
  struct { const char *a, *b; int r; } cases[] = {
    { "1", "1.0", 0 },
    { "0", "-0.000", 0 },
    { "100", "1E2", 0 },
    { "+5", "5", 0 },
    { ".5", "0.50", 0 },
    { "2", "10", -1 },
    { "-2", "-10", 1 },
    { "-1", "0", -1 },
    { "0", "1E-130", -1 },
    { "-1E-130", "0", -1 },
    { N38, "12345678901234567890123456789012345679", -1 },
    { "99999999999999999999999999999999999999", "1E38", -1 },
    { "0.1", "0.09", 1 },
    { "1.5", "1.49999999999999999999999999999999999", 1 },
    { "9.9999999999999999999999999999999999999E+125", "1E+125", 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int r = dyn_number_compare (cases[i].a, cases[i].b);
      int back = dyn_number_compare (cases[i].b, cases[i].a);
      r = r < 0 ? -1 : r > 0;
      back = back < 0 ? -1 : back > 0;
      if (r != cases[i].r || back != -cases[i].r)
        g_error ("compare %s %s: %d", cases[i].a, cases[i].b, r);
    }
}

static void
test_number_canonicalize (void)
{
  struct { const char *in, *out; } cases[] = {
    { "0", "0" }, { "-0.0", "0" }, { "+5", "5" }, { "007", "7" }, { "1.50", "1.5" },
    { "1E2", "100" }, { "1.5e1", "15" }, { "-.5", "-0.5" }, { "5.", "5" }, { "123.456", "123.456" },
    { "1E-5", "0.00001" }, { "12.5E-1", "1.25" }, { N38 "000", N38 "000" },
    { "0.00" N38, "0.00" N38 },
  };
  g_autofree char *tiny = NULL;
  g_autofree char *huge = NULL;
  g_autoptr(GString) expect = g_string_new ("0.");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *c = dyn_number_canonicalize (cases[i].in);
      g_assert_cmpstr (c, ==, cases[i].out);
    }

  /* 1E-130 comes back as 0. followed by 129 zeros and a 1. */
  tiny = dyn_number_canonicalize ("1E-130");
  for (int i = 0; i < 129; i++)
    g_string_append_c (expect, '0');
  g_string_append_c (expect, '1');
  g_assert_cmpstr (tiny, ==, expect->str);

  huge = dyn_number_canonicalize ("9.9999999999999999999999999999999999999E+125");
  g_assert_cmpuint (strlen (huge), ==, 126);
  g_assert_true (g_str_has_prefix (huge, "99999999999999999999999999999999999999000"));
}

static void
test_scalars (void)
{
  g_autoptr(DynValue) s = dyn_value_new_string ("héllo");
  g_autoptr(DynValue) s0 = dyn_value_new_string_len ("a\0b", 3);
  g_autoptr(DynValue) n = num (N38);
  g_autoptr(GBytes) bytes = g_bytes_new ("\x00\xff\x10", 3);
  g_autoptr(DynValue) b = dyn_value_new_binary (bytes);
  g_autoptr(DynValue) t = dyn_value_new_bool (TRUE);
  g_autoptr(DynValue) null = dyn_value_new_null ();

  g_assert_cmpstr (dyn_value_get_string (s), ==, "héllo");
  g_assert_cmpuint (dyn_value_get_string_length (s0), ==, 3);
  g_assert_cmpstr (dyn_value_get_number (n), ==, N38);
  g_assert_true (g_bytes_equal (dyn_value_get_binary (b), bytes));
  g_assert_true (dyn_value_get_bool (t));
  g_assert_cmpint (dyn_value_get_value_type (null), ==, DYN_VALUE_NULL);
  g_assert_cmpuint (dyn_value_get_length (s), ==, 0);
}

static void
test_sets (void)
{
  const char *ss[] = { "b", "a", "c" };
  const char *ss_dup[] = { "a", "b", "a" };
  const char *ns[] = { "10", "1", "-5.5" };
  const char *ns_dup[] = { "1", "1.0" };
  const char *ns_bad[] = { "1", "abc" };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) v = NULL;
  g_autoptr(GBytes) b1 = g_bytes_new ("a", 1);
  g_autoptr(GBytes) b2 = g_bytes_new ("b", 1);
  g_autoptr(GBytes) b1b = g_bytes_new ("a", 1);

  v = dyn_value_new_string_set (ss, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_value_get_length (v), ==, 3);
  g_assert_cmpstr (dyn_value_set_get_string (v, 0), ==, "b");   /* first-seen order */
  g_assert_cmpstr (dyn_value_set_get_string (v, 2), ==, "c");
  g_clear_pointer (&v, dyn_value_unref);

  v = dyn_value_new_string_set (ss_dup, 3, &error);
  g_assert_null (v);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "\"a\" more than once"));
  g_clear_error (&error);

  v = dyn_value_new_string_set (ss, 0, &error);
  g_assert_null (v);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "empty"));
  g_clear_error (&error);

  v = dyn_value_new_number_set (ns, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_value_set_get_string (v, 2), ==, "-5.5");
  g_clear_pointer (&v, dyn_value_unref);

  v = dyn_value_new_number_set (ns_dup, 2, &error);   /* 1 and 1.0 are the same number */
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  v = dyn_value_new_number_set (ns_bad, 2, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_clear_error (&error);

  {
    GBytes *bv[] = { b1, b2 };
    GBytes *bv_dup[] = { b1, b2, b1b };
    v = dyn_value_new_binary_set (bv, 2, &error);
    g_assert_no_error (error);
    g_assert_true (dyn_value_set_get_binary (v, 1) == b2);
    g_clear_pointer (&v, dyn_value_unref);
    v = dyn_value_new_binary_set (bv_dup, 3, &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
  }

  /* A big set goes through the hash path. */
  {
    g_autoptr(GPtrArray) strv = g_ptr_array_new_with_free_func (g_free);
    for (int i = 0; i < 100; i++)
      g_ptr_array_add (strv, g_strdup_printf ("%d", i));
    g_ptr_array_add (strv, g_strdup ("5.0E1"));   /* = 50 */
    v = dyn_value_new_number_set ((const char * const *) strv->pdata, strv->len, &error);
    g_assert_null (v);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    v = dyn_value_new_number_set ((const char * const *) strv->pdata, 100, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyn_value_get_length (v), ==, 100);
  }
}

static void
test_map_list (void)
{
  g_autoptr(DynValue) map = dyn_value_new_map ();
  g_autoptr(DynValue) list = dyn_value_new_list ();

  for (int i = 0; i < 40; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "k%02d", 39 - i);
      dyn_value_map_take (map, name, dyn_value_new_bool (i % 2));
      dyn_value_list_take (list, dyn_value_new_null ());
    }
  g_assert_cmpuint (dyn_value_get_length (map), ==, 40);
  g_assert_cmpstr (dyn_value_map_get_name (map, 0), ==, "k39");   /* insertion order */
  g_assert_cmpstr (dyn_value_map_get_name (map, 39), ==, "k00");
  g_assert_true (dyn_value_get_bool (dyn_value_map_lookup (map, "k38")));
  g_assert_null (dyn_value_map_lookup (map, "nope"));

  /* Replacing keeps the position. */
  dyn_value_map_take (map, "k39", dyn_value_new_string ("x"));
  g_assert_cmpuint (dyn_value_get_length (map), ==, 40);
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_get_value (map, 0)), ==, "x");

  g_assert_true (dyn_value_map_remove (map, "k20"));
  g_assert_false (dyn_value_map_remove (map, "k20"));
  g_assert_null (dyn_value_map_lookup (map, "k20"));
  g_assert_nonnull (dyn_value_map_lookup (map, "k19"));
  g_assert_cmpuint (dyn_value_get_length (map), ==, 39);
  dyn_value_map_take (map, "new", dyn_value_new_null ());
  g_assert_nonnull (dyn_value_map_lookup (map, "new"));

  g_assert_cmpuint (dyn_value_get_length (list), ==, 40);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_list_get (list, 39)), ==, DYN_VALUE_NULL);

  /* A decoded map can still be built on while unshared. */
  {
    g_autoptr(DynValue) item = dyn_item_from_ddb_json_string ("{\"a\":{\"S\":\"1\"},\"b\":{\"L\":[]}}", -1, NULL);
    DynValue *l;
    dyn_value_map_take (item, "c", dyn_value_new_null ());
    g_assert_cmpuint (dyn_value_get_length (item), ==, 3);
    g_assert_cmpstr (dyn_value_map_get_name (item, 0), ==, "a");
    g_assert_true (dyn_value_map_remove (item, "a"));
    g_assert_cmpstr (dyn_value_map_get_name (item, 0), ==, "b");
    l = dyn_value_map_lookup (item, "b");
    dyn_value_list_take (l, dyn_value_new_bool (FALSE));
    g_assert_cmpuint (dyn_value_get_length (l), ==, 1);
  }
}

static const char *roundtrip_items[] = {
  "{\"s\":{\"S\":\"h\\u00e9llo \\\"q\\\" \\\\ \\n\\t\\u0001 \xf0\x9f\x98\x80\"}}",
  "{\"n\":{\"N\":\"" N38 "\"},\"neg\":{\"N\":\"-0.000" N38 "\"},\"e\":{\"N\":\"1E-130\"}}",
  "{\"b\":{\"B\":\"AP8Q\"},\"b1\":{\"B\":\"YQ==\"},\"b2\":{\"B\":\"YWI=\"},\"e\":{\"B\":\"\"}}",
  "{\"t\":{\"BOOL\":true},\"f\":{\"BOOL\":false},\"z\":{\"NULL\":true}}",
  "{\"m\":{\"M\":{\"x\":{\"M\":{}},\"y\":{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"},{\"L\":[]}]}}}}",
  "{\"ss\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"1.50\",\"-2\",\"" N38 "\"]},\"bs\":{\"BS\":[\"YQ==\",\"Yg==\"]}}",
  "{}",
};

static void
test_ddb_roundtrip (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (roundtrip_items); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) item = dyn_item_from_ddb_json_string (roundtrip_items[i], -1, &error);
      g_autofree char *text = NULL;
      g_autoptr(DynValue) again = NULL;
      g_autofree char *text2 = NULL;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(DynValue) from_node = NULL;

      g_assert_no_error (error);
      text = dyn_item_to_ddb_json_string (item);
      again = dyn_item_from_ddb_json_string (text, -1, &error);
      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (item, again));
      g_assert_cmpint (dyn_value_compare (item, again), ==, 0);
      text2 = dyn_item_to_ddb_json_string (again);
      g_assert_cmpstr (text, ==, text2);

      /* Through json-glib nodes as well. */
      node = dyn_item_to_ddb_json (item);
      from_node = dyn_item_from_ddb_json (node, &error);
      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (item, from_node));
    }

  /* Numbers are written exactly as held. */
  {
    g_autoptr(DynValue) v = ddb ("{\"N\":\"1.50E+0\"}");
    g_autofree char *t = dyn_value_to_ddb_json_string (v);
    g_assert_cmpstr (t, ==, "{\"N\":\"1.50E+0\"}");
  }
  /* Escapes decoded, control characters escaped on the way out. */
  {
    g_autoptr(DynValue) v = ddb ("{\"S\":\"\\ud83d\\ude00\\u0000x\\/\"}");
    g_autofree char *t = NULL;
    g_assert_cmpuint (dyn_value_get_string_length (v), ==, 7);
    g_assert_cmpmem (dyn_value_get_string (v), 7, "\xf0\x9f\x98\x80\0x/", 7);
    t = dyn_value_to_ddb_json_string (v);
    g_assert_cmpstr (t, ==, "{\"S\":\"\xf0\x9f\x98\x80\\u0000x/\"}");
  }
  /* Binary */
  {
    g_autoptr(DynValue) v = ddb ("{\"B\":\"AP8Q\"}");
    gsize len;
    const guint8 *data = g_bytes_get_data (dyn_value_get_binary (v), &len);
    g_assert_cmpmem (data, len, "\x00\xff\x10", 3);
  }
  /* Member order is kept. */
  {
    g_autoptr(DynValue) v = dyn_item_from_ddb_json_string ("{\"z\":{\"NULL\":true},\"a\":{\"NULL\":true}}", -1, NULL);
    g_assert_cmpstr (dyn_value_map_get_name (v, 0), ==, "z");
  }
}

/* A member named "" (an ExpressionAttributeValues key a user got wrong) is
 * read like any other: the names buffer is still empty when it comes first. */
static void
test_empty_member_name (void)
{
  static const char *ddb[] = {
    "{\"\":{\"S\":\"x\"}}",
    "{\"\":{\"S\":\"x\"},\"a\":{\"N\":\"1\"}}",
    "{\"a\":{\"M\":{\"\":{\"N\":\"1\"}}}}",
    "{\"\":{\"M\":{\"\":{\"M\":{}}}}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ddb); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) item = dyn_item_from_ddb_json_string (ddb[i], -1, &error);

      g_assert_no_error (error);
      g_assert_nonnull (item);
      if (i < 2)
        g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "")), ==, "x");
    }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) item = dyn_item_from_plain_json_string ("{\"\":1,\"b\":{\"\":true}}", -1, &error);

    g_assert_no_error (error);
    g_assert_nonnull (dyn_value_map_lookup (item, ""));
  }
}

static void
test_ddb_errors (void)
{
  assert_item_error ("{\"price\":{\"N\":5}}", DYN_ERROR_PROTOCOL, "price: N must be a string");
  assert_item_error ("{\"a\":{\"X\":\"1\"}}", DYN_ERROR_PROTOCOL, "unknown type key \"X\"");
  assert_item_error ("{\"a\":{\"BOOL\":\"yes\"}}", DYN_ERROR_PROTOCOL, "BOOL must be true or false");
  assert_item_error ("{\"a\":{\"NULL\":false}}", DYN_ERROR_PROTOCOL, "NULL must be true");
  assert_item_error ("{\"a\":{\"S\":\"x\",\"N\":\"1\"}}", DYN_ERROR_PROTOCOL, "more than one type key");
  assert_item_error ("{\"a\":{}}", DYN_ERROR_PROTOCOL, "no type key");
  assert_item_error ("{\"a\":\"x\"}", DYN_ERROR_PROTOCOL, "must be an object");
  assert_item_error ("[]", DYN_ERROR_PROTOCOL, "item must be an object");
  assert_item_error ("{\"a\":{\"M\":{\"b\":{\"L\":[{\"S\":\"x\"},{\"N\":\"1E+126\"}]}}}}",
                     DYN_ERROR_INVALID_VALUE, "a.b[1]: invalid number \"1E+126\": exponent out of range");
  assert_item_error ("{\"a\":{\"N\":\"" N38 "9\"}}", DYN_ERROR_INVALID_VALUE, "38 significant digits");
  assert_item_error ("{\"a\":{\"SS\":[]}}", DYN_ERROR_INVALID_VALUE, "must not be empty");
  assert_item_error ("{\"a\":{\"SS\":[\"x\",\"x\"]}}", DYN_ERROR_INVALID_VALUE, "more than once");
  assert_item_error ("{\"a\":{\"NS\":[\"1\",\"1.0\"]}}", DYN_ERROR_INVALID_VALUE, "more than once");
  assert_item_error ("{\"a\":{\"NS\":[\"1\",\"x\"]}}", DYN_ERROR_INVALID_VALUE, "a[1]: invalid number");
  assert_item_error ("{\"a\":{\"SS\":[\"1\",2]}}", DYN_ERROR_PROTOCOL, "SS element must be a string");
  assert_item_error ("{\"a\":{\"BS\":[\"YQ==\",\"YQ==\"]}}", DYN_ERROR_INVALID_VALUE, "more than once");
  assert_item_error ("{\"a\":{\"B\":\"YQ=\"}}", DYN_ERROR_INVALID_VALUE, "invalid base64");
  assert_item_error ("{\"a\":{\"B\":\"Y Q==\"}}", DYN_ERROR_INVALID_VALUE, "invalid base64");
  assert_item_error ("{\"a\":{\"B\":\"YR==\"}}", DYN_ERROR_INVALID_VALUE, "invalid base64");
  assert_item_error ("{\"a\":{\"B\":\"=QQQ\"}}", DYN_ERROR_INVALID_VALUE, "invalid base64");
  assert_item_error ("{\"a\":{\"S\":\"x\"},\"a\":{\"S\":\"y\"}}", DYN_ERROR_PROTOCOL, "duplicate attribute name \"a\"");
  assert_item_error ("{\"a\":{\"S\":\"x\"}", DYN_ERROR_PROTOCOL, "truncated JSON at byte 14");
  assert_item_error ("{\"a\":{\"S\":\"x", DYN_ERROR_PROTOCOL, "truncated JSON");
  assert_item_error ("{\"a\":{\"S\":\"x\"}} x", DYN_ERROR_PROTOCOL, "after the JSON value");
  assert_item_error ("{\"a\":{\"S\":\"\xc3\x28\"}}", DYN_ERROR_PROTOCOL, "invalid UTF-8 in string at byte 11");
  assert_item_error ("{\"a\":{\"S\":\"\\ud800\"}}", DYN_ERROR_PROTOCOL, "unpaired surrogate");
  assert_item_error ("{\"a\":{\"S\":\"\\udc00\"}}", DYN_ERROR_PROTOCOL, "lone low surrogate");
  assert_item_error ("{\"a\":{\"S\":\"\\x\"}}", DYN_ERROR_PROTOCOL, "invalid escape");
  assert_item_error ("{\"a\":{\"S\":\"\\u12\"}}", DYN_ERROR_PROTOCOL, "invalid \\u escape");
  assert_item_error ("{\"a\":{\"S\":\"a\nb\"}}", DYN_ERROR_PROTOCOL, "control character");
  assert_item_error ("{\"a\" {\"S\":\"x\"}}", DYN_ERROR_PROTOCOL, "unexpected character '{' at byte 5");
  assert_item_error ("", DYN_ERROR_PROTOCOL, "truncated JSON at byte 0");

  /* Deep nesting: 33 levels is fine, a thousand is an error, not a crash. */
  {
    g_autoptr(GString) ok = g_string_new ("{\"a\":");
    g_autoptr(GString) deep = g_string_new ("{\"a\":");
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = NULL;

    for (int i = 0; i < 33; i++)
      g_string_append (ok, "{\"L\":[");
    g_string_append (ok, "{\"NULL\":true}");
    for (int i = 0; i < 33; i++)
      g_string_append (ok, "]}");
    g_string_append (ok, "}");
    v = dyn_item_from_ddb_json_string (ok->str, ok->len, &error);
    g_assert_no_error (error);

    for (int i = 0; i < 1000; i++)
      g_string_append (deep, "{\"M\":{\"a\":");
    assert_item_error (deep->str, DYN_ERROR_PROTOCOL, "nested deeper than");
  }

  /* Every prefix of a valid item fails cleanly. */
  {
    const char *full = roundtrip_items[5];
    for (gsize i = 0; i < strlen (full); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(DynValue) v = dyn_item_from_ddb_json_string (full, i, &error);
        g_assert_null (v);
        g_assert_nonnull (error);
      }
  }
}

static void
test_ddb_items_array (void)
{
  const char *json = "[{\"a\":{\"S\":\"1\"}}, {\"a\":{\"N\":\"2\"}} ]";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_items_decode_ddb_json_array (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 2);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (items->pdata[1], "a")), ==, "2");

  {
    const char *bad = "[{\"a\":{\"S\":\"1\"}},{\"a\":{\"S\":\"1\"}},{\"a\":{\"S\":\"1\"}},{\"price\":{\"N\":5}}]";
    g_autoptr(GPtrArray) none = dyn_items_decode_ddb_json_array (bad, strlen (bad), &error);
    g_assert_null (none);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "[3].price: N must be a string"));
  }
}

/* Empty maps, lists, sets and names before anything else was decoded: the
 * decoder's stacks are still unallocated then, and none of it may do
 * arithmetic on their NULL pointers (undefined behaviour, which clang's
 * UBSan reports; found by tests/fuzz-ddb-json). */
static void
test_empty_containers (void)
{
  static const char * const items[] = {
    "{}", "{\"\":{\"S\":\"x\"}}", "{\"m\":{\"M\":{}}}", "{\"l\":{\"L\":[]}}",
  };
  static const char * const values[] = { "{\"M\":{}}", "{\"L\":[]}", "{\"M\":{\"\":{\"L\":[]}}}" };
  static const char * const plain[] = { "{}", "[]", "{\"\":[]}", "[[],{}]" };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) item = dyn_item_from_ddb_json_string (items[i], -1, &error);
      g_autofree char *again = NULL;

      g_assert_no_error (error);
      again = dyn_item_to_ddb_json_string (item);
      g_assert_cmpstr (again, ==, items[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autoptr(DynValue) v = ddb (values[i]);
      g_autofree char *again = dyn_value_to_ddb_json_string (v);

      g_assert_cmpstr (again, ==, values[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) v = dyn_json_decode_plain (plain[i], strlen (plain[i]), &error);
      g_autofree char *again = NULL;

      g_assert_no_error (error);
      again = dyn_value_to_plain_json_string (v);
      g_assert_cmpstr (again, ==, plain[i]);
    }
  {
    g_autoptr(GPtrArray) none = dyn_items_decode_ddb_json_array ("[]", 2, NULL);

    g_assert_nonnull (none);
    g_assert_cmpuint (none->len, ==, 0);
  }

  /* And the errors at an empty name or an empty set. */
  assert_item_error ("{\"\":{\"S\":1}}", DYN_ERROR_PROTOCOL, "S must be a string");
  assert_plain_error ("{\"$set\":[]}", "a set must not be empty");
}

/* Every value the plain decoder gives, nested as deep as it allows, is
 * written as DynamoDB JSON that decodes back (a bare value's own M or L is the
 * outermost level in both decoders; found by tests/fuzz-ddb-json). Items
 * nest alike in both. */
static void
test_nesting_limits_agree (void)
{
  for (guint kind = 0; kind < 2; kind++)
    {
      g_autoptr(GString) plain = g_string_new (NULL);
      g_autoptr(GString) deeper = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) v = NULL;
      g_autoptr(DynValue) again = NULL;
      g_autofree char *ddb_text = NULL;
      guint levels = 0;

      /* As deep as the plain decoder goes. */
      for (;; levels++)
        {
          g_autoptr(DynValue) probe = NULL;

          g_string_truncate (plain, 0);
          for (guint i = 0; i <= levels; i++)
            g_string_append (plain, kind == 0 ? "[" : "{\"a\":");
          g_string_append (plain, "1");
          for (guint i = 0; i <= levels; i++)
            g_string_append (plain, kind == 0 ? "]" : "}");
          probe = dyn_json_decode_plain (plain->str, plain->len, NULL);
          if (probe == NULL)
            break;
          g_clear_pointer (&v, dyn_value_unref);
          v = g_steal_pointer (&probe);
          g_string_assign (deeper, plain->str);
        }
      g_assert_cmpuint (levels, >=, 33);
      g_assert_nonnull (v);

      ddb_text = dyn_value_to_ddb_json_string (v);
      again = dyn_json_decode_ddb_value (ddb_text, strlen (ddb_text), &error);
      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (v, again));

      /* One level more fails in DynamoDB JSON too. */
      {
        g_autoptr(GString) more = g_string_new (kind == 0 ? "{\"L\":[" : "{\"M\":{\"a\":");
        g_autoptr(DynValue) none = NULL;

        g_string_append (more, ddb_text);
        g_string_append (more, kind == 0 ? "]}" : "}}");
        none = dyn_json_decode_ddb_value (more->str, more->len, &error);
        g_assert_null (none);
        g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
        g_assert_nonnull (strstr (error->message, "nested deeper than"));
        g_clear_error (&error);
      }

      /* The deepest plain value is an item's attribute one level down. */
      if (kind == 1)
        {
          g_autoptr(DynValue) item = dyn_item_from_plain_json_string (deeper->str, -1, &error);
          g_autofree char *item_text = NULL;
          g_autoptr(DynValue) item_again = NULL;

          g_assert_no_error (error);
          item_text = dyn_item_to_ddb_json_string (item);
          item_again = dyn_item_from_ddb_json_string (item_text, -1, &error);
          g_assert_no_error (error);
          g_assert_true (dyn_value_equal (item, item_again));
        }
    }
}

static void
test_parse_response (void)
{
  const char *body =
    "{\"Count\":2,\"Items\":[{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"META\"}},"
    "{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"PROJ#1\"},\"n\":{\"N\":\"" N38 "\"}}],"
    "\"ScannedCount\":2,\"LastEvaluatedKey\":{\"pk\":{\"S\":\"A\"},\"sk\":{\"S\":\"PROJ#1\"}},"
    "\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":0.5}}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(JsonNode) node = dyn_json_parse_response (body, strlen (body), &items, &error);
  JsonObject *o;
  g_autoptr(DynValue) lek = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 2);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (items->pdata[1], "n")), ==, N38);
  o = json_node_get_object (node);
  g_assert_false (json_object_has_member (o, "Items"));
  g_assert_cmpint (json_object_get_int_member (o, "Count"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (o, "ConsumedCapacity"),
                                                    "CapacityUnits"), ==, 0.5);
  lek = dyn_item_from_ddb_json (json_object_get_member (o, "LastEvaluatedKey"), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (lek, "sk")), ==, "PROJ#1");

  /* No Items member: items_out is NULL. An empty page: an empty array. */
  {
    g_autoptr(GPtrArray) none = NULL;
    g_autoptr(JsonNode) n2 = dyn_json_parse_response ("{\"Item\":{\"a\":{\"S\":\"x\"}}}", 24, &none, &error);
    g_assert_no_error (error);
    g_assert_null (none);
    g_assert_true (json_object_has_member (json_node_get_object (n2), "Item"));
  }
  {
    g_autoptr(GPtrArray) empty = NULL;
    g_autoptr(JsonNode) n3 = dyn_json_parse_response ("{\"Items\":[],\"Count\":0}", 22, &empty, &error);
    g_assert_no_error (error);
    g_assert_nonnull (n3);
    g_assert_nonnull (empty);
    g_assert_cmpuint (empty->len, ==, 0);
  }
  /* Errors inside Items name the path. */
  {
    const char *bad = "{\"Items\":[{\"a\":{\"S\":\"1\"}},{\"price\":{\"N\":5}}]}";
    g_autoptr(GPtrArray) none = NULL;
    g_autoptr(JsonNode) n4 = dyn_json_parse_response (bad, strlen (bad), &none, &error);
    g_assert_null (n4);
    g_assert_null (none);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_assert_cmpstr (error->message, ==, "Items[1].price: N must be a string, not a number (at byte 40)");
    g_clear_error (&error);
  }
  {
    g_autoptr(JsonNode) n5 = dyn_json_parse_response ("[1]", 3, NULL, &error);
    g_assert_null (n5);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_clear_error (&error);
    n5 = dyn_json_parse_response ("{\"Count\":1,\"Items\":[]", 21, NULL, &error);
    g_assert_null (n5);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "truncated JSON at byte 21"));
  }
}

static void
test_json_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = dyn_json_parse (" {\"a\":[1,-2.5e3,true,false,null,\"x\\u00e9\"],\"b\":{}} ", -1, &error);
  JsonArray *a;

  g_assert_no_error (error);
  a = json_object_get_array_member (json_node_get_object (node), "a");
  g_assert_cmpint (json_array_get_int_element (a, 0), ==, 1);
  g_assert_cmpfloat (json_array_get_double_element (a, 1), ==, -2500.0);
  g_assert_true (json_array_get_boolean_element (a, 2));
  g_assert_true (json_array_get_null_element (a, 4));
  g_assert_cmpstr (json_array_get_string_element (a, 5), ==, "xé");

  assert_json_error ("{\"a\":1,}", "unexpected character '}' at byte 7");
  assert_json_error ("[1,2", "truncated JSON at byte 4");
  assert_json_error ("[01]", "unexpected character '1' at byte 2");
  assert_json_error ("[1.]", "unexpected character ']'");
  assert_json_error ("[tru]", "unexpected character ']'");
  assert_json_error ("\"\xff\"", "invalid UTF-8");
  assert_json_error ("\"\xed\xa0\x80\"", "invalid UTF-8");  /* encoded surrogate */
  assert_json_error ("[1] [2]", "after the JSON value");
  assert_json_error ("", "truncated JSON at byte 0");
  assert_json_error ("'a'", "unexpected character ''' at byte 0");
  {
    g_autoptr(GString) deep = g_string_new (NULL);
    for (int i = 0; i < 100000; i++)
      g_string_append_c (deep, '[');
    assert_json_error (deep->str, "nested deeper than");
  }
}

static void
test_plain_roundtrip (void)
{
  const char *cases[] = {
    "{\"s\":\"x\",\"n\":1.50,\"big\":" N38 ",\"e\":1E-130,\"t\":true,\"nul\":null,\"l\":[1,\"a\",[]],\"m\":{}}",
    ("{\"b\":{\"$binary\":\"AP8Q\"},\"ss\":{\"$set\":[\"a\",\"b\"]},\"ns\":{\"$set\":[1,2.5]},"
     "\"bs\":{\"$set\":[{\"$binary\":\"YQ==\"},{\"$binary\":\"Yg==\"}]}}"),
    "{\"odd\":{\"$number\":\"+.5\"},\"m\":{\"$map\":{\"$set\":1,\"x\":2}},\"m2\":{\"a\":1,\"$set\":2}}",
    "[]",
    "\"just a string\"",
    "-0.0e+5",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) v = dyn_json_decode_plain (cases[i], strlen (cases[i]), &error);
      g_autofree char *out = NULL;

      g_assert_no_error (error);
      out = dyn_value_to_plain_json_string (v);
      g_assert_cmpstr (out, ==, cases[i]);
    }

  /* Types */
  {
    g_autoptr(DynValue) v = dyn_item_from_plain_json_string (cases[1], -1, NULL);
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (v, "b")), ==, DYN_VALUE_B);
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (v, "ss")), ==, DYN_VALUE_SS);
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (v, "ns")), ==, DYN_VALUE_NS);
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (v, "bs")), ==, DYN_VALUE_BS);
  }
  {
    g_autoptr(DynValue) v = dyn_item_from_plain_json_string (cases[0], -1, NULL);
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (v, "n")), ==, "1.50");
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (v, "big")), ==, N38);
  }
  {
    g_autoptr(DynValue) v = dyn_item_from_plain_json_string (cases[2], -1, NULL);
    DynValue *m = dyn_value_map_lookup (v, "m");
    g_assert_cmpint (dyn_value_get_value_type (m), ==, DYN_VALUE_M);
    g_assert_cmpstr (dyn_value_map_get_name (m, 0), ==, "$set");
  }

  /* Every type from DynamoDB JSON through plain JSON and back. */
  for (guint i = 0; i < G_N_ELEMENTS (roundtrip_items); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) item = dyn_item_from_ddb_json_string (roundtrip_items[i], -1, &error);
      g_autofree char *plain = dyn_value_to_plain_json_string (item);
      g_autoptr(DynValue) back = dyn_item_from_plain_json_string (plain, -1, &error);
      g_autofree char *ddb1 = NULL, *ddb2 = NULL;

      g_assert_no_error (error);
      ddb1 = dyn_item_to_ddb_json_string (item);
      ddb2 = dyn_item_to_ddb_json_string (back);
      g_assert_cmpstr (ddb1, ==, ddb2);
    }

  /* From a json-glib node (numbers were already doubles there). */
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"a\":0.1,\"b\":42,\"c\":{\"$set\":[\"x\"]},\"d\":[null]}", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_value_from_plain_json (node, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (v, "a")), ==, "0.1");
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (v, "b")), ==, "42");
    g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (v, "c")), ==, DYN_VALUE_SS);
  }
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"a\":{\"b\":[1,{\"$set\":[]}]}}", NULL);
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_value_from_plain_json (node, &error);
    g_assert_null (v);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
    g_assert_true (g_str_has_prefix (error->message, "a.b[1]: "));
  }
}

static void
test_plain_errors (void)
{
  assert_plain_error ("{\"a\":1e999}", "a: invalid number \"1e999\": exponent out of range");
  assert_plain_error ("{\"a\":{\"$set\":[]}}", "must not be empty");
  assert_plain_error ("{\"a\":{\"$set\":[1,\"x\"]}}", "all strings, all numbers");
  assert_plain_error ("{\"a\":{\"$set\":[[1]]}}", "all strings, all numbers");
  assert_plain_error ("{\"a\":{\"$set\":[\"x\",\"x\"]}}", "more than once");
  assert_plain_error ("{\"a\":{\"$binary\":\"!!\"}}", "invalid base64");
  assert_plain_error ("{\"a\":{\"$binary\":\"YQ==\",\"b\":1}}", "exactly one member");
  assert_plain_error ("{\"a\":{\"$number\":1}}", "$number must be a string");
  assert_plain_error ("{\"a\":{\"$number\":\"abc\"}}", "not a decimal number");
  assert_plain_error ("{\"a\":+1}", "unexpected character '+'");
  assert_plain_error ("{\"a\":.5}", "unexpected character '.'");
  assert_plain_error ("{\"a\":NaN}", "unexpected character 'N'");
  assert_plain_error ("{\"a\":1,\"a\":2}", "duplicate attribute name");
  assert_plain_error ("{\"a\":[1,2,", "truncated JSON");
  {
    g_autoptr(GString) deep = g_string_new (NULL);
    for (int i = 0; i < 10000; i++)
      g_string_append (deep, "{\"a\":");
    assert_plain_error (deep->str, "nested deeper than");
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_item_from_plain_json_string ("[1]", -1, &error);
    g_assert_null (v);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  }
}

/* client/'s value and JSON errors come out in the user's language, also the
 * parts the parser only looks up when it fails ("a string", "',' or '}'").
 * Runs in a subprocess, which keeps the language. */
static void
test_errors_translated (gconstpointer data)
{
  const char *language = data;
  gboolean german = g_str_equal (language, "de");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) v = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *bad_items = "{\"Items\":[{\"a\":{\"S\":\"1\"}},{\"price\":{\"N\":5}}]}";

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  dyn_test_use_translations (language);

  v = dyn_value_new_number ("1E+200", &error);
  g_assert_null (v);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==,
                   german ? "ungültige Zahl \"1E+200\": Exponent außerhalb des Bereichs (der Betrag darf "
                            "9.9999999999999999999999999999999999999E+125 nicht überschreiten)"
                          : "geçersiz sayı \"1E+200\": üs aralık dışında (büyüklük "
                            "9.9999999999999999999999999999999999999E+125 değerini aşmamalı)");
  g_clear_error (&error);

  node = dyn_json_parse_response (bad_items, strlen (bad_items), NULL, &error);
  g_assert_null (node);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_cmpstr (error->message, ==,
                   german ? "Items[1].price: N muss eine Zeichenkette sein, nicht eine Zahl (bei Byte 40)"
                          : "Items[1].price: N, bir dizge olmalı; bir sayı değil (40. bayt)");
  g_clear_error (&error);

  v = dyn_item_from_ddb_json_string ("{\"a\":{\"S\":\"x\"} \"b\"}", -1, &error);
  g_assert_null (v);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_cmpstr (error->message, ==,
                   german ? "unerwartetes Zeichen '\"' bei Byte 15, erwartet wurde ',' oder '}'"
                          : "15. baytta beklenmeyen '\"' karakteri, ',' ya da '}' bekleniyordu");
}

static void
test_equal_compare (void)
{
  g_autoptr(DynValue) n1 = num ("1.0");
  g_autoptr(DynValue) n2 = num ("1");
  g_autoptr(DynValue) n3 = num ("-2");
  g_autoptr(DynValue) sa = dyn_value_new_string ("a");
  g_autoptr(DynValue) sb = dyn_value_new_string ("b");
  g_autoptr(DynValue) sab = dyn_value_new_string ("ab");
  g_autoptr(DynValue) su = dyn_value_new_string ("\xc3\xa9");   /* é sorts after z by bytes */
  g_autoptr(DynValue) sz = dyn_value_new_string ("z");
  g_autoptr(GBytes) b00 = g_bytes_new ("\x00", 1);
  g_autoptr(GBytes) bff = g_bytes_new ("\xff", 1);
  g_autoptr(DynValue) v00 = dyn_value_new_binary (b00);
  g_autoptr(DynValue) vff = dyn_value_new_binary (bff);
  g_autoptr(DynValue) set1 = ddb ("{\"NS\":[\"1\",\"2\",\"3\"]}");
  g_autoptr(DynValue) set2 = ddb ("{\"NS\":[\"3.0\",\"1\",\"2\"]}");
  g_autoptr(DynValue) set3 = ddb ("{\"NS\":[\"3\",\"1\",\"4\"]}");
  g_autoptr(DynValue) m1 = ddb ("{\"M\":{\"a\":{\"N\":\"1\"},\"b\":{\"SS\":[\"x\",\"y\"]}}}");
  g_autoptr(DynValue) m2 = ddb ("{\"M\":{\"b\":{\"SS\":[\"y\",\"x\"]},\"a\":{\"N\":\"1.00\"}}}");
  g_autoptr(DynValue) m3 = ddb ("{\"M\":{\"b\":{\"SS\":[\"y\",\"x\"]},\"a\":{\"N\":\"2\"}}}");
  g_autoptr(DynValue) l1 = ddb ("{\"L\":[{\"N\":\"1\"},{\"S\":\"a\"}]}");
  g_autoptr(DynValue) l2 = ddb ("{\"L\":[{\"S\":\"a\"},{\"N\":\"1\"}]}");

  g_assert_true (dyn_value_equal (n1, n2));
  g_assert_cmpint (dyn_value_compare (n1, n2), ==, 0);
  g_assert_cmpint (dyn_value_compare (n3, n2), <, 0);
  g_assert_false (dyn_value_equal (n1, sa));
  g_assert_cmpint (dyn_value_compare (sa, sb), <, 0);
  g_assert_cmpint (dyn_value_compare (sa, sab), <, 0);
  g_assert_cmpint (dyn_value_compare (sz, su), <, 0);
  g_assert_cmpint (dyn_value_compare (v00, vff), <, 0);
  g_assert_cmpint (dyn_value_compare (vff, v00), >, 0);
  g_assert_true (dyn_value_equal (set1, set2));
  g_assert_false (dyn_value_equal (set1, set3));
  g_assert_true (dyn_value_equal (m1, m2));
  g_assert_false (dyn_value_equal (m1, m3));
  g_assert_false (dyn_value_equal (l1, l2));
  g_assert_cmpint (dyn_value_compare (l1, l1), ==, 0);
  {
    g_autoptr(DynValue) t = dyn_value_new_bool (TRUE);
    g_autoptr(DynValue) f = dyn_value_new_bool (FALSE);
    g_autoptr(DynValue) n = dyn_value_new_null ();
    g_autoptr(DynValue) n0 = dyn_value_new_null ();
    g_assert_false (dyn_value_equal (t, f));
    g_assert_cmpint (dyn_value_compare (f, t), <, 0);
    g_assert_true (dyn_value_equal (n, n0));
  }

  /* Big maps and sets compare through their hash paths. */
  {
    g_autoptr(GString) a = g_string_new ("{\"M\":{");
    g_autoptr(GString) b = g_string_new ("{\"M\":{");
    g_autoptr(GString) sa_ = g_string_new ("{\"SS\":[");
    g_autoptr(GString) sb_ = g_string_new ("{\"SS\":[");
    g_autoptr(DynValue) va = NULL, vb = NULL, vsa = NULL, vsb = NULL;
    for (int i = 0; i < 50; i++)
      {
        g_string_append_printf (a, "%s\"k%d\":{\"N\":\"%d\"}", i ? "," : "", i, i);
        g_string_append_printf (b, "%s\"k%d\":{\"N\":\"%d.0\"}", i ? "," : "", 49 - i, 49 - i);
        g_string_append_printf (sa_, "%s\"%d\"", i ? "," : "", i);
        g_string_append_printf (sb_, "%s\"%d\"", i ? "," : "", 49 - i);
      }
    g_string_append (a, "}}");
    g_string_append (b, "}}");
    g_string_append (sa_, "]}");
    g_string_append (sb_, "]}");
    va = ddb (a->str);
    vb = ddb (b->str);
    vsa = ddb (sa_->str);
    vsb = ddb (sb_->str);
    g_assert_true (dyn_value_equal (va, vb));
    g_assert_true (dyn_value_equal (vsa, vsb));
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (va, "k33")), ==, "33");
  }
}

static void
test_size (void)
{
  g_autoptr(DynValue) shirt = dyn_item_from_ddb_json_string (
    "{\"shirt-color\":{\"S\":\"R\"},\"shirt-size\":{\"S\":\"M\"}}", -1, NULL);
  g_autoptr(DynValue) n = num ("123.4500");       /* 5 significant digits */
  g_autoptr(DynValue) z = num ("0");
  g_autoptr(DynValue) l = ddb ("{\"L\":[{\"S\":\"ab\"},{\"BOOL\":true}]}");
  g_autoptr(DynValue) m = ddb ("{\"M\":{\"k\":{\"NULL\":true}}}");
  g_autoptr(DynValue) ss = ddb ("{\"SS\":[\"ab\",\"c\"]}");
  g_autoptr(DynValue) ns = ddb ("{\"NS\":[\"1\",\"12345\"]}");
  g_autoptr(DynValue) bs = ddb ("{\"BS\":[\"YQ==\",\"YWI=\"]}");
  g_autoptr(DynValue) b = ddb ("{\"B\":\"AP8Q\"}");
  g_autoptr(DynValue) s = dyn_value_new_string ("é");

  g_assert_cmpuint (dyn_item_size (shirt), ==, 23);
  g_assert_cmpuint (dyn_value_size (n), ==, 4);     /* 3 bytes for 5 digits + 1 */
  g_assert_cmpuint (dyn_value_size (z), ==, 2);
  g_assert_cmpuint (dyn_value_size (l), ==, 3 + (2 + 1) + (1 + 1));
  g_assert_cmpuint (dyn_value_size (m), ==, 3 + 1 + 1 + 1);
  g_assert_cmpuint (dyn_value_size (ss), ==, 3);
  g_assert_cmpuint (dyn_value_size (ns), ==, 2 + 4);
  g_assert_cmpuint (dyn_value_size (bs), ==, 3);
  g_assert_cmpuint (dyn_value_size (b), ==, 3);
  g_assert_cmpuint (dyn_value_size (s), ==, 2);
  {
    g_autoptr(DynValue) empty = dyn_value_new_map ();
    g_assert_cmpuint (dyn_item_size (empty), ==, 0);
    g_assert_cmpuint (dyn_value_size (empty), ==, 3);
  }
}

/* A decoded item holds its strings and numbers in its own allocation (see
 * dyn-value-private.h): a member taken out lives on after the item is
 * dropped, and changing the item keeps every other member right. */
static void
test_packed_members (void)
{
  static const char json[] = "{\"PK\":{\"S\":\"USER#1\"},\"n\":{\"N\":\"12345678901234567890.5\"},"
                             "\"e\":{\"S\":\"\"},\"b\":{\"BOOL\":true},\"m\":{\"M\":{\"x\":{\"S\":\"inner\"}}},"
                             "\"z\":{\"S\":\"a\\u0000b\"}}";
  g_autoptr(GError) error = NULL;
  DynValue *item = dyn_json_decode_ddb_item (json, strlen (json), &error);
  DynValue *pk, *n, *inner, *copy;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (item);
  pk = dyn_value_ref (dyn_value_map_lookup (item, "PK"));
  n = dyn_value_ref (dyn_value_map_lookup (item, "n"));
  inner = dyn_value_ref (dyn_value_map_lookup (dyn_value_map_lookup (item, "m"), "x"));
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "e")), ==, "");
  g_assert_cmpuint (dyn_value_get_string_length (dyn_value_map_lookup (item, "z")), ==, 3);
  g_assert_cmpint (memcmp (dyn_value_get_string (dyn_value_map_lookup (item, "z")), "a\0b", 3), ==, 0);

  /* The item is the same after a round trip through its text. */
  text = dyn_item_to_ddb_json_string (item);
  copy = dyn_json_decode_ddb_item (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_true (dyn_value_equal (copy, item));
  dyn_value_unref (item);

  /* The members taken out outlive the item. */
  g_assert_cmpstr (dyn_value_get_string (pk), ==, "USER#1");
  g_assert_cmpstr (dyn_value_get_number (n), ==, "12345678901234567890.5");
  g_assert_cmpstr (dyn_value_get_string (inner), ==, "inner");
  dyn_value_unref (pk);
  dyn_value_unref (inner);

  /* Changing a decoded item (replace, add, remove) leaves the rest. */
  g_assert_true (dyn_value_map_remove (copy, "e"));
  dyn_value_map_take (copy, "PK", dyn_value_new_string ("USER#2"));
  dyn_value_map_take (copy, "added", dyn_value_new_string ("new"));
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (copy, "PK")), ==, "USER#2");
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (copy, "n")), ==, "12345678901234567890.5");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (copy, "added")), ==, "new");
  g_assert_null (dyn_value_map_lookup (copy, "e"));
  dyn_value_unref (copy);
  g_assert_cmpstr (dyn_value_get_number (n), ==, "12345678901234567890.5");
  dyn_value_unref (n);

  /* The same on a decoded item itself (nobody else holds it). */
  item = dyn_json_decode_ddb_item (json, strlen (json), &error);
  g_assert_no_error (error);
  dyn_value_map_take (item, "n", dyn_value_new_string ("replaced"));
  g_assert_true (dyn_value_map_remove (item, "PK"));
  dyn_value_map_take (item, "q", dyn_value_new_bool (FALSE));
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "n")), ==, "replaced");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "e")), ==, "");
  g_assert_cmpstr (dyn_value_map_get_name (item, 0), ==, "n");
  dyn_value_unref (item);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/value/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/value/packed-members", test_packed_members);
  g_test_add_func ("/dyn/value/type-names", test_type_names);
  g_test_add_func ("/dyn/value/number-validate", test_number_validate);
  g_test_add_func ("/dyn/value/number-compare", test_number_compare);
  g_test_add_func ("/dyn/value/number-canonicalize", test_number_canonicalize);
  g_test_add_func ("/dyn/value/scalars", test_scalars);
  g_test_add_func ("/dyn/value/sets", test_sets);
  g_test_add_func ("/dyn/value/map-list", test_map_list);
  g_test_add_func ("/dyn/value/ddb-roundtrip", test_ddb_roundtrip);
  g_test_add_func ("/dyn/value/ddb-errors", test_ddb_errors);
  g_test_add_func ("/dyn/value/empty-member-name", test_empty_member_name);
  g_test_add_func ("/dyn/value/ddb-items-array", test_ddb_items_array);
  g_test_add_func ("/dyn/value/empty-containers", test_empty_containers);
  g_test_add_func ("/dyn/value/nesting-limits-agree", test_nesting_limits_agree);
  g_test_add_func ("/dyn/value/parse-response", test_parse_response);
  g_test_add_func ("/dyn/value/json-parse", test_json_parse);
  g_test_add_func ("/dyn/value/plain-roundtrip", test_plain_roundtrip);
  g_test_add_func ("/dyn/value/plain-errors", test_plain_errors);
  g_test_add_data_func ("/dyn/value/errors-translated/de", "de", test_errors_translated);
  g_test_add_data_func ("/dyn/value/errors-translated/tr", "tr", test_errors_translated);
  g_test_add_func ("/dyn/value/equal-compare", test_equal_compare);
  g_test_add_func ("/dyn/value/size", test_size);

  return g_test_run ();
}
