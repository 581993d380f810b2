/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-java"

#include "config.h"

#include <string.h>

#include "dyn-snippet-private.h"

/* Java (SDK v2) ------------------------------------------------------------------ */

void
_dyn_snippet_java_string (GString    *out,
             const char *str,
             gsize       len)
{
  _dyn_snippet_append_quoted (out, str, len, DYN_SNIPPET_LIT_JAVA);
}

static void
java_bytes (GString  *out,
            GBytes   *bytes,
            DynSnippetJavaUses *uses)
{
  uses->sdk_bytes = TRUE;
  if (_dyn_snippet_bytes_are_text (bytes))
    {
      g_string_append (out, "SdkBytes.fromUtf8String(");
      _dyn_snippet_java_string (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      g_string_append_c (out, ')');
    }
  else
    {
      uses->base64 = TRUE;
      g_string_append (out, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"");
      _dyn_snippet_append_base64 (out, bytes);
      g_string_append (out, "\"))");
    }
}

/* Map.of takes at most ten pairs; Map.ofEntries any number. */
static void
java_map_open (GString  *out,
               guint     n,
               DynSnippetJavaUses *uses)
{
  uses->map = TRUE;
  g_string_append (out, n > 10 ? "Map.ofEntries(" : "Map.of(");
}

static void
java_map_pair_open (GString *out,
                    guint    n)
{
  if (n > 10)
    g_string_append (out, "Map.entry(");
}

static void
java_map_pair_close (GString *out,
                     guint    n)
{
  if (n > 10)
    g_string_append_c (out, ')');
}

void
_dyn_snippet_java_value (GString        *out,
            const DynValue *v,
            DynSnippetJavaUses       *uses)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append (out, "AttributeValue.builder().");
  switch (type)
    {
    case DYN_VALUE_S:
      g_string_append (out, "s(");
      _dyn_snippet_java_string (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
      break;
    case DYN_VALUE_N:
      g_string_append (out, "n(");
      _dyn_snippet_java_string (out, dyn_value_get_number (v), strlen (dyn_value_get_number (v)));
      break;
    case DYN_VALUE_B:
      g_string_append (out, "b(");
      java_bytes (out, dyn_value_get_binary (v), uses);
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (v) ? "bool(true" : "bool(false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "nul(true");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (v);
      g_string_append (out, "m(");
      java_map_open (out, n, uses);
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyn_value_map_get_name (v, i);

          if (i > 0)
            g_string_append (out, ", ");
          java_map_pair_open (out, n);
          _dyn_snippet_java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          _dyn_snippet_java_value (out, dyn_value_map_get_value (v, i), uses);
          java_map_pair_close (out, n);
        }
      g_string_append_c (out, ')');
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (v);
      uses->list = TRUE;
      g_string_append (out, "l(List.of(");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_java_value (out, dyn_value_list_get (v, i), uses);
        }
      g_string_append_c (out, ')');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (v);
      g_string_append (out, type == DYN_VALUE_SS ? "ss(" : type == DYN_VALUE_NS ? "ns(" : "bs(");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (type == DYN_VALUE_BS)
            java_bytes (out, dyn_value_set_get_binary (v, i), uses);
          else
            {
              const char *s = dyn_value_set_get_string (v, i);
              _dyn_snippet_java_string (out, s, strlen (s));
            }
        }
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append (out, ").build()");
}

static void
java_chain_map (GString               *out,
                const DynSnippetParam *p,
                DynSnippetJavaUses              *uses)
{
  guint n = p->kind == DYN_SNIPPET_PARAM_ITEM ? dyn_value_get_length (p->item) : p->keys->len;

  java_map_open (out, n, uses);
  for (guint k = 0; k < n; k++)
    {
      const char *name;

      g_string_append (out, "\n                            ");
      java_map_pair_open (out, n);
      if (p->kind == DYN_SNIPPET_PARAM_ITEM)
        {
          name = dyn_value_map_get_name (p->item, k);
          _dyn_snippet_java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          _dyn_snippet_java_value (out, dyn_value_map_get_value (p->item, k), uses);
        }
      else
        {
          gpointer v;

          name = p->keys->pdata[k];
          v = g_hash_table_lookup (p->map, name);
          _dyn_snippet_java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          if (p->kind == DYN_SNIPPET_PARAM_NAMES)
            _dyn_snippet_java_string (out, v, strlen (v));
          else
            _dyn_snippet_java_value (out, v, uses);
        }
      java_map_pair_close (out, n);
      if (k + 1 < n)
        g_string_append_c (out, ',');
    }
  g_string_append_c (out, ')');
}

void
_dyn_snippet_generate_java (GString          *out,
                            const DynRequest *req,
                            GArray           *params,
                            const char       *endpoint,
                            const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autofree char *method = _dyn_snippet_lower_camel_case (op_name);
  g_autoptr(GString) chain = g_string_new (NULL);
  g_autoptr(GPtrArray) model = g_ptr_array_new_with_free_func (g_free);
  DynSnippetJavaUses uses = { FALSE, };
  DynSnippetAction action = _dyn_snippet_request_action (req);
  gboolean paged = action == DYN_SNIPPET_ACTION_ITEMS || action == DYN_SNIPPET_ACTION_COUNT;

  g_ptr_array_add (model, g_strdup_printf ("%sRequest", op_name));
  if (action != DYN_SNIPPET_ACTION_ITEMS && action != DYN_SNIPPET_ACTION_NONE)
    g_ptr_array_add (model, g_strdup_printf ("%sResponse", op_name));
  if (action == DYN_SNIPPET_ACTION_ITEMS || _dyn_snippet_params_have_values (params))
    g_ptr_array_add (model, g_strdup ("AttributeValue"));
  if (action == DYN_SNIPPET_ACTION_ITEMS)
    uses.map = TRUE;

  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);
      g_autofree char *setter = _dyn_snippet_lower_camel_case (p->name);

      g_string_append_printf (chain, "                    .%s(", setter);
      switch (p->kind)
        {
        case DYN_SNIPPET_PARAM_STRING:
          _dyn_snippet_java_string (chain, p->string, strlen (p->string));
          break;
        case DYN_SNIPPET_PARAM_ENUM:
          if (_dyn_snippet_is_known_enum (p->name, p->string))
            {
              const char *type = _dyn_snippet_enum_type (p->name);

              g_string_append_printf (chain, "%s.%s", type, p->string);
              if (!g_ptr_array_find_with_equal_func (model, type, g_str_equal, NULL))
                g_ptr_array_add (model, g_strdup (type));
            }
          else
            _dyn_snippet_java_string (chain, p->string, strlen (p->string));
          break;
        case DYN_SNIPPET_PARAM_BOOL:
          g_string_append (chain, p->boolean ? "true" : "false");
          break;
        case DYN_SNIPPET_PARAM_INT:
          g_string_append_printf (chain, "%" G_GINT64_FORMAT, p->number);
          break;
        case DYN_SNIPPET_PARAM_ITEM:
        case DYN_SNIPPET_PARAM_NAMES:
        case DYN_SNIPPET_PARAM_VALUES:
          java_chain_map (chain, p, &uses);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (chain, ")\n");
    }
  g_ptr_array_sort (model, _dyn_snippet_compare_strings);

  if (endpoint != NULL)
    g_string_append (out, "import java.net.URI;\n");
  if (uses.base64)
    g_string_append (out, "import java.util.Base64;\n");
  if (uses.list)
    g_string_append (out, "import java.util.List;\n");
  if (uses.map)
    g_string_append (out, "import java.util.Map;\n");
  if (endpoint != NULL || uses.base64 || uses.list || uses.map)
    g_string_append_c (out, '\n');
  if (uses.sdk_bytes)
    g_string_append (out, "import software.amazon.awssdk.core.SdkBytes;\n");
  if (region != NULL)
    g_string_append (out, "import software.amazon.awssdk.regions.Region;\n");
  g_string_append (out, "import software.amazon.awssdk.services.dynamodb.DynamoDbClient;\n");
  for (guint i = 0; i < model->len; i++)
    g_string_append_printf (out, "import software.amazon.awssdk.services.dynamodb.model.%s;\n",
                            (const char *) model->pdata[i]);

  g_string_append (out,
                   "\npublic class DynamoDbSnippet {\n"
                   "    public static void main(String[] args) {\n");
  if (endpoint == NULL && region == NULL)
    g_string_append (out, "        try (DynamoDbClient client = DynamoDbClient.create()) {\n");
  else
    {
      g_string_append (out, "        try (DynamoDbClient client = DynamoDbClient.builder()\n");
      if (endpoint != NULL)
        {
          g_string_append (out, "                .endpointOverride(URI.create(");
          _dyn_snippet_java_string (out, endpoint, strlen (endpoint));
          g_string_append (out, "))\n");
        }
      if (region != NULL)
        {
          g_string_append (out, "                .region(Region.of(");
          _dyn_snippet_java_string (out, region, strlen (region));
          g_string_append (out, "))\n");
        }
      g_string_append (out, "                .build()) {\n");
    }

  g_string_append_printf (out, "            %sRequest request = %sRequest.builder()\n", op_name, op_name);
  g_string_append (out, chain->str);
  g_string_append (out, "                    .build();\n");

  if (paged)
    {
      if (_dyn_snippet_has_limit (params))
        g_string_append (out, "            // Limit is the page size: the paginator reads every page.\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append_printf (out,
                                "            int count = 0;\n"
                                "            for (%sResponse page : client.%sPaginator(request)) {\n"
                                "                count += page.count();\n"
                                "            }\n"
                                "            System.out.println(count);\n",
                                op_name, method);
      else
        g_string_append_printf (out,
                                "            for (Map<String, AttributeValue> item : client.%sPaginator(request).items()) {\n"
                                "                System.out.println(item);\n"
                                "            }\n",
                                method);
    }
  else if (action == DYN_SNIPPET_ACTION_NONE)
    g_string_append_printf (out, "            client.%s(request);\n", method);
  else
    {
      const char *member = action == DYN_SNIPPET_ACTION_ITEM ? "item" : "attributes";
      const char *has = action == DYN_SNIPPET_ACTION_ITEM ? "hasItem" : "hasAttributes";

      g_string_append_printf (out,
                              "            %sResponse response = client.%s(request);\n"
                              "            if (response.%s()) {\n"
                              "                System.out.println(response.%s());\n"
                              "            }\n",
                              op_name, method, has, member);
    }
  g_string_append (out,
                   "        }\n"
                   "    }\n"
                   "}\n");
}
