/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

/* A table's key schema and its indexes (DynTableKeys), as the rules and the
 * planner see them. */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

/* ------------------------------------------------------------------------ */
/* Key schemas */

guint
dyn_key_schema_get_n_partition_keys (const DynKeySchema *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->partition_key == NULL)
    return 0;
  return 1 + MIN (self->n_more_partition, DYN_KEY_MAX_ATTRIBUTES - 1);
}

const char *
dyn_key_schema_get_partition_key (const DynKeySchema *self,
                                  guint               i,
                                  DynValueType       *type)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (i >= dyn_key_schema_get_n_partition_keys (self))
    return NULL;
  if (type != NULL)
    *type = i == 0 ? self->partition_type : self->more_partition[i - 1].type;
  return i == 0 ? self->partition_key : self->more_partition[i - 1].name;
}

guint
dyn_key_schema_get_n_sort_keys (const DynKeySchema *self)
{
  g_return_val_if_fail (self != NULL, 0);
  if (self->sort_key == NULL)
    return 0;
  return 1 + MIN (self->n_more_sort, DYN_KEY_MAX_ATTRIBUTES - 1);
}

const char *
dyn_key_schema_get_sort_key (const DynKeySchema *self,
                             guint               i,
                             DynValueType       *type)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (i >= dyn_key_schema_get_n_sort_keys (self))
    return NULL;
  if (type != NULL)
    *type = i == 0 ? self->sort_type : self->more_sort[i - 1].type;
  return i == 0 ? self->sort_key : self->more_sort[i - 1].name;
}

guint
dyn_key_schema_get_n_attributes (const DynKeySchema *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return dyn_key_schema_get_n_partition_keys (self) + dyn_key_schema_get_n_sort_keys (self);
}

const char *
dyn_key_schema_get_attribute (const DynKeySchema *self,
                              guint               i,
                              DynValueType       *type)
{
  guint n_partition;

  g_return_val_if_fail (self != NULL, NULL);

  n_partition = dyn_key_schema_get_n_partition_keys (self);
  if (i < n_partition)
    return dyn_key_schema_get_partition_key (self, i, type);
  return dyn_key_schema_get_sort_key (self, i - n_partition, type);
}

gboolean
dyn_key_schema_is_multi_attribute (const DynKeySchema *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return dyn_key_schema_get_n_partition_keys (self) > 1 || dyn_key_schema_get_n_sort_keys (self) > 1;
}

gboolean
dyn_key_schema_find (const DynKeySchema *self,
                     const char         *name,
                     gboolean           *is_sort,
                     guint              *position,
                     DynValueType       *type)
{
  if (self == NULL || name == NULL)
    return FALSE;
  for (guint sort = 0; sort < 2; sort++)
    {
      guint n = sort ? dyn_key_schema_get_n_sort_keys (self) : dyn_key_schema_get_n_partition_keys (self);

      for (guint i = 0; i < n; i++)
        {
          DynValueType t;
          const char *key = sort ? dyn_key_schema_get_sort_key (self, i, &t)
                                 : dyn_key_schema_get_partition_key (self, i, &t);

          if (strcmp (key, name) != 0)
            continue;
          if (is_sort != NULL)
            *is_sort = sort;
          if (position != NULL)
            *position = i;
          if (type != NULL)
            *type = t;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
dyn_key_schema_has_attribute (const DynKeySchema *self,
                              const char         *name)
{
  return dyn_key_schema_find (self, name, NULL, NULL, NULL);
}

gboolean
dyn_key_schema_same_partition (const DynKeySchema *a,
                               const DynKeySchema *b)
{
  guint n;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  n = dyn_key_schema_get_n_partition_keys (a);
  if (n != dyn_key_schema_get_n_partition_keys (b))
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      DynValueType ta, tb;
      const char *name = dyn_key_schema_get_partition_key (a, i, &ta);
      gboolean is_sort = TRUE;

      if (!dyn_key_schema_find (b, name, &is_sort, NULL, &tb) || is_sort || ta != tb)
        return FALSE;
    }
  return TRUE;
}

gboolean
dyn_key_schema_append (DynKeySchema *self,
                       gboolean      is_sort,
                       const char   *name,
                       DynValueType  type)
{
  char **first;
  DynValueType *first_type;
  guint *n_more;
  DynKeyAttribute *more;

  g_return_val_if_fail (self != NULL && name != NULL, FALSE);

  first = is_sort ? &self->sort_key : &self->partition_key;
  first_type = is_sort ? &self->sort_type : &self->partition_type;
  n_more = is_sort ? &self->n_more_sort : &self->n_more_partition;
  more = is_sort ? self->more_sort : self->more_partition;
  if (*first == NULL)
    {
      *first = g_strdup (name);
      *first_type = type;
      *n_more = 0;
      return TRUE;
    }
  if (*n_more >= DYN_KEY_MAX_ATTRIBUTES - 1)
    return FALSE;
  more[*n_more].name = g_strdup (name);
  more[*n_more].type = type;
  (*n_more)++;
  return TRUE;
}

char *
dyn_key_schema_join_names (const DynKeySchema *self,
                           gboolean            sort)
{
  GString *out;
  guint n;

  g_return_val_if_fail (self != NULL, NULL);

  n = sort ? dyn_key_schema_get_n_sort_keys (self) : dyn_key_schema_get_n_partition_keys (self);
  if (n == 0)
    return NULL;
  out = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      g_string_append (out, sort ? dyn_key_schema_get_sort_key (self, i, NULL)
                                 : dyn_key_schema_get_partition_key (self, i, NULL));
    }
  return g_string_free (out, FALSE);
}

void
dyn_key_schema_copy_into (const DynKeySchema *self,
                          DynKeySchema       *dest)
{
  g_return_if_fail (self != NULL && dest != NULL);

  memset (dest, 0, sizeof *dest);
  dest->partition_key = g_strdup (self->partition_key);
  dest->partition_type = self->partition_type;
  dest->sort_key = g_strdup (self->sort_key);
  dest->sort_type = self->sort_type;
  if (self->partition_key != NULL)
    {
      dest->n_more_partition = MIN (self->n_more_partition, DYN_KEY_MAX_ATTRIBUTES - 1);
      for (guint i = 0; i < dest->n_more_partition; i++)
        {
          dest->more_partition[i].name = g_strdup (self->more_partition[i].name);
          dest->more_partition[i].type = self->more_partition[i].type;
        }
    }
  if (self->sort_key != NULL)
    {
      dest->n_more_sort = MIN (self->n_more_sort, DYN_KEY_MAX_ATTRIBUTES - 1);
      for (guint i = 0; i < dest->n_more_sort; i++)
        {
          dest->more_sort[i].name = g_strdup (self->more_sort[i].name);
          dest->more_sort[i].type = self->more_sort[i].type;
        }
    }
}

void
dyn_key_schema_clear (DynKeySchema *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->partition_key, g_free);
  g_clear_pointer (&self->sort_key, g_free);
  for (guint i = 0; i < DYN_KEY_MAX_ATTRIBUTES - 1; i++)
    {
      if (i < self->n_more_partition)
        g_clear_pointer (&self->more_partition[i].name, g_free);
      if (i < self->n_more_sort)
        g_clear_pointer (&self->more_sort[i].name, g_free);
    }
  self->n_more_partition = 0;
  self->n_more_sort = 0;
}

DynKeySchema *
dyn_key_schema_copy (const DynKeySchema *self)
{
  DynKeySchema *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (DynKeySchema, 1);
  dyn_key_schema_copy_into (self, copy);
  return copy;
}

void
dyn_key_schema_free (DynKeySchema *self)
{
  if (self == NULL)
    return;
  dyn_key_schema_clear (self);
  g_free (self);
}

/* ------------------------------------------------------------------------ */
/* Table keys */

static void
key_schema_init (DynKeySchema *keys,
                 const char   *partition_key,
                 DynValueType  partition_type,
                 const char   *sort_key,
                 DynValueType  sort_type)
{
  memset (keys, 0, sizeof *keys);
  keys->partition_key = g_strdup (partition_key);
  keys->partition_type = partition_type;
  keys->sort_key = g_strdup (sort_key);
  keys->sort_type = sort_type;
}

static void
index_info_free (gpointer data)
{
  DynIndexInfo *info = data;

  g_free (info->name);
  dyn_key_schema_clear (&info->keys);
  g_strfreev (info->non_key_attributes);
  g_free (info);
}

DynTableKeys *
dyn_table_keys_new (const char   *table_name,
                    const char   *partition_key,
                    DynValueType  partition_type,
                    const char   *sort_key,
                    DynValueType  sort_type)
{
  DynTableKeys *self;

  g_return_val_if_fail (partition_key != NULL, NULL);

  self = g_new0 (DynTableKeys, 1);
  self->table.name = g_strdup (table_name);
  self->table.kind = DYN_INDEX_TABLE;
  self->table.projection = DYN_PROJECTION_ALL;
  key_schema_init (&self->table.keys, partition_key, partition_type, sort_key, sort_type);
  self->indexes = g_ptr_array_new_with_free_func (index_info_free);
  return self;
}

DynIndexInfo *
dyn_table_keys_add_index (DynTableKeys      *self,
                          const char        *name,
                          DynIndexKind       kind,
                          const char        *partition_key,
                          DynValueType       partition_type,
                          const char        *sort_key,
                          DynValueType       sort_type,
                          DynProjectionType  projection)
{
  DynIndexInfo *info;

  g_return_val_if_fail (self != NULL && name != NULL && partition_key != NULL, NULL);

  info = g_new0 (DynIndexInfo, 1);
  info->name = g_strdup (name);
  info->kind = kind;
  info->projection = projection;
  key_schema_init (&info->keys, partition_key, partition_type, sort_key, sort_type);
  g_ptr_array_add (self->indexes, info);
  return info;
}

DynIndexInfo *
dyn_table_keys_add_index_with_schema (DynTableKeys       *self,
                                      const char         *name,
                                      DynIndexKind        kind,
                                      const DynKeySchema *keys,
                                      DynProjectionType   projection)
{
  DynIndexInfo *info;

  g_return_val_if_fail (self != NULL && name != NULL && keys != NULL && keys->partition_key != NULL, NULL);

  info = dyn_table_keys_add_index (self, name, kind, keys->partition_key, keys->partition_type,
                                   keys->sort_key, keys->sort_type, projection);
  dyn_key_schema_clear (&info->keys);
  dyn_key_schema_copy_into (keys, &info->keys);
  return info;
}

DynTableKeys *
dyn_table_keys_copy (const DynTableKeys *self)
{
  DynTableKeys *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = dyn_table_keys_new (self->table.name,
                             self->table.keys.partition_key, self->table.keys.partition_type,
                             self->table.keys.sort_key, self->table.keys.sort_type);
  copy->table.projection = self->table.projection;
  copy->table.non_key_attributes = g_strdupv (self->table.non_key_attributes);
  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynIndexInfo *info = self->indexes->pdata[i];
      DynIndexInfo *added;

      added = dyn_table_keys_add_index_with_schema (copy, info->name, info->kind, &info->keys,
                                                    info->projection);
      added->non_key_attributes = g_strdupv (info->non_key_attributes);
    }
  return copy;
}

const DynIndexInfo *
dyn_table_keys_lookup (const DynTableKeys *self,
                       const char         *index_name)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (index_name == NULL || index_name[0] == '\0')
    return &self->table;
  for (guint i = 0; i < self->indexes->len; i++)
    {
      const DynIndexInfo *info = self->indexes->pdata[i];

      if (strcmp (info->name, index_name) == 0)
        return info;
    }
  return NULL;
}

void
dyn_table_keys_free (DynTableKeys *self)
{
  if (self == NULL)
    return;
  g_free (self->table.name);
  dyn_key_schema_clear (&self->table.keys);
  g_strfreev (self->table.non_key_attributes);
  g_ptr_array_unref (self->indexes);
  g_free (self);
}


/* ------------------------------------------------------------------------ */
/* Following a key */

static void
add_name_once (GPtrArray  *names,
               const char *name)
{
  if (name != NULL && !g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
    g_ptr_array_add (names, g_strdup (name));
}

static const DynIndexInfo *
source_at (const DynTableKeys *self,
           guint               i)
{
  return i == 0 ? &self->table : self->indexes->pdata[i - 1];
}

GStrv
dyn_table_keys_get_link_attributes (const DynTableKeys *self)
{
  GPtrArray *names;

  g_return_val_if_fail (self != NULL, NULL);

  names = g_ptr_array_new ();
  for (guint s = 0; s <= self->indexes->len; s++)
    {
      const DynKeySchema *keys = &source_at (self, s)->keys;

      for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
        add_name_once (names, dyn_key_schema_get_partition_key (keys, i, NULL));
    }
  for (guint s = 0; s <= self->indexes->len; s++)
    {
      const DynKeySchema *keys = &source_at (self, s)->keys;
      guint n = dyn_key_schema_get_n_sort_keys (keys);

      for (guint i = 0; n > 1 && i + 1 < n; i++)
        add_name_once (names, dyn_key_schema_get_sort_key (keys, i, NULL));
    }
  g_ptr_array_add (names, NULL);
  return (GStrv) g_ptr_array_free (names, FALSE);
}

static DynExprNode *
equality (const char *name,
          DynValue   *value)
{
  return dyn_expr_node_new_compare (DYN_EXPR_OP_EQ, dyn_expr_node_new_name (name),
                                    dyn_expr_node_new_value (value));
}

/* The equalities that follow @attribute on @keys with values from @item, or
 * NULL when @keys does not lead anywhere by it or @item lacks a value. */
static DynExprNode *
follow_on (const DynKeySchema  *keys,
           const char          *attribute,
           gboolean             as_sort,
           DynValue            *item,
           const char         **missing)
{
  g_autoptr(DynExprNode) and = dyn_expr_node_new (DYN_EXPR_AND);
  guint n_sort = dyn_key_schema_get_n_sort_keys (keys);
  gboolean is_sort = FALSE;
  guint position = 0;

  if (!dyn_key_schema_find (keys, attribute, &is_sort, &position, NULL) || is_sort != as_sort)
    return NULL;
  /* A sort attribute leads to a group only when others follow it. */
  if (is_sort && (n_sort < 2 || position + 1 >= n_sort))
    return NULL;
  for (guint i = 0; i < dyn_key_schema_get_n_partition_keys (keys); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_partition_key (keys, i, &type);
      DynValue *v = dyn_value_map_lookup (item, name);

      if (v == NULL || dyn_value_get_value_type (v) != type)
        {
          *missing = name;
          return NULL;
        }
      dyn_expr_node_add_child (and, equality (name, v));
    }
  for (guint i = 0; is_sort && i <= position; i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_sort_key (keys, i, &type);
      DynValue *v = dyn_value_map_lookup (item, name);

      if (v == NULL || dyn_value_get_value_type (v) != type)
        {
          *missing = name;
          return NULL;
        }
      dyn_expr_node_add_child (and, equality (name, v));
    }
  if (dyn_expr_node_get_n_children (and) == 1)
    return dyn_expr_node_ref (dyn_expr_node_get_child (and, 0));
  return g_steal_pointer (&and);
}

DynExprNode *
dyn_table_keys_follow (const DynTableKeys  *self,
                       const char          *attribute,
                       DynValue            *item,
                       char               **index_name,
                       GError             **error)
{
  g_autoptr(DynValue) map = NULL;
  const DynIndexInfo *lacking = NULL;
  const char *missing = NULL;

  g_return_val_if_fail (self != NULL && attribute != NULL && item != NULL, NULL);

  if (index_name != NULL)
    *index_name = NULL;
  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    {
      map = dyn_value_new_map ();
      dyn_value_map_set (map, attribute, item);
    }
  else
    map = dyn_value_ref (item);

  /* Sources keyed by @attribute come before those it sorts. */
  for (guint s = 0; s <= 2 * self->indexes->len + 1; s++)
    {
      const DynIndexInfo *info = source_at (self, s % (self->indexes->len + 1));
      const char *lacks = NULL;
      DynExprNode *condition = follow_on (&info->keys, attribute, s > self->indexes->len, map, &lacks);

      if (condition == NULL)
        {
          if (lacks != NULL && lacking == NULL && info->kind != DYN_INDEX_TABLE)
            {
              lacking = info;
              missing = lacks;
            }
          continue;
        }
      if (index_name != NULL && info->kind != DYN_INDEX_TABLE)
        *index_name = g_strdup (info->name);
      return condition;
    }
  if (lacking != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M)
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                 /* Translators: the first %s is an attribute, the second an index, the third an attribute */
                 _("following %s on index %s needs the item's %s as well, which it lacks or holds with "
                   "another type"), attribute, lacking->name, missing);
  else
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                 /* Translators: %s is an attribute name */
                 _("%s is not the partition key of the table or an index"), attribute);
  return NULL;
}
