/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "dyn-value.h"

G_BEGIN_DECLS

/* Internals of DynValue shared by dyn-value.c, dyn-value-json.c and the JSON decoders (dyn-json*.c). */

#define DYN_NUMBER_MAX_DIGITS 38
#define DYN_NUMBER_MAX_EXP    125
#define DYN_NUMBER_MIN_EXP    (-130)
/* Maps with more members than this get a hash index. */
#define DYN_MAP_INDEX_MIN     16
/* Nesting of M and L inside a value (DynamoDB allows 32). */
#define DYN_VALUE_MAX_DEPTH   64

/* 16 bytes: a name holds no U+0000 (DynamoDB's names cannot), so its
 * length is strlen(). Who owns the names is the map's business, see
 * DYN_VALUE_FLAG_OWNED_NAMES. */
typedef struct {
  const char *name;        /* NUL-terminated */
  DynValue   *value;
} DynMember;

enum {
  /* The members / elements array is a separate allocation (not in the tail). */
  DYN_VALUE_FLAG_HEAP_ARRAY = 1 << 0,
  /* A shared immutable singleton (true, false, null): never freed. */
  DYN_VALUE_FLAG_STATIC = 1 << 1,
  /* M: every member name is its own allocation (a map built from parsed
   * text keeps them in its tail instead, until it is changed). */
  DYN_VALUE_FLAG_OWNED_NAMES = 1 << 2,
  /* S or N inside the allocation of the map that holds it: its ref_count
   * field is its distance in bytes from that map, which it is referenced
   * and released through (see _dyn_value_new_map_from()). */
  DYN_VALUE_FLAG_EMBEDDED = 1 << 3,
};

/* An S or N value is only as long as its text: the header, the length,
 * then the text itself (NUL-terminated), in one allocation of
 * DYN_VALUE_TEXT_OFFSET + len + 1 bytes; the rest of the union is not
 * there. A million items of short strings are most of what a table costs. */
struct _DynValue {
  gint    ref_count;
  guint8  type;
  guint8  flags;
  union {
    struct { guint32 len; } str;                                   /* S, N */
    GBytes *bytes;                                                 /* B */
    gboolean boolean;                                              /* BOOL */
    struct { DynMember *members; guint n, alloc; GHashTable *index; } map;
    struct { DynValue **elems; guint n, alloc; } list;
    struct { gpointer *elems; guint n; } set;                       /* char * (SS, NS) or GBytes * (BS) */
  } u;
};

#define DYN_VALUE_TEXT_OFFSET (G_STRUCT_OFFSET (DynValue, u) + sizeof (guint32))
/* The text of an S or N value. */
#define DYN_VALUE_TEXT(v) ((char *) (v) + DYN_VALUE_TEXT_OFFSET)

typedef enum {
  DYN_NUMBER_OK,
  DYN_NUMBER_SYNTAX,
  DYN_NUMBER_DIGITS,
  DYN_NUMBER_TOO_LARGE,
  DYN_NUMBER_TOO_SMALL,
} DynNumberStatus;

typedef struct {
  int     sign;           /* -1, 0 (zero) or 1 */
  gint64  msd_exp;        /* power of ten of the most significant digit */
  guint   n_digits;       /* significant digits */
  char    digits[DYN_NUMBER_MAX_DIGITS + 1];
} DynNumberParts;

DynNumberStatus _dyn_number_parse       (const char *text, gsize len, DynNumberParts *parts);
void            _dyn_number_set_error   (GError **error, DynNumberStatus status, const char *text, gsize len);
gsize           _dyn_number_parts_size  (const DynNumberParts *parts);

/* A value of @type with @tail extra bytes allocated with it; *tail_out points at them. */
DynValue       *_dyn_value_alloc        (DynValueType type, gsize tail, gpointer *tail_out);
/* S or N with a copy of @text (no validation). */
DynValue       *_dyn_value_new_text     (DynValueType type, const char *text, gsize len);
typedef struct {
  gsize off;              /* into a names buffer */
  gsize len;
} DynNameRef;

/* A map built from @n members whose names are at @refs in @namebuf; names are
 * copied into the value, values are stolen. Fails (returns NULL, values
 * untouched) when a name repeats; *dup_index says which. */
DynValue       *_dyn_value_new_map_from (const char *namebuf, const DynNameRef *refs,
                                         DynValue **values, guint n, guint *dup_index);
DynValue       *_dyn_value_new_list_from (DynValue **values, guint n);  /* steals */
/* Sets: strings are copied, GBytes are stolen. NULL with error on duplicates. */
DynValue       *_dyn_value_new_text_set  (DynValueType type, const char * const *strv,
                                          const gsize *lens, guint n, GError **error);
DynValue       *_dyn_value_new_bytes_set (GBytes **bytesv, guint n, GError **error);

/* SS / NS / BS from S / N / B values all of one type (the values are not consumed). */
DynValue       *_dyn_value_set_from_scalars (DynValue **elems, guint n, GError **error);
/* Whether a plain-JSON object key is one of the tags "$binary", "$set", "$number", "$map". */
gboolean        _dyn_plain_is_tag       (const char *name, gsize len);

GBytes         *_dyn_base64_decode      (const char *text, gsize len, GError **error);
void            _dyn_base64_append      (GString *out, const guint8 *data, gsize len);

G_END_DECLS
