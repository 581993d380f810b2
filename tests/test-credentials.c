/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "dyn-config.h"
#include "dyn-credentials.h"
#include "dyn-error.h"
#include "dyn-test-util.h"

/* Every secret a test puts anywhere; no error message may contain one. */
#define SECRET        "wJalrXUtnFEMIK7MDENGbPxRfiCYsecret1"
#define SECRET2       "je7MtGbClwBF2Zp9Utk0h3yCo8nvbsecret2"
#define TOKEN         "FwoGZXIvYXdzEJrtokenvalueAAAAtoken1"
#define PROC_SECRET   "ProcSecretKeyFromTheProcessZZZsecret3"
#define PROC_TOKEN    "ProcSessionTokenFromTheProcesstoken2"

static const char * const secrets[] = { SECRET, SECRET2, TOKEN, PROC_SECRET, PROC_TOKEN };

static const char * const env_vars[] = {
  "HOME", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE", "AWS_REGION",
  "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
  "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
};

typedef struct {
  char *home;
  char *saved[G_N_ELEMENTS (env_vars)];
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->home = g_dir_make_tmp ("dyn-credentials-XXXXXX", &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (env_vars); i++)
    {
      f->saved[i] = g_strdup (g_getenv (env_vars[i]));
      g_unsetenv (env_vars[i]);
    }
  g_setenv ("HOME", f->home, TRUE);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
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
    }
  g_rmdir (path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (env_vars); i++)
    {
      if (f->saved[i] != NULL)
        g_setenv (env_vars[i], f->saved[i], TRUE);
      else
        g_unsetenv (env_vars[i]);
      g_free (f->saved[i]);
    }

  remove_tree (f->home);
  g_free (f->home);
}

static char *
write_file (Fixture    *f,
            const char *relpath,
            const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (f->home, relpath, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_mkdir_with_parents (dir, 0700);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static void
write_config (Fixture    *f,
              const char *contents)
{
  g_free (write_file (f, ".aws/config", contents));
}

static void
write_credentials (Fixture    *f,
                   const char *contents)
{
  g_free (write_file (f, ".aws/credentials", contents));
}

static void
assert_no_secret (const GError *error)
{
  g_assert_nonnull (error);
  for (guint i = 0; i < G_N_ELEMENTS (secrets); i++)
    {
      if (strstr (error->message, secrets[i]) != NULL)
        g_error ("A secret leaked into an error message: %s", error->message);
    }
}

static void
assert_error (const GError *error,
              int           code,
              const char   *fragment)
{
  g_assert_error (error, DYN_ERROR, code);
  assert_no_secret (error);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("Expected '%s' in the error message: %s", fragment, error->message);
}

static DynProfile *
resolve_with (const char  *profile,
              GError     **error)
{
  DynResolveOptions options = { .profile = profile };

  return dyn_profile_resolve (NULL, &options, error);
}

static DynProfile *
resolve_ok (const char *profile)
{
  g_autoptr(GError) error = NULL;
  DynProfile *resolved = resolve_with (profile, &error);

  g_assert_no_error (error);
  g_assert_nonnull (resolved);
  return resolved;
}

/* For tests about region and endpoint: keys given, so no profile needs any. */
static DynProfile *
resolve_keyed (const char  *profile,
               GError     **error)
{
  DynResolveOptions options = { .profile = profile, .access_key_id = "AKIAGIVEN", .secret_access_key = SECRET };

  return dyn_profile_resolve (NULL, &options, error);
}

static DynProfile *
resolve_keyed_ok (const char *profile)
{
  g_autoptr(GError) error = NULL;
  DynProfile *resolved = resolve_keyed (profile, &error);

  g_assert_no_error (error);
  g_assert_nonnull (resolved);
  return resolved;
}

static DynCredentials *
get_sync (DynProfile *profile)
{
  g_autoptr(GError) error = NULL;
  DynCredentials *creds;

  creds = dyn_credentials_provider_get (dyn_profile_get_credentials_provider (profile), NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (creds);
  return creds;
}

static DynCredentials *
get_async (DynCredentialsProvider  *provider,
           GCancellable            *cancellable,
           GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  dyn_credentials_provider_get_async (provider, cancellable, dyn_test_result_cb, &result);
  return dyn_credentials_provider_get_finish (provider, dyn_test_wait (&result), error);
}

/* Tests */

static void
test_new_destroy (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GDateTime) when = g_date_time_new_utc (2030, 1, 2, 3, 4, 5);
  g_autoptr(DynCredentials) creds = dyn_credentials_new ("AKIDEXAMPLE", SECRET, "", when);
  g_autoptr(DynCredentials) fetched = NULL;
  g_autoptr(GError) error = NULL;
  DynCredentialsProvider *provider;

  g_assert_cmpstr (creds->access_key_id, ==, "AKIDEXAMPLE");
  g_assert_cmpstr (creds->secret_access_key, ==, SECRET);
  g_assert_null (creds->session_token);
  g_assert_true (g_date_time_equal (creds->expiration, when));
  g_assert_true (dyn_credentials_expires_within (creds, NULL, 0) == FALSE);

  provider = dyn_credentials_provider_new_static ("AKIDEXAMPLE", SECRET, TOKEN);
  g_assert_cmpint (dyn_credentials_provider_get_source (provider), ==, DYN_CREDENTIALS_SOURCE_STATIC);
  fetched = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fetched->session_token, ==, TOKEN);
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&fetched, dyn_credentials_unref);
  fetched = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (fetched->secret_access_key, ==, SECRET);
  g_assert_finalize_object (provider);
}

static void
test_default_profile (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  DynCredentialsProvider *provider;

  write_config (f, "[default]\nregion = eu-central-1\n\n[profile dev]\nregion = eu-west-1\n");
  write_credentials (f,
                     "[default]\n"
                     "aws_access_key_id = AKIADEFAULT\n"
                     "aws_secret_access_key = " SECRET "\n"
                     "[dev]\n"
                     "aws_access_key_id = AKIADEV\n"
                     "aws_secret_access_key = " SECRET2 "\n"
                     "aws_session_token = " TOKEN "\n");

  profile = resolve_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "default");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-central-1");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "profile 'default' in ~/.aws/config");
  g_assert_null (dyn_profile_get_endpoint_url (profile));
  provider = dyn_profile_get_credentials_provider (profile);
  g_assert_cmpint (dyn_credentials_provider_get_source (provider), ==, DYN_CREDENTIALS_SOURCE_CREDENTIALS_FILE);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==, "profile 'default' in ~/.aws/credentials");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIADEFAULT");
  g_assert_cmpstr (creds->secret_access_key, ==, SECRET);
  g_assert_null (creds->session_token);
  g_assert_null (creds->expiration);

  {
    g_autofree char *url = dyn_profile_dup_effective_endpoint_url (profile);
    g_assert_cmpstr (url, ==, "https://dynamodb.eu-central-1.amazonaws.com");
  }

  g_clear_pointer (&profile, dyn_profile_unref);
  g_clear_pointer (&creds, dyn_credentials_unref);
  profile = resolve_ok ("dev");
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "dev");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-west-1");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIADEV");
  g_assert_cmpstr (creds->session_token, ==, TOKEN);

  /* AWS_PROFILE selects the profile when the caller does not. */
  g_clear_pointer (&profile, dyn_profile_unref);
  g_setenv ("AWS_PROFILE", "dev", TRUE);
  profile = resolve_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "dev");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-west-1");
}

static void
test_profile_forms (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f,
                "[default]\n"
                "region = us-west-1\n"
                "[profile default]\n"
                "region = us-west-2\n"
                "[plain]\n"                       /* not a profile in the config file */
                "region = ap-south-1\n"
                "[profile \"with space\"]\n"
                "region = sa-east-1\n"
                "aws_access_key_id = AKIACONFIG\n"
                "aws_secret_access_key = " SECRET "\n"
                "[profile both]\n"
                "region = eu-north-1\n"
                "aws_access_key_id = AKIACONFIGBOTH\n"
                "aws_secret_access_key = " SECRET "\n");
  write_credentials (f,
                     "[default]\n"
                     "aws_access_key_id = AKIADEFAULT\n"
                     "aws_secret_access_key = " SECRET2 "\n"
                     "[both]\n"
                     "region = eu-south-1\n"
                     "aws_access_key_id = AKIACREDSBOTH\n"
                     "aws_secret_access_key = " SECRET2 "\n"
                     "[profile odd]\n"
                     "aws_access_key_id = AKIAODD\n"
                     "aws_secret_access_key = " SECRET2 "\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);

  /* [profile default] wins over [default]. */
  profile = resolve_ok ("default");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "us-west-2");
  g_clear_pointer (&profile, dyn_profile_unref);

  /* [plain] in the config file is no profile. */
  profile = resolve_with ("plain", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "'plain'");
  g_clear_error (&error);

  /* Quoted names; keys from the config file. */
  profile = resolve_ok ("with space");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "sa-east-1");
  g_assert_cmpint (dyn_credentials_provider_get_source (dyn_profile_get_credentials_provider (profile)),
                   ==, DYN_CREDENTIALS_SOURCE_CONFIG_FILE);
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIACONFIG");
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* The credentials file wins over the config file, for keys and settings alike. */
  profile = resolve_ok ("both");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-south-1");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "profile 'both' in ~/.aws/credentials");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIACREDSBOTH");
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* In the credentials file the section name is the profile name, verbatim. */
  g_setenv ("AWS_REGION", "us-east-2", TRUE);
  profile = resolve_ok ("profile odd");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAODD");
}

static void
test_env_precedence (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynResolveOptions options = { NULL };

  write_config (f, "[default]\nregion = eu-west-3\n[profile dev]\nregion = eu-west-1\n");
  write_credentials (f,
                     "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = " SECRET "\n"
                     "[dev]\naws_access_key_id = AKIADEV\naws_secret_access_key = " SECRET "\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET2, TRUE);
  g_setenv ("AWS_SESSION_TOKEN", TOKEN, TRUE);

  /* The environment wins over the default profile … */
  profile = resolve_ok (NULL);
  g_assert_cmpint (dyn_credentials_provider_get_source (dyn_profile_get_credentials_provider (profile)),
                   ==, DYN_CREDENTIALS_SOURCE_ENVIRONMENT);
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAENV");
  g_assert_cmpstr (creds->secret_access_key, ==, SECRET2);
  g_assert_cmpstr (creds->session_token, ==, TOKEN);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* … and over AWS_PROFILE, as in botocore … */
  g_setenv ("AWS_PROFILE", "dev", TRUE);
  profile = resolve_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "dev");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-west-1");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAENV");
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* … but an explicitly chosen profile uses its own keys. */
  profile = resolve_ok ("dev");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIADEV");
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);
  profile = resolve_ok ("default");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIADEFAULT");
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* Keys given by the caller win over everything. */
  options.profile = "dev";
  options.access_key_id = "AKIAGIVEN";
  options.secret_access_key = SECRET;
  profile = dyn_profile_resolve (NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (dyn_credentials_provider_get_source (dyn_profile_get_credentials_provider (profile)),
                   ==, DYN_CREDENTIALS_SOURCE_STATIC);
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAGIVEN");
  g_assert_null (creds->session_token);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_clear_pointer (&profile, dyn_profile_unref);

  /* A given provider (the keyring) wins over given keys. */
  options.provider = dyn_credentials_provider_new_static ("AKIAKEYRING", SECRET, NULL);
  profile = dyn_profile_resolve (NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_profile_get_credentials_provider (profile) == options.provider);
  g_clear_pointer (&profile, dyn_profile_unref);
  g_assert_finalize_object (options.provider);
  options.provider = NULL;

  /* Half a pair of keys is an error, never a silent fallback. */
  options.secret_access_key = NULL;
  profile = dyn_profile_resolve (NULL, &options, &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS, "secret access key");
  g_clear_error (&error);

  g_unsetenv ("AWS_PROFILE");
  g_unsetenv ("AWS_SECRET_ACCESS_KEY");
  profile = resolve_with (NULL, &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS, "AWS_SECRET_ACCESS_KEY is not");
  g_clear_error (&error);

  /* Empty variables count as unset. */
  g_setenv ("AWS_ACCESS_KEY_ID", "", TRUE);
  profile = resolve_ok (NULL);
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIADEFAULT");
}

static void
test_file_env_vars (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *credentials_path = NULL;

  write_config (f, "[default]\nregion = us-west-1\n");
  write_credentials (f, "[default]\naws_access_key_id = AKIAHOME\naws_secret_access_key = " SECRET "\n");
  config_path = write_file (f, "elsewhere/cfg", "[profile other]\nregion = ap-northeast-1\n");
  credentials_path = write_file (f, "elsewhere/creds",
                                 "[other]\naws_access_key_id = AKIAOTHER\naws_secret_access_key = " SECRET "\n");

  g_setenv ("AWS_CONFIG_FILE", config_path, TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "~/elsewhere/creds", TRUE);

  shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_shared_config_get_config_path (shared), ==, config_path);
  g_assert_cmpstr (dyn_shared_config_get_credentials_path (shared), ==, credentials_path);
  g_assert_false (dyn_shared_config_has_profile (shared, "default"));
  g_assert_true (dyn_shared_config_has_profile (shared, "other"));
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "other", "REGION"), ==, "ap-northeast-1");

  profile = resolve_ok ("other");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "ap-northeast-1");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "profile 'other' in ~/elsewhere/cfg");
  creds = get_sync (profile);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAOTHER");
  g_clear_pointer (&profile, dyn_profile_unref);

  /* The files under ~/.aws are not read at all now. */
  profile = resolve_with (NULL, &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "No region");
  g_clear_error (&error);

  /* Files that do not exist read as empty. */
  g_setenv ("AWS_CONFIG_FILE", "/nonexistent/dyn/config", TRUE);
  g_setenv ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/dyn/credentials", TRUE);
  g_setenv ("AWS_REGION", "us-east-1", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);
  profile = resolve_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "us-east-1");
}

static void
test_endpoint (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  DynResolveOptions options = { NULL };

  write_config (f,
                "[default]\n"
                "region = us-east-1\n"
                "endpoint_url = http://localhost:8000\n"
                "[profile svc]\n"
                "region = us-east-1\n"
                "endpoint_url = http://profile-level:1\n"
                "services = local-ddb\n"
                "[profile ignoring]\n"
                "endpoint_url = http://localhost:8000\n"
                "ignore_configured_endpoint_urls = TRUE\n"
                "[services local-ddb]\n"
                "s3 =\n"
                "  endpoint_url = http://s3.local:9000\n"
                "dynamodb =\n"
                "  # DynamoDB Local\n"
                "  endpoint_url = http://127.0.0.1:8001\n"
                "\n"
                "  region = ignored\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);

  profile = resolve_keyed_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://localhost:8000");
  g_assert_cmpstr (dyn_profile_get_endpoint_source (profile), ==, "profile 'default' in ~/.aws/config");
  {
    g_autofree char *url = dyn_profile_dup_effective_endpoint_url (profile);
    g_assert_cmpstr (url, ==, "http://localhost:8000");
  }
  g_clear_pointer (&profile, dyn_profile_unref);

  /* The services section wins over the profile's endpoint_url. */
  profile = resolve_keyed_ok ("svc");
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://127.0.0.1:8001");
  g_assert_cmpstr (dyn_profile_get_endpoint_source (profile), ==, "services section 'local-ddb' in ~/.aws/config");
  g_clear_pointer (&profile, dyn_profile_unref);

  /* The profile's ignore flag. */
  profile = resolve_keyed ("ignoring", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "No region");
  g_clear_error (&error);

  /* AWS_ENDPOINT_URL wins over the files, AWS_ENDPOINT_URL_DYNAMODB over that. */
  g_setenv ("AWS_ENDPOINT_URL", "http://global:2", TRUE);
  profile = resolve_keyed_ok ("svc");
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://global:2");
  g_assert_cmpstr (dyn_profile_get_endpoint_source (profile), ==, "AWS_ENDPOINT_URL");
  g_clear_pointer (&profile, dyn_profile_unref);

  g_setenv ("AWS_ENDPOINT_URL_DYNAMODB", "http://ddb:3", TRUE);
  profile = resolve_keyed_ok ("svc");
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://ddb:3");
  g_assert_cmpstr (dyn_profile_get_endpoint_source (profile), ==, "AWS_ENDPOINT_URL_DYNAMODB");
  g_clear_pointer (&profile, dyn_profile_unref);

  /* AWS_IGNORE_CONFIGURED_ENDPOINT_URLS drops them all … */
  g_setenv ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", TRUE);
  profile = resolve_keyed_ok ("svc");
  g_assert_null (dyn_profile_get_endpoint_url (profile));
  g_clear_pointer (&profile, dyn_profile_unref);

  /* … except one the caller gives. */
  options.profile = "svc";
  options.access_key_id = "AKIAGIVEN";
  options.secret_access_key = SECRET;
  options.endpoint_url = "http://given:4";
  profile = dyn_profile_resolve (NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://given:4");
  g_clear_pointer (&profile, dyn_profile_unref);

  /* The environment's "false" overrides the profile's "true". */
  g_setenv ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "false", TRUE);
  g_unsetenv ("AWS_ENDPOINT_URL_DYNAMODB");
  g_unsetenv ("AWS_ENDPOINT_URL");
  g_setenv ("AWS_REGION", "eu-west-1", TRUE);
  profile = resolve_keyed_ok ("ignoring");
  g_assert_cmpstr (dyn_profile_get_endpoint_url (profile), ==, "http://localhost:8000");
}

static void
test_region (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  DynResolveOptions options = { NULL };

  write_config (f, "[default]\nregion = eu-west-1\n[profile none]\noutput = json\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);

  profile = resolve_keyed_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-west-1");
  g_clear_pointer (&profile, dyn_profile_unref);

  g_setenv ("AWS_DEFAULT_REGION", "us-west-2", TRUE);
  profile = resolve_keyed_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "us-west-2");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "AWS_DEFAULT_REGION");
  g_clear_pointer (&profile, dyn_profile_unref);

  g_setenv ("AWS_REGION", "ap-southeast-2", TRUE);
  profile = resolve_keyed_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "ap-southeast-2");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "AWS_REGION");
  g_clear_pointer (&profile, dyn_profile_unref);

  options.region = "cn-north-1";
  options.access_key_id = "AKIAGIVEN";
  options.secret_access_key = SECRET;
  profile = dyn_profile_resolve (NULL, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "cn-north-1");
  {
    g_autofree char *url = dyn_profile_dup_effective_endpoint_url (profile);
    g_assert_cmpstr (url, ==, "https://dynamodb.cn-north-1.amazonaws.com.cn");
  }
  g_clear_pointer (&profile, dyn_profile_unref);

  /* No region anywhere: the error says what was tried. */
  g_unsetenv ("AWS_REGION");
  g_unsetenv ("AWS_DEFAULT_REGION");
  profile = resolve_keyed ("none", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "No region");
  g_assert_nonnull (strstr (error->message, "AWS_REGION, AWS_DEFAULT_REGION"));
  g_assert_nonnull (strstr (error->message, "'none'"));
  g_assert_nonnull (strstr (error->message, "~/.aws/config"));
  g_clear_error (&error);

  /* … unless there is an endpoint: DynamoDB Local takes any region. */
  g_setenv ("AWS_ENDPOINT_URL_DYNAMODB", "http://localhost:8000", TRUE);
  profile = resolve_keyed_ok ("none");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "us-east-1");
  g_assert_cmpstr (dyn_profile_get_region_source (profile), ==, "the default for a custom endpoint");
}

static void
test_missing_profile (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f, "[profile dev]\nregion = eu-west-1\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);
  g_setenv ("AWS_REGION", "eu-west-1", TRUE);

  profile = resolve_with ("nope", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "The profile 'nope' is in neither ~/.aws/config nor ~/.aws/credentials");
  g_clear_error (&error);

  g_setenv ("AWS_PROFILE", "gone", TRUE);
  profile = resolve_with (NULL, &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "'gone'");
  g_clear_error (&error);

  /* A missing default profile is fine. */
  g_unsetenv ("AWS_PROFILE");
  profile = resolve_ok (NULL);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "default");
}

static void
test_no_credentials (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f,
                "[profile bare]\nregion = eu-west-1\n"
                "[profile role]\nregion = eu-west-1\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = bare\n"
                "[profile sso]\nregion = eu-west-1\nsso_session = corp\n"
                "[profile half]\nregion = eu-west-1\naws_secret_access_key = " SECRET "\n");
  write_credentials (f, "[halfcreds]\nregion = eu-west-1\naws_access_key_id = AKIAHALF\n");
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET2, TRUE);

  profile = resolve_with ("bare", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS, "No credentials found");
  g_assert_null (strstr (error->message, "AWS_ACCESS_KEY_ID"));
  g_clear_error (&error);

  profile = resolve_with ("role", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS, "assumes a role");
  g_assert_nonnull (strstr (error->message, "export-credentials --profile role --format process"));
  g_clear_error (&error);

  profile = resolve_with ("sso", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS, "IAM Identity Center");
  g_clear_error (&error);

  profile = resolve_with ("half", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS,
                "Profile 'half' in ~/.aws/config has aws_secret_access_key but no aws_access_key_id");
  g_clear_error (&error);

  profile = resolve_with ("halfcreds", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CREDENTIALS,
                "Profile 'halfcreds' in ~/.aws/credentials has aws_access_key_id but no aws_secret_access_key");
  g_clear_error (&error);
}

/* credential_process */

typedef struct {
  char *dir;
  char *script;
} Proc;

static void
proc_clear (Proc *p)
{
  g_free (p->dir);
  g_free (p->script);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Proc, proc_clear)

/* A script that counts its runs and prints the files out.json and err.txt
 * with the exit status in status. It lives in a directory with a space, so
 * the command line needs quoting. */
static void
proc_setup (Fixture    *f,
            Proc       *p,
            const char *profile_extra)
{
  g_autofree char *config = NULL;

  p->dir = g_build_filename (f->home, "proc dir", NULL);
  g_free (write_file (f, "proc dir/status", "0"));
  p->script = write_file (f, "proc dir/creds.sh",
                          "#!/bin/sh\n"
                          "d=$(dirname \"$0\")\n"
                          "echo run >> \"$d/count\"\n"
                          "[ -f \"$d/sleep\" ] && sleep \"$(cat \"$d/sleep\")\"\n"
                          "[ -f \"$d/out.json\" ] && cat \"$d/out.json\"\n"
                          "[ -f \"$d/err.txt\" ] && cat \"$d/err.txt\" >&2\n"
                          "exit \"$(cat \"$d/status\")\"\n");
  config = g_strdup_printf ("[profile proc]\n"
                            "region = eu-west-1\n"
                            "credential_process = sh '%s' --profile proc\n%s",
                            p->script, profile_extra != NULL ? profile_extra : "");
  write_config (f, config);
}

static void
proc_output (Fixture    *f,
             const char *out,
             const char *err,
             int         status)
{
  g_autofree char *status_text = g_strdup_printf ("%d", status);
  g_autofree char *out_path = g_build_filename (f->home, "proc dir", "out.json", NULL);
  g_autofree char *err_path = g_build_filename (f->home, "proc dir", "err.txt", NULL);

  g_unlink (out_path);
  g_unlink (err_path);
  if (out != NULL)
    g_free (write_file (f, "proc dir/out.json", out));
  if (err != NULL)
    g_free (write_file (f, "proc dir/err.txt", err));
  g_free (write_file (f, "proc dir/status", status_text));
}

static char *
proc_json (GTimeSpan from_now)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) when = g_date_time_add (now, from_now);
  g_autofree char *expiration = g_date_time_format (when, "%Y-%m-%dT%H:%M:%SZ");

  return g_strdup_printf ("{\"Version\": 1, \"AccessKeyId\": \"ASIAPROC\", "
                          "\"SecretAccessKey\": \"" PROC_SECRET "\", "
                          "\"SessionToken\": \"" PROC_TOKEN "\", "
                          "\"Expiration\": \"%s\"}\n", expiration);
}

static guint
proc_runs (Fixture *f)
{
  g_autofree char *path = g_build_filename (f->home, "proc dir", "count", NULL);
  g_autofree char *contents = NULL;
  guint n = 0;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return 0;
  for (const char *c = contents; *c != '\0'; c++)
    n += *c == '\n';
  return n;
}

static void
test_process_success (Fixture       *f,
                      gconstpointer  data)
{
  g_auto(Proc) p = { NULL };
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(DynCredentials) again = NULL;
  g_autoptr(GError) error = NULL;
  DynCredentialsProvider *provider;

  proc_setup (f, &p, NULL);
  proc_output (f, "{\"Version\": 1, \"AccessKeyId\": \"AKIAPROC\", \"SecretAccessKey\": \"" PROC_SECRET "\"}", NULL, 0);
  /* The environment's keys do not matter for an explicit profile. */
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIAENV", TRUE);
  g_setenv ("AWS_SECRET_ACCESS_KEY", SECRET, TRUE);

  profile = resolve_ok ("proc");
  provider = dyn_profile_get_credentials_provider (profile);
  g_assert_cmpint (dyn_credentials_provider_get_source (provider), ==, DYN_CREDENTIALS_SOURCE_PROCESS);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==, "credential_process of profile 'proc'");
  g_assert_cmpuint (proc_runs (f), ==, 0);

  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIAPROC");
  g_assert_cmpstr (creds->secret_access_key, ==, PROC_SECRET);
  g_assert_null (creds->session_token);
  g_assert_null (creds->expiration);
  g_assert_cmpuint (proc_runs (f), ==, 1);

  /* Credentials without Expiration are kept for good. */
  again = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (again == creds);
  g_clear_pointer (&again, dyn_credentials_unref);
  again = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (again == creds);
  g_assert_cmpuint (proc_runs (f), ==, 1);

  /* invalidate() makes the next get run the process again; sync works too. */
  dyn_credentials_provider_invalidate (provider);
  g_clear_pointer (&again, dyn_credentials_unref);
  again = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->access_key_id, ==, "AKIAPROC");
  g_assert_cmpuint (proc_runs (f), ==, 2);
}

static void
test_process_refresh (Fixture       *f,
                      gconstpointer  data)
{
  g_auto(Proc) p = { NULL };
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  DynCredentialsProvider *provider;
  GAsyncResult *r1 = NULL;
  GAsyncResult *r2 = NULL;

  proc_setup (f, &p, NULL);
  profile = resolve_ok ("proc");
  provider = dyn_profile_get_credentials_provider (profile);

  /* An hour left: cached. */
  json = proc_json (G_TIME_SPAN_HOUR);
  proc_output (f, json, NULL, 0);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->session_token, ==, PROC_TOKEN);
  g_assert_nonnull (creds->expiration);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_async (provider, NULL, &error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 1);

  /* Two minutes left (less than the margin): every get refreshes. */
  dyn_credentials_provider_invalidate (provider);
  g_free (json);
  json = proc_json (2 * G_TIME_SPAN_MINUTE);
  proc_output (f, json, NULL, 0);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 2);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 3);
  creds = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 4);

  /* A failing early refresh keeps the credentials that still work … */
  proc_output (f, NULL, "token service down", 1);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->secret_access_key, ==, PROC_SECRET);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 5);

  /* Already expired: handed out, never cached. */
  g_free (json);
  json = proc_json (-G_TIME_SPAN_HOUR);
  proc_output (f, json, NULL, 0);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (dyn_credentials_expires_within (creds, NULL, 0));
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (proc_runs (f), ==, 6);

  /* … but once nothing valid is cached, the failure is reported. */
  proc_output (f, NULL, "token service down", 1);
  creds = get_async (provider, NULL, &error);
  g_assert_null (creds);
  assert_error (error, DYN_ERROR_CREDENTIALS, "token service down");
  g_clear_error (&error);
  g_assert_cmpuint (proc_runs (f), ==, 7);

  /* Concurrent gets share one run. */
  g_free (json);
  json = proc_json (G_TIME_SPAN_HOUR);
  proc_output (f, json, NULL, 0);
  dyn_credentials_provider_get_async (provider, NULL, dyn_test_result_cb, &r1);
  dyn_credentials_provider_get_async (provider, NULL, dyn_test_result_cb, &r2);
  while (r1 == NULL || r2 == NULL)
    g_main_context_iteration (NULL, TRUE);
  {
    g_autoptr(DynCredentials) c1 = dyn_credentials_provider_get_finish (provider, r1, &error);
    g_autoptr(DynCredentials) c2 = NULL;

    g_assert_no_error (error);
    c2 = dyn_credentials_provider_get_finish (provider, r2, &error);
    g_assert_no_error (error);
    g_assert_true (c1 == c2);
  }
  g_clear_object (&r1);
  g_clear_object (&r2);
  g_assert_cmpuint (proc_runs (f), ==, 8);
}

static void
expect_process_error (Fixture    *f,
                      const char *out,
                      const char *err,
                      int         status,
                      const char *fragment)
{
  g_autoptr(DynProfile) profile = resolve_ok ("proc");
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;

  proc_output (f, out, err, status);

  creds = get_async (dyn_profile_get_credentials_provider (profile), NULL, &error);
  g_assert_null (creds);
  assert_error (error, DYN_ERROR_CREDENTIALS, fragment);
  g_assert_nonnull (strstr (error->message, "credential_process of profile 'proc' (sh)"));
  g_clear_error (&error);

  /* The blocking variant says the same. */
  creds = dyn_credentials_provider_get (dyn_profile_get_credentials_provider (profile), NULL, &error);
  g_assert_null (creds);
  assert_error (error, DYN_ERROR_CREDENTIALS, fragment);
}

static void
test_process_failures (Fixture       *f,
                       gconstpointer  data)
{
  g_auto(Proc) p = { NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynProfile) profile = NULL;
  const char *full = "{\"Version\": 1, \"AccessKeyId\": \"ASIAPROC\", \"SecretAccessKey\": \"" PROC_SECRET "\", "
                     "\"SessionToken\": \"" PROC_TOKEN "\"}";

  proc_setup (f, &p, NULL);

  expect_process_error (f, NULL, "  profile not configured\n", 3, "failed with exit status 3: profile not configured");
  expect_process_error (f, NULL, NULL, 255, "failed with exit status 255 (no error output)");
  /* A process that prints its secret on stderr, too: it is blanked out. */
  expect_process_error (f, full, "debug: secret is " PROC_SECRET ", token " PROC_TOKEN, 1,
                        "debug: secret is ****, token ****");
  /* … also where the message is cut. */
  {
    g_autofree char *padding = g_strnfill (1020, 'x');
    g_autofree char *err = g_strconcat (padding, PROC_SECRET, "\n", NULL);

    expect_process_error (f, full, err, 1, "failed with exit status 1: xxxx");
  }
  expect_process_error (f, "not json " PROC_SECRET, NULL, 0, "did not print a JSON object");
  expect_process_error (f, "[1, 2]", NULL, 0, "did not print a JSON object");
  expect_process_error (f, "", NULL, 0, "did not print a JSON object");
  expect_process_error (f, "{\"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" PROC_SECRET "\"}", NULL, 0,
                        "printed no 'Version'");
  expect_process_error (f, "{\"Version\": 2, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" PROC_SECRET "\"}", NULL, 0,
                        "unsupported 'Version'");
  expect_process_error (f, "{\"Version\": \"1\", \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" PROC_SECRET "\"}", NULL, 0,
                        "unsupported 'Version'");
  expect_process_error (f, "{\"Version\": 1, \"SecretAccessKey\": \"" PROC_SECRET "\"}", NULL, 0,
                        "printed no 'AccessKeyId' string");
  expect_process_error (f, "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SessionToken\": \"" PROC_TOKEN "\"}", NULL, 0,
                        "printed no 'SecretAccessKey' string");
  expect_process_error (f, "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": 5}", NULL, 0,
                        "printed no 'SecretAccessKey' string");
  expect_process_error (f, "{\"Version\": 1, \"AccessKeyId\": \"A\", \"SecretAccessKey\": \"" PROC_SECRET "\", "
                        "\"Expiration\": \"tomorrow\"}", NULL, 0, "'Expiration' that is not an ISO 8601 time");

  /* A program that does not exist. */
  write_config (f, "[profile proc]\nregion = eu-west-1\ncredential_process = /nonexistent/dyn-creds --x\n");
  {
    g_autoptr(DynCredentials) creds = NULL;

    profile = resolve_ok ("proc");
    creds = get_async (dyn_profile_get_credentials_provider (profile), NULL, &error);
    g_assert_null (creds);
    assert_error (error, DYN_ERROR_CREDENTIALS, "credential_process of profile 'proc' (dyn-creds) could not be started");
    g_clear_error (&error);
    g_clear_pointer (&profile, dyn_profile_unref);
  }

  /* A command line that does not split is a config error. */
  write_config (f, "[profile proc]\nregion = eu-west-1\ncredential_process = sh 'unbalanced\n");
  profile = resolve_with ("proc", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, "cannot be split into arguments");
}

typedef struct {
  Fixture      *f;
  GCancellable *cancellable;
} CancelData;

/* Cancels once the process is surely running (it has counted its run). */
static gboolean
cancel_when_running_cb (gpointer user_data)
{
  CancelData *data = user_data;

  if (proc_runs (data->f) < 1)
    return G_SOURCE_CONTINUE;

  g_cancellable_cancel (data->cancellable);
  return G_SOURCE_REMOVE;
}

static void
test_process_cancel (Fixture       *f,
                     gconstpointer  data)
{
  g_auto(Proc) p = { NULL };
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = proc_json (G_TIME_SPAN_HOUR);
  CancelData cancel_data = { f, cancellable };
  gint64 start;

  proc_setup (f, &p, NULL);
  proc_output (f, json, NULL, 0);
  g_free (write_file (f, "proc dir/sleep", "5"));
  profile = resolve_ok ("proc");

  start = g_get_monotonic_time ();
  g_timeout_add (20, cancel_when_running_cb, &cancel_data);
  creds = get_async (dyn_profile_get_credentials_provider (profile), cancellable, &error);
  g_assert_null (creds);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 4 * G_USEC_PER_SEC);
  g_clear_error (&error);

  /* A new request after the cancelled one runs the process again. */
  {
    g_autofree char *sleep_path = g_build_filename (f->home, "proc dir", "sleep", NULL);
    g_unlink (sleep_path);
  }
  creds = get_async (dyn_profile_get_credentials_provider (profile), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "ASIAPROC");
  g_assert_cmpuint (proc_runs (f), ==, 2);

  /* Let the abandoned fetch finish (it was killed) before the fixture goes. */
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* A custom source, standing in for the keyring. */

typedef struct {
  guint     calls;
  GTimeSpan lifetime;
} Custom;

static void
custom_fetch (GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             callback_data,
              gpointer             user_data)
{
  Custom *custom = user_data;
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) expiration = g_date_time_add (now, custom->lifetime);

  custom->calls++;
  g_task_return_pointer (task, dyn_credentials_new ("AKIACUSTOM", SECRET, NULL, expiration),
                         (GDestroyNotify) dyn_credentials_unref);
}

static DynCredentials *
custom_finish (GAsyncResult  *result,
               GError       **error,
               gpointer       user_data)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_custom_provider (Fixture       *f,
                      gconstpointer  data)
{
  Custom custom = { 0, G_TIME_SPAN_HOUR };
  g_autoptr(DynCredentials) creds = NULL;
  g_autoptr(GError) error = NULL;
  DynCredentialsProvider *provider;

  provider = dyn_credentials_provider_new_custom (custom_fetch, custom_finish, &custom, NULL, "keyring");
  g_assert_cmpint (dyn_credentials_provider_get_source (provider), ==, DYN_CREDENTIALS_SOURCE_CUSTOM);
  g_assert_cmpstr (dyn_credentials_provider_get_description (provider), ==, "keyring");

  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (creds->access_key_id, ==, "AKIACUSTOM");
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  g_assert_cmpuint (custom.calls, ==, 1);

  custom.lifetime = G_TIME_SPAN_MINUTE;
  dyn_credentials_provider_invalidate (provider);
  creds = dyn_credentials_provider_get (provider, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&creds, dyn_credentials_unref);
  creds = get_async (provider, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (custom.calls, ==, 3);

  g_assert_finalize_object (provider);
}

/* Parsing */

static void
test_parser (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f,
                "\xEF\xBB\xBF# leading comment\r\n"
                "; another\r\n"
                "\r\n"
                "  [default]   # trailing comment\r\n"
                "REGION=eu-west-1 ; inline comment\r\n"
                "output : json\r\n"
                "cli_pager = less#notacomment\r\n"
                "\r\n"
                "[ profile   spaced ]\n"
                "\tregion   =   us-east-2   \n"
                "credential_process = sh -c 'echo {}'\n"
                "note = first line\n"
                "   second line\n"
                "   # not part of it\n"
                "   third line\n"
                "[profile spaced]\n"
                "extra = merged\n"
                "region = us-west-2\n"
                "[services s]\n"
                "dynamodb =\n"
                "    endpoint_url = http://localhost:8000 # comment\n"
                "    ; a comment line\n"
                "    Other=Value\n"
                "[profile s]\n"
                "services = s\n");

  shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "default", "region"), ==, "eu-west-1");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "default", "output"), ==, "json");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "default", "cli_pager"), ==, "less#notacomment");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "spaced", "region"), ==, "us-west-2");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "spaced", "extra"), ==, "merged");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "spaced", "credential_process"), ==, "sh -c 'echo {}'");
  g_assert_cmpstr (dyn_shared_config_get_value (shared, "spaced", "note"), ==, "first line\nsecond line\nthird line");
  g_assert_null (dyn_shared_config_get_value (shared, "spaced", "missing"));
  g_assert_false (dyn_shared_config_has_profile (shared, " profile   spaced "));

  {
    g_autoptr(GPtrArray) infos = dyn_shared_config_list_profiles (shared);
    DynProfileInfo *info;

    g_assert_cmpuint (infos->len, ==, 3);
    info = g_ptr_array_index (infos, 2);
    g_assert_cmpstr (info->name, ==, "s");
    g_assert_cmpstr (info->endpoint_url, ==, "http://localhost:8000");
  }
}

static void
expect_malformed (Fixture    *f,
                  gboolean    credentials,
                  const char *contents,
                  const char *message)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  write_config (f, credentials ? "[default]\nregion = eu-west-1\n" : contents);
  write_credentials (f, credentials ? contents : "");

  shared = dyn_shared_config_load (&error);
  g_assert_null (shared);
  assert_error (error, DYN_ERROR_CONFIG, NULL);
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);

  /* Resolving reports the same. */
  profile = resolve_with (NULL, &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, NULL);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_malformed (Fixture       *f,
                gconstpointer  data)
{
  expect_malformed (f, FALSE,
                    "# config\n"
                    "[default]\n"
                    "region = eu-west-1\n"
                    "\n"
                    "[profile dev]\n"
                    "region = eu-west-1\n"
                    "aws_secret_access_key " SECRET "\n",
                    "~/.aws/config line 7: expected 'key = value'");
  expect_malformed (f, TRUE,
                    "[default]\n"
                    "aws_access_key_id = AKIA\n"
                    SECRET "\n",
                    "~/.aws/credentials line 3: expected 'key = value'");
  expect_malformed (f, TRUE,
                    "aws_secret_access_key = " SECRET "\n",
                    "~/.aws/credentials line 1: expected a section header such as '[default]' before the first setting");
  expect_malformed (f, FALSE, "[default\nregion = x\n",
                    "~/.aws/config line 1: expected ']' at the end of the section header");
  expect_malformed (f, FALSE, "\n[  ]\n",
                    "~/.aws/config line 2: empty section name");
  expect_malformed (f, FALSE, "[default] region = x\n",
                    "~/.aws/config line 1: unexpected text after the section header");
  expect_malformed (f, FALSE, "[default]\n= value\n",
                    "~/.aws/config line 2: expected 'key = value'");
  expect_malformed (f, FALSE,
                    "[services x]\n"
                    "dynamodb =\n"
                    "  endpoint_url = http://localhost\n"
                    "  " TOKEN "\n",
                    "~/.aws/config line 4: expected 'key = value' in the indented block");
  expect_malformed (f, FALSE, "[default]\nregion = \xff\xfe\n",
                    "~/.aws/config line 2: not valid UTF-8 text");

  /* Paths outside $HOME are shown in full. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *path = write_file (f, "outside", "junk\n");
    g_autoptr(DynSharedConfig) shared = NULL;
    g_autofree char *expected = NULL;

    g_setenv ("HOME", "/nonexistent-home", TRUE);
    shared = dyn_shared_config_load_from_files (path, NULL, &error);
    g_assert_null (shared);
    expected = g_strdup_printf ("%s line 1: expected a section header such as '[default]' before the first setting", path);
    g_assert_cmpstr (error->message, ==, expected);
    g_setenv ("HOME", f->home, TRUE);
  }
}

/* client/'s messages come out in the user's language: a German or Turkish
 * window shows a malformed ~/.aws/config line, and what was tried for a
 * region, in German or Turkish. Runs in a subprocess, which keeps the language. */
static void
test_malformed_translated (Fixture       *f,
                           gconstpointer  data)
{
  const char *language = data;
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(DynProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  gboolean german = g_str_equal (language, "de");

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  dyn_test_use_translations (language);

  write_config (f, "[default]\nregion = eu-west-1\n\n[profile dev]\naws_secret_access_key " SECRET "\n");
  shared = dyn_shared_config_load (&error);
  g_assert_null (shared);
  assert_error (error, DYN_ERROR_CONFIG, NULL);
  g_assert_cmpstr (error->message, ==,
                   german ? "~/.aws/config Zeile 5: „key = value“ erwartet"
                          : "~/.aws/config satır 5: “key = value” bekleniyordu");
  g_clear_error (&error);

  /* Three placeholders, which the Turkish text reorders. */
  write_config (f, "[profile none]\noutput = json\n");
  profile = resolve_keyed ("none", &error);
  g_assert_null (profile);
  assert_error (error, DYN_ERROR_CONFIG, NULL);
  g_assert_cmpstr (error->message, ==,
                   german ? "Es ist keine Region eingerichtet: Versucht wurden AWS_REGION, AWS_DEFAULT_REGION und "
                            "„region“ des Profils „none“ in ~/.aws/config und ~/.aws/credentials"
                          : "Yapılandırılmış bölge yok: AWS_REGION, AWS_DEFAULT_REGION ve ~/.aws/config ile "
                            "~/.aws/credentials içindeki “none” profilinin “region” değeri denendi");
}

static void
test_list_profiles (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GError) error = NULL;
  DynProfileInfo *info;

  write_config (f,
                "[profile zeta]\n"
                "region = eu-west-1\n"
                "endpoint_url = http://localhost:8000\n"
                "[default]\n"
                "region = us-east-1\n"
                "[profile alpha]\n"
                "credential_process = true\n"
                "services = local\n"
                "[profile ignored]\n"
                "endpoint_url = http://localhost:8000\n"
                "ignore_configured_endpoint_urls = true\n"
                "[services local]\n"
                "dynamodb =\n"
                "  endpoint_url = http://127.0.0.1:9000\n"
                "[not-a-profile]\n"
                "x = y\n");
  write_credentials (f,
                     "[alpha]\n"
                     "region = ap-south-1\n"
                     "[only-creds]\n"
                     "aws_access_key_id = AKIA\n"
                     "aws_secret_access_key = " SECRET "\n"
                     "[default]\n"
                     "aws_access_key_id = AKIA\n"
                     "aws_secret_access_key = " SECRET "\n");

  /* The environment does not change the listing. */
  g_setenv ("AWS_REGION", "xx-env-1", TRUE);
  g_setenv ("AWS_ENDPOINT_URL", "http://env", TRUE);

  shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);
  infos = dyn_shared_config_list_profiles (shared);
  g_assert_cmpuint (infos->len, ==, 5);

  info = g_ptr_array_index (infos, 0);
  g_assert_cmpstr (info->name, ==, "default");
  g_assert_cmpstr (info->region, ==, "us-east-1");
  g_assert_null (info->endpoint_url);
  g_assert_true (info->in_config_file && info->in_credentials_file && info->has_static_keys);
  g_assert_false (info->has_credential_process);

  info = g_ptr_array_index (infos, 1);
  g_assert_cmpstr (info->name, ==, "zeta");
  g_assert_cmpstr (info->region, ==, "eu-west-1");
  g_assert_cmpstr (info->endpoint_url, ==, "http://localhost:8000");
  g_assert_true (info->in_config_file);
  g_assert_false (info->in_credentials_file || info->has_static_keys);

  info = g_ptr_array_index (infos, 2);
  g_assert_cmpstr (info->name, ==, "alpha");
  g_assert_cmpstr (info->region, ==, "ap-south-1");
  g_assert_cmpstr (info->endpoint_url, ==, "http://127.0.0.1:9000");
  g_assert_true (info->has_credential_process && info->in_config_file && info->in_credentials_file);

  info = g_ptr_array_index (infos, 3);
  g_assert_cmpstr (info->name, ==, "ignored");
  g_assert_null (info->endpoint_url);
  g_assert_null (info->region);

  info = g_ptr_array_index (infos, 4);
  g_assert_cmpstr (info->name, ==, "only-creds");
  g_assert_false (info->in_config_file);
  g_assert_true (info->in_credentials_file && info->has_static_keys);
}

/* botocore reads the same files the same way. */
static void
test_botocore_agrees (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *script = NULL;
  g_autoptr(DynSharedConfig) shared = NULL;
  g_auto(GStrv) lines = NULL;
  int status = 0;
  const char *argv[] = { "/usr/bin/python3", NULL, NULL };

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("no /usr/bin/python3");
      return;
    }

  write_config (f,
                "# comment\n"
                "[default]\n"
                "region = eu-west-1\n"
                "[profile dev]\n"
                "region=us-east-2\n"
                "output : json\n"
                "note = a\n"
                "  b\n"
                "services = local\n"
                "[profile \"quoted name\"]\n"
                "region = ap-south-1\n"
                "[services local]\n"
                "dynamodb =\n"
                "  endpoint_url = http://localhost:8000\n");
  write_credentials (f,
                     "[dev]\n"
                     "aws_access_key_id = AKIADEV\n"
                     "region = us-west-1\n"
                     "[credsonly]\n"
                     "Region = ca-central-1\n");

  script = write_file (f, "peer.py",
                       "import botocore.session\n"
                       "s = botocore.session.Session()\n"
                       "c = s.full_config\n"
                       "for name in sorted(c['profiles']):\n"
                       "    p = c['profiles'][name]\n"
                       "    for k in sorted(p):\n"
                       "        v = p[k]\n"
                       "        if isinstance(v, str):\n"
                       "            print('%s|%s|%s' % (name, k, v.replace('\\n', '\\\\n')))\n"
                       "for k, v in sorted(c.get('services local', {}).get('dynamodb', {}).items()):\n"
                       "    print('services:local|%s|%s' % (k, v))\n");
  argv[1] = script;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_skip ("botocore is not usable");
      return;
    }

  shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);

  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 8);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autofree char *value = NULL;

      if (*lines[i] == '\0')
        continue;
      parts = g_strsplit (lines[i], "|", 3);
      g_assert_cmpuint (g_strv_length (parts), ==, 3);
      if (g_str_equal (parts[0], "services:local"))
        continue;
      {
        g_auto(GStrv) pieces = g_strsplit (parts[2], "\\n", -1);
        value = g_strjoinv ("\n", pieces);
      }
      g_test_message ("botocore: [%s] %s = %s", parts[0], parts[1], value);
      g_assert_cmpstr (dyn_shared_config_get_value (shared, parts[0], parts[1]), ==, value);
    }
  g_assert_nonnull (strstr (out, "services:local|endpoint_url|http://localhost:8000"));
}

/* [profile ""] names no profile that can be chosen (an empty profile option
 * means "none given", i.e. AWS_PROFILE or default): it is neither listed nor
 * found, and choosing "" resolves default as before. Found by
 * tests/fuzz-aws-config: the listed "" resolved as the default profile, with
 * its keys. */
static void
test_empty_profile_name (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(DynSharedConfig) shared = NULL;
  g_autoptr(GPtrArray) infos = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynProfile) profile = NULL;
  DynResolveOptions options = { .profile = "" };

  write_config (f,
                "[profile \"\"]\n"
                "region = us-east-1\n"
                "[default]\n"
                "region = eu-west-1\n"
                "aws_access_key_id = AKIA\n"
                "aws_secret_access_key = " SECRET "\n"
                "[profile \" \"]\n"
                "region = ap-south-1\n"
                "aws_access_key_id = AKIA2\n"
                "aws_secret_access_key = " SECRET2 "\n");

  shared = dyn_shared_config_load (&error);
  g_assert_no_error (error);
  g_assert_false (dyn_shared_config_has_profile (shared, ""));
  g_assert_null (dyn_shared_config_get_value (shared, "", "region"));
  infos = dyn_shared_config_list_profiles (shared);
  g_assert_cmpuint (infos->len, ==, 2);
  g_assert_cmpstr (((DynProfileInfo *) g_ptr_array_index (infos, 0))->name, ==, "default");
  /* A name of blanks is a name. */
  g_assert_cmpstr (((DynProfileInfo *) g_ptr_array_index (infos, 1))->name, ==, " ");

  profile = dyn_profile_resolve (shared, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, "default");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "eu-west-1");
  g_clear_pointer (&profile, dyn_profile_unref);

  options.profile = " ";
  profile = dyn_profile_resolve (shared, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (dyn_profile_get_name (profile), ==, " ");
  g_assert_cmpstr (dyn_profile_get_region (profile), ==, "ap-south-1");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/dyn/credentials/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("new-destroy", test_new_destroy);
  ADD ("default-and-named-profile", test_default_profile);
  ADD ("profile-forms", test_profile_forms);
  ADD ("env-precedence", test_env_precedence);
  ADD ("file-env-vars", test_file_env_vars);
  ADD ("endpoint", test_endpoint);
  ADD ("region", test_region);
  ADD ("missing-profile", test_missing_profile);
  ADD ("no-credentials", test_no_credentials);
  ADD ("process-success", test_process_success);
  ADD ("process-refresh", test_process_refresh);
  ADD ("process-failures", test_process_failures);
  ADD ("process-cancel", test_process_cancel);
  ADD ("custom-provider", test_custom_provider);
  ADD ("parser", test_parser);
  ADD ("malformed", test_malformed);
  g_test_add ("/dyn/credentials/malformed/de", Fixture, "de", fixture_setup, test_malformed_translated,
              fixture_teardown);
  g_test_add ("/dyn/credentials/malformed/tr", Fixture, "tr", fixture_setup, test_malformed_translated,
              fixture_teardown);
  ADD ("list-profiles", test_list_profiles);
  ADD ("empty-profile-name", test_empty_profile_name);
  ADD ("botocore-agrees", test_botocore_agrees);
#undef ADD

  return g_test_run ();
}
