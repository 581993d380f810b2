/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyn-change-lines.h"
#include "dyn-changes.h"
#include "dyn-cli-apply.h"
#include "dyn-table.h"

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

/* Reads the JSON lines of standard input into @set. */
static gboolean
read_changes (DynChangeSet  *set,
              GError       **error)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  guint lineno = 0;
  gboolean ok = TRUE;

  while (ok && (len = getline (&line, &cap, stdin)) >= 0)
    {
      g_autoptr(GError) local_error = NULL;

      lineno++;
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
      if (strspn (line, " \t") == (size_t) len)
        continue;

      dyn_change_set_add_json_line (set, line, len, &local_error);
      if (local_error != NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "standard input line %u: %s", lineno, local_error->message);
          ok = FALSE;
        }
    }
  free (line);
  return ok;
}

static void
print_outcome (DynCommitResult *result,
               guint            i,
               gboolean         plain)
{
  g_autofree char *line = dyn_commit_result_dup_outcome_line (result, i, plain);

  puts (line);
}

gboolean
dyn_cli_apply (DynClient     *client,
               const char    *table,
               const char    *version_attribute,
               gboolean       dry_run,
               gboolean       plain,
               DynReadStats  *stats,
               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) description = NULL;
  g_autoptr(DynChangeSet) set = NULL;
  DynTableKeys *keys = NULL;
  guint n, conflicts, failed;

  g_return_val_if_fail (DYN_IS_CLIENT (client), FALSE);

  if (table == NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "apply needs a table name");
      return FALSE;
    }

  /* The key schema decides what a key change is and what guards a create. */
  dyn_client_describe_table_async (client, table, NULL, store_result_cb, &result);
  description = dyn_client_describe_table_finish (client, wait_for (&result), &keys, error);
  g_clear_object (&result);
  if (description == NULL)
    return FALSE;
  set = dyn_change_set_new (table, &keys->table.keys);
  dyn_change_set_set_index_keys (set, keys);
  if (version_attribute != NULL)
    dyn_change_set_set_version_attribute (set, version_attribute);
  dyn_table_keys_free (keys);

  if (!read_changes (set, error))
    return FALSE;
  n = dyn_change_set_get_n_changes (set);

  if (dry_run)
    {
      g_autoptr(JsonNode) plan = dyn_change_set_plan (set, error);
      g_autofree char *text = NULL;

      if (plan == NULL)
        return FALSE;
      text = json_to_string (plan, TRUE);
      puts (text);
      return TRUE;
    }

  {
    g_autoptr(DynCommitResult) committed = NULL;
    guint requests;

    dyn_change_set_commit_async (set, client, NULL, store_result_cb, &result);
    committed = dyn_change_set_commit_finish (set, wait_for (&result), error);
    if (committed == NULL)
      return FALSE;
    if (stats != NULL)
      {
        stats->requests += dyn_commit_result_get_n_sent (committed);
        stats->pages += dyn_commit_result_get_n_sent (committed);
        stats->write_units += dyn_commit_result_get_write_units (committed);
        stats->read_units += dyn_commit_result_get_read_units (committed);
      }

    for (guint i = 0; i < n; i++)
      print_outcome (committed, i, plain);
    fflush (stdout);

    requests = dyn_commit_result_get_n_requests (committed);
    conflicts = dyn_commit_result_get_n_conflicts (committed);
    failed = dyn_commit_result_get_n_failed (committed);
    if (requests > 1)
      fprintf (stderr, "%u changes split into %u requests (at most %d actions per transaction)\n",
               n, requests, DYN_TRANSACTION_MAX_ACTIONS);
    fprintf (stderr, "applied %u of %u changes in %u request%s\n",
             dyn_commit_result_get_n_applied (committed), n, requests, requests == 1 ? "" : "s");
  }

  if (conflicts > 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED,
                   "%u change%s conflict with the items on the server (nothing written for their "
                   "transactions)", conflicts, conflicts == 1 ? "" : "s");
      return FALSE;
    }
  if (failed > 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_FAILED, "%u change%s not applied", failed,
                   failed == 1 ? "" : "s");
      return FALSE;
    }
  return TRUE;
}
