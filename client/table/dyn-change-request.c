/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change-request"

#include "config.h"

#include <string.h>

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* Building one request */

void
_dyn_changes_builder_init (DynChangesBuilder *b,
                           DynOperation       op,
                           const char        *table)
{
  b->request = dyn_request_new (op, table);
  b->request->return_consumed_capacity = FALSE;
  b->request->return_values_on_condition_check_failure = g_strdup ("ALL_OLD");
  b->name_alias = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  b->used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

void
_dyn_changes_builder_clear (DynChangesBuilder *b)
{
  g_clear_pointer (&b->request, dyn_request_free);
  g_clear_pointer (&b->name_alias, g_hash_table_unref);
  g_clear_pointer (&b->used, g_hash_table_unref);
  g_clear_pointer (&b->map_type, g_free);
}

/* A readable placeholder stem for @name: the name itself when it is short
 * and made of [A-Za-z0-9_], else its first alphanumerics, else "a". */
static char *
stem_of (const char *name)
{
  GString *s = g_string_new (NULL);
  gboolean clean = TRUE;

  for (const char *p = name; *p; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_')
        {
          if (s->len < 24)
            g_string_append_c (s, *p);
        }
      else
        clean = FALSE;
    }
  if (!clean && s->len > 12)
    g_string_truncate (s, 12);
  if (s->len == 0)
    g_string_append_c (s, 'a');
  return g_string_free (s, FALSE);
}

static char *
unique_placeholder (DynChangesBuilder *b,
                    char               sigil,
                    const char        *stem)
{
  char *p = g_strdup_printf ("%c%s", sigil, stem);

  for (guint n = 2; g_hash_table_contains (b->used, p); n++)
    {
      g_free (p);
      p = g_strdup_printf ("%c%s%u", sigil, stem, n);
    }
  g_hash_table_add (b->used, g_strdup (p));
  return p;
}

const char *
_dyn_changes_alias_name (DynChangesBuilder *b,
                         const char        *name)
{
  const char *alias = g_hash_table_lookup (b->name_alias, name);
  g_autofree char *stem = NULL;
  char *p;

  if (alias != NULL)
    return alias;
  stem = stem_of (name);
  p = unique_placeholder (b, '#', stem);
  dyn_request_add_name (b->request, p, name);
  g_hash_table_insert (b->name_alias, g_strdup (name), p);
  return p;
}

char *
_dyn_changes_add_value (DynChangesBuilder *b,
                        const char        *prefix,
                        const char        *name,
                        DynValue          *value)
{
  g_autofree char *stem = stem_of (name);
  g_autofree char *full = g_strconcat (prefix, stem, NULL);
  char *p = unique_placeholder (b, ':', full);

  dyn_request_add_value (b->request, p, value);
  return p;
}

/* The path with every name aliased: "#info.#rating", "#genres[1]". */
static char *
alias_path (DynChangesBuilder *b,
            const DynExprPath *path)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < dyn_expr_path_get_length (path); i++)
    {
      if (dyn_expr_path_is_index (path, i))
        {
          g_string_append_printf (s, "[%u]", dyn_expr_path_get_index (path, i));
          continue;
        }
      if (i > 0)
        g_string_append_c (s, '.');
      g_string_append (s, _dyn_changes_alias_name (b, dyn_expr_path_get_name (path, i, NULL)));
    }
  return g_string_free (s, FALSE);
}

/* The last name on @path: the stem of its value placeholders. */
static const char *
path_stem (const DynExprPath *path)
{
  for (guint i = dyn_expr_path_get_length (path); i-- > 0;)
    if (!dyn_expr_path_is_index (path, i))
      return dyn_expr_path_get_name (path, i, NULL);
  return "a";
}

/* The first @n segments of @path. */
DynExprPath *
_dyn_changes_path_prefix (const DynExprPath *path,
                          guint              n)
{
  DynExprPath *prefix = dyn_expr_path_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (dyn_expr_path_is_index (path, i))
        dyn_expr_path_append_index (prefix, dyn_expr_path_get_index (path, i));
      else
        dyn_expr_path_append_name (prefix, dyn_expr_path_get_name (path, i, NULL));
    }
  return prefix;
}

void
_dyn_changes_remove_free (DynChangesRemove *r)
{
  g_free (r->text);
  g_free (r);
}

void
_dyn_changes_clause_append (GString    *clause,
                            const char *text)
{
  if (clause->len > 0)
    g_string_append (clause, ", ");
  g_string_append (clause, text);
}

static gboolean
set_contains (DynValue *set,
              DynValue *of,
              guint     i)
{
  DynValueType t = dyn_value_get_value_type (set);

  for (guint j = 0; j < dyn_value_get_length (set); j++)
    switch (t)
      {
      case DYN_VALUE_SS:
        if (strcmp (dyn_value_set_get_string (set, j), dyn_value_set_get_string (of, i)) == 0)
          return TRUE;
        break;
      case DYN_VALUE_NS:
        if (dyn_number_compare (dyn_value_set_get_string (set, j), dyn_value_set_get_string (of, i)) == 0)
          return TRUE;
        break;
      case DYN_VALUE_BS:
        if (g_bytes_equal (dyn_value_set_get_binary (set, j), dyn_value_set_get_binary (of, i)))
          return TRUE;
        break;
      default:
        g_assert_not_reached ();
      }
  return FALSE;
}

/* The elements of @a missing from @b, as a set of the same type, or NULL. */
static DynValue *
set_minus (DynValue *a,
           DynValue *b)
{
  DynValueType t = dyn_value_get_value_type (a);
  g_autoptr(GPtrArray) elems = g_ptr_array_new ();

  for (guint i = 0; i < dyn_value_get_length (a); i++)
    if (!set_contains (b, a, i))
      g_ptr_array_add (elems, t == DYN_VALUE_BS ? (gpointer) dyn_value_set_get_binary (a, i)
                                                : (gpointer) dyn_value_set_get_string (a, i));
  if (elems->len == 0)
    return NULL;
  switch (t)
    {
    case DYN_VALUE_SS:
      return dyn_value_new_string_set ((const char * const *) elems->pdata, elems->len, NULL);
    case DYN_VALUE_NS:
      return dyn_value_new_number_set ((const char * const *) elems->pdata, elems->len, NULL);
    default:
      return dyn_value_new_binary_set ((GBytes * const *) elems->pdata, elems->len, NULL);
    }
}

static gboolean
is_set_type (DynValueType t)
{
  return t == DYN_VALUE_SS || t == DYN_VALUE_NS || t == DYN_VALUE_BS;
}

/* One path of the diff as a clause of the update expression. */
void
_dyn_changes_write_entry (DynChangesBuilder *b,
                          DynChangesClauses *c,
                          DynDiffEntry      *entry)
{
  g_autofree char *path = alias_path (b, entry->path);
  const char *stem = path_stem (entry->path);

  if (entry->kind == DYN_DIFF_REMOVED)
    {
      DynChangesRemove *r = g_new0 (DynChangesRemove, 1);

      r->depth = dyn_expr_path_get_length (entry->path);
      r->text = g_steal_pointer (&path);
      g_ptr_array_add (c->removes, r);
      return;
    }

  if (entry->kind == DYN_DIFF_CHANGED)
    {
      DynValueType t = dyn_value_get_value_type (entry->after);

      if (is_set_type (t) && dyn_value_get_value_type (entry->before) == t)
        {
          g_autoptr(DynValue) added = set_minus (entry->after, entry->before);
          g_autoptr(DynValue) removed = set_minus (entry->before, entry->after);
          gsize whole = dyn_value_size (entry->after);

          /* ADD and DELETE on one path overlap: one of them, or SET. */
          if (added != NULL && removed == NULL && dyn_value_size (added) < whole)
            {
              g_autofree char *p = _dyn_changes_add_value (b, "", stem, added);
              g_autofree char *text = g_strdup_printf ("%s %s", path, p);
              _dyn_changes_clause_append (c->add, text);
              return;
            }
          if (removed != NULL && added == NULL && dyn_value_size (removed) < whole)
            {
              g_autofree char *p = _dyn_changes_add_value (b, "", stem, removed);
              g_autofree char *text = g_strdup_printf ("%s %s", path, p);
              _dyn_changes_clause_append (c->del, text);
              return;
            }
        }
    }

  /* Scalars, lists that changed length, a new map, a changed type: the
   * whole value at the path. */
  {
    g_autofree char *p = _dyn_changes_add_value (b, "", stem, entry->after);
    g_autofree char *text = g_strdup_printf ("%s = %s", path, p);
    _dyn_changes_clause_append (c->set, text);
  }
}

static int
remove_depth_cmp (gconstpointer a,
                  gconstpointer b)
{
  const DynChangesRemove *ra = *(const DynChangesRemove **) a;
  const DynChangesRemove *rb = *(const DynChangesRemove **) b;

  return (int) ra->depth - (int) rb->depth;
}

char *
_dyn_changes_clauses_to_expression (DynChangesClauses *c)
{
  GString *s = g_string_new (NULL);
  g_autoptr(GString) remove = g_string_new (NULL);
  const struct { const char *kw; GString *clause; } parts[] = {
    { "SET", c->set }, { "REMOVE", remove }, { "ADD", c->add }, { "DELETE", c->del },
  };

  /* Top-level attributes first (a stable sort keeps the item order). */
  g_ptr_array_sort (c->removes, remove_depth_cmp);
  for (guint i = 0; i < c->removes->len; i++)
    _dyn_changes_clause_append (remove, ((DynChangesRemove *) c->removes->pdata[i])->text);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i].clause->len > 0)
      g_string_append_printf (s, "%s%s %s", s->len ? " " : "", parts[i].kw, parts[i].clause->str);
  return g_string_free (s, FALSE);
}

void
_dyn_changes_guard_append_path (DynChangesBuilder *b,
                                GString           *guard,
                                DynChangesTermKind kind,
                                const DynExprPath *path,
                                DynValue          *value)
{
  g_autofree char *alias = alias_path (b, path);
  const char *stem = path_stem (path);

  if (guard->len > 0)
    g_string_append (guard, " AND ");
  switch (kind)
    {
    case DYN_CHANGES_TERM_EQUAL:
      {
        g_autofree char *p = _dyn_changes_add_value (b, "old_", stem, value);
        g_string_append_printf (guard, "%s = %s", alias, p);
      }
      break;
    case DYN_CHANGES_TERM_NOT_EXISTS:
      g_string_append_printf (guard, "attribute_not_exists(%s)", alias);
      break;
    case DYN_CHANGES_TERM_EXISTS:
      g_string_append_printf (guard, "attribute_exists(%s)", alias);
      break;
    case DYN_CHANGES_TERM_IS_MAP:
      if (b->map_type == NULL)
        {
          g_autoptr(DynValue) m = dyn_value_new_string ("M");
          b->map_type = _dyn_changes_add_value (b, "type_", "M", m);
        }
      g_string_append_printf (guard, "attribute_type(%s, %s)", alias, b->map_type);
      break;
    case DYN_CHANGES_TERM_SIZE:
      {
        g_autofree char *p = _dyn_changes_add_value (b, "size_", stem, value);
        g_string_append_printf (guard, "size(%s) = %s", alias, p);
      }
      break;
    }
}

void
_dyn_changes_guard_append (DynChangesBuilder *b,
                           GString           *guard,
                           DynChangesTermKind kind,
                           const char        *name,
                           DynValue          *value)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_new (name);

  _dyn_changes_guard_append_path (b, guard, kind, path, value);
}
