/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The requests of an access path (built with client/expr, so names are
 * escaped and values exact) and the plan that EXPLAIN shows. */
#define G_LOG_DOMAIN "dyn-sql"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-sql-private.h"

/* Requests ---------------------------------------------------------------- */

static DynExprNode *
value_node (DynValue   *value,
            const char *attr)
{
  if (value != NULL)
    return dyn_expr_node_new_value (value);
  else
    {
      /* A value from another source: shown as a placeholder. */
      g_autoptr(GString) ph = g_string_new (":");
      for (const char *p = attr; *p; p++)
        if (g_ascii_isalnum (*p))
          g_string_append_c (ph, g_ascii_tolower (*p));
      g_string_append (ph, "_outer");
      return dyn_expr_node_new_placeholder (ph->str);
    }
}

static void
and_add (DynExprNode **and,
         DynExprNode  *node)
{
  if (*and == NULL)
    *and = dyn_expr_node_new (DYN_EXPR_AND);
  dyn_expr_node_add_child (*and, node);
}

static DynExprNode *
and_finish (DynExprNode *and)
{
  DynExprNode *only;

  if (and == NULL || dyn_expr_node_get_n_children (and) != 1)
    return and;
  only = dyn_expr_node_ref (dyn_expr_node_get_child (and, 0));
  dyn_expr_node_unref (and);
  return only;
}

static DynExprCompareOp
compare_op (DynSqlCond c)
{
  switch (c)
    {
    case DYN_SQL_COND_LT: return DYN_EXPR_OP_LT;
    case DYN_SQL_COND_LE: return DYN_EXPR_OP_LE;
    case DYN_SQL_COND_GT: return DYN_EXPR_OP_GT;
    case DYN_SQL_COND_GE: return DYN_EXPR_OP_GE;
    default: return DYN_EXPR_OP_EQ;
    }
}

JsonNode *
dyn_sql_build_request (DynSqlSource   *source,
                       DynSqlAccessOp  op,
                       GPtrArray      *partition,
                       GPtrArray      *sort_conds,
                       GPtrArray      *filters,
                       gboolean        forward,
                       char          **key_condition,
                       char          **filter,
                       GError        **error)
{
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(JsonBuilder) b = json_builder_new ();
  DynExprNode *key = NULL, *flt = NULL;
  const DynKeySchema *keys = &source->keys;

  if (op == DYN_SQL_ACCESS_QUERY)
    {
      dyn_expr_context_set_key_schema (ctx, keys);
      for (guint k = 0; k < dyn_key_schema_get_n_partition_keys (keys); k++)
        {
          const char *name = dyn_key_schema_get_partition_key (keys, k, NULL);
          DynValue *v = partition && k < partition->len ? partition->pdata[k] : NULL;
          and_add (&key, dyn_expr_node_new_compare (DYN_EXPR_OP_EQ, dyn_expr_node_new_name (name),
                                                    value_node (v, name)));
        }
      for (guint i = 0; sort_conds && i < sort_conds->len; i++)
        {
          DynSqlSortCond *c = sort_conds->pdata[i];
          DynSqlSortCond *next = i + 1 < sort_conds->len ? sort_conds->pdata[i + 1] : NULL;
          const char *name = dyn_key_schema_get_sort_key (keys, c->attr, NULL);

          if (c->cond == DYN_SQL_COND_GE && next && next->attr == c->attr && next->cond == DYN_SQL_COND_LE)
            {
              and_add (&key, dyn_expr_node_new_between (dyn_expr_node_new_name (name),
                                                        value_node (c->value, name),
                                                        value_node (next->value, name)));
              i++;
            }
          else if (c->cond == DYN_SQL_COND_BEGINS)
            and_add (&key, dyn_expr_node_new_binary (DYN_EXPR_BEGINS_WITH, dyn_expr_node_new_name (name),
                                                     value_node (c->value, name)));
          else
            and_add (&key, dyn_expr_node_new_compare (compare_op (c->cond), dyn_expr_node_new_name (name),
                                                      value_node (c->value, name)));
        }
      key = and_finish (key);
    }

  /* Filter equalities, several values of one name as IN. */
  for (guint i = 0; filters && i < filters->len; )
    {
      DynSqlFilter *f = filters->pdata[i];
      guint j = i + 1;

      while (j < filters->len && strcmp (((DynSqlFilter *) filters->pdata[j])->name, f->name) == 0)
        j++;
      if (j == i + 1)
        and_add (&flt, dyn_expr_node_new_compare (DYN_EXPR_OP_EQ, dyn_expr_node_new_name (f->name),
                                                  dyn_expr_node_new_value (f->value)));
      else
        {
          DynExprNode *in = dyn_expr_node_new (DYN_EXPR_IN);
          dyn_expr_node_add_child (in, dyn_expr_node_new_name (f->name));
          for (guint x = i; x < j; x++)
            dyn_expr_node_add_child (in, dyn_expr_node_new_value (((DynSqlFilter *) filters->pdata[x])->value));
          and_add (&flt, in);
        }
      i = j;
    }
  flt = and_finish (flt);

  if (key != NULL && dyn_expr_context_add (ctx, DYN_EXPR_ROLE_KEY_CONDITION, key, error) == NULL)
    goto fail;
  if (flt != NULL && dyn_expr_context_add (ctx, DYN_EXPR_ROLE_FILTER, flt, error) == NULL)
    goto fail;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "TableName");
  json_builder_add_string_value (b, source->table);
  if (source->index)
    {
      json_builder_set_member_name (b, "IndexName");
      json_builder_add_string_value (b, source->index);
    }
  dyn_expr_context_add_to_json (ctx, b);
  if (op == DYN_SQL_ACCESS_QUERY && !forward)
    {
      json_builder_set_member_name (b, "ScanIndexForward");
      json_builder_add_boolean_value (b, FALSE);
    }
  json_builder_set_member_name (b, "ReturnConsumedCapacity");
  json_builder_add_string_value (b, "TOTAL");
  json_builder_end_object (b);

  if (key_condition)
    *key_condition = g_strdup (dyn_expr_context_get_expression (ctx, DYN_EXPR_ROLE_KEY_CONDITION));
  if (filter)
    *filter = g_strdup (dyn_expr_context_get_expression (ctx, DYN_EXPR_ROLE_FILTER));
  g_clear_pointer (&key, dyn_expr_node_unref);
  g_clear_pointer (&flt, dyn_expr_node_unref);
  return json_builder_get_root (b);

fail:
  g_clear_pointer (&key, dyn_expr_node_unref);
  g_clear_pointer (&flt, dyn_expr_node_unref);
  return NULL;
}

/* Plans ------------------------------------------------------------------- */

struct _DynSqlPlan
{
  gint       ref_count;
  GStrv      columns;
  GArray    *steps;     /* DynSqlStep */
  GPtrArray *notes;     /* char*: what was read to know the sources */
};

G_DEFINE_BOXED_TYPE (DynSqlPlan, dyn_sql_plan, dyn_sql_plan_ref, dyn_sql_plan_unref)

static void
step_clear (DynSqlStep *s)
{
  g_free (s->source);
  g_free (s->operation);
  g_free (s->key_condition);
  g_free (s->filter);
  g_free (s->residual);
  g_free (s->fan_out);
  g_clear_pointer (&s->request, json_node_unref);
}

DynSqlPlan *
dyn_sql_plan_new (const char * const *columns)
{
  DynSqlPlan *self = g_new0 (DynSqlPlan, 1);

  self->ref_count = 1;
  self->columns = g_strdupv ((char **) columns);
  self->steps = g_array_new (FALSE, TRUE, sizeof (DynSqlStep));
  g_array_set_clear_func (self->steps, (GDestroyNotify) step_clear);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  return self;
}

DynSqlPlan *
dyn_sql_plan_ref (DynSqlPlan *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

void
dyn_sql_plan_unref (DynSqlPlan *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_strfreev (self->columns);
  g_array_unref (self->steps);
  g_ptr_array_unref (self->notes);
  g_free (self);
}

guint
dyn_sql_plan_get_n_steps (DynSqlPlan *self)
{
  return self->steps->len;
}

const DynSqlStep *
dyn_sql_plan_get_step (DynSqlPlan *self,
                       guint       i)
{
  g_return_val_if_fail (i < self->steps->len, NULL);
  return &g_array_index (self->steps, DynSqlStep, i);
}

const char * const *
dyn_sql_plan_get_columns (DynSqlPlan *self)
{
  return (const char * const *) self->columns;
}

gboolean
dyn_sql_plan_needs_scan (DynSqlPlan *self)
{
  for (guint i = 0; i < self->steps->len; i++)
    if (g_array_index (self->steps, DynSqlStep, i).is_scan)
      return TRUE;
  return FALSE;
}

void
dyn_sql_plan_add_note (DynSqlPlan *plan,
                       const char *note)
{
  g_ptr_array_add (plan->notes, g_strdup (note));
}

static const char *
operation_name (DynSqlAccessOp op)
{
  switch (op)
    {
    case DYN_SQL_ACCESS_GET: return "GetItem";
    case DYN_SQL_ACCESS_BATCH_GET: return "BatchGetItem";
    case DYN_SQL_ACCESS_QUERY: return "Query";
    default: return "Scan";
    }
}

/* The key attributes whose values come from another source, "CourseId". */
static char *
joined_attributes (DynSqlAccess *access)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < access->args->len; i++)
    {
      DynSqlArg *a = &g_array_index (access->args, DynSqlArg, i);
      const char *name;

      if (a->constant || a->role == DYN_SQL_ARG_FILTER)
        continue;
      name = a->role == DYN_SQL_ARG_PARTITION
        ? dyn_key_schema_get_partition_key (&access->source->keys, a->attr, NULL)
        : dyn_key_schema_get_sort_key (&access->source->keys, a->attr, NULL);
      if (s->len)
        g_string_append (s, ", ");
      g_string_append (s, name);
    }
  return s->len ? g_strdup (s->str) : NULL;
}

static gboolean
has_in (DynSqlAccess *access)
{
  for (guint i = 0; i < access->args->len; i++)
    if (g_array_index (access->args, DynSqlArg, i).in)
      return TRUE;
  return FALSE;
}

void
dyn_sql_plan_add_access (DynSqlPlan   *plan,
                         DynSqlAccess *access,
                         guint         depth,
                         DynSqlAccess *outer,
                         guint         segments)
{
  DynSqlStep step = { 0 };
  g_autoptr(GPtrArray) sort = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_sort_cond_free);
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_filter_free);
  g_autoptr(GPtrArray) partition = g_ptr_array_new ();
  g_autofree char *joined = joined_attributes (access);
  DynSqlAccessOp op = access->op;
  const DynKeySchema *keys = &access->source->keys;

  step.source = g_strdup (access->source->name);
  step.is_scan = op == DYN_SQL_ACCESS_SCAN;

  /* The conditions with their values where they are constants, else as
   * placeholders (":courseid_outer"). */
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    g_ptr_array_add (partition, NULL);
  for (guint i = 0; i < access->args->len; i++)
    {
      DynSqlArg *a = &g_array_index (access->args, DynSqlArg, i);

      if (a->role == DYN_SQL_ARG_PARTITION && !a->in && a->value)
        partition->pdata[a->attr] = a->value;
      else if (a->role == DYN_SQL_ARG_SORT && (op == DYN_SQL_ACCESS_QUERY))
        {
          DynSqlSortCond *c = g_new0 (DynSqlSortCond, 1);
          c->attr = a->attr;
          c->cond = a->cond;
          c->value = a->value ? dyn_value_ref (a->value) : NULL;
          g_ptr_array_add (sort, c);
        }
      else if (a->role == DYN_SQL_ARG_FILTER && a->value)
        {
          DynSqlFilter *f = g_new0 (DynSqlFilter, 1);
          f->name = g_strdup (((DynSqlColumn *) access->source->columns->pdata[a->attr])->name);
          f->value = dyn_value_ref (a->value);
          g_ptr_array_add (filters, f);
        }
    }

  if (op == DYN_SQL_ACCESS_GET || op == DYN_SQL_ACCESS_BATCH_GET)
    {
      g_autoptr(GString) kc = g_string_new (NULL);
      for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
        {
          const char *name = dyn_key_schema_get_attribute (keys, i, NULL);
          g_autofree char *q = dyn_sql_quote_identifier (name);
          g_string_append_printf (kc, "%s%s = …", i ? " AND " : "", name);
        }
      step.key_condition = g_strdup (kc->str);
      step.request = dyn_sql_build_request (access->source, DYN_SQL_ACCESS_SCAN, NULL, NULL, NULL, TRUE,
                                            NULL, NULL, NULL);
      /* Several keys of one call: BatchGetItem whether they come from an
       * IN list or from a join. */
      if (joined != NULL)
        op = DYN_SQL_ACCESS_BATCH_GET;
    }
  else
    {
      g_autoptr(GError) error = NULL;

      step.request = dyn_sql_build_request (access->source, op, partition, sort, filters,
                                            !(access->order_consumed && access->descending),
                                            &step.key_condition, &step.filter, &error);
      if (step.request == NULL)
        step.key_condition = g_strdup (error ? error->message : "");
    }
  step.operation = g_strdup (operation_name (op));
  if (access->residual)
    step.residual = g_strdup_printf (_("%s (SQLite)"), access->residual);

  if (joined != NULL)
    {
      if (op == DYN_SQL_ACCESS_BATCH_GET)
        step.fan_out = g_strdup_printf (_("once per 100 distinct %s"), joined);
      else if (outer != NULL && outer->op == DYN_SQL_ACCESS_GET)
        step.fan_out = g_strdup_printf (_("once per distinct %s (≤ 1)"), joined);
      else
        step.fan_out = g_strdup_printf (_("once per distinct %s"), joined);
    }
  else if (has_in (access))
    step.fan_out = g_strdup (op == DYN_SQL_ACCESS_BATCH_GET ? _("once per 100 keys of the IN list")
                                                           : _("once per value of the IN list"));
  else if (op == DYN_SQL_ACCESS_SCAN && segments > 1)
    step.fan_out = g_strdup_printf (_("once, in %u parallel segments"), segments);
  else
    step.fan_out = g_strdup (_("once"));
  step.max_requests = (op == DYN_SQL_ACCESS_GET && joined == NULL) ? 1 : 0;
  (void) depth;
  g_array_append_val (plan->steps, step);
}

char *
dyn_sql_plan_to_text (DynSqlPlan *self)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < self->steps->len; i++)
    {
      const DynSqlStep *s = &g_array_index (self->steps, DynSqlStep, i);

      g_string_append_printf (out, "%s %s", s->operation, s->source);
      if (s->key_condition)
        g_string_append_printf (out, " %s", s->key_condition);
      if (s->filter)
        g_string_append_printf (out, _(" filter %s"), s->filter);
      g_string_append_printf (out, " (%s)", s->fan_out);
      if (s->residual)
        g_string_append_printf (out, _("; then %s"), s->residual);
      if (s->is_scan)
        g_string_append (out, _(" — a full Scan"));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < self->notes->len; i++)
    g_string_append_printf (out, "# %s\n", (char *) self->notes->pdata[i]);
  return g_string_free (out, FALSE);
}

JsonNode *
dyn_sql_plan_to_json (DynSqlPlan *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "columns");
  json_builder_begin_array (b);
  for (guint i = 0; self->columns && self->columns[i]; i++)
    json_builder_add_string_value (b, self->columns[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->steps->len; i++)
    {
      const DynSqlStep *s = &g_array_index (self->steps, DynSqlStep, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "source");
      json_builder_add_string_value (b, s->source);
      json_builder_set_member_name (b, "operation");
      json_builder_add_string_value (b, s->operation);
#define OPT(name, field) if (s->field) { json_builder_set_member_name (b, name); json_builder_add_string_value (b, s->field); }
      OPT ("keyCondition", key_condition);
      OPT ("filter", filter);
      OPT ("residual", residual);
      OPT ("fanOut", fan_out);
#undef OPT
      json_builder_set_member_name (b, "maxRequests");
      json_builder_add_int_value (b, s->max_requests);
      json_builder_set_member_name (b, "scan");
      json_builder_add_boolean_value (b, s->is_scan);
      if (s->request)
        {
          json_builder_set_member_name (b, "request");
          json_builder_add_value (b, json_node_copy (s->request));
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->notes->len; i++)
    json_builder_add_string_value (b, self->notes->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
