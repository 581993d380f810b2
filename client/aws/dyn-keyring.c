/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "dyn-keyring"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "dyn-error.h"
#include "dyn-keyring.h"
#include "dyn-secret-private.h"

#define ATTR_CONNECTION_ID "connection-id"
#define ATTR_ACCESS_KEY_ID "access-key-id"

static guint keyring_timeout_ms = DYN_KEYRING_DEFAULT_TIMEOUT_MS;

/* One keyring operation: libsecret gets a cancellable of its own that is
 * cancelled by the caller's cancellable or by the timeout, so that a prompt
 * nobody answers ends in an error instead of a hang. */
typedef struct {
  GCancellable *cancellable;       /* owned, given to libsecret */
  GCancellable *user_cancellable;  /* owned, or NULL */
  gulong        cancelled_id;
  GSource      *timeout_source;    /* owned */
  guint         timeout_ms;
  gboolean      timed_out;
  gboolean      returned;          /* the task has its result */
  GTask        *task;              /* not owned: the task owns the Op */

  /* store */
  char         *connection_id;
  char         *access_key_id;
  char         *label;
  char         *payload;           /* the JSON secret; wiped */
} Op;

const SecretSchema *
dyn_keyring_get_schema (void)
{
  static const SecretSchema schema = {
    DYN_KEYRING_SCHEMA_NAME,
    SECRET_SCHEMA_NONE,
    {
      { ATTR_CONNECTION_ID, SECRET_SCHEMA_ATTRIBUTE_STRING },
      { ATTR_ACCESS_KEY_ID, SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    },
    0, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  };

  return &schema;
}

void
dyn_keyring_set_timeout (guint timeout_ms)
{
  keyring_timeout_ms = timeout_ms > 0 ? timeout_ms : DYN_KEYRING_DEFAULT_TIMEOUT_MS;
}

guint
dyn_keyring_get_timeout (void)
{
  return keyring_timeout_ms;
}

static void
op_free (Op *op)
{
  if (op->user_cancellable != NULL)
    g_cancellable_disconnect (op->user_cancellable, op->cancelled_id);
  g_clear_object (&op->user_cancellable);
  if (op->timeout_source != NULL)
    g_source_destroy (op->timeout_source);
  g_clear_pointer (&op->timeout_source, g_source_unref);
  g_clear_object (&op->cancellable);
  g_free (op->connection_id);
  g_free (op->access_key_id);
  g_free (op->label);
  _dyn_secret_free (op->payload);
  g_free (op);
}

static void
user_cancelled_cb (GCancellable *cancellable,
                   GCancellable *ours)
{
  g_cancellable_cancel (ours);
}

static gboolean
timeout_cb (gpointer user_data)
{
  Op *op = user_data;

  g_debug ("keyring operation timed out after %u ms", op->timeout_ms);
  op->timed_out = TRUE;
  g_clear_pointer (&op->timeout_source, g_source_unref);
  g_cancellable_cancel (op->cancellable);

  /* Do not wait for libsecret to give up: some of its failure paths never
   * call back (a prompt that fails in a way it does not expect). Its late
   * callback, if any, finds the task returned and drops its result. The
   * task stays alive until then, as libsecret holds a reference. */
  if (!op->returned)
    {
      op->returned = TRUE;
      g_task_return_new_error (op->task, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                               /* Translators: %u is a number of seconds; “s” is the unit symbol */
                               _("The system keyring did not answer within %u s: it is probably locked "
                                 "and waiting for a password"),
                               (op->timeout_ms + 999) / 1000);
    }

  return G_SOURCE_REMOVE;
}

static GTask *
op_task_new (GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data,
             gpointer             source_tag)
{
  GTask *task;
  Op *op;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  op = g_new0 (Op, 1);
  op->cancellable = g_cancellable_new ();
  op->timeout_ms = keyring_timeout_ms;
  op->task = task;
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);

  if (cancellable != NULL)
    {
      op->user_cancellable = g_object_ref (cancellable);
      op->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (user_cancelled_cb),
                                                g_object_ref (op->cancellable), g_object_unref);
    }

  op->timeout_source = g_timeout_source_new (op->timeout_ms);
  g_source_set_callback (op->timeout_source, timeout_cb, op, NULL);
  g_source_set_static_name (op->timeout_source, "[dyn] keyring timeout");
  g_source_attach (op->timeout_source, g_task_get_context (task));

  return task;
}

/* Whether the task already has its result (from the timeout); every
 * callback from libsecret checks this first. */
static gboolean
op_returned (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return op->returned;
}

static void
op_return_error (GTask  *task,
                 GError *error)
{
  Op *op = g_task_get_task_data (task);

  op->returned = TRUE;
  g_task_return_error (task, error);
}

static void
op_return_boolean (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  op->returned = TRUE;
  g_task_return_boolean (task, TRUE);
}

static gboolean
is_service_missing (const GError *error)
{
  if (error->domain == G_DBUS_ERROR)
    return error->code == G_DBUS_ERROR_SERVICE_UNKNOWN
           || error->code == G_DBUS_ERROR_NAME_HAS_NO_OWNER
           || error->code == G_DBUS_ERROR_UNKNOWN_OBJECT
           || error->code == G_DBUS_ERROR_UNKNOWN_INTERFACE
           || error->code == G_DBUS_ERROR_UNKNOWN_METHOD
           || error->code == G_DBUS_ERROR_SPAWN_EXEC_FAILED
           || error->code == G_DBUS_ERROR_SPAWN_FAILED
           || error->code == G_DBUS_ERROR_SPAWN_CHILD_EXITED
           || error->code == G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND
           || error->code == G_DBUS_ERROR_FILE_NOT_FOUND
           || error->code == G_DBUS_ERROR_NO_SERVER
           || error->code == G_DBUS_ERROR_DISCONNECTED;

  /* The session bus itself is not there (no address, nothing listening). */
  return error->domain == G_IO_ERROR && error->code != G_IO_ERROR_TIMED_OUT;
}

/* Turns a libsecret/D-Bus error into a message a user can act on. Takes @error. */
static GError *
map_error (Op     *op,
           GError *error)
{
  g_autoptr(GError) owned = error;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (op->timed_out)
        return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                            /* Translators: %u is a number of seconds; “s” is the unit symbol */
                            _("The system keyring did not answer within %u s: it is probably locked "
                              "and waiting for a password"),
                            (op->timeout_ms + 999) / 1000);
      /* Cancelled, but neither by the user nor by our timeout: libsecret
       * gave up on the unlock prompt of a locked keyring (dismissed, or no
       * prompter could be shown). */
      if (op->user_cancellable == NULL || !g_cancellable_is_cancelled (op->user_cancellable))
        return g_error_new_literal (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                    _("The system keyring is locked: unlock it (for example by logging in again) "
                                      "and retry"));
      return g_steal_pointer (&owned);
    }

  g_dbus_error_strip_remote_error (error);

  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED))
    return g_error_new_literal (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                _("The system keyring is locked: unlock it (for example by logging in again) "
                                  "and retry"));

  if (g_error_matches (error, SECRET_ERROR, SECRET_ERROR_NO_SUCH_OBJECT))
    return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                        /* Translators: %s is the keyring service's own message */
                        _("The system keyring has no default keyring to keep secrets in (%s)"), error->message);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                        /* Translators: %s is the keyring service's own message */
                        _("The system keyring did not answer: %s"), error->message);

  if (is_service_missing (error))
    return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                        /* Translators: %s is the system's own message. Keep gnome-keyring and KeePassXC */
                        _("No keyring service is running: install gnome-keyring (or another Secret Service "
                          "such as KeePassXC) and log in again (%s)"), error->message);

  /* Translators: %s is the keyring service's own message */
  return g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS, _("The system keyring failed: %s"), error->message);
}

static GHashTable *
attributes_new (const char *connection_id,
                const char *access_key_id)
{
  GHashTable *attributes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  g_hash_table_insert (attributes, (gpointer) ATTR_CONNECTION_ID, g_strdup (connection_id));
  if (access_key_id != NULL)
    g_hash_table_insert (attributes, (gpointer) ATTR_ACCESS_KEY_ID, g_strdup (access_key_id));

  return attributes;
}

static char *
payload_new (const char *secret_access_key,
             const char *session_token)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "secret");
  json_builder_add_string_value (builder, secret_access_key);
  if (session_token != NULL && *session_token != '\0')
    {
      json_builder_set_member_name (builder, "token");
      json_builder_add_string_value (builder, session_token);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

/* Store ----------------------------------------------------------------------- */

static void
store_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;
  gboolean ok;

  ok = secret_password_store_finish (result, &error);
  if (op_returned (task))
    {
      g_clear_error (&error);
      return;
    }
  if (!ok)
    {
      op_return_error (task, map_error (op, error));
      return;
    }

  g_debug ("stored the secret of connection %s", op->connection_id);
  op_return_boolean (task);
}

/* Finishes a secret_password_clearv() made for @task. Returns FALSE when
 * @task is done: returned already, or now with the error. */
static gboolean
op_clear_finish (GTask        *task,
                 GAsyncResult *result)
{
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;

  /* FALSE without an error means there was nothing to remove. */
  secret_password_clear_finish (result, &error);
  if (op_returned (task))
    {
      g_clear_error (&error);
      return FALSE;
    }
  if (error != NULL)
    {
      op_return_error (task, map_error (op, error));
      return FALSE;
    }
  return TRUE;
}

static void
store_cleared_cb (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = NULL;

  if (!op_clear_finish (task, result))
    return;

  attributes = attributes_new (op->connection_id, op->access_key_id);
  secret_password_storev (dyn_keyring_get_schema (), attributes, SECRET_COLLECTION_DEFAULT,
                          op->label, op->payload, op->cancellable,
                          store_done_cb, g_steal_pointer (&task));
}

void
dyn_keyring_store_async (const char          *connection_id,
                         const char          *access_key_id,
                         const char          *label,
                         const char          *secret_access_key,
                         const char          *session_token,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  Op *op;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');
  g_return_if_fail (access_key_id != NULL && *access_key_id != '\0');
  g_return_if_fail (secret_access_key != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = op_task_new (cancellable, callback, user_data, dyn_keyring_store_async);
  op = g_task_get_task_data (task);
  op->connection_id = g_strdup (connection_id);
  op->access_key_id = g_strdup (access_key_id);
  op->label = label != NULL && *label != '\0'
              /* Translators: the name of a secret in the keyring (as Passwords and Keys shows it);
               * %s is the connection's name */
              ? g_strdup_printf (_("Dynoscope: %s"), label)
              /* Translators: the name of a secret in the keyring (as Passwords and Keys shows it);
               * %s is the connection's identifier */
              : g_strdup_printf (_("Dynoscope connection %s"), connection_id);
  op->payload = payload_new (secret_access_key, session_token);

  /* Remove the secrets of earlier access keys of this connection first:
   * storing only replaces an item whose attributes are all equal. */
  attributes = attributes_new (connection_id, NULL);
  secret_password_clearv (dyn_keyring_get_schema (), attributes, op->cancellable,
                          store_cleared_cb, g_steal_pointer (&task));
}

gboolean
dyn_keyring_store_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_keyring_store_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Lookup ---------------------------------------------------------------------- */

static DynCredentials *
parse_payload (const char  *payload,
               const char  *access_key_id,
               GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *object;
  const char *secret;
  const char *token = NULL;

  if (!json_parser_load_from_data (parser, payload, -1, NULL)
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto bad;

  object = json_node_get_object (json_parser_get_root (parser));
  if (!json_object_has_member (object, "secret")
      || json_node_get_value_type (json_object_get_member (object, "secret")) != G_TYPE_STRING)
    goto bad;
  secret = json_object_get_string_member (object, "secret");
  if (json_object_has_member (object, "token")
      && json_node_get_value_type (json_object_get_member (object, "token")) == G_TYPE_STRING)
    token = json_object_get_string_member (object, "token");
  if (secret == NULL || *secret == '\0')
    goto bad;

  return dyn_credentials_new (access_key_id, secret, token, NULL);

bad:
  /* Never quote the payload: it is the secret. */
  g_set_error_literal (error, DYN_ERROR, DYN_ERROR_CREDENTIALS,
                       _("The keyring entry of this connection is not one Dynoscope wrote; enter the secret "
                         "key again"));
  return NULL;
}

static void
lookup_searched_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;
  GList *found;
  gboolean locked = FALSE;

  found = secret_password_search_finish (result, &error);
  if (op_returned (task))
    {
      g_list_free_full (found, g_object_unref);
      g_clear_error (&error);
      return;
    }
  if (error != NULL)
    {
      op_return_error (task, map_error (op, error));
      return;
    }
  for (GList *l = found; l != NULL; l = l->next)
    if (SECRET_IS_ITEM (l->data) && secret_item_get_locked (l->data))
      locked = TRUE;
  g_list_free_full (found, g_object_unref);

  if (locked)
    op_return_error (task, g_error_new_literal (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                                _("The system keyring is locked: unlock it (for example by "
                                                  "logging in again) and retry")));
  else
    op_return_error (task, g_error_new (DYN_ERROR, DYN_ERROR_CREDENTIALS,
                                        /* Translators: %s is an access key id such as AKIAIOSFODNN7EXAMPLE */
                                        _("No secret key for access key %s is stored in the system keyring: "
                                          "enter it again in the connection's settings"), op->access_key_id));
}

static void
lookup_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;
  char *payload;
  DynCredentials *credentials;

  payload = secret_password_lookup_finish (result, &error);
  if (op_returned (task))
    {
      secret_password_free (payload);
      g_clear_error (&error);
      return;
    }
  if (error != NULL)
    {
      op_return_error (task, map_error (op, error));
      return;
    }
  if (payload == NULL)
    {
      g_autoptr(GHashTable) attributes = attributes_new (op->connection_id, op->access_key_id);

      /* Nothing found, or only locked items whose unlock prompt was
       * dismissed (or could not be shown): a search that does not unlock
       * tells them apart. */
      secret_password_searchv (dyn_keyring_get_schema (), attributes, SECRET_SEARCH_NONE, op->cancellable,
                               lookup_searched_cb, g_steal_pointer (&task));
      return;
    }

  credentials = parse_payload (payload, op->access_key_id, &error);
  secret_password_free (payload);
  if (credentials == NULL)
    {
      op_return_error (task, error);
      return;
    }
  op->returned = TRUE;
  g_task_return_pointer (task, credentials, (GDestroyNotify) dyn_credentials_unref);
}

void
dyn_keyring_lookup_async (const char          *connection_id,
                          const char          *access_key_id,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  Op *op;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');
  g_return_if_fail (access_key_id != NULL && *access_key_id != '\0');
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = op_task_new (cancellable, callback, user_data, dyn_keyring_lookup_async);
  op = g_task_get_task_data (task);
  op->connection_id = g_strdup (connection_id);
  op->access_key_id = g_strdup (access_key_id);

  attributes = attributes_new (connection_id, access_key_id);
  secret_password_lookupv (dyn_keyring_get_schema (), attributes, op->cancellable,
                           lookup_done_cb, g_steal_pointer (&task));
}

DynCredentials *
dyn_keyring_lookup_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_keyring_lookup_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Clear ----------------------------------------------------------------------- */

static void
clear_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  if (op_clear_finish (task, result))
    op_return_boolean (task);
}

void
dyn_keyring_clear_async (const char          *connection_id,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GHashTable) attributes = NULL;
  Op *op;

  g_return_if_fail (connection_id != NULL && *connection_id != '\0');
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = op_task_new (cancellable, callback, user_data, dyn_keyring_clear_async);
  op = g_task_get_task_data (task);

  attributes = attributes_new (connection_id, NULL);
  secret_password_clearv (dyn_keyring_get_schema (), attributes, op->cancellable,
                          clear_done_cb, g_steal_pointer (&task));
}

gboolean
dyn_keyring_clear_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == dyn_keyring_clear_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Provider -------------------------------------------------------------------- */

typedef struct {
  char *connection_id;
  char *access_key_id;
} ProviderData;

static void
provider_data_free (gpointer user_data)
{
  ProviderData *data = user_data;

  g_free (data->connection_id);
  g_free (data->access_key_id);
  g_free (data);
}

static void
provider_fetch (GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             callback_data,
                gpointer             user_data)
{
  ProviderData *data = user_data;

  dyn_keyring_lookup_async (data->connection_id, data->access_key_id, cancellable, callback, callback_data);
}

static DynCredentials *
provider_fetch_finish (GAsyncResult  *result,
                       GError       **error,
                       gpointer       user_data)
{
  return dyn_keyring_lookup_finish (result, error);
}

DynCredentialsProvider *
dyn_keyring_provider_new (const char *connection_id,
                          const char *access_key_id,
                          const char *description)
{
  ProviderData *data;

  g_return_val_if_fail (connection_id != NULL && *connection_id != '\0', NULL);
  g_return_val_if_fail (access_key_id != NULL && *access_key_id != '\0', NULL);

  data = g_new0 (ProviderData, 1);
  data->connection_id = g_strdup (connection_id);
  data->access_key_id = g_strdup (access_key_id);

  return dyn_credentials_provider_new_custom (provider_fetch, provider_fetch_finish, data, provider_data_free,
                                              /* Translators: where the credentials came from */
                                              description != NULL ? description : _("the system keyring"));
}
