/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-python"

#include "config.h"

#include "dyn-snippet-private.h"

/* Python (boto3) ----------------------------------------------------------------- */

static void
py_bytes (GString *out,
          GBytes  *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  if (len > 48 && !_dyn_snippet_bytes_are_text (bytes))
    {
      g_string_append (out, "base64.b64decode(\"");
      _dyn_snippet_append_base64 (out, bytes);
      g_string_append (out, "\")");
      return;
    }
  g_string_append (out, "b\"");
  for (gsize i = 0; i < len; i++)
    {
      guchar c = data[i];

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20 || c > 0x7e)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

gboolean
_dyn_snippet_py_needs_base64 (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_B:
      {
        GBytes *b = dyn_value_get_binary (v);
        return g_bytes_get_size (b) > 48 && !_dyn_snippet_bytes_are_text (b);
      }
    case DYN_VALUE_BS:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        {
          GBytes *b = dyn_value_set_get_binary (v, i);
          if (g_bytes_get_size (b) > 48 && !_dyn_snippet_bytes_are_text (b))
            return TRUE;
        }
      return FALSE;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (_dyn_snippet_py_needs_base64 (dyn_value_map_get_value (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (_dyn_snippet_py_needs_base64 (dyn_value_list_get (v, i)))
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

void
_dyn_snippet_py_value (GString        *out,
          const DynValue *v)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append_printf (out, "{\"%s\": ", dyn_value_type_to_string (type));
  switch (type)
    {
    case DYN_VALUE_S:
      _dyn_snippet_append_s_value (out, v, DYN_SNIPPET_LIT_PYTHON);
      break;
    case DYN_VALUE_N:
      _dyn_snippet_append_literal (out, dyn_value_get_number (v), DYN_SNIPPET_LIT_PYTHON);
      break;
    case DYN_VALUE_B:
      py_bytes (out, dyn_value_get_binary (v));
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (v) ? "True" : "False");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "True");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (v);
      g_string_append_c (out, '{');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_append_literal (out, dyn_value_map_get_name (v, i), DYN_SNIPPET_LIT_PYTHON);
          g_string_append (out, ": ");
          _dyn_snippet_py_value (out, dyn_value_map_get_value (v, i));
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (v);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_py_value (out, dyn_value_list_get (v, i));
        }
      g_string_append_c (out, ']');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (v);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (type == DYN_VALUE_BS)
            py_bytes (out, dyn_value_set_get_binary (v, i));
          else
            _dyn_snippet_append_literal (out, dyn_value_set_get_string (v, i),
                                         DYN_SNIPPET_LIT_PYTHON);
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append_c (out, '}');
}

static gboolean
py_params_need_base64 (GArray *params)
{
  return _dyn_snippet_params_have_type (params, _dyn_snippet_py_needs_base64);
}

void
_dyn_snippet_generate_boto3 (GString          *out,
                             const DynRequest *req,
                             GArray           *params,
                             const char       *endpoint,
                             const char       *region)
{
  static const char * const methods[] = {
    [DYN_OP_GET_ITEM] = "get_item",
    [DYN_OP_PUT_ITEM] = "put_item",
    [DYN_OP_UPDATE_ITEM] = "update_item",
    [DYN_OP_DELETE_ITEM] = "delete_item",
    [DYN_OP_QUERY] = "query",
    [DYN_OP_SCAN] = "scan",
  };
  const char *method = methods[req->op];
  DynSnippetAction action = _dyn_snippet_request_action (req);
  gboolean prints = _dyn_snippet_action_prints_items (action);

  if (prints || py_params_need_base64 (params))
    g_string_append (out, "import base64\n");
  if (prints)
    g_string_append (out, "import json\n");
  if (prints || py_params_need_base64 (params))
    g_string_append_c (out, '\n');
  g_string_append (out, "import boto3\n\n");

  g_string_append (out, "client = boto3.client(\"dynamodb\"");
  if (endpoint != NULL)
    {
      g_string_append (out, ", endpoint_url=");
      _dyn_snippet_append_literal (out, endpoint, DYN_SNIPPET_LIT_PYTHON);
    }
  if (region != NULL)
    {
      g_string_append (out, ", region_name=");
      _dyn_snippet_append_literal (out, region, DYN_SNIPPET_LIT_PYTHON);
    }
  g_string_append (out, ")\n");

  if (prints)
    g_string_append (out,
                     "\n\n"
                     "def dump(item):\n"
                     "    # Binary values (B, BS) arrive as bytes: write them as base64, as on the wire.\n"
                     "    return json.dumps(item, default=lambda b: base64.b64encode(b).decode(\"ascii\"))\n"
                     "\n");

  g_string_append (out, "\nparams = {\n");
  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);

      g_string_append (out, "    ");
      _dyn_snippet_append_literal (out, p->name, DYN_SNIPPET_LIT_PYTHON);
      g_string_append (out, ": ");
      switch (p->kind)
        {
        case DYN_SNIPPET_PARAM_STRING:
        case DYN_SNIPPET_PARAM_ENUM:
          _dyn_snippet_append_literal (out, p->string, DYN_SNIPPET_LIT_PYTHON);
          break;
        case DYN_SNIPPET_PARAM_BOOL:
          g_string_append (out, p->boolean ? "True" : "False");
          break;
        case DYN_SNIPPET_PARAM_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, p->number);
          break;
        case DYN_SNIPPET_PARAM_ITEM:
          g_string_append (out, "{\n");
          for (guint k = 0; k < dyn_value_get_length (p->item); k++)
            {
              g_string_append (out, "        ");
              _dyn_snippet_append_literal (out, dyn_value_map_get_name (p->item, k),
                                           DYN_SNIPPET_LIT_PYTHON);
              g_string_append (out, ": ");
              _dyn_snippet_py_value (out, dyn_value_map_get_value (p->item, k));
              g_string_append (out, ",\n");
            }
          g_string_append (out, "    }");
          break;
        case DYN_SNIPPET_PARAM_NAMES:
        case DYN_SNIPPET_PARAM_VALUES:
          g_string_append (out, "{\n");
          for (guint k = 0; k < p->keys->len; k++)
            {
              gpointer value = g_hash_table_lookup (p->map, p->keys->pdata[k]);

              g_string_append (out, "        ");
              _dyn_snippet_append_literal (out, p->keys->pdata[k], DYN_SNIPPET_LIT_PYTHON);
              g_string_append (out, ": ");
              if (p->kind == DYN_SNIPPET_PARAM_NAMES)
                _dyn_snippet_append_literal (out, value, DYN_SNIPPET_LIT_PYTHON);
              else
                _dyn_snippet_py_value (out, value);
              g_string_append (out, ",\n");
            }
          g_string_append (out, "    }");
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, ",\n");
    }
  g_string_append (out, "}\n");

  switch (action)
    {
    case DYN_SNIPPET_ACTION_ITEMS:
    case DYN_SNIPPET_ACTION_COUNT:
      if (_dyn_snippet_has_limit (params))
        g_string_append (out, "# Limit is the page size: the loop reads every page.\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "count = 0\n");
      g_string_append_printf (out,
                              "while True:\n"
                              "    response = client.%s(**params)\n", method);
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "    count += response[\"Count\"]\n");
      else
        g_string_append (out,
                         "    for item in response[\"Items\"]:\n"
                         "        print(dump(item))\n");
      g_string_append (out,
                       "    if \"LastEvaluatedKey\" not in response:\n"
                       "        break\n"
                       "    params[\"ExclusiveStartKey\"] = response[\"LastEvaluatedKey\"]\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "print(count)\n");
      break;
    case DYN_SNIPPET_ACTION_ITEM:
    case DYN_SNIPPET_ACTION_ATTRIBUTES:
      {
        const char *member = action == DYN_SNIPPET_ACTION_ITEM ? "Item" : "Attributes";

        g_string_append_printf (out,
                                "response = client.%s(**params)\n"
                                "if \"%s\" in response:\n"
                                "    print(dump(response[\"%s\"]))\n",
                                method, member, member);
      }
      break;
    case DYN_SNIPPET_ACTION_NONE:
    default:
      g_string_append_printf (out, "client.%s(**params)\n", method);
      break;
    }
}
