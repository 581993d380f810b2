/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <sqlite3.h>

#include "dyn-error.h"
#include "dyn-sql-decimal.h"
#include "dyn-test-util.h"
#include "dyn-value.h"

#define PYTHON "/usr/bin/python3"

/* Helpers */

static void
assert_add (const char *a,
            const char *b,
            const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sum = dyn_decimal_add (a, b, &error);
  g_autofree char *swapped = dyn_decimal_add (b, a, NULL);

  g_assert_no_error (error);
  if (g_strcmp0 (sum, expected) != 0)
    g_error ("%s + %s = %s, expected %s", a, b, sum, expected);
  g_assert_cmpstr (swapped, ==, expected);
}

static void
assert_divide (const char *a,
               gint64      n,
               guint       scale,
               const char *expected)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *q = dyn_decimal_divide_int (a, n, scale, &error);

  g_assert_no_error (error);
  if (g_strcmp0 (q, expected) != 0)
    g_error ("%s / %" G_GINT64_FORMAT " (scale %u) = %s, expected %s", a, n, scale, q, expected);
}

static sqlite3 *
open_db (void)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  g_assert_cmpint (dyn_sql_decimal_register (db), ==, SQLITE_OK);
  return db;
}

static void
exec (sqlite3    *db,
      const char *sql)
{
  char *err = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &err) != SQLITE_OK)
    g_error ("%s: %s", sql, err);
}

/* The rows of @sql, each as "value|value" with typeof() letters:
 * i:5, t:12.5, r:0.5, n (NULL), b (blob). */
static char *
query (sqlite3    *db,
       const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  GString *out = g_string_new (NULL);
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (out->len > 0)
        g_string_append_c (out, ' ');
      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        {
          if (c > 0)
            g_string_append_c (out, '|');
          switch (sqlite3_column_type (stmt, c))
            {
            case SQLITE_INTEGER:
              g_string_append_printf (out, "i:%s", sqlite3_column_text (stmt, c));
              break;
            case SQLITE_FLOAT:
              g_string_append_printf (out, "r:%s", sqlite3_column_text (stmt, c));
              break;
            case SQLITE_TEXT:
              g_string_append_printf (out, "t:%s", sqlite3_column_text (stmt, c));
              break;
            case SQLITE_NULL:
              g_string_append (out, "n");
              break;
            default:
              g_string_append (out, "b");
              break;
            }
        }
    }
  if (rc != SQLITE_DONE)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);
  return g_string_free (out, FALSE);
}

static void
assert_query (sqlite3    *db,
              const char *sql,
              const char *expected)
{
  g_autofree char *got = query (db, sql);

  if (g_strcmp0 (got, expected) != 0)
    g_error ("%s\n  got      %s\n  expected %s", sql, got, expected);
}

/* The statement fails with a message containing @needle. */
static void
assert_query_error (sqlite3    *db,
                    const char *sql,
                    const char *needle)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        ;
    }
  g_assert_cmpint (rc, !=, SQLITE_DONE);
  if (strstr (sqlite3_errmsg (db), needle) == NULL)
    g_error ("%s: message \"%s\" lacks \"%s\"", sql, sqlite3_errmsg (db), needle);
  sqlite3_finalize (stmt);
}

/* Runs @script with python3 and returns its standard output. */
static char *
run_python (const char *script)
{
  const char *argv[] = { PYTHON, "-c", script, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_file_test (PYTHON, G_FILE_TEST_IS_EXECUTABLE));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* Exact arithmetic */

static void
test_add_units (void)
{
  g_autoptr(GError) error = NULL;
  char *r;

  /* Carries and borrows. */
  assert_add ("999", "1", "1000");
  assert_add ("0.999", "0.001", "1");
  assert_add ("1000", "-1", "999");
  assert_add ("1", "-0.001", "0.999");
  assert_add ("99999999999999999999999999999999999999", "1",
              "100000000000000000000000000000000000000");
  /* Negative. */
  assert_add ("-5", "3", "-2");
  assert_add ("-5", "-3", "-8");
  assert_add ("-0.5", "0.25", "-0.25");
  assert_add ("-1", "1", "0");
  /* Zero forms, trailing zeros. */
  assert_add ("0", "-0.0", "0");
  assert_add ("0E+5", "+0.000", "0");
  assert_add ("1.50", "0", "1.5");
  assert_add ("0.1", "0.2", "0.3");
  assert_add ("12.5e1", "0", "125");
  assert_add ("1.", ".5", "1.5");
  /* Exponents at both ends of DynamoDB's range: exponent notation beyond 40 digits. */
  assert_add ("1E+125", "0", "1E+125");
  assert_add ("1E-130", "0", "1E-130");
  assert_add ("1E-130", "1E-130", "2E-130");
  assert_add ("9.9999999999999999999999999999999999999E+125", "1E+88",
              "1E+126");
  r = dyn_decimal_add ("1E+125", "1E-130", &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (r, "1.000000000"));
  g_assert_true (g_str_has_suffix (r, "0001E+125"));
  g_assert_cmpuint (strlen (r), ==, 1 + 1 + 255 + 5);
  g_free (r);
  /* 40 digits stay plain, 41 do not. */
  assert_add ("1234567890123456789012345678901234567890", "0",
              "1234567890123456789012345678901234567890");
  assert_add ("12345678901234567890123456789012345678901", "0",
              "1.2345678901234567890123456789012345678901E+40");
  assert_add ("0.000000000000000000000000000000000000001", "0",
              "0.000000000000000000000000000000000000001");
  assert_add ("0.0000000000000000000000000000000000000001", "0", "1E-40");
  /* More digits than DynamoDB holds: a sum may need them. */
  assert_add ("12345678901234567890123456789012345678901234567890", "1",
              "1.2345678901234567890123456789012345678901234567891E+49");

  /* Text that is not a number names itself. */
  r = dyn_decimal_add ("12", "abc", &error);
  g_assert_null (r);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "\"abc\""));
  g_clear_error (&error);
  r = dyn_decimal_add ("1e", "1", &error);
  g_assert_null (r);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  /* Text that would take a gigabyte of digits is refused, not allocated. */
  r = dyn_decimal_add ("1E+999999999", "1", &error);
  g_assert_null (r);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
}

static void
test_divide_units (void)
{
  g_autoptr(GError) error = NULL;
  gint64 i = 0;

  assert_divide ("1", 3, 5, "0.33333");
  assert_divide ("2", 3, 5, "0.66667");
  assert_divide ("-2", 3, 5, "-0.66667");
  assert_divide ("2", -3, 5, "-0.66667");
  /* Half-even. */
  assert_divide ("2.5", 1, 0, "2");
  assert_divide ("3.5", 1, 0, "4");
  assert_divide ("-2.5", 1, 0, "-2");
  assert_divide ("1", 8, 2, "0.12");
  assert_divide ("3", 8, 2, "0.38");
  assert_divide ("0.135", 1, 2, "0.14");
  assert_divide ("0.1250000000000000000001", 1, 2, "0.13");
  assert_divide ("10", 4, 0, "2");
  assert_divide ("10", 4, 1, "2.5");
  assert_divide ("0", 7, 3, "0");
  assert_divide ("1E-130", 3, 140, "3.333333333E-131");
  assert_divide ("1E+125", 1, 0, "1E+125");
  assert_divide ("-9223372036854775808", -9223372036854775807 - 1, 0, "1");
  assert_divide ("99999999999999999999999999999999999999", G_MAXINT64, 10, "10842021724855044341.2500223595");
  g_assert_null (dyn_decimal_divide_int ("1", 0, 2, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);

  g_assert_true (dyn_decimal_to_int64 ("9223372036854775807", &i));
  g_assert_cmpint (i, ==, G_MAXINT64);
  g_assert_false (dyn_decimal_to_int64 ("9223372036854775808", &i));
  g_assert_true (dyn_decimal_to_int64 ("-9223372036854775808", &i));
  g_assert_cmpint (i, ==, G_MININT64);
  g_assert_false (dyn_decimal_to_int64 ("-9223372036854775809", &i));
  g_assert_true (dyn_decimal_to_int64 ("1.5E+2", &i));
  g_assert_cmpint (i, ==, 150);
  g_assert_true (dyn_decimal_to_int64 ("-0.0", &i));
  g_assert_cmpint (i, ==, 0);
  g_assert_true (dyn_decimal_to_int64 ("12.000", &i));
  g_assert_cmpint (i, ==, 12);
  g_assert_false (dyn_decimal_to_int64 ("1.5", &i));
  g_assert_false (dyn_decimal_to_int64 ("1E+19", &i));
  g_assert_false (dyn_decimal_to_int64 ("abc", &i));
  g_assert_false (dyn_decimal_to_int64 ("1E-999999999999", &i));
}

/* The aggregates on a plain table */

static void
test_override (void)
{
  sqlite3 *db = open_db ();

  /* SQLite's own sum() stops at 64 bits ("integer overflow"), total() and
   * avg() answer a double: ours are exact, on this connection. */
  exec (db, "CREATE TABLE t (v)");
  exec (db, "INSERT INTO t VALUES (9223372036854775807), (1)");
  assert_query (db, "SELECT sum(v), total(v), avg(v) FROM t",
                "t:9223372036854775808|t:9223372036854775808|i:4611686018427387904");
  assert_query (db, "SELECT SUM(v), Total(v), AVG(v) FROM t",
                "t:9223372036854775808|t:9223372036854775808|i:4611686018427387904");
  /* The built-ins, on a connection without ours, for comparison. */
  {
    sqlite3 *plain = NULL;

    g_assert_cmpint (sqlite3_open (":memory:", &plain), ==, SQLITE_OK);
    exec (plain, "CREATE TABLE t (v)");
    exec (plain, "INSERT INTO t VALUES (9223372036854775807), (1)");
    assert_query_error (plain, "SELECT sum(v) FROM t", "integer overflow");
    assert_query (plain, "SELECT typeof(total(v)), typeof(avg(v)) FROM t", "t:real|t:real");
    sqlite3_close (plain);
  }
  sqlite3_close (db);
}

static void
test_aggregates (void)
{
  sqlite3 *db = open_db ();

  /* A column as the virtual tables fill it: INTEGER when an N fits 64 bits,
   * exact decimal text otherwise; NULL for items without the attribute. */
  exec (db, "CREATE TABLE t (g, v)");
  exec (db, "INSERT INTO t VALUES "
            "('a', 5), ('a', '12345678901234567890123.5'), ('a', NULL), ('a', -7), "
            "('b', '0.1'), ('b', '0.2'), "
            "('c', NULL), "
            "('d', '-99999999999999999999999999999999999999'), ('d', '-1'), "
            "('e', 9223372036854775807), ('e', 9223372036854775807), ('e', -9223372036854775807), "
            "('f', '1E-130'), ('f', '1E+125')");
  assert_query (db, "SELECT g, sum(v), total(v), avg(v), min(v), max(v), count(v) FROM t GROUP BY g ORDER BY g",
                "t:a|t:12345678901234567890121.5|t:12345678901234567890121.5|t:4115226300411522630040.5|i:-7|t:12345678901234567890123.5|i:3 "
                "t:b|t:0.3|t:0.3|t:0.15|t:0.1|t:0.2|i:2 "
                "t:c|n|i:0|n|n|n|i:0 "
                "t:d|t:-100000000000000000000000000000000000000|t:-100000000000000000000000000000000000000|t:-50000000000000000000000000000000000000|t:-99999999999999999999999999999999999999|t:-1|i:2 "
                "t:e|i:9223372036854775807|i:9223372036854775807|t:3074457345618258602.3333333333333333333|i:-9223372036854775807|i:9223372036854775807|i:3 "
                "t:f|t:1.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001E+125|"
                "t:1.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001E+125|"
                "t:5E+124|t:1E-130|t:1E+125|i:2");
  /* No rows: SUM and AVG are NULL, TOTAL is 0, as in SQLite. */
  assert_query (db, "SELECT sum(v), total(v), avg(v), min(v), max(v) FROM t WHERE 0", "n|i:0|n|n|n");
  /* Beyond 64 bits the sum is text; an average that is whole is an INTEGER
   * (group e above: a sum that fits 64 bits again is an INTEGER). */
  assert_query (db, "SELECT sum(v), avg(v) FROM t WHERE g = 'e' OR (g = 'a' AND v = 5)",
                "t:9223372036854775812|i:2305843009213693953");
  assert_query (db, "SELECT avg(v) FROM (SELECT 2 AS v UNION ALL SELECT '4')", "i:3");
  /* REAL arguments (a double somebody computed) count as their shortest text. */
  assert_query (db, "SELECT sum(v), avg(v) FROM (SELECT 0.1 AS v UNION ALL SELECT 0.2 UNION ALL SELECT 1e20)",
                "t:100000000000000000000.3|t:33333333333333333333.433333333333333333");
  /* DISTINCT. */
  assert_query (db, "SELECT sum(DISTINCT v) FROM (SELECT '0.5' AS v UNION ALL SELECT '0.5' UNION ALL SELECT 2)",
                "t:2.5");
  /* A sum of sums with more digits than DynamoDB holds. */
  /* (Python: 99…99900000000000000012354902273271422665928.8000…0001.) */
  assert_query (db, "SELECT sum(s) FROM (SELECT sum(v) AS s FROM t GROUP BY g)",
                "t:9.99999999999999999999999999999999999999999999999999999999999999999999999999999999999999000000000000000123549022732714226659288000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001E+124");

  /* Text that is not a number is an error naming it (SQLite would count it as 0). */
  exec (db, "INSERT INTO t VALUES ('x', 'twelve')");
  assert_query_error (db, "SELECT sum(v) FROM t", "sum(): invalid number \"twelve\"");
  assert_query_error (db, "SELECT avg(v) FROM t WHERE g = 'x'", "avg(): invalid number \"twelve\"");
  assert_query_error (db, "SELECT total(x'00')", "total(): ");
  assert_query_error (db, "SELECT sum(9e999)", "not a finite number");
  sqlite3_close (db);
}

/* MIN and MAX over mixed types, as SQLite orders them (NULL < numbers < text
 * < blob), numbers by exact value; the scalar forms too. */
static void
test_min_max (void)
{
  sqlite3 *db = open_db ();

  exec (db, "CREATE TABLE t (v)");
  exec (db, "INSERT INTO t VALUES (NULL), (5), ('12345678901234567890123.5'), "
            "('-100000000000000000000000000000'), (0.5), (x'00'), ('apple'), ('Zebra'), (-7)");
  assert_query (db, "SELECT min(v), max(v) FROM t", "t:-100000000000000000000000000000|b");
  assert_query (db, "SELECT min(v), max(v) FROM t WHERE typeof(v) <> 'blob'",
                "t:-100000000000000000000000000000|t:apple");
  assert_query (db, "SELECT min(v), max(v) FROM t WHERE typeof(v) <> 'blob' AND v NOT GLOB '*[a-z]*'",
                "t:-100000000000000000000000000000|t:12345678901234567890123.5");
  /* Ties keep the first value, as SQLite's. */
  assert_query (db, "SELECT min(v), max(v) FROM (SELECT '5.0' AS v UNION ALL SELECT 5 UNION ALL SELECT '5')",
                "t:5.0|t:5.0");
  /* Scalar forms: exact, NULL when any argument is. */
  assert_query (db, "SELECT min(10, '9.99999999999999999999999'), max(10, '10.000000000000000000001'), "
                "min(3, NULL, 1), max('abc', 1), min(2, 1, 3)",
                "t:9.99999999999999999999999|t:10.000000000000000000001|n|t:abc|i:1");
  /* dec_cmp (). */
  assert_query (db, "SELECT dec_cmp(10, '9.5'), dec_cmp('12345678901234567890123.5', '12345678901234567890123.4'), "
                "dec_cmp('1E+2', 100), dec_cmp(NULL, 1), dec_cmp(1, 'a'), dec_cmp(0.1, '0.1')",
                "i:1|i:1|i:0|n|i:-1|i:0");
  sqlite3_close (db);
}

/* The aggregates as window functions: a sliding frame removes rows again. */
static void
test_window (void)
{
  sqlite3 *db = open_db ();

  exec (db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v)");
  exec (db, "INSERT INTO t VALUES (1, 5), (2, '12345678901234567890123.5'), (3, NULL), "
            "(4, -7), (5, '0.25'), (6, 9223372036854775807), (7, 1), (8, 3)");
  assert_query (db, "SELECT sum(v) OVER w, avg(v) OVER w, min(v) OVER w, max(v) OVER w, total(v) OVER w "
                "FROM t WINDOW w AS (ORDER BY k ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY k",
                "t:12345678901234567890128.5|t:6172839450617283945064.25|i:5|t:12345678901234567890123.5|t:12345678901234567890128.5 "
                "t:12345678901234567890128.5|t:6172839450617283945064.25|i:5|t:12345678901234567890123.5|t:12345678901234567890128.5 "
                "t:12345678901234567890116.5|t:6172839450617283945058.25|i:-7|t:12345678901234567890123.5|t:12345678901234567890116.5 "
                "t:-6.75|t:-3.375|i:-7|t:0.25|t:-6.75 "
                "t:9223372036854775800.25|t:3074457345618258600.0833333333333333333|i:-7|i:9223372036854775807|t:9223372036854775800.25 "
                "t:9223372036854775808.25|t:3074457345618258602.75|t:0.25|i:9223372036854775807|t:9223372036854775808.25 "
                "t:9223372036854775811|t:3074457345618258603.6666666666666666667|i:1|i:9223372036854775807|t:9223372036854775811 "
                "i:4|i:2|i:1|i:3|i:4");
  /* Running (no inverse) and a frame with no rows at all. */
  assert_query (db, "SELECT sum(v) OVER (ORDER BY k), total(v) OVER (ORDER BY k ROWS BETWEEN 3 PRECEDING AND 3 PRECEDING) "
                "FROM t WHERE k <= 3 ORDER BY k",
                "i:5|i:0 t:12345678901234567890128.5|i:0 t:12345678901234567890128.5|i:0");
  sqlite3_close (db);
}

/* Comparisons and ORDER BY on N columns of a virtual table */

/* A virtual table of one column "price" declared as its first argument says
 * ("price TEXT COLLATE DECIMAL"); its second argument says how the rows
 * hold their N values: "ints" (INTEGER when they fit 64 bits, the rest exact
 * text: what the issue asks of the SQL Workbench) or "text" (all as text). */
static const char * const mixed_rows[] = {
  "5", "12345678901234567890123.5", "-7", "10", "12345678901234567890123.4",
  "0.5", "-1000000000000000000000000000000", "9223372036854775807", "10.5",
  "9223372036854775808", "-0.25", "-12345678901234567890123.5", NULL,
};

typedef struct {
  sqlite3_vtab base;
  gboolean     ints;
} MixedVtab;

typedef struct {
  sqlite3_vtab_cursor base;
  guint               row;
} MixedCursor;

static int
mixed_connect (sqlite3             *db,
               void                *aux,
               int                  argc,
               const char * const  *argv,
               sqlite3_vtab       **out,
               char               **err)
{
  g_autofree char *schema = NULL;
  MixedVtab *vtab;
  int rc;

  g_assert_cmpint (argc, ==, 5);
  schema = g_strdup_printf ("CREATE TABLE x (price %s)", argv[3]);
  rc = sqlite3_declare_vtab (db, schema);
  if (rc != SQLITE_OK)
    return rc;
  vtab = sqlite3_malloc (sizeof *vtab);
  memset (vtab, 0, sizeof *vtab);
  vtab->ints = g_str_equal (argv[4], "ints");
  *out = &vtab->base;
  return SQLITE_OK;
}

static int
mixed_disconnect (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}

static int
mixed_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  info->estimatedCost = G_N_ELEMENTS (mixed_rows);
  return SQLITE_OK;
}

static int
mixed_open (sqlite3_vtab         *vtab,
            sqlite3_vtab_cursor **out)
{
  MixedCursor *cur = sqlite3_malloc (sizeof *cur);

  memset (cur, 0, sizeof *cur);
  *out = &cur->base;
  return SQLITE_OK;
}

static int
mixed_close (sqlite3_vtab_cursor *cur)
{
  sqlite3_free (cur);
  return SQLITE_OK;
}

static int
mixed_filter (sqlite3_vtab_cursor  *cur,
              int                   idx,
              const char           *idx_str,
              int                   argc,
              sqlite3_value       **argv)
{
  ((MixedCursor *) cur)->row = 0;
  return SQLITE_OK;
}

static int
mixed_next (sqlite3_vtab_cursor *cur)
{
  ((MixedCursor *) cur)->row++;
  return SQLITE_OK;
}

static int
mixed_eof (sqlite3_vtab_cursor *cur)
{
  return mixed_rows[((MixedCursor *) cur)->row] == NULL;
}

static int
mixed_column (sqlite3_vtab_cursor *cur,
              sqlite3_context     *ctx,
              int                  col)
{
  MixedVtab *vtab = (MixedVtab *) cur->pVtab;
  const char *text = mixed_rows[((MixedCursor *) cur)->row];
  gint64 i;

  if (vtab->ints && dyn_decimal_to_int64 (text, &i))
    sqlite3_result_int64 (ctx, i);
  else
    sqlite3_result_text (ctx, text, -1, SQLITE_STATIC);
  return SQLITE_OK;
}

static int
mixed_rowid (sqlite3_vtab_cursor *cur,
             sqlite3_int64       *rowid)
{
  *rowid = ((MixedCursor *) cur)->row;
  return SQLITE_OK;
}

static const sqlite3_module mixed_module = {
  .iVersion = 0,
  .xCreate = mixed_connect,
  .xConnect = mixed_connect,
  .xBestIndex = mixed_best_index,
  .xDisconnect = mixed_disconnect,
  .xDestroy = mixed_disconnect,
  .xOpen = mixed_open,
  .xClose = mixed_close,
  .xFilter = mixed_filter,
  .xNext = mixed_next,
  .xEof = mixed_eof,
  .xColumn = mixed_column,
  .xRowid = mixed_rowid,
};

static sqlite3 *
open_mixed (const char *decl,
            const char *storage)
{
  sqlite3 *db = open_db ();
  g_autofree char *sql = g_strdup_printf ("CREATE VIRTUAL TABLE m USING mixed(%s, %s)", decl, storage);

  g_assert_cmpint (sqlite3_create_module (db, "mixed", &mixed_module, NULL), ==, SQLITE_OK);
  exec (db, sql);
  return db;
}

/* The rows of @sql as "a b c" without type letters. */
static char *
query_plain (sqlite3    *db,
             const char *sql)
{
  g_autofree char *typed = query (db, sql);
  GString *out = g_string_new (NULL);

  /* Drops each "i:" "t:" "r:" that starts a value. */
  for (const char *p = typed; *p != '\0'; p++)
    {
      if ((p == typed || p[-1] == ' ' || p[-1] == '|') && p[0] != '\0' && p[1] == ':')
        p += 2;
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

typedef struct {
  const char *sql;
  const char *expected;
} Case;

static const Case exact_cases[] = {
  { "SELECT price FROM m WHERE price > 10 ORDER BY price",
    "10.5 9223372036854775807 9223372036854775808 12345678901234567890123.4 12345678901234567890123.5" },
  { "SELECT price FROM m WHERE price < -7 ORDER BY price",
    "-1000000000000000000000000000000 -12345678901234567890123.5" },
  { "SELECT price FROM m WHERE price = '12345678901234567890123.5'", "12345678901234567890123.5" },
  { "SELECT price FROM m WHERE price = 0.5", "0.5" },
  { "SELECT price FROM m WHERE price > -0.3 AND price < 1e1 ORDER BY price", "-0.25 0.5 5" },
  { "SELECT price FROM m WHERE price = 10", "10" },
  { "SELECT price FROM m WHERE price = '10.00'", "10" },
  { "SELECT price FROM m WHERE price = '1.234567890123456789012350E+22'", "12345678901234567890123.5" },
  { "SELECT price FROM m WHERE price BETWEEN 0 AND 11 ORDER BY price", "0.5 5 10 10.5" },
  { "SELECT price FROM m WHERE price IN (10, '0.5', '9223372036854775808') ORDER BY price",
    "0.5 10 9223372036854775808" },
  { "SELECT price FROM m WHERE price >= 9223372036854775807 ORDER BY price DESC",
    "12345678901234567890123.5 12345678901234567890123.4 9223372036854775808 9223372036854775807" },
  { "SELECT price FROM m ORDER BY price",
    "-1000000000000000000000000000000 -12345678901234567890123.5 -7 -0.25 0.5 5 10 10.5 "
    "9223372036854775807 9223372036854775808 12345678901234567890123.4 12345678901234567890123.5" },
  { "SELECT min(price), max(price), sum(price) FROM m",
    "-1000000000000000000000000000000|12345678901234567890123.5|-999999987635874354691722558242.85" },
  { "SELECT a.price FROM m a JOIN m b ON a.price = b.price AND a.price < 0 ORDER BY a.price",
    "-1000000000000000000000000000000 -12345678901234567890123.5 -7 -0.25" },
};

/* N values all as text, the column TEXT COLLATE DECIMAL: every comparison
 * and ORDER BY is by exact value. */
static void
test_vtab_text (void)
{
  sqlite3 *db = open_mixed ("TEXT COLLATE DECIMAL", "text");

  for (guint i = 0; i < G_N_ELEMENTS (exact_cases); i++)
    {
      g_autofree char *got = query_plain (db, exact_cases[i].sql);

      if (g_strcmp0 (got, exact_cases[i].expected) != 0)
        g_error ("%s\n  got      %s\n  expected %s", exact_cases[i].sql, got, exact_cases[i].expected);
    }
  /* Arithmetic is SQLite's: text becomes an INTEGER or a double. */
  assert_query (db, "SELECT price * 2, price + 0 FROM m WHERE price = 5", "i:10|i:5");
  assert_query (db, "SELECT typeof(price * 2) FROM m WHERE price = '12345678901234567890123.5'", "t:real");
  sqlite3_close (db);
}

/* What each other arrangement gets wrong (why the header says what it says). */
static void
test_vtab_arrangements (void)
{
  sqlite3 *db;

  /* INTEGER when it fits, text otherwise, TEXT COLLATE DECIMAL: comparisons
   * are exact (TEXT affinity turns the INTEGER side into text, the collation
   * compares by value) but ORDER BY sorts by storage class first: every
   * INTEGER before any text. */
  db = open_mixed ("TEXT COLLATE DECIMAL", "ints");
  assert_query (db, "SELECT count(*) FROM m WHERE price > 10", "i:5");
  assert_query (db, "SELECT count(*) FROM m WHERE price < -7", "i:2");
  assert_query (db, "SELECT count(*) FROM m WHERE price = '12345678901234567890123.5'", "i:1");
  assert_query (db, "SELECT count(*) FROM m WHERE price = '10.0'", "i:1");
  assert_query (db, "SELECT group_concat(price, ' ') FROM (SELECT price FROM m WHERE price < 1 ORDER BY price)",
                "t:-7 -1000000000000000000000000000000 -12345678901234567890123.5 -0.25 0.5");
  sqlite3_close (db);

  /* NUMERIC affinity (NUM, DECIMAL, NUMERIC): the comparison turns the text
   * into a double first: two different prices are equal. */
  db = open_mixed ("NUM COLLATE DECIMAL", "ints");
  assert_query (db, "SELECT count(*) FROM m WHERE price = '12345678901234567890123.5'", "i:2");
  sqlite3_close (db);

  /* No affinity: an INTEGER is less than any text: -1E+30 > 10, 0.5 > 10
   * (9 rows, not 5). */
  db = open_mixed ("COLLATE DECIMAL", "ints");
  assert_query (db, "SELECT count(*) FROM m WHERE price > 10", "i:9");
  sqlite3_close (db);
}

/* Against Python's decimal */

static const char big_sum_script[] =
  "import random\n"
  "from decimal import Decimal, Context, ROUND_HALF_EVEN\n"
  "r = random.Random(12)\n"
  "ctx = Context(prec=100000)\n"
  "rows = []\n"
  "for i in range(100000):\n"
  "    digits = str(r.randrange(10**37, 10**38))\n"
  "    sign = '-' if r.random() < 0.5 else ''\n"
  "    kind = r.randrange(20)\n"
  "    if kind < 9:\n"
  "        text = sign + digits\n"
  "    elif kind < 18:\n"
  "        point = r.randrange(1, 38)\n"
  "        text = sign + digits[:point] + '.' + digits[point:]\n"
  "    elif kind == 18:\n"
  "        text = sign + digits[0] + '.' + digits[1:] + 'E' + str(r.randrange(-130, 126))\n"
  "    else:\n"
  "        text = str(r.randrange(-2**63, 2**63))\n"
  "    rows.append((kind, text))\n"
  "def report(sel):\n"
  "    total = Decimal(0)\n"
  "    for t in sel:\n"
  "        total = ctx.add(total, Decimal(t))\n"
  "    avg = Context(prec=38, rounding=ROUND_HALF_EVEN).divide(total, Decimal(len(sel)))\n"
  "    print(total, avg)\n"
  "report([t for k, t in rows])\n"
  "report([t for k, t in rows if k < 18])\n"
  "for k, t in rows:\n"
  "    print(k, t)\n";

/* @text in our normal form, for comparing by text. */
static char *
normal (const char *text)
{
  g_autoptr(GError) error = NULL;
  char *n = dyn_decimal_add (text, "0", &error);

  g_assert_no_error (error);
  return n;
}

static void
assert_sql_number (sqlite3    *db,
                   const char *sql,
                   const char *python)
{
  sqlite3_stmt *stmt = NULL;
  g_autofree char *expected = normal (python);

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  if (g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), expected) != 0)
    g_error ("%s: %s, Python says %s", sql, sqlite3_column_text (stmt, 0), expected);
  /* An INTEGER exactly when it fits. */
  {
    gint64 i;

    g_assert_cmpint (sqlite3_column_type (stmt, 0), ==,
                     dyn_decimal_to_int64 (expected, &i) ? SQLITE_INTEGER : SQLITE_TEXT);
  }
  sqlite3_finalize (stmt);
}

static void
test_big_sum (void)
{
  g_autofree char *out = run_python (big_sum_script);
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  g_auto(GStrv) all = NULL, plain = NULL;
  sqlite3 *db = open_db ();
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  g_assert_cmpuint (g_strv_length (lines), >, 100002);
  all = g_strsplit (lines[0], " ", 2);
  plain = g_strsplit (lines[1], " ", 2);

  exec (db, "CREATE TABLE t (kind, v)");
  exec (db, "BEGIN");
  g_assert_cmpint (sqlite3_prepare_v2 (db, "INSERT INTO t VALUES (?, ?)", -1, &stmt, NULL), ==, SQLITE_OK);
  for (guint i = 2; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      const char *space = strchr (lines[i], ' ');
      gint64 v;

      sqlite3_bind_int (stmt, 1, atoi (lines[i]));
      if (dyn_decimal_to_int64 (space + 1, &v))
        sqlite3_bind_int64 (stmt, 2, v);
      else
        sqlite3_bind_text (stmt, 2, space + 1, -1, SQLITE_TRANSIENT);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_reset (stmt);
      n++;
    }
  sqlite3_finalize (stmt);
  exec (db, "COMMIT");
  g_assert_cmpuint (n, ==, 100000);
  /* Both storage classes take part. */
  {
    g_autofree char *ints = query (db, "SELECT count(*) > 1000 FROM t WHERE typeof(v) = 'integer'");

    g_assert_cmpstr (ints, ==, "i:1");
  }
  assert_sql_number (db, "SELECT sum(v) FROM t", all[0]);
  assert_sql_number (db, "SELECT total(v) FROM t", all[0]);
  assert_sql_number (db, "SELECT avg(v) FROM t", all[1]);
  /* Without exponents: some 43 digits before the point. */
  assert_sql_number (db, "SELECT sum(v) FROM t WHERE kind < 18", plain[0]);
  assert_sql_number (db, "SELECT avg(v) FROM t WHERE kind < 18", plain[1]);
  {
    g_autofree char *sum = query (db, "SELECT length(sum(v)) >= 42 FROM t WHERE kind < 18");

    g_assert_cmpstr (sum, ==, "i:1");
  }
  sqlite3_close (db);
}

/* Random pairs in random spellings: the sum against Python's, against
 * client/values' dyn_number_add where DynamoDB can hold it, and back. */
static const char pairs_script[] =
  "import random\n"
  "from decimal import Decimal, Context\n"
  "from fractions import Fraction\n"
  "r = random.Random(7)\n"
  "ctx = Context(prec=100000)\n"
  "def num():\n"
  "    n = r.choice([1, 2, 5, 17, 38, 39, 60])\n"
  "    digits = ''.join(r.choice('0123456789') for _ in range(r.randrange(1, n + 1)))\n"
  "    sign = r.choice(['', '', '-', '+'])\n"
  "    form = r.randrange(3)\n"
  "    if form == 0:\n"
  "        return sign + digits\n"
  "    point = r.randrange(0, len(digits) + 1)\n"
  "    text = sign + (digits[:point] or '0') + '.' + (digits[point:] or '0')\n"
  "    if form == 2:\n"
  "        text += r.choice('eE') + str(r.randrange(-140, 140))\n"
  "    return text\n"
  "for i in range(3000):\n"
  "    a, b = num(), num()\n"
  "    d = r.choice([1, 2, 3, 7, 10, 16, 9999, 2**31 - 1, 2**63 - 1, -3, -(2**63)])\n"
  "    scale = r.randrange(0, 45)\n"
  "    q = round(Fraction(Decimal(a)) * 10**scale / d)\n"
  "    print(a, b, ctx.add(Decimal(a), Decimal(b)), d, scale, Decimal(q).scaleb(-scale, ctx))\n";

static void
test_random_pairs (void)
{
  g_autofree char *out = run_python (pairs_script);
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  guint checked_values = 0;

  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", -1);
      g_autoptr(GError) error = NULL;
      g_autofree char *sum = NULL, *expected = NULL, *back = NULL, *neg = NULL;
      g_autofree char *q = NULL, *expected_q = NULL, *values_sum = NULL;

      g_assert_cmpuint (g_strv_length (f), ==, 6);
      sum = dyn_decimal_add (f[0], f[1], &error);
      g_assert_no_error (error);
      expected = normal (f[2]);
      if (g_strcmp0 (sum, expected) != 0)
        g_error ("%s + %s = %s, Python says %s", f[0], f[1], sum, f[2]);
      /* (a + b) - b = a */
      neg = f[1][0] == '-' ? g_strdup (f[1] + 1) : g_strconcat ("-", f[1][0] == '+' ? f[1] + 1 : f[1], NULL);
      back = dyn_decimal_add (sum, neg, &error);
      g_assert_no_error (error);
      {
        g_autofree char *na = normal (f[0]);

        g_assert_cmpstr (back, ==, na);
      }
      /* The second method: client/values, within DynamoDB's limits. */
      if (dyn_number_validate (f[0], NULL) && dyn_number_validate (f[1], NULL) &&
          (values_sum = dyn_number_add (f[0], f[1], FALSE, NULL)) != NULL)
        {
          g_assert_cmpint (dyn_number_compare (values_sum, sum), ==, 0);
          checked_values++;
        }
      q = dyn_decimal_divide_int (f[0], g_ascii_strtoll (f[3], NULL, 10), atoi (f[4]), &error);
      g_assert_no_error (error);
      expected_q = normal (f[5]);
      if (g_strcmp0 (q, expected_q) != 0)
        g_error ("%s / %s (scale %s) = %s, Python says %s", f[0], f[3], f[4], q, f[5]);
    }
  g_assert_cmpuint (checked_values, >, 500);
}

int
main (int   argc,
      char *argv[])
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/sql-decimal/add", test_add_units);
  g_test_add_func ("/sql-decimal/divide", test_divide_units);
  g_test_add_func ("/sql-decimal/override", test_override);
  g_test_add_func ("/sql-decimal/aggregates", test_aggregates);
  g_test_add_func ("/sql-decimal/min-max", test_min_max);
  g_test_add_func ("/sql-decimal/window", test_window);
  g_test_add_func ("/sql-decimal/vtab-text", test_vtab_text);
  g_test_add_func ("/sql-decimal/vtab-arrangements", test_vtab_arrangements);
  g_test_add_func ("/sql-decimal/big-sum", test_big_sum);
  g_test_add_func ("/sql-decimal/random-pairs", test_random_pairs);
  return g_test_run ();
}
