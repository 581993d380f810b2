/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-table-admin-private.h"

/* DynamoDB's limits on CreateTable (Service quotas, "Secondary indexes"). */
#define MAX_GSIS 20
#define MAX_LSIS 5
#define MAX_NON_KEY_ATTRIBUTES 100
#define MAX_INDEX_NON_KEY_ATTRIBUTES 20

DynTableSpec *
dyn_table_spec_new (const char   *table,
                    const char   *partition_key,
                    DynValueType  partition_type,
                    const char   *sort_key,
                    DynValueType  sort_type)
{
  DynTableSpec *self;

  g_return_val_if_fail (table != NULL && partition_key != NULL, NULL);

  self = g_new0 (DynTableSpec, 1);
  self->keys = dyn_table_keys_new (table, partition_key, partition_type, sort_key, sort_type);
  self->billing = DYN_BILLING_ON_DEMAND;
  self->index_units = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return self;
}

void
dyn_table_spec_free (DynTableSpec *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->keys, dyn_table_keys_free);
  g_clear_pointer (&self->index_units, g_hash_table_unref);
  g_free (self->ttl_attribute);
  g_free (self->table_class);
  g_free (self);
}

static DynValueType
key_type_of (const char *type)
{
  switch (type[0])
    {
    case 'N':
      return DYN_VALUE_N;
    case 'B':
      return DYN_VALUE_B;
    default:
      return DYN_VALUE_S;
    }
}

DynTableSpec *
dyn_table_spec_parse (const char  *table,
                      const char  *partition_key,
                      const char  *sort_key,
                      GError     **error)
{
  g_autofree char *pk = NULL, *pkt = NULL, *sk = NULL, *skt = NULL;

  g_return_val_if_fail (table != NULL, NULL);

  if (partition_key == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: keep NAME:TYPE as it is */
                   _("A table needs a partition key, written NAME:TYPE"));
      return NULL;
    }
  if (!dyn_parse_key_spec (partition_key, &pk, &pkt, error))
    return NULL;
  if (sort_key != NULL && !dyn_parse_key_spec (sort_key, &sk, &skt, error))
    return NULL;
  return dyn_table_spec_new (table, pk, key_type_of (pkt), sk, sk ? key_type_of (skt) : DYN_VALUE_S);
}

gboolean
_dyn_table_parse_projection (const char         *text,
                             const char         *what,
                             DynProjectionType  *projection,
                             GStrv              *non_key_attributes,
                             GError            **error)
{
  *non_key_attributes = NULL;
  if (text == NULL || strcmp (text, "ALL") == 0)
    *projection = DYN_PROJECTION_ALL;
  else if (strcmp (text, "KEYS_ONLY") == 0)
    *projection = DYN_PROJECTION_KEYS_ONLY;
  else if (g_str_has_prefix (text, "INCLUDE="))
    {
      g_auto(GStrv) names = g_strsplit (text + strlen ("INCLUDE="), ",", -1);

      for (guint i = 0; names[i] != NULL; i++)
        if (*names[i] == '\0')
          {
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                         /* Translators: %s is an index; keep INCLUDE=a,b as it is */
                         _("“%s”: INCLUDE lists attribute names, INCLUDE=a,b"), what);
            return FALSE;
          }
      if (names[0] == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("“%s”: INCLUDE lists attribute names, INCLUDE=a,b"), what);
          return FALSE;
        }
      *projection = DYN_PROJECTION_INCLUDE;
      *non_key_attributes = g_steal_pointer (&names);
    }
  else
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is an index, the second the projection as given; keep ALL,
                    * KEYS_ONLY and INCLUDE=a,b as they are */
                   _("“%s”: projection “%s” is not ALL, KEYS_ONLY or INCLUDE=a,b"), what, text);
      return FALSE;
    }
  return TRUE;
}

DynIndexInfo *
_dyn_table_keys_add_gsi_text (DynTableKeys  *keys,
                              const char    *text,
                              GError       **error)
{
  g_autofree char *name = NULL, *projection_text = NULL;
  g_autoptr(GPtrArray) parts = NULL;
  g_auto(GStrv) non_key = NULL;
  DynKeySchema schema = { 0 };
  DynProjectionType projection;
  DynIndexInfo *index;

  if (!dyn_parse_gsi_spec (text, &name, &parts, &projection_text, error))
    return NULL;
  if (!_dyn_table_parse_projection (projection_text, name, &projection, &non_key, error))
    return NULL;
  for (guint i = 0; i < parts->len; i++)
    {
      DynKeyPart *part = parts->pdata[i];

      dyn_key_schema_append (&schema, part->sort, part->name, key_type_of (part->type));
    }
  index = dyn_table_keys_add_index_with_schema (keys, name, DYN_INDEX_GLOBAL, &schema, projection);
  index->non_key_attributes = g_steal_pointer (&non_key);
  dyn_key_schema_clear (&schema);
  return index;
}

gboolean
dyn_table_spec_add_gsi (DynTableSpec  *self,
                        const char    *text,
                        GError       **error)
{
  g_return_val_if_fail (self != NULL && text != NULL, FALSE);

  return _dyn_table_keys_add_gsi_text (self->keys, text, error) != NULL;
}

gboolean
dyn_table_spec_add_lsi (DynTableSpec  *self,
                        const char    *text,
                        GError       **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *key = NULL, *sk = NULL, *skt = NULL;
  g_auto(GStrv) non_key = NULL;
  DynProjectionType projection = DYN_PROJECTION_ALL;
  const char *projection_text = NULL;
  guint n;
  DynIndexInfo *index;

  g_return_val_if_fail (self != NULL && text != NULL, FALSE);

  parts = g_strsplit (text, ":", -1);
  n = g_strv_length (parts);
  if (n == 4 && dyn_is_projection_spec (parts[3]))
    projection_text = parts[3];
  else if (n != 3)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the index as given; keep NAME:SK:TYPE[:PROJECTION] as it is */
                   _("“%s”: a local secondary index is written NAME:SK:TYPE[:PROJECTION]"), text);
      return FALSE;
    }
  if (!dyn_is_valid_table_name (parts[0]))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("“%s”: an index name has 3 to 255 characters, letters, digits, “_”, “-” and “.”"), text);
      return FALSE;
    }
  key = g_strconcat (parts[1], ":", parts[2], NULL);
  if (!dyn_parse_key_spec (key, &sk, &skt, error))
    return FALSE;
  if (!_dyn_table_parse_projection (projection_text, parts[0], &projection, &non_key, error))
    return FALSE;
  index = dyn_table_keys_add_index (self->keys, parts[0], DYN_INDEX_LOCAL,
                                    self->keys->table.keys.partition_key, self->keys->table.keys.partition_type,
                                    sk, key_type_of (skt), projection);
  index->non_key_attributes = g_steal_pointer (&non_key);
  return TRUE;
}

static gboolean
parse_units (const char *text,
             gint64     *units)
{
  guint64 n;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &n, NULL))
    return FALSE;
  *units = n;
  return TRUE;
}

gboolean
dyn_table_spec_set_billing (DynTableSpec  *self,
                            const char    *text,
                            GError       **error)
{
  g_return_val_if_fail (self != NULL && text != NULL, FALSE);

  if (strcmp (text, "on-demand") == 0)
    {
      self->billing = DYN_BILLING_ON_DEMAND;
      self->read_units = self->write_units = 0;
      return TRUE;
    }
  if (g_str_has_prefix (text, "provisioned:"))
    {
      g_auto(GStrv) parts = g_strsplit (text, ":", -1);
      gint64 r, w;

      if (g_strv_length (parts) == 3 && parse_units (parts[1], &r) && parse_units (parts[2], &w))
        {
          self->billing = DYN_BILLING_PROVISIONED;
          self->read_units = r;
          self->write_units = w;
          return TRUE;
        }
    }
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is the billing as given; keep on-demand and provisioned:R:W as they are */
               _("“%s”: billing is on-demand or provisioned:R:W (read and write units)"), text);
  return FALSE;
}

/* Rules ------------------------------------------------------------------- */

/* Records @name as @type; FALSE (with DynamoDB's reason) when another key
 * gave it another type. */
static gboolean
check_type (GHashTable   *types,
            const char   *where,
            const char   *name,
            DynValueType  type,
            GError      **error)
{
  gpointer known;

  if (g_hash_table_lookup_extended (types, name, NULL, &known) && GPOINTER_TO_INT (known) != (int) type)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("“%s”: %s is of type %s here but of type %s in another key"), where, name,
                   dyn_value_type_to_string (type), dyn_value_type_to_string (GPOINTER_TO_INT (known)));
      return FALSE;
    }
  g_hash_table_insert (types, (gpointer) name, GINT_TO_POINTER (type));
  return TRUE;
}

static gboolean
check_key (GHashTable         *types,
           const char         *where,
           const DynKeySchema *keys,
           GError            **error)
{
  guint n = dyn_key_schema_get_n_attributes (keys);

  for (guint i = 0; i < n; i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (keys, i, &type);

      if (type != DYN_VALUE_S && type != DYN_VALUE_N && type != DYN_VALUE_B)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("“%s”: key type “%s” is not S, N or B"), where, dyn_value_type_to_string (type));
          return FALSE;
        }
      if (*name == '\0' || strlen (name) > 255)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: %s is a table or an index */
                       _("“%s”: a key attribute's name has 1 to 255 bytes"), where);
          return FALSE;
        }
      for (guint k = 0; k < i; k++)
        if (strcmp (dyn_key_schema_get_attribute (keys, k, NULL), name) == 0)
          {
            g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                         _("“%s”: the attribute %s is in the key twice"), where, name);
            return FALSE;
          }
      if (!check_type (types, where, name, type, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
check_units (const char  *where,
             gint64       read_units,
             gint64       write_units,
             GError     **error)
{
  if (read_units < 1 || write_units < 1)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is a table or an index */
                   _("“%s”: provisioned capacity needs 1 or more read and 1 or more write units"), where);
      return FALSE;
    }
  return TRUE;
}

static gboolean
index_units (const DynTableSpec *self,
             const char         *index,
             gint64             *read_units,
             gint64             *write_units)
{
  const char *text = self->index_units ? g_hash_table_lookup (self->index_units, index) : NULL;
  g_auto(GStrv) parts = NULL;

  *read_units = self->read_units;
  *write_units = self->write_units;
  if (text == NULL)
    return TRUE;
  parts = g_strsplit (text, ":", -1);
  if (g_strv_length (parts) != 2 || !parse_units (parts[0], read_units) || !parse_units (parts[1], write_units))
    {
      *read_units = *write_units = 0;
      return FALSE;
    }
  return TRUE;
}

gboolean
dyn_table_spec_validate (const DynTableSpec  *self,
                         GError             **error)
{
  const DynTableKeys *keys;
  const char *table;
  g_autoptr(GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_gsis = 0, n_lsis = 0, n_non_key = 0;

  g_return_val_if_fail (self != NULL && self->keys != NULL, FALSE);

  keys = self->keys;
  table = keys->table.name;
  if (table == NULL || !dyn_is_valid_table_name (table))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the table name as given */
                   _("“%s”: a table name has 3 to 255 characters, letters, digits, “_”, “-” and “.”"),
                   table ? table : "");
      return FALSE;
    }
  if (keys->table.keys.partition_key == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("A table needs a partition key, written NAME:TYPE"));
      return FALSE;
    }
  if (!check_key (types, table, &keys->table.keys, error))
    return FALSE;

  if (self->billing == DYN_BILLING_PROVISIONED)
    {
      if (!check_units (table, self->read_units, self->write_units, error))
        return FALSE;
    }
  else if (self->read_units != 0 || self->write_units != 0 ||
           (self->index_units != NULL && g_hash_table_size (self->index_units) > 0))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the table */
                   _("“%s”: an on-demand table has no provisioned read or write units"), table);
      return FALSE;
    }

  for (guint i = 0; i < keys->indexes->len; i++)
    {
      const DynIndexInfo *index = keys->indexes->pdata[i];
      g_autoptr(GHashTable) included = g_hash_table_new (g_str_hash, g_str_equal);

      if (index->name == NULL || !dyn_is_valid_table_name (index->name))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("“%s”: an index name has 3 to 255 characters, letters, digits, “_”, “-” and “.”"),
                       index->name ? index->name : "");
          return FALSE;
        }
      if (!g_hash_table_add (names, index->name))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("“%s”: another index has this name"), index->name);
          return FALSE;
        }
      if (!check_key (types, index->name, &index->keys, error))
        return FALSE;

      if (index->kind == DYN_INDEX_GLOBAL)
        {
          if (++n_gsis > MAX_GSIS)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index, %d DynamoDB's limit (20) */
                           _("“%s”: a table has at most %d global secondary indexes"), index->name, MAX_GSIS);
              return FALSE;
            }
          if (self->billing == DYN_BILLING_PROVISIONED)
            {
              gint64 r, w;

              index_units (self, index->name, &r, &w);
              if (!check_units (index->name, r, w, error))
                return FALSE;
            }
        }
      else if (index->kind == DYN_INDEX_LOCAL)
        {
          if (++n_lsis > MAX_LSIS)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index, %d DynamoDB's limit (5) */
                           _("“%s”: a table has at most %d local secondary indexes"), index->name, MAX_LSIS);
              return FALSE;
            }
          if (keys->table.keys.sort_key == NULL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index */
                           _("“%s”: a local secondary index needs a table with a sort key"), index->name);
              return FALSE;
            }
          if (index->keys.partition_key == NULL || index->keys.sort_key == NULL ||
              dyn_key_schema_is_multi_attribute (&index->keys) ||
              !dyn_key_schema_same_partition (&index->keys, &keys->table.keys))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: the first %s is an index, the second the table's partition key */
                           _("“%s”: a local secondary index has the table's partition key %s and one sort key"),
                           index->name, keys->table.keys.partition_key);
              return FALSE;
            }
        }

      if (index->projection != DYN_PROJECTION_INCLUDE && index->non_key_attributes != NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       /* Translators: %s is an index; keep INCLUDE as it is */
                       _("“%s”: only an INCLUDE projection lists attributes"), index->name);
          return FALSE;
        }
      if (index->projection == DYN_PROJECTION_INCLUDE &&
          (index->non_key_attributes == NULL || index->non_key_attributes[0] == NULL))
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("“%s”: INCLUDE lists attribute names, INCLUDE=a,b"), index->name);
          return FALSE;
        }
      for (guint k = 0; index->non_key_attributes && index->non_key_attributes[k]; k++)
        {
          const char *attr = index->non_key_attributes[k];

          if (dyn_key_schema_has_attribute (&index->keys, attr) ||
              dyn_key_schema_has_attribute (&keys->table.keys, attr))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: the first %s is an index, the second an attribute; keep INCLUDE */
                           _("“%s”: %s is a key attribute (always projected); INCLUDE lists only other attributes"),
                           index->name, attr);
              return FALSE;
            }
          if (!g_hash_table_add (included, (gpointer) attr))
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: the first %s is an index, the second an attribute; keep INCLUDE */
                           _("“%s”: INCLUDE names %s twice"), index->name, attr);
              return FALSE;
            }
          if (k >= MAX_INDEX_NON_KEY_ATTRIBUTES)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index, %d DynamoDB's limit (20); keep INCLUDE */
                           _("“%s”: INCLUDE lists at most %d attributes per index"),
                           index->name, MAX_INDEX_NON_KEY_ATTRIBUTES);
              return FALSE;
            }
          if (strlen (attr) > 255)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index; keep INCLUDE */
                           _("“%s”: an attribute name in INCLUDE has 1 to 255 bytes"), index->name);
              return FALSE;
            }
          if (++n_non_key > MAX_NON_KEY_ATTRIBUTES)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index, %d DynamoDB's limit (100) */
                           _("“%s”: the indexes of a table project at most %d INCLUDE attributes in all"),
                           index->name, MAX_NON_KEY_ATTRIBUTES);
              return FALSE;
            }
        }
    }

  if (self->index_units != NULL)
    {
      GHashTableIter iter;
      gpointer name;

      g_hash_table_iter_init (&iter, self->index_units);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        {
          const DynIndexInfo *index = dyn_table_keys_lookup (keys, name);
          gint64 r, w;

          if (index == NULL || index->kind != DYN_INDEX_GLOBAL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is an index name */
                           _("“%s”: no global secondary index has this name"), (const char *) name);
              return FALSE;
            }
          if (!index_units (self, name, &r, &w))
            return check_units (name, 0, 0, error);
        }
    }

  if (self->ttl_attribute != NULL && (*self->ttl_attribute == '\0' || strlen (self->ttl_attribute) > 255))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the table */
                   _("“%s”: the TTL attribute's name has 1 to 255 bytes"), table);
      return FALSE;
    }
  if (self->table_class != NULL && strcmp (self->table_class, "STANDARD") != 0 &&
      strcmp (self->table_class, "STANDARD_INFREQUENT_ACCESS") != 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   /* Translators: %s is the class as given; keep the two class names as they are */
                   _("“%s”: a table class is STANDARD or STANDARD_INFREQUENT_ACCESS"), self->table_class);
      return FALSE;
    }
  return TRUE;
}

/* CreateTable JSON -------------------------------------------------------- */

static JsonArray *
key_schema_json (const DynKeySchema *keys)
{
  JsonArray *schema = json_array_new ();
  guint n = dyn_key_schema_get_n_attributes (keys);
  guint n_partition = dyn_key_schema_get_n_partition_keys (keys);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *k = json_object_new ();

      json_object_set_string_member (k, "AttributeName", dyn_key_schema_get_attribute (keys, i, NULL));
      json_object_set_string_member (k, "KeyType", i < n_partition ? "HASH" : "RANGE");
      json_array_add_object_element (schema, k);
    }
  return schema;
}

static void
add_definitions (JsonArray          *defs,
                 GHashTable         *seen,
                 const DynKeySchema *keys)
{
  guint n = dyn_key_schema_get_n_attributes (keys);

  for (guint i = 0; i < n; i++)
    {
      DynValueType type;
      const char *name = dyn_key_schema_get_attribute (keys, i, &type);
      JsonObject *def;
      gpointer known;

      /* Once per attribute; one defined with two types (refused by the
       * rules) is sent as it is, twice. */
      if (g_hash_table_lookup_extended (seen, name, NULL, &known) && GPOINTER_TO_INT (known) == (int) type)
        continue;
      g_hash_table_insert (seen, (gpointer) name, GINT_TO_POINTER (type));
      def = json_object_new ();
      json_object_set_string_member (def, "AttributeName", name);
      json_object_set_string_member (def, "AttributeType", dyn_value_type_to_string (type));
      json_array_add_object_element (defs, def);
    }
}

JsonObject *
_dyn_table_projection_json (const DynIndexInfo *index)
{
  JsonObject *projection = json_object_new ();

  switch (index->projection)
    {
    case DYN_PROJECTION_KEYS_ONLY:
      json_object_set_string_member (projection, "ProjectionType", "KEYS_ONLY");
      break;
    case DYN_PROJECTION_INCLUDE:
      json_object_set_string_member (projection, "ProjectionType", "INCLUDE");
      break;
    case DYN_PROJECTION_ALL:
    default:
      json_object_set_string_member (projection, "ProjectionType", "ALL");
      break;
    }
  if (index->non_key_attributes != NULL)
    {
      JsonArray *attrs = json_array_new ();

      for (guint i = 0; index->non_key_attributes[i] != NULL; i++)
        json_array_add_string_element (attrs, index->non_key_attributes[i]);
      json_object_set_array_member (projection, "NonKeyAttributes", attrs);
    }
  return projection;
}

static JsonObject *
throughput_json (gint64 read_units,
                 gint64 write_units)
{
  JsonObject *throughput = json_object_new ();

  json_object_set_int_member (throughput, "ReadCapacityUnits", read_units);
  json_object_set_int_member (throughput, "WriteCapacityUnits", write_units);
  return throughput;
}

JsonNode *
_dyn_table_spec_build_json (const DynTableSpec *self)
{
  const DynTableKeys *keys = self->keys;
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *obj = json_object_new ();
  JsonArray *defs = json_array_new ();
  JsonArray *gsis = json_array_new ();
  JsonArray *lsis = json_array_new ();
  JsonNode *node;

  json_object_set_string_member (obj, "TableName", keys->table.name);
  json_object_set_array_member (obj, "AttributeDefinitions", defs);
  add_definitions (defs, seen, &keys->table.keys);
  json_object_set_array_member (obj, "KeySchema", key_schema_json (&keys->table.keys));

  for (guint i = 0; i < keys->indexes->len; i++)
    {
      const DynIndexInfo *index = keys->indexes->pdata[i];
      JsonObject *o = json_object_new ();

      add_definitions (defs, seen, &index->keys);
      json_object_set_string_member (o, "IndexName", index->name);
      json_object_set_array_member (o, "KeySchema", key_schema_json (&index->keys));
      json_object_set_object_member (o, "Projection", _dyn_table_projection_json (index));
      if (index->kind == DYN_INDEX_LOCAL)
        json_array_add_object_element (lsis, o);
      else
        {
          if (self->billing == DYN_BILLING_PROVISIONED)
            {
              gint64 r, w;

              index_units (self, index->name, &r, &w);
              json_object_set_object_member (o, "ProvisionedThroughput", throughput_json (r, w));
            }
          json_array_add_object_element (gsis, o);
        }
    }
  if (json_array_get_length (gsis) > 0)
    json_object_set_array_member (obj, "GlobalSecondaryIndexes", gsis);
  else
    json_array_unref (gsis);
  if (json_array_get_length (lsis) > 0)
    json_object_set_array_member (obj, "LocalSecondaryIndexes", lsis);
  else
    json_array_unref (lsis);

  if (self->billing == DYN_BILLING_PROVISIONED)
    {
      json_object_set_string_member (obj, "BillingMode", "PROVISIONED");
      json_object_set_object_member (obj, "ProvisionedThroughput",
                                     throughput_json (self->read_units, self->write_units));
    }
  else
    {
      json_object_set_string_member (obj, "BillingMode", "PAY_PER_REQUEST");
      /* Units on an on-demand table: sent as given (DynamoDB refuses them). */
      if (self->read_units != 0 || self->write_units != 0)
        json_object_set_object_member (obj, "ProvisionedThroughput",
                                       throughput_json (self->read_units, self->write_units));
    }
  if (self->table_class != NULL)
    json_object_set_string_member (obj, "TableClass", self->table_class);
  if (self->deletion_protection)
    json_object_set_boolean_member (obj, "DeletionProtectionEnabled", TRUE);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, obj);
  return node;
}

JsonNode *
dyn_table_spec_to_create_json (const DynTableSpec  *self,
                               GError             **error)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (!dyn_table_spec_validate (self, error))
    return NULL;
  return _dyn_table_spec_build_json (self);
}
