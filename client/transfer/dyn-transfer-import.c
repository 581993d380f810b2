/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-json.h"
#include "dyn-transfer-import-private.h"
#include "dyn-transfer-write.h"

/*
 * The import job. A run is one or two passes over the input, driven by idle
 * callbacks on the caller's main context (a few hundred records at a time,
 * so the loop stays responsive):
 *
 * - the check pass (dry run, or before writing unless skip_bad): every
 *   record read and checked against the table's keys and DynamoDB's limits;
 *   the dry run also keeps a set of key digests (16 bytes of SHA-256 as 32
 *   hex digits plus the line, about 100 bytes per distinct key) to report
 *   duplicate keys;
 * - the write pass: records in file order into batches of 25 (one item with
 *   never-overwrite); a batch never holds a key twice and is not sent while
 *   a batch in flight holds one of its keys, so a key's last line is written
 *   last. Its memory is flat: at most `concurrency` + 2 batches.
 *
 * The checkpoint records the position up to which every batch is
 * acknowledged (the contiguous prefix of batches in file order), written at
 * most every 0.5 s and at the end. A resume starts there and writes the rest
 * again in order: a record after it may have been written before, and is
 * written again with the same value (or found identical with
 * never-overwrite), so the table ends with exactly the file's items.
 */

#define DEFAULT_CONCURRENCY 4
#define DEFAULT_MAX_PROBLEMS 1000
#define BATCH_SIZE 25
#define CHECKPOINT_INTERVAL_MS 500
#define PROGRESS_INTERVAL_MS 200
/* Batches between the oldest one not acknowledged and the newest sent: the
 * reading waits beyond this (a batch in a long backoff holds the
 * checkpoint back; the ones after it keep only their counts). */
#define MAX_WINDOW 256

G_DEFINE_FINAL_TYPE (DynImportJob, dyn_import_job, G_TYPE_OBJECT)

static void pump (DynImportJob *self);

/* ------------------------------------------------------------- problems */

static void
problem_free (gpointer data)
{
  DynImportProblem *p = data;

  g_free (p->where);
  g_free (p->message);
  g_clear_pointer (&p->key, dyn_value_unref);
  g_free (p);
}

void
_dyn_import_job_add_problem (DynImportJob          *self,
             DynImportProblemKind   kind,
             const DynItemPosition *position,
             const char            *message,
             const DynValue        *item)
{
  DynImportProblem *p;
  guint max = self->options.max_problems > 0 ? self->options.max_problems : DEFAULT_MAX_PROBLEMS;

  if (self->problems->len >= max)
    return;
  p = g_new0 (DynImportProblem, 1);
  p->kind = kind;
  p->position = *position;
  p->where = self->reader != NULL ? dyn_item_reader_describe_position (self->reader, position)
                                  : g_strdup_printf ("%" G_GUINT64_FORMAT, position->line);
  /* The reader's errors name the place already: keep the reason. */
  if (g_str_has_prefix (message, p->where) && strncmp (message + strlen (p->where), ": ", 2) == 0)
    message += strlen (p->where) + 2;
  p->message = g_strdup (message);
  if (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M)
    p->key = _dyn_import_item_key (self->keys, item);
  g_ptr_array_add (self->problems, p);
}

/* ------------------------------------------------------------- progress */

static void
update_progress (DynImportJob *self)
{
  DynTransferProgress *p = &self->progress;

  p->elapsed = (g_get_monotonic_time () - self->started) / (double) G_USEC_PER_SEC;
  if (self->reader != NULL)
    {
      p->bytes = dyn_item_reader_get_bytes_read (self->reader);
      p->bytes_total = dyn_item_reader_get_bytes_total (self->reader);
    }
  if (self->phase == PHASE_WRITE)
    p->items = self->summary.written + p->existing + p->identical;
  p->eta = -1;
  if (!p->finished && p->bytes_total > 0 && p->bytes > 0 && p->elapsed > 1)
    p->eta = p->elapsed * (double) (p->bytes_total - MIN (p->bytes, p->bytes_total)) / p->bytes;
}

void
_dyn_import_job_emit_progress (DynImportJob *self)
{
  update_progress (self);
  if (self->progress_func != NULL)
    self->progress_func (&self->progress, self->progress_data);
}

static gboolean
progress_tick_cb (gpointer user_data)
{
  DynImportJob *self = user_data;

  _dyn_import_job_emit_progress (self);
  /* A cancel while nothing is in flight: let the pump see it. */
  if (self->task != NULL && g_cancellable_is_cancelled (g_task_get_cancellable (self->task)) &&
      self->n_in_flight == 0 && self->pump_id == 0)
    pump (self);
  return G_SOURCE_CONTINUE;
}

void
_dyn_import_job_start_progress (DynImportJob *self)
{
  g_autoptr(GSource) source = g_timeout_source_new (PROGRESS_INTERVAL_MS);

  g_source_set_callback (source, progress_tick_cb, self, NULL);
  self->progress_id = g_source_attach (source, g_task_get_context (self->task));
}

void
_dyn_import_job_stop_timers (DynImportJob *self)
{
  GMainContext *context = self->task != NULL ? g_task_get_context (self->task) : NULL;
  guint *ids[] = { &self->progress_id, &self->checkpoint_id, &self->pump_id };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    if (*ids[i] != 0)
      {
        GSource *source = g_main_context_find_source_by_id (context, *ids[i]);
        if (source != NULL)
          g_source_destroy (source);
        *ids[i] = 0;
      }
}

/* --------------------------------------------------------------- batches */

static Batch *
batch_new (void)
{
  Batch *b = g_new0 (Batch, 1);

  b->items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  b->digests = g_ptr_array_new_with_free_func (g_free);
  b->positions = g_array_new (FALSE, FALSE, sizeof (DynItemPosition));
  return b;
}

static void
batch_free (Batch *b)
{
  if (b == NULL)
    return;
  g_ptr_array_unref (b->items);
  g_ptr_array_unref (b->digests);
  g_array_unref (b->positions);
  g_clear_object (&b->job);
  g_free (b);
}

static gboolean
batch_has_digest (Batch      *b,
                  const char *digest)
{
  for (guint i = 0; b != NULL && i < b->digests->len; i++)
    if (strcmp (g_ptr_array_index (b->digests, i), digest) == 0)
      return TRUE;
  return FALSE;
}

static guint
batch_capacity (DynImportJob *self)
{
  return self->options.never_overwrite ? 1 : BATCH_SIZE;
}

static void
clear_write_state (DynImportJob *self)
{
  Batch *b;

  while ((b = g_queue_pop_head (&self->batches)) != NULL)
    batch_free (b);
  g_clear_pointer (&self->open, batch_free);
  self->ready = NULL;           /* it is in the queue */
  g_clear_pointer (&self->held, dyn_value_unref);
  g_clear_pointer (&self->held_digest, g_free);
  g_clear_pointer (&self->in_flight, g_hash_table_unref);
  self->n_in_flight = 0;
  self->eof = FALSE;
}

/* -------------------------------------------------------------- checkpoint */

static void
checkpoint_init (DynImportJob        *self,
                 DynImportCheckpoint *cp)
{
  cp->endpoint = g_strdup (self->endpoint);
  cp->table = g_strdup (self->table);
  cp->input = g_strdup (self->input);
  cp->format = g_strdup (dyn_transfer_format_to_string (self->options.format));
  cp->never_overwrite = self->options.never_overwrite;
  cp->size = self->size;
  cp->mtime = self->mtime;
}

static gboolean
checkpoint_write_now (DynImportJob  *self,
                      GError       **error)
{
  self->acked.write_units = self->progress.write_units;
  self->checkpoint_written = g_get_monotonic_time ();
  return _dyn_import_checkpoint_write (self->checkpoint_path, &self->acked, error);
}

static void
fail (DynImportJob *self,
      GError       *error)
{
  if (self->failure == NULL)
    self->failure = error;
  else
    g_error_free (error);
}

static gboolean
checkpoint_timeout_cb (gpointer user_data)
{
  DynImportJob *self = user_data;
  GError *error = NULL;

  self->checkpoint_id = 0;
  if (!checkpoint_write_now (self, &error))
    {
      fail (self, error);
      pump (self);
    }
  return G_SOURCE_REMOVE;
}

static void
checkpoint_soon (DynImportJob *self)
{
  gint64 since = (g_get_monotonic_time () - self->checkpoint_written) / 1000;
  g_autoptr(GSource) source = NULL;

  if (self->checkpoint_id != 0)
    return;
  source = g_timeout_source_new (since >= CHECKPOINT_INTERVAL_MS ? 0 : (guint) (CHECKPOINT_INTERVAL_MS - since));
  g_source_set_callback (source, checkpoint_timeout_cb, self, NULL);
  self->checkpoint_id = g_source_attach (source, g_task_get_context (self->task));
}

/* Pops the acknowledged batches at the head. */
static void
advance (DynImportJob *self)
{
  Batch *head;
  gboolean moved = FALSE;

  while ((head = g_queue_peek_head (&self->batches)) != NULL && head->done)
    {
      g_queue_pop_head (&self->batches);
      self->acked.position = head->end;
      self->acked.bad = head->cum_bad;
      self->acked.written += head->written;
      self->acked.existing += head->existing;
      self->acked.identical += head->identical;
      batch_free (head);
      moved = TRUE;
    }
  if (moved)
    checkpoint_soon (self);
}

/* ---------------------------------------------------------------- writing */

static void
batch_finished (Batch  *b,
                GError *error)
{
  /* The queue keeps the batch (advance() may free it); its reference to
   * the job ends here. */
  g_autoptr(DynImportJob) self = g_steal_pointer (&b->job);

  self->n_in_flight--;
  for (guint i = 0; i < b->digests->len; i++)
    {
      const char *digest = g_ptr_array_index (b->digests, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->in_flight, digest));

      if (n <= 1)
        g_hash_table_remove (self->in_flight, digest);
      else
        g_hash_table_insert (self->in_flight, g_strdup (digest), GUINT_TO_POINTER (n - 1));
    }
  if (error != NULL)
    fail (self, error);
  else
    {
      b->done = TRUE;
      /* Only its counts and end are needed until it reaches the head. */
      g_ptr_array_set_size (b->items, 0);
      self->summary.written += b->written;
      self->progress.existing += b->existing;
      self->progress.identical += b->identical;
      advance (self);
    }
  pump (self);
}

static void
batch_write_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Batch *b = user_data;
  GError *error = NULL;
  g_autoptr(DynImportJob) self = g_object_ref (b->job);

  if (_dyn_transfer_batch_write_finish (result, &error))
    b->written = b->items->len;
  batch_finished (b, error);
}

/* never-overwrite: the existing item, from the failure or a GetItem */
static void
guarded_compare (Batch          *b,
                 const DynValue *existing)
{
  DynImportJob *self = b->job;
  const DynValue *item = g_ptr_array_index (b->items, 0);

  if (existing != NULL && dyn_value_equal (existing, item))
    b->identical = 1;
  else if (existing != NULL)
    {
      b->existing = 1;
      _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_EXISTS, &g_array_index (b->positions, DynItemPosition, 0),
                   _("an item with this key is in the table with another value; it was left as it is"),
                   item);
    }
  else
    /* Deleted between the failed put and the read: the put may go again,
     * but this run leaves it; a resume or a second run writes it. */
    b->existing = 1;
}

static void
guarded_get_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Batch *b = user_data;
  g_autoptr(DynImportJob) self = g_object_ref (b->job);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);

  self->progress.requests++;
  if (response == NULL)
    {
      batch_finished (b, g_steal_pointer (&error));
      return;
    }
  self->progress.read_units += response->read_units;
  guarded_compare (b, response->item);
  batch_finished (b, NULL);
}

static JsonNode *
key_names_node (DynImportJob *self,
                JsonObject   *params)
{
  JsonObject *names = json_object_new ();

  json_object_set_string_member (names, "#k0", self->keys->table.keys.partition_key);
  json_object_set_object_member (params, "ExpressionAttributeNames", names);
  return NULL;
}

static void
guarded_put_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  Batch *b = user_data;
  g_autoptr(DynImportJob) self = g_object_ref (b->job);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);

  self->progress.requests += response != NULL ? response->attempts : 1;
  if (response != NULL)
    {
      self->progress.write_units += response->write_units;
      if (response->attempts > 1)
        self->progress.retries += response->attempts - 1;
      if (self->limiter != NULL)
        dyn_rate_limiter_settle (self->limiter, b->estimate, response->write_units);
      b->written = 1;
      batch_finished (b, NULL);
      return;
    }
  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED))
    {
      g_autoptr(DynValue) existing = dyn_error_get_item (error);
      JsonObject *params;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(DynValue) key = NULL;

      /* A failed condition costs the write too (not reported): keep the estimate. */
      if (existing != NULL)
        {
          guarded_compare (b, existing);
          batch_finished (b, NULL);
          return;
        }
      /* No ALL_OLD in the error: read the item, strongly consistent. */
      key = _dyn_import_item_key (self->keys, g_ptr_array_index (b->items, 0));
      params = json_object_new ();
      json_object_set_string_member (params, "TableName", self->table);
      json_object_set_member (params, "Key", dyn_item_to_ddb_json (key));
      json_object_set_boolean_member (params, "ConsistentRead", TRUE);
      json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
      node = json_node_init_object (json_node_alloc (), params);
      json_object_unref (params);
      dyn_client_call_async (self->client, "GetItem", node, g_task_get_cancellable (self->task),
                             guarded_get_cb, b);
      return;
    }
  batch_finished (b, g_steal_pointer (&error));
}

static void
guarded_rate_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Batch *b = user_data;
  DynImportJob *self = b->job;
  GError *error = NULL;
  JsonObject *params;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *condition = NULL;

  if (!_dyn_transfer_rate_wait_finish (result, &error))
    {
      g_autoptr(DynImportJob) keep = g_object_ref (self);
      batch_finished (b, error);
      return;
    }
  params = json_object_new ();
  json_object_set_string_member (params, "TableName", self->table);
  json_object_set_member (params, "Item", dyn_item_to_ddb_json (g_ptr_array_index (b->items, 0)));
  json_object_set_string_member (params, "ConditionExpression", "attribute_not_exists(#k0)");
  key_names_node (self, params);
  json_object_set_string_member (params, "ReturnValuesOnConditionCheckFailure", "ALL_OLD");
  json_object_set_string_member (params, "ReturnConsumedCapacity", "TOTAL");
  node = json_node_init_object (json_node_alloc (), params);
  json_object_unref (params);
  dyn_client_call_async (self->client, "PutItem", node, g_task_get_cancellable (self->task),
                         guarded_put_cb, b);
}

static void
send_batch (DynImportJob *self,
            Batch        *b)
{
  b->sent = TRUE;
  b->job = g_object_ref (self);
  self->n_in_flight++;
  for (guint i = 0; i < b->digests->len; i++)
    {
      const char *digest = g_ptr_array_index (b->digests, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->in_flight, digest));

      g_hash_table_insert (self->in_flight, g_strdup (digest), GUINT_TO_POINTER (n + 1));
    }

  if (self->options.never_overwrite)
    {
      _dyn_transfer_rate_wait (self->limiter, b->estimate, g_task_get_cancellable (self->task),
                               guarded_rate_cb, b);
      return;
    }
  {
    g_autoptr(JsonArray) requests = json_array_new ();

    for (guint i = 0; i < b->items->len; i++)
      {
        JsonObject *put = json_object_new ();
        JsonObject *request = json_object_new ();

        json_object_set_member (put, "Item", dyn_item_to_ddb_json (g_ptr_array_index (b->items, i)));
        json_object_set_object_member (request, "PutRequest", put);
        json_array_add_object_element (requests, request);
      }
    _dyn_transfer_batch_write_async (self->client, self->table, requests, b->estimate, self->limiter,
                                     &self->progress, g_task_get_cancellable (self->task),
                                     batch_write_cb, b);
  }
}

static void
close_open (DynImportJob *self)
{
  Batch *b = g_steal_pointer (&self->open);

  b->cum_bad = self->bad_total;
  g_queue_push_tail (&self->batches, b);
  self->ready = b;
}

ReadOutcome
_dyn_import_job_read_record (DynImportJob     *self,
             DynValue        **item_out,
             DynItemPosition  *position,
             DynItemPosition  *next,
             GError          **error)
{
  g_autoptr(DynValue) item = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *problem = NULL;
  DynItemReadResult r = dyn_item_reader_next (self->reader, &item, &local_error);

  if (r == DYN_ITEM_READ_END)
    return READ_END;
  if (r == DYN_ITEM_READ_FAILED)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return READ_FAILED;
    }
  dyn_item_reader_get_last (self->reader, position);
  dyn_item_reader_get_next (self->reader, next);
  if (!self->checked)
    self->summary.records++;
  if (r == DYN_ITEM_READ_BAD)
    {
      if (!self->checked)
        {
          self->summary.bad++;
          _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_BAD_LINE, position, local_error->message, NULL);
        }
      return READ_BAD;
    }
  problem = _dyn_import_check_item (self->keys, item);
  if (problem != NULL)
    {
      if (!self->checked)
        {
          self->summary.bad++;
          _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_BAD_LINE, position, problem, item);
        }
      return READ_BAD;
    }
  if (!self->checked)
    {
      gsize size = dyn_item_size (item);

      self->summary.items++;
      self->summary.bytes += size;
      self->summary.write_units_estimate += _dyn_transfer_item_write_units (item);
    }
  *item_out = g_steal_pointer (&item);
  return READ_ITEM;
}

typedef enum {
  FILL_READY,      /* a batch is ready, or the end was reached */
  FILL_BLOCKED,    /* the next item's key is in flight */
  FILL_YIELD,      /* read enough for now */
} FillOutcome;

static FillOutcome
fill (DynImportJob *self)
{
  for (guint n = 0; n < DYN_IMPORT_READ_CHUNK; n++)
    {
      if (self->held == NULL)
        {
          g_autoptr(DynValue) item = NULL;
          DynItemPosition position, next;
          GError *error = NULL;

          switch (_dyn_import_job_read_record (self, &item, &position, &next, &error))
            {
            case READ_END:
              self->eof = TRUE;
              if (self->open != NULL)
                {
                  dyn_item_reader_get_next (self->reader, &self->open->end);
                  close_open (self);
                }
              else
                {
                  /* Trailing bad records: covered once every batch is acknowledged. */
                  Batch *tail = batch_new ();
                  dyn_item_reader_get_next (self->reader, &tail->end);
                  tail->cum_bad = self->bad_total;
                  tail->done = TRUE;
                  tail->sent = TRUE;
                  g_queue_push_tail (&self->batches, tail);
                  advance (self);
                }
              return FILL_READY;
            case READ_FAILED:
              fail (self, error);
              return FILL_READY;
            case READ_BAD:
              if (!self->options.skip_bad)
                {
                  /* The check pass found it clean: the input changed under us. */
                  fail (self, g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                           _("The input changed while it was imported")));
                  return FILL_READY;
                }
              self->bad_total++;
              self->progress.skipped++;
              continue;
            case READ_ITEM:
            default:
              self->held = g_steal_pointer (&item);
              self->held_digest = _dyn_import_key_digest (self->keys, self->held);
              self->held_position = position;
              self->held_next = next;
              break;
            }
        }

      /* The held item goes into the open batch unless its key is there or in flight. */
      if (batch_has_digest (self->open, self->held_digest) ||
          g_hash_table_contains (self->in_flight, self->held_digest))
        {
          if (self->open != NULL)
            {
              close_open (self);
              return FILL_READY;
            }
          return FILL_BLOCKED;
        }
      if (self->open == NULL)
        self->open = batch_new ();
      self->open->estimate += _dyn_transfer_item_write_units (self->held);
      g_ptr_array_add (self->open->items, g_steal_pointer (&self->held));
      g_ptr_array_add (self->open->digests, g_steal_pointer (&self->held_digest));
      g_array_append_val (self->open->positions, self->held_position);
      self->open->end = self->held_next;
      self->open->cum_bad = self->bad_total;
      if (self->open->items->len >= batch_capacity (self))
        {
          close_open (self);
          return FILL_READY;
        }
    }
  return FILL_YIELD;
}

static void finish_write (DynImportJob *self);

static gboolean
pump_idle_cb (gpointer user_data)
{
  DynImportJob *self = user_data;

  self->pump_id = 0;
  pump (self);
  return G_SOURCE_REMOVE;
}

static void
pump_later (DynImportJob *self)
{
  g_autoptr(GSource) source = NULL;

  if (self->pump_id != 0)
    return;
  source = g_idle_source_new ();
  g_source_set_callback (source, pump_idle_cb, self, NULL);
  self->pump_id = g_source_attach (source, g_task_get_context (self->task));
}

static guint
concurrency (DynImportJob *self)
{
  return self->options.concurrency > 0 ? self->options.concurrency : DEFAULT_CONCURRENCY;
}

static void
pump (DynImportJob *self)
{
  if (self->task == NULL || self->phase != PHASE_WRITE)
    return;
  if (self->failure == NULL && g_cancellable_is_cancelled (g_task_get_cancellable (self->task)))
    {
      GError *error = NULL;
      g_cancellable_set_error_if_cancelled (g_task_get_cancellable (self->task), &error);
      fail (self, error);
    }
  if (self->failure != NULL)
    {
      if (self->n_in_flight == 0)
        finish_write (self);
      return;
    }

  for (;;)
    {
      if (self->ready != NULL)
        {
          if (self->n_in_flight >= concurrency (self))
            return;
          send_batch (self, g_steal_pointer (&self->ready));
          if (self->failure != NULL)
            return;
          continue;
        }
      if (self->eof)
        {
          if (self->n_in_flight == 0 && self->failure == NULL)
            finish_write (self);
          return;
        }
      if (g_queue_get_length (&self->batches) >= MAX_WINDOW)
        return;       /* a batch's completion calls pump again */
      switch (fill (self))
        {
        case FILL_READY:
          if (self->failure != NULL)
            {
              pump (self);
              return;
            }
          continue;
        case FILL_BLOCKED:
          return;       /* a batch's completion calls pump again */
        case FILL_YIELD:
        default:
          pump_later (self);
          return;
        }
    }
}

static void
return_run (DynImportJob *self,
            GError       *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  _dyn_import_job_stop_timers (self);
  self->progress.finished = TRUE;
  /* The last report counts with the phase that ran (the write's items). */
  _dyn_import_job_emit_progress (self);
  self->phase = PHASE_IDLE;
  g_clear_pointer (&self->reader, dyn_item_reader_free);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
finish_write (DynImportJob *self)
{
  GError *error = g_steal_pointer (&self->failure);
  GError *local_error = NULL;

  _dyn_import_job_stop_timers (self);
  if (error != NULL)
    {
      /* Keep what is acknowledged, for --resume. */
      if (!checkpoint_write_now (self, &local_error))
        {
          g_prefix_error (&local_error, _("The import failed (%s) and its checkpoint could not be written: "),
                          error->message);
          g_error_free (error);
          error = local_error;
        }
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("The import stopped; what was written is kept, resume with --resume: "));
      clear_write_state (self);
      return_run (self, error);
      return;
    }
  clear_write_state (self);
  if (g_unlink (self->checkpoint_path) != 0 && g_file_test (self->checkpoint_path, G_FILE_TEST_EXISTS))
    g_warning ("cannot remove %s", self->checkpoint_path);
  return_run (self, NULL);
}

gboolean
_dyn_import_job_open_reader (DynImportJob  *self,
             GError       **error)
{
  g_clear_pointer (&self->reader, dyn_item_reader_free);
  self->reader = dyn_item_reader_new (self->input, self->options.format,
                                      self->has_reader_options ? &self->reader_options : NULL, error);
  if (self->reader == NULL)
    return FALSE;
  if (self->resumed && !dyn_item_reader_seek (self->reader, &self->start, error))
    return FALSE;
  return TRUE;
}

static void
start_write (DynImportJob *self)
{
  GError *error = NULL;

  if (!_dyn_import_job_open_reader (self, &error))
    {
      return_run (self, error);
      return;
    }
  self->phase = PHASE_WRITE;
  self->in_flight = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->bad_total = self->acked.bad;
  self->progress.items_total = self->checked ? self->summary.items + self->acked.written : 0;
  if (self->progress.items_total == 0)
    self->progress.items_total = dyn_item_reader_get_expected_items (self->reader);
  if (self->options.max_wcu > 0 && self->limiter == NULL)
    self->limiter = dyn_rate_limiter_new (self->options.max_wcu);
  self->checkpoint_written = 0;
  pump (self);
}

/* ------------------------------------------------------------ check pass */

static gboolean
check_idle_cb (gpointer user_data)
{
  DynImportJob *self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (self->task);

  self->pump_id = 0;
  if (g_cancellable_is_cancelled (cancellable))
    {
      GError *error = NULL;
      g_cancellable_set_error_if_cancelled (cancellable, &error);
      return_run (self, error);
      return G_SOURCE_REMOVE;
    }
  for (guint n = 0; n < DYN_IMPORT_READ_CHUNK; n++)
    {
      g_autoptr(DynValue) item = NULL;
      DynItemPosition position, next;
      GError *error = NULL;
      ReadOutcome r = _dyn_import_job_read_record (self, &item, &position, &next, &error);

      if (r == READ_FAILED)
        {
          return_run (self, error);
          return G_SOURCE_REMOVE;
        }
      if (r == READ_END)
        {
          self->checked = TRUE;
          if (self->options.dry_run)
            {
              return_run (self, NULL);
              return G_SOURCE_REMOVE;
            }
          if (self->summary.bad > 0 && !self->options.skip_bad)
            {
              g_autofree char *bad = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->summary.bad);
              return_run (self, g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                             g_dngettext (GETTEXT_PACKAGE,
                                                          "%s record is not a valid item; nothing was written",
                                                          "%s records are not valid items; nothing was written",
                                                          self->summary.bad),
                                             bad));
              return G_SOURCE_REMOVE;
            }
          start_write (self);
          return G_SOURCE_REMOVE;
        }
      if (r == READ_ITEM)
        {
          self->progress.items++;
          if (self->seen != NULL)
            {
              char *digest = _dyn_import_key_digest (self->keys, item);
              gpointer line;

              if (g_hash_table_lookup_extended (self->seen, digest, NULL, &line))
                {
                  g_autofree char *earlier = g_strdup_printf ("%" G_GSIZE_FORMAT, GPOINTER_TO_SIZE (line));
                  /* Translators: %s is the earlier line's number */
                  g_autofree char *message = g_strdup_printf (_("the key was on line %s already; this later line wins"),
                                                              earlier);
                  self->summary.duplicates++;
                  _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_DUPLICATE, &position, message, item);
                  g_free (digest);
                }
              else
                g_hash_table_insert (self->seen, digest, GSIZE_TO_POINTER ((gsize) position.line));
            }
        }
    }
  {
    g_autoptr(GSource) source = g_idle_source_new ();
    g_source_set_callback (source, check_idle_cb, self, NULL);
    self->pump_id = g_source_attach (source, g_task_get_context (self->task));
  }
  return G_SOURCE_REMOVE;
}

static void
schedule_check (DynImportJob *self)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_callback (source, check_idle_cb, self, NULL);
  self->pump_id = g_source_attach (source, g_task_get_context (self->task));
}

/* ---------------------------------------------------------------- the job */

static void
dyn_import_job_dispose (GObject *object)
{
  DynImportJob *self = DYN_IMPORT_JOB (object);

  g_clear_object (&self->client);
  G_OBJECT_CLASS (dyn_import_job_parent_class)->dispose (object);
}

static void
dyn_import_job_finalize (GObject *object)
{
  DynImportJob *self = DYN_IMPORT_JOB (object);

  clear_write_state (self);
  g_free (self->table);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_free (self->input);
  g_strfreev (self->csv_types);
  g_free (self->endpoint);
  g_free (self->checkpoint_path);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->reader, dyn_item_reader_free);
  g_clear_pointer (&self->limiter, dyn_rate_limiter_free);
  g_clear_pointer (&self->seen, g_hash_table_unref);
  g_clear_pointer (&self->last_line, g_hash_table_unref);
  g_clear_pointer (&self->chunk_items, g_ptr_array_unref);
  g_clear_pointer (&self->chunk_digests, g_ptr_array_unref);
  g_clear_pointer (&self->chunk_positions, g_array_unref);
  g_clear_error (&self->failure);
  _dyn_import_checkpoint_clear (&self->acked);
  G_OBJECT_CLASS (dyn_import_job_parent_class)->finalize (object);
}

static void
dyn_import_job_class_init (DynImportJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_import_job_dispose;
  object_class->finalize = dyn_import_job_finalize;
}

static void
dyn_import_job_init (DynImportJob *self)
{
  self->problems = g_ptr_array_new_with_free_func (problem_free);
  g_queue_init (&self->batches);
}

static char *
client_endpoint (DynClient *client)
{
  const char *endpoint = dyn_client_get_endpoint (client);

  if (endpoint != NULL)
    return g_strdup (endpoint);
  return g_strdup_printf ("https://dynamodb.%s.amazonaws.com", dyn_client_get_region (client));
}

DynImportJob *
dyn_import_job_new (DynClient              *client,
                    const char             *table,
                    const DynTableKeys     *keys,
                    const DynImportOptions *options,
                    GError                **error)
{
  g_autoptr(DynImportJob) self = NULL;
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (keys != NULL, NULL);
  g_return_val_if_fail (options != NULL && options->input != NULL, NULL);

  if (keys->table.keys.partition_key == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The table's key is not known"));
      return NULL;
    }
  if (options->resume && options->restart)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("--resume and --restart exclude each other"));
      return NULL;
    }
  if (options->max_wcu < 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The write rate limit must be positive"));
      return NULL;
    }

  self = g_object_new (DYN_TYPE_IMPORT_JOB, NULL);
  self->client = g_object_ref (client);
  self->table = g_strdup (table);
  self->keys = dyn_table_keys_copy (keys);
  self->options = *options;
  file = g_file_new_for_path (options->input);
  self->input = g_file_get_path (file);
  self->options.input = self->input;
  if (options->reader != NULL || options->format == DYN_TRANSFER_FORMAT_CSV)
    {
      GStrvBuilder *types = g_strv_builder_new ();
      const char * const *given = options->reader != NULL ? options->reader->csv_types : NULL;

      /* A CSV column without a type suffix that is a key of the table
       * or of an index has the key's type (a hand-made "id,name" file
       * into a table keyed by a number); the user's --csv-type wins,
       * being read after. */
      if (options->format == DYN_TRANSFER_FORMAT_CSV)
        for (guint i = 0; i <= self->keys->indexes->len; i++)
          {
            const DynIndexInfo *info = i == 0 ? &self->keys->table : g_ptr_array_index (self->keys->indexes, i - 1);

            for (guint k = 0; k < dyn_key_schema_get_n_attributes (&info->keys); k++)
              {
                DynValueType type;
                const char *name = dyn_key_schema_get_attribute (&info->keys, k, &type);

                g_autofree char *spec = g_strdup_printf ("%s=%s", name, dyn_value_type_to_string (type));

                g_strv_builder_add (types, spec);
              }
          }
      if (given != NULL)
        g_strv_builder_addv (types, (const char **) given);
      self->has_reader_options = TRUE;
      self->csv_types = g_strv_builder_end (types);
      g_strv_builder_unref (types);
      self->reader_options.csv_types = (const char * const *) self->csv_types;
      self->reader_options.verify_checksums = options->reader != NULL ? options->reader->verify_checksums : TRUE;
      self->options.reader = &self->reader_options;
    }
  self->endpoint = client_endpoint (client);
  self->checkpoint_path = dyn_import_checkpoint_path (self->endpoint, table, self->input);
  self->progress.eta = -1;
  return g_steal_pointer (&self);
}

/* Compares the checkpoint with this run; FALSE with the reason. */
static gboolean
checkpoint_matches (DynImportJob              *self,
                    const DynImportCheckpoint *cp,
                    GError                   **error)
{
  const char *format = dyn_transfer_format_to_string (self->options.format);

  if (cp->size != self->size || cp->mtime != self->mtime)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("%s changed since the import stopped (its size or modification time differ); "
                     "start again with --restart"), self->input);
      return FALSE;
    }
  if (g_strcmp0 (cp->format, format) != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("The stopped import read the input as %s, not %s; resume with the same format or use --restart"),
                   cp->format, format);
      return FALSE;
    }
  if (cp->never_overwrite != self->options.never_overwrite)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   cp->never_overwrite
                   ? _("The stopped import never overwrote items; resume it with --no-overwrite or use --restart")
                   : _("The stopped import overwrote items; resume it without --no-overwrite or use --restart"));
      return FALSE;
    }
  if (g_strcmp0 (cp->table, self->table) != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("The checkpoint belongs to an import into %s"), cp->table);
      return FALSE;
    }
  return TRUE;
}

/* Decides where the run starts; FALSE with an error. */
static gboolean
prepare_run (DynImportJob  *self,
             GError       **error)
{
  gboolean exists;

  if (!_dyn_import_input_stat (self->input, &self->size, &self->mtime, error))
    return FALSE;
  _dyn_import_checkpoint_clear (&self->acked);
  checkpoint_init (self, &self->acked);
  self->acked.position.line = 1;
  self->resumed = FALSE;
  memset (&self->start, 0, sizeof self->start);
  self->start.line = 1;
  if (self->options.dry_run)
    return TRUE;

  exists = g_file_test (self->checkpoint_path, G_FILE_TEST_EXISTS);
  if (exists && self->options.restart)
    {
      if (g_unlink (self->checkpoint_path) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot remove %s"), self->checkpoint_path);
          return FALSE;
        }
      exists = FALSE;
    }
  if (exists && !self->options.resume)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("An earlier import of %s into %s did not finish; continue it with --resume "
                     "or start again from the first line with --restart"),
                   self->input, self->table);
      return FALSE;
    }
  if (exists)
    {
      DynImportCheckpoint cp = { 0 };

      if (!_dyn_import_checkpoint_read (self->checkpoint_path, &cp, error))
        return FALSE;
      if (!checkpoint_matches (self, &cp, error))
        {
          _dyn_import_checkpoint_clear (&cp);
          return FALSE;
        }
      self->start = cp.position;
      self->resumed = TRUE;
      self->acked.position = cp.position;
      self->acked.written = cp.written;
      self->acked.bad = cp.bad;
      self->acked.existing = cp.existing;
      self->acked.identical = cp.identical;
      self->summary.resumed_from = cp.position.record;
      self->summary.written = cp.written;
      self->progress.existing = cp.existing;
      self->progress.identical = cp.identical;
      self->progress.skipped = cp.bad;
      self->progress.write_units = cp.write_units;
      _dyn_import_checkpoint_clear (&cp);
    }
  return TRUE;
}

/* A run or a verify starts: FALSE (the task answered) when one is going. */
gboolean
_dyn_import_job_begin (DynImportJob            *self,
                       GTask                  **task,
                       DynTransferProgressFunc  progress,
                       gpointer                 progress_data)
{
  if (self->task != NULL)
    {
      g_task_return_new_error (*task, G_IO_ERROR, G_IO_ERROR_PENDING, _("The import is running already"));
      return FALSE;
    }
  self->task = g_steal_pointer (task);
  self->progress_func = progress;
  self->progress_data = progress_data;
  self->started = g_get_monotonic_time ();
  return TRUE;
}

void
dyn_import_job_run_async (DynImportJob           *self,
                          GCancellable           *cancellable,
                          DynTransferProgressFunc progress,
                          gpointer                progress_data,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;

  g_return_if_fail (DYN_IS_IMPORT_JOB (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_import_job_run_async);
  if (!_dyn_import_job_begin (self, &task, progress, progress_data))
    return;
  memset (&self->summary, 0, sizeof self->summary);
  memset (&self->progress, 0, sizeof self->progress);
  self->progress.eta = -1;
  g_ptr_array_set_size (self->problems, 0);
  self->checked = FALSE;
  g_clear_pointer (&self->seen, g_hash_table_unref);
  g_clear_error (&self->failure);

  if (!prepare_run (self, &error) || !_dyn_import_job_open_reader (self, &error))
    {
      return_run (self, error);
      return;
    }
  _dyn_import_job_start_progress (self);
  if (self->options.dry_run || !self->options.skip_bad)
    {
      self->phase = PHASE_CHECK;
      if (self->options.dry_run)
        self->seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      schedule_check (self);
      return;
    }
  start_write (self);
}

gboolean
dyn_import_job_run_finish (DynImportJob  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

const DynTransferProgress *
dyn_import_job_get_progress (DynImportJob *self)
{
  g_return_val_if_fail (DYN_IS_IMPORT_JOB (self), NULL);
  return &self->progress;
}

const DynImportSummary *
dyn_import_job_get_summary (DynImportJob *self)
{
  g_return_val_if_fail (DYN_IS_IMPORT_JOB (self), NULL);
  return &self->summary;
}

GPtrArray *
dyn_import_job_get_problems (DynImportJob *self)
{
  g_return_val_if_fail (DYN_IS_IMPORT_JOB (self), NULL);
  return self->problems;
}

gboolean
dyn_import_job_has_checkpoint (DynImportJob    *self,
                               DynItemPosition *position)
{
  DynImportCheckpoint cp = { 0 };

  g_return_val_if_fail (DYN_IS_IMPORT_JOB (self), FALSE);

  if (!_dyn_import_checkpoint_read (self->checkpoint_path, &cp, NULL))
    return FALSE;
  if (position != NULL)
    *position = cp.position;
  _dyn_import_checkpoint_clear (&cp);
  return TRUE;
}

char *
dyn_import_checkpoint_path (const char *endpoint,
                            const char *table,
                            const char *input)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autoptr(GFile) file = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (table != NULL && input != NULL, NULL);

  file = g_file_new_for_path (input);
  absolute = g_file_get_path (file);
  if (endpoint != NULL)
    g_checksum_update (sum, (const guchar *) endpoint, -1);
  g_checksum_update (sum, (const guchar *) "\n", 1);
  g_checksum_update (sum, (const guchar *) table, -1);
  g_checksum_update (sum, (const guchar *) "\n", 1);
  g_checksum_update (sum, (const guchar *) absolute, -1);
  name = g_strconcat (g_checksum_get_string (sum), ".json", NULL);
  return g_build_filename (g_get_user_state_dir (), "dynoscope", "imports", name, NULL);
}

