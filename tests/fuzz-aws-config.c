/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libFuzzer target for the AWS shared files: the ~/.aws/config and
 * ~/.aws/credentials parser (client/aws/dyn-config.c: sections, profiles,
 * continuation lines, indented sub-sections, services and sso-session
 * sections, comments), resolving every profile it lists (region, endpoint,
 * static keys, credential_process split into arguments by
 * dyn-credentials.c; nothing is run), and what a credential_process prints
 * (the JSON reader of dyn-credentials.c). meson builds it in a clang build
 * (tests/meson.build, suite 'fuzz', for fuzz_seconds with the seeds of
 * tests/fuzz-corpus/aws-config); build-aux/run-tests.sh makes that build as
 * _build-fuzz. By hand:
 *
 *   CC=clang meson setup _build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
 *     -Dgui=disabled -Dc_args=-fsanitize=fuzzer-no-link
 *   ninja -C _build-fuzz tests/fuzz-aws-config
 *   mkdir -p _build-fuzz/corpus-aws-config
 *   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
 *     ./_build-fuzz/tests/fuzz-aws-config -max_total_time=60 \
 *     _build-fuzz/corpus-aws-config tests/fuzz-corpus/aws-config
 *
 * (the first corpus directory collects what the run finds; -runs=10000000
 * for a count instead of a time.) Or, without a meson build dir, straight
 * from the sources (-I_build: any configured build dir, for config.h):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I_build -Iclient -Iclient/aws \
 *     $(pkg-config --cflags gio-2.0 json-glib-1.0) \
 *     tests/fuzz-aws-config.c client/aws/dyn-config.c client/aws/dyn-credentials.c client/dyn-error.c \
 *     $(pkg-config --libs gio-2.0 json-glib-1.0) -o fuzz-aws-config
 *
 * The input is the config file, a NUL byte and the credentials file (no NUL:
 * there is no credentials file); the credentials part (no NUL: all of it) is
 * also read as a credential_process's output, and the config part split as a
 * credential_process command line. They are written to a private $HOME in
 * /dev/shm (else the temporary directory), which is removed at exit (a crash
 * leaves it), and read from there as dyn_shared_config_load() reads them;
 * the AWS_* environment is cleared first. Beyond "never crash, never leak" it checks that a file
 * that does not parse fails with a message that names the file and a line
 * it has and says what is wrong in one of the parser's own words (never the
 * line's text, which may be a secret); that every listed profile exists and
 * agrees with dyn_shared_config_get_value(); and that no error of
 * dyn_profile_resolve() or of the process output reader shows a secret key or
 * session token it was given.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "dyn-config.h"
#include "dyn-credentials.h"
#include "dyn-credentials-private.h"
#include "dyn-error.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *home;
static char *aws_dir;
static char *config_path;
static char *credentials_path;

/* What a parse error may say after "FILE line N: " (dyn-config.c, untranslated). */
static const char * const parse_errors[] = {
  "not valid UTF-8 text",
  "expected ']' at the end of the section header",
  "unexpected text after the section header",
  "empty section name",
  "expected a section header such as '[default]' before the first setting",
  "expected 'key = value'",
  "expected 'key = value' in the indented block",
};

static void
remove_home (void)
{
  g_unlink (config_path);
  g_unlink (credentials_path);
  g_rmdir (aws_dir);
  g_rmdir (home);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  static const char * const env_vars[] = {
    "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_PROFILE", "AWS_REGION",
    "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
    "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN",
  };

  /* The parser's own words, not a translation. */
  g_setenv ("LC_ALL", "C", TRUE);
  g_setenv ("LANGUAGE", "C", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (env_vars); i++)
    g_unsetenv (env_vars[i]);
  /* In memory where there is a tmpfs: a disk file system writes back every
   * file written and read here. */
  if (g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) && g_access ("/dev/shm", W_OK) == 0)
    {
      home = g_build_filename ("/dev/shm", "dyn-fuzz-aws-XXXXXX", NULL);
      if (g_mkdtemp (home) == NULL)
        g_clear_pointer (&home, g_free);
    }
  if (home == NULL)
    home = g_dir_make_tmp ("dyn-fuzz-aws-XXXXXX", NULL);
  if (home == NULL)
    abort ();
  aws_dir = g_build_filename (home, ".aws", NULL);
  config_path = g_build_filename (aws_dir, "config", NULL);
  credentials_path = g_build_filename (aws_dir, "credentials", NULL);
  if (g_mkdir (aws_dir, 0700) != 0)
    abort ();
  g_setenv ("HOME", home, TRUE);
  atexit (remove_home);
  return 0;
}

static void
write_all (const char   *path,
           const guint8 *data,
           gsize         len)
{
  /* A new file each time (removed after the run), not a truncated one. */
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

  if (fd < 0)
    abort ();
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        abort ();
      data += n;
      len -= n;
    }
  close (fd);
}

static guint
count_lines (const guint8 *data,
             gsize         len)
{
  guint n = 0;

  for (gsize i = 0; i < len; i++)
    if (data[i] == '\n')
      n++;
  return n + 1;
}

/* "~/.aws/config line 3: expected 'key = value'", and nothing else. */
static void
check_parse_error (const GError *error,
                   guint         config_lines,
                   guint         credentials_lines)
{
  const char *msg = error->message;
  const char *rest;
  guint lines;
  guint64 line;
  char *end;
  gboolean known = FALSE;

  if (error->domain != DYN_ERROR || error->code != DYN_ERROR_CONFIG)
    abort ();
  if (g_str_has_prefix (msg, "~/.aws/config line "))
    {
      rest = msg + strlen ("~/.aws/config line ");
      lines = config_lines;
    }
  else if (g_str_has_prefix (msg, "~/.aws/credentials line "))
    {
      rest = msg + strlen ("~/.aws/credentials line ");
      lines = credentials_lines;
    }
  else
    abort ();
  line = g_ascii_strtoull (rest, &end, 10);
  if (end == rest || line < 1 || line > lines || !g_str_has_prefix (end, ": "))
    abort ();
  for (guint i = 0; i < G_N_ELEMENTS (parse_errors); i++)
    known |= strcmp (end + 2, parse_errors[i]) == 0;
  if (!known)
    abort ();
}

/* A secret of the files may not be in @error unless the message has it for
 * another reason (it is also the profile's name, a file's name, or a word of
 * the message). Only secrets that look like one are checked: long, with a
 * digit. */
static void
check_no_secret (const GError *error,
                 const char   *secret,
                 const char   *profile)
{
  gboolean digit = FALSE;

  if (error == NULL || secret == NULL || strlen (secret) < 16)
    return;
  for (const char *p = secret; *p != '\0'; p++)
    digit |= g_ascii_isdigit (*p);
  if (!digit || strstr (profile, secret) != NULL || strstr (home, secret) != NULL ||
      strstr ("~/.aws/config ~/.aws/credentials", secret) != NULL)
    return;
  if (strstr (error->message, secret) != NULL)
    abort ();
}

static void
check_profile (DynSharedConfig      *shared,
               const DynProfileInfo *info)
{
  static const char * const secret_keys[] = {
    "aws_secret_access_key", "aws_session_token", "aws_security_token",
  };
  DynResolveOptions options = { .profile = info->name };
  g_autoptr(GError) error = NULL;
  g_autoptr(DynProfile) profile = NULL;
  const char *region;

  if (info->name == NULL || !dyn_shared_config_has_profile (shared, info->name))
    abort ();
  region = dyn_shared_config_get_value (shared, info->name, "REGION");
  if (g_strcmp0 (info->region, region != NULL && *region != '\0' ? region : NULL) != 0)
    abort ();
  if (info->has_static_keys != (dyn_shared_config_get_value (shared, info->name, "aws_access_key_id") != NULL &&
                                *dyn_shared_config_get_value (shared, info->name, "aws_access_key_id") != '\0'))
    abort ();

  profile = dyn_profile_resolve (shared, &options, &error);
  if ((profile == NULL) == (error == NULL))
    abort ();
  if (profile != NULL)
    {
      g_autofree char *endpoint = dyn_profile_dup_effective_endpoint_url (profile);
      DynCredentialsProvider *provider = dyn_profile_get_credentials_provider (profile);

      if (g_strcmp0 (dyn_profile_get_name (profile), info->name) != 0 ||
          dyn_profile_get_region (profile) == NULL || dyn_profile_get_region_source (profile) == NULL ||
          endpoint == NULL || provider == NULL ||
          dyn_credentials_provider_get_description (provider) == NULL)
        abort ();
      if (g_strcmp0 (dyn_profile_get_endpoint_url (profile), info->endpoint_url) != 0)
        abort ();
    }
  for (guint i = 0; i < G_N_ELEMENTS (secret_keys); i++)
    check_no_secret (error, dyn_shared_config_get_value (shared, info->name, secret_keys[i]), info->name);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  const guint8 *nul = memchr (data, '\0', size);
  gsize config_len = nul != NULL ? (gsize) (nul - data) : size;
  const guint8 *credentials = nul != NULL ? nul + 1 : NULL;
  gsize credentials_len = nul != NULL ? size - config_len - 1 : 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(DynSharedConfig) shared = NULL;

  write_all (config_path, data, config_len);
  if (credentials != NULL)
    write_all (credentials_path, credentials, credentials_len);
  shared = dyn_shared_config_load_from_files (config_path, credentials != NULL ? credentials_path : NULL,
                                              &error);
  g_unlink (config_path);
  if (credentials != NULL)
    g_unlink (credentials_path);
  if ((shared == NULL) == (error == NULL))
    abort ();
  if (shared == NULL)
    check_parse_error (error, count_lines (data, config_len),
                       credentials != NULL ? count_lines (credentials, credentials_len) : 0);
  else
    {
      g_autoptr(GPtrArray) infos = dyn_shared_config_list_profiles (shared);

      for (guint i = 0; i < infos->len; i++)
        check_profile (shared, g_ptr_array_index (infos, i));

      /* Nothing named: AWS_PROFILE is unset, so "default". */
      {
        g_autoptr(GError) e = NULL;
        g_autoptr(DynProfile) profile = dyn_profile_resolve (shared, NULL, &e);

        if ((profile == NULL) == (e == NULL))
          abort ();
        if (profile != NULL && g_strcmp0 (dyn_profile_get_name (profile), "default") != 0)
          abort ();
      }
    }

  /* The second part (else all of it) as what a credential_process printed. */
  {
    const guint8 *out_data = credentials != NULL ? credentials : data;
    gsize out_len = credentials != NULL ? credentials_len : size;
    g_autoptr(GBytes) out = g_bytes_new (out_data, out_len);
    g_autoptr(GError) e = NULL;
    g_autoptr(DynCredentials) creds = _dyn_credentials_from_process_output ("fuzz", "creds", out, &e);

    if ((creds == NULL) == (e == NULL))
      abort ();
    if (creds != NULL &&
        (creds->access_key_id == NULL || *creds->access_key_id == '\0' ||
         creds->secret_access_key == NULL || *creds->secret_access_key == '\0'))
      abort ();
    if (e != NULL)
      {
        g_autoptr(JsonParser) parser = json_parser_new ();
        JsonNode *root;

        if (e->domain != DYN_ERROR || e->code != DYN_ERROR_CREDENTIALS)
          abort ();
        if (json_parser_load_from_data (parser, (const char *) out_data, out_len, NULL) &&
            (root = json_parser_get_root (parser)) != NULL && JSON_NODE_HOLDS_OBJECT (root))
          {
            JsonObject *object = json_node_get_object (root);
            static const char * const secret_members[] = { "SecretAccessKey", "SessionToken" };

            for (guint i = 0; i < G_N_ELEMENTS (secret_members); i++)
              {
                JsonNode *member = json_object_get_member (object, secret_members[i]);

                if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
                    json_node_get_value_type (member) == G_TYPE_STRING)
                  check_no_secret (e, json_node_get_string (member), "fuzz creds");
              }
          }
      }
  }

  /* The config text as a credential_process command line: split, never run. */
  {
    g_autofree char *command = g_strndup ((const char *) data, config_len);
    g_autoptr(GError) e = NULL;
    g_autoptr(DynCredentialsProvider) provider = dyn_credentials_provider_new_process (command, "fuzz", &e);

    if ((provider == NULL) == (e == NULL))
      abort ();
  }
  return 0;
}
