/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The import job and the truncate against DynamoDB Local: refusal of a
 * malformed file with every line and no write, skip-bad, dry run, duplicate
 * keys (the last line wins, numbers compared as DynamoDB does), never
 * overwrite, cancel and resume, a changed input refused, the rate limiter's
 * accounting, verify, truncate of hash-only and numeric sort key tables. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "dyn-pager.h"
#include "dyn-test-util.h"
#include "dyn-transfer.h"

static char *state_dir;

typedef struct {
  DynTestFixture  fx;
  char           *dir;
  DynTableKeys   *keys;
} Fixture;

static void
setup_hash (Fixture       *f,
            gconstpointer  data)
{
  if (!dyn_test_fixture_setup (&f->fx, DYN_TEST_DYNAMODB_LOCAL, "import"))
    return;
  dyn_test_fixture_create_table (&f->fx, "pk:S", NULL, NULL);
  f->keys = dyn_table_keys_new (f->fx.table, "pk", DYN_VALUE_S, NULL, DYN_VALUE_S);
  f->dir = g_dir_make_tmp ("dyn-import-XXXXXX", NULL);
}

/* Movies-like: year N, title S. */
static void
setup_movies (Fixture       *f,
              gconstpointer  data)
{
  if (!dyn_test_fixture_setup (&f->fx, DYN_TEST_DYNAMODB_LOCAL, "import"))
    return;
  dyn_test_fixture_create_table (&f->fx, "year:N", "title:S", NULL);
  f->keys = dyn_table_keys_new (f->fx.table, "year", DYN_VALUE_N, "title", DYN_VALUE_S);
  f->dir = g_dir_make_tmp ("dyn-import-XXXXXX", NULL);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  if (f->dir != NULL)
    {
      g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (f->dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (f->dir);
      g_free (f->dir);
    }
  g_clear_pointer (&f->keys, dyn_table_keys_free);
  dyn_test_fixture_teardown (&f->fx, data);
}

static char *
write_input (Fixture    *f,
             const char *name,
             const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static GPtrArray *
scan_all (Fixture *f)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, f->fx.table);
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *items;

  request->consistent_read = TRUE;
  pager = dyn_pager_new (f->fx.client, request);
  items = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  return items;
}

static DynImportJob *
new_job (Fixture                *f,
         const DynImportOptions *options)
{
  g_autoptr(GError) error = NULL;
  DynImportJob *job = dyn_import_job_new (f->fx.client, f->fx.table, f->keys, options, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

static gboolean
run_job (DynImportJob            *job,
         GCancellable            *cancellable,
         DynTransferProgressFunc  progress,
         gpointer                 progress_data,
         GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_import_job_run_async (job, cancellable, progress, progress_data, dyn_test_result_cb, &result);
  return dyn_import_job_run_finish (job, dyn_test_wait (&result), error);
}

static DynValue *
get_item (Fixture    *f,
          const char *key_json)
{
  g_autoptr(DynValue) key = dyn_test_item (key_json);

  return dyn_test_get_item (f->fx.client, f->fx.table, key, TRUE);
}

/* A file with five kinds of bad records between good ones. */
static char *
malformed_input (Fixture *f)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append (text, "{\"pk\":{\"S\":\"good1\"},\"n\":{\"N\":\"1\"}}\n");        /* 1 */
  g_string_append (text, "{\"pk\":{\"S\":\"broken\"\n");                             /* 2: bad JSON */
  g_string_append (text, "{\"other\":{\"S\":\"x\"}}\n");                            /* 3: no key */
  g_string_append (text, "{\"pk\":{\"N\":\"12\"}}\n");                              /* 4: key type */
  g_string_append (text, "{\"pk\":{\"S\":\"num\"},\"n\":{\"N\":\"1e999\"}}\n");    /* 5: number */
  g_string_append (text, "{\"pk\":{\"S\":\"big\"},\"b\":{\"S\":\"");               /* 6: > 400 KB */
  for (guint i = 0; i < 410 * 1024; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\"}}\n");
  g_string_append (text, "{\"pk\":{\"S\":\"\"}}\n");                                /* 7: empty key */
  g_string_append (text, "{\"pk\":{\"S\":\"good2\"}}\n");                           /* 8 */
  return write_input (f, "malformed.jsonl", text->str);
}

static void
assert_bad_lines (DynImportJob *job)
{
  GPtrArray *problems = dyn_import_job_get_problems (job);
  const guint64 lines[] = { 2, 3, 4, 5, 6, 7 };

  g_assert_cmpuint (problems->len, ==, G_N_ELEMENTS (lines));
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      DynImportProblem *p = g_ptr_array_index (problems, i);
      g_autofree char *where = g_strdup_printf ("line %" G_GUINT64_FORMAT, lines[i]);

      g_assert_cmpint (p->kind, ==, DYN_IMPORT_PROBLEM_BAD_LINE);
      g_assert_cmpuint (p->position.line, ==, lines[i]);
      g_assert_cmpstr (p->where, ==, where);
      g_assert_true (p->message != NULL && p->message[0] != '\0');
    }
  g_assert_nonnull (strstr (((DynImportProblem *) problems->pdata[1])->message, "pk"));
  g_assert_nonnull (strstr (((DynImportProblem *) problems->pdata[2])->message, "type"));
  g_assert_nonnull (strstr (((DynImportProblem *) problems->pdata[4])->message, "400 KB"));
  g_assert_nonnull (strstr (((DynImportProblem *) problems->pdata[5])->message, "empty"));
  g_assert_cmpuint (dyn_import_job_get_summary (job)->bad, ==, 6);
  g_assert_cmpuint (dyn_import_job_get_summary (job)->items, ==, 2);
}

static void
test_malformed_refused (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  input = malformed_input (f);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  job = new_job (f, &options);
  g_assert_false (run_job (job, NULL, NULL, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  assert_bad_lines (job);
  g_assert_cmpuint (dyn_import_job_get_summary (job)->written, ==, 0);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 0);
  g_assert_false (dyn_import_job_has_checkpoint (job, NULL));
}

static void
test_skip_bad (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  input = malformed_input (f);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.skip_bad = TRUE;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_bad_lines (job);
  g_assert_cmpuint (dyn_import_job_get_summary (job)->written, ==, 2);
  g_assert_cmpuint (dyn_import_job_get_progress (job)->skipped, ==, 6);
  /* The last progress report counts every item written. */
  g_assert_true (dyn_import_job_get_progress (job)->finished);
  g_assert_cmpuint (dyn_import_job_get_progress (job)->items, ==, 2);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 2);
  g_assert_false (dyn_import_job_has_checkpoint (job, NULL));
}

static void
test_dry_run (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  const DynImportSummary *s;
  DynImportOptions options = { 0 };
  g_autofree char *filler = g_strnfill (1500, 'y');

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  /* 10 small items (1 WCU), 5 of about 1.5 KB (2 WCU), 2 duplicates. */
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"s%u\"}}\n", i);
  for (guint i = 0; i < 5; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"l%u\"},\"f\":{\"S\":\"%s\"}}\n", i, filler);
  g_string_append (text, "{\"pk\":{\"S\":\"s3\"},\"again\":{\"BOOL\":true}}\n");
  g_string_append (text, "{\"pk\":{\"S\":\"l1\"}}\n");
  input = write_input (f, "dry.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.dry_run = TRUE;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  s = dyn_import_job_get_summary (job);
  g_assert_cmpuint (s->records, ==, 17);
  g_assert_cmpuint (s->items, ==, 17);
  g_assert_cmpuint (s->bad, ==, 0);
  g_assert_cmpuint (s->duplicates, ==, 2);
  g_assert_cmpfloat (s->write_units_estimate, ==, 10 + 5 * 2 + 1 + 1);
  g_assert_cmpuint (s->written, ==, 0);
  g_assert_cmpuint (dyn_import_job_get_problems (job)->len, ==, 2);
  g_assert_cmpint (((DynImportProblem *) dyn_import_job_get_problems (job)->pdata[0])->kind, ==,
                   DYN_IMPORT_PROBLEM_DUPLICATE);
  g_assert_cmpuint (((DynImportProblem *) dyn_import_job_get_problems (job)->pdata[0])->position.line, ==, 16);
  g_assert_nonnull (strstr (((DynImportProblem *) dyn_import_job_get_problems (job)->pdata[0])->message, "4"));
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 0);
}

/* Many lines of few keys, numbers spelt differently: each key ends with its
 * last line's value (a batch never holds a key twice, or DynamoDB refuses it). */
static void
test_duplicates_last_wins (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  for (guint i = 0; i < 300; i++)
    g_string_append_printf (text, "{\"year\":{\"N\":\"%s%u\"},\"title\":{\"S\":\"t%u\"},\"v\":{\"N\":\"%u\"}}\n",
                            i % 2 ? "" : "0", 2000 + i % 7, i % 3, i);
  g_string_append (text, "{\"year\":{\"N\":\"2.001E3\"},\"title\":{\"S\":\"t1\"},\"v\":{\"S\":\"last\"}}\n");
  input = write_input (f, "dups.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.concurrency = 8;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 21);
  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      int year = atoi (dyn_test_item_get_number (item, "year"));
      int title = atoi (dyn_test_item_get_string (item, "title") + 1);
      int last = -1;

      if (year == 2001 && title == 1)
        {
          g_assert_cmpstr (dyn_test_item_get_string (item, "v"), ==, "last");
          continue;
        }
      for (int n = 0; n < 300; n++)
        if (2000 + n % 7 == year && n % 3 == title)
          last = n;
      g_assert_cmpint (atoi (dyn_test_item_get_number (item, "v")), ==, last);
    }
}

static void
test_never_overwrite (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) same = dyn_test_item ("{\"pk\":{\"S\":\"same\"},\"v\":{\"N\":\"1\"}}");
  g_autoptr(DynValue) other = dyn_test_item ("{\"pk\":{\"S\":\"other\"},\"v\":{\"N\":\"1\"}}");
  g_autoptr(DynValue) got = NULL;
  g_autoptr(GPtrArray) items = NULL;
  GPtrArray *problems;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  g_assert_true (dyn_test_put_item (f->fx.client, f->fx.table, same, &error));
  g_assert_true (dyn_test_put_item (f->fx.client, f->fx.table, other, &error));
  input = write_input (f, "keep.jsonl",
                       "{\"pk\":{\"S\":\"new1\"},\"v\":{\"N\":\"1\"}}\n"
                       "{\"pk\":{\"S\":\"same\"},\"v\":{\"N\":\"1.0\"}}\n"
                       "{\"pk\":{\"S\":\"other\"},\"v\":{\"N\":\"2\"}}\n"
                       "{\"pk\":{\"S\":\"new2\"},\"v\":{\"N\":\"2\"}}\n");
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.never_overwrite = TRUE;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_import_job_get_summary (job)->written, ==, 2);
  g_assert_cmpuint (dyn_import_job_get_progress (job)->identical, ==, 1);
  g_assert_cmpuint (dyn_import_job_get_progress (job)->existing, ==, 1);
  problems = dyn_import_job_get_problems (job);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (((DynImportProblem *) problems->pdata[0])->kind, ==, DYN_IMPORT_PROBLEM_EXISTS);
  g_assert_cmpuint (((DynImportProblem *) problems->pdata[0])->position.line, ==, 3);
  got = get_item (f, "{\"pk\":{\"S\":\"other\"}}");
  g_assert_cmpstr (dyn_test_item_get_number (got, "v"), ==, "1");
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 4);
}

typedef struct {
  GCancellable *cancellable;
  guint64       after;
} CancelAt;

static void
cancel_at_cb (const DynTransferProgress *progress,
              gpointer                   user_data)
{
  CancelAt *at = user_data;

  if (progress->items >= at->after)
    g_cancellable_cancel (at->cancellable);
}

/* 3000 lines over 2000 keys (the first 1000 twice, the later value last). */
static char *
big_input (Fixture *f)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"k%04u\"},\"v\":{\"N\":\"%u\"}}\n", i, i);
  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"k%04u\"},\"v\":{\"S\":\"second %u\"}}\n", i, i);
  return write_input (f, "big.jsonl", text->str);
}

static void
assert_big_items (Fixture *f)
{
  g_autoptr(GPtrArray) items = scan_all (f);

  g_assert_cmpuint (items->len, ==, 2000);
  for (guint i = 0; i < items->len; i++)
    {
      const char *pk = dyn_test_item_get_string (items->pdata[i], "pk");
      guint n = (guint) atoi (pk + 1);

      if (n < 1000)
        {
          g_autofree char *want = g_strdup_printf ("second %u", n);
          g_assert_cmpstr (dyn_test_item_get_string (items->pdata[i], "v"), ==, want);
        }
      else
        g_assert_cmpint (atoi (dyn_test_item_get_number (items->pdata[i], "v")), ==, n);
    }
}

static void
test_cancel_resume (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(DynImportJob) again = NULL;
  g_autoptr(DynImportJob) resumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelAt at = { cancellable, 1200 };
  DynItemPosition position;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  input = big_input (f);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.skip_bad = TRUE;
  job = new_job (f, &options);
  g_assert_false (run_job (job, cancellable, cancel_at_cb, &at, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_true (dyn_import_job_has_checkpoint (job, &position));
  g_assert_cmpuint (position.record, >, 0);
  g_assert_cmpuint (position.record, <, 3000);

  /* Without --resume or --restart: refused, saying which. */
  again = new_job (f, &options);
  g_assert_false (run_job (again, NULL, NULL, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "--resume"));
  g_assert_nonnull (strstr (error->message, "--restart"));
  g_clear_error (&error);

  options.resume = TRUE;
  resumed = new_job (f, &options);
  g_assert_true (run_job (resumed, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_import_job_get_summary (resumed)->resumed_from, ==, position.record);
  g_assert_false (dyn_import_job_has_checkpoint (resumed, NULL));
  assert_big_items (f);
}

static void
test_resume_changed_input (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(DynImportJob) resumed = NULL;
  g_autoptr(DynImportJob) restarted = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelAt at = { cancellable, 500 };
  g_autoptr(GPtrArray) items = NULL;
  FILE *file;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  input = big_input (f);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  job = new_job (f, &options);
  g_assert_false (run_job (job, cancellable, cancel_at_cb, &at, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  file = g_fopen (input, "a");
  fputs ("{\"pk\":{\"S\":\"added\"}}\n", file);
  fclose (file);

  options.resume = TRUE;
  resumed = new_job (f, &options);
  g_assert_false (run_job (resumed, NULL, NULL, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "changed"));
  g_clear_error (&error);

  options.resume = FALSE;
  options.restart = TRUE;
  restarted = new_job (f, &options);
  g_assert_true (run_job (restarted, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 2001);
}

/* never-overwrite, cancelled and resumed: the items written before the
 * cancel and after the checkpoint come back as identical, the first line of
 * a key stays (later lines are existing items), nothing else is reported. */
static void
test_never_overwrite_resume (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(DynImportJob) resumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  CancelAt at = { cancellable, 150 };
  g_autoptr(GPtrArray) items = NULL;
  const DynTransferProgress *p;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  for (guint i = 0; i < 400; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"k%u\"},\"v\":{\"N\":\"%u\"}}\n", i, i);
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"k%u\"},\"v\":{\"S\":\"later\"}}\n", i);
  input = write_input (f, "keep-resume.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.never_overwrite = TRUE;
  options.concurrency = 8;
  job = new_job (f, &options);
  g_assert_false (run_job (job, cancellable, cancel_at_cb, &at, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* Resuming with other options is refused, saying which. */
  options.resume = TRUE;
  options.never_overwrite = FALSE;
  resumed = new_job (f, &options);
  g_assert_false (run_job (resumed, NULL, NULL, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "--no-overwrite"));
  g_clear_error (&error);
  g_clear_object (&resumed);

  options.never_overwrite = TRUE;
  resumed = new_job (f, &options);
  g_assert_true (run_job (resumed, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  p = dyn_import_job_get_progress (resumed);
  g_assert_cmpuint (p->existing, ==, 10);
  g_assert_cmpuint (dyn_import_job_get_summary (resumed)->written + p->identical, ==, 400);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 400);
  for (guint i = 0; i < items->len; i++)
    g_assert_nonnull (dyn_test_item_get_number (items->pdata[i], "v"));
}

/* The limiter's accounting over a run: every unit the server reported was
 * taken from the bucket (estimate settled with the consumption), and what was
 * consumed never exceeds one bucket plus the limit × the run's time. */
static void
test_rate_limit (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *filler = g_strnfill (1500, 'z');
  const DynTransferProgress *p;
  const DynImportSummary *s;
  const double limit = 100;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  for (guint i = 0; i < 150; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"r%u\"},\"f\":{\"S\":\"%s\"}}\n", i, filler);
  input = write_input (f, "rate.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.max_wcu = limit;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  p = dyn_import_job_get_progress (job);
  s = dyn_import_job_get_summary (job);
  g_assert_cmpfloat (s->write_units_estimate, ==, 300);
  /* DynamoDB Local reports what the estimate said. */
  g_assert_cmpfloat_with_epsilon (p->write_units, s->write_units_estimate, 0.01);
  g_assert_cmpfloat (p->write_units, <=, limit * p->elapsed + limit + 0.01);
}

static void
test_verify (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynResponse) r1 = NULL;
  g_autoptr(DynResponse) r2 = NULL;
  DynImportVerify verify;
  GPtrArray *problems;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  for (guint i = 0; i < 250; i++)
    g_string_append_printf (text, "{\"pk\":{\"S\":\"v%u\"},\"n\":{\"N\":\"%u\"}}\n", i, i);
  g_string_append (text, "{\"pk\":{\"S\":\"v7\"},\"n\":{\"N\":\"77\"}}\n");
  input = write_input (f, "verify.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  r1 = dyn_test_callf (f->fx.client, "DeleteItem", &error,
                       "{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"v100\"}}}", f->fx.table);
  g_assert_no_error (error);
  r2 = dyn_test_callf (f->fx.client, "PutItem", &error,
                       "{\"TableName\":\"%s\",\"Item\":{\"pk\":{\"S\":\"v200\"},\"n\":{\"N\":\"-1\"}}}", f->fx.table);
  g_assert_no_error (error);

  dyn_import_job_verify_async (job, NULL, NULL, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_import_job_verify_finish (job, dyn_test_wait (&result), &verify, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (verify.checked, ==, 250);
  g_assert_cmpuint (verify.missing, ==, 1);
  g_assert_cmpuint (verify.different, ==, 1);
  g_assert_cmpuint (verify.table_items, ==, 249);
  problems = dyn_import_job_get_problems (job);
  g_assert_cmpuint (problems->len, ==, 2);
  for (guint i = 0; i < problems->len; i++)
    {
      DynImportProblem *p = problems->pdata[i];
      if (p->kind == DYN_IMPORT_PROBLEM_MISSING)
        g_assert_cmpuint (p->position.line, ==, 101);
      else
        {
          g_assert_cmpint (p->kind, ==, DYN_IMPORT_PROBLEM_DIFFERENT);
          g_assert_cmpuint (p->position.line, ==, 201);
        }
    }
}

/* Oracle: every record the check refuses, DynamoDB Local refuses too, and
 * every record it takes, DynamoDB Local takes (keys of the table and of a
 * GSI, key sizes, nesting, empty names, the 400 KB boundary). */
static void
setup_oracle (Fixture       *f,
              gconstpointer  data)
{
  const char *gsis[] = { "ByOwner:owner:S", NULL };
  DynIndexInfo *index;

  if (!dyn_test_fixture_setup (&f->fx, DYN_TEST_DYNAMODB_LOCAL, "import"))
    return;
  dyn_test_fixture_create_table (&f->fx, "pk:S", "sk:N", gsis);
  f->keys = dyn_table_keys_new (f->fx.table, "pk", DYN_VALUE_S, "sk", DYN_VALUE_N);
  index = dyn_table_keys_add_index (f->keys, "ByOwner", DYN_INDEX_GLOBAL, "owner", DYN_VALUE_S, NULL, DYN_VALUE_S,
                                    DYN_PROJECTION_ALL);
  g_assert_nonnull (index);
  f->dir = g_dir_make_tmp ("dyn-import-XXXXXX", NULL);
}

static char *
nested (const char *open,
        const char *close,
        guint       depth)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    g_string_append (s, open);
  g_string_append (s, "{\"S\":\"x\"}");
  for (guint i = 0; i < depth; i++)
    g_string_append (s, close);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* An item of exactly @size bytes as dyn_item_size() counts them. */
static char *
sized_item (guint n,
            gsize size)
{
  for (gsize len = size > 64 ? size - 64 : 0; len < size; len++)
    {
      g_autofree char *filler = g_strnfill (len, 'q');
      char *line = g_strdup_printf ("{\"pk\":{\"S\":\"size%u\"},\"sk\":{\"N\":\"1\"},\"f\":{\"S\":\"%s\"}}", n, filler);
      g_autoptr(DynValue) item = dyn_test_item (line);

      if (dyn_item_size (item) == size)
        return line;
      g_free (line);
    }
  g_assert_not_reached ();
}

static void
test_checks_match_dynamodb (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *input = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pk2048 = g_strnfill (2048, 'p');
  g_autofree char *pk2049 = g_strnfill (2049, 'p');
  g_autofree char *maps31 = nested ("{\"M\":{\"a\":", "}}", 31);
  g_autofree char *maps32 = nested ("{\"M\":{\"a\":", "}}", 32);
  g_autofree char *lists31 = nested ("{\"L\":[", "]}", 31);
  g_autofree char *lists32 = nested ("{\"L\":[", "]}", 32);
  GPtrArray *problems;
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"ok\"},\"sk\":{\"N\":\"1\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"sk\":{\"N\":\"1\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"nosk\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"t\"},\"sk\":{\"S\":\"1\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"B\":\"AAA=\"},\"sk\":{\"N\":\"1\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"\"},\"sk\":{\"N\":\"1\"}}"));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"1\"}}", pk2048));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"1\"}}", pk2049));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"g1\"},\"sk\":{\"N\":\"1\"},\"owner\":{\"N\":\"5\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"g2\"},\"sk\":{\"N\":\"1\"},\"owner\":{\"S\":\"\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"g3\"},\"sk\":{\"N\":\"1\"},\"owner\":{\"S\":\"ann\"}}"));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"n1\"},\"sk\":{\"N\":\"1\"},\"m\":%s}", maps31));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"n2\"},\"sk\":{\"N\":\"1\"},\"m\":%s}", maps32));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"n3\"},\"sk\":{\"N\":\"1\"},\"l\":%s}", lists31));
  g_ptr_array_add (lines, g_strdup_printf ("{\"pk\":{\"S\":\"n4\"},\"sk\":{\"N\":\"1\"},\"l\":%s}", lists32));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"e1\"},\"sk\":{\"N\":\"1\"},\"\":{\"S\":\"x\"}}"));
  g_ptr_array_add (lines, g_strdup ("{\"pk\":{\"S\":\"e2\"},\"sk\":{\"N\":\"1\"},\"m\":{\"M\":{\"\":{\"S\":\"x\"}}}}"));
  g_ptr_array_add (lines, sized_item (1, DYN_ITEM_MAX_SIZE));
  g_ptr_array_add (lines, sized_item (2, DYN_ITEM_MAX_SIZE + 1));
  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (text, "%s\n", (char *) lines->pdata[i]);
  input = write_input (f, "oracle.jsonl", text->str);
  options.format = DYN_TRANSFER_FORMAT_DDB_JSON;
  options.input = input;
  options.dry_run = TRUE;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  problems = dyn_import_job_get_problems (job);

  for (guint i = 0; i < lines->len; i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (lines->pdata[i]);
      g_autoptr(GError) put_error = NULL;
      gboolean refused = FALSE;
      gboolean taken;

      for (guint j = 0; j < problems->len; j++)
        if (((DynImportProblem *) problems->pdata[j])->position.line == i + 1)
          refused = TRUE;
      taken = dyn_test_put_item (f->fx.client, f->fx.table, item, &put_error);
      if (taken == refused)
        g_error ("line %u: the check %s it, DynamoDB Local %s it (%s)", i + 1,
                 refused ? "refuses" : "takes", taken ? "takes" : "refuses",
                 put_error != NULL ? put_error->message : "");
      if (!taken)
        g_assert_error (put_error, DYN_ERROR, DYN_ERROR_VALIDATION);
    }
}

static void
load_many (Fixture  *f,
           guint     n,
           gboolean  movies)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, movies
                     ? dyn_test_itemf ("{\"year\":{\"N\":\"%u\"},\"title\":{\"S\":\"t%u\"},\"x\":{\"S\":\"payload\"}}",
                                       1900 + i % 120, i)
                     : dyn_test_itemf ("{\"pk\":{\"S\":\"t%u\"},\"x\":{\"N\":\"%u\"}}", i, i));
  g_assert_true (dyn_test_load_items (f->fx.client, f->fx.table, items, &error));
  g_assert_no_error (error);
}

static void
run_truncate (Fixture *f,
              guint    expected)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;
  DynTransferProgress out;

  dyn_transfer_truncate_async (f->fx.client, f->fx.table, f->keys, 4, 0, NULL, NULL, NULL,
                               dyn_test_result_cb, &result);
  g_assert_true (dyn_transfer_truncate_finish (dyn_test_wait (&result), &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.items, ==, expected);
  g_assert_cmpuint (out.segments, ==, 4);
  g_assert_cmpuint (out.segments_done, ==, 4);
  g_assert_cmpfloat (out.write_units, >=, expected);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 0);
}

static void
test_truncate_hash (Fixture       *f,
                    gconstpointer  data)
{
  DYN_TEST_REQUIRE_SERVER (&f->fx);
  load_many (f, 3000, FALSE);
  run_truncate (f, 3000);
}

static void
test_truncate_movies (Fixture       *f,
                      gconstpointer  data)
{
  DYN_TEST_REQUIRE_SERVER (&f->fx);
  load_many (f, 2500, TRUE);
  run_truncate (f, 2500);
}

/* ------------------------------------------------------------- the CLI */

typedef struct {
  int   status;
  char *out;
  char *err;
} CliRun;

static void
cli_run_clear (CliRun *run)
{
  g_free (run->out);
  g_free (run->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliRun, cli_run_clear)

/* dynoscope-cli against the fixture's server, stdin not a terminal. */
static void
cli_run (Fixture            *f,
         CliRun             *run,
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
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "HOME", f->dir, TRUE);
  g_subprocess_launcher_unsetenv (launcher, "AWS_PROFILE");
  g_subprocess_launcher_setenv (launcher, "AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, "", NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  run->status = g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
  g_test_message ("exit %d\nstdout: %s\nstderr: %s", run->status, run->out, run->err);
}

#define CLI(f, run, ...) cli_run ((f), (run), (const char * const[]) { __VA_ARGS__, NULL })

static void
test_cli_import (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *input = NULL;
  g_autofree char *good = NULL;
  g_autofree char *table = NULL;
  g_auto(CliRun) refused = { 0 };
  g_auto(CliRun) skipped = { 0 };
  g_auto(CliRun) created = { 0 };
  g_auto(CliRun) again = { 0 };
  g_autoptr(GPtrArray) items = NULL;

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  input = malformed_input (f);
  CLI (f, &refused, "import", f->fx.table, "--input", input, "--quiet");
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.out, "line 2: "));
  g_assert_nonnull (strstr (refused.out, "line 7: "));
  g_assert_nonnull (strstr (refused.err, "nothing was written"));
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 0);
  g_clear_pointer (&items, g_ptr_array_unref);

  CLI (f, &skipped, "import", f->fx.table, "--input", input, "--skip-bad", "--verify", "--json", "--quiet");
  g_assert_cmpint (skipped.status, ==, 3);
  g_assert_nonnull (strstr (skipped.out, "\"written\" : 2"));
  g_assert_nonnull (strstr (skipped.out, "\"missing\" : 0"));
  g_assert_nonnull (strstr (skipped.out, "\"kind\" : \"bad-line\""));
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 2);

  /* --create: a new movies-like table; the plan is stated first. */
  good = write_input (f, "movies.jsonl",
                      "{\"year\":{\"N\":\"1999\"},\"title\":{\"S\":\"a\"}}\n"
                      "{\"year\":{\"N\":\"2001\"},\"title\":{\"S\":\"b\"}}\n");
  table = dyn_test_table_name ("import-cli");
  CLI (f, &created, "import", table, "--input", good, "--create", "--pk", "year:N", "--sk", "title:S");
  g_assert_cmpint (created.status, ==, 0);
  g_assert_nonnull (strstr (created.err, "Importing 2 items"));
  g_assert_nonnull (strstr (created.out, "Imported 2 items"));
  CLI (f, &again, "import", table, "--input", good, "--create", "--pk", "year:N", "--sk", "title:S");
  g_assert_cmpint (again.status, ==, 1);
  g_assert_nonnull (strstr (again.err, "exists already"));
  dyn_test_delete_table (f->fx.client, table, NULL);
}

static void
test_cli_truncate (Fixture       *f,
                   gconstpointer  data)
{
  g_auto(CliRun) refused = { 0 };
  g_auto(CliRun) wrong = { 0 };
  g_auto(CliRun) done = { 0 };
  g_autoptr(GPtrArray) items = NULL;

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  load_many (f, 300, FALSE);
  CLI (f, &refused, "truncate", f->fx.table);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "WCU"));
  g_assert_nonnull (strstr (refused.err, "--confirm"));
  CLI (f, &wrong, "truncate", f->fx.table, "--confirm", "other");
  g_assert_cmpint (wrong.status, ==, 1);
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 300);
  g_clear_pointer (&items, g_ptr_array_unref);
  CLI (f, &done, "truncate", f->fx.table, "--confirm", f->fx.table, "--quiet");
  g_assert_cmpint (done.status, ==, 0);
  g_assert_nonnull (strstr (done.out, "Deleted 300 items"));
  items = scan_all (f);
  g_assert_cmpuint (items->len, ==, 0);
}

static void
remove_state_dir (void)
{
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", state_dir);

  if (state_dir != NULL && g_str_has_prefix (state_dir, g_get_tmp_dir ()))
    (void) !system (cmd);
}

/* A hand-made CSV without type suffixes into a table keyed by a number and
 * a string: the key columns take the keys' types, the others stay strings
 * (nothing is guessed), and --csv-type still decides a column. */
static void
test_csv_untyped_keys (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) drive = NULL;
  g_autoptr(DynValue) heat = NULL;
  const char *types[] = { "rating=N", NULL };
  DynItemReaderOptions reader = { types, TRUE };
  DynImportOptions options = { 0 };

  DYN_TEST_REQUIRE_SERVER (&f->fx);
  path = write_input (f, "movies.csv", "year,title,rating,note\r\n"
                                       "2011,Drive,7.8,\"quiet, then loud\"\r\n"
                                       "1995,Heat,8.3,012\r\n");
  options.format = DYN_TRANSFER_FORMAT_CSV;
  options.input = path;
  options.reader = &reader;
  job = new_job (f, &options);
  g_assert_true (run_job (job, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_import_job_get_summary (job)->written, ==, 2);

  drive = get_item (f, "{\"year\":{\"N\":\"2011\"},\"title\":{\"S\":\"Drive\"}}");
  heat = get_item (f, "{\"year\":{\"N\":\"1995\"},\"title\":{\"S\":\"Heat\"}}");
  g_assert_nonnull (drive);
  g_assert_nonnull (heat);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (drive, "rating")), ==, "7.8");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (drive, "note")), ==, "quiet, then loud");
  /* "012" stays the string it is. */
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (heat, "note")), ==, "012");
}

int
main (int    argc,
      char **argv)
{
  int status;

  dyn_test_init (&argc, &argv);
  /* Checkpoints go to a private state folder. */
  state_dir = g_dir_make_tmp ("dyn-import-state-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state_dir, TRUE);

#define ADD(path, setup, func) \
  g_test_add ("/transfer-import/" path, Fixture, NULL, setup, func, teardown)
  ADD ("malformed-refused", setup_hash, test_malformed_refused);
  ADD ("skip-bad", setup_hash, test_skip_bad);
  ADD ("dry-run", setup_hash, test_dry_run);
  ADD ("duplicates-last-wins", setup_movies, test_duplicates_last_wins);
  ADD ("csv-untyped-keys", setup_movies, test_csv_untyped_keys);
  ADD ("never-overwrite", setup_hash, test_never_overwrite);
  ADD ("cancel-resume", setup_hash, test_cancel_resume);
  ADD ("resume-changed-input", setup_hash, test_resume_changed_input);
  ADD ("never-overwrite-resume", setup_hash, test_never_overwrite_resume);
  ADD ("rate-limit", setup_hash, test_rate_limit);
  ADD ("verify", setup_hash, test_verify);
  ADD ("checks-match-dynamodb", setup_oracle, test_checks_match_dynamodb);
  ADD ("truncate-hash", setup_hash, test_truncate_hash);
  ADD ("truncate-numeric-sort", setup_movies, test_truncate_movies);
  ADD ("cli-import", setup_hash, test_cli_import);
  ADD ("cli-truncate", setup_hash, test_cli_truncate);
#undef ADD

  status = g_test_run ();
  remove_state_dir ();
  g_free (state_dir);
  return status;
}
