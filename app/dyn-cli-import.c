/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"
#include "dyn-table-admin.h"

/* dynoscope-cli import TABLE --input PATH [--format …] [--csv-type NAME=TYPE]…
 *   [--create --pk … [--sk …] [--gsi …] [--lsi …] [--billing …]]
 *   [--no-overwrite] [--max-wcu N] [--concurrency N] [--resume|--restart]
 *   [--dry-run] [--skip-bad] [--verify] [--json] [--quiet]
 * dynoscope-cli truncate TABLE [--max-wcu N] [--segments N] (--yes | --confirm TABLE) */

/* Problems printed in text; --json lists all that were kept. */
#define PRINTED_PROBLEMS 20

static DynTableInfo *
load_info (DynClient   *client,
           const char  *table,
           GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_table_info_load_async (client, table, NULL, dyn_cli_store_result_cb, &result);
  return dyn_table_info_load_finish (dyn_cli_wait_for (&result), error);
}

static DynTableSpec *
spec_from_options (DynTransferOptions  *o,
                   const char          *table,
                   GError             **error)
{
  g_autoptr(DynTableSpec) spec = NULL;

  if (o->pk == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("--create needs --pk NAME:TYPE"));
      return NULL;
    }
  spec = dyn_table_spec_parse (table, o->pk, o->sk, error);
  if (spec == NULL)
    return NULL;
  for (guint i = 0; o->gsis != NULL && i < o->gsis->len; i++)
    if (!dyn_table_spec_add_gsi (spec, g_ptr_array_index (o->gsis, i), error))
      return NULL;
  for (guint i = 0; o->lsis != NULL && i < o->lsis->len; i++)
    if (!dyn_table_spec_add_lsi (spec, g_ptr_array_index (o->lsis, i), error))
      return NULL;
  if (o->billing != NULL && !dyn_table_spec_set_billing (spec, o->billing, error))
    return NULL;
  if (!dyn_table_spec_validate (spec, error))
    return NULL;
  return g_steal_pointer (&spec);
}

/* The table's keys: DescribeTable, or with --create the new table's (created
 * unless it exists and --resume continues into it, or --dry-run). */
static DynTableKeys *
table_keys (DynTransferOptions  *o,
            DynClient           *client,
            const char          *table,
            GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynTableInfo) info = load_info (client, table, &local_error);
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  if (info != NULL)
    {
      if (o->create && !o->resume && !o->dry_run)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_IN_USE,
                       _("The table %s exists already: import into it without --create, or continue a stopped import with --resume"),
                       table);
          return NULL;
        }
      return dyn_table_keys_copy (info->keys);
    }
  if (!o->create || !g_error_matches (local_error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  spec = spec_from_options (o, table, error);
  if (spec == NULL)
    return NULL;
  if (!o->dry_run)
    {
      if (!o->quiet)
        fprintf (stderr, _("Creating the table %s…\n"), table);
      dyn_table_create_async (client, spec, NULL, dyn_cli_store_result_cb, &result);
      if (!dyn_table_create_finish (dyn_cli_wait_for (&result), error))
        return NULL;
    }
  return dyn_table_keys_copy (spec->keys);
}

/* What the import will write: a streaming count of the input's items. */
static gboolean
count_input (DynTransferOptions          *o,
             DynTransferFormat            format,
             const DynItemReaderOptions  *reader_options,
             guint64                     *items,
             guint64                     *bytes,
             double                      *units,
             GError                     **error)
{
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (o->input, format, reader_options, error);

  if (reader == NULL)
    return FALSE;
  for (;;)
    {
      g_autoptr(DynValue) item = NULL;
      g_autoptr(GError) bad = NULL;
      DynItemReadResult r = dyn_item_reader_next (reader, &item, &bad);

      if (r == DYN_ITEM_READ_END)
        return TRUE;
      if (r == DYN_ITEM_READ_FAILED)
        {
          g_propagate_error (error, g_steal_pointer (&bad));
          return FALSE;
        }
      if (r == DYN_ITEM_READ_ITEM)
        {
          gsize size = dyn_item_size (item);

          (*items)++;
          *bytes += size;
          *units += MAX (1.0, ceil (size / 1024.0));
        }
    }
}

static const char *
problem_kind_name (DynImportProblemKind kind)
{
  switch (kind)
    {
    case DYN_IMPORT_PROBLEM_BAD_LINE: return "bad-line";
    case DYN_IMPORT_PROBLEM_EXISTS: return "exists";
    case DYN_IMPORT_PROBLEM_DUPLICATE: return "duplicate";
    case DYN_IMPORT_PROBLEM_MISSING: return "missing";
    case DYN_IMPORT_PROBLEM_DIFFERENT: return "different";
    default: return "unknown";
    }
}

static void
print_json (DynTransferOptions      *o,
            const char              *table,
            DynTransferFormat        format,
            DynImportJob            *job,
            const DynImportVerify   *verify,
            const GError            *failure)
{
  const DynImportSummary *s = dyn_import_job_get_summary (job);
  const DynTransferProgress *p = dyn_import_job_get_progress (job);
  GPtrArray *problems = dyn_import_job_get_problems (job);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "table");
  json_builder_add_string_value (b, table);
  json_builder_set_member_name (b, "input");
  json_builder_add_string_value (b, o->input);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, dyn_transfer_format_to_string (format));
  json_builder_set_member_name (b, "dryRun");
  json_builder_add_boolean_value (b, o->dry_run);
  json_builder_set_member_name (b, "ok");
  json_builder_add_boolean_value (b, failure == NULL);
  if (failure != NULL)
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, failure->message);
    }
#define INT(name, value) G_STMT_START { json_builder_set_member_name (b, name); \
  json_builder_add_int_value (b, (gint64) (value)); } G_STMT_END
  INT ("records", s->records);
  INT ("items", s->items);
  INT ("bad", s->bad);
  INT ("duplicates", s->duplicates);
  INT ("bytes", s->bytes);
  json_builder_set_member_name (b, "writeUnitsEstimate");
  json_builder_add_double_value (b, s->write_units_estimate);
  INT ("written", s->written);
  INT ("resumedFrom", s->resumed_from);
  INT ("skipped", p->skipped);
  INT ("existing", p->existing);
  INT ("identical", p->identical);
  json_builder_set_member_name (b, "writeUnits");
  json_builder_add_double_value (b, p->write_units);
  INT ("requests", p->requests);
  INT ("retries", p->retries);
  if (verify != NULL)
    {
      json_builder_set_member_name (b, "verify");
      json_builder_begin_object (b);
      INT ("checked", verify->checked);
      INT ("missing", verify->missing);
      INT ("different", verify->different);
      INT ("tableItems", verify->table_items);
      json_builder_end_object (b);
    }
#undef INT
  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint i = 0; i < problems->len; i++)
    {
      DynImportProblem *pr = g_ptr_array_index (problems, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, problem_kind_name (pr->kind));
      json_builder_set_member_name (b, "where");
      json_builder_add_string_value (b, pr->where);
      json_builder_set_member_name (b, "line");
      json_builder_add_int_value (b, (gint64) pr->position.line);
      json_builder_set_member_name (b, "message");
      json_builder_add_string_value (b, pr->message);
      if (pr->key != NULL)
        {
          json_builder_set_member_name (b, "key");
          json_builder_add_value (b, dyn_item_to_ddb_json (pr->key));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  dyn_cli_print_json (root);
}

static char *
count_text (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

static void
print_text (DynTransferOptions    *o,
            const char            *table,
            DynImportJob          *job,
            const DynImportVerify *verify)
{
  const DynImportSummary *s = dyn_import_job_get_summary (job);
  const DynTransferProgress *p = dyn_import_job_get_progress (job);
  GPtrArray *problems = dyn_import_job_get_problems (job);
  g_autofree char *items = count_text (s->items);
  g_autofree char *records = count_text (s->records);
  g_autofree char *written = count_text (s->written);
  g_autofree char *bad = count_text (s->bad);
  g_autofree char *duplicates = count_text (s->duplicates);
  guint64 n_problems = s->bad + s->duplicates + p->existing + (verify != NULL ? verify->missing + verify->different : 0);

  if (o->dry_run)
    /* Translators: a dry run's result: items, records, bad records, duplicate keys, WCU */
    printf (_("Dry run: %s items in %s records, %s bad, %s duplicate keys; writing them costs about %.0f WCU\n"),
            items, records, bad, duplicates, s->write_units_estimate);
  else
    {
      g_autofree char *existing = count_text (p->existing);
      g_autofree char *identical = count_text (p->identical);
      g_autofree char *skipped = count_text (p->skipped);

      /* Translators: the import's result */
      printf (_("Imported %s items into %s (%s already there, %s existing left as they were, %s bad lines skipped) · %.1f WCU · %u retries\n"),
              written, table, identical, existing, skipped, p->write_units, p->retries);
      if (s->resumed_from > 0)
        {
          g_autofree char *from = count_text (s->resumed_from);
          printf (_("Resumed after record %s\n"), from);
        }
    }
  if (verify != NULL)
    {
      g_autofree char *checked = count_text (verify->checked);
      g_autofree char *missing = count_text (verify->missing);
      g_autofree char *different = count_text (verify->different);
      g_autofree char *counted = count_text (verify->table_items);

      printf (_("Verify: %s keys read back, %s missing, %s different; the table holds %s items\n"),
              checked, missing, different, counted);
    }
  for (guint i = 0; i < problems->len && i < PRINTED_PROBLEMS; i++)
    {
      DynImportProblem *pr = g_ptr_array_index (problems, i);
      printf ("  %s: %s\n", pr->where, pr->message);
    }
  if (n_problems > MIN (problems->len, PRINTED_PROBLEMS))
    {
      g_autofree char *more = count_text (n_problems - MIN (problems->len, PRINTED_PROBLEMS));
      printf (_("  … and %s more (--json lists them)\n"), more);
    }
}

gboolean
dyn_cli_import (DynTransferOptions  *o,
                DynClient           *client,
                int                 *status,
                GError             **error)
{
  const char *table = g_ptr_array_index (o->args, 0);
  DynTransferFormat format;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynImportJob) job = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) failure = NULL;
  g_autoptr(GPtrArray) csv_types = g_ptr_array_new ();
  DynItemReaderOptions reader_options = { NULL, TRUE };
  DynImportOptions options = { 0 };
  DynImportVerify verify = { 0 };
  gboolean verified = FALSE;
  gboolean ok;

  if (o->input == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("import needs --input PATH"));
      return FALSE;
    }
  if (o->format != NULL ? !dyn_transfer_format_from_string (o->format, &format, error)
                        : !dyn_transfer_format_detect (o->input, &format, error))
    return FALSE;
  for (guint i = 0; o->csv_types != NULL && i < o->csv_types->len; i++)
    g_ptr_array_add (csv_types, g_ptr_array_index (o->csv_types, i));
  g_ptr_array_add (csv_types, NULL);
  reader_options.csv_types = (const char * const *) csv_types->pdata;

  keys = table_keys (o, client, table, error);
  if (keys == NULL)
    return FALSE;

  options.format = format;
  options.input = o->input;
  options.reader = &reader_options;
  options.never_overwrite = o->no_overwrite;
  options.max_wcu = o->max_wcu;
  options.concurrency = o->concurrency;
  options.resume = o->resume;
  options.restart = o->restart;
  options.dry_run = o->dry_run;
  options.skip_bad = o->skip_bad;
  job = dyn_import_job_new (client, table, keys, &options, error);
  if (job == NULL)
    return FALSE;

  if (!o->dry_run && !o->quiet)
    {
      guint64 items = 0, bytes = 0;
      double units = 0;
      g_autofree char *size = NULL;
      g_autofree char *count = NULL;

      if (!count_input (o, format, &reader_options, &items, &bytes, &units, error))
        return FALSE;
      size = g_format_size (bytes);
      count = count_text (items);
      /* Translators: what the import will do: items, size, table, WCU */
      fprintf (stderr, _("Importing %s items (%s) into %s: about %.0f WCU"), count, size, table, units);
      if (o->max_wcu > 0)
        fprintf (stderr, _(", at most %.0f WCU per second (about %.0f s)"), o->max_wcu, units / o->max_wcu);
      if (o->no_overwrite)
        fprintf (stderr, _(", never overwriting an item"));
      fputc ('\n', stderr);
    }

  dyn_import_job_run_async (job, NULL, dyn_cli_progress_cb, o, dyn_cli_store_result_cb, &result);
  ok = dyn_import_job_run_finish (job, dyn_cli_wait_for (&result), &failure);
  g_clear_object (&result);

  if (ok && o->verify && !o->dry_run)
    {
      dyn_import_job_verify_async (job, NULL, dyn_cli_progress_cb, o, dyn_cli_store_result_cb, &result);
      ok = dyn_import_job_verify_finish (job, dyn_cli_wait_for (&result), &verify, &failure);
      verified = ok;
    }

  if (o->json)
    print_json (o, table, format, job, verified ? &verify : NULL, failure);
  else if (ok || g_error_matches (failure, DYN_ERROR, DYN_ERROR_INVALID_VALUE))
    print_text (o, table, job, verified ? &verify : NULL);

  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&failure));
      return FALSE;
    }
  {
    const DynImportSummary *s = dyn_import_job_get_summary (job);
    const DynTransferProgress *p = dyn_import_job_get_progress (job);

    *status = (s->bad > 0 || p->skipped > 0 || p->existing > 0 ||
               (verified && (verify.missing > 0 || verify.different > 0))) ? 3 : 0;
  }
  return TRUE;
}

/* ---------------------------------------------------------------- truncate */

static gboolean
ask_table_name (const char *table)
{
  char line[1024];

  fprintf (stderr, _("Type the table's name (%s) to delete every item: "), table);
  fflush (stderr);
  if (fgets (line, sizeof line, stdin) == NULL)
    return FALSE;
  g_strchomp (line);
  return strcmp (line, table) == 0;
}

gboolean
dyn_cli_truncate (DynTransferOptions  *o,
                  DynClient           *client,
                  int                 *status,
                  GError             **error)
{
  const char *table = g_ptr_array_index (o->args, 0);
  g_autoptr(DynTableInfo) info = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *count = NULL;
  g_autofree char *size = NULL;
  DynTransferProgress done = { 0 };
  double rcu = 0, wcu = 0;

  info = load_info (client, table, error);
  if (info == NULL)
    return FALSE;
  dyn_transfer_estimate_truncate ((guint64) MAX (0, info->item_count), (guint64) MAX (0, info->size_bytes), &rcu, &wcu);
  count = count_text ((guint64) MAX (0, info->item_count));
  size = g_format_size ((guint64) MAX (0, info->size_bytes));
  /* Translators: the cost of a truncate, stated before it runs */
  fprintf (stderr, _("Truncating %s deletes about %s items (%s, DescribeTable's approximate count): about %.0f RCU to scan the keys and %.0f WCU to delete them\n"),
           table, count, size, rcu, wcu);
  if (o->max_wcu > 0)
    fprintf (stderr, _("At most %.0f WCU per second: about %.0f s\n"), o->max_wcu, wcu / o->max_wcu);

  if (o->confirm != NULL)
    {
      if (strcmp (o->confirm, table) != 0)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("--confirm %s is not the table's name: type %s exactly to truncate it"), o->confirm, table);
          return FALSE;
        }
    }
  else if (!o->yes)
    {
      if (!isatty (STDIN_FILENO) || !isatty (STDERR_FILENO))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                       _("truncate deletes every item of %s: give --confirm %s (or --yes)"), table, table);
          return FALSE;
        }
      if (!ask_table_name (table))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED, _("Not the table's name; nothing was deleted"));
          return FALSE;
        }
    }

  dyn_transfer_truncate_async (client, table, info->keys, o->segments > 0 ? o->segments : 4, o->max_wcu, NULL,
                               dyn_cli_progress_cb, o, dyn_cli_store_result_cb, &result);
  if (!dyn_transfer_truncate_finish (dyn_cli_wait_for (&result), &done, error))
    return FALSE;
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "table");
      json_builder_add_string_value (b, table);
      json_builder_set_member_name (b, "deleted");
      json_builder_add_int_value (b, (gint64) done.items);
      json_builder_set_member_name (b, "readUnits");
      json_builder_add_double_value (b, done.read_units);
      json_builder_set_member_name (b, "writeUnits");
      json_builder_add_double_value (b, done.write_units);
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, done.requests);
      json_builder_set_member_name (b, "retries");
      json_builder_add_int_value (b, done.retries);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      dyn_cli_print_json (root);
    }
  else
    {
      g_autofree char *deleted = count_text (done.items);
      printf (_("Deleted %s items from %s · %.1f RCU · %.1f WCU\n"), deleted, table, done.read_units, done.write_units);
    }
  *status = 0;
  return TRUE;
}
