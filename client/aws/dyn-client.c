/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-client"

#include "config.h"

#include <string.h>
#include <zlib.h>

#include <glib/gi18n-lib.h>

#include "dyn-client.h"
#include "dyn-http.h"
#include "dyn-json.h"
#include "dyn-sigv4.h"

#define TARGET_PREFIX "DynamoDB_20120810."
#define MAX_DELAY_MS  20000

struct _DynClient
{
  GObject                 parent_instance;

  DynHttp                *http;
  DynSigv4Signer         *signer;
  DynCredentialsProvider *credentials;
  char                   *endpoint;
  char                   *host;
  char                   *region;
  guint                   max_attempts;
  guint                   base_delay_ms;
  guint                   throttle_base_ms;
  gboolean                read_only;

  /* Sign-in again (dyn_client_set_reauth_handler) */
  struct _ReauthHandler  *reauth;             /* (nullable) */
  GQueue                  waiting;            /* GTask* (owned) waiting for the sign-in */
  gboolean                reauth_pending;     /* the handler was called and has not finished */
  guint                   generation;         /* sign-ins finished so far */
  GError                 *sign_in_error;      /* why the last one failed; NULL when it worked */
  guint                   invalidations;      /* times the provider was invalidated */
  GCancellable           *reauth_cancellable; /* cancelled when the client goes */
};

G_DEFINE_FINAL_TYPE (DynClient, dyn_client, G_TYPE_OBJECT)

void
dyn_response_free (DynResponse *response)
{
  if (response == NULL)
    return;
  g_clear_pointer (&response->root, json_node_unref);
  g_clear_pointer (&response->items, g_ptr_array_unref);
  g_clear_pointer (&response->item, dyn_value_unref);
  g_free (response->request_id);
  g_free (response);
}

/* Error classification ------------------------------------------------------ */

static const struct {
  const char *code;
  DynError    error;
  gboolean    retry;
} known_errors[] = {
  { "ValidationException", DYN_ERROR_VALIDATION, FALSE },
  { "SerializationException", DYN_ERROR_VALIDATION, FALSE },
  { "ConditionalCheckFailedException", DYN_ERROR_CONDITIONAL_CHECK_FAILED, FALSE },
  { "TransactionCanceledException", DYN_ERROR_TRANSACTION_CANCELED, FALSE },
  { "TransactionConflictException", DYN_ERROR_TRANSACTION_CONFLICT, FALSE },
  { "IdempotentParameterMismatchException", DYN_ERROR_VALIDATION, FALSE },
  { "ProvisionedThroughputExceededException", DYN_ERROR_THROTTLED, TRUE },
  { "ThrottlingException", DYN_ERROR_THROTTLED, TRUE },
  { "Throttling", DYN_ERROR_THROTTLED, TRUE },
  { "RequestLimitExceeded", DYN_ERROR_THROTTLED, TRUE },
  { "LimitExceededException", DYN_ERROR_THROTTLED, TRUE },
  { "TransactionInProgressException", DYN_ERROR_THROTTLED, TRUE },
  { "TooManyRequestsException", DYN_ERROR_THROTTLED, TRUE },
  { "ResourceNotFoundException", DYN_ERROR_NOT_FOUND, FALSE },
  { "ResourceInUseException", DYN_ERROR_IN_USE, FALSE },
  { "AccessDeniedException", DYN_ERROR_ACCESS_DENIED, FALSE },
  { "UnrecognizedClientException", DYN_ERROR_ACCESS_DENIED, FALSE },
  { "InvalidSignatureException", DYN_ERROR_SIGNATURE, FALSE },
  { "IncompleteSignatureException", DYN_ERROR_SIGNATURE, FALSE },
  { "MissingAuthenticationTokenException", DYN_ERROR_SIGNATURE, FALSE },
  { "ExpiredTokenException", DYN_ERROR_EXPIRED_CREDENTIALS, FALSE },
  { "ExpiredToken", DYN_ERROR_EXPIRED_CREDENTIALS, FALSE },
  { "RequestExpired", DYN_ERROR_EXPIRED_CREDENTIALS, FALSE },
  { "InternalServerError", DYN_ERROR_SERVER, TRUE },
  { "InternalFailure", DYN_ERROR_SERVER, TRUE },
  { "ServiceUnavailable", DYN_ERROR_SERVER, TRUE },
  { "ServiceUnavailableException", DYN_ERROR_SERVER, TRUE },
  { "RequestTimeout", DYN_ERROR_SERVER, TRUE },
  { "RequestTimeoutException", DYN_ERROR_SERVER, TRUE },
  { "PriorRequestNotComplete", DYN_ERROR_SERVER, TRUE },
};

/* Marks errors we decided to retry that have no service code of their own. */
#define RETRY_PROTOCOL_CRC "dynoscope:crc32"

gboolean
dyn_error_is_retryable (const GError *error)
{
  const DynErrorDetails *details;

  if (error == NULL)
    return FALSE;
  if (error->domain == G_IO_ERROR)
    return error->code != G_IO_ERROR_CANCELLED && error->code != G_IO_ERROR_NOT_SUPPORTED;
  if (error->domain != DYN_ERROR)
    return FALSE;

  details = dyn_error_get_details (error);
  if (details == NULL)
    return FALSE;
  if (g_strcmp0 (details->aws_code, RETRY_PROTOCOL_CRC) == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (known_errors); i++)
    if (g_strcmp0 (details->aws_code, known_errors[i].code) == 0)
      return known_errors[i].retry;
  return details->http_status >= 500 || details->http_status == 429;
}

/* The error type may be namespaced and suffixed:
 * "com.amazonaws.dynamodb.v20120810#Foo" or "Foo:http://…" both are "Foo". */
static char *
sanitize_error_type (const char *type)
{
  g_autofree char *head = NULL;
  const char *colon = strchr (type, ':');
  const char *hash;

  head = colon ? g_strndup (type, colon - type) : g_strdup (type);
  hash = strchr (head, '#');
  return g_strdup (hash ? hash + 1 : head);
}

static const char *
member_string_ci (JsonObject *obj,
                  const char *name)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (g_ascii_strcasecmp (l->data, name) == 0)
      {
        JsonNode *n = json_object_get_member (obj, l->data);
        if (JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING)
          return json_node_get_string (n);
      }
  return NULL;
}

static char *
body_excerpt (GBytes *body)
{
  gsize len;
  const char *data = g_bytes_get_data (body, &len);
  g_autofree char *valid = g_utf8_make_valid (data ? data : "", MIN (len, 200));
  GString *s = g_string_new (NULL);

  /* Collapse whitespace so an HTML page reads as one line. */
  for (const char *p = valid; *p; p++)
    {
      if (g_ascii_isspace (*p))
        {
          if (s->len > 0 && s->str[s->len - 1] != ' ')
            g_string_append_c (s, ' ');
        }
      else
        g_string_append_c (s, *p);
    }
  return g_strstrip (g_string_free (s, FALSE));
}

static GError *
error_from_response (DynHttpResponse *response,
                     const char      *operation)
{
  const char *request_id = g_hash_table_lookup (response->headers, "x-amzn-requestid");
  const char *header_type = g_hash_table_lookup (response->headers, "x-amzn-errortype");
  gsize len;
  const char *data = g_bytes_get_data (response->body, &len);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *code = NULL;
  g_autofree char *body = NULL;
  const char *message = NULL;
  DynError err = DYN_ERROR_FAILED;

  if (len > 0)
    root = dyn_json_parse (data, len, NULL);

  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    {
      JsonObject *obj = json_node_get_object (root);
      const char *type = member_string_ci (obj, "__type");

      if (type == NULL)
        type = member_string_ci (obj, "code");
      if (type == NULL)
        type = header_type;
      if (type != NULL)
        code = sanitize_error_type (type);
      message = member_string_ci (obj, "message");
      body = g_strndup (data, len);
    }
  else if (header_type != NULL)
    code = sanitize_error_type (header_type);

  if (code != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (known_errors); i++)
        if (strcmp (code, known_errors[i].code) == 0)
          {
            err = known_errors[i].error;
            break;
          }
      if (err == DYN_ERROR_FAILED && response->status >= 500)
        err = DYN_ERROR_SERVER;
      return dyn_error_new_service (err, code, message, request_id, response->status, body);
    }

  /* No JSON error: a proxy, a load balancer or something that is not DynamoDB. */
  {
    g_autofree char *excerpt = body_excerpt (response->body);
    const char *ctype = g_hash_table_lookup (response->headers, "content-type");
    g_autofree char *msg = NULL;

    if (ctype == NULL)
      /* Translators: shown in place of a Content-Type header the response did not have */
      ctype = _("no content type");
    if (*excerpt != '\0')
      /* Translators: the first %s is an operation (GetItem, Query …), %u the HTTP status, the
       * second %s the response's content type, the last the start of the response's body */
      msg = g_strdup_printf (_("%s: HTTP %u from the server with a body that is not a DynamoDB error (%s): %s"),
                             operation, response->status, ctype, excerpt);
    else
      /* Translators: the first %s is an operation (GetItem, Query …), %u the HTTP status, the
       * second %s the response's content type */
      msg = g_strdup_printf (_("%s: HTTP %u from the server with a body that is not a DynamoDB error (%s)"),
                             operation, response->status, ctype);
    GError *error = dyn_error_new_service (response->status >= 500 ? DYN_ERROR_SERVER : DYN_ERROR_PROTOCOL,
                                           NULL, msg, request_id, response->status, NULL);
    return error;
  }
}

/* Request state ----------------------------------------------------------- */

typedef struct
{
  char        *operation;
  GBytes      *body;
  gboolean     is_read;
  guint        attempt;
  gboolean     refreshed;
  guint        generation;   /* the client's finished sign-ins when it was signed */
  guint        invalidations; /* and the provider's invalidations */
  GError      *last_error;
  GSource     *delay;
  GSource     *cancel_source;
} Call;

static void
call_free (Call *call)
{
  if (call->delay != NULL)
    {
      g_source_destroy (call->delay);
      g_source_unref (call->delay);
    }
  if (call->cancel_source != NULL)
    {
      g_source_destroy (call->cancel_source);
      g_source_unref (call->cancel_source);
    }
  g_clear_error (&call->last_error);
  g_clear_pointer (&call->body, g_bytes_unref);
  g_free (call->operation);
  g_free (call);
}

static void attempt (GTask *task);

/* Signing in again ---------------------------------------------------------- */

/* The handler of dyn_client_set_reauth_handler(), shared with a sign-in in
 * progress so that replacing it (or the client going) does not free its data
 * under the running call. */
typedef struct _ReauthHandler
{
  gatomicrefcount            ref_count;
  DynClientReauthFunc        reauth;
  DynClientReauthFinishFunc  finish;
  gpointer                   user_data;
  GDestroyNotify             destroy;
} ReauthHandler;

static ReauthHandler *
reauth_handler_ref (ReauthHandler *handler)
{
  g_atomic_ref_count_inc (&handler->ref_count);
  return handler;
}

static void
reauth_handler_unref (ReauthHandler *handler)
{
  if (!g_atomic_ref_count_dec (&handler->ref_count))
    return;
  if (handler->destroy != NULL)
    handler->destroy (handler->user_data);
  g_free (handler);
}

/* One sign-in in progress. */
typedef struct
{
  GWeakRef       client;
  ReauthHandler *handler;
} ReauthOp;

static void
reauth_op_free (ReauthOp *op)
{
  g_weak_ref_clear (&op->client);
  reauth_handler_unref (op->handler);
  g_free (op);
}

/* Fixed keys: fetching them again gives the same keys. */
static gboolean
provider_can_refresh (DynCredentialsProvider *provider)
{
  switch (dyn_credentials_provider_get_source (provider))
    {
    case DYN_CREDENTIALS_SOURCE_PROCESS:
    case DYN_CREDENTIALS_SOURCE_CUSTOM:
      return TRUE;
    case DYN_CREDENTIALS_SOURCE_STATIC:
    case DYN_CREDENTIALS_SOURCE_ENVIRONMENT:
    case DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE:
    case DYN_CREDENTIALS_SOURCE_CONFIG_FILE:
    default:
      return FALSE;
    }
}

/* RequestExpired is a signature too old (a clock off, a request held back):
 * a fresh signature helps, a sign-in does not. */
static gboolean
is_request_expired (const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);

  return details != NULL && g_strcmp0 (details->aws_code, "RequestExpired") == 0;
}

static gboolean
wait_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);

  g_clear_pointer (&call->cancel_source, g_source_unref);
  if (!g_queue_remove (&self->waiting, task))
    return G_SOURCE_REMOVE;
  g_debug ("%s stopped waiting for the sign-in: cancelled", call->operation);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("The request was cancelled"));
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Takes the task's reference: it waits until the sign-in ends or it is cancelled. */
static void
wait_for_sign_in (GTask *task)
{
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  g_debug ("%s waits for the sign-in", call->operation);
  g_queue_push_tail (&self->waiting, task);
  if (cancellable != NULL)
    {
      g_assert (call->cancel_source == NULL);
      call->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (call->cancel_source, (GSourceFunc) (void (*)(void)) wait_cancelled_cb, task, NULL);
      g_source_attach (call->cancel_source, g_main_context_get_thread_default ());
    }
}

static void
reauth_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  ReauthOp *op = user_data;
  g_autoptr(DynClient) self = g_weak_ref_get (&op->client);
  g_autoptr(GError) error = NULL;
  GQueue waiting = G_QUEUE_INIT;
  gboolean signed_in;
  GTask *task;

  signed_in = op->handler->finish (result, &error, op->handler->user_data);
  if (self == NULL)
    {
      /* Nothing waited any more and the client is gone. */
      reauth_op_free (op);
      return;
    }
  reauth_op_free (op);

  self->reauth_pending = FALSE;
  self->generation++;
  g_clear_error (&self->sign_in_error);
  if (!signed_in)
    {
      if (error == NULL)
        g_set_error_literal (&error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                             _("The credentials expired and the sign-in was cancelled"));
      /* Requests sent before the user gave up fail with them, without asking again. */
      self->sign_in_error = g_error_copy (error);
    }
  g_debug ("sign-in %s; %u requests were waiting", signed_in ? "done" : "given up",
           g_queue_get_length (&self->waiting));

  /* Requests that come back expired from here on start a new sign-in. */
  waiting = self->waiting;
  g_queue_init (&self->waiting);
  while ((task = g_queue_pop_head (&waiting)) != NULL)
    {
      Call *call = g_task_get_task_data (task);

      if (call->cancel_source != NULL)
        {
          g_source_destroy (call->cancel_source);
          g_clear_pointer (&call->cancel_source, g_source_unref);
        }
      if (g_task_return_error_if_cancelled (task))
        g_object_unref (task);
      else if (!signed_in)
        {
          g_task_return_error (task, g_error_copy (error));
          g_object_unref (task);
        }
      else if (self->read_only && !call->is_read)
        {
          /* The connection was locked while the request waited. */
          g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_READ_ONLY,
                                   /* Translators: %s is an operation: PutItem, DeleteItem … */
                                   _("%s refused: this connection is read-only"), call->operation);
          g_object_unref (task);
        }
      else
        attempt (task);
    }
}

static void
start_sign_in (DynClient    *self,
               const GError *error)
{
  ReauthOp *op;

  g_assert (self->reauth != NULL && !self->reauth_pending);
  self->reauth_pending = TRUE;
  if (self->reauth_cancellable == NULL)
    self->reauth_cancellable = g_cancellable_new ();
  op = g_new0 (ReauthOp, 1);
  g_weak_ref_init (&op->client, self);
  op->handler = reauth_handler_ref (self->reauth);
  g_debug ("asking for a sign-in: %s", error->message);
  op->handler->reauth (self, error, self->reauth_cancellable, reauth_done_cb, op,
                       op->handler->user_data);
}

/* @error is DYN_ERROR_EXPIRED_CREDENTIALS, from DynamoDB or from the provider.
 * Returns TRUE when it took the task's reference and @error: the request is
 * sent again (fresh credentials) or waits for the sign-in. */
static gboolean
handle_expired (GTask  *task,
                GError *error)
{
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);

  /* A sign-in is under way: wait behind it. */
  if (self->reauth_pending)
    {
      g_error_free (error);
      wait_for_sign_in (task);
      return TRUE;
    }

  /* Signed before a sign-in that has finished since: with the fresh credentials
   * it goes again; when the user gave up, it fails as the waiting ones did. */
  if (call->generation != self->generation)
    {
      g_error_free (error);
      if (self->sign_in_error != NULL)
        {
          g_task_return_error (task, g_error_copy (self->sign_in_error));
          g_object_unref (task);
        }
      else
        attempt (task);
      return TRUE;
    }

  /* Credentials that may refresh without the user (roles, SSO, credential_process):
   * fetch fresh ones once and try again at once. A signature too old gets a new one. */
  if (!call->refreshed && (provider_can_refresh (self->credentials) || is_request_expired (error)))
    {
      call->refreshed = TRUE;
      /* Once for the requests that went out with the same credentials. */
      if (call->invalidations == self->invalidations)
        {
          self->invalidations++;
          dyn_credentials_provider_invalidate (self->credentials);
        }
      g_error_free (error);
      attempt (task);
      return TRUE;
    }

  if (self->reauth == NULL || is_request_expired (error))
    return FALSE;

  /* Waiting first: a handler that finishes at once answers this request too. */
  wait_for_sign_in (task);
  start_sign_in (self, error);
  g_error_free (error);
  return TRUE;
}

static guint
backoff_ms (DynClient    *self,
            guint         attempt_no,
            const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  guint base = self->base_delay_ms;
  guint64 ceiling;

  if (details != NULL && error->code == DYN_ERROR_THROTTLED)
    base = self->throttle_base_ms;
  ceiling = MIN ((guint64) MAX_DELAY_MS, (guint64) base << MIN (attempt_no - 1, 20u));
  return (guint) g_random_int_range (0, (gint32) ceiling + 1);
}

static gboolean
delay_done_cb (gpointer user_data)
{
  GTask *task = user_data;
  Call *call = g_task_get_task_data (task);

  g_clear_pointer (&call->delay, g_source_unref);
  if (call->cancel_source != NULL)
    {
      g_source_destroy (call->cancel_source);
      g_clear_pointer (&call->cancel_source, g_source_unref);
    }
  attempt (task);
  return G_SOURCE_REMOVE;
}

static gboolean
delay_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Call *call = g_task_get_task_data (task);

  if (call->delay != NULL)
    {
      g_source_destroy (call->delay);
      g_clear_pointer (&call->delay, g_source_unref);
    }
  g_clear_pointer (&call->cancel_source, g_source_unref);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", _("The request was cancelled"));
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Takes the task's reference. */
static void
fail_or_retry (GTask  *task,
               GError *error)
{
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  guint delay;

  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS) &&
      !g_cancellable_is_cancelled (cancellable) && handle_expired (task, error))
    return;

  if (!dyn_error_is_retryable (error) || call->attempt >= self->max_attempts ||
      g_cancellable_is_cancelled (cancellable))
    {
      if (call->attempt > 1 && dyn_error_is_retryable (error))
        /* Translators: the start of an error message; what went wrong follows */
        g_prefix_error (&error, g_dngettext (GETTEXT_PACKAGE, "After %u attempt: ", "After %u attempts: ",
                                             call->attempt),
                        call->attempt);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  delay = backoff_ms (self, call->attempt, error);
  g_debug ("%s attempt %u failed (%s); retrying in %u ms",
           call->operation, call->attempt, error->message, delay);
  g_clear_error (&call->last_error);
  call->last_error = error;

  call->delay = g_timeout_source_new (delay);
  g_source_set_callback (call->delay, delay_done_cb, task, NULL);
  g_source_attach (call->delay, g_main_context_get_thread_default ());
  if (cancellable != NULL)
    {
      call->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (call->cancel_source, (GSourceFunc) (void (*)(void)) delay_cancelled_cb, task, NULL);
      g_source_attach (call->cancel_source, g_main_context_get_thread_default ());
    }
}

static double
capacity_of (JsonNode *node)
{
  double total = 0;

  if (node == NULL)
    return 0;
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *arr = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (arr); i++)
        total += capacity_of (json_array_get_element (arr, i));
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *obj = json_node_get_object (node);
      JsonNode *cu = json_object_get_member (obj, "CapacityUnits");
      if (cu != NULL && JSON_NODE_HOLDS_VALUE (cu))
        total += json_node_get_double (cu);
    }
  return total;
}

static gboolean
is_write_operation (const char *operation)
{
  static const char * const writes[] = {
    "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems",
    "CreateTable", "DeleteTable", "UpdateTable", "UpdateTimeToLive", NULL
  };
  return g_strv_contains (writes, operation);
}

static DynResponse *
response_from_body (const char       *operation,
                    DynHttpResponse  *http,
                    GError          **error)
{
  g_autoptr(DynResponse) response = g_new0 (DynResponse, 1);
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize len;
  const char *data = g_bytes_get_data (http->body, &len);
  JsonObject *obj;
  JsonNode *member;

  response->request_id = g_strdup (g_hash_table_lookup (http->headers, "x-amzn-requestid"));
  if (len == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is an operation: GetItem, Query … */
                   _("%s: the server sent an empty response"), operation);
      return NULL;
    }

  response->root = dyn_json_parse_response (data, len, &items, &local_error);
  if (response->root == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: the first %s is an operation (GetItem, Query …), the second what is wrong */
                   _("%s: the server's response could not be read: %s"),
                   operation, local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (response->root))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is an operation: GetItem, Query … */
                   _("%s: the server's response is not a JSON object"), operation);
      return NULL;
    }
  response->items = g_steal_pointer (&items);

  obj = json_node_get_object (response->root);
  member = json_object_get_member (obj, "Item");
  if (member == NULL)
    member = json_object_get_member (obj, "Attributes");
  if (member != NULL && !JSON_NODE_HOLDS_NULL (member))
    {
      response->item = dyn_item_from_ddb_json (member, &local_error);
      if (response->item == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: the first %s is an operation (GetItem, Query …), the second what is wrong */
                       _("%s: the server sent an item that is not valid: %s"),
                       operation, local_error->message);
          return NULL;
        }
    }

  member = json_object_get_member (obj, "ConsumedCapacity");
  if (is_write_operation (operation))
    response->write_units = capacity_of (member);
  else
    response->read_units = capacity_of (member);

  return g_steal_pointer (&response);
}

static gboolean
check_crc (DynHttpResponse  *http,
           const char       *operation,
           GError          **error)
{
  const char *header = g_hash_table_lookup (http->headers, "x-amz-crc32");
  gsize len;
  const guint8 *data = g_bytes_get_data (http->body, &len);
  guint64 expected;
  char *end = NULL;
  uLong actual;

  if (header == NULL)
    return TRUE;

  expected = g_ascii_strtoull (header, &end, 10);
  actual = crc32 (0L, Z_NULL, 0);
  actual = crc32 (actual, data ? data : (const guint8 *) "", len);
  if (end == header || *end != '\0' || expected != (guint64) actual)
    {
      /* Marked retryable: the body was damaged on the way. */
      *error = dyn_error_new_service (DYN_ERROR_PROTOCOL, RETRY_PROTOCOL_CRC, NULL,
                                      g_hash_table_lookup (http->headers, "x-amzn-requestid"),
                                      http->status, NULL);
      g_free ((*error)->message);
      /* Translators: the first %s is an operation (GetItem, Query …), the second the checksum the
       * server sent in its x-amz-crc32 header (keep the name), %lu the checksum of the body received */
      (*error)->message = g_strdup_printf (_("%s: the response failed its CRC32 check "
                                             "(x-amz-crc32 %s, body %lu); it was damaged in transit"),
                                           operation, header, actual);
      return FALSE;
    }
  return TRUE;
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;     /* owned */
  Call *call = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) http = NULL;
  GError *error = NULL;
  DynResponse *response;

  http = dyn_http_post_finish (DYN_HTTP (object), result, &error);
  if (http == NULL)
    {
      fail_or_retry (task, error);
      return;
    }

  if (!check_crc (http, call->operation, &error))
    {
      fail_or_retry (task, error);
      return;
    }

  if (http->status != 200)
    {
      fail_or_retry (task, error_from_response (http, call->operation));
      return;
    }

  response = response_from_body (call->operation, http, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  response->attempts = call->attempt;
  g_task_return_pointer (task, response, (GDestroyNotify) dyn_response_free);
  g_object_unref (task);
}

static void
credentials_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;     /* owned */
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);
  g_autoptr(DynCredentials) creds = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *target = NULL;
  DynSigv4Credentials sig;
  GError *error = NULL;
  gsize len;
  gconstpointer data;

  creds = dyn_credentials_provider_get_finish (DYN_CREDENTIALS_PROVIDER (object), result, &error);
  if (creds == NULL)
    {
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS) &&
          !g_cancellable_is_cancelled (g_task_get_cancellable (task)) && handle_expired (task, error))
        return;
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  call->invalidations = self->invalidations;

  sig.access_key_id = creds->access_key_id;
  sig.secret_access_key = creds->secret_access_key;
  sig.session_token = creds->session_token;
  target = g_strconcat (TARGET_PREFIX, call->operation, NULL);
  data = g_bytes_get_data (call->body, &len);
  headers = dyn_sigv4_signer_dynamodb_headers (self->signer, &sig, self->region, self->host,
                                               target, data, len, g_get_real_time () / G_USEC_PER_SEC);

  dyn_http_post_async (self->http, self->endpoint, (const char * const *) headers, call->body,
                       g_task_get_cancellable (task), post_cb, task);
}

static void
attempt (GTask *task)
{
  DynClient *self = g_task_get_source_object (task);
  Call *call = g_task_get_task_data (task);

  /* Requests that start (or try again) while a sign-in is under way wait for it
   * instead of going out with the old credentials. */
  if (self->reauth_pending)
    {
      wait_for_sign_in (task);
      return;
    }
  /* A write that tries again (after a retryable error or a refresh) once the connection
   * was locked is refused, not sent. */
  if (call->attempt > 0 && self->read_only && !call->is_read)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_READ_ONLY,
                               _("%s refused: this connection is read-only"), call->operation);
      g_object_unref (task);
      return;
    }
  call->attempt++;
  call->generation = self->generation;
  dyn_credentials_provider_get_async (self->credentials, g_task_get_cancellable (task),
                                      credentials_cb, task);
}

static const char * const read_only_operations[] = {
  "GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems", "ListTables", "DescribeTable",
  "DescribeTimeToLive", "DescribeLimits", "DescribeEndpoints", "ListTagsOfResource",
  "DescribeContinuousBackups", "ListBackups", "ListGlobalTables", NULL
};

static gboolean
operation_is_read (const char *operation,
                   JsonNode   *params)
{
  const char *statement;

  if (g_strv_contains (read_only_operations, operation))
    return TRUE;
  if (strcmp (operation, "ExecuteStatement") != 0 || params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    return FALSE;
  statement = json_object_get_string_member_with_default (json_node_get_object (params), "Statement", "");
  while (g_ascii_isspace (*statement))
    statement++;
  return g_ascii_strncasecmp (statement, "SELECT", 6) == 0;
}

void
dyn_client_call_async (DynClient           *self,
                       const char          *operation,
                       JsonNode            *params,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Call *call;
  char *text;
  gsize len;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail (operation != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_call_async);

  if (self->read_only && !operation_is_read (operation, params))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_READ_ONLY,
                               /* Translators: %s is an operation: PutItem, DeleteItem … */
                               _("%s refused: this connection is read-only"), operation);
      return;
    }

  call = g_new0 (Call, 1);
  call->operation = g_strdup (operation);
  call->is_read = operation_is_read (operation, params);
  if (params != NULL)
    {
      text = json_to_string (params, FALSE);
      len = strlen (text);
    }
  else
    {
      text = g_strdup ("{}");
      len = 2;
    }
  call->body = g_bytes_new_take (text, len);
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);

  attempt (g_steal_pointer (&task));
}

DynResponse *
dyn_client_call_finish (DynClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_call_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Object ------------------------------------------------------------------ */

static void
dyn_client_finalize (GObject *object)
{
  DynClient *self = DYN_CLIENT (object);

  g_clear_object (&self->http);
  g_clear_pointer (&self->signer, dyn_sigv4_signer_free);
  g_clear_object (&self->credentials);
  /* Waiting requests hold the client: none are left. A sign-in still under way learns it. */
  g_assert (g_queue_is_empty (&self->waiting));
  if (self->reauth_cancellable != NULL)
    g_cancellable_cancel (self->reauth_cancellable);
  g_clear_object (&self->reauth_cancellable);
  g_clear_pointer (&self->reauth, reauth_handler_unref);
  g_clear_error (&self->sign_in_error);
  g_free (self->endpoint);
  g_free (self->host);
  g_free (self->region);

  G_OBJECT_CLASS (dyn_client_parent_class)->finalize (object);
}

static void
dyn_client_class_init (DynClientClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_client_finalize;
}

static void
dyn_client_init (DynClient *self)
{
  self->http = dyn_http_new ();
  self->signer = dyn_sigv4_signer_new ();
  self->max_attempts = 5;
  self->base_delay_ms = 25;
  self->throttle_base_ms = 500;
}

static DynClient *
client_new (const char              *endpoint,
            const char              *region,
            DynCredentialsProvider  *credentials,
            gboolean                 insecure,
            GError                 **error)
{
  g_autoptr(DynClient) self = NULL;
  g_autofree char *url = NULL;

  g_return_val_if_fail (region != NULL && *region != '\0', NULL);
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (credentials), NULL);

  if (endpoint != NULL && *endpoint != '\0')
    url = g_strdup (endpoint);
  else if (g_str_has_prefix (region, "cn-"))
    url = g_strdup_printf ("https://dynamodb.%s.amazonaws.com.cn", region);
  else
    url = g_strdup_printf ("https://dynamodb.%s.amazonaws.com", region);

  if (!dyn_http_check_endpoint (url, insecure, error))
    return NULL;

  self = g_object_new (DYN_TYPE_CLIENT, NULL);
  self->host = dyn_sigv4_host_from_url (url);
  if (self->host == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a valid endpoint URL"), url);
      return NULL;
    }
  self->endpoint = g_steal_pointer (&url);
  self->region = g_strdup (region);
  self->credentials = g_object_ref (credentials);
  return g_steal_pointer (&self);
}

DynClient *
dyn_client_new (const char              *endpoint,
                const char              *region,
                DynCredentialsProvider  *credentials,
                GError                 **error)
{
  return client_new (endpoint, region, credentials, FALSE, error);
}

DynClient *
dyn_client_new_insecure (const char              *endpoint,
                         const char              *region,
                         DynCredentialsProvider  *credentials,
                         GError                 **error)
{
  return client_new (endpoint, region, credentials, TRUE, error);
}

const char *
dyn_client_get_endpoint (DynClient *self)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), NULL);
  return self->endpoint;
}

const char *
dyn_client_get_region (DynClient *self)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), NULL);
  return self->region;
}

void
dyn_client_set_retry (DynClient *self,
                      guint      max_attempts,
                      guint      base_delay_ms,
                      guint      throttle_base_ms)
{
  g_return_if_fail (DYN_IS_CLIENT (self));

  self->max_attempts = MAX (1, max_attempts);
  self->base_delay_ms = base_delay_ms;
  self->throttle_base_ms = throttle_base_ms;
}

void
dyn_client_set_timeouts (DynClient *self,
                         guint      connect_ms,
                         guint      total_ms)
{
  g_return_if_fail (DYN_IS_CLIENT (self));
  dyn_http_set_timeouts (self->http, connect_ms, total_ms);
}

void
dyn_client_set_read_only (DynClient *self,
                          gboolean   read_only)
{
  g_return_if_fail (DYN_IS_CLIENT (self));
  self->read_only = read_only;
}

void
dyn_client_set_reauth_handler (DynClient                 *self,
                               DynClientReauthFunc        reauth,
                               DynClientReauthFinishFunc  finish,
                               gpointer                   user_data,
                               GDestroyNotify             destroy)
{
  ReauthHandler *handler = NULL;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail ((reauth == NULL) == (finish == NULL));

  if (reauth != NULL)
    {
      handler = g_new0 (ReauthHandler, 1);
      g_atomic_ref_count_init (&handler->ref_count);
      handler->reauth = reauth;
      handler->finish = finish;
      handler->user_data = user_data;
      handler->destroy = destroy;
    }
  else if (destroy != NULL)
    destroy (user_data);
  /* A sign-in under way keeps its own reference and ends as it began. */
  g_clear_pointer (&self->reauth, reauth_handler_unref);
  self->reauth = handler;
}

gboolean
dyn_client_is_waiting_for_sign_in (DynClient *self)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), FALSE);
  return self->reauth_pending || !g_queue_is_empty (&self->waiting);
}

DynCredentialsProvider *
dyn_client_get_credentials_provider (DynClient *self)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), NULL);
  return self->credentials;
}

/* Item requests ----------------------------------------------------------- */

static void
execute_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  DynResponse *response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);

  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) dyn_response_free);
}

void
dyn_client_execute_async (DynClient           *self,
                          const DynRequest    *request,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) params = NULL;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail (request != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_execute_async);
  params = dyn_request_to_json (request);
  dyn_client_call_async (self, dyn_operation_get_name (request->op), params, cancellable,
                         execute_cb, g_steal_pointer (&task));
}

DynResponse *
dyn_client_execute_finish (DynClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (DYN_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_execute_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ListTables -------------------------------------------------------------- */

static void list_tables_next (GTask *task, const char *start);

static void
list_tables_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GPtrArray *names = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;
  JsonObject *obj;
  JsonArray *arr;
  const char *last;

  response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  obj = json_node_get_object (response->root);
  arr = dyn_json_object_get_array (obj, "TableNames");
  if (arr == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL, "%s",
                               /* Translators: ListTables and TableNames are names; keep them */
                               _("ListTables: the response has no TableNames list"));
      return;
    }
  for (guint i = 0; i < json_array_get_length (arr); i++)
    {
      JsonNode *n = json_array_get_element (arr, i);
      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        {
          g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                                   /* Translators: ListTables and TableNames are names; keep them */
                                   _("ListTables: TableNames[%u] is not a string"), i);
          return;
        }
      g_ptr_array_add (names, g_strdup (json_node_get_string (n)));
    }

  last = json_object_get_string_member_with_default (obj, "LastEvaluatedTableName", NULL);
  if (last != NULL)
    list_tables_next (g_steal_pointer (&task), last);
  else
    {
      g_ptr_array_add (names, NULL);
      g_task_return_pointer (task, g_strdupv ((char **) names->pdata), (GDestroyNotify) g_strfreev);
    }
}

static void
list_tables_next (GTask      *task,
                  const char *start)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(JsonNode) params = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (obj, "Limit", 100);
  if (start != NULL)
    json_object_set_string_member (obj, "ExclusiveStartTableName", start);
  json_node_set_object (params, obj);
  dyn_client_call_async (g_task_get_source_object (task), "ListTables", params,
                         g_task_get_cancellable (task), list_tables_cb, task);
}

void
dyn_client_list_tables_async (DynClient           *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (DYN_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_list_tables_async);
  g_task_set_task_data (task, g_ptr_array_new_with_free_func (g_free), (GDestroyNotify) g_ptr_array_unref);
  list_tables_next (task, NULL);
}

char **
dyn_client_list_tables_finish (DynClient     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_list_tables_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Batches ----------------------------------------------------------------- */

typedef struct
{
  char       *table;
  GPtrArray  *pending;      /* JsonNode requests (write) or DynValue keys (get) */
  GPtrArray  *found;        /* DynValue items (get) */
  JsonObject *extra;        /* ProjectionExpression etc. for gets */
  guint       requests;
  guint       empty_rounds; /* consecutive rounds that made no progress */
  GSource    *delay;
} Batch;

static void
batch_free (Batch *b)
{
  if (b->delay != NULL)
    {
      g_source_destroy (b->delay);
      g_source_unref (b->delay);
    }
  g_free (b->table);
  g_clear_pointer (&b->pending, g_ptr_array_unref);
  g_clear_pointer (&b->found, g_ptr_array_unref);
  g_clear_pointer (&b->extra, json_object_unref);
  g_free (b);
}

static void batch_get_next (GTask *task);
static void batch_write_next (GTask *task);

static gboolean
batch_delay_cb (gpointer user_data)
{
  GTask *task = user_data;
  Batch *b = g_task_get_task_data (task);

  g_clear_pointer (&b->delay, g_source_unref);
  if (g_task_get_source_tag (task) == dyn_client_batch_get_async)
    batch_get_next (task);
  else
    batch_write_next (task);
  return G_SOURCE_REMOVE;
}

/* Unprocessed work goes again after a full-jitter pause that grows while
 * rounds make no progress; takes the task's reference. */
static void
batch_continue (GTask    *task,
                gboolean  progress)
{
  DynClient *self = g_task_get_source_object (task);
  Batch *b = g_task_get_task_data (task);
  guint64 ceiling;

  if (progress)
    {
      b->empty_rounds = 0;
      batch_delay_cb (task);
      return;
    }

  b->empty_rounds++;
  if (b->empty_rounds >= MAX (self->max_attempts, 8u))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_THROTTLED,
                               /* Translators: the first %u is a number of items, %s a table, the last
                                * %u how often they were sent again (at least 8) */
                               g_dngettext (GETTEXT_PACKAGE, "%u item of %s stayed unprocessed after %u rounds",
                                            "%u items of %s stayed unprocessed after %u rounds", b->pending->len),
                               b->pending->len, b->table, b->empty_rounds);
      g_object_unref (task);
      return;
    }
  ceiling = MIN ((guint64) MAX_DELAY_MS, (guint64) MAX (self->base_delay_ms, 1u) << MIN (b->empty_rounds, 20u));
  b->delay = g_timeout_source_new (g_random_int_range (0, (gint32) ceiling + 1));
  g_source_set_callback (b->delay, batch_delay_cb, task, NULL);
  g_source_attach (b->delay, g_main_context_get_thread_default ());
}

static void
batch_get_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  Batch *b = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;
  JsonObject *obj, *unprocessed;
  JsonArray *items, *keys;
  guint before = b->pending->len;

  response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  obj = json_node_get_object (response->root);

  items = dyn_json_object_get_array (dyn_json_object_get_object (obj, "Responses"), b->table);
  for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
    {
      DynValue *item = dyn_item_from_ddb_json (json_array_get_element (items, i), &error);
      if (item == NULL)
        {
          g_prefix_error (&error, "%s: ", "BatchGetItem");
          error->domain = DYN_ERROR;
          error->code = DYN_ERROR_PROTOCOL;
          g_task_return_error (task, error);
          g_object_unref (task);
          return;
        }
      g_ptr_array_add (b->found, item);
    }

  unprocessed = dyn_json_object_get_object (dyn_json_object_get_object (obj, "UnprocessedKeys"), b->table);
  keys = dyn_json_object_get_array (unprocessed, "Keys");
  for (guint i = 0; keys != NULL && i < json_array_get_length (keys); i++)
    {
      DynValue *key = dyn_item_from_ddb_json (json_array_get_element (keys, i), NULL);
      if (key != NULL)
        g_ptr_array_add (b->pending, key);
    }

  /* Progress means no key came back unprocessed; a round that only moved on
   * to the next chunk is not a round without progress. */
  batch_continue (task, b->pending->len == before);
}

static void
batch_get_next (GTask *task)
{
  Batch *b = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *request_items = json_object_new ();
  JsonObject *table = json_object_new ();
  JsonArray *keys = json_array_new ();
  guint n;

  if (b->pending->len == 0)
    {
      g_task_return_pointer (task, g_ptr_array_ref (b->found), (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }

  n = MIN (b->pending->len, 100u);
  for (guint i = 0; i < n; i++)
    json_array_add_element (keys, dyn_item_to_ddb_json (b->pending->pdata[i]));
  g_ptr_array_remove_range (b->pending, 0, n);

  if (b->extra != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (b->extra);
      for (GList *l = members; l; l = l->next)
        json_object_set_member (table, l->data, json_node_copy (json_object_get_member (b->extra, l->data)));
    }
  json_object_set_array_member (table, "Keys", keys);
  json_object_set_object_member (request_items, b->table, table);
  json_object_set_object_member (params, "RequestItems", request_items);
  json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
  json_node_set_object (node, params);
  b->requests++;
  dyn_client_call_async (g_task_get_source_object (task), "BatchGetItem", node,
                         g_task_get_cancellable (task), batch_get_cb, task);
}

void
dyn_client_batch_get_async (DynClient           *self,
                            const char          *table,
                            GPtrArray           *keys,
                            const char          *projection,
                            GHashTable          *names,
                            gboolean             consistent_read,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  Batch *b;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail (table != NULL && keys != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_batch_get_async);
  b = g_new0 (Batch, 1);
  b->table = g_strdup (table);
  b->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  for (guint i = 0; i < keys->len; i++)
    g_ptr_array_add (b->pending, dyn_value_ref (keys->pdata[i]));
  b->found = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  b->extra = json_object_new ();
  if (projection != NULL)
    json_object_set_string_member (b->extra, "ProjectionExpression", projection);
  if (names != NULL && g_hash_table_size (names) > 0)
    {
      JsonObject *n = json_object_new ();
      GHashTableIter iter;
      gpointer k, v;
      g_hash_table_iter_init (&iter, names);
      while (g_hash_table_iter_next (&iter, &k, &v))
        json_object_set_string_member (n, k, v);
      json_object_set_object_member (b->extra, "ExpressionAttributeNames", n);
    }
  if (consistent_read)
    json_object_set_boolean_member (b->extra, "ConsistentRead", TRUE);
  g_task_set_task_data (task, b, (GDestroyNotify) batch_free);
  batch_get_next (task);
}

GPtrArray *
dyn_client_batch_get_finish (DynClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_batch_get_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
batch_write_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Batch *b = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;
  JsonObject *unprocessed;
  JsonArray *reqs;
  gboolean requeued = FALSE;

  response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  unprocessed = dyn_json_object_get_object (json_node_get_object (response->root), "UnprocessedItems");
  reqs = dyn_json_object_get_array (unprocessed, b->table);
  for (guint i = 0; reqs != NULL && i < json_array_get_length (reqs); i++)
    {
      g_ptr_array_insert (b->pending, i, json_node_copy (json_array_get_element (reqs, i)));
      requeued = TRUE;
    }
  batch_continue (task, !requeued);
}

static void
batch_write_next (GTask *task)
{
  Batch *b = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *request_items;
  JsonArray *reqs;
  guint n;

  if (b->pending->len == 0)
    {
      g_task_return_int (task, b->requests);
      g_object_unref (task);
      return;
    }

  params = json_object_new ();
  request_items = json_object_new ();
  reqs = json_array_new ();
  n = MIN (b->pending->len, 25u);
  for (guint i = 0; i < n; i++)
    json_array_add_element (reqs, json_node_copy (b->pending->pdata[i]));
  g_ptr_array_remove_range (b->pending, 0, n);
  json_object_set_array_member (request_items, b->table, reqs);
  json_object_set_object_member (params, "RequestItems", request_items);
  json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, params);
  b->requests++;
  dyn_client_call_async (g_task_get_source_object (task), "BatchWriteItem", node,
                         g_task_get_cancellable (task), batch_write_cb, task);
}

static JsonNode *
write_request (const char *kind,
               const char *member,
               DynValue   *value)
{
  JsonObject *inner = json_object_new ();
  JsonObject *outer = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_member (inner, member, dyn_item_to_ddb_json (value));
  json_object_set_object_member (outer, kind, inner);
  json_node_take_object (node, outer);
  return node;
}

void
dyn_client_batch_write_async (DynClient           *self,
                              const char          *table,
                              GPtrArray           *puts,
                              GPtrArray           *deletes,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;
  Batch *b;

  g_return_if_fail (DYN_IS_CLIENT (self));
  g_return_if_fail (table != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_client_batch_write_async);
  b = g_new0 (Batch, 1);
  b->table = g_strdup (table);
  b->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  for (guint i = 0; puts != NULL && i < puts->len; i++)
    g_ptr_array_add (b->pending, write_request ("PutRequest", "Item", puts->pdata[i]));
  for (guint i = 0; deletes != NULL && i < deletes->len; i++)
    g_ptr_array_add (b->pending, write_request ("DeleteRequest", "Key", deletes->pdata[i]));
  g_task_set_task_data (task, b, (GDestroyNotify) batch_free);

  if (self->read_only && b->pending->len > 0)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_READ_ONLY,
                               /* Translators: %s is an operation: PutItem, DeleteItem … */
                               _("%s refused: this connection is read-only"), "BatchWriteItem");
      g_object_unref (task);
      return;
    }
  batch_write_next (task);
}

gboolean
dyn_client_batch_write_finish (DynClient     *self,
                               GAsyncResult  *result,
                               guint         *requests,
                               GError       **error)
{
  gssize n;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_client_batch_write_async, FALSE);

  n = g_task_propagate_int (G_TASK (result), error);
  if (n < 0)
    return FALSE;
  if (requests != NULL)
    *requests = n;
  return TRUE;
}

/* Error details ----------------------------------------------------------- */

JsonArray *
dyn_error_get_cancellation_reasons (const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  g_autoptr(JsonNode) root = NULL;
  JsonArray *reasons;

  if (details == NULL || details->body == NULL)
    return NULL;
  root = dyn_json_parse (details->body, strlen (details->body), NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  reasons = dyn_json_object_get_array (json_node_get_object (root), "CancellationReasons");
  return reasons != NULL ? json_array_ref (reasons) : NULL;
}

DynValue *
dyn_error_get_item (const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  g_autoptr(JsonNode) root = NULL;
  JsonNode *item;

  if (details == NULL || details->body == NULL)
    return NULL;
  root = dyn_json_parse (details->body, strlen (details->body), NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  item = json_object_get_member (json_node_get_object (root), "Item");
  if (item == NULL)
    return NULL;
  return dyn_item_from_ddb_json (item, NULL);
}

/* CreateTable ------------------------------------------------------------- */

/* Partition or sort attributes of a global secondary index's key at most
 * (DynamoDB, November 2025; DYN_KEY_MAX_ATTRIBUTES in client/expr). */
#define GSI_MAX_KEY_ATTRIBUTES 4

gboolean
dyn_parse_key_spec (const char  *spec,
                    char       **name,
                    char       **type,
                    GError     **error)
{
  const char *colon = strrchr (spec, ':');

  if (colon == NULL || colon == spec ||
      (strcmp (colon + 1, "S") != 0 && strcmp (colon + 1, "N") != 0 && strcmp (colon + 1, "B") != 0))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the key as given; keep NAME:TYPE and S, N, B as they are */
                   _("“%s”: a key is written NAME:TYPE with TYPE one of S, N, B"), spec);
      return FALSE;
    }
  *name = g_strndup (spec, colon - spec);
  *type = g_strdup (colon + 1);
  return TRUE;
}

/* Defines @name as @type once; @spec (the key or index as given) names the
 * conflict when another key defined it with another type. */
static gboolean
add_attribute_definition (JsonArray   *defs,
                          GHashTable  *seen,
                          const char  *spec,
                          const char  *name,
                          const char  *type,
                          GError     **error)
{
  const char *known = g_hash_table_lookup (seen, name);
  JsonObject *def;

  if (known != NULL && strcmp (known, type) != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is a key or index as given, the second an attribute, the
                    * others key types (S, N, B) */
                   _("“%s”: %s is of type %s here but of type %s in another key"), spec, name, type, known);
      return FALSE;
    }
  if (known != NULL)
    return TRUE;
  g_hash_table_insert (seen, g_strdup (name), g_strdup (type));
  def = json_object_new ();
  json_object_set_string_member (def, "AttributeName", name);
  json_object_set_string_member (def, "AttributeType", type);
  json_array_add_object_element (defs, def);
  return TRUE;
}

static void
add_key_element (JsonArray  *schema,
                 const char *name,
                 const char *kind)
{
  JsonObject *k = json_object_new ();

  json_object_set_string_member (k, "AttributeName", name);
  json_object_set_string_member (k, "KeyType", kind);
  json_array_add_object_element (schema, k);
}

static gboolean
is_key_type (const char *type)
{
  return strcmp (type, "S") == 0 || strcmp (type, "N") == 0 || strcmp (type, "B") == 0;
}

gboolean
dyn_is_valid_table_name (const char *name)
{
  gsize len = strlen (name);

  if (len < 3 || len > 255)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_' && name[i] != '-' && name[i] != '.')
      return FALSE;
  return TRUE;
}

void
dyn_key_part_free (DynKeyPart *part)
{
  g_free (part->name);
  g_free (part->type);
  g_free (part);
}

gboolean
dyn_is_projection_spec (const char *text)
{
  return strcmp (text, "ALL") == 0 || strcmp (text, "KEYS_ONLY") == 0 || g_str_has_prefix (text, "INCLUDE=");
}

/* A global secondary index as given to dynoscope-cli: NAME:PK:TYPE, then
 * more partition attributes joined by '+' (PK:TYPE+PK2:TYPE), then
 * optionally ':' and the sort attributes the same way, up to
 * GSI_MAX_KEY_ATTRIBUTES of each (a multi-attribute key); with @projection,
 * optionally ':' and the projection (a part that cannot be a type). */
gboolean
dyn_parse_gsi_spec (const char  *spec,
                    char       **index_name,
                    GPtrArray  **key_parts,
                    char       **projection,
                    GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  guint n = g_strv_length (parts);
  g_autoptr(GPtrArray) attributes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_key_part_free);
  guint group = 0, in_group = 0, j = 1;
  const char *name;

  if (projection != NULL)
    {
      *projection = NULL;
      if (n > 3 && dyn_is_projection_spec (parts[n - 1]))
        {
          *projection = g_strdup (parts[n - 1]);
          g_clear_pointer (&parts[n - 1], g_free);
          n--;
        }
    }
  if (n < 3 || *parts[0] == '\0')
    goto malformed;
  if (!dyn_is_valid_table_name (parts[0]))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the index as given */
                   _("“%s”: an index name has 3 to 255 characters, letters, digits, “_”, “-” and “.”"), spec);
      goto failed;
    }

  name = parts[j++];
  for (;;)
    {
      g_autofree char *type = NULL;
      const char *plus;
      DynKeyPart *part;

      if (*name == '\0' || j >= n)
        goto malformed;
      plus = strchr (parts[j], '+');
      type = plus ? g_strndup (parts[j], plus - parts[j]) : g_strdup (parts[j]);
      j++;
      if (!is_key_type (type))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: the first %s is the index as given, the second a key type in it */
                       _("“%s”: key type “%s” is not S, N or B"), spec, type);
          goto failed;
        }
      for (guint k = 0; k < attributes->len; k++)
        if (strcmp (((DynKeyPart *) attributes->pdata[k])->name, name) == 0)
          {
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                         /* Translators: the first %s is the index as given, the second an attribute */
                         _("“%s”: the attribute %s is in the key twice"), spec, name);
            goto failed;
          }
      if (++in_group > GSI_MAX_KEY_ATTRIBUTES)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       group == 0
                         /* Translators: %s is the index as given, %d DynamoDB's limit (4) */
                         ? _("“%s”: an index has at most %d partition key attributes")
                         /* Translators: %s is the index as given, %d DynamoDB's limit (4) */
                         : _("“%s”: an index has at most %d sort key attributes"),
                       spec, GSI_MAX_KEY_ATTRIBUTES);
          goto failed;
        }
      part = g_new0 (DynKeyPart, 1);
      part->name = g_strdup (name);
      part->type = g_steal_pointer (&type);
      part->sort = group == 1;
      g_ptr_array_add (attributes, part);

      if (plus != NULL)
        name = plus + 1;          /* the next attribute of this key part */
      else if (j < n && group == 0)
        {
          name = parts[j++];      /* the sort attributes */
          group = 1;
          in_group = 0;
        }
      else if (j < n)
        goto malformed;
      else
        break;
    }

  *index_name = g_strdup (parts[0]);
  *key_parts = g_steal_pointer (&attributes);
  return TRUE;

malformed:
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is the index as given; keep NAME:PK:TYPE and the rest as they are */
               _("“%s”: an index is written NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+SK2:TYPE…]]"), spec);
failed:
  if (projection != NULL)
    g_clear_pointer (projection, g_free);
  return FALSE;
}

/* The GSI of dyn_create_table_params(): its key parsed by dyn_parse_gsi_spec(),
 * projection ALL. */
static JsonObject *
parse_gsi (const char  *spec,
           JsonArray   *defs,
           GHashTable  *seen,
           GError     **error)
{
  g_autoptr(JsonObject) gsi = json_object_new ();
  g_autoptr(GPtrArray) parts = NULL;
  g_autofree char *name = NULL;
  JsonArray *schema;
  JsonObject *projection;

  if (!dyn_parse_gsi_spec (spec, &name, &parts, NULL, error))
    return NULL;
  json_object_set_string_member (gsi, "IndexName", name);
  schema = json_array_new ();
  json_object_set_array_member (gsi, "KeySchema", schema);
  for (guint i = 0; i < parts->len; i++)
    {
      DynKeyPart *part = parts->pdata[i];

      if (!add_attribute_definition (defs, seen, spec, part->name, part->type, error))
        return NULL;
      add_key_element (schema, part->name, part->sort ? "RANGE" : "HASH");
    }

  projection = json_object_new ();
  json_object_set_string_member (projection, "ProjectionType", "ALL");
  json_object_set_object_member (gsi, "Projection", projection);
  return g_steal_pointer (&gsi);
}

JsonNode *
dyn_create_table_params (const char          *table,
                         const char          *partition_key,
                         const char          *sort_key,
                         const char * const  *gsis,
                         GError             **error)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *pk = NULL, *pkt = NULL, *sk = NULL, *skt = NULL;
  JsonArray *defs = json_array_new ();
  JsonArray *schema = json_array_new ();
  JsonNode *node;

  json_object_set_string_member (obj, "TableName", table);
  json_object_set_array_member (obj, "AttributeDefinitions", defs);
  json_object_set_array_member (obj, "KeySchema", schema);

  if (!dyn_parse_key_spec (partition_key, &pk, &pkt, error) ||
      !add_attribute_definition (defs, seen, partition_key, pk, pkt, error))
    return NULL;
  add_key_element (schema, pk, "HASH");
  if (sort_key != NULL)
    {
      if (!dyn_parse_key_spec (sort_key, &sk, &skt, error))
        return NULL;
      if (strcmp (sk, pk) == 0)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: the first %s is the key as given, the second an attribute */
                       _("“%s”: the attribute %s is in the key twice"), sort_key, sk);
          return NULL;
        }
      if (!add_attribute_definition (defs, seen, sort_key, sk, skt, error))
        return NULL;
      add_key_element (schema, sk, "RANGE");
    }

  if (gsis != NULL && gsis[0] != NULL)
    {
      JsonArray *indexes = json_array_new ();

      json_object_set_array_member (obj, "GlobalSecondaryIndexes", indexes);
      for (guint i = 0; gsis[i] != NULL; i++)
        {
          JsonObject *gsi = parse_gsi (gsis[i], defs, seen, error);

          if (gsi == NULL)
            return NULL;
          for (guint k = 0; k < i; k++)
            if (strcmp (json_object_get_string_member (json_array_get_object_element (indexes, k), "IndexName"),
                        json_object_get_string_member (gsi, "IndexName")) == 0)
              {
                g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                             /* Translators: %s is the index as given */
                             _("“%s”: another index has this name"), gsis[i]);
                json_object_unref (gsi);
                return NULL;
              }
          json_array_add_object_element (indexes, gsi);
        }
    }
  json_object_set_string_member (obj, "BillingMode", "PAY_PER_REQUEST");

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, obj);
  return node;
}
