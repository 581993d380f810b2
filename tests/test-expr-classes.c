/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Each class of expression that DynamoDB accepts or refuses, checked twice:
 * Dynoscope's verdict (the path a user's DynamoDB-syntax expression with
 * its maps takes, dyn_request_set_expressions_json()) and DynamoDB Local's
 * verdict on the same request, sent verbatim. Both must equal the verdict
 * written here, and a refusal must name its reason (a substring of our
 * message). One subtest per class.
 */
#include "config.h"

#include <string.h>

#include "dyn-test-util.h"
#include "dyn-expression-json.h"
#include "dyn-json.h"

typedef struct {
  char         op;        /* K(ey condition, Query) F(ilter, Scan) C(ondition, DeleteItem) U(pdate) P(rojection) */
  const char  *expr;
  const char  *values;    /* JSON or NULL */
  const char  *names;     /* JSON or NULL */
  gboolean     ok;
  const char  *reason;    /* substring of our message when refused */
} Case;

typedef struct {
  const char  *name;
  const Case  *cases;
} Class;

#define V1 "{\":v\":{\"N\":\"1\"}}"
#define VS "{\":s\":{\"S\":\"x\"}}"
#define VSN "{\":s\":{\"S\":\"x\"},\":v\":{\"N\":\"1\"}}"
#define END { 0, NULL, NULL, NULL, FALSE, NULL }

/* Accepted by DynamoDB. */
static const Case values_as_operands[] = {
  { 'F', "attribute_type(:v, :t)", "{\":v\":{\"N\":\"1\"},\":t\":{\"S\":\"N\"}}", NULL, TRUE, NULL },
  { 'F', "begins_with(:s, a)", VS, NULL, TRUE, NULL },
  { 'F', "size(:s) >= :v", VSN, NULL, TRUE, NULL },
  { 'F', "contains(:l, a)", "{\":l\":{\"L\":[{\"N\":\"1\"}]}}", NULL, TRUE, NULL },
  { 'F', ":v < :w", "{\":v\":{\"N\":\"1\"},\":w\":{\"N\":\"2\"}}", NULL, TRUE, NULL },
  { 'F', ":v BETWEEN a AND b", V1, NULL, TRUE, NULL },
  { 'F', ":v IN (a, b)", V1, NULL, TRUE, NULL },
  { 'F', "contains(size(a), :v)", V1, NULL, TRUE, NULL },
  { 'F', "attribute_type(size(a), :t)", "{\":t\":{\"S\":\"N\"}}", NULL, TRUE, NULL },
  { 'K', ":s = pk", VS, NULL, TRUE, NULL },
  { 'C', "begins_with(:s, :s)", VS, NULL, TRUE, NULL },
  END
};

static const Case parenthesized_operands[] = {
  { 'F', "(size(b)) = :v", V1, NULL, TRUE, NULL },
  { 'F', "((size(b)) = :v) AND a = :v", V1, NULL, TRUE, NULL },
  { 'F', "(a) BETWEEN (:v) AND :w", "{\":v\":{\"N\":\"1\"},\":w\":{\"N\":\"2\"}}", NULL, TRUE, NULL },
  { 'F', "a IN ((:v), :w)", "{\":v\":{\"N\":\"1\"},\":w\":{\"N\":\"2\"}}", NULL, TRUE, NULL },
  { 'F', "attribute_exists((a))", NULL, NULL, TRUE, NULL },
  { 'F', "begins_with((a), (:s))", VS, NULL, TRUE, NULL },
  { 'F', "size((a)) = :v", V1, NULL, TRUE, NULL },
  { 'F', "((a = :v) AND (b = :v))", V1, NULL, TRUE, NULL },
  { 'F', "(NOT a = :v)", V1, NULL, TRUE, NULL },
  { 'K', "(pk) = :s AND (sk) > :v", VSN, NULL, TRUE, NULL },
  { 'K', "((pk = :s) AND (sk = :v))", VSN, NULL, TRUE, NULL },
  END
};

static const Case set_arithmetic[] = {
  { 'U', "SET b.a = ((c[1]) + (b.a))", NULL, NULL, TRUE, NULL },
  { 'U', "SET a = (a + :v)", V1, NULL, TRUE, NULL },
  { 'U', "SET a = (a) + (:v)", V1, NULL, TRUE, NULL },
  { 'U', "SET a = (:v)", V1, NULL, TRUE, NULL },
  { 'U', "SET a = if_not_exists((a), :v) + :v", V1, NULL, TRUE, NULL },
  { 'U', "SET a = if_not_exists(a, if_not_exists(b, :v))", V1, NULL, TRUE, NULL },
  { 'U', "SET c = list_append((c), (c))", NULL, NULL, TRUE, NULL },
  { 'U', "SET c = list_append(if_not_exists(c, :l), :l)", "{\":l\":{\"L\":[]}}", NULL, TRUE, NULL },
  { 'U', "SET a = :x + :y", "{\":x\":{\"N\":\"1E+125\"},\":y\":{\"N\":\"-1E+125\"}}", NULL, TRUE, NULL },
  { 'U', "SET a = :v + :v + :v", V1, NULL, FALSE, "at most one + or -" },
  { 'U', "SET a = (a + :v) - :v", V1, NULL, FALSE, "at most one + or -" },
  { 'U', "SET a = if_not_exists(a, (:v + :v))", V1, NULL, FALSE, "at most one + or -" },
  END
};

static const Case lexical_forms[] = {
  { 'F', "a_ = :v", V1, NULL, TRUE, NULL },
  { 'F', "a [0] = :v", V1, NULL, TRUE, NULL },
  { 'F', "a. b = :v", V1, NULL, TRUE, NULL },
  { 'F', "a = :v and not b = :v or c in (:v)", V1, NULL, TRUE, NULL },
  { 'F', "a[2147483647] = :v", V1, NULL, TRUE, NULL },
  { 'F', "#1 = :_", "{\":_\":{\"N\":\"1\"}}", "{\"#1\":\"x\"}", TRUE, NULL },
  { 'U', "set a = :v remove x", V1, NULL, TRUE, NULL },
  { 'F', "_a = :v", V1, NULL, FALSE, "cannot be written bare" },
  { 'F', "\xc3\xa4 = :v", V1, NULL, FALSE, "cannot be written bare" },
  { 'F', "a[00] = :v", V1, NULL, FALSE, "leading zeros" },
  { 'F', "a[2147483648] = :v", V1, NULL, FALSE, "greater than" },
  { 'F', "a != :v", V1, NULL, FALSE, "unexpected character" },
  { 'F', "SIZE(a) = :v", V1, NULL, FALSE, "case-sensitive" },
  END
};

static const Case reserved_words[] = {
  { 'F', "Status = :v", V1, NULL, FALSE, "reserved word" },
  { 'F', "a.name = :v", V1, NULL, FALSE, "reserved word" },
  { 'P', "a, Status", NULL, NULL, FALSE, "reserved word" },
  { 'U', "SET #s = :v REMOVE Comment", V1, "{\"#s\":\"Status\"}", FALSE, "reserved word" },
  { 'F', "#s = :v", V1, "{\"#s\":\"Status\"}", TRUE, NULL },
  /* On DynamoDB's list, but DynamoDB Local reads them as names. */
  { 'F', "size = :v AND convert = :v", V1, NULL, TRUE, NULL },
  END
};

static const Case redundant_parentheses[] = {
  { 'F', "((a)) = :v", V1, NULL, FALSE, "redundant parentheses" },
  { 'F', "((a = :v))", V1, NULL, FALSE, "redundant parentheses" },
  { 'F', "NOT ((a = :v))", V1, NULL, FALSE, "redundant parentheses" },
  { 'F', "a IN (((:v)))", V1, NULL, FALSE, "redundant parentheses" },
  { 'F', "size(((a))) = :v", V1, NULL, FALSE, "redundant parentheses" },
  { 'U', "SET a = ((:v))", V1, NULL, FALSE, "redundant parentheses" },
  { 'U', "SET a = ((a + :v))", V1, NULL, FALSE, "redundant parentheses" },
  END
};

/* Refused by DynamoDB. */
static const Case placeholder_maps[] = {
  { 'F', "a = :v", "{\":v\":{\"N\":\"1\"},\":unused\":{\"N\":\"1\"}}", NULL, FALSE, "no expression uses: :unused" },
  { 'F', "a = :v", V1, "{\"#n\":\"x\"}", FALSE, "no expression uses: #n" },
  { 'F', "a = :v", "{}", NULL, FALSE, "must not be empty" },
  { 'F', "a = :v", V1, "{}", FALSE, "must not be empty" },
  { 'F', "#n = :v", V1, "{\"#n\":\"\"}", FALSE, "empty attribute name" },
  { 'F', "a = :v", "{\"v\":{\"N\":\"1\"}}", NULL, FALSE, "invalid placeholder v" },
  { 'F', "#n = :v", V1, "{\"n\":\"a\",\"#n\":\"a\"}", FALSE, "invalid placeholder n" },
  { 'F', "a = :v", "{\":v\":{\"N\":\"1\"},\":v-x\":{\"N\":\"1\"}}", NULL, FALSE, "invalid placeholder :v-x" },
  { 'F', "a = :x", NULL, NULL, FALSE, ":x is not defined" },
  { 'F', "#n = :v", V1, NULL, FALSE, "#n is not defined" },
  { 'U', "SET a = :V", V1, NULL, FALSE, ":V is not defined" },
  END
};

static const Case operand_types[] = {
  { 'F', "a < :l", "{\":l\":{\"L\":[]}}", NULL, FALSE, "type L" },
  { 'F', "a >= :m", "{\":m\":{\"M\":{}}}", NULL, FALSE, "type M" },
  { 'F', ":b > a", "{\":b\":{\"BOOL\":true}}", NULL, FALSE, "type BOOL" },
  { 'F', "a <= :n", "{\":n\":{\"NULL\":true}}", NULL, FALSE, "type NULL" },
  { 'F', "a BETWEEN :v AND :w", "{\":v\":{\"SS\":[\"a\"]},\":w\":{\"SS\":[\"b\"]}}", NULL, FALSE, "type SS" },
  { 'F', "a = :l", "{\":l\":{\"L\":[]}}", NULL, TRUE, NULL },
  { 'F', "a <> :b", "{\":b\":{\"BOOL\":true}}", NULL, TRUE, NULL },
  { 'F', "a IN (:l, :m)", "{\":l\":{\"L\":[]},\":m\":{\"M\":{}}}", NULL, TRUE, NULL },
  { 'F', "begins_with(a, :v)", V1, NULL, FALSE, "begins_with cannot take an operand of type N" },
  { 'F', "begins_with(a, size(b))", NULL, NULL, FALSE, "begins_with cannot take an operand of type N" },
  { 'F', "size(:v) = a", V1, NULL, FALSE, "size cannot take an operand of type N" },
  { 'F', "size(size(a)) = :v", V1, NULL, FALSE, "size cannot take an operand of type N" },
  { 'F', "attribute_type(a, :s)", VS, NULL, FALSE, "must be one of" },
  { 'F', "attribute_type(a, b)", NULL, NULL, FALSE, "must be a value" },
  { 'F', "attribute_exists(:v)", V1, NULL, FALSE, "requires a document path" },
  { 'U', "SET a = if_not_exists(:v, a)", V1, NULL, FALSE, "requires a document path" },
  END
};

static const Case between_bounds[] = {
  { 'F', "a BETWEEN :v AND :s", VSN, NULL, FALSE, "same type" },
  { 'F', "a BETWEEN :w AND :v", "{\":v\":{\"N\":\"1\"},\":w\":{\"N\":\"2\"}}", NULL, FALSE, "greater than its upper" },
  { 'F', "a BETWEEN :w AND :v", "{\":v\":{\"N\":\"-1\"},\":w\":{\"N\":\"-1e-3\"}}", NULL, FALSE, "greater than its upper" },
  { 'F', "a BETWEEN :w AND :v", "{\":v\":{\"S\":\"a\"},\":w\":{\"S\":\"b\"}}", NULL, FALSE, "greater than its upper" },
  { 'F', "a BETWEEN :w AND :v", "{\":v\":{\"S\":\"a\"},\":w\":{\"S\":\"B\"}}", NULL, TRUE, NULL },
  { 'F', "a BETWEEN :w AND :v", "{\":v\":{\"B\":\"AQ==\"},\":w\":{\"B\":\"Ag==\"}}", NULL, FALSE, "greater than its upper" },
  { 'F', "a BETWEEN :v AND :v", V1, NULL, TRUE, NULL },
  { 'F', "a BETWEEN size(b) AND :s", VS, NULL, TRUE, NULL },
  END
};

static const Case distinct_operands[] = {
  { 'F', "a = a", NULL, NULL, FALSE, "with itself" },
  { 'F', "a.b < a.b", NULL, NULL, FALSE, "with itself" },
  { 'F', "a BETWEEN :v AND a", V1, NULL, FALSE, "with itself" },
  { 'F', "a IN (:v, a)", V1, NULL, FALSE, "with itself" },
  { 'F', "contains(a, a)", NULL, NULL, FALSE, "with itself" },
  { 'F', "begins_with(a, a)", NULL, NULL, FALSE, "with itself" },
  { 'F', "a = a.b", NULL, NULL, TRUE, NULL },
  { 'F', ":v = :v", V1, NULL, TRUE, NULL },
  { 'F', "size(a) = size(a)", NULL, NULL, TRUE, NULL },
  END
};

static const Case arithmetic[] = {
  { 'U', "SET a = :s + :v", VSN, NULL, FALSE, "+ cannot take an operand of type S" },
  { 'U', "SET a = :l - :v", "{\":l\":{\"L\":[]},\":v\":{\"N\":\"1\"}}", NULL, FALSE, "- cannot take an operand of type L" },
  { 'U', "SET a = if_not_exists(a, :v) + :s", VSN, NULL, FALSE, "type S" },
  { 'U', "SET a = list_append(:v, c)", V1, NULL, FALSE, "list_append cannot take an operand of type N" },
  { 'U', "SET a = list_append(c, :m)", "{\":m\":{\"M\":{}}}", NULL, FALSE, "type M" },
  { 'U', "SET a = :x + :y", "{\":x\":{\"N\":\"12345678901234567890123456789012345678\"},\":y\":{\"N\":\"0.1\"}}", NULL, FALSE, "38 significant digits" },
  { 'U', "SET a = :x + :y", "{\":x\":{\"N\":\"1E+100\"},\":y\":{\"N\":\"1E-100\"}}", NULL, FALSE, "38 significant digits" },
  { 'U', "SET a = :x + :y", "{\":x\":{\"N\":\"5E+125\"},\":y\":{\"N\":\"5E+125\"}}", NULL, FALSE, "number range" },
  { 'U', "SET a = :x - :y", "{\":x\":{\"N\":\"1.1E-130\"},\":y\":{\"N\":\"1E-130\"}}", NULL, FALSE, "number range" },
  { 'U', "SET a = :x - :y", "{\":x\":{\"N\":\"2E-130\"},\":y\":{\"N\":\"1E-130\"}}", NULL, TRUE, NULL },
  { 'U', "SET a = if_not_exists(a, list_append(c, c))", NULL, NULL, FALSE, "list_append cannot be used inside" },
  { 'U', "SET a = :v + list_append(c, c)", V1, NULL, FALSE, "list_append cannot be used inside" },
  { 'U', "SET a = size(c)", NULL, NULL, FALSE, "cannot be used in a SET value" },
  { 'U', "ADD a :s", VS, NULL, FALSE, "ADD takes a number or a set" },
  { 'U', "DELETE s :s", VS, NULL, FALSE, "DELETE takes a set" },
  END
};

static const Case limits[] = {
  { 'F', "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a = :v", V1, NULL, TRUE, NULL },
  { 'F', "a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a = :v", V1, NULL, FALSE, "32 levels" },
  { 'F', "a[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0] = :v",
    V1, NULL, FALSE, "32 levels" },
  END
};

static const Case update_clauses[] = {
  { 'U', "SET a = :v, a.b = :v", V1, NULL, FALSE, "overlap" },
  { 'U', "SET b.a = :v, b[0] = :v", V1, NULL, FALSE, "conflict" },
  { 'U', "SET a = :v REMOVE a", V1, NULL, FALSE, "used twice" },
  { 'U', "SET c[1] = :v REMOVE c[1]", V1, NULL, FALSE, "used twice" },
  { 'U', "ADD a :v, a :v", V1, NULL, FALSE, "used twice" },
  { 'U', "REMOVE c[0], c[1]", NULL, NULL, TRUE, NULL },
  { 'U', "SET a = b, b = a", NULL, NULL, TRUE, NULL },
  { 'U', "SET a = :v SET b = :v", V1, NULL, FALSE, "appears twice" },
  { 'U', "SET a = :v REMOVE x SET b = :v", V1, NULL, FALSE, "appears twice" },
  { 'U', "SET", NULL, NULL, FALSE, "expected an attribute name" },
  { 'U', "SET a = :v REMOVE", V1, NULL, FALSE, "expected an attribute name" },
  { 'U', "SET a = :v,", V1, NULL, FALSE, "expected an attribute name" },
  { 'U', "SET pk = :s", VS, NULL, FALSE, "cannot be updated" },
  { 'U', "SET :v = a", V1, NULL, FALSE, "left-hand side" },
  { 'U', "SET a=:v REMOVE x ADD y :v DELETE s :s", "{\":v\":{\"N\":\"1\"},\":s\":{\"SS\":[\"x\"]}}", NULL, TRUE, NULL },
  { 'P', "a, a.b", NULL, NULL, FALSE, "overlap" },
  { 'P', "a.b, a.c", NULL, NULL, TRUE, NULL },
  END
};

static const Class classes[] = {
  { "accept/values-as-operands", values_as_operands },
  { "accept/parenthesized-operands", parenthesized_operands },
  { "accept/set-arithmetic", set_arithmetic },
  { "lexical", lexical_forms },
  { "refuse/reserved-words", reserved_words },
  { "refuse/redundant-parentheses", redundant_parentheses },
  { "refuse/placeholder-maps", placeholder_maps },
  { "refuse/operand-types", operand_types },
  { "refuse/between-bounds", between_bounds },
  { "refuse/distinct-operands", distinct_operands },
  { "refuse/arithmetic", arithmetic },
  { "refuse/limits", limits },
  { "refuse/update-clauses", update_clauses },
};

static DynClient *client;
static char *table;
static DynTableKeys *keys;

static const char *
field_of (char op)
{
  switch (op)
    {
    case 'K': return "KeyConditionExpression";
    case 'F': return "FilterExpression";
    case 'C': return "ConditionExpression";
    case 'U': return "UpdateExpression";
    default: return "ProjectionExpression";
    }
}

/* DynamoDB Local's verdict on the request as the user wrote it. */
static gboolean
server_accepts (const Case  *c,
                char       **message)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *params = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  const char *operation;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "TableName");
  json_builder_add_string_value (b, table);
  switch (c->op)
    {
    case 'K': operation = "Query"; break;
    case 'F': case 'P': operation = "Scan"; break;
    case 'C': operation = "DeleteItem"; break;
    default: operation = "UpdateItem"; break;
    }
  if (c->op == 'C' || c->op == 'U')
    {
      json_builder_set_member_name (b, "Key");
      json_builder_add_value (b, json_from_string (c->op == 'C' ? "{\"pk\":{\"S\":\"missing\"},\"sk\":{\"N\":\"9\"}}"
                                                               : "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}", NULL));
    }
  json_builder_set_member_name (b, field_of (c->op));
  json_builder_add_string_value (b, c->expr);
  if (c->names != NULL)
    {
      json_builder_set_member_name (b, "ExpressionAttributeNames");
      json_builder_add_value (b, json_from_string (c->names, NULL));
    }
  if (c->values != NULL)
    {
      json_builder_set_member_name (b, "ExpressionAttributeValues");
      json_builder_add_value (b, json_from_string (c->values, NULL));
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  params = json_to_string (root, FALSE);

  if (c->op == 'U')
    {
      /* Every update starts from the same item. */
      g_autoptr(DynValue) item = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"a\":{\"N\":\"1\"},"
                                                "\"b\":{\"M\":{\"c\":{\"L\":[{\"N\":\"1\"}]},\"a\":{\"N\":\"3\"}}},"
                                                "\"c\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"}]},\"s\":{\"SS\":[\"x\"]}}");
      g_assert_true (dyn_test_put_item (client, table, item, NULL));
    }
  response = dyn_test_call (client, operation, params, &error);
  if (response != NULL || g_error_matches (error, DYN_ERROR, DYN_ERROR_CONDITIONAL_CHECK_FAILED))
    return TRUE;
  *message = g_strdup (error->message);
  return FALSE;
}

static gboolean
we_accept (const Case  *c,
           char       **message)
{
  DynOperation op = c->op == 'K' ? DYN_OP_QUERY : c->op == 'C' ? DYN_OP_DELETE_ITEM :
                    c->op == 'U' ? DYN_OP_UPDATE_ITEM : DYN_OP_SCAN;
  g_autoptr(DynRequest) request = dyn_request_new (op, table);
  g_autoptr(GError) error = NULL;

  if (dyn_request_set_expressions_json (request, keys,
                                        c->op == 'K' ? c->expr : NULL, c->op == 'F' ? c->expr : NULL,
                                        c->op == 'C' ? c->expr : NULL, c->op == 'U' ? c->expr : NULL,
                                        c->op == 'P' ? c->expr : NULL, c->names, c->values, &error))
    return TRUE;
  *message = g_strdup (error->message);
  return FALSE;
}

static void
test_class (gconstpointer data)
{
  const Class *klass = data;

  for (const Case *c = klass->cases; c->expr != NULL; c++)
    {
      g_autofree char *ours = NULL;
      g_autofree char *theirs = NULL;
      gboolean we = we_accept (c, &ours);
      gboolean they = server_accepts (c, &theirs);

      g_test_message ("%c %s → ours %s%s%s, DynamoDB %s%s%s", c->op, c->expr,
                      we ? "accepted" : "refused", ours ? ": " : "", ours ? ours : "",
                      they ? "accepted" : "refused", theirs ? ": " : "", theirs ? theirs : "");
      if (they != c->ok)
        g_error ("%s: DynamoDB Local %s it (%s), the case says %s", c->expr, they ? "accepts" : "refuses",
                 theirs ? theirs : "", c->ok ? "accepted" : "refused");
      if (we != c->ok)
        g_error ("%s: we %s it (%s), DynamoDB %s it", c->expr, we ? "accept" : "refuse", ours ? ours : "",
                 they ? "accepts" : "refuses");
      if (!we && strstr (ours, c->reason) == NULL)
        g_error ("%s: our message \"%s\" does not say \"%s\"", c->expr, ours, c->reason);
    }
}

int
main (int    argc,
      char **argv)
{
  DynTestServer *server;
  int status;

  dyn_test_init (&argc, &argv);
  server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  if (server == NULL)
    {
      g_test_skip ("DynamoDB Local is not available");
      return g_test_run ();
    }
  client = dyn_test_client_new (server);
  table = dyn_test_table_name ("Classes");
  g_assert_true (dyn_test_create_table (client, table, "pk:S", "sk:N", NULL, NULL));
  keys = dyn_table_keys_new (table, "pk", DYN_VALUE_S, "sk", DYN_VALUE_N);

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/expr-classes/%s", classes[i].name);

      g_test_add_data_func (path, &classes[i], test_class);
    }
  status = g_test_run ();
  dyn_table_keys_free (keys);
  g_free (table);
  g_object_unref (client);
  return status;
}
