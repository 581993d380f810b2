/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * DynHttpResponse:
 * @status: the HTTP status code
 * @body: the body exactly as received on the wire
 * @headers: lower-cased header name → value
 *
 * A completed HTTP exchange.
 */
typedef struct {
  guint       status;
  GBytes     *body;
  GHashTable *headers;
  double      seconds;   /* time the transfer took */
} DynHttpResponse;

void dyn_http_response_free (DynHttpResponse *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynHttpResponse, dyn_http_response_free)

#define DYN_TYPE_HTTP (dyn_http_get_type ())
G_DECLARE_FINAL_TYPE (DynHttp, dyn_http, DYN, HTTP, GObject)

/**
 * dyn_http_new:
 *
 * A libcurl multi handle driven by the thread-default GMainContext at the time
 * of the call: sockets and timers become GSources there, so no request blocks
 * that context and no thread is started. Connections are reused between
 * requests. TLS certificates are always verified.
 */
DynHttp         *dyn_http_new               (void) G_GNUC_WARN_UNUSED_RESULT;
void             dyn_http_set_timeouts      (DynHttp      *self,
                                             guint         connect_ms,
                                             guint         total_ms);
void             dyn_http_set_max_body      (DynHttp      *self,
                                             gsize         max_bytes);

/**
 * dyn_http_post_async:
 * @headers: %NULL-terminated "Name: value" lines
 *
 * POSTs @body to @url. Cancelling @cancellable aborts the transfer at once and
 * completes with %G_IO_ERROR_CANCELLED. Transport failures are %G_IO_ERROR
 * errors; any HTTP status is a success at this level.
 */
void             dyn_http_post_async        (DynHttp             *self,
                                             const char          *url,
                                             const char * const  *headers,
                                             GBytes              *body,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynHttpResponse *dyn_http_post_finish       (DynHttp             *self,
                                             GAsyncResult        *result,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_http_request_async:
 * @method: "GET", "POST", "PUT", …
 * @body: (nullable): the body; ignored for GET
 *
 * Like dyn_http_post_async() with another method (the container and
 * instance metadata credential endpoints, the IAM Identity Center portal).
 * Finish with dyn_http_post_finish().
 */
void             dyn_http_request_async     (DynHttp             *self,
                                             const char          *method,
                                             const char          *url,
                                             const char * const  *headers,
                                             GBytes              *body,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);

/**
 * dyn_http_check_endpoint:
 * @allow_insecure: whether plain http may go to a host that is not loopback
 *
 * Checks that @url is an http(s) URL with a host, and that plain http is only
 * used towards loopback (127.0.0.0/8, ::1, localhost) unless @allow_insecure.
 * The Host header sent and signed comes from dyn_sigv4_host_from_url().
 */
gboolean         dyn_http_check_endpoint    (const char  *url,
                                             gboolean     allow_insecure,
                                             GError     **error);

/* Whether DYN_TRACE asks for a wire trace; the trace never shows secrets. */
gboolean         dyn_http_trace_enabled     (void);

G_END_DECLS
