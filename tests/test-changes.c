/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-changes"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dyn-changes.h"
#include "dyn-diff.h"
#include "dyn-edit-session.h"
#include "dyn-table.h"
#include "dyn-test-util.h"

/* Staged changes → guarded requests: the plan offline, then commits against
 * DynamoDB Local, with boto3 as the second client and as the witness of what
 * is stored. */

/* ------------------------------------------------------------------------ */
/* Helpers */

static DynKeySchema pk_only = { (char *) "pk", DYN_VALUE_S, NULL, DYN_VALUE_S };
static DynKeySchema pk_sk = { (char *) "pk", DYN_VALUE_S, (char *) "sk", DYN_VALUE_N };

static JsonNode *
plan_of (DynChangeSet *set)
{
  g_autoptr(GError) error = NULL;
  JsonNode *plan = dyn_change_set_plan (set, &error);

  g_assert_no_error (error);
  g_assert_nonnull (plan);
  if (g_test_verbose ())
    {
      g_autofree char *text = json_to_string (plan, TRUE);
      g_test_message ("%s", text);
    }
  return plan;
}

static JsonObject *
plan_request (JsonNode *plan,
              guint     r)
{
  JsonArray *requests = json_object_get_array_member (json_node_get_object (plan), "requests");
  g_assert_cmpuint (r, <, json_array_get_length (requests));
  return json_array_get_object_element (requests, r);
}

static guint
plan_n_requests (JsonNode *plan)
{
  return json_array_get_length (json_object_get_array_member (json_node_get_object (plan), "requests"));
}

static JsonObject *
plan_change (JsonNode *plan,
             guint     i)
{
  JsonArray *changes = json_object_get_array_member (json_node_get_object (plan), "changes");
  return json_array_get_object_element (changes, i);
}

/* Action @k of request @r: the body under "Put"/"Update"/"Delete". */
static JsonObject *
plan_action (JsonNode    *plan,
             guint        r,
             guint        k,
             const char **type)
{
  JsonObject *params = json_object_get_object_member (plan_request (plan, r), "params");
  JsonArray *items = json_object_get_array_member (params, "TransactItems");
  JsonObject *wrapper;
  g_autoptr(GList) members = NULL;

  g_assert_nonnull (items);
  g_assert_cmpuint (k, <, json_array_get_length (items));
  wrapper = json_array_get_object_element (items, k);
  members = json_object_get_members (wrapper);
  g_assert_cmpuint (g_list_length (members), ==, 1);
  if (type)
    *type = members->data;
  return json_object_get_object_member (wrapper, members->data);
}

static const char *
member_string (JsonObject *obj,
               const char *name)
{
  return json_object_get_string_member_with_default (obj, name, NULL);
}

/* The DynamoDB JSON text of ExpressionAttributeValues[placeholder]. */
static char *
value_text (JsonObject *action,
            const char *placeholder)
{
  JsonObject *values = json_object_get_object_member (action, "ExpressionAttributeValues");
  JsonNode *v;

  g_assert_nonnull (values);
  v = json_object_get_member (values, placeholder);
  g_assert_nonnull (v);
  return json_to_string (v, FALSE);
}

static const char *
name_of (JsonObject *action,
         const char *placeholder)
{
  JsonObject *names = json_object_get_object_member (action, "ExpressionAttributeNames");
  g_assert_nonnull (names);
  return member_string (names, placeholder);
}

/* Every word of @expr that is not a placeholder must be a keyword or a
 * function: no attribute name appears bare, reserved or not. */
static void
assert_all_aliased (const char *expr)
{
  static const char * const allowed[] = {
    "SET", "REMOVE", "ADD", "DELETE", "AND", "attribute_exists", "attribute_not_exists", NULL
  };
  /* Functions the guards call: allowed only as calls. */
  static const char * const functions[] = { "attribute_type", "size", NULL };
  const char *p = expr;

  while (*p)
    {
      if (*p == '#' || *p == ':')
        {
          p++;
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
        }
      else if (g_ascii_isalpha (*p))
        {
          const char *start = p;
          g_autofree char *word = NULL;

          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          word = g_strndup (start, p - start);
          if (!g_strv_contains (allowed, word) && !(g_strv_contains (functions, word) && *p == '('))
            g_error ("bare name “%s” in “%s”", word, expr);
        }
      else
        p++;
    }
}

static DynChangeSet *
set_with (const DynKeySchema *keys,
          const char         *before,
          const char         *after)
{
  DynChangeSet *set = dyn_change_set_new ("T", keys);
  g_autoptr(DynValue) b = before ? dyn_test_item (before) : NULL;
  g_autoptr(DynValue) a = after ? dyn_test_item (after) : NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (dyn_change_set_add (set, b, a, &error), ==, 0);
  g_assert_no_error (error);
  return set;
}

/* ------------------------------------------------------------------------ */
/* Offline: the plan */

static void
test_new_destroy (void)
{
  DynChangeSet *set = dyn_change_set_new ("T", &pk_only);
  g_autoptr(DynValue) item = dyn_test_item ("{\"pk\":{\"S\":\"a\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(DynChange) change = NULL;

  g_assert_cmpstr (dyn_change_set_get_table (set), ==, "T");
  g_assert_cmpint (dyn_change_set_add (set, NULL, item, &error), ==, 0);
  g_assert_cmpint (dyn_change_set_add (set, NULL, NULL, &error), ==, -1);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autoptr(DynValue) no_key = dyn_test_item ("{\"x\":{\"S\":\"a\"}}");
    g_assert_cmpint (dyn_change_set_add (set, NULL, no_key, &error), ==, -1);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  {
    g_autoptr(DynValue) wrong_type = dyn_test_item ("{\"pk\":{\"N\":\"1\"}}");
    g_assert_cmpint (dyn_change_set_add (set, NULL, wrong_type, &error), ==, -1);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  g_assert_cmpuint (dyn_change_set_get_n_changes (set), ==, 1);
  change = dyn_change_ref (dyn_change_set_get_change (set, 0));
  g_assert_cmpint (dyn_change_get_kind (change, &pk_only), ==, DYN_CHANGE_KIND_CREATE);
  g_assert_finalize_object (set);
}

static void
test_increment (void)
{
  static const struct { const char *in, *out; } cases[] = {
    { "0", "1" }, { "1", "2" }, { "9", "10" }, { "999", "1000" }, { "-1", "0" }, { "-5", "-4" },
    { "-10", "-9" }, { "1.5", "2.5" }, { "-1.5", "-0.5" }, { "-0.5", "0.5" }, { "-0.001", "0.999" },
    { "-0.75", "0.25" }, { "1E+3", "1001" }, { "1e2", "101" }, { "+7", "8" }, { "0.5", "1.5" },
    { "-100.25", "-99.25" }, { "00042", "43" },
    { "99999999999999999999999999999999999999", "100000000000000000000000000000000000000" },
    { "1234567890123456789012345678901234567.8", "1234567890123456789012345678901234568.8" },
    { "12345678901234567890123456789012345678", "12345678901234567890123456789012345679" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *out = dyn_number_increment (cases[i].in, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (out, ==, cases[i].out);
    }

  /* 0.5 + 1 would need 39 significant digits here. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *out = dyn_number_increment ("0.1234567890123456789012345678901234567", &error);
    g_assert_no_error (error);
    g_assert_cmpstr (out, ==, "1.1234567890123456789012345678901234567");
    g_clear_pointer (&out, g_free);
    out = dyn_number_increment ("0.12345678901234567890123456789012345678", &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
    g_assert_null (out);
  }
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *out = dyn_number_increment ("NaN", &error);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
    g_assert_null (out);
  }
}

static void
test_create_guard (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_sk, NULL,
                                          "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"Status\":{\"S\":\"new\"}}");
  g_autoptr(JsonNode) plan = plan_of (set);
  const char *type;
  JsonObject *put = plan_action (plan, 0, 0, &type);
  JsonObject *params = json_object_get_object_member (plan_request (plan, 0), "params");

  g_assert_cmpuint (plan_n_requests (plan), ==, 1);
  g_assert_cmpstr (member_string (plan_request (plan, 0), "operation"), ==, "TransactWriteItems");
  g_assert_cmpuint (strlen (member_string (params, "ClientRequestToken")), ==, 36);
  g_assert_cmpstr (type, ==, "Put");
  g_assert_cmpstr (member_string (put, "TableName"), ==, "T");
  g_assert_cmpstr (member_string (put, "ConditionExpression"), ==, "attribute_not_exists(#pk)");
  g_assert_cmpstr (name_of (put, "#pk"), ==, "pk");
  g_assert_cmpstr (member_string (put, "ReturnValuesOnConditionCheckFailure"), ==, "ALL_OLD");
  g_assert_false (json_object_has_member (put, "ExpressionAttributeValues"));
  g_assert_cmpstr (member_string (plan_change (plan, 0), "kind"), ==, "create");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "not-exists");
}

static void
test_delete_guard (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
                                          "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"x\"},"
                                          "\"n\":{\"N\":\"12345678901234567890123456789012345678\"},"
                                          "\"m\":{\"M\":{\"k\":{\"L\":[{\"S\":\"v\"}]}}}}",
                                          NULL);
  g_autoptr(JsonNode) plan = plan_of (set);
  const char *type;
  JsonObject *del = plan_action (plan, 0, 0, &type);
  const char *cond = member_string (del, "ConditionExpression");
  g_autofree char *n = NULL;
  g_autofree char *m = NULL;
  g_autofree char *key = json_to_string (json_object_get_member (del, "Key"), FALSE);

  g_assert_cmpstr (type, ==, "Delete");
  g_assert_cmpstr (key, ==, "{\"pk\":{\"S\":\"a\"}}");
  g_assert_cmpstr (cond, ==, "attribute_exists(#pk) AND #Status = :old_Status AND #n = :old_n AND #m = :old_m");
  assert_all_aliased (cond);
  n = value_text (del, ":old_n");
  g_assert_cmpstr (n, ==, "{\"N\":\"12345678901234567890123456789012345678\"}");
  m = value_text (del, ":old_m");
  g_assert_cmpstr (m, ==, "{\"M\":{\"k\":{\"L\":[{\"S\":\"v\"}]}}}");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "values");
}

static void
test_diff_nested (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"keep\":{\"N\":\"1\"},"
    "\"m\":{\"M\":{\"a\":{\"M\":{\"b\":{\"M\":{\"c\":{\"N\":\"1\"},\"d\":{\"S\":\"x\"}}}}},\"gone\":{\"S\":\"g\"},\"same\":{\"S\":\"s\"}}},"
    "\"old\":{\"S\":\"bye\"}}",
    "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"closed\"},\"keep\":{\"N\":\"1.0\"},"
    "\"m\":{\"M\":{\"a\":{\"M\":{\"b\":{\"M\":{\"c\":{\"N\":\"5\"},\"d\":{\"S\":\"x\"}}}}},\"same\":{\"S\":\"s\"},\"new\":{\"BOOL\":true}}},"
    "\"added\":{\"S\":\"hi\"}}");
  g_autoptr(JsonNode) minimal = plan_of (set);
  g_autoptr(JsonNode) plan = NULL;
  JsonObject *upd;
  const char *update;
  const char *cond;
  JsonObject *values;
  g_autofree char *c = NULL;

  /* By default the guard covers the paths the update writes, nested ones
   * by their own path; an added member's parent map is implied by its
   * siblings' guards. */
  upd = plan_action (minimal, 0, 0, NULL);
  g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                   "attribute_exists(#pk) AND #Status = :old_Status AND #m.#a.#b.#c = :old_c AND "
                   "#m.#gone = :old_gone AND attribute_not_exists(#m.#new) AND #old = :old_old AND "
                   "attribute_not_exists(#added)");
  g_assert_cmpstr (member_string (plan_change (minimal, 0), "guard"), ==, "changed-attributes");

  /* The whole item as loaded, when chosen. */
  dyn_change_set_set_guard_mode (set, DYN_GUARD_ITEM);
  plan = plan_of (set);
  upd = plan_action (plan, 0, 0, NULL);
  update = member_string (upd, "UpdateExpression");
  cond = member_string (upd, "ConditionExpression");
  values = json_object_get_object_member (upd, "ExpressionAttributeValues");
  c = value_text (upd, ":c");

  g_assert_cmpstr (update, ==,
                   "SET #Status = :Status, #m.#a.#b.#c = :c, #m.#new = :new, #added = :added "
                   "REMOVE #old, #m.#gone");
  g_assert_cmpstr (c, ==, "{\"N\":\"5\"}");
  g_assert_cmpstr (cond, ==,
                   "attribute_exists(#pk) AND #Status = :old_Status AND #keep = :old_keep AND "
                   "#m = :old_m AND #old = :old_old AND attribute_not_exists(#added)");
  assert_all_aliased (update);
  assert_all_aliased (cond);
  /* Untouched values (keep, m.a.b.d, m.same) are sent only as guard values. */
  g_assert_false (json_object_has_member (values, ":keep"));
  g_assert_false (json_object_has_member (values, ":d"));
  g_assert_false (json_object_has_member (values, ":same"));
  g_assert_cmpstr (name_of (upd, "#Status"), ==, "Status");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "kind"), ==, "update");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "values");
}

static void
test_diff_sets (void)
{
  const char *before =
    "{\"pk\":{\"S\":\"a\"},\"tags\":{\"SS\":[\"alpha\",\"bravo\",\"charlie\",\"delta\",\"echo\"]},"
    "\"nums\":{\"NS\":[\"1\",\"2\",\"3\",\"4\"]},\"small\":{\"SS\":[\"x\"]},"
    "\"both\":{\"SS\":[\"a\",\"b\",\"c\",\"d\"]},\"bin\":{\"BS\":[\"AAEC\",\"AwQF\"]}}";
  const char *after =
    "{\"pk\":{\"S\":\"a\"},\"tags\":{\"SS\":[\"alpha\",\"bravo\",\"charlie\",\"delta\",\"echo\",\"foxtrot\"]},"
    "\"nums\":{\"NS\":[\"1\",\"2\",\"4.0\"]},\"small\":{\"SS\":[\"y\"]},"
    "\"both\":{\"SS\":[\"a\",\"b\",\"c\",\"e\"]},\"bin\":{\"BS\":[\"AwQF\",\"AAEC\",\"Bg==\"]}}";
  g_autoptr(DynChangeSet) set = set_with (&pk_only, before, after);
  g_autoptr(JsonNode) plan = plan_of (set);
  JsonObject *upd = plan_action (plan, 0, 0, NULL);
  g_autofree char *tags = value_text (upd, ":tags");
  g_autofree char *nums = value_text (upd, ":nums");
  g_autofree char *small = value_text (upd, ":small");
  g_autofree char *bin = value_text (upd, ":bin");

  g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==,
                   "SET #small = :small, #both = :both ADD #tags :tags, #bin :bin DELETE #nums :nums");
  g_assert_cmpstr (tags, ==, "{\"SS\":[\"foxtrot\"]}");
  g_assert_cmpstr (nums, ==, "{\"NS\":[\"3\"]}");
  g_assert_cmpstr (small, ==, "{\"SS\":[\"y\"]}");
  g_assert_cmpstr (bin, ==, "{\"BS\":[\"Bg==\"]}");
}

static void
test_diff_list (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"Name\":{\"S\":\"n\"},\"l\":{\"L\":[{\"S\":\"a\"},{\"M\":{\"k\":{\"N\":\"1\"}}},{\"S\":\"c\"}]}}",
    "{\"pk\":{\"S\":\"a\"},\"Name\":{\"S\":\"n\"},\"l\":{\"L\":[{\"S\":\"a\"},{\"M\":{\"k\":{\"N\":\"2\"}}},{\"S\":\"c\"}]}}");
  g_autoptr(DynChangeSet) grown = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"l\":{\"L\":[{\"S\":\"a\"},{\"S\":\"b\"}]}}",
    "{\"pk\":{\"S\":\"a\"},\"l\":{\"L\":[{\"S\":\"a\"},{\"S\":\"x\"},{\"S\":\"c\"}]}}");
  g_autoptr(JsonNode) plan = plan_of (set);
  g_autoptr(JsonNode) plan2 = plan_of (grown);
  JsonObject *upd = plan_action (plan, 0, 0, NULL);
  g_autofree char *k = value_text (upd, ":k");
  g_autofree char *size = value_text (upd, ":size_l");
  g_autofree char *l = NULL;

  /* A list that kept its length is written by element (here a member of a
   * map in it), guarded by the element and by the length: positions name
   * the same elements only while nothing was inserted or removed. */
  g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #l[1].#k = :k");
  g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                   "attribute_exists(#pk) AND #l[1].#k = :old_k AND size(#l) = :size_l");
  g_assert_cmpstr (k, ==, "{\"N\":\"2\"}");
  g_assert_cmpstr (size, ==, "{\"N\":\"3\"}");

  /* A list that grew or shrank is one value. */
  upd = plan_action (plan2, 0, 0, NULL);
  l = value_text (upd, ":l");
  g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #l = :l");
  g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==, "attribute_exists(#pk) AND #l = :old_l");
  g_assert_cmpstr (l, ==, "{\"L\":[{\"S\":\"a\"},{\"S\":\"x\"},{\"S\":\"c\"}]}");
}

static void
test_reserved_words (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"x\"},\"Size\":{\"N\":\"1\"},\"Owner\":{\"M\":{\"Name\":{\"S\":\"o\"},\"Date\":{\"S\":\"d\"}}},"
    "\"first-name\":{\"S\":\"A\"},\"a.b\":{\"S\":\"dot\"},\"Plan\":{\"S\":\"p\"}}",
    "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"y\"},\"Size\":{\"N\":\"2\"},\"Owner\":{\"M\":{\"Name\":{\"S\":\"p\"}}},"
    "\"first-name\":{\"S\":\"B\"},\"a.b\":{\"S\":\"dot2\"},\"Views\":{\"N\":\"0\"}}");
  g_autoptr(JsonNode) plan = plan_of (set);
  JsonObject *upd = plan_action (plan, 0, 0, NULL);
  const char *update = member_string (upd, "UpdateExpression");
  const char *cond = member_string (upd, "ConditionExpression");
  JsonObject *names = json_object_get_object_member (upd, "ExpressionAttributeNames");
  g_autoptr(GList) members = json_object_get_members (names);
  gboolean saw_dot = FALSE, saw_dash = FALSE;

  assert_all_aliased (update);
  assert_all_aliased (cond);
  g_assert_null (strstr (update, "a.b"));
  for (GList *l = members; l; l = l->next)
    {
      const char *name = json_object_get_string_member (names, l->data);
      saw_dot |= strcmp (name, "a.b") == 0;
      saw_dash |= strcmp (name, "first-name") == 0;
      /* Placeholders: # and [A-Za-z0-9_]. */
      for (const char *p = (const char *) l->data + 1; *p; p++)
        g_assert_true (g_ascii_isalnum (*p) || *p == '_');
    }
  g_assert_true (saw_dot);
  g_assert_true (saw_dash);
  g_assert_nonnull (strstr (update, "#Owner.#Name = :Name"));
  g_assert_nonnull (strstr (update, "REMOVE #Plan, #Owner.#Date"));
}

static void
test_version (void)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("T", &pk_only);
  g_autoptr(DynValue) before = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"41\"},\"x\":{\"S\":\"1\"},\"y\":{\"S\":\"keep\"}}");
  g_autoptr(DynValue) after = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"41\"},\"x\":{\"S\":\"2\"},\"y\":{\"S\":\"keep\"}}");
  g_autoptr(DynValue) created = dyn_test_item ("{\"pk\":{\"S\":\"b\"},\"x\":{\"S\":\"1\"}}");
  g_autoptr(DynValue) gone = dyn_test_item ("{\"pk\":{\"S\":\"c\"},\"version\":{\"N\":\"7\"},\"x\":{\"S\":\"1\"}}");
  g_autoptr(JsonNode) plan = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *upd, *put, *del;
  g_autofree char *old_v = NULL;
  g_autofree char *new_v = NULL;
  g_autofree char *put_v = NULL;

  dyn_change_set_set_version_attribute (set, "version");
  g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, 0);
  g_assert_cmpint (dyn_change_set_add (set, NULL, created, &error), ==, 1);
  g_assert_cmpint (dyn_change_set_add (set, gone, NULL, &error), ==, 2);
  g_assert_no_error (error);
  plan = plan_of (set);

  upd = plan_action (plan, 0, 0, NULL);
  g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #x = :x, #version = :version");
  g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==, "#version = :old_version");
  old_v = value_text (upd, ":old_version");
  new_v = value_text (upd, ":version");
  g_assert_cmpstr (old_v, ==, "{\"N\":\"41\"}");
  g_assert_cmpstr (new_v, ==, "{\"N\":\"42\"}");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "version");

  put = plan_action (plan, 0, 1, NULL);
  put_v = json_to_string (json_object_get_member (json_object_get_object_member (put, "Item"), "version"), FALSE);
  g_assert_cmpstr (put_v, ==, "{\"N\":\"1\"}");

  del = plan_action (plan, 0, 2, NULL);
  g_assert_cmpstr (member_string (del, "ConditionExpression"), ==, "#version = :old_version");
  g_assert_cmpstr (member_string (plan_change (plan, 2), "guard"), ==, "version");
}

static void
test_key_change (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_sk,
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"S\":\"x\"}}",
    "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"v\":{\"S\":\"x\"}}");
  g_autoptr(JsonNode) plan = plan_of (set);
  const char *t0, *t1;
  JsonObject *del = plan_action (plan, 0, 0, &t0);
  JsonObject *put = plan_action (plan, 0, 1, &t1);
  g_autofree char *key = json_to_string (json_object_get_member (del, "Key"), FALSE);

  g_assert_cmpuint (plan_n_requests (plan), ==, 1);
  g_assert_cmpstr (t0, ==, "Delete");
  g_assert_cmpstr (t1, ==, "Put");
  g_assert_cmpstr (key, ==, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
  g_assert_cmpstr (member_string (del, "ConditionExpression"), ==, "attribute_exists(#pk) AND #v = :old_v");
  g_assert_cmpstr (member_string (put, "ConditionExpression"), ==, "attribute_not_exists(#pk)");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "kind"), ==, "key-change");

  /* Even with the single-request option a key change is one transaction. */
  dyn_change_set_set_single_requests (set, TRUE);
  {
    g_autoptr(JsonNode) plan2 = plan_of (set);
    g_assert_cmpstr (member_string (plan_request (plan2, 0), "operation"), ==, "TransactWriteItems");
  }
}

static void
test_single_request (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"x\"}}", "{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"y\"}}");
  g_autoptr(JsonNode) plan = NULL;
  JsonObject *params;

  dyn_change_set_set_single_requests (set, TRUE);
  plan = plan_of (set);
  g_assert_cmpstr (member_string (plan_request (plan, 0), "operation"), ==, "UpdateItem");
  params = json_object_get_object_member (plan_request (plan, 0), "params");
  g_assert_cmpstr (member_string (params, "UpdateExpression"), ==, "SET #v = :v");
  g_assert_cmpstr (member_string (params, "ReturnValuesOnConditionCheckFailure"), ==, "ALL_OLD");
  g_assert_false (json_object_has_member (params, "ClientRequestToken"));
}

static void
test_split (void)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("T", &pk_sk);
  g_autoptr(JsonNode) plan = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  const char *token0;

  for (guint i = 0; i < 250; i++)
    {
      g_autoptr(DynValue) item = dyn_test_itemf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"}}", i);
      dyn_change_set_add (set, NULL, item, &error);
      g_assert_no_error (error);
    }
  plan = plan_of (set);
  g_assert_cmpuint (plan_n_requests (plan), ==, 3);
  for (guint r = 0; r < 3; r++)
    {
      JsonObject *params = json_object_get_object_member (plan_request (plan, r), "params");
      guint n = json_array_get_length (json_object_get_array_member (params, "TransactItems"));
      g_assert_cmpuint (n, ==, r < 2 ? 100 : 50);
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (plan_request (plan, r), "changes")),
                        ==, n);
    }
  g_assert_cmpint (json_object_get_int_member (plan_change (plan, 249), "request"), ==, 2);

  /* The tokens stay the same for the same staged changes… */
  token0 = member_string (json_object_get_object_member (plan_request (plan, 0), "params"), "ClientRequestToken");
  again = plan_of (set);
  g_assert_cmpstr (member_string (json_object_get_object_member (plan_request (again, 0), "params"),
                                  "ClientRequestToken"), ==, token0);
  g_assert_cmpstr (member_string (json_object_get_object_member (plan_request (plan, 1), "params"),
                                  "ClientRequestToken"), !=, token0);

  /* …and a key change (two actions) is never cut in half: 99 + 2 do not fit in 100. */
  dyn_change_set_clear (set);
  for (guint i = 0; i < 99; i++)
    {
      g_autoptr(DynValue) item = dyn_test_itemf ("{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"%u\"}}", i);
      dyn_change_set_add (set, NULL, item, &error);
    }
  {
    g_autoptr(DynValue) b = dyn_test_item ("{\"pk\":{\"S\":\"c\"},\"sk\":{\"N\":\"1\"}}");
    g_autoptr(DynValue) a = dyn_test_item ("{\"pk\":{\"S\":\"d\"},\"sk\":{\"N\":\"1\"}}");
    g_autoptr(JsonNode) plan2 = NULL;
    const char *type;

    dyn_change_set_add (set, b, a, &error);
    g_assert_no_error (error);
    plan2 = plan_of (set);
    g_assert_cmpuint (plan_n_requests (plan2), ==, 2);
    plan_action (plan2, 1, 0, &type);
    g_assert_cmpstr (type, ==, "Delete");
    plan_action (plan2, 1, 1, &type);
    g_assert_cmpstr (type, ==, "Put");
    g_assert_cmpstr (member_string (json_object_get_object_member (plan_request (plan2, 0), "params"),
                                    "ClientRequestToken"), !=, token0);
  }
}

static void
test_same_item_twice (void)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("T", &pk_sk);
  g_autoptr(DynValue) a = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
  g_autoptr(DynValue) a2 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1.0\"},\"x\":{\"S\":\"1\"}}");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) plan = NULL;

  dyn_change_set_add (set, NULL, a, &error);
  dyn_change_set_add (set, a2, NULL, &error);
  g_assert_no_error (error);
  plan = dyn_change_set_plan (set, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_assert_null (plan);
}

static void
test_unchanged (void)
{
  g_autoptr(DynChangeSet) set = set_with (&pk_only,
    "{\"pk\":{\"S\":\"a\"},\"n\":{\"N\":\"1.50\"},\"s\":{\"SS\":[\"a\",\"b\"]}}",
    "{\"pk\":{\"S\":\"a\"},\"s\":{\"SS\":[\"b\",\"a\"]},\"n\":{\"N\":\"1.5\"}}");
  g_autoptr(JsonNode) plan = plan_of (set);

  g_assert_cmpuint (plan_n_requests (plan), ==, 0);
  g_assert_cmpstr (member_string (plan_change (plan, 0), "kind"), ==, "none");
}

static void
test_guard_limit (void)
{
  GString *before = g_string_new ("{\"pk\":{\"S\":\"a\"}");
  GString *after = g_string_new ("{\"pk\":{\"S\":\"a\"}");
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynChangeSet) del = NULL;
  g_autoptr(JsonNode) plan = NULL;
  g_autoptr(JsonNode) plan2 = NULL;
  JsonObject *upd, *d;
  const char *cond;
  g_autofree char *b = NULL, *a = NULL;
  g_autofree char *description = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 400; i++)
    {
      g_string_append_printf (before, ",\"attribute_number_%u\":{\"N\":\"%u\"}", i, i);
      g_string_append_printf (after, ",\"attribute_number_%u\":{\"N\":\"%u\"}", i, i == 7 ? 70 : i);
    }
  g_string_append_c (before, '}');
  g_string_append_c (after, '}');
  b = g_string_free (before, FALSE);
  a = g_string_free (after, FALSE);

  /* The whole-item guard, chosen, falls back to the changed paths. */
  set = set_with (&pk_only, b, a);
  dyn_change_set_set_guard_mode (set, DYN_GUARD_ITEM);
  plan = plan_of (set);
  upd = plan_action (plan, 0, 0, NULL);
  cond = member_string (upd, "ConditionExpression");
  g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "changed-attributes");
  g_assert_cmpstr (cond, ==, "attribute_exists(#pk) AND #attribute_number_7 = :old_attribute_number_7");
  g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #attribute_number_7 = :attribute_number_7");
  description = dyn_change_set_describe_guard (set, 0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (description, "4 KB"));

  del = set_with (&pk_only, b, NULL);
  plan2 = plan_of (del);
  d = plan_action (plan2, 0, 0, NULL);
  cond = member_string (d, "ConditionExpression");
  g_assert_cmpstr (member_string (plan_change (plan2, 0), "guard"), ==, "partial");
  g_assert_cmpuint (strlen (cond), <=, DYN_EXPRESSION_MAX_LENGTH);
  g_assert_cmpuint (strlen (cond), >, DYN_EXPRESSION_MAX_LENGTH - 100);
  g_assert_true (g_str_has_prefix (cond, "attribute_exists(#pk) AND #attribute_number_0 = :old_attribute_number_0"));
  /* Every placeholder the condition uses is defined, and no other. */
  {
    JsonObject *values = json_object_get_object_member (d, "ExpressionAttributeValues");
    g_autoptr(GList) members = json_object_get_members (values);
    for (GList *l = members; l; l = l->next)
      g_assert_nonnull (strstr (cond, l->data));
  }
}

static void
test_inverse (void)
{
  g_autoptr(DynValue) before = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"3\"},\"x\":{\"S\":\"1\"}}");
  g_autoptr(DynValue) after = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"3\"},\"x\":{\"S\":\"2\"}}");
  g_autoptr(DynChange) change = dyn_change_new (before, after);
  g_autoptr(DynChange) inverse = dyn_change_inverse (change, "version");
  g_autoptr(DynChange) plain = dyn_change_inverse (change, NULL);
  g_autoptr(DynChange) create = dyn_change_new (NULL, after);
  g_autoptr(DynChange) uncreate = dyn_change_inverse (create, NULL);
  g_autofree char *left = dyn_item_to_ddb_json_string (dyn_change_get_before (inverse));

  g_assert_cmpstr (left, ==, "{\"pk\":{\"S\":\"a\"},\"version\":{\"N\":\"4\"},\"x\":{\"S\":\"2\"}}");
  g_assert_true (dyn_change_get_after (inverse) == before);
  g_assert_true (dyn_value_equal (dyn_change_get_before (plain), after));
  g_assert_true (dyn_change_get_before (uncreate) == after);
  g_assert_null (dyn_change_get_after (uncreate));
  g_assert_cmpint (dyn_change_get_kind (uncreate, &pk_only), ==, DYN_CHANGE_KIND_DELETE);
}

/* ------------------------------------------------------------------------ */
/* Document paths */

static DynKeySchema movies = { (char *) "year", DYN_VALUE_N, (char *) "title", DYN_VALUE_S };

/* A movie with an info map three and more levels deep. */
static const char movie[] =
  "{\"year\": 2013, \"title\": \"Rush\", \"version\": 3, \"runtime\": 123,"
  " \"info\": {\"rating\": 8.7, \"rank\": 2, \"genres\": [\"Action\", \"Biography\", \"Drama\"],"
  "  \"plot\": \"Hunt and Lauda.\", \"first-name\": \"James\", \"a.b\": \"dot\","
  "  \"production\": {\"studio\": {\"name\": \"Working Title\", \"address\": {\"city\": \"London\"}}}}}";

static DynValue *
movie_with (const char *path_text,
            const char *plain_value)
{
  g_autoptr(DynValue) item = dyn_test_plain_item (movie);
  g_autoptr(DynExprPath) path = dyn_expr_path_parse (path_text, NULL);
  g_autoptr(DynValue) value = NULL;
  g_autoptr(GError) error = NULL;
  DynValue *changed;

  g_assert_nonnull (path);
  if (plain_value != NULL)
    {
      g_autofree char *wrapped = g_strdup_printf ("{\"v\": %s}", plain_value);
      g_autoptr(DynValue) holder = dyn_test_plain_item (wrapped);

      value = dyn_value_ref (dyn_value_map_lookup (holder, "v"));
    }
  changed = dyn_item_with_path (item, path, value);
  g_assert_nonnull (changed);
  return changed;
}

/* The Update action and guard sentence of a one-change plan. */
static JsonObject *
movie_update (DynValue     *before,
              DynValue     *after,
              DynGuardMode  mode,
              JsonNode    **plan_out,
              char        **guard_text)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("Movies", &movies);
  g_autoptr(GError) error = NULL;
  const char *type;
  JsonObject *update;

  dyn_change_set_set_guard_mode (set, mode);
  if (mode == DYN_GUARD_VERSION)
    dyn_change_set_set_version_attribute (set, "version");
  g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, 0);
  *plan_out = plan_of (set);
  update = plan_action (*plan_out, 0, 0, &type);
  g_assert_cmpstr (type, ==, "Update");
  assert_all_aliased (member_string (update, "UpdateExpression"));
  assert_all_aliased (member_string (update, "ConditionExpression"));
  if (guard_text != NULL)
    {
      *guard_text = dyn_change_set_describe_guard (set, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (*guard_text, ==, member_string (plan_change (*plan_out, 0), "guard_text"));
    }
  return update;
}

static void
test_paths (void)
{
  g_autoptr(DynValue) item = dyn_test_plain_item (movie);
  g_autoptr(DynExprPath) city = dyn_expr_path_parse ("info.production.studio.address.city", NULL);
  g_autoptr(DynExprPath) genre = dyn_expr_path_parse ("info.genres[1]", NULL);
  g_autoptr(DynExprPath) info = dyn_expr_path_parse ("info", NULL);
  g_autoptr(DynExprPath) odd = dyn_expr_path_new ("info");
  g_autoptr(DynValue) manchester = dyn_value_new_string ("Manchester");
  g_autoptr(DynValue) moved = NULL;
  g_autoptr(DynValue) dropped = NULL;
  g_autofree char *odd_text = NULL;

  g_assert_cmpstr (dyn_value_get_string (dyn_path_lookup (item, city)), ==, "London");
  g_assert_cmpstr (dyn_value_get_string (dyn_path_lookup (item, genre)), ==, "Biography");
  g_assert_true (dyn_path_overlaps (info, city));
  g_assert_true (dyn_path_overlaps (city, info));
  g_assert_false (dyn_path_overlaps (genre, city));
  dyn_expr_path_append_name (odd, "a.b");
  dyn_expr_path_append_index (odd, 0);
  odd_text = dyn_path_to_display (odd);
  g_assert_cmpstr (odd_text, ==, "info.`a.b`[0]");

  /* Setting a deep path copies the maps on the way and shares the rest. */
  moved = dyn_item_with_path (item, city, manchester);
  g_assert_cmpstr (dyn_value_get_string (dyn_path_lookup (moved, city)), ==, "Manchester");
  g_assert_cmpstr (dyn_value_get_string (dyn_path_lookup (item, city)), ==, "London");
  g_assert_true (dyn_path_lookup (moved, genre) == dyn_path_lookup (item, genre));
  dropped = dyn_item_with_path (moved, city, NULL);
  g_assert_null (dyn_path_lookup (dropped, city));
  /* A path through a missing parent, or past a list's end, is refused. */
  {
    g_autoptr(DynExprPath) missing = dyn_expr_path_parse ("info.awards.oscar", NULL);
    g_autoptr(DynExprPath) past = dyn_expr_path_parse ("info.genres[7]", NULL);
    g_assert_null (dyn_item_with_path (item, missing, manchester));
    g_assert_null (dyn_item_with_path (item, past, manchester));
  }
}

/* The write and the default guard per changed path, and the hard cases. */
static void
test_nested_writes (void)
{
  g_autoptr(DynValue) before = dyn_test_plain_item (movie);

  /* One nested number: only that path is written and guarded. */
  {
    g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
    g_autoptr(JsonNode) plan = NULL;
    g_autofree char *guard = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, &guard);
    g_autofree char *v = value_text (upd, ":rating");
    g_autofree char *old = value_text (upd, ":old_rating");
    JsonObject *values = json_object_get_object_member (upd, "ExpressionAttributeValues");

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #info.#rating = :rating");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND #info.#rating = :old_rating");
    g_assert_cmpstr (v, ==, "{\"N\":\"9.1\"}");
    g_assert_cmpstr (old, ==, "{\"N\":\"8.7\"}");
    g_assert_cmpuint (json_object_get_size (values), ==, 2);
    g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, "changed-attributes");
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.rating is still 8.7");
    g_assert_cmpstr (member_string (plan_change (plan, 0), "description"), ==,
                     "Update {\"year\":2013,\"title\":\"Rush\"}: info.rating. "
                     "Guarded by the values it changes: info.rating is still 8.7");
  }

  /* A map replaced by a non-map: the path is written whole. */
  {
    g_autoptr(DynValue) after = movie_with ("info", "\"n/a\"");
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, NULL);

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #info = :info");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==, "attribute_exists(#year) AND #info = :old_info");
  }

  /* A parent that did not exist: the whole new sub-map, guarded by its absence. */
  {
    g_autoptr(DynValue) after = movie_with ("awards", "{\"oscars\": {\"won\": 0, \"nominated\": 2}}");
    g_autoptr(JsonNode) plan = NULL;
    g_autofree char *guard = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, &guard);
    g_autofree char *v = value_text (upd, ":awards");

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #awards = :awards");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND attribute_not_exists(#awards)");
    g_assert_cmpstr (v, ==, "{\"M\":{\"oscars\":{\"M\":{\"won\":{\"N\":\"0\"},\"nominated\":{\"N\":\"2\"}}}}}");
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: awards is still absent");
  }

  /* A new member of an existing map, deep: absent, and its parent still a map. */
  {
    g_autoptr(DynValue) after = movie_with ("info.production.studio.address.zip", "\"W1\"");
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, NULL);
    g_autofree char *type = value_text (upd, ":type_M");

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==,
                     "SET #info.#production.#studio.#address.#zip = :zip");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND attribute_not_exists(#info.#production.#studio.#address.#zip) AND "
                     "attribute_type(#info.#production.#studio.#address, :type_M)");
    g_assert_cmpstr (type, ==, "{\"S\":\"M\"}");
  }

  /* A removed nested member. */
  {
    g_autoptr(DynValue) after = movie_with ("info.plot", NULL);
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, NULL);

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "REMOVE #info.#plot");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==, "attribute_exists(#year) AND #info.#plot = :old_plot");
  }

  /* A list element: written by position while the list keeps its length. */
  {
    g_autoptr(DynValue) after = movie_with ("info.genres[1]", "\"Sport\"");
    g_autoptr(JsonNode) plan = NULL;
    g_autofree char *guard = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, &guard);

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #info.#genres[1] = :genres");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND #info.#genres[1] = :old_genres AND "
                     "size(#info.#genres) = :size_genres");
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.genres[1] is still \"Biography\", "
                                "info.genres still has 3 elements");
  }

  /* Names that need placeholders at every level: odd characters, a dot in
   * a name, reserved words. */
  {
    g_autoptr(DynValue) step = movie_with ("info.`first-name`", "\"Jim\"");
    g_autoptr(DynExprPath) dot = dyn_expr_path_new ("info");
    g_autoptr(DynValue) two = dyn_value_new_string ("dot2");
    g_autoptr(DynValue) after = NULL;
    g_autoptr(JsonNode) plan = NULL;
    g_autofree char *guard = NULL;
    JsonObject *upd;
    const char *update;

    dyn_expr_path_append_name (dot, "a.b");
    after = dyn_item_with_path (step, dot, two);
    upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, &guard);
    update = member_string (upd, "UpdateExpression");
    g_assert_null (strstr (update, "a.b"));
    g_assert_null (strstr (update, "first-name"));
    g_assert_cmpstr (name_of (upd, "#firstname"), ==, "first-name");
    g_assert_cmpstr (name_of (upd, "#ab"), ==, "a.b");
    g_assert_cmpstr (update, ==, "SET #info.#firstname = :firstname, #info.#ab = :ab");
    g_assert_nonnull (strstr (guard, "info.first-name is still \"James\""));
    g_assert_nonnull (strstr (guard, "info.`a.b` is still \"dot\""));
  }

  /* Many changes at several depths: no two paths of the update overlap
   * (DynamoDB refuses that), the parent of a new member is guarded by its
   * changed sibling. */
  {
    g_autoptr(DynValue) a1 = movie_with ("info.rating", "9.0");
    g_autoptr(DynExprPath) p_rank = dyn_expr_path_parse ("info.rank", NULL);
    g_autoptr(DynExprPath) p_city = dyn_expr_path_parse ("info.production.studio.address.city", NULL);
    g_autoptr(DynExprPath) p_new = dyn_expr_path_parse ("info.production.studio.founded", NULL);
    g_autoptr(DynExprPath) p_name = dyn_expr_path_parse ("info.production.studio.name", NULL);
    g_autoptr(DynValue) one = dyn_value_new_number ("1", NULL);
    g_autoptr(DynValue) year = dyn_value_new_number ("1983", NULL);
    g_autoptr(DynValue) a2 = dyn_item_with_path (a1, p_rank, one);
    g_autoptr(DynValue) a3 = dyn_item_with_path (a2, p_city, NULL);
    g_autoptr(DynValue) a4 = dyn_item_with_path (a3, p_new, year);
    g_autoptr(DynValue) after = dyn_item_with_path (a4, p_name, NULL);
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *upd = movie_update (before, after, DYN_GUARD_CHANGES, &plan, NULL);

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==,
                     "SET #info.#rating = :rating, #info.#rank = :rank, #info.#production.#studio.#founded = :founded "
                     "REMOVE #info.#production.#studio.#name, #info.#production.#studio.#address.#city");
    g_assert_null (strstr (member_string (upd, "ConditionExpression"), "attribute_type"));
  }
}

/* The guard per mode, in one sentence each, and the same paths written. */
static void
test_guard_modes (void)
{
  g_autoptr(DynValue) before = dyn_test_plain_item (movie);
  g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
  struct {
    DynGuardMode  mode;
    const char   *kind;
    const char   *condition;
    const char   *update;
    const char   *text;
  } cases[] = {
    { DYN_GUARD_CHANGES, "changed-attributes", "attribute_exists(#year) AND #info.#rating = :old_rating",
      "SET #info.#rating = :rating", "Guarded by the values it changes: info.rating is still 8.7" },
    { DYN_GUARD_ITEM, "values",
      "attribute_exists(#year) AND #version = :old_version AND #runtime = :old_runtime AND #info = :old_info",
      "SET #info.#rating = :rating", "Guarded by the whole item as loaded (3 attributes)" },
    { DYN_GUARD_VERSION, "version", "#version = :old_version",
      "SET #info.#rating = :rating, #version = :version", "Guarded by version: version is still 3, set to 4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) plan = NULL;
      g_autofree char *guard = NULL;
      JsonObject *upd = movie_update (before, after, cases[i].mode, &plan, &guard);

      g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, cases[i].update);
      g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==, cases[i].condition);
      g_assert_cmpstr (member_string (plan_change (plan, 0), "guard"), ==, cases[i].kind);
      g_assert_cmpstr (guard, ==, cases[i].text);
    }

  /* Deletes are guarded by the whole item (a delete changes every
   * attribute), or by the version; creates by the key's absence; a key
   * change by both. */
  {
    g_autoptr(DynChangeSet) set = dyn_change_set_new ("Movies", &movies);
    g_autoptr(DynValue) moved = dyn_test_plain_item ("{\"year\": 2013, \"title\": \"Rush (2013)\", \"runtime\": 123}");
    g_autoptr(DynValue) old = dyn_test_plain_item ("{\"year\": 2013, \"title\": \"Rush 2\", \"runtime\": 123}");
    g_autoptr(DynValue) created = dyn_test_plain_item ("{\"year\": 2014, \"title\": \"Rush 3\"}");
    g_autoptr(GError) error = NULL;
    g_autofree char *t0 = NULL, *t1 = NULL, *t2 = NULL, *t3 = NULL;

    dyn_change_set_add (set, before, NULL, &error);
    dyn_change_set_add (set, NULL, created, &error);
    dyn_change_set_add (set, old, moved, &error);
    g_assert_no_error (error);
    t0 = dyn_change_set_describe_guard (set, 0, &error);
    t1 = dyn_change_set_describe_guard (set, 1, &error);
    t2 = dyn_change_set_describe_guard (set, 2, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (t0, ==, "Guarded by the whole item as loaded (3 attributes)");
    g_assert_cmpstr (t1, ==, "Guarded: no item with this key may exist");
    g_assert_cmpstr (t2, ==, "Guarded by the whole item as loaded (1 attribute); no item with the new key may exist");
    dyn_change_set_set_version_attribute (set, "version");
    g_assert_cmpint (dyn_change_set_get_guard_mode (set), ==, DYN_GUARD_VERSION);
    t3 = dyn_change_set_describe_guard (set, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (t3, ==, "Guarded by version: version is still 3");
    dyn_change_set_set_version_attribute (set, NULL);
    g_assert_cmpint (dyn_change_set_get_guard_mode (set), ==, DYN_GUARD_CHANGES);
  }

  /* Version mode on an item without a version number: the changed paths. */
  {
    g_autoptr(DynValue) b = dyn_test_plain_item ("{\"year\": 2014, \"title\": \"X\", \"info\": {\"rating\": 1}}");
    g_autoptr(DynValue) a = dyn_test_plain_item ("{\"year\": 2014, \"title\": \"X\", \"info\": {\"rating\": 2}}");
    g_autoptr(JsonNode) plan = NULL;
    g_autofree char *guard = NULL;
    JsonObject *upd = movie_update (b, a, DYN_GUARD_VERSION, &plan, &guard);

    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND #info.#rating = :old_rating");
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.rating is still 1 "
                                "(the item has no version number in version)");
  }

  /* The mode is a property too. */
  {
    g_autoptr(DynChangeSet) set = dyn_change_set_new ("Movies", &movies);
    DynGuardMode mode;

    g_object_set (set, "guard-mode", DYN_GUARD_ITEM, NULL);
    g_object_get (set, "guard-mode", &mode, NULL);
    g_assert_cmpint (mode, ==, DYN_GUARD_ITEM);
    g_assert_cmpint (dyn_change_set_get_guard_mode (set), ==, DYN_GUARD_ITEM);
  }
}

/* Three-way merges by path: each side keeps what it changed inside a map. */
static void
test_merge_paths (void)
{
  g_autoptr(DynValue) base = dyn_test_plain_item (movie);
  g_autoptr(DynValue) mine = movie_with ("info.rating", "9.1");
  g_autoptr(DynValue) server = NULL;
  g_autoptr(GPtrArray) merge = NULL;
  g_autoptr(DynValue) merged = NULL;
  DynMergeEntry *e;

  /* The server changed the rank and the rating, removed the plot. */
  {
    g_autoptr(DynExprPath) rank = dyn_expr_path_parse ("info.rank", NULL);
    g_autoptr(DynExprPath) rating = dyn_expr_path_parse ("info.rating", NULL);
    g_autoptr(DynExprPath) plot = dyn_expr_path_parse ("info.plot", NULL);
    g_autoptr(DynValue) one = dyn_value_new_number ("1", NULL);
    g_autoptr(DynValue) seven = dyn_value_new_number ("7.5", NULL);
    g_autoptr(DynValue) s1 = dyn_item_with_path (base, rank, one);
    g_autoptr(DynValue) s2 = dyn_item_with_path (s1, rating, seven);

    server = dyn_item_with_path (s2, plot, NULL);
  }
  merge = dyn_merge_entries (base, server, mine, &movies);
  g_assert_null (dyn_merge_lookup (merge, "info"));
  e = dyn_merge_lookup (merge, "info.rating");
  g_assert_true (e->conflict);
  g_assert_cmpint (e->side, ==, DYN_MERGE_MINE);
  g_assert_cmpstr (dyn_value_get_number (e->base), ==, "8.7");
  g_assert_cmpstr (dyn_value_get_number (e->server), ==, "7.5");
  g_assert_cmpstr (dyn_value_get_number (e->mine), ==, "9.1");
  e = dyn_merge_lookup (merge, "info.rank");
  g_assert_true (e->server_changed && !e->mine_changed && !e->conflict);
  g_assert_cmpint (e->side, ==, DYN_MERGE_SERVER);
  e = dyn_merge_lookup (merge, "info.plot");
  g_assert_true (e->server_changed);
  g_assert_null (e->server);
  /* Unchanged: one entry at the highest level. */
  g_assert_nonnull (dyn_merge_lookup (merge, "info.production"));
  g_assert_null (dyn_merge_lookup (merge, "info.production.studio"));
  g_assert_nonnull (dyn_merge_lookup (merge, "info.genres"));
  g_assert_true (dyn_merge_lookup (merge, "year")->is_key);
  for (guint i = 0; i < merge->len; i++)
    for (guint j = i + 1; j < merge->len; j++)
      g_assert_false (dyn_path_overlaps (((DynMergeEntry *) merge->pdata[i])->path,
                                         ((DynMergeEntry *) merge->pdata[j])->path));

  merged = dyn_merge_build (merge);
  {
    g_autoptr(DynValue) expected_step = NULL;
    g_autoptr(DynExprPath) rating = dyn_expr_path_parse ("info.rating", NULL);
    g_autoptr(DynValue) nine = dyn_value_new_number ("9.1", NULL);
    g_autoptr(DynValue) expected = dyn_item_with_path (server, rating, nine);

    g_assert_true (dyn_value_equal (merged, expected));
  }

  /* The resolved change (server → merge) writes my path only. */
  {
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *upd = movie_update (server, merged, DYN_GUARD_CHANGES, &plan, NULL);

    g_assert_cmpstr (member_string (upd, "UpdateExpression"), ==, "SET #info.#rating = :rating");
    g_assert_cmpstr (member_string (upd, "ConditionExpression"), ==,
                     "attribute_exists(#year) AND #info.#rating = :old_rating");
  }

  /* The server replaced the map by a string: one entry at info, a conflict. */
  {
    g_autoptr(DynExprPath) info = dyn_expr_path_parse ("info", NULL);
    g_autoptr(DynValue) na = dyn_value_new_string ("n/a");
    g_autoptr(DynValue) replaced = dyn_item_with_path (base, info, na);
    g_autoptr(GPtrArray) m2 = dyn_merge_entries (base, replaced, mine, &movies);

    g_assert_true (dyn_merge_lookup (m2, "info")->conflict);
    g_assert_null (dyn_merge_lookup (m2, "info.rating"));
  }

  /* Both added a map that was not there: each keeps its members, and a map
   * that ends up empty is kept. */
  {
    g_autoptr(DynValue) b = dyn_test_plain_item ("{\"year\": 1, \"title\": \"t\", \"keep\": {\"x\": 1}}");
    g_autoptr(DynValue) s = dyn_test_plain_item ("{\"year\": 1, \"title\": \"t\", \"keep\": {}, \"awards\": {\"a\": 1}}");
    g_autoptr(DynValue) m = dyn_test_plain_item ("{\"year\": 1, \"title\": \"t\", \"keep\": {\"x\": 1}, \"awards\": {\"b\": 2}}");
    g_autoptr(DynValue) expected = dyn_test_plain_item ("{\"year\": 1, \"title\": \"t\", \"keep\": {}, \"awards\": {\"a\": 1, \"b\": 2}}");
    g_autoptr(GPtrArray) m3 = dyn_merge_entries (b, s, m, &movies);
    g_autoptr(DynValue) built = dyn_merge_build (m3);

    g_assert_nonnull (dyn_merge_lookup (m3, "awards.a"));
    g_assert_nonnull (dyn_merge_lookup (m3, "keep.x"));
    g_assert_true (dyn_value_equal (built, expected));
  }
}

/* ------------------------------------------------------------------------ */
/* Against DynamoDB Local */

static void
fixture_setup (DynTestFixture *fx,
               gconstpointer   data)
{
  if (dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "changes"))
    dyn_test_fixture_create_table (fx, "pk:S", data ? "sk:N" : NULL, NULL);
}

static DynValue *
get_item (DynClient  *client,
          const char *table,
          const char *key_json)
{
  g_autoptr(DynValue) key = dyn_test_item (key_json);

  return dyn_test_get_item (client, table, key, TRUE);
}

static DynCommitResult *
commit (DynChangeSet *set,
        DynClient    *client)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DynCommitResult *res;

  dyn_change_set_commit_async (set, client, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  res = dyn_change_set_commit_finish (set, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (res);
  if (g_test_verbose ())
    {
      g_autoptr(JsonNode) json = dyn_commit_result_to_json (res);
      g_autofree char *text = json_to_string (json, TRUE);
      g_test_message ("%s", text);
    }
  return res;
}

/* Runs a Python snippet with boto3 against the test server. The snippet
 * finds `c` (a low-level client), `T` (the table) and `json`, `base64`. */
static char *
boto3 (DynTestFixture *fx,
       const char     *code)
{
  g_autofree char *script = g_strdup_printf (
    "import boto3, json, base64, sys\n"
    "c = boto3.client('dynamodb', endpoint_url='%s', region_name='%s',\n"
    "                 aws_access_key_id='%s', aws_secret_access_key='%s')\n"
    "T = '%s'\n"
    "def raw(v):\n"
    "    if isinstance(v, (bytes, bytearray)): return {'$b64': base64.b64encode(v).decode()}\n"
    "    if isinstance(v, dict): return {k: raw(x) for k, x in v.items()}\n"
    "    if isinstance(v, list): return [raw(x) for x in v]\n"
    "    return v\n"
    "%s\n",
    dyn_test_server_get_endpoint (fx->server), DYN_TEST_REGION,
    DYN_TEST_ACCESS_KEY, DYN_TEST_SECRET_KEY, fx->table, code);
  const char *argv[] = { "/usr/bin/python3", "-c", script, NULL };
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  g_autofree char *err = NULL;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /usr/bin/python3");
      return NULL;
    }
  proc = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_error ("boto3 failed: %s", err);
  return out;
}

static void
put (DynTestFixture *fx,
     const char     *json)
{
  g_autoptr(DynValue) item = dyn_test_item (json);
  g_autoptr(GError) error = NULL;

  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);
}

static void
test_commit_update (DynTestFixture *fx,
                    gconstpointer   data)
{
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = NULL;
  g_autoptr(DynValue) now = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  put (fx, "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"tags\":{\"SS\":[\"x\",\"y\",\"zzzzzzzz\"]},"
           "\"m\":{\"M\":{\"Name\":{\"S\":\"n\"},\"Size\":{\"N\":\"1\"}}},\"old\":{\"BOOL\":true}}");
  before = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
  after = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"closed\"},\"tags\":{\"SS\":[\"x\",\"zzzzzzzz\"]},"
                         "\"m\":{\"M\":{\"Name\":{\"S\":\"n\"},\"Size\":{\"N\":\"2\"}}},\"Date\":{\"S\":\"2024\"}}");
  set = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_add (set, before, after, &error);
  g_assert_no_error (error);

  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
  g_assert_cmpuint (dyn_commit_result_get_n_requests (res), ==, 1);
  g_assert_cmpstr (dyn_commit_result_get_request_operation (res, 0), ==, "TransactWriteItems");
  g_assert_nonnull (dyn_commit_result_get_request_token (res, 0));
  g_assert_cmpuint (dyn_commit_result_get_n_conflicts (res), ==, 0);

  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
  g_assert_true (dyn_value_equal (now, after));

  /* Undo: the inverse change, guarded by the item as the commit left it. */
  {
    g_autoptr(DynChange) inverse = dyn_change_inverse (dyn_change_set_get_change (set, 0), NULL);
    g_autoptr(DynChangeSet) undo = dyn_change_set_new (fx->table, &pk_only);
    g_autoptr(DynCommitResult) res2 = NULL;
    g_autoptr(DynValue) restored = NULL;

    dyn_change_set_add_change (undo, inverse, &error);
    g_assert_no_error (error);
    res2 = commit (undo, fx->client);
    g_assert_cmpint (dyn_commit_result_get_status (res2, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    restored = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
    g_assert_true (dyn_value_equal (restored, before));
  }
}

static void
assert_conflict_with_other_change (DynTestFixture *fx,
                                   DynValue       *after,
                                   const char     *other_status)
{
  g_autoptr(DynValue) now = NULL;

  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
  g_assert_cmpstr (dyn_test_item_get_string (now, "Status"), ==, other_status);
  g_assert_false (dyn_value_equal (now, after));
}

/* Load, boto3 changes the item, commit with the whole item as guard:
 * conflict, boto3's change intact. (With the default guard this change
 * applies: see test_unrelated_boto3.) */
static void
test_concurrent_boto3 (DynTestFixture *fx,
                       gconstpointer   data)
{
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  DynValue *current;

  DYN_TEST_REQUIRE_SERVER (fx);
  put (fx, "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"note\":{\"S\":\"n\"}}");
  before = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
  after = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"note\":{\"S\":\"mine\"}}");

  out = boto3 (fx, "c.update_item(TableName=T, Key={'pk': {'S': 'a'}}, UpdateExpression='SET #s = :s',\n"
                   "  ExpressionAttributeNames={'#s': 'Status'}, ExpressionAttributeValues={':s': {'S': 'boto3'}})\n"
                   "print('ok')");
  if (out == NULL)
    return;
  g_assert_cmpstr (out, ==, "ok\n");

  set = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_set_guard_mode (set, DYN_GUARD_ITEM);
  dyn_change_set_add (set, before, after, &error);
  g_assert_no_error (error);
  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
  g_assert_cmpuint (dyn_commit_result_get_n_conflicts (res), ==, 1);
  current = dyn_commit_result_get_current (res, 0);
  g_assert_nonnull (current);
  g_assert_cmpstr (dyn_test_item_get_string (current, "Status"), ==, "boto3");
  g_assert_cmpstr (dyn_test_item_get_string (current, "note"), ==, "n");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_commit_result_get_conflict_key (res, 0), "pk"), ==, "a");
  assert_conflict_with_other_change (fx, after, "boto3");
  {
    g_autoptr(DynValue) now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
    g_assert_cmpstr (dyn_test_item_get_string (now, "note"), ==, "n");
  }
}

/* The same with a second Dynoscope client, a version attribute, and a delete
 * of the item by the other client (the answer carries no item then: GetItem). */
static void
test_concurrent_client (DynTestFixture *fx,
                        gconstpointer   data)
{
  g_autoptr(DynClient) other = dyn_test_client_new (fx->server);
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynChangeSet) theirs = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) mine = NULL;
  g_autoptr(DynValue) their_after = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(DynCommitResult) res_theirs = NULL;
  g_autoptr(GError) error = NULL;
  DynValue *current;

  DYN_TEST_REQUIRE_SERVER (fx);
  put (fx, "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"version\":{\"N\":\"1\"},\"x\":{\"N\":\"0\"}}");
  put (fx, "{\"pk\":{\"S\":\"b\"},\"Status\":{\"S\":\"open\"}}");
  before = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");

  /* The other client changes a different attribute: the version moves. */
  their_after = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"theirs\"},\"version\":{\"N\":\"1\"},\"x\":{\"N\":\"0\"}}");
  theirs = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_set_version_attribute (theirs, "version");
  dyn_change_set_add (theirs, before, their_after, &error);
  {
    g_autoptr(DynValue) b_before = get_item (other, fx->table, "{\"pk\":{\"S\":\"b\"}}");
    dyn_change_set_add (theirs, b_before, NULL, &error);
  }
  g_assert_no_error (error);
  res_theirs = commit (theirs, other);
  g_assert_cmpint (dyn_commit_result_get_n_applied (res_theirs), ==, 2);

  /* Mine, loaded before theirs: x changes, version guard fails. */
  mine = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"},\"version\":{\"N\":\"1\"},\"x\":{\"N\":\"5\"}}");
  set = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_set_version_attribute (set, "version");
  dyn_change_set_set_single_requests (set, TRUE);
  dyn_change_set_add (set, before, mine, &error);
  g_assert_no_error (error);
  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
  g_assert_cmpstr (dyn_commit_result_get_request_operation (res, 0), ==, "UpdateItem");
  current = dyn_commit_result_get_current (res, 0);
  g_assert_nonnull (current);
  g_assert_cmpstr (dyn_test_item_get_number (current, "version"), ==, "2");
  g_assert_cmpstr (dyn_test_item_get_string (current, "Status"), ==, "theirs");
  assert_conflict_with_other_change (fx, mine, "theirs");

  /* An update of b, which the other client deleted: conflict, no item. */
  {
    g_autoptr(DynChangeSet) set_b = dyn_change_set_new (fx->table, &pk_only);
    g_autoptr(DynValue) b_before = dyn_test_item ("{\"pk\":{\"S\":\"b\"},\"Status\":{\"S\":\"open\"}}");
    g_autoptr(DynValue) b_after = dyn_test_item ("{\"pk\":{\"S\":\"b\"},\"Status\":{\"S\":\"mine\"}}");
    g_autoptr(DynCommitResult) res_b = NULL;
    g_autoptr(DynValue) b_now = NULL;

    dyn_change_set_add (set_b, b_before, b_after, &error);
    g_assert_no_error (error);
    res_b = commit (set_b, fx->client);
    g_assert_cmpint (dyn_commit_result_get_status (res_b, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    g_assert_null (dyn_commit_result_get_current (res_b, 0));
    g_assert_null (dyn_commit_result_get_error (res_b, 0));
    b_now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"b\"}}");
    g_assert_null (b_now);
  }
}

static void
test_create_existing (DynTestFixture *fx,
                      gconstpointer   data)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new (fx->table, &pk_sk);
  g_autoptr(DynValue) item = NULL;
  g_autoptr(DynValue) fresh = NULL;
  g_autoptr(DynValue) now = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  put (fx, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"who\":{\"S\":\"first\"}}");
  item = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1.0\"},\"who\":{\"S\":\"second\"}}");
  fresh = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"who\":{\"S\":\"fresh\"}}");
  dyn_change_set_add (set, NULL, item, &error);
  dyn_change_set_add (set, NULL, fresh, &error);
  g_assert_no_error (error);
  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
  g_assert_cmpint (dyn_commit_result_get_status (res, 1), ==, DYN_CHANGE_STATUS_NOT_APPLIED);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_commit_result_get_current (res, 0), "who"), ==, "first");
  g_assert_cmpuint (dyn_commit_result_get_n_failed (res), ==, 1);

  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}");
  g_assert_cmpstr (dyn_test_item_get_string (now, "who"), ==, "first");
  g_clear_pointer (&now, dyn_value_unref);
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}");
  g_assert_null (now);
}

/* Three changes in one transaction, one of them stale: nothing is written. */
static void
test_transaction_atomic (DynTestFixture *fx,
                         gconstpointer   data)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new (fx->table, &pk_sk);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(DynValue) stale = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"},\"v\":{\"N\":\"%u\"}}", i, i);
      put (fx, json);
    }
  {
    g_autoptr(DynValue) b1 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"N\":\"1\"}}");
    g_autoptr(DynValue) a1 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"N\":\"10\"}}");
    g_autoptr(DynValue) b2 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"v\":{\"N\":\"999\"}}");
    g_autoptr(DynValue) a2 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"},\"v\":{\"N\":\"20\"}}");
    g_autoptr(DynValue) b3 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"3\"},\"v\":{\"N\":\"3\"}}");
    g_autoptr(DynValue) a3 = dyn_test_item ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"4\"},\"v\":{\"N\":\"3\"}}");

    dyn_change_set_add (set, b1, a1, &error);
    dyn_change_set_add (set, b2, a2, &error);   /* stale: the server holds 2 */
    dyn_change_set_add (set, b3, a3, &error);   /* key change */
    g_assert_no_error (error);
  }
  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_NOT_APPLIED);
  g_assert_cmpint (dyn_commit_result_get_status (res, 1), ==, DYN_CHANGE_STATUS_CONFLICT);
  g_assert_cmpint (dyn_commit_result_get_status (res, 2), ==, DYN_CHANGE_STATUS_NOT_APPLIED);
  g_assert_cmpstr (dyn_test_item_get_number (dyn_commit_result_get_current (res, 1), "v"), ==, "2");

  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *key = g_strdup_printf ("{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%u\"}}", i);
      g_autoptr(DynValue) now = get_item (fx->client, fx->table, key);
      g_autofree char *v = g_strdup_printf ("%u", i);
      g_assert_cmpstr (dyn_test_item_get_number (now, "v"), ==, v);
    }
  stale = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"4\"}}");
  g_assert_null (stale);
}

/* More than 100 changes: several transactions, each reported. */
static void
test_commit_split (DynTestFixture *fx,
                   gconstpointer   data)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new (fx->table, &pk_sk);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GPtrArray) keys = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) items = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  for (guint i = 0; i < 130; i++)
    {
      g_autoptr(DynValue) item = dyn_test_itemf ("{\"pk\":{\"S\":\"s\"},\"sk\":{\"N\":\"%u\"}}", i);
      dyn_change_set_add (set, NULL, item, &error);
      g_assert_no_error (error);
      g_ptr_array_add (keys, dyn_value_ref (item));
    }
  res = commit (set, fx->client);
  g_assert_cmpuint (dyn_commit_result_get_n_requests (res), ==, 2);
  g_assert_cmpuint (dyn_commit_result_get_n_applied (res), ==, 130);
  g_assert_cmpint (dyn_commit_result_get_request (res, 99), ==, 0);
  g_assert_cmpint (dyn_commit_result_get_request (res, 100), ==, 1);
  g_assert_cmpstr (dyn_commit_result_get_request_token (res, 0), !=, dyn_commit_result_get_request_token (res, 1));
  json = dyn_commit_result_to_json (res);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (json), "requests")), ==, 2);

  items = dyn_test_batch_get (fx->client, fx->table, keys, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 130);
}

/* Untouched 38-digit numbers, sets, binary and nested maps survive an edit
 * of a neighbouring attribute byte for byte, as boto3 reads them. */
static void
test_fidelity_boto3 (DynTestFixture *fx,
                     gconstpointer   data)
{
  static const char snapshot[] =
    "r = c.get_item(TableName=T, Key={'pk': {'S': 'f'}}, ConsistentRead=True)['Item']\n"
    "print(json.dumps({k: raw(r[k]) for k in ['big', 'small', 'neg', 'ns', 'bin', 'bs', 'nested']}, sort_keys=True))\n";
  g_autofree char *put_out = NULL;
  g_autofree char *before_out = NULL;
  g_autofree char *after_out = NULL;
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) plan = NULL;
  g_autofree char *plan_text = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  put_out = boto3 (fx,
    "item = {'pk': {'S': 'f'}, 'edit': {'S': 'old'},\n"
    "  'big': {'N': '12345678901234567890123456789012345678'},\n"
    "  'small': {'N': '0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000123'},\n"
    "  'neg': {'N': '-98765432109876543210987654321098765432'},\n"
    "  'ns': {'NS': ['99999999999999999999999999999999999999', '-1.5', '0.000000000000000000000000000000000001']},\n"
    "  'bin': {'B': bytes(range(256))},\n"
    "  'bs': {'BS': [b'\\x00\\x01', b'\\xff\\xfe\\x00']},\n"
    "  'nested': {'M': {'a': {'M': {'b': {'L': [{'N': '1.000000000000000000000000000000000001'}, {'SS': ['x', 'y']}, {'NULL': True}]}}},\n"
    "                   'n': {'N': '31415926535897932384626433832795028841'}}}}\n"
    "c.put_item(TableName=T, Item=item)\n"
    "print(json.dumps({k: raw(v) for k, v in item.items() if k not in ('pk', 'edit')}, sort_keys=True))\n");
  if (put_out == NULL)
    return;
  before_out = boto3 (fx, snapshot);

  before = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"f\"}}");
  after = dyn_test_item ("{\"pk\":{\"S\":\"f\"},\"edit\":{\"S\":\"new\"}}");
  {
    /* The edited item: everything as loaded, one attribute changed. */
    g_autoptr(DynValue) edited = dyn_value_new_map ();
    for (guint i = 0; i < dyn_value_get_length (before); i++)
      {
        const char *name = dyn_value_map_get_name (before, i);
        dyn_value_map_set (edited, name, strcmp (name, "edit") == 0
                                         ? dyn_value_map_lookup (after, "edit")
                                         : dyn_value_map_get_value (before, i));
      }
    g_clear_pointer (&after, dyn_value_unref);
    after = g_steal_pointer (&edited);
  }
  set = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_add (set, before, after, &error);
  g_assert_no_error (error);

  /* Only "edit" is written. */
  plan = plan_of (set);
  g_assert_cmpstr (member_string (plan_action (plan, 0, 0, NULL), "UpdateExpression"), ==, "SET #edit = :edit");
  plan_text = json_to_string (plan, FALSE);

  res = commit (set, fx->client);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);

  after_out = boto3 (fx, snapshot);
  g_assert_cmpstr (after_out, ==, before_out);
  /* And as put (sets compared as boto3 returned them, in the server's order). */
  {
    g_autoptr(JsonNode) a = json_from_string (after_out, NULL);
    g_autoptr(JsonNode) p = json_from_string (put_out, NULL);
    JsonObject *ao = json_node_get_object (a), *po = json_node_get_object (p);
    const char *scalars[] = { "big", "small", "neg", "bin", "nested" };

    for (guint i = 0; i < G_N_ELEMENTS (scalars); i++)
      {
        g_autofree char *x = json_to_string (json_object_get_member (ao, scalars[i]), FALSE);
        g_autofree char *y = json_to_string (json_object_get_member (po, scalars[i]), FALSE);
        g_assert_cmpstr (x, ==, y);
      }
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_object_get_object_member (ao, "ns"), "NS")), ==, 3);
  }
  {
    g_autofree char *edit = boto3 (fx, "print(c.get_item(TableName=T, Key={'pk': {'S': 'f'}})['Item']['edit']['S'])");
    g_assert_cmpstr (edit, ==, "new\n");
  }
}

static void
movies_setup (DynTestFixture *fx,
              gconstpointer   data)
{
  if (dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "movies"))
    dyn_test_fixture_create_table (fx, "year:N", "title:S", NULL);
}

static DynValue *
get_movie (DynTestFixture *fx)
{
  return get_item (fx->client, fx->table, "{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}");
}

/* Puts the movie again and returns it as loaded. */
static DynValue *
reset_movie (DynTestFixture *fx)
{
  g_autoptr(DynValue) item = dyn_test_plain_item (movie);
  g_autoptr(GError) error = NULL;

  dyn_test_put_item (fx->client, fx->table, item, &error);
  g_assert_no_error (error);
  return get_movie (fx);
}

/* The other writer's UpdateItem on the movie (its own client). */
static void
theirs (DynClient      *other,
        DynTestFixture *fx,
        const char     *update,
        const char     *names,
        const char     *values)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (other, "UpdateItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}},"
                             "\"UpdateExpression\":\"%s\",\"ExpressionAttributeNames\":%s%s%s}",
                             fx->table, update, names,
                             values ? ",\"ExpressionAttributeValues\":" : "", values ? values : "");
  g_assert_no_error (error);
}

static DynCommitResult *
commit_one (DynTestFixture *fx,
            DynValue       *before,
            DynValue       *after,
            DynGuardMode    mode)
{
  g_autoptr(DynChangeSet) set = dyn_change_set_new (fx->table, &movies);
  g_autoptr(GError) error = NULL;

  dyn_change_set_set_guard_mode (set, mode);
  g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, 0);
  g_assert_no_error (error);
  return commit (set, fx->client);
}

static const char *
number_at (DynValue   *item,
           const char *path_text)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_parse (path_text, NULL);
  DynValue *value = dyn_path_lookup (item, path);

  g_assert_nonnull (value);
  return dyn_value_get_number (value);
}

static const char *
string_at (DynValue   *item,
           const char *path_text)
{
  g_autoptr(DynExprPath) path = dyn_expr_path_parse (path_text, NULL);
  DynValue *value = dyn_path_lookup (item, path);

  g_assert_nonnull (value);
  return dyn_value_get_string (value);
}

/* Nested changes against the server, with a second client writing the same
 * map: what conflicts and what survives. */
static void
test_nested_concurrent (DynTestFixture *fx,
                        gconstpointer   data)
{
  g_autoptr(DynClient) other = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  other = dyn_test_client_new (fx->server);

  /* An unrelated nested change: applied; the other writer's rank stays. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    theirs (other, fx, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"1\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    now = get_movie (fx);
    g_assert_cmpstr (number_at (now, "info.rating"), ==, "9.1");
    g_assert_cmpstr (number_at (now, "info.rank"), ==, "1");
  }

  /* The same with the whole item as guard: a conflict, nothing written. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    theirs (other, fx, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"1\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_ITEM);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    now = get_movie (fx);
    g_assert_cmpstr (number_at (now, "info.rating"), ==, "8.7");
  }

  /* The other writer removed the parent: a conflict, not a refused request. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
    g_autoptr(DynCommitResult) res = NULL;

    theirs (other, fx, "REMOVE #i", "{\"#i\":\"info\"}", NULL);
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    g_assert_null (dyn_value_map_lookup (dyn_commit_result_get_current (res, 0), "info"));
  }

  /* A new member whose parent the other writer replaced by a string: the
   * parent's type is part of the guard, so again a conflict. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.tagline", "\"Everyone's driven by something.\"");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    theirs (other, fx, "SET #i = :s", "{\"#i\":\"info\"}", "{\":s\":{\"S\":\"n/a\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    g_assert_null (dyn_commit_result_get_error (res, 0));
    now = get_movie (fx);
    g_assert_cmpstr (dyn_test_item_get_string (now, "info"), ==, "n/a");
  }

  /* A whole new sub-map, and a deep new member: applied. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) step = movie_with ("awards", "{\"oscars\": {\"nominated\": 2}}");
    g_autoptr(DynExprPath) zip = dyn_expr_path_parse ("info.production.studio.address.zip", NULL);
    g_autoptr(DynValue) w1 = dyn_value_new_string ("W1");
    g_autoptr(DynValue) after = dyn_item_with_path (step, zip, w1);
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    theirs (other, fx, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"5\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    now = get_movie (fx);
    g_assert_cmpstr (number_at (now, "awards.oscars.nominated"), ==, "2");
    g_assert_cmpstr (string_at (now, "info.production.studio.address.zip"), ==, "W1");
    g_assert_cmpstr (string_at (now, "info.production.studio.address.city"), ==, "London");
    g_assert_cmpstr (number_at (now, "info.rank"), ==, "5");
  }

  /* A list element: another writer's change of a neighbour element keeps
   * the positions, so both apply; an append moves them: a conflict. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.genres[1]", "\"Sport\"");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    theirs (other, fx, "SET #i.#g[0] = :g", "{\"#i\":\"info\",\"#g\":\"genres\"}", "{\":g\":{\"S\":\"Racing\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    now = get_movie (fx);
    g_assert_cmpstr (string_at (now, "info.genres[0]"), ==, "Racing");
    g_assert_cmpstr (string_at (now, "info.genres[1]"), ==, "Sport");
  }
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.genres[1]", "\"Sport\"");
    g_autoptr(DynCommitResult) res = NULL;

    theirs (other, fx, "SET #i.#g = list_append(:g, #i.#g)", "{\"#i\":\"info\",\"#g\":\"genres\"}",
            "{\":g\":{\"L\":[{\"S\":\"Biography\"}]}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
  }

  /* Names that need placeholders, nested, accepted by the server. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) step = movie_with ("info.`first-name`", "\"Jim\"");
    g_autoptr(DynExprPath) dot = dyn_expr_path_new ("info");
    g_autoptr(DynValue) two = dyn_value_new_string ("dot2");
    g_autoptr(DynValue) after = NULL;
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynValue) now = NULL;

    dyn_expr_path_append_name (dot, "a.b");
    after = dyn_item_with_path (step, dot, two);
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    now = get_movie (fx);
    g_assert_true (dyn_value_equal (now, after));
  }

  /* Both change info.rating: a conflict; the merge keeps mine for the
   * rating and theirs elsewhere, and its write touches the rating alone. */
  {
    g_autoptr(DynValue) before = reset_movie (fx);
    g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynCommitResult) res2 = NULL;
    g_autoptr(GPtrArray) merge = NULL;
    g_autoptr(DynValue) merged = NULL;
    g_autoptr(DynValue) now = NULL;
    DynValue *current;

    theirs (other, fx, "SET #i.#g = :g, #i.#r = :r, #i.#p.#s.#a.#c = :c",
            "{\"#i\":\"info\",\"#g\":\"rating\",\"#r\":\"rank\",\"#p\":\"production\",\"#s\":\"studio\","
            "\"#a\":\"address\",\"#c\":\"city\"}",
            "{\":g\":{\"N\":\"7.5\"},\":r\":{\"N\":\"1\"},\":c\":{\"S\":\"Manchester\"}}");
    res = commit_one (fx, before, after, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    current = dyn_commit_result_get_current (res, 0);
    merge = dyn_merge_entries (before, current, after, &movies);
    g_assert_true (dyn_merge_lookup (merge, "info.rating")->conflict);
    g_assert_cmpint (dyn_merge_lookup (merge, "info.rating")->side, ==, DYN_MERGE_MINE);
    g_assert_cmpint (dyn_merge_lookup (merge, "info.production.studio.address.city")->side, ==, DYN_MERGE_SERVER);
    merged = dyn_merge_build (merge);
    res2 = commit_one (fx, current, merged, DYN_GUARD_CHANGES);
    g_assert_cmpint (dyn_commit_result_get_status (res2, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    now = get_movie (fx);
    g_assert_cmpstr (number_at (now, "info.rating"), ==, "9.1");
    g_assert_cmpstr (number_at (now, "info.rank"), ==, "1");
    g_assert_cmpstr (string_at (now, "info.production.studio.address.city"), ==, "Manchester");
  }
}

/* A TCP proxy in front of DynamoDB Local that forwards everything but loses
 * the answer to the first TransactWriteItems: the server applied it, the
 * client sees a dropped connection and retries with the same token. */
typedef struct
{
  GSocketListener *listener;
  guint16          port;
  guint16          upstream_port;
  gint             transact_seen;
  gint             dropped;
  gint             drop_budget;
  GThread         *thread;
  GCancellable    *cancel;
} Proxy;

static gboolean
read_message (GInputStream *in,
              GByteArray   *buf,
              gboolean      is_request,
              char        **target)
{
  guint8 chunk[4096];
  gssize header_end = -1;
  gsize content_length = 0;

  g_byte_array_set_size (buf, 0);
  for (;;)
    {
      gssize n;

      if (header_end < 0)
        {
          for (gsize i = 3; i < buf->len; i++)
            if (memcmp (buf->data + i - 3, "\r\n\r\n", 4) == 0)
              {
                g_autofree char *head = g_strndup ((char *) buf->data, i + 1);
                g_auto(GStrv) lines = g_strsplit (head, "\r\n", -1);

                header_end = i + 1;
                for (guint l = 0; lines[l]; l++)
                  {
                    if (g_ascii_strncasecmp (lines[l], "content-length:", 15) == 0)
                      content_length = g_ascii_strtoull (lines[l] + 15, NULL, 10);
                    if (is_request && target && g_ascii_strncasecmp (lines[l], "x-amz-target:", 13) == 0)
                      *target = g_strstrip (g_strdup (lines[l] + 13));
                  }
                break;
              }
        }
      if (header_end >= 0 && buf->len >= header_end + content_length)
        return TRUE;
      n = g_input_stream_read (in, chunk, sizeof chunk, NULL, NULL);
      if (n <= 0)
        return FALSE;
      g_byte_array_append (buf, chunk, n);
    }
}

static gpointer
proxy_connection_thread (gpointer data)
{
  gpointer *args = data;
  Proxy *proxy = args[0];
  g_autoptr(GSocketConnection) down = args[1];
  g_autoptr(GSocketClient) sc = g_socket_client_new ();
  g_autoptr(GSocketConnection) up = NULL;
  g_autoptr(GByteArray) buf = g_byte_array_new ();

  g_free (args);
  up = g_socket_client_connect_to_host (sc, "127.0.0.1", proxy->upstream_port, NULL, NULL);
  if (up == NULL)
    return NULL;
  for (;;)
    {
      g_autofree char *target = NULL;
      gboolean drop = FALSE;

      if (!read_message (g_io_stream_get_input_stream (G_IO_STREAM (down)), buf, TRUE, &target))
        break;
      if (target != NULL && g_str_has_suffix (target, ".TransactWriteItems"))
        {
          g_atomic_int_inc (&proxy->transact_seen);
          drop = g_atomic_int_add (&proxy->drop_budget, -1) > 0;
        }
      if (!g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (up)), buf->data, buf->len,
                                      NULL, NULL, NULL))
        break;
      if (!read_message (g_io_stream_get_input_stream (G_IO_STREAM (up)), buf, FALSE, NULL))
        break;
      if (drop)
        {
          g_atomic_int_inc (&proxy->dropped);
          break;
        }
      if (!g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (down)), buf->data, buf->len,
                                      NULL, NULL, NULL))
        break;
    }
  g_io_stream_close (G_IO_STREAM (down), NULL, NULL);
  g_io_stream_close (G_IO_STREAM (up), NULL, NULL);
  return NULL;
}

static gpointer
proxy_accept_thread (gpointer data)
{
  Proxy *proxy = data;

  for (;;)
    {
      GSocketConnection *conn = g_socket_listener_accept (proxy->listener, NULL, proxy->cancel, NULL);
      gpointer *args;

      if (conn == NULL)
        break;
      args = g_new (gpointer, 2);
      args[0] = proxy;
      args[1] = conn;
      g_thread_unref (g_thread_new ("proxy-conn", proxy_connection_thread, args));
    }
  return NULL;
}

static Proxy *
proxy_new (const char *upstream_endpoint,
           gint        drops)
{
  Proxy *proxy = g_new0 (Proxy, 1);
  g_autoptr(GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) addr = g_inet_socket_address_new (lo, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  const char *colon = strrchr (upstream_endpoint, ':');

  proxy->upstream_port = atoi (colon + 1);
  proxy->drop_budget = drops;
  proxy->cancel = g_cancellable_new ();
  proxy->listener = g_socket_listener_new ();
  g_socket_listener_add_address (proxy->listener, addr, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                                 NULL, &bound, &error);
  g_assert_no_error (error);
  proxy->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  proxy->thread = g_thread_new ("proxy", proxy_accept_thread, proxy);
  return proxy;
}

static void
proxy_free (Proxy *proxy)
{
  g_cancellable_cancel (proxy->cancel);
  g_thread_join (proxy->thread);
  g_socket_listener_close (proxy->listener);
  g_object_unref (proxy->listener);
  g_object_unref (proxy->cancel);
  g_free (proxy);
}

static void
test_retry_applied_once (DynTestFixture *fx,
                         gconstpointer   data)
{
  Proxy *proxy;
  g_autofree char *url = NULL;
  g_autoptr(DynCredentialsProvider) creds = NULL;
  g_autoptr(DynClient) flaky = NULL;
  g_autoptr(DynChangeSet) set = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = NULL;
  g_autoptr(DynValue) now = NULL;
  g_autoptr(DynCommitResult) res = NULL;
  g_autoptr(DynCommitResult) res2 = NULL;
  g_autoptr(GError) error = NULL;

  DYN_TEST_REQUIRE_SERVER (fx);
  proxy = proxy_new (dyn_test_server_get_endpoint (fx->server), 1);
  url = g_strdup_printf ("http://127.0.0.1:%u", proxy->port);
  creds = dyn_credentials_provider_new_static (DYN_TEST_ACCESS_KEY, DYN_TEST_SECRET_KEY, NULL);
  flaky = dyn_client_new (url, DYN_TEST_REGION, creds, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (flaky, 4, 5, 10);

  put (fx, "{\"pk\":{\"S\":\"r\"},\"version\":{\"N\":\"1\"},\"count\":{\"N\":\"10\"}}");
  before = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"r\"}}");
  after = dyn_test_item ("{\"pk\":{\"S\":\"r\"},\"version\":{\"N\":\"1\"},\"count\":{\"N\":\"11\"}}");
  set = dyn_change_set_new (fx->table, &pk_only);
  dyn_change_set_set_version_attribute (set, "version");
  dyn_change_set_add (set, before, after, &error);
  g_assert_no_error (error);

  res = commit (set, flaky);
  g_assert_cmpint (g_atomic_int_get (&proxy->dropped), ==, 1);
  g_assert_cmpint (g_atomic_int_get (&proxy->transact_seen), ==, 2);
  g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"r\"}}");
  g_assert_cmpstr (dyn_test_item_get_number (now, "version"), ==, "2");
  g_assert_cmpstr (dyn_test_item_get_number (now, "count"), ==, "11");

  /* Committing the same set again (the user pressing Commit once more after
   * an error) is the same retry: applied, still once. */
  res2 = commit (set, flaky);
  g_assert_cmpint (dyn_commit_result_get_status (res2, 0), ==, DYN_CHANGE_STATUS_APPLIED);
  g_assert_cmpstr (dyn_commit_result_get_request_token (res2, 0), ==, dyn_commit_result_get_request_token (res, 0));
  g_clear_pointer (&now, dyn_value_unref);
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"r\"}}");
  g_assert_cmpstr (dyn_test_item_get_number (now, "version"), ==, "2");

  g_clear_object (&flaky);
  proxy_free (proxy);
}

/* ------------------------------------------------------------------------ */
/* dynoscope-cli apply */

static char *
cli_path (void)
{
  const char *override = g_getenv ("DYN_TEST_CLI");

  if (override != NULL)
    return g_strdup (override);
  return g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "app", "dynoscope-cli", NULL);
}

static int
cli (DynTestFixture *fx,
     const char     *input,
     char          **out,
     char          **err,
     const char     *arg1,
     const char     *arg2)
{
  g_autofree char *path = cli_path ();
  const char *argv[] = { path, "--endpoint", dyn_test_server_get_endpoint (fx->server), arg1, fx->table, arg2, NULL };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "AWS_ACCESS_KEY_ID", DYN_TEST_ACCESS_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_SECRET_ACCESS_KEY", DYN_TEST_SECRET_KEY, TRUE);
  g_subprocess_launcher_setenv (launcher, "AWS_REGION", DYN_TEST_REGION, TRUE);
  proc = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, input, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("stdout: %s\nstderr: %s", *out, *err);
  return g_subprocess_get_if_exited (proc) ? g_subprocess_get_exit_status (proc) : -1;
}

static gboolean
cli_has_apply (void)
{
  g_autofree char *path = cli_path ();
  g_autofree char *out = NULL;
  const char *argv[] = { path, "--help", NULL };

  if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL, NULL))
    return FALSE;
  return strstr (out, "apply") != NULL;
}

static void
test_cli_apply (DynTestFixture *fx,
                gconstpointer   data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(DynValue) now = NULL;
  int status;
  const char *input =
    "{\"before\": null, \"after\": {\"pk\":{\"S\":\"new\"},\"v\":{\"N\":\"1\"}}}\n"
    "{\"before\": {\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"}}, \"after\": {\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"done\"}}}\n"
    "\n"
    "{\"before\": {\"pk\":{\"S\":\"b\"},\"x\":{\"N\":\"1\"}}, \"after\": null}\n";

  DYN_TEST_REQUIRE_SERVER (fx);
  if (!cli_has_apply ())
    {
      g_test_skip ("dynoscope-cli has no apply command (yet)");
      return;
    }
  put (fx, "{\"pk\":{\"S\":\"a\"},\"Status\":{\"S\":\"open\"}}");
  put (fx, "{\"pk\":{\"S\":\"b\"},\"x\":{\"N\":\"1\"}}");

  /* --dry-run prints the requests and writes nothing. */
  status = cli (fx, input, &out, &err, "apply", "--dry-run");
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "\"TransactWriteItems\""));
  g_assert_nonnull (strstr (out, "attribute_not_exists(#pk)"));
  g_assert_nonnull (strstr (out, "SET #Status = :Status"));
  g_assert_nonnull (strstr (out, "ClientRequestToken"));
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"new\"}}");
  g_assert_null (now);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  status = cli (fx, input, &out, &err, "apply", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "{\"change\":0,\"status\":\"applied\"}"));
  g_assert_nonnull (strstr (out, "{\"change\":2,\"status\":\"applied\"}"));
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"a\"}}");
  g_assert_cmpstr (dyn_test_item_get_string (now, "Status"), ==, "done");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* The same input again: every guard fails now; exit status 1, current items shown. */
  status = cli (fx, input, &out, &err, "apply", NULL);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (out, "\"status\":\"conflict\""));
  g_assert_nonnull (strstr (out, "{\"change\":0,\"status\":\"conflict\",\"key\":{\"pk\":{\"S\":\"new\"}},\"current\":{"));
  g_assert_nonnull (strstr (out, "\"v\":{\"N\":\"1\"}"));
  g_assert_nonnull (strstr (out, "{\"change\":2,\"status\":\"conflict\",\"key\":{\"pk\":{\"S\":\"b\"}},\"current\":null}"));
  g_assert_nonnull (strstr (err, "conflict"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A malformed line names its line number. */
  status = cli (fx, "{\"before\": null, \"after\": {\"pk\":{\"S\":\"z\"}}}\n{\"before\": 1, \"after\": null}\n",
                &out, &err, "apply", NULL);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "line 2"));
  g_clear_pointer (&now, dyn_value_unref);
  now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"z\"}}");
  g_assert_null (now);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  status = cli (fx, "{\"before\": null}\n", &out, &err, "apply", NULL);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "line 1"));
}

/* The command line plans with the same code: a nested change is one path. */
static void
test_cli_apply_nested (DynTestFixture *fx,
                       gconstpointer   data)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(DynValue) before = NULL;
  g_autoptr(DynValue) after = movie_with ("info.rating", "9.1");
  g_autoptr(DynValue) now = NULL;
  g_autofree char *b = NULL, *a = NULL, *input = NULL;
  int status;

  DYN_TEST_REQUIRE_SERVER (fx);
  if (!cli_has_apply ())
    {
      g_test_skip ("dynoscope-cli has no apply command (yet)");
      return;
    }
  before = reset_movie (fx);
  b = dyn_item_to_ddb_json_string (before);
  a = dyn_item_to_ddb_json_string (after);
  input = g_strdup_printf ("{\"before\": %s, \"after\": %s}\n", b, a);

  status = cli (fx, input, &out, &err, "apply", "--dry-run");
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "SET #info.#rating = :rating"));
  g_assert_nonnull (strstr (out, "attribute_exists(#year) AND #info.#rating = :old_rating"));
  g_assert_nonnull (strstr (out, "Guarded by the values it changes: info.rating is still 8.7"));
  g_assert_null (strstr (out, ":old_info"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Another writer's rank does not conflict. */
  {
    g_autoptr(DynClient) other = dyn_test_client_new (fx->server);
    theirs (other, fx, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"1\"}}");
  }
  status = cli (fx, input, &out, &err, "apply", NULL);
  g_assert_cmpint (status, ==, 0);
  now = get_movie (fx);
  g_assert_cmpstr (number_at (now, "info.rating"), ==, "9.1");
  g_assert_cmpstr (number_at (now, "info.rank"), ==, "1");
}

/* ------------------------------------------------------------------------ */
/* Edits of items read from a multi-attribute GSI (issue 10) */

static void
multikey_setup (DynTestFixture *fx,
                gconstpointer   data)
{
  static const char * const gsis[] = { "ByTenant:tenant:S+site:N:kind:S+seq:N", NULL };

  if (dyn_test_fixture_setup (fx, DYN_TEST_DYNAMODB_LOCAL, "changes-multikey"))
    dyn_test_fixture_create_table (fx, "pk:S", "sk:S", gsis);
}

static DynTableKeys *
describe (DynTestFixture *fx)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fx->client, "DescribeTable", &error,
                                                    "{\"TableName\":\"%s\"}", fx->table);
  DynTableKeys *keys;

  g_assert_no_error (error);
  keys = dyn_table_keys_from_description (json_object_get_object_member (json_node_get_object (response->root),
                                                                         "Table"), &error);
  g_assert_no_error (error);
  return keys;
}

/* A Query of ByTenant for @tenant and @site, every page. */
static GPtrArray *
query_index (DynTestFixture *fx,
             const char     *tenant,
             const char     *site)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_QUERY, fx->table);
  g_autoptr(DynValue) t = dyn_value_new_string (tenant);
  g_autoptr(DynValue) s = dyn_value_new_number (site, NULL);
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *items;

  request->index = g_strdup ("ByTenant");
  request->key_condition = g_strdup ("tenant = :t AND site = :s");
  dyn_request_add_value (request, ":t", t);
  dyn_request_add_value (request, ":s", s);
  pager = dyn_pager_new (fx->client, request);
  items = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  return items;
}

static DynCommitResult *
commit_session (DynEditSession *session)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  DynCommitResult *res;

  dyn_edit_session_commit_async (session, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  res = dyn_edit_session_commit_finish (session, result, &error);
  g_assert_no_error (error);
  return res;
}

/* Items read from the index, edited in a session of the table: the writes
 * use the table's key; an edit of an index key attribute is an update
 * guarded by its path, and moves the row to the collection it now belongs
 * to; a value DynamoDB would refuse for an index key is refused when staged. */
static void
test_multikey_index_edit (DynTestFixture *fx,
                          gconstpointer   data)
{
  g_autoptr(DynTableKeys) keys = NULL;
  g_autoptr(DynCollectionModel) model = NULL;
  g_autoptr(DynEditSession) session = NULL;
  g_autoptr(GPtrArray) page = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) pk_o1 = NULL;
  DynItemObject *row;
  const DynIndexInfo *index;

  DYN_TEST_REQUIRE_SERVER (fx);
  put (fx, "{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
           "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"1\"},\"note\":{\"S\":\"a\"}}");
  put (fx, "{\"pk\":{\"S\":\"o2\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"1\"},"
           "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"2\"},\"note\":{\"S\":\"b\"}}");
  put (fx, "{\"pk\":{\"S\":\"o3\"},\"sk\":{\"S\":\"l1\"},\"tenant\":{\"S\":\"acme\"},\"site\":{\"N\":\"2\"},"
           "\"kind\":{\"S\":\"order\"},\"seq\":{\"N\":\"1\"}}");
  keys = describe (fx);
  index = dyn_table_keys_lookup (keys, "ByTenant");

  model = dyn_collection_model_new_for_schema (&index->keys, FALSE);
  page = query_index (fx, "acme", "1");
  g_assert_cmpuint (page->len, ==, 2);
  dyn_collection_model_append_page (model, page);
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 1);

  session = dyn_edit_session_new (fx->client, fx->table, &keys->table.keys);
  dyn_edit_session_set_index_keys (session, keys);
  dyn_edit_session_set_model (session, model);

  /* o1 moves to site 2: an UpdateItem of the table's key, guarded by site. */
  pk_o1 = dyn_test_item ("{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l1\"}}");
  row = dyn_collection_model_lookup (model, pk_o1);
  g_assert_nonnull (row);
  g_assert_true (dyn_edit_session_stage_cell_text (session, row, "site", "2", &error));
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) plan = dyn_edit_session_dup_plan (session, &error);
    g_autofree char *text = json_to_string (plan, FALSE);
    g_autofree char *kind = NULL;
    g_autofree char *guard = dyn_edit_session_describe_guard (session, 0, &kind, &error);

    g_assert_no_error (error);
    g_test_message ("%s\n%s", text, guard);
    g_assert_nonnull (strstr (text, "\"Key\":{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l1\"}}"));
    g_assert_nonnull (strstr (text, "\"UpdateExpression\":\"SET #site = :site\""));
    g_assert_nonnull (strstr (text, "\"ConditionExpression\":\"attribute_exists(#pk) AND #site = :old_site\""));
    g_assert_cmpstr (guard, ==, "Guarded by the values it changes: site is still 1");
    g_assert_cmpint (dyn_edit_session_get_kind (session, 0), ==, DYN_CHANGE_KIND_UPDATE);
  }
  {
    g_autoptr(DynCommitResult) res = commit_session (session);
    g_autoptr(DynValue) now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"o1\"},\"sk\":{\"S\":\"l1\"}}");
    g_autoptr(GPtrArray) site2 = query_index (fx, "acme", "2");
    g_autoptr(DynValue) acme2 = dyn_value_new_list ();
    DynCollection *moved;

    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    g_assert_cmpstr (dyn_test_item_get_number (now, "site"), ==, "2");
    g_assert_cmpuint (site2->len, ==, 2);
    /* The row shows the written item in the collection of (acme, 2). */
    dyn_value_list_take (acme2, dyn_value_new_string ("acme"));
    dyn_value_list_take (acme2, dyn_value_new_number ("2", NULL));
    moved = dyn_collection_model_lookup_collection (model, acme2);
    g_assert_nonnull (moved);
    g_assert_cmpuint (dyn_collection_get_n_items (moved), ==, 1);
    g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (dyn_collection_peek_item (moved, 0)), "pk"),
                     ==, "o1");
  }

  /* A sort attribute changed meanwhile by someone else: the guard on kind
   * holds, nothing is written. */
  {
    g_autoptr(DynValue) pk_o2 = dyn_test_item ("{\"pk\":{\"S\":\"o2\"},\"sk\":{\"S\":\"l1\"}}");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(DynResponse) other = NULL;
    g_autoptr(DynValue) now = NULL;

    row = dyn_collection_model_lookup (model, pk_o2);
    g_assert_nonnull (row);
    other = dyn_test_callf (fx->client, "UpdateItem", &error,
                            "{\"TableName\":\"%s\",\"Key\":{\"pk\":{\"S\":\"o2\"},\"sk\":{\"S\":\"l1\"}},"
                            "\"UpdateExpression\":\"SET kind = :k\",\"ExpressionAttributeValues\":{\":k\":{\"S\":\"invoice\"}}}",
                            fx->table);
    g_assert_no_error (error);
    g_assert_true (dyn_edit_session_stage_cell_text (session, row, "kind", "return", &error));
    g_assert_no_error (error);
    res = commit_session (session);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
    g_assert_cmpstr (dyn_test_item_get_string (dyn_commit_result_get_current (res, 0), "kind"), ==, "invoice");
    now = get_item (fx->client, fx->table, "{\"pk\":{\"S\":\"o2\"},\"sk\":{\"S\":\"l1\"}}");
    g_assert_cmpstr (dyn_test_item_get_string (now, "kind"), ==, "invoice");
    dyn_edit_session_discard_all (session);
  }

  /* What DynamoDB refuses for an index key is refused when staged, with the
   * index named; removing one is fine (the item leaves the index). */
  {
    g_autoptr(DynValue) pk_o3 = dyn_test_item ("{\"pk\":{\"S\":\"o3\"},\"sk\":{\"S\":\"l1\"}}");
    g_autoptr(DynValue) text_site = dyn_value_new_string ("two");
    g_autoptr(DynValue) empty = dyn_value_new_string ("");
    g_autoptr(DynCommitResult) res = NULL;
    g_autoptr(GPtrArray) left = NULL;

    row = dyn_collection_model_lookup (model, pk_o1);
    g_assert_false (dyn_edit_session_stage_attribute (session, row, "site", text_site, &error));
    g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "site is a key attribute of index ByTenant: it must be of type N, "
                                              "not S"));
    g_clear_error (&error);
    g_assert_false (dyn_edit_session_stage_attribute (session, row, "kind", empty, &error));
    g_assert_nonnull (strstr (error->message, "kind is a key attribute of index ByTenant: it must not be empty"));
    g_clear_error (&error);
    g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);

    g_assert_true (dyn_edit_session_stage_attribute (session, row, "seq", NULL, &error));
    g_assert_no_error (error);
    res = commit_session (session);
    g_assert_cmpint (dyn_commit_result_get_status (res, 0), ==, DYN_CHANGE_STATUS_APPLIED);
    left = query_index (fx, "acme", "2");
    g_assert_cmpuint (left->len, ==, 1);
    g_assert_cmpstr (dyn_test_item_get_string (left->pdata[0], "pk"), ==, "o3");
  }

  /* The change set alone (dynoscope-cli apply) checks the same. */
  {
    g_autoptr(DynChangeSet) set = dyn_change_set_new (fx->table, &keys->table.keys);
    g_autoptr(DynValue) before = dyn_test_item ("{\"pk\":{\"S\":\"o3\"},\"sk\":{\"S\":\"l1\"},\"site\":{\"N\":\"2\"}}");
    g_autoptr(DynValue) after = dyn_test_item ("{\"pk\":{\"S\":\"o3\"},\"sk\":{\"S\":\"l1\"},\"site\":{\"S\":\"2\"}}");

    g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, 0);
    g_assert_no_error (error);
    g_clear_object (&set);
    set = dyn_change_set_new (fx->table, &keys->table.keys);
    dyn_change_set_set_index_keys (set, keys);
    g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, -1);
    g_assert_nonnull (strstr (error->message, "site is a key attribute of index ByTenant"));
  }
}

int
main (int    argc,
      char **argv)
{
  dyn_test_init (&argc, &argv);

  g_test_add_func ("/dyn/changes/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/changes/increment", test_increment);
  g_test_add_func ("/dyn/changes/create-guard", test_create_guard);
  g_test_add_func ("/dyn/changes/delete-guard", test_delete_guard);
  g_test_add_func ("/dyn/changes/diff-nested", test_diff_nested);
  g_test_add_func ("/dyn/changes/diff-sets", test_diff_sets);
  g_test_add_func ("/dyn/changes/diff-list", test_diff_list);
  g_test_add_func ("/dyn/changes/reserved-words", test_reserved_words);
  g_test_add_func ("/dyn/changes/version", test_version);
  g_test_add_func ("/dyn/changes/key-change", test_key_change);
  g_test_add_func ("/dyn/changes/single-request", test_single_request);
  g_test_add_func ("/dyn/changes/split", test_split);
  g_test_add_func ("/dyn/changes/same-item-twice", test_same_item_twice);
  g_test_add_func ("/dyn/changes/unchanged", test_unchanged);
  g_test_add_func ("/dyn/changes/guard-limit", test_guard_limit);
  g_test_add_func ("/dyn/changes/inverse", test_inverse);
  g_test_add_func ("/dyn/changes/paths", test_paths);
  g_test_add_func ("/dyn/changes/nested-writes", test_nested_writes);
  g_test_add_func ("/dyn/changes/guard-modes", test_guard_modes);
  g_test_add_func ("/dyn/changes/merge-paths", test_merge_paths);

  g_test_add ("/dyn/changes/commit-update", DynTestFixture, NULL, fixture_setup, test_commit_update, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/concurrent-boto3", DynTestFixture, NULL, fixture_setup, test_concurrent_boto3, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/concurrent-client", DynTestFixture, NULL, fixture_setup, test_concurrent_client, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/create-existing", DynTestFixture, "sk", fixture_setup, test_create_existing, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/transaction-atomic", DynTestFixture, "sk", fixture_setup, test_transaction_atomic, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/commit-split", DynTestFixture, "sk", fixture_setup, test_commit_split, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/fidelity-boto3", DynTestFixture, NULL, fixture_setup, test_fidelity_boto3, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/nested-concurrent", DynTestFixture, NULL, movies_setup, test_nested_concurrent, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/retry-applied-once", DynTestFixture, NULL, fixture_setup, test_retry_applied_once, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/cli-apply", DynTestFixture, NULL, fixture_setup, test_cli_apply, dyn_test_fixture_teardown);
  g_test_add ("/dyn/changes/cli-apply-nested", DynTestFixture, NULL, movies_setup, test_cli_apply_nested, dyn_test_fixture_teardown);

  g_test_add ("/dyn/changes/multikey-index-edit", DynTestFixture, NULL, multikey_setup, test_multikey_index_edit,
              dyn_test_fixture_teardown);

  return g_test_run ();
}
