/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-table-admin"

#include "config.h"

#include <string.h>

#include "dyn-error.h"
#include "dyn-table-admin-private.h"
#include "dyn-test-util.h"

/* client/admin on DynamoDB Local: the text forms, every CreateTable rule
 * (refused before sending, and the same request refused by DynamoDB Local
 * where Local enforces it), tables created from specs and described back,
 * GSIs added to a table with items and deleted, TTL on and off, delete only
 * with the table's name. */

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "admin");
}

static char *
json_text (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

static const DynIndexInfo *
index_of (const DynTableSpec *spec,
          const char         *name)
{
  const DynIndexInfo *index = dyn_table_keys_lookup (spec->keys, name);

  g_assert_nonnull (index);
  return index;
}

/* Parsing ----------------------------------------------------------------- */

static void
test_parse_keys (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_table_spec_parse ("Movies", "year:N", "title:S", &error);
  g_autoptr(DynTableSpec) hash_only = NULL;
  DynTableSpec *bad;

  g_assert_no_error (error);
  g_assert_cmpstr (spec->keys->table.keys.partition_key, ==, "year");
  g_assert_cmpint (spec->keys->table.keys.partition_type, ==, DYN_VALUE_N);
  g_assert_cmpstr (spec->keys->table.keys.sort_key, ==, "title");
  g_assert_cmpint (spec->billing, ==, DYN_BILLING_ON_DEMAND);

  hash_only = dyn_table_spec_parse ("Products", "ProductId:B", NULL, &error);
  g_assert_no_error (error);
  g_assert_null (hash_only->keys->table.keys.sort_key);
  g_assert_cmpint (hash_only->keys->table.keys.partition_type, ==, DYN_VALUE_B);

  /* The name may hold ':' (the type is after the last one). */
  bad = dyn_table_spec_parse ("Movies", "year", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "a key is written NAME:TYPE"));
  g_clear_error (&error);
  bad = dyn_table_spec_parse ("Movies", "year:M", NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  bad = dyn_table_spec_parse ("Movies", NULL, NULL, &error);
  g_assert_null (bad);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
}

static void
test_parse_gsi (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_table_spec_parse ("Shop", "PK:S", "SK:S", &error);
  const DynIndexInfo *index;
  static const struct {
    const char *text;
    const char *message;
  } bad[] = {
    { "Five:a:S+b:S+c:S+d:S+e:S", "an index has at most 4 partition key attributes" },
    { "Five:a:S:b:S+c:S+d:S+e:S+f:S", "an index has at most 4 sort key attributes" },
    { "Twice:a:S:a:S", "the attribute a is in the key twice" },
    { "Type:a:M", "key type “M” is not S, N or B" },
    { "Bad:a", "an index is written NAME:PK:TYPE" },
    { "Bad:a:S:b", "an index is written NAME:PK:TYPE" },
    { "Bad:a:S:b:S:c:S", "an index is written NAME:PK:TYPE" },
    { "Bad:a:S:FOO", "an index is written NAME:PK:TYPE" },
    { "G!:a:S", "an index name has 3 to 255 characters" },
    { "Inc:a:S:INCLUDE=", "INCLUDE lists attribute names" },
    { "Inc:a:S:INCLUDE=x,,y", "INCLUDE lists attribute names" },
  };

  g_assert_no_error (error);
  g_assert_true (dyn_table_spec_add_gsi (spec, "GSI1:GSI1PK:S:GSI1SK:S", &error));
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByTenant:tenant:S+site:N:kind:S+seq:N:KEYS_ONLY", &error));
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByCat:cat:S:INCLUDE=name,price", &error));
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByAll:all:B:ALL", &error));
  /* An attribute named like a projection, as a sort key (it has a type). */
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByAllSort:h:S:ALL:N", &error));
  g_assert_no_error (error);

  index = index_of (spec, "GSI1");
  g_assert_cmpint (index->kind, ==, DYN_INDEX_GLOBAL);
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_ALL);
  g_assert_cmpstr (index->keys.sort_key, ==, "GSI1SK");
  index = index_of (spec, "ByTenant");
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_KEYS_ONLY);
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&index->keys), ==, 2);
  g_assert_cmpstr (dyn_key_schema_get_partition_key (&index->keys, 1, NULL), ==, "site");
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&index->keys), ==, 2);
  g_assert_cmpstr (dyn_key_schema_get_sort_key (&index->keys, 1, NULL), ==, "seq");
  index = index_of (spec, "ByCat");
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_INCLUDE);
  g_assert_cmpstrv (index->non_key_attributes, ((const char *[]) { "name", "price", NULL }));
  g_assert_null (index->keys.sort_key);
  index = index_of (spec, "ByAllSort");
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_ALL);
  g_assert_cmpstr (index->keys.sort_key, ==, "ALL");
  g_assert_cmpint (index->keys.sort_type, ==, DYN_VALUE_N);
  g_assert_true (dyn_table_spec_validate (spec, &error));
  g_assert_no_error (error);

  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      guint before = spec->keys->indexes->len;

      g_assert_false (dyn_table_spec_add_gsi (spec, bad[i].text, &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
      if (strstr (error->message, bad[i].message) == NULL)
        g_error ("%s: “%s” lacks “%s”", bad[i].text, error->message, bad[i].message);
      g_assert_cmpuint (spec->keys->indexes->len, ==, before);
      g_clear_error (&error);
    }
}

static void
test_parse_lsi (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_table_spec_parse ("Movies", "year:N", "title:S", &error);
  const DynIndexInfo *index;
  static const char * const bad[] = { "L", "Lsi:x", "Lsi:x:S:y:S", "Lsi:x:Q", "L!:x:S", "Lsi:x:S:SOME", NULL };

  g_assert_true (dyn_table_spec_add_lsi (spec, "ByRating:rating:N", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "ByGenre:genre:S:KEYS_ONLY", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "ByDirector:director:S:INCLUDE=plot,rank", &error));
  g_assert_no_error (error);
  index = index_of (spec, "ByRating");
  g_assert_cmpint (index->kind, ==, DYN_INDEX_LOCAL);
  g_assert_cmpstr (index->keys.partition_key, ==, "year");
  g_assert_cmpint (index->keys.partition_type, ==, DYN_VALUE_N);
  g_assert_cmpstr (index->keys.sort_key, ==, "rating");
  g_assert_cmpint (index->keys.sort_type, ==, DYN_VALUE_N);
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_ALL);
  index = index_of (spec, "ByGenre");
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_KEYS_ONLY);
  index = index_of (spec, "ByDirector");
  g_assert_cmpint (index->projection, ==, DYN_PROJECTION_INCLUDE);
  g_assert_cmpstrv (index->non_key_attributes, ((const char *[]) { "plot", "rank", NULL }));

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_assert_false (dyn_table_spec_add_lsi (spec, bad[i], &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
}

static void
test_parse_billing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_table_spec_parse ("Movies", "year:N", NULL, &error);
  static const char * const bad[] = { "provisioned", "provisioned:5", "provisioned:a:b", "provisioned:5:4:3",
                                      "provisioned:-1:2", "ondemand", "PAY_PER_REQUEST", NULL };

  g_assert_true (dyn_table_spec_set_billing (spec, "provisioned:5:4", &error));
  g_assert_cmpint (spec->billing, ==, DYN_BILLING_PROVISIONED);
  g_assert_cmpint (spec->read_units, ==, 5);
  g_assert_cmpint (spec->write_units, ==, 4);
  g_assert_true (dyn_table_spec_set_billing (spec, "on-demand", &error));
  g_assert_cmpint (spec->billing, ==, DYN_BILLING_ON_DEMAND);
  g_assert_cmpint (spec->read_units, ==, 0);
  g_assert_no_error (error);
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_assert_false (dyn_table_spec_set_billing (spec, bad[i], &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "on-demand or provisioned:R:W"));
      g_clear_error (&error);
    }
}

/* The CreateTable JSON, exactly: definitions once each, in key order. */
static void
test_create_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = dyn_table_spec_parse ("Orders", "pk:S", "sk:N", &error);
  g_autoptr(JsonNode) json = NULL;
  g_autofree char *text = NULL;

  g_assert_true (dyn_table_spec_add_gsi (spec, "ByTenant:tenant:S+site:N:sk:N:KEYS_ONLY", &error));
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByKind:kind:S:INCLUDE=total", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "BySite:site:N:INCLUDE=note", &error));
  g_assert_true (dyn_table_spec_set_billing (spec, "provisioned:5:4", &error));
  g_hash_table_insert (spec->index_units, g_strdup ("ByKind"), g_strdup ("3:2"));
  spec->table_class = g_strdup ("STANDARD_INFREQUENT_ACCESS");
  spec->deletion_protection = TRUE;
  spec->ttl_attribute = g_strdup ("expires");
  json = dyn_table_spec_to_create_json (spec, &error);
  g_assert_no_error (error);
  text = json_text (json);
  g_assert_cmpstr (text, ==,
    "{\"TableName\":\"Orders\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"tenant\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"site\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"kind\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":["
    "{\"IndexName\":\"ByTenant\",\"KeySchema\":[{\"AttributeName\":\"tenant\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"site\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":4}},"
    "{\"IndexName\":\"ByKind\",\"KeySchema\":[{\"AttributeName\":\"kind\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"total\"]},"
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":2}}],"
    "\"LocalSecondaryIndexes\":["
    "{\"IndexName\":\"BySite\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"site\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"note\"]}}],"
    "\"BillingMode\":\"PROVISIONED\","
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":4},"
    "\"TableClass\":\"STANDARD_INFREQUENT_ACCESS\","
    "\"DeletionProtectionEnabled\":true}");

  /* On demand: no units anywhere. */
  {
    g_autoptr(DynTableSpec) simple = dyn_table_spec_parse ("Products", "ProductId:S", NULL, &error);
    g_autoptr(JsonNode) node = dyn_table_spec_to_create_json (simple, &error);
    g_autofree char *simple_text = json_text (node);

    g_assert_cmpstr (simple_text, ==,
      "{\"TableName\":\"Products\","
      "\"AttributeDefinitions\":[{\"AttributeName\":\"ProductId\",\"AttributeType\":\"S\"}],"
      "\"KeySchema\":[{\"AttributeName\":\"ProductId\",\"KeyType\":\"HASH\"}],"
      "\"BillingMode\":\"PAY_PER_REQUEST\"}");
  }
}

/* dyn_create_table_params() parses its GSIs with the same code: the same
 * forms and refusals, no projection part. */
static void
test_create_params_shared (void)
{
  static const char * const projected[] = { "ByKind:kind:S:KEYS_ONLY", NULL };
  static const char * const multi[] = { "ByTenant:tenant:S+site:N:kind:S", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autofree char *text = NULL;

  params = dyn_create_table_params ("Orders", "pk:S", NULL, multi, &error);
  g_assert_no_error (error);
  text = json_text (params);
  g_assert_nonnull (strstr (text, "{\"AttributeName\":\"site\",\"KeyType\":\"HASH\"}"));
  refused = dyn_create_table_params ("Orders", "pk:S", NULL, projected, &error);
  g_assert_null (refused);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "an index is written NAME:PK:TYPE"));
}

/* Rules: refused before sending, and by DynamoDB Local -------------------- */

typedef void (*SpecEdit) (DynTableSpec *spec);

static void
add_gsis (DynTableSpec *spec,
          guint         n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = g_strdup_printf ("Index%02u:g%02u:S", i, i);

      g_assert_true (dyn_table_spec_add_gsi (spec, text, NULL));
    }
}

static void edit_short_name (DynTableSpec *s) { g_free (s->keys->table.name); s->keys->table.name = g_strdup ("ab"); }
static void edit_bad_name (DynTableSpec *s) { g_free (s->keys->table.name); s->keys->table.name = g_strdup ("bad name!"); }
static void edit_index_name (DynTableSpec *s)
{
  dyn_table_keys_add_index (s->keys, "G!", DYN_INDEX_GLOBAL, "g", DYN_VALUE_S, NULL, DYN_VALUE_S, DYN_PROJECTION_ALL);
}
static void edit_same_index_name (DynTableSpec *s)
{
  g_assert_true (dyn_table_spec_add_gsi (s, "Twin:g:S", NULL));
  g_assert_true (dyn_table_spec_add_lsi (s, "Twin:l:S", NULL));
}
static void edit_21_gsis (DynTableSpec *s) { add_gsis (s, 21); }
static void edit_6_lsis (DynTableSpec *s)
{
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *text = g_strdup_printf ("Local%u:l%u:S", i, i);

      g_assert_true (dyn_table_spec_add_lsi (s, text, NULL));
    }
}
static void edit_lsi_no_sort (DynTableSpec *s)
{
  g_clear_pointer (&s->keys->table.keys.sort_key, g_free);
  g_assert_true (dyn_table_spec_add_lsi (s, "ByL:l:S", NULL));
}
static void edit_lsi_other_partition (DynTableSpec *s)
{
  dyn_table_keys_add_index (s->keys, "ByOther", DYN_INDEX_LOCAL, "other", DYN_VALUE_S, "l", DYN_VALUE_S,
                            DYN_PROJECTION_ALL);
}
static void edit_lsi_key_twice (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_lsi (s, "ByPk:pk:S", NULL)); }
static void edit_type_conflict (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_gsi (s, "ByPk:pk:N", NULL)); }
static void edit_lsi_type_conflict (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_lsi (s, "BySk:g:N", NULL));
                                                       g_assert_true (dyn_table_spec_add_gsi (s, "ByG:g:S", NULL)); }
static void edit_include_twice (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_gsi (s, "ByG:g:S:INCLUDE=a,b,a", NULL)); }
static void edit_include_key (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_gsi (s, "ByG:g:S:INCLUDE=a,sk", NULL)); }
static void edit_include_own_key (DynTableSpec *s) { g_assert_true (dyn_table_spec_add_gsi (s, "ByG:g:S:h:S:INCLUDE=h", NULL)); }
static void edit_include_21 (DynTableSpec *s)
{
  g_autoptr(GString) text = g_string_new ("Wide:w:S:INCLUDE=");

  for (guint i = 0; i < 21; i++)
    g_string_append_printf (text, "%sa%u", i ? "," : "", i);
  g_assert_true (dyn_table_spec_add_gsi (s, text->str, NULL));
}
/* 20 + 20 + 20 + 20 + 20 + 1 */
static void edit_include_101 (DynTableSpec *s)
{
  for (guint k = 0; k < 6; k++)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      g_string_printf (text, "Wide%u:w%u:S:INCLUDE=", k, k);
      for (guint i = 0; i < (k < 5 ? 20 : 1); i++)
        g_string_append_printf (text, "%sa%u_%u", i ? "," : "", k, i);
      g_assert_true (dyn_table_spec_add_gsi (s, text->str, NULL));
    }
}
static void edit_non_key_keys_only (DynTableSpec *s)
{
  DynIndexInfo *index = dyn_table_keys_add_index (s->keys, "ByG", DYN_INDEX_GLOBAL, "g", DYN_VALUE_S, NULL,
                                                  DYN_VALUE_S, DYN_PROJECTION_KEYS_ONLY);

  index->non_key_attributes = g_strsplit ("a", ",", -1);
}
static void edit_zero_units (DynTableSpec *s) { g_assert_true (dyn_table_spec_set_billing (s, "provisioned:0:5", NULL)); }
static void edit_zero_index_units (DynTableSpec *s)
{
  g_assert_true (dyn_table_spec_set_billing (s, "provisioned:1:1", NULL));
  g_assert_true (dyn_table_spec_add_gsi (s, "ByG:g:S", NULL));
  g_hash_table_insert (s->index_units, g_strdup ("ByG"), g_strdup ("0:1"));
}
static void edit_on_demand_units (DynTableSpec *s) { s->read_units = 5; s->write_units = 5; }
static void edit_table_class (DynTableSpec *s) { s->table_class = g_strdup ("GLACIER"); }

typedef struct {
  const char *path;
  SpecEdit    edit;
  const char *message;     /* in our error */
  gboolean    local_refuses;
} RuleCase;

/* local_refuses: what DynamoDB Local (the oracle) does with the same request;
 * FALSE where Local accepts what AWS documents as refused (client/admin/README.md). */
static const RuleCase rule_cases[] = {
  { "table-name-short", edit_short_name, "a table name has 3 to 255 characters", TRUE },
  { "table-name-chars", edit_bad_name, "a table name has 3 to 255 characters", TRUE },
  { "index-name", edit_index_name, "“G!”: an index name has 3 to 255 characters", TRUE },
  { "index-name-twice", edit_same_index_name, "“Twin”: another index has this name", TRUE },
  { "gsis-20", edit_21_gsis, "“Index20”: a table has at most 20 global secondary indexes", TRUE },
  { "lsis-5", edit_6_lsis, "“Local5”: a table has at most 5 local secondary indexes", TRUE },
  { "lsi-needs-sort-key", edit_lsi_no_sort, "“ByL”: a local secondary index needs a table with a sort key", TRUE },
  { "lsi-partition-key", edit_lsi_other_partition, "“ByOther”: a local secondary index has the table's partition key pk", TRUE },
  { "lsi-key-twice", edit_lsi_key_twice, "“ByPk”: the attribute pk is in the key twice", TRUE },
  { "one-type", edit_type_conflict, "“ByPk”: pk is of type N here but of type S in another key", TRUE },
  { "one-type-lsi", edit_lsi_type_conflict, "“ByG”: g is of type S here but of type N in another key", TRUE },
  { "include-twice", edit_include_twice, "“ByG”: INCLUDE names a twice", TRUE },
  { "include-key", edit_include_key, "“ByG”: sk is a key attribute", FALSE },
  { "include-own-key", edit_include_own_key, "“ByG”: h is a key attribute", FALSE },
  { "include-20", edit_include_21, "“Wide”: INCLUDE lists at most 20 attributes per index", FALSE },
  { "include-100", edit_include_101, "“Wide5”: the indexes of a table project at most 100 INCLUDE attributes", TRUE },
  { "include-only", edit_non_key_keys_only, "“ByG”: only an INCLUDE projection lists attributes", TRUE },
  { "units-1", edit_zero_units, "provisioned capacity needs 1 or more read and 1 or more write units", TRUE },
  { "index-units-1", edit_zero_index_units, "“ByG”: provisioned capacity needs 1 or more read", TRUE },
  { "on-demand-units", edit_on_demand_units, "an on-demand table has no provisioned read or write units", FALSE },
  { "table-class", edit_table_class, "“GLACIER”: a table class is STANDARD or STANDARD_INFREQUENT_ACCESS", FALSE },
};

static void
test_rule (DynTestFixture *fx,
           gconstpointer   data)
{
  const RuleCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autoptr(JsonNode) raw = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autofree char *body = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);

  spec = dyn_table_spec_parse (fx->table, "pk:S", "sk:S", &error);
  g_assert_no_error (error);
  c->edit (spec);

  /* Refused before sending, naming the index and the rule. */
  g_assert_false (dyn_table_spec_validate (spec, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  if (strstr (error->message, c->message) == NULL)
    g_error ("%s: “%s” lacks “%s”", c->path, error->message, c->message);
  g_clear_error (&error);
  refused = dyn_table_spec_to_create_json (spec, &error);
  g_assert_null (refused);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* The oracle: the same request, sent as it is. */
  raw = _dyn_table_spec_build_json (spec);
  body = json_text (raw);
  response = dyn_test_call (fx->client, "CreateTable", body, &error);
  if (c->local_refuses)
    {
      if (response != NULL)
        {
          g_autoptr(GError) ignored = NULL;

          dyn_test_delete_table (fx->client, spec->keys->table.name, &ignored);
          g_error ("%s: DynamoDB Local accepted %s", c->path, body);
        }
      dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
      g_test_message ("%s: DynamoDB Local: %s", c->path, error->message);
    }
  else
    {
      g_assert_no_error (error);
      g_test_message ("%s: DynamoDB Local accepts it (client/admin/README.md says why the rule stays)", c->path);
      dyn_test_delete_table (fx->client, spec->keys->table.name, NULL);
    }
}

/* Create, describe ---------------------------------------------------------- */

static DynTableInfo *
load_info (DynClient  *client,
           const char *table)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DynTableInfo *info;

  dyn_table_info_load_async (client, table, NULL, dyn_test_result_cb, &result);
  info = dyn_table_info_load_finish (dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  return info;
}

static void
create_from_spec (DynTestFixture *fx,
                  DynTableSpec   *spec)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_table_create_async (fx->client, spec, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_table_create_finish (dyn_test_wait (&result), &error));
  g_assert_no_error (error);
  fx->created = TRUE;
}

static JsonObject *
find_index (JsonObject *table,
            const char *member,
            const char *name)
{
  JsonArray *indexes = json_object_get_array_member (table, member);

  for (guint i = 0; i < json_array_get_length (indexes); i++)
    {
      JsonObject *index = json_array_get_object_element (indexes, i);

      if (g_str_equal (json_object_get_string_member (index, "IndexName"), name))
        return index;
    }
  g_error ("no index %s in %s", name, member);
  return NULL;
}

static char *
member_text (JsonObject *obj,
             const char *member)
{
  JsonNode *node = json_object_get_member (obj, member);

  g_assert_nonnull (node);
  return json_to_string (node, FALSE);
}

static const DynIndexStatus *
status_of (const DynTableInfo *info,
           const char         *name)
{
  for (guint i = 0; i < info->indexes->len; i++)
    {
      const DynIndexStatus *index = info->indexes->pdata[i];

      if (g_str_equal (index->name, name))
        return index;
    }
  return NULL;
}

/* A numeric sort key, 2 GSIs (one multi-attribute), 2 LSIs with KEYS_ONLY
 * and INCLUDE, provisioned units, TTL: what DescribeTable says matches the
 * spec, and so does the DynTableInfo read from it. */
static void
test_create_full (DynTestFixture *fx,
                  gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(DynResponse) described = NULL;
  g_autoptr(DynResponse) ttl = NULL;
  g_autoptr(DynTableInfo) info = NULL;
  g_autofree char *text = NULL, *count = NULL;
  JsonObject *table, *index;
  const DynIndexStatus *status;

  DYN_TEST_REQUIRE_SERVER (fx);

  spec = dyn_table_spec_parse (fx->table, "year:N", "title:S", &error);
  g_assert_no_error (error);
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByStudio:studio:S+country:S:released:N+title:S:KEYS_ONLY", &error));
  g_assert_true (dyn_table_spec_add_gsi (spec, "ByGenre:genre:S:INCLUDE=plot,rank", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "ByRating:rating:N:KEYS_ONLY", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "ByDirector:director:S:INCLUDE=plot", &error));
  g_assert_true (dyn_table_spec_set_billing (spec, "provisioned:5:4", &error));
  g_hash_table_insert (spec->index_units, g_strdup ("ByGenre"), g_strdup ("3:2"));
  spec->ttl_attribute = g_strdup ("expires");
  g_assert_no_error (error);
  create_from_spec (fx, spec);

  described = dyn_test_callf (fx->client, "DescribeTable", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  table = json_object_get_object_member (json_node_get_object (described->root), "Table");
  g_assert_cmpstr (json_object_get_string_member (table, "TableStatus"), ==, "ACTIVE");
  text = member_text (table, "KeySchema");
  g_assert_cmpstr (text, ==, "[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},"
                             "{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}]");
  g_clear_pointer (&text, g_free);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (table, "AttributeDefinitions")), ==, 8);
  index = find_index (table, "GlobalSecondaryIndexes", "ByStudio");
  text = member_text (index, "KeySchema");
  g_assert_cmpstr (text, ==, "[{\"AttributeName\":\"studio\",\"KeyType\":\"HASH\"},"
                             "{\"AttributeName\":\"country\",\"KeyType\":\"HASH\"},"
                             "{\"AttributeName\":\"released\",\"KeyType\":\"RANGE\"},"
                             "{\"AttributeName\":\"title\",\"KeyType\":\"RANGE\"}]");
  g_clear_pointer (&text, g_free);
  text = member_text (index, "Projection");
  g_assert_cmpstr (text, ==, "{\"ProjectionType\":\"KEYS_ONLY\"}");
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (index, "ProvisionedThroughput"),
                                               "ReadCapacityUnits"), ==, 5);
  index = find_index (table, "GlobalSecondaryIndexes", "ByGenre");
  text = member_text (index, "Projection");
  g_assert_cmpstr (text, ==, "{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"plot\",\"rank\"]}");
  g_clear_pointer (&text, g_free);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (index, "ProvisionedThroughput"),
                                               "WriteCapacityUnits"), ==, 2);
  index = find_index (table, "LocalSecondaryIndexes", "ByRating");
  text = member_text (index, "KeySchema");
  g_assert_cmpstr (text, ==, "[{\"AttributeName\":\"year\",\"KeyType\":\"HASH\"},"
                             "{\"AttributeName\":\"rating\",\"KeyType\":\"RANGE\"}]");
  g_clear_pointer (&text, g_free);
  text = member_text (index, "Projection");
  g_assert_cmpstr (text, ==, "{\"ProjectionType\":\"KEYS_ONLY\"}");
  g_clear_pointer (&text, g_free);
  index = find_index (table, "LocalSecondaryIndexes", "ByDirector");
  text = member_text (index, "Projection");
  g_assert_cmpstr (text, ==, "{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"plot\"]}");
  g_clear_pointer (&text, g_free);
  text = member_text (table, "ProvisionedThroughput");
  g_assert_nonnull (strstr (text, "\"ReadCapacityUnits\":5"));
  g_assert_nonnull (strstr (text, "\"WriteCapacityUnits\":4"));
  g_clear_pointer (&text, g_free);

  ttl = dyn_test_callf (fx->client, "DescribeTimeToLive", &error, "{\"TableName\":\"%s\"}", fx->table);
  g_assert_no_error (error);
  text = json_to_string (ttl->root, FALSE);
  g_assert_cmpstr (text, ==, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLED\",\"AttributeName\":\"expires\"}}");
  g_clear_pointer (&text, g_free);

  /* The same, as DynTableInfo. */
  info = load_info (fx->client, fx->table);
  g_assert_cmpstr (info->name, ==, fx->table);
  g_assert_cmpstr (info->status, ==, "ACTIVE");
  g_assert_cmpint (info->billing, ==, DYN_BILLING_PROVISIONED);
  g_assert_cmpint (info->read_units, ==, 5);
  g_assert_cmpint (info->write_units, ==, 4);
  g_assert_cmpint (info->item_count, ==, 0);
  g_assert_nonnull (info->created);
  g_assert_nonnull (info->arn);
  g_assert_cmpstr (info->ttl_status, ==, "ENABLED");
  g_assert_cmpstr (info->ttl_attribute, ==, "expires");
  g_assert_cmpuint (info->indexes->len, ==, 4);
  /* GSIs then LSIs. */
  g_assert_cmpint (((DynIndexStatus *) info->indexes->pdata[0])->kind, ==, DYN_INDEX_GLOBAL);
  g_assert_cmpint (((DynIndexStatus *) info->indexes->pdata[3])->kind, ==, DYN_INDEX_LOCAL);
  status = status_of (info, "ByStudio");
  g_assert_cmpstr (status->status, ==, "ACTIVE");
  g_assert_false (status->backfilling);
  g_assert_cmpint (status->projection, ==, DYN_PROJECTION_KEYS_ONLY);
  g_assert_cmpuint (dyn_key_schema_get_n_partition_keys (&status->keys), ==, 2);
  g_assert_cmpuint (dyn_key_schema_get_n_sort_keys (&status->keys), ==, 2);
  g_assert_cmpint (status->read_units, ==, 5);
  status = status_of (info, "ByGenre");
  g_assert_cmpint (status->projection, ==, DYN_PROJECTION_INCLUDE);
  g_assert_cmpstrv (status->non_key_attributes, ((const char *[]) { "plot", "rank", NULL }));
  g_assert_cmpint (status->read_units, ==, 3);
  g_assert_cmpint (status->write_units, ==, 2);
  status = status_of (info, "ByRating");
  g_assert_cmpint (status->kind, ==, DYN_INDEX_LOCAL);
  g_assert_cmpstr (status->status, ==, "ACTIVE");
  g_assert_cmpint (status->projection, ==, DYN_PROJECTION_KEYS_ONLY);
  g_assert_cmpint (status->read_units, ==, 0);

  count = dyn_table_info_describe_count (info);
  g_assert_cmpstr (count, ==, "About 0 items (DynamoDB updates this count about every six hours; "
                              "an exact count scans the table)");
  text = dyn_table_info_to_text (info);
  g_assert_nonnull (strstr (text, "Status: ACTIVE\n"));
  g_assert_nonnull (strstr (text, "Partition key: year (N)\n"));
  g_assert_nonnull (strstr (text, "Sort key: title (S)\n"));
  g_assert_nonnull (strstr (text, "Capacity: provisioned, 5 read and 4 write units\n"));
  g_assert_nonnull (strstr (text, "Time to live: expires (ENABLED)\n"));
  g_assert_nonnull (strstr (text, "Global index ByStudio: studio (S) + country (S); released (N) + title (S)\n"));
  g_assert_nonnull (strstr (text, "  Projection: INCLUDE plot, rank; Status: ACTIVE;"));
  g_assert_nonnull (strstr (text, "Local index ByRating: year (N); rating (N)\n"));
}

/* The count and the text in German and Turkish. */
static void
test_info_translated (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = json_from_string (
        "{\"TableName\":\"Products\",\"TableStatus\":\"ACTIVE\",\"ItemCount\":1234,\"TableSizeBytes\":2048,"
        "\"KeySchema\":[{\"AttributeName\":\"ProductId\",\"KeyType\":\"HASH\"}],"
        "\"AttributeDefinitions\":[{\"AttributeName\":\"ProductId\",\"AttributeType\":\"B\"}],"
        "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":2,\"WriteCapacityUnits\":1}}", &error);
      g_autoptr(DynTableInfo) info = NULL;
      g_autofree char *count = NULL, *text = NULL;

      g_assert_no_error (error);
      dyn_test_use_translations (g_getenv ("ADMIN_TEST_LANG"));
      info = dyn_table_info_new_from_json (json_node_get_object (root), NULL, &error);
      g_assert_no_error (error);
      /* No BillingModeSummary: PROVISIONED. */
      g_assert_cmpint (info->billing, ==, DYN_BILLING_PROVISIONED);
      g_assert_null (info->created);
      count = dyn_table_info_describe_count (info);
      text = dyn_table_info_to_text (info);
      g_print ("%s\n%s", count, text);
      return;
    }
  g_setenv ("ADMIN_TEST_LANG", "de", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*Etwa 1*234 Elemente (DynamoDB aktualisiert diese Zahl etwa alle sechs Stunden*");
  g_test_trap_assert_stdout ("*Kapazität: bereitgestellt, 2 Lese- und 1 Schreibeinheiten*");
  g_setenv ("ADMIN_TEST_LANG", "tr", TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*Yaklaşık 1*234 öğe (DynamoDB bu sayıyı yaklaşık altı saatte bir günceller*");
}

/* UpdateTable: a GSI on a hash-only table with items ---------------------- */

typedef struct {
  GPtrArray *seen;   /* "STATUS[/backfilling]" of the new index, each change */
  const char *index;
} Seen;

static void
record_progress_cb (const DynTableInfo *info,
                    gpointer            user_data)
{
  Seen *seen = user_data;
  const DynIndexStatus *index = status_of (info, seen->index);
  g_autofree char *state = index == NULL ? g_strdup ("absent")
                                         : g_strdup_printf ("%s%s", index->status,
                                                            index->backfilling ? "/backfilling" : "");

  if (seen->seen->len == 0 || !g_str_equal (g_ptr_array_index (seen->seen, seen->seen->len - 1), state))
    g_ptr_array_add (seen->seen, g_steal_pointer (&state));
}

static void
wait_active (DynTestFixture *fx,
             Seen           *seen)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  dyn_table_wait_async (fx->client, fx->table, DYN_TABLE_WAIT_ACTIVE, 50, record_progress_cb, seen, NULL,
                        dyn_test_result_cb, &result);
  ok = dyn_table_wait_finish (dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
test_gsi_add_delete (DynTestFixture *fx,
                     gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(DynTableInfo) info = NULL;
  g_autoptr(DynTableInfo) after = NULL;
  g_autoptr(DynTableInfo) gone = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynResponse) query = NULL;
  g_autoptr(GPtrArray) seen_states = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL, *expected = NULL;
  Seen seen = { seen_states, "ByCategory" };
  const DynIndexStatus *status;

  DYN_TEST_REQUIRE_SERVER (fx);

  /* Hash-only, a numeric key, no '#' in any value. */
  spec = dyn_table_spec_parse (fx->table, "id:N", NULL, &error);
  g_assert_no_error (error);
  create_from_spec (fx, spec);
  for (guint i = 0; i < 300; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"N\":\"%u\"},\"category\":{\"S\":\"c%u\"},"
                                            "\"price\":{\"N\":\"%u.5\"},\"name\":{\"S\":\"n%u\"}}",
                                            i, i % 7, i, i));
  g_assert_true (dyn_test_load_items (fx->client, fx->table, items, &error));
  g_assert_no_error (error);

  info = load_info (fx->client, fx->table);
  g_assert_null (info->keys->table.keys.sort_key);

  /* Refused before sending: a type other than the table's for id, an index name taken twice. */
  refused = dyn_table_add_gsi_params (info, "ById:id:S", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "“ById”: id is of type S here but of type N in another key"));
  g_clear_error (&error);
  /* … and by DynamoDB Local. */
  response = dyn_test_callf (fx->client, "UpdateTable", &error,
                             "{\"TableName\":\"%s\",\"AttributeDefinitions\":[{\"AttributeName\":\"id\","
                             "\"AttributeType\":\"S\"}],\"GlobalSecondaryIndexUpdates\":[{\"Create\":{"
                             "\"IndexName\":\"ById\",\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
                             "\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}", fx->table);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  g_clear_error (&error);

  params = dyn_table_add_gsi_params (info, "ByCategory:category:S:price:N:INCLUDE=name", &error);
  g_assert_no_error (error);
  text = json_text (params);
  expected = g_strdup_printf (
    "{\"TableName\":\"%s\",\"AttributeDefinitions\":[{\"AttributeName\":\"category\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"price\",\"AttributeType\":\"N\"}],\"GlobalSecondaryIndexUpdates\":[{\"Create\":{"
    "\"IndexName\":\"ByCategory\",\"KeySchema\":[{\"AttributeName\":\"category\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"price\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"INCLUDE\","
    "\"NonKeyAttributes\":[\"name\"]}}}]}", fx->table);
  g_assert_cmpstr (text, ==, expected);
  response = dyn_test_call (fx->client, "UpdateTable", text, &error);
  g_assert_no_error (error);
  wait_active (fx, &seen);
  for (guint i = 0; i < seen_states->len; i++)
    g_test_message ("ByCategory: %s", (char *) seen_states->pdata[i]);
  /* What the wait saw last: the index ACTIVE, not backfilling. */
  g_assert_cmpstr (g_ptr_array_index (seen_states, seen_states->len - 1), ==, "ACTIVE");

  after = load_info (fx->client, fx->table);
  status = status_of (after, "ByCategory");
  g_assert_nonnull (status);
  g_assert_cmpint (status->projection, ==, DYN_PROJECTION_INCLUDE);
  query = dyn_test_callf (fx->client, "Query", &error,
                          "{\"TableName\":\"%s\",\"IndexName\":\"ByCategory\",\"KeyConditionExpression\":"
                          "\"category = :c\",\"ExpressionAttributeValues\":{\":c\":{\"S\":\"c3\"}},"
                          "\"Select\":\"COUNT\"}", fx->table);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (query->root), "Count"), ==, 43);

  /* The same name again: refused before sending. */
  g_clear_pointer (&refused, json_node_unref);
  refused = dyn_table_add_gsi_params (after, "ByCategory:name:S", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "“ByCategory”: another index has this name"));
  g_clear_error (&error);

  /* Delete: an unknown index is refused, by us and by Local. */
  g_clear_pointer (&refused, json_node_unref);
  refused = dyn_table_delete_gsi_params (after, "NoSuchIndex", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "“NoSuchIndex”: the table"));
  g_clear_error (&error);
  g_clear_pointer (&response, dyn_response_free);
  response = dyn_test_callf (fx->client, "UpdateTable", &error,
                             "{\"TableName\":\"%s\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{"
                             "\"IndexName\":\"NoSuchIndex\"}}]}", fx->table);
  g_assert_null (response);
  g_assert_nonnull (error);
  g_test_message ("delete of an unknown GSI, DynamoDB Local: %s", error->message);
  g_clear_error (&error);

  g_clear_pointer (&params, json_node_unref);
  params = dyn_table_delete_gsi_params (after, "ByCategory", &error);
  g_assert_no_error (error);
  g_clear_pointer (&text, g_free);
  text = json_text (params);
  g_clear_pointer (&response, dyn_response_free);
  response = dyn_test_call (fx->client, "UpdateTable", text, &error);
  g_assert_no_error (error);
  g_ptr_array_set_size (seen_states, 0);
  wait_active (fx, &seen);
  g_assert_cmpstr (g_ptr_array_index (seen_states, seen_states->len - 1), ==, "absent");
  gone = load_info (fx->client, fx->table);
  g_assert_cmpuint (gone->indexes->len, ==, 0);
}

/* A provisioned table: the new GSI gets units; without them Local refuses. */
static void
test_gsi_add_provisioned (DynTestFixture *fx,
                          gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(DynTableInfo) info = NULL;
  g_autoptr(DynTableInfo) after = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynResponse) bare = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) seen_states = g_ptr_array_new_with_free_func (g_free);
  Seen seen = { seen_states, "ByGenre" };
  JsonObject *create;

  DYN_TEST_REQUIRE_SERVER (fx);

  spec = dyn_table_spec_parse (fx->table, "year:N", "title:S", &error);
  g_assert_true (dyn_table_spec_set_billing (spec, "provisioned:2:3", &error));
  g_assert_true (dyn_table_spec_add_lsi (spec, "ByRating:rating:N", &error));
  create_from_spec (fx, spec);
  info = load_info (fx->client, fx->table);
  g_assert_cmpint (info->billing, ==, DYN_BILLING_PROVISIONED);

  params = dyn_table_add_gsi_params (info, "ByGenre:genre:S", &error);
  g_assert_no_error (error);
  create = json_object_get_object_member (
    json_array_get_object_element (json_object_get_array_member (json_node_get_object (params),
                                                                 "GlobalSecondaryIndexUpdates"), 0), "Create");
  text = member_text (create, "ProvisionedThroughput");
  g_assert_cmpstr (text, ==, "{\"ReadCapacityUnits\":2,\"WriteCapacityUnits\":3}");

  /* The oracle: without its units the same request is refused. */
  json_object_remove_member (create, "ProvisionedThroughput");
  g_clear_pointer (&text, g_free);
  text = json_text (params);
  bare = dyn_test_call (fx->client, "UpdateTable", text, &error);
  g_assert_null (bare);
  /* AWS says ValidationException; DynamoDB Local fails with InternalFailure (a 500). */
  g_assert_nonnull (error);
  g_test_message ("a GSI without units on a provisioned table, DynamoDB Local: %s", error->message);
  g_clear_error (&error);

  g_clear_pointer (&params, json_node_unref);
  params = dyn_table_add_gsi_params (info, "ByGenre:genre:S", &error);
  g_clear_pointer (&text, g_free);
  text = json_text (params);
  response = dyn_test_call (fx->client, "UpdateTable", text, &error);
  g_assert_no_error (error);
  wait_active (fx, &seen);
  after = load_info (fx->client, fx->table);
  g_assert_cmpint (status_of (after, "ByGenre")->read_units, ==, 2);

  /* An LSI cannot be deleted. */
  g_clear_pointer (&params, json_node_unref);
  params = dyn_table_delete_gsi_params (after, "ByRating", &error);
  g_assert_null (params);
  g_assert_nonnull (strstr (error->message, "“ByRating”: a local secondary index cannot be deleted"));
}

/* TTL on and off ------------------------------------------------------------ */

static void
update_ttl (DynTestFixture *fx,
            JsonNode       *params)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = json_text (params);
  g_autoptr(DynResponse) response = dyn_test_call (fx->client, "UpdateTimeToLive", text, &error);

  g_assert_no_error (error);
}

static void
test_ttl (DynTestFixture *fx,
          gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableInfo) off = NULL;
  g_autoptr(DynTableInfo) on = NULL;
  g_autoptr(DynTableInfo) off_again = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(JsonNode) refused = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autofree char *text = NULL, *expected = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);

  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);
  off = load_info (fx->client, fx->table);
  g_assert_cmpstr (off->ttl_status, ==, "DISABLED");

  /* Disabling when none is on: refused. */
  refused = dyn_table_ttl_params (off, NULL, &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "time to live is not on; there is nothing to turn off"));
  g_clear_error (&error);
  /* An empty attribute: refused by us and by Local. */
  refused = dyn_table_ttl_params (off, "", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "the TTL attribute's name has 1 to 255 bytes"));
  g_clear_error (&error);
  response = dyn_test_callf (fx->client, "UpdateTimeToLive", &error,
                             "{\"TableName\":\"%s\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
                             "\"AttributeName\":\"\"}}", fx->table);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  g_clear_error (&error);

  params = dyn_table_ttl_params (off, "expires_at", &error);
  g_assert_no_error (error);
  text = json_text (params);
  expected = g_strdup_printf ("{\"TableName\":\"%s\",\"TimeToLiveSpecification\":"
                              "{\"Enabled\":true,\"AttributeName\":\"expires_at\"}}", fx->table);
  g_assert_cmpstr (text, ==, expected);
  update_ttl (fx, params);
  on = load_info (fx->client, fx->table);
  g_assert_cmpstr (on->ttl_status, ==, "ENABLED");
  g_assert_cmpstr (on->ttl_attribute, ==, "expires_at");

  /* On already: refused by us, and by Local. */
  refused = dyn_table_ttl_params (on, "other", &error);
  g_assert_null (refused);
  g_assert_nonnull (strstr (error->message, "time to live is already on, on expires_at"));
  g_clear_error (&error);
  response = dyn_test_callf (fx->client, "UpdateTimeToLive", &error,
                             "{\"TableName\":\"%s\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
                             "\"AttributeName\":\"other\"}}", fx->table);
  g_assert_null (response);
  dyn_test_assert_service_error (error, DYN_ERROR_VALIDATION, "ValidationException");
  g_clear_error (&error);

  g_clear_pointer (&params, json_node_unref);
  params = dyn_table_ttl_params (on, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&text, g_free);
  text = json_text (params);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("{\"TableName\":\"%s\",\"TimeToLiveSpecification\":"
                              "{\"Enabled\":false,\"AttributeName\":\"expires_at\"}}", fx->table);
  g_assert_cmpstr (text, ==, expected);
  update_ttl (fx, params);
  off_again = load_info (fx->client, fx->table);
  g_assert_cmpstr (off_again->ttl_status, ==, "DISABLED");
}

/* Delete ------------------------------------------------------------------ */

static void
test_delete (DynTestFixture *fx,
             gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) wrong = NULL;
  g_autoptr(GAsyncResult) none = NULL;
  g_autoptr(GAsyncResult) right = NULL;
  g_autoptr(GAsyncResult) gone = NULL;
  g_autoptr(DynTableInfo) still = NULL;
  g_autofree char *upper = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);

  dyn_test_fixture_create_table (fx, "pk:S", NULL, NULL);

  upper = g_ascii_strup (fx->table, -1);
  dyn_table_delete_async (fx->client, fx->table, upper, NULL, dyn_test_result_cb, &wrong);
  g_assert_false (dyn_table_delete_finish (dyn_test_wait (&wrong), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "is not the table's name"));
  g_clear_error (&error);
  dyn_table_delete_async (fx->client, fx->table, NULL, NULL, dyn_test_result_cb, &none);
  g_assert_false (dyn_table_delete_finish (dyn_test_wait (&none), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  still = load_info (fx->client, fx->table);
  g_assert_cmpstr (still->status, ==, "ACTIVE");

  dyn_table_delete_async (fx->client, fx->table, fx->table, NULL, dyn_test_result_cb, &right);
  g_assert_true (dyn_table_delete_finish (dyn_test_wait (&right), &error));
  g_assert_no_error (error);
  fx->created = FALSE;
  dyn_table_info_load_async (fx->client, fx->table, NULL, dyn_test_result_cb, &gone);
  g_assert_null (dyn_table_info_load_finish (dyn_test_wait (&gone), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND);
}

/* Deletion protection: DeleteTable refused until it is off. */
static void
test_deletion_protection (DynTestFixture *fx,
                          gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynTableSpec) spec = NULL;
  g_autoptr(DynTableInfo) info = NULL;
  g_autoptr(GAsyncResult) refused = NULL;
  g_autoptr(DynResponse) off = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);

  spec = dyn_table_spec_parse (fx->table, "pk:S", NULL, &error);
  spec->deletion_protection = TRUE;
  spec->table_class = g_strdup ("STANDARD_INFREQUENT_ACCESS");
  create_from_spec (fx, spec);
  info = load_info (fx->client, fx->table);
  g_assert_true (info->deletion_protection);
  g_test_message ("table class on DynamoDB Local: %s", info->table_class);

  dyn_table_delete_async (fx->client, fx->table, fx->table, NULL, dyn_test_result_cb, &refused);
  g_assert_false (dyn_table_delete_finish (dyn_test_wait (&refused), &error));
  g_assert_nonnull (error);
  g_test_message ("DeleteTable with deletion protection: %s", error->message);
  g_clear_error (&error);
  off = dyn_test_callf (fx->client, "UpdateTable", &error,
                        "{\"TableName\":\"%s\",\"DeletionProtectionEnabled\":false}", fx->table);
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/table-admin/parse/keys", test_parse_keys);
  g_test_add_func ("/table-admin/parse/gsi", test_parse_gsi);
  g_test_add_func ("/table-admin/parse/lsi", test_parse_lsi);
  g_test_add_func ("/table-admin/parse/billing", test_parse_billing);
  g_test_add_func ("/table-admin/create-json", test_create_json);
  g_test_add_func ("/table-admin/create-params-shared", test_create_params_shared);
  g_test_add_func ("/table-admin/info/translated", test_info_translated);

  for (gsize i = 0; i < G_N_ELEMENTS (rule_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/table-admin/rule/%s", rule_cases[i].path);

      g_test_add (path, DynTestFixture, &rule_cases[i], fixture_setup, test_rule, dyn_test_fixture_teardown);
    }

#define ADD(path, func) \
  g_test_add ("/table-admin/" path, DynTestFixture, NULL, fixture_setup, func, dyn_test_fixture_teardown)

  ADD ("create/full", test_create_full);
  ADD ("gsi/add-delete", test_gsi_add_delete);
  ADD ("gsi/add-provisioned", test_gsi_add_provisioned);
  ADD ("ttl", test_ttl);
  ADD ("delete/confirm", test_delete);
  ADD ("delete/protection", test_deletion_protection);

#undef ADD

  return g_test_run ();
}
