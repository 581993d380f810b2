/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-http"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "dyn-client.h"
#include "dyn-credentials.h"
#include "dyn-error.h"
#include "dyn-fault-server.h"
#include "dyn-http.h"
#include "dyn-sigv4.h"
#include "dyn-test-util.h"

/* Values that must never show up in a wire trace. */
#define TRACE_SECRET_KEY  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYTRACESECRET"
#define TRACE_TOKEN       "IQoJb3JpZ2luX2VjEPTRACETOKEN//////////wEaCXVzLWVhc3QtMSJH"
#define TRACE_SIGNATURE   "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
#define TRACE_ACCESS_KEY  "AKIATRACEACCESSKEY01"

static const char * const json_headers[] = {
  "Content-Type: application/x-amz-json-1.0",
  "X-Amz-Target: DynamoDB_20120810.ListTables",
  NULL
};

/* Helpers ------------------------------------------------------------------- */

static DynHttpResponse *
post (DynHttp       *http,
      const char    *url,
      const char    *body,
      GCancellable  *cancellable,
      GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
  g_autoptr(GAsyncResult) result = NULL;

  dyn_http_post_async (http, url, json_headers, bytes, cancellable, dyn_test_result_cb, &result);
  return dyn_http_post_finish (http, dyn_test_wait (&result), error);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* A port on 127.0.0.1 nobody listens on. */
static guint16
closed_port (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, &error);
  guint16 port;

  g_assert_no_error (error);
  g_socket_bind (socket, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);
  return port;
}

/* Tests --------------------------------------------------------------------- */

static void
test_new_destroy (void)
{
  DynHttp *http = dyn_http_new ();

  dyn_http_set_timeouts (http, 1000, 2000);
  dyn_http_set_max_body (http, 1024);
  g_assert_finalize_object (http);
}

static void
test_post (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  DynHttp *http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  const char * const extra[] = { "X-Extra-Header: yes", NULL };
  DynFaultResponse scripted = {
    .status = 200, .headers = extra, .body = "{\"TableNames\":[]}", .body_len = -1,
  };
  const DynFaultRequest *req;
  gsize len;
  const char *data;

  dyn_fault_server_push (server, &scripted);
  response = post (http, dyn_fault_server_get_url (server), "{\"Limit\":5}", NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);

  g_assert_cmpuint (response->status, ==, 200);
  data = g_bytes_get_data (response->body, &len);
  g_assert_cmpmem (data, len, "{\"TableNames\":[]}", 17);
  /* Header names come lower-cased; the CRC value is the one PROTOCOL.md gives. */
  g_assert_cmpstr (g_hash_table_lookup (response->headers, "x-amz-crc32"), ==, "1315925753");
  g_assert_cmpstr (g_hash_table_lookup (response->headers, "x-amzn-requestid"), ==, "FAULT-1");
  g_assert_cmpstr (g_hash_table_lookup (response->headers, "x-extra-header"), ==, "yes");
  g_assert_cmpstr (g_hash_table_lookup (response->headers, "content-type"), ==,
                   "application/x-amz-json-1.0");
  g_assert_cmpfloat (response->seconds, >=, 0);

  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 1);
  req = dyn_fault_server_get_request (server, 0);
  g_assert_cmpstr (req->method, ==, "POST");
  g_assert_cmpstr (req->path, ==, "/");
  g_assert_cmpstr (dyn_fault_server_get_request_body (server, 0), ==, "{\"Limit\":5}");
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 0, "Content-Length"), ==, "11");
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 0, "X-Amz-Target"), ==,
                   "DynamoDB_20120810.ListTables");
  /* The CRC is over the raw body: no compression may be negotiated. */
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 0, "Accept-Encoding"), ==, "identity");
  g_assert_null (dyn_fault_server_get_request_header (server, 0, "Expect"));
  g_assert_nonnull (dyn_fault_server_get_request_header (server, 0, "User-Agent"));
  g_assert_cmpuint (dyn_fault_server_get_pending (server), ==, 0);

  g_assert_finalize_object (http);
  dyn_fault_server_free (server);
}

static void
test_any_status (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) r1 = NULL;
  g_autoptr(DynHttpResponse) r2 = NULL;

  /* Any HTTP status is a success at this level; the client classifies it. */
  dyn_fault_server_push_error (server, 400, "ValidationException", "bad");
  dyn_fault_server_push_html (server, 503, "<html><body>Service Unavailable</body></html>");
  r1 = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r1->status, ==, 400);
  r2 = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r2->status, ==, 503);
  g_assert_null (g_hash_table_lookup (r2->headers, "x-amz-crc32"));
  g_assert_cmpstr (g_hash_table_lookup (r2->headers, "content-type"), ==, "text/html; charset=utf-8");

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_chunked (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  const char *body = "{\"Items\":[{\"pk\":{\"S\":\"chunked transfer encoding\"}}],\"Count\":1}";
  gsize len;
  const char *data;

  dyn_fault_server_push_flags (server, DYN_FAULT_CHUNKED, 200, body);
  response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (response->body, &len);
  g_assert_cmpmem (data, len, body, strlen (body));

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_connection_reuse (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(DynHttpResponse) response = NULL;

      dyn_fault_server_push_json (server, 200, "{}");
      response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (response->status, ==, 200);
    }
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 3);
  g_assert_cmpuint (dyn_fault_server_get_connection_count (server), ==, 1);
  g_assert_cmpuint (dyn_fault_server_get_request (server, 2)->connection, ==, 1);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_reconnect_after_close (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) r1 = NULL;
  g_autoptr(DynHttpResponse) r2 = NULL;

  /* A server that closes after answering must not break the next request. */
  dyn_fault_server_push_flags (server, DYN_FAULT_CLOSE, 200, "{\"a\":1}");
  dyn_fault_server_push_json (server, 200, "{\"b\":2}");
  r1 = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  r2 = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r2->status, ==, 200);
  g_assert_cmpuint (dyn_fault_server_get_connection_count (server), ==, 2);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_concurrent (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GBytes) body = g_bytes_new_static ("{}", 2);
  GAsyncResult *results[4] = { NULL, };

  /* Several transfers at once on one multi handle, each on its own connection. */
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    dyn_fault_server_push_delayed (server, 100, 200, "{}");
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    dyn_http_post_async (http, dyn_fault_server_get_url (server), json_headers, body,
                         NULL, dyn_test_result_cb, &results[i]);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynHttpResponse) response = dyn_http_post_finish (http, dyn_test_wait (&results[i]), &error);

      g_assert_no_error (error);
      g_assert_cmpuint (response->status, ==, 200);
      g_clear_object (&results[i]);
    }
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 4);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_cancel (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  gint64 start;
  double seconds;

  dyn_fault_server_push_delayed (server, 10000, 200, "{}");
  g_timeout_add (50, cancel_cb, cancellable);
  start = g_get_monotonic_time ();
  response = post (http, dyn_fault_server_get_url (server), "{}", cancellable, &error);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (response);
  g_assert_cmpfloat (seconds, <, 5.0);

  /* The handle is still usable afterwards. */
  g_clear_error (&error);
  dyn_fault_server_push_json (server, 200, "{}");
  response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (response->status, ==, 200);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_cancel_before (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;

  g_cancellable_cancel (cancellable);
  response = post (http, dyn_fault_server_get_url (server), "{}", cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (response);
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 0);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_total_timeout (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  gint64 start;

  dyn_fault_server_push_delayed (server, 10000, 200, "{}");
  dyn_http_set_timeouts (http, 1000, 300);
  start = g_get_monotonic_time ();
  response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_null (response);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_connect_timeout (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GPtrArray) fillers = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(DynHttpResponse) response = NULL;
  g_autofree char *url = NULL;
  gint64 start;

  /* A listener that never accepts and whose accept queue is full: Linux
   * drops further SYNs, so a connect hangs until the connect timeout. */
  listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_set_listen_backlog (listener, 0);
  g_socket_bind (listener, any, FALSE, &error);
  g_assert_no_error (error);
  g_socket_listen (listener, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (listener, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 4; i++)
    {
      GSocket *filler = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                      G_SOCKET_PROTOCOL_TCP, &error);
      g_assert_no_error (error);
      g_socket_set_blocking (filler, FALSE);
      g_socket_connect (filler, bound, NULL, NULL);   /* EINPROGRESS or connected */
      g_ptr_array_add (fillers, filler);
    }
  g_usleep (50 * 1000);

  url = g_strdup_printf ("http://127.0.0.1:%u",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  dyn_http_set_timeouts (http, 300, 10000);
  start = g_get_monotonic_time ();
  response = post (http, url, "{}", NULL, &error);
  g_assert_null (response);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    {
      /* The kernel let the connection through after all (another backlog policy). */
      g_test_skip ("this kernel does not hold connections to a full accept queue");
      return;
    }
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_refused (void)
{
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u", closed_port ());

  response = post (http, url, "{}", NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  g_assert_null (response);
  g_assert_nonnull (strstr (error->message, url));
}

static void
test_max_body (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  g_autofree char *big = g_strnfill (4000, 'x');
  g_autofree char *body = g_strdup_printf ("{\"x\":\"%s\"}", big);

  dyn_http_set_max_body (http, 1000);
  dyn_fault_server_push_json (server, 200, body);
  response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_null (response);
  g_clear_error (&error);

  /* Exactly at the limit is fine. */
  dyn_http_set_max_body (http, strlen (body));
  dyn_fault_server_push_json (server, 200, body);
  response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (response->body), ==, strlen (body));

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_broken_responses (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  static const char garbage[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n";

  /* Each of these is a transport failure (G_IO_ERROR), never a crash or a hang. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynHttpResponse) response = NULL;

    dyn_fault_server_push_drop (server);
    response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
    g_test_message ("drop: %s", error ? error->message : "(no error)");
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
    g_assert_null (response);
  }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynHttpResponse) response = NULL;

    dyn_fault_server_push_flags (server, DYN_FAULT_TRUNCATE, 200, "{\"Items\":[{\"a\":{\"S\":\"b\"}}]}");
    response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
    g_test_message ("truncate: %s", error ? error->message : "(no error)");
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
    g_assert_null (response);
  }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynHttpResponse) response = NULL;

    dyn_fault_server_push_garbage (server, garbage, sizeof garbage - 1);
    response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
    g_test_message ("garbage: %s", error ? error->message : "(no error)");
    g_assert_nonnull (error);
    g_assert_true (error->domain == G_IO_ERROR);
    g_assert_null (response);
  }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynHttpResponse) response = NULL;

    /* An answer cut off inside its headers. */
    dyn_fault_server_push_garbage (server, "HTTP/1.1 200 OK\r\nContent-Le", -1);
    response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
    g_test_message ("cut headers: %s", error ? error->message : "(no error)");
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
    g_assert_null (response);
  }

  /* And the handle still works after all that. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynHttpResponse) response = NULL;

    dyn_fault_server_push_json (server, 200, "{}");
    response = post (http, dyn_fault_server_get_url (server), "{}", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (response->status, ==, 200);
  }

  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_check_endpoint (void)
{
  static const struct {
    const char *url;
    gboolean    insecure;
    const char *host;       /* NULL: refused */
  } cases[] = {
    { "http://127.0.0.1:8000", FALSE, "127.0.0.1:8000" },
    { "http://127.1.2.3:8000", FALSE, "127.1.2.3:8000" },
    { "http://localhost:8000", FALSE, "localhost:8000" },
    { "http://LOCALHOST", FALSE, "localhost" },
    { "http://dynamo.localhost:8000/", FALSE, "dynamo.localhost:8000" },
    { "http://[::1]:8000", FALSE, "[::1]:8000" },
    { "http://10.1.2.3:8000", FALSE, NULL },
    { "http://10.1.2.3:8000", TRUE, "10.1.2.3:8000" },
    { "http://example.com", FALSE, NULL },
    { "http://example.com", TRUE, "example.com" },
    { "http://localhost.example.com", FALSE, NULL },
    { "http://127.0.0.1.example.com", FALSE, NULL },
    { "http://[::ffff:10.1.2.3]:8000", FALSE, NULL },
    { "http://127.0.0.1@example.com", FALSE, NULL },
    { "http://localhost:8000@example.com/", FALSE, NULL },
    { "https://dynamodb.eu-central-1.amazonaws.com", FALSE, "dynamodb.eu-central-1.amazonaws.com" },
    { "https://example.com:8443", FALSE, "example.com:8443" },
    { "https://10.1.2.3", FALSE, "10.1.2.3" },
    { "ftp://localhost", TRUE, NULL },
    { "file:///etc/passwd", TRUE, NULL },
    { "not a url", TRUE, NULL },
    { "", TRUE, NULL },
    { "http://", TRUE, NULL },
    { "localhost:8000", FALSE, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *host = NULL;
      gboolean ok = dyn_http_check_endpoint (cases[i].url, cases[i].insecure, &error);

      /* The Host that is sent and signed for an accepted endpoint. */
      if (ok)
        host = dyn_sigv4_host_from_url (cases[i].url);

      g_test_message ("%s (insecure %d): %s", cases[i].url, cases[i].insecure,
                      ok ? host : error->message);
      if (cases[i].host != NULL)
        {
          g_assert_no_error (error);
          g_assert_true (ok);
          g_assert_cmpstr (host, ==, cases[i].host);
        }
      else
        {
          g_assert_false (ok);
          g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
          g_assert_null (host);
        }
    }

  /* A NULL error is allowed. */
  g_assert_true (dyn_http_check_endpoint ("http://localhost", FALSE, NULL));
}

/* Wire trace ---------------------------------------------------------------- */

/* Runs in a subprocess with DYN_TRACE=1 (the setting is read once per process);
 * stderr goes to a file that is checked here and then copied to the real
 * stderr for the parent to check too. */
static void
trace_child (void)
{
  DynFaultServer *server = dyn_fault_server_new ();
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynHttpResponse) response = NULL;
  g_autoptr(DynCredentialsProvider) creds = NULL;
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynResponse) client_response = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) body = g_bytes_new_static ("{\"Limit\":1}", 11);
  g_autofree char *trace_path = NULL;
  g_autofree char *trace = NULL;
  g_autofree char *client_signature = NULL;
  const char *auth;
  const char *sig;
  const char * const headers[] = {
    "Content-Type: application/x-amz-json-1.0",
    "X-Amz-Target: DynamoDB_20120810.ListTables",
    "X-Amz-Date: 20240101T000000Z",
    "X-Amz-Security-Token: " TRACE_TOKEN,
    "Authorization: AWS4-HMAC-SHA256 Credential=" TRACE_ACCESS_KEY "/20240101/us-east-1/dynamodb/aws4_request, "
      "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "
      "Signature=" TRACE_SIGNATURE,
    NULL
  };
  int saved_stderr, fd;

  g_setenv ("DYN_TRACE", "1", TRUE);
  g_assert_true (dyn_http_trace_enabled ());

  fd = g_file_open_tmp ("dyn-trace-XXXXXX", &trace_path, &error);
  g_assert_no_error (error);
  saved_stderr = dup (STDERR_FILENO);
  g_assert_cmpint (dup2 (fd, STDERR_FILENO), ==, STDERR_FILENO);
  close (fd);

  /* 1. DynHttp with hand-made credentials headers. */
  dyn_fault_server_push_json (server, 200, "{\"TableNames\":[\"traced\"]}");
  dyn_http_post_async (http, dyn_fault_server_get_url (server), headers, body, NULL, dyn_test_result_cb, &result);
  response = dyn_http_post_finish (http, dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_clear_object (&result);

  /* 2. The client with the real signer and a session token. */
  creds = dyn_credentials_provider_new_static (TRACE_ACCESS_KEY, TRACE_SECRET_KEY, TRACE_TOKEN);
  client = dyn_client_new (dyn_fault_server_get_url (server), "us-east-1", creds, &error);
  g_assert_no_error (error);
  dyn_fault_server_push_json (server, 200, "{\"TableNames\":[]}");
  dyn_client_call_async (client, "ListTables", NULL, NULL, dyn_test_result_cb, &result);
  client_response = dyn_client_call_finish (client, dyn_test_wait (&result), &error);
  g_assert_no_error (error);

  fflush (stderr);
  g_assert_cmpint (dup2 (saved_stderr, STDERR_FILENO), ==, STDERR_FILENO);
  close (saved_stderr);

  g_file_get_contents (trace_path, &trace, NULL, &error);
  g_assert_no_error (error);
  g_unlink (trace_path);

  /* The client's request really carried what the trace must hide. */
  g_assert_cmpuint (dyn_fault_server_get_request_count (server), ==, 2);
  g_assert_cmpstr (dyn_fault_server_get_request_header (server, 1, "X-Amz-Security-Token"), ==, TRACE_TOKEN);
  auth = dyn_fault_server_get_request_header (server, 1, "Authorization");
  g_assert_nonnull (auth);
  sig = strstr (auth, "Signature=");
  g_assert_nonnull (sig);
  client_signature = g_strdup (sig + strlen ("Signature="));
  g_assert_cmpuint (strlen (client_signature), ==, 64);

  g_assert_nonnull (strstr (trace, "DynamoDB_20120810.ListTables"));
  g_assert_nonnull (strstr (trace, "traced"));
  g_assert_nonnull (strstr (trace, "<redacted>"));
  g_assert_null (strstr (trace, TRACE_SECRET_KEY));
  g_assert_null (strstr (trace, TRACE_TOKEN));
  g_assert_null (strstr (trace, TRACE_SIGNATURE));
  g_assert_null (strstr (trace, client_signature));
  g_assert_null (strstr (trace, TRACE_ACCESS_KEY));

  g_printerr ("%s", trace);

  g_clear_object (&client);
  g_clear_object (&http);
  dyn_fault_server_free (server);
}

static void
test_trace_redacts (void)
{
  if (g_test_subprocess ())
    {
      trace_child ();
      return;
    }

  g_test_trap_subprocess (NULL, 30 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*POST http://127.0.0.1:*");
  g_test_trap_assert_stderr ("*Signature=<redacted>*");
  g_test_trap_assert_stderr ("*X-Amz-Security-Token: <redacted>*");
  g_test_trap_assert_stderr_unmatched ("*" TRACE_SECRET_KEY "*");
  g_test_trap_assert_stderr_unmatched ("*" TRACE_TOKEN "*");
  g_test_trap_assert_stderr_unmatched ("*" TRACE_SIGNATURE "*");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/http/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/http/post", test_post);
  g_test_add_func ("/dyn/http/any-status", test_any_status);
  g_test_add_func ("/dyn/http/chunked", test_chunked);
  g_test_add_func ("/dyn/http/connection-reuse", test_connection_reuse);
  g_test_add_func ("/dyn/http/reconnect-after-close", test_reconnect_after_close);
  g_test_add_func ("/dyn/http/concurrent", test_concurrent);
  g_test_add_func ("/dyn/http/cancel", test_cancel);
  g_test_add_func ("/dyn/http/cancel-before", test_cancel_before);
  g_test_add_func ("/dyn/http/total-timeout", test_total_timeout);
  g_test_add_func ("/dyn/http/connect-timeout", test_connect_timeout);
  g_test_add_func ("/dyn/http/refused", test_refused);
  g_test_add_func ("/dyn/http/max-body", test_max_body);
  g_test_add_func ("/dyn/http/broken-responses", test_broken_responses);
  g_test_add_func ("/dyn/http/check-endpoint", test_check_endpoint);
  g_test_add_func ("/dyn/http/trace-redacts", test_trace_redacts);

  return g_test_run ();
}
