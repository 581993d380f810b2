/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Decodes recorded Query pages (JSON text → items, through
 * dyn_json_parse_response) and prints items per second. The time covers JSON
 * parsing, building the items and freeing them again. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "dyn-json.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) pages = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  int iterations;
  guint64 total_items = 0, total_bytes = 0;
  gint64 start, elapsed;
  struct timespec cpu0, cpu1;
  double cpu = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s PAGE-DIR [ITERATIONS]\n", argv[0]);
      return 2;
    }
  iterations = argc > 2 ? atoi (argv[2]) : 20;

  dir = g_dir_open (argv[1], 0, &error);
  if (dir == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".json"))
      g_ptr_array_add (names, g_build_filename (argv[1], name, NULL));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      char *data;
      gsize len;

      if (!g_file_get_contents (names->pdata[i], &data, &len, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      g_ptr_array_add (pages, g_bytes_new_take (data, len));
    }
  if (pages->len == 0)
    {
      fprintf (stderr, "no pages in %s\n", argv[1]);
      return 1;
    }

  /* One untimed round to warm up. */
  for (int round = 0; round < 2; round++)
    {
      int n = round == 0 ? 1 : iterations;

      total_items = total_bytes = 0;
      start = g_get_monotonic_time ();
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu0);
      for (int it = 0; it < n; it++)
        for (guint i = 0; i < pages->len; i++)
          {
            gsize len;
            const char *data = g_bytes_get_data (pages->pdata[i], &len);
            GPtrArray *items = NULL;
            JsonNode *rest = dyn_json_parse_response (data, len, &items, &error);

            if (rest == NULL)
              {
                fprintf (stderr, "%s: %s\n", (char *) names->pdata[i], error->message);
                return 1;
              }
            total_items += items->len;
            total_bytes += len;
            g_ptr_array_unref (items);
            json_node_unref (rest);
          }
      elapsed = g_get_monotonic_time () - start;
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu1);
      cpu = (cpu1.tv_sec - cpu0.tv_sec) + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e9;
    }

  printf ("dynoscope pages=%u iterations=%d items=%" G_GUINT64_FORMAT " seconds=%.3f cpu_seconds=%.3f "
          "items_per_s=%.0f mb_per_s=%.1f cpu_items_per_s=%.0f\n",
          pages->len, iterations, total_items, elapsed / 1e6, cpu,
          total_items / (elapsed / 1e6), total_bytes / (elapsed / 1e6) / (1024 * 1024),
          total_items / cpu);
  return 0;
}
