/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-pager"

#include "config.h"

#include "dyn-pager.h"

#include <string.h>

struct _DynPager
{
  GObject       parent_instance;

  DynClient    *client;
  DynRequest   *request;
  DynReadStats  stats;
  DynValue     *last_key;
  gboolean      done;
  gboolean      first_page_only;

  /* Max items: how many the caller wants, how many it got, and what the
   * last page brought beyond that (handed out first when the max is raised). */
  guint64       max_items;
  guint64       delivered;
  GPtrArray    *held;

  /* Fan-out. */
  char         *pk_placeholder;
  GPtrArray    *pk_values;
  GStrv         sort_keys;       /* the sort attributes to merge shards by, in key order */
};

G_DEFINE_FINAL_TYPE (DynPager, dyn_pager, G_TYPE_OBJECT)

static void
append_count (GString    *s,
              guint64     n,
              const char *one,
              const char *many)
{
  g_string_append_printf (s, " · %" G_GUINT64_FORMAT " %s", n, n == 1 ? one : many);
}

static void
append_units (GString    *s,
              double      units,
              const char *name)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Capacity comes in halves and whole units; one decimal at most reads best. */
  g_ascii_formatd (buf, sizeof buf, units == (gint64) units ? "%.0f" : "%.1f", units);
  g_string_append_printf (s, " · %s %s", buf, name);
}

char *
dyn_read_stats_describe (const DynReadStats *stats,
                         const char         *operation)
{
  GString *s = g_string_new (operation);

  append_count (s, stats->requests, "request", "requests");
  append_count (s, stats->pages, "page", "pages");
  if (stats->read_units > 0 || stats->write_units == 0)
    append_units (s, stats->read_units, "RCU");
  if (stats->write_units > 0)
    append_units (s, stats->write_units, "WCU");
  append_count (s, stats->items - MIN (stats->surplus, stats->items), "item", "items");
  if (stats->scanned != stats->items && stats->surplus > 0)
    g_string_append_printf (s, " (%" G_GUINT64_FORMAT " scanned, %" G_GUINT64_FORMAT " more read)",
                            stats->scanned, stats->surplus);
  else if (stats->scanned != stats->items)
    g_string_append_printf (s, " (%" G_GUINT64_FORMAT " scanned)", stats->scanned);
  else if (stats->surplus > 0)
    g_string_append_printf (s, " (%" G_GUINT64_FORMAT " more read)", stats->surplus);
  return g_string_free (s, FALSE);
}

static void
dyn_pager_finalize (GObject *object)
{
  DynPager *self = DYN_PAGER (object);

  g_clear_object (&self->client);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_pointer (&self->last_key, dyn_value_unref);
  g_clear_pointer (&self->held, g_ptr_array_unref);
  g_free (self->pk_placeholder);
  g_clear_pointer (&self->pk_values, g_ptr_array_unref);
  g_strfreev (self->sort_keys);

  G_OBJECT_CLASS (dyn_pager_parent_class)->finalize (object);
}

static void
dyn_pager_class_init (DynPagerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_pager_finalize;
}

static void
dyn_pager_init (DynPager *self)
{
  self->held = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
}

/* Max items ---------------------------------------------------------------- */

/* A COUNT read returns no items, so a max of items can never be reached. */
static gboolean
has_max (DynPager *self)
{
  return self->max_items > 0 &&
         !(self->request->select != NULL && strcmp (self->request->select, "COUNT") == 0);
}

static guint64
still_wanted (DynPager *self)
{
  return self->delivered >= self->max_items ? 0 : self->max_items - self->delivered;
}

/* A small first page, then full ones: once a page has come, the request's
 * Limit was the first page's. */
static void
end_first_page (DynPager *self)
{
  if (self->first_page_only && self->stats.pages > 0)
    self->request->limit = 0;
}

/* The Limit for a request when @wanted more items are needed. Limit counts
 * the items a request evaluates, before the filter: with a filter a small
 * Limit only splits the same read into more requests, so pages stay full (or
 * the request's own Limit, the page size). Without a filter every evaluated
 * item is returned, and asking for just the items still wanted is exact. */
static gint64
page_limit (DynPager *self,
            guint64   wanted)
{
  gint64 page = self->request->limit;

  /* A GetItem has no Limit. */
  if (self->request->op == DYN_OP_GET_ITEM)
    return 0;
  if (!has_max (self) || self->request->filter != NULL)
    return page;
  wanted = MIN (wanted, (guint64) G_MAXINT32);
  if (page <= 0 || (guint64) page > wanted)
    return wanted;
  return page;
}

/* Hands out what is still wanted of the held items into @out. */
static void
take_held (DynPager  *self,
           GPtrArray *out)
{
  guint n = self->held->len;

  if (has_max (self))
    n = MIN (n, still_wanted (self));
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (out, dyn_value_ref (self->held->pdata[i]));
  g_ptr_array_remove_range (self->held, 0, n);
  self->stats.surplus -= n;
  self->delivered += n;
}

/* Cuts @items to @wanted, counting the rest as surplus and, with @hold,
 * keeping it for later. */
static void
keep_wanted (DynPager  *self,
             GPtrArray *items,
             guint64    wanted,
             gboolean   hold)
{
  if (!has_max (self) || items->len <= wanted)
    return;
  for (guint i = wanted; hold && i < items->len; i++)
    g_ptr_array_add (self->held, dyn_value_ref (items->pdata[i]));
  self->stats.surplus += items->len - wanted;
  g_ptr_array_set_size (items, wanted);
}

DynPager *
dyn_pager_new (DynClient        *client,
               const DynRequest *request)
{
  DynPager *self;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->op == DYN_OP_QUERY || request->op == DYN_OP_SCAN ||
                        request->op == DYN_OP_GET_ITEM, NULL);

  self = g_object_new (DYN_TYPE_PAGER, NULL);
  self->client = g_object_ref (client);
  self->request = dyn_request_copy (request);
  if (request->exclusive_start_key != NULL)
    self->last_key = dyn_value_ref (request->exclusive_start_key);
  return self;
}

DynPager *
dyn_pager_new_fan_out (DynClient        *client,
                       const DynRequest *request,
                       const char       *pk_placeholder,
                       GPtrArray        *pk_values,
                       const char       *sort_key)
{
  DynPager *self;

  g_return_val_if_fail (request->op == DYN_OP_QUERY, NULL);
  g_return_val_if_fail (pk_placeholder != NULL && pk_values != NULL && pk_values->len > 0, NULL);

  self = dyn_pager_new (client, request);
  self->pk_placeholder = g_strdup (pk_placeholder);
  self->pk_values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  for (guint i = 0; i < pk_values->len; i++)
    g_ptr_array_add (self->pk_values, dyn_value_ref (pk_values->pdata[i]));
  if (sort_key != NULL)
    {
      const char *one[] = { sort_key, NULL };

      self->sort_keys = g_strdupv ((GStrv) one);
    }
  return self;
}

void
dyn_pager_set_merge_keys (DynPager           *self,
                          const char * const *sort_keys)
{
  g_return_if_fail (DYN_IS_PAGER (self));

  g_strfreev (self->sort_keys);
  self->sort_keys = sort_keys != NULL && sort_keys[0] != NULL ? g_strdupv ((GStrv) sort_keys) : NULL;
}

const DynRequest *
dyn_pager_get_request (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), NULL);
  return self->request;
}

const DynReadStats *
dyn_pager_get_stats (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), NULL);
  return &self->stats;
}

gboolean
dyn_pager_is_done (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), TRUE);
  return self->done && self->held->len == 0;
}

void
dyn_pager_set_max_items (DynPager *self,
                         guint64   max_items)
{
  g_return_if_fail (DYN_IS_PAGER (self));
  self->max_items = max_items;
}

guint64
dyn_pager_get_max_items (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), 0);
  return self->max_items;
}

gboolean
dyn_pager_is_full (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), FALSE);
  return has_max (self) && self->delivered >= self->max_items;
}

DynValue *
dyn_pager_get_last_key (DynPager *self)
{
  g_return_val_if_fail (DYN_IS_PAGER (self), NULL);
  return self->last_key;
}

void
dyn_pager_set_start_key (DynPager *self,
                         DynValue *key)
{
  g_return_if_fail (DYN_IS_PAGER (self));

  g_clear_pointer (&self->last_key, dyn_value_unref);
  if (key != NULL)
    self->last_key = dyn_value_ref (key);
  self->done = FALSE;
  /* Held items belong to the old position. */
  self->stats.surplus -= MIN (self->stats.surplus, self->held->len);
  g_ptr_array_set_size (self->held, 0);
}

void
dyn_pager_set_page_limit (DynPager *self,
                          gint64    limit)
{
  g_return_if_fail (DYN_IS_PAGER (self));
  g_return_if_fail (limit >= 0);

  self->request->limit = limit;
}

void
dyn_pager_set_first_page_only (DynPager *self,
                               gboolean  first_page_only)
{
  g_return_if_fail (DYN_IS_PAGER (self));
  self->first_page_only = first_page_only;
}

/* Counts a response into the stats and returns its LastEvaluatedKey (new
 * ref) or NULL. A GetItem's item becomes the page's items. */
static DynValue *
account (DynPager     *self,
         DynResponse  *response,
         GError      **error)
{
  DynReadStats *stats = &self->stats;
  JsonObject *obj = json_node_get_object (response->root);
  JsonNode *lek = json_object_get_member (obj, "LastEvaluatedKey");
  guint n;

  if (self->request->op == DYN_OP_GET_ITEM)
    {
      g_clear_pointer (&response->items, g_ptr_array_unref);
      response->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      if (response->item != NULL)
        g_ptr_array_add (response->items, dyn_value_ref (response->item));
      lek = NULL;
    }
  n = response->items ? response->items->len : 0;
  stats->requests += response->attempts;
  stats->pages++;
  stats->items += n;
  stats->scanned += json_object_get_int_member_with_default (obj, "ScannedCount", n);
  stats->counted += json_object_get_int_member_with_default (obj, "Count", n);
  stats->read_units += response->read_units;
  stats->write_units += response->write_units;

  if (lek == NULL || JSON_NODE_HOLDS_NULL (lek))
    return NULL;
  return dyn_item_from_ddb_json (lek, error);
}

/* One page of one request ------------------------------------------------- */

static void
next_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynPager *self = g_task_get_source_object (task);
  g_autoptr(DynResponse) response = NULL;
  GError *error = NULL;
  DynValue *key;

  response = dyn_client_execute_finish (DYN_CLIENT (object), result, &error);
  if (response == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  key = account (self, response, &error);
  if (key == NULL && error != NULL)
    {
      g_prefix_error (&error, "%s: ", "LastEvaluatedKey");
      g_task_return_error (task, error);
      return;
    }
  g_clear_pointer (&self->last_key, dyn_value_unref);
  self->last_key = key;
  self->done = (key == NULL);

  if (response->items == NULL)
    response->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  keep_wanted (self, response->items, still_wanted (self), TRUE);
  self->delivered += response->items->len;
  g_task_return_pointer (task, g_steal_pointer (&response->items), (GDestroyNotify) g_ptr_array_unref);
}

void
dyn_pager_next_async (DynPager            *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  gint64 page_size;

  g_return_if_fail (DYN_IS_PAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_pager_next_async);
  if (self->held->len > 0 || self->done || dyn_pager_is_full (self))
    {
      GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

      take_held (self, items);
      g_task_return_pointer (task, items, (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  dyn_request_set_exclusive_start_key (self->request, self->last_key);
  end_first_page (self);
  /* The request is written out at once: the page's Limit need not outlive the call. */
  page_size = self->request->limit;
  self->request->limit = page_limit (self, still_wanted (self));
  dyn_client_execute_async (self->client, self->request, cancellable, next_cb, g_steal_pointer (&task));
  self->request->limit = page_size;
}

GPtrArray *
dyn_pager_next_finish (DynPager      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_pager_next_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Running to the end, in lanes --------------------------------------------- */

typedef struct
{
  DynPageFunc   page_func;
  gpointer      page_data;
  gboolean      single;     /* one lane from the pager's position: it moves on with it */
  guint         running;
  GError       *error;
  GPtrArray    *merged;     /* fan-out: every item, merged at the end */
  GCancellable *cancellable; /* ours, chained to the caller's, stops sibling lanes */
  gulong        chain_id;
  GCancellable *outer;
} Run;

typedef struct
{
  GTask      *task;       /* borrowed from the Run's owner reference */
  DynRequest *request;
  guint64     count;      /* fan-out: the items this shard contributed */
} Lane;

static void
run_free (Run *run)
{
  if (run->outer != NULL && run->chain_id != 0)
    g_cancellable_disconnect (run->outer, run->chain_id);
  g_clear_object (&run->outer);
  g_clear_object (&run->cancellable);
  g_clear_error (&run->error);
  g_clear_pointer (&run->merged, g_ptr_array_unref);
  g_free (run);
}

static void lane_next (GTask *task, Lane *lane);

/* Items in the order of the sort attributes, left to right; a missing value
 * sorts first. */
static int
compare_by_sort_key (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  DynPager *self = user_data;
  DynValue *ia = *(DynValue **) a;
  DynValue *ib = *(DynValue **) b;
  int c = 0;

  for (guint i = 0; c == 0 && self->sort_keys[i] != NULL; i++)
    {
      DynValue *va = dyn_value_map_lookup (ia, self->sort_keys[i]);
      DynValue *vb = dyn_value_map_lookup (ib, self->sort_keys[i]);

      if (va == NULL || vb == NULL)
        c = (va != NULL) - (vb != NULL);
      else
        c = dyn_value_compare (va, vb);
    }
  return self->request->scan_forward ? c : -c;
}

static void
lane_finished (GTask *task,
               Lane  *lane)
{
  DynPager *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);

  dyn_request_free (lane->request);
  g_free (lane);

  if (--run->running > 0)
    return;

  if (run->error != NULL)
    g_task_return_error (task, g_steal_pointer (&run->error));
  else
    {
      if (run->merged != NULL)
        {
          if (self->sort_keys != NULL)
            g_ptr_array_sort_with_data (run->merged, compare_by_sort_key, self);
          keep_wanted (self, run->merged, still_wanted (self), FALSE);
          self->delivered += run->merged->len;
          if (run->page_func != NULL)
            run->page_func (run->merged, run->page_data);
        }
      /* Segments and shards cannot be resumed; a single lane kept its position. */
      if (!run->single)
        self->done = TRUE;
      g_task_return_boolean (task, TRUE);
    }
  g_object_unref (task);
}

static void
lane_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Lane *lane = user_data;
  GTask *task = lane->task;
  DynPager *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) key = NULL;
  GError *error = NULL;

  response = dyn_client_execute_finish (DYN_CLIENT (object), result, &error);
  if (response != NULL)
    key = account (self, response, &error);

  if (error != NULL)
    {
      /* The first error wins; the other lanes are stopped. */
      if (run->error == NULL)
        run->error = error;
      else
        g_error_free (error);
      g_cancellable_cancel (run->cancellable);
      lane_finished (task, lane);
      return;
    }

  if (response->items != NULL && response->items->len > 0)
    {
      if (run->merged != NULL)
        {
          /* A shard's first max items are all it can add to the merged first max. */
          if (has_max (self))
            keep_wanted (self, response->items, self->max_items - MIN (lane->count, self->max_items), FALSE);
          lane->count += response->items->len;
          g_ptr_array_extend_and_steal (run->merged, g_steal_pointer (&response->items));
        }
      else
        {
          /* In-flight pages of other segments may still arrive after the
           * max is reached: they are counted, and their items dropped. */
          keep_wanted (self, response->items, still_wanted (self), run->single);
          self->delivered += response->items->len;
          if (run->page_func != NULL && response->items->len > 0)
            run->page_func (response->items, run->page_data);
        }
    }
  if (run->single)
    {
      g_clear_pointer (&self->last_key, dyn_value_unref);
      self->last_key = key ? dyn_value_ref (key) : NULL;
      self->done = (key == NULL);
    }

  if (key == NULL || g_cancellable_is_cancelled (run->cancellable) ||
      (run->merged != NULL ? has_max (self) && lane->count >= self->max_items : dyn_pager_is_full (self)))
    {
      lane_finished (task, lane);
      return;
    }

  dyn_request_set_exclusive_start_key (lane->request, key);
  lane_next (task, lane);
}

static void
lane_next (GTask *task,
           Lane  *lane)
{
  DynPager *self = g_task_get_source_object (task);
  Run *run = g_task_get_task_data (task);
  guint64 wanted = run->merged != NULL ? self->max_items - MIN (lane->count, self->max_items)
                                       : still_wanted (self);

  end_first_page (self);
  lane->request->limit = page_limit (self, wanted);
  dyn_client_execute_async (self->client, lane->request, run->cancellable, lane_cb, lane);
}

static void
outer_cancelled_cb (GCancellable *outer,
                    GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

void
dyn_pager_run_async (DynPager            *self,
                     guint                segments,
                     guint64              max_items,
                     DynPageFunc          page_func,
                     gpointer             page_data,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task;
  Run *run;
  guint lanes;

  g_return_if_fail (DYN_IS_PAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_pager_run_async);

  if (max_items > 0)
    self->max_items = max_items;

  run = g_new0 (Run, 1);
  run->page_func = page_func;
  run->page_data = page_data;
  run->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      run->outer = g_object_ref (cancellable);
      run->chain_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                             run->cancellable, NULL);
    }
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  if (self->pk_values != NULL)
    {
      lanes = self->pk_values->len;
      run->merged = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
    }
  else if (self->request->op == DYN_OP_SCAN && segments > 1)
    lanes = segments;
  else
    lanes = 1;
  run->single = (lanes == 1 && self->pk_values == NULL);

  if (run->single)
    {
      g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

      /* What the last page brought beyond an earlier max comes first. */
      take_held (self, held);
      if (held->len > 0 && page_func != NULL)
        page_func (held, page_data);
      if (self->done || dyn_pager_is_full (self))
        {
          g_task_return_boolean (task, TRUE);
          g_object_unref (task);
          return;
        }
    }

  run->running = lanes;
  for (guint i = 0; i < lanes; i++)
    {
      Lane *lane = g_new0 (Lane, 1);

      lane->task = task;
      lane->request = dyn_request_copy (self->request);
      if (self->pk_values != NULL)
        dyn_request_add_value (lane->request, self->pk_placeholder, self->pk_values->pdata[i]);
      else if (lanes > 1)
        {
          lane->request->segment = i;
          lane->request->total_segments = lanes;
          dyn_request_set_exclusive_start_key (lane->request, NULL);
        }
      else
        dyn_request_set_exclusive_start_key (lane->request, self->last_key);
      lane_next (task, lane);
    }
}

gboolean
dyn_pager_run_finish (DynPager      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_pager_run_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
