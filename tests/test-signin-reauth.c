/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Expired credentials in the middle of a session: DynamoDB Local behind the
 * fault server's proxy, which answers ExpiredTokenException to every request
 * signed with an access key the test expired, as DynamoDB does.
 */
#include "config.h"

#include <string.h>

#include "dyn-fault-server.h"
#include "dyn-json.h"
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


/* ------------------------------------------------------- reauth fixtures */

#define KEY_A "AKIDSIGNINA"
#define KEY_B "AKIDSIGNINB"
#define N_CONCURRENT 5

/* A provider that stands for a sign-in: it hands out its current key; the
 * "sign-in" (the test's reauth handler) switches it. @auto_next is a key it
 * switches to by itself on its next fetch (role credentials refreshing without
 * the user); @fail_expired makes it fail as an SSO provider does whose token
 * expired and who may not ask the user. */
typedef struct
{
  char     *key;
  char     *auto_next;
  gboolean  fail_expired;
  guint     fetches;
} TestSource;

static void
source_fetch (GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             callback_data,
              gpointer             user_data)
{
  TestSource *src = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(GDateTime) expires = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) later = g_date_time_add_hours (expires, 1);

  src->fetches++;
  if (src->fail_expired)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                               "the test session expired: sign in again");
      return;
    }
  g_task_return_pointer (task, dyn_credentials_new (src->key, DYN_TEST_SECRET_KEY, "session-token", later),
                         (GDestroyNotify) dyn_credentials_unref);
  if (src->auto_next != NULL)
    {
      g_free (src->key);
      src->key = g_steal_pointer (&src->auto_next);
    }
}

static DynCredentials *
source_finish (GAsyncResult  *result,
               GError       **error,
               gpointer       user_data)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct
{
  DynTestFixture  fx;
  DynFaultServer *proxy;
  TestSource      src;
  DynClient      *client;

  /* The reauth handler */
  guint           reauth_calls;
  GTask          *reauth_task;
  GError         *reauth_error;    /* a copy of what it was told */
  guint           handler_freed;
} Reauth;

static void
reauth_cb (DynClient           *client,
           const GError        *error,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  Reauth *r = user_data;

  g_assert_true (client == r->client);
  g_assert_null (r->reauth_task);
  r->reauth_calls++;
  g_clear_error (&r->reauth_error);
  r->reauth_error = g_error_copy (error);
  r->reauth_task = g_task_new (NULL, cancellable, callback, callback_data);
}

static gboolean
reauth_finish (GAsyncResult  *result,
               GError       **error,
               gpointer       user_data)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
reauth_data_freed (gpointer user_data)
{
  Reauth *r = user_data;

  r->handler_freed++;
}

/* The user signed in again (the provider now hands out key B) or gave up. */
static void
reauth_answer (Reauth   *r,
               gboolean  signed_in)
{
  GTask *task = g_steal_pointer (&r->reauth_task);

  g_assert_nonnull (task);
  if (signed_in)
    {
      g_free (r->src.key);
      r->src.key = g_strdup (KEY_B);
      r->src.fail_expired = FALSE;
      dyn_credentials_provider_invalidate (dyn_client_get_credentials_provider (r->client));
      g_task_return_boolean (task, TRUE);
    }
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                             "Sign-in cancelled: the table was not changed");
  g_object_unref (task);
}

static void
reauth_setup (Reauth        *r,
              gconstpointer  data)
{
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  memset (r, 0, sizeof *r);
  if (!dyn_test_fixture_setup (&r->fx, DYN_TEST_DYNAMODB_LOCAL, "reauth"))
    return;
  dyn_test_fixture_create_table (&r->fx, "id:S", NULL, NULL);
  r->proxy = dyn_fault_server_new_proxy (dyn_test_server_get_endpoint (r->fx.server));
  dyn_fault_server_expire_access_key (r->proxy, KEY_A);
  r->src.key = g_strdup (KEY_A);
  provider = dyn_credentials_provider_new_custom (source_fetch, source_finish, &r->src, NULL,
                                                  "the test's sign-in");
  r->client = dyn_client_new (dyn_fault_server_get_url (r->proxy), DYN_TEST_REGION, provider, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (r->client, 3, 5, 5);
  if (data == NULL)
    dyn_client_set_reauth_handler (r->client, reauth_cb, reauth_finish, r, reauth_data_freed);
}

static void
reauth_teardown (Reauth        *r,
                 gconstpointer  data)
{
  if (r->client != NULL)
    {
      g_assert_null (r->reauth_task);
      g_assert_false (dyn_client_is_waiting_for_sign_in (r->client));
      g_clear_object (&r->client);
      /* The handler's data goes with the client. */
      g_assert_cmpuint (r->handler_freed, ==, data == NULL ? 1 : 0);
    }
  g_clear_pointer (&r->proxy, dyn_fault_server_free);
  g_clear_error (&r->reauth_error);
  g_free (r->src.key);
  g_free (r->src.auto_next);
  dyn_test_fixture_teardown (&r->fx, NULL);
}

#define REQUIRE_REAUTH(r) G_STMT_START { if ((r)->client == NULL) return; } G_STMT_END

typedef gboolean (*Condition) (gpointer data);

/* Runs the main context until @cond holds; fails after five minutes of wall clock. */
static void
run_until (Condition cond,
           gpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_MINUTE;

  while (!cond (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
}

typedef struct
{
  GAsyncResult **results;
  guint          n;
} Results;

static gboolean
all_done (gpointer data)
{
  Results *res = data;

  for (guint i = 0; i < res->n; i++)
    if (res->results[i] == NULL)
      return FALSE;
  return TRUE;
}

static void
wait_all (GAsyncResult **results,
          guint          n)
{
  Results res = { results, n };

  run_until (all_done, &res);
}

static void
get_item_async (Reauth        *r,
                const char    *id,
                GCancellable  *cancellable,
                GAsyncResult **result)
{
  g_autofree char *text = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"%s\"}}}",
                                           r->fx.table, id);
  g_autoptr(JsonNode) params = json_from_string (text, NULL);

  dyn_client_call_async (r->client, "GetItem", params, cancellable, dyn_test_result_cb, result);
}

static void
put_item_async (Reauth        *r,
                const char    *id,
                GAsyncResult **result)
{
  g_autofree char *text = g_strdup_printf ("{\"TableName\":\"%s\",\"Item\":{\"id\":{\"S\":\"%s\"}}}",
                                           r->fx.table, id);
  g_autoptr(JsonNode) params = json_from_string (text, NULL);

  dyn_client_call_async (r->client, "PutItem", params, NULL, dyn_test_result_cb, result);
}

static gboolean
expired_at_least (gpointer data)
{
  gpointer *args = data;
  Reauth *r = args[0];

  return r->reauth_task != NULL &&
         dyn_fault_server_proxy_get_expired (r->proxy) >= GPOINTER_TO_UINT (args[1]);
}

/* The access key the proxy saw on request @index. */
static char *
request_key (Reauth *r,
             guint   index)
{
  const char *auth = dyn_fault_server_get_request_header (r->proxy, index, "authorization");
  const char *start = strstr (auth, "Credential=");
  const char *end;

  g_assert_nonnull (start);
  start += strlen ("Credential=");
  end = strchr (start, '/');
  return g_strndup (start, end - start);
}

/* The direct view of DynamoDB Local (no proxy, its own keys). */
static DynValue *
stored_item (Reauth     *r,
             const char *id)
{
  g_autoptr(DynValue) key = dyn_test_itemf ("{\"id\":{\"S\":\"%s\"}}", id);

  return dyn_test_get_item (r->fx.client, r->fx.table, key, TRUE);
}

/* ------------------------------------------------------------ the reauth */

/* Credentials that refresh by themselves (a role): invalidated and fetched
 * again, the request goes once more and nobody is asked. */
static void
test_refresh_without_user (Reauth        *r,
                           gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL, *second = NULL;

  r->src.auto_next = g_strdup (KEY_B);
  response = dyn_test_callf (r->client, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"a\"}}}", r->fx.table);
  g_assert_no_error (error);
  g_assert_nonnull (response);
  g_assert_cmpuint (r->reauth_calls, ==, 0);
  g_assert_cmpuint (r->src.fetches, ==, 2);
  g_assert_cmpuint (dyn_fault_server_get_request_count (r->proxy), ==, 2);
  first = request_key (r, 0);
  second = request_key (r, 1);
  g_assert_cmpstr (first, ==, KEY_A);
  g_assert_cmpstr (second, ==, KEY_B);
}

/* Several requests in flight come back expired: one sign-in for all of them,
 * a request that starts meanwhile waits without being sent, and after the
 * sign-in every one goes again with a fresh signature and succeeds. */
static void
test_concurrent_one_sign_in (Reauth        *r,
                             gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  GAsyncResult *results[N_CONCURRENT + 1] = { NULL, };
  gpointer args[2] = { r, GUINT_TO_POINTER (N_CONCURRENT + 1) };

  for (guint i = 0; i < N_CONCURRENT; i++)
    {
      g_autofree char *id = g_strdup_printf ("item-%u", i);

      if (i % 2 == 0)
        put_item_async (r, id, &results[i]);
      else
        get_item_async (r, id, NULL, &results[i]);
    }

  /* Every request was answered expired once, and one of them a second time
   * after the provider was invalidated: the sign-in was asked for. */
  run_until (expired_at_least, args);
  g_assert_cmpuint (r->reauth_calls, ==, 1);
  g_assert_error (r->reauth_error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_true (dyn_client_is_waiting_for_sign_in (r->client));

  /* A new request while the sign-in is pending waits, unsent. */
  put_item_async (r, "late", &results[N_CONCURRENT]);
  for (guint i = 0; i < 20; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_null (results[N_CONCURRENT]);

  /* Let the ones still in flight come back. */
  for (guint i = 0; i < N_CONCURRENT; i++)
    g_assert_null (results[i]);
  g_assert_cmpuint (dyn_fault_server_get_request_count (r->proxy), <=, 2 * N_CONCURRENT);
  g_assert_cmpuint (r->src.fetches, <=, 2);

  reauth_answer (r, TRUE);
  wait_all (results, N_CONCURRENT + 1);
  g_assert_false (dyn_client_is_waiting_for_sign_in (r->client));
  g_assert_cmpuint (r->reauth_calls, ==, 1);

  for (guint i = 0; i < N_CONCURRENT + 1; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[i], &error);

      g_assert_no_error (error);
      g_assert_nonnull (response);
      g_object_unref (results[i]);
    }

  /* The writes are there, each once; every request after the sign-in was signed with key B. */
  for (guint i = 0; i < N_CONCURRENT; i += 2)
    {
      g_autofree char *id = g_strdup_printf ("item-%u", i);
      g_autoptr(DynValue) item = stored_item (r, id);

      g_assert_nonnull (item);
    }
  {
    g_autoptr(DynValue) late = stored_item (r, "late");
    guint total = dyn_fault_server_get_request_count (r->proxy);
    guint with_b = 0;

    g_assert_nonnull (late);
    for (guint i = 0; i < total; i++)
      {
        g_autofree char *key = request_key (r, i);
        if (g_str_equal (key, KEY_B))
          with_b++;
      }
    g_assert_cmpuint (with_b, ==, N_CONCURRENT + 1);
    /* The late one went out once, after the sign-in. */
    for (guint i = 0, late_sent = 0; i < total; i++)
      if (strstr (dyn_fault_server_get_request_body (r->proxy, i), "\"late\"") != NULL)
        {
          g_autofree char *key = request_key (r, i);
          g_assert_cmpstr (key, ==, KEY_B);
          g_assert_cmpuint (++late_sent, ==, 1);
        }
    g_assert_cmpuint (total - with_b, ==, dyn_fault_server_proxy_get_expired (r->proxy));
  }
}


/* The user gives up: every waiting request fails with the handler's error,
 * the later one too, and nothing was written. */
static void
test_cancelled_sign_in (Reauth        *r,
                        gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  GAsyncResult *results[N_CONCURRENT + 1] = { NULL, };
  gpointer args[2] = { r, GUINT_TO_POINTER (N_CONCURRENT + 1) };

  for (guint i = 0; i < N_CONCURRENT; i++)
    {
      g_autofree char *id = g_strdup_printf ("gone-%u", i);
      put_item_async (r, id, &results[i]);
    }
  run_until (expired_at_least, args);
  put_item_async (r, "gone-late", &results[N_CONCURRENT]);
  reauth_answer (r, FALSE);
  wait_all (results, N_CONCURRENT + 1);
  g_assert_cmpuint (r->reauth_calls, ==, 1);

  for (guint i = 0; i < N_CONCURRENT + 1; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[i], &error);

      g_assert_null (response);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpstr (error->message, ==, "Sign-in cancelled: the table was not changed");
      g_object_unref (results[i]);
    }
  for (guint i = 0; i < N_CONCURRENT; i++)
    {
      g_autofree char *id = g_strdup_printf ("gone-%u", i);
      g_autoptr(DynValue) item = stored_item (r, id);
      g_assert_null (item);
    }
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (r->proxy), ==, 0);

  /* The next request that comes back expired asks again. */
  {
    GAsyncResult *again = NULL;

    get_item_async (r, "x", NULL, &again);
    while (r->reauth_task == NULL)
      g_main_context_iteration (NULL, TRUE);
    g_assert_cmpuint (r->reauth_calls, ==, 2);
    reauth_answer (r, TRUE);
    dyn_test_wait (&again);
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, again, &error);
      g_assert_no_error (error);
    }
    g_object_unref (again);
  }
}

/* A waiting request that is cancelled ends at once; the others keep waiting
 * and go after the sign-in. */
static void
test_cancel_waiting (Reauth        *r,
                     gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GAsyncResult *results[3] = { NULL, };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  get_item_async (r, "a", NULL, &results[0]);
  while (r->reauth_task == NULL)
    g_main_context_iteration (NULL, TRUE);
  get_item_async (r, "b", cancellable, &results[1]);
  get_item_async (r, "c", NULL, &results[2]);

  g_cancellable_cancel (cancellable);
  dyn_test_wait (&results[1]);
  response = dyn_client_call_finish (r->client, results[1], &error);
  g_assert_null (response);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_null (results[0]);
  g_assert_null (results[2]);
  g_assert_true (dyn_client_is_waiting_for_sign_in (r->client));

  reauth_answer (r, TRUE);
  wait_all (results, 3);
  for (guint i = 0; i < 3; i += 2)
    {
      g_autoptr(DynResponse) ok = dyn_client_call_finish (r->client, results[i], &error);
      g_assert_no_error (error);
      g_assert_nonnull (ok);
    }
  for (guint i = 0; i < 3; i++)
    g_object_unref (results[i]);
  g_assert_cmpuint (r->reauth_calls, ==, 1);
}

/* The provider itself says the session expired (an SSO token, with nobody to
 * ask): fetched once more, then the same single sign-in. */
static void
test_provider_expired (Reauth        *r,
                       gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  GAsyncResult *results[3] = { NULL, };

  r->src.fail_expired = TRUE;
  for (guint i = 0; i < 3; i++)
    get_item_async (r, "p", NULL, &results[i]);
  while (r->reauth_task == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (r->reauth_calls, ==, 1);
  g_assert_error (r->reauth_error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_cmpstr (r->reauth_error->message, ==, "the test session expired: sign in again");
  g_assert_cmpuint (r->src.fetches, ==, 2);
  /* Nothing went out without credentials. */
  g_assert_cmpuint (dyn_fault_server_get_request_count (r->proxy), ==, 0);

  reauth_answer (r, TRUE);
  wait_all (results, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[i], &error);
      g_assert_no_error (error);
      g_object_unref (results[i]);
    }
  g_assert_cmpuint (r->reauth_calls, ==, 1);
  g_assert_cmpuint (dyn_fault_server_get_request_count (r->proxy), ==, 3);
}

/* Staged edits commit as one TransactWriteItems: refused as expired, it waits
 * for the sign-in and is applied exactly once. */
static void
test_transaction_once (Reauth        *r,
                       gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) counter = NULL;
  g_autoptr(DynValue) put = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *text = NULL;
  guint transactions = 0;

  {
    g_autoptr(DynValue) seed = dyn_test_item ("{\"id\":{\"S\":\"counter\"},\"n\":{\"N\":\"0\"}}");
    g_assert_true (dyn_test_put_item (r->fx.client, r->fx.table, seed, &error));
    g_assert_no_error (error);
  }

  text = g_strdup_printf ("{\"TransactItems\":["
                          "{\"Update\":{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"counter\"}},"
                          "\"UpdateExpression\":\"ADD n :one\","
                          "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}},"
                          "{\"Put\":{\"TableName\":\"%s\",\"Item\":{\"id\":{\"S\":\"staged\"},\"v\":{\"S\":\"new\"}},"
                          "\"ConditionExpression\":\"attribute_not_exists(id)\"}}]}",
                          r->fx.table, r->fx.table);
  params = json_from_string (text, &error);
  g_assert_no_error (error);
  dyn_client_call_async (r->client, "TransactWriteItems", params, NULL, dyn_test_result_cb, &result);
  while (r->reauth_task == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (result);
  reauth_answer (r, TRUE);
  dyn_test_wait (&result);
  response = dyn_client_call_finish (r->client, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);

  counter = stored_item (r, "counter");
  g_assert_cmpstr (dyn_test_item_get_number (counter, "n"), ==, "1");
  put = stored_item (r, "staged");
  g_assert_cmpstr (dyn_test_item_get_string (put, "v"), ==, "new");
  for (guint i = 0; i < dyn_fault_server_get_request_count (r->proxy); i++)
    if (g_strcmp0 (dyn_fault_server_get_request_header (r->proxy, i, "x-amz-target"),
                   "DynamoDB_20120810.TransactWriteItems") == 0)
      transactions++;
  g_assert_cmpuint (dyn_fault_server_proxy_get_forwarded (r->proxy), ==, 1);
  g_assert_cmpuint (transactions, ==, 3);   /* expired, expired after the refresh, applied */
}

/* A read-only client refuses writes at once (they never wait), and a write
 * that waited while the connection was locked is refused after the sign-in. */
static void
test_read_only_stays (Reauth        *r,
                      gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  GAsyncResult *results[3] = { NULL, };
  g_autoptr(GError) error = NULL;

  put_item_async (r, "w1", &results[0]);
  get_item_async (r, "r1", NULL, &results[1]);
  while (r->reauth_task == NULL)
    g_main_context_iteration (NULL, TRUE);

  dyn_client_set_read_only (r->client, TRUE);
  put_item_async (r, "w2", &results[2]);
  dyn_test_wait (&results[2]);
  {
    g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[2], &error);
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    g_clear_error (&error);
  }

  reauth_answer (r, TRUE);
  wait_all (results, 2);
  {
    g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[0], &error);
    g_assert_null (response);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    g_clear_error (&error);
  }
  {
    g_autoptr(DynResponse) response = dyn_client_call_finish (r->client, results[1], &error);
    g_assert_no_error (error);
    g_assert_nonnull (response);
  }
  for (guint i = 0; i < 3; i++)
    g_object_unref (results[i]);
  {
    g_autoptr(DynValue) w1 = stored_item (r, "w1");
    g_autoptr(DynValue) w2 = stored_item (r, "w2");
    g_assert_null (w1);
    g_assert_null (w2);
  }
}

/* Without a handler the expired error comes back as it is, after the one
 * refresh. */
static void
test_no_handler (Reauth        *r,
                 gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = dyn_test_callf (r->client, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"id\":{\"S\":\"a\"}}}", r->fx.table);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredTokenException");
  g_assert_cmpuint (dyn_fault_server_proxy_get_expired (r->proxy), ==, 2);
  g_assert_false (dyn_client_is_waiting_for_sign_in (r->client));
}

/* Fixed keys are not fetched again: one request, then the sign-in. */
static void
test_static_keys (Reauth        *r,
                  gconstpointer  data)
{
  REQUIRE_REAUTH (r);
  g_autoptr(DynCredentialsProvider) fixed = dyn_credentials_provider_new_static (KEY_A, DYN_TEST_SECRET_KEY, NULL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  client = dyn_client_new (dyn_fault_server_get_url (r->proxy), DYN_TEST_REGION, fixed, &error);
  g_assert_no_error (error);
  response = dyn_test_callf (client, "ListTables", &error, "{}");
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredTokenException");
  g_assert_cmpuint (dyn_fault_server_proxy_get_expired (r->proxy), ==, 1);
}

int
main (int argc, char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add ("/signin-reauth/fault-server/expired-key", DynTestFixture, NULL,
              fixture_setup, test_fault_expired_key, dyn_test_fixture_teardown);

  g_test_add ("/signin-reauth/refresh-without-user", Reauth, NULL,
              reauth_setup, test_refresh_without_user, reauth_teardown);
  g_test_add ("/signin-reauth/concurrent-one-sign-in", Reauth, NULL,
              reauth_setup, test_concurrent_one_sign_in, reauth_teardown);

  g_test_add ("/signin-reauth/cancelled-sign-in", Reauth, NULL,
              reauth_setup, test_cancelled_sign_in, reauth_teardown);
  g_test_add ("/signin-reauth/cancel-waiting", Reauth, NULL,
              reauth_setup, test_cancel_waiting, reauth_teardown);
  g_test_add ("/signin-reauth/provider-expired", Reauth, NULL,
              reauth_setup, test_provider_expired, reauth_teardown);
  g_test_add ("/signin-reauth/transaction-once", Reauth, NULL,
              reauth_setup, test_transaction_once, reauth_teardown);
  g_test_add ("/signin-reauth/read-only-stays", Reauth, NULL,
              reauth_setup, test_read_only_stays, reauth_teardown);
  g_test_add ("/signin-reauth/no-handler", Reauth, "no handler",
              reauth_setup, test_no_handler, reauth_teardown);
  g_test_add ("/signin-reauth/static-keys", Reauth, "no handler",
              reauth_setup, test_static_keys, reauth_teardown);

  return g_test_run ();
}
