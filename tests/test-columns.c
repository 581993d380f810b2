/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-columns"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "dyn-columns.h"
#include "dyn-error.h"
#include "dyn-test-util.h"

/* The grid's columns without GTK: the column set (order, visibility, nested
 * paths, widths) and its key file, the order a sorted grid shows, and when
 * a Query on an index returns the items in a column's order. */

static DynValue *
item (const char *plain_json)
{
  return dyn_test_plain_item (plain_json);
}

static DynValue *
number (const char *text)
{
  g_autoptr(GError) error = NULL;
  DynValue *value = dyn_value_new_number (text, &error);

  g_assert_no_error (error);
  return value;
}

/* The keys of @set's listed columns joined by " ". */
static char *
listed (DynColumnSet *set)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < dyn_column_set_get_n_columns (set); i++)
    {
      DynColumn *column = dyn_column_set_get_column (set, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      if (!dyn_column_get_visible (column))
        g_string_append_c (out, '-');
      g_string_append (out, dyn_column_get_key (column));
    }
  return g_string_free (out, FALSE);
}

#define assert_listed(set, expected) \
  G_STMT_START { \
    g_autofree char *_l = listed (set); \
    g_assert_cmpstr (_l, ==, (expected)); \
  } G_STMT_END

static void
changed_cb (DynColumnSet *set,
            guint        *count)
{
  (*count)++;
}

static void
test_new_destroy (void)
{
  DynColumnSet *set = dyn_column_set_new ();
  g_autoptr(GError) error = NULL;
  DynColumn *column;

  g_assert_cmpuint (dyn_column_set_get_n_columns (set), ==, 0);
  column = dyn_column_set_add_path (set, "info.rating", &error);
  g_assert_no_error (error);
  dyn_column_ref (column);
  g_assert_finalize_object (set);
  /* A held column outlives its set. */
  g_assert_cmpstr (dyn_column_get_title (column), ==, "info.rating");
  dyn_column_unref (column);
}

/* Numbers exactly (38 digits, tiny and negative ones), strings by bytes,
 * mixed types in one order, missing last in both directions. */
static void
test_compare (void)
{
  const char *ascending[] = {
    "-1E+125", "-10", "-9.99", "0", "1E-130", "0.5", "9.99", "10",
    "12345678901234567890123456789012345678",
    "12345678901234567890123456789012345679",
    "9.9999999999999999999999999999999999999E+125",
  };
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);

  for (guint i = 0; i < G_N_ELEMENTS (ascending); i++)
    g_ptr_array_add (values, number (ascending[i]));
  for (guint i = 0; i < values->len; i++)
    for (guint j = 0; j < values->len; j++)
      {
        int expected = i < j ? -1 : (i > j ? 1 : 0);
        int r = dyn_column_compare_values (values->pdata[i], values->pdata[j], FALSE);
        int d = dyn_column_compare_values (values->pdata[i], values->pdata[j], TRUE);

        g_assert_cmpint ((r > 0) - (r < 0), ==, expected);
        g_assert_cmpint ((d > 0) - (d < 0), ==, -expected);
      }
  /* A double would call these equal. */
  {
    g_autoptr(DynValue) a = number ("0.10000000000000000000000000000000000001");
    g_autoptr(DynValue) b = number ("0.1");
    g_autoptr(DynValue) c = number ("0.100");

    g_assert_cmpint (dyn_column_compare_values (a, b, FALSE), >, 0);
    g_assert_cmpint (dyn_column_compare_values (b, c, FALSE), ==, 0);
  }

  /* Mixed types: numbers, strings, binary, booleans, sets, lists, maps,
   * nulls; then missing. */
  {
    g_autoptr(DynValue) mixed = item (
      "{\"n\": 5, \"s\": \"Banana\", \"s2\": \"apple\", \"b\": {\"$binary\": \"AAE=\"}, \"f\": false, \"t\": true,"
      " \"ss\": {\"$set\": [\"x\"]}, \"ns\": {\"$set\": [1]}, \"bs\": {\"$set\": [{\"$binary\": \"AA==\"}]},"
      " \"l\": [1], \"m\": {\"a\": 1}, \"z\": null}");
    const char *order[] = { "n", "s", "s2", "b", "f", "t", "ss", "ns", "bs", "l", "m", "z", "missing" };

    for (guint i = 0; i < G_N_ELEMENTS (order); i++)
      for (guint j = 0; j < G_N_ELEMENTS (order); j++)
        {
          DynValue *a = dyn_value_map_lookup (mixed, order[i]);
          DynValue *b = dyn_value_map_lookup (mixed, order[j]);
          int expected = i < j ? -1 : (i > j ? 1 : 0);
          int r = dyn_column_compare_values (a, b, FALSE);
          int d = dyn_column_compare_values (a, b, TRUE);

          g_assert_cmpint ((r > 0) - (r < 0), ==, expected);
          /* Descending reverses it, but missing stays last. */
          if (a == NULL || b == NULL)
            g_assert_cmpint ((d > 0) - (d < 0), ==, expected);
          else
            g_assert_cmpint ((d > 0) - (d < 0), ==, -expected);
        }
  }
}

/* A column's value: the attribute, or the value at a nested path; missing
 * when the path leads nowhere. */
static void
test_lookup (void)
{
  g_autoptr(DynValue) movie = item (
    "{\"year\": 2013, \"title\": \"Rush\", \"info.rating\": \"a name with a dot\","
    " \"info\": {\"rating\": 8.7, \"genres\": [\"Action\", \"Drama\"], \"odd.name\": {\"x\": 1}},"
    " \"tags\": [\"f1\", {\"k\": \"v\"}]}");
  g_autoptr(DynColumnSet) set = dyn_column_set_new ();
  const char *attributes[] = { "year", "title", "info.rating", "info", "tags", NULL };
  struct { const char *path; const char *expected; } cases[] = {
    { "info.rating", "{\"N\":\"8.7\"}" },
    { "info.genres[1]", "{\"S\":\"Drama\"}" },
    { "tags[0]", "{\"S\":\"f1\"}" },
    { "tags [1].k", "{\"S\":\"v\"}" },
    { "info.`odd.name`.x", "{\"N\":\"1\"}" },
    { "tags[2]", NULL },
    { "info.missing", NULL },
    { "info.rating.deeper", NULL },
    { "title[0]", NULL },
    { "info[0]", NULL },
    { "year.x", NULL },
  };
  DynColumn *dotted;

  dyn_column_set_note_attributes (set, attributes, -1);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      DynColumn *column = dyn_column_set_add_path (set, cases[i].path, &error);
      DynValue *value;

      g_assert_no_error (error);
      g_assert_cmpint (dyn_column_get_kind (column), ==, DYN_COLUMN_PATH);
      value = dyn_column_lookup (column, movie);
      if (cases[i].expected == NULL)
        g_assert_null (value);
      else
        {
          g_autofree char *json = dyn_value_to_ddb_json_string (value);

          g_assert_cmpstr (json, ==, cases[i].expected);
        }
    }
  /* The attribute named "info.rating" and the path info.rating are two columns. */
  dotted = dyn_column_set_lookup_key (set, "a:info.rating");
  g_assert_nonnull (dotted);
  g_assert_cmpstr (dyn_value_get_string (dyn_column_lookup (dotted, movie)), ==, "a name with a dot");
  g_assert_true (dyn_column_set_lookup (set, "info.rating") == dotted);
  g_assert_nonnull (dyn_column_set_lookup_key (set, "p:info.rating"));
  g_assert_cmpstr (dyn_column_get_title (dyn_column_set_lookup_key (set, "p:info.`odd.name`.x")), ==,
                   "info.`odd.name`.x");
  /* The path is kept in the text syntax, with the space gone. */
  g_assert_nonnull (dyn_column_set_lookup_key (set, "p:tags[1].k"));
  g_assert_nonnull (dyn_column_set_lookup (set, "tags[1].k"));
}

static void
test_bad_paths (void)
{
  g_autoptr(DynColumnSet) set = dyn_column_set_new ();
  const char *bad[] = { "", "  ", "info..rating", "tags[", "[0]", "#p", "info.#p", "a = 1", "tags[-1]" };
  guint count = 0;

  g_signal_connect (set, "changed", G_CALLBACK (changed_cb), &count);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (dyn_column_set_add_path (set, bad[i], &error));
      g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPRESSION);
      g_assert_nonnull (error->message);
    }
  g_assert_cmpuint (count, ==, 0);
  g_assert_cmpuint (dyn_column_set_get_n_columns (set), ==, 0);
}

/* Order, hiding, moving, reordering and widths; new attributes after the
 * listed columns; a path column of one name becomes the attribute's column
 * once an item has it. */
static void
test_set (void)
{
  g_autoptr(DynColumnSet) set = dyn_column_set_new ();
  const char *first[] = { "PK", "SK", "Name", NULL };
  const char *second[] = { "PK", "SK", "Name", "Price", "Tags", NULL };
  const char *reordered[] = { "a:PK", "p:info.rating", "a:Tags", NULL };
  g_autoptr(GError) error = NULL;
  guint count = 0;

  g_signal_connect (set, "changed", G_CALLBACK (changed_cb), &count);
  g_assert_true (dyn_column_set_note_attributes (set, first, -1));
  g_assert_cmpuint (count, ==, 1);
  /* Nothing new: no change. */
  g_assert_false (dyn_column_set_note_attributes (set, first, 2));
  g_assert_cmpuint (count, ==, 1);
  assert_listed (set, "a:PK a:SK a:Name");
  g_assert_false (dyn_column_set_is_customized (set));

  g_assert_true (dyn_column_set_set_visible (set, "a:SK", FALSE));
  g_assert_true (dyn_column_set_is_customized (set));
  g_assert_nonnull (dyn_column_set_add_path (set, "info.rating", &error));
  g_assert_no_error (error);
  /* A name no item has yet: a path column for now. */
  g_assert_nonnull (dyn_column_set_add_path (set, "Price", &error));
  g_assert_no_error (error);
  assert_listed (set, "a:PK -a:SK a:Name p:info.rating p:Price");
  g_assert_true (dyn_column_set_set_width (set, "p:Price", 90));

  dyn_column_set_note_attributes (set, second, -1);
  assert_listed (set, "a:PK -a:SK a:Name p:info.rating a:Price a:Tags");
  g_assert_cmpint (dyn_column_get_width (dyn_column_set_lookup (set, "Price")), ==, 90);
  /* Adding a listed attribute shows it. */
  g_assert_true (dyn_column_set_add_path (set, "SK", &error) == dyn_column_set_lookup_key (set, "a:SK"));
  assert_listed (set, "a:PK a:SK a:Name p:info.rating a:Price a:Tags");

  g_assert_true (dyn_column_set_move (set, "a:Tags", 0));
  assert_listed (set, "a:Tags a:PK a:SK a:Name p:info.rating a:Price");
  g_assert_true (dyn_column_set_move (set, "a:PK", 3));
  assert_listed (set, "a:Tags a:SK a:Name a:PK p:info.rating a:Price");
  g_assert_true (dyn_column_set_move (set, "a:SK", 99));
  assert_listed (set, "a:Tags a:Name a:PK p:info.rating a:Price a:SK");
  g_assert_cmpuint (dyn_column_set_find (set, "a:PK"), ==, 2);
  g_assert_cmpuint (dyn_column_set_find (set, "a:Nope"), ==, G_MAXUINT);
  g_assert_false (dyn_column_set_move (set, "a:Nope", 0));

  /* A drag of the headers: the named columns in their places, in this order. */
  g_assert_true (dyn_column_set_reorder (set, reordered));
  assert_listed (set, "a:PK a:Name p:info.rating a:Tags a:Price a:SK");
  g_assert_false (dyn_column_set_reorder (set, reordered));

  g_assert_false (dyn_column_set_remove_path (set, "a:PK"));
  g_assert_true (dyn_column_set_remove_path (set, "p:info.rating"));
  assert_listed (set, "a:PK a:Name a:Tags a:Price a:SK");

  /* A new read: the layout stays, the attributes come back as items do. */
  dyn_column_set_set_visible (set, "a:Name", FALSE);
  dyn_column_set_forget_attributes (set);
  assert_listed (set, "");
  dyn_column_set_note_attributes (set, (const char *[]) { "PK", "Price", "Other", NULL }, -1);
  assert_listed (set, "a:PK a:Price a:Other");
  /* As the collection model lists them: all seen so far, keys first. */
  dyn_column_set_note_attributes (set, (const char *[]) { "PK", "SK", "Price", "Other", "Name", "Tags", NULL }, -1);
  assert_listed (set, "a:PK -a:Name a:Tags a:Price a:SK a:Other");

  g_assert_true (dyn_column_set_show_all (set));
  g_assert_false (dyn_column_set_show_all (set));
  dyn_column_set_reset (set);
  assert_listed (set, "a:PK a:SK a:Price a:Other a:Name a:Tags");
  g_assert_cmpint (dyn_column_get_width (dyn_column_set_lookup (set, "Price")), ==, 0);
  g_assert_false (dyn_column_set_is_customized (set));
}

/* The layout in a key file, with names a key file would misread. */
static void
test_key_file (void)
{
  const char *names[] = {
    "PK", "a;b", "back\\slash", "two\nlines", " leading", "trailing ", "=", "[x]", "Größe", "#", "a,b", "tab\there",
    NULL
  };
  g_autoptr(DynColumnSet) set = dyn_column_set_new ();
  g_autoptr(DynColumnSet) again = dyn_column_set_new ();
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GKeyFile) reread = g_key_file_new ();
  g_autofree char *group = dyn_columns_make_group ("profile:dev [eu]", "Movies");
  g_autofree char *data = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (strpbrk (group, "[]\n"));
  dyn_column_set_note_attributes (set, names, -1);
  g_assert_nonnull (dyn_column_set_add_path (set, "info.`a;b`[3].x", &error));
  g_assert_no_error (error);
  dyn_column_set_move (set, "a:two\nlines", 0);
  dyn_column_set_set_visible (set, "a:a;b", FALSE);
  dyn_column_set_set_visible (set, "a: leading", FALSE);
  dyn_column_set_set_width (set, "a:back\\slash", 123);
  dyn_column_set_set_width (set, "p:info.`a;b`[3].x", 77);
  dyn_column_set_save (set, file, group);
  data = g_key_file_to_data (file, NULL, NULL);
  g_assert_true (g_key_file_load_from_data (reread, data, -1, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);

  /* Loaded before any item is read: nothing is listed but the path. */
  g_assert_true (dyn_column_set_load (again, reread, group));
  assert_listed (again, "p:info.`a;b`[3].x");
  dyn_column_set_note_attributes (again, names, -1);
  expected = listed (set);
  got = listed (again);
  g_assert_cmpstr (got, ==, expected);
  g_assert_cmpint (dyn_column_get_width (dyn_column_set_lookup (again, "back\\slash")), ==, 123);
  g_assert_cmpint (dyn_column_get_width (dyn_column_set_lookup_key (again, "p:info.`a;b`[3].x")), ==, 77);
  g_assert_cmpint (dyn_column_get_width (dyn_column_set_lookup (again, "PK")), ==, 0);

  /* Attributes noted before the load keep their place after the layout. */
  {
    g_autoptr(DynColumnSet) early = dyn_column_set_new ();

    dyn_column_set_note_attributes (early, (const char *[]) { "New", "PK", NULL }, -1);
    g_assert_true (dyn_column_set_load (early, reread, group));
    g_assert_cmpuint (dyn_column_set_find (early, "a:New"), ==, dyn_column_set_get_n_columns (early) - 1);
    g_assert_cmpuint (dyn_column_set_find (early, "a:two\nlines"), ==, G_MAXUINT);
    g_assert_cmpuint (dyn_column_set_find (early, "a:PK"), ==, 0);
    g_assert_cmpuint (dyn_column_set_find (early, "p:info.`a;b`[3].x"), ==, 1);
    g_assert_false (dyn_column_set_load (early, reread, "other"));
  }

  /* Nothing customized: the group goes. */
  dyn_column_set_reset (set);
  dyn_column_set_save (set, file, group);
  g_assert_false (g_key_file_has_group (file, group));
}

/* The file: in the user's config folder, other tables' groups kept. */
static void
test_file (void)
{
  g_autofree char *path = dyn_columns_get_default_path ();
  g_autofree char *expected = g_build_filename (g_getenv ("XDG_CONFIG_HOME"), "dynoscope", "columns.ini", NULL);
  g_autofree char *movies = dyn_columns_make_group ("conn-1", "Movies");
  g_autofree char *products = dyn_columns_make_group ("conn-1", "Products");
  g_autofree char *other_conn = dyn_columns_make_group ("conn-2", "Movies");
  g_autoptr(DynColumnSet) a = dyn_column_set_new ();
  g_autoptr(DynColumnSet) b = dyn_column_set_new ();
  g_autoptr(DynColumnSet) loaded = dyn_column_set_new ();
  g_autoptr(GError) error = NULL;
  const char *attrs[] = { "year", "title", "info", NULL };

  g_assert_cmpstr (path, ==, expected);
  g_assert_cmpstr (movies, !=, other_conn);
  /* A table as read, never arranged: no file is written. */
  dyn_column_set_note_attributes (a, attrs, -1);
  g_assert_true (dyn_column_set_save_file (a, path, movies, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* No file yet: nothing to load, no error. */
  g_assert_true (dyn_column_set_load_file (loaded, path, movies, &error));
  g_assert_no_error (error);

  dyn_column_set_note_attributes (a, attrs, -1);
  dyn_column_set_set_visible (a, "a:info", FALSE);
  g_assert_true (dyn_column_set_save_file (a, path, movies, &error));
  g_assert_no_error (error);
  dyn_column_set_note_attributes (b, attrs, -1);
  dyn_column_set_move (b, "a:info", 0);
  g_assert_true (dyn_column_set_save_file (b, path, products, &error));
  g_assert_no_error (error);

  g_assert_true (dyn_column_set_load_file (loaded, path, movies, &error));
  g_assert_no_error (error);
  dyn_column_set_note_attributes (loaded, attrs, -1);
  assert_listed (loaded, "a:year a:title -a:info");
  g_assert_true (dyn_column_set_load_file (loaded, path, products, &error));
  assert_listed (loaded, "a:info a:year a:title");
  /* Another connection's table of the same name has its own layout. */
  {
    g_autoptr(DynColumnSet) fresh = dyn_column_set_new ();

    g_assert_true (dyn_column_set_load_file (fresh, path, other_conn, &error));
    dyn_column_set_note_attributes (fresh, attrs, -1);
    assert_listed (fresh, "a:year a:title a:info");
  }
  /* A file that is not a key file is not overwritten. */
  {
    g_autofree char *bad = g_build_filename (g_getenv ("XDG_CONFIG_HOME"), "bad.ini", NULL);
    g_autofree char *contents = NULL;

    g_assert_true (g_file_set_contents (bad, "not [a key file\n", -1, NULL));
    g_assert_false (dyn_column_set_save_file (a, bad, movies, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
    g_assert_true (g_file_get_contents (bad, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "not [a key file\n");
  }
}

/* Rows sorted by a column: stable for ties, exact numbers, missing last. */
static void
test_sort_items (void)
{
  const char *json[] = {
    "{\"PK\": \"p1\", \"Price\": 10}",
    "{\"PK\": \"p2\", \"Price\": 9.5}",
    "{\"PK\": \"p3\"}",
    "{\"PK\": \"p4\", \"Price\": \"ask\"}",
    "{\"PK\": \"p5\", \"Price\": 100}",
    "{\"PK\": \"p6\", \"Price\": 10.0}",
    "{\"PK\": \"p7\", \"Price\": -3}",
  };
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(DynColumnSet) set = dyn_column_set_new ();
  DynColumn *price;
  GString *order = g_string_new (NULL);
  g_autofree char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (json); i++)
    {
      g_autoptr(DynValue) value = item (json[i]);

      g_ptr_array_add (rows, dyn_item_object_new (value, "PK", NULL));
    }
  dyn_column_set_note_attributes (set, (const char *[]) { "PK", "Price", NULL }, -1);
  price = dyn_column_set_lookup (set, "Price");
  for (guint pass = 0; pass < 2; pass++)
    {
      gboolean descending = pass == 1;

      /* Insertion sort: stable, like the grid's sort model. */
      for (guint i = 1; i < rows->len; i++)
        for (guint j = i; j > 0 && dyn_column_compare_items (price, rows->pdata[j - 1], rows->pdata[j], descending) > 0; j--)
          {
            gpointer t = rows->pdata[j];

            rows->pdata[j] = rows->pdata[j - 1];
            rows->pdata[j - 1] = t;
          }
      for (guint i = 0; i < rows->len; i++)
        g_string_append_printf (order, "%s ", dyn_value_get_string (dyn_item_object_get_partition_key_value (rows->pdata[i])));
      g_string_append (order, "| ");
    }
  text = g_string_free (order, FALSE);
  g_assert_cmpstr (text, ==, "p7 p2 p1 p6 p5 p4 p3 | p4 p5 p1 p6 p2 p7 p3 | ");
}

/* A table with a local index on Price and global indexes on Category:
 * which reads return their items in a column's order, and which Query would. */
static DynTableKeys *
shop_keys (void)
{
  DynTableKeys *keys = dyn_table_keys_new ("Shop", "PK", DYN_VALUE_S, "SK", DYN_VALUE_S);

  dyn_table_keys_add_index (keys, "ByPrice", DYN_INDEX_LOCAL, "PK", DYN_VALUE_S, "Price", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  dyn_table_keys_add_index (keys, "CategoryRating", DYN_INDEX_GLOBAL, "Category", DYN_VALUE_S, "Rating", DYN_VALUE_N,
                            DYN_PROJECTION_KEYS_ONLY);
  dyn_table_keys_add_index (keys, "CategoryPrice", DYN_INDEX_GLOBAL, "Category", DYN_VALUE_S, "Price", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  return keys;
}

static DynReadRequest *
read_for (const DynTableKeys *keys,
          const char         *index,
          const char         *condition,
          gboolean            descending)
{
  DynReadSpec spec = { 0 };
  DynReadRequest *read;

  spec.index = index;
  spec.mode = DYN_READ_CONDITION;
  spec.filter = condition;
  spec.descending = descending;
  read = dyn_read_request_new (keys, &spec);
  g_assert_true (dyn_read_request_is_valid (read));
  return read;
}

static void
test_ordered_query (void)
{
  g_autoptr(DynTableKeys) keys = shop_keys ();
  g_autoptr(DynReadRequest) partition = read_for (keys, NULL, "PK = \"shop#1\"", FALSE);
  g_autoptr(DynReadRequest) category = read_for (keys, NULL, "Category = \"books\" AND Price < 20", FALSE);
  g_autoptr(DynReadRequest) scan = read_for (keys, NULL, NULL, FALSE);
  g_autoptr(DynReadRequest) on_lsi = read_for (keys, "ByPrice", "PK = \"shop#1\"", FALSE);
  g_autoptr(DynReadRequest) on_lsi_back = read_for (keys, "ByPrice", "PK = \"shop#1\"", TRUE);
  g_autoptr(DynReadRequest) on_table = read_for (keys, NULL, "PK = \"shop#1\" AND SK > \"A\"", FALSE);
  char *index = (char *) "unset";

  /* A Query on the table: the local index on Price has the same partition. */
  g_assert_true (dyn_columns_find_ordered_query (keys, partition, "Price", &index));
  g_assert_cmpstr (index, ==, "ByPrice");
  g_clear_pointer (&index, g_free);
  /* Its own sort key: already in that order. */
  g_assert_true (dyn_columns_read_is_ordered_by (keys, on_table, "SK", FALSE));
  g_assert_false (dyn_columns_read_is_ordered_by (keys, on_table, "SK", TRUE));
  g_assert_false (dyn_columns_find_ordered_query (keys, on_table, "SK", NULL));
  /* A Scan on Category: the global index that projects everything. */
  g_assert_cmpint (dyn_read_request_get_operation (category), ==, DYN_OP_SCAN);
  g_assert_true (dyn_columns_find_ordered_query (keys, category, "Price", &index));
  g_assert_cmpstr (index, ==, "CategoryPrice");
  g_clear_pointer (&index, g_free);
  /* Rating's index returns the keys only: not offered. */
  g_assert_false (dyn_columns_find_ordered_query (keys, category, "Rating", &index));
  g_assert_null (index);
  /* No sort key of any source, and no condition at all. */
  g_assert_false (dyn_columns_find_ordered_query (keys, partition, "Name", NULL));
  g_assert_false (dyn_columns_find_ordered_query (keys, scan, "Price", NULL));
  g_assert_false (dyn_columns_find_ordered_query (NULL, partition, "Price", NULL));
  g_assert_false (dyn_columns_find_ordered_query (keys, NULL, "Price", NULL));
  /* The Query on the local index is in Price order, each way. */
  g_assert_true (dyn_columns_read_is_ordered_by (keys, on_lsi, "Price", FALSE));
  g_assert_false (dyn_columns_read_is_ordered_by (keys, on_lsi, "Price", TRUE));
  g_assert_true (dyn_columns_read_is_ordered_by (keys, on_lsi_back, "Price", TRUE));
  g_assert_false (dyn_columns_find_ordered_query (keys, on_lsi, "Price", NULL));
  g_assert_false (dyn_columns_read_is_ordered_by (keys, category, "Price", FALSE));
  g_assert_false (dyn_columns_read_is_ordered_by (keys, scan, "PK", FALSE));
  /* The table's sort key from a Query on the local index. */
  g_assert_true (dyn_columns_find_ordered_query (keys, on_lsi, "SK", &index));
  g_assert_null (index);
}

/* A hash-only table: no sort key to be ordered by. */
static void
test_ordered_hash_only (void)
{
  g_autoptr(DynTableKeys) keys = dyn_table_keys_new ("Products", "id", DYN_VALUE_S, NULL, 0);
  g_autoptr(DynReadRequest) one = read_for (keys, NULL, "id = \"p1\"", FALSE);

  g_assert_false (dyn_columns_find_ordered_query (keys, one, "id", NULL));
  g_assert_false (dyn_columns_find_ordered_query (keys, one, "Price", NULL));
  g_assert_false (dyn_columns_read_is_ordered_by (keys, one, "id", FALSE));
}

static void
test_describe (void)
{
  struct {
    gboolean descending, grouped, complete, ordered;
    const char *index;
    guint n;
    const char *expected;
  } cases[] = {
    { FALSE, FALSE, FALSE, FALSE, NULL, 279, "Sorted by Price over the 279 loaded items — not the whole table" },
    { TRUE, FALSE, FALSE, FALSE, NULL, 1, "Sorted by Price (descending) over the 1 loaded item — not the whole table" },
    { FALSE, TRUE, FALSE, FALSE, NULL, 50,
      "Sorted by Price within each item collection, over the 50 loaded items — not the whole table" },
    { FALSE, FALSE, TRUE, FALSE, NULL, 12, "Sorted by Price over all 12 items read" },
    { FALSE, TRUE, TRUE, FALSE, NULL, 12, "Sorted by Price within each item collection, over all 12 items read" },
    { FALSE, FALSE, FALSE, TRUE, "ByPrice", 50,
      "Sorted by Price, the order in which the Query on index ByPrice returns the items: Load More continues it" },
    { TRUE, TRUE, TRUE, TRUE, NULL, 5,
      "Sorted by Price (descending), the order in which the Query on the table returns the items: Load More continues it" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = dyn_columns_describe_sort ("Price", cases[i].descending, cases[i].grouped, cases[i].n,
                                                         cases[i].complete, cases[i].ordered, cases[i].index);

      g_assert_cmpstr (text, ==, cases[i].expected);
    }
}

static void
test_describe_german (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *text = NULL;

      dyn_test_use_translations ("de");
      text = dyn_columns_describe_sort ("Preis", FALSE, FALSE, 279, FALSE, FALSE, NULL);
      g_assert_cmpstr (text, ==, "Nach Preis sortiert, über die 279 geladenen Elemente – nicht die ganze Tabelle");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tmp = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  /* A private config folder, set before GLib reads it. */
  tmp = g_dir_make_tmp ("dyn-test-columns-XXXXXX", NULL);
  g_setenv ("XDG_CONFIG_HOME", tmp, TRUE);

  g_test_add_func ("/dyn/columns/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/columns/compare", test_compare);
  g_test_add_func ("/dyn/columns/lookup", test_lookup);
  g_test_add_func ("/dyn/columns/bad-paths", test_bad_paths);
  g_test_add_func ("/dyn/columns/set", test_set);
  g_test_add_func ("/dyn/columns/key-file", test_key_file);
  g_test_add_func ("/dyn/columns/file", test_file);
  g_test_add_func ("/dyn/columns/sort-items", test_sort_items);
  g_test_add_func ("/dyn/columns/ordered-query", test_ordered_query);
  g_test_add_func ("/dyn/columns/ordered-hash-only", test_ordered_hash_only);
  g_test_add_func ("/dyn/columns/describe", test_describe);
  g_test_add_func ("/dyn/columns/describe-german", test_describe_german);

  status = g_test_run ();
  if (!g_test_subprocess ())
    remove_tree (tmp);
  return status;
}
