/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "dyn-pager.h"
#include "dyn-transfer-private.h"

/* The parallel scan engine: see dyn-transfer-private.h. */

#define MAX_SEGMENTS 64

typedef struct
{
  DynTransferScan *scan;       /* borrowed */
  guint            index;
  DynPager        *pager;
  DynValue        *start_key;
  gboolean         done;
  double           estimate;   /* RCU reserved for the request in flight */
  double           last_units; /* what the previous page consumed */
  DynReadStats     before;     /* the pager's stats before the request in flight */
} Lane;

struct _DynTransferScan
{
  GObject          parent_instance;

  DynClient       *client;
  DynRequest      *request;
  guint            n_lanes;
  Lane            *lanes;
  DynRateLimiter  *limiter;
  guint            lanes_done;

  /* while running */
  GTask                  *task;
  DynTransferScanPageFunc page_func;
  gpointer                page_data;
  GCancellable           *cancellable;   /* ours, chained to the caller's */
  GCancellable           *outer;
  gulong                  chain_id;
  guint                   running;
  GError                 *error;
};

G_DEFINE_FINAL_TYPE (DynTransferScan, dyn_transfer_scan, G_TYPE_OBJECT)

static void
dyn_transfer_scan_finalize (GObject *object)
{
  DynTransferScan *self = DYN_TRANSFER_SCAN (object);

  for (guint i = 0; i < self->n_lanes; i++)
    {
      g_clear_object (&self->lanes[i].pager);
      g_clear_pointer (&self->lanes[i].start_key, dyn_value_unref);
    }
  g_free (self->lanes);
  g_clear_pointer (&self->limiter, dyn_rate_limiter_free);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_object (&self->client);
  G_OBJECT_CLASS (dyn_transfer_scan_parent_class)->finalize (object);
}

static void
dyn_transfer_scan_class_init (DynTransferScanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_transfer_scan_finalize;
}

static void
dyn_transfer_scan_init (DynTransferScan *self)
{
}

DynTransferScan *
dyn_transfer_scan_new (DynClient        *client,
                       const DynRequest *request,
                       guint             segments)
{
  DynTransferScan *self;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->op == DYN_OP_SCAN || request->op == DYN_OP_QUERY, NULL);

  self = g_object_new (DYN_TYPE_TRANSFER_SCAN, NULL);
  self->client = g_object_ref (client);
  self->request = dyn_request_copy (request);
  self->request->segment = 0;
  self->request->total_segments = 0;
  dyn_request_set_exclusive_start_key (self->request, NULL);
  self->request->return_consumed_capacity = TRUE;
  self->n_lanes = request->op == DYN_OP_SCAN ? CLAMP (segments, 1, MAX_SEGMENTS) : 1;
  self->lanes = g_new0 (Lane, self->n_lanes);
  for (guint i = 0; i < self->n_lanes; i++)
    {
      self->lanes[i].scan = self;
      self->lanes[i].index = i;
      self->lanes[i].last_units = 1;
    }
  return self;
}

guint
dyn_transfer_scan_get_lanes (DynTransferScan *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_SCAN (self), 0);
  return self->n_lanes;
}

guint
dyn_transfer_scan_get_lanes_done (DynTransferScan *self)
{
  g_return_val_if_fail (DYN_IS_TRANSFER_SCAN (self), 0);
  return self->lanes_done;
}

void
dyn_transfer_scan_set_start_key (DynTransferScan *self,
                                 guint            lane,
                                 DynValue        *key)
{
  g_return_if_fail (DYN_IS_TRANSFER_SCAN (self));
  g_return_if_fail (lane < self->n_lanes);
  g_return_if_fail (self->task == NULL);

  g_clear_pointer (&self->lanes[lane].start_key, dyn_value_unref);
  if (key != NULL)
    self->lanes[lane].start_key = dyn_value_ref (key);
}

void
dyn_transfer_scan_set_lane_done (DynTransferScan *self,
                                 guint            lane)
{
  g_return_if_fail (DYN_IS_TRANSFER_SCAN (self));
  g_return_if_fail (lane < self->n_lanes);
  g_return_if_fail (self->task == NULL);

  if (!self->lanes[lane].done)
    {
      self->lanes[lane].done = TRUE;
      self->lanes_done++;
    }
}

void
dyn_transfer_scan_set_max_rcu (DynTransferScan *self,
                               double           max_rcu)
{
  g_return_if_fail (DYN_IS_TRANSFER_SCAN (self));

  g_clear_pointer (&self->limiter, dyn_rate_limiter_free);
  if (max_rcu > 0)
    self->limiter = dyn_rate_limiter_new (max_rcu);
}

/* Running ------------------------------------------------------------------ */

static void lane_request (Lane *lane);

static void
run_cleanup (DynTransferScan *self)
{
  if (self->outer != NULL && self->chain_id != 0)
    g_cancellable_disconnect (self->outer, self->chain_id);
  self->chain_id = 0;
  g_clear_object (&self->outer);
  g_clear_object (&self->cancellable);
}

static void
lane_stop (Lane   *lane,
           GError *error)
{
  DynTransferScan *self = lane->scan;
  GTask *task;

  if (error != NULL)
    {
      /* The first error wins; the other lanes are stopped. */
      if (self->error == NULL)
        self->error = error;
      else
        g_error_free (error);
      g_cancellable_cancel (self->cancellable);
    }

  if (--self->running > 0)
    return;

  task = g_steal_pointer (&self->task);
  run_cleanup (self);
  if (self->error != NULL)
    g_task_return_error (task, g_steal_pointer (&self->error));
  else if (g_task_return_error_if_cancelled (task))
    ;
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Lane *lane = user_data;
  DynTransferScan *self = lane->scan;
  g_autoptr(GPtrArray) items = NULL;
  const DynReadStats *before = &lane->before;
  const DynReadStats *after;
  DynTransferScanPage page = { 0 };
  GError *error = NULL;

  items = dyn_pager_next_finish (lane->pager, result, &error);
  after = dyn_pager_get_stats (lane->pager);

  if (self->limiter != NULL)
    dyn_rate_limiter_settle (self->limiter, lane->estimate, after->read_units - before->read_units);
  lane->estimate = 0;

  if (items == NULL)
    {
      lane_stop (lane, error);
      return;
    }
  lane->last_units = MAX (after->read_units - before->read_units, 0.5);

  page.lane = lane->index;
  page.items = items;
  page.last_key = dyn_pager_is_done (lane->pager) ? NULL : dyn_pager_get_last_key (lane->pager);
  page.count = after->counted - before->counted;
  page.scanned = after->scanned - before->scanned;
  page.read_units = after->read_units - before->read_units;
  page.requests = after->requests - before->requests;
  if (page.last_key == NULL)
    {
      lane->done = TRUE;
      self->lanes_done++;
    }

  /* A page that arrived is always handed out, also after a cancel, so that
   * what the caller recorded matches what was read. */
  if (self->page_func != NULL && !self->page_func (&page, self->page_data, &error))
    {
      lane_stop (lane, error);
      return;
    }

  if (lane->done || g_cancellable_is_cancelled (self->cancellable))
    {
      lane_stop (lane, NULL);
      return;
    }
  lane_request (lane);
}

static gboolean
lane_wait_cb (gpointer user_data)
{
  lane_request (user_data);
  return G_SOURCE_REMOVE;
}

static void
lane_request (Lane *lane)
{
  DynTransferScan *self = lane->scan;

  if (g_cancellable_is_cancelled (self->cancellable))
    {
      lane_stop (lane, NULL);
      return;
    }

  if (self->limiter != NULL)
    {
      gint64 wait = dyn_rate_limiter_reserve (self->limiter, lane->last_units);

      if (wait > 0)
        {
          /* Look at the cancellable at least every 100 ms while waiting. */
          GSource *source = g_timeout_source_new ((guint) MIN ((wait + 999) / 1000, 100));

          g_source_set_callback (source, lane_wait_cb, lane, NULL);
          g_source_attach (source, g_task_get_context (self->task));
          g_source_unref (source);
          return;
        }
      lane->estimate = lane->last_units;
    }

  lane->before = *dyn_pager_get_stats (lane->pager);
  dyn_pager_next_async (lane->pager, self->cancellable, page_cb, lane);
}

static void
outer_cancelled_cb (GCancellable *outer,
                    GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

void
dyn_transfer_scan_run_async (DynTransferScan         *self,
                             DynTransferScanPageFunc  page_func,
                             gpointer                 page_data,
                             GCancellable            *cancellable,
                             GAsyncReadyCallback      callback,
                             gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (DYN_IS_TRANSFER_SCAN (self));
  g_return_if_fail (self->task == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_transfer_scan_run_async);

  self->page_func = page_func;
  self->page_data = page_data;
  self->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      self->outer = g_object_ref (cancellable);
      self->chain_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                              self->cancellable, NULL);
    }

  self->running = 0;
  for (guint i = 0; i < self->n_lanes; i++)
    if (!self->lanes[i].done)
      self->running++;
  if (self->running == 0)
    {
      run_cleanup (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  self->task = g_steal_pointer (&task);
  for (guint i = 0; i < self->n_lanes; i++)
    {
      Lane *lane = &self->lanes[i];
      g_autoptr(DynRequest) request = NULL;

      if (lane->done)
        continue;
      request = dyn_request_copy (self->request);
      if (self->n_lanes > 1)
        {
          request->segment = i;
          request->total_segments = self->n_lanes;
        }
      g_clear_object (&lane->pager);
      lane->pager = dyn_pager_new (self->client, request);
      if (lane->start_key != NULL)
        dyn_pager_set_start_key (lane->pager, lane->start_key);
    }
  /* Every pager exists before the first request: a lane that fails at once
   * (a cancelled cancellable) must not finish the run while others start. */
  self->running++;
  for (guint i = 0; i < self->n_lanes; i++)
    if (!self->lanes[i].done)
      lane_request (&self->lanes[i]);
  {
    Lane guard = { .scan = self };
    lane_stop (&guard, NULL);
  }
}

gboolean
dyn_transfer_scan_run_finish (DynTransferScan  *self,
                              GAsyncResult     *result,
                              GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_transfer_scan_run_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Estimates ----------------------------------------------------------------- */

double
dyn_transfer_estimate_scan_rcu (guint64  size_bytes,
                                gboolean consistent)
{
  guint64 blocks = (size_bytes + 4095) / 4096;

  return blocks * (consistent ? 1.0 : 0.5);
}

void
dyn_transfer_estimate_truncate (guint64  item_count,
                                guint64  size_bytes,
                                double  *read_units,
                                double  *write_units)
{
  /* The keys-only Scan reads (and pays for) the whole items all the same. */
  if (read_units != NULL)
    *read_units = dyn_transfer_estimate_scan_rcu (size_bytes, FALSE);
  if (write_units != NULL)
    {
      guint64 average = item_count > 0 ? (size_bytes + item_count - 1) / item_count : 0;

      *write_units = (double) item_count * MAX ((average + 1023) / 1024, 1);
    }
}

/* The exact count ----------------------------------------------------------- */

typedef struct
{
  DynTransferScan        *scan;
  DynCountResult          result;
  DynTransferProgressFunc progress;
  gpointer                progress_data;
  gint64                  started;
  gint64                  reported;
} Count;

static void
count_free (Count *count)
{
  g_clear_object (&count->scan);
  g_free (count);
}

static void
count_report (Count    *count,
              gboolean  finished)
{
  DynTransferProgress p = { 0 };
  gint64 now = g_get_monotonic_time ();

  if (count->progress == NULL)
    return;
  if (!finished && now - count->reported < 200 * G_TIME_SPAN_MILLISECOND)
    return;
  count->reported = now;
  p.items = count->result.count;
  p.read_units = count->result.read_units;
  p.requests = count->result.requests;
  p.segments = dyn_transfer_scan_get_lanes (count->scan);
  p.segments_done = dyn_transfer_scan_get_lanes_done (count->scan);
  p.elapsed = (double) (now - count->started) / G_USEC_PER_SEC;
  p.eta = -1;
  p.finished = finished;
  count->progress (&p, count->progress_data);
}

static gboolean
count_page_cb (const DynTransferScanPage *page,
               gpointer                   user_data,
               GError                   **error)
{
  Count *count = user_data;

  count->result.count += page->count;
  count->result.scanned += page->scanned;
  count->result.read_units += page->read_units;
  count->result.requests += page->requests;
  count_report (count, FALSE);
  return TRUE;
}

static void
count_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Count *count = g_task_get_task_data (task);
  GError *error = NULL;

  if (!dyn_transfer_scan_run_finish (DYN_TRANSFER_SCAN (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  count_report (count, TRUE);
  g_task_return_boolean (task, TRUE);
}

/* Whether @placeholder ("#n1") occurs in @expression as a whole token. */
static gboolean
uses_placeholder (const char *expression,
                  const char *placeholder)
{
  gsize len = strlen (placeholder);

  for (const char *p = expression; p != NULL && (p = strstr (p, placeholder)) != NULL; p += len)
    if (!g_ascii_isalnum (p[len]) && p[len] != '_')
      return TRUE;
  return FALSE;
}

/* Removes the projection and the names only it used (DynamoDB refuses
 * unused placeholders). */
static void
drop_projection (DynRequest *request)
{
  if (request->projection == NULL)
    return;
  if (request->names != NULL)
    {
      g_autoptr(GPtrArray) unused = g_ptr_array_new ();
      GHashTableIter iter;
      gpointer placeholder;

      g_hash_table_iter_init (&iter, request->names);
      while (g_hash_table_iter_next (&iter, &placeholder, NULL))
        if (!uses_placeholder (request->key_condition, placeholder) &&
            !uses_placeholder (request->filter, placeholder))
          g_ptr_array_add (unused, placeholder);
      for (guint i = 0; i < unused->len; i++)
        g_hash_table_remove (request->names, unused->pdata[i]);
    }
  g_clear_pointer (&request->projection, g_free);
}

void
dyn_transfer_count_async (DynClient              *client,
                          const DynRequest       *request,
                          guint                   segments,
                          GCancellable           *cancellable,
                          DynTransferProgressFunc progress,
                          gpointer                progress_data,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(DynRequest) counting = NULL;
  Count *count;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (request != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_transfer_count_async);

  counting = dyn_request_copy (request);
  g_free (counting->select);
  counting->select = g_strdup ("COUNT");
  /* Select=COUNT takes no projection; a Limit would only make pages small. */
  drop_projection (counting);
  counting->limit = 0;

  count = g_new0 (Count, 1);
  count->scan = dyn_transfer_scan_new (client, counting, MAX (segments, 1));
  count->progress = progress;
  count->progress_data = progress_data;
  count->started = g_get_monotonic_time ();
  g_task_set_task_data (task, count, (GDestroyNotify) count_free);

  dyn_transfer_scan_run_async (count->scan, count_page_cb, count, cancellable,
                               count_done_cb, g_steal_pointer (&task));
}

gboolean
dyn_transfer_count_finish (GAsyncResult    *result,
                           DynCountResult  *out,
                           GError         **error)
{
  GTask *task = G_TASK (result);

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (task) == dyn_transfer_count_async, FALSE);

  if (!g_task_propagate_boolean (task, error))
    return FALSE;
  if (out != NULL)
    *out = ((Count *) g_task_get_task_data (task))->result;
  return TRUE;
}
