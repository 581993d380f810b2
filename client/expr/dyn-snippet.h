/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "dyn-request.h"

G_BEGIN_DECLS

/**
 * DynSnippetLanguage:
 * @DYN_SNIPPET_CLI: AWS CLI v2, a shell command
 * @DYN_SNIPPET_BOTO3: Python with the boto3 low-level client
 * @DYN_SNIPPET_JS: JavaScript SDK v3 (`@aws-sdk/client-dynamodb`), an ES module
 * @DYN_SNIPPET_GO: Go SDK v2, a `main` package
 * @DYN_SNIPPET_JAVA: Java SDK v2, one class with a `main` method
 *
 * The languages a request can be written in.
 */
typedef enum {
  DYN_SNIPPET_CLI,
  DYN_SNIPPET_BOTO3,
  DYN_SNIPPET_JS,
  DYN_SNIPPET_GO,
  DYN_SNIPPET_JAVA,
} DynSnippetLanguage;

#define DYN_SNIPPET_N_LANGUAGES (DYN_SNIPPET_JAVA + 1)

/* "cli", "boto3", "js", "go", "java". */
gboolean     dyn_snippet_language_from_string     (const char          *name,
                                                   DynSnippetLanguage  *out);
const char  *dyn_snippet_language_to_string       (DynSnippetLanguage   lang);
/* "AWS CLI", "Python (boto3)", "JavaScript (SDK v3)", "Go (SDK v2)", "Java (SDK v2)". */
const char  *dyn_snippet_language_get_label       (DynSnippetLanguage   lang);
/* The file a snippet is saved and run as: "snippet.sh", "snippet.py",
 * "snippet.mjs", "main.go", "DynamoDbSnippet.java" (the Java class name). */
const char  *dyn_snippet_language_get_file_name   (DynSnippetLanguage   lang);

/**
 * dyn_snippet_generate:
 * @lang: the language
 * @request: a Get/Put/Update/Delete/Query/Scan request
 * @endpoint: (nullable): an endpoint URL (DynamoDB Local, a proxy …); %NULL
 *   for the SDK's default endpoint
 * @region: (nullable): the region; %NULL leaves it to the SDK's configuration
 *
 * Writes @request as a complete program (or CLI command) that runs as it is.
 * Only the parameters that apply to the operation are written; numbers keep
 * their exact text and binary values their bytes. Credentials are never
 * written: they come from the SDK's usual chain (environment, profiles …).
 * ReturnConsumedCapacity, which Dynoscope asks for its statistics, is left out.
 *
 * Query and Scan read every page (LastEvaluatedKey → ExclusiveStartKey) and
 * print each item on a line; Limit is written as the page size (the CLI's
 * `--page-size`), not as a total. With `Select=COUNT` the total count is
 * printed instead. GetItem prints the item when there is one; writes print
 * the returned Attributes when ReturnValues asks for them. The CLI prints its
 * JSON response (`--output json`). The boto3 and JavaScript programs print
 * DynamoDB JSON, binary as base64; Go prints plain JSON, Java the SDK's
 * `toString()`.
 *
 * Returns: (transfer full): the snippet text, ending in a newline
 */
char        *dyn_snippet_generate                 (DynSnippetLanguage   lang,
                                                   const DynRequest    *request,
                                                   const char          *endpoint,
                                                   const char          *region) G_GNUC_WARN_UNUSED_RESULT;

/**
 * dyn_snippet_generate_partiql:
 * @statements: (element-type utf8): one PartiQL statement
 *   (ExecuteStatement, every page followed by NextToken), or several (one
 *   ExecuteTransaction)
 * @parameters: (element-type DynValue) (nullable): per statement, a DynValue
 *   list of its `?` values, or NULL
 *
 * Like dyn_snippet_generate(), for PartiQL.
 */
char        *dyn_snippet_generate_partiql         (DynSnippetLanguage   lang,
                                                   GPtrArray           *statements,
                                                   GPtrArray           *parameters,
                                                   const char          *endpoint,
                                                   const char          *region) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
