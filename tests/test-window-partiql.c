/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-partiql"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-partiql-editor.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"

/* The PartiQL page of the real window under Xvfb against DynamoDB Local:
 * the linter as the user types, against the key schema the window describes
 * (a full Scan names the key; a double-quoted string and a LIKE get quick
 * fixes that change the text); a SELECT with a `?` parameter runs and pages
 * with NextToken (and restarts after an edit); an INSERT asks first, shows
 * table and key, and writes only after the answer (GetItem checks); a
 * read-only connection refuses it; two statements run as one
 * ExecuteTransaction. Screenshots of the page. */

static DynApplication *app;
static char *tmp_dir;
static char *movies;   /* year N + title S */
static char *plays;    /* id S, no sort key */

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynConnection      *connection;
  DynClient          *other;
} Fixture;

static gboolean
ensure_tables (void)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pad = NULL;

  if (server == NULL)
    return FALSE;
  if (movies != NULL)
    return TRUE;
  client = dyn_test_client_new (server);
  movies = dyn_test_table_name ("movies");
  plays = dyn_test_table_name ("plays");
  g_assert_true (dyn_test_create_table (client, movies, "year:N", "title:S", NULL, &error));
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client, plays, "id:S", NULL, NULL, &error));
  g_assert_no_error (error);

  /* 2013: five items of 300 KB, more than one 1 MB page of ExecuteStatement;
   * 2014: two small ones. */
  pad = g_strnfill (300000, 'x');
  items = dyn_test_item_array_new ();
  for (guint i = 0; i < 5; i++)
    g_ptr_array_add (items, dyn_test_itemf ("{\"year\":{\"N\":\"2013\"},\"title\":{\"S\":\"Film %u\"},"
                                            "\"genre\":{\"S\":\"Drama\"},\"pad\":{\"S\":\"%s\"}}", i, pad));
  for (guint i = 0; i < items->len; i++)
    {
      g_assert_true (dyn_test_put_item (client, movies, items->pdata[i], &error));
      g_assert_no_error (error);
    }
  g_ptr_array_set_size (items, 0);
  g_ptr_array_add (items, dyn_test_item ("{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Whiplash\"},\"genre\":{\"S\":\"Drama\"}}"));
  g_ptr_array_add (items, dyn_test_item ("{\"year\":{\"N\":\"2014\"},\"title\":{\"S\":\"Boyhood\"},\"genre\":{\"S\":\"Drama\"}}"));
  g_ptr_array_add (items, dyn_test_item ("{\"id\":{\"S\":\"p1\"},\"n\":{\"N\":\"1\"}}"));
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (dyn_test_put_item (client, movies, items->pdata[i], &error));
      g_assert_no_error (error);
    }
  g_assert_true (dyn_test_put_item (client, plays, items->pdata[2], &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);

  g_unlink (path);
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
  fixture->other = dyn_test_client_new (dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  g_clear_object (&fixture->connection);
  g_clear_object (&fixture->other);
  g_assert_finalize_object (fixture->store);
}

static void
connect (Fixture  *fixture,
         gboolean  read_only)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  fixture->connection = dyn_connection_new (read_only ? "Local (read-only)" : "Local");
  dyn_connection_set_region (fixture->connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (fixture->connection, dyn_test_server_get_endpoint (server));
  dyn_connection_set_read_only (fixture->connection, read_only);
  dyn_connection_store_add_async (fixture->store, fixture->connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  dyn_test_wait (&result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, result, &error));
  g_assert_no_error (error);
  dyn_window_open_connection (fixture->window, fixture->connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-partiql", NULL));
  dyn_test_iterate ();
}

static DynPartiqlEditor *
editor (Fixture *fixture)
{
  DynPartiqlEditor *editor = dyn_window_get_partiql_editor (fixture->window);

  g_assert_nonnull (editor);
  return editor;
}

/* Until the lint has run on the text and on every key schema it asked for. */
static void
wait_lint (Fixture *fixture)
{
  do
    {
      dyn_test_wait_idle (fixture->window);
      while (dyn_partiql_editor_get_lint_pending (editor (fixture)))
        g_main_context_iteration (NULL, TRUE);
    }
  while (dyn_window_is_busy (fixture->window));
}

/* Types @text as the user would: into the buffer at the cursor. */
static void
type_text (Fixture    *fixture,
           const char *text)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (dyn_partiql_editor_get_view (editor (fixture)));

  gtk_text_buffer_set_text (buffer, "", -1);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    gtk_text_buffer_insert_at_cursor (buffer, p, g_utf8_next_char (p) - p);
  wait_lint (fixture);
}

static char *
text (Fixture *fixture)
{
  return dyn_partiql_editor_dup_text (editor (fixture));
}

static int
find_diagnostic (Fixture    *fixture,
                 const char *code)
{
  GPtrArray *diagnostics = dyn_partiql_editor_get_diagnostics (editor (fixture));

  for (guint i = 0; i < diagnostics->len; i++)
    if (g_strcmp0 (((DynPartiqlDiagnostic *) diagnostics->pdata[i])->code, code) == 0)
      return (int) i;
  return -1;
}

static const DynPartiqlDiagnostic *
diagnostic (Fixture *fixture,
            int      index)
{
  g_assert_cmpint (index, >=, 0);
  return dyn_partiql_editor_get_diagnostics (editor (fixture))->pdata[index];
}

/* The diagnostic's range carries the underline tag of its severity. */
static void
assert_underlined (Fixture                    *fixture,
                   const DynPartiqlDiagnostic *d)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (dyn_partiql_editor_get_view (editor (fixture)));
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, d->severity == DYN_PARTIQL_ERROR ? "partiql-error"
                                                                                         : "partiql-warning");
  g_autofree char *all = text (fixture);
  GtkTextIter iter;

  g_assert_nonnull (tag);
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, g_utf8_pointer_to_offset (all, all + d->start));
  g_assert_true (gtk_text_iter_has_tag (&iter, tag));
}

static void
screenshot_of (GtkWindow  *window,
               const char *name)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 20; i++)
    {
      dyn_test_iterate ();
      g_usleep (20000);
    }
  for (guint i = 0; i < 20; i++)
    {
      g_clear_error (&error);
      if (dyn_window_save_png (window, path, &error))
        break;
      dyn_test_iterate ();
      g_usleep (20000);
    }
  g_assert_no_error (error);
  g_test_message ("screenshot: %s", path);
}

static void
screenshot (Fixture    *fixture,
            const char *name)
{
  screenshot_of (GTK_WINDOW (fixture->window), name);
}

static AdwMessageDialog *
find_dialog (DynWindow *window)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data) &&
        gtk_window_get_transient_for (l->data) == GTK_WINDOW (window))
      return l->data;
  return NULL;
}

static void
respond (AdwMessageDialog *dialog,
         const char       *response)
{
  /* As a click does: the response, then the dialog goes. */
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
  dyn_test_iterate ();
}

static DynValue *
get_movie (Fixture    *fixture,
           const char *year,
           const char *title)
{
  g_autoptr(DynValue) key = dyn_test_itemf ("{\"year\":{\"N\":\"%s\"},\"title\":{\"S\":\"%s\"}}", year, title);

  return dyn_test_get_item (fixture->other, movies, key, TRUE);
}

static gboolean
run (Fixture *fixture)
{
  gboolean done = gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.partiql-run", NULL);

  dyn_test_wait_idle (fixture->window);
  return done;
}

/* ------------------------------------------------------------------------ */

static void
test_lint (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *statement = NULL;
  g_autofree char *fixed = NULL;
  const DynPartiqlDiagnostic *d;
  int i;

  if (!ensure_tables ())
    return;
  connect (fixture, FALSE);

  /* A full Scan: the table is not open, the window describes it for the
   * linter, which names the partition key that would make it a Query. */
  statement = g_strdup_printf ("SELECT * FROM \"%s\" WHERE genre = 'Drama'", movies);
  type_text (fixture, statement);
  i = find_diagnostic (fixture, "full-scan");
  d = diagnostic (fixture, i);
  g_assert_cmpint (d->severity, ==, DYN_PARTIQL_WARNING);
  g_assert_nonnull (strstr (d->message, "year"));
  g_assert_cmpuint (d->line, ==, 1);
  assert_underlined (fixture, d);
  screenshot (fixture, "partiql-lint.png");

  /* With the partition key it is a Query: no warning. */
  g_free (statement);
  statement = g_strdup_printf ("SELECT * FROM \"%s\" WHERE \"year\" = 2014 AND genre = 'Drama'", movies);
  type_text (fixture, statement);
  g_assert_cmpint (find_diagnostic (fixture, "full-scan"), ==, -1);

  /* A string in double quotes is an attribute name: the fix uses single
   * quotes, and the warning goes. */
  g_free (statement);
  statement = g_strdup_printf ("SELECT * FROM \"%s\" WHERE \"year\" = 2014 AND title = \"Whiplash\"", movies);
  type_text (fixture, statement);
  i = find_diagnostic (fixture, "double-quoted-string");
  d = diagnostic (fixture, i);
  g_assert_nonnull (d->fix_text);
  assert_underlined (fixture, d);
  g_assert_true (dyn_partiql_editor_apply_fix (editor (fixture), i));
  wait_lint (fixture);
  fixed = text (fixture);
  g_assert_nonnull (strstr (fixed, "title = 'Whiplash'"));
  g_assert_cmpint (find_diagnostic (fixture, "double-quoted-string"), ==, -1);

  /* LIKE 'x%' is begins_with in PartiQL. */
  g_free (statement);
  statement = g_strdup_printf ("SELECT * FROM \"%s\" WHERE \"year\" = 2014 AND title LIKE 'Wh%%'", movies);
  type_text (fixture, statement);
  i = find_diagnostic (fixture, "like");
  d = diagnostic (fixture, i);
  g_assert_nonnull (d->fix_text);
  g_assert_true (dyn_partiql_editor_apply_fix (editor (fixture), i));
  wait_lint (fixture);
  g_free (fixed);
  fixed = text (fixture);
  g_assert_nonnull (strstr (fixed, "begins_with"));
  g_assert_null (strstr (fixed, "LIKE"));
  g_assert_cmpint (find_diagnostic (fixture, "like"), ==, -1);

  /* The fixed statement runs. */
  g_assert_true (run (fixture));
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, 1);
}

static void
test_parameters_paging (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *statement = NULL;
  g_autofree char *line = NULL;
  const char *status;
  guint first;

  if (!ensure_tables ())
    return;
  connect (fixture, FALSE);

  statement = g_strdup_printf ("SELECT title, genre FROM \"%s\" WHERE \"year\" = ?", movies);
  type_text (fixture, statement);
  g_assert_cmpuint (dyn_partiql_editor_get_n_parameters (editor (fixture)), ==, 1);
  g_assert_cmpint (find_diagnostic (fixture, "full-scan"), ==, -1);

  /* A value that is not a number is refused before any request. */
  dyn_partiql_editor_set_parameter (editor (fixture), 0, DYN_VALUE_N, "twenty");
  g_assert_true (run (fixture));
  g_assert_nonnull (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, 0);

  /* 2014: two small items, one page. */
  dyn_partiql_editor_set_parameter (editor (fixture), 0, DYN_VALUE_N, "2014");
  g_assert_true (run (fixture));
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, 2);
  line = dyn_partiql_editor_dup_result (editor (fixture), 0);
  g_assert_nonnull (strstr (line, "\"title\""));
  status = dyn_partiql_editor_get_status (editor (fixture));
  g_assert_nonnull (strstr (status, "RCU"));
  g_assert_false (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.partiql-load-more", NULL) &&
                  dyn_partiql_editor_get_n_results (editor (fixture)) != 2);

  /* 2013: 1.5 MB, more than one page: Load More sends the NextToken with
   * the same text and adds the rest. The projection reads the whole items. */
  dyn_partiql_editor_set_parameter (editor (fixture), 0, DYN_VALUE_N, "2013");
  g_assert_true (run (fixture));
  first = dyn_partiql_editor_get_n_results (editor (fixture));
  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (first, <, 5);
  g_assert_nonnull (strstr (dyn_partiql_editor_get_status (editor (fixture)), "Load More"));
  screenshot (fixture, "partiql-paging.png");
  while (dyn_partiql_editor_get_n_results (editor (fixture)) < 5)
    {
      guint before = dyn_partiql_editor_get_n_results (editor (fixture));

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.partiql-load-more", NULL));
      dyn_test_wait_idle (fixture->window);
      g_assert_null (dyn_window_get_error_text (fixture->window));
      g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), >, before);
    }
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, 5);
  g_assert_null (strstr (dyn_partiql_editor_get_status (editor (fixture)), "Load More"));

  /* After an edit, Load More starts the statement again from its first page
   * (a NextToken belongs to the text it came from). */
  g_assert_true (run (fixture));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, first);
  g_free (statement);
  statement = g_strdup_printf ("SELECT title FROM \"%s\" WHERE \"year\" = ?", movies);
  type_text (fixture, statement);
  dyn_partiql_editor_set_parameter (editor (fixture), 0, DYN_VALUE_N, "2013");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.partiql-load-more", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, first);
  g_free (line);
  line = dyn_partiql_editor_dup_result (editor (fixture), 0);
  g_assert_null (strstr (line, "\"genre\""));
}

static void
test_insert_confirm (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *statement = NULL;
  AdwMessageDialog *dialog;
  DynValue *stored;

  if (!ensure_tables ())
    return;
  connect (fixture, FALSE);

  statement = g_strdup_printf ("INSERT INTO \"%s\" VALUE {'year': 2020, 'title': 'Soul', 'genre': 'Animation'}", movies);
  type_text (fixture, statement);
  /* Typing never runs a write. */
  g_assert_null (get_movie (fixture, "2020", "Soul"));
  g_assert_null (find_dialog (fixture->window));

  /* Run asks first, naming table and key; Cancel writes nothing. */
  g_assert_true (run (fixture));
  dialog = find_dialog (fixture->window);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), movies));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "2020"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "Soul"));
  screenshot (fixture, "partiql-confirm.png");
  screenshot_of (GTK_WINDOW (dialog), "partiql-confirm-dialog.png");
  respond (dialog, "cancel");
  dyn_test_wait_idle (fixture->window);
  g_assert_null (get_movie (fixture, "2020", "Soul"));

  /* Confirmed: written. */
  g_assert_true (run (fixture));
  dialog = find_dialog (fixture->window);
  g_assert_nonnull (dialog);
  respond (dialog, "run");
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  stored = get_movie (fixture, "2020", "Soul");
  g_assert_nonnull (stored);
  g_assert_cmpstr (dyn_test_item_get_string (stored, "genre"), ==, "Animation");
  g_clear_pointer (&stored, dyn_value_unref);
  g_assert_nonnull (strstr (dyn_partiql_editor_get_status (editor (fixture)), "WCU"));
}

static void
test_read_only (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *statement = NULL;

  if (!ensure_tables ())
    return;
  connect (fixture, TRUE);

  statement = g_strdup_printf ("INSERT INTO \"%s\" VALUE {'id': 'ro1', 'n': 7}", plays);
  type_text (fixture, statement);
  g_assert_true (run (fixture));
  g_assert_null (find_dialog (fixture->window));
  g_assert_nonnull (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (fixture->window), "read-only"));
  {
    g_autoptr(DynValue) key = dyn_test_item ("{\"id\":{\"S\":\"ro1\"}}");
    g_autoptr(DynValue) stored = dyn_test_get_item (fixture->other, plays, key, TRUE);

    g_assert_null (stored);
  }

  /* Reads still run. */
  g_free (statement);
  statement = g_strdup_printf ("SELECT * FROM \"%s\" WHERE id = 'p1'", plays);
  type_text (fixture, statement);
  g_assert_true (run (fixture));
  g_assert_cmpuint (dyn_partiql_editor_get_n_results (editor (fixture)), ==, 1);
}

static void
test_transaction (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *statement = NULL;
  AdwMessageDialog *dialog;

  if (!ensure_tables ())
    return;
  connect (fixture, FALSE);

  /* Two writes, one question, one ExecuteTransaction: both or none. */
  statement = g_strdup_printf ("INSERT INTO \"%s\" VALUE {'id': 'tx1', 'n': 1};\n"
                               "UPDATE \"%s\" SET n = 2 WHERE id = 'p1'", plays, plays);
  type_text (fixture, statement);
  g_assert_true (run (fixture));
  dialog = find_dialog (fixture->window);
  g_assert_nonnull (dialog);
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Run 2 Writes?");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "tx1"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "p1"));
  respond (dialog, "run");
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (strstr (dyn_partiql_editor_get_status (editor (fixture)), "ExecuteTransaction"));
  {
    g_autoptr(DynValue) key1 = dyn_test_item ("{\"id\":{\"S\":\"tx1\"}}");
    g_autoptr(DynValue) key2 = dyn_test_item ("{\"id\":{\"S\":\"p1\"}}");
    g_autoptr(DynValue) stored1 = dyn_test_get_item (fixture->other, plays, key1, TRUE);
    g_autoptr(DynValue) stored2 = dyn_test_get_item (fixture->other, plays, key2, TRUE);

    g_assert_nonnull (stored1);
    g_assert_nonnull (stored2);
    g_assert_cmpstr (dyn_test_item_get_number (stored2, "n"), ==, "2");
  }
}

/* The button of the window with @action_name, or NULL. */
static GtkWidget *
find_action_button (GtkWidget  *widget,
                    const char *action_name)
{
  if (GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_action_button (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Items page's read bar (Load More, Load All of the grid) is not shown
 * on the PartiQL page, which pages by its own Load More; back on Items it is. */
static void
test_read_bar (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *load_all;

  if (!ensure_tables ())
    return;
  connect (fixture, FALSE);   /* shows the PartiQL page */

  load_all = find_action_button (GTK_WIDGET (fixture->window), "win.load-all");
  g_assert_nonnull (load_all);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "items"));
  dyn_test_wait_idle (fixture->window);
  g_assert_true (gtk_widget_is_visible (load_all));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-partiql", NULL));
  dyn_test_wait_idle (fixture->window);
  g_assert_false (gtk_widget_is_visible (load_all));
  screenshot (fixture, "partiql-read-bar.png");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.show-view", "s", "items"));
  dyn_test_wait_idle (fixture->window);
  g_assert_true (gtk_widget_is_visible (load_all));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-partiql");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-partiql/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("lint", test_lint);
  ADD ("parameters-paging", test_parameters_paging);
  ADD ("insert-confirm", test_insert_confirm);
  ADD ("read-only", test_read_only);
  ADD ("transaction", test_transaction);
  ADD ("read-bar", test_read_bar);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  g_free (movies);
  g_free (plays);
  g_free (tmp_dir);
  return status;
}
