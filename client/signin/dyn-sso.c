/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "dyn-error.h"
#include "dyn-http.h"
#include "dyn-sso-private.h"

/* IAM Identity Center as the AWS CLI v2 does it: the OIDC device flow (RegisterClient,
 * StartDeviceAuthorization, CreateToken), the refresh of a token with its refresh token, and
 * the portal (GetRoleCredentials, ListAccounts, ListAccountRoles), all JSON over HTTPS; the
 * login; the SSO credentials provider; and the profile builder dyn_sign_in_resolve() calls. */

#define CLIENT_NAME "dynoscope"
#define DEVICE_GRANT "urn:ietf:params:oauth:grant-type:device_code"
#define REFRESH_GRANT "refresh_token"
/* The CLI's defaults: 5 s between polls, 5 s more for every slow_down. */
#define DEFAULT_INTERVAL 5
#define SLOW_DOWN_DELAY 5
#define MAX_PAGES 10000

static GDateTime *
now_utc (void)
{
  /* g_get_real_time, so that the tests' short lifetimes from the server scenario count. */
  gint64 usec = g_get_real_time ();
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return g_date_time_add (seconds, usec % G_USEC_PER_SEC);
}

static GDateTime *
now_plus_seconds (gint64 seconds)
{
  g_autoptr(GDateTime) now = now_utc ();

  return g_date_time_add_seconds (now, (double) seconds);
}

/* Whether @time is less than @margin away (or past). */
static gboolean
expires_within (GDateTime *time,
                GTimeSpan  margin)
{
  g_autoptr(GDateTime) now = now_utc ();

  return time == NULL || g_date_time_difference (time, now) < margin;
}

static char *
token_path (const DynSsoConfig *config)
{
  return dyn_sso_token_cache_path (config->session_name, config->start_url);
}

/* What messages call the sign-in: the profile, else the session, else the start URL. */
static const char *
config_name (const DynSsoConfig *config)
{
  if (config->profile != NULL)
    return config->profile;
  if (config->session_name != NULL)
    return config->session_name;
  return config->start_url;
}

static GError *
expired_error (const DynSsoConfig *config)
{
  if (config->profile != NULL)
    return g_error_new (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                        /* Translators: both %s are the same AWS profile */
                        _("The IAM Identity Center session for profile %s expired; sign in again (dynoscope-cli login --profile %s)"),
                        config->profile, config->profile);
  return g_error_new (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                      /* Translators: %s is an sso-session name or a start URL */
                      _("The IAM Identity Center session %s expired; sign in again"), config_name (config));
}

/* Replaces every occurrence of the secrets in @error's message (a server may echo what it was
 * sent); no message leaves this file with a token in it. */
static void
scrub_error (GError     *error,
             const char *secret,
             ...)
{
  va_list args;

  if (error == NULL)
    return;
  va_start (args, secret);
  for (const char *s = secret; s != NULL; s = va_arg (args, const char *))
    {
      if (*s == '\0' || strstr (error->message, s) == NULL)
        continue;
      g_auto(GStrv) parts = g_strsplit (error->message, s, -1);
      g_free (error->message);
      error->message = g_strjoinv ("…", parts);
    }
  va_end (args);
}

/* ------------------------------------------------------------------------ */
/* The answers                                                                */

static const char *
string_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
has_string (JsonObject *object,
            const char *member,
            gboolean    required)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required;
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         && (!required || *json_node_get_string (node) != '\0');
}

/* A JSON number that is a whole number in [min, max]. */
static gboolean
integer_member (JsonObject *object,
                const char *member,
                gint64      min,
                gint64      max,
                gint64     *out)
{
  JsonNode *node = json_object_get_member (object, member);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (!(d >= (double) min && d <= (double) max) || d != (double) (gint64) d)
        return FALSE;
      *out = (gint64) d;
    }
  else
    return FALSE;
  return *out >= min && *out <= max;
}

static gboolean
has_integer (JsonObject *object,
             const char *member,
             gint64      min,
             gint64      max,
             gboolean    required)
{
  gint64 value;
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return !required;
  return integer_member (object, member, min, max, &value);
}

static gboolean
valid_list (JsonObject         *object,
            const char         *member,
            const char * const *required,
            const char * const *optional)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_OBJECT (element))
        return FALSE;
      for (guint j = 0; required[j] != NULL; j++)
        if (!has_string (json_node_get_object (element), required[j], TRUE))
          return FALSE;
      for (guint j = 0; optional[j] != NULL; j++)
        if (!has_string (json_node_get_object (element), optional[j], FALSE))
          return FALSE;
    }
  return TRUE;
}

/* Whether a successful answer of @operation has what we use, with the right types. */
static gboolean
valid_answer (const char *operation,
              JsonObject *object)
{
  if (g_str_equal (operation, "RegisterClient"))
    return has_string (object, "clientId", TRUE) && has_string (object, "clientSecret", TRUE)
           && has_integer (object, "clientSecretExpiresAt", 0, G_MAXINT32 * G_GINT64_CONSTANT (100), TRUE);
  if (g_str_equal (operation, "StartDeviceAuthorization"))
    return has_string (object, "deviceCode", TRUE) && has_string (object, "userCode", TRUE)
           && has_string (object, "verificationUri", TRUE) && has_string (object, "verificationUriComplete", FALSE)
           && has_integer (object, "expiresIn", 1, G_MAXINT32, TRUE)
           && has_integer (object, "interval", 0, 3600, FALSE);
  if (g_str_equal (operation, "CreateToken"))
    return has_string (object, "accessToken", TRUE) && has_integer (object, "expiresIn", 0, G_MAXINT32, TRUE)
           && has_string (object, "refreshToken", FALSE) && has_string (object, "tokenType", FALSE);
  if (g_str_equal (operation, "GetRoleCredentials"))
    {
      JsonNode *node = json_object_get_member (object, "roleCredentials");
      JsonObject *creds;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        return FALSE;
      creds = json_node_get_object (node);
      /* Milliseconds, up to the year 9999. */
      return has_string (creds, "accessKeyId", TRUE) && has_string (creds, "secretAccessKey", TRUE)
             && has_string (creds, "sessionToken", TRUE)
             && has_integer (creds, "expiration", 0, G_GINT64_CONSTANT (253402300799000), TRUE);
    }
  if (g_str_equal (operation, "ListAccounts"))
    {
      static const char * const required[] = { "accountId", NULL };
      static const char * const optional[] = { "accountName", "emailAddress", NULL };

      return has_string (object, "nextToken", FALSE) && valid_list (object, "accountList", required, optional);
    }
  if (g_str_equal (operation, "ListAccountRoles"))
    {
      static const char * const required[] = { "roleName", NULL };
      static const char * const optional[] = { "accountId", NULL };

      return has_string (object, "nextToken", FALSE) && valid_list (object, "roleList", required, optional);
    }
  return TRUE;
}

/* The OIDC error codes ("authorization_pending") as the SDKs name them. */
static const char *
exception_name (const char *code)
{
  static const struct { const char *oauth, *name; } names[] = {
    { "authorization_pending", "AuthorizationPendingException" },
    { "slow_down", "SlowDownException" },
    { "expired_token", "ExpiredTokenException" },
    { "access_denied", "AccessDeniedException" },
    { "invalid_grant", "InvalidGrantException" },
    { "invalid_client", "InvalidClientException" },
    { "invalid_request", "InvalidRequestException" },
    { "invalid_scope", "InvalidScopeException" },
    { "unauthorized_client", "UnauthorizedClientException" },
    { "unsupported_grant_type", "UnsupportedGrantTypeException" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (code, names[i].oauth))
      return names[i].name;
  return code;
}

/* Only names made of letters, digits, '.', '_' and '-' are shown ("x-amzn-ErrorType" may be
 * "UnauthorizedException:http://internal.amazon.com/…"). */
static char *
sanitise_code (const char *code)
{
  g_autofree char *copy = NULL;
  const char *p;

  if (code == NULL)
    return NULL;
  copy = g_strndup (code, strcspn (code, ":"));
  if ((p = strrchr (copy, '#')) != NULL)
    memmove (copy, p + 1, strlen (p + 1) + 1);
  g_strstrip (copy);
  if (*copy == '\0' || strlen (copy) > 100)
    return NULL;
  for (p = copy; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-' && *p != '.')
      return NULL;
  return g_strdup (exception_name (copy));
}

static GError *
service_error (const char *operation,
               guint       status,
               const char *body,
               gsize       length,
               const char *error_type)
{
  g_autoptr(JsonNode) root = _dyn_sso_parse_json_object (body, length);
  JsonObject *object = root != NULL ? json_node_get_object (root) : NULL;
  g_autofree char *code = NULL;
  g_autofree char *message = NULL;
  const char *text = NULL;
  DynError kind = DYN_ERROR_FAILED;

  code = sanitise_code (error_type);
  if (code == NULL && object != NULL)
    {
      code = sanitise_code (string_member (object, "error"));
      if (code == NULL)
        code = sanitise_code (string_member (object, "__type"));
    }
  if (object != NULL)
    {
      text = string_member (object, "error_description");
      if (text == NULL)
        text = string_member (object, "message");
      if (text == NULL)
        text = string_member (object, "Message");
    }
  if (text != NULL)
    message = g_utf8_make_valid (text, MIN (strlen (text), 300));

  if (status == 401 || g_strcmp0 (code, "UnauthorizedException") == 0
      || g_strcmp0 (code, "InvalidGrantException") == 0 || g_strcmp0 (code, "ExpiredTokenException") == 0)
    kind = DYN_ERROR_EXPIRED_CREDENTIALS;
  else if (status == 403 || g_strcmp0 (code, "AccessDeniedException") == 0
           || g_strcmp0 (code, "ForbiddenException") == 0)
    kind = DYN_ERROR_ACCESS_DENIED;
  else if (status == 429 || g_strcmp0 (code, "TooManyRequestsException") == 0)
    kind = DYN_ERROR_THROTTLED;
  else if (status >= 500)
    kind = DYN_ERROR_SERVER;

  if (code != NULL)
    {
      GError *error = dyn_error_new_service (kind, code, message, NULL, status, NULL);

      /* Translators: %s is an IAM Identity Center operation (CreateToken); the service's error
       * code and message follow */
      g_prefix_error (&error, _("IAM Identity Center %s failed: "), operation);
      return error;
    }
  return g_error_new (DYN_ERROR, kind,
                      /* Translators: %s is an IAM Identity Center operation, %u an HTTP status */
                      _("IAM Identity Center %s failed with HTTP status %u"), operation, status);
}

static JsonNode *
parse_response (const char  *operation,
                guint        status,
                const char  *body,
                gsize        length,
                const char  *error_type,
                GError     **error)
{
  g_autoptr(JsonNode) root = NULL;

  if (status < 200 || status > 299)
    {
      g_propagate_error (error, service_error (operation, status, body, length, error_type));
      return NULL;
    }
  if ((root = _dyn_sso_parse_json_object (body, length)) == NULL
      || !valid_answer (operation, json_node_get_object (root)))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is an IAM Identity Center operation (GetRoleCredentials) */
                   _("The answer to IAM Identity Center %s is not what the service sends"), operation);
      return NULL;
    }
  return g_steal_pointer (&root);
}

JsonNode *
_dyn_sso_parse_response (const char  *operation,
                         guint        status,
                         const char  *body,
                         gsize        length,
                         GError     **error)
{
  g_return_val_if_fail (operation != NULL, NULL);

  return parse_response (operation, status, body, length, NULL, error);
}

/* The service's error code of @error ("SlowDownException"), or %NULL. */
static const char *
error_code (const GError *error)
{
  const DynErrorDetails *details = error != NULL ? dyn_error_get_details (error) : NULL;

  return details != NULL ? details->aws_code : NULL;
}

/* ------------------------------------------------------------------------ */
/* One call                                                                   */

typedef struct {
  DynHttp *http;
  char    *operation;
} CallData;

static void
call_data_free (CallData *data)
{
  g_clear_object (&data->http);
  g_free (data->operation);
  g_free (data);
}

static char *
join_url (const char *endpoint,
          const char *path)
{
  gsize len = strlen (endpoint);

  while (len > 0 && endpoint[len - 1] == '/')
    len--;
  return g_strdup_printf ("%.*s%s", (int) len, endpoint, path);
}

static void
call_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CallData *data = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  GError *error = NULL;
  JsonNode *root;
  gsize length = 0;
  const char *body;

  if ((response = dyn_http_post_finish (DYN_HTTP (source), result, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  body = response->body != NULL ? g_bytes_get_data (response->body, &length) : NULL;
  root = parse_response (data->operation, response->status, body, length,
                         g_hash_table_lookup (response->headers, "x-amzn-errortype"), &error);
  if (root == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, root, (GDestroyNotify) json_node_unref);
}

/* @body (a JSON object, nullable) is POSTed; without one, GET. @bearer goes as x-amz-sso_bearer_token. */
static void
call_async (DynHttp             *http,
            const char          *operation,
            const char          *endpoint,
            const char          *what,
            const char          *path,
            JsonObject          *body,
            const char          *bearer,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autofree char *url = NULL;
  g_autofree char *bearer_header = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *headers[4] = { NULL };
  guint n = 0;
  GError *error = NULL;
  CallData *data;

  g_task_set_source_tag (task, call_async);
  if (!_dyn_sign_in_check_endpoint (endpoint, what, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  data = g_new0 (CallData, 1);
  data->http = g_object_ref (http);
  data->operation = g_strdup (operation);
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  url = join_url (endpoint, path);
  if (body != NULL)
    {
      g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), body);
      gsize length;
      char *text = json_to_string (root, FALSE);

      length = strlen (text);
      bytes = g_bytes_new_with_free_func (text, length, g_free, text);
      headers[n++] = "Content-Type: application/json";
    }
  headers[n++] = "Accept: application/json";
  if (bearer != NULL)
    headers[n++] = bearer_header = g_strconcat ("x-amz-sso_bearer_token: ", bearer, NULL);

  g_debug ("IAM Identity Center %s", operation);
  dyn_http_request_async (http, body != NULL ? "POST" : "GET", url, headers, bytes, cancellable,
                          call_done_cb, g_steal_pointer (&task));
  if (bearer_header != NULL)
    memset (bearer_header, 0, strlen (bearer_header));
}

static JsonNode *
call_finish (GAsyncResult  *result,
             GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static char *
oidc_endpoint (const DynSsoConfig *config)
{
  return config->oidc_endpoint != NULL ? g_strdup (config->oidc_endpoint)
                                       : _dyn_sso_default_endpoint ("oidc", config->sso_region);
}

static char *
portal_endpoint (const DynSsoConfig *config)
{
  return config->portal_endpoint != NULL ? g_strdup (config->portal_endpoint)
                                         : _dyn_sso_default_endpoint ("portal.sso", config->sso_region);
}

static void
oidc_call_async (DynHttp             *http,
                 const DynSsoConfig  *config,
                 const char          *operation,
                 const char          *path,
                 JsonObject          *body,
                 GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             user_data)
{
  g_autofree char *endpoint = oidc_endpoint (config);

  call_async (http, operation, endpoint, _("the IAM Identity Center OIDC endpoint"), path, body, NULL,
              cancellable, callback, user_data);
}

static void
portal_call_async (DynHttp             *http,
                   const DynSsoConfig  *config,
                   const char          *operation,
                   const char          *path,
                   const char          *bearer,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autofree char *endpoint = portal_endpoint (config);

  call_async (http, operation, endpoint, _("the IAM Identity Center portal endpoint"), path, NULL, bearer,
              cancellable, callback, user_data);
}

/* ------------------------------------------------------------------------ */
/* The device flow                                                            */

typedef struct {
  DynSsoConfig      *config;
  DynSignInPrompter *prompter;
  DynHttp           *http;
  GMainContext      *context;
  GCancellable      *outer;
  gulong             outer_id;
  GCancellable      *flow;        /* cancelled by @outer or by the prompter */
  char              *path;
  char              *client_id;
  char              *client_secret;
  GDateTime         *registration_expires_at;
  char              *device_code;
  gint64             deadline;    /* g_get_real_time () when the device code expires */
  gint64             interval;    /* seconds between polls */
  gboolean           shown;
  GSource           *wait;
  GSource           *wait_cancel;
} Login;

static void
login_stop_wait (Login *login)
{
  if (login->wait != NULL)
    {
      g_source_destroy (login->wait);
      g_clear_pointer (&login->wait, g_source_unref);
    }
  if (login->wait_cancel != NULL)
    {
      g_source_destroy (login->wait_cancel);
      g_clear_pointer (&login->wait_cancel, g_source_unref);
    }
}

static void
login_free (Login *login)
{
  login_stop_wait (login);
  if (login->outer_id != 0)
    g_cancellable_disconnect (login->outer, login->outer_id);
  g_clear_object (&login->outer);
  g_clear_object (&login->flow);
  g_clear_pointer (&login->config, dyn_sso_config_free);
  g_clear_object (&login->prompter);
  g_clear_object (&login->http);
  g_clear_pointer (&login->context, g_main_context_unref);
  g_free (login->path);
  g_free (login->client_id);
  if (login->client_secret != NULL)
    memset (login->client_secret, 0, strlen (login->client_secret));
  g_free (login->client_secret);
  g_clear_pointer (&login->registration_expires_at, g_date_time_unref);
  if (login->device_code != NULL)
    memset (login->device_code, 0, strlen (login->device_code));
  g_free (login->device_code);
  g_free (login);
}

static void
outer_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
login_fail (GTask  *task,
            GError *error)
{
  Login *login = g_task_get_task_data (task);

  scrub_error (error, login->client_secret, login->device_code, NULL);
  if (login->shown)
    {
      login->shown = FALSE;
      dyn_sign_in_prompter_hide_device_code (login->prompter, error);
    }
  g_task_return_error (task, error);
}

static void poll_token (GTask *task);

static void
token_cb (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Login *login = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DynSsoToken) token = NULL;
  GError *error = NULL;
  JsonObject *object;
  gint64 expires_in = 0;
  const char *code;

  if ((root = call_finish (result, &error)) == NULL)
    {
      code = error_code (error);
      if (g_strcmp0 (code, "AuthorizationPendingException") == 0 || g_strcmp0 (code, "SlowDownException") == 0)
        {
          if (g_str_equal (code, "SlowDownException"))
            login->interval += SLOW_DOWN_DELAY;
          g_clear_error (&error);
          if (g_get_real_time () >= login->deadline)
            {
              login_fail (task, g_error_new_literal (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                                                     _("The sign-in code expired before it was approved; sign in again")));
              return;
            }
          poll_token (g_steal_pointer (&task));
          return;
        }
      if (g_strcmp0 (code, "ExpiredTokenException") == 0)
        {
          g_clear_error (&error);
          error = g_error_new_literal (DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                                       _("The sign-in code expired before it was approved; sign in again"));
        }
      else if (g_strcmp0 (code, "AccessDeniedException") == 0)
        {
          g_clear_error (&error);
          error = g_error_new_literal (DYN_ERROR, DYN_ERROR_ACCESS_DENIED,
                                       _("The sign-in was denied in the browser"));
        }
      login_fail (task, error);
      return;
    }

  object = json_node_get_object (root);
  integer_member (object, "expiresIn", 0, G_MAXINT32, &expires_in);
  token = g_new0 (DynSsoToken, 1);
  token->start_url = g_strdup (login->config->start_url);
  token->region = g_strdup (login->config->sso_region);
  token->access_token = g_strdup (string_member (object, "accessToken"));
  token->expires_at = now_plus_seconds (expires_in);
  token->client_id = g_strdup (login->client_id);
  token->client_secret = g_strdup (login->client_secret);
  token->registration_expires_at = g_date_time_ref (login->registration_expires_at);
  token->refresh_token = g_strdup (string_member (object, "refreshToken"));

  if (!dyn_sso_token_save (token, login->path, &error))
    {
      login_fail (task, error);
      return;
    }
  g_debug ("Signed in to IAM Identity Center for %s", config_name (login->config));
  if (login->shown)
    {
      login->shown = FALSE;
      dyn_sign_in_prompter_hide_device_code (login->prompter, NULL);
    }
  g_task_return_pointer (task, g_steal_pointer (&token), (GDestroyNotify) dyn_sso_token_free);
}

static void
create_token (GTask *task)
{
  Login *login = g_task_get_task_data (task);
  g_autoptr(JsonObject) body = json_object_new ();

  json_object_set_string_member (body, "clientId", login->client_id);
  json_object_set_string_member (body, "clientSecret", login->client_secret);
  json_object_set_string_member (body, "grantType", DEVICE_GRANT);
  json_object_set_string_member (body, "deviceCode", login->device_code);
  oidc_call_async (login->http, login->config, "CreateToken", "/token", body, login->flow, token_cb, task);
}

static gboolean
wait_done_cb (gpointer user_data)
{
  GTask *task = user_data;
  Login *login = g_task_get_task_data (task);

  login_stop_wait (login);
  create_token (task);
  return G_SOURCE_REMOVE;
}

static gboolean
wait_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Login *login = g_task_get_task_data (task);

  login_stop_wait (login);
  login_fail (task, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Signing in was cancelled")));
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Waits the interval, then CreateToken (the task's reference goes along). */
static void
poll_token (GTask *task)
{
  Login *login = g_task_get_task_data (task);

  login->wait = g_timeout_source_new_seconds ((guint) MAX (login->interval, 1));
  g_source_set_callback (login->wait, wait_done_cb, task, NULL);
  g_source_attach (login->wait, login->context);
  login->wait_cancel = g_cancellable_source_new (login->flow);
  g_source_set_callback (login->wait_cancel, (GSourceFunc) (GCallback) wait_cancelled_cb, task, NULL);
  g_source_attach (login->wait_cancel, login->context);
}

static void
device_authorization_cb (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Login *login = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(DynDeviceCode) code = NULL;
  GError *error = NULL;
  JsonObject *object;
  gint64 expires_in = 0;
  gint64 interval = DEFAULT_INTERVAL;

  if ((root = call_finish (result, &error)) == NULL)
    {
      login_fail (task, error);
      return;
    }
  object = json_node_get_object (root);
  integer_member (object, "expiresIn", 1, G_MAXINT32, &expires_in);
  if (json_object_get_member (object, "interval") != NULL
      && !JSON_NODE_HOLDS_NULL (json_object_get_member (object, "interval")))
    integer_member (object, "interval", 0, 3600, &interval);
  login->interval = interval;
  login->deadline = g_get_real_time () + expires_in * G_USEC_PER_SEC;
  login->device_code = g_strdup (string_member (object, "deviceCode"));

  code = g_new0 (DynDeviceCode, 1);
  code->verification_uri = g_strdup (string_member (object, "verificationUri"));
  code->verification_uri_complete = g_strdup (string_member (object, "verificationUriComplete"));
  code->user_code = g_strdup (string_member (object, "userCode"));
  code->start_url = g_strdup (login->config->start_url);
  code->session_name = g_strdup (login->config->session_name);
  code->expires = now_plus_seconds (expires_in);

  if (!dyn_sign_in_prompter_show_device_code (login->prompter, code, login->flow, &error))
    {
      if (error == NULL)
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Signing in was cancelled"));
      login_fail (task, error);
      return;
    }
  login->shown = TRUE;
  /* The CLI asks for the token at once, then after every interval. */
  create_token (g_steal_pointer (&task));
}

static void
start_device_authorization (GTask *task)
{
  Login *login = g_task_get_task_data (task);
  g_autoptr(JsonObject) body = json_object_new ();

  json_object_set_string_member (body, "clientId", login->client_id);
  json_object_set_string_member (body, "clientSecret", login->client_secret);
  json_object_set_string_member (body, "startUrl", login->config->start_url);
  oidc_call_async (login->http, login->config, "StartDeviceAuthorization", "/device_authorization", body,
                   login->flow, device_authorization_cb, task);
}

static void
register_client_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Login *login = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  GError *error = NULL;
  JsonObject *object;
  gint64 expires_at = 0;

  if ((root = call_finish (result, &error)) == NULL)
    {
      login_fail (task, error);
      return;
    }
  object = json_node_get_object (root);
  integer_member (object, "clientSecretExpiresAt", 0, G_MAXINT32 * G_GINT64_CONSTANT (100), &expires_at);
  login->client_id = g_strdup (string_member (object, "clientId"));
  login->client_secret = g_strdup (string_member (object, "clientSecret"));
  login->registration_expires_at = g_date_time_new_from_unix_utc (expires_at);
  if (login->registration_expires_at == NULL)
    {
      login_fail (task, g_error_new (DYN_ERROR, DYN_ERROR_PROTOCOL,
                                     _("The answer to IAM Identity Center %s is not what the service sends"),
                                     "RegisterClient"));
      return;
    }
  start_device_authorization (g_steal_pointer (&task));
}

static void
login_start_async (const DynSsoConfig  *config,
                   DynSignInPrompter   *prompter,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(DynSsoToken) cached = NULL;
  g_autoptr(JsonObject) body = NULL;
  Login *login;

  g_task_set_source_tag (task, login_start_async);
  if (prompter == NULL)
    prompter = dyn_sign_in_get_default_prompter ();
  if (prompter == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS,
                               _("Signing in to IAM Identity Center needs a browser, and nobody can be asked here"));
      return;
    }

  login = g_new0 (Login, 1);
  login->config = _dyn_sso_config_copy (config);
  login->prompter = g_object_ref (prompter);
  login->http = dyn_http_new ();
  login->context = g_main_context_ref_thread_default ();
  login->flow = g_cancellable_new ();
  login->path = token_path (config);
  g_task_set_task_data (task, login, (GDestroyNotify) login_free);
  if (cancellable != NULL)
    {
      login->outer = g_object_ref (cancellable);
      login->outer_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                               g_object_ref (login->flow), g_object_unref);
    }

  /* A registration the CLI (or we) cached with the token is reused while it has more than the
   * CLI's 15 minutes left. */
  cached = dyn_sso_token_load (login->path, NULL);
  if (cached != NULL && cached->client_id != NULL && cached->client_secret != NULL
      && !expires_within (cached->registration_expires_at, DYN_SSO_REFRESH_WINDOW))
    {
      login->client_id = g_strdup (cached->client_id);
      login->client_secret = g_strdup (cached->client_secret);
      login->registration_expires_at = g_date_time_ref (cached->registration_expires_at);
      start_device_authorization (g_steal_pointer (&task));
      return;
    }

  body = json_object_new ();
  json_object_set_string_member (body, "clientName", CLIENT_NAME);
  json_object_set_string_member (body, "clientType", "public");
  if (config->registration_scopes != NULL)
    {
      g_auto(GStrv) scopes = g_strsplit (config->registration_scopes, ",", -1);
      JsonArray *array = json_array_new ();

      for (guint i = 0; scopes[i] != NULL; i++)
        {
          g_strstrip (scopes[i]);
          if (*scopes[i] != '\0')
            json_array_add_string_element (array, scopes[i]);
        }
      json_object_set_array_member (body, "scopes", array);
    }
  oidc_call_async (login->http, config, "RegisterClient", "/client/register", body, login->flow,
                   register_client_cb, g_steal_pointer (&task));
}

static DynSsoToken *
login_start_finish (GAsyncResult  *result,
                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
login_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(DynSsoToken) token = NULL;
  GError *error = NULL;

  if ((token = login_start_finish (result, &error)) == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
dyn_sso_login_async (const DynSsoConfig  *config,
                     DynSignInPrompter   *prompter,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL);
  g_return_if_fail (prompter == NULL || DYN_IS_SIGN_IN_PROMPTER (prompter));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_sso_login_async);
  login_start_async (config, prompter, cancellable, login_done_cb, task);
}

gboolean
dyn_sso_login_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sso_login_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* A valid token: the cached one, refreshed, or a new sign-in                 */

typedef struct {
  DynSsoConfig      *config;
  DynSignInPrompter *prompter;   /* (nullable): who may be asked for a sign-in */
  DynHttp           *http;
  char              *path;
  DynSsoToken       *token;      /* the cached one */
} TokenData;

static void
token_data_free (TokenData *data)
{
  g_clear_pointer (&data->config, dyn_sso_config_free);
  g_clear_object (&data->prompter);
  g_clear_object (&data->http);
  g_free (data->path);
  g_clear_pointer (&data->token, dyn_sso_token_free);
  g_free (data);
}

static void
token_login_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  DynSsoToken *token;
  GError *error = NULL;

  if ((token = login_start_finish (result, &error)) == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, token, (GDestroyNotify) dyn_sso_token_free);
}

/* No valid token: the device flow when the prompter can interact, else "sign in again". */
static void
token_need_login (GTask *task)
{
  TokenData *data = g_task_get_task_data (task);

  if (data->prompter == NULL || !dyn_sign_in_prompter_can_interact (data->prompter))
    {
      g_task_return_error (task, expired_error (data->config));
      g_object_unref (task);
      return;
    }
  login_start_async (data->config, data->prompter, g_task_get_cancellable (task), token_login_cb, task);
}

static void
refresh_cb (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TokenData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) save_error = NULL;
  DynSsoToken *token = data->token;
  JsonObject *object;
  gint64 expires_in = 0;
  const char *refresh;

  if ((root = call_finish (result, &error)) == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* As botocore: a failed refresh leaves the file alone; the token serves while it lasts. */
      scrub_error (error, token->refresh_token, token->client_secret, token->access_token, NULL);
      g_debug ("Refreshing the IAM Identity Center token of %s failed: %s", config_name (data->config),
               error->message);
      if (!expires_within (token->expires_at, 0))
        g_task_return_pointer (task, g_steal_pointer (&data->token), (GDestroyNotify) dyn_sso_token_free);
      else
        token_need_login (g_steal_pointer (&task));
      return;
    }

  object = json_node_get_object (root);
  integer_member (object, "expiresIn", 0, G_MAXINT32, &expires_in);
  g_free (token->access_token);
  token->access_token = g_strdup (string_member (object, "accessToken"));
  g_clear_pointer (&token->expires_at, g_date_time_unref);
  token->expires_at = now_plus_seconds (expires_in);
  if ((refresh = string_member (object, "refreshToken")) != NULL)
    {
      memset (token->refresh_token, 0, strlen (token->refresh_token));
      g_free (token->refresh_token);
      token->refresh_token = g_strdup (refresh);
    }
  if (token->start_url == NULL)
    token->start_url = g_strdup (data->config->start_url);
  if (token->region == NULL)
    token->region = g_strdup (data->config->sso_region);
  if (!dyn_sso_token_save (token, data->path, &save_error))
    g_debug ("The refreshed IAM Identity Center token was not saved: %s", save_error->message);
  g_task_return_pointer (task, g_steal_pointer (&data->token), (GDestroyNotify) dyn_sso_token_free);
}

static void
valid_token_async (const DynSsoConfig  *config,
                   DynSignInPrompter   *prompter,
                   DynHttp             *http,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) body = NULL;
  TokenData *data;
  DynSsoToken *token;

  g_task_set_source_tag (task, valid_token_async);
  data = g_new0 (TokenData, 1);
  data->config = _dyn_sso_config_copy (config);
  data->prompter = prompter != NULL ? g_object_ref (prompter) : NULL;
  data->http = g_object_ref (http);
  data->path = token_path (config);
  g_task_set_task_data (task, data, (GDestroyNotify) token_data_free);

  if ((data->token = dyn_sso_token_load (data->path, &error)) == NULL)
    {
      g_debug ("No usable IAM Identity Center token for %s: %s", config_name (config), error->message);
      token_need_login (g_steal_pointer (&task));
      return;
    }
  token = data->token;
  if (!expires_within (token->expires_at, DYN_SSO_REFRESH_WINDOW))
    {
      g_task_return_pointer (task, g_steal_pointer (&data->token), (GDestroyNotify) dyn_sso_token_free);
      return;
    }

  /* botocore refreshes with less than 15 minutes left, when the registration still holds. */
  if (token->refresh_token == NULL || token->client_id == NULL || token->client_secret == NULL
      || expires_within (token->registration_expires_at, 0))
    {
      if (!expires_within (token->expires_at, 0))
        g_task_return_pointer (task, g_steal_pointer (&data->token), (GDestroyNotify) dyn_sso_token_free);
      else
        token_need_login (g_steal_pointer (&task));
      return;
    }
  body = json_object_new ();
  json_object_set_string_member (body, "clientId", token->client_id);
  json_object_set_string_member (body, "clientSecret", token->client_secret);
  json_object_set_string_member (body, "grantType", REFRESH_GRANT);
  json_object_set_string_member (body, "refreshToken", token->refresh_token);
  oidc_call_async (http, config, "CreateToken", "/token", body, cancellable, refresh_cb, g_steal_pointer (&task));
}

static DynSsoToken *
valid_token_finish (GAsyncResult  *result,
                    GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* The SSO provider                                                           */

typedef struct {
  DynSsoConfig      *config;
  DynSignInPrompter *prompter;   /* (nullable) */
} SsoProvider;

static void
sso_provider_release (SsoProvider *provider)
{
  g_clear_pointer (&provider->config, dyn_sso_config_free);
  g_clear_object (&provider->prompter);
}

static void
sso_provider_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) sso_provider_release);
}

typedef struct {
  SsoProvider *provider;
  DynHttp     *http;
  DynSsoToken *token;
  gboolean     signed_in;   /* a device flow ran in this fetch */
} Fetch;

static void
fetch_free (Fetch *fetch)
{
  sso_provider_unref (fetch->provider);
  g_clear_object (&fetch->http);
  g_clear_pointer (&fetch->token, dyn_sso_token_free);
  g_free (fetch);
}

static void fetch_with_token (GTask *task);

static void
fetch_login_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;

  if ((fetch->token = login_start_finish (result, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  fetch->signed_in = TRUE;
  fetch_with_token (g_steal_pointer (&task));
}

static void
role_credentials_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  const DynSsoConfig *config = fetch->provider->config;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GDateTime) seconds = NULL;
  g_autoptr(GDateTime) expiration = NULL;
  GError *error = NULL;
  JsonObject *creds;
  gint64 ms = 0;

  if ((root = call_finish (result, &error)) == NULL)
    {
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS))
        {
          /* 401 UnauthorizedException: the token is no good any more (signed out, revoked). */
          g_clear_error (&error);
          if (!fetch->signed_in && fetch->provider->prompter != NULL
              && dyn_sign_in_prompter_can_interact (fetch->provider->prompter))
            {
              login_start_async (config, fetch->provider->prompter, g_task_get_cancellable (task),
                                 fetch_login_cb, g_steal_pointer (&task));
              return;
            }
          error = expired_error (config);
        }
      scrub_error (error, fetch->token->access_token, NULL);
      g_task_return_error (task, error);
      return;
    }

  creds = json_node_get_object (json_object_get_member (json_node_get_object (root), "roleCredentials"));
  integer_member (creds, "expiration", 0, G_GINT64_CONSTANT (253402300799000), &ms);
  seconds = g_date_time_new_from_unix_utc (ms / 1000);
  if (seconds != NULL)
    expiration = g_date_time_add (seconds, (ms % 1000) * G_TIME_SPAN_MILLISECOND);
  if (expiration == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                               _("The answer to IAM Identity Center %s is not what the service sends"),
                               "GetRoleCredentials");
      return;
    }
  g_task_return_pointer (task,
                         dyn_credentials_new (string_member (creds, "accessKeyId"),
                                              string_member (creds, "secretAccessKey"),
                                              string_member (creds, "sessionToken"), expiration),
                         (GDestroyNotify) dyn_credentials_unref);
}

static void
fetch_with_token (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  const DynSsoConfig *config = fetch->provider->config;
  g_autofree char *role = g_uri_escape_string (config->role_name, NULL, FALSE);
  g_autofree char *account = g_uri_escape_string (config->account_id, NULL, FALSE);
  g_autofree char *path = g_strdup_printf ("/federation/credentials?role_name=%s&account_id=%s", role, account);

  portal_call_async (fetch->http, config, "GetRoleCredentials", path, fetch->token->access_token,
                     g_task_get_cancellable (task), role_credentials_cb, task);
}

static void
fetch_token_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;

  if ((fetch->token = valid_token_finish (result, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  fetch_with_token (g_steal_pointer (&task));
}

static void
sso_fetch (GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             callback_data,
           gpointer             user_data)
{
  SsoProvider *provider = user_data;
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);
  Fetch *fetch = g_new0 (Fetch, 1);

  g_task_set_source_tag (task, sso_fetch);
  fetch->provider = g_atomic_rc_box_acquire (provider);
  fetch->http = dyn_http_new ();
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);
  valid_token_async (provider->config, provider->prompter, fetch->http, cancellable, fetch_token_cb, task);
}

static DynCredentials *
sso_fetch_finish (GAsyncResult  *result,
                  GError       **error,
                  gpointer       user_data)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

DynCredentialsProvider *
dyn_sso_provider_new (const DynSsoConfig *config,
                      DynSignInPrompter  *prompter)
{
  SsoProvider *provider;
  g_autofree char *description = NULL;

  g_return_val_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL, NULL);
  g_return_val_if_fail (config->account_id != NULL && config->role_name != NULL, NULL);
  g_return_val_if_fail (prompter == NULL || DYN_IS_SIGN_IN_PROMPTER (prompter), NULL);

  if (prompter == NULL)
    prompter = dyn_sign_in_get_default_prompter ();
  provider = g_atomic_rc_box_new0 (SsoProvider);
  provider->config = _dyn_sso_config_copy (config);
  provider->prompter = prompter != NULL ? g_object_ref (prompter) : NULL;
  if (config->profile != NULL)
    /* Translators: where credentials come from; %s are an AWS profile, an account and a role */
    description = g_strdup_printf (_("IAM Identity Center of profile '%s' (account %s, role %s)"),
                                   config->profile, config->account_id, config->role_name);
  else
    /* Translators: where credentials come from; %s are a start URL, an account and a role */
    description = g_strdup_printf (_("IAM Identity Center %s (account %s, role %s)"),
                                   config->start_url, config->account_id, config->role_name);
  return dyn_credentials_provider_new_custom (sso_fetch, sso_fetch_finish, provider, sso_provider_unref,
                                              description);
}

/* ------------------------------------------------------------------------ */
/* Accounts and roles                                                         */

typedef struct {
  DynSsoConfig *config;
  DynHttp      *http;
  DynSsoToken  *token;
  char         *account_id;    /* ListAccountRoles, else NULL */
  GPtrArray    *items;         /* DynSsoAccount, or role names */
  guint         pages;
} List;

static void
list_free (List *list)
{
  g_clear_pointer (&list->config, dyn_sso_config_free);
  g_clear_object (&list->http);
  g_clear_pointer (&list->token, dyn_sso_token_free);
  g_free (list->account_id);
  g_clear_pointer (&list->items, g_ptr_array_unref);
  g_free (list);
}

static void list_page (GTask *task, const char *next_token);

static void
list_page_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  List *list = g_task_get_task_data (task);
  const char *operation = list->account_id != NULL ? "ListAccountRoles" : "ListAccounts";
  g_autoptr(JsonNode) root = NULL;
  GError *error = NULL;
  JsonObject *object;
  JsonNode *node;
  const char *next;

  if ((root = call_finish (result, &error)) == NULL)
    {
      if (g_error_matches (error, DYN_ERROR, DYN_ERROR_EXPIRED_CREDENTIALS))
        {
          g_clear_error (&error);
          error = expired_error (list->config);
        }
      scrub_error (error, list->token->access_token, NULL);
      g_task_return_error (task, error);
      return;
    }
  object = json_node_get_object (root);
  node = json_object_get_member (object, list->account_id != NULL ? "roleList" : "accountList");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *element = json_array_get_object_element (array, i);

          if (list->account_id != NULL)
            g_ptr_array_add (list->items, g_strdup (string_member (element, "roleName")));
          else
            {
              DynSsoAccount *account = g_new0 (DynSsoAccount, 1);

              account->account_id = g_strdup (string_member (element, "accountId"));
              account->account_name = g_strdup (string_member (element, "accountName"));
              account->email_address = g_strdup (string_member (element, "emailAddress"));
              if (account->account_name == NULL)
                account->account_name = g_strdup (account->account_id);
              g_ptr_array_add (list->items, account);
            }
        }
    }

  next = string_member (object, "nextToken");
  if (next == NULL || *next == '\0')
    {
      if (list->account_id != NULL)
        g_ptr_array_add (list->items, NULL);
      g_task_return_pointer (task, g_steal_pointer (&list->items), (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  if (++list->pages >= MAX_PAGES)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                               /* Translators: %s is an IAM Identity Center operation */
                               _("IAM Identity Center %s sends pages without end"), operation);
      return;
    }
  list_page (g_steal_pointer (&task), next);
}

static void
list_page (GTask      *task,
           const char *next_token)
{
  List *list = g_task_get_task_data (task);
  g_autoptr(GString) path = g_string_new (list->account_id != NULL ? "/assignment/roles" : "/assignment/accounts");
  char sep = '?';

  if (list->account_id != NULL)
    {
      g_autofree char *account = g_uri_escape_string (list->account_id, NULL, FALSE);

      g_string_append_printf (path, "%caccount_id=%s", sep, account);
      sep = '&';
    }
  if (next_token != NULL)
    {
      g_autofree char *next = g_uri_escape_string (next_token, NULL, FALSE);

      g_string_append_printf (path, "%cnext_token=%s", sep, next);
    }
  portal_call_async (list->http, list->config, list->account_id != NULL ? "ListAccountRoles" : "ListAccounts",
                     path->str, list->token->access_token, g_task_get_cancellable (task), list_page_cb, task);
}

static void
list_token_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  List *list = g_task_get_task_data (task);
  GError *error = NULL;

  if ((list->token = valid_token_finish (result, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  list_page (g_steal_pointer (&task), NULL);
}

static void
list_start (const DynSsoConfig  *config,
            const char          *account_id,
            gpointer             tag,
            GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  List *list = g_new0 (List, 1);

  g_task_set_source_tag (task, tag);
  list->config = _dyn_sso_config_copy (config);
  list->http = dyn_http_new ();
  list->account_id = g_strdup (account_id);
  list->items = account_id != NULL ? g_ptr_array_new_with_free_func (g_free)
                                   : g_ptr_array_new_with_free_func ((GDestroyNotify) dyn_sso_account_free);
  g_task_set_task_data (task, list, (GDestroyNotify) list_free);
  /* Only the cached token (refreshed if need be): the picker never starts a sign-in itself. */
  valid_token_async (config, NULL, list->http, cancellable, list_token_cb, task);
}

void
dyn_sso_account_free (DynSsoAccount *account)
{
  if (account == NULL)
    return;
  g_free (account->account_id);
  g_free (account->account_name);
  g_free (account->email_address);
  g_free (account);
}

void
dyn_sso_list_accounts_async (const DynSsoConfig  *config,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL);

  list_start (config, NULL, dyn_sso_list_accounts_async, cancellable, callback, user_data);
}

GPtrArray *
dyn_sso_list_accounts_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sso_list_accounts_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
dyn_sso_list_account_roles_async (const DynSsoConfig  *config,
                                  const char          *account_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (config != NULL && config->start_url != NULL && config->sso_region != NULL);
  g_return_if_fail (account_id != NULL);

  list_start (config, account_id, dyn_sso_list_account_roles_async, cancellable, callback, user_data);
}

GStrv
dyn_sso_list_account_roles_finish (GAsyncResult  *result,
                                   GError       **error)
{
  GPtrArray *roles;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_sso_list_account_roles_async, NULL);

  if ((roles = g_task_propagate_pointer (G_TASK (result), error)) == NULL)
    return NULL;
  return (GStrv) g_ptr_array_free (roles, FALSE);
}

/* ------------------------------------------------------------------------ */
/* The profile builder                                                        */

DynCredentialsProvider *
_dyn_sign_in_sso_from_profile (DynSignInResolve  *resolve,
                               DynSharedConfig   *shared,
                               const char        *profile,
                               gboolean          *handled,
                               GError           **error)
{
  g_autoptr(DynSsoConfig) config = NULL;

  *handled = FALSE;
  if (!_dyn_sso_profile_is_sso (shared, profile))
    return NULL;

  *handled = TRUE;
  if ((config = dyn_sso_config_from_profile (shared, profile, error)) == NULL)
    return NULL;
  if (config->account_id == NULL || config->role_name == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: the first %s is an AWS profile, the second a setting such as sso_role_name */
                   _("The profile '%s' uses IAM Identity Center but does not set %s"), profile,
                   config->account_id == NULL ? "sso_account_id" : "sso_role_name");
      return NULL;
    }
  return dyn_sso_provider_new (config, resolve->prompter);
}
