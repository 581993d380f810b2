/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-design"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-design-edit.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The Design page in the real window under Xvfb against DynamoDB Local:
 * the seeds' Workspaces model opened through the window (the function
 * win.design-open calls after its dialog) shows the seeds' key plan
 * (WS#{workspaceId} / META / PROJ#…) in the plan table, with its
 * decisions; an edit in the entity editor changes the plan at once (one
 * draft per edit); the access patterns with their key conditions and
 * snippets in each language; the examples stacked per item collection;
 * the live check on the window's connection passes every pattern with one
 * request of one page; "Open in Table" shows the checked scratch table's
 * items grouped by item collection in the Items page; the School model has
 * its inverted GSI1 in the plan and passes its check too; Save writes the
 * edited model and it reads back. With DYN_SCREENSHOT_DIR set (or into
 * the build directory) design.png (the plan, light) and design-dark.png
 * (the check, dark) are written. */

static DynApplication *app;
static char *tmp_dir;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynDesignView      *view;
} Fixture;

static void
settle (void)
{
  for (guint i = 0; i < 15; i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static char *
design_path (const char *name)
{
  return g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "design", name, NULL);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  g_unlink (path);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }

  fixture->connection = dyn_connection_new ("Local");
  dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (fixture->connection, dyn_test_server_get_endpoint (server));
  dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  dyn_window_open_connection (fixture->window, fixture->connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));

  fixture->view = dyn_window_get_design_view (fixture->window);
  g_assert_nonnull (fixture->view);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_clear_object (&fixture->connection);
  if (fixture->store != NULL)
    g_assert_finalize_object (fixture->store);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* Whether a visible label under @widget reads @text (with @prefix: starts
 * with it). */
static guint
count_labels (GtkWidget  *widget,
              const char *text,
              gboolean    prefix)
{
  guint n = 0;

  if (!gtk_widget_get_visible (widget))
    return 0;
  if (GTK_IS_LABEL (widget))
    {
      const char *label = gtk_label_get_text (GTK_LABEL (widget));

      if (prefix ? g_str_has_prefix (label, text) : g_strcmp0 (label, text) == 0)
        n++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    n += count_labels (child, text, prefix);
  return n;
}

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return NULL;
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  return count_labels (widget, text, FALSE) > 0;
}

static void
open_model (Fixture    *fixture,
            const char *name)
{
  g_autofree char *path = design_path (name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_assert_true (dyn_window_open_design_file (fixture->window, file, &error));
  g_assert_no_error (error);
  settle ();
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "design");
  g_assert_nonnull (dyn_design_view_get_model (fixture->view));
  g_assert_no_error ((GError *) dyn_design_view_get_draft_error (fixture->view));
  g_assert_nonnull (dyn_design_view_get_plan (fixture->view));
}

static const DynDesignTable *
plan_table (Fixture *fixture)
{
  const DynDesignTable *table = dyn_design_plan_get_table (dyn_design_view_get_plan (fixture->view));

  g_assert_nonnull (table);
  return table;
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The widget under @widget that activates @action, or NULL. */
static GtkWidget *
find_actionable (GtkWidget  *widget,
                 const char *action)
{
  if (GTK_IS_ACTIONABLE (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_actionable (child, action);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_flap (GtkWidget *widget)
{
  if (ADW_IS_FLAP (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_flap (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Screenshots: into $DYN_SCREENSHOT_DIR, else the build directory. */
static void
screenshot (Fixture    *fixture,
            const char *name)
{
  const char *dir = g_getenv ("DYN_SCREENSHOT_DIR");
  g_autofree char *out = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  gboolean saved = FALSE;

  /* The design's room: the connection sidebar folded away. */
  if (adw_flap_get_reveal_flap (ADW_FLAP (find_flap (GTK_WIDGET (fixture->window)))))
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.toggle-sidebar", NULL));
  if (dir != NULL)
    out = g_strdup (dir);
  else
    out = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : tmp_dir,
                            "screenshots", NULL);
  g_assert_cmpint (g_mkdir_with_parents (out, 0755), ==, 0);
  path = g_build_filename (out, name, NULL);
  for (guint i = 0; i < 50 && !saved; i++)
    {
      settle ();
      g_clear_error (&error);
      saved = dyn_window_save_png (GTK_WINDOW (fixture->window), path, &error);
    }
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_test_message ("screenshot: %s", path);
}

/* Runs win.design-check and waits for its report. */
static const DynDesignCheckReport *
run_check (Fixture *fixture)
{
  const DynDesignCheckReport *report;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-check", NULL));
  g_assert_cmpstr (dyn_design_view_get_page (fixture->view), ==, "check");
  for (guint i = 0; i < 6 && dyn_design_view_get_report (fixture->view) == NULL; i++)
    dyn_test_wait_idle (fixture->window);
  settle ();
  report = dyn_design_view_get_report (fixture->view);
  g_assert_nonnull (report);
  return report;
}

static void
assert_check_passed (Fixture                    *fixture,
                     const DynDesignCheckReport *report)
{
  DynDesignModel *model = dyn_design_view_get_model (fixture->view);
  GtkWidget *check = dyn_design_view_get_check_widget (fixture->view);

  g_assert_true (report->scratch);
  g_assert_nonnull (report->table);
  g_assert_cmpuint (report->results->len, ==, model->patterns->len);
  for (guint i = 0; i < report->results->len; i++)
    {
      DynDesignCheckResult *result = report->results->pdata[i];

      g_test_message ("%s: %s, %u requests, %u pages, %u items, %s", result->pattern,
                      dyn_operation_get_name (result->operation), result->requests, result->pages, result->items,
                      result->problem ? result->problem : "passed");
      g_assert_true (result->passed);
      g_assert_cmpint (result->operation, !=, DYN_OP_SCAN);
      g_assert_cmpuint (result->requests, ==, 1);
      g_assert_cmpuint (result->pages, ==, 1);
      g_assert_cmpuint (result->items, >, 0);
      g_assert_true (result->only_entity);
      g_assert_true (shows_label (check, result->pattern));
    }
  g_assert_true (report->passed);
  /* One "passed" per pattern in the results table, and the cost line. */
  g_assert_cmpuint (count_labels (check, "✓ passed", FALSE), ==, report->results->len);
  g_assert_nonnull (dyn_design_view_get_cost_text (fixture->view));
  g_assert_nonnull (strstr (dyn_design_view_get_cost_text (fixture->view), "RCU"));
  g_assert_nonnull (strstr (dyn_design_view_get_cost_text (fixture->view), report->table));
  g_assert_true (shows_label (check, dyn_design_view_get_cost_text (fixture->view)));
}

/* The seeds' 1:n design: the page by its shortcut's action, the model
 * opened, the plan table with the seeds' templates and the decisions. */
static void
test_open_plan (Fixture       *fixture,
                gconstpointer  data)
{
  const DynDesignTable *table;
  GtkWidget *plan;
  const char *sk;
  GPtrArray *decisions;

  if (fixture->window == NULL)
    return;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "design"));
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "design");
  g_assert_null (dyn_design_view_get_model (fixture->view));

  open_model (fixture, "workspaces.json");
  table = plan_table (fixture);
  plan = dyn_design_view_get_plan_widget (fixture->view);
  g_assert_cmpstr (table->partition_key, ==, "EntityRef");
  g_assert_cmpstr (table->sort_key, ==, "Detail");
  /* The shared partition key, META and PROJ# sort keys. */
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Workspace", "EntityRef"), ==, "WS#{workspaceId}");
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Workspace", "Detail"), ==, "META");
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Project", "EntityRef"), ==, "WS#{workspaceId}");
  sk = dyn_design_view_get_plan_cell (fixture->view, "Project", "Detail");
  g_assert_nonnull (sk);
  g_assert_true (g_str_has_prefix (sk, "PROJ#"));
  g_assert_nonnull (strstr (sk, "{projectId}"));
  /* What the table shows. */
  g_assert_cmpuint (count_labels (plan, "WS#{workspaceId}", FALSE), ==, 2);
  g_assert_true (shows_label (plan, "META"));
  g_assert_true (shows_label (plan, sk));
  g_assert_true (shows_label (plan, "EntityRef"));
  g_assert_true (shows_label (plan, "Detail"));
  g_assert_true (shows_label (plan, "Workspace"));
  g_assert_true (shows_label (plan, "Project"));
  /* Every decision with its sentence. */
  decisions = dyn_design_plan_get_decisions (dyn_design_view_get_plan (fixture->view));
  g_assert_cmpuint (decisions->len, >, 0);
  for (guint i = 0; i < decisions->len; i++)
    g_assert_true (shows_label (plan, ((DynDesignDecision *) decisions->pdata[i])->text));
  /* The entity list: the first entity is edited. */
  g_assert_cmpstr (dyn_design_view_get_selected_entity (fixture->view), ==, "Workspace");
  g_assert_cmpstr (gtk_editable_get_text (dyn_design_view_get_name_editable (fixture->view)), ==, "Workspace");
  g_assert_cmpstr (gtk_editable_get_text (dyn_design_view_get_id_editable (fixture->view)), ==, "workspaceId");

  screenshot (fixture, "design.png");
}

/* Edits in the entity editor: each one drafts once, and the plan table
 * shows the new plan at once. */
static void
test_edit (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *plan;
  const char *sk;
  guint drafts;
  DynDesignModel *model;
  DynDesignPattern *one_project;
  GtkEditable *attribute;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "workspaces.json");
  plan = dyn_design_view_get_plan_widget (fixture->view);
  g_assert_true (dyn_design_view_select_entity (fixture->view, "Project"));
  settle ();
  g_assert_cmpstr (dyn_design_view_get_selected_entity (fixture->view), ==, "Project");
  g_assert_cmpstr (gtk_editable_get_text (dyn_design_view_get_id_editable (fixture->view)), ==, "projectId");

  /* The id attribute renamed: the sort key template follows, and the
   * pattern that gives it too. */
  attribute = dyn_design_view_get_attribute_editable (fixture->view, 0);
  g_assert_nonnull (attribute);
  g_assert_cmpstr (gtk_editable_get_text (attribute), ==, "projectId");
  drafts = dyn_design_view_get_n_drafts (fixture->view);
  gtk_editable_set_text (attribute, "taskId");
  settle ();
  g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts + 1);
  g_assert_no_error ((GError *) dyn_design_view_get_draft_error (fixture->view));
  sk = dyn_design_view_get_plan_cell (fixture->view, "Project", "Detail");
  g_assert_nonnull (sk);
  g_assert_nonnull (strstr (sk, "{taskId}"));
  g_assert_null (strstr (sk, "{projectId}"));
  g_assert_true (shows_label (plan, sk));
  g_assert_cmpuint (count_labels (plan, "{projectId}", TRUE), ==, 0);
  g_assert_cmpstr (gtk_editable_get_text (dyn_design_view_get_id_editable (fixture->view)), ==, "taskId");
  model = dyn_design_view_get_model (fixture->view);
  one_project = model->patterns->pdata[2];
  g_assert_cmpstr (one_project->name, ==, "One project");
  g_assert_true (g_strv_contains ((const char * const *) one_project->parameters, "taskId"));

  /* The entity renamed: its row in the plan, its patterns follow. */
  drafts = dyn_design_view_get_n_drafts (fixture->view);
  gtk_editable_set_text (dyn_design_view_get_name_editable (fixture->view), "Task");
  settle ();
  g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts + 1);
  g_assert_true (shows_label (plan, "Task"));
  g_assert_false (shows_label (plan, "Project"));
  g_assert_nonnull (dyn_design_view_get_plan_cell (fixture->view, "Task", "Detail"));
  g_assert_null (dyn_design_view_get_plan_cell (fixture->view, "Project", "Detail"));
  g_assert_cmpstr (one_project->entity, ==, "Task");

  /* A name another entity has is refused, and nothing is drafted. */
  drafts = dyn_design_view_get_n_drafts (fixture->view);
  gtk_editable_set_text (dyn_design_view_get_name_editable (fixture->view), "Workspace");
  settle ();
  g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (dyn_design_view_get_name_editable (fixture->view)), "error"));
  g_assert_nonnull (dyn_design_model_find_entity (model, "Task"));

  /* Saved and read back: the edits are in the file. */
  {
    g_autofree char *path = g_build_filename (tmp_dir, "edited.json", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;
    g_autoptr(DynDesignModel) back = NULL;
    DynDesignEntity *task;

    g_assert_true (dyn_window_save_design_file (fixture->window, file, &error));
    g_assert_no_error (error);
    back = dyn_design_model_load_file (path, NULL, &error);
    g_assert_no_error (error);
    task = dyn_design_model_find_entity (back, "Task");
    g_assert_nonnull (task);
    g_assert_nonnull (dyn_design_entity_find_attribute (task, "taskId"));
    g_assert_cmpstr (dyn_design_model_get_parent (back, "Task"), ==, "Workspace");
  }
}

/* The access patterns: operation, key condition, maps, and the snippets in
 * the language chosen; the examples stacked per item collection. */
static void
test_patterns_examples (Fixture       *fixture,
                        gconstpointer  data)
{
  GPtrArray *requests;
  GtkWidget *patterns, *examples;
  GPtrArray *items;
  const DynDesignTable *table;
  const char *snippet;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "workspaces.json");
  dyn_design_view_set_page (fixture->view, "patterns");
  settle ();
  patterns = dyn_design_view_get_patterns_widget (fixture->view);
  requests = dyn_design_plan_get_requests (dyn_design_view_get_plan (fixture->view));
  g_assert_cmpuint (requests->len, ==, 4);
  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *request = requests->pdata[i];

      g_assert_true (shows_label (patterns, request->pattern));
      g_assert_nonnull (request->request);
      if (request->operation == DYN_OP_QUERY)
        {
          const char *kce = dyn_read_request_get_expression (request->request, DYN_EXPR_ROLE_KEY_CONDITION);

          g_assert_nonnull (kce);
          g_assert_true (shows_label (patterns, kce));
        }
      snippet = dyn_design_view_get_snippet (fixture->view, i);
      g_assert_nonnull (snippet);
      g_assert_true (g_str_has_prefix (snippet, "aws dynamodb") || strstr (snippet, "aws dynamodb") != NULL);
    }
  /* The projects newest first: a Query, backwards. */
  {
    DynDesignRequest *newest = requests->pdata[1];

    g_assert_cmpint (newest->operation, ==, DYN_OP_QUERY);
    g_assert_true (shows_label (patterns, "false"));
    g_assert_nonnull (strstr (dyn_design_view_get_snippet (fixture->view, 1), "--no-scan-index-forward"));
  }
  dyn_design_view_set_snippet_language (fixture->view, DYN_SNIPPET_BOTO3);
  settle ();
  g_assert_cmpint (dyn_design_view_get_snippet_language (fixture->view), ==, DYN_SNIPPET_BOTO3);
  g_assert_nonnull (strstr (dyn_design_view_get_snippet (fixture->view, 1), "boto3"));
  g_assert_nonnull (strstr (dyn_design_view_get_snippet (fixture->view, 1), "ScanIndexForward"));
  /* The second pattern's snippet open. */
  {
    GtkWidget *card = gtk_widget_get_next_sibling (gtk_widget_get_first_child (patterns));
    GtkWidget *expander = find_type (card, GTK_TYPE_EXPANDER);

    g_assert_nonnull (expander);
    gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  }
  screenshot (fixture, "design-patterns.png");

  /* Examples: one block per partition, the parent (META) first. */
  dyn_design_view_set_page (fixture->view, "examples");
  settle ();
  examples = dyn_design_view_get_examples_widget (fixture->view);
  items = dyn_design_view_get_examples (fixture->view);
  table = plan_table (fixture);
  g_assert_nonnull (items);
  g_assert_cmpuint (items->len, >, 3);
  g_assert_true (shows_label (examples, "WS#acme"));
  g_assert_true (shows_label (examples, "META"));
  g_assert_cmpuint (count_labels (examples, "PROJ#", TRUE), >=, 3);
  g_assert_true (shows_label (examples, "Workspace"));
  g_assert_true (shows_label (examples, "Project"));
  for (guint i = 1; i < items->len; i++)
    {
      DynValue *a = dyn_value_map_lookup (items->pdata[i - 1], table->partition_key);
      DynValue *b = dyn_value_map_lookup (items->pdata[i], table->partition_key);

      g_assert_cmpint (dyn_value_compare (a, b), <=, 0);
    }
  screenshot (fixture, "design-examples.png");

  /* Children per parent: the spin button above the collections sets the
   * model's examplesPerParent; each workspace then has five projects. */
  {
    GtkWidget *header = gtk_widget_get_first_child (gtk_widget_get_parent (examples));
    GtkWidget *spin = gtk_widget_get_last_child (header);
    guint drafts = dyn_design_view_get_n_drafts (fixture->view);

    g_assert_true (GTK_IS_SPIN_BUTTON (spin));
    g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 3);
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 5);
    settle ();
    g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts + 1);
    g_assert_cmpuint (dyn_design_view_get_model (fixture->view)->examples_per_parent, ==, 5);
    items = dyn_design_view_get_examples (fixture->view);
    g_assert_cmpuint (items->len, ==, 3 * (1 + 5));
    g_assert_cmpuint (count_labels (gtk_widget_get_parent (examples), "PROJ#", TRUE), ==, 15);
  }
}

/* The live check on the window's connection, and Open in Table. */
static void
test_check_open_table (Fixture       *fixture,
                       gconstpointer  data)
{
  const DynDesignCheckReport *report;
  g_autofree char *table = NULL;
  DynCollectionModel *model;
  GPtrArray *examples;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "workspaces.json");
  report = run_check (fixture);
  assert_check_passed (fixture, report);
  table = g_strdup (report->table);
  examples = dyn_design_view_get_examples (fixture->view);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-open-table", NULL));
  for (guint i = 0; i < 6 && g_strcmp0 (dyn_window_get_table (fixture->window), table) != 0; i++)
    dyn_test_wait_idle (fixture->window);
  dyn_test_wait_idle (fixture->window);
  settle ();
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "items");
  g_assert_true (dyn_item_grid_get_grouped (dyn_window_get_grid (fixture->window)));
  model = dyn_window_get_model (fixture->window);
  g_assert_nonnull (model);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (model), ==, examples->len);
  /* One collection per workspace, the workspace and its projects in it. */
  g_assert_cmpuint (dyn_collection_model_get_n_collections (model), ==, 3);
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), table));

  /* The same model checked against that table as an existing one: its
   * data (the examples) is read, nothing is written, nothing deleted. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "design"));
  dyn_design_view_set_check_table (fixture->view, table);
  g_assert_cmpstr (dyn_design_view_get_check_table (fixture->view), ==, table);
  report = run_check (fixture);
  g_assert_false (report->scratch);
  g_assert_cmpstr (report->table, ==, table);
  g_assert_cmpuint (report->items_written, ==, 0);
  for (guint i = 0; i < report->results->len; i++)
    {
      DynDesignCheckResult *result = report->results->pdata[i];

      g_test_message ("%s on the existing table: %u requests, %s", result->pattern, result->requests,
                      result->problem ? result->problem : "passed");
      g_assert_true (result->passed);
      g_assert_cmpuint (result->requests, ==, 1);
    }
  g_assert_nonnull (strstr (dyn_design_view_get_cost_text (fixture->view), table));
  {
    g_autoptr(DynClient) client = dyn_test_client_new (dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL));
    g_auto(GStrv) tables = dyn_test_list_tables (client, NULL);

    g_assert_true (g_strv_contains ((const char * const *) tables, table));
  }
}

/* A model inferred from the open table (the demo Workspaces data): its
 * entities found, the table fixed as it is, the plan drafted; and its check
 * against that very table passes with one request per pattern. */
static void
test_infer (Fixture       *fixture,
            gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  const char *gsis[] = { "GSI1:GSI1PK:S:GSI1SK:S", NULL };
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GPtrArray) items = dyn_test_item_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *table = dyn_test_table_name ("infer-ws");
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  DynDesignModel *model;
  GtkWidget *plan;

  if (fixture->window == NULL)
    return;
  client = dyn_test_client_new (server);
  g_assert_true (dyn_test_create_table (client, table, "EntityRef:S", "Detail:S", gsis, &error));
  g_assert_no_error (error);
  path = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "data", "demo", "Workspaces.jsonl", NULL);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i] != '\0')
      g_ptr_array_add (items, dyn_test_item (lines[i]));
  g_assert_true (dyn_test_load_items (client, table, items, &error));
  g_assert_no_error (error);

  /* Without an open table there is nothing to infer from. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-new", "s", "infer"));
  settle ();
  g_assert_null (dyn_design_view_get_model (fixture->view));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.refresh-tables", NULL));
  dyn_test_wait_idle (fixture->window);
  dyn_window_open_table (fixture->window, table);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-new", "s", "infer"));
  for (guint i = 0; i < 6 && dyn_design_view_get_model (fixture->view) == NULL; i++)
    dyn_test_wait_idle (fixture->window);
  settle ();
  g_assert_null (dyn_window_get_error_text (fixture->window));
  model = dyn_design_view_get_model (fixture->view);
  g_assert_nonnull (model);
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "design");
  g_assert_nonnull (model->table);
  g_assert_true (model->table->fixed);
  g_assert_cmpstr (model->table->name, ==, table);
  g_assert_nonnull (dyn_design_model_find_entity (model, "Workspace"));
  g_assert_nonnull (dyn_design_model_find_entity (model, "Project"));
  g_assert_no_error ((GError *) dyn_design_view_get_draft_error (fixture->view));
  plan = dyn_design_view_get_plan_widget (fixture->view);
  g_assert_true (shows_label (plan, "Workspace"));
  g_assert_true (shows_label (plan, "Project"));
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Workspace", "Detail"), ==, "META");

  /* The table's own data checked against the model inferred from it. */
  dyn_design_view_set_check_table (fixture->view, table);
  g_assert_cmpstr (dyn_design_view_get_check_table (fixture->view), ==, table);
  {
    const DynDesignCheckReport *report = run_check (fixture);

    g_assert_false (report->scratch);
    g_assert_cmpstr (report->table, ==, table);
    g_assert_cmpuint (report->items_written, ==, 0);
    g_assert_cmpuint (report->sampled_items, >, 0);
    for (guint i = 0; i < report->results->len; i++)
      {
        DynDesignCheckResult *result = report->results->pdata[i];

        g_test_message ("%s: %s %u requests %u pages %s", result->pattern, dyn_operation_get_name (result->operation),
                        result->requests, result->pages, result->problem ? result->problem : "passed");
        g_assert_true (result->passed);
        g_assert_cmpuint (result->requests, ==, 1);
      }
    for (guint i = 0; report->findings && i < report->findings->len; i++)
      g_test_message ("finding: %s", ((DynDesignDecision *) report->findings->pdata[i])->text);
    g_assert_nonnull (strstr (dyn_design_view_get_cost_text (fixture->view), "sample"));
  }
}

/* A NoSQL Workbench model and a CloudFormation template open as they are:
 * their tables fixed, their entities (Workbench facets) in the plan. Saving
 * such a model asks for a new file instead of overwriting the source. */
static void
test_open_other_formats (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *workbench = NULL;
  g_autofree char *cloudformation = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  DynDesignModel *model;
  GtkWidget *plan;

  if (fixture->window == NULL)
    return;
  workbench = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "tests", "design-models", "online-shop.json", NULL);
  file = g_file_new_for_path (workbench);
  g_assert_true (dyn_window_open_design_file (fixture->window, file, &error));
  g_assert_no_error (error);
  settle ();
  model = dyn_design_view_get_model (fixture->view);
  g_assert_cmpint (model->source_format, ==, DYN_DESIGN_FORMAT_WORKBENCH);
  g_assert_cmpstr (model->name, ==, "CornerShop");
  g_assert_nonnull (model->table);
  g_assert_true (model->table->fixed);
  g_assert_cmpuint (model->entities->len, >, 1);
  g_assert_no_error ((GError *) dyn_design_view_get_draft_error (fixture->view));
  plan = dyn_design_view_get_plan_widget (fixture->view);
  for (guint i = 0; i < model->entities->len; i++)
    g_assert_true (shows_label (plan, ((DynDesignEntity *) model->entities->pdata[i])->name));
  g_assert_true (shows_label (plan, "PK"));
  g_assert_true (shows_label (plan, "GSI1PK"));
  g_assert_true (shows_label (GTK_WIDGET (fixture->view), "CornerShop"));
  screenshot (fixture, "design-workbench.png");

  cloudformation = g_build_filename (g_getenv ("DYN_SOURCE_ROOT"), "tests", "design-models", "cloudformation.json", NULL);
  g_clear_object (&file);
  file = g_file_new_for_path (cloudformation);
  g_assert_true (dyn_window_open_design_file (fixture->window, file, &error));
  g_assert_no_error (error);
  settle ();
  model = dyn_design_view_get_model (fixture->view);
  g_assert_cmpint (model->source_format, ==, DYN_DESIGN_FORMAT_CLOUDFORMATION);
  g_assert_nonnull (model->table);
  g_assert_true (model->table->fixed);
  g_assert_nonnull (dyn_design_view_get_plan (fixture->view));

  /* A file that is no model: the error names what is wrong, the open
   * design stays. */
  {
    g_autofree char *path = g_build_filename (tmp_dir, "not-a-model.json", NULL);
    g_autoptr(GFile) bad = g_file_new_for_path (path);

    g_assert_true (g_file_set_contents (path, "{\"hello\": 1}", -1, NULL));
    g_assert_false (dyn_window_open_design_file (fixture->window, bad, &error));
    g_assert_nonnull (error);
    g_test_message ("not a model: %s", error->message);
    g_clear_error (&error);
    g_assert_true (dyn_design_view_get_model (fixture->view) == model);
  }
}

static guint
count_scratch_tables (void)
{
  g_autoptr(DynClient) client = dyn_test_client_new (dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL));
  g_auto(GStrv) tables = dyn_test_list_tables (client, NULL);
  guint n = 0;

  for (guint i = 0; tables && tables[i]; i++)
    if (g_str_has_prefix (tables[i], "dynoscope-check-"))
      n++;
  return n;
}

/* Cancel stops the check: no report, the page says so, and the next check
 * runs to its end. */
static void
test_cancel_check (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *check;
  const DynDesignCheckReport *report;
  guint before;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "workspaces.json");
  before = count_scratch_tables ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-check", NULL));
  g_assert_true (dyn_window_is_busy (fixture->window));
  /* Cancelled once the scratch table is there, while it runs the patterns. */
  while (dyn_design_view_get_progress (fixture->view) != NULL &&
         !g_str_has_prefix (dyn_design_view_get_progress (fixture->view), "Running"))
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (dyn_design_view_get_progress (fixture->view));
  /* At once: a request of the test's own (its nested main loop) would let
   * the check run on to its end first. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-cancel-check", NULL));
  dyn_test_wait_idle (fixture->window);
  settle ();
  g_assert_false (dyn_window_is_busy (fixture->window));
  g_assert_null (dyn_design_view_get_report (fixture->view));
  check = dyn_design_view_get_check_widget (fixture->view);
  g_assert_true (shows_label (check, "The check was cancelled"));
  /* The scratch table of a cancelled check is deleted although the window
   * asks to keep it (keep_table, for Open in Table): without a report the
   * window would never learn its name. */
  g_assert_cmpuint (count_scratch_tables (), ==, before);

  report = run_check (fixture);
  assert_check_passed (fixture, report);
  g_assert_false (shows_label (check, "The check was cancelled"));
}

/* A fixed table unlike the seeds' (a numeric partition key, keys without
 * '#') with a pattern only a Scan serves: the plan warns, the pattern
 * says Scan with its reason, and the check fails it with that reason while
 * the others pass. */
static const char movies_model[] =
  "{ \"format\": \"dynoscope-design\", \"version\": 1, \"name\": \"Movies\","
  "  \"table\": { \"name\": \"Movies\", \"partitionKey\": { \"name\": \"year\", \"type\": \"N\" },"
  "             \"sortKey\": { \"name\": \"title\", \"type\": \"S\" }, \"fixed\": true },"
  "  \"entities\": [ { \"name\": \"Movie\", \"id\": [\"year\", \"title\"],"
  "    \"attributes\": [ { \"name\": \"year\", \"type\": \"N\", \"required\": true, \"examples\": [\"1994\", \"2001\", \"2013\"] },"
  "                      { \"name\": \"title\", \"type\": \"S\", \"required\": true, \"examples\": [\"Heat\", \"Amélie\", \"Her\"] },"
  "                      { \"name\": \"director\", \"type\": \"S\", \"examples\": [\"Michael Mann\", \"Spike Jonze\"] } ],"
  "    \"keys\": { \"year\": \"{year}\", \"title\": \"{title}\" } } ],"
  "  \"accessPatterns\": ["
  "    { \"name\": \"Movies of a year\", \"entity\": \"Movie\", \"operation\": \"list\", \"parameters\": [\"year\"] },"
  "    { \"name\": \"One movie\", \"entity\": \"Movie\", \"operation\": \"get\", \"parameters\": [\"year\", \"title\"] },"
  "    { \"name\": \"Movies by director\", \"entity\": \"Movie\", \"operation\": \"list\", \"parameters\": [\"director\"] } ] }";

static void
test_scan_pattern (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "movies.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  const DynDesignCheckReport *report;
  GPtrArray *requests, *decisions;
  DynDesignRequest *scan = NULL;
  GtkWidget *plan, *patterns, *check;
  gboolean warned = FALSE;
  guint failed = 0;

  if (fixture->window == NULL)
    return;
  g_assert_true (g_file_set_contents (path, movies_model, -1, &error));
  g_assert_true (dyn_window_open_design_file (fixture->window, file, &error));
  g_assert_no_error (error);
  settle ();
  plan = dyn_design_view_get_plan_widget (fixture->view);
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Movie", "year"), ==, "{year}");
  g_assert_cmpstr (dyn_design_view_get_plan_cell (fixture->view, "Movie", "title"), ==, "{title}");
  decisions = dyn_design_plan_get_decisions (dyn_design_view_get_plan (fixture->view));
  for (guint i = 0; i < decisions->len; i++)
    {
      DynDesignDecision *decision = decisions->pdata[i];

      g_assert_true (shows_label (plan, decision->text));
      if (decision->warning)
        {
          GtkWidget *label = find_label (plan, decision->text);

          warned = TRUE;
          g_assert_nonnull (label);
          /* Marked: the row's icon is the warning one. */
          g_assert_true (gtk_widget_has_css_class (gtk_widget_get_first_child (gtk_widget_get_parent (gtk_widget_get_parent (label))),
                                                   "warning"));
        }
    }
  g_assert_true (warned);

  requests = dyn_design_plan_get_requests (dyn_design_view_get_plan (fixture->view));
  for (guint i = 0; i < requests->len; i++)
    if (g_strcmp0 (((DynDesignRequest *) requests->pdata[i])->pattern, "Movies by director") == 0)
      scan = requests->pdata[i];
  g_assert_nonnull (scan);
  g_assert_cmpint (scan->operation, ==, DYN_OP_SCAN);
  g_assert_nonnull (scan->reason);
  patterns = dyn_design_view_get_patterns_widget (fixture->view);
  g_assert_true (shows_label (patterns, "Scan"));
  g_assert_true (shows_label (patterns, scan->reason));

  report = run_check (fixture);
  check = dyn_design_view_get_check_widget (fixture->view);
  g_assert_false (report->passed);
  for (guint i = 0; i < report->results->len; i++)
    {
      DynDesignCheckResult *result = report->results->pdata[i];

      if (g_strcmp0 (result->pattern, "Movies by director") == 0)
        {
          g_autofree char *text = g_strdup_printf ("✗ %s", result->problem);

          g_assert_false (result->passed);
          g_assert_nonnull (strstr (result->problem, scan->reason));
          g_assert_true (shows_label (check, text));
          failed++;
        }
      else
        g_assert_true (result->passed);
    }
  g_assert_cmpuint (failed, ==, 1);
  g_assert_true (shows_label (check, "1 of 3 access patterns failed"));
  g_assert_cmpuint (count_labels (check, "✓ passed", FALSE), ==, 2);
  screenshot (fixture, "design-scan.png");
}

/* A design from scratch: entities added and edited in the view, each edit
 * drafted at once. */
static void
test_new_scratch (Fixture       *fixture,
                  gconstpointer  data)
{
  DynDesignModel *model;
  DynDesignEntity *entity;
  GtkWidget *plan;
  guint drafts;

  if (fixture->window == NULL)
    return;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.design-new", "s", "scratch"));
  settle ();
  g_assert_cmpstr (dyn_window_get_view (fixture->window), ==, "design");
  model = dyn_design_view_get_model (fixture->view);
  g_assert_nonnull (model);
  g_assert_cmpuint (model->entities->len, ==, 0);
  plan = dyn_design_view_get_plan_widget (fixture->view);

  drafts = dyn_design_view_get_n_drafts (fixture->view);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "design.add-entity", NULL));
  settle ();
  g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts + 1);
  g_assert_cmpuint (model->entities->len, ==, 1);
  entity = model->entities->pdata[0];
  g_assert_cmpstr (entity->name, ==, "Entity");
  g_assert_cmpstr (dyn_design_view_get_selected_entity (fixture->view), ==, "Entity");
  g_assert_no_error ((GError *) dyn_design_view_get_draft_error (fixture->view));
  g_assert_true (shows_label (plan, "Entity"));

  gtk_editable_set_text (dyn_design_view_get_name_editable (fixture->view), "Customer");
  settle ();
  g_assert_true (shows_label (plan, "Customer"));
  g_assert_nonnull (dyn_design_model_find_entity (model, "Customer"));

  /* A second entity made the first one's child: it moves into its
   * parent's partition. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->view), "design.add-entity", NULL));
  settle ();
  g_assert_cmpuint (model->entities->len, ==, 2);
  gtk_editable_set_text (dyn_design_view_get_name_editable (fixture->view), "Order");
  settle ();
  g_assert_cmpstr (dyn_design_view_get_selected_entity (fixture->view), ==, "Order");
  drafts = dyn_design_view_get_n_drafts (fixture->view);
  dyn_design_model_set_parent (model, "Order", "Customer");
  dyn_design_view_model_changed (fixture->view);
  settle ();
  g_assert_cmpuint (dyn_design_view_get_n_drafts (fixture->view), ==, drafts + 1);
  {
    const DynDesignTable *table = plan_table (fixture);
    const char *customer_pk = dyn_design_view_get_plan_cell (fixture->view, "Customer", table->partition_key);
    const char *order_pk = dyn_design_view_get_plan_cell (fixture->view, "Order", table->partition_key);

    g_test_message ("Customer %s, Order %s", customer_pk, order_pk);
    g_assert_nonnull (customer_pk);
    g_assert_cmpstr (order_pk, ==, customer_pk);
  }
}

/* The n:m design: the inverted index in the plan, the rosters served by
 * it, and its check passes (dark, for the screenshot). */
static void
test_school (Fixture       *fixture,
             gconstpointer  data)
{
  const DynDesignTable *table;
  const DynDesignCheckReport *report;
  GtkWidget *plan;
  DynDesignIndex *gsi = NULL;
  GPtrArray *requests;
  gboolean roster_on_gsi = FALSE;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "school.json");
  table = plan_table (fixture);
  plan = dyn_design_view_get_plan_widget (fixture->view);
  for (guint i = 0; table->indexes && i < table->indexes->len; i++)
    if (g_strcmp0 (((DynDesignIndex *) table->indexes->pdata[i])->name, "GSI1") == 0)
      gsi = table->indexes->pdata[i];
  g_assert_nonnull (gsi);
  g_assert_true (shows_label (plan, gsi->partition_key));
  g_assert_true (shows_label (plan, "GSI1 partition key"));
  g_assert_nonnull (dyn_design_view_get_plan_cell (fixture->view, "Enrollment", gsi->partition_key));
  requests = dyn_design_plan_get_requests (dyn_design_view_get_plan (fixture->view));
  for (guint i = 0; i < requests->len; i++)
    {
      DynDesignRequest *request = requests->pdata[i];

      if (g_strcmp0 (request->pattern, "Roster of a course") == 0)
        roster_on_gsi = request->operation == DYN_OP_QUERY && g_strcmp0 (request->index, "GSI1") == 0;
    }
  g_assert_true (roster_on_gsi);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  report = run_check (fixture);
  assert_check_passed (fixture, report);
  /* The Items page's New Item stays hidden on the Design page while the
   * window's edit state changes under it (it did not: the check's busy
   * state showed it again). */
  g_assert_false (gtk_widget_get_visible (find_actionable (GTK_WIDGET (fixture->window), "win.new-item")));
  g_assert_true (adw_style_manager_get_dark (adw_style_manager_get_default ()));
  screenshot (fixture, "design-dark.png");
}

/* The view on its own: made, given a model and a report, finalized. */
static void
test_view_new_destroy (void)
{
  g_autofree char *path = design_path ("workspaces.json");
  g_autoptr(GError) error = NULL;
  DynDesignModel *model = dyn_design_model_load_file (path, NULL, &error);
  DynDesignCheckReport *report = g_new0 (DynDesignCheckReport, 1);
  GtkWidget *view = dyn_design_view_new ();

  g_assert_no_error (error);
  g_object_ref_sink (view);
  dyn_design_view_set_model (DYN_DESIGN_VIEW (view), model);
  g_assert_true (dyn_design_view_get_model (DYN_DESIGN_VIEW (view)) == model);
  g_assert_nonnull (dyn_design_view_get_plan (DYN_DESIGN_VIEW (view)));
  report->table = g_strdup ("t");
  report->results = g_ptr_array_new ();
  report->findings = g_ptr_array_new ();
  dyn_design_view_set_report (DYN_DESIGN_VIEW (view), report);
  g_assert_nonnull (dyn_design_view_get_cost_text (DYN_DESIGN_VIEW (view)));
  dyn_design_view_set_progress (DYN_DESIGN_VIEW (view), "…");
  g_assert_cmpstr (dyn_design_view_get_progress (DYN_DESIGN_VIEW (view)), ==, "…");
  g_assert_finalize_object (view);
}

/* Save As's other formats: the plan exported for NoSQL Workbench,
 * CloudFormation and create-table, each file read back as the same table
 * (keys and GSI1); the model file itself is left as it was. */
static void
test_export (Fixture       *fixture,
             gconstpointer  data)
{
  static const struct {
    DynDesignFormat format;
    const char     *file;
  } formats[] = {
    { DYN_DESIGN_FORMAT_WORKBENCH, "workbench.json" },
    { DYN_DESIGN_FORMAT_CLOUDFORMATION, "cloudformation.json" },
    { DYN_DESIGN_FORMAT_CREATE_TABLE, "create-table.json" },
  };
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;

  if (fixture->window == NULL)
    return;
  open_model (fixture, "workspaces.json");
  dir = g_dir_make_tmp ("design-export-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = g_build_filename (dir, formats[i].file, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(DynDesignModel) back = NULL;

      g_assert_true (dyn_window_export_design_file (fixture->window, file, formats[i].format, &error));
      g_assert_no_error (error);
      back = dyn_design_model_load_file (path, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (back->source_format, ==, formats[i].format);
      g_assert_cmpstr (back->table->partition_key, ==, "EntityRef");
      g_assert_cmpstr (back->table->sort_key, ==, "Detail");
      g_assert_cmpuint (back->table->indexes->len, ==, 1);
      g_assert_cmpstr (((DynDesignIndex *) back->table->indexes->pdata[0])->name, ==, "GSI1");
      g_assert_cmpuint (back->patterns->len, >, 0);   /* starter patterns */
      g_unlink (path);
    }
  g_rmdir (dir);
  /* The model open is still the Dynoscope file's, patterns and all. */
  g_assert_cmpint (dyn_design_view_get_model (fixture->view)->source_format, ==, DYN_DESIGN_FORMAT_DYNOSCOPE);
  g_assert_cmpuint (dyn_design_view_get_model (fixture->view)->patterns->len, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-design");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-design/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  g_test_add_func ("/dyn/window-design/view-new-destroy", test_view_new_destroy);
  ADD ("open-plan", test_open_plan);
  ADD ("edit", test_edit);
  ADD ("patterns-examples", test_patterns_examples);
  ADD ("check-open-table", test_check_open_table);
  ADD ("school", test_school);
  ADD ("new-scratch", test_new_scratch);
  ADD ("infer", test_infer);
  ADD ("open-other-formats", test_open_other_formats);
  ADD ("cancel-check", test_cancel_check);
  ADD ("scan-pattern", test_scan_pattern);
  ADD ("export", test_export);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
