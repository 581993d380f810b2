/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-transfer-private.h"

/*
 * The export job. Everything lives in the checkpoint folder
 * OUTPUT.dynoscope-export/ until the last lane is done:
 *
 *   checkpoint.json   {"version":1, "request":{…}, "format":"csv", "segments":4,
 *                      "exportTime":"…", "lanes":[{"part":"part-0.jsonl",
 *                      "lastKey":{…}|null, "done":false, "items":…, "bytes":…,
 *                      "length":…}, …]}
 *   part-N.jsonl      lane N's items (DynamoDB JSON for DDB_JSON and CSV,
 *                     plain JSON for JSON)
 *   data/<id>.json.gz S3: lane N's items, a gzip member per page
 *
 * A page is appended to its lane's part and fsync'ed; only then does the
 * checkpoint (written atomically and durably) record the lane's new key and
 * part length. A resume cuts each part back to the recorded length, so a
 * page written but not recorded is read again and held once.
 */

#define CHECKPOINT_VERSION 1
#define PROGRESS_INTERVAL (200 * G_TIME_SPAN_MILLISECOND)

typedef struct
{
  char     *part;       /* relative to the checkpoint folder */
  DynValue *last_key;
  gboolean  done;
  guint64   items;
  guint64   bytes;
  guint64   length;     /* of the part, as recorded */
  int       fd;
} ExportLane;

struct _DynExportJob
{
  GObject              parent_instance;

  DynClient           *client;
  DynRequest          *request;
  DynTransferFormat    format;
  char                *output;
  char                *folder;       /* the checkpoint folder */
  char                *checkpoint;   /* folder/checkpoint.json */
  guint                segments;
  gboolean             resume;
  GStrv                key_names;
  double               max_rcu;
  char                *table_arn;
  GDateTime           *export_time;
  JsonNode            *request_json; /* as the checkpoint stores it */

  ExportLane          *lanes;
  gboolean             loaded;       /* lanes come from a checkpoint */
  gboolean             complete;     /* --resume of a finished export */

  /* while running */
  DynTransferScan        *scan;
  DynTransferProgress     progress;
  DynTransferProgressFunc progress_func;
  gpointer                progress_data;
  gint64                  started;
  gint64                  reported;
  guint64                 items_at_start;
  gboolean                running;
};

G_DEFINE_FINAL_TYPE (DynExportJob, dyn_export_job, G_TYPE_OBJECT)

static void
close_parts (DynExportJob *self)
{
  for (guint i = 0; self->lanes != NULL && i < self->segments; i++)
    if (self->lanes[i].fd >= 0)
      {
        close (self->lanes[i].fd);
        self->lanes[i].fd = -1;
      }
}

static void
dyn_export_job_finalize (GObject *object)
{
  DynExportJob *self = DYN_EXPORT_JOB (object);

  close_parts (self);
  for (guint i = 0; self->lanes != NULL && i < self->segments; i++)
    {
      g_free (self->lanes[i].part);
      g_clear_pointer (&self->lanes[i].last_key, dyn_value_unref);
    }
  g_free (self->lanes);
  g_clear_object (&self->scan);
  g_clear_pointer (&self->request_json, json_node_unref);
  g_clear_pointer (&self->export_time, g_date_time_unref);
  g_free (self->table_arn);
  g_strfreev (self->key_names);
  g_free (self->checkpoint);
  g_free (self->folder);
  g_free (self->output);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_object (&self->client);
  G_OBJECT_CLASS (dyn_export_job_parent_class)->finalize (object);
}

static void
dyn_export_job_class_init (DynExportJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_export_job_finalize;
}

static void
dyn_export_job_init (DynExportJob *self)
{
}

char *
dyn_export_checkpoint_path (const char *output)
{
  g_autofree char *trimmed = NULL;
  gsize len;

  g_return_val_if_fail (output != NULL, NULL);

  /* "out/" and "out" are the same folder. */
  trimmed = g_strdup (output);
  len = strlen (trimmed);
  while (len > 1 && trimmed[len - 1] == G_DIR_SEPARATOR)
    trimmed[--len] = '\0';
  return g_strconcat (trimmed, ".dynoscope-export", NULL);
}

/* The part file of @lane, relative to the folder. */
static char *
part_name (DynExportJob *self,
           guint         lane)
{
  if (self->format == DYN_TRANSFER_FORMAT_S3)
    {
      g_autofree char *uuid = g_uuid_string_random ();
      GString *id = g_string_new ("data/");

      /* AWS names data files with 26 random characters; any unique name will do. */
      for (const char *c = uuid; *c != '\0'; c++)
        if (*c != '-')
          g_string_append_c (id, *c);
      g_string_append_printf (id, "%02u.json.gz", lane);
      return g_string_free (id, FALSE);
    }
  return g_strdup_printf ("part-%02u.jsonl", lane);
}

/* The checkpoint ----------------------------------------------------------- */

static JsonNode *
checkpoint_to_json (DynExportJob *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *time = g_date_time_format_iso8601 (self->export_time);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, CHECKPOINT_VERSION);
  json_builder_set_member_name (b, "request");
  json_builder_add_value (b, json_node_copy (self->request_json));
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, dyn_transfer_format_to_string (self->format));
  json_builder_set_member_name (b, "segments");
  json_builder_add_int_value (b, self->segments);
  json_builder_set_member_name (b, "exportTime");
  json_builder_add_string_value (b, time);
  json_builder_set_member_name (b, "lanes");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->segments; i++)
    {
      ExportLane *lane = &self->lanes[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "part");
      json_builder_add_string_value (b, lane->part);
      json_builder_set_member_name (b, "lastKey");
      if (lane->last_key != NULL)
        json_builder_add_value (b, dyn_item_to_ddb_json (lane->last_key));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "done");
      json_builder_add_boolean_value (b, lane->done);
      json_builder_set_member_name (b, "items");
      json_builder_add_int_value (b, (gint64) lane->items);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) lane->bytes);
      json_builder_set_member_name (b, "length");
      json_builder_add_int_value (b, (gint64) lane->length);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

static gboolean
write_checkpoint (DynExportJob  *self,
                  GError       **error)
{
  g_autoptr(JsonNode) root = checkpoint_to_json (self);
  g_autofree char *text = json_to_string (root, FALSE);

  return g_file_set_contents_full (self->checkpoint, text, -1,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0600, error);
}

static char *
member_text (JsonObject *obj,
             const char *name)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, name) : NULL;

  return node != NULL ? json_to_string (node, FALSE) : g_strdup (_("(not in the request)"));
}

/* What differs between the checkpoint's request and ours, or NULL. */
static char *
describe_request_difference (JsonNode *saved,
                             JsonNode *ours)
{
  JsonObject *a = JSON_NODE_HOLDS_OBJECT (saved) ? json_node_get_object (saved) : NULL;
  JsonObject *b = json_node_get_object (ours);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GList) members = NULL;

  if (a != NULL)
    for (GList *l = members = json_object_get_members (a); l != NULL; l = l->next)
      g_hash_table_add (names, l->data);
  {
    g_autoptr(GList) more = json_object_get_members (b);
    for (GList *l = more; l != NULL; l = l->next)
      g_hash_table_add (names, l->data);
  }
  {
    g_autoptr(GList) all = g_hash_table_get_keys (names);

    all = g_list_sort (all, (GCompareFunc) strcmp);
    for (GList *l = all; l != NULL; l = l->next)
      {
        JsonNode *x = a != NULL ? json_object_get_member (a, l->data) : NULL;
        JsonNode *y = json_object_get_member (b, l->data);
        g_autofree char *tx = NULL;
        g_autofree char *ty = NULL;

        if (x != NULL && y != NULL && json_node_equal (x, y))
          continue;
        tx = member_text (a, l->data);
        ty = member_text (b, l->data);
        if (out->len > 0)
          g_string_append (out, "; ");
        /* Translators: a request member that differs, "FilterExpression: #a = :a in the checkpoint, #b = :b now" */
        g_string_append_printf (out, _("%s: %s in the checkpoint, %s now"), (const char *) l->data, tx, ty);
      }
  }
  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}

static gboolean
load_checkpoint (DynExportJob  *self,
                 GError       **error)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *difference = NULL;
  JsonObject *obj;
  JsonArray *lanes;
  const char *format;
  const char *time;
  gint64 segments;

  if (!g_file_get_contents (self->checkpoint, &text, NULL, error))
    return FALSE;
  root = dyn_json_parse (text, -1, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      json_object_get_int_member_with_default (obj = json_node_get_object (root), "version", 0) != CHECKPOINT_VERSION ||
      (lanes = dyn_json_object_get_array (obj, "lanes")) == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The export checkpoint %s cannot be read; remove the folder %s to start again"),
                   self->checkpoint, self->folder);
      return FALSE;
    }

  format = json_object_get_string_member_with_default (obj, "format", "");
  segments = json_object_get_int_member_with_default (obj, "segments", 0);
  difference = describe_request_difference (json_object_get_member (obj, "request"), self->request_json);
  if (g_strcmp0 (format, dyn_transfer_format_to_string (self->format)) != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The export checkpoint in %s is for the format %s, not %s; export with --format %s or remove the folder"),
                   self->folder, format, dyn_transfer_format_to_string (self->format), format);
      return FALSE;
    }
  if (segments != self->segments)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The export checkpoint in %s has %u segments, not %u; export with --segments %u or remove the folder"),
                   self->folder, (guint) segments, self->segments, (guint) segments);
      return FALSE;
    }
  if (difference != NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The export checkpoint in %s is for another request (%s); export the same request or remove the folder"),
                   self->folder, difference);
      return FALSE;
    }
  if (json_array_get_length (lanes) != self->segments)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                   _("The export checkpoint %s cannot be read; remove the folder %s to start again"),
                   self->checkpoint, self->folder);
      return FALSE;
    }

  time = json_object_get_string_member_with_default (obj, "exportTime", NULL);
  if (time != NULL)
    {
      g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601 (time, NULL);

      if (parsed != NULL)
        {
          g_clear_pointer (&self->export_time, g_date_time_unref);
          self->export_time = g_steal_pointer (&parsed);
        }
    }

  for (guint i = 0; i < self->segments; i++)
    {
      JsonObject *l = json_array_get_object_element (lanes, i);
      ExportLane *lane = &self->lanes[i];
      JsonNode *key = l != NULL ? json_object_get_member (l, "lastKey") : NULL;
      const char *part = l != NULL ? json_object_get_string_member_with_default (l, "part", NULL) : NULL;

      if (part == NULL || strstr (part, "..") != NULL || g_path_is_absolute (part))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       _("The export checkpoint %s cannot be read; remove the folder %s to start again"),
                       self->checkpoint, self->folder);
          return FALSE;
        }
      g_free (lane->part);
      lane->part = g_strdup (part);
      g_clear_pointer (&lane->last_key, dyn_value_unref);
      if (key != NULL && !JSON_NODE_HOLDS_NULL (key))
        {
          lane->last_key = dyn_item_from_ddb_json (key, error);
          if (lane->last_key == NULL)
            return FALSE;
        }
      lane->done = json_object_get_boolean_member_with_default (l, "done", FALSE);
      lane->items = json_object_get_int_member_with_default (l, "items", 0);
      lane->bytes = json_object_get_int_member_with_default (l, "bytes", 0);
      lane->length = json_object_get_int_member_with_default (l, "length", 0);
    }
  self->loaded = TRUE;
  return TRUE;
}

/* Creating the job ----------------------------------------------------------- */

static gboolean remove_folder (const char  *folder,
                               GError     **error);

DynExportJob *
dyn_export_job_new (DynClient              *client,
                    const DynRequest       *request,
                    const DynExportOptions *options,
                    GError                **error)
{
  g_autoptr(DynExportJob) self = NULL;
  g_autoptr(DynRequest) body = NULL;
  gboolean has_checkpoint;
  gboolean has_output;

  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (options != NULL && options->output != NULL, NULL);

  if (request->op != DYN_OP_SCAN && request->op != DYN_OP_QUERY)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Only a Scan or a Query can be exported, not a %s"), dyn_operation_get_name (request->op));
      return NULL;
    }
  if (options->segments > 64)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("An export reads in 1 to 64 segments, not %u"), options->segments);
      return NULL;
    }

  self = g_object_new (DYN_TYPE_EXPORT_JOB, NULL);
  self->client = g_object_ref (client);
  self->request = dyn_request_copy (request);
  dyn_request_set_exclusive_start_key (self->request, NULL);
  self->request->segment = 0;
  self->request->total_segments = 0;
  self->request->return_consumed_capacity = TRUE;
  self->format = options->format;
  self->output = g_strdup (options->output);
  self->folder = dyn_export_checkpoint_path (options->output);
  self->checkpoint = g_build_filename (self->folder, "checkpoint.json", NULL);
  self->segments = request->op == DYN_OP_SCAN ? MAX (options->segments, 1) : 1;
  self->resume = options->resume;
  self->key_names = g_strdupv ((char **) options->key_names);
  self->max_rcu = options->max_rcu;
  self->progress.items_total = options->items_total;
  self->progress.segments = self->segments;
  self->progress.eta = -1;
  if (options->s3 != NULL)
    {
      self->table_arn = g_strdup (options->s3->table_arn);
      if (options->s3->export_time != NULL)
        self->export_time = g_date_time_ref (options->s3->export_time);
    }
  if (self->export_time == NULL)
    self->export_time = g_date_time_new_now_utc ();

  /* The request as the checkpoint keeps it: the body without a position. */
  body = dyn_request_copy (self->request);
  self->request_json = dyn_request_to_json (body);
  if (JSON_NODE_HOLDS_OBJECT (self->request_json))
    json_object_remove_member (json_node_get_object (self->request_json), "ReturnConsumedCapacity");

  self->lanes = g_new0 (ExportLane, self->segments);
  for (guint i = 0; i < self->segments; i++)
    {
      self->lanes[i].fd = -1;
      self->lanes[i].part = part_name (self, i);
    }

  has_checkpoint = g_file_test (self->checkpoint, G_FILE_TEST_EXISTS);
  has_output = g_file_test (self->output, G_FILE_TEST_EXISTS);
  if (!self->resume && (has_checkpoint || g_file_test (self->folder, G_FILE_TEST_EXISTS)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("An unfinished export of %s is in %s: continue it with --resume, or remove that folder"),
                   self->output, self->folder);
      return NULL;
    }
  if (!self->resume && has_output)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("%s exists already: remove it or choose another output (--resume continues an unfinished export)"),
                   self->output);
      return NULL;
    }
  if (self->resume && !has_checkpoint && has_output)
    {
      /* The export finished: OUTPUT is renamed into place before the
       * checkpoint goes, and the checkpoint goes before the parts, so
       * without a checkpoint what is left of the folder is parts of a
       * complete export. Resuming it is done at once (a script that
       * resumes until success stops). */
      if (!remove_folder (self->folder, error))
        return NULL;
      self->complete = TRUE;
      return g_steal_pointer (&self);
    }
  if (self->resume && has_checkpoint && !load_checkpoint (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

gboolean
dyn_export_job_is_complete (DynExportJob *self)
{
  g_return_val_if_fail (DYN_IS_EXPORT_JOB (self), FALSE);
  return self->complete;
}

const DynTransferProgress *
dyn_export_job_get_progress (DynExportJob *self)
{
  g_return_val_if_fail (DYN_IS_EXPORT_JOB (self), NULL);
  return &self->progress;
}

/* Parts ---------------------------------------------------------------------- */

static gboolean
open_parts (DynExportJob  *self,
            GError       **error)
{
  g_autofree char *data = g_build_filename (self->folder, "data", NULL);

  if (g_mkdir_with_parents (self->format == DYN_TRANSFER_FORMAT_S3 ? data : self->folder, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot create %s: %s"),
                   self->folder, g_strerror (saved));
      return FALSE;
    }

  for (guint i = 0; i < self->segments; i++)
    {
      ExportLane *lane = &self->lanes[i];
      g_autofree char *path = g_build_filename (self->folder, lane->part, NULL);

      /* A part the checkpoint counts bytes of must be there: made up
       * again it would be zeros. */
      if (lane->length > 0 && !g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("The unfinished export in %s lacks its part %s: it cannot be resumed; remove that folder and export again"),
                       self->folder, lane->part);
          return FALSE;
        }
      lane->fd = g_open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
      /* What was written after the checkpoint's last record is read again
       * (and a finished lane's part ends where its last page did). */
      if (lane->fd < 0 || ftruncate (lane->fd, (off_t) lane->length) != 0 ||
          lseek (lane->fd, (off_t) lane->length, SEEK_SET) < 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                       path, g_strerror (saved));
          return FALSE;
        }
      if (lane->done)
        {
          close (lane->fd);
          lane->fd = -1;
        }
    }
  return TRUE;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         len,
           const char   *what,
           GError      **error)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                       what, g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= n;
    }
  return TRUE;
}

/* Progress ------------------------------------------------------------------- */

static void
report (DynExportJob *self,
        gboolean      finished)
{
  DynTransferProgress *p = &self->progress;
  gint64 now = g_get_monotonic_time ();
  guint64 items = 0, bytes = 0;
  guint done = 0;

  for (guint i = 0; i < self->segments; i++)
    {
      items += self->lanes[i].items;
      bytes += self->lanes[i].bytes;
      done += self->lanes[i].done;
    }
  p->items = items;
  p->bytes = bytes;
  p->segments_done = done;
  p->elapsed = (double) (now - self->started) / G_USEC_PER_SEC;
  p->finished = finished;
  if (finished)
    p->eta = 0;
  else if (p->items_total > 0 && items > self->items_at_start && p->elapsed > 0)
    {
      double rate = (items - self->items_at_start) / p->elapsed;

      p->eta = p->items_total > items ? (p->items_total - items) / rate : 0;
    }
  else
    p->eta = -1;

  if (self->progress_func == NULL)
    return;
  if (!finished && now - self->reported < PROGRESS_INTERVAL)
    return;
  self->reported = now;
  self->progress_func (p, self->progress_data);
}

/* A page --------------------------------------------------------------------- */

static gboolean
page_cb (const DynTransferScanPage *page,
         gpointer                   user_data,
         GError                   **error)
{
  DynExportJob *self = user_data;
  ExportLane *lane = &self->lanes[page->lane];
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GByteArray) gz = NULL;
  g_autofree char *path = g_build_filename (self->folder, lane->part, NULL);
  DynTransferFormat line_format = self->format == DYN_TRANSFER_FORMAT_CSV ? DYN_TRANSFER_FORMAT_DDB_JSON
                                                                           : self->format;
  const guint8 *data;
  gsize len;

  self->progress.read_units += page->read_units;
  self->progress.requests += page->requests;

  for (guint i = 0; i < page->items->len; i++)
    dyn_transfer_append_line (line_format, page->items->pdata[i], text);

  data = (const guint8 *) text->str;
  len = text->len;
  if (self->format == DYN_TRANSFER_FORMAT_S3 && text->len > 0)
    {
      gz = g_byte_array_new ();
      dyn_transfer_gzip_append (text->str, text->len, gz);
      data = gz->data;
      len = gz->len;
    }

  if (len > 0)
    {
      if (!write_all (lane->fd, data, len, path, error))
        return FALSE;
      if (fsync (lane->fd) != 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                       path, g_strerror (saved));
          return FALSE;
        }
    }

  lane->length += len;
  lane->bytes += len;
  lane->items += page->items->len;
  g_clear_pointer (&lane->last_key, dyn_value_unref);
  if (page->last_key != NULL)
    lane->last_key = dyn_value_ref (page->last_key);
  else
    lane->done = TRUE;

  if (!write_checkpoint (self, error))
    return FALSE;
  report (self, FALSE);
  return TRUE;
}

/* The end: writing OUTPUT ------------------------------------------------------- */

static gboolean
rename_into_place (const char  *from,
                   const char  *to,
                   GError     **error)
{
  if (g_rename (from, to) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot rename %s to %s: %s"),
                   from, to, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
sync_and_close (int          fd,
                const char  *path,
                GError     **error)
{
  if (fsync (fd) != 0 || close (fd) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                   path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static int
create_tmp (const char  *path,
            GError     **error)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                   path, g_strerror (saved));
    }
  return fd;
}

/* Appends every part to @fd, in lane order. */
static gboolean
concatenate_parts (DynExportJob  *self,
                   int            fd,
                   const char    *tmp,
                   GError       **error)
{
  g_autofree guint8 *buffer = g_malloc (1 << 16);

  for (guint i = 0; i < self->segments; i++)
    {
      g_autofree char *path = g_build_filename (self->folder, self->lanes[i].part, NULL);
      guint64 left = self->lanes[i].length;
      int in;

      if (left == 0)
        continue;
      in = g_open (path, O_RDONLY | O_CLOEXEC, 0);
      if (in < 0)
        {
          int saved = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot read %s: %s"),
                       path, g_strerror (saved));
          return FALSE;
        }
      /* Only the recorded length counts. */
      while (left > 0)
        {
          ssize_t n = read (in, buffer, MIN (left, 1 << 16));

          if (n < 0 && errno == EINTR)
            continue;
          if (n <= 0)
            {
              int saved = n < 0 ? errno : EIO;
              close (in);
              g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot read %s: %s"),
                           path, n < 0 ? g_strerror (saved) : _("the file is shorter than the checkpoint says"));
              return FALSE;
            }
          if (!write_all (fd, buffer, n, tmp, error))
            {
              close (in);
              return FALSE;
            }
          left -= n;
        }
      close (in);
    }
  return TRUE;
}

/* Calls @func for every item of every part (DynamoDB JSON). */
static gboolean
each_part_item (DynExportJob  *self,
                void         (*func) (DynValue *item, gpointer data),
                gpointer       data,
                GError       **error)
{
  for (guint i = 0; i < self->segments; i++)
    {
      g_autofree char *path = g_build_filename (self->folder, self->lanes[i].part, NULL);
      g_autoptr(DynItemReader) reader = NULL;
      DynItemReadResult result;

      if (self->lanes[i].length == 0)
        continue;
      reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_DDB_JSON, NULL, error);
      if (reader == NULL)
        return FALSE;
      for (;;)
        {
          g_autoptr(DynValue) item = NULL;

          result = dyn_item_reader_next (reader, &item, error);
          if (result == DYN_ITEM_READ_END)
            break;
          if (result != DYN_ITEM_READ_ITEM)
            {
              g_prefix_error (error, "%s: ", path);
              return FALSE;
            }
          func (item, data);
        }
    }
  return TRUE;
}

static void
add_columns_cb (DynValue *item,
                gpointer  data)
{
  dyn_csv_columns_add_item (data, item);
}

typedef struct
{
  DynCsvColumns *columns;
  GString       *buffer;
  int            fd;
  const char    *path;
  GError        *error;
} CsvRows;

static void
add_row_cb (DynValue *item,
            gpointer  data)
{
  CsvRows *rows = data;

  if (rows->error != NULL)
    return;
  dyn_csv_columns_append_row (rows->columns, item, rows->buffer);
  if (rows->buffer->len >= (1 << 16))
    {
      write_all (rows->fd, (const guint8 *) rows->buffer->str, rows->buffer->len, rows->path, &rows->error);
      g_string_truncate (rows->buffer, 0);
    }
}

static gboolean
write_csv (DynExportJob  *self,
           int            fd,
           const char    *tmp,
           GError       **error)
{
  g_autoptr(DynCsvColumns) columns = dyn_csv_columns_new ((const char * const *) self->key_names);
  g_autoptr(GString) buffer = g_string_new (NULL);
  CsvRows rows = { columns, buffer, fd, tmp, NULL };

  /* Pass 1: the columns; pass 2: the header and the rows. Both stream. */
  if (!each_part_item (self, add_columns_cb, columns, error))
    return FALSE;
  dyn_csv_columns_append_header (columns, buffer);
  if (!each_part_item (self, add_row_cb, &rows, error))
    return FALSE;
  if (rows.error != NULL)
    {
      g_propagate_error (error, rows.error);
      return FALSE;
    }
  return write_all (fd, (const guint8 *) buffer->str, buffer->len, tmp, error);
}

static gboolean
remove_folder (const char  *folder,
               GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;

  if (dir == NULL)
    return TRUE;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        {
          if (!remove_folder (path, error))
            return FALSE;
        }
      else
        g_unlink (path);
    }
  if (g_rmdir (folder) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot remove %s: %s"),
                   folder, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_s3 (DynExportJob  *self,
          GError       **error)
{
  g_autofree char *tmp = g_strconcat (self->output, ".tmp", NULL);
  g_autofree char *data = g_build_filename (tmp, "data", NULL);
  g_autofree DynS3DataFile *files = g_new0 (DynS3DataFile, self->segments);
  DynS3ExportInfo info = { self->table_arn, self->export_time };
  guint n = 0;

  /* A run killed after OUTPUT was in place but before the folder was removed. */
  if (!g_file_test (tmp, G_FILE_TEST_EXISTS) && g_file_test (self->output, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *summary = g_build_filename (self->output, "manifest-summary.json", NULL);

      if (g_file_test (summary, G_FILE_TEST_EXISTS))
        return TRUE;
    }
  if (g_mkdir_with_parents (data, 0755) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot create %s: %s"),
                   data, g_strerror (saved));
      return FALSE;
    }
  for (guint i = 0; i < self->segments; i++)
    {
      ExportLane *lane = &self->lanes[i];
      g_autofree char *from = g_build_filename (self->folder, lane->part, NULL);
      g_autofree char *to = g_build_filename (tmp, lane->part, NULL);

      /* A lane without items has no data file (an empty .gz is no gzip file). */
      if (lane->items == 0)
        continue;
      /* After a crash while moving, some files are in place already. */
      if (!g_file_test (to, G_FILE_TEST_EXISTS) || g_file_test (from, G_FILE_TEST_EXISTS))
        {
          /* Cut back to what the checkpoint recorded, then move it. */
          if (truncate (from, (off_t) lane->length) != 0)
            {
              int saved = errno;
              g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot write %s: %s"),
                           from, g_strerror (saved));
              return FALSE;
            }
          if (!rename_into_place (from, to, error))
            return FALSE;
        }
      files[n].path = lane->part;
      files[n].items = lane->items;
      n++;
    }
  if (!dyn_s3_export_write_manifests (tmp, &info, files, n, error))
    return FALSE;
  return rename_into_place (tmp, self->output, error);
}

static gboolean
write_output (DynExportJob  *self,
              GError       **error)
{
  g_autofree char *tmp = NULL;
  int fd;
  gboolean ok;

  close_parts (self);
  if (self->format == DYN_TRANSFER_FORMAT_S3)
    {
      if (!write_s3 (self, error))
        return FALSE;
    }
  else
    {
      tmp = g_strconcat (self->output, ".tmp", NULL);
      fd = create_tmp (tmp, error);
      if (fd < 0)
        return FALSE;
      if (self->format == DYN_TRANSFER_FORMAT_CSV)
        ok = write_csv (self, fd, tmp, error);
      else
        ok = concatenate_parts (self, fd, tmp, error);
      if (!ok)
        {
          close (fd);
          g_unlink (tmp);
          return FALSE;
        }
      if (!sync_and_close (fd, tmp, error) || !rename_into_place (tmp, self->output, error))
        return FALSE;
    }
  /* The checkpoint first: a kill while the folder is removed must not
   * leave a checkpoint whose parts are gone. */
  if (g_unlink (self->checkpoint) != 0 && errno != ENOENT)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot remove %s: %s"),
                   self->checkpoint, g_strerror (saved));
      return FALSE;
    }
  return remove_folder (self->folder, error);
}

/* Running -------------------------------------------------------------------- */

static void
scan_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynExportJob *self = g_task_get_source_object (task);
  GError *error = NULL;
  g_autofree char *items = NULL;

  self->running = FALSE;
  if (!dyn_transfer_scan_run_finish (DYN_TRANSFER_SCAN (object), result, &error))
    {
      close_parts (self);
      report (self, FALSE);
      items = g_strdup_printf ("%'" G_GUINT64_FORMAT, self->progress.items);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       /* Translators: %s is a count of items */
                       _("Export cancelled after %s items; resume with --resume"), items);
        }
      else
        g_prefix_error (&error, _("Export stopped after %s items (resume with --resume): "), items);
      g_task_return_error (task, error);
      return;
    }
  if (!write_output (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  report (self, TRUE);
  g_task_return_boolean (task, TRUE);
}

void
dyn_export_job_run_async (DynExportJob           *self,
                          GCancellable           *cancellable,
                          DynTransferProgressFunc progress,
                          gpointer                progress_data,
                          GAsyncReadyCallback     callback,
                          gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;

  g_return_if_fail (DYN_IS_EXPORT_JOB (self));
  g_return_if_fail (!self->running);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_export_job_run_async);
  /* A cancel's error is ours: it says how to resume. */
  g_task_set_check_cancellable (task, FALSE);

  self->progress_func = progress;
  self->progress_data = progress_data;
  self->started = g_get_monotonic_time ();
  if (self->complete)
    {
      self->progress.finished = TRUE;
      g_task_return_boolean (task, TRUE);
      return;
    }
  self->reported = 0;
  self->progress.read_units = 0;
  self->progress.requests = 0;

  if (!open_parts (self, &error) || (!self->loaded && !write_checkpoint (self, &error)))
    {
      close_parts (self);
      g_task_return_error (task, error);
      return;
    }
  self->loaded = TRUE;

  g_clear_object (&self->scan);
  self->scan = dyn_transfer_scan_new (self->client, self->request, self->segments);
  dyn_transfer_scan_set_max_rcu (self->scan, self->max_rcu);
  self->items_at_start = 0;
  for (guint i = 0; i < self->segments; i++)
    {
      self->items_at_start += self->lanes[i].items;
      if (self->lanes[i].done)
        dyn_transfer_scan_set_lane_done (self->scan, i);
      else if (self->lanes[i].last_key != NULL)
        dyn_transfer_scan_set_start_key (self->scan, i, self->lanes[i].last_key);
    }
  report (self, FALSE);

  self->running = TRUE;
  dyn_transfer_scan_run_async (self->scan, page_cb, self, cancellable, scan_done_cb, g_steal_pointer (&task));
}

gboolean
dyn_export_job_run_finish (DynExportJob  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_export_job_run_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
