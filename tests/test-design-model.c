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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

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
  return g_test_run ();
}
