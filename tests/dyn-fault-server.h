/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A deliberately misbehaving HTTP/1.1 server for tests of the transport and
 * protocol layers. It is not a DynamoDB mock: it answers every request with the
 * next response of a script, which may be well formed or broken on purpose,
 * and records every request it reads so that tests can check what the client
 * sent (and how often).
 *
 * It listens on 127.0.0.1 on a port of its own and runs in threads of its own
 * (one accepting, one per connection) with blocking GIO sockets, so a client
 * on the test thread's main context never deadlocks with it. Connections are
 * kept alive between requests unless a response closes them.
 */

typedef struct _DynFaultServer DynFaultServer;

/**
 * DynFaultFlags:
 * @DYN_FAULT_NO_CRC: send no x-amz-crc32 header
 * @DYN_FAULT_BAD_CRC: send an x-amz-crc32 that does not match the body
 * @DYN_FAULT_TRUNCATE: declare the full Content-Length, send half the body, close
 * @DYN_FAULT_DROP: close the connection without answering at all
 * @DYN_FAULT_CHUNKED: send the body with Transfer-Encoding: chunked
 * @DYN_FAULT_CLOSE: add "Connection: close" and close after the answer
 * @DYN_FAULT_RAW: send the body bytes as they are (no status line, no
 *   headers), then close
 * @DYN_FAULT_NO_REQUEST_ID: send no x-amzn-RequestId header
 */
typedef enum {
  DYN_FAULT_NONE          = 0,
  DYN_FAULT_NO_CRC        = 1 << 0,
  DYN_FAULT_BAD_CRC       = 1 << 1,
  DYN_FAULT_TRUNCATE      = 1 << 2,
  DYN_FAULT_DROP          = 1 << 3,
  DYN_FAULT_CHUNKED       = 1 << 4,
  DYN_FAULT_CLOSE         = 1 << 5,
  DYN_FAULT_RAW           = 1 << 6,
  DYN_FAULT_NO_REQUEST_ID = 1 << 7,
} DynFaultFlags;

/**
 * DynFaultResponse:
 * @status: the HTTP status (0 means 200)
 * @content_type: (nullable): the Content-Type; %NULL means
 *   application/x-amz-json-1.0
 * @headers: (nullable): extra %NULL-terminated "Name: value" lines
 * @body: (nullable): the body
 * @body_len: its length, or -1 when @body is NUL-terminated
 * @delay_ms: how long to wait before answering (the wait ends early when the
 *   server is freed)
 * @flags: what to break
 *
 * One scripted answer. Unless told otherwise the answer carries
 * Content-Length, x-amzn-RequestId ("FAULT-<n>", n counting requests from 1 since the
 * server started or was last reset)
 * and a correct x-amz-crc32 of the body as sent.
 */
typedef struct {
  guint                status;
  const char          *content_type;
  const char * const  *headers;
  const char          *body;
  gssize               body_len;
  guint                delay_ms;
  DynFaultFlags        flags;
} DynFaultResponse;

/**
 * DynFaultRequest:
 * @method: "POST" …
 * @path: the request target, e.g. "/"
 * @headers: lower-cased name → value (the last one wins)
 * @body: the body as received (Content-Length bytes)
 * @connection: the serial number (from 1) of the TCP connection it came on
 *
 * A request the server read. Records are immutable and live as long as the
 * server.
 */
typedef struct {
  char       *method;
  char       *path;
  GHashTable *headers;
  GBytes     *body;
  guint       connection;
} DynFaultRequest;

/* Starts listening on 127.0.0.1 (a free port). Aborts the test if it cannot. */
DynFaultServer        *dyn_fault_server_new                 (void);
/* Closes every connection, stops the threads and frees everything. */
void                   dyn_fault_server_free                (DynFaultServer         *self);
guint16                dyn_fault_server_get_port            (DynFaultServer         *self);
/* "http://127.0.0.1:PORT" */
const char            *dyn_fault_server_get_url             (DynFaultServer         *self);

/* Appends a copy of @response to the script. */
void                   dyn_fault_server_push                (DynFaultServer         *self,
                                                             const DynFaultResponse *response);
/* A JSON answer (application/x-amz-json-1.0) with a correct CRC. */
void                   dyn_fault_server_push_json           (DynFaultServer         *self,
                                                             guint                   status,
                                                             const char             *body);
/* Like dyn_fault_server_push_json() with @flags. */
void                   dyn_fault_server_push_flags          (DynFaultServer         *self,
                                                             DynFaultFlags           flags,
                                                             guint                   status,
                                                             const char             *body);
/* Like dyn_fault_server_push_json(), after @delay_ms. */
void                   dyn_fault_server_push_delayed        (DynFaultServer         *self,
                                                             guint                   delay_ms,
                                                             guint                   status,
                                                             const char             *body);
/* A DynamoDB error body {"__type": @type, "message": @message}. */
void                   dyn_fault_server_push_error          (DynFaultServer         *self,
                                                             guint                   status,
                                                             const char             *type,
                                                             const char             *message);
/* A text/html page, no CRC: what a proxy or load balancer sends. */
void                   dyn_fault_server_push_html           (DynFaultServer         *self,
                                                             guint                   status,
                                                             const char             *html);
/* Raw bytes instead of an HTTP answer, then close. */
void                   dyn_fault_server_push_garbage        (DynFaultServer         *self,
                                                             const char             *bytes,
                                                             gssize                  len);
/* Close the connection without answering. */
void                   dyn_fault_server_push_drop           (DynFaultServer         *self);

/* Scripted answers not yet used. When the script is empty the server answers
 * 400 {"__type":"com.dynoscope.fault#ScriptExhausted", …}, which is not
 * retryable, so a test that sends more requests than it scripted fails loudly. */
guint                  dyn_fault_server_get_pending         (DynFaultServer         *self);

/* Requests read so far (complete ones: headers and body). */
guint                  dyn_fault_server_get_request_count   (DynFaultServer         *self);
const DynFaultRequest *dyn_fault_server_get_request         (DynFaultServer         *self,
                                                             guint                   index);
/* The header @name (any case) of request @index, or %NULL. */
const char            *dyn_fault_server_get_request_header  (DynFaultServer         *self,
                                                             guint                   index,
                                                             const char             *name);
/* The body of request @index as a NUL-terminated string (owned by the record). */
const char            *dyn_fault_server_get_request_body    (DynFaultServer         *self,
                                                             guint                   index);
/* TCP connections accepted so far. */
guint                  dyn_fault_server_get_connection_count (DynFaultServer        *self);
/* Forgets the recorded requests and the script, and starts request ids at
 * FAULT-1 again; the connection count stays. */
void                   dyn_fault_server_reset               (DynFaultServer         *self);

/* Blocks until @count requests were read or @timeout_ms passed; returns
 * whether they were. Meant for clients in another thread or process: a client
 * on the calling thread's main context cannot send while this blocks. */
gboolean               dyn_fault_server_wait_for_requests   (DynFaultServer         *self,
                                                             guint                   count,
                                                             guint                   timeout_ms);

/* The IEEE CRC-32 of @data as DynamoDB's x-amz-crc32 carries it. */
guint32                dyn_fault_crc32                      (gconstpointer           data,
                                                             gsize                   len);

/* Proxy mode ----------------------------------------------------------------
 *
 * dyn_fault_server_new_proxy() makes a server that forwards every request
 * (method, path, headers and body as received; the client signed them for
 * the proxy's host, which DynamoDB Local does not check) to @upstream_url
 * and returns its answer, except where a fault rule fires. The script of
 * dyn_fault_server_push() is not used in this mode; requests are recorded
 * as in the scripted mode.
 */

/**
 * DynProxyFault:
 * @DYN_PROXY_THROTTLE: answer 400 ProvisionedThroughputExceededException
 *   (item operations) or ThrottlingException (others); not forwarded
 * @DYN_PROXY_ERROR_500: answer 500 InternalServerError; not forwarded
 * @DYN_PROXY_RESET_BEFORE: close the connection without forwarding: nothing
 *   was applied
 * @DYN_PROXY_RESET_AFTER: forward, let the upstream apply it, then close
 *   the connection without answering: applied, and the client does not know.
 *   Both send a bare status line first: on a kept-alive connection that
 *   closes with nothing received libcurl sends the request again by itself,
 *   which would hide the fault from the client
 * @DYN_PROXY_PARTIAL_BATCH: BatchWriteItem: forward only some of its
 *   requests (at least one fewer than sent) and answer the others as
 *   UnprocessedItems, as DynamoDB does under load; other operations are
 *   forwarded as they are (the rule does not fire)
 * @DYN_PROXY_DELAY: wait the rule's delay, then go on (other rules may still
 *   fire for the same request)
 */
typedef enum {
  DYN_PROXY_THROTTLE,
  DYN_PROXY_ERROR_500,
  DYN_PROXY_RESET_BEFORE,
  DYN_PROXY_RESET_AFTER,
  DYN_PROXY_PARTIAL_BATCH,
  DYN_PROXY_DELAY,
  DYN_PROXY_N_FAULTS,
} DynProxyFault;

/* Listens on 127.0.0.1 and forwards to @upstream_url ("http://host:port"). */
DynFaultServer        *dyn_fault_server_new_proxy           (const char             *upstream_url);
/* Seeds the random rates (default seed 1). */
void                   dyn_fault_server_proxy_set_seed      (DynFaultServer         *self,
                                                             guint32                 seed);
/*
 * Adds a rule: requests whose X-Amz-Target operation is @operation
 * ("BatchWriteItem"; %NULL: every operation) get @fault with probability
 * @rate (0–1, from the seeded generator) and, when @every_nth > 0, on every
 * @every_nth request of that operation besides. @delay_ms is for
 * %DYN_PROXY_DELAY. Rules are checked in the order they were added and may
 * be added or cleared at any time (from any thread); the first that fires
 * decides, except DELAY, which waits and lets the later rules decide.
 */
void                   dyn_fault_server_proxy_add_rule      (DynFaultServer         *self,
                                                             const char             *operation,
                                                             DynProxyFault           fault,
                                                             double                  rate,
                                                             guint                   every_nth,
                                                             guint                   delay_ms);
void                   dyn_fault_server_proxy_clear_rules   (DynFaultServer         *self);
/* Scan and Query requests forwarded with "Limit" at most @limit (0: as
 * sent): the client sees small pages with a LastEvaluatedKey each, as
 * DynamoDB returns them for big items or filters, without knowing why. */
void                   dyn_fault_server_proxy_set_page_limit (DynFaultServer        *self,
                                                             guint                   limit);
/* How often @fault was injected (PARTIAL_BATCH: batches cut). */
guint                  dyn_fault_server_proxy_get_injected  (DynFaultServer         *self,
                                                             DynProxyFault           fault);
/* Requests forwarded to the upstream (RESET_AFTER and PARTIAL_BATCH ones included). */
guint                  dyn_fault_server_proxy_get_forwarded (DynFaultServer         *self);
/*
 * Every later request signed with @access_key_id (the Credential= of its
 * Authorization header) is answered as DynamoDB answers a request signed with
 * expired credentials: 400 {"__type":"com.amazon.coral.service#ExpiredTokenException",
 * "message":"The security token included in the request is expired"}; not
 * forwarded, checked before the rules (which do not see it). Several keys may
 * be expired; dyn_fault_server_proxy_clear_rules() does not forget them.
 */
void                   dyn_fault_server_expire_access_key   (DynFaultServer         *self,
                                                             const char             *access_key_id);
/* Requests answered with ExpiredTokenException so far. */
guint                  dyn_fault_server_proxy_get_expired   (DynFaultServer         *self);
/* "THROTTLE", "RESET_AFTER" … */
const char            *dyn_proxy_fault_to_string            (DynProxyFault           fault);

G_END_DECLS
