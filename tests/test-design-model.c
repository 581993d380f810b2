/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The design studio's model: key templates, the Dynoscope model file,
 * validation, NoSQL Workbench and CloudFormation import/export, the
 * create-table input (created on DynamoDB Local). */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "dyn-design.h"
#include "dyn-json.h"
#include "dyn-test-util.h"

static char *
source_path (const char *first,
             ...)
{
  const char *root = g_getenv ("DYN_SOURCE_ROOT");
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  va_list args;

  g_ptr_array_add (parts, (gpointer) (root != NULL ? root : "."));
  g_ptr_array_add (parts, (gpointer) first);
  va_start (args, first);
  for (const char *p = va_arg (args, const char *); p != NULL; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  return g_build_filenamev ((char **) parts->pdata);
}

static JsonNode *
parse (const char *json)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = dyn_json_parse (json, -1, &error);

  g_assert_no_error (error);
  return node;
}

static JsonNode *
parse_file (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  JsonNode *node;

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  node = dyn_json_parse (text, len, &error);
  g_assert_no_error (error);
  return node;
}

static char *
to_text (JsonNode *node)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();

  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

/* Templates --------------------------------------------------------------- */

static DynDesignTemplate *
template (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynDesignTemplate *t = dyn_design_template_parse (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static char *
render_s (const char *text,
          const char *item_json,
          guint       shard,
          guint       n_shards)
{
  g_autoptr(DynDesignTemplate) t = template (text);
  g_autoptr(DynValue) item = dyn_test_plain_item (item_json);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) key = dyn_design_template_render (t, item, shard, n_shards, &error);

  g_assert_no_error (error);
  g_assert_cmpint (dyn_value_get_value_type (key), ==, DYN_VALUE_S);
  return g_strdup (dyn_value_get_string (key));
}

static void
test_template_parse (void)
{
  g_autoptr(DynDesignTemplate) t = template ("PROJ#{createdAt}#{projectId}");
  g_autoptr(DynDesignTemplate) c = template ("META");
  g_autoptr(DynDesignTemplate) s = template ("WS#{workspaceId}#{shard}");
  g_autoptr(DynDesignTemplate) b = template ("{{x}}#{id}");
  g_auto(GStrv) fields = dyn_design_template_get_fields (t);
  g_auto(GStrv) sfields = dyn_design_template_get_fields (s);
  g_auto(GStrv) bfields = dyn_design_template_get_fields (b);

  g_assert_cmpstr (dyn_design_template_get_text (t), ==, "PROJ#{createdAt}#{projectId}");
  g_assert_cmpuint (g_strv_length (fields), ==, 2);
  g_assert_cmpstr (fields[0], ==, "createdAt");
  g_assert_cmpstr (fields[1], ==, "projectId");
  g_assert_cmpstr (dyn_design_template_get_prefix (t), ==, "PROJ#");
  g_assert_false (dyn_design_template_is_constant (t));
  g_assert_false (dyn_design_template_has_shard (t));

  g_assert_true (dyn_design_template_is_constant (c));
  g_assert_cmpstr (dyn_design_template_get_prefix (c), ==, "META");

  g_assert_true (dyn_design_template_has_shard (s));
  g_assert_false (dyn_design_template_is_constant (s));
  g_assert_cmpuint (g_strv_length (sfields), ==, 1);   /* "shard" is not a field */

  g_assert_cmpstr (dyn_design_template_get_prefix (b), ==, "{x}#");
  g_assert_cmpuint (g_strv_length (bfields), ==, 1);
  g_assert_cmpstr (bfields[0], ==, "id");
}

static void
test_template_parse_errors (void)
{
  static const char * const bad[] = {
    "", "WS#{", "WS#}", "WS#{}", "{a:x}", "{a:0}", "{a:999}", "{a{b}}", "{shard}{shard}", "A}B",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignTemplate) t = dyn_design_template_parse (bad[i], &error);

      g_assert_null (t);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s → %s", bad[i], error->message);
    }
}

static void
test_template_render (void)
{
  g_autofree char *a = render_s ("WS#{workspaceId}", "{\"workspaceId\": \"acme\"}", 0, 0);
  g_autofree char *b = render_s ("PROJ#{createdAt}#{projectId}",
                                 "{\"createdAt\": \"2026-01-02\", \"projectId\": \"p1\", \"x\": 1}", 0, 0);
  g_autofree char *c = render_s ("ORDER#{orderNo:08}", "{\"orderNo\": 42}", 0, 0);
  g_autofree char *d = render_s ("ID#{code:05}", "{\"code\": \"ab\"}", 0, 0);
  g_autofree char *e = render_s ("WS#{workspaceId}#{shard}", "{\"workspaceId\": \"acme\"}", 3, 10);
  g_autofree char *f = render_s ("WS#{workspaceId}#{shard}", "{\"workspaceId\": \"acme\"}", 7, 250);
  g_autofree char *g = render_s ("{{literal}}#{id}", "{\"id\": \"x\"}", 0, 0);
  g_autofree char *h = render_s ("META", "{}", 0, 0);
  g_autofree char *i = render_s ("Y#{year}", "{\"year\": 1994}", 0, 0);

  g_assert_cmpstr (a, ==, "WS#acme");
  g_assert_cmpstr (b, ==, "PROJ#2026-01-02#p1");
  g_assert_cmpstr (c, ==, "ORDER#00000042");
  g_assert_cmpstr (d, ==, "ID#000ab");
  g_assert_cmpstr (e, ==, "WS#acme#03");
  g_assert_cmpstr (f, ==, "WS#acme#007");
  g_assert_cmpstr (g, ==, "{literal}#x");
  g_assert_cmpstr (h, ==, "META");
  g_assert_cmpstr (i, ==, "Y#1994");
}

/* A whole-value field keeps the attribute's type: a numeric key stays N. */
static void
test_template_whole_value (void)
{
  g_autoptr(DynDesignTemplate) t = template ("{year}");
  g_autoptr(DynValue) item = dyn_test_plain_item ("{\"year\": 1994, \"title\": \"Heat\"}");
  g_autoptr(DynValue) sitem = dyn_test_plain_item ("{\"year\": \"1994\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) key = dyn_design_template_render (t, item, 0, 0, &error);
  g_autoptr(DynValue) skey = dyn_design_template_render (t, sitem, 0, 0, &error);
  g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyn_value_unref);
  DynValue *year;

  g_assert_no_error (error);
  g_assert_cmpint (dyn_value_get_value_type (key), ==, DYN_VALUE_N);
  g_assert_cmpstr (dyn_value_get_number (key), ==, "1994");
  g_assert_cmpint (dyn_value_get_value_type (skey), ==, DYN_VALUE_S);

  g_assert_true (dyn_design_template_match (t, key, fields));
  year = g_hash_table_lookup (fields, "year");
  g_assert_nonnull (year);
  g_assert_cmpint (dyn_value_get_value_type (year), ==, DYN_VALUE_N);
  g_assert_cmpstr (dyn_value_get_number (year), ==, "1994");
}

static void
test_template_render_missing (void)
{
  g_autoptr(DynDesignTemplate) t = template ("PROJ#{createdAt}#{projectId}");
  g_autoptr(DynDesignTemplate) s = template ("WS#{id}#{shard}");
  g_autoptr(DynDesignTemplate) m = template ("X#{tags}");
  g_autoptr(DynValue) item = dyn_test_plain_item ("{\"createdAt\": \"2026\", \"tags\": [1]}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) key = dyn_design_template_render (t, item, 0, 0, &error);
  g_autoptr(DynValue) key2 = NULL;
  g_autoptr(DynValue) key3 = NULL;

  g_assert_null (key);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "projectId"));
  g_clear_error (&error);

  key2 = dyn_design_template_render (s, item, 0, 10, &error);   /* no shard number */
  g_assert_null (key2);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  key3 = dyn_design_template_render (m, item, 0, 0, &error);    /* a list is no key part */
  g_assert_null (key3);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
}

static gboolean
match (const char *text,
       const char *key,
       GHashTable *fields)
{
  g_autoptr(DynDesignTemplate) t = template (text);
  g_autoptr(DynValue) v = dyn_value_new_string (key);

  return dyn_design_template_match (t, v, fields);
}

static const char *
field (GHashTable *fields,
       const char *name)
{
  DynValue *v = g_hash_table_lookup (fields, name);

  g_assert_nonnull (v);
  g_assert_cmpint (dyn_value_get_value_type (v), ==, DYN_VALUE_S);
  return dyn_value_get_string (v);
}

static void
test_template_match (void)
{
  g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) dyn_value_unref);

  g_assert_true (match ("WS#{workspaceId}", "WS#acme", fields));
  g_assert_cmpstr (field (fields, "workspaceId"), ==, "acme");
  g_assert_false (match ("WS#{workspaceId}", "WS#", NULL));
  g_assert_false (match ("WS#{workspaceId}", "PROJ#x", NULL));
  g_assert_true (match ("META", "META", NULL));
  g_assert_false (match ("META", "METAX", NULL));

  g_hash_table_remove_all (fields);
  g_assert_true (match ("PROJ#{createdAt}#{projectId}", "PROJ#2026-01-02#p#1", fields));
  g_assert_cmpstr (field (fields, "createdAt"), ==, "2026-01-02");
  g_assert_cmpstr (field (fields, "projectId"), ==, "p#1");

  g_hash_table_remove_all (fields);
  g_assert_true (match ("ORDER#{orderNo:08}", "ORDER#00000042", fields));
  g_assert_cmpstr (field (fields, "orderNo"), ==, "42");
  g_assert_false (match ("ORDER#{orderNo:08}", "ORDER#42", NULL));

  g_hash_table_remove_all (fields);
  g_assert_true (match ("WS#{workspaceId}#{shard}", "WS#acme#07", fields));
  g_assert_cmpstr (field (fields, "workspaceId"), ==, "acme");
  g_assert_null (g_hash_table_lookup (fields, "shard"));
  g_assert_false (match ("WS#{workspaceId}#{shard}", "WS#acme#xy", NULL));

  g_assert_true (match ("{{x}}#{id}", "{x}#7", NULL));
  g_assert_true (match ("Ü#{name}", "Ü#çok", NULL));

  /* Adjacent fields that cannot match stay fast (no exponential backtracking). */
  {
    g_autoptr(GString) tt = g_string_new (NULL);
    g_autoptr(GString) key = g_string_new (NULL);

    for (guint i = 0; i < 40; i++)
      g_string_append_printf (tt, "{f%u}", i);
    g_string_append (tt, "!");
    for (guint i = 0; i < 400; i++)
      g_string_append_c (key, 'a');
    g_assert_false (match (tt->str, key->str, NULL));
  }
}

/* Render then match gives the fields back, for every shape. */
static void
test_template_round_trip (void)
{
  static const struct { const char *template; const char *item; } cases[] = {
    { "WS#{workspaceId}", "{\"workspaceId\": \"acme\"}" },
    { "PROJ#{createdAt}#{projectId}", "{\"createdAt\": \"2026-01-02T10:00:00Z\", \"projectId\": \"2026-0042\"}" },
    { "ORDER#{orderNo:08}", "{\"orderNo\": 1234}" },
    { "C#{a}|{b}", "{\"a\": \"x|y\", \"b\": \"z\"}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynDesignTemplate) t = template (cases[i].template);
      g_autoptr(DynValue) item = dyn_test_plain_item (cases[i].item);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) key = dyn_design_template_render (t, item, 0, 0, &error);
      g_autoptr(DynValue) rebuilt = dyn_value_new_map ();
      g_autoptr(DynValue) again = NULL;
      g_autoptr(GHashTable) fields = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) dyn_value_unref);
      GHashTableIter iter;
      gpointer name, value;

      g_assert_no_error (error);
      g_assert_true (dyn_design_template_match (t, key, fields));
      g_hash_table_iter_init (&iter, fields);
      while (g_hash_table_iter_next (&iter, &name, &value))
        dyn_value_map_set (rebuilt, name, value);
      again = dyn_design_template_render (t, rebuilt, 0, 0, &error);
      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (key, again));
    }
}

/* The Dynoscope model file ------------------------------------------------ */

static DynDesignModel *
load_seed (const char *name)
{
  g_autofree char *path = source_path ("data", "design", name, NULL);
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_model_load_file (path, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static void
test_seed_workspaces (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  g_autoptr(GError) error = NULL;
  DynDesignEntity *project;
  DynDesignPattern *newest;
  DynDesignRelationship *r;

  g_assert_true (dyn_design_model_validate (model, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (model->name, ==, "Workspaces");
  g_assert_cmpint (model->source_format, ==, DYN_DESIGN_FORMAT_DYNOSCOPE);
  g_assert_nonnull (model->table);
  g_assert_cmpstr (model->table->partition_key, ==, "EntityRef");
  g_assert_cmpstr (model->table->sort_key, ==, "Detail");
  g_assert_false (model->table->fixed);
  g_assert_cmpuint (model->entities->len, ==, 2);
  project = dyn_design_model_find_entity (model, "Project");
  g_assert_nonnull (project);
  g_assert_cmpuint (project->count, ==, 1000000);
  g_assert_cmpfloat (project->reads_per_second, ==, 400);
  g_assert_cmpstr (project->id[0], ==, "projectId");
  g_assert_true (dyn_design_entity_find_attribute (project, "status")->required);
  g_assert_cmpstr (dyn_design_entity_find_attribute (project, "status")->values[1], ==, "ARCHIVED");
  g_assert_cmpstr (dyn_design_entity_find_attribute (project, "budget")->type, ==, "N");
  r = model->relationships->pdata[0];
  g_assert_cmpint (r->kind, ==, DYN_DESIGN_ONE_TO_MANY);
  g_assert_cmpuint (r->items_per_parent, ==, 200);
  g_assert_cmpuint (model->patterns->len, ==, 4);
  newest = model->patterns->pdata[1];
  g_assert_cmpint (newest->operation, ==, DYN_DESIGN_LIST_NEWEST_FIRST);
  g_assert_true (((DynDesignPattern *) model->patterns->pdata[3])->across_parents);
  g_assert_cmpuint (model->examples_per_parent, ==, 3);
}

static void
test_seed_school (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(GError) error = NULL;
  DynDesignRelationship *r;

  g_assert_true (dyn_design_model_validate (model, &error));
  g_assert_no_error (error);
  g_assert_null (model->table);
  g_assert_cmpuint (model->entities->len, ==, 3);
  r = model->relationships->pdata[0];
  g_assert_cmpint (r->kind, ==, DYN_DESIGN_MANY_TO_MANY);
  g_assert_cmpstr (r->edge, ==, "Enrollment");
  g_assert_cmpuint (r->items_per_parent, ==, 40);
}

/* to_json → load gives an equal model (compared through its JSON again), and
 * what to_json writes is what the seed file says (member for member). */
static void
assert_round_trip (DynDesignModel *model)
{
  g_autoptr(JsonNode) first = dyn_design_model_to_json (model);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynDesignModel) again = dyn_design_model_load (first, NULL, &error);
  g_autoptr(JsonNode) second = NULL;
  g_autoptr(DynDesignModel) copy = NULL;
  g_autoptr(JsonNode) third = NULL;

  g_assert_no_error (error);
  second = dyn_design_model_to_json (again);
  if (!json_node_equal (first, second))
    {
      g_autofree char *a = to_text (first);
      g_autofree char *b = to_text (second);
      g_assert_cmpstr (a, ==, b);
    }
  copy = dyn_design_model_copy (again);
  third = dyn_design_model_to_json (copy);
  g_assert_true (json_node_equal (first, third));
}

static void
test_seed_round_trip (void)
{
  static const char * const seeds[] = { "workspaces.json", "school.json" };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr(DynDesignModel) model = load_seed (seeds[i]);
      g_autofree char *path = source_path ("data", "design", seeds[i], NULL);
      g_autoptr(JsonNode) file = parse_file (path);
      g_autoptr(JsonNode) written = dyn_design_model_to_json (model);
      g_autofree char *tmp = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) saved = NULL;
      g_autoptr(JsonNode) written2 = NULL;
      int fd;

      assert_round_trip (model);

      /* Everything the seed file says is in what we write (we add defaults:
       * empty arrays, "fixed"). */
      {
        JsonObject *f = json_node_get_object (file);
        JsonObject *w = json_node_get_object (written);
        g_autoptr(GList) members = json_object_get_members (f);

        for (GList *l = members; l != NULL; l = l->next)
          {
            JsonNode *a = json_object_get_member (f, l->data);
            JsonNode *b = json_object_get_member (w, l->data);

            g_assert_nonnull (b);
            if (!json_node_equal (a, b))
              {
                g_autofree char *ta = to_text (a);
                g_autofree char *tb = to_text (b);
                g_test_message ("member %s", (char *) l->data);
                g_assert_cmpstr (ta, ==, tb);
              }
          }
      }

      fd = g_file_open_tmp ("dyn-design-model-XXXXXX.json", &tmp, &error);
      g_assert_no_error (error);
      close (fd);
      g_assert_true (dyn_design_model_save_file (model, tmp, &error));
      g_assert_no_error (error);
      saved = dyn_design_model_load_file (tmp, NULL, &error);
      g_assert_no_error (error);
      written2 = dyn_design_model_to_json (saved);
      g_assert_true (json_node_equal (written, written2));
      g_unlink (tmp);
    }
}

static void
test_structures (void)
{
  g_autoptr(DynDesignModel) model = dyn_design_model_new ("M");
  g_autoptr(DynDesignModel) copy = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  DynDesignEntity *e = dyn_design_entity_new ("Order");
  DynDesignIndex *index;
  DynDesignOperation op;
  DynDesignFormat format;

  g_ptr_array_add (e->attributes, dyn_design_attribute_new ("orderNo", "N"));
  g_ptr_array_add (model->entities, e);
  dyn_design_entity_set_key (e, "PK", "ORDER#{orderNo:08}");
  dyn_design_entity_set_key (e, "SK", "META");
  g_assert_cmpstr (dyn_design_entity_get_key (e, "PK"), ==, "ORDER#{orderNo:08}");
  dyn_design_entity_set_key (e, "PK", "O#{orderNo}");
  g_assert_cmpstr (dyn_design_entity_get_key (e, "PK"), ==, "O#{orderNo}");
  g_assert_cmpuint (e->keys->len, ==, 2);
  dyn_design_entity_set_key (e, "SK", NULL);
  g_assert_null (dyn_design_entity_get_key (e, "SK"));
  g_assert_cmpuint (e->keys->len, ==, 1);
  g_assert_true (dyn_design_model_find_entity (model, "Order") == e);
  g_assert_null (dyn_design_model_find_entity (model, "order"));
  g_assert_nonnull (dyn_design_entity_find_attribute (e, "orderNo"));

  g_ptr_array_add (model->patterns, dyn_design_pattern_new ("One order", "Order", DYN_DESIGN_GET));
  model->table = dyn_design_table_new ("Movies");
  model->table->partition_key = g_strdup ("year");
  model->table->partition_type = g_strdup ("N");
  model->table->sort_key = g_strdup ("title");
  model->table->sort_type = g_strdup ("S");
  index = g_new0 (DynDesignIndex, 1);
  index->name = g_strdup ("ByRating");
  index->partition_key = g_strdup ("rating");
  index->partition_type = g_strdup ("N");
  index->projection = g_strdup ("INCLUDE");
  index->non_key_attributes = g_strsplit ("plot,actors", ",", -1);
  g_ptr_array_add (model->table->indexes, index);

  copy = dyn_design_model_copy (model);
  g_assert_true (copy->entities->pdata[0] != model->entities->pdata[0]);
  g_assert_cmpstr (dyn_design_entity_get_key (copy->entities->pdata[0], "PK"), ==, "O#{orderNo}");
  g_assert_cmpstr (((DynDesignIndex *) copy->table->indexes->pdata[0])->non_key_attributes[1], ==, "actors");

  keys = dyn_design_table_to_keys (model->table);
  g_assert_cmpstr (keys->table.name, ==, "Movies");
  g_assert_cmpstr (keys->table.keys.partition_key, ==, "year");
  g_assert_cmpint (keys->table.keys.partition_type, ==, DYN_VALUE_N);
  g_assert_cmpint (keys->table.keys.sort_type, ==, DYN_VALUE_S);
  g_assert_cmpuint (keys->indexes->len, ==, 1);
  {
    const DynIndexInfo *info = dyn_table_keys_lookup (keys, "ByRating");

    g_assert_nonnull (info);
    g_assert_cmpint (info->kind, ==, DYN_INDEX_GLOBAL);
    g_assert_cmpint (info->projection, ==, DYN_PROJECTION_INCLUDE);
    g_assert_null (info->keys.sort_key);
    g_assert_cmpstr (info->non_key_attributes[0], ==, "plot");
  }

  for (guint i = DYN_DESIGN_GET; i <= DYN_DESIGN_COUNT; i++)
    {
      g_assert_true (dyn_design_operation_from_string (dyn_design_operation_to_string (i), &op));
      g_assert_cmpint (op, ==, i);
    }
  g_assert_cmpstr (dyn_design_operation_to_string (DYN_DESIGN_LIST_NEWEST_FIRST), ==, "list-newest-first");
  g_assert_false (dyn_design_operation_from_string ("scan", &op));
  g_assert_true (dyn_design_format_from_string ("workbench", &format));
  g_assert_cmpint (format, ==, DYN_DESIGN_FORMAT_WORKBENCH);
  g_assert_true (dyn_design_format_from_string ("create-table", &format));
  g_assert_cmpint (format, ==, DYN_DESIGN_FORMAT_CREATE_TABLE);
  g_assert_true (dyn_design_format_from_string ("cloudformation", &format));
  g_assert_false (dyn_design_format_from_string ("yaml", &format));

  {
    g_autoptr(GError) error = NULL;

    g_assert_true (dyn_design_model_validate (model, &error));
    g_assert_no_error (error);
  }
  assert_round_trip (model);
}

/* Malformed files: an error naming the JSON path, never a crash. */
static void
test_load_errors (void)
{
  static const struct { const char *json; const char *path; } cases[] = {
    { "[]", NULL },
    { "{}", NULL },
    { "{\"format\": \"other\"}", "format" },
    { "{\"format\": \"dynoscope-design\"}", "name" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"version\": 2}", "version" },
    { "{\"format\": \"dynoscope-design\", \"name\": 3}", "name" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entitys\": []}", "entitys" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": {}}", "entities" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": [1]}", "entities[0]" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": [{\"name\": \"A\", \"attributes\": [{\"type\": \"S\"}]}]}",
      "entities[0].attributes[0].name" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": [{\"name\": \"A\", \"keys\": {\"PK\": 1}}]}",
      "entities[0].keys.PK" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": [{\"name\": \"A\", \"id\": [true]}]}",
      "entities[0].id[0]" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"entities\": [{\"name\": \"A\", \"count\": -1}]}",
      "entities[0].count" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"table\": {\"sortKey\": {\"name\": \"SK\"}}}",
      "table.partitionKey" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"table\": {\"partitionKey\": {\"name\": \"PK\", \"type\": \"BOOL\"}}}",
      "table.partitionKey.type" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"indexes\": [{\"name\": \"G\"}]}}",
      "table.indexes[0].partitionKey" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"relationships\": [{\"type\": \"one-to-one\", \"parent\": \"A\", \"child\": \"B\"}]}",
      "relationships[0].type" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"accessPatterns\": [{\"name\": \"p\", \"entity\": \"A\", \"operation\": \"scan\"}]}",
      "accessPatterns[0].operation" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"items\": [{\"PK\": {\"Q\": \"x\"}}]}", "items[0]" },
    { "{\"format\": \"dynoscope-design\", \"name\": \"x\", \"examplesPerParent\": 1.5}", "examplesPerParent" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) model = dyn_design_model_load (root, NULL, &error);

      g_assert_null (model);
      g_assert_nonnull (error);
      g_test_message ("%s → %s", cases[i].json, error->message);
      if (cases[i].path != NULL)
        {
          g_autofree char *prefix = g_strconcat (cases[i].path, ": ", NULL);

          if (!g_str_has_prefix (error->message, prefix))
            g_error ("case %u: “%s” does not start with “%s”", i, error->message, prefix);
        }
    }
}

static void
test_validate_errors (void)
{
  static const struct { const char *json; const char *path; } cases[] = {
    { "\"entities\": [{\"name\": \"A\"}, {\"name\": \"A\"}]", "entities[1].name" },
    { "\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"a\", \"type\": \"STRING\"}]}]",
      "entities[0].attributes[0].type" },
    { "\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}]",
      "entities[0].attributes[1].name" },
    { "\"entities\": [{\"name\": \"A\", \"id\": [\"nope\"]}]", "entities[0].id[0]" },
    { "\"entities\": [{\"name\": \"A\", \"keys\": {\"PK\": \"A#{nope}\"}}]", "entities[0].keys.PK" },
    { "\"entities\": [{\"name\": \"A\", \"keys\": {\"PK\": \"A#{\"}}]", "entities[0].keys.PK" },
    { "\"entities\": [{\"name\": \"A\", \"discriminator\": \"_type\"}]", "entities[0].discriminator" },
    { "\"entities\": [{\"name\": \"A\"}], \"accessPatterns\": [{\"name\": \"p\", \"entity\": \"Projet\", \"operation\": \"get\"}]",
      "accessPatterns[0].entity" },
    { "\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"a\"}]}], \"accessPatterns\": [{\"name\": \"p\", \"entity\": \"A\", \"operation\": \"get\", \"parameters\": [\"a\", \"b\"]}]",
      "accessPatterns[0].parameters[1]" },
    { "\"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"a\"}]}], \"accessPatterns\": [{\"name\": \"p\", \"entity\": \"A\", \"operation\": \"list\", \"rangeAttribute\": \"a\", \"rangeOp\": \"like\"}]",
      "accessPatterns[0].rangeOp" },
    { "\"entities\": [{\"name\": \"A\"}], \"accessPatterns\": [{\"name\": \"p\", \"entity\": \"A\", \"operation\": \"get\"}, {\"name\": \"p\", \"entity\": \"A\", \"operation\": \"list\"}]",
      "accessPatterns[1].name" },
    { "\"entities\": [{\"name\": \"A\"}], \"relationships\": [{\"type\": \"one-to-many\", \"parent\": \"A\", \"child\": \"B\"}]",
      "relationships[0].child" },
    { "\"entities\": [{\"name\": \"A\"}, {\"name\": \"B\"}], \"relationships\": [{\"type\": \"many-to-many\", \"parent\": \"A\", \"child\": \"B\", \"edge\": \"E\"}]",
      "relationships[0].edge" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"sortKey\": {\"name\": \"PK\"}}", "table.sortKey" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"billingMode\": \"FREE\"}", "table.billingMode" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"indexes\": [{\"name\": \"G\", \"partitionKey\": {\"name\": \"a\"}, \"projection\": \"INCLUDE\"}]}",
      "table.indexes[0].nonKeyAttributes" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"indexes\": [{\"name\": \"G\", \"partitionKey\": {\"name\": \"a\"}}, {\"name\": \"G\", \"partitionKey\": {\"name\": \"b\"}}]}",
      "table.indexes[1].name" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"sortKey\": {\"name\": \"SK\"}, \"indexes\": [{\"name\": \"L\", \"local\": true, \"partitionKey\": {\"name\": \"X\"}, \"sortKey\": {\"name\": \"d\"}}]}",
      "table.indexes[0].partitionKey" },
    { "\"table\": {\"partitionKey\": {\"name\": \"PK\"}, \"fixed\": true}, \"entities\": [{\"name\": \"A\", \"attributes\": [{\"name\": \"a\"}], \"keys\": {\"GSI9PK\": \"{a}\"}}]",
      "entities[0].keys.GSI9PK" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"format\": \"dynoscope-design\", \"name\": \"x\", %s}", cases[i].json);
      g_autoptr(JsonNode) root = parse (json);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) model = dyn_design_model_load (root, NULL, &error);
      g_autofree char *prefix = g_strconcat (cases[i].path, ": ", NULL);

      g_assert_no_error (error);
      g_assert_false (dyn_design_model_validate (model, &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
      g_test_message ("%s → %s", cases[i].json, error->message);
      if (!g_str_has_prefix (error->message, prefix))
        g_error ("case %u: “%s” does not start with “%s”", i, error->message, prefix);
    }
}

/* A child's key and a get's parameters may name the parent's id. */
static void
test_validate_scope (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  DynDesignEntity *project = dyn_design_model_find_entity (model, "Project");
  g_autoptr(GError) error = NULL;

  dyn_design_entity_set_key (project, "EntityRef", "WS#{workspaceId}");
  dyn_design_entity_set_key (project, "Detail", "PROJ#{projectId}");
  g_assert_true (dyn_design_model_validate (model, &error));
  g_assert_no_error (error);

  dyn_design_entity_set_key (project, "Detail", "PROJ#{projectld}");
  g_assert_false (dyn_design_model_validate (model, &error));
  g_assert_nonnull (strstr (error->message, "projectld"));
}

/* NoSQL Workbench ---------------------------------------------------------- */

static char *
fixture_path (const char *name)
{
  return source_path ("tests", "design-models", name, NULL);
}

static DynDesignModel *
load_fixture (const char *name,
              const char *table)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_model_load_file (path, table, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

/* A canonical text of a JSON tree: object members sorted by name (JSON
 * objects have no order); arrays in order, except the members whose order
 * Workbench and DynamoDB do not keep (@unordered), sorted by their text. */
static char *
canonical (JsonNode           *node,
           const char * const *unordered,
           const char         *member);

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static char *
canonical (JsonNode           *node,
           const char * const *unordered,
           const char         *member)
{
  GString *out = g_string_new (NULL);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *o = json_node_get_object (node);
      g_autoptr(GList) names = g_list_sort (json_object_get_members (o), (GCompareFunc) strcmp);

      g_string_append_c (out, '{');
      for (GList *l = names; l != NULL; l = l->next)
        {
          g_autofree char *v = canonical (json_object_get_member (o, l->data), unordered, l->data);

          g_string_append_printf (out, "\"%s\":%s,", (char *) l->data, v);
        }
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *a = json_node_get_array (node);
      g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < json_array_get_length (a); i++)
        g_ptr_array_add (parts, canonical (json_array_get_element (a, i), unordered, NULL));
      if (member != NULL && g_strv_contains (unordered, member))
        g_ptr_array_sort (parts, compare_strings);
      g_string_append_c (out, '[');
      for (guint i = 0; i < parts->len; i++)
        g_string_append_printf (out, "%s,", (char *) parts->pdata[i]);
      g_string_append_c (out, ']');
    }
  else
    {
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_root (gen, node);
      text = json_generator_to_data (gen, NULL);
      g_string_append (out, text);
    }
  return g_string_free (out, FALSE);
}

static void
assert_same_json (JsonNode           *expected,
                  JsonNode           *actual,
                  const char * const *unordered)
{
  g_autofree char *a = canonical (expected, unordered, NULL);
  g_autofree char *b = canonical (actual, unordered, NULL);

  if (strcmp (a, b) != 0)
    {
      g_autofree char *pretty = to_text (actual);

      g_test_message ("exported:\n%s", pretty);
    }
  g_assert_cmpstr (a, ==, b);
}

static const char * const workbench_unordered[] = { "NonKeyAttributes", NULL };

/* Import then export gives the file back, for every table of it. */
static void
test_workbench_round_trip (void)
{
  static const struct { const char *file; const char *table; } cases[] = {
    { "online-shop.json", NULL },
    { "sensor-log.json", NULL },
    { "media-library.json", NULL },
    { "media-library.json", "Films" },
    { "media-library.json", "Catalogue" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture_path (cases[i].file);
      g_autoptr(JsonNode) original = parse_file (path);
      g_autoptr(DynDesignModel) model = load_fixture (cases[i].file, cases[i].table);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) exported = NULL;
      g_autoptr(JsonNode) saved = NULL;
      g_autoptr(DynDesignModel) reloaded = NULL;
      g_autoptr(JsonNode) exported2 = NULL;

      g_test_message ("%s %s", cases[i].file, cases[i].table != NULL ? cases[i].table : "");
      g_assert_cmpint (model->source_format, ==, DYN_DESIGN_FORMAT_WORKBENCH);
      g_assert_true (dyn_design_model_validate (model, &error));
      g_assert_no_error (error);
      g_assert_true (model->table->fixed);

      exported = dyn_design_export (model, NULL, DYN_DESIGN_FORMAT_WORKBENCH, &error);
      g_assert_no_error (error);
      assert_same_json (original, exported, workbench_unordered);

      /* Through the Dynoscope file and back: still the same. */
      saved = dyn_design_model_to_json (model);
      reloaded = dyn_design_model_load (saved, NULL, &error);
      g_assert_no_error (error);
      exported2 = dyn_design_export (reloaded, NULL, DYN_DESIGN_FORMAT_WORKBENCH, &error);
      g_assert_no_error (error);
      assert_same_json (original, exported2, workbench_unordered);

      /* And a copy exports the same. */
      {
        g_autoptr(DynDesignModel) copy = dyn_design_model_copy (model);
        g_autoptr(JsonNode) exported3 = dyn_design_export (copy, NULL, DYN_DESIGN_FORMAT_WORKBENCH, &error);

        g_assert_no_error (error);
        assert_same_json (original, exported3, workbench_unordered);
      }
    }
}

static void
assert_key (DynDesignModel *model,
            const char     *entity,
            const char     *attribute,
            const char     *template)
{
  DynDesignEntity *e = dyn_design_model_find_entity (model, entity);

  g_assert_nonnull (e);
  g_assert_cmpstr (dyn_design_entity_get_key (e, attribute), ==, template);
}

/* Facets become entities: key templates where the data shows a prefix,
 * attributes with the table's types, the facet's data in the items. */
static void
test_workbench_facets (void)
{
  g_autoptr(DynDesignModel) shop = load_fixture ("online-shop.json", NULL);
  g_autoptr(DynDesignModel) films = load_fixture ("media-library.json", NULL);
  g_autoptr(DynDesignModel) catalogue = load_fixture ("media-library.json", "Catalogue");
  g_autoptr(DynDesignModel) sensors = load_fixture ("sensor-log.json", NULL);
  DynDesignEntity *product, *order;
  DynDesignIndex *gsi2;

  g_assert_cmpstr (shop->name, ==, "CornerShop");
  g_assert_nonnull (strstr (shop->description, "small shop"));
  g_assert_cmpuint (shop->entities->len, ==, 4);
  assert_key (shop, "customer", "PK", "c#{cId}");
  assert_key (shop, "customer", "SK", "c#{cId}");
  assert_key (shop, "product", "PK", "p#{ProductId}");
  assert_key (shop, "product", "SK", "DETAILS");
  assert_key (shop, "order", "PK", "c#{CustomerId}");
  assert_key (shop, "order", "SK", "o#{OrderId}");   /* the prefix ends at its last #, not inside the date */
  assert_key (shop, "orderLine", "PK", "o#{OrderId}");
  assert_key (shop, "orderLine", "SK", "p#{ProductId}");
  product = dyn_design_model_find_entity (shop, "product");
  g_assert_cmpstr (dyn_design_entity_find_attribute (product, "Price")->type, ==, "N");
  g_assert_cmpstr (dyn_design_entity_find_attribute (product, "Detail")->type, ==, "M");
  g_assert_cmpstr (dyn_design_entity_find_attribute (product, "Tags")->type, ==, "SS");
  g_assert_true (dyn_design_entity_find_attribute (product, "ProductId")->required);
  order = dyn_design_model_find_entity (shop, "order");
  g_assert_nonnull (dyn_design_entity_find_attribute (order, "GSI2SK"));
  g_assert_cmpuint (shop->items->len, ==, 9);
  g_assert_cmpstr (shop->table->billing_mode, ==, "PROVISIONED");
  g_assert_cmpuint (shop->table->read_capacity, ==, 10);
  g_assert_cmpuint (shop->table->write_capacity, ==, 4);
  g_assert_cmpuint (shop->table->indexes->len, ==, 2);
  gsi2 = shop->table->indexes->pdata[1];
  g_assert_cmpstr (gsi2->projection, ==, "INCLUDE");
  g_assert_cmpstr (gsi2->non_key_attributes[1], ==, "PlacedAt");
  g_assert_cmpstr (gsi2->sort_type, ==, "N");

  /* Every item matches its entity's templates. */
  for (guint i = 0; i < shop->items->len; i++)
    {
      DynValue *item = shop->items->pdata[i];
      guint matches = 0;

      for (guint e = 0; e < shop->entities->len; e++)
        {
          DynDesignEntity *entity = shop->entities->pdata[e];
          g_autoptr(DynDesignTemplate) pk = template (dyn_design_entity_get_key (entity, "PK"));
          g_autoptr(DynDesignTemplate) sk = template (dyn_design_entity_get_key (entity, "SK"));

          if (dyn_design_template_match (pk, dyn_value_map_lookup (item, "PK"), NULL) &&
              dyn_design_template_match (sk, dyn_value_map_lookup (item, "SK"), NULL))
            matches++;
        }
      g_assert_cmpuint (matches, >=, 1);
    }

  /* Numeric keys stay whole values of type N. */
  g_assert_cmpstr (films->table->name, ==, "Films");
  g_assert_cmpstr (films->table->partition_type, ==, "N");
  assert_key (films, "Film", "year", "{year}");
  assert_key (films, "Film", "title", "{title}");
  g_assert_cmpstr (dyn_design_entity_find_attribute (dyn_design_model_find_entity (films, "Film"), "year")->type, ==, "N");
  g_assert_cmpuint (films->items->len, ==, 3);
  g_assert_cmpstr (((DynDesignIndex *) films->table->indexes->pdata[0])->non_key_attributes[0], ==, "info");

  /* The other table of the file, hash-only with a 38-digit key. */
  g_assert_cmpstr (catalogue->table->name, ==, "Catalogue");
  g_assert_null (catalogue->table->sort_key);
  assert_key (catalogue, "Item", "id", "{CatalogueNo}");
  g_assert_cmpstr (dyn_design_entity_find_attribute (dyn_design_model_find_entity (catalogue, "Item"), "CatalogueNo")->type, ==, "N");
  g_assert_cmpuint (catalogue->table->read_capacity, ==, 3);

  /* No facets: one entity of the table's attributes. */
  g_assert_cmpuint (sensors->entities->len, ==, 1);
  g_assert_cmpuint (sensors->items->len, ==, 3);
  assert_key (sensors, "SensorLog", "SensorID", "{SensorID}");
  g_assert_cmpuint (sensors->table->indexes->len, ==, 2);
}

/* The seeds, drafted, export as a Workbench model with every member
 * Workbench requires, and import back with their templates. */
static void
test_workbench_export_seeds (void)
{
  static const char * const seeds[] = { "workspaces.json", "school.json" };

  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr(DynDesignModel) model = load_seed (seeds[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignPlan) plan = dyn_design_draft (model, &error);
      g_autoptr(JsonNode) exported = NULL;
      g_autoptr(DynDesignModel) back = NULL;
      JsonObject *root, *metadata, *table;
      JsonArray *data_model, *facets;
      const DynDesignTable *planned;
      GPtrArray *placements;

      g_assert_no_error (error);
      exported = dyn_design_export (model, plan, DYN_DESIGN_FORMAT_WORKBENCH, &error);
      g_assert_no_error (error);
      root = json_node_get_object (exported);
      g_assert_cmpstr (json_object_get_string_member (root, "ModelName"), ==, model->name);
      metadata = json_object_get_object_member (root, "ModelMetadata");
      for (const char * const *m = (const char * const[]) { "Author", "DateCreated", "DateLastModified",
                                                              "Description", "AWSService", "Version", NULL }; *m; m++)
        g_assert_true (json_object_has_member (metadata, *m));
      data_model = json_object_get_array_member (root, "DataModel");
      g_assert_cmpuint (json_array_get_length (data_model), ==, 1);
      table = json_array_get_object_element (data_model, 0);
      for (const char * const *m = (const char * const[]) { "TableName", "KeyAttributes", "NonKeyAttributes",
                                                              "TableFacets", "GlobalSecondaryIndexes", "TableData",
                                                              "DataAccess", "BillingMode", NULL }; *m; m++)
        g_assert_true (json_object_has_member (table, *m));
      facets = json_object_get_array_member (table, "TableFacets");
      g_assert_cmpuint (json_array_get_length (facets), ==, model->entities->len);
      for (guint f = 0; f < json_array_get_length (facets); f++)
        {
          JsonObject *facet = json_array_get_object_element (facets, f);

          g_assert_true (json_object_has_member (facet, "FacetName"));
          g_assert_true (json_object_has_member (json_object_get_object_member (facet, "KeyAttributeAlias"), "PartitionKeyAlias"));
          g_assert_true (json_object_has_member (facet, "NonKeyAttributes"));
          g_assert_cmpuint (json_array_get_length (json_object_get_array_member (facet, "TableData")), >, 0);
        }

      /* Back in: the plan's templates, every facet's data. */
      back = dyn_design_model_load (exported, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (dyn_design_model_validate (back, &error));
      g_assert_no_error (error);
      planned = dyn_design_plan_get_table (plan);
      g_assert_cmpstr (back->table->partition_key, ==, planned->partition_key);
      g_assert_cmpuint (back->table->indexes->len, ==, planned->indexes->len);
      placements = dyn_design_plan_get_placements (plan);
      for (guint p = 0; p < placements->len; p++)
        {
          const DynDesignPlacement *pl = placements->pdata[p];
          DynDesignEntity *e = dyn_design_model_find_entity (back, pl->entity);

          g_assert_nonnull (e);
          g_assert_cmpstr (dyn_design_entity_get_key (e, planned->partition_key), ==,
                           ((DynDesignKey *) pl->keys->pdata[0])->template);
        }
    }
}

/* Bad Workbench files: errors with the JSON path. */
static void
test_workbench_errors (void)
{
  static const struct { const char *json; const char *path; } cases[] = {
    { "{\"ModelName\": \"m\"}", "DataModel" },
    { "{\"ModelName\": \"m\", \"DataModel\": []}", "DataModel" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{}]}", "DataModel[0].TableName" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\"}]}", "DataModel[0].KeyAttributes" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": {}}}]}",
      "DataModel[0].KeyAttributes.PartitionKey.AttributeName" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"p\", \"AttributeType\": \"M\"}}}]}",
      "DataModel[0].KeyAttributes.PartitionKey.AttributeType" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"p\"}}, \"TableFacets\": [{\"FacetName\": \"f\", \"TableData\": [{\"p\": {\"X\": 1}}]}]}]}",
      "DataModel[0].TableFacets[0].TableData[0]" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"p\"}}, \"GlobalSecondaryIndexes\": [{\"IndexName\": \"g\"}]}]}",
      "DataModel[0].GlobalSecondaryIndexes[0].KeyAttributes" },
    { "{\"ModelName\": \"m\", \"DataModel\": [{\"TableName\": \"t\", \"KeyAttributes\": {\"PartitionKey\": {\"AttributeName\": \"p\"}}, \"TableFacets\": [{\"FacetName\": \"f\"}, {\"FacetName\": \"f\"}]}]}",
      "DataModel[0].TableFacets[1].FacetName" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) model = dyn_design_model_load (root, NULL, &error);
      g_autofree char *prefix = g_strconcat (cases[i].path, ": ", NULL);

      g_assert_null (model);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      if (!g_str_has_prefix (error->message, prefix))
        g_error ("case %u: “%s” does not start with “%s”", i, error->message, prefix);
    }
  {
    g_autofree char *path = fixture_path ("media-library.json");
    g_autoptr(GError) error = NULL;
    g_autoptr(DynDesignModel) model = dyn_design_model_load_file (path, "Nope", &error);

    g_assert_null (model);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND);
  }
}

/* CloudFormation and create-table ----------------------------------------- */

static const char * const cfn_unordered[] = { "AttributeDefinitions", NULL };

static void
test_cloudformation_import (void)
{
  g_autoptr(DynDesignModel) orders = load_fixture ("cloudformation.json", NULL);
  g_autoptr(DynDesignModel) sessions = load_fixture ("cloudformation.json", "sessions");
  g_autoptr(DynDesignModel) sessions2 = load_fixture ("cloudformation.json", "SessionsTable");
  g_autoptr(DynDesignModel) movies = load_fixture ("table-resource.json", NULL);
  g_autoptr(DynDesignModel) shop = load_fixture ("create-table.json", NULL);
  g_autoptr(GError) error = NULL;
  DynDesignIndex *lsi, *gsi;

  /* Fn::Sub in TableName: the logical id stands in (and export writes the
   * function back). */
  g_assert_cmpint (orders->source_format, ==, DYN_DESIGN_FORMAT_CLOUDFORMATION);
  g_assert_cmpstr (orders->table->name, ==, "OrdersTable");
  g_assert_true (orders->table->fixed);
  g_assert_cmpstr (orders->table->partition_key, ==, "customerId");
  g_assert_cmpstr (orders->table->sort_key, ==, "orderId");
  g_assert_cmpstr (orders->table->ttl_attribute, ==, "expiresAt");
  g_assert_cmpuint (orders->table->indexes->len, ==, 2);
  gsi = orders->table->indexes->pdata[0];
  lsi = orders->table->indexes->pdata[1];
  g_assert_false (gsi->local);
  g_assert_cmpstr (gsi->name, ==, "ByStatus");
  g_assert_cmpstr (gsi->sort_type, ==, "N");
  g_assert_cmpstr (gsi->non_key_attributes[1], ==, "currency");
  g_assert_true (lsi->local);
  g_assert_cmpstr (lsi->projection, ==, "KEYS_ONLY");
  g_assert_true (dyn_design_model_validate (orders, &error));
  g_assert_no_error (error);

  g_assert_cmpstr (sessions->table->name, ==, "sessions");
  g_assert_cmpstr (sessions2->table->name, ==, "sessions");
  g_assert_cmpstr (sessions->table->partition_type, ==, "B");
  g_assert_null (sessions->table->sort_key);
  g_assert_cmpstr (sessions->table->billing_mode, ==, "PROVISIONED");   /* CloudFormation's default */
  g_assert_cmpuint (sessions->table->read_capacity, ==, 5);               /* "5", a string */

  g_assert_cmpstr (movies->table->name, ==, "Movies");
  g_assert_cmpstr (movies->table->partition_type, ==, "N");

  g_assert_cmpint (shop->source_format, ==, DYN_DESIGN_FORMAT_CREATE_TABLE);
  g_assert_cmpstr (shop->table->name, ==, "Shop");
  g_assert_cmpuint (shop->table->indexes->len, ==, 1);
  g_assert_cmpuint (shop->table->write_capacity, ==, 5);
}

/* Import then export gives the template (the resource, the input) back. */
static void
test_cloudformation_round_trip (void)
{
  static const struct { const char *file; const char *table; DynDesignFormat format; } cases[] = {
    { "cloudformation.json", NULL, DYN_DESIGN_FORMAT_CLOUDFORMATION },
    { "table-resource.json", NULL, DYN_DESIGN_FORMAT_CLOUDFORMATION },
    { "create-table.json", NULL, DYN_DESIGN_FORMAT_CREATE_TABLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture_path (cases[i].file);
      g_autoptr(JsonNode) original = parse_file (path);
      g_autoptr(DynDesignModel) model = load_fixture (cases[i].file, cases[i].table);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) exported = dyn_design_export (model, NULL, cases[i].format, &error);

      g_assert_no_error (error);
      assert_same_json (original, exported, cfn_unordered);
    }

  /* The other table of the template: its resource comes back as it was
   * (the string "5" a number now), the rest of the template too. */
  {
    g_autoptr(DynDesignModel) model = load_fixture ("cloudformation.json", "SessionsTable");
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) exported = dyn_design_export (model, NULL, DYN_DESIGN_FORMAT_CLOUDFORMATION, &error);
    JsonObject *resources;
    JsonObject *props;

    g_assert_no_error (error);
    resources = json_object_get_object_member (json_node_get_object (exported), "Resources");
    g_assert_true (json_object_has_member (resources, "OrdersTable"));
    g_assert_true (json_object_has_member (resources, "Topic"));
    props = json_object_get_object_member (json_object_get_object_member (resources, "SessionsTable"), "Properties");
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (props, "ProvisionedThroughput"),
                                                 "ReadCapacityUnits"), ==, 5);
  }
}

static void
test_cloudformation_errors (void)
{
  static const struct { const char *json; const char *path; } cases[] = {
    { "{\"Resources\": {}}", "Resources" },
    { "{\"Resources\": {\"T\": {\"Type\": \"AWS::DynamoDB::Table\"}}}", "Resources.T.Properties" },
    { "{\"Resources\": {\"T\": {\"Type\": \"AWS::DynamoDB::Table\", \"Properties\": {\"KeySchema\": []}}}}",
      "Resources.T.Properties.AttributeDefinitions" },
    { "{\"Type\": \"AWS::S3::Bucket\", \"Properties\": {}}", "Type" },
    { "{\"TableName\": \"t\", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}], \"AttributeDefinitions\": []}",
      "KeySchema[0].AttributeName" },
    { "{\"TableName\": \"t\", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"BOOL\"}]}",
      "AttributeDefinitions[0].AttributeType" },
    { "{\"TableName\": \"t\", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"RANGE\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"S\"}]}",
      "KeySchema" },
    { "{\"TableName\": \"t\", \"KeySchema\": [{\"AttributeName\": \"a\", \"KeyType\": \"HASH\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"a\", \"AttributeType\": \"S\"}], \"ProvisionedThroughput\": {\"ReadCapacityUnits\": {\"Ref\": \"R\"}}}",
      "ProvisionedThroughput.ReadCapacityUnits" },
    { "{\"TableName\": {\"Ref\": \"N\"}, \"KeySchema\": []}", "TableName" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) root = parse (cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignModel) model = dyn_design_model_load (root, NULL, &error);

      g_assert_null (model);
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      if (cases[i].path != NULL)
        {
          g_autofree char *prefix = g_strconcat (cases[i].path, ": ", NULL);

          if (!g_str_has_prefix (error->message, prefix))
            g_error ("case %u: “%s” does not start with “%s”", i, error->message, prefix);
        }
    }
}

/* The create-table input DynamoDB Local accepts: the seeds' drafted tables,
 * every fixture's table (numeric, binary, hash-only keys, an LSI, INCLUDE,
 * PROVISIONED), created and described. */
static void
create_and_describe (DynClient            *client,
                     const DynDesignModel *model,
                     const DynDesignPlan  *plan)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) input = dyn_design_export (model, plan, DYN_DESIGN_FORMAT_CREATE_TABLE, &error);
  g_autofree char *name = dyn_test_table_name ("design-model");
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autoptr(DynDesignModel) back = NULL;
  const DynDesignTable *table = plan != NULL ? dyn_design_plan_get_table (plan) : model->table;
  JsonObject *t;

  g_assert_no_error (error);
  json_object_set_string_member (json_node_get_object (input), "TableName", name);
  json_generator_set_root (gen, input);
  text = json_generator_to_data (gen, NULL);
  g_test_message ("%s", text);
  g_assert_true (dyn_test_create_table_json (client, name, text, &error));
  g_assert_no_error (error);

  described = dyn_test_callf (client, "DescribeTable", &error, "{\"TableName\": \"%s\"}", name);
  g_assert_no_error (error);
  /* DescribeTable's output reads back as a model of the same table. */
  back = dyn_design_model_load (described->root, NULL, &error);
  g_assert_no_error (error);
  t = json_object_get_object_member (json_node_get_object (described->root), "Table");
  g_assert_cmpstr (json_object_get_string_member (t, "TableName"), ==, name);
  g_assert_cmpstr (back->table->partition_key, ==, table->partition_key);
  g_assert_cmpstr (back->table->partition_type, ==, table->partition_type);
  g_assert_cmpstr (back->table->sort_key, ==, table->sort_key);
  g_assert_cmpstr (back->table->sort_type, ==, table->sort_type);
  g_assert_cmpuint (back->table->indexes->len, ==, table->indexes->len);
  for (guint i = 0; i < table->indexes->len; i++)
    {
      const DynDesignIndex *want = table->indexes->pdata[i];
      const DynDesignIndex *got = NULL;

      for (guint j = 0; j < back->table->indexes->len; j++)
        if (g_strcmp0 (((DynDesignIndex *) back->table->indexes->pdata[j])->name, want->name) == 0)
          got = back->table->indexes->pdata[j];
      g_assert_nonnull (got);
      g_assert_cmpint (got->local, ==, want->local);
      g_assert_cmpstr (got->partition_key, ==, want->partition_key);
      g_assert_cmpstr (got->sort_key, ==, want->sort_key);
      g_assert_cmpstr (got->projection, ==, want->projection);
    }
  g_assert_cmpstr (back->table->billing_mode, ==, table->billing_mode);
  g_assert_true (dyn_test_delete_table (client, name, &error));
  g_assert_no_error (error);
}

static void
test_create_table_on_local (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  static const struct { const char *file; const char *table; } fixtures[] = {
    { "online-shop.json", NULL },
    { "sensor-log.json", NULL },
    { "media-library.json", "Films" },
    { "media-library.json", "Catalogue" },
    { "cloudformation.json", NULL },
    { "cloudformation.json", "sessions" },
    { "table-resource.json", NULL },
    { "create-table.json", NULL },
  };
  static const char * const seeds[] = { "workspaces.json", "school.json" };

  if (server == NULL)
    return;
  client = dyn_test_client_new (server);
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autoptr(DynDesignModel) model = load_fixture (fixtures[i].file, fixtures[i].table);

      create_and_describe (client, model, NULL);
    }
  for (guint i = 0; i < G_N_ELEMENTS (seeds); i++)
    {
      g_autoptr(DynDesignModel) model = load_seed (seeds[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(DynDesignPlan) plan = dyn_design_draft (model, &error);

      g_assert_no_error (error);
      create_and_describe (client, model, plan);
    }
}

/* A model without a table and without a plan cannot be exported. */
static void
test_export_needs_table (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) out = dyn_design_export (model, NULL, DYN_DESIGN_FORMAT_CREATE_TABLE, &error);

  g_assert_null (out);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
}

int
main (int argc, char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/design-model/template/parse", test_template_parse);
  g_test_add_func ("/design-model/template/parse-errors", test_template_parse_errors);
  g_test_add_func ("/design-model/template/render", test_template_render);
  g_test_add_func ("/design-model/template/whole-value", test_template_whole_value);
  g_test_add_func ("/design-model/template/render-missing", test_template_render_missing);
  g_test_add_func ("/design-model/template/match", test_template_match);
  g_test_add_func ("/design-model/template/round-trip", test_template_round_trip);
  g_test_add_func ("/design-model/model/seed-workspaces", test_seed_workspaces);
  g_test_add_func ("/design-model/model/seed-school", test_seed_school);
  g_test_add_func ("/design-model/model/seed-round-trip", test_seed_round_trip);
  g_test_add_func ("/design-model/model/structures", test_structures);
  g_test_add_func ("/design-model/model/load-errors", test_load_errors);
  g_test_add_func ("/design-model/model/validate-errors", test_validate_errors);
  g_test_add_func ("/design-model/model/validate-scope", test_validate_scope);
  g_test_add_func ("/design-model/workbench/round-trip", test_workbench_round_trip);
  g_test_add_func ("/design-model/workbench/facets", test_workbench_facets);
  g_test_add_func ("/design-model/workbench/export-seeds", test_workbench_export_seeds);
  g_test_add_func ("/design-model/workbench/errors", test_workbench_errors);
  g_test_add_func ("/design-model/cloudformation/import", test_cloudformation_import);
  g_test_add_func ("/design-model/cloudformation/round-trip", test_cloudformation_round_trip);
  g_test_add_func ("/design-model/cloudformation/errors", test_cloudformation_errors);
  g_test_add_func ("/design-model/create-table/dynamodb-local", test_create_table_on_local);
  g_test_add_func ("/design-model/export/needs-table", test_export_needs_table);
  return g_test_run ();
}
