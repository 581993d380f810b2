/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-window-signin"
#include "config.h"

#include <math.h>

#include <locale.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "dyn-application.h"
#include "dyn-connection-editor.h"
#include "dyn-device-code-dialog.h"
#include "dyn-fault-server.h"
#include "dyn-mfa-dialog.h"
#include "dyn-sign-in-bar.h"
#include "dyn-signin-server.h"
#include "dyn-test-util.h"
#include "dyn-test-window.h"
#include "dyn-window-signin.h"
#include "dyn-window.h"

/* Signing in from the real window under Xvfb, against the sign-in test
 * server (tests/aws-signin-server.py: STS, IAM Identity Center OIDC and
 * portal) and DynamoDB Local behind the fault server's proxy, which answers
 * ExpiredTokenException for an access key the test expires:
 * - device-flow: an SSO profile without a cached token shows the device-code
 *   dialog with the server's user code; approving it at the server closes the
 *   dialog and the tables list; the header says who the connection is;
 * - mfa / mfa-cancel: a role profile with mfa_serial asks for the code;
 *   typing it connects; Cancel fails with a clear message, and another
 *   connection still opens;
 * - expiry-staged-edit: credentials that expire under a staged edit make the
 *   commit wait behind the "Sign in again" bar (no dialog by itself); the edit,
 *   the builder's text and the scroll position stay; Sign In Again → the device
 *   flow → the commit goes through exactly once;
 * - expiry-cancel: Cancel in the bar fails only the waiting commit;
 * - loopback-no-identity: a DynamoDB Local connection shows no identity;
 * - editor-sso: adding a connection through IAM Identity Center (device flow, account
 *   and role picked from the portal's lists), which then opens.
 * Screenshots: sign-in.png (the device-code dialog), sign-in-mfa.png,
 * sign-in-again.png (the bar over a staged edit). */

#define START_URL   "https://d-9067c2d6a3.awsapps.com/start"
#define SEED        "window-signin"
#define ACCOUNT     "111111111111"
#define VALID_TOKEN "aoa-window-signin-valid-token"
#define MFA_CODE    "246810"
#define N_ITEMS     80

static const char scenario[] =
  "{\"account\": \"123456789012\", \"seed\": \"" SEED "\", \"credentials_ttl\": 3600,"
  " \"users\": {\"AKIAWINDOWBASEUSER01\": {\"secret\": \"base/user/secret/w1\","
  "                                      \"arn\": \"arn:aws:iam::123456789012:user/alice\"}},"
  " \"roles\": {\"arn:aws:iam::123456789012:role/Admin\": {\"mfa_serial\": \"arn:aws:iam::123456789012:mfa/alice\","
  "                                                     \"mfa_code\": \"" MFA_CODE "\"}},"
  " \"sso\": {\"start_url\": \"" START_URL "\", \"user\": \"alice\","
  "          \"accounts\": [{\"accountId\": \"" ACCOUNT "\", \"accountName\": \"dev\", \"emailAddress\": \"dev@example.com\"}],"
  "          \"roles\": {\"" ACCOUNT "\": [\"ReadOnly\", \"Admin\"]},"
  "          \"pending_polls\": 1, \"auto_approve\": false, \"interval\": 1,"
  "          \"access_tokens\": [\"" VALID_TOKEN "\"],"
  "          \"refresh_tokens_valid\": [\"aor-window-signin-refresh\"],"
  "          \"clients\": {\"window-client\": \"window-client-secret\"}}}";

static DynApplication *app;
static char *tmp_dir;
static DynSigninServer *signin;
static DynClient *direct;       /* straight to DynamoDB Local: the test's own view */
static char *table;

typedef struct {
  DynFaultServer     *proxy;
  DynConnectionStore *store;
  DynWindow          *window;
} Fixture;

static gint64
wait_deadline (void)
{
  return g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
}

/* Runs the main loop until @cond holds, five minutes of wall clock at most. */
#define WAIT_UNTIL(cond)                                                      \
  G_STMT_START {                                                              \
    for (gint64 deadline_ = wait_deadline (); !(cond) && g_get_monotonic_time () < deadline_;) \
      {                                                                       \
        dyn_test_iterate ();                                                  \
        g_usleep (5000);                                                      \
      }                                                                       \
    g_assert_true (cond);                                                     \
  } G_STMT_END

static void
write_file (const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *config = NULL;
  g_autofree char *connections = g_build_filename (tmp_dir, "connections.ini", NULL);
  g_autofree char *cache = g_build_filename (tmp_dir, ".aws", "sso", "cache", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) cache_dir = g_file_new_for_path (cache);

  if (signin == NULL || direct == NULL)
    return;
  g_assert_true (dyn_signin_server_control (signin, "reset", &error));
  g_assert_no_error (error);
  /* No sign-in is cached unless the test writes one. */
  {
    g_autoptr(GFileEnumerator) files = g_file_enumerate_children (cache_dir, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                                  G_FILE_QUERY_INFO_NONE, NULL, NULL);
    GFileInfo *info;

    while (files != NULL && (info = g_file_enumerator_next_file (files, NULL, NULL)) != NULL)
      {
        g_autofree char *path = g_build_filename (cache, g_file_info_get_name (info), NULL);

        g_unlink (path);
        g_object_unref (info);
      }
  }
  /* The item the commits change, as it was. */
  {
    g_autoptr(DynValue) item = dyn_test_item ("{\"id\":{\"S\":\"item-003\"},\"Status\":{\"S\":\"open\"}}");

    g_assert_true (dyn_test_put_item (direct, table, item, &error));
    g_assert_no_error (error);
  }

  /* A proxy of its own: the issued access keys start again at ASIA…1 after the reset. */
  fixture->proxy = dyn_fault_server_new_proxy (dyn_test_server_get_endpoint (dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL)));
  config = g_strdup_printf ("[profile sso-dev]\n"
                            "sso_session = corp\n"
                            "sso_account_id = " ACCOUNT "\n"
                            "sso_role_name = ReadOnly\n"
                            "region = us-east-1\n"
                            "endpoint_url = %s\n"
                            "\n"
                            "[sso-session corp]\n"
                            "sso_start_url = " START_URL "\n"
                            "sso_region = us-east-1\n"
                            "\n"
                            "[profile base]\n"
                            "region = us-east-1\n"
                            "\n"
                            "[profile admin]\n"
                            "role_arn = arn:aws:iam::123456789012:role/Admin\n"
                            "source_profile = base\n"
                            "mfa_serial = arn:aws:iam::123456789012:mfa/alice\n"
                            "role_session_name = window-admin\n"
                            "region = us-east-1\n"
                            "endpoint_url = %s\n"
                            "\n"
                            "[profile local-keys]\n"
                            "region = us-east-1\n"
                            "endpoint_url = %s\n",
                            dyn_fault_server_get_url (fixture->proxy), dyn_fault_server_get_url (fixture->proxy),
                            dyn_fault_server_get_url (fixture->proxy));
  write_file ("config", config);
  write_file ("credentials",
              "[base]\n"
              "aws_access_key_id = AKIAWINDOWBASEUSER01\n"
              "aws_secret_access_key = base/user/secret/w1\n"
              "\n"
              "[local-keys]\n"
              "aws_access_key_id = " DYN_TEST_ACCESS_KEY "\n"
              "aws_secret_access_key = " DYN_TEST_SECRET_KEY "\n");

  g_unlink (connections);
  fixture->store = dyn_connection_store_new (connections);
  g_assert_true (dyn_connection_store_load (fixture->store, &error));
  g_assert_no_error (error);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  fixture->window = dyn_window_new (GTK_APPLICATION (app), fixture->store);
  g_object_ref_sink (fixture->window);
  g_object_ref (fixture->window);
  dyn_item_grid_set_grouped (dyn_window_get_grid (fixture->window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 800);
  gtk_window_present (GTK_WINDOW (fixture->window));
  WAIT_UNTIL (gtk_widget_get_mapped (GTK_WIDGET (fixture->window)));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  if (fixture->window != NULL)
    dyn_test_window_finalize (g_steal_pointer (&fixture->window), TRUE);
  if (fixture->store != NULL)
    g_assert_finalize_object (fixture->store);
  g_clear_pointer (&fixture->proxy, dyn_fault_server_free);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

#define SKIP_WITHOUT_SERVERS(fixture)                                         \
  G_STMT_START {                                                              \
    if ((fixture)->window == NULL)                                            \
      {                                                                       \
        g_test_skip ("the sign-in server or DynamoDB Local is not available"); \
        return;                                                               \
      }                                                                       \
  } G_STMT_END

static void
screenshot (GtkWindow  *window,
            const char *name)
{
  dyn_test_window_screenshot (window, name, tmp_dir);
}

static void
open_profile (Fixture    *fixture,
              const char *profile)
{
  g_autofree char *id = g_strdup_printf ("profile:%s", profile);
  DynConnection *connection = dyn_connection_store_lookup (fixture->store, id);

  g_assert_nonnull (connection);
  dyn_window_open_connection (fixture->window, connection);
}

static gboolean
has_table (DynWindow *window)
{
  const char * const *tables = dyn_window_get_tables (window);

  return tables != NULL && g_strv_contains (tables, table);
}

/* The user code the server's Nth StartDeviceAuthorization answers (its
 * documented derivation from the seed). */
static char *
expected_user_code (guint n)
{
  g_autofree char *text = g_strdup_printf (SEED ":user-code:%u", n);
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  g_autofree char *upper = g_ascii_strup (hex, 4);

  return g_strdup_printf ("%04X-%s", n, upper);
}

/* The access key that signed the proxy's last request. */
static char *
last_signing_key (DynFaultServer *proxy)
{
  guint n = dyn_fault_server_get_request_count (proxy);
  const char *authorization;
  const char *start, *end;

  g_assert_cmpuint (n, >, 0);
  authorization = dyn_fault_server_get_request_header (proxy, n - 1, "authorization");
  g_assert_nonnull (authorization);
  start = strstr (authorization, "Credential=");
  g_assert_nonnull (start);
  start += strlen ("Credential=");
  end = strchr (start, '/');
  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

/* Requests of @operation the proxy read, and how many of them @key signed. */
static guint
count_operation (DynFaultServer *proxy,
                 const char     *operation,
                 const char     *key,
                 guint          *signed_by_key)
{
  g_autofree char *target = g_strdup_printf ("DynamoDB_20120810.%s", operation);
  guint n = dyn_fault_server_get_request_count (proxy);
  guint count = 0;

  *signed_by_key = 0;
  for (guint i = 0; i < n; i++)
    {
      const char *header = dyn_fault_server_get_request_header (proxy, i, "x-amz-target");
      const char *authorization = dyn_fault_server_get_request_header (proxy, i, "authorization");

      if (g_strcmp0 (header, target) != 0)
        continue;
      count++;
      if (key != NULL && authorization != NULL && strstr (authorization, key) != NULL)
        (*signed_by_key)++;
    }
  return count;
}

static void
approve (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (dyn_signin_server_control (signin, "approve", &error));
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------------ */

static void
test_device_flow (Fixture       *fixture,
                  gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynDeviceCodeDialog *dialog;
  g_autofree char *code = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *cache = NULL;
  const char *identity;
  GStatBuf st;

  SKIP_WITHOUT_SERVERS (fixture);
  open_profile (fixture, "sso-dev");
  WAIT_UNTIL (DYN_IS_DEVICE_CODE_DIALOG (dyn_window_get_sign_in_dialog (window)));
  dialog = DYN_DEVICE_CODE_DIALOG (dyn_window_get_sign_in_dialog (window));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  code = expected_user_code (1);
  g_assert_cmpstr (dyn_device_code_dialog_get_user_code (dialog), ==, code);
  uri = g_strdup_printf ("%s/device?user_code=%s", dyn_signin_server_get_url (signin), code);
  g_assert_cmpstr (dyn_device_code_dialog_get_uri (dialog), ==, uri);
  /* Still waiting: nothing is listed before the approval. */
  g_assert_false (has_table (window));
  screenshot (GTK_WINDOW (dialog), "sign-in.png");

  approve ();
  WAIT_UNTIL (dyn_window_get_sign_in_dialog (window) == NULL && has_table (window));
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpint (dyn_signin_server_count (signin, "GetRoleCredentials"), ==, 1);

  /* The token went to the AWS CLI's cache, 0600. */
  cache = dyn_sso_token_cache_path ("corp", NULL);
  g_assert_cmpint (g_stat (cache, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  /* Who the connection is (GetCallerIdentity against the STS endpoint of its own). */
  WAIT_UNTIL (dyn_window_get_identity_text (window) != NULL);
  identity = dyn_window_get_identity_text (window);
  g_test_message ("identity: %s", identity);
  g_assert_true (g_str_has_prefix (identity, ACCOUNT " · assumed-role/AWSReservedSSO_ReadOnly_"));
  g_assert_nonnull (strstr (identity, "/alice · expires "));
  g_assert_cmpint (dyn_signin_server_count (signin, "GetCallerIdentity"), ==, 1);
}

static void
editor_saved_cb (DynConnectionEditor *editor,
                 DynConnection       *connection,
                 gpointer             user_data)
{
  g_set_object ((DynConnection **) user_data, connection);
}

/* Adding a connection through IAM Identity Center: an [sso-session], Sign In (the device flow
 * over the editor), the account and the role picked from what ListAccounts and
 * ListAccountRoles return; the saved connection keeps them and opens with the role's
 * credentials. ~/.aws/config is not written. */
static void
test_editor_sso (Fixture       *fixture,
                 gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynConnectionEditor *editor;
  g_autoptr(DynConnection) saved = NULL;
  g_autofree char *config_before = NULL, *config_after = NULL;
  g_autofree char *config_path = g_build_filename (tmp_dir, "config", NULL);
  GListModel *accounts, *roles;

  SKIP_WITHOUT_SERVERS (fixture);
  g_assert_true (g_file_get_contents (config_path, &config_before, NULL, NULL));
  editor = dyn_connection_editor_new (GTK_WINDOW (window), fixture->store, NULL);
  g_signal_connect (editor, "saved", G_CALLBACK (editor_saved_cb), &saved);
  gtk_window_present (GTK_WINDOW (editor));
  dyn_connection_editor_fill (editor, "Identity Center dev", "us-east-1",
                              dyn_fault_server_get_url (fixture->proxy), NULL, NULL, NULL, FALSE);
  dyn_connection_editor_fill_sso (editor, "corp", NULL, NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.sso-sign-in", NULL));
  /* No sign-in is cached: the device flow runs first; nothing is listed before the approval. */
  WAIT_UNTIL (dyn_signin_server_count (signin, "StartDeviceAuthorization") == 1);
  g_assert_cmpint (dyn_signin_server_count (signin, "ListAccounts"), ==, 0);
  approve ();
  accounts = dyn_connection_editor_get_sso_accounts (editor);
  WAIT_UNTIL (g_list_model_get_n_items (accounts) == 1 && !dyn_connection_editor_get_sso_busy (editor));
  g_test_message ("status: %s", dyn_connection_editor_get_sso_status (editor));
  g_assert_true (dyn_connection_editor_choose_sso (editor, ACCOUNT, "Admin"));
  roles = dyn_connection_editor_get_sso_roles (editor);
  WAIT_UNTIL (g_list_model_get_n_items (roles) == 2 && !dyn_connection_editor_get_sso_busy (editor));
  g_assert_true (dyn_connection_editor_choose_sso (editor, NULL, "Admin"));
  screenshot (GTK_WINDOW (editor), "sign-in-editor.png");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (editor), "editor.save", NULL));
  WAIT_UNTIL (saved != NULL);
  g_assert_cmpstr (dyn_connection_get_sso_session (saved), ==, "corp");
  g_assert_cmpstr (dyn_connection_get_sso_start_url (saved), ==, START_URL);
  g_assert_cmpstr (dyn_connection_get_sso_account_id (saved), ==, ACCOUNT);
  g_assert_cmpstr (dyn_connection_get_sso_role_name (saved), ==, "Admin");
  g_assert_true (g_file_get_contents (config_path, &config_after, NULL, NULL));
  g_assert_cmpstr (config_after, ==, config_before);

  /* It opens with the picked role's credentials, without another sign-in. */
  dyn_window_open_connection (window, saved);
  WAIT_UNTIL (has_table (window) && !dyn_window_is_busy (window));
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpint (dyn_signin_server_count (signin, "StartDeviceAuthorization"), ==, 1);
  g_assert_cmpint (dyn_signin_server_count (signin, "GetRoleCredentials"), ==, 1);
}

/* A DynamoDB Local connection without an STS endpoint of its own asks nobody who it is. */
static void
test_loopback_no_identity (Fixture       *fixture,
                           gconstpointer  data)
{
  DynWindow *window = fixture->window;
  g_autofree char *sts = NULL;

  SKIP_WITHOUT_SERVERS (fixture);
  sts = g_strdup (g_getenv ("AWS_ENDPOINT_URL_STS"));
  g_unsetenv ("AWS_ENDPOINT_URL_STS");
  open_profile (fixture, "local-keys");
  WAIT_UNTIL (has_table (window) && !dyn_window_is_busy (window));
  dyn_test_settle ();
  g_setenv ("AWS_ENDPOINT_URL_STS", sts, TRUE);
  g_assert_null (dyn_window_get_identity_text (window));
  g_assert_cmpint (dyn_signin_server_count (signin, "GetCallerIdentity"), ==, 0);
}

static DynMfaDialog *
wait_mfa_dialog (Fixture *fixture)
{
  DynWindow *window = fixture->window;
  DynMfaDialog *dialog;

  open_profile (fixture, "admin");
  WAIT_UNTIL (DYN_IS_MFA_DIALOG (dyn_window_get_sign_in_dialog (window)));
  dialog = DYN_MFA_DIALOG (dyn_window_get_sign_in_dialog (window));
  g_assert_cmpstr (dyn_mfa_dialog_get_serial (dialog), ==, "arn:aws:iam::123456789012:mfa/alice");
  g_assert_cmpstr (dyn_mfa_dialog_get_profile (dialog), ==, "admin");
  g_assert_cmpint (dyn_signin_server_count (signin, "AssumeRole"), ==, 0);
  return dialog;
}

static void
test_mfa (Fixture       *fixture,
          gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynMfaDialog *dialog;
  GtkEditable *entry;

  SKIP_WITHOUT_SERVERS (fixture);
  dialog = wait_mfa_dialog (fixture);
  entry = dyn_mfa_dialog_get_entry (dialog);
  /* Sign In waits for six digits. */
  gtk_editable_set_text (entry, "2468");
  /* (A disabled action is found, so activating it returns TRUE in GTK 4.8: what counts is
   * that nothing is sent and the dialog stays.) */
  gtk_widget_activate_action (GTK_WIDGET (dialog), "mfa.submit", NULL);
  dyn_test_settle ();
  g_assert_true (dyn_window_get_sign_in_dialog (window) == GTK_WINDOW (dialog));
  g_assert_cmpint (dyn_signin_server_count (signin, "AssumeRole"), ==, 0);
  gtk_editable_set_text (entry, MFA_CODE);
  screenshot (GTK_WINDOW (dialog), "sign-in-mfa.png");
  /* Enter in the entry submits. */
  g_signal_emit_by_name (entry, "activate");
  WAIT_UNTIL (dyn_window_get_sign_in_dialog (window) == NULL && has_table (window));
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpint (dyn_signin_server_count (signin, "AssumeRole"), ==, 1);
  WAIT_UNTIL (dyn_window_get_identity_text (window) != NULL);
  g_assert_true (g_str_has_prefix (dyn_window_get_identity_text (window),
                                   "123456789012 · assumed-role/Admin/window-admin · expires "));
}

static void
test_mfa_cancel (Fixture       *fixture,
                 gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynMfaDialog *dialog;
  const char *error;

  SKIP_WITHOUT_SERVERS (fixture);
  dialog = wait_mfa_dialog (fixture);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "mfa.cancel", NULL));
  WAIT_UNTIL (dyn_window_get_sign_in_dialog (window) == NULL && !dyn_window_is_busy (window));
  error = dyn_window_get_error_text (window);
  g_test_message ("after Cancel: %s", error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "Signing in was cancelled: no MFA code was entered"));
  g_assert_null (dyn_window_get_client (window));
  g_assert_cmpint (dyn_signin_server_count (signin, "AssumeRole"), ==, 0);

  /* Nothing else broke: another connection opens. */
  open_profile (fixture, "local-keys");
  WAIT_UNTIL (has_table (window) && !dyn_window_is_busy (window));
  g_assert_null (dyn_window_get_error_text (window));
}

/* The SSO connection open on the table, a sign-in cached, one cell staged,
 * the builder's text set and the grid scrolled; then the credentials expire
 * everywhere (the access key at DynamoDB, the SSO token at the portal, the
 * refresh token) so that only the user can sign in again. */
typedef struct {
  char   *builder_text;
  double  scroll;
  guint   n_rows;
  char   *old_key;
} Staged;

static void
staged_clear (Staged *staged)
{
  g_free (staged->builder_text);
  g_free (staged->old_key);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Staged, staged_clear)

static void
stage_then_expire (Fixture *fixture,
                   Staged  *staged)
{
  DynWindow *window = fixture->window;
  DynItemGrid *grid = dyn_window_get_grid (window);
  g_autoptr(DynSsoToken) token = g_new0 (DynSsoToken, 1);
  g_autofree char *cache = dyn_sso_token_cache_path ("corp", NULL);
  g_autofree char *command = NULL;
  g_autoptr(DynValue) key = dyn_test_item ("{\"id\":{\"S\":\"item-003\"}}");
  g_autoptr(GError) error = NULL;
  DynItemObject *row;
  GtkEditable *entry;
  GtkAdjustment *adjustment;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

  token->start_url = g_strdup (START_URL);
  token->region = g_strdup ("us-east-1");
  token->access_token = g_strdup (VALID_TOKEN);
  token->expires_at = g_date_time_add_hours (now, 8);
  token->client_id = g_strdup ("window-client");
  token->client_secret = g_strdup ("window-client-secret");
  token->registration_expires_at = g_date_time_add_days (now, 80);
  token->refresh_token = g_strdup ("aor-window-signin-refresh");
  g_assert_true (dyn_sso_token_save (token, cache, &error));
  g_assert_no_error (error);

  /* A valid sign-in: no dialog. */
  open_profile (fixture, "sso-dev");
  WAIT_UNTIL (has_table (window) && !dyn_window_is_busy (window));
  g_assert_null (dyn_window_get_sign_in_dialog (window));
  dyn_window_open_table (window, table);
  WAIT_UNTIL (dyn_window_get_model (window) != NULL &&
              dyn_collection_model_lookup (dyn_window_get_model (window), key) != NULL &&
              !dyn_window_is_busy (window));
  dyn_test_settle ();

  /* One cell staged in place. */
  row = dyn_collection_model_lookup (dyn_window_get_model (window), key);
  dyn_item_grid_select_item (grid, row, TRUE);
  dyn_test_settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (grid), "grid.edit-cell", "s", "Status"));
  entry = dyn_item_grid_get_cell_editor (grid);
  g_assert_nonnull (entry);
  gtk_editable_set_text (entry, "done");
  g_signal_emit_by_name (entry, "activate");
  dyn_test_settle ();
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 1);

  dyn_expression_builder_set_text (dyn_window_get_builder (window), "Status = \"open\"");
  staged->builder_text = dyn_expression_builder_dup_text (dyn_window_get_builder (window));
  adjustment = dyn_item_grid_get_vadjustment (grid);
  WAIT_UNTIL (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment) > 300);
  gtk_adjustment_set_value (adjustment, 300);
  dyn_test_settle ();
  staged->scroll = gtk_adjustment_get_value (adjustment);

  g_assert_cmpfloat (staged->scroll, >, 0);
  staged->n_rows = g_list_model_get_n_items (G_LIST_MODEL (dyn_window_get_model (window)));

  staged->old_key = last_signing_key (fixture->proxy);
  g_assert_true (g_str_has_prefix (staged->old_key, "ASIA"));
  dyn_fault_server_expire_access_key (fixture->proxy, staged->old_key);
  command = g_strdup_printf ("expire?access_key=%s", staged->old_key);
  g_assert_true (dyn_signin_server_control (signin, command, &error));
  g_assert_true (dyn_signin_server_control (signin, "revoke-refresh", &error));
  g_assert_no_error (error);
  /* The portal refuses the old access token as it refuses one that ran out (Dynoscope, like
   * botocore, still sends a token past its expiresAt and lets the portal decide). */
  g_clear_pointer (&command, g_free);
  command = g_strdup_printf ("expire?access_token=%s", VALID_TOKEN);
  g_assert_true (dyn_signin_server_control (signin, command, &error));
  g_assert_no_error (error);
  /* The cached sign-in ran out meanwhile (as after a working day): a refresh
   * is tried, refused, and only the user can sign in. */
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  token->expires_at = g_date_time_add_minutes (now, -1);
  g_assert_true (dyn_sso_token_save (token, cache, &error));
  g_assert_no_error (error);
}

/* Nothing the user had open changed. @slack: how far the grid's scroll value may move
 * because the window's error bar opened above it (GtkColumnView keeps the row at the
 * top where it was, so the value follows the smaller viewport by a few pixels). */
static void
assert_work_kept (Fixture *fixture,
                  Staged  *staged,
                  double   slack)
{
  DynWindow *window = fixture->window;
  g_autofree char *text = dyn_expression_builder_dup_text (dyn_window_get_builder (window));

  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 1);
  g_assert_cmpstr (text, ==, staged->builder_text);
  g_assert_cmpfloat (fabs (gtk_adjustment_get_value (dyn_item_grid_get_vadjustment (dyn_window_get_grid (window))) -
                           staged->scroll), <=, slack);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (dyn_window_get_model (window))), ==, staged->n_rows);
  g_assert_cmpstr (dyn_window_get_table (window), ==, table);
}

static const char *
stored_status (void)
{
  static char status[64];
  g_autoptr(DynValue) key = dyn_test_item ("{\"id\":{\"S\":\"item-003\"}}");
  g_autoptr(DynValue) item = dyn_test_get_item (direct, table, key, TRUE);

  g_assert_nonnull (item);
  g_strlcpy (status, dyn_test_item_get_string (item, "Status"), sizeof status);
  return status;
}

static guint
write_requests (DynFaultServer *proxy,
                const char     *key,
                guint          *signed_by_key)
{
  const char *writes[] = { "UpdateItem", "PutItem", "TransactWriteItems", "BatchWriteItem" };
  guint count = 0;

  *signed_by_key = 0;
  for (guint i = 0; i < G_N_ELEMENTS (writes); i++)
    {
      guint by_key;

      count += count_operation (proxy, writes[i], key, &by_key);
      *signed_by_key += by_key;
    }
  return count;
}

static void
test_expiry_staged_edit (Fixture       *fixture,
                         gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynSignInBar *bar = dyn_window_get_sign_in_bar (window);
  DynDeviceCodeDialog *dialog;
  g_auto(Staged) staged = { 0 };
  g_autofree char *new_key = NULL;
  guint by_old, by_new, writes;

  SKIP_WITHOUT_SERVERS (fixture);
  stage_then_expire (fixture, &staged);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.commit-changes", NULL));
  WAIT_UNTIL (dyn_sign_in_bar_get_revealed (bar));
  g_test_message ("bar: %s", dyn_sign_in_bar_get_text (bar));
  g_assert_cmpstr (dyn_sign_in_bar_get_text (bar), ==,
                   "Your session for “sso-dev” expired. Requests wait until you sign in again.");
  /* Only the bar: no dialog pops up by itself. */
  dyn_test_settle ();
  g_assert_null (dyn_window_get_sign_in_dialog (window));
  g_assert_true (dyn_client_is_waiting_for_sign_in (dyn_window_get_client (window)));
  assert_work_kept (fixture, &staged, 0);
  g_assert_cmpuint (dyn_fault_server_proxy_get_expired (fixture->proxy), >=, 1);
  g_assert_cmpstr (stored_status (), ==, "open");
  screenshot (GTK_WINDOW (window), "sign-in-again.png");

  /* Sign In Again: the device flow, then the commit goes on. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (bar), "sign-in-bar.sign-in", NULL));
  WAIT_UNTIL (DYN_IS_DEVICE_CODE_DIALOG (dyn_window_get_sign_in_dialog (window)));
  dialog = DYN_DEVICE_CODE_DIALOG (dyn_window_get_sign_in_dialog (window));
  g_assert_true (g_str_has_prefix (dyn_device_code_dialog_get_user_code (dialog), "0001-"));
  approve ();
  WAIT_UNTIL (!dyn_sign_in_bar_get_revealed (bar) &&
              dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)) == 0 &&
              !dyn_window_is_busy (window));
  g_assert_null (dyn_window_get_sign_in_dialog (window));
  g_assert_null (dyn_window_get_error_text (window));
  g_assert_cmpstr (stored_status (), ==, "done");

  /* Exactly once: the write refused as expired, then one with the new key. */
  new_key = last_signing_key (fixture->proxy);
  g_assert_cmpstr (new_key, !=, staged.old_key);
  writes = write_requests (fixture->proxy, staged.old_key, &by_old);
  write_requests (fixture->proxy, new_key, &by_new);
  g_test_message ("writes: %u (old key %u, new key %u)", writes, by_old, by_new);
  g_assert_cmpuint (by_new, ==, 1);
  g_assert_cmpuint (writes, ==, by_old + by_new);
  /* The rest stayed as it was. */
  g_assert_cmpstr (dyn_window_get_table (window), ==, table);
  {
    g_autofree char *text = dyn_expression_builder_dup_text (dyn_window_get_builder (window));

    g_assert_cmpstr (text, ==, staged.builder_text);
  }
}

static void
test_expiry_cancel (Fixture       *fixture,
                    gconstpointer  data)
{
  DynWindow *window = fixture->window;
  DynSignInBar *bar = dyn_window_get_sign_in_bar (window);
  g_auto(Staged) staged = { 0 };
  const char *error;

  SKIP_WITHOUT_SERVERS (fixture);
  stage_then_expire (fixture, &staged);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.commit-changes", NULL));
  WAIT_UNTIL (dyn_sign_in_bar_get_revealed (bar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (bar), "sign-in-bar.cancel", NULL));
  WAIT_UNTIL (!dyn_sign_in_bar_get_revealed (bar) && !dyn_window_is_busy (window) &&
              !dyn_edit_session_get_busy (dyn_window_get_edit_session (window)));
  error = dyn_window_get_error_text (window);
  g_test_message ("after Cancel: %s", error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "Sign-in cancelled: the waiting requests failed"));
  /* Only the commit failed: the edit is still staged, the rest is as it was. */
  assert_work_kept (fixture, &staged, 40);
  g_assert_false (dyn_client_is_waiting_for_sign_in (dyn_window_get_client (window)));
  g_assert_cmpstr (stored_status (), ==, "open");
  g_assert_null (dyn_window_get_sign_in_dialog (window));

  /* The window goes on: the next commit asks again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.commit-changes", NULL));
  WAIT_UNTIL (dyn_sign_in_bar_get_revealed (bar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (bar), "sign-in-bar.cancel", NULL));
  WAIT_UNTIL (!dyn_sign_in_bar_get_revealed (bar) && !dyn_window_is_busy (window) &&
              !dyn_edit_session_get_busy (dyn_window_get_edit_session (window)));
  g_assert_cmpuint (dyn_edit_session_get_n_changes (dyn_window_get_edit_session (window)), ==, 1);
  g_assert_cmpstr (stored_status (), ==, "open");
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *config = NULL;
  g_autofree char *credentials = NULL;
  DynTestServer *server;
  int status;

  setlocale (LC_ALL, "C.UTF-8");
  g_setenv ("LANGUAGE", "C", TRUE);
  tmp_dir = dyn_test_window_init (&argc, &argv, "dyn-test-window-signin");
  if (tmp_dir == NULL)
    return 0;
  /* The device-code dialog opens no browser under the tests. */
  g_setenv ("DYN_NO_BROWSER", "1", TRUE);

  signin = dyn_signin_server_start (scenario, &error);
  if (signin == NULL)
    g_test_message ("no sign-in server: %s", error->message);
  g_clear_error (&error);
  server = dyn_test_server_get (DYN_TEST_DYNAMODB_LOCAL);
  if (signin != NULL && server != NULL)
    {
      g_autoptr(GPtrArray) items = dyn_test_item_array_new ();

      config = g_build_filename (tmp_dir, "config", NULL);
      credentials = g_build_filename (tmp_dir, "credentials", NULL);
      g_setenv ("AWS_CONFIG_FILE", config, TRUE);
      g_setenv ("AWS_SHARED_CREDENTIALS_FILE", credentials, TRUE);
      g_unsetenv ("AWS_ACCESS_KEY_ID");
      g_unsetenv ("AWS_SECRET_ACCESS_KEY");
      g_unsetenv ("AWS_SESSION_TOKEN");
      g_setenv ("AWS_ENDPOINT_URL_STS", dyn_signin_server_get_url (signin), TRUE);
      g_setenv ("AWS_ENDPOINT_URL_SSO", dyn_signin_server_get_url (signin), TRUE);
      g_setenv ("AWS_ENDPOINT_URL_SSO_OIDC", dyn_signin_server_get_url (signin), TRUE);

      direct = dyn_test_client_new (server);
      table = dyn_test_table_name ("SignIn");
      g_assert_true (dyn_test_create_table (direct, table, "id:S", NULL, NULL, &error));
      g_assert_no_error (error);
      for (guint i = 1; i <= N_ITEMS; i++)
        g_ptr_array_add (items, dyn_test_itemf ("{\"id\":{\"S\":\"item-%03u\"},\"Status\":{\"S\":\"open\"},"
                                                "\"Title\":{\"S\":\"Task number %u\"}}", i, i));
      g_assert_true (dyn_test_load_items (direct, table, items, &error));
      g_assert_no_error (error);
    }

  app = dyn_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/dyn/window-signin/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("device-flow", test_device_flow);
  ADD ("loopback-no-identity", test_loopback_no_identity);
  ADD ("mfa", test_mfa);
  ADD ("mfa-cancel", test_mfa_cancel);
  ADD ("expiry-staged-edit", test_expiry_staged_edit);
  ADD ("expiry-cancel", test_expiry_cancel);
  ADD ("editor-sso", test_editor_sso);
#undef ADD

  status = g_test_run ();
  g_object_unref (app);
  if (direct != NULL)
    dyn_test_delete_table (direct, table, NULL);
  g_clear_object (&direct);
  g_clear_pointer (&signin, dyn_signin_server_stop);
  g_free (table);
  return status;
}
