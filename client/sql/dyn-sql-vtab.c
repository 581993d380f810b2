/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The virtual tables: one eponymous module per source. xBestIndex chooses the
 * access path (GetItem, BatchGetItem, Query, Scan) from the constraints SQLite
 * offers; xFilter turns the values into reads of the statement's run, which
 * caches them (see dyn-sql-engine.c).
 */
#define G_LOG_DOMAIN "dyn-sql"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-sql-private.h"

/* Sources ----------------------------------------------------------------- */

DynSqlSource *
dyn_sql_source_ref (DynSqlSource *self)
{
  g_atomic_int_inc (&self->ref_count);
  return self;
}

static void
column_free (DynSqlColumn *c)
{
  g_free (c->name);
  g_free (c);
}

void
dyn_sql_source_unref (DynSqlSource *self)
{
  if (self == NULL || !g_atomic_int_dec_and_test (&self->ref_count))
    return;
  g_free (self->name);
  g_free (self->table);
  g_free (self->index);
  dyn_key_schema_clear (&self->keys);
  dyn_table_keys_free (self->table_keys);
  g_ptr_array_unref (self->columns);
  g_free (self);
}

static DynSqlColumn *
find_column (DynSqlSource *self,
             const char   *name,
             gboolean      fold)
{
  for (guint i = 0; i < self->columns->len; i++)
    {
      DynSqlColumn *c = self->columns->pdata[i];
      if (fold ? g_ascii_strcasecmp (c->name, name) == 0 : strcmp (c->name, name) == 0)
        return c;
    }
  return NULL;
}

static void
add_key_column (DynSqlSource       *self,
                const DynKeySchema *keys)
{
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (keys, i, &type);
      DynSqlColumn *c;

      if (find_column (self, name, TRUE) != NULL)
        continue;
      c = g_new0 (DynSqlColumn, 1);
      c->name = g_strdup (name);
      c->is_key = TRUE;
      c->key_type = type;
      c->numeric = type == DYN_VALUE_N;
      g_ptr_array_add (self->columns, c);
    }
}

static gboolean
number_is_int64 (const char *text)
{
  g_autofree char *canon = dyn_number_canonicalize (text);
  const char *p = canon[0] == '-' ? canon + 1 : canon;

  return *p && strspn (p, "0123456789") == strlen (p) &&
         g_ascii_string_to_signed (canon, 10, G_MININT64, G_MAXINT64, NULL, NULL);
}

DynSqlSource *
dyn_sql_source_new (const DynTableKeys *keys,
                    const char         *index,
                    GPtrArray          *sample)
{
  DynSqlSource *self = g_new0 (DynSqlSource, 1);
  const DynIndexInfo *info = dyn_table_keys_lookup (keys, index);

  g_return_val_if_fail (info != NULL, NULL);

  self->ref_count = 1;
  self->table = g_strdup (keys->table.name);
  self->index = index && *index ? g_strdup (index) : NULL;
  self->name = self->index ? g_strdup_printf ("%s.%s", self->table, self->index) : g_strdup (self->table);
  self->kind = info->kind;
  dyn_key_schema_copy_into (&info->keys, &self->keys);
  self->table_keys = dyn_table_keys_copy (keys);
  self->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) column_free);

  add_key_column (self, &self->keys);
  add_key_column (self, &keys->table.keys);

  for (guint i = 0; sample && i < sample->len; i++)
    {
      DynValue *item = sample->pdata[i];

      for (guint j = 0; j < dyn_value_get_length (item); j++)
        {
          const char *name = dyn_value_map_get_name (item, j);
          DynValue *v = dyn_value_map_get_value (item, j);
          DynSqlColumn *c = find_column (self, name, FALSE);

          /* Names that SQLite would not tell apart from another column or
           * from the hidden `item` stay in `item` only. */
          if (c == NULL)
            {
              if (find_column (self, name, TRUE) != NULL || g_ascii_strcasecmp (name, "item") == 0 ||
                  self->columns->len >= 1000)
                continue;
              c = g_new0 (DynSqlColumn, 1);
              c->name = g_strdup (name);
              g_ptr_array_add (self->columns, c);
            }
          if (dyn_value_get_value_type (v) == DYN_VALUE_N)
            {
              c->numeric = TRUE;
              if (!number_is_int64 (dyn_value_get_number (v)))
                c->decimal = TRUE;
            }
        }
    }
  self->sampled_items = sample ? sample->len : 0;
  return self;
}

char *
dyn_sql_source_schema (DynSqlSource *self)
{
  GString *s = g_string_new ("CREATE TABLE x(");

  for (guint i = 0; i < self->columns->len; i++)
    {
      DynSqlColumn *c = self->columns->pdata[i];
      g_autofree char *q = dyn_sql_quote_identifier (c->name);

      g_string_append_printf (s, "%s ", q);
      /* Exact numbers (measured in tests/test-sql-decimal.c): TEXT
       * affinity turns the other side of a comparison into text, which the
       * DECIMAL collation compares by value. Whole numbers that fit 64 bits
       * are INTEGERs, unless the column holds other numbers too: then every
       * N is its exact text, so that ORDER BY (storage class first) is exact. */
      if (c->decimal || c->numeric)
        g_string_append (s, "TEXT COLLATE DECIMAL");
      else if (c->is_key && c->key_type == DYN_VALUE_S)
        g_string_append (s, "TEXT");
      else if (c->is_key && c->key_type == DYN_VALUE_B)
        g_string_append (s, "BLOB");
      g_string_append (s, ", ");
    }
  g_string_append (s, "item HIDDEN)");
  return g_string_free (s, FALSE);
}

/* Accesses ------------------------------------------------------------------ */

void
dyn_sql_access_free (DynSqlAccess *access)
{
  if (access == NULL)
    return;
  for (guint i = 0; i < access->args->len; i++)
    g_clear_pointer (&g_array_index (access->args, DynSqlArg, i).value, dyn_value_unref);
  g_array_unref (access->args);
  g_clear_pointer (&access->constrained, g_ptr_array_unref);
  g_free (access->residual);
  dyn_sql_source_unref (access->source);
  g_free (access);
}

void
dyn_sql_sort_cond_free (DynSqlSortCond *c)
{
  g_clear_pointer (&c->value, dyn_value_unref);
  g_free (c);
}

void
dyn_sql_filter_free (DynSqlFilter *f)
{
  g_free (f->name);
  g_clear_pointer (&f->value, dyn_value_unref);
  g_free (f);
}

gboolean
dyn_sql_sort_cond_match (const DynSqlSortCond *c,
                         const DynKeySchema   *keys,
                         DynValue             *item)
{
  const char *name = dyn_key_schema_get_sort_key (keys, c->attr, NULL);
  DynValue *v = name ? dyn_value_map_lookup (item, name) : NULL;
  int cmp;

  if (v == NULL || dyn_value_get_value_type (v) != dyn_value_get_value_type (c->value))
    return FALSE;
  if (c->cond == DYN_SQL_COND_BEGINS)
    {
      if (dyn_value_get_value_type (v) == DYN_VALUE_S)
        {
          gsize n = dyn_value_get_string_length (c->value);
          return dyn_value_get_string_length (v) >= n &&
                 memcmp (dyn_value_get_string (v), dyn_value_get_string (c->value), n) == 0;
        }
      return FALSE;
    }
  cmp = dyn_value_compare (v, c->value);
  switch (c->cond)
    {
    case DYN_SQL_COND_EQ: return cmp == 0;
    case DYN_SQL_COND_LT: return cmp < 0;
    case DYN_SQL_COND_LE: return cmp <= 0;
    case DYN_SQL_COND_GT: return cmp > 0;
    case DYN_SQL_COND_GE: return cmp >= 0;
    default: return FALSE;
    }
}

/* The module --------------------------------------------------------------- */

static void append_partition (GString *s, sqlite3_value *v, DynValueType type, gboolean *ok);

typedef struct {
  sqlite3_vtab      base;
  DynSqlModuleData *data;
} DynVtab;

typedef struct {
  DynValue *item;
} Entry;

typedef struct {
  sqlite3_vtab_cursor base;
  GPtrArray          *jobs;        /* DynSqlJob*, borrowed from the run's cache */
  GPtrArray          *locals;      /* per job: NULL, or DynSqlSortCond* of a collection read filtered here */
  gboolean            reverse;
  guint               job;
  guint               pos;         /* next item of the job; reverse: items left */
  guint               n_items;     /* reverse: the job's items */
  DynValue           *item;        /* current, borrowed */
  sqlite3_int64       rowid;
} DynCursor;

static int
vtab_connect (sqlite3             *db,
              void                *aux,
              int                  argc,
              const char * const  *argv,
              sqlite3_vtab       **out,
              char               **err)
{
  DynSqlModuleData *data = aux;
  g_autofree char *schema = dyn_sql_source_schema (data->source);
  DynVtab *vtab;
  int rc;

  rc = sqlite3_declare_vtab (db, schema);
  if (rc != SQLITE_OK)
    {
      *err = sqlite3_mprintf ("%s", sqlite3_errmsg (db));
      return rc;
    }
  sqlite3_vtab_config (db, SQLITE_VTAB_DIRECTONLY);
  vtab = sqlite3_malloc (sizeof *vtab);
  memset (vtab, 0, sizeof *vtab);
  vtab->data = data;
  *out = &vtab->base;
  return SQLITE_OK;
}

static int
vtab_disconnect (sqlite3_vtab *base)
{
  sqlite3_free (base);
  return SQLITE_OK;
}

static gboolean
like_prefix (sqlite3_value *v,
             char         **prefix)
{
  const char *p;
  gsize n;

  if (v == NULL || sqlite3_value_type (v) != SQLITE_TEXT)
    return FALSE;
  p = (const char *) sqlite3_value_text (v);
  n = strlen (p);
  /* 'abc%': no wildcard before the one '%' at the end. */
  if (n < 2 || p[n - 1] != '%' || strcspn (p, "%_") != n - 1)
    return FALSE;
  *prefix = g_strndup (p, n - 1);
  return TRUE;
}

static const char *
op_words (int op)
{
  switch (op)
    {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
    case SQLITE_INDEX_CONSTRAINT_LIKE: return "LIKE";
    case SQLITE_INDEX_CONSTRAINT_GLOB: return "GLOB";
    case SQLITE_INDEX_CONSTRAINT_NE: return "<>";
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return "IS NULL";
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return "IS NOT NULL";
    default: return "…";
    }
}

static DynSqlCond
cond_of (int op)
{
  switch (op)
    {
    case SQLITE_INDEX_CONSTRAINT_LT: return DYN_SQL_COND_LT;
    case SQLITE_INDEX_CONSTRAINT_LE: return DYN_SQL_COND_LE;
    case SQLITE_INDEX_CONSTRAINT_GT: return DYN_SQL_COND_GT;
    case SQLITE_INDEX_CONSTRAINT_GE: return DYN_SQL_COND_GE;
    case SQLITE_INDEX_CONSTRAINT_LIKE: return DYN_SQL_COND_BEGINS;
    default: return DYN_SQL_COND_EQ;
    }
}

static int
column_index (DynSqlSource *src,
              const char   *name)
{
  for (guint i = 0; i < src->columns->len; i++)
    if (strcmp (((DynSqlColumn *) src->columns->pdata[i])->name, name) == 0)
      return i;
  return -1;
}

/* A value usable in a FilterExpression equality on a column that is
 * neither a key nor numeric (see dyn_sql_filter_values()). */
static gboolean
filter_rhs_ok (sqlite3_value *v)
{
  int t;

  if (v == NULL)
    return TRUE;   /* joined: decided per value */
  t = sqlite3_value_type (v);
  if (t == SQLITE_TEXT)
    {
      const char *s = (const char *) sqlite3_value_text (v);
      return s[0] != '{' && s[0] != '[';
    }
  return t == SQLITE_INTEGER || t == SQLITE_BLOB;
}

static GPtrArray *filter_values (sqlite3_value *v);

static void
add_arg (DynSqlAccess             *access,
         struct sqlite3_index_info *info,
         int                        i,
         int                       *argv_index,
         DynSqlArgRole              role,
         guint                      attr,
         DynSqlCond                 cond,
         gboolean                   in,
         DynValue                  *constant_value,
         gboolean                   constant)
{
  DynSqlArg arg = { role, attr, cond, in, constant, constant_value };
  sqlite3_value *v = NULL;

  /* The constant's value, for the plan. */
  if (constant && !in && constant_value == NULL && sqlite3_vtab_rhs_value (info, i, &v) == SQLITE_OK)
    {
      DynValueType type = DYN_VALUE_S;
      g_autofree char *prefix = NULL;

      if (role == DYN_SQL_ARG_PARTITION)
        dyn_key_schema_get_partition_key (&access->source->keys, attr, &type);
      else if (role == DYN_SQL_ARG_SORT)
        dyn_key_schema_get_sort_key (&access->source->keys, attr, &type);
      if (role == DYN_SQL_ARG_FILTER)
        {
          g_autoptr(GPtrArray) fv = filter_values (v);
          if (fv)
            arg.value = dyn_value_ref (fv->pdata[0]);
        }
      else if (cond == DYN_SQL_COND_BEGINS)
        {
          if (like_prefix (v, &prefix))
            arg.value = dyn_value_new_string (prefix);
        }
      else
        arg.value = dyn_sql_key_value (v, type);
    }
  g_array_append_val (access->args, arg);
  info->aConstraintUsage[i].argvIndex = ++*argv_index;
  /* SQLite checks every condition again, except an IN list it hands over
   * whole: the reads give exactly its items. */
  info->aConstraintUsage[i].omit = in;
  if (in)
    sqlite3_vtab_in (info, i, 1);
}

static int
vtab_best_index (sqlite3_vtab              *base,
                 struct sqlite3_index_info *info)
{
  DynVtab *vtab = (DynVtab *) base;
  DynSqlSource *src = vtab->data->source;
  DynSqlRun *run = vtab->data->run;
  const DynKeySchema *keys = &src->keys;
  guint np = dyn_key_schema_get_n_partition_keys (keys);
  guint ns = dyn_key_schema_get_n_sort_keys (keys);
  int pcol[DYN_KEY_MAX_ATTRIBUTES], scol[DYN_KEY_MAX_ATTRIBUTES];
  int peq[DYN_KEY_MAX_ATTRIBUTES], seq[DYN_KEY_MAX_ATTRIBUTES];
  gboolean pin = FALSE, sin = FALSE, all_partition = TRUE, all_sort = TRUE;
  DynSqlAccess *access;
  int argv_index = 0;
  guint id;
  g_autoptr(GString) residual = g_string_new (NULL);
  g_autoptr(GString) shape = g_string_new (NULL);
  g_autoptr(GString) partition = g_string_new (NULL);
  gboolean partition_constant = TRUE;
  guint used_sort = 0;

  for (guint i = 0; i < np; i++)
    {
      pcol[i] = column_index (src, dyn_key_schema_get_partition_key (keys, i, NULL));
      peq[i] = -1;
    }
  for (guint i = 0; i < ns; i++)
    {
      scol[i] = column_index (src, dyn_key_schema_get_sort_key (keys, i, NULL));
      seq[i] = -1;
    }

  /* Equalities on the key attributes. */
  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];

      if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ)
        continue;
      for (guint k = 0; k < np; k++)
        if (c->iColumn == pcol[k] && peq[k] < 0)
          peq[k] = i;
      for (guint k = 0; k < ns; k++)
        if (c->iColumn == scol[k] && seq[k] < 0)
          seq[k] = i;
    }
  for (guint k = 0; k < np; k++)
    {
      if (peq[k] < 0)
        all_partition = FALSE;
      else if (sqlite3_vtab_in (info, peq[k], -1))
        pin = TRUE;
    }
  for (guint k = 0; k < ns; k++)
    {
      if (seq[k] < 0)
        all_sort = FALSE;
      else if (sqlite3_vtab_in (info, seq[k], -1))
        sin = TRUE;
    }

  access = g_new0 (DynSqlAccess, 1);
  access->source = dyn_sql_source_ref (src);
  access->args = g_array_new (FALSE, TRUE, sizeof (DynSqlArg));

  if (all_partition && all_sort && src->kind == DYN_INDEX_TABLE)
    {
      access->op = (pin || sin) ? DYN_SQL_ACCESS_BATCH_GET : DYN_SQL_ACCESS_GET;
      for (guint k = 0; k < np; k++)
        {
          sqlite3_value *v = NULL;
          gboolean in = sqlite3_vtab_in (info, peq[k], -1);
          gboolean constant = sqlite3_vtab_rhs_value (info, peq[k], &v) == SQLITE_OK || in;
          add_arg (access, info, peq[k], &argv_index, DYN_SQL_ARG_PARTITION, k, DYN_SQL_COND_EQ,
                   in, NULL, constant);
        }
      for (guint k = 0; k < ns; k++)
        {
          sqlite3_value *v = NULL;
          gboolean in = sqlite3_vtab_in (info, seq[k], -1);
          gboolean constant = sqlite3_vtab_rhs_value (info, seq[k], &v) == SQLITE_OK || in;
          add_arg (access, info, seq[k], &argv_index, DYN_SQL_ARG_SORT, k, DYN_SQL_COND_EQ,
                   in, NULL, constant);
        }
      info->estimatedCost = access->op == DYN_SQL_ACCESS_GET ? 1 : 2;
      info->estimatedRows = 1;
      if (access->op == DYN_SQL_ACCESS_GET)
        info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
    }
  else if (all_partition)
    {
      gboolean range_done = FALSE;

      access->op = DYN_SQL_ACCESS_QUERY;
      for (guint k = 0; k < np; k++)
        {
          sqlite3_value *v = NULL;
          gboolean in = sqlite3_vtab_in (info, peq[k], -1);
          gboolean constant = sqlite3_vtab_rhs_value (info, peq[k], &v) == SQLITE_OK;

          if (!constant || in)
            partition_constant = FALSE;
          else
            {
              DynValueType type;
              dyn_key_schema_get_partition_key (keys, k, &type);
              append_partition (partition, v, type, &partition_constant);
            }
          add_arg (access, info, peq[k], &argv_index, DYN_SQL_ARG_PARTITION, k, DYN_SQL_COND_EQ,
                   in, NULL, constant || in);
        }
      /* Sort attributes left to right: equalities, then one range (or
       * BETWEEN as >= and <=, or a LIKE prefix) on the next. */
      for (guint k = 0; k < ns && !range_done; k++)
        {
          if (seq[k] >= 0 && !sqlite3_vtab_in (info, seq[k], -1))
            {
              sqlite3_value *v = NULL;
              gboolean constant = sqlite3_vtab_rhs_value (info, seq[k], &v) == SQLITE_OK;
              add_arg (access, info, seq[k], &argv_index, DYN_SQL_ARG_SORT, k, DYN_SQL_COND_EQ,
                       FALSE, NULL, constant);
              used_sort = k + 1;
              continue;
            }
          {
            int lower = -1, upper = -1, like = -1;
            DynValueType type;

            dyn_key_schema_get_sort_key (keys, k, &type);
            for (int i = 0; i < info->nConstraint; i++)
              {
                const struct sqlite3_index_constraint *c = &info->aConstraint[i];
                sqlite3_value *v = NULL;
                g_autofree char *prefix = NULL;

                if (!c->usable || c->iColumn != scol[k])
                  continue;
                if ((c->op == SQLITE_INDEX_CONSTRAINT_GT || c->op == SQLITE_INDEX_CONSTRAINT_GE) && lower < 0)
                  lower = i;
                else if ((c->op == SQLITE_INDEX_CONSTRAINT_LT || c->op == SQLITE_INDEX_CONSTRAINT_LE) && upper < 0)
                  upper = i;
                else if (c->op == SQLITE_INDEX_CONSTRAINT_LIKE && type == DYN_VALUE_S && like < 0 &&
                         sqlite3_vtab_rhs_value (info, i, &v) == SQLITE_OK && like_prefix (v, &prefix))
                  like = i;
              }
            /* DynamoDB takes one sort condition: BETWEEN for >= and <=
             * (SQLite checks > and < itself), else one bound. */
            if (lower >= 0 && upper >= 0 &&
                info->aConstraint[lower].op == SQLITE_INDEX_CONSTRAINT_GE &&
                info->aConstraint[upper].op == SQLITE_INDEX_CONSTRAINT_LE)
              {
                add_arg (access, info, lower, &argv_index, DYN_SQL_ARG_SORT, k, DYN_SQL_COND_GE, FALSE, NULL,
                         sqlite3_vtab_rhs_value (info, lower, &(sqlite3_value *){ NULL }) == SQLITE_OK);
                add_arg (access, info, upper, &argv_index, DYN_SQL_ARG_SORT, k, DYN_SQL_COND_LE, FALSE, NULL,
                         sqlite3_vtab_rhs_value (info, upper, &(sqlite3_value *){ NULL }) == SQLITE_OK);
              }
            else if (like >= 0)
              add_arg (access, info, like, &argv_index, DYN_SQL_ARG_SORT, k, DYN_SQL_COND_BEGINS, FALSE, NULL, TRUE);
            else if (lower >= 0 || upper >= 0)
              {
                int i = lower >= 0 ? lower : upper;
                add_arg (access, info, i, &argv_index, DYN_SQL_ARG_SORT, k, cond_of (info->aConstraint[i].op),
                         FALSE, NULL, sqlite3_vtab_rhs_value (info, i, &(sqlite3_value *){ NULL }) == SQLITE_OK);
              }
            if (lower >= 0 || upper >= 0 || like >= 0)
              used_sort = k + 1;
            range_done = TRUE;
          }
        }
      info->estimatedCost = used_sort > 0 ? 5 : 10;
      info->estimatedRows = used_sort > 0 ? 20 : 100;
      if (pin)
        {
          info->estimatedCost *= 4;
          info->estimatedRows *= 4;
        }
    }
  else
    {
      access->op = DYN_SQL_ACCESS_SCAN;
      info->estimatedCost = 1e9;
      info->estimatedRows = 1000000;
    }

  /* Equalities on other columns go into the FilterExpression (SQLite
   * checks them again); the rest SQLite evaluates alone. */
  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      DynSqlColumn *col;
      sqlite3_value *v = NULL;

      if (!c->usable || info->aConstraintUsage[i].argvIndex > 0)
        continue;
      col = c->iColumn >= 0 && (guint) c->iColumn < src->columns->len ? src->columns->pdata[c->iColumn] : NULL;
      if (access->op == DYN_SQL_ACCESS_SCAN && col != NULL && c->op == SQLITE_INDEX_CONSTRAINT_EQ)
        {
          if (access->constrained == NULL)
            access->constrained = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (access->constrained, g_strdup (col->name));
        }
      if (col != NULL && c->op == SQLITE_INDEX_CONSTRAINT_EQ &&
          (access->op == DYN_SQL_ACCESS_QUERY || access->op == DYN_SQL_ACCESS_SCAN) &&
          !col->numeric && !col->decimal &&
          !(access->op == DYN_SQL_ACCESS_QUERY && dyn_key_schema_has_attribute (keys, col->name)) &&
          !sqlite3_vtab_in (info, i, -1))
        {
          gboolean constant = sqlite3_vtab_rhs_value (info, i, &v) == SQLITE_OK;
          if (filter_rhs_ok (constant ? v : NULL))
            {
              add_arg (access, info, i, &argv_index, DYN_SQL_ARG_FILTER, c->iColumn, DYN_SQL_COND_EQ,
                       FALSE, NULL, constant);
              if (access->op == DYN_SQL_ACCESS_SCAN)
                info->estimatedCost = 5e8;
              continue;
            }
        }
      if (residual->len > 0)
        g_string_append (residual, " AND ");
      g_string_append_printf (residual, "%s %s …", col ? col->name : "item", op_words (c->op));
    }

  /* The item collection: a constant partition with one shape of sort
   * conditions; two shapes on one partition read the collection once. */
  if (access->op == DYN_SQL_ACCESS_QUERY || access->op == DYN_SQL_ACCESS_GET)
    {
      if (partition->len == 0 && access->op == DYN_SQL_ACCESS_GET)
        {
          for (guint k = 0; k < np; k++)
            {
              sqlite3_value *v = NULL;
              DynValueType type;
              dyn_key_schema_get_partition_key (keys, k, &type);
              if (sqlite3_vtab_rhs_value (info, peq[k], &v) == SQLITE_OK && !sqlite3_vtab_in (info, peq[k], -1))
                append_partition (partition, v, type, &partition_constant);
              else
                partition_constant = FALSE;
            }
        }
      for (int i = 0; i < info->nConstraint; i++)
        {
          const struct sqlite3_index_constraint *c = &info->aConstraint[i];
          for (guint k = 0; k < ns; k++)
            if (c->iColumn == scol[k])
              {
                sqlite3_value *v = NULL;
                g_string_append_printf (shape, "%u%d=", k, c->op);
                if (sqlite3_vtab_rhs_value (info, i, &v) == SQLITE_OK)
                  g_string_append (shape, (const char *) sqlite3_value_text (v));
                g_string_append_c (shape, ';');
              }
        }
      if (partition_constant && partition->len > 0 && ns > 0)
        dyn_sql_run_note_collection (run, src, partition->str, shape->str);
    }

  /* ORDER BY the sort key: DynamoDB's order (ScanIndexForward) when one
   * partition is read. */
  if (access->op == DYN_SQL_ACCESS_QUERY && !pin && info->nOrderBy > 0 && ns > 0)
    {
      gboolean ok = TRUE;
      int desc = info->aOrderBy[0].desc;
      guint next_sort = 0;

      for (int i = 0; i < info->nOrderBy && ok; i++)
        {
          int col = info->aOrderBy[i].iColumn;
          gboolean is_partition = FALSE;

          for (guint k = 0; k < np; k++)
            if (col == pcol[k])
              is_partition = TRUE;
          if (is_partition)
            continue;   /* one value */
          if (next_sort < ns && col == scol[next_sort] && info->aOrderBy[i].desc == desc)
            next_sort++;
          else
            ok = FALSE;
        }
      if (ok && next_sort > 0)
        {
          info->orderByConsumed = 1;
          access->order_consumed = TRUE;
          access->descending = desc;
        }
    }

  access->residual = residual->len ? g_strdup (residual->str) : NULL;
  id = dyn_sql_run_add_access (run, access);
  info->idxNum = id;
  info->idxStr = sqlite3_mprintf ("dyn:%u", id);
  info->needToFreeIdxStr = 1;
  return SQLITE_OK;
}

static void
locals_free (gpointer p)
{
  if (p != NULL)
    g_ptr_array_unref (p);
}

static void
append_partition (GString       *s,
                  sqlite3_value *v,
                  DynValueType   type,
                  gboolean      *ok)
{
  g_autoptr(DynValue) kv = dyn_sql_key_value (v, type);
  g_autofree char *json = NULL;

  if (kv == NULL)
    {
      *ok = FALSE;
      return;
    }
  json = dyn_value_to_ddb_json_string (kv);
  g_string_append_printf (s, "%s\x1f", json);
}

static int
vtab_open (sqlite3_vtab         *base,
           sqlite3_vtab_cursor **out)
{
  DynCursor *cur = sqlite3_malloc (sizeof *cur);

  memset (cur, 0, sizeof *cur);
  cur->jobs = g_ptr_array_new ();
  cur->locals = g_ptr_array_new_with_free_func (locals_free);
  *out = &cur->base;
  return SQLITE_OK;
}

static void
cursor_reset (DynCursor *cur)
{
  g_ptr_array_set_size (cur->jobs, 0);
  g_ptr_array_set_size (cur->locals, 0);
  cur->job = 0;
  cur->pos = 0;
  cur->item = NULL;
  cur->reverse = FALSE;
}

static int
vtab_close (sqlite3_vtab_cursor *base)
{
  DynCursor *cur = (DynCursor *) base;

  cursor_reset (cur);
  g_ptr_array_unref (cur->jobs);
  g_ptr_array_unref (cur->locals);
  sqlite3_free (cur);
  return SQLITE_OK;
}

static int
set_error (DynCursor *cur,
           GError    *error)
{
  dyn_sql_run_set_error (((DynVtab *) cur->base.pVtab)->data->run, error);
  sqlite3_free (cur->base.pVtab->zErrMsg);
  cur->base.pVtab->zErrMsg = sqlite3_mprintf ("%s", error->message);
  return SQLITE_ERROR;
}

/* Moves to the next item that the local conditions let through. */
static int
cursor_advance (DynCursor *cur)
{
  DynSqlSource *src = ((DynVtab *) cur->base.pVtab)->data->source;

  cur->item = NULL;
  while (cur->job < cur->jobs->len)
    {
      DynSqlJob *job = cur->jobs->pdata[cur->job];
      g_autoptr(GError) error = NULL;
      DynValue *item;
      gboolean ok = TRUE;

      if (cur->reverse)
        {
          /* A descending read of a collection read ascending: all of it first. */
          if (cur->pos == 0 && cur->n_items == 0)
            {
              guint n = 0;
              while (dyn_sql_job_get_item (job, n, &error) != NULL)
                n++;
              if (error)
                return set_error (cur, error);
              cur->n_items = n;
              cur->pos = n;
              if (n == 0)
                cur->n_items = G_MAXUINT;   /* done */
            }
          if (cur->pos == 0)
            {
              cur->job++;
              cur->n_items = 0;
              continue;
            }
          item = dyn_sql_job_get_item (job, --cur->pos, &error);
          if (cur->pos == 0)
            cur->n_items = G_MAXUINT;
        }
      else
        item = dyn_sql_job_get_item (job, cur->pos++, &error);
      if (error)
        return set_error (cur, error);
      if (item == NULL)
        {
          cur->job++;
          cur->pos = 0;
          cur->n_items = 0;
          continue;
        }
      {
        GPtrArray *local = cur->locals->pdata[cur->job];
        for (guint i = 0; local && i < local->len && ok; i++)
          ok = dyn_sql_sort_cond_match (local->pdata[i], &src->keys, item);
      }
      if (!ok)
        continue;
      cur->item = item;
      cur->rowid++;
      return SQLITE_OK;
    }
  return SQLITE_OK;
}

/* The values of one argument: one, or each of an IN list. */
static GPtrArray *
arg_values (sqlite3_value *v,
            gboolean       in)
{
  /* Copies: the IN iterator hands out one value object, rewritten. */
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) sqlite3_value_free);

  if (in)
    {
      sqlite3_value *x = NULL;
      for (int rc = sqlite3_vtab_in_first (v, &x); rc == SQLITE_OK && x; rc = sqlite3_vtab_in_next (v, &x))
        g_ptr_array_add (out, sqlite3_value_dup (x));
    }
  else
    g_ptr_array_add (out, sqlite3_value_dup (v));
  return out;
}

/* The FilterExpression values that match whatever SQLite's = would let
 * through on a column without affinity: text also as a number, 0/1 also
 * as a boolean. NULL: not pushed. */
static GPtrArray *
filter_values (sqlite3_value *v)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  switch (sqlite3_value_type (v))
    {
    case SQLITE_TEXT:
      {
        const char *s = (const char *) sqlite3_value_text (v);
        DynValue *n;

        if (s[0] == '{' || s[0] == '[')
          break;
        g_ptr_array_add (out, dyn_value_new_string_len (s, sqlite3_value_bytes (v)));
        if (strspn (s, "+-0123456789.eE") == strlen (s) && (n = dyn_value_new_number (s, NULL)) != NULL)
          g_ptr_array_add (out, n);
      }
      break;
    case SQLITE_INTEGER:
      {
        char buf[32];
        gint64 i = sqlite3_value_int64 (v);
        g_snprintf (buf, sizeof buf, "%" G_GINT64_FORMAT, i);
        g_ptr_array_add (out, dyn_value_new_number (buf, NULL));
        if (i == 0 || i == 1)
          g_ptr_array_add (out, dyn_value_new_bool (i == 1));
      }
      break;
    case SQLITE_BLOB:
      {
        g_autoptr(GBytes) b = g_bytes_new (sqlite3_value_blob (v), sqlite3_value_bytes (v));
        g_ptr_array_add (out, dyn_value_new_binary (b));
      }
      break;
    default:
      break;
    }
  if (out->len == 0)
    g_clear_pointer (&out, g_ptr_array_unref);
  return out;
}

static void
add_job (DynCursor *cur,
         DynSqlJob *job,
         GPtrArray *local)
{
  if (job == NULL)
    {
      g_clear_pointer (&local, g_ptr_array_unref);
      return;
    }
  g_ptr_array_add (cur->jobs, job);
  g_ptr_array_add (cur->locals, local);
}

static gboolean
is_collection (DynSqlRun    *run,
               DynSqlSource *src,
               GPtrArray    *combo)
{
  g_autoptr(GString) pkey = g_string_new (NULL);

  for (guint k = 0; k < combo->len; k++)
    {
      g_autofree char *j = dyn_value_to_ddb_json_string (combo->pdata[k]);
      g_string_append_printf (pkey, "%s\x1f", j);
    }
  return dyn_sql_run_is_collection (run, src, pkey->str);
}

static int
vtab_filter (sqlite3_vtab_cursor  *base,
             int                   idx_num,
             const char           *idx_str,
             int                   argc,
             sqlite3_value       **argv)
{
  DynCursor *cur = (DynCursor *) base;
  DynVtab *vtab = (DynVtab *) base->pVtab;
  DynSqlRun *run = vtab->data->run;
  DynSqlSource *src = vtab->data->source;
  DynSqlAccess *access = dyn_sql_run_get_access (run, idx_num);
  const DynKeySchema *keys = &src->keys;
  guint np = dyn_key_schema_get_n_partition_keys (keys);
  g_autoptr(GPtrArray) part_values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) sort_eq = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) sort_conds = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_sort_cond_free);
  g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_filter_free);
  g_autoptr(GPtrArray) combos = NULL;
  g_autoptr(GError) error = NULL;
  gboolean empty = FALSE;

  cursor_reset (cur);
  if (access == NULL)
    return SQLITE_ERROR;

  for (guint k = 0; k < np; k++)
    g_ptr_array_add (part_values, g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref));
  for (guint k = 0; k < dyn_key_schema_get_n_sort_keys (keys); k++)
    g_ptr_array_add (sort_eq, g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref));

  for (int a = 0; a < argc && a < (int) access->args->len; a++)
    {
      DynSqlArg *arg = &g_array_index (access->args, DynSqlArg, a);
      g_autoptr(GPtrArray) values = arg_values (argv[a], arg->in);
      DynValueType type;

      switch (arg->role)
        {
        case DYN_SQL_ARG_PARTITION:
          dyn_key_schema_get_partition_key (keys, arg->attr, &type);
          for (guint i = 0; i < values->len; i++)
            {
              DynValue *kv = dyn_sql_key_value (values->pdata[i], type);
              GPtrArray *list = part_values->pdata[arg->attr];
              gboolean dup = FALSE;

              for (guint j = 0; kv && j < list->len; j++)
                dup = dup || dyn_value_equal (list->pdata[j], kv);
              if (kv && !dup)
                g_ptr_array_add (list, kv);
              else if (kv)
                dyn_value_unref (kv);
            }
          break;
        case DYN_SQL_ARG_SORT:
          dyn_key_schema_get_sort_key (keys, arg->attr, &type);
          if (arg->cond == DYN_SQL_COND_EQ && (access->op == DYN_SQL_ACCESS_GET ||
                                                access->op == DYN_SQL_ACCESS_BATCH_GET))
            {
              for (guint i = 0; i < values->len; i++)
                {
                  DynValue *kv = dyn_sql_key_value (values->pdata[i], type);
                  if (kv)
                    g_ptr_array_add (sort_eq->pdata[arg->attr], kv);
                }
            }
          else
            {
              DynSqlSortCond *c;
              DynValue *kv = NULL;
              g_autofree char *prefix = NULL;

              if (arg->cond == DYN_SQL_COND_BEGINS)
                {
                  if (!like_prefix (values->pdata[0], &prefix))
                    break;   /* not a prefix: SQLite filters */
                  kv = dyn_value_new_string (prefix);
                }
              else
                kv = dyn_sql_key_value (values->pdata[0], type);
              if (kv == NULL)
                {
                  /* = with a value of another type: nothing matches. A
                   * range with one: SQLite decides (it orders types). */
                  if (arg->cond == DYN_SQL_COND_EQ)
                    empty = TRUE;
                  break;
                }
              c = g_new0 (DynSqlSortCond, 1);
              c->attr = arg->attr;
              c->cond = arg->cond;
              c->value = kv;
              g_ptr_array_add (sort_conds, c);
            }
          break;
        case DYN_SQL_ARG_FILTER:
          {
            g_autoptr(GPtrArray) fv = filter_values (values->pdata[0]);
            DynSqlColumn *col = src->columns->pdata[arg->attr];

            for (guint i = 0; fv && i < fv->len; i++)
              {
                DynSqlFilter *f = g_new0 (DynSqlFilter, 1);
                f->name = g_strdup (col->name);
                f->value = dyn_value_ref (fv->pdata[i]);
                g_ptr_array_add (filters, f);
              }
          }
          break;
        }
    }

  for (guint k = 0; k < np; k++)
    if (((GPtrArray *) part_values->pdata[k])->len == 0)
      empty = TRUE;
  for (guint k = 0; k < sort_eq->len; k++)
    if ((access->op == DYN_SQL_ACCESS_GET || access->op == DYN_SQL_ACCESS_BATCH_GET) &&
        ((GPtrArray *) sort_eq->pdata[k])->len == 0)
      empty = TRUE;
  if (empty && access->op != DYN_SQL_ACCESS_SCAN)
    return cursor_advance (cur);

  /* Every combination of the partition values (IN lists). */
  combos = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  if (access->op != DYN_SQL_ACCESS_SCAN)
    {
      g_ptr_array_add (combos, g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref));
      for (guint k = 0; k < np; k++)
        {
          GPtrArray *list = part_values->pdata[k];
          g_autoptr(GPtrArray) next = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

          for (guint c = 0; c < combos->len; c++)
            for (guint j = 0; j < list->len; j++)
              {
                GPtrArray *prev = combos->pdata[c];
                GPtrArray *n = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
                for (guint x = 0; x < prev->len; x++)
                  g_ptr_array_add (n, dyn_value_ref (prev->pdata[x]));
                g_ptr_array_add (n, dyn_value_ref (list->pdata[j]));
                g_ptr_array_add (next, n);
              }
          g_ptr_array_unref (combos);
          combos = g_steal_pointer (&next);
        }
    }

  if (access->op == DYN_SQL_ACCESS_GET || access->op == DYN_SQL_ACCESS_BATCH_GET)
    {
      /* The keys: each partition combination with each sort value. */
      GPtrArray *sorts = sort_eq->len ? sort_eq->pdata[0] : NULL;
      guint n_sort = sorts ? sorts->len : 1;

      for (guint c = 0; c < combos->len; c++)
        for (guint s = 0; s < n_sort; s++)
          {
            g_autoptr(DynValue) key = dyn_value_new_map ();
            GPtrArray *combo = combos->pdata[c];
            DynSqlJob *job;

            for (guint k = 0; k < np; k++)
              dyn_value_map_set (key, dyn_key_schema_get_partition_key (keys, k, NULL), combo->pdata[k]);
            if (sorts)
              dyn_value_map_set (key, dyn_key_schema_get_sort_key (keys, 0, NULL), sorts->pdata[s]);
            if (sorts && is_collection (run, src, combo))
              {
                /* One Query of the collection serves every key of it. */
                GPtrArray *local = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_sort_cond_free);
                DynSqlSortCond *sc = g_new0 (DynSqlSortCond, 1);

                sc->cond = DYN_SQL_COND_EQ;
                sc->value = dyn_value_ref (sorts->pdata[s]);
                g_ptr_array_add (local, sc);
                job = dyn_sql_run_read (run, src, DYN_SQL_ACCESS_QUERY, combo, NULL, NULL, TRUE, NULL, &error);
                add_job (cur, job, local);
              }
            else
              {
                job = dyn_sql_run_read (run, src, DYN_SQL_ACCESS_GET, combo, NULL, NULL, TRUE, key, &error);
                add_job (cur, job, NULL);
              }
            if (error)
              return set_error (cur, error);
          }
    }
  else if (access->op == DYN_SQL_ACCESS_QUERY)
    {
      for (guint c = 0; c < combos->len; c++)
        {
          GPtrArray *combo = combos->pdata[c];
          DynSqlJob *job;

          if (sort_conds->len > 0 && is_collection (run, src, combo))
            {
              /* One read of the whole collection, the sort condition here. */
              GPtrArray *local = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sql_sort_cond_free);

              for (guint i = 0; i < sort_conds->len; i++)
                {
                  DynSqlSortCond *o = sort_conds->pdata[i], *sc = g_new0 (DynSqlSortCond, 1);
                  sc->attr = o->attr;
                  sc->cond = o->cond;
                  sc->value = dyn_value_ref (o->value);
                  g_ptr_array_add (local, sc);
                }
              job = dyn_sql_run_read (run, src, DYN_SQL_ACCESS_QUERY, combo, NULL, NULL, TRUE, NULL, &error);
              add_job (cur, job, local);
              cur->reverse = access->order_consumed && access->descending;
            }
          else
            {
              job = dyn_sql_run_read (run, src, DYN_SQL_ACCESS_QUERY, combo, sort_conds, filters,
                                      !(access->order_consumed && access->descending), NULL, &error);
              add_job (cur, job, NULL);
            }
          if (error)
            return set_error (cur, error);
        }
    }
  else
    {
      DynSqlJob *job = dyn_sql_run_read (run, src, DYN_SQL_ACCESS_SCAN, NULL, NULL, filters, TRUE, NULL, &error);
      if (error)
        return set_error (cur, error);
      add_job (cur, job, NULL);
    }
  return cursor_advance (cur);
}

static int
vtab_next (sqlite3_vtab_cursor *base)
{
  return cursor_advance ((DynCursor *) base);
}

static int
vtab_eof (sqlite3_vtab_cursor *base)
{
  return ((DynCursor *) base)->item == NULL;
}

static int
vtab_column (sqlite3_vtab_cursor *base,
             sqlite3_context     *ctx,
             int                  i)
{
  DynCursor *cur = (DynCursor *) base;
  DynSqlSource *src = ((DynVtab *) base->pVtab)->data->source;

  if (cur->item == NULL)
    {
      sqlite3_result_null (ctx);
      return SQLITE_OK;
    }
  if ((guint) i >= src->columns->len)
    {
      g_autofree char *json = dyn_value_to_plain_json_string (cur->item);
      sqlite3_result_text (ctx, json, -1, SQLITE_TRANSIENT);
      sqlite3_result_subtype (ctx, 'J');
      return SQLITE_OK;
    }
  {
    DynSqlColumn *c = src->columns->pdata[i];
    dyn_sql_result_value (ctx, dyn_value_map_lookup (cur->item, c->name), c->decimal);
  }
  return SQLITE_OK;
}

static int
vtab_rowid (sqlite3_vtab_cursor *base,
            sqlite3_int64       *rowid)
{
  *rowid = ((DynCursor *) base)->rowid;
  return SQLITE_OK;
}

const sqlite3_module dyn_sql_module = {
  .iVersion = 0,
  .xCreate = NULL,           /* eponymous only */
  .xConnect = vtab_connect,
  .xBestIndex = vtab_best_index,
  .xDisconnect = vtab_disconnect,
  .xDestroy = vtab_disconnect,
  .xOpen = vtab_open,
  .xClose = vtab_close,
  .xFilter = vtab_filter,
  .xNext = vtab_next,
  .xEof = vtab_eof,
  .xColumn = vtab_column,
  .xRowid = vtab_rowid,
};
