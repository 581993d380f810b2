/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The PartiQL linter and calls on DynamoDB Local: every lint rule with
 * positive and negative cases and its position; every statement the linter
 * calls fine is sent to DynamoDB Local and must be accepted, and the errors
 * of the rules about what DynamoDB accepts must be refused by it too.
 * Execution with parameters, NextToken paging, transactions, read-only
 * refusal, and `dynoscope-cli partiql`.
 */
#include "config.h"

#include <string.h>

#include "dyn-json.h"
#include "dyn-partiql.h"
#include "dyn-table.h"
#include "dyn-test-util.h"

/* Three tables unlike each other: PK/SK strings with a GSI, hash-only, a
 * numeric partition key (movies). */
typedef struct {
  DynTestServer *server;
  DynClient     *client;
  char          *t;     /* PK S, SK S; GSI1 GSI1PK/GSI1SK */
  char          *h;     /* id S */
  char          *m;     /* year N, title S */
  GHashTable    *keys;  /* name → DynTableKeys */
} Fixture;

static Fixture fx;

static const DynTableKeys *
schema_cb (const char *table,
           gpointer    user_data)
{
  return g_hash_table_lookup (((Fixture *) user_data)->keys, table);
}

static void
describe (const char *table)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) description = NULL;
  g_autoptr(GError) error = NULL;
  DynTableKeys *keys = NULL;

  dyn_client_describe_table_async (fx.client, table, NULL, dyn_test_result_cb, &result);
  description = dyn_client_describe_table_finish (fx.client, dyn_test_wait (&result), &keys, &error);
  g_assert_no_error (error);
  g_assert_nonnull (keys);
  g_hash_table_insert (fx.keys, g_strdup (table), keys);
}

static gboolean
fixture_ensure (void)
{
  g_autoptr(GError) error = NULL;
  const char * const gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };

  if (fx.client != NULL)
    return TRUE;
  fx.server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  if (fx.server == NULL)
    return FALSE;
  fx.client = dyn_test_client_new (fx.server);
  fx.keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_table_keys_free);
  fx.t = dyn_test_table_name ("pqt");
  fx.h = dyn_test_table_name ("pqh");
  fx.m = dyn_test_table_name ("pqm");
  g_assert_true (dyn_test_create_table (fx.client, fx.t, "PK:S", "SK:S", gsis, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (fx.client, fx.h, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (fx.client, fx.m, "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  describe (fx.t);
  describe (fx.h);
  describe (fx.m);
  return TRUE;
}

/* $T $H $M → the quoted table names. */
static char *
expand (const char *statement)
{
  GString *out = g_string_new (NULL);

  for (const char *s = statement; *s != '\0'; s++)
    {
      if (*s == '$' && (s[1] == 'T' || s[1] == 'H' || s[1] == 'M'))
        {
          const char *name = s[1] == 'T' ? fx.t : s[1] == 'H' ? fx.h : fx.m;
          g_string_append_printf (out, "\"%s\"", name);
          s++;
        }
      else
        g_string_append_c (out, *s);
    }
  return g_string_free (out, FALSE);
}

static DynPartiqlPage *
execute (const char      *statement,
         const DynValue  *parameters,
         const char      *next_token,
         GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_partiql_execute_async (fx.client, statement, parameters, next_token, NULL, dyn_test_result_cb, &result);
  return dyn_partiql_execute_finish (fx.client, dyn_test_wait (&result), error);
}

/* A DynamoDB-JSON list of values as a DynValue list. */
static DynValue *
ddb_list (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = dyn_json_parse (json, strlen (json), &error);
  DynValue *list = dyn_value_new_list ();
  JsonArray *array;

  g_assert_no_error (error);
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      DynValue *value = dyn_value_from_ddb_json (json_array_get_element (array, i), &error);
      g_assert_no_error (error);
      dyn_value_list_take (list, value);
    }
  return list;
}

static gboolean
has_error (GPtrArray *diags)
{
  for (guint i = 0; i < diags->len; i++)
    if (((DynPartiqlDiagnostic *) diags->pdata[i])->severity == DYN_PARTIQL_ERROR)
      return TRUE;
  return FALSE;
}

static const DynPartiqlDiagnostic *
find_code (GPtrArray  *diags,
           const char *code)
{
  for (guint i = 0; i < diags->len; i++)
    if (strcmp (((DynPartiqlDiagnostic *) diags->pdata[i])->code, code) == 0)
      return diags->pdata[i];
  return NULL;
}

enum { RUN, REFUSED, SKIP };

/* @code: the diagnostic expected ("!code": must not be there; NULL: none at
 * all); @at: the text it starts at (last occurrence, after expansion);
 * @local: RUN — without an error it must run on Local; REFUSED — Local
 * refuses it too; SKIP — not sent (a rule about meaning, or a limit of AWS
 * that Local does not have). */
static const struct {
  const char *statement;
  const char *code;
  const char *at;
  int         local;
} cases[] = {
  /* syntax */
  { "SELECT * FROM $T WHERE PK = 'a' AND", "syntax", NULL, REFUSED },
  { "SELECT * FRM $T", "syntax", "FRM", REFUSED },
  { "INSERT INTO $T VALUES {'PK': 'a', 'SK': 'v'}", "syntax", "VALUES", REFUSED },
  { "SELECT * FROM $T WHERE x = 0x1F", "syntax", "0x1F", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'it''s' -- a comment", NULL, NULL, RUN },
  { "SELECT * FROM $T /* c */ WHERE PK = 'a'", NULL, NULL, RUN },
  { "select * from $T where PK = 'a' order by SK desc", NULL, NULL, RUN },
  /* full-scan */
  { "SELECT * FROM $T", "full-scan", "\"pqt", RUN },
  { "SELECT * FROM $T WHERE Status = 'ACTIVE'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE PK = 'a' OR SK = 'b'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE PK > 'a'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE NOT PK = 'a'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE pk = 'a'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE PK = 'a'", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE 'a' = PK", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE PK = 'a' OR PK = 'b'", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE (PK = 'a' OR PK = 'b') AND SK = 'c'", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE PK IN ['a', 'b'] AND begins_with(SK, 'x')", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE PK = 'a' AND (SK = 'b' OR size(x) > 3)", NULL, NULL, RUN },
  { "SELECT * FROM $T.\"GSI1\" WHERE GSI1PK = 'g'", NULL, NULL, RUN },
  { "SELECT * FROM $T.\"GSI1\" WHERE PK = 'a'", "full-scan", "\"pqt", RUN },
  { "SELECT * FROM $T WHERE GSI1PK = 'g'", "full-scan", "\"pqt", RUN },
  { "SELECT * FROM $H WHERE id = 'h1' AND x IS NOT MISSING", NULL, NULL, RUN },
  { "SELECT * FROM $H WHERE x IS MISSING", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $M WHERE year = 1999 AND title BETWEEN 'a' AND 'z'", NULL, NULL, RUN },
  { "SELECT * FROM $M WHERE title = 'x'", "full-scan", "WHERE", RUN },
  { "SELECT * FROM $T WHERE $T.PK = 'a'", NULL, NULL, RUN },
  /* double-quoted-string */
  { "SELECT * FROM $T WHERE PK = 'a' AND Status = \"ACTIVE\"", "double-quoted-string", "\"ACTIVE\"", SKIP },
  { "SELECT * FROM $T WHERE PK = \"WS#acme\"", "double-quoted-string", "\"WS#acme\"", SKIP },
  { "SELECT * FROM $T WHERE PK = 'a' AND begins_with(SK, \"PROJ#\")", "double-quoted-string", "\"PROJ#\"", SKIP },
  { "SELECT * FROM $T WHERE \"PK\" = 'a'", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE PK = 'a' AND x = y", NULL, NULL, RUN },
  { "SELECT * FROM $T WHERE PK = 'a' AND GSI1PK = \"SK\"", "!double-quoted-string", NULL, SKIP },
  /* SQL DynamoDB refuses */
  { "SELECT * FROM $T a JOIN $H b ON a.PK = b.id", "join", "a JOIN", REFUSED },
  { "SELECT * FROM $T, $H", "join", ",", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' GROUP BY SK", "group-by", "GROUP", REFUSED },
  { "SELECT COUNT(*) FROM $T WHERE PK = 'a'", "count", "COUNT", REFUSED },
  { "SELECT MAX(x) FROM $T WHERE PK = 'a'", "aggregate", "MAX", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' LIMIT 5", "limit", "LIMIT", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' OFFSET 3", "offset", "OFFSET", REFUSED },
  { "SELECT DISTINCT SK FROM $T WHERE PK = 'a'", "distinct", "DISTINCT", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' HAVING 1", "having", "HAVING", REFUSED },
  { "SELECT * FROM $T WHERE PK IN (SELECT id FROM $H)", "subquery", "(SELECT", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' UNION SELECT * FROM $H", "union", "UNION", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND SK LIKE 'PROJ#%'", "like", "SK LIKE", REFUSED },
  { "SELECT * FROM $T AS x WHERE PK = 'a'", "alias", "AS", REFUSED },
  { "SELECT size(x) FROM $T WHERE PK = 'a'", "projection", "size", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND x = 1 + 2", "operator", "1 + 2", REFUSED },
  { "SELECT * FROM $T WHERE PK = `a`", "ion-literal", "`a`", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND x = MISSING", "missing-compare", "x = MISSING", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND lower(x) = 'b'", "unknown-function", "lower", REFUSED },
  { "SELECT * FROM $T WHERE PK.x = 'a'", "key-path", "PK.x", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND attribute_type(x, 'S') AND contains(y, 'z')", NULL, NULL, RUN },
  { "SELECT PK, info.rating, tags[0], \"odd name\" FROM $T WHERE PK = 'a'", NULL, NULL, RUN },
  /* ORDER BY */
  { "SELECT * FROM $T ORDER BY SK", "order-by", "ORDER", REFUSED },
  { "SELECT * FROM $T WHERE x = 'a' ORDER BY SK", "order-by", "ORDER", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' ORDER BY x", "order-by", "x", REFUSED },
  { "SELECT * FROM $M WHERE year = 1999 ORDER BY year, title DESC", NULL, NULL, RUN },
  /* key types, numbers */
  { "SELECT * FROM $M WHERE year = '1999'", "key-type", "'1999'", REFUSED },
  { "SELECT * FROM $T WHERE PK = 'a' AND SK = 5", "key-type", "5", REFUSED },
  { "SELECT * FROM $T.\"GSI1\" WHERE GSI1PK = 5", "key-type", "5", REFUSED },
  { "SELECT * FROM $M WHERE year = 123456789012345678901234567890123456789", "number-digits", "123456789012345678901234567890123456789", REFUSED },
  { "SELECT * FROM $M WHERE year = 12345678901234567890123456789012345678", NULL, NULL, RUN },
  { "SELECT * FROM $M WHERE year = 1234567890123456789012345678901234567800000", NULL, NULL, RUN },
  { "SELECT * FROM $M WHERE year = -0.000000000000000000000000000000000000000012345678901234567890123456789012345678", NULL, NULL, RUN },
  { "SELECT * FROM $M WHERE year = 1e126", "number-range", "1e126", REFUSED },
  { "SELECT * FROM $M WHERE year = 9.99e125", NULL, NULL, RUN },
  { "SELECT * FROM $M WHERE year = 1e-131", "number-range", "1e-131", REFUSED },
  { "SELECT * FROM $M WHERE year = 1e-130", NULL, NULL, RUN },
  /* unknown index */
  { "SELECT * FROM $T.\"Nope\" WHERE PK = 'a'", "unknown-index", "\"pqt", REFUSED },
  /* writes */
  { "INSERT INTO $T VALUE {'PK': 'a', 'SK': 'ins1', 'n': 1, 's': <<'x', 'y'>>, 'l': [1, 'a', {'m': null}]}", NULL, NULL, RUN },
  { "INSERT INTO $T VALUE {'PK': 'a'}", "insert-no-key", "{", REFUSED },
  { "INSERT INTO $H VALUE {'name': 'x'}", "insert-no-key", "{", REFUSED },
  { "INSERT INTO $T VALUE {'PK': 'a', 'SK': 5}", "key-type", "5}", REFUSED },
  { "INSERT INTO $T VALUE {'PK': 'a', 'SK': 'ins2', 'GSI1PK': 5}", "key-type", "5}", REFUSED },
  { "INSERT INTO $T VALUE {\"PK\": 'a', 'SK': 'ins3'}", "insert-name", "\"PK\"", REFUSED },
  { "INSERT INTO $M VALUE {'year': 2001, 'title': 'Odyssey', 'info': {'rating': 9, 'cast': ['a', 'b']}}", NULL, NULL, RUN },
  { "UPDATE $T SET x = 2, y = 'q' REMOVE z WHERE PK = 'a' AND SK = 'b'", NULL, NULL, RUN },
  { "UPDATE $T SET x = x + 1 WHERE PK = 'a' AND SK = 'b' RETURNING ALL NEW *", NULL, NULL, RUN },
  { "UPDATE $T SET x = 2 WHERE PK = 'a'", "no-full-key", "WHERE", REFUSED },
  { "UPDATE $T SET x = 2 WHERE PK = 'a' OR SK = 'b'", "no-full-key", "WHERE", REFUSED },
  { "UPDATE $T SET x = 3 WHERE PK IN ['a'] AND SK = 'b'", "no-full-key", "WHERE", REFUSED },
  { "UPDATE $T SET PK = 'z' WHERE PK = 'a' AND SK = 'b'", "update-key", "PK = 'z'", REFUSED },
  { "UPDATE $M SET x = 1 WHERE year = '1999' AND title = 'x'", "key-type", "'1999'", REFUSED },
  { "UPDATE $M SET x = 1 WHERE year = 1999 AND title = 'x'", NULL, NULL, RUN },
  { "DELETE FROM $T WHERE PK = 'a'", "no-full-key", "WHERE", REFUSED },
  { "DELETE FROM $H", "no-full-key", "DELETE", REFUSED },
  { "DELETE FROM $T WHERE PK = 'a' AND SK = 'ins1' RETURNING ALL OLD *", NULL, NULL, RUN },
  { "DELETE FROM $H WHERE id = 'gone'", NULL, NULL, RUN },
  { "DELETE FROM $T.\"GSI1\" WHERE PK = 'a' AND SK = 'b'", "write-index", "\"pqt", REFUSED },
};

static void
assert_at (const char                 *text,
           const DynPartiqlDiagnostic *d,
           const char                 *at)
{
  const char *p;
  guint column = 1;

  if (at == NULL)
    return;
  p = g_strrstr (text, at);   /* the last: table names hold digits */
  g_assert_nonnull (p);
  g_assert_cmpuint (d->start, ==, (gsize) (p - text));
  g_assert_cmpuint (d->end, >, d->start);
  g_assert_cmpuint (d->line, ==, 1);
  for (const char *s = text; s < p; s = g_utf8_next_char (s))
    column++;
  g_assert_cmpuint (d->column, ==, column);
}

static void
test_rules (void)
{
  g_autoptr(GError) error = NULL;
  guint sent = 0;
  guint refused = 0;

  if (!fixture_ensure ())
    return;
  /* the items the writes and reads find */
  for (guint i = 0; i < 3; i++)
    {
      static const char * const seed[] = {
        "INSERT INTO $T VALUE {'PK': 'a', 'SK': 'b', 'x': 1, 'GSI1PK': 'g', 'GSI1SK': 's'}",
        "INSERT INTO $H VALUE {'id': 'h1'}",
        "INSERT INTO $M VALUE {'year': 1999, 'title': 'x'}",
      };
      g_autofree char *text = expand (seed[i]);
      g_autoptr(DynPartiqlPage) page = execute (text, NULL, NULL, &error);
      g_assert_no_error (error);
    }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = expand (cases[i].statement);
      g_autoptr(GPtrArray) diags = dyn_partiql_lint (text, schema_cb, &fx);
      const char *code = cases[i].code;

      g_test_message ("case %u: %s", i, text);
      for (guint j = 0; j < diags->len; j++)
        {
          const DynPartiqlDiagnostic *d = diags->pdata[j];
          g_test_message ("  %u:%u %s: %s", d->line, d->column, d->code, d->message);
        }
      if (code == NULL)
        g_assert_cmpuint (diags->len, ==, 0);
      else if (code[0] == '!')
        g_assert_null (find_code (diags, code + 1));
      else
        {
          const DynPartiqlDiagnostic *d = find_code (diags, code);
          g_assert_nonnull (d);
          assert_at (text, d, cases[i].at);
        }

      if (cases[i].local == SKIP)
        continue;
      {
        g_autoptr(GError) local_error = NULL;
        g_autoptr(DynPartiqlPage) page = execute (text, NULL, NULL, &local_error);

        if (!has_error (diags))
          {
            /* Accepted: a data condition (the item exists, or not) is not a refusal. */
            g_assert_cmpint (cases[i].local, ==, RUN);
            if (local_error != NULL)
              g_assert_true (g_error_matches (local_error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED));
            sent++;
          }
        else
          {
            g_assert_cmpint (cases[i].local, ==, REFUSED);
            g_assert_null (page);
            g_assert_nonnull (local_error);
            g_assert_true (local_error->domain == DYN_ERROR);
            g_assert_true (local_error->code == DYN_ERROR_VALIDATION || local_error->code == DYN_ERROR_NOT_FOUND);
            refused++;
          }
      }
    }
  g_test_message ("%u statements accepted, %u refused by DynamoDB Local", sent, refused);
}

/* IN on the partition key: more than 50 values is an error (AWS's documented
 * limit; Local accepts up to 100), more than 100 on any attribute (Local
 * refuses 101). */
static void
test_in_limits (void)
{
  if (!fixture_ensure ())
    return;
  for (guint n = 50; n <= 101; n++)
    {
      g_autoptr(GString) pk = g_string_new ("SELECT * FROM $T WHERE PK IN [");
      g_autoptr(GString) other = g_string_new ("SELECT * FROM $T WHERE PK = 'a' AND x IN [");
      g_autofree char *pk_text = NULL;
      g_autofree char *other_text = NULL;
      g_autoptr(GPtrArray) pk_diags = NULL;
      g_autoptr(GPtrArray) other_diags = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynPartiqlPage) page = NULL;

      if (n != 50 && n != 51 && n != 100 && n != 101)
        continue;
      for (guint i = 0; i < n; i++)
        {
          g_string_append_printf (pk, "%s'k%u'", i ? ", " : "", i);
          g_string_append_printf (other, "%s'k%u'", i ? ", " : "", i);
        }
      g_string_append (pk, "]");
      g_string_append (other, "]");
      pk_text = expand (pk->str);
      other_text = expand (other->str);
      pk_diags = dyn_partiql_lint (pk_text, schema_cb, &fx);
      other_diags = dyn_partiql_lint (other_text, schema_cb, &fx);
      g_assert_true ((find_code (pk_diags, "in-too-many") != NULL) == (n > 50));
      g_assert_true ((find_code (other_diags, "in-too-many") != NULL) == (n > 100));
      if (n > 50)
        g_assert_cmpuint (find_code (pk_diags, "in-too-many")->start, ==, strstr (pk_text, "PK IN") - pk_text);
      page = execute (other_text, NULL, NULL, &error);
      if (n > 100)
        g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
      else
        g_assert_no_error (error);
    }
}

/* Lines and columns count characters; several statements, positions relative to the whole text. */
static void
test_positions (void)
{
  const char *text = "SELECT * FROM \"Tüble\"\n  WHERE \"näme\" = 'ü' AND x = \"y\";\nDELETE FROM \"Tüble\" WHERE PK = 'a'";
  g_autoptr(DynTableKeys) keys = dyn_table_keys_new ("Tüble", "PK", DYN_VALUE_S, "SK", DYN_VALUE_S);
  g_autoptr(GHashTable) map = g_hash_table_new (g_str_hash, g_str_equal);
  Fixture f = { .keys = map };
  g_autoptr(GPtrArray) diags = NULL;
  const DynPartiqlDiagnostic *d;

  g_hash_table_insert (map, (gpointer) "Tüble", keys);
  diags = dyn_partiql_lint (text, schema_cb, &f);
  d = find_code (diags, "double-quoted-string");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->line, ==, 2);
  g_assert_cmpuint (d->column, ==, 30);
  g_assert_cmpuint (d->start, ==, strstr (text, "\"y\"") - text);
  g_assert_cmpuint (d->end, ==, d->start + 3);
  g_assert_cmpstr (d->fix_text, ==, "'y'");
  d = find_code (diags, "full-scan");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->line, ==, 2);
  g_assert_cmpuint (d->column, ==, 3);
  d = find_code (diags, "no-full-key");
  g_assert_nonnull (d);
  g_assert_cmpuint (d->line, ==, 3);
  g_assert_cmpuint (d->column, ==, 21);
  /* in order of position */
  for (guint i = 1; i < diags->len; i++)
    g_assert_cmpuint (((DynPartiqlDiagnostic *) diags->pdata[i - 1])->start, <=,
                      ((DynPartiqlDiagnostic *) diags->pdata[i])->start);
  /* an unterminated string is a syntax error where it starts */
  {
    g_autoptr(GPtrArray) bad = dyn_partiql_lint ("SELECT * FROM t WHERE x = 'abc", NULL, NULL);
    d = find_code (bad, "syntax");
    g_assert_nonnull (d);
    g_assert_cmpuint (d->column, ==, 27);
  }
}

static char *
apply_fix (const char                 *text,
           const DynPartiqlDiagnostic *d)
{
  g_assert_nonnull (d->fix_text);
  g_assert_nonnull (d->fix_label);
  return g_strdup_printf ("%.*s%s%s", (int) d->start, text, d->fix_text, text + d->end);
}

/* Each quick fix gives a statement without that diagnostic, which Local runs. */
static void
test_fixes (void)
{
  static const struct {
    const char *statement;
    const char *code;
    const char *fixed;
  } fixes[] = {
    { "SELECT * FROM $T WHERE PK = \"a\"", "double-quoted-string", "SELECT * FROM $T WHERE PK = 'a'" },
    { "SELECT * FROM $T WHERE PK = 'a' AND SK LIKE 'PRO''J%'", "like",
      "SELECT * FROM $T WHERE PK = 'a' AND begins_with(SK, 'PRO''J')" },
    { "SELECT * FROM $T WHERE GSI1PK = 'g'", "full-scan", "SELECT * FROM $T.\"GSI1\" WHERE GSI1PK = 'g'" },
    { "SELECT * FROM $T.\"GSI1\" WHERE PK = 'a'", "full-scan", "SELECT * FROM $T WHERE PK = 'a'" },
    { "SELECT * FROM $T WHERE PK = 'a' AND x <> MISSING", "missing-compare",
      "SELECT * FROM $T WHERE PK = 'a' AND x IS NOT MISSING" },
    { "INSERT INTO $T VALUE {\"PK\": 'a', 'SK': 'fix'}", "insert-name", "INSERT INTO $T VALUE {'PK': 'a', 'SK': 'fix'}" },
  };

  if (!fixture_ensure ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (fixes); i++)
    {
      g_autofree char *text = expand (fixes[i].statement);
      g_autofree char *want = expand (fixes[i].fixed);
      g_autoptr(GPtrArray) diags = dyn_partiql_lint (text, schema_cb, &fx);
      g_autoptr(GPtrArray) after = NULL;
      g_autofree char *fixed = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynPartiqlPage) page = NULL;

      fixed = apply_fix (text, find_code (diags, fixes[i].code));
      g_assert_cmpstr (fixed, ==, want);
      after = dyn_partiql_lint (fixed, schema_cb, &fx);
      g_assert_false (has_error (after));
      g_assert_null (find_code (after, fixes[i].code));
      page = execute (fixed, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  /* LIKE without a plain prefix has no fix, still open in SQL */
  {
    g_autoptr(GPtrArray) diags = dyn_partiql_lint ("SELECT * FROM t WHERE x LIKE '%a'", NULL, NULL);
    const DynPartiqlDiagnostic *d = find_code (diags, "like");
    g_assert_nonnull (d);
    g_assert_null (d->fix_text);
    g_assert_true (d->open_in_sql);
  }
}

static void
test_unknown_table (void)
{
  const char * const tables[] = { "Known", NULL };
  g_autoptr(GPtrArray) diags = dyn_partiql_lint_with_tables ("SELECT * FROM Known WHERE a = 1;\nSELECT * FROM known",
                                                             NULL, NULL, tables);
  const DynPartiqlDiagnostic *d = find_code (diags, "unknown-table");

  g_assert_nonnull (d);
  g_assert_cmpuint (d->line, ==, 2);
  g_assert_cmpuint (d->column, ==, 15);
  g_assert_cmpuint (diags->len, ==, 1);
  g_clear_pointer (&diags, g_ptr_array_unref);
  /* without the list: nothing to say */
  diags = dyn_partiql_lint ("SELECT * FROM known", NULL, NULL);
  g_assert_cmpuint (diags->len, ==, 0);
}

static void
test_inspect (void)
{
  g_autoptr(DynTableKeys) keys = dyn_table_keys_new ("T", "PK", DYN_VALUE_S, "SK", DYN_VALUE_S);
  g_autoptr(GHashTable) map = g_hash_table_new (g_str_hash, g_str_equal);
  Fixture f = { .keys = map };
  g_autoptr(DynPartiqlInfo) sel = dyn_partiql_inspect ("SELECT * FROM \"T\".\"GSI1\" WHERE GSI1PK = ? AND x = 'y'");
  g_autoptr(DynPartiqlInfo) upd = dyn_partiql_inspect ("UPDATE T SET x = ? WHERE SK = 'META' AND PK = 'WS#acme'");
  g_autoptr(DynPartiqlInfo) upd2 = NULL;
  g_autoptr(DynPartiqlInfo) ins = NULL;
  g_autoptr(DynPartiqlInfo) del = dyn_partiql_inspect ("  DELETE FROM T WHERE PK = 'a' AND SK = 'b' AND v = 3");
  g_autoptr(DynPartiqlInfo) bad = dyn_partiql_inspect ("SHOW TABLES");
  g_autoptr(GPtrArray) parts = dyn_partiql_split ("SELECT 'a;b', \"c;d\" FROM t; -- x;\n ;DELETE FROM t WHERE a = 1;");

  g_hash_table_insert (map, (gpointer) "T", keys);
  g_assert_cmpint (sel->kind, ==, DYN_PARTIQL_SELECT);
  g_assert_cmpstr (sel->table, ==, "T");
  g_assert_cmpstr (sel->index, ==, "GSI1");
  g_assert_cmpuint (sel->n_parameters, ==, 1);
  g_assert_false (sel->is_write);
  g_assert_cmpstr (sel->keys, ==, "GSI1PK = ?, x = 'y'");

  g_assert_cmpint (upd->kind, ==, DYN_PARTIQL_UPDATE);
  g_assert_true (upd->is_write);
  g_assert_cmpstr (upd->keys, ==, "SK = 'META', PK = 'WS#acme'");
  g_assert_cmpuint (upd->n_parameters, ==, 1);
  upd2 = dyn_partiql_inspect_with_schema ("UPDATE T SET x = ? WHERE SK = 'META' AND PK = 'WS#acme'", schema_cb, &f);
  g_assert_cmpstr (upd2->keys, ==, "PK = 'WS#acme', SK = 'META'");

  ins = dyn_partiql_inspect_with_schema ("INSERT INTO T VALUE {'x': 1, 'SK': 'b', 'PK': ?}", schema_cb, &f);
  g_assert_cmpint (ins->kind, ==, DYN_PARTIQL_INSERT);
  g_assert_true (ins->is_write);
  g_assert_cmpstr (ins->keys, ==, "PK = ?, SK = 'b'");
  g_assert_cmpuint (ins->n_parameters, ==, 1);

  g_assert_cmpint (del->kind, ==, DYN_PARTIQL_DELETE);
  g_assert_cmpstr (del->keys, ==, "PK = 'a', SK = 'b', v = 3");
  g_assert_cmpint (bad->kind, ==, DYN_PARTIQL_UNKNOWN);
  g_assert_false (bad->is_write);

  g_assert_cmpuint (parts->len, ==, 2);
  g_assert_cmpstr (parts->pdata[0], ==, "SELECT 'a;b', \"c;d\" FROM t");
  g_assert_cmpstr (parts->pdata[1], ==, "DELETE FROM t WHERE a = 1");
}

/* Typed parameters (DynamoDB JSON list), exact numbers, binary. */
static void
test_parameters (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) params = NULL;
  g_autoptr(DynValue) select = NULL;
  g_autoptr(DynPartiqlPage) page = NULL;
  g_autofree char *insert = NULL;
  g_autofree char *query = NULL;
  g_autoptr(DynPartiqlInfo) info = NULL;
  DynValue *item;

  if (!fixture_ensure ())
    return;
  insert = expand ("INSERT INTO $T VALUE {'PK': ?, 'SK': ?, 'n': ?, 'b': ?, 'ss': ?, 'm': ?}");
  info = dyn_partiql_inspect (insert);
  g_assert_cmpuint (info->n_parameters, ==, 6);
  params = ddb_list (
    "[{\"S\": \"par\"}, {\"S\": \"1\"}, {\"N\": \"12345678901234567890123456789012345678\"},"
    " {\"B\": \"AAEC\"}, {\"SS\": [\"x\", \"y\"]}, {\"M\": {\"deep\": {\"L\": [{\"N\": \"1\"}]}}}]");
  page = execute (insert, params, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&page, dyn_partiql_page_free);

  query = expand ("SELECT * FROM $T WHERE PK = ? AND SK = ?");
  select = ddb_list ("[{\"S\": \"par\"}, {\"S\": \"1\"}]");
  page = execute (query, select, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 1);
  item = page->items->pdata[0];
  g_assert_cmpstr (dyn_test_item_get_number (item, "n"), ==, "12345678901234567890123456789012345678");
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "b")), ==, DYN_VALUE_B);
  g_assert_cmpuint (g_bytes_get_size (dyn_value_get_binary (dyn_value_map_lookup (item, "b"))), ==, 3);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "ss")), ==, DYN_VALUE_SS);
  g_clear_pointer (&page, dyn_partiql_page_free);

  /* a parameter count that does not match is Local's ValidationException */
  page = execute (query, NULL, NULL, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
}

/* ExecuteStatement pages: NextToken with the identical statement text gives all items once. */
static void
test_paging (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *big = g_strnfill (300 * 1024, 'x');
  g_autofree char *insert = NULL;
  g_autofree char *query = NULL;
  g_autofree char *next = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint pages = 0;

  if (!fixture_ensure ())
    return;
  insert = expand ("INSERT INTO $H VALUE {'id': ?, 'big': ?}");
  for (guint i = 0; i < 8; i++)
    {
      g_autoptr(DynValue) params = dyn_value_new_list ();
      g_autoptr(DynPartiqlPage) page = NULL;
      g_autofree char *id = g_strdup_printf ("page-%u", i);

      dyn_value_list_take (params, dyn_value_new_string (id));
      dyn_value_list_take (params, dyn_value_new_string (big));
      page = execute (insert, params, NULL, &error);
      g_assert_no_error (error);
    }
  query = expand ("SELECT id FROM $H WHERE begins_with(id, 'page-') AND size(big) > 10");
  do
    {
      g_autoptr(DynPartiqlPage) page = execute (query, NULL, next, &error);

      g_assert_no_error (error);
      pages++;
      for (guint i = 0; i < page->items->len; i++)
        g_assert_true (g_hash_table_add (seen, g_strdup (dyn_test_item_get_string (page->items->pdata[i], "id"))));
      g_free (next);
      next = g_strdup (page->next_token);
    }
  while (next != NULL);
  g_assert_cmpuint (g_hash_table_size (seen), ==, 8);
  g_assert_cmpuint (pages, >, 1);
}

static DynPartiqlPage *
transaction (GPtrArray  *statements,
             GPtrArray  *parameters,
             GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_partiql_transaction_async (fx.client, statements, parameters, NULL, dyn_test_result_cb, &result);
  return dyn_partiql_transaction_finish (fx.client, dyn_test_wait (&result), error);
}

static void
test_transaction (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) statements = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) parameters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(DynPartiqlPage) page = NULL;
  g_autoptr(GPtrArray) reads = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) lint = NULL;

  if (!fixture_ensure ())
    return;
  g_ptr_array_add (statements, expand ("INSERT INTO $T VALUE {'PK': 'tx', 'SK': '1', 'v': 1}"));
  g_ptr_array_add (statements, expand ("INSERT INTO $T VALUE {'PK': 'tx', 'SK': ?, 'v': 2}"));
  g_ptr_array_add (parameters, dyn_value_new_list ());
  g_ptr_array_add (parameters, dyn_value_new_list ());
  dyn_value_list_take (parameters->pdata[1], dyn_value_new_string ("2"));
  page = transaction (statements, parameters, &error);
  g_assert_no_error (error);
  g_clear_pointer (&page, dyn_partiql_page_free);

  /* A read transaction returns the items. */
  g_ptr_array_add (reads, expand ("SELECT * FROM $T WHERE PK = 'tx' AND SK = '1'"));
  g_ptr_array_add (reads, expand ("SELECT * FROM $T WHERE PK = 'tx' AND SK = '2'"));
  page = transaction (reads, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (page->items->len, ==, 2);
  g_clear_pointer (&page, dyn_partiql_page_free);

  /* The second statement's condition fails: the error names it. */
  g_ptr_array_set_size (statements, 0);
  g_ptr_array_add (statements, expand ("UPDATE $T SET v = 10 WHERE PK = 'tx' AND SK = '1'"));
  g_ptr_array_add (statements, expand ("UPDATE $T SET v = 20 WHERE PK = 'tx' AND SK = '2' AND v = 99"));
  g_ptr_array_add (statements, expand ("EXISTS(SELECT * FROM $T WHERE PK = 'a' AND SK = 'b' AND attribute_type(PK, 'S'))"));
  {
    g_autofree char *joined = g_strjoinv (";\n", (char **) (gpointer[]) { statements->pdata[0], statements->pdata[1],
                                                                          statements->pdata[2], NULL });
    lint = dyn_partiql_lint (joined, schema_cb, &fx);
    g_assert_false (has_error (lint));
  }
  page = transaction (statements, NULL, &error);
  g_assert_null (page);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED);
  g_assert_nonnull (strstr (error->message, "statement 2 ("));
  g_assert_nonnull (strstr (error->message, "ConditionalCheckFailed"));
  g_assert_null (strstr (error->message, "statement 1 ("));
  /* EXISTS without a condition besides the key, and EXISTS alone: errors of the
   * linter that Local refuses too */
  {
    g_autofree char *no_condition = expand ("UPDATE $T SET v = 10 WHERE PK = 'tx' AND SK = '1';\n"
                                            "EXISTS(SELECT * FROM $T WHERE PK = 'a' AND SK = 'b')");
    g_autoptr(GPtrArray) parts = dyn_partiql_split (no_condition);
    g_autoptr(GPtrArray) found = dyn_partiql_lint (no_condition, schema_cb, &fx);
    g_autoptr(GError) local_error = NULL;
    g_autoptr(DynPartiqlPage) refused = NULL;
    const DynPartiqlDiagnostic *d = find_code (found, "exists");

    g_assert_nonnull (d);
    g_assert_cmpuint (d->line, ==, 2);
    g_assert_cmpuint (d->column, ==, 1);
    refused = transaction (parts, NULL, &local_error);
    g_assert_error (local_error, DYN_ERROR, DYN_ERROR_VALIDATION);
  }
  {
    g_autoptr(GPtrArray) alone = dyn_partiql_lint (statements->pdata[2], schema_cb, &fx);
    g_autoptr(GError) local_error = NULL;
    g_autoptr(DynPartiqlPage) refused = execute (statements->pdata[2], NULL, NULL, &local_error);
    g_assert_nonnull (find_code (alone, "exists"));
    g_assert_error (local_error, DYN_ERROR, DYN_ERROR_VALIDATION);
  }
}

static void
test_read_only (void)
{
  g_autoptr(DynClient) ro = NULL;
  g_autofree char *insert = NULL;
  g_autofree char *select = NULL;
  g_autoptr(GPtrArray) writes = g_ptr_array_new_with_free_func (g_free);
  static const char * const refused[] = {
    "INSERT INTO $T VALUE {'PK': 'ro', 'SK': '1'}",
    "UPDATE $T SET v = 1 WHERE PK = 'a' AND SK = 'b'",
    "  delete FROM $T WHERE PK = 'a' AND SK = 'b'",
    "-- SELECT\nDELETE FROM $T WHERE PK = 'a' AND SK = 'b'",
  };

  if (!fixture_ensure ())
    return;
  ro = dyn_test_client_new (fx.server);
  dyn_client_set_read_only (ro, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autofree char *text = expand (refused[i]);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynPartiqlPage) page = NULL;

      dyn_partiql_execute_async (ro, text, NULL, NULL, NULL, dyn_test_result_cb, &result);
      page = dyn_partiql_execute_finish (ro, dyn_test_wait (&result), &error);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    }
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(DynPartiqlPage) page = NULL;

    select = expand ("SELECT * FROM $T WHERE PK = 'a'");
    dyn_partiql_execute_async (ro, select, NULL, NULL, NULL, dyn_test_result_cb, &result);
    page = dyn_partiql_execute_finish (ro, dyn_test_wait (&result), &error);
    g_assert_no_error (error);
  }
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(DynPartiqlPage) page = NULL;

    insert = expand (refused[0]);
    g_ptr_array_add (writes, g_strdup (insert));
    g_ptr_array_add (writes, g_strdup (select));
    dyn_partiql_transaction_async (ro, writes, NULL, NULL, dyn_test_result_cb, &result);
    page = dyn_partiql_transaction_finish (ro, dyn_test_wait (&result), &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  }
  {
    /* nothing was written */
    g_autofree char *check = expand ("SELECT * FROM $T WHERE PK = 'ro'");
    g_autoptr(GError) error = NULL;
    g_autoptr(DynPartiqlPage) page = execute (check, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->items->len, ==, 0);
  }
}

/* dynoscope-cli partiql ---------------------------------------------------- */

typedef struct {
  char *out;
  char *err;
  int   status;
} Run;

static void
cli (Run                *run,
     const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("dyn-partiql-XXXXXX", NULL);

  g_ptr_array_add (args, g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL));
  g_ptr_array_add (args, g_strdup ("--endpoint"));
  g_ptr_array_add (args, g_strdup (dyn_test_server_get_endpoint (fx.server)));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_setenv (launcher, "LANGUAGE", "C", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  g_test_message ("exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static void
test_cli_lint (void)
{
  g_auto(Run) warn = { 0 };
  g_auto(Run) clean = { 0 };
  g_auto(Run) bad = { 0 };
  g_autofree char *scan = NULL;
  g_autofree char *good = NULL;
  g_autofree char *two = NULL;
  g_autofree char *expected = NULL;

  if (!fixture_ensure ())
    return;
  /* warnings only: exit 0, the key schema came from DescribeTable */
  scan = expand ("SELECT * FROM $T WHERE Status = \"ACTIVE\"");
  cli (&warn, (const char * const[]) { "partiql", "--lint", scan, NULL });
  g_assert_cmpint (warn.status, ==, 0);
  expected = g_strdup_printf ("1:%u: warning: This SELECT scans all of %s: an equality or IN on PK in every OR branch makes it a Query.\n"
                              "1:%u: warning: \"ACTIVE\" is an attribute name in PartiQL, so this compares two attributes; write a string in single quotes.\n",
                              (guint) (strstr (scan, "WHERE") - scan + 1), fx.t, (guint) (strstr (scan, "\"ACTIVE") - scan + 1));
  g_assert_cmpstr (warn.out, ==, expected);

  good = expand ("SELECT * FROM $T WHERE PK = 'a'");
  cli (&clean, (const char * const[]) { "partiql", "--lint", good, NULL });
  g_assert_cmpint (clean.status, ==, 0);
  g_assert_cmpstr (clean.out, ==, "");

  /* an error: exit 1; the second statement's line; an unknown table from ListTables */
  two = expand ("SELECT * FROM $T WHERE PK = 'a';\n  DELETE FROM $T WHERE PK = 'a';\nSELECT * FROM \"NoSuchTable\" WHERE id = 1");
  cli (&bad, (const char * const[]) { "partiql", "--lint", two, NULL });
  g_assert_cmpint (bad.status, ==, 1);
  g_assert_true (g_str_has_prefix (bad.out, "2:"));
  {
    /* "  DELETE FROM \"name\" WHERE": the WHERE after the quoted name */
    g_autofree char *at = g_strdup_printf ("2:%u: error: A DELETE removes one item", (guint) (2 + 12 + strlen (fx.t) + 2 + 2));
    g_assert_nonnull (strstr (bad.out, at));
  }
  g_assert_nonnull (strstr (bad.out, "3:15: error: There is no table NoSuchTable"));
}

static void
test_cli_run (void)
{
  g_auto(Run) ddb = { 0 };
  g_auto(Run) plain = { 0 };
  g_auto(Run) tx = { 0 };
  g_auto(Run) check = { 0 };
  g_autofree char *insert = NULL;
  g_autofree char *select = NULL;
  g_autofree char *two = NULL;

  if (!fixture_ensure ())
    return;
  insert = expand ("INSERT INTO $M VALUE {'year': ?, 'title': ?, 'gross': ?}");
  cli (&ddb, (const char * const[]) { "partiql", insert, "--parameters",
                                      "[{\"N\": \"1977\"}, {\"S\": \"Star Wars\"}, {\"N\": \"775398007.123456789012345678901234567\"}]", NULL });
  g_assert_cmpint (ddb.status, ==, 0);

  select = expand ("SELECT title, gross FROM $M WHERE year = ?");
  cli (&plain, (const char * const[]) { "--plain", "partiql", select, "--parameters", "[1977]", NULL });
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_cmpstr (plain.out, ==, "{\"gross\":775398007.123456789012345678901234567,\"title\":\"Star Wars\"}\n");

  /* two statements: one ExecuteTransaction, the ? values in order */
  two = expand ("UPDATE $M SET rating = ? WHERE year = ? AND title = 'Star Wars'; INSERT INTO $M VALUE {'year': 1980, 'title': ?}");
  cli (&tx, (const char * const[]) { "--stats", "partiql", two, "--parameters", "[8.6, 1977, \"Empire\"]", NULL });
  g_assert_cmpint (tx.status, ==, 0);
  g_assert_nonnull (strstr (tx.err, "requests 1 "));
  cli (&check, (const char * const[]) { "--plain", "partiql", select, "--parameters", "[{\"N\": \"1977\"}]", NULL });
  g_assert_cmpint (check.status, ==, 0);
  g_assert_cmpstr (check.out, ==, "{\"gross\":775398007.123456789012345678901234567,\"title\":\"Star Wars\"}\n");
  {
    g_auto(Run) empire = { 0 };
    g_autofree char *q = expand ("SELECT title, rating FROM $M WHERE year IN [1977, 1980] ORDER BY year");
    cli (&empire, (const char * const[]) { "--plain", "partiql", q, NULL });
    g_assert_cmpint (empire.status, ==, 0);
    g_assert_nonnull (strstr (empire.out, "\"rating\":8.6"));
    g_assert_nonnull (strstr (empire.out, "{\"title\":\"Empire\"}"));
    g_assert_cmpuint (strlen (empire.out), ==, strlen ("{\"rating\":8.6,\"title\":\"Star Wars\"}\n{\"title\":\"Empire\"}\n"));
  }
  {
    g_auto(Run) wrong = { 0 };
    cli (&wrong, (const char * const[]) { "partiql", two, "--parameters", "[1]", NULL });
    g_assert_cmpint (wrong.status, ==, 1);
  }
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);
  g_test_add_func ("/partiql/positions", test_positions);
  g_test_add_func ("/partiql/unknown-table", test_unknown_table);
  g_test_add_func ("/partiql/inspect-split", test_inspect);
  g_test_add_func ("/partiql/rules", test_rules);
  g_test_add_func ("/partiql/in-limits", test_in_limits);
  g_test_add_func ("/partiql/fixes", test_fixes);
  g_test_add_func ("/partiql/parameters", test_parameters);
  g_test_add_func ("/partiql/paging", test_paging);
  g_test_add_func ("/partiql/transaction", test_transaction);
  g_test_add_func ("/partiql/read-only", test_read_only);
  g_test_add_func ("/partiql/cli-lint", test_cli_lint);
  g_test_add_func ("/partiql/cli-run", test_cli_run);
  return g_test_run ();
}
