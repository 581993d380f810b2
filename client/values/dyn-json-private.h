/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-json.h"
#include "dyn-value-private.h"

G_BEGIN_DECLS

/*
 * The strict JSON reader shared by the decoders:
 *   dyn-json.c        the tokeniser (errors with their path, strings with
 *                     escapes and UTF-8, numbers, the value and name stacks,
 *                     maps), the payloads both value decoders share, generic
 *                     JSON to JsonNode, the member getters;
 *   dyn-json-ddb.c    DynamoDB JSON to values, and response bodies;
 *   dyn-json-plain.c  plain JSON to values;
 *   dyn-json-write.c  the writers.
 * The last three use dyn-json.c and this header only, dyn-json.c none of
 * them. What the decoders call per token is static inline here, as it was
 * (or was inlined) inside the one file before, so the hot path gains no call.
 */

/* Character classes inside a JSON string. */
enum {
  DYN_JSON_CC_PLAIN = 0,
  DYN_JSON_CC_QUOTE,
  DYN_JSON_CC_BACKSLASH,
  DYN_JSON_CC_CONTROL,
  DYN_JSON_CC_HIGH,
};

extern guint8 _dyn_json_string_class[256];

typedef struct {
  const guchar *start;
  const guchar *p;
  const guchar *end;
  GError       *error;
  /* Path segments of the failing value, innermost first. */
  GPtrArray    *path;
  /* Scratch for decoded strings with escapes. */
  GString      *buf;
  /* Stacks shared by all nesting levels: values of maps and lists under
   * construction, and the names of map members. */
  DynValue    **vstack;
  guint         vtop;
  guint         valloc;
  DynNameRef   *nstack;
  guint         ntop;
  guint         nalloc;
  char         *names;
  gsize         names_len;
  gsize         names_alloc;
} DynJsonParser;

typedef enum {
  DYN_JSON_SEPARATOR_NONE,   /* failed */
  DYN_JSON_SEPARATOR_COMMA,  /* another member or element follows */
  DYN_JSON_SEPARATOR_END,    /* @close ended the object or array */
} DynJsonSeparator;

/* dyn-json.c */
void        _dyn_json_init_tables       (void);
void        _dyn_json_parser_clear      (DynJsonParser *P);
void        _dyn_json_fail              (DynJsonParser *P, int code, const char *format, ...) G_GNUC_PRINTF (3, 4);
void        _dyn_json_fail_unexpected   (DynJsonParser *P, const guchar *at, const char *expected);
void        _dyn_json_path_push         (DynJsonParser *P, const char *format, ...) G_GNUC_PRINTF (2, 3);
void        _dyn_json_path_push_name    (DynJsonParser *P, const char *name, gsize len);
void        _dyn_json_parser_take_error (DynJsonParser *P, const char *root, GError **error);
gboolean    _dyn_json_expect_end        (DynJsonParser *P);
gboolean    _dyn_json_parser_finish     (DynJsonParser *P, gboolean parsed, GError **error);
gboolean    _dyn_json_read_string       (DynJsonParser *P, const char **out, gsize *out_len);
gboolean    _dyn_json_read_number       (DynJsonParser *P, const guchar **out, gsize *out_len,
                                         gboolean *is_integer);
DynValue   *_dyn_json_build_map         (DynJsonParser *P, guint nbase, guint vbase);
const char *_dyn_json_kind_at           (DynJsonParser *P);
void        _dyn_json_fail_shape        (DynJsonParser *P, const char *type, const char *must);
DynValue   *_dyn_json_ddb_number        (DynJsonParser *P, const char *text, gsize len);
JsonNode   *_dyn_json_generic_value     (DynJsonParser *P, int depth);

/* Inline: what the decoders use on every token. */

static inline void
_dyn_json_parser_init (DynJsonParser *P,
                       const char    *json,
                       gsize          len)
{
  _dyn_json_init_tables ();
  memset (P, 0, sizeof *P);
  P->start = P->p = (const guchar *) json;
  P->end = P->start + len;
}

static inline gsize
_dyn_json_offset (DynJsonParser *P,
                  const guchar  *at)
{
  return at - P->start;
}

static inline void
_dyn_json_skip_ws (DynJsonParser *P)
{
  const guchar *p = P->p;

  while (p < P->end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  P->p = p;
}

static inline int
_dyn_json_peek (DynJsonParser *P)
{
  return P->p < P->end ? *P->p : -1;
}

static inline gboolean
_dyn_json_expect_char (DynJsonParser *P,
                       char           c,
                       const char    *what)
{
  _dyn_json_skip_ws (P);
  if (P->p < P->end && *P->p == (guchar) c)
    {
      P->p++;
      return TRUE;
    }
  _dyn_json_fail_unexpected (P, P->p, what);
  return FALSE;
}

/* What follows a member or element: a ',' or @close (consumed), or else the
 * parse fails. */
static inline DynJsonSeparator
_dyn_json_next_separator (DynJsonParser *P,
                          guchar         close)
{
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) == ',')
    {
      P->p++;
      return DYN_JSON_SEPARATOR_COMMA;
    }
  if (_dyn_json_peek (P) == close)
    {
      P->p++;
      return DYN_JSON_SEPARATOR_END;
    }
  /* Translators: what the JSON parser expected; keep the characters in quotes */
  _dyn_json_fail_unexpected (P, P->p, close == ']' ? N_("',' or ']'") : N_("',' or '}'"));
  return DYN_JSON_SEPARATOR_NONE;
}

static inline gboolean
_dyn_json_read_literal (DynJsonParser *P,
                        const char    *word,
                        gsize          len)
{
  if ((gsize) (P->end - P->p) >= len && memcmp (P->p, word, len) == 0)
    {
      P->p += len;
      return TRUE;
    }
  /* Point at the first byte that differs. */
  for (gsize i = 0; i < len; i++)
    if (P->p + i >= P->end || P->p[i] != (guchar) word[i])
      {
        _dyn_json_fail_unexpected (P, P->p + i, NULL);
        break;
      }
  return FALSE;
}

/* Stacks */

static inline void
_dyn_json_vpush (DynJsonParser *P,
                 DynValue      *v)
{
  if (G_UNLIKELY (P->vtop == P->valloc))
    {
      P->valloc = MAX (64, P->valloc * 2);
      P->vstack = g_renew (DynValue *, P->vstack, P->valloc);
    }
  P->vstack[P->vtop++] = v;
}

static inline void
_dyn_json_npush (DynJsonParser *P,
                 const char    *name,
                 gsize          len)
{
  if (G_UNLIKELY (P->ntop == P->nalloc))
    {
      P->nalloc = MAX (64, P->nalloc * 2);
      P->nstack = g_renew (DynNameRef, P->nstack, P->nalloc);
    }
  /* Allocated on the first name, an empty one too: P->names + off must not
   * be arithmetic on NULL. */
  if (G_UNLIKELY (P->names == NULL || P->names_len + len > P->names_alloc))
    {
      P->names_alloc = MAX (MAX (1024, P->names_alloc * 2), P->names_len + len);
      P->names = g_realloc (P->names, P->names_alloc);
    }
  /* A name "" first: the buffer is still NULL, and memcpy may not be given NULL. */
  if (len > 0)
    memcpy (P->names + P->names_len, name, len);
  P->nstack[P->ntop].off = P->names_len;
  P->nstack[P->ntop].len = len;
  P->ntop++;
  P->names_len += len;
}

/* The values pushed since @vbase (which may be none: NULL, not NULL + 0). */
static inline DynValue **
_dyn_json_values_from (DynJsonParser *P,
                       guint          vbase)
{
  return P->vstack != NULL ? P->vstack + vbase : NULL;
}

static inline void
_dyn_json_npop_to (DynJsonParser *P,
                   guint          nbase)
{
  P->ntop = nbase;
  P->names_len = nbase > 0 ? P->nstack[nbase - 1].off + P->nstack[nbase - 1].len : 0;
}

static inline gboolean
_dyn_json_check_name (DynJsonParser *P,
                      const char    *name,
                      gsize          len)
{
  if (G_UNLIKELY (memchr (name, '\0', len) != NULL))
    {
      _dyn_json_fail (P, DYN_ERROR_PROTOCOL, "%s", _("attribute name contains U+0000"));
      return FALSE;
    }
  return TRUE;
}

/* The string payload of a {"TYPE": payload} value; anything else fails as
 * not being @must (untranslated, marked with N_(): it is passed on every
 * value, and only a failure looks it up). */
static inline gboolean
_dyn_json_read_payload_string (DynJsonParser *P,
                               const char    *type,
                               const char    *must,
                               const char   **out,
                               gsize         *out_len)
{
  if (_dyn_json_peek (P) != '"')
    {
      _dyn_json_fail_shape (P, type, _(must));
      return FALSE;
    }
  return _dyn_json_read_string (P, out, out_len);
}

static inline gboolean
_dyn_json_expect_string (DynJsonParser *P,
                         const char   **out,
                         gsize         *out_len,
                         const char    *what)
{
  _dyn_json_skip_ws (P);
  if (_dyn_json_peek (P) != '"')
    {
      _dyn_json_fail_unexpected (P, P->p, what);
      return FALSE;
    }
  return _dyn_json_read_string (P, out, out_len);
}

static inline DynValue *
_dyn_json_ddb_binary (DynJsonParser *P,
                      const char    *text,
                      gsize          len)
{
  GError *e = NULL;
  GBytes *bytes = _dyn_base64_decode (text, len, &e);
  DynValue *v;

  if (bytes == NULL)
    {
      P->error = e;
      return NULL;
    }
  v = _dyn_value_alloc (DYN_VALUE_B, 0, NULL);
  v->u.bytes = bytes;
  return v;
}

G_END_DECLS
