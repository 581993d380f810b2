/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-protocol"

#include "config.h"

#include <string.h>

#include "dyn-client.h"
#include "dyn-credentials.h"
#include "dyn-error.h"
#include "dyn-fault-server.h"
#include "dyn-test-util.h"

#define ACCESS_KEY "AKIDFAULTSERVER01"
#define SECRET_KEY "fault/secret/key/never/shown/anywhere0001"

/* How the DynamoDB client copes with a server that answers badly. The server
 * here is not DynamoDB: it replays scripted, often broken, HTTP answers. */

typedef struct
{
  DynFaultServer         *server;
  DynCredentialsProvider *credentials;
  DynClient              *client;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = dyn_fault_server_new ();
  f->credentials = dyn_credentials_provider_new_static (ACCESS_KEY, SECRET_KEY, NULL);
  f->client = dyn_client_new (dyn_fault_server_get_url (f->server), "eu-central-1",
                              f->credentials, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->client);
  /* Three attempts, no sleeping between them: the tests stay fast. */
  dyn_client_set_retry (f->client, 3, 0, 0);
  dyn_client_set_timeouts (f->client, 2000, 10000);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_assert_finalize_object (f->client);
  g_clear_object (&f->credentials);
  dyn_fault_server_free (f->server);
}

static DynResponse *
call_with (DynClient     *client,
           const char    *operation,
           const char    *params_json,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  if (params_json != NULL)
    {
      g_autoptr(GError) parse_error = NULL;
      params = json_from_string (params_json, &parse_error);
      g_assert_no_error (parse_error);
    }
  dyn_client_call_async (client, operation, params, cancellable, dyn_test_result_cb, &result);
  return dyn_client_call_finish (client, dyn_test_wait (&result), error);
}

static DynResponse *
call (Fixture     *f,
      const char  *operation,
      const char  *params_json,
      GError     **error)
{
  return call_with (f->client, operation, params_json, NULL, error);
}

static const char *GET_ITEM = "{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"a\"}}}";
static const char *PUT_ITEM = "{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}},"
                              "\"ConditionExpression\":\"attribute_not_exists(pk)\"}";

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* Success and what goes on the wire ----------------------------------------- */

static void
test_request_headers (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(JsonNode) sent = NULL;
  g_autoptr(JsonNode) expected = NULL;
  g_autofree char *host = g_strdup_printf ("127.0.0.1:%u", dyn_fault_server_get_port (f->server));
  const char *auth;
  DynValue *n;

  dyn_fault_server_push_json (f->server, 200,
                              "{\"Item\":{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"12345678901234567890.123456789\"}},"
                              "\"ConsumedCapacity\":{\"TableName\":\"t\",\"CapacityUnits\":0.5}}");
  response = call (f, "GetItem", GET_ITEM, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);
  g_assert_cmpuint (response->attempts, ==, 1);
  g_assert_cmpstr (response->request_id, ==, "FAULT-1");
  g_assert_nonnull (response->item);
  n = dyn_value_map_lookup (response->item, "n");
  g_assert_nonnull (n);
  g_assert_cmpstr (dyn_value_get_number (n), ==, "12345678901234567890.123456789");
  g_assert_cmpfloat (response->read_units, ==, 0.5);

  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
  g_assert_cmpstr (dyn_fault_server_get_request (f->server, 0)->method, ==, "POST");
  g_assert_cmpstr (dyn_fault_server_get_request (f->server, 0)->path, ==, "/");
  g_assert_cmpstr (dyn_fault_server_get_request_header (f->server, 0, "X-Amz-Target"), ==,
                   "DynamoDB_20120810.GetItem");
  g_assert_cmpstr (dyn_fault_server_get_request_header (f->server, 0, "Content-Type"), ==,
                   "application/x-amz-json-1.0");
  g_assert_cmpstr (dyn_fault_server_get_request_header (f->server, 0, "Host"), ==, host);
  g_assert_nonnull (dyn_fault_server_get_request_header (f->server, 0, "X-Amz-Date"));
  g_assert_null (dyn_fault_server_get_request_header (f->server, 0, "X-Amz-Security-Token"));
  auth = dyn_fault_server_get_request_header (f->server, 0, "Authorization");
  g_assert_nonnull (auth);
  g_assert_true (g_str_has_prefix (auth, "AWS4-HMAC-SHA256 Credential=" ACCESS_KEY "/"));
  g_assert_nonnull (strstr (auth, "/eu-central-1/dynamodb/aws4_request"));
  g_assert_nonnull (strstr (auth, "SignedHeaders="));
  g_assert_nonnull (strstr (auth, "Signature="));
  g_assert_null (strstr (auth, SECRET_KEY));

  /* The body is the parameters as given. */
  sent = json_from_string (dyn_fault_server_get_request_body (f->server, 0), &error);
  g_assert_no_error (error);
  expected = json_from_string (GET_ITEM, &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (sent, expected));
}

static void
test_no_params (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  /* An operation without parameters sends "{}". */
  dyn_fault_server_push_json (f->server, 200, "{\"TableNames\":[\"a\",\"b\"]}");
  response = call (f, "ListTables", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_fault_server_get_request_body (f->server, 0), ==, "{}");
  g_assert_cmpstr (dyn_fault_server_get_request_header (f->server, 0, "X-Amz-Target"), ==,
                   "DynamoDB_20120810.ListTables");
}

static void
test_session_token (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynCredentialsProvider) creds =
    dyn_credentials_provider_new_static ("ASIAFAULT", SECRET_KEY, "FaultSessionToken//+=");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = dyn_client_new (dyn_fault_server_get_url (server), "us-east-1", creds, &error);
  g_autoptr(DynResponse) response = NULL;

  g_assert_no_error (error);
  dyn_fault_server_push_json (server, 200, "{}");
  response = call_with (client, "DescribeLimits", NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 0, "X-Amz-Security-Token"), ==,
                   "FaultSessionToken//+=");
  g_assert_nonnull (strstr (dyn_fault_server_get_request_header (server, 0, "Authorization"),
                            "x-amz-security-token"));

  g_assert_finalize_object (g_steal_pointer (&client));
  dyn_fault_server_free (server);
}

static void
test_no_crc_and_chunked (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  /* The checksum is optional, and a chunked body is checked as reassembled. */
  dyn_fault_server_push_flags (f->server, DYN_FAULT_NO_CRC, 200, "{\"TableNames\":[]}");
  dyn_fault_server_push_flags (f->server, DYN_FAULT_CHUNKED, 200,
                               "{\"Items\":[{\"pk\":{\"S\":\"one\"}},{\"pk\":{\"S\":\"two\"}}],\"Count\":2}");
  {
    g_autoptr(DynResponse) response = call (f, "ListTables", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 1);
  }
  {
    g_autoptr(DynResponse) response = call (f, "Scan", "{\"TableName\":\"t\"}", &error);
    g_assert_no_error (error);
    g_assert_nonnull (response->items);
    g_assert_cmpuint (response->items->len, ==, 2);
    g_assert_cmpuint (response->attempts, ==, 1);
  }
}

/* Bodies we cannot read ----------------------------------------------------- */

static void
assert_protocol_error (Fixture    *f,
                       const char *operation,
                       const char *params,
                       const char *body,
                       gssize      len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  DynFaultResponse r = { .status = 200, .body = body, .body_len = len };
  guint before = dyn_fault_server_get_request_count (f->server);

  dyn_fault_server_push (f->server, &r);
  response = call (f, operation, params, &error);
  {
    g_autofree char *shown = g_strescape (body, NULL);
    g_test_message ("%.60s → %s", shown, error ? error->message : "(no error)");
  }
  g_assert_null (response);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_true (g_str_has_prefix (error->message, operation));
  /* A body with a good checksum that does not parse is not sent again. */
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, before + 1);
}

static void
test_bad_json (Fixture       *f,
               gconstpointer  data)
{
  static const char *bodies[] = {
    "",
    "{\"Items\":[{\"pk\":{\"S\":\"a\"}}",                    /* truncated */
    "{\"Items\":[{\"pk\":{\"S\":\"a\"}},]}",                 /* trailing comma */
    "{\"Items\": [}",
    "{\"Count\": 1} trailing",
    "{\"TableNames\":[\"a\"]}{}",
    "\xff\xfe{\"a\":1}",
    "{\"S\":\"\xc3\x28\"}",                                /* invalid UTF-8 */
    "[1,2,3]",
    "\"just a string\"",
    "null",
    "<html>OK</html>",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    assert_protocol_error (f, "Scan", "{\"TableName\":\"t\"}", bodies[i], -1);

  /* A NUL inside the body. */
  assert_protocol_error (f, "Scan", "{\"TableName\":\"t\"}", "{\"Count\":1,\0\"x\":2}", 18);
}

static void
test_wrong_types (Fixture       *f,
                  gconstpointer  data)
{
  static const char *scan_bodies[] = {
    "{\"Items\": 5}",
    "{\"Items\": \"x\"}",
    "{\"Items\": [5]}",
    "{\"Items\": [{\"a\": 5}]}",
    "{\"Items\": [{\"a\": {\"N\": 5}}]}",
    "{\"Items\": [{\"a\": {\"X\": \"1\"}}]}",
    "{\"Items\": [{\"a\": {\"S\": \"x\", \"N\": \"1\"}}]}",
    "{\"Items\": [{\"a\": {}}]}",
    "{\"Items\": [{\"a\": {\"SS\": []}}]}",
    "{\"Items\": [{\"a\": {\"NS\": [\"1\", \"1.0\"]}}]}",
    "{\"Items\": [{\"a\": {\"B\": \"***\"}}]}",
    "{\"Items\": [{\"a\": {\"BOOL\": \"true\"}}]}",
    "{\"Items\": [{\"a\": {\"L\": {}}}]}",
  };
  static const char *get_bodies[] = {
    "{\"Item\": {\"a\": {\"N\": 5}}}",
    "{\"Item\": 5}",
    "{\"Item\": [\"a\"]}",
    "{\"Item\": {\"a\": {\"M\": {\"b\": {\"N\": true}}}}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (scan_bodies); i++)
    assert_protocol_error (f, "Scan", "{\"TableName\":\"t\"}", scan_bodies[i], -1);
  for (guint i = 0; i < G_N_ELEMENTS (get_bodies); i++)
    assert_protocol_error (f, "GetItem", GET_ITEM, get_bodies[i], -1);
}

static void
test_numbers_out_of_range (Fixture       *f,
                           gconstpointer  data)
{
  static const char *bodies[] = {
    "{\"Item\": {\"n\": {\"N\": \"1e500\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"-1E126\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"1e-131\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"123456789012345678901234567890123456789\"}}}",  /* 39 digits */
    "{\"Item\": {\"n\": {\"N\": \"NaN\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"Infinity\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"0x10\"}}}",
    "{\"Item\": {\"n\": {\"N\": \"\"}}}",
    "{\"Item\": {\"n\": {\"NS\": [\"1\", \"1e500\"]}}}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    assert_protocol_error (f, "GetItem", GET_ITEM, bodies[i], -1);
  assert_protocol_error (f, "Query", "{\"TableName\":\"t\"}",
                         "{\"Items\": [{\"n\": {\"N\": \"1e500\"}}], \"Count\": 1}", -1);

  /* The largest and smallest numbers DynamoDB holds do come through, exactly. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_fault_server_push_json (f->server, 200,
                                "{\"Item\":{\"big\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"},"
                                "\"small\":{\"N\":\"1E-130\"}}}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (response->item, "big")), ==,
                     "9.9999999999999999999999999999999999999E+125");
    g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (response->item, "small")), ==,
                     "1E-130");
  }
}

static void
test_oversized (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  gsize len = 64 * 1024 * 1024 + 16;
  g_autofree char *body = g_malloc (len);
  DynFaultResponse r = { .status = 200, .body = body, .body_len = len };

  /* A well-formed JSON object, just larger than the 64 MiB the client reads. */
  memset (body, ' ', len);
  body[0] = '{';
  body[len - 1] = '}';
  dyn_fault_server_push (f->server, &r);
  g_clear_pointer (&body, g_free);

  response = call (f, "Scan", "{\"TableName\":\"t\"}", &error);
  g_test_message ("%s", error ? error->message : "(no error)");
  g_assert_null (response);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
}

static void
test_html_error_pages (Fixture       *f,
                       gconstpointer  data)
{
  static const char html502[] =
    "<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n"
    "<body>\n<center><h1>502 Bad Gateway</h1></center>\n</body>\n</html>\n";
  static const char html403[] =
    "<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1>"
    "<p>You don't have permission to access this resource.</p></body></html>";

  /* A 502 from a proxy is transient: retried, then reported as a server error. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    for (guint i = 0; i < 3; i++)
      dyn_fault_server_push_html (f->server, 502, html502);
    response = call (f, "GetItem", GET_ITEM, &error);
    g_test_message ("502: %s", error ? error->message : "(no error)");
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_SERVER);
    g_assert_nonnull (strstr (error->message, "502"));
    g_assert_nonnull (strstr (error->message, "text/html"));
    g_assert_nonnull (strstr (error->message, "Bad Gateway"));
    g_assert_null (strchr (error->message, '\n'));
    g_assert_cmpuint (dyn_error_get_details (error)->http_status, ==, 502);
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
  }

  /* A 503 page, then the real answer. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_fault_server_push_html (f->server, 503, "<html><body>Service Unavailable</body></html>");
    dyn_fault_server_push_json (f->server, 200, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 2);
  }

  /* A 403 page is not DynamoDB talking: a protocol error, not retried. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;
    guint before = dyn_fault_server_get_request_count (f->server);

    dyn_fault_server_push_html (f->server, 403, html403);
    response = call (f, "GetItem", GET_ITEM, &error);
    g_test_message ("403: %s", error ? error->message : "(no error)");
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "403"));
    g_assert_nonnull (strstr (error->message, "text/html"));
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, before + 1);
  }

  /* A 5xx with an empty body is classified by its status. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;
    DynFaultResponse empty = { .status = 504, .content_type = "text/plain", .body = "", .body_len = 0 };

    for (guint i = 0; i < 3; i++)
      dyn_fault_server_push (f->server, &empty);
    response = call (f, "GetItem", GET_ITEM, &error);
    g_test_message ("504: %s", error ? error->message : "(no error)");
    g_assert_error (error, DYN_ERROR, DYN_ERROR_SERVER);
    g_assert_nonnull (strstr (error->message, "504"));
  }
}

/* Checksums and broken connections ------------------------------------------- */

static void
test_bad_crc (Fixture       *f,
              gconstpointer  data)
{
  /* Damaged every time: retried, then a protocol error. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    for (guint i = 0; i < 3; i++)
      dyn_fault_server_push_flags (f->server, DYN_FAULT_BAD_CRC, 200, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_test_message ("%s", error ? error->message : "(no error)");
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
    g_assert_nonnull (strstr (error->message, "CRC32"));
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
    g_assert_cmpuint (dyn_fault_server_get_pending (f->server), ==, 0);
  }

  dyn_fault_server_reset (f->server);

  /* Damaged twice, then intact. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_fault_server_push_flags (f->server, DYN_FAULT_BAD_CRC, 200, "{\"Item\":{\"pk\":{\"S\":\"x\"}}}");
    dyn_fault_server_push_flags (f->server, DYN_FAULT_BAD_CRC, 200, "{\"Item\":{\"pk\":{\"S\":\"y\"}}}");
    dyn_fault_server_push_json (f->server, 200, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 3);
    g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (response->item, "pk")), ==, "a");
  }

  dyn_fault_server_reset (f->server);

  /* A checksum over an error body is checked too. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;
    DynFaultResponse bad = {
      .status = 400, .body = "{\"__type\":\"ValidationException\",\"message\":\"x\"}",
      .body_len = -1, .flags = DYN_FAULT_BAD_CRC,
    };

    dyn_fault_server_push (f->server, &bad);
    dyn_fault_server_push_error (f->server, 400, "ValidationException", "the real one");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
    g_assert_cmpstr (dyn_error_get_details (error)->message, ==, "the real one");
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 2);
  }

  dyn_fault_server_reset (f->server);

  /* A checksum header that is not a number. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;
    const char * const header[] = { "x-amz-crc32: banana", NULL };
    DynFaultResponse r = {
      .status = 200, .headers = header, .body = "{}", .body_len = -1, .flags = DYN_FAULT_NO_CRC,
    };

    for (guint i = 0; i < 3; i++)
      dyn_fault_server_push (f->server, &r);
    response = call (f, "ListTables", NULL, &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  }
}

static void
test_dropped_connection (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  dyn_fault_server_push_drop (f->server);
  dyn_fault_server_push_flags (f->server, DYN_FAULT_TRUNCATE, 200, "{\"Item\":{\"pk\":{\"S\":\"cut\"}}}");
  dyn_fault_server_push_json (f->server, 200, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}");
  response = call (f, "GetItem", GET_ITEM, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (response->attempts, ==, 3);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
  /* Each failure closed its connection, so each retry came on a new one. */
  g_assert_cmpuint (dyn_fault_server_get_connection_count (f->server), ==, 3);
  /* The request id of the answer that counted. */
  g_assert_cmpstr (response->request_id, ==, "FAULT-3");
}

static void
test_garbage (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  dyn_fault_server_push_garbage (f->server, "SSH-2.0-OpenSSH_9.2\r\n", -1);
  dyn_fault_server_push_garbage (f->server, "HTTP/1.1 200 OK\r\nContent-Le", -1);
  dyn_fault_server_push_drop (f->server);
  response = call (f, "GetItem", GET_ITEM, &error);
  g_test_message ("%s", error ? error->message : "(no error)");
  g_assert_null (response);
  g_assert_nonnull (error);
  g_assert_true (error->domain == G_IO_ERROR);
  g_assert_nonnull (strstr (error->message, "After 3 attempts"));
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
}

static void
test_server_down (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCredentialsProvider) creds = dyn_credentials_provider_new_static (ACCESS_KEY, SECRET_KEY, NULL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autofree char *url = NULL;
  DynFaultServer *server;

  /* A port that was just free: nothing listens there. */
  server = dyn_fault_server_new ();
  url = g_strdup (dyn_fault_server_get_url (server));
  dyn_fault_server_free (server);

  client = dyn_client_new (url, "us-east-1", creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, 3, 0, 0);
  response = call_with (client, "ListTables", NULL, NULL, &error);
  g_test_message ("%s", error ? error->message : "(no error)");
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  g_assert_nonnull (strstr (error->message, "After 3 attempts"));
  g_assert_true (dyn_error_is_retryable (error));
  g_assert_finalize_object (g_steal_pointer (&client));
}

/* Service errors ------------------------------------------------------------ */

static void
test_throttling_retried (Fixture       *f,
                         gconstpointer  data)
{
  /* Throttled twice, then served. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_fault_server_push_error (f->server, 400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                                 "The level of configured provisioned throughput for the table was exceeded.");
    dyn_fault_server_push_error (f->server, 400, "com.amazonaws.dynamodb.v20120810#ThrottlingException",
                                 "Rate of requests exceeds the allowed throughput.");
    dyn_fault_server_push_json (f->server, 200, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 3);
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
  }

  dyn_fault_server_reset (f->server);

  /* Throttled every time. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    for (guint i = 0; i < 3; i++)
      dyn_fault_server_push_error (f->server, 400, "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                                   "slow down");
    dyn_fault_server_push_json (f->server, 200, "{}");
    response = call (f, "GetItem", GET_ITEM, &error);
    g_test_message ("%s", error ? error->message : "(no error)");
    g_assert_error (error, DYN_ERROR, DYN_ERROR_THROTTLED);
    g_assert_cmpstr (dyn_error_get_details (error)->aws_code, ==, "ProvisionedThroughputExceededException");
    g_assert_cmpstr (dyn_error_get_details (error)->request_id, ==, "FAULT-3");
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 3);
    g_assert_cmpuint (dyn_fault_server_get_pending (f->server), ==, 1);
  }

  dyn_fault_server_reset (f->server);

  /* 500 InternalServerError and 503 are transient too. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_fault_server_push_error (f->server, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError",
                                 "Internal server error");
    dyn_fault_server_push_error (f->server, 503, "ServiceUnavailable", "try later");
    dyn_fault_server_push_json (f->server, 200, "{}");
    response = call (f, "ListTables", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 3);
  }
}

static void
test_not_retried (Fixture       *f,
                  gconstpointer  data)
{
  static const struct {
    const char *type;
    guint       status;
    DynError    code;
    const char *aws_code;
  } cases[] = {
    { "com.amazon.coral.validate#ValidationException", 400, DYN_ERROR_VALIDATION, "ValidationException" },
    { "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400,
      DYN_ERROR_CONDITIONAL_CHECK_FAILED, "ConditionalCheckFailedException" },
    { "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400, DYN_ERROR_NOT_FOUND,
      "ResourceNotFoundException" },
    { "com.amazonaws.dynamodb.v20120810#AccessDeniedException", 400, DYN_ERROR_ACCESS_DENIED,
      "AccessDeniedException" },
    { "com.amazon.coral.service#InvalidSignatureException", 400, DYN_ERROR_SIGNATURE,
      "InvalidSignatureException" },
    { "com.amazon.coral.service#MissingAuthenticationTokenException", 400, DYN_ERROR_SIGNATURE,
      "MissingAuthenticationTokenException" },
    { "com.amazon.coral.service#ExpiredTokenException", 400, DYN_ERROR_EXPIRED_CREDENTIALS,
      "ExpiredTokenException" },
    { "com.amazon.coral.service#SerializationException", 400, DYN_ERROR_VALIDATION,
      "SerializationException" },
    { "com.amazonaws.dynamodb.v20120810#SomethingNewException", 400, DYN_ERROR_FAILED,
      "SomethingNewException" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = NULL;
      const DynErrorDetails *details;

      dyn_fault_server_reset (f->server);
      dyn_fault_server_push_error (f->server, cases[i].status, cases[i].type, "no retry for this one");
      dyn_fault_server_push_json (f->server, 200, "{}");   /* must stay unused */

      /* A write: exactly one request may reach the server. */
      response = call (f, "PutItem", PUT_ITEM, &error);
      g_test_message ("%s → %s", cases[i].type, error ? error->message : "(no error)");
      g_assert_null (response);
      g_assert_error (error, DYN_ERROR, (gint) cases[i].code);
      details = dyn_error_get_details (error);
      g_assert_nonnull (details);
      g_assert_cmpstr (details->aws_code, ==, cases[i].aws_code);
      g_assert_cmpstr (details->message, ==, "no retry for this one");
      g_assert_cmpstr (details->request_id, ==, "FAULT-1");
      g_assert_cmpuint (details->http_status, ==, cases[i].status);
      g_assert_nonnull (details->body);
      g_assert_false (dyn_error_is_retryable (error));
      g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
      g_assert_cmpuint (dyn_fault_server_get_pending (f->server), ==, 1);
    }
}

static void
test_bad_success_body_not_resent (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  /* The write may have happened: a body we cannot read must not cause a second write. */
  dyn_fault_server_push_json (f->server, 200, "{\"Attributes\":{\"pk\":{\"S\":");
  dyn_fault_server_push_json (f->server, 200, "{}");
  response = call (f, "PutItem", PUT_ITEM, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
  g_assert_cmpuint (dyn_fault_server_get_pending (f->server), ==, 1);
}

static void
test_read_only_sends_nothing (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  dyn_client_set_read_only (f->client, TRUE);
  response = call (f, "PutItem", PUT_ITEM, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  response = call (f, "ExecuteStatement", "{\"Statement\":\"  update t set a=1 where pk='x'\"}", &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 0);
}

static void
test_error_type_sanitising (Fixture       *f,
                            gconstpointer  data)
{
  static const struct {
    const char *body;
    const char *header;      /* X-Amzn-Errortype, or NULL */
    const char *aws_code;
    const char *message;
    DynError    code;
  } cases[] = {
    { "{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":\"m1\"}", NULL,
      "ValidationException", "m1", DYN_ERROR_VALIDATION },
    { "{\"__type\":\"ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/\","
      "\"message\":\"m2\"}", NULL, "ValidationException", "m2", DYN_ERROR_VALIDATION },
    { "{\"__type\":\"aws.protocoltests.restjson#ResourceNotFoundException:http://internal.amazon.com/coral/x/\","
      "\"Message\":\"m3\"}", NULL, "ResourceNotFoundException", "m3", DYN_ERROR_NOT_FOUND },
    { "{\"__type\":\"FooError\",\"message\":\"m4\"}", NULL, "FooError", "m4", DYN_ERROR_FAILED },
    /* Type in a "code" member. */
    { "{\"code\":\"ConditionalCheckFailedException\",\"message\":\"m5\"}", NULL,
      "ConditionalCheckFailedException", "m5", DYN_ERROR_CONDITIONAL_CHECK_FAILED },
    /* Type only in the header, with a JSON body and with none. */
    { "{\"message\":\"m6\"}", "ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/",
      "ValidationException", "m6", DYN_ERROR_VALIDATION },
    { "", "com.amazonaws.dynamodb.v20120810#ResourceInUseException", "ResourceInUseException", NULL,
      DYN_ERROR_IN_USE },
    /* "Message" as TransactionCanceledException and friends spell it. */
    { "{\"__type\":\"com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException\",\"Message\":\"m7\"}",
      NULL, "IdempotentParameterMismatchException", "m7", DYN_ERROR_VALIDATION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = NULL;
      g_autofree char *header = cases[i].header ? g_strdup_printf ("X-Amzn-Errortype: %s", cases[i].header) : NULL;
      const char * const headers[] = { header, NULL };
      DynFaultResponse r = { .status = 400, .headers = headers, .body = cases[i].body, .body_len = -1 };
      const DynErrorDetails *details;

      dyn_fault_server_reset (f->server);
      dyn_fault_server_push (f->server, &r);
      response = call (f, "DescribeTable", "{\"TableName\":\"t\"}", &error);
      g_test_message ("%s → %s", cases[i].body, error ? error->message : "(no error)");
      g_assert_error (error, DYN_ERROR, (gint) cases[i].code);
      details = dyn_error_get_details (error);
      g_assert_nonnull (details);
      g_assert_cmpstr (details->aws_code, ==, cases[i].aws_code);
      g_assert_cmpstr (details->message, ==, cases[i].message);
      g_assert_cmpstr (details->request_id, ==, "FAULT-1");
      g_assert_nonnull (strstr (error->message, cases[i].aws_code));
      g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
    }
}

static void
test_no_request_id (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  DynFaultResponse r = {
    .status = 400, .body = "{\"__type\":\"ValidationException\",\"message\":\"x\"}", .body_len = -1,
    .flags = DYN_FAULT_NO_REQUEST_ID,
  };

  dyn_fault_server_push (f->server, &r);
  response = call (f, "GetItem", GET_ITEM, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_VALIDATION);
  g_assert_null (dyn_error_get_details (error)->request_id);
}

static void
test_transaction_canceled (Fixture       *f,
                           gconstpointer  data)
{
  static const char params[] =
    "{\"ClientRequestToken\":\"tok-7f1c2a9e-1111-4c3b-9d2e-fault\",\"TransactItems\":["
    "{\"Put\":{\"TableName\":\"t\",\"Item\":{\"pk\":{\"S\":\"a\"}},\"ConditionExpression\":\"attribute_not_exists(pk)\"}},"
    "{\"Update\":{\"TableName\":\"t\",\"Key\":{\"pk\":{\"S\":\"b\"}},\"UpdateExpression\":\"SET v = :v\","
    "\"ConditionExpression\":\"v = :old\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"2\"},\":old\":{\"N\":\"1\"}},"
    "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}}]}";
  static const char body[] =
    "{\"__type\":\"com.amazonaws.dynamodb.v20120810#TransactionCanceledException\","
    "\"Message\":\"Transaction cancelled, please refer cancellation reasons for specific reasons "
    "[None, ConditionalCheckFailed]\","
    "\"CancellationReasons\":[{\"Code\":\"None\"},"
    "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request failed\","
    "\"Item\":{\"pk\":{\"S\":\"b\"},\"v\":{\"N\":\"5\"}}}]}";
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(JsonArray) reasons = NULL;
  const DynErrorDetails *details;
  JsonObject *second;

  /* A 500 first: the retry must carry the same idempotency token (the same body). */
  dyn_fault_server_push_error (f->server, 500, "InternalServerError", "oops");
  dyn_fault_server_push_json (f->server, 400, body);
  dyn_fault_server_push_json (f->server, 200, "{}");
  response = call (f, "TransactWriteItems", params, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 2);
  g_assert_cmpuint (dyn_fault_server_get_pending (f->server), ==, 1);
  g_assert_cmpstr (dyn_fault_server_get_request_body (f->server, 0), ==,
                   dyn_fault_server_get_request_body (f->server, 1));
  g_assert_nonnull (strstr (dyn_fault_server_get_request_body (f->server, 1),
                            "\"ClientRequestToken\":\"tok-7f1c2a9e-1111-4c3b-9d2e-fault\""));
  g_assert_cmpstr (dyn_fault_server_get_request_header (f->server, 1, "X-Amz-Target"), ==,
                   "DynamoDB_20120810.TransactWriteItems");

  details = dyn_error_get_details (error);
  g_assert_cmpstr (details->aws_code, ==, "TransactionCanceledException");
  g_assert_true (g_str_has_prefix (details->message, "Transaction cancelled"));
  g_assert_cmpstr (details->request_id, ==, "FAULT-2");

  reasons = dyn_error_get_cancellation_reasons (error);
  g_assert_nonnull (reasons);
  g_assert_cmpuint (json_array_get_length (reasons), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (reasons, 0), "Code"), ==, "None");
  second = json_array_get_object_element (reasons, 1);
  g_assert_cmpstr (json_object_get_string_member (second, "Code"), ==, "ConditionalCheckFailed");
  g_assert_cmpstr (json_object_get_string_member (second, "Message"), ==, "The conditional request failed");
  g_assert_true (json_object_has_member (second, "Item"));

  /* Not a cancellation: no reasons. */
  {
    g_autoptr(GError) other = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "x");
    g_assert_null (dyn_error_get_cancellation_reasons (other));
  }
}

static void
test_conditional_check_item (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) item = NULL;

  dyn_fault_server_push_json (f->server, 400,
                              "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
                              "\"message\":\"The conditional request failed\","
                              "\"Item\":{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"7\"}}}");
  response = call (f, "PutItem", PUT_ITEM, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED);
  item = dyn_error_get_item (error);
  g_assert_nonnull (item);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (item, "version")), ==, "7");
  g_assert_null (dyn_error_get_cancellation_reasons (error));
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
}

/* Backoff and cancellation -------------------------------------------------- */

static void
test_retry_settings (Fixture       *f,
                     gconstpointer  data)
{
  /* One attempt only: nothing is retried. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;

    dyn_client_set_retry (f->client, 1, 0, 0);
    dyn_fault_server_push_error (f->server, 500, "InternalServerError", "once");
    dyn_fault_server_push_json (f->server, 200, "{}");
    response = call (f, "ListTables", NULL, &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_SERVER);
    g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 1);
  }

  dyn_fault_server_reset (f->server);

  /* Six attempts with a 1 ms base: well under a second in all. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynResponse) response = NULL;
    gint64 start = g_get_monotonic_time ();

    dyn_client_set_retry (f->client, 6, 1, 1);
    for (guint i = 0; i < 5; i++)
      dyn_fault_server_push_error (f->server, 400, "ThrottlingException", "slow");
    dyn_fault_server_push_json (f->server, 200, "{}");
    response = call (f, "ListTables", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->attempts, ==, 6);
    g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  }
}

static void
test_cancel_in_flight (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  gint64 start = g_get_monotonic_time ();

  dyn_fault_server_push_delayed (f->server, 10000, 200, "{}");
  g_timeout_add (50, cancel_cb, cancellable);
  response = call_with (f->client, "ListTables", NULL, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_cancel_during_backoff (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  gint64 start = g_get_monotonic_time ();

  /* A 20 s backoff ceiling: the sleep before the retry is almost surely
   * longer than the 200 ms until the cancel. Should it be short, the retry's
   * answer is held back 10 s, so the cancel still lands while waiting. */
  dyn_client_set_retry (f->client, 3, 20000, 20000);
  dyn_fault_server_push_error (f->server, 500, "InternalServerError", "retry me");
  dyn_fault_server_push_delayed (f->server, 10000, 200, "{}");
  g_timeout_add (200, cancel_cb, cancellable);
  response = call_with (f->client, "ListTables", NULL, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), >=, 1);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), <=, 2);
}

static void
test_cancel_before (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  g_cancellable_cancel (cancellable);
  response = call_with (f->client, "PutItem", PUT_ITEM, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (dyn_fault_server_get_request_count (f->server), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/dyn/protocol/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("request-headers", test_request_headers);
  ADD ("no-params", test_no_params);
  g_test_add_func ("/dyn/protocol/session-token", test_session_token);
  ADD ("no-crc-and-chunked", test_no_crc_and_chunked);
  ADD ("bad-json", test_bad_json);
  ADD ("wrong-types", test_wrong_types);
  ADD ("numbers-out-of-range", test_numbers_out_of_range);
  ADD ("oversized", test_oversized);
  ADD ("html-error-pages", test_html_error_pages);
  ADD ("bad-crc", test_bad_crc);
  ADD ("dropped-connection", test_dropped_connection);
  ADD ("garbage", test_garbage);
  g_test_add_func ("/dyn/protocol/server-down", test_server_down);
  ADD ("throttling-retried", test_throttling_retried);
  ADD ("not-retried", test_not_retried);
  ADD ("bad-success-body-not-resent", test_bad_success_body_not_resent);
  ADD ("read-only-sends-nothing", test_read_only_sends_nothing);
  ADD ("error-type-sanitising", test_error_type_sanitising);
  ADD ("no-request-id", test_no_request_id);
  ADD ("transaction-canceled", test_transaction_canceled);
  ADD ("conditional-check-item", test_conditional_check_item);
  ADD ("retry-settings", test_retry_settings);
  ADD ("cancel-in-flight", test_cancel_in_flight);
  ADD ("cancel-during-backoff", test_cancel_during_backoff);
  ADD ("cancel-before", test_cancel_before);

#undef ADD

  return g_test_run ();
}
