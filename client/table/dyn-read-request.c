/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-read-request"

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-diff.h"
#include "dyn-error.h"
#include "dyn-read-request.h"

struct _DynReadRequest
{
  GObject         parent_instance;

  DynTableKeys   *keys;           /* NULL: unknown */
  char           *table;
  char           *index;
  DynReadMode     mode;
  DynExprPlan    *plan;
  DynExprContext *context;
  DynRequest     *request;
  GError         *error;
  const char     *error_field;
  char           *suggested_index;
  char           *suggestion;
  DynExprNode    *suggested_key_condition;
  char           *reason;
  gboolean        first_page_only;
};

G_DEFINE_FINAL_TYPE (DynReadRequest, dyn_read_request, G_TYPE_OBJECT)

/* ------------------------------------------------------------------------ */
/* Compiling */

typedef struct
{
  DynExprRole  role;
  DynExprNode *node;    /* borrowed; NULL: none */
} Slot;

static char **
request_field (DynRequest  *request,
               DynExprRole  role)
{
  switch (role)
    {
    case DYN_EXPR_ROLE_KEY_CONDITION: return &request->key_condition;
    case DYN_EXPR_ROLE_FILTER: return &request->filter;
    case DYN_EXPR_ROLE_CONDITION: return &request->condition;
    case DYN_EXPR_ROLE_UPDATE: return &request->update;
    case DYN_EXPR_ROLE_PROJECTION: return &request->projection;
    default: g_return_val_if_reached (NULL);
    }
}

/* The value placeholder of the partition key's equality (":er" for
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

/* The value @node (a key condition) compares the top-level attribute @name
 * with for equality, or NULL. */
static DynValue *
partition_value (DynExprNode *node,
                 const char  *name)
{
  if (dyn_expr_node_get_kind (node) == DYN_EXPR_AND)
    {
      for (guint i = 0; i < dyn_expr_node_get_n_children (node); i++)
        {
          DynValue *v = partition_value (dyn_expr_node_get_child (node, i), name);

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
          g_strcmp0 (dyn_expr_path_get_top_name (dyn_expr_node_get_path (a)), name) == 0)
        return dyn_expr_node_get_value (b);
    }
  return NULL;
}

/* The partition attribute whose value in @node is a shard range (the one
 * dyn_expr_expand_sharded_key_condition() fans out), or NULL. */
static const char *
shard_attribute (DynExprNode        *node,
                 const DynKeySchema *keys)
{
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    {
      const char *name = dyn_key_schema_get_partition_key (keys, i, NULL);
      DynValue *v = partition_value (node, name);
      g_auto(GStrv) shards = NULL;

      if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_S)
        continue;
      shards = dyn_expr_expand_shard_range (dyn_value_get_string (v), NULL);
      if (shards != NULL)
        return name;
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

/* Without the table's keys, a key condition names its own: the attributes
 * compared for equality are partition attributes (up to four, a
 * multi-attribute key may have them; equalities beyond go to the sort
 * attributes), the others sort attributes, after the equalities. */
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

        if (name == NULL || dyn_key_schema_has_attribute (keys, name) || (pass == 0) != eq)
          continue;
        if (!eq || !dyn_key_schema_append (keys, FALSE, name, type))
          dyn_key_schema_append (keys, TRUE, name, type);
      }
  return keys;
}

/* Compiles the slots, in order, into @ctx and onto @request: the one path
 * every request's expressions take. @keys: the key schema of the source read
 * or written, NULL when unknown. On failure *failed names the slot. */
static gboolean
compile_slots (DynRequest          *request,
               DynExprContext      *ctx,
               const DynKeySchema  *keys,
               const Slot          *slots,
               guint                n_slots,
               DynExprRole         *failed,
               GError             **error)
{
  if (keys != NULL)
    dyn_expr_context_set_key_schema (ctx, keys);

  for (guint i = 0; i < n_slots; i++)
    {
      g_autoptr(DynExprNode) node = NULL;
      const char *compiled;
      char **field;

      if (slots[i].node == NULL)
        continue;
      *failed = slots[i].role;
      node = dyn_expr_node_ref (slots[i].node);
      if (slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION && keys != NULL)
        {
          /* A partition key given as a shard range ("WS#acme#01..10") fans out. */
          g_autoptr(GError) local_error = NULL;
          g_autoptr(GPtrArray) shards = dyn_expr_expand_sharded_key_condition (node, keys, &local_error);

          if (local_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          if (shards != NULL && shards->len > 0)
            {
              g_clear_pointer (&request->shard_values, g_ptr_array_unref);
              request->shard_values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
              const char *attribute = shard_attribute (node, keys);

              for (guint s = 0; attribute != NULL && s < shards->len; s++)
                {
                  DynValue *v = partition_value (shards->pdata[s], attribute);

                  if (v != NULL)
                    g_ptr_array_add (request->shard_values, dyn_value_ref (v));
                }
              g_clear_pointer (&node, dyn_expr_node_unref);
              node = dyn_expr_node_ref (shards->pdata[0]);
            }
        }
      if (slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION && keys == NULL)
        {
          g_autoptr(DynKeySchema) inferred = infer_key_schema (node);

          dyn_expr_context_set_key_schema (ctx, inferred);
        }
      compiled = dyn_expr_context_add (ctx, slots[i].role, node, error);
      if (compiled == NULL)
        return FALSE;
      field = request_field (request, slots[i].role);
      g_free (*field);
      *field = g_strdup (compiled);

      if (request->shard_values != NULL && slots[i].role == DYN_EXPR_ROLE_KEY_CONDITION)
        {
          g_free (request->shard_placeholder);
          request->shard_placeholder = g_strdup (placeholder_for (ctx, request->shard_values->pdata[0]));
        }
    }

  g_hash_table_unref (request->names);
  g_hash_table_unref (request->values);
  request->names = dyn_expr_context_dup_names (ctx);
  request->values = dyn_expr_context_dup_values (ctx);
  return TRUE;
}

static DynExprNode *
parse_text (const char   *text,
            DynExprRole   role,
            GHashTable   *names,
            GHashTable   *values,
            GHashTable   *used,
            gboolean     *dynamodb,
            GError      **error)
{
  if (text == NULL)
    return NULL;
  return dyn_expr_parse_full (text, role, names, values, used, dynamodb, NULL, error);
}

gboolean
dyn_request_compile_expressions (DynRequest          *request,
                                 const DynTableKeys  *table,
                                 const char          *key_condition,
                                 const char          *filter,
                                 const char          *condition,
                                 const char          *update,
                                 const char          *projection,
                                 GHashTable          *names,
                                 GHashTable          *values,
                                 GError             **error)
{
  const char *texts[DYN_EXPR_N_ROLES] = { NULL };
  DynExprNode *nodes[DYN_EXPR_N_ROLES] = { NULL };
  Slot slots[DYN_EXPR_N_ROLES];
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(GError) local_error = NULL;
  const DynIndexInfo *target = table ? dyn_table_keys_lookup (table, request->index) : NULL;
  DynExprRole failed = DYN_EXPR_ROLE_KEY_CONDITION;
  gboolean ok = TRUE;
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) no_names = NULL;
  g_autoptr(GHashTable) no_values = NULL;
  gboolean all_dynamodb = TRUE;

  g_return_val_if_fail (request != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (table != NULL && request->index != NULL && target == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is a table, the second an index */
                   _("Table %s has no index named %s"), request->table, request->index);
      return FALSE;
    }

  /* The maps given are checked as DynamoDB checks them; a placeholder no
   * map defines is an error, as it is for DynamoDB. */
  if (!dyn_expr_check_maps (NULL, names, values, error))
    return FALSE;
  if (names == NULL)
    names = no_names = g_hash_table_new (g_str_hash, g_str_equal);
  if (values == NULL)
    values = no_values = g_hash_table_new (g_str_hash, g_str_equal);

  texts[DYN_EXPR_ROLE_KEY_CONDITION] = key_condition;
  texts[DYN_EXPR_ROLE_FILTER] = filter;
  texts[DYN_EXPR_ROLE_CONDITION] = condition;
  texts[DYN_EXPR_ROLE_UPDATE] = update;
  texts[DYN_EXPR_ROLE_PROJECTION] = projection;
  for (guint i = 0; i < DYN_EXPR_N_ROLES && ok; i++)
    {
      gboolean dynamodb = FALSE;

      nodes[i] = parse_text (texts[i], i, names, values, used, &dynamodb, &local_error);
      if (texts[i] != NULL && !dynamodb)
        all_dynamodb = FALSE;
      slots[i].role = i;
      slots[i].node = nodes[i];
      if (texts[i] != NULL && nodes[i] == NULL)
        {
          failed = i;
          ok = FALSE;
        }
    }
  if (ok && nodes[DYN_EXPR_ROLE_UPDATE] != NULL &&
      !dyn_expr_validate_update_indexes (nodes[DYN_EXPR_ROLE_UPDATE], table, &local_error))
    {
      failed = DYN_EXPR_ROLE_UPDATE;
      ok = FALSE;
    }
  if (ok && !dyn_expr_check_maps (used, no_names ? NULL : names, no_values ? NULL : values, error))
    {
      for (guint i = 0; i < DYN_EXPR_N_ROLES; i++)
        g_clear_pointer (&nodes[i], dyn_expr_node_unref);
      return FALSE;
    }
  if (ok)
    ok = compile_slots (request, ctx, target ? &target->keys : NULL, slots, G_N_ELEMENTS (slots),
                        &failed, &local_error);
  if (!ok && all_dynamodb && dyn_expr_context_was_too_long (ctx) && request->shard_values == NULL)
    {
      /* DynamoDB's language, checked, and within 4 KB as written: the
       * compiled text only grew past the limit. Send it as written. */
      for (guint i = 0; i < DYN_EXPR_N_ROLES; i++)
        {
          char **field = request_field (request, i);

          g_free (*field);
          *field = g_strdup (texts[i]);
          g_clear_pointer (&nodes[i], dyn_expr_node_unref);
        }
      g_hash_table_unref (request->names);
      g_hash_table_unref (request->values);
      request->names = g_hash_table_ref (names);
      request->values = g_hash_table_ref (values);
      return TRUE;
    }
  for (guint i = 0; i < DYN_EXPR_N_ROLES; i++)
    g_clear_pointer (&nodes[i], dyn_expr_node_unref);
  if (!ok)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, "%s: %s",
                   dyn_expr_role_get_field (failed), local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject */

static void
dyn_read_request_finalize (GObject *object)
{
  DynReadRequest *self = DYN_READ_REQUEST (object);

  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_free (self->table);
  g_free (self->index);
  g_clear_pointer (&self->plan, dyn_expr_plan_free);
  g_clear_pointer (&self->context, dyn_expr_context_free);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_error (&self->error);
  g_free (self->suggested_index);
  g_free (self->suggestion);
  g_clear_pointer (&self->suggested_key_condition, dyn_expr_node_unref);
  g_free (self->reason);
  G_OBJECT_CLASS (dyn_read_request_parent_class)->finalize (object);
}

static void
dyn_read_request_class_init (DynReadRequestClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_read_request_finalize;
}

static void
dyn_read_request_init (DynReadRequest *self)
{
}

/* ------------------------------------------------------------------------ */
/* Building */

static void
fail (DynReadRequest *self,
      GError         *error,
      const char     *field)
{
  g_clear_error (&self->error);
  self->error = error;
  self->error_field = field;
  g_clear_pointer (&self->plan, dyn_expr_plan_free);
  g_clear_pointer (&self->context, dyn_expr_context_free);
  g_clear_pointer (&self->request, dyn_request_free);
  g_clear_pointer (&self->reason, g_free);
}

static void
take_suggestion (DynReadRequest *self,
                 DynExprPlan    *plan)
{
  if (plan->suggestion == NULL)
    return;
  self->suggested_index = g_strdup (plan->suggested_index);
  self->suggestion = g_strdup (plan->suggestion);
  if (plan->suggested_key_condition != NULL)
    self->suggested_key_condition = dyn_expr_node_ref (plan->suggested_key_condition);
}

/* A key condition that is not valid on the source read: is there a source
 * on which it is? */
static void
suggest_elsewhere (DynReadRequest *self,
                   DynExprNode    *key_condition,
                   DynExprNode    *filter)
{
  const DynIndexInfo *source = dyn_table_keys_lookup (self->keys, self->index);

  for (guint i = 0; i <= self->keys->indexes->len; i++)
    {
      const DynIndexInfo *cand = i == 0 ? &self->keys->table : self->keys->indexes->pdata[i - 1];
      g_autoptr(DynExprPlan) plan = NULL;

      if (cand == source)
        continue;
      plan = dyn_expr_plan (self->keys, cand->kind == DYN_INDEX_TABLE ? NULL : cand->name,
                            key_condition, filter, NULL);
      if (plan == NULL)
        continue;
      self->suggested_index = g_strdup (cand->kind == DYN_INDEX_TABLE ? self->table : cand->name);
      if (cand->kind == DYN_INDEX_TABLE)
        /* Translators: Query is the operation; %s is a table */
        self->suggestion = g_strdup_printf (_("Query on the table %s possible"), self->table);
      else
        /* Translators: Query is the operation; %s is an index */
        self->suggestion = g_strdup_printf (_("Query on index %s possible"), cand->name);
      self->suggested_key_condition = dyn_expr_node_ref (key_condition);
      return;
    }
}

/* @projection with the attributes of @keys it does not read yet, at its end. */
static DynExprNode *
projection_with_keys (DynExprNode        *projection,
                      const DynKeySchema *keys)
{
  for (guint k = 0; keys != NULL && k < dyn_key_schema_get_n_attributes (keys); k++)
    {
      const char *name = dyn_key_schema_get_attribute (keys, k, NULL);
      gboolean found = FALSE;

      for (guint i = 0; !found && i < dyn_expr_node_get_n_children (projection); i++)
        {
          DynExprNode *path = dyn_expr_node_get_child (projection, i);

          found = dyn_expr_node_get_kind (path) == DYN_EXPR_PATH &&
                  g_strcmp0 (dyn_expr_path_get_top_name (dyn_expr_node_get_path (path)), name) == 0;
        }
      if (!found)
        dyn_expr_node_add_child (projection, dyn_expr_node_new_name (name));
    }
  return projection;
}

static gboolean
is_base64 (const char *s)
{
  gsize n = 0;
  gsize pad = 0;

  for (const char *p = s; *p; p++, n++)
    {
      if (*p == '=')
        pad++;
      else if (pad > 0 || !(g_ascii_isalnum (*p) || *p == '+' || *p == '/'))
        return FALSE;
    }
  return n % 4 == 0 && pad <= 2;
}

/* The value of key attribute @name of @type as the user typed it. */
static DynValue *
parse_key_text (const char    *name,
                DynValueType   type,
                const char    *text,
                GError       **error)
{
  g_autofree char *stripped = g_strstrip (g_strdup (text ? text : ""));

  if ((type == DYN_VALUE_S && (text == NULL || text[0] == '\0')) || (type != DYN_VALUE_S && stripped[0] == '\0'))
    {
      /* Translators: %s is a key attribute */
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s: a key attribute must not be empty"), name);
      return NULL;
    }
  switch (type)
    {
    case DYN_VALUE_S:
      return dyn_value_new_string (text);
    case DYN_VALUE_N:
      {
        g_autoptr(GError) local_error = NULL;
        DynValue *v = dyn_value_new_number (stripped, &local_error);
        g_autofree char *message = NULL;

        if (v != NULL)
          return v;
        message = g_strdup_printf (_("“%s” is not a DynamoDB number"), stripped);
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s: %s", name, message);
        return NULL;
      }
    case DYN_VALUE_B:
      {
        g_autofree char *message = NULL;
        guchar *data;
        gsize len = 0;

        if (is_base64 (stripped))
          {
            data = g_base64_decode (stripped, &len);
            return dyn_value_new_binary (g_bytes_new_take (data, len));
          }
        message = g_strdup_printf (_("Not valid Base64: %s"), stripped);
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s: %s", name, message);
        return NULL;
      }
    default:
      g_return_val_if_reached (NULL);
    }
}

/* The key of a GetItem as the spec gives it, checked against the table's
 * keys when they are known: every key attribute with its type, no other
 * attribute (DynamoDB: "The number of conditions on the keys is invalid"). */
static DynValue *
get_item_key (DynReadRequest     *self,
              const DynReadSpec  *spec,
              GError            **error)
{
  const DynKeySchema *keys = self->keys ? &self->keys->table.keys : NULL;
  g_autoptr(DynValue) key = NULL;

  if (spec->key != NULL)
    key = dyn_value_ref (spec->key);
  else if (spec->key_texts != NULL && keys != NULL)
    {
      guint n = g_strv_length ((char **) spec->key_texts);

      key = dyn_value_new_map ();
      for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
        {
          DynValueType type;
          const char *name = dyn_key_schema_get_attribute (keys, i, &type);
          DynValue *v = parse_key_text (name, type, i < n ? spec->key_texts[i] : NULL, error);

          if (v == NULL)
            return NULL;
          dyn_value_map_take (key, name, v);
        }
    }
  if (key == NULL || dyn_value_get_value_type (key) != DYN_VALUE_M)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           _("GetItem needs the full primary key of the item"));
      return NULL;
    }
  if (keys == NULL)
    return g_steal_pointer (&key);
  if (!dyn_item_check_key (key, keys, error))
    return NULL;
  for (guint i = 0; i < dyn_value_get_length (key); i++)
    {
      const char *name = dyn_value_map_get_name (key, i);

      if (!dyn_key_schema_has_attribute (keys, name))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: the first %s is an attribute, the second a table */
                       _("%s is not a key attribute of table %s: GetItem takes the primary key only"),
                       name, self->table);
          return NULL;
        }
    }
  return g_steal_pointer (&key);
}

/* "year = 2001 AND title = \"Heat\"": a key as the expression text says it. */
static char *
key_to_text (DynValue *key)
{
  g_autoptr(DynExprNode) node = NULL;

  for (guint i = 0; i < dyn_value_get_length (key); i++)
    {
      DynExprNode *eq = dyn_expr_node_new_compare (DYN_EXPR_OP_EQ,
                                                   dyn_expr_node_new_name (dyn_value_map_get_name (key, i)),
                                                   dyn_expr_node_new_value (dyn_value_map_get_value (key, i)));

      if (node == NULL)
        node = eq;
      else if (dyn_expr_node_get_kind (node) == DYN_EXPR_AND)
        dyn_expr_node_add_child (node, eq);
      else
        node = dyn_expr_node_new_binary (DYN_EXPR_AND, g_steal_pointer (&node), eq);
    }
  return node ? dyn_expr_node_to_string (node) : g_strdup ("");
}

/* A GetItem: the table, the key, a projection, consistency. */
static void
build_get_item (DynReadRequest    *self,
                const DynReadSpec *spec)
{
  g_autoptr(DynExprNode) projection = NULL;
  g_autoptr(DynValue) key = NULL;
  g_autofree char *key_text = NULL;
  GError *error = NULL;
  DynExprRole failed = DYN_EXPR_ROLE_PROJECTION;
  Slot slot;

  if (self->index != NULL)
    {
      fail (self, g_error_new (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                               /* Translators: GetItem is the operation; %s is an index */
                               _("GetItem reads the table, not the index %s"), self->index), "IndexName");
      return;
    }
  if (spec->key_condition != NULL || spec->key_condition_node != NULL ||
      spec->filter != NULL || spec->filter_node != NULL)
    {
      fail (self, g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                       _("GetItem takes the item's key, not a key condition or filter")), NULL);
      return;
    }
  if (spec->count_only)
    {
      fail (self, g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                       _("Count only (Select=COUNT) is for a Query or Scan, not a GetItem")), "Select");
      return;
    }
  key = get_item_key (self, spec, &error);
  if (key == NULL)
    {
      fail (self, error, "Key");
      return;
    }
  if (spec->projection_node != NULL)
    projection = dyn_expr_node_copy (spec->projection_node);
  else if (spec->projection != NULL)
    {
      g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(GHashTable) no_names = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(GHashTable) no_values = g_hash_table_new (g_str_hash, g_str_equal);

      if (!dyn_expr_check_maps (NULL, spec->names, spec->values, &error) ||
          (projection = parse_text (spec->projection, DYN_EXPR_ROLE_PROJECTION, spec->names ? spec->names : no_names,
                                    spec->values ? spec->values : no_values, used, NULL, &error)) == NULL ||
          !dyn_expr_check_maps (used, spec->names, NULL, &error))
        {
          fail (self, error, dyn_expr_role_get_field (DYN_EXPR_ROLE_PROJECTION));
          return;
        }
    }
  if (projection != NULL && spec->project_keys && self->keys != NULL)
    projection_with_keys (projection, &self->keys->table.keys);

  self->request = dyn_request_new (DYN_OP_GET_ITEM, self->table);
  self->request->key = dyn_value_ref (key);
  self->request->consistent_read = spec->consistent_read;
  self->context = dyn_expr_context_new ();
  slot = (Slot) { DYN_EXPR_ROLE_PROJECTION, projection };
  if (!compile_slots (self->request, self->context, self->keys ? &self->keys->table.keys : NULL,
                      &slot, 1, &failed, &error))
    {
      fail (self, error, dyn_expr_role_get_field (failed));
      return;
    }
  key_text = key_to_text (key);
  /* Translators: GetItem is the operation; %s is a key, e.g. year = 2001 AND title = "Heat" */
  self->reason = g_strdup_printf (_("GetItem of the one item with %s"), key_text);
}

DynReadRequest *
dyn_read_request_new (const DynTableKeys *keys,
                      const DynReadSpec  *spec)
{
  g_autoptr(DynReadRequest) self = NULL;
  g_autoptr(DynExprNode) key_condition = NULL;
  g_autoptr(DynExprNode) filter = NULL;
  g_autoptr(DynExprNode) projection = NULL;
  GError *error = NULL;
  const DynIndexInfo *source = NULL;
  DynExprNode *run_kc, *run_filter;
  DynOperation op;
  DynExprRole failed = DYN_EXPR_ROLE_KEY_CONDITION;
  Slot slots[3];

  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail (spec->table != NULL || keys != NULL, NULL);

  self = g_object_new (DYN_TYPE_READ_REQUEST, NULL);
  self->keys = keys ? dyn_table_keys_copy (keys) : NULL;
  self->table = g_strdup (spec->table ? spec->table : keys->table.name);
  self->mode = spec->mode;
  if (spec->index != NULL && spec->index[0] != '\0' && g_strcmp0 (spec->index, self->table) != 0)
    self->index = g_strdup (spec->index);

  if (self->keys != NULL)
    {
      source = dyn_table_keys_lookup (self->keys, self->index);
      if (source == NULL)
        {
          fail (self, g_error_new (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                   /* Translators: the first %s is a table, the second an index */
                                   _("Table %s has no index named %s"), self->table, self->index), NULL);
          return g_steal_pointer (&self);
        }
    }
  self->first_page_only = spec->first_page_only && spec->mode != DYN_READ_GET_ITEM;
  if (spec->mode == DYN_READ_GET_ITEM)
    {
      build_get_item (self, spec);
      return g_steal_pointer (&self);
    }

  /* What the user wrote. */
  {
    struct {
      DynExprRole   role;
      DynExprNode  *node;
      const char   *text;
      DynExprNode **out;
    } given[] = {
      { DYN_EXPR_ROLE_KEY_CONDITION, spec->key_condition_node, spec->key_condition, &key_condition },
      { DYN_EXPR_ROLE_FILTER, spec->filter_node, spec->filter, &filter },
      { DYN_EXPR_ROLE_PROJECTION, spec->projection_node, spec->projection, &projection },
    };

    g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(GHashTable) no_names = g_hash_table_new (g_str_hash, g_str_equal);
    g_autoptr(GHashTable) no_values = g_hash_table_new (g_str_hash, g_str_equal);
    gboolean any_text = FALSE;

    /* The maps given are checked as DynamoDB checks them, and a placeholder
     * no map defines is an error. */
    if (!dyn_expr_check_maps (NULL, spec->names, spec->values, &error))
      {
        fail (self, error, NULL);
        return g_steal_pointer (&self);
      }
    for (guint i = 0; i < G_N_ELEMENTS (given); i++)
      {
        if (given[i].node != NULL)
          *given[i].out = dyn_expr_node_ref (given[i].node);
        else if (given[i].text != NULL &&
                 (*given[i].out = parse_text (given[i].text, given[i].role,
                                              spec->names ? spec->names : no_names,
                                              spec->values ? spec->values : no_values,
                                              used, NULL, &error)) == NULL)
          {
            fail (self, error, dyn_expr_role_get_field (given[i].role));
            return g_steal_pointer (&self);
          }
        any_text |= given[i].node == NULL && given[i].text != NULL;
      }
    if (any_text && !dyn_expr_check_maps (used, spec->names, spec->values, &error))
      {
        fail (self, error, NULL);
        return g_steal_pointer (&self);
      }
  }

  /* The read options DynamoDB refuses, refused with its words. */
  if (spec->count_only && projection != NULL)
    {
      fail (self, g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                       _("Cannot specify the ProjectionExpression when choosing to get only the Count")),
            dyn_expr_role_get_field (DYN_EXPR_ROLE_PROJECTION));
      return g_steal_pointer (&self);
    }
  if (spec->consistent_read && source != NULL && source->kind == DYN_INDEX_GLOBAL)
    {
      fail (self, g_error_new_literal (DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                                       _("Consistent reads are not supported on global secondary indexes")),
            "ConsistentRead");
      return g_steal_pointer (&self);
    }
  if (projection != NULL && spec->project_keys && source != NULL)
    {
      /* The item's key, and its key in the index read, come with every item. */
      g_autoptr(DynExprNode) given = g_steal_pointer (&projection);

      projection = projection_with_keys (dyn_expr_node_copy (given), &self->keys->table.keys);
      projection_with_keys (projection, &source->keys);
    }

  /* The plan: what runs, and why. */
  if (self->keys != NULL && self->mode == DYN_READ_CONDITION)
    {
      self->plan = dyn_expr_plan_condition (self->keys, self->index, filter, &error);
      if (self->plan == NULL)
        {
          fail (self, error, NULL);
          return g_steal_pointer (&self);
        }
    }
  else if (self->keys != NULL)
    {
      if (key_condition != NULL &&
          !dyn_expr_validate_key_condition (self->keys, self->index, key_condition, &error))
        {
          suggest_elsewhere (self, key_condition, filter);
          fail (self, error, dyn_expr_role_get_field (DYN_EXPR_ROLE_KEY_CONDITION));
          return g_steal_pointer (&self);
        }
      if (filter != NULL &&
          !dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, key_condition ? &source->keys : NULL, &error))
        {
          fail (self, error, dyn_expr_role_get_field (DYN_EXPR_ROLE_FILTER));
          return g_steal_pointer (&self);
        }
      self->plan = dyn_expr_plan (self->keys, self->index, key_condition, filter, &error);
      if (self->plan == NULL)
        {
          fail (self, error, NULL);
          return g_steal_pointer (&self);
        }
    }
  if (self->plan != NULL)
    {
      take_suggestion (self, self->plan);
      self->reason = g_strdup (self->plan->reason);
      run_kc = self->plan->key_condition;
      run_filter = self->plan->filter;
      op = self->plan->operation == DYN_EXPR_PLAN_QUERY ? DYN_OP_QUERY : DYN_OP_SCAN;
    }
  else
    {
      /* Without the keys: as written, unchecked against them. */
      run_kc = self->mode == DYN_READ_EXPLICIT ? key_condition : NULL;
      run_filter = filter;
      op = run_kc != NULL ? DYN_OP_QUERY : DYN_OP_SCAN;
    }

  /* The request. */
  self->request = dyn_request_new (op, self->table);
  self->request->index = g_strdup (self->index);
  self->request->limit = MAX (spec->limit, 0);
  /* A Scan has no order to reverse. */
  self->request->scan_forward = op == DYN_OP_SCAN || !spec->descending;
  self->request->consistent_read = spec->consistent_read;
  if (spec->count_only)
    self->request->select = g_strdup ("COUNT");
  self->context = dyn_expr_context_new ();
  slots[0] = (Slot) { DYN_EXPR_ROLE_KEY_CONDITION, run_kc };
  slots[1] = (Slot) { DYN_EXPR_ROLE_FILTER, run_filter };
  slots[2] = (Slot) { DYN_EXPR_ROLE_PROJECTION, projection };
  if (!compile_slots (self->request, self->context, source ? &source->keys : NULL,
                      slots, G_N_ELEMENTS (slots), &failed, &error))
    {
      fail (self, error, dyn_expr_role_get_field (failed));
      return g_steal_pointer (&self);
    }
  return g_steal_pointer (&self);
}

/* ------------------------------------------------------------------------ */
/* Accessors */

gboolean
dyn_read_request_is_valid (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), FALSE);
  return self->error == NULL;
}

const GError *
dyn_read_request_get_error (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->error;
}

const char *
dyn_read_request_get_error_field (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->error_field;
}

const char *
dyn_read_request_get_table (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->table;
}

const char *
dyn_read_request_get_index (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->index;
}

DynReadMode
dyn_read_request_get_mode (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), DYN_READ_EXPLICIT);
  return self->mode;
}

DynOperation
dyn_read_request_get_operation (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), DYN_OP_SCAN);
  return self->request ? self->request->op : DYN_OP_SCAN;
}

const DynExprPlan *
dyn_read_request_get_plan (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->plan;
}

const char *
dyn_read_request_get_reason (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->reason;
}

DynValue *
dyn_read_request_get_key (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->request != NULL && self->request->op == DYN_OP_GET_ITEM ? self->request->key : NULL;
}

gboolean
dyn_read_request_get_count_only (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), FALSE);
  return self->request != NULL && g_strcmp0 (self->request->select, "COUNT") == 0;
}

gboolean
dyn_read_request_get_first_page_only (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), FALSE);
  return self->first_page_only;
}

const char *
dyn_read_request_get_suggested_index (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->suggested_index;
}

const char *
dyn_read_request_get_suggestion (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->suggestion;
}

DynExprNode *
dyn_read_request_get_suggested_key_condition (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->suggested_key_condition;
}

const char *
dyn_read_request_get_expression (DynReadRequest *self,
                                 DynExprRole     role)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  g_return_val_if_fail ((guint) role < DYN_EXPR_N_ROLES, NULL);

  if (self->request == NULL)
    return NULL;
  return *request_field (self->request, role);
}

DynExprContext *
dyn_read_request_get_context (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->context;
}

const DynRequest *
dyn_read_request_get_request (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  return self->request;
}

JsonNode *
dyn_read_request_dup_body (DynReadRequest *self)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  g_return_val_if_fail (self->request != NULL, NULL);
  return dyn_request_to_json (self->request);
}

char *
dyn_read_request_dup_snippet (DynReadRequest     *self,
                              DynSnippetLanguage  lang,
                              const char         *endpoint,
                              const char         *region)
{
  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  g_return_val_if_fail (self->request != NULL, NULL);
  return dyn_snippet_generate (lang, self->request, endpoint, region);
}

DynPager *
dyn_read_request_new_pager (DynReadRequest *self,
                            DynClient      *client)
{
  const DynIndexInfo *source;
  DynPager *pager;

  g_return_val_if_fail (DYN_IS_READ_REQUEST (self), NULL);
  g_return_val_if_fail (DYN_IS_CLIENT (client), NULL);
  g_return_val_if_fail (self->request != NULL, NULL);

  if (self->request->shard_values != NULL && self->request->shard_placeholder != NULL)
    {
      source = self->keys ? dyn_table_keys_lookup (self->keys, self->index) : NULL;
      pager = dyn_pager_new_fan_out (client, self->request, self->request->shard_placeholder,
                                     self->request->shard_values, source ? source->keys.sort_key : NULL);
      if (source != NULL && dyn_key_schema_get_n_sort_keys (&source->keys) > 1)
        {
          g_autoptr(GPtrArray) names = g_ptr_array_new ();

          for (guint i = 0; i < dyn_key_schema_get_n_sort_keys (&source->keys); i++)
            g_ptr_array_add (names, (gpointer) dyn_key_schema_get_sort_key (&source->keys, i, NULL));
          g_ptr_array_add (names, NULL);
          dyn_pager_set_merge_keys (pager, (const char * const *) names->pdata);
        }
      return pager;
    }
  pager = dyn_pager_new (client, self->request);
  dyn_pager_set_first_page_only (pager, self->first_page_only);
  return pager;
}
