/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-item-outline"
#include "config.h"

#include <string.h>

#include "dyn-diff.h"
#include "dyn-edit-session.h"
#include "dyn-error.h"
#include "dyn-item-outline.h"
#include "dyn-test-util.h"

/* The detail tree without GTK: the order it lists an item's members in
 * (keys first), what each value shows (binary previews, empty values unlike
 * missing ones, numbers exact), and in-place editing at a document path
 * through the edit session — staged with its guard, types kept, invalid
 * text refused with nothing staged — committed to DynamoDB Local and read
 * back. */

static DynTableKeys *
movie_keys (void)
{
  DynTableKeys *keys = dyn_table_keys_new ("Movies", "year", DYN_VALUE_N, "title", DYN_VALUE_S);

  dyn_table_keys_add_index (keys, "ByGenre", DYN_INDEX_GLOBAL, "genre", DYN_VALUE_S, "rating", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  /* Another index on the table's own sort key and the rating again. */
  dyn_table_keys_add_index (keys, "ByTitle", DYN_INDEX_GLOBAL, "title", DYN_VALUE_S, "rating", DYN_VALUE_N,
                            DYN_PROJECTION_KEYS_ONLY);
  return keys;
}

static char **
ordered_names (const DynValue     *map,
               const DynTableKeys *keys)
{
  g_autoptr(GArray) order = dyn_outline_order (map, keys);
  GPtrArray *names = g_ptr_array_new ();

  g_assert_cmpuint (order->len, ==, dyn_value_get_length (map));
  for (guint i = 0; i < order->len; i++)
    g_ptr_array_add (names, g_strdup (dyn_value_map_get_name (map, g_array_index (order, guint, i))));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

static void
assert_names (char       **names,
              const char  *expected)
{
  g_autofree char *joined = g_strjoinv (" ", names);

  g_assert_cmpstr (joined, ==, expected);
}

/* Keys first (the table's partition, then sort key, then the indexes'
 * keys), the rest by name whatever order the item came in. */
static void
test_order (void)
{
  g_autoptr(DynTableKeys) keys = movie_keys ();
  g_autoptr(DynTableKeys) hash_only = dyn_table_keys_new ("Products", "sku", DYN_VALUE_S, NULL, DYN_VALUE_S);
  g_autoptr(DynValue) item = dyn_test_plain_item (
    "{\"zeta\": 1, \"rating\": 8.7, \"Budget\": 5, \"info\": {\"b\": 1, \"A\": 2, \"a\": 3},"
    " \"title\": \"Rush\", \"actors\": [\"x\"], \"genre\": \"Drama\", \"year\": 2013, \"sku\": \"p1\"}");
  g_auto(GStrv) with_keys = ordered_names (item, keys);
  g_auto(GStrv) hash = ordered_names (item, hash_only);
  g_auto(GStrv) plain = ordered_names (item, NULL);
  g_auto(GStrv) nested = ordered_names (dyn_value_map_lookup (item, "info"), NULL);
  g_autoptr(DynValue) partial = dyn_test_plain_item ("{\"title\": \"Rush\", \"b\": 1, \"rating\": 1}");
  g_auto(GStrv) without_pk = ordered_names (partial, keys);
  g_autoptr(DynValue) empty = dyn_value_new_map ();
  g_autoptr(GArray) none = dyn_outline_order (empty, keys);

  assert_names (with_keys, "year title genre rating actors Budget info sku zeta");
  assert_names (hash, "sku actors Budget genre info rating title year zeta");
  assert_names (plain, "actors Budget genre info rating sku title year zeta");
  /* Case-insensitive, the exact name breaking ties. */
  assert_names (nested, "A a b");
  /* Keys the item lacks (an index projection) are skipped. */
  assert_names (without_pk, "title rating b");
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_key_role (void)
{
  g_autoptr(DynTableKeys) keys = movie_keys ();
  g_autofree char *year = NULL;
  g_autofree char *title = NULL;
  g_autofree char *genre = NULL;
  g_autofree char *rating = NULL;
  g_autofree char *other = NULL;

  g_assert_cmpint (dyn_outline_key_role (keys, "year", &year), ==, DYN_OUTLINE_PARTITION_KEY);
  g_assert_cmpstr (year, ==, "Partition key of the table");
  g_assert_cmpint (dyn_outline_key_role (keys, "title", &title), ==, DYN_OUTLINE_SORT_KEY);
  g_assert_cmpstr (title, ==, "Sort key of the table; partition key of index ByTitle");
  g_assert_cmpint (dyn_outline_key_role (keys, "genre", &genre), ==, DYN_OUTLINE_INDEX_KEY);
  g_assert_cmpstr (genre, ==, "Partition key of index ByGenre");
  g_assert_cmpint (dyn_outline_key_role (keys, "rating", &rating), ==, DYN_OUTLINE_INDEX_KEY);
  g_assert_cmpstr (rating, ==, "Sort key of index ByGenre; sort key of index ByTitle");
  g_assert_cmpint (dyn_outline_key_role (keys, "plot", &other), ==, DYN_OUTLINE_NOT_KEY);
  g_assert_null (other);
  g_assert_cmpint (dyn_outline_key_role (NULL, "year", NULL), ==, DYN_OUTLINE_NOT_KEY);
}

static char *
text_of (const char     *ddb_json,
         DynOutlineText *kind)
{
  g_autoptr(JsonNode) node = json_from_string (ddb_json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) value = dyn_value_from_ddb_json (node, &error);

  g_assert_no_error (error);
  return dyn_outline_value_text (value, kind);
}

static void
assert_text (const char     *ddb_json,
             const char     *expected,
             DynOutlineText  expected_kind)
{
  DynOutlineText kind = 99;
  g_autofree char *text = text_of (ddb_json, &kind);

  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpint (kind, ==, expected_kind);
}

static void
test_value_text (void)
{
  /* Empty values are a placeholder, marked as one; a missing attribute has
   * no row at all. */
  assert_text ("{\"S\":\"\"}", "empty string", DYN_OUTLINE_TEXT_EMPTY);
  assert_text ("{\"B\":\"\"}", "empty binary", DYN_OUTLINE_TEXT_EMPTY);
  assert_text ("{\"S\":\" \"}", " ", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"S\":\"a\\nb\"}", "a⏎b", DYN_OUTLINE_TEXT_VALUE);
  /* Binary: its size, hex, and the text when it is text. */
  assert_text ("{\"B\":\"aGVsbG8=\"}", "5 bytes · 68 65 6c 6c 6f · “hello”", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"B\":\"AP8=\"}", "2 bytes · 00 ff", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"B\":\"AQ==\"}", "1 byte · 01", DYN_OUTLINE_TEXT_VALUE);
  /* 20 bytes of text: 16 in hex, then the text. */
  assert_text ("{\"B\":\"YWJjZGVmZ2hpamtsbW5vcHFyc3Q=\"}",
               "20 bytes · 61 62 63 64 65 66 67 68 69 6a 6b 6c 6d 6e 6f 70 … · “abcdefghijklmnopqrst”",
               DYN_OUTLINE_TEXT_VALUE);
  /* Numbers exactly as stored, however long. */
  assert_text ("{\"N\":\"12345678901234567890123456789012345678\"}", "12345678901234567890123456789012345678",
               DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"N\":\"-0.000000000000000000000000000000000001\"}", "-0.000000000000000000000000000000000001",
               DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"N\":\"9.9999999999999999999999999999999999999E+125\"}",
               "9.9999999999999999999999999999999999999E+125", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"BOOL\":false}", "false", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"NULL\":true}", "null", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"BS\":[\"AQ==\",\"Ag==\"]}", "{2 binary values}", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"SS\":[\"a\",\"\"]}", "{\"a\", \"\"}", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"M\":{\"a\":{\"N\":\"1\"}}}", "{1 attribute}", DYN_OUTLINE_TEXT_VALUE);
  assert_text ("{\"L\":[]}", "[0 items]", DYN_OUTLINE_TEXT_VALUE);
}

static void
test_edit_text (void)
{
  struct {
    const char *ddb_json;
    const char *text;
  } cases[] = {
    { "{\"S\":\"a\\nb\"}", "a\nb" },
    { "{\"S\":\"\"}", "" },
    { "{\"N\":\"1.50\"}", "1.50" },
    { "{\"B\":\"aGVsbG8=\"}", "aGVsbG8=" },
    { "{\"B\":\"\"}", "" },
    { "{\"BOOL\":true}", "true" },
    { "{\"NULL\":true}", NULL },
    { "{\"M\":{}}", NULL },
    { "{\"L\":[]}", NULL },
    { "{\"SS\":[\"a\"]}", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (cases[i].ddb_json, NULL);
      g_autoptr(DynValue) value = dyn_value_from_ddb_json (node, NULL);
      g_autofree char *text = dyn_outline_edit_text (value);

      g_assert_nonnull (value);
      g_assert_cmpstr (text, ==, cases[i].text);
    }

  /* An entry cannot hold U+0000: such a string is not edited as text. */
  {
    g_autoptr(DynValue) nul = dyn_value_new_string_len ("a\0b", 3);
    g_autofree char *text = dyn_outline_edit_text (nul);

    g_assert_null (text);
  }
}

static void
test_lookup_shape (void)
{
  g_autoptr(DynValue) a = dyn_test_plain_item ("{\"k\": 1, \"m\": {\"x\": [1, {\"y\": \"s\"}]}, \"t\": {\"$set\": [\"p\", \"q\"]},"
                                               " \"n\": {\"$set\": [1.5, 2]}}");
  g_autoptr(DynValue) same = dyn_test_plain_item ("{\"n\": {\"$set\": [7, 8]}, \"t\": {\"$set\": [\"r\", \"p\"]},"
                                                  " \"m\": {\"x\": [\"now a string\", {\"y\": 5}]}, \"k\": true}");
  g_autoptr(DynValue) renamed = dyn_test_plain_item ("{\"k\": 1, \"m\": {\"x\": [1, {\"z\": \"s\"}]}, \"t\": {\"$set\": [\"p\", \"q\"]},"
                                                     " \"n\": {\"$set\": [1.5, 2]}}");
  g_autoptr(DynValue) longer = dyn_test_plain_item ("{\"k\": 1, \"m\": {\"x\": [1, {\"y\": \"s\"}, 3]}, \"t\": {\"$set\": [\"p\", \"q\"]},"
                                                    " \"n\": {\"$set\": [1.5, 2]}}");
  g_autoptr(DynValue) retyped = dyn_test_plain_item ("{\"k\": 1, \"m\": {\"x\": {\"0\": 1, \"1\": 2}}, \"t\": {\"$set\": [\"p\", \"q\"]},"
                                                     " \"n\": {\"$set\": [1.5, 2]}}");
  struct {
    const char *path;
    const char *ddb_json;   /* NULL: not there */
  } cases[] = {
    { "k", "{\"N\":\"1\"}" },
    { "m.x[1].y", "{\"S\":\"s\"}" },
    { "m.x[1]", "{\"M\":{\"y\":{\"S\":\"s\"}}}" },
    { "t[1]", "{\"S\":\"q\"}" },
    { "n[0]", "{\"N\":\"1.5\"}" },
    { "t[2]", NULL },
    { "m.x[2]", NULL },
    { "k[0]", NULL },
    { "m.nope", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynExprPath) p = dyn_expr_path_parse (cases[i].path, NULL);
      g_autoptr(DynValue) found = dyn_outline_lookup (a, p);

      if (cases[i].ddb_json == NULL)
        g_assert_null (found);
      else
        {
          g_autoptr(JsonNode) node = json_from_string (cases[i].ddb_json, NULL);
          g_autoptr(DynValue) expected = dyn_value_from_ddb_json (node, NULL);

          g_assert_nonnull (found);
          g_assert_true (dyn_value_equal (found, expected));
        }
    }

  g_assert_true (dyn_outline_same_shape (a, a));
  g_assert_true (dyn_outline_same_shape (a, same));
  g_assert_false (dyn_outline_same_shape (a, renamed));
  g_assert_false (dyn_outline_same_shape (a, longer));
  g_assert_false (dyn_outline_same_shape (a, retyped));
}

/* ------------------------------------------------------------------------ */
/* In-place editing at a path, against DynamoDB Local */

static const DynKeySchema movie_schema = { (char *) "year", DYN_VALUE_N, (char *) "title", DYN_VALUE_S };

static const char *movie =
  "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},\"watched\":{\"BOOL\":false},\"note\":{\"NULL\":true},"
  "\"poster\":{\"B\":\"aGVsbG8=\"},\"sizes\":{\"NS\":[\"1\",\"2.5\"]},"
  "\"info\":{\"M\":{\"plot\":{\"S\":\"Hunt and Lauda\"},\"ratings\":{\"L\":["
  "{\"M\":{\"source\":{\"S\":\"a\"},\"score\":{\"N\":\"7\"}}},"
  "{\"M\":{\"source\":{\"S\":\"b\"},\"score\":{\"N\":\"8\"}}},"
  "{\"M\":{\"source\":{\"S\":\"c\"},\"score\":{\"N\":\"9\"},\"tags\":{\"SS\":[\"x\",\"y\"]}}}]}}}}";

typedef struct {
  DynTestFixture      fx;
  DynCollectionModel *model;
  DynEditSession     *session;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DynValue) item = NULL;
  g_autoptr(GPtrArray) page = NULL;
  g_autoptr(GError) error = NULL;

  if (!dyn_test_fixture_setup (&fixture->fx, DYN_TEST_DYNAMODB_LOCAL, "outline"))
    return;
  dyn_test_fixture_create_table (&fixture->fx, "year:N", "title:S", NULL);
  item = dyn_test_item (movie);
  g_assert_true (dyn_test_put_item (fixture->fx.client, fixture->fx.table, item, &error));
  g_assert_no_error (error);

  fixture->model = dyn_collection_model_new_for_schema (&movie_schema, FALSE);
  page = dyn_test_item_array_new ();
  g_ptr_array_add (page, dyn_value_ref (item));
  dyn_collection_model_append_page (fixture->model, page);
  fixture->session = dyn_edit_session_new (fixture->fx.client, fixture->fx.table, &movie_schema);
  dyn_edit_session_set_model (fixture->session, fixture->model);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->model);
  dyn_test_fixture_teardown (&fixture->fx, data);
}

static DynItemObject *
rush (Fixture *fixture)
{
  g_autoptr(DynValue) key = dyn_test_item ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
  DynItemObject *row = dyn_collection_model_lookup (fixture->model, key);

  g_assert_nonnull (row);
  return row;
}

static DynExprPath *
path (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynExprPath *parsed = dyn_expr_path_parse (text, &error);

  g_assert_no_error (error);
  return parsed;
}

static gboolean
stage_text (Fixture     *fixture,
            const char  *path_text,
            const char  *text,
            GError     **error)
{
  g_autoptr(DynExprPath) p = path (path_text);

  return dyn_edit_session_stage_path_text (fixture->session, rush (fixture), p, text, error);
}

/* Text that is refused stages nothing and leaves the row as it was. */
static void
assert_refused (Fixture    *fixture,
                const char *path_text,
                const char *text,
                gint        code,
                const char *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) before = dyn_value_ref (dyn_item_object_get_item (rush (fixture)));
  guint n = dyn_edit_session_get_n_changes (fixture->session);

  g_assert_false (stage_text (fixture, path_text, text, &error));
  g_assert_error (error, DYN_ERROR, code);
  g_test_message ("%s = %s: %s", path_text, text, error->message);
  g_assert_nonnull (strstr (error->message, message_part));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, n);
  g_assert_true (dyn_value_equal (dyn_item_object_get_item (rush (fixture)), before));
}

static DynValue *
at (DynValue   *item,
    const char *path_text)
{
  g_autoptr(DynExprPath) p = path (path_text);

  return dyn_path_lookup (item, p);
}

static DynCommitResult *
commit (Fixture *fixture)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DynCommitResult *commit;

  dyn_edit_session_commit_async (fixture->session, NULL, dyn_test_result_cb, &result);
  commit = dyn_edit_session_commit_finish (fixture->session, dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  return commit;
}

static void
test_stage_path (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprPath) score = path ("info.ratings[2].score");
  g_autoptr(DynExprPath) other_score = path ("info.ratings[1].score");
  g_autoptr(DynExprPath) watched = path ("watched");
  g_autoptr(DynValue) yes = dyn_value_new_bool (TRUE);
  g_autoptr(DynValue) key = dyn_test_item ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
  g_autoptr(DynValue) stored = NULL;
  g_autoptr(DynCommitResult) result = NULL;
  g_autoptr(JsonNode) plan = NULL;
  g_autofree char *plan_text = NULL;
  g_autofree char *guard = NULL;
  DynValue *item;

  DYN_TEST_REQUIRE_SERVER (&fixture->fx);

  /* Refused, and nothing staged: text that is no DynamoDB number, a key,
   * NULL, a map, a whole set, a path the item lacks, a duplicate in a set,
   * an element of another type. */
  assert_refused (fixture, "info.ratings[2].score", "12abc", DYN_ERROR_INVALID_VALUE, "is not a number");
  assert_refused (fixture, "info.ratings[2].score", "1234567890123456789012345678901234567890",
                  DYN_ERROR_INVALID_VALUE, "info.ratings[2].score");
  assert_refused (fixture, "info.ratings[2].score", "", DYN_ERROR_INVALID_VALUE, "is not a number");
  assert_refused (fixture, "title", "Rush 2", DYN_ERROR_INVALID_ARGUMENT, "part of the table’s key");
  assert_refused (fixture, "year", "2014", DYN_ERROR_INVALID_ARGUMENT, "a delete and a put");
  assert_refused (fixture, "note", "x", DYN_ERROR_INVALID_VALUE, "NULL");
  assert_refused (fixture, "note", "", DYN_ERROR_INVALID_VALUE, "NULL");
  assert_refused (fixture, "info", "{}", DYN_ERROR_INVALID_VALUE, "JSON editor");
  assert_refused (fixture, "info.ratings[2].tags", "x", DYN_ERROR_INVALID_VALUE, "JSON editor");
  assert_refused (fixture, "info.ratings[5].score", "1", DYN_ERROR_INVALID_ARGUMENT, "not in the item");
  assert_refused (fixture, "info.nothing.here", "1", DYN_ERROR_INVALID_ARGUMENT, "not in the item");
  assert_refused (fixture, "info.ratings[2].tags[1]", "x", DYN_ERROR_INVALID_VALUE, "already holds “x”");
  assert_refused (fixture, "sizes[0]", "2.50", DYN_ERROR_INVALID_VALUE, "already holds");
  assert_refused (fixture, "sizes[0]", "one", DYN_ERROR_INVALID_VALUE, "is not a number");
  assert_refused (fixture, "sizes[2]", "3", DYN_ERROR_INVALID_ARGUMENT, "not in the item");
  assert_refused (fixture, "poster", "not base64!", DYN_ERROR_INVALID_VALUE, "base64");
  assert_refused (fixture, "watched", "maybe", DYN_ERROR_INVALID_VALUE, "true or false");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 0);

  /* What can be edited as text at all, asked before any text is typed. */
  {
    const char *editable[] = { "info.plot", "info.ratings[2].score", "info.ratings[2].tags[0]", "watched",
                               "poster", "sizes[1]" };
    const char *not_editable[] = { "title", "year", "note", "info", "info.ratings", "sizes", "info.nope",
                                   "sizes[2]" };

    for (guint i = 0; i < G_N_ELEMENTS (editable); i++)
      {
        g_autoptr(DynExprPath) p = path (editable[i]);

        g_assert_true (dyn_edit_session_check_path (fixture->session, rush (fixture), p, &error));
        g_assert_no_error (error);
      }
    for (guint i = 0; i < G_N_ELEMENTS (not_editable); i++)
      {
        g_autoptr(DynExprPath) p = path (not_editable[i]);

        g_assert_false (dyn_edit_session_check_path (fixture->session, rush (fixture), p, &error));
        g_assert_nonnull (error);
        g_assert_nonnull (strstr (error->message, not_editable[i]));
        g_clear_error (&error);
      }
  }

  /* A number deep in a map inside a list: staged, the type kept. */
  g_assert_true (stage_text (fixture, "info.ratings[2].score", " 98765432109876543210.123456789 ", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
  g_assert_cmpint (dyn_item_object_get_state (rush (fixture)), ==, DYN_ITEM_STATE_CHANGED);
  item = dyn_item_object_get_item (rush (fixture));
  g_assert_cmpint (dyn_value_get_value_type (at (item, "info.ratings[2].score")), ==, DYN_VALUE_N);
  g_assert_cmpstr (dyn_value_get_number (at (item, "info.ratings[2].score")), ==, "98765432109876543210.123456789");
  g_assert_true (dyn_edit_session_is_path_changed (fixture->session, rush (fixture), score));
  g_assert_false (dyn_edit_session_is_path_changed (fixture->session, rush (fixture), other_score));

  /* The write names that one path and is guarded by its old value. */
  plan = dyn_edit_session_dup_plan (fixture->session, &error);
  g_assert_no_error (error);
  plan_text = json_to_string (plan, FALSE);
  g_test_message ("%s", plan_text);
  g_assert_nonnull (strstr (plan_text, "SET #info.#ratings[2].#score = :score"));
  guard = dyn_edit_session_describe_guard (fixture->session, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.ratings[2].score is still 9, "
                          "info.ratings still has 3 elements");

  /* A string stays a string, even when it reads as a number; a set element
   * keeps the set's type; an empty string is a value DynamoDB keeps; a
   * boolean is set as a boolean; binary is typed as base64. */
  g_assert_true (stage_text (fixture, "info.plot", "42", &error));
  g_assert_true (stage_text (fixture, "info.ratings[0].source", "", &error));
  g_assert_true (stage_text (fixture, "info.ratings[2].tags[1]", "", &error));
  g_assert_true (stage_text (fixture, "sizes[1]", "2.5000000000000000000000000000000000001", &error));
  g_assert_true (stage_text (fixture, "poster", "", &error));
  g_assert_true (dyn_edit_session_stage_path (fixture->session, rush (fixture), watched, yes, &error));
  g_assert_no_error (error);
  /* All of it is one staged change of the item. */
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
  item = dyn_item_object_get_item (rush (fixture));
  g_assert_cmpint (dyn_value_get_value_type (at (item, "info.plot")), ==, DYN_VALUE_S);
  g_assert_cmpint (dyn_value_get_value_type (at (item, "info.ratings[2].tags")), ==, DYN_VALUE_SS);
  g_assert_cmpint (dyn_value_get_value_type (at (item, "sizes")), ==, DYN_VALUE_NS);

  result = commit (fixture);
  g_assert_cmpuint (dyn_commit_result_get_n_applied (result), ==, 1);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 0);

  /* Read back: exact values, types kept, nothing else touched. */
  stored = dyn_test_get_item (fixture->fx.client, fixture->fx.table, key, TRUE);
  g_assert_nonnull (stored);
  g_assert_cmpstr (dyn_value_get_number (at (stored, "info.ratings[2].score")), ==, "98765432109876543210.123456789");
  g_assert_cmpstr (dyn_value_get_number (at (stored, "info.ratings[1].score")), ==, "8");
  g_assert_cmpstr (dyn_value_get_string (at (stored, "info.plot")), ==, "42");
  g_assert_cmpstr (dyn_value_get_string (at (stored, "info.ratings[0].source")), ==, "");
  g_assert_true (dyn_value_get_bool (at (stored, "watched")));
  g_assert_cmpuint (g_bytes_get_size (dyn_value_get_binary (at (stored, "poster"))), ==, 0);
  {
    g_autoptr(DynValue) tags = dyn_test_plain_item ("{\"t\": {\"$set\": [\"x\", \"\"]}}");
    g_autoptr(DynValue) sizes = dyn_test_plain_item ("{\"s\": {\"$set\": [1, 2.5000000000000000000000000000000000001]}}");

    g_assert_true (dyn_value_equal (at (stored, "info.ratings[2].tags"), dyn_value_map_lookup (tags, "t")));
    g_assert_true (dyn_value_equal (at (stored, "sizes"), dyn_value_map_lookup (sizes, "s")));
  }
  g_assert_true (dyn_value_equal (stored, dyn_item_object_get_item (rush (fixture))));
}

/* What in-place editing refuses whatever the text: a read-only session, an
 * item staged for deletion. */
static void
test_stage_path_refused (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (&fixture->fx);

  dyn_edit_session_set_read_only (fixture->session, TRUE);
  g_assert_false (stage_text (fixture, "info.plot", "x", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  dyn_edit_session_set_read_only (fixture->session, FALSE);

  g_assert_true (dyn_edit_session_stage_delete (fixture->session, rush (fixture), &error));
  g_assert_no_error (error);
  assert_refused (fixture, "info.plot", "x", DYN_ERROR_INVALID_ARGUMENT, "staged for deletion");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/dyn/item-outline/order", test_order);
  g_test_add_func ("/dyn/item-outline/key-role", test_key_role);
  g_test_add_func ("/dyn/item-outline/value-text", test_value_text);
  g_test_add_func ("/dyn/item-outline/edit-text", test_edit_text);
  g_test_add_func ("/dyn/item-outline/lookup-shape", test_lookup_shape);
  g_test_add ("/dyn/item-outline/stage-path", Fixture, NULL, fixture_set_up, test_stage_path, fixture_tear_down);
  g_test_add ("/dyn/item-outline/stage-path-refused", Fixture, NULL, fixture_set_up, test_stage_path_refused,
              fixture_tear_down);

  return g_test_run ();
}
