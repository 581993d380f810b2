/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet-partiql"

#include "config.h"

#include <string.h>

#include "dyn-json.h"
#include "dyn-snippet.h"
#include "dyn-snippet-private.h"

/* PartiQL snippets: one statement is an ExecuteStatement that follows
 * NextToken page after page (the statement text stays the same, as DynamoDB
 * requires), several are one ExecuteTransaction. Parameters are written as
 * AttributeValues with the value writers of the request snippets, so numbers
 * keep their exact text and binary its bytes. */

typedef struct {
  const char     *statement;
  const DynValue *parameters;     /* a non-empty L, or NULL */
} Statement;

static GArray *
collect_statements (GPtrArray *statements,
                    GPtrArray *parameters)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Statement));

  for (guint i = 0; i < statements->len; i++)
    {
      Statement s = { statements->pdata[i], NULL };

      if (parameters != NULL && i < parameters->len && parameters->pdata[i] != NULL)
        {
          const DynValue *list = parameters->pdata[i];

          g_return_val_if_fail (dyn_value_get_value_type (list) == DYN_VALUE_L, out);
          if (dyn_value_get_length (list) > 0)
            s.parameters = list;
        }
      g_array_append_val (out, s);
    }
  return out;
}

/* AWS CLI ------------------------------------------------------------------------ */

static char *
cli_parameters_json (const DynValue *list)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < dyn_value_get_length (list); i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      dyn_json_append_ddb_value (s, dyn_value_list_get (list, i));
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static void
generate_cli (GString    *out,
              GArray     *stmts,
              const char *endpoint,
              const char *region)
{
  const Statement *first = &g_array_index (stmts, Statement, 0);

  g_string_append (out, "#!/bin/sh\n");
  if (stmts->len > 1)
    {
      GString *list = g_string_new ("[");

      for (guint i = 0; i < stmts->len; i++)
        {
          const Statement *s = &g_array_index (stmts, Statement, i);

          if (i > 0)
            g_string_append (list, ", ");
          g_string_append (list, "{\"Statement\": ");
          _dyn_snippet_append_json_string (list, s->statement);
          if (s->parameters != NULL)
            {
              g_autofree char *json = cli_parameters_json (s->parameters);

              g_string_append (list, ", \"Parameters\": ");
              g_string_append (list, json);
            }
          g_string_append_c (list, '}');
        }
      g_string_append_c (list, ']');
      g_string_append (out, "aws dynamodb execute-transaction");
      _dyn_snippet_cli_option (out, "transact-statements", list->str);
      if (endpoint != NULL)
        _dyn_snippet_cli_option (out, "endpoint-url", endpoint);
      if (region != NULL)
        _dyn_snippet_cli_option (out, "region", region);
      _dyn_snippet_cli_option (out, "output", "json");
      g_string_append_c (out, '\n');
      g_string_free (list, TRUE);
      return;
    }

  g_string_append (out,
                   "# ExecuteStatement answers a page at a time: the loop prints each page's\n"
                   "# response and asks again with its NextToken, the statement unchanged.\n"
                   "set -e\n"
                   "statement=");
  _dyn_snippet_shell_quote (out, first->statement);
  g_string_append_c (out, '\n');
  if (first->parameters != NULL)
    {
      g_autofree char *json = cli_parameters_json (first->parameters);

      g_string_append (out, "parameters=");
      _dyn_snippet_shell_quote (out, json);
      g_string_append_c (out, '\n');
    }
  g_string_append (out,
                   "set --\n"
                   "while :; do\n"
                   "    page=$(aws dynamodb execute-statement \\\n"
                   "        --statement=\"$statement\" \\\n");
  if (first->parameters != NULL)
    g_string_append (out, "        --parameters=\"$parameters\" \\\n");
  g_string_append (out, "        \"$@\" \\\n");
  if (endpoint != NULL)
    {
      g_string_append (out, "        --endpoint-url=");
      _dyn_snippet_shell_quote (out, endpoint);
      g_string_append (out, " \\\n");
    }
  if (region != NULL)
    {
      g_string_append (out, "        --region=");
      _dyn_snippet_shell_quote (out, region);
      g_string_append (out, " \\\n");
    }
  g_string_append (out,
                   "        --output json)\n"
                   "    printf '%s\\n' \"$page\"\n"
                   "    token=$(printf '%s\\n' \"$page\" | sed -n 's/^    \"NextToken\": \"\\(.*\\)\",*$/\\1/p')\n"
                   "    [ -n \"$token\" ] || break\n"
                   "    set -- --next-token=\"$token\"\n"
                   "done\n");
}

/* Python (boto3) ----------------------------------------------------------------- */

static void
py_parameters (GString        *out,
               const DynValue *list,
               guint           indent)
{
  g_string_append (out, "[\n");
  for (guint i = 0; i < dyn_value_get_length (list); i++)
    {
      _dyn_snippet_append_indent (out, indent + 4, ' ');
      _dyn_snippet_py_value (out, dyn_value_list_get (list, i));
      g_string_append (out, ",\n");
    }
  _dyn_snippet_append_indent (out, indent, ' ');
  g_string_append_c (out, ']');
}

static void
generate_boto3 (GString    *out,
                GArray     *stmts,
                const char *endpoint,
                const char *region)
{
  g_string_append (out, "import base64\nimport json\n\nimport boto3\n\n");
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
  g_string_append (out,
                   "\n\n"
                   "def dump(item):\n"
                   "    # Binary values (B, BS) arrive as bytes: write them as base64, as on the wire.\n"
                   "    return json.dumps(item, default=lambda b: base64.b64encode(b).decode(\"ascii\"))\n"
                   "\n");

  if (stmts->len == 1)
    {
      const Statement *s = &g_array_index (stmts, Statement, 0);

      g_string_append (out, "\nparams = {\n    \"Statement\": ");
      _dyn_snippet_append_literal (out, s->statement, DYN_SNIPPET_LIT_PYTHON);
      g_string_append (out, ",\n");
      if (s->parameters != NULL)
        {
          g_string_append (out, "    \"Parameters\": ");
          py_parameters (out, s->parameters, 4);
          g_string_append (out, ",\n");
        }
      g_string_append (out,
                       "}\n"
                       "# Each call answers one page; NextToken asks for the next, the statement unchanged.\n"
                       "while True:\n"
                       "    response = client.execute_statement(**params)\n"
                       "    for item in response[\"Items\"]:\n"
                       "        print(dump(item))\n"
                       "    if \"NextToken\" not in response:\n"
                       "        break\n"
                       "    params[\"NextToken\"] = response[\"NextToken\"]\n");
      return;
    }

  g_string_append (out, "\nparams = {\n    \"TransactStatements\": [\n");
  for (guint i = 0; i < stmts->len; i++)
    {
      const Statement *s = &g_array_index (stmts, Statement, i);

      g_string_append (out, "        {\n            \"Statement\": ");
      _dyn_snippet_append_literal (out, s->statement, DYN_SNIPPET_LIT_PYTHON);
      g_string_append (out, ",\n");
      if (s->parameters != NULL)
        {
          g_string_append (out, "            \"Parameters\": ");
          py_parameters (out, s->parameters, 12);
          g_string_append (out, ",\n");
        }
      g_string_append (out, "        },\n");
    }
  g_string_append (out,
                   "    ],\n"
                   "}\n"
                   "response = client.execute_transaction(**params)\n"
                   "for answer in response.get(\"Responses\", []):\n"
                   "    if \"Item\" in answer:\n"
                   "        print(dump(answer[\"Item\"]))\n");
}

/* JavaScript (SDK v3) ------------------------------------------------------------ */

static void
js_parameters (GString        *out,
               const DynValue *list,
               guint           indent)
{
  g_string_append (out, "[\n");
  for (guint i = 0; i < dyn_value_get_length (list); i++)
    {
      _dyn_snippet_append_indent (out, indent + 2, ' ');
      _dyn_snippet_js_value (out, dyn_value_list_get (list, i));
      g_string_append (out, ",\n");
    }
  _dyn_snippet_append_indent (out, indent, ' ');
  g_string_append_c (out, ']');
}

static void
generate_js (GString    *out,
             GArray     *stmts,
             const char *endpoint,
             const char *region)
{
  const char *command = stmts->len == 1 ? "ExecuteStatementCommand" : "ExecuteTransactionCommand";

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
  g_string_append (out,
                   "\n"
                   "// Binary values (B, BS) arrive as Uint8Array: write them as base64, as on the wire.\n"
                   "function toJson(item) {\n"
                   "  return JSON.stringify(item, function (key, value) {\n"
                   "    const raw = this[key];\n"
                   "    return raw instanceof Uint8Array ? Buffer.from(raw).toString(\"base64\") : value;\n"
                   "  });\n"
                   "}\n");

  if (stmts->len == 1)
    {
      const Statement *s = &g_array_index (stmts, Statement, 0);

      g_string_append (out, "\nconst input = {\n  Statement: ");
      _dyn_snippet_append_json_string (out, s->statement);
      g_string_append (out, ",\n");
      if (s->parameters != NULL)
        {
          g_string_append (out, "  Parameters: ");
          js_parameters (out, s->parameters, 2);
          g_string_append (out, ",\n");
        }
      g_string_append (out,
                       "};\n"
                       "// Each call answers one page; NextToken asks for the next, the statement unchanged.\n"
                       "do {\n"
                       "  const response = await client.send(new ExecuteStatementCommand(input));\n"
                       "  for (const item of response.Items ?? []) {\n"
                       "    console.log(toJson(item));\n"
                       "  }\n"
                       "  input.NextToken = response.NextToken;\n"
                       "} while (input.NextToken);\n");
      return;
    }

  g_string_append (out, "\nconst input = {\n  TransactStatements: [\n");
  for (guint i = 0; i < stmts->len; i++)
    {
      const Statement *s = &g_array_index (stmts, Statement, i);

      g_string_append (out, "    {\n      Statement: ");
      _dyn_snippet_append_json_string (out, s->statement);
      g_string_append (out, ",\n");
      if (s->parameters != NULL)
        {
          g_string_append (out, "      Parameters: ");
          js_parameters (out, s->parameters, 6);
          g_string_append (out, ",\n");
        }
      g_string_append (out, "    },\n");
    }
  g_string_append (out,
                   "  ],\n"
                   "};\n"
                   "const response = await client.send(new ExecuteTransactionCommand(input));\n"
                   "for (const answer of response.Responses ?? []) {\n"
                   "  if (answer.Item) {\n"
                   "    console.log(toJson(answer.Item));\n"
                   "  }\n"
                   "}\n");
}

/* Go (SDK v2) -------------------------------------------------------------------- */

/* The fields of one statement (Statement, Parameters) at @indent tabs. */
static void
go_statement_fields (GString         *out,
                     const Statement *s,
                     guint            indent)
{
  g_autoptr(GArray) fields = _dyn_snippet_go_entries_new ();
  GString *value = g_string_new ("aws.String(");

  _dyn_snippet_go_string (value, s->statement, strlen (s->statement));
  g_string_append_c (value, ')');
  _dyn_snippet_go_entries_add (fields, g_strdup ("Statement"), g_string_free (value, FALSE));
  if (s->parameters != NULL)
    {
      value = g_string_new ("[]types.AttributeValue{\n");
      for (guint i = 0; i < dyn_value_get_length (s->parameters); i++)
        {
          _dyn_snippet_append_indent (value, indent + 1, '\t');
          _dyn_snippet_go_value (value, dyn_value_list_get (s->parameters, i));
          g_string_append (value, ",\n");
        }
      _dyn_snippet_append_indent (value, indent, '\t');
      g_string_append_c (value, '}');
      _dyn_snippet_go_entries_add (fields, g_strdup ("Parameters"), g_string_free (value, FALSE));
    }
  _dyn_snippet_go_append_entries (out, fields, indent);
}

static void
generate_go (GString    *out,
             GArray     *stmts,
             const char *endpoint,
             const char *region)
{
  gboolean transaction = stmts->len > 1;

  g_string_append (out,
                   "package main\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"log\"\n\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/config\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n"
                   "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n"
                   ")\n"
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

  if (!transaction)
    {
      g_string_append (out, "\n\tinput := &dynamodb.ExecuteStatementInput{\n");
      go_statement_fields (out, &g_array_index (stmts, Statement, 0), 2);
      g_string_append (out,
                       "\t}\n"
                       "\t// Each call answers one page; NextToken asks for the next, the statement unchanged.\n"
                       "\tfor {\n"
                       "\t\tpage, err := client.ExecuteStatement(ctx, input)\n"
                       "\t\tif err != nil {\n"
                       "\t\t\tlog.Fatal(err)\n"
                       "\t\t}\n"
                       "\t\tfor _, item := range page.Items {\n"
                       "\t\t\tprintItem(item)\n"
                       "\t\t}\n"
                       "\t\tif page.NextToken == nil {\n"
                       "\t\t\tbreak\n"
                       "\t\t}\n"
                       "\t\tinput.NextToken = page.NextToken\n"
                       "\t}\n"
                       "}\n");
      return;
    }

  g_string_append (out,
                   "\n\tinput := &dynamodb.ExecuteTransactionInput{\n"
                   "\t\tTransactStatements: []types.ParameterizedStatement{\n");
  for (guint i = 0; i < stmts->len; i++)
    {
      g_string_append (out, "\t\t\t{\n");
      go_statement_fields (out, &g_array_index (stmts, Statement, i), 4);
      g_string_append (out, "\t\t\t},\n");
    }
  g_string_append (out,
                   "\t\t},\n"
                   "\t}\n"
                   "\tout, err := client.ExecuteTransaction(ctx, input)\n"
                   "\tif err != nil {\n"
                   "\t\tlog.Fatal(err)\n"
                   "\t}\n"
                   "\tfor _, answer := range out.Responses {\n"
                   "\t\tif answer.Item != nil {\n"
                   "\t\t\tprintItem(answer.Item)\n"
                   "\t\t}\n"
                   "\t}\n"
                   "}\n");
}

/* Java (SDK v2) ------------------------------------------------------------------ */

static void
java_parameters (GString            *out,
                 const DynValue     *list,
                 const char         *indent,
                 DynSnippetJavaUses *uses)
{
  uses->list = TRUE;
  g_string_append (out, "List.of(");
  for (guint i = 0; i < dyn_value_get_length (list); i++)
    {
      g_string_append_c (out, '\n');
      g_string_append (out, indent);
      _dyn_snippet_java_value (out, dyn_value_list_get (list, i), uses);
      if (i + 1 < dyn_value_get_length (list))
        g_string_append_c (out, ',');
    }
  g_string_append_c (out, ')');
}

static void
generate_java (GString    *out,
               GArray     *stmts,
               const char *endpoint,
               const char *region)
{
  g_autoptr(GString) body = g_string_new (NULL);
  g_autoptr(GPtrArray) model = g_ptr_array_new ();
  DynSnippetJavaUses uses = { FALSE, };
  gboolean transaction = stmts->len > 1;

  uses.map = TRUE;
  if (!transaction)
    {
      const Statement *s = &g_array_index (stmts, Statement, 0);

      g_ptr_array_add (model, "ExecuteStatementRequest");
      g_ptr_array_add (model, "ExecuteStatementResponse");
      g_string_append (body, "            String statement = ");
      _dyn_snippet_java_string (body, s->statement, strlen (s->statement));
      g_string_append (body, ";\n");
      if (s->parameters != NULL)
        {
          g_string_append (body, "            List<AttributeValue> parameters = ");
          java_parameters (body, s->parameters, "                    ", &uses);
          g_string_append (body, ";\n");
        }
      g_string_append (body,
                       "            // Each call answers one page; nextToken asks for the next, the statement unchanged.\n"
                       "            String nextToken = null;\n"
                       "            do {\n"
                       "                ExecuteStatementRequest request = ExecuteStatementRequest.builder()\n"
                       "                        .statement(statement)\n");
      if (s->parameters != NULL)
        g_string_append (body, "                        .parameters(parameters)\n");
      g_string_append (body,
                       "                        .nextToken(nextToken)\n"
                       "                        .build();\n"
                       "                ExecuteStatementResponse page = client.executeStatement(request);\n"
                       "                for (Map<String, AttributeValue> item : page.items()) {\n"
                       "                    System.out.println(item);\n"
                       "                }\n"
                       "                nextToken = page.nextToken();\n"
                       "            } while (nextToken != null);\n");
    }
  else
    {
      g_ptr_array_add (model, "ExecuteTransactionRequest");
      g_ptr_array_add (model, "ExecuteTransactionResponse");
      g_ptr_array_add (model, "ItemResponse");
      g_ptr_array_add (model, "ParameterizedStatement");
      g_string_append (body,
                       "            ExecuteTransactionRequest request = ExecuteTransactionRequest.builder()\n"
                       "                    .transactStatements(");
      for (guint i = 0; i < stmts->len; i++)
        {
          const Statement *s = &g_array_index (stmts, Statement, i);

          g_string_append (body,
                           "\n"
                           "                            ParameterizedStatement.builder()\n"
                           "                                    .statement(");
          _dyn_snippet_java_string (body, s->statement, strlen (s->statement));
          g_string_append (body, ")\n");
          if (s->parameters != NULL)
            {
              g_string_append (body, "                                    .parameters(");
              java_parameters (body, s->parameters, "                                            ", &uses);
              g_string_append (body, ")\n");
            }
          g_string_append (body, "                                    .build()");
          if (i + 1 < stmts->len)
            g_string_append_c (body, ',');
        }
      g_string_append (body,
                       ")\n"
                       "                    .build();\n"
                       "            ExecuteTransactionResponse response = client.executeTransaction(request);\n"
                       "            for (ItemResponse answer : response.responses()) {\n"
                       "                if (answer.hasItem()) {\n"
                       "                    System.out.println(answer.item());\n"
                       "                }\n"
                       "            }\n");
    }
  g_ptr_array_add (model, "AttributeValue");
  g_ptr_array_sort (model, _dyn_snippet_compare_strings);

  if (endpoint != NULL)
    g_string_append (out, "import java.net.URI;\n");
  if (uses.base64)
    g_string_append (out, "import java.util.Base64;\n");
  if (uses.list)
    g_string_append (out, "import java.util.List;\n");
  g_string_append (out, "import java.util.Map;\n\n");
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
  g_string_append (out, body->str);
  g_string_append (out,
                   "        }\n"
                   "    }\n"
                   "}\n");
}

/* Public API --------------------------------------------------------------------- */

char *
dyn_snippet_generate_partiql (DynSnippetLanguage  lang,
                              GPtrArray          *statements,
                              GPtrArray          *parameters,
                              const char         *endpoint,
                              const char         *region)
{
  g_autoptr(GArray) stmts = NULL;
  GString *out;

  g_return_val_if_fail ((guint) lang < DYN_SNIPPET_N_LANGUAGES, NULL);
  g_return_val_if_fail (statements != NULL && statements->len > 0, NULL);

  if (endpoint != NULL && *endpoint == '\0')
    endpoint = NULL;
  if (region != NULL && *region == '\0')
    region = NULL;

  stmts = collect_statements (statements, parameters);
  out = g_string_sized_new (1024);
  switch (lang)
    {
    case DYN_SNIPPET_CLI:
      generate_cli (out, stmts, endpoint, region);
      break;
    case DYN_SNIPPET_BOTO3:
      generate_boto3 (out, stmts, endpoint, region);
      break;
    case DYN_SNIPPET_JS:
      generate_js (out, stmts, endpoint, region);
      break;
    case DYN_SNIPPET_GO:
      generate_go (out, stmts, endpoint, region);
      break;
    case DYN_SNIPPET_JAVA:
      generate_java (out, stmts, endpoint, region);
      break;
    default:
      g_assert_not_reached ();
    }
  return g_string_free (out, FALSE);
}
