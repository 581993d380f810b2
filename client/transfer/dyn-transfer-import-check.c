/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-transfer"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "dyn-error.h"
#include "dyn-transfer-import-private.h"

/* ------------------------------------------------------------ validation */

static gsize
key_value_bytes (const DynValue *value)
{
  if (dyn_value_get_value_type (value) == DYN_VALUE_S)
    return dyn_value_get_string_length (value);
  if (dyn_value_get_value_type (value) == DYN_VALUE_B)
    return g_bytes_get_size (dyn_value_get_binary (value));
  return strlen (dyn_value_get_number (value));
}

/* One key attribute of the table (@is_table) or an index. */
static char *
check_key_attribute (const DynValue *item,
                     const char     *name,
                     DynValueType    type,
                     gboolean        is_table,
                     gboolean        is_sort)
{
  DynValue *value = dyn_value_map_lookup (item, name);
  DynValueType actual;

  if (value == NULL)
    {
      /* An item without an index's key attribute is simply not in the index. */
      if (!is_table)
        return NULL;
      if (is_sort)
        /* Translators: %s is the attribute name; the English text in parentheses is DynamoDB's own */
        return g_strdup_printf (_("%s: the sort key is missing (DynamoDB: One of the required keys was not given a value)"), name);
      return g_strdup_printf (_("%s: the partition key is missing (DynamoDB: One of the required keys was not given a value)"), name);
    }
  actual = dyn_value_get_value_type (value);
  if (actual != type)
    {
      if (is_table)
        /* Translators: "pk: the key must be of type S, not N (…)" */
        return g_strdup_printf (_("%s: the key must be of type %s, not %s (DynamoDB: Type mismatch for key)"),
                                name, dyn_value_type_to_string (type), dyn_value_type_to_string (actual));
      return g_strdup_printf (_("%s: an index key must be of type %s, not %s (DynamoDB: Type mismatch for Index Key)"),
                              name, dyn_value_type_to_string (type), dyn_value_type_to_string (actual));
    }
  if (type != DYN_VALUE_N && key_value_bytes (value) == 0)
    return g_strdup_printf (_("%s: a key cannot be empty (DynamoDB: The AttributeValue for a key attribute cannot contain an empty string value)"),
                            name);
  if (is_table && !is_sort && key_value_bytes (value) > DYN_IMPORT_MAX_PARTITION_KEY_BYTES)
    return g_strdup_printf (_("%s: the partition key is longer than 2048 bytes (DynamoDB: Hash primary key values must be under 2048 bytes)"),
                            name);
  if (is_table && is_sort && key_value_bytes (value) > DYN_IMPORT_MAX_SORT_KEY_BYTES)
    return g_strdup_printf (_("%s: the sort key is longer than 1024 bytes (DynamoDB: range primary key values must be under 1024 bytes)"),
                            name);
  return NULL;
}

static char *
check_key_schema (const DynValue     *item,
                  const DynKeySchema *schema,
                  gboolean            is_table)
{
  guint n_partition = dyn_key_schema_get_n_partition_keys (schema);

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (schema); i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (schema, i, &type);
      char *problem = check_key_attribute (item, name, type, is_table, i >= n_partition);

      if (problem != NULL)
        return problem;
    }
  return NULL;
}

/* Empty names and nesting, below @value at @level (the item is level 1). */
static char *
check_structure (const DynValue *value,
                 const char     *top,
                 guint           level)
{
  DynValueType type = dyn_value_get_value_type (value);
  guint n;

  if (type != DYN_VALUE_M && type != DYN_VALUE_L)
    return NULL;
  n = dyn_value_get_length (value);
  for (guint i = 0; i < n; i++)
    {
      const DynValue *child;
      DynValueType child_type;
      const char *name = top;
      char *problem;

      if (type == DYN_VALUE_M)
        {
          const char *member = dyn_value_map_get_name (value, i);

          if (member[0] == '\0')
            {
              if (top == NULL)
                return g_strdup (_("an attribute name is empty (DynamoDB: Empty attribute name)"));
              /* Translators: %s is the top-level attribute holding the map */
              return g_strdup_printf (_("%s: a map member's name is empty (DynamoDB: Empty attribute name)"), top);
            }
          child = dyn_value_map_get_value (value, i);
          if (top == NULL)
            name = member;
        }
      else
        child = dyn_value_list_get (value, i);

      child_type = dyn_value_get_value_type (child);
      if (child_type != DYN_VALUE_M && child_type != DYN_VALUE_L)
        continue;
      if (level + 1 > DYN_IMPORT_MAX_DEPTH)
        return g_strdup_printf (_("%s: nested more than 32 levels deep (DynamoDB: Nesting Levels have exceeded supported limits)"),
                                name);
      problem = check_structure (child, name, level + 1);
      if (problem != NULL)
        return problem;
    }
  return NULL;
}

char *
_dyn_import_check_item (const DynTableKeys *keys,
                        const DynValue     *item)
{
  char *problem;
  gsize size;

  g_return_val_if_fail (keys != NULL, NULL);
  g_return_val_if_fail (item != NULL, NULL);

  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    return g_strdup (_("the record is not an item (a map of attributes)"));
  problem = check_key_schema (item, &keys->table.keys, TRUE);
  if (problem != NULL)
    return problem;
  for (guint i = 0; keys->indexes != NULL && i < keys->indexes->len; i++)
    {
      const DynIndexInfo *index = g_ptr_array_index (keys->indexes, i);

      problem = check_key_schema (item, &index->keys, FALSE);
      if (problem != NULL)
        return problem;
    }
  problem = check_structure (item, NULL, 1);
  if (problem != NULL)
    return problem;
  size = dyn_item_size (item);
  if (size > DYN_ITEM_MAX_SIZE)
    {
      g_autofree char *text = g_strdup_printf ("%'" G_GSIZE_FORMAT, size);
      /* Translators: %s is a byte count, "412,004" */
      return g_strdup_printf (_("the item is %s bytes, more than 400 KB (DynamoDB: Item size has exceeded the maximum allowed size)"),
                              text);
    }
  return NULL;
}

DynValue *
_dyn_import_item_key (const DynTableKeys *keys,
                      const DynValue     *item)
{
  const DynKeySchema *schema = &keys->table.keys;
  DynValue *key = dyn_value_new_map ();

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (schema); i++)
    {
      const char *name = dyn_key_schema_get_attribute (schema, i, NULL);
      DynValue *value = dyn_value_map_lookup (item, name);

      if (value != NULL)
        dyn_value_map_set (key, name, value);
    }
  return key;
}

char *
_dyn_import_key_digest (const DynTableKeys *keys,
                        const DynValue     *item)
{
  const DynKeySchema *schema = &keys->table.keys;
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  char *hex;

  for (guint i = 0; i < dyn_key_schema_get_n_attributes (schema); i++)
    {
      const char *name = dyn_key_schema_get_attribute (schema, i, NULL);
      DynValue *value = dyn_value_map_lookup (item, name);
      guint64 len;

      if (value == NULL)
        {
          g_checksum_update (sum, (const guchar *) "-", 1);
          continue;
        }
      switch (dyn_value_get_value_type (value))
        {
        case DYN_VALUE_S:
          len = GUINT64_TO_BE (dyn_value_get_string_length (value));
          g_checksum_update (sum, (const guchar *) "S", 1);
          g_checksum_update (sum, (const guchar *) &len, sizeof len);
          g_checksum_update (sum, (const guchar *) dyn_value_get_string (value), dyn_value_get_string_length (value));
          break;
        case DYN_VALUE_N:
          {
            g_autofree char *canonical = dyn_number_canonicalize (dyn_value_get_number (value));
            len = GUINT64_TO_BE (strlen (canonical));
            g_checksum_update (sum, (const guchar *) "N", 1);
            g_checksum_update (sum, (const guchar *) &len, sizeof len);
            g_checksum_update (sum, (const guchar *) canonical, strlen (canonical));
          }
          break;
        default:
          {
            GBytes *bytes = dyn_value_get_binary (value);
            gsize size = 0;
            const guchar *data = dyn_value_get_value_type (value) == DYN_VALUE_B ? g_bytes_get_data (bytes, &size) : NULL;
            len = GUINT64_TO_BE (size);
            g_checksum_update (sum, (const guchar *) "B", 1);
            g_checksum_update (sum, (const guchar *) &len, sizeof len);
            if (size > 0)
              g_checksum_update (sum, data, size);
          }
          break;
        }
    }
  hex = g_strdup (g_checksum_get_string (sum));
  hex[32] = '\0';
  return hex;
}

/* ------------------------------------------------------------ checkpoint */

void
_dyn_import_checkpoint_clear (DynImportCheckpoint *cp)
{
  g_clear_pointer (&cp->endpoint, g_free);
  g_clear_pointer (&cp->table, g_free);
  g_clear_pointer (&cp->input, g_free);
  g_clear_pointer (&cp->format, g_free);
  memset (cp, 0, sizeof *cp);
}

gboolean
_dyn_import_checkpoint_write (const char                *path,
                              const DynImportCheckpoint *cp,
                              GError                   **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "version");
  json_builder_add_int_value (b, 1);
  json_builder_set_member_name (b, "endpoint");
  json_builder_add_string_value (b, cp->endpoint);
  json_builder_set_member_name (b, "table");
  json_builder_add_string_value (b, cp->table);
  json_builder_set_member_name (b, "input");
  json_builder_add_string_value (b, cp->input);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, cp->format);
  json_builder_set_member_name (b, "neverOverwrite");
  json_builder_add_boolean_value (b, cp->never_overwrite);
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, (gint64) cp->size);
  json_builder_set_member_name (b, "mtime");
  json_builder_add_int_value (b, cp->mtime);
  json_builder_set_member_name (b, "position");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_int_value (b, cp->position.file);
  json_builder_set_member_name (b, "offset");
  json_builder_add_int_value (b, (gint64) cp->position.offset);
  json_builder_set_member_name (b, "line");
  json_builder_add_int_value (b, (gint64) cp->position.line);
  json_builder_set_member_name (b, "record");
  json_builder_add_int_value (b, (gint64) cp->position.record);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "written");
  json_builder_add_int_value (b, (gint64) cp->written);
  json_builder_set_member_name (b, "bad");
  json_builder_add_int_value (b, (gint64) cp->bad);
  json_builder_set_member_name (b, "existing");
  json_builder_add_int_value (b, (gint64) cp->existing);
  json_builder_set_member_name (b, "identical");
  json_builder_add_int_value (b, (gint64) cp->identical);
  json_builder_set_member_name (b, "writeUnits");
  json_builder_add_double_value (b, cp->write_units);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot create the folder %s: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  return g_file_set_contents_full (path, text, -1,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0600, error);
}

gboolean
_dyn_import_checkpoint_read (const char          *path,
                             DynImportCheckpoint *cp,
                             GError             **error)
{
  g_autofree char *text = NULL;
  gsize len;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *obj, *pos;

  if (!g_file_get_contents (path, &text, &len, error))
    return FALSE;
  if (!json_parser_load_from_data (parser, text, (gssize) len, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto bad;
  obj = json_node_get_object (json_parser_get_root (parser));
  if (json_object_get_int_member_with_default (obj, "version", 0) != 1)
    goto bad;
  pos = json_object_get_object_member (obj, "position");
  if (pos == NULL)
    goto bad;
  cp->endpoint = g_strdup (json_object_get_string_member_with_default (obj, "endpoint", ""));
  cp->table = g_strdup (json_object_get_string_member_with_default (obj, "table", ""));
  cp->input = g_strdup (json_object_get_string_member_with_default (obj, "input", ""));
  cp->format = g_strdup (json_object_get_string_member_with_default (obj, "format", ""));
  cp->never_overwrite = json_object_get_boolean_member_with_default (obj, "neverOverwrite", FALSE);
  cp->size = (guint64) json_object_get_int_member_with_default (obj, "size", 0);
  cp->mtime = json_object_get_int_member_with_default (obj, "mtime", 0);
  cp->position.file = (guint) json_object_get_int_member_with_default (pos, "file", 0);
  cp->position.offset = (guint64) json_object_get_int_member_with_default (pos, "offset", 0);
  cp->position.line = (guint64) json_object_get_int_member_with_default (pos, "line", 1);
  cp->position.record = (guint64) json_object_get_int_member_with_default (pos, "record", 0);
  cp->written = (guint64) json_object_get_int_member_with_default (obj, "written", 0);
  cp->bad = (guint64) json_object_get_int_member_with_default (obj, "bad", 0);
  cp->existing = (guint64) json_object_get_int_member_with_default (obj, "existing", 0);
  cp->identical = (guint64) json_object_get_int_member_with_default (obj, "identical", 0);
  cp->write_units = json_object_get_double_member_with_default (obj, "writeUnits", 0);
  return TRUE;

bad:
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE,
               _("The import checkpoint %s cannot be read; start again with --restart"), path);
  return FALSE;
}

gboolean
_dyn_import_input_stat (const char *input,
                        guint64    *size,
                        gint64     *mtime,
                        GError    **error)
{
  g_autofree char *manifest = NULL;
  const char *path = input;
  GStatBuf st;

  if (g_file_test (input, G_FILE_TEST_IS_DIR))
    {
      manifest = g_build_filename (input, "manifest-files.json", NULL);
      if (g_file_test (manifest, G_FILE_TEST_EXISTS))
        path = manifest;
    }
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Cannot read %s: %s"), path, g_strerror (saved));
      return FALSE;
    }
  *size = (guint64) st.st_size;
#ifdef __linux__
  *mtime = (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC + st.st_mtim.tv_nsec / 1000;
#else
  *mtime = (gint64) st.st_mtime * G_USEC_PER_SEC;
#endif
  return TRUE;
}
