/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-table.h"
#include "dyn-table-admin-private.h"

static void
index_status_free (DynIndexStatus *self)
{
  g_free (self->name);
  dyn_key_schema_clear (&self->keys);
  g_strfreev (self->non_key_attributes);
  g_free (self->status);
  g_free (self);
}

void
dyn_table_info_free (DynTableInfo *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->arn);
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_free (self->status);
  g_clear_pointer (&self->created, g_date_time_unref);
  g_free (self->table_class);
  g_clear_pointer (&self->indexes, g_ptr_array_unref);
  g_free (self->ttl_status);
  g_free (self->ttl_attribute);
  g_free (self);
}

static gint64
member_int (JsonObject *object,
            const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return 0;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_ascii_strtoll (json_node_get_string (node), NULL, 10);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (node);
  return json_node_get_int (node);
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
read_throughput (JsonObject *owner,
                 gint64     *read_units,
                 gint64     *write_units)
{
  JsonObject *throughput = dyn_json_object_get_object (owner, "ProvisionedThroughput");

  *read_units = member_int (throughput, "ReadCapacityUnits");
  *write_units = member_int (throughput, "WriteCapacityUnits");
}

static void
add_index_statuses (DynTableInfo *self,
                    JsonObject   *table,
                    const char   *member,
                    DynIndexKind  kind)
{
  JsonArray *indexes = dyn_json_object_get_array (table, member);

  for (guint i = 0; indexes != NULL && i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);
      const char *name = member_string (index, "IndexName");
      const DynIndexInfo *known;
      DynIndexStatus *status;
      JsonNode *backfilling;

      if (name == NULL)
        continue;
      known = dyn_table_keys_lookup (self->keys, name);
      status = g_new0 (DynIndexStatus, 1);
      status->name = g_strdup (name);
      status->kind = kind;
      if (known != NULL && known->kind == kind)
        {
          dyn_key_schema_copy_into (&known->keys, &status->keys);
          status->projection = known->projection;
          status->non_key_attributes = g_strdupv (known->non_key_attributes);
        }
      /* LSIs have no IndexStatus: they are created with the table. */
      status->status = g_strdup (member_string (index, "IndexStatus") ?: "ACTIVE");
      backfilling = json_object_get_member (index, "Backfilling");
      status->backfilling = backfilling != NULL && JSON_NODE_HOLDS_VALUE (backfilling) &&
                            json_node_get_value_type (backfilling) == G_TYPE_BOOLEAN &&
                            json_node_get_boolean (backfilling);
      status->item_count = member_int (index, "ItemCount");
      status->size_bytes = member_int (index, "IndexSizeBytes");
      if (self->billing == DYN_BILLING_PROVISIONED)
        read_throughput (index, &status->read_units, &status->write_units);
      g_ptr_array_add (self->indexes, status);
    }
}

static gboolean
index_is_defined (JsonObject *index,
                  GHashTable *defined)
{
  JsonArray *schema = dyn_json_object_get_array (index, "KeySchema");

  for (guint i = 0; schema != NULL && i < json_array_get_length (schema); i++)
    {
      const char *name = member_string (json_array_get_object_element (schema, i), "AttributeName");

      if (name == NULL || !g_hash_table_contains (defined, name))
        return FALSE;
    }
  return TRUE;
}

/* The table without the indexes whose key attributes are no longer in
 * AttributeDefinitions: a GSI being deleted is still listed (DELETING), its
 * definitions already gone (DynamoDB Local does this). Its status is kept. */
static JsonObject *
keys_view (JsonObject *table)
{
  g_autoptr(GHashTable) defined = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *defs = dyn_json_object_get_array (table, "AttributeDefinitions");
  JsonObject *view = json_object_new ();
  static const char * const members[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
  GList *names = json_object_get_members (table);

  for (guint i = 0; defs != NULL && i < json_array_get_length (defs); i++)
    {
      const char *name = member_string (json_array_get_object_element (defs, i), "AttributeName");

      if (name != NULL)
        g_hash_table_add (defined, (gpointer) name);
    }
  for (GList *l = names; l != NULL; l = l->next)
    json_object_set_member (view, l->data, json_node_ref (json_object_get_member (table, l->data)));
  g_list_free (names);
  for (gsize m = 0; m < G_N_ELEMENTS (members); m++)
    {
      JsonArray *indexes = dyn_json_object_get_array (table, members[m]);
      JsonArray *kept;

      if (indexes == NULL)
        continue;
      kept = json_array_new ();
      for (guint i = 0; i < json_array_get_length (indexes); i++)
        {
          JsonObject *index = json_array_get_object_element (indexes, i);

          if (index != NULL && index_is_defined (index, defined))
            json_array_add_object_element (kept, json_object_ref (index));
        }
      json_object_set_array_member (view, members[m], kept);
    }
  return view;
}

DynTableInfo *
dyn_table_info_new_from_json (JsonObject  *table,
                              JsonObject  *ttl,
                              GError     **error)
{
  g_autoptr(DynTableInfo) self = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(JsonObject) view = NULL;
  JsonObject *billing, *klass;
  JsonNode *created, *protection;
  const char *mode;

  g_return_val_if_fail (table != NULL, NULL);

  view = keys_view (table);
  keys = dyn_table_keys_from_description (view, error);
  if (keys == NULL)
    return NULL;

  self = g_new0 (DynTableInfo, 1);
  self->keys = g_steal_pointer (&keys);
  self->name = g_strdup (member_string (table, "TableName") ?: self->keys->table.name);
  self->arn = g_strdup (member_string (table, "TableArn"));
  self->status = g_strdup (member_string (table, "TableStatus") ?: "ACTIVE");
  self->item_count = member_int (table, "ItemCount");
  self->size_bytes = member_int (table, "TableSizeBytes");

  created = json_object_get_member (table, "CreationDateTime");
  if (created != NULL && JSON_NODE_HOLDS_VALUE (created) && json_node_get_value_type (created) != G_TYPE_STRING)
    {
      double seconds = json_node_get_double (created);

      self->created = g_date_time_new_from_unix_utc ((gint64) seconds);
      if (self->created != NULL && seconds != (gint64) seconds)
        {
          GDateTime *exact = g_date_time_add (self->created, (GTimeSpan) ((seconds - (gint64) seconds) * G_USEC_PER_SEC));

          g_date_time_unref (self->created);
          self->created = exact;
        }
    }

  /* BillingModeSummary is absent on tables created PROVISIONED. */
  billing = dyn_json_object_get_object (table, "BillingModeSummary");
  mode = member_string (billing, "BillingMode");
  self->billing = mode != NULL && strcmp (mode, "PAY_PER_REQUEST") == 0 ? DYN_BILLING_ON_DEMAND
                                                                         : DYN_BILLING_PROVISIONED;
  if (self->billing == DYN_BILLING_PROVISIONED)
    read_throughput (table, &self->read_units, &self->write_units);

  klass = dyn_json_object_get_object (table, "TableClassSummary");
  self->table_class = g_strdup (member_string (klass, "TableClass") ?: "STANDARD");
  protection = json_object_get_member (table, "DeletionProtectionEnabled");
  self->deletion_protection = protection != NULL && JSON_NODE_HOLDS_VALUE (protection) &&
                              json_node_get_value_type (protection) == G_TYPE_BOOLEAN &&
                              json_node_get_boolean (protection);

  self->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) index_status_free);
  add_index_statuses (self, table, "GlobalSecondaryIndexes", DYN_INDEX_GLOBAL);
  add_index_statuses (self, table, "LocalSecondaryIndexes", DYN_INDEX_LOCAL);

  if (ttl != NULL)
    {
      self->ttl_status = g_strdup (member_string (ttl, "TimeToLiveStatus"));
      self->ttl_attribute = g_strdup (member_string (ttl, "AttributeName"));
    }
  return g_steal_pointer (&self);
}

static char *
format_count (gint64 n)
{
  /* The locale's digit grouping ("1,234", "1.234"). */
  return g_strdup_printf ("%'" G_GINT64_FORMAT, n);
}

char *
dyn_table_info_describe_count (const DynTableInfo *self)
{
  g_autofree char *count = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  count = format_count (self->item_count);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       /* Translators: %s is a number of items, e.g. 1,234 */
                                       "About %s item (DynamoDB updates this count about every six hours; "
                                       "an exact count scans the table)",
                                       "About %s items (DynamoDB updates this count about every six hours; "
                                       "an exact count scans the table)",
                                       (gulong) self->item_count),
                          count);
}

static char *
describe_key_part (const DynKeySchema *keys,
                   gboolean            sort)
{
  g_autoptr(GString) s = g_string_new (NULL);
  guint n = sort ? dyn_key_schema_get_n_sort_keys (keys) : dyn_key_schema_get_n_partition_keys (keys);

  for (guint i = 0; i < n; i++)
    {
      DynValueType type;
      const char *name = sort ? dyn_key_schema_get_sort_key (keys, i, &type)
                              : dyn_key_schema_get_partition_key (keys, i, &type);

      g_string_append_printf (s, "%s%s (%s)", i > 0 ? " + " : "", name, dyn_value_type_to_string (type));
    }
  return n > 0 ? g_string_free (g_steal_pointer (&s), FALSE) : NULL;
}

static char *
describe_projection (DynProjectionType  projection,
                     GStrv              non_key)
{
  switch (projection)
    {
    case DYN_PROJECTION_KEYS_ONLY:
      return g_strdup ("KEYS_ONLY");
    case DYN_PROJECTION_INCLUDE:
      {
        g_autofree char *names = non_key ? g_strjoinv (", ", non_key) : g_strdup ("");

        return g_strdup_printf ("INCLUDE %s", names);
      }
    case DYN_PROJECTION_ALL:
    default:
      return g_strdup ("ALL");
    }
}

static char *
describe_units (gint64 read_units,
                gint64 write_units)
{
  g_autofree char *r = format_count (read_units);
  g_autofree char *w = format_count (write_units);

  /* Translators: the first %s is read capacity units, the second write capacity units */
  return g_strdup_printf (_("provisioned, %s read and %s write units"), r, w);
}

char *
dyn_table_info_to_text (const DynTableInfo *self)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *pk = NULL, *sk = NULL, *count = NULL, *size = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  pk = describe_key_part (&self->keys->table.keys, FALSE);
  sk = describe_key_part (&self->keys->table.keys, TRUE);
  count = dyn_table_info_describe_count (self);
  size = g_format_size (self->size_bytes);

  g_string_append_printf (s, "%s: %s\n", _("Table"), self->name);
  g_string_append_printf (s, "%s: %s\n", _("Status"), self->status);
  g_string_append_printf (s, "%s: %s\n", _("Partition key"), pk ? pk : "");
  if (sk != NULL)
    g_string_append_printf (s, "%s: %s\n", _("Sort key"), sk);
  if (self->billing == DYN_BILLING_PROVISIONED)
    {
      g_autofree char *units = describe_units (self->read_units, self->write_units);

      g_string_append_printf (s, "%s: %s\n", C_("table info", "Capacity"), units);
    }
  else
    g_string_append_printf (s, "%s: %s\n", C_("table info", "Capacity"), C_("table info", "on demand"));
  g_string_append_printf (s, "%s: %s\n", _("Items"), count);
  /* Translators: %s is a size such as 1.2 MB */
  g_string_append_printf (s, "%s: %s\n", _("Size"), size);
  if (self->created != NULL)
    {
      g_autofree char *when = g_date_time_format_iso8601 (self->created);

      g_string_append_printf (s, "%s: %s\n", C_("table info", "Created"), when);
    }
  g_string_append_printf (s, "%s: %s\n", C_("table info", "Table class"), self->table_class ? self->table_class : "STANDARD");
  g_string_append_printf (s, "%s: %s\n", C_("table info", "Deletion protection"), self->deletion_protection ? C_("table info", "on, DeleteTable is refused") : C_("table info", "off"));
  if (self->ttl_status != NULL && self->ttl_attribute != NULL)
    g_string_append_printf (s, "%s: %s (%s)\n", C_("table info", "Time to live"), self->ttl_attribute, self->ttl_status);
  else
    g_string_append_printf (s, "%s: %s\n", C_("table info", "Time to live"), self->ttl_status ? self->ttl_status : C_("table info", "off, items do not expire"));

  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynIndexStatus *index = self->indexes->pdata[i];
      g_autofree char *ipk = describe_key_part (&index->keys, FALSE);
      g_autofree char *isk = describe_key_part (&index->keys, TRUE);
      g_autofree char *projection = describe_projection (index->projection, index->non_key_attributes);
      g_autofree char *icount = format_count (index->item_count);
      g_autofree char *isize = g_format_size (index->size_bytes);
      g_autofree char *key = isk ? g_strdup_printf ("%s; %s", ipk ? ipk : "", isk) : g_strdup (ipk ? ipk : "");
      g_autofree char *status = index->backfilling
        /* Translators: %s is an index status such as CREATING */
        ? g_strdup_printf (_("%s, backfilling"), index->status)
        : g_strdup (index->status);

      g_string_append_printf (s, "%s %s: %s\n",
                              index->kind == DYN_INDEX_GLOBAL ? C_("table info", "Global index") : C_("table info", "Local index"),
                              index->name, key);
      /* Translators: an index's details: projection, status, approximate items and size */
      g_string_append_printf (s, "  %s: %s; %s: %s; %s: %s; %s: %s\n",
                              _("Projection"), projection, _("Status"), status, _("Items"), icount,
                              _("Size"), isize);
      if (index->read_units > 0 || index->write_units > 0)
        {
          g_autofree char *units = describe_units (index->read_units, index->write_units);

          g_string_append_printf (s, "  %s: %s\n", C_("table info", "Capacity"), units);
        }
    }
  if (self->arn != NULL)
    g_string_append_printf (s, "%s: %s\n", C_("table info", "ARN"), self->arn);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Loading ----------------------------------------------------------------- */

typedef struct {
  DynClient *client;
  JsonNode  *params;
  JsonNode  *table;
} LoadData;

static void
load_data_free (LoadData *d)
{
  g_clear_object (&d->client);
  g_clear_pointer (&d->params, json_node_unref);
  g_clear_pointer (&d->table, json_node_unref);
  g_free (d);
}

static void
ttl_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  JsonObject *ttl = NULL;
  DynTableInfo *info;

  if (response == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  /* A server without DescribeTimeToLive still describes the table. */
  if (response != NULL && response->root != NULL && JSON_NODE_HOLDS_OBJECT (response->root))
    ttl = dyn_json_object_get_object (json_node_get_object (response->root), "TimeToLiveDescription");
  info = dyn_table_info_new_from_json (json_node_get_object (d->table), ttl, &error);
  if (info == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, info, (GDestroyNotify) dyn_table_info_free);
}

static void
describe_done_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *d = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_call_finish (DYN_CLIENT (source), result, &error);
  JsonObject *table;

  if (response == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  table = response->root && JSON_NODE_HOLDS_OBJECT (response->root)
    ? dyn_json_object_get_object (json_node_get_object (response->root), "Table") : NULL;
  if (table == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL, "%s",
                               _("DescribeTable returned no table"));
      return;
    }
  d->table = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (d->table, table);
  {
    GCancellable *cancellable = g_task_get_cancellable (task);

    dyn_client_call_async (d->client, "DescribeTimeToLive", d->params, cancellable,
                           ttl_done_cb, g_steal_pointer (&task));
  }
}

void
dyn_table_info_load_async (DynClient           *client,
                           const char          *table,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *d;
  JsonObject *obj;

  g_return_if_fail (DYN_IS_CLIENT (client));
  g_return_if_fail (table != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_table_info_load_async);
  d = g_new0 (LoadData, 1);
  d->client = g_object_ref (client);
  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", table);
  d->params = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (d->params, obj);
  g_task_set_task_data (task, d, (GDestroyNotify) load_data_free);
  dyn_client_call_async (client, "DescribeTable", d->params, cancellable, describe_done_cb,
                         g_steal_pointer (&task));
}

DynTableInfo *
dyn_table_info_load_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
