/* SPDX-License-Identifier: GPL-3.0-or-later */
/* NoSQL Workbench model JSON, in and out (client/design/MODEL.md says what
 * maps to what). One table of the model becomes the DynDesignTable, its
 * facets the entities, their TableData the model's items; everything the
 * model has no place for (ModelMetadata, DataAccess, auto scaling, other
 * tables, a facet's aliases) is kept in the extra members, so that an
 * import exports back unchanged. */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-design-private.h"
#include "dyn-error.h"
#include "dyn-json.h"

/* Members of the root, a table and a facet that the model holds itself;
 * the others go to extra as they are. */
static const char * const root_modelled[] = { "ModelName", "DataModel", NULL };
static const char * const table_modelled[] = {
  "TableName", "KeyAttributes", "GlobalSecondaryIndexes", "TableFacets", "TableData", "BillingMode", NULL
};
static const char * const facet_modelled[] = { "FacetName", "NonKeyAttributes", "TableData", NULL };

/* A copy of @obj without the members in @skip. */
static JsonObject *
object_without (JsonObject         *obj,
                const char * const *skip)
{
  JsonObject *copy = json_object_new ();
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (skip, l->data))
      json_object_set_member (copy, l->data, json_node_copy (json_object_get_member (obj, l->data)));
  return copy;
}

/* Which of the modelled members @source lacked: export leaves them out
 * again when they would be empty (a table without facets, a facet without
 * data), so an import exports back as it was. */
static void
record_absent (JsonObject         *extra,
               JsonObject         *source,
               const char * const *modelled)
{
  JsonArray *absent = json_array_new ();

  for (guint i = 0; modelled[i] != NULL; i++)
    if (!json_object_has_member (source, modelled[i]))
      json_array_add_string_element (absent, modelled[i]);
  json_object_set_array_member (extra, "dynoscope:absent", absent);
}

static void
drop_absent (JsonObject *out,
             JsonObject *extra)
{
  JsonArray *absent = dyn_json_object_get_array (extra, "dynoscope:absent");

  for (guint i = 0; absent != NULL && i < json_array_get_length (absent); i++)
    {
      JsonNode *n = json_array_get_element (absent, i);
      const char *name;
      JsonNode *member;

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
        continue;
      name = json_node_get_string (n);
      member = json_object_get_member (out, name);
      if (member == NULL)
        continue;
      if ((JSON_NODE_HOLDS_ARRAY (member) && json_array_get_length (json_node_get_array (member)) == 0) ||
          (strcmp (name, "BillingMode") == 0 && JSON_NODE_HOLDS_VALUE (member) &&
           g_strcmp0 (json_node_get_string (member), "PAY_PER_REQUEST") == 0))
        json_object_remove_member (out, name);
    }
}

static JsonNode *
object_node (JsonObject *obj)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, obj);
  return node;
}

/* KeyAttributes {PartitionKey {AttributeName, AttributeType}, SortKey …}. */
static gboolean
read_key_attributes (JsonObject *obj,
                     const char *path,
                     char      **pk,
                     char      **pk_type,
                     char      **sk,
                     char      **sk_type,
                     GError    **error)
{
  g_autofree char *kpath = _dyn_design_path_member (path, "KeyAttributes");
  g_autofree char *ppath = _dyn_design_path_member (kpath, "PartitionKey");
  g_autofree char *spath = _dyn_design_path_member (kpath, "SortKey");
  JsonObject *keys, *p, *s;

  if (!_dyn_design_read_object (obj, path, "KeyAttributes", TRUE, &keys, error) ||
      !_dyn_design_read_object (keys, kpath, "PartitionKey", TRUE, &p, error) ||
      !_dyn_design_read_object (keys, kpath, "SortKey", FALSE, &s, error))
    return FALSE;
  *pk_type = g_strdup ("S");
  if (!_dyn_design_read_string (p, ppath, "AttributeName", TRUE, pk, error) ||
      !_dyn_design_read_string (p, ppath, "AttributeType", FALSE, pk_type, error))
    return FALSE;
  if (!_dyn_design_key_type_valid (*pk_type))
    {
      _dyn_design_path_error (error, ppath, "AttributeType", _("“%s” is not a key type (S, N or B)"), *pk_type);
      return FALSE;
    }
  if (s != NULL)
    {
      *sk_type = g_strdup ("S");
      if (!_dyn_design_read_string (s, spath, "AttributeName", TRUE, sk, error) ||
          !_dyn_design_read_string (s, spath, "AttributeType", FALSE, sk_type, error))
        return FALSE;
      if (!_dyn_design_key_type_valid (*sk_type))
        {
          _dyn_design_path_error (error, spath, "AttributeType", _("“%s” is not a key type (S, N or B)"), *sk_type);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_items_array (JsonArray  *array,
                  const char *path,
                  GPtrArray  *out,
                  GError    **error)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) local = NULL;
      DynValue *item = dyn_item_from_ddb_json (json_array_get_element (array, i), &local);

      if (item == NULL)
        {
          g_autofree char *at = _dyn_design_path_index (path, i);

          _dyn_design_path_error (error, at, NULL, "%s", local->message);
          return FALSE;
        }
      g_ptr_array_add (out, item);
    }
  return TRUE;
}

/* "c#" → "cId", "PROJ#" → "projId", "" → NULL. */
static char *
field_from_prefix (const char *prefix)
{
  g_autofree char *trimmed = g_strdup (prefix);
  g_autoptr(GString) out = g_string_new (NULL);
  const char *word;
  char *end;

  end = trimmed + strlen (trimmed);
  while (end > trimmed && !g_ascii_isalnum (end[-1]))
    *--end = '\0';
  word = trimmed;
  for (char *p = trimmed; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p))
      word = p + 1;
  for (const char *p = word; *p != '\0'; p++)
    g_string_append_c (out, g_ascii_tolower (*p));
  if (out->len == 0 || g_ascii_isdigit (out->str[0]))
    return NULL;
  g_string_append (out, "Id");
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
escape_braces (const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '{' || *p == '}')
        g_string_append_c (out, *p);
      g_string_append_c (out, *p);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/*
 * The template for key attribute @attribute of a facet, from its alias and
 * the facet's data: an alias that is a template ("WS#{workspaceId}", as we
 * export) is taken as it is; else a prefix every value shares up to its
 * last '#' ("c#12345", "c#23456" → "c#{cId}", the field named by the alias
 * when the alias names something else than the attribute); a value every
 * item shares (two or more) is a constant; else the whole value ("{alias}").
 */
static char *
derive_template (const char *attribute,
                 const char *alias,
                 GPtrArray  *items,
                 const char *avoid_field)
{
  g_autofree char *common = NULL;
  gboolean all_strings = items->len > 0;
  gboolean all_equal = TRUE;
  const char *first = NULL;
  const char *field_name = alias != NULL && *alias != '\0' ? alias : attribute;

  if (alias != NULL && strchr (alias, '{') != NULL)
    {
      g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (alias, NULL);

      if (t != NULL)
        return g_strdup (alias);
    }

  for (guint i = 0; i < items->len; i++)
    {
      DynValue *v = dyn_value_map_lookup (items->pdata[i], attribute);
      const char *s;

      if (v == NULL || dyn_value_get_value_type (v) != DYN_VALUE_S ||
          memchr (dyn_value_get_string (v), '\0', dyn_value_get_string_length (v)) != NULL)
        {
          all_strings = FALSE;
          break;
        }
      s = dyn_value_get_string (v);
      if (first == NULL)
        {
          first = s;
          common = g_strdup (s);
        }
      else
        {
          gsize n = 0;

          if (strcmp (s, first) != 0)
            all_equal = FALSE;
          while (common[n] != '\0' && common[n] == s[n])
            n++;
          common[n] = '\0';
        }
    }

  if (all_strings && all_equal && items->len >= 2 && strchr (first, '#') == NULL)
    return escape_braces (first);

  if (all_strings && common != NULL)
    {
      char *hash = strrchr (common, '#');

      if (hash != NULL)
        {
          gboolean longer = TRUE;

          hash[1] = '\0';
          for (guint i = 0; i < items->len; i++)
            if (strlen (dyn_value_get_string (dyn_value_map_lookup (items->pdata[i], attribute))) <= strlen (common))
              longer = FALSE;
          /* Whole UTF-8 text only ('#' is ASCII, so the cut is clean). */
          if (longer)
            {
              g_autofree char *derived = NULL;
              g_autofree char *prefix = escape_braces (common);
              const char *name = field_name;

              if (g_strcmp0 (alias, attribute) == 0 || alias == NULL || *alias == '\0')
                {
                  derived = field_from_prefix (common);
                  if (derived != NULL)
                    name = derived;
                }
              if (g_strcmp0 (name, avoid_field) == 0)
                return g_strdup_printf ("%s{%s2}", prefix, name);
              return g_strdup_printf ("%s{%s}", prefix, name);
            }
        }
    }
  return g_strdup_printf ("{%s}", field_name);
}

static const char *
attribute_type_in (JsonArray  *defs,
                   const char *name)
{
  for (guint i = 0; defs != NULL && i < json_array_get_length (defs); i++)
    {
      JsonNode *n = json_array_get_element (defs, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      JsonNode *an = o != NULL ? json_object_get_member (o, "AttributeName") : NULL;
      JsonNode *at = o != NULL ? json_object_get_member (o, "AttributeType") : NULL;

      if (an != NULL && JSON_NODE_HOLDS_VALUE (an) && json_node_get_value_type (an) == G_TYPE_STRING &&
          g_strcmp0 (json_node_get_string (an), name) == 0 &&
          at != NULL && JSON_NODE_HOLDS_VALUE (at) && json_node_get_value_type (at) == G_TYPE_STRING)
        return json_node_get_string (at);
    }
  return NULL;
}

static void
add_field_attributes (DynDesignEntity *entity,
                      const char      *template,
                      const char      *key_type)
{
  g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (template, NULL);
  g_auto(GStrv) fields = NULL;
  gboolean whole;

  if (t == NULL)
    return;
  fields = dyn_design_template_get_fields (t);
  whole = fields[0] != NULL && fields[1] == NULL && g_str_has_prefix (template, "{") &&
          g_str_has_suffix (template, "}") && strchr (template, ':') == NULL &&
          strlen (template) == strlen (fields[0]) + 2;
  for (guint i = 0; fields[i] != NULL; i++)
    if (dyn_design_entity_find_attribute (entity, fields[i]) == NULL)
      {
        DynDesignAttribute *a = dyn_design_attribute_new (fields[i], whole ? key_type : "S");

        a->required = TRUE;
        g_ptr_array_add (entity->attributes, a);
      }
}

static DynDesignEntity *
read_facet (JsonObject           *facet,
            const char           *path,
            const DynDesignTable *table,
            JsonArray            *table_attributes,
            GPtrArray            *model_items,
            GError              **error)
{
  g_autoptr(DynDesignEntity) entity = dyn_design_entity_new (NULL);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autofree char *dpath = _dyn_design_path_member (path, "TableData");
  g_autofree char *apath = _dyn_design_path_member (path, "KeyAttributeAlias");
  g_autofree char *pk_alias = NULL;
  g_autofree char *sk_alias = NULL;
  g_autofree char *pk_template = NULL;
  g_auto(GStrv) attributes = NULL;
  JsonObject *alias = NULL;
  JsonArray *data;
  JsonObject *extra;
  JsonArray *indexes;

  if (!_dyn_design_read_string (facet, path, "FacetName", TRUE, &entity->name, error) ||
      !_dyn_design_read_strv (facet, path, "NonKeyAttributes", FALSE, &attributes, error) ||
      !_dyn_design_read_array (facet, path, "TableData", FALSE, &data, error) ||
      !_dyn_design_read_object (facet, path, "KeyAttributeAlias", FALSE, &alias, error) ||
      !_dyn_design_read_string (alias, apath, "PartitionKeyAlias", FALSE, &pk_alias, error) ||
      !_dyn_design_read_string (alias, apath, "SortKeyAlias", FALSE, &sk_alias, error) ||
      !read_items_array (data, dpath, items, error))
    return NULL;

  for (guint i = 0; attributes != NULL && attributes[i] != NULL; i++)
    if (dyn_design_entity_find_attribute (entity, attributes[i]) == NULL)
      {
        const char *type = attribute_type_in (table_attributes, attributes[i]);

        g_ptr_array_add (entity->attributes, dyn_design_attribute_new (attributes[i], type != NULL ? type : "S"));
      }

  pk_template = derive_template (table->partition_key, pk_alias, items, NULL);
  dyn_design_entity_set_key (entity, table->partition_key, pk_template);
  add_field_attributes (entity, pk_template, table->partition_type);
  if (table->sort_key != NULL)
    {
      g_autoptr(DynDesignTemplate) pt = dyn_design_template_parse (pk_template, NULL);
      g_auto(GStrv) pfields = pt != NULL ? dyn_design_template_get_fields (pt) : NULL;
      g_autofree char *sk_template = NULL;
      const char *avoid = pfields != NULL && pfields[0] != NULL ? pfields[0] : NULL;

      /* The same field in both keys only when every item has the same value
       * in both ("c#12345" / "c#12345"). */
      if (avoid != NULL)
        {
          gboolean same = items->len > 0;

          for (guint i = 0; i < items->len; i++)
            {
              DynValue *a = dyn_value_map_lookup (items->pdata[i], table->partition_key);
              DynValue *b = dyn_value_map_lookup (items->pdata[i], table->sort_key);

              if (a == NULL || b == NULL || !dyn_value_equal (a, b))
                same = FALSE;
            }
          if (same)
            avoid = NULL;
        }
      sk_template = derive_template (table->sort_key, sk_alias, items, avoid);
      dyn_design_entity_set_key (entity, table->sort_key, sk_template);
      add_field_attributes (entity, sk_template, table->sort_type);
    }

  /* Its items join the model's; the facet remembers which (so that export
   * gives each facet its own data back, even where templates overlap). */
  extra = object_without (facet, facet_modelled);
  indexes = json_array_new ();
  for (guint i = 0; i < items->len; i++)
    {
      guint at;

      if (!g_ptr_array_find_with_equal_func (model_items, items->pdata[i], (GEqualFunc) dyn_value_equal, &at))
        {
          at = model_items->len;
          g_ptr_array_add (model_items, dyn_value_ref (items->pdata[i]));
        }
      json_array_add_int_element (indexes, at);
    }
  json_object_set_array_member (extra, "dynoscope:items", indexes);
  record_absent (extra, facet, facet_modelled);
  entity->extra = object_node (extra);
  return g_steal_pointer (&entity);
}

static DynDesignTable *
read_table (JsonObject *obj,
            const char *path,
            GError    **error)
{
  g_autoptr(DynDesignTable) table = dyn_design_table_new (NULL);
  g_autofree char *gpath = _dyn_design_path_member (path, "GlobalSecondaryIndexes");
  g_autofree char *cpath = _dyn_design_path_member (path, "ProvisionedCapacitySettings");
  g_autofree char *tpath = _dyn_design_path_member (cpath, "ProvisionedThroughput");
  JsonArray *gsis;
  JsonObject *capacity, *throughput = NULL;

  table->fixed = TRUE;
  if (!_dyn_design_read_string (obj, path, "TableName", TRUE, &table->name, error) ||
      !read_key_attributes (obj, path, &table->partition_key, &table->partition_type,
                            &table->sort_key, &table->sort_type, error) ||
      !_dyn_design_read_string (obj, path, "BillingMode", FALSE, &table->billing_mode, error) ||
      !_dyn_design_read_array (obj, path, "GlobalSecondaryIndexes", FALSE, &gsis, error) ||
      !_dyn_design_read_object (obj, path, "ProvisionedCapacitySettings", FALSE, &capacity, error) ||
      (capacity != NULL &&
       !_dyn_design_read_object (capacity, cpath, "ProvisionedThroughput", FALSE, &throughput, error)) ||
      !_dyn_design_read_uint64 (throughput, tpath, "ReadCapacityUnits", &table->read_capacity, error) ||
      !_dyn_design_read_uint64 (throughput, tpath, "WriteCapacityUnits", &table->write_capacity, error))
    return NULL;

  for (guint i = 0; gsis != NULL && i < json_array_get_length (gsis); i++)
    {
      g_autofree char *at = _dyn_design_path_index (gpath, i);
      g_autofree char *ppath = _dyn_design_path_member (at, "Projection");
      JsonObject *go = _dyn_design_array_object (gsis, i, gpath, error);
      g_autoptr(DynDesignIndex) index = NULL;
      JsonObject *projection;

      if (go == NULL)
        return NULL;
      index = _dyn_design_index_new (NULL);
      if (!_dyn_design_read_string (go, at, "IndexName", TRUE, &index->name, error) ||
          !read_key_attributes (go, at, &index->partition_key, &index->partition_type,
                                &index->sort_key, &index->sort_type, error) ||
          !_dyn_design_read_object (go, at, "Projection", FALSE, &projection, error) ||
          !_dyn_design_read_string (projection, ppath, "ProjectionType", FALSE, &index->projection, error) ||
          !_dyn_design_read_strv (projection, ppath, "NonKeyAttributes", FALSE, &index->non_key_attributes, error))
        return NULL;
      g_ptr_array_add (table->indexes, g_steal_pointer (&index));
    }
  return g_steal_pointer (&table);
}

DynDesignModel *
_dyn_design_workbench_load (JsonObject *root,
                            const char *table_name,
                            GError    **error)
{
  g_autoptr(DynDesignModel) model = dyn_design_model_new (NULL);
  JsonArray *data_model, *facets, *data, *table_attributes;
  JsonObject *metadata, *table_obj = NULL, *extra, *table_extra;
  g_autofree char *tpath = NULL;
  g_autofree char *fpath = NULL;
  g_autofree char *dpath = NULL;
  JsonArray *others, *table_items;
  guint chosen = 0;

  if (!_dyn_design_read_string (root, "", "ModelName", TRUE, &model->name, error) ||
      !_dyn_design_read_object (root, "", "ModelMetadata", FALSE, &metadata, error) ||
      !_dyn_design_read_string (metadata, "ModelMetadata", "Description", FALSE, &model->description, error) ||
      !_dyn_design_read_array (root, "", "DataModel", TRUE, &data_model, error))
    return NULL;
  if (model->description != NULL && *model->description == '\0')
    g_clear_pointer (&model->description, g_free);
  if (json_array_get_length (data_model) == 0)
    {
      _dyn_design_path_error (error, "", "DataModel", "%s", _("the model has no table"));
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (data_model); i++)
    {
      JsonObject *t = _dyn_design_array_object (data_model, i, "DataModel", error);
      g_autofree char *at = _dyn_design_path_index ("DataModel", i);
      g_autofree char *name = NULL;

      if (t == NULL || !_dyn_design_read_string (t, at, "TableName", TRUE, &name, error))
        return NULL;
      if (table_name == NULL ? i == 0 : strcmp (name, table_name) == 0)
        {
          table_obj = t;
          chosen = i;
          if (table_name != NULL)
            break;
        }
    }
  if (table_obj == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND, _("DataModel: no table “%s”"), table_name);
      return NULL;
    }

  tpath = _dyn_design_path_index ("DataModel", chosen);
  fpath = _dyn_design_path_member (tpath, "TableFacets");
  dpath = _dyn_design_path_member (tpath, "TableData");
  if ((model->table = read_table (table_obj, tpath, error)) == NULL ||
      !_dyn_design_read_array (table_obj, tpath, "TableFacets", FALSE, &facets, error) ||
      !_dyn_design_read_array (table_obj, tpath, "TableData", FALSE, &data, error) ||
      !_dyn_design_read_array (table_obj, tpath, "NonKeyAttributes", FALSE, &table_attributes, error) ||
      !read_items_array (data, dpath, model->items, error))
    return NULL;

  table_items = json_array_new ();
  for (guint i = 0; i < model->items->len; i++)
    json_array_add_int_element (table_items, i);

  for (guint i = 0; facets != NULL && i < json_array_get_length (facets); i++)
    {
      g_autofree char *at = _dyn_design_path_index (fpath, i);
      JsonObject *fo = _dyn_design_array_object (facets, i, fpath, error);
      DynDesignEntity *entity;

      if (fo == NULL)
        {
          json_array_unref (table_items);
          return NULL;
        }
      entity = read_facet (fo, at, model->table, table_attributes, model->items, error);
      if (entity == NULL)
        {
          json_array_unref (table_items);
          return NULL;
        }
      if (dyn_design_model_find_entity (model, entity->name) != NULL)
        {
          _dyn_design_path_error (error, at, "FacetName", _("a second facet named “%s”"), entity->name);
          dyn_design_entity_free (entity);
          json_array_unref (table_items);
          return NULL;
        }
      g_ptr_array_add (model->entities, entity);
    }

  /* A table without facets is one entity of everything it holds (not
   * written back as a facet). */
  if (model->entities->len == 0)
    {
      DynDesignEntity *entity = dyn_design_entity_new (model->table->name);
      JsonObject *marker = json_object_new ();

      for (guint i = 0; table_attributes != NULL && i < json_array_get_length (table_attributes); i++)
        {
          g_autofree char *ap = _dyn_design_path_member (tpath, "NonKeyAttributes");
          g_autofree char *at = _dyn_design_path_index (ap, i);
          JsonObject *ao = _dyn_design_array_object (table_attributes, i, ap, error);
          g_autofree char *name = NULL;
          g_autofree char *type = g_strdup ("S");

          if (ao == NULL ||
              !_dyn_design_read_string (ao, at, "AttributeName", TRUE, &name, error) ||
              !_dyn_design_read_string (ao, at, "AttributeType", FALSE, &type, error))
            {
              dyn_design_entity_free (entity);
              json_object_unref (marker);
              json_array_unref (table_items);
              return NULL;
            }
          if (dyn_design_entity_find_attribute (entity, name) == NULL)
            g_ptr_array_add (entity->attributes, dyn_design_attribute_new (name, type));
        }
      {
        g_autofree char *pk = g_strdup_printf ("{%s}", model->table->partition_key);

        dyn_design_entity_set_key (entity, model->table->partition_key, pk);
        add_field_attributes (entity, pk, model->table->partition_type);
      }
      if (model->table->sort_key != NULL)
        {
          g_autofree char *sk = g_strdup_printf ("{%s}", model->table->sort_key);

          dyn_design_entity_set_key (entity, model->table->sort_key, sk);
          add_field_attributes (entity, sk, model->table->sort_type);
        }
      json_object_set_boolean_member (marker, "dynoscope:facet", FALSE);
      entity->extra = object_node (marker);
      g_ptr_array_add (model->entities, entity);
    }

  /* What the model has no place for. */
  extra = object_without (root, root_modelled);
  table_extra = object_without (table_obj, table_modelled);
  json_object_set_array_member (table_extra, "dynoscope:items", table_items);
  record_absent (table_extra, table_obj, table_modelled);
  json_object_set_object_member (extra, "dynoscope:table", table_extra);
  others = json_array_new ();
  for (guint i = 0; i < json_array_get_length (data_model); i++)
    if (i != chosen)
      json_array_add_element (others, json_node_copy (json_array_get_element (data_model, i)));
  json_object_set_array_member (extra, "dynoscope:otherTables", others);
  json_object_set_int_member (extra, "dynoscope:tablePosition", chosen);
  model->extra = object_node (extra);
  model->source_format = DYN_DESIGN_FORMAT_WORKBENCH;
  return g_steal_pointer (&model);
}

/* Export ------------------------------------------------------------------ */

static JsonObject *
extra_object (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static void
set_key_attributes (JsonObject *obj,
                    const char *pk,
                    const char *pk_type,
                    const char *sk,
                    const char *sk_type)
{
  JsonObject *keys = json_object_new ();
  JsonObject *p = json_object_new ();

  json_object_set_string_member (p, "AttributeName", pk);
  json_object_set_string_member (p, "AttributeType", pk_type != NULL ? pk_type : "S");
  json_object_set_object_member (keys, "PartitionKey", p);
  if (sk != NULL)
    {
      JsonObject *s = json_object_new ();

      json_object_set_string_member (s, "AttributeName", sk);
      json_object_set_string_member (s, "AttributeType", sk_type != NULL ? sk_type : "S");
      json_object_set_object_member (keys, "SortKey", s);
    }
  json_object_set_object_member (obj, "KeyAttributes", keys);
}

static gboolean
is_table_key (const DynDesignTable *table,
              const char           *name)
{
  return g_strcmp0 (table->partition_key, name) == 0 || g_strcmp0 (table->sort_key, name) == 0;
}

/* The fields of an entity's table-key templates (the ids the import
 * derived), which a facet does not list as non-key attributes. */
static gboolean
is_key_field (const DynDesignEntity *entity,
              const DynDesignTable  *table,
              const char            *name)
{
  const char *keys[] = { table->partition_key, table->sort_key };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const char *text = keys[k] != NULL ? dyn_design_entity_get_key (entity, keys[k]) : NULL;
      g_autoptr(DynDesignTemplate) t = text != NULL ? dyn_design_template_parse (text, NULL) : NULL;
      g_auto(GStrv) fields = t != NULL ? dyn_design_template_get_fields (t) : NULL;

      if (fields != NULL && g_strv_contains ((const char * const *) fields, name))
        return TRUE;
    }
  return FALSE;
}

/* The alias Workbench shows for a key: a whole-value template's attribute,
 * else the template itself (so that import reads it back). */
static char *
alias_for (const char *template,
           const char *attribute)
{
  g_autoptr(DynDesignTemplate) t = NULL;
  g_auto(GStrv) fields = NULL;

  if (template == NULL)
    return g_strdup (attribute);
  t = dyn_design_template_parse (template, NULL);
  if (t == NULL)
    return g_strdup (template);
  fields = dyn_design_template_get_fields (t);
  if (fields[0] != NULL && fields[1] == NULL && strlen (template) == strlen (fields[0]) + 2 &&
      template[0] == '{')
    return g_strdup (fields[0]);
  return g_strdup (template);
}

/* The entity's key templates as the export uses them: the plan's placement
 * when there is one, else the entity's own. */
static const char *
entity_key (const DynDesignEntity *entity,
            GPtrArray             *placements,
            const char            *attribute)
{
  for (guint i = 0; placements != NULL && i < placements->len; i++)
    {
      const DynDesignPlacement *pl = placements->pdata[i];

      if (g_strcmp0 (pl->entity, entity->name) != 0)
        continue;
      for (guint k = 0; k < pl->keys->len; k++)
        {
          const DynDesignKey *key = pl->keys->pdata[k];

          if (g_strcmp0 (key->attribute, attribute) == 0)
            return key->template;
        }
      return NULL;
    }
  return dyn_design_entity_get_key (entity, attribute);
}

/* Whether @item belongs to @entity by its table keys' templates. */
static gboolean
item_matches (const DynDesignEntity *entity,
              const DynDesignTable  *table,
              GPtrArray             *placements,
              const DynValue        *item)
{
  const char *keys[] = { table->partition_key, table->sort_key };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      const char *text;
      g_autoptr(DynDesignTemplate) t = NULL;

      if (keys[k] == NULL)
        continue;
      text = entity_key (entity, placements, keys[k]);
      if (text == NULL)
        return FALSE;
      t = dyn_design_template_parse (text, NULL);
      if (t == NULL || !dyn_design_template_match (t, dyn_value_map_lookup (item, keys[k]), NULL))
        return FALSE;
    }
  return TRUE;
}

static void
add_item (JsonArray      *array,
          const DynValue *item)
{
  json_array_add_element (array, dyn_item_to_ddb_json (item));
}

/* The items recorded by index in @extra, when the model's items are still
 * the ones imported (@total of them). */
static gboolean
recorded_items (JsonObject *extra,
                GPtrArray  *items,
                JsonArray  *out)
{
  JsonArray *indexes = dyn_json_object_get_array (extra, "dynoscope:items");

  if (indexes == NULL)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (indexes); i++)
    {
      JsonNode *n = json_array_get_element (indexes, i);
      gint64 at;

      if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_INT64)
        return FALSE;
      at = json_node_get_int (n);
      if (at < 0 || at >= items->len)
        return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (indexes); i++)
    add_item (out, items->pdata[json_array_get_int_element (indexes, i)]);
  return TRUE;
}

/* The count of items the import recorded in all of @model's extras. */
static guint
recorded_total (const DynDesignModel *model)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  JsonObject *extra = extra_object (model->extra);
  JsonObject *table_extra = dyn_json_object_get_object (extra, "dynoscope:table");
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();

  g_ptr_array_add (lists, dyn_json_object_get_array (table_extra, "dynoscope:items"));
  for (guint i = 0; i < model->entities->len; i++)
    g_ptr_array_add (lists, dyn_json_object_get_array (extra_object (((DynDesignEntity *) model->entities->pdata[i])->extra),
                                                       "dynoscope:items"));
  for (guint l = 0; l < lists->len; l++)
    for (guint i = 0; lists->pdata[l] != NULL && i < json_array_get_length (lists->pdata[l]); i++)
      {
        JsonNode *e = json_array_get_element (lists->pdata[l], i);

        if (JSON_NODE_HOLDS_VALUE (e) && json_node_get_value_type (e) == G_TYPE_INT64)
          g_hash_table_add (seen, GINT_TO_POINTER ((gint) json_node_get_int (e) + 1));
      }
  return g_hash_table_size (seen);
}

static void
strip_private (JsonObject *obj)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (g_str_has_prefix (l->data, "dynoscope:"))
      json_object_remove_member (obj, l->data);
}

static JsonObject *
metadata_for (const DynDesignModel *model)
{
  JsonObject *kept = dyn_json_object_get_object (extra_object (model->extra), "ModelMetadata");
  JsonObject *metadata;

  if (kept != NULL && model->source_format == DYN_DESIGN_FORMAT_WORKBENCH)
    {
      metadata = object_without (kept, (const char * const[]) { NULL });
    }
  else
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
      g_autofree char *date = g_date_time_format (now, "%b %d, %Y, %I:%M %p");

      metadata = json_object_new ();
      json_object_set_string_member (metadata, "Author", "");
      json_object_set_string_member (metadata, "DateCreated", date);
      json_object_set_string_member (metadata, "DateLastModified", date);
      json_object_set_string_member (metadata, "Description", "");
      json_object_set_string_member (metadata, "AWSService", "Amazon DynamoDB");
      json_object_set_string_member (metadata, "Version", "3.0");
    }
  if (model->description != NULL)
    json_object_set_string_member (metadata, "Description", model->description);
  return metadata;
}

JsonNode *
_dyn_design_workbench_export (const DynDesignModel *model,
                              const DynDesignTable *table,
                              GPtrArray            *placements,
                              GPtrArray            *items,
                              GError              **error)
{
  JsonObject *extra = model->source_format == DYN_DESIGN_FORMAT_WORKBENCH ? extra_object (model->extra) : NULL;
  JsonObject *table_extra = dyn_json_object_get_object (extra, "dynoscope:table");
  JsonObject *root = extra != NULL ? object_without (extra, (const char * const[]) { "ModelMetadata", NULL })
                                   : json_object_new ();
  JsonObject *t = table_extra != NULL ? object_without (table_extra, (const char * const[]) { NULL })
                                      : json_object_new ();
  JsonArray *data_model = json_array_new ();
  JsonArray *facets = json_array_new ();
  JsonArray *table_data = json_array_new ();
  JsonArray *gsis = json_array_new ();
  JsonArray *non_key = dyn_json_object_get_array (t, "NonKeyAttributes");
  JsonArray *others = dyn_json_object_get_array (extra, "dynoscope:otherTables");
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gboolean items_as_imported;
  gint64 position = 0;

  items_as_imported = extra != NULL && items == model->items && recorded_total (model) == items->len;

  json_object_set_string_member (t, "TableName", table->name != NULL ? table->name : model->name);
  set_key_attributes (t, table->partition_key, table->partition_type, table->sort_key, table->sort_type);

  /* NonKeyAttributes: as imported, then every attribute the entities and
   * indexes add. */
  if (non_key == NULL)
    {
      non_key = json_array_new ();
      json_object_set_array_member (t, "NonKeyAttributes", non_key);
    }
  for (guint i = 0; i < json_array_get_length (non_key); i++)
    {
      JsonNode *n = json_array_get_element (non_key, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *name = o != NULL && json_object_has_member (o, "AttributeName") &&
                         JSON_NODE_HOLDS_VALUE (json_object_get_member (o, "AttributeName")) &&
                         json_node_get_value_type (json_object_get_member (o, "AttributeName")) == G_TYPE_STRING
                         ? json_object_get_string_member (o, "AttributeName") : NULL;

      if (name != NULL)
        g_hash_table_add (listed, g_strdup (name));
    }
#define LIST_ATTRIBUTE(name_, type_) \
  G_STMT_START { \
    if ((name_) != NULL && !is_table_key (table, (name_)) && !g_hash_table_contains (listed, (name_))) \
      { \
        JsonObject *def_ = json_object_new (); \
        json_object_set_string_member (def_, "AttributeName", (name_)); \
        json_object_set_string_member (def_, "AttributeType", (type_) != NULL ? (type_) : "S"); \
        json_array_add_object_element (non_key, def_); \
        g_hash_table_add (listed, g_strdup (name_)); \
      } \
  } G_STMT_END

  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];

      if (index->local)
        continue;   /* NoSQL Workbench models have no local secondary indexes */
      LIST_ATTRIBUTE (index->partition_key, index->partition_type);
      LIST_ATTRIBUTE (index->sort_key, index->sort_type);
    }
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DynDesignEntity *entity = model->entities->pdata[e];

      for (guint i = 0; i < entity->attributes->len; i++)
        {
          const DynDesignAttribute *a = entity->attributes->pdata[i];

          if (!is_key_field (entity, table, a->name) || extra == NULL)
            LIST_ATTRIBUTE (a->name, a->type);
        }
    }
#undef LIST_ATTRIBUTE

  /* Facets. */
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DynDesignEntity *entity = model->entities->pdata[e];
      JsonObject *fextra = extra != NULL ? extra_object (entity->extra) : NULL;
      JsonObject *facet;
      JsonObject *alias;
      JsonArray *attributes, *data;

      if (fextra != NULL && json_object_has_member (fextra, "dynoscope:facet"))
        continue;
      facet = fextra != NULL ? object_without (fextra, (const char * const[]) { NULL }) : json_object_new ();
      json_object_set_string_member (facet, "FacetName", entity->name);
      if (!json_object_has_member (facet, "KeyAttributeAlias") ||
          !JSON_NODE_HOLDS_OBJECT (json_object_get_member (facet, "KeyAttributeAlias")))
        {
          g_autofree char *pk = alias_for (entity_key (entity, placements, table->partition_key), table->partition_key);

          alias = json_object_new ();
          json_object_set_string_member (alias, "PartitionKeyAlias", pk);
          if (table->sort_key != NULL)
            {
              g_autofree char *sk = alias_for (entity_key (entity, placements, table->sort_key), table->sort_key);
              json_object_set_string_member (alias, "SortKeyAlias", sk);
            }
          json_object_set_object_member (facet, "KeyAttributeAlias", alias);
        }

      data = json_array_new ();
      if (!(items_as_imported && recorded_items (fextra, items, data)))
        for (guint i = 0; i < items->len; i++)
          if (item_matches (entity, table, placements, items->pdata[i]))
            add_item (data, items->pdata[i]);
      json_object_set_array_member (facet, "TableData", data);

      attributes = json_array_new ();
      for (guint i = 0; i < entity->attributes->len; i++)
        {
          const DynDesignAttribute *a = entity->attributes->pdata[i];

          /* The ids an import derived from the keys are no attributes of
           * the facet's own. */
          if (is_table_key (table, a->name) || (fextra != NULL && is_key_field (entity, table, a->name)))
            continue;
          json_array_add_string_element (attributes, a->name);
        }
      json_object_set_array_member (facet, "NonKeyAttributes", attributes);
      if (fextra == NULL && !json_object_has_member (facet, "DataAccess"))
        {
          JsonObject *access = json_object_new ();
          json_object_set_object_member (access, "MySql", json_object_new ());
          json_object_set_object_member (facet, "DataAccess", access);
        }
      drop_absent (facet, fextra);
      strip_private (facet);
      json_array_add_object_element (facets, facet);
    }
  json_object_set_array_member (t, "TableFacets", facets);

  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *index = table->indexes->pdata[i];
      JsonObject *g, *projection;

      if (index->local)
        continue;
      g = json_object_new ();
      json_object_set_string_member (g, "IndexName", index->name);
      set_key_attributes (g, index->partition_key, index->partition_type, index->sort_key, index->sort_type);
      projection = json_object_new ();
      json_object_set_string_member (projection, "ProjectionType", index->projection != NULL ? index->projection : "ALL");
      if (g_strcmp0 (index->projection, "INCLUDE") == 0 && index->non_key_attributes != NULL)
        {
          JsonArray *nk = json_array_new ();

          for (guint k = 0; index->non_key_attributes[k] != NULL; k++)
            json_array_add_string_element (nk, index->non_key_attributes[k]);
          json_object_set_array_member (projection, "NonKeyAttributes", nk);
        }
      json_object_set_object_member (g, "Projection", projection);
      json_array_add_object_element (gsis, g);
    }
  json_object_set_array_member (t, "GlobalSecondaryIndexes", gsis);

  /* TableData: the table's own items as imported; else the items no facet
   * takes (every item, without facets). */
  if (!(items_as_imported && recorded_items (table_extra, items, table_data)))
    for (guint i = 0; i < items->len; i++)
      {
        gboolean taken = FALSE;

        for (guint e = 0; e < model->entities->len && !taken; e++)
          {
            const DynDesignEntity *entity = model->entities->pdata[e];
            JsonObject *fextra = extra != NULL ? extra_object (entity->extra) : NULL;

            if (fextra != NULL && json_object_has_member (fextra, "dynoscope:facet"))
              continue;
            taken = item_matches (entity, table, placements, items->pdata[i]);
          }
        if (!taken)
          add_item (table_data, items->pdata[i]);
      }
  json_object_set_array_member (t, "TableData", table_data);

  if (table_extra == NULL && !json_object_has_member (t, "DataAccess"))
    {
      JsonObject *access = json_object_new ();
      json_object_set_object_member (access, "MySql", json_object_new ());
      json_object_set_object_member (t, "DataAccess", access);
    }
  json_object_set_string_member (t, "BillingMode", table->billing_mode != NULL ? table->billing_mode : "PAY_PER_REQUEST");
  if (table_extra == NULL || json_object_has_member (t, "ProvisionedCapacitySettings") ||
      table->read_capacity > 0 || table->write_capacity > 0)
  {
    JsonObject *capacity = dyn_json_object_get_object (t, "ProvisionedCapacitySettings");
    JsonObject *throughput;

    if (capacity == NULL)
      {
        capacity = json_object_new ();
        json_object_set_object_member (t, "ProvisionedCapacitySettings", capacity);
      }
    throughput = dyn_json_object_get_object (capacity, "ProvisionedThroughput");
    if (throughput == NULL)
      {
        throughput = json_object_new ();
        json_object_set_object_member (capacity, "ProvisionedThroughput", throughput);
      }
    json_object_set_int_member (throughput, "ReadCapacityUnits", table->read_capacity > 0 ? (gint64) table->read_capacity : 5);
    json_object_set_int_member (throughput, "WriteCapacityUnits", table->write_capacity > 0 ? (gint64) table->write_capacity : 5);
  }
  drop_absent (t, table_extra);
  strip_private (t);

  /* The other tables of a multi-table model, at their places. */
  if (extra != NULL && json_object_has_member (extra, "dynoscope:tablePosition"))
    {
      JsonNode *p = json_object_get_member (extra, "dynoscope:tablePosition");

      if (JSON_NODE_HOLDS_VALUE (p) && json_node_get_value_type (p) == G_TYPE_INT64)
        position = json_node_get_int (p);
    }
  {
    guint n_others = others != NULL ? json_array_get_length (others) : 0;
    guint o = 0;

    position = CLAMP (position, 0, (gint64) n_others);
    for (guint i = 0; i <= n_others; i++)
      if ((gint64) i == position)
        json_array_add_object_element (data_model, g_steal_pointer (&t));
      else
        json_array_add_element (data_model, json_node_copy (json_array_get_element (others, o++)));
  }

  json_object_set_string_member (root, "ModelName", model->name != NULL ? model->name : "");
  json_object_set_object_member (root, "ModelMetadata", metadata_for (model));
  json_object_set_array_member (root, "DataModel", data_model);
  strip_private (root);
  return object_node (root);
}
