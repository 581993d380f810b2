/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-client.h"
#include "dyn-error.h"
#include "dyn-http.h"
#include "dyn-sigv4.h"
#include "dyn-signin-private.h"
#include "dyn-sts-private.h"

/*
 * The STS Query API as botocore speaks it: POST / with the form-encoded
 * Action, Version=2011-06-15 and the parameters (encoded like Python's
 * urlencode: unreserved characters as they are, a space as '+', the rest as
 * %XX), Content-Type application/x-www-form-urlencoded; charset=utf-8,
 * signed with SigV4 for service "sts" (the session token signed and sent as
 * X-Amz-Security-Token) or not at all (AssumeRoleWithWebIdentity). Answers
 * are XML: <ActionResponse><ActionResult>…</ActionResult></ActionResponse>,
 * or <ErrorResponse><Error><Code/><Message/></Error></ErrorResponse>.
 * Throttling, 5xx and transport errors are tried again as botocore's
 * standard retry mode does: 3 attempts in all, full-jitter backoff of up to
 * 1 s, 2 s, … (at most 20 s).
 */

#define STS_VERSION       "2011-06-15"
#define STS_CONTENT_TYPE  "application/x-www-form-urlencoded; charset=utf-8"
#define STS_MAX_ATTEMPTS  3
#define STS_BASE_DELAY_MS 1000
#define STS_MAX_DELAY_MS  20000

/* ------------------------------------------------------------------------ */
/* The endpoint                                                               */

/* Where sts_regional_endpoints = legacy sends a client to the global endpoint (botocore's list). */
static const char * const legacy_global_regions[] = {
  "ap-northeast-1", "ap-south-1", "ap-southeast-1", "ap-southeast-2", "aws-global",
  "ca-central-1", "eu-central-1", "eu-north-1", "eu-west-1", "eu-west-2", "eu-west-3",
  "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2",
};

static const char *
nonempty_env (const char *name)
{
  const char *value = g_getenv (name);

  return (value != NULL && *value != '\0') ? value : NULL;
}

static gboolean
text_is_true (const char *value)
{
  g_autofree char *copy = NULL;

  if (value == NULL)
    return FALSE;
  copy = g_strstrip (g_strdup (value));
  return g_ascii_strcasecmp (copy, "true") == 0;
}

/* AWS_STS_REGIONAL_ENDPOINTS, else the profile's sts_regional_endpoints, else NULL. */
const char *
_dyn_sts_regional_endpoints_setting (DynSharedConfig *shared,
                                     const char      *profile,
                                     const char     **where)
{
  const char *value;

  if (where != NULL)
    *where = "AWS_STS_REGIONAL_ENDPOINTS";
  if ((value = nonempty_env ("AWS_STS_REGIONAL_ENDPOINTS")) != NULL)
    return value;
  if (where != NULL)
    *where = "sts_regional_endpoints";
  if (shared != NULL && profile != NULL &&
      (value = dyn_shared_config_get_value (shared, profile, "sts_regional_endpoints")) != NULL && *value != '\0')
    return value;
  return NULL;
}

gboolean
_dyn_sts_uses_global_endpoint (DynSharedConfig *shared,
                               const char      *profile,
                               const char      *region)
{
  const char *mode;

  if (region == NULL || *region == '\0' || g_str_equal (region, "aws-global"))
    return TRUE;

  /* The AWS CLI v2 and the current SDKs default to the regional endpoints. */
  mode = _dyn_sts_regional_endpoints_setting (shared, profile, NULL);
  if (mode == NULL || g_ascii_strcasecmp (mode, "legacy") != 0)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (legacy_global_regions); i++)
    if (g_str_equal (region, legacy_global_regions[i]))
      return TRUE;
  return FALSE;
}

char *
dyn_sign_in_sts_endpoint (DynSharedConfig *shared,
                          const char      *profile,
                          const char      *region,
                          char           **source)
{
  const char *value;

  if (source != NULL)
    *source = NULL;

  if (shared != NULL)
    {
      char *configured = dyn_shared_config_dup_service_endpoint (shared, profile != NULL ? profile : "default",
                                                                 "sts", source);
      if (configured != NULL)
        return configured;
    }
  else if (!text_is_true (g_getenv ("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")))
    {
      /* No files: the environment's settings still count. */
      if ((value = nonempty_env ("AWS_ENDPOINT_URL_STS")) != NULL)
        {
          if (source != NULL)
            *source = g_strdup ("AWS_ENDPOINT_URL_STS");
          return g_strdup (value);
        }
      if ((value = nonempty_env ("AWS_ENDPOINT_URL")) != NULL)
        {
          if (source != NULL)
            *source = g_strdup ("AWS_ENDPOINT_URL");
          return g_strdup (value);
        }
    }

  if (_dyn_sts_uses_global_endpoint (shared, profile, region))
    return g_strdup ("https://sts.amazonaws.com");
  if (g_str_has_prefix (region, "cn-"))
    return g_strdup_printf ("https://sts.%s.amazonaws.com.cn", region);
  if (g_str_has_prefix (region, "us-isob-"))
    return g_strdup_printf ("https://sts.%s.sc2s.sgov.gov", region);
  if (g_str_has_prefix (region, "us-iso-"))
    return g_strdup_printf ("https://sts.%s.c2s.ic.gov", region);
  return g_strdup_printf ("https://sts.%s.amazonaws.com", region);
}

/* Frees a text that may be a secret, wiping it first. */
static void
wipe_free (gpointer data)
{
  char *text = data;

  if (text == NULL)
    return;
  memset (text, 0, strlen (text));
  g_free (text);
}

/* ------------------------------------------------------------------------ */
/* Answers                                                                    */

static const struct {
  const char *code;
  DynError    error;
} sts_errors[] = {
  { "ExpiredToken", DYN_ERROR_EXPIRED_CREDENTIALS },
  { "ExpiredTokenException", DYN_ERROR_EXPIRED_CREDENTIALS },
  { "RequestExpired", DYN_ERROR_EXPIRED_CREDENTIALS },
  { "AccessDenied", DYN_ERROR_ACCESS_DENIED },
  { "AccessDeniedException", DYN_ERROR_ACCESS_DENIED },
  { "InvalidClientTokenId", DYN_ERROR_ACCESS_DENIED },
  { "UnrecognizedClientException", DYN_ERROR_ACCESS_DENIED },
  { "SignatureDoesNotMatch", DYN_ERROR_SIGNATURE },
  { "IncompleteSignature", DYN_ERROR_SIGNATURE },
  { "InvalidSignatureException", DYN_ERROR_SIGNATURE },
  { "MissingAuthenticationToken", DYN_ERROR_SIGNATURE },
  { "Throttling", DYN_ERROR_THROTTLED },
  { "ThrottlingException", DYN_ERROR_THROTTLED },
  { "RequestLimitExceeded", DYN_ERROR_THROTTLED },
  { "TooManyRequestsException", DYN_ERROR_THROTTLED },
  { "InternalFailure", DYN_ERROR_SERVER },
  { "InternalServerError", DYN_ERROR_SERVER },
  { "ServiceUnavailable", DYN_ERROR_SERVER },
};

static DynError
error_for_code (const char *code,
                guint       status)
{
  for (guint i = 0; i < G_N_ELEMENTS (sts_errors); i++)
    if (g_str_equal (code, sts_errors[i].code))
      return sts_errors[i].error;
  if (status >= 500)
    return DYN_ERROR_SERVER;
  return DYN_ERROR_FAILED;
}

/* A failure that says nothing but its status (retried: 5xx, 429). */
static GError *
status_error (const char *action,
              guint       status,
              const char *request_id)
{
  /* Translators: %s is an STS action, %u an HTTP status */
  g_autofree char *message = g_strdup_printf (_("STS answered %s with HTTP status %u"), action, status);

  return dyn_error_new_service (status == 429 ? DYN_ERROR_THROTTLED : DYN_ERROR_SERVER, NULL, message,
                                request_id, status, NULL);
}

typedef struct {
  char       *response_name;   /* "AssumeRoleResponse" */
  char       *result_name;     /* "AssumeRoleResult" */
  GPtrArray  *stack;           /* (element-type utf8) open elements, local names */
  GArray     *had_child;       /* (element-type gboolean) per open element */
  GString    *text;
  gboolean    root_seen;
  gboolean    is_error;
  gboolean    found_result;
  int         result_depth;    /* depth of the open <…Result>, or -1 */
  int         error_depth;     /* depth of the open <Error>, or -1 */
  GHashTable *table;
  char       *code;
  char       *message;
  char       *request_id;
} Parse;

static const char *
local_name (const char *name)
{
  const char *colon = strrchr (name, ':');

  return colon != NULL ? colon + 1 : name;
}

static gboolean
is_credentials_member (const char *name)
{
  return g_str_equal (name, "AccessKeyId") || g_str_equal (name, "SecretAccessKey") ||
         g_str_equal (name, "SessionToken") || g_str_equal (name, "Expiration");
}

static void
parse_start_cb (GMarkupParseContext  *context,
                const char           *element_name,
                const char          **attribute_names,
                const char          **attribute_values,
                gpointer              user_data,
                GError              **error)
{
  Parse *p = user_data;
  const char *name = local_name (element_name);
  int depth = (int) p->stack->len;
  gboolean no = FALSE;

  if (depth == 0)
    {
      if (p->root_seen)
        {
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT,
                       /* Translators: %s is an XML element name */
                       _("a second document element <%s>"), name);
          return;
        }
      p->root_seen = TRUE;
      if (g_str_equal (name, "ErrorResponse"))
        p->is_error = TRUE;
      else if (!g_str_equal (name, p->response_name))
        {
          g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_UNKNOWN_ELEMENT,
                       /* Translators: both %s are XML element names */
                       _("<%s> instead of <%s>"), name, p->response_name);
          return;
        }
    }
  else
    g_array_index (p->had_child, gboolean, depth - 1) = TRUE;

  if (depth == 1 && !p->is_error && !p->found_result && g_str_equal (name, p->result_name))
    {
      p->found_result = TRUE;
      p->result_depth = depth;
    }
  if (p->is_error && p->error_depth < 0 && p->code == NULL && g_str_equal (name, "Error"))
    p->error_depth = depth;

  g_ptr_array_add (p->stack, g_strdup (name));
  g_array_append_val (p->had_child, no);
  g_string_truncate (p->text, 0);
}

static void
insert_once (GHashTable *table,
             const char *name,
             const char *value)
{
  if (!g_hash_table_contains (table, name))
    g_hash_table_insert (table, g_strdup (name), g_strdup (value));
}

static void
parse_end_cb (GMarkupParseContext  *context,
              const char           *element_name,
              gpointer              user_data,
              GError              **error)
{
  Parse *p = user_data;
  int depth = (int) p->stack->len - 1;
  g_autofree char *name = g_ptr_array_steal_index (p->stack, depth);
  gboolean leaf = !g_array_index (p->had_child, gboolean, depth);

  g_array_set_size (p->had_child, depth);

  if (leaf)
    {
      const char *value = p->text->str;

      if (p->result_depth >= 0 && depth > p->result_depth)
        {
          const char *parent = g_ptr_array_index (p->stack, depth - 1);

          /* The keys count only where STS puts them, not anywhere in the answer. */
          if (!is_credentials_member (name) || g_str_equal (parent, "Credentials"))
            insert_once (p->table, name, value);
        }
      if (p->error_depth >= 0 && depth == p->error_depth + 1)
        {
          if (g_str_equal (name, "Code") && p->code == NULL)
            p->code = g_strstrip (g_strdup (value));
          else if (g_str_equal (name, "Message") && p->message == NULL)
            p->message = g_strstrip (g_strdup (value));
        }
      if (g_str_equal (name, "RequestId") && p->request_id == NULL)
        p->request_id = g_strstrip (g_strdup (value));
    }

  if (depth == p->result_depth)
    p->result_depth = -1;
  if (depth == p->error_depth)
    p->error_depth = -1;
  g_string_truncate (p->text, 0);
}

static void
parse_text_cb (GMarkupParseContext  *context,
               const char           *text,
               gsize                 text_len,
               gpointer              user_data,
               GError              **error)
{
  Parse *p = user_data;

  if (p->stack->len > 0)
    g_string_append_len (p->text, text, (gssize) text_len);
}

static const GMarkupParser parser = {
  parse_start_cb,
  parse_end_cb,
  parse_text_cb,
  NULL,
  NULL,
};

static void
parse_clear (Parse *p)
{
  g_free (p->response_name);
  g_free (p->result_name);
  g_ptr_array_unref (p->stack);
  g_array_unref (p->had_child);
  g_string_free (p->text, TRUE);
  g_clear_pointer (&p->table, g_hash_table_unref);
  g_free (p->code);
  g_free (p->message);
  g_free (p->request_id);
}

/* What each action must answer. */
static const char * const credentials_fields[] = {
  "AccessKeyId", "SecretAccessKey", "SessionToken", "Expiration", NULL,
};
static const char * const identity_fields[] = { "Account", "Arn", "UserId", NULL };

static const char * const *
required_fields (const char *action)
{
  if (g_str_equal (action, "AssumeRole") || g_str_equal (action, "AssumeRoleWithWebIdentity") ||
      g_str_equal (action, "AssumeRoleWithSAML") || g_str_equal (action, "GetSessionToken") ||
      g_str_equal (action, "GetFederationToken"))
    return credentials_fields;
  if (g_str_equal (action, "GetCallerIdentity"))
    return identity_fields;
  return NULL;
}

GHashTable *
_dyn_sts_parse_response (const char  *action,
                         guint        status,
                         const char  *body,
                         gsize        length,
                         GError     **error)
{
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) xml_error = NULL;
  const char * const *required;
  Parse p = { 0 };
  GHashTable *result = NULL;

  g_return_val_if_fail (action != NULL, NULL);
  g_return_val_if_fail (body != NULL || length == 0, NULL);

  p.response_name = g_strconcat (action, "Response", NULL);
  p.result_name = g_strconcat (action, "Result", NULL);
  p.stack = g_ptr_array_new_with_free_func (g_free);
  p.had_child = g_array_new (FALSE, FALSE, sizeof (gboolean));
  p.text = g_string_new (NULL);
  p.result_depth = -1;
  p.error_depth = -1;
  p.table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, wipe_free);

  context = g_markup_parse_context_new (&parser, G_MARKUP_PREFIX_ERROR_POSITION, &p, NULL);
  if (body == NULL)
    body = "";
  if (!g_markup_parse_context_parse (context, body, (gssize) length, &xml_error) ||
      !g_markup_parse_context_end_parse (context, &xml_error))
    {
      if (status >= 500 || status == 429)
        /* A proxy's or a load balancer's page: worth another try. */
        g_propagate_error (error, status_error (action, status, NULL));
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                     /* Translators: the first %s is an STS action (AssumeRole), %u an HTTP status, the
                      * last %s what is wrong with the XML */
                     _("The answer of STS to %s (HTTP %u) is no STS answer: %s"),
                     action, status, xml_error->message);
      goto out;
    }

  if (p.is_error)
    {
      if (p.code == NULL || *p.code == '\0')
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: %s is an STS action; <Error> and <Code> are XML elements */
                       _("STS refused %s with an <Error> that has no <Code>"), action);
          goto out;
        }
      g_propagate_error (error, dyn_error_new_service (error_for_code (p.code, status), p.code, p.message,
                                                       p.request_id, status, NULL));
      goto out;
    }

  if (status < 200 || status >= 300)
    {
      if (status >= 500 || status == 429)
        g_propagate_error (error, status_error (action, status, p.request_id));
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                     /* Translators: %s is an STS action, %u an HTTP status */
                     _("STS answered %s with HTTP status %u but without an error"), action, status);
      goto out;
    }

  if (!p.found_result)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: the first %s is an STS action, the second an XML element (<AssumeRoleResult>) */
                   _("The answer of STS to %s has no <%s>"), action, p.result_name);
      goto out;
    }

  if ((required = required_fields (action)) != NULL)
    {
      for (guint i = 0; required[i] != NULL; i++)
        {
          const char *value = g_hash_table_lookup (p.table, required[i]);

          if (value == NULL || *value == '\0')
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                           /* Translators: the first %s is an STS action, the second an XML element (<Expiration>) */
                           _("The answer of STS to %s has no <%s>"), action, required[i]);
              goto out;
            }
        }
      if (required == credentials_fields)
        {
          g_autoptr(GDateTime) expiration = NULL;
          g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
          g_autofree char *text = g_strstrip (g_strdup (g_hash_table_lookup (p.table, "Expiration")));

          expiration = g_date_time_new_from_iso8601 (text, utc);
          if (expiration == NULL)
            {
              g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                           /* Translators: %s is an STS action; <Expiration> is an XML element */
                           _("The answer of STS to %s has an <Expiration> that is not a time"), action);
              goto out;
            }
        }
    }

  result = g_steal_pointer (&p.table);

out:
  parse_clear (&p);
  return result;
}

/* The Expiration of a parsed answer (validated by _dyn_sts_parse_response()). */
GDateTime *
_dyn_sts_result_expiration (GHashTable *result)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autofree char *text = g_strstrip (g_strdup (g_hash_table_lookup (result, "Expiration")));

  return g_date_time_new_from_iso8601 (text, utc);
}

DynCredentials *
_dyn_sts_result_credentials (GHashTable *result)
{
  g_autoptr(GDateTime) expiration = _dyn_sts_result_expiration (result);

  return dyn_credentials_new (g_hash_table_lookup (result, "AccessKeyId"),
                              g_hash_table_lookup (result, "SecretAccessKey"),
                              g_hash_table_lookup (result, "SessionToken"),
                              expiration);
}

/* ------------------------------------------------------------------------ */
/* The call                                                                   */

typedef struct {
  char           *url;
  char           *host;
  char           *path;
  char           *query;
  char           *region;
  char           *action;
  DynCredentials *credentials;
  GBytes         *body;
  GPtrArray      *secrets;       /* (element-type utf8) texts no message may show */
  DynHttp        *http;
  DynSigv4Signer *signer;
  guint           attempt;
} StsCall;

static void
sts_call_free (StsCall *call)
{
  g_free (call->url);
  g_free (call->host);
  g_free (call->path);
  g_free (call->query);
  g_free (call->region);
  g_free (call->action);
  g_clear_pointer (&call->credentials, dyn_credentials_unref);
  g_clear_pointer (&call->body, g_bytes_unref);
  g_clear_pointer (&call->secrets, g_ptr_array_unref);
  g_clear_object (&call->http);
  g_clear_pointer (&call->signer, dyn_sigv4_signer_free);
  g_free (call);
}

/* Python's urllib.parse.urlencode (quote_plus): what botocore sends. */
static void
append_encoded (GString    *out,
                const char *text)
{
  for (const guchar *c = (const guchar *) text; *c != '\0'; c++)
    {
      if (g_ascii_isalnum (*c) || *c == '-' || *c == '_' || *c == '.' || *c == '~')
        g_string_append_c (out, (char) *c);
      else if (*c == ' ')
        g_string_append_c (out, '+');
      else
        g_string_append_printf (out, "%%%02X", *c);
    }
}

static void
append_param (GString    *out,
              const char *name,
              const char *value)
{
  if (out->len > 0)
    g_string_append_c (out, '&');
  append_encoded (out, name);
  g_string_append_c (out, '=');
  append_encoded (out, value);
}

/* Replaces every secret in @text by "…". */
static char *
scrub_text (const char *text,
            GPtrArray  *secrets)
{
  g_autoptr(GString) out = NULL;

  if (text == NULL)
    return NULL;
  out = g_string_new (text);
  for (guint i = 0; i < secrets->len; i++)
    {
      const char *secret = g_ptr_array_index (secrets, i);

      if (strlen (secret) >= 4)
        g_string_replace (out, secret, "…", 0);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A server that echoes what it got must not bring a secret into a message. */
static GError *
scrub_error (GError    *error,
             GPtrArray *secrets)
{
  const DynErrorDetails *details = dyn_error_get_details (error);
  g_autofree char *message = scrub_text (error->message, secrets);
  GError *clean;

  if (details == NULL)
    {
      if (g_str_equal (message, error->message))
        return error;
      clean = g_error_new_literal (error->domain, error->code, message);
    }
  else
    {
      g_autofree char *detail_message = scrub_text (details->message, secrets);
      g_autofree char *code = scrub_text (details->aws_code, secrets);

      if (g_str_equal (message, error->message) && g_strcmp0 (detail_message, details->message) == 0 &&
          g_strcmp0 (code, details->aws_code) == 0)
        return error;
      clean = dyn_error_new_service (error->code, code, detail_message, details->request_id,
                                     details->http_status, NULL);
      g_free (clean->message);
      clean->message = g_strdup (message);
    }
  g_error_free (error);
  return clean;
}

static void attempt (GTask *task);

static void
slept_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!_dyn_sign_in_sleep_finish (result, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  attempt (task);
}

/* Takes the task's reference and @error. */
static void
fail_or_retry (GTask  *task,
               GError *error)
{
  StsCall *call = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  guint64 ceiling;
  guint delay;

  error = scrub_error (error, call->secrets);

  if (!dyn_error_is_retryable (error) || call->attempt >= STS_MAX_ATTEMPTS ||
      g_cancellable_is_cancelled (cancellable))
    {
      if (call->attempt > 1 && dyn_error_is_retryable (error))
        /* Translators: the start of an error message; what went wrong follows */
        g_prefix_error (&error, g_dngettext (GETTEXT_PACKAGE, "After %u attempt: ", "After %u attempts: ",
                                             call->attempt),
                        call->attempt);
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  ceiling = MIN ((guint64) STS_MAX_DELAY_MS, (guint64) STS_BASE_DELAY_MS << MIN (call->attempt - 1, 10u));
  delay = (guint) g_random_int_range (0, (gint32) ceiling + 1);
  g_debug ("STS %s attempt %u failed (%s); retrying in %u ms", call->action, call->attempt, error->message, delay);
  g_error_free (error);

  _dyn_sign_in_sleep_async (delay, cancellable, slept_cb, task);
}

static void
post_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  StsCall *call = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  GError *error = NULL;
  GHashTable *table;
  gconstpointer data;
  gsize length;

  response = dyn_http_post_finish (DYN_HTTP (object), result, &error);
  if (response == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, error);
          g_object_unref (task);
          return;
        }
      /* Translators: %s is an STS action; what went wrong follows */
      g_prefix_error (&error, _("STS %s: "), call->action);
      fail_or_retry (task, error);
      return;
    }

  data = g_bytes_get_data (response->body, &length);
  table = _dyn_sts_parse_response (call->action, response->status, data, length, &error);
  if (table == NULL)
    {
      fail_or_retry (task, error);
      return;
    }

  g_debug ("STS %s answered after %u attempt(s)", call->action, call->attempt);
  g_task_return_pointer (task, table, (GDestroyNotify) g_hash_table_unref);
  g_object_unref (task);
}

static void
attempt (GTask *task)
{
  StsCall *call = g_task_get_task_data (task);
  g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func (wipe_free);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  call->attempt++;
  g_ptr_array_add (headers, g_strdup ("Content-Type: " STS_CONTENT_TYPE));

  if (call->credentials != NULL)
    {
      DynSigv4Credentials creds = {
        call->credentials->access_key_id,
        call->credentials->secret_access_key,
        call->credentials->session_token,
      };
      DynSigv4Header sign_headers[] = {
        { "Content-Type", STS_CONTENT_TYPE },
        { "Host", call->host },
      };
      DynSigv4Request request = {
        "POST", call->path, call->query, sign_headers, G_N_ELEMENTS (sign_headers),
        g_bytes_get_data (call->body, NULL), g_bytes_get_size (call->body),
      };
      g_autoptr(DynSigv4Signature) signature = NULL;

      signature = dyn_sigv4_signer_sign (call->signer, &creds, call->region, "sts",
                                         g_get_real_time () / G_USEC_PER_SEC, DYN_SIGV4_NORMALIZE_PATH, &request);
      g_ptr_array_add (headers, g_strconcat ("Host: ", call->host, NULL));
      g_ptr_array_add (headers, g_strconcat ("X-Amz-Date: ", signature->amz_date, NULL));
      if (creds.session_token != NULL)
        g_ptr_array_add (headers, g_strconcat ("X-Amz-Security-Token: ", creds.session_token, NULL));
      g_ptr_array_add (headers, g_strconcat ("Authorization: ", signature->authorization, NULL));
    }
  g_ptr_array_add (headers, NULL);

  dyn_http_post_async (call->http, call->url, (const char * const *) headers->pdata, call->body,
                       g_task_get_cancellable (task), post_cb, task);
}

void
_dyn_sts_call_async (const char          *endpoint,
                     const char          *region,
                     DynCredentials      *credentials,
                     const char          *action,
                     const char * const  *params,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task;
  StsCall *call;
  g_autoptr(GString) form = g_string_new (NULL);
  g_autoptr(GUri) uri = NULL;
  GError *error = NULL;

  g_return_if_fail (endpoint != NULL);
  g_return_if_fail (action != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, _dyn_sts_call_async);

  call = g_new0 (StsCall, 1);
  call->url = g_strdup (endpoint);
  call->region = g_strdup (region != NULL && *region != '\0' ? region : "us-east-1");
  call->action = g_strdup (action);
  call->credentials = credentials != NULL ? dyn_credentials_ref (credentials) : NULL;
  call->secrets = g_ptr_array_new_with_free_func (wipe_free);
  g_task_set_task_data (task, call, (GDestroyNotify) sts_call_free);

  if (credentials != NULL)
    {
      g_ptr_array_add (call->secrets, g_strdup (credentials->secret_access_key));
      if (credentials->session_token != NULL)
        g_ptr_array_add (call->secrets, g_strdup (credentials->session_token));
    }

  append_param (form, "Action", action);
  append_param (form, "Version", STS_VERSION);
  for (guint i = 0; params != NULL && params[i] != NULL && params[i + 1] != NULL; i += 2)
    {
      append_param (form, params[i], params[i + 1]);
      if (g_str_equal (params[i], "WebIdentityToken"))
        g_ptr_array_add (call->secrets, g_strdup (params[i + 1]));
    }
  call->body = g_bytes_new (form->str, form->len);
  memset (form->str, 0, form->len);

  /* Translators: what a URL is, for “Cannot use %s: …” */
  if (!_dyn_sign_in_check_endpoint (endpoint, _("the STS endpoint"), &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  uri = g_uri_parse (endpoint, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  call->host = dyn_sigv4_host_from_url (endpoint);
  if (uri == NULL || call->host == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CONFIG,
                               /* Translators: %s is what was given as the STS endpoint */
                               _("The STS endpoint %s is not a URL"), endpoint);
      g_object_unref (task);
      return;
    }
  call->path = g_strdup (*g_uri_get_path (uri) != '\0' ? g_uri_get_path (uri) : "/");
  call->query = g_strdup (g_uri_get_query (uri));

  /* A new one for the main context of this call: dyn_credentials_provider_get() runs fetches in its own. */
  call->http = dyn_http_new ();
  call->signer = dyn_sigv4_signer_new ();

  attempt (task);
}

GHashTable *
_dyn_sts_call_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _dyn_sts_call_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
