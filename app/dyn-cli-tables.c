/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "dyn-cli-transfer.h"
#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-table-admin.h"

/* dynoscope-cli create-table TABLE --pk NAME:TYPE [--sk NAME:TYPE] [--gsi …]… [--lsi …]…
 *   [--billing on-demand|provisioned:R:W] [--ttl ATTR] [--table-class C] [--deletion-protection]
 *   [--no-wait] [--json] [--dry-run]
 * dynoscope-cli update-table TABLE --add-gsi GSI | --delete-gsi NAME | --ttl ATTR | --no-ttl [--no-wait] */

static DynResponse *
call (DynClient   *client,
      const char  *operation,
      JsonNode    *params,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_call_async (client, operation, params, NULL, dyn_cli_store_result_cb, &result);
  return dyn_client_call_finish (client, dyn_cli_wait_for (&result), error);
}

static DynTableSpec *
spec_from_options (DynTransferOptions  *o,
                   GError             **error)
{
  const char *table = o->args->pdata[0];
  g_autoptr(DynTableSpec) spec = NULL;

  if (o->pk == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep --pk NAME:TYPE as it is */
                   _("create-table needs --pk NAME:TYPE"));
      return NULL;
    }
  spec = dyn_table_spec_parse (table, o->pk, o->sk, error);
  if (spec == NULL)
    return NULL;
  for (guint i = 0; o->gsis != NULL && i < o->gsis->len; i++)
    if (!dyn_table_spec_add_gsi (spec, o->gsis->pdata[i], error))
      return NULL;
  for (guint i = 0; o->lsis != NULL && i < o->lsis->len; i++)
    if (!dyn_table_spec_add_lsi (spec, o->lsis->pdata[i], error))
      return NULL;
  if (o->billing != NULL && !dyn_table_spec_set_billing (spec, o->billing, error))
    return NULL;
  spec->ttl_attribute = g_strdup (o->ttl);
  spec->table_class = g_strdup (o->table_class);
  spec->deletion_protection = o->deletion_protection;
  return g_steal_pointer (&spec);
}

/* {"TableDescription": …} as CreateTable answers, from DescribeTable once
 * the table is ACTIVE. */
static gboolean
print_description (DynClient   *client,
                   const char  *table,
                   GError     **error)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(JsonObject) out = json_object_new ();
  g_autoptr(JsonNode) out_node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *described;

  json_object_set_string_member (params, "TableName", table);
  json_node_set_object (node, params);
  response = call (client, "DescribeTable", node, error);
  if (response == NULL)
    return FALSE;
  described = json_node_get_object (response->root);
  json_object_set_member (out, "TableDescription", json_node_copy (json_object_get_member (described, "Table")));
  json_node_set_object (out_node, out);
  dyn_cli_print_json (out_node);
  return TRUE;
}

gboolean
dyn_cli_create_table (DynTransferOptions  *o,
                      DynClient           *client,
                      int                 *status,
                      GError             **error)
{
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(JsonNode) params = NULL;

  spec = spec_from_options (o, error);
  if (spec == NULL)
    return FALSE;
  params = dyn_table_spec_to_create_json (spec, error);
  if (params == NULL)
    return FALSE;
  *status = 0;

  if (o->dry_run)
    {
      dyn_cli_print_json (params);
      return TRUE;
    }
  if (!o->wait && spec->ttl_attribute != NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep --ttl and --no-wait as they are */
                   _("--ttl is set once the table is ACTIVE, so it cannot go with --no-wait"));
      return FALSE;
    }
  if (o->json)
    dyn_cli_print_json (params);

  if (!o->wait)
    {
      g_autoptr(DynResponse) response = call (client, "CreateTable", params, error);

      if (response == NULL)
        return FALSE;
      if (!o->json)
        dyn_cli_print_json (response->root);
      return TRUE;
    }

  {
    g_autoptr(GAsyncResult) result = NULL;

    dyn_table_create_async (client, spec, NULL, dyn_cli_store_result_cb, &result);
    if (!dyn_table_create_finish (dyn_cli_wait_for (&result), error))
      return FALSE;
  }
  if (!o->json)
    return print_description (client, spec->keys->table.name, error);
  return TRUE;
}

typedef struct {
  DynTransferOptions *o;
  char               *index;
  char               *last;
} WaitProgress;

/* One line on stderr each time the index's state changes. */
static void
index_progress_cb (const DynTableInfo *info,
                   gpointer            user_data)
{
  WaitProgress *p = user_data;
  const DynIndexStatus *found = NULL;
  g_autofree char *line = NULL;

  if (p->o->quiet)
    return;
  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (strcmp (index->name, p->index) == 0)
        found = index;
    }
  if (found == NULL)
    /* Translators: %s is an index */
    line = g_strdup_printf (_("Index %s: deleted"), p->index);
  else if (found->backfilling)
    /* Translators: the first %s is an index, the second its status (CREATING …) */
    line = g_strdup_printf (_("Index %s: %s, backfilling"), p->index, found->status);
  else
    /* Translators: the first %s is an index, the second its status (CREATING, ACTIVE, DELETING) */
    line = g_strdup_printf (_("Index %s: %s"), p->index, found->status);
  if (p->last != NULL && strcmp (p->last, line) == 0)
    return;
  fprintf (stderr, "%s\n", line);
  fflush (stderr);
  g_free (p->last);
  p->last = g_steal_pointer (&line);
}

gboolean
dyn_cli_update_table (DynTransferOptions  *o,
                      DynClient           *client,
                      int                 *status,
                      GError             **error)
{
  const char *table = o->args->pdata[0];
  g_autoptr(DynTableInfo) info = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autofree char *index = NULL;
  const char *operation = "UpdateTable";
  guint n_changes = (o->add_gsi != NULL) + (o->delete_gsi != NULL) + (o->ttl != NULL) + (o->no_ttl != FALSE);

  if (n_changes != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep the options as they are */
                   _("update-table takes one of --add-gsi GSI, --delete-gsi NAME, --ttl ATTR, --no-ttl"));
      return FALSE;
    }

  {
    g_autoptr(GAsyncResult) result = NULL;

    dyn_table_info_load_async (client, table, NULL, dyn_cli_store_result_cb, &result);
    info = dyn_table_info_load_finish (dyn_cli_wait_for (&result), error);
    if (info == NULL)
      return FALSE;
  }

  if (o->add_gsi != NULL)
    {
      params = dyn_table_add_gsi_params (info, o->add_gsi, error);
      if (params != NULL)
        {
          JsonArray *updates = json_object_get_array_member (json_node_get_object (params),
                                                             "GlobalSecondaryIndexUpdates");
          JsonObject *create = json_object_get_object_member (json_array_get_object_element (updates, 0), "Create");

          index = g_strdup (json_object_get_string_member (create, "IndexName"));
        }
    }
  else if (o->delete_gsi != NULL)
    {
      params = dyn_table_delete_gsi_params (info, o->delete_gsi, error);
      index = g_strdup (o->delete_gsi);
    }
  else
    {
      params = dyn_table_ttl_params (info, o->no_ttl ? NULL : o->ttl, error);
      operation = "UpdateTimeToLive";
    }
  if (params == NULL)
    return FALSE;

  response = call (client, operation, params, error);
  if (response == NULL)
    return FALSE;
  dyn_cli_print_json (response->root);
  fflush (stdout);
  *status = 0;

  /* TTL changes take effect by themselves (on AWS up to an hour); the
   * index changes are waited for. */
  if (index != NULL && o->wait)
    {
      g_autoptr(GAsyncResult) result = NULL;
      WaitProgress progress = { o, index, NULL };
      JsonObject *described = dyn_json_object_get_object (json_node_get_object (response->root),
                                                          "TableDescription");
      gboolean ok;

      /* The state UpdateTable answered with (CREATING, DELETING), then each change. */
      if (described != NULL)
        {
          g_autoptr(DynTableInfo) now = dyn_table_info_new_from_json (described, NULL, NULL);

          if (now != NULL)
            index_progress_cb (now, &progress);
        }

      dyn_table_wait_async (client, table, DYN_TABLE_WAIT_ACTIVE, 250, index_progress_cb, &progress, NULL,
                            dyn_cli_store_result_cb, &result);
      ok = dyn_table_wait_finish (dyn_cli_wait_for (&result), error);
      g_free (progress.last);
      return ok;
    }
  return TRUE;
}
