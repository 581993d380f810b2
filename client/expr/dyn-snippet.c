/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-snippet"

#include "config.h"

#include <math.h>
#include <string.h>

#include "dyn-json.h"
#include "dyn-request-private.h"
#include "dyn-snippet.h"

/* Every generator works from the same list of parameters: the ones of the
 * request that apply to its operation, in the order DynamoDB's documentation
 * lists them. Each language then only decides how to spell them. User text
 * (names, values, expressions) only ever goes into string literals, never
 * into comments, so no escape sequence can end a comment early. */

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

/* Parameters ------------------------------------------------------------------ */

typedef enum {
  PARAM_STRING,
  PARAM_ENUM,
  PARAM_BOOL,
  PARAM_INT,
  PARAM_ITEM,
  PARAM_NAMES,
  PARAM_VALUES,
} ParamKind;

typedef struct {
  const char     *name;      /* the wire name, "TableName" */
  ParamKind       kind;
  const char     *string;
  gint64          number;
  gboolean        boolean;
  const DynValue *item;
  GHashTable     *map;
  GPtrArray      *keys;      /* sorted keys of @map, owned */
} Param;

#define OP(o) (1u << (o))
#define READS (OP (DYN_OP_QUERY) | OP (DYN_OP_SCAN))
#define WRITES (OP (DYN_OP_PUT_ITEM) | OP (DYN_OP_UPDATE_ITEM) | OP (DYN_OP_DELETE_ITEM))

static void
param_clear (gpointer data)
{
  Param *p = data;

  g_clear_pointer (&p->keys, g_ptr_array_unref);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static void
add_string (GArray      *params,
            guint        ops,
            DynOperation op,
            const char  *name,
            ParamKind    kind,
            const char  *value)
{
  Param p = { name, kind, value, 0, FALSE, NULL, NULL, NULL };

  if (value != NULL && (ops & OP (op)) != 0)
    g_array_append_val (params, p);
}

static void
add_item (GArray         *params,
          const char     *name,
          const DynValue *item)
{
  Param p = { name, PARAM_ITEM, NULL, 0, FALSE, item, NULL, NULL };

  if (item != NULL && dyn_value_get_value_type (item) == DYN_VALUE_M)
    g_array_append_val (params, p);
}

static void
add_int (GArray     *params,
         const char *name,
         gint64      number)
{
  Param p = { name, PARAM_INT, NULL, number, FALSE, NULL, NULL, NULL };

  g_array_append_val (params, p);
}

static void
add_bool (GArray     *params,
          const char *name,
          gboolean    value)
{
  Param p = { name, PARAM_BOOL, NULL, 0, value, NULL, NULL, NULL };

  g_array_append_val (params, p);
}

static void
add_map (GArray     *params,
         const char *name,
         ParamKind   kind,
         GHashTable *map)
{
  Param p = { name, kind, NULL, 0, FALSE, NULL, map, NULL };

  if (map == NULL || g_hash_table_size (map) == 0)
    return;
  p.keys = _dyn_request_sorted_keys (map);
  g_array_append_val (params, p);
}

static GArray *
collect_params (const DynRequest *req)
{
  GArray *params = g_array_new (FALSE, TRUE, sizeof (Param));
  DynOperation op = req->op;
  guint bit = OP (op);

  g_array_set_clear_func (params, param_clear);

  add_string (params, ~0u, op, "TableName", PARAM_STRING, req->table);
  add_string (params, READS, op, "IndexName", PARAM_STRING, req->index);
  if (bit & (OP (DYN_OP_GET_ITEM) | OP (DYN_OP_UPDATE_ITEM) | OP (DYN_OP_DELETE_ITEM)))
    add_item (params, "Key", req->key);
  if (op == DYN_OP_PUT_ITEM)
    add_item (params, "Item", req->item);
  add_string (params, OP (DYN_OP_QUERY), op, "KeyConditionExpression", PARAM_STRING, req->key_condition);
  add_string (params, OP (DYN_OP_UPDATE_ITEM), op, "UpdateExpression", PARAM_STRING, req->update);
  add_string (params, WRITES, op, "ConditionExpression", PARAM_STRING, req->condition);
  add_string (params, READS, op, "FilterExpression", PARAM_STRING, req->filter);
  add_string (params, READS | OP (DYN_OP_GET_ITEM), op, "ProjectionExpression", PARAM_STRING, req->projection);
  add_map (params, "ExpressionAttributeNames", PARAM_NAMES, req->names);
  if (op != DYN_OP_GET_ITEM)
    add_map (params, "ExpressionAttributeValues", PARAM_VALUES, req->values);
  add_string (params, READS, op, "Select", PARAM_ENUM, req->select);
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
  add_string (params, WRITES, op, "ReturnValues", PARAM_ENUM, req->return_values);
  add_string (params, WRITES, op, "ReturnValuesOnConditionCheckFailure", PARAM_ENUM,
              req->return_values_on_condition_check_failure);
  return params;
}

/* What the program does with the response. */
typedef enum {
  ACTION_ITEMS,        /* Query/Scan: every page, every item */
  ACTION_COUNT,        /* Query/Scan with Select=COUNT: the total */
  ACTION_ITEM,         /* GetItem */
  ACTION_ATTRIBUTES,   /* a write that returns values */
  ACTION_NONE,         /* a write that returns nothing */
} Action;

static Action
request_action (const DynRequest *req)
{
  switch (req->op)
    {
    case DYN_OP_QUERY:
    case DYN_OP_SCAN:
      return g_strcmp0 (req->select, "COUNT") == 0 ? ACTION_COUNT : ACTION_ITEMS;
    case DYN_OP_GET_ITEM:
      return ACTION_ITEM;
    case DYN_OP_PUT_ITEM:
    case DYN_OP_UPDATE_ITEM:
    case DYN_OP_DELETE_ITEM:
    default:
      return req->return_values != NULL && strcmp (req->return_values, "NONE") != 0
             ? ACTION_ATTRIBUTES : ACTION_NONE;
    }
}

static gboolean
action_prints_items (Action action)
{
  return action == ACTION_ITEMS || action == ACTION_ITEM || action == ACTION_ATTRIBUTES;
}

static gboolean
has_limit (GArray *params)
{
  for (guint i = 0; i < params->len; i++)
    if (strcmp (g_array_index (params, Param, i).name, "Limit") == 0)
      return TRUE;
  return FALSE;
}

/* Whether @v holds a binary value at any depth. */
static gboolean
value_has_binary (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_B:
    case DYN_VALUE_BS:
      return TRUE;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (value_has_binary (dyn_value_map_get_value (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (value_has_binary (dyn_value_list_get (v, i)))
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

static gboolean
params_have_type (GArray      *params,
                  gboolean   (*check) (const DynValue *))
{
  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);

      if (p->kind == PARAM_ITEM && check (p->item))
        return TRUE;
      if (p->kind == PARAM_VALUES)
        for (guint k = 0; k < p->keys->len; k++)
          if (check (g_hash_table_lookup (p->map, p->keys->pdata[k])))
            return TRUE;
    }
  return FALSE;
}

static gboolean
params_have_values (GArray *params)
{
  for (guint i = 0; i < params->len; i++)
    {
      ParamKind kind = g_array_index (params, Param, i).kind;

      if (kind == PARAM_ITEM || kind == PARAM_VALUES)
        return TRUE;
    }
  return FALSE;
}

static gboolean
bytes_are_text (GBytes *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  for (gsize i = 0; i < len; i++)
    if (data[i] < 0x20 || data[i] > 0x7e)
      return FALSE;
  return TRUE;
}

static void
append_base64 (GString *out,
               GBytes  *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);
  g_autofree char *b64 = g_base64_encode (data, len);

  g_string_append (out, b64);
}

static void
append_indent (GString *out,
               guint    n,
               char     c)
{
  for (guint i = 0; i < n; i++)
    g_string_append_c (out, c);
}

/* "ReturnValues" → "return-values"; lower_first: "returnValues". */
static char *
kebab_case (const char *camel)
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

static char *
lower_camel_case (const char *camel)
{
  char *s = g_strdup (camel);

  s[0] = g_ascii_tolower (s[0]);
  return s;
}

/* "ALL_NEW" → "AllNew". */
static char *
pascal_case (const char *upper_snake)
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

static gboolean
is_known_enum (const char *param,
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
static const char *
enum_type (const char *param)
{
  return strcmp (param, "ReturnValues") == 0 ? "ReturnValue" : param;
}

/* The double-quoted string literals of Python, Go and Java differ only in
 * how they escape control characters and whether they may hold raw UTF-8. */
typedef enum {
  LIT_PYTHON,
  LIT_GO,
  LIT_JAVA,
} LiteralStyle;

static void
append_quoted (GString      *out,
               const char   *str,
               gsize         len,
               LiteralStyle  style)
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
          if (style == LIT_JAVA)
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
              if (style == LIT_JAVA)
                {
                  /* Java turns \uXXXX into source text before it lexes, so a
                   * control character must be an octal escape. */
                  if (c < 0x100)
                    g_string_append_printf (out, "\\%03o", c);
                  else
                    g_string_append_printf (out, "\\u%04x", c);
                }
              else if (style == LIT_GO)
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
          else if (style == LIT_JAVA && c >= 0x80)
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

static void
append_literal (GString      *out,
                const char   *str,
                LiteralStyle  style)
{
  append_quoted (out, str, strlen (str), style);
}

static void
append_json_string (GString    *out,
                    const char *str)
{
  dyn_json_append_string (out, str, strlen (str));
}

static void
append_s_value (GString        *out,
                const DynValue *v,
                LiteralStyle    style)
{
  append_quoted (out, dyn_value_get_string (v), dyn_value_get_string_length (v), style);
}

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

static void
shell_quote (GString    *out,
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

static void
cli_option (GString    *out,
            const char *option,
            const char *value)
{
  g_string_append (out, " \\\n    --");
  g_string_append (out, option);
  if (value == NULL)
    return;
  /* A value that starts with "-" would read as an option. */
  g_string_append_c (out, value[0] == '-' ? '=' : ' ');
  shell_quote (out, value);
}

static char *
cli_names_json (const Param *p)
{
  GString *s = g_string_new ("{");

  for (guint k = 0; k < p->keys->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      append_json_string (s, p->keys->pdata[k]);
      g_string_append (s, ": ");
      append_json_string (s, g_hash_table_lookup (p->map, p->keys->pdata[k]));
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static char *
cli_values_json (const Param *p)
{
  GString *s = g_string_new ("{");

  for (guint k = 0; k < p->keys->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      append_json_string (s, p->keys->pdata[k]);
      g_string_append (s, ": ");
      dyn_json_append_ddb_value (s, g_hash_table_lookup (p->map, p->keys->pdata[k]));
    }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static void
generate_cli (GString          *out,
              const DynRequest *req,
              GArray           *params,
              const char       *endpoint,
              const char       *region)
{
  g_autofree char *command = kebab_case (dyn_operation_get_name (req->op));
  const DynValue *start_key = NULL;

  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);
      if (strcmp (p->name, "ExclusiveStartKey") == 0)
        start_key = p->item;
    }

  g_string_append (out, "#!/bin/sh\n");
  if (has_limit (params))
    g_string_append (out, "# --page-size is DynamoDB's Limit: the CLI still reads every page.\n");
  if (start_key != NULL && value_has_binary (start_key))
    g_string_append (out, "# --exclusive-start-key turns the CLI's paging off: this reads one page.\n");
  else if (start_key != NULL)
    g_string_append (out, "# --starting-token holds the ExclusiveStartKey to begin from.\n");

  g_string_append (out, "aws dynamodb ");
  g_string_append (out, command);

  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);
      g_autofree char *option = kebab_case (p->name);
      g_autofree char *text = NULL;

      switch (p->kind)
        {
        case PARAM_STRING:
        case PARAM_ENUM:
          cli_option (out, option, p->string);
          break;
        case PARAM_BOOL:
          if (p->boolean)
            cli_option (out, option, NULL);
          else
            {
              g_autofree char *negated = g_strconcat ("no-", option, NULL);
              cli_option (out, negated, NULL);
            }
          break;
        case PARAM_INT:
          text = g_strdup_printf ("%" G_GINT64_FORMAT, p->number);
          cli_option (out, strcmp (p->name, "Limit") == 0 ? "page-size" : option, text);
          break;
        case PARAM_ITEM:
          text = dyn_item_to_ddb_json_string (p->item);
          if (strcmp (p->name, "ExclusiveStartKey") == 0 && !value_has_binary (p->item))
            {
              /* The CLI's own token: base64 of {"ExclusiveStartKey": key}. */
              g_autofree char *token_json = g_strdup_printf ("{\"ExclusiveStartKey\": %s}", text);
              g_autofree char *token = g_base64_encode ((const guchar *) token_json, strlen (token_json));

              cli_option (out, "starting-token", token);
            }
          else
            cli_option (out, option, text);
          break;
        case PARAM_NAMES:
          text = cli_names_json (p);
          cli_option (out, option, text);
          break;
        case PARAM_VALUES:
          text = cli_values_json (p);
          cli_option (out, option, text);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  if (endpoint != NULL)
    cli_option (out, "endpoint-url", endpoint);
  if (region != NULL)
    cli_option (out, "region", region);
  cli_option (out, "output", "json");
  g_string_append_c (out, '\n');
}

/* Python (boto3) ----------------------------------------------------------------- */

static void
py_bytes (GString *out,
          GBytes  *bytes)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);

  if (len > 48 && !bytes_are_text (bytes))
    {
      g_string_append (out, "base64.b64decode(\"");
      append_base64 (out, bytes);
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

static gboolean
py_needs_base64 (const DynValue *v)
{
  switch (dyn_value_get_value_type (v))
    {
    case DYN_VALUE_B:
      {
        GBytes *b = dyn_value_get_binary (v);
        return g_bytes_get_size (b) > 48 && !bytes_are_text (b);
      }
    case DYN_VALUE_BS:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        {
          GBytes *b = dyn_value_set_get_binary (v, i);
          if (g_bytes_get_size (b) > 48 && !bytes_are_text (b))
            return TRUE;
        }
      return FALSE;
    case DYN_VALUE_M:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (py_needs_base64 (dyn_value_map_get_value (v, i)))
          return TRUE;
      return FALSE;
    case DYN_VALUE_L:
      for (guint i = 0; i < dyn_value_get_length (v); i++)
        if (py_needs_base64 (dyn_value_list_get (v, i)))
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

static void
py_value (GString        *out,
          const DynValue *v)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append_printf (out, "{\"%s\": ", dyn_value_type_to_string (type));
  switch (type)
    {
    case DYN_VALUE_S:
      append_s_value (out, v, LIT_PYTHON);
      break;
    case DYN_VALUE_N:
      append_literal (out, dyn_value_get_number (v), LIT_PYTHON);
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
          append_literal (out, dyn_value_map_get_name (v, i), LIT_PYTHON);
          g_string_append (out, ": ");
          py_value (out, dyn_value_map_get_value (v, i));
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
          py_value (out, dyn_value_list_get (v, i));
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
            append_literal (out, dyn_value_set_get_string (v, i), LIT_PYTHON);
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
  return params_have_type (params, py_needs_base64);
}

static void
generate_boto3 (GString          *out,
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
  Action action = request_action (req);
  gboolean prints = action_prints_items (action);

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
      append_literal (out, endpoint, LIT_PYTHON);
    }
  if (region != NULL)
    {
      g_string_append (out, ", region_name=");
      append_literal (out, region, LIT_PYTHON);
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
      Param *p = &g_array_index (params, Param, i);

      g_string_append (out, "    ");
      append_literal (out, p->name, LIT_PYTHON);
      g_string_append (out, ": ");
      switch (p->kind)
        {
        case PARAM_STRING:
        case PARAM_ENUM:
          append_literal (out, p->string, LIT_PYTHON);
          break;
        case PARAM_BOOL:
          g_string_append (out, p->boolean ? "True" : "False");
          break;
        case PARAM_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, p->number);
          break;
        case PARAM_ITEM:
          g_string_append (out, "{\n");
          for (guint k = 0; k < dyn_value_get_length (p->item); k++)
            {
              g_string_append (out, "        ");
              append_literal (out, dyn_value_map_get_name (p->item, k), LIT_PYTHON);
              g_string_append (out, ": ");
              py_value (out, dyn_value_map_get_value (p->item, k));
              g_string_append (out, ",\n");
            }
          g_string_append (out, "    }");
          break;
        case PARAM_NAMES:
        case PARAM_VALUES:
          g_string_append (out, "{\n");
          for (guint k = 0; k < p->keys->len; k++)
            {
              gpointer value = g_hash_table_lookup (p->map, p->keys->pdata[k]);

              g_string_append (out, "        ");
              append_literal (out, p->keys->pdata[k], LIT_PYTHON);
              g_string_append (out, ": ");
              if (p->kind == PARAM_NAMES)
                append_literal (out, value, LIT_PYTHON);
              else
                py_value (out, value);
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
    case ACTION_ITEMS:
    case ACTION_COUNT:
      if (has_limit (params))
        g_string_append (out, "# Limit is the page size: the loop reads every page.\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "count = 0\n");
      g_string_append_printf (out,
                              "while True:\n"
                              "    response = client.%s(**params)\n", method);
      if (action == ACTION_COUNT)
        g_string_append (out, "    count += response[\"Count\"]\n");
      else
        g_string_append (out,
                         "    for item in response[\"Items\"]:\n"
                         "        print(dump(item))\n");
      g_string_append (out,
                       "    if \"LastEvaluatedKey\" not in response:\n"
                       "        break\n"
                       "    params[\"ExclusiveStartKey\"] = response[\"LastEvaluatedKey\"]\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "print(count)\n");
      break;
    case ACTION_ITEM:
    case ACTION_ATTRIBUTES:
      {
        const char *member = action == ACTION_ITEM ? "Item" : "Attributes";

        g_string_append_printf (out,
                                "response = client.%s(**params)\n"
                                "if \"%s\" in response:\n"
                                "    print(dump(response[\"%s\"]))\n",
                                method, member, member);
      }
      break;
    case ACTION_NONE:
    default:
      g_string_append_printf (out, "client.%s(**params)\n", method);
      break;
    }
}

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
    append_json_string (out, name);
}

static void
js_bytes (GString *out,
          GBytes  *bytes)
{
  g_string_append (out, "Buffer.from(");
  if (bytes_are_text (bytes))
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      append_json_string (out, text);
    }
  else
    {
      g_string_append_c (out, '"');
      append_base64 (out, bytes);
      g_string_append (out, "\", \"base64\"");
    }
  g_string_append_c (out, ')');
}

static void
js_value (GString        *out,
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
      append_json_string (out, dyn_value_get_number (v));
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
          js_value (out, dyn_value_map_get_value (v, i));
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
          js_value (out, dyn_value_list_get (v, i));
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
            append_json_string (out, dyn_value_set_get_string (v, i));
        }
      g_string_append_c (out, ']');
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append (out, " }");
}

static void
generate_js (GString          *out,
             const DynRequest *req,
             GArray           *params,
             const char       *endpoint,
             const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autofree char *command = g_strconcat (op_name, "Command", NULL);
  Action action = request_action (req);

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
          append_json_string (out, endpoint);
          g_string_append (out, ",\n");
        }
      if (region != NULL)
        {
          g_string_append (out, "  region: ");
          append_json_string (out, region);
          g_string_append (out, ",\n");
        }
      g_string_append (out, "});\n");
    }

  if (action_prints_items (action))
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
      Param *p = &g_array_index (params, Param, i);

      g_string_append_printf (out, "  %s: ", p->name);
      switch (p->kind)
        {
        case PARAM_STRING:
        case PARAM_ENUM:
          append_json_string (out, p->string);
          break;
        case PARAM_BOOL:
          g_string_append (out, p->boolean ? "true" : "false");
          break;
        case PARAM_INT:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, p->number);
          break;
        case PARAM_ITEM:
          g_string_append (out, "{\n");
          for (guint k = 0; k < dyn_value_get_length (p->item); k++)
            {
              g_string_append (out, "    ");
              js_key (out, dyn_value_map_get_name (p->item, k));
              g_string_append (out, ": ");
              js_value (out, dyn_value_map_get_value (p->item, k));
              g_string_append (out, ",\n");
            }
          g_string_append (out, "  }");
          break;
        case PARAM_NAMES:
        case PARAM_VALUES:
          g_string_append (out, "{\n");
          for (guint k = 0; k < p->keys->len; k++)
            {
              gpointer value = g_hash_table_lookup (p->map, p->keys->pdata[k]);

              g_string_append (out, "    ");
              js_key (out, p->keys->pdata[k]);
              g_string_append (out, ": ");
              if (p->kind == PARAM_NAMES)
                append_json_string (out, value);
              else
                js_value (out, value);
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
    case ACTION_ITEMS:
    case ACTION_COUNT:
      if (has_limit (params))
        g_string_append (out, "// Limit is the page size: the loop reads every page.\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "let count = 0;\n");
      g_string_append_printf (out,
                              "do {\n"
                              "  const response = await client.send(new %s(input));\n", command);
      if (action == ACTION_COUNT)
        g_string_append (out, "  count += response.Count ?? 0;\n");
      else
        g_string_append (out,
                         "  for (const item of response.Items ?? []) {\n"
                         "    console.log(toJson(item));\n"
                         "  }\n");
      g_string_append (out,
                       "  input.ExclusiveStartKey = response.LastEvaluatedKey;\n"
                       "} while (input.ExclusiveStartKey);\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "console.log(count);\n");
      break;
    case ACTION_ITEM:
    case ACTION_ATTRIBUTES:
      {
        const char *member = action == ACTION_ITEM ? "Item" : "Attributes";

        g_string_append_printf (out,
                                "const response = await client.send(new %s(input));\n"
                                "if (response.%s) {\n"
                                "  console.log(toJson(response.%s));\n"
                                "}\n",
                                command, member, member);
      }
      break;
    case ACTION_NONE:
    default:
      g_string_append_printf (out, "await client.send(new %s(input));\n", command);
      break;
    }
}

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

static GArray *
go_entries_new (void)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (GoEntry));

  g_array_set_clear_func (entries, go_entry_clear);
  return entries;
}

static void
go_entries_add (GArray *entries,
                char   *key,
                char   *value)
{
  GoEntry e = { key, value };

  g_array_append_val (entries, e);
}

/* The rules of go/printer's exprList: a new alignment section starts at a
 * multi-line element, or when key sizes above 40 differ too much from the
 * section's geometric mean. */
static void
go_append_entries (GString *out,
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
      append_indent (out, indent, '\t');
      g_string_append (out, e->key);
      g_string_append_c (out, ':');
      if (strchr (e->value, '\n') == NULL)
        append_indent (out, width - g_utf8_strlen (e->key, -1) + 1, ' ');
      else
        g_string_append_c (out, ' ');
      g_string_append (out, e->value);
      g_string_append (out, ",\n");
    }
}

static void
go_string (GString    *out,
           const char *str,
           gsize       len)
{
  append_quoted (out, str, len, LIT_GO);
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

static void
go_value (GString        *out,
          const DynValue *v)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append_printf (out, "&types.AttributeValueMember%s{Value: ", dyn_value_type_to_string (type));
  switch (type)
    {
    case DYN_VALUE_S:
      go_string (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
      break;
    case DYN_VALUE_N:
      go_string (out, dyn_value_get_number (v), strlen (dyn_value_get_number (v)));
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
          go_string (out, name, strlen (name));
          g_string_append (out, ": ");
          go_value (out, dyn_value_map_get_value (v, i));
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
          go_value (out, dyn_value_list_get (v, i));
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
              go_string (out, s, strlen (s));
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
go_map_literal (const Param *p,
                guint        indent)
{
  g_autoptr(GArray) entries = go_entries_new ();
  GString *s = g_string_new (NULL);

  if (p->kind == PARAM_ITEM)
    {
      for (guint k = 0; k < dyn_value_get_length (p->item); k++)
        {
          const char *name = dyn_value_map_get_name (p->item, k);
          GString *key = g_string_new (NULL);
          GString *value = g_string_new (NULL);

          go_string (key, name, strlen (name));
          go_value (value, dyn_value_map_get_value (p->item, k));
          go_entries_add (entries, g_string_free (key, FALSE), g_string_free (value, FALSE));
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

          go_string (key, name, strlen (name));
          if (p->kind == PARAM_NAMES)
            go_string (value, v, strlen (v));
          else
            go_value (value, v);
          go_entries_add (entries, g_string_free (key, FALSE), g_string_free (value, FALSE));
        }
    }

  g_string_append (s, p->kind == PARAM_NAMES ? "map[string]string{\n" : "map[string]types.AttributeValue{\n");
  go_append_entries (s, entries, indent);
  append_indent (s, indent - 1, '\t');
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static void
generate_go (GString          *out,
             const DynRequest *req,
             GArray           *params,
             const char       *endpoint,
             const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autoptr(GArray) fields = go_entries_new ();
  Action action = request_action (req);
  gboolean prints = action_prints_items (action);
  gboolean uses_types = prints || params_have_values (params);
  gboolean paged = action == ACTION_ITEMS || action == ACTION_COUNT;

  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);
      GString *value = g_string_new (NULL);

      switch (p->kind)
        {
        case PARAM_STRING:
          g_string_append (value, "aws.String(");
          go_string (value, p->string, strlen (p->string));
          g_string_append_c (value, ')');
          break;
        case PARAM_ENUM:
          uses_types = TRUE;
          if (is_known_enum (p->name, p->string))
            {
              g_autofree char *constant = pascal_case (p->string);
              g_string_append_printf (value, "types.%s%s", enum_type (p->name), constant);
            }
          else
            {
              g_string_append_printf (value, "types.%s(", enum_type (p->name));
              go_string (value, p->string, strlen (p->string));
              g_string_append_c (value, ')');
            }
          break;
        case PARAM_BOOL:
          g_string_append_printf (value, "aws.Bool(%s)", p->boolean ? "true" : "false");
          break;
        case PARAM_INT:
          g_string_append_printf (value, "aws.Int32(%" G_GINT64_FORMAT ")", p->number);
          break;
        case PARAM_ITEM:
        case PARAM_NAMES:
        case PARAM_VALUES:
          {
            g_autofree char *literal = go_map_literal (p, 3);
            g_string_append (value, literal);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      go_entries_add (fields, g_strdup (p->name), g_string_free (value, FALSE));
    }

  g_string_append (out, "package main\n\nimport (\n\t\"context\"\n");
  if (prints)
    g_string_append (out, "\t\"encoding/json\"\n");
  if (prints || action == ACTION_COUNT)
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
      go_string (out, region, strlen (region));
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
      go_string (out, endpoint, strlen (endpoint));
      g_string_append (out, ")\n\t})\n");
    }
  else
    g_string_append (out, "\tclient := dynamodb.NewFromConfig(cfg)\n");

  g_string_append_printf (out, "\n\tinput := &dynamodb.%sInput{\n", op_name);
  go_append_entries (out, fields, 2);
  g_string_append (out, "\t}\n");

  if (paged)
    {
      if (has_limit (params))
        g_string_append (out, "\t// Limit is the page size: the paginator reads every page.\n");
      g_string_append_printf (out, "\tpaginator := dynamodb.New%sPaginator(client, input)\n", op_name);
      if (action == ACTION_COUNT)
        g_string_append (out, "\tvar count int32\n");
      g_string_append (out,
                       "\tfor paginator.HasMorePages() {\n"
                       "\t\tpage, err := paginator.NextPage(ctx)\n"
                       "\t\tif err != nil {\n"
                       "\t\t\tlog.Fatal(err)\n"
                       "\t\t}\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "\t\tcount += page.Count\n");
      else
        g_string_append (out,
                         "\t\tfor _, item := range page.Items {\n"
                         "\t\t\tprintItem(item)\n"
                         "\t\t}\n");
      g_string_append (out, "\t}\n");
      if (action == ACTION_COUNT)
        g_string_append (out, "\tfmt.Println(count)\n");
    }
  else if (action == ACTION_NONE)
    g_string_append_printf (out,
                            "\tif _, err := client.%s(ctx, input); err != nil {\n"
                            "\t\tlog.Fatal(err)\n"
                            "\t}\n", op_name);
  else
    {
      const char *member = action == ACTION_ITEM ? "Item" : "Attributes";

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

/* Java (SDK v2) ------------------------------------------------------------------ */

typedef struct {
  gboolean list;
  gboolean map;
  gboolean base64;
  gboolean sdk_bytes;
} JavaUses;

static void
java_string (GString    *out,
             const char *str,
             gsize       len)
{
  append_quoted (out, str, len, LIT_JAVA);
}

static void
java_bytes (GString  *out,
            GBytes   *bytes,
            JavaUses *uses)
{
  uses->sdk_bytes = TRUE;
  if (bytes_are_text (bytes))
    {
      g_string_append (out, "SdkBytes.fromUtf8String(");
      java_string (out, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      g_string_append_c (out, ')');
    }
  else
    {
      uses->base64 = TRUE;
      g_string_append (out, "SdkBytes.fromByteArray(Base64.getDecoder().decode(\"");
      append_base64 (out, bytes);
      g_string_append (out, "\"))");
    }
}

static void java_value (GString *out, const DynValue *v, JavaUses *uses);

/* Map.of takes at most ten pairs; Map.ofEntries any number. */
static void
java_map_open (GString  *out,
               guint     n,
               JavaUses *uses)
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

static void
java_value (GString        *out,
            const DynValue *v,
            JavaUses       *uses)
{
  DynValueType type = dyn_value_get_value_type (v);
  guint n;

  g_string_append (out, "AttributeValue.builder().");
  switch (type)
    {
    case DYN_VALUE_S:
      g_string_append (out, "s(");
      java_string (out, dyn_value_get_string (v), dyn_value_get_string_length (v));
      break;
    case DYN_VALUE_N:
      g_string_append (out, "n(");
      java_string (out, dyn_value_get_number (v), strlen (dyn_value_get_number (v)));
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
          java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          java_value (out, dyn_value_map_get_value (v, i), uses);
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
          java_value (out, dyn_value_list_get (v, i), uses);
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
              java_string (out, s, strlen (s));
            }
        }
      break;
    default:
      g_assert_not_reached ();
    }
  g_string_append (out, ").build()");
}

static void
java_chain_map (GString     *out,
                const Param *p,
                JavaUses    *uses)
{
  guint n = p->kind == PARAM_ITEM ? dyn_value_get_length (p->item) : p->keys->len;

  java_map_open (out, n, uses);
  for (guint k = 0; k < n; k++)
    {
      const char *name;

      g_string_append (out, "\n                            ");
      java_map_pair_open (out, n);
      if (p->kind == PARAM_ITEM)
        {
          name = dyn_value_map_get_name (p->item, k);
          java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          java_value (out, dyn_value_map_get_value (p->item, k), uses);
        }
      else
        {
          gpointer v;

          name = p->keys->pdata[k];
          v = g_hash_table_lookup (p->map, name);
          java_string (out, name, strlen (name));
          g_string_append (out, ", ");
          if (p->kind == PARAM_NAMES)
            java_string (out, v, strlen (v));
          else
            java_value (out, v, uses);
        }
      java_map_pair_close (out, n);
      if (k + 1 < n)
        g_string_append_c (out, ',');
    }
  g_string_append_c (out, ')');
}

static void
generate_java (GString          *out,
               const DynRequest *req,
               GArray           *params,
               const char       *endpoint,
               const char       *region)
{
  const char *op_name = dyn_operation_get_name (req->op);
  g_autofree char *method = lower_camel_case (op_name);
  g_autoptr(GString) chain = g_string_new (NULL);
  g_autoptr(GPtrArray) model = g_ptr_array_new_with_free_func (g_free);
  JavaUses uses = { FALSE, };
  Action action = request_action (req);
  gboolean paged = action == ACTION_ITEMS || action == ACTION_COUNT;

  g_ptr_array_add (model, g_strdup_printf ("%sRequest", op_name));
  if (action != ACTION_ITEMS && action != ACTION_NONE)
    g_ptr_array_add (model, g_strdup_printf ("%sResponse", op_name));
  if (action == ACTION_ITEMS || params_have_values (params))
    g_ptr_array_add (model, g_strdup ("AttributeValue"));
  if (action == ACTION_ITEMS)
    uses.map = TRUE;

  for (guint i = 0; i < params->len; i++)
    {
      Param *p = &g_array_index (params, Param, i);
      g_autofree char *setter = lower_camel_case (p->name);

      g_string_append_printf (chain, "                    .%s(", setter);
      switch (p->kind)
        {
        case PARAM_STRING:
          java_string (chain, p->string, strlen (p->string));
          break;
        case PARAM_ENUM:
          if (is_known_enum (p->name, p->string))
            {
              const char *type = enum_type (p->name);

              g_string_append_printf (chain, "%s.%s", type, p->string);
              if (!g_ptr_array_find_with_equal_func (model, type, g_str_equal, NULL))
                g_ptr_array_add (model, g_strdup (type));
            }
          else
            java_string (chain, p->string, strlen (p->string));
          break;
        case PARAM_BOOL:
          g_string_append (chain, p->boolean ? "true" : "false");
          break;
        case PARAM_INT:
          g_string_append_printf (chain, "%" G_GINT64_FORMAT, p->number);
          break;
        case PARAM_ITEM:
        case PARAM_NAMES:
        case PARAM_VALUES:
          java_chain_map (chain, p, &uses);
          break;
        default:
          g_assert_not_reached ();
        }
      g_string_append (chain, ")\n");
    }
  g_ptr_array_sort (model, compare_strings);

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
          java_string (out, endpoint, strlen (endpoint));
          g_string_append (out, "))\n");
        }
      if (region != NULL)
        {
          g_string_append (out, "                .region(Region.of(");
          java_string (out, region, strlen (region));
          g_string_append (out, "))\n");
        }
      g_string_append (out, "                .build()) {\n");
    }

  g_string_append_printf (out, "            %sRequest request = %sRequest.builder()\n", op_name, op_name);
  g_string_append (out, chain->str);
  g_string_append (out, "                    .build();\n");

  if (paged)
    {
      if (has_limit (params))
        g_string_append (out, "            // Limit is the page size: the paginator reads every page.\n");
      if (action == ACTION_COUNT)
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
  else if (action == ACTION_NONE)
    g_string_append_printf (out, "            client.%s(request);\n", method);
  else
    {
      const char *member = action == ACTION_ITEM ? "item" : "attributes";
      const char *has = action == ACTION_ITEM ? "hasItem" : "hasAttributes";

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

  params = collect_params (request);
  out = g_string_sized_new (1024);
  switch (lang)
    {
    case DYN_SNIPPET_CLI:
      generate_cli (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_BOTO3:
      generate_boto3 (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_JS:
      generate_js (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_GO:
      generate_go (out, request, params, endpoint, region);
      break;
    case DYN_SNIPPET_JAVA:
      generate_java (out, request, params, endpoint, region);
      break;
    default:
      g_assert_not_reached ();
    }
  return g_string_free (out, FALSE);
}
