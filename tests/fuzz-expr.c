/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the expression parser and compiler. Not built by
 * meson; build it with clang against the static library of a clang build dir:
 *
 *   CC=clang meson setup _build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
 *     -Dc_args=-fsanitize=fuzzer-no-link
 *   ninja -C _build-fuzz client/libdynclient.a
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I_build-fuzz -Iclient \
 *     $(pkg-config --cflags glib-2.0 gobject-2.0 json-glib-1.0) \
 *     tests/fuzz-expr.c _build-fuzz/client/libdynclient.a \
 *     $(pkg-config --libs gio-2.0 gio-unix-2.0 json-glib-1.0 libcurl libsecret-1 zlib) -lm \
 *     -o _build-fuzz/fuzz-expr
 *   ./_build-fuzz/fuzz-expr -max_total_time=60
 *
 * Or, without a meson build dir, straight from the sources:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I_build -Iclient -Iclient/values -Iclient/expr \
 *     $(pkg-config --cflags glib-2.0 gobject-2.0 json-glib-1.0) \
 *     tests/fuzz-expr.c client/expr/dyn-expr.c client/expr/dyn-expr-parse.c client/expr/dyn-expr-compile.c \
 *     client/expr/dyn-reserved.c client/values/dyn-value.c client/values/dyn-value-json.c \
 *     client/values/dyn-json.c client/values/dyn-json-ddb.c client/values/dyn-json-plain.c \
 *     client/values/dyn-json-write.c client/dyn-error.c \
 *     $(pkg-config --libs gio-2.0 json-glib-1.0) -lm -o fuzz-expr
 *
 * (-I_build: any configured build dir, for config.h.)
 *
 * The first byte picks the role and alias mode, the rest is the expression.
 * Beyond "never crash" it checks that compile ∘ parse is stable and that the
 * text form parses back to an equal model.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyn-expr.h"

static const DynKeySchema keys = { "PK", DYN_VALUE_S, "SK", DYN_VALUE_S };

static void
check_round_trip (DynExprNode *node,
                  DynExprRole  role,
                  guint        mode)
{
  g_autoptr(DynExprContext) ctx = dyn_expr_context_new ();
  g_autoptr(DynExprContext) ctx2 = dyn_expr_context_new ();
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(DynExprNode) again = NULL;
  g_autoptr(DynExprNode) from_text = NULL;
  g_autofree char *text = NULL;
  const char *first;
  const char *second;

  dyn_expr_context_set_alias_mode (ctx, mode);
  dyn_expr_context_set_alias_mode (ctx2, mode);
  if (role != DYN_EXPR_ROLE_FILTER)
    {
      dyn_expr_context_set_key_schema (ctx, &keys);
      dyn_expr_context_set_key_schema (ctx2, &keys);
    }
  first = dyn_expr_context_add (ctx, role, node, NULL);
  if (first == NULL)
    return;
  names = dyn_expr_context_dup_names (ctx);
  values = dyn_expr_context_dup_values (ctx);
  again = dyn_expr_parse (first, role, names, values, NULL, NULL);
  if (again == NULL)
    abort ();
  second = dyn_expr_context_add (ctx2, role, again, NULL);
  if (second == NULL || strcmp (first, second) != 0)
    abort ();

  text = dyn_expr_node_to_string (node);
  if (text == NULL)
    abort ();
  from_text = dyn_expr_parse (text, role, NULL, NULL, NULL, NULL);
  if (from_text == NULL || !dyn_expr_node_equal (from_text, node))
    abort ();
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(DynTableKeys) table = NULL;
  g_autofree char *text = NULL;
  DynExprRole role;
  guint mode;

  if (size < 1)
    return 0;
  role = data[0] % DYN_EXPR_N_ROLES;
  mode = (data[0] / DYN_EXPR_N_ROLES) % 2;
  text = g_strndup ((const char *) data + 1, size - 1);

  names = g_hash_table_new (g_str_hash, g_str_equal);
  values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) dyn_value_unref);
  g_hash_table_insert (names, "#a", "a");
  g_hash_table_insert (names, "#s", "Status");
  g_hash_table_insert (names, "#pk", "PK");
  g_hash_table_insert (values, ":v", dyn_value_new_string ("x"));
  g_hash_table_insert (values, ":n", dyn_value_new_number ("1", NULL));
  g_hash_table_insert (values, ":t", dyn_value_new_string ("SS"));

  table = dyn_table_keys_new ("T", "PK", DYN_VALUE_S, "SK", DYN_VALUE_S);
  dyn_table_keys_add_index (table, "GSI1", DYN_INDEX_GLOBAL, "GSI1PK", DYN_VALUE_S, "GSI1SK",
                            DYN_VALUE_N, DYN_PROJECTION_ALL);

  /* Raw placeholders kept. */
  {
    g_autoptr(DynExprNode) node = dyn_expr_parse (text, role, NULL, NULL, NULL, NULL);

    if (node != NULL)
      {
        g_autofree char *out = dyn_expr_compile (node, role, &keys, NULL, NULL, NULL);
        g_autofree char *s = dyn_expr_node_to_string (node);

        (void) out;
        (void) s;
      }
  }

  /* Placeholders resolved: the full set of properties. */
  {
    glong offset = 0;
    g_autoptr(DynExprNode) node = dyn_expr_parse (text, role, names, values, &offset, NULL);

    if (node == NULL)
      {
        if (offset < 0 || offset > (glong) size)
          abort ();
      }
    else
      {
        for (guint r = 0; r < DYN_EXPR_N_ROLES; r++)
          (void) dyn_expr_validate (node, r, &keys, NULL);
        check_round_trip (node, role, mode);
        if (role == DYN_EXPR_ROLE_FILTER || role == DYN_EXPR_ROLE_KEY_CONDITION)
          {
            g_autoptr(DynExprPlan) plan = NULL;
            g_autoptr(GPtrArray) shards = NULL;

            plan = role == DYN_EXPR_ROLE_FILTER
              ? dyn_expr_plan (table, NULL, NULL, node, NULL)
              : dyn_expr_plan (table, NULL, node, NULL, NULL);
            if (plan != NULL && plan->suggested_key_condition != NULL)
              {
                const DynIndexInfo *info = strcmp (plan->suggested_index, "GSI1") == 0
                  ? dyn_table_keys_lookup (table, "GSI1") : &table->table;

                /* A suggested split must be a valid key condition. */
                if (!dyn_expr_validate (plan->suggested_key_condition, DYN_EXPR_ROLE_KEY_CONDITION,
                                        &info->keys, NULL))
                  abort ();
              }
            if (role == DYN_EXPR_ROLE_KEY_CONDITION)
              shards = dyn_expr_expand_sharded_key_condition (node, &keys, NULL);
          }
      }
  }

  /* Other entry points on the same bytes. */
  {
    g_autoptr(DynValue) v = dyn_expr_parse_value (text, NULL);
    g_autoptr(DynExprPath) path = dyn_expr_path_parse (text, NULL);
    const char *exprs[] = { text, NULL };

    if (v != NULL)
      {
        g_autofree char *lit = dyn_expr_value_to_literal (v);
        g_autoptr(DynValue) v2 = dyn_expr_parse_value (lit, NULL);

        if (v2 == NULL || !dyn_value_equal (v, v2))
          abort ();
      }
    (void) dyn_expr_check_placeholders (exprs, names, values, NULL);
    if (size < 64)
      {
        g_auto(GStrv) shards = dyn_expr_expand_shard_range (text, NULL);
      }
  }
  return 0;
}
