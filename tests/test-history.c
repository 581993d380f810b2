/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-history"
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-history.h"
#include "dyn-item-copy.h"
#include "dyn-json.h"
#include "dyn-saved-queries.h"
#include "dyn-table.h"
#include "dyn-test-util.h"

/* The GTK-free parts of reading history: a read as an entry and its JSON,
 * the Back/Forward stack, the recent reads, the saved-query file (exact
 * values, several writers, a file that cannot be read) and rows copied as
 * JSON lines. */

static char *tmp_dir;

/* A movies table keyed by year (N) and title (S), with a GSI on a binary
 * attribute: the keys unlike the demo data. */
static DynTableKeys *
movies_keys (void)
{
  DynTableKeys *keys = dyn_table_keys_new ("Movies", "year", DYN_VALUE_N, "title", DYN_VALUE_S);

  dyn_table_keys_add_index (keys, "ByHash", DYN_INDEX_GLOBAL, "hash", DYN_VALUE_B, NULL, DYN_VALUE_S,
                            DYN_PROJECTION_ALL);
  return keys;
}

static DynReadRequest *
builder_read (const DynTableKeys *keys,
              const char         *index,
              const char         *text)
{
  DynReadSpec spec = { 0 };
  DynReadRequest *read;

  spec.index = index;
  spec.mode = DYN_READ_CONDITION;
  spec.filter = text && *text ? text : NULL;
  spec.limit = 50;
  read = dyn_read_request_new (keys, &spec);
  g_assert_no_error (dyn_read_request_get_error (read));
  g_assert_true (dyn_read_request_is_valid (read));
  return read;
}

static char *
entry_to_text (DynReadEntry *entry)
{
  g_autoptr(JsonNode) node = dyn_read_entry_to_json (entry);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

static DynReadEntry *
entry_from_text (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = dyn_json_parse (text, -1, &error);
  DynReadEntry *entry;

  g_assert_no_error (error);
  entry = dyn_read_entry_from_json (node, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (entry);
  return entry;
}

static DynValue *
request_value (const DynRequest *request,
               const char       *type_and_text)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, request->values);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_autofree char *json = dyn_value_to_ddb_json_string (value);

      if (strcmp (json, type_and_text) == 0)
        return value;
    }
  return NULL;
}

/* The text with inline values is what the builder gets back; the request
 * keeps its maps: a 38-digit number, a tiny one and bytes that are not
 * UTF-8 come back exactly from the JSON. */
static void
test_entry_json (void)
{
  g_autoptr(DynTableKeys) keys = movies_keys ();
  const char *text = "year = 2013 AND rating > 12345678901234567890.123456789012345678 "
                     "AND tiny = -1E-130 AND poster = b64\"AP8A/w==\" AND note = \"say \\\"hi\\\"\\n\"";
  g_autoptr(DynReadRequest) read = builder_read (keys, NULL, text);
  g_autoptr(DynReadEntry) entry = dyn_read_entry_new_for_read (read, text, DYN_READ_ORIGIN_BUILDER, NULL);
  g_autoptr(DynReadEntry) back = NULL;
  g_autofree char *json = NULL;
  g_autofree char *again = NULL;
  const DynRequest *request;
  DynValue *value;

  g_assert_cmpint (dyn_read_entry_get_operation (entry), ==, DYN_OP_QUERY);
  g_assert_cmpstr (dyn_read_entry_get_table (entry), ==, "Movies");
  g_assert_null (dyn_read_entry_get_index (entry));
  g_assert_true (dyn_read_entry_get_read (entry) == read);
  dyn_read_entry_set_time (entry, G_GINT64_CONSTANT (1700000000) * G_USEC_PER_SEC);

  json = entry_to_text (entry);
  back = entry_from_text (json);
  g_assert_true (dyn_read_entry_equal (entry, back));
  g_assert_null (dyn_read_entry_get_read (back));
  g_assert_cmpstr (dyn_read_entry_get_text (back), ==, text);
  g_assert_cmpint (dyn_read_entry_get_time (back), ==, G_GINT64_CONSTANT (1700000000) * G_USEC_PER_SEC);
  again = entry_to_text (back);
  g_assert_cmpstr (again, ==, json);

  request = dyn_read_entry_get_request (back);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpint (request->limit, ==, 50);
  g_assert_nonnull (request->key_condition);
  g_assert_nonnull (request->filter);
  value = request_value (request, "{\"N\":\"12345678901234567890.123456789012345678\"}");
  g_assert_nonnull (value);
  g_assert_cmpstr (dyn_value_get_number (value), ==, "12345678901234567890.123456789012345678");
  g_assert_nonnull (request_value (request, "{\"N\":\"-1E-130\"}"));
  value = request_value (request, "{\"B\":\"AP8A/w==\"}");
  g_assert_nonnull (value);
  {
    static const guint8 bytes[] = { 0x00, 0xff, 0x00, 0xff };
    g_autoptr(GBytes) expected = g_bytes_new_static (bytes, sizeof bytes);

    g_assert_true (g_bytes_equal (dyn_value_get_binary (value), expected));
  }
  g_assert_nonnull (request_value (request, "{\"S\":\"say \\\"hi\\\"\\n\"}"));
}

/* Every type a placeholder can hold, options and a GetItem key, through
 * the JSON and back. */
static void
test_entry_json_types (void)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_QUERY, "Shop");
  g_autoptr(DynReadEntry) entry = NULL;
  g_autoptr(DynReadEntry) back = NULL;
  g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, "Shop");
  g_autoptr(DynReadEntry) get_entry = NULL;
  g_autoptr(DynReadEntry) get_back = NULL;
  g_autofree char *json = NULL;
  g_autofree char *get_json = NULL;
  const char *values =
    "{\":s\":{\"S\":\"\"},\":n\":{\"N\":\"9.9999999999999999999999999999999999999E+125\"},"
    "\":b\":{\"B\":\"\"},\":ss\":{\"SS\":[\"a\",\"b\"]},\":ns\":{\"NS\":[\"1.50\",\"-0\"]},"
    "\":bs\":{\"BS\":[\"AA==\",\"/w==\"]},\":m\":{\"M\":{\"x\":{\"L\":[{\"NULL\":true},{\"BOOL\":false}]}}}}";
  g_autoptr(DynValue) map = dyn_test_item (values);

  request->index = g_strdup ("GSI1");
  request->key_condition = g_strdup ("#pk = :s");
  request->filter = g_strdup ("#a IN (:n, :b) OR contains(#ss, :ss) OR #ns = :ns OR #bs = :bs OR #m = :m");
  request->projection = g_strdup ("#pk, #a");
  request->limit = 25;
  request->consistent_read = FALSE;
  request->scan_forward = FALSE;
  dyn_request_add_name (request, "#pk", "GSI1PK");
  dyn_request_add_name (request, "#a", "a.b");
  for (guint i = 0; i < dyn_value_get_length (map); i++)
    dyn_request_add_value (request, dyn_value_map_get_name (map, i), dyn_value_map_get_value (map, i));

  entry = dyn_read_entry_new ("Shop", "GSI1", "GSI1PK = \"\"", DYN_READ_ORIGIN_FOLLOW, "GSI1PK", request);
  json = entry_to_text (entry);
  back = entry_from_text (json);
  g_assert_true (dyn_read_entry_equal (entry, back));
  g_assert_cmpint (dyn_read_entry_get_origin (back), ==, DYN_READ_ORIGIN_FOLLOW);
  g_assert_cmpstr (dyn_read_entry_get_via (back), ==, "GSI1PK");
  g_assert_cmpstr (dyn_read_entry_get_index (back), ==, "GSI1");
  g_assert_false (dyn_read_entry_get_request (back)->scan_forward);
  g_assert_cmpstr (dyn_read_entry_get_request (back)->projection, ==, "#pk, #a");
  g_assert_cmpstr (g_hash_table_lookup (dyn_read_entry_get_request (back)->names, "#a"), ==, "a.b");
  for (guint i = 0; i < dyn_value_get_length (map); i++)
    {
      const char *name = dyn_value_map_get_name (map, i);
      DynValue *value = g_hash_table_lookup (dyn_read_entry_get_request (back)->values, name);
      g_autofree char *expected = dyn_value_to_ddb_json_string (dyn_value_map_get_value (map, i));
      g_autofree char *got = NULL;

      g_assert_nonnull (value);
      got = dyn_value_to_ddb_json_string (value);
      /* Byte for byte: "1.50" stays "1.50", "-0" stays "-0". */
      g_assert_cmpstr (got, ==, expected);
    }

  get->key = dyn_test_item ("{\"PK\":{\"B\":\"3q2+7w==\"},\"SK\":{\"N\":\"00012.5000\"}}");
  get->consistent_read = TRUE;
  get_entry = dyn_read_entry_new ("Shop", NULL, "", DYN_READ_ORIGIN_BUILDER, NULL, get);
  get_json = entry_to_text (get_entry);
  get_back = entry_from_text (get_json);
  g_assert_true (dyn_read_entry_equal (get_entry, get_back));
  g_assert_cmpint (dyn_read_entry_get_operation (get_back), ==, DYN_OP_GET_ITEM);
  g_assert_true (dyn_read_entry_get_request (get_back)->consistent_read);
  g_assert_true (dyn_value_equal (dyn_read_entry_get_request (get_back)->key, get->key));
  {
    g_autofree char *key = dyn_item_to_ddb_json_string (dyn_read_entry_get_request (get_back)->key);

    g_assert_cmpstr (key, ==, "{\"PK\":{\"B\":\"3q2+7w==\"},\"SK\":{\"N\":\"00012.5000\"}}");
  }
}

/* JSON of the wrong shape says where. */
static void
test_entry_json_errors (void)
{
  static const struct {
    const char *json;
    const char *message;
  } cases[] = {
    { "[]", "entry: must be an object" },
    { "{\"table\":1}", "entry.table: must be a string" },
    { "{}", "entry.table: is missing" },
    { "{\"table\":\"T\",\"origin\":\"magic\"}", "entry.origin" },
    { "{\"table\":\"T\",\"time\":\"yesterday\"}", "entry.time" },
    { "{\"table\":\"T\",\"operation\":\"PutItem\",\"request\":{\"TableName\":\"T\"}}", "entry.operation" },
    { "{\"table\":\"T\",\"operation\":\"Query\",\"request\":{\"TableName\":\"T\",\"Limit\":-1}}",
      "entry.request.Limit" },
    { "{\"table\":\"T\",\"operation\":\"Query\",\"request\":{\"TableName\":\"T\",\"Limit\":\"5\"}}",
      "entry.request.Limit" },
    { "{\"table\":\"T\",\"operation\":\"Query\",\"request\":{\"TableName\":\"T\","
      "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1E+200\"}}}}",
      "entry.request.ExpressionAttributeValues.:v" },
    { "{\"table\":\"T\",\"operation\":\"Query\",\"request\":{\"TableName\":\"T\","
      "\"ExpressionAttributeNames\":{\"#n\":5}}}",
      "entry.request.ExpressionAttributeNames.#n" },
    { "{\"table\":\"T\",\"operation\":\"Scan\",\"request\":{\"TableName\":\"U\"}}", "entry.table" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = dyn_json_parse (cases[i].json, -1, &error);
      g_autoptr(DynReadEntry) entry = NULL;

      g_assert_no_error (error);
      entry = dyn_read_entry_from_json (node, NULL, &error);
      g_assert_null (entry);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
      if (!g_str_has_prefix (error->message, cases[i].message))
        g_error ("case %u: “%s” does not start with “%s”", i, error->message, cases[i].message);
    }
}

static void
test_entry_equal (void)
{
  g_autoptr(DynTableKeys) keys = movies_keys ();
  g_autoptr(DynReadRequest) a = builder_read (keys, NULL, "year = 2013");
  g_autoptr(DynReadRequest) b = builder_read (keys, NULL, "year = 2013");
  g_autoptr(DynReadRequest) c = builder_read (keys, NULL, "year = 2014");
  g_autoptr(DynReadRequest) all = builder_read (keys, NULL, "");
  g_autoptr(DynReadEntry) ea = dyn_read_entry_new_for_read (a, "year = 2013", DYN_READ_ORIGIN_BUILDER, NULL);
  g_autoptr(DynReadEntry) eb = dyn_read_entry_new_for_read (b, "year = 2013", DYN_READ_ORIGIN_FOLLOW, "year");
  g_autoptr(DynReadEntry) ec = dyn_read_entry_new_for_read (c, "year = 2014", DYN_READ_ORIGIN_BUILDER, NULL);
  g_autoptr(DynReadEntry) scan = dyn_read_entry_new_for_read (all, "year = 2013", DYN_READ_ORIGIN_SCAN, NULL);
  g_autoptr(DynReadEntry) saved = dyn_read_entry_copy_as (ea, "id", "Films of 2013");
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  /* A followed link and a typed query that read the same are one read. */
  g_assert_true (dyn_read_entry_equal (ea, eb));
  g_assert_false (dyn_read_entry_equal (ea, ec));
  /* A Scan that ignored the builder's text is another read, whatever the
   * text was. */
  g_assert_false (dyn_read_entry_equal (ea, scan));
  {
    g_autoptr(DynReadEntry) other_text = dyn_read_entry_new_for_read (all, "year = 1", DYN_READ_ORIGIN_SCAN, NULL);

    g_assert_true (dyn_read_entry_equal (scan, other_text));
  }
  g_assert_true (dyn_read_entry_equal (ea, saved));
  g_assert_cmpstr (dyn_read_entry_get_name (saved), ==, "Films of 2013");
  g_assert_null (dyn_read_entry_get_read (saved));

  title = dyn_read_entry_dup_title (ea);
  g_assert_cmpstr (title, ==, "year = 2013");
  subtitle = dyn_read_entry_dup_subtitle (ea);
  g_assert_cmpstr (subtitle, ==, "Query · Movies");
  g_clear_pointer (&title, g_free);
  title = dyn_read_entry_dup_title (scan);
  g_assert_cmpstr (title, ==, "All items");
  g_clear_pointer (&subtitle, g_free);
  subtitle = dyn_read_entry_dup_subtitle (eb);
  g_assert_cmpstr (subtitle, ==, "Query · Movies · followed year");
}

static DynReadEntry *
text_entry (const char *table,
            const char *text)
{
  return dyn_read_entry_new (table, NULL, text, DYN_READ_ORIGIN_BUILDER, NULL, NULL);
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_history_stack (void)
{
  g_autoptr(DynHistory) history = dyn_history_new (4);
  g_autoptr(DynReadEntry) a = text_entry ("T", "a = 1");
  g_autoptr(DynReadEntry) a2 = text_entry ("T", "a = 1");
  g_autoptr(DynReadEntry) b = text_entry ("T", "b = 1");
  g_autoptr(DynReadEntry) c = text_entry ("U", "c = 1");
  g_autoptr(DynReadEntry) d = text_entry ("T", "d = 1");
  g_autoptr(DynReadEntry) e = text_entry ("T", "e = 1");
  g_autoptr(DynReadEntry) f = text_entry ("T", "f = 1");
  guint back_notes = 0, forward_notes = 0;

  g_signal_connect (history, "notify::can-go-back", G_CALLBACK (notify_count_cb), &back_notes);
  g_signal_connect (history, "notify::can-go-forward", G_CALLBACK (notify_count_cb), &forward_notes);

  g_assert_null (dyn_history_get_current (history));
  g_assert_false (dyn_history_can_go_back (history));
  g_assert_null (dyn_history_go_back (history));
  g_assert_true (dyn_history_push (history, a));
  /* The same read again (a refresh) adds nothing. */
  g_assert_false (dyn_history_push (history, a2));
  g_assert_true (dyn_history_get_current (history) == a);
  g_assert_false (dyn_history_can_go_back (history));
  g_assert_cmpuint (back_notes, ==, 0);
  g_assert_true (dyn_history_push (history, b));
  g_assert_true (dyn_history_push (history, c));
  g_assert_cmpuint (back_notes, ==, 1);
  g_assert_cmpuint (dyn_history_get_length (history), ==, 3);

  g_assert_true (dyn_history_peek_back (history) == b);
  g_assert_true (dyn_history_go_back (history) == b);
  g_assert_true (dyn_history_go_back (history) == a);
  g_assert_null (dyn_history_go_back (history));
  g_assert_true (dyn_history_get_current (history) == a);
  g_assert_cmpuint (back_notes, ==, 2);
  g_assert_cmpuint (forward_notes, ==, 1);
  g_assert_true (dyn_history_can_go_forward (history));
  g_assert_true (dyn_history_go_forward (history) == b);
  g_assert_true (dyn_history_peek_forward (history) == c);

  /* A new read from the middle drops what was ahead. */
  g_assert_true (dyn_history_push (history, d));
  g_assert_false (dyn_history_can_go_forward (history));
  g_assert_cmpuint (dyn_history_get_length (history), ==, 3);
  g_assert_true (dyn_history_get_entry (history, 2) == d);
  g_assert_true (dyn_history_peek_back (history) == b);

  /* At most four: the oldest go. */
  g_assert_true (dyn_history_push (history, e));
  g_assert_true (dyn_history_push (history, f));
  g_assert_cmpuint (dyn_history_get_length (history), ==, 4);
  g_assert_true (dyn_history_get_entry (history, 0) == b);
  g_assert_cmpuint (dyn_history_get_position (history), ==, 3);

  dyn_history_clear (history);
  g_assert_null (dyn_history_get_current (history));
  g_assert_false (dyn_history_can_go_back (history));
  g_assert_finalize_object (g_steal_pointer (&history));
}

static void
test_recent_list (void)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_read_entry_unref);

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *text = g_strdup_printf ("n = %u", i);
      g_autoptr(DynReadEntry) entry = text_entry ("T", text);

      g_assert_true (dyn_read_entries_add_recent (list, entry, 3));
    }
  g_assert_cmpuint (list->len, ==, 3);
  g_assert_cmpstr (dyn_read_entry_get_text (list->pdata[0]), ==, "n = 4");
  g_assert_cmpstr (dyn_read_entry_get_text (list->pdata[2]), ==, "n = 2");
  /* A repeat moves to the front, once. */
  {
    g_autoptr(DynReadEntry) again = text_entry ("T", "n = 2");

    g_assert_true (dyn_read_entries_add_recent (list, again, 3));
    g_assert_cmpuint (list->len, ==, 3);
    g_assert_true (list->pdata[0] == again);
    g_assert_cmpstr (dyn_read_entry_get_text (list->pdata[1]), ==, "n = 4");
    g_assert_cmpstr (dyn_read_entry_get_text (list->pdata[2]), ==, "n = 3");
    g_assert_false (dyn_read_entries_add_recent (list, again, 3));
  }
}

static char *
store_path (const char *name)
{
  return g_build_filename (tmp_dir, name, "dynoscope", "queries.json", NULL);
}

static DynConnection *
local_connection (void)
{
  DynConnection *connection = dyn_connection_new ("Local");

  dyn_connection_set_endpoint_url (connection, "http://127.0.0.1:8000");
  dyn_connection_set_region (connection, "eu-central-1");
  return connection;
}

static void
changed_cb (DynSavedQueries *store,
            guint           *count)
{
  (*count)++;
}

static void
test_saved_persist (void)
{
  g_autofree char *path = store_path ("persist");
  g_autoptr(DynSavedQueries) store = dyn_saved_queries_new (path);
  g_autoptr(DynSavedQueries) reopened = NULL;
  g_autoptr(DynConnection) local = local_connection ();
  g_autoptr(DynConnection) profile = dyn_connection_new_for_profile ("prod");
  g_autoptr(DynConnection) cli = NULL;
  g_autoptr(DynTableKeys) keys = movies_keys ();
  g_autoptr(DynReadRequest) read = builder_read (keys, NULL, "year = 1999 AND rating >= 8.50");
  g_autoptr(DynReadRequest) other = builder_read (keys, "ByHash", "hash = b64\"3q2+7w==\"");
  g_autoptr(DynReadEntry) entry = dyn_read_entry_new_for_read (read, "year = 1999 AND rating >= 8.50",
                                                               DYN_READ_ORIGIN_BUILDER, NULL);
  g_autoptr(DynReadEntry) by_hash = dyn_read_entry_new_for_read (other, "hash = b64\"3q2+7w==\"",
                                                                 DYN_READ_ORIGIN_FOLLOW, "hash");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GPtrArray) recent = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  DynReadEntry *first, *second;
  g_autofree char *second_id = NULL;
  guint changes = 0;
  GStatBuf st;

  g_assert_true (dyn_saved_queries_load (store, &error));
  g_assert_no_error (error);
  g_assert_null (dyn_saved_queries_get_error (store));
  g_signal_connect (store, "changed", G_CALLBACK (changed_cb), &changes);
  saved = dyn_saved_queries_dup_saved (store, local);
  g_assert_cmpuint (saved->len, ==, 0);
  g_clear_pointer (&saved, g_ptr_array_unref);

  first = dyn_saved_queries_save (store, local, entry, "  Good films of 1999 ", &error);
  g_assert_no_error (error);
  g_assert_nonnull (first);
  g_assert_cmpstr (dyn_read_entry_get_name (first), ==, "Good films of 1999");
  g_assert_nonnull (dyn_read_entry_get_id (first));
  g_assert_true (dyn_read_entry_equal (first, entry));
  second = dyn_saved_queries_save (store, local, by_hash, "By hash", &error);
  g_assert_no_error (error);
  second_id = g_strdup (dyn_read_entry_get_id (second));
  g_assert_nonnull (dyn_saved_queries_save (store, profile, entry, "Good films of 1999", &error));
  g_assert_no_error (error);
  g_assert_true (dyn_saved_queries_add_recent (store, local, entry, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_saved_queries_add_recent (store, local, by_hash, &error));
  g_assert_true (dyn_saved_queries_add_recent (store, local, entry, &error));
  g_assert_cmpuint (changes, ==, 6);

  /* Names: not empty, one of each per connection. */
  g_assert_null (dyn_saved_queries_save (store, local, entry, "   ", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (dyn_saved_queries_save (store, local, entry, "By hash", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "By hash"));
  g_clear_error (&error);
  g_assert_false (dyn_saved_queries_rename (store, local, second_id, "Good films of 1999", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_true (dyn_saved_queries_rename (store, local, second_id, "Posters by hash", &error));
  g_assert_no_error (error);

  /* The file: private, no secret, the connection by what it is. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"endpoint\" : \"http://127.0.0.1:8000\""));
  g_assert_nonnull (strstr (contents, "\"Posters by hash\""));
  g_assert_null (strstr (contents, "ecret"));

  /* Another store (a restart) reads the same. */
  reopened = dyn_saved_queries_new (path);
  g_assert_true (dyn_saved_queries_load (reopened, &error));
  g_assert_no_error (error);
  saved = dyn_saved_queries_dup_saved (reopened, local);
  g_assert_cmpuint (saved->len, ==, 2);
  g_assert_cmpstr (dyn_read_entry_get_name (saved->pdata[0]), ==, "Good films of 1999");
  g_assert_cmpstr (dyn_read_entry_get_name (saved->pdata[1]), ==, "Posters by hash");
  g_assert_cmpstr (dyn_read_entry_get_id (saved->pdata[1]), ==, second_id);
  g_assert_true (dyn_read_entry_equal (saved->pdata[0], entry));
  g_assert_true (dyn_read_entry_equal (saved->pdata[1], by_hash));
  g_assert_nonnull (dyn_saved_queries_lookup (reopened, local, second_id));
  recent = dyn_saved_queries_dup_recent (reopened, local, "Movies");
  g_assert_cmpuint (recent->len, ==, 2);
  g_assert_true (dyn_read_entry_equal (recent->pdata[0], entry));
  g_assert_true (dyn_read_entry_equal (recent->pdata[1], by_hash));
  g_assert_cmpint (dyn_read_entry_get_time (recent->pdata[0]), >, 0);
  g_clear_pointer (&recent, g_ptr_array_unref);
  recent = dyn_saved_queries_dup_recent (reopened, local, "Other");
  g_assert_cmpuint (recent->len, ==, 0);
  g_clear_pointer (&saved, g_ptr_array_unref);
  saved = dyn_saved_queries_dup_saved (reopened, profile);
  g_assert_cmpuint (saved->len, ==, 1);
  g_clear_pointer (&saved, g_ptr_array_unref);

  /* A connection from the command line has a new id each time: it is
   * known by its name, profile, endpoint and region. */
  cli = local_connection ();
  g_assert_cmpstr (dyn_connection_get_id (cli), !=, dyn_connection_get_id (local));
  saved = dyn_saved_queries_dup_saved (reopened, cli);
  g_assert_cmpuint (saved->len, ==, 2);
  g_clear_pointer (&saved, g_ptr_array_unref);
  /* A renamed connection keeps its queries by its id. */
  dyn_connection_set_name (local, "Local (renamed)");
  saved = dyn_saved_queries_dup_saved (reopened, local);
  g_assert_cmpuint (saved->len, ==, 2);
  g_clear_pointer (&saved, g_ptr_array_unref);

  g_assert_true (dyn_saved_queries_remove (reopened, local, second_id, &error));
  g_assert_no_error (error);
  g_assert_false (dyn_saved_queries_remove (reopened, local, second_id, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_NOT_FOUND);
  g_clear_error (&error);
  saved = dyn_saved_queries_dup_saved (reopened, local);
  g_assert_cmpuint (saved->len, ==, 1);
  g_clear_pointer (&saved, g_ptr_array_unref);

  g_assert_finalize_object (g_steal_pointer (&store));
  g_assert_finalize_object (g_steal_pointer (&reopened));
}

/* Two windows (two stores on one file) do not lose each other's queries. */
static void
test_saved_two_writers (void)
{
  g_autofree char *path = store_path ("two");
  g_autoptr(DynSavedQueries) one = dyn_saved_queries_new (path);
  g_autoptr(DynSavedQueries) two = dyn_saved_queries_new (path);
  g_autoptr(DynSavedQueries) three = dyn_saved_queries_new (path);
  g_autoptr(DynConnection) local = local_connection ();
  g_autoptr(DynReadEntry) a = text_entry ("T", "a = 1");
  g_autoptr(DynReadEntry) b = text_entry ("T", "b = 2");
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GPtrArray) recent = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (dyn_saved_queries_load (one, NULL));
  g_assert_true (dyn_saved_queries_load (two, NULL));
  g_assert_nonnull (dyn_saved_queries_save (one, local, a, "A", &error));
  g_assert_no_error (error);
  g_assert_nonnull (dyn_saved_queries_save (two, local, b, "B", &error));
  g_assert_no_error (error);
  g_assert_true (dyn_saved_queries_add_recent (one, local, a, &error));
  g_assert_no_error (error);

  g_assert_true (dyn_saved_queries_load (three, &error));
  saved = dyn_saved_queries_dup_saved (three, local);
  g_assert_cmpuint (saved->len, ==, 2);
  g_assert_cmpstr (dyn_read_entry_get_name (saved->pdata[0]), ==, "A");
  g_assert_cmpstr (dyn_read_entry_get_name (saved->pdata[1]), ==, "B");
  recent = dyn_saved_queries_dup_recent (three, local, "T");
  g_assert_cmpuint (recent->len, ==, 1);
}

/* A file that cannot be read is said so, with its name and where it
 * breaks, and is never written over. */
static void
test_saved_malformed (void)
{
  g_autofree char *path = store_path ("malformed");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(DynSavedQueries) store = dyn_saved_queries_new (path);
  g_autoptr(DynConnection) local = local_connection ();
  g_autoptr(DynReadEntry) a = text_entry ("T", "a = 1");
  g_autoptr(GPtrArray) recent = NULL;
  g_autoptr(GError) error = NULL;
  const char *broken = "{\"version\": 1, \"connections\": [ {\"saved\": [ }";
  g_autofree char *contents = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, broken, -1, NULL));
  g_assert_false (dyn_saved_queries_load (store, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "byte"));
  g_assert_nonnull (dyn_saved_queries_get_error (store));
  g_clear_error (&error);

  g_assert_null (dyn_saved_queries_save (store, local, a, "A", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  /* The recent read is kept for now, not written. */
  g_assert_false (dyn_saved_queries_add_recent (store, local, a, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_clear_error (&error);
  recent = dyn_saved_queries_dup_recent (store, local, "T");
  g_assert_cmpuint (recent->len, ==, 1);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, broken);
  g_clear_pointer (&contents, g_free);

  /* Wrong shapes name the member. */
  g_assert_true (g_file_set_contents (path,
                                      "{\"version\":1,\"connections\":[{\"name\":\"Local\",\"saved\":[{\"id\":\"x\","
                                      "\"name\":\"X\",\"table\":\"T\",\"operation\":\"Query\",\"request\":"
                                      "{\"TableName\":\"T\",\"Limit\":true}}]}]}",
                                      -1, NULL));
  g_assert_false (dyn_saved_queries_load (store, &error));
  g_assert_nonnull (strstr (error->message, "connections[0].saved[0].request.Limit"));
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (path, "{\"version\":7}", -1, NULL));
  g_assert_false (dyn_saved_queries_load (store, &error));
  g_assert_nonnull (strstr (error->message, "version 7"));
  g_clear_error (&error);

  /* Once repaired (here: removed), saving works again without a reload. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_nonnull (dyn_saved_queries_save (store, local, a, "A", &error));
  g_assert_no_error (error);
  g_assert_null (dyn_saved_queries_get_error (store));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"version\" : 1"));
}

/* Copied rows: one JSON object per line, numbers exactly as held, sets
 * and binary as VALUES.md says, or DynamoDB JSON; or only the keys. */
static void
test_copy_json_lines (void)
{
  g_autoptr(DynValue) one = dyn_test_item (
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},"
    "\"gross\":{\"N\":\"90247624.000000000000000000000000000001\"},\"tiny\":{\"N\":\"1E-130\"},"
    "\"tags\":{\"SS\":[\"f1\",\"bio\"]},\"scores\":{\"NS\":[\"8.1\",\"7\"]},\"poster\":{\"B\":\"AP8=\"},"
    "\"empty\":{\"S\":\"\"},\"none\":{\"NULL\":true},\"info\":{\"M\":{\"plus\":{\"N\":\"+5\"}}}}");
  g_autoptr(DynValue) two = dyn_test_item ("{\"year\":{\"N\":\"1999\"},\"title\":{\"S\":\"Matrix \\\"1\\\"\"}}");
  DynValue *items[] = { one, two };
  g_autoptr(DynTableKeys) keys = movies_keys ();
  g_autofree char *plain = dyn_items_to_json_lines (items, 2, DYN_COPY_FORMAT_PLAIN, NULL);
  g_autofree char *ddb = dyn_items_to_json_lines (items, 2, DYN_COPY_FORMAT_DDB, NULL);
  g_autofree char *key = dyn_items_to_json_lines (items, 2, DYN_COPY_FORMAT_PLAIN, &keys->table.keys);
  g_autofree char *ddb_key = dyn_items_to_json_lines (items, 1, DYN_COPY_FORMAT_DDB, &keys->table.keys);
  g_auto(GStrv) lines = g_strsplit (plain, "\n", -1);
  DynCopyFormat format;

  g_assert_cmpstr (plain, ==,
                   "{\"year\":2013,\"title\":\"Rush\",\"gross\":90247624.000000000000000000000000000001,"
                   "\"tiny\":1E-130,\"tags\":{\"$set\":[\"f1\",\"bio\"]},\"scores\":{\"$set\":[8.1,7]},"
                   "\"poster\":{\"$binary\":\"AP8=\"},\"empty\":\"\",\"none\":null,"
                   "\"info\":{\"plus\":{\"$number\":\"+5\"}}}\n"
                   "{\"year\":1999,\"title\":\"Matrix \\\"1\\\"\"}\n");
  g_assert_cmpstr (ddb, ==,
                   "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},"
                   "\"gross\":{\"N\":\"90247624.000000000000000000000000000001\"},\"tiny\":{\"N\":\"1E-130\"},"
                   "\"tags\":{\"SS\":[\"f1\",\"bio\"]},\"scores\":{\"NS\":[\"8.1\",\"7\"]},"
                   "\"poster\":{\"B\":\"AP8=\"},\"empty\":{\"S\":\"\"},\"none\":{\"NULL\":true},"
                   "\"info\":{\"M\":{\"plus\":{\"N\":\"+5\"}}}}\n"
                   "{\"year\":{\"N\":\"1999\"},\"title\":{\"S\":\"Matrix \\\"1\\\"\"}}\n");
  g_assert_cmpstr (key, ==, "{\"year\":2013,\"title\":\"Rush\"}\n{\"year\":1999,\"title\":\"Matrix \\\"1\\\"\"}\n");
  g_assert_cmpstr (ddb_key, ==, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}\n");

  /* Each line reads back to the same item. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(DynValue) back = dyn_item_from_plain_json_string (lines[i], -1, &error);

      g_assert_no_error (error);
      g_assert_true (dyn_value_equal (back, items[i]));
    }
  g_assert_true (dyn_copy_format_from_string ("ddb", &format));
  g_assert_cmpint (format, ==, DYN_COPY_FORMAT_DDB);
  g_assert_cmpstr (dyn_copy_format_to_string (format), ==, "ddb");
  g_assert_false (dyn_copy_format_from_string ("xml", &format));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("dyn-test-history-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/dyn/history/entry/json", test_entry_json);
  g_test_add_func ("/dyn/history/entry/json-types", test_entry_json_types);
  g_test_add_func ("/dyn/history/entry/json-errors", test_entry_json_errors);
  g_test_add_func ("/dyn/history/entry/equal", test_entry_equal);
  g_test_add_func ("/dyn/history/stack", test_history_stack);
  g_test_add_func ("/dyn/history/recent", test_recent_list);
  g_test_add_func ("/dyn/history/saved/persist", test_saved_persist);
  g_test_add_func ("/dyn/history/saved/two-writers", test_saved_two_writers);
  g_test_add_func ("/dyn/history/saved/malformed", test_saved_malformed);
  g_test_add_func ("/dyn/history/copy/json-lines", test_copy_json_lines);

  status = g_test_run ();
  {
    g_autofree char *command = g_strdup_printf ("rm -rf '%s'", tmp_dir);

    if (status == 0 && system (command) != 0)
      g_warning ("could not remove %s", tmp_dir);
  }
  g_free (tmp_dir);
  return status;
}
