/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Production connections: DynConnection's IAM Identity Center fields and its
 * production setting. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dyn-connection.h"
#include "dyn-error.h"
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/guardrails/connection/sso-properties", test_connection_sso_properties);
  g_test_add_func ("/guardrails/connection/is-production", test_connection_is_production);
  g_test_add_func ("/guardrails/connection/save-sso", test_connection_save_sso);
  g_test_add_func ("/guardrails/connection/sso-incomplete", test_connection_sso_incomplete);

  return g_test_run ();
}
