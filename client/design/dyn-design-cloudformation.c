/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CloudFormation AWS::DynamoDB::Table (in a template or bare) and the
 * create-table input (`aws dynamodb create-table --cli-input-json`), in and
 * out. JSON only: Debian 12 links no YAML library here (MODEL.md). */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-design-private.h"
#include "dyn-error.h"
#include "dyn-json.h"

#define TABLE_TYPE "AWS::DynamoDB::Table"

/* Members of the table's properties the model holds; the rest (streams,
 * encryption, tags, point-in-time recovery …) is kept for export. */
static const char * const modelled[] = {
  "TableName", "AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes", "LocalSecondaryIndexes",
  "BillingMode", "ProvisionedThroughput", "TimeToLiveSpecification", NULL
};

static JsonNode *
object_node (JsonObject *obj)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, obj);
  return node;
}

static JsonObject *
object_without (JsonObject         *obj,
                const char * const *skip)
{
  JsonObject *copy = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (skip == NULL || !g_strv_contains (skip, l->data))
      json_object_set_member (copy, l->data, json_node_copy (json_object_get_member (obj, l->data)));
  return copy;
}

/* A capacity: a number, or a number as a string (CloudFormation accepts
 * both); a Ref or other intrinsic is refused by name. */
static gboolean
read_capacity (JsonObject *obj,
               const char *path,
               const char *member,
               guint64    *out,
               GError    **error)
{
  JsonNode *node = obj != NULL ? json_object_get_member (obj, member) : NULL;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      guint64 n;

      if (!g_ascii_string_to_unsigned (json_node_get_string (node), 10, 0, G_MAXINT64, &n, NULL))
        {
          _dyn_design_path_error (error, path, member, _("“%s” is not a whole number"), json_node_get_string (node));
          return FALSE;
        }
      *out = n;
      return TRUE;
    }
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      _dyn_design_path_error (error, path, member, "%s",
                              _("a CloudFormation function (Ref, Fn::…) cannot be resolved here: write the number"));
      return FALSE;
    }
  return _dyn_design_read_uint64 (obj, path, member, out, error);
}

/* KeySchema [{AttributeName, KeyType HASH|RANGE}] with the types from
 * AttributeDefinitions. */
static gboolean
read_key_schema (JsonObject *obj,
                 const char *path,
                 JsonArray  *definitions,
                 const char *definitions_path,
                 char      **pk,
                 char      **pk_type,
                 char      **sk,
                 char      **sk_type,
                 GError    **error)
{
  g_autofree char *kpath = _dyn_design_path_member (path, "KeySchema");
  JsonArray *schema;

  if (!_dyn_design_read_array (obj, path, "KeySchema", TRUE, &schema, error))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (schema); i++)
    {
      g_autofree char *at = _dyn_design_path_index (kpath, i);
      JsonObject *k = _dyn_design_array_object (schema, i, kpath, error);
      g_autofree char *name = NULL;
      g_autofree char *kind = NULL;
      char *type = NULL;

      if (k == NULL ||
          !_dyn_design_read_string (k, at, "AttributeName", TRUE, &name, error) ||
          !_dyn_design_read_string (k, at, "KeyType", TRUE, &kind, error))
        return FALSE;
      for (guint d = 0; definitions != NULL && d < json_array_get_length (definitions); d++)
        {
          g_autofree char *dat = _dyn_design_path_index (definitions_path, d);
          JsonObject *def = _dyn_design_array_object (definitions, d, definitions_path, error);
          g_autofree char *dname = NULL;
          g_autofree char *dtype = NULL;

          if (def == NULL ||
              !_dyn_design_read_string (def, dat, "AttributeName", TRUE, &dname, error) ||
              !_dyn_design_read_string (def, dat, "AttributeType", TRUE, &dtype, error))
            return FALSE;
          if (strcmp (dname, name) == 0)
            {
              if (!_dyn_design_key_type_valid (dtype))
                {
                  _dyn_design_path_error (error, dat, "AttributeType", _("“%s” is not a key type (S, N or B)"), dtype);
                  return FALSE;
                }
              type = g_steal_pointer (&dtype);
              break;
            }
        }
      if (type == NULL)
        {
          _dyn_design_path_error (error, at, "AttributeName", _("“%s” has no AttributeDefinitions entry"), name);
          return FALSE;
        }
      if (strcmp (kind, "HASH") == 0 && *pk == NULL)
        {
          *pk = g_steal_pointer (&name);
          *pk_type = type;
        }
      else if (strcmp (kind, "RANGE") == 0 && *sk == NULL)
        {
          *sk = g_steal_pointer (&name);
          *sk_type = type;
        }
      else
        {
          g_free (type);
          _dyn_design_path_error (error, at, "KeyType",
                                  _("“%s”: a key has one HASH and at most one RANGE attribute here"), kind);
          return FALSE;
        }
    }
  if (*pk == NULL)
    {
      _dyn_design_path_error (error, path, "KeySchema", "%s", _("no HASH attribute"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_indexes (JsonObject     *props,
              const char     *path,
              const char     *member,
              gboolean        local,
              JsonArray      *definitions,
              const char     *dpath,
              DynDesignTable *table,
              GError        **error)
{
  g_autofree char *ipath = _dyn_design_path_member (path, member);
  JsonArray *array;

  if (!_dyn_design_read_array (props, path, member, FALSE, &array, error))
    return FALSE;
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autofree char *at = _dyn_design_path_index (ipath, i);
      g_autofree char *ppath = _dyn_design_path_member (at, "Projection");
      JsonObject *io = _dyn_design_array_object (array, i, ipath, error);
      g_autoptr(DynDesignIndex) index = NULL;
      JsonObject *projection;

      if (io == NULL)
        return FALSE;
      index = _dyn_design_index_new (NULL);
      index->local = local;
      if (!_dyn_design_read_string (io, at, "IndexName", TRUE, &index->name, error) ||
          !read_key_schema (io, at, definitions, dpath, &index->partition_key, &index->partition_type,
                            &index->sort_key, &index->sort_type, error) ||
          !_dyn_design_read_object (io, at, "Projection", FALSE, &projection, error) ||
          !_dyn_design_read_string (projection, ppath, "ProjectionType", FALSE, &index->projection, error) ||
          !_dyn_design_read_strv (projection, ppath, "NonKeyAttributes", FALSE, &index->non_key_attributes, error))
        return FALSE;
      g_ptr_array_add (table->indexes, g_steal_pointer (&index));
    }
  return TRUE;
}

/* The table of a create-table input or a resource's Properties. A TableName
 * that is a function (Ref, Fn::Sub …) gives @fallback_name; *@name_node
 * keeps it for export. */
static DynDesignTable *
read_table_properties (JsonObject  *props,
                       const char  *path,
                       const char  *fallback_name,
                       GError     **error)
{
  g_autoptr(DynDesignTable) table = dyn_design_table_new (NULL);
  g_autofree char *dpath = _dyn_design_path_member (path, "AttributeDefinitions");
  g_autofree char *tpath = _dyn_design_path_member (path, "ProvisionedThroughput");
  g_autofree char *ttlpath = _dyn_design_path_member (path, "TimeToLiveSpecification");
  JsonNode *name = json_object_get_member (props, "TableName");
  JsonArray *definitions;
  JsonObject *throughput, *ttl;

  table->fixed = TRUE;
  if (name != NULL && JSON_NODE_HOLDS_OBJECT (name) && fallback_name != NULL)
    table->name = g_strdup (fallback_name);
  else if (name == NULL && fallback_name != NULL)
    table->name = g_strdup (fallback_name);
  else if (!_dyn_design_read_string (props, path, "TableName", TRUE, &table->name, error))
    return NULL;

  if (!_dyn_design_read_array (props, path, "AttributeDefinitions", TRUE, &definitions, error) ||
      !read_key_schema (props, path, definitions, dpath, &table->partition_key, &table->partition_type,
                        &table->sort_key, &table->sort_type, error) ||
      !read_indexes (props, path, "GlobalSecondaryIndexes", FALSE, definitions, dpath, table, error) ||
      !read_indexes (props, path, "LocalSecondaryIndexes", TRUE, definitions, dpath, table, error) ||
      !_dyn_design_read_string (props, path, "BillingMode", FALSE, &table->billing_mode, error) ||
      !_dyn_design_read_object (props, path, "ProvisionedThroughput", FALSE, &throughput, error) ||
      !read_capacity (throughput, tpath, "ReadCapacityUnits", &table->read_capacity, error) ||
      !read_capacity (throughput, tpath, "WriteCapacityUnits", &table->write_capacity, error) ||
      !_dyn_design_read_object (props, path, "TimeToLiveSpecification", FALSE, &ttl, error))
    return NULL;

  /* CloudFormation's default is PROVISIONED; a throughput says so too
   * (DescribeTable's output says it in BillingModeSummary). */
  if (json_object_get_member (props, "BillingMode") == NULL)
    {
      JsonObject *summary = dyn_json_object_get_object (props, "BillingModeSummary");
      g_autofree char *mode = NULL;

      if (summary != NULL &&
          !_dyn_design_read_string (summary, "BillingModeSummary", "BillingMode", FALSE, &mode, error))
        return NULL;
      if (mode != NULL || table->read_capacity > 0 || table->write_capacity > 0)
        {
          g_free (table->billing_mode);
          table->billing_mode = mode != NULL ? g_steal_pointer (&mode) : g_strdup ("PROVISIONED");
        }
    }
  if (ttl != NULL)
    {
      gboolean enabled = TRUE;

      if (!_dyn_design_read_bool (ttl, ttlpath, "Enabled", &enabled, error) ||
          !_dyn_design_read_string (ttl, ttlpath, "AttributeName", FALSE, &table->ttl_attribute, error))
        return NULL;
      if (!enabled)
        g_clear_pointer (&table->ttl_attribute, g_free);
    }
  return g_steal_pointer (&table);
}

DynDesignTable *
_dyn_design_table_from_create_input (JsonObject *obj,
                                     const char *path,
                                     GError    **error)
{
  return read_table_properties (obj, path, NULL, error);
}

/* The model of one table: no entities (the format has none), the table fixed. */
static DynDesignModel *
model_for_table (DynDesignTable *table,
                 DynDesignFormat format)
{
  DynDesignModel *model = dyn_design_model_new (table->name);

  model->table = table;
  model->source_format = format;
  return model;
}

static gboolean
is_table_resource (JsonObject *resource)
{
  JsonNode *type = json_object_get_member (resource, "Type");

  return type != NULL && JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING &&
         strcmp (json_node_get_string (type), TABLE_TYPE) == 0;
}

static DynDesignModel *
load_resource (JsonObject *resource,
               const char *path,
               const char *logical_id,
               GError    **error)
{
  g_autofree char *ppath = _dyn_design_path_member (path, "Properties");
  JsonObject *props, *extra;
  DynDesignTable *table;
  DynDesignModel *model;

  if (!_dyn_design_read_object (resource, path, "Properties", TRUE, &props, error))
    return NULL;
  table = read_table_properties (props, ppath, logical_id != NULL ? logical_id : "Table", error);
  if (table == NULL)
    return NULL;
  model = model_for_table (table, DYN_DESIGN_FORMAT_CLOUDFORMATION);
  extra = json_object_new ();
  json_object_set_object_member (extra, "dynoscope:properties", object_without (props, modelled));
  /* Kept as written: the TableName function, the resource's other members. */
  if (json_object_get_member (props, "TableName") != NULL)
    json_object_set_member (extra, "dynoscope:tableName", json_node_copy (json_object_get_member (props, "TableName")));
  json_object_set_object_member (extra, "dynoscope:resource",
                                 object_without (resource, (const char * const[]) { "Properties", NULL }));
  if (logical_id != NULL)
    json_object_set_string_member (extra, "dynoscope:logicalId", logical_id);
  model->extra = object_node (extra);
  return model;
}

DynDesignModel *
_dyn_design_cloudformation_load (JsonObject *root,
                                 const char *table_name,
                                 GError    **error)
{
  JsonObject *resources;

  /* DescribeTable's output {"Table": {…}} reads like the create-table input. */
  if (json_object_get_member (root, "Table") != NULL && json_object_get_member (root, "KeySchema") == NULL &&
      json_object_get_member (root, "Resources") == NULL)
    {
      JsonObject *t;

      if (!_dyn_design_read_object (root, "", "Table", TRUE, &t, error))
        return NULL;
      return _dyn_design_cloudformation_load (t, table_name, error);
    }

  /* A bare resource. */
  if (json_object_get_member (root, "Type") != NULL && json_object_get_member (root, "Properties") != NULL)
    {
      if (!is_table_resource (root))
        {
          _dyn_design_path_error (error, "", "Type", _("not %s"), TABLE_TYPE);
          return NULL;
        }
      return load_resource (root, "", NULL, error);
    }

  /* The create-table input. */
  if (json_object_get_member (root, "Resources") == NULL)
    {
      DynDesignTable *table = read_table_properties (root, "", NULL, error);
      DynDesignModel *model;

      if (table == NULL)
        return NULL;
      model = model_for_table (table, DYN_DESIGN_FORMAT_CREATE_TABLE);
      model->extra = object_node (object_without (root, modelled));
      return model;
    }

  /* A template: the table named @table_name (its logical id or TableName),
   * or the first; the template's other members and resources kept. */
  if (!_dyn_design_read_object (root, "", "Resources", TRUE, &resources, error))
    return NULL;
  {
    g_autoptr(GList) ids = json_object_get_members (resources);
    const char *chosen = NULL;
    g_autofree char *cpath = NULL;
    DynDesignModel *model;
    JsonObject *extra;

    for (GList *l = ids; l != NULL; l = l->next)
      {
        JsonNode *r = json_object_get_member (resources, l->data);
        JsonObject *ro = JSON_NODE_HOLDS_OBJECT (r) ? json_node_get_object (r) : NULL;
        JsonObject *props;
        JsonNode *name;

        if (ro == NULL || !is_table_resource (ro))
          continue;
        props = dyn_json_object_get_object (ro, "Properties");
        name = props != NULL ? json_object_get_member (props, "TableName") : NULL;
        if (table_name == NULL || strcmp (l->data, table_name) == 0 ||
            (name != NULL && JSON_NODE_HOLDS_VALUE (name) && json_node_get_value_type (name) == G_TYPE_STRING &&
             strcmp (json_node_get_string (name), table_name) == 0))
          {
            chosen = l->data;
            break;
          }
      }
    if (chosen == NULL)
      {
        if (table_name != NULL)
          g_set_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND, _("Resources: no %s “%s”"), TABLE_TYPE, table_name);
        else
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("Resources: no %s"), TABLE_TYPE);
        return NULL;
      }
    cpath = _dyn_design_path_member ("Resources", chosen);
    model = load_resource (json_node_get_object (json_object_get_member (resources, chosen)), cpath, chosen, error);
    if (model == NULL)
      return NULL;
    {
      JsonNode *desc = json_object_get_member (root, "Description");

      if (desc != NULL && JSON_NODE_HOLDS_VALUE (desc) && json_node_get_value_type (desc) == G_TYPE_STRING)
        model->description = g_strdup (json_node_get_string (desc));
    }
    extra = json_node_get_object (model->extra);
    json_object_set_object_member (extra, "dynoscope:template", object_without (root, NULL));
    return model;
  }
}

/* Export ------------------------------------------------------------------ */

static JsonArray *
key_schema (const char *pk,
            const char *sk)
{
  JsonArray *schema = json_array_new ();
  JsonObject *h = json_object_new ();

  json_object_set_string_member (h, "AttributeName", pk);
  json_object_set_string_member (h, "KeyType", "HASH");
  json_array_add_object_element (schema, h);
  if (sk != NULL)
    {
      JsonObject *r = json_object_new ();

      json_object_set_string_member (r, "AttributeName", sk);
      json_object_set_string_member (r, "KeyType", "RANGE");
      json_array_add_object_element (schema, r);
    }
  return schema;
}

static JsonObject *
throughput (const DynDesignTable *table)
{
  JsonObject *t = json_object_new ();

  json_object_set_int_member (t, "ReadCapacityUnits", table->read_capacity > 0 ? (gint64) table->read_capacity : 5);
  json_object_set_int_member (t, "WriteCapacityUnits", table->write_capacity > 0 ? (gint64) table->write_capacity : 5);
  return t;
}

static gboolean
provisioned (const DynDesignTable *table)
{
  return g_strcmp0 (table->billing_mode, "PROVISIONED") == 0;
}

/* What create-table and the CloudFormation resource share. */
static JsonObject *
table_properties (const DynDesignTable *table,
                  GError              **error)
{
  JsonObject *props = json_object_new ();
  JsonArray *gsis = json_array_new ();
  JsonArray *lsis = json_array_new ();

  if (table->name == NULL || *table->name == '\0' || table->partition_key == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s", _("The table has no name or no partition key"));
      json_object_unref (props);
      json_array_unref (gsis);
      json_array_unref (lsis);
      return NULL;
    }
  json_object_set_string_member (props, "TableName", table->name);
  /* Only key attributes: DynamoDB refuses definitions no key uses. */
  json_object_set_member (props, "AttributeDefinitions", _dyn_design_attribute_definitions (table));
  json_object_set_array_member (props, "KeySchema", key_schema (table->partition_key, table->sort_key));
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];
      JsonObject *io = json_object_new ();
      JsonObject *projection = json_object_new ();

      json_object_set_string_member (io, "IndexName", index->name);
      json_object_set_array_member (io, "KeySchema", key_schema (index->partition_key, index->sort_key));
      json_object_set_string_member (projection, "ProjectionType", index->projection != NULL ? index->projection : "ALL");
      if (g_strcmp0 (index->projection, "INCLUDE") == 0 && index->non_key_attributes != NULL)
        {
          JsonArray *nk = json_array_new ();

          for (guint k = 0; index->non_key_attributes[k] != NULL; k++)
            json_array_add_string_element (nk, index->non_key_attributes[k]);
          json_object_set_array_member (projection, "NonKeyAttributes", nk);
        }
      json_object_set_object_member (io, "Projection", projection);
      if (!index->local && provisioned (table))
        json_object_set_object_member (io, "ProvisionedThroughput", throughput (table));
      json_array_add_object_element (index->local ? lsis : gsis, io);
    }
  if (json_array_get_length (gsis) > 0)
    json_object_set_array_member (props, "GlobalSecondaryIndexes", gsis);
  else
    json_array_unref (gsis);
  if (json_array_get_length (lsis) > 0)
    json_object_set_array_member (props, "LocalSecondaryIndexes", lsis);
  else
    json_array_unref (lsis);
  json_object_set_string_member (props, "BillingMode", provisioned (table) ? "PROVISIONED" : "PAY_PER_REQUEST");
  if (provisioned (table))
    json_object_set_object_member (props, "ProvisionedThroughput", throughput (table));
  return props;
}

JsonNode *
_dyn_design_create_table_export (const DynDesignTable *table,
                                 GError              **error)
{
  JsonObject *props = table_properties (table, error);

  return props != NULL ? object_node (props) : NULL;
}

/* "my-table.v2" → "MyTableV2" (a logical id is alphanumeric). */
static char *
logical_id_for (const char *name)
{
  g_autoptr(GString) out = g_string_new (NULL);
  gboolean upper = TRUE;

  for (const char *p = name; p != NULL && *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p))
        {
          upper = TRUE;
          continue;
        }
      g_string_append_c (out, upper ? g_ascii_toupper (*p) : *p);
      upper = FALSE;
    }
  if (out->len == 0 || g_ascii_isdigit (out->str[0]))
    g_string_prepend (out, "Table");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

JsonNode *
_dyn_design_cloudformation_export (const DynDesignModel *model,
                                   const DynDesignTable *table,
                                   GError              **error)
{
  JsonObject *extra = model->source_format == DYN_DESIGN_FORMAT_CLOUDFORMATION && model->extra != NULL &&
                      JSON_NODE_HOLDS_OBJECT (model->extra) ? json_node_get_object (model->extra) : NULL;
  JsonObject *kept_props = dyn_json_object_get_object (extra, "dynoscope:properties");
  JsonObject *kept_resource = dyn_json_object_get_object (extra, "dynoscope:resource");
  JsonObject *kept_template = dyn_json_object_get_object (extra, "dynoscope:template");
  JsonNode *kept_name = extra != NULL ? json_object_get_member (extra, "dynoscope:tableName") : NULL;
  JsonNode *id_node = extra != NULL ? json_object_get_member (extra, "dynoscope:logicalId") : NULL;
  const char *kept_id = id_node != NULL && JSON_NODE_HOLDS_VALUE (id_node) &&
                        json_node_get_value_type (id_node) == G_TYPE_STRING && *json_node_get_string (id_node) != '\0'
                        ? json_node_get_string (id_node) : NULL;
  g_autofree char *logical_id = NULL;
  JsonObject *props, *resource, *root, *resources;

  props = table_properties (table, error);
  if (props == NULL)
    return NULL;
  if (kept_props != NULL)
    {
      g_autoptr(GList) members = json_object_get_members (kept_props);

      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (props, l->data, json_node_copy (json_object_get_member (kept_props, l->data)));
    }
  if (kept_name != NULL && JSON_NODE_HOLDS_OBJECT (kept_name))
    json_object_set_member (props, "TableName", json_node_copy (kept_name));
  if (table->ttl_attribute != NULL)
    {
      JsonObject *ttl = json_object_new ();

      json_object_set_string_member (ttl, "AttributeName", table->ttl_attribute);
      json_object_set_boolean_member (ttl, "Enabled", TRUE);
      json_object_set_object_member (props, "TimeToLiveSpecification", ttl);
    }

  resource = kept_resource != NULL ? object_without (kept_resource, NULL) : json_object_new ();
  json_object_set_string_member (resource, "Type", TABLE_TYPE);
  json_object_set_object_member (resource, "Properties", props);

  /* A bare resource came in: a bare resource goes out. */
  if (kept_resource != NULL && kept_template == NULL)
    return object_node (resource);

  logical_id = kept_id != NULL ? g_strdup (kept_id) : logical_id_for (table->name);
  root = kept_template != NULL ? object_without (kept_template, NULL) : json_object_new ();
  if (kept_template == NULL)
    json_object_set_string_member (root, "AWSTemplateFormatVersion", "2010-09-09");
  if (model->description != NULL)
    json_object_set_string_member (root, "Description", model->description);
  resources = dyn_json_object_get_object (root, "Resources");
  if (resources == NULL)
    {
      resources = json_object_new ();
      json_object_set_object_member (root, "Resources", resources);
    }
  json_object_set_object_member (resources, logical_id, resource);
  return object_node (root);
}
