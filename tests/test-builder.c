/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-builder"
#include "config.h"

#include <locale.h>
#include <adwaita.h>

#include "dyn-expr-condition-row.h"
#include "dyn-expr-group-row.h"
#include "dyn-expr-update-row.h"
#include "dyn-expression-builder.h"
#include "dyn-expression-builder-private.h"
#include "dyn-value-editor.h"

/* The expression builder under Xvfb, driven through its actions and
 * properties; what it compiles is compared with the client's compiler. */

typedef struct {
  GtkWindow            *window;
  DynExpressionBuilder *builder;
  DynTableKeys         *table;
} Fixture;

static const char *seed_key_condition = "EntityRef = \"WS#acme\" AND begins_with(Detail, \"PROJ#\")";

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static DynTableKeys *
demo_table (void)
{
  DynTableKeys *table = dyn_table_keys_new ("Workspaces", "EntityRef", DYN_VALUE_S, "Detail", DYN_VALUE_S);

  dyn_table_keys_add_index (table, "GSI1", DYN_INDEX_GLOBAL, "GSI1PK", DYN_VALUE_S, "GSI1SK", DYN_VALUE_S,
                            DYN_PROJECTION_ALL);
  return table;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynExprRole role = GPOINTER_TO_INT (data);

  fixture->table = demo_table ();
  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 1100, 700);
  fixture->builder = DYN_EXPRESSION_BUILDER (dyn_expression_builder_new (role));
  g_object_ref (fixture->builder);
  dyn_expression_builder_set_table (fixture->builder, fixture->table);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->builder));
  gtk_window_present (fixture->window);
  for (guint i = 0; i < 50 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->builder)); i++)
    {
      iterate ();
      g_usleep (10000);
    }
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->builder)));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  iterate ();
  g_assert_finalize_object (fixture->builder);
  dyn_table_keys_free (fixture->table);
}

static const DynKeySchema *
rule_keys (Fixture     *fixture,
           DynExprRole  role)
{
  if (role == DYN_EXPR_ROLE_KEY_CONDITION)
    return &dyn_table_keys_lookup (fixture->table, dyn_expression_builder_get_index (fixture->builder))->keys;
  if (role == DYN_EXPR_ROLE_UPDATE)
    return &fixture->table->table.keys;
  return NULL;
}

/* The builder's result equals what the compiler makes of @text. */
static void
assert_compiles_like (Fixture    *fixture,
                      const char *text)
{
  DynExprRole role = dyn_expression_builder_get_kind (fixture->builder);
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprNode) node = dyn_expr_parse (text, role, NULL, NULL, NULL, &error);
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(GHashTable) got_names = dyn_expression_builder_dup_names (fixture->builder);
  g_autoptr(GHashTable) got_values = dyn_expression_builder_dup_values (fixture->builder);
  g_autofree char *expected = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_assert_no_error (error);
  expected = dyn_expr_compile (node, role, rule_keys (fixture, role), &names, &values, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_cmpstr (dyn_expression_builder_get_expression (fixture->builder), ==, expected);

  g_assert_cmpuint (g_hash_table_size (got_names), ==, names ? g_hash_table_size (names) : 0);
  g_hash_table_iter_init (&iter, got_names);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpstr (g_hash_table_lookup (names, key), ==, value);

  g_assert_cmpuint (g_hash_table_size (got_values), ==, values ? g_hash_table_size (values) : 0);
  g_hash_table_iter_init (&iter, got_values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      DynValue *want = g_hash_table_lookup (values, key);

      g_assert_nonnull (want);
      g_assert_true (dyn_value_equal (want, value));
    }
}

static gpointer
get_item (Fixture *fixture,
          guint    i)
{
  return dyn_expr_group_row_get_item (dyn_expression_builder_get_root_group (fixture->builder), i);
}

static guint
n_items (Fixture *fixture)
{
  return dyn_expr_group_row_get_n_items (dyn_expression_builder_get_root_group (fixture->builder));
}

static gboolean
offers (DynExprConditionRow *row,
        DynExprRowOp         op)
{
  guint n = 0;
  const DynExprRowOp *ops = dyn_expr_condition_row_get_offered_operators (row, &n);

  for (guint i = 0; i < n; i++)
    if (ops[i] == op)
      return TRUE;
  return FALSE;
}

#define KEY_CONDITION GINT_TO_POINTER (DYN_EXPR_ROLE_KEY_CONDITION)
#define FILTER GINT_TO_POINTER (DYN_EXPR_ROLE_FILTER)
#define UPDATE GINT_TO_POINTER (DYN_EXPR_ROLE_UPDATE)

/* ------------------------------------------------------------------------ */

static void
test_new_destroy (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_true (DYN_IS_EXPRESSION_BUILDER (fixture->builder));
  g_assert_cmpint (dyn_expression_builder_get_kind (fixture->builder), ==, DYN_EXPR_ROLE_KEY_CONDITION);
  g_assert_null (dyn_expression_builder_get_expression (fixture->builder));
  g_assert_cmpuint (n_items (fixture), ==, 0);

  /* The row types on their own. */
  {
    GtkWidget *editor = g_object_ref_sink (dyn_value_editor_new ());
    GtkWidget *row = g_object_ref_sink (dyn_expr_condition_row_new (FALSE, NULL));
    GtkWidget *update = g_object_ref_sink (dyn_expr_update_row_new (NULL));
    GtkWidget *group = g_object_ref_sink (dyn_expr_group_row_new (DYN_EXPR_ROLE_FILTER, TRUE, NULL));

    dyn_expr_group_row_add_row (DYN_EXPR_GROUP_ROW (group));
    dyn_expr_group_row_add_group (DYN_EXPR_GROUP_ROW (group));
    g_assert_finalize_object (editor);
    g_assert_finalize_object (row);
    g_assert_finalize_object (update);
    g_assert_finalize_object (group);
  }
}

static void
test_text_to_rows (Fixture       *fixture,
                   gconstpointer  data)
{
  DynExprConditionRow *row;
  DynValueEditor *editor;

  dyn_expression_builder_set_text (fixture->builder, seed_key_condition);
  g_assert_null (dyn_expression_builder_get_parse_error (fixture->builder));
  g_assert_cmpuint (n_items (fixture), ==, 2);

  row = get_item (fixture, 0);
  g_assert_true (DYN_IS_EXPR_CONDITION_ROW (row));
  g_assert_cmpstr (dyn_expr_condition_row_get_path (row), ==, "EntityRef");
  g_assert_cmpint (dyn_expr_condition_row_get_operator (row), ==, DYN_EXPR_ROW_EQ);
  editor = dyn_expr_condition_row_get_value_editor (row, 0);
  g_assert_cmpint (dyn_value_editor_get_value_type (editor), ==, DYN_VALUE_S);
  g_assert_cmpstr (dyn_value_editor_get_text (editor), ==, "WS#acme");

  row = get_item (fixture, 1);
  g_assert_cmpstr (dyn_expr_condition_row_get_path (row), ==, "Detail");
  g_assert_cmpint (dyn_expr_condition_row_get_operator (row), ==, DYN_EXPR_ROW_BEGINS_WITH);
  g_assert_cmpstr (dyn_value_editor_get_text (dyn_expr_condition_row_get_value_editor (row, 0)), ==, "PROJ#");

  assert_compiles_like (fixture, seed_key_condition);
  g_assert_cmpstr (dyn_expression_builder_get_expression (fixture->builder), ==,
                   "#er = :er AND begins_with(#d, :p)");
  g_assert_nonnull (strstr (dyn_expression_builder_get_plan (fixture->builder), "Query on table Workspaces"));
  g_assert_null (dyn_expression_builder_get_messages (fixture->builder)[0]);

  /* Editing a row changes the result and the text. */
  dyn_value_editor_set_text (dyn_expr_condition_row_get_value_editor (row, 0), "ENROLL#");
  assert_compiles_like (fixture, "EntityRef = \"WS#acme\" AND begins_with(Detail, \"ENROLL#\")");
  {
    g_autofree char *text = dyn_expression_builder_dup_text (fixture->builder);

    g_assert_cmpstr (text, ==, "EntityRef = \"WS#acme\" AND begins_with(Detail, \"ENROLL#\")");
  }

  /* On the index. */
  dyn_expression_builder_set_index (fixture->builder, "GSI1");
  dyn_expression_builder_set_text (fixture->builder, "GSI1PK = \"CRS#math204\"");
  assert_compiles_like (fixture, "GSI1PK = \"CRS#math204\"");
  g_assert_nonnull (strstr (dyn_expression_builder_get_plan (fixture->builder), "Query on index GSI1"));
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *done = user_data;

  *done = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_typing (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *view = _dyn_expression_builder_get_text_view (GTK_WIDGET (fixture->builder));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gboolean done = FALSE;

  /* Typed text is parsed after a pause, not at every key. */
  gtk_text_buffer_set_text (buffer, seed_key_condition, -1);
  g_assert_cmpuint (n_items (fixture), ==, 0);
  g_timeout_add (1000, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_items (fixture), ==, 2);
  assert_compiles_like (fixture, seed_key_condition);
}

static void
test_add_rows (Fixture       *fixture,
               gconstpointer  data)
{
  DynExprConditionRow *row;
  DynExprGroupRow *group;
  g_autofree char *text = NULL;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  g_assert_cmpuint (n_items (fixture), ==, 1);
  row = get_item (fixture, 0);
  /* An empty row is not an error, just nothing yet. */
  g_assert_null (dyn_expression_builder_get_messages (fixture->builder)[0]);
  g_object_set (row, "path", "Status", "operator", DYN_EXPR_ROW_EQ, NULL);
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 0), "text", "open", NULL);
  assert_compiles_like (fixture, "Status = \"open\"");
  g_assert_cmpstr (dyn_expression_builder_get_expression (fixture->builder), ==, "#s = :s");

  /* The new row takes the focus, so the next one lands in the same group. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  g_assert_cmpuint (n_items (fixture), ==, 2);
  row = get_item (fixture, 1);
  g_object_set (row, "path", "Score", "operator", DYN_EXPR_ROW_BETWEEN, NULL);
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 0), "value-type", DYN_VALUE_N, "text", "1", NULL);
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));   /* the upper bound is missing */
  g_assert_nonnull (dyn_expression_builder_get_messages (fixture->builder)[0]);
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 1), "value-type", DYN_VALUE_N, "text", "10", NULL);
  assert_compiles_like (fixture, "Status = \"open\" AND Score BETWEEN 1 AND 10");
  text = dyn_expression_builder_dup_text (fixture->builder);
  g_assert_cmpstr (text, ==, "Status = \"open\" AND Score BETWEEN 1 AND 10");

  /* A number that DynamoDB does not take. */
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 1), "text", "1e400", NULL);
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_nonnull (dyn_expression_builder_get_messages (fixture->builder)[0]);
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 1), "text", "10", NULL);
  g_assert_true (dyn_expression_builder_get_valid (fixture->builder));

  /* A NOT group with one row. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-group", NULL));
  g_assert_cmpuint (n_items (fixture), ==, 3);
  group = get_item (fixture, 2);
  g_assert_true (DYN_IS_EXPR_GROUP_ROW (group));
  g_assert_cmpuint (dyn_expr_group_row_get_n_items (group), ==, 1);
  row = DYN_EXPR_CONDITION_ROW (dyn_expr_group_row_get_item (group, 0));
  g_object_set (row, "path", "Archived", "operator", DYN_EXPR_ROW_EXISTS, NULL);
  g_object_set (group, "negated", TRUE, NULL);
  assert_compiles_like (fixture, "Status = \"open\" AND Score BETWEEN 1 AND 10 AND NOT attribute_exists(Archived)");

  /* The focus is in the group's row: a new row goes into the group; OR. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  g_assert_cmpuint (dyn_expr_group_row_get_n_items (group), ==, 2);
  row = DYN_EXPR_CONDITION_ROW (dyn_expr_group_row_get_item (group, 1));
  g_object_set (row, "path", "Tags", "operator", DYN_EXPR_ROW_IN, NULL);
  g_object_set (dyn_expr_condition_row_get_value_editor (row, 0), "text", "\"a\", 2", NULL);
  g_object_set (group, "combinator", DYN_EXPR_OR, NULL);
  assert_compiles_like (fixture, "Status = \"open\" AND Score BETWEEN 1 AND 10 AND "
                                 "NOT (attribute_exists(Archived) OR Tags IN (\"a\", 2))");

  /* Removing the focused row, then the group it leaves behind. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.remove-row", NULL));
  g_assert_cmpuint (dyn_expr_group_row_get_n_items (group), ==, 1);
  assert_compiles_like (fixture, "Status = \"open\" AND Score BETWEEN 1 AND 10 AND NOT attribute_exists(Archived)");
  gtk_widget_grab_focus (dyn_expr_condition_row_get_path_entry (DYN_EXPR_CONDITION_ROW (get_item (fixture, 0))));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.remove-row", NULL));
  assert_compiles_like (fixture, "Score BETWEEN 1 AND 10 AND NOT attribute_exists(Archived)");

  /* Enter in a row's path adds a row after it (here: to the root group). */
  {
    guint before = n_items (fixture);
    GtkWidget *entry = dyn_expr_condition_row_get_path_entry (DYN_EXPR_CONDITION_ROW (get_item (fixture, 0)));

    gtk_widget_grab_focus (entry);
    g_signal_emit_by_name (entry, "activate");
    g_assert_cmpuint (n_items (fixture), ==, before + 1);
    /* Still empty: it changes nothing, and Delete-by-action takes it away again. */
    assert_compiles_like (fixture, "Score BETWEEN 1 AND 10 AND NOT attribute_exists(Archived)");
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.remove-row", NULL));
    g_assert_cmpuint (n_items (fixture), ==, before);
  }

  /* The request gets the expression and the maps. */
  {
    g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, "Workspaces");
    g_autoptr(GError) error = NULL;

    g_assert_true (dyn_expression_builder_apply_to_request (fixture->builder, request, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (request->filter, ==, dyn_expression_builder_get_expression (fixture->builder));
    g_assert_cmpstr (g_hash_table_lookup (request->names, "#a"), ==, "Archived");
    g_assert_nonnull (g_hash_table_lookup (request->values, ":slo"));
  }
}

static void
test_operators (Fixture       *fixture,
                gconstpointer  data)
{
  DynExprConditionRow *row;
  guint n = 0;

  gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL);
  row = get_item (fixture, 0);

  /* The partition key: only =. */
  dyn_expr_condition_row_set_path (row, "EntityRef");
  dyn_expr_condition_row_get_offered_operators (row, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_true (offers (row, DYN_EXPR_ROW_EQ));

  /* The sort key: the seven key-condition operators. */
  dyn_expr_condition_row_set_path (row, "Detail");
  dyn_expr_condition_row_get_offered_operators (row, &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_true (offers (row, DYN_EXPR_ROW_BEGINS_WITH));
  g_assert_true (offers (row, DYN_EXPR_ROW_BETWEEN));
  g_assert_true (offers (row, DYN_EXPR_ROW_LE));
  g_assert_false (offers (row, DYN_EXPR_ROW_NE));
  g_assert_false (offers (row, DYN_EXPR_ROW_IN));
  g_assert_false (offers (row, DYN_EXPR_ROW_CONTAINS));
  g_assert_false (offers (row, DYN_EXPR_ROW_EXISTS));

  /* A key condition on the sort key alone breaks DynamoDB's rules. */
  dyn_value_editor_set_text (dyn_expr_condition_row_get_value_editor (row, 0), "META");
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_nonnull (dyn_expression_builder_get_messages (fixture->builder)[0]);

  /* In a filter everything is offered. */
  dyn_expression_builder_set_kind (fixture->builder, DYN_EXPR_ROLE_FILTER);
  gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL);
  row = get_item (fixture, n_items (fixture) - 1);
  dyn_expr_condition_row_set_path (row, "EntityRef");
  dyn_expr_condition_row_get_offered_operators (row, &n);
  g_assert_cmpuint (n, ==, 19);
  g_assert_true (offers (row, DYN_EXPR_ROW_NE));
  g_assert_true (offers (row, DYN_EXPR_ROW_IN));
  g_assert_true (offers (row, DYN_EXPR_ROW_CONTAINS));
  g_assert_true (offers (row, DYN_EXPR_ROW_EXISTS));
  g_assert_true (offers (row, DYN_EXPR_ROW_NOT_EXISTS));
  g_assert_true (offers (row, DYN_EXPR_ROW_TYPE));
  g_assert_true (offers (row, DYN_EXPR_ROW_SIZE_GT));
}

static void
test_filter_plan (Fixture       *fixture,
                  gconstpointer  data)
{
  dyn_expression_builder_set_text (fixture->builder, "GSI1PK = \"CRS#math204\" AND grade > 2");
  assert_compiles_like (fixture, "GSI1PK = \"CRS#math204\" AND grade > 2");
  g_assert_nonnull (strstr (dyn_expression_builder_get_plan (fixture->builder), "Scan of table Workspaces"));
  g_assert_cmpuint (n_items (fixture), ==, 2);
}

static void
test_update (Fixture       *fixture,
             gconstpointer  data)
{
  const char *text = "SET Status = \"done\", Visits = if_not_exists(Visits, 0), "
                     "History = list_append(History, [\"x\"]) REMOVE Old";
  DynExprUpdateRow *row;

  dyn_expression_builder_set_text (fixture->builder, text);
  g_assert_null (dyn_expression_builder_get_parse_error (fixture->builder));
  g_assert_cmpuint (n_items (fixture), ==, 4);
  row = get_item (fixture, 1);
  g_assert_cmpint (dyn_expr_update_row_get_action (row), ==, DYN_EXPR_SET);
  g_assert_cmpint (dyn_expr_update_row_get_set_mode (row), ==, DYN_EXPR_SET_IF_NOT_EXISTS);
  row = get_item (fixture, 2);
  g_assert_cmpint (dyn_expr_update_row_get_set_mode (row), ==, DYN_EXPR_SET_LIST_APPEND);
  g_assert_cmpint (dyn_value_editor_get_value_type (dyn_expr_update_row_get_value_editor (row)), ==, DYN_VALUE_L);
  row = get_item (fixture, 3);
  g_assert_cmpint (dyn_expr_update_row_get_action (row), ==, DYN_EXPR_REMOVE);
  assert_compiles_like (fixture, text);

  /* One more REMOVE and an ADD, added through the action. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  row = get_item (fixture, 4);
  g_object_set (row, "action", DYN_EXPR_REMOVE, "path", "Tmp", NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  row = get_item (fixture, 5);
  g_object_set (row, "action", DYN_EXPR_ADD, "path", "Count", NULL);
  g_object_set (dyn_expr_update_row_get_value_editor (row), "text", "1", NULL);
  g_assert_cmpint (dyn_value_editor_get_value_type (dyn_expr_update_row_get_value_editor (row)), ==, DYN_VALUE_N);
  assert_compiles_like (fixture, "SET Status = \"done\", Visits = if_not_exists(Visits, 0), "
                                 "History = list_append(History, [\"x\"]) REMOVE Old, Tmp ADD Count 1");

  /* Updating the key is refused. */
  g_object_set (row, "action", DYN_EXPR_SET, "path", "EntityRef", NULL);
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_nonnull (dyn_expression_builder_get_messages (fixture->builder)[0]);
}

/* Movies keyed by year (N) and title (S), with a local index by rating and
 * a global one by genre. */
static DynTableKeys *
movies_table (void)
{
  DynTableKeys *table = dyn_table_keys_new ("movies", "year", DYN_VALUE_N, "title", DYN_VALUE_S);

  dyn_table_keys_add_index (table, "byRating", DYN_INDEX_LOCAL, "year", DYN_VALUE_N, "rating", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  dyn_table_keys_add_index (table, "byGenre", DYN_INDEX_GLOBAL, "genre", DYN_VALUE_S, "year", DYN_VALUE_N,
                            DYN_PROJECTION_ALL);
  return table;
}

/* Whether a label showing exactly @text is visible in @widget. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

/* Whether the button for @action_name in @widget can be clicked. */
static gboolean
button_enabled (GtkWidget  *widget,
                const char *action_name)
{
  if (GTK_IS_ACTIONABLE (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0)
    return gtk_widget_get_visible (widget) && gtk_widget_is_sensitive (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (button_enabled (child, action_name))
      return TRUE;
  return FALSE;
}

/* The plan says what the read request sends: Query or Scan, the source,
 * the expressions shown, the snippet. */
static void
assert_output_is_request (Fixture *fixture)
{
  DynReadRequest *read = dyn_expression_builder_get_read_request (fixture->builder);
  const DynRequest *request;
  const DynExprPlan *plan;
  g_autofree char *snippet = NULL;

  g_assert_nonnull (read);
  g_assert_true (dyn_read_request_is_valid (read));
  request = dyn_read_request_get_request (read);
  plan = dyn_read_request_get_plan (read);
  g_assert_cmpint (plan->operation == DYN_EXPR_PLAN_QUERY ? DYN_OP_QUERY : DYN_OP_SCAN, ==, request->op);
  g_assert_cmpstr (plan->index_name, ==, request->index);
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (fixture->builder),
                                   request->op == DYN_OP_QUERY ? "Query on " : "Scan of "));
  if (request->key_condition != NULL)
    {
      g_assert_true (shows_label (GTK_WIDGET (fixture->builder), "KeyConditionExpression"));
      g_assert_true (shows_label (GTK_WIDGET (fixture->builder), request->key_condition));
    }
  if (request->filter != NULL)
    {
      g_assert_true (shows_label (GTK_WIDGET (fixture->builder), "FilterExpression"));
      g_assert_true (shows_label (GTK_WIDGET (fixture->builder), request->filter));
    }
  snippet = dyn_snippet_generate (dyn_expression_builder_get_snippet_language (fixture->builder), request, NULL, NULL);
  g_assert_cmpstr (dyn_expression_builder_get_snippet (fixture->builder), ==, snippet);
}

/* The suggestion is a button: it reads from the index suggested, where the
 * planner makes the condition the key condition. */
static void
test_suggestion_button (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(DynTableKeys) movies = movies_table ();
  DynReadRequest *read;

  dyn_expression_builder_set_table (fixture->builder, movies);

  /* The partition key's equality: a Query (issue 8: the plan said Scan). */
  dyn_expression_builder_set_text (fixture->builder, "year = 2013");
  assert_output_is_request (fixture);
  read = dyn_expression_builder_get_read_request (fixture->builder);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (fixture->builder), "Query on table movies"));
  g_assert_true (shows_label (GTK_WIDGET (fixture->builder), "#y = :y"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (fixture->builder), "aws dynamodb query"));
  g_assert_false (button_enabled (GTK_WIDGET (fixture->builder), "builder.apply-suggestion"));

  /* Not a key of the table: a Scan, with a button for the index. */
  dyn_expression_builder_set_text (fixture->builder, "genre = \"Drama\" AND rating > 7");
  assert_output_is_request (fixture);
  read = dyn_expression_builder_get_read_request (fixture->builder);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_SCAN);
  g_assert_cmpstr (dyn_read_request_get_suggested_index (read), ==, "byGenre");
  g_assert_true (shows_label (GTK_WIDGET (fixture->builder),
                              "Suggestion: Query on index byGenre possible, with key condition genre = \"Drama\""));
  g_assert_true (button_enabled (GTK_WIDGET (fixture->builder), "builder.apply-suggestion"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.apply-suggestion", NULL));
  g_assert_cmpstr (dyn_expression_builder_get_index (fixture->builder), ==, "byGenre");
  assert_output_is_request (fixture);
  read = dyn_expression_builder_get_read_request (fixture->builder);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
  g_assert_cmpstr (dyn_read_request_get_request (read)->index, ==, "byGenre");
  g_assert_cmpstr (dyn_read_request_get_request (read)->key_condition, ==, "#g = :g");
  g_assert_cmpstr (dyn_read_request_get_request (read)->filter, ==, "#r > :r");
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (fixture->builder), "Query on index byGenre"));
  {
    g_autofree char *text = dyn_expression_builder_dup_text (fixture->builder);

    g_assert_cmpstr (text, ==, "genre = \"Drama\" AND rating > 7");
  }

  /* The local index's sort key narrows a Query of the table. */
  dyn_expression_builder_set_index (fixture->builder, NULL);
  dyn_expression_builder_set_text (fixture->builder, "year = 2013 AND rating > 8");
  assert_output_is_request (fixture);
  read = dyn_expression_builder_get_read_request (fixture->builder);
  g_assert_cmpint (dyn_read_request_get_operation (read), ==, DYN_OP_QUERY);
  g_assert_cmpstr (dyn_read_request_get_suggested_index (read), ==, "byRating");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.apply-suggestion", NULL));
  read = dyn_expression_builder_get_read_request (fixture->builder);
  g_assert_cmpstr (dyn_read_request_get_request (read)->index, ==, "byRating");
  g_assert_cmpstr (dyn_read_request_get_request (read)->key_condition, ==, "#y = :y AND #r > :r");
  g_assert_null (dyn_read_request_get_request (read)->filter);
  assert_output_is_request (fixture);
}

/* A key condition on the local index's sort key, read from the table: the
 * check names the index, and the button moves the read there. */
static void
test_key_condition_suggestion (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(DynTableKeys) movies = movies_table ();
  const char * const *messages;

  dyn_expression_builder_set_table (fixture->builder, movies);
  dyn_expression_builder_set_text (fixture->builder, "year = 2013 AND rating > 8");
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  messages = dyn_expression_builder_get_messages (fixture->builder);
  g_assert_cmpstr (messages[0], ==, "rating is not a key attribute; move it to the filter, or query the local "
                                    "secondary index byRating, whose sort key it is at character 17");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.apply-suggestion", NULL));
  g_assert_cmpstr (dyn_expression_builder_get_index (fixture->builder), ==, "byRating");
  g_assert_true (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_plan (fixture->builder), "Query on index byRating"));
  assert_output_is_request (fixture);
}

/* The text says what is sent: a string for a number key stays a string
 * (the rows do not turn it into a number), and the check says so. */
static void
test_key_types (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(DynTableKeys) movies = movies_table ();
  DynExprConditionRow *row;
  g_autofree char *text = NULL;

  dyn_expression_builder_set_table (fixture->builder, movies);
  dyn_expression_builder_set_text (fixture->builder, "year = \"2013\"");
  row = get_item (fixture, 0);
  g_assert_cmpint (dyn_value_editor_get_value_type (dyn_expr_condition_row_get_value_editor (row, 0)), ==, DYN_VALUE_S);
  text = dyn_expression_builder_dup_text (fixture->builder);
  g_assert_cmpstr (text, ==, "year = \"2013\"");
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_cmpstr (dyn_expression_builder_get_messages (fixture->builder)[0], ==,
                   "the key year is a number, but the value is of type S at character 8");
  g_assert_false (shows_label (GTK_WIDGET (fixture->builder), "No problems found"));

  /* A row the user builds gets the key's type. */
  dyn_expression_builder_set_text (fixture->builder, "");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.add-row", NULL));
  row = get_item (fixture, 0);
  dyn_expr_condition_row_set_path (row, "year");
  dyn_value_editor_set_text (dyn_expr_condition_row_get_value_editor (row, 0), "2013");
  g_clear_pointer (&text, g_free);
  text = dyn_expression_builder_dup_text (fixture->builder);
  g_assert_cmpstr (text, ==, "year = 2013");
  g_assert_true (dyn_expression_builder_get_valid (fixture->builder));
}

static void
test_parse_error (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *expected = NULL;

  dyn_expression_builder_set_text (fixture->builder, seed_key_condition);
  g_assert_cmpuint (n_items (fixture), ==, 2);
  expected = g_strdup (dyn_expression_builder_get_expression (fixture->builder));

  g_assert_true (shows_label (GTK_WIDGET (fixture->builder), expected));
  g_assert_false (dyn_expression_builder_get_stale (fixture->builder));

  dyn_expression_builder_set_text (fixture->builder, "EntityRef = \"WS#acme\" AND (");
  g_assert_nonnull (dyn_expression_builder_get_parse_error (fixture->builder));
  g_assert_nonnull (strstr (dyn_expression_builder_get_parse_error (fixture->builder), "character"));
  /* The rows stay as they were; the result of the last text that parsed is
   * not shown under the new one (issue 8: it was). */
  g_assert_cmpuint (n_items (fixture), ==, 2);
  g_assert_true (dyn_expression_builder_get_stale (fixture->builder));
  g_assert_false (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_null (dyn_expression_builder_get_expression (fixture->builder));
  g_assert_null (dyn_expression_builder_get_read_request (fixture->builder));
  g_assert_false (shows_label (GTK_WIDGET (fixture->builder), expected));
  g_assert_true (shows_label (GTK_WIDGET (fixture->builder),
                              "Out of date: the expression text does not parse, so nothing is compiled from it."));
  g_assert_null (dyn_expression_builder_get_snippet (fixture->builder));
  g_assert_false (button_enabled (GTK_WIDGET (fixture->builder), "builder.copy-snippet"));
  /* Choosing another index does not replace the text with the rows. */
  dyn_expression_builder_set_index (fixture->builder, "GSI1");
  g_assert_nonnull (dyn_expression_builder_get_parse_error (fixture->builder));
  g_assert_true (dyn_expression_builder_get_stale (fixture->builder));
  dyn_expression_builder_set_index (fixture->builder, NULL);

  dyn_expression_builder_set_text (fixture->builder, "EntityRef = \"WS#other\"");
  g_assert_null (dyn_expression_builder_get_parse_error (fixture->builder));
  g_assert_cmpuint (n_items (fixture), ==, 1);
  g_assert_false (dyn_expression_builder_get_stale (fixture->builder));
  g_assert_true (dyn_expression_builder_get_valid (fixture->builder));
  g_assert_true (shows_label (GTK_WIDGET (fixture->builder), "#er = :er"));
}

static void
read_text_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
}

static void
test_snippet (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *cli = NULL;
  g_autofree char *copied = NULL;

  dyn_expression_builder_set_text (fixture->builder, seed_key_condition);
  cli = g_strdup (dyn_expression_builder_get_snippet (fixture->builder));
  g_assert_nonnull (strstr (cli, "aws dynamodb query"));
  g_assert_nonnull (strstr (cli, "#er = :er AND begins_with(#d, :p)"));

  g_object_set (fixture->builder, "snippet-language", DYN_SNIPPET_BOTO3, NULL);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (fixture->builder), "boto3"));
  dyn_expression_builder_set_snippet_language (fixture->builder, DYN_SNIPPET_GO);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (fixture->builder), "package main"));
  dyn_expression_builder_set_snippet_language (fixture->builder, DYN_SNIPPET_JAVA);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (fixture->builder), "class"));
  dyn_expression_builder_set_snippet_language (fixture->builder, DYN_SNIPPET_JS);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (fixture->builder), "@aws-sdk/client-dynamodb"));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->builder), "builder.copy-snippet", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (fixture->builder)), NULL,
                                 read_text_cb, &copied);
  while (copied == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (copied, ==, dyn_expression_builder_get_snippet (fixture->builder));
}

/* The read options: each is carried by the read request (and so by Run and
 * the snippet); those that do not apply to a read show off and say why. */
static void
test_read_options (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DynTableKeys) movies = movies_table ();
  DynExpressionBuilder *builder = fixture->builder;
  DynReadRequest *read;
  const DynRequest *request;

  dyn_expression_builder_set_table (builder, movies);
  dyn_expression_builder_set_page_size (builder, 50);
  dyn_expression_builder_set_text (builder, "year = 2013");
  g_assert_true (shows_label (GTK_WIDGET (builder), "Read Options"));

  /* The window's page size is the first page's. */
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_nonnull (read);
  request = dyn_read_request_get_request (read);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpint (request->limit, ==, 50);
  g_assert_true (dyn_read_request_get_first_page_only (read));
  g_assert_cmpint (dyn_expression_builder_get_read_page_size (builder), ==, -1);
  g_assert_true (shows_label (GTK_WIDGET (builder), "first page"));

  /* Attributes: with the key attributes, shown as sent. */
  g_object_set (builder, "projection", "title, info.rating", NULL);
  request = dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder));
  g_assert_cmpstr (request->projection, ==, "#t, #i.#r, #y");
  g_assert_cmpstr (g_hash_table_lookup (request->names, "#y"), ==, "year");
  g_assert_true (shows_label (GTK_WIDGET (builder), "ProjectionExpression"));
  g_assert_true (shows_label (GTK_WIDGET (builder), "#t, #i.#r, #y"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--projection-expression '#t, #i.#r, #y'"));

  /* Strongly consistent, through the property's action. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.consistent-read", NULL));
  g_assert_true (dyn_expression_builder_get_consistent_read (builder));
  request = dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder));
  g_assert_true (request->consistent_read);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--consistent-read"));

  /* A local index has consistent reads; a global one has none: not sent,
   * and the builder says why. */
  dyn_expression_builder_set_index (builder, "byRating");
  request = dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder));
  g_assert_cmpstr (request->index, ==, "byRating");
  g_assert_true (request->consistent_read);
  dyn_expression_builder_set_index (builder, "byGenre");
  dyn_expression_builder_set_text (builder, "genre = \"Drama\"");
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_true (dyn_read_request_is_valid (read));
  request = dyn_read_request_get_request (read);
  g_assert_cmpstr (request->index, ==, "byGenre");
  g_assert_false (request->consistent_read);
  g_assert_true (dyn_expression_builder_get_consistent_read (builder));
  g_assert_true (shows_label (GTK_WIDGET (builder), "A global secondary index only has eventually consistent reads: "
                                                    "this read is not strongly consistent."));
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "--consistent-read"));
  dyn_expression_builder_set_index (builder, NULL);
  dyn_expression_builder_set_text (builder, "year = 2013");
  g_assert_false (shows_label (GTK_WIDGET (builder), "A global secondary index only has eventually consistent reads: "
                                                     "this read is not strongly consistent."));
  g_assert_true (dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder))->consistent_read);

  /* Descending: a Query's; a Scan has no order. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.descending", NULL));
  request = dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder));
  g_assert_false (request->scan_forward);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--no-scan-index-forward"));
  dyn_expression_builder_set_text (builder, "rating > 5");
  request = dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder));
  g_assert_cmpint (request->op, ==, DYN_OP_SCAN);
  g_assert_true (request->scan_forward);
  g_assert_true (dyn_expression_builder_get_descending (builder));
  g_assert_true (shows_label (GTK_WIDGET (builder),
                              "A Scan returns the items in no order: Descending applies to a Query."));
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "scan-index-forward"));

  /* A page size for this read: every page's; "Full" sends none. */
  g_object_set (builder, "read-page-size", (gint64) 7, NULL);
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_cmpint (dyn_read_request_get_request (read)->limit, ==, 7);
  g_assert_false (dyn_read_request_get_first_page_only (read));
  g_assert_true (shows_label (GTK_WIDGET (builder), "every page"));
  dyn_expression_builder_set_page_size (builder, 20);   /* the window's setting changes: not this read's */
  g_assert_cmpint (dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder))->limit, ==, 7);
  dyn_expression_builder_set_read_page_size (builder, 0);
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_cmpint (dyn_read_request_get_request (read)->limit, ==, 0);
  g_assert_null (strstr (dyn_expression_builder_get_snippet (builder), "--page-size"));
  dyn_expression_builder_set_read_page_size (builder, -1);
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_cmpint (dyn_read_request_get_request (read)->limit, ==, 20);
  g_assert_true (dyn_read_request_get_first_page_only (read));

  /* Count only: Select=COUNT, no projection. */
  dyn_expression_builder_set_descending (builder, FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.count-only", NULL));
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_true (dyn_read_request_get_count_only (read));
  g_assert_null (dyn_read_request_get_request (read)->projection);
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "--select COUNT"));
  g_assert_true (shows_label (GTK_WIDGET (builder), "Count only: no items and no attributes are read; the status "
                                                    "line says how many items matched and what that cost."));
  dyn_expression_builder_set_count_only (builder, FALSE);
  g_assert_nonnull (dyn_read_request_get_request (dyn_expression_builder_get_read_request (builder))->projection);

  /* A projection that does not parse: no read, and the field is named. */
  dyn_expression_builder_set_projection (builder, "title,,");
  g_assert_null (dyn_expression_builder_get_read_request (builder));
  g_assert_false (dyn_expression_builder_get_valid (builder));
  g_assert_true (g_str_has_prefix (dyn_expression_builder_get_messages (builder)[0], "ProjectionExpression: "));
  g_assert_null (dyn_expression_builder_get_snippet (builder));
  dyn_expression_builder_set_projection (builder, "");
  g_assert_null (dyn_expression_builder_get_projection (builder));
  g_assert_true (dyn_expression_builder_get_valid (builder));
}

/* Get Item by Key: a typed field per key attribute of the table; an index
 * or an expression given switch back to finding items. */
static void
test_get_item_form (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(DynTableKeys) movies = movies_table ();
  g_autoptr(DynValue) key = NULL;
  DynExpressionBuilder *builder = fixture->builder;
  DynReadRequest *read;
  const DynRequest *request;

  /* Without a table there is no key to get by. */
  dyn_expression_builder_set_table (builder, NULL);
  dyn_expression_builder_set_by_key (builder, TRUE);
  g_assert_false (dyn_expression_builder_get_by_key (builder));

  dyn_expression_builder_set_table (builder, movies);
  dyn_expression_builder_set_text (builder, "year = 2013 AND begins_with(title, \"R\")");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (builder), "builder.by-key", NULL));
  g_assert_true (dyn_expression_builder_get_by_key (builder));
  g_assert_true (shows_label (GTK_WIDGET (builder), "Primary Key"));
  g_assert_true (shows_label (GTK_WIDGET (builder), "Partition key · Number"));
  g_assert_true (shows_label (GTK_WIDGET (builder), "Sort key · String"));
  g_assert_false (gtk_widget_get_mapped (_dyn_expression_builder_get_text_view (GTK_WIDGET (builder))));
  /* Nothing typed yet. */
  g_assert_false (dyn_expression_builder_get_valid (builder));
  g_assert_cmpstr (dyn_expression_builder_get_messages (builder)[0], ==, "year: a key attribute must not be empty");
  g_assert_true (shows_label (GTK_WIDGET (builder), "Not planned: the key is not complete"));

  key = dyn_item_from_ddb_json_string ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}}", -1, NULL);
  dyn_expression_builder_set_key (builder, key);
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_true (dyn_read_request_is_valid (read));
  request = dyn_read_request_get_request (read);
  g_assert_cmpint (request->op, ==, DYN_OP_GET_ITEM);
  g_assert_true (dyn_value_equal (request->key, key));
  g_assert_cmpint (request->limit, ==, 0);
  g_assert_null (request->select);
  g_assert_cmpstr (dyn_expression_builder_get_plan (builder), ==,
                   "GetItem on table movies · GetItem of the one item with year = 2013 AND title = \"Rush\"");
  g_assert_true (shows_label (GTK_WIDGET (builder), "Key"));
  g_assert_true (shows_label (GTK_WIDGET (builder), "No problems found"));
  g_assert_nonnull (strstr (dyn_expression_builder_get_snippet (builder), "aws dynamodb get-item"));
  /* Count, descending and the page size are not a GetItem's; projection
   * and consistency are. */
  dyn_expression_builder_set_count_only (builder, TRUE);
  dyn_expression_builder_set_descending (builder, TRUE);
  dyn_expression_builder_set_consistent_read (builder, TRUE);
  dyn_expression_builder_set_projection (builder, "rating");
  read = dyn_expression_builder_get_read_request (builder);
  g_assert_true (dyn_read_request_is_valid (read));
  request = dyn_read_request_get_request (read);
  g_assert_true (request->consistent_read);
  g_assert_cmpstr (request->projection, ==, "#r, #y, #t");
  g_assert_null (request->select);
  dyn_expression_builder_set_count_only (builder, FALSE);
  dyn_expression_builder_set_descending (builder, FALSE);

  /* An index is read by finding items; the expression is still there. */
  dyn_expression_builder_set_index (builder, "byGenre");
  g_assert_false (dyn_expression_builder_get_by_key (builder));
  g_assert_true (gtk_widget_get_mapped (_dyn_expression_builder_get_text_view (GTK_WIDGET (builder))));
  g_assert_cmpint (dyn_read_request_get_operation (dyn_expression_builder_get_read_request (builder)), ==,
                   DYN_OP_SCAN);
  /* Getting by key reads the table; what was typed into the form stays. */
  dyn_expression_builder_set_by_key (builder, TRUE);
  g_assert_null (dyn_expression_builder_get_index (builder));
  g_assert_cmpint (dyn_read_request_get_operation (dyn_expression_builder_get_read_request (builder)), ==,
                   DYN_OP_GET_ITEM);
  /* An expression given: finding items again. */
  dyn_expression_builder_set_text (builder, "year = 2014");
  g_assert_false (dyn_expression_builder_get_by_key (builder));
  g_assert_cmpint (dyn_read_request_get_operation (dyn_expression_builder_get_read_request (builder)), ==,
                   DYN_OP_QUERY);
  /* No table: no key. */
  dyn_expression_builder_set_by_key (builder, TRUE);
  dyn_expression_builder_set_table (builder, NULL);
  g_assert_false (dyn_expression_builder_get_by_key (builder));
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  g_test_init (&argc, &argv, NULL);

  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  adw_init ();

#define ADD(path, data, func) \
  g_test_add ("/dyn/builder/" path, Fixture, data, fixture_set_up, func, fixture_tear_down)
  ADD ("new-destroy", KEY_CONDITION, test_new_destroy);
  ADD ("text-to-rows", KEY_CONDITION, test_text_to_rows);
  ADD ("typing", KEY_CONDITION, test_typing);
  ADD ("add-rows", FILTER, test_add_rows);
  ADD ("operators", KEY_CONDITION, test_operators);
  ADD ("filter-plan", FILTER, test_filter_plan);
  ADD ("update", UPDATE, test_update);
  ADD ("parse-error", KEY_CONDITION, test_parse_error);
  ADD ("snippet", KEY_CONDITION, test_snippet);
  ADD ("suggestion-button", FILTER, test_suggestion_button);
  ADD ("key-condition-suggestion", KEY_CONDITION, test_key_condition_suggestion);
  ADD ("key-types", FILTER, test_key_types);
  ADD ("read-options", FILTER, test_read_options);
  ADD ("get-item-form", FILTER, test_get_item_form);
#undef ADD

  return g_test_run ();
}
