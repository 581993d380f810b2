/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * DynValueType:
 *
 * The ten DynamoDB attribute types, in the order of their wire descriptors.
 */
typedef enum {
  DYN_VALUE_S,
  DYN_VALUE_N,
  DYN_VALUE_B,
  DYN_VALUE_BOOL,
  DYN_VALUE_NULL,
  DYN_VALUE_M,
  DYN_VALUE_L,
  DYN_VALUE_SS,
  DYN_VALUE_NS,
  DYN_VALUE_BS,
} DynValueType;

/**
 * DynValue:
 *
 * An immutable, reference-counted DynamoDB attribute value. Numbers are kept as
 * the exact decimal text (validated: at most 38 significant digits, magnitude
 * 1E-130 ≤ |n| < 1E126 or zero) and never pass through a double. Binary is kept
 * as bytes. Sets are non-empty with unique elements (in first-seen order). Maps
 * keep their member order as received. An item is a value of type M.
 */
typedef struct _DynValue DynValue;

#define DYN_TYPE_VALUE (dyn_value_get_type ())
GType         dyn_value_get_type          (void) G_GNUC_CONST;

DynValue     *dyn_value_ref               (DynValue *self);
void          dyn_value_unref             (DynValue *self);
DynValueType  dyn_value_get_value_type    (const DynValue *self);
const char   *dyn_value_type_to_string    (DynValueType type);           /* "S", "NS" … */
gboolean      dyn_value_type_from_string  (const char *s, DynValueType *out_type);

/* Constructors. Numbers and sets validate and fail with DYN_ERROR_INVALID_VALUE. */
DynValue     *dyn_value_new_string        (const char *utf8) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_string_len    (const char *utf8, gsize len) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_number        (const char *text, GError **error) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_binary        (GBytes *bytes) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_bool          (gboolean b) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_null          (void) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_map           (void) G_GNUC_WARN_UNUSED_RESULT;   /* empty, mutable until shared */
DynValue     *dyn_value_new_list          (void) G_GNUC_WARN_UNUSED_RESULT;
/* Sets: elements are strings (SS, NS: number text) or GBytes* (BS). Duplicates
 * (numerically equal numbers, equal bytes) and empty sets are errors. */
DynValue     *dyn_value_new_string_set    (const char * const *strv, gssize n, GError **error) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_number_set    (const char * const *strv, gssize n, GError **error) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_value_new_binary_set    (GBytes * const *bytesv, gsize n, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Building maps and lists (only while the caller holds the sole reference). */
void          dyn_value_map_set           (DynValue *map, const char *name, DynValue *value); /* takes a ref */
void          dyn_value_map_take          (DynValue *map, const char *name, DynValue *value); /* steals value */
gboolean      dyn_value_map_remove        (DynValue *map, const char *name);
void          dyn_value_list_append       (DynValue *list, DynValue *value);  /* takes a ref */
void          dyn_value_list_take         (DynValue *list, DynValue *value);  /* steals value */

/* Accessors. */
const char   *dyn_value_get_string        (const DynValue *self);   /* S */
gsize         dyn_value_get_string_length (const DynValue *self);   /* S: bytes (a string may hold U+0000) */
const char   *dyn_value_get_number        (const DynValue *self);   /* N: the exact text */
GBytes       *dyn_value_get_binary        (const DynValue *self);   /* B: borrowed */
gboolean      dyn_value_get_bool          (const DynValue *self);
guint         dyn_value_get_length        (const DynValue *self);   /* M members, L/SS/NS/BS elements */
DynValue     *dyn_value_map_lookup        (const DynValue *self, const char *name);  /* borrowed or NULL */
const char   *dyn_value_map_get_name      (const DynValue *self, guint i);
DynValue     *dyn_value_map_get_value     (const DynValue *self, guint i);           /* borrowed */
DynValue     *dyn_value_list_get          (const DynValue *self, guint i);           /* borrowed */
const char   *dyn_value_set_get_string    (const DynValue *self, guint i);           /* SS, NS */
GBytes       *dyn_value_set_get_binary    (const DynValue *self, guint i);           /* BS, borrowed */

/* Comparison: DynamoDB equality (numbers by value, sets ignoring order, maps
 * ignoring member order). */
gboolean      dyn_value_equal             (const DynValue *a, const DynValue *b);
/* Key ordering as DynamoDB sorts sort keys: N numerically, S by UTF-8 bytes, B by bytes. */
int           dyn_value_compare           (const DynValue *a, const DynValue *b);

/* Numbers. */
gboolean      dyn_number_validate         (const char *text, GError **error);
int           dyn_number_compare          (const char *a, const char *b);   /* exact */
char         *dyn_number_canonicalize     (const char *text) G_GNUC_WARN_UNUSED_RESULT; /* as DynamoDB stores it */
/* @a + @b, or @a - @b, exactly as DynamoDB computes it; NULL with
 * DYN_ERROR_INVALID_VALUE when the result needs more than 38 digits or
 * leaves DynamoDB's number range. */
char         *dyn_number_add              (const char *a, const char *b, gboolean subtract,
                                           GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* DynamoDB JSON ("{"S":"x"}"), the wire format. */
DynValue     *dyn_value_from_ddb_json     (JsonNode *node, GError **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode     *dyn_value_to_ddb_json       (const DynValue *self) G_GNUC_WARN_UNUSED_RESULT;
/* An item: a JSON object of name → DynamoDB JSON value. */
DynValue     *dyn_item_from_ddb_json      (JsonNode *node, GError **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode     *dyn_item_to_ddb_json        (const DynValue *item) G_GNUC_WARN_UNUSED_RESULT;
/* Text forms; to_ddb_json_string writes numbers exactly as held. */
DynValue     *dyn_item_from_ddb_json_string (const char *json, gssize len, GError **error) G_GNUC_WARN_UNUSED_RESULT;
char         *dyn_item_to_ddb_json_string   (const DynValue *item) G_GNUC_WARN_UNUSED_RESULT;
char         *dyn_value_to_ddb_json_string  (const DynValue *value) G_GNUC_WARN_UNUSED_RESULT;

/* Plain JSON ⇄ value. The rules (written down in client/values/VALUES.md):
 * string → S; number → N (the literal's exact text); true/false → BOOL; null → NULL;
 * array → L; object → M; except the tagged forms that keep what plain JSON cannot say:
 * {"$binary": "<base64>"} → B, {"$set": [strings]} → SS, {"$set": [numbers]} → NS,
 * {"$set": [{"$binary":…}…]} → BS, {"$number": "text"} → N for numbers JSON cannot spell exactly.
 * value → plain JSON writes these same forms, so plain → value → plain is lossless. */
DynValue     *dyn_value_from_plain_json   (JsonNode *node, GError **error) G_GNUC_WARN_UNUSED_RESULT;
char         *dyn_value_to_plain_json_string (const DynValue *value) G_GNUC_WARN_UNUSED_RESULT;
DynValue     *dyn_item_from_plain_json_string (const char *json, gssize len, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Fast path for the hot loop: decode the "Items" array (or any array of items)
 * of a response body without building a JsonNode tree. */
GPtrArray    *dyn_items_decode_ddb_json_array (const char *json, gsize len, GError **error) G_GNUC_WARN_UNUSED_RESULT;

/* Size as DynamoDB counts it (names + values, in bytes). */
gsize         dyn_value_size              (const DynValue *self);
gsize         dyn_item_size               (const DynValue *item);
#define DYN_ITEM_MAX_SIZE (400 * 1024)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DynValue, dyn_value_unref)

G_END_DECLS
