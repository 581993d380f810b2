/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-json-write"

#include "config.h"

#include <string.h>

#include "dyn-json-private.h"

/* Writers */

void
dyn_json_append_string (GString    *out,
                        const char *str,
                        gsize       len)
{
  static const char hex[] = "0123456789abcdef";
  const guchar *s = (const guchar *) str;
  gsize run = 0;

  _dyn_json_init_tables ();
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = s[i];
      guint8 cls = _dyn_json_string_class[c];

      if (cls == DYN_JSON_CC_PLAIN || cls == DYN_JSON_CC_HIGH)
        continue;
      g_string_append_len (out, str + run, i - run);
      run = i + 1;
      switch (c)
        {
        case '"':  g_string_append_len (out, "\\\"", 2); break;
        case '\\': g_string_append_len (out, "\\\\", 2); break;
        case '\b': g_string_append_len (out, "\\b", 2); break;
        case '\f': g_string_append_len (out, "\\f", 2); break;
        case '\n': g_string_append_len (out, "\\n", 2); break;
        case '\r': g_string_append_len (out, "\\r", 2); break;
        case '\t': g_string_append_len (out, "\\t", 2); break;
        default:
          {
            char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            g_string_append_len (out, u, 6);
          }
        }
    }
  g_string_append_len (out, str + run, len - run);
  g_string_append_c (out, '"');
}

static void
append_cstring (GString    *out,
                const char *s)
{
  dyn_json_append_string (out, s, strlen (s));
}

static void
append_base64 (GString *out,
               GBytes  *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_string_append_c (out, '"');
  _dyn_base64_append (out, data, len);
  g_string_append_c (out, '"');
}

static void
append_ddb_members (GString        *out,
                    const DynValue *map)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < map->u.map.n; i++)
    {
      const DynMember *m = &map->u.map.members[i];

      if (i > 0)
        g_string_append_c (out, ',');
      dyn_json_append_string (out, m->name, strlen (m->name));
      g_string_append_c (out, ':');
      dyn_json_append_ddb_value (out, m->value);
    }
  g_string_append_c (out, '}');
}

void
dyn_json_append_ddb_value (GString        *out,
                           const DynValue *v)
{
  g_return_if_fail (out != NULL && v != NULL);

  g_string_append_len (out, "{\"", 2);
  g_string_append (out, dyn_value_type_to_string (v->type));
  g_string_append_len (out, "\":", 2);
  switch ((DynValueType) v->type)
    {
    case DYN_VALUE_S:
    case DYN_VALUE_N:
      dyn_json_append_string (out, DYN_VALUE_TEXT (v), v->u.str.len);
      break;
    case DYN_VALUE_B:
      append_base64 (out, v->u.bytes);
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, v->u.boolean ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "true");
      break;
    case DYN_VALUE_M:
      append_ddb_members (out, v);
      break;
    case DYN_VALUE_L:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.list.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyn_json_append_ddb_value (out, v->u.list.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.set.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (v->type == DYN_VALUE_BS)
            append_base64 (out, v->u.set.elems[i]);
          else
            append_cstring (out, v->u.set.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append_c (out, '}');
}

void
dyn_json_append_ddb_item (GString        *out,
                          const DynValue *item)
{
  g_return_if_fail (out != NULL && item != NULL && item->type == DYN_VALUE_M);
  append_ddb_members (out, item);
}

/* Whether @text is a JSON number literal (so it can be written bare). */
static gboolean
is_json_number (const char *text,
                gsize       len)
{
  DynJsonParser P;
  const guchar *s;
  gsize n;
  gboolean is_integer;
  gboolean ok;

  _dyn_json_parser_init (&P, text, len);
  ok = _dyn_json_read_number (&P, &s, &n, &is_integer) && P.p == P.end;
  _dyn_json_parser_clear (&P);
  return ok;
}

static void
append_plain_number (GString    *out,
                     const char *text,
                     gsize       len)
{
  if (is_json_number (text, len))
    g_string_append_len (out, text, len);
  else
    {
      g_string_append (out, "{\"$number\":");
      dyn_json_append_string (out, text, len);
      g_string_append_c (out, '}');
    }
}

void
dyn_json_append_plain_value (GString        *out,
                             const DynValue *v)
{
  g_return_if_fail (out != NULL && v != NULL);

  switch ((DynValueType) v->type)
    {
    case DYN_VALUE_S:
      dyn_json_append_string (out, DYN_VALUE_TEXT (v), v->u.str.len);
      break;
    case DYN_VALUE_N:
      append_plain_number (out, DYN_VALUE_TEXT (v), v->u.str.len);
      break;
    case DYN_VALUE_B:
      g_string_append (out, "{\"$binary\":");
      append_base64 (out, v->u.bytes);
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, v->u.boolean ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "null");
      break;
    case DYN_VALUE_M:
      {
        gboolean wrap = v->u.map.n > 0 &&
                        _dyn_plain_is_tag (v->u.map.members[0].name, strlen (v->u.map.members[0].name));

        if (wrap)
          g_string_append (out, "{\"$map\":");
        g_string_append_c (out, '{');
        for (guint i = 0; i < v->u.map.n; i++)
          {
            const DynMember *m = &v->u.map.members[i];

            if (i > 0)
              g_string_append_c (out, ',');
            dyn_json_append_string (out, m->name, strlen (m->name));
            g_string_append_c (out, ':');
            dyn_json_append_plain_value (out, m->value);
          }
        g_string_append_c (out, '}');
        if (wrap)
          g_string_append_c (out, '}');
      }
      break;
    case DYN_VALUE_L:
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->u.list.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          dyn_json_append_plain_value (out, v->u.list.elems[i]);
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      g_string_append (out, "{\"$set\":[");
      for (guint i = 0; i < v->u.set.n; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          if (v->type == DYN_VALUE_SS)
            append_cstring (out, v->u.set.elems[i]);
          else if (v->type == DYN_VALUE_NS)
            append_plain_number (out, v->u.set.elems[i], strlen (v->u.set.elems[i]));
          else
            {
              g_string_append (out, "{\"$binary\":");
              append_base64 (out, v->u.set.elems[i]);
              g_string_append_c (out, '}');
            }
        }
      g_string_append (out, "]}");
      break;
    default:
      g_assert_not_reached ();
    }
}
