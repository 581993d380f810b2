/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "dyn-row-model.h"
#include "dyn-test-util.h"

/* DynRowModel against what it must show, computed from the collection
 * model, after every step of random sequences: pages that cut partitions,
 * items inserted, replaced and removed, collections folded and unfolded.
 * A mirror kept only from the row model's items-changed signals must hold
 * the same rows, so every change was announced, and at the right place. */

typedef struct {
  DynRowModel *rows;
  GPtrArray   *mirror;   /* GObject*, borrowed */
  guint        signals;
} Mirror;

static void
mirror_changed_cb (GListModel *list,
                   guint       position,
                   guint       removed,
                   guint       added,
                   Mirror     *mirror)
{
  g_assert_cmpuint (position + removed, <=, mirror->mirror->len);
  g_ptr_array_remove_range (mirror->mirror, position, removed);
  for (guint i = 0; i < added; i++)
    g_ptr_array_insert (mirror->mirror, position + i, dyn_row_model_peek_row (mirror->rows, position + i));
  mirror->signals++;
}

static DynValue *
item (const char *pk,
      guint       sk,
      const char *note)
{
  g_autofree char *json = g_strdup_printf ("{\"PK\":{\"S\":\"%s\"},\"SK\":{\"N\":\"%u\"},\"note\":{\"S\":\"%s\"}}",
                                           pk, sk, note);

  return dyn_test_item (json);
}

/* A sort order for the tests: "note" descending, then arrival. */
static int
by_note_desc (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const char *x = dyn_value_get_string (dyn_value_map_lookup (dyn_item_object_get_item ((gpointer) a), "note"));
  const char *y = dyn_value_get_string (dyn_value_map_lookup (dyn_item_object_get_item ((gpointer) b), "note"));

  return -strcmp (x, y);
}

static gboolean test_sorted;

static int
by_note_desc_ptr (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  return by_note_desc (*(gpointer *) a, *(gpointer *) b, NULL);
}

/* A stable sort of @array (g_ptr_array_sort is not stable). */
static void
stable_sort (GPtrArray *array,
             guint      from)
{
  g_qsort_with_data (array->pdata + from, array->len - from, sizeof (gpointer),
                     by_note_desc_ptr, NULL);
}

/* The rows as they must be. */
static GPtrArray *
expected_rows (DynRowModel *rows)
{
  DynCollectionModel *model = dyn_row_model_get_model (rows);
  GPtrArray *out = g_ptr_array_new ();

  if (!dyn_row_model_get_grouped (rows))
    {
      GListModel *flat = dyn_collection_model_get_flat_model (model);

      for (guint i = 0; i < g_list_model_get_n_items (flat); i++)
        {
          g_autoptr(GObject) object = g_list_model_get_item (flat, i);

          g_ptr_array_add (out, object);
        }
      if (test_sorted)
        stable_sort (out, 0);
      return out;
    }
  for (guint c = 0; c < dyn_collection_model_get_n_collections (model); c++)
    {
      DynCollection *coll = dyn_collection_model_peek_collection (model, c);

      g_ptr_array_add (out, coll);
      if (dyn_row_model_get_expanded (rows, coll))
        {
          guint from = out->len;

          for (guint i = 0; i < dyn_collection_get_n_items (coll); i++)
            g_ptr_array_add (out, dyn_collection_peek_item (coll, i));
          if (test_sorted)
            stable_sort (out, from);
        }
    }
  return out;
}

static void
assert_rows (DynRowModel *rows,
             Mirror      *mirror)
{
  g_autoptr(GPtrArray) want = expected_rows (rows);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (rows));

  g_assert_cmpuint (n, ==, want->len);
  g_assert_cmpuint (mirror->mirror->len, ==, want->len);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) row = g_list_model_get_item (G_LIST_MODEL (rows), i);

      g_assert_true (row == want->pdata[i]);
      g_assert_true (mirror->mirror->pdata[i] == want->pdata[i]);
      if (DYN_IS_COLLECTION (row))
        g_assert_cmpuint (dyn_row_model_find_collection (rows, DYN_COLLECTION (row)), ==, i);
      else if (dyn_row_model_get_grouped (rows))
        g_assert_cmpuint (dyn_row_model_find_item (rows, DYN_ITEM_OBJECT (row)), ==, i);
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (rows), n));
}

static void
run_sequence (guint32  seed,
              gboolean grouped)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", FALSE);
  g_autoptr(DynRowModel) rows = dyn_row_model_new (model, grouped);
  Mirror mirror = { rows, g_ptr_array_new (), 0 };
  guint serial = 0;
  gboolean sorted = FALSE;

  g_signal_connect (rows, "items-changed", G_CALLBACK (mirror_changed_cb), &mirror);
  for (guint step = 0; step < 120; step++)
    {
      guint op = g_rand_int_range (rand, 0, 10);
      guint n_coll = dyn_collection_model_get_n_collections (model);

      if (op < 4 || n_coll == 0)
        {
          /* A page of runs of partitions, some continuing earlier ones. */
          g_autoptr(GPtrArray) page = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
          guint runs = g_rand_int_range (rand, 1, 5);

          for (guint r = 0; r < runs; r++)
            {
              g_autofree char *pk = g_strdup_printf ("P#%02d", g_rand_int_range (rand, 0, 12));
              guint len = g_rand_int_range (rand, 1, 6);

              for (guint k = 0; k < len; k++)
                g_ptr_array_add (page, item (pk, g_rand_int_range (rand, 0, 1000), "page"));
            }
          dyn_collection_model_append_page (model, page);
        }
      else if (op == 4)
        {
          g_autofree char *pk = g_strdup_printf ("P#%02d", g_rand_int_range (rand, 0, 14));
          g_autoptr(DynValue) one = item (pk, 2000 + serial++, "new");

          dyn_collection_model_insert (model, one);
        }
      else if (op == 5 || op == 6)
        {
          DynCollection *coll = dyn_collection_model_peek_collection (model, g_rand_int_range (rand, 0, n_coll));
          DynItemObject *victim = dyn_collection_peek_item (coll, g_rand_int_range (rand, 0, dyn_collection_get_n_items (coll)));

          if (op == 5)
            g_assert_true (dyn_collection_model_remove (model, victim));
          else
            {
              g_autoptr(DynValue) now = item (dyn_value_get_string (dyn_item_object_get_partition_key_value (victim)),
                                               g_rand_int_range (rand, 0, 3000), "replaced");

              g_assert_nonnull (dyn_collection_model_replace (model, victim, now));
            }
        }
      else if (op == 7 || op == 8)
        {
          DynCollection *coll = dyn_collection_model_peek_collection (model, g_rand_int_range (rand, 0, n_coll));

          dyn_row_model_set_expanded (rows, coll, !dyn_row_model_get_expanded (rows, coll));
        }
      else if (g_rand_boolean (rand))
        dyn_row_model_set_all_expanded (rows, g_rand_boolean (rand));
      else
        {
          sorted = !sorted;
          test_sorted = sorted;
          dyn_row_model_set_sort_func (rows, sorted ? by_note_desc : NULL, NULL);
        }
      assert_rows (rows, &mirror);
    }
  g_assert_cmpuint (mirror.signals, >, 0);
  test_sorted = FALSE;
  dyn_row_model_set_sort_func (rows, NULL, NULL);
  assert_rows (rows, &mirror);
  dyn_collection_model_clear (model);
  assert_rows (rows, &mirror);
  g_ptr_array_unref (mirror.mirror);
}

static void
test_grouped (void)
{
  for (guint32 seed = 1; seed <= 40; seed++)
    run_sequence (seed, TRUE);
}

static void
test_flat (void)
{
  for (guint32 seed = 1; seed <= 10; seed++)
    run_sequence (seed, FALSE);
}

/* Folded, a collection is its header alone; its items come back in place. */
static void
test_fold (void)
{
  g_autoptr(DynCollectionModel) model = dyn_collection_model_new ("PK", "SK", FALSE);
  g_autoptr(DynRowModel) rows = dyn_row_model_new (model, TRUE);
  g_autoptr(GPtrArray) page = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  DynCollection *a, *b;

  g_ptr_array_add (page, item ("A", 1, "x"));
  g_ptr_array_add (page, item ("A", 2, "x"));
  g_ptr_array_add (page, item ("B", 1, "x"));
  dyn_collection_model_append_page (model, page);
  a = dyn_collection_model_peek_collection (model, 0);
  b = dyn_collection_model_peek_collection (model, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 5);
  g_assert_true (dyn_row_model_get_expanded (rows, a));
  g_assert_cmpuint (dyn_row_model_find_collection (rows, b), ==, 3);

  dyn_row_model_set_expanded (rows, a, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 3);
  g_assert_cmpuint (dyn_row_model_find_collection (rows, b), ==, 1);
  g_assert_cmpuint (dyn_row_model_find_item (rows, dyn_collection_peek_item (a, 0)), ==, G_MAXUINT);
  g_assert_true (dyn_row_model_peek_row (rows, 2) == dyn_collection_peek_item (b, 0));

  dyn_row_model_set_expanded (rows, a, TRUE);
  g_assert_cmpuint (dyn_row_model_find_item (rows, dyn_collection_peek_item (a, 1)), ==, 2);

  /* An empty model, and none at all. */
  dyn_collection_model_clear (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (rows)), ==, 0);
  {
    g_autoptr(DynRowModel) none = dyn_row_model_new (NULL, TRUE);

    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (none)), ==, 0);
    g_assert_null (dyn_row_model_peek_row (none, 0));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dyn/row-model/fold", test_fold);
  g_test_add_func ("/dyn/row-model/grouped", test_grouped);
  g_test_add_func ("/dyn/row-model/flat", test_flat);
  return g_test_run ();
}
