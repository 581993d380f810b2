/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The export job, the exact count and the scan engine against DynamoDB
 * Local: every format read back with DynItemReader holds exactly the items a
 * Scan returns (as DynamoDB JSON text), with parallel segments, an index, a
 * filter, a cancel and a resume; a checkpoint of another export is refused. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dyn-json.h"
#include "dyn-test-util.h"
#include "dyn-transfer-private.h"

#define N_ITEMS 72

typedef struct
{
  DynTestFixture fx;
  char          *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (!dyn_test_fixture_setup (&f->fx, DYN_TEST_DYNAMODB_LOCAL, "export"))
    return;
  f->dir = g_dir_make_tmp ("dyn-export-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    {
      g_unlink (path);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->dir != NULL)
    remove_tree (f->dir);
  g_free (f->dir);
  dyn_test_fixture_teardown (&f->fx, data);
}

/* Items of every type: S, N (38 digits, tiny, negative), B, BOOL, NULL, M, L,
 * SS, NS, BS; empty strings and binary; UTF-8; CSV's troublemakers. */
static GPtrArray *
make_items (guint n)
{
  GPtrArray *items = dyn_test_item_array_new ();

  for (guint i = 0; i < n; i++)
    {
      const char *extra = "";

      switch (i % 4)
        {
        case 0:
          extra = ",\"s\":{\"S\":\"\"},\"b\":{\"B\":\"\"},\"big\":{\"N\":\"12345678901234567890123456789012345678\"}";
          break;
        case 1:
          extra = ",\"s\":{\"S\":\"Grüße, \\\"Ärger\\\"\\nzweite Zeile — 日本語 🎉\"},\"tiny\":{\"N\":\"-0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001\"}";
          break;
        case 2:
          extra = ",\"ss\":{\"SS\":[\"a,b\",\"c\\\"d\",\"\"]},\"ns\":{\"NS\":[\"1\",\"-2.5\",\"99999999999999999999999999999999999999\"]},\"bs\":{\"BS\":[\"AAE=\",\"/w==\"]}";
          break;
        default:
          extra = ",\"m\":{\"M\":{\"deep\":{\"L\":[{\"N\":\"1\"},{\"S\":\"x\"},{\"NULL\":true},{\"BOOL\":false},{\"M\":{}},{\"L\":[]}]},\"e\":{\"S\":\"\"}}},\"flag\":{\"BOOL\":true},\"nothing\":{\"NULL\":true}";
          break;
        }
      g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"p%02u\"},\"sk\":{\"N\":\"%u\"},\"g\":{\"S\":\"g%u\"},"
                                              "\"bin\":{\"B\":\"3q2+7w==\"},\"even\":{\"BOOL\":%s}%s}",
                                              i % 9, i, i % 3, i % 2 == 0 ? "true" : "false", extra));
    }
  return items;
}

static void
create_and_load (Fixture *f,
                 guint    n)
{
  const char *gsis[] = { "byG:g:S:sk:N", NULL };
  g_autoptr(GPtrArray) items = make_items (n);
  g_autoptr(GError) error = NULL;

  dyn_test_fixture_create_table (&f->fx, "pk:S", "sk:N", gsis);
  dyn_test_load_items (f->fx.client, f->fx.table, items, &error);
  g_assert_no_error (error);
}

/* JSON text with every object's members sorted, so that items compare
 * whatever order their attributes come in. */
static void
append_canonical (GString  *out,
                  JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *obj = json_node_get_object (node);
      g_autoptr(GList) names = g_list_sort (json_object_get_members (obj), (GCompareFunc) strcmp);

      g_string_append_c (out, '{');
      for (GList *l = names; l != NULL; l = l->next)
        {
          if (l != names)
            g_string_append_c (out, ',');
          dyn_json_append_string (out, l->data, strlen (l->data));
          g_string_append_c (out, ':');
          append_canonical (out, json_object_get_member (obj, l->data));
        }
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_canonical (out, json_array_get_element (array, i));
        }
      g_string_append_c (out, ']');
    }
  else
    {
      g_autofree char *text = json_to_string (node, FALSE);
      g_string_append (out, text);
    }
}

static char *
canonical (const DynValue *item)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  GString *out = g_string_new (NULL);

  dyn_json_append_ddb_item (text, item);
  node = json_from_string (text->str, NULL);
  g_assert_nonnull (node);
  append_canonical (out, node);
  return g_string_free (out, FALSE);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* The items as sorted canonical DynamoDB JSON lines, one string. */
static char *
items_text (GPtrArray *items)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (lines, canonical (items->pdata[i]));
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (out, lines->pdata[i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static char *
scan_text (Fixture          *f,
           const DynRequest *request)
{
  g_autoptr(DynPager) pager = dyn_pager_new (f->fx.client, request);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = dyn_test_pager_run (pager, 1, 0, &error);

  g_assert_no_error (error);
  return items_text (items);
}

static char *
file_text (const char        *path,
           DynTransferFormat  format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (path, format, NULL, &error);
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();

  g_assert_no_error (error);
  for (;;)
    {
      DynValue *item = NULL;
      DynItemReadResult result = dyn_item_reader_next (reader, &item, &error);

      g_assert_no_error (error);
      if (result == DYN_ITEM_READ_END)
        break;
      g_assert_cmpint (result, ==, DYN_ITEM_READ_ITEM);
      g_ptr_array_add (items, item);
    }
  return items_text (items);
}

static char *
output_path (Fixture           *f,
             DynTransferFormat  format,
             const char        *name)
{
  const char *ext[] = { ".jsonl", ".json", ".csv", "" };
  g_autofree char *file = g_strconcat (name, ext[format], NULL);

  return g_build_filename (f->dir, file, NULL);
}

static const char * const key_names[] = { "pk", "sk", NULL };

typedef struct
{
  GCancellable *cancellable;
  guint64       cancel_after;   /* cancel once this many items are out (0: never) */
  guint         reports;
  gboolean      finished;
  DynTransferProgress last;
} Watch;

static void
progress_cb (const DynTransferProgress *p,
             gpointer                   user_data)
{
  Watch *w = user_data;

  w->reports++;
  w->last = *p;
  if (p->finished)
    w->finished = TRUE;
  if (w->cancel_after > 0 && p->items >= w->cancel_after && w->cancellable != NULL)
    g_cancellable_cancel (w->cancellable);
}

static gboolean
run_export (Fixture          *f,
            const DynRequest *request,
            DynExportOptions *options,
            Watch            *watch,
            GError          **error)
{
  g_autoptr(DynExportJob) job = dyn_export_job_new (f->fx.client, request, options, error);
  g_autoptr(GAsyncResult) result = NULL;

  if (job == NULL)
    return FALSE;
  dyn_export_job_run_async (job, watch ? watch->cancellable : NULL, watch ? progress_cb : NULL, watch,
                            dyn_test_result_cb, &result);
  return dyn_export_job_run_finish (job, dyn_test_wait (&result), error);
}

static DynRequest *
scan_request (Fixture *f)
{
  DynRequest *request = dyn_request_new (DYN_OP_SCAN, f->fx.table);

  /* Small pages: every segment reads several. */
  request->limit = 5;
  return request;
}

/* Each format: the file read back is the Scan's items. */
static void
test_export_format (Fixture       *f,
                    gconstpointer  data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  g_autoptr(DynRequest) request = NULL;
  g_autofree char *path = NULL;
  g_autofree char *checkpoint = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autoptr(GError) error = NULL;
  DynExportOptions options = { 0 };
  Watch watch = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  path = output_path (f, format, "all");
  options.format = format;
  options.output = path;
  options.segments = 3;
  options.key_names = key_names;
  options.items_total = N_ITEMS;

  g_assert_true (run_export (f, request, &options, &watch, &error));
  g_assert_no_error (error);
  g_assert_true (watch.finished);
  g_assert_cmpuint (watch.last.items, ==, N_ITEMS);
  g_assert_cmpuint (watch.last.segments, ==, 3);
  g_assert_cmpuint (watch.last.segments_done, ==, 3);
  g_assert_cmpfloat (watch.last.read_units, >, 0);
  g_assert_cmpuint (watch.last.requests, >=, N_ITEMS / 5);
  g_assert_cmpuint (watch.last.bytes, >, 0);

  /* The checkpoint folder is gone; no temporary file is left. */
  checkpoint = dyn_export_checkpoint_path (path);
  g_assert_false (g_file_test (checkpoint, G_FILE_TEST_EXISTS));
  {
    g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);
    g_assert_false (g_file_test (tmp, G_FILE_TEST_EXISTS));
  }

  expected = scan_text (f, request);
  got = file_text (path, format);
  g_assert_cmpstr (got, ==, expected);

  if (format == DYN_TRANSFER_FORMAT_S3)
    {
      g_autofree char *summary = g_build_filename (path, "manifest-summary.json", NULL);
      g_autofree char *files = g_build_filename (path, "manifest-files.json", NULL);

      g_assert_true (g_file_test (summary, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_test (files, G_FILE_TEST_EXISTS));
    }
  if (format == DYN_TRANSFER_FORMAT_CSV)
    {
      g_autofree char *text = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      /* The keys first, typed. */
      g_assert_true (g_str_has_prefix (text, "pk (S),sk (N),"));
    }

  /* A second export to the same output is refused. */
  g_assert_false (run_export (f, request, &options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, path));
}

/* One segment and four give the same items. */
static void
test_export_segments (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynRequest) request = NULL;
  g_autofree char *one = NULL;
  g_autofree char *four = NULL;
  g_autofree char *text_one = NULL;
  g_autofree char *text_four = NULL;
  g_autoptr(GError) error = NULL;
  DynExportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  one = output_path (f, DYN_TRANSFER_FORMAT_DDB_JSON, "one");
  four = output_path (f, DYN_TRANSFER_FORMAT_DDB_JSON, "four");
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.output = one;
  options.segments = 1;
  g_assert_true (run_export (f, request, &options, NULL, &error));
  g_assert_no_error (error);
  options.output = four;
  options.segments = 4;
  g_assert_true (run_export (f, request, &options, NULL, &error));
  g_assert_no_error (error);

  text_one = file_text (one, DYN_TRANSFER_FORMAT_DDB_JSON);
  text_four = file_text (four, DYN_TRANSFER_FORMAT_DDB_JSON);
  g_assert_cmpstr (text_one, ==, text_four);
  {
    g_auto(GStrv) lines = g_strsplit (text_one, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines) - 1, ==, N_ITEMS);
  }
}

/* An index, a filter with a projection, and a Query. */
static void
test_export_index_filter (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(DynRequest) index = NULL;
  g_autoptr(DynRequest) filter = NULL;
  g_autoptr(DynRequest) query = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);
  g_autoptr(DynValue) g1 = dyn_value_new_string ("g1");
  DynRequest *requests[3];
  const char *names[] = { "index", "filter", "query" };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);

  index = scan_request (f);
  index->index = g_strdup ("byG");
  filter = scan_request (f);
  filter->filter = g_strdup ("#e = :yes");
  filter->projection = g_strdup ("pk, sk, #e, m");
  dyn_request_add_name (filter, "#e", "even");
  dyn_request_add_value (filter, ":yes", yes);
  query = dyn_request_new (DYN_OP_QUERY, f->fx.table);
  query->index = g_strdup ("byG");
  query->key_condition = g_strdup ("g = :g");
  query->limit = 4;
  dyn_request_add_value (query, ":g", g1);
  requests[0] = index;
  requests[1] = filter;
  requests[2] = query;

  for (guint i = 0; i < G_N_ELEMENTS (requests); i++)
    {
      g_autofree char *path = output_path (f, DYN_TRANSFER_FORMAT_JSON, names[i]);
      g_autofree char *expected = scan_text (f, requests[i]);
      g_autofree char *got = NULL;
      DynExportOptions options = { 0 };

      options.format = DYN_TRANSFER_FORMAT_JSON;
      options.output = path;
      options.segments = 2;
      g_assert_true (run_export (f, requests[i], &options, NULL, &error));
      g_assert_no_error (error);
      got = file_text (path, DYN_TRANSFER_FORMAT_JSON);
      g_assert_cmpstr (got, ==, expected);
      g_assert_cmpstr (got, !=, "");
    }
}

/* Appends a page that was written but never recorded, as a kill between
 * the part's write and the checkpoint leaves it. */
static void
append_unrecorded_page (const char        *folder,
                        DynTransferFormat  format)
{
  g_autoptr(GDir) dir = NULL;
  g_autofree char *data = g_build_filename (folder, "data", NULL);
  const char *in = format == DYN_TRANSFER_FORMAT_S3 ? data : folder;
  const char *name;
  /* Longer than any page, so that later pages cannot hide it by overwriting it. */
  g_autofree char *filler = g_malloc (64 * 1024 + 1);
  g_autofree char *line = NULL;
  g_autofree char *s3_line = NULL;
  guint touched = 0;
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);

  /* Random letters: a gzip member of them is as long as a page, too. */
  for (guint i = 0; i < 64 * 1024; i++)
    filler[i] = 'a' + g_rand_int_range (rand, 0, 26);
  filler[64 * 1024] = '\0';
  line = g_strdup_printf ("{\"pk\":{\"S\":\"ghost\"},\"sk\":{\"N\":\"-1\"},\"x\":{\"S\":\"%s\"}}\n", filler);
  s3_line = g_strdup_printf ("{\"Item\":%.*s}\n", (int) strlen (line) - 1, line);
  dir = g_dir_open (in, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (in, name, NULL);
      g_autoptr(GByteArray) bytes = g_byte_array_new ();
      g_autofree char *old = NULL;
      gsize len;
      FILE *fp;

      if (strcmp (name, "checkpoint.json") == 0 || g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      g_assert_true (g_file_get_contents (path, &old, &len, NULL));
      if (format == DYN_TRANSFER_FORMAT_S3)
        dyn_transfer_gzip_append (s3_line, strlen (s3_line), bytes);
      else
        g_byte_array_append (bytes, (const guint8 *) line, strlen (line));
      fp = fopen (path, "ab");
      g_assert_nonnull (fp);
      g_assert_cmpuint (fwrite (bytes->data, 1, bytes->len, fp), ==, bytes->len);
      fclose (fp);
      touched++;
    }
  g_assert_cmpuint (touched, >, 0);
}

/* A cancel after some pages, then --resume: every item exactly once. */
static void
test_export_resume (Fixture       *f,
                    gconstpointer  data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *path = NULL;
  g_autofree char *folder = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autoptr(GError) error = NULL;
  DynExportOptions options = { 0 };
  Watch watch = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  request->limit = 3;
  path = output_path (f, format, "resumed");
  folder = dyn_export_checkpoint_path (path);
  options.format = format;
  options.output = path;
  options.segments = 4;
  options.key_names = key_names;
  /* Slow enough that the cancel comes while pages are still to read. */
  options.max_rcu = 4;

  watch.cancellable = cancellable;
  watch.cancel_after = 1;
  g_assert_false (run_export (f, request, &options, &watch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (strstr (error->message, "--resume"));
  g_clear_error (&error);
  g_assert_cmpuint (watch.last.items, >, 0);
  g_assert_cmpuint (watch.last.items, <, N_ITEMS);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* Without --resume the checkpoint is in the way. */
  options.max_rcu = 0;
  g_assert_false (run_export (f, request, &options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, "--resume"));
  g_clear_error (&error);

  /* A page written after the last checkpoint is cut off again. */
  append_unrecorded_page (folder, format);

  options.resume = TRUE;
  memset (&watch, 0, sizeof watch);
  g_assert_true (run_export (f, request, &options, &watch, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (watch.last.items, ==, N_ITEMS);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));

  expected = scan_text (f, request);
  got = file_text (path, format);
  g_assert_cmpstr (got, ==, expected);
}

/* A checkpoint of another request, format or segment count is refused, and
 * the message says what differs. */
static void
test_export_mismatch (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynRequest) other = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  DynExportOptions options = { 0 };
  Watch watch = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  request->limit = 3;
  path = output_path (f, DYN_TRANSFER_FORMAT_DDB_JSON, "mismatch");
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.output = path;
  options.segments = 2;
  options.max_rcu = 4;
  watch.cancellable = cancellable;
  watch.cancel_after = 1;
  g_assert_false (run_export (f, request, &options, &watch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  options.resume = TRUE;
  options.max_rcu = 0;

  other = dyn_request_copy (request);
  other->filter = g_strdup ("even = :yes");
  dyn_request_add_value (other, ":yes", yes);
  g_assert_false (run_export (f, other, &options, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "FilterExpression"));
  g_clear_error (&error);

  options.segments = 3;
  g_assert_false (run_export (f, request, &options, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "--segments 2"));
  g_clear_error (&error);

  options.segments = 2;
  options.format = DYN_TRANSFER_FORMAT_JSON;
  g_assert_false (run_export (f, request, &options, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "--format ddb-json"));
  g_clear_error (&error);

  /* The same export resumes. */
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  g_assert_true (run_export (f, request, &options, NULL, &error));
  g_assert_no_error (error);
  {
    g_autofree char *expected = scan_text (f, request);
    g_autofree char *got = file_text (path, DYN_TRANSFER_FORMAT_DDB_JSON);
    g_assert_cmpstr (got, ==, expected);
  }

  /* Resuming a finished export (killed after the output was in place)
   * succeeds at once, leaves the output as it is and removes what is left
   * of the checkpoint folder. */
  {
    g_autofree char *folder = dyn_export_checkpoint_path (path);
    g_autofree char *leftover = g_build_filename (folder, "part-0", NULL);
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;
    g_autoptr(DynExportJob) job = NULL;

    g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
    g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
    g_assert_true (g_file_set_contents (leftover, "x", 1, NULL));
    job = dyn_export_job_new (f->fx.client, request, &options, &error);
    g_assert_no_error (error);
    g_assert_true (dyn_export_job_is_complete (job));
    g_assert_true (run_export (f, request, &options, NULL, &error));
    g_assert_no_error (error);
    g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
    g_assert_cmpstr (after, ==, before);
  }

  /* A checkpoint whose parts are gone is refused, never filled with zeros. */
  {
    g_autofree char *lost = output_path (f, DYN_TRANSFER_FORMAT_DDB_JSON, "lost-part");
    g_autofree char *folder = dyn_export_checkpoint_path (lost);
    g_autoptr(GDir) dir = NULL;
    const char *name;

    options.output = lost;
    options.resume = FALSE;
    options.max_rcu = 4;
    memset (&watch, 0, sizeof watch);
    watch.cancellable = cancellable;
    watch.cancel_after = 1;
    g_cancellable_reset (cancellable);
    g_assert_false (run_export (f, request, &options, &watch, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
    g_assert_cmpuint (watch.last.items, >, 0);
    dir = g_dir_open (folder, 0, NULL);
    g_assert_nonnull (dir);
    while ((name = g_dir_read_name (dir)) != NULL)
      if (strcmp (name, "checkpoint.json") != 0)
        {
          g_autofree char *part = g_build_filename (folder, name, NULL);
          g_assert_cmpint (g_unlink (part), ==, 0);
        }
    options.resume = TRUE;
    options.max_rcu = 0;
    g_assert_false (run_export (f, request, &options, NULL, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_false (g_file_test (lost, G_FILE_TEST_EXISTS));
  }
}

/* The exact count: every item, or the filter's; what it cost. */
static void
test_count (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = dyn_request_new (DYN_OP_SCAN, f->fx.table);
  request->limit = 7;

  for (guint segments = 1; segments <= 4; segments += 3)
    {
      g_autoptr(GAsyncResult) result = NULL;
      DynCountResult count = { 0 };
      Watch watch = { 0 };

      dyn_transfer_count_async (f->fx.client, request, segments, NULL, progress_cb, &watch,
                                dyn_test_result_cb, &result);
      g_assert_true (dyn_transfer_count_finish (dyn_test_wait (&result), &count, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (count.count, ==, N_ITEMS);
      g_assert_cmpuint (count.scanned, ==, N_ITEMS);
      g_assert_cmpfloat (count.read_units, >, 0);
      g_assert_cmpuint (count.requests, >=, segments);
      g_assert_true (watch.finished);
      g_assert_cmpuint (watch.last.items, ==, N_ITEMS);
      g_assert_cmpuint (watch.last.segments_done, ==, segments);
    }

  /* A filter, and a projection that a count leaves out with its names. */
  request->filter = g_strdup ("even = :yes");
  request->projection = g_strdup ("#p");
  dyn_request_add_name (request, "#p", "pk");
  dyn_request_add_value (request, ":yes", yes);
  {
    g_autoptr(GAsyncResult) result = NULL;
    DynCountResult count = { 0 };

    dyn_transfer_count_async (f->fx.client, request, 2, NULL, NULL, NULL, dyn_test_result_cb, &result);
    g_assert_true (dyn_transfer_count_finish (dyn_test_wait (&result), &count, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (count.count, ==, N_ITEMS / 2);
    g_assert_cmpuint (count.scanned, ==, N_ITEMS);
  }
}

static void
test_estimates (void)
{
  double rcu, wcu;

  g_assert_cmpfloat (dyn_transfer_estimate_scan_rcu (0, FALSE), ==, 0);
  g_assert_cmpfloat (dyn_transfer_estimate_scan_rcu (1, FALSE), ==, 0.5);
  g_assert_cmpfloat (dyn_transfer_estimate_scan_rcu (4096, TRUE), ==, 1);
  g_assert_cmpfloat (dyn_transfer_estimate_scan_rcu (4097, FALSE), ==, 1);
  g_assert_cmpfloat (dyn_transfer_estimate_scan_rcu (1024 * 1024, FALSE), ==, 128);

  dyn_transfer_estimate_truncate (1000, 1000 * 1500, &rcu, &wcu);
  g_assert_cmpfloat (rcu, ==, dyn_transfer_estimate_scan_rcu (1000 * 1500, FALSE));
  g_assert_cmpfloat (wcu, ==, 2000);
  dyn_transfer_estimate_truncate (10, 100, &rcu, &wcu);
  g_assert_cmpfloat (wcu, ==, 10);
  dyn_transfer_estimate_truncate (0, 0, &rcu, &wcu);
  g_assert_cmpfloat (wcu, ==, 0);
}

/* The scan engine on its own: lanes resume from a saved key, and a lane set
 * done reads nothing. */
typedef struct
{
  GPtrArray *items;
  DynValue  *keys[4];
  guint      pages[4];
  guint      stop_lane_after;  /* pages; 0: never */
} ScanWatch;

static gboolean
scan_page_cb (const DynTransferScanPage *page,
              gpointer                   user_data,
              GError                   **error)
{
  ScanWatch *w = user_data;

  for (guint i = 0; i < page->items->len; i++)
    g_ptr_array_add (w->items, dyn_value_ref (page->items->pdata[i]));
  g_clear_pointer (&w->keys[page->lane], dyn_value_unref);
  if (page->last_key != NULL)
    w->keys[page->lane] = dyn_value_ref (page->last_key);
  w->pages[page->lane]++;
  if (w->stop_lane_after > 0 && w->pages[page->lane] >= w->stop_lane_after)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "stop");
      return FALSE;
    }
  return TRUE;
}

static void
test_scan_engine (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynTransferScan) first = NULL;
  g_autoptr(DynTransferScan) second = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  ScanWatch w = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  request->limit = 4;
  w.items = dyn_test_item_array_new ();

  /* The first page function error stops every lane. */
  first = dyn_transfer_scan_new (f->fx.client, request, 4);
  g_assert_cmpuint (dyn_transfer_scan_get_lanes (first), ==, 4);
  w.stop_lane_after = 2;
  dyn_transfer_scan_run_async (first, scan_page_cb, &w, NULL, dyn_test_result_cb, &result);
  g_assert_false (dyn_transfer_scan_run_finish (first, dyn_test_wait (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_clear_error (&error);
  g_clear_object (&result);
  g_assert_cmpuint (w.items->len, <, N_ITEMS);

  /* Resume every lane from its key; a finished lane stays finished. */
  second = dyn_transfer_scan_new (f->fx.client, request, 4);
  for (guint i = 0; i < 4; i++)
    if (w.keys[i] != NULL)
      dyn_transfer_scan_set_start_key (second, i, w.keys[i]);
    else if (w.pages[i] > 0)
      dyn_transfer_scan_set_lane_done (second, i);
  w.stop_lane_after = 0;
  dyn_transfer_scan_run_async (second, scan_page_cb, &w, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_transfer_scan_run_finish (second, dyn_test_wait (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_transfer_scan_get_lanes_done (second), ==, 4);

  expected = scan_text (f, request);
  got = items_text (w.items);
  g_assert_cmpstr (got, ==, expected);
  for (guint i = 0; i < 4; i++)
    g_clear_pointer (&w.keys[i], dyn_value_unref);
  g_ptr_array_unref (w.items);
}

/* The items as the server returns them: each item's DynamoDB JSON text as
 * it came (attribute order included), the lines sorted. */
static char *
server_text (Fixture    *f,
             const char *table)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *start = NULL;

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynResponse) response = NULL;
      JsonObject *root;
      JsonNode *lek;

      if (start != NULL)
        response = dyn_test_callf (f->fx.client, "Scan", &error,
                                   "{\"TableName\":\"%s\",\"ExclusiveStartKey\":%s}", table, start);
      else
        response = dyn_test_callf (f->fx.client, "Scan", &error, "{\"TableName\":\"%s\"}", table);
      g_assert_no_error (error);
      g_assert_nonnull (response->items);
      for (guint i = 0; i < response->items->len; i++)
        {
          GString *line = g_string_new (NULL);

          dyn_json_append_ddb_item (line, response->items->pdata[i]);
          g_ptr_array_add (lines, g_string_free (line, FALSE));
        }
      root = json_node_get_object (response->root);
      lek = json_object_get_member (root, "LastEvaluatedKey");
      g_clear_pointer (&start, g_free);
      if (lek == NULL || JSON_NODE_HOLDS_NULL (lek))
        break;
      start = json_to_string (lek, FALSE);
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (out, lines->pdata[i]);
      g_string_append_c (out, '\n');
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Export, import into a new table, Scan both: the same items, byte for byte
 * as the server returns them. */
static void
test_roundtrip (Fixture       *f,
                gconstpointer  data)
{
  DynTransferFormat format = GPOINTER_TO_INT (data);
  g_autoptr(DynRequest) request = NULL;
  g_autofree char *path = NULL;
  g_autofree char *copy = dyn_test_table_name ("roundtrip");
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynImportJob) import = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *original = NULL;
  g_autofree char *imported = NULL;
  DynExportOptions options = { 0 };
  DynImportOptions import_options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = scan_request (f);
  path = output_path (f, format, "roundtrip");
  options.format = format;
  options.output = path;
  options.segments = 3;
  options.key_names = key_names;
  g_assert_true (run_export (f, request, &options, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (dyn_test_create_table (f->fx.client, copy, "pk:S", "sk:N", NULL, &error));
  g_assert_no_error (error);
  keys = dyn_table_keys_new (copy, "pk", DYN_VALUE_S, "sk", DYN_VALUE_N);
  import_options.format = format;
  import_options.input = path;
  import = dyn_import_job_new (f->fx.client, copy, keys, &import_options, &error);
  g_assert_no_error (error);
  dyn_import_job_run_async (import, NULL, NULL, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_import_job_run_finish (import, dyn_test_wait (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_import_job_get_summary (import)->written, ==, N_ITEMS);

  original = server_text (f, f->fx.table);
  imported = server_text (f, copy);
  g_assert_cmpstr (imported, ==, original);
  g_assert_cmpuint (strlen (original), >, 0);

  g_assert_true (dyn_test_delete_table (f->fx.client, copy, &error));
  g_assert_no_error (error);
}

/* dynoscope-cli export and count ------------------------------------------- */

typedef struct
{
  int   status;
  char *out;
  char *err;
} Run;

static void
cli_run (Fixture            *f,
         Run                *run,
         const char * const *argv)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (args, g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL));
  g_ptr_array_add (args, g_strdup ("--endpoint"));
  g_ptr_array_add (args, g_strdup (dyn_test_server_get_endpoint (f->fx.server)));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, f->dir);
  g_subprocess_launcher_setenv (launcher, "HOME", f->dir, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_CONFIG_FILE");
  g_subprocess_launcher_unsetenv (launcher, "AWS_SHARED_CREDENTIALS_FILE");
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  g_test_message ("exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

#define CLI(f, run, ...) cli_run ((f), (run), (const char * const[]) { __VA_ARGS__, NULL })

static void
test_cli (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynRequest) filtered = NULL;
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);
  g_autoptr(JsonNode) counted = NULL;
  g_autofree char *jsonl = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  Run run = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  create_and_load (f, N_ITEMS);
  request = dyn_request_new (DYN_OP_SCAN, f->fx.table);
  jsonl = g_build_filename (f->dir, "cli.jsonl", NULL);
  csv = g_build_filename (f->dir, "even.csv", NULL);

  /* The format from the extension, said on stderr; the file is the Scan. */
  CLI (f, &run, "export", f->fx.table, "--output", "cli.jsonl", "--segments", "4");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.err, "ddb-json"));
  g_assert_nonnull (strstr (run.err, "4 of 4 segments done"));
  expected = scan_text (f, request);
  got = file_text (jsonl, DYN_TRANSFER_FORMAT_DDB_JSON);
  g_assert_cmpstr (got, ==, expected);
  run_clear (&run);

  /* Again: refused, and says what to do. */
  CLI (f, &run, "export", f->fx.table, "--output", "cli.jsonl", "--quiet");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "exists already"));
  run_clear (&run);

  /* No format and no telling extension. */
  CLI (f, &run, "export", f->fx.table, "--output", "items.out");
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "--format"));
  run_clear (&run);

  /* A filter and a projection, as CSV. */
  CLI (f, &run, "export", f->fx.table, "--output", "even.csv", "--filter", "even = true",
       "--projection", "pk, sk, even, s", "--quiet");
  g_assert_cmpint (run.status, ==, 0);
  g_clear_pointer (&expected, g_free);
  g_clear_pointer (&got, g_free);
  filtered = dyn_request_copy (request);
  filtered->filter = g_strdup ("even = :yes");
  filtered->projection = g_strdup ("pk, sk, even, s");
  dyn_request_add_value (filtered, ":yes", yes);
  expected = scan_text (f, filtered);
  got = file_text (csv, DYN_TRANSFER_FORMAT_CSV);
  g_assert_cmpstr (got, ==, expected);
  run_clear (&run);

  /* count: the cost first, then the exact count and its cost. */
  CLI (f, &run, "count", f->fx.table, "--segments", "2", "--quiet");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_str_has_prefix (run.out, "Counting costs about "));
  g_assert_nonnull (strstr (run.out, "\n72 items (72 scanned) · cost "));
  run_clear (&run);

  CLI (f, &run, "count", f->fx.table, "--filter", "even = true", "--json", "--quiet");
  g_assert_cmpint (run.status, ==, 0);
  counted = json_from_string (run.out, NULL);
  g_assert_nonnull (counted);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (counted), "count"), ==, N_ITEMS / 2);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (counted), "scanned"), ==, N_ITEMS);
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (counted), "readUnits"), >, 0);
  run_clear (&run);
}

#define ADD(path, func, data) \
  g_test_add (path, Fixture, data, fixture_setup, func, fixture_teardown)

int
main (int    argc,
      char **argv)
{
  g_autofree char *state = NULL;
  int status;

  dyn_test_init (&argc, &argv);
  /* The import's checkpoints go to a folder of this run. */
  state = g_dir_make_tmp ("dyn-export-state-XXXXXX", NULL);
  g_assert_nonnull (state);
  g_setenv ("XDG_STATE_HOME", state, TRUE);

  ADD ("/transfer/export/ddb-json", test_export_format, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON));
  ADD ("/transfer/export/json", test_export_format, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON));
  ADD ("/transfer/export/csv", test_export_format, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_CSV));
  ADD ("/transfer/export/s3", test_export_format, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_S3));
  ADD ("/transfer/export/segments", test_export_segments, NULL);
  ADD ("/transfer/export/index-filter-query", test_export_index_filter, NULL);
  ADD ("/transfer/export/resume/ddb-json", test_export_resume, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON));
  ADD ("/transfer/export/resume/json", test_export_resume, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON));
  ADD ("/transfer/export/resume/csv", test_export_resume, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_CSV));
  ADD ("/transfer/export/resume/s3", test_export_resume, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_S3));
  ADD ("/transfer/export/mismatch", test_export_mismatch, NULL);
  ADD ("/transfer/count", test_count, NULL);
  ADD ("/transfer/scan-engine", test_scan_engine, NULL);
  ADD ("/transfer/roundtrip/ddb-json", test_roundtrip, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_DDB_JSON));
  ADD ("/transfer/roundtrip/json", test_roundtrip, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_JSON));
  ADD ("/transfer/roundtrip/csv", test_roundtrip, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_CSV));
  ADD ("/transfer/roundtrip/s3", test_roundtrip, GINT_TO_POINTER (DYN_TRANSFER_FORMAT_S3));
  ADD ("/transfer/cli/export-count", test_cli, NULL);
  g_test_add_func ("/transfer/estimates", test_estimates);
  status = g_test_run ();
  remove_tree (state);
  return status;
}
