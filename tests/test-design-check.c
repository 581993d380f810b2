/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "dyn-design.h"
#include "dyn-error.h"
#include "dyn-fault-server.h"
#include "dyn-test-util.h"

/*
 * The live check against DynamoDB Local (and dynalite where cheap): the
 * seeds' two models pass with one request of one page per pattern and leave
 * no table behind; a pattern that can only be a Scan fails with its reason
 * (and `dynoscope-cli design check` exits 3); an existing table's own data is
 * checked against the model; guarded writes never replace an item; errors,
 * a dropped connection and a cancel leave no scratch table.
 */

/* A Scan-only pattern on a fixed table with a numeric partition key
 * (movies: year N, title S). */
static const char movies_model[] =
  "{ \"format\": \"dynoscope-design\", \"version\": 1, \"name\": \"Movies\","
  "  \"table\": { \"name\": \"Movies\", \"partitionKey\": { \"name\": \"year\", \"type\": \"N\" },"
  "             \"sortKey\": { \"name\": \"title\", \"type\": \"S\" }, \"fixed\": true },"
  "  \"entities\": [ { \"name\": \"Movie\", \"id\": [\"year\", \"title\"],"
  "    \"attributes\": [ { \"name\": \"year\", \"type\": \"N\", \"required\": true, \"examples\": [\"1994\", \"2001\", \"2013\"] },"
  "                      { \"name\": \"title\", \"type\": \"S\", \"required\": true, \"examples\": [\"Heat\", \"Amélie\", \"Her\"] },"
  "                      { \"name\": \"director\", \"type\": \"S\", \"examples\": [\"Michael Mann\", \"Spike Jonze\"] } ],"
  "    \"keys\": { \"year\": \"{year}\", \"title\": \"{title}\" } } ],"
  "  \"accessPatterns\": ["
  "    { \"name\": \"Movies of a year\", \"entity\": \"Movie\", \"operation\": \"list\", \"parameters\": [\"year\"] },"
  "    { \"name\": \"One movie\", \"entity\": \"Movie\", \"operation\": \"get\", \"parameters\": [\"year\", \"title\"] },"
  "    { \"name\": \"Movies by director\", \"entity\": \"Movie\", \"operation\": \"list\", \"parameters\": [\"director\"] } ] }";

/* A hash-only table, keys without '#'. */
static const char products_model[] =
  "{ \"format\": \"dynoscope-design\", \"version\": 1, \"name\": \"Products\","
  "  \"table\": { \"name\": \"Products\", \"partitionKey\": { \"name\": \"sku\", \"type\": \"S\" }, \"fixed\": true },"
  "  \"entities\": [ { \"name\": \"Product\", \"id\": [\"sku\"],"
  "    \"attributes\": [ { \"name\": \"sku\", \"type\": \"S\", \"required\": true, \"examples\": [\"p-100\", \"p-200\"] },"
  "                      { \"name\": \"price\", \"type\": \"N\" } ],"
  "    \"keys\": { \"sku\": \"{sku}\" } } ],"
  "  \"accessPatterns\": ["
  "    { \"name\": \"One product\", \"entity\": \"Product\", \"operation\": \"get\", \"parameters\": [\"sku\"] } ] }";

/* A numeric sort key, newest first. */
static const char readings_model[] =
  "{ \"format\": \"dynoscope-design\", \"version\": 1, \"name\": \"Sensor readings\","
  "  \"table\": { \"name\": \"Readings\", \"partitionKey\": { \"name\": \"sensor\", \"type\": \"S\" },"
  "             \"sortKey\": { \"name\": \"ts\", \"type\": \"N\" }, \"fixed\": true },"
  "  \"entities\": [ { \"name\": \"Reading\", \"id\": [\"sensorId\", \"ts\"],"
  "    \"attributes\": [ { \"name\": \"sensorId\", \"type\": \"S\", \"required\": true, \"examples\": [\"s1\", \"s2\"] },"
  "                      { \"name\": \"ts\", \"type\": \"N\", \"required\": true, \"examples\": [\"1700000000\", \"1700000060\"] },"
  "                      { \"name\": \"celsius\", \"type\": \"N\" } ],"
  "    \"keys\": { \"sensor\": \"SENSOR#{sensorId}\", \"ts\": \"{ts}\" } } ],"
  "  \"accessPatterns\": ["
  "    { \"name\": \"Readings of a sensor, newest first\", \"entity\": \"Reading\", \"operation\": \"list-newest-first\", \"parameters\": [\"sensorId\"] },"
  "    { \"name\": \"One reading\", \"entity\": \"Reading\", \"operation\": \"get\", \"parameters\": [\"sensorId\", \"ts\"] },"
  "    { \"name\": \"Readings of a sensor, counted\", \"entity\": \"Reading\", \"operation\": \"count\", \"parameters\": [\"sensorId\"] } ] }";

/* A hot collection: the draft shards it, its list fans out. */
static const char hot_model[] =
  "{ \"format\": \"dynoscope-design\", \"version\": 1, \"name\": \"Hot tenants\","
  "  \"entities\": ["
  "    { \"name\": \"Tenant\", \"id\": [\"tenantId\"],"
  "      \"attributes\": [ { \"name\": \"tenantId\", \"type\": \"S\", \"examples\": [\"acme\", \"globex\"], \"required\": true } ] },"
  "    { \"name\": \"Event\", \"id\": [\"eventId\"],"
  "      \"attributes\": [ { \"name\": \"eventId\", \"type\": \"S\", \"required\": true }, { \"name\": \"kind\", \"type\": \"S\" } ],"
  "      \"writesPerSecond\": 20000, \"readsPerSecond\": 50000, \"count\": 100000000 } ],"
  "  \"relationships\": [ { \"type\": \"one-to-many\", \"parent\": \"Tenant\", \"child\": \"Event\", \"itemsPerParent\": 10000000 } ],"
  "  \"accessPatterns\": ["
  "    { \"name\": \"Events of a tenant\", \"entity\": \"Event\", \"operation\": \"list-newest-first\", \"parameters\": [\"tenantId\"] },"
  "    { \"name\": \"One tenant\", \"entity\": \"Tenant\", \"operation\": \"get\", \"parameters\": [\"tenantId\"] } ] }";

static DynDesignModel *
load_seed (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "design", name, NULL);
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_model_load_file (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static DynDesignModel *
load_text (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  DynDesignModel *model;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  model = dyn_design_model_load (json_parser_get_root (parser), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static char *
write_temp_model (const char *json)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("dyn-check-XXXXXX.json", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

/* Runs the built dynoscope-cli with @argv (NULL-terminated, without the
 * program) as tests/test-cli.c does; returns its exit status. */
static int
run_cli (const char * const *argv,
         char              **out,
         char              **err)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("dyn-check-home-XXXXXX", NULL);

  g_ptr_array_add (args, g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL));
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_CONFIG_FILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_SHARED_CREDENTIALS_FILE");
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", *out, *err);
  g_assert_true (g_subprocess_get_if_exited (proc));
  return g_subprocess_get_exit_status (proc);
}

typedef struct {
  GPtrArray    *messages;
  GCancellable *cancel;
  const char   *cancel_at;   /* cancel when a message starts with it */
} Progress;

static void
progress_cb (const char *message,
             gpointer    user_data)
{
  Progress *p = user_data;

  g_test_message ("progress: %s", message);
  g_ptr_array_add (p->messages, g_strdup (message));
  if (p->cancel_at != NULL && g_str_has_prefix (message, p->cancel_at))
    g_cancellable_cancel (p->cancel);
}

static DynDesignCheckReport *
run_check_full (DynClient                   *client,
                const DynDesignModel        *model,
                const DynDesignCheckOptions *options,
                Progress                    *p,
                GError                     **error)
{
  GAsyncResult *result = NULL;
  DynDesignCheckReport *report;

  dyn_design_check_async (client, model, options, progress_cb, p, p->cancel,
                          dyn_test_result_cb, &result);
  report = dyn_design_check_finish (client, dyn_test_wait (&result), error);
  g_object_unref (result);
  if (report != NULL)
    {
      g_autoptr(JsonNode) json = dyn_design_check_report_to_json (report);
      g_autofree char *text = json_to_string (json, TRUE);

      g_test_message ("report: %s", text);
    }
  return report;
}

static DynDesignCheckReport *
run_check (DynClient                   *client,
           const DynDesignModel        *model,
           const DynDesignCheckOptions *options)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  Progress p = { messages, NULL, NULL };
  g_autoptr(GError) error = NULL;
  DynDesignCheckReport *report = run_check_full (client, model, options, &p, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static gboolean
table_exists (DynClient  *client,
              const char *table)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = dyn_test_list_tables (client, &error);

  g_assert_no_error (error);
  return g_strv_contains ((const char * const *) tables, table);
}

/* Deleted: DescribeTable does not find it, or it is DELETING (dynalite and
 * DynamoDB take a while; DynamoDB Local deletes at once). */
static gboolean
table_deleted (DynClient  *client,
               const char *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) r = dyn_test_callf (client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", table);
  JsonObject *t;

  if (r == NULL)
    {
      g_assert_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND);
      return TRUE;
    }
  t = json_object_get_object_member (json_node_get_object (r->root), "Table");
  return g_strcmp0 (json_object_get_string_member (t, "TableStatus"), "DELETING") == 0;
}

static guint
count_tables_with_prefix (DynClient  *client,
                          const char *prefix)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = dyn_test_list_tables (client, &error);
  guint n = 0;

  g_assert_no_error (error);
  for (guint i = 0; tables[i]; i++)
    n += g_str_has_prefix (tables[i], prefix);
  return n;
}

static const DynDesignCheckResult *
find_result (const DynDesignCheckReport *report,
             const char                 *pattern)
{
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];
      if (strcmp (r->pattern, pattern) == 0)
        return r;
    }
  g_assert_not_reached ();
}

/* Every pattern one GetItem or Query of one page, not empty, only its
 * entity; the scratch table gone afterwards. */
static char *
assert_passes_one_request (DynClient            *client,
                           DynDesignModel       *model)
{
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { .seed = 7 };

  report = run_check (client, model, &options);
  g_assert_true (report->scratch);
  g_assert_true (g_str_has_prefix (report->table, "dynoscope-check-"));
  g_assert_cmpuint (report->results->len, ==, model->patterns->len);
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];

      g_test_message ("%s: %s %s, %u requests, %u pages, %g RCU, %u items, %s",
                      r->pattern, dyn_operation_get_name (r->operation), r->index ? r->index : "",
                      r->requests, r->pages, r->read_units, r->items, r->problem ? r->problem : "ok");
      g_assert_cmpstr (r->problem, ==, NULL);
      g_assert_true (r->passed);
      g_assert_true (r->operation == DYN_OP_QUERY || r->operation == DYN_OP_GET_ITEM);
      g_assert_cmpuint (r->requests, ==, 1);
      g_assert_cmpuint (r->pages, ==, 1);
      g_assert_cmpuint (r->items, >, 0);
      g_assert_true (r->only_entity);
      g_assert_cmpfloat (r->read_units, >, 0);
    }
  g_assert_cmpuint (report->items_written, >, 0);
  g_assert_cmpuint (report->items_existing, ==, 0);
  g_assert_cmpfloat (report->write_units, >, 0);
  g_assert_true (report->passed);
  g_assert_true (table_deleted (client, report->table));
  return g_strdup (report->table);
}

static void
test_seeds (gconstpointer data)
{
  DynTestServer *server = dyn_test_server_get (GPOINTER_TO_INT (data));
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) workspaces = NULL;
  g_autoptr(DynDesignModel) school = NULL;
  g_autofree char *first = NULL, *second = NULL;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  workspaces = load_seed ("workspaces.json");
  school = load_seed ("school.json");
  first = assert_passes_one_request (client, workspaces);
  second = assert_passes_one_request (client, school);
  if (GPOINTER_TO_INT (data) == DYN_TEST_DYNAMODB_LOCAL)
    {
      /* Gone from ListTables (DynamoDB Local deletes at once). */
      g_assert_false (table_exists (client, first));
      g_assert_false (table_exists (client, second));
    }
}

static void
test_unlike_demo (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) products = NULL;
  g_autoptr(DynDesignModel) readings = NULL;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  products = load_text (products_model);
  readings = load_text (readings_model);
  g_free (assert_passes_one_request (client, products));
  g_free (assert_passes_one_request (client, readings));
}

/* A sharded collection's read: one Query of one page per shard passes. */
static void
test_sharded (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { .per_parent = 4 };
  const DynDesignCheckResult *events;
  guint shards = 0;
  GPtrArray *requests;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  model = load_text (hot_model);
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  requests = dyn_design_plan_get_requests (plan);
  for (guint i = 0; i < requests->len; i++)
    if (strcmp (((DynDesignRequest *) requests->pdata[i])->pattern, "Events of a tenant") == 0)
      shards = ((DynDesignRequest *) requests->pdata[i])->shards;
  g_assert_cmpuint (shards, >, 1);

  report = run_check (client, model, &options);
  events = find_result (report, "Events of a tenant");
  g_assert_cmpint (events->operation, ==, DYN_OP_QUERY);
  g_assert_cmpuint (events->requests, ==, shards);
  g_assert_cmpuint (events->pages, ==, shards);
  g_assert_cmpuint (events->items, ==, 4);
  g_assert_true (events->only_entity);
  g_assert_true (events->passed);
  g_assert_true (report->passed);
  g_assert_true (table_deleted (client, report->table));
}

/* A pattern that can only be a Scan fails with the plan's reason; the
 * others pass; the CLI exits 3 and says FAIL. */
static void
test_scan_fails (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { .seed = 1 };
  const DynDesignCheckResult *scan, *year;
  const char *reason = NULL;
  GPtrArray *requests;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  model = load_text (movies_model);
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  requests = dyn_design_plan_get_requests (plan);
  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *r = requests->pdata[i];
      if (strcmp (r->pattern, "Movies by director") == 0)
        {
          g_assert_cmpint (r->operation, ==, DYN_OP_SCAN);
          reason = r->reason;
        }
    }
  g_assert_nonnull (reason);

  report = run_check (client, model, &options);
  scan = find_result (report, "Movies by director");
  g_assert_cmpint (scan->operation, ==, DYN_OP_SCAN);
  g_assert_false (scan->passed);
  g_assert_nonnull (scan->problem);
  g_assert_nonnull (strstr (scan->problem, reason));
  year = find_result (report, "Movies of a year");
  g_assert_true (year->passed);
  g_assert_cmpint (year->operation, ==, DYN_OP_QUERY);
  g_assert_true (find_result (report, "One movie")->passed);
  g_assert_false (report->passed);
  g_assert_false (table_exists (client, report->table));

  /* The CLI: exit 3, the failed line with its reason. */
  path = write_temp_model (movies_model);
  g_assert_cmpint (run_cli ((const char * const[]) { "--endpoint", dyn_test_server_get_endpoint (server),
                                                     "design", "check", path, NULL }, &out, &err), ==, 3);
  g_assert_nonnull (strstr (out, "Movies by director: Scan"));
  g_assert_nonnull (strstr (out, "FAIL"));
  g_assert_nonnull (strstr (out, reason));
  g_assert_nonnull (strstr (out, "Movies of a year: Query"));
  g_assert_nonnull (strstr (out, "cost:"));
  g_assert_nonnull (strstr (err, "Creating the scratch table"));
  g_unlink (path);
}

/* The CLI passes the seed with exit 0 and prints the JSON report with --json. */
static void
test_cli_passes (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *model = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;

  if (server == NULL)
    return;
  model = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "design", "workspaces.json", NULL);
  g_assert_cmpint (run_cli ((const char * const[]) { "--endpoint", dyn_test_server_get_endpoint (server),
                                                     "design", "check", model, "--json", NULL }, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_true (json_object_get_boolean_member (root, "passed"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "patterns")), ==, 4);
}

/* The plan's table as an empty table of the test's own, with or without
 * its indexes (the CreateTable input written here, not by the code under
 * test). */
static void
add_definition (JsonArray  *defs,
                GHashTable *seen,
                const char *name,
                const char *type)
{
  JsonObject *d;

  if (name == NULL || !g_hash_table_add (seen, (gpointer) name))
    return;
  d = json_object_new ();
  json_object_set_string_member (d, "AttributeName", name);
  json_object_set_string_member (d, "AttributeType", type);
  json_array_add_object_element (defs, d);
}

static JsonArray *
key_schema (const char *pk,
            const char *sk)
{
  JsonArray *a = json_array_new ();
  JsonObject *k = json_object_new ();

  json_object_set_string_member (k, "AttributeName", pk);
  json_object_set_string_member (k, "KeyType", "HASH");
  json_array_add_object_element (a, k);
  if (sk != NULL)
    {
      k = json_object_new ();
      json_object_set_string_member (k, "AttributeName", sk);
      json_object_set_string_member (k, "KeyType", "RANGE");
      json_array_add_object_element (a, k);
    }
  return a;
}

static void
create_plan_table (DynTestFixture *fx,
                   DynDesignPlan  *plan,
                   gboolean        with_indexes)
{
  const DynDesignTable *t = dyn_design_plan_get_table (plan);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *o = json_object_new ();
  JsonArray *defs = json_array_new ();
  JsonArray *gsis = json_array_new ();
  JsonArray *lsis = json_array_new ();
  g_autofree char *text = NULL;

  add_definition (defs, seen, t->partition_key, t->partition_type);
  add_definition (defs, seen, t->sort_key, t->sort_type);
  for (guint i = 0; with_indexes && i < t->indexes->len; i++)
    {
      DynDesignIndex *ix = t->indexes->pdata[i];
      JsonObject *io = json_object_new ();
      JsonObject *proj = json_object_new ();
      const char *pk = ix->local ? t->partition_key : ix->partition_key;

      add_definition (defs, seen, pk, ix->local ? t->partition_type : ix->partition_type);
      add_definition (defs, seen, ix->sort_key, ix->sort_type);
      json_object_set_string_member (io, "IndexName", ix->name);
      json_object_set_array_member (io, "KeySchema", key_schema (pk, ix->sort_key));
      json_object_set_string_member (proj, "ProjectionType", "ALL");
      json_object_set_object_member (io, "Projection", proj);
      json_array_add_object_element (ix->local ? lsis : gsis, io);
    }
  json_object_set_string_member (o, "TableName", fx->table);
  json_object_set_array_member (o, "AttributeDefinitions", defs);
  json_object_set_array_member (o, "KeySchema", key_schema (t->partition_key, t->sort_key));
  if (json_array_get_length (gsis) > 0)
    json_object_set_array_member (o, "GlobalSecondaryIndexes", gsis);
  else
    json_array_unref (gsis);
  if (json_array_get_length (lsis) > 0)
    json_object_set_array_member (o, "LocalSecondaryIndexes", lsis);
  else
    json_array_unref (lsis);
  json_object_set_string_member (o, "BillingMode", "PAY_PER_REQUEST");
  json_node_take_object (node, o);
  text = json_to_string (node, FALSE);
  dyn_test_fixture_create_table_json (fx, text);
}

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "design-check");
}

/* The examples, then a collection far above its siblings and items of a
 * shape no entity has: both findings, with numbers and example keys. */
static void
test_existing_findings (DynTestFixture *fx,
                        gconstpointer   data)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) examples = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { 0 };
  const DynDesignPlacement *project;
  const DynDesignTable *t;
  gboolean unknown = FALSE, hot = FALSE;

  DYN_TEST_REQUIRE_SERVER (fx);
  model = load_seed ("workspaces.json");
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  t = dyn_design_plan_get_table (plan);
  create_plan_table (fx, plan, TRUE);

  /* The examples, as the model has them. */
  examples = dyn_design_examples (model, plan, 3, 1);
  g_assert_true (dyn_test_load_items (fx->client, fx->table, examples, &error));
  g_assert_no_error (error);

  /* A workspace with 120 projects, keyed by the plan's own templates. */
  project = dyn_design_plan_find_placement (plan, "Project");
  g_assert_nonnull (project);
  for (guint n = 0; n < 120; n++)
    {
      g_autoptr(DynValue) item = dyn_test_itemf ("{\"workspaceId\":{\"S\":\"megacorp\"},\"projectId\":{\"S\":\"2025-%04u\"},"
                                                 "\"title\":{\"S\":\"Project %u\"},\"status\":{\"S\":\"ACTIVE\"}}", n, n);

      for (guint k = 0; k < project->keys->len; k++)
        {
          DynDesignKey *key = project->keys->pdata[k];
          g_autoptr(DynDesignTemplate) tmpl = dyn_design_template_parse (key->template, &error);
          g_autoptr(DynValue) v = NULL;

          g_assert_no_error (error);
          v = dyn_design_template_render (tmpl, item, project->shards > 1 ? 1 : 0, project->shards, &error);
          g_assert_no_error (error);
          dyn_value_map_set (item, key->attribute, v);
        }
      g_assert_cmpstr (dyn_design_plan_classify (plan, item), ==, "Project");
      g_ptr_array_add (items, g_steal_pointer (&item));
    }
  /* Two items of a shape the model does not know. */
  for (guint n = 0; n < 2; n++)
    {
      g_autoptr(DynValue) item = dyn_value_new_map ();
      g_autofree char *pk = g_strdup_printf ("AUDIT#%u", n);

      dyn_value_map_take (item, t->partition_key, dyn_value_new_string (pk));
      if (t->sort_key)
        dyn_value_map_take (item, t->sort_key, dyn_value_new_string ("LOG#2026-01-01"));
      g_assert_null (dyn_design_plan_classify (plan, item));
      g_ptr_array_add (items, g_steal_pointer (&item));
    }
  g_assert_true (dyn_test_load_items (fx->client, fx->table, items, &error));
  g_assert_no_error (error);

  options.table = fx->table;
  report = run_check (fx->client, model, &options);
  g_assert_false (report->scratch);
  g_assert_cmpuint (report->sampled_items, ==, examples->len + items->len);
  g_assert_cmpfloat (report->sample_read_units, >, 0);
  for (guint i = 0; i < report->findings->len; i++)
    {
      DynDesignDecision *f = report->findings->pdata[i];

      g_test_message ("finding: %s", f->text);
      if (strstr (f->text, "AUDIT#0") != NULL && strstr (f->text, "2 of") != NULL)
        unknown = TRUE;
      if (strstr (f->text, "megacorp") != NULL && strstr (f->text, "hot-partition") != NULL &&
          strstr (f->text, "120 items") != NULL)
        hot = TRUE;
    }
  g_assert_true (unknown);
  g_assert_true (hot);
  g_assert_false (report->passed);
  /* The table the user named stays. */
  g_assert_true (table_exists (fx->client, fx->table));
}

static DynValue *
plan_item (DynDesignPlan *plan,
           const char    *entity,
           const char    *json)
{
  const DynDesignPlacement *placement = dyn_design_plan_find_placement (plan, entity);
  g_autoptr(GError) error = NULL;
  DynValue *item = dyn_test_itemf ("%s", json);

  g_assert_nonnull (placement);
  for (guint k = 0; k < placement->keys->len; k++)
    {
      DynDesignKey *key = placement->keys->pdata[k];
      g_autoptr(DynDesignTemplate) tmpl = dyn_design_template_parse (key->template, &error);
      g_autoptr(DynValue) v = NULL;

      g_assert_no_error (error);
      v = dyn_design_template_render (tmpl, item, 0, 0, &error);
      g_assert_no_error (error);
      dyn_value_map_set (item, key->attribute, v);
    }
  g_assert_cmpstr (dyn_design_plan_classify (plan, item), ==, entity);
  return item;
}

/* A table with real data and no examples written: the patterns read values
 * from the sample (a workspace none of the examples has) and pass; nothing
 * is written. */
static void
test_existing_real_data (DynTestFixture *fx,
                         gconstpointer   data)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (fx);
  model = load_seed ("workspaces.json");
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  create_plan_table (fx, plan, TRUE);
  g_ptr_array_add (items, plan_item (plan, "Workspace",
                                     "{\"workspaceId\":{\"S\":\"umbrella\"},\"name\":{\"S\":\"Umbrella\"}}"));
  for (guint n = 1; n <= 4; n++)
    {
      g_autofree char *json = g_strdup_printf ("{\"workspaceId\":{\"S\":\"umbrella\"},\"projectId\":{\"S\":\"2024-%04u\"},"
                                               "\"title\":{\"S\":\"P%u\"},\"status\":{\"S\":\"%s\"}}",
                                               n, n, n % 2 ? "ACTIVE" : "ARCHIVED");
      g_ptr_array_add (items, plan_item (plan, "Project", json));
    }
  g_assert_true (dyn_test_load_items (fx->client, fx->table, items, &error));
  g_assert_no_error (error);

  options.table = fx->table;
  report = run_check (fx->client, model, &options);
  g_assert_cmpuint (report->items_written, ==, 0);
  g_assert_cmpuint (report->sampled_items, ==, items->len);
  g_assert_cmpuint (report->results->len, ==, model->patterns->len);
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];

      if (!r->passed)
        g_error ("“%s” did not pass on real data: %s", r->pattern, r->problem);
      g_assert_cmpuint (r->items, >, 0);
      g_assert_cmpuint (r->requests, ==, 1);
    }
  g_assert_true (report->passed);
  /* Nothing was written: still the five items. */
  {
    g_autoptr(DynResponse) scan = dyn_test_callf (fx->client, "Scan", &error,
                                                  "{\"TableName\":\"%s\",\"Select\":\"COUNT\"}", fx->table);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (scan->root), "Count"), ==, items->len);
  }
}

/* An existing table without the plan's index: the pattern that needs it
 * cannot be a Query there; a finding and a failed result, not sent. */
static void
test_existing_missing_index (DynTestFixture *fx,
                             gconstpointer   data)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { .write_examples = TRUE };
  GPtrArray *requests;
  const char *indexed = NULL;
  gboolean finding = FALSE;

  DYN_TEST_REQUIRE_SERVER (fx);
  model = load_seed ("workspaces.json");
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  requests = dyn_design_plan_get_requests (plan);
  for (guint i = 0; i < requests->len; i++)
    if (((DynDesignRequest *) requests->pdata[i])->index != NULL)
      indexed = ((DynDesignRequest *) requests->pdata[i])->pattern;
  g_assert_nonnull (indexed);
  create_plan_table (fx, plan, FALSE);

  options.table = fx->table;
  report = run_check (fx->client, model, &options);
  g_assert_cmpuint (report->items_written, >, 0);
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];

      if (strcmp (r->pattern, indexed) == 0)
        {
          g_assert_false (r->passed);
          g_assert_cmpuint (r->requests, ==, 0);
          g_assert_nonnull (strstr (r->problem, "cannot be a Query on this table"));
        }
      else
        g_assert_true (r->passed);
    }
  for (guint i = 0; i < report->findings->len; i++)
    {
      DynDesignDecision *f = report->findings->pdata[i];
      if (g_strcmp0 (f->pattern, indexed) == 0 && strstr (f->text, "cannot be a Query on this table"))
        finding = TRUE;
    }
  g_assert_true (finding);
  g_assert_false (report->passed);
}

/* An existing table keyed otherwise than the plan: findings and failed
 * results, not an error; nothing sent that the table cannot take. */
static void
test_existing_other_keys (DynTestFixture *fx,
                          gconstpointer   data)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { .write_examples = TRUE };
  gboolean key_finding = FALSE, not_written = FALSE;

  DYN_TEST_REQUIRE_SERVER (fx);
  model = load_seed ("workspaces.json");
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);

  options.table = fx->table;
  report = run_check (fx->client, model, &options);
  g_assert_cmpuint (report->items_written, ==, 0);
  g_assert_cmpuint (report->results->len, ==, model->patterns->len);
  for (guint i = 0; i < report->results->len; i++)
    {
      const DynDesignCheckResult *r = report->results->pdata[i];

      g_assert_false (r->passed);
      g_assert_cmpuint (r->requests, ==, 0);
      g_assert_nonnull (strstr (r->problem, "cannot be a Query on this table"));
    }
  for (guint i = 0; i < report->findings->len; i++)
    {
      DynDesignDecision *f = report->findings->pdata[i];

      key_finding |= strstr (f->text, "The table’s key is (pk, sk)") != NULL;
      not_written |= strstr (f->text, "The examples were not written") != NULL;
    }
  g_assert_true (key_finding);
  g_assert_true (not_written);
  g_assert_false (report->passed);
}

/* Guarded writes: an item already there with an example's key keeps its
 * content; the others are written. */
static void
test_guarded_writes (DynTestFixture *fx,
                     gconstpointer   data)
{
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) examples = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(DynValue) mine = NULL;
  g_autoptr(DynValue) key = dyn_value_new_map ();
  g_autoptr(DynValue) after = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { .write_examples = TRUE, .seed = 3 };
  const DynDesignTable *t;
  DynValue *first;

  DYN_TEST_REQUIRE_SERVER (fx);
  model = load_seed ("workspaces.json");
  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  t = dyn_design_plan_get_table (plan);
  create_plan_table (fx, plan, TRUE);

  /* The check's examples are these (same per_parent and seed). */
  examples = dyn_design_examples (model, plan, model->examples_per_parent, 3);
  g_assert_cmpuint (examples->len, >, 1);
  first = examples->pdata[0];
  mine = dyn_value_new_map ();
  dyn_value_map_set (mine, t->partition_key, dyn_value_map_lookup (first, t->partition_key));
  dyn_value_map_set (key, t->partition_key, dyn_value_map_lookup (first, t->partition_key));
  if (t->sort_key)
    {
      dyn_value_map_set (mine, t->sort_key, dyn_value_map_lookup (first, t->sort_key));
      dyn_value_map_set (key, t->sort_key, dyn_value_map_lookup (first, t->sort_key));
    }
  dyn_value_map_take (mine, "owner", dyn_value_new_string ("not the check's"));
  g_assert_true (dyn_test_put_item (fx->client, fx->table, mine, &error));
  g_assert_no_error (error);

  options.table = fx->table;
  report = run_check (fx->client, model, &options);
  g_assert_cmpuint (report->items_existing, ==, 1);
  g_assert_cmpuint (report->items_written, ==, examples->len - 1);

  after = dyn_test_get_item (fx->client, fx->table, key, TRUE);
  g_assert_nonnull (after);
  g_assert_true (dyn_value_equal (after, mine));

  /* Again: everything is there now, nothing is written over. */
  {
    g_autoptr(DynDesignCheckReport) again = run_check (fx->client, model, &options);
    g_autoptr(DynValue) still = dyn_test_get_item (fx->client, fx->table, key, TRUE);

    g_assert_cmpuint (again->items_written, ==, 0);
    g_assert_cmpuint (again->items_existing, ==, examples->len);
    g_assert_true (dyn_value_equal (still, mine));
  }
}

/* Nothing listens: a clear error naming the endpoint; nothing created. */
static void
test_unreachable (void)
{
  g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("x", "y", NULL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  Progress p = { messages, NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { 0 };

  client = dyn_client_new ("http://127.0.0.1:9", "us-east-1", creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, 1, 1, 1);
  report = run_check_full (client, model, &options, &p, &error);
  g_assert_null (report);
  g_assert_nonnull (error);
  g_test_message ("error: %s", error->message);
  g_assert_nonnull (strstr (error->message, "Could not create the scratch table"));
  g_assert_nonnull (strstr (error->message, "127.0.0.1:9"));
  /* Refused before it was sent: no DeleteTable of a table that never was,
   * and no word of one left behind. */
  g_assert_null (strstr (error->message, "could not be deleted"));

  /* The CLI: exit 1 and the same message. */
  {
    g_autofree char *path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "design", "workspaces.json", NULL);
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli ((const char * const[]) { "--endpoint", "http://127.0.0.1:9", "design", "check", path, NULL },
                              &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "error: Could not create the scratch table"));
    g_assert_nonnull (strstr (err, "127.0.0.1:9"));
    g_assert_cmpstr (out, ==, "");
  }
}

/* The messages are translated: the same failure in German. */
static void
test_unreachable_german (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("x", "y", NULL);
      g_autoptr(DynClient) client = NULL;
      g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
      g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
      Progress p = { messages, NULL, NULL };
      g_autoptr(GError) error = NULL;
      DynDesignCheckOptions options = { 0 };

      dyn_test_use_translations ("de");
      client = dyn_client_new ("http://127.0.0.1:9", "us-east-1", creds, &error);
      g_assert_no_error (error);
      dyn_client_set_retry (client, 1, 1, 1);
      g_assert_null (run_check_full (client, model, &options, &p, &error));
      g_assert_nonnull (error);
      g_assert_true (g_str_has_prefix (error->message, "Die Testtabelle „dynoscope-check-workspaces-"));
      g_assert_nonnull (strstr (error->message, "“ konnte nicht angelegt werden: "));
      g_assert_true (g_str_has_prefix (messages->pdata[0], "Testtabelle „dynoscope-check-workspaces-"));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static char *
describe_answer (const DynDesignTable *t,
                 const char           *name)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, "{\"Table\":{\"TableName\":\"%s\",\"TableStatus\":\"ACTIVE\","
                          "\"AttributeDefinitions\":[{\"AttributeName\":\"%s\",\"AttributeType\":\"%s\"}",
                          name, t->partition_key, t->partition_type);
  if (t->sort_key)
    g_string_append_printf (s, ",{\"AttributeName\":\"%s\",\"AttributeType\":\"%s\"}", t->sort_key, t->sort_type);
  g_string_append_printf (s, "],\"KeySchema\":[{\"AttributeName\":\"%s\",\"KeyType\":\"HASH\"}", t->partition_key);
  if (t->sort_key)
    g_string_append_printf (s, ",{\"AttributeName\":\"%s\",\"KeyType\":\"RANGE\"}", t->sort_key);
  g_string_append (s, "],\"ItemCount\":0,\"TableSizeBytes\":0}}");
  return g_strdup (s->str);
}

/* The connection drops while the examples are written: the error says
 * what failed, and the scratch table is deleted all the same. */
static void
test_dropped_connection (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("x", "y", NULL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = load_text (products_model);
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  Progress p = { messages, NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { 0 };
  g_autofree char *describe = NULL;
  const char *created = NULL;
  guint n;
  const char *last_target, *last_body;

  plan = dyn_design_draft (model, &error);
  g_assert_no_error (error);
  client = dyn_client_new (dyn_fault_server_get_url (server), "us-east-1", creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, 1, 1, 1);

  dyn_fault_server_push_json (server, 200, "{\"TableDescription\":{\"TableStatus\":\"CREATING\"}}");
  /* The name is random: DescribeTable answers with the plan's keys. */
  describe = describe_answer (dyn_design_plan_get_table (plan), "scratch");
  dyn_fault_server_push_json (server, 200, describe);
  /* Twice: a connection that dies after being reused is retried once at
   * once on a fresh one (curl); the fresh one dies too. */
  dyn_fault_server_push_drop (server);
  dyn_fault_server_push_drop (server);
  dyn_fault_server_push_json (server, 200, "{\"TableDescription\":{\"TableStatus\":\"DELETING\"}}");

  report = run_check_full (client, model, &options, &p, &error);
  g_assert_null (report);
  g_assert_nonnull (error);
  g_test_message ("error: %s", error->message);
  g_assert_nonnull (strstr (error->message, "Could not write the examples"));

  n = dyn_fault_server_get_request_count (server);
  for (guint i = 0; i < n; i++)
    g_test_message ("request %u: %s", i, dyn_fault_server_get_request_header (server, i, "x-amz-target"));
  g_assert_cmpuint (n, >=, 4);
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 0, "x-amz-target"), ==, "DynamoDB_20120810.CreateTable");
  last_target = dyn_fault_server_get_request_header (server, n - 1, "x-amz-target");
  last_body = dyn_fault_server_get_request_body (server, n - 1);
  g_assert_cmpstr (last_target, ==, "DynamoDB_20120810.DeleteTable");
  for (guint i = 0; i < messages->len; i++)
    if (g_str_has_prefix (messages->pdata[i], "Creating the scratch table"))
      created = messages->pdata[i];
  g_assert_nonnull (created);
  g_assert_nonnull (strstr (last_body, "dynoscope-check-products-"));
  g_assert_nonnull (strstr (dyn_fault_server_get_request_body (server, 0), "dynoscope-check-products-"));
  g_assert_cmpuint (dyn_fault_server_get_pending (server), ==, 0);
  dyn_fault_server_free (server);
}

/* A cancel while a pattern runs: the cancel's error, and no table left. */
static void
test_cancel (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  Progress p = { messages, cancel, "Running" };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  DynDesignCheckOptions options = { 0 };

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  model = load_seed ("school.json");
  g_free (model->name);
  model->name = g_strdup ("Cancel me");
  report = run_check_full (client, model, &options, &p, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_tables_with_prefix (client, "dynoscope-check-cancel-me-"), ==, 0);

  /* Also when asked to keep it: a cancelled check has no report to name the
   * table by, so it is not left behind. */
  g_clear_error (&error);
  g_cancellable_reset (cancel);
  options.keep_table = TRUE;
  report = run_check_full (client, model, &options, &p, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_tables_with_prefix (client, "dynoscope-check-cancel-me-"), ==, 0);
}

/* --keep-table keeps it (to browse), with the examples in it. */
static void
test_keep_table (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignCheckOptions options = { .keep_table = TRUE };
  g_autoptr(DynResponse) scan = NULL;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  model = load_text (products_model);
  report = run_check (client, model, &options);
  g_assert_true (report->passed);
  g_assert_true (table_exists (client, report->table));
  scan = dyn_test_callf (client, "Scan", &error, "{\"TableName\":\"%s\",\"Select\":\"COUNT\"}", report->table);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (scan->root), "Count"), ==,
                   report->items_written);
  g_assert_true (dyn_test_delete_table (client, report->table, &error));
  g_assert_no_error (error);
}

/* The models other tools write (tests/design-models/: NoSQL Workbench in
 * the shapes of AWS's published samples, CloudFormation, create-table)
 * hold no access patterns: they get starter ones from their keys, and those
 * check as GetItems and Queries of one page on DynamoDB Local. */
static void
test_imported (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autofree char *dir = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "tests", "design-models", NULL);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  guint checked = 0;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(DynDesignModel) model = NULL;
      g_autoptr(DynDesignCheckReport) report = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      model = dyn_design_model_load_file (path, NULL, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %u starter patterns", name, model->patterns->len);
      g_assert_cmpuint (model->patterns->len, >, 0);
      report = run_check (client, model, NULL);
      for (guint i = 0; i < report->results->len; i++)
        {
          DynDesignCheckResult *r = report->results->pdata[i];

          if (!r->passed)
            g_error ("%s: “%s” did not pass: %s", name, r->pattern, r->problem);
          g_assert_true (r->operation == DYN_OP_GET_ITEM || r->operation == DYN_OP_QUERY);
        }
      g_assert_true (report->passed);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 5);
}

/* A model without access patterns checks nothing, and says so. */
static void
test_no_patterns (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignCheckReport) report = NULL;

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  model = load_seed ("workspaces.json");
  g_ptr_array_set_size (model->patterns, 0);
  report = run_check (client, model, NULL);
  g_assert_false (report->passed);
  g_assert_cmpuint (report->results->len, ==, 0);
  g_assert_cmpuint (report->findings->len, ==, 1);
  g_assert_true (((DynDesignDecision *) report->findings->pdata[0])->warning);
  g_assert_nonnull (strstr (((DynDesignDecision *) report->findings->pdata[0])->text, "no access patterns"));
}

int
main (int argc, char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_data_func ("/design-check/seeds/dynamodb-local", GINT_TO_POINTER (DYN_TEST_DYNAMODB_LOCAL), test_seeds);
  g_test_add_data_func ("/design-check/seeds/dynalite", GINT_TO_POINTER (DYN_TEST_DYNALITE), test_seeds);
  g_test_add_func ("/design-check/unlike-demo", test_unlike_demo);
  g_test_add_func ("/design-check/scan-fails", test_scan_fails);
  g_test_add_func ("/design-check/sharded", test_sharded);
  g_test_add_func ("/design-check/cli-passes", test_cli_passes);
  g_test_add ("/design-check/existing/findings", DynTestFixture, NULL,
              fixture_setup, test_existing_findings, dyn_test_fixture_teardown);
  g_test_add ("/design-check/existing/real-data", DynTestFixture, NULL,
              fixture_setup, test_existing_real_data, dyn_test_fixture_teardown);
  g_test_add ("/design-check/existing/missing-index", DynTestFixture, NULL,
              fixture_setup, test_existing_missing_index, dyn_test_fixture_teardown);
  g_test_add ("/design-check/existing/other-keys", DynTestFixture, NULL,
              fixture_setup, test_existing_other_keys, dyn_test_fixture_teardown);
  g_test_add ("/design-check/existing/guarded-writes", DynTestFixture, NULL,
              fixture_setup, test_guarded_writes, dyn_test_fixture_teardown);
  g_test_add_func ("/design-check/unreachable", test_unreachable);
  g_test_add_func ("/design-check/unreachable-german", test_unreachable_german);
  g_test_add_func ("/design-check/dropped-connection", test_dropped_connection);
  g_test_add_func ("/design-check/cancel", test_cancel);
  g_test_add_func ("/design-check/keep-table", test_keep_table);
  g_test_add_func ("/design-check/imported", test_imported);
  g_test_add_func ("/design-check/no-patterns", test_no_patterns);
  return g_test_run ();
}
