/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet"

#include "config.h"

#include "dyn-snippet.h"
#include "dyn-snippet-private.h"

/* The languages, and dyn_snippet_generate (): it collects the request's
 * parameters (dyn-snippet-params.c) and hands them to the generator of the
 * language (dyn-snippet-cli.c, -python.c, -js.c, -go.c, -java.c). Only calls
 * down: nothing here is used by the other snippet files. */

static const struct {
  const char *name;
  const char *label;
  const char *file_name;
} languages[] = {
  [DYN_SNIPPET_CLI] = { "cli", "AWS CLI", "snippet.sh" },
  [DYN_SNIPPET_BOTO3] = { "boto3", "Python (boto3)", "snippet.py" },
  [DYN_SNIPPET_JS] = { "js", "JavaScript (SDK v3)", "snippet.mjs" },
  [DYN_SNIPPET_GO] = { "go", "Go (SDK v2)", "main.go" },
  [DYN_SNIPPET_JAVA] = { "java", "Java (SDK v2)", "DynamoDbSnippet.java" },
};

gboolean
dyn_snippet_language_from_string (const char         *name,
                                  DynSnippetLanguage *out)
{
  g_return_val_if_fail (name != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    if (g_ascii_strcasecmp (name, languages[i].name) == 0)
      {
        if (out != NULL)
          *out = (DynSnippetLanguage) i;
        return TRUE;
      }
  return FALSE;
}

const char *
dyn_snippet_language_to_string (DynSnippetLanguage lang)
{
  g_return_val_if_fail ((guint) lang < G_N_ELEMENTS (languages), NULL);
  return languages[lang].name;
}

const char *
dyn_snippet_language_get_label (DynSnippetLanguage lang)
{
  g_return_val_if_fail ((guint) lang < G_N_ELEMENTS (languages), NULL);
  return languages[lang].label;
}

const char *
dyn_snippet_language_get_file_name (DynSnippetLanguage lang)
{
  g_return_val_if_fail ((guint) lang < G_N_ELEMENTS (languages), NULL);
  return languages[lang].file_name;
}

/* Public API --------------------------------------------------------------------- */

char *
dyn_snippet_generate (DynSnippetLanguage  lang,
                      const DynRequest   *request,
                      const char         *endpoint,
                      const char         *region)
{
  g_autoptr(GArray) params = NULL;
  GString *out;

  g_return_val_if_fail ((guint) lang < G_N_ELEMENTS (languages), NULL);
  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->op <= DYN_OP_SCAN, NULL);
  g_return_val_if_fail (request->table != NULL, NULL);

  if (endpoint != NULL && *endpoint == '\0')
    endpoint = NULL;
  if (region != NULL && *region == '\0')
    region = NULL;

  params = _dyn_snippet_collect_params (request);
  out = g_string_sized_new (1024);
  switch (lang)
    {
    case DYN_SNIPPET_CLI:
      _dyn_snippet_generate_cli (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_BOTO3:
      _dyn_snippet_generate_boto3 (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_JS:
      _dyn_snippet_generate_js (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_GO:
      _dyn_snippet_generate_go (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_JAVA:
      _dyn_snippet_generate_java (out, request, params, endpoint, region);
      break;
    default:
      g_assert_not_reached ();
    }
  return g_string_free (out, FALSE);
}
