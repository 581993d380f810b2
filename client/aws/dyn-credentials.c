/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-credentials"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dyn-credentials.h"
#include "dyn-credentials-private.h"
#include "dyn-error.h"
#include "dyn-secret-private.h"

/* At most this many characters of a failing credential_process's stderr go into the error. */
#define STDERR_LIMIT 1024

typedef enum {
  KIND_FIXED,
  KIND_PROCESS,
  KIND_CUSTOM,
} Kind;

typedef struct _Fetch Fetch;

struct _DynCredentialsProvider
{
  GObject                        parent_instance;

  DynCredentials                *cached;
  Fetch                         *fetch_op;   /* the fetch in flight, or NULL */
  GPtrArray                     *waiters;    /* of Waiter*, waiting for fetch_op */

  Kind                           kind;
  DynCredentialsSource           source;
  char                          *description;

  /* KIND_PROCESS */
  char                         **argv;
  char                          *profile_name;

  /* KIND_CUSTOM */
  DynCredentialsFetchFunc        fetch;
  DynCredentialsFetchFinishFunc  fetch_finish;
  gpointer                       fetch_data;
  GDestroyNotify                 fetch_data_destroy;
};

G_DEFINE_FINAL_TYPE (DynCredentialsProvider, dyn_credentials_provider, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (DynCredentials, dyn_credentials, dyn_credentials_ref, dyn_credentials_unref)

struct _Fetch {
  DynCredentialsProvider *self;         /* owned */
  GCancellable           *cancellable;  /* owned; cancelled when every waiter is gone */
  GSubprocess            *process;      /* owned, KIND_PROCESS only */
};

typedef struct {
  GTask   *task;           /* owned */
  GSource *cancel_source;  /* owned, or NULL */
} Waiter;

/* DynCredentials */

static void
credentials_clear (DynCredentials *self)
{
  g_free (self->access_key_id);
  _dyn_secret_free (self->secret_access_key);
  _dyn_secret_free (self->session_token);
  g_clear_pointer (&self->expiration, g_date_time_unref);
}

/**
 * dyn_credentials_new:
 * @access_key_id: the access key id
 * @secret_access_key: the secret key
 * @session_token: (nullable): a session token
 * @expiration: (nullable): when they expire
 *
 * Returns: (transfer full): new credentials
 */
DynCredentials *
dyn_credentials_new (const char *access_key_id,
                     const char *secret_access_key,
                     const char *session_token,
                     GDateTime  *expiration)
{
  DynCredentials *self;

  g_return_val_if_fail (access_key_id != NULL, NULL);
  g_return_val_if_fail (secret_access_key != NULL, NULL);

  self = g_atomic_rc_box_new0 (DynCredentials);
  self->access_key_id = g_strdup (access_key_id);
  self->secret_access_key = g_strdup (secret_access_key);
  self->session_token = (session_token != NULL && *session_token != '\0') ? g_strdup (session_token) : NULL;
  self->expiration = expiration != NULL ? g_date_time_to_utc (expiration) : NULL;

  return self;
}

DynCredentials *
dyn_credentials_ref (DynCredentials *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return g_atomic_rc_box_acquire (self);
}

void
dyn_credentials_unref (DynCredentials *self)
{
  g_return_if_fail (self != NULL);

  g_atomic_rc_box_release_full (self, (GDestroyNotify) credentials_clear);
}

gboolean
dyn_credentials_expires_within (const DynCredentials *self,
                                GDateTime            *now,
                                GTimeSpan             margin)
{
  g_autoptr(GDateTime) current = NULL;

  g_return_val_if_fail (self != NULL, TRUE);

  if (self->expiration == NULL)
    return FALSE;

  if (now == NULL)
    now = current = g_date_time_new_now_utc ();

  return g_date_time_difference (self->expiration, now) < margin;
}

/* Helpers */

static char *
redact (const char *text,
        GPtrArray  *secrets)
{
  g_autoptr(GString) s = g_string_new (text);

  for (guint i = 0; secrets != NULL && i < secrets->len; i++)
    {
      const char *secret = g_ptr_array_index (secrets, i);

      if (secret != NULL && strlen (secret) >= 4)
        g_string_replace (s, secret, "****", 0);
    }

  return g_string_free (g_steal_pointer (&s), FALSE);
}

static const char *
json_string_member (JsonObject *object,
                    const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static char *
process_name (DynCredentialsProvider *self)
{
  return g_path_get_basename (self->argv[0]);
}

/* The JSON object a credential_process printed on stdout, or NULL. */
static JsonObject *
output_object (JsonParser *parser,
               GBytes     *out)
{
  const char *out_data = NULL;
  gsize out_len = 0;

  if (out != NULL)
    out_data = g_bytes_get_data (out, &out_len);

  if (out_data != NULL && out_len > 0 && g_utf8_validate_len (out_data, out_len, NULL)
      && json_parser_load_from_data (parser, out_data, out_len, NULL)
      && json_parser_get_root (parser) != NULL
      && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return json_node_get_object (json_parser_get_root (parser));
  return NULL;
}

/* The credentials in what a credential_process that exited with 0 printed
 * (@object, or NULL when that was not a JSON object). */
static DynCredentials *
output_credentials (const char  *profile_name,
                    const char  *program,
                    JsonObject  *object,
                    GError     **error)
{
  g_autoptr(GDateTime) expiration = NULL;
  JsonNode *version;
  const char *access_key_id;
  const char *secret_access_key;
  const char *session_token;
  const char *expiration_text;

  if (object == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                    * profile, the second the program */
                   _("credential_process of profile '%s' (%s) did not print a JSON object"),
                   profile_name, program);
      return NULL;
    }

  version = json_object_get_member (object, "Version");
  if (version == NULL)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process and Version are names; keep them. The first %s
                    * is an AWS profile, the second the program */
                   _("credential_process of profile '%s' (%s) printed no 'Version'; it must be 1"),
                   profile_name, program);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (version) || json_node_get_value_type (version) != G_TYPE_INT64
      || json_node_get_int (version) != 1)
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process and Version are names; keep them. The first %s
                    * is an AWS profile, the second the program */
                   _("credential_process of profile '%s' (%s) printed an unsupported 'Version'; "
                     "only 1 is supported"),
                   profile_name, program);
      return NULL;
    }

  access_key_id = json_string_member (object, "AccessKeyId");
  secret_access_key = json_string_member (object, "SecretAccessKey");
  session_token = json_string_member (object, "SessionToken");
  expiration_text = json_string_member (object, "Expiration");

  if (access_key_id == NULL || *access_key_id == '\0'
      || secret_access_key == NULL || *secret_access_key == '\0')
    {
      const char *missing = (access_key_id == NULL || *access_key_id == '\0') ? "AccessKeyId" : "SecretAccessKey";

      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                    * profile, the second the program, the third AccessKeyId or SecretAccessKey */
                   _("credential_process of profile '%s' (%s) printed no '%s' string"),
                   profile_name, program, missing);
      return NULL;
    }

  if (json_object_has_member (object, "SessionToken") && session_token == NULL
      && !JSON_NODE_HOLDS_NULL (json_object_get_member (object, "SessionToken")))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process and SessionToken are names; keep them. The
                    * first %s is an AWS profile, the second the program */
                   _("credential_process of profile '%s' (%s) printed a 'SessionToken' that is not a string"),
                   profile_name, program);
      return NULL;
    }

  if (expiration_text != NULL)
    {
      g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

      expiration = g_date_time_new_from_iso8601 (expiration_text, utc);
      if (expiration == NULL)
        {
          g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                       /* Translators: credential_process and Expiration are names; keep them. The
                        * first %s is an AWS profile, the second the program */
                       _("credential_process of profile '%s' (%s) printed an 'Expiration' that is not "
                         "an ISO 8601 time"),
                       profile_name, program);
          return NULL;
        }
    }
  else if (json_object_has_member (object, "Expiration")
           && !JSON_NODE_HOLDS_NULL (json_object_get_member (object, "Expiration")))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process and Expiration are names; keep them. The
                    * first %s is an AWS profile, the second the program */
                   _("credential_process of profile '%s' (%s) printed an 'Expiration' that is not a string"),
                   profile_name, program);
      return NULL;
    }

  g_debug ("credential_process of profile '%s' gave credentials for %s%s",
           profile_name, access_key_id, expiration != NULL ? " that expire" : "");

  return dyn_credentials_new (access_key_id, secret_access_key, session_token, expiration);
}

DynCredentials *
_dyn_credentials_from_process_output (const char  *profile_name,
                                      const char  *program,
                                      GBytes      *out,
                                      GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();

  return output_credentials (profile_name, program, output_object (parser, out), error);
}

/* Reads what a credential_process printed. Error messages mention the profile,
 * the program and the process's stderr (with any secret it printed on stdout
 * blanked out), never stdout itself. */
static DynCredentials *
process_result (DynCredentialsProvider  *self,
                GSubprocess             *process,
                GBytes                  *out,
                GBytes                  *err,
                GError                 **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) secrets = g_ptr_array_new ();
  g_autofree char *program = process_name (self);
  JsonObject *object = output_object (parser, out);

  if (object != NULL)
    {
      g_ptr_array_add (secrets, (gpointer) json_string_member (object, "SecretAccessKey"));
      g_ptr_array_add (secrets, (gpointer) json_string_member (object, "SessionToken"));
    }
  if (self->cached != NULL)
    {
      g_ptr_array_add (secrets, self->cached->secret_access_key);
      g_ptr_array_add (secrets, self->cached->session_token);
    }

  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      g_autofree char *clean = NULL;

      if (err != NULL && g_bytes_get_size (err) > 0)
        {
          /* Blank out secrets before cutting, so no part of one survives the cut. */
          g_autofree char *valid = g_utf8_make_valid (g_bytes_get_data (err, NULL), g_bytes_get_size (err));

          clean = redact (g_strstrip (valid), secrets);
          if (g_utf8_strlen (clean, -1) > STDERR_LIMIT)
            *g_utf8_offset_to_pointer (clean, STDERR_LIMIT) = '\0';
        }

      if (g_subprocess_get_if_signaled (process) && clean != NULL && *clean != '\0')
        g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                     /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                      * profile, the second the program, %d the signal, the third %s what the program
                      * printed on its error output */
                     _("credential_process of profile '%s' (%s) was killed by signal %d: %s"),
                     self->profile_name, program, g_subprocess_get_term_sig (process), clean);
      else if (g_subprocess_get_if_signaled (process))
        g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                     /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                      * profile, the second the program, %d the signal */
                     _("credential_process of profile '%s' (%s) was killed by signal %d (no error output)"),
                     self->profile_name, program, g_subprocess_get_term_sig (process));
      else if (clean != NULL && *clean != '\0')
        g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                     /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                      * profile, the second the program, %d its exit status, the third %s what the
                      * program printed on its error output */
                     _("credential_process of profile '%s' (%s) failed with exit status %d: %s"),
                     self->profile_name, program, g_subprocess_get_exit_status (process), clean);
      else
        g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                     /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                      * profile, the second the program, %d its exit status */
                     _("credential_process of profile '%s' (%s) failed with exit status %d (no error output)"),
                     self->profile_name, program, g_subprocess_get_exit_status (process));
      return NULL;
    }

  return output_credentials (self->profile_name, program, object, error);
}

/* Applies the caching rules to the result of a fetch. */
static DynCredentials *
settle (DynCredentialsProvider  *self,
        DynCredentials          *fetched,
        GError                  *fetch_error,
        GError                 **error)
{
  g_autoptr(DynCredentials) creds = fetched;
  g_autoptr(GError) local_error = fetch_error;

  if (creds != NULL)
    {
      if (dyn_credentials_expires_within (creds, NULL, 0))
        {
          /* Hand them out anyway (the clock may be wrong), but do not keep them. */
          g_debug ("%s gave credentials that have already expired", self->description);
          g_clear_pointer (&self->cached, dyn_credentials_unref);
        }
      else
        {
          g_clear_pointer (&self->cached, dyn_credentials_unref);
          self->cached = dyn_credentials_ref (creds);
        }
      return g_steal_pointer (&creds);
    }

  g_assert (local_error != NULL);

  /* A failed early refresh keeps the old credentials while they still work. */
  if (self->cached != NULL && !dyn_credentials_expires_within (self->cached, NULL, 0)
      && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_debug ("Refreshing %s failed, using the previous credentials: %s",
               self->description, local_error->message);
      return dyn_credentials_ref (self->cached);
    }

  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

/* Waiters */

static void
waiter_free (Waiter *waiter)
{
  if (waiter->cancel_source != NULL)
    {
      g_source_destroy (waiter->cancel_source);
      g_source_unref (waiter->cancel_source);
    }
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static void
fetch_free (Fetch *fetch)
{
  g_clear_object (&fetch->process);
  g_clear_object (&fetch->cancellable);
  g_clear_object (&fetch->self);
  g_free (fetch);
}

static gboolean
waiter_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  Waiter *waiter = user_data;
  DynCredentialsProvider *self = g_task_get_source_object (waiter->task);

  g_task_return_error_if_cancelled (waiter->task);
  g_ptr_array_remove (self->waiters, waiter);

  /* Nobody wants the result any more: stop the fetch. A later get starts a new one. */
  if (self->waiters->len == 0 && self->fetch_op != NULL)
    {
      Fetch *fetch = g_steal_pointer (&self->fetch_op);

      g_debug ("Every request for %s was cancelled; stopping the fetch", self->description);
      g_cancellable_cancel (fetch->cancellable);
      if (fetch->process != NULL)
        g_subprocess_force_exit (fetch->process);
    }

  return G_SOURCE_REMOVE;
}

static void
fetch_done (Fetch          *fetch,
            DynCredentials *creds,
            GError         *error)
{
  DynCredentialsProvider *self = fetch->self;
  g_autoptr(DynCredentials) result = NULL;
  g_autoptr(GError) result_error = NULL;
  g_autoptr(GPtrArray) waiters = NULL;

  if (self->fetch_op != fetch)
    {
      /* Abandoned after every waiter was cancelled. */
      g_clear_pointer (&creds, dyn_credentials_unref);
      g_clear_error (&error);
      fetch_free (fetch);
      return;
    }

  self->fetch_op = NULL;
  result = settle (self, creds, error, &result_error);

  waiters = g_steal_pointer (&self->waiters);
  self->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);

  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);

      if (g_task_return_error_if_cancelled (waiter->task))
        continue;
      if (result != NULL)
        g_task_return_pointer (waiter->task, dyn_credentials_ref (result), (GDestroyNotify) dyn_credentials_unref);
      else
        g_task_return_error (waiter->task, g_error_copy (result_error));
    }

  fetch_free (fetch);
}

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Fetch *fetch = user_data;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  GError *error = NULL;
  DynCredentials *creds = NULL;

  if (g_subprocess_communicate_finish (G_SUBPROCESS (object), result, &out, &err, &error))
    creds = process_result (fetch->self, fetch->process, out, err, &error);
  else
    g_subprocess_force_exit (fetch->process);

  fetch_done (fetch, creds, error);
}

static void
custom_fetch_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Fetch *fetch = user_data;
  DynCredentialsProvider *self = fetch->self;
  GError *error = NULL;
  DynCredentials *creds;

  creds = self->fetch_finish (result, &error, self->fetch_data);
  if (creds == NULL && error == NULL)
    /* Translators: %s says where credentials come from, e.g. “credential_process of profile 'dev'” */
    error = g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS, _("%s returned no credentials"), self->description);

  fetch_done (fetch, creds, error);
}

static GSubprocess *
spawn (DynCredentialsProvider  *self,
       GError                 **error)
{
  g_autoptr(GError) local_error = NULL;
  GSubprocess *process;

  process = g_subprocess_newv ((const char * const *) self->argv,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &local_error);
  if (process == NULL)
    {
      g_autofree char *program = process_name (self);

      g_set_error (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                   /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                    * profile, the second the program, the third why it could not be started */
                   _("credential_process of profile '%s' (%s) could not be started: %s"),
                   self->profile_name, program, local_error->message);
      return NULL;
    }

  g_debug ("Running credential_process of profile '%s'", self->profile_name);
  return process;
}

static void
fetch_start (DynCredentialsProvider *self)
{
  Fetch *fetch = g_new0 (Fetch, 1);

  fetch->self = g_object_ref (self);
  fetch->cancellable = g_cancellable_new ();
  self->fetch_op = fetch;

  if (self->kind == KIND_PROCESS)
    {
      GError *error = NULL;

      fetch->process = spawn (self, &error);
      if (fetch->process == NULL)
        {
          fetch_done (fetch, NULL, error);
          return;
        }
      g_subprocess_communicate_async (fetch->process, NULL, fetch->cancellable, communicate_cb, fetch);
    }
  else
    {
      g_assert (self->kind == KIND_CUSTOM);
      self->fetch (fetch->cancellable, custom_fetch_cb, fetch, self->fetch_data);
    }
}

/* GObject */

static void
dyn_credentials_provider_dispose (GObject *object)
{
  DynCredentialsProvider *self = DYN_CREDENTIALS_PROVIDER (object);

  /* Waiters hold a reference to us, so none can be left here. */
  if (self->fetch_op != NULL)
    g_cancellable_cancel (self->fetch_op->cancellable);

  G_OBJECT_CLASS (dyn_credentials_provider_parent_class)->dispose (object);
}

static void
dyn_credentials_provider_finalize (GObject *object)
{
  DynCredentialsProvider *self = DYN_CREDENTIALS_PROVIDER (object);

  g_clear_pointer (&self->cached, dyn_credentials_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->argv, g_strfreev);
  g_clear_pointer (&self->profile_name, g_free);
  g_clear_pointer (&self->description, g_free);
  if (self->fetch_data_destroy != NULL)
    self->fetch_data_destroy (self->fetch_data);

  G_OBJECT_CLASS (dyn_credentials_provider_parent_class)->finalize (object);
}

static void
dyn_credentials_provider_class_init (DynCredentialsProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = dyn_credentials_provider_dispose;
  object_class->finalize = dyn_credentials_provider_finalize;
}

static void
dyn_credentials_provider_init (DynCredentialsProvider *self)
{
  self->waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
}

/* Public API */

/**
 * dyn_credentials_provider_new_static:
 * @access_key_id: the access key id
 * @secret_access_key: the secret key
 * @session_token: (nullable): a session token
 *
 * Returns: (transfer full): a provider that always hands out these keys
 */
DynCredentialsProvider *
dyn_credentials_provider_new_static (const char *access_key_id,
                                     const char *secret_access_key,
                                     const char *session_token)
{
  g_autoptr(DynCredentials) creds = NULL;

  g_return_val_if_fail (access_key_id != NULL, NULL);
  g_return_val_if_fail (secret_access_key != NULL, NULL);

  creds = dyn_credentials_new (access_key_id, secret_access_key, session_token, NULL);
  /* Translators: where the credentials came from: keys given directly */
  return dyn_credentials_provider_new_for_credentials (creds, DYN_CREDENTIALS_SOURCE_STATIC, _("static keys"));
}

DynCredentialsProvider *
dyn_credentials_provider_new_for_credentials (DynCredentials       *credentials,
                                              DynCredentialsSource  source,
                                              const char           *description)
{
  DynCredentialsProvider *self;

  g_return_val_if_fail (credentials != NULL, NULL);

  self = g_object_new (DYN_TYPE_CREDENTIALS_PROVIDER, NULL);
  self->kind = KIND_FIXED;
  self->source = source;
  /* Translators: where the credentials came from: keys given directly */
  self->description = g_strdup (description != NULL ? description : _("static keys"));
  self->cached = dyn_credentials_ref (credentials);

  return self;
}

DynCredentialsProvider *
dyn_credentials_provider_new_process (const char  *command_line,
                                      const char  *profile_name,
                                      GError     **error)
{
  DynCredentialsProvider *self;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (command_line != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (profile_name == NULL)
    profile_name = "default";

  /* The AWS CLI splits the command like a POSIX shell and runs it without one. */
  if (!g_shell_parse_argv (command_line, NULL, &argv, &local_error))
    {
      g_set_error (error, DYN_ERROR, DYN_ERROR_CONFIG,
                   /* Translators: credential_process is a setting; keep it. The first %s is an AWS
                    * profile, the second what is wrong with its command line */
                   _("credential_process of profile '%s' cannot be split into arguments: %s"),
                   profile_name, local_error->message);
      return NULL;
    }

  self = g_object_new (DYN_TYPE_CREDENTIALS_PROVIDER, NULL);
  self->kind = KIND_PROCESS;
  self->source = DYN_CREDENTIALS_SOURCE_PROCESS;
  self->argv = g_steal_pointer (&argv);
  self->profile_name = g_strdup (profile_name);
  /* Translators: where the credentials came from. credential_process is a setting; keep it.
   * %s is an AWS profile */
  self->description = g_strdup_printf (_("credential_process of profile '%s'"), profile_name);

  return self;
}

DynCredentialsProvider *
dyn_credentials_provider_new_custom (DynCredentialsFetchFunc        fetch,
                                     DynCredentialsFetchFinishFunc  finish,
                                     gpointer                       user_data,
                                     GDestroyNotify                 destroy,
                                     const char                    *description)
{
  DynCredentialsProvider *self;

  g_return_val_if_fail (fetch != NULL, NULL);
  g_return_val_if_fail (finish != NULL, NULL);

  self = g_object_new (DYN_TYPE_CREDENTIALS_PROVIDER, NULL);
  self->kind = KIND_CUSTOM;
  self->source = DYN_CREDENTIALS_SOURCE_CUSTOM;
  self->fetch = fetch;
  self->fetch_finish = finish;
  self->fetch_data = user_data;
  self->fetch_data_destroy = destroy;
  /* Translators: where the credentials came from: a provider the program supplies */
  self->description = g_strdup (description != NULL ? description : _("custom credentials"));

  return self;
}

DynCredentialsSource
dyn_credentials_provider_get_source (DynCredentialsProvider *self)
{
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self), DYN_CREDENTIALS_SOURCE_STATIC);

  return self->source;
}

const char *
dyn_credentials_provider_get_description (DynCredentialsProvider *self)
{
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self), NULL);

  return self->description;
}

static gboolean
cache_is_fresh (DynCredentialsProvider *self)
{
  if (self->cached == NULL)
    return FALSE;

  /* Fixed credentials cannot be refreshed: hand them out as they are. */
  return self->kind == KIND_FIXED
         || !dyn_credentials_expires_within (self->cached, NULL, DYN_CREDENTIALS_REFRESH_MARGIN);
}

/**
 * dyn_credentials_provider_get_async:
 * @self: a #DynCredentialsProvider
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the credentials are there
 * @user_data: data for @callback
 *
 * Gets credentials, from the cache when they are fresh, otherwise by fetching
 * them (running credential_process, for example) without blocking.
 */
void
dyn_credentials_provider_get_async (DynCredentialsProvider *self,
                                    GCancellable           *cancellable,
                                    GAsyncReadyCallback     callback,
                                    gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  Waiter *waiter;

  g_return_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, dyn_credentials_provider_get_async);

  if (cache_is_fresh (self))
    {
      g_task_return_pointer (task, dyn_credentials_ref (self->cached), (GDestroyNotify) dyn_credentials_unref);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  waiter = g_new0 (Waiter, 1);
  waiter->task = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      waiter->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (waiter->cancel_source, (GSourceFunc) (void (*) (void)) waiter_cancelled_cb, waiter, NULL);
      g_source_attach (waiter->cancel_source, g_task_get_context (waiter->task));
    }
  g_ptr_array_add (self->waiters, waiter);

  if (self->fetch_op == NULL)
    fetch_start (self);
}

/**
 * dyn_credentials_provider_get_finish:
 *
 * Returns: (transfer full): the credentials, or %NULL with @error set
 */
DynCredentials *
dyn_credentials_provider_get_finish (DynCredentialsProvider  *self,
                                     GAsyncResult            *result,
                                     GError                 **error)
{
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_credentials_provider_get_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  GAsyncResult *result;
} SyncData;

static void
sync_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  SyncData *data = user_data;

  data->result = g_object_ref (result);
}

/**
 * dyn_credentials_provider_get:
 *
 * Like dyn_credentials_provider_get_async() but blocks.
 *
 * Returns: (transfer full): the credentials, or %NULL with @error set
 */
DynCredentials *
dyn_credentials_provider_get (DynCredentialsProvider  *self,
                              GCancellable            *cancellable,
                              GError                 **error)
{
  g_return_val_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (cache_is_fresh (self))
    return dyn_credentials_ref (self->cached);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (self->kind == KIND_PROCESS)
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GBytes) out = NULL;
      g_autoptr(GBytes) err = NULL;
      GError *fetch_error = NULL;
      DynCredentials *creds = NULL;

      process = spawn (self, &fetch_error);
      if (process != NULL)
        {
          if (g_subprocess_communicate (process, NULL, cancellable, &out, &err, &fetch_error))
            creds = process_result (self, process, out, err, &fetch_error);
          else
            g_subprocess_force_exit (process);
        }

      return settle (self, creds, fetch_error, error);
    }
  else
    {
      /* Run the custom fetch in a private main context; it does not share a
       * fetch that may be in flight on another context. */
      g_autoptr(GMainContext) context = g_main_context_new ();
      g_autoptr(GAsyncResult) result = NULL;
      SyncData data = { NULL };
      GError *fetch_error = NULL;
      DynCredentials *creds;

      g_assert (self->kind == KIND_CUSTOM);

      g_main_context_push_thread_default (context);
      self->fetch (cancellable, sync_cb, &data, self->fetch_data);
      while (data.result == NULL)
        g_main_context_iteration (context, TRUE);
      g_main_context_pop_thread_default (context);

      result = data.result;
      creds = self->fetch_finish (result, &fetch_error, self->fetch_data);
      if (creds == NULL && fetch_error == NULL)
        /* Translators: %s says where credentials come from, e.g. “credential_process of profile 'dev'” */
        fetch_error = g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS, _("%s returned no credentials"),
                                   self->description);

      return settle (self, creds, fetch_error, error);
    }
}

void
dyn_credentials_provider_invalidate (DynCredentialsProvider *self)
{
  g_return_if_fail (DYN_IS_CREDENTIALS_PROVIDER (self));

  if (self->kind != KIND_FIXED)
    g_clear_pointer (&self->cached, dyn_credentials_unref);
}
