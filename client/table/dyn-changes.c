/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-changes"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-changes.h"
#include "dyn-diff.h"

/* ------------------------------------------------------------------------ */
/* DynChange */

struct _DynChange
{
  gatomicrefcount  ref_count;
  DynValue        *before;
  DynValue        *after;
};

G_DEFINE_BOXED_TYPE (DynChange, dyn_change, dyn_change_ref, dyn_change_unref)

DynChange *
dyn_change_new (DynValue *before,
                DynValue *after)
{
  DynChange *self;

  g_return_val_if_fail (before != NULL || after != NULL, NULL);

  self = g_new0 (DynChange, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->before = before ? dyn_value_ref (before) : NULL;
  self->after = after ? dyn_value_ref (after) : NULL;
  return self;
}

DynChange *
dyn_change_ref (DynChange *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_change_unref (DynChange *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->before, dyn_value_unref);
  g_clear_pointer (&self->after, dyn_value_unref);
  g_free (self);
}

DynValue *
dyn_change_get_before (const DynChange *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->before;
}

DynValue *
dyn_change_get_after (const DynChange *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->after;
}

static gboolean
opt_equal (DynValue *a,
           DynValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return dyn_value_equal (a, b);
}

static gboolean
same_key (const DynKeySchema *keys,
          DynValue           *a,
          DynValue           *b)
{
  if (!opt_equal (dyn_value_map_lookup (a, keys->partition_key),
                  dyn_value_map_lookup (b, keys->partition_key)))
    return FALSE;
  if (keys->sort_key != NULL &&
      !opt_equal (dyn_value_map_lookup (a, keys->sort_key),
                  dyn_value_map_lookup (b, keys->sort_key)))
    return FALSE;
  return TRUE;
}

DynChangeKind
dyn_change_get_kind (const DynChange    *self,
                     const DynKeySchema *keys)
{
  g_return_val_if_fail (self != NULL, DYN_CHANGE_KIND_NONE);
  g_return_val_if_fail (keys != NULL, DYN_CHANGE_KIND_NONE);

  if (self->before == NULL)
    return DYN_CHANGE_KIND_CREATE;
  if (self->after == NULL)
    return DYN_CHANGE_KIND_DELETE;
  if (!same_key (keys, self->before, self->after))
    return DYN_CHANGE_KIND_KEY_CHANGE;
  if (dyn_value_equal (self->before, self->after))
    return DYN_CHANGE_KIND_NONE;
  return DYN_CHANGE_KIND_UPDATE;
}

const char *
dyn_change_kind_to_string (DynChangeKind kind)
{
  static const char * const names[] = { "none", "create", "update", "delete", "key-change" };

  g_return_val_if_fail (kind <= DYN_CHANGE_KIND_KEY_CHANGE, NULL);
  return names[kind];
}

const char *
dyn_change_status_to_string (DynChangeStatus status)
{
  static const char * const names[] = {
    "pending", "unchanged", "applied", "conflict", "not-applied", "failed"
  };

  g_return_val_if_fail (status <= DYN_CHANGE_STATUS_FAILED, NULL);
  return names[status];
}

/* ------------------------------------------------------------------------ */
/* Exact increment */

/* Adds 1 to the non-negative integer digits @digits (no sign). */
static char *
digits_increment (const char *digits)
{
  gsize n = strlen (digits);
  g_autofree char *out = g_malloc (n + 2);
  int carry = 1;

  out[n + 1] = '\0';
  for (gssize i = n - 1; i >= 0; i--)
    {
      int d = digits[i] - '0' + carry;
      carry = d / 10;
      out[i + 1] = '0' + d % 10;
    }
  out[0] = carry ? '1' : '0';
  return g_strdup (out[0] == '0' && n > 0 ? out + 1 : out);
}

/* Subtracts 1 from positive integer digits; strips leading zeros ("0" stays). */
static char *
digits_decrement (const char *digits)
{
  g_autofree char *out = g_strdup (digits);
  gssize i = strlen (out) - 1;
  const char *p;

  while (i >= 0 && out[i] == '0')
    out[i--] = '9';
  if (i >= 0)
    out[i]--;
  for (p = out; p[0] == '0' && p[1] != '\0'; p++)
    ;
  return g_strdup (p);
}

char *
dyn_number_increment (const char  *text,
                      GError     **error)
{
  g_autofree char *canon = NULL;
  g_autofree char *int_part = NULL;
  g_autofree char *result = NULL;
  const char *frac = "";
  const char *dot;
  gboolean negative;
  const char *abs_text;

  g_return_val_if_fail (text != NULL, NULL);

  if (!dyn_number_validate (text, error))
    return NULL;
  /* Plain notation without exponent, sign "+" or zeros that do not count. */
  canon = dyn_number_canonicalize (text);
  negative = canon[0] == '-';
  abs_text = negative ? canon + 1 : canon;
  dot = strchr (abs_text, '.');
  if (dot != NULL)
    {
      int_part = g_strndup (abs_text, dot - abs_text);
      frac = dot + 1;
    }
  else
    int_part = g_strdup (abs_text);
  if (int_part[0] == '\0')
    {
      g_free (int_part);
      int_part = g_strdup ("0");
    }

  if (!negative)
    {
      g_autofree char *inc = digits_increment (int_part);
      result = *frac ? g_strconcat (inc, ".", frac, NULL) : g_steal_pointer (&inc);
    }
  else if (strcmp (int_part, "0") != 0)
    {
      g_autofree char *dec = digits_decrement (int_part);

      if (strcmp (dec, "0") == 0)
        result = *frac ? g_strconcat ("-0.", frac, NULL) : g_strdup ("0");
      else
        result = *frac ? g_strconcat ("-", dec, ".", frac, NULL) : g_strconcat ("-", dec, NULL);
    }
  else
    {
      /* -0.f + 1 = 0.(10^k - f) with k the digits of f. */
      gsize k = strlen (frac);
      g_autofree char *comp = g_malloc (k + 1);
      gssize end;

      comp[k] = '\0';
      /* The canonical fraction ends in a non-zero digit, so digit by digit:
       * the last one from 10, the others from 9, and nothing borrows. */
      for (gsize i = 0; i < k; i++)
        comp[i] = '0' + (i == k - 1 ? 10 : 9) - (frac[i] - '0');
      end = k;
      while (end > 0 && comp[end - 1] == '0')
        comp[--end] = '\0';
      result = g_strconcat ("0.", comp, NULL);
    }

  if (!dyn_number_validate (result, error))
    return NULL;
  return g_steal_pointer (&result);
}

/* ------------------------------------------------------------------------ */
/* Items */

/* A copy of @item with @name set to @value (or removed when @value is NULL),
 * member order kept. */
static DynValue *
item_with (DynValue   *item,
           const char *name,
           DynValue   *value)
{
  DynValue *copy = dyn_value_new_map ();
  gboolean done = FALSE;

  for (guint i = 0; i < dyn_value_get_length (item); i++)
    {
      const char *n = dyn_value_map_get_name (item, i);

      if (strcmp (n, name) == 0)
        {
          if (value != NULL)
            dyn_value_map_set (copy, n, value);
          done = TRUE;
        }
      else
        dyn_value_map_set (copy, n, dyn_value_map_get_value (item, i));
    }
  if (!done && value != NULL)
    dyn_value_map_set (copy, name, value);
  return copy;
}

static DynValue *
key_of (const DynKeySchema *keys,
        DynValue           *item)
{
  DynValue *key = dyn_value_new_map ();

  dyn_value_map_set (key, keys->partition_key, dyn_value_map_lookup (item, keys->partition_key));
  if (keys->sort_key != NULL)
    dyn_value_map_set (key, keys->sort_key, dyn_value_map_lookup (item, keys->sort_key));
  return key;
}

static gboolean
is_key_attribute (const DynKeySchema *keys,
                  const char         *name)
{
  return strcmp (name, keys->partition_key) == 0 ||
         (keys->sort_key != NULL && strcmp (name, keys->sort_key) == 0);
}

/* A text identifying the item a key addresses: numbers by value. */
static char *
key_identity (const DynKeySchema *keys,
              DynValue           *item)
{
  GString *s = g_string_new (NULL);
  const char *names[] = { keys->partition_key, keys->sort_key };

  for (guint i = 0; i < G_N_ELEMENTS (names) && names[i] != NULL; i++)
    {
      DynValue *v = dyn_value_map_lookup (item, names[i]);

      g_string_append_c (s, '\x1f');
      switch (dyn_value_get_value_type (v))
        {
        case DYN_VALUE_N:
          {
            g_autofree char *canon = dyn_number_canonicalize (dyn_value_get_number (v));
            g_string_append_printf (s, "N%s", canon);
          }
          break;
        case DYN_VALUE_S:
          g_string_append_c (s, 'S');
          g_string_append_len (s, dyn_value_get_string (v), dyn_value_get_string_length (v));
          break;
        default:
          {
            g_autofree char *json = dyn_value_to_ddb_json_string (v);
            g_string_append (s, json);
          }
          break;
        }
    }
  return g_string_free (s, FALSE);
}

static char *
key_display (const DynKeySchema *keys,
             DynValue           *item)
{
  g_autoptr(DynValue) key = key_of (keys, item);
  return dyn_value_to_plain_json_string (key);
}

/* The version to write: before's version + 1, "1" for a new item. NULL when
 * the table has no version attribute or before's version is not a number. */
static DynValue *
next_version (const char *version_attribute,
              DynValue   *before,
              GError    **error)
{
  DynValue *v;
  g_autofree char *next = NULL;

  if (version_attribute == NULL)
    return NULL;
  if (before == NULL)
    return dyn_value_new_number ("1", error);
  v = dyn_value_map_lookup (before, version_attribute);
  if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_N)
    return NULL;
  next = dyn_number_increment (dyn_value_get_number (v), error);
  if (next == NULL)
    return NULL;
  return dyn_value_new_number (next, error);
}

static DynValue *
version_of (const char *version_attribute,
            DynValue   *item)
{
  DynValue *v;

  if (version_attribute == NULL || item == NULL)
    return NULL;
  v = dyn_value_map_lookup (item, version_attribute);
  if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_N)
    return NULL;
  return v;
}

/* The item a create (or the create half of a key change) puts. */
static DynValue *
item_to_put (const char *version_attribute,
             DynValue   *before,
             DynValue   *after,
             GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynValue) version = NULL;

  if (version_attribute == NULL)
    return dyn_value_ref (after);
  if (before != NULL && version_of (version_attribute, before) != NULL)
    version = next_version (version_attribute, before, &local_error);
  else if (dyn_value_map_lookup (after, version_attribute) == NULL)
    version = next_version (version_attribute, NULL, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (version == NULL)
    return dyn_value_ref (after);
  return item_with (after, version_attribute, version);
}

DynChange *
dyn_change_inverse (const DynChange *self,
                    const char      *version_attribute)
{
  g_autoptr(DynValue) left = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->after == NULL)
    return dyn_change_new (NULL, self->before);

  if (self->before == NULL || version_of (version_attribute, self->before) == NULL)
    left = item_to_put (version_attribute, self->before, self->after, NULL);
  else
    {
      g_autoptr(DynValue) version = next_version (version_attribute, self->before, NULL);
      left = version ? item_with (self->after, version_attribute, version)
                     : dyn_value_ref (self->after);
    }
  if (left == NULL)
    left = dyn_value_ref (self->after);
  return dyn_change_new (left, self->before);
}

/* ------------------------------------------------------------------------ */
/* Building one request */

typedef struct
{
  DynRequest *request;
  GHashTable *name_alias;   /* attribute name → "#x" */
  GHashTable *used;         /* every placeholder handed out */
  char       *map_type;     /* the ":type_M" placeholder, once used */
} Builder;

static void
builder_init (Builder    *b,
              DynOperation op,
              const char *table)
{
  b->request = dyn_request_new (op, table);
  b->request->return_consumed_capacity = FALSE;
  b->request->return_values_on_condition_check_failure = g_strdup ("ALL_OLD");
  b->name_alias = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  b->used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
builder_clear (Builder *b)
{
  g_clear_pointer (&b->request, dyn_request_free);
  g_clear_pointer (&b->name_alias, g_hash_table_unref);
  g_clear_pointer (&b->used, g_hash_table_unref);
  g_clear_pointer (&b->map_type, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Builder, builder_clear)

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
unique_placeholder (Builder    *b,
                    char        sigil,
                    const char *stem)
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

static const char *
alias_name (Builder    *b,
            const char *name)
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

static char *
add_value (Builder    *b,
           const char *prefix,
           const char *name,
           DynValue   *value)
{
  g_autofree char *stem = stem_of (name);
  g_autofree char *full = g_strconcat (prefix, stem, NULL);
  char *p = unique_placeholder (b, ':', full);

  dyn_request_add_value (b->request, p, value);
  return p;
}

/* The path with every name aliased: "#info.#rating", "#genres[1]". */
static char *
alias_path (Builder           *b,
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
      g_string_append (s, alias_name (b, dyn_expr_path_get_name (path, i, NULL)));
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
static DynExprPath *
path_prefix (const DynExprPath *path,
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

/* The update expression's clauses. */
typedef struct
{
  GString   *set;
  GString   *add;
  GString   *del;
  GPtrArray *removes;   /* Remove* */
} Clauses;

typedef struct
{
  guint  depth;
  char  *text;
} Remove;

static void
remove_free (Remove *r)
{
  g_free (r->text);
  g_free (r);
}

static void
clause_append (GString    *clause,
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
static void
write_entry (Builder      *b,
             Clauses      *c,
             DynDiffEntry *entry)
{
  g_autofree char *path = alias_path (b, entry->path);
  const char *stem = path_stem (entry->path);

  if (entry->kind == DYN_DIFF_REMOVED)
    {
      Remove *r = g_new0 (Remove, 1);

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
              g_autofree char *p = add_value (b, "", stem, added);
              g_autofree char *text = g_strdup_printf ("%s %s", path, p);
              clause_append (c->add, text);
              return;
            }
          if (removed != NULL && added == NULL && dyn_value_size (removed) < whole)
            {
              g_autofree char *p = add_value (b, "", stem, removed);
              g_autofree char *text = g_strdup_printf ("%s %s", path, p);
              clause_append (c->del, text);
              return;
            }
        }
    }

  /* Scalars, lists that changed length, a new map, a changed type: the
   * whole value at the path. */
  {
    g_autofree char *p = add_value (b, "", stem, entry->after);
    g_autofree char *text = g_strdup_printf ("%s = %s", path, p);
    clause_append (c->set, text);
  }
}

static int
remove_depth_cmp (gconstpointer a,
                  gconstpointer b)
{
  const Remove *ra = *(const Remove **) a;
  const Remove *rb = *(const Remove **) b;

  return (int) ra->depth - (int) rb->depth;
}

static char *
clauses_to_expression (Clauses *c)
{
  GString *s = g_string_new (NULL);
  g_autoptr(GString) remove = g_string_new (NULL);
  const struct { const char *kw; GString *clause; } parts[] = {
    { "SET", c->set }, { "REMOVE", remove }, { "ADD", c->add }, { "DELETE", c->del },
  };

  /* Top-level attributes first (a stable sort keeps the item order). */
  g_ptr_array_sort (c->removes, remove_depth_cmp);
  for (guint i = 0; i < c->removes->len; i++)
    clause_append (remove, ((Remove *) c->removes->pdata[i])->text);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i].clause->len > 0)
      g_string_append_printf (s, "%s%s %s", s->len ? " " : "", parts[i].kw, parts[i].clause->str);
  return g_string_free (s, FALSE);
}

/* One guard term. */
typedef enum {
  TERM_EQUAL,
  TERM_NOT_EXISTS,
  TERM_EXISTS,
  TERM_IS_MAP,
  TERM_SIZE,
} TermKind;

static void
guard_append_path (Builder           *b,
                   GString           *guard,
                   TermKind           kind,
                   const DynExprPath *path,
                   DynValue          *value)
{
  g_autofree char *alias = alias_path (b, path);
  const char *stem = path_stem (path);

  if (guard->len > 0)
    g_string_append (guard, " AND ");
  switch (kind)
    {
    case TERM_EQUAL:
      {
        g_autofree char *p = add_value (b, "old_", stem, value);
        g_string_append_printf (guard, "%s = %s", alias, p);
      }
      break;
    case TERM_NOT_EXISTS:
      g_string_append_printf (guard, "attribute_not_exists(%s)", alias);
      break;
    case TERM_EXISTS:
      g_string_append_printf (guard, "attribute_exists(%s)", alias);
      break;
    case TERM_IS_MAP:
      if (b->map_type == NULL)
        {
          g_autoptr(DynValue) m = dyn_value_new_string ("M");
          b->map_type = add_value (b, "type_", "M", m);
        }
      g_string_append_printf (guard, "attribute_type(%s, %s)", alias, b->map_type);
      break;
    case TERM_SIZE:
      {
        g_autofree char *p = add_value (b, "size_", stem, value);
        g_string_append_printf (guard, "size(%s) = %s", alias, p);
      }
      break;
    }
}

static void
guard_append (Builder    *b,
              GString    *guard,
              TermKind    kind,
              const char *name,
              DynValue   *value)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_new (name);

  guard_append_path (b, guard, kind, path, value);
}

/* ------------------------------------------------------------------------ */
/* Plans */

typedef struct
{
  guint       change;
  DynRequest *request;
} Action;

static void
action_free (Action *a)
{
  g_clear_pointer (&a->request, dyn_request_free);
  g_free (a);
}

typedef struct
{
  DynChangeKind kind;
  const char   *guard;        /* "values", "version", … or NULL */
  char         *guard_text;   /* the sentence, translated */
  char         *description;
  guint         first_action;
  guint         n_actions;
  int           request;      /* -1 when nothing is sent */
} ChangePlan;

typedef struct
{
  char   *operation;          /* "TransactWriteItems", "UpdateItem" … */
  guint   first_action;
  guint   n_actions;
  GArray *changes;            /* guint */
  char   *token;              /* borrowed from the set; NULL for a single request */
} RequestPlan;

typedef struct
{
  GPtrArray  *actions;        /* Action* */
  ChangePlan *changes;
  guint       n_changes;
  GPtrArray  *requests;       /* RequestPlan* */
} Plan;

static void
request_plan_free (RequestPlan *r)
{
  g_free (r->operation);
  g_array_unref (r->changes);
  g_free (r);
}

static void
plan_free (Plan *plan)
{
  if (plan == NULL)
    return;
  g_ptr_array_unref (plan->actions);
  for (guint i = 0; i < plan->n_changes; i++)
    {
      g_free (plan->changes[i].guard_text);
      g_free (plan->changes[i].description);
    }
  g_free (plan->changes);
  g_ptr_array_unref (plan->requests);
  g_free (plan);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Plan, plan_free)

/* ------------------------------------------------------------------------ */
/* DynChangeSet */

struct _DynChangeSet
{
  GObject       parent_instance;

  char         *table;
  DynKeySchema  keys;
  char         *version_attribute;
  DynGuardMode  guard_mode;
  gboolean      single_requests;
  guint         max_actions;
  GPtrArray    *changes;      /* DynChange* */
  GPtrArray    *tokens;       /* char*, one per planned transaction */
};

G_DEFINE_FINAL_TYPE (DynChangeSet, dyn_change_set, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (DynGuardMode, dyn_guard_mode,
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_CHANGES, "changes"),
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_ITEM, "item"),
                    G_DEFINE_ENUM_VALUE (DYN_GUARD_VERSION, "version"))

enum {
  PROP_0,
  PROP_GUARD_MODE,
  PROP_VERSION_ATTRIBUTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The version attribute the plan uses: only in DYN_GUARD_VERSION. */
static const char *
version_in_use (DynChangeSet *self)
{
  return self->guard_mode == DYN_GUARD_VERSION ? self->version_attribute : NULL;
}

static void
dyn_change_set_finalize (GObject *object)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  g_free (self->table);
  g_free (self->keys.partition_key);
  g_free (self->keys.sort_key);
  g_free (self->version_attribute);
  g_ptr_array_unref (self->changes);
  g_ptr_array_unref (self->tokens);

  G_OBJECT_CLASS (dyn_change_set_parent_class)->finalize (object);
}

static void
dyn_change_set_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  switch (prop_id)
    {
    case PROP_GUARD_MODE:
      g_value_set_enum (value, self->guard_mode);
      break;
    case PROP_VERSION_ATTRIBUTE:
      g_value_set_string (value, self->version_attribute);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_change_set_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  DynChangeSet *self = DYN_CHANGE_SET (object);

  switch (prop_id)
    {
    case PROP_GUARD_MODE:
      dyn_change_set_set_guard_mode (self, g_value_get_enum (value));
      break;
    case PROP_VERSION_ATTRIBUTE:
      dyn_change_set_set_version_attribute (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dyn_change_set_class_init (DynChangeSetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = dyn_change_set_finalize;
  object_class->get_property = dyn_change_set_get_property;
  object_class->set_property = dyn_change_set_set_property;

  properties[PROP_GUARD_MODE] =
    g_param_spec_enum ("guard-mode", NULL, NULL, DYN_TYPE_GUARD_MODE, DYN_GUARD_CHANGES,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VERSION_ATTRIBUTE] =
    g_param_spec_string ("version-attribute", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
dyn_change_set_init (DynChangeSet *self)
{
  self->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_change_unref);
  self->tokens = g_ptr_array_new_with_free_func (g_free);
  self->max_actions = DYN_TRANSACTION_MAX_ACTIONS;
}

DynChangeSet *
dyn_change_set_new (const char         *table,
                    const DynKeySchema *keys)
{
  DynChangeSet *self;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (keys != NULL && keys->partition_key != NULL, NULL);

  self = g_object_new (DYN_TYPE_CHANGE_SET, NULL);
  self->table = g_strdup (table);
  self->keys.partition_key = g_strdup (keys->partition_key);
  self->keys.partition_type = keys->partition_type;
  self->keys.sort_key = g_strdup (keys->sort_key);
  self->keys.sort_type = keys->sort_type;
  return self;
}

const char *
dyn_change_set_get_table (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  return self->table;
}

void
dyn_change_set_set_version_attribute (DynChangeSet *self,
                                      const char   *name)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  if (name != NULL && *name == '\0')
    name = NULL;
  if (g_strcmp0 (self->version_attribute, name) == 0)
    return;
  g_free (self->version_attribute);
  self->version_attribute = g_strdup (name);
  g_ptr_array_set_size (self->tokens, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VERSION_ATTRIBUTE]);
  if (name != NULL)
    dyn_change_set_set_guard_mode (self, DYN_GUARD_VERSION);
  else if (self->guard_mode == DYN_GUARD_VERSION)
    dyn_change_set_set_guard_mode (self, DYN_GUARD_CHANGES);
}

const char *
dyn_change_set_get_version_attribute (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  return self->version_attribute;
}

void
dyn_change_set_set_guard_mode (DynChangeSet *self,
                               DynGuardMode  mode)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (mode <= DYN_GUARD_VERSION);

  if (self->guard_mode == mode)
    return;
  self->guard_mode = mode;
  g_ptr_array_set_size (self->tokens, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GUARD_MODE]);
}

DynGuardMode
dyn_change_set_get_guard_mode (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), DYN_GUARD_CHANGES);
  return self->guard_mode;
}

void
dyn_change_set_set_single_requests (DynChangeSet *self,
                                    gboolean      single)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  self->single_requests = !!single;
  g_ptr_array_set_size (self->tokens, 0);
}

void
dyn_change_set_set_max_actions (DynChangeSet *self,
                                guint         max_actions)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (max_actions >= 2 && max_actions <= DYN_TRANSACTION_MAX_ACTIONS);
  self->max_actions = max_actions;
  g_ptr_array_set_size (self->tokens, 0);
}

static gboolean
check_item (DynChangeSet  *self,
            const char    *what,
            DynValue      *item,
            GError       **error)
{
  const char *names[] = { self->keys.partition_key, self->keys.sort_key };

  if (item == NULL)
    return TRUE;
  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s is not an item (a map)", what);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names) && names[i] != NULL; i++)
    {
      DynValue *v = dyn_value_map_lookup (item, names[i]);
      DynValueType want = i == 0 ? self->keys.partition_type : self->keys.sort_type;

      if (v == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "%s lacks the key attribute %s", what, names[i]);
          return FALSE;
        }
      if (dyn_value_get_value_type (v) != want)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "%s: key attribute %s must be of type %s, not %s", what, names[i],
                       dyn_value_type_to_string (want),
                       dyn_value_type_to_string (dyn_value_get_value_type (v)));
          return FALSE;
        }
    }
  return TRUE;
}

int
dyn_change_set_add_change (DynChangeSet  *self,
                           DynChange     *change,
                           GError       **error)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), -1);
  g_return_val_if_fail (change != NULL, -1);

  if (!check_item (self, "before", change->before, error) ||
      !check_item (self, "after", change->after, error))
    return -1;
  g_ptr_array_add (self->changes, dyn_change_ref (change));
  g_ptr_array_set_size (self->tokens, 0);
  return self->changes->len - 1;
}

int
dyn_change_set_add (DynChangeSet  *self,
                    DynValue      *before,
                    DynValue      *after,
                    GError       **error)
{
  g_autoptr(DynChange) change = NULL;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), -1);

  if (before == NULL && after == NULL)
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           "a change needs an item before or after");
      return -1;
    }
  change = dyn_change_new (before, after);
  return dyn_change_set_add_change (self, change, error);
}

guint
dyn_change_set_get_n_changes (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), 0);
  return self->changes->len;
}

DynChange *
dyn_change_set_get_change (DynChangeSet *self,
                           guint         index)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (index < self->changes->len, NULL);
  return self->changes->pdata[index];
}

void
dyn_change_set_clear (DynChangeSet *self)
{
  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_ptr_array_set_size (self->changes, 0);
  g_ptr_array_set_size (self->tokens, 0);
}

/* Planning one change ----------------------------------------------------- */

/* "a, b, c and 2 more". */
static char *
join_list (GPtrArray *items,
           guint      max)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < items->len && i < max; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) items->pdata[i]);
  if (items->len > max)
    {
      guint more = items->len - max;

      /* TRANSLATORS: a list of attributes or conditions, then how many were left out */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more", "%s and %u more", more),
                              s->str, more);
    }
  return g_strdup (s->str);
}

/* A value as the expression syntax writes it, cut short for a sentence. */
static char *
short_value (const DynValue *value)
{
  g_autofree char *text = dyn_expr_value_to_literal (value);
  const char *end;

  if (g_utf8_strlen (text, -1) <= 40)
    return g_steal_pointer (&text);
  end = g_utf8_offset_to_pointer (text, 39);
  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

static Action *
action_new (guint       change,
            Builder    *b)
{
  Action *a = g_new0 (Action, 1);

  a->change = change;
  a->request = g_steal_pointer (&b->request);
  return a;
}

static gboolean
check_length (const char  *what,
              const char  *expression,
              GError     **error)
{
  if (expression != NULL && strlen (expression) > DYN_EXPRESSION_MAX_LENGTH)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION,
                   "the %s would be %zu bytes long; DynamoDB takes at most %d",
                   what, strlen (expression), DYN_EXPRESSION_MAX_LENGTH);
      return FALSE;
    }
  return TRUE;
}

/* A create: PutItem guarded by attribute_not_exists(<partition key>). */
static Action *
plan_put (DynChangeSet  *self,
          guint          index,
          DynValue      *before,
          DynValue      *after,
          GError       **error)
{
  g_auto(Builder) b = { 0 };
  g_autoptr(GString) guard = g_string_new (NULL);

  builder_init (&b, DYN_OP_PUT_ITEM, self->table);
  b.request->item = item_to_put (version_in_use (self), before, after, error);
  if (b.request->item == NULL)
    return NULL;
  guard_append (&b, guard, TERM_NOT_EXISTS, self->keys.partition_key, NULL);
  b.request->condition = g_strdup (guard->str);
  return action_new (index, &b);
}

/* The guard "the item as the user saw it": every attribute of @before equal
 * (attribute_exists on the partition key first, so an item of only key
 * attributes is guarded too), at most @max_terms attribute terms. */
static void
guard_seen_item (DynChangeSet *self,
                 Builder      *b,
                 GString      *guard,
                 DynValue     *before,
                 guint         max_terms)
{
  guint terms = 0;

  guard_append (b, guard, TERM_EXISTS, self->keys.partition_key, NULL);
  for (guint i = 0; i < dyn_value_get_length (before) && terms < max_terms; i++)
    {
      const char *name = dyn_value_map_get_name (before, i);

      if (is_key_attribute (&self->keys, name))
        continue;
      guard_append (b, guard, TERM_EQUAL, name, dyn_value_map_get_value (before, i));
      terms++;
    }
}

static guint
count_non_key (DynChangeSet *self,
               DynValue     *item)
{
  guint n = 0;

  for (guint i = 0; i < dyn_value_get_length (item); i++)
    if (!is_key_attribute (&self->keys, dyn_value_map_get_name (item, i)))
      n++;
  return n;
}

static char *
whole_item_text (guint n)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Guarded by the whole item as loaded (%u attribute)",
                                       "Guarded by the whole item as loaded (%u attributes)", n), n);
}

static Action *
plan_delete (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             const char   **guard_kind,
             char         **guard_text,
             GError       **error)
{
  g_auto(Builder) b = { 0 };
  g_autoptr(GString) guard = g_string_new (NULL);
  DynValue *version = version_of (version_in_use (self), before);
  guint n = count_non_key (self, before);

  builder_init (&b, DYN_OP_DELETE_ITEM, self->table);
  b.request->key = key_of (&self->keys, before);

  if (version != NULL)
    {
      guard_append (&b, guard, TERM_EQUAL, self->version_attribute, version);
      *guard_kind = "version";
      /* TRANSLATORS: "Guarded by version: version is still 3"; the first %s is the attribute's name */
      *guard_text = g_strdup_printf (_("Guarded by version: %s is still %s"), self->version_attribute,
                                     dyn_value_get_number (version));
    }
  else
    {
      /* A delete changes every attribute: in any mode it is guarded by the
       * whole item. */
      guard_seen_item (self, &b, guard, before, G_MAXUINT);
      *guard_kind = "values";
      *guard_text = whole_item_text (n);
      if (guard->len > DYN_EXPRESSION_MAX_LENGTH)
        {
          /* Placeholders are handed out in the same order on a rebuild, so
           * the terms that fit keep their lengths: count the attribute terms
           * (after attribute_exists) that end inside the limit. Term k ends
           * where separator k starts. */
          const char *p = guard->str;
          guint fit = 0;

          while ((p = strstr (p, " AND ")) != NULL &&
                 (gsize) (p - guard->str) <= DYN_EXPRESSION_MAX_LENGTH)
            {
              p += 5;
              fit++;
            }
          fit = fit > 0 ? fit - 1 : 0;
          for (;;)
            {
              builder_clear (&b);
              builder_init (&b, DYN_OP_DELETE_ITEM, self->table);
              b.request->key = key_of (&self->keys, before);
              g_string_truncate (guard, 0);
              guard_seen_item (self, &b, guard, before, fit);
              if (guard->len <= DYN_EXPRESSION_MAX_LENGTH || fit == 0)
                break;
              fit--;
            }
          *guard_kind = "partial";
          g_free (*guard_text);
          *guard_text = g_strdup_printf (_("Guarded by the first %u of the item’s %u attributes as loaded "
                                           "(a guard on the whole item would exceed DynamoDB’s 4 KB "
                                           "expression limit)"), fit, n);
        }
    }
  b.request->condition = g_strdup (guard->str);
  if (!check_length ("condition", b.request->condition, error))
    return NULL;
  return action_new (index, &b);
}

/* Whether another path of @touched that is checked by its value goes
 * through @parent: its guard then holds only while @parent is a map. */
static gboolean
parent_checked (GPtrArray         *touched,
                const DynExprPath *parent)
{
  guint n = dyn_expr_path_get_length (parent);

  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];

      if (entry->kind != DYN_DIFF_ADDED && dyn_expr_path_get_length (entry->path) > n &&
          dyn_path_overlaps (entry->path, parent))
        return TRUE;
    }
  return FALSE;
}

/* The guard on what the update depends on: the item exists; each path it
 * changes or removes holds the value loaded; each path it adds is absent and
 * its parent is still a map (else the SET would be refused); each list it
 * writes elements of has the length loaded (so the positions still name the
 * same elements). With @said, the same in words, one per path or list. */
static void
guard_changes (DynChangeSet *self,
               Builder      *b,
               GString      *guard,
               DynValue     *before,
               GPtrArray    *touched,
               GPtrArray    *said)
{
  g_autoptr(GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  guard_append (b, guard, TERM_EXISTS, self->keys.partition_key, NULL);
  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];

      if (entry->kind == DYN_DIFF_ADDED)
        {
          guard_append_path (b, guard, TERM_NOT_EXISTS, entry->path, NULL);
          if (said != NULL)
            /* TRANSLATORS: a guard condition: the path (info.rating) was absent when loaded and must still be */
            g_ptr_array_add (said, g_strdup_printf (_("%s is still absent"), entry->name));
        }
      else
        {
          guard_append_path (b, guard, TERM_EQUAL, entry->path, entry->before);
          if (said != NULL)
            {
              g_autofree char *value = short_value (entry->before);
              /* TRANSLATORS: a guard condition: "info.rating is still 8.7" */
              g_ptr_array_add (said, g_strdup_printf (_("%s is still %s"), entry->name, value));
            }
        }
    }
  for (guint i = 0; i < touched->len; i++)
    {
      DynDiffEntry *entry = touched->pdata[i];
      guint n = dyn_expr_path_get_length (entry->path);

      for (guint k = 1; k < n; k++)
        {
          g_autoptr(DynExprPath) list_path = NULL;
          g_autoptr(DynValue) size = NULL;
          g_autofree char *number = NULL;
          DynValue *list;
          char *key;

          if (!dyn_expr_path_is_index (entry->path, k))
            continue;
          list_path = path_prefix (entry->path, k);
          key = dyn_path_to_display (list_path);
          if (!g_hash_table_add (done, key))
            continue;
          list = dyn_path_lookup (before, list_path);
          number = g_strdup_printf ("%u", dyn_value_get_length (list));
          size = dyn_value_new_number (number, NULL);
          guard_append_path (b, guard, TERM_SIZE, list_path, size);
          if (said != NULL)
            g_ptr_array_add (said, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s still has %u element",
                                                                 "%s still has %u elements",
                                                                 dyn_value_get_length (list)),
                                                    key, dyn_value_get_length (list)));
        }
      if (entry->kind == DYN_DIFF_ADDED && n > 1)
        {
          g_autoptr(DynExprPath) parent = path_prefix (entry->path, n - 1);
          g_autofree char *display = dyn_path_to_display (parent);

          if (!parent_checked (touched, parent) &&
              g_hash_table_add (done, g_strconcat ("\x1fmap ", display, NULL)))
            guard_append_path (b, guard, TERM_IS_MAP, parent, NULL);
        }
    }
}

typedef enum {
  GUARD_ITEM,
  GUARD_CHANGES,
} GuardScope;

/* The update of @before into @after: the paths it writes go to @touched
 * (DynDiffEntry*, the version attribute left out), the words of a
 * GUARD_CHANGES guard to @said. */
static gboolean
build_update (DynChangeSet  *self,
              Builder       *b,
              DynValue      *before,
              DynValue      *after,
              GuardScope     scope,
              GPtrArray     *touched,
              GPtrArray     *said,
              GError       **error)
{
  const char *version_attribute = version_in_use (self);
  DynValue *version = version_of (version_attribute, before);
  g_autoptr(GPtrArray) diff = dyn_diff_items (before, after, &self->keys, FALSE);
  g_autoptr(GString) guard = g_string_new (NULL);
  Clauses c = {
    g_string_new (NULL), g_string_new (NULL), g_string_new (NULL),
    g_ptr_array_new_with_free_func ((GDestroyNotify) remove_free),
  };
  g_autoptr(DynValue) next = NULL;
  gboolean ok = TRUE;

  builder_init (b, DYN_OP_UPDATE_ITEM, self->table);
  b->request->key = key_of (&self->keys, before);
  g_ptr_array_set_size (touched, 0);
  if (said != NULL)
    g_ptr_array_set_size (said, 0);

  for (guint i = 0; i < diff->len; i++)
    {
      DynDiffEntry *entry = diff->pdata[i];

      /* Keys are the item's identity (a changed key is no update); the
       * version is written below. */
      if (entry->is_key ||
          (version != NULL && strcmp (dyn_expr_path_get_name (entry->path, 0, NULL), version_attribute) == 0))
        continue;
      write_entry (b, &c, entry);
      g_ptr_array_add (touched, g_steal_pointer (&diff->pdata[i]));
    }

  if (version != NULL)
    {
      next = next_version (version_attribute, before, error);
      if (next == NULL)
        {
          ok = FALSE;
          goto out;
        }
      if (touched->len > 0)
        {
          g_autofree char *p = add_value (b, "", version_attribute, next);
          g_autofree char *text = g_strdup_printf ("%s = %s", alias_name (b, version_attribute), p);
          clause_append (c.set, text);
        }
      guard_append (b, guard, TERM_EQUAL, version_attribute, version);
    }
  else if (scope == GUARD_ITEM)
    {
      guard_seen_item (self, b, guard, before, G_MAXUINT);
      for (guint i = 0; i < dyn_value_get_length (after); i++)
        {
          const char *name = dyn_value_map_get_name (after, i);
          if (dyn_value_map_lookup (before, name) == NULL)
            guard_append (b, guard, TERM_NOT_EXISTS, name, NULL);
        }
    }
  else
    guard_changes (self, b, guard, before, touched, said);

  /* The diff's paths are disjoint by construction; DynamoDB refuses an
   * update whose paths overlap, so make sure. */
  for (guint i = 0; i < touched->len; i++)
    for (guint j = i + 1; j < touched->len; j++)
      if (dyn_path_overlaps (((DynDiffEntry *) touched->pdata[i])->path, ((DynDiffEntry *) touched->pdata[j])->path))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_FAILED, "two paths of one update overlap: %s and %s",
                       ((DynDiffEntry *) touched->pdata[i])->name, ((DynDiffEntry *) touched->pdata[j])->name);
          ok = FALSE;
          goto out;
        }

  b->request->update = clauses_to_expression (&c);
  b->request->condition = g_strdup (guard->str);

out:
  g_string_free (c.set, TRUE);
  g_string_free (c.add, TRUE);
  g_string_free (c.del, TRUE);
  g_ptr_array_unref (c.removes);
  return ok;
}

static char *
changes_text (GPtrArray *said)
{
  g_autofree char *list = join_list (said, 4);

  /* TRANSLATORS: the list says per path what must still hold: "info.rating is still 8.7, info.tagline is still absent" */
  return g_strdup_printf (_("Guarded by the values it changes: %s"), list);
}

static Action *
plan_update (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             DynValue      *after,
             const char   **guard_kind,
             char         **guard_text,
             GPtrArray     *touched,
             GError       **error)
{
  g_auto(Builder) b = { 0 };
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  const char *version_attribute = version_in_use (self);
  DynValue *version = version_of (version_attribute, before);
  GuardScope scope = self->guard_mode == DYN_GUARD_ITEM ? GUARD_ITEM : GUARD_CHANGES;

  if (!build_update (self, &b, before, after, scope, touched, said, error))
    return NULL;
  if (touched->len == 0)
    return NULL;   /* only the version differed: nothing to send */

  if (version != NULL)
    {
      g_autoptr(DynValue) next = next_version (version_attribute, before, NULL);

      *guard_kind = "version";
      /* TRANSLATORS: "Guarded by version: version is still 3, set to 4"; the first %s is the attribute's name */
      *guard_text = g_strdup_printf (_("Guarded by version: %s is still %s, set to %s"), version_attribute,
                                     dyn_value_get_number (version), dyn_value_get_number (next));
    }
  else if (scope == GUARD_ITEM && strlen (b.request->condition) <= DYN_EXPRESSION_MAX_LENGTH)
    {
      *guard_kind = "values";
      *guard_text = whole_item_text (count_non_key (self, before));
    }
  else if (scope == GUARD_ITEM)
    {
      g_autofree char *text = NULL;

      builder_clear (&b);
      if (!build_update (self, &b, before, after, GUARD_CHANGES, touched, said, error))
        return NULL;
      *guard_kind = "changed-attributes";
      text = changes_text (said);
      *guard_text = g_strdup_printf (_("%s (a guard on the whole item would exceed DynamoDB’s 4 KB "
                                       "expression limit)"), text);
    }
  else
    {
      *guard_kind = "changed-attributes";
      *guard_text = changes_text (said);
      if (self->guard_mode == DYN_GUARD_VERSION)
        {
          g_autofree char *text = g_steal_pointer (guard_text);

          if (version_attribute == NULL)
            *guard_text = g_strdup_printf (_("%s (no version attribute is set)"), text);
          else
            /* TRANSLATORS: the %s in parentheses is the version attribute's name */
            *guard_text = g_strdup_printf (_("%s (the item has no version number in %s)"), text, version_attribute);
        }
    }

  if (!check_length ("update expression", b.request->update, error) ||
      !check_length ("condition", b.request->condition, error))
    return NULL;
  return action_new (index, &b);
}

static gboolean
plan_change (DynChangeSet  *self,
             Plan          *plan,
             guint          index,
             GError       **error)
{
  DynChange *change = self->changes->pdata[index];
  ChangePlan *cp = &plan->changes[index];
  g_autofree char *where = NULL;
  Action *a = NULL;

  cp->kind = dyn_change_get_kind (change, &self->keys);
  cp->first_action = plan->actions->len;
  cp->request = -1;
  where = key_display (&self->keys, change->after ? change->after : change->before);

  switch (cp->kind)
    {
    case DYN_CHANGE_KIND_NONE:
      cp->guard_text = g_strdup (_("Not guarded: nothing to send"));
      /* TRANSLATORS: %s is the item's key */
      cp->description = g_strdup_printf (_("%s: unchanged, nothing to send"), where);
      return TRUE;

    case DYN_CHANGE_KIND_CREATE:
      a = plan_put (self, index, NULL, change->after, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      cp->guard = "not-exists";
      cp->guard_text = g_strdup (_("Guarded: no item with this key may exist"));
      /* TRANSLATORS: the item's key, then the guard sentence */
      cp->description = g_strdup_printf (_("Create %s. %s"), where, cp->guard_text);
      break;

    case DYN_CHANGE_KIND_DELETE:
      a = plan_delete (self, index, change->before, &cp->guard, &cp->guard_text, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      /* TRANSLATORS: the item's key, then the guard sentence */
      cp->description = g_strdup_printf (_("Delete %s. %s"), where, cp->guard_text);
      break;

    case DYN_CHANGE_KIND_UPDATE:
      {
        g_autoptr(GPtrArray) touched = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_diff_entry_free);
        g_autoptr(GPtrArray) names = g_ptr_array_new ();
        g_autofree char *list = NULL;

        a = plan_update (self, index, change->before, change->after, &cp->guard, &cp->guard_text, touched, error);
        if (a == NULL)
          {
            if (error != NULL && *error != NULL)
              return FALSE;
            cp->kind = DYN_CHANGE_KIND_NONE;
            cp->guard_text = g_strdup (_("Not guarded: nothing to send"));
            cp->description = g_strdup_printf (_("%s: only the version attribute differs, nothing to send"), where);
            return TRUE;
          }
        g_ptr_array_add (plan->actions, a);
        for (guint i = 0; i < touched->len; i++)
          g_ptr_array_add (names, ((DynDiffEntry *) touched->pdata[i])->name);
        list = join_list (names, 8);
        /* TRANSLATORS: the item's key, the paths it changes, then the guard sentence */
        cp->description = g_strdup_printf (_("Update %s: %s. %s"), where, list, cp->guard_text);
      }
      break;

    case DYN_CHANGE_KIND_KEY_CHANGE:
      {
        g_autofree char *old_where = key_display (&self->keys, change->before);
        g_autofree char *delete_text = NULL;

        a = plan_delete (self, index, change->before, &cp->guard, &delete_text, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        a = plan_put (self, index, change->before, change->after, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        /* TRANSLATORS: the old item's guard sentence, then what guards the new key */
        cp->guard_text = g_strdup_printf (_("%s; no item with the new key may exist"), delete_text);
        /* TRANSLATORS: the old key, the new key, then the guard sentence */
        cp->description = g_strdup_printf (_("Key change %s → %s in one transaction. %s"),
                                           old_where, where, cp->guard_text);
      }
      break;
    }
  cp->n_actions = plan->actions->len - cp->first_action;
  return TRUE;
}

/* Groups the actions into requests. A change's actions stay together. */
static Plan *
build_plan (DynChangeSet  *self,
            GError       **error)
{
  g_autoptr(Plan) plan = g_new0 (Plan, 1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  RequestPlan *current = NULL;
  guint n_sent = 0;

  plan->actions = g_ptr_array_new_with_free_func ((GDestroyNotify) action_free);
  plan->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_plan_free);
  plan->n_changes = self->changes->len;
  plan->changes = g_new0 (ChangePlan, MAX (plan->n_changes, 1));

  for (guint i = 0; i < self->changes->len; i++)
    {
      if (!plan_change (self, plan, i, error))
        {
          g_prefix_error (error, "change %u: ", i);
          return NULL;
        }
      if (plan->changes[i].n_actions > 0)
        n_sent++;
    }

  /* TransactWriteItems takes one action per item; one item in two changes
   * is ambiguous anyway. */
  for (guint i = 0; i < plan->actions->len; i++)
    {
      Action *a = plan->actions->pdata[i];
      DynValue *item = a->request->key ? a->request->key : a->request->item;
      char *id = key_identity (&self->keys, item);
      gpointer other;

      if (g_hash_table_lookup_extended (seen, id, NULL, &other))
        {
          g_autofree char *shown = key_display (&self->keys, item);
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       "changes %u and %u both touch the item %s; stage one change per item",
                       GPOINTER_TO_UINT (other), a->change, shown);
          g_free (id);
          return NULL;
        }
      g_hash_table_insert (seen, id, GUINT_TO_POINTER (a->change));
    }

  for (guint i = 0; i < plan->n_changes; i++)
    {
      ChangePlan *cp = &plan->changes[i];

      if (cp->n_actions == 0)
        continue;
      if (self->single_requests && n_sent == 1 && cp->n_actions == 1)
        {
          Action *a = plan->actions->pdata[cp->first_action];

          current = g_new0 (RequestPlan, 1);
          current->operation = g_strdup (dyn_operation_get_name (a->request->op));
          current->first_action = cp->first_action;
          current->changes = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (plan->requests, current);
        }
      else if (current == NULL || current->n_actions + cp->n_actions > self->max_actions)
        {
          current = g_new0 (RequestPlan, 1);
          current->operation = g_strdup ("TransactWriteItems");
          current->first_action = cp->first_action;
          current->changes = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (plan->requests, current);
        }
      current->n_actions += cp->n_actions;
      g_array_append_val (current->changes, i);
      cp->request = plan->requests->len - 1;
    }

  /* Tokens live as long as the staged changes do, so a second commit of
   * the same set is recognised by DynamoDB as a retry. */
  if (self->tokens->len != plan->requests->len)
    {
      g_ptr_array_set_size (self->tokens, 0);
      for (guint i = 0; i < plan->requests->len; i++)
        g_ptr_array_add (self->tokens, g_uuid_string_random ());
    }
  for (guint i = 0; i < plan->requests->len; i++)
    {
      RequestPlan *r = plan->requests->pdata[i];
      if (strcmp (r->operation, "TransactWriteItems") == 0)
        r->token = self->tokens->pdata[i];
    }

  return g_steal_pointer (&plan);
}

static const char *
transact_member (DynOperation op)
{
  switch (op)
    {
    case DYN_OP_PUT_ITEM:
      return "Put";
    case DYN_OP_UPDATE_ITEM:
      return "Update";
    case DYN_OP_DELETE_ITEM:
      return "Delete";
    default:
      g_return_val_if_reached (NULL);
    }
}

static JsonNode *
request_params (Plan        *plan,
                RequestPlan *r)
{
  g_autoptr(JsonObject) obj = json_object_new ();
  JsonNode *node;

  if (r->token == NULL)
    {
      Action *a = plan->actions->pdata[r->first_action];
      g_autoptr(DynRequest) copy = dyn_request_copy (a->request);

      copy->return_consumed_capacity = TRUE;
      return dyn_request_to_json (copy);
    }

  {
    JsonArray *items = json_array_new ();

    for (guint i = r->first_action; i < r->first_action + r->n_actions; i++)
      {
        Action *a = plan->actions->pdata[i];
        JsonObject *wrapper = json_object_new ();
        JsonNode *body = dyn_request_to_json (a->request);

        json_object_set_member (wrapper, transact_member (a->request->op), body);
        json_array_add_object_element (items, wrapper);
      }
    json_object_set_array_member (obj, "TransactItems", items);
  }
  json_object_set_string_member (obj, "ClientRequestToken", r->token);
  json_object_set_string_member (obj, "ReturnConsumedCapacity", "TOTAL");

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, obj);
  return node;
}

JsonNode *
dyn_change_set_plan (DynChangeSet  *self,
                     GError       **error)
{
  g_autoptr(Plan) plan = NULL;
  g_autoptr(JsonBuilder) jb = json_builder_new ();

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);

  plan = build_plan (self, error);
  if (plan == NULL)
    return NULL;

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "table");
  json_builder_add_string_value (jb, self->table);
  json_builder_set_member_name (jb, "guard_mode");
  json_builder_add_string_value (jb, self->guard_mode == DYN_GUARD_ITEM ? "item"
                                     : self->guard_mode == DYN_GUARD_VERSION ? "version" : "changes");
  if (version_in_use (self) != NULL)
    {
      json_builder_set_member_name (jb, "version_attribute");
      json_builder_add_string_value (jb, self->version_attribute);
    }

  json_builder_set_member_name (jb, "changes");
  json_builder_begin_array (jb);
  for (guint i = 0; i < plan->n_changes; i++)
    {
      ChangePlan *cp = &plan->changes[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "change");
      json_builder_add_int_value (jb, i);
      json_builder_set_member_name (jb, "kind");
      json_builder_add_string_value (jb, dyn_change_kind_to_string (cp->kind));
      json_builder_set_member_name (jb, "request");
      if (cp->request >= 0)
        json_builder_add_int_value (jb, cp->request);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "guard");
      if (cp->guard != NULL)
        json_builder_add_string_value (jb, cp->guard);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "guard_text");
      json_builder_add_string_value (jb, cp->guard_text);
      json_builder_set_member_name (jb, "description");
      json_builder_add_string_value (jb, cp->description);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);

  json_builder_set_member_name (jb, "requests");
  json_builder_begin_array (jb);
  for (guint i = 0; i < plan->requests->len; i++)
    {
      RequestPlan *r = plan->requests->pdata[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "operation");
      json_builder_add_string_value (jb, r->operation);
      json_builder_set_member_name (jb, "changes");
      json_builder_begin_array (jb);
      for (guint j = 0; j < r->changes->len; j++)
        json_builder_add_int_value (jb, g_array_index (r->changes, guint, j));
      json_builder_end_array (jb);
      json_builder_set_member_name (jb, "params");
      json_builder_add_value (jb, request_params (plan, r));
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);

  return json_builder_get_root (jb);
}

char *
dyn_change_set_describe_guard (DynChangeSet  *self,
                               guint          index,
                               GError       **error)
{
  g_autoptr(Plan) plan = NULL;

  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (index < self->changes->len, NULL);

  plan = build_plan (self, error);
  if (plan == NULL)
    return NULL;
  return g_strdup (plan->changes[index].guard_text);
}

/* ------------------------------------------------------------------------ */
/* DynCommitResult */

typedef struct
{
  DynChangeStatus  status;
  DynValue        *current;
  DynValue        *conflict_key;
  gboolean         need_current;   /* fetch with GetItem */
  GError          *error;
  int              request;
} Outcome;

typedef struct
{
  char   *operation;
  char   *token;
  GArray *changes;
} SentRequest;

struct _DynCommitResult
{
  gatomicrefcount  ref_count;
  Outcome         *outcomes;
  guint            n_changes;
  GPtrArray       *requests;   /* SentRequest* */
  /* What the requests cost. */
  guint            n_sent;
  double           write_units;
  double           read_units;
};

G_DEFINE_BOXED_TYPE (DynCommitResult, dyn_commit_result, dyn_commit_result_ref, dyn_commit_result_unref)

static void
sent_request_free (SentRequest *r)
{
  g_free (r->operation);
  g_free (r->token);
  g_array_unref (r->changes);
  g_free (r);
}

DynCommitResult *
dyn_commit_result_ref (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
dyn_commit_result_unref (DynCommitResult *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_changes; i++)
    {
      g_clear_pointer (&self->outcomes[i].current, dyn_value_unref);
      g_clear_pointer (&self->outcomes[i].conflict_key, dyn_value_unref);
      g_clear_error (&self->outcomes[i].error);
    }
  g_free (self->outcomes);
  g_ptr_array_unref (self->requests);
  g_free (self);
}

guint
dyn_commit_result_get_n_changes (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_changes;
}

DynChangeStatus
dyn_commit_result_get_status (DynCommitResult *self,
                              guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, DYN_CHANGE_STATUS_FAILED);
  return self->outcomes[change].status;
}

DynValue *
dyn_commit_result_get_current (DynCommitResult *self,
                               guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].current;
}

DynValue *
dyn_commit_result_get_conflict_key (DynCommitResult *self,
                                    guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].conflict_key;
}

const GError *
dyn_commit_result_get_error (DynCommitResult *self,
                             guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, NULL);
  return self->outcomes[change].error;
}

int
dyn_commit_result_get_request (DynCommitResult *self,
                               guint            change)
{
  g_return_val_if_fail (self != NULL && change < self->n_changes, -1);
  return self->outcomes[change].request;
}

static guint
count_status (DynCommitResult *self,
              DynChangeStatus  a,
              DynChangeStatus  b)
{
  guint n = 0;

  for (guint i = 0; i < self->n_changes; i++)
    if (self->outcomes[i].status == a || self->outcomes[i].status == b)
      n++;
  return n;
}

guint
dyn_commit_result_get_n_conflicts (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_CONFLICT, DYN_CHANGE_STATUS_CONFLICT);
}

guint
dyn_commit_result_get_n_applied (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_APPLIED, DYN_CHANGE_STATUS_APPLIED);
}

guint
dyn_commit_result_get_n_failed (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return count_status (self, DYN_CHANGE_STATUS_FAILED, DYN_CHANGE_STATUS_NOT_APPLIED);
}

guint
dyn_commit_result_get_n_requests (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->requests->len;
}

const char *
dyn_commit_result_get_request_operation (DynCommitResult *self,
                                         guint            request)
{
  g_return_val_if_fail (self != NULL && request < self->requests->len, NULL);
  return ((SentRequest *) self->requests->pdata[request])->operation;
}

const char *
dyn_commit_result_get_request_token (DynCommitResult *self,
                                     guint            request)
{
  g_return_val_if_fail (self != NULL && request < self->requests->len, NULL);
  return ((SentRequest *) self->requests->pdata[request])->token;
}

guint
dyn_commit_result_get_n_sent (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_sent;
}

double
dyn_commit_result_get_write_units (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->write_units;
}

double
dyn_commit_result_get_read_units (DynCommitResult *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->read_units;
}

static void
count_sent (DynCommitResult *self,
            DynResponse     *response)
{
  if (response == NULL)
    {
      self->n_sent++;
      return;
    }
  self->n_sent += response->attempts;
  self->write_units += response->write_units;
  self->read_units += response->read_units;
}

JsonNode *
dyn_commit_result_to_json (DynCommitResult *self)
{
  g_autoptr(JsonBuilder) jb = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (jb);
  json_builder_set_member_name (jb, "changes");
  json_builder_begin_array (jb);
  for (guint i = 0; i < self->n_changes; i++)
    {
      Outcome *o = &self->outcomes[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "change");
      json_builder_add_int_value (jb, i);
      json_builder_set_member_name (jb, "status");
      json_builder_add_string_value (jb, dyn_change_status_to_string (o->status));
      if (o->request >= 0)
        {
          json_builder_set_member_name (jb, "request");
          json_builder_add_int_value (jb, o->request);
        }
      if (o->status == DYN_CHANGE_STATUS_CONFLICT)
        {
          json_builder_set_member_name (jb, "key");
          if (o->conflict_key)
            json_builder_add_value (jb, dyn_item_to_ddb_json (o->conflict_key));
          else
            json_builder_add_null_value (jb);
          json_builder_set_member_name (jb, "current");
          if (o->current)
            json_builder_add_value (jb, dyn_item_to_ddb_json (o->current));
          else
            json_builder_add_null_value (jb);
        }
      if (o->error != NULL)
        {
          json_builder_set_member_name (jb, "error");
          json_builder_add_string_value (jb, o->error->message);
        }
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);

  json_builder_set_member_name (jb, "requests");
  json_builder_begin_array (jb);
  for (guint i = 0; i < self->requests->len; i++)
    {
      SentRequest *r = self->requests->pdata[i];

      json_builder_begin_object (jb);
      json_builder_set_member_name (jb, "operation");
      json_builder_add_string_value (jb, r->operation);
      json_builder_set_member_name (jb, "token");
      if (r->token)
        json_builder_add_string_value (jb, r->token);
      else
        json_builder_add_null_value (jb);
      json_builder_set_member_name (jb, "changes");
      json_builder_begin_array (jb);
      for (guint j = 0; j < r->changes->len; j++)
        json_builder_add_int_value (jb, g_array_index (r->changes, guint, j));
      json_builder_end_array (jb);
      json_builder_end_object (jb);
    }
  json_builder_end_array (jb);
  json_builder_end_object (jb);
  return json_builder_get_root (jb);
}

/* ------------------------------------------------------------------------ */
/* Commit */

typedef struct
{
  DynClient          *client;
  const DynKeySchema *keys;     /* the source object's */
  Plan               *plan;
  DynCommitResult *result;
  guint            next_request;
  guint            next_fetch;
} Commit;

static void
commit_free (Commit *c)
{
  g_clear_object (&c->client);
  g_clear_pointer (&c->plan, plan_free);
  g_clear_pointer (&c->result, dyn_commit_result_unref);
  g_free (c);
}

static void commit_next (GTask *task);

static void
mark_conflict (Commit   *c,
               Action   *a,
               DynValue *current)
{
  Outcome *o = &c->result->outcomes[a->change];

  /* A key change has two actions; the first failure is the one shown. */
  if (o->status == DYN_CHANGE_STATUS_CONFLICT)
    return;
  o->status = DYN_CHANGE_STATUS_CONFLICT;
  g_clear_error (&o->error);
  o->conflict_key = a->request->key ? dyn_value_ref (a->request->key)
                                    : key_of (c->keys, a->request->item);
  if (current != NULL)
    o->current = dyn_value_ref (current);
  else
    o->need_current = TRUE;
}

static void
get_item_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Commit *c = g_task_get_task_data (task);
  Outcome *o = &c->result->outcomes[c->next_fetch];
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_client_execute_finish (DYN_CLIENT (source), res, &error);

  count_sent (c->result, response);
  if (response == NULL)
    o->error = g_steal_pointer (&error);
  else if (response->item != NULL)
    o->current = dyn_value_ref (response->item);
  o->need_current = FALSE;
  c->next_fetch++;
  commit_next (g_steal_pointer (&task));
}

static void
request_done (GTask       *task,
              RequestPlan *r,
              DynResponse *response,
              GError      *error)
{
  Commit *c = g_task_get_task_data (task);
  g_autoptr(JsonArray) reasons = NULL;

  if (error == NULL)
    {
      for (guint j = 0; j < r->changes->len; j++)
        c->result->outcomes[g_array_index (r->changes, guint, j)].status = DYN_CHANGE_STATUS_APPLIED;
      return;
    }

  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED) && r->token == NULL)
    {
      g_autoptr(DynValue) current = dyn_error_get_item (error);
      mark_conflict (c, c->plan->actions->pdata[r->first_action], current);
      return;
    }

  if (g_error_matches (error, DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED))
    reasons = dyn_error_get_cancellation_reasons (error);

  if (reasons != NULL && json_array_get_length (reasons) == r->n_actions)
    {
      for (guint k = 0; k < r->n_actions; k++)
        {
          Action *a = c->plan->actions->pdata[r->first_action + k];
          JsonObject *reason = json_array_get_object_element (reasons, k);
          const char *code = reason ? json_object_get_string_member_with_default (reason, "Code", "None") : "None";
          Outcome *o = &c->result->outcomes[a->change];

          if (strcmp (code, "ConditionalCheckFailed") == 0)
            {
              JsonNode *item_node = json_object_get_member (reason, "Item");
              g_autoptr(DynValue) current = item_node ? dyn_item_from_ddb_json (item_node, NULL) : NULL;
              mark_conflict (c, a, current);
            }
          else if (strcmp (code, "None") != 0 && strcmp (code, "null") != 0)
            {
              if (o->status != DYN_CHANGE_STATUS_CONFLICT)
                {
                  const char *message = json_object_get_string_member_with_default (reason, "Message", "");
                  o->status = DYN_CHANGE_STATUS_FAILED;
                  g_clear_error (&o->error);
                  o->error = g_error_new (DYN_ERROR, DYN_ERROR_TRANSACTION_CANCELED, "%s%s%s",
                                          code, *message ? ": " : "", message);
                }
            }
        }
      for (guint j = 0; j < r->changes->len; j++)
        {
          Outcome *o = &c->result->outcomes[g_array_index (r->changes, guint, j)];
          if (o->status == DYN_CHANGE_STATUS_PENDING)
            o->status = DYN_CHANGE_STATUS_NOT_APPLIED;
        }
      return;
    }

  for (guint j = 0; j < r->changes->len; j++)
    {
      Outcome *o = &c->result->outcomes[g_array_index (r->changes, guint, j)];
      o->status = DYN_CHANGE_STATUS_FAILED;
      g_clear_error (&o->error);
      o->error = g_error_copy (error);
    }
}

static void
call_cb (GObject      *source,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Commit *c = g_task_get_task_data (task);
  RequestPlan *r = c->plan->requests->pdata[c->next_request];
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  if (r->token == NULL)
    response = dyn_client_execute_finish (DYN_CLIENT (source), res, &error);
  else
    response = dyn_client_call_finish (DYN_CLIENT (source), res, &error);
  count_sent (c->result, response);
  request_done (task, r, response, error);
  c->next_request++;
  commit_next (g_steal_pointer (&task));
}

static void
commit_next (GTask *task)
{
  Commit *c = g_task_get_task_data (task);
  DynChangeSet *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (c->next_request < c->plan->requests->len && !g_cancellable_is_cancelled (cancellable))
    {
      RequestPlan *r = c->plan->requests->pdata[c->next_request];

      if (r->token == NULL)
        {
          Action *a = c->plan->actions->pdata[r->first_action];
          dyn_client_execute_async (c->client, a->request, cancellable, call_cb, task);
        }
      else
        {
          g_autoptr(JsonNode) params = request_params (c->plan, r);
          dyn_client_call_async (c->client, "TransactWriteItems", params, cancellable, call_cb, task);
        }
      return;
    }

  /* The server's current version of every conflicting item it did not send. */
  while (c->next_fetch < c->result->n_changes && !c->result->outcomes[c->next_fetch].need_current)
    c->next_fetch++;
  if (c->next_fetch < c->result->n_changes && !g_cancellable_is_cancelled (cancellable))
    {
      Outcome *o = &c->result->outcomes[c->next_fetch];
      g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, self->table);

      get->key = dyn_value_ref (o->conflict_key);
      get->consistent_read = TRUE;
      dyn_client_execute_async (c->client, get, cancellable, get_item_cb, task);
      return;
    }

  g_task_return_pointer (task, dyn_commit_result_ref (c->result),
                         (GDestroyNotify) dyn_commit_result_unref);
  g_object_unref (task);
}

void
dyn_change_set_commit_async (DynChangeSet        *self,
                             DynClient           *client,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  Commit *c;

  g_return_if_fail (DYN_IS_CHANGE_SET (self));
  g_return_if_fail (DYN_IS_CLIENT (client));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_change_set_commit_async);

  c = g_new0 (Commit, 1);
  c->client = g_object_ref (client);
  c->keys = &self->keys;
  g_task_set_task_data (task, c, (GDestroyNotify) commit_free);
  c->plan = build_plan (self, &error);
  if (c->plan == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  c->result = g_new0 (DynCommitResult, 1);
  g_atomic_ref_count_init (&c->result->ref_count);
  c->result->n_changes = c->plan->n_changes;
  c->result->outcomes = g_new0 (Outcome, MAX (c->plan->n_changes, 1));
  c->result->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) sent_request_free);
  for (guint i = 0; i < c->plan->n_changes; i++)
    {
      c->result->outcomes[i].request = c->plan->changes[i].request;
      c->result->outcomes[i].status = c->plan->changes[i].n_actions == 0 ? DYN_CHANGE_STATUS_UNCHANGED
                                                                         : DYN_CHANGE_STATUS_PENDING;
    }
  for (guint i = 0; i < c->plan->requests->len; i++)
    {
      RequestPlan *r = c->plan->requests->pdata[i];
      SentRequest *s = g_new0 (SentRequest, 1);

      s->operation = g_strdup (r->operation);
      s->token = g_strdup (r->token);
      s->changes = g_array_ref (r->changes);
      g_ptr_array_add (c->result->requests, s);
    }

  commit_next (g_steal_pointer (&task));
}

DynCommitResult *
dyn_change_set_commit_finish (DynChangeSet  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_change_set_commit_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
