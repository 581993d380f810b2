/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The formats of client/transfer (dyn-transfer-format.c, -csv.c, -s3.c):
 * every type through each writer and back through the reader, bad records
 * with their line numbers, positions and seek, CSV quoting and columns, the
 * S3 export layout (manifests, MD5, gzip members, item counts). No server. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-test-util.h"
#include "dyn-transfer.h"

/* ------------------------------------------------------------- helpers */

static char *
make_tmpdir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("dyn-transfer-format-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          rm_rf (child);
        }
    }
  g_remove (path);
}

static DynValue *
item_from_ddb (const char *json)
{
  g_autoptr(GError) error = NULL;
  DynValue *v = dyn_json_decode_ddb_item (json, strlen (json), &error);

  g_assert_no_error (error);
  g_assert_nonnull (v);
  return v;
}

/* Every type, the number limits, empty strings and binary, U+0000, emoji,
 * nesting, sets, names that need quoting in every format; @i varies it. */
static DynValue *
make_zoo_item (guint i)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append_printf (s, "{\"pk\":{\"S\":\"item#%u\"}", i);
  g_string_append (s,
    ",\"n38\":{\"N\":\"12345678901234567890123456789012345678\"}"
    ",\"tiny\":{\"N\":\"1E-130\"}"
    ",\"neg\":{\"N\":\"-9.9999999999999999999999999999999999999E+125\"}"
    ",\"exact\":{\"N\":\"1.50\"}"
    ",\"empty\":{\"S\":\"\"}"
    ",\"emptyb\":{\"B\":\"\"}"
    ",\"bin\":{\"B\":\"AAEC/f7/\"}"
    ",\"nul\":{\"S\":\"a\\u0000b\"}"
    ",\"utf8\":{\"S\":\"Grüße 🦆 ışık\"}"
    ",\"t\":{\"BOOL\":true}"
    ",\"f\":{\"BOOL\":false}"
    ",\"nothing\":{\"NULL\":true}"
    ",\"ss\":{\"SS\":[\"a\",\"b,c\",\"\\\"q\\\"\",\"\"]}"
    ",\"ns\":{\"NS\":[\"1\",\"-0.5\",\"1E+100\"]}"
    ",\"bs\":{\"BS\":[\"AA==\",\"AQI=\"]}"
    ",\"m\":{\"M\":{\"inner\":{\"L\":[{\"N\":\"1\"},{\"M\":{\"$set\":{\"S\":\"tag-like\"}}},{\"L\":[]},{\"M\":{}}]},\"s\":{\"S\":\"x\"}}}"
    ",\"l\":{\"L\":[{\"S\":\"a\"},{\"NULL\":true},{\"B\":\"AA==\"},{\"SS\":[\"z\"]}]}"
    ",\"comma, name\":{\"S\":\"v1\"}"
    ",\"quote \\\"name\\\"\":{\"S\":\"v2\"}"
    ",\"new\\nline\":{\"S\":\"multi\\r\\nline\\ncell\"}"
    ",\" spaced \":{\"S\":\" lead and trail \"}"
    ",\"typed (S)\":{\"N\":\"7\"}"
    ",\"formula\":{\"S\":\"=1+2\"}");
  if (i % 2 == 1)
    g_string_append (s, ",\"mixed\":{\"N\":\"42\"}");
  else
    g_string_append (s, ",\"mixed\":{\"S\":\"forty-two\"}");
  g_string_append (s, "}");
  return item_from_ddb (s->str);
}

static char *
ddb_text (const DynValue *item)
{
  return dyn_item_to_ddb_json_string (item);
}

static void
assert_items_equal (const DynValue *a,
                    const DynValue *b)
{
  g_autofree char *ta = ddb_text (a);
  g_autofree char *tb = ddb_text (b);

  g_assert_true (dyn_value_equal (a, b));
  /* same members and the same number texts: the same DynamoDB JSON once
   * member order (CSV columns) is set aside */
  g_assert_cmpuint (dyn_value_get_length (a), ==, dyn_value_get_length (b));
  for (guint i = 0; i < dyn_value_get_length (a); i++)
    {
      const char *name = dyn_value_map_get_name (a, i);
      g_autofree char *va = dyn_value_to_ddb_json_string (dyn_value_map_get_value (a, i));
      DynValue *vb_value = dyn_value_map_lookup (b, name);
      g_autofree char *vb = NULL;

      g_assert_nonnull (vb_value);
      vb = dyn_value_to_ddb_json_string (vb_value);
      g_assert_cmpstr (va, ==, vb);
    }
  (void) ta;
  (void) tb;
}

static void
write_file (const char *path,
            const char *data,
            gssize      len)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

/* Reads every record; returns the items, and the BAD messages in @bad. */
static GPtrArray *
read_all (DynItemReader *reader,
          GPtrArray     *bad)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      DynValue *item = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &error);

      if (r == DYN_ITEM_READ_END)
        {
          g_assert_no_error (error);
          break;
        }
      g_assert_cmpint (r, !=, DYN_ITEM_READ_FAILED);
      if (r == DYN_ITEM_READ_BAD)
        {
          g_assert_nonnull (error);
          g_assert_null (item);
          if (bad != NULL)
            g_ptr_array_add (bad, g_strdup (error->message));
          continue;
        }
      g_assert_no_error (error);
      g_ptr_array_add (items, item);
    }
  return items;
}

/* ---------------------------------------------------- names, detection */

static void
test_format_names (void)
{
  for (guint f = DYN_TRANSFER_FORMAT_DDB_JSON; f <= DYN_TRANSFER_FORMAT_S3; f++)
    {
      DynTransferFormat back = 99;

      g_assert_true (dyn_transfer_format_from_string (dyn_transfer_format_to_string (f), &back, NULL));
      g_assert_cmpint (back, ==, f);
    }
  {
    g_autoptr(GError) error = NULL;
    DynTransferFormat back;

    g_assert_false (dyn_transfer_format_from_string ("xml", &back, &error));
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "xml"));
  }
}

static void
test_detect (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *ddb = g_build_filename (dir, "a.jsonl", NULL);
  g_autofree char *plain = g_build_filename (dir, "b.jsonl", NULL);
  g_autofree char *csv = g_build_filename (dir, "c.CSV", NULL);
  g_autofree char *s3line = g_build_filename (dir, "d.json", NULL);
  DynTransferFormat f;

  write_file (ddb, "\n\n{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}}\n", -1);
  write_file (plain, "\xEF\xBB\xBF{\"pk\":\"a\",\"n\":1}\n", -1);
  write_file (csv, "pk (S)\r\na\r\n", -1);
  write_file (s3line, "{\"Item\":{\"pk\":{\"S\":\"a\"}}}\n", -1);
  g_assert_true (dyn_transfer_format_detect (ddb, &f, NULL));
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_DDB_JSON);
  g_assert_true (dyn_transfer_format_detect (plain, &f, NULL));
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_JSON);
  g_assert_true (dyn_transfer_format_detect (csv, &f, NULL));
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_CSV);
  g_assert_true (dyn_transfer_format_detect (s3line, &f, NULL));
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_DDB_JSON);
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (dyn_transfer_format_detect (dir, &f, &error));
    g_assert_nonnull (error);
  }
  rm_rf (dir);
}

/* ----------------------------------------------------------- JSON lines */

static void
test_line_writers (void)
{
  g_autoptr(DynValue) item = item_from_ddb ("{\"a\":{\"S\":\"x\"},\"n\":{\"N\":\"1.50\"},\"s\":{\"NS\":[\"1\",\"2\"]},\"b\":{\"B\":\"AA==\"}}");
  g_autoptr(GString) out = g_string_new (NULL);

  dyn_transfer_append_line (DYN_TRANSFER_FORMAT_DDB_JSON, item, out);
  g_assert_cmpstr (out->str, ==, "{\"a\":{\"S\":\"x\"},\"n\":{\"N\":\"1.50\"},\"s\":{\"NS\":[\"1\",\"2\"]},\"b\":{\"B\":\"AA==\"}}\n");
  g_string_truncate (out, 0);
  dyn_transfer_append_line (DYN_TRANSFER_FORMAT_JSON, item, out);
  g_assert_cmpstr (out->str, ==, "{\"a\":\"x\",\"n\":1.50,\"s\":{\"$set\":[1,2]},\"b\":{\"$binary\":\"AA==\"}}\n");
  g_string_truncate (out, 0);
  dyn_transfer_append_line (DYN_TRANSFER_FORMAT_S3, item, out);
  g_assert_cmpstr (out->str, ==, "{\"Item\":{\"a\":{\"S\":\"x\"},\"n\":{\"N\":\"1.50\"},\"s\":{\"NS\":[\"1\",\"2\"]},\"b\":{\"B\":\"AA==\"}}}\n");
}

/* Writes @n zoo items with @format's line writer (JSON formats). */
static char *
write_zoo_lines (const char        *dir,
                 DynTransferFormat  format,
                 guint              n)
{
  g_autoptr(GString) out = g_string_new (NULL);
  char *path = g_build_filename (dir, "zoo.txt", NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynValue) item = make_zoo_item (i);
      dyn_transfer_append_line (format, item, out);
    }
  write_file (path, out->str, out->len);
  return path;
}

static void
test_json_roundtrip (gconstpointer data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = write_zoo_lines (dir, format, 6);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;

  reader = dyn_item_reader_new (path, format == DYN_TRANSFER_FORMAT_S3 ? DYN_TRANSFER_FORMAT_DDB_JSON : format,
                                NULL, &error);
  g_assert_no_error (error);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 6);
  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr(DynValue) want = make_zoo_item (i);
      g_autofree char *a = ddb_text (want);
      g_autofree char *b = ddb_text (g_ptr_array_index (items, i));

      /* member order and number texts kept: byte for byte */
      g_assert_cmpstr (a, ==, b);
    }
  g_assert_cmpuint (dyn_item_reader_get_bytes_read (reader), ==, dyn_item_reader_get_bytes_total (reader));
  rm_rf (dir);
}

static void
test_json_bad_lines (gconstpointer data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  gboolean ddb = format == DYN_TRANSFER_FORMAT_DDB_JSON;
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "bad.jsonl", NULL);
  g_autoptr(GString) text = g_string_new ("\xEF\xBB\xBF");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) items = NULL;

  /* 1 good, 2 blank, 3 bad JSON, 4 not an object, 5 bad number, 6 good (CRLF),
   * 7 whitespace, 8 good without a final newline */
  g_string_append (text, ddb ? "{\"pk\":{\"S\":\"one\"}}\n" : "{\"pk\":\"one\"}\n");
  g_string_append (text, "\n");
  g_string_append (text, "{\"pk\":\n");
  g_string_append (text, "[1,2]\n");
  g_string_append (text, ddb ? "{\"pk\":{\"N\":\"1E+200\"}}\n" : "{\"pk\":1E+200}\n");
  g_string_append (text, ddb ? "{\"pk\":{\"S\":\"six\"}}\r\n" : "{\"pk\":\"six\"}\r\n");
  g_string_append (text, "  \t \r\n");
  g_string_append (text, ddb ? "{\"pk\":{\"S\":\"eight\"}}" : "{\"pk\":\"eight\"}");
  write_file (path, text->str, text->len);

  reader = dyn_item_reader_new (path, format, NULL, &error);
  g_assert_no_error (error);
  items = read_all (reader, bad);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (g_ptr_array_index (items, 0), "pk")), ==, "one");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (g_ptr_array_index (items, 1), "pk")), ==, "six");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (g_ptr_array_index (items, 2), "pk")), ==, "eight");
  g_assert_cmpuint (bad->len, ==, 3);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (bad, 0), "line 3: "));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (bad, 1), "line 4: "));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (bad, 2), "line 5: "));
  /* the decoder's reason follows */
  g_assert_nonnull (strstr (g_ptr_array_index (bad, 2), "1E+200"));
  rm_rf (dir);
}

static void
test_json_long_line (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "long.jsonl", NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;

  /* a 400 KB item (over several 64 KB buffers) between two small ones */
  g_string_append (text, "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"big\"},\"v\":{\"S\":\"");
  for (guint i = 0; i < 400 * 1024 - 20; i++)
    g_string_append_c (text, 'a' + i % 26);
  g_string_append (text, "\"}}\n{\"pk\":{\"S\":\"c\"}}\n");
  write_file (path, text->str, text->len);

  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_DDB_JSON, NULL, &error);
  g_assert_no_error (error);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_cmpuint (dyn_value_get_string_length (dyn_value_map_lookup (g_ptr_array_index (items, 1), "v")), ==, 400 * 1024 - 20);
  rm_rf (dir);
}

/* Reads @path (@format) to the end, remembering each record's next position;
 * then, for every record, a fresh reader seeks to the position before it and
 * must read exactly the rest. */
static void
check_seek_everywhere (const char                 *path,
                       DynTransferFormat           format,
                       const DynItemReaderOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (path, format, options, &error);
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (DynItemPosition));
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint64));
  DynItemPosition pos;

  g_assert_no_error (error);
  dyn_item_reader_get_next (reader, &pos);
  g_array_append_val (positions, pos);
  for (;;)
    {
      g_autoptr(DynValue) item = NULL;
      g_autoptr(GError) e = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &e);
      DynItemPosition last;

      if (r == DYN_ITEM_READ_END)
        break;
      g_assert_cmpint (r, !=, DYN_ITEM_READ_FAILED);
      dyn_item_reader_get_last (reader, &last);
      /* the last record starts where the one before it said the next would */
      g_assert_cmpuint (last.record, ==, g_array_index (positions, DynItemPosition, positions->len - 1).record);
      g_ptr_array_add (texts, r == DYN_ITEM_READ_ITEM ? ddb_text (item) : g_strdup (e->message));
      g_array_append_val (lines, last.line);
      dyn_item_reader_get_next (reader, &pos);
      g_assert_cmpuint (pos.record, ==, last.record + 1);
      g_array_append_val (positions, pos);
    }
  g_assert_cmpuint (texts->len, >, 2);

  for (guint start = 0; start < positions->len; start++)
    {
      g_autoptr(DynItemReader) again = dyn_item_reader_new (path, format, options, &error);
      guint k = start;

      g_assert_no_error (error);
      g_assert_true (dyn_item_reader_seek (again, &g_array_index (positions, DynItemPosition, start), &error));
      g_assert_no_error (error);
      for (;;)
        {
          g_autoptr(DynValue) item = NULL;
          g_autoptr(GError) e = NULL;
          DynItemReadResult r = dyn_item_reader_next (again, &item, &e);
          g_autofree char *text = NULL;
          DynItemPosition last;

          if (r == DYN_ITEM_READ_END)
            break;
          g_assert_cmpint (r, !=, DYN_ITEM_READ_FAILED);
          g_assert_cmpuint (k, <, texts->len);
          dyn_item_reader_get_last (again, &last);
          g_assert_cmpuint (last.record, ==, k);
          g_assert_cmpuint (last.line, ==, g_array_index (lines, guint64, k));
          text = r == DYN_ITEM_READ_ITEM ? ddb_text (item) : g_strdup (e->message);
          /* a bad record's message names the same line as before */
          g_assert_cmpstr (text, ==, g_ptr_array_index (texts, k));
          k++;
        }
      g_assert_cmpuint (k, ==, texts->len);
    }
}

static void
test_json_seek (gconstpointer data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = write_zoo_lines (dir, format, 5);
  g_autoptr(GString) text = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  /* add blank lines and a bad line in the middle */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  text = g_string_new ("\xEF\xBB\xBF\n");
  g_string_append (text, contents);
  g_string_append (text, "\n\nnot json\n");
  g_string_append (text, contents);
  write_file (path, text->str, text->len);
  check_seek_everywhere (path, format, NULL);
  rm_rf (dir);
}

/* ------------------------------------------------------------------- S3 */

/* An export in @dir: @n_files data files of zoo items, each page of
 * @per_member items its own gzip member; returns the data of each file. */
static GPtrArray *
write_s3_export (const char *dir,
                 guint       n_files,
                 guint       per_file,
                 guint       per_member)
{
  g_autofree char *data_dir = g_build_filename (dir, "data", NULL);
  g_autoptr(GArray) files = g_array_new (FALSE, TRUE, sizeof (DynS3DataFile));
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 11, 30, 12, 0, 1.5);
  DynS3ExportInfo info = { "arn:aws:dynamodb:us-east-1:000000000000:table/Zoo", when };
  guint k = 0;

  g_assert_cmpint (g_mkdir_with_parents (data_dir, 0755), ==, 0);
  for (guint f = 0; f < n_files; f++)
    {
      g_autoptr(GByteArray) gz = g_byte_array_new ();
      g_autoptr(GString) all = g_string_new (NULL);
      g_autoptr(GString) page = g_string_new (NULL);
      char *rel = g_strdup_printf ("data/file%02u-abcdefghijklmnop.json.gz", f);
      g_autofree char *path = g_build_filename (dir, rel, NULL);
      DynS3DataFile file = { rel, per_file };

      for (guint i = 0; i < per_file; i++)
        {
          g_autoptr(DynValue) item = make_zoo_item (k++);

          dyn_transfer_append_line (DYN_TRANSFER_FORMAT_S3, item, page);
          if ((i + 1) % per_member == 0 || i + 1 == per_file)
            {
              dyn_transfer_gzip_append (page->str, page->len, gz);
              g_string_append_len (all, page->str, page->len);
              g_string_truncate (page, 0);
            }
        }
      if (per_file == 0)
        dyn_transfer_gzip_append ("", 0, gz);
      write_file (path, (const char *) gz->data, gz->len);
      g_ptr_array_add (texts, g_strdup (all->str));
      g_ptr_array_add (paths, rel);
      g_array_append_val (files, file);
    }
  g_assert_true (dyn_s3_export_write_manifests (dir, &info, (DynS3DataFile *) files->data, files->len, &error));
  g_assert_no_error (error);
  return texts;
}

static void
test_s3_roundtrip (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(GPtrArray) texts = write_s3_export (dir, 3, 5, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *manifest = NULL;
  g_autofree char *summary_path = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autofree char *files_path = g_build_filename (dir, "manifest-files.json", NULL);
  DynTransferFormat f;
  DynItemPosition pos;
  g_autofree char *where = NULL;

  g_assert_true (dyn_transfer_format_detect (dir, &f, NULL));
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_S3);

  /* the manifests as AWS writes them */
  g_assert_true (g_file_get_contents (summary_path, &summary, NULL, NULL));
  g_assert_nonnull (strstr (summary, "\"version\":\"2020-06-30\""));
  g_assert_nonnull (strstr (summary, "\"exportTime\":\"2026-11-30T12:00:01.500Z\""));
  g_assert_nonnull (strstr (summary, "\"itemCount\":15"));
  g_assert_nonnull (strstr (summary, "\"outputFormat\":\"DYNAMODB_JSON\""));
  g_assert_nonnull (strstr (summary, "\"manifestFilesS3Key\":\"AWSDynamoDB/"));
  g_assert_nonnull (strstr (summary, "\"exportArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/Zoo/export/"));
  g_assert_true (g_file_get_contents (files_path, &manifest, NULL, NULL));
  g_assert_true (g_str_has_prefix (manifest, "{\"itemCount\":5,\"md5Checksum\":\""));
  g_assert_nonnull (strstr (manifest, "/data/file02-abcdefghijklmnop.json.gz\"}\n"));

  reader = dyn_item_reader_new (dir, DYN_TRANSFER_FORMAT_S3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_item_reader_get_expected_items (reader), ==, 15);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 15);
  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr(DynValue) want = make_zoo_item (i);
      g_autofree char *a = ddb_text (want);
      g_autofree char *b = ddb_text (g_ptr_array_index (items, i));

      g_assert_cmpstr (a, ==, b);
    }
  g_assert_cmpuint (dyn_item_reader_get_bytes_read (reader), ==, dyn_item_reader_get_bytes_total (reader));
  dyn_item_reader_get_last (reader, &pos);
  g_assert_cmpuint (pos.file, ==, 2);
  g_assert_cmpuint (pos.line, ==, 5);
  where = dyn_item_reader_describe_position (reader, &pos);
  g_assert_cmpstr (where, ==, "data/file02-abcdefghijklmnop.json.gz line 5");

  /* the folder that holds AWSDynamoDB/<id>/ is found as well */
  {
    g_autofree char *top = make_tmpdir ();
    g_autofree char *aws = g_build_filename (top, "AWSDynamoDB", NULL);
    g_autofree char *moved = g_build_filename (aws, "01234567890123-abcdefgh", NULL);
    g_autoptr(DynItemReader) r2 = NULL;
    g_autoptr(GPtrArray) items2 = NULL;

    g_assert_cmpint (g_mkdir (aws, 0755), ==, 0);
    g_assert_cmpint (g_rename (dir, moved), ==, 0);
    r2 = dyn_item_reader_new (top, DYN_TRANSFER_FORMAT_S3, NULL, &error);
    g_assert_no_error (error);
    items2 = read_all (r2, NULL);
    g_assert_cmpuint (items2->len, ==, 15);
    g_assert_cmpint (g_rename (moved, dir), ==, 0);
    rm_rf (top);
  }
  rm_rf (dir);
}

static void
test_s3_seek (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(GPtrArray) texts = write_s3_export (dir, 3, 4, 3);

  check_seek_everywhere (dir, DYN_TRANSFER_FORMAT_S3, NULL);
  rm_rf (dir);
}

/* Python's gzip module reads the multi-member files the writer makes. */
static void
test_s3_python_gzip (void)
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = NULL;
  g_autoptr(GPtrArray) texts = NULL;

  if (python == NULL)
    {
      g_test_skip ("python3 is not installed");
      return;
    }
  dir = make_tmpdir ();
  texts = write_s3_export (dir, 2, 7, 2);
  for (guint f = 0; f < 2; f++)
    {
      g_autofree char *path = g_strdup_printf ("%s/data/file%02u-abcdefghijklmnop.json.gz", dir, f);
      const char *argv[] = { python, "-c",
                             "import gzip, sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())",
                             path, NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;
      int status = 0;

      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, &error));
      g_assert_no_error (error);
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_cmpstr (out, ==, g_ptr_array_index (texts, f));
    }
  rm_rf (dir);
}

/* Reads @dir as S3; returns the first FAILED (or construction) error. */
static GError *
s3_read_error (const char *dir,
               gboolean    verify)
{
  DynItemReaderOptions options = { NULL, verify };
  GError *error = NULL;
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (dir, DYN_TRANSFER_FORMAT_S3, &options, &error);

  if (reader == NULL)
    return error;
  for (;;)
    {
      g_autoptr(DynValue) item = NULL;
      g_autoptr(GError) e = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &e);

      if (r == DYN_ITEM_READ_END)
        return NULL;
      if (r == DYN_ITEM_READ_FAILED)
        return g_steal_pointer (&e);
    }
}

static void
replace_in_file (const char *path,
                 const char *from,
                 const char *to)
{
  g_autofree char *text = NULL;
  g_autoptr(GString) s = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, from));
  s = g_string_new (text);
  g_string_replace (s, from, to, 1);
  write_file (path, s->str, s->len);
}

static void
test_s3_checksum (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(GPtrArray) texts = write_s3_export (dir, 2, 3, 3);
  g_autofree char *gz = g_build_filename (dir, "data", "file01-abcdefghijklmnop.json.gz", NULL);
  g_autofree char *data = NULL;
  gsize len;
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;

  g_assert_null (s3_read_error (dir, TRUE));
  /* one flipped byte inside the deflate data */
  g_assert_true (g_file_get_contents (gz, &data, &len, NULL));
  data[len / 2] ^= 0x01;
  write_file (gz, data, len);
  e1 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e1);
  g_assert_cmpstr (e1->message, ==, "data/file01-abcdefghijklmnop.json.gz: checksum does not match the manifest");
  /* without the check, gzip's own CRC (or the JSON) still refuses it */
  e2 = s3_read_error (dir, FALSE);
  g_assert_nonnull (e2);
  g_assert_true (g_str_has_prefix (e2->message, "data/file01-abcdefghijklmnop.json.gz"));
  rm_rf (dir);
}

static void
test_s3_item_count (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(GPtrArray) texts = write_s3_export (dir, 2, 3, 3);
  g_autofree char *files = g_build_filename (dir, "manifest-files.json", NULL);
  g_autofree char *summary = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;

  /* a file with fewer items than its manifest line says */
  replace_in_file (files, "{\"itemCount\":3,", "{\"itemCount\":4,");
  e1 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e1);
  g_assert_cmpstr (e1->message, ==, "manifest-files.json counts 7 items, manifest-summary.json 6");
  replace_in_file (summary, "\"itemCount\":6", "\"itemCount\":7");
  e2 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e2);
  g_assert_cmpstr (e2->message, ==, "data/file00-abcdefghijklmnop.json.gz: 3 items, the manifest says 4");
  rm_rf (dir);
}

static void
test_s3_refused (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autoptr(GPtrArray) texts = write_s3_export (dir, 1, 2, 2);
  g_autofree char *summary = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autoptr(GError) e1 = NULL;
  g_autoptr(GError) e2 = NULL;
  g_autoptr(GError) e3 = NULL;

  replace_in_file (summary, "\"outputFormat\":\"DYNAMODB_JSON\"", "\"outputFormat\":\"ION\"");
  e1 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e1);
  g_assert_nonnull (strstr (e1->message, "Amazon Ion export"));
  replace_in_file (summary, "\"outputFormat\":\"ION\"", "\"outputFormat\":\"DYNAMODB_JSON\"");
  replace_in_file (summary, "\"exportType\":\"FULL_EXPORT\"", "\"exportType\":\"INCREMENTAL_EXPORT\"");
  e2 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e2);
  g_assert_nonnull (strstr (e2->message, "incremental export"));
  replace_in_file (summary, "\"exportType\":\"INCREMENTAL_EXPORT\"", "\"exportType\":\"FULL_EXPORT\"");
  replace_in_file (summary, "2020-06-30", "2031-01-01");
  e3 = s3_read_error (dir, TRUE);
  g_assert_nonnull (e3);
  g_assert_nonnull (strstr (e3->message, "2031-01-01"));
  rm_rf (dir);
}

/* A sample in AWS's documented layout (tests/transfer-data/s3-export: the
 * bucket prefix, AWSDynamoDB/<id>/ below it, an empty partition's file). */
static void
test_s3_aws_sample (void)
{
  const char *dir = g_test_get_filename (G_TEST_DIST, "transfer-data", "s3-export", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynTransferFormat f;
  DynValue *first;

  g_assert_true (dyn_transfer_format_detect (dir, &f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (f, ==, DYN_TRANSFER_FORMAT_S3);
  reader = dyn_item_reader_new (dir, DYN_TRANSFER_FORMAT_S3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_item_reader_get_expected_items (reader), ==, 3);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 3);
  first = g_ptr_array_index (items, 0);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (first, "Id")), ==, "103");
  g_assert_cmpuint (dyn_value_get_value_type (dyn_value_map_lookup (first, "Authors")), ==, DYN_VALUE_SS);
  g_assert_false (dyn_value_get_bool (dyn_value_map_lookup (first, "InPublication")));
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (g_ptr_array_index (items, 2), "Id")), ==, "101");
}

/* ------------------------------------------------------------------ CSV */

static char *
write_zoo_csv (const char *dir,
               guint       n)
{
  const char *keys[] = { "pk", NULL };
  g_autoptr(DynCsvColumns) columns = dyn_csv_columns_new (keys);
  g_autoptr(GString) out = g_string_new (NULL);
  char *path = g_build_filename (dir, "zoo.csv", NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynValue) item = make_zoo_item (i);
      dyn_csv_columns_add_item (columns, item);
    }
  dyn_csv_columns_append_header (columns, out);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynValue) item = make_zoo_item (i);
      dyn_csv_columns_append_row (columns, item, out);
    }
  write_file (path, out->str, out->len);
  return path;
}

static void
test_csv_roundtrip (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = write_zoo_csv (dir, 6);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  /* the key first; one column per (name, type): mixed is S in some items, N in others */
  g_assert_true (g_str_has_prefix (text, "pk (S),n38 (N),tiny (N),"));
  g_assert_nonnull (strstr (text, ",mixed (S),mixed (N)\r\n"));
  g_assert_nonnull (strstr (text, ",\"comma, name (S)\",\"quote \"\"name\"\" (S)\",\"new\nline (S)\",\" spaced  (S)\",typed (S) (N),"));

  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, NULL, &error);
  g_assert_no_error (error);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 6);
  for (guint i = 0; i < items->len; i++)
    {
      g_autoptr(DynValue) want = make_zoo_item (i);

      assert_items_equal (want, g_ptr_array_index (items, i));
    }
  rm_rf (dir);
}

static void
test_csv_cells (void)
{
  g_autoptr(DynValue) a = item_from_ddb (
    "{\"pk\":{\"S\":\"a,b\"},\"q\":{\"S\":\"say \\\"hi\\\"\"},\"nl\":{\"S\":\"x\\ny\"},\"cr\":{\"S\":\"x\\ry\"},"
    "\"sp\":{\"S\":\" x\"},\"e\":{\"S\":\"\"},\"eb\":{\"B\":\"\"},\"n\":{\"N\":\"1.50\"},\"t\":{\"BOOL\":true},"
    "\"nu\":{\"NULL\":true},\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\",\".5\",\"+2\"]},\"bs\":{\"BS\":[\"AA==\"]},"
    "\"m\":{\"M\":{\"k\":{\"N\":\"1\"}}},\"l\":{\"L\":[{\"S\":\"v\"}]},\"f\":{\"S\":\"=SUM(A1:A2)\"}}");
  g_autoptr(DynValue) b = item_from_ddb ("{\"pk\":{\"S\":\"b\"}}");
  g_autoptr(DynCsvColumns) columns = dyn_csv_columns_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);

  dyn_csv_columns_add_item (columns, a);
  dyn_csv_columns_add_item (columns, b);
  g_assert_cmpuint (dyn_csv_columns_get_count (columns), ==, 16);
  dyn_csv_columns_append_header (columns, out);
  g_assert_cmpstr (out->str, ==, "pk (S),q (S),nl (S),cr (S),sp (S),e (S),eb (B),n (N),t (BOOL),nu (NULL),ss (SS),ns (NS),bs (BS),m (M),l (L),f (S)\r\n");
  g_string_truncate (out, 0);
  dyn_csv_columns_append_row (columns, a, out);
  g_assert_cmpstr (out->str, ==,
                   "\"a,b\",\"say \"\"hi\"\"\",\"x\ny\",\"x\ry\",\" x\",\"\",\"\",1.50,true,null,"
                   "\"[\"\"a\"\",\"\"b\"\"]\",\"[1,\"\".5\"\",\"\"+2\"\"]\",\"[\"\"AA==\"\"]\","
                   "\"{\"\"k\"\":1}\",\"[\"\"v\"\"]\",=SUM(A1:A2)\r\n");
  g_string_truncate (out, 0);
  /* absent attributes: empty unquoted cells */
  dyn_csv_columns_append_row (columns, b, out);
  g_assert_cmpstr (out->str, ==, "b,,,,,,,,,,,,,,,\r\n");
}

static void
csv_reader_error (const char         *text,
                  const char * const *types,
                  const char         *expected)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "h.csv", NULL);
  DynItemReaderOptions options = { types, TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;

  write_file (path, text, -1);
  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, &options, &error);
  g_assert_null (reader);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==, expected);
  rm_rf (dir);
}

static void
test_csv_header (void)
{
  const char *types[] = { "price=N", "a=b=BOOL", NULL };
  const char *bad_types[] = { "price=NUMBER", NULL };
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "h.csv", NULL);
  DynItemReaderOptions options = { types, TRUE };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynValue *item;

  csv_reader_error ("pk (S),b (X)\r\n", NULL, "CSV header, column 2: unknown type \"X\" in \"b (X)\" (S N B BOOL NULL SS NS BS M L)");
  csv_reader_error ("pk (S),x,pk (S)\n", NULL, "CSV header, column 3: column 1 is \"pk\" of type S already");
  csv_reader_error ("pk,pk (S)\n", NULL, "CSV header, column 2: column 1 is \"pk\" of type S already");
  csv_reader_error ("pk (S), (N)\n", NULL, "CSV header, column 2: the attribute name is empty");
  csv_reader_error ("pk (S),\n", NULL, "CSV header, column 2: the attribute name is empty");
  csv_reader_error ("pk (S),\"b\n", NULL, "CSV header: a quoted cell is not closed");
  csv_reader_error ("pk\n", bad_types, "CSV column type \"price=NUMBER\" is not NAME=TYPE with TYPE one of S N B BOOL NULL SS NS BS M L");

  /* an empty file, or one of empty lines (an empty table's export): no items */
  write_file (path, "\xEF\xBB\xBF\r\n\r\n", -1);
  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, &options, &error);
  g_assert_no_error (error);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 0);
  g_clear_pointer (&items, g_ptr_array_unref);
  g_clear_pointer (&reader, dyn_item_reader_free);
  {
    g_autoptr(DynCsvColumns) none = dyn_csv_columns_new (NULL);
    g_autoptr(GString) out = g_string_new (NULL);

    dyn_csv_columns_append_header (none, out);
    g_assert_cmpstr (out->str, ==, "\r\n");
  }

  /* no suffix: the option's type or S; the LAST suffix counts; lower-case
   * parentheses belong to the name */
  write_file (path, "\xEF\xBB\xBFpk,price,a=b,Weight (kg),x (S) (N),x (S)\n"
                    "k1,1.50,true,12,7,s\n", -1);
  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, &options, &error);
  g_assert_no_error (error);
  items = read_all (reader, NULL);
  g_assert_cmpuint (items->len, ==, 1);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "pk")), ==, "k1");
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (item, "price")), ==, "1.50");
  g_assert_true (dyn_value_get_bool (dyn_value_map_lookup (item, "a=b")));
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "Weight (kg)")), ==, "12");
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (item, "x (S)")), ==, "7");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "x")), ==, "s");
  rm_rf (dir);
}

static void
test_csv_bad_rows (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = g_build_filename (dir, "rows.csv", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = NULL;
  g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) items = NULL;
  DynValue *item;

  write_file (path,
              "\xEF\xBB\xBFpk (S),n (N),v (S),v (N)\r\n"      /* 1 */
              "a,1,\"two\r\nlines, \"\"quoted\"\"\",\n"        /* 2-3 */
              "\n"                                             /* 4: no record */
              "b,,\"\",\n"                                     /* 5 */
              "c,x1,,\r\n"                                     /* 6: bad number */
              "d,1,2,3,4\n"                                    /* 7: 5 fields */
              "e,1,s,2\n"                                      /* 8: v twice */
              "f,1\"x\",,\n"                                   /* 9: stray quotes */
              "g,\"1\"x,,\n"                                   /* 10: text after the quote */
              "h,,,5\n"                                        /* 11 */
              "i,,\"open\n"                                    /* 12-13: unterminated */
              "j,,,\n", -1);
  reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, NULL, &error);
  g_assert_no_error (error);
  items = read_all (reader, bad);
  g_assert_cmpuint (items->len, ==, 3);
  item = g_ptr_array_index (items, 0);
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "v")), ==, "two\r\nlines, \"quoted\"");
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (item, "n")), ==, "1");
  item = g_ptr_array_index (items, 1);
  /* an unquoted empty cell leaves the attribute out, "" is the empty string */
  g_assert_null (dyn_value_map_lookup (item, "n"));
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (item, "v")), ==, "");
  g_assert_cmpuint (dyn_value_get_length (item), ==, 2);
  item = g_ptr_array_index (items, 2);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (item, "v")), ==, "5");

  g_assert_cmpuint (bad->len, ==, 6);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (bad, 0), "line 6: column 2 (n (N)): "));
  g_assert_nonnull (strstr (g_ptr_array_index (bad, 0), "x1"));
  g_assert_cmpstr (g_ptr_array_index (bad, 1), ==, "line 7: 5 fields, the header has 4");
  g_assert_cmpstr (g_ptr_array_index (bad, 2), ==, "line 8: column 4 (v (N)): \"v\" has a value in another column already");
  g_assert_cmpstr (g_ptr_array_index (bad, 3), ==, "line 9: column 2: a quote inside a cell that does not start with one");
  g_assert_cmpstr (g_ptr_array_index (bad, 4), ==, "line 10: column 2: a closing quote must be followed by a comma or the end of the row");
  g_assert_cmpstr (g_ptr_array_index (bad, 5), ==, "line 12: a quoted cell is not closed before the end of the file");
  rm_rf (dir);
}

static void
test_csv_seek (void)
{
  g_autofree char *dir = make_tmpdir ();
  g_autofree char *path = write_zoo_csv (dir, 5);
  g_autofree char *contents = NULL;
  g_autoptr(GString) text = NULL;
  gsize len;

  /* a bad row and an empty line in the middle */
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  /* (the rows hold U+0000: lengths, not strlen) */
  text = g_string_new_len (contents, len);
  g_string_append (text, "only,three,cells\r\n\r\n");
  {
    const char *rows = strstr (contents, "\r\nitem#0") + 2;

    g_string_append_len (text, rows, len - (rows - contents));
  }
  write_file (path, text->str, text->len);
  check_seek_everywhere (path, DYN_TRANSFER_FORMAT_CSV, NULL);
  rm_rf (dir);
}

/* The messages are translated, with their line and column. */
static void
test_messages_german (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = make_tmpdir ();
      g_autofree char *path = g_build_filename (dir, "de.csv", NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynItemReader) reader = NULL;
      g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) items = NULL;

      dyn_test_use_translations ("de");
      write_file (path, "pk (S),n (N)\na,1,2\nb,true\n", -1);
      reader = dyn_item_reader_new (path, DYN_TRANSFER_FORMAT_CSV, NULL, &error);
      g_assert_no_error (error);
      items = read_all (reader, bad);
      g_assert_cmpuint (bad->len, ==, 2);
      g_assert_cmpstr (g_ptr_array_index (bad, 0), ==, "Zeile 2: 3 Felder, die Kopfzeile hat 2");
      g_assert_true (g_str_has_prefix (g_ptr_array_index (bad, 1), "Zeile 3: Spalte 2 (n (N)): "));
      rm_rf (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/transfer-format/names", test_format_names);
  g_test_add_func ("/transfer-format/detect", test_detect);
  g_test_add_func ("/transfer-format/line-writers", test_line_writers);
  g_test_add_data_func ("/transfer-format/ddb-json/roundtrip", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON), test_json_roundtrip);
  g_test_add_data_func ("/transfer-format/json/roundtrip", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON), test_json_roundtrip);
  g_test_add_data_func ("/transfer-format/s3-lines/roundtrip", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_S3), test_json_roundtrip);
  g_test_add_data_func ("/transfer-format/ddb-json/bad-lines", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON), test_json_bad_lines);
  g_test_add_data_func ("/transfer-format/json/bad-lines", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON), test_json_bad_lines);
  g_test_add_func ("/transfer-format/ddb-json/long-line", test_json_long_line);
  g_test_add_data_func ("/transfer-format/ddb-json/seek", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON), test_json_seek);
  g_test_add_data_func ("/transfer-format/json/seek", GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON), test_json_seek);

  g_test_add_func ("/transfer-format/csv/roundtrip", test_csv_roundtrip);
  g_test_add_func ("/transfer-format/csv/cells", test_csv_cells);
  g_test_add_func ("/transfer-format/csv/header", test_csv_header);
  g_test_add_func ("/transfer-format/csv/bad-rows", test_csv_bad_rows);
  g_test_add_func ("/transfer-format/csv/seek", test_csv_seek);
  g_test_add_func ("/transfer-format/s3/roundtrip", test_s3_roundtrip);
  g_test_add_func ("/transfer-format/s3/seek", test_s3_seek);
  g_test_add_func ("/transfer-format/s3/python-gzip", test_s3_python_gzip);
  g_test_add_func ("/transfer-format/s3/checksum", test_s3_checksum);
  g_test_add_func ("/transfer-format/s3/item-count", test_s3_item_count);
  g_test_add_func ("/transfer-format/s3/refused", test_s3_refused);
  g_test_add_func ("/transfer-format/s3/aws-sample", test_s3_aws_sample);
  g_test_add_func ("/transfer-format/messages-german", test_messages_german);

  return g_test_run ();
}
