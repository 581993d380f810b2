/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The design studio's draft: the key plan the seeds' two designs give, the
 * indexes the patterns need (inverted n:m, across parents), a hot tenant's
 * sharded key with its fan-out, a fixed table's patterns (mapped, or a Scan
 * with its reason), the examples, and every request on DynamoDB Local. */
#include "config.h"

#include <string.h>

#include "dyn-design.h"
#include "dyn-json.h"
#include "dyn-test-util.h"

static char *
source_path (const char *file)
{
  const char *root = g_getenv ("DYN_SOURCE_ROOT");

  return g_build_filename (root != NULL ? root : ".", "data", "design", file, NULL);
}

static DynDesignModel *
load_seed (const char *file)
{
  g_autofree char *path = source_path (file);
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_model_load_file (path, NULL, &error);

  g_assert_no_error (error);
  return model;
}

static DynDesignModel *
load_text (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = dyn_json_parse (json, -1, &error);
  DynDesignModel *model;

  g_assert_no_error (error);
  model = dyn_design_model_load (node, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static DynDesignPlan *
draft (const DynDesignModel *model)
{
  g_autoptr(GError) error = NULL;
  DynDesignPlan *plan = dyn_design_draft (model, &error);

  g_assert_no_error (error);
  g_assert_nonnull (plan);
  return plan;
}

static const char *
key_of (const DynDesignPlan *plan,
        const char          *entity,
        const char          *attribute)
{
  const DynDesignPlacement *p = dyn_design_plan_find_placement (plan, entity);

  g_assert_nonnull (p);
  for (guint i = 0; i < p->keys->len; i++)
    {
      DynDesignKey *k = p->keys->pdata[i];

      if (g_strcmp0 (k->attribute, attribute) == 0)
        return k->template;
    }
  return NULL;
}

static DynDesignRequest *
request_of (const DynDesignPlan *plan,
            const char          *pattern)
{
  GPtrArray *requests = dyn_design_plan_get_requests (plan);

  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *r = requests->pdata[i];

      if (g_strcmp0 (r->pattern, pattern) == 0)
        return r;
    }
  g_assert_not_reached ();
}

static const char *
key_condition (DynDesignRequest *r)
{
  g_assert_nonnull (r->request);
  g_assert_true (dyn_read_request_is_valid (r->request));
  return dyn_read_request_get_expression (r->request, DYN_EXPR_ROLE_KEY_CONDITION);
}

static char *
body_text (DynDesignRequest *r)
{
  g_autoptr(JsonNode) body = dyn_read_request_dup_body (r->request);

  return json_to_string (body, FALSE);
}

static const char *
get_key_string (DynDesignRequest *r,
                const char       *attribute)
{
  DynValue *key = dyn_read_request_get_key (r->request);
  DynValue *v;

  g_assert_nonnull (key);
  v = dyn_value_map_lookup (key, attribute);
  g_assert_nonnull (v);
  return g_intern_string (dyn_value_get_string (v));
}

static guint
count_warnings (const DynDesignPlan *plan,
                const char          *pattern)
{
  GPtrArray *decisions = dyn_design_plan_get_decisions (plan);
  guint n = 0;

  for (guint i = 0; i < decisions->len; i++)
    {
      DynDesignDecision *d = decisions->pdata[i];

      g_assert_nonnull (d->text);
      g_assert_cmpstr (d->text, !=, "");
      if (d->warning && (pattern == NULL || g_strcmp0 (d->pattern, pattern) == 0))
        n++;
    }
  return n;
}

/* Every pattern has at least one decision tied to it. */
static void
assert_every_pattern_explained (const DynDesignModel *model,
                                const DynDesignPlan  *plan)
{
  GPtrArray *decisions = dyn_design_plan_get_decisions (plan);

  for (guint p = 0; p < model->patterns->len; p++)
    {
      DynDesignPattern *pattern = model->patterns->pdata[p];
      gboolean found = FALSE;

      for (guint i = 0; i < decisions->len; i++)
        found |= g_strcmp0 (((DynDesignDecision *) decisions->pdata[i])->pattern, pattern->name) == 0;
      g_assert_true (found);
    }
}

/* ------------------------------------------------------------------------ */

static void
test_workspaces (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  g_autoptr(DynDesignPlan) plan = draft (model);
  const DynDesignTable *table = dyn_design_plan_get_table (plan);
  DynDesignRequest *r;
  g_autofree char *body = NULL;

  g_assert_cmpstr (table->partition_key, ==, "EntityRef");
  g_assert_cmpstr (table->sort_key, ==, "Detail");
  g_assert_cmpstr (key_of (plan, "Workspace", "EntityRef"), ==, "WS#{workspaceId}");
  g_assert_cmpstr (key_of (plan, "Workspace", "Detail"), ==, "META");
  g_assert_cmpstr (key_of (plan, "Project", "EntityRef"), ==, "WS#{workspaceId}");
  g_assert_cmpstr (key_of (plan, "Project", "Detail"), ==, "PROJ#{projectId}");
  g_assert_cmpuint (dyn_design_plan_find_placement (plan, "Project")->shards, ==, 1);

  r = request_of (plan, "Workspace settings");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  g_assert_cmpint (dyn_read_request_get_operation (r->request), ==, DYN_OP_GET_ITEM);
  g_assert_cmpstr (get_key_string (r, "EntityRef"), ==, "WS#acme");
  g_assert_cmpstr (get_key_string (r, "Detail"), ==, "META");

  r = request_of (plan, "Projects of a workspace, newest first");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_null (r->index);
  g_assert_cmpstr (key_condition (r), ==, "#er = :er AND begins_with(#d, :p)");
  body = body_text (r);
  g_assert_nonnull (strstr (body, "\"ScanIndexForward\":false"));
  g_assert_nonnull (strstr (body, "\":er\":{\"S\":\"WS#acme\"}"));
  g_assert_nonnull (strstr (body, "\":p\":{\"S\":\"PROJ#\"}"));
  g_assert_cmpstr (g_hash_table_lookup (r->parameters, ":er"), ==, "workspaceId");
  g_assert_false (g_hash_table_contains (r->parameters, ":p"));

  r = request_of (plan, "One project");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  g_assert_cmpstr (get_key_string (r, "EntityRef"), ==, "WS#acme");
  g_assert_cmpstr (get_key_string (r, "Detail"), ==, "PROJ#2026-0041");

  g_assert_cmpuint (count_warnings (plan, NULL), ==, 0);
  assert_every_pattern_explained (model, plan);
}

static void
test_school (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(DynDesignPlan) plan = draft (model);
  const DynDesignTable *table = dyn_design_plan_get_table (plan);
  DynDesignIndex *gsi;
  DynDesignRequest *r;
  g_autofree char *body = NULL;

  g_assert_cmpstr (table->partition_key, ==, "PK");
  g_assert_cmpstr (table->sort_key, ==, "SK");
  g_assert_cmpuint (table->indexes->len, ==, 1);
  gsi = table->indexes->pdata[0];
  g_assert_cmpstr (gsi->name, ==, "GSI1");
  g_assert_cmpstr (gsi->partition_key, ==, "GSI1PK");
  g_assert_cmpstr (gsi->sort_key, ==, "GSI1SK");

  g_assert_cmpstr (key_of (plan, "Student", "PK"), ==, "STU#{studentId}");
  g_assert_cmpstr (key_of (plan, "Enrollment", "PK"), ==, "STU#{studentId}");
  g_assert_cmpstr (key_of (plan, "Enrollment", "SK"), ==, "ENROLL#CRS#{courseId}");
  g_assert_cmpstr (key_of (plan, "Enrollment", "GSI1PK"), ==, "CRS#{courseId}");
  g_assert_cmpstr (key_of (plan, "Enrollment", "GSI1SK"), ==, "STU#{studentId}");
  g_assert_null (key_of (plan, "Student", "GSI1PK"));

  r = request_of (plan, "Courses of a student");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_null (r->index);
  g_assert_cmpstr (key_condition (r), ==, "#pk = :pk AND begins_with(#sk, :p)");
  body = body_text (r);
  g_assert_nonnull (strstr (body, "\"STU#a91\""));
  g_assert_nonnull (strstr (body, "\"ENROLL#\""));
  g_clear_pointer (&body, g_free);

  r = request_of (plan, "Roster of a course");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (r->index, ==, "GSI1");
  g_assert_cmpstr (key_condition (r), ==, "#gsi1pk = :gsi1pk AND begins_with(#gsi1sk, :p)");
  body = body_text (r);
  g_assert_nonnull (strstr (body, "\"IndexName\":\"GSI1\""));
  g_assert_nonnull (strstr (body, "\"CRS#math204\""));
  g_assert_cmpstr (g_hash_table_lookup (r->parameters, ":gsi1pk"), ==, "courseId");

  r = request_of (plan, "One student");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  g_assert_cmpstr (get_key_string (r, "PK"), ==, "STU#a91");

  g_assert_cmpuint (count_warnings (plan, NULL), ==, 0);
  assert_every_pattern_explained (model, plan);
}

/* A course listed with its edges: the course's own item joins the inverted
 * index; an n:m without an edge entity gets one. */
static void
test_school_course_collection (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(DynDesignPlan) plan = NULL;
  DynDesignRequest *r;

  g_ptr_array_add (model->patterns, dyn_design_pattern_new ("Course with its roster", "Course", DYN_DESIGN_LIST));
  g_strfreev (((DynDesignPattern *) model->patterns->pdata[model->patterns->len - 1])->parameters);
  ((DynDesignPattern *) model->patterns->pdata[model->patterns->len - 1])->parameters =
    g_strsplit ("courseId", ",", -1);
  plan = draft (model);
  g_assert_cmpstr (key_of (plan, "Course", "GSI1PK"), ==, "CRS#{courseId}");
  g_assert_nonnull (key_of (plan, "Course", "GSI1SK"));
  r = request_of (plan, "Course with its roster");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (r->index, ==, "GSI1");
  g_assert_cmpstr (key_condition (r), ==, "#gsi1pk = :gsi1pk");
  g_assert_cmpuint (dyn_design_plan_get_table (plan)->indexes->len, ==, 1);
}

/* An n:m without an edge entity gets one, "<Parent><Child>"; each side
 * listed with its edges is one Query (the second side's on the inverted
 * index). */
static void
test_edge_added (void)
{
  g_autoptr(DynDesignModel) model = load_text (
    "{\"format\":\"dynoscope-design\",\"version\":1,\"name\":\"Tags\","
    " \"entities\":[{\"name\":\"Article\",\"id\":[\"articleId\"],\"attributes\":[{\"name\":\"articleId\",\"type\":\"S\"}]},"
    "               {\"name\":\"Tag\",\"id\":[\"tag\"],\"attributes\":[{\"name\":\"tag\",\"type\":\"S\"}]}],"
    " \"relationships\":[{\"type\":\"many-to-many\",\"parent\":\"Article\",\"child\":\"Tag\"}],"
    " \"accessPatterns\":[{\"name\":\"Article with its tags\",\"entity\":\"Article\",\"operation\":\"list\",\"parameters\":[\"articleId\"]},"
    "                   {\"name\":\"Tag with its articles\",\"entity\":\"Tag\",\"operation\":\"list\",\"parameters\":[\"tag\"]}]}");
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) items = dyn_design_examples (model, plan, 2, 1);
  DynDesignRequest *r;
  guint edges = 0;

  g_assert_nonnull (dyn_design_plan_find_placement (plan, "ArticleTag"));
  g_assert_cmpstr (key_of (plan, "ArticleTag", "PK"), ==, "ARTI#{articleId}");
  g_assert_cmpstr (key_of (plan, "ArticleTag", "SK"), ==, "ARTITAG#TAG#{tag}");
  g_assert_cmpstr (key_of (plan, "ArticleTag", "GSI1PK"), ==, "TAG#{tag}");
  g_assert_cmpstr (key_of (plan, "Tag", "GSI1PK"), ==, "TAG#{tag}");
  r = request_of (plan, "Article with its tags");
  g_assert_null (r->index);
  g_assert_cmpstr (key_condition (r), ==, "#pk = :pk");
  r = request_of (plan, "Tag with its articles");
  g_assert_cmpstr (r->index, ==, "GSI1");
  g_assert_cmpstr (key_condition (r), ==, "#gsi1pk = :gsi1pk");
  for (guint i = 0; i < items->len; i++)
    edges += g_strcmp0 (dyn_design_plan_classify (plan, items->pdata[i]), "ArticleTag") == 0;
  g_assert_cmpuint (edges, ==, 6);
}

/* "All ACTIVE projects" across workspaces: a GSI keyed by the status, and
 * a second pattern with the same parameters reuses it. */
static void
test_across_parents (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  g_autoptr(DynDesignPlan) plan = NULL;
  DynDesignPattern *count;
  DynDesignRequest *r;
  const DynDesignTable *table;
  g_autofree char *body = NULL;

  count = dyn_design_pattern_new ("Count projects by status", "Project", DYN_DESIGN_COUNT);
  g_strfreev (count->parameters);
  count->parameters = g_strsplit ("status", ",", -1);
  count->across_parents = TRUE;
  g_ptr_array_add (model->patterns, count);
  plan = draft (model);
  table = dyn_design_plan_get_table (plan);

  g_assert_cmpuint (table->indexes->len, ==, 1);
  g_assert_cmpstr (((DynDesignIndex *) table->indexes->pdata[0])->name, ==, "GSI1");
  g_assert_cmpstr (key_of (plan, "Project", "GSI1PK"), ==, "STATUS#{status}");
  g_assert_cmpstr (key_of (plan, "Project", "GSI1SK"), ==, "PROJ#{projectId}");
  g_assert_null (key_of (plan, "Workspace", "GSI1PK"));

  r = request_of (plan, "Active projects across workspaces");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (r->index, ==, "GSI1");
  g_assert_cmpstr (key_condition (r), ==, "#gsi1pk = :gsi1pk AND begins_with(#gsi1sk, :p)");
  body = body_text (r);
  g_assert_nonnull (strstr (body, "\"STATUS#ACTIVE\""));

  r = request_of (plan, "Count projects by status");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (r->index, ==, "GSI1");
  g_assert_true (dyn_read_request_get_count_only (r->request));
}

static const char *hot_model =
  "{\"format\":\"dynoscope-design\",\"version\":1,\"name\":\"Orders\","
  " \"entities\":["
  "  {\"name\":\"Tenant\",\"id\":[\"tenantId\"],\"attributes\":["
  "     {\"name\":\"tenantId\",\"type\":\"S\",\"examples\":[\"acme\",\"globex\"],\"required\":true},"
  "     {\"name\":\"name\",\"type\":\"S\"}]},"
  "  {\"name\":\"Order\",\"id\":[\"orderId\"],\"itemSize\":2048,\"writesPerSecond\":4000,\"attributes\":["
  "     {\"name\":\"orderId\",\"type\":\"S\",\"required\":true},"
  "     {\"name\":\"placedAt\",\"type\":\"S\"},"
  "     {\"name\":\"total\",\"type\":\"N\"}]}],"
  " \"relationships\":[{\"type\":\"one-to-many\",\"parent\":\"Tenant\",\"child\":\"Order\",\"itemsPerParent\":20000000}],"
  " \"accessPatterns\":["
  "  {\"name\":\"Orders of a tenant, newest first\",\"entity\":\"Order\",\"operation\":\"list-newest-first\",\"parameters\":[\"tenantId\"]},"
  "  {\"name\":\"One order\",\"entity\":\"Order\",\"operation\":\"get\",\"parameters\":[\"tenantId\",\"orderId\"]},"
  "  {\"name\":\"One tenant\",\"entity\":\"Tenant\",\"operation\":\"get\",\"parameters\":[\"tenantId\"]}]}";

/* A tenant whose collection is 40 GB and takes 8000 WCU: a sharded key,
 * the list fans out, the get finds its shard from the id. */
static void
test_hot_tenant (void)
{
  g_autoptr(DynDesignModel) model = load_text (hot_model);
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) examples = NULL;
  g_autoptr(GHashTable) shards = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const DynDesignPlacement *order = dyn_design_plan_find_placement (plan, "Order");
  DynDesignRequest *r;
  g_autofree char *body = NULL;
  gboolean found = FALSE;

  g_assert_cmpuint (order->shards, ==, 10);
  g_assert_cmpstr (key_of (plan, "Order", "PK"), ==, "TENANT#{tenantId}#{shard}");
  g_assert_cmpstr (key_of (plan, "Tenant", "PK"), ==, "TENANT#{tenantId}");
  g_assert_cmpuint (dyn_design_plan_find_placement (plan, "Tenant")->shards, ==, 1);
  g_assert_cmpuint (count_warnings (plan, "Orders of a tenant, newest first"), ==, 1);

  r = request_of (plan, "Orders of a tenant, newest first");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpuint (r->shards, ==, 10);
  g_assert_cmpstr (key_condition (r), ==, "#pk = :pk AND begins_with(#sk, :p)");
  body = body_text (r);
  g_assert_nonnull (strstr (body, "\"TENANT#acme#01\""));
  g_assert_cmpstr (g_hash_table_lookup (r->parameters, ":pk"), ==, "tenantId");

  /* The examples spread over the shards; the GetItem's key is one of them. */
  examples = dyn_design_examples (model, plan, 12, 1);
  r = request_of (plan, "One order");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  g_assert_cmpuint (r->shards, ==, 1);
  for (guint i = 0; i < examples->len; i++)
    {
      const char *pk = dyn_test_item_get_string (examples->pdata[i], "PK");
      const char *sk = dyn_test_item_get_string (examples->pdata[i], "SK");

      if (g_str_has_prefix (sk, "ORDER#"))
        g_hash_table_add (shards, g_strdup (pk));
      if (g_strcmp0 (pk, get_key_string (r, "PK")) == 0 && g_strcmp0 (sk, get_key_string (r, "SK")) == 0)
        found = TRUE;
    }
  g_assert_true (found);
  g_assert_cmpuint (g_hash_table_size (shards), >, 4);
}

/* The same model without the load: no shards. */
static void
test_cool_tenant (void)
{
  g_autoptr(DynDesignModel) model = load_text (hot_model);
  g_autoptr(DynDesignPlan) plan = NULL;
  DynDesignEntity *order = dyn_design_model_find_entity (model, "Order");

  order->writes_per_second = 50;
  ((DynDesignRelationship *) model->relationships->pdata[0])->items_per_parent = 2000;
  plan = draft (model);
  g_assert_cmpuint (dyn_design_plan_find_placement (plan, "Order")->shards, ==, 1);
  g_assert_cmpstr (key_of (plan, "Order", "PK"), ==, "TENANT#{tenantId}");
  g_assert_cmpuint (request_of (plan, "Orders of a tenant, newest first")->shards, ==, 1);
  g_assert_cmpuint (count_warnings (plan, NULL), ==, 0);
}

/* A fixed table with a numeric sort key (Movies: year N, title S) and a
 * GSI on genre: patterns are mapped to it as it is; one nothing serves is a
 * Scan with its reason and a warning. */
static void
test_fixed_movies (void)
{
  g_autoptr(DynDesignModel) model = load_text (
    "{\"format\":\"dynoscope-design\",\"version\":1,\"name\":\"Movies\","
    " \"table\":{\"name\":\"Movies\",\"partitionKey\":{\"name\":\"year\",\"type\":\"N\"},"
    "           \"sortKey\":{\"name\":\"title\",\"type\":\"S\"},\"fixed\":true,"
    "           \"indexes\":[{\"name\":\"ByGenre\",\"partitionKey\":{\"name\":\"genre\",\"type\":\"S\"},"
    "                         \"sortKey\":{\"name\":\"rating\",\"type\":\"N\"},\"projection\":\"ALL\"}]},"
    " \"entities\":[{\"name\":\"Movie\",\"id\":[\"year\",\"title\"],\"attributes\":["
    "    {\"name\":\"year\",\"type\":\"N\",\"examples\":[\"2013\",\"2014\"],\"required\":true},"
    "    {\"name\":\"title\",\"type\":\"S\",\"examples\":[\"Rush\",\"Heat\"],\"required\":true},"
    "    {\"name\":\"genre\",\"type\":\"S\",\"values\":[\"Drama\",\"Action\"]},"
    "    {\"name\":\"rating\",\"type\":\"N\"},"
    "    {\"name\":\"director\",\"type\":\"S\"}]}],"
    " \"accessPatterns\":["
    "  {\"name\":\"One movie\",\"entity\":\"Movie\",\"operation\":\"get\",\"parameters\":[\"year\",\"title\"]},"
    "  {\"name\":\"Movies of a year\",\"entity\":\"Movie\",\"operation\":\"list\",\"parameters\":[\"year\"]},"
    "  {\"name\":\"Movies of a year from a title on\",\"entity\":\"Movie\",\"operation\":\"list\",\"parameters\":[\"year\"],"
    "   \"rangeAttribute\":\"title\",\"rangeOp\":\">=\"},"
    "  {\"name\":\"Best of a genre\",\"entity\":\"Movie\",\"operation\":\"list-newest-first\",\"parameters\":[\"genre\"]},"
    "  {\"name\":\"Movies of a director\",\"entity\":\"Movie\",\"operation\":\"list\",\"parameters\":[\"director\"]}]}");
  g_autoptr(DynDesignPlan) plan = draft (model);
  const DynDesignTable *table = dyn_design_plan_get_table (plan);
  DynValue *key;
  DynDesignRequest *r;

  g_assert_true (table->fixed);
  g_assert_cmpuint (table->indexes->len, ==, 1);
  g_assert_cmpstr (key_of (plan, "Movie", "year"), ==, "{year}");
  g_assert_cmpstr (key_of (plan, "Movie", "genre"), ==, "{genre}");

  r = request_of (plan, "One movie");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  key = dyn_read_request_get_key (r->request);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (key, "year")), ==, "2013");
  g_assert_cmpstr (dyn_value_get_string (dyn_value_map_lookup (key, "title")), ==, "Rush");

  r = request_of (plan, "Movies of a year");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (key_condition (r), ==, "#y = :y");

  r = request_of (plan, "Movies of a year from a title on");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (key_condition (r), ==, "#y = :y AND #t >= :t");
  g_assert_cmpstr (g_hash_table_lookup (r->parameters, ":t"), ==, "title");

  r = request_of (plan, "Best of a genre");
  g_assert_cmpint (r->operation, ==, DYN_OP_QUERY);
  g_assert_cmpstr (r->index, ==, "ByGenre");
  g_assert_cmpstr (key_condition (r), ==, "#g = :g");

  r = request_of (plan, "Movies of a director");
  g_assert_cmpint (r->operation, ==, DYN_OP_SCAN);
  g_assert_cmpint (dyn_read_request_get_operation (r->request), ==, DYN_OP_SCAN);
  g_assert_nonnull (r->reason);
  g_assert_nonnull (strstr (r->reason, "Scan"));
  g_assert_nonnull (strstr (r->reason, "director"));
  g_assert_cmpstr (dyn_read_request_get_expression (r->request, DYN_EXPR_ROLE_FILTER), ==, "#d = :d");
  g_assert_cmpuint (count_warnings (plan, "Movies of a director"), ==, 1);
  g_assert_cmpuint (count_warnings (plan, NULL), ==, 1);
}

/* A fixed hash-only table: a get is a GetItem of the partition key alone. */
static void
test_fixed_hash_only (void)
{
  g_autoptr(DynDesignModel) model = load_text (
    "{\"format\":\"dynoscope-design\",\"version\":1,\"name\":\"Products\","
    " \"table\":{\"name\":\"Products\",\"partitionKey\":{\"name\":\"id\",\"type\":\"S\"},\"fixed\":true},"
    " \"entities\":[{\"name\":\"Product\",\"id\":[\"id\"],\"attributes\":["
    "    {\"name\":\"id\",\"type\":\"S\",\"required\":true},{\"name\":\"category\",\"type\":\"S\"},"
    "    {\"name\":\"picture\",\"type\":\"B\"},{\"name\":\"tags\",\"type\":\"SS\"},{\"name\":\"price\",\"type\":\"N\"}]}],"
    " \"accessPatterns\":["
    "  {\"name\":\"One product\",\"entity\":\"Product\",\"operation\":\"get\",\"parameters\":[\"id\"]},"
    "  {\"name\":\"Products of a category\",\"entity\":\"Product\",\"operation\":\"count\",\"parameters\":[\"category\"]}]}");
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) examples = dyn_design_examples (model, plan, 0, 1);
  DynDesignRequest *r;

  g_assert_null (dyn_design_plan_get_table (plan)->sort_key);
  r = request_of (plan, "One product");
  g_assert_cmpint (r->operation, ==, DYN_OP_GET_ITEM);
  g_assert_cmpstr (get_key_string (r, "id"), ==, "prod-001");
  r = request_of (plan, "Products of a category");
  g_assert_cmpint (r->operation, ==, DYN_OP_SCAN);
  g_assert_true (dyn_read_request_get_count_only (r->request));
  g_assert_nonnull (strstr (r->reason, "category"));

  g_assert_cmpuint (examples->len, ==, 3);
  for (guint i = 0; i < examples->len; i++)
    {
      DynValue *item = examples->pdata[i];

      g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "picture")), ==, DYN_VALUE_B);
      g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (item, "tags")), ==, DYN_VALUE_SS);
      g_assert_cmpstr (dyn_design_plan_classify (plan, item), ==, "Product");
    }
}

/* ------------------------------------------------------------------------ */
/* Examples */

static void
assert_sorted_with_keys (const DynDesignPlan *plan,
                         GPtrArray           *items)
{
  const DynDesignTable *t = dyn_design_plan_get_table (plan);

  for (guint i = 0; i < items->len; i++)
    {
      DynValue *item = items->pdata[i];
      const char *entity = dyn_design_plan_classify (plan, item);
      const DynDesignPlacement *p;

      g_assert_nonnull (entity);
      p = dyn_design_plan_find_placement (plan, entity);
      for (guint k = 0; k < p->keys->len; k++)
        g_assert_nonnull (dyn_value_map_lookup (item, ((DynDesignKey *) p->keys->pdata[k])->attribute));
      if (i > 0)
        {
          DynValue *prev = items->pdata[i - 1];
          int c = dyn_value_compare (dyn_value_map_lookup (prev, t->partition_key),
                                     dyn_value_map_lookup (item, t->partition_key));

          g_assert_cmpint (c, <=, 0);
          if (c == 0 && t->sort_key != NULL)
            g_assert_cmpint (dyn_value_compare (dyn_value_map_lookup (prev, t->sort_key),
                                                dyn_value_map_lookup (item, t->sort_key)), <, 0);
        }
    }
}

static char *
items_text (GPtrArray *items)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < items->len; i++)
    {
      g_autofree char *one = dyn_item_to_ddb_json_string (items->pdata[i]);
      g_string_append (s, one);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
test_examples (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("workspaces.json");
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) items = dyn_design_examples (model, plan, 4, 7);
  g_autoptr(GPtrArray) again = dyn_design_examples (model, plan, 4, 7);
  g_autoptr(GPtrArray) other = dyn_design_examples (model, plan, 4, 8);
  g_autofree char *a = items_text (items);
  g_autofree char *b = items_text (again);
  g_autofree char *c = items_text (other);
  guint workspaces = 0, projects = 0;

  /* 3 workspaces with 4 projects each, stacked: META first, then PROJ# in order. */
  g_assert_cmpuint (items->len, ==, 15);
  assert_sorted_with_keys (plan, items);
  for (guint i = 0; i < items->len; i++)
    {
      const char *entity = dyn_design_plan_classify (plan, items->pdata[i]);

      if (g_strcmp0 (entity, "Workspace") == 0)
        {
          g_assert_cmpstr (dyn_test_item_get_string (items->pdata[i], "Detail"), ==, "META");
          workspaces++;
        }
      else
        {
          g_assert_cmpstr (entity, ==, "Project");
          g_assert_true (g_str_has_prefix (dyn_test_item_get_string (items->pdata[i], "Detail"), "PROJ#2026-00"));
          projects++;
        }
    }
  g_assert_cmpuint (workspaces, ==, 3);
  g_assert_cmpuint (projects, ==, 12);
  g_assert_cmpstr (dyn_test_item_get_string (items->pdata[0], "EntityRef"), ==, "WS#acme");
  g_assert_cmpstr (dyn_test_item_get_string (items->pdata[4], "Detail"), ==, "PROJ#2026-0044");

  g_assert_cmpstr (a, ==, b);
  g_assert_cmpstr (a, !=, c);

  /* The model's own items are returned instead. */
  g_ptr_array_add (model->items, dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#zeta\"},\"Detail\":{\"S\":\"META\"}}"));
  g_ptr_array_add (model->items, dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#alpha\"},\"Detail\":{\"S\":\"META\"}}"));
  {
    g_autoptr(GPtrArray) own = dyn_design_examples (model, plan, 4, 7);

    g_assert_cmpuint (own->len, ==, 2);
    g_assert_cmpstr (dyn_test_item_get_string (own->pdata[0], "EntityRef"), ==, "WS#alpha");
  }
}

static void
test_examples_school (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) items = dyn_design_examples (model, plan, 2, 1);
  guint edges = 0;

  assert_sorted_with_keys (plan, items);
  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (dyn_design_plan_classify (plan, items->pdata[i]), "Enrollment") == 0)
      {
        DynValue *item = items->pdata[i];
        g_autofree char *sk = g_strconcat ("ENROLL#CRS#", dyn_test_item_get_string (item, "courseId"), NULL);
        g_autofree char *gsi = g_strconcat ("STU#", dyn_test_item_get_string (item, "studentId"), NULL);

        g_assert_cmpstr (dyn_test_item_get_string (item, "SK"), ==, sk);
        g_assert_cmpstr (dyn_test_item_get_string (item, "GSI1SK"), ==, gsi);
        edges++;
      }
  g_assert_cmpuint (edges, ==, 6);   /* 3 students × 2 courses */
}

static void
test_json (void)
{
  g_autoptr(DynDesignModel) model = load_seed ("school.json");
  g_autoptr(DynDesignPlan) plan = draft (model);
  g_autoptr(GPtrArray) items = dyn_design_examples (model, plan, 2, 1);
  g_autoptr(JsonNode) json = dyn_design_plan_to_json (plan, items);
  JsonObject *root = json_node_get_object (json);
  JsonObject *table = json_object_get_object_member (root, "table");
  JsonArray *patterns = json_object_get_array_member (root, "patterns");
  JsonObject *roster;

  g_assert_cmpstr (json_object_get_string_member (table, "TableName"), ==, "School");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "GlobalSecondaryIndexes")), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "placements")), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "decisions")), >, 3);
  g_assert_cmpuint (json_array_get_length (patterns), ==, 3);
  roster = json_array_get_object_element (patterns, 1);
  g_assert_cmpstr (json_object_get_string_member (roster, "name"), ==, "Roster of a course");
  g_assert_cmpstr (json_object_get_string_member (roster, "operation"), ==, "Query");
  g_assert_cmpstr (json_object_get_string_member (roster, "index"), ==, "GSI1");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (roster, "request"), "IndexName"), ==, "GSI1");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (roster, "parameters"), ":gsi1pk"), ==, "courseId");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "examples")), ==, items->len);
}

/* ------------------------------------------------------------------------ */
/* DynamoDB Local: the plan's table, the examples, every request once. */

typedef struct {
  const char *file;
  const char *text;
} LiveCase;

static void
live_setup (DynTestFixture *fx,
            gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "design-draft");
}

static void
test_live (DynTestFixture *fx,
           gconstpointer   data)
{
  const LiveCase *c = data;
  g_autoptr(DynDesignModel) model = NULL;
  g_autoptr(DynDesignPlan) plan = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *create = NULL;
  GPtrArray *requests;
  JsonObject *table;

  DYN_TEST_REQUIRE_SERVER (fx);
  model = c->file ? load_seed (c->file) : load_text (c->text);
  if (model->table == NULL)
    model->table = dyn_design_table_new (fx->table);
  else
    {
      g_free (model->table->name);
      model->table->name = g_strdup (fx->table);
    }
  if (model->table->partition_key == NULL)
    {
      model->table->partition_key = g_strdup ("PK");
      model->table->partition_type = g_strdup ("S");
      model->table->sort_key = g_strdup ("SK");
      model->table->sort_type = g_strdup ("S");
    }
  plan = draft (model);
  items = dyn_design_examples (model, plan, 0, 1);
  json = dyn_design_plan_to_json (plan, items);
  table = json_object_get_object_member (json_node_get_object (json), "table");
  g_assert_cmpstr (json_object_get_string_member (table, "TableName"), ==, fx->table);
  json_generator_set_root (gen, json_object_get_member (json_node_get_object (json), "table"));
  create = json_generator_to_data (gen, NULL);
  dyn_test_fixture_create_table_json (fx, create);
  g_assert_true (dyn_test_load_items (fx->client, fx->table, items, &error));
  g_assert_no_error (error);

  requests = dyn_design_plan_get_requests (plan);
  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *r = requests->pdata[i];
      g_autoptr(DynPager) pager = NULL;
      g_autoptr(GPtrArray) got = NULL;

      g_assert_true (dyn_read_request_is_valid (r->request));
      pager = dyn_read_request_new_pager (r->request, fx->client);
      got = dyn_test_pager_run (pager, 1, 0, &error);
      g_assert_no_error (error);
      if (r->operation != DYN_OP_SCAN && !dyn_read_request_get_count_only (r->request))
        {
          g_assert_cmpuint (got->len, >, 0);
          for (guint k = 0; k < got->len; k++)
            g_assert_cmpstr (dyn_design_plan_classify (plan, got->pdata[k]), ==,
                             ((DynDesignPattern *) model->patterns->pdata[i])->entity);
        }
    }
}

static const LiveCase live_workspaces = { "workspaces.json", NULL };
static const LiveCase live_school = { "school.json", NULL };

int
main (int argc, char **argv)
{
  static LiveCase live_hot;

  live_hot.text = hot_model;
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/dyn/design-draft/workspaces", test_workspaces);
  g_test_add_func ("/dyn/design-draft/school", test_school);
  g_test_add_func ("/dyn/design-draft/school-course-collection", test_school_course_collection);
  g_test_add_func ("/dyn/design-draft/edge-added", test_edge_added);
  g_test_add_func ("/dyn/design-draft/across-parents", test_across_parents);
  g_test_add_func ("/dyn/design-draft/hot-tenant", test_hot_tenant);
  g_test_add_func ("/dyn/design-draft/cool-tenant", test_cool_tenant);
  g_test_add_func ("/dyn/design-draft/fixed-movies", test_fixed_movies);
  g_test_add_func ("/dyn/design-draft/fixed-hash-only", test_fixed_hash_only);
  g_test_add_func ("/dyn/design-draft/examples", test_examples);
  g_test_add_func ("/dyn/design-draft/examples-school", test_examples_school);
  g_test_add_func ("/dyn/design-draft/json", test_json);
  g_test_add ("/dyn/design-draft/live/workspaces", DynTestFixture, &live_workspaces, live_setup, test_live,
              dyn_test_fixture_teardown);
  g_test_add ("/dyn/design-draft/live/school", DynTestFixture, &live_school, live_setup, test_live,
              dyn_test_fixture_teardown);
  g_test_add ("/dyn/design-draft/live/hot-tenant", DynTestFixture, &live_hot, live_setup, test_live,
              dyn_test_fixture_teardown);
  return g_test_run ();
}
