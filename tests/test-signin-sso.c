/* SPDX-License-Identifier: GPL-3.0-or-later */
/* IAM Identity Center against the real test server (tests/aws-signin-server.py): the token
 * cache as the AWS CLI v2 writes it, the profile settings, the device flow with its polls,
 * refresh, GetRoleCredentials, the account and role lists, and the answers we refuse. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-signin-server.h"
#include "dyn-test-util.h"

#define START_URL "https://d-123.awsapps.com/start"
/* sha1 ("corp") and sha1 (START_URL), from python3's hashlib. */
#define CORP_CACHE "ee0bfd2552fbd840c02cc48b6e823320543c450f.json"
#define LEGACY_CACHE "2b829a45f04c9828cb45b7d092d8e4aa30818393.json"
#define PRE_ACCESS "aoa-premade-access-token-0123456789"
#define PRE_REFRESH "aor-premade-refresh-token-0123456789"
#define PRE_CLIENT "client-premade"
#define PRE_SECRET "secret-premade-0123456789"

#define SCENARIO \
  "{\"sso\": {\"start_url\": \"" START_URL "\"," \
  "  \"accounts\": [{\"accountId\": \"111111111111\", \"accountName\": \"dev\", \"emailAddress\": \"dev@example.com\"}," \
  "                {\"accountId\": \"222222222222\", \"accountName\": \"prod\", \"emailAddress\": \"prod@example.com\"}," \
  "                {\"accountId\": \"333333333333\", \"accountName\": \"sandbox\"}]," \
  "  \"roles\": {\"111111111111\": [\"ReadOnly\", \"Admin\", \"Billing\"], \"222222222222\": [\"ReadOnly\"]}," \
  "  \"page_size\": 2, \"pending_polls\": 1, \"slow_down_polls\": 1, \"auto_approve\": false, \"interval\": 1," \
  "  \"access_tokens\": [\"" PRE_ACCESS "\"], \"refresh_tokens_valid\": [\"" PRE_REFRESH "\"]," \
  "  \"clients\": {\"" PRE_CLIENT "\": \"" PRE_SECRET "\"}}}"

#define CONFIG \
  "[profile dev]\n" \
  "sso_session = corp\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = ReadOnly\n" \
  "region = eu-west-1\n" \
  "\n" \
  "[profile legacy]\n" \
  "sso_start_url = " START_URL "\n" \
  "sso_region = us-east-1\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = Admin\n" \
  "\n" \
  "[profile norole]\n" \
  "sso_session = corp\n" \
  "sso_account_id = 111111111111\n" \
  "\n" \
  "[profile mismatch]\n" \
  "sso_session = corp\n" \
  "sso_start_url = https://other.awsapps.com/start\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = ReadOnly\n" \
  "\n" \
  "[profile noregion]\n" \
  "sso_start_url = " START_URL "\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = Admin\n" \
  "\n" \
  "[profile nosession]\n" \
  "sso_session = gone\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = Admin\n" \
  "\n" \
  "[profile viaservices]\n" \
  "sso_session = corp\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = ReadOnly\n" \
  "services = local-sso\n" \
  "\n" \
  "[profile insecure]\n" \
  "sso_session = corp\n" \
  "sso_account_id = 111111111111\n" \
  "sso_role_name = ReadOnly\n" \
  "services = remote-sso\n" \
  "\n" \
  "[sso-session corp]\n" \
  "sso_start_url = " START_URL "\n" \
  "sso_region = us-east-1\n" \
  "sso_registration_scopes = sso:account:access\n" \
  "\n" \
  "[services local-sso]\n" \
  "sso_oidc =\n" \
  "  endpoint_url = %s\n" \
  "sso =\n" \
  "  endpoint_url = %s\n" \
  "\n" \
  "[services remote-sso]\n" \
  "sso_oidc =\n" \
  "  endpoint_url = http://oidc.example.com\n"

/* ------------------------------------------------------------------------ */
/* A user at the browser                                                      */

#define TEST_TYPE_PROMPTER (test_prompter_get_type ())
G_DECLARE_FINAL_TYPE (TestPrompter, test_prompter, TEST, PROMPTER, GObject)

struct _TestPrompter {
  GObject          parent_instance;
  gboolean         interactive;
  gboolean         cancel;        /* cancel the flow instead of approving */
  DynSigninServer *server;        /* approves through /_test/approve */
  guint            shown;
  guint            hidden;
  char            *user_code;
  char            *verification_uri;
  char            *start_url;
  char            *session_name;
  GError          *hide_error;
};

static void test_prompter_iface_init (DynSignInPrompterInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestPrompter, test_prompter, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (DYN_TYPE_SIGN_IN_PROMPTER, test_prompter_iface_init))

static gboolean
prompter_can_interact (DynSignInPrompter *prompter)
{
  return TEST_PROMPTER (prompter)->interactive;
}

static gboolean
cancel_idle_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static gboolean
prompter_show_device_code (DynSignInPrompter    *prompter,
                           const DynDeviceCode  *code,
                           GCancellable         *flow,
                           GError              **error)
{
  TestPrompter *self = TEST_PROMPTER (prompter);

  self->shown++;
  g_free (self->user_code);
  self->user_code = g_strdup (code->user_code);
  g_free (self->verification_uri);
  self->verification_uri = g_strdup (code->verification_uri_complete);
  g_free (self->start_url);
  self->start_url = g_strdup (code->start_url);
  g_free (self->session_name);
  self->session_name = g_strdup (code->session_name);
  g_assert_nonnull (code->expires);

  if (self->cancel)
    g_idle_add_full (G_PRIORITY_DEFAULT, cancel_idle_cb, g_object_ref (flow), g_object_unref);
  else
    {
      g_autoptr(GError) local_error = NULL;

      g_assert_true (dyn_signin_server_control (self->server, "approve", &local_error));
      g_assert_no_error (local_error);
    }
  return TRUE;
}

static void
prompter_hide_device_code (DynSignInPrompter *prompter,
                           const GError      *error)
{
  TestPrompter *self = TEST_PROMPTER (prompter);

  self->hidden++;
  g_clear_error (&self->hide_error);
  if (error != NULL)
    self->hide_error = g_error_copy (error);
}

static void
test_prompter_iface_init (DynSignInPrompterInterface *iface)
{
  iface->can_interact = prompter_can_interact;
  iface->show_device_code = prompter_show_device_code;
  iface->hide_device_code = prompter_hide_device_code;
}

static void
test_prompter_finalize (GObject *object)
{
  TestPrompter *self = TEST_PROMPTER (object);

  g_free (self->user_code);
  g_free (self->verification_uri);
  g_free (self->start_url);
  g_free (self->session_name);
  g_clear_error (&self->hide_error);
  G_OBJECT_CLASS (test_prompter_parent_class)->finalize (object);
}

static void
test_prompter_class_init (TestPrompterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_prompter_finalize;
}

static void
test_prompter_init (TestPrompter *self)
{
}

static TestPrompter *
prompter_new (DynSigninServer *server,
              gboolean         interactive)
{
  TestPrompter *self = g_object_new (TEST_TYPE_PROMPTER, NULL);

  self->server = server;
  self->interactive = interactive;
  return self;
}

/* ------------------------------------------------------------------------ */
/* The fixture: a private $HOME, the config file, the server                  */

typedef struct {
  char            *home;
  char            *config_path;
  DynSigninServer *server;
  DynSharedConfig *shared;
} Fixture;

static void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *config = NULL;
  const char *scenario = data != NULL ? data : SCENARIO;

  fixture->server = dyn_signin_server_start (scenario, &error);
  g_assert_no_error (error);
  fixture->home = g_dir_make_tmp ("dyn-sso-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", fixture->home, TRUE);
  fixture->config_path = g_build_filename (fixture->home, "config", NULL);
  config = g_strdup_printf (CONFIG, dyn_signin_server_get_url (fixture->server),
                            dyn_signin_server_get_url (fixture->server));
  g_assert_true (g_file_set_contents (fixture->config_path, config, -1, &error));
  g_setenv ("AWS_CONFIG_FILE", fixture->config_path, TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", TRUE);
  g_setenv ("AWS_ENDPOINT_URL_SSO_OIDC", dyn_signin_server_get_url (fixture->server), TRUE);
  g_setenv ("AWS_ENDPOINT_URL_SSO", dyn_signin_server_get_url (fixture->server), TRUE);
  fixture->shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  dyn_shared_config_unref (fixture->shared);
  dyn_signin_server_stop (fixture->server);
  remove_tree (fixture->home);
  g_free (fixture->home);
  g_free (fixture->config_path);
}

static char *
cache_file (Fixture    *fixture,
            const char *name)
{
  return g_build_filename (fixture->home, ".aws", "sso", "cache", name, NULL);
}

static void
write_cache (Fixture    *fixture,
             const char *name,
             const char *text)
{
  g_autofree char *dir = g_build_filename (fixture->home, ".aws", "sso", "cache", NULL);
  g_autofree char *path = cache_file (fixture, name);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
}

/* A token file as the AWS CLI v2 writes it (json.dumps, its timestamp format). */
static char *
cli_token (const char *start_url,
           const char *access_token,
           gint64      expires_in_seconds)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expires = g_date_time_add_seconds (now, (double) expires_in_seconds);
  g_autoptr(GDateTime) registration = g_date_time_add_days (now, 80);
  g_autofree char *e = g_date_time_format (expires, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *r = g_date_time_format (registration, "%Y-%m-%dT%H:%M:%SZ");

  return g_strdup_printf ("{\"startUrl\": \"%s\", \"region\": \"us-east-1\", \"accessToken\": \"%s\", "
                          "\"expiresAt\": \"%s\", \"clientId\": \"" PRE_CLIENT "\", "
                          "\"clientSecret\": \"" PRE_SECRET "\", \"registrationExpiresAt\": \"%s\", "
                          "\"refreshToken\": \"" PRE_REFRESH "\", \"receivedAt\": \"2026-01-01T00:00:00Z\"}",
                          start_url, access_token, e, r);
}

static void
result_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_MINUTE;

  while (*result == NULL)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, TRUE);
    }
  return *result;
}

static DynCredentials *
get_credentials (DynCredentialsProvider  *provider,
                 GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_credentials_provider_get_async (provider, NULL, result_cb, &result);
  return dyn_credentials_provider_get_finish (provider, wait_result (&result), error);
}

static DynSsoConfig *
config_of (Fixture    *fixture,
           const char *profile)
{
  g_autoptr(GError) error = NULL;
  DynSsoConfig *config = dyn_sso_config_from_profile (fixture->shared, profile, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static JsonObject *
log_entry (Fixture    *fixture,
           const char *operation,
           guint       nth,
           JsonNode  **keep)
{
  g_autoptr(GError) error = NULL;
  JsonArray *array;

  *keep = dyn_signin_server_get_log (fixture->server, &error);
  g_assert_no_error (error);
  array = json_node_get_array (*keep);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *entry = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member (entry, "operation"), operation) == 0 && nth-- == 0)
        return entry;
    }
  return NULL;
}

/* The secrets a message must never show. */
static void
assert_no_secret (const char *message,
                  const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  const char *fixed[] = { PRE_ACCESS, PRE_REFRESH, PRE_SECRET, "aoa", "aor", "device-", "secret-" };

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_assert_null (strstr (message, fixed[i]));
  if (path != NULL && (token = dyn_sso_token_load (path, NULL)) != NULL)
    {
      g_assert_null (strstr (message, token->access_token));
      if (token->refresh_token != NULL)
        g_assert_null (strstr (message, token->refresh_token));
      if (token->client_secret != NULL)
        g_assert_null (strstr (message, token->client_secret));
    }
}

/* ------------------------------------------------------------------------ */
/* The cache                                                                  */

static void
test_cache_path (void)
{
  g_autofree char *session = NULL;
  g_autofree char *legacy = NULL;

  g_setenv ("HOME", "/home/someone-else", TRUE);
  session = dyn_sso_token_cache_path ("corp", START_URL);
  legacy = dyn_sso_token_cache_path (NULL, START_URL);
  g_assert_cmpstr (session, ==, "/home/someone-else/.aws/sso/cache/" CORP_CACHE);
  g_assert_cmpstr (legacy, ==, "/home/someone-else/.aws/sso/cache/" LEGACY_CACHE);
}

static void
test_cache_cli_format (Fixture       *fixture,
                       gconstpointer  data)
{
  /* What `aws sso login` (CLI v2) writes, byte for byte in its shape, and the older CLI's
   * "…UTC" timestamps. */
  static const char cli[] =
    "{\"startUrl\": \"" START_URL "\", \"region\": \"us-east-1\", \"accessToken\": \"" PRE_ACCESS "\", "
    "\"expiresAt\": \"2026-12-02T10:00:00Z\", \"clientId\": \"" PRE_CLIENT "\", "
    "\"clientSecret\": \"" PRE_SECRET "\", \"registrationExpiresAt\": \"2027-03-02T09:00:00Z\", "
    "\"refreshToken\": \"" PRE_REFRESH "\"}";
  static const char old[] =
    "{\"startUrl\": \"" START_URL "\", \"region\": \"us-east-1\", \"accessToken\": \"x\", "
    "\"expiresAt\": \"2019-11-14T04:05:45UTC\"}";
  static const char offset[] =
    "{\"accessToken\": \"x\", \"expiresAt\": \"2026-12-02T12:00:00.250+02:00\"}";
  static const char *bad[] = {
    "{\"accessToken\": \"x\"}",
    "{\"expiresAt\": \"2026-12-02T10:00:00Z\"}",
    "{\"accessToken\": \"x\", \"expiresAt\": \"2026-12-02T10:00:00\"}",
    "{\"accessToken\": \"x\", \"expiresAt\": \"tomorrow\"}",
    "{\"accessToken\": 5, \"expiresAt\": \"2026-12-02T10:00:00Z\"}",
    "{\"accessToken\": \"x\", \"expiresAt\": \"2026-12-02T10:00:00Z\", \"clientId\": []}",
    "[\"accessToken\"]",
    "{\"accessToken\": \"x\", \"expiresAt\": \"2026-12-02T10:00:00Z\"",
  };
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autoptr(DynSsoToken) token = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expires = NULL;
  g_autofree char *registration = NULL;

  write_cache (fixture, CORP_CACHE, cli);
  token = dyn_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token->start_url, ==, START_URL);
  g_assert_cmpstr (token->region, ==, "us-east-1");
  g_assert_cmpstr (token->access_token, ==, PRE_ACCESS);
  g_assert_cmpstr (token->client_id, ==, PRE_CLIENT);
  g_assert_cmpstr (token->client_secret, ==, PRE_SECRET);
  g_assert_cmpstr (token->refresh_token, ==, PRE_REFRESH);
  expires = g_date_time_format_iso8601 (token->expires_at);
  registration = g_date_time_format_iso8601 (token->registration_expires_at);
  g_assert_cmpstr (expires, ==, "2026-12-02T10:00:00Z");
  g_assert_cmpstr (registration, ==, "2027-03-02T09:00:00Z");
  g_clear_pointer (&token, dyn_sso_token_free);

  token = _dyn_sso_token_parse (old, strlen (old), "old", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_date_time_to_unix (token->expires_at), ==, 1573704345);
  g_clear_pointer (&token, dyn_sso_token_free);
  token = _dyn_sso_token_parse (offset, strlen (offset), "offset", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_date_time_to_unix (token->expires_at), ==, 1796205600);
  g_clear_pointer (&token, dyn_sso_token_free);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      token = _dyn_sso_token_parse (bad[i], strlen (bad[i]), "the file", &error);
      g_assert_null (token);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
      g_assert_true (g_str_has_prefix (error->message, "the file"));
      g_clear_error (&error);
    }

  g_clear_pointer (&path, g_free);
  path = cache_file (fixture, "nothing.json");
  g_assert_null (dyn_sso_token_load (path, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
test_cache_save (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  DynSsoToken token = { 0 };
  JsonObject *object;
  struct stat st;

  token.start_url = (char *) START_URL;
  token.region = (char *) "us-east-1";
  token.access_token = (char *) "new-access";
  token.expires_at = g_date_time_new (utc, 2026, 12, 2, 10, 0, 0.75);
  token.client_id = (char *) "cid";
  token.client_secret = (char *) "csecret";
  token.registration_expires_at = g_date_time_new (utc, 2027, 3, 2, 9, 0, 0);

  /* A new file in new folders: 0600 in 0700. */
  g_assert_true (dyn_sso_token_save (&token, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  /* An existing file keeps the fields we do not know (the CLI's receivedAt). */
  write_cache (fixture, CORP_CACHE,
               "{\"startUrl\": \"x\", \"accessToken\": \"old\", \"expiresAt\": \"2020-01-01T00:00:00Z\", "
               "\"receivedAt\": \"2026-01-01T00:00:00Z\", \"refreshToken\": \"gone\"}");
  g_chmod (path, 0644);
  g_assert_true (dyn_sso_token_save (&token, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (object, "startUrl"), ==, START_URL);
  g_assert_cmpstr (json_object_get_string_member (object, "region"), ==, "us-east-1");
  g_assert_cmpstr (json_object_get_string_member (object, "accessToken"), ==, "new-access");
  g_assert_cmpstr (json_object_get_string_member (object, "expiresAt"), ==, "2026-12-02T10:00:00Z");
  g_assert_cmpstr (json_object_get_string_member (object, "clientId"), ==, "cid");
  g_assert_cmpstr (json_object_get_string_member (object, "clientSecret"), ==, "csecret");
  g_assert_cmpstr (json_object_get_string_member (object, "registrationExpiresAt"), ==, "2027-03-02T09:00:00Z");
  g_assert_cmpstr (json_object_get_string_member (object, "receivedAt"), ==, "2026-01-01T00:00:00Z");
  g_assert_false (json_object_has_member (object, "refreshToken"));

  /* botocore reads it (its SSOTokenLoader and the dateutil parse of its SSOTokenProvider). */
  {
    g_autofree char *script = g_strdup_printf (
      "import json, dateutil.parser\n"
      "from botocore.utils import SSOTokenLoader\n"
      "from botocore.credentials import JSONFileCache\n"
      "t = SSOTokenLoader(cache=JSONFileCache('%s'))('" START_URL "', session_name='corp')\n"
      "print(t['accessToken'], dateutil.parser.parse(t['expiresAt']).isoformat())\n", dir);
    const char *argv[] = { "/usr/bin/python3", "-c", script, NULL };
    g_autofree char *out = NULL;
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                                 &status, &error));
    g_assert_no_error (error);
    g_assert_cmpstr (out, ==, "new-access 2026-12-02T10:00:00+00:00\n");
  }
  g_date_time_unref (token.expires_at);
  g_date_time_unref (token.registration_expires_at);
}

/* ------------------------------------------------------------------------ */
/* The profile                                                                */

static void
test_config_session (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynSsoConfig) legacy = config_of (fixture, "legacy");
  g_autoptr(DynSsoConfig) services = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (config->profile, ==, "dev");
  g_assert_cmpstr (config->session_name, ==, "corp");
  g_assert_cmpstr (config->start_url, ==, START_URL);
  g_assert_cmpstr (config->sso_region, ==, "us-east-1");
  g_assert_cmpstr (config->registration_scopes, ==, "sso:account:access");
  g_assert_cmpstr (config->account_id, ==, "111111111111");
  g_assert_cmpstr (config->role_name, ==, "ReadOnly");
  g_assert_cmpstr (config->oidc_endpoint, ==, dyn_signin_server_get_url (fixture->server));
  g_assert_cmpstr (config->portal_endpoint, ==, dyn_signin_server_get_url (fixture->server));

  g_assert_null (legacy->session_name);
  g_assert_cmpstr (legacy->start_url, ==, START_URL);
  g_assert_cmpstr (legacy->role_name, ==, "Admin");

  /* Without the variables: the services section, else the AWS endpoints. */
  g_unsetenv ("AWS_ENDPOINT_URL_SSO_OIDC");
  g_unsetenv ("AWS_ENDPOINT_URL_SSO");
  services = config_of (fixture, "viaservices");
  g_assert_cmpstr (services->oidc_endpoint, ==, dyn_signin_server_get_url (fixture->server));
  g_assert_cmpstr (services->portal_endpoint, ==, dyn_signin_server_get_url (fixture->server));
  g_clear_pointer (&config, dyn_sso_config_free);
  config = config_of (fixture, "dev");
  g_assert_null (config->oidc_endpoint);
  g_assert_null (config->portal_endpoint);

  /* Plain http only towards loopback. */
  g_assert_null (dyn_sso_config_from_profile (fixture->shared, "insecure", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "insecure"));
  g_clear_error (&error);

  /* No SSO profile: no config, no error. */
  g_assert_null (dyn_sso_config_from_profile (fixture->shared, "nobody", &error));
  g_assert_no_error (error);
}

static void
test_config_refused (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynProfile) profile = NULL;
  DynResolveOptions options = { 0 };

  /* As botocore: "The value for sso_start_url is inconsistent between profile … and sso-session". */
  g_assert_null (dyn_sso_config_from_profile (fixture->shared, "mismatch", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'mismatch'"));
  g_assert_nonnull (strstr (error->message, "sso_start_url"));
  g_assert_nonnull (strstr (error->message, "'corp'"));
  g_clear_error (&error);

  g_assert_null (dyn_sso_config_from_profile (fixture->shared, "noregion", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "'noregion'"));
  g_assert_nonnull (strstr (error->message, "sso_region"));
  g_clear_error (&error);

  g_assert_null (dyn_sso_config_from_profile (fixture->shared, "nosession", &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'nosession'"));
  g_assert_nonnull (strstr (error->message, "gone"));
  g_clear_error (&error);

  /* Credentials need the role. */
  options.profile = "norole";
  profile = dyn_sign_in_resolve (fixture->shared, &options, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "'norole'"));
  g_assert_nonnull (strstr (error->message, "sso_role_name"));
  g_clear_error (&error);

  options.profile = "mismatch";
  g_assert_null (dyn_sign_in_resolve (fixture->shared, &options, NULL, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "GetRoleCredentials"), ==, 0);
}

/* ------------------------------------------------------------------------ */
/* The device flow                                                            */

static void
test_login_device_flow (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(TestPrompter) prompter = prompter_new (fixture->server, TRUE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  g_autoptr(JsonNode) log = NULL;
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autofree char *dir = g_path_get_dirname (path);
  JsonObject *entry;
  JsonObject *parameters;
  struct stat st;
  gint64 started;

  started = g_get_monotonic_time ();
  dyn_sso_login_async (config, DYN_SIGN_IN_PROMPTER (prompter), NULL, result_cb, &result);
  g_assert_true (dyn_sso_login_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  /* A lower bound only: the first poll at once answered slow_down, so the interval of 1 s became
   * 6 s (the CLI's +5 s) before the pending poll and again before the last one. */
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 12 * G_USEC_PER_SEC);

  /* The prompter was shown the code and told the flow ended well. */
  g_assert_cmpuint (prompter->shown, ==, 1);
  g_assert_cmpuint (prompter->hidden, ==, 1);
  g_assert_no_error (prompter->hide_error);
  g_assert_nonnull (prompter->user_code);
  g_assert_nonnull (strstr (prompter->verification_uri, prompter->user_code));
  g_assert_cmpstr (prompter->start_url, ==, START_URL);
  g_assert_cmpstr (prompter->session_name, ==, "corp");

  /* RegisterClient, StartDeviceAuthorization, then CreateToken: slow_down, pending, the token. */
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "RegisterClient"), ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 3);
  entry = log_entry (fixture, "RegisterClient", 0, &log);
  parameters = json_object_get_object_member (entry, "parameters");
  g_assert_cmpstr (json_object_get_string_member (parameters, "clientName"), ==, "dynoscope");
  g_assert_cmpstr (json_object_get_string_member (parameters, "clientType"), ==, "public");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (parameters, "scopes"), 0), ==,
                   "sso:account:access");
  g_clear_pointer (&log, json_node_unref);
  entry = log_entry (fixture, "CreateToken", 0, &log);
  g_assert_cmpstr (json_object_get_string_member (entry, "error"), ==, "SlowDownException");
  g_clear_pointer (&log, json_node_unref);
  entry = log_entry (fixture, "CreateToken", 1, &log);
  g_assert_cmpstr (json_object_get_string_member (entry, "error"), ==, "AuthorizationPendingException");
  g_clear_pointer (&log, json_node_unref);
  entry = log_entry (fixture, "CreateToken", 2, &log);
  g_assert_cmpint (json_object_get_int_member (entry, "status"), ==, 200);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "parameters"), "grantType"),
                   ==, "urn:ietf:params:oauth:grant-type:device_code");

  /* The cache file: its name, 0600 in 0700, the CLI's fields. */
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (g_stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  token = dyn_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token->start_url, ==, START_URL);
  g_assert_cmpstr (token->region, ==, "us-east-1");
  g_assert_true (g_str_has_prefix (token->access_token, "aoa"));
  g_assert_true (g_str_has_prefix (token->refresh_token, "aor"));
  g_assert_true (g_str_has_prefix (token->client_id, "client-"));
  g_assert_true (g_str_has_prefix (token->client_secret, "secret-"));
  g_assert_nonnull (token->registration_expires_at);
  g_assert_cmpint (g_date_time_to_unix (token->expires_at) - g_get_real_time () / G_USEC_PER_SEC, >, 28000);

  /* A second login reuses the registration cached in the token file. */
  g_clear_object (&result);
  dyn_sso_login_async (config, DYN_SIGN_IN_PROMPTER (prompter), NULL, result_cb, &result);
  g_assert_true (dyn_sso_login_finish (wait_result (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "RegisterClient"), ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 2);
}

static void
test_login_cancel (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(TestPrompter) prompter = prompter_new (fixture->server, TRUE);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = cache_file (fixture, CORP_CACHE);

  prompter->cancel = TRUE;
  dyn_sso_login_async (config, DYN_SIGN_IN_PROMPTER (prompter), NULL, result_cb, &result);
  g_assert_false (dyn_sso_login_finish (wait_result (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (prompter->hidden, ==, 1);
  g_assert_error (prompter->hide_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* ------------------------------------------------------------------------ */
/* Credentials                                                                */

static void
test_credentials_cached_token (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 8 * 3600);
  g_autoptr(TestPrompter) prompter = prompter_new (fixture->server, FALSE);
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) log = NULL;
  DynResolveOptions options = { .profile = "dev" };
  JsonObject *parameters;

  write_cache (fixture, CORP_CACHE, text);
  profile = dyn_sign_in_resolve (fixture->shared, &options, DYN_SIGN_IN_PROMPTER (prompter), &error);
  g_assert_no_error (error);
  creds = get_credentials (dyn_profile_get_credentials_provider (profile), &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (creds->access_key_id, "ASIA"));
  g_assert_nonnull (creds->secret_access_key);
  g_assert_nonnull (creds->session_token);
  g_assert_nonnull (creds->expiration);
  g_assert_cmpint (g_date_time_to_unix (creds->expiration), >, g_get_real_time () / G_USEC_PER_SEC + 3000);

  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 0);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "GetRoleCredentials"), ==, 1);
  parameters = json_object_get_object_member (log_entry (fixture, "GetRoleCredentials", 0, &log), "parameters");
  g_assert_cmpstr (json_object_get_string_member (parameters, "role_name"), ==, "ReadOnly");
  g_assert_cmpstr (json_object_get_string_member (parameters, "account_id"), ==, "111111111111");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     log_entry (fixture, "GetRoleCredentials", 0, &log), "parameters"), "bearer_token"), !=, NULL);
  g_assert_cmpuint (prompter->shown, ==, 0);
}

static void
test_credentials_refresh (Fixture       *fixture,
                          gconstpointer  data)
{
  /* The cached access token expired an hour ago; the refresh token still works. */
  g_autofree char *text = cli_token (START_URL, "aoa-expired-token", -3600);
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autoptr(TestPrompter) prompter = prompter_new (fixture->server, FALSE);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) log = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *parameters;

  write_cache (fixture, CORP_CACHE, text);
  provider = dyn_sso_provider_new (config, DYN_SIGN_IN_PROMPTER (prompter));
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);

  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 1);
  parameters = json_object_get_object_member (log_entry (fixture, "CreateToken", 0, &log), "parameters");
  g_assert_cmpstr (json_object_get_string_member (parameters, "grantType"), ==, "refresh_token");
  g_assert_cmpstr (json_object_get_string_member (parameters, "clientId"), ==, PRE_CLIENT);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 0);

  /* The new token is in the file, with the CLI's other fields kept. */
  token = dyn_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (token->access_token, "aoa"));
  g_assert_cmpstr (token->access_token, !=, "aoa-expired-token");
  g_assert_cmpstr (token->refresh_token, !=, PRE_REFRESH);
  g_assert_cmpstr (token->client_id, ==, PRE_CLIENT);
  g_assert_cmpint (g_date_time_to_unix (token->expires_at) - g_get_real_time () / G_USEC_PER_SEC, >, 28000);
  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "receivedAt"),
                   ==, "2026-01-01T00:00:00Z");
}

static void
test_credentials_refresh_window (Fixture       *fixture,
                                 gconstpointer  data)
{
  /* Ten minutes left: inside botocore's 15 minute window, so the token is refreshed first. */
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 600);
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) log = NULL;
  const char *bearer;

  write_cache (fixture, CORP_CACHE, text);
  provider = dyn_sso_provider_new (config, NULL);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 1);
  token = dyn_sso_token_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (token->access_token, !=, PRE_ACCESS);
  /* GetRoleCredentials went with the new token (the log shows its fingerprint, not the token). */
  bearer = json_object_get_string_member (json_object_get_object_member (
             log_entry (fixture, "GetRoleCredentials", 0, &log), "parameters"), "bearer_token");
  {
    g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, token->access_token, -1);
    g_autofree char *fingerprint = g_strdup_printf ("sha256:%.12s", sha);

    g_assert_cmpstr (bearer, ==, fingerprint);
  }

  /* A refresh that fails inside the window leaves the file and uses the token while it lasts. */
  g_clear_object (&provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&text, g_free);
  text = cli_token (START_URL, PRE_ACCESS, 600);
  write_cache (fixture, CORP_CACHE, text);
  g_assert_true (dyn_signin_server_control (fixture->server, "revoke-refresh", &error));
  provider = dyn_sso_provider_new (config, NULL);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 2);
  g_clear_pointer (&token, dyn_sso_token_free);
  token = dyn_sso_token_load (path, &error);
  g_assert_cmpstr (token->access_token, ==, PRE_ACCESS);
}

static void
test_credentials_refresh_revoked (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autofree char *text = cli_token (START_URL, "aoa-expired-token", -3600);
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(TestPrompter) prompter = prompter_new (fixture->server, FALSE);
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynResolveOptions options = { .profile = "dev" };

  write_cache (fixture, CORP_CACHE, text);
  g_assert_true (dyn_signin_server_control (fixture->server, "revoke-refresh", &error));
  profile = dyn_sign_in_resolve (fixture->shared, &options, DYN_SIGN_IN_PROMPTER (prompter), &error);
  g_assert_no_error (error);
  creds = get_credentials (dyn_profile_get_credentials_provider (profile), &error);
  g_assert_null (creds);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_cmpstr (error->message, ==,
                   "The IAM Identity Center session for profile dev expired; sign in again "
                   "(dynoscope-cli login --profile dev)");
  assert_no_secret (error->message, path);

  /* The refresh was tried; no device flow for a prompter that cannot interact; as botocore, the
   * expired token still went to the portal (and got its 401); the file is left. */
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "CreateToken"), ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 0);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "GetRoleCredentials"), ==, 1);
  g_assert_cmpuint (prompter->shown, ==, 0);
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, text);
}

static void
test_credentials_unauthorized (Fixture       *fixture,
                               gconstpointer  data)
{
  /* The portal refuses a token that looks valid (signed out elsewhere): 401 UnauthorizedException. */
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 8 * 3600);
  g_autofree char *path = cache_file (fixture, CORP_CACHE);
  g_autoptr(TestPrompter) quiet = prompter_new (fixture->server, FALSE);
  g_autoptr(TestPrompter) user = prompter_new (fixture->server, TRUE);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;

  write_cache (fixture, CORP_CACHE, text);
  g_assert_true (dyn_signin_server_control (fixture->server, "expire?access_token=" PRE_ACCESS, &error));

  provider = dyn_sso_provider_new (config, DYN_SIGN_IN_PROMPTER (quiet));
  g_assert_null (get_credentials (provider, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "profile dev"));
  assert_no_secret (error->message, path);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 0);
  g_clear_error (&error);
  g_clear_object (&provider);

  /* With a user to ask, the device flow runs and the credentials follow. */
  provider = dyn_sso_provider_new (config, DYN_SIGN_IN_PROMPTER (user));
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);
  g_assert_cmpuint (user->shown, ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "StartDeviceAuthorization"), ==, 1);
  /* The refused one of the first provider, the refused one and the one after signing in. */
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "GetRoleCredentials"), ==, 3);
}

static void
test_credentials_no_token_interactive (Fixture       *fixture,
                                       gconstpointer  data)
{
  /* No cache file at all and a user to ask: the device flow, then GetRoleCredentials. */
  g_autoptr(TestPrompter) user = prompter_new (fixture->server, TRUE);
  g_autoptr(TestPrompter) quiet = prompter_new (fixture->server, FALSE);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;

  provider = dyn_sso_provider_new (config, DYN_SIGN_IN_PROMPTER (quiet));
  g_assert_null (get_credentials (provider, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "RegisterClient"), ==, 0);
  g_clear_error (&error);
  g_clear_object (&provider);

  provider = dyn_sso_provider_new (config, DYN_SIGN_IN_PROMPTER (user));
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (user->shown, ==, 1);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "GetRoleCredentials"), ==, 1);
}

static void
test_credentials_legacy (Fixture       *fixture,
                         gconstpointer  data)
{
  /* A legacy profile: the cache file is named after the start URL. */
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 8 * 3600);
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) log = NULL;
  DynResolveOptions options = { .profile = "legacy" };
  JsonObject *parameters;

  write_cache (fixture, LEGACY_CACHE, text);
  profile = dyn_sign_in_resolve (fixture->shared, &options, NULL, &error);
  g_assert_no_error (error);
  creds = get_credentials (dyn_profile_get_credentials_provider (profile), &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);
  parameters = json_object_get_object_member (log_entry (fixture, "GetRoleCredentials", 0, &log), "parameters");
  g_assert_cmpstr (json_object_get_string_member (parameters, "role_name"), ==, "Admin");
}

/* ------------------------------------------------------------------------ */
/* Accounts and roles                                                         */

static void
test_list (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 8 * 3600);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) accounts = NULL;
  g_auto(GStrv) roles = NULL;
  g_autoptr(GError) error = NULL;
  const char * const expected_roles[] = { "ReadOnly", "Admin", "Billing", NULL };
  DynSsoAccount *account;

  /* No token: sign in first. */
  dyn_sso_list_accounts_async (config, NULL, result_cb, &result);
  g_assert_null (dyn_sso_list_accounts_finish (wait_result (&result), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_clear_error (&error);
  g_clear_object (&result);

  write_cache (fixture, CORP_CACHE, text);
  dyn_sso_list_accounts_async (config, NULL, result_cb, &result);
  accounts = dyn_sso_list_accounts_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (accounts->len, ==, 3);
  account = g_ptr_array_index (accounts, 0);
  g_assert_cmpstr (account->account_id, ==, "111111111111");
  g_assert_cmpstr (account->account_name, ==, "dev");
  g_assert_cmpstr (account->email_address, ==, "dev@example.com");
  account = g_ptr_array_index (accounts, 2);
  g_assert_cmpstr (account->account_id, ==, "333333333333");
  g_assert_null (account->email_address);
  /* Two pages of two. */
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "ListAccounts"), ==, 2);

  g_clear_object (&result);
  dyn_sso_list_account_roles_async (config, "111111111111", NULL, result_cb, &result);
  roles = dyn_sso_list_account_roles_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (roles, expected_roles);
  g_assert_cmpint (dyn_signin_server_count (fixture->server, "ListAccountRoles"), ==, 2);
}

/* ------------------------------------------------------------------------ */
/* Answers we refuse                                                          */

static void
test_parse_garbage (void)
{
  static const char *operations[] = {
    "RegisterClient", "StartDeviceAuthorization", "CreateToken", "GetRoleCredentials",
    "ListAccounts", "ListAccountRoles",
  };
  static const char *bodies[] = {
    "", "<html>Bad gateway</html>", "{\"accessToken\": ", "[]", "null",
    "{\"accessToken\": 7, \"expiresIn\": \"x\", \"roleCredentials\": 1, \"accountList\": {}, \"roleList\": 3,"
    " \"clientId\": 1, \"deviceCode\": [], \"nextToken\": 5}",
  };
  static const char good_token[] = "{\"accessToken\": \"aoa-secret-value\", \"tokenType\": \"Bearer\", \"expiresIn\": 3600}";
  static const char error_body[] = "{\"error\": \"invalid_grant\", \"error_description\": \"Invalid refresh token provided\"}";
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (operations); i++)
    for (guint j = 0; j < G_N_ELEMENTS (bodies); j++)
      {
        g_assert_null (_dyn_sso_parse_response (operations[i], 200, bodies[j], strlen (bodies[j]), &error));
        g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
        g_assert_nonnull (strstr (error->message, operations[i]));
        g_clear_error (&error);
      }

  node = _dyn_sso_parse_response ("CreateToken", 200, good_token, strlen (good_token), &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);

  /* A valid answer with a token in it that is the wrong shape elsewhere never shows the token. */
  g_assert_null (_dyn_sso_parse_response ("GetRoleCredentials", 200, good_token, strlen (good_token), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_null (strstr (error->message, "aoa-secret-value"));
  g_clear_error (&error);

  /* Service errors: the code and message, the kind. */
  g_assert_null (_dyn_sso_parse_response ("CreateToken", 400, error_body, strlen (error_body), &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "InvalidGrantException"));
  g_assert_cmpstr (dyn_error_get_details (error)->aws_code, ==, "InvalidGrantException");
  g_clear_error (&error);
  g_assert_null (_dyn_sso_parse_response ("GetRoleCredentials", 502, "<html>", 6, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_SERVER);
  g_assert_nonnull (strstr (error->message, "GetRoleCredentials"));
}

static void
test_garbled_server (Fixture       *fixture,
                     gconstpointer  data)
{
  /* A portal endpoint that answers with something that is no JSON: a protocol error. */
  g_autofree char *text = cli_token (START_URL, PRE_ACCESS, 8 * 3600);
  g_autoptr(DynSsoConfig) config = config_of (fixture, "dev");
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(GError) error = NULL;

  write_cache (fixture, CORP_CACHE, text);
  /* The server's control path answers {"error": …} with 404; its / answers the STS XML error. */
  g_free (config->portal_endpoint);
  config->portal_endpoint = g_strdup_printf ("%s/_test/scenario#", dyn_signin_server_get_url (fixture->server));
  provider = dyn_sso_provider_new (config, NULL);
  g_assert_null (get_credentials (provider, &error));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "GetRoleCredentials"));
  assert_no_secret (error->message, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (const char * const *v = (const char * const[]) { "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                                                        "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_REGION",
                                                        "AWS_DEFAULT_REGION", "AWS_ROLE_ARN",
                                                        "AWS_WEB_IDENTITY_TOKEN_FILE",
                                                        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
                                                        "AWS_CONTAINER_CREDENTIALS_FULL_URI", NULL };
       *v != NULL; v++)
    g_unsetenv (*v);
  g_setenv ("AWS_REGION", "eu-west-1", TRUE);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  g_test_add_func ("/sso/cache/path", test_cache_path);
  ADD ("/sso/cache/cli-format", test_cache_cli_format);
  ADD ("/sso/cache/save", test_cache_save);
  ADD ("/sso/config/session", test_config_session);
  ADD ("/sso/config/refused", test_config_refused);
  ADD ("/sso/login/device-flow", test_login_device_flow);
  ADD ("/sso/login/cancel", test_login_cancel);
  ADD ("/sso/credentials/cached-token", test_credentials_cached_token);
  ADD ("/sso/credentials/refresh", test_credentials_refresh);
  ADD ("/sso/credentials/refresh-window", test_credentials_refresh_window);
  ADD ("/sso/credentials/refresh-revoked", test_credentials_refresh_revoked);
  ADD ("/sso/credentials/unauthorized", test_credentials_unauthorized);
  ADD ("/sso/credentials/no-token", test_credentials_no_token_interactive);
  ADD ("/sso/credentials/legacy", test_credentials_legacy);
  ADD ("/sso/list", test_list);
  g_test_add_func ("/sso/parse/garbage", test_parse_garbage);
  ADD ("/sso/parse/garbled-server", test_garbled_server);
#undef ADD

  return g_test_run ();
}
