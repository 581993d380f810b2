/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Import and export against faults: the fault server's proxy mode in front
 * of DynamoDB Local (throttling, 500s, connections reset before and after
 * the request was applied, partial batches, delays), and the real
 * dynoscope-cli killed with SIGKILL at random points and resumed. Each case
 * ends by comparing the table (or the export file) with what the file says,
 * item by item.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "dyn-fault-server.h"
#include "dyn-json.h"
#include "dyn-pager.h"
#include "dyn-request.h"
#include "dyn-test-util.h"
#include "dyn-transfer.h"

static char *state_root;   /* a private XDG_STATE_HOME for this process */

/* ------------------------------------------------------------------ helpers */

static DynClient *
client_for_url (const char *url,
                guint       max_attempts)
{
  g_autoptr(DynCredentialsProvider) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynClient *client;

  creds = dyn_credentials_provider_new_static (DYN_TEST_ACCESS_KEY, DYN_TEST_SECRET_KEY, NULL);
  client = dyn_client_new (url, DYN_TEST_REGION, creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, max_attempts, 5, 5);
  dyn_client_set_timeouts (client, 5000, 120000);
  return client;
}

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  if (dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "faults"))
    dyn_test_fixture_create_table (fx, "id:S", "n:N", NULL);
}

static DynFaultServer *
proxy_new (DynTestFixture *fx)
{
  return dyn_fault_server_new_proxy (dyn_test_server_get_endpoint (fx->server));
}

static DynValue *
get_direct (DynTestFixture *fx,
            const char     *id,
            const char     *n)
{
  g_autoptr(DynValue) key = dyn_test_itemf ("{\"id\":{\"S\":\"%s\"},\"n\":{\"N\":\"%s\"}}", id, n);

  return dyn_test_get_item (fx->client, fx->table, key, TRUE);
}

/* ------------------------------------------------------------- the proxy */

static void
test_proxy_forwards (DynTestFixture *fx,
                     gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) put = NULL;
  g_autoptr(DynResponse) get = NULL;
  g_autoptr(DynResponse) scan = NULL;

  put = dyn_test_callf (client, "PutItem", &error,
                        "{\"TableName\":\"%s\",\"Item\":{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"},"
                        "\"v\":{\"S\":\"Grüße 日本\"}},\"ReturnConsumedCapacity\":\"TOTAL\"}", fx->table);
  g_assert_no_error (error);
  g_assert_cmpfloat (put->write_units, ==, 1.0);
  get = dyn_test_callf (client, "GetItem", &error,
                        "{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}}}", fx->table);
  g_assert_no_error (error);
  g_assert_nonnull (get->item);
  g_assert_cmpstr (dyn_test_item_get_string (get->item, "v"), ==, "Grüße 日本");
  /* An error of the upstream comes back as it is. */
  scan = dyn_test_callf (client, "Scan", &error, "{\"TableName\":\"%s-missing\"}", fx->table);
  dyn_test_assert_service_error (error, DYN_ERROR_NOT_FOUND, "ResourceNotFoundException");
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, 3);
  g_assert_cmpuint (dyn_fault_server_get_request_count (proxy), ==, 3);
  g_assert_cmpstr (dyn_fault_server_get_request_header (proxy, 0, "X-Amz-Target"), ==,
                   "DynamoDB_20120810.PutItem");
  dyn_fault_server_free (proxy);
}

static DynResponse *
put_through (DynClient  *client,
             const char *table,
             const char *id,
             GError    **error)
{
  return dyn_test_callf (client, "PutItem", error,
                         "{\"TableName\":\"%s\",\"Item\":{\"id\":{\"S\":\"%s\"},\"n\":{\"N\":\"7\"}}}",
                         table, id);
}

static void
test_proxy_reset_after_applies (DynTestFixture *fx,
                                gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) put = NULL;
  g_autoptr(DynValue) item = NULL;

  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_RESET_AFTER, 0, 1, 0);
  put = put_through (client, fx->table, "after", &error);
  g_assert_null (put);
  g_assert_error (error, G_IO_ERROR, error->code);
  g_test_message ("the client saw: %s", error->message);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_RESET_AFTER), ==, 1);
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, 1);

  /* Applied, though the client was never told. */
  item = get_direct (fx, "after", "7");
  g_assert_nonnull (item);
  dyn_fault_server_free (proxy);
}

static void
test_proxy_reset_before_does_not_apply (DynTestFixture *fx,
                                        gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) put = NULL;
  g_autoptr(DynResponse) again = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) second = NULL;

  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_RESET_BEFORE, 0, 1, 0);
  put = put_through (client, fx->table, "before", &error);
  g_assert_null (put);
  g_assert_error (error, G_IO_ERROR, error->code);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_RESET_BEFORE), ==, 1);
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, 0);
  item = get_direct (fx, "before", "7");
  g_assert_null (item);

  /* Rules can be cleared at any time; then it forwards again. */
  dyn_fault_server_proxy_clear_rules (proxy);
  g_clear_error (&error);
  again = put_through (client, fx->table, "before", &error);
  g_assert_no_error (error);
  second = get_direct (fx, "before", "7");
  g_assert_nonnull (second);
  dyn_fault_server_free (proxy);
}

static void
test_proxy_errors_not_forwarded (DynTestFixture *fx,
                                 gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) r1 = NULL;
  g_autoptr(DynResponse) r2 = NULL;
  g_autoptr(DynResponse) r3 = NULL;
  g_autoptr(DynResponse) r4 = NULL;
  g_autoptr(DynValue) item = NULL;

  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_THROTTLE, 0, 2, 0);
  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_ERROR_500, 0, 1, 0);
  dyn_fault_server_proxy_add_rule (proxy, "DescribeTable", DYN_PROXY_THROTTLE, 0, 1, 0);

  r1 = put_through (client, fx->table, "e1", &error);    /* 1st: the 500 rule */
  dyn_test_assert_service_error (error, DYN_ERROR_SERVER, "InternalServerError");
  g_clear_error (&error);
  r2 = put_through (client, fx->table, "e2", &error);    /* 2nd: throttled */
  dyn_test_assert_service_error (error, DYN_ERROR_THROTTLED, "ProvisionedThroughputExceededException");
  g_clear_error (&error);
  r3 = dyn_test_callf (client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  dyn_test_assert_service_error (error, DYN_ERROR_THROTTLED, "ThrottlingException");
  g_clear_error (&error);

  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_THROTTLE), ==, 2);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_ERROR_500), ==, 1);
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, 0);
  item = get_direct (fx, "e1", "7");
  g_assert_null (item);
  g_clear_pointer (&item, dyn_value_unref);
  item = get_direct (fx, "e2", "7");
  g_assert_null (item);

  /* A client that retries gets through (the third PutItem hits the 500
   * rule, its retry the throttle, the one after that the 500 again …);
   * with the rules gone everything passes. */
  dyn_fault_server_proxy_clear_rules (proxy);
  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_ERROR_500, 0, 2, 0);
  {
    g_autoptr(DynClient) patient = client_for_url (dyn_fault_server_get_url (proxy), 3);
    r4 = put_through (patient, fx->table, "e3", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (r4->attempts, >=, 1);
  }
  g_clear_pointer (&item, dyn_value_unref);
  item = get_direct (fx, "e3", "7");
  g_assert_nonnull (item);
  dyn_fault_server_free (proxy);
}

static void
test_proxy_partial_batch (DynTestFixture *fx,
                          gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GString) body = g_string_new (NULL);
  guint total_unprocessed = 0;

  dyn_fault_server_proxy_set_seed (proxy, 42);
  /* A delay lets the later rules decide. */
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_DELAY, 0, 1, 5);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_PARTIAL_BATCH, 0, 1, 0);

  for (guint round = 0; round < 4; round++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = NULL;
      JsonObject *unprocessed;
      JsonArray *left;
      g_autoptr(GHashTable) unsent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      g_string_printf (body, "{\"TableName\":\"x\",\"RequestItems\":{\"%s\":[", fx->table);
      for (guint i = 0; i < 25; i++)
        g_string_append_printf (body, "%s{\"PutRequest\":{\"Item\":{\"id\":{\"S\":\"b%u\"},\"n\":{\"N\":\"%u\"}}}}",
                                i ? "," : "", round, i);
      g_string_append (body, "]},\"ReturnConsumedCapacity\":\"TOTAL\"}");
      response = dyn_test_call (client, "BatchWriteItem", body->str, &error);
      g_assert_no_error (error);

      unprocessed = dyn_json_object_get_object (json_node_get_object (response->root), "UnprocessedItems");
      g_assert_nonnull (unprocessed);
      left = dyn_json_object_get_array (unprocessed, fx->table);
      g_assert_nonnull (left);   /* at least one is always held back */
      g_assert_cmpuint (json_array_get_length (left), >=, 1);
      g_assert_cmpuint (json_array_get_length (left), <=, 25);
      total_unprocessed += json_array_get_length (left);
      for (guint i = 0; i < json_array_get_length (left); i++)
        {
          JsonObject *put = json_object_get_object_member (json_array_get_object_element (left, i), "PutRequest");
          JsonObject *item = json_object_get_object_member (put, "Item");
          const char *n = json_object_get_string_member (json_object_get_object_member (item, "n"), "N");
          g_hash_table_add (unsent, g_strdup (n));
        }

      /* Exactly the ones not answered as unprocessed are in the table. */
      for (guint i = 0; i < 25; i++)
        {
          g_autofree char *id = g_strdup_printf ("b%u", round);
          g_autofree char *n = g_strdup_printf ("%u", i);
          g_autoptr(DynValue) item = get_direct (fx, id, n);

          if (g_hash_table_contains (unsent, n))
            g_assert_null (item);
          else
            g_assert_nonnull (item);
        }
    }
  g_assert_cmpuint (total_unprocessed, <, 100);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_PARTIAL_BATCH), ==, 4);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_DELAY), ==, 4);
  dyn_fault_server_free (proxy);
}

static guint64 count_items (DynClient *client, const char *table);

/* ---------------------------------------------------------- the test file */

/* A seed for this case: DYN_FAULT_SEED or g_test_rand (itself seeded by
 * --seed), printed so that a failure can be repeated. */
static GRand *
case_rand (void)
{
  const char *env = g_getenv ("DYN_FAULT_SEED");
  guint32 seed = env ? (guint32) g_ascii_strtoull (env, NULL, 10)
                     : (guint32) g_test_rand_int () ^ g_str_hash (g_test_get_path ());

  g_test_message ("seed %u (DYN_FAULT_SEED=%u repeats this case)", seed, seed);
  return g_rand_new_with_seed (seed);
}

/* "id\\x1fn" of an item of the test table (n is an integer, written as
 * DynamoDB returns it). */
static char *
item_key (DynValue *item)
{
  const char *id = dyn_test_item_get_string (item, "id");
  const char *n = dyn_test_item_get_number (item, "n");

  g_assert_nonnull (id);
  g_assert_nonnull (n);
  return g_strdup_printf ("%s\x1f%s", id, n);
}

typedef struct
{
  char       *path;
  guint       lines;
  guint       duplicates;
  GHashTable *expected;   /* item_key → DynValue, the key's last line */
  GHashTable *first;      /* item_key → DynValue, the key's first line (never-overwrite) */
  GHashTable *dup_lines;  /* line numbers (from 1) of lines whose key an earlier line had */
} TestFile;

static void
test_file_free (TestFile *f)
{
  g_unlink (f->path);
  g_free (f->path);
  g_hash_table_unref (f->expected);
  g_hash_table_unref (f->first);
  g_hash_table_unref (f->dup_lines);
  g_free (f);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestFile, test_file_free)

static void
append_random_text (GString *out,
                    GRand   *rand,
                    guint    len)
{
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789 ";

  for (guint i = 0; i < len; i++)
    g_string_append_c (out, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
}

/* One line: key (id S, n N) and attributes of every type, chosen by @variant. */
static void
append_item_line (GString    *line,
                  GRand      *rand,
                  guint       row,
                  const char *id,
                  int         n,
                  const char *value,
                  gboolean    large)
{
  guint variant = g_rand_int_range (rand, 0, 6);
  guint8 bytes[16];

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = g_rand_int_range (rand, 0, 256);
  g_autofree char *b64 = g_base64_encode (bytes, 1 + row % sizeof bytes);

  g_string_append_printf (line, "{\"id\":{\"S\":\"%s\"},\"n\":{\"N\":\"%d\"},\"v\":{\"S\":\"%s\"}", id, n, value);
  g_string_append_printf (line, ",\"row\":{\"N\":\"%u\"}", row);
  switch (variant)
    {
    case 0:
      g_string_append (line, ",\"big\":{\"N\":\"12345678901234567890123456789012345678\"},"
                       "\"small\":{\"N\":\"-0.0000000000000000000000000000000000001\"},"
                       "\"text\":{\"S\":\"Grüße, \\\"quoted\\\", tab\\t and\\nnewline 日本 🎉\"}");
      break;
    case 1:
      g_string_append_printf (line, ",\"bin\":{\"B\":\"%s\"},\"flag\":{\"BOOL\":%s},\"none\":{\"NULL\":true},"
                              "\"empty\":{\"S\":\"\"},\"emptybin\":{\"B\":\"\"}", b64, row % 2 ? "true" : "false");
      break;
    case 2:
      g_string_append_printf (line, ",\"ss\":{\"SS\":[\"a\",\"b,c\",\"%u\"]},\"ns\":{\"NS\":[\"1\",\"-2.5\",\"1E+100\"]},"
                              "\"bs\":{\"BS\":[\"%s\",\"AQID\"]}", row, b64);
      break;
    case 3:
      g_string_append_printf (line, ",\"list\":{\"L\":[{\"S\":\"x\"},{\"N\":\"%u\"},{\"L\":[]},{\"M\":{}},{\"NULL\":true}]}", row);
      break;
    case 4:
      g_string_append_printf (line, ",\"deep\":{\"M\":{\"a\":{\"M\":{\"b\":{\"M\":{\"c\":{\"L\":[{\"M\":{\"d\":{\"N\":\"%u\"},"
                              "\"e\":{\"SS\":[\"z\"]}}}]}}}}},\"f\":{\"BOOL\":true}}}", row);
      break;
    default:
      g_string_append (line, ",\"text\":{\"S\":\"");
      append_random_text (line, rand, 20 + g_rand_int_range (rand, 0, 300));
      g_string_append (line, "\"}");
      break;
    }
  if (large)
    {
      /* Near the 400 KB limit. */
      g_string_append (line, ",\"large\":{\"S\":\"");
      append_random_text (line, rand, 300 * 1024);
      g_string_append (line, "\"}");
    }
  g_string_append (line, "}\n");
}

/* ~@items lines of DynamoDB JSON: keys of three sort values per id (a
 * numeric sort key, negative too), every type, every 23rd line a new value
 * for the key of a line ~40 back (so a key's last line may come after a
 * resume point), four ~300 KB items, and the first key written again on the
 * last line. */
static TestFile *
test_file_new (GRand   *rand,
               guint    items,
               gboolean duplicates)
{
  TestFile *f = g_new0 (TestFile, 1);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  char *item_key_tmp = NULL;
  int fd;

  f->expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
  f->first = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
  f->dup_lines = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < items; i++)
    {
      g_autofree char *id = g_strdup_printf ("k%04u", i / 3);
      g_autofree char *value = g_strdup_printf ("first-%u", i);
      gboolean large = i == 7 || i == items / 3 || i == items / 2 || i == items - 5;

      append_item_line (text, rand, i, id, (int) (i % 3) * 10 - 5, value, large);
      if (duplicates && i % 23 == 22 && i >= 40)
        {
          guint j = i - 40 + g_rand_int_range (rand, 0, 10);
          g_autofree char *dup_id = g_strdup_printf ("k%04u", j / 3);
          g_autofree char *dup_value = g_strdup_printf ("again-%u-of-%u", i, j);

          append_item_line (text, rand, i, dup_id, (int) (j % 3) * 10 - 5, dup_value, FALSE);
          f->duplicates++;
        }
    }
  if (duplicates)
    {
      append_item_line (text, rand, items, "k0000", -5, "last-line", FALSE);
      f->duplicates++;
    }

  fd = g_file_open_tmp ("dyn-faults-XXXXXX.jsonl", &f->path, &error);
  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (f->path, text->str, text->len, &error);
  g_assert_no_error (error);

  lines = g_strsplit (text->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      DynValue *item;

      if (*lines[i] == '\0')
        continue;
      item = dyn_json_decode_ddb_item (lines[i], strlen (lines[i]), &error);
      g_assert_no_error (error);
      f->lines++;
      if (g_hash_table_contains (f->first, item_key_tmp = item_key (item)))
        g_hash_table_add (f->dup_lines, GUINT_TO_POINTER (f->lines));
      else
        g_hash_table_insert (f->first, g_strdup (item_key_tmp), dyn_value_ref (item));
      g_clear_pointer (&item_key_tmp, g_free);
      g_hash_table_replace (f->expected, item_key (item), item);
    }
  g_assert_cmpuint (g_hash_table_size (f->dup_lines), ==, f->duplicates);
  g_test_message ("%s: %u lines, %u distinct keys, %u lines repeat a key, %zu bytes",
                  f->path, f->lines, g_hash_table_size (f->expected), f->duplicates, text->len);
  return f;
}

static GPtrArray *
scan_all (DynClient  *client,
          const char *table)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, table);
  g_autoptr(DynPager) pager = dyn_pager_new (client, request);
  g_autoptr(GError) error = NULL;
  GPtrArray *items = dyn_test_pager_run (pager, 1, 0, &error);

  g_assert_no_error (error);
  return items;
}

static char *
ddb_json (const DynValue *item)
{
  g_autoptr(GString) out = g_string_new (NULL);

  dyn_json_append_ddb_item (out, item);
  if (out->len > 300)
    {
      g_string_truncate (out, 300);
      g_string_append (out, "…");
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Asserts that @items (a Scan of the table, or an export read back) are
 * exactly @f's final items: each key once, with its last line's value. */
static void
assert_items_are (GPtrArray  *items,
                  GHashTable *expected,
                  const char *what)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint wrong = 0, duplicated = 0;

  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      g_autofree char *key = item_key (item);
      DynValue *want = g_hash_table_lookup (expected, key);

      if (g_hash_table_contains (seen, key))
        {
          if (duplicated++ < 5)
            g_test_message ("%s: %s twice", what, key);
          continue;
        }
      g_hash_table_add (seen, g_steal_pointer (&key));
      if (want == NULL || !dyn_value_equal (item, want))
        {
          if (wrong++ < 5)
            {
              g_autofree char *got = ddb_json (item);
              g_autofree char *wanted = want ? ddb_json (want) : g_strdup ("(not in the file)");
              g_test_message ("%s: got %s\n  want %s", what, got, wanted);
            }
        }
    }
  g_test_message ("%s: %u items, %u distinct, %u wrong, %u duplicated; the file has %u",
                  what, items->len, g_hash_table_size (seen), wrong, duplicated,
                  g_hash_table_size (expected));
  g_assert_cmpuint (duplicated, ==, 0);
  g_assert_cmpuint (wrong, ==, 0);
  g_assert_cmpuint (g_hash_table_size (seen), ==, g_hash_table_size (expected));
}

/* Each key once, with its last line's value. */
static void
assert_items_are_file (GPtrArray  *items,
                       TestFile   *f,
                       const char *what)
{
  assert_items_are (items, f->expected, what);
}

/* The table holds exactly @f's items: each with its last line's value, or
 * with never-overwrite its first line's (the later lines of a key are
 * reported as existing and left). */
static void
assert_table_is_file (DynTestFixture *fx,
                      TestFile       *f,
                      gboolean        never_overwrite)
{
  g_autoptr(GPtrArray) items = scan_all (fx->client, fx->table);

  assert_items_are (items, never_overwrite ? f->first : f->expected, "table");
}

static DynTableKeys *
table_keys (DynTestFixture *fx)
{
  return dyn_table_keys_new (fx->table, "id", DYN_VALUE_S, "n", DYN_VALUE_N);
}

/* ------------------------------------------- import through the fault proxy */

typedef struct
{
  guint   runs;
  guint64 existing;
  guint64 identical;
  guint   retries;
  guint   false_exists;       /* EXISTS for a line that does not repeat a key */
  GHashTable *exists_lines;   /* lines reported EXISTS */
} ImportTally;

static void
tally_clear (ImportTally *t)
{
  g_clear_pointer (&t->exists_lines, g_hash_table_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ImportTally, tally_clear)

/* Runs the import job once; resumes when its checkpoint exists. */
static gboolean
import_run (DynClient          *client,
            const char         *table,
            const DynTableKeys *keys,
            TestFile           *f,
            gboolean            never_overwrite,
            guint               concurrency,
            ImportTally        *tally,
            GError            **error)
{
  g_autofree char *checkpoint = dyn_import_checkpoint_path (dyn_client_get_endpoint (client), table, f->path);
  DynImportOptions options = {
    .format = DYN_TRANSFER_FORMAT_DDB_JSON,
    .input = f->path,
    .never_overwrite = never_overwrite,
    .concurrency = concurrency,
    .resume = g_file_test (checkpoint, G_FILE_TEST_EXISTS),
  };
  g_autoptr(DynImportJob) job = dyn_import_job_new (client, table, keys, &options, error);
  GAsyncResult *result = NULL;
  const DynTransferProgress *progress;
  GPtrArray *problems;
  gboolean ok;

  if (job == NULL)
    return FALSE;
  dyn_import_job_run_async (job, NULL, NULL, NULL, dyn_test_result_cb, &result);
  ok = dyn_import_job_run_finish (job, dyn_test_wait (&result), error);
  g_clear_object (&result);

  progress = dyn_import_job_get_progress (job);
  problems = dyn_import_job_get_problems (job);
  tally->runs++;
  tally->existing += progress->existing;
  tally->identical += progress->identical;
  tally->retries += progress->retries;
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      DynImportProblem *p = problems->pdata[i];

      if (p->kind != DYN_IMPORT_PROBLEM_EXISTS)
        continue;
      if (tally->exists_lines == NULL)
        tally->exists_lines = g_hash_table_new (NULL, NULL);
      g_hash_table_add (tally->exists_lines, GUINT_TO_POINTER ((guint) p->position.line));
      if (!g_hash_table_contains (f->dup_lines, GUINT_TO_POINTER ((guint) p->position.line)) &&
          tally->false_exists++ < 5)
        g_test_message ("false EXISTS at %s: %s", p->where, p->message);
    }
  g_test_message ("run %u (%s): %s; %" G_GUINT64_FORMAT " written, %u requests, %u retries, "
                  "%" G_GUINT64_FORMAT " identical, %" G_GUINT64_FORMAT " existing",
                  tally->runs, options.resume ? "resumed" : "fresh", ok ? "done" : (*error)->message,
                  dyn_import_job_get_summary (job)->written, progress->requests, progress->retries,
                  progress->identical, progress->existing);
  return ok;
}

static void
assert_exists_are_duplicates (ImportTally *tally,
                              TestFile    *f,
                              gboolean     never_overwrite)
{
  guint reported = tally->exists_lines ? g_hash_table_size (tally->exists_lines) : 0;

  g_test_message ("EXISTS reported for %u lines (%u false); %u lines repeat a key",
                  reported, tally->false_exists, f->duplicates);
  g_assert_cmpuint (tally->false_exists, ==, 0);
  g_assert_cmpuint (reported, ==, never_overwrite ? f->duplicates : 0);
}

/* Imports @f through @proxy, resuming whenever the job gives up. */
static void
import_until_done (DynTestFixture *fx,
                   DynFaultServer *proxy,
                   TestFile       *f,
                   gboolean        never_overwrite,
                   guint           max_attempts,
                   guint           concurrency,
                   ImportTally    *tally)
{
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), max_attempts);
  g_autoptr(DynTableKeys) keys = table_keys (fx);

  for (;;)
    {
      g_autoptr(GError) error = NULL;

      if (import_run (client, fx->table, keys, f, never_overwrite, concurrency, tally, &error))
        break;
      /* Only the faults may stop it: a dropped connection or a retryable
       * error the client gave up on. */
      g_assert_true (dyn_error_is_retryable (error));
      g_assert_cmpuint (tally->runs, <, 400);
    }
}

static void
log_injected (DynFaultServer *proxy)
{
  g_autoptr(GString) line = g_string_new ("injected:");

  for (guint k = 0; k < DYN_PROXY_N_FAULTS; k++)
    g_string_append_printf (line, " %s %u", dyn_proxy_fault_to_string (k),
                            dyn_fault_server_proxy_get_injected (proxy, k));
  g_string_append_printf (line, "; forwarded %u", dyn_fault_server_proxy_get_forwarded (proxy));
  g_test_message ("%s", line->str);
}

static void
add_mixed_faults (DynFaultServer *proxy,
                  double          scale)
{
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_DELAY, 0.05 * scale, 0, 15);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_THROTTLE, 0.08 * scale, 0, 0);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_ERROR_500, 0.05 * scale, 0, 0);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_RESET_BEFORE, 0.05 * scale, 0, 0);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_RESET_AFTER, 0.08 * scale, 0, 0);
  dyn_fault_server_proxy_add_rule (proxy, NULL, DYN_PROXY_PARTIAL_BATCH, 0.3 * scale, 0, 0);
}

static void
test_import_mixed_faults (DynTestFixture *fx,
                          gconstpointer   data)
{
  gboolean never_overwrite = GPOINTER_TO_INT (data);
  DYN_TEST_REQUIRE_SERVER (fx);
  g_autoptr(GRand) rand = case_rand ();
  g_autoptr(TestFile) f = test_file_new (rand, never_overwrite ? 1200 : 3000, TRUE);
  DynFaultServer *proxy = proxy_new (fx);
  g_auto(ImportTally) tally = { 0 };

  dyn_fault_server_proxy_set_seed (proxy, g_rand_int (rand));
  add_mixed_faults (proxy, 1.0);
  import_until_done (fx, proxy, f, never_overwrite, never_overwrite ? 4 : 3, 4, &tally);
  log_injected (proxy);

  for (guint k = 0; k < DYN_PROXY_N_FAULTS; k++)
    if (k != DYN_PROXY_PARTIAL_BATCH || !never_overwrite)
      g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, k), >, 0);
  assert_table_is_file (fx, f, never_overwrite);
  /* Items the job wrote itself before a reset are not someone else's: the
   * only EXISTS are the lines that repeat a key with another value. */
  assert_exists_are_duplicates (&tally, f, never_overwrite);
  if (never_overwrite)
    g_assert_cmpuint (tally.identical, >, 0);
  g_assert_cmpuint (tally.retries, >, 0);
  dyn_fault_server_free (proxy);
}

/* The last batch (or put) is applied and its answer lost: the job gives up
 * (one attempt) and a resume finishes cleanly; with retries it finishes in
 * one run. */
static void
test_import_reset_at_end (DynTestFixture *fx,
                          gconstpointer   data)
{
  gboolean never_overwrite = GPOINTER_TO_INT (data);
  DYN_TEST_REQUIRE_SERVER (fx);
  g_autoptr(GRand) rand = case_rand ();
  g_autoptr(TestFile) f = test_file_new (rand, 60, FALSE);
  DynFaultServer *proxy = proxy_new (fx);
  const char *op = never_overwrite ? "PutItem" : "BatchWriteItem";
  guint last = never_overwrite ? f->lines : (f->lines + 24) / 25;
  g_auto(ImportTally) tally = { 0 };

  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableKeys) keys = table_keys (fx);

  /* The first run: the last request is applied, its answer lost, and the
   * client (one attempt) gives up. */
  dyn_fault_server_proxy_add_rule (proxy, op, DYN_PROXY_RESET_AFTER, 0, last, 0);
  {
    g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
    g_assert_false (import_run (client, fx->table, keys, f, never_overwrite, 1, &tally, &error));
    g_assert_true (dyn_error_is_retryable (error));
  }
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_RESET_AFTER), ==, 1);
  /* Everything is in the table already; the resume must finish cleanly. */
  g_assert_cmpuint (count_items (fx->client, fx->table), ==, g_hash_table_size (f->expected));
  dyn_fault_server_proxy_clear_rules (proxy);
  import_until_done (fx, proxy, f, never_overwrite, 1, 1, &tally);
  log_injected (proxy);
  g_assert_cmpuint (dyn_fault_server_proxy_get_injected (proxy, DYN_PROXY_RESET_AFTER), >=, 1);
  g_assert_cmpuint (tally.runs, ==, 2);
  assert_table_is_file (fx, f, never_overwrite);
  assert_exists_are_duplicates (&tally, f, never_overwrite);
  dyn_fault_server_free (proxy);
}

/* ----------------------------------------------- dynoscope-cli and SIGKILL */

static char *
cli_path (void)
{
  const char *build = g_getenv ("DYN_BUILD_ROOT");

  g_assert_nonnull (build);
  return g_build_filename (build, "app", "dynoscope-cli", NULL);
}

typedef struct
{
  char  *home;
  char  *state;
  GPid   pid;
  char  *log;
  char  *out;     /* the last run's stdout */
} Cli;

static void
cli_init (Cli *cli)
{
  cli->home = g_dir_make_tmp ("dyn-faults-home-XXXXXX", NULL);
  cli->state = g_build_filename (cli->home, "state", NULL);
  cli->log = g_build_filename (cli->home, "stderr.log", NULL);
  cli->out = g_build_filename (cli->home, "stdout.txt", NULL);
  g_mkdir_with_parents (cli->state, 0700);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static void
cli_clear (Cli *cli)
{
  remove_tree (cli->home);
  g_free (cli->home);
  g_free (cli->state);
  g_free (cli->log);
  g_free (cli->out);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Cli, cli_clear)

/* Starts dynoscope-cli --endpoint @endpoint ARGV… in the background (stdout
 * to cli->out, stderr appended to the log). */
static void
cli_spawn (Cli                *cli,
           const char         *endpoint,
           const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) env = g_get_environ ();
  g_autoptr(GError) error = NULL;
  int out = open (cli->out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int err = open (cli->log, O_WRONLY | O_CREAT | O_APPEND, 0600);

  g_ptr_array_add (args, cli_path ());
  g_ptr_array_add (args, g_strdup ("--endpoint"));
  g_ptr_array_add (args, g_strdup (endpoint));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);

  env = g_environ_setenv (env, "HOME", cli->home, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", cli->state, TRUE);
  env = g_environ_unsetenv (env, "AWS_PROFILE");
  env = g_environ_unsetenv (env, "AWS_CONFIG_FILE");
  env = g_environ_unsetenv (env, "AWS_SHARED_CREDENTIALS_FILE");
  env = g_environ_setenv (env, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  env = g_environ_setenv (env, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  env = g_environ_setenv (env, "AWS_REGION", DYN_TEST_REGION, TRUE);
  g_spawn_async_with_fds (NULL, (char **) args->pdata, env, G_SPAWN_DO_NOT_REAP_CHILD,
                          NULL, NULL, &cli->pid, -1, out, err, &error);
  g_assert_no_error (error);
  close (out);
  close (err);
}

/* Whether the child exited; its status then. */
static gboolean
cli_exited (Cli *cli,
            int *status)
{
  pid_t r = waitpid (cli->pid, status, WNOHANG);

  g_assert_cmpint (r, >=, 0);
  return r == cli->pid;
}

static int
cli_kill (Cli *cli)
{
  int status = 0;

  kill (cli->pid, SIGKILL);
  while (waitpid (cli->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (cli->pid);
  return status;
}

static int
cli_wait (Cli *cli)
{
  int status = 0;

  while (waitpid (cli->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (cli->pid);
  return status;
}

static void
cli_log_tail (Cli *cli)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  if (g_file_get_contents (cli->log, &text, &len, NULL) && len > 0)
    g_test_message ("dynoscope-cli stderr (last part):\n%s", text + (len > 1500 ? len - 1500 : 0));
}

/* The table's exact count (a Select=COUNT Scan, page by page). */
static guint64
count_items (DynClient  *client,
             const char *table)
{
  g_autofree char *start = NULL;
  guint64 count = 0;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) r = NULL;
      JsonObject *root;

      if (start != NULL)
        r = dyn_test_callf (client, "Scan", &error,
                            "{\"TableName\":\"%s\",\"Select\":\"COUNT\",\"ExclusiveStartKey\":%s}", table, start);
      else
        r = dyn_test_callf (client, "Scan", &error, "{\"TableName\":\"%s\",\"Select\":\"COUNT\"}", table);
      g_assert_no_error (error);
      root = json_node_get_object (r->root);
      count += json_object_get_int_member (root, "Count");
      g_clear_pointer (&start, g_free);
      if (!json_object_has_member (root, "LastEvaluatedKey"))
        return count;
      start = json_to_string (json_object_get_member (root, "LastEvaluatedKey"), FALSE);
    }
}

/* How far into a run to kill it, in requests the proxy saw: 6–9 kills, the
 * first 0–30 ms after the start (very early, often before any request), the
 * last two in the last two batches (or puts) of the work left, the others
 * anywhere in between. @left: requests the run still has to send at least. */
static guint
kill_point (GRand *rand,
            guint  k,
            guint  n_kills,
            guint  left)
{
  if (k == 0)
    return 0;
  if (k + 2 >= n_kills)
    return left > 2 ? left - (n_kills - k) : 1;
  return g_rand_int_range (rand, 1, MAX (2u, left * 9 / 10));
}

/* The record the import's checkpoint (in the CLI's private state folder)
 * would resume at; 0 without one. */
static guint64
import_checkpoint_record (Cli *cli)
{
  g_autofree char *folder = g_build_filename (cli->state, "dynoscope", "imports", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *position;

      if (!g_str_has_suffix (name, ".json") || !json_parser_load_from_file (parser, path, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        continue;
      position = dyn_json_object_get_object (json_node_get_object (json_parser_get_root (parser)), "position");
      if (position != NULL)
        return json_object_get_int_member_with_default (position, "record", 0);
    }
  return 0;
}

/* The final run's --json result. */
static JsonObject *
cli_result (Cli *cli)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (g_file_get_contents (cli->out, &text, NULL, &error));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* dynoscope-cli import killed with SIGKILL at random points (counted in
 * requests through a proxy that adds a few milliseconds to each write, so
 * that a point is hit, not passed), resumed with --resume each time, and
 * finally run to the end. */
static void
test_kill_import (DynTestFixture *fx,
                  gconstpointer   data)
{
  gboolean never_overwrite = GPOINTER_TO_INT (data);
  DYN_TEST_REQUIRE_SERVER (fx);
  g_autoptr(GRand) rand = case_rand ();
  g_autoptr(TestFile) f = test_file_new (rand, 3000, TRUE);
  guint n_kills = g_rand_int_range (rand, 6, 10);
  DynFaultServer *proxy = proxy_new (fx);
  g_auto(Cli) cli = { 0 };
  g_autoptr(JsonObject) result = NULL;
  guint kills = 0, runs = 0;
  int status = 0;
  const char *argv_batch[] = { "import", fx->table, "--input", f->path, "--resume", "--quiet", "--json", NULL };
  const char *argv_put[] = { "import", fx->table, "--input", f->path, "--resume", "--no-overwrite",
                             "--quiet", "--json", NULL };
  guint per_request = never_overwrite ? 1 : 25;

  cli_init (&cli);
  dyn_fault_server_proxy_add_rule (proxy, "BatchWriteItem", DYN_PROXY_DELAY, 1, 0, 40);
  dyn_fault_server_proxy_add_rule (proxy, "PutItem", DYN_PROXY_DELAY, 1, 0, 1);

  for (guint k = 0; ; k++)
    {
      guint64 before = count_items (fx->client, fx->table);
      guint64 from = import_checkpoint_record (&cli);
      guint left = (f->lines - MIN (from, f->lines) + per_request - 1) / per_request;
      guint point = kill_point (rand, k, n_kills, left);
      guint start = dyn_fault_server_get_request_count (proxy);
      gboolean exited = FALSE;

      cli_spawn (&cli, dyn_fault_server_get_url (proxy), never_overwrite ? argv_put : argv_batch);
      runs++;
      if (k == n_kills)
        {
          status = cli_wait (&cli);
          break;
        }
      if (point == 0)
        g_usleep (g_rand_int_range (rand, 0, 30000));
      else
        while (!(exited = cli_exited (&cli, &status)) &&
               !dyn_fault_server_wait_for_requests (proxy, start + point, 20))
          ;
      if (exited || cli_exited (&cli, &status))
        {
          g_test_message ("run %u finished before its kill point (%u requests)", runs, point);
          g_spawn_close_pid (cli.pid);
          break;
        }
      cli_kill (&cli);
      kills++;
      g_test_message ("killed run %u (from record %" G_GUINT64_FORMAT ", about %u requests to go) after %u: "
                      "%" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " items in the table", runs, from, left,
                      dyn_fault_server_get_request_count (proxy) - start, before,
                      count_items (fx->client, fx->table));
    }
  cli_log_tail (&cli);
  g_test_message ("%u kills, %u runs; last exit status %d", kills, runs, status);
  g_assert_true (WIFEXITED (status));
  result = cli_result (&cli);
  g_test_message ("existing %" G_GINT64_FORMAT ", identical %" G_GINT64_FORMAT ", written %" G_GINT64_FORMAT,
                  json_object_get_int_member (result, "existing"), json_object_get_int_member (result, "identical"),
                  json_object_get_int_member (result, "written"));
  if (never_overwrite)
    {
      JsonArray *problems = json_object_get_array_member (result, "problems");

      /* 3: items left as they were — exactly the lines that repeat a key;
       * an item a killed run wrote is identical, not existing. */
      g_assert_cmpint (WEXITSTATUS (status), ==, 3);
      g_assert_cmpint (json_object_get_int_member (result, "existing"), ==, f->duplicates);
      for (guint i = 0; i < json_array_get_length (problems); i++)
        {
          JsonObject *problem = json_array_get_object_element (problems, i);
          guint line = json_object_get_int_member (problem, "line");

          g_assert_cmpstr (json_object_get_string_member (problem, "kind"), ==, "exists");
          g_assert_true (g_hash_table_contains (f->dup_lines, GUINT_TO_POINTER (line)));
        }
    }
  else
    {
      g_assert_cmpint (WEXITSTATUS (status), ==, 0);
      g_assert_cmpint (json_object_get_int_member (result, "existing"), ==, 0);
    }
  g_assert_cmpuint (kills, >=, 5);
  assert_table_is_file (fx, f, never_overwrite);
  dyn_fault_server_free (proxy);
}

static gboolean
format_from_data (gconstpointer      data,
                  DynTransferFormat *format)
{
  return dyn_transfer_format_from_string (data, format, NULL);
}

static guint64
tree_size (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GStatBuf st;
  guint64 size = 0;
  const char *name;

  if (dir == NULL)
    return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      size += tree_size (child);
    }
  return size;
}

/* Every record of an export, read back with DynItemReader. */
static GPtrArray *
read_export (const char        *path,
             DynTransferFormat  format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (path, format, NULL, &error);
  GPtrArray *items = dyn_test_item_array_new ();

  g_assert_no_error (error);
  for (;;)
    {
      DynValue *item = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &error);

      if (r == DYN_ITEM_READ_END)
        break;
      g_assert_no_error (error);
      g_assert_cmpint (r, ==, DYN_ITEM_READ_ITEM);
      g_ptr_array_add (items, item);
    }
  return items;
}

/* dynoscope-cli export of a table of the file's items, killed with SIGKILL
 * at random points (by the bytes written so far, through a proxy that slows
 * each Scan page), resumed with --resume until it exits 0: the export holds
 * every item exactly once. */
static void
test_kill_export (DynTestFixture *fx,
                  gconstpointer   data)
{
  DynTransferFormat format;
  DYN_TEST_REQUIRE_SERVER (fx);
  g_autoptr(GRand) rand = case_rand ();
  g_autoptr(TestFile) f = test_file_new (rand, 3000, FALSE);
  g_autoptr(GPtrArray) expected = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(GError) error = NULL;
  DynFaultServer *proxy = proxy_new (fx);
  g_auto(Cli) cli = { 0 };
  g_autofree char *reference = NULL;
  g_autofree char *output = NULL;
  g_autofree char *checkpoint = NULL;
  g_autofree char *checkpoint_json = NULL;
  guint64 full_size;
  guint kills = 0, runs = 0, wanted;
  int status = 0;
  GHashTableIter iter;
  gpointer value;

  g_assert_true (format_from_data (data, &format));
  g_hash_table_iter_init (&iter, f->expected);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (expected, dyn_value_ref (value));
  g_assert_true (dyn_test_load_items (fx->client, fx->table, expected, &error));
  g_assert_no_error (error);

  cli_init (&cli);
  reference = g_build_filename (cli.home, "reference", NULL);
  output = g_build_filename (cli.home, "export", NULL);
  checkpoint = dyn_export_checkpoint_path (output);
  checkpoint_json = g_build_filename (checkpoint, "checkpoint.json", NULL);
  {
    /* A run without kills, for the size of a complete export. */
    const char *argv[] = { "export", fx->table, "--format", data, "--output", reference,
                           "--segments", "4", "--quiet", NULL };
    cli_spawn (&cli, dyn_test_server_get_endpoint (fx->server), argv);
    status = cli_wait (&cli);
    cli_log_tail (&cli);
    g_assert_true (WIFEXITED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    full_size = tree_size (reference);
    got = read_export (reference, format);
    assert_items_are_file (got, f, "the export without kills");
    g_clear_pointer (&got, g_ptr_array_unref);
  }

  /* Pages of 100 items (~8 a segment), each a little late: many points
   * between checkpoints to kill at. */
  dyn_fault_server_proxy_set_page_limit (proxy, 100);
  dyn_fault_server_proxy_add_rule (proxy, "Scan", DYN_PROXY_DELAY, 1, 0, 30);
  wanted = g_rand_int_range (rand, 6, 10);
  for (guint k = 0; k <= wanted; k++)
    {
      const char *argv[] = { "export", fx->table, "--format", data, "--output", output,
                             "--segments", "4", "--resume", "--quiet", NULL };
      gboolean exited = FALSE;
      guint64 target;

      cli_spawn (&cli, dyn_fault_server_get_url (proxy), argv);
      runs++;
      if (k == wanted)
        {
          status = cli_wait (&cli);
          break;
        }
      if (k == 0)
        {
          g_usleep (g_rand_int_range (rand, 0, 30000));
          target = 0;
        }
      else
        {
          guint64 now = tree_size (output) + tree_size (checkpoint);
          guint64 left = full_size > now ? full_size - now : 1;

          target = now + g_rand_int_range (rand, 1, (gint32) MIN (left, G_MAXINT32 - 1) + 1);
          while (!(exited = cli_exited (&cli, &status)) &&
                 tree_size (output) + tree_size (checkpoint) < target)
            g_usleep (1000);
        }
      if (exited || cli_exited (&cli, &status))
        {
          g_test_message ("run %u finished before its kill point", runs);
          g_spawn_close_pid (cli.pid);
          break;
        }
      cli_kill (&cli);
      kills++;
      g_test_message ("killed run %u at %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes",
                      runs, tree_size (output) + tree_size (checkpoint), full_size);
      if (!g_file_test (checkpoint_json, G_FILE_TEST_EXISTS) && g_file_test (output, G_FILE_TEST_EXISTS))
        {
          /* Killed after the export was complete (the output in place, the
           * checkpoint.json of its folder removed) but before it exited:
           * the next --resume finds it complete, removes what is left of
           * the folder and exits 0. */
          g_test_message ("run %u had finished the export when it was killed", runs);
        }
    }
  cli_log_tail (&cli);
  g_test_message ("%u kills, %u runs; last exit status %d", kills, runs, status);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpuint (kills, >=, 3);
  g_assert_false (g_file_test (checkpoint, G_FILE_TEST_EXISTS));
  got = read_export (output, format);
  assert_items_are_file (got, f, "the export killed and resumed");
  dyn_fault_server_free (proxy);
}

static void
test_proxy_page_limit (DynTestFixture *fx,
                       gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = proxy_new (fx);
  g_autoptr(DynClient) client = client_for_url (dyn_fault_server_get_url (proxy), 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) small = NULL;
  g_autoptr(DynResponse) smaller = NULL;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *id = g_strdup_printf ("p%u", i);
      g_autoptr(DynResponse) put = put_through (client, fx->table, id, &error);
      g_assert_no_error (error);
    }
  dyn_fault_server_proxy_set_page_limit (proxy, 2);
  small = dyn_test_callf (client, "Scan", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  g_assert_cmpuint (small->items->len, ==, 2);
  g_assert_true (json_object_has_member (json_node_get_object (small->root), "LastEvaluatedKey"));
  /* A smaller Limit of the client's own stays. */
  smaller = dyn_test_callf (client, "Scan", &error, "{\"TableName\":\"%s\",\"Limit\":1}", fx->table);
  g_assert_no_error (error);
  g_assert_cmpuint (smaller->items->len, ==, 1);
  dyn_fault_server_free (proxy);
}

int
main (int    argc,
      char **argv)
{
  /* Checkpoints of the in-process jobs go to a folder of this run. */
  state_root = g_dir_make_tmp ("dyn-faults-state-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state_root, TRUE);
  dyn_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, DynTestFixture, NULL, fixture_setup, fn, dyn_test_fixture_teardown)
  ADD ("/faults/proxy/forwards", test_proxy_forwards);
  ADD ("/faults/proxy/reset-after-applies", test_proxy_reset_after_applies);
  ADD ("/faults/proxy/reset-before-does-not-apply", test_proxy_reset_before_does_not_apply);
  ADD ("/faults/proxy/errors-not-forwarded", test_proxy_errors_not_forwarded);
  ADD ("/faults/proxy/partial-batch", test_proxy_partial_batch);
  ADD ("/faults/proxy/page-limit", test_proxy_page_limit);
#undef ADD
#define ADDD(path, d, fn) g_test_add (path, DynTestFixture, d, fixture_setup, fn, dyn_test_fixture_teardown)
  ADDD ("/faults/import/mixed/batch", GINT_TO_POINTER (FALSE), test_import_mixed_faults);
  ADDD ("/faults/import/mixed/no-overwrite", GINT_TO_POINTER (TRUE), test_import_mixed_faults);
  ADDD ("/faults/import/reset-at-end/batch", GINT_TO_POINTER (FALSE), test_import_reset_at_end);
  ADDD ("/faults/import/reset-at-end/no-overwrite", GINT_TO_POINTER (TRUE), test_import_reset_at_end);
  ADDD ("/faults/kill/import/batch", GINT_TO_POINTER (FALSE), test_kill_import);
  ADDD ("/faults/kill/import/no-overwrite", GINT_TO_POINTER (TRUE), test_kill_import);
  ADDD ("/faults/kill/export/ddb-json", "ddb-json", test_kill_export);
  ADDD ("/faults/kill/export/csv", "csv", test_kill_export);
  ADDD ("/faults/kill/export/s3", "s3", test_kill_export);
#undef ADDD
  {
    int status = g_test_run ();
    remove_tree (state_root);
    g_free (state_root);
    return status;
  }
}
