/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-nested"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "dyn-application.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* Nested documents in the main window under Xvfb against DynamoDB Local: a
 * movies table (partition key year, sort key title) whose items hold an
 * "info" map. The window edits info.rating while a second client writes
 * other paths of the same map: the staged diff, the write and its guard are
 * per document path, so an unrelated nested change does not conflict and
 * survives; a change of the same path conflicts, the conflict view lists the
 * nested paths with their three values, and keeping "Mine" writes only that
 * path. The guard choice of the staged pane, and its one sentence, in
 * English and German. With DYN_SCREENSHOT_DIR set, the nested conflict view
 * is saved there as conflict-nested.png. */

static DynApplication *app;
static char *tmp_dir;

static const char *seed[] = {
  "{\"year\": 2013, \"title\": \"Rush\", \"version\": 3, \"runtime\": 123, \"language\": \"en\","
  " \"info\": {\"rating\": 8.7, \"rank\": 2, \"genres\": [\"Action\", \"Biography\", \"Drama\"],"
  "  \"plot\": \"A re-creation of the 1970s rivalry between Formula One drivers James Hunt and Niki Lauda.\","
  "  \"directors\": [\"Ron Howard\"],"
  "  \"production\": {\"studio\": {\"name\": \"Working Title\","
  "   \"address\": {\"city\": \"London\", \"country\": \"UK\"}}, \"budget\": 38000000}}}",
  "{\"year\": 2013, \"title\": \"Prisoners\", \"version\": 1, \"runtime\": 153, \"language\": \"en\","
  " \"info\": {\"rating\": 8.2, \"rank\": 3, \"genres\": [\"Crime\", \"Drama\", \"Thriller\"],"
  "  \"plot\": \"When Keller Dover's daughter and her friend go missing, he takes matters into his own hands.\"}}",
  "{\"year\": 2014, \"title\": \"Interstellar\", \"version\": 1, \"runtime\": 169, \"language\": \"en\","
  " \"info\": {\"rating\": 8.6, \"rank\": 1, \"genres\": [\"Adventure\", \"Drama\", \"Sci-Fi\"]}}",
};

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynClient          *other;     /* the second writer */
  char               *table;
} Fixture;

/* A few frames, so that rows are bound to widgets. */
static void
settle (void)
{
  for (guint i = 0; i < 10; i++)
    {
      dyn_test_iterate ();
      g_usleep (5000);
    }
  dyn_test_iterate ();
}

static void
activate (DynWindow  *window,
          const char *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

/* Switches the messages' language; gettext forgets what it looked up. */
static void
set_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  setlocale (LC_ALL, "C.UTF-8");
  textdomain (textdomain (NULL));
}

static void
open_table (Fixture *fixture)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynConnection) connection = dyn_connection_new ("Local");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, dyn_test_server_get_endpoint (server));
  dyn_connection_store_add_async (fixture->store, connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);

  dyn_window_open_connection (fixture->window, connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", fixture->table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (dyn_window_get_model (fixture->window)), ==,
                    G_N_ELEMENTS (seed));
  g_assert_nonnull (dyn_window_get_edit_session (fixture->window));
  settle ();
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("Movies");
  g_assert_true (dyn_test_create_table (fixture->other, fixture->table, "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      g_autoptr(DynValue) item = dyn_test_plain_item (seed[i]);

      g_assert_true (dyn_test_put_item (fixture->other, fixture->table, item, &error));
      g_assert_no_error (error);
    }

  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  dyn_item_grid_set_grouped (dyn_window_get_grid (fixture->window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  gtk_window_present (GTK_WINDOW (fixture->window));
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->window)); i++)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window == NULL)
    return;
  dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_assert_finalize_object (fixture->store);
  dyn_test_delete_table (fixture->other, fixture->table, NULL);
  g_clear_object (&fixture->other);
  g_free (fixture->table);
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *title)
{
  g_autofree char *json = g_strdup_printf ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"%s\"}}", title);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static DynValue *
server_item (Fixture    *fixture,
             const char *title)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (fixture->other, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"ConsistentRead\":true,"
                             "\"Key\":{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"%s\"}}}",
                             fixture->table, title);
  g_assert_no_error (error);
  return response->item ? dyn_value_ref (response->item) : NULL;
}

/* The value at a text path of an item ("info.genres[2]"), found here
 * rather than by the code under test. */
static DynValue *
at (DynValue   *item,
    const char *path_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynExprPath) path = dyn_expr_path_parse (path_text, &error);
  DynValue *value = item;

  g_assert_no_error (error);
  for (guint i = 0; value != NULL && i < dyn_expr_path_get_length (path); i++)
    {
      if (dyn_expr_path_is_index (path, i))
        {
          guint index = dyn_expr_path_get_index (path, i);

          g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_L);
          value = index < dyn_value_get_length (value) ? dyn_value_list_get (value, index) : NULL;
        }
      else
        {
          g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_M);
          value = dyn_value_map_lookup (value, dyn_expr_path_get_name (path, i, NULL));
        }
    }
  return value;
}

static const char *
number_at (DynValue   *item,
           const char *path_text)
{
  DynValue *value = at (item, path_text);

  g_assert_nonnull (value);
  g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_N);
  return dyn_value_get_number (value);
}

static const char *
string_at (DynValue   *item,
           const char *path_text)
{
  DynValue *value = at (item, path_text);

  g_assert_nonnull (value);
  g_assert_cmpint (dyn_value_get_value_type (value), ==, DYN_VALUE_S);
  return dyn_value_get_string (value);
}

/* The other writer's UpdateItem on Rush. */
static void
other_update (Fixture    *fixture,
              const char *update,
              const char *names,
              const char *values)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (fixture->other, "UpdateItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Rush\"}},"
                             "\"UpdateExpression\":\"%s\",\"ExpressionAttributeNames\":%s,"
                             "\"ExpressionAttributeValues\":%s}",
                             fixture->table, update, names, values);
  g_assert_no_error (error);
}

static char *
replace (const char *text,
         const char *from,
         const char *to)
{
  g_auto(GStrv) parts = NULL;

  g_assert_nonnull (strstr (text, from));
  parts = g_strsplit (text, from, 2);
  return g_strjoinv (to, parts);
}

/* Whether a label under @widget reads @text. */
static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0 &&
      gtk_widget_get_visible (widget))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;
  return FALSE;
}

static guint
count (const char *haystack,
       const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* The one sentence on a guard: it says "Guarded" once and repeats nothing. */
static void
assert_said_once (const char *text,
                  const char *guarded)
{
  g_assert_cmpuint (count (text, guarded), ==, 1);
  g_assert_null (strstr (text, "as loaded:"));
  g_assert_null (strstr (text, "update {"));
}

/* Edits Rush in the JSON editor: its text with @from replaced by @to (and
 * @from2 by @to2), Save. Returns the guard the editor showed. */
static char *
edit_in_editor (Fixture    *fixture,
                const char *from,
                const char *to,
                const char *from2,
                const char *to2)
{
  DynItemEditor *editor;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  char *guard;

  dyn_item_grid_select_item (dyn_window_get_grid (fixture->window), row_for (fixture, "Rush"), TRUE);
  dyn_test_iterate ();
  activate (fixture->window, "win.edit-item");
  editor = dyn_window_get_item_editor (fixture->window);
  g_assert_nonnull (editor);
  text = dyn_item_editor_dup_text (editor);
  edited = replace (text, from, to);
  if (from2 != NULL)
    {
      g_autofree char *once = g_steal_pointer (&edited);
      edited = replace (once, from2, to2);
    }
  dyn_item_editor_set_text (editor, edited);
  g_assert_true (dyn_item_editor_get_valid (editor));
  guard = g_strdup (dyn_item_editor_get_guard_text (editor));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  for (guint i = 0; i < 100 && dyn_window_get_item_editor (fixture->window) != NULL; i++)
    {
      dyn_test_iterate ();
      g_usleep (1000);
    }
  g_assert_null (dyn_window_get_item_editor (fixture->window));
  return guard;
}

static char *
edit_rating_in_editor (Fixture    *fixture,
                       const char *to)
{
  g_autofree char *needle = g_strdup_printf ("\"rating\": %s", to);

  return edit_in_editor (fixture, "\"rating\": 8.7", needle, NULL, NULL);
}

/* The only request of the session's plan: its Update action. */
static JsonObject *
planned_update (JsonNode *plan)
{
  JsonArray *requests = json_object_get_array_member (json_node_get_object (plan), "requests");
  JsonObject *params;
  JsonArray *items;

  g_assert_cmpuint (json_array_get_length (requests), ==, 1);
  params = json_object_get_object_member (json_array_get_object_element (requests, 0), "params");
  items = json_object_get_array_member (params, "TransactItems");
  g_assert_cmpuint (json_array_get_length (items), ==, 1);
  return json_object_get_object_member (json_array_get_object_element (items, 0), "Update");
}

/* No value sent is a map: nothing is written (or compared) whole. */
static void
assert_no_map_value (JsonObject *update)
{
  JsonObject *values = json_object_get_object_member (update, "ExpressionAttributeValues");
  g_autoptr(GList) members = json_object_get_members (values);

  for (GList *l = members; l != NULL; l = l->next)
    g_assert_false (json_object_has_member (json_object_get_object_member (values, l->data), "M"));
}

/* ------------------------------------------------------------------------ */

/* The window changes info.rating; another writer sets info.rank meanwhile:
 * no conflict, both survive. */
static void
test_unrelated_nested_change (Fixture       *fixture,
                              gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynStagedChanges *staged;
  g_autoptr(GPtrArray) diff = NULL;
  g_autoptr(JsonNode) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autofree char *guard = NULL;
  JsonObject *update;
  DynDiffEntry *entry;

  if (fixture->window == NULL)
    return;
  open_table (fixture);
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);

  guard = edit_rating_in_editor (fixture, "9.1");
  g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.rating is still 8.7");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);

  /* The staged pane: one row, the nested path, 8.7 → 9.1; one guard sentence. */
  activate (window, "win.toggle-changes");
  settle ();
  diff = dyn_edit_session_diff (session, 0);
  g_assert_cmpuint (diff->len, ==, 1);
  entry = diff->pdata[0];
  g_assert_cmpstr (entry->name, ==, "info.rating");
  g_assert_cmpint (entry->kind, ==, DYN_DIFF_CHANGED);
  g_assert_cmpstr (dyn_value_get_number (entry->before), ==, "8.7");
  g_assert_cmpstr (dyn_value_get_number (entry->after), ==, "9.1");
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (staged, 0), ==, 1);
  g_assert_true (shows_label (GTK_WIDGET (staged), "info.rating"));
  g_assert_cmpstr (dyn_staged_changes_get_guard_text (staged, 0), ==,
                   "Guarded by the values it changes: info.rating is still 8.7");

  if (g_getenv ("DYN_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *path = g_build_filename (g_getenv ("DYN_SCREENSHOT_DIR"), "staged-nested.png", NULL);

      settle ();
      g_assert_true (dyn_window_save_png (GTK_WINDOW (window), path, &error));
      g_assert_no_error (error);
    }

  /* The write: one nested path, not the map, guarded by that path. */
  plan = dyn_edit_session_dup_plan (session, &error);
  g_assert_no_error (error);
  update = planned_update (plan);
  g_assert_cmpstr (json_object_get_string_member (update, "UpdateExpression"), ==, "SET #info.#rating = :rating");
  g_assert_cmpstr (json_object_get_string_member (update, "ConditionExpression"), ==,
                   "attribute_exists(#year) AND #info.#rating = :old_rating");
  assert_no_map_value (update);

  /* Another writer changes another path of the same map. */
  other_update (fixture, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"1\"}}");

  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 0);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 1 change in 1 transaction");

  stored = server_item (fixture, "Rush");
  g_assert_cmpstr (number_at (stored, "info.rating"), ==, "9.1");
  g_assert_cmpstr (number_at (stored, "info.rank"), ==, "1");
  g_assert_cmpstr (string_at (stored, "info.genres[2]"), ==, "Drama");
  g_assert_cmpstr (string_at (stored, "info.production.studio.address.city"), ==, "London");
}

/* Both change info.rating: a conflict. The view lists the nested paths with
 * three values each; keeping mine for info.rating writes only that path. */
static void
test_same_path_conflict (Fixture       *fixture,
                         gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynStagedChanges *staged;
  DynConflictView *view;
  GtkWindow *conflict_window;
  g_autoptr(DynValue) stored = NULL;
  g_autofree char *guard = NULL;
  g_autoptr(GError) error = NULL;
  const char *screenshot_dir = g_getenv ("DYN_SCREENSHOT_DIR");

  if (fixture->window == NULL)
    return;
  open_table (fixture);
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);

  /* Mine, in the JSON editor: the rating and the third genre. */
  guard = edit_in_editor (fixture, "\"rating\": 8.7", "\"rating\": 9.1", "\"Drama\"", "\"Sport\"");
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpstr (guard, ==, "Guarded by the values it changes: info.rating is still 8.7, "
                              "info.genres[2] is still \"Drama\", info.genres still has 3 elements");

  /* Theirs: the same rating path, and the rank. */
  other_update (fixture, "SET #i.#g = :g, #i.#r = :r", "{\"#i\":\"info\",\"#g\":\"rating\",\"#r\":\"rank\"}",
                "{\":g\":{\"N\":\"7.5\"},\":r\":{\"N\":\"1\"}}");

  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 1);
  view = dyn_staged_changes_get_conflict_view (staged);
  g_assert_nonnull (view);
  conflict_window = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (view)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (conflict_window)));

  /* Nested paths, three values each: as loaded, the server's, mine. */
  g_assert_nonnull (dyn_merge_lookup (dyn_conflict_view_get_entries (view), "info.rating"));
  g_assert_null (dyn_merge_lookup (dyn_conflict_view_get_entries (view), "info"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rating", DYN_CONFLICT_COLUMN_BASE), "8.7"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rating", DYN_CONFLICT_COLUMN_SERVER), "7.5"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rating", DYN_CONFLICT_COLUMN_MINE), "9.1"));
  g_assert_true (dyn_merge_lookup (dyn_conflict_view_get_entries (view), "info.rating")->conflict);
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rank", DYN_CONFLICT_COLUMN_BASE), "2"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rank", DYN_CONFLICT_COLUMN_SERVER), "1"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.rank", DYN_CONFLICT_COLUMN_MINE), "2"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.genres[2]", DYN_CONFLICT_COLUMN_SERVER), "Drama"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "info.genres[2]", DYN_CONFLICT_COLUMN_MINE), "Sport"));
  g_assert_nonnull (dyn_conflict_view_get_cell_text (view, "info.production", DYN_CONFLICT_COLUMN_BASE));

  /* Keep mine for the rating; their rank stays. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "info.rating", "mine"));
  g_assert_cmpstr (number_at (dyn_conflict_view_get_merged_item (view), "info.rating"), ==, "9.1");
  g_assert_cmpstr (number_at (dyn_conflict_view_get_merged_item (view), "info.rank"), ==, "1");
  assert_said_once (dyn_conflict_view_get_guard_text (view), "Guarded");
  g_assert_nonnull (strstr (dyn_conflict_view_get_guard_text (view), "info.rating is still 7.5"));

  /* What "Commit Again" stages (the server's item → the merge) writes only
   * my paths. */
  {
    g_autoptr(DynChangeSet) set = dyn_change_set_new (fixture->table, dyn_edit_session_get_keys (session));
    g_autoptr(JsonNode) plan = NULL;
    JsonObject *update;

    g_assert_cmpint (dyn_change_set_add (set, dyn_edit_session_get_current (session, 0),
                                         dyn_conflict_view_get_merged_item (view), &error), ==, 0);
    plan = dyn_change_set_plan (set, &error);
    g_assert_no_error (error);
    update = planned_update (plan);
    g_assert_cmpstr (json_object_get_string_member (update, "UpdateExpression"), ==,
                     "SET #info.#rating = :rating, #info.#genres[2] = :genres");
    assert_no_map_value (update);
  }

  if (screenshot_dir != NULL)
    {
      g_autofree char *path = g_build_filename (screenshot_dir, "conflict-nested.png", NULL);

      gtk_window_set_default_size (conflict_window, 980, 640);
      settle ();
      g_usleep (200000);
      settle ();
      g_assert_true (dyn_window_save_png (conflict_window, path, &error));
      g_assert_no_error (error);
      g_test_message ("saved %s", path);
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.commit", NULL));
  dyn_test_wait_idle (window);
  g_assert_null (dyn_staged_changes_get_conflict_view (staged));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 1 change in 1 transaction");

  stored = server_item (fixture, "Rush");
  g_assert_cmpstr (number_at (stored, "info.rating"), ==, "9.1");
  g_assert_cmpstr (number_at (stored, "info.rank"), ==, "1");
  g_assert_cmpstr (string_at (stored, "info.genres[2]"), ==, "Sport");
  g_assert_cmpstr (string_at (stored, "info.production.studio.address.city"), ==, "London");
  g_assert_cmpstr (number_at (dyn_item_object_get_item (row_for (fixture, "Rush")), "info.rank"), ==, "1");
}

/* The staged pane's guard choice: one sentence per mode, and the mode
 * decides whether an unrelated concurrent change conflicts. */
static void
test_guard_modes (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynEditSession *session;
  DynStagedChanges *staged;
  GtkDropDown *dropdown;
  g_autofree char *guard = NULL;
  g_autoptr(DynValue) stored = NULL;
  const char *text;

  if (fixture->window == NULL)
    return;
  open_table (fixture);
  session = dyn_window_get_edit_session (window);
  staged = dyn_window_get_staged_changes (window);
  dropdown = dyn_staged_changes_get_guard_dropdown (staged);
  g_assert_cmpint (dyn_edit_session_get_guard_mode (session), ==, DYN_GUARD_CHANGES);
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 0);

  guard = edit_rating_in_editor (fixture, "9.1");
  activate (window, "win.toggle-changes");
  settle ();

  /* The values it changes (the default). */
  text = dyn_staged_changes_get_guard_text (staged, 0);
  g_assert_cmpstr (text, ==, "Guarded by the values it changes: info.rating is still 8.7");
  assert_said_once (text, "Guarded");

  /* The whole item, chosen in the dropdown. */
  gtk_drop_down_set_selected (dropdown, 1);
  dyn_test_iterate ();
  g_assert_cmpint (dyn_edit_session_get_guard_mode (session), ==, DYN_GUARD_ITEM);
  text = dyn_staged_changes_get_guard_text (staged, 0);
  g_assert_cmpstr (text, ==, "Guarded by the whole item as loaded (4 attributes)");
  assert_said_once (text, "Guarded");

  /* A version attribute, through the pane's action: the item's "version". */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (staged), "staged.guard-mode", "s", "version"));
  dyn_test_iterate ();
  g_assert_cmpint (dyn_edit_session_get_guard_mode (session), ==, DYN_GUARD_VERSION);
  g_assert_cmpstr (dyn_edit_session_get_version_attribute (session), ==, "version");
  g_assert_cmpuint (gtk_drop_down_get_selected (dropdown), ==, 2);
  text = dyn_staged_changes_get_guard_text (staged, 0);
  g_assert_cmpstr (text, ==, "Guarded by version: version is still 3, set to 4");
  assert_said_once (text, "Guarded");

  /* German: the same single sentence. */
  set_language ("de");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (staged), "staged.guard-mode", "s", "changes"));
  dyn_test_iterate ();
  text = dyn_staged_changes_get_guard_text (staged, 0);
  g_assert_cmpstr (text, ==, "Abgesichert durch die Werte, die es ändert: info.rating ist noch 8.7");
  assert_said_once (text, "Abgesichert");
  set_language ("C");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (staged), "staged.guard-mode", "s", "item"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (staged), "staged.guard-mode", "s", "changes"));
  dyn_test_iterate ();
  g_assert_cmpstr (dyn_staged_changes_get_guard_text (staged, 0), ==,
                   "Guarded by the values it changes: info.rating is still 8.7");

  /* With the whole item as guard, the other writer's rank conflicts… */
  gtk_drop_down_set_selected (dropdown, 1);
  dyn_test_iterate ();
  other_update (fixture, "SET #i.#r = :r", "{\"#i\":\"info\",\"#r\":\"rank\"}", "{\":r\":{\"N\":\"1\"}}");
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 1);
  stored = server_item (fixture, "Rush");
  g_assert_cmpstr (number_at (stored, "info.rating"), ==, "8.7");
  g_clear_pointer (&stored, dyn_value_unref);

  /* …and "Keep Server's Item" lets it go. With the version as guard the
   * other writer's version-less change does not conflict, and the write
   * sets the version. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dyn_staged_changes_get_conflict_view (staged)),
                                             "conflict.keep-server", NULL));
  dyn_test_iterate ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_free (guard);
  guard = edit_rating_in_editor (fixture, "9.2");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (staged), "staged.guard-mode", "s", "version"));
  dyn_test_iterate ();
  g_assert_cmpstr (dyn_staged_changes_get_guard_text (staged, 0), ==, "Guarded by version: version is still 3, set to 4");
  other_update (fixture, "SET #i.#p = :p", "{\"#i\":\"info\",\"#p\":\"plot\"}", "{\":p\":{\"S\":\"Hunt and Lauda.\"}}");
  activate (window, "win.commit-changes");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (session), ==, 0);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  stored = server_item (fixture, "Rush");
  g_assert_cmpstr (number_at (stored, "info.rating"), ==, "9.2");
  g_assert_cmpstr (number_at (stored, "version"), ==, "4");
  g_assert_cmpstr (number_at (stored, "info.rank"), ==, "1");
  g_assert_cmpstr (string_at (stored, "info.plot"), ==, "Hunt and Lauda.");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  /* The German case reads the catalogues the build compiled. */
  if (g_getenv ("DYN_BUILD_ROOT") != NULL)
    {
      g_autofree char *locale_dir = g_build_filename (g_getenv ("DYN_BUILD_ROOT"), "po", NULL);

      bindtextdomain (GETTEXT_PACKAGE, locale_dir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
    }
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-nested");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-nested/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("unrelated-nested-change", test_unrelated_nested_change);
  ADD ("same-path-conflict", test_same_path_conflict);
  ADD ("guard-modes", test_guard_modes);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
