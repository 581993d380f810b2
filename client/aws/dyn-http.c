/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-http"

#include "config.h"

#include <string.h>
#include <curl/curl.h>
#include <glib-unix.h>
#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-http.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CURL, curl_easy_cleanup)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CURLU, curl_url_cleanup)

#define DEFAULT_MAX_BODY (64 * 1024 * 1024)

struct _DynHttp
{
  GObject       parent_instance;

  CURLM        *multi;
  GMainContext *context;
  GSource      *timer;
  GHashTable   *sockets;       /* fd → GSource */
  GHashTable   *transfers;     /* CURL* → Transfer* */
  guint         connect_ms;
  guint         total_ms;
  gsize         max_body;
};

G_DEFINE_FINAL_TYPE (DynHttp, dyn_http, G_TYPE_OBJECT)

typedef struct
{
  DynHttp            *http;      /* unowned; transfers never outlive it */
  GTask              *task;      /* owned */
  CURL               *easy;
  struct curl_slist  *headers;
  GBytes             *body;
  GByteArray         *received;
  GHashTable         *response_headers;
  GSource            *cancel_source;
  char               *url;
  char                errbuf[CURL_ERROR_SIZE];
  gboolean            trace_body;     /* DYN_TRACE shows the bodies (DynamoDB only) */
  gboolean            too_big;
  gboolean            headers_done;
  gint64              started;
} Transfer;

static void
transfer_free (Transfer *t)
{
  if (t->cancel_source != NULL)
    {
      g_source_destroy (t->cancel_source);
      g_source_unref (t->cancel_source);
    }
  if (t->easy != NULL)
    curl_easy_cleanup (t->easy);
  curl_slist_free_all (t->headers);
  g_clear_pointer (&t->body, g_bytes_unref);
  g_clear_pointer (&t->received, g_byte_array_unref);
  g_clear_pointer (&t->response_headers, g_hash_table_unref);
  g_clear_object (&t->task);
  g_free (t->url);
  g_free (t);
}

void
dyn_http_response_free (DynHttpResponse *response)
{
  if (response == NULL)
    return;
  g_clear_pointer (&response->body, g_bytes_unref);
  g_clear_pointer (&response->headers, g_hash_table_unref);
  g_free (response);
}

gboolean
dyn_http_trace_enabled (void)
{
  static int enabled = -1;

  if (enabled < 0)
    {
      const char *v = g_getenv ("DYN_TRACE");
      enabled = (v != NULL && *v != '\0' && strcmp (v, "0") != 0);
    }
  return enabled;
}

/* Only DynamoDB's own requests and answers are traced with their bodies: those of STS, IAM
 * Identity Center, the container and instance metadata endpoints carry secret keys, session
 * tokens, SSO tokens and client secrets. */
static gboolean
is_dynamodb_request (const char * const *headers)
{
  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    if (g_ascii_strncasecmp (headers[i], "x-amz-target: DynamoDB", 22) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_secret_header (const char *header)
{
  static const char * const names[] = {
    "x-amz-sso_bearer_token:", "x-aws-ec2-metadata-token:", "authorization:",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strncasecmp (header, names[i], strlen (names[i])) == 0)
      return TRUE;
  return FALSE;
}

static void
trace_request (Transfer           *t,
               const char         *method,
               const char * const *headers)
{
  g_autoptr(GString) s = g_string_new (NULL);

  t->trace_body = is_dynamodb_request (headers);
  g_string_append_printf (s, "→ %s %s\n", method, t->url);
  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    {
      if (!t->trace_body && is_secret_header (headers[i]))
        {
          const char *colon = strchr (headers[i], ':');

          g_string_append_printf (s, "  %.*s: <redacted>\n", (int) (colon - headers[i]), headers[i]);
          continue;
        }
      /* Signatures and session tokens are credentials too. */
      if (g_ascii_strncasecmp (headers[i], "authorization:", 14) == 0)
        {
          const char *cred = strstr (headers[i], "Credential=");
          g_string_append (s, "  Authorization: AWS4-HMAC-SHA256 ");
          if (cred != NULL)
            {
              const char *slash = strchr (cred, '/');
              g_string_append (s, "Credential=<redacted>");
              if (slash != NULL)
                {
                  const char *comma = strchr (slash, ',');
                  g_string_append_len (s, slash, comma ? comma - slash : (gssize) strlen (slash));
                }
            }
          g_string_append (s, ", Signature=<redacted>\n");
        }
      else if (g_ascii_strncasecmp (headers[i], "x-amz-security-token:", 21) == 0)
        g_string_append (s, "  X-Amz-Security-Token: <redacted>\n");
      else
        g_string_append_printf (s, "  %s\n", headers[i]);
    }
  if (t->trace_body)
    g_string_append_len (s, g_bytes_get_data (t->body, NULL), g_bytes_get_size (t->body));
  else
    g_string_append_printf (s, "(%" G_GSIZE_FORMAT " bytes of sign-in traffic, not shown)",
                            g_bytes_get_size (t->body));
  g_printerr ("%s\n", s->str);
}

static void
trace_response (Transfer *t,
                long      status)
{
  if (!t->trace_body)
    {
      g_printerr ("← %ld (%u bytes of sign-in traffic, not shown)\n", status, t->received->len);
      return;
    }
  g_printerr ("← %ld (%u bytes) %.*s\n", status, t->received->len,
              (int) MIN (t->received->len, 65536), (const char *) t->received->data);
}

static GError *
error_from_curl (Transfer *t,
                 CURLcode  code)
{
  GIOErrorEnum io = G_IO_ERROR_FAILED;
  const char *detail = t->errbuf[0] ? t->errbuf : curl_easy_strerror (code);

  switch (code)
    {
    case CURLE_COULDNT_CONNECT:
      io = G_IO_ERROR_CONNECTION_REFUSED;
      break;
    case CURLE_OPERATION_TIMEDOUT:
      io = G_IO_ERROR_TIMED_OUT;
      break;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      io = G_IO_ERROR_HOST_NOT_FOUND;
      break;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
      io = G_IO_ERROR_CONNECTION_CLOSED;
      break;
    case CURLE_WRITE_ERROR:
      if (t->too_big)
        return g_error_new (DYN_ERROR, DYN_ERROR_PROTOCOL,
                            /* Translators: %s is a URL, %zu the limit in bytes */
                            _("The response from %s is larger than %zu bytes"),
                            t->url, t->http->max_body);
      break;
    default:
      break;
    }
  /* Translators: %s is a URL, the second %s what went wrong (from libcurl, in English) */
  return g_error_new (G_IO_ERROR, io, _("Request to %s failed: %s"), t->url, detail);
}

static void
check_finished (DynHttp *self)
{
  CURLMsg *msg;
  int left;

  while ((msg = curl_multi_info_read (self->multi, &left)) != NULL)
    {
      Transfer *t;
      DynHttpResponse *response;
      long status = 0;

      if (msg->msg != CURLMSG_DONE)
        continue;

      t = g_hash_table_lookup (self->transfers, msg->easy_handle);
      if (t == NULL)
        continue;

      curl_multi_remove_handle (self->multi, t->easy);
      g_hash_table_steal (self->transfers, t->easy);

      if (msg->data.result != CURLE_OK)
        {
          g_debug ("transfer to %s failed: %s", t->url, curl_easy_strerror (msg->data.result));
          g_task_return_error (t->task, error_from_curl (t, msg->data.result));
          transfer_free (t);
          continue;
        }

      /* curl reports success when the server closes inside the header block. */
      if (!t->headers_done)
        {
          g_task_return_new_error (t->task, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                                   /* Translators: %s is a URL */
                                   _("Request to %s failed: the connection closed before "
                                     "the response headers were complete"), t->url);
          transfer_free (t);
          continue;
        }

      curl_easy_getinfo (t->easy, CURLINFO_RESPONSE_CODE, &status);
      if (dyn_http_trace_enabled ())
        trace_response (t, status);

      response = g_new0 (DynHttpResponse, 1);
      response->status = status;
      response->body = g_byte_array_free_to_bytes (g_steal_pointer (&t->received));
      response->headers = g_steal_pointer (&t->response_headers);
      response->seconds = (g_get_monotonic_time () - t->started) / (double) G_USEC_PER_SEC;
      g_task_return_pointer (t->task, response, (GDestroyNotify) dyn_http_response_free);
      transfer_free (t);
    }
}

static gboolean
socket_ready_cb (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  g_autoptr(DynHttp) self = g_object_ref (DYN_HTTP (user_data));
  int action = 0;
  int running = 0;

  if (condition & (G_IO_IN | G_IO_PRI | G_IO_HUP))
    action |= CURL_CSELECT_IN;
  if (condition & G_IO_OUT)
    action |= CURL_CSELECT_OUT;
  if (condition & (G_IO_ERR | G_IO_NVAL))
    action |= CURL_CSELECT_ERR;

  curl_multi_socket_action (self->multi, fd, action, &running);
  check_finished (self);
  return G_SOURCE_CONTINUE;
}

static int
socket_cb (CURL          *easy,
           curl_socket_t  fd,
           int            what,
           void          *userp,
           void          *socketp)
{
  DynHttp *self = userp;
  GIOCondition condition = 0;
  GSource *source;

  g_hash_table_remove (self->sockets, GINT_TO_POINTER (fd));
  if (what == CURL_POLL_REMOVE)
    return 0;

  if (what == CURL_POLL_IN || what == CURL_POLL_INOUT)
    condition |= G_IO_IN | G_IO_PRI;
  if (what == CURL_POLL_OUT || what == CURL_POLL_INOUT)
    condition |= G_IO_OUT;
  condition |= G_IO_ERR | G_IO_HUP;

  source = g_unix_fd_source_new (fd, condition);
  g_source_set_callback (source, (GSourceFunc) (void (*)(void)) socket_ready_cb, self, NULL);
  g_source_set_name (source, "[dyn-http] socket");
  g_source_attach (source, self->context);
  g_hash_table_insert (self->sockets, GINT_TO_POINTER (fd), source);
  return 0;
}

static gboolean
timer_cb (gpointer user_data)
{
  g_autoptr(DynHttp) self = g_object_ref (DYN_HTTP (user_data));
  int running = 0;

  /* The source is done; forget it before curl may install a new one. */
  g_clear_pointer (&self->timer, g_source_unref);
  curl_multi_socket_action (self->multi, CURL_SOCKET_TIMEOUT, 0, &running);
  check_finished (self);
  return G_SOURCE_REMOVE;
}

static int
timer_function_cb (CURLM    *multi,
                   long      timeout_ms,
                   void     *userp)
{
  DynHttp *self = userp;

  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }
  if (timeout_ms < 0)
    return 0;

  self->timer = g_timeout_source_new (timeout_ms);
  g_source_set_callback (self->timer, timer_cb, self, NULL);
  g_source_set_name (self->timer, "[dyn-http] timer");
  g_source_attach (self->timer, self->context);
  return 0;
}

static void
destroy_source (gpointer data)
{
  g_source_destroy (data);
  g_source_unref (data);
}

static void
dyn_http_dispose (GObject *object)
{
  DynHttp *self = DYN_HTTP (object);
  GHashTableIter iter;
  gpointer value;

  if (self->transfers != NULL)
    {
      g_hash_table_iter_init (&iter, self->transfers);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          Transfer *t = value;
          curl_multi_remove_handle (self->multi, t->easy);
          g_task_return_new_error (t->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                                   _("The connection was closed"));
          g_hash_table_iter_steal (&iter);
          transfer_free (t);
        }
    }

  G_OBJECT_CLASS (dyn_http_parent_class)->dispose (object);
}

static void
dyn_http_finalize (GObject *object)
{
  DynHttp *self = DYN_HTTP (object);

  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_source_unref (self->timer);
    }
  g_clear_pointer (&self->transfers, g_hash_table_unref);
  if (self->multi != NULL)
    curl_multi_cleanup (self->multi);
  g_clear_pointer (&self->sockets, g_hash_table_unref);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (dyn_http_parent_class)->finalize (object);
}

static void
dyn_http_class_init (DynHttpClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_http_dispose;
  object_class->finalize = dyn_http_finalize;
}

static void
dyn_http_init (DynHttp *self)
{
  static gsize curl_initialized;

  if (g_once_init_enter (&curl_initialized))
    {
      curl_global_init (CURL_GLOBAL_DEFAULT);
      g_once_init_leave (&curl_initialized, 1);
    }

  self->context = g_main_context_ref_thread_default ();
  self->sockets = g_hash_table_new_full (NULL, NULL, NULL, destroy_source);
  self->transfers = g_hash_table_new (NULL, NULL);
  self->connect_ms = 10000;
  self->total_ms = 60000;
  self->max_body = DEFAULT_MAX_BODY;

  self->multi = curl_multi_init ();
  curl_multi_setopt (self->multi, CURLMOPT_SOCKETFUNCTION, socket_cb);
  curl_multi_setopt (self->multi, CURLMOPT_SOCKETDATA, self);
  curl_multi_setopt (self->multi, CURLMOPT_TIMERFUNCTION, timer_function_cb);
  curl_multi_setopt (self->multi, CURLMOPT_TIMERDATA, self);
  curl_multi_setopt (self->multi, CURLMOPT_MAX_HOST_CONNECTIONS, 16L);
}

DynHttp *
dyn_http_new (void)
{
  return g_object_new (DYN_TYPE_HTTP, NULL);
}

void
dyn_http_set_timeouts (DynHttp *self,
                       guint    connect_ms,
                       guint    total_ms)
{
  g_return_if_fail (DYN_IS_HTTP (self));

  self->connect_ms = connect_ms;
  self->total_ms = total_ms;
}

void
dyn_http_set_max_body (DynHttp *self,
                       gsize    max_bytes)
{
  g_return_if_fail (DYN_IS_HTTP (self));

  self->max_body = max_bytes ? max_bytes : DEFAULT_MAX_BODY;
}

static size_t
write_cb (char   *data,
          size_t  size,
          size_t  nmemb,
          void   *userp)
{
  Transfer *t = userp;
  gsize len = size * nmemb;

  if (t->received->len + len > t->http->max_body)
    {
      t->too_big = TRUE;
      return 0;
    }
  g_byte_array_append (t->received, (const guint8 *) data, len);
  return len;
}

static size_t
header_cb (char   *data,
           size_t  size,
           size_t  nmemb,
           void   *userp)
{
  Transfer *t = userp;
  gsize len = size * nmemb;
  const char *colon = memchr (data, ':', len);

  /* A new status line (after a 100 Continue, or a redirect) starts afresh. */
  if (len > 5 && strncmp (data, "HTTP/", 5) == 0)
    {
      g_hash_table_remove_all (t->response_headers);
      t->headers_done = FALSE;
    }
  else if ((len == 2 && data[0] == '\r' && data[1] == '\n') || (len == 1 && data[0] == '\n'))
    t->headers_done = TRUE;
  else if (colon != NULL)
    {
      g_autofree char *name = g_ascii_strdown (data, colon - data);
      g_autofree char *value = g_strndup (colon + 1, len - (colon + 1 - data));
      g_hash_table_replace (t->response_headers, g_strstrip (g_steal_pointer (&name)),
                            g_strdup (g_strstrip (value)));
    }
  return len;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  Transfer *t = user_data;
  DynHttp *self = t->http;

  curl_multi_remove_handle (self->multi, t->easy);
  g_hash_table_remove (self->transfers, t->easy);
  g_clear_pointer (&t->cancel_source, g_source_unref);   /* returning REMOVE destroys it */
  g_task_return_new_error (t->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                           _("The request was cancelled"));
  transfer_free (t);
  return G_SOURCE_REMOVE;
}

void
dyn_http_post_async (DynHttp             *self,
                     const char          *url,
                     const char * const  *headers,
                     GBytes              *body,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_return_if_fail (body != NULL);

  dyn_http_request_async (self, "POST", url, headers, body, cancellable, callback, user_data);
}

void
dyn_http_request_async (DynHttp             *self,
                        const char          *method,
                        const char          *url,
                        const char * const  *headers,
                        GBytes              *body,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  Transfer *t;
  CURLMcode mcode;
  g_autoptr(GBytes) empty = NULL;

  g_return_if_fail (DYN_IS_HTTP (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (url != NULL);

  if (body == NULL)
    body = empty = g_bytes_new_static ("", 0);

  t = g_new0 (Transfer, 1);
  t->http = self;
  t->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (t->task, dyn_http_request_async);
  g_task_set_return_on_cancel (t->task, FALSE);
  t->url = g_strdup (url);
  t->body = g_bytes_ref (body);
  t->received = g_byte_array_new ();
  t->response_headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->started = g_get_monotonic_time ();

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (t->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s",
                               _("The request was cancelled"));
      transfer_free (t);
      return;
    }

  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    t->headers = curl_slist_append (t->headers, headers[i]);
  /* curl adds these by default; DynamoDB needs neither, and the CRC is over the raw body. */
  t->headers = curl_slist_append (t->headers, "Expect:");
  t->headers = curl_slist_append (t->headers, "Accept-Encoding: identity");

  t->easy = curl_easy_init ();
  curl_easy_setopt (t->easy, CURLOPT_URL, url);
  curl_easy_setopt (t->easy, CURLOPT_PROTOCOLS_STR, "http,https");
  if (strcmp (method, "GET") == 0)
    curl_easy_setopt (t->easy, CURLOPT_HTTPGET, 1L);
  else
    {
      curl_easy_setopt (t->easy, CURLOPT_POST, 1L);
      curl_easy_setopt (t->easy, CURLOPT_POSTFIELDS, g_bytes_get_data (body, NULL));
      curl_easy_setopt (t->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) g_bytes_get_size (body));
      if (strcmp (method, "POST") != 0)
        curl_easy_setopt (t->easy, CURLOPT_CUSTOMREQUEST, method);
    }
  curl_easy_setopt (t->easy, CURLOPT_HTTPHEADER, t->headers);
  curl_easy_setopt (t->easy, CURLOPT_WRITEFUNCTION, write_cb);
  curl_easy_setopt (t->easy, CURLOPT_WRITEDATA, t);
  curl_easy_setopt (t->easy, CURLOPT_HEADERFUNCTION, header_cb);
  curl_easy_setopt (t->easy, CURLOPT_HEADERDATA, t);
  curl_easy_setopt (t->easy, CURLOPT_ERRORBUFFER, t->errbuf);
  curl_easy_setopt (t->easy, CURLOPT_PRIVATE, t);
  curl_easy_setopt (t->easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (t->easy, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt (t->easy, CURLOPT_SSL_VERIFYHOST, 2L);
  curl_easy_setopt (t->easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt (t->easy, CURLOPT_CONNECTTIMEOUT_MS, (long) self->connect_ms);
  curl_easy_setopt (t->easy, CURLOPT_TIMEOUT_MS, (long) self->total_ms);
  curl_easy_setopt (t->easy, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt (t->easy, CURLOPT_USERAGENT, "dynoscope/" PACKAGE_VERSION);

  if (dyn_http_trace_enabled ())
    trace_request (t, method, headers);

  if (cancellable != NULL)
    {
      t->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (t->cancel_source, (GSourceFunc) (void (*)(void)) cancelled_cb, t, NULL);
      g_source_attach (t->cancel_source, self->context);
    }

  g_hash_table_insert (self->transfers, t->easy, t);
  mcode = curl_multi_add_handle (self->multi, t->easy);
  if (mcode != CURLM_OK)
    {
      g_hash_table_remove (self->transfers, t->easy);
      g_task_return_new_error (t->task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               /* Translators: %s is what went wrong (from libcurl, in English) */
                               _("Could not start the request: %s"), curl_multi_strerror (mcode));
      transfer_free (t);
    }
}

DynHttpResponse *
dyn_http_post_finish (DynHttp       *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (DYN_IS_HTTP (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_http_request_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
host_is_loopback (const char *host)
{
  g_autoptr(GInetAddress) addr = NULL;
  g_autofree char *bare = NULL;

  if (g_ascii_strcasecmp (host, "localhost") == 0 ||
      g_str_has_suffix (host, ".localhost"))
    return TRUE;

  bare = (host[0] == '[') ? g_strndup (host + 1, strlen (host) - 2) : g_strdup (host);
  addr = g_inet_address_new_from_string (bare);
  return addr != NULL && g_inet_address_get_is_loopback (addr);
}

gboolean
dyn_http_check_endpoint (const char  *url,
                         gboolean     allow_insecure,
                         GError     **error)
{
  g_autoptr(CURLU) u = curl_url ();
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  CURLUcode rc;

  g_return_val_if_fail (url != NULL, FALSE);

  rc = curl_url_set (u, CURLUPART_URL, url, 0);
  if (rc != CURLUE_OK ||
      curl_url_get (u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
      curl_url_get (u, CURLUPART_HOST, &host, 0) != CURLUE_OK)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a valid endpoint URL (expected e.g. http://localhost:8000)"), url);
      return FALSE;
    }
  if (g_ascii_strcasecmp (scheme, "https") != 0 && g_ascii_strcasecmp (scheme, "http") != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Endpoint “%s”: only http and https are supported"), url);
      return FALSE;
    }

  if (g_ascii_strcasecmp (scheme, "http") == 0 && !allow_insecure && !host_is_loopback (host))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Endpoint “%s” uses plain http to a host that is not this machine; "
                     "use https, or allow insecure endpoints explicitly"), url);
      return FALSE;
    }

  return TRUE;
}
