/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-snippet"

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "dyn-json.h"
#include "dyn-read-request.h"
#include "dyn-snippet.h"
#include "dyn-table.h"
#include "dyn-test-util.h"

/* The snippets are run, not just read: the AWS CLI, boto3 and the JavaScript
 * SDK execute each one against DynamoDB Local, and what they print must be
 * what Dynoscope reads for the same request. Go and Java cannot be built here
 * (no module proxy, no Maven Central): their snippets are checked for the
 * calls they must make, for balance, and with gofmt and javac's parser when
 * those are installed. */

#define RUN_LANGS 3   /* CLI, boto3, JS */

static const DynSnippetLanguage run_langs[RUN_LANGS] = {
  DYN_SNIPPET_CLI, DYN_SNIPPET_BOTO3, DYN_SNIPPET_JS,
};

/* The shared table and the tools, set up once. */
static struct {
  DynTestServer *server;
  DynClient     *client;
  char          *table;
  char          *home;          /* HOME and scratch space for the tools */
  gboolean       checked_tools;
  char          *tool[DYN_SNIPPET_N_LANGUAGES];
  char          *node_modules;
} S;

/* The all-types item: every attribute type, 38-digit numbers, the number
 * range's ends, binary, sets, nested maps and lists, names that need aliases
 * and strings that need escaping in every language. */
#define AWKWARD_STRING "it's \\\"quoted\\\" \\\\ back\\\\slash\\nnew line \\t tab \\u0001 \\u007f \\u2028 ünïcødé 🎉 $HOME `x` %s"

static const char *all_types_members =
  "\"Name\":{\"S\":\"" AWKWARD_STRING "\"},"
  "\"big\":{\"N\":\"12345678901234567890123456789012345678\"},"
  "\"small\":{\"N\":\"-0.00000000000000000000000000000000000123\"},"
  "\"tiny\":{\"N\":\"1E-130\"},"
  "\"huge\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"},"
  "\"precise\":{\"N\":\"123.4500000000000000000000000000000000\"},"
  "\"bin\":{\"B\":\"AAECA/8=\"},"
  "\"text_bin\":{\"B\":\"aGVsbG8=\"},"
  "\"long_bin\":{\"B\":\"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+Pw==\"},"
  "\"ok\":{\"BOOL\":true},"
  "\"no\":{\"BOOL\":false},"
  "\"nothing\":{\"NULL\":true},"
  "\"tags\":{\"SS\":[\"a\",\"it's\",\"ü\",\"q\\\"\"]},"
  "\"nums\":{\"NS\":[\"1\",\"2.5\",\"-12345678901234567890123456789012345678\",\"1E+125\"]},"
  "\"blobs\":{\"BS\":[\"AAE=\",\"/w==\",\"aGk=\"]},"
  "\"nested\":{\"M\":{\"list\":{\"L\":[{\"S\":\"x\"},{\"N\":\"1\"},{\"M\":{\"deep\":{\"BS\":[\"AQ==\"]},\"n\":{\"NULL\":true}}},{\"L\":[]}]},"
                     "\"empty\":{\"M\":{}},\"it's\":{\"SS\":[\"z\"]}}},"
  "\"my attr\":{\"S\":\"space\"},"
  "\"a.b\":{\"S\":\"dot\"},"
  "\"it's\":{\"N\":\"-0\"},"
  "\"Status\":{\"S\":\"active\"},"
  "\"Views\":{\"N\":\"41\"},"
  "\"Other\":{\"S\":\"to be removed\"}";

/* Tools -------------------------------------------------------------------------- */

static char *
source_root (void)
{
  const char *root = g_getenv ("DYN_SOURCE_ROOT");

  if (root != NULL && *root != '\0')
    return g_strdup (root);
  return g_test_build_filename (G_TEST_DIST, "..", NULL);
}

static gboolean
run_quietly (const char * const *argv)
{
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

static void
check_tools (void)
{
  g_autofree char *root = NULL;
  g_autofree char *sdk = NULL;
  g_autofree char *node = NULL;

  if (S.checked_tools)
    return;
  S.checked_tools = TRUE;

  if (g_file_test ("/usr/bin/aws", G_FILE_TEST_IS_EXECUTABLE))
    S.tool[DYN_SNIPPET_CLI] = g_strdup ("/bin/sh");
  else
    g_test_message ("no /usr/bin/aws: the CLI snippets are not run");

  {
    const char *argv[] = { "/usr/bin/python3", "-c", "import boto3", NULL };
    if (g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE) && run_quietly (argv))
      S.tool[DYN_SNIPPET_BOTO3] = g_strdup (argv[0]);
    else
      g_test_message ("no /usr/bin/python3 with boto3: the boto3 snippets are not run");
  }

  root = source_root ();
  S.node_modules = g_build_filename (root, "build-aux", "node", "node_modules", NULL);
  sdk = g_build_filename (S.node_modules, "@aws-sdk", "client-dynamodb", "package.json", NULL);
  node = g_find_program_in_path ("node");
  if (node != NULL && g_file_test (sdk, G_FILE_TEST_EXISTS))
    S.tool[DYN_SNIPPET_JS] = g_steal_pointer (&node);
  else
    g_test_message ("no node or no @aws-sdk/client-dynamodb in %s: the JavaScript snippets are not run",
                    S.node_modules);

  S.tool[DYN_SNIPPET_GO] = g_find_program_in_path ("gofmt");
  if (S.tool[DYN_SNIPPET_GO] == NULL && g_file_test ("/usr/lib/go-1.19/bin/gofmt", G_FILE_TEST_IS_EXECUTABLE))
    S.tool[DYN_SNIPPET_GO] = g_strdup ("/usr/lib/go-1.19/bin/gofmt");
  S.tool[DYN_SNIPPET_JAVA] = g_find_program_in_path ("javac");

  S.home = g_dir_make_tmp ("dyn-snippet-XXXXXX", NULL);
  g_assert_nonnull (S.home);
}

static void
remove_tree (const char *path)
{
  GDir *dir;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static char **
tool_environment (void)
{
  static const char * const unset[] = {
    "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
    "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
    "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_CA_BUNDLE", "PYTHONPATH",
    "PYTHONHOME", "NODE_OPTIONS", "NODE_PATH", "LD_PRELOAD",
  };
  g_autofree char *missing = g_build_filename (S.home, "no-such-file", NULL);
  char **env = g_get_environ ();

  for (guint i = 0; i < G_N_ELEMENTS (unset); i++)
    env = g_environ_unsetenv (env, unset[i]);
  env = g_environ_setenv (env, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  env = g_environ_setenv (env, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  env = g_environ_setenv (env, "AWS_REGION", DYN_TEST_REGION, TRUE);
  env = g_environ_setenv (env, "AWS_DEFAULT_REGION", DYN_TEST_REGION, TRUE);
  env = g_environ_setenv (env, "AWS_CONFIG_FILE", missing, TRUE);
  env = g_environ_setenv (env, "AWS_SHARED_CREDENTIALS_FILE", missing, TRUE);
  env = g_environ_setenv (env, "AWS_EC2_METADATA_DISABLED", "true", TRUE);
  env = g_environ_setenv (env, "AWS_PAGER", "", TRUE);
  env = g_environ_setenv (env, "NO_PROXY", "127.0.0.1,localhost", TRUE);
  env = g_environ_setenv (env, "no_proxy", "127.0.0.1,localhost", TRUE);
  env = g_environ_setenv (env, "HOME", S.home, TRUE);
  env = g_environ_setenv (env, "PATH", "/usr/bin:/bin", TRUE);
  return env;
}

/* Writes @code into a fresh directory and runs it. Returns stdout; a failing
 * run fails the test (with the snippet and stderr) unless @expect_failure,
 * in which case stderr is returned instead. */
static char *
run_snippet (DynSnippetLanguage  lang,
             const char         *code,
             gboolean            expect_failure)
{
  g_autofree char *dir = g_build_filename (S.home, "run-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) env = tool_environment ();
  g_autoptr(GError) error = NULL;
  const char *argv[3];
  int status = 0;
  gboolean ok;

  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, dyn_snippet_language_get_file_name (lang), NULL);
  g_file_set_contents (path, code, -1, &error);
  g_assert_no_error (error);
  if (lang == DYN_SNIPPET_JS)
    {
      /* ES modules do not read NODE_PATH: they find packages in a
       * node_modules folder beside or above the file. */
      g_autofree char *link = g_build_filename (dir, "node_modules", NULL);
      g_assert_cmpint (symlink (S.node_modules, link), ==, 0);
    }

  argv[0] = S.tool[lang];
  argv[1] = path;
  argv[2] = NULL;
  g_spawn_sync (dir, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  ok = g_spawn_check_wait_status (status, NULL);
  remove_tree (dir);

  if (expect_failure)
    {
      if (ok)
        g_error ("%s snippet succeeded but should have failed:\n%s\nstdout:\n%s",
                 dyn_snippet_language_get_label (lang), code, out);
      return g_steal_pointer (&err);
    }
  if (!ok)
    g_error ("%s snippet failed (status %d):\n%s\nstderr:\n%s",
             dyn_snippet_language_get_label (lang), status, code, err);
  return g_steal_pointer (&out);
}

/* Output ------------------------------------------------------------------------- */

static gboolean
is_blank (const char *s)
{
  for (; *s != '\0'; s++)
    if (!g_ascii_isspace (*s))
      return FALSE;
  return TRUE;
}

/* The items a snippet printed: the CLI's response JSON (Items, Item or
 * Attributes); one DynamoDB JSON item per line from boto3 and JavaScript. */
static GPtrArray *
parse_items (DynSnippetLanguage  lang,
             const char         *out)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  if (lang == DYN_SNIPPET_CLI)
    {
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GPtrArray) page = NULL;
      JsonObject *obj;

      if (is_blank (out))
        return g_steal_pointer (&items);
      root = dyn_json_parse_response (out, strlen (out), &page, &error);
      g_assert_no_error (error);
      if (page != NULL)
        return g_steal_pointer (&page);
      obj = json_node_get_object (root);
      for (guint i = 0; i < 2; i++)
        {
          const char *member = i == 0 ? "Item" : "Attributes";

          if (json_object_has_member (obj, member))
            {
              DynValue *item = dyn_item_from_ddb_json (json_object_get_member (obj, member), &error);
              g_assert_no_error (error);
              g_ptr_array_add (items, item);
            }
        }
      return g_steal_pointer (&items);
    }

  {
    g_auto(GStrv) lines = g_strsplit (out, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        DynValue *item;

        if (is_blank (lines[i]))
          continue;
        item = dyn_item_from_ddb_json_string (lines[i], -1, &error);
        if (item == NULL)
          g_error ("%s printed a line that is not a DynamoDB JSON item: %s (%s)",
                   dyn_snippet_language_get_label (lang), lines[i], error->message);
        g_ptr_array_add (items, item);
      }
  }
  return g_steal_pointer (&items);
}

static void
assert_items_equal (DynSnippetLanguage  lang,
                    GPtrArray          *got,
                    GPtrArray          *expected)
{
  if (got->len != expected->len)
    g_error ("%s: %u items, Dynoscope read %u", dyn_snippet_language_get_label (lang),
             got->len, expected->len);
  for (guint i = 0; i < got->len; i++)
    if (!dyn_value_equal (got->pdata[i], expected->pdata[i]))
      {
        g_autofree char *a = dyn_item_to_ddb_json_string (got->pdata[i]);
        g_autofree char *b = dyn_item_to_ddb_json_string (expected->pdata[i]);

        g_error ("%s: item %u differs:\n  snippet:   %s\n  Dynoscope: %s",
                 dyn_snippet_language_get_label (lang), i, a, b);
      }
}

/* The table ---------------------------------------------------------------------- */

static DynValue *
number (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_value_new_number (text, &error);

  g_assert_no_error (error);
  return v;
}

static DynValue *
all_types_item (const char *pk,
                const char *sk)
{
  return dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"},%s}", pk, sk, all_types_members);
}

static void
load_items (void)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;
  static const char * const owner_keys[] = {
    "-99999999999999999999999999999999999999", "-1.5", "0", "0.00000000000000000000000000000000000001",
    "7", "12345678901234567890123456789012345678", "99999999999999999999999999999999999999",
    "1E+125",
  };

  g_ptr_array_add (items, all_types_item ("WS#1", "META"));
  for (guint i = 1; i <= 13; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"PROJ#%03u\"},\"title\":{\"S\":\"Project %u – it's\"},"
      "\"Views\":{\"N\":\"%u.250000000000000000000000000000000000\"},\"tags\":{\"SS\":[\"p%u\",\"%s\"]},"
      "\"data\":{\"B\":\"%s\"},\"Status\":{\"S\":\"%s\"}}",
      i, i, i * 1000, i, i % 3 == 0 ? "hot" : "cold", i % 2 ? "AAD/" : "aGk=",
      i % 4 == 0 ? "archived" : "active"));
  for (guint i = 1; i <= 5; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"ENROLL#%u\"},\"gsi1pk\":{\"S\":\"OWNER#b\"},"
      "\"gsi1sk\":{\"N\":\"%u\"},\"n\":{\"NULL\":true}}", i, i));
  for (guint i = 0; i < G_N_ELEMENTS (owner_keys); i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"pk\":{\"S\":\"WS#2\"},\"sk\":{\"S\":\"OWN#%u\"},\"gsi1pk\":{\"S\":\"OWNER#a\"},"
      "\"gsi1sk\":{\"N\":\"%s\"},\"m\":{\"M\":{\"k\":{\"NS\":[\"%s\"]}}},\"l\":{\"L\":[{\"BOOL\":%s}]}}",
      i, owner_keys[i], owner_keys[i], i % 2 ? "true" : "false"));
  for (guint i = 0; i < 20; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"pk\":{\"S\":\"BULK#%02u\"},\"sk\":{\"S\":\"X\"},\"tags\":{\"SS\":[\"%s\"]},"
      "\"big\":{\"N\":\"%u%s\"}}",
      i, i % 5 == 0 ? "hot" : "bulk", i, "0000000000000000000000000000000000000"));

  dyn_test_load_items (S.client, S.table, items, &error);
  g_assert_no_error (error);
}

/* Returns FALSE (the test skipped) when DynamoDB Local cannot run here. */
static gboolean
ensure_table (void)
{
  g_autoptr(GError) error = NULL;
  static const char * const gsis[] = { "gsi1:gsi1pk:S:gsi1sk:N", NULL };

  check_tools ();
  if (S.client != NULL)
    return TRUE;
  S.server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  if (S.server == NULL)
    return FALSE;
  S.client = dyn_test_client_new (S.server);
  S.table = dyn_test_table_name ("snippet");
  dyn_test_create_table (S.client, S.table, "pk:S", "sk:S", gsis, &error);
  g_assert_no_error (error);
  load_items ();
  return TRUE;
}

/* Reads ------------------------------------------------------------------------- */

/* Everything Dynoscope reads for @request: every page, or the one item. */
static GPtrArray *
dynoscope_read (const DynRequest *request)
{
  g_autoptr(GError) error = NULL;

  if (request->op == DYN_OP_QUERY || request->op == DYN_OP_SCAN)
    {
      g_autoptr(DynPager) pager = dyn_pager_new (S.client, request);
      GPtrArray *items = dyn_test_pager_run (pager, 1, 0, &error);

      g_assert_no_error (error);
      return items;
    }
  else
    {
      g_autoptr(DynResponse) response = dyn_test_execute (S.client, request, &error);
      GPtrArray *items = dyn_test_item_array_new ();

      g_assert_no_error (error);
      if (response->item != NULL)
        g_ptr_array_add (items, dyn_value_ref (response->item));
      return items;
    }
}

static void
check_read (const DynRequest *request,
            guint             min_items)
{
  g_autoptr(GPtrArray) expected = dynoscope_read (request);
  const char *endpoint = dyn_test_server_get_endpoint (S.server);
  guint ran = 0;

  g_assert_cmpuint (expected->len, >=, min_items);
  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      g_autofree char *code = NULL;
      g_autofree char *out = NULL;
      g_autoptr(GPtrArray) got = NULL;

      if (S.tool[lang] == NULL)
        continue;
      code = dyn_snippet_generate (lang, request, endpoint, DYN_TEST_REGION);
      if (g_test_verbose ())
        g_test_message ("%s", code);
      out = run_snippet (lang, code, FALSE);
      got = parse_items (lang, out);
      assert_items_equal (lang, got, expected);
      ran++;
    }
  if (ran == 0)
    g_test_skip ("no SDK tool to run the snippets with");
}

static void
test_query_begins_with (void)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) pk = dyn_value_new_string ("WS#1");
  g_autoptr(DynValue) prefix = dyn_value_new_string ("PROJ#");

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_QUERY, S.table);
  request->key_condition = g_strdup ("#pk = :pk AND begins_with(#sk, :prefix)");
  dyn_request_add_name (request, "#pk", "pk");
  dyn_request_add_name (request, "#sk", "sk");
  dyn_request_add_value (request, ":pk", pk);
  dyn_request_add_value (request, ":prefix", prefix);
  request->scan_forward = FALSE;
  request->limit = 4;           /* four pages of at most 4 */
  request->consistent_read = TRUE;
  check_read (request, 13);
}

/* A read that starts after a given key (the CLI takes it as --starting-token). */
static void
test_query_start_key (void)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) pk = dyn_value_new_string ("WS#1");
  g_autoptr(DynValue) prefix = dyn_value_new_string ("PROJ#");
  g_autoptr(DynValue) start = NULL;

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_QUERY, S.table);
  request->key_condition = g_strdup ("pk = :pk AND begins_with(sk, :prefix)");
  dyn_request_add_value (request, ":pk", pk);
  dyn_request_add_value (request, ":prefix", prefix);
  start = dyn_test_item ("{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"PROJ#005\"}}");
  dyn_request_set_exclusive_start_key (request, start);
  request->limit = 3;
  check_read (request, 8);
}

static void
test_query_gsi (void)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) owner = dyn_value_new_string ("OWNER#a");
  g_autoptr(DynValue) lo = number ("-99999999999999999999999999999999999999");
  g_autoptr(DynValue) hi = number ("12345678901234567890123456789012345678");

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_QUERY, S.table);
  request->index = g_strdup ("gsi1");
  request->key_condition = g_strdup ("gsi1pk = :o AND gsi1sk BETWEEN :lo AND :hi");
  request->projection = g_strdup ("pk, sk, gsi1sk, m.k, l[0]");
  dyn_request_add_value (request, ":o", owner);
  dyn_request_add_value (request, ":lo", lo);
  dyn_request_add_value (request, ":hi", hi);
  request->limit = 2;
  check_read (request, 6);
}

static void
test_scan_filter (void)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) hot = dyn_value_new_string ("hot");
  g_autoptr(DynValue) big = number ("100000000000000000000000000000000000000");

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_SCAN, S.table);
  request->filter = g_strdup ("attribute_exists(#t) AND (contains(#t, :hot) OR #big > :big)");
  dyn_request_add_name (request, "#t", "tags");
  dyn_request_add_name (request, "#big", "big");
  dyn_request_add_value (request, ":hot", hot);
  dyn_request_add_value (request, ":big", big);
  request->limit = 7;
  check_read (request, 5);
}

static void
test_scan_segment (void)
{
  g_autoptr(DynRequest) request = NULL;

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_SCAN, S.table);
  request->segment = 1;
  request->total_segments = 3;
  request->limit = 5;
  check_read (request, 0);
}

static void
test_get_projection (void)
{
  g_autoptr(DynRequest) request = NULL;

  if (!ensure_table ())
    return;
  request = dyn_request_new (DYN_OP_GET_ITEM, S.table);
  request->key = dyn_test_item ("{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"META\"}}");
  request->projection = g_strdup ("#n, big, tiny, huge, precise, bin, long_bin, blobs, nums, "
                                  "nested.#l[2], nested.#q, #sp, #ab, #q, ok, nothing, #st");
  dyn_request_add_name (request, "#n", "Name");
  dyn_request_add_name (request, "#l", "list");
  dyn_request_add_name (request, "#q", "it's");
  dyn_request_add_name (request, "#sp", "my attr");
  dyn_request_add_name (request, "#ab", "a.b");
  dyn_request_add_name (request, "#st", "Status");
  request->consistent_read = TRUE;
  check_read (request, 1);

  /* An item that is not there prints nothing. */
  g_clear_pointer (&request->key, dyn_value_unref);
  request->key = dyn_test_item ("{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"NOPE\"}}");
  check_read (request, 0);
}

static void
test_query_count (void)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) pk = dyn_value_new_string ("WS#1");
  g_autoptr(GPtrArray) all = NULL;
  const char *endpoint;

  if (!ensure_table ())
    return;
  endpoint = dyn_test_server_get_endpoint (S.server);
  request = dyn_request_new (DYN_OP_QUERY, S.table);
  request->key_condition = g_strdup ("pk = :pk");
  dyn_request_add_value (request, ":pk", pk);
  request->limit = 5;
  all = dynoscope_read (request);
  g_free (request->select);
  request->select = g_strdup ("COUNT");

  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      g_autofree char *code = NULL;
      g_autofree char *out = NULL;
      gint64 count;

      if (S.tool[lang] == NULL)
        continue;
      code = dyn_snippet_generate (lang, request, endpoint, DYN_TEST_REGION);
      out = run_snippet (lang, code, FALSE);
      if (lang == DYN_SNIPPET_CLI)
        {
          g_autoptr(GError) error = NULL;
          g_autoptr(JsonNode) root = dyn_json_parse (out, -1, &error);

          g_assert_no_error (error);
          count = json_object_get_int_member (json_node_get_object (root), "Count");
        }
      else
        count = g_ascii_strtoll (out, NULL, 10);
      g_assert_cmpint (count, ==, all->len);
    }
}

/* Writes ------------------------------------------------------------------------ */

typedef DynRequest *(*WriteBuilder) (const char *pk);

/* The item minus its partition key, so items written under different keys
 * can be compared. */
static DynValue *
without_pk (DynValue *item)
{
  DynValue *copy = dyn_value_new_map ();

  for (guint i = 0; i < dyn_value_get_length (item); i++)
    if (strcmp (dyn_value_map_get_name (item, i), "pk") != 0)
      dyn_value_map_set (copy, dyn_value_map_get_name (item, i), dyn_value_map_get_value (item, i));
  return copy;
}

static GPtrArray *
without_pks (GPtrArray *items)
{
  GPtrArray *out = dyn_test_item_array_new ();

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (out, without_pk (items->pdata[i]));
  return out;
}

static DynValue *
get_item (const char *pk)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_GET_ITEM, S.table);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  request->key = dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"ITEM\"}}", pk);
  request->consistent_read = TRUE;
  response = dyn_test_execute (S.client, request, &error);
  g_assert_no_error (error);
  return response->item != NULL ? dyn_value_ref (response->item) : NULL;
}

static void
seed_item (const char *pk)
{
  g_autoptr(DynValue) item = all_types_item (pk, "ITEM");
  g_autoptr(GError) error = NULL;

  dyn_test_put_item (S.client, S.table, item, &error);
  g_assert_no_error (error);
}

/* Runs the write through Dynoscope on one key and through each snippet on
 * another, then compares what the table holds (and what was returned). */
static void
check_write (const char   *name,
             WriteBuilder  build,
             gboolean      seed)
{
  g_autofree char *dyn_pk = g_strdup_printf ("W#%s#dynoscope", name);
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GPtrArray) returned = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) expected_returned = NULL;
  g_autoptr(DynValue) expected = NULL;
  g_autoptr(DynValue) expected_cmp = NULL;
  g_autoptr(GError) error = NULL;
  const char *endpoint;
  guint ran = 0;

  if (!ensure_table ())
    return;
  endpoint = dyn_test_server_get_endpoint (S.server);

  request = build (dyn_pk);
  if (seed)
    seed_item (dyn_pk);
  response = dyn_test_execute (S.client, request, &error);
  g_assert_no_error (error);
  if (response->item != NULL)
    g_ptr_array_add (returned, dyn_value_ref (response->item));
  expected_returned = without_pks (returned);
  expected = get_item (dyn_pk);
  expected_cmp = expected != NULL ? without_pk (expected) : NULL;

  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      g_autofree char *pk = NULL;
      g_autoptr(DynRequest) lang_request = NULL;
      g_autofree char *code = NULL;
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GPtrArray) got = NULL;
      g_autoptr(GPtrArray) got_cmp = NULL;
      g_autoptr(DynValue) after = NULL;

      if (S.tool[lang] == NULL)
        continue;
      pk = g_strdup_printf ("W#%s#%s", name, dyn_snippet_language_to_string (lang));
      lang_request = build (pk);
      if (seed)
        seed_item (pk);
      code = dyn_snippet_generate (lang, lang_request, endpoint, DYN_TEST_REGION);
      if (g_test_verbose ())
        g_test_message ("%s", code);
      out = run_snippet (lang, code, FALSE);
      got = parse_items (lang, out);
      got_cmp = without_pks (got);
      assert_items_equal (lang, got_cmp, expected_returned);

      after = get_item (pk);
      if (expected == NULL)
        g_assert_null (after);
      else
        {
          g_autoptr(DynValue) after_cmp = NULL;

          g_assert_nonnull (after);
          g_assert_cmpstr (dyn_test_item_get_string (after, "pk"), ==, pk);
          after_cmp = without_pk (after);
          if (!dyn_value_equal (after_cmp, expected_cmp))
            {
              g_autofree char *a = dyn_item_to_ddb_json_string (after);
              g_autofree char *b = dyn_item_to_ddb_json_string (expected);
              g_error ("%s: the item written differs:\n  snippet:   %s\n  Dynoscope: %s",
                       dyn_snippet_language_get_label (lang), a, b);
            }
        }

      /* Run again: the condition no longer holds, and the program says so. */
      err = run_snippet (lang, code, TRUE);
      g_assert_nonnull (strstr (err, "ConditionalCheckFailed"));
      ran++;
    }
  if (ran == 0)
    g_test_skip ("no SDK tool to run the snippets with");
}

static DynRequest *
build_put (const char *pk)
{
  DynRequest *request = dyn_request_new (DYN_OP_PUT_ITEM, S.table);

  request->item = all_types_item (pk, "ITEM");
  request->condition = g_strdup ("attribute_not_exists(pk)");
  return request;
}

static void
test_put_condition (void)
{
  check_write ("put", build_put, FALSE);
}

static DynRequest *
build_update (const char *pk)
{
  DynRequest *request = dyn_request_new (DYN_OP_UPDATE_ITEM, S.table);
  g_autoptr(DynValue) status = dyn_value_new_string ("archived – it's \"done\"");
  g_autoptr(DynValue) old = dyn_value_new_string ("active");
  g_autoptr(DynValue) one = number ("1.000000000000000000000000000000000001");
  g_autoptr(DynValue) more = dyn_test_item ("{\"v\":{\"L\":[{\"B\":\"3q2+7w==\"},{\"M\":{\"x\":{\"NS\":[\"0.5\"]}}}]}}");
  g_autoptr(DynValue) tags = dyn_test_item ("{\"v\":{\"SS\":[\"new\",\"a\"]}}");
  g_autoptr(DynValue) nums = dyn_test_item ("{\"v\":{\"NS\":[\"99999999999999999999999999999999999999\"]}}");

  request->key = dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"ITEM\"}}", pk);
  request->update = g_strdup ("SET #s = :s, #v = #v + :one, nested.#l = list_append(nested.#l, :more) "
                              "ADD tags :tags, nums :nums REMOVE #o, #ab");
  request->condition = g_strdup ("#s = :old AND attribute_exists(#sp)");
  dyn_request_add_name (request, "#s", "Status");
  dyn_request_add_name (request, "#v", "Views");
  dyn_request_add_name (request, "#l", "list");
  dyn_request_add_name (request, "#o", "Other");
  dyn_request_add_name (request, "#ab", "a.b");
  dyn_request_add_name (request, "#sp", "my attr");
  dyn_request_add_value (request, ":s", status);
  dyn_request_add_value (request, ":old", old);
  dyn_request_add_value (request, ":one", one);
  dyn_request_add_value (request, ":more", dyn_value_map_lookup (more, "v"));
  dyn_request_add_value (request, ":tags", dyn_value_map_lookup (tags, "v"));
  dyn_request_add_value (request, ":nums", dyn_value_map_lookup (nums, "v"));
  request->return_values = g_strdup ("ALL_NEW");
  return request;
}

static void
test_update (void)
{
  check_write ("update", build_update, TRUE);
}

static DynRequest *
build_delete (const char *pk)
{
  DynRequest *request = dyn_request_new (DYN_OP_DELETE_ITEM, S.table);
  g_autoptr(DynValue) active = dyn_value_new_string ("active");
  g_autoptr(DynValue) big = number ("12345678901234567890123456789012345678");

  request->key = dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"ITEM\"}}", pk);
  request->condition = g_strdup ("#s = :s AND big = :big AND attribute_exists(pk)");
  dyn_request_add_name (request, "#s", "Status");
  dyn_request_add_value (request, ":s", active);
  dyn_request_add_value (request, ":big", big);
  request->return_values = g_strdup ("ALL_OLD");
  return request;
}

static void
test_delete_condition (void)
{
  check_write ("delete", build_delete, TRUE);
}

/* Unit checks -------------------------------------------------------------------- */

static void
test_languages (void)
{
  DynSnippetLanguage lang;

  for (guint i = 0; i < DYN_SNIPPET_N_LANGUAGES; i++)
    {
      g_assert_true (dyn_snippet_language_from_string (dyn_snippet_language_to_string (i), &lang));
      g_assert_cmpint (lang, ==, i);
      g_assert_nonnull (dyn_snippet_language_get_label (i));
      g_assert_nonnull (dyn_snippet_language_get_file_name (i));
    }
  g_assert_true (dyn_snippet_language_from_string ("boto3", &lang));
  g_assert_cmpint (lang, ==, DYN_SNIPPET_BOTO3);
  g_assert_cmpstr (dyn_snippet_language_get_label (DYN_SNIPPET_CLI), ==, "AWS CLI");
  g_assert_cmpstr (dyn_snippet_language_get_label (DYN_SNIPPET_BOTO3), ==, "Python (boto3)");
  g_assert_false (dyn_snippet_language_from_string ("cobol", &lang));
}

/* Brackets balance outside string literals and comments. */
static void
assert_balanced (const char *code,
                 const char *label)
{
  GString *stack = g_string_new (NULL);
  gboolean in_string = FALSE;

  for (const char *c = code; *c != '\0'; c++)
    {
      if (in_string)
        {
          if (*c == '\\')
            c++;
          else if (*c == '"')
            in_string = FALSE;
          else
            g_assert_cmpint (*c, !=, '\n');
          continue;
        }
      if (*c == '"')
        in_string = TRUE;
      else if (c[0] == '/' && c[1] == '/')
        {
          while (c[1] != '\0' && c[1] != '\n')
            c++;
        }
      else if (strchr ("({[", *c) != NULL)
        g_string_append_c (stack, *c);
      else if (strchr (")}]", *c) != NULL)
        {
          char open = *c == ')' ? '(' : *c == '}' ? '{' : '[';
          if (stack->len == 0 || stack->str[stack->len - 1] != open)
            g_error ("%s: unbalanced '%c' at offset %d:\n%s", label, *c, (int) (c - code), code);
          g_string_truncate (stack, stack->len - 1);
        }
    }
  g_assert_false (in_string);
  if (stack->len != 0)
    g_error ("%s: unclosed '%s':\n%s", label, stack->str, code);
  g_string_free (stack, TRUE);
}

static void
assert_contains (const char *code,
                 const char *needle)
{
  if (strstr (code, needle) == NULL)
    g_error ("expected «%s» in:\n%s", needle, code);
}

static void
assert_lacks (const char *code,
              const char *needle)
{
  if (strstr (code, needle) != NULL)
    g_error ("did not expect «%s» in:\n%s", needle, code);
}

/* gofmt parses the file and prints it back: no output means it parses and is
 * already formatted as gofmt would format it. */
static void
check_gofmt (const char *code)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[4];
  int status = 0;

  if (S.tool[DYN_SNIPPET_GO] == NULL)
    return;
  dir = g_build_filename (S.home, "go-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, "main.go", NULL);
  g_file_set_contents (path, code, -1, &error);
  g_assert_no_error (error);
  argv[0] = S.tool[DYN_SNIPPET_GO];
  argv[1] = "-d";
  argv[2] = path;
  argv[3] = NULL;
  g_spawn_sync (dir, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  remove_tree (dir);
  if (!g_spawn_check_wait_status (status, NULL) || !is_blank (out) || !is_blank (err))
    g_error ("gofmt disagrees with the Go snippet:\n%s\n%s%s", code, out, err);
}

/* Without the SDK's jars javac cannot resolve its classes, but it parses the
 * file first and stops there on a syntax error: so every error it reports
 * must be about a missing package or symbol. */
static void
check_javac (const char *code)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *argv[6];
  int status = 0;
  guint errors = 0;

  if (S.tool[DYN_SNIPPET_JAVA] == NULL)
    return;
  dir = g_build_filename (S.home, "java-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (dir));
  path = g_build_filename (dir, "DynamoDbSnippet.java", NULL);
  g_file_set_contents (path, code, -1, &error);
  g_assert_no_error (error);
  argv[0] = S.tool[DYN_SNIPPET_JAVA];
  argv[1] = "-d";
  argv[2] = dir;
  argv[3] = "-Xmaxerrs";
  argv[4] = "10000";
  argv[5] = NULL;
  {
    const char *full[] = { argv[0], argv[1], argv[2], argv[3], argv[4], path, NULL };
    g_spawn_sync (dir, (char **) full, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                  &status, &error);
  }
  g_assert_no_error (error);
  remove_tree (dir);

  lines = g_strsplit (err, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *e = strstr (lines[i], ": error: ");

      if (e == NULL)
        continue;
      errors++;
      e += strlen (": error: ");
      if (!g_str_has_prefix (e, "package ") && !g_str_has_prefix (e, "cannot find symbol"))
        g_error ("javac: %s\n%s\n%s", e, code, err);
    }
  /* The SDK imports must be what failed, so the parser got through. */
  g_assert_cmpuint (errors, >, 0);
}

typedef struct {
  const char *name;
  DynRequest *(*build) (void);
  const char *go[12];
  const char *java[12];
} StaticCase;

static DynRequest *
static_query (void)
{
  DynRequest *request = dyn_request_new (DYN_OP_QUERY, "Workspaces");
  g_autoptr(DynValue) pk = dyn_value_new_string ("WS#1");
  g_autoptr(DynValue) prefix = dyn_value_new_string ("PROJ#");

  request->index = g_strdup ("gsi1");
  request->key_condition = g_strdup ("#pk = :pk AND begins_with(#sk, :prefix)");
  request->filter = g_strdup ("#n <> :pk");
  request->projection = g_strdup ("#pk, #sk, #n");
  dyn_request_add_name (request, "#pk", "gsi1pk");
  dyn_request_add_name (request, "#sk", "gsi1sk");
  dyn_request_add_name (request, "#n", "Name");
  dyn_request_add_value (request, ":pk", pk);
  dyn_request_add_value (request, ":prefix", prefix);
  request->scan_forward = FALSE;
  request->limit = 25;
  return request;
}

static DynRequest *
static_scan (void)
{
  DynRequest *request = dyn_request_new (DYN_OP_SCAN, "Workspaces");

  request->select = g_strdup ("COUNT");
  request->consistent_read = TRUE;
  request->segment = 2;
  request->total_segments = 4;
  request->exclusive_start_key = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
  return request;
}

static DynRequest *
static_get (void)
{
  DynRequest *request = dyn_request_new (DYN_OP_GET_ITEM, "Workspaces");

  request->key = dyn_test_item ("{\"pk\":{\"S\":\"WS#1\"},\"sk\":{\"S\":\"META\"}}");
  request->projection = g_strdup ("#n");
  dyn_request_add_name (request, "#n", "Name");
  request->consistent_read = TRUE;
  return request;
}

static DynRequest *
static_put (void)
{
  DynRequest *request = dyn_request_new (DYN_OP_PUT_ITEM, "Workspaces");

  request->item = all_types_item ("WS#9", "META");
  request->condition = g_strdup ("attribute_not_exists(pk)");
  request->return_values_on_condition_check_failure = g_strdup ("ALL_OLD");
  return request;
}

static DynRequest *
static_update (void)
{
  DynRequest *request = build_update ("WS#9");

  g_free (request->table);
  request->table = g_strdup ("Workspaces");
  return request;
}

static DynRequest *
static_delete (void)
{
  DynRequest *request = build_delete ("WS#9");

  g_free (request->table);
  request->table = g_strdup ("Workspaces");
  g_free (request->return_values);
  request->return_values = NULL;
  return request;
}

static const StaticCase static_cases[] = {
  { "query", static_query,
    { "&dynamodb.QueryInput{", "dynamodb.NewQueryPaginator(client, input)", "IndexName:",
      "ScanIndexForward:", "aws.Bool(false)", "aws.Int32(25)",
      "&types.AttributeValueMemberS{Value: \"WS#1\"}", "printItem(item)", NULL },
    { "QueryRequest.builder()", ".indexName(\"gsi1\")", ".scanIndexForward(false)", ".limit(25)",
      "client.queryPaginator(request).items()", "AttributeValue.builder().s(\"WS#1\").build()",
      "Map.of(", NULL } },
  { "scan", static_scan,
    { "&dynamodb.ScanInput{", "types.SelectCount", "aws.Int32(2)",
      "aws.Int32(4)", "aws.Bool(true)", "count += page.Count",
      "ExclusiveStartKey: map[string]types.AttributeValue{", NULL },
    { "ScanRequest.builder()", ".select(Select.COUNT)", ".segment(2)", ".totalSegments(4)",
      "for (ScanResponse page : client.scanPaginator(request))", ".exclusiveStartKey(Map.of(",
      "AttributeValue.builder().n(\"1\").build()", NULL } },
  { "get", static_get,
    { "&dynamodb.GetItemInput{", "out, err := client.GetItem(ctx, input)", "printItem(out.Item)",
      "ProjectionExpression:", NULL },
    { "GetItemRequest.builder()", "GetItemResponse response = client.getItem(request);",
      "response.hasItem()", ".consistentRead(true)", NULL } },
  { "put", static_put,
    { "&dynamodb.PutItemInput{", "&types.AttributeValueMemberB{Value: []byte(\"\\x00\\x01\\x02\\x03\\xff\")}",
      "&types.AttributeValueMemberNS{Value: []string{", "&types.AttributeValueMemberNULL{Value: true}",
      "types.ReturnValuesOnConditionCheckFailureAllOld", "if _, err := client.PutItem(ctx, input); err != nil {",
      "&types.AttributeValueMemberN{Value: \"123.4500000000000000000000000000000000\"}", NULL },
    { "PutItemRequest.builder()", "Map.ofEntries(", "Map.entry(\"big\", AttributeValue.builder().n(\"12345678901234567890123456789012345678\").build())",
      "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"AAECA/8=\"))", "SdkBytes.fromUtf8String(\"hello\")",
      ".returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)",
      "client.putItem(request);", NULL } },
  { "update", static_update,
    { "&dynamodb.UpdateItemInput{", "UpdateExpression:", "ConditionExpression:", "types.ReturnValueAllNew",
      "\"#s\":  \"Status\"", "printItem(out.Attributes)", NULL },
    { "UpdateItemRequest.builder()", ".updateExpression(", ".returnValues(ReturnValue.ALL_NEW)",
      "\"#s\", \"Status\"", "response.hasAttributes()", "List.of(", NULL } },
  { "delete", static_delete,
    { "&dynamodb.DeleteItemInput{", "if _, err := client.DeleteItem(ctx, input); err != nil {", NULL },
    { "DeleteItemRequest.builder()", "client.deleteItem(request);", NULL } },
};

static void
test_go_java (void)
{
  check_tools ();
  if (S.tool[DYN_SNIPPET_GO] == NULL)
    g_test_message ("no gofmt: the Go snippets are only checked by the test itself");
  if (S.tool[DYN_SNIPPET_JAVA] == NULL)
    g_test_message ("no javac: the Java snippets are only checked by the test itself");

  for (guint i = 0; i < G_N_ELEMENTS (static_cases); i++)
    {
      const StaticCase *c = &static_cases[i];
      g_autoptr(DynRequest) request = c->build ();
      g_autofree char *go = dyn_snippet_generate (DYN_SNIPPET_GO, request, "http://localhost:8000", "eu-central-1");
      g_autofree char *java = dyn_snippet_generate (DYN_SNIPPET_JAVA, request, "http://localhost:8000", "eu-central-1");
      g_autofree char *go_plain = dyn_snippet_generate (DYN_SNIPPET_GO, request, NULL, NULL);
      g_autofree char *java_plain = dyn_snippet_generate (DYN_SNIPPET_JAVA, request, NULL, NULL);

      g_test_message ("%s", c->name);
      if (g_test_verbose ())
        g_test_message ("%s\n%s", go, java);
      assert_balanced (go, "Go");
      assert_balanced (java, "Java");
      assert_balanced (go_plain, "Go");
      assert_balanced (java_plain, "Java");

      assert_contains (go, "package main\n");
      assert_contains (go, "\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"");
      assert_contains (go, "config.LoadDefaultConfig(ctx, config.WithRegion(\"eu-central-1\"))");
      assert_contains (go, "o.BaseEndpoint = aws.String(\"http://localhost:8000\")");
      assert_contains (go, "TableName:");
      assert_contains (go, "aws.String(\"Workspaces\")");
      assert_contains (go_plain, "config.LoadDefaultConfig(ctx)\n");
      assert_contains (go_plain, "client := dynamodb.NewFromConfig(cfg)\n");
      for (guint k = 0; c->go[k] != NULL; k++)
        assert_contains (go, c->go[k]);

      assert_contains (java, "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;");
      assert_contains (java, "public class DynamoDbSnippet {");
      assert_contains (java, ".endpointOverride(URI.create(\"http://localhost:8000\"))");
      assert_contains (java, ".region(Region.of(\"eu-central-1\"))");
      assert_contains (java, ".tableName(\"Workspaces\")");
      assert_contains (java_plain, "DynamoDbClient client = DynamoDbClient.create()");
      assert_lacks (java_plain, "import java.net.URI;");
      for (guint k = 0; c->java[k] != NULL; k++)
        assert_contains (java, c->java[k]);

      /* Never a credential, never Dynoscope's own statistics request. */
      assert_lacks (go, "ReturnConsumedCapacity");
      assert_lacks (java, "returnConsumedCapacity");
      assert_lacks (go, "Credentials");
      assert_lacks (java, "Credentials");

      check_gofmt (go);
      check_gofmt (go_plain);
      check_javac (java);
      check_javac (java_plain);
    }
}

/* Quoting that must hold in every language, checked without running. */
static void
test_quoting (void)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_QUERY, "-odd.table_name");
  g_autoptr(DynValue) v = dyn_value_new_string ("it's\n\"x\"\\");
  g_autofree char *cli = NULL;
  g_autofree char *py = NULL;
  g_autofree char *js = NULL;
  g_autofree char *java = NULL;

  request->key_condition = g_strdup ("pk = :v");
  dyn_request_add_value (request, ":v", v);
  request->limit = 10;
  request->return_values = g_strdup ("ALL_NEW");   /* not for a Query: left out */
  request->return_consumed_capacity = TRUE;

  cli = dyn_snippet_generate (DYN_SNIPPET_CLI, request, NULL, "us-west-2");
  assert_contains (cli, "aws dynamodb query");
  assert_contains (cli, "--table-name=-odd.table_name");
  assert_contains (cli, "--key-condition-expression 'pk = :v'");
  assert_contains (cli, "--expression-attribute-values '{\":v\": {\"S\":\"it'\\''s\\n\\\"x\\\"\\\\\"}}'");
  assert_contains (cli, "--page-size 10");
  assert_contains (cli, "--region us-west-2");
  assert_lacks (cli, "--endpoint-url");
  assert_lacks (cli, "return-values");
  assert_lacks (cli, "consumed");

  py = dyn_snippet_generate (DYN_SNIPPET_BOTO3, request, NULL, NULL);
  assert_contains (py, "client = boto3.client(\"dynamodb\")\n");
  assert_contains (py, "\":v\": {\"S\": \"it's\\n\\\"x\\\"\\\\\"}");
  assert_contains (py, "\"Limit\": 10,");

  js = dyn_snippet_generate (DYN_SNIPPET_JS, request, NULL, NULL);
  assert_contains (js, "new DynamoDBClient({})");
  assert_contains (js, "\":v\": { S: \"it's\\n\\\"x\\\"\\\\\" }");

  java = dyn_snippet_generate (DYN_SNIPPET_JAVA, request, NULL, NULL);
  assert_contains (java, "AttributeValue.builder().s(\"it's\\n\\\"x\\\"\\\\\").build()");

  /* Java must not see \u000a: it would end the literal before the lexer runs. */
  {
    g_autoptr(DynValue) ctl = dyn_value_new_string ("a\001b\u00e9\U0001F389");
    g_autofree char *j = NULL;

    dyn_request_add_value (request, ":v", ctl);
    j = dyn_snippet_generate (DYN_SNIPPET_JAVA, request, NULL, NULL);
    assert_contains (j, "s(\"a\\001b\\u00e9\\ud83c\\udf89\")");
  }
}

/* Multi-attribute GSI keys (issue 10) ---------------------------------------------
 *
 * A Query on an index keyed by tenant + site and sorted by kind + seq, as
 * Dynoscope's read request builds it: each language's snippet reads what
 * Dynoscope reads, page by page, and from a start key holding every key
 * attribute. */

static const DynTableKeys *
multikey_table (char **name)
{
  static const char * const gsis[] = { "ByTenant:tenant:S+site:N:kind:S+seq:N", NULL };
  static char *table;
  static DynTableKeys *keys;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(DynResponse) described = NULL;

  if (!ensure_table ())
    return NULL;
  if (keys != NULL)
    {
      *name = table;
      return keys;
    }
  table = dyn_test_table_name ("snippet-multikey");
  dyn_test_create_table (S.client, table, "pk:S", "sk:S", gsis, &error);
  g_assert_no_error (error);
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < 24; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"ORDER#%02u\"},\"sk\":{\"S\":\"LINE\"},"
                                            "\"tenant\":{\"S\":\"%s\"},\"site\":{\"N\":\"%u\"},"
                                            "\"kind\":{\"S\":\"%s\"},\"seq\":{\"N\":\"%u\"},"
                                            "\"it's\":{\"S\":\"q\\\"\"}}",
                                            i, i % 3 ? "acme" : "it's \\\"x\\\"", i % 2, i % 4 ? "order" : "invoice",
                                            24 - i));
  dyn_test_load_items (S.client, table, items, &error);
  g_assert_no_error (error);
  described = dyn_test_callf (S.client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", table);
  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_object_get_object_member (json_node_get_object (described->root),
                                                                         "Table"), &error);
  g_assert_no_error (error);
  *name = table;
  return keys;
}

static DynReadRequest *
multikey_read (const char *condition,
               guint       limit)
{
  char *table = NULL;
  const DynTableKeys *keys = multikey_table (&table);
  DynReadSpec spec = { 0 };
  DynReadRequest *read;

  if (keys == NULL)
    return NULL;
  spec.table = table;
  spec.index = "ByTenant";
  spec.mode = DYN_READ_CONDITION;
  spec.filter = condition;
  spec.limit = limit;
  read = dyn_read_request_new (keys, &spec);
  if (!dyn_read_request_is_valid (read))
    g_error ("%s: %s", condition, dyn_read_request_get_error (read)->message);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
  return read;
}

static void
test_multikey_query (void)
{
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) start = NULL;
  const DynRequest *planned;

  read = multikey_read ("site = 1 AND tenant = \"acme\" AND kind = \"order\" AND seq > 2", 0);
  if (read == NULL)
    return;
  planned = dyn_read_request_get_request (read);
  g_assert_cmpstr (planned->key_condition, ==, "#t = :t AND #s = :s AND #k = :k AND #s2 > :s2");
  request = dyn_request_copy (planned);
  check_read (request, 3);

  /* Small pages: LastEvaluatedKey holds the table's and the index's keys. */
  request->limit = 2;
  check_read (request, 3);

  /* From a start key with every key attribute; a tenant that needs quoting. */
  g_clear_pointer (&request, dyn_request_free);
  g_clear_object (&read);
  read = multikey_read ("tenant = \"it's \\\"x\\\"\" AND site = 0", 0);
  request = dyn_request_copy (dyn_read_request_get_request (read));
  check_read (request, 2);
  /* After (invoice, 24): the two order lines. */
  start = dyn_test_item ("{\"pk\":{\"S\":\"ORDER#00\"},\"sk\":{\"S\":\"LINE\"},\"tenant\":{\"S\":\"it's \\\"x\\\"\"},"
                         "\"site\":{\"N\":\"0\"},\"kind\":{\"S\":\"invoice\"},\"seq\":{\"N\":\"24\"}}");
  dyn_request_set_exclusive_start_key (request, start);
  check_read (request, 2);
}

/* Go and Java: the same request, with the index, the expression and every
 * value; they compile where gofmt and javac are installed. */
static void
test_multikey_go_java (void)
{
  g_autoptr(DynReadRequest) read = multikey_read ("tenant = \"acme\" AND site = 1 AND kind = \"order\" "
                                                  "AND seq BETWEEN 2 AND 9", 5);
  const DynRequest *request;
  g_autofree char *go = NULL, *java = NULL;

  if (read == NULL)
    return;
  request = dyn_read_request_get_request (read);
  go = dyn_snippet_generate (DYN_SNIPPET_GO, request, "http://localhost:8000", "eu-central-1");
  java = dyn_snippet_generate (DYN_SNIPPET_JAVA, request, "http://localhost:8000", "eu-central-1");
  if (g_test_verbose ())
    g_test_message ("%s\n%s", go, java);
  assert_balanced (go, "Go");
  assert_balanced (java, "Java");
  assert_contains (go, "IndexName:");
  assert_contains (go, "aws.String(\"ByTenant\")");
  assert_contains (go, "\"#t = :t AND #s = :s AND #k = :k AND #s2 BETWEEN :slo AND :shi\"");
  assert_contains (go, "\"#s2\": \"seq\"");
  assert_contains (go, "\":shi\":");
  assert_contains (java, ".indexName(\"ByTenant\")");
  assert_contains (java, "\"#t = :t AND #s = :s AND #k = :k AND #s2 BETWEEN :slo AND :shi\"");
  assert_contains (java, "\"#s\", \"site\"");
  assert_contains (java, "\":slo\"");
  check_gofmt (go);
  check_javac (java);
}

/* Read options (issue 11) ---------------------------------------------------------
 *
 * The reads the builder makes (dyn_read_request_new() with the builder's
 * options: a projection with the key attributes added, strongly consistent,
 * descending, a page size for every page, a count, a GetItem of a typed key)
 * on a table unlike the demo data: a numeric sort key. Each language's
 * snippet of the read request reads what the read request's own pager
 * reads, the window's read; DynamoDB Local says what it refuses. */

static const DynTableKeys *
episodes_table (char **name)
{
  static char *table;
  static DynTableKeys *keys;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autofree char *params = NULL;

  if (!ensure_table ())
    return NULL;
  if (keys != NULL)
    {
      *name = table;
      return keys;
    }
  table = dyn_test_table_name ("snippet-episodes");
  params = g_strdup_printf (
    "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"series\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"episode\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"network\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"rating\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"series\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"episode\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByNetwork\",\"KeySchema\":["
    "{\"AttributeName\":\"network\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"rating\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", table);
  dyn_test_create_table_json (S.client, table, params, &error);
  g_assert_no_error (error);
  items = dyn_test_item_array_new ();
  /* Episode numbers that sort differently as text; a reserved word
   * (Year) and a name that needs quoting among the attributes. */
  for (guint i = 1; i <= 14; i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"series\":{\"S\":\"%s\"},\"episode\":{\"N\":\"%u\"},\"network\":{\"S\":\"%s\"},"
      "\"rating\":{\"N\":\"%u.%u5\"},\"title\":{\"S\":\"Episode %u – it's\"},\"Year\":{\"N\":\"%u\"},"
      "\"info\":{\"M\":{\"plot\":{\"S\":\"Plot %u\"},\"cast\":{\"L\":[{\"S\":\"Jack\"},{\"S\":\"Kate\"}]},"
      "\"it's\":{\"BOOL\":true}}}}",
      i <= 11 ? "Lost" : "Dark", i, i % 2 ? "ABC" : "NBC", 6 + i % 4, i, i, 2000 + i, i));
  dyn_test_load_items (S.client, table, items, &error);
  g_assert_no_error (error);
  described = dyn_test_callf (S.client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", table);
  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_object_get_object_member (json_node_get_object (described->root),
                                                                         "Table"), &error);
  g_assert_no_error (error);
  *name = table;
  return keys;
}

static DynExprNode *
parse_as (const char  *text,
          DynExprRole  role)
{
  g_autoptr(GError) error = NULL;
  DynExprNode *node = text ? dyn_expr_parse (text, role, NULL, NULL, NULL, &error) : NULL;

  g_assert_no_error (error);
  return node;
}

/* The read the builder makes of @filter (its condition) and @projection
 * (both in the expression syntax), with the options in @spec. */
static DynReadRequest *
episodes_read (DynReadSpec *spec,
               const char  *filter,
               const char  *projection)
{
  char *table = NULL;
  const DynTableKeys *keys = episodes_table (&table);
  g_autoptr(DynExprNode) filter_node = NULL;
  g_autoptr(DynExprNode) projection_node = NULL;

  if (keys == NULL)
    return NULL;
  filter_node = parse_as (filter, DYN_EXPR_ROLE_FILTER);
  projection_node = parse_as (projection, DYN_EXPR_ROLE_PROJECTION);
  if (spec->mode != DYN_READ_GET_ITEM)
    {
      spec->mode = DYN_READ_CONDITION;
      spec->filter_node = filter_node;
    }
  spec->projection_node = projection_node;
  spec->project_keys = TRUE;
  return dyn_read_request_new (keys, spec);
}

/* Every snippet of @read prints what its pager reads, and writes each of
 * @needles (one list per language, NULL-separated: CLI, boto3, JS, Go,
 * Java); Go and Java are checked with gofmt and javac. */
static void
check_read_request (DynReadRequest     *read,
                    guint               min_items,
                    const char * const *needles)
{
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  g_autoptr(GError) error = NULL;
  const char *endpoint = dyn_test_server_get_endpoint (S.server);
  guint n = 0;

  if (!dyn_read_request_is_valid (read))
    g_error ("not valid: %s", dyn_read_request_get_error (read)->message);
  pager = dyn_read_request_new_pager (read, S.client);
  expected = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (expected->len, >=, min_items);

  for (DynSnippetLanguage lang = 0; lang < DYN_SNIPPET_N_LANGUAGES; lang++)
    {
      g_autofree char *code = dyn_read_request_dup_snippet (read, lang, endpoint, DYN_TEST_REGION);

      if (g_test_verbose ())
        g_test_message ("%s", code);
      for (; needles != NULL && needles[n] != NULL; n++)
        assert_contains (code, needles[n]);
      if (needles != NULL)
        n++;
      if (lang == DYN_SNIPPET_GO)
        check_gofmt (code);
      else if (lang == DYN_SNIPPET_JAVA)
        check_javac (code);
      else if (S.tool[lang] != NULL)
        {
          g_autofree char *out = run_snippet (lang, code, FALSE);
          g_autoptr(GPtrArray) got = parse_items (lang, out);

          assert_items_equal (lang, got, expected);
        }
    }
}

/* Attributes, strongly consistent, descending, pages of 4: one Query. */
static void
test_read_options_query (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  const DynRequest *request;
  static const char * const needles[] = {
    "aws dynamodb query", "--consistent-read", "--no-scan-index-forward", "--page-size 4",
    "--projection-expression '#t, #i.#p, #i.#is, #y, #s, #e'", NULL,
    "\"ConsistentRead\": True", "\"ScanIndexForward\": False", "\"Limit\": 4", "\"ProjectionExpression\":", NULL,
    "ConsistentRead: true", "ScanIndexForward: false", "Limit: 4", "ProjectionExpression:", NULL,
    "ConsistentRead:", "aws.Bool(true)", "ScanIndexForward:", "aws.Bool(false)", "aws.Int32(4)", NULL,
    ".consistentRead(true)", ".scanIndexForward(false)", ".limit(4)", ".projectionExpression(", NULL,
  };

  spec.consistent_read = TRUE;
  spec.descending = TRUE;
  spec.limit = 4;
  read = episodes_read (&spec, "series = \"Lost\" AND episode >= 3", "title, info.plot, info.`it's`, Year");
  if (read == NULL)
    return;
  request = dyn_read_request_get_request (read);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_true (request->consistent_read);
  g_assert_false (request->scan_forward);
  g_assert_cmpint (request->limit, ==, 4);
  /* The key attributes come with the projection. */
  g_assert_cmpstr (request->projection, ==, "#t, #i.#p, #i.#is, #y, #s, #e");
  g_assert_cmpstr (g_hash_table_lookup (request->names, "#s"), ==, "series");
  g_assert_cmpstr (g_hash_table_lookup (request->names, "#e"), ==, "episode");
  check_read_request (read, 9, needles);
}

/* The same options on a Scan: no order to reverse, nothing sent for it
 * (DynamoDB Local ignores ScanIndexForward on a Scan; the SDKs refuse it). */
static void
test_read_options_scan (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(JsonNode) body = NULL;
  const DynRequest *request;
  static const char * const needles[] = {
    "aws dynamodb scan", "--consistent-read", "--page-size 3", NULL,
    "\"ConsistentRead\": True", NULL,
    "ConsistentRead: true", NULL,
    "aws.Int32(3)", NULL,
    ".consistentRead(true)", NULL,
  };

  spec.consistent_read = TRUE;
  spec.descending = TRUE;
  spec.limit = 3;
  read = episodes_read (&spec, "rating > 8", "title, rating");
  if (read == NULL)
    return;
  request = dyn_read_request_get_request (read);
  g_assert_cmpint (request->op, ==, DYN_OP_SCAN);
  g_assert_true (request->scan_forward);
  body = dyn_read_request_dup_body (read);
  g_assert_false (json_object_has_member (json_node_get_object (body), "ScanIndexForward"));
  check_read_request (read, 3, needles);
  for (DynSnippetLanguage lang = 0; lang < DYN_SNIPPET_N_LANGUAGES; lang++)
    {
      g_autofree char *code = dyn_read_request_dup_snippet (read, lang, NULL, NULL);

      assert_lacks (code, "can-index-forward");
      assert_lacks (code, "canIndexForward");
    }
}

/* A global index: descending and pages of 2; ConsistentRead is refused
 * there, with the words DynamoDB Local uses for it. */
static void
test_read_options_gsi (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(DynReadRequest) refused = NULL;
  g_autoptr(DynRequest) sent = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const needles[] = {
    "--index-name ByNetwork", "--no-scan-index-forward", "--page-size 2", NULL,
    "\"IndexName\": \"ByNetwork\"", NULL, "IndexName:", NULL, "IndexName:", NULL, ".indexName(\"ByNetwork\")", NULL,
  };

  spec.index = "ByNetwork";
  spec.descending = TRUE;
  spec.limit = 2;
  read = episodes_read (&spec, "network = \"ABC\" AND rating > 7", NULL);
  if (read == NULL)
    return;
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
  check_read_request (read, 3, needles);

  spec = (DynReadSpec) { 0 };
  spec.index = "ByNetwork";
  spec.consistent_read = TRUE;
  refused = episodes_read (&spec, "network = \"ABC\"", NULL);
  g_assert_false (dyn_read_request_is_valid (refused));
  g_assert_cmpstr (dyn_read_request_get_error_field (refused), ==, "ConsistentRead");
  /* DynamoDB Local refuses the same request with the same words. */
  sent = dyn_request_copy (dyn_read_request_get_request (read));
  sent->consistent_read = TRUE;
  response = dyn_test_execute (S.client, sent, &error);
  g_assert_null (response);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
  g_assert_cmpstr (dyn_error_get_details (error)->message, ==, dyn_read_request_get_error (refused)->message);
}

/* Count only: the count each snippet prints is the read's. A projection is
 * refused with DynamoDB Local's words. */
static void
test_read_options_count (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(DynReadRequest) refused = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(DynRequest) sent = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  const char *endpoint;

  spec.count_only = TRUE;
  spec.limit = 3;
  read = episodes_read (&spec, "series = \"Lost\" AND rating > 7", NULL);
  if (read == NULL)
    return;
  endpoint = dyn_test_server_get_endpoint (S.server);
  g_assert_true (dyn_read_request_get_count_only (read));
  g_assert_cmpstr (dyn_read_request_get_request (read)->select, ==, "COUNT");
  pager = dyn_read_request_new_pager (read, S.client);
  none = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
  /* Pages of three of eleven: four pages; ratings 7.x to 9.x count, the
   * two 6.x do not. */
  g_assert_cmpuint (dyn_pager_get_stats (pager)->pages, ==, 4);
  g_assert_cmpuint (dyn_pager_get_stats (pager)->scanned, ==, 11);
  g_assert_cmpuint (dyn_pager_get_stats (pager)->counted, ==, 9);
  g_assert_cmpuint (dyn_pager_get_stats (pager)->items, ==, 0);

  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      g_autofree char *code = NULL;
      g_autofree char *out = NULL;
      gint64 count;

      if (S.tool[lang] == NULL)
        continue;
      code = dyn_read_request_dup_snippet (read, lang, endpoint, DYN_TEST_REGION);
      out = run_snippet (lang, code, FALSE);
      if (lang == DYN_SNIPPET_CLI)
        {
          g_autoptr(JsonNode) root = dyn_json_parse (out, -1, &error);

          g_assert_no_error (error);
          count = json_object_get_int_member (json_node_get_object (root), "Count");
        }
      else
        count = g_ascii_strtoll (out, NULL, 10);
      g_assert_cmpint (count, ==, 9);
    }

  spec = (DynReadSpec) { 0 };
  spec.count_only = TRUE;
  refused = episodes_read (&spec, "series = \"Lost\"", "title");
  g_assert_false (dyn_read_request_is_valid (refused));
  g_assert_cmpstr (dyn_read_request_get_error_field (refused), ==, "ProjectionExpression");
  sent = dyn_request_copy (dyn_read_request_get_request (read));
  sent->projection = g_strdup ("title");
  response = dyn_test_execute (S.client, sent, &error);
  g_assert_null (response);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
  g_assert_cmpstr (dyn_error_get_details (error)->message, ==, dyn_read_request_get_error (refused)->message);
}

/* No Limit is sent for full pages: DynamoDB refuses a Limit of 0. */
static void
test_read_options_limit_zero (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  char *table = NULL;

  read = episodes_read (&spec, "series = \"Dark\"", NULL);
  if (read == NULL)
    return;
  body = dyn_read_request_dup_body (read);
  g_assert_false (json_object_has_member (json_node_get_object (body), "Limit"));
  check_read_request (read, 3, NULL);
  episodes_table (&table);
  response = dyn_test_callf (S.client, "Scan", &error, "{\"TableName\":\"%s\",\"Limit\":0}", table);
  g_assert_null (response);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
}

/* GetItem of a typed key: with attributes and strongly consistent, one
 * item; a key with none, nothing; keys DynamoDB refuses are refused first. */
static void
test_read_get_item (void)
{
  DynReadSpec spec = { 0 };
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;
  const char *texts[] = { "Lost", " 7 ", NULL };
  const char *missing[] = { "Lost", "70", NULL };
  const DynRequest *request;
  static const char * const needles[] = {
    "aws dynamodb get-item", "--key '{\"series\":{\"S\":\"Lost\"},\"episode\":{\"N\":\"7\"}}'",
    "--consistent-read", "--projection-expression", NULL,
    "get_item(", "\"ConsistentRead\": True", NULL,
    "GetItemCommand", "ConsistentRead: true", NULL,
    "client.GetItem(ctx, input)", "&types.AttributeValueMemberN{Value: \"7\"}", NULL,
    "GetItemRequest.builder()", ".consistentRead(true)", "AttributeValue.builder().n(\"7\").build()", NULL,
  };

  spec.mode = DYN_READ_GET_ITEM;
  spec.key_texts = texts;
  spec.consistent_read = TRUE;
  read = episodes_read (&spec, NULL, "title, info.cast[1], Year");
  if (read == NULL)
    return;
  g_assert_true (dyn_read_request_is_valid (read));
  request = dyn_read_request_get_request (read);
  g_assert_cmpint (request->op, ==, DYN_OP_GET_ITEM);
  g_assert_cmpstr (dyn_test_item_get_number (request->key, "episode"), ==, "7");
  g_assert_cmpstr (request->projection, ==, "#t, #i.#c[1], #y, #s, #e");
  g_assert_true (request->values == NULL || g_hash_table_size (request->values) == 0);
  g_assert_cmpstr (dyn_read_request_get_reason (read), ==,
                   "GetItem of the one item with series = \"Lost\" AND episode = 7");
  pager = dyn_read_request_new_pager (read, S.client);
  items = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 1);
  g_assert_cmpuint (dyn_value_get_length (items->pdata[0]), ==, 5);
  g_assert_true (dyn_pager_is_done (pager));
  g_assert_cmpuint (dyn_pager_get_stats (pager)->requests, ==, 1);
  g_assert_cmpfloat (dyn_pager_get_stats (pager)->read_units, ==, 1);
  check_read_request (read, 1, needles);

  /* No item with that key: nothing, in every language. */
  g_clear_object (&read);
  spec.key_texts = missing;
  read = episodes_read (&spec, NULL, NULL);
  check_read_request (read, 0, NULL);

  /* What DynamoDB refuses is refused before it is sent, naming the attribute. */
  {
    static const struct {
      const char *series, *episode, *message;
    } bad[] = {
      { "Lost", "seven", "episode: “seven” is not a DynamoDB number" },
      { "", "7", "series: a key attribute must not be empty" },
      { "Lost", "", "episode: a key attribute must not be empty" },
      { "Lost", "1e400", "episode: “1e400” is not a DynamoDB number" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        const char *typed[] = { bad[i].series, bad[i].episode, NULL };

        g_clear_object (&read);
        spec.key_texts = typed;
        read = episodes_read (&spec, NULL, NULL);
        g_assert_false (dyn_read_request_is_valid (read));
        g_assert_cmpstr (dyn_read_request_get_error (read)->message, ==, bad[i].message);
        g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "Key");
      }
  }
  /* Keys given as values: a missing or extra attribute, a wrong type. */
  {
    static const char * const keys[] = {
      "{\"series\":{\"S\":\"Lost\"}}",
      "{\"series\":{\"S\":\"Lost\"},\"episode\":{\"N\":\"7\"},\"title\":{\"S\":\"x\"}}",
      "{\"series\":{\"S\":\"Lost\"},\"episode\":{\"S\":\"7\"}}",
    };
    char *table = NULL;

    episodes_table (&table);
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        g_autoptr(DynValue) key = dyn_test_item (keys[i]);
        g_autoptr(DynResponse) response = NULL;
        g_autoptr(GError) server_error = NULL;

        g_clear_object (&read);
        spec.key_texts = NULL;
        spec.key = key;
        read = episodes_read (&spec, NULL, NULL);
        g_assert_false (dyn_read_request_is_valid (read));
        response = dyn_test_callf (S.client, "GetItem", &server_error, "{\"TableName\":\"%s\",\"Key\":%s}",
                                   table, keys[i]);
        g_assert_null (response);
        g_assert_error (server_error, DYN_ERROR, DYN_ERROR_VALIDATION);
      }
    spec.key = NULL;
  }
  /* GetItem reads the table only, and has no count. */
  spec.key_texts = texts;
  spec.index = "ByNetwork";
  g_clear_object (&read);
  read = episodes_read (&spec, NULL, NULL);
  g_assert_false (dyn_read_request_is_valid (read));
  g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "IndexName");
  spec.index = NULL;
  spec.count_only = TRUE;
  g_clear_object (&read);
  read = episodes_read (&spec, NULL, NULL);
  g_assert_false (dyn_read_request_is_valid (read));
  g_assert_cmpstr (dyn_read_request_get_error_field (read), ==, "Select");
}

/* PartiQL (issue 12) -------------------------------------------------------------
 *
 * dyn_snippet_generate_partiql(): a SELECT with typed parameters that takes
 * more than one page (items of 300 KB: a page holds at most 1 MB), an INSERT
 * and transactions of two statements, run by the CLI, boto3 and JavaScript
 * against DynamoDB Local; Go and Java checked as above. */

static char *partiql_table;

#define PARTIQL_BIG "12345678901234567890123456789012345678"
#define PARTIQL_SMALL "-0.00000000000000000000000000000000000123"

static const char *
ensure_partiql_table (void)
{
  static const char * const sort_keys[] = {
    "-12345678901234567890123456789012345678", "0", "1.5", "7", "99999999999999999999999999999999999999",
    "1E+125",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *pad = NULL;

  if (!ensure_table ())
    return NULL;
  if (partiql_table != NULL)
    return partiql_table;
  partiql_table = dyn_test_table_name ("snippet-partiql");
  dyn_test_create_table (S.client, partiql_table, "pk:S", "sk:N", NULL, &error);
  g_assert_no_error (error);
  pad = g_strnfill (300 * 1024, 'x');
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (sort_keys); i++)
    g_ptr_array_add (items, dyn_test_itemf (
      "{\"pk\":{\"S\":\"P\"},\"sk\":{\"N\":\"%s\"},\"bin\":{\"B\":\"%s\"},\"it's\":{\"S\":\"q\\\"\"},"
      "\"nums\":{\"NS\":[\"" PARTIQL_BIG "\",\"1E-130\"]},\"pad\":{\"S\":\"%s\"}}",
      sort_keys[i], i == 3 ? "AQ==" : "AP8=", i % 3 == 2 ? "small" : pad));
  dyn_test_load_items (S.client, partiql_table, items, &error);
  g_assert_no_error (error);
  return partiql_table;
}

/* A DynamoDB JSON array as the L value of a statement's ? values. */
static DynValue *
partiql_parameters (const char *ddb_json_array)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *wrapped = g_strdup_printf ("{\"L\":%s}", ddb_json_array);
  g_autoptr(JsonNode) node = json_from_string (wrapped, &error);
  DynValue *list;

  g_assert_no_error (error);
  list = dyn_value_from_ddb_json (node, &error);
  g_assert_no_error (error);
  return list;
}

/* Every item Dynoscope's own ExecuteStatement calls read, page after page. */
static GPtrArray *
partiql_read (const char *statement,
              const char *parameters_json,
              guint      *pages)
{
  GPtrArray *items = dyn_test_item_array_new ();
  g_autofree char *token = NULL;

  *pages = 0;
  do
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = NULL;
      g_autoptr(GString) params = g_string_new ("{\"Statement\":");
      JsonObject *root;

      dyn_json_append_string (params, statement, strlen (statement));
      g_string_append_printf (params, ",\"Parameters\":%s", parameters_json);
      if (token != NULL)
        {
          g_string_append (params, ",\"NextToken\":");
          dyn_json_append_string (params, token, strlen (token));
        }
      g_string_append_c (params, '}');
      response = dyn_test_call (S.client, "ExecuteStatement", params->str, &error);
      g_assert_no_error (error);
      (*pages)++;
      for (guint i = 0; response->items != NULL && i < response->items->len; i++)
        g_ptr_array_add (items, dyn_value_ref (response->items->pdata[i]));
      root = json_node_get_object (response->root);
      g_free (token);
      token = json_object_has_member (root, "NextToken")
              ? g_strdup (json_object_get_string_member (root, "NextToken")) : NULL;
    }
  while (token != NULL);
  return items;
}

/* The items of the CLI's responses: one JSON document per page (Items), or
 * a transaction's Responses (Item). */
static GPtrArray *
parse_partiql_cli (const char *out)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr(GString) doc = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonObject *obj;
      const char *members[] = { "Items", "Responses" };

      g_string_append (doc, lines[i]);
      g_string_append_c (doc, '\n');
      if (strcmp (lines[i], "}") != 0)
        continue;
      root = json_from_string (doc->str, &error);
      g_assert_no_error (error);
      g_string_truncate (doc, 0);
      obj = json_node_get_object (root);
      for (guint m = 0; m < G_N_ELEMENTS (members); m++)
        {
          JsonArray *array;

          if (!json_object_has_member (obj, members[m]))
            continue;
          array = json_object_get_array_member (obj, members[m]);
          for (guint k = 0; k < json_array_get_length (array); k++)
            {
              JsonNode *node = json_array_get_element (array, k);
              DynValue *item;

              if (m == 1)
                {
                  /* A transaction's answer: {"Item": …} or {} */
                  JsonObject *answer = json_node_get_object (node);

                  if (!json_object_has_member (answer, "Item"))
                    continue;
                  node = json_object_get_member (answer, "Item");
                }
              item = dyn_item_from_ddb_json (node, &error);
              g_assert_no_error (error);
              g_ptr_array_add (items, item);
            }
        }
    }
  g_assert_true (is_blank (doc->str));
  return g_steal_pointer (&items);
}

/* Runs the snippet of @statements in @lang against DynamoDB Local and
 * returns the items it printed. */
static GPtrArray *
run_partiql (DynSnippetLanguage  lang,
             GPtrArray          *statements,
             GPtrArray          *parameters)
{
  g_autofree char *code = dyn_snippet_generate_partiql (lang, statements, parameters,
                                                        dyn_test_server_get_endpoint (S.server),
                                                        DYN_TEST_REGION);
  g_autofree char *out = NULL;

  if (g_test_verbose ())
    g_test_message ("%s", code);
  out = run_snippet (lang, code, FALSE);
  return lang == DYN_SNIPPET_CLI ? parse_partiql_cli (out) : parse_items (lang, out);
}

static void
test_partiql_select_pages (void)
{
  const char *table = ensure_partiql_table ();
  const char *parameters_json = "[{\"S\":\"P\"},{\"N\":\"-12345678901234567890123456789012345678\"},{\"B\":\"AP8=\"}]";
  g_autoptr(GPtrArray) statements = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) parameters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(GPtrArray) expected = NULL;
  guint pages = 0, ran = 0;

  if (table == NULL)
    return;
  g_ptr_array_add (statements, g_strdup_printf ("SELECT * FROM \"%s\" WHERE pk = ? AND sk >= ? AND bin = ?", table));
  g_ptr_array_add (parameters, partiql_parameters (parameters_json));
  expected = partiql_read (statements->pdata[0], parameters_json, &pages);
  /* Five items of the six (one has other bytes), over more than one page. */
  g_assert_cmpuint (expected->len, ==, 5);
  g_assert_cmpuint (pages, >, 1);

  for (guint i = 0; i < RUN_LANGS; i++)
    {
      g_autoptr(GPtrArray) got = NULL;

      if (S.tool[run_langs[i]] == NULL)
        continue;
      got = run_partiql (run_langs[i], statements, parameters);
      assert_items_equal (run_langs[i], got, expected);
      ran++;
    }
  if (ran == 0)
    g_test_skip ("no SDK tool to run the snippets with");
}

static void
test_partiql_insert (void)
{
  const char *table = ensure_partiql_table ();
  guint ran = 0;

  if (table == NULL)
    return;
  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      const char *name = dyn_snippet_language_to_string (lang);
      g_autoptr(GPtrArray) statements = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) parameters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_autoptr(GPtrArray) got = NULL;
      g_autoptr(DynValue) key = NULL;
      g_autoptr(DynValue) stored = NULL;
      g_autoptr(DynValue) expected = NULL;
      g_autofree char *values = NULL;

      if (S.tool[lang] == NULL)
        continue;
      values = g_strdup_printf ("[{\"S\":\"INS#%s\"},{\"N\":\"" PARTIQL_BIG "\"},{\"B\":\"AAH/\"},"
                                "{\"N\":\"" PARTIQL_SMALL "\"},{\"SS\":[\"a\",\"it's\"]},"
                                "{\"M\":{\"deep\":{\"L\":[{\"NULL\":true},{\"BOOL\":false},{\"BS\":[\"AQ==\"]}]}}}]",
                                name);
      g_ptr_array_add (statements, g_strdup_printf (
        "INSERT INTO \"%s\" VALUE {'pk': ?, 'sk': ?, 'bin': ?, 'small': ?, 'tags': ?, 'it''s': ?}", table));
      g_ptr_array_add (parameters, partiql_parameters (values));
      got = run_partiql (lang, statements, parameters);
      g_assert_cmpuint (got->len, ==, 0);

      key = dyn_test_itemf ("{\"pk\":{\"S\":\"INS#%s\"},\"sk\":{\"N\":\"" PARTIQL_BIG "\"}}", name);
      stored = dyn_test_get_item (S.client, table, key, TRUE);
      expected = dyn_test_itemf ("{\"pk\":{\"S\":\"INS#%s\"},\"sk\":{\"N\":\"" PARTIQL_BIG "\"},"
                                 "\"bin\":{\"B\":\"AAH/\"},\"small\":{\"N\":\"" PARTIQL_SMALL "\"},"
                                 "\"tags\":{\"SS\":[\"a\",\"it's\"]},"
                                 "\"it's\":{\"M\":{\"deep\":{\"L\":[{\"NULL\":true},{\"BOOL\":false},{\"BS\":[\"AQ==\"]}]}}}}",
                                 name);
      g_assert_nonnull (stored);
      if (!dyn_value_equal (stored, expected))
        {
          g_autofree char *a = dyn_item_to_ddb_json_string (stored);

          g_error ("%s: INSERT stored %s", dyn_snippet_language_get_label (lang), a);
        }
      ran++;
    }
  if (ran == 0)
    g_test_skip ("no SDK tool to run the snippets with");
}

static void
test_partiql_transaction (void)
{
  const char *table = ensure_partiql_table ();
  guint ran = 0;

  if (table == NULL)
    return;
  for (guint i = 0; i < RUN_LANGS; i++)
    {
      DynSnippetLanguage lang = run_langs[i];
      const char *name = dyn_snippet_language_to_string (lang);
      g_autoptr(GPtrArray) writes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) write_params = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_autoptr(GPtrArray) reads = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) read_params = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_autoptr(GPtrArray) got = NULL;
      g_autoptr(GPtrArray) expected = dyn_test_item_array_new ();
      g_autofree char *insert = NULL, *key = NULL;

      if (S.tool[lang] == NULL)
        continue;
      /* Two writes: an INSERT, and an UPDATE of another item. */
      g_ptr_array_add (writes, g_strdup_printf ("INSERT INTO \"%s\" VALUE {'pk': ?, 'sk': ?, 'n': ?}", table));
      insert = g_strdup_printf ("[{\"S\":\"TX#%s\"},{\"N\":\"1\"},{\"N\":\"" PARTIQL_BIG "\"}]", name);
      g_ptr_array_add (write_params, partiql_parameters (insert));
      g_ptr_array_add (writes, g_strdup_printf ("UPDATE \"%s\" SET n = ? WHERE pk = ? AND sk = ?", table));
      g_ptr_array_add (write_params, partiql_parameters ("[{\"B\":\"AP8=\"},{\"S\":\"P\"},{\"N\":\"7\"}]"));
      got = run_partiql (lang, writes, write_params);
      g_assert_cmpuint (got->len, ==, 0);
      g_clear_pointer (&got, g_ptr_array_unref);

      /* Two reads by full key: both items, as the writes left them. */
      key = g_strdup_printf ("[{\"S\":\"TX#%s\"},{\"N\":\"1\"}]", name);
      g_ptr_array_add (reads, g_strdup_printf ("SELECT pk, sk, n FROM \"%s\" WHERE pk = ? AND sk = ?", table));
      g_ptr_array_add (read_params, partiql_parameters (key));
      g_ptr_array_add (reads, g_strdup_printf ("SELECT pk, sk, n FROM \"%s\" WHERE pk = ? AND sk = ?", table));
      g_ptr_array_add (read_params, partiql_parameters ("[{\"S\":\"P\"},{\"N\":\"7\"}]"));
      g_ptr_array_add (expected, dyn_test_itemf ("{\"pk\":{\"S\":\"TX#%s\"},\"sk\":{\"N\":\"1\"},"
                                                 "\"n\":{\"N\":\"" PARTIQL_BIG "\"}}", name));
      g_ptr_array_add (expected, dyn_test_item ("{\"pk\":{\"S\":\"P\"},\"sk\":{\"N\":\"7\"},\"n\":{\"B\":\"AP8=\"}}"));
      got = run_partiql (lang, reads, read_params);
      assert_items_equal (lang, got, expected);
      ran++;
    }
  if (ran == 0)
    g_test_skip ("no SDK tool to run the snippets with");
}

static void
test_partiql_go_java (void)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autoptr(GPtrArray) two = g_ptr_array_new ();
  g_autoptr(GPtrArray) one_params = g_ptr_array_new ();
  g_autoptr(GPtrArray) two_params = g_ptr_array_new ();
  g_autoptr(DynValue) values = partiql_parameters ("[{\"S\":\"it's \\\"x\\\"\"},{\"N\":\"" PARTIQL_BIG "\"},"
                                                   "{\"B\":\"AAH/\"},{\"SS\":[\"a\"]},{\"L\":[{\"NULL\":true}]}]");

  check_tools ();
  g_ptr_array_add (one, (gpointer) "SELECT * FROM \"Work-spaces\" WHERE pk = ? AND sk > ? AND bin = ? AND tags = ? AND l = ?");
  g_ptr_array_add (one_params, values);
  g_ptr_array_add (two, (gpointer) "UPDATE \"Work-spaces\" SET n = ? WHERE pk = 'a' AND sk = ? AND b = ? AND t = ? AND l = ?");
  g_ptr_array_add (two, (gpointer) "DELETE FROM \"Work-spaces\" WHERE pk = 'b' AND sk = 2");
  g_ptr_array_add (two_params, values);
  g_ptr_array_add (two_params, NULL);

  for (guint round = 0; round < 2; round++)
    {
      GPtrArray *statements = round == 0 ? one : two;
      GPtrArray *parameters = round == 0 ? one_params : two_params;
      g_autofree char *go = dyn_snippet_generate_partiql (DYN_SNIPPET_GO, statements, parameters,
                                                          "http://localhost:8000", "eu-central-1");
      g_autofree char *java = dyn_snippet_generate_partiql (DYN_SNIPPET_JAVA, statements, parameters,
                                                            "http://localhost:8000", "eu-central-1");
      g_autofree char *go_plain = dyn_snippet_generate_partiql (DYN_SNIPPET_GO, statements, NULL, NULL, NULL);
      g_autofree char *java_plain = dyn_snippet_generate_partiql (DYN_SNIPPET_JAVA, statements, NULL, NULL, NULL);

      if (g_test_verbose ())
        g_test_message ("%s\n%s\n%s\n%s", go, java, go_plain, java_plain);
      assert_balanced (go, "Go");
      assert_balanced (java, "Java");
      assert_balanced (go_plain, "Go");
      assert_balanced (java_plain, "Java");
      assert_contains (go, "o.BaseEndpoint = aws.String(\"http://localhost:8000\")");
      assert_contains (go, "config.LoadDefaultConfig(ctx, config.WithRegion(\"eu-central-1\"))");
      assert_contains (java, ".endpointOverride(URI.create(\"http://localhost:8000\"))");
      assert_contains (go, "&types.AttributeValueMemberN{Value: \"" PARTIQL_BIG "\"}");
      assert_contains (go, "&types.AttributeValueMemberB{Value: []byte(\"\\x00\\x01\\xff\")}");
      assert_contains (go, "&types.AttributeValueMemberS{Value: \"it's \\\"x\\\"\"}");
      assert_contains (java, "AttributeValue.builder().n(\"" PARTIQL_BIG "\").build()");
      assert_contains (java, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"AAH/\"))");
      assert_contains (go_plain, "client := dynamodb.NewFromConfig(cfg)\n");
      assert_contains (java_plain, "DynamoDbClient client = DynamoDbClient.create()");
      assert_lacks (go_plain, "Parameters");
      assert_lacks (java_plain, ".parameters(");
      assert_lacks (go, "Credentials");
      assert_lacks (java, "Credentials");
      if (round == 0)
        {
          assert_contains (go, "client.ExecuteStatement(ctx, input)");
          assert_contains (go, "input.NextToken = page.NextToken");
          assert_contains (go, "Statement: aws.String(\"SELECT * FROM \\\"Work-spaces\\\" WHERE pk = ?");
          assert_contains (java, "client.executeStatement(request)");
          assert_contains (java, ".nextToken(nextToken)");
        }
      else
        {
          assert_contains (go, "client.ExecuteTransaction(ctx, input)");
          assert_contains (go, "TransactStatements: []types.ParameterizedStatement{");
          assert_contains (java, "client.executeTransaction(request)");
          assert_contains (java, "ParameterizedStatement.builder()");
        }
      check_gofmt (go);
      check_gofmt (go_plain);
      check_javac (java);
      check_javac (java_plain);
    }
}

/* The CLI, boto3 and JavaScript texts without running them: the statement
 * is one literal, written once and sent unchanged with each NextToken. */
static void
test_partiql_text (void)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  g_autofree char *cli = NULL, *py = NULL, *js = NULL;

  g_ptr_array_add (one, (gpointer) "SELECT * FROM \"t\" WHERE pk = 'it''s' -- x");
  cli = dyn_snippet_generate_partiql (DYN_SNIPPET_CLI, one, NULL, NULL, "us-west-2");
  assert_contains (cli, "statement='SELECT * FROM \"t\" WHERE pk = '\\''it'\\'''\\''s'\\'' -- x'\n");
  assert_contains (cli, "--statement=\"$statement\"");
  assert_contains (cli, "--next-token=\"$token\"");
  assert_contains (cli, "--region=us-west-2");
  assert_lacks (cli, "--parameters");
  assert_lacks (cli, "--endpoint-url");
  py = dyn_snippet_generate_partiql (DYN_SNIPPET_BOTO3, one, NULL, NULL, NULL);
  assert_contains (py, "client = boto3.client(\"dynamodb\")\n");
  assert_contains (py, "params[\"NextToken\"] = response[\"NextToken\"]");
  assert_lacks (py, "Parameters");
  js = dyn_snippet_generate_partiql (DYN_SNIPPET_JS, one, NULL, NULL, NULL);
  assert_contains (js, "new DynamoDBClient({})");
  assert_contains (js, "input.NextToken = response.NextToken;");
}

int
main (int argc, char **argv)
{
  int ret;

  dyn_test_init (&argc, &argv);

  g_test_add_func ("/dyn/snippet/languages", test_languages);
  g_test_add_func ("/dyn/snippet/quoting", test_quoting);
  g_test_add_func ("/dyn/snippet/go-java", test_go_java);
  g_test_add_func ("/dyn/snippet/query-begins-with", test_query_begins_with);
  g_test_add_func ("/dyn/snippet/query-start-key", test_query_start_key);
  g_test_add_func ("/dyn/snippet/query-gsi", test_query_gsi);
  g_test_add_func ("/dyn/snippet/query-count", test_query_count);
  g_test_add_func ("/dyn/snippet/scan-filter", test_scan_filter);
  g_test_add_func ("/dyn/snippet/scan-segment", test_scan_segment);
  g_test_add_func ("/dyn/snippet/get-projection", test_get_projection);
  g_test_add_func ("/dyn/snippet/put-condition", test_put_condition);
  g_test_add_func ("/dyn/snippet/update", test_update);
  g_test_add_func ("/dyn/snippet/delete-condition", test_delete_condition);
  g_test_add_func ("/dyn/snippet/multikey/query", test_multikey_query);
  g_test_add_func ("/dyn/snippet/multikey/go-java", test_multikey_go_java);
  g_test_add_func ("/dyn/snippet/read-options/query", test_read_options_query);
  g_test_add_func ("/dyn/snippet/read-options/scan", test_read_options_scan);
  g_test_add_func ("/dyn/snippet/read-options/gsi", test_read_options_gsi);
  g_test_add_func ("/dyn/snippet/read-options/count", test_read_options_count);
  g_test_add_func ("/dyn/snippet/read-options/limit-zero", test_read_options_limit_zero);
  g_test_add_func ("/dyn/snippet/read-options/get-item", test_read_get_item);
  g_test_add_func ("/dyn/snippet/partiql/text", test_partiql_text);
  g_test_add_func ("/dyn/snippet/partiql/go-java", test_partiql_go_java);
  g_test_add_func ("/dyn/snippet/partiql/select-pages", test_partiql_select_pages);
  g_test_add_func ("/dyn/snippet/partiql/insert", test_partiql_insert);
  g_test_add_func ("/dyn/snippet/partiql/transaction", test_partiql_transaction);

  ret = g_test_run ();

  if (S.client != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (partiql_table != NULL)
        {
          dyn_test_delete_table (S.client, partiql_table, &error);
          g_assert_no_error (error);
        }
      dyn_test_delete_table (S.client, S.table, &error);
      g_assert_no_error (error);
      g_assert_finalize_object (S.client);
    }
  if (S.home != NULL)
    remove_tree (S.home);
  g_free (S.home);
  g_free (S.table);
  g_free (partiql_table);
  g_free (S.node_modules);
  for (guint i = 0; i < DYN_SNIPPET_N_LANGUAGES; i++)
    g_free (S.tool[i]);
  return ret;
}
