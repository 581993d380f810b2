/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-item-copy"

#include "config.h"

#include <string.h>

#include "dyn-item-copy.h"
#include "dyn-json.h"

const char *
dyn_copy_format_to_string (DynCopyFormat format)
{
  return format == DYN_COPY_FORMAT_DDB ? "ddb" : "plain";
}

gboolean
dyn_copy_format_from_string (const char    *text,
                             DynCopyFormat *format)
{
  if (g_strcmp0 (text, "plain") == 0)
    *format = DYN_COPY_FORMAT_PLAIN;
  else if (g_strcmp0 (text, "ddb") == 0)
    *format = DYN_COPY_FORMAT_DDB;
  else
    return FALSE;
  return TRUE;
}

/* The attributes of @key that @item has, in key order. */
static DynValue *
key_of (DynValue           *item,
        const DynKeySchema *key)
{
  DynValue *map = dyn_value_new_map ();

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (key); i++)
    {
      const char *name = dyn_key_schema_get_attribute (key, i, NULL);
      DynValue *value = dyn_value_map_lookup (item, name);

      if (value != NULL)
        dyn_value_map_set (map, name, value);
    }
  return map;
}

char *
dyn_items_to_json_lines (DynValue * const   *items,
                         guint               n,
                         DynCopyFormat       format,
                         const DynKeySchema *key)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (items != NULL || n == 0, NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(DynValue) item = key ? key_of (items[i], key) : dyn_value_ref (items[i]);

      if (format == DYN_COPY_FORMAT_DDB)
        dyn_json_append_ddb_item (out, item);
      else
        dyn_json_append_plain_value (out, item);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}
