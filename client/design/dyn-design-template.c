/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Key templates: "WS#{workspaceId}", "ORDER#{orderNo:08}", "{shard}", "{year}"
 * (a whole-value field keeps the attribute's type). */
#define G_LOG_DOMAIN "dyn-design"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-design.h"
#include "dyn-error.h"

typedef enum {
  PART_LITERAL,
  PART_FIELD,
  PART_SHARD,
} PartKind;

typedef struct {
  PartKind  kind;
  char     *text;    /* literal text, or the field's attribute name */
  guint     width;   /* zero padding, 0 none */
} Part;

struct _DynDesignTemplate {
  char   *text;
  char   *prefix;
  Part   *parts;
  guint   n_parts;
  GStrv   fields;
  gboolean has_shard;
};

#define MAX_WIDTH 64

static void
template_error (GError    **error,
                const char *text,
                const char *what)
{
  g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
               _("Key template “%s”: %s"), text, what);
}

DynDesignTemplate *
dyn_design_template_parse (const char *text,
                           GError    **error)
{
  g_autoptr(GArray) parts = NULL;
  g_autoptr(GString) literal = g_string_new (NULL);
  g_autoptr(GPtrArray) fields = NULL;
  DynDesignTemplate *self;
  gboolean has_shard = FALSE;
  const char *p;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (text == NULL || *text == '\0')
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("A key template cannot be empty"));
      return NULL;
    }
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, _("A key template must be UTF-8 text"));
      return NULL;
    }

  parts = g_array_new (FALSE, TRUE, sizeof (Part));
  fields = g_ptr_array_new ();

  for (p = text; *p != '\0'; )
    {
      if (p[0] == '{' && p[1] == '{')
        {
          g_string_append_c (literal, '{');
          p += 2;
        }
      else if (p[0] == '}' && p[1] == '}')
        {
          g_string_append_c (literal, '}');
          p += 2;
        }
      else if (p[0] == '}')
        {
          template_error (error, text, _("a “}” without its “{” (write “}}” for a literal brace)"));
          goto fail;
        }
      else if (p[0] == '{')
        {
          const char *end = strchr (p + 1, '}');
          const char *colon;
          g_autofree char *name = NULL;
          Part part = { 0 };

          if (end == NULL)
            {
              template_error (error, text, _("a “{” without its “}” (write “{{” for a literal brace)"));
              goto fail;
            }
          if (memchr (p + 1, '{', end - p - 1) != NULL)
            {
              template_error (error, text, _("a “{” inside a field"));
              goto fail;
            }
          colon = memchr (p + 1, ':', end - p - 1);
          name = g_strstrip (g_strndup (p + 1, (colon != NULL ? colon : end) - p - 1));
          if (*name == '\0')
            {
              template_error (error, text, _("a field without an attribute name"));
              goto fail;
            }
          if (colon != NULL)
            {
              g_autofree char *w = g_strndup (colon + 1, end - colon - 1);
              guint64 width;

              if (!g_ascii_string_to_unsigned (w, 10, 1, MAX_WIDTH, &width, NULL))
                {
                  g_autofree char *what = g_strdup_printf (_("“:%s” is not a padding width (“:08” pads to 8 characters, at most %d)"),
                                                           w, MAX_WIDTH);
                  template_error (error, text, what);
                  goto fail;
                }
              part.width = width;
            }
          if (literal->len > 0)
            {
              Part lit = { PART_LITERAL, g_strdup (literal->str), 0 };
              g_array_append_val (parts, lit);
              g_string_truncate (literal, 0);
            }
          if (strcmp (name, "shard") == 0)
            {
              if (has_shard)
                {
                  template_error (error, text, _("more than one {shard}"));
                  goto fail;
                }
              has_shard = TRUE;
              part.kind = PART_SHARD;
            }
          else
            {
              part.kind = PART_FIELD;
              g_ptr_array_add (fields, name);
            }
          part.text = g_steal_pointer (&name);
          g_array_append_val (parts, part);
          p = end + 1;
        }
      else
        {
          g_string_append_c (literal, *p);
          p++;
        }
    }
  if (literal->len > 0)
    {
      Part lit = { PART_LITERAL, g_strdup (literal->str), 0 };
      g_array_append_val (parts, lit);
    }

  self = g_new0 (DynDesignTemplate, 1);
  self->text = g_strdup (text);
  self->n_parts = parts->len;
  self->parts = (Part *) g_array_free (g_steal_pointer (&parts), FALSE);
  self->has_shard = has_shard;
  {
    g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

    for (guint i = 0; i < fields->len; i++)
      g_strv_builder_add (b, fields->pdata[i]);
    self->fields = g_strv_builder_end (b);
  }
  self->prefix = g_strdup (self->n_parts > 0 && self->parts[0].kind == PART_LITERAL
                           ? self->parts[0].text : "");
  return self;

fail:
  for (guint i = 0; i < parts->len; i++)
    g_free (g_array_index (parts, Part, i).text);
  return NULL;
}

void
dyn_design_template_free (DynDesignTemplate *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_parts; i++)
    g_free (self->parts[i].text);
  g_free (self->parts);
  g_strfreev (self->fields);
  g_free (self->text);
  g_free (self->prefix);
  g_free (self);
}

const char *
dyn_design_template_get_text (const DynDesignTemplate *self)
{
  return self->text;
}

GStrv
dyn_design_template_get_fields (const DynDesignTemplate *self)
{
  return g_strdupv (self->fields);
}

gboolean
dyn_design_template_is_constant (const DynDesignTemplate *self)
{
  return self->fields[0] == NULL && !self->has_shard;
}

gboolean
dyn_design_template_has_shard (const DynDesignTemplate *self)
{
  return self->has_shard;
}

const char *
dyn_design_template_get_prefix (const DynDesignTemplate *self)
{
  return self->prefix;
}

/* A whole-value field: the template is one field, unpadded. */
static gboolean
is_whole_value (const DynDesignTemplate *self)
{
  return self->n_parts == 1 && self->parts[0].kind == PART_FIELD && self->parts[0].width == 0;
}

static void
append_padded (GString    *out,
               const char *text,
               guint       width)
{
  glong len = g_utf8_strlen (text, -1);

  for (glong i = len; i < (glong) width; i++)
    g_string_append_c (out, '0');
  g_string_append (out, text);
}

static guint
n_digits (guint n)
{
  guint d = 1;

  while (n >= 10)
    {
      n /= 10;
      d++;
    }
  return d;
}

/* The text a value takes inside a composite key. */
static gboolean
append_value_text (GString        *out,
                   const DynValue *value,
                   const Part     *part,
                   const char     *template_text,
                   GError        **error)
{
  g_autofree char *owned = NULL;
  const char *text;

  switch (dyn_value_get_value_type (value))
    {
    case DYN_VALUE_S:
      text = dyn_value_get_string (value);
      break;
    case DYN_VALUE_N:
      text = dyn_value_get_number (value);
      break;
    case DYN_VALUE_BOOL:
      text = dyn_value_get_bool (value) ? "true" : "false";
      break;
    case DYN_VALUE_B:
      {
        GBytes *bytes = dyn_value_get_binary (value);
        gsize len;
        const guint8 *data = g_bytes_get_data (bytes, &len);

        text = owned = g_base64_encode (data, len);
      }
      break;
    default:
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Key template “%s”: attribute “%s” is of type %s, which cannot be part of a key"),
                   template_text, part->text,
                   dyn_value_type_to_string (dyn_value_get_value_type (value)));
      return FALSE;
    }
  append_padded (out, text, part->width);
  return TRUE;
}

DynValue *
dyn_design_template_render (const DynDesignTemplate *self,
                            const DynValue          *item,
                            guint                    shard,
                            guint                    n_shards,
                            GError                 **error)
{
  g_autoptr(GString) out = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  if (item != NULL && dyn_value_get_value_type (item) != DYN_VALUE_M)
    item = NULL;

  if (is_whole_value (self))
    {
      DynValue *value = item != NULL ? dyn_value_map_lookup (item, self->parts[0].text) : NULL;

      if (value == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                       _("Key template “%s”: the item has no attribute “%s”"),
                       self->text, self->parts[0].text);
          return NULL;
        }
      switch (dyn_value_get_value_type (value))
        {
        case DYN_VALUE_S:
        case DYN_VALUE_N:
        case DYN_VALUE_B:
          return dyn_value_ref (value);
        default:
          break;
        }
    }

  if (self->has_shard && shard == 0)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Key template “%s” is sharded: it needs a shard number"), self->text);
      return NULL;
    }
  if (self->has_shard && n_shards > 0 && shard > n_shards)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                   _("Key template “%s”: shard %u of %u"), self->text, shard, n_shards);
      return NULL;
    }

  out = g_string_new (NULL);
  for (guint i = 0; i < self->n_parts; i++)
    {
      const Part *part = &self->parts[i];

      switch (part->kind)
        {
        case PART_LITERAL:
          g_string_append (out, part->text);
          break;
        case PART_SHARD:
          {
            guint width = MAX (2, n_digits (MAX (n_shards, shard)));
            g_autofree char *digits = g_strdup_printf ("%u", shard);

            width = MAX (width, part->width);
            append_padded (out, digits, width);
          }
          break;
        case PART_FIELD:
          {
            DynValue *value = item != NULL ? dyn_value_map_lookup (item, part->text) : NULL;

            if (value == NULL)
              {
                g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT,
                             _("Key template “%s”: the item has no attribute “%s”"),
                             self->text, part->text);
                return NULL;
              }
            if (!append_value_text (out, value, part, self->text, error))
              return NULL;
          }
          break;
        }
    }
  return dyn_value_new_string_len (out->str, out->len);
}

/* Matching ------------------------------------------------------------------ */

static gboolean
all_digits (const char *s,
            gsize       len)
{
  if (len == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* Whether parts[i..] match text[0..len); fills @captures (start, length per
 * part) on success. Fields take the shortest text that lets the rest match
 * (so "PROJ#{a}#{b}" splits at the first '#'), never an empty one. */
static gboolean
match_from (const DynDesignTemplate *self,
            guint                    i,
            const char              *text,
            gsize                    len,
            gsize                    offset,
            gsize                   *captures,
            GHashTable              *failed)
{
  const Part *part;
  gpointer memo_key;

  if (i == self->n_parts)
    return offset == len;
  /* (part, offset) pairs known not to match: linear, not exponential, in
   * the number of adjacent fields. */
  memo_key = GSIZE_TO_POINTER ((gsize) i * (len + 1) + offset + 1);
  if (g_hash_table_contains (failed, memo_key))
    return FALSE;

  part = &self->parts[i];
  if (part->kind == PART_LITERAL)
    {
      gsize n = strlen (part->text);

      if (len - offset < n || memcmp (text + offset, part->text, n) != 0)
        return FALSE;
      if (match_from (self, i + 1, text, len, offset + n, captures, failed))
        return TRUE;
      g_hash_table_add (failed, memo_key);
      return FALSE;
    }

  for (gsize n = 1; offset + n <= len; n++)
    {
      /* Whole UTF-8 characters only. */
      if (offset + n < len && (((guchar) text[offset + n]) & 0xC0) == 0x80)
        continue;
      if (part->kind == PART_SHARD && !g_ascii_isdigit (text[offset + n - 1]))
        break;
      if (part->width > 0 && g_utf8_strlen (text + offset, n) < part->width)
        continue;
      captures[2 * i] = offset;
      captures[2 * i + 1] = n;
      if (match_from (self, i + 1, text, len, offset + n, captures, failed))
        return TRUE;
    }
  g_hash_table_add (failed, memo_key);
  return FALSE;
}

gboolean
dyn_design_template_match (const DynDesignTemplate *self,
                           const DynValue          *key,
                           GHashTable              *fields)
{
  g_autofree gsize *captures = NULL;
  const char *text;
  gsize len;

  g_return_val_if_fail (self != NULL, FALSE);

  if (key == NULL)
    return FALSE;

  if (is_whole_value (self))
    {
      DynValueType type = dyn_value_get_value_type (key);

      if (type != DYN_VALUE_S && type != DYN_VALUE_N && type != DYN_VALUE_B)
        return FALSE;
      if (type == DYN_VALUE_S && dyn_value_get_string_length (key) == 0)
        return FALSE;
      if (fields != NULL)
        g_hash_table_replace (fields, g_strdup (self->parts[0].text), dyn_value_ref ((DynValue *) key));
      return TRUE;
    }

  if (dyn_value_get_value_type (key) == DYN_VALUE_S)
    {
      text = dyn_value_get_string (key);
      len = dyn_value_get_string_length (key);
    }
  else if (dyn_value_get_value_type (key) == DYN_VALUE_N)
    {
      text = dyn_value_get_number (key);
      len = strlen (text);
    }
  else
    return FALSE;

  captures = g_new0 (gsize, 2 * (self->n_parts + 1));
  {
    g_autoptr(GHashTable) failed = g_hash_table_new (NULL, NULL);

    if (!match_from (self, 0, text, len, 0, captures, failed))
      return FALSE;
  }

  if (fields != NULL)
    for (guint i = 0; i < self->n_parts; i++)
      {
        const Part *part = &self->parts[i];
        const char *start = text + captures[2 * i];
        gsize n = captures[2 * i + 1];

        if (part->kind != PART_FIELD)
          continue;
        /* A padded number comes back without its padding ("00000042" → "42"). */
        if (part->width > 0 && all_digits (start, n))
          while (n > 1 && *start == '0')
            {
              start++;
              n--;
            }
        g_hash_table_replace (fields, g_strdup (part->text), dyn_value_new_string_len (start, n));
      }
  return TRUE;
}
