/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What the window's Export and Import dialogs decide without GTK: the
 * request an export reads, the file name it suggests, and the sentences of
 * an import's dry run, end and verify (dyn-transfer-source.h). */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-transfer-source.h"

DynRequest *
dyn_export_source_request (DynExportSource    source,
                           const char        *table,
                           const char        *index,
                           const DynRequest  *current,
                           GError           **error)
{
  DynRequest *request;

  g_return_val_if_fail (table != NULL, NULL);

  switch (source)
    {
    case DYN_EXPORT_SOURCE_TABLE:
      return dyn_request_new (DYN_OP_SCAN, table);

    case DYN_EXPORT_SOURCE_INDEX:
      if (index == NULL || *index == '\0')
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("No index is chosen to export"));
          return NULL;
        }
      request = dyn_request_new (DYN_OP_SCAN, table);
      request->index = g_strdup (index);
      return request;

    case DYN_EXPORT_SOURCE_RESULT:
    default:
      if (current == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("No result is shown to export"));
          return NULL;
        }
      if (current->op != DYN_OP_QUERY && current->op != DYN_OP_SCAN)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("The result shown is a single item (%s): export the table or run a Query or Scan"),
                       dyn_operation_get_name (current->op));
          return NULL;
        }
      request = dyn_request_copy (current);
      /* Every page of it, from the first: the window's first-page Limit,
       * the page it stands at and a count-only read are its own. */
      dyn_request_set_exclusive_start_key (request, NULL);
      request->limit = 0;
      if (g_strcmp0 (request->select, "COUNT") == 0)
        g_clear_pointer (&request->select, g_free);
      request->segment = 0;
      request->total_segments = 0;
      return request;
    }
}

char *
dyn_export_describe_request (const DynRequest *request)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (request != NULL, NULL);

  if (request->index != NULL)
    /* Translators: "Query of ByGenre": a read of an index */
    g_string_append_printf (out, _("%s of %s"), dyn_operation_get_name (request->op), request->index);
  else
    g_string_append (out, dyn_operation_get_name (request->op));
  if (request->filter != NULL)
    g_string_append (out, _(", filtered"));
  return g_string_free (out, FALSE);
}

gboolean
dyn_export_request_can_segment (const DynRequest *request)
{
  g_return_val_if_fail (request != NULL, FALSE);
  return request->op == DYN_OP_SCAN;
}

static void
append_safe (GString    *out,
             const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '/' || c == '\\' || c == ':' || c < 0x20 || c == '*' || c == '?' || c == '"' ||
          c == '<' || c == '>' || c == '|')
        g_string_append_c (out, '_');
      else
        g_string_append_unichar (out, c);
    }
}

char *
dyn_transfer_suggest_file_name (const char        *table,
                                const char        *index,
                                DynTransferFormat  format,
                                GDateTime         *now)
{
  g_autoptr(GDateTime) today = now ? g_date_time_ref (now) : g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (today, "%Y-%m-%d");
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (table != NULL, NULL);

  append_safe (out, table);
  if (index != NULL && *index != '\0')
    {
      g_string_append_c (out, '-');
      append_safe (out, index);
    }
  g_string_append_printf (out, "-%s", date);
  switch (format)
    {
    case DYN_TRANSFER_FORMAT_DDB_JSON:
      g_string_append (out, ".ddb.jsonl");
      break;
    case DYN_TRANSFER_FORMAT_JSON:
      g_string_append (out, ".jsonl");
      break;
    case DYN_TRANSFER_FORMAT_CSV:
      g_string_append (out, ".csv");
      break;
    case DYN_TRANSFER_FORMAT_S3:
    default:
      break;
    }
  return g_string_free (out, FALSE);
}

gboolean
dyn_export_can_resume (const char *output)
{
  g_autofree char *checkpoint = NULL;

  if (output == NULL || *output == '\0')
    return FALSE;
  checkpoint = dyn_export_checkpoint_path (output);
  return g_file_test (checkpoint, G_FILE_TEST_IS_DIR);
}

gboolean
dyn_import_dry_run_allows (const DynImportSummary *dry_run,
                           gboolean                skip_bad)
{
  g_return_val_if_fail (dry_run != NULL, FALSE);
  if (dry_run->items == 0)
    return FALSE;
  return dry_run->bad == 0 || skip_bad;
}

static char *
count (guint64 n)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

/* @format: translated, with one %s for the count */
static void
append_part (GString    *out,
             const char *format,
             guint64     n)
{
  g_autofree char *text = count (n);

  if (out->len > 0)
    g_string_append (out, " · ");
  g_string_append_printf (out, format, text);
}

char *
dyn_import_describe_dry_run (const DynImportSummary *dry_run)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (dry_run != NULL, NULL);

  append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s item", "%s items", dry_run->items), dry_run->items);
  if (dry_run->bad > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s bad line", "%s bad lines", dry_run->bad), dry_run->bad);
  if (dry_run->duplicates > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s duplicate key (the later line wins)", "%s duplicate keys (the later line wins)", dry_run->duplicates), dry_run->duplicates);
  /* Translators: the write capacity an import will consume */
  g_string_append_printf (out, _(" · ~%.0f WCU"), dry_run->write_units_estimate);
  if (dry_run->bytes > 0)
    {
      g_autofree char *size = g_format_size (dry_run->bytes);

      g_string_append_printf (out, " · %s", size);
    }
  return g_string_free (out, FALSE);
}

char *
dyn_import_describe_done (const DynImportSummary    *summary,
                          const DynTransferProgress *progress)
{
  GString *out = g_string_new (NULL);
  g_autofree char *written = NULL;

  g_return_val_if_fail (summary != NULL && progress != NULL, NULL);

  /* The puts acknowledged (this run's and, resumed, the runs' before). */
  written = count (summary->written);
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Imported %s item", "Imported %s items", summary->written),
                          written);
  if (progress->skipped > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s bad line skipped", "%s bad lines skipped", progress->skipped), progress->skipped);
  if (progress->existing > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s existing item left as it was", "%s existing items left as they were", progress->existing), progress->existing);
  if (progress->identical > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s item already there with the same value", "%s items already there with the same value", progress->identical), progress->identical);
  if (progress->retries > 0)
    append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s retry", "%s retries", progress->retries), progress->retries);
  g_string_append_printf (out, _(" · %.1f WCU"), progress->write_units);
  return g_string_free (out, FALSE);
}

char *
dyn_import_describe_verify (const DynImportVerify *verify)
{
  g_autofree char *checked = NULL;
  g_autofree char *table = NULL;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (verify != NULL, NULL);

  checked = count (verify->checked);
  table = count (verify->table_items);
  if (verify->missing == 0 && verify->different == 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Verified %s item: in the table as in the file",
                                              "Verified %s items: all in the table as in the file", verify->checked),
                            checked);
  else
    {
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Checked %s item", "Checked %s items", verify->checked),
                              checked);
      if (verify->missing > 0)
        append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s missing from the table", "%s missing from the table", verify->missing), verify->missing);
      if (verify->different > 0)
        append_part (out, g_dngettext (GETTEXT_PACKAGE, "%s different in the table", "%s different in the table", verify->different), verify->different);
    }
  g_string_append (out, " · ");
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "the table holds %s item", "the table holds %s items",
                                            verify->table_items),
                          table);
  return g_string_free (out, FALSE);
}

char *
dyn_export_describe_done (const DynTransferProgress *progress,
                          const char                *output)
{
  g_autofree char *items = NULL;
  g_autofree char *name = NULL;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (progress != NULL, NULL);

  items = count (progress->items);
  name = output ? g_path_get_basename (output) : g_strdup ("");
  /* Translators: "Exported 1,234 items to Movies.csv" */
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Exported %s item to %s", "Exported %s items to %s",
                                            progress->items),
                          items, name);
  if (progress->bytes > 0)
    {
      g_autofree char *size = g_format_size (progress->bytes);

      g_string_append_printf (out, " · %s", size);
    }
  g_string_append_printf (out, _(" · %.1f RCU"), progress->read_units);
  return g_string_free (out, FALSE);
}
