/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-table-admin-private.h"

/* UpdateTable --------------------------------------------------------------- */

static JsonNode *
object_node (JsonObject *obj)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, obj);
  return node;
}

JsonNode *
dyn_table_add_gsi_params (const DynTableInfo  *info,
                          const char          *gsi,
                          GError             **error)
{
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(JsonNode) create = NULL;
  DynIndexInfo *added;
  JsonObject *create_obj, *obj, *update;
  JsonArray *gsis, *defs, *new_defs, *updates;

  g_return_val_if_fail (info != NULL && info->keys != NULL && gsi != NULL, NULL);

  /* The table as it is plus the new index, under CreateTable's rules:
   * names unique, one type per attribute, limits, INCLUDE, units. */
  spec = g_new0 (DynTableSpec, 1);
  spec->keys = dyn_table_keys_copy (info->keys);
  spec->billing = info->billing;
  spec->read_units = info->read_units;
  spec->write_units = info->write_units;
  spec->index_units = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; info->indexes != NULL && i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (index->kind == DYN_INDEX_GLOBAL && info->billing == DYN_BILLING_PROVISIONED &&
          index->read_units > 0 && index->write_units > 0 && dyn_table_keys_lookup (spec->keys, index->name))
        g_hash_table_insert (spec->index_units, g_strdup (index->name),
                             g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                              index->read_units, index->write_units));
    }
  added = _dyn_table_keys_add_gsi_text (spec->keys, gsi, error);
  if (added == NULL || !dyn_table_spec_validate (spec, error))
    return NULL;

  /* Its part of the CreateTable request: the index (last of the GSIs) and
   * the definitions of its key attributes. */
  create = _dyn_table_spec_build_json (spec);
  create_obj = json_node_get_object (create);
  gsis = json_object_get_array_member (create_obj, "GlobalSecondaryIndexes");
  defs = json_object_get_array_member (create_obj, "AttributeDefinitions");
  new_defs = json_array_new ();
  for (guint i = 0; i < json_array_get_length (defs); i++)
    {
      JsonObject *def = json_array_get_object_element (defs, i);

      if (dyn_key_schema_has_attribute (&added->keys, json_object_get_string_member (def, "AttributeName")))
        json_array_add_object_element (new_defs, json_object_ref (def));
    }

  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", info->name);
  json_object_set_array_member (obj, "AttributeDefinitions", new_defs);
  update = json_object_new ();
  json_object_set_object_member (update, "Create",
                                 json_object_ref (json_array_get_object_element (gsis,
                                                                                 json_array_get_length (gsis) - 1)));
  updates = json_array_new ();
  json_array_add_object_element (updates, update);
  json_object_set_array_member (obj, "GlobalSecondaryIndexUpdates", updates);
  return object_node (obj);
}

JsonNode *
dyn_table_delete_gsi_params (const DynTableInfo  *info,
                             const char          *index_name,
                             GError             **error)
{
  JsonObject *obj, *update, *delete;
  JsonArray *updates;
  const DynIndexStatus *found = NULL;

  g_return_val_if_fail (info != NULL && index_name != NULL, NULL);

  for (guint i = 0; info->indexes != NULL && i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (strcmp (index->name, index_name) == 0)
        found = index;
    }
  if (found != NULL && found->kind == DYN_INDEX_LOCAL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is an index */
                   _("“%s”: a local secondary index cannot be deleted; it lives as long as its table"),
                   index_name);
      return NULL;
    }
  if (found == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is an index name, the second a table */
                   _("“%s”: the table %s has no global secondary index of this name"), index_name, info->name);
      return NULL;
    }
  if (strcmp (found->status, "ACTIVE") != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is an index, the second its status (CREATING, DELETING …) */
                   _("“%s”: the index is %s; an index can be deleted once it is ACTIVE"), index_name, found->status);
      return NULL;
    }

  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", info->name);
  delete = json_object_new ();
  json_object_set_string_member (delete, "IndexName", index_name);
  update = json_object_new ();
  json_object_set_object_member (update, "Delete", delete);
  updates = json_array_new ();
  json_array_add_object_element (updates, update);
  json_object_set_array_member (obj, "GlobalSecondaryIndexUpdates", updates);
  return object_node (obj);
}

static gboolean
ttl_is_on (const DynTableInfo *info)
{
  return info->ttl_status != NULL &&
         (strcmp (info->ttl_status, "ENABLED") == 0 || strcmp (info->ttl_status, "ENABLING") == 0);
}

JsonNode *
dyn_table_ttl_params (const DynTableInfo  *info,
                      const char          *attribute,
                      GError             **error)
{
  JsonObject *obj, *ttl;

  g_return_val_if_fail (info != NULL, NULL);

  if (attribute != NULL && (*attribute == '\0' || strlen (attribute) > 255))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("“%s”: the TTL attribute's name has 1 to 255 bytes"), info->name);
      return NULL;
    }
  if (attribute != NULL && ttl_is_on (info))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is a table, the second the attribute TTL is on */
                   _("“%s”: time to live is already on, on %s; turn it off first"), info->name,
                   info->ttl_attribute ? info->ttl_attribute : "?");
      return NULL;
    }
  if (attribute == NULL && (!ttl_is_on (info) || info->ttl_attribute == NULL))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is a table */
                   _("“%s”: time to live is not on; there is nothing to turn off"), info->name);
      return NULL;
    }

  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", info->name);
  ttl = json_object_new ();
  json_object_set_boolean_member (ttl, "Enabled", attribute != NULL);
  json_object_set_string_member (ttl, "AttributeName", attribute ? attribute : info->ttl_attribute);
  json_object_set_object_member (obj, "TimeToLiveSpecification", ttl);
  return object_node (obj);
}

/* Waiting ------------------------------------------------------------------- */

#define MAX_INTERVAL_MS 5000

typedef struct {
  DynClient        *client;
  char             *table;
  DynTableWait      until;
  guint             interval_ms;
  DynTableInfoFunc  progress;
  gpointer          progress_data;
  guint             timeout_id;
} WaitData;

static void
wait_data_free (WaitData *d)
{
  if (d->timeout_id != 0)
    g_source_remove (d->timeout_id);
  g_clear_object (&d->client);
  g_free (d->table);
  g_free (d);
}

static gboolean
info_is_active (const DynTableInfo *info)
{
  if (strcmp (info->status, "ACTIVE") != 0)
    return FALSE;
  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (strcmp (index->status, "ACTIVE") != 0 || index->backfilling)
        return FALSE;
    }
  return TRUE;
}

static void wait_poll (GTask *task);

static gboolean
wait_tick_cb (gpointer user_data)
{
  GTask *task = user_data;
  WaitData *d = g_task_get_task_data (task);

  d->timeout_id = 0;
  wait_poll (task);
  return G_SOURCE_REMOVE;
}

static void
wait_loaded_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  WaitData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableInfo) info = dyn_table_info_load_finish (result, &error);

  if (info == NULL)
    {
      if (d->until == DYN_TABLE_WAIT_GONE && g_error_matches (error, DYN_ERROR, DYN_ERROR_NOT_FOUND))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (d->progress != NULL)
    d->progress (info, d->progress_data);
  if (d->until == DYN_TABLE_WAIT_ACTIVE && info_is_active (info))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  d->timeout_id = g_timeout_add_full (G_PRIORITY_DEFAULT, d->interval_ms, wait_tick_cb,
                                      g_object_ref (task), g_object_unref);
  d->interval_ms = MIN (MAX_INTERVAL_MS, d->interval_ms * 3 / 2 + 1);
}

static void
wait_poll (GTask *task)
{
  WaitData *d = g_task_get_task_data (task);

  if (g_task_return_error_if_cancelled (task))
    return;
  dyn_table_info_load_async (d->client, d->table, g_task_get_cancellable (task), wait_loaded_cb,
                             g_object_ref (task));
}

void
dyn_table_wait_async (DynClient           *client,
                      const char          *table,
                      DynTableWait         until,
                      guint                interval_ms,
                      DynTableInfoFunc     progress,
                      gpointer             progress_data,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  WaitData *d;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (table != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_table_wait_async);
  d = g_new0 (WaitData, 1);
  d->client = g_object_ref (client);
  d->table = g_strdup (table);
  d->until = until;
  d->interval_ms = CLAMP (interval_ms, 1, MAX_INTERVAL_MS);
  d->progress = progress;
  d->progress_data = progress_data;
  g_task_set_task_data (task, d, (GDestroyNotify) wait_data_free);
  wait_poll (task);
}

gboolean
dyn_table_wait_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Create ------------------------------------------------------------------ */

typedef struct {
  DynClient           *client;
  char                *table;
  char                *ttl_attribute;
  /* What the sent call waits for, and where the wait's result goes. */
  DynTableWait         until;
  GAsyncReadyCallback  then;
} OpData;

static void
op_data_free (OpData *d)
{
  g_clear_object (&d->client);
  g_free (d->table);
  g_free (d->ttl_attribute);
  g_free (d);
}

static void
create_ttl_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);

  if (response == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
create_active_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  JsonObject *obj, *ttl;

  if (!dyn_table_wait_finish (result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (d->ttl_attribute == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", d->table);
  ttl = json_object_new ();
  json_object_set_boolean_member (ttl, "Enabled", TRUE);
  json_object_set_string_member (ttl, "AttributeName", d->ttl_attribute);
  json_object_set_object_member (obj, "TimeToLiveSpecification", ttl);
  params = object_node (obj);
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    dyn_client_call_async (d->client, "UpdateTimeToLive", params, cancellable,
                           create_ttl_cb, g_steal_pointer (&task));
  }
}

/* CreateTable or DeleteTable answered: wait until the table is there (or
 * gone), then d->then. */
static void
sent_cb (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);

  if (response == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  {
    /* Read before the task is handed off. */
    GCancellable *cancellable = g_task_get_cancellable (task);

    dyn_table_wait_async (d->client, d->table, d->until, 200, NULL, NULL,
                          cancellable, d->then, g_steal_pointer (&task));
  }
}

void
dyn_table_create_async (DynClient           *client,
                        const DynTableSpec  *spec,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  OpData *d;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (spec != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_table_create_async);
  params = dyn_table_spec_to_create_json (spec, &error);
  if (params == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  d = g_new0 (OpData, 1);
  d->client = g_object_ref (client);
  d->table = g_strdup (spec->keys->table.name);
  d->ttl_attribute = g_strdup (spec->ttl_attribute);
  d->until = DYN_TABLE_WAIT_ACTIVE;
  d->then = create_active_cb;
  g_task_set_task_data (task, d, (GDestroyNotify) op_data_free);
  dyn_client_call_async (client, "CreateTable", params, cancellable, sent_cb, g_steal_pointer (&task));
}

gboolean
dyn_table_create_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Delete ------------------------------------------------------------------ */

static void
delete_gone_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!dyn_table_wait_finish (result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
dyn_table_delete_async (DynClient           *client,
                        const char          *table,
                        const char          *confirm_name,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) params = NULL;
  JsonObject *obj;
  OpData *d;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (table != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_table_delete_async);
  if (confirm_name == NULL || strcmp (confirm_name, table) != 0)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: the first %s is what was typed, the second the table */
                               _("“%s” is not the table's name: type %s exactly to delete it"),
                               confirm_name ? confirm_name : "", table);
      return;
    }
  d = g_new0 (OpData, 1);
  d->client = g_object_ref (client);
  d->table = g_strdup (table);
  d->until = DYN_TABLE_WAIT_GONE;
  d->then = delete_gone_cb;
  g_task_set_task_data (task, d, (GDestroyNotify) op_data_free);
  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", table);
  params = object_node (obj);
  dyn_client_call_async (client, "DeleteTable", params, cancellable, sent_cb, g_steal_pointer (&task));
}

gboolean
dyn_table_delete_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
