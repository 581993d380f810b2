/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "dyn-value.h"

G_BEGIN_DECLS

/* A strict RFC 8259 reader: UTF-8 is validated, escapes (with surrogate pairs)
 * decoded, nothing but whitespace may follow the value. Errors are
 * DYN_ERROR_PROTOCOL for JSON that does not parse or has the wrong shape
 * ("Items[3].price: N must be a string", "truncated JSON at byte 1234") and
 * DYN_ERROR_INVALID_VALUE for values DynamoDB cannot hold (number range, empty
 * or repeating sets, bad base64). */

/* Generic JSON nested deeper than this fails. It leaves room for a
 * GetItem "Item" of 32 nested levels (two JSON levels per M or L). */
#define DYN_JSON_MAX_DEPTH 160

/**
 * dyn_json_parse:
 * @json: JSON text
 * @len: length of @json, or -1 when NUL-terminated
 * @error: return location for a #GError
 *
 * Parses any JSON text into a json-glib tree. Integers that fit go in as
 * gint64, other numbers as double: use this for the non-value parts of a
 * response only.
 *
 * Returns: (transfer full): the root node, or %NULL with @error set
 */
JsonNode   *dyn_json_parse               (const char  *json,
                                          gssize       len,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_json_parse_response:
 * @json: a DynamoDB response body (a JSON object)
 * @len: length of @json
 * @items_out: (out) (optional): the decoded "Items"
 * @error: return location for a #GError
 *
 * Parses a response body. A top-level "Items" array is decoded straight into
 * items (a #GPtrArray of #DynValue maps, free func dyn_value_unref()) and left
 * out of the returned object; every other member (Count, LastEvaluatedKey,
 * ConsumedCapacity, Item, Responses …) is in it. When the body has no "Items"
 * member, *@items_out is set to %NULL (an empty page gives an empty array).
 *
 * Returns: (transfer full): the rest of the body as an object node, or %NULL
 */
JsonNode   *dyn_json_parse_response      (const char  *json,
                                          gsize        len,
                                          GPtrArray  **items_out,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* DynamoDB JSON text → values, without a JsonNode tree (the hot path). */
DynValue   *dyn_json_decode_ddb_value    (const char  *json,
                                          gsize        len,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;  /* {"S":"x"} */
DynValue   *dyn_json_decode_ddb_item     (const char  *json,
                                          gsize        len,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;  /* {"a":{"S":"x"}} */
GPtrArray  *dyn_json_decode_ddb_items    (const char  *json,
                                          gsize        len,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;  /* [item, …] */

/* Plain JSON text → value, keeping number literals exactly (see VALUES.md). */
DynValue   *dyn_json_decode_plain        (const char  *json,
                                          gsize        len,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;

/* Writers: append to @out. Numbers are written exactly as held. */
void        dyn_json_append_string       (GString        *out,
                                          const char     *str,
                                          gsize           len);   /* quoted and escaped */
void        dyn_json_append_ddb_value    (GString        *out,
                                          const DynValue *value);
void        dyn_json_append_ddb_item     (GString        *out,
                                          const DynValue *item);
void        dyn_json_append_plain_value  (GString        *out,
                                          const DynValue *value);

/* Member @name of @obj when it is an array (object), else %NULL; @obj may be
 * %NULL. json-glib 1.6 has no _with_default getters for these. */
JsonArray  *dyn_json_object_get_array    (JsonObject     *obj,
                                          const char     *name);
JsonObject *dyn_json_object_get_object   (JsonObject     *obj,
                                          const char     *name);

G_END_DECLS
