/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-request"

#include "config.h"

#include "dyn-request-private.h"

G_DEFINE_BOXED_TYPE (DynRequest, dyn_request, dyn_request_copy, dyn_request_free)

static const char * const op_names[] = {
  [DYN_OP_GET_ITEM] = "GetItem",
  [DYN_OP_PUT_ITEM] = "PutItem",
  [DYN_OP_UPDATE_ITEM] = "UpdateItem",
  [DYN_OP_DELETE_ITEM] = "DeleteItem",
  [DYN_OP_QUERY] = "Query",
  [DYN_OP_SCAN] = "Scan",
};

const char *
dyn_operation_get_name (DynOperation op)
{
  g_return_val_if_fail (op <= DYN_OP_SCAN, NULL);
  return op_names[op];
}

static GHashTable *
new_names (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static GHashTable *
new_values (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) dyn_value_unref);
}

DynRequest *
dyn_request_new (DynOperation  op,
                 const char   *table)
{
  DynRequest *self = g_new0 (DynRequest, 1);

  self->op = op;
  self->table = g_strdup (table);
  self->names = new_names ();
  self->values = new_values ();
  self->scan_forward = TRUE;
  self->return_consumed_capacity = TRUE;
  return self;
}

DynRequest *
dyn_request_copy (const DynRequest *self)
{
  DynRequest *copy;
  GHashTableIter iter;
  gpointer k, v;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->table = g_strdup (self->table);
  copy->index = g_strdup (self->index);
  copy->key = self->key ? dyn_value_ref (self->key) : NULL;
  copy->item = self->item ? dyn_value_ref (self->item) : NULL;
  copy->key_condition = g_strdup (self->key_condition);
  copy->filter = g_strdup (self->filter);
  copy->condition = g_strdup (self->condition);
  copy->update = g_strdup (self->update);
  copy->projection = g_strdup (self->projection);
  copy->return_values = g_strdup (self->return_values);
  copy->return_values_on_condition_check_failure = g_strdup (self->return_values_on_condition_check_failure);
  copy->select = g_strdup (self->select);
  copy->exclusive_start_key = self->exclusive_start_key ? dyn_value_ref (self->exclusive_start_key) : NULL;
  copy->shard_values = self->shard_values ? g_ptr_array_ref (self->shard_values) : NULL;
  copy->shard_placeholder = g_strdup (self->shard_placeholder);

  copy->names = new_names ();
  g_hash_table_iter_init (&iter, self->names);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_hash_table_insert (copy->names, g_strdup (k), g_strdup (v));
  copy->values = new_values ();
  g_hash_table_iter_init (&iter, self->values);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_hash_table_insert (copy->values, g_strdup (k), dyn_value_ref (v));
  return copy;
}

void
dyn_request_free (DynRequest *self)
{
  if (self == NULL)
    return;
  g_free (self->table);
  g_free (self->index);
  g_clear_pointer (&self->key, dyn_value_unref);
  g_clear_pointer (&self->item, dyn_value_unref);
  g_free (self->key_condition);
  g_free (self->filter);
  g_free (self->condition);
  g_free (self->update);
  g_free (self->projection);
  g_free (self->return_values);
  g_free (self->return_values_on_condition_check_failure);
  g_free (self->select);
  g_clear_pointer (&self->exclusive_start_key, dyn_value_unref);
  g_clear_pointer (&self->shard_values, g_ptr_array_unref);
  g_free (self->shard_placeholder);
  g_clear_pointer (&self->names, g_hash_table_unref);
  g_clear_pointer (&self->values, g_hash_table_unref);
  g_free (self);
}

void
dyn_request_add_name (DynRequest *self,
                      const char *placeholder,
                      const char *name)
{
  g_return_if_fail (self != NULL);
  g_hash_table_replace (self->names, g_strdup (placeholder), g_strdup (name));
}

void
dyn_request_add_value (DynRequest *self,
                       const char *placeholder,
                       DynValue   *value)
{
  g_return_if_fail (self != NULL);
  g_hash_table_replace (self->values, g_strdup (placeholder), dyn_value_ref (value));
}

void
dyn_request_set_exclusive_start_key (DynRequest *self,
                                     DynValue   *key)
{
  g_return_if_fail (self != NULL);
  g_clear_pointer (&self->exclusive_start_key, dyn_value_unref);
  if (key != NULL)
    self->exclusive_start_key = dyn_value_ref (key);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char **) a, *(const char **) b);
}

/* Sorted keys make the body (and so a snippet or a trace) deterministic. */
GPtrArray *
_dyn_request_sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);

  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

static void
add_string (JsonObject *obj,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (obj, member, value);
}

JsonNode *
dyn_request_to_json (const DynRequest *self)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  JsonNode *node;

  g_return_val_if_fail (self != NULL, NULL);

  add_string (obj, "TableName", self->table);
  add_string (obj, "IndexName", self->index);
  if (self->key != NULL)
    json_object_set_member (obj, "Key", dyn_item_to_ddb_json (self->key));
  if (self->item != NULL)
    json_object_set_member (obj, "Item", dyn_item_to_ddb_json (self->item));
  add_string (obj, "KeyConditionExpression", self->key_condition);
  add_string (obj, "FilterExpression", self->filter);
  add_string (obj, "ConditionExpression", self->condition);
  add_string (obj, "UpdateExpression", self->update);
  add_string (obj, "ProjectionExpression", self->projection);

  if (self->names != NULL && g_hash_table_size (self->names) > 0)
    {
      g_autoptr(GPtrArray) keys = _dyn_request_sorted_keys (self->names);
      JsonObject *names = json_object_new ();

      for (guint i = 0; i < keys->len; i++)
        json_object_set_string_member (names, keys->pdata[i],
                                       g_hash_table_lookup (self->names, keys->pdata[i]));
      json_object_set_object_member (obj, "ExpressionAttributeNames", names);
    }
  if (self->values != NULL && g_hash_table_size (self->values) > 0)
    {
      g_autoptr(GPtrArray) keys = _dyn_request_sorted_keys (self->values);
      JsonObject *values = json_object_new ();

      for (guint i = 0; i < keys->len; i++)
        json_object_set_member (values, keys->pdata[i],
                                dyn_value_to_ddb_json (g_hash_table_lookup (self->values, keys->pdata[i])));
      json_object_set_object_member (obj, "ExpressionAttributeValues", values);
    }

  add_string (obj, "ReturnValues", self->return_values);
  add_string (obj, "ReturnValuesOnConditionCheckFailure", self->return_values_on_condition_check_failure);
  add_string (obj, "Select", self->select);
  if (self->limit > 0)
    json_object_set_int_member (obj, "Limit", self->limit);
  if (self->consistent_read && self->op != DYN_OP_PUT_ITEM &&
      self->op != DYN_OP_UPDATE_ITEM && self->op != DYN_OP_DELETE_ITEM)
    json_object_set_boolean_member (obj, "ConsistentRead", TRUE);
  if (self->op == DYN_OP_QUERY && !self->scan_forward)
    json_object_set_boolean_member (obj, "ScanIndexForward", FALSE);
  if (self->op == DYN_OP_SCAN && self->total_segments > 0)
    {
      json_object_set_int_member (obj, "Segment", self->segment);
      json_object_set_int_member (obj, "TotalSegments", self->total_segments);
    }
  if (self->exclusive_start_key != NULL)
    json_object_set_member (obj, "ExclusiveStartKey", dyn_item_to_ddb_json (self->exclusive_start_key));
  if (self->return_consumed_capacity)
    json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, obj);
  return node;
}
