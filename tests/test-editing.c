/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-editing"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <adwaita.h>

#include "dyn-conflict-view.h"
#include "dyn-edit-session.h"
#include "dyn-item-editor.h"
#include "dyn-staged-changes.h"
#include "dyn-test-util.h"

/* The editing widgets under Xvfb against DynamoDB Local: stage edits (a
 * cell, a whole item in the JSON editor, a create, a delete), review them,
 * drop one, commit, undo; a second client changes an item between staging
 * and commit, and the conflict view merges per attribute. Everything is
 * driven through actions and properties. */

static const DynKeySchema keys = { (char *) "EntityRef", DYN_VALUE_S, (char *) "Detail", DYN_VALUE_S };

static const char *seed[] = {
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"META\"},\"Name\":{\"S\":\"Acme Corp\"},"
  "\"Plan\":{\"S\":\"free\"},\"Owner\":{\"S\":\"owner@acme.example\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0001\"},\"Name\":{\"S\":\"Website relaunch\"},"
  "\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"75606.97\"},\"Tags\":{\"SS\":[\"data\",\"web\"]}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0002\"},\"Name\":{\"S\":\"Data lake\"},"
  "\"Status\":{\"S\":\"active\"},\"Budget\":{\"N\":\"65937.97\"},\"Tags\":{\"SS\":[\"infra\",\"ops\"]}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0003\"},\"Name\":{\"S\":\"Mobile app\"},"
  "\"Status\":{\"S\":\"draft\"},\"Budget\":{\"N\":\"12000.50\"}}",
};

typedef struct {
  DynClient          *client;
  DynClient          *other;     /* the second user */
  char               *table;
  DynCollectionModel *model;
  DynEditSession     *session;
  GtkWindow          *window;
  DynStagedChanges   *staged;
} Fixture;

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
wait_idle (Fixture *fixture)
{
  while (dyn_edit_session_get_busy (fixture->session))
    g_main_context_iteration (NULL, TRUE);
  iterate ();
}

static void
load_items (Fixture *fixture)
{
  g_autoptr(DynRequest) request = dyn_request_new (DYN_OP_SCAN, fixture->table);
  g_autoptr(DynPager) pager = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;

  request->consistent_read = TRUE;
  pager = dyn_pager_new (fixture->client, request);
  items = dyn_test_pager_run (pager, 1, 0, &error);
  g_assert_no_error (error);
  dyn_collection_model_clear (fixture->model);
  dyn_collection_model_append_page (fixture->model, items);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(GError) error = NULL;
  GtkWidget *box;

  if (server == NULL)
    return;
  fixture->client = dyn_test_client_new (server);
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("editing");
  g_assert_true (dyn_test_create_table (fixture->client, fixture->table, "EntityRef:S", "Detail:S", NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (seed[i]);

      g_assert_true (dyn_test_put_item (fixture->client, fixture->table, item, &error));
      g_assert_no_error (error);
    }

  fixture->model = dyn_collection_model_new_for_schema (&keys, FALSE);
  load_items (fixture);
  g_assert_cmpuint (dyn_collection_model_get_n_items_total (fixture->model), ==, G_N_ELEMENTS (seed));

  fixture->session = dyn_edit_session_new (fixture->client, fixture->table, &keys);
  dyn_edit_session_set_model (fixture->session, fixture->model);

  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 900, 700);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  fixture->staged = DYN_STAGED_CHANGES (dyn_staged_changes_new (fixture->session));
  gtk_widget_set_vexpand (GTK_WIDGET (fixture->staged), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (fixture->staged));
  gtk_window_set_child (fixture->window, box);
  gtk_window_present (fixture->window);
  for (guint i = 0; i < 100 && !gtk_widget_get_mapped (GTK_WIDGET (fixture->staged)); i++)
    {
      iterate ();
      g_usleep (10000);
    }
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->staged)));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    {
      gtk_window_destroy (fixture->window);
      iterate ();
    }
  g_clear_object (&fixture->session);
  g_clear_object (&fixture->model);
  if (fixture->client != NULL)
    dyn_test_delete_table (fixture->client, fixture->table, NULL);
  g_clear_object (&fixture->client);
  g_clear_object (&fixture->other);
  g_free (fixture->table);
}

static DynItemObject *
row_for (Fixture    *fixture,
         const char *detail)
{
  g_autofree char *json = g_strdup_printf ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}", detail);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (fixture->model, key);
}

/* The item as the server has it now, read by the second client. */
static DynValue *
server_item (Fixture    *fixture,
             const char *detail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;

  response = dyn_test_callf (fixture->other, "GetItem", &error,
                             "{\"TableName\":\"%s\",\"ConsistentRead\":true,"
                             "\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}}",
                             fixture->table, detail);
  g_assert_no_error (error);
  return response->item ? dyn_value_ref (response->item) : NULL;
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

/* @text with @addition inserted before the "]" closing the array of @name. */
static char *
add_to_array (const char *text,
              const char *name,
              const char *addition)
{
  g_autofree char *needle = g_strdup_printf ("\"%s\": [", name);
  const char *start = strstr (text, needle);
  const char *end;

  g_assert_nonnull (start);
  end = strchr (start, ']');
  g_assert_nonnull (end);
  return g_strdup_printf ("%.*s%s%s", (int) (end - text), text, addition, end);
}

/* The 1-based line of the first occurrence of @needle. */
static guint
line_of (const char *text,
         const char *needle)
{
  const char *at = strstr (text, needle);
  guint line = 1;

  g_assert_nonnull (at);
  for (const char *p = text; p < at; p++)
    if (*p == '\n')
      line++;
  return line;
}

/* ------------------------------------------------------------------------ */

static void
test_new_destroy (void)
{
  g_autoptr(DynCredentialsProvider) credentials = dyn_credentials_provider_new_static ("a", "b", NULL);
  g_autoptr(DynClient) client = dyn_client_new ("http://127.0.0.1:9", "us-east-1", credentials, NULL);
  DynEditSession *session = dyn_edit_session_new (client, "Workspaces", &keys);
  g_autoptr(DynValue) item = dyn_test_item (seed[1]);
  DynItemObject *object = dyn_item_object_new (item, "EntityRef", "Detail");
  GtkWidget *staged, *editor;

  staged = g_object_ref_sink (dyn_staged_changes_new (session));
  editor = dyn_item_editor_new (session, object);
  g_object_ref (editor);
  gtk_window_destroy (GTK_WINDOW (editor));
  g_assert_finalize_object (editor);
  g_assert_finalize_object (staged);
  g_assert_finalize_object (session);
  g_assert_finalize_object (object);
}

static void
test_diff_helpers (void)
{
  g_autoptr(DynValue) before = dyn_test_item (seed[1]);
  g_autoptr(DynValue) after = NULL;
  g_autoptr(DynValue) server = NULL;
  g_autoptr(DynValue) parsed = NULL;
  g_autoptr(DynValue) merged = NULL;
  g_autoptr(GPtrArray) diff = NULL;
  g_autoptr(GPtrArray) merge = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  DynDiffEntry *entry;
  DynMergeEntry *m;

  after = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0001\"},"
                         "\"Name\":{\"S\":\"Website relaunch\"},\"Status\":{\"S\":\"paused\"},"
                         "\"Tags\":{\"SS\":[\"data\",\"web\"]},\"Owner\":{\"S\":\"bob\"}}");
  diff = dyn_diff_items (before, after, &keys, FALSE);
  g_assert_cmpuint (diff->len, ==, 3);
  entry = diff->pdata[0];
  g_assert_cmpstr (entry->name, ==, "Status");
  g_assert_cmpint (entry->kind, ==, DYN_DIFF_CHANGED);
  entry = diff->pdata[1];
  g_assert_cmpstr (entry->name, ==, "Budget");
  g_assert_cmpint (entry->kind, ==, DYN_DIFF_REMOVED);
  entry = diff->pdata[2];
  g_assert_cmpstr (entry->name, ==, "Owner");
  g_assert_cmpint (entry->kind, ==, DYN_DIFF_ADDED);

  /* Sets are written as arrays and come back as sets. */
  text = dyn_item_to_editable_json (before);
  g_assert_nonnull (strstr (text, "\"Tags\": [\"data\", \"web\"]"));
  g_assert_nonnull (strstr (text, "\"Budget\": 75606.97"));
  edited = replace (text, "[\"data\", \"web\"]", "[\"data\", \"web\", \"ml\"]");
  parsed = dyn_item_from_editable_json (edited, -1, before, &error);
  g_assert_no_error (error);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (parsed, "Tags")), ==, DYN_VALUE_SS);
  g_assert_cmpuint (dyn_value_get_length (dyn_value_map_lookup (parsed, "Tags")), ==, 3);
  g_clear_pointer (&parsed, dyn_value_unref);
  /* A repeated element or an empty array where a set was is an error, not a list. */
  g_free (edited);
  edited = replace (text, "[\"data\", \"web\"]", "[\"web\", \"web\"]");
  parsed = dyn_item_from_editable_json (edited, -1, before, &error);
  g_assert_null (parsed);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_assert_cmpuint (dyn_json_error_line (edited, error->message), ==, 7);
  g_clear_error (&error);
  g_free (edited);
  edited = replace (text, "[\"data\", \"web\"]", "[]");
  parsed = dyn_item_from_editable_json (edited, -1, before, &error);
  g_assert_null (parsed);
  g_clear_error (&error);
  /* Syntax errors carry the line. */
  g_free (edited);
  edited = replace (text, "\"Status\": \"active\",", "\"Status\": \"active\" oops,");
  parsed = dyn_item_from_editable_json (edited, -1, before, &error);
  g_assert_null (parsed);
  g_assert_cmpuint (dyn_json_error_line (edited, error->message), ==, 5);
  g_clear_error (&error);

  /* Three-way merge: each side's change is kept, conflicts default to mine. */
  server = dyn_test_item ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2026-0001\"},"
                          "\"Name\":{\"S\":\"Renamed\"},\"Status\":{\"S\":\"closed\"},"
                          "\"Budget\":{\"N\":\"75606.97\"},\"Tags\":{\"SS\":[\"data\",\"web\"]}}");
  merge = dyn_merge_entries (before, server, after, &keys);
  m = dyn_merge_lookup (merge, "Name");
  g_assert_true (m->server_changed && !m->mine_changed);
  g_assert_cmpint (m->side, ==, DYN_MERGE_SERVER);
  m = dyn_merge_lookup (merge, "Status");
  g_assert_true (m->conflict);
  g_assert_cmpint (m->side, ==, DYN_MERGE_MINE);
  m->side = DYN_MERGE_SERVER;
  merged = dyn_merge_build (merge);
  g_assert_cmpstr (dyn_test_item_get_string (merged, "Name"), ==, "Renamed");
  g_assert_cmpstr (dyn_test_item_get_string (merged, "Status"), ==, "closed");
  g_assert_cmpstr (dyn_test_item_get_string (merged, "Owner"), ==, "bob");
  g_assert_null (dyn_value_map_lookup (merged, "Budget"));
}

static DynItemEditor *
open_editor (Fixture   *fixture,
             GtkWidget *editor)
{
  gtk_window_set_transient_for (GTK_WINDOW (editor), fixture->window);
  gtk_window_present (GTK_WINDOW (editor));
  iterate ();
  return DYN_ITEM_EDITOR (g_object_ref (editor));
}

static void
test_stage_review_commit (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemEditor) editor = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autoptr(DynValue) duplicate = NULL;
  g_autofree char *text = NULL;
  g_autofree char *edited = NULL;
  DynItemObject *row;
  gboolean ddb_json;

  if (fixture->client == NULL)
    return;

  /* A scalar cell, in place. */
  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_true (dyn_edit_session_stage_cell_text (fixture->session, row, "Status", "paused", &error));
  g_assert_no_error (error);
  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_CHANGED);
  g_assert_true (dyn_edit_session_is_attribute_changed (fixture->session, row, "Status"));
  g_assert_false (dyn_edit_session_is_attribute_changed (fixture->session, row, "Name"));
  /* A number cell keeps its type; text that is no number is refused. */
  g_assert_false (dyn_edit_session_stage_cell_text (fixture->session, row, "Budget", "lots", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (dyn_edit_session_stage_cell_text (fixture->session, row, "Tags", "x", &error));
  g_clear_error (&error);

  /* The whole item in the JSON editor (the row already holds the staged Status). */
  editor = open_editor (fixture, dyn_item_editor_new (fixture->session, row));
  text = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "\"Status\": \"paused\""));
  g_assert_nonnull (strstr (text, "\"Tags\": {\"$set\": [\""));   /* a set, shown as a set */
  g_assert_true (dyn_item_editor_get_valid (editor));
  /* By default the write is guarded by the values it changes (not the
   * whole item), said once. */
  g_assert_cmpstr (dyn_item_editor_get_guard_text (editor), ==, "Guarded by the values it changes: Status is still \"active\"");

  /* Validation as you type, with the line of the error. */
  edited = replace (text, "\"Status\": \"paused\"", "\"Status\": paused");
  dyn_item_editor_set_text (editor, edited);
  g_assert_false (dyn_item_editor_get_valid (editor));
  g_assert_cmpuint (dyn_item_editor_get_error_line (editor), ==, line_of (text, "\"Status\""));
  gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
  g_assert_false (dyn_item_editor_set_ddb_json (editor, TRUE));

  g_free (edited);
  edited = add_to_array (text, "$set", ", \"ml\"");   /* the Tags set's elements */
  dyn_item_editor_set_text (editor, edited);
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_cmpuint (dyn_item_editor_get_error_line (editor), ==, 0);
  /* The DynamoDB JSON view shows the set as a set. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.ddb-json", NULL));
  g_object_get (editor, "ddb-json", &ddb_json, NULL);
  g_assert_true (ddb_json);
  g_free (text);
  text = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "\"Tags\": {\"SS\":["));
  g_assert_nonnull (strstr (text, "\"ml\"]}"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  iterate ();
  g_assert_finalize_object (g_steal_pointer (&editor));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (dyn_item_object_get_item (row), "Tags")), ==,
                   DYN_VALUE_SS);
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row), "Status"), ==, "paused");

  /* A create from the key schema. */
  editor = open_editor (fixture, dyn_item_editor_new_for_create (fixture->session, NULL));
  g_free (text);
  text = dyn_item_editor_dup_text (editor);
  g_assert_nonnull (strstr (text, "\"EntityRef\": \"\""));
  g_assert_false (dyn_item_editor_get_valid (editor));   /* empty keys */
  dyn_item_editor_set_text (editor, "{\"EntityRef\": \"WS#acme\", \"Detail\": \"PROJ#2026-0099\",\n"
                                    " \"Name\": \"Search\", \"Budget\": 1e3, \"Tags\": {\"$set\": [\"new\"]}}");
  g_assert_true (dyn_item_editor_get_valid (editor));
  g_assert_nonnull (strstr (dyn_item_editor_get_guard_text (editor), "no item with this key"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  iterate ();
  g_assert_finalize_object (g_steal_pointer (&editor));
  row = row_for (fixture, "PROJ#2026-0099");
  g_assert_nonnull (row);
  g_assert_cmpint (dyn_item_object_get_state (row), ==, DYN_ITEM_STATE_ADDED);

  /* A duplicate: a create with a new key. */
  duplicate = dyn_edit_session_dup_for_duplicate (fixture->session, row_for (fixture, "PROJ#2026-0003"));
  g_assert_cmpstr (dyn_test_item_get_string (duplicate, "Detail"), ==, "PROJ#2026-0003-copy");
  g_assert_nonnull (dyn_edit_session_stage_create (fixture->session, duplicate, &error));
  g_assert_no_error (error);
  /* A create of a loaded key is refused. */
  g_assert_null (dyn_edit_session_stage_create (fixture->session, dyn_item_object_get_item (row_for (fixture, "META")),
                                                &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Deletes. */
  g_assert_true (dyn_edit_session_stage_delete (fixture->session, row_for (fixture, "PROJ#2026-0003"), &error));
  g_assert_true (dyn_edit_session_stage_delete (fixture->session, row_for (fixture, "META"), &error));
  g_assert_no_error (error);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "META")), ==, DYN_ITEM_STATE_DELETED);
  iterate ();

  /* Review: five changes, each with its diff and guard. */
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (fixture->staged, i), >, 0);
      g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (fixture->staged, i), "Guarded"));
    }
  g_assert_cmpuint (dyn_staged_changes_get_n_diff_rows (fixture->staged, 0), ==, 2);   /* Status, Tags */
  g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (fixture->staged, 0), "Guarded by the values it changes: "));
  g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (fixture->staged, 0), "Status is still \"active\""));
  g_assert_nonnull (strstr (dyn_staged_changes_get_guard_text (fixture->staged, 1), "no item with this key"));
  g_assert_cmpint (dyn_edit_session_get_kind (fixture->session, 4), ==, DYN_CHANGE_KIND_DELETE);

  /* Drop one: the delete of META. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.drop", "u", 4));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 4);
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "META")), ==, DYN_ITEM_STATE_UNCHANGED);

  /* Commit. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.commit", NULL));
  wait_idle (fixture);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 0);
  g_assert_cmpstr (dyn_staged_changes_get_status_text (fixture->staged), ==, "4 changes written");
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0001")), ==, DYN_ITEM_STATE_UNCHANGED);
  g_assert_null (row_for (fixture, "PROJ#2026-0003"));

  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (stored, "Tags")), ==, DYN_VALUE_SS);
  g_assert_cmpuint (dyn_value_get_length (dyn_value_map_lookup (stored, "Tags")), ==, 3);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0099");
  g_assert_nonnull (stored);
  g_assert_cmpint (dyn_value_get_value_type (dyn_value_map_lookup (stored, "Tags")), ==, DYN_VALUE_SS);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0003-copy");
  g_assert_nonnull (stored);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0003");
  g_assert_null (stored);
  stored = server_item (fixture, "META");
  g_assert_nonnull (stored);
  g_clear_pointer (&stored, dyn_value_unref);

  /* Undo the commit: guarded inverse writes. */
  g_assert_true (dyn_edit_session_get_can_undo (fixture->session));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.undo", NULL));
  wait_idle (fixture);
  g_assert_cmpstr (dyn_staged_changes_get_status_text (fixture->staged), ==, "The last commit was undone");
  g_assert_false (dyn_edit_session_get_can_undo (fixture->session));
  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "active");
  g_assert_cmpuint (dyn_value_get_length (dyn_value_map_lookup (stored, "Tags")), ==, 2);
  g_clear_pointer (&stored, dyn_value_unref);
  stored = server_item (fixture, "PROJ#2026-0099");
  g_assert_null (stored);
  stored = server_item (fixture, "PROJ#2026-0003");
  g_assert_nonnull (stored);
  g_assert_nonnull (row_for (fixture, "PROJ#2026-0003"));
  g_assert_null (row_for (fixture, "PROJ#2026-0099"));
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0001")), "Status"),
                   ==, "active");
}

static void
test_conflict (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  g_autoptr(DynValue) budget = NULL;
  g_autoptr(DynValue) stored = NULL;
  DynConflictView *view;
  DynItemObject *row;

  if (fixture->client == NULL)
    return;

  row = row_for (fixture, "PROJ#2026-0002");
  g_assert_true (dyn_edit_session_stage_cell_text (fixture->session, row, "Status", "paused", &error));
  budget = dyn_value_new_number ("80000", NULL);
  g_assert_true (dyn_edit_session_stage_attribute (fixture->session, row_for (fixture, "PROJ#2026-0002"),
                                                   "Budget", budget, &error));
  g_assert_no_error (error);

  /* Someone else changes the item between staging and commit. */
  response = dyn_test_callf (fixture->other, "UpdateItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                             "\"Detail\":{\"S\":\"PROJ#2026-0002\"}},"
                             "\"UpdateExpression\":\"SET #n = :n, Budget = :b\","
                             "\"ExpressionAttributeNames\":{\"#n\":\"Name\"},"
                             "\"ExpressionAttributeValues\":{\":n\":{\"S\":\"Data lake (Bob)\"},\":b\":{\"N\":\"70000\"}}}",
                             fixture->table);
  g_assert_no_error (error);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.commit", NULL));
  wait_idle (fixture);
  g_assert_cmpuint (dyn_edit_session_get_n_conflicts (fixture->session), ==, 1);
  g_assert_cmpint (dyn_edit_session_get_status (fixture->session, 0), ==, DYN_CHANGE_STATUS_CONFLICT);
  view = dyn_staged_changes_get_conflict_view (fixture->staged);
  g_assert_nonnull (view);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (view)))));

  /* Three columns: started from, the server's now, mine. */
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_BASE), "65937.97"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_SERVER), "70000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_MINE), "80000"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Name", DYN_CONFLICT_COLUMN_SERVER), "(Bob)"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Name", DYN_CONFLICT_COLUMN_MINE), "Data lake"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Status", DYN_CONFLICT_COLUMN_MINE), "paused"));
  g_assert_nonnull (strstr (dyn_conflict_view_get_guard_text (view), "server’s item"));

  /* Merge per attribute: the server's budget, my status, their name. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.take", "(ss)", "Budget", "server"));
  g_assert_cmpstr (dyn_test_item_get_number (dyn_conflict_view_get_merged_item (view), "Budget"), ==, "70000");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_conflict_view_get_merged_item (view), "Status"), ==, "paused");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_conflict_view_get_merged_item (view), "Name"), ==, "Data lake (Bob)");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.commit", NULL));
  wait_idle (fixture);
  g_assert_null (dyn_staged_changes_get_conflict_view (fixture->staged));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 0);
  g_assert_cmpstr (dyn_staged_changes_get_status_text (fixture->staged), ==, "1 change written");

  stored = server_item (fixture, "PROJ#2026-0002");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
  g_assert_cmpstr (dyn_test_item_get_number (stored, "Budget"), ==, "70000");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Name"), ==, "Data lake (Bob)");
  g_assert_cmpstr (dyn_test_item_get_string (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0002")), "Name"),
                   ==, "Data lake (Bob)");
}

static void
test_keep_server (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = NULL;
  DynConflictView *view;

  if (fixture->client == NULL)
    return;

  g_assert_true (dyn_edit_session_stage_delete (fixture->session, row_for (fixture, "PROJ#2026-0003"), &error));
  response = dyn_test_callf (fixture->other, "UpdateItem", &error,
                             "{\"TableName\":\"%s\",\"Key\":{\"EntityRef\":{\"S\":\"WS#acme\"},"
                             "\"Detail\":{\"S\":\"PROJ#2026-0003\"}},\"UpdateExpression\":\"SET Budget = :b\","
                             "\"ExpressionAttributeValues\":{\":b\":{\"N\":\"1\"}}}", fixture->table);
  g_assert_no_error (error);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.commit", NULL));
  wait_idle (fixture);
  view = dyn_staged_changes_get_conflict_view (fixture->staged);
  g_assert_nonnull (view);
  g_assert_nonnull (strstr (dyn_conflict_view_get_cell_text (view, "Budget", DYN_CONFLICT_COLUMN_SERVER), "1"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "conflict.keep-server", NULL));
  iterate ();
  g_assert_null (dyn_staged_changes_get_conflict_view (fixture->staged));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 0);
  g_assert_cmpstr (dyn_test_item_get_number (dyn_item_object_get_item (row_for (fixture, "PROJ#2026-0003")), "Budget"),
                   ==, "1");
  g_assert_cmpint (dyn_item_object_get_state (row_for (fixture, "PROJ#2026-0003")), ==, DYN_ITEM_STATE_UNCHANGED);
}

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynValue) stored = NULL;
  DynItemObject *row;

  if (fixture->client == NULL)
    return;

  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_true (dyn_edit_session_stage_cell_text (fixture->session, row, "Status", "paused", &error));
  dyn_edit_session_set_read_only (fixture->session, TRUE);
  iterate ();
  row = row_for (fixture, "PROJ#2026-0001");
  g_assert_false (dyn_edit_session_stage_cell_text (fixture->session, row, "Status", "closed", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_false (dyn_edit_session_stage_delete (fixture->session, row, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  /* The commit action is disabled; the session refuses too. */
  gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.commit", NULL);
  g_assert_false (dyn_edit_session_get_busy (fixture->session));
  g_assert_cmpstr (dyn_staged_changes_get_status_text (fixture->staged), ==, "");
  {
    GAsyncResult *result = NULL;
    g_autoptr(DynCommitResult) commit = NULL;

    dyn_edit_session_commit_async (fixture->session, NULL, dyn_test_result_cb, &result);
    dyn_test_wait (&result);
    commit = dyn_edit_session_commit_finish (fixture->session, result, &error);
    g_object_unref (result);
    g_assert_null (commit);
    g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
    g_clear_error (&error);
  }

  /* Even when the session is not told, a read-only client refuses the write. */
  dyn_edit_session_set_read_only (fixture->session, FALSE);
  dyn_client_set_read_only (fixture->client, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->staged), "staged.commit", NULL));
  wait_idle (fixture);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (fixture->session), ==, 1);
  g_assert_cmpint (dyn_edit_session_get_status (fixture->session, 0), ==, DYN_CHANGE_STATUS_FAILED);
  g_assert_error ((GError *) dyn_edit_session_get_error (fixture->session, 0), DYN_ERROR, DYN_ERROR_READ_ONLY);
  stored = server_item (fixture, "PROJ#2026-0001");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "active");
  dyn_client_set_read_only (fixture->client, FALSE);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  dyn_test_init (&argc, &argv);

  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  adw_init ();

  g_test_add_func ("/dyn/editing/new-destroy", test_new_destroy);
  g_test_add_func ("/dyn/editing/diff-helpers", test_diff_helpers);
#define ADD(path, func) \
  g_test_add ("/dyn/editing/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("stage-review-commit", test_stage_review_commit);
  ADD ("conflict", test_conflict);
  ADD ("keep-server", test_keep_server);
  ADD ("read-only", test_read_only);
#undef ADD

  return g_test_run ();
}
