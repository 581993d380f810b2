/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "dyn-cli-transfer.h"
#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-read-request.h"
#include "dyn-table.h"

/* dynoscope-cli export TABLE [--index I] [--filter E] [--key-condition E] [--projection P]
 *   --format ddb-json|json|csv|s3 --output PATH [--segments N] [--max-rcu N] [--resume] [--quiet]
 * dynoscope-cli count TABLE [--index I] [--filter E] [--segments N] [--json] */

/* What DescribeTable says about the table (or the index read). */
typedef struct
{
  DynTableKeys *keys;
  guint64       item_count;
  guint64       size_bytes;
  char         *arn;
} TableFacts;

static void
table_facts_clear (TableFacts *facts)
{
  g_clear_pointer (&facts->keys, dyn_table_keys_free);
  g_clear_pointer (&facts->arn, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TableFacts, table_facts_clear)

static gboolean
describe (DynClient   *client,
          const char  *table,
          const char  *index,
          TableFacts  *facts,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) description = NULL;

  dyn_client_describe_table_async (client, table, NULL, dyn_cli_store_result_cb, &result);
  description = dyn_client_describe_table_finish (client, dyn_cli_wait_for (&result), &facts->keys, error);
  if (description == NULL)
    return FALSE;
  facts->item_count = json_object_get_int_member_with_default (description, "ItemCount", 0);
  facts->size_bytes = json_object_get_int_member_with_default (description, "TableSizeBytes", 0);
  facts->arn = g_strdup (json_object_get_string_member_with_default (description, "TableArn", NULL));
  if (index != NULL)
    {
      const char *lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
      gboolean found = FALSE;

      for (guint l = 0; l < G_N_ELEMENTS (lists) && !found; l++)
        {
          JsonArray *indexes = dyn_json_object_get_array (description, lists[l]);

          for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
            {
              JsonObject *ix = json_array_get_object_element (indexes, i);

              if (ix != NULL && g_strcmp0 (json_object_get_string_member_with_default (ix, "IndexName", ""), index) == 0)
                {
                  facts->item_count = json_object_get_int_member_with_default (ix, "ItemCount", 0);
                  facts->size_bytes = json_object_get_int_member_with_default (ix, "IndexSizeBytes", 0);
                  found = TRUE;
                  break;
                }
            }
        }
      if (!found)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("The table %s has no index %s"), table, index);
          return FALSE;
        }
    }
  return TRUE;
}

/* The Scan or Query the options describe, planned and compiled as `scan` and `query` do. */
static DynRequest *
build_request (DynTransferOptions  *o,
               const DynTableKeys  *keys,
               gboolean             count_only,
               GError             **error)
{
  g_autoptr(DynReadRequest) read = NULL;
  DynReadSpec spec = { 0 };
  const GError *problem;

  spec.table = o->args->pdata[0];
  spec.index = o->index;
  spec.mode = DYN_READ_EXPLICIT;
  spec.key_condition = o->key_condition;
  spec.filter = o->filter;
  spec.projection = count_only ? NULL : o->projection;
  read = dyn_read_request_new (keys, &spec);
  problem = dyn_read_request_get_error (read);
  if (problem != NULL)
    {
      const char *field = dyn_read_request_get_error_field (read);

      if (field != NULL)
        g_set_error (error, problem->domain, problem->code, "%s: %s", field, problem->message);
      else
        g_set_error_literal (error, problem->domain, problem->code, problem->message);
      return NULL;
    }
  return dyn_request_copy (dyn_read_request_get_request (read));
}

/* --format, or the output's extension when that says it; the choice is stated. */
static gboolean
choose_format (DynTransferOptions  *o,
               DynTransferFormat   *format,
               GError             **error)
{
  g_autofree char *lower = NULL;

  if (o->format != NULL)
    return dyn_transfer_format_from_string (o->format, format, error);

  lower = g_ascii_strdown (o->output, -1);
  if (g_str_has_suffix (lower, ".csv"))
    *format = DYN_TRANSFER_FORMAT_CSV;
  else if (g_str_has_suffix (lower, ".jsonl") || g_str_has_suffix (lower, ".json") ||
           g_str_has_suffix (lower, ".ndjson"))
    *format = DYN_TRANSFER_FORMAT_DDB_JSON;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("export needs --format ddb-json|json|csv|s3 (the output's name does not say which)"));
      return FALSE;
    }
  if (!o->quiet)
    fprintf (stderr, *format == DYN_TRANSFER_FORMAT_CSV
                     ? _("Format: csv (from the output's extension)\n")
                     : _("Format: ddb-json, DynamoDB JSON lines (from the output's extension; --format json writes plain JSON)\n"));
  return TRUE;
}

static gboolean
interrupt_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_CONTINUE;
}

gboolean
dyn_cli_export (DynTransferOptions  *o,
                DynClient           *client,
                int                 *status,
                GError             **error)
{
  g_auto(TableFacts) facts = { 0 };
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynExportJob) job = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) key_names = g_ptr_array_new ();
  DynExportOptions options = { 0 };
  DynS3ExportInfo s3 = { 0 };
  const char *table = o->args->pdata[0];
  guint sigint, sigterm;
  gboolean ok;

  if (o->output == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("export needs --output PATH"));
      return FALSE;
    }
  if (!choose_format (o, &options.format, error))
    return FALSE;
  if (!describe (client, table, o->index, &facts, error))
    return FALSE;
  request = build_request (o, facts.keys, FALSE, error);
  if (request == NULL)
    return FALSE;

  if (facts.keys != NULL)
    {
      g_ptr_array_add (key_names, facts.keys->table.keys.partition_key);
      if (facts.keys->table.keys.sort_key != NULL)
        g_ptr_array_add (key_names, facts.keys->table.keys.sort_key);
    }
  g_ptr_array_add (key_names, NULL);

  s3.table_arn = facts.arn;
  options.output = o->output;
  options.segments = o->segments > 0 ? o->segments : 1;
  options.resume = o->resume;
  options.key_names = (const char * const *) key_names->pdata;
  /* A filter or key condition keeps fewer items: the count is then only a bound. */
  options.items_total = o->filter == NULL && o->key_condition == NULL ? facts.item_count : 0;
  options.max_rcu = o->max_rcu;
  options.s3 = &s3;

  job = dyn_export_job_new (client, request, &options, error);
  if (job == NULL)
    return FALSE;
  if (dyn_export_job_is_complete (job))
    {
      fprintf (stderr, _("%s is complete: nothing to resume\n"), o->output);
      return TRUE;
    }

  /* Ctrl-C stops at a page's end and keeps the checkpoint. */
  sigint = g_unix_signal_add (SIGINT, interrupt_cb, cancellable);
  sigterm = g_unix_signal_add (SIGTERM, interrupt_cb, cancellable);
  dyn_export_job_run_async (job, cancellable, dyn_cli_progress_cb, o, dyn_cli_store_result_cb, &result);
  ok = dyn_export_job_run_finish (job, dyn_cli_wait_for (&result), error);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  if (!ok)
    return FALSE;

  if (o->json)
    {
      const DynTransferProgress *p = dyn_export_job_get_progress (job);
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "output");
      json_builder_add_string_value (b, o->output);
      json_builder_set_member_name (b, "format");
      json_builder_add_string_value (b, dyn_transfer_format_to_string (options.format));
      json_builder_set_member_name (b, "items");
      json_builder_add_int_value (b, (gint64) p->items);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) p->bytes);
      json_builder_set_member_name (b, "readUnits");
      json_builder_add_double_value (b, p->read_units);
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, p->requests);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      dyn_cli_print_json (root);
    }
  *status = 0;
  return TRUE;
}

gboolean
dyn_cli_count (DynTransferOptions  *o,
               DynClient           *client,
               int                 *status,
               GError             **error)
{
  g_auto(TableFacts) facts = { 0 };
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  DynCountResult count = { 0 };
  const char *table = o->args->pdata[0];
  double estimate;
  guint segments = o->segments > 0 ? o->segments : 1;
  guint sigint;
  gboolean ok;

  if (!describe (client, table, o->index, &facts, error))
    return FALSE;
  request = build_request (o, facts.keys, TRUE, error);
  if (request == NULL)
    return FALSE;
  estimate = dyn_transfer_estimate_scan_rcu (facts.size_bytes, request->consistent_read);

  if (!o->json)
    {
      g_autofree char *size = g_format_size (facts.size_bytes);
      g_autofree char *approx = g_strdup_printf ("%'" G_GUINT64_FORMAT, facts.item_count);

      /* Translators: before the count: its cost, the table's size and DescribeTable's count */
      printf (_("Counting costs about %.1f RCU (%s; DescribeTable says ~%s items, updated about every 6 hours)\n"),
              estimate, size, approx);
      fflush (stdout);
    }

  sigint = g_unix_signal_add (SIGINT, interrupt_cb, cancellable);
  dyn_transfer_count_async (client, request, segments, cancellable, dyn_cli_progress_cb, o,
                            dyn_cli_store_result_cb, &result);
  ok = dyn_transfer_count_finish (dyn_cli_wait_for (&result), &count, error);
  g_source_remove (sigint);
  if (!ok)
    return FALSE;

  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "table");
      json_builder_add_string_value (b, table);
      if (o->index != NULL)
        {
          json_builder_set_member_name (b, "index");
          json_builder_add_string_value (b, o->index);
        }
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, (gint64) count.count);
      json_builder_set_member_name (b, "scanned");
      json_builder_add_int_value (b, (gint64) count.scanned);
      json_builder_set_member_name (b, "readUnits");
      json_builder_add_double_value (b, count.read_units);
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, count.requests);
      json_builder_set_member_name (b, "estimatedReadUnits");
      json_builder_add_double_value (b, estimate);
      json_builder_set_member_name (b, "approximateItemCount");
      json_builder_add_int_value (b, (gint64) facts.item_count);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      dyn_cli_print_json (root);
    }
  else
    {
      g_autofree char *n = g_strdup_printf ("%'" G_GUINT64_FORMAT, count.count);
      g_autofree char *scanned = g_strdup_printf ("%'" G_GUINT64_FORMAT, count.scanned);

      /* Translators: the exact count */
      printf (g_dngettext (GETTEXT_PACKAGE, "%s item", "%s items", count.count), n);
      /* Translators: after the count: the items scanned, what it cost and the requests */
      printf (g_dngettext (GETTEXT_PACKAGE, " (%s scanned) · cost %.1f RCU in %u request\n",
                           " (%s scanned) · cost %.1f RCU in %u requests\n", count.requests),
              scanned, count.read_units, count.requests);
    }
  *status = 0;
  return TRUE;
}
