/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-diff"
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-diff.h"
#include "dyn-error.h"
#include "dyn-json.h"

void
dyn_diff_entry_free (DynDiffEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->name);
  g_clear_pointer (&entry->before, dyn_value_unref);
  g_clear_pointer (&entry->after, dyn_value_unref);
  g_clear_pointer (&entry->path, dyn_expr_path_free);
  g_free (entry);
}

void
dyn_merge_entry_free (DynMergeEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->name);
  g_clear_pointer (&entry->base, dyn_value_unref);
  g_clear_pointer (&entry->server, dyn_value_unref);
  g_clear_pointer (&entry->mine, dyn_value_unref);
  g_clear_pointer (&entry->path, dyn_expr_path_free);
  g_free (entry);
}

/* ------------------------------------------------------------------------ */
/* Document paths */

static gboolean
name_needs_quotes (const char *name)
{
  return *name == '\0' || strpbrk (name, ".[]`") != NULL;
}

char *
dyn_path_to_display (const DynExprPath *path)
{
  GString *out;

  g_return_val_if_fail (path != NULL, NULL);

  out = g_string_new (NULL);
  for (guint i = 0; i < dyn_expr_path_get_length (path); i++)
    {
      const char *name;

      if (dyn_expr_path_is_index (path, i))
        {
          g_string_append_printf (out, "[%u]", dyn_expr_path_get_index (path, i));
          continue;
        }
      name = dyn_expr_path_get_name (path, i, NULL);
      if (i > 0)
        g_string_append_c (out, '.');
      if (!name_needs_quotes (name))
        {
          g_string_append (out, name);
          continue;
        }
      g_string_append_c (out, '`');
      for (const char *p = name; *p; p++)
        {
          if (*p == '`')
            g_string_append_c (out, '`');
          g_string_append_c (out, *p);
        }
      g_string_append_c (out, '`');
    }
  return g_string_free (out, FALSE);
}

/* The child of @value that segment @i of @path names, or NULL. */
static DynValue *
path_step (const DynValue    *value,
           const DynExprPath *path,
           guint              i)
{
  if (value == NULL)
    return NULL;
  if (dyn_expr_path_is_index (path, i))
    {
      guint index = dyn_expr_path_get_index (path, i);

      if (dyn_value_get_value_type (value) != DYN_VALUE_L || index >= dyn_value_get_length (value))
        return NULL;
      return dyn_value_list_get (value, index);
    }
  if (dyn_value_get_value_type (value) != DYN_VALUE_M)
    return NULL;
  return dyn_value_map_lookup (value, dyn_expr_path_get_name (path, i, NULL));
}

DynValue *
dyn_path_lookup (const DynValue    *item,
                 const DynExprPath *path)
{
  const DynValue *value = item;

  g_return_val_if_fail (path != NULL, NULL);

  for (guint i = 0; i < dyn_expr_path_get_length (path) && value != NULL; i++)
    value = path_step (value, path, i);
  return (DynValue *) value;
}

static gboolean
segments_equal (const DynExprPath *a,
                const DynExprPath *b,
                guint              i)
{
  gboolean ia = dyn_expr_path_is_index (a, i);

  if (ia != dyn_expr_path_is_index (b, i))
    return FALSE;
  if (ia)
    return dyn_expr_path_get_index (a, i) == dyn_expr_path_get_index (b, i);
  return strcmp (dyn_expr_path_get_name (a, i, NULL), dyn_expr_path_get_name (b, i, NULL)) == 0;
}

gboolean
dyn_path_overlaps (const DynExprPath *a,
                   const DynExprPath *b)
{
  guint n;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  n = MIN (dyn_expr_path_get_length (a), dyn_expr_path_get_length (b));
  for (guint i = 0; i < n; i++)
    if (!segments_equal (a, b, i))
      return FALSE;
  return TRUE;
}

/* A copy of @value with segment @depth onwards of @path set to @new. */
static DynValue *
with_path_from (const DynValue    *value,
                const DynExprPath *path,
                guint              depth,
                DynValue          *new)
{
  gboolean last = depth + 1 == dyn_expr_path_get_length (path);
  DynValue *copy;

  if (dyn_expr_path_is_index (path, depth))
    {
      guint index = dyn_expr_path_get_index (path, depth);

      if (value == NULL || dyn_value_get_value_type (value) != DYN_VALUE_L ||
          index >= dyn_value_get_length (value) || (last && new == NULL))
        return NULL;
      copy = dyn_value_new_list ();
      for (guint i = 0; i < dyn_value_get_length (value); i++)
        {
          DynValue *element = dyn_value_list_get (value, i);

          if (i != index)
            dyn_value_list_append (copy, element);
          else if (last)
            dyn_value_list_append (copy, new);
          else
            {
              DynValue *changed = with_path_from (element, path, depth + 1, new);

              if (changed == NULL)
                {
                  dyn_value_unref (copy);
                  return NULL;
                }
              dyn_value_list_take (copy, changed);
            }
        }
      return copy;
    }

  if (value == NULL || dyn_value_get_value_type (value) != DYN_VALUE_M)
    return NULL;
  {
    const char *name = dyn_expr_path_get_name (path, depth, NULL);
    g_autoptr(DynValue) child = NULL;

    if (!last)
      {
        child = with_path_from (dyn_value_map_lookup (value, name), path, depth + 1, new);
        if (child == NULL)
          return NULL;
      }
    else if (new != NULL)
      child = dyn_value_ref (new);
    return dyn_item_with_attribute (value, name, child);
  }
}

DynValue *
dyn_item_with_path (const DynValue    *item,
                    const DynExprPath *path,
                    DynValue          *value)
{
  g_return_val_if_fail (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);
  g_return_val_if_fail (path != NULL && dyn_expr_path_get_length (path) > 0, NULL);
  g_return_val_if_fail (!dyn_expr_path_is_index (path, 0), NULL);

  return with_path_from (item, path, 0, value);
}

static DynExprPath *
path_child (const DynExprPath *parent,
            const char        *name,
            guint              index)
{
  DynExprPath *path = parent ? dyn_expr_path_copy (parent) : dyn_expr_path_new (NULL);

  if (name != NULL)
    dyn_expr_path_append_name (path, name);
  else
    dyn_expr_path_append_index (path, index);
  return path;
}

/* ------------------------------------------------------------------------ */
/* Diffs and merges */

static gboolean
is_key_name (const DynKeySchema *keys,
             const char         *name)
{
  return keys != NULL && dyn_key_schema_has_attribute (keys, name);
}

static gboolean
is_type (const DynValue *value,
         DynValueType    type)
{
  return value != NULL && dyn_value_get_value_type (value) == type;
}

/* The member names of up to three maps (any may be NULL or not a map):
 * with @keys, the key attributes first; then each map's names in its
 * order, each name once. */
static GPtrArray *
union_of_names (const DynValue     *a,
                const DynValue     *b,
                const DynValue     *c,
                const DynKeySchema *keys)
{
  const DynValue *maps[] = { a, b, c };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *names = g_ptr_array_new ();

  if (keys != NULL)
    {
      for (guint k = 0; k < dyn_key_schema_get_n_attributes (keys); k++)
        {
          const char *key_name = dyn_key_schema_get_attribute (keys, k, NULL);

          for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
            if (is_type (maps[i], DYN_VALUE_M) && dyn_value_map_lookup (maps[i], key_name) != NULL)
              {
                g_hash_table_add (seen, (gpointer) key_name);
                g_ptr_array_add (names, (gpointer) key_name);
                break;
              }
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    {
      if (!is_type (maps[i], DYN_VALUE_M))
        continue;
      for (guint m = 0; m < dyn_value_get_length (maps[i]); m++)
        {
          const char *name = dyn_value_map_get_name (maps[i], m);

          if (g_hash_table_add (seen, (gpointer) name))
            g_ptr_array_add (names, (gpointer) name);
        }
    }
  return names;
}

static gboolean
values_equal (const DynValue *a,
              const DynValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return dyn_value_equal (a, b);
}

static DynValue *
maybe_ref (DynValue *value)
{
  return value ? dyn_value_ref (value) : NULL;
}

typedef struct {
  const DynKeySchema *keys;
  gboolean            include_unchanged;
  GPtrArray          *entries;
} DiffWalk;

static void
diff_node (DiffWalk          *w,
           const DynExprPath *path,
           DynValue          *b,
           DynValue          *a)
{
  DynDiffEntry *entry;
  DynDiffKind kind;

  if (b == NULL)
    kind = DYN_DIFF_ADDED;
  else if (a == NULL)
    kind = DYN_DIFF_REMOVED;
  else if (dyn_value_equal (a, b))
    kind = DYN_DIFF_UNCHANGED;
  else
    kind = DYN_DIFF_CHANGED;

  if (kind == DYN_DIFF_CHANGED && is_type (b, DYN_VALUE_M) && is_type (a, DYN_VALUE_M))
    {
      g_autoptr(GPtrArray) names = union_of_names (b, a, NULL, NULL);

      for (guint i = 0; i < names->len; i++)
        {
          g_autoptr(DynExprPath) child = path_child (path, names->pdata[i], 0);

          diff_node (w, child, dyn_value_map_lookup (b, names->pdata[i]), dyn_value_map_lookup (a, names->pdata[i]));
        }
      return;
    }
  if (kind == DYN_DIFF_CHANGED && is_type (b, DYN_VALUE_L) && is_type (a, DYN_VALUE_L) &&
      dyn_value_get_length (b) == dyn_value_get_length (a))
    {
      for (guint i = 0; i < dyn_value_get_length (b); i++)
        {
          g_autoptr(DynExprPath) child = path_child (path, NULL, i);

          diff_node (w, child, dyn_value_list_get (b, i), dyn_value_list_get (a, i));
        }
      return;
    }

  if (kind == DYN_DIFF_UNCHANGED && !w->include_unchanged)
    return;
  entry = g_new0 (DynDiffEntry, 1);
  entry->path = dyn_expr_path_copy (path);
  entry->name = dyn_path_to_display (path);
  entry->kind = kind;
  entry->before = maybe_ref (b);
  entry->after = maybe_ref (a);
  entry->is_key = dyn_expr_path_get_length (path) == 1 &&
                  is_key_name (w->keys, dyn_expr_path_get_name (path, 0, NULL));
  g_ptr_array_add (w->entries, entry);
}

GPtrArray *
dyn_diff_items (const DynValue     *before,
                const DynValue     *after,
                const DynKeySchema *keys,
                gboolean            include_unchanged)
{
  g_autoptr(GPtrArray) names = union_of_names (before, after, NULL, keys);
  DiffWalk w = { keys, include_unchanged, NULL };

  w.entries = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_diff_entry_free);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autoptr(DynExprPath) path = dyn_expr_path_new (name);

      diff_node (&w, path,
                 before ? dyn_value_map_lookup (before, name) : NULL,
                 after ? dyn_value_map_lookup (after, name) : NULL);
    }
  return w.entries;
}

typedef struct {
  const DynKeySchema *keys;
  gboolean            server_gone;
  GPtrArray          *entries;
} MergeWalk;

static void
merge_node (MergeWalk         *w,
            const DynExprPath *path,
            DynValue          *base,
            DynValue          *server,
            DynValue          *mine)
{
  gboolean same = values_equal (base, server) && values_equal (base, mine);
  DynMergeEntry *entry;

  /* Into a map both sides still hold (the base may not have had it: both
   * added it), so each keeps the members it changed. */
  if (!same && is_type (server, DYN_VALUE_M) && is_type (mine, DYN_VALUE_M) &&
      (base == NULL || is_type (base, DYN_VALUE_M)))
    {
      g_autoptr(GPtrArray) names = union_of_names (base, server, mine, NULL);

      for (guint i = 0; i < names->len; i++)
        {
          const char *name = names->pdata[i];
          g_autoptr(DynExprPath) child = path_child (path, name, 0);

          merge_node (w, child, base ? dyn_value_map_lookup (base, name) : NULL,
                      dyn_value_map_lookup (server, name), dyn_value_map_lookup (mine, name));
        }
      return;
    }
  /* Into lists only when no side moved an element: same length in all three. */
  if (!same && is_type (base, DYN_VALUE_L) && is_type (server, DYN_VALUE_L) && is_type (mine, DYN_VALUE_L) &&
      dyn_value_get_length (base) == dyn_value_get_length (server) &&
      dyn_value_get_length (base) == dyn_value_get_length (mine))
    {
      for (guint i = 0; i < dyn_value_get_length (base); i++)
        {
          g_autoptr(DynExprPath) child = path_child (path, NULL, i);

          merge_node (w, child, dyn_value_list_get (base, i), dyn_value_list_get (server, i),
                      dyn_value_list_get (mine, i));
        }
      return;
    }

  entry = g_new0 (DynMergeEntry, 1);
  entry->path = dyn_expr_path_copy (path);
  entry->name = dyn_path_to_display (path);
  entry->base = maybe_ref (base);
  entry->server = maybe_ref (server);
  entry->mine = maybe_ref (mine);
  entry->is_key = dyn_expr_path_get_length (path) == 1 &&
                  is_key_name (w->keys, dyn_expr_path_get_name (path, 0, NULL));
  entry->server_changed = !values_equal (entry->base, entry->server);
  entry->mine_changed = !values_equal (entry->base, entry->mine);
  entry->conflict = entry->server_changed && entry->mine_changed &&
                    !values_equal (entry->server, entry->mine);
  /* With the item gone from the server there is nothing of the server's
   * to keep per path: the user's item is the proposal. */
  if (w->server_gone)
    entry->side = DYN_MERGE_MINE;
  else if (entry->is_key)
    entry->side = DYN_MERGE_SERVER;
  else
    entry->side = entry->mine_changed ? DYN_MERGE_MINE : DYN_MERGE_SERVER;
  g_ptr_array_add (w->entries, entry);
}

GPtrArray *
dyn_merge_entries (const DynValue     *base,
                   const DynValue     *server,
                   const DynValue     *mine,
                   const DynKeySchema *keys)
{
  g_autoptr(GPtrArray) names = union_of_names (base, server, mine, keys);
  MergeWalk w = { keys, server == NULL, NULL };

  w.entries = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_merge_entry_free);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      g_autoptr(DynExprPath) path = dyn_expr_path_new (name);

      merge_node (&w, path,
                  base ? dyn_value_map_lookup (base, name) : NULL,
                  server ? dyn_value_map_lookup (server, name) : NULL,
                  mine ? dyn_value_map_lookup (mine, name) : NULL);
    }
  return w.entries;
}

DynValue *
dyn_merge_build (GPtrArray *entries)
{
  DynValue *item;

  g_return_val_if_fail (entries != NULL, NULL);

  /* The entries come in walk order and never overlap: every map or list on
   * the way to one is made here (so it has one reference and can still be
   * filled), and list elements come in index order. */
  item = dyn_value_new_map ();
  for (guint i = 0; i < entries->len; i++)
    {
      DynMergeEntry *entry = entries->pdata[i];
      guint n = dyn_expr_path_get_length (entry->path);
      DynValue *container = item;
      DynValue *value;

      if (entry->is_key)
        value = entry->server ? entry->server : entry->mine;
      else
        value = entry->side == DYN_MERGE_MINE ? entry->mine : entry->server;

      for (guint k = 0; k + 1 < n; k++)
        {
          DynValue *child = path_step (container, entry->path, k);

          if (child == NULL)
            {
              child = dyn_expr_path_is_index (entry->path, k + 1) ? dyn_value_new_list () : dyn_value_new_map ();
              if (dyn_expr_path_is_index (entry->path, k))
                dyn_value_list_take (container, child);
              else
                dyn_value_map_take (container, dyn_expr_path_get_name (entry->path, k, NULL), child);
            }
          container = child;
        }
      if (value == NULL)
        continue;
      if (dyn_expr_path_is_index (entry->path, n - 1))
        dyn_value_list_append (container, value);
      else
        dyn_value_map_set (container, dyn_expr_path_get_name (entry->path, n - 1, NULL), value);
    }
  return item;
}

DynMergeEntry *
dyn_merge_lookup (GPtrArray  *entries,
                  const char *name)
{
  g_return_val_if_fail (entries != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      DynMergeEntry *entry = entries->pdata[i];

      if (strcmp (entry->name, name) == 0)
        return entry;
    }
  return NULL;
}

DynValue *
dyn_item_with_attribute (const DynValue *item,
                         const char     *name,
                         DynValue       *value)
{
  DynValue *copy;
  gboolean done = FALSE;

  g_return_val_if_fail (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  copy = dyn_value_new_map ();
  for (guint i = 0; i < dyn_value_get_length (item); i++)
    {
      const char *member = dyn_value_map_get_name (item, i);

      if (strcmp (member, name) == 0)
        {
          done = TRUE;
          if (value != NULL)
            dyn_value_map_set (copy, member, value);
        }
      else
        dyn_value_map_set (copy, member, dyn_value_map_get_value (item, i));
    }
  if (!done && value != NULL)
    dyn_value_map_set (copy, name, value);
  return copy;
}

DynValue *
dyn_item_key (const DynValue     *item,
              const DynKeySchema *keys)
{
  g_autoptr(DynValue) key = NULL;

  g_return_val_if_fail (item != NULL, NULL);
  g_return_val_if_fail (keys != NULL, NULL);

  key = dyn_value_new_map ();
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      const char *name = dyn_key_schema_get_attribute (keys, i, NULL);
      DynValue *v = dyn_value_map_lookup (item, name);

      if (v == NULL)
        return NULL;
      dyn_value_map_set (key, name, v);
    }
  return g_steal_pointer (&key);
}

gboolean
dyn_item_check_key (const DynValue     *item,
                    const DynKeySchema *keys,
                    GError            **error)
{
  guint n_partition = dyn_key_schema_get_n_partition_keys (keys);

  g_return_val_if_fail (item != NULL, FALSE);

  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("an item must be a map"));
      return FALSE;
    }
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (keys, i, &type);
      DynValue *value = dyn_value_map_lookup (item, name);

      if (value == NULL)
        {
          if (i < n_partition)
            /* Translators: %s is the partition key's name */
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s: the partition key attribute is missing"),
                         name);
          else
            /* Translators: %s is the sort key's name */
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s: the sort key attribute is missing"),
                         name);
          return FALSE;
        }
      if (dyn_value_get_value_type (value) != type)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: the first %s is a key attribute, the others DynamoDB types (S, N, B …) */
                       _("%s: the key attribute must be of type %s, not %s"),
                       name, dyn_value_type_to_string (type),
                       dyn_value_type_to_string (dyn_value_get_value_type (value)));
          return FALSE;
        }
      if ((type == DYN_VALUE_S && dyn_value_get_string_length (value) == 0) ||
          (type == DYN_VALUE_B && g_bytes_get_size (dyn_value_get_binary (value)) == 0))
        {
          /* Translators: %s is a key attribute */
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("%s: a key attribute must not be empty"),
                       name);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
dyn_item_check_index_keys (const DynValue     *item,
                           const DynTableKeys *table,
                           GError            **error)
{
  g_return_val_if_fail (item != NULL && table != NULL, FALSE);

  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    return TRUE;
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynIndexInfo *info = table->indexes->pdata[i];

      for (guint k = 0; k < dyn_key_schema_get_n_attributes (&info->keys); k++)
        {
          DynValueType type;
          const char *name = dyn_key_schema_get_attribute (&info->keys, k, &type);
          DynValue *value = dyn_value_map_lookup (item, name);

          if (value == NULL)
            continue;
          if (dyn_value_get_value_type (value) != type)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: the first %s is an attribute, the second an index, the others
                            * DynamoDB types (S, N, B …) */
                           _("%s is a key attribute of index %s: it must be of type %s, not %s"),
                           name, info->name, dyn_value_type_to_string (type),
                           dyn_value_type_to_string (dyn_value_get_value_type (value)));
              return FALSE;
            }
          if ((type == DYN_VALUE_S && dyn_value_get_string_length (value) == 0) ||
              (type == DYN_VALUE_B && g_bytes_get_size (dyn_value_get_binary (value)) == 0))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: the first %s is an attribute, the second an index */
                           _("%s is a key attribute of index %s: it must not be empty"), name, info->name);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Editable JSON */

static gboolean
is_scalar (const DynValue *value)
{
  DynValueType type = dyn_value_get_value_type (value);

  return type != DYN_VALUE_M && type != DYN_VALUE_L;
}

static void
append_indent (GString *out,
               guint    depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (out, "  ");
}

static void
append_set_element (GString        *out,
                    const DynValue *set,
                    guint           i)
{
  switch (dyn_value_get_value_type (set))
    {
    case DYN_VALUE_SS:
      {
        const char *s = dyn_value_set_get_string (set, i);
        dyn_json_append_string (out, s, strlen (s));
      }
      break;
    case DYN_VALUE_NS:
      {
        g_autoptr(DynValue) number = dyn_value_new_number (dyn_value_set_get_string (set, i), NULL);

        if (number != NULL)
          dyn_json_append_plain_value (out, number);
        else
          g_string_append (out, dyn_value_set_get_string (set, i));
      }
      break;
    case DYN_VALUE_BS:
      {
        g_autoptr(DynValue) binary = dyn_value_new_binary (dyn_value_set_get_binary (set, i));
        dyn_json_append_plain_value (out, binary);
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
append_editable (GString        *out,
                 const DynValue *value,
                 guint           depth)
{
  DynValueType type = dyn_value_get_value_type (value);
  guint n;

  switch (type)
    {
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append_c (out, '[');
      for (guint i = 0; i < dyn_value_get_length (value); i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_set_element (out, value, i);
        }
      g_string_append_c (out, ']');
      break;

    case DYN_VALUE_L:
      {
        gboolean inline_list = TRUE;
        gsize start = out->len;

        n = dyn_value_get_length (value);
        for (guint i = 0; i < n && inline_list; i++)
          inline_list = is_scalar (dyn_value_list_get (value, i));
        if (inline_list)
          {
            g_string_append_c (out, '[');
            for (guint i = 0; i < n; i++)
              {
                if (i > 0)
                  g_string_append (out, ", ");
                append_editable (out, dyn_value_list_get (value, i), depth + 1);
              }
            g_string_append_c (out, ']');
            if (out->len - start <= 72)
              break;
            g_string_truncate (out, start);
          }
        if (n == 0)
          {
            g_string_append (out, "[]");
            break;
          }
        g_string_append (out, "[\n");
        for (guint i = 0; i < n; i++)
          {
            append_indent (out, depth + 1);
            append_editable (out, dyn_value_list_get (value, i), depth + 1);
            g_string_append (out, i + 1 < n ? ",\n" : "\n");
          }
        append_indent (out, depth);
        g_string_append_c (out, ']');
      }
      break;

    case DYN_VALUE_M:
      n = dyn_value_get_length (value);
      if (n == 0)
        {
          g_string_append (out, "{}");
          break;
        }
      g_string_append (out, "{\n");
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyn_value_map_get_name (value, i);

          append_indent (out, depth + 1);
          dyn_json_append_string (out, name, strlen (name));
          g_string_append (out, ": ");
          append_editable (out, dyn_value_map_get_value (value, i), depth + 1);
          g_string_append (out, i + 1 < n ? ",\n" : "\n");
        }
      append_indent (out, depth);
      g_string_append_c (out, '}');
      break;

    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_B:
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
    default:
      dyn_json_append_plain_value (out, value);
      break;
    }
}

char *
dyn_item_to_editable_json (const DynValue *item)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (item != NULL, NULL);

  append_editable (out, item, 0);
  g_string_append_c (out, '\n');
  return g_string_free (out, FALSE);
}

static DynValue *restore_sets (DynValue *value, const DynValue *reference, const char *path, GError **error);

static DynValue *
list_to_set (DynValue     *list,
             DynValueType  set_type,
             const char   *path,
             GError      **error)
{
  DynValueType element_type = set_type == DYN_VALUE_SS ? DYN_VALUE_S
                              : set_type == DYN_VALUE_NS ? DYN_VALUE_N : DYN_VALUE_B;
  guint n = dyn_value_get_length (list);
  g_autoptr(GError) local_error = NULL;
  DynValue *set;

  if (n == 0)
    {
      if (set_type == DYN_VALUE_SS)
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                     /* Translators: %s is the attribute's path (Tags, Meta.Tags) */
                     _("%s: this string set cannot be empty; remove the attribute instead"), path);
      else if (set_type == DYN_VALUE_NS)
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                     /* Translators: %s is the attribute's path (Scores, Meta.Scores) */
                     _("%s: this number set cannot be empty; remove the attribute instead"), path);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                     /* Translators: %s is the attribute's path (Keys, Meta.Keys) */
                     _("%s: this binary set cannot be empty; remove the attribute instead"), path);
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    if (dyn_value_get_value_type (dyn_value_list_get (list, i)) != element_type)
      {
        if (set_type == DYN_VALUE_SS)
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %s is the attribute's path (Tags, Meta.Tags), %u counts from 1 */
                       _("%s: this attribute is a string set; element %u is not a string"), path, i + 1);
        else if (set_type == DYN_VALUE_NS)
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %s is the attribute's path (Scores, Meta.Scores), %u counts from 1 */
                       _("%s: this attribute is a number set; element %u is not a number"), path, i + 1);
        else
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
                       /* Translators: %s is the attribute's path (Keys, Meta.Keys), %u counts from 1 */
                       _("%s: this attribute is a binary set; element %u is not a binary value"), path, i + 1);
        return NULL;
      }

  if (set_type == DYN_VALUE_BS)
    {
      g_autofree GBytes **bytesv = g_new0 (GBytes *, n);

      for (guint i = 0; i < n; i++)
        bytesv[i] = dyn_value_get_binary (dyn_value_list_get (list, i));
      set = dyn_value_new_binary_set (bytesv, n, &local_error);
    }
  else
    {
      g_autofree const char **strv = g_new0 (const char *, n + 1);

      for (guint i = 0; i < n; i++)
        {
          DynValue *element = dyn_value_list_get (list, i);
          strv[i] = set_type == DYN_VALUE_SS ? dyn_value_get_string (element) : dyn_value_get_number (element);
        }
      set = set_type == DYN_VALUE_SS ? dyn_value_new_string_set (strv, n, &local_error)
                                     : dyn_value_new_number_set (strv, n, &local_error);
    }
  if (set == NULL)
    g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE, "%s: %s", path, local_error->message);
  return set;
}

static DynValue *
restore_sets (DynValue        *value,
              const DynValue  *reference,
              const char      *path,
              GError         **error)
{
  DynValueType type = dyn_value_get_value_type (value);
  DynValueType ref_type;

  if (reference == NULL)
    return dyn_value_ref (value);
  ref_type = dyn_value_get_value_type (reference);

  if (type == DYN_VALUE_L &&
      (ref_type == DYN_VALUE_SS || ref_type == DYN_VALUE_NS || ref_type == DYN_VALUE_BS))
    return list_to_set (value, ref_type, path, error);

  if (type == DYN_VALUE_M && ref_type == DYN_VALUE_M)
    {
      g_autoptr(DynValue) map = dyn_value_new_map ();

      for (guint i = 0; i < dyn_value_get_length (value); i++)
        {
          const char *name = dyn_value_map_get_name (value, i);
          g_autofree char *sub = *path ? g_strdup_printf ("%s.%s", path, name) : g_strdup (name);
          DynValue *restored = restore_sets (dyn_value_map_get_value (value, i),
                                             dyn_value_map_lookup (reference, name), sub, error);

          if (restored == NULL)
            return NULL;
          dyn_value_map_take (map, name, restored);
        }
      return g_steal_pointer (&map);
    }

  if (type == DYN_VALUE_L && ref_type == DYN_VALUE_L)
    {
      g_autoptr(DynValue) list = dyn_value_new_list ();

      for (guint i = 0; i < dyn_value_get_length (value); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s[%u]", path, i);
          DynValue *ref = i < dyn_value_get_length (reference) ? dyn_value_list_get (reference, i) : NULL;
          DynValue *restored = restore_sets (dyn_value_list_get (value, i), ref, sub, error);

          if (restored == NULL)
            return NULL;
          dyn_value_list_take (list, restored);
        }
      return g_steal_pointer (&list);
    }

  return dyn_value_ref (value);
}

DynValue *
dyn_item_from_editable_json (const char      *json,
                             gssize           len,
                             const DynValue  *reference,
                             GError         **error)
{
  g_autoptr(DynValue) value = NULL;

  g_return_val_if_fail (json != NULL, NULL);

  if (len < 0)
    len = strlen (json);
  value = dyn_json_decode_plain (json, len, error);
  if (value == NULL)
    return NULL;
  if (dyn_value_get_value_type (value) != DYN_VALUE_M)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_PROTOCOL, _("an item must be a JSON object"));
      return NULL;
    }
  if (reference == NULL || dyn_value_get_value_type (reference) != DYN_VALUE_M)
    return g_steal_pointer (&value);
  return restore_sets (value, reference, "", error);
}

static guint
line_of_offset (const char *text,
                gsize       offset)
{
  guint line = 1;

  for (gsize i = 0; i < offset && text[i] != '\0'; i++)
    if (text[i] == '\n')
      line++;
  return line;
}

guint
dyn_json_error_line (const char *text,
                     const char *message)
{
  const char *at;
  g_autofree char *name = NULL;
  gsize name_len;
  const char *p;

  g_return_val_if_fail (text != NULL, 0);

  if (message == NULL)
    return 0;
  at = strstr (message, "at byte ");
  if (at != NULL)
    {
      guint64 offset = g_ascii_strtoull (at + strlen ("at byte "), NULL, 10);
      return line_of_offset (text, MIN (offset, strlen (text)));
    }

  /* "Tags: …" or "Meta.Tags[2]: …": find the first path segment as a member name. */
  name_len = strcspn (message, ".[: ");
  if (name_len == 0 || message[name_len] == ' ' || message[name_len] == '\0')
    return 0;
  name = g_strdup_printf ("\"%.*s\"", (int) name_len, message);
  for (p = strstr (text, name); p != NULL; p = strstr (p + 1, name))
    {
      const char *q = p + strlen (name);

      while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
        q++;
      if (*q == ':')
        return line_of_offset (text, p - text);
    }
  return 0;
}
