/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Expired credentials in the middle of a session: DynamoDB Local behind the
 * fault server's proxy, which answers ExpiredTokenException to every request
 * signed with an access key the test expired, as DynamoDB does.
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "dyn-fault-server.h"
#include "dyn-json.h"
#include "dyn-signin-server.h"
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


/* ------------------------------------------------ dynoscope-cli sign-in */

#define ALICE_KEY    "AKIAALICEEXAMPLE0001"
#define ALICE_SECRET "alice-secret-0123456789abcdefghijklmnopq"
#define MFA_CODE     "314159"

static const char cli_scenario[] =
  "{\"account\": \"123456789012\","
  " \"users\": {\"" ALICE_KEY "\": {\"secret\": \"" ALICE_SECRET "\","
  "            \"arn\": \"arn:aws:iam::123456789012:user/alice\", \"user_id\": \"AIDAALICE0000000000\"}},"
  " \"roles\": {\"arn:aws:iam::123456789012:role/Admin\": {\"mfa_serial\": \"arn:aws:iam::123456789012:mfa/alice\","
  "            \"mfa_code\": \"" MFA_CODE "\"}},"
  " \"sso\": {\"start_url\": \"https://d-cli0test.awsapps.com/start\", \"user\": \"tester\","
  "          \"accounts\": [{\"accountId\": \"111111111111\", \"accountName\": \"dev\"}],"
  "          \"roles\": {\"111111111111\": [\"ReadOnly\"]},"
  "          \"pending_polls\": 1, \"auto_approve\": true, \"interval\": 1}}";

static const char cli_config[] =
  "[profile alice]\n"
  "region = us-east-1\n"
  "\n"
  "[profile admin]\n"
  "region = us-east-1\n"
  "role_arn = arn:aws:iam::123456789012:role/Admin\n"
  "source_profile = alice\n"
  "mfa_serial = arn:aws:iam::123456789012:mfa/alice\n"
  "role_session_name = cli-test\n"
  "\n"
  "[profile dev]\n"
  "sso_session = corp\n"
  "sso_account_id = 111111111111\n"
  "sso_role_name = ReadOnly\n"
  "region = us-east-1\n"
  "\n"
  "[sso-session corp]\n"
  "sso_start_url = https://d-cli0test.awsapps.com/start\n"
  "sso_region = us-east-1\n"
  "sso_registration_scopes = sso:account:access\n";

static const char cli_credentials[] =
  "[alice]\n"
  "aws_access_key_id = " ALICE_KEY "\n"
  "aws_secret_access_key = " ALICE_SECRET "\n";

typedef struct
{
  DynSigninServer *server;
  char            *home;
  char            *config;
  char            *credentials;
  GPtrArray       *secrets;    /* what no output may contain */
} Cli;

typedef struct
{
  int   status;
  char *out;
  char *err;
} CliRun;

static void
cli_run_clear (CliRun *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliRun, cli_run_clear)

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
cli_setup (Cli           *cli,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  memset (cli, 0, sizeof *cli);
  cli->server = dyn_signin_server_start (cli_scenario, &error);
  if (cli->server == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
      g_test_skip (error->message);
      return;
    }
  cli->home = g_dir_make_tmp ("dyn-signin-cli-XXXXXX", &error);
  g_assert_no_error (error);
  cli->config = g_build_filename (cli->home, "config", NULL);
  cli->credentials = g_build_filename (cli->home, "credentials", NULL);
  write_file (cli->config, cli_config);
  write_file (cli->credentials, cli_credentials);
  cli->secrets = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (cli->secrets, g_strdup (ALICE_SECRET));
  /* The prefix of every session token the server issues. */
  g_ptr_array_add (cli->secrets, g_strdup ("IQoJb3JpZ2luX2Vj"));
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
cli_teardown (Cli           *cli,
              gconstpointer  data)
{
  g_clear_pointer (&cli->server, dyn_signin_server_stop);
  if (cli->home != NULL)
    remove_tree (cli->home);
  g_free (cli->home);
  g_free (cli->config);
  g_free (cli->credentials);
  g_clear_pointer (&cli->secrets, g_ptr_array_unref);
}

#define REQUIRE_CLI(cli) G_STMT_START { if ((cli)->server == NULL) return; } G_STMT_END

static void
no_controlling_terminal (gpointer data)
{
  /* A session of its own: no /dev/tty, as under cron or CI. */
  setsid ();
}

/* Runs the real dynoscope-cli with a clean environment: the test's files in a home of
 * its own, every STS and IAM Identity Center endpoint at the test server, no display,
 * no terminal. @env: extra NAME=VALUE pairs (NULL-terminated), "NAME=" unsets. */
static void
cli_run (Cli                *cli,
         CliRun             *run,
         const char * const *env,
         const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  static const char * const cleared[] = {
    "AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_STS_REGIONAL_ENDPOINTS", "DISPLAY", "WAYLAND_DISPLAY", "DYN_TRACE",
  };

  g_ptr_array_add (args, g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  for (guint i = 0; i < G_N_ELEMENTS (cleared); i++)
    g_subprocess_launcher_unsetenv (launcher, cleared[i]);
  g_subprocess_launcher_setenv (launcher, "HOME", cli->home, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_CONFIG_FILE", cli->config, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SHARED_CREDENTIALS_FILE", cli->credentials, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_ENDPOINT_URL_STS", dyn_signin_server_get_url (cli->server), TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_ENDPOINT_URL_SSO", dyn_signin_server_get_url (cli->server), TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_ENDPOINT_URL_SSO_OIDC", dyn_signin_server_get_url (cli->server), TRUE);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *name = g_strndup (env[i], eq - env[i]);

      if (eq[1] == '\0')
        g_subprocess_launcher_unsetenv (launcher, name);
      else
        g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
    }
  g_subprocess_launcher_set_child_setup (launcher, no_controlling_terminal, NULL, NULL);

  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, "", NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  g_test_message ("dynoscope-cli exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);

  /* Never a secret, in any output. */
  for (guint i = 0; i < cli->secrets->len; i++)
    {
      g_assert_null (strstr (run->out, cli->secrets->pdata[i]));
      g_assert_null (strstr (run->err, cli->secrets->pdata[i]));
    }
}

#define CLI_RUN(cli, run, env, ...) cli_run ((cli), (run), (env), (const char * const[]) { __VA_ARGS__, NULL })

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}

/* The logged requests of @operation. */
static guint
logged (Cli        *cli,
        const char *operation)
{
  int n = dyn_signin_server_count (cli->server, operation);

  g_assert_cmpint (n, >=, 0);
  return n;
}

/* Parameter @name of the first logged @operation. */
static char *
logged_parameter (Cli        *cli,
                  const char *operation,
                  const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) log = dyn_signin_server_get_log (cli->server, &error);
  JsonArray *entries;

  g_assert_no_error (error);
  entries = json_node_get_array (log);
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      JsonObject *params;

      if (g_strcmp0 (json_object_get_string_member_with_default (entry, "operation", ""), operation) != 0)
        continue;
      params = json_object_get_object_member (entry, "parameters");
      if (g_str_equal (name, "signing_access_key") || g_str_equal (name, "signing_region"))
        return g_strdup (json_object_get_string_member_with_default (entry, name, NULL));
      return params != NULL ? g_strdup (json_object_get_string_member_with_default (params, name, NULL)) : NULL;
    }
  return NULL;
}

static void
test_cli_whoami_static (Cli           *cli,
                        gconstpointer  data)
{
  REQUIRE_CLI (cli);
  g_auto(CliRun) run = { 0 };
  g_autoptr(JsonObject) who = NULL;
  g_autofree char *key = NULL;

  CLI_RUN (cli, &run, NULL, "whoami", "--profile", "alice");
  g_assert_cmpint (run.status, ==, 0);
  who = parse_object (run.out);
  g_assert_cmpstr (json_object_get_string_member (who, "Account"), ==, "123456789012");
  g_assert_cmpstr (json_object_get_string_member (who, "Arn"), ==, "arn:aws:iam::123456789012:user/alice");
  g_assert_cmpstr (json_object_get_string_member (who, "UserId"), ==, "AIDAALICE0000000000");
  g_assert_true (json_object_has_member (who, "Expiration"));
  g_assert_true (json_object_get_null_member (who, "Expiration"));
  g_assert_cmpuint (json_object_get_size (who), ==, 4);
  g_assert_cmpuint (logged (cli, "GetCallerIdentity"), ==, 1);
  key = logged_parameter (cli, "GetCallerIdentity", "signing_access_key");
  g_assert_cmpstr (key, ==, ALICE_KEY);
}

/* --mfa-code before the command, after it, and with =: the role is assumed with it. */
static void
test_cli_whoami_role_mfa (Cli           *cli,
                          gconstpointer  data)
{
  REQUIRE_CLI (cli);
  const char * const forms[][6] = {
    { "--mfa-code", MFA_CODE, "whoami", "--profile", "admin" },
    { "whoami", "--profile", "admin", "--mfa-code", MFA_CODE },
    { "whoami", "--mfa-code=" MFA_CODE, "--profile", "admin", NULL },
  };

  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      g_auto(CliRun) run = { 0 };
      g_autoptr(JsonObject) who = NULL;
      g_autoptr(GDateTime) expiration = NULL;
      g_autofree char *token_code = NULL, *serial = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_true (dyn_signin_server_control (cli->server, "reset", &error));
      g_assert_no_error (error);
      cli_run (cli, &run, NULL, forms[f]);
      g_assert_cmpint (run.status, ==, 0);
      who = parse_object (run.out);
      g_assert_cmpstr (json_object_get_string_member (who, "Arn"), ==,
                       "arn:aws:sts::123456789012:assumed-role/Admin/cli-test");
      expiration = g_date_time_new_from_iso8601 (json_object_get_string_member (who, "Expiration"), NULL);
      g_assert_nonnull (expiration);
      g_assert_cmpuint (logged (cli, "AssumeRole"), ==, 1);
      token_code = logged_parameter (cli, "AssumeRole", "TokenCode");
      serial = logged_parameter (cli, "AssumeRole", "SerialNumber");
      g_assert_cmpstr (token_code, ==, MFA_CODE);
      g_assert_cmpstr (serial, ==, "arn:aws:iam::123456789012:mfa/alice");
      /* The code is no secret, but it is not printed either. */
      g_assert_null (strstr (run.err, MFA_CODE));
    }
}

/* Every command takes --mfa-code: the ones dynoscope-cli.c parses and the
 * ones with options of their own (transfer). */
static void
test_cli_mfa_code_any_command (Cli           *cli,
                               gconstpointer  data)
{
  REQUIRE_CLI (cli);
  DynTestServer *ddb = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autofree char *table = NULL;
  g_autoptr(GError) error = NULL;

  if (ddb == NULL)
    return;
  client = dyn_test_client_new (ddb);
  table = dyn_test_table_name ("mfa-any");
  g_assert_true (dyn_test_create_table (client, table, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);

  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, NULL, "--profile", "admin", "--endpoint", dyn_test_server_get_endpoint (ddb),
             "tables", "--mfa-code", MFA_CODE);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (strstr (run.out, table));
    g_assert_cmpuint (logged (cli, "AssumeRole"), ==, 1);
  }
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, NULL, "count", table, "--mfa-code", MFA_CODE, "--profile", "admin",
             "--endpoint", dyn_test_server_get_endpoint (ddb), "--json");
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpuint (logged (cli, "AssumeRole"), ==, 2);
  }
  {
    g_auto(CliRun) run = { 0 };
    g_autofree char *item = g_strdup ("{\"id\":{\"S\":\"mfa\"}}");

    CLI_RUN (cli, &run, NULL, "put", table, "--item", item, "--profile", "admin",
             "--endpoint", dyn_test_server_get_endpoint (ddb), "--mfa-code=" MFA_CODE);
    g_assert_cmpint (run.status, ==, 0);
    g_assert_cmpuint (logged (cli, "AssumeRole"), ==, 3);
  }
  g_assert_true (dyn_test_delete_table (client, table, &error));
}

/* No --mfa-code and no terminal: the message says what to pass; no AssumeRole went out. */
static void
test_cli_mfa_code_missing (Cli           *cli,
                           gconstpointer  data)
{
  REQUIRE_CLI (cli);
  g_auto(CliRun) run = { 0 };

  CLI_RUN (cli, &run, NULL, "whoami", "--profile", "admin");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "profile admin needs an MFA code: pass --mfa-code"));
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpuint (logged (cli, "AssumeRole"), ==, 0);
}

/* The device flow in the terminal: URL and code on stderr, the cache written
 * 0600 in a 0700 folder, which session it signed in to; never a token. Then
 * whoami works from the cache. */
static void
test_cli_login (Cli           *cli,
                gconstpointer  data)
{
  REQUIRE_CLI (cli);
  g_auto(CliRun) run = { 0 }, who_run = { 0 };
  g_autofree char *cache_dir = g_build_filename (cli->home, ".aws", "sso", "cache", NULL);
  g_autofree char *cache = NULL;
  g_autofree char *text = NULL;
  g_autofree char *url_prefix = NULL;
  g_autoptr(JsonObject) token = NULL;
  g_autoptr(JsonObject) who = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  CLI_RUN (cli, &run, NULL, "login", "--profile", "dev", "--no-browser");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "corp"));
  g_assert_nonnull (strstr (run.out, "https://d-cli0test.awsapps.com/start"));

  /* The cache file: sha1 of the session name, as the AWS CLI v2 names it. */
  {
    g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA1, "corp", -1);
    g_autofree char *file = g_strconcat (sha, ".json", NULL);
    cache = g_build_filename (cache_dir, file, NULL);
  }
  g_assert_cmpint (g_stat (cache, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (cache_dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  g_assert_true (g_file_get_contents (cache, &text, NULL, &error));
  token = parse_object (text);
  g_assert_cmpstr (json_object_get_string_member (token, "startUrl"), ==, "https://d-cli0test.awsapps.com/start");
  for (guint i = 0; i < 3; i++)
    {
      const char *field = (const char *[]) { "accessToken", "refreshToken", "clientSecret" }[i];
      const char *secret = json_object_get_string_member (token, field);

      g_assert_nonnull (secret);
      g_assert_null (strstr (run.out, secret));
      g_assert_null (strstr (run.err, secret));
      g_ptr_array_add (cli->secrets, g_strdup (secret));
    }

  /* The verification URL with the code, and the code, on stderr. */
  url_prefix = g_strconcat (dyn_signin_server_get_url (cli->server), "/", NULL);
  g_assert_nonnull (strstr (run.err, url_prefix));
  g_assert_nonnull (strstr (run.err, "?user_code="));
  {
    const char *at = strstr (run.err, "?user_code=") + strlen ("?user_code=");
    g_autofree char *code = g_strndup (at, strcspn (at, " \n"));

    g_assert_cmpuint (strlen (code), >=, 4);
    /* …and the code once more on its own. */
    g_assert_nonnull (strstr (at + strlen (code), code));
  }
  g_assert_cmpuint (logged (cli, "StartDeviceAuthorization"), ==, 1);
  g_assert_cmpuint (logged (cli, "CreateToken"), >=, 1);

  CLI_RUN (cli, &who_run, NULL, "whoami", "--profile", "dev");
  g_assert_cmpint (who_run.status, ==, 0);
  who = parse_object (who_run.out);
  g_assert_cmpstr (json_object_get_string_member (who, "Account"), ==, "111111111111");
  g_assert_nonnull (strstr (json_object_get_string_member (who, "Arn"), "AWSReservedSSO_ReadOnly"));
  g_assert_false (json_object_get_null_member (who, "Expiration"));
  /* No second device flow. */
  g_assert_cmpuint (logged (cli, "StartDeviceAuthorization"), ==, 1);
}

/* Outside `login` an IAM Identity Center profile without a token does not start
 * a device flow: it says to run login. */
static void
test_cli_sso_needs_login (Cli           *cli,
                          gconstpointer  data)
{
  REQUIRE_CLI (cli);
  g_auto(CliRun) run = { 0 };

  CLI_RUN (cli, &run, NULL, "whoami", "--profile", "dev");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "dynoscope-cli login --profile dev"));
  g_assert_cmpuint (logged (cli, "RegisterClient"), ==, 0);
  g_assert_cmpuint (logged (cli, "StartDeviceAuthorization"), ==, 0);
}

/* A named profile without credentials is an error naming it, also towards
 * DynamoDB Local; placeholder keys only without any profile, and then said. */
static void
test_cli_profile_without_credentials (Cli           *cli,
                                      gconstpointer  data)
{
  REQUIRE_CLI (cli);
  DynTestServer *ddb = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *config = NULL;
  g_autofree char *local_config = g_build_filename (cli->home, "local-config", NULL);
  g_autofree char *default_config = g_build_filename (cli->home, "default-config", NULL);
  g_autofree char *env_local = g_strconcat ("AWS_CONFIG_FILE=", local_config, NULL);
  g_autofree char *env_default = g_strconcat ("AWS_CONFIG_FILE=", default_config, NULL);
  g_autofree char *env_none = g_strconcat ("AWS_CONFIG_FILE=", cli->home, "/missing-config", NULL);
  g_autofree char *env_no_creds = g_strconcat ("AWS_SHARED_CREDENTIALS_FILE=", cli->home, "/missing-credentials", NULL);

  if (ddb == NULL)
    return;
  config = g_strdup_printf ("[profile local]\nregion = us-east-1\nendpoint_url = %s\n",
                            dyn_test_server_get_endpoint (ddb));
  write_file (local_config, config);
  write_file (default_config, "[default]\nregion = us-east-1\n");

  /* --profile, on the profile's loopback endpoint */
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, ((const char * const[]) { env_local, env_no_creds, NULL }),
             "--profile", "local", "tables");
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "No credentials found"));
    g_assert_nonnull (strstr (run.err, "'local'"));
    g_assert_null (strstr (run.err, "placeholder"));
  }
  /* AWS_PROFILE and --endpoint */
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, ((const char * const[]) { env_local, env_no_creds, "AWS_PROFILE=local", NULL }),
             "--endpoint", dyn_test_server_get_endpoint (ddb), "tables");
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "'local'"));
    g_assert_null (strstr (run.err, "placeholder"));
  }
  /* A [default] section is a profile in play too. */
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, ((const char * const[]) { env_default, env_no_creds, NULL }),
             "--endpoint", dyn_test_server_get_endpoint (ddb), "tables");
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "'default'"));
    g_assert_null (strstr (run.err, "placeholder"));
  }
  /* No profile at all: placeholder keys for DynamoDB Local, said once on stderr. */
  {
    g_auto(CliRun) run = { 0 };
    g_autofree char *notice = g_strdup_printf ("placeholder keys for the local endpoint %s\n",
                                               dyn_test_server_get_endpoint (ddb));

    CLI_RUN (cli, &run, ((const char * const[]) { env_none, env_no_creds, "AWS_REGION=us-east-1", NULL }),
             "--endpoint", dyn_test_server_get_endpoint (ddb), "tables");
    g_assert_cmpint (run.status, ==, 0);
    g_assert_nonnull (g_strrstr (run.err, notice));
    g_assert_true (strstr (run.err, "placeholder") == g_strrstr (run.err, "placeholder"));
    g_assert_cmpuint (strlen (run.err), ==, strlen (strstr (run.err, "No profile")) );
  }
  /* …but not for an AWS endpoint. */
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, ((const char * const[]) { env_none, env_no_creds, "AWS_REGION=us-east-1", NULL }),
             "tables");
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "No credentials found"));
    g_assert_null (strstr (run.err, "placeholder"));
  }
}

/* --region is the region of the STS client that assumes the role, as `aws --region` is
 * botocore's session region; without it the profile's region counts. */
static void
test_cli_region_signs_sts (Cli           *cli,
                           gconstpointer  data)
{
  REQUIRE_CLI (cli);
  g_auto(CliRun) given = { 0 }, profile = { 0 };
  g_autofree char *given_region = NULL, *profile_region = NULL;
  g_autoptr(GError) error = NULL;

  CLI_RUN (cli, &given, NULL, "whoami", "--profile", "admin", "--region", "eu-west-1", "--mfa-code", MFA_CODE);
  g_assert_cmpint (given.status, ==, 0);
  given_region = logged_parameter (cli, "AssumeRole", "signing_region");
  g_assert_cmpstr (given_region, ==, "eu-west-1");

  g_assert_true (dyn_signin_server_control (cli->server, "reset", &error));
  g_assert_no_error (error);
  CLI_RUN (cli, &profile, NULL, "whoami", "--profile", "admin", "--mfa-code", MFA_CODE);
  g_assert_cmpint (profile.status, ==, 0);
  profile_region = logged_parameter (cli, "AssumeRole", "signing_region");
  g_assert_cmpstr (profile_region, ==, "us-east-1");
}

/* DYN_TRACE shows DynamoDB's traffic, but of the sign-in traffic (STS, IAM Identity Center)
 * only the method, the URL and harmless headers: its bodies carry secret keys, session
 * tokens, SSO tokens and client secrets, and its headers the bearer token. */
static void
test_cli_trace_hides_sign_in (Cli           *cli,
                              gconstpointer  data)
{
  REQUIRE_CLI (cli);
  const char * const env[] = { "DYN_TRACE=1", NULL };
  g_auto(CliRun) login = { 0 }, who = { 0 }, role = { 0 };
  const char * const leaks[] = {
    "<SecretAccessKey>", "<SessionToken>", "accessToken", "refreshToken", "clientSecret",
    "secretAccessKey", "sessionToken", "x-amz-sso_bearer_token: ey", "WebIdentityToken=",
  };

  CLI_RUN (cli, &login, env, "login", "--profile", "dev", "--no-browser");
  g_assert_cmpint (login.status, ==, 0);
  CLI_RUN (cli, &who, env, "whoami", "--profile", "dev");
  g_assert_cmpint (who.status, ==, 0);
  CLI_RUN (cli, &role, env, "whoami", "--profile", "admin", "--mfa-code", MFA_CODE);
  g_assert_cmpint (role.status, ==, 0);

  /* The trace is on… */
  g_assert_nonnull (strstr (login.err, "sign-in traffic, not shown"));
  g_assert_nonnull (strstr (who.err, "→ GET "));
  g_assert_nonnull (strstr (role.err, "sign-in traffic, not shown"));
  /* …and shows none of it (cli_run checks the known secrets, the cache file's tokens included). */
  for (guint i = 0; i < G_N_ELEMENTS (leaks); i++)
    {
      g_assert_null (strstr (login.err, leaks[i]));
      g_assert_null (strstr (who.err, leaks[i]));
      g_assert_null (strstr (role.err, leaks[i]));
    }
  g_assert_nonnull (strstr (who.err, "x-amz-sso_bearer_token: <redacted>"));
}

static void
test_cli_usage (Cli           *cli,
                gconstpointer  data)
{
  REQUIRE_CLI (cli);
  const char * const cases[][4] = {
    { "whoami", "--bogus", NULL },
    { "whoami", "extra", NULL },
    { "login", "--region", "us-east-1", NULL },
    { "whoami", "--mfa-code", NULL },
    { "tables", "--mfa-code=", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(CliRun) run = { 0 };

      cli_run (cli, &run, NULL, cases[i]);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_nonnull (strstr (run.err, "error: "));
    }
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, NULL, "login", "--profile", "alice");
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "'alice'"));
    g_assert_nonnull (strstr (run.err, "sso_session"));
  }
  {
    g_auto(CliRun) run = { 0 };

    CLI_RUN (cli, &run, NULL, "--help");
    g_assert_nonnull (strstr (run.out, "whoami [--profile P]"));
    g_assert_nonnull (strstr (run.out, "--mfa-code CODE"));
  }
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

  g_test_add ("/signin-cli/whoami-static", Cli, NULL, cli_setup, test_cli_whoami_static, cli_teardown);
  g_test_add ("/signin-cli/region-signs-sts", Cli, NULL, cli_setup, test_cli_region_signs_sts, cli_teardown);
  g_test_add ("/signin-cli/trace-hides-sign-in", Cli, NULL, cli_setup, test_cli_trace_hides_sign_in, cli_teardown);
  g_test_add ("/signin-cli/whoami-role-mfa", Cli, NULL, cli_setup, test_cli_whoami_role_mfa, cli_teardown);
  g_test_add ("/signin-cli/mfa-code-any-command", Cli, NULL, cli_setup, test_cli_mfa_code_any_command, cli_teardown);
  g_test_add ("/signin-cli/mfa-code-missing", Cli, NULL, cli_setup, test_cli_mfa_code_missing, cli_teardown);
  g_test_add ("/signin-cli/login", Cli, NULL, cli_setup, test_cli_login, cli_teardown);
  g_test_add ("/signin-cli/sso-needs-login", Cli, NULL, cli_setup, test_cli_sso_needs_login, cli_teardown);
  g_test_add ("/signin-cli/profile-without-credentials", Cli, NULL, cli_setup,
              test_cli_profile_without_credentials, cli_teardown);
  g_test_add ("/signin-cli/usage", Cli, NULL, cli_setup, test_cli_usage, cli_teardown);

  return g_test_run ();
}
