/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-transfer"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-error.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-transfer-export-dialog.h"
#include "dyn-transfer-import-dialog.h"
#include "dyn-window.h"

/* Export and Import in the real window under Xvfb against DynamoDB Local,
 * on tables unlike the demo data: a numeric sort key (year N / title S,
 * nested info, sets) and a hash-only table (id S, binary). win.export
 * exports the table to each of the four formats through its dialog (the
 * path set as the file chooser sets it): the progress reaches its end and
 * the file holds every item once; the result shown (a Query of one year)
 * exports only its items; an export stopped at once is resumed and holds
 * every item once. win.import: a file with bad lines is dry-run first, the
 * bad lines are listed with their line numbers and Import stays disabled;
 * with Skip Bad Lines the others are imported and Verify finds them all;
 * never-overwrite leaves an existing item and reports it; an import into a
 * new table (numeric sort key) stopped midway and resumed ends with exactly
 * the file's items. Screenshots (light and dark) of the export's end and
 * the dry run with its bad lines; import.png for the README. */

/* Waits end after five minutes: long enough for a loaded machine (no test
 * asserts a time), short of the test's own timeout. */
static gint64
wait_deadline (void)
{
  return g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
}

static DynApplication *app;
static char *tmp_dir;

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynClient          *client;
  char               *movies;
  char               *things;
} Fixture;

#define N_MOVIES 120

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) movies = dyn_test_item_array_new ();
  g_autoptr(GPtrArray) things = dyn_test_item_array_new ();

  if (server == NULL)
    return;
  g_unlink (path);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  fixture->client = dyn_test_client_new (server);

  /* Movies: year N / title S, nested info, a string set; a GSI by genre. */
  fixture->movies = dyn_test_table_name ("Movies");
  g_assert_true (dyn_test_create_table (fixture->client, fixture->movies, "year:N", "title:S",
                                        (const char *[]) { "ByGenre:genre:S:year:N", NULL }, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < N_MOVIES; i++)
    g_ptr_array_add (movies, dyn_test_itemf ("{\"year\":{\"N\":\"%u\"},\"title\":{\"S\":\"Title, \\\"%u\\\"\\nnext\"},"
                                             "\"genre\":{\"S\":\"%s\"},\"tags\":{\"SS\":[\"a\",\"b%u\"]},"
                                             "\"info\":{\"M\":{\"rating\":{\"N\":\"%u.5\"},\"cast\":{\"L\":[{\"S\":\"X\"}]}}}}",
                                             1990 + i % 12, i, i % 2 ? "drama" : "comedy", i, i % 10));
  g_assert_true (dyn_test_load_items (fixture->client, fixture->movies, movies, &error));
  g_assert_no_error (error);

  /* Things: hash-only, with binary. */
  fixture->things = dyn_test_table_name ("Things");
  g_assert_true (dyn_test_create_table (fixture->client, fixture->things, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);
  g_ptr_array_add (things, dyn_test_item ("{\"id\":{\"S\":\"keep\"},\"v\":{\"N\":\"1\"}}"));
  g_ptr_array_add (things, dyn_test_item ("{\"id\":{\"S\":\"same\"},\"v\":{\"N\":\"2\"}}"));
  g_assert_true (dyn_test_load_items (fixture->client, fixture->things, things, &error));
  g_assert_no_error (error);

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
  g_clear_pointer (&fixture->movies, g_free);
  g_clear_pointer (&fixture->things, g_free);
  g_clear_object (&fixture->client);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

static void
open_table (Fixture    *fixture,
            const char *table)
{
  dyn_window_open_table (fixture->window, table);
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpstr (dyn_window_get_table (fixture->window), ==, table);
  g_assert_nonnull (dyn_window_get_table_keys (fixture->window));
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Whether a visible label under @widget starts with @text. */
static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  if (!gtk_widget_get_visible (widget))
    return FALSE;
  if (GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), text))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;
  return FALSE;
}

/* Clicks the visible @label button of @dialog (asserting it can be). */
static void
click (GtkWidget  *dialog,
       const char *label)
{
  GtkWidget *button = find_button (dialog, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static gboolean
export_running (DynTransferExportDialog *dialog)
{
  return dyn_transfer_export_dialog_get_state (dialog) == DYN_TRANSFER_STATE_RUNNING;
}

static void
wait_export (DynTransferExportDialog *dialog)
{
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline && export_running (dialog);)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
  g_assert_false (export_running (dialog));
  dyn_test_settle ();
}

static gboolean
import_busy (DynTransferImportDialog *dialog)
{
  DynTransferState state = dyn_transfer_import_dialog_get_state (dialog);

  return state == DYN_TRANSFER_STATE_RUNNING || state == DYN_TRANSFER_STATE_CHECKING;
}

static void
wait_import (DynTransferImportDialog *dialog)
{
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline && import_busy (dialog);)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
  g_assert_false (import_busy (dialog));
  dyn_test_settle ();
}

static void
screenshot (GtkWindow  *window,
            const char *name)
{
  dyn_test_window_screenshot (window, name, tmp_dir);
}

/* Every item of an exported @path: the keys "year/title" (or "id") seen,
 * each once. */
static GHashTable *
read_keys (const char        *path,
           DynTransferFormat  format,
           const char        *pk,
           const char        *sk)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynItemReader) reader = dyn_item_reader_new (path, format, NULL, &error);
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  DynItemReadResult read;
  g_autoptr(DynValue) item = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (reader);
  while ((read = dyn_item_reader_next (reader, &item, &error)) == DYN_ITEM_READ_ITEM)
    {
      DynValue *p = dyn_value_map_lookup (item, pk);
      DynValue *s = sk ? dyn_value_map_lookup (item, sk) : NULL;
      g_autofree char *ptext = NULL;
      g_autofree char *key = NULL;

      g_assert_nonnull (p);
      ptext = dyn_value_get_value_type (p) == DYN_VALUE_N ? g_strdup (dyn_value_get_number (p)) : g_strdup (dyn_value_get_string (p));
      key = g_strdup_printf ("%s/%s", ptext, s ? dyn_value_get_string (s) : "");
      /* Exactly once. */
      g_assert_false (g_hash_table_contains (keys, key));
      g_hash_table_add (keys, g_steal_pointer (&key));
      g_clear_pointer (&item, dyn_value_unref);
    }
  g_assert_no_error (error);
  g_assert_cmpint (read, ==, DYN_ITEM_READ_END);
  return keys;
}

static DynTransferExportDialog *
open_export (Fixture *fixture)
{
  GtkWindow *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.export", NULL));
  dyn_test_settle ();
  dialog = dyn_window_get_transfer_dialog (fixture->window);
  g_assert_true (DYN_IS_TRANSFER_EXPORT_DIALOG (dialog));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  gtk_window_set_default_size (dialog, 640, 720);
  return DYN_TRANSFER_EXPORT_DIALOG (dialog);
}

static void
close_dialog (Fixture *fixture)
{
  GtkWindow *dialog = dyn_window_get_transfer_dialog (fixture->window);

  g_assert_nonnull (dialog);
  gtk_window_close (dialog);
  dyn_test_settle ();
  g_assert_null (dyn_window_get_transfer_dialog (fixture->window));
}

static guint64
table_count (Fixture    *fixture,
             const char *table)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fixture->client, "Scan", &error,
                                                    "{\"TableName\":\"%s\",\"Select\":\"COUNT\",\"ConsistentRead\":true}", table);

  g_assert_no_error (error);
  return (guint64) json_object_get_int_member (json_node_get_object (response->root), "Count");
}

/* ------------------------------------------------------------------------ */

static void
test_export_formats (Fixture       *fixture,
                     gconstpointer  data)
{
  static const DynTransferFormat formats[] = {
    DYN_TRANSFER_FORMAT_DDB_JSON, DYN_TRANSFER_FORMAT_JSON, DYN_TRANSFER_FORMAT_CSV, DYN_TRANSFER_FORMAT_S3,
  };
  DynTransferExportDialog *dialog;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->movies);
  dialog = open_export (fixture);
  /* Nothing to write to yet: Export waits for the output. */
  g_assert_false (gtk_widget_is_sensitive (find_button (GTK_WIDGET (dialog), "_Export")));

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autofree char *name = g_strdup_printf ("movies-%s", dyn_transfer_format_to_string (formats[f]));
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
      g_autoptr(GHashTable) keys = NULL;
      g_autofree char *checkpoint = NULL;
      const DynTransferProgress *progress;

      dyn_transfer_export_dialog_set_source (dialog, DYN_EXPORT_SOURCE_TABLE, NULL);
      dyn_transfer_export_dialog_set_format (dialog, formats[f]);
      dyn_transfer_export_dialog_set_segments (dialog, 3);
      dyn_transfer_export_dialog_set_output (dialog, path);
      click (GTK_WIDGET (dialog), "_Export");
      g_assert_cmpint (dyn_transfer_export_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_RUNNING);
      /* Running: Stop instead of Export. */
      g_assert_true (gtk_widget_get_visible (find_button (GTK_WIDGET (dialog), "_Stop")));
      g_assert_false (gtk_widget_get_visible (find_button (GTK_WIDGET (dialog), "_Export")));
      wait_export (dialog);
      g_assert_cmpint (dyn_transfer_export_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
      progress = dyn_export_job_get_progress (dyn_transfer_export_dialog_get_job (dialog));
      g_assert_true (progress->finished);
      g_assert_cmpuint (progress->items, ==, N_MOVIES);
      g_assert_cmpuint (progress->segments, ==, 3);
      g_assert_true (g_str_has_prefix (dyn_transfer_export_dialog_get_message (dialog), "Exported 120 items to "));
      g_assert_nonnull (strstr (dyn_transfer_export_dialog_get_message (dialog), " RCU"));
      g_assert_true (has_label (GTK_WIDGET (dialog), "Exported 120 items to "));
      /* The checkpoint is gone; the file holds every item once. */
      checkpoint = dyn_export_checkpoint_path (path);
      g_assert_false (g_file_test (checkpoint, G_FILE_TEST_EXISTS));
      keys = read_keys (path, formats[f], "year", "title");
      g_assert_cmpuint (g_hash_table_size (keys), ==, N_MOVIES);
      g_assert_true (g_hash_table_contains (keys, "1990/Title, \"0\"\nnext"));
      if (f == 0)
        {
          screenshot (GTK_WINDOW (dialog), "export-done.png");
          adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
          screenshot (GTK_WINDOW (dialog), "export-done-dark.png");
          adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
        }
    }
  close_dialog (fixture);
}

/* The result shown: a Query of one year exports that year only (one lane:
 * segments do not apply); the index exports its items. */
static void
test_export_result (Fixture       *fixture,
                    gconstpointer  data)
{
  DynTransferExportDialog *dialog;
  g_autofree char *path = g_build_filename (tmp_dir, "movies-1995.jsonl", NULL);
  g_autofree char *index_path = g_build_filename (tmp_dir, "movies-bygenre.csv", NULL);
  g_autoptr(GHashTable) keys = NULL;
  g_autoptr(GHashTable) index_keys = NULL;
  g_autoptr(DynRequest) request = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->movies);
  dyn_expression_builder_set_text (dyn_window_get_builder (fixture->window), "year = 1995");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.query", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_cmpint (dyn_window_get_request (fixture->window)->op, ==, DYN_OP_QUERY);

  dialog = open_export (fixture);
  /* The window offers the result shown first. */
  request = dyn_transfer_export_dialog_dup_request (dialog, NULL);
  g_assert_nonnull (request);
  g_assert_cmpint (request->op, ==, DYN_OP_QUERY);
  g_assert_cmpint (request->limit, ==, 0);
  g_assert_null (request->exclusive_start_key);
  dyn_transfer_export_dialog_set_format (dialog, DYN_TRANSFER_FORMAT_JSON);
  dyn_transfer_export_dialog_set_output (dialog, path);
  click (GTK_WIDGET (dialog), "_Export");
  wait_export (dialog);
  g_assert_cmpint (dyn_transfer_export_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  keys = read_keys (path, DYN_TRANSFER_FORMAT_JSON, "year", "title");
  /* 120 movies over 12 years. */
  g_assert_cmpuint (g_hash_table_size (keys), ==, N_MOVIES / 12);
  g_assert_true (g_hash_table_contains (keys, "1995/Title, \"5\"\nnext"));

  dyn_transfer_export_dialog_set_source (dialog, DYN_EXPORT_SOURCE_INDEX, "ByGenre");
  dyn_transfer_export_dialog_set_format (dialog, DYN_TRANSFER_FORMAT_CSV);
  dyn_transfer_export_dialog_set_output (dialog, index_path);
  click (GTK_WIDGET (dialog), "_Export");
  wait_export (dialog);
  g_assert_cmpint (dyn_transfer_export_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  index_keys = read_keys (index_path, DYN_TRANSFER_FORMAT_CSV, "year", "title");
  g_assert_cmpuint (g_hash_table_size (index_keys), ==, N_MOVIES);
  close_dialog (fixture);
}

/* Stopped at once, then resumed: every item exactly once. */
static void
test_export_resume (Fixture       *fixture,
                    gconstpointer  data)
{
  DynTransferExportDialog *dialog;
  g_autofree char *path = g_build_filename (tmp_dir, "movies-resumed.jsonl", NULL);
  g_autoptr(GHashTable) keys = NULL;

  if (fixture->window == NULL)
    return;
  g_unlink (path);
  open_table (fixture, fixture->movies);
  dialog = open_export (fixture);
  dyn_transfer_export_dialog_set_source (dialog, DYN_EXPORT_SOURCE_TABLE, NULL);
  dyn_transfer_export_dialog_set_format (dialog, DYN_TRANSFER_FORMAT_DDB_JSON);
  dyn_transfer_export_dialog_set_segments (dialog, 4);
  dyn_transfer_export_dialog_set_output (dialog, path);
  click (GTK_WIDGET (dialog), "_Export");
  click (GTK_WIDGET (dialog), "_Stop");
  wait_export (dialog);
  if (dyn_transfer_export_dialog_get_state (dialog) == DYN_TRANSFER_STATE_STOPPED)
    {
      /* The checkpoint is left: Resume is offered. */
      g_assert_true (dyn_export_can_resume (path));
      g_assert_true (has_label (GTK_WIDGET (dialog), "Stopped: "));
      /* Only Resume: the checkpoint is not thrown away by a second Export. */
      g_assert_false (gtk_widget_get_visible (find_button (GTK_WIDGET (dialog), "_Export")));
      screenshot (GTK_WINDOW (dialog), "export-stopped.png");
      click (GTK_WIDGET (dialog), "_Resume");
      wait_export (dialog);
    }
  g_assert_cmpint (dyn_transfer_export_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  g_assert_false (dyn_export_can_resume (path));
  g_assert_false (gtk_widget_get_visible (find_button (GTK_WIDGET (dialog), "_Resume")));
  keys = read_keys (path, DYN_TRANSFER_FORMAT_DDB_JSON, "year", "title");
  g_assert_cmpuint (g_hash_table_size (keys), ==, N_MOVIES);
  close_dialog (fixture);
}

/* ------------------------------------------------------------------------ */

static DynTransferImportDialog *
open_import (Fixture *fixture)
{
  GtkWindow *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.import", NULL));
  dyn_test_settle ();
  dialog = dyn_window_get_transfer_dialog (fixture->window);
  g_assert_true (DYN_IS_TRANSFER_IMPORT_DIALOG (dialog));
  gtk_window_set_default_size (dialog, 640, 900);
  return DYN_TRANSFER_IMPORT_DIALOG (dialog);
}

static char *
write_file (const char *name,
            const char *text)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

static gboolean
has_problem (GPtrArray            *problems,
             DynImportProblemKind  kind,
             const char           *where)
{
  for (guint i = 0; i < problems->len; i++)
    {
      DynImportProblem *problem = g_ptr_array_index (problems, i);

      if (problem->kind == kind && g_strcmp0 (problem->where, where) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A hash-only table: two bad lines (an invalid number on line 4, no key on
 * line 7) are listed; Import stays disabled until Skip Bad Lines; then the
 * other items are written, and Verify finds every one of them. */
static void
test_import_bad_lines (Fixture       *fixture,
                       gconstpointer  data)
{
  GString *text = g_string_new (NULL);
  g_autofree char *path = NULL;
  DynTransferImportDialog *dialog;
  const DynImportSummary *summary;
  GPtrArray *problems;
  GtkWidget *import_button;

  if (fixture->window == NULL)
    return;
  for (guint line = 1; line <= 30; line++)
    if (line == 4)
      g_string_append (text, "{\"id\":{\"S\":\"bad-number\"},\"v\":{\"N\":\"12abc\"}}\n");
    else if (line == 7)
      g_string_append (text, "{\"name\":{\"S\":\"no key\"}}\n");
    else
      g_string_append_printf (text, "{\"id\":{\"S\":\"t%02u\"},\"v\":{\"N\":\"%u\"},\"raw\":{\"B\":\"AAEC\"}}\n", line, line);
  path = write_file ("things-bad.jsonl", text->str);
  g_string_free (text, TRUE);

  open_table (fixture, fixture->things);
  dialog = open_import (fixture);
  import_button = find_button (GTK_WIDGET (dialog), "_Import");
  g_assert_false (gtk_widget_is_sensitive (import_button));
  dyn_transfer_import_dialog_set_input (dialog, path);
  wait_import (dialog);
  g_assert_cmpint (dyn_transfer_import_dialog_get_format (dialog), ==, DYN_TRANSFER_FORMAT_DDB_JSON);
  summary = dyn_transfer_import_dialog_get_dry_run (dialog);
  g_assert_nonnull (summary);
  g_assert_cmpuint (summary->records, ==, 30);
  g_assert_cmpuint (summary->items, ==, 28);
  g_assert_cmpuint (summary->bad, ==, 2);
  g_assert_cmpfloat (summary->write_units_estimate, >=, 28);
  problems = dyn_transfer_import_dialog_get_problems (dialog);
  g_assert_true (has_problem (problems, DYN_IMPORT_PROBLEM_BAD_LINE, "line 4"));
  g_assert_true (has_problem (problems, DYN_IMPORT_PROBLEM_BAD_LINE, "line 7"));
  /* Listed in the dialog with their line numbers. */
  g_assert_true (has_label (GTK_WIDGET (dialog), "line 4"));
  g_assert_true (has_label (GTK_WIDGET (dialog), "line 7"));
  g_assert_true (has_label (GTK_WIDGET (dialog), "28 items · 2 bad lines"));
  /* Nothing written, and Import refused while the file is not clean. */
  g_assert_false (gtk_widget_is_sensitive (import_button));
  g_assert_cmpuint (table_count (fixture, fixture->things), ==, 2);
  screenshot (GTK_WINDOW (dialog), "import-dry-run.png");
  {
    const char *dir = g_getenv ("DYN_SCREENSHOT_DIR");

    /* The README's picture (tests/update-screenshots.sh copies it). */
    if (dir != NULL)
      screenshot (GTK_WINDOW (dialog), "import.png");
  }
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  screenshot (GTK_WINDOW (dialog), "import-dry-run-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);

  dyn_transfer_import_dialog_set_skip_bad (dialog, TRUE);
  dyn_test_settle ();
  g_assert_true (gtk_widget_is_sensitive (import_button));
  click (GTK_WIDGET (dialog), "_Import");
  wait_import (dialog);
  g_assert_cmpint (dyn_transfer_import_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  g_assert_cmpuint (dyn_import_job_get_summary (dyn_transfer_import_dialog_get_job (dialog))->written, ==, 28);
  g_assert_cmpuint (dyn_import_job_get_progress (dyn_transfer_import_dialog_get_job (dialog))->skipped, ==, 2);
  g_assert_true (g_str_has_prefix (dyn_transfer_import_dialog_get_message (dialog), "Imported 28 items · 2 bad lines skipped"));
  g_assert_cmpuint (table_count (fixture, fixture->things), ==, 30);

  click (GTK_WIDGET (dialog), "_Verify");
  wait_import (dialog);
  g_assert_cmpstr (dyn_transfer_import_dialog_get_verify_text (dialog), ==,
                   "Verified 28 items: all in the table as in the file · the table holds 30 items");
  close_dialog (fixture);
  /* The window read the table again. */
  dyn_test_wait_idle (fixture->window);
}

/* Never overwrite: "keep" exists with another value and is left and
 * reported, "same" is there already as in the file, "new" is written. */
static void
test_import_never_overwrite (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *path = write_file ("things-existing.jsonl",
                                      "{\"id\":{\"S\":\"keep\"},\"v\":{\"N\":\"100\"}}\n"
                                      "{\"id\":{\"S\":\"same\"},\"v\":{\"N\":\"2\"}}\n"
                                      "{\"id\":{\"S\":\"new\"},\"v\":{\"N\":\"3\"}}\n");
  DynTransferImportDialog *dialog;
  const DynTransferProgress *progress;
  g_autoptr(DynValue) key = dyn_test_item ("{\"id\":{\"S\":\"keep\"}}");
  g_autoptr(DynValue) kept = NULL;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->things);
  dialog = open_import (fixture);
  dyn_transfer_import_dialog_set_input (dialog, path);
  dyn_transfer_import_dialog_set_never_overwrite (dialog, TRUE);
  wait_import (dialog);
  g_assert_cmpuint (dyn_transfer_import_dialog_get_dry_run (dialog)->bad, ==, 0);
  click (GTK_WIDGET (dialog), "_Import");
  wait_import (dialog);
  g_assert_cmpint (dyn_transfer_import_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  progress = dyn_import_job_get_progress (dyn_transfer_import_dialog_get_job (dialog));
  g_assert_cmpuint (progress->existing, ==, 1);
  g_assert_cmpuint (progress->identical, ==, 1);
  g_assert_true (has_problem (dyn_transfer_import_dialog_get_problems (dialog), DYN_IMPORT_PROBLEM_EXISTS, "line 1"));
  g_assert_nonnull (strstr (dyn_transfer_import_dialog_get_message (dialog), "1 existing item left as it was"));
  kept = dyn_test_get_item (fixture->client, fixture->things, key, TRUE);
  g_assert_cmpstr (dyn_value_get_number (dyn_value_map_lookup (kept, "v")), ==, "1");
  g_assert_cmpuint (table_count (fixture, fixture->things), ==, 3);
  close_dialog (fixture);
}

/* Errors name what was wrong: a file of another key schema is all bad
 * lines (the key named); a new table that exists already is refused by
 * CreateTable, and nothing is written. */
static void
test_import_errors (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *path = write_file ("films-few.jsonl",
                                      "{\"year\":2001,\"title\":\"A\"}\n{\"year\":2002,\"title\":\"B\"}\n");
  DynTransferImportDialog *dialog;
  DynImportProblem *problem;

  if (fixture->window == NULL)
    return;
  open_table (fixture, fixture->things);
  dialog = open_import (fixture);
  dyn_transfer_import_dialog_set_input (dialog, path);
  wait_import (dialog);
  g_assert_cmpuint (dyn_transfer_import_dialog_get_dry_run (dialog)->bad, ==, 2);
  problem = g_ptr_array_index (dyn_transfer_import_dialog_get_problems (dialog), 0);
  g_assert_cmpstr (problem->where, ==, "line 1");
  g_assert_nonnull (strstr (problem->message, "id"));
  g_assert_false (gtk_widget_is_sensitive (find_button (GTK_WIDGET (dialog), "_Import")));
  /* Skipping every line leaves nothing to import. */
  dyn_transfer_import_dialog_set_skip_bad (dialog, TRUE);
  dyn_test_settle ();
  g_assert_false (gtk_widget_is_sensitive (find_button (GTK_WIDGET (dialog), "_Import")));
  dyn_transfer_import_dialog_set_skip_bad (dialog, FALSE);

  /* Into a "new" table that is the Movies table. */
  dyn_transfer_import_dialog_set_new_table (dialog, fixture->movies, "year", DYN_VALUE_N, "title", DYN_VALUE_S);
  wait_import (dialog);
  g_assert_cmpuint (dyn_transfer_import_dialog_get_dry_run (dialog)->bad, ==, 0);
  click (GTK_WIDGET (dialog), "_Import");
  wait_import (dialog);
  g_assert_cmpint (dyn_transfer_import_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_FAILED);
  g_assert_nonnull (strstr (dyn_transfer_import_dialog_get_message (dialog), fixture->movies));
  g_assert_true (g_str_has_prefix (dyn_transfer_import_dialog_get_message (dialog), "The table "));
  g_test_message ("%s", dyn_transfer_import_dialog_get_message (dialog));
  g_assert_null (dyn_transfer_import_dialog_get_job (dialog));
  g_assert_cmpuint (table_count (fixture, fixture->movies), ==, N_MOVIES);
  close_dialog (fixture);
}

/* Into a new table with a numeric sort key, limited to 200 WCU/s: stopped
 * once items are written, then resumed: exactly the file's items. */
static void
test_import_new_table_resume (Fixture       *fixture,
                              gconstpointer  data)
{
  const guint n = 1500;
  GString *text = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *table = dyn_test_table_name ("Imported");
  DynTransferImportDialog *dialog;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = NULL;

  if (fixture->window == NULL)
    return;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "{\"year\":%u,\"title\":\"Film %u\",\"info\":{\"plot\":\"p\"}}\n", 1900 + i % 100, i);
  path = write_file ("films.jsonl", text->str);
  g_string_free (text, TRUE);

  open_table (fixture, fixture->things);
  dialog = open_import (fixture);
  dyn_transfer_import_dialog_set_input (dialog, path);
  dyn_transfer_import_dialog_set_new_table (dialog, table, "year", DYN_VALUE_N, "title", DYN_VALUE_S);
  dyn_transfer_import_dialog_set_max_wcu (dialog, 200);
  wait_import (dialog);
  g_assert_cmpint (dyn_transfer_import_dialog_get_format (dialog), ==, DYN_TRANSFER_FORMAT_JSON);
  g_assert_cmpuint (dyn_transfer_import_dialog_get_dry_run (dialog)->items, ==, n);
  /* Nothing is created before Import. */
  tables = dyn_test_list_tables (fixture->client, &error);
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char * const *) tables, table));

  click (GTK_WIDGET (dialog), "_Import");
  for (gint64 deadline = wait_deadline (); g_get_monotonic_time () < deadline;)
    {
      DynImportJob *job = dyn_transfer_import_dialog_get_job (dialog);

      /* Written, not only checked: the check of every line comes first. */
      if (job != NULL && dyn_import_job_get_summary (job)->written > 0)
        break;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (5000);
    }
  screenshot (GTK_WINDOW (dialog), "import-running.png");
  click (GTK_WIDGET (dialog), "_Stop");
  wait_import (dialog);
  if (dyn_transfer_import_dialog_get_state (dialog) == DYN_TRANSFER_STATE_STOPPED)
    {
      g_assert_true (dyn_import_job_has_checkpoint (dyn_transfer_import_dialog_get_job (dialog), NULL));
      g_assert_cmpuint (table_count (fixture, table), <, n);
      g_assert_true (has_label (GTK_WIDGET (dialog), "Stopped: "));
      screenshot (GTK_WINDOW (dialog), "import-stopped.png");
      click (GTK_WIDGET (dialog), "_Resume");
      wait_import (dialog);
    }
  else
    g_test_message ("the import finished before Stop");
  g_assert_cmpint (dyn_transfer_import_dialog_get_state (dialog), ==, DYN_TRANSFER_STATE_DONE);
  g_assert_cmpuint (table_count (fixture, table), ==, n);
  click (GTK_WIDGET (dialog), "_Verify");
  wait_import (dialog);
  g_assert_nonnull (dyn_transfer_import_dialog_get_verify_text (dialog));
  g_assert_true (g_str_has_prefix (dyn_transfer_import_dialog_get_verify_text (dialog), "Verified 1500 items"));
  screenshot (GTK_WINDOW (dialog), "import-verified.png");
  close_dialog (fixture);
  /* The new table is listed in the window. */
  dyn_test_wait_idle (fixture->window);
  g_assert_true (g_strv_contains (dyn_window_get_tables (fixture->window), table));
  g_assert_true (dyn_test_delete_table (fixture->client, table, NULL));
}

/* The GTK-free choices the dialogs make (client/transfer/dyn-transfer-source.c). */
static void
test_source_helpers (void)
{
  g_autoptr(DynRequest) get = dyn_request_new (DYN_OP_GET_ITEM, "Movies");
  g_autoptr(DynRequest) query = dyn_request_new (DYN_OP_QUERY, "Movies");
  g_autoptr(DynRequest) result = NULL;
  g_autoptr(DynRequest) index = NULL;
  g_autoptr(DynRequest) none = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) day = g_date_time_new_utc (2026, 12, 2, 10, 0, 0);
  g_autofree char *csv = dyn_transfer_suggest_file_name ("Movies", "By/Genre", DYN_TRANSFER_FORMAT_CSV, day);
  g_autofree char *s3 = dyn_transfer_suggest_file_name ("Movies", NULL, DYN_TRANSFER_FORMAT_S3, day);
  g_autofree char *described = NULL;
  DynImportSummary dirty = { .records = 3, .items = 2, .bad = 1, .write_units_estimate = 2 };
  DynImportSummary empty = { 0 };

  /* A single item is no result to export. */
  none = dyn_export_source_request (DYN_EXPORT_SOURCE_RESULT, "Movies", NULL, get, &error);
  g_assert_null (none);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  /* The result from its first page, without the window's Limit or count. */
  query->limit = 50;
  query->select = g_strdup ("COUNT");
  query->key_condition = g_strdup ("#k = :v");
  dyn_request_set_exclusive_start_key (query, dyn_test_item ("{\"year\":{\"N\":\"1\"},\"title\":{\"S\":\"a\"}}"));
  result = dyn_export_source_request (DYN_EXPORT_SOURCE_RESULT, "Movies", NULL, query, &error);
  g_assert_no_error (error);
  g_assert_cmpint (result->op, ==, DYN_OP_QUERY);
  g_assert_cmpint (result->limit, ==, 0);
  g_assert_null (result->select);
  g_assert_null (result->exclusive_start_key);
  g_assert_cmpstr (result->key_condition, ==, "#k = :v");
  g_assert_false (dyn_export_request_can_segment (result));
  index = dyn_export_source_request (DYN_EXPORT_SOURCE_INDEX, "Movies", "ByGenre", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (index->op, ==, DYN_OP_SCAN);
  g_assert_cmpstr (index->index, ==, "ByGenre");
  g_assert_true (dyn_export_request_can_segment (index));
  described = dyn_export_describe_request (index);
  g_assert_cmpstr (described, ==, "Scan of ByGenre");

  g_assert_cmpstr (csv, ==, "Movies-By_Genre-2026-12-02.csv");
  g_assert_cmpstr (s3, ==, "Movies-2026-12-02");

  /* Import only after a dry run that allows it. */
  g_assert_false (dyn_import_dry_run_allows (&dirty, FALSE));
  g_assert_true (dyn_import_dry_run_allows (&dirty, TRUE));
  g_assert_false (dyn_import_dry_run_allows (&empty, TRUE));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-transfer");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/dyn/window-transfer/source-helpers", test_source_helpers);
#define ADD(path, func) \
  g_test_add ("/dyn/window-transfer/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("export-formats", test_export_formats);
  ADD ("export-result", test_export_result);
  ADD ("export-resume", test_export_resume);
  ADD ("import-bad-lines", test_import_bad_lines);
  ADD ("import-never-overwrite", test_import_never_overwrite);
  ADD ("import-errors", test_import_errors);
  ADD ("import-new-table-resume", test_import_new_table_resume);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
