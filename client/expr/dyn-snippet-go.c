/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-go"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dyn-snippet-private.h"

/* Go (SDK v2) -------------------------------------------------------------------- */

/* One element of a composite literal written one per line. gofmt aligns the
 * values of consecutive one-line key: value elements, so we do the same. */
typedef struct {
  char *key;
  char *value;      /* may span lines (then it is never aligned) */
} GoEntry;

static void
go_entry_clear (gpointer data)
{
  GoEntry *e = data;

  g_free (e->key);
  g_free (e->value);
}

GArray *
_dyn_snippet_go_entries_new (void)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (GoEntry));

  g_array_set_clear_func (entries, go_entry_clear);
  return entries;
}

void
_dyn_snippet_go_entries_add (GArray *entries,
                char   *key,
                char   *value)
{
  GoEntry e = { key, value };

  g_array_append_val (entries, e);
}

/* The rules of go/printer's exprList: a new alignment section starts at a
 * multi-line element, or when key sizes above 40 differ too much from the
 * section's geometric mean. */
void
_dyn_snippet_go_append_entries (GString *out,
                   GArray  *entries,
                   guint    indent)
{
  g_autofree guint *section = g_new0 (guint, entries->len + 1);
  guint n_sections = 0;
  gsize size = 0;
  double lnsum = 0;
  guint count = 0;

  for (guint i = 0; i < entries->len; i++)
    {
      GoEntry *e = &g_array_index (entries, GoEntry, i);
      gsize prev_size = size;
      gboolean new_section = TRUE;

      size = strchr (e->value, '\n') != NULL ? 0 : strlen (e->key);
      if (prev_size > 0 && size > 0)
        {
          if (count == 0 || (prev_size <= 40 && size <= 40))
            new_section = FALSE;
          else
            {
              double geomean = exp (lnsum / count);
              double ratio = size / geomean;

              new_section = 2.5 * ratio <= 1 || 2.5 <= ratio;
            }
        }
      if (i == 0 || new_section)
        {
          lnsum = 0;
          count = 0;
          n_sections += i > 0;
        }
      section[i] = n_sections;
      if (size > 0)
        {
          lnsum += log ((double) size);
          count++;
        }
    }

  for (guint i = 0; i < entries->len; i++)
    {
      GoEntry *e = &g_array_index (entries, GoEntry, i);
      glong width = 0;

      for (guint j = 0; j < entries->len; j++)
        {
          GoEntry *f = &g_array_index (entries, GoEntry, j);

          if (section[j] == section[i] && strchr (f->value, '\n') == NULL)
            width = MAX (width, g_utf8_strlen (f->key, -1));
        }
      _dyn_snippet_append_indent (out, indent, '\t');
      g_string_append (out, e->key);
      g_string_append_c (out, ':');
      if (strchr (e->value, '\n') == NULL)
        _dyn_snippet_append_indent (out, width - g_utf8_strlen (e->key, -1) + 1, ' ');
      else
        g_string_append_c (out, ' ');
      g_string_append (out, e->value);
      g_string_append (out, ",\n");
    }
}

void
_dyn_snippet_go_string (GString    *out,
           const char *str,
           gsize       len)
{
  _dyn_snippet_append_quoted (out, str, len, DYN_SNIPPET_LIT_GO);
}

static void
go_bytes (GString *out,
          GBytes  *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  g_string_append (out, "[]byte(\"");
  for (gsize i = 0; i < len; i++)
    {
      guchar c = data[i];

      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20 || c > 0x7e)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append (out, "\")");
}

void
_dyn_snippet_go_value (GString        *out,
          const DynValue *v)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append_printf (out, "&types.AttributeValueMember%s{Value: ", dyn_value_type_to_string (type));
  switch (type)
    {
    case DYN_VALUE_S:
      _dyn_snippet_go_string (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
      break;
    case DYN_VALUE_N:
      _dyn_snippet_go_string (out, dyn_value_get_number (v), strlen (dyn_value_get_number (v)));
      break;
    case DYN_VALUE_B:
      go_bytes (out, dyn_value_get_binary (v));
      break;
    case DYN_VALUE_BOOL:
      g_string_append (out, dyn_value_get_bool (v) ? "true" : "false");
      break;
    case DYN_VALUE_NULL:
      g_string_append (out, "true");
      break;
    case DYN_VALUE_M:
      n = dyn_value_get_length (v);
      g_string_append (out, "map[string]types.AttributeValue{");
      for (guint i = 0; i < n; i++)
        {
          const char *name = dyn_value_map_get_name (v, i);

          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_go_string (out, name, strlen (name));
          g_string_append (out, ": ");
          _dyn_snippet_go_value (out, dyn_value_map_get_value (v, i));
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_L:
      n = dyn_value_get_length (v);
      g_string_append (out, "[]types.AttributeValue{");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          _dyn_snippet_go_value (out, dyn_value_list_get (v, i));
        }
      g_string_append_c (out, '}');
      break;
    case DYN_VALUE_SS:
    case DYN_VALUE_NS:
    case DYN_VALUE_BS:
      n = dyn_value_get_length (v);
      g_string_append (out, type == DYN_VALUE_BS ? "[][]byte{" : "[]string{");
      for (guint i = 0; i < n; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          if (type == DYN_VALUE_BS)
            go_bytes (out, dyn_value_set_get_binary (v, i));
          else
            {
              const char *s = dyn_value_set_get_string (v, i);
              _dyn_snippet_go_string (out, s, strlen (s));
            }
        }
      g_string_append_c (out, '}');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append_c (out, '}');
}

/* A map literal with one element per line, at @indent tabs (its closing
 * brace one tab less). */
static char *
go_map_literal (const DynSnippetParam *p,
                guint                  indent)
{
  g_autoptr(GArray) entries = _dyn_snippet_go_entries_new ();
  GString *s = g_string_new (NULL);

  if (p->kind == DYN_SNIPPET_PARAM_ITEM)
    {
      for (guint k = 0; k < dyn_value_get_length (p->item); k++)
        {
          const char *name = dyn_value_map_get_name (p->item, k);
          GString *key = g_string_new (NULL);
          GString *value = g_string_new (NULL);

          _dyn_snippet_go_string (key, name, strlen (name));
          _dyn_snippet_go_value (value, dyn_value_map_get_value (p->item, k));
          _dyn_snippet_go_entries_add (entries, g_string_free (key, FALSE), g_string_free (value, FALSE));
        }
    }
  else
    {
      for (guint k = 0; k < p->keys->len; k++)
        {
          const char *name = p->keys->pdata[k];
          gpointer v = g_hash_table_lookup (p->map, name);
          GString *key = g_string_new (NULL);
          GString *value = g_string_new (NULL);

          _dyn_snippet_go_string (key, name, strlen (name));
          if (p->kind == DYN_SNIPPET_PARAM_NAMES)
            _dyn_snippet_go_string (value, v, strlen (v));
          else
            _dyn_snippet_go_value (value, v);
          _dyn_snippet_go_entries_add (entries, g_string_free (key, FALSE), g_string_free (value, FALSE));
        }
    }

  g_string_append (s, p->kind == DYN_SNIPPET_PARAM_NAMES
                      ? "map[string]string{\n" : "map[string]types.AttributeValue{\n");
  _dyn_snippet_go_append_entries (s, entries, indent);
  _dyn_snippet_append_indent (s, indent - 1, '\t');
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

void
_dyn_snippet_generate_go (GString          *out,
                          const DynRequest *req,
                          GArray           *params,
                          const char       *endpoint,
                          const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autoptr(GArray) fields = _dyn_snippet_go_entries_new ();
  DynSnippetAction action = _dyn_snippet_request_action (req);
  gboolean prints = _dyn_snippet_action_prints_items (action);
  gboolean uses_types = prints || _dyn_snippet_params_have_values (params);
  gboolean paged = action == DYN_SNIPPET_ACTION_ITEMS || action == DYN_SNIPPET_ACTION_COUNT;

  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);
      GString *value = g_string_new (NULL);

      switch (p->kind)
        {
        case DYN_SNIPPET_PARAM_STRING:
          g_string_append (value, "aws.String(");
          _dyn_snippet_go_string (value, p->string, strlen (p->string));
          g_string_append_c (value, ')');
          break;
        case DYN_SNIPPET_PARAM_ENUM:
          uses_types = TRUE;
          if (_dyn_snippet_is_known_enum (p->name, p->string))
            {
              g_autofree char *constant = _dyn_snippet_pascal_case (p->string);
              g_string_append_printf (value, "types.%s%s", _dyn_snippet_enum_type (p->name), constant);
            }
          else
            {
              g_string_append_printf (value, "types.%s(", _dyn_snippet_enum_type (p->name));
              _dyn_snippet_go_string (value, p->string, strlen (p->string));
              g_string_append_c (value, ')');
            }
          break;
        case DYN_SNIPPET_PARAM_BOOL:
          g_string_append_printf (value, "aws.Bool(%s)", p->boolean ? "true" : "false");
          break;
        case DYN_SNIPPET_PARAM_INT:
          g_string_append_printf (value, "aws.Int32(%" G_GINT64_FORMAT ")", p->number);
          break;
        case DYN_SNIPPET_PARAM_ITEM:
        case DYN_SNIPPET_PARAM_NAMES:
        case DYN_SNIPPET_PARAM_VALUES:
          {
            g_autofree char *literal = go_map_literal (p, 3);
            g_string_append (value, literal);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      _dyn_snippet_go_entries_add (fields, g_strdup (p->name), g_string_free (value, FALSE));
    }

  g_string_append (out, "package main\n\nimport (\n\t\"context\"\n");
  if (prints)
    g_string_append (out, "\t\"encoding/json\"\n");
  if (prints || action == DYN_SNIPPET_ACTION_COUNT)
    g_string_append (out, "\t\"fmt\"\n");
  g_string_append (out, "\t\"log\"\n\n\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
                        "\t\"github.com/aws/aws-sdk-go-v2/config\"\n");
  if (prints)
    g_string_append (out, "\t\"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue\"\n");
  g_string_append (out, "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n");
  if (uses_types)
    g_string_append (out, "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n");
  g_string_append (out, ")\n");

  if (prints)
    g_string_append (out,
                     "\n"
                     "// printItem writes an item as JSON; numbers keep their exact text.\n"
                     "func printItem(item map[string]types.AttributeValue) {\n"
                     "\tvar out map[string]any\n"
                     "\terr := attributevalue.UnmarshalMapWithOptions(item, &out, func(o *attributevalue.DecoderOptions) {\n"
                     "\t\to.UseNumber = true\n"
                     "\t})\n"
                     "\tif err != nil {\n"
                     "\t\tlog.Fatal(err)\n"
                     "\t}\n"
                     "\ttext, err := json.Marshal(out)\n"
                     "\tif err != nil {\n"
                     "\t\tlog.Fatal(err)\n"
                     "\t}\n"
                     "\tfmt.Println(string(text))\n"
                     "}\n");

  g_string_append (out, "\nfunc main() {\n\tctx := context.Background()\n");
  if (region != NULL)
    {
      g_string_append (out, "\tcfg, err := config.LoadDefaultConfig(ctx, config.WithRegion(");
      _dyn_snippet_go_string (out, region, strlen (region));
      g_string_append (out, "))\n");
    }
  else
    g_string_append (out, "\tcfg, err := config.LoadDefaultConfig(ctx)\n");
  g_string_append (out, "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n");
  if (endpoint != NULL)
    {
      g_string_append (out,
                       "\tclient := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {\n"
                       "\t\to.BaseEndpoint = aws.String(");
      _dyn_snippet_go_string (out, endpoint, strlen (endpoint));
      g_string_append (out, ")\n\t})\n");
    }
  else
    g_string_append (out, "\tclient := dynamodb.NewFromConfig(cfg)\n");

  g_string_append_printf (out, "\n\tinput := &dynamodb.%sInput{\n", op_name);
  _dyn_snippet_go_append_entries (out, fields, 2);
  g_string_append (out, "\t}\n");

  if (paged)
    {
      if (_dyn_snippet_has_limit (params))
        g_string_append (out, "\t// Limit is the page size: the paginator reads every page.\n");
      g_string_append_printf (out, "\tpaginator := dynamodb.New%sPaginator(client, input)\n", op_name);
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "\tvar count int32\n");
      g_string_append (out,
                       "\tfor paginator.HasMorePages() {\n"
                       "\t\tpage, err := paginator.NextPage(ctx)\n"
                       "\t\tif err != nil {\n"
                       "\t\t\tlog.Fatal(err)\n"
                       "\t\t}\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "\t\tcount += page.Count\n");
      else
        g_string_append (out,
                         "\t\tfor _, item := range page.Items {\n"
                         "\t\t\tprintItem(item)\n"
                         "\t\t}\n");
      g_string_append (out, "\t}\n");
      if (action == DYN_SNIPPET_ACTION_COUNT)
        g_string_append (out, "\tfmt.Println(count)\n");
    }
  else if (action == DYN_SNIPPET_ACTION_NONE)
    g_string_append_printf (out,
                            "\tif _, err := client.%s(ctx, input); err != nil {\n"
                            "\t\tlog.Fatal(err)\n"
                            "\t}\n", op_name);
  else
    {
      const char *member = action == DYN_SNIPPET_ACTION_ITEM ? "Item" : "Attributes";

      g_string_append_printf (out,
                              "\tout, err := client.%s(ctx, input)\n"
                              "\tif err != nil {\n"
                              "\t\tlog.Fatal(err)\n"
                              "\t}\n"
                              "\tif out.%s != nil {\n"
                              "\t\tprintItem(out.%s)\n"
                              "\t}\n", op_name, member, member);
    }
  g_string_append (out, "}\n");
}
