/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pager's max items against a real DynamoDB Local: what Limit it sends,
 * where it stops, and that the last page's surplus is neither lost nor repeated. */
#include "config.h"

#include <string.h>

#include "dyn-test-util.h"

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "pager");
}

/* @n items "pk" = @pk, "sk" = 0…n-1, "even" on every other one. */
static void
load_numbered (DynTestFixture *fx,
               const char     *pk,
               guint           n)
{
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"pk\":{\"S\":\"%s\"},\"sk\":{\"N\":\"%u\"},\"even\":{\"BOOL\":%s}}",
                                            pk, i, i % 2 == 0 ? "true" : "false"));
  dyn_test_load_items (fx->client, fx->table, items, &error);
  g_assert_no_error (error);
}

static DynRequest *
query_pk (DynTestFixture *fx,
          const char     *pk)
{
  DynRequest *request = dyn_request_new (DYN_OP_QUERY, fx->table);
  g_autoptr(DynValue) v = dyn_value_new_string (pk);

  request->key_condition = g_strdup ("#pk = :pk");
  dyn_request_add_name (request, "#pk", "pk");
  dyn_request_add_value (request, ":pk", v);
  return request;
}

static void
add_filter_even (DynRequest *request)
{
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);

  request->filter = g_strdup ("even = :yes");
  dyn_request_add_value (request, ":yes", yes);
}

static void
append_sks (GString   *s,
            GPtrArray *items)
{
  for (guint i = 0; i < items->len; i++)
    g_string_append_printf (s, "%s ", dyn_test_item_get_number (items->pdata[i], "sk"));
}

/* With a filter one full page holds every match: a max of 3 hands out 3 and
 * holds the rest, which come out, in order, once the max is raised — without
 * another request. */
static void
test_filter_holds_surplus (DynTestFixture *fx,
                           gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  g_autofree char *summary = NULL;
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);
  load_numbered (fx, "p", 25);

  request = query_pk (fx, "p");
  add_filter_even (request);
  pager = dyn_pager_new (fx->client, request);
  dyn_pager_set_max_items (pager, 3);
  g_assert_cmpuint (dyn_pager_get_max_items (pager), ==, 3);

  {
    g_autoptr(GPtrArray) page = dyn_test_pager_next (pager, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->len, ==, 3);
    append_sks (got, page);
  }
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->requests, ==, 1);
  g_assert_cmpuint (stats->items, ==, 13);
  g_assert_cmpuint (stats->surplus, ==, 10);
  g_assert_true (dyn_pager_is_full (pager));
  g_assert_false (dyn_pager_is_done (pager));
  summary = dyn_read_stats_describe (stats, "Query");
  g_assert_nonnull (strstr (summary, "· 3 items (25 scanned, 10 more read)"));

  /* Full: no request. */
  {
    g_autoptr(GPtrArray) page = dyn_test_pager_next (pager, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->len, ==, 0);
    g_assert_cmpuint (stats->requests, ==, 1);
  }

  dyn_pager_set_max_items (pager, 8);
  {
    g_autoptr(GPtrArray) page = dyn_test_pager_next (pager, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->len, ==, 5);
    append_sks (got, page);
  }
  dyn_pager_set_max_items (pager, 0);
  {
    g_autoptr(GPtrArray) rest = dyn_test_pager_run (pager, 1, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (rest->len, ==, 5);
    append_sks (got, rest);
  }
  g_assert_cmpstr (got->str, ==, "0 2 4 6 8 10 12 14 16 18 20 22 24 ");
  g_assert_cmpuint (stats->requests, ==, 1);
  g_assert_cmpuint (stats->surplus, ==, 0);
  g_assert_true (dyn_pager_is_done (pager));
}

/* Without a filter each request asks for what is still wanted, capped by
 * the page size, and a single-lane run resumes where the max stopped it. */
static void
test_no_filter_limit (DynTestFixture *fx,
                      gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GString) got = g_string_new (NULL);
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);
  load_numbered (fx, "p", 25);

  request = query_pk (fx, "p");
  request->limit = 4;                      /* the page size */
  pager = dyn_pager_new (fx->client, request);
  stats = dyn_pager_get_stats (pager);

  {
    g_autoptr(GPtrArray) items = dyn_test_pager_run (pager, 1, 6, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (items->len, ==, 6);   /* 4, then 2: Limit never more than wanted */
    append_sks (got, items);
  }
  g_assert_cmpuint (stats->requests, ==, 2);
  g_assert_cmpuint (stats->scanned, ==, 6);
  g_assert_cmpuint (stats->surplus, ==, 0);
  g_assert_false (dyn_pager_is_done (pager));
  g_assert_nonnull (dyn_pager_get_last_key (pager));
  /* The request keeps its own Limit. */
  g_assert_cmpint (dyn_pager_get_request (pager)->limit, ==, 4);

  dyn_pager_set_max_items (pager, 7);
  {
    g_autoptr(GPtrArray) page = dyn_test_pager_next (pager, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (page->len, ==, 1);
    append_sks (got, page);
  }
  g_assert_cmpuint (stats->requests, ==, 3);
  g_assert_cmpuint (stats->scanned, ==, 7);
  g_assert_cmpstr (got->str, ==, "0 1 2 3 4 5 6 ");
}

/* Parallel segments with a filter: full pages, exactly the items wanted. */
static void
test_segments (DynTestFixture *fx,
               gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) items = NULL;
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);
  load_numbered (fx, "p", 40);
  load_numbered (fx, "q", 40);

  request = dyn_request_new (DYN_OP_SCAN, fx->table);
  add_filter_even (request);
  pager = dyn_pager_new (fx->client, request);
  items = dyn_test_pager_run (pager, 4, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 3);
  stats = dyn_pager_get_stats (pager);
  /* One full page per segment at most: 80 small items fit in one. */
  g_assert_cmpuint (stats->requests, <=, 4);
  g_assert_cmpuint (stats->items - stats->surplus, ==, 3);
  for (guint i = 0; i < items->len; i++)
    g_assert_true (dyn_value_get_bool (dyn_value_map_lookup (items->pdata[i], "even")));
}

/* Over shards, each shard reads at most max items, and the merge keeps the
 * first max by sort key. */
static void
test_fan_out (DynTestFixture *fx,
              gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) shards = dyn_test_item_array_new ();
  g_autoptr(GString) got = g_string_new (NULL);
  const DynReadStats *stats;

  DYN_TEST_REQUIRE_SERVER (fx);
  dyn_test_fixture_create_table (fx, "pk:S", "sk:N", NULL);
  load_numbered (fx, "p", 30);
  load_numbered (fx, "q", 3);

  request = query_pk (fx, "-");
  request->scan_forward = FALSE;
  g_ptr_array_add (shards, dyn_value_new_string ("p"));
  g_ptr_array_add (shards, dyn_value_new_string ("q"));
  pager = dyn_pager_new_fan_out (fx->client, request, ":pk", shards, "sk");
  items = dyn_test_pager_run (pager, 1, 4, &error);
  g_assert_no_error (error);
  append_sks (got, items);
  g_assert_cmpstr (got->str, ==, "29 28 27 26 ");
  stats = dyn_pager_get_stats (pager);
  g_assert_cmpuint (stats->requests, ==, 2);
  g_assert_cmpuint (stats->scanned, ==, 4 + 3);
  g_assert_cmpuint (stats->surplus, ==, 3);
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

#define ADD(path, func) \
  g_test_add ("/dyn/pager/" path, DynTestFixture, NULL, fixture_setup, func, dyn_test_fixture_teardown)
  ADD ("max-items/filter-holds-surplus", test_filter_holds_surplus);
  ADD ("max-items/no-filter-limit", test_no_filter_limit);
  ADD ("max-items/segments", test_segments);
  ADD ("max-items/fan-out", test_fan_out);
#undef ADD

  return g_test_run ();
}
