/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-transfer-import-private.h"

#define VERIFY_CHUNK 100
#define VERIFY_COUNT_SEGMENTS 4

/* ----------------------------------------------------------------- verify */

/*
 * Two passes over the input and a count: the first maps each key's digest
 * to the record of its last line (about 100 bytes per distinct key); the
 * second reads the items again and, for each key's last line, reads the
 * table's item back in BatchGetItem chunks of 100 (strongly consistent) and
 * compares; then a Select=COUNT Scan counts the table (the scan engine of
 * dyn-transfer-scan.c, dyn_transfer_count_async()).
 */

static void
return_verify (DynImportJob *self,
               GError       *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  double read_units;
  guint requests;

  _dyn_import_job_stop_timers (self);
  self->phase = PHASE_IDLE;
  self->progress.finished = TRUE;
  _dyn_import_job_emit_progress (self);
  /* The run's progress again, with what the verify read. */
  read_units = self->progress.read_units;
  requests = self->progress.requests;
  self->progress = self->run_progress;
  self->progress.read_units += read_units;
  self->progress.requests += requests;
  g_clear_pointer (&self->reader, dyn_item_reader_free);
  g_clear_pointer (&self->last_line, g_hash_table_unref);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean verify_idle_cb (gpointer user_data);

static void
verify_later (DynImportJob *self)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_callback (source, verify_idle_cb, self, NULL);
  self->pump_id = g_source_attach (source, g_task_get_context (self->task));
}

/* The table's exact count: the scan engine's parallel Select=COUNT Scan,
 * strongly consistent (it follows the writes just made). */
static void
count_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(DynImportJob) self = user_data;
  GError *error = NULL;
  DynCountResult count = { 0 };

  if (!dyn_transfer_count_finish (result, &count, &error))
    {
      return_verify (self, error);
      return;
    }
  self->verify.table_items = count.count;
  self->progress.read_units += count.read_units;
  self->progress.requests += count.requests;
  return_verify (self, NULL);
}

static void
count_next (DynImportJob *self)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, self->table);

  request->consistent_read = TRUE;
  dyn_transfer_count_async (self->client, request, VERIFY_COUNT_SEGMENTS, g_task_get_cancellable (self->task),
                            NULL, NULL, count_cb, g_object_ref (self));
}

static void
verify_get_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(DynImportJob) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) found = dyn_client_batch_get_finish (DYN_CLIENT (source), result, &error);
  g_autoptr(GHashTable) by_digest = NULL;

  if (found == NULL)
    {
      return_verify (self, g_steal_pointer (&error));
      return;
    }
  self->progress.requests++;
  by_digest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < found->len; i++)
    g_hash_table_insert (by_digest, _dyn_import_key_digest (self->keys, g_ptr_array_index (found, i)),
                         g_ptr_array_index (found, i));
  for (guint i = 0; i < self->chunk_items->len; i++)
    {
      DynValue *item = g_ptr_array_index (self->chunk_items, i);
      DynValue *there = g_hash_table_lookup (by_digest, g_ptr_array_index (self->chunk_digests, i));
      const DynItemPosition *position = &g_array_index (self->chunk_positions, DynItemPosition, i);

      self->verify.checked++;
      self->progress.items++;
      if (there == NULL)
        {
          self->verify.missing++;
          _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_MISSING, position, _("the item is not in the table"), item);
        }
      else if (!dyn_value_equal (there, item))
        {
          self->verify.different++;
          _dyn_import_job_add_problem (self, DYN_IMPORT_PROBLEM_DIFFERENT, position,
                       _("the table's item differs from this line"), item);
        }
    }
  g_ptr_array_set_size (self->chunk_items, 0);
  g_ptr_array_set_size (self->chunk_digests, 0);
  g_array_set_size (self->chunk_positions, 0);
  if (self->phase == PHASE_VERIFY_COUNT)
    count_next (self);
  else
    verify_later (self);
}

static void
verify_send_chunk (DynImportJob *self)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  for (guint i = 0; i < self->chunk_items->len; i++)
    g_ptr_array_add (keys, _dyn_import_item_key (self->keys, g_ptr_array_index (self->chunk_items, i)));
  dyn_client_batch_get_async (self->client, self->table, keys, NULL, NULL, TRUE,
                              g_task_get_cancellable (self->task), verify_get_cb, g_object_ref (self));
}

static gboolean
verify_idle_cb (gpointer user_data)
{
  DynImportJob *self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (self->task);
  GError *error = NULL;

  self->pump_id = 0;
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      return_verify (self, error);
      return G_SOURCE_REMOVE;
    }
  for (guint n = 0; n < DYN_IMPORT_READ_CHUNK; n++)
    {
      g_autoptr(DynValue) item = NULL;
      DynItemPosition position, next;
      ReadOutcome r = _dyn_import_job_read_record (self, &item, &position, &next, &error);

      if (r == READ_FAILED)
        {
          return_verify (self, error);
          return G_SOURCE_REMOVE;
        }
      if (r == READ_END)
        {
          if (self->phase == PHASE_VERIFY_INDEX)
            {
              self->phase = PHASE_VERIFY_READ;
              self->record = 0;
              if (!_dyn_import_job_open_reader (self, &error))
                {
                  return_verify (self, error);
                  return G_SOURCE_REMOVE;
                }
              self->progress.items_total = g_hash_table_size (self->last_line);
              continue;
            }
          self->phase = PHASE_VERIFY_COUNT;
          if (self->chunk_items->len > 0)
            verify_send_chunk (self);
          else
            count_next (self);
          return G_SOURCE_REMOVE;
        }
      self->record++;
      if (r != READ_ITEM)
        continue;
      if (self->phase == PHASE_VERIFY_INDEX)
        g_hash_table_replace (self->last_line, _dyn_import_key_digest (self->keys, item),
                              GSIZE_TO_POINTER ((gsize) self->record));
      else
        {
          char *digest = _dyn_import_key_digest (self->keys, item);

          if (GPOINTER_TO_SIZE (g_hash_table_lookup (self->last_line, digest)) != self->record)
            {
              g_free (digest);
              continue;
            }
          g_ptr_array_add (self->chunk_items, g_steal_pointer (&item));
          g_ptr_array_add (self->chunk_digests, digest);
          g_array_append_val (self->chunk_positions, position);
          if (self->chunk_items->len >= VERIFY_CHUNK)
            {
              verify_send_chunk (self);
              return G_SOURCE_REMOVE;
            }
        }
    }
  verify_later (self);
  return G_SOURCE_REMOVE;
}

void
dyn_import_job_verify_async (DynImportJob           *self,
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
  g_task_set_source_tag (task, dyn_import_job_verify_async);
  if (!_dyn_import_job_begin (self, &task, progress, progress_data))
    return;
  memset (&self->verify, 0, sizeof self->verify);
  self->run_progress = self->progress;
  memset (&self->progress, 0, sizeof self->progress);
  self->progress.eta = -1;
  /* Only records are counted again; the run's summary stays. */
  self->checked = TRUE;
  self->resumed = FALSE;
  memset (&self->start, 0, sizeof self->start);
  self->phase = PHASE_VERIFY_INDEX;
  self->record = 0;
  self->last_line = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->chunk_items == NULL)
    {
      self->chunk_items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      self->chunk_digests = g_ptr_array_new_with_free_func (g_free);
      self->chunk_positions = g_array_new (FALSE, FALSE, sizeof (DynItemPosition));
    }
  if (!_dyn_import_job_open_reader (self, &error))
    {
      return_verify (self, error);
      return;
    }
  _dyn_import_job_start_progress (self);
  verify_later (self);
}

gboolean
dyn_import_job_verify_finish (DynImportJob    *self,
                              GAsyncResult    *result,
                              DynImportVerify *out,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  if (out != NULL)
    *out = self->verify;
  return TRUE;
}
