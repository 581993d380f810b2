/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-expr"

/* A table's key schema and its indexes (DynTableKeys), as the rules and the
 * planner see them. */

#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-expr-private.h"

/* ------------------------------------------------------------------------ */
/* Table keys */

static void
key_schema_init (DynKeySchema *keys,
                 const char   *partition_key,
                 DynValueType  partition_type,
                 const char   *sort_key,
                 DynValueType  sort_type)
{
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
  g_free (info->keys.partition_key);
  g_free (info->keys.sort_key);
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

      added = dyn_table_keys_add_index (copy, info->name, info->kind,
                                        info->keys.partition_key, info->keys.partition_type,
                                        info->keys.sort_key, info->keys.sort_type,
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
  g_free (self->table.keys.partition_key);
  g_free (self->table.keys.sort_key);
  g_strfreev (self->table.non_key_attributes);
  g_ptr_array_unref (self->indexes);
  g_free (self);
}

