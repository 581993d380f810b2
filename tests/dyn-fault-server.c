/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-fault-server"

#include "config.h"

#include <string.h>
#include <sys/socket.h>

#include <json-glib/json-glib.h>

#include "dyn-fault-server.h"

#define MAX_HEAD  (64 * 1024)

typedef struct
{
  guint          status;
  char          *content_type;
  GStrv          headers;
  GBytes        *body;
  guint          delay_ms;
  DynFaultFlags  flags;
} Scripted;

struct _DynFaultServer
{
  GMutex        mutex;
  GCond         cond;
  gboolean      stopping;

  GSocket      *listener;
  GCancellable *cancellable;
  GThread      *accept_thread;
  GPtrArray    *threads;        /* Worker*, one per connection not yet joined */

  GQueue        script;         /* Scripted* */
  GPtrArray    *requests;       /* DynFaultRequest* */
  GPtrArray    *retired;        /* requests from before the last reset */
  guint         request_serial;
  guint         connections;

  guint16       port;
  char         *url;

  /* Proxy mode (upstream_host != NULL) */
  char         *upstream_host;
  guint16       upstream_port;
  GPtrArray    *rules;          /* ProxyRule* */
  GRand        *rand;
  guint         injected[DYN_PROXY_N_FAULTS];
  guint         forwarded;
  guint         page_limit;
  GPtrArray    *expired_keys;   /* (element-type utf8) access key ids */
  guint         expired;
};

typedef struct
{
  char          *operation;     /* NULL: any */
  DynProxyFault  fault;
  double         rate;
  guint          every_nth;
  guint          delay_ms;
  guint          seen;
} ProxyRule;

typedef struct
{
  GThread *thread;
  gint     done;                /* set (atomically) as the thread's last act */
} Worker;

typedef struct
{
  DynFaultServer    *server;
  Worker            *worker;
  GSocket           *socket;
  guint              serial;
  gboolean           reset;     /* close with RST instead of FIN */
  GSocketConnection *upstream;  /* proxy mode: kept alive between requests */
  GByteArray        *upstream_buf;
} Connection;

static gboolean proxy_handle (Connection *c, DynFaultRequest *r, guint serial);

static void
proxy_rule_free (gpointer data)
{
  ProxyRule *rule = data;

  g_free (rule->operation);
  g_free (rule);
}

/* CRC-32 (IEEE 802.3, reflected, as zlib computes it), kept here so the
 * server does not share code with the client it checks. */
guint32
dyn_fault_crc32 (gconstpointer data,
                 gsize         len)
{
  static guint32 table[256];
  static gsize initialized;
  const guint8 *p = data;
  guint32 crc = 0xffffffffu;

  if (g_once_init_enter (&initialized))
    {
      for (guint32 i = 0; i < 256; i++)
        {
          guint32 c = i;
          for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[i] = c;
        }
      g_once_init_leave (&initialized, 1);
    }

  for (gsize i = 0; i < len; i++)
    crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

static void
scripted_free (Scripted *s)
{
  g_free (s->content_type);
  g_strfreev (s->headers);
  g_clear_pointer (&s->body, g_bytes_unref);
  g_free (s);
}

static void
request_free (DynFaultRequest *r)
{
  g_free (r->method);
  g_free (r->path);
  g_clear_pointer (&r->headers, g_hash_table_unref);
  g_clear_pointer (&r->body, g_bytes_unref);
  g_free (r);
}

static const char *
reason_phrase (guint status)
{
  switch (status)
    {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default:  return "Status";
    }
}

/* Connection I/O ------------------------------------------------------------ */

static gboolean
send_all (Connection    *c,
          gconstpointer  data,
          gsize          len)
{
  const char *p = data;

  while (len > 0)
    {
      g_autoptr(GError) error = NULL;
      gssize n = g_socket_send (c->socket, p, len, c->server->cancellable, &error);

      if (n <= 0)
        {
          g_debug ("connection %u: send failed: %s", c->serial,
                   error ? error->message : "nothing sent");
          return FALSE;
        }
      p += n;
      len -= n;
    }
  return TRUE;
}

/* Reads more bytes into @buf; FALSE on EOF, error or shutdown. */
static gboolean
receive_more (Connection *c,
              GByteArray *buf)
{
  g_autoptr(GError) error = NULL;
  char chunk[16384];
  gssize n;

  n = g_socket_receive (c->socket, chunk, sizeof chunk, c->server->cancellable, &error);
  if (n <= 0)
    return FALSE;
  g_byte_array_append (buf, (const guint8 *) chunk, n);
  return TRUE;
}

static gssize
find_head_end (GByteArray *buf)
{
  for (guint i = 0; i + 3 < buf->len; i++)
    if (memcmp (buf->data + i, "\r\n\r\n", 4) == 0)
      return i;
  return -1;
}

/* Reads one request from @buf (filling it from the socket as needed) and
 * leaves any bytes after it in @buf. */
static DynFaultRequest *
read_request (Connection *c,
              GByteArray *buf)
{
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) request_line = NULL;
  DynFaultRequest *r;
  g_autofree char *head = NULL;
  gssize head_end;
  guint64 content_length = 0;
  const char *cl;

  while ((head_end = find_head_end (buf)) < 0)
    {
      if (buf->len > MAX_HEAD || !receive_more (c, buf))
        return NULL;
    }

  head = g_strndup ((const char *) buf->data, head_end);
  g_byte_array_remove_range (buf, 0, head_end + 4);

  lines = g_strsplit (head, "\r\n", -1);
  request_line = g_strsplit (lines[0], " ", 3);
  if (g_strv_length (request_line) < 2)
    return NULL;

  r = g_new0 (DynFaultRequest, 1);
  r->method = g_strdup (request_line[0]);
  r->path = g_strdup (request_line[1]);
  r->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->connection = c->serial;
  for (guint i = 1; lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');
      char *name, *value;

      if (colon == NULL)
        continue;
      name = g_ascii_strdown (lines[i], colon - lines[i]);
      value = g_strstrip (g_strdup (colon + 1));
      g_hash_table_replace (r->headers, g_strstrip (name), value);
    }

  cl = g_hash_table_lookup (r->headers, "content-length");
  if (cl != NULL)
    content_length = g_ascii_strtoull (cl, NULL, 10);
  if (content_length > 256 * 1024 * 1024)
    {
      request_free (r);
      return NULL;
    }

  while (buf->len < content_length)
    if (!receive_more (c, buf))
      {
        request_free (r);
        return NULL;
      }
  {
    char *copy = g_malloc (content_length + 1);
    memcpy (copy, buf->data, content_length);
    copy[content_length] = '\0';
    r->body = g_bytes_new_take (copy, content_length);
  }
  g_byte_array_remove_range (buf, 0, content_length);
  return r;
}

/* Waits @ms or until the server stops; FALSE when it stops. */
static gboolean
wait_ms (DynFaultServer *self,
         guint           ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) ms * G_TIME_SPAN_MILLISECOND;
  gboolean stopping;

  g_mutex_lock (&self->mutex);
  while (!self->stopping)
    if (!g_cond_wait_until (&self->cond, &self->mutex, until))
      break;
  stopping = self->stopping;
  g_mutex_unlock (&self->mutex);
  return !stopping;
}

static Scripted *
exhausted_response (void)
{
  Scripted *s = g_new0 (Scripted, 1);
  static const char body[] =
    "{\"__type\":\"com.dynoscope.fault#ScriptExhausted\","
    "\"message\":\"the fault server has no scripted response left\"}";

  s->status = 400;
  s->body = g_bytes_new_static (body, sizeof body - 1);
  return s;
}

/* Answers one request; FALSE when the connection must close afterwards. */
static gboolean
answer (Connection *c,
        Scripted   *s,
        guint       request_serial)
{
  g_autoptr(GString) head = g_string_new (NULL);
  gsize len;
  const char *body = g_bytes_get_data (s->body, &len);
  guint status = s->status ? s->status : 200;

  if (s->delay_ms > 0 && !wait_ms (c->server, s->delay_ms))
    return FALSE;

  if (s->flags & DYN_FAULT_DROP)
    return FALSE;

  if (s->flags & DYN_FAULT_RAW)
    {
      send_all (c, body, len);
      return FALSE;
    }

  g_string_append_printf (head, "HTTP/1.1 %u %s\r\n", status, reason_phrase (status));
  g_string_append_printf (head, "Content-Type: %s\r\n",
                          s->content_type ? s->content_type : "application/x-amz-json-1.0");
  if (!(s->flags & DYN_FAULT_NO_REQUEST_ID))
    g_string_append_printf (head, "x-amzn-RequestId: FAULT-%u\r\n", request_serial);
  if (!(s->flags & DYN_FAULT_NO_CRC))
    {
      guint32 crc = dyn_fault_crc32 (body, len);
      if (s->flags & DYN_FAULT_BAD_CRC)
        crc ^= 0x5a5a5a5au;
      g_string_append_printf (head, "x-amz-crc32: %u\r\n", crc);
    }
  for (guint i = 0; s->headers != NULL && s->headers[i] != NULL; i++)
    g_string_append_printf (head, "%s\r\n", s->headers[i]);
  if (s->flags & DYN_FAULT_CLOSE)
    g_string_append (head, "Connection: close\r\n");

  if (s->flags & DYN_FAULT_CHUNKED)
    {
      g_string_append (head, "Transfer-Encoding: chunked\r\n\r\n");
      if (!send_all (c, head->str, head->len))
        return FALSE;
      /* Small uneven chunks, so the client must join them. */
      for (gsize off = 0; off < len; off += 7)
        {
          gsize n = MIN (7, len - off);
          g_autofree char *size = g_strdup_printf ("%zx\r\n", n);
          if (!send_all (c, size, strlen (size)) ||
              !send_all (c, body + off, n) ||
              !send_all (c, "\r\n", 2))
            return FALSE;
        }
      if (!send_all (c, "0\r\n\r\n", 5))
        return FALSE;
      return !(s->flags & DYN_FAULT_CLOSE);
    }

  g_string_append_printf (head, "Content-Length: %zu\r\n\r\n", len);
  if (s->flags & DYN_FAULT_TRUNCATE)
    {
      send_all (c, head->str, head->len);
      send_all (c, body, len / 2);
      return FALSE;
    }

  if (!send_all (c, head->str, head->len) || !send_all (c, body, len))
    return FALSE;
  return !(s->flags & DYN_FAULT_CLOSE);
}

static gpointer
connection_thread (gpointer data)
{
  Connection *c = data;
  DynFaultServer *self = c->server;
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  Worker *worker;

  for (;;)
    {
      DynFaultRequest *r = read_request (c, buf);
      Scripted *s;
      guint serial;
      gboolean keep;

      if (r == NULL)
        break;

      if (self->upstream_host != NULL)
        {
          g_mutex_lock (&self->mutex);
          g_ptr_array_add (self->requests, r);
          serial = ++self->request_serial;
          g_cond_broadcast (&self->cond);
          g_mutex_unlock (&self->mutex);
          if (!proxy_handle (c, r, serial))
            break;
          continue;
        }

      g_mutex_lock (&self->mutex);
      g_ptr_array_add (self->requests, r);
      serial = ++self->request_serial;
      s = g_queue_pop_head (&self->script);
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->mutex);

      if (s == NULL)
        s = exhausted_response ();
      keep = answer (c, s, serial);
      scripted_free (s);
      if (!keep)
        break;
    }

  if (c->reset)
    {
      /* SO_LINGER 0: close() sends RST, as a crashed load balancer does. */
      struct linger lg = { .l_onoff = 1, .l_linger = 0 };
      setsockopt (g_socket_get_fd (c->socket), SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
  else
    g_socket_shutdown (c->socket, TRUE, TRUE, NULL);
  g_socket_close (c->socket, NULL);
  g_object_unref (c->socket);
  g_clear_object (&c->upstream);
  g_clear_pointer (&c->upstream_buf, g_byte_array_unref);
  worker = c->worker;
  g_free (c);
  g_atomic_int_set (&worker->done, 1);
  return NULL;
}

static gpointer
accept_thread (gpointer data)
{
  DynFaultServer *self = data;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      GSocket *socket = g_socket_accept (self->listener, self->cancellable, &error);
      Connection *c;

      if (socket == NULL)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            break;
          g_debug ("accept failed: %s", error->message);
          continue;
        }

      c = g_new0 (Connection, 1);
      c->server = self;
      c->socket = socket;
      c->worker = g_new0 (Worker, 1);

      g_mutex_lock (&self->mutex);
      /* Join the threads of closed connections, so that a long run with
       * many resets does not keep their stacks. */
      for (guint i = self->threads->len; i > 0; i--)
        {
          Worker *w = self->threads->pdata[i - 1];
          if (g_atomic_int_get (&w->done))
            {
              g_thread_join (w->thread);
              g_free (w);
              g_ptr_array_remove_index_fast (self->threads, i - 1);
            }
        }
      c->serial = ++self->connections;
      c->worker->thread = g_thread_new ("fault-conn", connection_thread, c);
      g_ptr_array_add (self->threads, c->worker);
      g_mutex_unlock (&self->mutex);
    }
  return NULL;
}

/* Public API ---------------------------------------------------------------- */

static DynFaultServer *
fault_server_start (const char *upstream_url)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  DynFaultServer *self = g_new0 (DynFaultServer, 1);

  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  g_queue_init (&self->script);
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  self->retired = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  self->threads = g_ptr_array_new ();
  self->cancellable = g_cancellable_new ();
  self->rules = g_ptr_array_new_with_free_func (proxy_rule_free);
  self->rand = g_rand_new_with_seed (1);
  self->expired_keys = g_ptr_array_new_with_free_func (g_free);
  if (upstream_url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (upstream_url, G_URI_FLAGS_NONE, &error);

      g_assert_no_error (error);
      self->upstream_host = g_strdup (g_uri_get_host (uri));
      self->upstream_port = g_uri_get_port (uri) > 0 ? g_uri_get_port (uri) : 80;
    }

  self->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (self->listener, any_port, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (self->listener, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (self->listener, &error);
  g_assert_no_error (error);
  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  self->url = g_strdup_printf ("http://127.0.0.1:%u", self->port);

  self->accept_thread = g_thread_new ("fault-accept", accept_thread, self);
  return self;
}

DynFaultServer *
dyn_fault_server_new (void)
{
  return fault_server_start (NULL);
}

void
dyn_fault_server_free (DynFaultServer *self)
{
  if (self == NULL)
    return;

  g_mutex_lock (&self->mutex);
  self->stopping = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
  g_cancellable_cancel (self->cancellable);

  /* After the acceptor is gone no thread is added, so the list can be joined unlocked. */
  g_thread_join (self->accept_thread);
  for (guint i = 0; i < self->threads->len; i++)
    {
      Worker *w = self->threads->pdata[i];
      g_thread_join (w->thread);
      g_free (w);
    }
  g_ptr_array_unref (self->threads);

  g_socket_close (self->listener, NULL);
  g_object_unref (self->listener);
  g_object_unref (self->cancellable);
  g_queue_clear_full (&self->script, (GDestroyNotify) scripted_free);
  g_ptr_array_unref (self->requests);
  g_ptr_array_unref (self->retired);
  g_clear_pointer (&self->rules, g_ptr_array_unref);
  g_clear_pointer (&self->rand, g_rand_free);
  g_clear_pointer (&self->expired_keys, g_ptr_array_unref);
  g_free (self->upstream_host);
  g_free (self->url);
  g_cond_clear (&self->cond);
  g_mutex_clear (&self->mutex);
  g_free (self);
}

guint16
dyn_fault_server_get_port (DynFaultServer *self)
{
  return self->port;
}

const char *
dyn_fault_server_get_url (DynFaultServer *self)
{
  return self->url;
}

void
dyn_fault_server_push (DynFaultServer         *self,
                       const DynFaultResponse *response)
{
  Scripted *s = g_new0 (Scripted, 1);
  gsize len = 0;

  if (response->body != NULL)
    len = response->body_len < 0 ? strlen (response->body) : (gsize) response->body_len;
  s->status = response->status;
  s->content_type = g_strdup (response->content_type);
  s->headers = g_strdupv ((char **) response->headers);
  s->body = g_bytes_new (response->body, len);
  s->delay_ms = response->delay_ms;
  s->flags = response->flags;

  g_mutex_lock (&self->mutex);
  g_queue_push_tail (&self->script, s);
  g_mutex_unlock (&self->mutex);
}

void
dyn_fault_server_push_flags (DynFaultServer *self,
                             DynFaultFlags   flags,
                             guint           status,
                             const char     *body)
{
  DynFaultResponse r = { .status = status, .body = body, .body_len = -1, .flags = flags };

  dyn_fault_server_push (self, &r);
}

void
dyn_fault_server_push_json (DynFaultServer *self,
                            guint           status,
                            const char     *body)
{
  dyn_fault_server_push_flags (self, DYN_FAULT_NONE, status, body);
}

void
dyn_fault_server_push_delayed (DynFaultServer *self,
                               guint           delay_ms,
                               guint           status,
                               const char     *body)
{
  DynFaultResponse r = { .status = status, .body = body, .body_len = -1, .delay_ms = delay_ms };

  dyn_fault_server_push (self, &r);
}

void
dyn_fault_server_push_error (DynFaultServer *self,
                             guint           status,
                             const char     *type,
                             const char     *message)
{
  g_autoptr(GString) body = g_string_new ("{\"__type\":\"");

  g_string_append (body, type);
  g_string_append (body, "\",\"message\":\"");
  g_string_append (body, message);
  g_string_append (body, "\"}");
  dyn_fault_server_push_json (self, status, body->str);
}

void
dyn_fault_server_push_html (DynFaultServer *self,
                            guint           status,
                            const char     *html)
{
  DynFaultResponse r = {
    .status = status,
    .content_type = "text/html; charset=utf-8",
    .body = html,
    .body_len = -1,
    .flags = DYN_FAULT_NO_CRC | DYN_FAULT_NO_REQUEST_ID,
  };

  dyn_fault_server_push (self, &r);
}

void
dyn_fault_server_push_garbage (DynFaultServer *self,
                               const char     *bytes,
                               gssize          len)
{
  DynFaultResponse r = { .body = bytes, .body_len = len, .flags = DYN_FAULT_RAW };

  dyn_fault_server_push (self, &r);
}

void
dyn_fault_server_push_drop (DynFaultServer *self)
{
  DynFaultResponse r = { .body_len = 0, .flags = DYN_FAULT_DROP };

  dyn_fault_server_push (self, &r);
}

guint
dyn_fault_server_get_pending (DynFaultServer *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->script.length;
  g_mutex_unlock (&self->mutex);
  return n;
}

guint
dyn_fault_server_get_request_count (DynFaultServer *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->requests->len;
  g_mutex_unlock (&self->mutex);
  return n;
}

const DynFaultRequest *
dyn_fault_server_get_request (DynFaultServer *self,
                              guint           index)
{
  const DynFaultRequest *r = NULL;

  g_mutex_lock (&self->mutex);
  if (index < self->requests->len)
    r = self->requests->pdata[index];
  g_mutex_unlock (&self->mutex);
  return r;
}

const char *
dyn_fault_server_get_request_header (DynFaultServer *self,
                                     guint           index,
                                     const char     *name)
{
  const DynFaultRequest *r = dyn_fault_server_get_request (self, index);
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return r ? g_hash_table_lookup (r->headers, lower) : NULL;
}

const char *
dyn_fault_server_get_request_body (DynFaultServer *self,
                                   guint           index)
{
  const DynFaultRequest *r = dyn_fault_server_get_request (self, index);
  gsize len;
  const char *data;

  if (r == NULL)
    return NULL;
  /* read_request() stores every body with a NUL after its last byte. */
  data = g_bytes_get_data (r->body, &len);
  return data ? data : "";
}

guint
dyn_fault_server_get_connection_count (DynFaultServer *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->connections;
  g_mutex_unlock (&self->mutex);
  return n;
}

void
dyn_fault_server_reset (DynFaultServer *self)
{
  g_mutex_lock (&self->mutex);
  g_queue_clear_full (&self->script, (GDestroyNotify) scripted_free);
  g_queue_init (&self->script);
  /* Records handed out stay valid until the server goes. */
  g_ptr_array_extend_and_steal (self->retired, g_steal_pointer (&self->requests));
  self->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  self->request_serial = 0;
  g_mutex_unlock (&self->mutex);
}

gboolean
dyn_fault_server_wait_for_requests (DynFaultServer *self,
                                    guint           count,
                                    guint           timeout_ms)
{
  gint64 until = g_get_monotonic_time () + (gint64) timeout_ms * G_TIME_SPAN_MILLISECOND;
  gboolean ok;

  g_mutex_lock (&self->mutex);
  while (self->requests->len < count)
    if (!g_cond_wait_until (&self->cond, &self->mutex, until))
      break;
  ok = self->requests->len >= count;
  g_mutex_unlock (&self->mutex);
  return ok;
}

/* Proxy mode ---------------------------------------------------------------- */

static const char *fault_names[DYN_PROXY_N_FAULTS] = {
  "THROTTLE", "ERROR_500", "RESET_BEFORE", "RESET_AFTER", "PARTIAL_BATCH", "DELAY",
};

const char *
dyn_proxy_fault_to_string (DynProxyFault fault)
{
  g_return_val_if_fail (fault < DYN_PROXY_N_FAULTS, NULL);
  return fault_names[fault];
}

DynFaultServer *
dyn_fault_server_new_proxy (const char *upstream_url)
{
  g_return_val_if_fail (upstream_url != NULL, NULL);
  return fault_server_start (upstream_url);
}

void
dyn_fault_server_proxy_set_seed (DynFaultServer *self,
                                 guint32         seed)
{
  g_mutex_lock (&self->mutex);
  g_rand_set_seed (self->rand, seed);
  g_mutex_unlock (&self->mutex);
}

void
dyn_fault_server_proxy_add_rule (DynFaultServer *self,
                                 const char     *operation,
                                 DynProxyFault   fault,
                                 double          rate,
                                 guint           every_nth,
                                 guint           delay_ms)
{
  ProxyRule *rule = g_new0 (ProxyRule, 1);

  g_return_if_fail (fault < DYN_PROXY_N_FAULTS);
  rule->operation = g_strdup (operation);
  rule->fault = fault;
  rule->rate = rate;
  rule->every_nth = every_nth;
  rule->delay_ms = delay_ms;
  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->rules, rule);
  g_mutex_unlock (&self->mutex);
}

void
dyn_fault_server_proxy_set_page_limit (DynFaultServer *self,
                                       guint           limit)
{
  g_mutex_lock (&self->mutex);
  self->page_limit = limit;
  g_mutex_unlock (&self->mutex);
}

void
dyn_fault_server_proxy_clear_rules (DynFaultServer *self)
{
  g_mutex_lock (&self->mutex);
  g_ptr_array_set_size (self->rules, 0);
  g_mutex_unlock (&self->mutex);
}

guint
dyn_fault_server_proxy_get_injected (DynFaultServer *self,
                                     DynProxyFault   fault)
{
  guint n;

  g_return_val_if_fail (fault < DYN_PROXY_N_FAULTS, 0);
  g_mutex_lock (&self->mutex);
  n = self->injected[fault];
  g_mutex_unlock (&self->mutex);
  return n;
}

guint
dyn_fault_server_proxy_get_forwarded (DynFaultServer *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->forwarded;
  g_mutex_unlock (&self->mutex);
  return n;
}

void
dyn_fault_server_expire_access_key (DynFaultServer *self,
                                    const char     *access_key_id)
{
  g_return_if_fail (access_key_id != NULL && *access_key_id != '\0');
  g_mutex_lock (&self->mutex);
  g_ptr_array_add (self->expired_keys, g_strdup (access_key_id));
  g_mutex_unlock (&self->mutex);
}

guint
dyn_fault_server_proxy_get_expired (DynFaultServer *self)
{
  guint n;

  g_mutex_lock (&self->mutex);
  n = self->expired;
  g_mutex_unlock (&self->mutex);
  return n;
}

/* Whether @r is signed with an expired access key id (counted when it is).
 * "AWS4-HMAC-SHA256 Credential=AKID/20261202/us-east-1/dynamodb/aws4_request, …" */
static gboolean
signed_with_expired_key (DynFaultServer  *self,
                         DynFaultRequest *r)
{
  const char *authorization = g_hash_table_lookup (r->headers, "authorization");
  const char *credential, *end;
  g_autofree char *key = NULL;
  gboolean expired = FALSE;

  if (authorization == NULL || (credential = strstr (authorization, "Credential=")) == NULL)
    return FALSE;
  credential += strlen ("Credential=");
  end = strchr (credential, '/');
  if (end == NULL)
    return FALSE;
  key = g_strndup (credential, end - credential);

  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->expired_keys->len && !expired; i++)
    expired = g_str_equal (self->expired_keys->pdata[i], key);
  if (expired)
    self->expired++;
  g_mutex_unlock (&self->mutex);
  return expired;
}

static void
count_injected (DynFaultServer *self,
                DynProxyFault   fault)
{
  g_mutex_lock (&self->mutex);
  self->injected[fault]++;
  g_mutex_unlock (&self->mutex);
}

/* "DynamoDB_20120810.PutItem" → "PutItem" */
static const char *
request_operation (DynFaultRequest *r)
{
  const char *target = g_hash_table_lookup (r->headers, "x-amz-target");
  const char *dot;

  if (target == NULL)
    return "";
  dot = strrchr (target, '.');
  return dot ? dot + 1 : target;
}

/* Decides what to do with a request of @operation: the first rule that
 * fires (DELAY rules add their delay to *@delay_ms and let the others
 * decide); DYN_PROXY_N_FAULTS when none fires. */
static DynProxyFault
pick_fault (DynFaultServer *self,
            const char     *operation,
            guint          *delay_ms)
{
  DynProxyFault result = DYN_PROXY_N_FAULTS;

  *delay_ms = 0;
  g_mutex_lock (&self->mutex);
  for (guint i = 0; i < self->rules->len && result == DYN_PROXY_N_FAULTS; i++)
    {
      ProxyRule *rule = self->rules->pdata[i];
      gboolean fires = FALSE;

      if (rule->operation != NULL && g_strcmp0 (rule->operation, operation) != 0)
        continue;
      if (rule->fault == DYN_PROXY_PARTIAL_BATCH && g_strcmp0 (operation, "BatchWriteItem") != 0)
        continue;
      rule->seen++;
      if (rule->every_nth > 0 && rule->seen % rule->every_nth == 0)
        fires = TRUE;
      if (rule->rate > 0 && g_rand_double (self->rand) < rule->rate)
        fires = TRUE;
      if (!fires)
        continue;
      if (rule->fault == DYN_PROXY_DELAY)
        {
          *delay_ms += rule->delay_ms;
          self->injected[DYN_PROXY_DELAY]++;
          continue;
        }
      result = rule->fault;
    }
  g_mutex_unlock (&self->mutex);
  return result;
}

static gboolean
socket_receive_more (GSocket      *socket,
                     GCancellable *cancellable,
                     GByteArray   *buf)
{
  char chunk[16384];
  gssize n = g_socket_receive (socket, chunk, sizeof chunk, cancellable, NULL);

  if (n <= 0)
    return FALSE;
  g_byte_array_append (buf, (const guint8 *) chunk, n);
  return TRUE;
}

static gboolean
socket_send_all (GSocket       *socket,
                 GCancellable  *cancellable,
                 gconstpointer  data,
                 gsize          len)
{
  const char *p = data;

  while (len > 0)
    {
      gssize n = g_socket_send (socket, p, len, cancellable, NULL);

      if (n <= 0)
        return FALSE;
      p += n;
      len -= n;
    }
  return TRUE;
}

/* Reads one CRLF-terminated line from @buf (filling it from @socket). */
static char *
read_line (GSocket      *socket,
           GCancellable *cancellable,
           GByteArray   *buf)
{
  for (;;)
    {
      for (guint i = 0; i + 1 < buf->len; i++)
        if (buf->data[i] == '\r' && buf->data[i + 1] == '\n')
          {
            char *line = g_strndup ((const char *) buf->data, i);
            g_byte_array_remove_range (buf, 0, i + 2);
            return line;
          }
      if (buf->len > MAX_HEAD || !socket_receive_more (socket, cancellable, buf))
        return NULL;
    }
}

static gboolean
read_bytes (GSocket      *socket,
            GCancellable *cancellable,
            GByteArray   *buf,
            gsize         len,
            GByteArray   *out)
{
  while (buf->len < len)
    if (!socket_receive_more (socket, cancellable, buf))
      return FALSE;
  g_byte_array_append (out, buf->data, len);
  g_byte_array_remove_range (buf, 0, len);
  return TRUE;
}

/* One answer of the upstream: status, Content-Type and the body (Content-
 * Length or chunked); FALSE when the connection broke. */
static gboolean
read_upstream_response (Connection  *c,
                        guint       *status,
                        char       **content_type,
                        gboolean    *close,
                        GBytes     **body)
{
  GSocket *socket = g_socket_connection_get_socket (c->upstream);
  GCancellable *cancellable = c->server->cancellable;
  g_autofree char *status_line = read_line (socket, cancellable, c->upstream_buf);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gint64 content_length = -1;
  gboolean chunked = FALSE;
  g_auto(GStrv) parts = NULL;

  if (status_line == NULL)
    return FALSE;
  parts = g_strsplit (status_line, " ", 3);
  if (g_strv_length (parts) < 2)
    return FALSE;
  *status = (guint) g_ascii_strtoull (parts[1], NULL, 10);
  *close = g_str_has_prefix (status_line, "HTTP/1.0");
  *content_type = NULL;

  for (;;)
    {
      g_autofree char *line = read_line (socket, cancellable, c->upstream_buf);
      const char *colon;
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (line == NULL)
        return FALSE;
      if (*line == '\0')
        break;
      colon = strchr (line, ':');
      if (colon == NULL)
        continue;
      name = g_ascii_strdown (line, colon - line);
      value = g_strstrip (g_strdup (colon + 1));
      if (g_str_equal (name, "content-length"))
        content_length = g_ascii_strtoll (value, NULL, 10);
      else if (g_str_equal (name, "transfer-encoding"))
        chunked = g_ascii_strcasecmp (value, "chunked") == 0;
      else if (g_str_equal (name, "connection"))
        *close = g_ascii_strcasecmp (value, "close") == 0;
      else if (g_str_equal (name, "content-type"))
        {
          g_free (*content_type);
          *content_type = g_steal_pointer (&value);
        }
    }

  if (chunked)
    {
      for (;;)
        {
          g_autofree char *size_line = read_line (socket, cancellable, c->upstream_buf);
          g_autofree char *crlf = NULL;
          guint64 size;

          if (size_line == NULL)
            return FALSE;
          size = g_ascii_strtoull (size_line, NULL, 16);
          if (size == 0)
            {
              /* Trailers, up to the empty line. */
              for (;;)
                {
                  g_autofree char *trailer = read_line (socket, cancellable, c->upstream_buf);
                  if (trailer == NULL)
                    return FALSE;
                  if (*trailer == '\0')
                    break;
                }
              break;
            }
          if (!read_bytes (socket, cancellable, c->upstream_buf, size, out))
            return FALSE;
          crlf = read_line (socket, cancellable, c->upstream_buf);
          if (crlf == NULL)
            return FALSE;
        }
    }
  else if (content_length >= 0)
    {
      if (!read_bytes (socket, cancellable, c->upstream_buf, content_length, out))
        return FALSE;
    }
  else
    {
      /* Until the upstream closes. */
      while (socket_receive_more (socket, cancellable, c->upstream_buf))
        ;
      g_byte_array_append (out, c->upstream_buf->data, c->upstream_buf->len);
      g_byte_array_set_size (c->upstream_buf, 0);
      *close = TRUE;
    }

  *body = g_byte_array_free_to_bytes (g_steal_pointer (&out));
  return TRUE;
}

static gboolean
upstream_connect (Connection *c)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GError) error = NULL;

  g_clear_object (&c->upstream);
  c->upstream = g_socket_client_connect_to_host (client, c->server->upstream_host,
                                                 c->server->upstream_port,
                                                 c->server->cancellable, &error);
  if (c->upstream == NULL)
    {
      g_debug ("connection %u: upstream: %s", c->serial, error->message);
      return FALSE;
    }
  if (c->upstream_buf == NULL)
    c->upstream_buf = g_byte_array_new ();
  g_byte_array_set_size (c->upstream_buf, 0);
  return TRUE;
}

/* Sends @r (with @body instead of its own when set) to the upstream and
 * reads its answer; FALSE when that failed (nothing to relay). */
static gboolean
forward (Connection      *c,
         DynFaultRequest *r,
         GBytes          *body,
         guint           *status,
         char           **content_type,
         GBytes         **response)
{
  g_autoptr(GString) head = g_string_new (NULL);
  GHashTableIter iter;
  gpointer name, value;
  gsize len;
  const char *data;
  gboolean close = FALSE;

  if (body == NULL)
    body = r->body;
  data = g_bytes_get_data (body, &len);

  g_string_append_printf (head, "%s %s HTTP/1.1\r\n", r->method, r->path);
  g_hash_table_iter_init (&iter, r->headers);
  while (g_hash_table_iter_next (&iter, &name, &value))
    {
      /* The proxy sets the framing; identity bodies only (no gzip to relay). */
      if (g_str_equal (name, "content-length") || g_str_equal (name, "connection") ||
          g_str_equal (name, "transfer-encoding") || g_str_equal (name, "expect") ||
          g_str_equal (name, "accept-encoding"))
        continue;
      g_string_append_printf (head, "%s: %s\r\n", (const char *) name, (const char *) value);
    }
  g_string_append_printf (head, "Content-Length: %zu\r\n\r\n", len);

  for (guint attempt = 0; attempt < 2; attempt++)
    {
      GSocket *socket;
      gboolean fresh = FALSE;

      if (c->upstream == NULL)
        {
          if (!upstream_connect (c))
            return FALSE;
          fresh = TRUE;
        }
      socket = g_socket_connection_get_socket (c->upstream);
      if (socket_send_all (socket, c->server->cancellable, head->str, head->len) &&
          socket_send_all (socket, c->server->cancellable, data, len) &&
          read_upstream_response (c, status, content_type, &close, response))
        {
          if (close)
            g_clear_object (&c->upstream);
          g_mutex_lock (&c->server->mutex);
          c->server->forwarded++;
          g_mutex_unlock (&c->server->mutex);
          return TRUE;
        }
      g_clear_object (&c->upstream);
      /* A kept-alive connection the upstream had closed: once more on a new
       * one. A fresh one that broke: give up (the request may have been
       * applied, which the client sees as a dropped connection). */
      if (fresh || g_cancellable_is_cancelled (c->server->cancellable))
        return FALSE;
    }
  return FALSE;
}

static gboolean
relay (Connection *c,
       guint       serial,
       guint       status,
       const char *content_type,
       GBytes     *body)
{
  Scripted s = {
    .status = status,
    .content_type = (char *) content_type,
    .body = body,
  };

  return answer (c, &s, serial);
}

static gboolean
answer_error (Connection *c,
              guint       serial,
              guint       status,
              const char *type,
              const char *message)
{
  char *text = g_strdup_printf ("{\"__type\":\"%s\",\"message\":\"%s\"}", type, message);
  gsize len = strlen (text);
  g_autoptr(GBytes) body = g_bytes_new_take (text, len);

  return relay (c, serial, status, NULL, body);
}

static gboolean
is_item_operation (const char *operation)
{
  static const char *const ops[] = {
    "GetItem", "PutItem", "UpdateItem", "DeleteItem", "BatchGetItem", "BatchWriteItem",
    "Query", "Scan", "TransactGetItems", "TransactWriteItems", "ExecuteStatement",
    "BatchExecuteStatement", "ExecuteTransaction",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_equal (operation, ops[i]))
      return TRUE;
  return FALSE;
}

typedef struct
{
  const char *table;
  JsonNode   *request;   /* borrowed from the parsed body */
} BatchEntry;

static GBytes *
node_to_bytes (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  gsize len;
  char *text;

  json_generator_set_root (gen, node);
  text = json_generator_to_data (gen, &len);
  return g_bytes_new_take (text, len);
}

/* Adds @entries (those with @keep[i] == @which) to @object grouped by table. */
static void
add_entries (JsonObject *object,
             GArray     *entries,
             gboolean   *keep,
             gboolean    which)
{
  for (guint i = 0; i < entries->len; i++)
    {
      BatchEntry *e = &g_array_index (entries, BatchEntry, i);
      JsonArray *list;

      if (keep[i] != which)
        continue;
      if (!json_object_has_member (object, e->table))
        json_object_set_array_member (object, e->table, json_array_new ());
      list = json_object_get_array_member (object, e->table);
      json_array_add_element (list, json_node_copy (e->request));
    }
}

/* PARTIAL_BATCH: forwards a random part of the batch (possibly none) and
 * answers the rest as UnprocessedItems. Returns -1 when the body is not a
 * batch it can cut (forward it as it is), else whether to keep the
 * connection. */
static int
partial_batch (Connection      *c,
               DynFaultRequest *r,
               guint            serial)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) entries = g_array_new (FALSE, FALSE, sizeof (BatchEntry));
  g_autofree gboolean *keep = NULL;
  g_autoptr(JsonNode) forwarded_root = NULL;
  g_autoptr(JsonNode) answer_root = NULL;
  g_autoptr(GBytes) answer_body = NULL;
  g_autofree char *content_type = NULL;
  JsonObject *root, *items;
  guint n_keep = 0;
  guint status = 200;
  gsize len;
  const char *data = g_bytes_get_data (r->body, &len);

  if (!json_parser_load_from_data (parser, data ? data : "", len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return -1;
  root = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (root, "RequestItems") ||
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "RequestItems")))
    return -1;
  items = json_object_get_object_member (root, "RequestItems");
  {
    g_autoptr(GList) tables = json_object_get_members (items);

    for (GList *l = tables; l != NULL; l = l->next)
      {
        JsonNode *node = json_object_get_member (items, l->data);

        if (!JSON_NODE_HOLDS_ARRAY (node))
          return -1;
        for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
          {
            BatchEntry e = { l->data, json_array_get_element (json_node_get_array (node), i) };
            g_array_append_val (entries, e);
          }
      }
  }
  if (entries->len == 0)
    return -1;

  /* A random subset of fewer than all. */
  keep = g_new0 (gboolean, entries->len);
  g_mutex_lock (&c->server->mutex);
  n_keep = g_rand_int_range (c->server->rand, 0, entries->len);
  for (guint i = 0, left = n_keep; i < entries->len; i++)
    if (left > 0 && g_rand_int_range (c->server->rand, 0, entries->len - i) < (gint32) left)
      {
        keep[i] = TRUE;
        left--;
      }
  c->server->injected[DYN_PROXY_PARTIAL_BATCH]++;
  g_mutex_unlock (&c->server->mutex);

  if (n_keep > 0)
    {
      JsonObject *copy = json_object_new ();
      JsonObject *kept = json_object_new ();
      g_autoptr(GList) members = json_object_get_members (root);
      g_autoptr(GBytes) body = NULL;
      g_autoptr(GBytes) response = NULL;
      g_autoptr(JsonParser) answer_parser = json_parser_new ();
      gsize rlen;
      const char *rdata;

      for (GList *l = members; l != NULL; l = l->next)
        if (!g_str_equal (l->data, "RequestItems"))
          json_object_set_member (copy, l->data, json_node_copy (json_object_get_member (root, l->data)));
      add_entries (kept, entries, keep, TRUE);
      json_object_set_object_member (copy, "RequestItems", kept);
      forwarded_root = json_node_init_object (json_node_alloc (), copy);
      json_object_unref (copy);
      body = node_to_bytes (forwarded_root);

      if (!forward (c, r, body, &status, &content_type, &response))
        {
          c->reset = TRUE;
          return FALSE;
        }
      rdata = g_bytes_get_data (response, &rlen);
      if (status != 200 ||
          !json_parser_load_from_data (answer_parser, rdata ? rdata : "", rlen, NULL) ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (answer_parser)))
        return relay (c, serial, status, content_type, response);
      answer_root = json_node_copy (json_parser_get_root (answer_parser));
    }
  else
    {
      JsonObject *empty = json_object_new ();

      answer_root = json_node_init_object (json_node_alloc (), empty);
      json_object_unref (empty);
    }

  {
    JsonObject *ans = json_node_get_object (answer_root);
    JsonObject *unprocessed;

    if (!json_object_has_member (ans, "UnprocessedItems") ||
        !JSON_NODE_HOLDS_OBJECT (json_object_get_member (ans, "UnprocessedItems")))
      json_object_set_object_member (ans, "UnprocessedItems", json_object_new ());
    unprocessed = json_object_get_object_member (ans, "UnprocessedItems");
    add_entries (unprocessed, entries, keep, FALSE);
  }
  answer_body = node_to_bytes (answer_root);
  return relay (c, serial, 200, content_type, answer_body);
}

/* The body of a Scan or Query with its Limit lowered to the page limit, or
 * NULL to forward it as it is. */
static GBytes *
limit_page (DynFaultServer  *self,
            DynFaultRequest *r,
            const char      *operation)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *obj;
  guint limit;
  gsize len;
  const char *data;

  g_mutex_lock (&self->mutex);
  limit = self->page_limit;
  g_mutex_unlock (&self->mutex);
  if (limit == 0 || (!g_str_equal (operation, "Scan") && !g_str_equal (operation, "Query")))
    return NULL;
  data = g_bytes_get_data (r->body, &len);
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data ? data : "", len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return NULL;
  root = json_node_copy (json_parser_get_root (parser));
  obj = json_node_get_object (root);
  if (json_object_has_member (obj, "Limit") &&
      json_object_get_int_member (obj, "Limit") <= (gint64) limit)
    return NULL;
  json_object_set_int_member (obj, "Limit", limit);
  return node_to_bytes (root);
}

/* The resets: the connection ends after a bare status line. With nothing
 * at all, libcurl would take a kept-alive connection for one the server had
 * closed while idle and send the request again on a new one by itself, so
 * the client would never see the fault. */
static void
cut_off (Connection *c)
{
  static const char status_line[] = "HTTP/1.1 200 OK\r\n";

  send_all (c, status_line, sizeof status_line - 1);
}

/* Answers @r by forwarding it or by the fault a rule picks; FALSE when the
 * connection must close. */
static gboolean
proxy_handle (Connection      *c,
              DynFaultRequest *r,
              guint            serial)
{
  DynFaultServer *self = c->server;
  const char *operation = request_operation (r);
  g_autoptr(GBytes) response = NULL;
  g_autofree char *content_type = NULL;
  guint delay_ms = 0;
  guint status = 0;
  DynProxyFault fault;

  if (signed_with_expired_key (self, r))
    return answer_error (c, serial, 400, "com.amazon.coral.service#ExpiredTokenException",
                         "The security token included in the request is expired");

  fault = pick_fault (self, operation, &delay_ms);

  if (delay_ms > 0 && !wait_ms (self, delay_ms))
    return FALSE;

  switch (fault)
    {
    case DYN_PROXY_THROTTLE:
      count_injected (self, fault);
      if (is_item_operation (operation))
        return answer_error (c, serial, 400,
                             "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                             "The level of configured provisioned throughput for the table was exceeded. "
                             "Consider increasing your provisioning level with the UpdateTable API.");
      return answer_error (c, serial, 400, "com.amazon.coral.availability#ThrottlingException",
                           "Rate of requests exceeds the allowed throughput.");

    case DYN_PROXY_ERROR_500:
      count_injected (self, fault);
      return answer_error (c, serial, 500, "com.amazonaws.dynamodb.v20120810#InternalServerError",
                           "Internal server error");

    case DYN_PROXY_RESET_BEFORE:
      count_injected (self, fault);
      cut_off (c);
      return FALSE;

    case DYN_PROXY_RESET_AFTER:
      count_injected (self, fault);
      forward (c, r, NULL, &status, &content_type, &response);
      cut_off (c);
      return FALSE;

    case DYN_PROXY_PARTIAL_BATCH:
      {
        int keep = partial_batch (c, r, serial);
        if (keep >= 0)
          return keep;
      }
      break;

    case DYN_PROXY_DELAY:
    case DYN_PROXY_N_FAULTS:
    default:
      break;
    }

  {
    g_autoptr(GBytes) limited = limit_page (self, r, operation);

    if (!forward (c, r, limited, &status, &content_type, &response))
      {
        c->reset = TRUE;
        return FALSE;
      }
  }
  return relay (c, serial, status, content_type, response);
}
