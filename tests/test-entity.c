/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-entity"
#include "config.h"

#include <string.h>

#include "dyn-entity.h"
#include "dyn-test-util.h"

/* Where entity labels come from (DynEntityDetector): a discriminator
 * attribute, a key prefix many items share, or nothing, on tables unlike
 * each other: a single-table design keyed by prefixes, a movies table keyed
 * by year and title, a shop whose items say EntityType, a product catalogue
 * without a sort key, an inverted index. */

typedef struct {
  DynEntityDetector *detector;
  GPtrArray         *items;
  const char        *pk;
  const char        *sk;
} Table;

static void
table_init (Table      *table,
            const char *pk,
            const char *sk)
{
  table->detector = dyn_entity_detector_new ();
  table->items = dyn_test_item_array_new ();
  table->pk = pk;
  table->sk = sk;
}

static void
table_clear (Table *table)
{
  g_clear_pointer (&table->detector, dyn_entity_detector_free);
  g_clear_pointer (&table->items, g_ptr_array_unref);
}

/* Observes @json (DynamoDB JSON items, one a line) as a model would: new
 * non-key attribute names first, then the item. Returns whether the rule
 * changed. */
static gboolean
table_add (Table      *table,
           const char *json)
{
  g_auto(GStrv) lines = g_strsplit (json, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      DynValue *item;

      if (*lines[i] == '\0')
        continue;
      item = dyn_test_item (lines[i]);
      g_ptr_array_add (table->items, item);
      for (guint m = 0; m < dyn_value_get_length (item); m++)
        {
          const char *name = dyn_value_map_get_name (item, m);

          if (g_strcmp0 (name, table->pk) != 0 && g_strcmp0 (name, table->sk) != 0)
            dyn_entity_detector_note_attribute (table->detector, name);
        }
      dyn_entity_detector_observe (table->detector, item, dyn_value_map_lookup (item, table->pk),
                                   table->sk ? dyn_value_map_lookup (item, table->sk) : NULL);
    }
  return dyn_entity_detector_update (table->detector);
}

/* The labels of every item so far, joined by spaces ("-" for none). */
static char *
table_labels (Table *table)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < table->items->len; i++)
    {
      DynValue *item = table->items->pdata[i];
      const char *label = dyn_entity_detector_label (table->detector, item, dyn_value_map_lookup (item, table->pk),
                                                     table->sk ? dyn_value_map_lookup (item, table->sk) : NULL);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, label ? label : "-");
      /* Interned. */
      if (label != NULL)
        g_assert_true (label == g_intern_string (label));
    }
  return g_string_free (out, FALSE);
}

static void
test_new_destroy (void)
{
  DynEntityDetector *detector = dyn_entity_detector_new ();

  g_assert_cmpint (dyn_entity_detector_get_source (detector), ==, DYN_ENTITY_SOURCE_NONE);
  g_assert_null (dyn_entity_detector_get_attribute (detector));
  g_assert_cmpint (dyn_entity_detector_get_separator (detector), ==, '\0');
  g_assert_false (dyn_entity_detector_update (detector));
  g_assert_true (dyn_entity_detector_is_candidate ("EntityType"));
  g_assert_true (dyn_entity_detector_is_candidate ("__edb_e__"));
  g_assert_false (dyn_entity_detector_is_candidate ("title"));
  {
    g_autofree char *name = g_enum_to_string (DYN_TYPE_ENTITY_SOURCE, DYN_ENTITY_SOURCE_SORT_KEY);

    g_assert_cmpstr (name, ==, "DYN_ENTITY_SOURCE_SORT_KEY");
  }
  dyn_entity_detector_free (detector);
}

/* The single-table design of the seeds: prefixes on the sort key, and
 * META, a word, labels itself. */
static void
test_sort_key_prefix (void)
{
  Table t;
  g_autofree char *labels = NULL;

  table_init (&t, "PK", "SK");
  g_assert_true (table_add (&t,
    "{\"PK\":{\"S\":\"WS#acme\"},\"SK\":{\"S\":\"META\"}}\n"
    "{\"PK\":{\"S\":\"WS#acme\"},\"SK\":{\"S\":\"PROJ#2026-0001\"}}\n"
    "{\"PK\":{\"S\":\"WS#acme\"},\"SK\":{\"S\":\"PROJ#2026-0002\"}}\n"
    "{\"PK\":{\"S\":\"WS#acme\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"}}\n"
    "{\"PK\":{\"S\":\"WS#acme\"},\"SK\":{\"S\":\"#x\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_SORT_KEY);
  g_assert_cmpint (dyn_entity_detector_get_separator (t.detector), ==, '#');
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "META PROJ PROJ ENROLL -");
  table_clear (&t);

  /* Another separator: "user:1". */
  table_init (&t, "PK", "SK");
  g_assert_true (table_add (&t,
    "{\"PK\":{\"S\":\"t1\"},\"SK\":{\"S\":\"user:1\"}}\n"
    "{\"PK\":{\"S\":\"t1\"},\"SK\":{\"S\":\"user:2\"}}\n"
    "{\"PK\":{\"S\":\"t1\"},\"SK\":{\"S\":\"order:7\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_separator (t.detector), ==, ':');
  g_clear_pointer (&labels, g_free);
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "user user order");
  table_clear (&t);
}

/* A movies table keyed by year (N) and title (S): titles are no types, even
 * when some share a word before ':' or are written twice. */
static void
test_movies (void)
{
  Table t;
  g_autofree char *labels = NULL;

  table_init (&t, "year", "title");
  g_assert_false (table_add (&t,
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"},\"info\":{\"M\":{\"rating\":{\"N\":\"8.1\"}}}}\n"
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Gravity\"}}\n"
    "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Star Wars: The Force\"}}\n"
    "{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Star Wars: Another\"}}\n"
    "{\"year\":{\"N\":\"1931\"},\"title\":{\"S\":\"Dracula\"}}\n"
    "{\"year\":{\"N\":\"1992\"},\"title\":{\"S\":\"Dracula\"}}\n"
    "{\"year\":{\"N\":\"2001\"},\"title\":{\"S\":\"Harry Potter and the Sorcerer's Stone\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_NONE);
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "- - - - - - -");
  table_clear (&t);

  /* Sort keys that are times: "2026-11-01T10:00" shares its ':' prefix with
   * other times of the hour, but it is no type name. */
  table_init (&t, "PK", "SK");
  g_assert_false (table_add (&t,
    "{\"PK\":{\"S\":\"dev1\"},\"SK\":{\"S\":\"2026-11-01T10:00:00Z\"}}\n"
    "{\"PK\":{\"S\":\"dev1\"},\"SK\":{\"S\":\"2026-11-01T10:05:00Z\"}}\n"
    "{\"PK\":{\"S\":\"dev1\"},\"SK\":{\"S\":\"2026-11-01T10:10:00Z\"}}\n"));
  table_clear (&t);
}

/* A shop whose items carry EntityType: the attribute names them, not the
 * keys' first letters. */
static void
test_discriminator (void)
{
  const char *shop =
    "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"c1\"},\"EntityType\":{\"S\":\"customer\"},\"type\":{\"S\":\"x1\"}}\n"
    "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"o1\"},\"EntityType\":{\"S\":\"order\"},\"type\":{\"S\":\"x2\"}}\n"
    "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"o2\"},\"EntityType\":{\"S\":\"order\"},\"type\":{\"S\":\"x3\"}}\n"
    "{\"PK\":{\"S\":\"c2\"},\"SK\":{\"S\":\"c2\"},\"EntityType\":{\"S\":\"customer\"},\"type\":{\"S\":\"x4\"}}\n";
  struct { const char *name; } libraries[] = { { "_et" }, { "__edb_e__" }, { "_type" }, { "__typename" }, { "type" } };
  Table t;
  g_autofree char *labels = NULL;

  table_init (&t, "PK", "SK");
  g_assert_true (table_add (&t, shop));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_ATTRIBUTE);
  /* "type" holds a value per item: no discriminator, and EntityType wins anyway. */
  g_assert_cmpstr (dyn_entity_detector_get_attribute (t.detector), ==, "EntityType");
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "customer order order customer");
  table_clear (&t);

  /* The names single-table libraries write. */
  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    {
      g_autofree char *items = g_strdup_printf (
        "{\"pk\":{\"S\":\"$acme#1\"},\"sk\":{\"S\":\"$user_1\"},\"%s\":{\"S\":\"User\"}}\n"
        "{\"pk\":{\"S\":\"$acme#2\"},\"sk\":{\"S\":\"$user_2\"},\"%s\":{\"S\":\"User\"}}\n"
        "{\"pk\":{\"S\":\"$acme#3\"},\"sk\":{\"S\":\"$task_1\"},\"%s\":{\"S\":\"Task\"}}\n",
        libraries[i].name, libraries[i].name, libraries[i].name);

      table_init (&t, "pk", "sk");
      g_assert_true (table_add (&t, items));
      g_assert_cmpstr (dyn_entity_detector_get_attribute (t.detector), ==, libraries[i].name);
      g_clear_pointer (&labels, g_free);
      labels = table_labels (&t);
      g_assert_cmpstr (labels, ==, "User User Task");
      table_clear (&t);
    }

  /* Not a discriminator: a number, values that never repeat, a long text,
   * an attribute on few items. */
  table_init (&t, "id", NULL);
  g_assert_false (table_add (&t,
    "{\"id\":{\"S\":\"a\"},\"type\":{\"N\":\"1\"},\"kind\":{\"S\":\"k1\"},\"Entity\":{\"S\":\"a long text that is not a type name at all\"}}\n"
    "{\"id\":{\"S\":\"b\"},\"type\":{\"N\":\"1\"},\"kind\":{\"S\":\"k2\"},\"Entity\":{\"S\":\"a long text that is not a type name at all\"}}\n"
    "{\"id\":{\"S\":\"c\"},\"type\":{\"N\":\"2\"},\"kind\":{\"S\":\"k3\"}}\n"
    "{\"id\":{\"S\":\"d\"},\"_et\":{\"S\":\"User\"}}\n"
    "{\"id\":{\"S\":\"e\"},\"_et\":{\"S\":\"User\"}}\n"
    "{\"id\":{\"S\":\"f\"}}\n"
    "{\"id\":{\"S\":\"g\"}}\n"
    "{\"id\":{\"S\":\"h\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_NONE);
  table_clear (&t);
}

/* A product catalogue without a sort key: ids are no types. With prefixed
 * ids, the partition key names them. */
static void
test_hash_only (void)
{
  Table t;
  g_autofree char *labels = NULL;

  table_init (&t, "ProductId", NULL);
  g_assert_false (table_add (&t,
    "{\"ProductId\":{\"S\":\"P-1001\"},\"Price\":{\"N\":\"19.99\"}}\n"
    "{\"ProductId\":{\"S\":\"P-1002\"},\"Price\":{\"N\":\"5\"}}\n"
    "{\"ProductId\":{\"S\":\"B-2001\"}}\n"));
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "- - -");
  table_clear (&t);

  table_init (&t, "PK", NULL);
  g_assert_true (table_add (&t,
    "{\"PK\":{\"S\":\"STU#a91\"}}\n"
    "{\"PK\":{\"S\":\"STU#b17\"}}\n"
    "{\"PK\":{\"S\":\"CRS#math204\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_PARTITION_KEY);
  g_clear_pointer (&labels, g_free);
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "STU STU CRS");
  table_clear (&t);
}

/* An inverted index: its sort key is the table's partition key (WS#acme on
 * every item), its partition key tells the items apart. */
static void
test_inverted (void)
{
  Table t;
  g_autofree char *labels = NULL;

  table_init (&t, "Detail", "EntityRef");
  g_assert_true (table_add (&t,
    "{\"Detail\":{\"S\":\"META\"},\"EntityRef\":{\"S\":\"WS#acme\"}}\n"
    "{\"Detail\":{\"S\":\"PROJ#1\"},\"EntityRef\":{\"S\":\"WS#acme\"}}\n"
    "{\"Detail\":{\"S\":\"PROJ#2\"},\"EntityRef\":{\"S\":\"WS#acme\"}}\n"
    "{\"Detail\":{\"S\":\"PROJ#3\"},\"EntityRef\":{\"S\":\"WS#globex\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_PARTITION_KEY);
  labels = table_labels (&t);
  g_assert_cmpstr (labels, ==, "META PROJ PROJ PROJ");
  table_clear (&t);
}

/* Pages arrive: the rule is decided with the first that says enough, and
 * later pages that agree change nothing. */
static void
test_revision (void)
{
  Table t;

  table_init (&t, "PK", "SK");
  /* One item: nothing to go by. */
  g_assert_false (table_add (&t, "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"c1\"},\"EntityType\":{\"S\":\"customer\"}}\n"));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_NONE);
  g_assert_true (table_add (&t, "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"o1\"},\"EntityType\":{\"S\":\"order\"}}\n"
                                "{\"PK\":{\"S\":\"c1\"},\"SK\":{\"S\":\"o2\"},\"EntityType\":{\"S\":\"order\"}}\n"));
  g_assert_cmpstr (dyn_entity_detector_get_attribute (t.detector), ==, "EntityType");
  for (guint page = 0; page < 10; page++)
    {
      g_autofree char *items = g_strdup_printf (
        "{\"PK\":{\"S\":\"c%u\"},\"SK\":{\"S\":\"c%u\"},\"EntityType\":{\"S\":\"customer\"}}\n"
        "{\"PK\":{\"S\":\"c%u\"},\"SK\":{\"S\":\"o9\"},\"EntityType\":{\"S\":\"order\"}}\n", page, page, page);

      g_assert_false (table_add (&t, items));
    }
  /* A reset forgets. */
  dyn_entity_detector_reset (t.detector);
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_NONE);
  g_assert_null (dyn_entity_detector_get_attribute (t.detector));
  table_clear (&t);

  /* Beyond the first items, one in sixteen is observed: still decided,
   * and a million items cost little. */
  table_init (&t, "PK", "SK");
  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr(DynValue) item = dyn_test_itemf ("{\"PK\":{\"S\":\"U#%u\"},\"SK\":{\"S\":\"EVT#%u\"}}", i % 50, i);

      dyn_entity_detector_observe (t.detector, item, dyn_value_map_lookup (item, "PK"),
                                   dyn_value_map_lookup (item, "SK"));
    }
  g_assert_true (dyn_entity_detector_update (t.detector));
  g_assert_cmpint (dyn_entity_detector_get_source (t.detector), ==, DYN_ENTITY_SOURCE_SORT_KEY);
  table_clear (&t);
}

static void
test_key_label (void)
{
  struct { const char *json; char separator; const char *label; } cases[] = {
    { "{\"S\":\"PROJ#2026-0042\"}", '#', "PROJ" },
    { "{\"S\":\"META\"}", '#', "META" },
    { "{\"S\":\"#x\"}", '#', NULL },
    { "{\"S\":\"2026-0001#acme\"}", '#', NULL },
    { "{\"S\":\"a title with spaces\"}", '#', NULL },
    { "{\"S\":\"order|17\"}", '|', "order" },
    { "{\"S\":\"order|17\"}", '#', NULL },
    { "{\"S\":\"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH#1\"}", '#', NULL },
    { "{\"N\":\"42\"}", '#', NULL },
    { "{\"B\":\"AAE=\"}", '#', NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynValue) item = NULL;
      g_autofree char *json = g_strdup_printf ("{\"k\":%s}", cases[i].json);

      item = dyn_test_item (json);
      g_assert_cmpstr (dyn_entity_key_label (dyn_value_map_lookup (item, "k"), cases[i].separator), ==, cases[i].label);
    }
  g_assert_null (dyn_entity_key_label (NULL, '#'));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/entity/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/entity/sort-key-prefix", test_sort_key_prefix);
  g_test_add_func ("/dyn/entity/movies", test_movies);
  g_test_add_func ("/dyn/entity/discriminator", test_discriminator);
  g_test_add_func ("/dyn/entity/hash-only", test_hash_only);
  g_test_add_func ("/dyn/entity/inverted", test_inverted);
  g_test_add_func ("/dyn/entity/revision", test_revision);
  g_test_add_func ("/dyn/entity/key-label", test_key_label);
  return g_test_run ();
}
