/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Formats: names, detection, the line writers, and the item reader (a
 * buffered line source over a file or a gunzipped S3 data file; DynamoDB JSON
 * and plain JSON lines; positions and seek). CSV rows are read in
 * dyn-transfer-csv.c, the S3 layout in dyn-transfer-s3.c. */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-transfer-format-private.h"

#define BUF_SIZE (64 * 1024)

static const char * const format_names[] = { "ddb-json", "json", "csv", "s3" };

const char *
dyn_transfer_format_to_string (DynTransferFormat format)
{
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);
  return format_names[format];
}

gboolean
dyn_transfer_format_from_string (const char        *text,
                                 DynTransferFormat *format,
                                 GError           **error)
{
  g_return_val_if_fail (format != NULL, FALSE);

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (format_names); i++)
    if (g_ascii_strcasecmp (text, format_names[i]) == 0)
      {
        *format = (DynTransferFormat) i;
        return TRUE;
      }
  if (text != NULL && (g_ascii_strcasecmp (text, "dynamodb-json") == 0
                       || g_ascii_strcasecmp (text, "ddb") == 0))
    {
      *format = DYN_TRANSFER_FORMAT_DDB_JSON;
      return TRUE;
    }
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is what the user typed; the list names are not translated */
               _("unknown format \"%s\" (one of ddb-json, json, csv, s3)"), text ? text : "");
  return FALSE;
}

/* ---------------------------------------------------------------- writers */

void
dyn_transfer_append_line (DynTransferFormat  format,
                          const DynValue    *item,
                          GString           *out)
{
  g_return_if_fail (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M);
  g_return_if_fail (out != NULL);

  switch (format)
    {
    case DYN_TRANSFER_FORMAT_DDB_JSON:
      dyn_json_append_ddb_item (out, item);
      break;
    case DYN_TRANSFER_FORMAT_JSON:
      dyn_json_append_plain_value (out, item);
      break;
    case DYN_TRANSFER_FORMAT_S3:
      g_string_append (out, "{\"Item\":");
      dyn_json_append_ddb_item (out, item);
      g_string_append_c (out, '}');
      break;
    case DYN_TRANSFER_FORMAT_CSV:
    default:
      g_return_if_reached ();
    }
  g_string_append_c (out, '\n');
}

/* ------------------------------------------------------------ line source */

void
_dyn_item_reader_close_source (DynItemReader *self)
{
  if (self->input != NULL)
    g_input_stream_close (self->input, NULL, NULL);
  g_clear_object (&self->input);
  g_clear_object (&self->gunzip);
  self->raw_pos = self->raw_len = 0;
  self->raw_eof = FALSE;
  self->buf_pos = self->buf_len = 0;
  self->eof = FALSE;
  self->offset = 0;
  self->line = 1;
  self->raw_read = 0;
}

static void
use_stream (DynItemReader *self,
            GInputStream  *stream,
            gboolean       gzip)
{
  self->input = stream;
  if (gzip)
    {
      self->gunzip = G_CONVERTER (g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP));
      if (self->raw == NULL)
        self->raw = g_malloc (BUF_SIZE);
    }
  if (self->buf == NULL)
    self->buf = g_malloc (BUF_SIZE);
}

gboolean
_dyn_item_reader_open_source (DynItemReader *self,
                              const char    *file,
                              gboolean       gzip,
                              GError       **error)
{
  g_autoptr(GFile) f = g_file_new_for_path (file);
  g_autoptr(GError) local = NULL;
  GFileInputStream *in;

  _dyn_item_reader_close_source (self);
  in = g_file_read (f, NULL, &local);
  if (in == NULL)
    {
      g_set_error (error, local->domain, local->code, "%s", local->message);
      return FALSE;
    }
  use_stream (self, G_INPUT_STREAM (in), gzip);
  return TRUE;
}

/* Reads raw bytes (compressed or not) into @dest. */
static gssize
read_raw (DynItemReader *self,
          guint8        *dest,
          gsize          size,
          GError       **error)
{
  gssize n = g_input_stream_read (self->input, dest, size, NULL, error);

  if (n > 0)
    self->raw_read += n;
  return n;
}

/* Fills self->buf when it is used up. FALSE on error; self->eof at the end. */
static gboolean
fill (DynItemReader *self,
      GError       **error)
{
  g_assert (self->buf_pos == self->buf_len);
  self->buf_pos = self->buf_len = 0;
  if (self->eof || self->input == NULL)
    {
      self->eof = TRUE;
      return TRUE;
    }

  if (self->gunzip == NULL)
    {
      gssize n = read_raw (self, self->buf, BUF_SIZE, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        self->eof = TRUE;
      self->buf_len = n;
      return TRUE;
    }

  /* gzip: a file may hold several members, one after another; the
   * decompressor stops at the end of each and is reset for the next. */
  while (self->buf_len == 0)
    {
      gsize in_read = 0, out_written = 0;
      GConverterResult r;
      g_autoptr(GError) local = NULL;

      if (self->raw_pos == self->raw_len && !self->raw_eof)
        {
          gssize n = read_raw (self, self->raw, BUF_SIZE, error);

          if (n < 0)
            return FALSE;
          self->raw_pos = 0;
          self->raw_len = n;
          if (n == 0)
            self->raw_eof = TRUE;
        }
      if (self->raw_pos == self->raw_len && self->raw_eof)
        {
          /* between members (or an empty file): the end */
          self->eof = TRUE;
          return TRUE;
        }

      r = g_converter_convert (self->gunzip,
                               self->raw + self->raw_pos, self->raw_len - self->raw_pos,
                               self->buf, BUF_SIZE,
                               self->raw_eof ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS,
                               &in_read, &out_written, &local);
      if (r == G_CONVERTER_ERROR)
        {
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) && !self->raw_eof)
            {
              /* keep the rest and read more behind it */
              memmove (self->raw, self->raw + self->raw_pos, self->raw_len - self->raw_pos);
              self->raw_len -= self->raw_pos;
              self->raw_pos = 0;
              if (self->raw_len == BUF_SIZE)
                {
                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", local->message);
                  return FALSE;
                }
              else
                {
                  gssize n = read_raw (self, self->raw + self->raw_len,
                                       BUF_SIZE - self->raw_len, error);
                  if (n < 0)
                    return FALSE;
                  if (n == 0)
                    self->raw_eof = TRUE;
                  self->raw_len += n;
                }
              continue;
            }
          if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s",
                         _("the gzip data ends in the middle of a member"));
          else
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                         /* Translators: %s is zlib's reason */
                         _("not valid gzip data: %s"), local->message);
          return FALSE;
        }
      self->raw_pos += in_read;
      self->buf_len = out_written;
      if (r == G_CONVERTER_FINISHED)
        g_converter_reset (self->gunzip);
    }
  return TRUE;
}

int
_dyn_item_reader_read_line (DynItemReader *self,
                            gboolean      *too_long,
                            GError       **error)
{
  gboolean any = FALSE;

  *too_long = FALSE;
  for (;;)
    {
      const guint8 *start, *nl;
      gsize avail, take;

      if (self->buf_pos == self->buf_len)
        {
          if (!fill (self, error))
            return -1;
          if (self->eof && self->buf_len == 0)
            {
              if (any)
                self->line++;
              return any ? 1 : 0;
            }
          /* a UTF-8 byte order mark at the start of a file */
          if (self->offset == 0 && self->buf_len >= 3
              && memcmp (self->buf, "\xEF\xBB\xBF", 3) == 0)
            {
              self->buf_pos = 3;
              self->offset = 3;
            }
        }
      start = self->buf + self->buf_pos;
      avail = self->buf_len - self->buf_pos;
      nl = memchr (start, '\n', avail);
      take = nl != NULL ? (gsize) (nl - start) + 1 : avail;
      any = TRUE;
      if (!*too_long && self->text->len + take > DYN_TRANSFER_MAX_RECORD)
        *too_long = TRUE;
      if (!*too_long)
        g_string_append_len (self->text, (const char *) start, take);
      self->buf_pos += take;
      self->offset += take;
      if (nl != NULL)
        {
          self->line++;
          return 1;
        }
    }
}

static void
current_position (DynItemReader   *self,
                  DynItemPosition *pos)
{
  pos->file = self->file_index;
  pos->offset = self->offset;
  pos->line = self->line;
  pos->record = self->record;
}

char *
_dyn_item_reader_where (DynItemReader *self,
                        guint          file,
                        guint64        line)
{
  if (self->format == DYN_TRANSFER_FORMAT_S3 && self->files != NULL && file < self->files->len)
    {
      DynS3File *f = g_ptr_array_index (self->files, file);

      /* Translators: a data file of an S3 export and a line number in it, "data/x.json.gz line 12" */
      return g_strdup_printf (_("%s line %llu"), f->key, (unsigned long long) line);
    }
  /* Translators: a line number in the input file */
  return g_strdup_printf (_("line %llu"), (unsigned long long) line);
}

char *
dyn_item_reader_describe_position (DynItemReader         *self,
                                   const DynItemPosition *position)
{
  g_return_val_if_fail (self != NULL && position != NULL, NULL);
  return _dyn_item_reader_where (self, position->file, position->line);
}

/* A BAD record's error: "line 7: <reason>" (the last record's position). */
void
_dyn_item_reader_set_bad (DynItemReader *self,
                          GError       **error,
                          const GError  *reason)
{
  g_autofree char *where = _dyn_item_reader_where (self, self->last.file, self->last.line);

  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
               /* Translators: "line 12: <why the record is not an item>" */
               _("%s: %s"), where, reason->message);
}

/* ------------------------------------------------------------ JSON lines */

static gboolean
is_json_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* `{"Item": {…}}` (the S3 export's lines): the inner object's span. */
static gboolean
find_item_wrapper (const char  *text,
                   gsize        len,
                   const char **inner,
                   gsize       *inner_len)
{
  const char *p = text, *end = text + len;

  while (p < end && is_json_space (*p))
    p++;
  if (p == end || *p++ != '{')
    return FALSE;
  while (p < end && is_json_space (*p))
    p++;
  if ((gsize) (end - p) < 6 || memcmp (p, "\"Item\"", 6) != 0)
    return FALSE;
  p += 6;
  while (p < end && is_json_space (*p))
    p++;
  if (p == end || *p++ != ':')
    return FALSE;
  while (end > p && is_json_space (end[-1]))
    end--;
  if (end == p || end[-1] != '}')
    return FALSE;
  end--;
  *inner = p;
  *inner_len = end - p;
  return TRUE;
}

static DynValue *
decode_ddb_line (const char *text,
                 gsize       len,
                 GError    **error)
{
  const char *inner;
  gsize inner_len;

  /* An S3 export line. A table item cannot be just one map attribute named
   * "Item" (its key attributes are S, N or B), so the wrapper is unwrapped
   * whenever what it wraps is an item. */
  if (find_item_wrapper (text, len, &inner, &inner_len))
    {
      g_autoptr(GError) inner_error = NULL;
      DynValue *v = dyn_json_decode_ddb_item (inner, inner_len, &inner_error);

      if (v == NULL)
        v = dyn_json_decode_ddb_item (text, len, NULL);
      if (v == NULL)
        g_propagate_error (error, g_steal_pointer (&inner_error));
      return v;
    }
  return dyn_json_decode_ddb_item (text, len, error);
}

DynItemReadResult
_dyn_item_reader_decode_json_line (DynItemReader *self,
                                   const char    *text,
                                   gsize          len,
                                   DynValue     **item,
                                   GError       **error)
{
  g_autoptr(GError) reason = NULL;
  DynValue *v;

  if (self->format == DYN_TRANSFER_FORMAT_JSON)
    v = dyn_item_from_plain_json_string (text, len, &reason);
  else
    v = decode_ddb_line (text, len, &reason);
  if (v == NULL)
    {
      _dyn_item_reader_set_bad (self, error, reason);
      return DYN_ITEM_READ_BAD;
    }
  *item = v;
  return DYN_ITEM_READ_ITEM;
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!is_json_space (text[i]))
      return FALSE;
  return TRUE;
}

static DynItemReadResult
json_next (DynItemReader *self,
           DynValue     **item,
           GError       **error)
{
  for (;;)
    {
      DynItemPosition start;
      gboolean too_long;
      int r;

      current_position (self, &start);
      g_string_truncate (self->text, 0);
      r = _dyn_item_reader_read_line (self, &too_long, error);
      if (r < 0)
        {
          if (self->format == DYN_TRANSFER_FORMAT_S3)
            g_prefix_error (error, "%s: ",
                            ((DynS3File *) g_ptr_array_index (self->files, self->file_index))->key);
          return DYN_ITEM_READ_FAILED;
        }
      if (r == 0)
        {
          if (self->format != DYN_TRANSFER_FORMAT_S3)
            return DYN_ITEM_READ_END;
          if (!_dyn_s3_reader_finish_file (self, error))
            return DYN_ITEM_READ_FAILED;
          if (self->file_index + 1 >= self->files->len)
            {
              _dyn_item_reader_close_source (self);
              self->file_index = self->files->len;
              self->offset = 0;
              current_position (self, &self->next);
              return DYN_ITEM_READ_END;
            }
          if (!_dyn_s3_reader_open_file (self, self->file_index + 1, error))
            return DYN_ITEM_READ_FAILED;
          continue;
        }
      if (!too_long && is_blank (self->text->str, self->text->len))
        continue;

      self->last = start;
      self->record++;
      self->file_records++;
      current_position (self, &self->next);
      if (too_long)
        {
          g_autoptr(GError) reason = g_error_new (DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                                                  _("the line is longer than %u MB"),
                                                  DYN_TRANSFER_MAX_RECORD / (1024 * 1024));
          _dyn_item_reader_set_bad (self, error, reason);
          return DYN_ITEM_READ_BAD;
        }
      return _dyn_item_reader_decode_json_line (self, self->text->str, self->text->len, item, error);
    }
}

/* ---------------------------------------------------------------- reader */

DynItemReader *
dyn_item_reader_new (const char                 *path,
                     DynTransferFormat           format,
                     const DynItemReaderOptions *options,
                     GError                    **error)
{
  g_autoptr(DynItemReader) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail ((guint) format < G_N_ELEMENTS (format_names), NULL);

  self = g_new0 (DynItemReader, 1);
  self->format = format;
  self->path = g_strdup (path);
  self->verify_checksums = options != NULL ? options->verify_checksums : TRUE;
  self->text = g_string_sized_new (4096);
  self->line = 1;
  self->last.line = self->next.line = 1;

  if (format == DYN_TRANSFER_FORMAT_S3)
    {
      if (!_dyn_s3_reader_init (self, error))
        return NULL;
    }
  else
    {
      g_autoptr(GFile) f = g_file_new_for_path (path);
      g_autoptr(GFileInfo) info = g_file_query_info (f, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);

      if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                       /* Translators: %s is a path */
                       _("%s is a folder; only an S3 export is read from a folder"), path);
          return NULL;
        }
      if (info != NULL)
        self->bytes_total = g_file_info_get_size (info);
      if (!_dyn_item_reader_open_source (self, path, FALSE, error))
        return NULL;
      if (format == DYN_TRANSFER_FORMAT_CSV && !_dyn_csv_reader_init (self, options, error))
        return NULL;
    }
  current_position (self, &self->next);
  self->last = self->next;
  return g_steal_pointer (&self);
}

DynItemReader *
_dyn_item_reader_new_for_stream (GInputStream               *stream,
                                 DynTransferFormat           format,
                                 gboolean                    gzip,
                                 const DynItemReaderOptions *options,
                                 GError                    **error)
{
  g_autoptr(DynItemReader) self = NULL;

  g_return_val_if_fail (G_IS_SEEKABLE (stream), NULL);
  g_return_val_if_fail (format != DYN_TRANSFER_FORMAT_S3, NULL);

  self = g_new0 (DynItemReader, 1);
  self->format = format;
  self->path = g_strdup ("");
  self->verify_checksums = TRUE;
  self->text = g_string_sized_new (4096);
  self->line = 1;
  use_stream (self, g_object_ref (stream), gzip);
  if (format == DYN_TRANSFER_FORMAT_CSV && !_dyn_csv_reader_init (self, options, error))
    return NULL;
  current_position (self, &self->next);
  self->last = self->next;
  return g_steal_pointer (&self);
}

void
dyn_item_reader_free (DynItemReader *self)
{
  if (self == NULL)
    return;
  _dyn_item_reader_close_source (self);
  _dyn_csv_reader_clear (self);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_free (self->folder);
  g_free (self->raw);
  g_free (self->buf);
  g_string_free (self->text, TRUE);
  g_free (self->path);
  g_free (self);
}

DynItemReadResult
dyn_item_reader_next (DynItemReader  *self,
                      DynValue      **item,
                      GError        **error)
{
  g_return_val_if_fail (self != NULL, DYN_ITEM_READ_FAILED);
  g_return_val_if_fail (item != NULL && *item == NULL, DYN_ITEM_READ_FAILED);

  if (self->format == DYN_TRANSFER_FORMAT_CSV)
    return _dyn_csv_reader_next (self, item, error);
  if (self->format == DYN_TRANSFER_FORMAT_S3)
    {
      if (self->file_index >= self->files->len)
        return DYN_ITEM_READ_END;
      if (!self->file_open && !_dyn_s3_reader_open_file (self, self->file_index, error))
        return DYN_ITEM_READ_FAILED;
    }
  return json_next (self, item, error);
}

void
dyn_item_reader_get_last (DynItemReader   *self,
                          DynItemPosition *position)
{
  g_return_if_fail (self != NULL && position != NULL);
  *position = self->last;
}

void
dyn_item_reader_get_next (DynItemReader   *self,
                          DynItemPosition *position)
{
  g_return_if_fail (self != NULL && position != NULL);
  *position = self->next;
}

/* Reads lines up to @offset of the current source (gzip cannot seek);
 * counts them as records of the file as the reading would have. */
static gboolean
skip_to (DynItemReader *self,
         guint64        offset,
         GError       **error)
{
  while (self->offset < offset)
    {
      gboolean too_long;
      int r;

      g_string_truncate (self->text, 0);
      r = _dyn_item_reader_read_line (self, &too_long, error);
      if (r < 0)
        return FALSE;
      if (r == 0 || self->offset > offset)
        break;
      if (too_long || !is_blank (self->text->str, self->text->len))
        self->file_records++;
    }
  if (self->offset != offset)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %llu is a byte offset */
                   _("the saved position (byte %llu) is not the start of a line of the input"),
                   (unsigned long long) offset);
      return FALSE;
    }
  return TRUE;
}

gboolean
dyn_item_reader_seek (DynItemReader         *self,
                      const DynItemPosition *position,
                      GError               **error)
{
  g_return_val_if_fail (self != NULL && position != NULL, FALSE);

  g_string_truncate (self->text, 0);
  if (self->format == DYN_TRANSFER_FORMAT_S3)
    {
      if (position->file >= self->files->len)
        {
          _dyn_item_reader_close_source (self);
          self->file_index = self->files->len;
        }
      else
        {
          if (!_dyn_s3_reader_open_file (self, position->file, error))
            return FALSE;
          if (!skip_to (self, position->offset, error))
            return FALSE;
        }
    }
  else
    {
      guint64 min = self->format == DYN_TRANSFER_FORMAT_CSV ? self->data_offset : 0;

      if (self->gunzip != NULL || position->file != 0 || position->offset < min
          || (self->bytes_total > 0 && position->offset > self->bytes_total))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("the saved position (byte %llu) is not in the input"),
                       (unsigned long long) position->offset);
          return FALSE;
        }
      if (!g_seekable_seek (G_SEEKABLE (self->input), position->offset, G_SEEK_SET, NULL, error))
        return FALSE;
      self->buf_pos = self->buf_len = 0;
      self->eof = FALSE;
      self->offset = position->offset;
    }
  self->line = position->line;
  self->record = position->record;
  self->next = *position;
  self->last = *position;
  return TRUE;
}

guint64
dyn_item_reader_get_bytes_read (DynItemReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->format == DYN_TRANSFER_FORMAT_S3)
    return self->bytes_before + (self->file_open ? self->raw_read : 0);
  return self->offset;
}

guint64
dyn_item_reader_get_bytes_total (DynItemReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->bytes_total;
}

guint64
dyn_item_reader_get_expected_items (DynItemReader *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->expected;
}

/* -------------------------------------------------------------- detection */

gboolean
dyn_transfer_format_detect (const char        *path,
                            DynTransferFormat *format,
                            GError           **error)
{
  g_autofree char *export = NULL;
  g_autoptr(DynItemReader) reader = NULL;

  g_return_val_if_fail (path != NULL && format != NULL, FALSE);

  if (g_file_test (path, G_FILE_TEST_IS_DIR) || g_str_has_suffix (path, "manifest-summary.json"))
    {
      export = _dyn_s3_find_export (path, error);
      if (export == NULL)
        return FALSE;
      *format = DYN_TRANSFER_FORMAT_S3;
      return TRUE;
    }
  {
    g_autofree char *lower = g_ascii_strdown (path, -1);

    if (g_str_has_suffix (lower, ".csv"))
      {
        *format = DYN_TRANSFER_FORMAT_CSV;
        return TRUE;
      }
  }

  /* the first non-empty line decides */
  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_DDB_JSON, NULL, error);
  if (reader == NULL)
    return FALSE;
  for (;;)
    {
      gboolean too_long;
      int r;

      g_string_truncate (reader->text, 0);
      r = _dyn_item_reader_read_line (reader, &too_long, error);
      if (r < 0)
        return FALSE;
      if (r == 0)
        {
          *format = DYN_TRANSFER_FORMAT_DDB_JSON;
          return TRUE;
        }
      if (too_long || !is_blank (reader->text->str, reader->text->len))
        break;
    }
  {
    g_autoptr(DynValue) v = decode_ddb_line (reader->text->str, reader->text->len, NULL);

    *format = v != NULL ? DYN_TRANSFER_FORMAT_DDB_JSON : DYN_TRANSFER_FORMAT_JSON;
  }
  return TRUE;
}
