/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dynoscope-cli as a scripting user runs it, against a real DynamoDB Local. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "dyn-test-util.h"
#include "dyn-multikey-cases.h"
#include "dyn-read-request.h"
#include "dyn-table.h"

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static void
run_clear (Run *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

static char *
cli_path (void)
{
  const char *build = g_getenv ("DYN_BUILD_ROOT");

  g_assert_nonnull (build);
  return g_build_filename (build, "app", "dynoscope-cli", NULL);
}

/* Runs dynoscope-cli with @argv (NULL-terminated, without the program), feeding @input. */
static void
cli_run (Run                *run,
         const char         *input,
         const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("dyn-cli-XXXXXX", NULL);

  g_ptr_array_add (args, cli_path ());
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  /* A clean configuration: only what each case sets. */
  g_subprocess_launcher_setenv (launcher, "HOME", home, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_CONFIG_FILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_SHARED_CREDENTIALS_FILE");
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, input, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  g_test_message ("exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

static const char *
endpoint (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  return server ? dyn_test_server_get_endpoint (server) : NULL;
}

#define CLI(run, input, ...) \
  cli_run ((run), (input), (const char * const[]) { "--endpoint", endpoint (), __VA_ARGS__, NULL })

static guint
count_lines (const char *text)
{
  guint n = 0;
  for (const char *p = text; *p; p++)
    n += (*p == '\n');
  return n;
}

static char *
make_table (const char *prefix,
            const char *pk,
            const char *sk,
            const char *gsi)
{
  g_auto(Run) run = { 0 };
  char *table = dyn_test_table_name (prefix);

  if (gsi != NULL)
    CLI (&run, NULL, "create-table", table, "--pk", pk, "--sk", sk, "--gsi", gsi);
  else if (sk != NULL)
    CLI (&run, NULL, "create-table", table, "--pk", pk, "--sk", sk);
  else
    CLI (&run, NULL, "create-table", table, "--pk", pk);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, table));
  return table;
}

static gboolean
have_server (void)
{
  if (endpoint () == NULL)
    {
      g_test_skip ("DynamoDB Local is not available");
      return FALSE;
    }
  return TRUE;
}

static void
test_tables_describe_delete (void)
{
  g_auto(Run) run = { 0 }, run2 = { 0 }, run3 = { 0 }, run4 = { 0 };
  g_autofree char *table = NULL;

  if (!have_server ())
    return;
  table = make_table ("cli-tables", "id:S", NULL, NULL);

  CLI (&run, NULL, "tables");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, table));

  CLI (&run2, NULL, "describe", table);
  g_assert_cmpint (run2.status, ==, 0);
  g_assert_nonnull (strstr (run2.out, "\"KeySchema\""));

  CLI (&run3, NULL, "delete-table", table);
  g_assert_cmpint (run3.status, ==, 0);

  CLI (&run4, NULL, "describe", table);
  g_assert_cmpint (run4.status, !=, 0);
  g_assert_nonnull (strstr (run4.err, "ResourceNotFoundException"));
}

static void
test_crud (void)
{
  g_auto(Run) put = { 0 }, get = { 0 }, plain = { 0 }, upd = { 0 }, del = { 0 }, gone = { 0 };
  g_autofree char *table = NULL;
  const char *key = "{\"id\":{\"S\":\"a\"}}";

  if (!have_server ())
    return;
  table = make_table ("cli-crud", "id:S", NULL, NULL);

  CLI (&put, NULL, "put", table, "--item",
       "{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"12345678901234567890.123456789012345678\"},"
       "\"tags\":{\"SS\":[\"x\",\"y\"]},\"b\":{\"B\":\"AAEC\"}}");
  g_assert_cmpint (put.status, ==, 0);

  CLI (&get, NULL, "get", table, "--key", key);
  g_assert_cmpint (get.status, ==, 0);
  g_assert_cmpuint (count_lines (get.out), ==, 1);
  g_assert_nonnull (strstr (get.out, "\"N\":\"12345678901234567890.123456789012345678\""));
  g_assert_nonnull (strstr (get.out, "\"B\":\"AAEC\""));

  CLI (&plain, NULL, "--plain", "get", table, "--key", key);
  g_assert_cmpint (plain.status, ==, 0);
  g_assert_nonnull (strstr (plain.out, "12345678901234567890.123456789012345678"));
  g_assert_nonnull (strstr (plain.out, "\"$set\""));

  CLI (&upd, NULL, "update", table, "--key", key, "--update", "SET #s = :s ADD #c :one",
       "--names", "{\"#s\":\"Status\",\"#c\":\"count\"}",
       "--values", "{\":s\":{\"S\":\"done\"},\":one\":{\"N\":\"1\"}}",
       "--return-values", "ALL_NEW");
  g_assert_cmpint (upd.status, ==, 0);
  g_assert_nonnull (strstr (upd.out, "\"Status\":{\"S\":\"done\"}"));

  CLI (&del, NULL, "delete", table, "--key", key, "--condition", "attribute_exists(id)");
  g_assert_cmpint (del.status, ==, 0);

  CLI (&gone, NULL, "get", table, "--key", key);
  g_assert_cmpint (gone.status, ==, 0);
  g_assert_cmpstr (gone.out, ==, "");
}

static void
test_condition_refused (void)
{
  g_auto(Run) first = { 0 }, second = { 0 }, check = { 0 };
  g_autofree char *table = NULL;
  const char *item = "{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"},\"grade\":{\"S\":\"A\"}}";
  const char *again = "{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"},\"grade\":{\"S\":\"F\"}}";

  if (!have_server ())
    return;
  table = make_table ("cli-cond", "PK:S", "SK:S", NULL);

  CLI (&first, NULL, "put", table, "--item", item, "--condition", "attribute_not_exists(PK)");
  g_assert_cmpint (first.status, ==, 0);
  CLI (&second, NULL, "put", table, "--item", again, "--condition", "attribute_not_exists(PK)");
  g_assert_cmpint (second.status, !=, 0);
  g_assert_nonnull (strstr (second.err, "ConditionalCheckFailedException"));

  CLI (&check, NULL, "get", table, "--key", "{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"}}");
  g_assert_nonnull (strstr (check.out, "\"grade\":{\"S\":\"A\"}"));
}

static GString *
numbered_items (guint       n,
                const char *pk)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "{\"PK\":{\"S\":\"%s\"},\"SK\":{\"S\":\"PROJ#%04u\"},"
                            "\"GSI1PK\":{\"S\":\"G#%u\"},\"GSI1SK\":{\"S\":\"%04u\"},\"n\":{\"N\":\"%u\"}}\n",
                            pk, i, i % 3, i, i);
  return s;
}

static void
test_batch_query_scan (void)
{
  g_auto(Run) load = { 0 }, q = { 0 }, qd = { 0 }, s1 = { 0 }, s4 = { 0 }, gsi = { 0 }, lim = { 0 }, filt = { 0 };
  g_autofree char *table = NULL;
  g_autoptr(GString) items = numbered_items (260, "WS#acme");
  g_auto(GStrv) lines = NULL;

  if (!have_server ())
    return;
  table = make_table ("cli-read", "PK:S", "SK:S", "GSI1:GSI1PK:S:GSI1SK:S");

  CLI (&load, items->str, "--stats", "batch-write", table);
  g_assert_cmpint (load.status, ==, 0);
  /* 260 items in chunks of 25. */
  g_assert_nonnull (strstr (load.err, "wrote 260 items in 11 requests"));

  CLI (&q, NULL, "--stats", "query", table, "--key-condition", "#pk = :pk AND begins_with(#sk, :p)",
       "--names", "{\"#pk\":\"PK\",\"#sk\":\"SK\"}",
       "--values", "{\":pk\":{\"S\":\"WS#acme\"},\":p\":{\"S\":\"PROJ#\"}}");
  g_assert_cmpint (q.status, ==, 0);
  g_assert_cmpuint (count_lines (q.out), ==, 260);
  g_assert_true (g_str_has_prefix (q.err, "requests 1 pages 1 rcu "));

  CLI (&qd, NULL, "query", table, "--desc", "--limit", "3", "--key-condition", "PK = :pk",
       "--values", "{\":pk\":{\"S\":\"WS#acme\"}}");
  g_assert_cmpint (qd.status, ==, 0);
  lines = g_strsplit (qd.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_nonnull (strstr (lines[0], "PROJ#0259"));
  g_assert_nonnull (strstr (lines[2], "PROJ#0257"));

  CLI (&s1, NULL, "scan", table);
  g_assert_cmpuint (count_lines (s1.out), ==, 260);
  CLI (&s4, NULL, "--stats", "scan", table, "--segments", "4");
  g_assert_cmpint (s4.status, ==, 0);
  g_assert_cmpuint (count_lines (s4.out), ==, 260);
  g_assert_true (g_str_has_prefix (s4.err, "requests 4 pages 4 "));

  CLI (&gsi, NULL, "query", table, "--index", "GSI1", "--key-condition", "GSI1PK = :g",
       "--values", "{\":g\":{\"S\":\"G#1\"}}");
  g_assert_cmpint (gsi.status, ==, 0);
  g_assert_cmpuint (count_lines (gsi.out), ==, 87);

  CLI (&lim, NULL, "--stats", "scan", table, "--limit", "50");
  g_assert_cmpuint (count_lines (lim.out), ==, 50);

  CLI (&filt, NULL, "scan", table, "--filter", "n < :v", "--values", "{\":v\":{\"N\":\"10\"}}");
  g_assert_cmpuint (count_lines (filt.out), ==, 10);
}

static void
test_partiql (void)
{
  g_auto(Run) ins = { 0 }, sel = { 0 };
  g_autofree char *table = NULL;
  g_autofree char *insert = NULL;
  g_autofree char *select = NULL;

  if (!have_server ())
    return;
  table = make_table ("cli-partiql", "id:S", NULL, NULL);
  insert = g_strdup_printf ("INSERT INTO \"%s\" VALUE {'id': 'p1', 'v': 7}", table);
  select = g_strdup_printf ("SELECT * FROM \"%s\" WHERE id = 'p1'", table);

  CLI (&ins, NULL, "partiql", insert);
  g_assert_cmpint (ins.status, ==, 0);
  CLI (&sel, NULL, "--plain", "partiql", select);
  g_assert_cmpint (sel.status, ==, 0);
  g_assert_nonnull (strstr (sel.out, "\"v\":7"));
}

static void
test_bad_input (void)
{
  g_auto(Run) json = { 0 }, number = { 0 }, usage = { 0 }, cmd = { 0 }, val = { 0 }, down = { 0 }, batch = { 0 };
  g_autofree char *table = NULL;

  if (!have_server ())
    return;
  table = make_table ("cli-bad", "id:S", NULL, NULL);

  CLI (&json, NULL, "put", table, "--item", "{\"id\":{\"S\":\"a\"");
  g_assert_cmpint (json.status, !=, 0);
  g_assert_nonnull (strstr (json.err, "--item"));

  CLI (&number, NULL, "put", table, "--item", "{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1e500\"}}");
  g_assert_cmpint (number.status, !=, 0);
  g_assert_nonnull (strstr (number.err, "1e500"));

  CLI (&usage, NULL, "scan", table, "--segments", "zero");
  g_assert_cmpint (usage.status, !=, 0);

  CLI (&cmd, NULL, "frobnicate");
  g_assert_cmpint (cmd.status, !=, 0);
  g_assert_nonnull (strstr (cmd.err, "Unknown command"));

  /* The server's ValidationException, with its code. */
  CLI (&val, NULL, "get", table, "--key", "{\"nope\":{\"S\":\"a\"}}");
  g_assert_cmpint (val.status, !=, 0);
  g_assert_nonnull (strstr (val.err, "ValidationException"));

  /* A bad line in a batch writes nothing at all. */
  CLI (&batch, "{\"id\":{\"S\":\"ok\"}}\n{\"id\":{\"Q\":\"bad\"}}\n", "batch-write", table);
  g_assert_cmpint (batch.status, !=, 0);
  g_assert_nonnull (strstr (batch.err, "line 2"));
  {
    g_auto(Run) scan = { 0 };
    CLI (&scan, NULL, "scan", table);
    g_assert_cmpstr (scan.out, ==, "");
  }

  /* A server that is down: a port nobody listens on. */
  cli_run (&down, NULL, (const char * const[]) { "--endpoint", "http://127.0.0.1:9", "tables", NULL });
  g_assert_cmpint (down.status, !=, 0);
  g_assert_nonnull (strstr (down.err, "127.0.0.1:9"));
}

static void
test_malformed_config (void)
{
  g_autofree char *dir = g_dir_make_tmp ("dyn-cli-cfg-XXXXXX", NULL);
  g_autofree char *cfg = g_build_filename (dir, "config", NULL);
  g_autofree char *path = cli_path ();
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (g_file_set_contents (cfg, "[profile dev]\nregion = eu-west-1\nthis line is wrong\n", -1, NULL));
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "HOME", dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_CONFIG_FILE", cfg, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_ACCESS_KEY_ID");
  g_subprocess_launcher_unsetenv (launcher, "AWS_SECRET_ACCESS_KEY");
  proc = g_subprocess_launcher_spawn (launcher, &error, path, "--profile", "dev", "tables", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (proc), !=, 0);
  g_assert_nonnull (strstr (err, "line 3"));
}

static void
test_seed_reads (void)
{
  g_auto(Run) load = { 0 }, meta = { 0 }, newest = { 0 }, roster = { 0 }, again = { 0 };
  g_autofree char *ws = NULL, *school = NULL, *ws_data = NULL, *school_data = NULL;
  g_autofree char *ws_path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "demo", "Workspaces.jsonl", NULL);
  g_autofree char *school_path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "demo", "School.jsonl", NULL);
  g_auto(GStrv) lines = NULL;

  if (!have_server ())
    return;
  g_assert_true (g_file_get_contents (ws_path, &ws_data, NULL, NULL));
  g_assert_true (g_file_get_contents (school_path, &school_data, NULL, NULL));
  ws = make_table ("cli-ws", "EntityRef:S", "Detail:S", "GSI1:GSI1PK:S:GSI1SK:S");
  school = make_table ("cli-school", "PK:S", "SK:S", "GSI1:GSI1PK:S:GSI1SK:S");
  CLI (&load, ws_data, "batch-write", ws);
  g_assert_cmpint (load.status, ==, 0);
  {
    g_auto(Run) load2 = { 0 };
    CLI (&load2, school_data, "batch-write", school);
    g_assert_cmpint (load2.status, ==, 0);
  }

  CLI (&meta, NULL, "get", ws, "--key", "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"}}");
  g_assert_nonnull (strstr (meta.out, "Acme Corp"));

  /* The workspace's projects newest first, in exactly one request. */
  CLI (&newest, NULL, "--stats", "query", ws, "--desc",
       "--key-condition", "#er = :er AND begins_with(#d, :p)",
       "--names", "{\"#er\":\"EntityRef\",\"#d\":\"Detail\"}",
       "--values", "{\":er\":{\"S\":\"WS#acme\"},\":p\":{\"S\":\"PROJ#\"}}");
  g_assert_cmpint (newest.status, ==, 0);
  g_assert_true (g_str_has_prefix (newest.err, "requests 1 pages 1 "));
  lines = g_strsplit (newest.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 44);   /* 43 projects and the final empty string */
  g_assert_nonnull (strstr (lines[0], "PROJ#2026-9999"));
  g_assert_nonnull (strstr (lines[1], "PROJ#2026-0042"));
  g_assert_nonnull (strstr (lines[42], "PROJ#2026-0001"));

  CLI (&roster, NULL, "query", school, "--index", "GSI1", "--key-condition", "GSI1PK = :c",
       "--values", "{\":c\":{\"S\":\"CRS#math204\"}}");
  g_assert_cmpint (roster.status, ==, 0);
  g_assert_nonnull (strstr (roster.out, "STU#a91"));

  CLI (&again, NULL, "put", school, "--condition", "attribute_not_exists(PK)", "--item",
       "{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"}}");
  g_assert_cmpint (again.status, !=, 0);
  g_assert_nonnull (strstr (again.err, "ConditionalCheckFailedException"));
}

static void
test_expr_command (void)
{
  g_auto(Run) key = { 0 }, upd = { 0 }, bad = { 0 }, raw = { 0 };

  cli_run (&key, NULL, (const char * const[]) { "expr", "--kind", "key",
           "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")", NULL });
  g_assert_cmpint (key.status, ==, 0);
  g_assert_nonnull (strstr (key.out, "\"expression\":\"#er = :er AND begins_with(#d, :p)\""));
  g_assert_nonnull (strstr (key.out, "\"#er\":\"EntityRef\""));
  g_assert_nonnull (strstr (key.out, "\":p\":{\"S\":\"PROJ#\"}"));

  cli_run (&upd, NULL, (const char * const[]) { "expr", "--kind", "update",
           "SET Status = \"done\", Views = Views + 1 REMOVE Draft", NULL });
  g_assert_cmpint (upd.status, ==, 0);
  g_assert_nonnull (strstr (upd.out, "\"Status\""));
  g_assert_null (strstr (upd.out, "SET Status"));

  /* DynamoDB's own syntax with its maps compiles to the same readable form. */
  cli_run (&raw, NULL, (const char * const[]) { "expr", "--kind", "key",
           "--names", "{\"#a\":\"EntityRef\",\"#b\":\"Detail\"}",
           "--values", "{\":x\":{\"S\":\"WS#acme\"},\":y\":{\"S\":\"PROJ#\"}}",
           "#a = :x AND begins_with(#b, :y)", NULL });
  g_assert_cmpint (raw.status, ==, 0);
  g_assert_nonnull (strstr (raw.out, "#er = :er AND begins_with(#d, :p)"));

  cli_run (&bad, NULL, (const char * const[]) { "expr", "--kind", "filter", "a = (1", NULL });
  g_assert_cmpint (bad.status, !=, 0);
  g_assert_nonnull (strstr (bad.err, "character"));
}

static void
test_inline_expressions (void)
{
  g_auto(Run) load = { 0 }, q = { 0 }, upd = { 0 }, get = { 0 }, plan = { 0 }, scanplan = { 0 }, fan = { 0 }, keybad = { 0 };
  g_autofree char *table = NULL;
  GString *items = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;

  if (!have_server ())
    return;
  table = make_table ("cli-inline", "EntityRef:S", "Detail:S", "GSI1:GSI1PK:S:GSI1SK:S");
  g_string_append (items, "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"},\"Status\":{\"S\":\"active\"}}\n");
  for (guint shard = 1; shard <= 10; shard++)
    for (guint p = shard; p <= 40; p += 10)
      g_string_append_printf (items, "{\"EntityRef\":{\"S\":\"WS#big#%02u\"},\"Detail\":{\"S\":\"PROJ#%04u\"},"
                              "\"GSI1PK\":{\"S\":\"PROJECT\"},\"GSI1SK\":{\"S\":\"%04u\"}}\n", shard, p, p);
  CLI (&load, items->str, "batch-write", table);
  g_string_free (items, TRUE);
  g_assert_cmpint (load.status, ==, 0);

  CLI (&q, NULL, "query", table, "--key-condition", "EntityRef = \"WS#acme\" AND Detail = \"META\"");
  g_assert_cmpint (q.status, ==, 0);
  g_assert_cmpuint (count_lines (q.out), ==, 1);

  /* Status is a reserved word: the compiler aliases it. */
  CLI (&upd, NULL, "update", table, "--key", "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"}}",
       "--update", "SET Status = \"paused\", Views = if_not_exists(Views, 0) + 1",
       "--condition", "Status = \"active\"");
  g_assert_cmpint (upd.status, ==, 0);
  CLI (&get, NULL, "get", table, "--key", "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"}}");
  g_assert_nonnull (strstr (get.out, "\"Status\":{\"S\":\"paused\"}"));
  g_assert_nonnull (strstr (get.out, "\"Views\":{\"N\":\"1\"}"));

  /* A key condition on a non-key attribute is refused before anything is sent. */
  CLI (&keybad, NULL, "query", table, "--key-condition", "Status = \"x\"");
  g_assert_cmpint (keybad.status, !=, 0);
  g_assert_nonnull (strstr (keybad.err, "KeyConditionExpression"));

  CLI (&plan, NULL, "plan", table, "--key-condition", "EntityRef = \"WS#acme\"");
  g_assert_cmpint (plan.status, ==, 0);
  g_assert_nonnull (strstr (plan.out, "operation: Query"));

  CLI (&scanplan, NULL, "plan", table, "--filter", "GSI1PK = \"PROJECT\"");
  g_assert_cmpint (scanplan.status, ==, 0);
  g_assert_nonnull (strstr (scanplan.out, "operation: Scan"));
  g_assert_nonnull (strstr (scanplan.out, "GSI1"));

  /* A shard range fans out over ten partitions and merges by sort key, newest first. */
  CLI (&fan, NULL, "--stats", "query", table, "--desc", "--key-condition",
       "EntityRef = \"WS#big#01..10\" AND begins_with(Detail, \"PROJ#\")");
  g_assert_cmpint (fan.status, ==, 0);
  g_assert_cmpuint (count_lines (fan.out), ==, 40);
  g_assert_true (g_str_has_prefix (fan.err, "requests 10 pages 10 "));
  lines = g_strsplit (fan.out, "\n", -1);
  g_assert_nonnull (strstr (lines[0], "PROJ#0040"));
  g_assert_nonnull (strstr (lines[39], "PROJ#0001"));
}

/* Movies keyed by year (N) and title (S), a local index by rating and a
 * global one by genre; a few films of 2012 and 2013. */
static char *
make_movies_table (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = dyn_test_client_new (server);
  g_autoptr(GError) error = NULL;
  g_autofree char *params = NULL;
  g_auto(Run) load = { 0 };
  char *table = dyn_test_table_name ("cli-movies");
  const char *films =
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Her\"},\"rating\":{\"N\":\"8.0\"},\"genre\":{\"S\":\"Drama\"}}\n"
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Gravity\"},\"rating\":{\"N\":\"7.7\"},\"genre\":{\"S\":\"SciFi\"}}\n"
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Prisoners\"},\"rating\":{\"N\":\"8.1\"},\"genre\":{\"S\":\"Drama\"}}\n"
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},\"rating\":{\"N\":\"8.1\"},\"genre\":{\"S\":\"Sport\"}}\n"
    "{\"year\":{\"N\":\"2012\"},\"title\":{\"S\":\"Argo\"},\"rating\":{\"N\":\"7.7\"},\"genre\":{\"S\":\"Drama\"}}\n";

  params = g_strdup_printf (
    "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"year\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"title\",\"AttributeType\":\"S\"},{\"AttributeName\":\"rating\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"genre\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byRating\",\"KeySchema\":[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"rating\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byGenre\",\"KeySchema\":[{\"AttributeName\":\"genre\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"year\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", table);
  g_assert_true (dyn_test_create_table_json (client, table, params, &error));
  g_assert_no_error (error);
  CLI (&load, films, "batch-write", table);
  g_assert_cmpint (load.status, ==, 0);
  return table;
}

/* The planner and the key-condition check know the local secondary index;
 * plan says what query sends. */
static void
test_plan_local_index (void)
{
  g_auto(Run) bad = { 0 }, lsi = { 0 }, plan = { 0 }, typed = { 0 }, query = { 0 };
  g_autofree char *table = NULL;

  if (!have_server ())
    return;
  table = make_movies_table ();

  CLI (&bad, NULL, "query", table, "--key-condition", "year = 2013 AND rating > 8");
  g_assert_cmpint (bad.status, !=, 0);
  g_assert_nonnull (strstr (bad.err, "KeyConditionExpression: rating is not a key attribute; move it to the "
                                     "filter, or query the local secondary index byRating, whose sort key it is "
                                     "at character 17"));

  CLI (&lsi, NULL, "query", table, "--index", "byRating", "--key-condition", "year = 2013 AND rating > 8");
  g_assert_cmpint (lsi.status, ==, 0);
  g_assert_cmpuint (count_lines (lsi.out), ==, 2);
  g_assert_nonnull (strstr (lsi.out, "Prisoners"));
  g_assert_nonnull (strstr (lsi.out, "Rush"));

  CLI (&plan, NULL, "plan", table, "--key-condition", "year = 2013", "--filter", "rating > 8");
  g_assert_cmpint (plan.status, ==, 0);
  g_assert_nonnull (strstr (plan.out, "operation: Query\n"));
  g_assert_nonnull (strstr (plan.out, "suggestion: Query on index byRating possible: its sort key rating "
                                      "narrows the read\n"));
  g_assert_nonnull (strstr (plan.out, "suggested key condition: year = 2013 AND rating > 8\n"));
  g_assert_nonnull (strstr (plan.out, "request: Query {"));
  g_assert_nonnull (strstr (plan.out, "\"KeyConditionExpression\":\"#y = :y\""));
  g_assert_nonnull (strstr (plan.out, "\"FilterExpression\":\"#r > :r\""));

  /* What query sends is what plan said. */
  CLI (&query, NULL, "query", table, "--key-condition", "year = 2013", "--filter", "rating > 8");
  g_assert_cmpint (query.status, ==, 0);
  g_assert_cmpuint (count_lines (query.out), ==, 2);

  /* A string for the number key: refused with the position. */
  CLI (&typed, NULL, "query", table, "--key-condition", "year = \"2013\"");
  g_assert_cmpint (typed.status, !=, 0);
  g_assert_nonnull (strstr (typed.err, "KeyConditionExpression: the key year is a number, but the value is of "
                                       "type S at character 8"));
}

static void
test_apply_version (void)
{
  g_auto(Run) put = { 0 }, dry = { 0 }, apply = { 0 }, get = { 0 }, stale = { 0 };
  g_autofree char *table = NULL;
  const char *change =
    "{\"before\":{\"id\":{\"S\":\"v\"},\"version\":{\"N\":\"1\"},\"Status\":{\"S\":\"draft\"}},"
    "\"after\":{\"id\":{\"S\":\"v\"},\"version\":{\"N\":\"1\"},\"Status\":{\"S\":\"done\"}}}\n";

  if (!have_server ())
    return;
  table = make_table ("cli-apply", "id:S", NULL, NULL);
  CLI (&put, NULL, "put", table, "--item",
       "{\"id\":{\"S\":\"v\"},\"version\":{\"N\":\"1\"},\"Status\":{\"S\":\"draft\"}}");
  g_assert_cmpint (put.status, ==, 0);

  /* The dry run shows a guard on the version alone, and writes nothing. */
  CLI (&dry, change, "apply", table, "--dry-run", "--version-attribute", "version");
  g_assert_cmpint (dry.status, ==, 0);
  g_assert_nonnull (strstr (dry.out, "version"));
  g_assert_null (strstr (dry.out, "old_Status"));

  CLI (&apply, change, "apply", table, "--version-attribute", "version");
  g_assert_cmpint (apply.status, ==, 0);
  CLI (&get, NULL, "get", table, "--key", "{\"id\":{\"S\":\"v\"}}");
  g_assert_nonnull (strstr (get.out, "\"version\":{\"N\":\"2\"}"));
  g_assert_nonnull (strstr (get.out, "\"Status\":{\"S\":\"done\"}"));

  /* The same change again starts from version 1, which is gone: a conflict, exit 1. */
  CLI (&stale, change, "apply", table, "--version-attribute", "version");
  g_assert_cmpint (stale.status, !=, 0);
  g_assert_nonnull (strstr (stale.out, "conflict"));
}

/* The numbers of a --stats line ("requests N pages N rcu X wcu Y …"), wherever it is in @err. */
typedef struct
{
  guint   requests;
  guint   pages;
  double  rcu;
  double  wcu;
  guint64 items;
  guint64 scanned;
  guint64 printed;
} Stats;

static void
parse_stats (const char *err,
             Stats      *stats)
{
  const char *line = g_str_has_prefix (err, "requests ") ? err : strstr (err, "\nrequests ");
  g_autofree char *copy = NULL;
  char *end;

  memset (stats, 0, sizeof *stats);
  g_assert_nonnull (line);
  if (*line == '\n')
    line++;
  copy = g_strdup (line);
  if ((end = strchr (copy, '\n')) != NULL)
    *end = '\0';
  g_assert_cmpint (sscanf (copy, "requests %u pages %u rcu %lf wcu %lf", &stats->requests, &stats->pages,
                           &stats->rcu, &stats->wcu), ==, 4);
  if (strstr (copy, " items ") != NULL)
    g_assert_cmpint (sscanf (strstr (copy, " items "), " items %" G_GUINT64_FORMAT " scanned %" G_GUINT64_FORMAT
                             " printed %" G_GUINT64_FORMAT, &stats->items, &stats->scanned, &stats->printed), ==, 3);
}

/* --limit is the number of items wanted: with a filter the pages stay full and
 * the read stops once enough items matched, instead of sending Limit N with
 * every page (3 matches out of thousands cost a request per N items). */
static void
test_limit_with_filter (void)
{
  g_auto(Run) load = { 0 }, full = { 0 }, fullseg = { 0 }, fullq = { 0 }, three = { 0 }, two = { 0 }, seg = { 0 };
  g_auto(Run) q = { 0 }, five = { 0 }, qfive = { 0 }, help = { 0 };
  g_autofree char *table = NULL;
  g_autofree char *pad = g_strnfill (1000, 'x');
  GString *items = g_string_new (NULL);
  Stats s_full, s_fullseg, s_fullq, s_three, s_two, s_seg, s_q, s_five, s_qfive;
  const guint n = 3000;

  if (!have_server ())
    return;
  table = make_table ("cli-limit", "PK:S", "SK:N", NULL);
  /* About 1 KB per item: a full scan takes a few 1 MB pages. Three items match. */
  for (guint i = 0; i < n; i++)
    g_string_append_printf (items, "{\"PK\":{\"S\":\"P\"},\"SK\":{\"N\":\"%u\"},\"pad\":{\"S\":\"%s\"}%s}\n",
                            i, pad, (i == 400 || i == 1700 || i == 2600) ? ",\"hit\":{\"BOOL\":true}" : "");
  CLI (&load, items->str, "batch-write", table);
  g_string_free (items, TRUE);
  g_assert_cmpint (load.status, ==, 0);

  CLI (&full, NULL, "--stats", "scan", table);
  g_assert_cmpint (full.status, ==, 0);
  g_assert_cmpuint (count_lines (full.out), ==, n);
  parse_stats (full.err, &s_full);
  g_assert_cmpuint (s_full.pages, >=, 3);

  /* Scan with a filter: no more requests than the full scan, exactly N items. */
  CLI (&three, NULL, "--stats", "scan", table, "--limit", "3", "--filter", "hit = true");
  g_assert_cmpint (three.status, ==, 0);
  g_assert_cmpuint (count_lines (three.out), ==, 3);
  parse_stats (three.err, &s_three);
  g_assert_cmpuint (s_three.requests, <=, s_full.pages);
  g_assert_cmpuint (s_three.printed, ==, 3);
  g_assert_cmpfloat (s_three.rcu, <=, s_full.rcu);

  /* Fewer wanted than match: the read stops at the page with the second match. */
  CLI (&two, NULL, "--stats", "scan", table, "--limit", "2", "--filter", "hit = true");
  g_assert_cmpint (two.status, ==, 0);
  g_assert_cmpuint (count_lines (two.out), ==, 2);
  parse_stats (two.err, &s_two);
  g_assert_cmpuint (s_two.requests, <=, s_full.pages);
  g_assert_cmpuint (s_two.printed, ==, 2);
  g_assert_cmpuint (s_two.items, >=, 2);
  g_assert_cmpuint (s_two.scanned, <=, n);

  /* Parallel segments: no more requests than the full parallel scan. */
  CLI (&fullseg, NULL, "--stats", "scan", table, "--segments", "4");
  g_assert_cmpuint (count_lines (fullseg.out), ==, n);
  parse_stats (fullseg.err, &s_fullseg);
  CLI (&seg, NULL, "--stats", "scan", table, "--segments", "4", "--limit", "3", "--filter", "hit = true");
  g_assert_cmpint (seg.status, ==, 0);
  g_assert_cmpuint (count_lines (seg.out), ==, 3);
  parse_stats (seg.err, &s_seg);
  g_assert_cmpuint (s_seg.requests, <=, s_fullseg.pages);

  /* Query with a filter: the same. */
  CLI (&fullq, NULL, "--stats", "query", table, "--key-condition", "PK = \"P\"");
  g_assert_cmpuint (count_lines (fullq.out), ==, n);
  parse_stats (fullq.err, &s_fullq);
  CLI (&q, NULL, "--stats", "query", table, "--key-condition", "PK = \"P\"", "--filter", "hit = true",
       "--limit", "3");
  g_assert_cmpint (q.status, ==, 0);
  g_assert_cmpuint (count_lines (q.out), ==, 3);
  parse_stats (q.err, &s_q);
  g_assert_cmpuint (s_q.requests, <=, s_fullq.pages);

  /* Without a filter Limit is exactly right: one request for five items. */
  CLI (&five, NULL, "--stats", "scan", table, "--limit", "5");
  g_assert_cmpint (five.status, ==, 0);
  g_assert_cmpuint (count_lines (five.out), ==, 5);
  parse_stats (five.err, &s_five);
  g_assert_cmpuint (s_five.requests, ==, 1);
  g_assert_cmpuint (s_five.scanned, ==, 5);
  CLI (&qfive, NULL, "--stats", "query", table, "--key-condition", "PK = \"P\"", "--limit", "5", "--desc");
  g_assert_cmpint (qfive.status, ==, 0);
  g_assert_cmpuint (count_lines (qfive.out), ==, 5);
  g_assert_nonnull (strstr (qfive.out, "\"SK\":{\"N\":\"2999\"}"));
  parse_stats (qfive.err, &s_qfive);
  g_assert_cmpuint (s_qfive.requests, ==, 1);

  /* --help says what --limit means. */
  cli_run (&help, NULL, (const char * const[]) { "--help", NULL });
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "--limit N is the number of items wanted"));
}

/* apply --stats counts the requests the commit sent and the WCU they consumed. */
static void
test_apply_stats (void)
{
  g_auto(Run) one = { 0 }, two = { 0 }, conflict = { 0 };
  g_autofree char *table = NULL;
  Stats s_one, s_two, s_conflict;

  if (!have_server ())
    return;
  table = make_table ("cli-apply-stats", "id:S", NULL, NULL);

  /* One create: one PutItem. */
  CLI (&one, "{\"before\":null,\"after\":{\"id\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}}\n",
       "--stats", "apply", table);
  g_assert_cmpint (one.status, ==, 0);
  parse_stats (one.err, &s_one);
  g_assert_cmpuint (s_one.requests, ==, 1);
  g_assert_cmpfloat (s_one.wcu, >, 0);

  /* Two changes: one TransactWriteItems. */
  CLI (&two, "{\"before\":{\"id\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}},\"after\":{\"id\":{\"S\":\"a\"},\"v\":{\"N\":\"2\"}}}\n"
             "{\"before\":null,\"after\":{\"id\":{\"S\":\"b\"}}}\n",
       "--stats", "apply", table);
  g_assert_cmpint (two.status, ==, 0);
  parse_stats (two.err, &s_two);
  g_assert_cmpuint (s_two.requests, ==, 1);
  g_assert_cmpfloat (s_two.wcu, >=, 2);

  /* A conflict: the refused write and the read of the server's item are counted too. */
  CLI (&conflict, "{\"before\":null,\"after\":{\"id\":{\"S\":\"b\"}}}\n", "--stats", "apply", table);
  g_assert_cmpint (conflict.status, !=, 0);
  parse_stats (conflict.err, &s_conflict);
  g_assert_cmpuint (s_conflict.requests, >=, 1);
}

/* Multi-attribute GSI keys (issue 10) ---------------------------------------- */

static DynTableKeys *
keys_of_description (const char *describe_out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = json_from_string (describe_out, &error);
  JsonObject *table;
  DynTableKeys *keys;

  g_assert_no_error (error);
  table = json_object_get_object_member (json_node_get_object (root), "Table");
  g_assert_nonnull (table);
  keys = dyn_table_keys_from_description (table, &error);
  g_assert_no_error (error);
  return keys;
}

/* create-table --gsi with several HASH and RANGE attributes: what DescribeTable
 * then says, and what is refused before anything is sent. */
static void
test_multikey_create_table (void)
{
  g_auto(Run) create = { 0 }, describe = { 0 }, five = { 0 }, types = { 0 }, twice = { 0 }, gone = { 0 };
  g_auto(Run) help = { 0 };
  g_autofree char *table = NULL;
  g_autofree char *refused = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  const DynIndexInfo *info;

  if (!have_server ())
    return;
  table = dyn_test_table_name ("cli-multikey");
  CLI (&create, NULL, "create-table", table, "--pk", "pk:S", "--sk", "sk:S",
       "--gsi", "ByTenant:tenant:S+site:N:kind:S+seq:N",
       "--gsi", "Wide:h1:S+h2:S+h3:S+h4:B:r1:S+r2:N+r3:S+r4:S",
       "--gsi", "ByKind:kind:S");
  g_assert_cmpint (create.status, ==, 0);

  CLI (&describe, NULL, "describe", table);
  g_assert_cmpint (describe.status, ==, 0);
  keys = keys_of_description (describe.out);
  info = dyn_table_keys_lookup (keys, "ByTenant");
  g_assert_nonnull (info);
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&info->keys), ==, 2);
  g_assert_cmpstr (dyn_key_schema_get_partition_key (&info->keys, 1, NULL), ==, "site");
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&info->keys), ==, 2);
  g_assert_cmpstr (dyn_key_schema_get_sort_key (&info->keys, 1, NULL), ==, "seq");
  info = dyn_table_keys_lookup (keys, "Wide");
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&info->keys), ==, 4);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&info->keys), ==, 4);
  {
    DynValueType type = DYN_VALUE_S;

    g_assert_cmpstr (dyn_key_schema_get_partition_key (&info->keys, 3, &type), ==, "h4");
    g_assert_cmpint (type, ==, DYN_VALUE_B);
    g_assert_cmpstr (dyn_key_schema_get_sort_key (&info->keys, 1, &type), ==, "r2");
    g_assert_cmpint (type, ==, DYN_VALUE_N);
  }
  /* kind is defined once, for both indexes. */
  {
    g_autoptr(JsonNode) root = json_from_string (describe.out, NULL);
    JsonArray *defs = json_object_get_array_member (json_object_get_object_member (json_node_get_object (root),
                                                                                   "Table"),
                                                    "AttributeDefinitions");
    guint kinds = 0;

    for (guint i = 0; i < json_array_get_length (defs); i++)
      kinds += g_str_equal (json_object_get_string_member (json_array_get_object_element (defs, i),
                                                           "AttributeName"), "kind");
    g_assert_cmpuint (kinds, ==, 1);
    g_assert_cmpuint (json_array_get_length (defs), ==, 14);
  }

  /* Refused before sending: nothing is created. */
  refused = dyn_test_table_name ("cli-multikey-bad");
  CLI (&five, NULL, "create-table", refused, "--pk", "pk:S", "--gsi", "Five:a:S+b:S+c:S+d:S+e:S");
  g_assert_cmpint (five.status, !=, 0);
  g_assert_nonnull (strstr (five.err, "an index has at most 4 partition key attributes"));
  CLI (&types, NULL, "create-table", refused, "--pk", "pk:S", "--gsi", "ByPk:pk:N");
  g_assert_cmpint (types.status, !=, 0);
  g_assert_nonnull (strstr (types.err, "pk is of type N here but of type S in another key"));
  CLI (&twice, NULL, "create-table", refused, "--pk", "pk:S", "--gsi", "Twice:a:S:a:S");
  g_assert_cmpint (twice.status, !=, 0);
  g_assert_nonnull (strstr (twice.err, "the attribute a is in the key twice"));
  CLI (&gone, NULL, "describe", refused);
  g_assert_cmpint (gone.status, !=, 0);
  g_assert_nonnull (strstr (gone.err, "ResourceNotFoundException"));

  /* The syntax is in --help. */
  cli_run (&help, NULL, (const char * const[]) { "--help", NULL });
  g_assert_nonnull (strstr (help.out, "[--gsi NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+SK2:TYPE…]]]"));
}

/* Query, plan and scan of a multi-attribute index through the command line. */
static void
test_multikey_query (void)
{
  g_auto(Run) create = { 0 }, load = { 0 }, query = { 0 }, plan = { 0 }, bad = { 0 }, scan = { 0 }, desc = { 0 };
  g_auto(Run) cond = { 0 }, gap = { 0 };
  g_autofree char *table = NULL;
  g_auto(GStrv) lines = NULL;
  const char *items =
    "{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
    "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"10\"}}\n"
    "{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l2\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
    "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"9\"}}\n"
    "{\"pk\":{\"S\":\"o2\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
    "\"kind\":{\"S\":\"invoice\"},\"seq\":{\"N\":\"1\"}}\n"
    "{\"pk\":{\"S\":\"o3\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"2\"},"
    "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"1\"}}\n"
    /* without site: not in the index */
    "{\"pk\":{\"S\":\"o4\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},"
    "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"1\"}}\n";

  if (!have_server ())
    return;
  table = dyn_test_table_name ("cli-multikey-q");
  CLI (&create, NULL, "create-table", table, "--pk", "pk:S", "--sk", "sk:S",
       "--gsi", "ByTenant:tenant:S+site:N:kind:S+seq:N");
  g_assert_cmpint (create.status, ==, 0);
  CLI (&load, items, "batch-write", table);
  g_assert_cmpint (load.status, ==, 0);

  /* Both partition attributes: the items of acme at site 1, by kind then seq. */
  CLI (&query, NULL, "query", table, "--index", "ByTenant", "--key-condition", "site = 1 AND tenant = \"acme\"");
  g_assert_cmpint (query.status, ==, 0);
  lines = g_strsplit (query.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_nonnull (strstr (lines[0], "\"invoice\""));
  g_assert_nonnull (strstr (lines[1], "\"N\":\"9\""));
  g_assert_nonnull (strstr (lines[2], "\"N\":\"10\""));

  CLI (&desc, NULL, "query", table, "--index", "ByTenant", "--desc", "--key-condition",
       "tenant = \"acme\" AND site = 1 AND kind = \"order\" AND seq > 5");
  g_assert_cmpint (desc.status, ==, 0);
  g_assert_cmpuint (count_lines (desc.out), ==, 2);
  g_assert_true (strstr (desc.out, "\"N\":\"10\"") < strstr (desc.out, "\"N\":\"9\""));

  CLI (&plan, NULL, "plan", table, "--index", "ByTenant", "--key-condition",
       "kind = \"order\" AND tenant = \"acme\" AND seq >= 9 AND site = 1", "--filter", "note = 7");
  g_assert_cmpint (plan.status, ==, 0);
  g_assert_nonnull (strstr (plan.out, "operation: Query\n"));
  g_assert_nonnull (strstr (plan.out, "reason: Query on index ByTenant: partition key tenant = \"acme\" AND "
                                      "site = 1, sort key kind = \"order\" AND seq >= 9\n"));
  g_assert_nonnull (strstr (plan.out, "\"FilterExpression\":\"#n = :n\""));

  /* A filter alone on the table: a Scan, and the index that would Query it. */
  CLI (&cond, NULL, "plan", table, "--filter", "tenant = \"acme\" AND site = 1");
  g_assert_cmpint (cond.status, ==, 0);
  g_assert_nonnull (strstr (cond.out, "operation: Scan\n"));
  g_assert_nonnull (strstr (cond.out, "suggestion: Query on index ByTenant possible\n"));
  g_assert_nonnull (strstr (cond.out, "suggested key condition: tenant = \"acme\" AND site = 1\n"));

  /* Refused before sending, with DynamoDB's reason and the position. */
  CLI (&bad, NULL, "query", table, "--index", "ByTenant", "--key-condition", "tenant = \"acme\"");
  g_assert_cmpint (bad.status, !=, 0);
  g_assert_nonnull (strstr (bad.err, "KeyConditionExpression: a key condition needs an equality on each partition "
                                     "key attribute of the index; there is none on site at character 1"));
  CLI (&gap, NULL, "query", table, "--index", "ByTenant", "--key-condition",
       "tenant = \"acme\" AND site = 1 AND seq > 5");
  g_assert_cmpint (gap.status, !=, 0);
  g_assert_nonnull (strstr (gap.err, "the sort key attribute seq has a condition, so each one before it needs an "
                                     "equality; there is none on kind at character 34"));

  /* The index holds the items with every key attribute. */
  CLI (&scan, NULL, "scan", table, "--index", "ByTenant");
  g_assert_cmpint (scan.status, ==, 0);
  g_assert_cmpuint (count_lines (scan.out), ==, 4);
}

/* Each key condition of dyn-multikey-cases.h, sent to DynamoDB Local as it
 * is: its verdict is the one the cases (and Dynoscope) give. */
static void
test_multikey_oracle (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *table = NULL;
  g_autofree char *params = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynResponse) described = NULL;
  const char *values[][2] = {
    { ":s", "{\"S\":\"x\"}" }, { ":t", "{\"S\":\"y\"}" }, { ":n", "{\"N\":\"1\"}" }, { ":m", "{\"N\":\"2\"}" },
  };

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  table = dyn_test_table_name ("cli-multikey-oracle");
  params = g_strdup_printf (DYN_MULTIKEY_TABLE_JSON, table);
  g_assert_true (dyn_test_create_table_json (client, table, params, &error));
  g_assert_no_error (error);
  described = dyn_test_callf (client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", table);
  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_object_get_object_member (json_node_get_object (described->root),
                                                                         "Table"), &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (dyn_multikey_cases); i++)
    {
      const DynMultiKeyCase *c = &dyn_multikey_cases[i];
      g_autoptr(GString) vals = g_string_new ("{");
      g_autoptr(GHashTable) value_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               (GDestroyNotify) dyn_value_unref);
      g_autoptr(DynResponse) response = NULL;
      g_autoptr(GError) server_error = NULL;
      g_autoptr(GError) our_error = NULL;
      g_autoptr(DynExprNode) node = NULL;
      g_autofree char *escaped = g_strescape (c->condition, NULL);
      gboolean ours;

      for (guint v = 0; v < G_N_ELEMENTS (values); v++)
        {
          const char *at = strstr (c->condition, values[v][0]);
          g_autoptr(JsonNode) json = NULL;

          if (at == NULL)
            continue;
          g_string_append_printf (vals, "%s\"%s\":%s", vals->len > 1 ? "," : "", values[v][0], values[v][1]);
          json = json_from_string (values[v][1], NULL);
          g_hash_table_insert (value_map, g_strdup (values[v][0]), dyn_value_from_ddb_json (json, NULL));
        }
      g_string_append (vals, "}");
      response = dyn_test_callf (client, "Query", &server_error,
                                 "{\"TableName\":\"%s\",\"IndexName\":\"%s\",\"KeyConditionExpression\":\"%s\","
                                 "\"ExpressionAttributeValues\":%s}", table, c->index, escaped, vals->str);
      node = dyn_expr_parse (c->condition, DYN_EXPR_ROLE_KEY_CONDITION, NULL, value_map, NULL, &our_error);
      g_assert_no_error (our_error);
      ours = dyn_expr_validate_key_condition (keys, c->index, node, &our_error);
      g_test_message ("%s on %s: DynamoDB %s; Dynoscope %s", c->condition, c->index,
                      response ? "accepts" : server_error->message, ours ? "accepts" : our_error->message);
      if (c->refusal == NULL)
        {
          if (response == NULL)
            g_error ("%s on %s: DynamoDB Local refuses: %s", c->condition, c->index, server_error->message);
          g_assert_true (ours);
        }
      else
        {
          if (response != NULL)
            g_error ("%s on %s: DynamoDB Local accepts it", c->condition, c->index);
          dyn_test_assert_service_error (server_error, DYN_ERROR_VALIDATION, "ValidationException");
          g_assert_false (ours);
        }
    }
  g_assert_true (dyn_test_delete_table (client, table, NULL));
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/dyn/cli/tables-describe-delete", test_tables_describe_delete);
  g_test_add_func ("/dyn/cli/crud", test_crud);
  g_test_add_func ("/dyn/cli/condition-refused", test_condition_refused);
  g_test_add_func ("/dyn/cli/batch-query-scan", test_batch_query_scan);
  g_test_add_func ("/dyn/cli/partiql", test_partiql);
  g_test_add_func ("/dyn/cli/bad-input", test_bad_input);
  g_test_add_func ("/dyn/cli/malformed-config", test_malformed_config);
  g_test_add_func ("/dyn/cli/seed-reads", test_seed_reads);
  g_test_add_func ("/dyn/cli/expr", test_expr_command);
  g_test_add_func ("/dyn/cli/inline-expressions", test_inline_expressions);
  g_test_add_func ("/dyn/cli/apply-version", test_apply_version);
  g_test_add_func ("/dyn/cli/limit-with-filter", test_limit_with_filter);
  g_test_add_func ("/dyn/cli/apply-stats", test_apply_stats);
  g_test_add_func ("/dyn/cli/plan-local-index", test_plan_local_index);
  g_test_add_func ("/dyn/cli/multikey/create-table", test_multikey_create_table);
  g_test_add_func ("/dyn/cli/multikey/query", test_multikey_query);
  g_test_add_func ("/dyn/cli/multikey/oracle", test_multikey_oracle);

  return g_test_run ();
}
