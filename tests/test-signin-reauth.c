/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Expired credentials in the middle of a session: DynamoDB Local behind the
 * fault server's proxy, which answers ExpiredTokenException to every request
 * signed with an access key the test expired, as DynamoDB does.
 */
#include "config.h"

#include <string.h>

#include "dyn-fault-server.h"
#include "dyn-test-util.h"

#define EXPIRED_TYPE    "com.amazon.coral.service#ExpiredTokenException"
#define EXPIRED_MESSAGE "The security token included in the request is expired"

/* ------------------------------------------------------------------ helpers */

static DynClient *
client_with_key (const char *url,
                 const char *access_key_id)
{
  g_autoptr(DynCredentialsProvider) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynClient *client;

  creds = dyn_credentials_provider_new_static (access_key_id, DYN_TEST_SECRET_KEY, NULL);
  client = dyn_client_new (url, DYN_TEST_REGION, creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, 3, 5, 5);
  return client;
}

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  if (dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "reauth"))
    dyn_test_fixture_create_table (fx, "id:S", NULL, NULL);
}

/* ------------------------------------------------------- the fault server */

/* A request signed with an expired key gets DynamoDB's answer, byte for byte,
 * and is not forwarded; other keys go through. */
static void
test_fault_expired_key (DynTestFixture *fx,
                        gconstpointer   data)
{
  DYN_TEST_REQUIRE_SERVER (fx);
  DynFaultServer *proxy = dyn_fault_server_new_proxy (dyn_test_server_get_endpoint (fx->server));
  g_autoptr(DynClient) old_client = client_with_key (dyn_fault_server_get_url (proxy), "AKIDEXPIREDOLD");
  g_autoptr(DynClient) other_client = client_with_key (dyn_fault_server_get_url (proxy), "AKIDEXPIREDTWO");
  g_autoptr(DynClient) fresh_client = client_with_key (dyn_fault_server_get_url (proxy), "AKIDFRESH");
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  const DynErrorDetails *details;
  guint forwarded;

  dyn_fault_server_expire_access_key (proxy, "AKIDEXPIREDOLD");
  dyn_fault_server_expire_access_key (proxy, "AKIDEXPIREDTWO");

  response = dyn_test_callf (old_client, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"a\"}}}", fx->table);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredTokenException");
  details = dyn_error_get_details (error);
  g_assert_cmpuint (details->http_status, ==, 400);
  g_assert_cmpstr (details->message, ==, EXPIRED_MESSAGE);
  g_assert_cmpstr (details->body, ==,
                   "{\"__type\":\"" EXPIRED_TYPE "\",\"message\":\"" EXPIRED_MESSAGE "\"}");
  /* Not retried: one request, and the upstream never saw it. */
  g_assert_cmpuint (dyn_fault_server_get_request_count (proxy), ==, 1);
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, 0);
  g_assert_cmpuint (dyn_fault_server_proxy_get_expired (proxy), ==, 1);
  g_assert_cmpstr (details->request_id, ==, "FAULT-1");
  g_clear_error (&error);

  response = dyn_test_callf (other_client, "ListTables", &error, "{}");
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredTokenException");
  g_clear_error (&error);

  /* Clearing the rules keeps the expired keys. */
  dyn_fault_server_proxy_clear_rules (proxy);
  forwarded = dyn_fault_server_proxy_get_forwarded (proxy);
  response = dyn_test_callf (fresh_client, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"a\"}}}", fx->table);
  g_assert_no_error (error);
  g_assert_nonnull (response);
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (proxy), ==, forwarded + 1);
  g_clear_pointer (&response, dyn_response_free);

  response = dyn_test_callf (old_client, "ListTables", &error, "{}");
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredTokenException");
  g_assert_cmpuint (dyn_fault_server_proxy_get_expired (proxy), ==, 3);

  dyn_fault_server_free (proxy);
}

int
main (int argc, char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add ("/signin-reauth/fault-server/expired-key", DynTestFixture, NULL,
              fixture_setup, test_fault_expired_key, dyn_test_fixture_teardown);

  return g_test_run ();
}
