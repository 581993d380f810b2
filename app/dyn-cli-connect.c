/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <string.h>

#include "dyn-cli-connect.h"
#include "dyn-config.h"
#include "dyn-http.h"
#include "dyn-json.h"
#include "dyn-table.h"

static gboolean
is_loopback_endpoint (const char *endpoint)
{
  return endpoint != NULL &&
         g_str_has_prefix (endpoint, "http://") &&
         dyn_http_check_endpoint (endpoint, FALSE, NULL);
}

DynClient *
dyn_cli_connect (const char  *profile,
                 const char  *region,
                 const char  *endpoint,
                 gboolean     insecure,
                 GError     **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) resolved = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *effective = NULL;

  options.profile = profile;
  options.region = region;
  options.endpoint_url = endpoint;

  resolved = dyn_profile_resolve (NULL, &options, &local_error);
  if (resolved == NULL &&
      g_error_matches (local_error, DYN_ERROR, DYN_ERROR_CREDENTIALS) &&
      is_loopback_endpoint (endpoint))
    {
      g_debug ("no credentials configured; using placeholder keys for %s", endpoint);
      g_clear_error (&local_error);
      options.access_key_id = "dynoscope";
      options.secret_access_key = "local";
      resolved = dyn_profile_resolve (NULL, &options, &local_error);
    }
  if (resolved == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  effective = dyn_profile_dup_effective_endpoint_url (resolved);
  if (insecure)
    return dyn_client_new_insecure (effective, dyn_profile_get_region (resolved),
                                    dyn_profile_get_credentials_provider (resolved), error);
  return dyn_client_new (effective, dyn_profile_get_region (resolved),
                         dyn_profile_get_credentials_provider (resolved), error);
}

static gboolean
parse_maps (DynRequest  *request,
            const char  *names_json,
            const char  *values_json,
            GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (names_json != NULL)
    {
      g_autoptr(JsonNode) node = dyn_json_parse (names_json, -1, &local_error);
      JsonObject *obj;
      g_autoptr(GList) members = NULL;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "--names must be a JSON object of \"#n\": \"name\"%s%s",
                       local_error ? ": " : "", local_error ? local_error->message : "");
          return FALSE;
        }
      obj = json_node_get_object (node);
      members = json_object_get_members (obj);
      for (GList *l = members; l; l = l->next)
        {
          JsonNode *v = json_object_get_member (obj, l->data);
          if (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_STRING)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           "--names: %s must map to a string", (char *) l->data);
              return FALSE;
            }
          dyn_request_add_name (request, l->data, json_node_get_string (v));
        }
    }

  if (values_json != NULL)
    {
      g_autoptr(DynValue) values = dyn_item_from_ddb_json_string (values_json, -1, &local_error);

      if (values == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "--values must be a JSON object of \":v\": DynamoDB JSON value: %s",
                       local_error->message);
          return FALSE;
        }
      for (guint i = 0; i < dyn_value_get_length (values); i++)
        dyn_request_add_value (request, dyn_value_map_get_name (values, i),
                               dyn_value_map_get_value (values, i));
    }
  return TRUE;
}

typedef struct
{
  DynExprRole  role;
  const char  *text;
  char       **field;
} ExprSlot;

/* Finds the value placeholder of the partition key's equality (":er" for
 * "#er = :er") in a compiled key condition: the one holding @value. */
static const char *
placeholder_for (DynExprContext *ctx,
                 DynValue       *value)
{
  for (guint i = 0; i < dyn_expr_context_get_n_values (ctx); i++)
    {
      DynValue *v = NULL;
      const char *name = dyn_expr_context_get_value (ctx, i, &v);
      if (v != NULL && dyn_value_equal (v, value))
        return name;
    }
  return NULL;
}

/* The partition-key value of a (single-shard) key condition. */
static DynValue *
partition_value (DynExprNode        *node,
                 const DynKeySchema *keys)
{
  if (dyn_expr_node_get_kind (node) == DYN_EXPR_AND)
    {
      for (guint i = 0; i < dyn_expr_node_get_n_children (node); i++)
        {
          DynValue *v = partition_value (dyn_expr_node_get_child (node, i), keys);
          if (v != NULL)
            return v;
        }
      return NULL;
    }
  if (dyn_expr_node_get_kind (node) == DYN_EXPR_COMPARE && dyn_expr_node_get_op (node) == DYN_EXPR_OP_EQ)
    {
      DynExprNode *a = dyn_expr_node_get_child (node, 0);
      DynExprNode *b = dyn_expr_node_get_child (node, 1);

      if (dyn_expr_node_get_kind (a) != DYN_EXPR_PATH)
        {
          DynExprNode *t = a;
          a = b;
          b = t;
        }
      if (dyn_expr_node_get_kind (a) == DYN_EXPR_PATH && dyn_expr_node_get_kind (b) == DYN_EXPR_VALUE &&
          g_strcmp0 (dyn_expr_path_get_top_name (dyn_expr_node_get_path (a)), keys->partition_key) == 0)
        return dyn_expr_node_get_value (b);
    }
  return NULL;
}

static DynExprNode *
path_operand (DynExprNode  *cond,
              DynValueType *type)
{
  DynExprNode *path = NULL;

  *type = DYN_VALUE_S;
  for (guint i = 0; i < dyn_expr_node_get_n_children (cond); i++)
    {
      DynExprNode *c = dyn_expr_node_get_child (cond, i);
      if (dyn_expr_node_get_kind (c) == DYN_EXPR_PATH && path == NULL)
        path = c;
      else if (dyn_expr_node_get_kind (c) == DYN_EXPR_VALUE && dyn_expr_node_get_value (c) != NULL)
        *type = dyn_value_get_value_type (dyn_expr_node_get_value (c));
    }
  return path;
}

/* Without a table to ask (the expr command), a key condition names its own
 * keys: the attribute compared for equality is the partition key, the other
 * one the sort key. */
static DynKeySchema *
infer_key_schema (DynExprNode *node)
{
  DynKeySchema *keys = g_new0 (DynKeySchema, 1);
  DynExprNode *single[] = { node };
  DynExprNode **conds = single;
  guint n = 1;
  g_autofree DynExprNode **children = NULL;

  if (dyn_expr_node_get_kind (node) == DYN_EXPR_AND)
    {
      n = dyn_expr_node_get_n_children (node);
      children = g_new0 (DynExprNode *, n);
      for (guint i = 0; i < n; i++)
        children[i] = dyn_expr_node_get_child (node, i);
      conds = children;
    }
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        DynValueType type;
        DynExprNode *path = path_operand (conds[i], &type);
        const char *name = path ? dyn_expr_path_get_top_name (dyn_expr_node_get_path (path)) : NULL;
        gboolean eq = dyn_expr_node_get_kind (conds[i]) == DYN_EXPR_COMPARE &&
                      dyn_expr_node_get_op (conds[i]) == DYN_EXPR_OP_EQ;

        if (name == NULL)
          continue;
        if (pass == 0 && eq && keys->partition_key == NULL)
          {
            keys->partition_key = g_strdup (name);
            keys->partition_type = type;
          }
        else if (pass == 1 && keys->sort_key == NULL && g_strcmp0 (name, keys->partition_key) != 0)
          {
            keys->sort_key = g_strdup (name);
            keys->sort_type = type;
          }
      }
  return keys;
}

static void
key_schema_free (DynKeySchema *keys)
{
  g_free (keys->partition_key);
  g_free (keys->sort_key);
  g_free (keys);
}

gboolean
dyn_cli_set_expressions (DynRequest          *request,
                         const DynTableKeys  *table,
                         const char          *key_condition,
                         const char          *filter,
                         const char          *condition,
                         const char          *update,
                         const char          *projection,
                         const char          *names_json,
                         const char          *values_json,
                         GError             **error)
{
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(DynRequest) maps = dyn_request_new (request->op, request->table);
  const DynIndexInfo *target = table ? dyn_table_keys_lookup (table, request->index) : NULL;
  ExprSlot slots[] = {
    { DYN_EXPR_ROLE_KEY_CONDITION, key_condition, &request->key_condition },
    { DYN_EXPR_ROLE_FILTER, filter, &request->filter },
    { DYN_EXPR_ROLE_CONDITION, condition, &request->condition },
    { DYN_EXPR_ROLE_UPDATE, update, &request->update },
    { DYN_EXPR_ROLE_PROJECTION, projection, &request->projection },
  };
  GHashTable *names, *values;

  if (table != NULL && request->index != NULL && target == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   "Table %s has no index named %s", request->table, request->index);
      return FALSE;
    }

  /* The user's maps are only for parsing: the compiler names placeholders anew. */
  if (!parse_maps (maps, names_json, values_json, error))
    return FALSE;
  names = (names_json != NULL) ? maps->names : NULL;
  values = (values_json != NULL) ? maps->values : NULL;
  if (target != NULL)
    dyn_expr_context_set_key_schema (ctx, &target->keys);

  for (guint i = 0; i < G_N_ELEMENTS (slots); i++)
    {
      g_autoptr(DynExprNode) node = NULL;
      g_autoptr(GError) local_error = NULL;
      glong offset = -1;
      const char *compiled;

      if (slots[i].text == NULL)
        continue;
      node = dyn_expr_parse (slots[i].text, slots[i].role, names, values, &offset, &local_error);
      if (node != NULL && slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION && target != NULL)
        {
          /* A partition key given as a shard range ("WS#acme#01..10") fans out. */
          g_autoptr(GPtrArray) shards = dyn_expr_expand_sharded_key_condition (node, &target->keys, &local_error);

          if (shards != NULL && shards->len > 0)
            {
              g_clear_pointer (&request->shard_values, g_ptr_array_unref);
              request->shard_values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
              for (guint s = 0; s < shards->len; s++)
                {
                  DynValue *v = partition_value (shards->pdata[s], &target->keys);
                  if (v != NULL)
                    g_ptr_array_add (request->shard_values, dyn_value_ref (v));
                }
              dyn_expr_node_unref (node);
              node = dyn_expr_node_ref (shards->pdata[0]);
            }
        }
      if (local_error != NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s: %s",
                       dyn_expr_role_get_field (slots[i].role), local_error->message);
          return FALSE;
        }
      if (target == NULL && slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION)
        {
          DynKeySchema *inferred = infer_key_schema (node);
          dyn_expr_context_set_key_schema (ctx, inferred);
          key_schema_free (inferred);
        }
      compiled = dyn_expr_context_add (ctx, slots[i].role, node, &local_error);
      if (compiled == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s: %s",
                       dyn_expr_role_get_field (slots[i].role), local_error->message);
          return FALSE;
        }
      g_free (*slots[i].field);
      *slots[i].field = g_strdup (compiled);

      if (request->shard_values != NULL && slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION)
        {
          const char *ph = placeholder_for (ctx, request->shard_values->pdata[0]);
          g_free (request->shard_placeholder);
          request->shard_placeholder = g_strdup (ph);
        }
    }

  g_hash_table_unref (request->names);
  g_hash_table_unref (request->values);
  request->names = dyn_expr_context_dup_names (ctx);
  request->values = dyn_expr_context_dup_values (ctx);
  return TRUE;
}

DynPager *
dyn_cli_new_pager (DynClient          *client,
                   const DynRequest   *request,
                   const DynTableKeys *table,
                   GError            **error)
{
  if (request->shard_values != NULL && request->shard_placeholder != NULL)
    {
      const DynIndexInfo *target = table ? dyn_table_keys_lookup (table, request->index) : NULL;
      return dyn_pager_new_fan_out (client, request, request->shard_placeholder, request->shard_values,
                                    target ? target->keys.sort_key : NULL);
    }
  return dyn_pager_new (client, request);
}

gboolean
dyn_cli_resolve_location (const char  *profile,
                          const char  *region,
                          const char  *endpoint,
                          char       **region_out,
                          char       **endpoint_out,
                          GError     **error)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) resolved = NULL;

  options.profile = profile;
  options.region = region;
  options.endpoint_url = endpoint;
  /* Placeholder keys: only the location is wanted, and a snippet never carries keys. */
  options.access_key_id = "snippet";
  options.secret_access_key = "snippet";
  resolved = dyn_profile_resolve (NULL, &options, error);
  if (resolved == NULL)
    return FALSE;
  *region_out = g_strdup (dyn_profile_get_region (resolved));
  *endpoint_out = g_strdup (dyn_profile_get_endpoint_url (resolved));
  return TRUE;
}
