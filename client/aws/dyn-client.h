/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "dyn-credentials.h"
#include "dyn-error.h"
#include "dyn-request.h"
#include "dyn-value.h"

G_BEGIN_DECLS

/**
 * DynResponse:
 * @root: the response object as received, except "Items" (decoded into @items)
 * @items: (nullable): the decoded "Items" of a Query, Scan or ExecuteStatement
 * @item: (nullable): the decoded "Item" (GetItem) or "Attributes" (writes)
 * @request_id: (nullable): x-amzn-RequestId
 * @attempts: how many HTTP requests it took (retries included)
 * @read_units: consumed read capacity, when the server reported it
 * @write_units: consumed write capacity, when the server reported it
 */
typedef struct {
  JsonNode  *root;
  GPtrArray *items;
  DynValue  *item;
  char      *request_id;
  guint      attempts;
  double     read_units;
  double     write_units;
} DynResponse;

void dyn_response_free (DynResponse *response);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynResponse, dyn_response_free)

#define DYN_TYPE_CLIENT (dyn_client_get_type ())
G_DECLARE_FINAL_TYPE (DynClient, dyn_client, DYN, CLIENT, GObject)

/**
 * dyn_client_new:
 * @endpoint: (nullable): an endpoint URL such as "http://localhost:8000";
 *   %NULL for the region's AWS endpoint
 * @region: the signing region
 * @credentials: where signing keys come from
 *
 * A DynamoDB client. Requests run on the thread-default main context of the
 * caller; nothing blocks it.
 */
DynClient   *dyn_client_new                 (const char              *endpoint,
                                             const char              *region,
                                             DynCredentialsProvider  *credentials,
                                             GError                 **error) G_GNUC_WARN_UNUSED_RESULT;
/* Like dyn_client_new(), allowing plain http to hosts that are not loopback. */
DynClient   *dyn_client_new_insecure        (const char              *endpoint,
                                             const char              *region,
                                             DynCredentialsProvider  *credentials,
                                             GError                 **error) G_GNUC_WARN_UNUSED_RESULT;
const char  *dyn_client_get_endpoint        (DynClient *self);
const char  *dyn_client_get_region         (DynClient *self);

/**
 * dyn_client_set_retry:
 * @max_attempts: attempts in all, the first one included (at least 1)
 * @base_delay_ms: the base of the full-jitter backoff for transient errors
 * @throttle_base_ms: the base for throttling errors
 *
 * Before retry n (1-based) the client sleeps a random time in
 * [0, min(20 s, base × 2^(n-1))]. Validation and conditional-check failures are
 * never retried.
 */
void         dyn_client_set_retry           (DynClient *self,
                                             guint      max_attempts,
                                             guint      base_delay_ms,
                                             guint      throttle_base_ms);
void         dyn_client_set_timeouts        (DynClient *self,
                                             guint      connect_ms,
                                             guint      total_ms);
void         dyn_client_set_read_only       (DynClient *self,
                                             gboolean   read_only);

/**
 * DynClientReauthFunc:
 * @client: the client whose request failed
 * @error: why: %DYN_ERROR_EXPIRED_CREDENTIALS (ExpiredTokenException, an SSO
 *   token or role credentials that cannot be refreshed without the user)
 * @cancellable: cancelled when the client goes away
 * @callback: call it when the user signed in again or gave up
 * @callback_data: data for @callback
 * @user_data: the data given to dyn_client_set_reauth_handler()
 *
 * Asks the user to sign in again (the window's non-modal "Sign in again"
 * prompt). The matching #DynClientReauthFinishFunc returns %TRUE when fresh
 * credentials are there, %FALSE with @error set when the user cancelled.
 */
typedef void     (*DynClientReauthFunc)       (DynClient           *client,
                                               const GError        *error,
                                               GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             callback_data,
                                               gpointer             user_data);
typedef gboolean (*DynClientReauthFinishFunc) (GAsyncResult        *result,
                                               GError             **error,
                                               gpointer             user_data);

/**
 * dyn_client_set_reauth_handler:
 *
 * When a request fails because the credentials expired, the client first
 * invalidates its provider and tries once more (role and SSO credentials
 * usually refresh without the user). If that fails too, the request waits:
 * @reauth is called once, however many requests wait, and when it finishes
 * with %TRUE every waiting request is sent again (same parameters, fresh
 * signature); with %FALSE they fail with its error. Without a handler the
 * expired error is returned as is. Writes that were refused as expired were
 * never applied, so sending them again is safe.
 */
void         dyn_client_set_reauth_handler  (DynClient                 *self,
                                             DynClientReauthFunc        reauth,
                                             DynClientReauthFinishFunc  finish,
                                             gpointer                   user_data,
                                             GDestroyNotify             destroy);
/* Whether requests are waiting for a sign-in right now. */
gboolean     dyn_client_is_waiting_for_sign_in (DynClient *self);
DynCredentialsProvider *dyn_client_get_credentials_provider (DynClient *self);

/**
 * dyn_client_call_async:
 * @operation: the operation name, e.g. "Query"
 * @params: (transfer none): the request object
 *
 * Sends one DynamoDB operation, with retries. Errors are %DYN_ERROR (service
 * errors carry #DynErrorDetails) or %G_IO_ERROR (transport).
 */
void         dyn_client_call_async          (DynClient           *self,
                                             const char          *operation,
                                             JsonNode            *params,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynResponse *dyn_client_call_finish         (DynClient     *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* One item request (Get/Put/Update/Delete, or one page of Query/Scan). */
void         dyn_client_execute_async       (DynClient           *self,
                                             const DynRequest    *request,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
DynResponse *dyn_client_execute_finish      (DynClient     *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/* ListTables, every page. Returns a GStrv. */
void         dyn_client_list_tables_async   (DynClient           *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
char       **dyn_client_list_tables_finish  (DynClient     *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_client_batch_get_async:
 * @keys: (element-type DynValue): keys of @table
 *
 * BatchGetItem in chunks of 100; unprocessed keys are sent again with backoff.
 * Returns the items found (order not guaranteed), a GPtrArray of DynValue.
 */
void         dyn_client_batch_get_async     (DynClient           *self,
                                             const char          *table,
                                             GPtrArray           *keys,
                                             const char          *projection,
                                             GHashTable          *names,
                                             gboolean             consistent_read,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
GPtrArray   *dyn_client_batch_get_finish    (DynClient     *self,
                                             GAsyncResult  *result,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_client_batch_write_async:
 * @puts: (element-type DynValue) (nullable): items to put
 * @deletes: (element-type DynValue) (nullable): keys to delete
 *
 * BatchWriteItem in chunks of 25; unprocessed items are sent again with
 * backoff until done or the attempts run out. Returns the number of requests.
 */
void         dyn_client_batch_write_async   (DynClient           *self,
                                             const char          *table,
                                             GPtrArray           *puts,
                                             GPtrArray           *deletes,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean     dyn_client_batch_write_finish  (DynClient     *self,
                                             GAsyncResult  *result,
                                             guint         *requests,
                                             GError       **error);

/* The reasons of a TransactionCanceledException, one per action, in order:
 * objects with "Code" ("None", "ConditionalCheckFailed" …), "Message" and,
 * with ReturnValuesOnConditionCheckFailure=ALL_OLD, "Item". NULL otherwise. */
JsonArray   *dyn_error_get_cancellation_reasons (const GError *error);
/* The "Item" of a ConditionalCheckFailedException (ALL_OLD), or NULL. */
DynValue    *dyn_error_get_item             (const GError *error) G_GNUC_WARN_UNUSED_RESULT;

/* Whether @error is worth another attempt (throttling, 5xx, network, CRC). */
gboolean     dyn_error_is_retryable         (const GError *error);

/* The command line's key forms, shared by dyn_create_table_params() and
 * client/admin's DynTableSpec (one implementation of their rules). */

/**
 * DynKeyPart:
 * @name: the attribute
 * @type: "S", "N" or "B"
 * @sort: a sort (RANGE) attribute, else a partition (HASH) one
 */
typedef struct {
  char     *name;
  char     *type;
  gboolean  sort;
} DynKeyPart;

void         dyn_key_part_free              (DynKeyPart *part);
/* "NAME:S|N|B". */
gboolean     dyn_parse_key_spec             (const char  *spec,
                                             char       **name,
                                             char       **type,
                                             GError     **error);
/* DynamoDB's rule for table and index names: 3 to 255 of [A-Za-z0-9_.-]. */
gboolean     dyn_is_valid_table_name        (const char  *name);
/* Whether @text is a projection: ALL, KEYS_ONLY or INCLUDE=… */
gboolean     dyn_is_projection_spec         (const char  *text);
/* A GSI "NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+SK2:TYPE…]]": its name and its
 * key attributes in key order (DynKeyPart*, partition ones first), checked:
 * types S, N, B; no attribute twice; at most four of each kind; the index
 * name. With @projection, a last part ":ALL", ":KEYS_ONLY" or
 * ":INCLUDE=a,b" is returned there (NULL when absent); without, it is
 * refused. */
gboolean     dyn_parse_gsi_spec             (const char  *spec,
                                             char       **index_name,
                                             GPtrArray  **key_parts,
                                             char       **projection,
                                             GError     **error);

/* Builds CreateTable parameters: key "NAME:S", optional sort key, GSIs as
 * "NAME:PK:TYPE[:SK:TYPE]" (projection ALL), on-demand billing. A GSI may
 * have a multi-attribute key: up to four partition and four sort attributes,
 * each part's joined by '+': "ByTenant:tenant:S+site:N:kind:S+seq:N".
 * Checked before sending: types S, N, B; no attribute twice in a key; an
 * attribute of one type in every key; index names as DynamoDB allows. */
JsonNode    *dyn_create_table_params        (const char          *table,
                                             const char          *partition_key,
                                             const char          *sort_key,
                                             const char * const  *gsis,
                                             GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
