/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-params"

#include "config.h"

#include <string.h>

#include "dyn-json.h"
#include "dyn-request-private.h"
#include "dyn-snippet-private.h"

/* What every generator shares: the parameters of a request, what the program
 * does with the response, and the literal, quoting and case helpers. Uses no
 * generator and not dyn-snippet.c. */

/* Parameters ------------------------------------------------------------------ */

#define OP(o) (1u << (o))
#define READS (OP (DYN_OP_QUERY) | OP (DYN_OP_SCAN))
#define WRITES (OP (DYN_OP_PUT_ITEM) | OP (DYN_OP_UPDATE_ITEM) | OP (DYN_OP_DELETE_ITEM))

static void
param_clear (gpointer data)
{
  DynSnippetParam *p = data;

  g_clear_pointer (&p->keys, g_ptr_array_unref);
}

int
_dyn_snippet_compare_strings (gconstpointer a,
                              gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static void
add_string (GArray              *params,
            guint                ops,
            DynOperation         op,
            const char          *name,
            DynSnippetParamKind  kind,
            const char          *value)
{
  DynSnippetParam p = { name, kind, value, 0, FALSE, NULL, NULL, NULL };

  if (value != NULL && (ops & OP (op)) != 0)
    g_array_append_val (params, p);
}

static void
add_item (GArray         *params,
          const char     *name,
          const DynValue *item)
{
  DynSnippetParam p = { name, DYN_SNIPPET_PARAM_ITEM, NULL, 0, FALSE, item, NULL, NULL };

  if (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M)
    g_array_append_val (params, p);
}

static void
add_int (GArray     *params,
         const char *name,
         gint64      number)
{
  DynSnippetParam p = { name, DYN_SNIPPET_PARAM_INT, NULL, number, FALSE, NULL, NULL, NULL };

  g_array_append_val (params, p);
}

static void
add_bool (GArray     *params,
          const char *name,
          gboolean    value)
{
  DynSnippetParam p = { name, DYN_SNIPPET_PARAM_BOOL, NULL, 0, value, NULL, NULL, NULL };

  g_array_append_val (params, p);
}

static void
add_map (GArray              *params,
         const char          *name,
         DynSnippetParamKind  kind,
         GHashTable          *map)
{
  DynSnippetParam p = { name, kind, NULL, 0, FALSE, NULL, map, NULL };

  if (map == NULL || g_hash_table_size (map) == 0)
    return;
  p.keys = _dyn_request_sorted_keys (map);
  g_array_append_val (params, p);
}

GArray *
_dyn_snippet_collect_params (const DynRequest *req)
{
  GArray *params = g_array_new (FALSE, TRUE, sizeof (DynSnippetParam));
  DynOperation op = req->op;
  guint bit = OP (op);

  g_array_set_clear_func (params, param_clear);

  add_string (params, ~0u, op, "TableName", DYN_SNIPPET_PARAM_STRING, req->table);
  add_string (params, READS, op, "IndexName", DYN_SNIPPET_PARAM_STRING, req->index);
  if (bit & (OP (DYN_OP_GET_ITEM) | OP (DYN_OP_UPDATE_ITEM) | OP (DYN_OP_DELETE_ITEM)))
    add_item (params, "Key", req->key);
  if (op == DYN_OP_PUT_ITEM)
    add_item (params, "Item", req->item);
  add_string (params, OP (DYN_OP_QUERY), op, "KeyConditionExpression", DYN_SNIPPET_PARAM_STRING, req->key_condition);
  add_string (params, OP (DYN_OP_UPDATE_ITEM), op, "UpdateExpression", DYN_SNIPPET_PARAM_STRING, req->update);
  add_string (params, WRITES, op, "ConditionExpression", DYN_SNIPPET_PARAM_STRING, req->condition);
  add_string (params, READS, op, "FilterExpression", DYN_SNIPPET_PARAM_STRING, req->filter);
  add_string (params, READS | OP (DYN_OP_GET_ITEM), op, "ProjectionExpression", DYN_SNIPPET_PARAM_STRING, req->projection);
  add_map (params, "ExpressionAttributeNames", DYN_SNIPPET_PARAM_NAMES, req->names);
  if (op != DYN_OP_GET_ITEM)
    add_map (params, "ExpressionAttributeValues", DYN_SNIPPET_PARAM_VALUES, req->values);
  add_string (params, READS, op, "Select", DYN_SNIPPET_PARAM_ENUM, req->select);
  if ((bit & READS) && req->limit > 0)
    add_int (params, "Limit", req->limit);
  if ((bit & (READS | OP (DYN_OP_GET_ITEM))) && req->consistent_read)
    add_bool (params, "ConsistentRead", TRUE);
  if (op == DYN_OP_QUERY && !req->scan_forward)
    add_bool (params, "ScanIndexForward", FALSE);
  if (op == DYN_OP_SCAN && req->total_segments > 0)
    {
      add_int (params, "Segment", req->segment);
      add_int (params, "TotalSegments", req->total_segments);
    }
  if (bit & READS)
    add_item (params, "ExclusiveStartKey", req->exclusive_start_key);
  add_string (params, WRITES, op, "ReturnValues", DYN_SNIPPET_PARAM_ENUM, req->return_values);
  add_string (params, WRITES, op, "ReturnValuesOnConditionCheckFailure", DYN_SNIPPET_PARAM_ENUM,
              req->return_values_on_condition_check_failure);
  return params;
}

DynSnippetAction
_dyn_snippet_request_action (const DynRequest *req)
{
  switch (req->op)
    {
    case DYN_OP_QUERY:
    case DYN_OP_SCAN:
      return g_strcmp0 (req->select, "COUNT") == 0
             ? DYN_SNIPPET_ACTION_COUNT : DYN_SNIPPET_ACTION_ITEMS;
    case DYN_OP_GET_ITEM:
      return DYN_SNIPPET_ACTION_ITEM;
    case DYN_OP_PUT_ITEM:
    case DYN_OP_UPDATE_ITEM:
    case DYN_OP_DELETE_ITEM:
    default:
      return req->return_values != NULL && strcmp (req->return_values, "NONE") != 0
             ? DYN_SNIPPET_ACTION_ATTRIBUTES : DYN_SNIPPET_ACTION_NONE;
    }
}

gboolean
_dyn_snippet_action_prints_items (DynSnippetAction action)
{
  return action == DYN_SNIPPET_ACTION_ITEMS || action == DYN_SNIPPET_ACTION_ITEM
         || action == DYN_SNIPPET_ACTION_ATTRIBUTES;
}

gboolean
_dyn_snippet_has_limit (GArray *params)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, DynSnippetParam, i).name, "Limit") == 0)
      return TRUE;
  return FALSE;
}

/* Whether @v holds a binary value at any depth. */
gboolean
_dyn_snippet_value_has_binary (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_B:
    case DYN_VALUE_BS:
      return TRUE;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (_dyn_snippet_value_has_binary (dyn_value_map_get_value (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (_dyn_snippet_value_has_binary (dyn_value_list_get (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_S:
    case DYN_VALUE_N:
    case DYN_VALUE_BOOL:
    case DYN_VALUE_NULL:
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    default:
      return FALSE;
    }
}

gboolean
_dyn_snippet_params_have_type (GArray      *params,
                               gboolean   (*check) (const DynValue *))
{
  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);

      if (p->kind == DYN_SNIPPET_PARAM_ITEM && check (p->item))
        return TRUE;
      if (p->kind == DYN_SNIPPET_PARAM_VALUES)
        for (guint k = 0; k < p->keys->len; k++)
          if (check (g_hash_table_lookup (p->map, p->keys->pdata[k])))
            return TRUE;
    }
  return FALSE;
}

gboolean
_dyn_snippet_params_have_values (GArray *params)
{
  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParamKind kind = g_array_index (params, DynSnippetParam, i).kind;

      if (kind == DYN_SNIPPET_PARAM_ITEM || kind == DYN_SNIPPET_PARAM_VALUES)
        return TRUE;
    }
  return FALSE;
}

gboolean
_dyn_snippet_bytes_are_text (GBytes *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  for (gsize i = 0; i < len; i++)
    if (data[i] < 0x20 || data[i] > 0x7e)
      return FALSE;
  return TRUE;
}

void
_dyn_snippet_append_base64 (GString *out,
                            GBytes  *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, b64);
}

void
_dyn_snippet_append_indent (GString *out,
                            guint    n,
                            char     c)
{
  for (guint i = 0; i < n; i++)
    g_string_append_c (out, c);
}

/* "ReturnValues" → "return-values"; lower_first: "returnValues". */
char *
_dyn_snippet_kebab_case (const char *camel)
{
  GString *s = g_string_new (NULL);

  for (const char *c = camel; *c != '\0'; c++)
    {
      if (g_ascii_isupper (*c) && c != camel)
        g_string_append_c (s, '-');
      g_string_append_c (s, g_ascii_tolower (*c));
    }
  return g_string_free (s, FALSE);
}

char *
_dyn_snippet_lower_camel_case (const char *camel)
{
  char *s = g_strdup (camel);

  s[0] = g_ascii_tolower (s[0]);
  return s;
}

/* "ALL_NEW" → "AllNew". */
char *
_dyn_snippet_pascal_case (const char *upper_snake)
{
  GString *s = g_string_new (NULL);
  gboolean start = TRUE;

  for (const char *c = upper_snake; *c != '\0'; c++)
    {
      if (*c == '_')
        {
          start = TRUE;
          continue;
        }
      g_string_append_c (s, start ? g_ascii_toupper (*c) : g_ascii_tolower (*c));
      start = FALSE;
    }
  return g_string_free (s, FALSE);
}

gboolean
_dyn_snippet_is_known_enum (const char *param,
                            const char *value)
{
  static const char * const return_values[] = { "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW", NULL };
  static const char * const selects[] = { "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES", "SPECIFIC_ATTRIBUTES", "COUNT", NULL };
  static const char * const on_failure[] = { "NONE", "ALL_OLD", NULL };

  if (strcmp (param, "ReturnValues") == 0)
    return g_strv_contains (return_values, value);
  if (strcmp (param, "Select") == 0)
    return g_strv_contains (selects, value);
  if (strcmp (param, "ReturnValuesOnConditionCheckFailure") == 0)
    return g_strv_contains (on_failure, value);
  return FALSE;
}

/* The Go and Java type of an enum parameter. */
const char *
_dyn_snippet_enum_type (const char *param)
{
  return strcmp (param, "ReturnValues") == 0 ? "ReturnValue" : param;
}

void
_dyn_snippet_append_quoted (GString                *out,
                            const char             *str,
                            gsize                   len,
                            DynSnippetLiteralStyle  style)
{
  const char *p = str;
  const char *end = str + len;

  g_string_append_c (out, '"');
  while (p < end)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);
      const char *next;

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          /* Not UTF-8: DynamoDB strings always are; write the byte. */
          if (style == DYN_SNIPPET_LIT_JAVA)
            g_string_append_printf (out, "\\%03o", (guchar) *p);
          else
            g_string_append_printf (out, "\\x%02x", (guchar) *p);
          p++;
          continue;
        }
      next = g_utf8_next_char (p);
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029)
            {
              if (style == DYN_SNIPPET_LIT_JAVA)
                {
                  /* Java turns \uXXXX into source text before it lexes, so a
                   * control character must be an octal escape. */
                  if (c < 0x100)
                    g_string_append_printf (out, "\\%03o", c);
                  else
                    g_string_append_printf (out, "\\u%04x", c);
                }
              else if (style == DYN_SNIPPET_LIT_GO)
                {
                  if (c < 0x80)
                    g_string_append_printf (out, "\\x%02x", c);
                  else
                    g_string_append_printf (out, "\\u%04x", c);
                }
              else
                {
                  if (c < 0x100)
                    g_string_append_printf (out, "\\x%02x", c);
                  else
                    g_string_append_printf (out, "\\u%04x", c);
                }
            }
          else if (style == DYN_SNIPPET_LIT_JAVA && c >= 0x80)
            {
              /* Java 17 reads sources in the platform encoding: keep them ASCII. */
              if (c >= 0x10000)
                {
                  gunichar v = c - 0x10000;
                  g_string_append_printf (out, "\\u%04x\\u%04x",
                                          0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
                }
              else
                g_string_append_printf (out, "\\u%04x", c);
            }
          else
            g_string_append_len (out, p, next - p);
        }
      p = next;
    }
  g_string_append_c (out, '"');
}

void
_dyn_snippet_append_literal (GString                *out,
                             const char             *str,
                             DynSnippetLiteralStyle  style)
{
  _dyn_snippet_append_quoted (out, str, strlen (str), style);
}

void
_dyn_snippet_append_json_string (GString    *out,
                                 const char *str)
{
  dyn_json_append_string (out, str, strlen (str));
}

void
_dyn_snippet_append_s_value (GString                *out,
                             const DynValue         *v,
                             DynSnippetLiteralStyle  style)
{
  _dyn_snippet_append_quoted (out, dyn_value_get_string (v), dyn_value_get_string_length (v),
                              style);
}
