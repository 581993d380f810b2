/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the JSON readers of client/values: DynamoDB JSON
 * values, items and item arrays (dyn-json-ddb.c), response bodies
 * (dyn_json_parse_response), generic JSON (dyn_json_parse), plain JSON with
 * its tags (dyn-json-plain.c) and the item text of the editor
 * (dyn-item-text.c). meson builds it in a clang build (tests/meson.build,
 * suite 'fuzz', for fuzz_seconds with the seeds of tests/fuzz-corpus/ddb-json);
 * build-aux/run-tests.sh makes that build as _build-fuzz. By hand:
 *
 *   CC=clang meson setup _build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
 *     -Dgui=disabled -Dc_args=-fsanitize=fuzzer-no-link
 *   ninja -C _build-fuzz tests/fuzz-ddb-json
 *   mkdir -p _build-fuzz/corpus-ddb-json
 *   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
 *     ./_build-fuzz/tests/fuzz-ddb-json -max_total_time=60 \
 *     _build-fuzz/corpus-ddb-json tests/fuzz-corpus/ddb-json
 *
 * (the first corpus directory collects what the run finds; -runs=10000000
 * for a count instead of a time.) Or, without a meson build dir, straight
 * from the sources (-I_build: any configured build dir, for config.h):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I_build -Iclient -Iclient/values \
 *     $(pkg-config --cflags glib-2.0 gobject-2.0 json-glib-1.0) \
 *     tests/fuzz-ddb-json.c client/values/dyn-value.c client/values/dyn-value-json.c \
 *     client/values/dyn-json.c client/values/dyn-json-ddb.c client/values/dyn-json-plain.c \
 *     client/values/dyn-json-write.c client/values/dyn-value-format.c \
 *     client/values/dyn-item-text.c client/dyn-error.c \
 *     $(pkg-config --libs gio-2.0 json-glib-1.0) -lm -o fuzz-ddb-json
 *
 * The input is one JSON text, fed to every reader. Beyond "never crash,
 * never leak" it checks what the readers and writers promise of every value
 * that decodes: DynamoDB JSON, its JsonNode form, plain JSON and the item
 * text each decode back to an equal value (the DynamoDB JSON text to the
 * same text); a re-indented text decodes the same; a number's canonical
 * form is valid and equal to it; an item text that decodes directly decodes
 * the same through a JsonNode (as the client reads "Item" and
 * "LastEvaluatedKey"); sizes agree.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyn-item-text.h"
#include "dyn-json.h"
#include "dyn-value-format.h"
#include "dyn-value.h"

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* JsonNode strings are C strings: a string that holds U+0000 cannot pass
 * through one unchanged (dyn_value_from_ddb_json() and friends). */
static gboolean
holds_nul (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_S:
      return memchr (dyn_value_get_string (v), '\0', dyn_value_get_string_length (v)) != NULL;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (holds_nul (dyn_value_map_get_value (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (holds_nul (dyn_value_list_get (v, i)))
          return TRUE;
      return FALSE;
    default:
      return FALSE;
    }
}

static void
check_number (const char *text)
{
  g_autofree char *canonical = dyn_number_canonicalize (text);

  if (!dyn_number_validate (text, NULL) || !dyn_number_validate (canonical, NULL) ||
      dyn_number_compare (text, canonical) != 0)
    abort ();
}

/* What holds for every part of a value. */
static void
check_parts (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_N:
      check_number (dyn_value_get_number (v));
      break;
    case DYN_VALUE_NS:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        check_number (dyn_value_set_get_string (v, i));
      break;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        {
          const char *name = dyn_value_map_get_name (v, i);

          if (dyn_value_map_lookup (v, name) != dyn_value_map_get_value (v, i))
            abort ();
          check_parts (dyn_value_map_get_value (v, i));
        }
      break;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        check_parts (dyn_value_list_get (v, i));
      break;
    default:
      break;
    }
}

static void
check_equal (const DynValue *a,
             const DynValue *b)
{
  if (b == NULL || !dyn_value_equal (a, b) || !dyn_value_equal (b, a) ||
      dyn_value_compare (a, b) != 0 || dyn_value_size (a) != dyn_value_size (b))
    abort ();
}

/* A value that decoded: its written forms decode back to it. */
static void
check_value (const DynValue *v)
{
  g_autofree char *ddb = dyn_value_to_ddb_json_string (v);
  g_autofree char *plain = dyn_value_to_plain_json_string (v);
  g_autofree char *indented = dyn_json_text_indent (ddb);
  g_autofree char *cell = dyn_value_format_cell (v, DYN_BINARY_FORMAT_BASE64, 40);
  g_autofree char *full = dyn_value_format_full (v, DYN_BINARY_FORMAT_HEX);
  g_autoptr(DynValue) again = dyn_json_decode_ddb_value (ddb, strlen (ddb), NULL);
  g_autoptr(DynValue) from_plain = dyn_json_decode_plain (plain, strlen (plain), NULL);
  g_autoptr(DynValue) from_indented = dyn_json_decode_ddb_value (indented, strlen (indented), NULL);
  g_autoptr(JsonNode) node = dyn_value_to_ddb_json (v);

  if (!dyn_value_equal (v, v) || dyn_value_compare (v, v) != 0 || cell == NULL || full == NULL)
    abort ();
  check_parts (v);
  check_equal (v, again);
  check_equal (v, from_plain);
  check_equal (v, from_indented);
  {
    /* Written again, the same text. */
    g_autofree char *ddb2 = dyn_value_to_ddb_json_string (again);

    if (strcmp (ddb, ddb2) != 0)
      abort ();
  }
  if (node == NULL)
    abort ();
  if (!holds_nul (v))
    {
      g_autoptr(DynValue) from_node = dyn_value_from_ddb_json (node, NULL);

      check_equal (v, from_node);
    }
  (void) dyn_value_format_type (v);
}

/* An item that decoded: also its item forms. */
static void
check_item (const DynValue *item)
{
  g_autofree char *ddb = NULL;
  g_autofree char *text = NULL;
  g_autoptr(DynValue) again = NULL;
  g_autoptr(DynValue) from_text = NULL;
  g_autoptr(JsonNode) node = NULL;

  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    abort ();
  check_value (item);

  ddb = dyn_item_to_ddb_json_string (item);
  again = dyn_item_from_ddb_json_string (ddb, -1, NULL);
  check_equal (item, again);
  if (dyn_item_size (item) != dyn_item_size (again))
    abort ();

  /* The editor's text reads back unchanged. */
  text = dyn_item_to_plain_text (item);
  from_text = dyn_item_from_plain_text (text, -1, NULL);
  check_equal (item, from_text);

  node = dyn_item_to_ddb_json (item);
  if (node == NULL)
    abort ();
  if (!holds_nul (item))
    {
      g_autoptr(DynValue) from_node = dyn_item_from_ddb_json (node, NULL);

      check_equal (item, from_node);
    }
}

/* A member of a response, read as the client reads it. */
static void
check_item_node (JsonNode *node)
{
  g_autoptr(DynValue) item = dyn_item_from_ddb_json (node, NULL);

  if (item != NULL)
    check_item (item);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const char *json = (const char *) data;

  /* DynamoDB JSON: a value, an item, an array of items. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_json_decode_ddb_value (json, size, &error);

    if ((v == NULL) == (error == NULL))
      abort ();
    if (v != NULL)
      check_value (v);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) item = dyn_json_decode_ddb_item (json, size, &error);

    if ((item == NULL) == (error == NULL))
      abort ();
    if (item != NULL)
      {
        g_autoptr(JsonNode) node = NULL;

        check_item (item);
        /* The same text through a JsonNode, as the client reads an "Item". */
        node = dyn_json_parse (json, size, NULL);
        if (node == NULL)
          abort ();
        if (!holds_nul (item))
          {
            g_autoptr(DynValue) from_node = dyn_item_from_ddb_json (node, NULL);

            check_equal (item, from_node);
          }
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) items = dyn_json_decode_ddb_items (json, size, &error);

    if ((items == NULL) == (error == NULL))
      abort ();
    for (guint i = 0; items != NULL && i < items->len; i++)
      check_item (g_ptr_array_index (items, i));
  }

  /* A response body: the Items fast path and the members as the client reads them. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) items = NULL;
    g_autoptr(JsonNode) root = dyn_json_parse_response (json, size, &items, &error);

    if ((root == NULL) == (error == NULL) || (root == NULL && items != NULL))
      abort ();
    if (root != NULL)
      {
        static const char * const members[] = { "Item", "Attributes", "LastEvaluatedKey" };
        JsonObject *object = json_node_get_object (root);

        if (json_object_has_member (object, "Items"))
          abort ();
        for (guint i = 0; items != NULL && i < items->len; i++)
          check_item (g_ptr_array_index (items, i));
        for (guint i = 0; i < G_N_ELEMENTS (members); i++)
          {
            JsonNode *member = json_object_get_member (object, members[i]);

            if (member != NULL)
              check_item_node (member);
          }
        /* BatchGetItem: {"Responses": {"TABLE": [item, …]}}. */
        {
          JsonObject *responses = dyn_json_object_get_object (object, "Responses");
          g_autoptr(GList) tables = responses != NULL ? json_object_get_members (responses) : NULL;

          for (GList *l = tables; l != NULL; l = l->next)
            {
              JsonArray *array = dyn_json_object_get_array (responses, l->data);

              for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
                check_item_node (json_array_get_element (array, i));
            }
        }
      }
  }

  /* Generic JSON. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) node = dyn_json_parse (json, size, &error);

    if ((node == NULL) == (error == NULL))
      abort ();
  }

  /* Plain JSON and the editor's item text. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) v = dyn_json_decode_plain (json, size, &error);

    if ((v == NULL) == (error == NULL))
      abort ();
    if (v != NULL)
      {
        check_value (v);
        if (dyn_value_get_value_type (v) == DYN_VALUE_M)
          check_item (v);
      }
  }
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(DynValue) item = dyn_item_from_plain_text (json, size, &error);

    if ((item == NULL) == (error == NULL))
      abort ();
    if (item != NULL)
      check_item (item);
  }
  return 0;
}
