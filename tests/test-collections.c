/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-collections"

#include "config.h"

#include <string.h>

#include "dyn-collections.h"
#include "dyn-test-util.h"

/* Shadow lists ---------------------------------------------------------------
 *
 * A shadow follows a GListModel through items-changed alone and must always
 * equal the model's contents; a shadow of the collection model keeps one
 * child shadow per collection. */

typedef struct _Shadow Shadow;
struct _Shadow
{
  GListModel *model;
  GPtrArray  *items;      /* GObject*, owned */
  GPtrArray  *children;   /* Shadow*, parallel to items, or NULL */
  gulong      handler;
  guint       signals;
};

static void shadow_free (Shadow *self);

static Shadow *
shadow_new_child (GListModel *model)
{
  Shadow *self = g_new0 (Shadow, 1);

  self->model = g_object_ref (model);
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    g_ptr_array_add (self->items, g_list_model_get_item (model, i));
  return self;
}

static void
shadow_items_changed_cb (GListModel *model,
                         guint       position,
                         guint       removed,
                         guint       added,
                         Shadow     *self)
{
  guint n = g_list_model_get_n_items (model);

  self->signals++;
  g_assert_cmpuint (removed + added, >, 0);
  g_assert_cmpuint (position + removed, <=, self->items->len);
  g_assert_cmpuint (self->items->len - removed + added, ==, n);

  g_ptr_array_remove_range (self->items, position, removed);
  if (self->children != NULL)
    g_ptr_array_remove_range (self->children, position, removed);
  for (guint i = 0; i < added; i++)
    {
      GObject *obj = g_list_model_get_item (model, position + i);

      g_assert_nonnull (obj);
      g_ptr_array_insert (self->items, position + i, obj);
      if (self->children != NULL)
        g_ptr_array_insert (self->children, position + i, shadow_new_child (G_LIST_MODEL (obj)));
    }
}

static void
shadow_connect (Shadow *self)
{
  self->handler = g_signal_connect (self->model, "items-changed",
                                    G_CALLBACK (shadow_items_changed_cb), self);
  for (guint i = 0; self->children != NULL && i < self->children->len; i++)
    shadow_connect (self->children->pdata[i]);
}

static Shadow *
shadow_new (GListModel *model,
            gboolean    nested)
{
  Shadow *self = shadow_new_child (model);

  if (nested)
    {
      self->children = g_ptr_array_new_with_free_func ((GDestroyNotify) shadow_free);
      for (guint i = 0; i < self->items->len; i++)
        g_ptr_array_add (self->children, shadow_new_child (self->items->pdata[i]));
    }
  shadow_connect (self);
  return self;
}

static void
shadow_free (Shadow *self)
{
  g_clear_signal_handler (&self->handler, self->model);
  g_clear_pointer (&self->children, g_ptr_array_unref);
  g_ptr_array_unref (self->items);
  g_object_unref (self->model);
  g_free (self);
}

/* Child shadows created by a signal connect themselves lazily: connect every
 * child that has no handler yet. */
static void
shadow_connect_new (Shadow *self)
{
  for (guint i = 0; self->children != NULL && i < self->children->len; i++)
    {
      Shadow *child = self->children->pdata[i];

      if (child->handler == 0)
        shadow_connect (child);
    }
}

static void
shadow_verify (Shadow *self)
{
  g_assert_cmpuint (self->items->len, ==, g_list_model_get_n_items (self->model));
  for (guint i = 0; i < self->items->len; i++)
    {
      g_autoptr(GObject) obj = g_list_model_get_item (self->model, i);

      g_assert_true (obj == self->items->pdata[i]);
    }
  g_assert_null (g_list_model_get_item (self->model, self->items->len));
  for (guint i = 0; self->children != NULL && i < self->children->len; i++)
    {
      Shadow *child = self->children->pdata[i];

      g_assert_true (child->model == self->items->pdata[i]);
      shadow_verify (child);
    }
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Shadow, shadow_free)

/* A model with shadows of its grouped and flat views. */
typedef struct {
  DynCollectionModel *model;
  Shadow             *grouped;
  Shadow             *flat;
} Watched;

static void
watched_init (Watched            *w,
              DynCollectionModel *model)
{
  w->model = model;
  w->grouped = shadow_new (G_LIST_MODEL (model), TRUE);
  w->flat = shadow_new (dyn_collection_model_get_flat_model (model), FALSE);
}

/* Appends a page and checks the signal accounting. */
static void
watched_append (Watched   *w,
                GPtrArray *page)
{
  guint top_before = w->grouped->signals, flat_before = w->flat->signals;

  dyn_collection_model_append_page (w->model, page);
  shadow_connect_new (w->grouped);
  g_assert_cmpuint (w->grouped->signals - top_before, <=, 1);
  g_assert_cmpuint (w->flat->signals - flat_before, ==, page->len > 0 ? 1 : 0);
  shadow_verify (w->grouped);
  shadow_verify (w->flat);
}

static void
watched_clear (Watched *w)
{
  g_clear_pointer (&w->grouped, shadow_free);
  g_clear_pointer (&w->flat, shadow_free);
}

/* Helpers ------------------------------------------------------------------- */

static GPtrArray *
load_seed (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "seed-data", name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  GPtrArray *items = dyn_test_item_array_new ();
  g_autofree char *text = NULL;
  JsonArray *array;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      DynValue *item = dyn_item_from_ddb_json (json_array_get_element (array, i), &error);

      g_assert_no_error (error);
      g_ptr_array_add (items, item);
    }
  return items;
}

/* A new array of items [start, start+n) of @items. */
static GPtrArray *
page_of (GPtrArray   *items,
         guint        start,
         guint        n)
{
  GPtrArray *page = dyn_test_item_array_new ();

  for (guint i = start; i < start + n && i < items->len; i++)
    g_ptr_array_add (page, dyn_value_ref (items->pdata[i]));
  return page;
}

static void
shuffle (GPtrArray *items,
         GRand     *rand)
{
  for (guint i = items->len; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      gpointer t = items->pdata[i - 1];

      items->pdata[i - 1] = items->pdata[j];
      items->pdata[j] = t;
    }
}

static const char *
obj_string (DynItemObject *obj,
            const char    *name)
{
  return dyn_test_item_get_string (dyn_item_object_get_item (obj), name);
}

static const char *
sk_text (DynItemObject *obj)
{
  DynValue *sk = dyn_item_object_get_sort_key_value (obj);

  if (sk == NULL)
    return NULL;
  return dyn_value_get_value_type (sk) == DYN_VALUE_N ? dyn_value_get_number (sk)
                                                      : dyn_value_get_string (sk);
}

static DynValue *
string_value (const char *s)
{
  return dyn_value_new_string (s);
}

/* Every collection is in sort order and holds only its own key. */
static void
assert_collections_sorted (DynCollectionModel *model)
{
  gboolean desc = dyn_collection_model_get_descending (model);
  guint total = 0;

  for (guint c = 0; c < dyn_collection_model_get_n_collections (model); c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);
      DynValue *pk = dyn_collection_get_partition_key_value (coll);
      guint n = dyn_collection_get_n_items (coll);

      g_assert_cmpuint (n, >, 0);
      total += n;
      for (guint i = 0; i < n; i++)
        {
          DynItemObject *obj = dyn_collection_peek_item (coll, i);
          DynValue *ipk = dyn_item_object_get_partition_key_value (obj);

          if (pk == NULL)
            g_assert_null (ipk);
          else
            g_assert_true (dyn_value_equal (pk, ipk));
          if (i > 0)
            {
              DynValue *a = dyn_item_object_get_sort_key_value (dyn_collection_peek_item (coll, i - 1));
              DynValue *b = dyn_item_object_get_sort_key_value (obj);

              if (a != NULL && b != NULL)
                {
                  int cmp = dyn_value_compare (a, b);
                  g_assert_cmpint (desc ? -cmp : cmp, <=, 0);
                }
              else
                g_assert_true (a == NULL || b != NULL);   /* missing first */
            }
        }
    }
  g_assert_cmpuint (total, ==, dyn_collection_model_get_n_items_total (model));
}

/* Tests --------------------------------------------------------------------- */

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_item_object_new_destroy (void)
{
  g_autoptr(DynValue) item = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0042\"},\"title\":{\"S\":\"x\"}}");
  DynItemObject *obj = dyn_item_object_new (item, "EntityRef", "Detail");
  g_autoptr(DynValue) got = NULL;
  g_autofree char *type = NULL;
  DynItemState state;
  guint notified = 0;

  g_assert_true (dyn_item_object_get_item (obj) == item);
  g_assert_cmpstr (dyn_value_get_string (dyn_item_object_get_partition_key_value (obj)), ==, "WS#acme");
  g_assert_cmpstr (dyn_value_get_string (dyn_item_object_get_sort_key_value (obj)), ==, "PROJ#2026-0042");
  /* Borrowed from the item, not copied. */
  g_assert_true (dyn_item_object_get_sort_key_value (obj) == dyn_value_map_lookup (item, "Detail"));
  g_assert_cmpstr (dyn_item_object_get_entity_type (obj), ==, "PROJ");
  g_assert_true (dyn_item_object_get_entity_type (obj) == g_intern_static_string ("PROJ"));

  g_object_get (obj, "item", &got, "entity-type", &type, "state", &state, NULL);
  g_assert_true (got == item);
  g_assert_cmpstr (type, ==, "PROJ");
  g_assert_cmpint (state, ==, DYN_ITEM_STATE_UNCHANGED);

  g_signal_connect (obj, "notify::state", G_CALLBACK (notify_count_cb), &notified);
  dyn_item_object_set_state (obj, DYN_ITEM_STATE_CHANGED);
  dyn_item_object_set_state (obj, DYN_ITEM_STATE_CHANGED);
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (obj, "state", DYN_ITEM_STATE_DELETED, NULL);
  g_assert_cmpint (dyn_item_object_get_state (obj), ==, DYN_ITEM_STATE_DELETED);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpstr (g_enum_get_value (g_type_class_peek (DYN_TYPE_ITEM_STATE), DYN_ITEM_STATE_ADDED)->value_nick, ==, "added");

  g_assert_finalize_object (obj);
}

static void
test_entity_types (void)
{
  struct { const char *json; const char *sk; const char *type; } cases[] = {
    { "{\"P\":{\"S\":\"a\"},\"S\":{\"S\":\"META\"}}", "S", "META" },
    { "{\"P\":{\"S\":\"a\"},\"S\":{\"S\":\"ENROLL#CRS#math204\"}}", "S", "ENROLL" },
    { "{\"P\":{\"S\":\"a\"},\"S\":{\"S\":\"#x\"}}", "S", NULL },
    { "{\"P\":{\"S\":\"a\"},\"S\":{\"N\":\"42\"}}", "S", NULL },
    { "{\"P\":{\"S\":\"a\"},\"S\":{\"B\":\"AAE=\"}}", "S", NULL },
    { "{\"P\":{\"S\":\"a\"}}", "S", NULL },
    /* A simple key: the type comes from the partition key. */
    { "{\"P\":{\"S\":\"STU#a91\"}}", NULL, "STU" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (cases[i].json);
      g_autoptr(DynItemObject) obj = dyn_item_object_new (item, "P", cases[i].sk);

      g_assert_cmpstr (dyn_item_object_get_entity_type (obj), ==, cases[i].type);
    }
}

static void
test_model_new_destroy (void)
{
  DynCollectionModel *model = dyn_collection_model_new ("EntityRef", "Detail", TRUE);
  DynKeySchema keys = { .partition_key = "PK", .partition_type = DYN_VALUE_S,
                        .sort_key = NULL, .sort_type = DYN_VALUE_S };
  DynCollectionModel *simple = dyn_collection_model_new_for_schema (&keys, FALSE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autofree char *pk = NULL;
  gboolean desc = FALSE;
  guint n_attrs = 99;
  GListModel *flat;
  DynCollection *coll;

  g_assert_true (G_IS_LIST_MODEL (model));
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == DYN_TYPE_COLLECTION);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  g_object_get (model, "partition-key", &pk, "descending", &desc, NULL);
  g_assert_cmpstr (pk, ==, "EntityRef");
  g_assert_true (desc);
  g_assert_cmpstr (dyn_collection_model_get_sort_key (model), ==, "Detail");
  g_assert_cmpstr (dyn_collection_model_get_partition_key (simple), ==, "PK");
  g_assert_null (dyn_collection_model_get_sort_key (simple));
  g_assert_null (dyn_collection_model_get_attributes (model, &n_attrs)[0]);
  g_assert_cmpuint (n_attrs, ==, 0);

  flat = dyn_collection_model_get_flat_model (model);
  g_assert_true (g_list_model_get_item_type (flat) == DYN_TYPE_ITEM_OBJECT);

  dyn_collection_model_append_page (model, items);
  coll = g_list_model_get_item (G_LIST_MODEL (model), 0);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (coll)) == DYN_TYPE_ITEM_OBJECT);

  /* A collection held elsewhere (by a GtkTreeListModel) outlives the model. */
  g_object_ref (flat);
  g_assert_finalize_object (model);
  g_assert_cmpuint (dyn_collection_get_n_items (coll), ==, 13);
  g_assert_finalize_object (coll);
  g_assert_cmpuint (g_list_model_get_n_items (flat), ==, items->len);
  g_assert_finalize_object (flat);
  g_assert_finalize_object (simple);
}

static void
check_workspaces (DynCollectionModel *model,
                  gboolean            descending)
{
  g_autoptr(DynValue) acme_key = string_value ("WS#acme");
  g_autoptr(DynValue) globex_key = string_value ("WS#globex");
  DynCollection *acme, *globex;
  DynItemObject *first, *last;

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 16);
  acme = dyn_collection_model_lookup_collection (model, acme_key);
  globex = dyn_collection_model_lookup_collection (model, globex_key);
  g_assert_cmpstr (dyn_collection_get_title (acme), ==, "WS#acme");
  g_assert_cmpstr (dyn_collection_get_title (globex), ==, "WS#globex");
  g_assert_cmpuint (dyn_collection_get_n_items (acme), ==, 13);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (globex)), ==, 3);

  first = dyn_collection_peek_item (acme, 0);
  last = dyn_collection_peek_item (acme, 12);
  if (descending)
    {
      DynItemObject *t = first;
      first = last;
      last = t;
    }
  g_assert_cmpstr (sk_text (first), ==, "META");
  g_assert_cmpstr (dyn_item_object_get_entity_type (first), ==, "META");
  g_assert_cmpstr (obj_string (first, "name"), ==, "Acme Corp");
  g_assert_cmpstr (sk_text (last), ==, "PROJ#2026-0050");
  g_assert_cmpstr (dyn_item_object_get_entity_type (last), ==, "PROJ");
  /* Newest first, as the article's Query with ScanIndexForward=false. */
  if (descending)
    {
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 0)), ==, "PROJ#2026-0050");
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 1)), ==, "PROJ#2026-0043");
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 2)), ==, "PROJ#2026-0042");
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (globex, 2)), ==, "META");
    }
  else
    {
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 1)), ==, "PROJ#2025-0003");
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (globex, 0)), ==, "META");
      g_assert_cmpstr (sk_text (dyn_collection_peek_item (globex, 2)), ==, "PROJ#2026-0102");
    }
  for (guint i = 0; i < 13; i++)
    {
      DynItemObject *obj = dyn_collection_peek_item (acme, i);
      g_assert_cmpstr (dyn_item_object_get_entity_type (obj), ==,
                       strcmp (sk_text (obj), "META") == 0 ? "META" : "PROJ");
    }
  assert_collections_sorted (model);
}

static void
test_workspaces (void)
{
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (int desc = 0; desc <= 1; desc++)
    for (guint page_size = 1; page_size <= 16; page_size += 3)
      for (int shuffled = 0; shuffled <= 1; shuffled++)
        {
          g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", desc);
          g_autoptr(GPtrArray) order = page_of (items, 0, items->len);
          Watched w;

          if (shuffled)
            shuffle (order, rand);
          watched_init (&w, model);
          for (guint i = 0; i < order->len; i += page_size)
            {
              g_autoptr(GPtrArray) page = page_of (order, i, page_size);
              watched_append (&w, page);
            }
          check_workspaces (model, desc);
          /* First-appearance order of the collections. */
          g_assert_cmpstr (dyn_collection_get_title (dyn_collection_model_peek_collection (model, 0)), ==,
                           dyn_test_item_get_string (order->pdata[0], "EntityRef"));
          /* Arrival order in the flat model. */
          for (guint i = 0; i < order->len; i++)
            {
              g_autoptr(DynItemObject) obj = g_list_model_get_item (dyn_collection_model_get_flat_model (model), i);
              g_assert_true (dyn_item_object_get_item (obj) == order->pdata[i]);
            }
          watched_clear (&w);
        }
}

static void
test_university (void)
{
  g_autoptr(GPtrArray) items = load_seed ("university.json");
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", FALSE);
  g_autoptr(GHashTable) expected = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) first_seen = g_ptr_array_new ();
  g_autoptr(DynValue) a91 = string_value ("STU#a91");
  DynCollection *coll;
  Watched w;

  for (guint i = 0; i < items->len; i++)
    {
      const char *pk = dyn_test_item_get_string (items->pdata[i], "PK");
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (expected, pk));

      if (n == 0)
        g_ptr_array_add (first_seen, (gpointer) pk);
      g_hash_table_insert (expected, (gpointer) pk, GUINT_TO_POINTER (n + 1));
    }

  watched_init (&w, model);
  for (guint i = 0; i < items->len; i += 4)
    {
      g_autoptr(GPtrArray) page = page_of (items, i, 4);
      watched_append (&w, page);
    }

  /* First-appearance order, the counts of the fixture. */
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, first_seen->len);
  for (guint c = 0; c < first_seen->len; c++)
    {
      coll = dyn_collection_model_peek_collection (model, c);
      g_assert_cmpstr (dyn_collection_get_title (coll), ==, first_seen->pdata[c]);
      g_assert_cmpuint (dyn_collection_get_n_items (coll), ==,
                        GPOINTER_TO_UINT (g_hash_table_lookup (expected, first_seen->pdata[c])));
    }
  assert_collections_sorted (model);

  /* A student: enrolments (ENROLL#…) sort before the PROFILE. */
  coll = dyn_collection_model_lookup_collection (model, a91);
  g_assert_nonnull (coll);
  g_assert_cmpuint (dyn_collection_get_n_items (coll), >=, 3);
  g_assert_cmpstr (sk_text (dyn_collection_peek_item (coll, 0)), ==, "ENROLL#CRS#math204");
  g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, 0)), ==, "ENROLL");
  g_assert_cmpstr (sk_text (dyn_collection_peek_item (coll, 1)), ==, "ENROLL#CRS#phys101");
  {
    DynItemObject *last = dyn_collection_peek_item (coll, dyn_collection_get_n_items (coll) - 1);
    g_assert_cmpstr (dyn_item_object_get_entity_type (last), ==, "PROFILE");
  }
  watched_clear (&w);
}

/* The inverted index: GSI1PK = CRS#… groups a course's roster, whose sort
 * keys (STU#…) give the entity type. */
static void
test_gsi_view (void)
{
  g_autoptr(GPtrArray) items = load_seed ("university.json");
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("GSI1PK", "GSI1SK", FALSE);
  g_autoptr(DynValue) math = string_value ("CRS#math204");
  DynCollection *roster;

  dyn_collection_model_append_page (model, items);
  roster = dyn_collection_model_lookup_collection (model, math);
  g_assert_nonnull (roster);
  for (guint i = 0; i < dyn_collection_get_n_items (roster); i++)
    g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (roster, i)), ==, "STU");
  assert_collections_sorted (model);
}

static DynValue *
ws_item (const char *pk,
         const char *sk,
         const char *extra)
{
  return dyn_test_itemf ("{\"EntityRef\":{\"S\":\"%s\"},\"Detail\":{\"S\":\"%s\"}%s}",
                         pk, sk, extra ? extra : "");
}

typedef struct {
  guint position, removed, added;
} Change;

static void
record_change_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GArray     *changes)
{
  Change c = { position, removed, added };
  g_array_append_val (changes, c);
}

static void
test_existing_collection (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  DynCollection *acme;
  Change *c;
  Watched w;

  watched_init (&w, model);
  for (guint i = 0; i < 10; i += 2)
    {
      char sk[16];
      g_snprintf (sk, sizeof sk, "K%02u", i);
      g_ptr_array_add (page, ws_item ("WS#acme", sk, NULL));
    }
  watched_append (&w, page);
  acme = dyn_collection_model_peek_collection (model, 0);
  g_signal_connect (acme, "items-changed", G_CALLBACK (record_change_cb), changes);

  /* The partition continues on the next page: one signal at the end. */
  g_ptr_array_set_size (page, 0);
  g_ptr_array_add (page, ws_item ("WS#acme", "K10", NULL));
  g_ptr_array_add (page, ws_item ("WS#acme", "K11", NULL));
  g_ptr_array_add (page, ws_item ("WS#new", "A", NULL));
  watched_append (&w, page);
  g_assert_cmpuint (changes->len, ==, 1);
  c = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (c->position, ==, 5);
  g_assert_cmpuint (c->removed, ==, 0);
  g_assert_cmpuint (c->added, ==, 2);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 2);

  /* Two runs in the middle (out of order in the page): a signal per run. */
  g_array_set_size (changes, 0);
  g_ptr_array_set_size (page, 0);
  g_ptr_array_add (page, ws_item ("WS#acme", "K05", NULL));
  g_ptr_array_add (page, ws_item ("WS#acme", "K01", NULL));
  g_ptr_array_add (page, ws_item ("WS#acme", "K03", NULL));
  g_ptr_array_add (page, ws_item ("WS#acme", "K00", NULL));   /* equal key: after the old one */
  watched_append (&w, page);
  g_assert_cmpuint (changes->len, ==, 3);
  c = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (c->position, ==, 1);
  g_assert_cmpuint (c->added, ==, 2);
  c = &g_array_index (changes, Change, 1);
  g_assert_cmpuint (c->position, ==, 4);
  g_assert_cmpuint (c->added, ==, 1);
  c = &g_array_index (changes, Change, 2);
  g_assert_cmpuint (c->position, ==, 6);
  g_assert_cmpuint (c->added, ==, 1);
  g_assert_true (dyn_item_object_get_item (dyn_collection_peek_item (acme, 1)) == page->pdata[3]);
  g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 2)), ==, "K01");
  assert_collections_sorted (model);

  /* Many runs: one signal over the span they cover. */
  g_ptr_array_set_size (page, 0);
  for (guint i = 0; i < 30; i++)
    {
      char sk[16];
      g_snprintf (sk, sizeof sk, "L%02u", i);
      g_ptr_array_add (page, ws_item ("WS#acme", sk, NULL));
    }
  watched_append (&w, page);
  g_array_set_size (changes, 0);
  g_ptr_array_set_size (page, 0);
  for (guint i = 2; i < 27; i++)
    {
      char sk[16];
      g_snprintf (sk, sizeof sk, "L%02u5", i);   /* between L02 and L03 … */
      g_ptr_array_add (page, ws_item ("WS#acme", sk, NULL));
    }
  watched_append (&w, page);
  g_assert_cmpuint (changes->len, ==, 1);
  c = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (c->position, ==, 11 + 3);
  g_assert_cmpuint (c->removed, ==, 24);
  g_assert_cmpuint (c->added, ==, 24 + 25);
  g_assert_cmpuint (dyn_collection_get_n_items (acme), ==, 11 + 30 + 25);
  g_assert_cmpstr (sk_text (dyn_collection_peek_item (acme, 11 + 3)), ==, "L025");
  assert_collections_sorted (model);

  watched_clear (&w);
}

static void
test_number_keys (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("id", "n", FALSE);
  g_autoptr(DynCollectionModel) desc = dyn_collection_model_new ("id", "n", TRUE);
  const char *sks[] = { "10", "2", "-3", "1.5", "1E+2", "0.001", "-20" };
  const char *expected[] = { "-20", "-3", "0.001", "1.5", "2", "10", "1E+2" };
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) one = dyn_value_new_number ("1", &error);
  DynCollection *coll;
  Watched w;

  for (guint i = 0; i < G_N_ELEMENTS (sks); i++)
    /* "1", "1.0", "1.00" … are one partition-key value. */
    g_ptr_array_add (page, dyn_test_itemf ("{\"id\":{\"N\":\"1%s\"},\"n\":{\"N\":\"%s\"}}",
                                           i == 0 ? "" : i % 2 ? ".0" : ".00", sks[i]));
  watched_init (&w, model);
  watched_append (&w, page);
  dyn_collection_model_append_page (desc, page);

  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  coll = dyn_collection_model_lookup_collection (model, one);
  g_assert_nonnull (coll);
  g_assert_cmpstr (dyn_collection_get_title (coll), ==, "1");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      DynItemObject *obj = dyn_collection_peek_item (coll, i);
      g_assert_cmpstr (sk_text (obj), ==, expected[i]);
      g_assert_null (dyn_item_object_get_entity_type (obj));
    }
  coll = dyn_collection_model_peek_collection (desc, 0);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (sk_text (dyn_collection_peek_item (coll, i)), ==,
                     expected[G_N_ELEMENTS (expected) - 1 - i]);
  watched_clear (&w);
}

static void
test_binary_keys (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("k", "b", FALSE);
  /* ff, 80, 0001, 00, 01: bytewise unsigned → 00, 0001, 01, 80, ff. */
  const char *sks[] = { "/w==", "gA==", "AAE=", "AA==", "AQ==" };
  const guint8 expected[][2] = { { 1, 0x00 }, { 2, 0x00 }, { 1, 0x01 }, { 1, 0x80 }, { 1, 0xff } };
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  DynCollection *coll;

  for (guint i = 0; i < G_N_ELEMENTS (sks); i++)
    g_ptr_array_add (page, dyn_test_itemf ("{\"k\":{\"B\":\"AAEC\"},\"b\":{\"B\":\"%s\"}}", sks[i]));
  dyn_collection_model_append_page (model, page);

  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);
  coll = dyn_collection_model_peek_collection (model, 0);
  g_assert_cmpstr (dyn_collection_get_title (coll), ==, "AAEC");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      DynItemObject *obj = dyn_collection_peek_item (coll, i);
      GBytes *bytes = dyn_value_get_binary (dyn_item_object_get_sort_key_value (obj));
      gsize len;
      const guint8 *data = g_bytes_get_data (bytes, &len);

      g_assert_cmpuint (len, ==, expected[i][0]);
      g_assert_cmpuint (data[0], ==, expected[i][1]);
      g_assert_null (dyn_item_object_get_entity_type (obj));
    }
}

static void
test_simple_key (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", NULL, FALSE);
  g_autoptr(GPtrArray) items = load_seed ("university.json");
  guint n_attrs;
  const char * const *attrs;

  /* Only the profiles: one item per key. */
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (dyn_test_item_get_string (items->pdata[i], "SK"), "PROFILE") == 0)
      g_ptr_array_add (page, dyn_value_ref (items->pdata[i]));
  dyn_collection_model_append_page (model, page);

  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, page->len);
  for (guint i = 0; i < page->len; i++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, i);
      DynItemObject *obj = dyn_collection_peek_item (coll, 0);

      g_assert_cmpuint (dyn_collection_get_n_items (coll), ==, 1);
      g_assert_null (dyn_item_object_get_sort_key_value (obj));
      g_assert_cmpstr (dyn_item_object_get_entity_type (obj), ==, "STU");
    }
  attrs = dyn_collection_model_get_attributes (model, &n_attrs);
  g_assert_cmpstr (attrs[0], ==, "PK");
  g_assert_cmpstr (attrs[1], ==, "SK");   /* not a key here: first-seen order */
}

static void
test_flat (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(GPtrArray) order = page_of (items, 0, items->len);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  GListModel *flat = dyn_collection_model_get_flat_model (model);

  shuffle (order, rand);
  g_signal_connect (flat, "items-changed", G_CALLBACK (record_change_cb), changes);
  for (guint i = 0; i < order->len; i += 5)
    {
      g_autoptr(GPtrArray) page = page_of (order, i, 5);
      dyn_collection_model_append_page (model, page);
    }
  g_assert_cmpuint (changes->len, ==, 4);
  for (guint i = 0; i < changes->len; i++)
    {
      Change *c = &g_array_index (changes, Change, i);
      g_assert_cmpuint (c->position, ==, i * 5);
      g_assert_cmpuint (c->removed, ==, 0);
      g_assert_cmpuint (c->added, ==, MIN (5, order->len - i * 5));
    }
  g_assert_cmpuint (g_list_model_get_n_items (flat), ==, order->len);
  for (guint i = 0; i < order->len; i++)
    {
      g_autoptr(DynItemObject) obj = g_list_model_get_item (flat, i);
      g_assert_true (dyn_item_object_get_item (obj) == order->pdata[i]);
    }
  /* An empty page changes nothing. */
  {
    g_autoptr(GPtrArray) empty = g_ptr_array_new ();
    dyn_collection_model_append_page (model, empty);
    g_assert_cmpuint (changes->len, ==, 4);
  }
}

typedef struct {
  guint position, removed, added, n_after;
} AttrChange;

static void
attributes_changed_cb (DynCollectionModel *model,
                       guint               position,
                       guint               removed,
                       guint               added,
                       GArray             *changes)
{
  AttrChange c = { position, removed, added, 0 };

  dyn_collection_model_get_attributes (model, &c.n_after);
  g_array_append_val (changes, c);
}

static void
assert_attributes (DynCollectionModel *model,
                   const char * const *expected)
{
  guint n;
  const char * const *attrs = dyn_collection_model_get_attributes (model, &n);

  g_assert_cmpuint (n, ==, g_strv_length ((char **) expected));
  for (guint i = 0; i <= n; i++)
    g_assert_cmpstr (attrs[i], ==, expected[i]);
}

static void
test_attributes (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (AttrChange));
  g_autoptr(GPtrArray) page = NULL;
  guint n_prop = 0;
  const char *ws[] = { "EntityRef", "Detail", "name", "plan", "createdOn", "seats", NULL };
  const char *ws2[] = { "EntityRef", "Detail", "name", "plan", "createdOn", "seats",
                        "title", "status", "budget", NULL };

  g_signal_connect (model, "attributes-changed", G_CALLBACK (attributes_changed_cb), changes);
  page = page_of (items, 0, 1);
  dyn_collection_model_append_page (model, page);
  assert_attributes (model, ws);
  g_assert_cmpuint (changes->len, ==, 1);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 0).position, ==, 0);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 0).added, ==, 6);

  /* Same names again: no signal. */
  g_clear_pointer (&page, g_ptr_array_unref);
  page = page_of (items, 0, 1);
  dyn_collection_model_append_page (model, page);
  g_assert_cmpuint (changes->len, ==, 1);

  g_clear_pointer (&page, g_ptr_array_unref);
  page = page_of (items, 1, 100);
  dyn_collection_model_append_page (model, page);
  assert_attributes (model, ws2);
  g_assert_cmpuint (changes->len, ==, 2);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 1).position, ==, 6);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 1).removed, ==, 0);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 1).added, ==, 3);
  g_assert_cmpuint (g_array_index (changes, AttrChange, 1).n_after, ==, 9);
  g_object_get (model, "n-attributes", &n_prop, NULL);
  g_assert_cmpuint (n_prop, ==, 9);

  /* Keys seen late go in front. */
  {
    g_autoptr(DynCollectionModel) late = dyn_collection_model_new ("PK", "SK", FALSE);
    g_autoptr(GPtrArray) p = dyn_test_item_array_new ();
    const char *expected[] = { "PK", "SK", "a", "b", "c", NULL };

    g_array_set_size (changes, 0);
    g_signal_connect (late, "attributes-changed", G_CALLBACK (attributes_changed_cb), changes);
    g_ptr_array_add (p, dyn_test_item ("{\"a\":{\"S\":\"1\"},\"SK\":{\"S\":\"x\"}}"));
    g_ptr_array_add (p, dyn_test_item ("{\"b\":{\"S\":\"1\"},\"PK\":{\"S\":\"k\"},\"SK\":{\"S\":\"y\"},\"c\":{\"N\":\"1\"}}"));
    dyn_collection_model_append_page (late, p);
    assert_attributes (late, expected);
    g_assert_cmpuint (changes->len, ==, 1);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 0).position, ==, 0);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 0).removed, ==, 0);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 0).added, ==, 5);

    /* On a later page the key goes in front of known names: a reorder. */
    g_ptr_array_set_size (p, 0);
    dyn_collection_model_clear (late);
    g_array_set_size (changes, 0);
    g_ptr_array_add (p, dyn_test_item ("{\"a\":{\"S\":\"1\"},\"b\":{\"S\":\"x\"}}"));
    dyn_collection_model_append_page (late, p);
    g_ptr_array_set_size (p, 0);
    g_ptr_array_add (p, dyn_test_item ("{\"c\":{\"S\":\"1\"},\"SK\":{\"S\":\"x\"},\"PK\":{\"S\":\"k\"}}"));
    dyn_collection_model_append_page (late, p);
    assert_attributes (late, expected);
    g_assert_cmpuint (changes->len, ==, 2);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 1).position, ==, 0);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 1).removed, ==, 2);
    g_assert_cmpuint (g_array_index (changes, AttrChange, 1).added, ==, 5);
  }
}

static void
test_no_key (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  DynCollection *none;
  Watched w;

  /* A projection of title only, and one of the sort key only. */
  g_ptr_array_add (page, ws_item ("WS#acme", "META", NULL));
  g_ptr_array_add (page, dyn_test_item ("{\"title\":{\"S\":\"b\"}}"));
  g_ptr_array_add (page, dyn_test_item ("{\"Detail\":{\"S\":\"PROJ#1\"}}"));
  g_ptr_array_add (page, dyn_test_item ("{\"title\":{\"S\":\"a\"}}"));
  watched_init (&w, model);
  watched_append (&w, page);

  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 2);
  none = dyn_collection_model_lookup_collection (model, NULL);
  g_assert_true (none == dyn_collection_model_peek_collection (model, 1));
  g_assert_null (dyn_collection_get_partition_key_value (none));
  g_assert_cmpstr (dyn_collection_get_title (none), ==, DYN_COLLECTION_NO_KEY_TITLE);
  g_assert_cmpuint (dyn_collection_get_n_items (none), ==, 3);
  /* Missing sort keys first, in arrival order. */
  g_assert_cmpstr (obj_string (dyn_collection_peek_item (none, 0), "title"), ==, "b");
  g_assert_cmpstr (obj_string (dyn_collection_peek_item (none, 1), "title"), ==, "a");
  g_assert_cmpstr (sk_text (dyn_collection_peek_item (none, 2)), ==, "PROJ#1");

  g_ptr_array_set_size (page, 0);
  g_ptr_array_add (page, dyn_test_item ("{\"title\":{\"S\":\"c\"}}"));
  watched_append (&w, page);
  g_assert_cmpuint (dyn_collection_get_n_items (none), ==, 4);
  g_assert_cmpstr (obj_string (dyn_collection_peek_item (none, 2), "title"), ==, "c");
  watched_clear (&w);
}

static void
test_replace_remove (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", TRUE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(DynValue) key = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0042\"}}");
  g_autoptr(DynValue) missing = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0041\"}}");
  g_autoptr(DynValue) by_title = dyn_test_item ("{\"title\":{\"S\":\"SSO\"}}");
  g_autoptr(DynValue) changed = NULL;
  g_autoptr(DynValue) moved = NULL;
  g_autoptr(DynValue) globex_key = string_value ("WS#globex");
  g_autoptr(DynItemObject) kept = NULL;
  DynItemObject *obj, *new_obj;
  DynCollection *acme, *globex;
  guint pos, flat_pos, n_total;
  Watched w;

  watched_init (&w, model);
  watched_append (&w, items);
  acme = dyn_collection_model_peek_collection (model, 0);

  obj = dyn_collection_model_lookup (model, key);
  g_assert_nonnull (obj);
  g_assert_cmpstr (sk_text (obj), ==, "PROJ#2026-0042");
  g_assert_null (dyn_collection_model_lookup (model, missing));
  g_assert_cmpstr (sk_text (dyn_collection_model_lookup (model, by_title)), ==, "PROJ#2026-0015");
  g_assert_true (dyn_collection_find (acme, obj, &pos));
  g_assert_cmpuint (pos, ==, 2);

  /* Same key: same positions. */
  kept = g_object_ref (obj);
  changed = ws_item ("WS#acme", "PROJ#2026-0042", ",\"title\":{\"S\":\"Renamed\"},\"owner\":{\"S\":\"kim\"}");
  flat_pos = 10;
  new_obj = dyn_collection_model_replace (model, obj, changed);
  g_assert_nonnull (new_obj);
  g_assert_true (new_obj != kept);
  g_assert_true (dyn_collection_peek_item (acme, 2) == new_obj);
  {
    g_autoptr(DynItemObject) f = g_list_model_get_item (dyn_collection_model_get_flat_model (model), flat_pos);
    g_assert_true (f == new_obj);
  }
  g_assert_true (dyn_collection_model_lookup (model, key) == new_obj);
  g_assert_cmpstr (dyn_collection_model_get_attributes (model, NULL)[9], ==, "owner");
  shadow_verify (w.grouped);
  shadow_verify (w.flat);
  /* The old object has left the model. */
  g_assert_null (dyn_collection_model_replace (model, kept, changed));
  g_assert_false (dyn_collection_model_remove (model, kept));

  /* A new sort key moves it within the collection, a new partition key to
   * another collection. */
  moved = ws_item ("WS#acme", "PROJ#0000-0001", NULL);
  new_obj = dyn_collection_model_replace (model, new_obj, moved);
  g_assert_true (dyn_collection_peek_item (acme, 11) == new_obj);   /* descending: before META */
  shadow_connect_new (w.grouped);
  shadow_verify (w.grouped);
  g_clear_pointer (&moved, dyn_value_unref);
  moved = ws_item ("WS#new", "PROJ#1", NULL);
  new_obj = dyn_collection_model_replace (model, new_obj, moved);
  shadow_connect_new (w.grouped);
  shadow_verify (w.grouped);
  shadow_verify (w.flat);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 3);
  g_assert_cmpuint (dyn_collection_get_n_items (acme), ==, 12);
  g_assert_cmpuint (dyn_collection_get_n_items (dyn_collection_model_peek_collection (model, 2)), ==, 1);
  assert_collections_sorted (model);

  /* Remove one, then a whole collection. */
  n_total = dyn_collection_model_get_n_items_total (model);
  g_assert_true (dyn_collection_model_remove (model, dyn_collection_peek_item (acme, 0)));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, n_total - 1);
  globex = dyn_collection_model_lookup_collection (model, globex_key);
  g_object_ref (globex);
  while (dyn_collection_get_n_items (globex) > 0)
    g_assert_true (dyn_collection_model_remove (model, dyn_collection_peek_item (globex, 0)));
  g_assert_null (dyn_collection_model_lookup_collection (model, globex_key));
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 2);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, n_total - 4);
  g_assert_finalize_object (globex);
  shadow_connect_new (w.grouped);
  shadow_verify (w.grouped);
  shadow_verify (w.flat);
  assert_collections_sorted (model);

  /* Insert after a create. */
  g_clear_pointer (&moved, dyn_value_unref);
  moved = ws_item ("WS#acme", "PROJ#2026-0044", NULL);
  new_obj = dyn_collection_model_insert (model, moved);
  g_assert_true (dyn_item_object_get_item (new_obj) == moved);
  g_assert_true (dyn_collection_peek_item (acme, 0) == new_obj);
  shadow_connect_new (w.grouped);
  shadow_verify (w.grouped);
  shadow_verify (w.flat);

  watched_clear (&w);
}

/* Items the window wrote come again in a later page: no second row; an
 * unchanged row takes the page's item, a row with a staged change keeps it. */
static void
test_page_repeats_written (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  g_autoptr(DynValue) created = ws_item ("WS#new", "PROJ#1", ",\"title\":{\"S\":\"mine\"}");
  g_autoptr(DynValue) staged = ws_item ("WS#new", "PROJ#2", ",\"title\":{\"S\":\"staged\"}");
  g_autoptr(DynValue) key1 = ws_item ("WS#new", "PROJ#1", NULL);
  g_autoptr(DynValue) key2 = ws_item ("WS#new", "PROJ#2", NULL);
  DynItemObject *row, *staged_row;

  g_ptr_array_add (page, ws_item ("WS#acme", "META", NULL));
  dyn_collection_model_append_page (model, page);
  row = dyn_collection_model_insert (model, created);
  staged_row = dyn_collection_model_insert (model, staged);
  dyn_item_object_set_state (staged_row, DYN_ITEM_STATE_ADDED);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 3);

  /* The next page holds both, as the server has them now, and one more. */
  g_ptr_array_set_size (page, 0);
  g_ptr_array_add (page, ws_item ("WS#new", "PROJ#1", ",\"title\":{\"S\":\"theirs\"}"));
  g_ptr_array_add (page, ws_item ("WS#new", "PROJ#2", ",\"title\":{\"S\":\"server\"}"));
  g_ptr_array_add (page, ws_item ("WS#new", "PROJ#3", NULL));
  dyn_collection_model_append_page (model, page);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 4);
  g_assert_cmpuint (dyn_collection_get_n_items (dyn_collection_model_lookup_collection (model,
                                                dyn_value_map_lookup (key1, "EntityRef"))), ==, 3);
  row = dyn_collection_model_lookup (model, key1);
  g_assert_cmpstr (obj_string (row, "title"), ==, "theirs");
  g_assert_true (dyn_collection_model_lookup (model, key2) == staged_row);
  g_assert_cmpstr (obj_string (staged_row, "title"), ==, "staged");
  assert_collections_sorted (model);
}

static void
test_clear (void)
{
  DynCollectionModel *model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(DynItemObject) held = NULL;
  guint n_attrs;
  Watched w;

  watched_init (&w, model);
  watched_append (&w, items);
  held = g_object_ref (dyn_collection_peek_item (dyn_collection_model_peek_collection (model, 0), 0));

  dyn_collection_model_clear (model);
  shadow_verify (w.grouped);
  shadow_verify (w.flat);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, 0);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 0);
  g_assert_null (dyn_collection_model_get_attributes (model, &n_attrs)[0]);
  g_assert_cmpuint (n_attrs, ==, 0);
  g_assert_false (dyn_collection_model_remove (model, held));

  /* Filled again, the same keys make new collections. */
  watched_append (&w, items);
  check_workspaces (model, FALSE);
  dyn_collection_model_clear (model);
  dyn_collection_model_clear (model);
  watched_clear (&w);
  g_assert_finalize_object (model);
}

static void
test_child_model (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) items = load_seed ("workspaces.json");
  g_autoptr(GListModel) child = NULL;
  g_autoptr(DynCollection) coll = NULL;
  g_autoptr(DynItemObject) obj = NULL;

  dyn_collection_model_append_page (model, items);
  coll = g_list_model_get_item (G_LIST_MODEL (model), 0);
  child = dyn_collection_model_create_child_model (coll, NULL);
  g_assert_true (child == G_LIST_MODEL (coll));
  obj = g_list_model_get_item (child, 0);
  g_assert_null (dyn_collection_model_create_child_model (obj, NULL));
}

/* 100,000 items in 5,000 partitions of 20, read as a scan: partitions in
 * hash order, each one contiguous and ascending, pages of 3,700 that cut
 * partitions. A second run (descending) shuffles the items of each page. */
static void
test_big (void)
{
  const guint n_parts = 5000, per_part = 20, page_size = 3700;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();

  for (guint p = 0; p < n_parts; p++)
    {
      guint part = (p * 7919) % n_parts;
      for (guint i = 0; i < per_part; i++)
        g_ptr_array_add (items, dyn_test_itemf ("{\"PK\":{\"S\":\"USER#%05u\"},\"SK\":{\"S\":\"EVENT#%04u\"},"
                                                "\"kind\":{\"S\":\"click\"},\"n\":{\"N\":\"%u\"}}",
                                                part, i, p * per_part + i));
    }

  for (int run = 0; run < 2; run++)
    {
      g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", run == 1);
      g_autoptr(GRand) rand = g_rand_new_with_seed (run);
      Watched w;

      watched_init (&w, model);
      for (guint i = 0; i < items->len; i += page_size)
        {
          g_autoptr(GPtrArray) page = page_of (items, i, page_size);
          guint top = w.grouped->signals, flat = w.flat->signals;

          if (run == 1)
            shuffle (page, rand);
          /* As the pager calls it. */
          dyn_collection_model_page_func (page, model);
          shadow_connect_new (w.grouped);
          g_assert_cmpuint (w.grouped->signals - top, ==, 1);
          g_assert_cmpuint (w.flat->signals - flat, ==, 1);
        }
      shadow_verify (w.grouped);
      shadow_verify (w.flat);
      g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, items->len);
      g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, n_parts);
      for (guint c = 0; c < n_parts; c++)
        {
          DynCollection *coll = dyn_collection_model_peek_collection (model, c);
          char title[32];

          /* Shuffling changes which partition of a page comes first. */
          g_snprintf (title, sizeof title, "USER#%05u", (c * 7919) % n_parts);
          if (run == 0)
            g_assert_cmpstr (dyn_collection_get_title (coll), ==, title);
          g_assert_cmpuint (dyn_collection_get_n_items (coll), ==, per_part);
        }
      assert_collections_sorted (model);
      watched_clear (&w);
    }
}

/* Multi-attribute keys (issue 10) -------------------------------------------
 *
 * A global secondary index keyed by tenant S + site N, sorted by kind S +
 * seq N: the items of one tenant and site are one collection, ordered by
 * kind, then seq, as DynamoDB returns them. */

static DynCollectionModel *
multikey_model (gboolean descending)
{
  DynKeySchema keys = { 0 };
  DynCollectionModel *model;

  dyn_key_schema_append (&keys, FALSE, "tenant", DYN_VALUE_S);
  dyn_key_schema_append (&keys, FALSE, "site", DYN_VALUE_N);
  dyn_key_schema_append (&keys, TRUE, "kind", DYN_VALUE_S);
  dyn_key_schema_append (&keys, TRUE, "seq", DYN_VALUE_N);
  model = dyn_collection_model_new_for_schema (&keys, descending);
  dyn_key_schema_clear (&keys);
  return model;
}

/* An order line: its table key pk/sk, the index key, a note. */
static DynValue *
mk_item (const char *pk,
         const char *tenant,
         const char *site,
         const char *kind,
         const char *seq)
{
  g_autoptr(GString) json = g_string_new (NULL);

  g_string_append_printf (json, "{\"note\":{\"S\":\"%s\"},\"pk\":{\"S\":\"%s\"},\"sk\":{\"S\":\"x\"}", pk, pk);
  if (tenant != NULL)
    g_string_append_printf (json, ",\"tenant\":{\"S\":\"%s\"}", tenant);
  if (site != NULL)
    g_string_append_printf (json, ",\"site\":{\"N\":\"%s\"}", site);
  if (kind != NULL)
    g_string_append_printf (json, ",\"kind\":{\"S\":\"%s\"}", kind);
  if (seq != NULL)
    g_string_append_printf (json, ",\"seq\":{\"N\":\"%s\"}", seq);
  g_string_append (json, "}");
  return dyn_test_item (json->str);
}

static DynValue *
tenant_site (const char *tenant,
             const char *site)
{
  DynValue *list = dyn_value_new_list ();

  dyn_value_list_take (list, dyn_value_new_string (tenant));
  dyn_value_list_take (list, dyn_value_new_number (site, NULL));
  return list;
}

/* The pk of each item of @coll, joined by spaces. */
static char *
collection_pks (DynCollection *coll)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < dyn_collection_get_n_items (coll); i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, obj_string (dyn_collection_peek_item (coll, i), "pk"));
    }
  return g_string_free (out, FALSE);
}

static void
test_multikey_grouping (void)
{
  g_autoptr(DynCollectionModel) model = multikey_model (FALSE);
  g_autoptr(GPtrArray) page1 = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) page2 = dyn_test_item_array_new ();
  g_autoptr(DynValue) acme1 = tenant_site ("acme", "1");
  g_autoptr(DynValue) acme1b = tenant_site ("acme", "1.0");
  g_autoptr(DynValue) acme2 = tenant_site ("acme", "2");
  const char * const *attributes;
  const char *expected_keys[] = { "tenant", "site", NULL };
  DynCollection *coll;
  g_autofree char *order = NULL;
  g_autofree char *key_text = NULL;
  DynItemObject *obj;
  Watched w;

  g_assert_cmpstrv (dyn_collection_model_get_partition_keys (model), expected_keys);
  g_assert_cmpstr (dyn_collection_model_get_partition_key (model), ==, "tenant");
  g_assert_cmpstr (dyn_collection_model_get_sort_key (model), ==, "kind");
  g_assert_cmpuint (g_strv_length ((GStrv) dyn_collection_model_get_sort_keys (model)), ==, 2);

  /* Out of order within the collection; a number compares as a number. */
  g_ptr_array_add (page1, mk_item ("a3", "acme", "1", "ORDER#b", "2"));
  g_ptr_array_add (page1, mk_item ("a1", "acme", "1", "ORDER#a", "10"));
  g_ptr_array_add (page1, mk_item ("b1", "acme", "2", "ORDER#a", "1"));
  g_ptr_array_add (page1, mk_item ("a2", "acme", "1", "ORDER#b", "1"));
  g_ptr_array_add (page1, mk_item ("a0", "acme", "1", "ORDER#a", "9"));
  /* Without site: not in an index keyed by it; "(no key)". */
  g_ptr_array_add (page1, mk_item ("n1", "acme", NULL, "ORDER#a", "1"));
  watched_init (&w, model);
  watched_append (&w, page1);

  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 3);
  coll = dyn_collection_model_peek_collection (model, 0);
  g_assert_cmpstr (dyn_collection_get_title (coll), ==, "acme · 1");
  g_assert_true (dyn_value_equal (dyn_collection_get_partition_key_value (coll), acme1));
  /* Equal numbers are one key, however written. */
  g_assert_true (dyn_collection_model_lookup_collection (model, acme1) == coll);
  g_assert_true (dyn_collection_model_lookup_collection (model, acme1b) == coll);
  order = collection_pks (coll);
  g_assert_cmpstr (order, ==, "a0 a1 a2 a3");
  g_assert_cmpstr (dyn_collection_get_title (dyn_collection_model_peek_collection (model, 1)), ==, "acme · 2");
  g_assert_true (dyn_collection_model_lookup_collection (model, acme2) ==
                 dyn_collection_model_peek_collection (model, 1));
  g_assert_null (dyn_collection_get_partition_key_value (dyn_collection_model_peek_collection (model, 2)));

  /* A row shows its sort key's values; the type comes from its first one. */
  obj = dyn_collection_peek_item (coll, 1);
  g_assert_true (dyn_item_object_has_composite_key (obj, FALSE));
  g_assert_true (dyn_item_object_has_composite_key (obj, TRUE));
  key_text = dyn_item_object_format_key (obj, TRUE, 80);
  g_assert_cmpstr (key_text, ==, "ORDER#a · 10");
  g_clear_pointer (&key_text, g_free);
  key_text = dyn_item_object_format_key (obj, FALSE, 80);
  g_assert_cmpstr (key_text, ==, "acme · 1");
  g_assert_cmpstr (dyn_item_object_get_entity_type (obj), ==, "ORDER");

  /* Key attributes lead, in key order, whatever order the items had. */
  attributes = dyn_collection_model_get_attributes (model, NULL);
  g_assert_cmpstr (attributes[0], ==, "tenant");
  g_assert_cmpstr (attributes[1], ==, "site");
  g_assert_cmpstr (attributes[2], ==, "kind");
  g_assert_cmpstr (attributes[3], ==, "seq");

  /* A later page continues a collection in order. */
  g_ptr_array_add (page2, mk_item ("a4", "acme", "1", "ORDER#b", "3"));
  g_ptr_array_add (page2, mk_item ("a5", "acme", "1", "ORDER#a", "9.5"));
  /* Without seq: sorts before the ORDER#b items with one. */
  g_ptr_array_add (page2, mk_item ("a6", "acme", "1", "ORDER#b", NULL));
  watched_append (&w, page2);
  g_clear_pointer (&order, g_free);
  order = collection_pks (coll);
  g_assert_cmpstr (order, ==, "a0 a5 a1 a6 a2 a3 a4");
  assert_collections_sorted (model);

  /* Lookups: by the index key (binary search), by the table key (scan). */
  {
    g_autoptr(DynValue) by_index = mk_item ("?", "acme", "1", "ORDER#b", "2");
    g_autoptr(DynValue) by_table = dyn_test_item ("{\"pk\":{\"S\":\"b1\"},\"sk\":{\"S\":\"x\"}}");
    g_autoptr(DynValue) index_key = dyn_test_item ("{\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
                                                   "\"kind\":{\"S\":\"ORDER#b\"},\"seq\":{\"N\":\"2\"}}");

    g_assert_cmpstr (obj_string (dyn_collection_model_lookup (model, index_key), "pk"), ==, "a3");
    g_assert_null (dyn_collection_model_lookup (model, by_index));   /* its pk "?" differs */
    g_assert_cmpstr (obj_string (dyn_collection_model_lookup (model, by_table), "pk"), ==, "b1");
  }

  /* An edit of an index key attribute moves the row: seq within the
   * collection, site to another one. */
  {
    g_autoptr(DynValue) later = mk_item ("a0", "acme", "1", "ORDER#c", "1");
    g_autoptr(DynValue) elsewhere = mk_item ("a1", "acme", "2", "ORDER#a", "10");
    DynItemObject *a0 = dyn_collection_peek_item (coll, 0);
    DynItemObject *a1 = dyn_collection_peek_item (coll, 2);
    DynCollection *acme2_coll = dyn_collection_model_lookup_collection (model, acme2);

    g_assert_cmpstr (obj_string (a1, "pk"), ==, "a1");
    g_assert_nonnull (dyn_collection_model_replace (model, a0, later));
    g_assert_nonnull (dyn_collection_model_replace (model, a1, elsewhere));
    shadow_connect_new (w.grouped);
    shadow_verify (w.grouped);
    shadow_verify (w.flat);
    g_clear_pointer (&order, g_free);
    order = collection_pks (coll);
    g_assert_cmpstr (order, ==, "a5 a6 a2 a3 a4 a0");
    g_clear_pointer (&order, g_free);
    order = collection_pks (acme2_coll);
    g_assert_cmpstr (order, ==, "b1 a1");
    assert_collections_sorted (model);
  }

  /* After a write, a page repeating the written item does not add a row. */
  {
    g_autoptr(GPtrArray) again = dyn_test_item_array_new ();
    guint n = dyn_collection_model_get_n_items_total (model);

    g_ptr_array_add (again, mk_item ("a0", "acme", "1", "ORDER#c", "1"));
    dyn_collection_model_append_page (model, again);
    g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, n);
  }
  watched_clear (&w);
}

/* ScanIndexForward=false: every sort attribute reversed. */
static void
test_multikey_descending (void)
{
  g_autoptr(DynCollectionModel) model = multikey_model (TRUE);
  g_autoptr(GPtrArray) page = dyn_test_item_array_new ();
  g_autofree char *order = NULL;

  g_ptr_array_add (page, mk_item ("a2", "acme", "1", "ORDER#b", "1"));
  g_ptr_array_add (page, mk_item ("a0", "acme", "1", "ORDER#a", "9"));
  g_ptr_array_add (page, mk_item ("a3", "acme", "1", "ORDER#b", "2"));
  g_ptr_array_add (page, mk_item ("a1", "acme", "1", "ORDER#a", "10"));
  dyn_collection_model_append_page (model, page);
  order = collection_pks (dyn_collection_model_peek_collection (model, 0));
  g_assert_cmpstr (order, ==, "a3 a2 a1 a0");
  assert_collections_sorted (model);
}

/* Issue 11: the model fits the table. ------------------------------------ */

static GPtrArray *
plain_page (const char * const *items)
{
  GPtrArray *page = dyn_test_item_array_new ();

  for (guint i = 0; items[i] != NULL; i++)
    g_ptr_array_add (page, dyn_test_plain_item (items[i]));
  return page;
}

/* Without a sort key there are no item collections (a table holds one item
 * per key); a hash-only index has them once a key holds two items. */
static void
test_has_collections (void)
{
  g_autoptr(DynCollectionModel) table = dyn_collection_model_new ("ProductId", NULL, FALSE);
  g_autoptr(DynCollectionModel) index = dyn_collection_model_new ("Category", NULL, FALSE);
  g_autoptr(DynCollectionModel) ranged = dyn_collection_model_new ("year", "title", FALSE);
  const char *products[] = { "{\"ProductId\": \"P-1\", \"Category\": \"book\"}",
                             "{\"ProductId\": \"P-2\", \"Category\": \"toy\"}",
                             "{\"ProductId\": \"P-3\"}",
                             /* Projected without the key: "(no key)", no collection either. */
                             "{\"Name\": \"x\"}", "{\"Name\": \"y\"}", NULL };
  const char *more[] = { "{\"ProductId\": \"P-4\", \"Category\": \"book\"}", NULL };
  g_autoptr(GPtrArray) page1 = plain_page (products);
  g_autoptr(GPtrArray) page2 = plain_page (more);
  guint notified = 0;
  gboolean has;

  g_assert_true (dyn_collection_model_has_collections (ranged));
  g_assert_false (dyn_collection_model_has_collections (table));
  g_signal_connect (table, "notify::has-collections", G_CALLBACK (notify_count_cb), &notified);
  dyn_collection_model_append_page (table, page1);
  dyn_collection_model_append_page (table, page2);
  g_assert_false (dyn_collection_model_has_collections (table));
  g_assert_cmpuint (notified, ==, 0);

  g_signal_connect (index, "notify::has-collections", G_CALLBACK (notify_count_cb), &notified);
  dyn_collection_model_append_page (index, page1);
  g_assert_false (dyn_collection_model_has_collections (index));
  /* The second "book": told once. */
  dyn_collection_model_append_page (index, page2);
  g_assert_true (dyn_collection_model_has_collections (index));
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (index, "has-collections", &has, NULL);
  g_assert_true (has);
  dyn_collection_model_append_page (index, page2);
  g_assert_cmpuint (notified, ==, 1);
  dyn_collection_model_clear (index);
  g_assert_false (dyn_collection_model_has_collections (index));
  g_assert_cmpuint (notified, ==, 2);
  dyn_collection_model_clear (ranged);
  g_assert_true (dyn_collection_model_has_collections (ranged));
}

/* While the read has more pages, the collection its last page ended in can
 * grow: its count is a lower bound. */
static void
test_more_pending (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", FALSE);
  const char *first[] = { "{\"PK\": \"a\", \"SK\": \"1\"}", "{\"PK\": \"b\", \"SK\": \"1\"}", NULL };
  const char *second[] = { "{\"PK\": \"b\", \"SK\": \"2\"}", "{\"PK\": \"b\", \"SK\": \"3\"}", "{\"PK\": \"c\", \"SK\": \"1\"}", NULL };
  g_autoptr(GPtrArray) page1 = plain_page (first);
  g_autoptr(GPtrArray) page2 = plain_page (second);
  g_autoptr(DynValue) a = string_value ("a");
  g_autoptr(DynValue) b = string_value ("b");
  g_autoptr(DynValue) c = string_value ("c");
  DynCollection *ca, *cb, *cc;
  guint b_notified = 0, model_notified = 0;
  gboolean pending;

  g_assert_false (dyn_collection_model_get_more_pending (model));
  g_signal_connect (model, "notify::more-pending", G_CALLBACK (notify_count_cb), &model_notified);
  dyn_collection_model_set_more_pending (model, TRUE);
  dyn_collection_model_set_more_pending (model, TRUE);
  g_assert_cmpuint (model_notified, ==, 1);
  dyn_collection_model_append_page (model, page1);
  ca = dyn_collection_model_lookup_collection (model, a);
  cb = dyn_collection_model_lookup_collection (model, b);
  g_assert_false (dyn_collection_get_more_pending (ca));
  g_assert_true (dyn_collection_get_more_pending (cb));
  g_object_get (cb, "more-pending", &pending, NULL);
  g_assert_true (pending);

  /* The next page finishes b and ends in c. */
  g_signal_connect (cb, "notify::more-pending", G_CALLBACK (notify_count_cb), &b_notified);
  dyn_collection_model_append_page (model, page2);
  cc = dyn_collection_model_lookup_collection (model, c);
  g_assert_cmpuint (b_notified, ==, 1);
  g_assert_false (dyn_collection_get_more_pending (cb));
  g_assert_cmpuint (dyn_collection_get_n_items (cb), ==, 3);
  g_assert_true (dyn_collection_get_more_pending (cc));

  /* The read is done: nothing can grow. */
  dyn_collection_model_set_more_pending (model, FALSE);
  g_assert_false (dyn_collection_get_more_pending (cc));
  g_assert_cmpuint (model_notified, ==, 2);

  /* A collection that leaves the model is no longer the last. */
  dyn_collection_model_set_more_pending (model, TRUE);
  g_assert_true (dyn_collection_get_more_pending (cc));
  g_object_ref (cc);
  g_assert_true (dyn_collection_model_remove (model, dyn_collection_peek_item (cc, 0)));
  g_assert_false (dyn_collection_get_more_pending (cc));
  g_object_unref (cc);
}

/* Entity labels follow one rule for the model, told once when it is
 * decided, whatever the number of pages. */
static void
test_entity_rule (void)
{
  g_autoptr(DynCollectionModel) shop = dyn_collection_model_new ("PK", "SK", FALSE);
  g_autoptr(DynCollectionModel) movies = dyn_collection_model_new ("year", "title", FALSE);
  g_autoptr(DynCollectionModel) workspaces = dyn_collection_model_new ("EntityRef", "Detail", FALSE);
  g_autoptr(GPtrArray) seed = load_seed ("workspaces.json");
  const char *customer[] = { "{\"PK\": \"c1\", \"SK\": \"c1\", \"EntityType\": \"customer\"}", NULL };
  const char *orders[] = { "{\"PK\": \"c1\", \"SK\": \"o1\", \"EntityType\": \"order\"}",
                           "{\"PK\": \"c1\", \"SK\": \"o2\", \"EntityType\": \"order\"}", NULL };
  const char *films[] = { "{\"year\": 2013, \"title\": \"Rush\"}", "{\"year\": 2013, \"title\": \"Gravity\"}",
                          "{\"year\": 2014, \"title\": \"Interstellar\"}", NULL };
  g_autoptr(GPtrArray) p1 = plain_page (customer);
  g_autoptr(GPtrArray) p2 = plain_page (orders);
  g_autoptr(GPtrArray) p3 = plain_page (films);
  DynCollection *coll;
  DynEntitySource source;
  guint notified = 0;

  g_signal_connect (shop, "notify::entity-source", G_CALLBACK (notify_count_cb), &notified);
  dyn_collection_model_append_page (shop, p1);
  g_assert_cmpint (dyn_collection_model_get_entity_source (shop), ==, DYN_ENTITY_SOURCE_NONE);
  coll = dyn_collection_model_peek_collection (shop, 0);
  g_assert_null (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, 0)));
  dyn_collection_model_append_page (shop, p2);
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (shop, "entity-source", &source, NULL);
  g_assert_cmpint (source, ==, DYN_ENTITY_SOURCE_ATTRIBUTE);
  g_assert_cmpstr (dyn_collection_model_get_entity_attribute (shop), ==, "EntityType");
  /* The item of the first page too, not "c" from its key. */
  g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, 0)), ==, "customer");
  g_assert_cmpstr (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, 1)), ==, "order");
  for (guint i = 0; i < 5; i++)
    dyn_collection_model_append_page (shop, p2);
  g_assert_cmpuint (notified, ==, 1);
  dyn_collection_model_clear (shop);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpint (dyn_collection_model_get_entity_source (shop), ==, DYN_ENTITY_SOURCE_NONE);

  /* Movies keyed by title: no title is an entity type. */
  dyn_collection_model_append_page (movies, p3);
  g_assert_cmpint (dyn_collection_model_get_entity_source (movies), ==, DYN_ENTITY_SOURCE_NONE);
  for (guint c = 0; c < dyn_collection_model_get_n_collections (movies); c++)
    {
      coll = dyn_collection_model_peek_collection (movies, c);
      for (guint i = 0; i < dyn_collection_get_n_items (coll); i++)
        g_assert_null (dyn_item_object_get_entity_type (dyn_collection_peek_item (coll, i)));
    }

  /* The seed's single-table design: the sort key's prefix. */
  dyn_collection_model_append_page (workspaces, seed);
  g_assert_cmpint (dyn_collection_model_get_entity_source (workspaces), ==, DYN_ENTITY_SOURCE_SORT_KEY);
  g_assert_null (dyn_collection_model_get_entity_attribute (workspaces));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dyn/collections/item-object/new-destroy", test_item_object_new_destroy);
  g_test_add_func ("/dyn/collections/item-object/entity-types", test_entity_types);
  g_test_add_func ("/dyn/collections/model/new-destroy", test_model_new_destroy);
  g_test_add_func ("/dyn/collections/workspaces", test_workspaces);
  g_test_add_func ("/dyn/collections/university", test_university);
  g_test_add_func ("/dyn/collections/gsi-view", test_gsi_view);
  g_test_add_func ("/dyn/collections/existing-collection", test_existing_collection);
  g_test_add_func ("/dyn/collections/number-keys", test_number_keys);
  g_test_add_func ("/dyn/collections/binary-keys", test_binary_keys);
  g_test_add_func ("/dyn/collections/simple-key", test_simple_key);
  g_test_add_func ("/dyn/collections/flat", test_flat);
  g_test_add_func ("/dyn/collections/attributes", test_attributes);
  g_test_add_func ("/dyn/collections/no-key", test_no_key);
  g_test_add_func ("/dyn/collections/replace-remove", test_replace_remove);
  g_test_add_func ("/dyn/collections/page-repeats-written", test_page_repeats_written);
  g_test_add_func ("/dyn/collections/clear", test_clear);
  g_test_add_func ("/dyn/collections/child-model", test_child_model);
  g_test_add_func ("/dyn/collections/big", test_big);
  g_test_add_func ("/dyn/collections/multikey/grouping", test_multikey_grouping);
  g_test_add_func ("/dyn/collections/multikey/descending", test_multikey_descending);
  g_test_add_func ("/dyn/collections/has-collections", test_has_collections);
  g_test_add_func ("/dyn/collections/more-pending", test_more_pending);
  g_test_add_func ("/dyn/collections/entity-rule", test_entity_rule);

  return g_test_run ();
}
