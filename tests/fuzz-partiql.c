/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the PartiQL tokenizer, parser and linter (built by
 * tests/meson.build in a clang build, see fuzz-expr.c). The first byte picks
 * the schema (none, PK/SK with an index, hash-only numeric key, a table
 * list); the rest is the text. Beyond "never crash" it checks that every
 * diagnostic's range lies inside the text, its line/column match the
 * offset, a fix replaces a valid range, and split/inspect agree.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "dyn-partiql.h"

static DynTableKeys *keys_t;
static DynTableKeys *keys_h;

static const DynTableKeys *
schema_cb (const char *table,
           gpointer    user_data)
{
  guint mode = GPOINTER_TO_UINT (user_data);

  if (mode == 1)
    return keys_t;
  if (mode == 2)
    return keys_h;
  return strcmp (table, "T") == 0 ? keys_t : NULL;
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char * const tables[] = { "T", "H", NULL };
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GPtrArray) parts = NULL;
  guint mode;

  if (size < 1 || size > 4096)
    return 0;
  if (keys_t == NULL)
    {
      keys_t = dyn_table_keys_new ("T", "PK", DYN_VALUE_S, "SK", DYN_VALUE_S);
      dyn_table_keys_add_index (keys_t, "GSI1", DYN_INDEX_GLOBAL, "GSI1PK", DYN_VALUE_S, "GSI1SK",
                                DYN_VALUE_N, DYN_PROJECTION_ALL);
      keys_h = dyn_table_keys_new ("H", "year", DYN_VALUE_N, NULL, DYN_VALUE_S);
    }
  mode = data[0] % 4;
  text = g_strndup ((const char *) data + 1, size - 1);
  if (!g_utf8_validate (text, -1, NULL))
    return 0;

  diags = mode == 3 ? dyn_partiql_lint_with_tables (text, schema_cb, GUINT_TO_POINTER (mode), tables)
                    : dyn_partiql_lint (text, mode == 0 ? NULL : schema_cb, GUINT_TO_POINTER (mode));
  for (guint i = 0; i < diags->len; i++)
    {
      const DynPartiqlDiagnostic *d = diags->pdata[i];
      gsize len = strlen (text);
      guint line = 1;
      guint column = 1;

      g_assert (d->start <= d->end && d->end <= len);
      g_assert (d->message != NULL && d->code != NULL);
      for (const char *s = text; s < text + d->start; s = g_utf8_next_char (s))
        {
          if (*s == '\n')
            {
              line++;
              column = 1;
            }
          else
            column++;
        }
      g_assert (d->line == line && d->column == column);
      if (d->fix_text != NULL)
        {
          g_autofree char *fixed = g_strdup_printf ("%.*s%s%s", (int) d->start, text, d->fix_text, text + d->end);
          g_autoptr(GPtrArray) again = dyn_partiql_lint (fixed, schema_cb, GUINT_TO_POINTER (1));
          g_assert (d->fix_label != NULL && again != NULL);
        }
      if (i > 0)
        g_assert (((DynPartiqlDiagnostic *) diags->pdata[i - 1])->start <= d->start);
    }
  parts = dyn_partiql_split (text);
  for (guint i = 0; i < parts->len; i++)
    {
      g_autoptr(DynPartiqlInfo) info = dyn_partiql_inspect (parts->pdata[i]);
      g_autoptr(DynPartiqlInfo) with = dyn_partiql_inspect_with_schema (parts->pdata[i], schema_cb,
                                                                        GUINT_TO_POINTER (1));
      g_assert (info->kind == with->kind);
      g_assert (info->n_parameters == with->n_parameters);
      g_assert (info->is_write == (info->kind == DYN_PARTIQL_INSERT || info->kind == DYN_PARTIQL_UPDATE
                                   || info->kind == DYN_PARTIQL_DELETE));
    }
  return 0;
}
