/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-json.h"
#include "dyn-transfer-write.h"

/*
 * Truncate: @segments parallel Scans of the key attributes only (a
 * ProjectionExpression of #placeholders), each page deleted in
 * BatchWriteItem requests of 25 (dyn-transfer-write.c: unprocessed items
 * sent again with backoff, the rate limit), then the segment's next page.
 * Deleting by key changes no item: a stopped truncate leaves fewer items,
 * and running it again finishes it.
 */

#define PROGRESS_INTERVAL_MS 200
#define MAX_SEGMENTS 64

typedef struct _Truncate Truncate;

typedef struct {
  Truncate  *truncate;
  guint      index;
  JsonNode  *start_key;        /* ExclusiveStartKey, or NULL */
  gboolean   last_page;
  JsonArray *deletes;          /* the page's delete requests not yet sent */
  guint      next;             /* the first of them not yet sent */
  gboolean   done;
} Segment;

struct _Truncate {
  GTask                  *task;
  DynClient              *client;
  char                   *table;
  DynTableKeys           *keys;
  DynRateLimiter         *limiter;
  DynTransferProgress     progress;
  DynTransferProgressFunc progress_func;
  gpointer                progress_data;
  gint64                  started;
  guint                   progress_id;
  Segment                *segments;
  guint                   n_segments;
  guint                   running;
  GError                 *failure;
};

static void
truncate_free (gpointer data)
{
  Truncate *t = data;

  for (guint i = 0; i < t->n_segments; i++)
    {
      g_clear_pointer (&t->segments[i].start_key, json_node_unref);
      g_clear_pointer (&t->segments[i].deletes, json_array_unref);
    }
  g_free (t->segments);
  g_clear_object (&t->client);
  g_free (t->table);
  g_clear_pointer (&t->keys, dyn_table_keys_free);
  g_clear_pointer (&t->limiter, dyn_rate_limiter_free);
  g_clear_error (&t->failure);
  g_free (t);
}

static void
emit (Truncate *t)
{
  t->progress.elapsed = (g_get_monotonic_time () - t->started) / (double) G_USEC_PER_SEC;
  t->progress.eta = -1;
  if (!t->progress.finished && t->progress.items_total > t->progress.items && t->progress.items > 0)
    t->progress.eta = t->progress.elapsed * (t->progress.items_total - t->progress.items) / t->progress.items;
  if (t->progress_func != NULL)
    t->progress_func (&t->progress, t->progress_data);
}

static gboolean
progress_cb (gpointer user_data)
{
  emit (user_data);
  return G_SOURCE_CONTINUE;
}

static void
segment_finished (Segment *s,
                  GError  *error)
{
  Truncate *t = s->truncate;

  s->done = TRUE;
  t->running--;
  if (error != NULL && t->failure == NULL)
    t->failure = error;
  else if (error != NULL)
    g_error_free (error);
  else if (t->failure == NULL)
    t->progress.segments_done++;
  if (t->running == 0)
    {
      GTask *task = t->task;

      if (t->progress_id != 0)
        {
          GSource *source = g_main_context_find_source_by_id (g_task_get_context (task), t->progress_id);
          if (source != NULL)
            g_source_destroy (source);
          t->progress_id = 0;
        }
      t->progress.finished = TRUE;
      emit (t);
      if (t->failure != NULL)
        g_task_return_error (task, g_steal_pointer (&t->failure));
      else
        g_task_return_boolean (task, TRUE);
      g_object_unref (task);
    }
}

static void segment_scan (Segment *s);
static void segment_delete (Segment *s);

static void
delete_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Segment *s = user_data;
  Truncate *t = s->truncate;
  GError *error = NULL;
  guint sent = MIN (25u, json_array_get_length (s->deletes) - s->next);

  if (!_dyn_transfer_batch_write_finish (result, &error))
    {
      segment_finished (s, error);
      return;
    }
  t->progress.items += sent;
  s->next += sent;
  segment_delete (s);
}

static void
segment_delete (Segment *s)
{
  Truncate *t = s->truncate;
  guint n = s->deletes != NULL ? json_array_get_length (s->deletes) : 0;
  g_autoptr(JsonArray) chunk = NULL;

  if (t->failure != NULL)
    {
      segment_finished (s, NULL);
      return;
    }
  if (s->next >= n)
    {
      g_clear_pointer (&s->deletes, json_array_unref);
      if (s->last_page)
        segment_finished (s, NULL);
      else
        segment_scan (s);
      return;
    }
  chunk = json_array_new ();
  for (guint i = s->next; i < n && i < s->next + 25; i++)
    json_array_add_element (chunk, json_node_copy (json_array_get_element (s->deletes, i)));
  /* A delete costs 1 WCU per KB of the item: 1 is the estimate, the
   * settle corrects it with what was reported. */
  _dyn_transfer_batch_write_async (t->client, t->table, chunk, json_array_get_length (chunk), t->limiter,
                                   &t->progress, g_task_get_cancellable (t->task), delete_cb, s);
}

static void
scan_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Segment *s = user_data;
  Truncate *t = s->truncate;
  GError *error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  JsonNode *last;

  if (response == NULL)
    {
      segment_finished (s, error);
      return;
    }
  t->progress.requests += response->attempts;
  if (response->attempts > 1)
    t->progress.retries += response->attempts - 1;
  t->progress.read_units += response->read_units;
  last = json_object_get_member (json_node_get_object (response->root), "LastEvaluatedKey");
  g_clear_pointer (&s->start_key, json_node_unref);
  if (last != NULL && !JSON_NODE_HOLDS_NULL (last))
    s->start_key = json_node_copy (last);
  else
    s->last_page = TRUE;

  s->deletes = json_array_new ();
  s->next = 0;
  for (guint i = 0; response->items != NULL && i < response->items->len; i++)
    {
      JsonObject *del = json_object_new ();
      JsonObject *request = json_object_new ();

      json_object_set_member (del, "Key", dyn_item_to_ddb_json (g_ptr_array_index (response->items, i)));
      json_object_set_object_member (request, "DeleteRequest", del);
      json_array_add_object_element (s->deletes, request);
    }
  segment_delete (s);
}

static void
segment_scan (Segment *s)
{
  Truncate *t = s->truncate;
  const DynKeySchema *schema = &t->keys->table.keys;
  JsonObject *params = json_object_new ();
  JsonObject *names = json_object_new ();
  g_autoptr(GString) projection = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;

  if (g_task_get_cancellable (t->task) != NULL && g_cancellable_is_cancelled (g_task_get_cancellable (t->task)))
    {
      GError *error = NULL;
      g_cancellable_set_error_if_cancelled (g_task_get_cancellable (t->task), &error);
      json_object_unref (params);
      json_object_unref (names);
      segment_finished (s, error);
      return;
    }
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (schema); i++)
    {
      g_autofree char *placeholder = g_strdup_printf ("#k%u", i);

      json_object_set_string_member (names, placeholder, dyn_key_schema_get_attribute (schema, i, NULL));
      g_string_append_printf (projection, "%s%s", i > 0 ? ", " : "", placeholder);
    }
  json_object_set_string_member (params, "TableName", t->table);
  json_object_set_string_member (params, "ProjectionExpression", projection->str);
  json_object_set_object_member (params, "ExpressionAttributeNames", names);
  json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
  if (t->n_segments > 1)
    {
      json_object_set_int_member (params, "Segment", s->index);
      json_object_set_int_member (params, "TotalSegments", t->n_segments);
    }
  if (s->start_key != NULL)
    json_object_set_member (params, "ExclusiveStartKey", json_node_copy (s->start_key));
  node = json_node_init_object (json_node_alloc (), params);
  json_object_unref (params);
  dyn_client_call_async (t->client, "Scan", node, g_task_get_cancellable (t->task), scan_cb, s);
}

void
dyn_transfer_truncate_async (DynClient              *client,
                             const char             *table,
                             const DynTableKeys     *keys,
                             guint                   segments,
                             double                  max_wcu,
                             GCancellable           *cancellable,
                             DynTransferProgressFunc progress,
                             gpointer                progress_data,
                             GAsyncReadyCallback     callback,
                             gpointer                user_data)
{
  GTask *task;
  Truncate *t;
  g_autoptr(GSource) source = NULL;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (table != NULL && keys != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_transfer_truncate_async);
  t = g_new0 (Truncate, 1);
  g_task_set_task_data (task, t, truncate_free);
  t->task = task;
  t->client = g_object_ref (client);
  t->table = g_strdup (table);
  t->keys = dyn_table_keys_copy (keys);
  t->progress_func = progress;
  t->progress_data = progress_data;
  t->started = g_get_monotonic_time ();
  t->progress.eta = -1;
  if (max_wcu > 0)
    t->limiter = dyn_rate_limiter_new (max_wcu);
  if (keys->table.keys.partition_key == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The table's key is not known"));
      g_object_unref (task);
      return;
    }
  t->n_segments = CLAMP (segments, 1, MAX_SEGMENTS);
  t->progress.segments = t->n_segments;
  t->segments = g_new0 (Segment, t->n_segments);
  source = g_timeout_source_new (PROGRESS_INTERVAL_MS);
  g_source_set_callback (source, progress_cb, t, NULL);
  t->progress_id = g_source_attach (source, g_task_get_context (task));
  t->running = t->n_segments;
  for (guint i = 0; i < t->n_segments; i++)
    {
      t->segments[i].truncate = t;
      t->segments[i].index = i;
    }
  for (guint i = 0; i < t->n_segments; i++)
    segment_scan (&t->segments[i]);
}

gboolean
dyn_transfer_truncate_finish (GAsyncResult         *result,
                              DynTransferProgress  *out,
                              GError              **error)
{
  Truncate *t;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  t = g_task_get_task_data (G_TASK (result));
  if (out != NULL)
    *out = t->progress;
  return g_task_propagate_boolean (G_TASK (result), error);
}
