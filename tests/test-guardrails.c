/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Production connections: DynConnection's IAM Identity Center fields and its
 * production setting. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dyn-connection.h"
#include "dyn-edit-session.h"
#include "dyn-error.h"
#include "dyn-guardrail.h"
#include "dyn-test-util.h"

/* Helpers ------------------------------------------------------------------------ */

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

/* A folder of its own for one test, removed by the caller with rm_rf(). */
static char *
make_temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("dyn-guardrails-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
rm_rf (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR))
            rm_rf (child);
          else
            g_unlink (child);
        }
    }
  g_rmdir (path);
}

static DynSharedConfig *
write_shared_config (const char *dir,
                     const char *config_text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *config = g_build_filename (dir, "config", NULL);
  g_autofree char *credentials = g_build_filename (dir, "credentials", NULL);
  DynSharedConfig *shared;

  g_assert_true (g_file_set_contents (config, config_text, -1, &error));
  g_assert_no_error (error);
  shared = dyn_shared_config_load_from_files (config, credentials, &error);
  g_assert_no_error (error);
  return shared;
}

static DynConnectionStore *
load_store (const char      *path,
            DynSharedConfig *shared)
{
  g_autoptr(GError) error = NULL;
  DynConnectionStore *store = dyn_connection_store_new (path);

  g_assert_true (dyn_connection_store_load_with_config (store, shared, &error));
  g_assert_no_error (error);
  return store;
}

/* DynConnection: IAM Identity Center fields, production ------------------------- */

static void
test_connection_sso_properties (void)
{
  g_autoptr(DynConnection) connection = dyn_connection_new ("Work");
  g_autoptr(GEnumClass) modes = g_type_class_ref (DYN_TYPE_PRODUCTION_MODE);
  g_autofree char *start_url = NULL;
  DynProductionMode mode;
  guint notified = 0;

  g_assert_null (dyn_connection_get_sso_start_url (connection));
  g_assert_null (dyn_connection_get_sso_session (connection));
  g_assert_cmpint (dyn_connection_get_production_mode (connection), ==, DYN_PRODUCTION_MODE_AUTO);

  g_signal_connect (connection, "notify", G_CALLBACK (count_notify_cb), &notified);
  dyn_connection_set_sso_start_url (connection, "https://example.awsapps.com/start");
  dyn_connection_set_sso_start_url (connection, "https://example.awsapps.com/start");
  g_assert_cmpuint (notified, ==, 1);
  dyn_connection_set_sso_region (connection, "eu-west-1");
  dyn_connection_set_sso_session (connection, "work");
  dyn_connection_set_sso_account_id (connection, "111122223333");
  dyn_connection_set_sso_role_name (connection, "ReadOnly");
  dyn_connection_set_production_mode (connection, DYN_PRODUCTION_MODE_ON);
  dyn_connection_set_production_mode (connection, DYN_PRODUCTION_MODE_ON);
  g_assert_cmpuint (notified, ==, 6);

  /* An empty session is no session (legacy login). */
  dyn_connection_set_sso_session (connection, "");
  g_assert_null (dyn_connection_get_sso_session (connection));
  g_assert_cmpuint (notified, ==, 7);

  g_object_get (connection, "sso-start-url", &start_url, "production-mode", &mode, NULL);
  g_assert_cmpstr (start_url, ==, "https://example.awsapps.com/start");
  g_assert_cmpint (mode, ==, DYN_PRODUCTION_MODE_ON);
  g_assert_cmpstr (dyn_connection_get_sso_region (connection), ==, "eu-west-1");
  g_assert_cmpstr (dyn_connection_get_sso_account_id (connection), ==, "111122223333");
  g_assert_cmpstr (dyn_connection_get_sso_role_name (connection), ==, "ReadOnly");
  g_assert_cmpstr (g_enum_get_value (modes, DYN_PRODUCTION_MODE_OFF)->value_nick, ==, "off");

  g_assert_finalize_object (g_steal_pointer (&connection));
}

static void
test_connection_is_production (void)
{
  const char *const patterns[] = { "*prod*", "", "123456789012", NULL };
  const char *const other_patterns[] = { "live-?", NULL };
  g_autoptr(DynConnection) profile = dyn_connection_new_for_profile ("Payments-PROD-admin");
  g_autoptr(DynConnection) user = dyn_connection_new ("Staging");
  g_autoptr(DynConnection) sso = dyn_connection_new ("Work portal");

  /* Automatic: the profile name, case-insensitive. */
  g_assert_true (dyn_connection_is_production (profile, patterns, NULL));
  g_assert_false (dyn_connection_is_production (profile, other_patterns, NULL));
  g_assert_false (dyn_connection_is_production (profile, NULL, NULL));
  /* The connection's name. */
  g_assert_false (dyn_connection_is_production (user, patterns, NULL));
  dyn_connection_set_name (user, "Production EU");
  g_assert_true (dyn_connection_is_production (user, patterns, NULL));
  dyn_connection_set_name (user, "LIVE-1");
  g_assert_true (dyn_connection_is_production (user, other_patterns, NULL));
  dyn_connection_set_name (user, "live-12");
  g_assert_false (dyn_connection_is_production (user, other_patterns, NULL));
  /* The account: the caller's (GetCallerIdentity) or the IAM Identity Center one. */
  g_assert_false (dyn_connection_is_production (sso, patterns, "210987654321"));
  g_assert_true (dyn_connection_is_production (sso, patterns, "123456789012"));
  dyn_connection_set_sso_account_id (sso, "123456789012");
  g_assert_true (dyn_connection_is_production (sso, patterns, NULL));

  /* Always and never win over the patterns. */
  dyn_connection_set_production_mode (profile, DYN_PRODUCTION_MODE_OFF);
  g_assert_false (dyn_connection_is_production (profile, patterns, NULL));
  dyn_connection_set_production_mode (user, DYN_PRODUCTION_MODE_ON);
  dyn_connection_set_name (user, "Staging");
  g_assert_true (dyn_connection_is_production (user, NULL, NULL));
}

static void
test_connection_save_sso (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = make_temp_dir ();
  g_autofree char *path = g_build_filename (dir, "dynoscope", "connections.ini", NULL);
  g_autoptr(DynSharedConfig) shared = write_shared_config (dir, "[profile prod-admin]\nregion = eu-west-1\n"
                                                                "[profile dev]\nregion = eu-west-1\n");
  g_autoptr(DynConnectionStore) store = load_store (path, shared);
  g_autoptr(DynConnectionStore) reloaded = NULL;
  g_autoptr(DynConnection) sso = dyn_connection_new ("Work portal");
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *ini = NULL;
  g_autofree char *id = g_strdup (dyn_connection_get_id (sso));
  DynConnection *found;

  dyn_connection_set_region (sso, "eu-central-1");
  dyn_connection_set_sso_start_url (sso, "https://example.awsapps.com/start");
  dyn_connection_set_sso_region (sso, "eu-west-1");
  dyn_connection_set_sso_session (sso, "work");
  dyn_connection_set_sso_account_id (sso, "111122223333");
  dyn_connection_set_sso_role_name (sso, "Admin");
  dyn_connection_set_production_mode (sso, DYN_PRODUCTION_MODE_ON);
  dyn_connection_store_add_async (store, sso, NULL, NULL, NULL, dyn_test_result_cb, &result);
  g_assert_true (dyn_connection_store_add_finish (store, dyn_test_wait (&result), &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  /* A profile connection keeps its production setting too. */
  found = dyn_connection_store_lookup (store, "profile:dev");
  g_assert_nonnull (found);
  dyn_connection_set_production_mode (found, DYN_PRODUCTION_MODE_OFF);
  g_assert_true (dyn_connection_store_save (store, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (path, &ini, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (ini, "sso-start-url=https://example.awsapps.com/start"));
  g_assert_nonnull (strstr (ini, "production=on"));
  g_assert_nonnull (strstr (ini, "production=off"));
  /* The automatic profile with nothing else of ours is not written. */
  g_assert_null (strstr (ini, "[profile:prod-admin]"));

  reloaded = load_store (path, shared);
  found = dyn_connection_store_lookup (reloaded, id);
  g_assert_nonnull (found);
  g_assert_true (found != sso);
  g_assert_cmpstr (dyn_connection_get_region (found), ==, "eu-central-1");
  g_assert_cmpstr (dyn_connection_get_sso_start_url (found), ==, "https://example.awsapps.com/start");
  g_assert_cmpstr (dyn_connection_get_sso_region (found), ==, "eu-west-1");
  g_assert_cmpstr (dyn_connection_get_sso_session (found), ==, "work");
  g_assert_cmpstr (dyn_connection_get_sso_account_id (found), ==, "111122223333");
  g_assert_cmpstr (dyn_connection_get_sso_role_name (found), ==, "Admin");
  g_assert_cmpint (dyn_connection_get_production_mode (found), ==, DYN_PRODUCTION_MODE_ON);
  g_assert_null (dyn_connection_get_access_key_id (found));
  g_assert_cmpint (dyn_connection_get_production_mode (dyn_connection_store_lookup (reloaded, "profile:dev")),
                   ==, DYN_PRODUCTION_MODE_OFF);
  g_assert_cmpint (dyn_connection_get_production_mode (dyn_connection_store_lookup (reloaded, "profile:prod-admin")),
                   ==, DYN_PRODUCTION_MODE_AUTO);

  g_clear_object (&store);
  g_clear_object (&reloaded);
  rm_rf (dir);
}

/* An IAM Identity Center connection that lacks the region, account or role
 * says which setting is missing instead of connecting. */
static void
test_connection_sso_incomplete (void)
{
  g_autoptr(DynConnection) sso = dyn_connection_new ("Half portal");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynClient) client = NULL;

  dyn_connection_set_region (sso, "eu-central-1");
  dyn_connection_set_sso_start_url (sso, "https://example.awsapps.com/start");
  dyn_connection_set_sso_region (sso, "eu-west-1");
  dyn_connection_set_sso_account_id (sso, "111122223333");
  dyn_connection_create_client_async (sso, NULL, NULL, dyn_test_result_cb, &result);
  client = dyn_connection_create_client_finish (sso, dyn_test_wait (&result), &error);
  g_assert_null (client);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "sso-role-name"));
  g_assert_nonnull (strstr (error->message, "Half portal"));
}

/* Write summaries --------------------------------------------------------------- */

static const DynKeySchema test_keys = { "pk", DYN_VALUE_S, "sk", DYN_VALUE_N };

/* An item of about @size bytes as DynamoDB counts them. */
static DynValue *
sized_item (const char *pk,
            const char *sk,
            gsize       size)
{
  g_autofree char *filler = NULL;
  g_autoptr(DynValue) probe = dyn_test_itemf ("{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"%s\"}, \"data\": {\"S\": \"\"}}",
                                              pk, sk);
  gsize base = dyn_item_size (probe);

  g_assert_cmpuint (size, >=, base);
  filler = g_strnfill (size - base, 'x');
  return dyn_test_itemf ("{\"pk\": {\"S\": \"%s\"}, \"sk\": {\"N\": \"%s\"}, \"data\": {\"S\": \"%s\"}}",
                         pk, sk, filler);
}

static void
test_item_write_units (void)
{
  g_autoptr(DynValue) small = sized_item ("a", "1", 100);
  g_autoptr(DynValue) exact = sized_item ("a", "1", 1024);
  g_autoptr(DynValue) over = sized_item ("a", "1", 1025);
  g_autoptr(DynValue) big = sized_item ("a", "1", 5000);
  g_autofree char *text = NULL;

  g_assert_cmpuint (dyn_item_size (exact), ==, 1024);
  g_assert_cmpfloat (dyn_item_write_units (small), ==, 1);
  g_assert_cmpfloat (dyn_item_write_units (exact), ==, 1);
  g_assert_cmpfloat (dyn_item_write_units (over), ==, 2);
  g_assert_cmpfloat (dyn_item_write_units (big), ==, 5);
  text = dyn_format_write_units (5);
  g_assert_cmpstr (text, ==, "~5 WCU");
}

/* One change of each kind in one transaction: key, guard and WCU per entry,
 * ×2 for the transaction, totals. */
static void
test_summary_change_set (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("Orders", &test_keys);
  g_autoptr(DynValue) before = sized_item ("acme", "7", 1500);
  g_autoptr(DynValue) after = sized_item ("acme", "7", 2100);
  g_autoptr(DynValue) created = sized_item ("new", "1", 200);
  g_autoptr(DynValue) deleted = sized_item ("old", "2", 3000);
  g_autoptr(DynWriteSummary) summary = NULL;
  g_autofree char *guard0 = NULL;
  g_autofree char *headline = NULL;
  g_autofree char *text = NULL;
  const DynWriteEntry *entry;

  g_assert_cmpint (dyn_change_set_add (set, before, after, &error), ==, 0);
  g_assert_cmpint (dyn_change_set_add (set, NULL, created, &error), ==, 1);
  g_assert_cmpint (dyn_change_set_add (set, deleted, NULL, &error), ==, 2);
  g_assert_no_error (error);

  summary = dyn_write_summary_new_for_change_set (set, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_write_summary_get_title (summary), ==, "Commit 3 changes to Orders");
  g_assert_cmpuint (dyn_write_summary_get_n_entries (summary), ==, 3);
  g_assert_false (dyn_write_summary_is_bulk (summary));
  g_assert_cmpuint (dyn_write_summary_get_count (summary), ==, 3);

  /* The update: the larger item (2100 bytes: 3 KB units), ×2 in the transaction. */
  entry = dyn_write_summary_get_entry (summary, 0);
  g_assert_cmpstr (entry->table, ==, "Orders");
  g_assert_cmpstr (entry->key, ==, "acme · 7");
  g_assert_cmpstr (entry->action, ==, "Update");
  guard0 = dyn_change_set_describe_guard (set, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry->guard, ==, guard0);
  g_assert_true (g_str_has_prefix (entry->guard, "Guarded by"));
  g_assert_cmpfloat (entry->write_units, ==, 6);
  /* The create: 1 KB, ×2; guarded by the key not existing. */
  entry = dyn_write_summary_get_entry (summary, 1);
  g_assert_cmpstr (entry->key, ==, "new · 1");
  g_assert_cmpstr (entry->action, ==, "Create");
  g_assert_nonnull (entry->guard);
  g_assert_cmpfloat (entry->write_units, ==, 2);
  /* The delete: 3000 bytes → 3, ×2. */
  entry = dyn_write_summary_get_entry (summary, 2);
  g_assert_cmpstr (entry->key, ==, "old · 2");
  g_assert_cmpstr (entry->action, ==, "Delete");
  g_assert_cmpfloat (entry->write_units, ==, 6);

  g_assert_cmpfloat (dyn_write_summary_get_write_units (summary), ==, 14);
  headline = dyn_write_summary_dup_headline (summary);
  g_assert_cmpstr (headline, ==, "3 writes · ~14 WCU in all");
  text = dyn_write_summary_to_text (summary);
  g_assert_nonnull (strstr (text, "Orders · acme · 7 — Update — Guarded by"));
  g_assert_nonnull (strstr (text, "Total: ~14 WCU"));
}

/* A single change sent as a plain request costs once; a key change is a
 * delete and a create in one transaction. */
static void
test_summary_single_and_key_change (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynChangeSet) single = dyn_change_set_new ("Orders", &test_keys);
  g_autoptr(DynChangeSet) rekey = dyn_change_set_new ("Orders", &test_keys);
  g_autoptr(DynValue) before = sized_item ("acme", "7", 1500);
  g_autoptr(DynValue) after = sized_item ("acme", "7", 1600);
  g_autoptr(DynValue) moved = sized_item ("acme", "8", 1500);
  g_autoptr(DynWriteSummary) summary = NULL;
  const DynWriteEntry *entry;

  dyn_change_set_set_single_requests (single, TRUE);
  g_assert_cmpint (dyn_change_set_add (single, before, after, &error), ==, 0);
  summary = dyn_write_summary_new_for_change_set (single, "Save acme", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_write_summary_get_title (summary), ==, "Save acme");
  g_assert_cmpfloat (dyn_write_summary_get_entry (summary, 0)->write_units, ==, 2);
  g_clear_pointer (&summary, dyn_write_summary_unref);

  g_assert_cmpint (dyn_change_set_add (rekey, before, moved, &error), ==, 0);
  summary = dyn_write_summary_new_for_change_set (rekey, NULL, &error);
  g_assert_no_error (error);
  entry = dyn_write_summary_get_entry (summary, 0);
  g_assert_cmpstr (entry->action, ==, "Key change");
  g_assert_cmpstr (entry->key, ==, "acme · 7 → acme · 8");
  g_assert_cmpfloat (entry->write_units, ==, 8);
}

/* Many deletes are bulk: the count and the cost come first. */
static void
test_summary_bulk (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynChangeSet) set = dyn_change_set_new ("Orders", &test_keys);
  g_autoptr(DynWriteSummary) summary = NULL;
  g_autoptr(DynWriteSummary) import = NULL;
  g_autofree char *headline = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *sk = g_strdup_printf ("%u", i);
      g_autoptr(DynValue) item = sized_item ("bulk", sk, 100);

      g_assert_cmpint (dyn_change_set_add (set, item, NULL, &error), ==, (int) i);
    }
  summary = dyn_write_summary_new_for_change_set (set, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_write_summary_is_bulk (summary));
  g_assert_cmpuint (dyn_write_summary_get_count (summary), ==, 30);
  g_assert_cmpfloat (dyn_write_summary_get_write_units (summary), ==, 60);
  headline = dyn_write_summary_dup_headline (summary);
  g_assert_cmpstr (headline, ==, "30 items · ~60 WCU in all");
  text = dyn_write_summary_to_text (summary);
  /* Title, then the count and cost, then the entries. */
  g_assert_true (g_str_has_prefix (text, "Commit 30 changes to Orders\n30 items · ~60 WCU in all\nOrders · bulk · 0 — Delete"));
  g_clear_pointer (&headline, g_free);

  import = dyn_write_summary_new_bulk ("Import orders.json into Orders", "Orders", "Import", 12000, 12500);
  g_assert_true (dyn_write_summary_is_bulk (import));
  g_assert_cmpuint (dyn_write_summary_get_n_entries (import), ==, 1);
  headline = dyn_write_summary_dup_headline (import);
  g_assert_nonnull (strstr (headline, "items · ~12"));
}

/* The lock --------------------------------------------------------------------- */

typedef struct {
  guint            asked;
  DynWriteSummary *summary;
  GTask           *request;
} Asked;

static void
confirm_cb (DynGuardrail    *guardrail,
            DynWriteSummary *summary,
            GTask           *request,
            gpointer         user_data)
{
  Asked *asked = user_data;

  asked->asked++;
  g_clear_pointer (&asked->summary, dyn_write_summary_unref);
  asked->summary = dyn_write_summary_ref (summary);
  g_clear_object (&asked->request);
  asked->request = g_object_ref (request);
}

static gboolean
approve (DynGuardrail    *guardrail,
         DynWriteSummary *summary,
         Asked           *asked,
         gboolean         answer,
         GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_guardrail_approve_async (guardrail, summary, NULL, dyn_test_result_cb, &result);
  if (asked->request != NULL && result == NULL)
    {
      g_autoptr(GTask) request = g_steal_pointer (&asked->request);

      dyn_guardrail_reply (request, answer);
    }
  return dyn_guardrail_approve_finish (guardrail, dyn_test_wait (&result), error);
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
test_guardrail_lock (void)
{
  g_autoptr(DynGuardrail) guardrail = dyn_guardrail_new ();
  g_autoptr(DynWriteSummary) summary = dyn_write_summary_new_bulk ("Truncate Orders", "Orders", "Truncate", 3, 3);
  g_autoptr(GError) error = NULL;
  Asked asked = { 0 };
  guint locked_notified = 0;

  dyn_guardrail_set_confirm_func (guardrail, confirm_cb, &asked, NULL);
  g_signal_connect (guardrail, "notify::locked", G_CALLBACK (notify_count_cb), &locked_notified);

  /* Not production: nothing is asked. */
  g_assert_false (dyn_guardrail_get_locked (guardrail));
  g_assert_true (dyn_guardrail_check_write (guardrail, &error));
  g_assert_true (approve (guardrail, summary, &asked, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (asked.asked, ==, 0);
  dyn_guardrail_unlock (guardrail);
  g_assert_false (dyn_guardrail_get_unlocked (guardrail));

  /* Production: read-only by default. */
  dyn_guardrail_set_production (guardrail, TRUE);
  g_assert_cmpuint (locked_notified, ==, 1);
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_false (dyn_guardrail_check_write (guardrail, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_false (approve (guardrail, summary, &asked, TRUE, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_assert_cmpuint (asked.asked, ==, 0);

  /* Unlocked: each write is confirmed; Cancel refuses it. */
  dyn_guardrail_unlock (guardrail);
  g_assert_cmpuint (locked_notified, ==, 2);
  g_assert_false (dyn_guardrail_get_locked (guardrail));
  g_assert_true (dyn_guardrail_get_unlocked (guardrail));
  g_assert_cmpuint (dyn_guardrail_get_remaining_seconds (guardrail), >, 14 * 60);
  g_assert_cmpuint (dyn_guardrail_get_remaining_seconds (guardrail), <=, 15 * 60);
  g_assert_false (approve (guardrail, summary, &asked, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_assert_cmpuint (asked.asked, ==, 1);
  g_assert_true (asked.summary == summary);
  g_assert_true (approve (guardrail, summary, &asked, TRUE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (asked.asked, ==, 2);

  /* Lock by hand; production off and on again stays locked. */
  dyn_guardrail_lock (guardrail);
  g_assert_true (dyn_guardrail_get_locked (guardrail));
  g_assert_cmpuint (dyn_guardrail_get_remaining_seconds (guardrail), ==, 0);
  dyn_guardrail_unlock (guardrail);
  dyn_guardrail_set_production (guardrail, FALSE);
  dyn_guardrail_set_production (guardrail, TRUE);
  g_assert_true (dyn_guardrail_get_locked (guardrail));

  /* Without anyone to confirm, an unlocked write is refused. */
  dyn_guardrail_set_confirm_func (guardrail, NULL, NULL, NULL);
  dyn_guardrail_unlock (guardrail);
  g_assert_false (approve (guardrail, summary, &asked, TRUE, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);

  g_clear_pointer (&asked.summary, dyn_write_summary_unref);
  g_assert_finalize_object (g_steal_pointer (&guardrail));
}

static void
locked_cb (GObject    *object,
           GParamSpec *pspec,
           gboolean   *locked)
{
  *locked = dyn_guardrail_get_locked (DYN_GUARDRAIL (object));
}

/* The unlock ends by itself; a confirmation given after that is refused. */
static void
test_guardrail_expiry (void)
{
  g_autoptr(DynGuardrail) guardrail = dyn_guardrail_new ();
  g_autoptr(DynWriteSummary) summary = dyn_write_summary_new_bulk ("Truncate Orders", "Orders", "Truncate", 3, 3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GTask) request = NULL;
  Asked asked = { 0 };
  gboolean locked = FALSE;
  gint64 deadline = g_get_monotonic_time () + 5 * 60 * G_USEC_PER_SEC;

  dyn_guardrail_set_confirm_func (guardrail, confirm_cb, &asked, NULL);
  dyn_guardrail_set_production (guardrail, TRUE);
  dyn_guardrail_set_unlock_seconds (guardrail, 1);
  dyn_guardrail_unlock (guardrail);
  g_assert_cmpuint (dyn_guardrail_get_remaining_seconds (guardrail), ==, 1);

  /* The question is open when the time runs out. */
  dyn_guardrail_approve_async (guardrail, summary, NULL, dyn_test_result_cb, &result);
  g_assert_cmpuint (asked.asked, ==, 1);
  request = g_steal_pointer (&asked.request);

  g_signal_connect (guardrail, "notify::locked", G_CALLBACK (locked_cb), &locked);
  while (!locked && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (locked);
  g_assert_true (dyn_guardrail_get_locked (guardrail));

  dyn_guardrail_reply (request, TRUE);
  g_assert_false (dyn_guardrail_approve_finish (guardrail, dyn_test_wait (&result), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);

  g_clear_pointer (&asked.summary, dyn_write_summary_unref);
}

/* An edit session with a guardrail: a locked production connection sends
 * nothing, Cancel sends nothing, and the summary asked about is the set's. */
static void
test_guardrail_session (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCredentialsProvider) provider = dyn_credentials_provider_new_static ("AKIDGUARDRAIL", "guardrail-test", NULL);
  g_autoptr(DynClient) client = NULL;
  g_autoptr(DynEditSession) session = NULL;
  g_autoptr(DynGuardrail) guardrail = dyn_guardrail_new ();
  g_autoptr(DynValue) item = sized_item ("acme", "7", 1500);
  g_autoptr(DynCommitResult) commit = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  Asked asked = { 0 };

  /* Port 9 on loopback: nothing listens; a write that is sent fails there. */
  client = dyn_client_new ("http://127.0.0.1:9", "us-east-1", provider, &error);
  g_assert_no_error (error);
  dyn_client_set_retry (client, 1, 1, 1);
  session = dyn_edit_session_new (client, "Orders", &test_keys);
  g_assert_nonnull (dyn_edit_session_stage_create (session, item, &error));
  g_assert_no_error (error);
  dyn_edit_session_set_guardrail (session, guardrail);
  g_assert_true (dyn_edit_session_get_guardrail (session) == guardrail);
  dyn_guardrail_set_confirm_func (guardrail, confirm_cb, &asked, NULL);
  dyn_guardrail_set_production (guardrail, TRUE);

  /* Locked: refused, nothing sent. */
  dyn_edit_session_commit_async (session, NULL, dyn_test_result_cb, &result);
  commit = dyn_edit_session_commit_finish (session, dyn_test_wait (&result), &error);
  g_assert_null (commit);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_READ_ONLY);
  g_clear_error (&error);
  g_clear_object (&result);
  g_assert_false (dyn_edit_session_get_busy (session));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);

  /* Unlocked: the set's summary is asked about; Cancel keeps the change staged. */
  dyn_guardrail_unlock (guardrail);
  dyn_edit_session_commit_async (session, NULL, dyn_test_result_cb, &result);
  g_assert_cmpuint (asked.asked, ==, 1);
  g_assert_true (dyn_edit_session_get_busy (session));
  g_assert_cmpstr (dyn_write_summary_get_entry (asked.summary, 0)->key, ==, "acme · 7");
  g_assert_cmpstr (dyn_write_summary_get_entry (asked.summary, 0)->action, ==, "Create");
  dyn_guardrail_reply (asked.request, FALSE);
  g_clear_object (&asked.request);
  commit = dyn_edit_session_commit_finish (session, dyn_test_wait (&result), &error);
  g_assert_null (commit);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&result);
  g_assert_false (dyn_edit_session_get_busy (session));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (session), ==, 1);
  g_assert_cmpuint (dyn_edit_session_get_status (session, 0), ==, DYN_CHANGE_STATUS_PENDING);

  /* Confirmed: the commit is sent (and fails at the closed port). */
  dyn_edit_session_commit_async (session, NULL, dyn_test_result_cb, &result);
  g_assert_cmpuint (asked.asked, ==, 2);
  dyn_guardrail_reply (asked.request, TRUE);
  g_clear_object (&asked.request);
  commit = dyn_edit_session_commit_finish (session, dyn_test_wait (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (commit);
  g_assert_cmpuint (dyn_commit_result_get_n_sent (commit), >=, 1);
  g_assert_cmpuint (dyn_edit_session_get_status (session, 0), ==, DYN_CHANGE_STATUS_FAILED);

  g_clear_pointer (&asked.summary, dyn_write_summary_unref);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/guardrails/connection/sso-properties", test_connection_sso_properties);
  g_test_add_func ("/guardrails/connection/is-production", test_connection_is_production);
  g_test_add_func ("/guardrails/connection/save-sso", test_connection_save_sso);
  g_test_add_func ("/guardrails/connection/sso-incomplete", test_connection_sso_incomplete);

  g_test_add_func ("/guardrails/summary/item-write-units", test_item_write_units);
  g_test_add_func ("/guardrails/summary/change-set", test_summary_change_set);
  g_test_add_func ("/guardrails/summary/single-and-key-change", test_summary_single_and_key_change);
  g_test_add_func ("/guardrails/summary/bulk", test_summary_bulk);
  g_test_add_func ("/guardrails/lock/lock", test_guardrail_lock);
  g_test_add_func ("/guardrails/lock/expiry", test_guardrail_expiry);
  g_test_add_func ("/guardrails/lock/session", test_guardrail_session);

  return g_test_run ();
}
