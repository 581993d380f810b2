/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-dynalite"

#include "config.h"

#include <net/if.h>
#include <string.h>

#include "dyn-test-util.h"

/* The client's core operations against dynalite, a second implementation of
 * the protocol with its own quirks (lowercase "message" in errors, no
 * transactions, no PartiQL). */

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNALITE, "lite");
}

static void
create_table (DynTestFixture     *fx,
              const char         *sk,
              const char * const *gsis)
{
  dyn_test_fixture_create_table (fx, "pk:S", sk, gsis);
}

static DynValue *
key_of (const char *pk,
        const char *sk)
{
  return dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"}}", pk, sk);
}

static void
test_tables (DynTestFixture *fx,
             gconstpointer   data)
{
  static const char * const gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autoptr(DynResponse) again = NULL;
  g_auto(GStrv) names = NULL;
  JsonObject *table;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, "sk:S", gsis);

  names = dyn_test_list_tables (fx->client, &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char * const *) names, fx->table));

  described = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  table = json_object_get_object_member (json_node_get_object (described->root), "Table");
  g_assert_cmpstr (json_object_get_string_member (table, "TableStatus"), ==, "ACTIVE");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "GlobalSecondaryIndexes")), ==, 1);

  dyn_test_delete_table (fx->client, fx->table, &error);
  g_assert_no_error (error);
  fx->created = FALSE;
  /* dynalite deletes on its next tick; the table may still be DELETING. */
  for (guint i = 0; i < 400; i++)
    {
      again = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
      if (again == NULL)
        break;
      g_clear_pointer (&again, dyn_response_free);
      g_usleep (25 * 1000);
    }
  g_assert_null (again);
  dyn_test_assert_service_error (error, DYN_ERROR_NOT_FOUND, "ResourceNotFoundException");
}

static void
test_list_tables_pages (DynTestFixture *fx,
                        gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) listed = NULL;
  const guint n = 104;
  guint found = 0;

  DYN_TEST_REQUIRE_SERVER (fx);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-many-%03u", fx->table, i);
      g_autoptr(JsonNode) params = dyn_create_table_params (name, "pk:S", NULL, NULL, &error);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(DynResponse) response = NULL;

      g_assert_no_error (error);
      dyn_client_call_async (fx->client, "CreateTable", params, NULL, dyn_test_result_cb, &result);
      dyn_test_wait (&result);
      response = dyn_client_call_finish (fx->client, result, &error);
      g_assert_no_error (error);
    }

  listed = dyn_test_list_tables (fx->client, &error);
  g_assert_no_error (error);
  for (guint j = 0; listed[j] != NULL; j++)
    {
      g_autofree char *prefix = g_strdup_printf ("%s-many-", fx->table);
      if (g_str_has_prefix (listed[j], prefix))
        found++;
      if (j > 0)
        g_assert_cmpint (strcmp (listed[j - 1], listed[j]), <, 0);
    }
  g_assert_cmpuint (found, ==, n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-many-%03u", fx->table, i);
      dyn_test_delete_table (fx->client, name, &error);
      g_assert_no_error (error);
    }
}

static void
test_crud (DynTestFixture *fx,
           gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(DynValue) got = NULL;
  g_autoptr(DynValue) one = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, "sk:S", NULL);

  item = dyn_test_item ("{\"pk\":{\"S\":\"u1\"},\"sk\":{\"S\":\"profile\"},"
                        "\"Name\":{\"S\":\"Jonas\"},\"count\":{\"N\":\"1\"},"
                        "\"big\":{\"N\":\"12345678901234567890123456789012345678\"},"
                        "\"tags\":{\"SS\":[\"a\",\"b\"]},\"blob\":{\"B\":\"AAEC\"},"
                        "\"nested\":{\"M\":{\"l\":{\"L\":[{\"NULL\":true},{\"BOOL\":false}]}}}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);

  key = key_of ("u1", "profile");
  got = dyn_test_get_item (fx->client, fx->table, key, TRUE);
  g_assert_true (dyn_value_equal (got, item));
  g_assert_cmpstr (dyn_test_item_get_number (got, "big"), ==, "12345678901234567890123456789012345678");

  one = dyn_value_new_number ("1", &error);
  g_assert_no_error (error);
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_UPDATE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    request->key = dyn_value_ref (key);
    request->update = g_strdup ("SET #c = #c + :one REMOVE #n");
    dyn_request_add_name (request, "#c", "count");
    dyn_request_add_name (request, "#n", "Name");
    dyn_request_add_value (request, ":one", one);
    request->return_values = g_strdup ("ALL_NEW");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "count"), ==, "2");
    g_assert_null (dyn_value_map_lookup (response->item, "Name"));
  }
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) gone = NULL;

    request->key = dyn_value_ref (key);
    request->return_values = g_strdup ("ALL_OLD");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "count"), ==, "2");
    gone = dyn_test_get_item (fx->client, fx->table, key, TRUE);
    g_assert_null (gone);
  }
}

static void
test_conditions (DynTestFixture *fx,
                 gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(DynValue) still = NULL;
  const DynErrorDetails *details;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, "sk:S", NULL);

  item = dyn_test_item ("{\"pk\":{\"S\":\"STU#a91\"},\"sk\":{\"S\":\"ENROLL#CRS#math204\"},"
                        "\"grade\":{\"N\":\"1.7\"}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);

  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_PUT_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) again = dyn_test_item ("{\"pk\":{\"S\":\"STU#a91\"},"
                                               "\"sk\":{\"S\":\"ENROLL#CRS#math204\"},"
                                               "\"grade\":{\"N\":\"5\"}}");

    request->item = dyn_value_ref (again);
    request->condition = g_strdup ("attribute_not_exists(pk)");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_CONDITIONAL_CHECK_FAILED,
                                   "ConditionalCheckFailedException");
    /* dynalite spells the member "message", DynamoDB Local "Message". */
    details = dyn_error_get_details (error);
    g_assert_nonnull (details->message);
    g_assert_cmpstr (details->message, ==, "The conditional request failed");
    g_assert_nonnull (strstr (details->body, "\"message\""));
    g_assert_cmpuint (details->http_status, ==, 400);
    g_assert_nonnull (details->request_id);
    g_clear_error (&error);
  }

  key = key_of ("STU#a91", "ENROLL#CRS#math204");
  still = dyn_test_get_item (fx->client, fx->table, key, TRUE);
  g_assert_cmpstr (dyn_test_item_get_number (still, "grade"), ==, "1.7");

  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) grade = dyn_value_new_number ("1.70", NULL);

    /* Numbers compare by value: 1.70 = 1.7. */
    request->key = dyn_value_ref (key);
    request->condition = g_strdup ("grade = :g");
    dyn_request_add_value (request, ":g", grade);
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
  }
}

static void
test_errors (DynTestFixture *fx,
             gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  const DynErrorDetails *details;

  DYN_TEST_REQUIRE_SERVER (fx);

  response = dyn_test_call (fx->client, "GetItem",
                            "{\"TableName\":\"lite-no-such-table\",\"Key\":{\"pk\":{\"S\":\"x\"}}}", &error);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_NOT_FOUND, "ResourceNotFoundException");
  details = dyn_error_get_details (error);
  g_assert_cmpstr (details->message, ==, "Requested resource not found");
  g_assert_false (dyn_error_is_retryable (error));
  g_clear_error (&error);

  /* A validation error: a message, no retry. */
  response = dyn_test_call (fx->client, "GetItem", "{\"TableName\":\"x\"}", &error);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  details = dyn_error_get_details (error);
  g_assert_nonnull (details->message);
  g_assert_cmpstr (details->message, !=, "");
  g_assert_false (g_str_has_prefix (error->message, "After "));
  g_clear_error (&error);

  /* What dynalite does not implement is an error, not a hang. */
  response = dyn_test_call (fx->client, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM x\"}", &error);
  g_assert_null (response);
  g_assert_nonnull (error);
  g_assert_true (error->domain == DYN_ERROR);
  g_clear_error (&error);
}

static void
load_numbered (DynTestFixture *fx,
               const char     *pk,
               guint           n)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"%u\"},"
                                            "\"odd\":{\"BOOL\":%s}}",
                                            pk, i, i % 2 ? "true" : "false"));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);
}

static void
test_query_paging (DynTestFixture *fx,
                   gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(DynValue) pk = NULL;
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, "sk:N", NULL);
  load_numbered (fx, "p", 23);
  load_numbered (fx, "q", 4);

  request = dyn_request_new (DYN_OP_QUERY, fx->table);
  request->key_condition = g_strdup ("pk = :p AND sk >= :lo");
  pk = dyn_value_new_string ("p");
  dyn_request_add_value (request, ":p", pk);
  {
    g_autoptr(DynValue) lo = dyn_value_new_number ("3", NULL);
    dyn_request_add_value (request, ":lo", lo);
  }
  request->scan_forward = FALSE;
  request->limit = 6;
  request->consistent_read = TRUE;
  pager = dyn_pager_new (fx->client, request);
  items = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 20);
  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u", 22 - i);
      g_assert_cmpstr (dyn_test_item_get_number (items->pdata[i], "sk"), ==, want);
    }
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->items, ==, 20);
  g_assert_cmpuint (stats->pages, >=, 4);
  g_assert_cmpuint (stats->requests, ==, stats->pages);
  g_assert_true (dyn_pager_is_done (pager));

  /* Page by page, with the key in between. */
  {
    g_autoptr(DynPager) pp = dyn_pager_new (fx->client, request);
    g_autoptr(GPtrArray) first = dyn_test_pager_next (pp, &error);
    DynValue *last;

    g_assert_no_error (error);
    g_assert_cmpuint (first->len, ==, 6);
    last = dyn_pager_get_last_key (pp);
    g_assert_nonnull (last);
    g_assert_cmpstr (dyn_test_item_get_number (last, "sk"), ==, "17");
    g_assert_false (dyn_pager_is_done (pp));
  }

  /* A filtered query counts what it scanned. */
  {
    g_autoptr(DynRequest) filtered = dyn_request_new (DYN_OP_QUERY, fx->table);
    g_autoptr(DynPager) fp = NULL;
    g_autoptr(GPtrArray) odd = NULL;
    g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);

    filtered->key_condition = g_strdup ("pk = :p");
    filtered->filter = g_strdup ("odd = :yes");
    dyn_request_add_value (filtered, ":p", pk);
    dyn_request_add_value (filtered, ":yes", yes);
    fp = dyn_pager_new (fx->client, filtered);
    odd = dyn_test_pager_run (fp, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (odd->len, ==, 11);
    g_assert_cmpuint (dyn_pager_get_stats (fp)->scanned, ==, 23);
  }
}

static void
test_query_index (DynTestFixture *fx,
                  gconstpointer   data)
{
  static const char * const gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) students = NULL;
  g_autoptr(DynValue) course = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "PK:S", "SK:S", gsis);
  dyn_test_load_seed (fx->client, fx->table, "university.json", &error);
  g_assert_no_error (error);

  request = dyn_request_new (DYN_OP_QUERY, fx->table);
  request->index = g_strdup ("GSI1");
  request->key_condition = g_strdup ("GSI1PK = :c");
  course = dyn_value_new_string ("CRS#math204");
  dyn_request_add_value (request, ":c", course);
  pager = dyn_pager_new (fx->client, request);
  students = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (students->len, ==, 3);
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[0], "GSI1SK"), ==, "STU#a91");
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[2], "GSI1SK"), ==, "STU#c03");
}

static void
test_scan_parallel (DynTestFixture *fx,
                    gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) got = NULL;
  const guint n = 150;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, NULL, NULL);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"k%04u\"}}", i));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);

  request = dyn_request_new (DYN_OP_SCAN, fx->table);
  request->limit = 20;
  pager = dyn_pager_new (fx->client, request);
  got = dyn_test_pager_run (pager, 3, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, n);
  for (guint i = 0; i < got->len; i++)
    g_assert_true (g_hash_table_add (seen, g_strdup (dyn_test_item_get_string (got->pdata[i], "pk"))));
  g_assert_cmpuint (dyn_pager_get_stats (pager)->items, ==, n);
  g_assert_cmpuint (dyn_pager_get_stats (pager)->pages, >=, n / 20);
}

static void
test_batch (DynTestFixture *fx,
            gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) puts = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) keys = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) found = NULL;
  guint requests = 0;
  const guint n = 120;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_table (fx, "sk:S", NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *sk = g_strdup_printf ("%04u", i);
      g_ptr_array_add (puts, dyn_test_itemf ("{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"%s\"},\"v\":{\"N\":\"%u\"}}",
                                             sk, i));
      g_ptr_array_add (keys, key_of ("b", sk));
    }
  dyn_test_batch_write (fx->client, fx->table, puts, NULL, &requests, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (requests, ==, 5);

  for (guint i = 0; i < 10; i++)
    {
      g_autofree char *sk = g_strdup_printf ("missing-%u", i);
      g_ptr_array_add (keys, key_of ("b", sk));
    }
  found = dyn_test_batch_get (fx->client, fx->table, keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, n);

  g_ptr_array_set_size (keys, 60);
  dyn_test_batch_write (fx->client, fx->table, NULL, keys, &requests, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (requests, ==, 3);
  g_clear_pointer (&found, g_ptr_array_unref);
  found = dyn_test_batch_get (fx->client, fx->table, keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 0);
}

/* The harness itself: a second server starts beside the shared one, answers
 * and goes away; inside the namespace only loopback exists. */
static void
test_harness (void)
{
  g_autoptr(GError) error = NULL;
  DynTestServer *server;
  g_autoptr(DynClient) client = NULL;
  g_auto(GStrv) names = NULL;
  g_autofree char *endpoint = NULL;

  if (dyn_test_is_isolated ())
    {
      struct if_nameindex *ifs = if_nameindex ();

      g_assert_nonnull (ifs);
      for (struct if_nameindex *i = ifs; i->if_index != 0; i++)
        g_assert_cmpstr (i->if_name, ==, "lo");
      if_freenameindex (ifs);
    }
  else
    g_test_message ("not isolated: the interface check does not apply");

  server = dyn_test_server_start (DYN_TEST_DYNALITE, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpint (dyn_test_server_get_kind (server), ==, DYN_TEST_DYNALITE);
  endpoint = g_strdup (dyn_test_server_get_endpoint (server));
  g_assert_true (g_str_has_prefix (endpoint, "http://127.0.0.1:"));

  client = dyn_test_client_new (server);
  names = dyn_test_list_tables (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 0);
  g_clear_pointer (&names, g_strfreev);

  dyn_test_server_stop (server);
  /* Gone: the connection is refused, a transport error after the retries. */
  dyn_client_set_retry (client, 2, 1, 1);
  names = dyn_test_list_tables (client, &error);
  g_assert_null (names);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/dyn/dynalite/" path, DynTestFixture, NULL, fixture_setup, func, dyn_test_fixture_teardown)

  g_test_add_func ("/dyn/dynalite/harness", test_harness);
  ADD ("tables", test_tables);
  ADD ("list-tables/pages", test_list_tables_pages);
  ADD ("item/crud", test_crud);
  ADD ("item/conditions", test_conditions);
  ADD ("errors", test_errors);
  ADD ("query/paging", test_query_paging);
  ADD ("query/index", test_query_index);
  ADD ("scan/parallel", test_scan_parallel);
  ADD ("batch/chunks", test_batch);

#undef ADD

  return g_test_run ();
}
