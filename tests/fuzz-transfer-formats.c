/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer: every reader of client/transfer on arbitrary bytes. The first
 * byte picks what reads the rest:
 *
 *   0  DynamoDB JSON lines        1  plain JSON lines        2  CSV
 *   3  an S3 manifest-files.json  4  a gzip data file of DynamoDB JSON lines
 *
 * (the byte modulo 5). The readers read from memory
 * (_dyn_item_reader_new_for_stream). Beyond "never crash, never leak": every
 * item read goes back through its format's writer and reader unchanged; the
 * record numbers count up; a reader sought to the position after the first
 * record reads the same records again. meson builds it in a clang build
 * (suite 'fuzz', seeds in tests/fuzz-corpus/transfer-formats); by hand:
 *
 *   CC=clang meson setup _build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
 *     -Dgui=disabled -Dc_args=-fsanitize=fuzzer-no-link
 *   ninja -C _build-fuzz tests/fuzz-transfer-formats
 *   mkdir -p _build-fuzz/corpus-transfer-formats
 *   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
 *     ./_build-fuzz/tests/fuzz-transfer-formats -max_total_time=120 \
 *     _build-fuzz/corpus-transfer-formats tests/fuzz-corpus/transfer-formats
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dyn-json.h"
#include "dyn-transfer-format-private.h"
#include "dyn-transfer.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static GInputStream *
memory_stream (const void *data,
               gsize       len)
{
  return g_memory_input_stream_new_from_data (data, len, NULL);
}

/* A map whose only member is a map named "Item" reads as S3's wrapper. */
static gboolean
looks_wrapped (const DynValue *item)
{
  return dyn_value_get_length (item) == 1
         && strcmp (dyn_value_map_get_name (item, 0), "Item") == 0
         && dyn_value_get_value_type (dyn_value_map_get_value (item, 0)) == DYN_VALUE_M;
}

static void
check_roundtrip (DynTransferFormat  format,
                 const DynValue    *item)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(DynValue) back = NULL;
  g_autoptr(GError) error = NULL;
  DynItemReadResult r;

  if (format == DYN_TRANSFER_FORMAT_CSV)
    {
      g_autoptr(DynCsvColumns) columns = dyn_csv_columns_new (NULL);

      /* an item without attributes is an empty row, which is no record */
      if (dyn_value_get_length (item) == 0)
        return;
      dyn_csv_columns_add_item (columns, item);
      dyn_csv_columns_append_header (columns, out);
      dyn_csv_columns_append_row (columns, item, out);
    }
  else
    {
      if (looks_wrapped (item))
        return;
      dyn_transfer_append_line (format, item, out);
    }
  in = memory_stream (out->str, out->len);
  reader = _dyn_item_reader_new_for_stream (in, format, FALSE, NULL, &error);
  g_assert_no_error (error);
  r = dyn_item_reader_next (reader, &back, &error);
  g_assert_no_error (error);
  g_assert_cmpint (r, ==, DYN_ITEM_READ_ITEM);
  g_assert_true (dyn_value_equal (item, back));
}

/* Reads to the end; returns the records and the position after the first. */
static guint64
read_all (DynItemReader     *reader,
          DynTransferFormat  format,
          gboolean           check,
          DynItemPosition   *after_first)
{
  guint64 records = 0;

  for (;;)
    {
      g_autoptr(DynValue) item = NULL;
      g_autoptr(GError) error = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &error);
      DynItemPosition last, next;

      if (r == DYN_ITEM_READ_END || r == DYN_ITEM_READ_FAILED)
        {
          g_assert_true ((r == DYN_ITEM_READ_FAILED) == (error != NULL));
          break;
        }
      dyn_item_reader_get_last (reader, &last);
      dyn_item_reader_get_next (reader, &next);
      g_assert_cmpuint (next.record, ==, last.record + 1);
      g_assert_cmpuint (next.offset, >, last.offset);
      g_assert_cmpuint (next.line, >, last.line);
      if (records == 0 && after_first != NULL)
        *after_first = next;
      records++;
      if (r == DYN_ITEM_READ_BAD)
        {
          g_assert_nonnull (error);
          g_assert_null (item);
          continue;
        }
      g_assert_no_error (error);
      g_assert_nonnull (item);
      g_assert_cmpint (dyn_value_get_value_type (item), ==, DYN_VALUE_M);
      if (check)
        check_roundtrip (format, item);
    }
  return records;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GInputStream) in = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GError) error = NULL;
  DynTransferFormat format;
  DynItemPosition after_first = { 0 };
  const char *csv_types[] = { "n=N", "b=B", "m=M", NULL };
  DynItemReaderOptions options = { csv_types, TRUE };
  guint64 records, again;
  guint pick;

  if (size < 1)
    return 0;
  pick = data[0] % 5;
  data++;
  size--;

  if (pick == 3)
    {
      g_autoptr(GPtrArray) files = _dyn_s3_parse_manifest_files ((const char *) data, size,
                                                                 "/nonexistent", &error);

      g_assert_true ((files == NULL) == (error != NULL));
      for (guint i = 0; files != NULL && i < files->len; i++)
        {
          DynS3File *f = g_ptr_array_index (files, i);

          g_assert_true (g_str_has_prefix (f->key, "data/"));
          g_assert_null (strchr (f->key + 5, '/'));
        }
      return 0;
    }

  format = pick == 1 ? DYN_TRANSFER_FORMAT_JSON : pick == 2 ? DYN_TRANSFER_FORMAT_CSV
                                                            : DYN_TRANSFER_FORMAT_DDB_JSON;
  in = memory_stream (data, size);
  reader = _dyn_item_reader_new_for_stream (in, format, pick == 4, &options, &error);
  if (reader == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }
  records = read_all (reader, format, TRUE, &after_first);
  if (pick == 4 || records == 0)
    return 0;

  /* a resumed reader reads the same records after the first */
  g_clear_pointer (&reader, dyn_item_reader_free);
  g_clear_object (&in);
  in = memory_stream (data, size);
  reader = _dyn_item_reader_new_for_stream (in, format, FALSE, &options, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_item_reader_seek (reader, &after_first, &error));
  g_assert_no_error (error);
  again = read_all (reader, format, FALSE, NULL);
  g_assert_cmpuint (again, ==, records - 1);
  return 0;
}
