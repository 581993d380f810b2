/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-outline"
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "dyn-item-outline.h"
#include "dyn-value-format.h"

/* The key attribute names in the order the tree lists them: the table's,
 * then each index's, each name once (borrowed from @keys). */
static GPtrArray *
key_names (const DynTableKeys *keys)
{
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (&keys->table.keys); i++)
    g_ptr_array_add (names, (gpointer) dyn_key_schema_get_attribute (&keys->table.keys, i, NULL));
  for (guint j = 0; keys->indexes != NULL && j < keys->indexes->len; j++)
    {
      const DynIndexInfo *index = keys->indexes->pdata[j];

      for (guint i = 0; i < dyn_key_schema_get_n_attributes (&index->keys); i++)
        {
          const char *name = dyn_key_schema_get_attribute (&index->keys, i, NULL);
          gboolean seen = FALSE;

          for (guint k = 0; k < names->len && !seen; k++)
            seen = strcmp (names->pdata[k], name) == 0;
          if (!seen)
            g_ptr_array_add (names, (gpointer) name);
        }
    }
  return names;
}

DynOutlineKey
dyn_outline_key_role (const DynTableKeys  *keys,
                      const char          *name,
                      char               **description)
{
  DynOutlineKey role = DYN_OUTLINE_NOT_KEY;
  GString *text = NULL;
  gboolean is_sort;

  g_return_val_if_fail (name != NULL, DYN_OUTLINE_NOT_KEY);

  if (description != NULL)
    *description = NULL;
  if (keys == NULL)
    return DYN_OUTLINE_NOT_KEY;

  if (dyn_key_schema_find (&keys->table.keys, name, &is_sort, NULL, NULL))
    {
      role = is_sort ? DYN_OUTLINE_SORT_KEY : DYN_OUTLINE_PARTITION_KEY;
      text = g_string_new (is_sort ? _("Sort key of the table") : _("Partition key of the table"));
    }
  for (guint j = 0; keys->indexes != NULL && j < keys->indexes->len; j++)
    {
      const DynIndexInfo *index = keys->indexes->pdata[j];
      g_autofree char *sentence = NULL;

      if (!dyn_key_schema_find (&index->keys, name, &is_sort, NULL, NULL))
        continue;
      if (role == DYN_OUTLINE_NOT_KEY)
        role = DYN_OUTLINE_INDEX_KEY;
      if (text == NULL)
        /* Translators: %s is the name of a secondary index */
        sentence = g_strdup_printf (is_sort ? _("Sort key of index %s") : _("Partition key of index %s"), index->name);
      else
        /* Translators: %s is the name of a secondary index; this follows
         * "Partition key of the table; " and similar */
        sentence = g_strdup_printf (is_sort ? _("sort key of index %s") : _("partition key of index %s"), index->name);
      if (text == NULL)
        text = g_string_new (sentence);
      else
        g_string_append_printf (text, "; %s", sentence);
    }
  if (description != NULL && text != NULL)
    *description = g_string_free (g_steal_pointer (&text), FALSE);
  if (text != NULL)
    g_string_free (text, TRUE);
  return role;
}

typedef struct {
  guint  position;
  char  *folded;
  const char *name;
} Member;

static int
compare_members (gconstpointer a,
                 gconstpointer b)
{
  const Member *ma = a;
  const Member *mb = b;
  int cmp = strcmp (ma->folded, mb->folded);

  return cmp != 0 ? cmp : strcmp (ma->name, mb->name);
}

GArray *
dyn_outline_order (const DynValue     *map,
                   const DynTableKeys *keys)
{
  GArray *order;
  g_autoptr(GArray) rest = NULL;
  g_autofree gboolean *taken = NULL;
  guint n;

  g_return_val_if_fail (map != NULL && dyn_value_get_value_type (map) == DYN_VALUE_M, NULL);

  n = dyn_value_get_length (map);
  order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  taken = g_new0 (gboolean, n);
  if (keys != NULL)
    {
      g_autoptr(GPtrArray) names = key_names (keys);

      for (guint k = 0; k < names->len; k++)
        for (guint i = 0; i < n; i++)
          if (!taken[i] && strcmp (dyn_value_map_get_name (map, i), names->pdata[k]) == 0)
            {
              taken[i] = TRUE;
              g_array_append_val (order, i);
              break;
            }
    }

  rest = g_array_sized_new (FALSE, FALSE, sizeof (Member), n);
  for (guint i = 0; i < n; i++)
    if (!taken[i])
      {
        Member member = { i, g_utf8_casefold (dyn_value_map_get_name (map, i), -1), dyn_value_map_get_name (map, i) };

        g_array_append_val (rest, member);
      }
  g_array_sort (rest, compare_members);
  for (guint i = 0; i < rest->len; i++)
    {
      Member *member = &g_array_index (rest, Member, i);

      g_array_append_val (order, member->position);
      g_free (member->folded);
    }
  return order;
}

/* Text that can be shown as it is: valid UTF-8 without control characters
 * other than line breaks and tabs. */
static gboolean
is_text (const char *data,
         gsize       len)
{
  const char *end = data + len;

  if (!g_utf8_validate_len (data, len, NULL))
    return FALSE;
  for (const char *p = data; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != '\n' && c != '\t' && c != '\r' && !g_unichar_isprint (c))
        return FALSE;
    }
  return TRUE;
}

char *
dyn_outline_binary_preview (GBytes *bytes,
                            guint   max_bytes)
{
  gsize len = 0;
  const guint8 *data;
  GString *out;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &len);
  out = g_string_new (NULL);
  /* An item holds at most 400 KB. */
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u byte", "%u bytes", (guint) len), (guint) len);
  if (len == 0)
    return g_string_free (out, FALSE);
  g_string_append (out, " · ");
  for (gsize i = 0; i < len && i < max_bytes; i++)
    g_string_append_printf (out, i == 0 ? "%02x" : " %02x", data[i]);
  if (len > max_bytes)
    g_string_append (out, " …");
  if (is_text ((const char *) data, len))
    {
      g_autoptr(DynValue) text = dyn_value_new_string_len ((const char *) data, len);
      g_autofree char *shown = dyn_value_format_cell (text, DYN_BINARY_FORMAT_HEX, 60);

      g_string_append (out, " · ");
      /* Translators: the bytes of a binary value read as text, in quotes */
      g_string_append_printf (out, _("“%s”"), shown);
    }
  return g_string_free (out, FALSE);
}

char *
dyn_outline_value_text (const DynValue *value,
                        DynOutlineText *kind)
{
  DynOutlineText text_kind = DYN_OUTLINE_TEXT_VALUE;
  char *text;

  g_return_val_if_fail (value != NULL, NULL);

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      if (dyn_value_get_string_length (value) == 0)
        {
          text_kind = DYN_OUTLINE_TEXT_EMPTY;
          text = g_strdup (_("empty string"));
        }
      else
        text = dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 400);
      break;
    case DYN_VALUE_B:
      if (g_bytes_get_size (dyn_value_get_binary (value)) == 0)
        {
          text_kind = DYN_OUTLINE_TEXT_EMPTY;
          text = g_strdup (_("empty binary"));
        }
      else
        text = dyn_outline_binary_preview (dyn_value_get_binary (value), 16);
      break;
    case DYN_VALUE_N:
      /* Exactly as stored: up to 38 digits, never rounded. */
      text = g_strdup (dyn_value_get_number (value));
      break;
    case DYN_VALUE_BS:
      {
        guint n = dyn_value_get_length (value);

        text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "{%u binary value}", "{%u binary values}", n), n);
      }
      break;
    default:
      text = dyn_value_format_cell (value, DYN_BINARY_FORMAT_BASE64, 400);
      break;
    }
  if (kind != NULL)
    *kind = text_kind;
  return text;
}

char *
dyn_outline_edit_text (const DynValue *value)
{
  g_return_val_if_fail (value != NULL, NULL);

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      /* An entry cannot hold U+0000. */
      if (memchr (dyn_value_get_string (value), '\0', dyn_value_get_string_length (value)) != NULL)
        return NULL;
      return g_strdup (dyn_value_get_string (value));
    case DYN_VALUE_N:
      return g_strdup (dyn_value_get_number (value));
    case DYN_VALUE_B:
      return dyn_value_format_binary (dyn_value_get_binary (value), DYN_BINARY_FORMAT_BASE64);
    case DYN_VALUE_BOOL:
      return g_strdup (dyn_value_get_bool (value) ? "true" : "false");
    case DYN_VALUE_NULL:
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
    default:
      return NULL;
    }
}

DynValue *
dyn_outline_lookup (const DynValue    *item,
                    const DynExprPath *path)
{
  guint n;
  DynValue *value;

  g_return_val_if_fail (item != NULL && path != NULL, NULL);

  value = dyn_path_lookup (item, path);
  if (value != NULL)
    return dyn_value_ref (value);
  n = dyn_expr_path_get_length (path);
  if (n >= 2 && dyn_expr_path_is_index (path, n - 1))
    {
      g_autoptr(DynExprPath) parent = dyn_expr_path_new (NULL);
      guint index = dyn_expr_path_get_index (path, n - 1);
      DynValue *set;

      for (guint i = 0; i + 1 < n; i++)
        {
          if (dyn_expr_path_is_index (path, i))
            dyn_expr_path_append_index (parent, dyn_expr_path_get_index (path, i));
          else
            dyn_expr_path_append_name (parent, dyn_expr_path_get_name (path, i, NULL));
        }
      set = dyn_path_lookup (item, parent);
      if (set == NULL || index >= dyn_value_get_length (set))
        return NULL;
      return dyn_outline_set_element (set, index);
    }
  return NULL;
}

DynValue *
dyn_outline_set_element (const DynValue *set,
                         guint           index)
{
  g_return_val_if_fail (set != NULL, NULL);

  if (index >= dyn_value_get_length (set))
    return NULL;
  switch (dyn_value_get_value_type (set))
    {
    case DYN_VALUE_SS:
      return dyn_value_new_string (dyn_value_set_get_string (set, index));
    case DYN_VALUE_NS:
      return dyn_value_new_number (dyn_value_set_get_string (set, index), NULL);
    case DYN_VALUE_BS:
      return dyn_value_new_binary (dyn_value_set_get_binary (set, index));
    default:
      return NULL;
    }
}

static gboolean
is_container (DynValueType type)
{
  switch (type)
    {
    case DYN_VALUE_M:
    case DYN_VALUE_L:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
dyn_outline_same_shape (const DynValue *a,
                        const DynValue *b)
{
  DynValueType type;
  guint n;

  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  type = dyn_value_get_value_type (a);
  if (!is_container (type) && !is_container (dyn_value_get_value_type (b)))
    return TRUE;
  if (type != dyn_value_get_value_type (b))
    return FALSE;
  n = dyn_value_get_length (a);
  if (n != dyn_value_get_length (b))
    return FALSE;
  switch (type)
    {
    case DYN_VALUE_M:
      for (guint i = 0; i < n; i++)
        {
          DynValue *other = dyn_value_map_lookup (b, dyn_value_map_get_name (a, i));

          if (other == NULL || !dyn_outline_same_shape (dyn_value_map_get_value (a, i), other))
            return FALSE;
        }
      return TRUE;
    case DYN_VALUE_L:
      for (guint i = 0; i < n; i++)
        if (!dyn_outline_same_shape (dyn_value_list_get (a, i), dyn_value_list_get (b, i)))
          return FALSE;
      return TRUE;
    default:
      /* Sets: elements are rows of one type. */
      return TRUE;
    }
}
