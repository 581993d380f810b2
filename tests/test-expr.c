/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-expr"

#include "config.h"

#include <string.h>

#include "dyn-error.h"
#include "dyn-expr.h"
#include "dyn-read-request.h"
#include "dyn-reserved.h"
#include "dyn-table.h"
#include "dyn-test-util.h"
#include "dyn-multikey-cases.h"

/* ------------------------------------------------------------------------ */
/* Helpers */

static const DynKeySchema projects_keys = { "EntityRef", DYN_VALUE_S, "Detail", DYN_VALUE_S };
static const DynKeySchema numeric_keys = { "PK", DYN_VALUE_S, "Ts", DYN_VALUE_N };

static DynExprNode *
parse_ok (const char  *text,
          DynExprRole  role)
{
  g_autoptr(GError) error = NULL;
  DynExprNode *node = dyn_expr_parse (text, role, NULL, NULL, NULL, &error);

  if (error != NULL)
    g_printerr ("parse failed: %s: %s\n", text, error->message);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

/* Parses and compiles @text alone; returns the expression string. */
static char *
compile_text (const char          *text,
              DynExprRole          role,
              const DynKeySchema  *keys,
              DynExprAliasMode     mode,
              GHashTable         **names,
              GHashTable         **values)
{
  g_autoptr(DynExprNode) node = parse_ok (text, role);
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(GError) error = NULL;
  const char *out;

  dyn_expr_context_set_alias_mode (ctx, mode);
  dyn_expr_context_set_key_schema (ctx, keys);
  out = dyn_expr_context_add (ctx, role, node, &error);
  if (error != NULL)
    g_printerr ("compile failed: %s: %s\n", text, error->message);
  g_assert_no_error (error);
  if (names != NULL)
    *names = dyn_expr_context_dup_names (ctx);
  if (values != NULL)
    *values = dyn_expr_context_dup_values (ctx);
  return g_strdup (out);
}

static void
assert_name (GHashTable *names,
             const char *ph,
             const char *attr)
{
  g_assert_cmpstr (g_hash_table_lookup (names, ph), ==, attr);
}

static void
assert_string_value (GHashTable *values,
                     const char *ph,
                     const char *s)
{
  DynValue *v = g_hash_table_lookup (values, ph);

  g_assert_nonnull (v);
  g_assert_cmpint (dyn_value_get_value_type (v), ==, DYN_VALUE_S);
  g_assert_cmpstr (dyn_value_get_string (v), ==, s);
}

static void
assert_number_value (GHashTable *values,
                     const char *ph,
                     const char *n)
{
  DynValue *v = g_hash_table_lookup (values, ph);

  g_assert_nonnull (v);
  g_assert_cmpint (dyn_value_get_value_type (v), ==, DYN_VALUE_N);
  g_assert_cmpstr (dyn_value_get_number (v), ==, n);
}

/* Expects parsing or rules to fail with a message containing @needle. */
static void
assert_rule_error (const char          *text,
                   DynExprRole          role,
                   const DynKeySchema  *keys,
                   const char          *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprNode) node = dyn_expr_parse (text, role, NULL, NULL, NULL, &error);

  if (node != NULL)
    {
      g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();

      dyn_expr_context_set_key_schema (ctx, keys);
      g_assert_null (dyn_expr_context_add (ctx, role, node, &error));
    }
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  if (strstr (error->message, needle) == NULL)
    g_error ("%s: expected an error containing \"%s\", got \"%s\"", text, needle, error->message);
}

static void
assert_parse_error (const char  *text,
                    DynExprRole  role,
                    const char  *message,
                    glong        offset)
{
  g_autoptr(GError) error = NULL;
  glong got_offset = 0;
  g_autoptr(DynExprNode) node = dyn_expr_parse (text, role, NULL, NULL, &got_offset, &error);

  g_assert_null (node);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  if (message != NULL && strcmp (error->message, message) != 0)
    g_error ("%s: expected \"%s\", got \"%s\"", text, message, error->message);
  g_assert_cmpint (got_offset, ==, offset);
}

/* ------------------------------------------------------------------------ */
/* The seed examples */

static void
test_seed_key_condition (void)
{
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autofree char *out = NULL;
  g_autofree char *again = NULL;
  g_autoptr(DynExprNode) node = NULL;
  g_autoptr(GError) error = NULL;

  out = compile_text ("EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")",
                      DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys, DYN_EXPR_ALIAS_ALWAYS,
                      &names, &values);
  g_assert_cmpstr (out, ==, "#er = :er AND begins_with(#d, :p)");
  g_assert_cmpuint (g_hash_table_size (names), ==, 2);
  assert_name (names, "#er", "EntityRef");
  assert_name (names, "#d", "Detail");
  g_assert_cmpuint (g_hash_table_size (values), ==, 2);
  assert_string_value (values, ":er", "WS#acme");
  assert_string_value (values, ":p", "PROJ#");

  /* The builder output as a user would paste it, with its maps. */
  node = dyn_expr_parse ("#er = :er AND begins_with(#d, :p)", DYN_EXPR_ROLE_KEY_CONDITION,
                         names, values, NULL, &error);
  g_assert_no_error (error);
  again = dyn_expr_compile (node, DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, out);

  /* Lower-case keywords as in the Query docs. */
  g_clear_pointer (&out, g_free);
  out = compile_text ("EntityRef = \"WS#acme\" and begins_with(Detail, \"PROJ#\")",
                      DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys, DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
  g_assert_cmpstr (out, ==, "#er = :er AND begins_with(#d, :p)");
}

static void
test_seed_documents (void)
{
  static const DynKeySchema stu_keys = { "PK", DYN_VALUE_S, "SK", DYN_VALUE_S };
  static const DynKeySchema gsi_keys = { "GSI1PK", DYN_VALUE_S, "GSI1SK", DYN_VALUE_S };
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL, *f = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  const char *dir = g_getenv ("DYN_REFERENCE_DIR");

  /* 001: the student's courses, the roster through GSI1, the enrolment guard. */
  a = compile_text ("PK = \"STU#a91\" AND begins_with(SK, \"ENROLL#\")",
                    DYN_EXPR_ROLE_KEY_CONDITION, &stu_keys, DYN_EXPR_ALIAS_ALWAYS, &names, &values);
  g_assert_cmpstr (a, ==, "#pk = :pk AND begins_with(#sk, :p)");
  assert_string_value (values, ":pk", "STU#a91");
  assert_string_value (values, ":p", "ENROLL#");
  b = compile_text ("GSI1PK = \"CRS#math204\"", DYN_EXPR_ROLE_KEY_CONDITION, &gsi_keys,
                    DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
  g_assert_cmpstr (b, ==, "#gsi1pk = :gsi1pk");
  c = compile_text ("attribute_not_exists(PK)", DYN_EXPR_ROLE_CONDITION, NULL,
                    DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
  g_assert_cmpstr (c, ==, "attribute_not_exists(#pk)");
  d = compile_text ("attribute_not_exists(PK)", DYN_EXPR_ROLE_CONDITION, NULL,
                    DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);
  g_assert_cmpstr (d, ==, "attribute_not_exists(PK)");
  /* 000/004: Query(EntityRef="WS#acme"), GetItem keys. */
  e = compile_text ("EntityRef = \"WS#acme\"", DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys,
                    DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
  g_assert_cmpstr (e, ==, "#er = :er");
  f = compile_text ("EntityRef = \"WS#acme\" AND Detail = \"PROJ#2026-0042\"",
                    DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys, DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
  g_assert_cmpstr (f, ==, "#er = :er AND #d = :d");

  /* The seed text itself still carries these expressions. */
  if (dir != NULL)
    {
      g_autofree char *path = g_build_filename (dir, "..", "seeds", "000_196fba01649b8beb.txt", NULL);
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        g_assert_nonnull (strstr (text, "\"#er = :er AND begins_with(#d, :p)\""));
    }
}

/* ------------------------------------------------------------------------ */
/* EXPRESSIONS.md examples */

typedef struct {
  DynExprRole  role;
  const char  *text;
  const char  *expected;   /* ALIAS_WHEN_NEEDED output */
} Example;

static const Example reference_examples[] = {
  /* §2 paths */
  { DYN_EXPR_ROLE_PROJECTION, "a.b[0].c", "a.b[0].c" },
  { DYN_EXPR_ROLE_PROJECTION, "ThisList[5][11]", "ThisList[5][11]" },
  /* §1 lexical */
  { DYN_EXPR_ROLE_CONDITION, "Alpha_Numeric_123 = :v", "#an123 = :v" },
  { DYN_EXPR_ROLE_CONDITION, "#123 = :123", "#123 = :123" },
  { DYN_EXPR_ROLE_CONDITION, "#_ = :_", "#_ = :_" },
  { DYN_EXPR_ROLE_PROJECTION, "#pr.#1star", "#pr.#1star" },
  /* §3 conditions */
  { DYN_EXPR_ROLE_CONDITION, "size(Brand) <= :v", "size(Brand) <= :v" },
  { DYN_EXPR_ROLE_CONDITION, "a BETWEEN b AND c", "a BETWEEN b AND c" },
  { DYN_EXPR_ROLE_CONDITION, "a IN (b, c, d)", "a IN (b, c, d)" },
  { DYN_EXPR_ROLE_CONDITION, "a = :a OR b = :b AND c = :c", "a = :a OR b = :b AND c = :c" },
  { DYN_EXPR_ROLE_CONDITION, "(a = :a OR b = :b) AND c = :c", "(a = :a OR b = :b) AND c = :c" },
  { DYN_EXPR_ROLE_CONDITION, "attribute_type(a, :type)", "attribute_type(a, :type)" },
  { DYN_EXPR_ROLE_CONDITION, "contains(a, :v)", "contains(a, :v)" },
  { DYN_EXPR_ROLE_CONDITION, "begins_with(a, :p)", "begins_with(a, :p)" },
  /* §4 key conditions (raw form) */
  { DYN_EXPR_ROLE_FILTER, "pk = :v", "pk = :v" },
  { DYN_EXPR_ROLE_FILTER, "sk BETWEEN :a AND :b", "sk BETWEEN :a AND :b" },
  /* §5 updates */
  { DYN_EXPR_ROLE_UPDATE, "SET a=:v", "SET a = :v" },
  { DYN_EXPR_ROLE_UPDATE, "set a=:v", "SET a = :v" },
  { DYN_EXPR_ROLE_UPDATE, "sEt a=:v", "SET a = :v" },
  { DYN_EXPR_ROLE_UPDATE, "SET list[3] = :v", "SET #l[3] = :v" },
  { DYN_EXPR_ROLE_UPDATE, "REMOVE a SET b = a", "REMOVE a SET b = a" },
  { DYN_EXPR_ROLE_UPDATE, "SET a = :v1 + :v2", "SET a = :v1 + :v2" },
  { DYN_EXPR_ROLE_UPDATE, "SET a = if_not_exists(a, :v)", "SET a = if_not_exists(a, :v)" },
  { DYN_EXPR_ROLE_UPDATE, "SET a = list_append(a, :l)", "SET a = list_append(a, :l)" },
  { DYN_EXPR_ROLE_UPDATE, "ADD a :n DELETE s :s", "ADD a :n DELETE s :s" },
  /* §6 projections */
  { DYN_EXPR_ROLE_PROJECTION, "Description, RelatedItems[0], ProductReviews.FiveStar",
    "Description, RelatedItems[0], ProductReviews.FiveStar" },
};

static void
test_reference_examples (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (reference_examples); i++)
    {
      const Example *ex = &reference_examples[i];
      g_autofree char *out = compile_text (ex->text, ex->role, NULL, DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);

      g_assert_cmpstr (out, ==, ex->expected);
    }

  /* Syntax errors the reference lists. */
  assert_rule_error ("SET a = :a + :b + :c", DYN_EXPR_ROLE_UPDATE, NULL, "at most one + or -");
  assert_rule_error ("SET a=:v SET b=:w", DYN_EXPR_ROLE_UPDATE, NULL, "SET clause appears twice");
  assert_rule_error ("SET a=:v REMOVE a SET b=:w", DYN_EXPR_ROLE_UPDATE, NULL, "SET clause appears twice");
  assert_rule_error ("SET :x = a", DYN_EXPR_ROLE_UPDATE, NULL, "left-hand side");
  assert_rule_error ("#", DYN_EXPR_ROLE_PROJECTION, NULL, "placeholder name");
  assert_rule_error ("a[-1]", DYN_EXPR_ROLE_PROJECTION, NULL, "non-negative integer");
  assert_rule_error ("a[0.4]", DYN_EXPR_ROLE_PROJECTION, NULL, "non-negative integer");
  assert_rule_error ("hi-there = :v", DYN_EXPR_ROLE_CONDITION, NULL, "expected a comparison operator");
  assert_rule_error ("123a = :v", DYN_EXPR_ROLE_CONDITION, NULL, "invalid number");
  assert_rule_error ("contains(a, a)", DYN_EXPR_ROLE_CONDITION, NULL, "with itself");
  assert_rule_error ("", DYN_EXPR_ROLE_UPDATE, NULL, "empty");
}

/* ------------------------------------------------------------------------ */
/* Inline literals */

static DynValue *
value_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_expr_parse_value (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

static void
test_literals (void)
{
  g_autoptr(DynValue) s = value_ok ("\"a\\\"b\\u00e9\\n\\ud83d\\ude00\"");
  g_autoptr(DynValue) n = value_ok ("-1.5e3");
  g_autoptr(DynValue) n2 = value_ok ("42");
  g_autoptr(DynValue) t = value_ok ("true");
  g_autoptr(DynValue) nul = value_ok ("null");
  g_autoptr(DynValue) b = value_ok ("b64\"AAEC\"");
  g_autoptr(DynValue) ss = value_ok ("<<\"a\", \"b\">>");
  g_autoptr(DynValue) ns = value_ok ("<<1, -2.5>>");
  g_autoptr(DynValue) bs = value_ok ("<<b64\"AA==\", b64\"AQ==\">>");
  g_autoptr(DynValue) l = value_ok ("[1, \"a\", [true], {}]");
  g_autoptr(DynValue) m = value_ok ("{\"k\": 1, \"n\":{\"x\":null}}");
  const char *literals[] = {
    "\"WS#acme\"", "42", "-1.5e3", "true", "false", "null", "b64\"AAEC\"", "b64\"\"",
    "<<\"a\", \"b\">>", "<<1, 2>>", "<<b64\"AA==\", b64\"AQ==\">>", "[1, \"a\"]", "[]", "{}",
    "{\"k\": 1}", "\"tab\\there\"",
  };
  gsize len = 0;
  const guchar *data;

  g_assert_cmpstr (dyn_value_get_string (s), ==, "a\"b\xc3\xa9\n\xf0\x9f\x98\x80");
  g_assert_cmpstr (dyn_value_get_number (n), ==, "-1.5e3");
  g_assert_cmpstr (dyn_value_get_number (n2), ==, "42");
  g_assert_true (dyn_value_get_bool (t));
  g_assert_cmpint (dyn_value_get_value_type (nul), ==, DYN_VALUE_NULL);
  data = g_bytes_get_data (dyn_value_get_binary (b), &len);
  g_assert_cmpmem (data, len, "\0\1\2", 3);
  g_assert_cmpint (dyn_value_get_value_type (ss), ==, DYN_VALUE_SS);
  g_assert_cmpuint (dyn_value_get_length (ss), ==, 2);
  g_assert_cmpint (dyn_value_get_value_type (ns), ==, DYN_VALUE_NS);
  g_assert_cmpstr (dyn_value_set_get_string (ns, 1), ==, "-2.5");
  g_assert_cmpint (dyn_value_get_value_type (bs), ==, DYN_VALUE_BS);
  g_assert_cmpint (dyn_value_get_value_type (l), ==, DYN_VALUE_L);
  g_assert_cmpuint (dyn_value_get_length (l), ==, 4);
  g_assert_cmpint (dyn_value_get_value_type (m), ==, DYN_VALUE_M);
  g_assert_nonnull (dyn_value_map_lookup (m, "n"));

  /* literal → value → literal is stable. */
  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      g_autoptr(DynValue) v = value_ok (literals[i]);
      g_autofree char *text = dyn_expr_value_to_literal (v);
      g_autoptr(DynValue) v2 = value_ok (text);

      g_assert_true (dyn_value_equal (v, v2));
    }

  /* Errors. */
  {
    const char *bad[] = {
      "<<>>", "<<\"a\", 1>>", "<<\"a\", \"a\">>", "<<1, 1.0>>", "b64\"A\"", "b64\"A=AA\"",
      "1e999", "123456789012345678901234567890123456789", "01x", "\"unterminated",
      "\"bad \\q escape\"", "\"\\ud800\"", "{\"k\" 1}", "{\"k\": 1, \"k\": 2}", "[1,", "- 1",
      "TRUE", "{1: 2}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(DynValue) v = dyn_expr_parse_value (bad[i], &error);

        if (v != NULL)
          g_error ("%s parsed", bad[i]);
        g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
        g_assert_nonnull (strstr (error->message, "at character"));
      }
  }

  /* Inline values in an expression compile to placeholders with the values. */
  {
    g_autoptr(GHashTable) names = NULL;
    g_autoptr(GHashTable) values = NULL;
    g_autofree char *out = compile_text ("Price BETWEEN -1.5e3 AND 42 AND Tags = <<\"a\", \"b\">>",
                                         DYN_EXPR_ROLE_FILTER, NULL, DYN_EXPR_ALIAS_ALWAYS,
                                         &names, &values);

    g_assert_cmpstr (out, ==, "#p BETWEEN :plo AND :phi AND #t = :t");
    assert_number_value (values, ":plo", "-1.5e3");
    assert_number_value (values, ":phi", "42");
  }
}

/* ------------------------------------------------------------------------ */
/* Names */

static void
test_names_and_aliases (void)
{
  static const struct { const char *text; const char *expected; const char *ph; const char *attr; } cases[] = {
    { "EntityRef = 1", "#er = :er", "#er", "EntityRef" },
    { "Detail = 1", "#d = :d", "#d", "Detail" },
    { "Status = 1", "#s = :s", "#s", "Status" },
    { "PK = 1", "#pk = :pk", "#pk", "PK" },
    { "GSI1PK = 1", "#gsi1pk = :gsi1pk", "#gsi1pk", "GSI1PK" },
    { "firstName = 1", "#fn = :fn", "#fn", "firstName" },
    { "`first-name` = 1", "#fn = :fn", "#fn", "first-name" },
    { "HTTPServer = 1", "#hs = :hs", "#hs", "HTTPServer" },
    { "enrolledOn = 1", "#eo = :eo", "#eo", "enrolledOn" },
    { "address2 = 1", "#a2 = :a2", "#a2", "address2" },
    { "`a.b` = 1", "#ab = :ab", "#ab", "a.b" },
    { "`odd``name` = 1", "#on = :on", "#on", "odd`name" },
    { "`with space`.x = 1", "#ws.#x = :x", "#ws", "with space" },
    { "`123` = 1", "#123 = :123", "#123", "123" },
    { "`-` = 1", "#a = :a", "#a", "-" },
    { "`AND` = 1", "#and = :and", "#and", "AND" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GHashTable) names = NULL;
      g_autofree char *out = compile_text (cases[i].text, DYN_EXPR_ROLE_CONDITION, NULL,
                                           DYN_EXPR_ALIAS_ALWAYS, &names, NULL);

      g_assert_cmpstr (out, ==, cases[i].expected);
      assert_name (names, cases[i].ph, cases[i].attr);
    }

  /* Backquoted names print back backquoted. */
  {
    g_autoptr(DynExprNode) node = parse_ok ("`first-name`.`a.b`[2] = \"x\"", DYN_EXPR_ROLE_CONDITION);
    g_autofree char *text = dyn_expr_node_to_string (node);
    g_autoptr(DynExprPath) path = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_cmpstr (text, ==, "`first-name`.`a.b`[2] = \"x\"");
    path = dyn_expr_path_parse ("a.`b c`[3]", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyn_expr_path_get_length (path), ==, 3);
    g_assert_cmpstr (dyn_expr_path_get_name (path, 1, NULL), ==, "b c");
    g_assert_true (dyn_expr_path_is_index (path, 2));
    g_assert_cmpuint (dyn_expr_path_get_index (path, 2), ==, 3);
  }

  /* A keyword must be backquoted to be a name. */
  assert_rule_error ("AND = 1", DYN_EXPR_ROLE_CONDITION, NULL, "found the keyword 'AND' (write `AND` to use it as a name)");
  assert_rule_error ("SET `set` = 1, between = 2", DYN_EXPR_ROLE_UPDATE, NULL, "keyword 'between'");
}

static void
test_reserved_words (void)
{
  g_autoptr(GHashTable) names = NULL;
  g_autofree char *out = NULL;
  guint n = 0;
  const char * const *words = dyn_reserved_words_get (&n);

  g_assert_cmpuint (n, ==, 573);
  g_assert_cmpuint (DYN_RESERVED_WORD_COUNT, ==, 573);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (strcmp (words[i - 1], words[i]), <, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *lower = g_ascii_strdown (words[i], -1);

      g_assert_true (dyn_reserved_word_is_reserved (words[i]));
      g_assert_true (dyn_reserved_word_is_reserved (lower));
    }
  g_assert_true (dyn_reserved_word_is_reserved ("Status"));
  g_assert_true (dyn_reserved_word_is_reserved ("oWnEr"));
  g_assert_false (dyn_reserved_word_is_reserved ("EntityRef"));
  g_assert_false (dyn_reserved_word_is_reserved (""));
  g_assert_false (dyn_reserved_word_is_reserved ("AVeryLongNameThatIsNotReservedAtAll"));

  /* Against the reference list, if present. */
  {
    const char *dir = g_getenv ("DYN_REFERENCE_DIR");
    g_autofree char *path = dir ? g_build_filename (dir, "dynamodb-reserved-words.txt", NULL) : NULL;
    g_autofree char *text = NULL;

    if (path != NULL && g_file_get_contents (path, &text, NULL, NULL))
      {
        g_auto(GStrv) lines = g_strsplit (g_strstrip (text), "\n", -1);

        g_assert_cmpuint (g_strv_length (lines), ==, 573);
        for (guint i = 0; lines[i]; i++)
          g_assert_true (dyn_reserved_word_is_reserved (g_strstrip (lines[i])));
      }
  }

  /* Status, Name, Size, Date, Owner are aliased; plain names stay bare. */
  out = compile_text ("Status = \"open\" AND Name = \"x\" AND Size > 3 AND Date < \"2026\" AND "
                      "attribute_exists(Owner) AND Price > 3 AND size(Name) > 1",
                      DYN_EXPR_ROLE_FILTER, NULL, DYN_EXPR_ALIAS_WHEN_NEEDED, &names, NULL);
  g_assert_cmpstr (out, ==, "#s = :s AND #n = :n AND #s2 > :s2 AND #d < :d AND "
                            "attribute_exists(#o) AND Price > :s2 AND size(#n) > :n2");
  assert_name (names, "#s", "Status");
  assert_name (names, "#n", "Name");
  assert_name (names, "#s2", "Size");
  assert_name (names, "#d", "Date");
  assert_name (names, "#o", "Owner");
  g_assert_cmpuint (g_hash_table_size (names), ==, 5);

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&names, g_hash_table_unref);
  /* Names DynamoDB would not take bare are aliased too. */
  out = compile_text ("a_b = 1 AND `x-y` = 2 AND ok1 = 3 AND _u = 4", DYN_EXPR_ROLE_FILTER, NULL,
                      DYN_EXPR_ALIAS_WHEN_NEEDED, &names, NULL);
  g_assert_cmpstr (out, ==, "#ab = :ab AND #xy = :xy AND ok1 = :o1 AND #u = :u");
}

/* ------------------------------------------------------------------------ */
/* Precedence and parentheses */

static void
test_parentheses (void)
{
  static const struct { const char *in; const char *out; } cases[] = {
    { "a = 1 OR b = 2 AND c = 3", "a = :a OR b = :b AND c = :c" },
    { "(a = 1 OR b = 2) AND c = 3", "(a = :a OR b = :b) AND c = :c" },
    { "((a = 1)) AND ((b = 2))", "a = :a AND b = :b" },
    { "a = 1 AND (b = 2 AND c = 3)", "a = :a AND b = :b AND c = :c" },
    { "a = 1 OR (b = 2 OR c = 3)", "a = :a OR b = :b OR c = :c" },
    { "a = 1 OR (b = 2 AND c = 3)", "a = :a OR b = :b AND c = :c" },
    { "NOT (a = 1 AND b = 2)", "NOT (a = :a AND b = :b)" },
    { "NOT a = 1 AND b = 2", "NOT a = :a AND b = :b" },
    { "NOT (a = 1) OR b = 2", "NOT a = :a OR b = :b" },
    { "NOT NOT a = 1", "NOT NOT a = :a" },
    { "a BETWEEN 1 AND 2 AND b = 3", "a BETWEEN :alo AND :ahi AND b = :b" },
    { "a BETWEEN 1 AND 2 OR b BETWEEN 1 AND 2", "a BETWEEN :alo AND :ahi OR b BETWEEN :alo AND :ahi" },
    { "(a = 1 OR b = 2) AND (c = 3 OR NOT d = 4)", "(a = :a OR b = :b) AND (c = :c OR NOT d = :d)" },
    { "a = 1 AND b = 1", "a = :a AND b = :a" },
    { "a IN (1, 2, 3) and NOT attribute_exists(b)", "a IN (:a, :a2, :a3) AND NOT attribute_exists(b)" },
    { "1 = a", ":a = a" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = compile_text (cases[i].in, DYN_EXPR_ROLE_FILTER, NULL,
                                           DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);

      g_assert_cmpstr (out, ==, cases[i].out);
    }

  /* The AND tree keeps its meaning: a OR b AND c groups as a OR (b AND c). */
  {
    g_autoptr(DynExprNode) node = parse_ok ("a = 1 OR b = 2 AND c = 3", DYN_EXPR_ROLE_FILTER);

    g_assert_cmpint (dyn_expr_node_get_kind (node), ==, DYN_EXPR_OR);
    g_assert_cmpint (dyn_expr_node_get_kind (dyn_expr_node_get_child (node, 1)), ==, DYN_EXPR_AND);
  }
}

/* ------------------------------------------------------------------------ */
/* Error positions */

static void
test_error_positions (void)
{
  assert_parse_error ("(a = 1", DYN_EXPR_ROLE_FILTER, "expected ')' at character 7", 6);
  assert_parse_error ("attribute_exists(Detail AND b = 1", DYN_EXPR_ROLE_FILTER,
                      "expected ')' at character 25", 24);
  assert_parse_error ("a = 1 AND", DYN_EXPR_ROLE_FILTER, "expected a condition at character 10", 9);
  assert_parse_error ("a = 1 b", DYN_EXPR_ROLE_FILTER,
                      "expected AND, OR or the end of the expression at character 7", 6);
  assert_parse_error ("a = 1)", DYN_EXPR_ROLE_FILTER, "unbalanced ')' at character 6", 5);
  assert_parse_error ("a = \"x", DYN_EXPR_ROLE_FILTER, "unterminated string at character 5", 4);
  assert_parse_error ("Größe = \"x\" AND ?", DYN_EXPR_ROLE_FILTER,
                      "unexpected character '?' at character 17", 16);
  assert_parse_error ("SIZE(a) > 1", DYN_EXPR_ROLE_FILTER,
                      "unknown function 'SIZE' (function names are case-sensitive: size) at character 1", 0);
  assert_parse_error ("a = 1 AND Begins_With(a, \"x\")", DYN_EXPR_ROLE_FILTER,
                      "unknown function 'Begins_With' (function names are case-sensitive: begins_with) at character 11", 10);
  assert_parse_error ("frobnicate(a)", DYN_EXPR_ROLE_FILTER, "unknown function 'frobnicate' at character 1", 0);
  assert_parse_error ("a = 1 AND b BETWEEN 1 OR 2", DYN_EXPR_ROLE_FILTER,
                      "expected AND of BETWEEN at character 23", 22);
  assert_parse_error ("SET a = 1 SET b = 2", DYN_EXPR_ROLE_UPDATE,
                      "the SET clause appears twice; list its actions separated by commas at character 11", 10);
  assert_parse_error ("a, b c", DYN_EXPR_ROLE_PROJECTION, "expected ',' at character 6", 5);
  assert_parse_error ("a = 1e999", DYN_EXPR_ROLE_FILTER, NULL, 4);
}

static void
test_placeholders_maps (void)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                        (GDestroyNotify) dyn_value_unref);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprNode) node = NULL;
  glong offset = 0;

  g_hash_table_insert (names, "#s", "Status");
  g_hash_table_insert (values, ":v", dyn_value_new_string ("open"));

  node = dyn_expr_parse ("#s = :v AND #t = :v", DYN_EXPR_ROLE_FILTER, names, values, &offset, &error);
  g_assert_null (node);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  g_assert_cmpstr (error->message, ==,
                   "the name placeholder #t is not defined in ExpressionAttributeNames at character 13");
  g_assert_cmpint (offset, ==, 12);
  g_clear_error (&error);

  node = dyn_expr_parse ("#s = :w", DYN_EXPR_ROLE_FILTER, names, values, &offset, &error);
  g_assert_null (node);
  g_assert_nonnull (strstr (error->message, ":w is not defined"));
  g_clear_error (&error);

  /* Too-long placeholder tokens. */
  {
    g_autofree char *longname = g_strnfill (300, 'x');
    g_autofree char *text = g_strdup_printf ("#%s = :v", longname);

    node = dyn_expr_parse (text, DYN_EXPR_ROLE_FILTER, NULL, NULL, NULL, &error);
    g_assert_null (node);
    g_assert_nonnull (strstr (error->message, "longer than 255 bytes"));
    g_clear_error (&error);
  }

  /* Request-level check on raw text. */
  {
    const char *ok[] = { "#s = :v", "#s, b", NULL };
    const char *unused[] = { "b = :v", NULL };
    const char *undefined[] = { "#s = :v AND #x = :v", NULL };
    const char *undefined_value[] = { "#s = :zz", NULL };

    g_assert_true (dyn_expr_check_placeholders (ok, names, values, &error));
    g_assert_no_error (error);
    g_assert_false (dyn_expr_check_placeholders (unused, names, values, &error));
    g_assert_cmpstr (error->message, ==, "ExpressionAttributeNames has entries no expression uses: #s");
    g_clear_error (&error);
    g_assert_false (dyn_expr_check_placeholders (undefined, names, values, &error));
    g_assert_cmpstr (error->message, ==, "the name placeholder #x is not defined in ExpressionAttributeNames");
    g_clear_error (&error);
    g_assert_false (dyn_expr_check_placeholders (undefined_value, names, NULL, &error));
    g_assert_nonnull (strstr (error->message, ":zz is not defined"));
    g_clear_error (&error);
    g_assert_false (dyn_expr_check_placeholders (unused, NULL, NULL, &error));
    g_clear_error (&error);
  }

  /* Unresolved placeholders compile verbatim; generated ones avoid them. */
  {
    g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
    g_autoptr(DynExprNode) raw = parse_ok ("#s = :s", DYN_EXPR_ROLE_CONDITION);
    g_autoptr(DynExprNode) upd = parse_ok ("SET Status = \"x\", Size = 2", DYN_EXPR_ROLE_UPDATE);
    g_autoptr(DynExprNode) late = parse_ok ("#s2 = :s", DYN_EXPR_ROLE_FILTER);

    g_assert_cmpstr (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_CONDITION, raw, &error), ==, "#s = :s");
    g_assert_cmpstr (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_UPDATE, upd, &error), ==,
                     "SET #s2 = :s2, #s3 = :s3");
    g_assert_no_error (error);
    /* A verbatim #s2 after #s2 was generated cannot be told apart. */
    g_assert_null (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_FILTER, late, &error));
    g_assert_nonnull (strstr (error->message, "collides"));
    g_clear_error (&error);
    g_assert_cmpuint (dyn_expr_context_get_n_names (ctx), ==, 2);
  }
}

/* ------------------------------------------------------------------------ */
/* Rules */

static void
test_key_condition_rules (void)
{
  const DynKeySchema *k = &projects_keys;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprNode) node = parse_ok ("EntityRef = \"a\"", DYN_EXPR_ROLE_KEY_CONDITION);

  assert_rule_error ("Detail = \"x\"", DYN_EXPR_ROLE_KEY_CONDITION, k,
                     "needs an equality on the partition key EntityRef");
  assert_rule_error ("EntityRef = \"a\" OR Detail = \"b\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "cannot use OR");
  assert_rule_error ("NOT EntityRef = \"a\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "cannot use NOT");
  assert_rule_error ("EntityRef IN (\"a\")", DYN_EXPR_ROLE_KEY_CONDITION, k, "cannot use IN");
  assert_rule_error ("EntityRef <> \"a\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "cannot use <>");
  assert_rule_error ("EntityRef > \"a\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "must be compared with =");
  assert_rule_error ("EntityRef = \"a\" AND EntityRef = \"b\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "used twice");
  assert_rule_error ("EntityRef = \"a\" AND Detail > \"a\" AND Detail < \"z\"",
                     DYN_EXPR_ROLE_KEY_CONDITION, k, "one condition on the sort key Detail");
  assert_rule_error ("EntityRef = \"a\" AND Other = 1", DYN_EXPR_ROLE_KEY_CONDITION, k,
                     "Other is not a key attribute");
  assert_rule_error ("EntityRef.x = \"a\"", DYN_EXPR_ROLE_KEY_CONDITION, k, "nested paths");
  assert_rule_error ("EntityRef = \"a\" AND contains(Detail, \"x\")", DYN_EXPR_ROLE_KEY_CONDITION, k,
                     "allows only");
  assert_rule_error ("EntityRef = \"a\" AND attribute_exists(Detail)", DYN_EXPR_ROLE_KEY_CONDITION, k,
                     "allows only");
  assert_rule_error ("EntityRef = \"a\" AND size(Detail) > 1", DYN_EXPR_ROLE_KEY_CONDITION, k, "size()");
  assert_rule_error ("EntityRef = 5", DYN_EXPR_ROLE_KEY_CONDITION, k, "is a string, but the value is of type N");
  assert_rule_error ("EntityRef = Detail", DYN_EXPR_ROLE_KEY_CONDITION, k, "with a value");
  assert_rule_error ("PK = \"a\" AND begins_with(Ts, \"1\")", DYN_EXPR_ROLE_KEY_CONDITION, &numeric_keys,
                     "begins_with cannot be used on the number sort key Ts");

  /* Allowed forms. */
  {
    const char *ok[] = {
      "EntityRef = \"a\"", "EntityRef = \"a\" AND Detail = \"m\"", "EntityRef = \"a\" AND Detail < \"m\"",
      "EntityRef = \"a\" AND Detail <= \"m\"", "EntityRef = \"a\" AND Detail > \"m\"",
      "EntityRef = \"a\" AND Detail >= \"m\"", "EntityRef = \"a\" AND Detail BETWEEN \"a\" AND \"z\"",
      "begins_with(Detail, \"P\") AND EntityRef = \"a\"", "\"a\" = EntityRef", "(EntityRef = \"a\")",
      "#pk = :v",
    };

    for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
      {
        g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
        g_autoptr(DynExprNode) n = NULL;

        g_hash_table_insert (names, "#pk", "EntityRef");
        n = dyn_expr_parse (ok[i], DYN_EXPR_ROLE_KEY_CONDITION, names, NULL, NULL, &error);
        g_assert_no_error (error);
        if (!dyn_expr_validate (n, DYN_EXPR_ROLE_KEY_CONDITION, k, &error))
          g_error ("%s: %s", ok[i], error->message);
      }
  }
  {
    g_autoptr(DynExprNode) n = parse_ok ("PK = \"a\" AND Ts BETWEEN 1 AND 5", DYN_EXPR_ROLE_KEY_CONDITION);

    g_assert_true (dyn_expr_validate (n, DYN_EXPR_ROLE_KEY_CONDITION, &numeric_keys, NULL));
  }

  /* Without a key schema a key condition cannot be checked. */
  g_assert_false (dyn_expr_validate (node, DYN_EXPR_ROLE_KEY_CONDITION, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
}

/* ------------------------------------------------------------------------ */
/* Multi-attribute keys of global secondary indexes (issue 10)
 *
 * The table of tests/dyn-multikey-cases.h; test-cli.c checks the same
 * verdicts against DynamoDB Local. */

static DynTableKeys *
multikey_table (void)
{
  g_autofree char *json = g_strdup_printf (DYN_MULTIKEY_TABLE_JSON, "Orders");
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  DynTableKeys *keys;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_node_get_object (node), &error);
  g_assert_no_error (error);
  g_assert_nonnull (keys);
  return keys;
}

static GHashTable *
multikey_values (void)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);

  g_hash_table_insert (values, g_strdup (":s"), dyn_value_new_string ("x"));
  g_hash_table_insert (values, g_strdup (":t"), dyn_value_new_string ("y"));
  g_hash_table_insert (values, g_strdup (":n"), dyn_value_new_number ("1", NULL));
  g_hash_table_insert (values, g_strdup (":m"), dyn_value_new_number ("2", NULL));
  return values;
}

static void
assert_key_attribute (const DynKeySchema *keys,
                      gboolean            sort,
                      guint               i,
                      const char         *name,
                      DynValueType        type)
{
  DynValueType got = DYN_VALUE_NULL;
  const char *n = sort ? dyn_key_schema_get_sort_key (keys, i, &got) : dyn_key_schema_get_partition_key (keys, i, &got);

  g_assert_cmpstr (n, ==, name);
  g_assert_cmpint (got, ==, type);
}

/* DescribeTable's KeySchema with several HASH and RANGE attributes, in order. */
static void
test_multikey_schema (void)
{
  g_autoptr(DynTableKeys) keys = multikey_table ();
  g_autoptr(DynTableKeys) copy = NULL;
  const DynIndexInfo *tenant, *wide, *kind;
  DynKeySchema built = { 0 };
  g_autofree char *names = NULL;

  g_assert_false (dyn_key_schema_is_multi_attribute (&keys->table.keys));
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&keys->table.keys), ==, 1);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&keys->table.keys), ==, 1);

  tenant = dyn_table_keys_lookup (keys, "ByTenant");
  g_assert_nonnull (tenant);
  g_assert_true (dyn_key_schema_is_multi_attribute (&tenant->keys));
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&tenant->keys), ==, 2);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&tenant->keys), ==, 3);
  assert_key_attribute (&tenant->keys, FALSE, 0, "tenant", DYN_VALUE_S);
  assert_key_attribute (&tenant->keys, FALSE, 1, "site", DYN_VALUE_N);
  assert_key_attribute (&tenant->keys, TRUE, 0, "kind", DYN_VALUE_S);
  assert_key_attribute (&tenant->keys, TRUE, 1, "seq", DYN_VALUE_N);
  assert_key_attribute (&tenant->keys, TRUE, 2, "tag", DYN_VALUE_S);
  g_assert_null (dyn_key_schema_get_sort_key (&tenant->keys, 3, NULL));
  /* The first attributes stay where single-attribute callers look. */
  g_assert_cmpstr (tenant->keys.partition_key, ==, "tenant");
  g_assert_cmpstr (tenant->keys.sort_key, ==, "kind");
  names = dyn_key_schema_join_names (&tenant->keys, FALSE);
  g_assert_cmpstr (names, ==, "tenant, site");
  {
    gboolean is_sort = FALSE;
    guint position = 0;
    DynValueType type = DYN_VALUE_S;

    g_assert_true (dyn_key_schema_find (&tenant->keys, "seq", &is_sort, &position, &type));
    g_assert_true (is_sort);
    g_assert_cmpuint (position, ==, 1);
    g_assert_cmpint (type, ==, DYN_VALUE_N);
    g_assert_false (dyn_key_schema_has_attribute (&tenant->keys, "pk"));
  }

  wide = dyn_table_keys_lookup (keys, "Wide");
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&wide->keys), ==, 4);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&wide->keys), ==, 4);
  assert_key_attribute (&wide->keys, FALSE, 3, "h4", DYN_VALUE_S);
  assert_key_attribute (&wide->keys, TRUE, 3, "r4", DYN_VALUE_S);
  g_assert_cmpint (wide->projection, ==, DYN_PROJECTION_KEYS_ONLY);
  kind = dyn_table_keys_lookup (keys, "ByKind");
  g_assert_false (dyn_key_schema_is_multi_attribute (&kind->keys));

  /* Copies keep every attribute. */
  copy = dyn_table_keys_copy (keys);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&dyn_table_keys_lookup (copy, "ByTenant")->keys), ==, 3);
  assert_key_attribute (&dyn_table_keys_lookup (copy, "Wide")->keys, FALSE, 2, "h3", DYN_VALUE_S);
  g_assert_true (dyn_key_schema_same_partition (&dyn_table_keys_lookup (copy, "ByTenant")->keys, &tenant->keys));
  g_assert_false (dyn_key_schema_same_partition (&wide->keys, &tenant->keys));

  /* At most four of each kind. */
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *h = g_strdup_printf ("h%u", i);

      g_assert_true (dyn_key_schema_append (&built, FALSE, h, DYN_VALUE_S));
    }
  g_assert_false (dyn_key_schema_append (&built, FALSE, "h4", DYN_VALUE_S));
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&built), ==, 4);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&built), ==, 0);
  dyn_key_schema_clear (&built);

  /* DescribeTable answers that break DynamoDB's rules. */
  {
    const char *bad[] = {
      /* five HASH attributes */
      "{\"TableName\": \"t\", \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"},"
      " {\"AttributeName\": \"a\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"b\", \"AttributeType\": \"S\"},"
      " {\"AttributeName\": \"c\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"d\", \"AttributeType\": \"S\"},"
      " {\"AttributeName\": \"e\", \"AttributeType\": \"S\"}],"
      " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}],"
      " \"GlobalSecondaryIndexes\": [{\"IndexName\": \"G5\", \"KeySchema\": ["
      "  {\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"b\", \"KeyType\": \"HASH\"},"
      "  {\"AttributeName\": \"c\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"d\", \"KeyType\": \"HASH\"},"
      "  {\"AttributeName\": \"e\", \"KeyType\": \"HASH\"}]}]}",
      /* a table with two HASH attributes */
      "{\"TableName\": \"t\", \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"},"
      " {\"AttributeName\": \"a\", \"AttributeType\": \"S\"}],"
      " \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}]}",
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(JsonNode) node = json_from_string (bad[i], NULL);
        g_autoptr(GError) error = NULL;
        g_autoptr(DynTableKeys) k = dyn_table_keys_from_description (json_node_get_object (node), &error);

        g_assert_null (k);
        g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
      }
  }
}

/* Every case of dyn-multikey-cases.h: DynamoDB's verdict, with the reason
 * and the position of what is wrong. */
static void
test_multikey_key_conditions (void)
{
  g_autoptr(DynTableKeys) keys = multikey_table ();
  g_autoptr(GHashTable) values = multikey_values ();

  for (guint i = 0; i < G_N_ELEMENTS (dyn_multikey_cases); i++)
    {
      const DynMultiKeyCase *c = &dyn_multikey_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(DynExprNode) node = dyn_expr_parse (c->condition, DYN_EXPR_ROLE_KEY_CONDITION, NULL, values,
                                                    NULL, &error);
      const DynIndexInfo *info = dyn_table_keys_lookup (keys, c->index);
      gboolean ok;

      g_assert_no_error (error);
      g_assert_nonnull (info);
      ok = dyn_expr_validate_key_condition (keys, c->index, node, &error);
      if (c->refusal == NULL)
        {
          if (!ok)
            g_error ("%s on %s: refused: %s", c->condition, c->index, error->message);
          /* The same through the key schema alone. */
          g_assert_true (dyn_expr_validate (node, DYN_EXPR_ROLE_KEY_CONDITION, &info->keys, NULL));
          continue;
        }
      if (ok)
        g_error ("%s on %s: accepted, DynamoDB refuses it", c->condition, c->index);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
      if (strstr (error->message, c->refusal) == NULL)
        g_error ("%s on %s: expected \"%s\", got \"%s\"", c->condition, c->index, c->refusal, error->message);
      {
        glong offset = c->at ? (glong) (strstr (c->condition, c->at) - c->condition) : 0;
        g_autofree char *where = g_strdup_printf ("at character %ld", offset + 1);

        if (!g_str_has_suffix (error->message, where))
          g_error ("%s on %s: expected the error %s, got \"%s\"", c->condition, c->index, where, error->message);
      }
      g_clear_error (&error);
      g_assert_false (dyn_expr_validate (node, DYN_EXPR_ROLE_KEY_CONDITION, &info->keys, &error));
      g_assert_nonnull (strstr (error->message, c->refusal));
    }

  /* A Query's filter may name none of the index's key attributes: DynamoDB
   * refuses the sort attributes the key condition leaves out, too. */
  {
    const DynIndexInfo *info = dyn_table_keys_lookup (keys, "ByTenant");
    g_autoptr(DynExprNode) filter = parse_ok ("tag = \"x\" AND note = 1", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprNode) table_key = parse_ok ("pk = \"x\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(GError) error = NULL;

    g_assert_false (dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, &info->keys, &error));
    g_assert_nonnull (strstr (error->message, "cannot use the key attribute tag"));
    g_assert_true (dyn_expr_validate (table_key, DYN_EXPR_ROLE_FILTER, &info->keys, NULL));
  }
}

/* The planner: a Query on a multi-attribute index when the condition has an
 * equality on each partition attribute, as many sort attributes as fit. */
static void
test_multikey_plan (void)
{
  g_autoptr(DynTableKeys) keys = multikey_table ();
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(DynExprNode) c = parse_ok ("note = \"n\" AND seq > 5 AND site = 1 AND kind = \"order\" AND "
                                         "tenant = \"acme\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, "ByTenant", c, &error);
    g_autofree char *kc = NULL, *filter = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (plan->index_name, ==, "ByTenant");
    kc = dyn_expr_node_to_string (plan->key_condition);
    filter = dyn_expr_node_to_string (plan->filter);
    g_assert_cmpstr (kc, ==, "tenant = \"acme\" AND site = 1 AND kind = \"order\" AND seq > 5");
    g_assert_cmpstr (filter, ==, "note = \"n\"");
    g_assert_cmpstr (plan->reason, ==, "Query on index ByTenant: partition key tenant = \"acme\" AND site = 1, "
                                       "sort key kind = \"order\" AND seq > 5");
    g_assert_true (dyn_expr_validate_key_condition (keys, "ByTenant", plan->key_condition, NULL));
  }
  /* Only the partition attributes: the sort attributes need kind first. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("tenant = \"acme\" AND site = 1", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, "ByTenant", c, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_null (plan->filter);
    g_assert_cmpstr (plan->reason, ==, "Query on index ByTenant: partition key tenant = \"acme\" AND site = 1");
  }
  /* seq without kind cannot be in the key condition, and a Query's filter may
   * not name it: a Scan, and DynamoDB would say the same. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("tenant = \"acme\" AND site = 1 AND seq > 5", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, "ByTenant", c, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: the conditions on the keys of index ByTenant do not fit one key "
                                       "condition");
  }
  /* One partition attribute is not enough. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("tenant = \"acme\" AND kind = \"order\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, "ByTenant", c, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: no equality on each of the partition key attributes tenant, site");
    /* ByKind can: kind is its partition key. */
    g_assert_cmpstr (plan->suggested_index, ==, "ByKind");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index ByKind possible");
  }
  {
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, "Wide", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (plan->reason, ==, "Scan: no condition on the partition key attributes h1, h2, h3, h4");
  }
  /* A scan of the table: the suggestion names the multi-attribute index. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("kind = \"order\" AND seq = 3 AND site = 1 AND tenant = \"acme\" AND "
                                         "tag >= \"b\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, NULL, c, &error);
    g_autofree char *kc = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->suggested_index, ==, "ByTenant");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index ByTenant possible");
    kc = dyn_expr_node_to_string (plan->suggested_key_condition);
    g_assert_cmpstr (kc, ==, "tenant = \"acme\" AND site = 1 AND kind = \"order\" AND seq = 3 AND tag >= \"b\"");
    g_assert_null (plan->suggested_filter);
  }
  /* Wide, four and four: the partition attributes in the filter of a Scan of Wide. */
  {
    g_autoptr(DynExprNode) kc = parse_ok (DYN_MULTIKEY_WIDE_HASH " AND r1 = :s AND r2 > :t",
                                          DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (keys, "Wide", NULL, kc, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: the equalities on the partition key attributes h1, h2, h3, h4 are "
                                       "in the filter, not in the key condition");
    g_assert_cmpstr (plan->suggested_index, ==, "Wide");
  }
  /* As written: the reason names every key attribute's condition. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("h4 = :s AND h3 = :s AND h2 = :s AND h1 = :s AND r2 > :t AND r1 = :s",
                                          DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprNode) bad_filter = parse_ok ("r3 = :s", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (keys, "Wide", kc, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (plan->reason, ==, "Query on index Wide: partition key h1 = :s AND h2 = :s AND h3 = :s AND "
                                       "h4 = :s, sort key r1 = :s AND r2 > :t");
    g_assert_null (dyn_expr_plan (keys, "Wide", kc, bad_filter, &error));
    g_assert_nonnull (strstr (error->message, "cannot use the key attribute r3"));
    g_clear_error (&error);
  }
  /* A key attribute compared with a value of another type. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("tenant = \"acme\" AND site = \"1\"", DYN_EXPR_ROLE_FILTER);

    g_assert_null (dyn_expr_plan_condition (keys, "ByTenant", c, &error));
    g_assert_nonnull (strstr (error->message, "the key site is a number"));
    g_clear_error (&error);
  }

  /* A source with the same partition attributes whose sort attributes narrow it. */
  {
    g_autoptr(DynTableKeys) t = dyn_table_keys_copy (keys);
    DynKeySchema by_day = { 0 };
    g_autoptr(DynExprNode) c = parse_ok ("tenant = \"acme\" AND site = 1 AND day = \"2026-01-16\" AND hour > 8",
                                         DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = NULL;
    g_autofree char *kc = NULL;

    dyn_key_schema_append (&by_day, FALSE, "site", DYN_VALUE_N);
    dyn_key_schema_append (&by_day, FALSE, "tenant", DYN_VALUE_S);
    dyn_key_schema_append (&by_day, TRUE, "day", DYN_VALUE_S);
    dyn_key_schema_append (&by_day, TRUE, "hour", DYN_VALUE_N);
    dyn_table_keys_add_index_with_schema (t, "ByDay", DYN_INDEX_GLOBAL, &by_day, DYN_PROJECTION_ALL);
    dyn_key_schema_clear (&by_day);

    plan = dyn_expr_plan_condition (t, "ByTenant", c, &error);
    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (plan->suggested_index, ==, "ByDay");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index ByDay possible: its sort key attributes day, hour "
                                           "narrow the read");
    kc = dyn_expr_node_to_string (plan->suggested_key_condition);
    g_assert_cmpstr (kc, ==, "site = 1 AND tenant = \"acme\" AND day = \"2026-01-16\" AND hour > 8");
  }
}

/* Following a key: every partition attribute, and sort attributes up to the
 * one clicked. */
static void
test_multikey_follow (void)
{
  g_autoptr(DynTableKeys) keys = multikey_table ();
  g_auto(GStrv) links = dyn_table_keys_get_link_attributes (keys);
  const char *expected[] = { "pk", "tenant", "site", "h1", "h2", "h3", "h4", "kind", "seq", "r1", "r2", "r3", NULL };
  g_autoptr(DynValue) item = dyn_test_item ("{\"pk\": {\"S\": \"o#1\"}, \"sk\": {\"S\": \"line#1\"},"
                                            " \"tenant\": {\"S\": \"acme\"}, \"site\": {\"N\": \"7\"},"
                                            " \"kind\": {\"S\": \"order\"}, \"seq\": {\"N\": \"3\"},"
                                            " \"tag\": {\"S\": \"red\"}}");
  g_autoptr(DynValue) no_site = dyn_test_item ("{\"pk\": {\"S\": \"o#2\"}, \"tenant\": {\"S\": \"acme\"}}");
  g_autoptr(GError) error = NULL;
  struct {
    const char *attribute;
    const char *index;
    const char *condition;
  } follows[] = {
    { "pk", NULL, "pk = \"o#1\"" },
    { "tenant", "ByTenant", "tenant = \"acme\" AND site = 7" },
    { "site", "ByTenant", "tenant = \"acme\" AND site = 7" },
    /* kind keys ByKind, before it sorts ByTenant. */
    { "kind", "ByKind", "kind = \"order\"" },
    { "seq", "ByTenant", "tenant = \"acme\" AND site = 7 AND kind = \"order\" AND seq = 3" },
  };

  g_assert_cmpstrv (links, expected);
  for (guint i = 0; i < G_N_ELEMENTS (follows); i++)
    {
      g_autofree char *index = NULL;
      g_autoptr(DynExprNode) c = dyn_table_keys_follow (keys, follows[i].attribute, item, &index, &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      text = dyn_expr_node_to_string (c);
      g_assert_cmpstr (text, ==, follows[i].condition);
      g_assert_cmpstr (index, ==, follows[i].index);
      /* What following gives runs as a Query on that source. */
      {
        g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (keys, index, c, &error);

        g_assert_no_error (error);
        g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
      }
    }
  /* The last sort attribute and non-key attributes lead nowhere. */
  g_assert_null (dyn_table_keys_follow (keys, "tag", item, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* An item without site cannot follow tenant. */
  g_assert_null (dyn_table_keys_follow (keys, "tenant", no_site, NULL, &error));
  g_assert_nonnull (strstr (error->message, "needs the item's site as well"));
  g_clear_error (&error);
  /* A value alone follows single-attribute keys only. */
  {
    g_autoptr(DynValue) v = dyn_value_new_string ("acme");
    g_autoptr(DynValue) k = dyn_value_new_string ("order");
    g_autofree char *index = NULL;
    g_autoptr(DynExprNode) c = NULL;

    g_assert_null (dyn_table_keys_follow (keys, "tenant", v, NULL, &error));
    g_assert_nonnull (strstr (error->message, "tenant is not the partition key"));
    g_clear_error (&error);
    c = dyn_table_keys_follow (keys, "kind", k, &index, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (index, ==, "ByKind");
  }
}

/* Reads of a multi-attribute index: the request, sharded keys, a read
 * without the table's keys. */
static void
test_multikey_read_request (void)
{
  g_autoptr(DynTableKeys) keys = multikey_table ();

  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;

    spec.mode = DYN_READ_CONDITION;
    spec.index = "ByTenant";
    spec.filter = "tenant = \"acme\" AND site = 1 AND kind = \"order\" AND note = 4";
    read = dyn_read_request_new (keys, &spec);
    g_assert_true (dyn_read_request_is_valid (read));
    g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
    g_assert_cmpstr (dyn_read_request_get_request (read)->index, ==, "ByTenant");
    g_assert_cmpstr (dyn_read_request_get_expression (read, DYN_EXPR_ROLE_KEY_CONDITION), ==,
                     "#t = :t AND #s = :s AND #k = :k");
    g_assert_cmpstr (dyn_read_request_get_expression (read, DYN_EXPR_ROLE_FILTER), ==, "#n = :n");
  }
  /* A shard range in the second partition attribute fans out over it. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("h1 = \"a\" AND h2 = \"s#1..3\" AND h3 = \"c\" AND h4 = \"d\" AND r1 = \"x\"",
                                          DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) shards = dyn_expr_expand_sharded_key_condition (kc, &dyn_table_keys_lookup (keys, "Wide")->keys,
                                                                         &error);
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;
    const DynRequest *request;

    g_assert_no_error (error);
    g_assert_nonnull (shards);
    g_assert_cmpuint (shards->len, ==, 3);
    for (guint i = 0; i < shards->len; i++)
      {
        g_autofree char *text = dyn_expr_node_to_string (shards->pdata[i]);
        g_autofree char *want = g_strdup_printf ("h1 = \"a\" AND h2 = \"s#%u\" AND h3 = \"c\" AND h4 = \"d\" AND "
                                                 "r1 = \"x\"", i + 1);

        g_assert_cmpstr (text, ==, want);
      }

    spec.mode = DYN_READ_EXPLICIT;
    spec.index = "Wide";
    spec.key_condition = "h1 = \"a\" AND h2 = \"s#1..3\" AND h3 = \"c\" AND h4 = \"d\"";
    read = dyn_read_request_new (keys, &spec);
    g_assert_true (dyn_read_request_is_valid (read));
    request = dyn_read_request_get_request (read);
    g_assert_nonnull (request->shard_values);
    g_assert_cmpuint (request->shard_values->len, ==, 3);
    g_assert_cmpstr (dyn_value_get_string (request->shard_values->pdata[2]), ==, "s#3");
    g_assert_cmpstr (request->shard_placeholder, ==, ":h2");
  }
  /* Without the table's keys the equalities may all be partition attributes. */
  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;

    spec.table = "unknown";
    spec.index = "Wide";
    spec.key_condition = DYN_MULTIKEY_WIDE_HASH " AND r1 = :s AND r2 BETWEEN :s AND :t";
    spec.values = multikey_values ();
    g_hash_table_remove (spec.values, ":n");
    g_hash_table_remove (spec.values, ":m");
    read = dyn_read_request_new (NULL, &spec);
    if (!dyn_read_request_is_valid (read))
      g_error ("%s", dyn_read_request_get_error (read)->message);
    g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
    g_hash_table_unref (spec.values);
  }
}

static void
test_update_rules (void)
{
  const DynKeySchema *k = &projects_keys;

  assert_rule_error ("ADD a \"x\"", DYN_EXPR_ROLE_UPDATE, NULL, "ADD takes a number or a set, not a value of type S");
  assert_rule_error ("ADD a [1]", DYN_EXPR_ROLE_UPDATE, NULL, "ADD takes a number or a set");
  assert_rule_error ("DELETE a 5", DYN_EXPR_ROLE_UPDATE, NULL, "DELETE takes a set, not a value of type N");
  assert_rule_error ("ADD a b", DYN_EXPR_ROLE_UPDATE, NULL, "ADD takes a value, not an attribute path");
  assert_rule_error ("SET a = 1, a.b = 2", DYN_EXPR_ROLE_UPDATE, NULL, "the document paths a and a.b overlap");
  assert_rule_error ("SET a = 1 REMOVE a", DYN_EXPR_ROLE_UPDATE, NULL, "the document path a is used twice");
  assert_rule_error ("SET a[1] = 1 REMOVE a[1][1]", DYN_EXPR_ROLE_UPDATE, NULL, "overlap");
  assert_rule_error ("SET a.b = 1 REMOVE a[1]", DYN_EXPR_ROLE_UPDATE, NULL, "the document paths a.b and a[1] conflict");
  assert_rule_error ("ADD s <<1>> DELETE s <<2>>", DYN_EXPR_ROLE_UPDATE, NULL, "used twice");
  assert_rule_error ("SET EntityRef = \"x\"", DYN_EXPR_ROLE_UPDATE, k, "the key attribute EntityRef cannot be updated");
  assert_rule_error ("REMOVE Detail", DYN_EXPR_ROLE_UPDATE, k, "the key attribute Detail cannot be updated");
  assert_rule_error ("SET a = size(b)", DYN_EXPR_ROLE_UPDATE, NULL, "size cannot be used in a SET value");
  assert_rule_error ("SET a = if_not_exists(b, 1) + 1 + 2", DYN_EXPR_ROLE_UPDATE, NULL, "at most one + or -");
  assert_rule_error ("SET a = list_append(a + 1, b)", DYN_EXPR_ROLE_UPDATE, NULL, "at most one + or -");
  assert_rule_error ("SET a", DYN_EXPR_ROLE_UPDATE, NULL, "expected '='");
  assert_rule_error ("REMOVE", DYN_EXPR_ROLE_UPDATE, NULL, "expected an attribute name");
  assert_rule_error ("UPDATE a = 1", DYN_EXPR_ROLE_UPDATE, NULL, "expected SET, REMOVE, ADD or DELETE");
  assert_rule_error ("SET a = 1 b = 2", DYN_EXPR_ROLE_UPDATE, NULL, "expected ',' or SET, REMOVE, ADD, DELETE");

  /* Allowed: reading what is modified; every clause once; sets of each type. */
  {
    g_autofree char *a = compile_text ("REMOVE a SET b = a", DYN_EXPR_ROLE_UPDATE, k,
                                       DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);
    g_autofree char *b = compile_text ("set Count = Count + 1, Tags = list_append(if_not_exists(Tags, []), [\"x\"]) "
                                       "remove Old[2] add Seen <<\"a\", \"b\">>, Hits 1 delete Nums <<1, 2>>",
                                       DYN_EXPR_ROLE_UPDATE, k, DYN_EXPR_ALIAS_ALWAYS, NULL, NULL);
    g_autofree char *c = compile_text ("SET price = price - 5", DYN_EXPR_ROLE_UPDATE, k,
                                       DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);
    g_autofree char *d = compile_text ("SET price = -5, v = 1 - -2", DYN_EXPR_ROLE_UPDATE, k,
                                       DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);

    g_assert_cmpstr (a, ==, "REMOVE a SET b = a");
    g_assert_cmpstr (b, ==, "SET #c = #c + :c, #t = list_append(if_not_exists(#t, :t), :t2) "
                            "REMOVE #o[2] ADD #s :s, #h :c DELETE #n :n");
    g_assert_cmpstr (c, ==, "SET price = price - :p");
    g_assert_cmpstr (d, ==, "SET price = :p, v = :v - :v2");
  }

  /* At most 300 operators and functions. */
  {
    g_autoptr(GString) text = g_string_new ("SET ");
    g_autoptr(DynExprNode) node = NULL;
    g_autoptr(GError) error = NULL;

    for (guint i = 0; i < 301; i++)
      g_string_append_printf (text, "%sa%u = a%u + :one", i ? ", " : "", i, i);
    node = parse_ok (text->str, DYN_EXPR_ROLE_UPDATE);
    g_assert_false (dyn_expr_validate (node, DYN_EXPR_ROLE_UPDATE, NULL, &error));
    g_assert_nonnull (strstr (error->message, "301 operators and functions; the limit is 300"));
  }
}

static void
test_condition_rules (void)
{
  g_autoptr(GString) in = g_string_new ("a IN (");
  g_autoptr(GString) deep = g_string_new ("a");
  g_autoptr(GError) error = NULL;

  /* IN: 100 operands fine, 101 not. */
  for (guint i = 0; i < 100; i++)
    g_string_append_printf (in, "%s%u", i ? ", " : "", i);
  {
    g_autofree char *ok = g_strdup_printf ("%s)", in->str);
    g_autofree char *bad = g_strdup_printf ("%s, 100)", in->str);
    g_autoptr(DynExprNode) node = parse_ok (ok, DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprNode) built = NULL;

    g_assert_true (dyn_expr_validate (node, DYN_EXPR_ROLE_FILTER, NULL, NULL));
    assert_rule_error (bad, DYN_EXPR_ROLE_FILTER, NULL, "IN takes at most 100 operands");
    /* A model built by hand is checked too. */
    built = dyn_expr_node_copy (node);
    dyn_expr_node_add_child (built, dyn_expr_node_new_placeholder (":x"));
    g_assert_false (dyn_expr_validate (built, DYN_EXPR_ROLE_FILTER, NULL, &error));
    g_assert_nonnull (strstr (error->message, "IN has 101 operands; the limit is 100"));
    g_clear_error (&error);
  }

  /* Path depth: 32 levels (a and 31 dereferences) fine, 33 not, as
   * DynamoDB Local says ("nesting levels: 33"). */
  for (guint i = 0; i < 31; i++)
    g_string_append (deep, i % 2 ? ".b" : "[0]");
  {
    g_autofree char *bad = g_strdup_printf ("%s.c", deep->str);
    g_autoptr(DynExprNode) node = parse_ok (deep->str, DYN_EXPR_ROLE_PROJECTION);
    g_autoptr(DynExprPath) path = dyn_expr_path_new ("a");

    g_assert_true (dyn_expr_validate (node, DYN_EXPR_ROLE_PROJECTION, NULL, NULL));
    assert_rule_error (bad, DYN_EXPR_ROLE_PROJECTION, NULL, "nested more than 32 levels");
    for (guint i = 0; i < 32; i++)
      dyn_expr_path_append_name (path, "x");
    g_clear_pointer (&node, dyn_expr_node_unref);
    node = dyn_expr_node_new (DYN_EXPR_ATTRIBUTE_EXISTS);
    dyn_expr_node_add_child (node, dyn_expr_node_new_path (g_steal_pointer (&path)));
    g_assert_false (dyn_expr_validate (node, DYN_EXPR_ROLE_CONDITION, NULL, &error));
    g_assert_nonnull (strstr (error->message, "nested 33 levels deep; the limit is 32"));
    g_clear_error (&error);
  }

  /* attribute_type's type. */
  {
    const char *types[] = { "S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M" };

    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      {
        g_autofree char *text = g_strdup_printf ("attribute_type(a, \"%s\")", types[i]);
        g_autofree char *out = compile_text (text, DYN_EXPR_ROLE_CONDITION, NULL,
                                             DYN_EXPR_ALIAS_WHEN_NEEDED, NULL, NULL);

        g_assert_cmpstr (out, ==, "attribute_type(a, :t)");
      }
    assert_rule_error ("attribute_type(a, \"X\")", DYN_EXPR_ROLE_CONDITION, NULL, "must be one of S, SS");
    assert_rule_error ("attribute_type(a, 1)", DYN_EXPR_ROLE_CONDITION, NULL, "must be one of S, SS");
    assert_rule_error ("attribute_type(a, b)", DYN_EXPR_ROLE_CONDITION, NULL, "must be a value");
  }

  assert_rule_error ("contains(a.b[1], a.b[1])", DYN_EXPR_ROLE_FILTER, NULL, "with itself");
  assert_rule_error ("a = if_not_exists(a, 1)", DYN_EXPR_ROLE_FILTER, NULL, "only be used in a SET");
  assert_rule_error ("a = begins_with(a, 1)", DYN_EXPR_ROLE_FILTER, NULL, "is a condition, not a value");
  assert_rule_error ("size(a)", DYN_EXPR_ROLE_FILTER, NULL, "expected a comparison operator");
  assert_rule_error ("a, b", DYN_EXPR_ROLE_FILTER, NULL,
                     "expected a comparison operator");

  /* Projection paths may not overlap. */
  assert_rule_error ("a, a.b", DYN_EXPR_ROLE_PROJECTION, NULL, "overlap");
  assert_rule_error ("a, b, a", DYN_EXPR_ROLE_PROJECTION, NULL, "used twice");
  assert_rule_error ("a.b, a[0]", DYN_EXPR_ROLE_PROJECTION, NULL, "conflict");

  /* Expression length ≤ 4096 bytes. */
  {
    g_autoptr(GString) text = g_string_new (NULL);

    /* 150 comparisons of a deep path (299 operators), compiled to more
     * than 4096 bytes. */
    for (guint i = 0; i < 150; i++)
      g_string_append_printf (text, "%sa.b.c.d.e.f.g.h = %u", i ? " OR " : "", i);
    assert_rule_error (text->str, DYN_EXPR_ROLE_FILTER, NULL, "the limit is 4096 bytes");
    g_string_truncate (text, 0);
    /* 151 comparisons joined by 150 ORs: 301 operators. */
    for (guint i = 0; i < 151; i++)
      g_string_append_printf (text, "%sa = %u", i ? " OR " : "", i);
    assert_rule_error (text->str, DYN_EXPR_ROLE_FILTER, NULL, "301 operators and functions; the limit is 300");
  }

  /* A Query's filter cannot name the key; a Scan's can. */
  {
    g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
    g_autoptr(DynExprContext) ctx2 = dyn_expr_context_new ();
    g_autoptr(DynExprNode) kc = parse_ok ("EntityRef = \"a\"", DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprNode) filter = parse_ok ("Detail = \"x\" AND n > 1", DYN_EXPR_ROLE_FILTER);

    dyn_expr_context_set_key_schema (ctx, &projects_keys);
    g_assert_nonnull (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_KEY_CONDITION, kc, &error));
    g_assert_null (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_FILTER, filter, &error));
    g_assert_cmpstr (error->message, ==,
                     "a Query's filter cannot use the key attribute Detail; put it in the key condition at character 1");
    g_clear_error (&error);

    /* The other order. */
    dyn_expr_context_set_key_schema (ctx2, &projects_keys);
    g_assert_nonnull (dyn_expr_context_add (ctx2, DYN_EXPR_ROLE_FILTER, filter, &error));
    g_assert_null (dyn_expr_context_add (ctx2, DYN_EXPR_ROLE_KEY_CONDITION, kc, &error));
    g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
    g_clear_error (&error);

    g_assert_true (dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, NULL, NULL));
    /* One role once. */
    g_assert_null (dyn_expr_context_add (ctx, DYN_EXPR_ROLE_KEY_CONDITION, kc, &error));
    g_assert_nonnull (strstr (error->message, "already has a KeyConditionExpression"));
  }
}

/* ------------------------------------------------------------------------ */
/* Shared maps across one request */

static void
test_context_collisions (void)
{
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(DynExprNode) kc = parse_ok ("EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")",
                                        DYN_EXPR_ROLE_KEY_CONDITION);
  g_autoptr(DynExprNode) filter = parse_ok ("Status = \"open\" AND Size > 5 AND Summary <> \"PROJ#\" "
                                            "AND begins_with(Stage, \"P\") AND eRef = 1 AND extraRole = \"x\"",
                                            DYN_EXPR_ROLE_FILTER);
  g_autoptr(DynExprNode) proj = parse_ok ("EntityRef, Detail, Status, Size, Summary, Stage, eRef, extraRole, d",
                                          DYN_EXPR_ROLE_PROJECTION);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  const char *exprs[4];

  dyn_expr_context_set_key_schema (ctx, &projects_keys);
  exprs[0] = dyn_expr_context_add (ctx, DYN_EXPR_ROLE_KEY_CONDITION, kc, &error);
  g_assert_no_error (error);
  exprs[1] = dyn_expr_context_add (ctx, DYN_EXPR_ROLE_FILTER, filter, &error);
  g_assert_no_error (error);
  exprs[2] = dyn_expr_context_add (ctx, DYN_EXPR_ROLE_PROJECTION, proj, &error);
  g_assert_no_error (error);
  exprs[3] = NULL;

  g_assert_cmpstr (exprs[0], ==, "#er = :er AND begins_with(#d, :p)");
  g_assert_cmpstr (exprs[1], ==, "#s = :s AND #s2 > :s2 AND #s3 <> :p AND begins_with(#s4, :p2) "
                                 "AND #er2 = :er2 AND #er3 = :er3");
  g_assert_cmpstr (exprs[2], ==, "#er, #d, #s, #s2, #s3, #s4, #er2, #er3, #d2");

  names = dyn_expr_context_dup_names (ctx);
  values = dyn_expr_context_dup_values (ctx);
  g_assert_cmpuint (g_hash_table_size (names), ==, 9);
  g_assert_cmpuint (dyn_expr_context_get_n_names (ctx), ==, 9);
  /* Each attribute has one alias; each alias one attribute. */
  for (guint i = 0; i < dyn_expr_context_get_n_names (ctx); i++)
    {
      const char *attr = NULL;
      const char *ph = dyn_expr_context_get_name (ctx, i, &attr);

      g_assert_false (g_hash_table_contains (seen, attr));
      g_hash_table_add (seen, (gpointer) attr);
      g_assert_cmpstr (g_hash_table_lookup (names, ph), ==, attr);
    }
  assert_string_value (values, ":p", "PROJ#");   /* shared by the key condition and the filter */
  assert_string_value (values, ":p2", "P");
  assert_number_value (values, ":er2", "1");
  g_assert_cmpuint (g_hash_table_size (values), ==, 7);

  /* The request passes DynamoDB's own placeholder rule. */
  g_assert_true (dyn_expr_check_placeholders (exprs, names, values, &error));
  g_assert_no_error (error);

  /* Each expression re-parses with the shared maps to the same text. */
  for (guint r = 0; r < 3; r++)
    {
      DynExprRole role = r == 0 ? DYN_EXPR_ROLE_KEY_CONDITION : r == 1 ? DYN_EXPR_ROLE_FILTER : DYN_EXPR_ROLE_PROJECTION;
      g_autoptr(DynExprNode) again = dyn_expr_parse (exprs[r], role, names, values, NULL, &error);

      g_assert_no_error (error);
      g_assert_true (dyn_expr_node_equal (again, r == 0 ? kc : r == 1 ? filter : proj));
    }

  json_builder_begin_object (builder);
  dyn_expr_context_add_to_json (ctx, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json = json_to_string (root, FALSE);
  g_assert_nonnull (strstr (json, "\"KeyConditionExpression\":\"#er = :er AND begins_with(#d, :p)\""));
  g_assert_nonnull (strstr (json, "\"ExpressionAttributeNames\":{\"#er\":\"EntityRef\",\"#d\":\"Detail\""));
  g_assert_nonnull (strstr (json, "\":er\":{\"S\":\"WS#acme\"}"));
  g_assert_nonnull (strstr (json, "\":er2\":{\"N\":\"1\"}"));
  g_assert_nonnull (strstr (json, "\"ProjectionExpression\""));
}

/* ------------------------------------------------------------------------ */
/* Round trips */

static const struct { DynExprRole role; const char *text; } corpus[] = {
  { DYN_EXPR_ROLE_KEY_CONDITION, "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")" },
  { DYN_EXPR_ROLE_KEY_CONDITION, "EntityRef = \"WS#acme\" AND Detail BETWEEN \"A\" AND \"B\"" },
  { DYN_EXPR_ROLE_FILTER, "Status = \"open\" OR Status = \"new\" AND NOT attribute_exists(Owner)" },
  { DYN_EXPR_ROLE_FILTER, "(a = 1 OR b = 2) AND (c <> 3 OR d < 4) AND e <= 5 AND f > 6 AND g >= 7" },
  { DYN_EXPR_ROLE_FILTER, "a.b[0].c = \"x\" AND size(a.b) > 2 AND contains(tags, \"red\")" },
  { DYN_EXPR_ROLE_FILTER, "n IN (1, 2, 3, 4) AND NOT (m IN (\"a\", \"b\"))" },
  { DYN_EXPR_ROLE_FILTER, "attribute_type(x, \"NS\") AND attribute_not_exists(y.z)" },
  { DYN_EXPR_ROLE_FILTER, "`first-name` = \"Ada\" AND `a.b`.c[3] = true AND Name = null" },
  { DYN_EXPR_ROLE_FILTER, "m = {\"k\": [1, 2.50, \"x\"], \"b\": b64\"AAEC\"} AND s = <<\"a\", \"b\">>" },
  { DYN_EXPR_ROLE_FILTER, "s = <<1, 2, 3>> OR t = <<b64\"AA==\">> OR u = []" },
  { DYN_EXPR_ROLE_FILTER, "a = b AND size(c) = size(d) AND -1.5e3 < e" },
  { DYN_EXPR_ROLE_FILTER, "price BETWEEN 10 AND 20 AND qty BETWEEN 10 AND 20" },
  { DYN_EXPR_ROLE_CONDITION, "attribute_not_exists(PK)" },
  { DYN_EXPR_ROLE_CONDITION, "attribute_exists(PK) AND version = 3" },
  { DYN_EXPR_ROLE_CONDITION, "NOT NOT NOT a = \"\"" },
  { DYN_EXPR_ROLE_UPDATE, "SET a = 1, b = b + 2, c = list_append(c, [3]), d = if_not_exists(d, \"x\")" },
  { DYN_EXPR_ROLE_UPDATE, "REMOVE a, b[2], c.d SET e = a" },
  { DYN_EXPR_ROLE_UPDATE, "ADD n 1, s <<\"x\">> DELETE t <<1, 2>>" },
  { DYN_EXPR_ROLE_UPDATE, "DELETE t <<b64\"AQ==\">> SET Status = \"done\", Date = \"2026-01-01\"" },
  { DYN_EXPR_ROLE_UPDATE, "SET a[0] = list_append([0], a), b = c - 1" },
  { DYN_EXPR_ROLE_PROJECTION, "Description, RelatedItems[0], ProductReviews.FiveStar" },
  { DYN_EXPR_ROLE_PROJECTION, "Status, Name, Size, Date, Owner, `x-y`, a[1][2].b" },
};

static void
test_round_trip (void)
{
  for (guint mode = 0; mode < 2; mode++)
    for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
      {
        g_autoptr(DynExprNode) node = parse_ok (corpus[i].text, corpus[i].role);
        g_autoptr(GHashTable) names = NULL;
        g_autoptr(GHashTable) values = NULL;
        g_autoptr(GHashTable) names2 = NULL;
        g_autoptr(GHashTable) values2 = NULL;
        g_autofree char *first = compile_text (corpus[i].text, corpus[i].role, &projects_keys, mode, &names, &values);
        g_autoptr(DynExprNode) again = NULL;
        g_autoptr(DynExprNode) from_text = NULL;
        g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
        g_autoptr(GError) error = NULL;
        g_autofree char *text = NULL;
        const char *second;

        /* parse(compile(x)) with the maps compiles to the same string. */
        again = dyn_expr_parse (first, corpus[i].role, names, values, NULL, &error);
        g_assert_no_error (error);
        g_assert_true (dyn_expr_node_equal (again, node));
        dyn_expr_context_set_alias_mode (ctx, mode);
        dyn_expr_context_set_key_schema (ctx, &projects_keys);
        second = dyn_expr_context_add (ctx, corpus[i].role, again, &error);
        g_assert_no_error (error);
        g_assert_cmpstr (second, ==, first);
        names2 = dyn_expr_context_dup_names (ctx);
        values2 = dyn_expr_context_dup_values (ctx);
        g_assert_cmpuint (g_hash_table_size (names2), ==, g_hash_table_size (names));
        g_assert_cmpuint (g_hash_table_size (values2), ==, g_hash_table_size (values));

        /* The text form with inline values parses back to the same model. */
        text = dyn_expr_node_to_string (node);
        g_assert_nonnull (text);
        from_text = dyn_expr_parse (text, corpus[i].role, NULL, NULL, NULL, &error);
        g_assert_no_error (error);
        if (!dyn_expr_node_equal (from_text, node))
          g_error ("to_string round trip: %s → %s", corpus[i].text, text);

        /* The maps and the string agree with DynamoDB's placeholder rule. */
        {
          const char *exprs[] = { first, NULL };

          g_assert_true (dyn_expr_check_placeholders (exprs, names, values, &error));
          g_assert_no_error (error);
        }
      }
}

/* ------------------------------------------------------------------------ */
/* The builder API */

static void
test_builder (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) acme = dyn_value_new_string ("WS#acme");
  g_autoptr(DynValue) open_ = dyn_value_new_string ("open");
  g_autoptr(DynValue) new_ = dyn_value_new_string ("new");
  g_autoptr(DynValue) one = dyn_value_new_number ("1", NULL);
  g_autoptr(DynValue) ten = dyn_value_new_number ("10", NULL);
  DynValue *between[] = { one, ten };
  g_autoptr(DynExprNode) root = dyn_expr_node_new (DYN_EXPR_AND);
  g_autoptr(DynExprNode) group = dyn_expr_node_new (DYN_EXPR_OR);
  DynExprNode *row;
  const DynExprPath *path = NULL;
  DynExprRowOp op;
  g_autoptr(GPtrArray) vals = NULL;
  g_autofree char *out = NULL;
  g_autofree char *text = NULL;

  dyn_expr_node_add_child (root, dyn_expr_node_new_row (dyn_expr_path_new ("EntityRef"), DYN_EXPR_ROW_EQ,
                                                        &acme, 1, &error));
  dyn_expr_node_add_child (group, dyn_expr_node_new_row (dyn_expr_path_new ("Status"), DYN_EXPR_ROW_EQ,
                                                         &open_, 1, &error));
  dyn_expr_node_add_child (group, dyn_expr_node_new_row (dyn_expr_path_new ("Status"), DYN_EXPR_ROW_EQ,
                                                         &new_, 1, &error));
  dyn_expr_node_add_child (root, dyn_expr_node_ref (group));
  dyn_expr_node_add_child (root, dyn_expr_node_new_unary (DYN_EXPR_NOT,
                             dyn_expr_node_new_row (dyn_expr_path_new ("Archived"), DYN_EXPR_ROW_EXISTS,
                                                    NULL, 0, &error)));
  dyn_expr_node_add_child (root, dyn_expr_node_new_row (dyn_expr_path_new ("Tags"), DYN_EXPR_ROW_SIZE_GT,
                                                        &one, 1, &error));
  dyn_expr_node_add_child (root, dyn_expr_node_new_row (dyn_expr_path_new ("Score"), DYN_EXPR_ROW_BETWEEN,
                                                        between, 2, &error));
  g_assert_no_error (error);

  out = dyn_expr_compile (root, DYN_EXPR_ROLE_CONDITION, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "#er = :er AND (#s = :s OR #s = :s2) AND NOT attribute_exists(#a) "
                            "AND size(#t) > :t AND #s2 BETWEEN :t AND :shi");
  text = dyn_expr_node_to_string (root);
  g_assert_cmpstr (text, ==, "EntityRef = \"WS#acme\" AND (Status = \"open\" OR Status = \"new\") AND "
                             "NOT attribute_exists(Archived) AND size(Tags) > 1 AND Score BETWEEN 1 AND 10");

  /* Rows read back. */
  row = dyn_expr_node_get_child (root, 3);
  g_assert_true (dyn_expr_node_get_row (row, &path, &op, &vals));
  g_assert_cmpint (op, ==, DYN_EXPR_ROW_SIZE_GT);
  g_assert_cmpstr (dyn_expr_path_get_top_name (path), ==, "Tags");
  g_assert_cmpuint (vals->len, ==, 1);
  g_clear_pointer (&vals, g_ptr_array_unref);
  row = dyn_expr_node_get_child (root, 4);
  g_assert_true (dyn_expr_node_get_row (row, &path, &op, &vals));
  g_assert_cmpint (op, ==, DYN_EXPR_ROW_BETWEEN);
  g_assert_cmpuint (vals->len, ==, 2);
  g_clear_pointer (&vals, g_ptr_array_unref);
  g_assert_false (dyn_expr_node_get_row (root, NULL, NULL, NULL));

  /* Modify: the group becomes a single row, a comparison changes. */
  dyn_expr_node_remove_child (group, 1);
  row = dyn_expr_node_get_child (root, 0);
  dyn_expr_node_set_op (row, DYN_EXPR_OP_GE);
  dyn_expr_node_set_value (dyn_expr_node_get_child (row, 1), open_);
  dyn_expr_node_remove_child (root, 4);
  dyn_expr_node_remove_child (root, 3);
  dyn_expr_node_set_path (dyn_expr_node_get_child (dyn_expr_node_get_child (dyn_expr_node_get_child (root, 2), 0), 0),
                          dyn_expr_path_new ("Gone"));
  g_clear_pointer (&out, g_free);
  out = dyn_expr_compile (root, DYN_EXPR_ROLE_CONDITION, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "#er >= :er AND #s = :er AND NOT attribute_exists(#g)");

  g_assert_cmpint (dyn_expr_row_op_get_n_values (DYN_EXPR_ROW_BETWEEN), ==, 2);
  g_assert_cmpint (dyn_expr_row_op_get_n_values (DYN_EXPR_ROW_IN), ==, -1);
  g_assert_cmpint (dyn_expr_row_op_get_n_values (DYN_EXPR_ROW_NOT_EXISTS), ==, 0);
  g_assert_cmpstr (dyn_expr_row_op_to_string (DYN_EXPR_ROW_BEGINS_WITH), ==, "begins_with");

  /* Wrong value counts and empty groups are errors. */
  g_assert_null (dyn_expr_node_new_row (dyn_expr_path_new ("a"), DYN_EXPR_ROW_BETWEEN, &one, 1, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  g_clear_error (&error);
  g_assert_null (dyn_expr_node_new_row (dyn_expr_path_new ("a"), DYN_EXPR_ROW_IN, NULL, 0, &error));
  g_clear_error (&error);
  {
    g_autoptr(DynExprNode) empty = dyn_expr_node_new (DYN_EXPR_OR);

    g_assert_false (dyn_expr_validate (empty, DYN_EXPR_ROLE_FILTER, NULL, &error));
    g_assert_cmpstr (error->message, ==, "empty OR group");
    g_clear_error (&error);
  }

  /* An update built by hand. */
  {
    g_autoptr(DynExprNode) upd = dyn_expr_node_new (DYN_EXPR_UPDATE);
    g_autoptr(DynExprNode) copy = NULL;
    g_autofree char *u = NULL;

    dyn_expr_node_add_child (upd, dyn_expr_node_new_binary (DYN_EXPR_SET, dyn_expr_node_new_name ("Status"),
                                                             dyn_expr_node_new_value (new_)));
    dyn_expr_node_add_child (upd, dyn_expr_node_new_unary (DYN_EXPR_REMOVE, dyn_expr_node_new_name ("Old")));
    dyn_expr_node_add_child (upd, dyn_expr_node_new_binary (DYN_EXPR_SET, dyn_expr_node_new_name ("Count"),
                               dyn_expr_node_new_binary (DYN_EXPR_PLUS, dyn_expr_node_new_name ("Count"),
                                                         dyn_expr_node_new_value (one))));
    u = dyn_expr_compile (upd, DYN_EXPR_ROLE_UPDATE, &projects_keys, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (u, ==, "SET #s = :s, #c = #c + :c REMOVE #o");
    copy = dyn_expr_node_copy (upd);
    g_assert_true (dyn_expr_node_equal (copy, upd));
    g_assert_true (G_TYPE_IS_BOXED (DYN_TYPE_EXPR_NODE));
    g_assert_true (G_TYPE_IS_BOXED (DYN_TYPE_EXPR_PATH));
  }
}

/* ------------------------------------------------------------------------ */
/* Planner */

static DynTableKeys *
make_table (void)
{
  DynTableKeys *t = dyn_table_keys_new ("Projects", "EntityRef", DYN_VALUE_S, "Detail", DYN_VALUE_S);

  dyn_table_keys_add_index (t, "GSI1", DYN_INDEX_GLOBAL, "GSI1PK", DYN_VALUE_S, "GSI1SK", DYN_VALUE_S,
                            DYN_PROJECTION_ALL);
  dyn_table_keys_add_index (t, "ByCreated", DYN_INDEX_LOCAL, "EntityRef", DYN_VALUE_S, "CreatedAt", DYN_VALUE_N,
                            DYN_PROJECTION_KEYS_ONLY);
  return t;
}

static void
test_planner (void)
{
  g_autoptr(DynTableKeys) table = make_table ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (dyn_table_keys_lookup (table, "GSI1"));
  g_assert_true (dyn_table_keys_lookup (table, NULL) == &table->table);
  g_assert_null (dyn_table_keys_lookup (table, "nope"));

  /* A key condition: Query on the table. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")",
                                          DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, kc, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_null (plan->index_name);
    g_assert_cmpstr (plan->reason, ==,
                     "Query on table Projects: partition key EntityRef = \"WS#acme\", "
                     "sort key begins_with(Detail, \"PROJ#\")");
  }

  /* On an index. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("GSI1PK = \"CRS#math204\"", DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, "GSI1", kc, NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (plan->index_name, ==, "GSI1");
    g_assert_cmpstr (plan->reason, ==, "Query on index GSI1: partition key GSI1PK = \"CRS#math204\"");
  }

  /* A filter only on a non-key: Scan, nothing to suggest. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("Status = \"open\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: no equality on the partition key EntityRef");
    g_assert_null (plan->suggested_index);
    g_assert_null (plan->suggestion);
  }

  /* The sort key alone does not make a Query. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("begins_with(Detail, \"PROJ#\")", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);

    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_null (plan->suggestion);
  }

  /* The seed's roster: GSI1PK in a filter → Query on GSI1 possible. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("GSI1PK = \"CRS#math204\" AND grade > 2", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);
    g_autofree char *kc = NULL;
    g_autofree char *rest = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: no equality on the partition key EntityRef");
    g_assert_cmpstr (plan->suggested_index, ==, "GSI1");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index GSI1 possible");
    kc = dyn_expr_node_to_string (plan->suggested_key_condition);
    rest = dyn_expr_node_to_string (plan->suggested_filter);
    g_assert_cmpstr (kc, ==, "GSI1PK = \"CRS#math204\"");
    g_assert_cmpstr (rest, ==, "grade > 2");
  }

  /* The table key in the filter: Query on the table, with the sort key. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("x > 1 AND begins_with(Detail, \"PROJ#\") AND EntityRef = \"WS#acme\"",
                                         DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);
    g_autofree char *kc = NULL;
    g_autofree char *rest = NULL;
    g_autofree char *compiled = NULL;

    g_assert_cmpstr (plan->reason, ==,
                     "Scan: the equality on the partition key EntityRef is in the filter, not in the key condition");
    g_assert_cmpstr (plan->suggestion, ==, "Query on the table Projects possible");
    g_assert_cmpstr (plan->suggested_index, ==, "Projects");
    kc = dyn_expr_node_to_string (plan->suggested_key_condition);
    rest = dyn_expr_node_to_string (plan->suggested_filter);
    g_assert_cmpstr (kc, ==, "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")");
    g_assert_cmpstr (rest, ==, "x > 1");
    compiled = dyn_expr_compile (plan->suggested_key_condition, DYN_EXPR_ROLE_KEY_CONDITION,
                                 &projects_keys, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (compiled, ==, "#er = :er AND begins_with(#d, :p)");
  }

  /* On the LSI with a numeric sort key. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("CreatedAt > 5 AND EntityRef = \"a\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, "ByCreated", NULL, f, &error);
    g_autofree char *kc = NULL;

    g_assert_cmpstr (plan->suggested_index, ==, "ByCreated");
    kc = dyn_expr_node_to_string (plan->suggested_key_condition);
    g_assert_cmpstr (kc, ==, "EntityRef = \"a\" AND CreatedAt > 5");
    g_assert_null (plan->suggested_filter);
  }

  /* A value of the wrong type cannot be the key. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("EntityRef = null AND Detail = \"x\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);

    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_null (plan->suggestion);
  }

  /* OR hides the equality. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("EntityRef = \"a\" OR x = 1", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, f, &error);

    g_assert_null (plan->suggestion);
  }

  /* No filter at all. */
  {
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (table, NULL, NULL, NULL, &error);

    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: no condition on the partition key EntityRef");
  }

  /* A bad key condition, an unknown index, a Query filter on a key. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("Detail = \"x\"", DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprNode) kc2 = parse_ok ("EntityRef = \"x\"", DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprNode) f = parse_ok ("Detail = \"x\"", DYN_EXPR_ROLE_FILTER);

    g_assert_null (dyn_expr_plan (table, NULL, kc, NULL, &error));
    g_assert_nonnull (strstr (error->message, "partition key EntityRef"));
    g_clear_error (&error);
    g_assert_null (dyn_expr_plan (table, "nope", kc, NULL, &error));
    g_assert_cmpstr (error->message, ==, "the table has no index nope");
    g_clear_error (&error);
    g_assert_null (dyn_expr_plan (table, NULL, kc2, f, &error));
    g_assert_nonnull (strstr (error->message, "cannot use the key attribute Detail"));
    g_clear_error (&error);
  }
}

/* ------------------------------------------------------------------------ */
/* Planning a condition; the local secondary index; DynReadRequest */

/* Movies keyed by year (N) and title (S), with a local index by rating and a
 * global one by genre. */
static DynTableKeys *
movies_keys (void)
{
  DynTableKeys *t = dyn_table_keys_new ("movies", "year", DYN_VALUE_N, "title", DYN_VALUE_S);

  dyn_table_keys_add_index (t, "byRating", DYN_INDEX_LOCAL, "year", DYN_VALUE_N, "rating", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  dyn_table_keys_add_index (t, "byGenre", DYN_INDEX_GLOBAL, "genre", DYN_VALUE_S, "year", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  return t;
}

static char *
node_text (DynExprNode *node)
{
  return node ? dyn_expr_node_to_string (node) : NULL;
}

static void
test_plan_condition (void)
{
  g_autoptr(DynTableKeys) movies = movies_keys ();
  g_autoptr(GError) error = NULL;

  /* The partition key's equality runs as a Query; nothing is left to filter. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = 2013", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);
    g_autofree char *kc = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_null (plan->index_name);
    kc = node_text (plan->key_condition);
    g_assert_cmpstr (kc, ==, "year = 2013");
    g_assert_null (plan->filter);
    g_assert_cmpstr (plan->reason, ==, "Query on table movies: partition key year = 2013");
    g_assert_null (plan->suggestion);
  }

  /* The sort key of the local index narrows it: a Query on the table with a
   * filter, and the index suggested. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = 2013 AND rating > 8", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);
    g_autoptr(DynExprPlan) on_lsi = NULL;
    g_autofree char *kc = NULL;
    g_autofree char *filter = NULL;
    g_autofree char *suggested = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    kc = node_text (plan->key_condition);
    filter = node_text (plan->filter);
    g_assert_cmpstr (kc, ==, "year = 2013");
    g_assert_cmpstr (filter, ==, "rating > 8");
    g_assert_cmpstr (plan->suggested_index, ==, "byRating");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index byRating possible: its sort key rating narrows the read");
    suggested = node_text (plan->suggested_key_condition);
    g_assert_cmpstr (suggested, ==, "year = 2013 AND rating > 8");
    g_assert_null (plan->suggested_filter);

    /* Applied: all of it is the key condition. */
    on_lsi = dyn_expr_plan_condition (movies, "byRating", c, &error);
    g_assert_no_error (error);
    g_assert_cmpint (on_lsi->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (on_lsi->index_name, ==, "byRating");
    g_clear_pointer (&kc, g_free);
    kc = node_text (on_lsi->key_condition);
    g_assert_cmpstr (kc, ==, "year = 2013 AND rating > 8");
    g_assert_null (on_lsi->filter);
    g_assert_null (on_lsi->suggestion);
  }

  /* A string for the number key: the key condition's check, with its position. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = \"2013\"", DYN_EXPR_ROLE_FILTER);

    g_assert_null (dyn_expr_plan_condition (movies, NULL, c, &error));
    g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
    g_assert_cmpstr (error->message, ==, "the key year is a number, but the value is of type S at character 8");
    g_clear_error (&error);
  }

  /* Not a key of the table: a Scan, and the index that can Query it. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("genre = \"Drama\" AND rating >= 7", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);
    g_autofree char *filter = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    filter = node_text (plan->filter);
    g_assert_cmpstr (filter, ==, "genre = \"Drama\" AND rating >= 7");
    g_assert_null (plan->key_condition);
    g_assert_cmpstr (plan->reason, ==, "Scan: no equality on the partition key year");
    g_assert_cmpstr (plan->suggested_index, ==, "byGenre");
    g_assert_cmpstr (plan->suggestion, ==, "Query on index byGenre possible");
  }

  /* Two conditions on the sort key do not fit a key condition, and a Query's
   * filter may not name it. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = 2013 AND title > \"A\" AND title < \"M\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->reason, ==, "Scan: the conditions on the keys of table movies do not fit one key condition");
  }

  /* No condition: a Scan. */
  {
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, "byGenre", NULL, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->index_name, ==, "byGenre");
    g_assert_cmpstr (plan->reason, ==, "Scan: no condition on the partition key genre");
  }
}

static void
test_plan_local_index (void)
{
  g_autoptr(DynTableKeys) movies = movies_keys ();
  g_autoptr(GError) error = NULL;

  /* The key condition names the local index's sort key: the message says
   * which index it is the sort key of. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("year = 2013 AND rating > 8", DYN_EXPR_ROLE_KEY_CONDITION);

    g_assert_null (dyn_expr_plan (movies, NULL, kc, NULL, &error));
    g_assert_cmpstr (error->message, ==,
                     "rating is not a key attribute; move it to the filter, or query the local secondary "
                     "index byRating, whose sort key it is at character 17");
    g_clear_error (&error);
    g_assert_false (dyn_expr_validate_key_condition (movies, NULL, kc, &error));
    g_assert_nonnull (strstr (error->message, "local secondary index byRating"));
    g_clear_error (&error);
    g_assert_true (dyn_expr_validate_key_condition (movies, "byRating", kc, &error));
    g_assert_no_error (error);
  }

  /* On the local index, the table's sort key is named likewise. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("year = 2013 AND title = \"Her\"", DYN_EXPR_ROLE_KEY_CONDITION);

    g_assert_false (dyn_expr_validate_key_condition (movies, "byRating", kc, &error));
    g_assert_nonnull (strstr (error->message, "query the table, whose sort key it is"));
    g_clear_error (&error);
  }

  /* A Query whose filter holds the local index's sort key: the index is proposed. */
  {
    g_autoptr(DynExprNode) kc = parse_ok ("year = 2013", DYN_EXPR_ROLE_KEY_CONDITION);
    g_autoptr(DynExprNode) f = parse_ok ("rating BETWEEN 7 AND 9 AND genre = \"Drama\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (movies, NULL, kc, f, &error);
    g_autofree char *suggested = NULL;
    g_autofree char *rest = NULL;

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (plan->suggested_index, ==, "byRating");
    suggested = node_text (plan->suggested_key_condition);
    rest = node_text (plan->suggested_filter);
    g_assert_cmpstr (suggested, ==, "year = 2013 AND rating BETWEEN 7 AND 9");
    g_assert_cmpstr (rest, ==, "genre = \"Drama\"");
  }

  /* A Scan's filter with the partition key and the local index's sort key:
   * the narrower Query is the one suggested. */
  {
    g_autoptr(DynExprNode) f = parse_ok ("rating > 8 AND year = 2013", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan (movies, NULL, NULL, f, &error);

    g_assert_no_error (error);
    g_assert_cmpint (plan->operation, ==, DYN_EXPR_PLAN_SCAN);
    g_assert_cmpstr (plan->suggested_index, ==, "byRating");
  }
}

/* The read request: the plan, the compiled expressions, the body and the
 * snippet are one thing. */
static void
test_read_request (void)
{
  g_autoptr(DynTableKeys) movies = movies_keys ();

  /* A condition: Query with a filter. */
  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;
    g_autoptr(JsonNode) body = NULL;
    g_autofree char *body_text = NULL;
    g_autofree char *cli = NULL;
    JsonObject *obj;

    spec.mode = DYN_READ_CONDITION;
    spec.filter = "year = 2013 AND genre = \"Drama\"";
    spec.limit = 25;
    read = dyn_read_request_new (movies, &spec);
    g_assert_true (dyn_read_request_is_valid (read));
    g_assert_cmpstr (dyn_read_request_get_table (read), ==, "movies");
    g_assert_null (dyn_read_request_get_index (read));
    g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
    g_assert_cmpint (dyn_read_request_get_plan (read)->operation, ==, DYN_EXPR_PLAN_QUERY);
    g_assert_cmpstr (dyn_read_request_get_expression (read, DYN_EXPR_ROLE_KEY_CONDITION), ==, "#y = :y");
    g_assert_cmpstr (dyn_read_request_get_expression (read, DYN_EXPR_ROLE_FILTER), ==, "#g = :g");
    body = dyn_read_request_dup_body (read);
    obj = json_node_get_object (body);
    g_assert_cmpstr (json_object_get_string_member (obj, "TableName"), ==, "movies");
    g_assert_cmpstr (json_object_get_string_member (obj, "KeyConditionExpression"), ==, "#y = :y");
    g_assert_cmpstr (json_object_get_string_member (obj, "FilterExpression"), ==, "#g = :g");
    g_assert_cmpint (json_object_get_int_member (obj, "Limit"), ==, 25);
    body_text = json_to_string (json_object_get_member (obj, "ExpressionAttributeValues"), FALSE);
    g_assert_cmpstr (body_text, ==, "{\":g\":{\"S\":\"Drama\"},\":y\":{\"N\":\"2013\"}}");
    cli = dyn_read_request_dup_snippet (read, DYN_SNIPPET_CLI, NULL, NULL);
    g_assert_nonnull (strstr (cli, "aws dynamodb query"));
    g_assert_nonnull (strstr (cli, "#y = :y"));
    g_assert_nonnull (strstr (cli, "#g = :g"));
    g_assert_nonnull (strstr (cli, "--page-size 25"));
  }

  /* As written: a key condition that is not valid here, and the index where it is. */
  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;

    spec.mode = DYN_READ_EXPLICIT;
    /* year is a reserved word: DynamoDB's syntax needs a #name for it. */
    spec.key_condition = "#y = :y AND rating > :r";
    spec.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert (spec.names, g_strdup ("#y"), g_strdup ("year"));
    spec.values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
    g_hash_table_insert (spec.values, g_strdup (":y"), dyn_value_new_number ("2013", NULL));
    g_hash_table_insert (spec.values, g_strdup (":r"), dyn_value_new_number ("8", NULL));
    read = dyn_read_request_new (movies, &spec);
    g_assert_false (dyn_read_request_is_valid (read));
    g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "KeyConditionExpression");
    g_assert_nonnull (strstr (dyn_read_request_get_error (read)->message, "local secondary index byRating"));
    g_assert_null (dyn_read_request_get_request (read));
    g_assert_cmpstr (dyn_read_request_get_suggested_index (read), ==, "byRating");
    g_assert_cmpstr (dyn_read_request_get_suggestion (read), ==, "Query on index byRating possible");
    g_clear_object (&read);

    spec.index = "byRating";
    read = dyn_read_request_new (movies, &spec);
    g_assert_true (dyn_read_request_is_valid (read));
    g_assert_cmpstr (dyn_read_request_get_request (read)->index, ==, "byRating");
    g_assert_cmpstr (dyn_read_request_get_expression (read, DYN_EXPR_ROLE_KEY_CONDITION), ==, "#y = :y AND #r > :r");
    g_hash_table_unref (spec.names);
    g_hash_table_unref (spec.values);
    g_assert_finalize_object (g_steal_pointer (&read));
  }

  /* Without the keys: as written; a text that does not parse names its field. */
  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;

    spec.table = "unknown";
    spec.key_condition = "id = \"a\"";
    spec.filter = "n > (";
    read = dyn_read_request_new (NULL, &spec);
    g_assert_false (dyn_read_request_is_valid (read));
    g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "FilterExpression");
    g_clear_object (&read);
    spec.filter = "n > 1";
    read = dyn_read_request_new (NULL, &spec);
    g_assert_true (dyn_read_request_is_valid (read));
    g_assert_null (dyn_read_request_get_plan (read));
    g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
    g_assert_cmpstr (dyn_read_request_get_request (read)->key_condition, ==, "#i = :i");
  }
}

/* ------------------------------------------------------------------------ */
/* Sharded keys */

static void
test_shards (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) s1 = dyn_expr_expand_shard_range ("WS#acme#01..10", &error);
  g_auto(GStrv) s2 = dyn_expr_expand_shard_range ("X#1..3", &error);
  g_auto(GStrv) s3 = dyn_expr_expand_shard_range ("X#008..011", &error);
  g_auto(GStrv) none = dyn_expr_expand_shard_range ("WS#acme", &error);
  g_auto(GStrv) none2 = dyn_expr_expand_shard_range ("a..b", &error);
  g_autoptr(GPtrArray) kcs = NULL;
  g_autoptr(DynExprNode) kc = parse_ok ("EntityRef = \"WS#acme#01..10\" AND begins_with(Detail, \"PROJ#\")",
                                        DYN_EXPR_ROLE_KEY_CONDITION);
  g_autoptr(DynExprNode) plain = parse_ok ("EntityRef = \"WS#acme\"", DYN_EXPR_ROLE_KEY_CONDITION);

  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (s1), ==, 10);
  g_assert_cmpstr (s1[0], ==, "WS#acme#01");
  g_assert_cmpstr (s1[8], ==, "WS#acme#09");
  g_assert_cmpstr (s1[9], ==, "WS#acme#10");
  g_assert_cmpuint (g_strv_length (s2), ==, 3);
  g_assert_cmpstr (s2[2], ==, "X#3");
  g_assert_cmpstr (s3[0], ==, "X#008");
  g_assert_cmpstr (s3[3], ==, "X#011");
  g_assert_null (none);
  g_assert_null (none2);

  g_assert_null (dyn_expr_expand_shard_range ("X#10..01", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  g_clear_error (&error);
  g_assert_null (dyn_expr_expand_shard_range ("X#0..99999", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  g_clear_error (&error);

  kcs = dyn_expr_expand_sharded_key_condition (kc, &projects_keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (kcs->len, ==, 10);
  for (guint i = 0; i < kcs->len; i++)
    {
      g_autoptr(GHashTable) values = NULL;
      g_autofree char *out = dyn_expr_compile (kcs->pdata[i], DYN_EXPR_ROLE_KEY_CONDITION, &projects_keys,
                                               NULL, &values, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (out, ==, "#er = :er AND begins_with(#d, :p)");
      assert_string_value (values, ":er", s1[i]);
    }
  /* The original is untouched. */
  {
    g_autofree char *text = dyn_expr_node_to_string (kc);

    g_assert_cmpstr (text, ==, "EntityRef = \"WS#acme#01..10\" AND begins_with(Detail, \"PROJ#\")");
  }
  g_assert_null (dyn_expr_expand_sharded_key_condition (plain, &projects_keys, &error));
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------------ */
/* Messages in the user's language */

/* The parser's errors with their position, the rules' errors (whose position
 * is added to a sentence of their own), and the planner's reasons and
 * suggestions come out in German or Turkish, each as one sentence with its
 * placeholders where the language wants them. Runs in a subprocess, which
 * keeps the language. */
static void
test_messages_translated (gconstpointer data)
{
  const char *language = data;
  gboolean german = g_str_equal (language, "de");
  g_autoptr(DynTableKeys) movies = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GError) error = NULL;
  glong offset = 0;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  dyn_test_use_translations (language);
  movies = movies_keys ();

  /* The parser: the position stays where it was, and in the sentence. */
  assert_parse_error ("(a = 1", DYN_EXPR_ROLE_FILTER,
                      german ? "')' erwartet bei Zeichen 7" : "7. karakterde ')' bekleniyordu", 6);
  assert_parse_error ("Größe = \"x\" AND ?", DYN_EXPR_ROLE_FILTER,
                      german ? "unerwartetes Zeichen '?' bei Zeichen 17"
                             : "17. karakterde beklenmeyen '?' karakteri", 16);
  assert_parse_error ("a = 1 b", DYN_EXPR_ROLE_FILTER,
                      german ? "AND, OR oder das Ende des Ausdrucks erwartet bei Zeichen 7"
                             : "7. karakterde AND, OR ya da ifadenin sonu bekleniyordu", 6);

  names = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (names, "#s", "Status");
  g_assert_null (dyn_expr_parse ("#s = 1 AND #t = 2", DYN_EXPR_ROLE_FILTER, names, NULL, &offset, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
  g_assert_cmpstr (error->message, ==,
                   german ? "der Namensplatzhalter #t bei Zeichen 12 ist nicht in ExpressionAttributeNames definiert"
                          : "12. karakterdeki #t ad yer tutucusu ExpressionAttributeNames içinde tanımlı değil");
  g_assert_cmpint (offset, ==, 11);
  g_clear_error (&error);

  /* A rule of DynamoDB, with the position of the value. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = \"2013\"", DYN_EXPR_ROLE_FILTER);

    g_assert_null (dyn_expr_plan_condition (movies, NULL, c, &error));
    g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
    g_assert_cmpstr (error->message, ==,
                     german ? "der Schlüssel year ist eine Zahl, aber der Wert hat den Typ S (bei Zeichen 8)"
                            : "year anahtarı bir sayı, ancak değer S türünde (8. karakter)");
    g_clear_error (&error);
  }

  /* The planner's reasons and suggestions. */
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = 2013 AND rating > 8", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (plan->reason, ==,
                     german ? "Query auf Tabelle movies: Partitionsschlüssel year = 2013"
                            : "movies tablosunda Query: bölüm anahtarı year = 2013");
    g_assert_cmpstr (plan->suggestion, ==,
                     german ? "Query auf Index byRating möglich: Sein Sortierschlüssel rating grenzt das Lesen ein"
                            : "byRating dizininde Query mümkün: sıralama anahtarı rating okumayı daraltır");
  }
  {
    g_autoptr(DynExprNode) c = parse_ok ("year = 2013 AND title > \"A\" AND title < \"M\"", DYN_EXPR_ROLE_FILTER);
    g_autoptr(DynExprPlan) plan = dyn_expr_plan_condition (movies, NULL, c, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (plan->reason, ==,
                     german ? "Scan: Die Bedingungen für die Schlüssel von Tabelle movies passen in keine "
                              "Schlüsselbedingung"
                            : "Scan: movies tablosunun anahtarlarındaki koşullar tek bir anahtar koşuluna "
                              "sığmıyor");
  }

  /* What the window and the command line show for a read. */
  {
    DynReadSpec spec = { 0 };
    g_autoptr(DynReadRequest) read = NULL;

    spec.mode = DYN_READ_EXPLICIT;
    spec.key_condition = "year = 2013 AND rating > 8";
    read = dyn_read_request_new (movies, &spec);
    g_assert_false (dyn_read_request_is_valid (read));
    g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "KeyConditionExpression");
    g_assert_cmpstr (dyn_read_request_get_error (read)->message, ==,
                     german ? "rating ist kein Schlüsselattribut; verschieben Sie es in "
                              "den Filter oder fragen Sie den lokalen sekundären Index byRating ab, dessen "
                              "Sortierschlüssel es ist (bei Zeichen 17)"
                            : "rating bir anahtar özniteliği değil; filtreye taşıyın ya da "
                              "sıralama anahtarı bu olan byRating yerel ikincil dizinini sorgulayın (17. karakter)");
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/expr/seed-key-condition", test_seed_key_condition);
  g_test_add_func ("/dyn/expr/seed-documents", test_seed_documents);
  g_test_add_func ("/dyn/expr/reference-examples", test_reference_examples);
  g_test_add_func ("/dyn/expr/literals", test_literals);
  g_test_add_func ("/dyn/expr/names", test_names_and_aliases);
  g_test_add_func ("/dyn/expr/reserved-words", test_reserved_words);
  g_test_add_func ("/dyn/expr/parentheses", test_parentheses);
  g_test_add_func ("/dyn/expr/error-positions", test_error_positions);
  g_test_add_func ("/dyn/expr/placeholders", test_placeholders_maps);
  g_test_add_func ("/dyn/expr/rules/key-condition", test_key_condition_rules);
  g_test_add_func ("/dyn/expr/multikey/schema", test_multikey_schema);
  g_test_add_func ("/dyn/expr/multikey/key-conditions", test_multikey_key_conditions);
  g_test_add_func ("/dyn/expr/multikey/plan", test_multikey_plan);
  g_test_add_func ("/dyn/expr/multikey/follow", test_multikey_follow);
  g_test_add_func ("/dyn/expr/multikey/read-request", test_multikey_read_request);
  g_test_add_func ("/dyn/expr/rules/update", test_update_rules);
  g_test_add_func ("/dyn/expr/rules/condition", test_condition_rules);
  g_test_add_func ("/dyn/expr/context", test_context_collisions);
  g_test_add_func ("/dyn/expr/round-trip", test_round_trip);
  g_test_add_func ("/dyn/expr/builder", test_builder);
  g_test_add_func ("/dyn/expr/planner", test_planner);
  g_test_add_func ("/dyn/expr/plan-condition", test_plan_condition);
  g_test_add_func ("/dyn/expr/plan-local-index", test_plan_local_index);
  g_test_add_func ("/dyn/expr/read-request", test_read_request);
  g_test_add_func ("/dyn/expr/shards", test_shards);
  g_test_add_data_func ("/dyn/expr/messages-translated/de", "de", test_messages_translated);
  g_test_add_data_func ("/dyn/expr/messages-translated/tr", "tr", test_messages_translated);

  return g_test_run ();
}
