/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sigv4"

#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "dyn-sigv4.h"
#include "dyn-test-util.h"

#define N_DIFFERENTIAL 240

/* ---- reference files ---------------------------------------------------- */

static char *
reference_dir (void)
{
  const char *env = g_getenv ("DYN_REFERENCE_DIR");
  const char *root = g_getenv ("DYN_SOURCE_ROOT");
  char *dir;

  if (env != NULL && g_file_test (env, G_FILE_TEST_IS_DIR))
    return g_canonicalize_filename (env, NULL);

  if (root == NULL)
    root = g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : ".";
  dir = g_build_filename (root, "..", "shared", "reference", NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      char *up = g_build_filename (root, "..", "..", "shared", "reference", NULL);

      g_free (dir);
      dir = up;
    }
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      char *canon = g_canonicalize_filename (dir, NULL);

      g_free (dir);
      return canon;
    }

  g_free (dir);
  return NULL;
}

static char *
read_file (const char *dir,
           const char *name,
           gsize      *out_len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, out_len, &error);
  g_assert_no_error (error);

  return contents;
}

/* A request parsed from a suite's request.txt. */
typedef struct {
  char   *method;
  char   *path;
  char   *query;
  GArray *headers;   /* DynSigv4Header, strings owned */
  char   *body;
  gsize   body_len;
} ParsedRequest;

static void
parsed_request_free (ParsedRequest *req)
{
  for (guint i = 0; i < req->headers->len; i++)
    {
      DynSigv4Header *h = &g_array_index (req->headers, DynSigv4Header, i);

      g_free ((char *) h->name);
      g_free ((char *) h->value);
    }
  g_array_unref (req->headers);
  g_free (req->method);
  g_free (req->path);
  g_free (req->query);
  g_free (req->body);
  g_free (req);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ParsedRequest, parsed_request_free)

/* request.txt: the request line, header lines ending in "\n" (continuation
 * lines start with whitespace), then optionally an empty line and the body. */
static ParsedRequest *
parse_request (const char *text,
               gsize       len)
{
  ParsedRequest *req = g_new0 (ParsedRequest, 1);
  const char *sep = g_strstr_len (text, len, "\n\n");
  g_autofree char *head = NULL;
  g_auto(GStrv) lines = NULL;
  const char *line, *sp, *http;
  g_autofree char *target = NULL;
  char *q;

  if (sep != NULL)
    {
      head = g_strndup (text, sep - text);
      req->body_len = len - (sep + 2 - text);
      req->body = g_memdup2 (sep + 2, req->body_len + 1);
      req->body[req->body_len] = '\0';
    }
  else
    head = g_strndup (text, len);

  lines = g_strsplit (head, "\n", -1);
  line = lines[0];
  sp = strchr (line, ' ');
  g_assert_nonnull (sp);
  http = g_strrstr (line, " HTTP/1.1");
  g_assert_nonnull (http);
  req->method = g_strndup (line, sp - line);
  target = g_strndup (sp + 1, http - sp - 1);
  q = strchr (target, '?');
  if (q != NULL)
    {
      *q = '\0';
      req->query = g_strdup (q + 1);
    }
  req->path = g_strdup (target);

  req->headers = g_array_new (FALSE, FALSE, sizeof (DynSigv4Header));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      const char *l = lines[i];
      const char *colon;
      DynSigv4Header h;

      if (l[0] == '\0')
        continue;

      if ((l[0] == ' ' || l[0] == '\t') && req->headers->len > 0)
        {
          /* An obs-fold continuation line: keep it raw, the signer folds it. */
          DynSigv4Header *prev = &g_array_index (req->headers, DynSigv4Header,
                                                 req->headers->len - 1);
          char *joined = g_strconcat (prev->value, "\n", l, NULL);

          g_free ((char *) prev->value);
          prev->value = joined;
          continue;
        }

      colon = strchr (l, ':');
      g_assert_nonnull (colon);
      h.name = g_strndup (l, colon - l);
      h.value = g_strdup (colon + 1);
      g_array_append_val (req->headers, h);
    }

  return req;
}

static void
assert_file_equals (const char *dir,
                    const char *name,
                    const char *actual)
{
  gsize len;
  g_autofree char *expected = read_file (dir, name, &len);

  g_assert_cmpuint (strlen (actual), ==, len);
  g_assert_cmpstr (actual, ==, expected);
}

static JsonObject *
read_context (const char *dir,
              JsonParser *parser)
{
  g_autofree char *path = g_build_filename (dir, "context.json", NULL);
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_node_get_object (json_parser_get_root (parser));
}

static gint64
context_time (JsonObject *ctx)
{
  g_autoptr(GDateTime) dt = g_date_time_new_from_iso8601 (json_object_get_string_member (ctx, "timestamp"), NULL);

  g_assert_nonnull (dt);
  return g_date_time_to_unix (dt);
}

/* Signs the case in @dir as its context says and returns the signature. */
static DynSigv4Signature *
sign_case (DynSigv4Signer *signer,
           const char     *dir)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *ctx = read_context (dir, parser);
  JsonObject *creds = json_object_get_object_member (ctx, "credentials");
  gsize len;
  g_autofree char *text = read_file (dir, "request.txt", &len);
  g_autoptr(ParsedRequest) parsed = parse_request (text, len);
  DynSigv4Flags flags = DYN_SIGV4_FLAGS_NONE;
  DynSigv4Credentials credentials = {
    json_object_get_string_member (creds, "access_key_id"),
    json_object_get_string_member (creds, "secret_access_key"),
    json_object_get_string_member_with_default (creds, "token", NULL),
  };
  DynSigv4Request request = {
    .method = parsed->method,
    .path = parsed->path,
    .query = parsed->query,
    .headers = (const DynSigv4Header *) parsed->headers->data,
    .n_headers = parsed->headers->len,
    .body = parsed->body,
    .body_len = parsed->body_len,
  };

  if (json_object_get_boolean_member_with_default (ctx, "normalize", TRUE))
    flags |= DYN_SIGV4_NORMALIZE_PATH;
  if (json_object_get_boolean_member_with_default (ctx, "sign_body", FALSE))
    flags |= DYN_SIGV4_SIGN_BODY;
  if (json_object_get_boolean_member_with_default (ctx, "omit_session_token", FALSE))
    flags |= DYN_SIGV4_OMIT_SESSION_TOKEN;

  return dyn_sigv4_signer_sign (signer, &credentials,
                                json_object_get_string_member (ctx, "region"),
                                json_object_get_string_member (ctx, "service"),
                                context_time (ctx), flags, &request);
}

static void
test_suite_case (gconstpointer data)
{
  const char *dir = data;
  g_autoptr(DynSigv4Signer) signer = dyn_sigv4_signer_new ();
  g_autoptr(DynSigv4Signature) sig = sign_case (signer, dir);

  g_assert_nonnull (sig);
  assert_file_equals (dir, "header-canonical-request.txt", sig->canonical_request);
  assert_file_equals (dir, "header-string-to-sign.txt", sig->string_to_sign);
  assert_file_equals (dir, "header-signature.txt", sig->signature);
  g_assert_cmpstr (sig->amz_date, ==, "20150830T123600Z");
}

static void
test_dynamodb_case (gconstpointer data)
{
  const char *dir = data;
  g_autoptr(DynSigv4Signer) signer = dyn_sigv4_signer_new ();
  g_autoptr(DynSigv4Signature) sig = sign_case (signer, dir);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *ctx = read_context (dir, parser);
  JsonObject *creds = json_object_get_object_member (ctx, "credentials");
  DynSigv4Credentials credentials = {
    json_object_get_string_member (creds, "access_key_id"),
    json_object_get_string_member (creds, "secret_access_key"),
    json_object_get_string_member_with_default (creds, "token", NULL),
  };
  gsize len, body_len;
  g_autofree char *text = read_file (dir, "request.txt", &len);
  g_autofree char *body = read_file (dir, "body.json", &body_len);
  g_autofree char *authorization = read_file (dir, "authorization.txt", NULL);
  g_autoptr(ParsedRequest) parsed = parse_request (text, len);
  const char *host = NULL, *target = NULL;
  g_auto(GStrv) headers = NULL;
  g_autofree char *auth_line = NULL;

  /* The generic signer. */
  g_assert_nonnull (sig);
  assert_file_equals (dir, "header-canonical-request.txt", sig->canonical_request);
  assert_file_equals (dir, "header-string-to-sign.txt", sig->string_to_sign);
  assert_file_equals (dir, "header-signature.txt", sig->signature);
  g_assert_cmpstr (sig->authorization, ==, authorization);

  /* The DynamoDB convenience. */
  for (guint i = 0; i < parsed->headers->len; i++)
    {
      DynSigv4Header *h = &g_array_index (parsed->headers, DynSigv4Header, i);

      if (g_ascii_strcasecmp (h->name, "Host") == 0)
        host = h->value;
      else if (g_ascii_strcasecmp (h->name, "X-Amz-Target") == 0)
        target = h->value;
    }
  g_assert_nonnull (host);
  g_assert_nonnull (target);
  g_assert_cmpmem (parsed->body, parsed->body_len, body, body_len);

  headers = dyn_sigv4_signer_dynamodb_headers (signer, &credentials,
                                               json_object_get_string_member (ctx, "region"),
                                               host, target, body, body_len,
                                               context_time (ctx));
  g_assert_nonnull (headers);
  g_assert_cmpuint (g_strv_length (headers), ==, credentials.session_token ? 6 : 5);
  g_assert_cmpstr (headers[0], ==, "Host: dynamodb.us-east-1.amazonaws.com");
  g_assert_cmpstr (headers[1], ==, "Content-Type: application/x-amz-json-1.0");
  g_assert_true (g_str_has_prefix (headers[2], "X-Amz-Target: DynamoDB_20120810."));
  g_assert_cmpstr (headers[3], ==, "X-Amz-Date: 20150830T123600Z");
  if (credentials.session_token != NULL)
    g_assert_true (g_str_has_prefix (headers[4], "X-Amz-Security-Token: "));
  auth_line = g_strconcat ("Authorization: ", authorization, NULL);
  g_assert_cmpstr (headers[g_strv_length (headers) - 1], ==, auth_line);
}

static void
test_missing_reference (void)
{
  g_test_skip ("reference directory not found (set DYN_REFERENCE_DIR)");
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
add_reference_tests (const char *ref,
                     GPtrArray  *case_dirs)
{
  static const char * const subdirs[] = { "sigv4-suite", "sigv4-dynamodb" };
  guint n_added = 0;

  for (guint s = 0; ref != NULL && s < G_N_ELEMENTS (subdirs); s++)
    {
      g_autofree char *top = g_build_filename (ref, subdirs[s], NULL);
      g_autoptr(GDir) gdir = g_dir_open (top, 0, NULL);
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (gdir == NULL)
        continue;
      while ((name = g_dir_read_name (gdir)) != NULL)
        {
          g_autofree char *path = g_build_filename (top, name, NULL);

          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            g_ptr_array_add (names, g_strdup (name));
        }
      g_ptr_array_sort (names, compare_names);

      for (guint i = 0; i < names->len; i++)
        {
          const char *n = g_ptr_array_index (names, i);
          g_autofree char *test_path = g_strdup_printf ("/dyn/sigv4/%s/%s",
                                                        s == 0 ? "suite" : "dynamodb", n);
          char *case_dir = g_build_filename (top, n, NULL);

          /* Owned by case_dirs: GLib drops the data of tests that -p leaves out. */
          g_ptr_array_add (case_dirs, case_dir);
          g_test_add_data_func (test_path, case_dir,
                                s == 0 ? test_suite_case : test_dynamodb_case);
          n_added++;
        }
    }

  if (n_added == 0)
    g_test_add_func ("/dyn/sigv4/suite/missing", test_missing_reference);
}

/* ---- unit cases ---------------------------------------------------------- */

static void
test_new_free (void)
{
  DynSigv4Signer *signer = dyn_sigv4_signer_new ();

  g_assert_nonnull (signer);
  dyn_sigv4_signer_free (signer);
  dyn_sigv4_signer_free (NULL);
  dyn_sigv4_signature_free (NULL);
}

static void
test_amz_date (void)
{
  static const struct { gint64 t; const char *s; } cases[] = {
    { 0, "19700101T000000Z" },
    { 1440938160, "20150830T123600Z" },
    { 951782400, "20000229T000000Z" },
    { 1456790399, "20160229T235959Z" },
    { 2147483647, "20380119T031407Z" },
    { 2147483648, "20380119T031408Z" },
    { 4102444799, "20991231T235959Z" },
    { -1, "19691231T235959Z" },
    { 253402300799, "99991231T235959Z" },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (4711);
  char buf[17];

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      dyn_sigv4_format_amz_date (cases[i].t, buf);
      g_assert_cmpstr (buf, ==, cases[i].s);
    }

  for (guint i = 0; i < 20000; i++)
    {
      gint64 t = (gint64) (g_rand_double (rand) * 253402300799.0);
      g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc (t);
      g_autofree char *expected = g_date_time_format (dt, "%Y%m%dT%H%M%SZ");

      dyn_sigv4_format_amz_date (t, buf);
      g_assert_cmpstr (buf, ==, expected);
    }
}

static void
test_host_from_url (void)
{
  static const struct { const char *url; const char *host; } cases[] = {
    { "https://dynamodb.us-east-1.amazonaws.com", "dynamodb.us-east-1.amazonaws.com" },
    { "https://dynamodb.us-east-1.amazonaws.com/", "dynamodb.us-east-1.amazonaws.com" },
    { "https://dynamodb.us-east-1.amazonaws.com:443", "dynamodb.us-east-1.amazonaws.com" },
    { "http://dynamodb.us-east-1.amazonaws.com:443", "dynamodb.us-east-1.amazonaws.com:443" },
    { "https://example.com:80", "example.com:80" },
    { "http://localhost:8000", "localhost:8000" },
    { "http://LocalHost:8000/", "localhost:8000" },
    { "http://127.0.0.1:4566", "127.0.0.1:4566" },
    { "http://127.0.0.1:80", "127.0.0.1" },
    { "http://[::1]:8000", "[::1]:8000" },
    { "http://[::1]", "[::1]" },
    { "http://user:pw@example.com:8443/x", "example.com:8443" },
    { "localhost:8000", NULL },
    { "not a url", NULL },
    { "file:///tmp/x", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *host = dyn_sigv4_host_from_url (cases[i].url);

      g_assert_cmpstr (host, ==, cases[i].host);
    }
}

static DynSigv4Signature *
sign_simple (DynSigv4Signer *signer,
             const char     *secret,
             const char     *region,
             gint64          t)
{
  DynSigv4Credentials creds = { "AKIDEXAMPLE", secret, NULL };
  DynSigv4Header headers[] = { { "Host", "example.amazonaws.com" } };
  DynSigv4Request request = { "GET", "/", NULL, headers, 1, NULL, 0 };

  return dyn_sigv4_signer_sign (signer, &creds, region, "service", t,
                                DYN_SIGV4_NORMALIZE_PATH, &request);
}

/* One signer reused across more keys than it caches must give the same
 * signatures as fresh signers. */
static void
test_key_cache (void)
{
  static const char * const secrets[] = { "secret-a", "secret-b", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
  static const char * const regions[] = { "us-east-1", "eu-west-1", "ap-south-1" };
  static const gint64 times[] = { 1440938160, 1440938160 + 86400, 1700000000 };
  g_autoptr(DynSigv4Signer) shared = dyn_sigv4_signer_new ();

  for (guint round = 0; round < 3; round++)
    for (guint s = 0; s < G_N_ELEMENTS (secrets); s++)
      for (guint r = 0; r < G_N_ELEMENTS (regions); r++)
        for (guint t = 0; t < G_N_ELEMENTS (times); t++)
          {
            g_autoptr(DynSigv4Signer) fresh = dyn_sigv4_signer_new ();
            g_autoptr(DynSigv4Signature) a = sign_simple (shared, secrets[s], regions[r], times[t]);
            g_autoptr(DynSigv4Signature) b = sign_simple (fresh, secrets[s], regions[r], times[t]);

            g_assert_cmpstr (a->authorization, ==, b->authorization);
          }

  /* The suite's get-vanilla signature, from a signer that has seen others. */
  {
    g_autoptr(DynSigv4Signature) sig = sign_simple (shared, secrets[2], "us-east-1", 1440938160);

    g_assert_cmpstr (sig->signature, ==,
                     "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  }
}

static void
test_skipped_headers (void)
{
  g_autoptr(DynSigv4Signer) signer = dyn_sigv4_signer_new ();
  DynSigv4Credentials creds = { "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", NULL };
  DynSigv4Header headers[] = {
    { "User-Agent", "dynoscope/0.1" },
    { "Host", "example.amazonaws.com" },
    { "Authorization", "stale" },
    { "X-Amz-Date", "19990101T000000Z" },
    { "Expect", "100-continue" },
    { "X-Amzn-Trace-Id", "Root=1" },
  };
  DynSigv4Request request = { "GET", "", "", headers, G_N_ELEMENTS (headers), NULL, 0 };
  g_autoptr(DynSigv4Signature) sig = dyn_sigv4_signer_sign (signer, &creds, "us-east-1", "service",
                                                            1440938160, DYN_SIGV4_NORMALIZE_PATH,
                                                            &request);

  /* Equal to the suite's get-vanilla. */
  g_assert_cmpstr (sig->canonical_request, ==,
                   "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                   "host;x-amz-date\n"
                   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  g_assert_cmpstr (sig->signature, ==,
                   "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
  g_assert_null (sig->content_sha256);
}

/* ---- differential test against botocore ---------------------------------- */

static const char * const operations[] = {
  "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan",
  "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems",
  "DescribeTable", "ListTables", "CreateTable", "DeleteTable", "DescribeLimits",
  "ExecuteStatement", "DescribeTimeToLive", "UpdateTimeToLive",
};

static const char * const regions[] = {
  "us-east-1", "us-west-2", "eu-central-1", "eu-west-1", "ap-southeast-2",
  "ap-northeast-1", "sa-east-1", "us-gov-west-1", "cn-north-1", "il-central-1",
  "ddblocal", "localhost",
};

/* "%s" is replaced by the region. */
static const char * const endpoints[] = {
  "https://dynamodb.%s.amazonaws.com",
  "https://dynamodb.%s.amazonaws.com:443",
  "https://dynamodb.%s.amazonaws.com/",
  "http://localhost:8000",
  "http://LocalHost:8000",
  "http://127.0.0.1:4566",
  "http://127.0.0.1:8000/",
  "http://127.0.0.1:80",
  "http://[::1]:8000",
  "https://alternator.example.org:8043",
  "http://dynalite.local:4567",
  "https://DynamoDB.%s.AmazonAWS.com",
};

static const gunichar text_pool[] = {
  'a', 'b', 'z', 'A', 'Q', '0', '7', ' ', ' ', '#', ':', '-', '_', '.', '/', '+', '=',
  '"', '\\', '\n', '\t', '\r', 0x01, 0x1f, 0x7f,
  0xe9, 0xdf, 0xfc, 0x11f, 0x15f, 0x130, 0x131,     /* é ß ü ğ ş İ ı */
  0x2603, 0x20ac, 0x2028, 0x4e2d, 0x6587, 0xfeff,   /* ☃ € LS 中 文 BOM */
  0x1f600, 0x1f4a9, 0x10348,                        /* astral */
};

static char *
random_text (GRand *rand,
             guint  max_len)
{
  GString *s = g_string_new (NULL);
  guint n = g_rand_int_range (rand, 0, max_len + 1);

  for (guint i = 0; i < n; i++)
    g_string_append_unichar (s, text_pool[g_rand_int_range (rand, 0, G_N_ELEMENTS (text_pool))]);

  return g_string_free (s, FALSE);
}

static char *
random_token (GRand      *rand,
              const char *alphabet,
              guint       min_len,
              guint       max_len)
{
  guint n = g_rand_int_range (rand, min_len, max_len + 1);
  gsize k = strlen (alphabet);
  char *s = g_malloc (n + 1);

  for (guint i = 0; i < n; i++)
    s[i] = alphabet[g_rand_int_range (rand, 0, k)];
  s[n] = '\0';

  return s;
}

static void
add_random_value (JsonBuilder *b,
                  GRand       *rand,
                  guint        depth)
{
  int kind = g_rand_int_range (rand, 0, depth > 2 ? 4 : 6);
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  switch (kind)
    {
    case 0:
    case 1:
      text = random_text (rand, 24);
      json_builder_set_member_name (b, "S");
      json_builder_add_string_value (b, text);
      break;
    case 2:
      /* Number text as DynamoDB sends it: a string, never a double. */
      text = g_strdup_printf ("%s%u.%u", g_rand_boolean (rand) ? "-" : "",
                              g_rand_int (rand), g_rand_int_range (rand, 0, 1000));
      json_builder_set_member_name (b, "N");
      json_builder_add_string_value (b, text);
      break;
    case 3:
      json_builder_set_member_name (b, "BOOL");
      json_builder_add_boolean_value (b, g_rand_boolean (rand));
      break;
    case 4:
      json_builder_set_member_name (b, "M");
      json_builder_begin_object (b);
      for (int i = g_rand_int_range (rand, 0, 4); i > 0; i--)
        {
          g_autofree char *key = random_text (rand, 8);

          json_builder_set_member_name (b, key);
          add_random_value (b, rand, depth + 1);
        }
      json_builder_end_object (b);
      break;
    default:
      json_builder_set_member_name (b, "L");
      json_builder_begin_array (b);
      for (int i = g_rand_int_range (rand, 0, 4); i > 0; i--)
        add_random_value (b, rand, depth + 1);
      json_builder_end_array (b);
      break;
    }
  json_builder_end_object (b);
}

static char *
random_body (GRand      *rand,
             const char *op,
             gsize      *out_len)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *table = random_token (rand, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", 3, 40);
  int shape = g_rand_int_range (rand, 0, 10);

  if (shape == 0 || g_str_equal (op, "DescribeLimits"))
    {
      /* awsJson: an empty input is sent as {}. */
      *out_len = 2;
      return g_strdup ("{}");
    }
  if (shape == 1)
    {
      /* Hand-written JSON escapes in the body text itself. */
      char *s = g_strdup_printf ("{\"TableName\":\"%s\",\"Key\":{\"PK\":{\"S\":"
                                 "\"caf\\u00e9 \\\"quoted\\\" \\\\ \\/ \\n\\t \\ud83d\\ude00\"}}}",
                                 table);
      *out_len = strlen (s);
      return s;
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "TableName");
  json_builder_add_string_value (b, table);
  if (g_str_equal (op, "Query") || g_str_equal (op, "Scan"))
    {
      g_autofree char *pfx = random_text (rand, 12);

      json_builder_set_member_name (b, "KeyConditionExpression");
      json_builder_add_string_value (b, "#pk = :pk AND begins_with(#sk, :pfx)");
      json_builder_set_member_name (b, "ExpressionAttributeNames");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "#pk");
      json_builder_add_string_value (b, "PK");
      json_builder_set_member_name (b, "#sk");
      json_builder_add_string_value (b, "SK");
      json_builder_end_object (b);
      json_builder_set_member_name (b, "ExpressionAttributeValues");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, ":pk");
      add_random_value (b, rand, 0);
      json_builder_set_member_name (b, ":pfx");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "S");
      json_builder_add_string_value (b, pfx);
      json_builder_end_object (b);
      json_builder_end_object (b);
      json_builder_set_member_name (b, "Limit");
      json_builder_add_int_value (b, g_rand_int_range (rand, 1, 1000));
    }
  else
    {
      json_builder_set_member_name (b, g_str_equal (op, "PutItem") ? "Item" : "Key");
      json_builder_begin_object (b);
      for (int i = g_rand_int_range (rand, 1, 6); i > 0; i--)
        {
          g_autofree char *key = random_text (rand, 10);

          json_builder_set_member_name (b, key);
          add_random_value (b, rand, 0);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, shape == 2);
  return json_generator_to_data (gen, out_len);
}

typedef struct {
  char   *access_key;
  char   *secret_key;
  char   *token;
  char   *region;
  char   *endpoint;
  char   *target;
  char   *body;
  gsize   body_len;
  gint64  time;
} DiffRequest;

static void
diff_request_clear (gpointer data)
{
  DiffRequest *r = data;

  g_free (r->access_key);
  g_free (r->secret_key);
  g_free (r->token);
  g_free (r->region);
  g_free (r->endpoint);
  g_free (r->target);
  g_free (r->body);
}

static gboolean
botocore_available (void)
{
  const char *argv[] = { "/usr/bin/python3", "-c", "import botocore.auth", NULL };
  int status = -1;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE))
    return FALSE;
  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, NULL))
    return FALSE;

  return g_spawn_check_wait_status (status, NULL);
}

static void
test_botocore_differential (void)
{
  static const gint64 edge_times[] = {
    951782400, 951868799,     /* 2000-02-29 */
    1456790399,               /* 2016-02-29 23:59:59 */
    1483228799, 1483228800,   /* new year 2017 */
    2147483647, 2147483648,   /* beyond 32 bits */
    4102444799,               /* 2099-12-31 23:59:59 */
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240901);
  g_autoptr(GArray) reqs = g_array_new (FALSE, TRUE, sizeof (DiffRequest));
  g_autoptr(GString) input = g_string_new (NULL);
  g_autoptr(DynSigv4Signer) signer = dyn_sigv4_signer_new ();
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *oracle = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_tokens = 0, n_ports = 0, n_non_ascii = 0;

  if (!botocore_available ())
    {
      g_test_skip ("/usr/bin/python3 cannot import botocore");
      return;
    }

  g_array_set_clear_func (reqs, diff_request_clear);

  for (guint i = 0; i < N_DIFFERENTIAL; i++)
    {
      DiffRequest r = { 0 };
      const char *op = operations[g_rand_int_range (rand, 0, G_N_ELEMENTS (operations))];
      const char *ep = endpoints[i % G_N_ELEMENTS (endpoints)];
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *b64 = NULL;
      g_autofree char *line = NULL;

      r.access_key = random_token (rand, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 20);
      r.secret_key = random_token (rand, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 40, 40);
      if (g_rand_boolean (rand))
        r.token = random_token (rand, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=", 16, 600);
      r.region = g_strdup (regions[g_rand_int_range (rand, 0, G_N_ELEMENTS (regions))]);
      r.endpoint = strstr (ep, "%s") != NULL ? g_strdup_printf (ep, r.region) : g_strdup (ep);
      r.target = g_strconcat (i % 17 == 5 ? "DynamoDBStreams_20120810." : "DynamoDB_20120810.", op, NULL);
      r.body = random_body (rand, op, &r.body_len);
      if (i < G_N_ELEMENTS (edge_times))
        r.time = edge_times[i];
      else
        r.time = 946684800 + (gint64) (g_rand_double (rand) * (4102444799.0 - 946684800.0));

      n_tokens += r.token != NULL;
      {
        g_autofree char *host = dyn_sigv4_host_from_url (r.endpoint);

        const char *colon = host != NULL ? strrchr (host, ':') : NULL;

        /* A port, not a colon inside an IPv6 literal. */
        if (colon != NULL && (strrchr (host, ']') == NULL || colon > strrchr (host, ']')))
          n_ports++;
      }
      for (gsize k = 0; k < r.body_len; k++)
        if ((guchar) r.body[k] >= 0x80)
          {
            n_non_ascii++;
            break;
          }

      b64 = g_base64_encode ((const guchar *) r.body, r.body_len);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "access_key");
      json_builder_add_string_value (b, r.access_key);
      json_builder_set_member_name (b, "secret_key");
      json_builder_add_string_value (b, r.secret_key);
      json_builder_set_member_name (b, "token");
      if (r.token != NULL)
        json_builder_add_string_value (b, r.token);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "region");
      json_builder_add_string_value (b, r.region);
      json_builder_set_member_name (b, "endpoint");
      json_builder_add_string_value (b, r.endpoint);
      json_builder_set_member_name (b, "target");
      json_builder_add_string_value (b, r.target);
      json_builder_set_member_name (b, "body_b64");
      json_builder_add_string_value (b, b64);
      json_builder_set_member_name (b, "time");
      json_builder_add_int_value (b, r.time);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      line = json_generator_to_data (gen, NULL);
      g_string_append (input, line);
      g_string_append_c (input, '\n');

      g_array_append_val (reqs, r);
    }

  /* The generated set must cover what the differential test is for. */
  g_assert_cmpuint (n_tokens, >=, N_DIFFERENTIAL / 4);
  g_assert_cmpuint (n_ports, >=, N_DIFFERENTIAL / 4);
  g_assert_cmpuint (n_non_ascii, >=, N_DIFFERENTIAL / 4);

  oracle = g_test_build_filename (G_TEST_DIST, "sigv4-oracle.py", NULL);
  if (!g_file_test (oracle, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("sigv4-oracle.py not found (set G_TEST_SRCDIR)");
      return;
    }
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                           G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           "/usr/bin/python3", oracle, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, input->str, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (proc))
    g_error ("sigv4-oracle.py failed: %s", err);

  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, N_DIFFERENTIAL + 1);

  for (guint i = 0; i < N_DIFFERENTIAL; i++)
    {
      DiffRequest *r = &g_array_index (reqs, DiffRequest, i);
      g_autoptr(JsonParser) parser = json_parser_new ();
      DynSigv4Credentials creds = { r->access_key, r->secret_key, r->token };
      g_autofree char *host = dyn_sigv4_host_from_url (r->endpoint);
      DynSigv4Header headers[] = {
        { "Content-Type", "application/x-amz-json-1.0" },
        { "X-Amz-Target", r->target },
        { "Host", host },
      };
      DynSigv4Request request = { "POST", "/", NULL, headers, G_N_ELEMENTS (headers),
                                  r->body, r->body_len };
      g_autoptr(DynSigv4Signature) sig = NULL;
      g_auto(GStrv) sent = NULL;
      JsonObject *expected;
      JsonArray *expected_headers;

      g_assert_nonnull (host);
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      expected = json_node_get_object (json_parser_get_root (parser));

      sig = dyn_sigv4_signer_sign (signer, &creds, r->region, "dynamodb", r->time,
                                   DYN_SIGV4_NORMALIZE_PATH, &request);
      g_assert_cmpstr (sig->canonical_request, ==,
                       json_object_get_string_member (expected, "canonical_request"));
      g_assert_cmpstr (sig->string_to_sign, ==,
                       json_object_get_string_member (expected, "string_to_sign"));
      g_assert_cmpstr (sig->authorization, ==,
                       json_object_get_string_member (expected, "authorization"));

      /* The convenience sends what botocore sends, plus Host. */
      sent = dyn_sigv4_signer_dynamodb_headers (signer, &creds, r->region, host, r->target,
                                                r->body, r->body_len, r->time);
      expected_headers = json_object_get_array_member (expected, "headers");
      g_assert_cmpuint (g_strv_length (sent), ==, json_array_get_length (expected_headers) + 1);
      g_assert_true (g_str_has_prefix (sent[0], "Host: "));
      g_assert_cmpstr (sent[0] + strlen ("Host: "), ==, host);
      for (guint k = 0; k < json_array_get_length (expected_headers); k++)
        g_assert_cmpstr (sent[k + 1], ==, json_array_get_string_element (expected_headers, k));
    }

  g_test_message ("%u requests matched botocore (%u with session token, %u with a port in Host, "
                  "%u with non-ASCII bodies)", N_DIFFERENTIAL, n_tokens, n_ports, n_non_ascii);
}

/* The body hash (x-amz-content-sha256) and the whole HMAC chain, for every
 * padding boundary and for secrets longer than an HMAC block, against GLib's
 * GChecksum and GHmac. */
static void
test_hash_lengths (void)
{
  g_autoptr(DynSigv4Signer) signer = dyn_sigv4_signer_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  guint8 body[1100];

  for (guint i = 0; i < sizeof body; i++)
    body[i] = (guint8) g_rand_int (rand);

  for (guint len = 0; len <= sizeof body; len += len < 300 ? 1 : 97)
    {
      g_autofree char *secret = random_token (rand, "abcdefghijklmnopqrstuvwxyz0123456789/+", 0, len % 150);
      DynSigv4Credentials creds = { "AKID", secret, NULL };
      DynSigv4Header headers[] = { { "Host", "h" } };
      DynSigv4Request request = { "POST", "/", NULL, headers, 1, body, len };
      g_autoptr(DynSigv4Signature) sig = dyn_sigv4_signer_sign (signer, &creds, "r", "s",
                                                                86400 * (gint64) len,
                                                                DYN_SIGV4_SIGN_BODY, &request);
      g_autofree char *expected_body = g_compute_checksum_for_data (G_CHECKSUM_SHA256, body, len);
      g_autofree char *k_secret = g_strconcat ("AWS4", secret, NULL);
      guint8 key[32];
      gsize key_len = sizeof key;
      const char *parts[] = { sig->amz_date, "r", "s", "aws4_request" };
      char date[9];
      GHmac *hmac;

      g_assert_cmpstr (sig->content_sha256, ==, expected_body);
      g_assert_true (g_str_has_suffix (sig->canonical_request, expected_body));

      memcpy (date, sig->amz_date, 8);
      date[8] = '\0';
      parts[0] = date;
      hmac = g_hmac_new (G_CHECKSUM_SHA256, (const guchar *) k_secret, strlen (k_secret));
      for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
        {
          if (p > 0)
            hmac = g_hmac_new (G_CHECKSUM_SHA256, key, sizeof key);
          g_hmac_update (hmac, (const guchar *) parts[p], -1);
          g_hmac_get_digest (hmac, key, &key_len);
          g_hmac_unref (hmac);
        }
      hmac = g_hmac_new (G_CHECKSUM_SHA256, key, sizeof key);
      g_hmac_update (hmac, (const guchar *) sig->string_to_sign, -1);
      g_assert_cmpstr (sig->signature, ==, g_hmac_get_string (hmac));
      g_hmac_unref (hmac);
    }
}

static const char *self_exe;

/* The tests above run with the SHA-NI transform on CPUs that have it; run
 * the hash tests once more with the portable one. */
static void
test_portable_sha256 (void)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GError) error = NULL;

  if (g_getenv ("DYN_SIGV4_PORTABLE_SHA256") != NULL)
    {
      g_test_skip ("already running with the portable SHA-256");
      return;
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_subprocess_launcher_setenv (launcher, "DYN_SIGV4_PORTABLE_SHA256", "1", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, self_exe,
                                      "-p", "/dyn/sigv4/hash-lengths",
                                      "-p", "/dyn/sigv4/suite", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
}

int
main (int argc, char **argv)
{
  g_autofree char *ref = NULL;
  g_autoptr(GPtrArray) case_dirs = g_ptr_array_new_with_free_func (g_free);

  self_exe = argv[0];
  g_test_init (&argc, &argv, NULL);

  ref = reference_dir ();

  g_test_add_func ("/dyn/sigv4/new-free", test_new_free);
  g_test_add_func ("/dyn/sigv4/amz-date", test_amz_date);
  g_test_add_func ("/dyn/sigv4/host-from-url", test_host_from_url);
  g_test_add_func ("/dyn/sigv4/key-cache", test_key_cache);
  g_test_add_func ("/dyn/sigv4/skipped-headers", test_skipped_headers);
  g_test_add_func ("/dyn/sigv4/hash-lengths", test_hash_lengths);
  g_test_add_func ("/dyn/sigv4/portable-sha256", test_portable_sha256);
  add_reference_tests (ref, case_dirs);
  g_test_add_func ("/dyn/sigv4/botocore-differential", test_botocore_differential);

  return g_test_run ();
}
