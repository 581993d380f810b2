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

#include <signal.h>
#include <string.h>

#include "dyn-fault-server.h"
#include "dyn-json.h"
#include "dyn-request.h"
#include "dyn-test-util.h"

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

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

#define ADD(path, fn) g_test_add (path, DynTestFixture, NULL, fixture_setup, fn, dyn_test_fixture_teardown)
  ADD ("/faults/proxy/forwards", test_proxy_forwards);
  ADD ("/faults/proxy/reset-after-applies", test_proxy_reset_after_applies);
  ADD ("/faults/proxy/reset-before-does-not-apply", test_proxy_reset_before_does_not_apply);
  ADD ("/faults/proxy/errors-not-forwarded", test_proxy_errors_not_forwarded);
  ADD ("/faults/proxy/partial-batch", test_proxy_partial_batch);
#undef ADD
  return g_test_run ();
}
