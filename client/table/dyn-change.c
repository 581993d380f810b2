/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-change"

#include "config.h"

#include <string.h>

#include "dyn-changes-private.h"

/* ------------------------------------------------------------------------ */
/* DynChange */

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
  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      const char *name = dyn_key_schema_get_attribute (keys, i, NULL);

      if (!opt_equal (dyn_value_map_lookup (a, name), dyn_value_map_lookup (b, name)))
        return FALSE;
    }
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

DynValue *
_dyn_changes_key_of (const DynKeySchema *keys,
                     DynValue           *item)
{
  DynValue *key = dyn_value_new_map ();

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      const char *name = dyn_key_schema_get_attribute (keys, i, NULL);

      dyn_value_map_set (key, name, dyn_value_map_lookup (item, name));
    }
  return key;
}

gboolean
_dyn_changes_is_key_attribute (const DynKeySchema *keys,
                               const char         *name)
{
  return dyn_key_schema_has_attribute (keys, name);
}

/* A text identifying the item a key addresses: numbers by value. */
char *
_dyn_changes_key_identity (const DynKeySchema *keys,
                           DynValue           *item)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (keys); i++)
    {
      DynValue *v = dyn_value_map_lookup (item, dyn_key_schema_get_attribute (keys, i, NULL));

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

char *
_dyn_changes_key_display (const DynKeySchema *keys,
                          DynValue           *item)
{
  g_autoptr(DynValue) key = _dyn_changes_key_of (keys, item);
  return dyn_value_to_plain_json_string (key);
}

/* The version to write: before's version + 1, "1" for a new item. NULL when
 * the table has no version attribute or before's version is not a number. */
DynValue *
_dyn_changes_next_version (const char *version_attribute,
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

DynValue *
_dyn_changes_version_of (const char *version_attribute,
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
DynValue *
_dyn_changes_item_to_put (const char *version_attribute,
                          DynValue   *before,
                          DynValue   *after,
                          GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(DynValue) version = NULL;

  if (version_attribute == NULL)
    return dyn_value_ref (after);
  if (before != NULL && _dyn_changes_version_of (version_attribute, before) != NULL)
    version = _dyn_changes_next_version (version_attribute, before, &local_error);
  else if (dyn_value_map_lookup (after, version_attribute) == NULL)
    version = _dyn_changes_next_version (version_attribute, NULL, &local_error);
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

  if (self->before == NULL || _dyn_changes_version_of (version_attribute, self->before) == NULL)
    left = _dyn_changes_item_to_put (version_attribute, self->before, self->after, NULL);
  else
    {
      g_autoptr(DynValue) version = _dyn_changes_next_version (version_attribute, self->before, NULL);
      left = version ? item_with (self->after, version_attribute, version)
                     : dyn_value_ref (self->after);
    }
  if (left == NULL)
    left = dyn_value_ref (self->after);
  return dyn_change_new (left, self->before);
}
