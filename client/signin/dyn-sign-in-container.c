/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-signin"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dyn-error.h"
#include "dyn-http.h"
#include "dyn-signin-private.h"

/*
 * The container provider (ECS tasks, EKS Pod Identity) and the instance
 * metadata provider (IMDSv2), as botocore's ContainerProvider and
 * InstanceMetadataProvider do it:
 *
 * - Container: AWS_CONTAINER_CREDENTIALS_RELATIVE_URI on http://169.254.170.2,
 *   else AWS_CONTAINER_CREDENTIALS_FULL_URI, which must name a loopback
 *   host, 169.254.170.2, 169.254.170.23 or fd00:ec2::23; the Authorization
 *   header from AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (read on every
 *   refresh) or AWS_CONTAINER_AUTHORIZATION_TOKEN. A GET with a 2 s timeout,
 *   3 attempts 1 s apart.
 * - Instance metadata: PUT latest/api/token (TTL 21600) for a session token —
 *   when the service refuses that (403, 404, 405) or does not answer, the
 *   GETs go without one (IMDSv1) — then GET
 *   latest/meta-data/iam/security-credentials/ for the role and the role's
 *   credentials. AWS_EC2_METADATA_SERVICE_ENDPOINT (or
 *   AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE=IPv6) moves it,
 *   AWS_METADATA_SERVICE_TIMEOUT (1 s) and AWS_METADATA_SERVICE_NUM_ATTEMPTS
 *   (1) bound it, AWS_EC2_METADATA_DISABLED=true turns it off.
 *
 * Neither ever puts a token, a secret or the answer's text in a message.
 */

#define CONTAINER_HOST       "169.254.170.2"
#define CONTAINER_TIMEOUT_MS 2000
#define CONTAINER_ATTEMPTS   3
#define CONTAINER_SLEEP_MS   1000
#define IMDS_ENDPOINT        "http://169.254.169.254/"
#define IMDS_ENDPOINT_IPV6   "http://[fd00:ec2::254]/"
#define IMDS_TOKEN_TTL       "21600"
#define IMDS_ROLE_PATH       "latest/meta-data/iam/security-credentials/"

static const char *
env (const char *name)
{
  const char *value = g_getenv (name);

  return (value != NULL && *value != '\0') ? value : NULL;
}

static void
wipe (char *text)
{
  if (text != NULL)
    memset (text, 0, strlen (text));
  g_free (text);
}

/* ------------------------------------------------------------------------ */
/* One request, tried a few times                                             */

typedef gboolean (*NeedsRetryFunc) (DynHttpResponse *response);

typedef struct {
  char            *method;
  char            *url;
  GPtrArray       *headers;       /* (element-type utf8) NULL-terminated */
  guint            attempts;
  guint            attempt;
  guint            sleep_ms;
  NeedsRetryFunc   needs_retry;
  DynHttp         *http;
  DynHttpResponse *last_response;
  GError          *last_error;
} MetaCall;

static void
wipe_free (gpointer data)
{
  wipe (data);
}

static void
meta_call_free (MetaCall *call)
{
  g_free (call->method);
  g_free (call->url);
  g_clear_pointer (&call->headers, g_ptr_array_unref);
  g_clear_object (&call->http);
  g_clear_pointer (&call->last_response, dyn_http_response_free);
  g_clear_error (&call->last_error);
  g_free (call);
}

static void meta_attempt (GTask *task);

static void
meta_slept_cb (GObject      *source,
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
  meta_attempt (task);
}

static void
meta_done (GTask *task)
{
  MetaCall *call = g_task_get_task_data (task);

  if (call->last_response != NULL)
    g_task_return_pointer (task, g_steal_pointer (&call->last_response), (GDestroyNotify) dyn_http_response_free);
  else
    g_task_return_error (task, g_steal_pointer (&call->last_error));
  g_object_unref (task);
}

static void
meta_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  MetaCall *call = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  DynHttpResponse *response;

  g_clear_pointer (&call->last_response, dyn_http_response_free);
  g_clear_error (&call->last_error);

  response = dyn_http_post_finish (DYN_HTTP (object), result, &error);
  if (response == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  call->last_response = response;
  call->last_error = error;

  if ((response != NULL && !call->needs_retry (response)) || call->attempt >= call->attempts)
    {
      meta_done (task);
      return;
    }

  g_debug ("%s %s: attempt %u of %u failed", call->method, call->url, call->attempt, call->attempts);
  _dyn_sign_in_sleep_async (call->sleep_ms, cancellable, meta_slept_cb, task);
}

static void
meta_attempt (GTask *task)
{
  MetaCall *call = g_task_get_task_data (task);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  call->attempt++;
  dyn_http_request_async (call->http, call->method, call->url, (const char * const *) call->headers->pdata, NULL,
                          g_task_get_cancellable (task), meta_cb, task);
}

/* @headers: NULL-terminated; copied. The answer is the last response (also one that still
 * needed a retry when the attempts ran out), or the last transport error. */
static void
meta_request_async (DynHttp             *http,
                    const char          *method,
                    const char          *url,
                    const char * const  *headers,
                    guint                attempts,
                    guint                sleep_ms,
                    NeedsRetryFunc       needs_retry,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  MetaCall *call = g_new0 (MetaCall, 1);

  g_task_set_source_tag (task, meta_request_async);
  call->method = g_strdup (method);
  call->url = g_strdup (url);
  call->headers = g_ptr_array_new_with_free_func (wipe_free);
  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    g_ptr_array_add (call->headers, g_strdup (headers[i]));
  g_ptr_array_add (call->headers, NULL);
  call->attempts = MAX (attempts, 1);
  call->sleep_ms = sleep_ms;
  call->needs_retry = needs_retry;
  call->http = g_object_ref (http);
  g_task_set_task_data (task, call, (GDestroyNotify) meta_call_free);

  meta_attempt (task);
}

static DynHttpResponse *
meta_request_finish (GAsyncResult  *result,
                     GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The answer's body as a JSON object, or %NULL. */
static JsonObject *
body_object (DynHttpResponse *response,
             JsonParser      *parser)
{
  gsize length;
  const char *data = g_bytes_get_data (response->body, &length);
  JsonNode *root;

  if (data == NULL || length == 0 || !json_parser_load_from_data (parser, data, (gssize) length, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return (root != NULL && JSON_NODE_HOLDS_OBJECT (root)) ? json_node_get_object (root) : NULL;
}

static const char *
member_text (JsonObject *object,
             const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* AccessKeyId, SecretAccessKey, Token, Expiration of the container and IMDS answers; @what
 * names the service for the message. */
static DynCredentials *
credentials_of (JsonObject  *object,
                const char  *what,
                GError     **error)
{
  static const char * const fields[] = { "AccessKeyId", "SecretAccessKey", "Token", "Expiration" };
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) expiration = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const char *value = member_text (object, fields[i]);

      if (value == NULL || *value == '\0')
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                       /* Translators: the first %s is a service (“the container credentials endpoint
                        * (169.254.170.2)”), the second a JSON member (AccessKeyId) */
                       _("The answer of %s has no %s"), what, fields[i]);
          return NULL;
        }
    }
  expiration = g_date_time_new_from_iso8601 (member_text (object, "Expiration"), utc);
  if (expiration == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_PROTOCOL,
                   /* Translators: %s is a service (“the container credentials endpoint (169.254.170.2)”);
                    * Expiration is a JSON member */
                   _("The answer of %s has an Expiration that is not a time"), what);
      return NULL;
    }
  return dyn_credentials_new (member_text (object, "AccessKeyId"), member_text (object, "SecretAccessKey"),
                              member_text (object, "Token"), expiration);
}

/* ------------------------------------------------------------------------ */
/* The container provider                                                     */

typedef struct {
  char *url;
  char *what;          /* "the container credentials endpoint (HOST)" */
  char *token;         /* AWS_CONTAINER_AUTHORIZATION_TOKEN */
  char *token_file;    /* AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE */
} Container;

static void
container_free (gpointer data)
{
  Container *container = data;

  g_free (container->url);
  g_free (container->what);
  wipe (container->token);
  g_free (container->token_file);
  g_free (container);
}

static gboolean
container_needs_retry (DynHttpResponse *response)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  return response->status != 200 || body_object (response, parser) == NULL;
}

static void
container_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Container *container = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;
  JsonObject *answer;
  DynCredentials *creds;

  response = meta_request_finish (result, &error);
  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* Translators: %s is a service (“the container credentials endpoint (169.254.170.2)”); what
         * went wrong follows */
        g_prefix_error (&error, _("No credentials from %s: "), container->what);
      g_task_return_error (task, error);
      return;
    }
  if (response->status != 200)
    {
      g_task_return_new_error (task, DYN_ERROR, response->status == 401 || response->status == 403
                                                ? DYN_ERROR_ACCESS_DENIED : DYN_ERROR_CREDENTIALS,
                               /* Translators: %s is a service (“the container credentials endpoint
                                * (169.254.170.2)”), %u an HTTP status */
                               _("No credentials from %s: it answered HTTP %u"), container->what,
                               response->status);
      return;
    }
  if ((answer = body_object (response, parser)) == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                               /* Translators: %s is a service (“the container credentials endpoint
                                * (169.254.170.2)”) */
                               _("The answer of %s is not a JSON object"), container->what);
      return;
    }
  if ((creds = credentials_of (answer, container->what, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, creds, (GDestroyNotify) dyn_credentials_unref);
}

static void
container_fetch (GCancellable        *cancellable,
                 GAsyncReadyCallback  callback,
                 gpointer             callback_data,
                 gpointer             user_data)
{
  Container *container = user_data;
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);
  g_autoptr(DynHttp) http = dyn_http_new ();
  g_autoptr(GPtrArray) headers = g_ptr_array_new_with_free_func (wipe_free);
  char *token = NULL;

  g_task_set_source_tag (task, container_fetch);
  g_task_set_task_data (task, container, NULL);

  if (container->token_file != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      /* EKS Pod Identity rotates the file: read it every time. */
      if (!g_file_get_contents (container->token_file, &token, NULL, &local_error))
        {
          g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                   /* Translators: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE is a name; keep it.
                                    * The first %s is a file, the second why it cannot be read */
                                   _("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE %s cannot be read: %s"),
                                   container->token_file, local_error->message);
          g_object_unref (task);
          return;
        }
    }
  else if (container->token != NULL)
    token = g_strdup (container->token);

  if (token != NULL && strpbrk (token, "\r\n") != NULL)
    {
      wipe (token);
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: the names of two environment variables; keep them */
                               _("The container authorization token (AWS_CONTAINER_AUTHORIZATION_TOKEN or "
                                 "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE) holds a line break, which no HTTP "
                                 "header may hold"));
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (headers, g_strdup ("Accept: application/json"));
  if (token != NULL)
    g_ptr_array_add (headers, g_strconcat ("Authorization: ", token, NULL));
  g_ptr_array_add (headers, NULL);
  wipe (token);

  dyn_http_set_timeouts (http, CONTAINER_TIMEOUT_MS, CONTAINER_TIMEOUT_MS);
  meta_request_async (http, "GET", container->url, (const char * const *) headers->pdata, CONTAINER_ATTEMPTS,
                      CONTAINER_SLEEP_MS, container_needs_retry, cancellable, container_cb, task);
}

static DynCredentials *
fetch_finish (GAsyncResult  *result,
              GError       **error,
              gpointer       user_data)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
allowed_container_host (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  if ((address = g_inet_address_new_from_string (host)) == NULL)
    return FALSE;
  if (g_inet_address_get_is_loopback (address))
    return TRUE;

  for (guint i = 0; i < 3; i++)
    {
      static const char * const allowed[] = { "169.254.170.2", "169.254.170.23", "fd00:ec2::23" };
      g_autoptr(GInetAddress) other = g_inet_address_new_from_string (allowed[i]);

      if (g_inet_address_equal (address, other))
        return TRUE;
    }
  return FALSE;
}

DynCredentialsProvider *
dyn_container_provider_new (GError **error)
{
  const char *relative = env ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
  const char *full = env ("AWS_CONTAINER_CREDENTIALS_FULL_URI");
  g_autoptr(GUri) uri = NULL;
  g_autofree char *url = NULL;
  Container *container;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (relative != NULL)
    url = g_strconcat ("http://" CONTAINER_HOST, relative[0] == '/' ? "" : "/", relative, NULL);
  else if (full != NULL)
    url = g_strdup (full);
  else
    {
      g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                           /* Translators: the names of two environment variables; keep them */
                           _("Neither AWS_CONTAINER_CREDENTIALS_RELATIVE_URI nor AWS_CONTAINER_CREDENTIALS_FULL_URI "
                             "is set"));
      return NULL;
    }

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 && g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: %s is the name of an environment variable */
                   _("%s is not an http or https URL"),
                   relative != NULL ? "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI" : "AWS_CONTAINER_CREDENTIALS_FULL_URI");
      return NULL;
    }
  if (relative == NULL && !allowed_container_host (g_uri_get_host (uri)))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: AWS_CONTAINER_CREDENTIALS_FULL_URI is a name; keep it. %s is a host name */
                   _("AWS_CONTAINER_CREDENTIALS_FULL_URI names the host %s, but container credentials come only "
                     "from a loopback address, 169.254.170.2, 169.254.170.23 or fd00:ec2::23"),
                   g_uri_get_host (uri));
      return NULL;
    }

  container = g_new0 (Container, 1);
  container->url = g_steal_pointer (&url);
  /* Translators: a service, for messages and “credentials from …”; %s is a host (169.254.170.2) */
  container->what = g_strdup_printf (_("the container credentials endpoint (%s)"), g_uri_get_host (uri));
  container->token_file = g_strdup (env ("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"));
  container->token = g_strdup (env ("AWS_CONTAINER_AUTHORIZATION_TOKEN"));

  return dyn_credentials_provider_new_custom (container_fetch, fetch_finish, container, container_free,
                                              container->what);
}

/* ------------------------------------------------------------------------ */
/* The instance metadata provider                                             */

typedef struct {
  char  *base;        /* ends with '/' */
  char  *what;        /* "EC2 instance metadata (URL)" */
  guint  timeout_ms;
  guint  attempts;
} Imds;

typedef struct {
  Imds    *imds;
  DynHttp *http;
  char    *token;
  char    *role;
} ImdsFetch;

static void
imds_free (gpointer data)
{
  Imds *imds = data;

  g_free (imds->base);
  g_free (imds->what);
  g_free (imds);
}

static void
imds_fetch_free (ImdsFetch *fetch)
{
  g_clear_object (&fetch->http);
  wipe (fetch->token);
  g_free (fetch->role);
  g_free (fetch);
}

static gboolean
token_needs_retry (DynHttpResponse *response)
{
  return response->status != 200 && response->status != 400 && response->status != 403 &&
         response->status != 404 && response->status != 405;
}

static gboolean
get_needs_retry (DynHttpResponse *response)
{
  return response->status != 200 || g_bytes_get_size (response->body) == 0;
}

static void
imds_get (GTask               *task,
          const char          *path,
          GAsyncReadyCallback  callback)
{
  ImdsFetch *fetch = g_task_get_task_data (task);
  g_autofree char *url = g_strconcat (fetch->imds->base, path, NULL);
  g_autofree char *header = NULL;
  const char *headers[2] = { NULL, NULL };

  if (fetch->token != NULL)
    headers[0] = header = g_strconcat ("X-aws-ec2-metadata-token: ", fetch->token, NULL);
  meta_request_async (fetch->http, "GET", url, headers, fetch->imds->attempts, 0, get_needs_retry,
                      g_task_get_cancellable (task), callback, task);
  wipe (g_steal_pointer (&header));
}

/* The last answer of a GET, or an error naming @what. */
static DynHttpResponse *
imds_answer (GTask         *task,
             GAsyncResult  *result,
             const char    *what)
{
  ImdsFetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;
  DynHttpResponse *response = meta_request_finish (result, &error);

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* Translators: the first %s is a service (“EC2 instance metadata (http://169.254.169.254/)”),
         * the second what was asked (“the role”); what went wrong follows */
        g_prefix_error (&error, _("No %2$s from %1$s: "), fetch->imds->what, what);
      g_task_return_error (task, error);
      return NULL;
    }
  if (get_needs_retry (response))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: the first %s is a service (“EC2 instance metadata
                                * (http://169.254.169.254/)”), the second what was asked (“the role”),
                                * %u an HTTP status */
                               _("No %2$s from %1$s: it answered HTTP %3$u"), fetch->imds->what, what,
                               response->status);
      dyn_http_response_free (response);
      return NULL;
    }
  return response;
}

static void
imds_credentials_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ImdsFetch *fetch = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  GError *error = NULL;
  JsonObject *answer;
  DynCredentials *creds;

  /* Translators: what was asked of the instance metadata service */
  if ((response = imds_answer (task, result, _("role credentials"))) == NULL)
    return;
  if ((answer = body_object (response, parser)) == NULL)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL, _("The answer of %s is not a JSON object"),
                               fetch->imds->what);
      return;
    }
  if (member_text (answer, "AccessKeyId") == NULL && member_text (answer, "Code") != NULL)
    {
      /* Such as an instance profile whose role does not trust EC2. */
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: the first %s is a service (“EC2 instance metadata (…)”), the
                                * second a role name, the third the service's code for the failure */
                               _("%s has no credentials for the role %s: %s"), fetch->imds->what, fetch->role,
                               member_text (answer, "Code"));
      return;
    }
  if ((creds = credentials_of (answer, fetch->imds->what, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, creds, (GDestroyNotify) dyn_credentials_unref);
}

static void
imds_role_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  ImdsFetch *fetch = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  g_autofree char *path = NULL;
  gsize length;
  const char *data;

  /* Translators: what was asked of the instance metadata service */
  if ((response = imds_answer (task, result, _("the role"))) == NULL)
    {
      g_object_unref (task);
      return;
    }
  data = g_bytes_get_data (response->body, &length);
  fetch->role = g_strstrip (g_strndup (data, length));
  if (*fetch->role == '\0' || strpbrk (fetch->role, "/?#\r\n") != NULL || !g_utf8_validate (fetch->role, -1, NULL))
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_PROTOCOL,
                               /* Translators: %s is a service (“EC2 instance metadata (…)”) */
                               _("%s named no usable role"), fetch->imds->what);
      g_object_unref (task);
      return;
    }

  path = g_strconcat (IMDS_ROLE_PATH, fetch->role, NULL);
  imds_get (task, path, imds_credentials_cb);
}

static void
imds_token_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  ImdsFetch *fetch = g_task_get_task_data (task);
  g_autoptr(DynHttpResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = meta_request_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  if (response != NULL && response->status == 400)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: %s is a service (“EC2 instance metadata (…)”) */
                               _("%s refused the request for a session token (HTTP 400)"), fetch->imds->what);
      g_object_unref (task);
      return;
    }
  if (response != NULL && response->status == 200 && g_bytes_get_size (response->body) > 0)
    {
      gsize length;
      const char *data = g_bytes_get_data (response->body, &length);

      fetch->token = g_strndup (data, length);
    }
  else
    /* IMDSv1, as botocore falls back. */
    g_debug ("%s gave no session token (%s); asking without one", fetch->imds->what,
             response != NULL ? "refused" : error->message);

  imds_get (task, IMDS_ROLE_PATH, imds_role_cb);
}

static void
imds_fetch (GCancellable        *cancellable,
            GAsyncReadyCallback  callback,
            gpointer             callback_data,
            gpointer             user_data)
{
  Imds *imds = user_data;
  GTask *task = g_task_new (NULL, cancellable, callback, callback_data);
  ImdsFetch *fetch = g_new0 (ImdsFetch, 1);
  g_autofree char *url = NULL;
  const char *disabled = g_getenv ("AWS_EC2_METADATA_DISABLED");
  const char *headers[] = { "X-aws-ec2-metadata-token-ttl-seconds: " IMDS_TOKEN_TTL, NULL };

  g_task_set_source_tag (task, imds_fetch);
  fetch->imds = imds;
  g_task_set_task_data (task, fetch, (GDestroyNotify) imds_fetch_free);

  if (disabled != NULL && g_ascii_strcasecmp (disabled, "true") == 0)
    {
      g_task_return_new_error (task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: AWS_EC2_METADATA_DISABLED is a name; keep it */
                               _("EC2 instance metadata is turned off (AWS_EC2_METADATA_DISABLED)"));
      g_object_unref (task);
      return;
    }

  fetch->http = dyn_http_new ();
  dyn_http_set_timeouts (fetch->http, imds->timeout_ms, imds->timeout_ms);
  url = g_strconcat (imds->base, "latest/api/token", NULL);
  meta_request_async (fetch->http, "PUT", url, headers, imds->attempts, 0, token_needs_retry, cancellable,
                      imds_token_cb, task);
}

static guint
env_number (const char *name,
            guint       fallback)
{
  const char *text = env (name);
  guint64 value;

  if (text != NULL && g_ascii_string_to_unsigned (text, 10, 1, 3600, &value, NULL))
    return (guint) value;
  return fallback;
}

DynCredentialsProvider *
dyn_instance_metadata_provider_new (void)
{
  Imds *imds = g_new0 (Imds, 1);
  const char *endpoint = env ("AWS_EC2_METADATA_SERVICE_ENDPOINT");
  const char *mode = env ("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");

  if (endpoint == NULL)
    endpoint = (mode != NULL && g_ascii_strcasecmp (mode, "ipv6") == 0) ? IMDS_ENDPOINT_IPV6 : IMDS_ENDPOINT;
  imds->base = g_str_has_suffix (endpoint, "/") ? g_strdup (endpoint) : g_strconcat (endpoint, "/", NULL);
  imds->timeout_ms = env_number ("AWS_METADATA_SERVICE_TIMEOUT", 1) * 1000;
  imds->attempts = env_number ("AWS_METADATA_SERVICE_NUM_ATTEMPTS", 1);
  /* Translators: a service, for messages and “credentials from …”; %s is its URL */
  imds->what = g_strdup_printf (_("EC2 instance metadata (%s)"), imds->base);

  return dyn_credentials_provider_new_custom (imds_fetch, fetch_finish, imds, imds_free, imds->what);
}
