/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

/* The planner: whether a read is a Query or a Scan, on which source, why,
 * and which index would make it a Query. */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

/* ------------------------------------------------------------------------ */
/* Planner */

void
dyn_expr_plan_free (DynExprPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->index_name);
  g_free (plan->reason);
  g_clear_pointer (&plan->key_condition, dyn_expr_node_unref);
  g_clear_pointer (&plan->filter, dyn_expr_node_unref);
  g_free (plan->suggested_index);
  g_free (plan->suggestion);
  g_clear_pointer (&plan->suggested_key_condition, dyn_expr_node_unref);
  g_clear_pointer (&plan->suggested_filter, dyn_expr_node_unref);
  g_free (plan);
}

static char *
describe_term (DynExprNode *term)
{
  g_autofree char *text = dyn_expr_node_to_string (term);

  return g_steal_pointer (&text);
}

/* The term of a top-level conjunct "key = value" (value inline or placeholder). */
static gboolean
term_is_key_equality (DynExprNode  *t,
                      const char   *key,
                      DynValueType  key_type)
{
  DynExprNode *a, *b;

  if (t->kind != DYN_EXPR_COMPARE || t->op != DYN_EXPR_OP_EQ || t->children->len != 2)
    return FALSE;
  a = t->children->pdata[0];
  b = t->children->pdata[1];
  if (a->kind != DYN_EXPR_PATH)
    {
      DynExprNode *tmp = a;
      a = b;
      b = tmp;
    }
  return a->kind == DYN_EXPR_PATH && b->kind == DYN_EXPR_VALUE &&
         g_strcmp0 (dyn_expr_path_get_top_name (a->path), key) == 0 &&
         (b->value == NULL || dyn_value_get_value_type (b->value) == key_type);
}

static gboolean
term_is_sort_condition (DynExprNode        *t,
                        const DynKeySchema *keys)
{
  g_autoptr(DynExprNode) probe = NULL;
  DynKeySchema only_sort;

  if (keys->sort_key == NULL)
    return FALSE;
  if (t->kind != DYN_EXPR_COMPARE && t->kind != DYN_EXPR_BETWEEN && t->kind != DYN_EXPR_BEGINS_WITH)
    return FALSE;
  /* Reuse the key-condition rules: "pk = x AND <term>" must pass. */
  only_sort = *keys;
  probe = dyn_expr_node_new (DYN_EXPR_AND);
  g_ptr_array_add (probe->children,
                   dyn_expr_node_new_compare (DYN_EXPR_OP_EQ, dyn_expr_node_new_name (keys->partition_key),
                                              dyn_expr_node_new_placeholder (":x")));
  g_ptr_array_add (probe->children, dyn_expr_node_ref (t));
  return _dyn_expr_analyse_key_condition (probe, &only_sort, NULL, NULL, NULL);
}

/* Splits @filter's top-level conjuncts for a Query on @info. */
static gboolean
try_split (DynExprNode         *filter,
           const DynIndexInfo  *info,
           DynExprNode        **key_condition,
           DynExprNode        **rest)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *pk = NULL;
  DynExprNode *sk = NULL;
  g_autoptr(DynExprNode) kc = NULL;
  g_autoptr(DynExprNode) remaining = NULL;

  _dyn_expr_collect_conjuncts (filter, terms);
  for (guint i = 0; i < terms->len && pk == NULL; i++)
    if (term_is_key_equality (terms->pdata[i], info->keys.partition_key, info->keys.partition_type))
      pk = terms->pdata[i];
  if (pk == NULL)
    return FALSE;
  for (guint i = 0; i < terms->len && sk == NULL; i++)
    if (terms->pdata[i] != pk && term_is_sort_condition (terms->pdata[i], &info->keys))
      sk = terms->pdata[i];

  kc = dyn_expr_node_copy (pk);
  if (sk != NULL)
    kc = dyn_expr_node_new_binary (DYN_EXPR_AND, g_steal_pointer (&kc), dyn_expr_node_copy (sk));

  remaining = dyn_expr_node_new (DYN_EXPR_AND);
  for (guint i = 0; i < terms->len; i++)
    if (terms->pdata[i] != pk && terms->pdata[i] != sk)
      g_ptr_array_add (remaining->children, dyn_expr_node_copy (terms->pdata[i]));

  *key_condition = g_steal_pointer (&kc);
  if (remaining->children->len == 0)
    *rest = NULL;
  else if (remaining->children->len == 1)
    *rest = dyn_expr_node_ref (remaining->children->pdata[0]);
  else
    *rest = g_steal_pointer (&remaining);
  return TRUE;
}

/* try_split() whose rest DynamoDB takes as the Query's filter (which may not
 * name the key attributes of @info). */
static gboolean
split_for_query (DynExprNode         *condition,
                 const DynIndexInfo  *info,
                 DynExprNode        **key_condition,
                 DynExprNode        **rest)
{
  g_autoptr(DynExprNode) kc = NULL;
  g_autoptr(DynExprNode) remaining = NULL;

  if (!try_split (condition, info, &kc, &remaining))
    return FALSE;
  if (remaining != NULL && !_dyn_expr_request_check (remaining, &info->keys, NULL))
    return FALSE;
  *key_condition = g_steal_pointer (&kc);
  *rest = g_steal_pointer (&remaining);
  return TRUE;
}

static gboolean
key_condition_has_sort (DynExprNode        *key_condition,
                        const DynKeySchema *keys)
{
  DynExprNode *sk = NULL;

  return _dyn_expr_analyse_key_condition (key_condition, keys, NULL, &sk, NULL) && sk != NULL;
}

/* Where a Query could run instead: @info first, then the table, then each
 * index (borrowed pointers). */
static GPtrArray *
list_candidates (const DynTableKeys *table,
                 const DynIndexInfo *info)
{
  GPtrArray *candidates = g_ptr_array_new ();

  g_ptr_array_add (candidates, (gpointer) info);
  if (info != &table->table)
    g_ptr_array_add (candidates, (gpointer) &table->table);
  for (guint i = 0; i < table->indexes->len; i++)
    if (table->indexes->pdata[i] != info)
      g_ptr_array_add (candidates, table->indexes->pdata[i]);
  return candidates;
}

/* Takes @kc and @rest. @narrower: the suggestion reads fewer items by the
 * candidate's sort key. */
static void
set_suggestion (DynExprPlan        *plan,
                const DynIndexInfo *cand,
                DynExprNode        *kc,
                DynExprNode        *rest,
                gboolean            narrower)
{
  plan->suggested_index = g_strdup (cand->kind == DYN_INDEX_TABLE ? (cand->name ? cand->name : "")
                                                                   : cand->name);
  plan->suggested_key_condition = kc;
  plan->suggested_filter = rest;
  if (cand->kind != DYN_INDEX_TABLE && narrower)
    /* Translators: Query is the operation; the first %s is an index, the second its sort key */
    plan->suggestion = g_strdup_printf (_("Query on index %s possible: its sort key %s narrows the read"),
                                        cand->name, cand->keys.sort_key);
  else if (cand->kind != DYN_INDEX_TABLE)
    /* Translators: Query is the operation; %s is an index */
    plan->suggestion = g_strdup_printf (_("Query on index %s possible"), cand->name);
  else if (cand->name != NULL && narrower)
    /* Translators: Query is the operation; the first %s is a table, the second its sort key */
    plan->suggestion = g_strdup_printf (_("Query on the table %s possible: its sort key %s narrows the read"),
                                        cand->name, cand->keys.sort_key);
  else if (cand->name != NULL)
    /* Translators: Query is the operation; %s is a table */
    plan->suggestion = g_strdup_printf (_("Query on the table %s possible"), cand->name);
  else if (narrower)
    /* Translators: Query is the operation; %s is the table's sort key */
    plan->suggestion = g_strdup_printf (_("Query on the table possible: its sort key %s narrows the read"),
                                        cand->keys.sort_key);
  else
    /* Translators: Query is the operation */
    plan->suggestion = g_strdup (_("Query on the table possible"));
}

/* A Query without a sort-key condition: is there a source with the same
 * partition key whose sort key @condition also limits? Only sources that
 * return every attribute (a narrower read must not return less). */
static void
suggest_narrower (DynExprPlan        *plan,
                  const DynTableKeys *table,
                  const DynIndexInfo *info,
                  DynExprNode        *condition)
{
  g_autoptr(GPtrArray) candidates = list_candidates (table, info);

  for (guint i = 1; i < candidates->len; i++)
    {
      const DynIndexInfo *cand = candidates->pdata[i];
      DynExprNode *kc = NULL, *rest = NULL;

      if (cand->projection != DYN_PROJECTION_ALL ||
          g_strcmp0 (cand->keys.partition_key, info->keys.partition_key) != 0 ||
          !split_for_query (condition, cand, &kc, &rest))
        continue;
      if (!key_condition_has_sort (kc, &cand->keys))
        {
          dyn_expr_node_unref (kc);
          g_clear_pointer (&rest, dyn_expr_node_unref);
          continue;
        }
      set_suggestion (plan, cand, kc, rest, TRUE);
      return;
    }
}

/* A Scan of @info: the first source (of list_candidates(), from @first)
 * where @condition runs as a Query — or a later one with the same partition
 * key that also narrows it by its sort key. Returns the source suggested. */
static const DynIndexInfo *
suggest_query (DynExprPlan        *plan,
               const DynTableKeys *table,
               const DynIndexInfo *info,
               DynExprNode        *condition,
               guint               first)
{
  g_autoptr(GPtrArray) candidates = list_candidates (table, info);
  const DynIndexInfo *best = NULL;
  DynExprNode *best_kc = NULL, *best_rest = NULL;
  gboolean best_sorted = FALSE;

  for (guint i = first; i < candidates->len && !best_sorted; i++)
    {
      const DynIndexInfo *cand = candidates->pdata[i];
      DynExprNode *kc = NULL, *rest = NULL;
      gboolean sorted;

      if (!split_for_query (condition, cand, &kc, &rest))
        continue;
      sorted = key_condition_has_sort (kc, &cand->keys);
      if (best == NULL ||
          (sorted && cand->projection == DYN_PROJECTION_ALL &&
           g_strcmp0 (cand->keys.partition_key, best->keys.partition_key) == 0))
        {
          g_clear_pointer (&best_kc, dyn_expr_node_unref);
          g_clear_pointer (&best_rest, dyn_expr_node_unref);
          best = cand;
          best_kc = kc;
          best_rest = rest;
          best_sorted = sorted;
        }
      else
        {
          dyn_expr_node_unref (kc);
          g_clear_pointer (&rest, dyn_expr_node_unref);
        }
    }
  if (best != NULL)
    set_suggestion (plan, best, best_kc, best_rest, FALSE);
  return best;
}

static void
set_query_reason (DynExprPlan        *plan,
                  const DynIndexInfo *info,
                  DynExprNode        *key_condition)
{
  DynExprNode *pk = NULL, *sk = NULL;
  g_autofree char *pk_text = NULL;
  g_autofree char *sk_text = NULL;

  _dyn_expr_analyse_key_condition (key_condition, &info->keys, &pk, &sk, NULL);
  pk_text = pk ? describe_term (pk) : g_strdup ("");
  sk_text = sk ? describe_term (sk) : NULL;
  if (info->kind != DYN_INDEX_TABLE && sk != NULL)
    /* Translators: Query is the operation; the first %s is an index, the second the condition on its
     * partition key (pk = "a"), the third the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on index %s: partition key %s, sort key %s"),
                                    info->name, pk_text, sk_text);
  else if (info->kind != DYN_INDEX_TABLE)
    /* Translators: Query is the operation; the first %s is an index, the second the condition on its
     * partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on index %s: partition key %s"), info->name, pk_text);
  else if (info->name != NULL && sk != NULL)
    /* Translators: Query is the operation; the first %s is a table, the second the condition on its
     * partition key (pk = "a"), the third the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on table %s: partition key %s, sort key %s"),
                                    info->name, pk_text, sk_text);
  else if (info->name != NULL)
    /* Translators: Query is the operation; the first %s is a table, the second the condition on its
     * partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on table %s: partition key %s"), info->name, pk_text);
  else if (sk != NULL)
    /* Translators: Query is the operation; the first %s is the condition on the table's partition key
     * (pk = "a"), the second the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on table: partition key %s, sort key %s"), pk_text, sk_text);
  else
    /* Translators: Query is the operation; %s is the condition on the table's partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on table: partition key %s"), pk_text);
}

static DynExprNode *
conjunction (DynExprNode *a,
             DynExprNode *b)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  DynExprNode *and = dyn_expr_node_new (DYN_EXPR_AND);

  _dyn_expr_collect_conjuncts (a, terms);
  _dyn_expr_collect_conjuncts (b, terms);
  for (guint i = 0; i < terms->len; i++)
    g_ptr_array_add (and->children, dyn_expr_node_copy (terms->pdata[i]));
  return and;
}

DynExprPlan *
dyn_expr_plan (const DynTableKeys  *table,
               const char          *index_name,
               DynExprNode         *key_condition,
               DynExprNode         *filter,
               GError             **error)
{
  g_autoptr(DynExprPlan) plan = NULL;
  const DynIndexInfo *info;
  DynExprNode *kc = NULL, *rest = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  info = dyn_table_keys_lookup (table, index_name);
  if (info == NULL)
    {
      /* Translators: %s is an index name */
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("the table has no index %s"), index_name);
      return NULL;
    }

  plan = g_new0 (DynExprPlan, 1);
  plan->index_name = info->kind == DYN_INDEX_TABLE ? NULL : g_strdup (info->name);
  plan->key_condition = key_condition ? dyn_expr_node_ref (key_condition) : NULL;
  plan->filter = filter ? dyn_expr_node_ref (filter) : NULL;

  if (key_condition != NULL)
    {
      if (!dyn_expr_validate_key_condition (table, index_name, key_condition, error))
        return NULL;
      if (filter != NULL && !dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, &info->keys, error))
        return NULL;

      plan->operation = DYN_EXPR_PLAN_QUERY;
      set_query_reason (plan, info, key_condition);
      if (filter != NULL && !key_condition_has_sort (key_condition, &info->keys))
        {
          g_autoptr(DynExprNode) all = conjunction (key_condition, filter);

          suggest_narrower (plan, table, info, all);
        }
      return g_steal_pointer (&plan);
    }

  plan->operation = DYN_EXPR_PLAN_SCAN;
  if (filter != NULL && !dyn_expr_validate (filter, DYN_EXPR_ROLE_FILTER, NULL, error))
    return NULL;

  if (filter == NULL)
    {
      /* Translators: Scan is the operation; %s is the partition key's name */
      plan->reason = g_strdup_printf (_("Scan: no condition on the partition key %s"),
                                      info->keys.partition_key);
      return g_steal_pointer (&plan);
    }

  /* Translators: Scan is the operation; %s is the partition key's name */
  plan->reason = g_strdup_printf (_("Scan: no equality on the partition key %s"),
                                  info->keys.partition_key);

  /* Could the filter run as a Query: first on the chosen table/index, then
   * on the table, then on each index? */
  if (suggest_query (plan, table, info, filter, 0) != NULL && split_for_query (filter, info, &kc, &rest))
    {
      g_clear_pointer (&kc, dyn_expr_node_unref);
      g_clear_pointer (&rest, dyn_expr_node_unref);
      g_free (plan->reason);
      /* Translators: Scan is the operation; %s is the partition key's name */
      plan->reason = g_strdup_printf (_("Scan: the equality on the partition key %s is in the filter, "
                                        "not in the key condition"),
                                      info->keys.partition_key);
    }

  return g_steal_pointer (&plan);
}

/* A top-level condition on a key attribute of the source compares it with a
 * value of another type: no item can match, and a Query would refuse it. The
 * same message as the key condition's check. */
static gboolean
check_key_types (DynExprNode         *condition,
                 const DynKeySchema  *keys,
                 GError             **error)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();

  _dyn_expr_collect_conjuncts (condition, terms);
  for (guint i = 0; i < terms->len; i++)
    {
      DynExprNode *t = terms->pdata[i];
      DynExprNode *path = NULL;
      const char *name;
      DynValueType type;

      if (t->kind != DYN_EXPR_COMPARE && t->kind != DYN_EXPR_BETWEEN && t->kind != DYN_EXPR_BEGINS_WITH)
        continue;
      for (guint j = 0; j < t->children->len && path == NULL; j++)
        if (((DynExprNode *) t->children->pdata[j])->kind == DYN_EXPR_PATH)
          path = t->children->pdata[j];
      name = path ? dyn_expr_path_get_top_name (path->path) : NULL;
      if (name == NULL)
        continue;
      if (g_strcmp0 (name, keys->partition_key) == 0)
        type = keys->partition_type;
      else if (keys->sort_key != NULL && strcmp (name, keys->sort_key) == 0)
        type = keys->sort_type;
      else
        continue;
      for (guint j = 0; j < t->children->len; j++)
        {
          DynExprNode *v = t->children->pdata[j];

          if (v->kind == DYN_EXPR_VALUE && !_dyn_expr_check_key_value (v, name, type, error))
            return FALSE;
        }
    }
  return TRUE;
}

DynExprPlan *
dyn_expr_plan_condition (const DynTableKeys  *table,
                         const char          *index_name,
                         DynExprNode         *condition,
                         GError             **error)
{
  g_autoptr(DynExprPlan) plan = NULL;
  const DynIndexInfo *info;
  DynExprNode *kc = NULL, *rest = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  info = dyn_table_keys_lookup (table, index_name);
  if (info == NULL)
    {
      /* Translators: %s is an index name */
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION, _("the table has no index %s"), index_name);
      return NULL;
    }

  plan = g_new0 (DynExprPlan, 1);
  plan->index_name = info->kind == DYN_INDEX_TABLE ? NULL : g_strdup (info->name);

  if (condition == NULL)
    {
      plan->operation = DYN_EXPR_PLAN_SCAN;
      /* Translators: Scan is the operation; %s is the partition key's name */
      plan->reason = g_strdup_printf (_("Scan: no condition on the partition key %s"),
                                      info->keys.partition_key);
      return g_steal_pointer (&plan);
    }
  if (!dyn_expr_validate (condition, DYN_EXPR_ROLE_FILTER, NULL, error) ||
      !check_key_types (condition, &info->keys, error))
    return NULL;

  if (split_for_query (condition, info, &kc, &rest))
    {
      plan->operation = DYN_EXPR_PLAN_QUERY;
      plan->key_condition = kc;
      plan->filter = rest;
      set_query_reason (plan, info, kc);
      if (!key_condition_has_sort (kc, &info->keys))
        suggest_narrower (plan, table, info, condition);
      return g_steal_pointer (&plan);
    }

  plan->operation = DYN_EXPR_PLAN_SCAN;
  plan->filter = dyn_expr_node_ref (condition);
  if (try_split (condition, info, &kc, &rest))
    {
      /* The key attributes are compared more than a key condition allows,
       * and a Query's filter may not name them. */
      g_clear_pointer (&kc, dyn_expr_node_unref);
      g_clear_pointer (&rest, dyn_expr_node_unref);
      if (info->kind != DYN_INDEX_TABLE)
        /* Translators: Scan is the operation; %s is an index */
        plan->reason = g_strdup_printf (_("Scan: the conditions on the keys of index %s do not fit one "
                                          "key condition"), info->name);
      else if (info->name != NULL)
        /* Translators: Scan is the operation; %s is a table */
        plan->reason = g_strdup_printf (_("Scan: the conditions on the keys of table %s do not fit one "
                                          "key condition"), info->name);
      else
        /* Translators: Scan is the operation */
        plan->reason = g_strdup (_("Scan: the conditions on the keys of table do not fit one key condition"));
    }
  else
    /* Translators: Scan is the operation; %s is the partition key's name */
    plan->reason = g_strdup_printf (_("Scan: no equality on the partition key %s"),
                                    info->keys.partition_key);

  suggest_query (plan, table, info, condition, 1);
  return g_steal_pointer (&plan);
}

/* ------------------------------------------------------------------------ */
/* Sharded keys */

#define MAX_SHARDS 10000

GStrv
dyn_expr_expand_shard_range (const char  *value,
                             GError     **error)
{
  const char *dots, *lo_start, *hi_start;
  gsize lo_len, hi_len, width;
  guint64 lo, hi;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (value != NULL, NULL);

  dots = g_strrstr (value, "..");
  if (dots == NULL)
    return NULL;
  hi_start = dots + 2;
  hi_len = strlen (hi_start);
  if (hi_len == 0 || hi_len > 9)
    return NULL;
  for (gsize i = 0; i < hi_len; i++)
    if (!g_ascii_isdigit (hi_start[i]))
      return NULL;
  lo_start = dots;
  while (lo_start > value && g_ascii_isdigit (lo_start[-1]))
    lo_start--;
  lo_len = dots - lo_start;
  if (lo_len == 0 || lo_len > 9)
    return NULL;

  lo = g_ascii_strtoull (lo_start, NULL, 10);
  hi = g_ascii_strtoull (hi_start, NULL, 10);
  if (hi < lo)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is a range of shard numbers in a key, such as 10..01 */
                   _("the shard range %s runs backwards"), lo_start);
      return NULL;
    }
  if (hi - lo + 1 > MAX_SHARDS)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   /* Translators: %s is a range of shard numbers in a key, such as 0..99999, %d the limit */
                   _("the shard range %s has more than %d shards"), lo_start, MAX_SHARDS);
      return NULL;
    }

  /* "01..10" pads to the width of the lower bound; "1..10" does not pad. */
  width = lo_start[0] == '0' && lo_len > 1 ? lo_len : (lo_len == hi_len ? lo_len : 0);
  prefix = g_strndup (value, lo_start - value);
  builder = g_strv_builder_new ();
  for (guint64 n = lo; n <= hi; n++)
    {
      g_autofree char *key = g_strdup_printf ("%s%0*" G_GUINT64_FORMAT, prefix, (int) width, n);

      g_strv_builder_add (builder, key);
    }
  return g_strv_builder_end (builder);
}

GPtrArray *
dyn_expr_expand_sharded_key_condition (DynExprNode         *key_condition,
                                       const DynKeySchema  *keys,
                                       GError             **error)
{
  DynExprNode *pk = NULL;
  DynExprNode *value_node;
  g_auto(GStrv) shards = NULL;
  GError *local_error = NULL;
  GPtrArray *result;
  guint vi;

  g_return_val_if_fail (key_condition != NULL && keys != NULL, NULL);

  if (!_dyn_expr_analyse_key_condition (key_condition, keys, &pk, NULL, error))
    return NULL;
  vi = ((DynExprNode *) pk->children->pdata[0])->kind == DYN_EXPR_VALUE ? 0 : 1;
  value_node = pk->children->pdata[vi];
  if (value_node->value == NULL || dyn_value_get_value_type (value_node->value) != DYN_VALUE_S)
    return NULL;
  shards = dyn_expr_expand_shard_range (dyn_value_get_string (value_node->value), &local_error);
  if (shards == NULL)
    {
      if (local_error != NULL)
        g_propagate_error (error, local_error);
      return NULL;
    }

  result = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_expr_node_unref);
  for (guint i = 0; shards[i] != NULL; i++)
    {
      g_autoptr(DynValue) v = dyn_value_new_string (shards[i]);
      DynExprNode *copy = dyn_expr_node_copy (key_condition);
      DynExprNode *cpk = NULL;

      _dyn_expr_analyse_key_condition (copy, keys, &cpk, NULL, NULL);
      dyn_expr_node_set_value (cpk->children->pdata[vi], v);
      g_ptr_array_add (result, copy);
    }
  return result;
}
