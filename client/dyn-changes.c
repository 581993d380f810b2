/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-changes"

#include "config.h"

#include <string.h>

#include "dyn-changes.h"

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

/* The update diff. */
typedef struct
{
  GString   *set;
  GString   *remove;
  GString   *add;
  GString   *del;
  GPtrArray *touched;  /* top-level names (borrowed) */
} Diff;

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

static void
diff_value (Builder    *b,
            Diff       *d,
            const char *path,
            const char *name,
            DynValue   *old,
            DynValue   *new)
{
  DynValueType t = dyn_value_get_value_type (new);

  if (dyn_value_equal (old, new))
    return;

  if (t == DYN_VALUE_M && dyn_value_get_value_type (old) == DYN_VALUE_M)
    {
      for (guint i = 0; i < dyn_value_get_length (old); i++)
        {
          const char *member = dyn_value_map_get_name (old, i);

          if (dyn_value_map_lookup (new, member) == NULL)
            {
              g_autofree char *sub = g_strconcat (path, ".", alias_name (b, member), NULL);
              clause_append (d->remove, sub);
            }
        }
      for (guint i = 0; i < dyn_value_get_length (new); i++)
        {
          const char *member = dyn_value_map_get_name (new, i);
          DynValue *nv = dyn_value_map_get_value (new, i);
          DynValue *ov = dyn_value_map_lookup (old, member);
          g_autofree char *sub = NULL;

          /* Unchanged members get no placeholder: DynamoDB rejects unused ones. */
          if (ov != NULL && dyn_value_equal (ov, nv))
            continue;
          sub = g_strconcat (path, ".", alias_name (b, member), NULL);
          if (ov == NULL)
            {
              g_autofree char *p = add_value (b, "", member, nv);
              g_autofree char *text = g_strdup_printf ("%s = %s", sub, p);
              clause_append (d->set, text);
            }
          else
            diff_value (b, d, sub, member, ov, nv);
        }
      return;
    }

  if (is_set_type (t) && dyn_value_get_value_type (old) == t)
    {
      g_autoptr(DynValue) added = set_minus (new, old);
      g_autoptr(DynValue) removed = set_minus (old, new);
      gsize whole = dyn_value_size (new);

      /* ADD and DELETE on one path overlap: one of them, or SET. */
      if (added != NULL && removed == NULL && dyn_value_size (added) < whole)
        {
          g_autofree char *p = add_value (b, "", name, added);
          g_autofree char *text = g_strdup_printf ("%s %s", path, p);
          clause_append (d->add, text);
          return;
        }
      if (removed != NULL && added == NULL && dyn_value_size (removed) < whole)
        {
          g_autofree char *p = add_value (b, "", name, removed);
          g_autofree char *text = g_strdup_printf ("%s %s", path, p);
          clause_append (d->del, text);
          return;
        }
    }

  /* Scalars, lists, a changed type: the whole value. */
  {
    g_autofree char *p = add_value (b, "", name, new);
    g_autofree char *text = g_strdup_printf ("%s = %s", path, p);
    clause_append (d->set, text);
  }
}

static char *
diff_to_expression (Diff *d)
{
  GString *s = g_string_new (NULL);
  const struct { const char *kw; GString *clause; } parts[] = {
    { "SET", d->set }, { "REMOVE", d->remove }, { "ADD", d->add }, { "DELETE", d->del },
  };

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
} TermKind;

static void
guard_append (Builder    *b,
              GString    *guard,
              TermKind    kind,
              const char *name,
              DynValue   *value)
{
  const char *alias = alias_name (b, name);

  if (guard->len > 0)
    g_string_append (guard, " AND ");
  switch (kind)
    {
    case TERM_EQUAL:
      {
        g_autofree char *p = add_value (b, "old_", name, value);
        g_string_append_printf (guard, "%s = %s", alias, p);
      }
      break;
    case TERM_NOT_EXISTS:
      g_string_append_printf (guard, "attribute_not_exists(%s)", alias);
      break;
    case TERM_EXISTS:
      g_string_append_printf (guard, "attribute_exists(%s)", alias);
      break;
    }
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
    g_free (plan->changes[i].description);
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
  gboolean      single_requests;
  guint         max_actions;
  GPtrArray    *changes;      /* DynChange* */
  GPtrArray    *tokens;       /* char*, one per planned transaction */
};

G_DEFINE_FINAL_TYPE (DynChangeSet, dyn_change_set, G_TYPE_OBJECT)

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
dyn_change_set_class_init (DynChangeSetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dyn_change_set_finalize;
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
}

const char *
dyn_change_set_get_version_attribute (DynChangeSet *self)
{
  g_return_val_if_fail (DYN_IS_CHANGE_SET (self), NULL);
  return self->version_attribute;
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

static char *
names_list (GPtrArray *names,
            guint      max)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < names->len && i < max; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) names->pdata[i]);
  if (names->len > max)
    g_string_append_printf (s, " and %u more", names->len - max);
  return g_string_free (s, FALSE);
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
  b.request->item = item_to_put (self->version_attribute, before, after, error);
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

static Action *
plan_delete (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             const char   **guard_kind,
             char         **description,
             GError       **error)
{
  g_auto(Builder) b = { 0 };
  g_autoptr(GString) guard = g_string_new (NULL);
  DynValue *version = version_of (self->version_attribute, before);
  guint n = count_non_key (self, before);

  builder_init (&b, DYN_OP_DELETE_ITEM, self->table);
  b.request->key = key_of (&self->keys, before);

  if (version != NULL)
    {
      guard_append (&b, guard, TERM_EQUAL, self->version_attribute, version);
      *guard_kind = "version";
      *description = g_strdup_printf ("guarded by %s = %s (unchanged since loaded)",
                                      self->version_attribute, dyn_value_get_number (version));
    }
  else
    {
      guard_seen_item (self, &b, guard, before, G_MAXUINT);
      *guard_kind = "values";
      *description = g_strdup_printf ("guarded by the item as seen: it exists and its %u attributes "
                                      "hold the values loaded", n);
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
          g_free (*description);
          *description = g_strdup_printf ("guarded by the item's existence and the first %u of its "
                                          "%u attributes as loaded: the full guard would exceed "
                                          "DynamoDB's 4 KB expression limit", fit, n);
        }
    }
  b.request->condition = g_strdup (guard->str);
  if (!check_length ("condition", b.request->condition, error))
    return NULL;
  return action_new (index, &b);
}

typedef enum {
  GUARD_FULL,
  GUARD_CHANGED,
} GuardMode;

static gboolean
build_update (DynChangeSet  *self,
              Builder       *b,
              DynValue      *before,
              DynValue      *after,
              GuardMode      mode,
              GPtrArray     *touched,
              GError       **error)
{
  g_autoptr(GString) guard = g_string_new (NULL);
  Diff d = {
    g_string_new (NULL), g_string_new (NULL), g_string_new (NULL), g_string_new (NULL), touched,
  };
  DynValue *version = version_of (self->version_attribute, before);
  g_autoptr(DynValue) next = NULL;
  gboolean ok = TRUE;

  builder_init (b, DYN_OP_UPDATE_ITEM, self->table);
  b->request->key = key_of (&self->keys, before);
  g_ptr_array_set_size (touched, 0);

  /* Removed attributes, then set/changed ones in the after item's order. */
  for (guint i = 0; i < dyn_value_get_length (before); i++)
    {
      const char *name = dyn_value_map_get_name (before, i);

      if (is_key_attribute (&self->keys, name) ||
          (version != NULL && strcmp (name, self->version_attribute) == 0))
        continue;
      if (dyn_value_map_lookup (after, name) == NULL)
        {
          clause_append (d.remove, alias_name (b, name));
          g_ptr_array_add (touched, (gpointer) name);
        }
    }
  for (guint i = 0; i < dyn_value_get_length (after); i++)
    {
      const char *name = dyn_value_map_get_name (after, i);
      DynValue *nv = dyn_value_map_get_value (after, i);
      DynValue *ov = dyn_value_map_lookup (before, name);
      gsize before_len;

      if (is_key_attribute (&self->keys, name) ||
          (version != NULL && strcmp (name, self->version_attribute) == 0))
        continue;
      if (ov != NULL && dyn_value_equal (ov, nv))
        continue;
      before_len = d.set->len + d.add->len + d.del->len + d.remove->len;
      if (ov == NULL)
        {
          g_autofree char *p = add_value (b, "", name, nv);
          g_autofree char *text = g_strdup_printf ("%s = %s", alias_name (b, name), p);
          clause_append (d.set, text);
        }
      else
        diff_value (b, &d, alias_name (b, name), name, ov, nv);
      if (d.set->len + d.add->len + d.del->len + d.remove->len != before_len)
        g_ptr_array_add (touched, (gpointer) name);
    }

  if (version != NULL)
    {
      next = next_version (self->version_attribute, before, error);
      if (next == NULL)
        {
          ok = FALSE;
          goto out;
        }
      if (touched->len > 0)
        {
          g_autofree char *p = add_value (b, "", self->version_attribute, next);
          g_autofree char *text = g_strdup_printf ("%s = %s", alias_name (b, self->version_attribute), p);
          clause_append (d.set, text);
        }
      guard_append (b, guard, TERM_EQUAL, self->version_attribute, version);
    }
  else if (mode == GUARD_FULL)
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
    {
      guard_append (b, guard, TERM_EXISTS, self->keys.partition_key, NULL);
      for (guint i = 0; i < touched->len; i++)
        {
          DynValue *ov = dyn_value_map_lookup (before, touched->pdata[i]);
          guard_append (b, guard, ov ? TERM_EQUAL : TERM_NOT_EXISTS, touched->pdata[i], ov);
        }
    }

  b->request->update = diff_to_expression (&d);
  b->request->condition = g_strdup (guard->str);

out:
  g_string_free (d.set, TRUE);
  g_string_free (d.remove, TRUE);
  g_string_free (d.add, TRUE);
  g_string_free (d.del, TRUE);
  return ok;
}

static Action *
plan_update (DynChangeSet  *self,
             guint          index,
             DynValue      *before,
             DynValue      *after,
             const char   **guard_kind,
             char         **description,
             GError       **error)
{
  g_auto(Builder) b = { 0 };
  g_autoptr(GPtrArray) touched = g_ptr_array_new ();
  g_autofree char *list = NULL;
  DynValue *version = version_of (self->version_attribute, before);

  if (!build_update (self, &b, before, after, GUARD_FULL, touched, error))
    return NULL;
  if (touched->len == 0)
    return NULL;   /* only the version differed: nothing to send */
  list = names_list (touched, 8);

  if (version != NULL)
    {
      g_autoptr(DynValue) next = next_version (self->version_attribute, before, NULL);
      *guard_kind = "version";
      *description = g_strdup_printf ("changes %s; guarded by %s = %s (unchanged since loaded), "
                                      "which becomes %s", list, self->version_attribute,
                                      dyn_value_get_number (version), dyn_value_get_number (next));
    }
  else if (strlen (b.request->condition) <= DYN_EXPRESSION_MAX_LENGTH)
    {
      guint added = 0;

      for (guint i = 0; i < dyn_value_get_length (after); i++)
        if (dyn_value_map_lookup (before, dyn_value_map_get_name (after, i)) == NULL)
          added++;
      *guard_kind = "values";
      *description = g_strdup_printf ("changes %s; guarded by the item as loaded: it exists, its "
                                      "%u attributes hold the values loaded%s", list,
                                      count_non_key (self, before),
                                      added ? " and the attributes it adds are still absent" : "");
    }
  else
    {
      builder_clear (&b);
      if (!build_update (self, &b, before, after, GUARD_CHANGED, touched, error))
        return NULL;
      *guard_kind = "changed-attributes";
      *description = g_strdup_printf ("changes %s; guarded by the item's existence and the changed "
                                      "attributes' loaded values only: a guard on every attribute "
                                      "would exceed DynamoDB's 4 KB expression limit", list);
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
  g_autofree char *guard_text = NULL;
  Action *a = NULL;

  cp->kind = dyn_change_get_kind (change, &self->keys);
  cp->first_action = plan->actions->len;
  cp->request = -1;
  where = key_display (&self->keys, change->after ? change->after : change->before);

  switch (cp->kind)
    {
    case DYN_CHANGE_KIND_NONE:
      cp->description = g_strdup_printf ("%s: unchanged, nothing to send", where);
      return TRUE;

    case DYN_CHANGE_KIND_CREATE:
      a = plan_put (self, index, NULL, change->after, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      cp->guard = "not-exists";
      cp->description = g_strdup_printf ("create %s; refused if an item with this key exists "
                                         "(attribute_not_exists(%s))", where, self->keys.partition_key);
      break;

    case DYN_CHANGE_KIND_DELETE:
      a = plan_delete (self, index, change->before, &cp->guard, &guard_text, error);
      if (a == NULL)
        return FALSE;
      g_ptr_array_add (plan->actions, a);
      cp->description = g_strdup_printf ("delete %s; %s", where, guard_text);
      break;

    case DYN_CHANGE_KIND_UPDATE:
      a = plan_update (self, index, change->before, change->after, &cp->guard, &guard_text, error);
      if (a == NULL)
        {
          if (error != NULL && *error != NULL)
            return FALSE;
          cp->kind = DYN_CHANGE_KIND_NONE;
          cp->description = g_strdup_printf ("%s: only the version attribute differs, nothing to send", where);
          return TRUE;
        }
      g_ptr_array_add (plan->actions, a);
      cp->description = g_strdup_printf ("update %s: %s", where, guard_text);
      break;

    case DYN_CHANGE_KIND_KEY_CHANGE:
      {
        g_autofree char *old_where = key_display (&self->keys, change->before);

        a = plan_delete (self, index, change->before, &cp->guard, &guard_text, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        a = plan_put (self, index, change->before, change->after, error);
        if (a == NULL)
          return FALSE;
        g_ptr_array_add (plan->actions, a);
        cp->description = g_strdup_printf ("key change %s → %s, in one transaction: delete of the old "
                                           "item (%s) and create of the new one (refused if it exists)",
                                           old_where, where, guard_text);
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
  if (self->version_attribute != NULL)
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
  return g_strdup (plan->changes[index].description);
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
