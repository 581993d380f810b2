/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DynamoDB's export to S3, as AWS documents it ("DynamoDB table export
 * output format"): manifest-summary.json, manifest-files.json (JSON lines:
 * itemCount, md5Checksum, etag, dataFileS3Key) and data/<id>.json.gz of
 * `{"Item":{…}}` lines. The writer side (gzip members, the manifests with the
 * MD5 of the files as they are on disk) and the reader side (find the export,
 * check the manifests, verify each file's MD5 before reading it, check its
 * item count after). The lines themselves are read by dyn-transfer-format.c. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-transfer-format-private.h"

#define MANIFEST_VERSION "2020-06-30"
/* manifest-files.json holds one short line per data file */
#define MAX_MANIFEST_SIZE (64 * 1024 * 1024)

/* ------------------------------------------------------------------ gzip */

void
dyn_transfer_gzip_append (const char *data,
                          gsize       len,
                          GByteArray *out)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  guint8 chunk[64 * 1024];
  gsize pos = 0;

  g_return_if_fail (data != NULL || len == 0);
  g_return_if_fail (out != NULL);

  for (;;)
    {
      gsize in_read = 0, out_written = 0;
      g_autoptr(GError) error = NULL;
      GConverterResult r;

      r = g_converter_convert (G_CONVERTER (z), data + pos, len - pos, chunk, sizeof chunk,
                               G_CONVERTER_INPUT_AT_END, &in_read, &out_written, &error);
      /* zlib deflate into memory only fails for want of room, which the
       * loop gives it */
      g_assert (r != G_CONVERTER_ERROR || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE));
      pos += in_read;
      g_byte_array_append (out, chunk, out_written);
      if (r == G_CONVERTER_FINISHED)
        break;
    }
}

/* The MD5 of a file, hex and Base64, and its size. */
static gboolean
md5_file (const char *path,
          char      **hex,
          char      **base64,
          guint64    *size,
          GError    **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, error);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  g_autofree guint8 *buf = NULL;
  guint8 digest[16];
  gsize digest_len = sizeof digest;
  guint64 total = 0;

  if (in == NULL)
    return FALSE;
  buf = g_malloc (64 * 1024);
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, 64 * 1024, NULL, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      g_checksum_update (sum, buf, n);
      total += n;
    }
  g_checksum_get_digest (sum, digest, &digest_len);
  if (hex != NULL)
    *hex = g_strdup (g_checksum_get_string (sum));
  if (base64 != NULL)
    *base64 = g_base64_encode (digest, digest_len);
  if (size != NULL)
    *size = total;
  return TRUE;
}

/* ------------------------------------------------------------- manifests */

static void
append_member_string (GString    *out,
                      const char *name,
                      const char *value,
                      gboolean    first)
{
  if (!first)
    g_string_append_c (out, ',');
  dyn_json_append_string (out, name, strlen (name));
  g_string_append_c (out, ':');
  if (value == NULL)
    g_string_append (out, "null");
  else
    dyn_json_append_string (out, value, strlen (value));
}

/* "2020-11-04T07:28:34.028Z", as the manifests write times */
static char *
format_time (GDateTime *time)
{
  g_autoptr(GDateTime) utc = g_date_time_to_utc (time);
  g_autofree char *base = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S");

  return g_strdup_printf ("%s.%03dZ", base, g_date_time_get_microsecond (utc) / 1000);
}

static gboolean
write_with_checksum (const char *folder,
                     const char *name,
                     const char *checksum_name,
                     GString    *contents,
                     GError    **error)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *checksum_path = g_build_filename (folder, checksum_name, NULL);
  g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) contents->str,
                                                      contents->len);
  g_autofree char *hex_line = g_strconcat (hex, "\n", NULL);

  return g_file_set_contents (path, contents->str, contents->len, error)
         && g_file_set_contents (checksum_path, hex_line, -1, error);
}

gboolean
dyn_s3_export_write_manifests (const char            *folder,
                               const DynS3ExportInfo *info,
                               const DynS3DataFile   *files,
                               guint                  n_files,
                               GError               **error)
{
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GString) summary = g_string_new (NULL);
  g_autoptr(GChecksum) id_sum = g_checksum_new (G_CHECKSUM_MD5);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GPtrArray) hexes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) base64s = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *export_time = NULL;
  g_autofree char *now_text = NULL;
  g_autofree char *export_id = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *manifest_key = NULL;
  g_autofree char *export_arn = NULL;
  g_autofree char *started = NULL;
  GDateTime *as_of;
  guint64 total = 0;

  g_return_val_if_fail (folder != NULL, FALSE);
  g_return_val_if_fail (files != NULL || n_files == 0, FALSE);

  as_of = info != NULL && info->export_time != NULL ? info->export_time : now;
  export_time = format_time (as_of);
  now_text = format_time (now);

  /* each data file's MD5 as it is on disk */
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_build_filename (folder, files[i].path, NULL);
      char *hex = NULL, *b64 = NULL;

      if (!md5_file (path, &hex, &b64, NULL, error))
        return FALSE;
      g_ptr_array_add (hexes, hex);
      g_ptr_array_add (base64s, b64);
      g_checksum_update (id_sum, (const guchar *) hex, strlen (hex));
      total += files[i].items;
    }

  /* the export id as AWS spells it: a 14-digit millisecond time, a dash and
   * 8 characters ("01234567890123-a1b2c3d4") */
  {
    char short_sum[9];

    g_strlcpy (short_sum, g_checksum_get_string (id_sum), sizeof short_sum);
    export_id = g_strdup_printf ("%014" G_GINT64_FORMAT "-%s",
                                 g_date_time_to_unix (as_of) * 1000
                                 + g_date_time_get_microsecond (as_of) / 1000,
                                 short_sum);
  }
  prefix = g_strconcat ("AWSDynamoDB/", export_id, "/", NULL);
  manifest_key = g_strconcat (prefix, "manifest-files.json", NULL);

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *base = g_path_get_basename (files[i].path);
      g_autofree char *key = g_strconcat (prefix, "data/", base, NULL);

      g_string_append_printf (lines, "{\"itemCount\":%" G_GUINT64_FORMAT, files[i].items);
      append_member_string (lines, "md5Checksum", g_ptr_array_index (base64s, i), FALSE);
      append_member_string (lines, "etag", g_ptr_array_index (hexes, i), FALSE);
      append_member_string (lines, "dataFileS3Key", key, FALSE);
      g_string_append (lines, "}\n");
    }

  if (info != NULL && info->table_arn != NULL)
    export_arn = g_strconcat (info->table_arn, "/export/", export_id, NULL);
  g_string_append_c (summary, '{');
  append_member_string (summary, "version", MANIFEST_VERSION, TRUE);
  append_member_string (summary, "exportArn", export_arn, FALSE);
  append_member_string (summary, "startTime", export_time, FALSE);
  append_member_string (summary, "endTime", now_text, FALSE);
  append_member_string (summary, "tableArn", info != NULL ? info->table_arn : NULL, FALSE);
  append_member_string (summary, "tableId", NULL, FALSE);
  append_member_string (summary, "exportTime", export_time, FALSE);
  append_member_string (summary, "s3Bucket", NULL, FALSE);
  append_member_string (summary, "s3Prefix", NULL, FALSE);
  append_member_string (summary, "s3SseAlgorithm", NULL, FALSE);
  append_member_string (summary, "s3SseKmsKeyId", NULL, FALSE);
  append_member_string (summary, "manifestFilesS3Key", manifest_key, FALSE);
  /* nothing was billed for an export made by reading the table */
  g_string_append (summary, ",\"billedSizeBytes\":0");
  g_string_append_printf (summary, ",\"itemCount\":%" G_GUINT64_FORMAT, total);
  append_member_string (summary, "outputFormat", "DYNAMODB_JSON", FALSE);
  append_member_string (summary, "exportType", "FULL_EXPORT", FALSE);
  g_string_append (summary, "}\n");

  started = g_build_filename (folder, "_started", NULL);
  /* manifest-summary.json last: it marks the export complete */
  return g_file_set_contents (started, "", 0, error)
         && write_with_checksum (folder, "manifest-files.json", "manifest-files.checksum", lines, error)
         && write_with_checksum (folder, "manifest-summary.json", "manifest-summary.checksum", summary, error);
}

/* ---------------------------------------------------------------- reader */

void
_dyn_s3_file_free (gpointer data)
{
  DynS3File *f = data;

  g_free (f->key);
  g_free (f->local);
  g_free (f->md5);
  g_free (f);
}

static gboolean
has_summary (const char *dir)
{
  g_autofree char *p = g_build_filename (dir, "manifest-summary.json", NULL);

  return g_file_test (p, G_FILE_TEST_IS_REGULAR);
}

/* The subfolders of @dir that hold an export. */
static GPtrArray *
exports_below (const char *dir)
{
  GPtrArray *found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && has_summary (child))
        g_ptr_array_add (found, g_steal_pointer (&child));
    }
  return found;
}

char *
_dyn_s3_find_export (const char *path,
                     GError    **error)
{
  g_autofree char *aws = NULL;
  g_autoptr(GPtrArray) found = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_str_has_suffix (path, "manifest-summary.json"))
    return g_path_get_dirname (path);
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   /* Translators: %s is a path */
                   _("%s is not a folder"), path);
      return NULL;
    }
  if (has_summary (path))
    return g_strdup (path);

  /* the bucket prefix (holding AWSDynamoDB/) or AWSDynamoDB/ itself */
  aws = g_build_filename (path, "AWSDynamoDB", NULL);
  found = exports_below (aws);
  if (found->len == 0)
    {
      g_ptr_array_unref (found);
      found = exports_below (path);
    }
  if (found->len == 1)
    return g_strdup (g_ptr_array_index (found, 0));
  if (found->len > 1)
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                 /* Translators: %s is a folder, %u a count */
                 _("%s holds %u DynamoDB exports; choose one of its AWSDynamoDB/<id>/ folders"),
                 path, found->len);
  else
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                 /* Translators: %s is a folder */
                 _("%s holds no DynamoDB export (no manifest-summary.json in it or in one AWSDynamoDB/<id>/ below it)"),
                 path);
  return NULL;
}

static gboolean
get_count (JsonObject *obj,
           const char *name,
           guint64    *out)
{
  JsonNode *n = json_object_get_member (obj, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64
      || json_node_get_int (n) < 0)
    return FALSE;
  *out = json_node_get_int (n);
  return TRUE;
}

static const char *
get_string (JsonObject *obj,
            const char *name)
{
  JsonNode *n = json_object_get_member (obj, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

GPtrArray *
_dyn_s3_parse_manifest_files (const char *text,
                              gsize       len,
                              const char *folder,
                              GError    **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (_dyn_s3_file_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *p = text, *end = text + len;
  guint64 line = 0;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      const char *stop = nl != NULL ? nl : end;
      g_autoptr(JsonNode) node = NULL;
      g_autoptr(GError) local = NULL;
      g_autofree char *base = NULL;
      const char *key, *md5;
      const char *q;
      JsonObject *obj;
      DynS3File *f;
      guint64 items;

      line++;
      for (q = p; q < stop && (*q == ' ' || *q == '\t' || *q == '\r'); q++)
        ;
      if (q == stop)
        {
          p = stop + (nl != NULL);
          continue;
        }
      node = dyn_json_parse (p, stop - p, &local);
      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: %llu is a line number, %s the reason */
                       _("manifest-files.json line %llu: %s"), (unsigned long long) line,
                       local != NULL ? local->message : _("not a JSON object"));
          return NULL;
        }
      obj = json_node_get_object (node);
      key = get_string (obj, "dataFileS3Key");
      md5 = get_string (obj, "md5Checksum");
      if (key != NULL)
        base = g_path_get_basename (key);
      if (key == NULL || !g_str_has_suffix (key, base) || strcmp (base, ".") == 0
          || strcmp (base, "..") == 0 || strcmp (base, "/") == 0 || !g_utf8_validate (base, -1, NULL))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       _("manifest-files.json line %llu: %s"), (unsigned long long) line,
                       _("no valid dataFileS3Key"));
          return NULL;
        }
      if (!get_count (obj, "itemCount", &items))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       _("manifest-files.json line %llu: %s"), (unsigned long long) line,
                       _("no valid itemCount"));
          return NULL;
        }
      if (json_object_has_member (obj, "md5Checksum") && md5 == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       _("manifest-files.json line %llu: %s"), (unsigned long long) line,
                       _("md5Checksum is not a string"));
          return NULL;
        }
      f = g_new0 (DynS3File, 1);
      f->key = g_strconcat ("data/", base, NULL);
      f->local = g_build_filename (folder, "data", base, NULL);
      f->items = items;
      f->md5 = g_strdup (md5);
      g_ptr_array_add (files, f);
      if (!g_hash_table_add (seen, f->key))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       _("manifest-files.json line %llu: %s"), (unsigned long long) line,
                       _("the data file is listed twice"));
          return NULL;
        }
      p = stop + (nl != NULL);
    }
  return g_steal_pointer (&files);
}

gboolean
_dyn_s3_reader_init (DynItemReader *self,
                     GError       **error)
{
  g_autofree char *summary_path = NULL;
  g_autofree char *files_path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local = NULL;
  JsonObject *summary;
  const char *version, *format, *type;
  guint64 listed = 0;
  gsize len;

  self->folder = _dyn_s3_find_export (self->path, error);
  if (self->folder == NULL)
    return FALSE;

  summary_path = g_build_filename (self->folder, "manifest-summary.json", NULL);
  if (!g_file_get_contents (summary_path, &text, &len, error))
    return FALSE;
  node = dyn_json_parse (text, len, &local);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is the reason */
                   _("manifest-summary.json: %s"),
                   local != NULL ? local->message : _("not a JSON object"));
      return FALSE;
    }
  summary = json_node_get_object (node);
  version = get_string (summary, "version");
  format = get_string (summary, "outputFormat");
  type = get_string (summary, "exportType");
  if (g_strcmp0 (version, MANIFEST_VERSION) != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: the first %s is the manifest's version, the second the one read */
                   _("manifest-summary.json: version \"%s\" is not known (only %s is read)"),
                   version ? version : "", MANIFEST_VERSION);
      return FALSE;
    }
  if (g_strcmp0 (format, "DYNAMODB_JSON") != 0)
    {
      if (g_strcmp0 (format, "ION") == 0)
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s",
                     _("manifest-summary.json: this is an Amazon Ion export, which cannot be read; export the table with the DynamoDB JSON output format"));
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                     /* Translators: %s is the manifest's outputFormat */
                     _("manifest-summary.json: output format \"%s\" is not DYNAMODB_JSON"),
                     format ? format : "");
      return FALSE;
    }
  if (type != NULL && strcmp (type, "FULL_EXPORT") != 0)
    {
      if (strcmp (type, "INCREMENTAL_EXPORT") == 0)
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s",
                     _("manifest-summary.json: this is an incremental export (changes, not items), which cannot be imported; use a full export"));
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                     /* Translators: %s is the manifest's exportType */
                     _("manifest-summary.json: export type \"%s\" is not FULL_EXPORT"), type);
      return FALSE;
    }
  if (!get_count (summary, "itemCount", &self->expected))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, _("manifest-summary.json: %s"),
                   _("no valid itemCount"));
      return FALSE;
    }

  g_clear_pointer (&text, g_free);
  files_path = g_build_filename (self->folder, "manifest-files.json", NULL);
  {
    g_autoptr(GFile) f = g_file_new_for_path (files_path);
    g_autoptr(GFileInfo) info = g_file_query_info (f, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                   G_FILE_QUERY_INFO_NONE, NULL, error);

    if (info == NULL)
      return FALSE;
    if (g_file_info_get_size (info) > MAX_MANIFEST_SIZE)
      {
        g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL, _("manifest-files.json: %s"),
                     _("too large for a files manifest"));
        return FALSE;
      }
  }
  if (!g_file_get_contents (files_path, &text, &len, error))
    return FALSE;
  self->files = _dyn_s3_parse_manifest_files (text, len, self->folder, error);
  if (self->files == NULL)
    return FALSE;

  for (guint i = 0; i < self->files->len; i++)
    {
      DynS3File *file = g_ptr_array_index (self->files, i);
      g_autoptr(GFile) gf = g_file_new_for_path (file->local);
      g_autoptr(GFileInfo) info = g_file_query_info (gf, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);

      if (info == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       /* Translators: %s is "data/x.json.gz" */
                       _("%s: the data file of the manifest is missing"), file->key);
          return FALSE;
        }
      file->size = g_file_info_get_size (info);
      self->bytes_total += file->size;
      listed += file->items;
    }
  if (listed != self->expected)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: two item counts */
                   _("manifest-files.json counts %llu items, manifest-summary.json %llu"),
                   (unsigned long long) listed, (unsigned long long) self->expected);
      return FALSE;
    }
  self->file_index = 0;
  self->file_open = FALSE;
  return TRUE;
}

gboolean
_dyn_s3_reader_open_file (DynItemReader *self,
                          guint          index,
                          GError       **error)
{
  DynS3File *file = g_ptr_array_index (self->files, index);

  self->file_open = FALSE;
  self->file_index = index;
  self->bytes_before = 0;
  for (guint i = 0; i < index; i++)
    self->bytes_before += ((DynS3File *) g_ptr_array_index (self->files, i))->size;

  if (self->verify_checksums && file->md5 != NULL)
    {
      g_autofree char *md5 = NULL;
      g_autoptr(GError) local = NULL;

      if (!md5_file (file->local, NULL, &md5, NULL, &local))
        {
          g_set_error (error, local->domain, local->code, "%s: %s", file->key, local->message);
          return FALSE;
        }
      if (strcmp (md5, file->md5) != 0)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: %s is "data/x.json.gz" */
                       _("%s: checksum does not match the manifest"), file->key);
          return FALSE;
        }
    }
  if (!_dyn_item_reader_open_source (self, file->local, TRUE, error))
    {
      g_prefix_error (error, "%s: ", file->key);
      return FALSE;
    }
  self->file_index = index;
  self->file_records = 0;
  self->file_open = TRUE;
  return TRUE;
}

gboolean
_dyn_s3_reader_finish_file (DynItemReader *self,
                            GError       **error)
{
  DynS3File *file = g_ptr_array_index (self->files, self->file_index);

  self->file_open = FALSE;
  self->bytes_before += file->size;
  if (self->file_records != file->items)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is "data/x.json.gz", then two item counts */
                   _("%s: %llu items, the manifest says %llu"), file->key,
                   (unsigned long long) self->file_records, (unsigned long long) file->items);
      return FALSE;
    }
  return TRUE;
}
