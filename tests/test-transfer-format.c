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

  return g_test_run ();
}
