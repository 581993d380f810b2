/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-fault-server"

#include "config.h"

#include <string.h>

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
  GPtrArray    *threads;        /* GThread*, one per connection */

  GQueue        script;         /* Scripted* */
  GPtrArray    *requests;       /* DynFaultRequest* */
  GPtrArray    *retired;        /* requests from before the last reset */
  guint         request_serial;
  guint         connections;

  guint16       port;
  char         *url;
};

typedef struct
{
  DynFaultServer *server;
  GSocket        *socket;
  guint           serial;
} Connection;

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

  for (;;)
    {
      DynFaultRequest *r = read_request (c, buf);
      Scripted *s;
      guint serial;
      gboolean keep;

      if (r == NULL)
        break;

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

  g_socket_shutdown (c->socket, TRUE, TRUE, NULL);
  g_socket_close (c->socket, NULL);
  g_object_unref (c->socket);
  g_free (c);
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

      g_mutex_lock (&self->mutex);
      c->serial = ++self->connections;
      g_ptr_array_add (self->threads, g_thread_new ("fault-conn", connection_thread, c));
      g_mutex_unlock (&self->mutex);
    }
  return NULL;
}

/* Public API ---------------------------------------------------------------- */

DynFaultServer *
dyn_fault_server_new (void)
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
    g_thread_join (self->threads->pdata[i]);
  g_ptr_array_unref (self->threads);

  g_socket_close (self->listener, NULL);
  g_object_unref (self->listener);
  g_object_unref (self->cancellable);
  g_queue_clear_full (&self->script, (GDestroyNotify) scripted_free);
  g_ptr_array_unref (self->requests);
  g_ptr_array_unref (self->retired);
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
