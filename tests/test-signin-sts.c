/* SPDX-License-Identifier: GPL-3.0-or-later */
/* STS, assume role, web identity, container and instance metadata credentials against the real
 * sign-in test server (tests/aws-signin-server.py) on loopback; the STS XML parser on hand-made
 * answers; retries and message scrubbing against a small scripted HTTP server. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "dyn-error.h"
#include "dyn-signin-private.h"
#include "dyn-signin-server.h"
#include "dyn-sts-private.h"
#include "dyn-test-util.h"

#define DEADLINE (5 * G_TIME_SPAN_MINUTE)

#define BASE_KEY     "AKIATESTBASE00000001"
#define BASE_SECRET  "base/user/secret/0001"
#define ENV_KEY      "AKIATESTENVUSER00002"
#define ENV_SECRET   "env/user/secret/0002"
#define WEB_TOKEN    "eyJhbGciOiJSUzI1NiJ9.sts-test-web-identity.signature"
#define CONTAINER_AUTH "Bearer container-auth-secret-77"
#define READER_ARN   "arn:aws:iam::123456789012:role/Reader"
#define ADMIN_ARN    "arn:aws:iam::123456789012:role/Admin"
#define PARTNER_ARN  "arn:aws:iam::210987654321:role/Partner"
#define MFA_SERIAL   "arn:aws:iam::123456789012:mfa/alice"
#define MFA_CODE     "246810"

static const char scenario_template[] =
  "{\"account\": \"123456789012\", \"seed\": \"test-signin-sts\", \"credentials_ttl\": %d,"
  " \"users\": {"
  "   \"" BASE_KEY "\": {\"secret\": \"" BASE_SECRET "\", \"arn\": \"arn:aws:iam::123456789012:user/alice\"},"
  "   \"" ENV_KEY "\": {\"secret\": \"" ENV_SECRET "\", \"arn\": \"arn:aws:iam::123456789012:user/ci\"}},"
  " \"roles\": {"
  "   \"" READER_ARN "\": {\"max_duration\": 3600},"
  "   \"" ADMIN_ARN "\": {\"mfa_serial\": \"" MFA_SERIAL "\", \"mfa_code\": \"" MFA_CODE "\"},"
  "   \"" PARTNER_ARN "\": {\"external_id\": \"partner-ext-42\", \"max_duration\": 7200},"
  "   \"arn:aws:iam::123456789012:role/ChainA\": {},"
  "   \"arn:aws:iam::123456789012:role/ChainB\": {},"
  "   \"arn:aws:iam::123456789012:role/ChainC\": {},"
  "   \"arn:aws:iam::123456789012:role/WebRole\": {}},"
  " \"web_identity_tokens\": {\"" WEB_TOKEN "\": {\"subject\": \"system:serviceaccount:shop:api\"}},"
  " \"container\": {\"authorization\": \"" CONTAINER_AUTH "\","
  "               \"role_arn\": \"arn:aws:iam::123456789012:role/ecs-task\"},"
  " \"imds\": {\"role_name\": \"ec2-role\"}}";

static DynSigninServer *server;         /* credentials live an hour */
static DynSigninServer *short_server;   /* credentials live two minutes: always within the refresh margin */
static char *workdir;
/* Every secret and token a test saw: no error message may hold one. */
static GPtrArray *secrets;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                    */

static void
remember_secrets (DynCredentials *creds)
{
  g_ptr_array_add (secrets, g_strdup (creds->secret_access_key));
  if (creds->session_token != NULL)
    g_ptr_array_add (secrets, g_strdup (creds->session_token));
}

static void
assert_no_secret (const char *text)
{
  static const char * const fixed[] = { BASE_SECRET, ENV_SECRET, WEB_TOKEN, CONTAINER_AUTH, "container-auth-secret" };

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    if (strstr (text, fixed[i]) != NULL)
      g_error ("a secret is in the message: %s", text);
  for (guint i = 0; i < secrets->len; i++)
    if (strstr (text, g_ptr_array_index (secrets, i)) != NULL)
      g_error ("a secret or token is in the message: %s", text);
}

/* An error of the code under test: never a secret in it. */
static void
check_error (const GError *error)
{
  const DynErrorDetails *details;

  g_assert_nonnull (error);
  assert_no_secret (error->message);
  if ((details = dyn_error_get_details (error)) != NULL)
    {
      if (details->message != NULL)
        assert_no_secret (details->message);
      if (details->body != NULL)
        assert_no_secret (details->body);
    }
}

static GAsyncResult *
wait_result (GAsyncResult **result)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE;

  while (*result == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("no answer after 5 minutes");
      g_main_context_iteration (NULL, TRUE);
    }
  return *result;
}

static char *
fingerprint (const char *value)
{
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, value, -1);

  return g_strdup_printf ("sha256:%.12s", hex);
}

static const char *const cleared_env[] = {
  "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_ROLE_SESSION_NAME", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_CONTAINER_AUTHORIZATION_TOKEN", "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
  "AWS_EC2_METADATA_SERVICE_ENDPOINT", "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "AWS_STS_REGIONAL_ENDPOINTS",
  "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_STS", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
  "AWS_METADATA_SERVICE_TIMEOUT", "AWS_METADATA_SERVICE_NUM_ATTEMPTS",
};

/* A clean environment, STS on @srv (NULL: the main server), its log and counters reset. */
static void
begin (DynSigninServer *srv)
{
  g_autoptr(GError) error = NULL;

  if (srv == NULL)
    srv = server;
  for (guint i = 0; i < G_N_ELEMENTS (cleared_env); i++)
    g_unsetenv (cleared_env[i]);
  /* Never the machine's own metadata service. */
  g_setenv ("AWS_EC2_METADATA_DISABLED", "true", TRUE);
  g_setenv ("AWS_ENDPOINT_URL_STS", dyn_signin_server_get_url (srv), TRUE);
  g_assert_true (dyn_signin_server_control (srv, "reset", &error));
  g_assert_no_error (error);
}

static char *
write_file (const char *name,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (workdir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, &error));
  g_assert_no_error (error);
  return path;
}

static DynSharedConfig *
load (const char *config,
      const char *credentials)
{
  g_autofree char *config_path = write_file ("config", config != NULL ? config : "");
  g_autofree char *credentials_path = write_file ("credentials", credentials != NULL ? credentials : "");
  g_autoptr(GError) error = NULL;
  DynSharedConfig *shared = dyn_shared_config_load_from_files (config_path, credentials_path, &error);

  g_assert_no_error (error);
  return shared;
}

static DynCredentialsProvider *
resolve (DynSharedConfig    *shared,
         const char         *profile,
         DynSignInPrompter  *prompter,
         GError            **error)
{
  DynResolveOptions options = { .profile = profile };
  g_autoptr(DynProfile) resolved = dyn_sign_in_resolve (shared, &options, prompter, error);

  if (resolved == NULL)
    return NULL;
  return g_object_ref (dyn_profile_get_credentials_provider (resolved));
}

static DynCredentials *
get_credentials (DynCredentialsProvider  *provider,
                 GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  DynCredentials *creds;

  dyn_credentials_provider_get_async (provider, NULL, dyn_test_result_cb, &result);
  creds = dyn_credentials_provider_get_finish (provider, wait_result (&result), error);
  if (creds != NULL)
    remember_secrets (creds);
  return creds;
}

/* Resolves @profile and gets its credentials, which must come. */
static DynCredentials *
resolve_and_get (DynSharedConfig   *shared,
                 const char        *profile,
                 DynSignInPrompter *prompter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCredentialsProvider) provider = resolve (shared, profile, prompter, &error);
  DynCredentials *creds;

  g_assert_no_error (error);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);
  return creds;
}

/* Resolves @profile and gets its credentials, which must fail; returns the error. */
static GError *
resolve_and_fail (DynSharedConfig   *shared,
                  const char        *profile,
                  DynSignInPrompter *prompter)
{
  GError *error = NULL;
  g_autoptr(DynCredentialsProvider) provider = resolve (shared, profile, prompter, &error);

  if (provider != NULL)
    {
      g_autoptr(DynCredentials) creds = get_credentials (provider, &error);

      g_assert_null (creds);
    }
  check_error (error);
  return error;
}

static JsonArray *
server_log (DynSigninServer *srv,
            JsonNode       **holder)
{
  g_autoptr(GError) error = NULL;

  *holder = dyn_signin_server_get_log (srv != NULL ? srv : server, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (*holder));
  return json_node_get_array (*holder);
}

/* The logged operations, "AssumeRole,AssumeRole,…". */
static char *
operations (DynSigninServer *srv)
{
  g_autoptr(JsonNode) holder = NULL;
  JsonArray *log = server_log (srv, &holder);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (log); i++)
    {
      JsonObject *entry = json_array_get_object_element (log, i);

      if (text->len > 0)
        g_string_append_c (text, ',');
      g_string_append (text, json_object_get_string_member_with_default (entry, "operation", "?"));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
entry_string (JsonObject *entry,
              const char *name)
{
  JsonNode *node = json_object_get_member (entry, name);

  return (node != NULL && !JSON_NODE_HOLDS_NULL (node)) ? json_node_get_string (node) : NULL;
}

static const char *
entry_param (JsonObject *entry,
             const char *name)
{
  JsonObject *params = json_object_get_object_member (entry, "parameters");

  return (params != NULL && json_object_has_member (params, name))
         ? json_object_get_string_member (params, name) : NULL;
}

/* ------------------------------------------------------------------------ */
/* A prompter that stands for the user                                         */

#define TEST_TYPE_PROMPTER (test_prompter_get_type ())
G_DECLARE_FINAL_TYPE (TestPrompter, test_prompter, TEST, PROMPTER, GObject)

struct _TestPrompter {
  GObject   parent_instance;
  gboolean  interactive;
  char     *code;           /* NULL: the user cancels */
  guint     asked;
  char     *last_profile;
  char     *last_serial;
};

static void test_prompter_iface_init (DynSignInPrompterInterface *iface);

G_DEFINE_TYPE_WITH_CODE (TestPrompter, test_prompter, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (DYN_TYPE_SIGN_IN_PROMPTER, test_prompter_iface_init))

static gboolean
test_prompter_can_interact (DynSignInPrompter *prompter)
{
  return TEST_PROMPTER (prompter)->interactive;
}

static void
test_prompter_ask_mfa_code (DynSignInPrompter   *prompter,
                            const char          *profile,
                            const char          *mfa_serial,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TestPrompter *self = TEST_PROMPTER (prompter);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->asked++;
  g_free (self->last_profile);
  self->last_profile = g_strdup (profile);
  g_free (self->last_serial);
  self->last_serial = g_strdup (mfa_serial);
  if (self->code != NULL)
    g_task_return_pointer (task, g_strdup (self->code), g_free);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The user cancelled");
}

static char *
test_prompter_ask_mfa_code_finish (DynSignInPrompter  *prompter,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_prompter_iface_init (DynSignInPrompterInterface *iface)
{
  iface->can_interact = test_prompter_can_interact;
  iface->ask_mfa_code = test_prompter_ask_mfa_code;
  iface->ask_mfa_code_finish = test_prompter_ask_mfa_code_finish;
}

static void
test_prompter_finalize (GObject *object)
{
  TestPrompter *self = TEST_PROMPTER (object);

  g_free (self->code);
  g_free (self->last_profile);
  g_free (self->last_serial);
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
test_prompter_new (gboolean    interactive,
                   const char *code)
{
  TestPrompter *self = g_object_new (TEST_TYPE_PROMPTER, NULL);

  self->interactive = interactive;
  self->code = g_strdup (code);
  return self;
}

/* ------------------------------------------------------------------------ */
/* The XML answers                                                            */

#define ASSUMED_XML \
  "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n" \
  "  <AssumeRoleResult>\n" \
  "    <AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/Reader/s</Arn>\n" \
  "      <AssumedRoleId>AROA123:s</AssumedRoleId></AssumedRoleUser>\n" \
  "    <Credentials><AccessKeyId>ASIAEXAMPLE</AccessKeyId><SecretAccessKey>sec&amp;ret</SecretAccessKey>\n" \
  "      <SessionToken>tok</SessionToken><Expiration>2030-01-02T03:04:05Z</Expiration></Credentials>\n" \
  "    <PackedPolicySize>6</PackedPolicySize>\n" \
  "  </AssumeRoleResult>\n" \
  "  <ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata>\n" \
  "</AssumeRoleResponse>\n"

static GHashTable *
parse (const char  *action,
       guint        status,
       const char  *xml,
       GError     **error)
{
  return _dyn_sts_parse_response (action, status, xml, strlen (xml), error);
}

static void
test_parse_assume_role (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = parse ("AssumeRole", 200, ASSUMED_XML, &error);
  g_autoptr(DynCredentials) creds = NULL;
  g_autofree char *expiration = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (table, "AccessKeyId"), ==, "ASIAEXAMPLE");
  g_assert_cmpstr (g_hash_table_lookup (table, "SecretAccessKey"), ==, "sec&ret");
  g_assert_cmpstr (g_hash_table_lookup (table, "SessionToken"), ==, "tok");
  g_assert_cmpstr (g_hash_table_lookup (table, "Arn"), ==, "arn:aws:sts::123456789012:assumed-role/Reader/s");
  g_assert_cmpstr (g_hash_table_lookup (table, "PackedPolicySize"), ==, "6");

  creds = _dyn_sts_result_credentials (table);
  expiration = g_date_time_format_iso8601 (creds->expiration);
  g_assert_cmpstr (expiration, ==, "2030-01-02T03:04:05Z");
}

static void
test_parse_caller_identity (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = NULL;

  table = parse ("GetCallerIdentity", 200,
                 "<?xml version=\"1.0\"?><GetCallerIdentityResponse><GetCallerIdentityResult>"
                 "<Arn>arn:aws:iam::1:user/a</Arn><UserId>AIDA</UserId><Account>000000000001</Account>"
                 "</GetCallerIdentityResult></GetCallerIdentityResponse>", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (table, "Account"), ==, "000000000001");

  table = (g_hash_table_unref (table), NULL);
  table = parse ("GetCallerIdentity", 200,
                 "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>a</Arn><UserId>u</UserId>"
                 "</GetCallerIdentityResult></GetCallerIdentityResponse>", &error);
  g_assert_null (table);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_nonnull (strstr (error->message, "<Account>"));
}

/* Garbage, HTML, a wrong or missing element: a protocol error that names what is missing. */
static void
test_parse_garbage (void)
{
  static const struct {
    const char *xml;
    const char *names;   /* in the message, or NULL */
  } cases[] = {
    { "", NULL },
    { "garbage \x01\x02", NULL },
    { "<html><body><h1>Bad Gateway</h1></body></html>", "<html>" },
    { "<AssumeRoleResponse><AssumeRoleResult><Credentials>", NULL },
    { "<AssumeRoleResponse></AssumeRoleResponse>", "<AssumeRoleResult>" },
    { "<AssumeRoleResponse><AssumeRoleResult><AssumedRoleUser/></AssumeRoleResult></AssumeRoleResponse>",
      "<AccessKeyId>" },
    { "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId>"
      "<SecretAccessKey>S</SecretAccessKey><SessionToken>T</SessionToken></Credentials>"
      "</AssumeRoleResult></AssumeRoleResponse>", "<Expiration>" },
    { "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>A</AccessKeyId>"
      "<SecretAccessKey>S</SecretAccessKey><SessionToken>T</SessionToken><Expiration>soon</Expiration>"
      "</Credentials></AssumeRoleResult></AssumeRoleResponse>", "<Expiration>" },
    /* The keys count only inside <Credentials>. */
    { "<AssumeRoleResponse><AssumeRoleResult><AccessKeyId>A</AccessKeyId><SecretAccessKey>S</SecretAccessKey>"
      "<SessionToken>T</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration>"
      "</AssumeRoleResult></AssumeRoleResponse>", "<AccessKeyId>" },
    { "<GetCallerIdentityResponse><GetCallerIdentityResult/></GetCallerIdentityResponse>", "<AssumeRoleResponse>" },
    { "<AssumeRoleResponse/><AssumeRoleResponse/>", NULL },
    { "<ErrorResponse><Error><Message>no code</Message></Error></ErrorResponse>", "<Code>" },
    { "<AssumeRoleResponse><AssumeRoleResult>\xff\xfe</AssumeRoleResult></AssumeRoleResponse>", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GHashTable) table = parse ("AssumeRole", 200, cases[i].xml, &error);

      g_test_message ("case %u", i);
      g_assert_null (table);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
      if (cases[i].names != NULL)
        g_assert_nonnull (strstr (error->message, cases[i].names));
    }
}

/* A 5xx or 429 page that is no STS answer is worth another try. */
static void
test_parse_server_page (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = parse ("AssumeRole", 503, "<html><body>Service Unavailable", &error);

  g_assert_null (table);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_SERVER);
  g_assert_true (dyn_error_is_retryable (error));
  g_clear_error (&error);

  table = parse ("AssumeRole", 429, "slow down", &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_THROTTLED);
  g_assert_true (dyn_error_is_retryable (error));
  g_clear_error (&error);

  table = parse ("AssumeRole", 404, "<html>Not Found</html>", &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL);
  g_assert_false (dyn_error_is_retryable (error));
}

static void
test_parse_errors (void)
{
  static const struct {
    const char *code;
    guint       status;
    int         error;
  } cases[] = {
    { "ExpiredToken", 400, DYN_ERROR_EXPIRED_CREDENTIALS },
    { "AccessDenied", 403, DYN_ERROR_ACCESS_DENIED },
    { "InvalidClientTokenId", 403, DYN_ERROR_ACCESS_DENIED },
    { "SignatureDoesNotMatch", 403, DYN_ERROR_SIGNATURE },
    { "MissingAuthenticationToken", 403, DYN_ERROR_SIGNATURE },
    { "Throttling", 400, DYN_ERROR_THROTTLED },
    { "ValidationError", 400, DYN_ERROR_FAILED },
    { "RegionDisabledException", 403, DYN_ERROR_FAILED },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *xml = g_strdup_printf ("<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                                              "<Error><Type>Sender</Type><Code>%s</Code>"
                                              "<Message>Because &lt;reasons&gt;</Message></Error>"
                                              "<RequestId>req-%u</RequestId></ErrorResponse>",
                                              cases[i].code, i);
      g_autoptr(GHashTable) table = parse ("AssumeRole", cases[i].status, xml, &error);
      g_autofree char *request_id = g_strdup_printf ("req-%u", i);

      g_assert_null (table);
      dyn_test_assert_service_error (error, cases[i].error, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].code));
      g_assert_nonnull (strstr (error->message, "Because <reasons>"));
      g_assert_cmpstr (dyn_error_get_details (error)->request_id, ==, request_id);
      g_assert_cmpuint (dyn_error_get_details (error)->http_status, ==, cases[i].status);
    }
}

/* ------------------------------------------------------------------------ */
/* The endpoint                                                               */

static void
assert_endpoint (DynSharedConfig *shared,
                 const char      *profile,
                 const char      *region,
                 const char      *expected,
                 const char      *expected_source)
{
  g_autofree char *source = NULL;
  g_autofree char *endpoint = dyn_sign_in_sts_endpoint (shared, profile, region, &source);

  g_assert_cmpstr (endpoint, ==, expected);
  if (expected_source == NULL)
    g_assert_null (source);
  else
    g_assert_nonnull (strstr (source, expected_source));
}

static void
test_endpoint (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;

  begin (NULL);
  g_unsetenv ("AWS_ENDPOINT_URL_STS");
  shared = load ("[profile plain]\n"
                 "[profile legacy]\nsts_regional_endpoints = legacy\n"
                 "[profile regional]\nsts_regional_endpoints = regional\n"
                 "[profile local]\nservices = local\n"
                 "[services local]\nsts =\n  endpoint_url = http://127.0.0.1:4566\n"
                 "[profile ignore]\nendpoint_url = http://127.0.0.1:1\nignore_configured_endpoint_urls = true\n",
                 NULL);

  /* Regional by default, as the AWS CLI v2. */
  assert_endpoint (shared, "plain", "eu-west-1", "https://sts.eu-west-1.amazonaws.com", NULL);
  assert_endpoint (shared, "plain", "us-east-1", "https://sts.us-east-1.amazonaws.com", NULL);
  assert_endpoint (shared, "plain", NULL, "https://sts.amazonaws.com", NULL);
  assert_endpoint (shared, "plain", "cn-north-1", "https://sts.cn-north-1.amazonaws.com.cn", NULL);
  assert_endpoint (shared, "regional", "us-east-1", "https://sts.us-east-1.amazonaws.com", NULL);
  /* legacy: the global endpoint for botocore's legacy regions only. */
  assert_endpoint (shared, "legacy", "eu-west-1", "https://sts.amazonaws.com", NULL);
  assert_endpoint (shared, "legacy", "us-east-1", "https://sts.amazonaws.com", NULL);
  assert_endpoint (shared, "legacy", "ap-east-1", "https://sts.ap-east-1.amazonaws.com", NULL);
  assert_endpoint (shared, "legacy", "cn-northwest-1", "https://sts.cn-northwest-1.amazonaws.com.cn", NULL);
  g_assert_true (_dyn_sts_uses_global_endpoint (shared, "legacy", "eu-west-1"));
  g_assert_false (_dyn_sts_uses_global_endpoint (shared, "plain", "eu-west-1"));

  /* The environment's setting wins over the profile's. */
  g_setenv ("AWS_STS_REGIONAL_ENDPOINTS", "regional", TRUE);
  assert_endpoint (shared, "legacy", "eu-west-1", "https://sts.eu-west-1.amazonaws.com", NULL);
  g_setenv ("AWS_STS_REGIONAL_ENDPOINTS", "legacy", TRUE);
  assert_endpoint (shared, "plain", "eu-west-1", "https://sts.amazonaws.com", NULL);
  g_unsetenv ("AWS_STS_REGIONAL_ENDPOINTS");

  /* Configured endpoints. */
  assert_endpoint (shared, "local", "eu-west-1", "http://127.0.0.1:4566", "services section 'local'");
  assert_endpoint (shared, "ignore", "eu-west-1", "https://sts.eu-west-1.amazonaws.com", NULL);
  g_setenv ("AWS_ENDPOINT_URL", "http://127.0.0.1:2", TRUE);
  assert_endpoint (shared, "plain", "eu-west-1", "http://127.0.0.1:2", "AWS_ENDPOINT_URL");
  g_setenv ("AWS_ENDPOINT_URL_STS", "http://127.0.0.1:3", TRUE);
  assert_endpoint (shared, "local", "eu-west-1", "http://127.0.0.1:3", "AWS_ENDPOINT_URL_STS");
  assert_endpoint (NULL, NULL, "eu-west-1", "http://127.0.0.1:3", "AWS_ENDPOINT_URL_STS");
  g_setenv ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", TRUE);
  assert_endpoint (NULL, NULL, "eu-west-1", "https://sts.eu-west-1.amazonaws.com", NULL);
}

/* Plain http only towards loopback; a bad sts_regional_endpoints is refused with the profile named. */
static void
test_endpoint_refused (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  shared = load ("[profile reader]\nrole_arn = " READER_ARN "\nsource_profile = base\nregion = eu-west-1\n"
                 "[profile odd]\nrole_arn = " READER_ARN "\nsource_profile = base\n"
                 "sts_regional_endpoints = sometimes\nregion = us-east-1\n",
                 "[base]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = " BASE_SECRET "\n");

  g_setenv ("AWS_ENDPOINT_URL_STS", "http://sts.example.com", TRUE);
  error = resolve_and_fail (shared, "reader", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "AWS_ENDPOINT_URL_STS"));
  g_clear_error (&error);

  g_setenv ("AWS_ENDPOINT_URL_STS", dyn_signin_server_get_url (server), TRUE);
  error = resolve_and_fail (shared, "odd", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "'odd'"));
  g_assert_nonnull (strstr (error->message, "sometimes"));

  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "");
}

/* ------------------------------------------------------------------------ */
/* Assume role                                                                */

#define BASE_CREDENTIALS "[base]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = " BASE_SECRET "\n"

/* role_arn + source_profile with static keys: one AssumeRole signed by the source's key for the
 * profile's region, with the profile's session name; credentials that expire. */
static void
test_role_static_source (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) holder = NULL;
  JsonArray *log;
  JsonObject *entry;

  begin (NULL);
  shared = load ("[profile base]\n"
                 "[profile reader]\nrole_arn = " READER_ARN "\nsource_profile = base\n"
                 "role_session_name = test-reader\nregion = eu-west-1\n",
                 BASE_CREDENTIALS);

  provider = resolve (shared, "reader", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==,
                   "role " READER_ARN " of profile 'reader' via profile 'base'");
  /* Nothing is fetched before the credentials are asked for. */
  g_assert_cmpint (dyn_signin_server_count (server, "AssumeRole"), ==, 0);

  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
  g_assert_nonnull (creds->session_token);
  g_assert_nonnull (creds->expiration);
  g_assert_true (dyn_credentials_expires_within (creds, NULL, 2 * G_TIME_SPAN_HOUR));

  log = server_log (NULL, &holder);
  g_assert_cmpuint (json_array_get_length (log), ==, 1);
  entry = json_array_get_object_element (log, 0);
  g_assert_cmpstr (entry_string (entry, "operation"), ==, "AssumeRole");
  g_assert_cmpint (json_object_get_int_member (entry, "status"), ==, 200);
  g_assert_cmpstr (entry_param (entry, "RoleArn"), ==, READER_ARN);
  g_assert_cmpstr (entry_param (entry, "RoleSessionName"), ==, "test-reader");
  g_assert_null (entry_param (entry, "DurationSeconds"));
  g_assert_null (entry_param (entry, "ExternalId"));
  g_assert_cmpstr (entry_string (entry, "signing_access_key"), ==, BASE_KEY);
  g_assert_cmpstr (entry_string (entry, "signing_service"), ==, "sts");
  /* A configured endpoint is signed for the client's region. */
  g_assert_cmpstr (entry_string (entry, "signing_region"), ==, "eu-west-1");
  g_assert_null (entry_string (entry, "signing_session_token"));

  /* Cached: a second get asks nobody. */
  {
    g_autoptr(DynCredentials) again = get_credentials (provider, &error);

    g_assert_no_error (error);
    g_assert_true (again == creds);
  }
  g_assert_cmpint (dyn_signin_server_count (server, "AssumeRole"), ==, 1);
}

/* The blocking get (dynoscope-cli) runs the whole fetch in a private main context. */
static void
test_role_blocking_get (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;

  begin (NULL);
  shared = load ("[profile reader]\nrole_arn = " READER_ARN "\nsource_profile = base\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  provider = resolve (shared, "reader", NULL, &error);
  g_assert_no_error (error);
  creds = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  remember_secrets (creds);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
}

static void
test_role_default_session_name (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GRegex) pattern = g_regex_new ("^dynoscope-session-[0-9]{10}$", 0, 0, NULL);
  JsonArray *log;

  begin (NULL);
  shared = load ("[profile reader]\nrole_arn = " READER_ARN "\nsource_profile = base\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  creds = resolve_and_get (shared, "reader", NULL);
  log = server_log (NULL, &holder);
  g_assert_true (g_regex_match (pattern, entry_param (json_array_get_object_element (log, 0), "RoleSessionName"),
                                0, NULL));
}

/* duration_seconds goes as DurationSeconds; not a number is refused with the profile named. */
static void
test_role_duration (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *log;

  begin (NULL);
  shared = load ("[profile partner]\nrole_arn = " PARTNER_ARN "\nsource_profile = base\n"
                 "external_id = partner-ext-42\nduration_seconds = 7200\nregion = us-east-1\n"
                 "[profile bad]\nrole_arn = " READER_ARN "\nsource_profile = base\nduration_seconds = 1h\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  creds = resolve_and_get (shared, "partner", NULL);
  log = server_log (NULL, &holder);
  g_assert_cmpstr (entry_param (json_array_get_object_element (log, 0), "DurationSeconds"), ==, "7200");

  error = resolve_and_fail (shared, "bad", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'bad'"));
  g_assert_nonnull (strstr (error->message, "duration_seconds"));
}

static void
test_role_external_id (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *log;

  begin (NULL);
  shared = load ("[profile partner]\nrole_arn = " PARTNER_ARN "\nsource_profile = base\n"
                 "external_id = partner-ext-42\nregion = us-east-1\n"
                 "[profile wrong]\nrole_arn = " PARTNER_ARN "\nsource_profile = base\n"
                 "external_id = guessed\nregion = us-east-1\n"
                 "[profile none]\nrole_arn = " PARTNER_ARN "\nsource_profile = base\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  creds = resolve_and_get (shared, "partner", NULL);
  log = server_log (NULL, &holder);
  g_assert_cmpstr (entry_param (json_array_get_object_element (log, 0), "ExternalId"), ==, "partner-ext-42");
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");

  error = resolve_and_fail (shared, "wrong", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "AccessDenied");
  g_assert_nonnull (strstr (error->message, "'wrong'"));
  g_assert_nonnull (strstr (error->message, PARTNER_ARN));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "none", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "AccessDenied");
}

/* credential_source = Environment: the environment's keys sign, even for an explicit profile. */
static void
test_role_credential_source_environment (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *entry;

  begin (NULL);
  shared = load ("[profile envrole]\nrole_arn = " READER_ARN "\ncredential_source = Environment\n"
                 "region = us-east-1\n", NULL);

  error = resolve_and_fail (shared, "envrole", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "'envrole'"));
  g_assert_nonnull (strstr (error->message, "AWS_ACCESS_KEY_ID"));

  g_setenv ("AWS_ACCESS_KEY_ID", ENV_KEY, TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", ENV_SECRET, TRUE);
  creds = resolve_and_get (shared, "envrole", NULL);
  entry = json_array_get_object_element (server_log (NULL, &holder), 0);
  g_assert_cmpstr (entry_string (entry, "operation"), ==, "AssumeRole");
  g_assert_cmpstr (entry_string (entry, "signing_access_key"), ==, ENV_KEY);
  /* The assumed role's credentials, not the environment's keys. */
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
}

/* credential_source = EcsContainer: the container endpoint (full URI on loopback, the
 * Authorization token), then AssumeRole signed with the container's credentials. */
static void
test_role_credential_source_ecs (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autofree char *url = NULL;
  g_autofree char *ops = NULL;
  g_autofree char *auth = fingerprint (CONTAINER_AUTH);
  JsonArray *log;

  begin (NULL);
  shared = load ("[profile ecsrole]\nrole_arn = " READER_ARN "\ncredential_source = EcsContainer\n"
                 "role_session_name = test-ecs\nregion = us-east-1\n", NULL);
  url = g_strconcat (dyn_signin_server_get_url (server), "/container/creds", NULL);
  g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_AUTH, TRUE);

  creds = resolve_and_get (shared, "ecsrole", NULL);
  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "GetContainerCredentials,AssumeRole");
  log = server_log (NULL, &holder);
  g_assert_cmpstr (entry_param (json_array_get_object_element (log, 0), "authorization"), ==, auth);
  /* The container's key (the first issued) signs; the role's is the second. */
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 1), "signing_access_key"), ==,
                   "ASIA0000000000000001");
  g_assert_nonnull (entry_string (json_array_get_object_element (log, 1), "signing_session_token"));
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000002");
}

/* The authorization token from a file, read at every fetch. */
static void
test_container_token_file (void)
{
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *path = NULL;

  begin (NULL);
  url = g_strconcat (dyn_signin_server_get_url (server), "/container/creds", NULL);
  path = write_file ("container-token", CONTAINER_AUTH);
  g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN", "Bearer wrong", TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", path, TRUE);

  provider = dyn_container_provider_new (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==,
                   "the container credentials endpoint (127.0.0.1)");
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
  g_assert_nonnull (creds->expiration);

  /* A wrong token in the file: refused (401), with no secret in the message. */
  g_clear_pointer (&path, g_free);
  path = write_file ("container-token", "Bearer not-the-token");
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_credentials (provider, &error);
  g_assert_null (creds);
  check_error (error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_ACCESS_DENIED);
  g_assert_null (strstr (error->message, "not-the-token"));
}

/* A full URI may only name a loopback address or the ECS/EKS hosts; without either variable,
 * nothing; the relative URI goes to 169.254.170.2. */
static void
test_container_uri_rules (void)
{
  static const char * const refused[] = {
    "http://example.com/creds", "https://169.254.169.254/creds", "http://10.0.0.1/", "ftp://127.0.0.1/x",
    "not a url",
  };
  static const char * const allowed[] = {
    "http://127.0.0.1:1/creds", "http://localhost/creds", "http://[::1]:8080/creds", "http://169.254.170.2/v2",
    "http://169.254.170.23/v1/credentials", "http://[fd00:ec2::23]/v1/credentials", "https://127.0.0.2/x",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  gboolean handled = FALSE;

  begin (NULL);
  provider = dyn_container_provider_new (&error);
  g_assert_null (provider);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_clear_error (&error);
  g_assert_null (_dyn_sign_in_container_from_env (&handled, &error));
  g_assert_false (handled);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", refused[i], TRUE);
      provider = dyn_container_provider_new (&error);
      g_test_message ("%s: %s", refused[i], error != NULL ? error->message : "allowed");
      g_assert_null (provider);
      g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
      g_clear_error (&error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (allowed); i++)
    {
      g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", allowed[i], TRUE);
      provider = dyn_container_provider_new (&error);
      g_assert_no_error (error);
      g_assert_nonnull (provider);
      g_clear_object (&provider);
    }

  g_setenv ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/abc", TRUE);
  provider = _dyn_sign_in_container_from_env (&handled, &error);
  g_assert_true (handled);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==,
                   "the container credentials endpoint (169.254.170.2)");
}

/* A profile that names nothing, with the container's variables: the container provider, last. */
static void
test_container_default_chain (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autofree char *url = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  shared = load ("[default]\nregion = us-east-1\n", NULL);
  url = g_strconcat (dyn_signin_server_get_url (server), "/container/creds", NULL);
  g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_AUTH, TRUE);
  creds = resolve_and_get (shared, NULL, NULL);
  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "GetContainerCredentials");
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
}

/* credential_source = Ec2InstanceMetadata: IMDSv2 (token, role, credentials), then AssumeRole. */
static void
test_role_credential_source_imds (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *log;

  begin (NULL);
  shared = load ("[profile ec2role]\nrole_arn = " READER_ARN "\ncredential_source = Ec2InstanceMetadata\n"
                 "region = us-east-1\n", NULL);

  /* Turned off (as every test here runs): refused without a request. */
  error = resolve_and_fail (shared, "ec2role", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "AWS_EC2_METADATA_DISABLED"));
  g_assert_cmpint (dyn_signin_server_count (server, "AssumeRole"), ==, 0);

  g_unsetenv ("AWS_EC2_METADATA_DISABLED");
  g_setenv ("AWS_EC2_METADATA_SERVICE_ENDPOINT", dyn_signin_server_get_url (server), TRUE);
  creds = resolve_and_get (shared, "ec2role", NULL);
  log = server_log (NULL, &holder);
  g_assert_cmpuint (json_array_get_length (log), ==, 4);
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 0), "method"), ==, "PUT");
  g_assert_cmpstr (entry_param (json_array_get_object_element (log, 0), "ttl"), ==, "21600");
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 1), "path"), ==,
                   "/latest/meta-data/iam/security-credentials/");
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 2), "path"), ==,
                   "/latest/meta-data/iam/security-credentials/ec2-role");
  g_assert_nonnull (entry_param (json_array_get_object_element (log, 2), "token"));
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 3), "operation"), ==, "AssumeRole");
  g_assert_cmpstr (entry_string (json_array_get_object_element (log, 3), "signing_access_key"), ==,
                   "ASIA0000000000000001");
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000002");
}

static void
test_role_source_settings (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  shared = load ("[profile both]\nrole_arn = " READER_ARN "\nsource_profile = base\n"
                 "credential_source = Environment\nregion = us-east-1\n"
                 "[profile neither]\nrole_arn = " READER_ARN "\nregion = us-east-1\n"
                 "[profile lower]\nrole_arn = " READER_ARN "\ncredential_source = environment\nregion = us-east-1\n"
                 "[profile missing]\nrole_arn = " READER_ARN "\nsource_profile = nowhere\nregion = us-east-1\n",
                 BASE_CREDENTIALS);

  error = resolve_and_fail (shared, "both", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'both'"));
  g_assert_nonnull (strstr (error->message, "source_profile"));
  g_assert_nonnull (strstr (error->message, "credential_source"));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "neither", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "'neither'"));
  g_assert_nonnull (strstr (error->message, "source_profile"));
  g_assert_nonnull (strstr (error->message, "credential_source"));
  g_clear_error (&error);

  /* botocore compares the names as written, and lists none; we list the valid ones. */
  error = resolve_and_fail (shared, "lower", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'lower'"));
  g_assert_nonnull (strstr (error->message, "Environment, EcsContainer or Ec2InstanceMetadata"));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "missing", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'nowhere'"));

  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "");
}

/* MFA: the prompter's code goes as TokenCode with SerialNumber, and is asked again at refresh. */
static void
test_role_mfa (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(TestPrompter) prompter = test_prompter_new (TRUE, MFA_CODE);
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *entry;

  begin (NULL);
  shared = load ("[profile admin]\nrole_arn = " ADMIN_ARN "\nsource_profile = base\n"
                 "mfa_serial = " MFA_SERIAL "\nrole_session_name = test-admin\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  provider = resolve (shared, "admin", DYN_SIGN_IN_PROMPTER (prompter), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (prompter->asked, ==, 0);

  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (prompter->asked, ==, 1);
  g_assert_cmpstr (prompter->last_profile, ==, "admin");
  g_assert_cmpstr (prompter->last_serial, ==, MFA_SERIAL);
  entry = json_array_get_object_element (server_log (NULL, &holder), 0);
  g_assert_cmpstr (entry_param (entry, "SerialNumber"), ==, MFA_SERIAL);
  g_assert_cmpstr (entry_param (entry, "TokenCode"), ==, MFA_CODE);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");

  /* Expired: the prompter is asked once more. */
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (prompter->asked, ==, 2);

  /* A wrong code: STS's refusal, named. */
  g_free (prompter->code);
  prompter->code = g_strdup ("000000");
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_credentials (provider, &error);
  g_assert_null (creds);
  check_error (error);
  dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "AccessDenied");
  g_clear_error (&error);

  /* The user cancels. */
  g_clear_pointer (&prompter->code, g_free);
  creds = get_credentials (provider, &error);
  g_assert_null (creds);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* MFA without anybody to ask: %DYN_ERROR_EXPIRED_CREDENTIALS naming the profile, and no request. */
static void
test_role_mfa_refused (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(TestPrompter) quiet = test_prompter_new (FALSE, MFA_CODE);
  g_autoptr(GError) error = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  g_assert_null (dyn_sign_in_get_default_prompter ());
  shared = load ("[profile admin]\nrole_arn = " ADMIN_ARN "\nsource_profile = base\n"
                 "mfa_serial = " MFA_SERIAL "\nregion = us-east-1\n",
                 BASE_CREDENTIALS);

  error = resolve_and_fail (shared, "admin", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, "'admin'"));
  g_assert_nonnull (strstr (error->message, "MFA"));
  g_clear_error (&error);

  /* A prompter that may not interact now (the window outside a sign-in) is not asked. */
  error = resolve_and_fail (shared, "admin", DYN_SIGN_IN_PROMPTER (quiet));
  g_assert_error (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS);
  g_assert_cmpuint (quiet->asked, ==, 0);

  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "");
}

/* The default prompter answers when none is given. */
static void
test_role_mfa_default_prompter (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(TestPrompter) prompter = test_prompter_new (TRUE, MFA_CODE);

  begin (NULL);
  shared = load ("[profile admin]\nrole_arn = " ADMIN_ARN "\nsource_profile = base\n"
                 "mfa_serial = " MFA_SERIAL "\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  dyn_sign_in_set_default_prompter (DYN_SIGN_IN_PROMPTER (prompter));
  creds = resolve_and_get (shared, "admin", NULL);
  dyn_sign_in_set_default_prompter (NULL);
  g_assert_cmpuint (prompter->asked, ==, 1);
}

/* c → b → a → base: three AssumeRole, each signed with the previous role's credentials, and all
 * with the STS client of c (its region). */
static void
test_role_chain (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ops = NULL;
  JsonArray *log;
  static const char * const roles[] = { "ChainA", "ChainB", "ChainC" };
  static const char * const signers[] = { BASE_KEY, "ASIA0000000000000001", "ASIA0000000000000002" };

  begin (NULL);
  shared = load ("[profile a]\nrole_arn = arn:aws:iam::123456789012:role/ChainA\nsource_profile = base\n"
                 "role_session_name = s-a\n"
                 "[profile b]\nrole_arn = arn:aws:iam::123456789012:role/ChainB\nsource_profile = a\n"
                 "role_session_name = s-b\nregion = us-west-2\n"
                 "[profile c]\nrole_arn = arn:aws:iam::123456789012:role/ChainC\nsource_profile = b\n"
                 "role_session_name = s-c\nregion = ap-southeast-2\n",
                 BASE_CREDENTIALS);
  provider = resolve (shared, "c", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==,
                   "role arn:aws:iam::123456789012:role/ChainC of profile 'c' via profile 'b'");
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000003");

  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "AssumeRole,AssumeRole,AssumeRole");
  log = server_log (NULL, &holder);
  for (guint i = 0; i < 3; i++)
    {
      JsonObject *entry = json_array_get_object_element (log, i);
      g_autofree char *arn = g_strconcat ("arn:aws:iam::123456789012:role/", roles[i], NULL);

      g_assert_cmpstr (entry_param (entry, "RoleArn"), ==, arn);
      g_assert_cmpstr (entry_string (entry, "signing_access_key"), ==, signers[i]);
      g_assert_cmpstr (entry_string (entry, "signing_region"), ==, "ap-southeast-2");
      if (i == 0)
        g_assert_null (entry_string (entry, "signing_session_token"));
      else
        g_assert_nonnull (entry_string (entry, "signing_session_token"));
    }
}

/* a → b → a: refused with the chain named, before any request. */
static void
test_role_cycle (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  shared = load ("[profile a]\nrole_arn = arn:aws:iam::123456789012:role/ChainA\nsource_profile = b\n"
                 "region = us-east-1\n"
                 "[profile b]\nrole_arn = arn:aws:iam::123456789012:role/ChainB\nsource_profile = a\n"
                 "[profile self]\nrole_arn = arn:aws:iam::123456789012:role/ChainA\nsource_profile = self\n"
                 "region = us-east-1\n",
                 NULL);
  error = resolve_and_fail (shared, "a", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "a → b → a"));
  g_clear_error (&error);

  /* Its own source without keys: a circle too. */
  error = resolve_and_fail (shared, "self", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "self → self"));

  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "");
}

/* botocore's special case: a profile that is its own source_profile and has keys assumes its
 * role with those keys. */
static void
test_role_self_source (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(JsonNode) holder = NULL;
  JsonObject *entry;

  begin (NULL);
  shared = load ("[profile self]\nrole_arn = " READER_ARN "\nsource_profile = self\nregion = us-east-1\n",
                 "[self]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = " BASE_SECRET "\n");
  creds = resolve_and_get (shared, "self", NULL);
  entry = json_array_get_object_element (server_log (NULL, &holder), 0);
  g_assert_cmpstr (entry_string (entry, "operation"), ==, "AssumeRole");
  g_assert_cmpstr (entry_string (entry, "signing_access_key"), ==, BASE_KEY);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
}

/* A source profile with keys and a role of its own gives its keys (botocore's profile providers),
 * while the profile being resolved always assumes its role. */
static void
test_role_source_with_keys (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  shared = load ("[profile top]\nrole_arn = " READER_ARN "\nsource_profile = mid\nregion = us-east-1\n"
                 "[profile mid]\nrole_arn = arn:aws:iam::123456789012:role/ChainA\nsource_profile = base\nregion = us-east-1\n",
                 BASE_CREDENTIALS
                 "[mid]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = " BASE_SECRET "\n");
  creds = resolve_and_get (shared, "top", NULL);
  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "AssumeRole");
  g_clear_pointer (&ops, g_free);

  begin (NULL);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = resolve_and_get (shared, "mid", NULL);
  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "AssumeRole");
}

/* Credentials that live less than the refresh margin (the container's, two minutes here) are
 * fetched anew at every get; a role assumed with them (STS gives at least 15 minutes) is cached,
 * and its source is asked again only when the role is refreshed. */
static void
test_refresh_before_expiry (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) container = NULL;
  g_autoptr(DynCredentialsProvider) role = NULL;
  g_autoptr(DynCredentials) first = NULL;
  g_autoptr(DynCredentials) second = NULL;
  g_autoptr(DynCredentials) assumed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *ops = NULL;

  begin (short_server);
  url = g_strconcat (dyn_signin_server_get_url (short_server), "/container/creds", NULL);
  g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_AUTH, TRUE);

  container = dyn_container_provider_new (&error);
  g_assert_no_error (error);
  first = get_credentials (container, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_credentials_expires_within (first, NULL, DYN_CREDENTIALS_REFRESH_MARGIN));
  second = get_credentials (container, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->access_key_id, ==, "ASIA0000000000000001");
  g_assert_cmpstr (second->access_key_id, ==, "ASIA0000000000000002");
  g_assert_cmpint (dyn_signin_server_count (short_server, "GetContainerCredentials"), ==, 2);

  begin (short_server);
  g_setenv ("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, TRUE);
  g_setenv ("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_AUTH, TRUE);
  shared = load ("[profile ecsrole]\nrole_arn = " READER_ARN "\ncredential_source = EcsContainer\n"
                 "region = us-east-1\n", NULL);
  role = resolve (shared, "ecsrole", NULL, &error);
  g_assert_no_error (error);
  assumed = get_credentials (role, &error);
  g_assert_no_error (error);
  g_assert_false (dyn_credentials_expires_within (assumed, NULL, DYN_CREDENTIALS_REFRESH_MARGIN));
  g_clear_pointer (&assumed, dyn_credentials_unref);
  assumed = get_credentials (role, &error);
  g_assert_no_error (error);
  ops = operations (short_server);
  g_assert_cmpstr (ops, ==, "GetContainerCredentials,AssumeRole");

  /* Refreshing the role fetches the source anew: it would have expired. */
  dyn_credentials_provider_invalidate (role);
  g_clear_pointer (&assumed, dyn_credentials_unref);
  assumed = get_credentials (role, &error);
  g_assert_no_error (error);
  g_clear_pointer (&ops, g_free);
  ops = operations (short_server);
  g_assert_cmpstr (ops, ==, "GetContainerCredentials,AssumeRole,GetContainerCredentials,AssumeRole");
  g_assert_cmpstr (assumed->access_key_id, ==, "ASIA0000000000000004");
}

/* STS refuses: each code maps to its error, with the profile and role named. */
static void
test_role_sts_errors (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *request = NULL;

  begin (NULL);
  shared = load ("[profile unknown]\nrole_arn = arn:aws:iam::123456789012:role/Nobody\nsource_profile = base\n"
                 "region = us-east-1\n"
                 "[profile badsecret]\nrole_arn = " READER_ARN "\nsource_profile = wrongsecret\nregion = us-east-1\n"
                 "[profile badkey]\nrole_arn = " READER_ARN "\nsource_profile = wrongkey\nregion = us-east-1\n"
                 "[profile long]\nrole_arn = " READER_ARN "\nsource_profile = base\nduration_seconds = 99999\n"
                 "region = us-east-1\n"
                 "[profile outer]\nrole_arn = " READER_ARN "\nsource_profile = inner\nregion = us-east-1\n"
                 "[profile inner]\nrole_arn = arn:aws:iam::123456789012:role/ChainA\nsource_profile = base\n",
                 BASE_CREDENTIALS
                 "[wrongsecret]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = not/the/secret/at/all\n"
                 "[wrongkey]\naws_access_key_id = AKIANOBODY0000000000\naws_secret_access_key = x/y/z/w\n");

  error = resolve_and_fail (shared, "unknown", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "AccessDenied");
  g_assert_nonnull (strstr (error->message, "'unknown'"));
  g_assert_nonnull (strstr (error->message, "role/Nobody"));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "badsecret", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_SIGNATURE, "SignatureDoesNotMatch");
  g_assert_null (strstr (error->message, "not/the/secret/at/all"));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "badkey", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "InvalidClientTokenId");
  g_clear_error (&error);

  error = resolve_and_fail (shared, "long", NULL);
  dyn_test_assert_service_error (error, DYN_ERROR_FAILED, "ValidationError");
  g_assert_nonnull (strstr (error->message, "ValidationError"));
  g_assert_nonnull (strstr (error->message, "durationSeconds"));
  g_clear_error (&error);

  /* The inner role's credentials expire early (revoked): ExpiredToken; the outer role fetches
   * them again once, and succeeds. */
  begin (NULL);
  provider = resolve (shared, "outer", NULL, &error);
  g_assert_no_error (error);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000002");
  g_assert_true (dyn_signin_server_control (server, "expire?access_key=ASIA0000000000000001", &error));
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000004");
  g_assert_cmpint (dyn_signin_server_count (server, "AssumeRole"), ==, 5);

  /* Credentials marked expired sign GetCallerIdentity: %DYN_ERROR_EXPIRED_CREDENTIALS. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GHashTable) table = NULL;

    request = g_strdup_printf ("expire?access_key=%s", creds->access_key_id);
    g_assert_true (dyn_signin_server_control (server, request, &error));
    _dyn_sts_call_async (dyn_signin_server_get_url (server), "us-east-1", creds, "GetCallerIdentity", NULL, NULL,
                         dyn_test_result_cb, &result);
    table = _dyn_sts_call_finish (wait_result (&result), &error);
    g_assert_null (table);
    check_error (error);
    dyn_test_assert_service_error (error, DYN_ERROR_EXPIRED_CREDENTIALS, "ExpiredToken");
  }
}

/* GetCallerIdentity with assumed credentials: the session token goes (and is signed). */
static void
test_caller_identity (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GHashTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) holder = NULL;
  g_autofree char *token = NULL;
  JsonObject *entry;

  begin (NULL);
  shared = load ("[profile reader]\nrole_arn = " READER_ARN "\nsource_profile = base\n"
                 "role_session_name = who\nregion = us-east-1\n",
                 BASE_CREDENTIALS);
  creds = resolve_and_get (shared, "reader", NULL);
  _dyn_sts_call_async (dyn_signin_server_get_url (server), "eu-central-1", creds, "GetCallerIdentity", NULL, NULL,
                       dyn_test_result_cb, &result);
  table = _dyn_sts_call_finish (wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (table, "Arn"), ==, "arn:aws:sts::123456789012:assumed-role/Reader/who");
  g_assert_cmpstr (g_hash_table_lookup (table, "Account"), ==, "123456789012");

  entry = json_array_get_object_element (server_log (NULL, &holder), 1);
  token = fingerprint (creds->session_token);
  g_assert_cmpstr (entry_string (entry, "signing_session_token"), ==, token);
  g_assert_cmpstr (entry_string (entry, "signing_region"), ==, "eu-central-1");
}

/* ------------------------------------------------------------------------ */
/* Web identity                                                               */

static void
check_web_identity_request (const char *session)
{
  g_autoptr(JsonNode) holder = NULL;
  g_autofree char *token = fingerprint (WEB_TOKEN);
  JsonArray *log = server_log (NULL, &holder);
  JsonObject *entry;

  g_assert_cmpuint (json_array_get_length (log), ==, 1);
  entry = json_array_get_object_element (log, 0);
  g_assert_cmpstr (entry_string (entry, "operation"), ==, "AssumeRoleWithWebIdentity");
  g_assert_cmpint (json_object_get_int_member (entry, "status"), ==, 200);
  g_assert_cmpstr (entry_param (entry, "RoleArn"), ==, "arn:aws:iam::123456789012:role/WebRole");
  g_assert_cmpstr (entry_param (entry, "WebIdentityToken"), ==, token);
  if (session != NULL)
    g_assert_cmpstr (entry_param (entry, "RoleSessionName"), ==, session);
  /* Unsigned. */
  g_assert_null (entry_string (entry, "signing_access_key"));
}

static void
test_web_identity_profile (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentialsProvider) provider = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token_path = NULL;
  g_autofree char *config = NULL;

  begin (NULL);
  token_path = write_file ("web-token", WEB_TOKEN);
  config = g_strdup_printf ("[profile web]\nrole_arn = arn:aws:iam::123456789012:role/WebRole\n"
                            "web_identity_token_file = %s\nrole_session_name = test-web\nregion = us-east-1\n"
                            "[profile webnorole]\nweb_identity_token_file = %s\nregion = us-east-1\n",
                            token_path, token_path);
  shared = load (config, NULL);
  provider = resolve (shared, "web", NULL, &error);
  g_assert_no_error (error);
  creds = get_credentials (provider, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIA0000000000000001");
  check_web_identity_request ("test-web");

  /* The file is read at every refresh: a token that STS does not know is refused. */
  g_clear_pointer (&token_path, g_free);
  token_path = write_file ("web-token", "eyJ.unknown.token");
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_credentials (provider, &error);
  g_assert_null (creds);
  check_error (error);
  dyn_test_assert_service_error (error, DYN_ERROR_FAILED, "InvalidIdentityToken");
  g_assert_null (strstr (error->message, "eyJ.unknown.token"));
  g_clear_error (&error);

  /* And one that is gone: named. */
  g_assert_cmpint (g_unlink (token_path), ==, 0);
  dyn_credentials_provider_invalidate (provider);
  creds = get_credentials (provider, &error);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS);
  g_assert_nonnull (strstr (error->message, token_path));
  g_assert_nonnull (strstr (error->message, "'web'"));
  g_clear_error (&error);

  error = resolve_and_fail (shared, "webnorole", NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "'webnorole'"));
  g_assert_nonnull (strstr (error->message, "role_arn"));
}

/* AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE (+ AWS_ROLE_SESSION_NAME) for the default profile;
 * an explicit profile ignores them, as botocore does. */
static void
test_web_identity_env (void)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *token_path = NULL;
  g_autofree char *ops = NULL;

  begin (NULL);
  token_path = write_file ("web-token", WEB_TOKEN);
  shared = load ("[default]\nregion = us-east-1\n[profile keys]\nregion = us-east-1\n",
                 "[keys]\naws_access_key_id = " BASE_KEY "\naws_secret_access_key = " BASE_SECRET "\n");
  g_setenv ("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/WebRole", TRUE);
  g_setenv ("AWS_WEB_IDENTITY_TOKEN_FILE", token_path, TRUE);
  g_setenv ("AWS_ROLE_SESSION_NAME", "test-web-env", TRUE);

  creds = resolve_and_get (shared, NULL, NULL);
  check_web_identity_request ("test-web-env");

  /* AWS_PROFILE is no explicit choice: the environment's web identity still wins over keys. */
  begin (NULL);
  g_setenv ("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/WebRole", TRUE);
  g_setenv ("AWS_WEB_IDENTITY_TOKEN_FILE", token_path, TRUE);
  g_setenv ("AWS_PROFILE", "keys", TRUE);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = resolve_and_get (shared, NULL, NULL);
  check_web_identity_request (NULL);

  /* --profile keys: its keys, no request. */
  begin (NULL);
  g_setenv ("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/WebRole", TRUE);
  g_setenv ("AWS_WEB_IDENTITY_TOKEN_FILE", token_path, TRUE);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = resolve_and_get (shared, "keys", NULL);
  g_assert_cmpstr (creds->access_key_id, ==, BASE_KEY);
  ops = operations (NULL);
  g_assert_cmpstr (ops, ==, "");

  /* A token file without a role to assume. */
  g_unsetenv ("AWS_ROLE_ARN");
  error = resolve_and_fail (shared, NULL, NULL);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_CONFIG);
  g_assert_nonnull (strstr (error->message, "AWS_ROLE_ARN"));
}

/* ------------------------------------------------------------------------ */
/* Retries and scrubbing against a scripted server                            */

typedef struct {
  GMutex      lock;
  GQueue      answers;     /* (element-type utf8) full HTTP responses, sent in turn */
  GPtrArray  *bodies;      /* (element-type utf8) request bodies received */
} Script;

static gboolean
script_incoming_cb (GThreadedSocketService *service,
                    GSocketConnection      *connection,
                    GObject                *source_object,
                    gpointer                user_data)
{
  Script *script = user_data;
  GInputStream *in = g_io_stream_get_input_stream (G_IO_STREAM (connection));
  GOutputStream *out = g_io_stream_get_output_stream (G_IO_STREAM (connection));
  g_autoptr(GDataInputStream) data = g_data_input_stream_new (in);
  gsize content_length = 0;

  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (data), FALSE);
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line (data, NULL, NULL, NULL);
      g_autofree char *answer = NULL;
      g_autofree char *body = NULL;

      if (line == NULL)
        return TRUE;
      g_strchomp (line);
      if (g_ascii_strncasecmp (line, "Content-Length:", 15) == 0)
        content_length = g_ascii_strtoull (line + 15, NULL, 10);
      if (*line != '\0')
        continue;

      body = g_malloc0 (content_length + 1);
      if (!g_input_stream_read_all (G_INPUT_STREAM (data), body, content_length, NULL, NULL, NULL))
        return TRUE;
      g_mutex_lock (&script->lock);
      g_ptr_array_add (script->bodies, g_strdup (body));
      answer = g_queue_pop_head (&script->answers);
      g_mutex_unlock (&script->lock);
      if (answer == NULL)
        return TRUE;
      g_output_stream_write_all (out, answer, strlen (answer), NULL, NULL, NULL);
      content_length = 0;
    }
}

static char *
http_answer (guint       status,
             const char *body)
{
  return g_strdup_printf ("HTTP/1.1 %u X\r\nContent-Type: text/xml\r\nContent-Length: %zu\r\n\r\n%s",
                          status, strlen (body), body);
}

/* Runs @action against a server answering @answers in turn; returns the result. */
static GHashTable *
scripted_call (const char          *action,
               const char * const  *params,
               DynCredentials      *creds,
               const char * const  *answers,
               guint               *requests,
               GPtrArray          **bodies,
               GError             **error)
{
  Script script = { 0 };
  g_autoptr(GSocketService) service = g_threaded_socket_service_new (2);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *url = NULL;
  GHashTable *table;

  g_mutex_init (&script.lock);
  g_queue_init (&script.answers);
  script.bodies = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; answers[i] != NULL; i += 2)
    g_queue_push_tail (&script.answers, http_answer ((guint) g_ascii_strtoull (answers[i], NULL, 10), answers[i + 1]));

  g_assert_true (g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                                G_SOCKET_PROTOCOL_TCP, NULL, &bound, &local_error));
  g_assert_no_error (local_error);
  g_signal_connect (service, "run", G_CALLBACK (script_incoming_cb), &script);
  g_socket_service_start (service);
  url = g_strdup_printf ("http://127.0.0.1:%u/", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  _dyn_sts_call_async (url, "us-east-1", creds, action, params, NULL, dyn_test_result_cb, &result);
  table = _dyn_sts_call_finish (wait_result (&result), error);

  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  g_mutex_lock (&script.lock);
  *requests = script.bodies->len;
  g_queue_clear_full (&script.answers, g_free);
  g_mutex_unlock (&script.lock);
  if (bodies != NULL)
    *bodies = g_ptr_array_ref (script.bodies);
  g_ptr_array_unref (script.bodies);
  /* The handler threads have answered: the service is stopped and every request was read. */
  return table;
}

#define ERROR_XML(code, message) \
  "<ErrorResponse><Error><Type>Sender</Type><Code>" code "</Code><Message>" message "</Message></Error>" \
  "<RequestId>r</RequestId></ErrorResponse>"

#define IDENTITY_XML \
  "<GetCallerIdentityResponse><GetCallerIdentityResult><Arn>arn:aws:iam::1:user/a</Arn><UserId>U</UserId>" \
  "<Account>000000000001</Account></GetCallerIdentityResult></GetCallerIdentityResponse>"

/* Throttling and 5xx are tried again (3 attempts in all); other errors are not. */
static void
test_sts_retries (void)
{
  g_autoptr(DynCredentials) creds = dyn_credentials_new (BASE_KEY, BASE_SECRET, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = NULL;
  guint requests = 0;

  {
    const char *answers[] = { "400", ERROR_XML ("Throttling", "Rate exceeded"), "503", "<html>busy</html>",
                              "200", IDENTITY_XML, NULL };

    table = scripted_call ("GetCallerIdentity", NULL, creds, answers, &requests, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (requests, ==, 3);
    g_assert_cmpstr (g_hash_table_lookup (table, "UserId"), ==, "U");
    g_clear_pointer (&table, g_hash_table_unref);
  }
  {
    const char *answers[] = { "500", ERROR_XML ("InternalFailure", "x"), "500", ERROR_XML ("InternalFailure", "x"),
                              "500", ERROR_XML ("InternalFailure", "x"), "200", IDENTITY_XML, NULL };

    table = scripted_call ("GetCallerIdentity", NULL, creds, answers, &requests, NULL, &error);
    g_assert_null (table);
    g_assert_cmpuint (requests, ==, 3);
    dyn_test_assert_service_error (error, DYN_ERROR_SERVER, "InternalFailure");
    g_assert_nonnull (strstr (error->message, "3 attempts"));
    g_clear_error (&error);
  }
  {
    const char *answers[] = { "403", ERROR_XML ("AccessDenied", "no"), "200", IDENTITY_XML, NULL };

    table = scripted_call ("GetCallerIdentity", NULL, creds, answers, &requests, NULL, &error);
    g_assert_null (table);
    g_assert_cmpuint (requests, ==, 1);
    dyn_test_assert_service_error (error, DYN_ERROR_ACCESS_DENIED, "AccessDenied");
  }
}

/* The form body as botocore encodes it; a server that echoes a secret does not bring it into the
 * message. */
static void
test_sts_form_and_scrub (void)
{
  g_autoptr(DynCredentials) creds = dyn_credentials_new (BASE_KEY, BASE_SECRET, "the-session-token-1234", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) table = NULL;
  g_autoptr(GPtrArray) bodies = NULL;
  guint requests = 0;
  const char *params[] = { "RoleArn", "arn:aws:iam::1:role/a b", "RoleSessionName", "x+y=z/é~_.-", NULL };
  const char *answers[] = {
    "403", ERROR_XML ("SignatureDoesNotMatch", "secret " BASE_SECRET " token the-session-token-1234"), NULL,
  };
  const char *web_params[] = { "RoleArn", "r", "RoleSessionName", "s", "WebIdentityToken", WEB_TOKEN, NULL };
  const char *web_answers[] = { "400", ERROR_XML ("InvalidIdentityToken", "bad token " WEB_TOKEN), NULL };

  table = scripted_call ("AssumeRole", params, creds, answers, &requests, &bodies, &error);
  g_assert_null (table);
  g_assert_cmpuint (requests, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (bodies, 0), ==,
                   "Action=AssumeRole&Version=2011-06-15&RoleArn=arn%3Aaws%3Aiam%3A%3A1%3Arole%2Fa+b"
                   "&RoleSessionName=x%2By%3Dz%2F%C3%A9~_.-");
  dyn_test_assert_service_error (error, DYN_ERROR_SIGNATURE, "SignatureDoesNotMatch");
  g_assert_null (strstr (error->message, BASE_SECRET));
  g_assert_null (strstr (error->message, "the-session-token-1234"));
  g_assert_null (strstr (dyn_error_get_details (error)->message, BASE_SECRET));
  g_assert_nonnull (strstr (error->message, "SignatureDoesNotMatch"));
  g_clear_error (&error);
  g_clear_pointer (&bodies, g_ptr_array_unref);

  table = scripted_call ("AssumeRoleWithWebIdentity", web_params, NULL, web_answers, &requests, NULL, &error);
  g_assert_null (table);
  g_assert_error (error, DYN_ERROR, DYN_ERROR_FAILED);
  g_assert_null (strstr (error->message, WEB_TOKEN));
  g_assert_nonnull (strstr (error->message, "InvalidIdentityToken"));
}

/* ------------------------------------------------------------------------ */

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *scenario = NULL;
  g_autofree char *short_scenario = NULL;
  int status;

  dyn_test_init (&argc, &argv);
  secrets = g_ptr_array_new_with_free_func (g_free);

  g_test_add_func ("/sts/parse/assume-role", test_parse_assume_role);
  g_test_add_func ("/sts/parse/caller-identity", test_parse_caller_identity);
  g_test_add_func ("/sts/parse/garbage", test_parse_garbage);
  g_test_add_func ("/sts/parse/server-page", test_parse_server_page);
  g_test_add_func ("/sts/parse/errors", test_parse_errors);
  g_test_add_func ("/sts/call/retries", test_sts_retries);
  g_test_add_func ("/sts/call/form-and-scrub", test_sts_form_and_scrub);

  scenario = g_strdup_printf (scenario_template, 3600);
  short_scenario = g_strdup_printf (scenario_template, 120);
  server = dyn_signin_server_start (scenario, &error);
  if (server != NULL)
    short_server = dyn_signin_server_start (short_scenario, &error);
  if (server == NULL || short_server == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        g_error ("the sign-in test server did not start: %s", error->message);
      g_printerr ("# the sign-in test server cannot run here: %s\n", error->message);
    }
  else
    {
      workdir = g_dir_make_tmp ("test-signin-sts-XXXXXX", &error);
      g_assert_no_error (error);

      g_test_add_func ("/sts/endpoint/rules", test_endpoint);
      g_test_add_func ("/sts/endpoint/refused", test_endpoint_refused);
      g_test_add_func ("/sts/role/static-source", test_role_static_source);
      g_test_add_func ("/sts/role/blocking-get", test_role_blocking_get);
      g_test_add_func ("/sts/role/default-session-name", test_role_default_session_name);
      g_test_add_func ("/sts/role/duration", test_role_duration);
      g_test_add_func ("/sts/role/external-id", test_role_external_id);
      g_test_add_func ("/sts/role/credential-source-environment", test_role_credential_source_environment);
      g_test_add_func ("/sts/role/credential-source-ecs", test_role_credential_source_ecs);
      g_test_add_func ("/sts/role/credential-source-imds", test_role_credential_source_imds);
      g_test_add_func ("/sts/role/source-settings", test_role_source_settings);
      g_test_add_func ("/sts/role/mfa", test_role_mfa);
      g_test_add_func ("/sts/role/mfa-refused", test_role_mfa_refused);
      g_test_add_func ("/sts/role/mfa-default-prompter", test_role_mfa_default_prompter);
      g_test_add_func ("/sts/role/chain", test_role_chain);
      g_test_add_func ("/sts/role/cycle", test_role_cycle);
      g_test_add_func ("/sts/role/self-source", test_role_self_source);
      g_test_add_func ("/sts/role/source-with-keys", test_role_source_with_keys);
      g_test_add_func ("/sts/refresh-before-expiry", test_refresh_before_expiry);
      g_test_add_func ("/sts/role/sts-errors", test_role_sts_errors);
      g_test_add_func ("/sts/caller-identity", test_caller_identity);
      g_test_add_func ("/sts/web-identity/profile", test_web_identity_profile);
      g_test_add_func ("/sts/web-identity/env", test_web_identity_env);
      g_test_add_func ("/sts/container/token-file", test_container_token_file);
      g_test_add_func ("/sts/container/uri-rules", test_container_uri_rules);
      g_test_add_func ("/sts/container/default-chain", test_container_default_chain);
    }

  status = g_test_run ();

  g_clear_pointer (&server, dyn_signin_server_stop);
  g_clear_pointer (&short_server, dyn_signin_server_stop);
  if (workdir != NULL)
    {
      static const char * const files[] = { "config", "credentials", "web-token", "container-token" };

      for (guint i = 0; i < G_N_ELEMENTS (files); i++)
        {
          g_autofree char *path = g_build_filename (workdir, files[i], NULL);
          g_unlink (path);
        }
      g_rmdir (workdir);
      g_free (workdir);
    }
  g_ptr_array_unref (secrets);
  return status;
}
