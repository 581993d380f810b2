/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The engine: statements run on a worker thread (SQLite's virtual-table
 * callbacks are synchronous); every DynamoDB request runs on the caller's
 * main context with the engine's one DynClient (a DynClient belongs to the
 * context it was made on: its curl handles and sources live there), the
 * worker waiting for the items it needs.
 *
 * Exact request counts with parallel lookups: a statement runs in passes.
 * A read that is not in the statement's cache is recorded and its cursor is
 * empty; at the end of the pass every recorded read is sent at once (GetItems
 * of one table grouped into BatchGetItem calls of 100 keys), and the
 * statement runs again from the cache, until a pass needs nothing new. A
 * join of N distinct keys thus makes exactly N requests, 16 in flight at a
 * time. Rows are delivered only from a pass that has all its data (rows a
 * pass gave before its first missing read are correct and are not sent
 * twice). A statement with one source reads at once, page by page, so its
 * rows stream.
 */
#define G_LOG_DOMAIN "dyn-sql"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-sql-private.h"
#include "dyn-sql-decimal.h"
#include "dyn-json.h"
#include "dyn-table.h"

#define MAX_IN_FLIGHT  16
#define BATCH_KEYS     100
#define SAMPLE_ITEMS   100
#define ROWS_PER_BATCH 256

struct _DynSqlEngine
{
  GObject     parent_instance;

  DynClient  *client;
  gboolean    allow_scan;
  guint       segments;

  GMutex      lock;         /* the caches below, read by workers */
  GStrv       tables;       /* ListTables, NULL until read */
  GHashTable *table_keys;   /* table → DynTableKeys* */
  GHashTable *sources;      /* source name → DynSqlSource* */
};

G_DEFINE_FINAL_TYPE (DynSqlEngine, dyn_sql_engine, G_TYPE_OBJECT)

struct _DynSqlJob
{
  DynSqlRun      *run;
  DynSqlSource   *source;
  DynSqlAccessOp  op;
  char           *cache_key;
  JsonNode       *params;      /* Query/Scan/GetItem */
  DynValue       *key;         /* GetItem */
  GPtrArray      *items;       /* DynValue* */
  GPtrArray      *batch;       /* a BatchGetItem: the GetItem jobs it answers */
  gboolean        queued;
  gboolean        done;
  guint           chains;      /* request chains still running */
  guint           attempt;
  GError         *error;
};

struct _DynSqlRun
{
  gint              ref_count;
  DynSqlEngine     *engine;
  DynClient        *client;
  GMainContext     *caller;
  GCancellable     *cancellable;
  gulong            cancel_id;
  GTask            *task;
  char             *sql;
  gboolean          explain_only;
  gboolean          allow_scan;
  guint             segments;
  DynSqlRowsFunc    rows_func;
  gpointer          rows_data;

  GMutex            lock;
  GCond             cond;
  sqlite3          *db;
  GPtrArray        *accesses;      /* DynSqlAccess* by id */
  GHashTable       *collections;   /* source␟partition → set of shapes */
  GHashTable       *collection_sources;  /* sources read twice by partition: whole collections */
  GHashTable       *whole;         /* source␟partition read whole */
  GHashTable       *cache;         /* cache key → DynSqlJob* */
  GPtrArray        *pending;       /* jobs not yet queued */
  GQueue            queue;         /* jobs to start on the caller's context */
  guint             in_flight;
  guint             deliveries;    /* row batches sent to the caller, not yet handled */
  gboolean          sync_reads;
  gboolean          pass_missed;
  GHashTable       *stats;         /* source name → DynSqlSourceStats* */
  GPtrArray        *stats_order;
  GHashTable       *item_index;    /* source␟key → item */
  GPtrArray        *notes;

  GPtrArray        *batch_rows;
  gint64            last_flush;
  DynSqlResult     *result;
  DynSqlPlan       *plan;
  GError           *error;         /* the first read that failed, as it failed */
};

static void run_pump (DynSqlRun *run);
static void flush_rows (DynSqlRun *run, gboolean force);

/* Engine ------------------------------------------------------------------ */

static void
dyn_sql_engine_finalize (GObject *object)
{
  DynSqlEngine *self = DYN_SQL_ENGINE (object);

  g_clear_object (&self->client);
  g_strfreev (self->tables);
  g_hash_table_unref (self->table_keys);
  g_hash_table_unref (self->sources);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (dyn_sql_engine_parent_class)->finalize (object);
}

static void
dyn_sql_engine_class_init (DynSqlEngineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_sql_engine_finalize;
}

static void
dyn_sql_engine_init (DynSqlEngine *self)
{
  g_mutex_init (&self->lock);
  self->segments = 4;
  self->table_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_table_keys_free);
  self->sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_sql_source_unref);
}

DynSqlEngine *
dyn_sql_engine_new (DynClient *client)
{
  DynSqlEngine *self;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  self = g_object_new (DYN_TYPE_SQL_ENGINE, NULL);
  self->client = g_object_ref (client);
  return self;
}

void
dyn_sql_engine_set_allow_scan (DynSqlEngine *self,
                               gboolean      allow)
{
  g_return_if_fail (DYN_IS_SQL_ENGINE (self));
  self->allow_scan = allow;
}

gboolean
dyn_sql_engine_get_allow_scan (DynSqlEngine *self)
{
  g_return_val_if_fail (DYN_IS_SQL_ENGINE (self), FALSE);
  return self->allow_scan;
}

void
dyn_sql_engine_set_segments (DynSqlEngine *self,
                             guint         segments)
{
  g_return_if_fail (DYN_IS_SQL_ENGINE (self));
  self->segments = CLAMP (segments, 1, 1000000);
}

void
dyn_sql_engine_reset (DynSqlEngine *self)
{
  g_return_if_fail (DYN_IS_SQL_ENGINE (self));
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->tables, g_strfreev);
  g_hash_table_remove_all (self->table_keys);
  g_hash_table_remove_all (self->sources);
  g_mutex_unlock (&self->lock);
}

/* Runs ------------------------------------------------------------------- */

static void
job_free (DynSqlJob *job)
{
  dyn_sql_source_unref (job->source);
  g_free (job->cache_key);
  g_clear_pointer (&job->params, json_node_unref);
  g_clear_pointer (&job->key, dyn_value_unref);
  g_clear_pointer (&job->items, g_ptr_array_unref);
  g_clear_pointer (&job->batch, g_ptr_array_unref);
  g_clear_error (&job->error);
  g_free (job);
}

static DynSqlRun *
run_ref (DynSqlRun *run)
{
  g_atomic_int_inc (&run->ref_count);
  return run;
}

static void
run_unref (DynSqlRun *run)
{
  if (!g_atomic_int_dec_and_test (&run->ref_count))
    return;
  if (run->cancel_id)
    g_cancellable_disconnect (run->cancellable, run->cancel_id);
  g_clear_object (&run->cancellable);
  g_clear_object (&run->engine);
  g_clear_object (&run->client);
  g_main_context_unref (run->caller);
  g_clear_object (&run->task);
  g_free (run->sql);
  if (run->db)
    sqlite3_close_v2 (run->db);
  g_ptr_array_unref (run->accesses);
  g_hash_table_unref (run->collections);
  g_hash_table_unref (run->collection_sources);
  g_hash_table_unref (run->whole);
  g_hash_table_unref (run->cache);
  g_ptr_array_unref (run->pending);
  g_queue_clear (&run->queue);
  g_hash_table_unref (run->stats);
  g_ptr_array_unref (run->stats_order);
  g_hash_table_unref (run->item_index);
  g_ptr_array_unref (run->notes);
  g_clear_pointer (&run->batch_rows, g_ptr_array_unref);
  g_clear_pointer (&run->result, dyn_sql_result_free);
  g_clear_pointer (&run->plan, dyn_sql_plan_unref);
  g_clear_error (&run->error);
  g_mutex_clear (&run->lock);
  g_cond_clear (&run->cond);
  g_free (run);
}

static void
cancelled_cb (GCancellable *cancellable,
              DynSqlRun    *run)
{
  g_mutex_lock (&run->lock);
  if (run->db)
    sqlite3_interrupt (run->db);
  g_cond_broadcast (&run->cond);
  g_mutex_unlock (&run->lock);
}

static DynSqlRun *
run_new (DynSqlEngine *engine,
         const char   *sql,
         GCancellable *cancellable)
{
  DynSqlRun *run = g_new0 (DynSqlRun, 1);

  run->ref_count = 1;
  run->engine = g_object_ref (engine);
  run->client = g_object_ref (engine->client);
  run->caller = g_main_context_ref_thread_default ();
  run->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  run->sql = g_strdup (sql);
  run->allow_scan = engine->allow_scan;
  run->segments = engine->segments;
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  run->accesses = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_access_free);
  run->collections = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_hash_table_unref);
  run->collection_sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->whole = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run->cache = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) job_free);
  run->pending = g_ptr_array_new ();
  g_queue_init (&run->queue);
  run->stats = g_hash_table_new (g_str_hash, g_str_equal);
  run->stats_order = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_source_stats_free);
  run->item_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
  run->notes = g_ptr_array_new_with_free_func (g_free);
  run->cancel_id = g_cancellable_connect (run->cancellable, G_CALLBACK (cancelled_cb), run, NULL);
  return run;
}

guint
dyn_sql_run_add_access (DynSqlRun    *run,
                        DynSqlAccess *access)
{
  g_mutex_lock (&run->lock);
  access->id = run->accesses->len;
  g_ptr_array_add (run->accesses, access);
  g_mutex_unlock (&run->lock);
  return access->id;
}

DynSqlAccess *
dyn_sql_run_get_access (DynSqlRun *run,
                        guint      id)
{
  return id < run->accesses->len ? run->accesses->pdata[id] : NULL;
}

void
dyn_sql_run_note_collection (DynSqlRun    *run,
                             DynSqlSource *source,
                             const char   *partition,
                             const char   *shape)
{
  g_autofree char *key = g_strdup_printf ("%s\x1f%s", source->name, partition);
  GHashTable *shapes = g_hash_table_lookup (run->collections, key);

  if (shapes == NULL)
    {
      shapes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_insert (run->collections, g_steal_pointer (&key), shapes);
    }
  g_hash_table_add (shapes, g_strdup (shape));
}

gboolean
dyn_sql_run_is_collection (DynSqlRun    *run,
                           DynSqlSource *source,
                           const char   *partition,
                           gboolean      constant)
{
  g_autofree char *key = g_strdup_printf ("%s\x1f%s", source->name, partition);
  GHashTable *shapes = g_hash_table_lookup (run->collections, key);

  if (shapes != NULL && g_hash_table_size (shapes) > 1)
    return TRUE;
  if (!g_hash_table_contains (run->collection_sources, source->name))
    return FALSE;
  /* A source read twice by partition: the statement's own partitions are
   * read whole; a joined side reads a partition whole only when that one
   * was read whole already (the self-join), else as it asks (a join to
   * other partitions stays a BatchGetItem or a narrow Query). */
  if (constant)
    {
      g_hash_table_add (run->whole, g_steal_pointer (&key));
      return TRUE;
    }
  return g_hash_table_contains (run->whole, key);
}

static DynSqlSourceStats *
run_stats (DynSqlRun    *run,
           DynSqlSource *source)
{
  DynSqlSourceStats *s = g_hash_table_lookup (run->stats, source->name);

  if (s == NULL)
    {
      s = g_new0 (DynSqlSourceStats, 1);
      s->source = g_strdup (source->name);
      g_ptr_array_add (run->stats_order, s);
      g_hash_table_insert (run->stats, s->source, s);
    }
  return s;
}

/* The table key of @item as text ("source␟{"PK":{"S":"a"}…}"). */
static char *
item_key_string (DynSqlSource *source,
                 DynValue     *(*get) (gpointer data, const char *name),
                 gpointer      data)
{
  const DynKeySchema *keys = &source->table_keys->table.keys;
  GString *s = g_string_new (source->name);

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      const char *name = dyn_key_schema_get_attribute (keys, i, NULL);
      DynValue *v = get (data, name);
      g_autofree char *json = NULL;

      if (v == NULL)
        {
          g_string_free (s, TRUE);
          return NULL;
        }
      if (dyn_value_get_value_type (v) == DYN_VALUE_N)
        {
          g_autofree char *canon = dyn_number_canonicalize (dyn_value_get_number (v));
          json = g_strdup_printf ("N%s", canon);
        }
      else
        json = dyn_value_to_ddb_json_string (v);
      g_string_append_printf (s, "\x1f%s", json);
    }
  return g_string_free (s, FALSE);
}

static DynValue *
item_get (gpointer    data,
          const char *name)
{
  return dyn_value_map_lookup (data, name);
}

/* Called with the lock held, on the caller's context. */
static void
job_add_items (DynSqlJob *job,
               GPtrArray *items)
{
  DynSqlRun *run = job->run;

  for (guint i = 0; items && i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      char *key;

      if (dyn_value_get_value_type (item) != DYN_VALUE_M)
        continue;
      g_ptr_array_add (job->items, dyn_value_ref (item));
      key = item_key_string (job->source, item_get, item);
      if (key)
        g_hash_table_replace (run->item_index, key, dyn_value_ref (item));
    }
}

static void
job_finish (DynSqlJob *job,
            GError    *error)
{
  if (error != NULL && job->error == NULL)
    {
      job->error = g_error_copy (error);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&job->error, "%s: ", job->source->name);
    }
  if (--job->chains == 0)
    {
      job->done = TRUE;
      job->run->in_flight--;
      for (guint i = 0; job->batch && i < job->batch->len; i++)
        {
          DynSqlJob *get = job->batch->pdata[i];
          if (job->error && get->error == NULL)
            get->error = g_error_copy (job->error);
          get->done = TRUE;
        }
    }
}

typedef struct {
  DynSqlJob *job;
  JsonNode  *params;
} Page;

static void send_page (DynSqlJob *job, JsonNode *params);

static void
page_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Page *page = user_data;
  DynSqlJob *job = page->job;
  DynSqlRun *run = job->run;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (object), result, &error);
  JsonObject *root = response && response->root && JSON_NODE_HOLDS_OBJECT (response->root)
                     ? json_node_get_object (response->root) : NULL;
  JsonNode *next = NULL;
  DynSqlSourceStats *stats;

  g_mutex_lock (&run->lock);
  stats = run_stats (run, job->source);
  if (response != NULL)
    {
      stats->requests++;
      stats->pages++;
      stats->read_units += response->read_units;
      switch (job->op)
        {
        case DYN_SQL_ACCESS_GET: stats->get_items++; break;
        case DYN_SQL_ACCESS_BATCH_GET: stats->batch_gets++; break;
        case DYN_SQL_ACCESS_QUERY: stats->queries++; break;
        case DYN_SQL_ACCESS_SCAN: stats->scans++; break;
        }
    }
  if (response == NULL)
    ;
  else if (job->op == DYN_SQL_ACCESS_GET)
    {
      if (response->item)
        {
          g_autoptr(GPtrArray) one = g_ptr_array_new ();
          g_ptr_array_add (one, response->item);
          job_add_items (job, one);
          stats->items++;
        }
    }
  else if (job->op == DYN_SQL_ACCESS_BATCH_GET)
    {
      JsonArray *found = dyn_json_object_get_array (dyn_json_object_get_object (root, "Responses"),
                                                    job->source->table);
      JsonObject *unprocessed = dyn_json_object_get_object (dyn_json_object_get_object (root, "UnprocessedKeys"),
                                                            job->source->table);

      for (guint i = 0; found && i < json_array_get_length (found); i++)
        {
          g_autoptr(DynValue) item = dyn_item_from_ddb_json (json_array_get_element (found, i), NULL);
          g_autofree char *key = item ? item_key_string (job->source, item_get, item) : NULL;

          if (key == NULL)
            continue;
          stats->items++;
          for (guint j = 0; j < job->batch->len; j++)
            {
              DynSqlJob *get = job->batch->pdata[j];
              g_autofree char *want = item_key_string (get->source, item_get, get->key);
              if (g_strcmp0 (want, key) == 0 && get->items->len == 0)
                {
                  g_autoptr(GPtrArray) one = g_ptr_array_new ();
                  g_ptr_array_add (one, item);
                  job_add_items (get, one);
                }
            }
        }
      if (unprocessed && dyn_json_object_get_array (unprocessed, "Keys") &&
          json_array_get_length (dyn_json_object_get_array (unprocessed, "Keys")) > 0)
        {
          /* The same call with the keys left, after a pause. */
          JsonObject *params = json_object_new ();
          JsonObject *items = json_object_new ();
          json_object_set_object_member (items, job->source->table, json_object_ref (unprocessed));
          json_object_set_object_member (params, "RequestItems", items);
          json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
          next = json_node_init_object (json_node_alloc (), params);
          json_object_unref (params);
        }
    }
  else
    {
      JsonObject *last = dyn_json_object_get_object (root, "LastEvaluatedKey");

      stats->items += response->items ? response->items->len : 0;
      job_add_items (job, response->items);
      if (last != NULL && json_object_get_size (last) > 0)
        {
          next = json_node_copy (page->params);
          json_object_set_object_member (json_node_get_object (next), "ExclusiveStartKey", json_object_ref (last));
        }
    }

  /* The items of this page are there for the cursor at once. */
  g_cond_broadcast (&run->cond);
  if (next != NULL && !g_cancellable_is_cancelled (run->cancellable))
    {
      g_mutex_unlock (&run->lock);
      send_page (job, next);
      json_node_unref (next);
    }
  else
    {
      if (next)
        json_node_unref (next);
      job_finish (job, error);
      g_cond_broadcast (&run->cond);
      g_mutex_unlock (&run->lock);
      run_pump (run);
    }
  json_node_unref (page->params);
  g_free (page);
  run_unref (run);
}

static gboolean
delayed_send_cb (gpointer data)
{
  Page *page = data;
  DynSqlJob *job = page->job;

  run_ref (job->run);
  dyn_client_call_async (job->run->client, job->op == DYN_SQL_ACCESS_BATCH_GET ? "BatchGetItem" : "Query",
                         page->params, job->run->cancellable, page_cb, page);
  return G_SOURCE_REMOVE;
}

static void
send_page (DynSqlJob *job,
           JsonNode  *params)
{
  static const char * const names[] = { "GetItem", "BatchGetItem", "Query", "Scan" };
  Page *page = g_new0 (Page, 1);

  page->job = job;
  page->params = json_node_copy (params);
  if (job->op == DYN_SQL_ACCESS_BATCH_GET && job->attempt++ > 0)
    {
      /* Unprocessed keys: back off a little (50 ms doubling, at most 2 s). */
      GSource *src = g_timeout_source_new (MIN (2000, 50u << MIN (job->attempt, 6)));
      g_source_set_callback (src, delayed_send_cb, page, NULL);
      g_source_attach (src, job->run->caller);
      g_source_unref (src);
      return;
    }
  run_ref (job->run);
  dyn_client_call_async (job->run->client, names[job->op], page->params, job->run->cancellable, page_cb, page);
}

/* On the caller's context: starts queued jobs while there is room. */
static gboolean
pump_cb (gpointer data)
{
  DynSqlRun *run = data;

  for (;;)
    {
      DynSqlJob *job;
      guint segments;

      g_mutex_lock (&run->lock);
      if (g_cancellable_is_cancelled (run->cancellable))
        {
          while ((job = g_queue_pop_head (&run->queue)) != NULL)
            {
              g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
              job->chains = 1;
              run->in_flight++;
              job_finish (job, error);
            }
          g_cond_broadcast (&run->cond);
          g_mutex_unlock (&run->lock);
          break;
        }
      if (run->in_flight >= MAX_IN_FLIGHT || (job = g_queue_pop_head (&run->queue)) == NULL)
        {
          g_mutex_unlock (&run->lock);
          break;
        }
      run->in_flight++;
      segments = job->op == DYN_SQL_ACCESS_SCAN ? MAX (run->segments, 1) : 1;
      job->chains = segments;
      g_mutex_unlock (&run->lock);

      for (guint s = 0; s < segments; s++)
        {
          g_autoptr(JsonNode) params = json_node_copy (job->params);
          if (segments > 1)
            {
              json_object_set_int_member (json_node_get_object (params), "Segment", s);
              json_object_set_int_member (json_node_get_object (params), "TotalSegments", segments);
            }
          send_page (job, params);
        }
    }
  return G_SOURCE_REMOVE;
}

static void
run_pump (DynSqlRun *run)
{
  g_main_context_invoke_full (run->caller, G_PRIORITY_DEFAULT, pump_cb, run_ref (run),
                              (GDestroyNotify) run_unref);
}

static JsonNode *
get_params (DynSqlSource *source,
            DynValue     *key)
{
  JsonObject *obj = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (obj, "TableName", source->table);
  json_object_set_member (obj, "Key", dyn_item_to_ddb_json (key));
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");
  node = json_node_init_object (json_node_alloc (), obj);
  json_object_unref (obj);
  return node;
}

static void
queue_job (DynSqlRun *run,
           DynSqlJob *job)
{
  job->queued = TRUE;
  g_queue_push_tail (&run->queue, job);
}

/* Queues the pending reads: GetItems of a table in BatchGetItem calls of
 * 100 keys (a lone key is a GetItem). */
static void
run_flush (DynSqlRun *run)
{
  g_autoptr(GHashTable) gets = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                      (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) tables = g_ptr_array_new ();

  g_mutex_lock (&run->lock);
  if (run->pending->len == 0)
    {
      g_mutex_unlock (&run->lock);
      return;
    }
  for (guint i = 0; i < run->pending->len; i++)
    {
      DynSqlJob *job = run->pending->pdata[i];

      if (job->op == DYN_SQL_ACCESS_GET)
        {
          GPtrArray *list = g_hash_table_lookup (gets, job->source->name);
          if (list == NULL)
            {
              list = g_ptr_array_new ();
              g_hash_table_insert (gets, job->source->name, list);
              g_ptr_array_add (tables, job->source->name);
            }
          g_ptr_array_add (list, job);
        }
      else
        queue_job (run, job);
    }
  g_ptr_array_set_size (run->pending, 0);

  for (guint t = 0; t < tables->len; t++)
    {
      GPtrArray *list = g_hash_table_lookup (gets, tables->pdata[t]);

      if (list->len == 1)
        {
          queue_job (run, list->pdata[0]);
          continue;
        }
      for (guint start = 0; start < list->len; start += BATCH_KEYS)
        {
          DynSqlJob *batch = g_new0 (DynSqlJob, 1);
          JsonObject *params = json_object_new ();
          JsonObject *items = json_object_new ();
          JsonObject *table = json_object_new ();
          JsonArray *keys = json_array_new ();

          batch->run = run;
          batch->op = DYN_SQL_ACCESS_BATCH_GET;
          batch->source = dyn_sql_source_ref (((DynSqlJob *) list->pdata[start])->source);
          batch->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
          batch->batch = g_ptr_array_new ();
          for (guint i = start; i < list->len && i < start + BATCH_KEYS; i++)
            {
              DynSqlJob *get = list->pdata[i];
              get->queued = TRUE;
              g_ptr_array_add (batch->batch, get);
              json_array_add_element (keys, dyn_item_to_ddb_json (get->key));
            }
          json_object_set_array_member (table, "Keys", keys);
          json_object_set_object_member (items, batch->source->table, table);
          json_object_set_object_member (params, "RequestItems", items);
          json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
          batch->params = json_node_init_object (json_node_alloc (), params);
          json_object_unref (params);
          batch->cache_key = g_strdup_printf ("batch:%p", (void *) batch);
          g_hash_table_insert (run->cache, batch->cache_key, batch);
          queue_job (run, batch);
        }
    }
  g_mutex_unlock (&run->lock);
  run_pump (run);
}

/* Waits until every request of the run has finished. */
static void
run_wait_idle (DynSqlRun *run)
{
  g_mutex_lock (&run->lock);
  while (run->in_flight > 0 || !g_queue_is_empty (&run->queue))
    g_cond_wait (&run->cond, &run->lock);
  g_mutex_unlock (&run->lock);
}

DynSqlJob *
dyn_sql_run_read (DynSqlRun       *run,
                  DynSqlSource    *source,
                  DynSqlAccessOp   op,
                  GPtrArray       *partition,
                  GPtrArray       *sort_conds,
                  GPtrArray       *filters,
                  gboolean         forward,
                  DynValue        *key,
                  GError         **error)
{
  g_autoptr(JsonNode) params = NULL;
  g_autofree char *cache_key = NULL;
  DynSqlJob *job;

  if (op == DYN_SQL_ACCESS_SCAN && !run->allow_scan)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("%s would be read by a full Scan, and scans are not allowed"), source->name);
      return NULL;
    }
  if (op == DYN_SQL_ACCESS_GET)
    params = get_params (source, key);
  else
    params = dyn_sql_build_request (source, op, partition, sort_conds, filters, forward, NULL, NULL, error);
  if (params == NULL)
    return NULL;
  {
    g_autofree char *text = json_to_string (params, FALSE);
    cache_key = g_strdup_printf ("%d\x1f%s\x1f%s", op, source->name, text);
  }

  g_debug ("read %s", cache_key);
  g_mutex_lock (&run->lock);
  job = g_hash_table_lookup (run->cache, cache_key);
  if (job == NULL)
    {
      job = g_new0 (DynSqlJob, 1);
      job->run = run;
      job->source = dyn_sql_source_ref (source);
      job->op = op;
      job->cache_key = g_steal_pointer (&cache_key);
      job->params = g_steal_pointer (&params);
      job->key = key ? dyn_value_ref (key) : NULL;
      job->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_hash_table_insert (run->cache, job->cache_key, job);
      g_ptr_array_add (run->pending, job);
      if (!run->sync_reads)
        {
          run->pass_missed = TRUE;
          job = NULL;
        }
    }
  else if (!job->queued && !run->sync_reads)
    job = NULL;   /* recorded in this pass already */
  g_mutex_unlock (&run->lock);
  return job;
}

void
dyn_sql_run_set_error (DynSqlRun    *run,
                       const GError *error)
{
  g_mutex_lock (&run->lock);
  if (run->error == NULL)
    run->error = g_error_copy (error);
  g_mutex_unlock (&run->lock);
}

DynValue *
dyn_sql_job_get_item (DynSqlJob  *job,
                      guint       i,
                      GError    **error)
{
  DynSqlRun *run = job->run;
  DynValue *item = NULL;

  if (!job->queued)
    run_flush (run);
  g_mutex_lock (&run->lock);
  if (i >= job->items->len && !job->done && job->error == NULL)
    {
      /* About to wait for a page: the rows so far go out first. */
      g_mutex_unlock (&run->lock);
      flush_rows (run, TRUE);
      g_mutex_lock (&run->lock);
    }
  while (i >= job->items->len && !job->done && job->error == NULL &&
         !g_cancellable_is_cancelled (run->cancellable))
    g_cond_wait (&run->cond, &run->lock);
  if (i < job->items->len)
    item = job->items->pdata[i];
  else if (job->error)
    g_propagate_error (error, g_error_copy (job->error));
  else if (!job->done)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Cancelled"));
  g_mutex_unlock (&run->lock);
  return item;
}

/* Blocking calls for the catalog (ListTables, DescribeTable, first pages). */

typedef struct {
  DynSqlRun   *run;
  char        *operation;
  JsonNode    *params;
  DynResponse *response;
  char       **tables;
  GError      *error;
  gboolean     done;
} Call;

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Call *call = user_data;
  DynResponse *response = dyn_client_call_finish (DYN_CLIENT (object), result, &call->error);

  g_mutex_lock (&call->run->lock);
  call->response = response;
  call->done = TRUE;
  g_cond_broadcast (&call->run->cond);
  g_mutex_unlock (&call->run->lock);
}

static gboolean
call_start_cb (gpointer data)
{
  Call *call = data;
  dyn_client_call_async (call->run->client, call->operation, call->params, call->run->cancellable,
                         call_cb, call);
  return G_SOURCE_REMOVE;
}

static DynResponse *
run_call (DynSqlRun   *run,
          const char  *operation,
          JsonNode    *params,
          GError     **error)
{
  Call call = { run, (char *) operation, params, NULL, NULL, NULL, FALSE };

  g_main_context_invoke (run->caller, call_start_cb, &call);
  g_mutex_lock (&run->lock);
  while (!call.done)
    g_cond_wait (&run->cond, &run->lock);
  g_mutex_unlock (&run->lock);
  if (call.error)
    g_propagate_error (error, call.error);
  return call.response;
}

static GStrv
catalog_tables (DynSqlRun  *run,
                GError    **error)
{
  DynSqlEngine *engine = run->engine;
  g_autoptr(GPtrArray) names = NULL;
  g_autofree char *start = NULL;
  GStrv tables;

  g_mutex_lock (&engine->lock);
  if (engine->tables)
    {
      tables = g_strdupv (engine->tables);
      g_mutex_unlock (&engine->lock);
      return tables;
    }
  g_mutex_unlock (&engine->lock);

  names = g_ptr_array_new_with_free_func (g_free);
  do
    {
      g_autoptr(JsonObject) obj = json_object_new ();
      g_autoptr(JsonNode) params = NULL;
      g_autoptr(DynResponse) response = NULL;
      JsonObject *root;
      JsonArray *list;

      if (start)
        json_object_set_string_member (obj, "ExclusiveStartTableName", start);
      params = json_node_init_object (json_node_alloc (), obj);
      response = run_call (run, "ListTables", params, error);
      if (response == NULL)
        return NULL;
      g_clear_pointer (&start, g_free);
      root = JSON_NODE_HOLDS_OBJECT (response->root) ? json_node_get_object (response->root) : NULL;
      list = dyn_json_object_get_array (root, "TableNames");
      for (guint i = 0; list && i < json_array_get_length (list); i++)
        {
          const char *n = json_array_get_string_element (list, i);
          if (n)
            g_ptr_array_add (names, g_strdup (n));
        }
      if (root && json_object_has_member (root, "LastEvaluatedTableName"))
        start = g_strdup (json_object_get_string_member_with_default (root, "LastEvaluatedTableName", NULL));
    }
  while (start != NULL);
  g_ptr_array_add (names, NULL);
  tables = (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);

  g_mutex_lock (&engine->lock);
  if (engine->tables == NULL)
    engine->tables = g_strdupv (tables);
  g_mutex_unlock (&engine->lock);
  g_ptr_array_add (run->notes, g_strdup (_("ListTables (cached)")));
  return tables;
}

static DynTableKeys *
catalog_table_keys (DynSqlRun   *run,
                    const char  *table,
                    GError     **error)
{
  DynSqlEngine *engine = run->engine;
  DynTableKeys *keys;
  g_autoptr(JsonObject) obj = json_object_new ();
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(DynResponse) response = NULL;
  JsonObject *desc;

  g_mutex_lock (&engine->lock);
  keys = g_hash_table_lookup (engine->table_keys, table);
  keys = keys ? dyn_table_keys_copy (keys) : NULL;
  g_mutex_unlock (&engine->lock);
  if (keys)
    return keys;

  json_object_set_string_member (obj, "TableName", table);
  params = json_node_init_object (json_node_alloc (), obj);
  response = run_call (run, "DescribeTable", params, error);
  if (response == NULL)
    return NULL;
  desc = dyn_json_object_get_object (JSON_NODE_HOLDS_OBJECT (response->root)
                                     ? json_node_get_object (response->root) : NULL, "Table");
  if (desc == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, _("DescribeTable %s: no table in the response"), table);
      return NULL;
    }
  keys = dyn_table_keys_from_description (desc, error);
  if (keys == NULL)
    return NULL;
  g_mutex_lock (&engine->lock);
  g_hash_table_replace (engine->table_keys, g_strdup (table), dyn_table_keys_copy (keys));
  g_mutex_unlock (&engine->lock);
  g_ptr_array_add (run->notes, g_strdup_printf (_("DescribeTable %s (cached)"), table));
  return keys;
}

/* The source named @name ("T" or "T.I"), read and cached, or NULL (no
 * error) when there is no such table or index. */
static DynSqlSource *
catalog_source (DynSqlRun   *run,
                const char  *name,
                GError     **error)
{
  DynSqlEngine *engine = run->engine;
  DynSqlSource *source;
  g_auto(GStrv) tables = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autofree char *index = NULL;

  g_mutex_lock (&engine->lock);
  source = g_hash_table_lookup (engine->sources, name);
  source = source ? dyn_sql_source_ref (source) : NULL;
  g_mutex_unlock (&engine->lock);
  if (source)
    return source;

  tables = catalog_tables (run, error);
  if (tables == NULL)
    return NULL;
  if (g_strv_contains ((const char * const *) tables, name))
    keys = catalog_table_keys (run, name, error);
  else
    {
      /* "Table.Index": a table name may hold dots too; try each split. */
      for (const char *dot = strchr (name, '.'); dot && keys == NULL; dot = strchr (dot + 1, '.'))
        {
          g_autofree char *table = g_strndup (name, dot - name);
          g_autoptr(DynTableKeys) k = NULL;

          if (!g_strv_contains ((const char * const *) tables, table))
            continue;
          k = catalog_table_keys (run, table, error);
          if (k == NULL)
            return NULL;
          if (dyn_table_keys_lookup (k, dot + 1) != NULL && *(dot + 1))
            {
              keys = g_steal_pointer (&k);
              index = g_strdup (dot + 1);
            }
        }
      if (keys == NULL)
        return NULL;
    }
  if (keys == NULL)
    return NULL;

  {
    /* The columns: the keys, then the attributes of the first page. */
    g_autoptr(JsonObject) obj = json_object_new ();
    g_autoptr(JsonNode) params = NULL;
    g_autoptr(DynResponse) response = NULL;

    json_object_set_string_member (obj, "TableName", keys->table.name);
    if (index)
      json_object_set_string_member (obj, "IndexName", index);
    json_object_set_int_member (obj, "Limit", SAMPLE_ITEMS);
    json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");
    params = json_node_init_object (json_node_alloc (), obj);
    response = run_call (run, "Scan", params, error);
    if (response == NULL)
      return NULL;
    source = dyn_sql_source_new (keys, index, response->items);
    source->sample_units = response->read_units;
  }
  g_ptr_array_add (run->notes, g_strdup_printf (_("the columns of %s from its first page: Scan Limit %u, %u items (cached)"),
                                                source->name, SAMPLE_ITEMS, source->sampled_items));

  g_mutex_lock (&engine->lock);
  g_hash_table_replace (engine->sources, g_strdup (name), dyn_sql_source_ref (source));
  g_mutex_unlock (&engine->lock);
  return source;
}

/* Statements -------------------------------------------------------------- */

static void
module_data_free (void *p)
{
  DynSqlModuleData *data = p;
  dyn_sql_source_unref (data->source);
  g_free (data);
}

static gboolean
register_source (DynSqlRun    *run,
                 DynSqlSource *source)
{
  DynSqlModuleData *data = g_new0 (DynSqlModuleData, 1);

  data->run = run;
  data->source = dyn_sql_source_ref (source);
  return sqlite3_create_module_v2 (run->db, source->name, &dyn_sql_module, data, module_data_free) == SQLITE_OK;
}

/* The first keyword of @sql, skipping space and comments. */
static char *
first_keyword (const char *sql)
{
  const char *p = sql;

  for (;;)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (p[0] == '-' && p[1] == '-')
        {
          while (*p && *p != '\n')
            p++;
          continue;
        }
      if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");
          p = end ? end + 2 : p + strlen (p);
          continue;
        }
      break;
    }
  {
    const char *start = p;
    while (g_ascii_isalpha (*p))
      p++;
    return g_ascii_strup (start, p - start);
  }
}

static gboolean
only_space (const char *tail)
{
  g_autofree char *k = NULL;
  const char *p = tail;

  while (*p == ';' || g_ascii_isspace (*p))
    p++;
  if (*p == '\0')
    return TRUE;
  k = first_keyword (p);
  /* Nothing but comments left? */
  {
    const char *q = p;
    for (;;)
      {
        while (*q == ';' || g_ascii_isspace (*q))
          q++;
        if (q[0] == '-' && q[1] == '-')
          {
            while (*q && *q != '\n')
              q++;
            continue;
          }
        if (q[0] == '/' && q[1] == '*')
          {
            const char *end = strstr (q + 2, "*/");
            q = end ? end + 2 : q + strlen (q);
            continue;
          }
        break;
      }
    return *q == '\0';
  }
}

static sqlite3_stmt *
prepare (DynSqlRun   *run,
         const char  *sql,
         GError     **error)
{
  for (guint attempt = 0; attempt < 64; attempt++)
    {
      sqlite3_stmt *stmt = NULL;
      const char *tail = NULL;
      const char *msg;
      int rc = sqlite3_prepare_v2 (run->db, sql, -1, &stmt, &tail);

      if (rc == SQLITE_OK)
        {
          if (stmt == NULL)
            {
              g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The statement is empty"));
              return NULL;
            }
          if (tail && !only_space (tail))
            {
              sqlite3_finalize (stmt);
              g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                   _("Only one statement at a time: the SQL Workbench runs a single SELECT"));
              return NULL;
            }
          return stmt;
        }

      msg = sqlite3_errmsg (run->db);
      if (g_str_has_prefix (msg, "no such table: "))
        {
          g_autofree char *name = g_strdup (msg + strlen ("no such table: "));
          g_autoptr(DynSqlSource) source = NULL;
          g_autoptr(GError) local = NULL;

          if (g_str_has_prefix (name, "main."))
            memmove (name, name + 5, strlen (name + 5) + 1);
          source = catalog_source (run, name, &local);
          if (local)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          if (source == NULL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND,
                           _("No table or index “%s” (an index is written as one quoted name: \"Table.Index\")"),
                           name);
              return NULL;
            }
          if (!register_source (run, source))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s", sqlite3_errmsg (run->db));
              return NULL;
            }
          continue;
        }
      if (g_str_has_prefix (msg, "unknown database "))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("%s: write an index as one quoted name, like \"%s.INDEX\""), msg,
                       msg + strlen ("unknown database "));
          return NULL;
        }
      {
        int offset = sqlite3_error_offset (run->db);
        if (offset >= 0)
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("SQL error at character %d: %s"),
                       (int) g_utf8_strlen (sql, offset) + 1, msg);
        else
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("SQL error: %s"), msg);
      }
      return NULL;
    }
  g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Too many tables in one statement"));
  return NULL;
}

/* "SCAN w VIRTUAL TABLE INDEX 3:dyn:3" → 3 */
static gboolean
parse_eqp (const char *detail,
           guint      *id)
{
  const char *p = strstr (detail, "VIRTUAL TABLE INDEX ");
  const char *d;

  if (p == NULL || (d = strstr (p, ":dyn:")) == NULL)
    return FALSE;
  *id = (guint) g_ascii_strtoull (d + 5, NULL, 10);
  return TRUE;
}

/* Why a source would be scanned and what would make it a Query. */
static char *
scan_refusal (DynSqlAccess *access)
{
  DynSqlSource *src = access->source;
  g_autofree char *pk = dyn_key_schema_join_names (&src->keys, FALSE);
  const DynTableKeys *tk = src->table_keys;
  g_autofree char *hint = NULL;

  /* An index (or the table) whose partition key the statement gives. */
  for (guint i = 0; access->constrained && i <= tk->indexes->len && hint == NULL; i++)
    {
      const DynIndexInfo *info = i == 0 ? &tk->table : tk->indexes->pdata[i - 1];
      gboolean all = TRUE;

      if (i > 0 && src->index && strcmp (info->name, src->index) == 0)
        continue;
      if (i == 0 && src->index == NULL)
        continue;
      for (guint k = 0; k < dyn_key_schema_get_n_partition_keys (&info->keys) && all; k++)
        {
          const char *name = dyn_key_schema_get_partition_key (&info->keys, k, NULL);
          gboolean found = FALSE;
          for (guint c = 0; c < access->constrained->len; c++)
            if (strcmp (access->constrained->pdata[c], name) == 0)
              found = TRUE;
          all = found;
        }
      if (all)
        {
          g_autofree char *ipk = dyn_key_schema_join_names (&info->keys, FALSE);
          if (i == 0)
            hint = g_strdup_printf (_("read the table “%s” instead, whose partition key is %s"), tk->table.name, ipk);
          else
            hint = g_strdup_printf (_("read the index “%s.%s” instead, whose partition key is %s"),
                                    tk->table.name, info->name, ipk);
        }
    }
  if (hint == NULL)
    {
      if (dyn_key_schema_get_n_partition_keys (&src->keys) > 1)
        hint = g_strdup_printf (_("give an equality (= or IN) on each of its partition attributes %s"), pk);
      else
        hint = g_strdup_printf (_("give an equality (= or IN) on its partition key %s"), pk);
    }
  return g_strdup_printf (_("The statement would read %s with a full Scan. To make it a Query, %s; "
                            "or allow scans to run it as it is."), src->name, hint);
}

static DynSqlPlan *
build_plan (DynSqlRun     *run,
            sqlite3_stmt  *stmt,
            guint         *n_sources,
            GError       **error)
{
  g_autoptr(GPtrArray) columns = g_ptr_array_new ();
  g_autofree char *eqp_sql = g_strdup_printf ("EXPLAIN QUERY PLAN %s", run->sql);
  sqlite3_stmt *eqp = NULL;
  DynSqlPlan *plan;
  GHashTable *last_at_parent = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) keyed = g_hash_table_new (g_str_hash, g_str_equal);

  for (int i = 0; i < sqlite3_column_count (stmt); i++)
    g_ptr_array_add (columns, (gpointer) sqlite3_column_name (stmt, i));
  g_ptr_array_add (columns, NULL);
  plan = dyn_sql_plan_new ((const char * const *) columns->pdata);
  *n_sources = 0;

  if (sqlite3_prepare_v2 (run->db, eqp_sql, -1, &eqp, NULL) != SQLITE_OK)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("SQL error: %s"), sqlite3_errmsg (run->db));
      g_hash_table_unref (last_at_parent);
      dyn_sql_plan_unref (plan);
      return NULL;
    }
  while (sqlite3_step (eqp) == SQLITE_ROW)
    {
      int parent = sqlite3_column_int (eqp, 1);
      const char *detail = (const char *) sqlite3_column_text (eqp, 3);
      DynSqlAccess *access, *outer;
      guint id;

      if (detail == NULL || !parse_eqp (detail, &id) || (access = dyn_sql_run_get_access (run, id)) == NULL)
        continue;
      outer = g_hash_table_lookup (last_at_parent, GINT_TO_POINTER (parent));
      dyn_sql_plan_add_access (plan, access, 0, outer, run->segments);
      g_hash_table_insert (last_at_parent, GINT_TO_POINTER (parent), access);
      (*n_sources)++;
      /* A source read twice by its partition key (a self-join over item
       * collections: the META row and its PROJ# rows): each collection is
       * read once, whole, and both sides take their rows from it. */
      if (access->op != DYN_SQL_ACCESS_SCAN && dyn_key_schema_get_n_sort_keys (&access->source->keys) > 0)
        {
          if (g_hash_table_contains (keyed, access->source->name) &&
              !g_hash_table_contains (run->collection_sources, access->source->name))
            {
              g_autofree char *note = g_strdup_printf (_("%s is read by partition twice: each item collection is read once, whole"),
                                                       access->source->name);
              g_hash_table_add (run->collection_sources, g_strdup (access->source->name));
              dyn_sql_plan_add_note (plan, note);
            }
          g_hash_table_add (keyed, access->source->name);
        }
      if (access->op == DYN_SQL_ACCESS_SCAN && !run->allow_scan && !run->explain_only)
        {
          g_autofree char *msg = scan_refusal (access);
          g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, msg);
          sqlite3_finalize (eqp);
          g_hash_table_unref (last_at_parent);
          dyn_sql_plan_unref (plan);
          return NULL;
        }
      if (access->op == DYN_SQL_ACCESS_SCAN && !run->allow_scan)
        {
          g_autofree char *msg = scan_refusal (access);
          dyn_sql_plan_add_note (plan, msg);
        }
    }
  sqlite3_finalize (eqp);
  g_hash_table_unref (last_at_parent);
  for (guint i = 0; i < run->notes->len; i++)
    dyn_sql_plan_add_note (plan, run->notes->pdata[i]);
  return plan;
}

static gboolean
open_db (DynSqlRun  *run,
         GError    **error)
{
  g_mutex_lock (&run->lock);
  if (sqlite3_open_v2 (":memory:", &run->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
    {
      g_mutex_unlock (&run->lock);
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("SQL error: %s"), sqlite3_errmsg (run->db));
      return FALSE;
    }
  g_mutex_unlock (&run->lock);
  dyn_sql_decimal_register (run->db);
  /* DynamoDB compares strings byte for byte, and so does LIKE here: LIKE
   * 'PROJ#%' is begins_with(…, 'PROJ#'). */
  sqlite3_exec (run->db, "PRAGMA case_sensitive_like = ON", NULL, NULL, NULL);
  return TRUE;
}

static gboolean
check_select (const char  *sql,
              GError     **error)
{
  g_autofree char *kw = first_keyword (sql);

  if (g_strcmp0 (kw, "SELECT") != 0 && g_strcmp0 (kw, "WITH") != 0 && g_strcmp0 (kw, "VALUES") != 0)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("The SQL Workbench runs SELECT statements only (change items with PartiQL or in the table)"));
      return FALSE;
    }
  return TRUE;
}

/* Rows -------------------------------------------------------------------- */

typedef struct {
  DynSqlRun *run;
  GPtrArray *rows;
} Delivery;

static gboolean
deliver_cb (gpointer data)
{
  Delivery *d = data;

  if (d->run->rows_func)
    d->run->rows_func (d->rows, d->run->rows_data);
  if (d->rows->len > 0)
    {
      /* Not taken: kept in the result. */
      g_mutex_lock (&d->run->lock);
      dyn_sql_result_add_rows (d->run->result, d->rows);
      g_mutex_unlock (&d->run->lock);
    }
  g_mutex_lock (&d->run->lock);
  d->run->deliveries--;
  g_cond_broadcast (&d->run->cond);
  g_mutex_unlock (&d->run->lock);
  g_ptr_array_unref (d->rows);
  run_unref (d->run);
  g_free (d);
  return G_SOURCE_REMOVE;
}

/* Waits until at most @max row batches sent to the caller are unhandled,
 * or the run is cancelled: the worker never runs more than a few batches
 * ahead of the caller (memory), and a cancel the caller makes while it
 * handles the last rows reaches the result (it says "cancelled", not
 * "done", whatever the worker had read by then). */
static void
run_wait_delivered (DynSqlRun *run,
                    guint      max)
{
  g_mutex_lock (&run->lock);
  while (run->deliveries > max && !g_cancellable_is_cancelled (run->cancellable))
    g_cond_wait (&run->cond, &run->lock);
  g_mutex_unlock (&run->lock);
}

static void
flush_rows (DynSqlRun *run,
            gboolean   force)
{
  gint64 now = g_get_monotonic_time ();

  if (run->batch_rows == NULL || run->batch_rows->len == 0)
    return;
  if (!force && run->batch_rows->len < ROWS_PER_BATCH && now - run->last_flush < 100 * 1000)
    return;
  run->last_flush = now;
  if (run->rows_func == NULL)
    {
      g_mutex_lock (&run->lock);
      dyn_sql_result_add_rows (run->result, run->batch_rows);
      g_mutex_unlock (&run->lock);
      return;
    }
  {
    Delivery *d = g_new0 (Delivery, 1);
    d->run = run_ref (run);
    d->rows = g_steal_pointer (&run->batch_rows);
    run->batch_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_row_free);
    g_mutex_lock (&run->lock);
    run->deliveries++;
    g_mutex_unlock (&run->lock);
    g_main_context_invoke (run->caller, deliver_cb, d);
    run_wait_delivered (run, 4);
  }
}

/* Which source's item an output row shows: the first source whose table
 * key is among the output columns. */
typedef struct {
  DynSqlSource *source;
  int           key_cols[2 * DYN_KEY_MAX_ATTRIBUTES];
  gboolean     *numeric;   /* per output column */
  int           n_columns;
} RowMap;

static void
row_map_init (DynSqlRun    *run,
              sqlite3_stmt *stmt,
              RowMap       *map)
{
  int n = sqlite3_column_count (stmt);

  memset (map, 0, sizeof *map);
  map->n_columns = n;
  map->numeric = g_new0 (gboolean, n);
  for (int i = 0; i < n; i++)
    {
      const char *table = sqlite3_column_table_name (stmt, i);
      const char *origin = sqlite3_column_origin_name (stmt, i);
      DynSqlSource *src;

      if (table == NULL || origin == NULL)
        continue;
      g_mutex_lock (&run->engine->lock);
      src = g_hash_table_lookup (run->engine->sources, table);
      g_mutex_unlock (&run->engine->lock);
      if (src == NULL)
        continue;
      for (guint c = 0; c < src->columns->len; c++)
        {
          DynSqlColumn *col = src->columns->pdata[c];
          if (strcmp (col->name, origin) == 0)
            map->numeric[i] = col->decimal || col->numeric;
        }
      if (map->source == NULL)
        {
          const DynKeySchema *keys = &src->table_keys->table.keys;
          gboolean all = TRUE;

          for (guint k = 0; k < dyn_key_schema_get_n_attributes (keys) && all; k++)
            {
              const char *name = dyn_key_schema_get_attribute (keys, k, NULL);
              int found = -1;
              for (int j = 0; j < n && found < 0; j++)
                if (g_strcmp0 (sqlite3_column_table_name (stmt, j), table) == 0 &&
                    g_strcmp0 (sqlite3_column_origin_name (stmt, j), name) == 0)
                  found = j;
              map->key_cols[k] = found;
              all = found >= 0;
            }
          if (all)
            map->source = src;
        }
    }
}

typedef struct {
  RowMap    *map;
  GPtrArray *cells;
} RowKey;

static DynValue *
row_get (gpointer    data,
         const char *name)
{
  RowKey *rk = data;
  const DynKeySchema *keys = &rk->map->source->table_keys->table.keys;

  for (guint k = 0; k < dyn_key_schema_get_n_attributes (keys); k++)
    if (strcmp (dyn_key_schema_get_attribute (keys, k, NULL), name) == 0)
      return rk->cells->pdata[rk->map->key_cols[k]];
  return NULL;
}

static DynSqlRow *
make_row (DynSqlRun    *run,
          sqlite3_stmt *stmt,
          RowMap       *map)
{
  DynSqlRow *row = g_new0 (DynSqlRow, 1);

  row->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  for (int i = 0; i < map->n_columns; i++)
    {
      sqlite3_value *v = sqlite3_column_value (stmt, i);
      DynValue *cell = NULL;

      if (sqlite3_value_type (v) == SQLITE_TEXT && sqlite3_value_subtype (v) == 'J')
        cell = dyn_json_decode_plain ((const char *) sqlite3_value_text (v), sqlite3_value_bytes (v), NULL);
      if (cell == NULL)
        cell = dyn_sql_value_to_dyn (v, map->numeric[i] ||
                                        sqlite3_value_subtype (v) == DYN_SQL_DECIMAL_SUBTYPE);
      g_ptr_array_add (row->cells, cell);
    }
  if (map->source)
    {
      RowKey rk = { map, row->cells };
      g_autofree char *key = item_key_string (map->source, row_get, &rk);
      DynValue *item;

      g_mutex_lock (&run->lock);
      item = key ? g_hash_table_lookup (run->item_index, key) : NULL;
      if (item)
        {
          row->item = dyn_value_ref (item);
          row->source = g_strdup (map->source->name);
        }
      g_mutex_unlock (&run->lock);
    }
  return row;
}

/* The worker ---------------------------------------------------------------- */

static gboolean
finish_cb (gpointer data)
{
  DynSqlRun *run = data;
  GError *error = g_object_get_data (G_OBJECT (run->task), "dyn-sql-error");

  if (error)
    g_task_return_error (run->task, g_error_copy (error));
  else if (run->explain_only)
    g_task_return_pointer (run->task, g_steal_pointer (&run->plan), (GDestroyNotify) dyn_sql_plan_unref);
  else
    g_task_return_pointer (run->task, g_steal_pointer (&run->result), (GDestroyNotify) dyn_sql_result_free);
  return G_SOURCE_REMOVE;
}

static gboolean
execute (DynSqlRun     *run,
         sqlite3_stmt  *stmt,
         GError       **error)
{
  guint64 emitted = 0;
  RowMap map;
  gboolean ok = TRUE;
  const char * const *columns = dyn_sql_plan_get_columns (run->plan);

  run->result = dyn_sql_result_new (columns);
  run->batch_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_row_free);
  run->last_flush = g_get_monotonic_time ();
  row_map_init (run, stmt, &map);

  for (guint pass = 0; ok; pass++)
    {
      guint64 n = 0;
      int rc;

      run->pass_missed = FALSE;
      while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          n++;
          if (!run->pass_missed && n > emitted)
            {
              g_ptr_array_add (run->batch_rows, make_row (run, stmt, &map));
              emitted = n;
              flush_rows (run, FALSE);
            }
        }
      if (rc != SQLITE_DONE)
        {
          if (g_cancellable_is_cancelled (run->cancellable))
            break;
          /* A failed read keeps its domain and details (DynamoDB's code). */
          if (run->error)
            g_propagate_error (error, g_error_copy (run->error));
          else
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s", sqlite3_errmsg (run->db));
          ok = FALSE;
          break;
        }
      if (!run->pass_missed)
        break;
      run_flush (run);
      run_wait_idle (run);
      if (g_cancellable_is_cancelled (run->cancellable))
        break;
      sqlite3_reset (stmt);
    }
  run_flush (run);
  run_wait_idle (run);
  flush_rows (run, TRUE);
  run_wait_delivered (run, 0);
  g_free (map.numeric);
  g_mutex_lock (&run->lock);
  dyn_sql_result_set_stats (run->result, run->stats_order, g_cancellable_is_cancelled (run->cancellable));
  g_mutex_unlock (&run->lock);
  return ok;
}

static gpointer
worker (gpointer data)
{
  DynSqlRun *run = data;
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *stmt = NULL;
  guint n_sources = 0;

  if (!check_select (run->sql, &error) || !open_db (run, &error))
    goto out;
  stmt = prepare (run, run->sql, &error);
  if (stmt == NULL)
    goto out;
  if (!sqlite3_stmt_readonly (stmt) || sqlite3_stmt_isexplain (stmt))
    {
      g_set_error_literal (&error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("The SQL Workbench runs SELECT statements only (change items with PartiQL or in the table)"));
      goto out;
    }
  run->plan = build_plan (run, stmt, &n_sources, &error);
  if (run->plan == NULL || run->explain_only)
    goto out;
  run->sync_reads = n_sources <= 1;
  execute (run, stmt, &error);

out:
  if (stmt)
    sqlite3_finalize (stmt);
  run_flush (run);
  run_wait_idle (run);
  if (error)
    g_object_set_data_full (G_OBJECT (run->task), "dyn-sql-error", g_steal_pointer (&error),
                            (GDestroyNotify) g_error_free);
  g_main_context_invoke_full (run->caller, G_PRIORITY_DEFAULT, finish_cb, run, (GDestroyNotify) run_unref);
  return NULL;
}

static void
start (DynSqlEngine        *self,
       const char          *sql,
       gboolean             explain_only,
       DynSqlRowsFunc       rows_func,
       gpointer             rows_data,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data,
       gpointer             tag)
{
  DynSqlRun *run = run_new (self, sql, cancellable);
  GThread *thread;

  run->explain_only = explain_only;
  run->rows_func = rows_func;
  run->rows_data = rows_data;
  run->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (run->task, tag);
  g_task_set_check_cancellable (run->task, FALSE);
  thread = g_thread_new ("dyn-sql", worker, run);
  g_thread_unref (thread);
}

void
dyn_sql_engine_explain_async (DynSqlEngine        *self,
                              const char          *sql,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (DYN_IS_SQL_ENGINE (self));
  g_return_if_fail (sql != NULL);
  start (self, sql, TRUE, NULL, NULL, cancellable, callback, user_data, dyn_sql_engine_explain_async);
}

DynSqlPlan *
dyn_sql_engine_explain_finish (DynSqlEngine  *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyn_sql_engine_run_async (DynSqlEngine        *self,
                          const char          *sql,
                          DynSqlRowsFunc       rows_func,
                          gpointer             rows_data,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (DYN_IS_SQL_ENGINE (self));
  g_return_if_fail (sql != NULL);
  start (self, sql, FALSE, rows_func, rows_data, cancellable, callback, user_data, dyn_sql_engine_run_async);
}

DynSqlResult *
dyn_sql_engine_run_finish (DynSqlEngine  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
