/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-cli"

#include "config.h"

#include <string.h>

#include "dyn-json.h"
#include "dyn-snippet-private.h"

/* AWS CLI ------------------------------------------------------------------------ */

static gboolean
shell_safe (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (const char *c = s; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && strchr ("_./:=@%+,-", *c) == NULL)
      return FALSE;
  return TRUE;
}

void
_dyn_snippet_shell_quote (GString    *out,
             const char *s)
{
  if (shell_safe (s))
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '\'');
  for (const char *c = s; *c != '\0'; c++)
    {
      if (*c == '\'')
        g_string_append (out, "'\\''");
      else
        g_string_append_c (out, *c);
    }
  g_string_append_c (out, '\'');
}

void
_dyn_snippet_cli_option (GString    *out,
            const char *option,
            const char *value)
{
  g_string_append (out, " \\\n    --");
  g_string_append (out, option);
  if (value == NULL)
    return;
  /* A value that starts with "-" would read as an option. */
  g_string_append_c (out, value[0] == '-' ? '=' : ' ');
  _dyn_snippet_shell_quote (out, value);
}

static char *
cli_names_json (const DynSnippetParam *p)
{
  GString *s = g_string_new ("{");

  for (guint k = 0; k < p->keys->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      _dyn_snippet_append_json_string (s, p->keys->pdata[k]);
      g_string_append (s, ": ");
      _dyn_snippet_append_json_string (s, g_hash_table_lookup (p->map, p->keys->pdata[k]));
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static char *
cli_values_json (const DynSnippetParam *p)
{
  GString *s = g_string_new ("{");

  for (guint k = 0; k < p->keys->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      _dyn_snippet_append_json_string (s, p->keys->pdata[k]);
      g_string_append (s, ": ");
      dyn_json_append_ddb_value (s, g_hash_table_lookup (p->map, p->keys->pdata[k]));
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

void
_dyn_snippet_generate_cli (GString          *out,
                           const DynRequest *req,
                           GArray           *params,
                           const char       *endpoint,
                           const char       *region)
{
  g_autofree char *command = _dyn_snippet_kebab_case (dyn_operation_get_name (req->op));
  const DynValue *start_key = NULL;

  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);
      if (strcmp (p->name, "ExclusiveStartKey") == 0)
        start_key = p->item;
    }

  g_string_append (out, "#!/bin/sh\n");
  if (_dyn_snippet_has_limit (params))
    g_string_append (out, "# --page-size is DynamoDB's Limit: the CLI still reads every page.\n");
  if (start_key != NULL && _dyn_snippet_value_has_binary (start_key))
    g_string_append (out, "# --exclusive-start-key turns the CLI's paging off: this reads one page.\n");
  else if (start_key != NULL)
    g_string_append (out, "# --starting-token holds the ExclusiveStartKey to begin from.\n");

  g_string_append (out, "aws dynamodb ");
  g_string_append (out, command);

  for (guint i = 0; i < params->len; i++)
    {
      DynSnippetParam *p = &g_array_index (params, DynSnippetParam, i);
      g_autofree char *option = _dyn_snippet_kebab_case (p->name);
      g_autofree char *text = NULL;

      switch (p->kind)
        {
        case DYN_SNIPPET_PARAM_STRING:
        case DYN_SNIPPET_PARAM_ENUM:
          _dyn_snippet_cli_option (out, option, p->string);
          break;
        case DYN_SNIPPET_PARAM_BOOL:
          if (p->boolean)
            _dyn_snippet_cli_option (out, option, NULL);
          else
            {
              g_autofree char *negated = g_strconcat ("no-", option, NULL);
              _dyn_snippet_cli_option (out, negated, NULL);
            }
          break;
        case DYN_SNIPPET_PARAM_INT:
          text = g_strdup_printf ("%" G_GINT64_FORMAT, p->number);
          _dyn_snippet_cli_option (out, strcmp (p->name, "Limit") == 0 ? "page-size" : option, text);
          break;
        case DYN_SNIPPET_PARAM_ITEM:
          text = dyn_item_to_ddb_json_string (p->item);
          if (strcmp (p->name, "ExclusiveStartKey") == 0
              && !_dyn_snippet_value_has_binary (p->item))
            {
              /* The CLI's own token: base64 of {"ExclusiveStartKey": key}. */
              g_autofree char *token_json = g_strdup_printf ("{\"ExclusiveStartKey\": %s}", text);
              g_autofree char *token = g_base64_encode ((const guchar *) token_json, strlen (token_json));

              _dyn_snippet_cli_option (out, "starting-token", token);
            }
          else
            _dyn_snippet_cli_option (out, option, text);
          break;
        case DYN_SNIPPET_PARAM_NAMES:
          text = cli_names_json (p);
          _dyn_snippet_cli_option (out, option, text);
          break;
        case DYN_SNIPPET_PARAM_VALUES:
          text = cli_values_json (p);
          _dyn_snippet_cli_option (out, option, text);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  if (endpoint != NULL)
    _dyn_snippet_cli_option (out, "endpoint-url", endpoint);
  if (region != NULL)
    _dyn_snippet_cli_option (out, "region", region);
  _dyn_snippet_cli_option (out, "output", "json");
  g_string_append_c (out, '\n');
}
