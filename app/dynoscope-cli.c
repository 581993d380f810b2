/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dynoscope-cli"

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "dyn-cli-apply.h"
#include "dyn-cli-design.h"
#include "dyn-cli-signin.h"
#include "dyn-cli-transfer.h"
#include "dyn-connect.h"
#include "dyn-expression-json.h"
#include "dyn-client.h"
#include "dyn-connection.h"
#include "dyn-signin.h"
#include "dyn-json.h"
#include "dyn-pager.h"
#include "dyn-partiql.h"
#include "dyn-read-request.h"
#include "dyn-table-admin.h"
#include "dyn-snippet.h"
#include "dyn-sql.h"
#include "dyn-table.h"

/* Options ----------------------------------------------------------------- */

typedef struct
{
  /* Global. */
  char        *profile;
  char        *region;
  char        *endpoint;
  gboolean     plain;
  gboolean     stats;
  gboolean     insecure;

  /* Request. */
  char        *index;
  char        *key_condition;
  char        *filter;
  char        *condition;
  char        *update;
  char        *projection;
  char        *names;
  char        *values;
  char        *key;
  char        *item;
  char        *return_values;
  char        *pk;
  char        *sk;
  char        *kind;
  char        *lang;
  char        *version_attribute;
  GPtrArray   *gsis;
  gint64       limit;
  guint        segments;
  gboolean     desc;
  gboolean     consistent;
  gboolean     dry_run;
  gboolean     lint;
  char        *parameters;
  gboolean     explain;
  gboolean     allow_scan;
  gboolean     text;
  GStrv        sql_columns;

  /* Positional arguments after the command. */
  GPtrArray   *args;

  DynReadStats totals;
  gboolean     read_stats;   /* a scan or query: --stats says what it read and printed */
  guint64      printed;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->profile);
  g_free (o->region);
  g_free (o->endpoint);
  g_free (o->index);
  g_free (o->key_condition);
  g_free (o->filter);
  g_free (o->condition);
  g_free (o->update);
  g_free (o->projection);
  g_free (o->names);
  g_free (o->values);
  g_free (o->key);
  g_free (o->item);
  g_free (o->return_values);
  g_free (o->pk);
  g_free (o->sk);
  g_free (o->kind);
  g_free (o->lang);
  g_free (o->version_attribute);
  g_free (o->parameters);
  g_clear_pointer (&o->gsis, g_ptr_array_unref);
  g_clear_pointer (&o->args, g_ptr_array_unref);
  g_strfreev (o->sql_columns);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Options, options_clear)

static const struct {
  const char *name;
  gsize       offset;
} string_options[] = {
  { "--profile", G_STRUCT_OFFSET (Options, profile) },
  { "--region", G_STRUCT_OFFSET (Options, region) },
  { "--endpoint", G_STRUCT_OFFSET (Options, endpoint) },
  { "--index", G_STRUCT_OFFSET (Options, index) },
  { "--key-condition", G_STRUCT_OFFSET (Options, key_condition) },
  { "--filter", G_STRUCT_OFFSET (Options, filter) },
  { "--condition", G_STRUCT_OFFSET (Options, condition) },
  { "--update", G_STRUCT_OFFSET (Options, update) },
  { "--projection", G_STRUCT_OFFSET (Options, projection) },
  { "--names", G_STRUCT_OFFSET (Options, names) },
  { "--values", G_STRUCT_OFFSET (Options, values) },
  { "--key", G_STRUCT_OFFSET (Options, key) },
  { "--item", G_STRUCT_OFFSET (Options, item) },
  { "--return-values", G_STRUCT_OFFSET (Options, return_values) },
  { "--pk", G_STRUCT_OFFSET (Options, pk) },
  { "--sk", G_STRUCT_OFFSET (Options, sk) },
  { "--kind", G_STRUCT_OFFSET (Options, kind) },
  { "--lang", G_STRUCT_OFFSET (Options, lang) },
  { "--version-attribute", G_STRUCT_OFFSET (Options, version_attribute) },
  { "--parameters", G_STRUCT_OFFSET (Options, parameters) },
};

static const char usage[] =
  "Usage: dynoscope-cli [--profile P] [--region R] [--endpoint URL] COMMAND [ARGS…]\n"
  "\n"
  "Commands:\n"
  "  tables                                   list every table\n"
  "  describe TABLE [--text]                  describe a table (DescribeTable's JSON, or with\n"
  "                                           --text its status, keys, indexes, approximate\n"
  "                                           count and TTL as lines)\n"
  "  create-table TABLE --pk NAME:S|N|B [--sk NAME:TYPE]\n"
  "               [--gsi NAME:PK:TYPE[+PK2:TYPE…][:SK:TYPE[+SK2:TYPE…]]]…\n"
  "                                           a GSI's key may have up to four partition\n"
  "                                           and four sort attributes, joined by +\n"
  "               [--lsi NAME:SK:TYPE]…        an LSI has the table's partition key\n"
  "                                           a GSI or LSI may end in :ALL (the default),\n"
  "                                           :KEYS_ONLY or :INCLUDE=a,b (its projection)\n"
  "               [--billing on-demand|provisioned:R:W] [--ttl ATTR]\n"
  "               [--table-class STANDARD|STANDARD_INFREQUENT_ACCESS]\n"
  "               [--deletion-protection] [--no-wait] [--json] [--dry-run]\n"
  "                                           checked before sending, waits until ACTIVE;\n"
  "                                           --json prints the CreateTable request (what\n"
  "                                           `aws dynamodb create-table --cli-input-json`\n"
  "                                           takes), --dry-run prints it and sends nothing\n"
  "  update-table TABLE --add-gsi GSI | --delete-gsi NAME | --ttl ATTR | --no-ttl [--no-wait]\n"
  "                                           adds or deletes a GSI (the GSI form above) and\n"
  "                                           waits, its status and backfill on stderr; turns\n"
  "                                           time to live on or off\n"
  "  delete-table TABLE\n"
  "  scan TABLE [--index I] [--segments N] [--limit N] [--filter E]\n"
  "  query TABLE [--index I] --key-condition E [--filter E] [--desc] [--limit N]\n"
  "  get TABLE --key JSON\n"
  "  put TABLE --item JSON [--condition E]\n"
  "  update TABLE --key JSON --update E [--condition E] [--return-values V]\n"
  "  delete TABLE --key JSON [--condition E]\n"
  "  batch-write TABLE                        items as JSON lines on standard input\n"
  "  export TABLE --output PATH [--format ddb-json|json|csv|s3] [--index I] [--filter E]\n"
  "               [--key-condition E] [--projection P] [--segments N] [--max-rcu N] [--resume]\n"
  "                                           the table, an index or a Query to a file (an S3\n"
  "                                           export folder for s3), in parallel segments,\n"
  "                                           resumable from OUTPUT.dynoscope-export/\n"
  "  count TABLE [--index I] [--filter E] [--segments N] [--json]\n"
  "                                           the exact item count (Select=COUNT Scan), its\n"
  "                                           cost stated before and after\n"
  "  import TABLE --input PATH [--format ddb-json|json|csv|s3] [--csv-type NAME=TYPE]…\n"
  "               [--create --pk NAME:TYPE [--sk …] [--gsi …] [--lsi …] [--billing …]]\n"
  "               [--no-overwrite] [--max-wcu N] [--concurrency N] [--resume|--restart]\n"
  "               [--dry-run] [--skip-bad] [--verify] [--json] [--quiet]\n"
  "                                           checks every line first (nothing is written while\n"
  "                                           one is bad, unless --skip-bad), BatchWriteItem in\n"
  "                                           25s or guarded puts, resumable; exits 3 on problems\n"
  "  truncate TABLE [--max-wcu N] [--segments N] (--yes | --confirm TABLE)\n"
  "                                           deletes every item, its cost stated first\n"
  "  partiql STATEMENT[; STATEMENT…] [--parameters JSON]\n"
  "                                           runs it, following NextToken; several statements\n"
  "                                           run as one ExecuteTransaction; JSON is a list of\n"
  "                                           the ? values (DynamoDB JSON, or plain JSON), all\n"
  "                                           statements' in order\n"
  "  partiql --lint STATEMENT                 prints LINE:COLUMN: severity: message per\n"
  "                                           diagnostic; exits 1 on an error\n"
  "  sql [--explain] [--allow-scan] STATEMENT  a SELECT over tables and indexes (\"Table.Index\"),\n"
  "                                           one plain-JSON object per row; --explain prints\n"
  "                                           the DynamoDB calls it would make, sending none\n"
  "  apply TABLE [--dry-run] [--version-attribute NAME]\n"
  "                                           guarded changes, JSON lines {\"before\": ITEM|null,\n"
  "                                           \"after\": ITEM|null} on standard input; with a\n"
  "                                           version attribute, guards check and bump it\n"
  "  expr --kind key|filter|condition|update|projection TEXT\n"
  "                                           compile an expression to its maps\n"
  "  plan TABLE [--index I] [--key-condition E] [--filter E]\n"
  "                                           Query or Scan, which index, and why\n"
  "  snippet --lang cli|boto3|js|go|java get|put|update|delete|query|scan TABLE …\n"
  "                                           code that sends the same request\n"
  "  design draft MODEL.json [--per-parent N] [--seed N]\n"
  "                                           the key plan, requests and example items (JSON);\n"
  "                                           MODEL is a Dynoscope, NoSQL Workbench or\n"
  "                                           CloudFormation file (client/design/MODEL.md)\n"
  "  design check MODEL.json [--table T] [--write-examples] [--keep-table] [--sample N] [--json]\n"
  "                                           runs every access pattern on a scratch table\n"
  "                                           (or T); exits 3 when one is not one Query or\n"
  "                                           GetItem of one page\n"
  "  design infer TABLE [--sample N]          a model from a table's items (JSON)\n"
  "  design export MODEL.json --format workbench|cloudformation|create-table\n"
  "                                           the model for NoSQL Workbench, CloudFormation\n"
  "                                           or `aws dynamodb create-table --cli-input-json`\n"
  "  whoami [--profile P] [--region R]        who the credentials belong to (STS\n"
  "                                           GetCallerIdentity): Account, Arn, UserId and\n"
  "                                           Expiration as JSON\n"
  "  login [--profile P] [--no-browser]       signs in to IAM Identity Center (the device\n"
  "                                           flow: URL and code on standard error) and\n"
  "                                           writes the token cache the AWS CLI v2 shares\n"
  "\n"
  "--mfa-code CODE, anywhere on the line, answers an MFA question of the profile's\n"
  "role; without it the code is asked on the terminal. STS and IAM Identity Center\n"
  "follow AWS_ENDPOINT_URL_STS, AWS_ENDPOINT_URL_SSO, AWS_ENDPOINT_URL_SSO_OIDC and\n"
  "a profile's [services] section.\n"
  "\n"
  "Expressions are DynamoDB's own syntax, with #name/:value placeholders and\n"
  "their maps, or with inline values: 'EntityRef = \"WS#acme\" AND\n"
  "begins_with(Detail, \"PROJ#\")'. A partition key written as a shard range\n"
  "(\"WS#acme#01..10\") queries every shard in parallel and merges by sort key.\n"
  "\n"
  "Expressions take --names JSON and --values JSON (values in DynamoDB JSON);\n"
  "reads take --projection E and --consistent. Items print as one DynamoDB JSON\n"
  "object per line, or plain JSON with --plain (input is always DynamoDB JSON).\n"
  "--limit N is the number of items wanted, not DynamoDB's Limit (which counts\n"
  "the items read before the filter): with --filter pages stay full and the read\n"
  "stops once N items matched (the last page's surplus is not printed); without a\n"
  "filter each request asks for the items still wanted. The same for --segments.\n"
  "--stats prints “requests N pages N rcu X wcu Y” to standard error, for scan\n"
  "and query followed by “items N scanned N printed N” (items the server returned).\n"
  "--insecure allows plain http to an endpoint that is not this machine.\n";

static gboolean
parse_args (Options  *o,
            int       argc,
            char    **argv,
            GError  **error)
{
  o->args = g_ptr_array_new ();
  o->gsis = g_ptr_array_new_with_free_func (g_free);
  o->segments = 1;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;
      const char *eq;
      gboolean matched = FALSE;

      if (!g_str_has_prefix (arg, "--") || strcmp (arg, "--") == 0)
        {
          g_ptr_array_add (o->args, (gpointer) arg);
          continue;
        }

      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);
      if (eq != NULL)
        value = eq + 1;

#define FLAG(flag, field) \
      if (strcmp (name, flag) == 0) { o->field = TRUE; continue; }
      FLAG ("--plain", plain);
      FLAG ("--stats", stats);
      FLAG ("--desc", desc);
      FLAG ("--consistent", consistent);
      FLAG ("--insecure", insecure);
      FLAG ("--dry-run", dry_run);
      FLAG ("--lint", lint);
      FLAG ("--explain", explain);
      FLAG ("--allow-scan", allow_scan);
      FLAG ("--text", text);
#undef FLAG
      if (strcmp (name, "--help") == 0)
        {
          fputs (usage, stdout);
          exit (0);
        }

      if (value == NULL)
        {
          if (i + 1 >= argc)
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s needs a value", name);
              return FALSE;
            }
          value = argv[++i];
        }

      for (guint j = 0; j < G_N_ELEMENTS (string_options); j++)
        if (strcmp (name, string_options[j].name) == 0)
          {
            char **field = G_STRUCT_MEMBER_P (o, string_options[j].offset);
            g_free (*field);
            *field = g_strdup (value);
            matched = TRUE;
          }
      if (matched)
        continue;

      if (strcmp (name, "--gsi") == 0)
        g_ptr_array_add (o->gsis, g_strdup (value));
      else if (strcmp (name, "--limit") == 0 || strcmp (name, "--segments") == 0)
        {
          guint64 n;
          if (!g_ascii_string_to_unsigned (value, 10, 1, G_MAXINT32, &n, NULL))
            {
              g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "%s takes a whole number from 1, not “%s”", name, value);
              return FALSE;
            }
          if (name[2] == 'l')
            o->limit = n;
          else
            o->segments = n;
        }
      else
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                       "Unknown option %s (see --help)", name);
          return FALSE;
        }
    }
  return TRUE;
}

/* Running async calls to completion ---------------------------------------- */

static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static DynResponse *
call (DynClient   *client,
      const char  *operation,
      JsonNode    *params,
      GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_client_call_async (client, operation, params, NULL, store_result_cb, &result);
  return dyn_client_call_finish (client, wait_for (&result), error);
}

/* Output ------------------------------------------------------------------ */

static void
print_item (Options  *o,
            DynValue *item)
{
  g_autofree char *text = o->plain ? dyn_value_to_plain_json_string (item)
                                   : dyn_item_to_ddb_json_string (item);
  fputs (text, stdout);
  fputc ('\n', stdout);
  o->printed++;
}

static void
print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);
  puts (text);
}

static void
count_response (Options     *o,
                DynResponse *response)
{
  o->totals.requests += response->attempts;
  o->totals.pages++;
  o->totals.read_units += response->read_units;
  o->totals.write_units += response->write_units;
}

static void
print_stats (Options *o)
{
  char r[G_ASCII_DTOSTR_BUF_SIZE], w[G_ASCII_DTOSTR_BUF_SIZE];

  if (!o->stats)
    return;
  g_ascii_formatd (r, sizeof r, "%.1f", o->totals.read_units);
  g_ascii_formatd (w, sizeof w, "%.1f", o->totals.write_units);
  fprintf (stderr, "requests %u pages %u rcu %s wcu %s", o->totals.requests, o->totals.pages, r, w);
  if (o->read_stats)
    fprintf (stderr, " items %" G_GUINT64_FORMAT " scanned %" G_GUINT64_FORMAT " printed %" G_GUINT64_FORMAT,
             o->totals.items, o->totals.scanned, o->printed);
  fputc ('\n', stderr);
}

/* Building requests ------------------------------------------------------- */

static const char *
table_arg (Options  *o,
           GError  **error)
{
  if (o->args->len < 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s needs a table name", (char *) o->args->pdata[0]);
      return NULL;
    }
  return o->args->pdata[1];
}

static DynValue *
parse_item_arg (Options     *o,
                const char  *what,
                const char  *text,
                GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  DynValue *item;

  if (text == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s is required", what);
      return NULL;
    }
  item = dyn_item_from_ddb_json_string (text, -1, &local_error);
  if (item == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s: %s", what, local_error->message);
      return NULL;
    }
  if (dyn_value_get_value_type (item) != DYN_VALUE_M)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT, "%s must be a JSON object", what);
      g_clear_pointer (&item, dyn_value_unref);
    }
  return item;
}

static DynRequest *
build_request (Options             *o,
               DynOperation         op,
               const DynTableKeys  *keys,
               GError             **error)
{
  const char *table = table_arg (o, error);
  g_autoptr(DynRequest) request = NULL;

  if (table == NULL)
    return NULL;

  request = dyn_request_new (op, table);
  request->index = g_strdup (o->index);
  request->limit = o->limit;
  request->scan_forward = !o->desc;
  request->consistent_read = o->consistent;
  request->return_values = g_strdup (o->return_values);

  if (op == DYN_OP_GET_ITEM || op == DYN_OP_UPDATE_ITEM || op == DYN_OP_DELETE_ITEM)
    if ((request->key = parse_item_arg (o, "--key", o->key, error)) == NULL)
      return NULL;
  if (op == DYN_OP_PUT_ITEM)
    if ((request->item = parse_item_arg (o, "--item", o->item, error)) == NULL)
      return NULL;

  if (!dyn_request_set_expressions_json (request, keys, o->key_condition, o->filter, o->condition,
                                o->update, o->projection, o->names, o->values, error))
    return NULL;

  return g_steal_pointer (&request);
}

/* A Query or Scan as the options describe it: the same object plans it,
 * compiles it, writes its snippet and sends it. */
static DynReadRequest *
build_read (Options             *o,
            const DynTableKeys  *keys,
            gint64               page_limit,
            GError             **error)
{
  const char *table = table_arg (o, error);
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(DynReadRequest) read = NULL;
  DynReadSpec spec = { 0 };
  const GError *problem;

  if (table == NULL)
    return NULL;
  /* The user's maps are only for parsing: the compiler names placeholders anew. */
  if (!dyn_expression_maps_from_json (o->names, o->values, &names, &values, error))
    return NULL;
  spec.table = table;
  spec.index = o->index;
  spec.mode = DYN_READ_EXPLICIT;
  spec.key_condition = o->key_condition;
  spec.filter = o->filter;
  spec.projection = o->projection;
  spec.names = names;
  spec.values = values;
  spec.limit = page_limit;
  spec.descending = o->desc;
  spec.consistent_read = o->consistent;
  read = dyn_read_request_new (keys, &spec);

  problem = dyn_read_request_get_error (read);
  if (problem != NULL)
    {
      const char *field = dyn_read_request_get_error_field (read);

      if (field != NULL)
        g_set_error (error, problem->domain, problem->code, "%s: %s", field, problem->message);
      else
        g_set_error_literal (error, problem->domain, problem->code, problem->message);
      return NULL;
    }
  return g_steal_pointer (&read);
}

/* Commands ---------------------------------------------------------------- */

/* The table's keys, to check expressions against and to plan with. A caller
 * without DescribeTable permission still gets its request sent, unchecked. */
static gboolean
describe_keys (Options       *o,
               DynClient     *client,
               DynTableKeys **keys,
               JsonObject   **description,
               GError       **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonObject) table = NULL;
  const char *name = table_arg (o, error);

  *keys = NULL;
  if (name == NULL)
    return FALSE;
  dyn_client_describe_table_async (client, name, NULL, store_result_cb, &result);
  table = dyn_client_describe_table_finish (client, wait_for (&result), keys, &local_error);
  if (table == NULL)
    {
      if (g_error_matches (local_error, DYN_ERROR, DYN_ERROR_ACCESS_DENIED))
        {
          g_debug ("DescribeTable denied; expressions go unchecked: %s", local_error->message);
          return TRUE;
        }
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (description != NULL)
    *description = g_steal_pointer (&table);
  return TRUE;
}

/* An empty list from DynamoDB Local: say why (one database per access key
 * and region), naming the access key the profile resolves to. */
static void
print_no_tables_hint (Options   *o,
                      DynClient *client)
{
  DynResolveOptions options = { 0 };
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynCredentials) credentials = NULL;
  g_autofree char *probe = NULL;
  g_autofree char *hint = NULL;

  if ((probe = dyn_local_no_tables_hint (dyn_client_get_endpoint (client), NULL, NULL)) == NULL)
    return;
  options.profile = o->profile;
  options.region = o->region;
  options.endpoint_url = o->endpoint;
  if ((profile = dyn_sign_in_resolve (NULL, &options, NULL, NULL)) != NULL)
    {
      DynCredentialsProvider *provider = dyn_profile_get_credentials_provider (profile);

      dyn_credentials_provider_get_async (provider, NULL, store_result_cb, &result);
      credentials = dyn_credentials_provider_get_finish (provider, wait_for (&result), NULL);
    }
  hint = dyn_local_no_tables_hint (dyn_client_get_endpoint (client),
                                   credentials != NULL ? credentials->access_key_id : NULL,
                                   dyn_client_get_region (client));
  fprintf (stderr, "%s\n", hint);
}

static gboolean
cmd_tables (Options    *o,
            DynClient  *client,
            GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) names = NULL;

  dyn_client_list_tables_async (client, NULL, store_result_cb, &result);
  names = dyn_client_list_tables_finish (client, wait_for (&result), error);
  if (names == NULL)
    return FALSE;
  for (guint i = 0; names[i]; i++)
    puts (names[i]);
  if (names[0] == NULL)
    print_no_tables_hint (o, client);
  return TRUE;
}

static gboolean
cmd_table_op (Options     *o,
              DynClient   *client,
              const char  *operation,
              GError     **error)
{
  const char *table = table_arg (o, error);
  g_autoptr(JsonObject) obj = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(DynResponse) response = NULL;

  if (table == NULL)
    return FALSE;
  obj = json_object_new ();
  json_object_set_string_member (obj, "TableName", table);
  params = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (params, obj);
  response = call (client, operation, params, error);
  if (response == NULL)
    return FALSE;
  count_response (o, response);
  print_json (response->root);
  return TRUE;
}

/* describe TABLE --text: the table as "title: value" lines. */
static gboolean
cmd_describe_text (Options    *o,
                   DynClient  *client,
                   GError    **error)
{
  const char *table = table_arg (o, error);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynTableInfo) info = NULL;
  g_autofree char *text = NULL;

  if (table == NULL)
    return FALSE;
  dyn_table_info_load_async (client, table, NULL, store_result_cb, &result);
  info = dyn_table_info_load_finish (wait_for (&result), error);
  if (info == NULL)
    return FALSE;
  text = dyn_table_info_to_text (info);
  fputs (text, stdout);
  return TRUE;
}

static void
print_page_cb (GPtrArray *items,
               gpointer   user_data)
{
  Options *o = user_data;

  for (guint i = 0; i < items->len; i++)
    print_item (o, items->pdata[i]);
}

static gboolean
cmd_read (Options       *o,
          DynClient     *client,
          DynOperation   op,
          GError       **error)
{
  g_autoptr(DynReadRequest) read = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  const DynReadStats *stats;
  gboolean ok;

  if (op == DYN_OP_QUERY && o->key_condition == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "query needs --key-condition");
      return FALSE;
    }
  if (!describe_keys (o, client, &keys, NULL, error))
    return FALSE;
  read = build_read (o, keys, 0, error);
  if (read == NULL)
    return FALSE;

  /* --limit is the number of items wanted, not the page size: the pager
   * sends a Limit only where it cannot change the result. */
  pager = dyn_read_request_new_pager (read, client);
  dyn_pager_set_max_items (pager, o->limit);
  dyn_pager_run_async (pager, o->segments, 0, print_page_cb, o, NULL, store_result_cb, &result);
  ok = dyn_pager_run_finish (pager, wait_for (&result), error);

  stats = dyn_pager_get_stats (pager);
  o->read_stats = TRUE;
  o->totals.requests += stats->requests;
  o->totals.pages += stats->pages;
  o->totals.read_units += stats->read_units;
  o->totals.items += stats->items;
  o->totals.scanned += stats->scanned;
  return ok;
}

static gboolean
cmd_item (Options       *o,
          DynClient     *client,
          DynOperation   op,
          GError       **error)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(DynResponse) response = NULL;

  if ((o->condition || o->update || o->projection) && !describe_keys (o, client, &keys, NULL, error))
    return FALSE;
  request = build_request (o, op, keys, error);
  if (request == NULL)
    return FALSE;
  if (op == DYN_OP_UPDATE_ITEM && request->update == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "update needs --update");
      return FALSE;
    }

  dyn_client_execute_async (client, request, NULL, store_result_cb, &result);
  response = dyn_client_execute_finish (client, wait_for (&result), error);
  if (response == NULL)
    return FALSE;
  count_response (o, response);
  if (response->item != NULL)
    print_item (o, response->item);
  return TRUE;
}

static gboolean
cmd_batch_write (Options    *o,
                 DynClient  *client,
                 GError    **error)
{
  const char *table = table_arg (o, error);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
  g_autoptr(GAsyncResult) result = NULL;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  guint lineno = 0;
  guint requests = 0;

  if (table == NULL)
    return FALSE;

  while ((len = getline (&line, &cap, stdin)) >= 0)
    {
      g_autofree char *what = NULL;
      DynValue *item;

      lineno++;
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
      if (len == 0)
        continue;
      what = g_strdup_printf ("standard input line %u", lineno);
      item = parse_item_arg (o, what, line, error);
      if (item == NULL)
        {
          free (line);
          return FALSE;
        }
      g_ptr_array_add (items, item);
    }
  free (line);

  dyn_client_batch_write_async (client, table, items, NULL, NULL, store_result_cb, &result);
  if (!dyn_client_batch_write_finish (client, wait_for (&result), &requests, error))
    return FALSE;
  o->totals.requests += requests;
  o->totals.pages += requests;
  fprintf (stderr, "wrote %u items in %u requests\n", items->len, requests);
  return TRUE;
}

/* --parameters: a JSON list of the ? values, DynamoDB JSON ([{"S": "a"}, {"N": "1"}])
 * when every element reads as such, else plain JSON (["a", 1]). */
static DynValue *
partiql_parameters (const char  *text,
                    GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DynValue) list = NULL;
  JsonArray *array;
  gboolean ddb = TRUE;

  root = dyn_json_parse (text, strlen (text), error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--parameters takes a JSON list of values");
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint pass = 0; pass < 2; pass++)
    {
      list = dyn_value_new_list ();
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);
          g_autoptr(GError) local_error = NULL;
          DynValue *value = ddb ? dyn_value_from_ddb_json (node, &local_error)
                                : dyn_value_from_plain_json (node, &local_error);
          if (value == NULL)
            {
              if (!ddb)
                {
                  g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                              "--parameters, value %u: ", i + 1);
                  return NULL;
                }
              ddb = FALSE;
              break;
            }
          dyn_value_list_take (list, value);
        }
      if (dyn_value_get_length (list) == json_array_get_length (array))
        break;
      g_clear_pointer (&list, dyn_value_unref);
    }
  return g_steal_pointer (&list);
}

static const DynTableKeys *
lint_schema (const char *table,
             gpointer    user_data)
{
  return g_hash_table_lookup (user_data, table);
}

/* partiql --lint: the key schema of each table named, from DescribeTable, and
 * the table list (ListTables) for unknown names; without permission for them
 * the key rules are skipped. */
static gboolean
cmd_partiql_lint (DynClient   *client,
                  const char  *text,
                  GError     **error)
{
  g_autoptr(GHashTable) schemas = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) dyn_table_keys_free);
  g_autoptr(GPtrArray) statements = dyn_partiql_split (text);
  g_autoptr(GPtrArray) diags = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) tables = NULL;
  gboolean errors = FALSE;

  g_autoptr(GError) list_error = NULL;

  dyn_client_list_tables_async (client, NULL, store_result_cb, &result);
  tables = dyn_client_list_tables_finish (client, wait_for (&result), &list_error);
  /* Lint all the same (syntax and the rules that need no table), but say
   * what could not be checked: a quiet pass would read as "fine". */
  if (tables == NULL)
    fprintf (stderr, "note: the table list could not be read (%s): unknown tables are not reported\n",
             list_error != NULL ? list_error->message : "no answer");
  for (guint i = 0; i < statements->len; i++)
    {
      g_autoptr(DynPartiqlInfo) info = dyn_partiql_inspect (statements->pdata[i]);
      g_autoptr(GAsyncResult) described = NULL;
      g_autoptr(JsonObject) table = NULL;
      g_autoptr(GError) describe_error = NULL;
      DynTableKeys *keys = NULL;

      if (info->table == NULL || g_hash_table_contains (schemas, info->table)
          || (tables != NULL && !g_strv_contains ((const char * const *) tables, info->table)))
        continue;
      dyn_client_describe_table_async (client, info->table, NULL, store_result_cb, &described);
      table = dyn_client_describe_table_finish (client, wait_for (&described), &keys, &describe_error);
      if (keys != NULL)
        g_hash_table_insert (schemas, g_strdup (info->table), keys);
      else
        fprintf (stderr, "note: the key schema of %s could not be read (%s): its key rules (full Scan, "
                 "the key of a write) are not checked\n", info->table,
                 describe_error != NULL ? describe_error->message : "no key schema");
    }
  diags = dyn_partiql_lint_with_tables (text, lint_schema, schemas, (const char * const *) tables);
  for (guint i = 0; i < diags->len; i++)
    {
      const DynPartiqlDiagnostic *d = diags->pdata[i];
      const char *severity = d->severity == DYN_PARTIQL_ERROR ? "error"
                             : d->severity == DYN_PARTIQL_WARNING ? "warning" : "info";

      printf ("%u:%u: %s: %s\n", d->line, d->column, severity, d->message);
      if (d->severity == DYN_PARTIQL_ERROR)
        errors = TRUE;
    }
  (void) error;
  return !errors;
}

static void
print_page (Options        *o,
            DynPartiqlPage *page)
{
  o->totals.pages++;
  o->totals.read_units += page->read_units;
  o->totals.write_units += page->write_units;
  for (guint i = 0; i < page->items->len; i++)
    print_item (o, page->items->pdata[i]);
}

static gboolean
cmd_partiql (Options    *o,
             DynClient  *client,
             GError    **error)
{
  g_autoptr(DynValue) values = NULL;
  g_autoptr(GPtrArray) statements = NULL;
  g_autofree char *next = NULL;

  if (o->args->len < 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "partiql needs a statement");
      return FALSE;
    }
  if (o->lint)
    return cmd_partiql_lint (client, o->args->pdata[1], error);
  if (o->parameters != NULL && (values = partiql_parameters (o->parameters, error)) == NULL)
    return FALSE;

  statements = dyn_partiql_split (o->args->pdata[1]);
  if (statements->len == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "partiql needs a statement");
      return FALSE;
    }
  if (statements->len > 1)
    {
      /* One ExecuteTransaction; the ? values go to the statements in order. */
      g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_value_unref);
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(DynPartiqlPage) page = NULL;
      guint used = 0;
      guint have = values != NULL ? dyn_value_get_length (values) : 0;

      for (guint i = 0; i < statements->len; i++)
        {
          g_autoptr(DynPartiqlInfo) info = dyn_partiql_inspect (statements->pdata[i]);
          DynValue *list = dyn_value_new_list ();

          for (guint j = 0; j < info->n_parameters && used < have; j++)
            dyn_value_list_append (list, dyn_value_list_get (values, used++));
          g_ptr_array_add (lists, list);
        }
      if (used != have)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--parameters has %u values, the statements have %u ?", have, used);
          return FALSE;
        }
      dyn_partiql_transaction_async (client, statements, lists, NULL, store_result_cb, &result);
      page = dyn_partiql_transaction_finish (client, wait_for (&result), error);
      if (page == NULL)
        return FALSE;
      o->totals.requests++;
      print_page (o, page);
      return TRUE;
    }

  /* Follow NextToken with the identical text: a SELECT may come back in several pages. */
  do
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(DynPartiqlPage) page = NULL;

      dyn_partiql_execute_async (client, statements->pdata[0], values, next, NULL, store_result_cb, &result);
      page = dyn_partiql_execute_finish (client, wait_for (&result), error);
      if (page == NULL)
        return FALSE;
      o->totals.requests++;
      print_page (o, page);
      g_free (next);
      next = g_strdup (page->next_token);
    }
  while (next != NULL);
  return TRUE;
}

static const struct {
  const char   *kind;
  DynOperation  op;
  gsize         offset;
} expr_kinds[] = {
  { "key", DYN_OP_QUERY, G_STRUCT_OFFSET (Options, key_condition) },
  { "filter", DYN_OP_SCAN, G_STRUCT_OFFSET (Options, filter) },
  { "condition", DYN_OP_PUT_ITEM, G_STRUCT_OFFSET (Options, condition) },
  { "update", DYN_OP_UPDATE_ITEM, G_STRUCT_OFFSET (Options, update) },
  { "projection", DYN_OP_SCAN, G_STRUCT_OFFSET (Options, projection) },
};

static gboolean
cmd_expr (Options  *o,
          GError  **error)
{
  g_autoptr(DynRequest) request = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  GHashTableIter iter;
  gpointer k, v;
  guint which = G_N_ELEMENTS (expr_kinds);
  char *expression = NULL;

  for (guint i = 0; o->kind != NULL && i < G_N_ELEMENTS (expr_kinds); i++)
    if (strcmp (o->kind, expr_kinds[i].kind) == 0)
      which = i;
  if (which == G_N_ELEMENTS (expr_kinds) || o->args->len != 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "usage: expr --kind key|filter|condition|update|projection TEXT");
      return FALSE;
    }

  request = dyn_request_new (expr_kinds[which].op, "-");
  if (!dyn_request_set_expressions_json (request, NULL,
                                which == 0 ? o->args->pdata[1] : NULL,
                                which == 1 ? o->args->pdata[1] : NULL,
                                which == 2 ? o->args->pdata[1] : NULL,
                                which == 3 ? o->args->pdata[1] : NULL,
                                which == 4 ? o->args->pdata[1] : NULL,
                                o->names, o->values, error))
    return FALSE;
  switch (which)
    {
    case 0: expression = request->key_condition; break;
    case 1: expression = request->filter; break;
    case 2: expression = request->condition; break;
    case 3: expression = request->update; break;
    default: expression = request->projection; break;
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "expression");
  json_builder_add_string_value (b, expression);
  json_builder_set_member_name (b, "names");
  json_builder_begin_object (b);
  g_hash_table_iter_init (&iter, request->names);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      json_builder_set_member_name (b, k);
      json_builder_add_string_value (b, v);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "values");
  json_builder_begin_object (b);
  g_hash_table_iter_init (&iter, request->values);
  while (g_hash_table_iter_next (&iter, &k, &v))
    {
      json_builder_set_member_name (b, k);
      json_builder_add_value (b, dyn_value_to_ddb_json (v));
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  puts (text);
  return TRUE;
}

static gboolean
cmd_plan (Options    *o,
          DynClient  *client,
          GError    **error)
{
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynReadRequest) read = NULL;
  const DynExprPlan *plan;

  if (!describe_keys (o, client, &keys, NULL, error))
    return FALSE;
  if (keys == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_ACCESS_DENIED,
                   "plan needs DescribeTable to know the table's keys");
      return FALSE;
    }

  read = build_read (o, keys, 0, error);
  if (read == NULL)
    return FALSE;
  plan = dyn_read_request_get_plan (read);
  printf ("operation: %s\n", plan->operation == DYN_EXPR_PLAN_QUERY ? "Query" : "Scan");
  printf ("index: %s\n", plan->index_name ? plan->index_name : "(table)");
  printf ("reason: %s\n", plan->reason);
  if (plan->suggestion != NULL)
    printf ("suggestion: %s\n", plan->suggestion);
  if (plan->suggested_key_condition != NULL)
    {
      g_autofree char *t = dyn_expr_node_to_string (plan->suggested_key_condition);
      printf ("suggested key condition: %s\n", t);
    }
  if (plan->suggested_filter != NULL)
    {
      g_autofree char *t = dyn_expr_node_to_string (plan->suggested_filter);
      printf ("suggested filter: %s\n", t);
    }
  /* What is sent, as the query and scan commands send it. */
  {
    g_autoptr(JsonNode) body = dyn_read_request_dup_body (read);
    g_autofree char *text = json_to_string (body, FALSE);

    printf ("request: %s %s\n", dyn_operation_get_name (dyn_read_request_get_operation (read)), text);
  }
  return TRUE;
}

static gboolean
cmd_snippet (Options  *o,
             GError  **error)
{
  static const struct { const char *name; DynOperation op; } ops[] = {
    { "get", DYN_OP_GET_ITEM }, { "put", DYN_OP_PUT_ITEM }, { "update", DYN_OP_UPDATE_ITEM },
    { "delete", DYN_OP_DELETE_ITEM }, { "query", DYN_OP_QUERY }, { "scan", DYN_OP_SCAN },
  };
  g_autoptr(DynRequest) request = NULL;
  g_autofree char *region = NULL;
  g_autofree char *endpoint = NULL;
  g_autofree char *code = NULL;
  DynSnippetLanguage lang;
  int op = -1;

  if (o->lang == NULL || !dyn_snippet_language_from_string (o->lang, &lang))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "snippet needs --lang cli, boto3, js, go or java");
      return FALSE;
    }
  for (guint i = 0; o->args->len >= 2 && i < G_N_ELEMENTS (ops); i++)
    if (strcmp (o->args->pdata[1], ops[i].name) == 0)
      op = ops[i].op;
  if (op < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "usage: snippet --lang L get|put|update|delete|query|scan TABLE …");
      return FALSE;
    }
  /* "snippet query T" reads like "query T" from here on. */
  g_ptr_array_remove_index (o->args, 0);
  if (op == DYN_OP_QUERY && o->key_condition == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "query needs --key-condition");
      return FALSE;
    }
  if (!dyn_connect_resolve_location (o->profile, o->region, o->endpoint, &region, &endpoint, error))
    return FALSE;
  if (op == DYN_OP_QUERY || op == DYN_OP_SCAN)
    {
      /* Reads: the object that plans and sends them writes them. */
      g_autoptr(DynReadRequest) read = build_read (o, NULL, o->limit, error);

      if (read == NULL)
        return FALSE;
      code = dyn_read_request_dup_snippet (read, lang, endpoint, region);
    }
  else
    {
      request = build_request (o, op, NULL, error);
      if (request == NULL)
        return FALSE;
      code = dyn_snippet_generate (lang, request, endpoint, region);
    }
  fputs (code, stdout);
  if (*code && code[strlen (code) - 1] != '\n')
    fputc ('\n', stdout);
  return TRUE;
}

/* sql: rows as they arrive, one plain-JSON object a line. */
static void
print_rows_cb (GPtrArray *rows,
               gpointer   user_data)
{
  Options *o = user_data;
  for (guint i = 0; i < rows->len; i++)
    {
      g_autofree char *line = dyn_sql_row_to_json_line ((const char * const *) o->sql_columns, rows->pdata[i]);
      puts (line);
      o->printed++;
    }
  g_ptr_array_set_size (rows, 0);
}

static gboolean
cmd_sql (Options    *o,
         DynClient  *client,
         GError    **error)
{
  g_autoptr(DynSqlEngine) engine = dyn_sql_engine_new (client);
  g_autoptr(GAsyncResult) result = NULL;

  if (o->args->len < 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "sql needs a statement");
      return FALSE;
    }
  dyn_sql_engine_set_allow_scan (engine, o->allow_scan);
  if (o->segments > 1)
    dyn_sql_engine_set_segments (engine, o->segments);

  /* The plan first: it names the columns, and --explain stops there. */
  {
    g_autoptr(DynSqlPlan) plan = NULL;
    g_autoptr(GAsyncResult) explained = NULL;

    dyn_sql_engine_explain_async (engine, o->args->pdata[1], NULL, store_result_cb, &explained);
    plan = dyn_sql_engine_explain_finish (engine, wait_for (&explained), error);
    if (plan == NULL)
      return FALSE;
    if (o->explain)
      {
        g_autofree char *text = dyn_sql_plan_to_text (plan);
        fputs (text, stdout);
        return TRUE;
      }
    o->sql_columns = g_strdupv ((char **) dyn_sql_plan_get_columns (plan));
  }

  {
    g_autoptr(DynSqlResult) res = NULL;
    guint requests, pages;
    double units;

    dyn_sql_engine_run_async (engine, o->args->pdata[1], print_rows_cb, o, NULL, store_result_cb, &result);
    res = dyn_sql_engine_run_finish (engine, wait_for (&result), error);
    if (res == NULL)
      return FALSE;
    dyn_sql_result_get_totals (res, &requests, &pages, &units);
    o->totals.requests += requests;
    o->totals.pages += pages;
    o->totals.read_units += units;
  }
  return TRUE;
}

static void
print_error (const GError *error)
{
  const DynErrorDetails *details = dyn_error_get_details (error);

  if (details != NULL && details->aws_code != NULL)
    {
      fprintf (stderr, "error: %s: %s\n", details->aws_code,
               details->message ? details->message : error->message);
      if (details->request_id != NULL)
        fprintf (stderr, "request id: %s\n", details->request_id);
    }
  else
    fprintf (stderr, "error: %s\n", error->message);

  /* Per-action reasons of a cancelled transaction, when there are any. */
  {
    g_autoptr(JsonArray) reasons = dyn_error_get_cancellation_reasons (error);
    for (guint i = 0; reasons && i < json_array_get_length (reasons); i++)
      {
        JsonObject *r = json_array_get_object_element (reasons, i);
        fprintf (stderr, "  action %u: %s\n", i,
                 r ? json_object_get_string_member_with_default (r, "Code", "?") : "?");
      }
  }
}

int
main (int    argc,
      char **argv)
{
  g_auto(Options) o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = NULL;
  const char *command;
  gboolean ok = FALSE;
  static char outbuf[1 << 16];

  setlocale (LC_ALL, "");
  /* client/'s messages (errors with their positions) are translated. */
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  setvbuf (stdout, outbuf, _IOFBF, sizeof outbuf);

  /* --mfa-code is global: taken out before any command parses its options. */
  if (!dyn_cli_signin_setup (&argc, argv, &error))
    {
      fprintf (stderr, "error: %s\n", error->message);
      return 2;
    }

  /* `design …` parses its own options (dyn-cli-design.c); global options
   * may stand before it. */
  for (int i = 1; i < argc; i++)
    {
      if (g_str_has_prefix (argv[i], "--"))
        {
          if (strchr (argv[i], '=') == NULL && strcmp (argv[i], "--insecure") != 0 &&
              strcmp (argv[i], "--plain") != 0 && strcmp (argv[i], "--stats") != 0 &&
              strcmp (argv[i], "--help") != 0 && strcmp (argv[i], "--no-browser") != 0)
            i++;
          continue;
        }
      if (dyn_cli_transfer_handles (argv[i]))
        {
          /* The data and table commands parse their own options (dyn-cli-transfer.c). */
          g_autoptr(GPtrArray) transfer_argv = g_ptr_array_new ();
          g_ptr_array_add (transfer_argv, argv[i]);
          for (int j = 1; j < argc; j++)
            if (j != i)
              g_ptr_array_add (transfer_argv, argv[j]);
          g_ptr_array_add (transfer_argv, NULL);
          return dyn_cli_transfer (transfer_argv->len - 1, (char **) transfer_argv->pdata);
        }
      if (dyn_cli_signin_handles (argv[i]))
        {
          /* whoami and login parse their own options (dyn-cli-signin.c). */
          g_autoptr(GPtrArray) signin_argv = g_ptr_array_new ();
          g_ptr_array_add (signin_argv, argv[i]);
          for (int j = 1; j < argc; j++)
            if (j != i)
              g_ptr_array_add (signin_argv, argv[j]);
          g_ptr_array_add (signin_argv, NULL);
          return dyn_cli_signin (signin_argv->len - 1, (char **) signin_argv->pdata);
        }
      if (strcmp (argv[i], "design") == 0)
        {
          g_autoptr(GPtrArray) design_argv = g_ptr_array_new ();
          g_ptr_array_add (design_argv, argv[i]);
          for (int j = 1; j < argc; j++)
            if (j != i)
              g_ptr_array_add (design_argv, argv[j]);
          g_ptr_array_add (design_argv, NULL);
          return dyn_cli_design (design_argv->len - 1, (char **) design_argv->pdata);
        }
      break;
    }

  if (!parse_args (&o, argc, argv, &error))
    {
      fprintf (stderr, "error: %s\n", error->message);
      return 2;
    }
  if (o.args->len == 0)
    {
      fputs (usage, stderr);
      return 2;
    }
  command = o.args->pdata[0];

  if (strcmp (command, "expr") == 0)
    {
      ok = cmd_expr (&o, &error);
      goto out;
    }
  if (strcmp (command, "snippet") == 0)
    {
      ok = cmd_snippet (&o, &error);
      goto out;
    }

  client = dyn_connect (o.profile, o.region, o.endpoint, o.insecure, &error);
  if (client == NULL)
    goto out;

  if (strcmp (command, "tables") == 0)
    ok = cmd_tables (&o, client, &error);
  else if (strcmp (command, "describe") == 0 && o.text)
    ok = cmd_describe_text (&o, client, &error);
  else if (strcmp (command, "describe") == 0)
    ok = cmd_table_op (&o, client, "DescribeTable", &error);
  else if (strcmp (command, "delete-table") == 0)
    ok = cmd_table_op (&o, client, "DeleteTable", &error);
  else if (strcmp (command, "scan") == 0)
    ok = cmd_read (&o, client, DYN_OP_SCAN, &error);
  else if (strcmp (command, "query") == 0)
    ok = cmd_read (&o, client, DYN_OP_QUERY, &error);
  else if (strcmp (command, "get") == 0)
    ok = cmd_item (&o, client, DYN_OP_GET_ITEM, &error);
  else if (strcmp (command, "put") == 0)
    ok = cmd_item (&o, client, DYN_OP_PUT_ITEM, &error);
  else if (strcmp (command, "update") == 0)
    ok = cmd_item (&o, client, DYN_OP_UPDATE_ITEM, &error);
  else if (strcmp (command, "delete") == 0)
    ok = cmd_item (&o, client, DYN_OP_DELETE_ITEM, &error);
  else if (strcmp (command, "batch-write") == 0)
    ok = cmd_batch_write (&o, client, &error);
  else if (strcmp (command, "partiql") == 0)
    ok = cmd_partiql (&o, client, &error);
  else if (strcmp (command, "apply") == 0)
    ok = dyn_cli_apply (client, o.args->len > 1 ? o.args->pdata[1] : NULL, o.version_attribute,
                        o.dry_run, o.plain, &o.totals, &error);
  else if (strcmp (command, "plan") == 0)
    ok = cmd_plan (&o, client, &error);
  else if (strcmp (command, "sql") == 0)
    ok = cmd_sql (&o, client, &error);
  else
    g_set_error (&error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                 "Unknown command “%s” (see --help)", command);

out:
  fflush (stdout);
  print_stats (&o);
  if (!ok && error != NULL)
    print_error (error);
  return ok ? 0 : 1;
}
