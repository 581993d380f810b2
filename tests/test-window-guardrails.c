/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-guardrails"
#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-guardrail.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window.h"
#include "dyn-transfer-import-dialog.h"
#include "dyn-write-confirm-dialog.h"

/* Production connections in the real window under Xvfb against DynamoDB
 * Local: the header, read-only until unlocked, the confirmation before a
 * commit (Cancel writes nothing, Confirm writes once), the unlock running
 * out; and the hint when DynamoDB Local without -sharedDb lists no tables. */

static DynApplication *app;
static char *tmp_dir;

static const char *seed[] = {
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#1\"},\"Name\":{\"S\":\"Website\"},"
  "\"Status\":{\"S\":\"active\"}}",
  "{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#2\"},\"Name\":{\"S\":\"Data lake\"},"
  "\"Status\":{\"S\":\"draft\"}}",
};

typedef struct {
  DynWindow          *window;
  DynConnectionStore *store;
  DynClient          *other;
  char               *table;
} Fixture;

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

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), text) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
click_response (AdwMessageDialog *dialog,
                const char       *label)
{
  GtkWidget *button = find_button (GTK_WIDGET (dialog), label);

  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  dyn_test_iterate ();
}

/* Runs the main loop until @dialog is gone (five minutes at most). */
static void
wait_dialog_gone (DynWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 5 * 60 * G_USEC_PER_SEC;

  while (find_dialog (window) != NULL && g_get_monotonic_time () < deadline)
    {
      dyn_test_iterate ();
      g_usleep (2000);
    }
  g_assert_null (find_dialog (window));
}

/* Runs the main loop until a confirmation is shown (five minutes at most). */
static AdwMessageDialog *
wait_confirmation (DynWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 5 * 60 * G_USEC_PER_SEC;

  while (dyn_window_get_write_confirm_dialog (window) == NULL && g_get_monotonic_time () < deadline)
    {
      dyn_test_iterate ();
      g_usleep (2000);
    }
  g_assert_nonnull (dyn_window_get_write_confirm_dialog (window));
  g_assert_true (find_dialog (window) == ADW_MESSAGE_DIALOG (dyn_window_get_write_confirm_dialog (window)));
  return ADW_MESSAGE_DIALOG (dyn_window_get_write_confirm_dialog (window));
}

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

static DynItemObject *
row_for (Fixture    *fixture,
         const char *detail)
{
  g_autofree char *json = g_strdup_printf ("{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"%s\"}}", detail);
  g_autoptr(DynValue) key = dyn_test_item (json);

  return dyn_collection_model_lookup (dyn_window_get_model (fixture->window), key);
}

static void
present_window (Fixture *fixture)
{
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
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  g_autofree char *path = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autoptr(GError) error = NULL;

  if (server == NULL)
    return;
  fixture->other = dyn_test_client_new (server);
  fixture->table = dyn_test_table_name ("Orders");
  g_assert_true (dyn_test_create_table (fixture->other, fixture->table, "EntityRef:S", "Detail:S", NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (seed); i++)
    {
      g_autoptr(DynValue) item = dyn_test_item (seed[i]);

      g_assert_true (dyn_test_put_item (fixture->other, fixture->table, item, &error));
      g_assert_no_error (error);
    }
  g_unlink (path);
  fixture->store = dyn_connection_store_new (path);
  g_assert_true (dyn_connection_store_load (fixture->store, NULL));
  present_window (fixture);
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

static DynConnection *
add_connection (Fixture           *fixture,
                const char        *name,
                const char        *endpoint,
                DynProductionMode  mode)
{
  g_autoptr(DynConnection) connection = dyn_connection_new (name);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  dyn_connection_set_region (connection, DYN_TEST_REGION);
  dyn_connection_set_endpoint_url (connection, endpoint);
  dyn_connection_set_production_mode (connection, mode);
  dyn_connection_store_add_async (fixture->store, connection, NULL, NULL, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_connection_store_add_finish (fixture->store, dyn_test_wait (&result), &error));
  g_assert_no_error (error);
  return g_steal_pointer (&connection);
}

static void
open_table (Fixture       *fixture,
            DynConnection *connection)
{
  dyn_window_open_connection (fixture->window, connection);
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-table", "s", fixture->table));
  dyn_test_wait_idle (fixture->window);
  g_assert_null (dyn_window_get_error_text (fixture->window));
  g_assert_nonnull (dyn_window_get_edit_session (fixture->window));
  settle ();
}

static void
unlock (DynWindow *window)
{
  AdwMessageDialog *dialog;

  activate (window, "win.unlock-writes");
  dyn_test_iterate ();
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_heading (dialog), "Unlock Writes to"));
  click_response (dialog, "_Unlock Writes");
  wait_dialog_gone (window);
}

/* ------------------------------------------------------------------------ */

static void
test_production_commit (Fixture       *fixture,
                        gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  DynWindow *window = fixture->window;
  g_autoptr(DynConnection) connection = NULL;
  g_autoptr(DynValue) stored = NULL;
  g_autoptr(DynValue) paused = dyn_value_new_string ("paused");
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  DynGuardrail *guardrail;
  DynEditSession *session;
  AdwMessageDialog *dialog;
  DynWriteSummary *summary;
  const DynWriteEntry *entry;
  gint64 deadline;

  if (fixture->window == NULL)
    return;
  /* "Prod orders" matches the default pattern *prod*. */
  connection = add_connection (fixture, "Prod orders", dyn_test_server_get_endpoint (server), DYN_PRODUCTION_MODE_AUTO);
  open_table (fixture, connection);
  guardrail = dyn_window_get_guardrail (window);
  session = dyn_window_get_edit_session (window);

  /* The header says so, and writes are locked. */
  g_assert_true (dyn_guardrail_get_production (guardrail));
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production"));
  g_assert_nonnull (find_label (GTK_WIDGET (window), "PRODUCTION"));
  g_assert_true (gtk_widget_get_mapped (find_label (GTK_WIDGET (window), "PRODUCTION")));
  g_assert_nonnull (find_button (GTK_WIDGET (window), "Unlock Writes for 15 Minutes"));
  g_assert_true (dyn_edit_session_get_read_only (session));
  dyn_test_window_screenshot (GTK_WINDOW (window), "production.png", NULL);

  /* Refused: staging, the JSON editor. */
  g_assert_false (dyn_edit_session_stage_attribute (session, row_for (fixture, "PROJ#1"), "Status", paused, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  activate (window, "win.new-item");
  g_assert_null (dyn_window_get_item_editor (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "production connection"));
  activate (window, "win.dismiss-error");

  /* Unlocked: asked first; then a countdown in the header. */
  unlock (window);
  g_assert_true (dyn_guardrail_get_unlocked (guardrail));
  g_assert_false (dyn_edit_session_get_read_only (session));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production-unlocked"));
  g_assert_nonnull (find_button (GTK_WIDGET (window), "Writes unlocked · 15:00") != NULL
                    ? find_button (GTK_WIDGET (window), "Writes unlocked · 15:00")
                    : find_button (GTK_WIDGET (window), "Writes unlocked · 14:59"));

  /* A staged edit, then the commit: the confirmation lists table, key, guard and WCU. */
  g_assert_true (dyn_edit_session_stage_attribute (session, row_for (fixture, "PROJ#1"), "Status", paused, &error));
  g_assert_no_error (error);
  activate (window, "win.commit-changes");
  dialog = wait_confirmation (window);
  summary = dyn_write_confirm_dialog_get_summary (GTK_WIDGET (dialog));
  g_assert_cmpuint (dyn_write_summary_get_n_entries (summary), ==, 1);
  g_assert_cmpuint (dyn_write_confirm_dialog_get_n_rows (GTK_WIDGET (dialog)), ==, 1);
  entry = dyn_write_summary_get_entry (summary, 0);
  g_assert_cmpstr (entry->table, ==, fixture->table);
  g_assert_cmpstr (entry->key, ==, "WS#acme · PROJ#1");
  g_assert_cmpstr (entry->action, ==, "Update");
  g_assert_cmpstr (entry->guard, ==, "Guarded by the values it changes: Status is still \"active\"");
  g_assert_cmpfloat (entry->write_units, ==, 2);   /* 1 KB, in a transaction */
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "1 write · ~2 WCU in all"));
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Total: ~2 WCU"));
  text = g_strdup_printf ("%s · WS#acme · PROJ#1", fixture->table);
  settle ();
  dyn_test_window_screenshot (GTK_WINDOW (dialog), "production-confirm.png", NULL);

  /* Cancel: nothing is written, the change stays staged. */
  click_response (dialog, "_Cancel");
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_write_confirm_dialog (window));
  stored = server_item (fixture, "PROJ#1");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "active");
  g_clear_pointer (&stored, dyn_value_unref);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Cancelled: nothing was written");
  g_assert_cmpstr (dyn_staged_changes_get_status_text (dyn_window_get_staged_changes (window)), ==,
                   "Cancelled: nothing was written");

  /* Confirm: written once. */
  activate (window, "win.commit-changes");
  dialog = wait_confirmation (window);
  click_response (dialog, "_Write to Production");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 0);
  g_assert_cmpstr (dyn_window_get_status_text (window), ==, "Committed 1 change in 1 transaction");
  g_assert_null (dyn_window_get_write_confirm_dialog (window));
  stored = server_item (fixture, "PROJ#1");
  g_assert_cmpstr (dyn_test_item_get_string (stored, "Status"), ==, "paused");
  g_clear_pointer (&stored, dyn_value_unref);

  /* The countdown button locks at once. */
  activate (window, "win.unlock-writes");
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_null (find_dialog (window));
  g_assert_true (dyn_edit_session_get_read_only (session));

  /* The unlock runs out by itself (shortened through the API): locked again. */
  dyn_guardrail_set_unlock_seconds (guardrail, 1);
  unlock (window);
  g_assert_true (dyn_guardrail_get_unlocked (guardrail));
  deadline = g_get_monotonic_time () + 5 * 60 * G_USEC_PER_SEC;
  while (!dyn_guardrail_get_locked (guardrail) && g_get_monotonic_time () < deadline)
    {
      dyn_test_iterate ();
      g_usleep (10000);
    }
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_true (dyn_edit_session_get_read_only (session));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production-unlocked"));
  g_assert_false (dyn_edit_session_stage_attribute (session, row_for (fixture, "PROJ#2"), "Status", paused, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
}

static guint
scan_count (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynResponse) response = dyn_test_callf (fixture->other, "Scan", &error,
                                                    "{\"TableName\":\"%s\",\"Select\":\"COUNT\"}", fixture->table);

  g_assert_no_error (error);
  return json_object_get_int_member (json_node_get_object (response->root), "Count");
}

/* Truncate on an unlocked production connection: its own question, then the
 * guardrail's with the item count and cost first; Cancel deletes nothing,
 * Confirm deletes every item. Locked, it is refused before any question. */
static void
test_production_truncate (Fixture       *fixture,
                          gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  DynWindow *window = fixture->window;
  g_autoptr(DynConnection) connection = NULL;
  AdwMessageDialog *dialog;
  DynWriteSummary *summary;
  g_autofree char *headline = NULL;

  if (fixture->window == NULL)
    return;
  connection = add_connection (fixture, "Orders", dyn_test_server_get_endpoint (server), DYN_PRODUCTION_MODE_ON);
  open_table (fixture, connection);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-view", "s", "details"));
  dyn_test_wait_idle (window);
  settle ();

  /* Locked: the truncate's own question, then refused; nothing deleted. */
  activate (window, "win.truncate-table");
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  click_response (dialog, "_Truncate");
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_write_confirm_dialog (window));
  g_assert_nonnull (strstr (dyn_window_get_error_text (window), "production connection"));
  g_assert_cmpuint (scan_count (fixture), ==, G_N_ELEMENTS (seed));
  activate (window, "win.dismiss-error");

  unlock (window);
  activate (window, "win.truncate-table");
  dialog = find_dialog (window);
  g_assert_nonnull (dialog);
  click_response (dialog, "_Truncate");
  dialog = wait_confirmation (window);
  summary = dyn_write_confirm_dialog_get_summary (GTK_WIDGET (dialog));
  g_assert_true (dyn_write_summary_is_bulk (summary));
  headline = dyn_write_summary_dup_headline (summary);
  g_assert_true (g_str_has_suffix (headline, "WCU in all"));
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (dialog), headline));
  g_assert_cmpstr (dyn_write_summary_get_entry (summary, 0)->table, ==, fixture->table);
  click_response (dialog, "_Cancel");
  dyn_test_wait_idle (window);
  g_assert_cmpuint (scan_count (fixture), ==, G_N_ELEMENTS (seed));

  activate (window, "win.truncate-table");
  click_response (find_dialog (window), "_Truncate");
  dialog = wait_confirmation (window);
  click_response (dialog, "_Write to Production");
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpuint (scan_count (fixture), ==, 0);
}

static void
wait_import (DynTransferImportDialog *dialog)
{
  gint64 deadline = g_get_monotonic_time () + 5 * 60 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline &&
         (dyn_transfer_import_dialog_get_state (dialog) == DYN_TRANSFER_STATE_RUNNING ||
          dyn_transfer_import_dialog_get_state (dialog) == DYN_TRANSFER_STATE_CHECKING))
    {
      dyn_test_iterate ();
      g_usleep (5000);
    }
  settle ();
}

/* Import on an unlocked production connection: the item count and cost of
 * the dry run first; Cancel imports nothing, Confirm imports every item. */
static void
test_production_import (Fixture       *fixture,
                        gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  DynWindow *window = fixture->window;
  g_autoptr(DynConnection) connection = NULL;
  g_autofree char *path = g_build_filename (tmp_dir, "orders.json", NULL);
  DynTransferImportDialog *import;
  AdwMessageDialog *dialog;
  DynWriteSummary *summary;

  if (fixture->window == NULL)
    return;
  g_assert_true (g_file_set_contents (path,
    "{\"Item\":{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#10\"}}}\n"
    "{\"Item\":{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#11\"}}}\n"
    "{\"Item\":{\"EntityRef\":{\"S\":\"WS#acme\"},\"Detail\":{\"S\":\"PROJ#12\"}}}\n", -1, NULL));
  connection = add_connection (fixture, "Orders live", dyn_test_server_get_endpoint (server), DYN_PRODUCTION_MODE_ON);
  open_table (fixture, connection);

  /* Locked: Import is not offered. */
  activate (window, "win.import");
  g_assert_null (dyn_window_get_transfer_dialog (window));

  unlock (window);
  activate (window, "win.import");
  settle ();
  import = DYN_TRANSFER_IMPORT_DIALOG (dyn_window_get_transfer_dialog (window));
  g_assert_nonnull (import);
  dyn_transfer_import_dialog_set_input (import, path);
  wait_import (import);
  g_assert_nonnull (dyn_transfer_import_dialog_get_dry_run (import));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "transfer.start", NULL));
  dialog = wait_confirmation (window);
  summary = dyn_write_confirm_dialog_get_summary (GTK_WIDGET (dialog));
  g_assert_true (dyn_write_summary_is_bulk (summary));
  g_assert_cmpuint (dyn_write_summary_get_count (summary), ==, 3);
  g_assert_cmpfloat (dyn_write_summary_get_write_units (summary), ==, 3);
  g_assert_true (g_str_has_prefix (adw_message_dialog_get_body (dialog), "3 items · ~3 WCU in all"));
  click_response (dialog, "_Cancel");
  wait_import (import);
  g_assert_cmpuint (scan_count (fixture), ==, G_N_ELEMENTS (seed));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (import), "transfer.start", NULL));
  dialog = wait_confirmation (window);
  click_response (dialog, "_Write to Production");
  settle ();
  wait_import (import);
  g_assert_cmpint (dyn_transfer_import_dialog_get_state (import), ==, DYN_TRANSFER_STATE_DONE);
  g_assert_cmpuint (scan_count (fixture), ==, G_N_ELEMENTS (seed) + 3);
  gtk_window_destroy (GTK_WINDOW (import));
  settle ();
}

/* "Never" is never production, whatever its name; "Always" is, whatever its name. */
static void
test_production_modes (Fixture       *fixture,
                       gconstpointer  data)
{
  DynTestServer *server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  DynWindow *window = fixture->window;
  g_autoptr(DynConnection) never = NULL;
  g_autoptr(DynConnection) always = NULL;
  DynGuardrail *guardrail;

  if (fixture->window == NULL)
    return;
  never = add_connection (fixture, "prod but local", dyn_test_server_get_endpoint (server), DYN_PRODUCTION_MODE_OFF);
  always = add_connection (fixture, "Scratch", dyn_test_server_get_endpoint (server), DYN_PRODUCTION_MODE_ON);
  guardrail = dyn_window_get_guardrail (window);

  open_table (fixture, never);
  g_assert_false (dyn_guardrail_get_production (guardrail));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production"));
  g_assert_false (dyn_edit_session_get_read_only (dyn_window_get_edit_session (window)));

  open_table (fixture, always);
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production"));
  g_assert_true (dyn_edit_session_get_read_only (dyn_window_get_edit_session (window)));

  /* Production › Never in the menu: the header plain, writable, saved. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "guard.production-mode", "s", "off"));
  dyn_test_wait_idle (window);
  g_assert_cmpint (dyn_connection_get_production_mode (always), ==, DYN_PRODUCTION_MODE_OFF);
  g_assert_false (dyn_guardrail_get_production (guardrail));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production"));
  g_assert_false (dyn_edit_session_get_read_only (dyn_window_get_edit_session (window)));
  {
    g_autofree char *ini = NULL;

    g_assert_true (g_file_get_contents (dyn_connection_store_get_path (fixture->store), &ini, NULL, NULL));
    g_assert_nonnull (strstr (ini, "production=off"));
  }

  /* Automatic, with the user's patterns: "scratch*" makes it production. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "guard.production-mode", "s", "auto"));
  g_assert_false (dyn_guardrail_get_production (guardrail));
  {
    g_autoptr(GSettings) settings = g_settings_new ("io.github.dynoscope.Dynoscope");
    const char *patterns[] = { "SCRATCH*", NULL };

    g_settings_set_strv (settings, "production-patterns", patterns);
    settle ();
    g_assert_true (dyn_guardrail_get_locked (guardrail));
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dyn-production"));
    g_settings_reset (settings, "production-patterns");
    settle ();
    g_assert_false (dyn_guardrail_get_production (guardrail));
  }
}

/* DynamoDB Local without -sharedDb: tables made with key A are not there for
 * key B; the sidebar says why instead of an empty list. */
static void
test_empty_local_hint (Fixture       *fixture,
                       gconstpointer  data)
{
  DynTestServer *server;
  g_autoptr(DynCredentialsProvider) provider_a = NULL;
  g_autoptr(DynClient) client_a = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *config = NULL;
  g_autofree char *credentials = NULL;
  g_autofree char *config_text = NULL;
  g_autofree char *table = dyn_test_table_name ("PerKey");
  g_autoptr(DynConnectionStore) store = NULL;
  g_autofree char *expected = NULL;
  DynConnection *connection;
  DynWindow *window = fixture->window;
  const char *status;

  if (fixture->window == NULL)
    return;
  server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL_PER_KEY);
  if (server == NULL)
    return;
  provider_a = dyn_credentials_provider_new_static ("keyAlpha", "secretAlpha", NULL);
  client_a = dyn_client_new (dyn_test_server_get_endpoint (server), DYN_TEST_REGION, provider_a, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_test_create_table (client_a, table, "pk:S", NULL, NULL, &error));
  g_assert_no_error (error);

  /* A profile with key B pointing at the same server. */
  config = g_build_filename (tmp_dir, "aws-config", NULL);
  credentials = g_build_filename (tmp_dir, "aws-credentials", NULL);
  config_text = g_strdup_printf ("[profile local-b]\nregion = %s\nendpoint_url = %s\n", DYN_TEST_REGION,
                                 dyn_test_server_get_endpoint (server));
  g_assert_true (g_file_set_contents (config, config_text, -1, NULL));
  g_assert_true (g_file_set_contents (credentials, "[local-b]\naws_access_key_id = keyBravo\n"
                                                   "aws_secret_access_key = secretBravo\n", -1, NULL));
  g_setenv ("AWS_CONFIG_FILE", config, TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", credentials, TRUE);
  g_assert_true (dyn_connection_store_load (fixture->store, &error));
  g_assert_no_error (error);
  connection = dyn_connection_store_lookup (fixture->store, "profile:local-b");
  g_assert_nonnull (connection);

  dyn_window_open_connection (window, connection);
  dyn_test_wait_idle (window);
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpuint (g_strv_length ((GStrv) dyn_window_get_tables (window)), ==, 0);
  status = adw_status_page_get_description (dyn_window_get_empty_page (window));
  expected = g_strdup_printf ("No tables for access key “keyBravo” in region %s. DynamoDB Local without -sharedDb "
                              "keeps one database per access key and region — connect with the keys and region "
                              "that created the tables, or start it with -sharedDb.", DYN_TEST_REGION);
  g_assert_cmpstr (status, ==, expected);
  g_assert_cmpstr (adw_status_page_get_title (dyn_window_get_empty_page (window)), ==, "No Tables");
  settle ();
  dyn_test_window_screenshot (GTK_WINDOW (window), "local-per-key-hint.png", NULL);

  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  dyn_test_delete_table (client_a, table, NULL);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-guardrails");
  if (tmp_dir == NULL)
    return 0;

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-guardrails/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("production-commit", test_production_commit);
  ADD ("production-truncate", test_production_truncate);
  ADD ("production-import", test_production_import);
  ADD ("production-modes", test_production_modes);
  ADD ("empty-local-hint", test_empty_local_hint);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  return status;
}
