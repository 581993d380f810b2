/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client"

#include "config.h"

#include <string.h>

#include "dyn-test-util.h"

/* Integration tests of the client against DynamoDB Local. Every test makes
 * its own tables; the server is shared by the whole program. */

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "client");
}

/* A table "pk" (S) + "sk" (S or N). */
static void
create_pk_sk (DynTestFixture *fx,
              const char     *sk_type)
{
  g_autofree char *sk = g_strdup_printf ("sk:%s", sk_type);

  dyn_test_fixture_create_table (fx, "pk:S", sk, NULL);
}

static DynValue *
string_value (const char *s)
{
  return dyn_value_new_string (s);
}

static DynValue *
number_value (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_value_new_number (text, &error);

  g_assert_no_error (error);
  return v;
}

static JsonObject *
root_object (DynResponse *response)
{
  return json_node_get_object (response->root);
}

/* Counts the client's "retrying" debug messages, to prove what was not retried. */
static guint retry_messages;

static void
count_retries_log_cb (const char     *domain,
                      GLogLevelFlags  level,
                      const char     *message,
                      gpointer        user_data)
{
  if (strstr (message, "retrying") != NULL)
    retry_messages++;
}

/* ListTables ------------------------------------------------------------------ */

static void
test_list_tables_pages (DynTestFixture *fx,
                        gconstpointer   data)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) listed = NULL;
  const guint n = 105;

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
      g_ptr_array_add (names, g_steal_pointer (&name));
    }

  /* More than one page of 100: every table appears, once. */
  listed = dyn_test_list_tables (fx->client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (listed), >=, n);
  for (guint i = 0; i < names->len; i++)
    {
      guint seen = 0;
      for (guint j = 0; listed[j] != NULL; j++)
        seen += strcmp (listed[j], names->pdata[i]) == 0;
      g_assert_cmpuint (seen, ==, 1);
    }
  /* The server lists in name order; the pages join without a gap. */
  for (guint j = 1; listed[j] != NULL; j++)
    g_assert_cmpint (strcmp (listed[j - 1], listed[j]), <, 0);

  for (guint i = 0; i < names->len; i++)
    {
      dyn_test_delete_table (fx->client, names->pdata[i], &error);
      g_assert_no_error (error);
    }
}

/* CreateTable / DescribeTable / DeleteTable ------------------------------------ */

static JsonObject *
find_index (JsonObject *table,
            const char *kind,
            const char *name)
{
  JsonArray *indexes = json_object_get_array_member (table, kind);

  g_assert_nonnull (indexes);
  for (guint i = 0; i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);
      if (g_strcmp0 (json_object_get_string_member (index, "IndexName"), name) == 0)
        return index;
    }
  g_assert_not_reached ();
}

static const char *
projection_type (JsonObject *index)
{
  return json_object_get_string_member (json_object_get_object_member (index, "Projection"),
                                        "ProjectionType");
}

static gboolean
item_has (DynValue   *item,
          const char *name)
{
  return dyn_value_map_lookup (item, name) != NULL;
}

static void
test_create_table_indexes (DynTestFixture *fx,
                           gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autofree char *params = NULL;
  JsonObject *table, *index, *key;
  JsonArray *schema, *non_key;

  DYN_TEST_REQUIRE_SERVER (fx);

  params = g_strdup_printf (
    "{\"TableName\":\"%s\","
    "\"AttributeDefinitions\":["
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"g1\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"g2\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"lsk\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":["
    "{\"IndexName\":\"ByG1Keys\",\"KeySchema\":[{\"AttributeName\":\"g1\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}},"
    "{\"IndexName\":\"ByG1Include\",\"KeySchema\":[{\"AttributeName\":\"g1\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"g2\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"title\"]}},"
    "{\"IndexName\":\"ByG2All\",\"KeySchema\":[{\"AttributeName\":\"g2\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"LocalSecondaryIndexes\":["
    "{\"IndexName\":\"ByLsk\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"lsk\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"BillingMode\":\"PAY_PER_REQUEST\"}", fx->table);
  dyn_test_fixture_create_table_json (fx, params);

  described = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  g_assert_nonnull (described->request_id);
  table = json_object_get_object_member (root_object (described), "Table");
  g_assert_cmpstr (json_object_get_string_member (table, "TableName"), ==, fx->table);
  g_assert_cmpstr (json_object_get_string_member (table, "TableStatus"), ==, "ACTIVE");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (table, "BillingModeSummary"),
                                                  "BillingMode"), ==, "PAY_PER_REQUEST");
  schema = json_object_get_array_member (table, "KeySchema");
  g_assert_cmpuint (json_array_get_length (schema), ==, 2);
  key = json_array_get_object_element (schema, 0);
  g_assert_cmpstr (json_object_get_string_member (key, "AttributeName"), ==, "pk");
  g_assert_cmpstr (json_object_get_string_member (key, "KeyType"), ==, "HASH");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "AttributeDefinitions")), ==, 5);

  g_assert_cmpstr (projection_type (find_index (table, "GlobalSecondaryIndexes", "ByG1Keys")), ==, "KEYS_ONLY");
  index = find_index (table, "GlobalSecondaryIndexes", "ByG1Include");
  g_assert_cmpstr (projection_type (index), ==, "INCLUDE");
  non_key = json_object_get_array_member (json_object_get_object_member (index, "Projection"), "NonKeyAttributes");
  g_assert_cmpuint (json_array_get_length (non_key), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (non_key, 0), ==, "title");
  g_assert_cmpstr (projection_type (find_index (table, "GlobalSecondaryIndexes", "ByG2All")), ==, "ALL");
  g_assert_cmpstr (projection_type (find_index (table, "LocalSecondaryIndexes", "ByLsk")), ==, "ALL");

  /* The projections decide what an index read returns. */
  item = dyn_test_item ("{\"pk\":{\"S\":\"p1\"},\"sk\":{\"S\":\"s1\"},\"g1\":{\"S\":\"G\"},"
                        "\"g2\":{\"N\":\"7\"},\"lsk\":{\"N\":\"3\"},\"title\":{\"S\":\"T\"},"
                        "\"body\":{\"S\":\"B\"}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);

  {
    static const struct {
      const char *index, *condition, *placeholder;
      gboolean title, body;
    } reads[] = {
      { "ByG1Keys", "g1 = :v", "S", FALSE, FALSE },
      { "ByG1Include", "g1 = :v", "S", TRUE, FALSE },
      { "ByG2All", "g2 = :v", "N", TRUE, TRUE },
      { "ByLsk", "pk = :v", "S", TRUE, TRUE },
    };

    for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
      {
        g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_QUERY, fx->table);
        g_autoptr(DynResponse) response = NULL;
        g_autoptr(DynValue) v = NULL;
        DynValue *got;

        request->index = g_strdup (reads[i].index);
        request->key_condition = g_strdup (reads[i].condition);
        if (strcmp (reads[i].placeholder, "N") == 0)
          v = number_value ("7");
        else
          v = string_value (i == 3 ? "p1" : "G");
        dyn_request_add_value (request, ":v", v);
        response = dyn_test_execute (fx->client, request, &error);
        g_assert_no_error (error);
        g_assert_nonnull (response->items);
        g_assert_cmpuint (response->items->len, ==, 1);
        got = response->items->pdata[0];
        g_assert_true (item_has (got, "pk") && item_has (got, "sk"));
        g_assert_cmpint (item_has (got, "title"), ==, reads[i].title);
        g_assert_cmpint (item_has (got, "body"), ==, reads[i].body);
      }
  }
}

static void
test_create_table_provisioned (DynTestFixture *fx,
                               gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autofree char *params = NULL;
  JsonObject *table, *throughput;

  DYN_TEST_REQUIRE_SERVER (fx);

  params = g_strdup_printf (
    "{\"TableName\":\"%s\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"owner\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByOwner\","
    "\"KeySchema\":[{\"AttributeName\":\"owner\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":2}}],"
    "\"BillingMode\":\"PROVISIONED\","
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":4}}", fx->table);
  dyn_test_fixture_create_table_json (fx, params);

  described = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  table = json_object_get_object_member (root_object (described), "Table");
  throughput = json_object_get_object_member (table, "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (throughput, "ReadCapacityUnits"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (throughput, "WriteCapacityUnits"), ==, 4);
  if (json_object_has_member (table, "BillingModeSummary"))
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (table, "BillingModeSummary"),
                                                    "BillingMode"), ==, "PROVISIONED");
  throughput = json_object_get_object_member (find_index (table, "GlobalSecondaryIndexes", "ByOwner"),
                                              "ProvisionedThroughput");
  g_assert_cmpint (json_object_get_int_member (throughput, "ReadCapacityUnits"), ==, 3);
}

static void
test_create_table_params (DynTestFixture *fx,
                          gconstpointer   data)
{
  static const char * const gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", "ByNum:n:N", NULL };
  static const char * const bad_gsis[] = { "Broken:x", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autoptr(JsonNode) bad = NULL;
  JsonObject *table;

  DYN_TEST_REQUIRE_SERVER (fx);

  dyn_test_fixture_create_table (fx, "PK:S", "SK:S", gsis);

  described = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  table = json_object_get_object_member (root_object (described), "Table");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "GlobalSecondaryIndexes")), ==, 2);
  g_assert_cmpstr (projection_type (find_index (table, "GlobalSecondaryIndexes", "GSI1")), ==, "ALL");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "AttributeDefinitions")), ==, 5);

  bad = dyn_create_table_params ("x", "PK", NULL, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = dyn_create_table_params ("x", "PK:S", NULL, bad_gsis, &error);
  g_assert_null (bad);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
}

static void
test_delete_table (DynTestFixture *fx,
                   gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynResponse) again = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);

  create_pk_sk (fx, "S");
  response = dyn_test_callf (fx->client, "DeleteTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root_object (response),
                                                                                 "TableDescription"),
                                                  "TableName"), ==, fx->table);
  fx->created = FALSE;

  again = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_null (again);
  dyn_test_assert_service_error (error, DYN_ERROR_NOT_FOUND, "ResourceNotFoundException");
}

/* Items -------------------------------------------------------------------------- */

static DynValue *
key_of (const char *pk,
        const char *sk)
{
  return dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"%s\"}}", pk, sk);
}

static void
test_crud (DynTestFixture *fx,
           gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(DynValue) got = NULL;
  g_autoptr(DynValue) missing_key = NULL;
  g_autoptr(DynValue) missing = NULL;
  g_autoptr(DynValue) one = NULL;
  g_autoptr(DynValue) hello = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");

  item = dyn_test_item ("{\"pk\":{\"S\":\"u1\"},\"sk\":{\"S\":\"profile\"},"
                        "\"Name\":{\"S\":\"Ayşe\"},\"count\":{\"N\":\"1\"},"
                        "\"tags\":{\"SS\":[\"a\",\"b\"]},\"blob\":{\"B\":\"AAEC\"},"
                        "\"ok\":{\"BOOL\":true},\"nothing\":{\"NULL\":true},"
                        "\"nested\":{\"M\":{\"list\":{\"L\":[{\"N\":\"1.5\"},{\"S\":\"x\"}]}}}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);

  key = key_of ("u1", "profile");
  got = dyn_test_get_item (fx->client, fx->table, key, TRUE);
  g_assert_nonnull (got);
  g_assert_true (dyn_value_equal (got, item));

  missing_key = key_of ("u1", "nope");
  missing = dyn_test_get_item (fx->client, fx->table, missing_key, FALSE);
  g_assert_null (missing);

  /* UpdateItem: ALL_NEW, then UPDATED_OLD. */
  one = number_value ("1");
  hello = string_value ("hello");
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_UPDATE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    request->key = dyn_value_ref (key);
    request->update = g_strdup ("SET #c = #c + :one, greeting = :g REMOVE #n");
    request->condition = g_strdup ("attribute_exists(pk)");
    dyn_request_add_name (request, "#c", "count");
    dyn_request_add_name (request, "#n", "Name");
    dyn_request_add_value (request, ":one", one);
    dyn_request_add_value (request, ":g", hello);
    request->return_values = g_strdup ("ALL_NEW");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    g_assert_nonnull (response->item);
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "count"), ==, "2");
    g_assert_cmpstr (dyn_test_item_get_string (response->item, "greeting"), ==, "hello");
    g_assert_false (item_has (response->item, "Name"));
    g_assert_true (item_has (response->item, "nested"));
    g_assert_cmpfloat (response->write_units, >, 0);
    g_assert_cmpuint (response->attempts, ==, 1);
  }
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_UPDATE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    request->key = dyn_value_ref (key);
    request->update = g_strdup ("SET #c = #c + :one");
    dyn_request_add_name (request, "#c", "count");
    dyn_request_add_value (request, ":one", one);
    request->return_values = g_strdup ("UPDATED_OLD");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (dyn_value_get_length (response->item), ==, 1);
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "count"), ==, "2");
  }

  /* DeleteItem returning the old item, then it is gone. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) gone = NULL;

    request->key = dyn_value_ref (key);
    request->return_values = g_strdup ("ALL_OLD");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "count"), ==, "3");
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
  g_autoptr(DynValue) v1 = NULL;
  g_autoptr(DynValue) still = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");

  item = dyn_test_item ("{\"pk\":{\"S\":\"doc\"},\"sk\":{\"S\":\"1\"},\"version\":{\"N\":\"2\"},"
                        "\"Status\":{\"S\":\"live\"}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);
  key = key_of ("doc", "1");
  v1 = number_value ("1");

  /* A create guard on an existing item. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_PUT_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) other = dyn_test_item ("{\"pk\":{\"S\":\"doc\"},\"sk\":{\"S\":\"1\"}}");

    request->item = dyn_value_ref (other);
    request->condition = g_strdup ("attribute_not_exists(pk)");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_CONDITIONAL_CHECK_FAILED,
                                   "ConditionalCheckFailedException");
    g_assert_false (dyn_error_is_retryable (error));
    g_clear_error (&error);
  }

  /* A stale version guard on delete, asking for the current item back. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) current = NULL;

    request->key = dyn_value_ref (key);
    request->condition = g_strdup ("#v = :v");
    dyn_request_add_name (request, "#v", "version");
    dyn_request_add_value (request, ":v", v1);
    request->return_values_on_condition_check_failure = g_strdup ("ALL_OLD");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_CONDITIONAL_CHECK_FAILED,
                                   "ConditionalCheckFailedException");
    current = dyn_error_get_item (error);
    g_assert_nonnull (current);
    g_assert_true (dyn_value_equal (current, item));
    g_clear_error (&error);
  }

  /* Without ALL_OLD there is no item in the error. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_UPDATE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) current = NULL;

    request->key = dyn_value_ref (key);
    request->update = g_strdup ("SET #s = :s");
    request->condition = g_strdup ("#v = :v");
    dyn_request_add_name (request, "#v", "version");
    dyn_request_add_name (request, "#s", "Status");
    dyn_request_add_value (request, ":v", v1);
    {
      g_autoptr(DynValue) s = string_value ("dead");
      dyn_request_add_value (request, ":s", s);
    }
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED);
    current = dyn_error_get_item (error);
    g_assert_null (current);
    g_clear_error (&error);
  }

  still = dyn_test_get_item (fx->client, fx->table, key, TRUE);
  g_assert_true (dyn_value_equal (still, item));

  /* The right version passes. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_DELETE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_autoptr(DynValue) v2 = number_value ("2");
    g_autoptr(DynValue) gone = NULL;

    request->key = dyn_value_ref (key);
    request->condition = g_strdup ("#v = :v AND #s = :live");
    dyn_request_add_name (request, "#v", "version");
    dyn_request_add_name (request, "#s", "Status");
    dyn_request_add_value (request, ":v", v2);
    {
      g_autoptr(DynValue) live = string_value ("live");
      dyn_request_add_value (request, ":live", live);
    }
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_no_error (error);
    gone = dyn_test_get_item (fx->client, fx->table, key, TRUE);
    g_assert_null (gone);
  }
}

/* Query and Scan through the pager --------------------------------------------- */

static void
load_numbered (DynTestFixture *fx,
               const char     *pk,
               guint           n)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"%u\"},"
                                            "\"even\":{\"BOOL\":%s},\"pad\":{\"S\":\"%0200u\"}}",
                                            pk, i, i % 2 == 0 ? "true" : "false", i));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);
}

static DynRequest *
query_pk (DynTestFixture *fx,
          const char     *pk)
{
  DynRequest *request = dyn_request_new (DYN_OP_QUERY, fx->table);
  g_autoptr(DynValue) v = string_value (pk);

  request->key_condition = g_strdup ("#pk = :pk");
  dyn_request_add_name (request, "#pk", "pk");
  dyn_request_add_value (request, ":pk", v);
  return request;
}

static void
test_query_paging (DynTestFixture *fx,
                   gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) all = dyn_test_item_array_new ();
  g_autofree char *summary = NULL;
  const DynReadStats *stats;
  guint pages = 0;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "N");
  load_numbered (fx, "p", 25);
  load_numbered (fx, "other", 3);

  request = query_pk (fx, "p");
  request->limit = 7;
  request->consistent_read = TRUE;
  pager = dyn_pager_new (fx->client, request);
  g_assert_null (dyn_pager_get_last_key (pager));

  while (!dyn_pager_is_done (pager))
    {
      g_autoptr(GPtrArray) page = dyn_test_pager_next (pager, &error);
      g_assert_no_error (error);
      pages++;
      g_assert_cmpuint (page->len, <=, 7);
      for (guint i = 0; i < page->len; i++)
        g_ptr_array_add (all, dyn_value_ref (page->pdata[i]));
      if (!dyn_pager_is_done (pager))
        {
          DynValue *last = dyn_pager_get_last_key (pager);
          g_assert_nonnull (last);
          g_assert_cmpstr (dyn_test_item_get_string (last, "pk"), ==, "p");
        }
    }
  /* 25 items by 7: 4 pages, the last one may come with an empty follow-up. */
  g_assert_cmpuint (all->len, ==, 25);
  g_assert_cmpuint (pages, >=, 4);
  g_assert_cmpuint (pages, <=, 5);
  for (guint i = 0; i < all->len; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u", i);
      g_assert_cmpstr (dyn_test_item_get_number (all->pdata[i], "sk"), ==, want);
    }

  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->pages, ==, pages);
  g_assert_cmpuint (stats->requests, ==, pages);
  g_assert_cmpuint (stats->items, ==, 25);
  g_assert_cmpuint (stats->scanned, ==, 25);
  g_assert_cmpfloat (stats->read_units, >, 0);
  g_assert_cmpfloat (stats->write_units, ==, 0);
  summary = dyn_read_stats_describe (stats, "Query");
  g_assert_true (g_str_has_prefix (summary, "Query · "));
  g_assert_nonnull (strstr (summary, "25 items"));

  /* Backwards, in one run, stopping at 10 items (in whole pages). */
  {
    g_autoptr(DynRequest) back = query_pk (fx, "p");
    g_autoptr(DynPager) bp = NULL;
    g_autoptr(GPtrArray) items = NULL;

    back->scan_forward = FALSE;
    back->limit = 5;
    bp = dyn_pager_new (fx->client, back);
    items = dyn_test_pager_run (bp, 1, 10, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (items->len, ==, 10);
    g_assert_cmpstr (dyn_test_item_get_number (items->pdata[0], "sk"), ==, "24");
    g_assert_cmpstr (dyn_test_item_get_number (items->pdata[9], "sk"), ==, "15");
    g_assert_cmpuint (dyn_pager_get_stats (bp)->pages, ==, 2);
  }

  /* Resuming from a key another pager reported. */
  {
    g_autoptr(DynRequest) first_req = query_pk (fx, "p");
    g_autoptr(DynPager) first = NULL;
    g_autoptr(DynPager) second = NULL;
    g_autoptr(GPtrArray) page = NULL;
    g_autoptr(GPtrArray) rest = NULL;

    first_req->limit = 10;
    first = dyn_pager_new (fx->client, first_req);
    page = dyn_test_pager_next (first, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->len, ==, 10);
    first_req->limit = 0;
    second = dyn_pager_new (fx->client, first_req);
    dyn_pager_set_start_key (second, dyn_pager_get_last_key (first));
    rest = dyn_test_pager_run (second, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (rest->len, ==, 15);
    g_assert_cmpstr (dyn_test_item_get_number (rest->pdata[0], "sk"), ==, "10");
    g_assert_true (dyn_pager_is_done (second));
  }

  /* A filter: fewer items than scanned. */
  {
    g_autoptr(DynRequest) filtered = query_pk (fx, "p");
    g_autoptr(DynPager) fp = NULL;
    g_autoptr(GPtrArray) items = NULL;
    g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);

    filtered->filter = g_strdup ("even = :yes");
    dyn_request_add_value (filtered, ":yes", yes);
    fp = dyn_pager_new (fx->client, filtered);
    items = dyn_test_pager_run (fp, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (items->len, ==, 13);
    g_assert_cmpuint (dyn_pager_get_stats (fp)->scanned, ==, 25);
    g_assert_cmpuint (dyn_pager_get_stats (fp)->items, ==, 13);
  }
}

static void
test_query_index (DynTestFixture *fx,
                  gconstpointer   data)
{
  static const char * const gsis[] = { "ByOwner:owner:S:sk:N", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(DynValue) owner = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", gsis);

  for (guint i = 0; i < 30; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"item%02u\"},\"sk\":{\"N\":\"%u\"},"
                                            "\"owner\":{\"S\":\"%s\"}}",
                                            i, i, i % 3 == 0 ? "ann" : "bob"));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);

  request = dyn_request_new (DYN_OP_QUERY, fx->table);
  request->index = g_strdup ("ByOwner");
  request->key_condition = g_strdup ("#o = :o AND sk BETWEEN :lo AND :hi");
  dyn_request_add_name (request, "#o", "owner");
  owner = string_value ("ann");
  dyn_request_add_value (request, ":o", owner);
  {
    g_autoptr(DynValue) lo = number_value ("3");
    g_autoptr(DynValue) hi = number_value ("21");
    dyn_request_add_value (request, ":lo", lo);
    dyn_request_add_value (request, ":hi", hi);
  }
  request->scan_forward = FALSE;
  request->limit = 2;
  pager = dyn_pager_new (fx->client, request);
  got = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  /* 3, 6, … 21 backwards. */
  g_assert_cmpuint (got->len, ==, 7);
  for (guint i = 0; i < got->len; i++)
    {
      g_autofree char *want = g_strdup_printf ("%u", 21 - 3 * i);
      g_assert_cmpstr (dyn_test_item_get_number (got->pdata[i], "sk"), ==, want);
    }
  g_assert_cmpuint (dyn_pager_get_stats (pager)->pages, >=, 4);

  /* A consistent read on a GSI is refused, and not retried. */
  {
    g_autoptr(DynRequest) bad = dyn_request_copy (request);
    g_autoptr(DynResponse) response = NULL;

    bad->consistent_read = TRUE;
    response = dyn_test_execute (fx->client, bad, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  }
}

static void
test_scan_parallel (DynTestFixture *fx,
                    gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const guint n = 240;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", NULL, NULL);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"k%04u\"},\"n\":{\"N\":\"%u\"}}", i, i));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);

  for (guint segments = 1; segments <= 4; segments += 3)
    {
      g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, fx->table);
      g_autoptr(DynPager) pager = NULL;
      g_autoptr(GPtrArray) got = NULL;
      const DynReadStats *stats;

      request->limit = 25;
      request->consistent_read = TRUE;
      pager = dyn_pager_new (fx->client, request);
      got = dyn_test_pager_run (pager, segments, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (got->len, ==, n);

      g_hash_table_remove_all (seen);
      for (guint i = 0; i < got->len; i++)
        {
          const char *pk = dyn_test_item_get_string (got->pdata[i], "pk");
          g_assert_nonnull (pk);
          /* Every item exactly once. */
          g_assert_true (g_hash_table_add (seen, g_strdup (pk)));
        }
      g_assert_cmpuint (g_hash_table_size (seen), ==, n);

      stats = dyn_pager_get_stats (pager);
      g_assert_cmpuint (stats->items, ==, n);
      g_assert_cmpuint (stats->scanned, ==, n);
      g_assert_cmpuint (stats->pages, >=, n / 25);
      g_assert_cmpuint (stats->requests, ==, stats->pages);
      g_assert_cmpfloat (stats->read_units, >, 0);
      g_assert_true (dyn_pager_is_done (pager));
    }
}

/* Batches ------------------------------------------------------------------------- */

static void
test_batch (DynTestFixture *fx,
            gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) puts = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) keys = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint requests = 0;
  const guint n = 230;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (puts, dyn_test_itemf ("{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"%04u\"},"
                                           "\"v\":{\"N\":\"%u\"}}", i, i * 7));
  /* 230 puts: 10 chunks of at most 25. */
  dyn_test_batch_write (fx->client, fx->table, puts, NULL, &requests, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (requests, ==, 10);

  /* 230 existing keys and 700 missing: 10 chunks of at most 100. */
  for (guint i = 0; i < n + 700; i++)
    {
      g_autofree char *sk = g_strdup_printf ("%04u", i);
      g_ptr_array_add (keys, key_of ("b", sk));
    }
  found = dyn_test_batch_get (fx->client, fx->table, keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, n);
  for (guint i = 0; i < found->len; i++)
    {
      const char *sk = dyn_test_item_get_string (found->pdata[i], "sk");
      g_autofree char *want = g_strdup_printf ("%u", (guint) g_ascii_strtoull (sk, NULL, 10) * 7);
      g_assert_true (g_hash_table_add (seen, g_strdup (sk)));
      g_assert_cmpstr (dyn_test_item_get_number (found->pdata[i], "v"), ==, want);
    }

  /* Deletes, chunked too; then nothing is left. */
  g_ptr_array_set_size (keys, n);
  dyn_test_batch_write (fx->client, fx->table, NULL, keys, &requests, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (requests, ==, 10);
  g_clear_pointer (&found, g_ptr_array_unref);
  found = dyn_test_batch_get (fx->client, fx->table, keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 0);

  /* With a projection. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr(GPtrArray) projected = NULL;
    g_autoptr(GPtrArray) few = dyn_test_item_array_new ();

    for (guint i = 0; i < 3; i++)
      g_ptr_array_add (few, dyn_value_ref (puts->pdata[i]));
    dyn_test_batch_write (fx->client, fx->table, few, NULL, NULL, &error);
    g_assert_no_error (error);
    g_hash_table_insert (names, "#v", "v");
    g_ptr_array_set_size (keys, 3);
    dyn_client_batch_get_async (fx->client, fx->table, keys, "sk, #v", names, TRUE, NULL,
                                dyn_test_result_cb, &result);
    dyn_test_wait (&result);
    projected = dyn_client_batch_get_finish (fx->client, result, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (projected->len, ==, 3);
    for (guint i = 0; i < projected->len; i++)
      {
        g_assert_cmpuint (dyn_value_get_length (projected->pdata[i]), ==, 2);
        g_assert_false (item_has (projected->pdata[i], "pk"));
      }
  }
}

/* Transactions --------------------------------------------------------------------- */

static void
test_transactions (DynTestFixture *fx,
                   gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) a = NULL;
  g_autoptr(DynValue) b = NULL;
  g_autoptr(DynValue) c = NULL;
  g_autoptr(DynValue) a_key = NULL;
  g_autoptr(DynValue) c_key = NULL;
  const char *t = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");
  t = fx->table;

  /* A successful write of two items and an update. */
  a = dyn_test_item ("{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"a\"},\"balance\":{\"N\":\"100\"}}");
  b = dyn_test_item ("{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"b\"},\"balance\":{\"N\":\"5\"}}");
  dyn_test_put_item (fx->client, t, a, &error);
  g_assert_no_error (error);
  dyn_test_put_item (fx->client, t, b, &error);
  g_assert_no_error (error);

  response = dyn_test_callf (fx->client, "TransactWriteItems", &error,
    "{\"TransactItems\":["
    "{\"Update\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"a\"}},"
    "\"UpdateExpression\":\"SET balance = balance - :x\",\"ConditionExpression\":\"balance >= :x\","
    "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"30\"}}}},"
    "{\"Update\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"b\"}},"
    "\"UpdateExpression\":\"SET balance = balance + :x\","
    "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"30\"}}}},"
    "{\"Put\":{\"TableName\":\"%s\",\"Item\":{\"pk\":{\"S\":\"log\"},\"sk\":{\"S\":\"1\"},"
    "\"amount\":{\"N\":\"30\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}}],"
    "\"ReturnConsumedCapacity\":\"TOTAL\"}", t, t, t);
  g_assert_no_error (error);
  g_assert_cmpfloat (response->write_units, >, 0);
  g_clear_pointer (&response, dyn_response_free);

  /* TransactGetItems reads them back in order. */
  response = dyn_test_callf (fx->client, "TransactGetItems", &error,
    "{\"TransactItems\":["
    "{\"Get\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"a\"}}}},"
    "{\"Get\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"b\"}}}},"
    "{\"Get\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"log\"},\"sk\":{\"S\":\"1\"}}}}]}", t, t, t);
  g_assert_no_error (error);
  {
    JsonArray *responses = json_object_get_array_member (root_object (response), "Responses");
    static const char * const want[] = { "70", "35", NULL };

    g_assert_cmpuint (json_array_get_length (responses), ==, 3);
    for (guint i = 0; want[i] != NULL; i++)
      {
        JsonObject *r = json_array_get_object_element (responses, i);
        g_autoptr(DynValue) item = dyn_item_from_ddb_json (json_object_get_member (r, "Item"), &error);
        g_assert_no_error (error);
        g_assert_cmpstr (dyn_test_item_get_number (item, "balance"), ==, want[i]);
      }
  }
  g_clear_pointer (&response, dyn_response_free);

  /* A failing condition in the middle cancels all; nothing is written. */
  response = dyn_test_callf (fx->client, "TransactWriteItems", &error,
    "{\"TransactItems\":["
    "{\"Put\":{\"TableName\":\"%s\",\"Item\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"c\"},"
    "\"balance\":{\"N\":\"1\"}}}},"
    "{\"Update\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"a\"}},"
    "\"UpdateExpression\":\"SET balance = balance - :x\",\"ConditionExpression\":\"balance >= :x\","
    "\"ExpressionAttributeValues\":{\":x\":{\"N\":\"1000\"}},"
    "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}},"
    "{\"Delete\":{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"acct\"},\"sk\":{\"S\":\"b\"}}}}]}",
    t, t, t);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_TRANSACTION_CANCELED, "TransactionCanceledException");
  g_assert_false (dyn_error_is_retryable (error));
  {
    g_autoptr(JsonArray) reasons = dyn_error_get_cancellation_reasons (error);
    JsonObject *second;
    g_autoptr(DynValue) old = NULL;
    g_autoptr(GError) item_error = NULL;

    g_assert_nonnull (reasons);
    g_assert_cmpuint (json_array_get_length (reasons), ==, 3);
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (reasons, 0), "Code"), ==, "None");
    second = json_array_get_object_element (reasons, 1);
    g_assert_cmpstr (json_object_get_string_member (second, "Code"), ==, "ConditionalCheckFailed");
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (reasons, 2), "Code"), ==, "None");
    g_assert_true (json_object_has_member (second, "Item"));
    old = dyn_item_from_ddb_json (json_object_get_member (second, "Item"), &item_error);
    g_assert_no_error (item_error);
    g_assert_cmpstr (dyn_test_item_get_number (old, "balance"), ==, "70");
  }
  g_clear_error (&error);

  c_key = key_of ("acct", "c");
  c = dyn_test_get_item (fx->client, fx->table, c_key, TRUE);
  g_assert_null (c);
  a_key = key_of ("acct", "b");
  {
    g_autoptr(DynValue) still = dyn_test_get_item (fx->client, fx->table, a_key, TRUE);
    g_assert_nonnull (still);
    g_assert_cmpstr (dyn_test_item_get_number (still, "balance"), ==, "35");
  }
}

/* PartiQL ----------------------------------------------------------------------------- */

static void
test_partiql (DynTestFixture *fx,
              gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(DynResponse) inserted = NULL;

      inserted = dyn_test_callf (fx->client, "ExecuteStatement", &error,
                                 "{\"Statement\":\"INSERT INTO \\\"%s\\\" VALUE {'pk': 'q', 'sk': ?, 'n': ?}\","
                                 "\"Parameters\":[{\"S\":\"s%u\"},{\"N\":\"%u.25\"}]}",
                                 fx->table, i, i);
      g_assert_no_error (error);
    }

  /* INSERT of an existing key fails with a condition error. */
  {
    g_autoptr(DynResponse) dup = NULL;

    dup = dyn_test_callf (fx->client, "ExecuteStatement", &error,
                          "{\"Statement\":\"INSERT INTO \\\"%s\\\" VALUE {'pk': 'q', 'sk': 's0'}\"}",
                          fx->table);
    g_assert_null (dup);
    g_assert_nonnull (error);
    g_assert_true (error->domain == DYN_ERROR);
    g_assert_true (error->code == DYN_ERROR_CONDITIONAL_CHECK_FAILED || error->code == DYN_ERROR_FAILED ||
                   error->code == DYN_ERROR_VALIDATION);
    g_clear_error (&error);
  }

  response = dyn_test_callf (fx->client, "ExecuteStatement", &error,
                             "{\"Statement\":\"SELECT * FROM \\\"%s\\\" WHERE pk = ? ORDER BY sk DESC\","
                             "\"Parameters\":[{\"S\":\"q\"}],\"ConsistentRead\":true}", fx->table);
  g_assert_no_error (error);
  g_assert_nonnull (response->items);
  g_assert_cmpuint (response->items->len, ==, 3);
  g_assert_cmpstr (dyn_test_item_get_string (response->items->pdata[0], "sk"), ==, "s2");
  g_assert_cmpstr (dyn_test_item_get_number (response->items->pdata[0], "n"), ==, "2.25");
  g_assert_cmpstr (dyn_test_item_get_string (response->items->pdata[2], "sk"), ==, "s0");
}

/* Read-only connections ----------------------------------------------------------------- */

static void
test_read_only (DynTestFixture *fx,
                gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) ro = NULL;
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autoptr(GPtrArray) puts = dyn_test_item_array_new ();

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "S");
  item = dyn_test_item ("{\"pk\":{\"S\":\"r\"},\"sk\":{\"S\":\"1\"},\"x\":{\"S\":\"y\"}}");
  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);

  ro = dyn_test_client_new (fx->server);
  dyn_client_set_read_only (ro, TRUE);

  /* Writes are refused before anything is sent. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_PUT_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    request->item = dyn_value_ref (item);
    response = dyn_test_execute (ro, request, &error);
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    g_clear_error (&error);
  }
  {
    static const char * const ops[] = { "DeleteItem", "UpdateItem", "TransactWriteItems", "DeleteTable",
                                        "CreateTable", "BatchWriteItem", NULL };
    for (guint i = 0; ops[i] != NULL; i++)
      {
        g_autoptr(DynResponse) response = dyn_test_callf (ro, ops[i], &error, "{\"TableName\":\"%s\"}", fx->table);
        g_assert_null (response);
        g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
        g_clear_error (&error);
      }
  }
  {
    g_autoptr(DynResponse) response = NULL;

    response = dyn_test_callf (ro, "ExecuteStatement", &error,
                               "{\"Statement\":\"  insert INTO \\\"%s\\\" VALUE {'pk': 'r', 'sk': '2'}\"}",
                               fx->table);
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    g_clear_error (&error);

    response = dyn_test_callf (ro, "ExecuteStatement", &error,
                               "{\"Statement\":\" select * FROM \\\"%s\\\" WHERE pk = 'r'\"}", fx->table);
    g_assert_no_error (error);
    g_assert_cmpuint (response->items->len, ==, 1);
  }
  g_ptr_array_add (puts, dyn_value_ref (item));
  dyn_test_batch_write (ro, fx->table, puts, NULL, NULL, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);

  /* Reads work. */
  key = key_of ("r", "1");
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_GET_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;
    g_auto(GStrv) names = NULL;

    request->key = dyn_value_ref (key);
    response = dyn_test_execute (ro, request, &error);
    g_assert_no_error (error);
    g_assert_true (dyn_value_equal (response->item, item));
    names = dyn_test_list_tables (ro, &error);
    g_assert_no_error (error);
    g_assert_true (g_strv_contains ((const char * const *) names, fx->table));
  }
}

/* Errors ----------------------------------------------------------------------------------- */

static void
test_error_mapping (DynTestFixture *fx,
                    gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) key = NULL;
  const DynErrorDetails *details;
  guint handler;

  DYN_TEST_REQUIRE_SERVER (fx);

  /* A table that does not exist. */
  key = key_of ("a", "b");
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_GET_ITEM, "no-such-table-at-all");
    g_autoptr(DynResponse) response = NULL;

    request->key = dyn_value_ref (key);
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_NOT_FOUND, "ResourceNotFoundException");
    details = dyn_error_get_details (error);
    g_assert_nonnull (details->request_id);
    g_assert_cmpstr (details->request_id, !=, "");
    g_assert_cmpuint (details->http_status, ==, 400);
    g_assert_nonnull (details->message);
    g_assert_false (dyn_error_is_retryable (error));
    g_clear_error (&error);
  }

  /* A ValidationException is answered at once: one attempt, no retry. */
  create_pk_sk (fx, "S");
  retry_messages = 0;
  handler = g_log_set_handler ("dyn-client", G_LOG_LEVEL_DEBUG, count_retries_log_cb, NULL);
  dyn_client_set_retry (fx->client, 5, 1, 1);
  {
    g_autoptr(DynResponse) response = NULL;

    /* The key lacks its sort key. */
    response = dyn_test_callf (fx->client, "GetItem", &error,
                               "{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"x\"}}}", fx->table);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
    g_assert_false (dyn_error_is_retryable (error));
    g_assert_false (g_str_has_prefix (error->message, "After "));
    details = dyn_error_get_details (error);
    g_assert_nonnull (details->request_id);
    g_assert_nonnull (details->body);
    g_clear_error (&error);
  }
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_UPDATE_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    /* A syntax error in an expression. */
    request->key = key_of ("x", "y");
    request->update = g_strdup ("SET = oops");
    response = dyn_test_execute (fx->client, request, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
    g_clear_error (&error);
  }
  g_assert_cmpuint (retry_messages, ==, 0);

  /* The counter does see retries: a refused connection is tried three times. */
  {
    g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static ("dynoscopetest", "x", NULL);
    g_autoptr(DynClient) dead = dyn_client_new ("http://127.0.0.1:1", DYN_TEST_REGION, creds, &error);
    g_auto(GStrv) names = NULL;

    g_assert_no_error (error);
    dyn_client_set_retry (dead, 3, 1, 1);
    names = dyn_test_list_tables (dead, &error);
    g_assert_null (names);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
    g_assert_true (g_str_has_prefix (error->message, "After 3 attempts"));
    g_clear_error (&error);
  }
  g_log_remove_handler ("dyn-client", handler);
  g_assert_cmpuint (retry_messages, ==, 2);

  /* The same client still succeeds in one attempt. */
  {
    g_autoptr(DynResponse) response = NULL;

    response = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 1);
  }
}

/* Numbers ----------------------------------------------------------------------------------- */

static void
test_numbers (DynTestFixture *fx,
              gconstpointer   data)
{
  static const char * const numbers[] = {
    "12345678901234567890123456789012345678",
    "-12345678901234567890123456789012345678",
    "0.12345678901234567890123456789012345678",
    "1234567890123456789.0123456789012345678",
    "9.9999999999999999999999999999999999999E+125",
    "-9.9999999999999999999999999999999999999E+125",
    "1E-130",
    "-1E-130",
    "1.00000000000000000000000000000000000000",
    "0.000",
    "100E-2",
    "12345678901234567890123456789012345678E+80",
    NULL
  };
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  create_pk_sk (fx, "N");

  for (guint i = 0; numbers[i] != NULL; i++)
    {
      g_autoptr(DynValue) item = NULL;
      g_autoptr(DynValue) got = NULL;
      g_autoptr(DynValue) key = NULL;
      g_autofree char *sent = NULL;
      g_autofree char *received = NULL;
      const char *text;

      item = dyn_test_itemf ("{\"pk\":{\"S\":\"num\"},\"sk\":{\"N\":\"%u\"},\"v\":{\"N\":\"%s\"},"
                             "\"set\":{\"NS\":[\"%s\",\"7\"]}}", i, numbers[i], numbers[i]);
      dyn_test_put_item (fx->client, fx->table, item, &error);
      g_assert_no_error (error);
      key = dyn_test_itemf ("{\"pk\":{\"S\":\"num\"},\"sk\":{\"N\":\"%u\"}}", i);
      {
        g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_GET_ITEM, fx->table);
        g_autoptr(DynResponse) response = NULL;

        request->key = dyn_value_ref (key);
        request->consistent_read = TRUE;
        response = dyn_test_execute (fx->client, request, &error);
        g_assert_no_error (error);
        got = dyn_value_ref (response->item);
      }
      text = dyn_test_item_get_number (got, "v");
      g_assert_nonnull (text);
      sent = dyn_number_canonicalize (numbers[i]);
      received = dyn_number_canonicalize (text);
      g_test_message ("%s → server %s", numbers[i], text);
      g_assert_cmpstr (sent, ==, received);
      g_assert_cmpint (dyn_number_compare (numbers[i], text), ==, 0);
      g_assert_true (dyn_value_equal (got, item));
    }

  /* Sort keys order numerically, at full precision. */
  {
    g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
    g_autoptr(DynRequest) request = NULL;
    g_autoptr(DynPager) pager = NULL;
    g_autoptr(GPtrArray) got = NULL;
    g_autoptr(DynValue) pkv = string_value ("order");
    static const char * const keys[] = {
      "12345678901234567890123456789012345679", "12345678901234567890123456789012345678",
      "-1E-130", "1E-130", "0", NULL
    };

    for (guint i = 0; keys[i] != NULL; i++)
      g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"order\"},\"sk\":{\"N\":\"%s\"}}", keys[i]));
    dyn_test_load_items (fx->client, fx->table, items, &error);
    g_assert_no_error (error);
    request = dyn_request_new (DYN_OP_QUERY, fx->table);
    request->key_condition = g_strdup ("pk = :p");
    dyn_request_add_value (request, ":p", pkv);
    pager = dyn_pager_new (fx->client, request);
    got = dyn_test_pager_run (pager, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, 5);
    for (guint i = 1; i < got->len; i++)
      g_assert_cmpint (dyn_number_compare (dyn_test_item_get_number (got->pdata[i - 1], "sk"),
                                           dyn_test_item_get_number (got->pdata[i], "sk")), <, 0);
    g_assert_cmpint (dyn_number_compare (dyn_test_item_get_number (got->pdata[4], "sk"), keys[0]), ==, 0);
  }
}

/* The seed reads --------------------------------------------------------------------------- */

static void
test_seed_workspaces (DynTestFixture *fx,
                      gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) meta_key = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  g_autoptr(DynValue) er = NULL;
  g_autoptr(DynValue) prefix = NULL;
  g_autofree char *summary = NULL;
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "EntityRef:S", "Detail:S", NULL);
  dyn_test_load_seed (fx->client, fx->table, "workspaces.json", &error);
  g_assert_no_error (error);

  /* Workspace settings: GetItem META. */
  meta_key = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"}}");
  {
    g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    get->key = dyn_value_ref (meta_key);
    response = dyn_test_execute (fx->client, get, &error);
    g_assert_no_error (error);
    g_assert_nonnull (response->item);
    g_assert_cmpstr (dyn_test_item_get_string (response->item, "name"), ==, "Acme Corp");
    g_assert_cmpstr (dyn_test_item_get_number (response->item, "seats"), ==, "250");
    g_assert_cmpuint (response->attempts, ==, 1);
  }

  /* Projects newest first: one Query, one request, one page. */
  request = dyn_request_new (DYN_OP_QUERY, fx->table);
  request->key_condition = g_strdup ("#er = :er AND begins_with(#d, :p)");
  dyn_request_add_name (request, "#er", "EntityRef");
  dyn_request_add_name (request, "#d", "Detail");
  er = string_value ("WS#acme");
  prefix = string_value ("PROJ#");
  dyn_request_add_value (request, ":er", er);
  dyn_request_add_value (request, ":p", prefix);
  request->scan_forward = FALSE;
  pager = dyn_pager_new (fx->client, request);
  projects = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (projects->len, ==, 12);
  g_assert_cmpstr (dyn_test_item_get_string (projects->pdata[0], "Detail"), ==, "PROJ#2026-0050");
  g_assert_cmpstr (dyn_test_item_get_string (projects->pdata[2], "Detail"), ==, "PROJ#2026-0042");
  g_assert_cmpstr (dyn_test_item_get_string (projects->pdata[2], "title"), ==, "Dynoscope pilot");
  g_assert_cmpstr (dyn_test_item_get_string (projects->pdata[11], "Detail"), ==, "PROJ#2025-0003");
  for (guint i = 0; i < projects->len; i++)
    {
      g_assert_cmpstr (dyn_test_item_get_string (projects->pdata[i], "EntityRef"), ==, "WS#acme");
      if (i > 0)
        g_assert_cmpint (strcmp (dyn_test_item_get_string (projects->pdata[i - 1], "Detail"),
                                 dyn_test_item_get_string (projects->pdata[i], "Detail")), >, 0);
    }
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->requests, ==, 1);
  g_assert_cmpuint (stats->pages, ==, 1);
  g_assert_cmpuint (stats->items, ==, 12);
  g_assert_cmpfloat (stats->read_units, >, 0);
  summary = dyn_read_stats_describe (stats, "Query");
  g_assert_true (g_str_has_prefix (summary, "Query · 1 request · 1 page · "));
  g_assert_true (g_str_has_suffix (summary, " · 12 items"));

  /* One project. */
  {
    g_autoptr(DynValue) key = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},"
                                             "\"Detail\":{\"S\":\"PROJ#2026-0042\"}}");
    g_autoptr(DynValue) project = dyn_test_get_item (fx->client, fx->table, key, FALSE);

    g_assert_nonnull (project);
    g_assert_cmpstr (dyn_test_item_get_string (project, "status"), ==, "active");
  }
}

static void
test_seed_students (DynTestFixture *fx,
                    gconstpointer   data)
{
  static const char * const gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) roster = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) students = NULL;
  g_autoptr(DynValue) course = NULL;
  g_autoptr(DynValue) edge = NULL;
  g_autoptr(DynValue) edge_key = NULL;
  g_autoptr(DynValue) after = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "PK:S", "SK:S", gsis);
  dyn_test_load_seed (fx->client, fx->table, "university.json", &error);
  g_assert_no_error (error);

  /* The course roster through the inverted index. */
  roster = dyn_request_new (DYN_OP_QUERY, fx->table);
  roster->index = g_strdup ("GSI1");
  roster->key_condition = g_strdup ("GSI1PK = :c");
  course = string_value ("CRS#math204");
  dyn_request_add_value (roster, ":c", course);
  pager = dyn_pager_new (fx->client, roster);
  students = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (students->len, ==, 3);
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[0], "GSI1SK"), ==, "STU#a91");
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[1], "GSI1SK"), ==, "STU#b17");
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[2], "GSI1SK"), ==, "STU#c03");
  g_assert_cmpstr (dyn_test_item_get_string (students->pdata[0], "SK"), ==, "ENROLL#CRS#math204");
  g_assert_cmpstr (dyn_test_item_get_number (students->pdata[0], "grade"), ==, "1.7");
  g_assert_cmpuint (dyn_pager_get_stats (pager)->requests, ==, 1);

  /* A student's courses from the base table, edges only. */
  {
    g_autoptr(DynRequest) courses = dyn_request_new (DYN_OP_QUERY, fx->table);
    g_autoptr(DynPager) cp = NULL;
    g_autoptr(GPtrArray) got = NULL;
    g_autoptr(DynValue) stu = string_value ("STU#a91");
    g_autoptr(DynValue) pre = string_value ("ENROLL#");

    courses->key_condition = g_strdup ("PK = :s AND begins_with(SK, :e)");
    dyn_request_add_value (courses, ":s", stu);
    dyn_request_add_value (courses, ":e", pre);
    cp = dyn_pager_new (fx->client, courses);
    got = dyn_test_pager_run (cp, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (got->len, ==, 2);
  }

  /* A second enrolment of the same pair, guarded: refused, the first stays. */
  edge = dyn_test_item ("{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"},"
                        "\"GSI1PK\":{\"S\":\"CRS#math204\"},\"GSI1SK\":{\"S\":\"STU#a91\"},"
                        "\"grade\":{\"N\":\"5.0\"},\"enrolledOn\":{\"S\":\"2026-01-01\"}}");
  {
    g_autoptr(DynRequest) put = dyn_request_new (DYN_OP_PUT_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    put->item = dyn_value_ref (edge);
    put->condition = g_strdup ("attribute_not_exists(PK)");
    response = dyn_test_execute (fx->client, put, &error);
    g_assert_null (response);
    dyn_test_assert_service_error (error, DYN_ERROR_CONDITIONAL_CHECK_FAILED,
                                   "ConditionalCheckFailedException");
    g_clear_error (&error);
  }
  edge_key = dyn_test_item ("{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"}}");
  {
    g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, fx->table);
    g_autoptr(DynResponse) response = NULL;

    get->key = dyn_value_ref (edge_key);
    get->consistent_read = TRUE;
    response = dyn_test_execute (fx->client, get, &error);
    g_assert_no_error (error);
    after = dyn_value_ref (response->item);
  }
  g_assert_cmpstr (dyn_test_item_get_number (after, "grade"), ==, "1.7");
  g_assert_cmpstr (dyn_test_item_get_string (after, "enrolledOn"), ==, "2025-10-01");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
test_fan_out (DynTestFixture *fx,
              gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) shards = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) merged = NULL;
  g_autoptr(DynValue) prefix = NULL;
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "EntityRef:S", "Detail:S", NULL);

  /* Projects spread over ten shards by id; each shard also holds a META item. */
  for (guint shard = 1; shard <= 10; shard++)
    {
      g_autofree char *pk = g_strdup_printf ("WS#acme#%02u", shard);

      g_ptr_array_add (shards, string_value (pk));
      g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"%s\"},\"Detail\":{\"S\":\"META\"}}", pk));
    }
  for (guint id = 1; id <= 57; id++)
    {
      g_autofree char *detail = g_strdup_printf ("PROJ#2026-%04u", id * 13 % 1000);
      g_ptr_array_add (items, dyn_test_itemf ("{\"EntityRef\":{\"S\":\"WS#acme#%02u\"},"
                                              "\"Detail\":{\"S\":\"%s\"}}", (id * 7) % 10 + 1, detail));
      g_ptr_array_add (expected, g_steal_pointer (&detail));
    }
  /* A shard that is not asked for. */
  g_ptr_array_add (items, dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme#11\"},\"Detail\":{\"S\":\"PROJ#9999\"}}"));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);

  request = dyn_request_new (DYN_OP_QUERY, fx->table);
  request->key_condition = g_strdup ("#er = :er AND begins_with(#d, :p)");
  dyn_request_add_name (request, "#er", "EntityRef");
  dyn_request_add_name (request, "#d", "Detail");
  prefix = string_value ("PROJ#");
  dyn_request_add_value (request, ":p", prefix);
  request->scan_forward = FALSE;
  request->limit = 4;   /* several pages per shard */
  pager = dyn_pager_new_fan_out (fx->client, request, ":er", shards, "Detail");
  merged = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);

  g_ptr_array_sort (expected, compare_strings);
  g_assert_cmpuint (merged->len, ==, expected->len);
  for (guint i = 0; i < merged->len; i++)
    {
      /* Newest first across every shard. */
      const char *want = expected->pdata[expected->len - 1 - i];
      g_assert_cmpstr (dyn_test_item_get_string (merged->pdata[i], "Detail"), ==, want);
    }
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->items, ==, 57);
  g_assert_cmpuint (stats->pages, >=, 10);
  g_assert_cmpuint (stats->requests, ==, stats->pages);
  g_assert_true (dyn_pager_is_done (pager));
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/dyn/client/" path, DynTestFixture, NULL, fixture_setup, func, dyn_test_fixture_teardown)

  ADD ("list-tables/pages", test_list_tables_pages);
  ADD ("create-table/indexes", test_create_table_indexes);
  ADD ("create-table/provisioned", test_create_table_provisioned);
  ADD ("create-table/params", test_create_table_params);
  ADD ("delete-table", test_delete_table);
  ADD ("item/crud", test_crud);
  ADD ("item/conditions", test_conditions);
  ADD ("query/paging", test_query_paging);
  ADD ("query/index", test_query_index);
  ADD ("scan/parallel", test_scan_parallel);
  ADD ("batch/chunks", test_batch);
  ADD ("transact/write-get-cancel", test_transactions);
  ADD ("partiql", test_partiql);
  ADD ("read-only", test_read_only);
  ADD ("errors/mapping", test_error_mapping);
  ADD ("numbers/precision", test_numbers);
  ADD ("seed/workspaces", test_seed_workspaces);
  ADD ("seed/students", test_seed_students);
  ADD ("pager/fan-out", test_fan_out);

#undef ADD

  return g_test_run ();
}
