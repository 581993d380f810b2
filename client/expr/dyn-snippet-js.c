/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-js"

#include "config.h"

#include "dyn-json.h"
#include "dyn-snippet-private.h"

/* JavaScript (SDK v3) ------------------------------------------------------------ */

static gboolean
js_identifier (const char *s)
{
  if (!(g_ascii_isalpha (*s) || *s == '_' || *s == '$'))
    return FALSE;
  for (const char *c = s; *c != '\0'; c++)
    if (!(g_ascii_isalnum (*c) || *c == '_' || *c == '$'))
      return FALSE;
  return TRUE;
}

static void
js_key (GString    *out,
        const char *name)
{
  if (js_identifier (name))
    g_string_append (out, name);
  else
    _dyn_snippet_append_json_string (out, name);
}

static void
js_bytes (GString *out,
          GBytes  *bytes)
{
  g_string_append (out, "Buffer.from(");
  if (_dyn_snippet_bytes_are_text (bytes))
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      _dyn_snippet_append_json_string (out, text);
    }
  else
    {
      g_string_append_c (out, '"');
      _dyn_snippet_append_base64 (out, bytes);
      g_string_append (out, "\", \"base64\"");
    }
  g_string_append_c (out, ')');
}

void
_dyn_snippet_js_value (GString        *out,
          const DynValue *v)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append_printf (out, "{ %s: ", dyn_value_type_to_string (type));
  switch (type)
    {
    case DYN_VALUE_S:
      dyn_json_append_string (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
      break;
    case DYN_VALUE_N:
      _dyn_snippet_append_json_string (out, dyn_value_get_number (v));
      break;
    case DYN_VALUE_B:
      js_bytes (out, dyn_value_get_binary (v));
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (v) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "true");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (v);
      if (n == 0)
        {
          g_string_append (out, "{}");
          break;
        }
      g_string_append (out, "{ ");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          js_key (out, dyn_value_map_get_name (v, i));
          g_string_append (out, ": ");
          _dyn_snippet_js_value (out, dyn_value_map_get_value (v, i));
        }
      g_string_append (out, " }");
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (v);
      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_js_value (out, dyn_value_list_get (v, i));
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
            js_bytes (out, dyn_value_set_get_binary (v, i));
          else
            _dyn_snippet_append_json_string (out, dyn_value_set_get_string (v, i));
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append (out, " }");
}

void
_dyn_snippet_generate_js (GString          *out,
                          const DynRequest *req,
                          GArray           *params,
                          const char       *endpoint,
                          const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autofree char *command = g_strconcat (op_name, "Command", NULL);
  DynSnippetAction action = _dyn_snippet_request_action (req);

  g_string_append_printf (out,
                          "import { DynamoDBClient, %s } from \"@aws-sdk/client-dynamodb\";\n\n",
                          command);

  if (endpoint == NULL && region == NULL)
    g_string_append (out, "const client = new DynamoDBClient({});\n");
  else
    {
      g_string_append (out, "const client = new DynamoDBClient({\n");
      if (endpoint != NULL)
        {
          g_string_append (out, "  endpoint: ");
          _dyn_snippet_append_json_string (out, endpoint);
          g_string_append (out, ",\n");
        }
      if (region != NULL)
        {
          g_string_append (out, "  region: ");
          _dyn_snippet_append_json_string (out, region);
          g_string_append (out, ",\n");
        }
      g_string_append (out, "});\n");
    }

  if (_dyn_snippet_action_prints_items (action))
    g_string_append (out,
                     "\n"
                     "// Binary values (B, BS) arrive as Uint8Array: write them as base64, as on the wire.\n"
                     "function toJson(item) {\n"
                     "  return JSON.stringify(item, function (key, value) {\n"
                     "    const raw = this[key];\n"
                     "    return raw instanceof Uint8Array ? Buffer.from(raw).toString(\"base64\") : value;\n"
                     "  });\n"
                     "}\n");

  g_string_append (out, "\nconst input = {\n");
  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);

      g_string_append_printf (out, "  %s: ", p->name);
      switch (p->kind)
        {
        case DYN_SNIPPET_PARAM_STRING:
        case DYN_SNIPPET_PARAM_ENUM:
          _dyn_snippet_append_json_string (out, p->string);
          break;
        case DYN_SNIPPET_PARAM_BOOL:
          g_string_append (out, p->boolean ? "true" : "false");
          break;
        case DYN_SNIPPET_PARAM_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, p->number);
          break;
        case DYN_SNIPPET_PARAM_ITEM:
          g_string_append (out, "{\n");
          for (guint k = 0; k < dyn_value_get_length (p->item); k++)
            {
              g_string_append (out, "    ");
              js_key (out, dyn_value_map_get_name (p->item, k));
              g_string_append (out, ": ");
              _dyn_snippet_js_value (out, dyn_value_map_get_value (p->item, k));
              g_string_append (out, ",\n");
            }
          g_string_append (out, "  }");
          break;
        case DYN_SNIPPET_PARAM_NAMES:
        case DYN_SNIPPET_PARAM_VALUES:
          g_string_append (out, "{\n");
          for (guint k = 0; k < p->keys->len; k++)
            {
              gpointer value = g_hash_table_lookup (p->map, p->keys->pdata[k]);

              g_string_append (out, "    ");
              js_key (out, p->keys->pdata[k]);
              g_string_append (out, ": ");
              if (p->kind == DYN_SNIPPET_PARAM_NAMES)
                _dyn_snippet_append_json_string (out, value);
              else
                _dyn_snippet_js_value (out, value);
              g_string_append (out, ",\n");
            }
          g_string_append (out, "  }");
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (out, ",\n");
    }
  g_string_append (out, "};\n");

  switch (action)
    {
    case DYN_SNIPPET_ACTION_ITEMS:
    case DYN_SNIPPET_ACTION_COUNT:
      if (_dyn_snippet_has_limit (params))
        g_string_append (out, "// Limit is the page size: the loop reads every page.\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "let count = 0;\n");
      g_string_append_printf (out,
                              "do {\n"
                              "  const response = await client.send(new %s(input));\n", command);
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "  count += response.Count ?? 0;\n");
      else
        g_string_append (out,
                         "  for (const item of response.Items ?? []) {\n"
                         "    console.log(toJson(item));\n"
                         "  }\n");
      g_string_append (out,
                       "  input.ExclusiveStartKey = response.LastEvaluatedKey;\n"
                       "} while (input.ExclusiveStartKey);\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "console.log(count);\n");
      break;
    case DYN_SNIPPET_ACTION_ITEM:
    case DYN_SNIPPET_ACTION_ATTRIBUTES:
      {
        const char *member = action == DYN_SNIPPET_ACTION_ITEM ? "Item" : "Attributes";

        g_string_append_printf (out,
                                "const response = await client.send(new %s(input));\n"
                                "if (response.%s) {\n"
                                "  console.log(toJson(response.%s));\n"
                                "}\n",
                                command, member, member);
      }
      break;
    case DYN_SNIPPET_ACTION_NONE:
    default:
      g_string_append_printf (out, "await client.send(new %s(input));\n", command);
      break;
    }
}
