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

/* Whether @t is a key condition on sort attribute @j of @keys, after
 * equalities on the partition attributes and on the sort attributes before
 * @j: the key-condition rules decide. */
static gboolean
term_is_sort_condition (DynExprNode        *t,
                        const DynKeySchema *keys,
                        guint               j)
{
  g_autoptr(DynExprNode) probe = NULL;
  DynExprNode *sort_terms[DYN_KEY_MAX_ATTRIBUTES];

  if (j >= dyn_key_schema_get_n_sort_keys (keys))
    return FALSE;
  if (t->kind != DYN_EXPR_COMPARE && t->kind != DYN_EXPR_BETWEEN && t->kind != DYN_EXPR_BEGINS_WITH)
    return FALSE;
  probe = dyn_expr_node_new (DYN_EXPR_AND);
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    g_ptr_array_add (probe->children,
                     dyn_expr_node_new_compare (DYN_EXPR_OP_EQ,
                                                dyn_expr_node_new_name (dyn_key_schema_get_partition_key (keys, i, NULL)),
                                                dyn_expr_node_new_placeholder (":x")));
  for (guint i = 0; i < j; i++)
    g_ptr_array_add (probe->children,
                     dyn_expr_node_new_compare (DYN_EXPR_OP_EQ,
                                                dyn_expr_node_new_name (dyn_key_schema_get_sort_key (keys, i, NULL)),
                                                dyn_expr_node_new_placeholder (":x")));
  g_ptr_array_add (probe->children, dyn_expr_node_ref (t));
  return _dyn_expr_analyse_key_terms (probe, keys, NULL, sort_terms, NULL) && sort_terms[j] == t;
}

/* Splits @filter's top-level conjuncts for a Query on @info: an equality on
 * each partition attribute, then the sort attributes left to right, an
 * equality on each until one has another key condition (or none). */
static gboolean
try_split (DynExprNode         *filter,
           const DynIndexInfo  *info,
           DynExprNode        **key_condition,
           DynExprNode        **rest)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(GPtrArray) used = g_ptr_array_new ();
  g_autoptr(DynExprNode) kc = NULL;
  g_autoptr(DynExprNode) remaining = NULL;
  const DynKeySchema *keys = &info->keys;

  _dyn_expr_collect_conjuncts (filter, terms);
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_partition_key (keys, i, &type);
      DynExprNode *eq = NULL;

      for (guint k = 0; k < terms->len && eq == NULL; k++)
        if (!g_ptr_array_find (used, terms->pdata[k], NULL) && term_is_key_equality (terms->pdata[k], name, type))
          eq = terms->pdata[k];
      if (eq == NULL)
        return FALSE;
      g_ptr_array_add (used, eq);
    }
  for (guint j = 0; j < dyn_key_schema_get_n_sort_keys (keys); j++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_sort_key (keys, j, &type);
      DynExprNode *found = NULL;
      gboolean equality = FALSE;

      /* An equality lets the next sort attribute in; a range ends the key. */
      for (guint k = 0; k < terms->len && found == NULL; k++)
        if (!g_ptr_array_find (used, terms->pdata[k], NULL) && term_is_key_equality (terms->pdata[k], name, type) &&
            j + 1 < dyn_key_schema_get_n_sort_keys (keys))
          {
            found = terms->pdata[k];
            equality = TRUE;
          }
      for (guint k = 0; k < terms->len && found == NULL; k++)
        if (!g_ptr_array_find (used, terms->pdata[k], NULL) && term_is_sort_condition (terms->pdata[k], keys, j))
          found = terms->pdata[k];
      if (found == NULL)
        break;
      g_ptr_array_add (used, found);
      if (!equality)
        break;
    }

  if (used->len == 1)
    kc = dyn_expr_node_copy (used->pdata[0]);
  else
    {
      kc = dyn_expr_node_new (DYN_EXPR_AND);
      for (guint i = 0; i < used->len; i++)
        g_ptr_array_add (kc->children, dyn_expr_node_copy (used->pdata[i]));
    }

  remaining = dyn_expr_node_new (DYN_EXPR_AND);
  for (guint i = 0; i < terms->len; i++)
    if (!g_ptr_array_find (used, terms->pdata[i], NULL))
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

/* The sort attributes @kc uses, in key order, joined by ", "; NULL for none. */
static char *
used_sort_names (DynExprNode        *kc,
                 const DynKeySchema *keys)
{
  DynExprNode *sort_terms[DYN_KEY_MAX_ATTRIBUTES];
  GString *out = NULL;

  if (!_dyn_expr_analyse_key_terms (kc, keys, NULL, sort_terms, NULL))
    return NULL;
  for (guint j = 0; j < dyn_key_schema_get_n_sort_keys (keys) && sort_terms[j] != NULL; j++)
    {
      if (out == NULL)
        out = g_string_new (NULL);
      else
        g_string_append (out, ", ");
      g_string_append (out, dyn_key_schema_get_sort_key (keys, j, NULL));
    }
  return out ? g_string_free (out, FALSE) : NULL;
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
  g_autofree char *sort_names = NULL;

  plan->suggested_index = g_strdup (cand->kind == DYN_INDEX_TABLE ? (cand->name ? cand->name : "")
                                                                   : cand->name);
  plan->suggested_key_condition = kc;
  plan->suggested_filter = rest;
  if (narrower && dyn_key_schema_get_n_sort_keys (&cand->keys) > 1)
    sort_names = used_sort_names (kc, &cand->keys);
  if (sort_names != NULL && strchr (sort_names, ',') != NULL)
    /* Translators: Query is the operation; the first %s is an index, the second lists the sort key
     * attributes the key condition uses: “r1, r2” */
    plan->suggestion = g_strdup_printf (_("Query on index %s possible: its sort key attributes %s narrow the read"),
                                        cand->name, sort_names);
  else if (cand->kind != DYN_INDEX_TABLE && narrower)
    /* Translators: Query is the operation; the first %s is an index, the second its sort key */
    plan->suggestion = g_strdup_printf (_("Query on index %s possible: its sort key %s narrows the read"),
                                        cand->name, sort_names ? sort_names : cand->keys.sort_key);
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
          !dyn_key_schema_same_partition (&cand->keys, &info->keys) ||
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
           dyn_key_schema_same_partition (&cand->keys, &best->keys)))
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

/* The conditions of @terms (in key order) joined by " AND ", or NULL. */
static char *
describe_terms (DynExprNode * const *terms,
                guint                n)
{
  GString *out = NULL;

  for (guint j = 0; j < n; j++)
    {
      g_autofree char *text = NULL;

      if (terms[j] == NULL)
        continue;
      text = describe_term (terms[j]);
      if (out == NULL)
        out = g_string_new (NULL);
      else
        g_string_append (out, " AND ");
      g_string_append (out, text);
    }
  return out ? g_string_free (out, FALSE) : NULL;
}

/* Every key attribute's condition: a multi-attribute key's are joined. */
static void
set_query_reason (DynExprPlan        *plan,
                  const DynIndexInfo *info,
                  DynExprNode        *key_condition)
{
  DynExprNode *pt[DYN_KEY_MAX_ATTRIBUTES] = { NULL }, *st[DYN_KEY_MAX_ATTRIBUTES] = { NULL };
  g_autofree char *pk_text = NULL;
  g_autofree char *sk_text = NULL;
  gboolean sk;

  _dyn_expr_analyse_key_terms (key_condition, &info->keys, pt, st, NULL);
  pk_text = describe_terms (pt, DYN_KEY_MAX_ATTRIBUTES);
  if (pk_text == NULL)
    pk_text = g_strdup ("");
  sk_text = describe_terms (st, DYN_KEY_MAX_ATTRIBUTES);
  sk = sk_text != NULL;
  if (info->kind != DYN_INDEX_TABLE && sk)
    /* Translators: Query is the operation; the first %s is an index, the second the condition on its
     * partition key (pk = "a"), the third the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on index %s: partition key %s, sort key %s"),
                                    info->name, pk_text, sk_text);
  else if (info->kind != DYN_INDEX_TABLE)
    /* Translators: Query is the operation; the first %s is an index, the second the condition on its
     * partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on index %s: partition key %s"), info->name, pk_text);
  else if (info->name != NULL && sk)
    /* Translators: Query is the operation; the first %s is a table, the second the condition on its
     * partition key (pk = "a"), the third the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on table %s: partition key %s, sort key %s"),
                                    info->name, pk_text, sk_text);
  else if (info->name != NULL)
    /* Translators: Query is the operation; the first %s is a table, the second the condition on its
     * partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on table %s: partition key %s"), info->name, pk_text);
  else if (sk)
    /* Translators: Query is the operation; the first %s is the condition on the table's partition key
     * (pk = "a"), the second the one on its sort key (sk > 3) */
    plan->reason = g_strdup_printf (_("Query on table: partition key %s, sort key %s"), pk_text, sk_text);
  else
    /* Translators: Query is the operation; %s is the condition on the table's partition key (pk = "a") */
    plan->reason = g_strdup_printf (_("Query on table: partition key %s"), pk_text);
}

typedef enum {
  SCAN_NO_CONDITION,
  SCAN_NO_EQUALITY,
  SCAN_IN_FILTER,
} ScanReason;

/* Why a read of @info is a Scan, naming its partition key: every attribute
 * of a multi-attribute one. */
static char *
scan_reason (const DynIndexInfo *info,
             ScanReason          why)
{
  g_autofree char *names = dyn_key_schema_join_names (&info->keys, FALSE);
  gboolean multi = dyn_key_schema_get_n_partition_keys (&info->keys) > 1;

  switch (why)
    {
    case SCAN_NO_CONDITION:
      if (multi)
        /* Translators: Scan is the operation; %s lists the partition key attributes: “tenant, region” */
        return g_strdup_printf (_("Scan: no condition on the partition key attributes %s"), names);
      /* Translators: Scan is the operation; %s is the partition key's name */
      return g_strdup_printf (_("Scan: no condition on the partition key %s"), names);
    case SCAN_NO_EQUALITY:
      if (multi)
        /* Translators: Scan is the operation; %s lists the partition key attributes: “tenant, region” */
        return g_strdup_printf (_("Scan: no equality on each of the partition key attributes %s"), names);
      /* Translators: Scan is the operation; %s is the partition key's name */
      return g_strdup_printf (_("Scan: no equality on the partition key %s"), names);
    case SCAN_IN_FILTER:
    default:
      if (multi)
        /* Translators: Scan is the operation; %s lists the partition key attributes: “tenant, region” */
        return g_strdup_printf (_("Scan: the equalities on the partition key attributes %s are in the "
                                  "filter, not in the key condition"), names);
      /* Translators: Scan is the operation; %s is the partition key's name */
      return g_strdup_printf (_("Scan: the equality on the partition key %s is in the filter, "
                                "not in the key condition"), names);
    }
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
      plan->reason = scan_reason (info, SCAN_NO_CONDITION);
      return g_steal_pointer (&plan);
    }

  plan->reason = scan_reason (info, SCAN_NO_EQUALITY);

  /* Could the filter run as a Query: first on the chosen table/index, then
   * on the table, then on each index? */
  if (suggest_query (plan, table, info, filter, 0) != NULL && split_for_query (filter, info, &kc, &rest))
    {
      g_clear_pointer (&kc, dyn_expr_node_unref);
      g_clear_pointer (&rest, dyn_expr_node_unref);
      g_free (plan->reason);
      plan->reason = scan_reason (info, SCAN_IN_FILTER);
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
      if (!dyn_key_schema_find (keys, name, NULL, NULL, &type))
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
      plan->reason = scan_reason (info, SCAN_NO_CONDITION);
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
    plan->reason = scan_reason (info, SCAN_NO_EQUALITY);

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
  DynExprNode *pt[DYN_KEY_MAX_ATTRIBUTES];
  g_auto(GStrv) shards = NULL;
  GPtrArray *result;
  guint vi = 0, at = 0;

  g_return_val_if_fail (key_condition != NULL && keys != NULL, NULL);

  if (!_dyn_expr_analyse_key_terms (key_condition, keys, pt, NULL, error))
    return NULL;
  /* The first partition attribute whose value is a shard range fans out. */
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys) && shards == NULL; i++)
    {
      GError *local_error = NULL;
      DynExprNode *value_node;

      vi = ((DynExprNode *) pt[i]->children->pdata[0])->kind == DYN_EXPR_VALUE ? 0 : 1;
      value_node = pt[i]->children->pdata[vi];
      if (value_node->value == NULL || dyn_value_get_value_type (value_node->value) != DYN_VALUE_S)
        continue;
      shards = dyn_expr_expand_shard_range (dyn_value_get_string (value_node->value), &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, local_error);
          return NULL;
        }
      at = i;
    }
  if (shards == NULL)
    return NULL;

  result = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_expr_node_unref);
  for (guint i = 0; shards[i] != NULL; i++)
    {
      g_autoptr(DynValue) v = dyn_value_new_string (shards[i]);
      DynExprNode *copy = dyn_expr_node_copy (key_condition);
      DynExprNode *cpt[DYN_KEY_MAX_ATTRIBUTES];

      _dyn_expr_analyse_key_terms (copy, keys, cpt, NULL, NULL);
      dyn_expr_node_set_value (cpt[at]->children->pdata[vi], v);
      g_ptr_array_add (result, copy);
    }
  return result;
}
