/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Groups 100,000 items (5,000 partitions of 20, scan order, pages of 4,000
 * that cut partitions) into a DynCollectionModel and prints the CPU time of
 * the grouping alone (decoding is bench-decode's business), and of freeing
 * the model. Usage: bench-collections [ITEMS] [PARTITIONS] [PAGE] [ROUNDS] */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dyn-collections.h"

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
count_cb (GListModel *model,
          guint       position,
          guint       removed,
          guint       added,
          guint      *signals)
{
  (*signals)++;
}

int
main (int    argc,
      char **argv)
{
  guint n_items = argc > 1 ? atoi (argv[1]) : 100000;
  guint n_parts = argc > 2 ? atoi (argv[2]) : 5000;
  guint page_size = argc > 3 ? atoi (argv[3]) : 4000;
  guint rounds = argc > 4 ? atoi (argv[4]) : 5;
  guint per_part = MAX (1, n_items / MAX (1, n_parts));
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  double best = G_MAXDOUBLE, best_free = G_MAXDOUBLE;
  GTypeQuery query;

  /* Items shaped like the article's projects, in scan order: partitions in
   * hash order, each ascending by sort key. */
  for (guint i = 0; i < n_items; i++)
    {
      guint part = ((i / per_part) * 7919u) % MAX (1, n_parts);
      g_autofree char *json = g_strdup_printf (
        "{\"EntityRef\":{\"S\":\"WS#%06u\"},\"Detail\":{\"S\":\"PROJ#2026-%05u\"},"
        "\"title\":{\"S\":\"Project %u\"},\"status\":{\"S\":\"active\"},"
        "\"budget\":{\"N\":\"12000.50\"},\"owner\":{\"S\":\"kim\"},"
        "\"createdOn\":{\"S\":\"2026-01-01\"},\"tags\":{\"SS\":[\"a\",\"b\"]}}",
        part, i % per_part, i);
      g_autoptr(GError) error = NULL;
      DynValue *item = dyn_item_from_ddb_json_string (json, -1, &error);

      if (item == NULL)
        g_error ("%s", error->message);
      g_ptr_array_add (items, item);
    }
  for (guint i = 0; i < n_items; i += page_size)
    {
      GPtrArray *page = g_ptr_array_new ();

      for (guint j = i; j < MIN (i + page_size, n_items); j++)
        g_ptr_array_add (page, items->pdata[j]);
      g_ptr_array_add (pages, page);
    }

  for (guint r = 0; r < rounds; r++)
    {
      DynCollectionModel *model = dyn_collection_model_new ("EntityRef", "Detail", r % 2);
      guint signals = 0;
      double t0, t1, t2;

      /* A listener on every model, as the GUI has. */
      g_signal_connect (model, "items-changed", G_CALLBACK (count_cb), &signals);
      g_signal_connect (dyn_collection_model_get_flat_model (model), "items-changed",
                        G_CALLBACK (count_cb), &signals);
      t0 = cpu_seconds ();
      for (guint p = 0; p < pages->len; p++)
        dyn_collection_model_append_page (model, pages->pdata[p]);
      t1 = cpu_seconds ();
      g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, n_items);
      if (r == 0)
        printf ("%u items, %u collections, %u pages, %u signals on the top and flat models\n",
                n_items, dyn_collection_model_get_n_collections (model), pages->len, signals);
      g_object_unref (model);
      t2 = cpu_seconds ();
      best = MIN (best, t1 - t0);
      best_free = MIN (best_free, t2 - t1);
    }

  g_type_query (DYN_TYPE_ITEM_OBJECT, &query);
  printf ("grouping: %.1f ms CPU (best of %u), %.0f ns/item; freeing: %.1f ms\n",
          best * 1e3, rounds, best * 1e9 / MAX (1, n_items), best_free * 1e3);
  printf ("DynItemObject instance: %u bytes\n", query.instance_size);
  return 0;
}
