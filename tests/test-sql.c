/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SQL Workbench engine on DynamoDB Local. The engine is its own oracle:
 * every statement runs once through the virtual tables and once on a plain
 * SQLite holding the same items in ordinary tables, and the rows must be the
 * same; the request counts must be what the plan promises. A fault server
 * counts requests independently (a refused Scan sends none) and sends
 * garbage.
 */
#include <string.h>

#include <sqlite3.h>

#include "dyn-test-util.h"
#include "dyn-fault-server.h"
#include "dyn-sql.h"
#include "dyn-sql-private.h"
#include "dyn-sql-decimal.h"
#include "dyn-table.h"

typedef struct {
  DynTestServer *server;
  DynClient     *client;
  char          *w;       /* Workspaces-like: EntityRef/Detail, GSI1 on CourseId */
  char          *s;       /* students: hash-only StudentId */
  char          *m;       /* movies: year N, title S */
  char          *t;       /* a multi-attribute GSI ByTenant: tenant+region / seq */
  sqlite3       *oracle;
  GHashTable    *numeric;  /* "source␟column" of the columns holding N values */
} World;

static World world;

/* Data ------------------------------------------------------------------- */

static const char *budgets[] = {
  "12000.50", "99999999999999999999999999999999999999", "0.00000000000000000000000000000000000001",
  "-12.25", "7", "12345678901234567890123.5", "1E+30", "3.14159",
};

static GPtrArray *
workspace_items (void)
{
  GPtrArray *items = dyn_test_item_array_new ();
  guint b = 0;

  for (guint w = 1; w <= 4; w++)
    {
      g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"WS#%u\"},\"Detail\":{\"S\":\"META\"},"
                                              "\"name\":{\"S\":\"Workspace %u\"},\"Status\":{\"S\":\"%s\"},"
                                              "\"seats\":{\"N\":\"%u\"}}",
                                              w, w, w % 2 ? "active" : "closed", w * 10));
      for (guint p = 0; p < 2 + w; p++)
        g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"WS#%u\"},"
                                                "\"Detail\":{\"S\":\"PROJ#2025-%02u-01#p%u\"},"
                                                "\"title\":{\"S\":\"Project %u.%u\"},\"Status\":{\"S\":\"%s\"},"
                                                "\"budget\":{\"N\":\"%s\"}}",
                                                w, p + 1, p, w, p, p % 3 ? "active" : "draft",
                                                budgets[b++ % G_N_ELEMENTS (budgets)]));
    }
  /* Enrolments: each student's collection holds a row per course. */
  for (guint s = 1; s <= 12; s++)
    {
      if (s <= 8)
        g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"STU#%u\"},\"Detail\":{\"S\":\"COURSE#C1\"},"
                                                "\"CourseId\":{\"S\":\"C1\"},\"grade\":{\"N\":\"%u\"}}", s, s % 5 + 1));
      if (s >= 5)
        g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"STU#%u\"},\"Detail\":{\"S\":\"COURSE#C2\"},"
                                                "\"CourseId\":{\"S\":\"C2\"},\"grade\":{\"N\":\"%u\"}}", s, s % 3 + 2));
    }
  return items;
}

static GPtrArray *
student_items (void)
{
  GPtrArray *items = dyn_test_item_array_new ();

  for (guint s = 1; s <= 12; s++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"StudentId\":{\"S\":\"STU#%u\"},\"name\":{\"S\":\"Student %u\"},"
                                            "\"year\":{\"N\":\"%u\"},\"tags\":{\"SS\":[\"t%u\",\"all\"]}%s}",
                                            s, s, 2020 + s % 4, s,
                                            s % 4 == 0 ? ",\"photo\":{\"B\":\"AAEC\"}" : ""));
  return items;
}

static GPtrArray *
movie_items (void)
{
  GPtrArray *items = dyn_test_item_array_new ();
  static const char *titles[] = { "Alpha", "Brave", "Comet", "Delta", "Ember", "Frost", "Moon", "Zulu" };

  for (guint y = 2012; y <= 2014; y++)
    for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
      g_ptr_array_add (items, dyn_test_itemf ("{\"year\":{\"N\":\"%u\"},\"title\":{\"S\":\"%s\"},"
                                              "\"rating\":{\"N\":\"%u.%u\"},"
                                              "\"info\":{\"M\":{\"genre\":{\"S\":\"%s\"},\"rank\":{\"N\":\"%u\"}}}}",
                                              y, titles[i], (i * 7 + y) % 10, i, i % 2 ? "drama" : "comedy", i));
  return items;
}

static GPtrArray *
tenant_items (void)
{
  GPtrArray *items = dyn_test_item_array_new ();

  for (guint i = 0; i < 12; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"S\":\"i%u\"},\"tenant\":{\"S\":\"%s\"},"
                                            "\"region\":{\"S\":\"%s\"},\"seq\":{\"N\":\"%u\"}}",
                                            i, i % 2 ? "a" : "b", i % 3 ? "eu" : "us", i));
  return items;
}

/* The oracle: ordinary SQLite tables holding the same items the same way. */
static void
oracle_bind (sqlite3_stmt *stmt,
             int           i,
             DynValue     *v,
             gboolean      decimal)
{
  if (v == NULL)
    {
      sqlite3_bind_null (stmt, i);
      return;
    }
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_S:
      sqlite3_bind_text (stmt, i, dyn_value_get_string (v), -1, SQLITE_TRANSIENT);
      break;
    case DYN_VALUE_N:
      {
        g_autofree char *canon = dyn_number_canonicalize (dyn_value_get_number (v));
        gint64 n;
        if (!decimal && g_ascii_string_to_signed (canon, 10, G_MININT64, G_MAXINT64, &n, NULL))
          sqlite3_bind_int64 (stmt, i, n);
        else
          sqlite3_bind_text (stmt, i, canon, -1, SQLITE_TRANSIENT);
      }
      break;
    case DYN_VALUE_B:
      {
        gsize len;
        const void *data = g_bytes_get_data (dyn_value_get_binary (v), &len);
        sqlite3_bind_blob (stmt, i, data, len, SQLITE_TRANSIENT);
      }
      break;
    case DYN_VALUE_BOOL:
      sqlite3_bind_int (stmt, i, dyn_value_get_bool (v));
      break;
    case DYN_VALUE_NULL:
      sqlite3_bind_null (stmt, i);
      break;
    default:
      {
        g_autofree char *json = dyn_value_to_plain_json_string (v);
        sqlite3_bind_text (stmt, i, json, -1, SQLITE_TRANSIENT);
      }
      break;
    }
}

static void
oracle_add (const char *table,
            const char *index,
            GPtrArray  *items)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (world.client, "DescribeTable", &error,
                                                    "{\"TableName\":\"%s\"}", table);
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynSqlSource) source = NULL;
  g_autoptr(GPtrArray) in_source = g_ptr_array_new ();
  g_autofree char *schema = NULL, *create = NULL, *quoted = NULL;
  g_autoptr(GString) insert = NULL;
  sqlite3_stmt *stmt = NULL;
  const DynIndexInfo *info;

  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_object_get_object_member (json_node_get_object (response->root),
                                                                         "Table"), &error);
  g_assert_no_error (error);
  info = dyn_table_keys_lookup (keys, index);
  /* An index holds the items that have all its key attributes. */
  for (guint i = 0; i < items->len; i++)
    {
      gboolean all = TRUE;
      for (guint k = 0; k < dyn_key_schema_get_n_attributes (&info->keys); k++)
        all = all && dyn_value_map_lookup (items->pdata[i],
                                           dyn_key_schema_get_attribute (&info->keys, k, NULL)) != NULL;
      if (all)
        g_ptr_array_add (in_source, items->pdata[i]);
    }
  source = dyn_sql_source_new (keys, index, in_source);
  schema = dyn_sql_source_schema (source);
  g_assert_true (g_str_has_prefix (schema, "CREATE TABLE x("));
  g_assert_true (g_str_has_suffix (schema, "item HIDDEN)"));
  schema[strlen (schema) - strlen ("HIDDEN)")] = '\0';
  quoted = dyn_sql_quote_identifier (source->name);
  create = g_strdup_printf ("CREATE TABLE %s(%s TEXT)", quoted, schema + strlen ("CREATE TABLE x("));
  g_assert_cmpint (sqlite3_exec (world.oracle, create, NULL, NULL, NULL), ==, SQLITE_OK);

  insert = g_string_new (NULL);
  g_string_printf (insert, "INSERT INTO %s VALUES (", quoted);
  for (guint c = 0; c <= source->columns->len; c++)
    g_string_append (insert, c ? ", ?" : "?");
  g_string_append (insert, ")");
  g_assert_cmpint (sqlite3_prepare_v2 (world.oracle, insert->str, -1, &stmt, NULL), ==, SQLITE_OK);
  for (guint i = 0; i < in_source->len; i++)
    {
      DynValue *item = in_source->pdata[i];
      g_autofree char *json = dyn_value_to_plain_json_string (item);

      for (guint c = 0; c < source->columns->len; c++)
        {
          DynSqlColumn *col = source->columns->pdata[c];
          if (i == 0 && (col->numeric || col->decimal))
            g_hash_table_add (world.numeric, g_strdup_printf ("%s\x1f%s", source->name, col->name));
          oracle_bind (stmt, c + 1, dyn_value_map_lookup (item, col->name), col->decimal);
        }
      sqlite3_bind_text (stmt, source->columns->len + 1, json, -1, SQLITE_TRANSIENT);
      g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
      sqlite3_reset (stmt);
    }
  sqlite3_finalize (stmt);
}

static gboolean
world_setup (void)
{
  g_autoptr(GError) error = NULL;
  const char *gsi_w[] = { "GSI1:CourseId:S", NULL };
  const char *gsi_t[] = { "ByTenant:tenant:S+region:S:seq:N", NULL };
  g_autoptr(GPtrArray) wi = NULL, si = NULL, mi = NULL, ti = NULL;

  if (world.client)
    return TRUE;
  world.server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  if (world.server == NULL)
    return FALSE;
  world.client = dyn_test_client_new (world.server);
  world.w = dyn_test_table_name ("ws");
  world.s = dyn_test_table_name ("students");
  world.m = dyn_test_table_name ("movies");
  world.t = dyn_test_table_name ("tenants");
  g_assert_true (dyn_test_create_table (world.client, world.w, "EntityRef:S", "Detail:S", gsi_w, &error));
  g_assert_true (dyn_test_create_table (world.client, world.s, "StudentId:S", NULL, NULL, &error));
  g_assert_true (dyn_test_create_table (world.client, world.m, "year:N", "title:S", NULL, &error));
  g_assert_true (dyn_test_create_table (world.client, world.t, "id:S", NULL, gsi_t, &error));
  g_assert_no_error (error);

  wi = workspace_items ();
  si = student_items ();
  mi = movie_items ();
  ti = tenant_items ();
  g_assert_true (dyn_test_load_items (world.client, world.w, wi, &error));
  g_assert_true (dyn_test_load_items (world.client, world.s, si, &error));
  g_assert_true (dyn_test_load_items (world.client, world.m, mi, &error));
  g_assert_true (dyn_test_load_items (world.client, world.t, ti, &error));
  g_assert_no_error (error);

  world.numeric = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_assert_cmpint (sqlite3_open (":memory:", &world.oracle), ==, SQLITE_OK);
  g_assert_cmpint (dyn_sql_decimal_register (world.oracle), ==, SQLITE_OK);
  sqlite3_exec (world.oracle, "PRAGMA case_sensitive_like = ON", NULL, NULL, NULL);
  oracle_add (world.w, NULL, wi);
  oracle_add (world.w, "GSI1", wi);
  oracle_add (world.s, NULL, si);
  oracle_add (world.m, NULL, mi);
  oracle_add (world.t, NULL, ti);
  oracle_add (world.t, "ByTenant", ti);
  return TRUE;
}

/* "@W", "@WG" (W.GSI1), "@S", "@M", "@T", "@TB" (T.ByTenant) → quoted names. */
static char *
expand (const char *sql)
{
  GString *out = g_string_new (NULL);

  for (const char *p = sql; *p; p++)
    {
      const char *name = NULL, *index = NULL;
      guint skip = 0;

      if (*p != '@')
        {
          g_string_append_c (out, *p);
          continue;
        }
      if (g_str_has_prefix (p, "@WG")) { name = world.w; index = "GSI1"; skip = 2; }
      else if (g_str_has_prefix (p, "@TB")) { name = world.t; index = "ByTenant"; skip = 2; }
      else if (p[1] == 'W') { name = world.w; skip = 1; }
      else if (p[1] == 'S') { name = world.s; skip = 1; }
      else if (p[1] == 'M') { name = world.m; skip = 1; }
      else if (p[1] == 'T') { name = world.t; skip = 1; }
      g_assert_nonnull (name);
      {
        g_autofree char *full = index ? g_strdup_printf ("%s.%s", name, index) : g_strdup (name);
        g_autofree char *q = dyn_sql_quote_identifier (full);
        g_string_append (out, q);
      }
      p += skip;
    }
  return g_string_free (out, FALSE);
}

/* Running ----------------------------------------------------------------- */

static DynSqlResult *
run_sql (DynSqlEngine  *engine,
         const char    *sql,
         GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_sql_engine_run_async (engine, sql, NULL, NULL, NULL, dyn_test_result_cb, &result);
  return dyn_sql_engine_run_finish (engine, dyn_test_wait (&result), error);
}

static DynSqlPlan *
explain_sql (DynSqlEngine  *engine,
             const char    *sql,
             GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_sql_engine_explain_async (engine, sql, NULL, dyn_test_result_cb, &result);
  return dyn_sql_engine_explain_finish (engine, dyn_test_wait (&result), error);
}

static GPtrArray *
engine_lines (DynSqlResult *res)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *rows = dyn_sql_result_get_rows (res);

  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (lines, dyn_sql_row_to_json_line (dyn_sql_result_get_columns (res), rows->pdata[i]));
  return lines;
}

static GPtrArray *
oracle_lines (const char *sql)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = NULL;
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  int rc;

  rc = sqlite3_prepare_v2 (world.oracle, sql, -1, &stmt, NULL);
  if (rc != SQLITE_OK)
    g_error ("oracle: %s: %s", sql, sqlite3_errmsg (world.oracle));
  for (int i = 0; i < sqlite3_column_count (stmt); i++)
    g_ptr_array_add (columns, (gpointer) sqlite3_column_name (stmt, i));
  g_ptr_array_add (columns, NULL);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr(DynSqlRow) row = g_new0 (DynSqlRow, 1);

      row->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      for (int i = 0; i < sqlite3_column_count (stmt); i++)
        {
          /* Numeric text of a column holding N values reads back as N,
           * as the engine does. */
          const char *table = sqlite3_column_table_name (stmt, i);
          const char *origin = sqlite3_column_origin_name (stmt, i);
          g_autofree char *key = g_strdup_printf ("%s\x1f%s", table ? table : "", origin ? origin : "");
          gboolean numeric = g_hash_table_contains (world.numeric, key);
          g_ptr_array_add (row->cells, dyn_sql_value_to_dyn (sqlite3_column_value (stmt, i), numeric));
        }
      g_ptr_array_add (lines, dyn_sql_row_to_json_line ((const char * const *) columns->pdata, row));
    }
  g_assert_cmpint (rc, ==, SQLITE_DONE);
  sqlite3_finalize (stmt);
  return lines;
}

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* Runs @sql both ways and compares; returns the result for more checks. */
static DynSqlResult *
check_oracle (DynSqlEngine *engine,
              const char   *template,
              gboolean      ordered)
{
  g_autofree char *sql = expand (template);
  g_autoptr(GError) error = NULL;
  DynSqlResult *res = run_sql (engine, sql, &error);
  g_autoptr(GPtrArray) got = NULL, want = NULL;

  g_assert_no_error (error);
  got = engine_lines (res);
  want = oracle_lines (sql);
  if (!ordered)
    {
      g_ptr_array_sort (got, compare_lines);
      g_ptr_array_sort (want, compare_lines);
    }
  g_test_message ("%s: %u rows", sql, got->len);
  for (guint i = 0; i < MAX (got->len, want->len); i++)
    {
      const char *g = i < got->len ? got->pdata[i] : "(none)";
      const char *w = i < want->len ? want->pdata[i] : "(none)";
      if (strcmp (g, w) != 0)
        g_error ("%s\nrow %u: engine %s\n        sqlite %s", sql, i, g, w);
    }
  g_assert_cmpuint (got->len, ==, want->len);
  return res;
}

static void
totals (DynSqlResult *res,
        guint        *queries,
        guint        *gets,
        guint        *batches,
        guint        *scans)
{
  *queries = *gets = *batches = *scans = 0;
  for (guint i = 0; i < dyn_sql_result_get_n_sources (res); i++)
    {
      const DynSqlSourceStats *s = dyn_sql_result_get_source (res, i);
      *queries += s->queries;
      *gets += s->get_items;
      *batches += s->batch_gets;
      *scans += s->scans;
    }
}

static DynSqlEngine *
new_engine (void)
{
  return dyn_sql_engine_new (world.client);
}

/* Cases ------------------------------------------------------------------- */

static const struct {
  const char *sql;
  gboolean    ordered;
  gboolean    scan;
} oracle_cases[] = {
  /* One collection, newest first; a sort-key range; BETWEEN; IN. */
  { "SELECT Detail, title, budget FROM @W WHERE EntityRef = 'WS#3' AND Detail LIKE 'PROJ#%' ORDER BY Detail DESC", TRUE },
  { "SELECT Detail FROM @W WHERE EntityRef = 'WS#4' AND Detail > 'PROJ#2025-03' ORDER BY Detail", TRUE },
  { "SELECT Detail FROM @W WHERE EntityRef = 'WS#4' AND Detail BETWEEN 'PROJ#2025-02' AND 'PROJ#2025-04'", FALSE },
  { "SELECT EntityRef, Detail FROM @W WHERE EntityRef IN ('WS#1', 'WS#2', 'nothing') AND Detail = 'META'", FALSE },
  { "SELECT StudentId, name, year, length(json_extract(item, '$.name')) FROM @S WHERE StudentId IN ('STU#1', 'STU#4', 'STU#9', 'STU#404')", FALSE },
  { "SELECT StudentId, photo FROM @S WHERE StudentId = 'STU#8'", FALSE },
  /* Exact sums of 38-digit and tiny numbers, grouped. */
  { "SELECT EntityRef, count(*), sum(budget), min(budget), max(budget) FROM @W "
    "WHERE EntityRef IN ('WS#1', 'WS#2', 'WS#3', 'WS#4') AND Detail LIKE 'PROJ#%' GROUP BY EntityRef", FALSE },
  { "SELECT EntityRef, title, budget FROM @W WHERE EntityRef = 'WS#4' AND Detail LIKE 'PROJ#%' ORDER BY budget, title", TRUE },
  { "SELECT EntityRef FROM @W WHERE EntityRef = 'WS#2' AND budget > 100", FALSE },
  /* Joins: the roster, a self-join over collections, one Query per distinct key. */
  { "SELECT s.StudentId, s.name FROM @WG e JOIN @S s ON s.StudentId = e.EntityRef WHERE e.CourseId = 'C1'", FALSE },
  { "SELECT m.name, p.title, p.budget FROM @W m JOIN @W p ON p.EntityRef = m.EntityRef "
    "WHERE m.EntityRef = 'WS#2' AND m.Detail = 'META' AND p.Detail LIKE 'PROJ#%'", FALSE },
  { "SELECT e.EntityRef, c.Detail, c.grade FROM @WG e JOIN @W c ON c.EntityRef = e.EntityRef "
    "WHERE e.CourseId IN ('C1', 'C2')", FALSE },
  { "SELECT e.CourseId, count(*), sum(s.year) FROM @WG e JOIN @S s ON s.StudentId = e.EntityRef "
    "WHERE e.CourseId IN ('C1', 'C2') GROUP BY e.CourseId", FALSE },
  { "SELECT e.EntityRef, s.name FROM @WG e LEFT JOIN @S s ON s.StudentId = e.EntityRef AND s.year = 2021 "
    "WHERE e.CourseId = 'C2'", FALSE },
  /* Subqueries. */
  { "SELECT name FROM @S WHERE StudentId IN (SELECT EntityRef FROM @WG WHERE CourseId = 'C2')", FALSE },
  { "SELECT title, (SELECT name FROM @W m WHERE m.EntityRef = p.EntityRef AND m.Detail = 'META') AS ws "
    "FROM @W p WHERE p.EntityRef = 'WS#1' AND p.Detail LIKE 'PROJ#%'", FALSE },
  /* A numeric partition key, BETWEEN on the sort key, JSON of the item. */
  { "SELECT year, title, rating FROM @M WHERE year = 2013 AND title BETWEEN 'B' AND 'M' ORDER BY title DESC", TRUE },
  { "SELECT year, title, json_extract(item, '$.info.genre') FROM @M WHERE year IN (2012, 2014) AND title >= 'D'", FALSE },
  { "SELECT year, avg(rating), total(rating) FROM @M WHERE year IN (2012, 2013, 2014) GROUP BY year", FALSE },
  /* A multi-attribute key: equality on both partition attributes. */
  { "SELECT id, seq FROM @TB WHERE tenant = 'a' AND region = 'eu' AND seq >= 3 ORDER BY seq DESC", TRUE },
  /* Scans, allowed. */
  { "SELECT Status, count(*) FROM @W WHERE Detail = 'META' GROUP BY Status", FALSE, TRUE },
  { "SELECT title, budget FROM @W WHERE Status = 'draft' ORDER BY budget DESC, title", TRUE, TRUE },
  { "SELECT DISTINCT tenant, region FROM @T", FALSE, TRUE },
};

static void
test_oracle (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;

  if (!world_setup ())
    return;
  engine = new_engine ();
  for (guint i = 0; i < G_N_ELEMENTS (oracle_cases); i++)
    {
      g_autoptr(DynSqlResult) res = NULL;
      guint q, g, b, s;

      dyn_sql_engine_set_allow_scan (engine, oracle_cases[i].scan);
      res = check_oracle (engine, oracle_cases[i].sql, oracle_cases[i].ordered);
      totals (res, &q, &g, &b, &s);
      /* Scans only where they were allowed. */
      if (!oracle_cases[i].scan)
        g_assert_cmpuint (s, ==, 0);
    }
}

/* The seeds' reads: one request each. */
static void
test_newest_first (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  g_autoptr(DynSqlPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  guint q, g, b, s, requests, pages;
  JsonObject *request;

  if (!world_setup ())
    return;
  engine = new_engine ();
  sql = expand ("SELECT Detail, title FROM @W WHERE EntityRef = 'WS#4' AND Detail LIKE 'PROJ#%' ORDER BY Detail DESC");
  plan = explain_sql (engine, sql, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_sql_plan_get_n_steps (plan), ==, 1);
  g_assert_cmpstr (dyn_sql_plan_get_step (plan, 0)->operation, ==, "Query");
  g_assert_cmpstr (dyn_sql_plan_get_step (plan, 0)->key_condition, ==, "#er = :er AND begins_with(#d, :p)");
  request = json_node_get_object (dyn_sql_plan_get_step (plan, 0)->request);
  g_assert_false (json_object_get_boolean_member (request, "ScanIndexForward"));

  res = check_oracle (engine, "SELECT Detail, title FROM @W WHERE EntityRef = 'WS#4' AND Detail LIKE 'PROJ#%' "
                      "ORDER BY Detail DESC", TRUE);
  totals (res, &q, &g, &b, &s);
  dyn_sql_result_get_totals (res, &requests, &pages, NULL);
  g_assert_cmpuint (q, ==, 1);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpuint (g + b + s, ==, 0);
  g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 6);
}

static void
test_roster (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  g_autoptr(DynSqlPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL, *text = NULL;
  const char *roster = "SELECT s.StudentId, s.name FROM @WG e JOIN @S s ON s.StudentId = e.EntityRef "
                       "WHERE e.CourseId = 'C1'";
  guint q, g, b, s;

  if (!world_setup ())
    return;
  engine = new_engine ();
  sql = expand (roster);
  plan = explain_sql (engine, sql, &error);
  g_assert_no_error (error);
  text = dyn_sql_plan_to_text (plan);
  g_test_message ("%s", text);
  g_assert_cmpuint (dyn_sql_plan_get_n_steps (plan), ==, 2);
  g_assert_cmpstr (dyn_sql_plan_get_step (plan, 0)->operation, ==, "Query");
  g_assert_true (g_str_has_suffix (dyn_sql_plan_get_step (plan, 0)->source, ".GSI1"));
  g_assert_cmpstr (dyn_sql_plan_get_step (plan, 1)->operation, ==, "BatchGetItem");
  g_assert_nonnull (strstr (dyn_sql_plan_get_step (plan, 1)->fan_out, "StudentId"));
  g_assert_false (dyn_sql_plan_needs_scan (plan));

  res = check_oracle (engine, roster, FALSE);
  totals (res, &q, &g, &b, &s);
  g_assert_cmpuint (q, ==, 1);
  g_assert_cmpuint (b, ==, 1);
  g_assert_cmpuint (g + s, ==, 0);
  g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 8);
  /* A row with the full key of one source is that item. */
  {
    DynSqlRow *row = dyn_sql_result_get_rows (res)->pdata[0];
    g_assert_cmpstr (row->source, ==, world.s);
    g_assert_nonnull (row->item);
    g_assert_nonnull (dyn_value_map_lookup (row->item, "tags"));
  }
}

/* A join of N distinct keys: exactly N Queries, however often each repeats. */
static void
test_distinct_keys (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  guint q, g, b, s;

  if (!world_setup ())
    return;
  engine = new_engine ();
  /* C1 has students 1–8, C2 5–12: 16 outer rows, 12 distinct students. */
  res = check_oracle (engine, "SELECT e.CourseId, c.Detail FROM @WG e JOIN @W c ON c.EntityRef = e.EntityRef "
                      "WHERE e.CourseId IN ('C1', 'C2')", FALSE);
  totals (res, &q, &g, &b, &s);
  g_assert_cmpuint (q, ==, 2 + 12);
  g_assert_cmpuint (g + b + s, ==, 0);
  g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 16 * 2 - 8);
}

/* The META row joined to its PROJ# rows reads the collection once. */
static void
test_self_join (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  guint requests;

  if (!world_setup ())
    return;
  engine = new_engine ();
  res = check_oracle (engine, "SELECT m.name, p.title FROM @W m JOIN @W p ON p.EntityRef = m.EntityRef "
                      "WHERE m.EntityRef = 'WS#3' AND m.Detail = 'META' AND p.Detail LIKE 'PROJ#%' "
                      "ORDER BY p.Detail DESC", TRUE);
  dyn_sql_result_get_totals (res, &requests, NULL, NULL);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 5);
}

/* A Scan is refused before any request, naming the table and the key;
 * allowed, it runs. */
static void
test_refused_scan (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  guint q, g, b, s;

  if (!world_setup ())
    return;
  engine = new_engine ();
  sql = expand ("SELECT title FROM @W WHERE Status = 'active'");
  res = run_sql (engine, sql, &error);
  g_assert_null (res);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, world.w));
  g_assert_nonnull (strstr (error->message, "EntityRef"));
  g_clear_error (&error);

  /* Which index would make it a Query. */
  g_free (sql);
  sql = expand ("SELECT EntityRef FROM @W WHERE CourseId = 'C1'");
  g_assert_null (run_sql (engine, sql, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "GSI1"));
  g_clear_error (&error);

  /* A multi-attribute key needs all its partition attributes. */
  g_free (sql);
  sql = expand ("SELECT id FROM @TB WHERE tenant = 'a'");
  g_assert_null (run_sql (engine, sql, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "tenant, region"));
  g_clear_error (&error);

  dyn_sql_engine_set_allow_scan (engine, TRUE);
  g_clear_pointer (&res, dyn_sql_result_free);
  res = check_oracle (engine, "SELECT title FROM @W WHERE Status = 'active'", FALSE);
  totals (res, &q, &g, &b, &s);
  g_assert_cmpuint (s, >=, 1);
  g_assert_cmpuint (q + g + b, ==, 0);
}

static void
test_refuse_other (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;

  if (!world_setup ())
    return;
  engine = new_engine ();
  sql = expand ("DELETE FROM @S WHERE StudentId = 'STU#1'");
  g_assert_null (run_sql (engine, sql, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "SELECT"));
  g_clear_error (&error);

  g_assert_null (run_sql (engine, "SELECT 1; SELECT 2", &error));
  g_assert_nonnull (strstr (error->message, "one statement"));
  g_clear_error (&error);

  g_assert_null (run_sql (engine, "SELECT * FRM b", &error));
  g_assert_nonnull (strstr (error->message, "character 10"));
  g_clear_error (&error);

  g_assert_null (run_sql (engine, "SELECT * FROM \"no-such-table\"", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Still alive and a statement later runs. */
  g_free (sql);
  sql = expand ("SELECT name FROM @S WHERE StudentId = 'STU#2'");
  {
    g_autoptr(DynSqlResult) res = run_sql (engine, sql, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 1);
  }
}

/* Rows stream to the callback in batches; what the callee takes is not in
 * the result. */
static void
rows_cb (GPtrArray *rows,
         gpointer   user_data)
{
  guint *n = user_data;
  *n += rows->len;
  g_ptr_array_set_size (rows, 0);
}

static void
test_rows_func (void)
{
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlResult) res = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *sql = NULL;
  guint n = 0;

  if (!world_setup ())
    return;
  engine = new_engine ();
  sql = expand ("SELECT year, title FROM @M WHERE year IN (2012, 2013, 2014)");
  dyn_sql_engine_run_async (engine, sql, rows_cb, &n, NULL, dyn_test_result_cb, &result);
  res = dyn_sql_engine_run_finish (engine, dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 24);
  g_assert_cmpuint (dyn_sql_result_get_rows (res)->len, ==, 0);
  g_assert_false (dyn_sql_result_was_cancelled (res));
}

static void
test_json_csv (void)
{
  g_autoptr(DynSqlRow) row = g_new0 (DynSqlRow, 1);
  const char *columns[] = { "PK", "n", "t", "PK", "x", NULL };
  g_autofree char *json = NULL, *csv = NULL, *header = NULL;

  row->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_ptr_array_add (row->cells, dyn_value_new_string ("a,\"b\""));
  g_ptr_array_add (row->cells, dyn_value_new_number ("12345678901234567890123456789012345678", NULL));
  g_ptr_array_add (row->cells, dyn_value_new_string ("line\nbreak"));
  g_ptr_array_add (row->cells, dyn_value_new_null ());
  g_ptr_array_add (row->cells, dyn_value_new_bool (TRUE));
  json = dyn_sql_row_to_json_line (columns, row);
  g_assert_cmpstr (json, ==, "{\"PK\":\"a,\\\"b\\\"\",\"n\":12345678901234567890123456789012345678,"
                             "\"t\":\"line\\nbreak\",\"PK:2\":null,\"x\":true}");
  csv = dyn_sql_row_to_csv_line (columns, row);
  g_assert_cmpstr (csv, ==, "\"a,\"\"b\"\"\",12345678901234567890123456789012345678,\"line\nbreak\",,true\r\n");
  header = dyn_sql_row_to_csv_line (columns, NULL);
  g_assert_cmpstr (header, ==, "PK,n,t,PK,x\r\n");
}

/* A fault server counts every request: a refused Scan sends only the
 * catalog reads, EXPLAIN likewise; a garbled answer is an error naming the
 * source, no crash. */
static void
push_catalog (DynFaultServer *server)
{
  dyn_fault_server_push_json (server, 200, "{\"TableNames\":[\"Things\"]}");
  dyn_fault_server_push_json (server, 200,
    "{\"Table\":{\"TableName\":\"Things\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}]}}");
  dyn_fault_server_push_json (server, 200,
    "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"color\":{\"S\":\"red\"}}],\"Count\":1}");
}

static const char *
request_target (DynFaultServer *server,
                guint           i)
{
  const char *t = dyn_fault_server_get_request_header (server, i, "X-Amz-Target");
  return t ? strchr (t, '.') + 1 : NULL;
}

static void
test_fault (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("AKIDEXAMPLE", "secret", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = dyn_client_new (dyn_fault_server_get_url (server), "us-east-1", creds, &error);
  g_autoptr(DynSqlEngine) engine = NULL;
  g_autoptr(DynSqlPlan) plan = NULL;

  g_assert_no_error (error);
  dyn_client_set_retry (client, 1, 1, 1);
  engine = dyn_sql_engine_new (client);
  push_catalog (server);

  g_assert_null (run_sql (engine, "SELECT color FROM Things WHERE color = 'red'", &error));
  g_assert_nonnull (strstr (error->message, "Things"));
  g_assert_nonnull (strstr (error->message, "pk"));
  g_clear_error (&error);
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 3);
  g_assert_cmpstr (request_target (server, 0), ==, "ListTables");
  g_assert_cmpstr (request_target (server, 1), ==, "DescribeTable");
  g_assert_cmpstr (request_target (server, 2), ==, "Scan");   /* Limit 100: the columns */

  /* EXPLAIN: no request at all now that the catalog is cached. */
  plan = explain_sql (engine, "SELECT color FROM Things WHERE pk = 'a' AND sk > '0'", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 3);
  g_assert_cmpstr (dyn_sql_plan_get_step (plan, 0)->operation, ==, "Query");

  /* Garbage where a Query answer should be. */
  dyn_fault_server_push_json (server, 200, "{\"Items\":[{\"pk\":{\"S\":1}}]");
  g_assert_null (run_sql (engine, "SELECT color FROM Things WHERE pk = 'a'", &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "Things: ") || strstr (error->message, "Things") != NULL);
  g_clear_error (&error);
  dyn_fault_server_push_error (server, 400, "com.amazonaws.dynamodb.v20120810#ValidationException", "nope");
  g_assert_null (run_sql (engine, "SELECT color FROM Things WHERE pk = 'b'", &error));
  dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  g_assert_nonnull (strstr (error->message, "Things"));
  g_clear_error (&error);

  g_clear_object (&engine);
  g_clear_object (&client);
  dyn_fault_server_free (server);
}

/* Cancelling keeps what arrived. */
static guint cancel_rows_seen;

static void
cancel_rows_cb (GPtrArray *rows,
                gpointer   user_data)
{
  GCancellable *cancellable = user_data;

  /* The first page's rows come while the second page is awaited. */
  cancel_rows_seen += rows->len;
  g_ptr_array_set_size (rows, 0);
  g_cancellable_cancel (cancellable);
}

static void
test_cancel (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("AKIDEXAMPLE", "secret", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = dyn_client_new (dyn_fault_server_get_url (server), "us-east-1", creds, &error);
  g_autoptr(DynSqlEngine) engine = dyn_sql_engine_new (client);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynSqlResult) res = NULL;

  dyn_client_set_retry (client, 1, 1, 1);
  push_catalog (server);
  /* Page one now, page two only after a long time (cut short by the cancel). */
  dyn_fault_server_push_json (server, 200,
    "{\"Items\":[{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}},{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}],"
    "\"LastEvaluatedKey\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}}");
  dyn_fault_server_push_delayed (server, 600000, 200, "{\"Items\":[]}");
  dyn_sql_engine_run_async (engine, "SELECT sk FROM Things WHERE pk = 'a'", cancel_rows_cb, cancellable,
                            cancellable, dyn_test_result_cb, &result);
  res = dyn_sql_engine_run_finish (engine, dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_true (dyn_sql_result_was_cancelled (res));
  g_assert_cmpuint (cancel_rows_seen + dyn_sql_result_get_rows (res)->len, ==, 2);
  g_assert_cmpuint (cancel_rows_seen, >=, 1);
  g_clear_pointer (&res, dyn_sql_result_free);
  g_clear_object (&engine);
  g_clear_object (&client);
  dyn_fault_server_free (server);
}

/* dynoscope-cli sql, --explain, --stats. */
static char *
cli_path (void)
{
  const char *build = g_getenv ("DYN_BUILD_ROOT");
  g_assert_nonnull (build);
  return g_build_filename (build, "app", "dynoscope-cli", NULL);
}

static int
cli (char **out,
     char **err,
     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("dyn-sql-XXXXXX", NULL);
  va_list ap;
  const char *a;

  g_ptr_array_add (args, cli_path ());
  g_ptr_array_add (args, g_strdup ("--endpoint"));
  g_ptr_array_add (args, g_strdup (dyn_test_server_get_endpoint (world.server)));
  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (args, g_strdup (a));
  va_end (ap);
  g_ptr_array_add (args, NULL);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", *out, *err);
  return g_subprocess_get_exit_status (proc);
}

static void
test_cli (void)
{
  g_autofree char *sql = NULL, *out = NULL, *err = NULL;
  g_autofree char *scan = NULL;
  g_auto(GStrv) lines = NULL;

  if (!world_setup ())
    return;
  sql = expand ("SELECT Detail, budget FROM @W WHERE EntityRef = 'WS#1' AND Detail LIKE 'PROJ#%' ORDER BY Detail");
  g_assert_cmpint (cli (&out, &err, "--stats", "sql", sql, NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "{\"Detail\":\"PROJ#2025-01-01#p0\",\"budget\":12000.5}");
  g_assert_cmpstr (lines[1], ==, "{\"Detail\":\"PROJ#2025-02-01#p1\",\"budget\":99999999999999999999999999999999999999}");
  g_assert_true (g_str_has_prefix (err, "requests 1 pages 1 rcu "));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (cli (&out, &err, "sql", "--explain", sql, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Query "));
  g_assert_nonnull (strstr (out, "begins_with"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  scan = expand ("SELECT count(*) FROM @S");
  g_assert_cmpint (cli (&out, &err, "sql", scan, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "StudentId"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli (&out, &err, "--stats", "sql", "--allow-scan", scan, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "{\"count(*)\":12}\n");
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);
  g_test_add_func ("/sql/json-csv", test_json_csv);
  g_test_add_func ("/sql/fault", test_fault);
  g_test_add_func ("/sql/cancel", test_cancel);
  g_test_add_func ("/sql/oracle", test_oracle);
  g_test_add_func ("/sql/newest-first", test_newest_first);
  g_test_add_func ("/sql/roster", test_roster);
  g_test_add_func ("/sql/distinct-keys", test_distinct_keys);
  g_test_add_func ("/sql/self-join", test_self_join);
  g_test_add_func ("/sql/refused-scan", test_refused_scan);
  g_test_add_func ("/sql/refuse-other", test_refuse_other);
  g_test_add_func ("/sql/rows-func", test_rows_func);
  g_test_add_func ("/sql/cli", test_cli);
  return g_test_run ();
}
