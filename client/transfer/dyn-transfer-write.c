/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "dyn-json.h"
#include "dyn-transfer-write.h"

/* ------------------------------------------------------------- rate wait */

typedef struct {
  DynRateLimiter *limiter;
  double          units;
} RateWait;

static gboolean
rate_wait_try (GTask *task);

static gboolean
rate_wait_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;

  rate_wait_try (task);
  return G_SOURCE_REMOVE;
}

/* TRUE when done (the task returned). Takes no reference. */
static gboolean
rate_wait_try (GTask *task)
{
  RateWait *wait = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GSource) source = NULL;
  gint64 delay;

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (task);
      return TRUE;
    }
  delay = dyn_rate_limiter_reserve (wait->limiter, wait->units);
  if (delay == 0)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return TRUE;
    }
  /* At most 250 ms at a time, so that a cancel is seen soon. */
  source = g_timeout_source_new (MAX (1, MIN (250, (guint) (delay / 1000) + 1)));
  g_source_set_callback (source, rate_wait_timeout_cb, task, NULL);
  g_source_attach (source, g_task_get_context (task));
  return FALSE;
}

void
_dyn_transfer_rate_wait (DynRateLimiter      *limiter,
                         double               units,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  RateWait *wait = g_new0 (RateWait, 1);

  g_task_set_source_tag (task, _dyn_transfer_rate_wait);
  wait->limiter = limiter;
  wait->units = units;
  g_task_set_task_data (task, wait, g_free);
  if (limiter == NULL)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }
  rate_wait_try (task);
}

gboolean
_dyn_transfer_rate_wait_finish (GAsyncResult  *result,
                                GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
_dyn_transfer_backoff_ms (guint n)
{
  double cap = MIN (20000.0, 100.0 * ldexp (1.0, (int) MIN (n, 20u) - 1));

  return (guint) g_random_double_range (0, cap);
}

double
_dyn_transfer_item_write_units (const DynValue *item)
{
  gsize size = dyn_item_size (item);

  return MAX (1.0, ceil (size / 1024.0));
}

/* ------------------------------------------------------------ batch write */

typedef struct {
  DynClient           *client;
  char                *table;
  JsonArray           *pending;      /* the requests still to send */
  guint                n_total;
  double               estimate;     /* for all of them */
  double               taken;        /* the estimate of the send in flight */
  DynRateLimiter      *limiter;
  DynTransferProgress *live;
  guint                sends;
} BatchWrite;

static void
batch_write_free (gpointer data)
{
  BatchWrite *bw = data;

  g_clear_object (&bw->client);
  g_free (bw->table);
  g_clear_pointer (&bw->pending, json_array_unref);
  g_free (bw);
}

static void batch_send (GTask *task);

static gboolean
batch_backoff_cb (gpointer user_data)
{
  batch_send (user_data);
  return G_SOURCE_REMOVE;
}

static void
batch_response_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BatchWrite *bw = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  JsonObject *unprocessed;
  JsonArray *left = NULL;
  g_autoptr(GSource) timeout = NULL;

  response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  if (bw->live != NULL && response != NULL)
    bw->live->requests += response->attempts;
  else if (bw->live != NULL)
    bw->live->requests++;
  if (response == NULL)
    {
      /* What a failed call consumed is not known: keep the estimate taken. */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (bw->live != NULL)
    {
      bw->live->write_units += response->write_units;
      if (response->attempts > 1)
        bw->live->retries += response->attempts - 1;
    }
  if (bw->limiter != NULL)
    dyn_rate_limiter_settle (bw->limiter, bw->taken, response->write_units);

  unprocessed = dyn_json_object_get_object (json_node_get_object (response->root), "UnprocessedItems");
  if (unprocessed != NULL && json_object_has_member (unprocessed, bw->table))
    left = dyn_json_object_get_array (unprocessed, bw->table);
  if (left == NULL || json_array_get_length (left) == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (bw->sends >= DYN_TRANSFER_MAX_SENDS)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_THROTTLED,
                               g_dngettext (GETTEXT_PACKAGE,
                                            "%u item was still unprocessed after %u BatchWriteItem requests",
                                            "%u items were still unprocessed after %u BatchWriteItem requests",
                                            json_array_get_length (left)),
                               json_array_get_length (left), bw->sends);
      return;
    }
  g_clear_pointer (&bw->pending, json_array_unref);
  bw->pending = json_array_ref (left);
  if (bw->live != NULL)
    bw->live->retries++;
  timeout = g_timeout_source_new (_dyn_transfer_backoff_ms (bw->sends));
  g_source_attach (timeout, g_task_get_context (task));
  g_source_set_callback (timeout, batch_backoff_cb, g_steal_pointer (&task), NULL);
}

static void
batch_rate_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  BatchWrite *bw = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  JsonObject *obj, *items;
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (!_dyn_transfer_rate_wait_finish (result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  obj = json_object_new ();
  items = json_object_new ();
  json_object_set_array_member (items, bw->table, json_array_ref (bw->pending));
  json_object_set_object_member (obj, "RequestItems", items);
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");
  params = json_node_init_object (json_node_alloc (), obj);
  json_object_unref (obj);
  bw->sends++;
  dyn_client_call_async (bw->client, "BatchWriteItem", params, cancellable,
                         batch_response_cb, g_steal_pointer (&task));
}

/* Takes the reference of @task. */
static void
batch_send (GTask *task)
{
  BatchWrite *bw = g_task_get_task_data (task);
  guint n = json_array_get_length (bw->pending);

  bw->taken = bw->estimate * n / MAX (1u, bw->n_total);
  if (bw->limiter == NULL)
    bw->taken = 0;
  _dyn_transfer_rate_wait (bw->limiter, bw->taken, g_task_get_cancellable (task), batch_rate_cb, task);
}

void
_dyn_transfer_batch_write_async (DynClient           *client,
                                 const char          *table,
                                 JsonArray           *requests,
                                 double               estimate,
                                 DynRateLimiter      *limiter,
                                 DynTransferProgress *live,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  BatchWrite *bw = g_new0 (BatchWrite, 1);

  g_task_set_source_tag (task, _dyn_transfer_batch_write_async);
  bw->client = g_object_ref (client);
  bw->table = g_strdup (table);
  bw->pending = json_array_ref (requests);
  bw->n_total = json_array_get_length (requests);
  bw->estimate = estimate;
  bw->limiter = limiter;
  bw->live = live;
  g_task_set_task_data (task, bw, batch_write_free);
  batch_send (task);
}

gboolean
_dyn_transfer_batch_write_finish (GAsyncResult  *result,
                                  GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
